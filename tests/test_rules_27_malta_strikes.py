"""27.0 e) / f) (Desert Fox; Rommel's War by 32.0): in place of 19.7.2 two 1d6 for Malta strikes on the Axis
convoys, each 5-6 a hit; per hit 1d6: 1-4 the Axis player selects the step or supply unit lost, 5-6 the Allied
player; none once the Malta invasion (AXC-16) succeeded.  After GT 13 the Axis may make two such strikes on Allied
Mediterranean shipping."""

from __future__ import annotations

import copy

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.state import Frame
from core.rules import offmap, strikes
from tests.test_events_cards import make, put


def convoy(scenario="desert-fox", gt=12, rolls=()):
    eng = make(scenario, gt=gt, dice=ScriptedDice(list(rolls)))
    eng.state.vars["shipping_used"] = {}
    for uid in ("GE-5Pz", "IT-7Ber"):
        put(eng, uid, offmap.available(AXIS))     # waiting to arrive at C0701 in a Movement Phase (27.1)
    return eng


def run_iv9(eng):
    eng.push("convoy_strikes_27", step="IV.9")
    eng._settle()
    return eng.pending()


def test_27_0_e_convoy_is_this_gts_shipping_steps():
    eng = convoy()
    assert strikes.convoy_27_cargo(eng, AXIS) == ["GE-5Pz", "IT-7Ber"]     # waiting for C0701 (27.1)
    eng.state.units["IT-7Ber"].flags = {"free_shipping": True}              # 27.1 GT 11: "do not count"
    assert strikes.convoy_27_cargo(eng, AXIS) == ["GE-5Pz"]
    eng.state.units["GE-5Pz"].loc = "C0701"
    eng.state.units["GE-5Pz"].flags = {"convoy_gt": eng.state.gt - 1}      # arrived last GT: no longer at sea
    assert strikes.convoy_27_cargo(eng, AXIS) == []


@pytest.mark.parametrize("who_roll, chooser", [(3, AXIS), (6, ALLIED)])
def test_27_0_e_malta_strike_hit_and_the_reroll_names_the_chooser(who_roll, chooser):
    eng = convoy(rolls=[5, 2, who_roll])          # one hit (5), one miss (2); the re-roll picks the chooser
    steps = eng.state.units["GE-5Pz"].steps
    d = run_iv9(eng)
    assert d.kind == "strike_loss" and d.side == chooser and d.rule == "27.0 e"
    assert {o.action.args["unit"] for o in d.options} == {"GE-5Pz", "IT-7Ber"}
    eng.apply(Action(kind="strike_loss", side=chooser, args={"unit": "GE-5Pz"}))
    u = eng.state.units["GE-5Pz"]
    assert u.steps == steps - 1 or u.loc == offmap.destroyed(AXIS)
    assert not (eng.pending() and eng.pending().kind == "strike_loss")


def test_27_0_e_two_hits_two_choosers():
    eng = convoy(rolls=[6, 5, 1, 5])
    d = run_iv9(eng)
    assert d.side == AXIS
    eng.apply(Action(kind="strike_loss", side=AXIS, args={"unit": "IT-7Ber"}))
    d = eng.pending()
    assert d.kind == "strike_loss" and d.side == ALLIED


def test_27_0_e_no_rolls_once_herkules_succeeded():
    eng = convoy(rolls=[])                        # any roll would fail: the script is empty
    eng.state.vars["malta"] = AXIS
    d = run_iv9(eng)
    assert not (d and d.kind == "strike_loss")
    assert eng.state.units["GE-5Pz"].loc == offmap.available(AXIS)


def test_27_0_e_not_in_other_scenarios():
    eng = make("sonnenblume", gt=12, dice=ScriptedDice([]))
    d = run_iv9(eng)
    assert not (d and d.kind in ("strike_loss", "convoy_strike_27"))


def allied_med(eng, uid="UK-7RTR"):
    put(eng, uid, "box:AtSea:AlliedMed")
    strikes.record_cargo(eng, "AlliedMed", uid)


def test_27_0_f_axis_may_strike_allied_med_shipping_after_gt13():
    eng = make("desert-fox", gt=14, dice=ScriptedDice([6, 1, 2]))
    allied_med(eng)
    d = run_iv9(eng)
    assert d.kind == "convoy_strike_27" and d.side == AXIS and d.rule == "27.0 f"
    eng.apply(Action(kind="convoy_strike_27", side=AXIS, args={"strike": True}))
    d = eng.pending()
    assert d.kind == "strike_loss" and d.side == ALLIED and d.rule == "27.0 f"   # re-roll 2: the owner picks
    eng.apply(Action(kind="strike_loss", side=ALLIED, args={"unit": "UK-7RTR"}))
    assert eng.state.units["UK-7RTR"].loc == offmap.destroyed(ALLIED)


def test_27_0_f_not_before_gt14_and_refused_without_shipping():
    eng = make("desert-fox", gt=13, dice=ScriptedDice([]))
    allied_med(eng)
    d = run_iv9(eng)
    assert not (d and d.kind == "convoy_strike_27")
    eng = make("desert-fox", gt=14, dice=ScriptedDice([]))
    before = copy.deepcopy(eng.state)
    from core.engine import PROCEDURES
    with pytest.raises(IllegalAction) as e:
        PROCEDURES["convoy_strikes_27"].apply(eng, Frame(proc="convoy_strikes_27", data={}),
                                              Action(kind="convoy_strike_27", side=AXIS, args={"strike": True}))
    assert "27.0 f" in e.value.rule and eng.state.hash() == before.hash()


def test_27_0_f_decline():
    eng = make("rommels-war", gt=20, dice=ScriptedDice([]))
    allied_med(eng)
    d = run_iv9(eng)
    assert d.kind == "convoy_strike_27"
    eng.apply(Action(kind="convoy_strike_27", side=AXIS, args={"strike": False}))
    assert eng.state.units["UK-7RTR"].loc == "box:AtSea:AlliedMed"
