"""8.5 Training: 8.5.1 the Training Track (entry at the 8.5.1 location, one box per Allocation Phase, placement
from box 1), 8.5.2 deployment while untrained (marker, treated as disrupted, no recovery, restart with 1d6 ÷3 /
÷2), 12.2.4 no Axis training in the GT the primary base is moved; the primary base kept in sync."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.engine import Engine
from core.rules import status, supply, tec, training
from tests.ground_helpers import engine_at_movement, unit


@pytest.fixture(autouse=True)
def clear():
    tec.use_map(tec.GroundMap(default="clear", ports={tec.Hex.parse("C1001"): 4, tec.Hex.parse("C1020"): 4}))
    yield
    tec.use_map(None)


PB = {"primary_base": {"Axis": "AX-Base#1"}, "nrv_in_play": False}


def at_training(units, **vars_):
    """An engine at 4.1 IV.10 (Conduct training operations)."""
    return engine_at_movement(units, phase=4, step=10, vars=vars_)


def finish_iv10(eng):
    """Both sides say done until the Allocation Phase is over."""
    while eng.state.phase == 4:
        d = eng.pending()
        done = [o.action for o in d.options if o.action.kind == "done"]
        eng.apply(done[0])


@pytest.mark.parametrize("side,die,box", [(ALLIED, 1, 1), (ALLIED, 4, 2), (ALLIED, 6, 2),
                                          (AXIS, 1, 1), (AXIS, 3, 2), (AXIS, 5, 3), (AXIS, 6, 3)])
def test_8_5_2_3_box_is_die_divided_rounded_up(side, die, box):
    assert training.untrained_box(side, die) == box


def test_8_5_1_entry_at_nrv_then_one_box_per_allocation_phase_then_placed():
    eng = at_training([unit("AU-16AusBG", ALLIED, "box:NRV", training_box=2)])
    finish_iv10(eng)
    u = eng.state.units["AU-16AusBG"]
    assert (u.loc, u.training_box) == ("track:Training:Allied:2", 2)       # placed, not moved this phase
    eng = at_training([u])
    finish_iv10(eng)
    u = eng.state.units["AU-16AusBG"]
    assert (u.loc, u.training_box) == ("track:Training:Allied:1", 1)
    eng = at_training([u])
    finish_iv10(eng)
    u = eng.state.units["AU-16AusBG"]
    assert (u.loc, u.training_box, u.untrained) == ("box:NRV", 0, False)   # 8.5.1: from box 1 to the NRV


def test_8_5_1_pending_units_elsewhere_do_not_move_down_the_track():
    eng = at_training([unit("AU-16AusBG", ALLIED, "box:Available:Allied", training_box=1)])
    finish_iv10(eng)
    u = eng.state.units["AU-16AusBG"]
    assert (u.loc, u.training_box) == ("box:Available:Allied", 1)


def test_8_5_2_1_on_the_map_before_training_is_untrained_disrupted_no_recovery():
    eng = engine_at_movement([unit("AU-16AusBG", ALLIED, "C1010", training_box=2)], phase=9, step=3)
    training.training_phase_end(eng, 8)
    u = eng.state.units["AU-16AusBG"]
    assert u.untrained and u.disrupted and u.training_box == 0
    assert status.movement_allowance(u) == -(-status.printed_ma(u) // 2) and status.morale(u) == status.values(u)[1] + 1   # halved MA 7
    status.recover_at_movement_end(eng, 9)
    assert eng.state.units["AU-16AusBG"].disrupted                          # may not recover (8.5.2 1)


def test_8_5_2_1_axis_unit_moving_away_from_the_primary_base_is_untrained():
    eng = engine_at_movement([unit("AX-Base#1", AXIS, "C1001", active=True),
                              unit("GE-3Aufkl", AXIS, "C1001", training_box=2)], vars=PB)
    training.training_phase_end(eng, 5)
    assert not eng.state.units["GE-3Aufkl"].untrained                      # at the 8.5.1 location: waits there
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-3Aufkl"], "path": ["C1002", "C1003"]}))
    u = eng.state.units["GE-3Aufkl"]
    assert u.untrained and u.disrupted and u.training_box == 0


def test_8_5_2_2_restart_at_the_primary_base_and_3_axis_box():
    eng = at_training([unit("AX-Base#1", AXIS, "C1001", active=True),
                       unit("GE-3Aufkl", AXIS, "C1002", untrained=True, disrupted=True),
                       unit("GE-125", AXIS, "C1005", untrained=True, disrupted=True)], **PB)
    d = eng.pending()
    assert d.kind == "training_ops"
    acts = [o.action for o in d.options]
    assert Action(kind="restart_training", side=AXIS, args={"unit": "GE-3Aufkl"}) in acts
    assert all(a.args.get("unit") != "GE-125" for a in acts)                # not at the primary base
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="restart_training", side=AXIS, args={"unit": "GE-125"}))
    assert exc.value.rule.startswith("8.5.2")
    eng.dice = ScriptedDice([5])
    eng.apply(Action(kind="restart_training", side=AXIS, args={"unit": "GE-3Aufkl"}))
    finish_iv10(eng)
    u = eng.state.units["GE-3Aufkl"]
    assert (u.loc, u.training_box, u.untrained, u.disrupted) == ("track:Training:Axis:3", 3, True, False)
    # three Allocation Phases later it is placed at the primary base, trained
    for _ in range(3):
        eng = at_training(list(eng.state.units.values()), **PB)
        finish_iv10(eng)
    u = eng.state.units["GE-3Aufkl"]
    assert (u.loc, u.training_box, u.untrained) == ("C1001", 0, False)


def test_8_5_2_leave_the_track_early_untrained():
    eng = at_training([unit("AU-16AusBG", ALLIED, "track:Training:Allied:2", training_box=2)])
    eng.apply(Action(kind="leave_training", side=ALLIED, args={"unit": "AU-16AusBG"}))
    u = eng.state.units["AU-16AusBG"]
    assert (u.loc, u.untrained, u.disrupted, u.training_box) == ("box:NRV", True, True, 0)


def test_12_2_4_no_axis_training_in_the_gt_the_primary_base_moves():
    units = [unit("AX-Base#1", AXIS, "C1001", active=True),
             unit("GE-3Aufkl", AXIS, "track:Training:Axis:1", training_box=1),
             unit("GE-125", AXIS, "C1001", untrained=True, disrupted=True),
             unit("AU-16AusBG", ALLIED, "track:Training:Allied:1", training_box=1)]
    eng = at_training(units, primary_base_moved_gt=10, **PB)
    d = eng.pending()
    assert {o.action.side for o in d.options} == {ALLIED}                  # no Axis restart/leave options
    with pytest.raises(IllegalAction) as exc:
        training.restart(eng, AXIS, "GE-125")
    assert exc.value.rule == "12.2.4"
    finish_iv10(eng)
    st = eng.state
    assert (st.units["GE-3Aufkl"].loc, st.units["GE-3Aufkl"].training_box) == ("track:Training:Axis:1", 1)
    assert st.units["AU-16AusBG"].loc == "box:NRV"                         # the Allied track moves


def test_12_2_4_no_axis_refit_on_the_map_in_the_gt_the_primary_base_moves():
    eng = engine_at_movement([unit("AX-Base#1", AXIS, "C1001", active=True), unit("GE-5Pz", AXIS, "C1005", steps=1),
                              unit("GE-RP#1", AXIS, "C1005")], phase=6, step=2,
                             vars=PB | {"primary_base_moved_gt": 10})
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="refit_hex", side=AXIS, args={"unit": "GE-5Pz", "rp": "GE-RP#1"}))
    assert exc.value.rule == "12.2.4"


def test_12_2_4_primary_base_written_in_both_vars():
    from core.newgame import initial_state
    from core.scenario import load

    eng = Engine(initial_state(load("desert-fox"), 1))
    st = eng.state
    pb = st.vars["primary_base"]["Axis"]
    assert st.units[pb].loc == "C0701" and st.vars["axis_primary_base"] == "C0701"
    # relocation and replacement write both
    eng = engine_at_movement([unit("AX-Base#1", AXIS, "C1001", active=True), unit("AX-Base#2", AXIS, "C1020")],
                             phase=4, step=1, vars=dict(PB) | {"control_rules": [{"side": AXIS, "area": "all"}]})
    eng.apply(Action(kind="relocate_primary_base", side=AXIS, args={"base": "AX-Base#2"}))
    assert eng.state.vars["primary_base"]["Axis"] == "AX-Base#1" and eng.state.vars["axis_primary_base"] == "C1020"
    eng.dice = ScriptedDice([2])
    supply.remove_supply_unit(eng, "AX-Base#1", "destroyed (test)")
    assert "Axis" not in eng.state.vars["primary_base"] and "axis_primary_base" not in eng.state.vars
    bid = supply.place_primary(eng, "C1001")
    assert eng.state.vars["primary_base"]["Axis"] == bid and eng.state.vars["axis_primary_base"] == "C1001"
