"""13.6 Reserve Status, sentence by sentence.  One play-path game of Sonnenblume (26.0) reaches every sentence
through ``Engine.apply``; hand-built positions add the boundaries (half the printed MA, and a quarter MP more)
and the sentences a short game does not reach (attacking, overrunning while reacting).

GT 10 XII (Axis): 27 Brescia moves two hexes (6 MP of its printed 14) to C0501
and enters reserve; 3 Aufkl enters reserve without
moving; 5 Pz and Stab 200 move next to KDG (C0602, in its ZOC) and may not enter reserve.
XV (Allied): 2 SG moves next to the C0702 stack.  XVI (Axis): 27 Brescia, far from any enemy, reacts from
reserve.  XVII (Allied): 2 SG attacks C0702, where 3 Aufkl is in reserve.
"""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.rules import zoc
from tests.ground_helpers import engine_at_movement, unit
from tests.playpath import Play
from tests.rules_combat_kit import make_state, start


def move(side: str, units: list[str], path: list[str], **kw) -> Action:
    return Action(kind="move", side=side, args={"units": units, "path": path, **kw})


def look(p: Play, *uids: str) -> dict:
    return {k: (p.state.units[k].reserve, p.state.units[k].loc, zoc.exerts_zoc(p.state.units[k])) for k in uids}


@pytest.fixture(scope="module")
def game():
    p = Play("sonnenblume", seed=1)
    out: dict = {}
    p.to(step="XII.3", gt=10)
    n = len(p.eng.log)
    out["ezoc_refusal"] = p.refuse("move", AXIS, units=["GE-5Pz", "GE-Stab200"], path=["C0602"], reserve=True)
    p.act("move", AXIS, units=["IT-27Brescia"], path=["C0601", "C0501"], reserve=True)
    p.act("reserve", AXIS, units=["GE-3Aufkl"])
    p.act("move", AXIS, units=["GE-5Pz", "GE-Stab200"], path=["C0602"])
    p.to(step="XIII.1", gt=10)
    out["XIII"] = look(p, "IT-27Brescia", "GE-3Aufkl", "GE-5Pz")
    p.to(step="XV.3", gt=10)
    p.act("move", ALLIED, units=["UK-2SG"], path=["C0802"])
    p.to(step="XVI.1", gt=10)
    out["XVI"] = look(p, "IT-27Brescia", "GE-3Aufkl")
    p.act("move", AXIS, units=["IT-27Brescia"], path=["C0401"])           # far from every Allied unit (13.5)
    p.to(step="XVII.1", gt=10)
    out["XVII"] = look(p, "IT-27Brescia", "GE-3Aufkl")
    p.act("declare", ALLIED, attackers=["UK-2SG"], hexes=["C0702"], form="regular")
    p.to(step="I.2", gt=11)
    out["after_combat"] = look(p, "GE-3Aufkl")
    out["lines"] = p.events(since=n)
    return p, out


def test_13_6_enters_reserve_after_moving_no_more_than_half_its_printed_ma(game):
    """"A unit may enter reserve status during a friendly Movement Phase, if it has used no more than one-half
    its printed MA": 27 Brescia after 6 MP (of 14; Sonnenblume plays on Maps C and W only,
    R-MAPS-IN-PLAY, so the unit stays on Map C), 3 Aufkl without moving; "Place a reserve marker"."""
    _, out = game
    assert out["XIII"]["IT-27Brescia"][0] and out["XIII"]["GE-3Aufkl"][0]
    assert "27 Brescia enters reserve (13.6)" in out["lines"]


def test_13_6_no_reserve_after_moving_into_an_ezoc(game):
    """"The unit cannot have started its movement or moved into an EZOC": 5 Pz and Stab 200 into KDG's ZOC."""
    _, out = game
    assert out["ezoc_refusal"].rule == "13.6" and "enemy ZOC" in str(out["ezoc_refusal"])
    assert not out["XIII"]["GE-5Pz"][0]


def test_13_6_reserve_units_project_no_zoc(game):
    """"It does not project a ZOC"; the same units do once the marker is gone (11.1)."""
    _, out = game
    assert out["XIII"]["IT-27Brescia"] == (True, "C0501", False) and out["XIII"]["GE-3Aufkl"] == (True, "C0702", False)
    assert out["XVII"]["IT-27Brescia"] == (False, "C0401", True)


def test_13_6_remains_in_reserve_across_phases(game):
    """"It may remain in reserve indefinitely": 3 Aufkl keeps its marker from XII through XVII."""
    _, out = game
    assert out["XVI"]["GE-3Aufkl"][0] and out["XVII"]["GE-3Aufkl"][0]


def test_13_6_reacts_regardless_of_proximity_without_morale_check_and_loses_the_marker(game):
    """13.6: "it may react regardless of the proximity of enemy units" (C0501 is far from every Allied unit,
    13.5 asks two hexes); "It does not make a morale check after reacting"; "The marker is removed if the unit
    moves"."""
    _, out = game
    assert out["XVI"]["IT-27Brescia"][0]
    assert out["XVII"]["IT-27Brescia"][:2] == (False, "C0401")
    assert not any("27 Brescia" in ln and "orale" in ln for ln in out["lines"])


