"""12.2.7: "The advancing player may either destroy it or roll 1d6 to attempt a capture; it is captured on a roll of
1-3, destroyed on a 4-6."  The choice is an argument of the action that enters the hex: ``capture: "destroy"`` on
the overrunning ``move`` (or ``exploit``), or the offered ``advance`` option that destroys.  Play path: desert-war's
set-up, the Axis Movement Phase of GT 1, only ``Engine.apply`` (the Allied dump is placed by hand next to Tobruk)."""

from __future__ import annotations

from core.decisions import ALLIED, AXIS
from core.rules import tec
from core.state import UnitState
from tests.playpath import Play
from tests.rules_combat_kit import act, desert_map
from tests.test_rules_14_7_2_retreated_into import settle_defaults
from tests.test_rules_17_1_refit_points_entered import advance_into_left_behind

DUMP_HEX = "C2330"


def overrun_dump(**choice) -> Play:
    p = Play("desert-war")
    p.to("movement", side=AXIS)
    assert not p.state.units_at(DUMP_HEX)
    p.state.units["AL-Dump#1"] = UnitState(id="AL-Dump#1", side=ALLIED, loc=DUMP_HEX)
    p.act("move", units=["IT-62Marmarica"], path=[DUMP_HEX], **choice)
    return p


def capture_rolls(p: Play) -> list[str]:
    return [e for e in p.events() if e.startswith("Capture of the Allied dump")]


def test_12_2_7_the_overrunning_player_may_destroy_instead_of_rolling():
    p = overrun_dump(capture="destroy")
    assert "AL-Dump#1" not in p.state.units and not capture_rolls(p)
    assert not any(u.side == AXIS and "Dump" in u.id for u in p.state.units_at(DUMP_HEX))
    assert any("chose not to roll (12.2.7)" in e for e in p.events())
    assert p.state.units["IT-62Marmarica"].loc == DUMP_HEX


def test_12_2_7_by_default_the_overrunning_player_rolls():
    p = overrun_dump()
    assert "AL-Dump#1" not in p.state.units and len(capture_rolls(p)) == 1


def test_12_2_7_an_unknown_choice_is_refused():
    p = Play("desert-war")
    p.to("movement", side=AXIS)
    exc = p.refuse("move", units=["IT-62Marmarica"], path=[DUMP_HEX], capture="keep")
    assert exc.rule == "12.2.7"


def test_12_2_7_advance_after_combat_offers_destroy_and_it_needs_no_roll():
    tec.use_map(desert_map())
    try:
        eng = advance_into_left_behind(("AL-Dump#1", ALLIED, "C0803"))
        kinds = [o.action.args.get("capture") for o in eng.pending().options if o.action.kind == "advance"]
        assert kinds == [None, "destroy"]
        drawn = eng.state.dice_drawn
        act(eng, "advance", AXIS, unit="GE-5Pz", capture="destroy")
        settle_defaults(eng, stop_at="combat_battlefield_supply")
        assert "AL-Dump#1" not in eng.state.units and eng.state.dice_drawn == drawn
    finally:
        tec.use_map(None)
