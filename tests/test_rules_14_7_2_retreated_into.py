"""14.7.2: a unit retreating into a friendly-occupied hex that is attacked later in the phase adds nothing
to its defence but suffers the results; 14.1 / 15.1 defensive artillery from an adjacent hex."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS
from core.dice import ScriptedDice
from core.rules import combat, tec
from core.rules.special_units import info
from tests.rules_combat_kit import act, desert_map, make_state, start


@pytest.fixture(autouse=True)
def desert():
    tec.use_map(desert_map())
    yield
    tec.use_map(None)


def settle_defaults(eng, stop_at=None):
    """Answer every pending decision with a neutral choice until ``stop_at`` (a decision kind) or the end."""
    n = 0
    while (d := eng.pending()) is not None and n < 80 and d.kind != stop_at:
        prefer = {"combat_supply": lambda o: o.action.args.get("dump") is None,
                  "combat_morale": lambda o: o.action.args.get("choice") == "check",
                  "combat_retreat": lambda o: o.action.args.get("stop") or o.action.args.get("hold"),
                  "combat_advance": lambda o: o.action.kind == "advance_done",
                  "combat_battlefield_supply": lambda o: not o.action.args.get("attempt"),
                  "combat_def_artillery": lambda o: o.action.args.get("unit") is None,
                  "combat_support": lambda o: o.action.kind == "support_done",
                  "combat_exploit": lambda o: o.action.kind == "exploit_done",
                  "combat_fleet_strike": lambda o: o.action.args.get("unit") is None,
                  "overrun_reaction": lambda o: o.action.kind == "done"}.get(d.kind, lambda o: True)
        eng.apply(next((o for o in d.options if prefer(o)), d.options[0]).action)
        n += 1


def test_14_7_2_unit_retreating_into_a_hex_later_attacked_adds_no_strength_but_suffers_results():
    st = make_state([("GE-5Pz", AXIS, "C0802", 2), ("IT-132Ariete", AXIS, "C0705", 2),
                     ("UK-KDG", ALLIED, "C0803", 1), ("UK-2Arm", ALLIED, "C0804", 2)])
    # combat 1: 9 : 1 -> column 10 (7:1), die 1 -> 11: KDG (morale 2) Qw, a quarter step rounds to 0, withdraws
    eng, fr = start(st, ScriptedDice([1, 1, 1, 1, 1, 1, 1, 1]), proc="combat_phase", side=AXIS)
    act(eng, "declare", AXIS, attackers=["GE-5Pz"], hexes=["C0803"])
    act(eng, "declare", AXIS, attackers=["IT-132Ariete"], hexes=["C0804"])
    act(eng, "done", AXIS)
    act(eng, "resolve", AXIS, combat=0)
    settle_defaults(eng, stop_at="combat_retreat")
    assert eng.pending().context["unit"] == "UK-KDG"
    act(eng, "retreat", ALLIED, unit="UK-KDG", to="C0804")       # into the 2 Arm's hex (and the Ariete's ZOC)
    assert eng.state.units["UK-KDG"].loc == "C0804"
    settle_defaults(eng, stop_at="combat_supply")    # the second combat begins
    top = eng.state.stack[-1]
    assert top.proc == "resolve_combat" and "UK-KDG" in top.data["defenders"]
    v = combat.combat_view(eng.state, AXIS, ["IT-132Ariete"], ["C0804"], "regular", top.data)
    from core.rules import special_units as su

    s = su.strengths(eng.state, v)
    kdg = next(x for x in s["defenders"] if x["unit"] == "UK-KDG")
    assert kdg["value"] == "0" and "14.7.2" in kdg["notes"][0]
    assert s["defence"] == info(eng.state, "UK-2Arm").cf
    settle_defaults(eng)
    res = fr.data["combats"][1]["outcome"]["defender_result"]
    assert "UK-KDG" in res                       # it suffers the results as if participating
    assert all("retreated_in" not in u.flags for u in eng.state.units.values())   # cleared after the phase


def test_14_1_defensive_artillery_from_an_adjacent_hex_not_attacked_this_phase():
    st = make_state([("GE-5Pz", AXIS, "C0802", 2), ("UK-2Arm", ALLIED, "C0803", 2),
                     ("UK-51Spt", ALLIED, "C0904", 1), ("AL-Dump#1", ALLIED, "C0904")])
    eng, fr = start(st, ScriptedDice([3]), attackers=["GE-5Pz"], hexes=["C0803"], attacked_hexes=["C0803"])
    d = eng.pending()
    assert d.kind == "combat_def_artillery" and d.side == ALLIED and d.rule == "15.1"
    act(eng, "defensive_artillery", ALLIED, unit="UK-51Spt")
    act(eng, "combat_supply", AXIS, dump=None)
    d = eng.pending()                 # the supporting artillery's hex needs combat supply too (15.1, 12.6)
    assert d.kind == "combat_supply" and d.context is not None
    hexes = set()
    while eng.pending().kind == "combat_supply":
        d = eng.pending()
        h = d.options[0].action.args["hex"]
        hexes.add(h)
        act(eng, "combat_supply", ALLIED, hex=h, dump="AL-Dump#1" if h == "C0904" else None)
    assert "C0904" in hexes
    pv = combat.preview(eng.state, AXIS, ["GE-5Pz"], ["C0803"], "regular", fr.data)
    assert pv["defender_support"] == 2 and "UK-51Spt" in pv["defender_shifts"][0]["why"]
    assert eng.state.units["UK-51Spt"].flags["def_art_used"] == combat.phase_tag(eng.state)


def test_15_1_no_defensive_artillery_from_a_hex_itself_attacked_this_phase():
    st = make_state([("GE-5Pz", AXIS, "C0802", 2), ("GE-Kasta", AXIS, "C0805", 1), ("UK-2Arm", ALLIED, "C0803", 2),
                     ("UK-51Spt", ALLIED, "C0804", 1)])
    eng, fr = start(st, ScriptedDice([3]), attackers=["GE-5Pz"], hexes=["C0803"], attacked_hexes=["C0803", "C0804"])
    assert eng.pending().kind != "combat_def_artillery"
