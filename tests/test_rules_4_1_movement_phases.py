"""4.1 IX, XII, XV: "conducted in the same order and manner as Phase VI" -- every step of VI runs in each
Movement Phase for that phase's player: GenS is determined at step 1 (12.5), refit is offered at step 2 (17.0),
and what follows reads the status determined there (ZOC 11.1, movement 13.2.2, XVIII supply attrition 12.5.1).

One play-path game of Sonnenblume (26.0), driven only through ``Engine.apply`` with legal actions:

* GT 10 XII (Axis): the overstacked set-up hexes are thinned (10.3);
  XV (Allied): an MSU brings the dump from C2423 into Tobruk (13.7) so the base can be activated;
* GT 11 IV.2: the Allies activate the Tobruk base (12.2.3); V: the Axis keeps the initiative and is 1st player;
  VI (Axis): 300 Oasis (a trucked unit here: 26.0 b) leaves out 16.0, R-RAID-OFF) drives round by C0504 behind the
  2 SG and 3 Lt Arm at the Mersa Brega bottleneck: their LOS from Tobruk must detour beyond 14 MMP; 3 Aufkl drives south-west to C0106, in GenS from El Agheila;
  IX (Allied): at IX.1 the 2 SG and 3 Lt Arm are OGS; KDG moves to C0404, across 3 Aufkl's line;
  XII (Axis): at XII.1 3 Aufkl is OGS; I/18 FLK and Nizza close on KDG from two sides;
  XV (Allied): at XV.1 KDG is isolated; XVIII: KDG, and only KDG, checks supply attrition.
"""

from __future__ import annotations

import pytest

from core.rules import zoc
from tests.playpath import Play

AXIS, ALLIED = "Axis", "Allied"
TOBRUK_DUMP_RUN = ["C2330", "C2329", "C2328", "C2327", "C2326", "C2325", "C2424", "C2423",
                   "C2424", "C2325", "C2326", "C2327", "C2328", "C2329", "C2330", "C2331"]
#: (GT, step) -> the actions taken there, in order: (kind, side, args)
SCRIPT = {
    (10, "XII.3"): [("move", AXIS, {"units": ["GE-5Pz", "GE-Stab200"], "path": ["C0602"]})],
    (10, "XV.3"): [("move", ALLIED, {"units": ["AL-MSU#1"], "path": TOBRUK_DUMP_RUN, "pickup": {"C2423": ["AL-Dump#6"]}})],
    (11, "IV.2"): [("activate_base", ALLIED, {"base": "AL-Base#1"})],
    (11, "VI.3"): [("move", AXIS, {"units": ["GE-300Oasis"], "path": ["C0602", "C0503", "C0504", "C0604", "C0705"]}),
                   ("move", AXIS, {"units": ["GE-3Aufkl"], "path": ["C0602", "C0503", "C0504", "C0404", "C0305",
                                                                    "C0205", "C0106"]})],
    (11, "IX.3"): [("move", ALLIED, {"units": ["UK-KDG"], "path": ["C0504", "C0404"]})],
    (11, "XII.3"): [("move", AXIS, {"units": ["GE-I18FLK"], "path": ["C0602", "C0503", "C0403"]}),
                    ("move", AXIS, {"units": ["IT-Nizza"], "path": ["C0702", "C0602", "C0503", "C0504", "C0505", "C0405"]})],
}
#: where the game is stopped and looked at, in order (scripted steps included)
STOPS = [(10, "XII.3"), (10, "XV.3"), (11, "I.2"), (11, "IV.2"), (11, "VI.2"), (11, "VI.3"), (11, "VIII.1"),
         (11, "IX.2"), (11, "IX.3"), (11, "XI.1"), (11, "XII.2"), (11, "XII.3"), (11, "XIV.1"), (11, "XV.2"),
         (12, "I.2")]
WATCH = ["UK-2SG", "UK-3LtArm", "UK-KDG", "GE-3Aufkl"]


def status(p: Play, uid: str) -> str:
    u = p.state.units[uid]
    return "isolated" if u.isolated else "OGS" if u.ogs else "IGS"


@pytest.fixture(scope="module")
def game():
    """Stops at each point of :data:`STOPS`: (statuses and ZOC of WATCH, pending decision (kind, side), the log
    lines written since the previous stop)."""
    p = Play("sonnenblume", seed=1)
    seen: dict[tuple[int, str], tuple[dict, tuple, list[str]]] = {}
    for gt, step in STOPS:
        n = len(p.eng.log)
        d = p.to(step=step, gt=gt)
        looked = {u: status(p, u) for u in WATCH} | {f"{u} ZOC": zoc.exerts_zoc(p.state.units[u]) for u in WATCH}
        lines = p.events(since=n)
        for kind, side, args in SCRIPT.get((gt, step), []):
            p.act(kind, side, **args)
        seen[(gt, step)] = (looked, (d.kind, d.side), lines)
    return p, seen


