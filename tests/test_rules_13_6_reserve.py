"""13.6 Reserve Status, sentence by sentence.  One play-path game of Sonnenblume (26.0) reaches every sentence
through ``Engine.apply``; hand-built positions add the boundaries (half the printed MA, and a quarter MP more)
and the sentences a short game does not reach (attacking, overrunning while reacting).

GT 10 XII (Axis): 132 Ariete moves one road hex to S0733 and enters reserve; 3 Aufkl enters reserve without
moving; 5 Pz and Stab 200 move next to KDG (C0602, in its ZOC) and may not enter reserve.
XV (Allied): 2 SG moves next to the C0702 stack.  XVI (Axis): 132 Ariete, far from any enemy, reacts from
reserve.  XVII (Allied): 2 SG attacks C0702, where 3 Aufkl is in reserve.
"""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.rules import zoc
from tests.ground_helpers import engine_at_movement, unit
from tests.play_kit import move, new_game, play, where
from tests.rules_combat_kit import make_state, start

RESERVE = Action(kind="reserve", side=AXIS, args={"units": ["GE-3Aufkl"]})


@pytest.fixture(scope="module")
def game():
    eng = new_game("sonnenblume")
    out: dict = {}
    play(eng, until=(10, "XII.3"))
    with pytest.raises(IllegalAction) as exc:          # into KDG's ZOC: no reserve (the state is untouched)
        eng.apply(move(AXIS, ["GE-5Pz", "GE-Stab200"], ["C0602"], reserve=True))
    out["ezoc_refusal"] = exc.value
    script = {
        (10, "XII.3"): [move(AXIS, ["IT-132Ariete"], ["S0733"], reserve=True), RESERVE,
                        move(AXIS, ["GE-5Pz", "GE-Stab200"], ["C0602"])],
        (10, "XV.3"): [move(ALLIED, ["UK-2SG"], ["C0802"])],
        (10, "XVI.1"): [move(AXIS, ["IT-132Ariete"], ["S0832"])],
        (10, "XVII.1"): [Action(kind="declare", side=ALLIED, args={"attackers": ["UK-2SG"], "hexes": ["C0702"],
                                                                   "form": "regular"})],
    }
    lines = play(eng, until=(10, "XIII.1"), script=script)
    u = eng.state.units
    out["XIII"] = {k: (u[k].reserve, zoc.exerts_zoc(u[k])) for k in ("IT-132Ariete", "GE-3Aufkl", "GE-5Pz")}
    lines += play(eng, until=(10, "XVI.1"), script=script)
    out["XVI"] = {k: u[k].reserve for k in ("IT-132Ariete", "GE-3Aufkl")}
    lines += play(eng, until=(10, "XVII.1"), script=script)
    out["XVII"] = {k: (u[k].reserve, u[k].loc, zoc.exerts_zoc(u[k])) for k in ("IT-132Ariete", "GE-3Aufkl")}
    lines += play(eng, until=(10, "XX.1") if False else (11, "I.2"), script=script)
    out["after_combat"] = {k: u[k].reserve for k in ("GE-3Aufkl",)}
    out["lines"] = lines
    return eng, out


def test_13_6_enters_reserve_after_moving_no_more_than_half_its_printed_ma(game):
    """"A unit may enter reserve status during a friendly Movement Phase, if it has used no more than one-half
    its printed MA": 132 Ariete after 1 MP (of 22), 3 Aufkl without moving; "Place a reserve marker"."""
    _, out = game
    assert out["XIII"]["IT-132Ariete"][0] and out["XIII"]["GE-3Aufkl"][0]
    assert any(ln.text == "132 Ariete enters reserve (13.6)" for ln in out["lines"])


def test_13_6_no_reserve_after_moving_into_an_ezoc(game):
    """"The unit cannot have started its movement or moved into an EZOC": 5 Pz and Stab 200 into KDG's ZOC."""
    eng, out = game
    assert out["ezoc_refusal"].rule == "13.6" and "enemy ZOC" in str(out["ezoc_refusal"])
    assert not out["XIII"]["GE-5Pz"][0]


def test_13_6_reserve_units_project_no_zoc(game):
    """"It does not project a ZOC"; the same units do once the marker is gone (11.1)."""
    _, out = game
    assert out["XIII"]["IT-132Ariete"] == (True, False) and out["XIII"]["GE-3Aufkl"] == (True, False)
    assert out["XVII"]["IT-132Ariete"] == (False, "S0832", True)


def test_13_6_remains_in_reserve_across_phases(game):
    """"It may remain in reserve indefinitely": 3 Aufkl keeps its marker from XII through XVII."""
    _, out = game
    assert out["XVI"]["GE-3Aufkl"] and out["XVII"]["GE-3Aufkl"][0]


def test_13_6_reacts_regardless_of_proximity_without_morale_check_and_loses_the_marker(game):
    """13.6: "it may react regardless of the proximity of enemy units" (S0733 is far from every Allied unit,
    13.5 asks two hexes); "It does not make a morale check after reacting"; "The marker is removed if the unit
    moves"."""
    _, out = game
    assert out["XVI"]["IT-132Ariete"]
    assert out["XVII"]["IT-132Ariete"][:2] == (False, "S0832")
    assert not any("132 Ariete" in ln.text and "orale" in ln.text for ln in out["lines"])


def test_13_6_marker_removed_when_the_unit_defends(game):
    """"The marker is removed if the unit ... engages in combat (attack or defense)": 2 SG attacks C0702."""
    _, out = game
    assert out["XVII"]["GE-3Aufkl"][0] and not out["after_combat"]["GE-3Aufkl"]
    assert any(ln.text == "3 Aufkl leaves reserve: it defends (13.6)" for ln in out["lines"])


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
    assert where(eng2) == (10, "VII.1")
    assert "AX-MSU#1" not in eng2.state.units or eng2.state.units["AX-MSU#1"].loc != "C1008"
