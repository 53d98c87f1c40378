"""30.0 Trail of the Fox (31.0 includes it): "Axis units may not end any phase in a hex on or east of Sxx34."

Play-path tests from the real Trail of the Fox set-up (``tests.playpath``): the 30.1 arrivals set up at El Agheila
(S0734 = C0701, column 34) must leave in the first Axis Movement Phase (GT 31 Phase XII); a move ending in column 34
is refused citing 30.0 and not offered, one ending in column 33 (the boundary) is legal.  Rulings R-30-EAST.
"""

from __future__ import annotations

import pytest

from core.decisions import IllegalAction
from core.hexgrid import Hex
from core.rules import combat, east_limit
from tests.playpath import Play

COL34 = Hex.parse("S0734").g          # El Agheila S0734 = C0701 (2.2.1): column 34 of Map S


def _axis_east(p: Play) -> list[str]:
    return sorted(u.id for u in p.state.units_of("Axis") if ":" not in u.loc and u.loc != "setup"
                  and Hex.parse(u.loc).g >= COL34)


@pytest.fixture()
def trail() -> Play:
    p = Play("trail-of-the-fox", seed=1)
    p.to("movement", side="Axis")           # GT 31 Phase XII.3, the scenario's first Movement Phase
    return p


def test_the_line_is_column_34_of_map_s() -> None:
    p = Play("trail-of-the-fox", seed=1)
    assert east_limit.east_column(p.state, "Axis") == Hex.parse("S0234").g == Hex.parse("C0201").g
    assert east_limit.barred(p.state, "Axis", "S0634") and east_limit.barred(p.state, "Axis", "C0701")
    assert not east_limit.barred(p.state, "Axis", "S0733")          # column 33: the boundary
    assert not east_limit.barred(p.state, "Allied", "C0701")        # Axis units only
    assert east_limit.east_column(Play("tunisian-campaign", seed=1).state, "Axis") == COL34   # 31.0 includes 30.0
    assert east_limit.east_column(Play("desert-fox", seed=1).state, "Axis") is None


def test_arrivals_at_el_agheila_must_leave_before_the_phase_ends(trail: Play) -> None:
    d = trail.pending
    assert trail.state.phase == 12 and trail.state.gt == 31
    assert "C0701" in {trail.state.units[u].loc for u in _axis_east(trail)}
    assert not any(o.action.kind == "done" for o in d.options)      # not offered ...
    exc = trail.refuse("done")                                      # ... and refused, citing 30.0
    assert "30.0" in exc.rule
    # every offered move of a unit at El Agheila leaves column 34
    for o in d.options:
        if o.action.kind == "move" and trail.state.units[o.action.args["units"][0]].loc == "C0701":
            assert Hex.parse(o.action.args["path"][-1]).g < COL34


def test_move_ending_in_column_34_refused_column_33_legal(trail: Play) -> None:
    reach = trail.eng.query("reachable", units=["GE-Ramcke"])
    assert "S0633" in reach and not any(Hex.parse(h).g >= COL34 for h in reach)    # not offered by the query
    exc = trail.refuse("move", units=["GE-Ramcke"], path=["C0601"])              # marsh, column 34: foot may enter
    assert exc.rule == "30.0" and "Sxx34" in str(exc)
    assert trail.eng.query("route", units=["GE-Ramcke"], to="C0601") is None
    trail.act("move", units=["GE-Ramcke"], path=["S0633"])                        # column 33: legal
    assert trail.state.units["GE-Ramcke"].loc == "S0633"
    # passing through column 34 is not barred, ending there is (a unit may not stay put either)
    exc = trail.refuse("move", units=["GE-Kasta"], path=["C0701", "S0733", "C0701"])
    assert exc.rule == "30.0"
    exc = trail.refuse("move", units=["GE-Kasta"], path=[], reserve=True)
    assert exc.rule == "30.0"


def test_pass_play_ends_the_phase_with_no_axis_unit_east(trail: Play) -> None:
    before = len(_axis_east(trail))
    assert before >= 20
    trail.to(step="XIII.1")                  # the pass player takes the offered moves out until done is offered
    assert _axis_east(trail) == []
    assert not any("R-30-EAST" in e for e in trail.events())                # nobody had to be eliminated


def test_a_unit_that_cannot_leave_is_eliminated_at_the_end_of_the_movement_phase(trail: Play) -> None:
    """Unreachable by play from the set-up (every arrival can leave, and no move may leave a unit there): an Axis
    dump cannot move by itself (13.7), so one placed there by hand is a unit that could not leave (R-30-EAST-STRANDED;
    the phase-end rule is no name of the fuzz report)."""
    dump = next(u.id for u in trail.state.units_of("Axis") if u.id.startswith("AX-Dump") and u.loc == "L2817")
    trail.state.units[dump].loc = "C0701"
    trail.to(step="XIII.1")
    assert dump not in trail.state.units                       # expended (8.3, 12.2)
    assert any("R-30-EAST" in e and "C0701" in e for e in trail.events())
    assert _axis_east(trail) == []


def test_retreat_may_not_end_on_or_east_of_the_line(trail: Play) -> None:
    """14.7 with 30.0: from column 33 a retreat is never offered a column-34 hex it could not leave again."""
    trail.act("move", units=["GE-Ramcke"], path=["S0633"])
    st = trail.state
    for maximum in (1, 2, 3):
        steps = combat.legal_retreat_steps(st, "GE-Ramcke", ["S0633"], maximum)
        assert steps and all(Hex.parse(h).g < COL34 or maximum > 1 for h in steps)
        if maximum == 1:
            assert all(Hex.parse(h).g < COL34 for h in steps)
    assert not combat.stop_allowed(st, "GE-Ramcke", ["S0633", "C0601"], 1)
    assert combat.stop_allowed(st, "GE-Ramcke", ["S0633", "S0632"], 1)


def test_allied_units_are_not_limited(trail: Play) -> None:
    with pytest.raises(IllegalAction):
        east_limit.check_end(trail.state, "Axis", "C0401")
    east_limit.check_end(trail.state, "Allied", "C0401")