def test_4_1_gens_is_determined_at_step_1_of_every_movement_phase_for_its_player(game):
    """12.5 "at the beginning of each friendly Movement Phase": VI.1 and XII.1 for the Axis (1st player),
    IX.1 and XV.1 for the Allies (2nd player), each before that phase's refit step."""
    _, seen = game
    determined = [(stop[1], ln.split()[0]) for stop, (_, _, lines) in seen.items() if stop[0] == 11 and stop > (11, "I.2")
                  for ln in lines if "general supply (12.5)" in ln]
    assert determined == [("VI.2", AXIS), ("IX.2", ALLIED), ("XII.2", AXIS), ("XV.2", ALLIED)]


def test_4_1_refit_is_offered_in_every_movement_phase(game):
    """4.1 VI.2 (17.0) in VI, IX, XII and XV, to that phase's player."""
    _, seen = game
    assert [seen[(11, k)][1] for k in ("VI.2", "IX.2", "XII.2", "XV.2")] == [
        ("refit", AXIS), ("refit", ALLIED), ("refit", AXIS), ("refit", ALLIED)]


def test_4_1_probe_2nd_player_unit_cut_off_in_vi_to_viii_is_ogs_at_ix_1(game):
    """300 Oasis's move in VI cuts the LOS of 2 SG and 3 Lt Arm; they stay marked IGS through VIII and are
    OGS from IX.1 -- and then exert no ZOC (11.1)."""
    _, seen = game
    viii, ix = seen[(11, "VIII.1")][0], seen[(11, "IX.2")][0]
    for uid in ("UK-2SG", "UK-3LtArm"):
        assert viii[uid] == "IGS" and viii[f"{uid} ZOC"]
        assert ix[uid] == "OGS" and not ix[f"{uid} ZOC"]


def test_4_1_probe_1st_player_unit_cut_off_in_ix_to_xi_is_ogs_at_xii_1(game):
    """KDG's move in IX crosses 3 Aufkl's line; 3 Aufkl stays marked IGS through XI and is OGS from XII.1."""
    _, seen = game
    xi, xii = seen[(11, "XI.1")][0], seen[(11, "XII.2")][0]
    assert xi["GE-3Aufkl"] == "IGS" and xi["GE-3Aufkl ZOC"]
    assert xii["GE-3Aufkl"] == "OGS" and not xii["GE-3Aufkl ZOC"]


def test_4_1_xviii_attrition_uses_the_status_determined_in_xv(game):
    """KDG, OGS until XV.1 and isolated there (OGS + disrupted, 12.5), is the one unit that checks supply
    attrition at XVIII.1 (12.5.1); OGS units with an LOC do not."""
    _, seen = game
    assert seen[(11, "XIV.1")][0]["UK-KDG"] == "OGS" and seen[(11, "XV.2")][0]["UK-KDG"] == "isolated"
    assert "KDG is disrupted: isolated (12.5)" in seen[(11, "XV.2")][2]
    checks = [ln for ln in seen[(12, "I.2")][2] if "supply attrition, 12.5.1" in ln]
    assert len(checks) == 1 and checks[0].startswith("Morale check (supply attrition, 12.5.1): KDG ")


def test_4_1_xv_fort_of_the_2nd_player_completes_at_ix_1():
    """18.1 "If the unit is still in place at the beginning of the next friendly Movement Phase, the fort is
    completed": an Allied (2nd player) F0 begun in XV of GT 10 is complete at IX.1 of GT 11 (4.1 IX runs VI.1)."""
    p = Play("sonnenblume", seed=1)
    p.to(step="XV.3", gt=10)
    where = p.state.units["AU-20AusBG"].loc
    p.act("build_fort", ALLIED, unit="AU-20AusBG", level=0)
    p.to(step="VIII.1", gt=11)
    assert p.state.vars["forts"][where]["building"] == "AU-20AusBG"
    n = len(p.eng.log)
    p.to(step="IX.2", gt=11)
    assert p.state.vars["forts"][where]["level"] == 0 and not p.state.vars["forts"][where]["building"]
    assert f"The F0 fort in {where} is complete (18.1)" in p.events(since=n)
