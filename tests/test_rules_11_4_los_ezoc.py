"""11.4: "LOC and LOS may not be traced through EZOC unless the hex is occupied by a friendly unit at the
beginning of the Movement Phase" (ruling G-LOS-EZOC).

The hexes held at the beginning of every Movement Phase are recorded at its step 1, and every line traced until
the next one lets only those negate EZOC.  The play-path game of tests/test_rules_4_1_movement_phases.py traces
every GenS through that record; here a dump's combat-supply LOS (7 MMP, 12.6.1) on an all-clear map shows the
difference: two Allied units' ZOC cross the straight line from the dump to 5 Pz, and 3 Aufkl in the EZOC hex on
that line opens it only if it was there when the Movement Phase began."""

from __future__ import annotations

from core.decisions import AXIS, Action
from core.rules import combat, supply
from tests.ground_helpers import engine_at_movement, unit

GAP = "C1004"


def game(aufkl_at: str):
    """The dump in C1001 is 6 MMP from 5 Pz in C1007 along column 10.  2 SG (C0904) and KDG (C1104) put C1003
    and C1004 in their ZOC; every way around is longer than the dump's 7 MMP.  605 PzJg holds C1003 from the
    start."""
    units = [unit("AX-Dump#1", AXIS, "C1001"), unit("GE-5Pz", AXIS, "C1007", steps=2),
             unit("GE-605PzJg", AXIS, "C1003"), unit("GE-3Aufkl", AXIS, aufkl_at),
             unit("UK-2SG", "Allied", "C0904", steps=2), unit("UK-KDG", "Allied", "C1104")]
    eng = engine_at_movement(units, step=1)             # VI.1 runs: the hexes held are recorded (11.4)
    while eng.pending().kind != "movement":
        eng.apply(next(o.action for o in eng.pending().options if o.action.kind == "done"))
    return eng


def test_11_4_ezoc_hex_held_at_the_start_of_the_movement_phase_negates(gm):
    eng = game(GAP)
    assert GAP in eng.state.vars[supply.MP_START][AXIS]
    assert combat.dumps_for(eng.state, AXIS, "C1007") == ["AX-Dump#1"]


def test_11_4_ezoc_hex_entered_during_the_phase_does_not_negate(gm):
    eng = game("C1005")
    assert combat.dumps_for(eng.state, AXIS, "C1007") == []                # the band blocks the line
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-3Aufkl"], "path": [GAP]}))                            # into the EZOC on the line
    assert eng.state.units["GE-3Aufkl"].loc == GAP
    assert combat.dumps_for(eng.state, AXIS, "C1007") == []                # still closed until the next phase
    assert combat.dumps_for(eng.state, AXIS, GAP) == ["AX-Dump#1"]         # a line may end there, not pass it
