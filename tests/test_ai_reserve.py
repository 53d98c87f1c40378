"""The computer opponent uses reserves (13.6) and reacts from reserve (13.5, 13.6) (issue 21, ``core.ai.reserve``).
Hand-built positions; reserve and reaction from reserve are reached by play in tests/test_rules_13_6_reserve.py."""

from __future__ import annotations

from core.ai import AIPlayer
from core.decisions import ALLIED, AXIS
from tests.ground_helpers import engine_at_movement, unit
from tests.test_ai import answers


def test_puts_an_idle_motorised_unit_behind_the_front_in_reserve(gm):
    # 5 Pz on its active base, no enemy within three hexes: nothing to move for, so it enters reserve in place
    eng = engine_at_movement([unit("AX-Base#1", AXIS, "C1205", active=True), unit("GE-5Pz", AXIS, "C1205", steps=2)])
    acts = answers(eng, AXIS, 4)
    assert acts[0].args == {"units": ["GE-5Pz"], "path": [], "reserve": True}
    assert eng.state.units["GE-5Pz"].reserve and eng.state.units["GE-5Pz"].loc == "C1205"


def test_no_reserve_next_to_the_enemy(gm):
    # KDG two hexes away: 5 Pz keeps its ZOC (13.6: a reserve unit projects none) and is not put in reserve
    eng = engine_at_movement([unit("AX-Base#1", AXIS, "C1205", active=True), unit("GE-5Pz", AXIS, "C1205", steps=2),
                              unit("UK-KDG", ALLIED, "C1207")])
    answers(eng, AXIS, 6)
    assert not eng.state.units["GE-5Pz"].reserve


def _reaction(reserve: bool):
    # Axis Movement Phase done: 5 Pz and 3 Aufkl next to 2 SG (C1012); 7 Lt Arm one hex behind it
    eng = engine_at_movement([unit("UK-7LtArm", ALLIED, "C1011", steps=2, reserve=reserve),
                              unit("UK-2SG", ALLIED, "C1012"), unit("GE-5Pz", AXIS, "C1013", steps=2),
                              unit("GE-3Aufkl", AXIS, "C1013")], phase=7, step=1)
    assert eng.pending().kind == "reaction" and eng.pending().side == ALLIED
    ai = AIPlayer(ALLIED, 1)
    first = ai.choose(eng.pending(), eng)
    eng.apply(first)
    return eng, first, ai


def test_reacts_from_reserve_into_an_outnumbered_hex():
    eng, first, ai = _reaction(reserve=True)
    assert first.kind == "move" and first.args == {"units": ["UK-7LtArm"], "path": ["C1012"]}
    assert eng.state.units["UK-7LtArm"].loc == "C1012" and "reserve" in ai.plan
    assert not eng.state.units["UK-7LtArm"].reserve                      # 13.6: the marker goes when it moves


def test_a_unit_not_in_reserve_is_not_committed():
    eng, first, _ = _reaction(reserve=False)
    assert first.kind == "done" and eng.state.units["UK-7LtArm"].loc == "C1011"
