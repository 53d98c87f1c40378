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


def _sonnenblume_raid(**choice) -> Play:
    """Sonnenblume (26.0) from its real set-up, nothing placed by hand: the Allied dump AL-Dump#2 stands alone at
    C1407 (26.2).  GT 11 VI.3: 300 Oasis -- a trucked unit here, 26.0 b) leaving out the desert raider rules
    (R-RAID-OFF) -- drives round the British ZOC by C0504 to C1308; XII.3: it overruns the dump (13.4.1 "Any unit
    may overrun an enemy hex containing only supply units")."""
    from core.rules import movement

    p = Play("sonnenblume", seed=1)
    p.to(step="VI.3", gt=11)
    p.act("move", units=["GE-300Oasis"],
          path=movement.query_reachable(p.eng, ["GE-300Oasis"], with_paths=True)["C1308"]["path"])
    p.to(step="XII.3", gt=11)
    assert [u.id for u in p.state.units_at("C1407")] == ["AL-Dump#2"]
    p.act("move", units=["GE-300Oasis"], path=["C1407"], **choice)
    p.run(lambda e: e.pending().kind == "movement")
    return p


def test_12_2_7_the_overrunning_player_destroys_instead_of_rolling_play_path():
    """The play-path twin of the tests above (the dump there is placed by hand): the overrun clears C1407 and the
    dump is destroyed with no capture roll, as the moving player chose (``capture: "destroy"``)."""
    p = _sonnenblume_raid(capture="destroy")
    assert "AL-Dump#2" not in p.state.units and p.state.units["GE-300Oasis"].loc == "C1407"
    assert "The Allied dump in C1407 is destroyed: the advancing player chose not to roll (12.2.7)" in p.events()
    assert not capture_rolls(p)


def test_12_2_7_without_the_choice_the_overrunning_player_rolls_play_path():
    p = _sonnenblume_raid()
    assert p.state.units["GE-300Oasis"].loc == "C1407" and len(capture_rolls(p)) == 1
