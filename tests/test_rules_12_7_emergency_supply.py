"""12.7 Emergency Supply: "The unit is in both GenS and combat supply" -- played from Sonnenblume (26.0)
through ``Engine.apply``: the Axis gives 27 Brescia emergency supply from a dump at the beginning of the GT 10
Movement Phase (XII), moves it next to KDG and attacks in the Combat Phase (XIV): no combat-supply decision is
asked for its hex and it fights supplied (ruling G-EMERGENCY-COMBAT); at the beginning of the next Axis Movement
Phase the marker goes and a morale check is made (12.7)."""

from __future__ import annotations

import pytest

from core.decisions import AXIS, Action
from tests.play_kit import move, new_game, play

EMERGENCY = Action(kind="emergency_supply", side=AXIS, args={"unit": "IT-27Brescia", "dump": "AX-Dump#1"})
ATTACK = Action(kind="declare", side=AXIS, args={"attackers": ["IT-27Brescia"], "hexes": ["C0603"], "form": "regular"})


@pytest.fixture(scope="module")
def game():
    eng = new_game("sonnenblume")
    script = {(10, "XII.3"): [EMERGENCY, move(AXIS, ["IT-27Brescia"], ["C0702", "C0602"])], (10, "XIV.1"): [ATTACK]}
    decisions: list = []
    lines = play(eng, until=(10, "XIV.1"), script=script)
    at_combat = eng.state.units["IT-27Brescia"]
    status = (at_combat.emergency, at_combat.ogs)
    lines += play(eng, until=(10, "XV.2"), script=script, decisions=decisions)
    return eng, status, lines, decisions


def test_12_7_emergency_supply_is_gens_and_combat_supply(game):
    eng, status, lines, decisions = game
    assert status == (True, False)                         # in GenS (12.7) when the Combat Phase begins
    asked = [(gt, step, side) for gt, step, kind, side in decisions if kind == "combat_supply" and side == AXIS]
    assert asked == []                                     # nothing to decide for C0602: it is in combat supply
    assert any(ln.text.startswith("Attackers in combat supply") and "IT-27Brescia" in ln.text for ln in lines)
    assert not any("not in combat supply" in ln.text and "C0602" in ln.text for ln in lines)


def test_12_7_marker_removed_with_a_morale_check_at_the_next_friendly_movement_phase():
    eng = new_game("sonnenblume")
    script = {(10, "XII.3"): [EMERGENCY]}
    play(eng, until=(10, "XV.2"), script=script)
    assert eng.state.units["IT-27Brescia"].emergency         # the Allied Movement Phase is not a friendly one
    lines = play(eng, until=(11, "VI.2"))
    assert not eng.state.units["IT-27Brescia"].emergency
    assert any(ln.step == "VI.2" and "end of emergency supply, 12.7" in ln.text and "27 Brescia" in ln.text
               for ln in lines)
