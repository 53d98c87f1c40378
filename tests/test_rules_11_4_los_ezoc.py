"""11.4: "LOC and LOS may not be traced through EZOC unless the hex is occupied by a friendly unit at the
beginning of the Movement Phase" (ruling G-LOS-EZOC).

The hexes held at the beginning of every Movement Phase are recorded at its step 1, and every line traced until
the next one lets only those negate EZOC.  The play-path game of tests/test_rules_4_1_movement_phases.py traces
every GenS through that record; here a dump's combat-supply LOS (7 MMP, 12.6.1) on an all-clear map shows the
difference: two Allied units' ZOC cross the straight line from the dump to 5 Pz, and 3 Aufkl in the EZOC hex on
that line opens it only if it was there when the Movement Phase began.  A play-path test from sonnenblume's set-up
(``Engine.apply`` only) shows the same on the real map."""

from __future__ import annotations

from core.decisions import ALLIED, AXIS, Action
from core.rules import combat, supply
from tests.ground_helpers import engine_at_movement, unit
from tests.playpath import Play

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


def test_11_4_play_path_sonnenblume_ezoc_hex_entered_opens_the_line_only_at_the_next_movement_phase():
    """Sonnenblume, GT 10 XII (Axis Movement Phase): the Axis dumps in C0701 reach C0502 only through C0602, which
    is in the ZOC of KDG (C0603).  3 Aufkl moves into C0602: a line from the dumps may end there but still not pass
    it for the rest of the phase; at the beginning of the next Movement Phase (XV, the Allies pass and nothing
    moves) C0602 is held and the same line to C0502 is open."""
    dumps = ["AX-Dump#1", "AX-Dump#2"]
    p = Play("sonnenblume")
    p.to("movement", side=AXIS, gt=10, phase=12)
    assert combat.dumps_for(p.state, AXIS, "C0502") == []                  # C0602 is EZOC, not held
    p.act("move", units=["GE-3Aufkl"], path=["C0602"])                      # into KDG's ZOC
    assert p.state.units["GE-3Aufkl"].loc == "C0602"
    assert combat.dumps_for(p.state, AXIS, "C0602") == dumps                # a line may end in the entered hex
    assert combat.dumps_for(p.state, AXIS, "C0502") == []                   # ... not pass it this phase (11.4)
    p.to("movement", side=ALLIED, gt=10, phase=15)
    assert p.state.units["GE-3Aufkl"].loc == "C0602" and p.state.units["UK-KDG"].loc == "C0603"
    assert "C0602" in p.state.vars[supply.MP_START][AXIS]
    assert combat.dumps_for(p.state, AXIS, "C0502") == dumps                # held since the phase began: open


def test_11_4_play_path_victory_loc_may_end_in_an_ezoc_hex_entered_this_phase_not_pass_it():
    """The victory LOC (``victory_rules.overland_connected``, 12.4.2, used by 26.3 and the AI's goals) is the same
    trace: after 3 Aufkl enters C0602 (KDG's ZOC) in the Axis Movement Phase, a line from Tripoli (C0701) may end
    there but not pass it to C0502; once C0602 is held at the beginning of the next Movement Phase it passes."""
    from core.rules import victory_rules as vr
    p = Play("sonnenblume")
    p.to("movement", side=AXIS, gt=10, phase=12)
    assert not vr.overland_connected(p.eng, AXIS, "C0701", "C0602")           # EZOC, nobody there
    p.act("move", units=["GE-3Aufkl"], path=["C0602"])
    assert vr.overland_connected(p.eng, AXIS, "C0701", "C0602")               # the line ends in the entered hex
    assert vr.overland_connected(p.eng, AXIS, "C0602", "C0701")               # ... from it, too
    assert not vr.overland_connected(p.eng, AXIS, "C0701", "C0502")           # but does not pass it (11.4)
    p.to("movement", side=ALLIED, gt=10, phase=15)
    assert vr.overland_connected(p.eng, AXIS, "C0701", "C0502")               # held since the phase began