def test_13_6_marker_removed_when_the_unit_defends(game):
    """"The marker is removed if the unit ... engages in combat (attack or defense)": 2 SG attacks C0702."""
    _, out = game
    assert out["XVII"]["GE-3Aufkl"][0] and not out["after_combat"]["GE-3Aufkl"][0]
    assert "3 Aufkl leaves reserve: it defends (13.6)" in out["lines"]


# ------------------------------------------------------------------ hand-built: boundaries and the rest
def test_13_6_half_the_printed_ma_is_the_limit(gm):
    """5 Pz (MA 22): 11 MP spent (the limit) may enter reserve; 11.25 MP (the next legal cost) may not."""
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C1001", steps=2)])
    with pytest.raises(IllegalAction) as exc:
        eng.apply(move(AXIS, ["GE-5Pz"], [f"C10{c:02d}" for c in range(2, 13)] + ["C1113"], reserve=True))
    assert exc.value.rule == "13.6"
    eng.apply(move(AXIS, ["GE-5Pz"], [f"C10{c:02d}" for c in range(2, 13)], reserve=True))
    assert eng.state.units["GE-5Pz"].reserve


def test_13_6_marker_removed_when_the_unit_attacks():
    st = make_state([("GE-5Pz", AXIS, "C1001", 2, {"reserve": True}), ("UK-2SG", ALLIED, "C1002", 2)])
    eng, _ = start(st, ScriptedDice([]), attackers=["GE-5Pz"], hex="C1002")
    assert not eng.state.units["GE-5Pz"].reserve


def test_13_6_reserve_may_enter_ezoc_and_overrun_while_reacting(gm):
    """"may enter an EZOC even if the projecting enemy unit is not adjacent to a friendly unit"; "It may overrun
    while reacting" (an MSU alone: any unit may overrun it, 13.4.1)."""
    def units():
        return [unit("UK-KDG", ALLIED, "C1010", reserve=True), unit("GE-5Pz", AXIS, "C1013", steps=2),
                unit("AX-MSU#1", AXIS, "C1008")]

    eng = engine_at_movement(units(), phase=7, step=1)
    assert eng.pending().kind == "reaction"
    eng.apply(move(ALLIED, ["UK-KDG"], ["C1011", "C1012"]))          # into 5 Pz's ZOC, no friend next to 5 Pz
    assert eng.state.units["UK-KDG"].loc == "C1012" and not eng.state.units["UK-KDG"].reserve
    eng2 = engine_at_movement(units(), phase=7, step=1)
    eng2.apply(move(ALLIED, ["UK-KDG"], ["C1009", "C1008"]))         # overrun the lone MSU
    assert eng2.step.key == "VII.1"
    assert "AX-MSU#1" not in eng2.state.units or eng2.state.units["AX-MSU#1"].loc != "C1008"


def test_13_6_a_move_that_stays_put_with_reserve_enters_reserve_in_place(gm):
    """"A unit may enter reserve status during a friendly Movement Phase, if it has used no more than one-half its
    printed MA": a ``move`` naming ``reserve`` and no path (0 MP used) places the marker, as the ``reserve`` order
    does (the play path above: 3 Aufkl); it was accepted and marked the unit moved without a marker.  "The unit cannot
    have started its movement ... in an EZOC": next to KDG the same move is refused."""
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C1001", steps=2)])
    eng.apply(move(AXIS, ["GE-5Pz"], [], reserve=True))
    assert eng.state.units["GE-5Pz"].reserve
    assert "5 Pz enters reserve (13.6)" in eng.log[-1].events
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C1001", steps=2), unit("UK-KDG", ALLIED, "C1002")])
    with pytest.raises(IllegalAction) as exc:
        eng.apply(move(AXIS, ["GE-5Pz"], [], reserve=True))
    assert exc.value.rule == "13.6" and not eng.state.units["GE-5Pz"].reserve


def test_13_6_no_reserve_while_reacting(gm):
    """13.6 "during a friendly Movement Phase": a reacting unit may not enter reserve (it was marked at the end of
    its reaction move)."""
    eng = engine_at_movement([unit("UK-KDG", ALLIED, "C1010", reserve=True), unit("GE-5Pz", AXIS, "C1013", steps=2)],
                             phase=7, step=1)
    assert eng.pending().kind == "reaction"
    with pytest.raises(IllegalAction) as exc:
        eng.apply(move(ALLIED, ["UK-KDG"], ["C1011"], reserve=True))
    assert exc.value.rule == "13.6"
    eng.apply(move(ALLIED, ["UK-KDG"], ["C1011"]))
    assert not eng.state.units["UK-KDG"].reserve                    # "removed if the unit moves"
