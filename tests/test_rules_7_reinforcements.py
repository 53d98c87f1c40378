"""7.0 reinforcements, 7.4 withdrawals, 8.5 training, scenario schedules (24.1/24.2, 26.2, 27.1, 30.1)."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.rules import offmap, reinforcements as R, victory_rules
from tests.test_events_cards import make, put


def to_phase3(eng):
    while eng.state.phase != 3:
        eng.apply(eng.pending().options[0].action)


def test_fox_killed_allied_gt7_arrivals_deploy_to_nrv_7_3():
    eng = make("fox-killed")
    to_phase3(eng)
    assert eng.state.gt == 5
    while eng.state.gt < 7 or eng.state.phase != 3:
        eng.apply(eng.pending().options[0].action)
    waiting = R.waiting(eng, ALLIED)
    assert "AU-16AusBG" in waiting or any(u.startswith("AL-MSU") for u in waiting)
    d = eng.pending()
    with pytest.raises(IllegalAction, match="7.1"):
        eng.apply(Action(kind="deploy", side=d.side, args={"unit": "GE-5Pz", "to": "C0701"}))


def test_we03_t_plus_n_schedule_7_1():
    eng = make("north-african-campaign", gt=10)
    R.schedule_arrival(eng, "UK-7RTR", 8, "test")
    assert eng.state.vars["reinf"][-1]["gt"] == 10     # arrival date passed: the GT the card is played


def test_sonnenblume_gt12_arrival_rolls_26_2():
    eng = make("sonnenblume", dice=ScriptedDice([1, 4, 1, 4, 1, 4, 1] + [1] * 40))
    eng.state.gt = 12
    R.ensure_schedule(eng)
    rolled = [i["unit"] for i in eng.state.vars["reinf"] if "roll" in i and i["gt"] == 12]
    assert rolled[:2] == ["IN-7IndBG", "IN-11IndBG"]
    R.materialize(eng)
    here = {u.id for u in eng.state.units.values() if u.loc == offmap.available(ALLIED)}
    later = [i["unit"] for i in eng.state.vars["reinf"] if i["gt"] == 13]
    assert "IN-7IndBG" in here and "IN-11IndBG" in later            # 1-3 now, 4-6 next GT


def test_gt13_morale_check_failure_depleted_next_gt_26_2():
    eng = make("sonnenblume", dice=ScriptedDice([6] * 60))
    eng.state.gt = 13
    R.ensure_schedule(eng)
    eng.state.vars["reinf"] = [i for i in eng.state.vars["reinf"] if i.get("morale_check")]
    R.materialize(eng)
    later = [i for i in eng.state.vars["reinf"] if i["gt"] == 14]
    assert later and all(i["depleted"] for i in later)             # a natural 6 always fails (8.1)


def test_shipping_limit_14_steps_27_1():
    eng = make("desert-fox")
    eng.state.vars["shipping_used"] = {str(eng.state.gt): 13}
    uid = offmap.add_counter(eng, "AX-Dump", offmap.available(AXIS), "test")
    assert "27.1" in R.shipping_refusal(eng, AXIS, uid, "C0701")   # a dump counts two steps: 13 + 2 > 14
    eng.state.vars["shipping_used"] = {str(eng.state.gt): 12}
    assert R.shipping_refusal(eng, AXIS, uid, "C0701") is None     # 12 + 2 = 14: the limit


def test_withdrawal_failure_is_an_instant_axis_win_24_2():
    eng = make("fox-killed")
    put(eng, "IN-5IndBG", "W2118")
    eng.state.gt, eng.state.phase = 8, 19
    res = victory_rules.evaluate(eng, False)
    assert res and res["winner"] == AXIS and res["level"] == "instant" and "24.2" in res["rule"]


def test_withdrawn_units_removed_by_rule_7_4():
    eng = make("fox-killed")
    for uid in ("IN-5IndBG", "IN-7IndBG", "IN-11IndBG", "IN-CIH"):
        put(eng, uid, offmap.NRV)
    eng.state.gt, eng.state.phase = 8, 3
    proc = R.ReinforcementPhase()
    from core.state import Frame
    fr = Frame(proc="reinforcement_phase", data={"materialized": True, "asked_leave": True})
    for uid in ("IN-5IndBG", "IN-7IndBG", "IN-11IndBG", "IN-CIH"):
        proc.apply(eng, fr, Action(kind="withdraw", side=ALLIED, args={"unit": uid}))
        assert eng.state.units[uid].flags["removed_by"] == "7.4 withdrawal"
    eng.state.phase = 19
    assert victory_rules.evaluate(eng, False) is None


def test_eliminated_withdrawal_unit_costs_a_refit_point_24_2_b():
    eng = make("fox-killed")
    put(eng, "IN-5IndBG", offmap.destroyed(ALLIED))
    for uid in ("IN-7IndBG", "IN-11IndBG", "IN-CIH"):
        put(eng, uid, offmap.REMOVED)
    eng.state.gt, eng.state.phase = 8, 19
    assert victory_rules.evaluate(eng, False) is None
    assert eng.state.vars.get("rp_debt", 0) + len([u for u in eng.state.units.values()
                                                    if u.flags.get("removed_by") == "24.2 b"]) == 1


def test_training_track_8_5_1():
    eng = make("desert-war")
    put(eng, "NZ-5NZBG", "track:Training:Allied:2")
    eng.state.units["NZ-5NZBG"].training_box = 2
    R.Training().advance(eng)
    assert eng.state.units["NZ-5NZBG"].training_box == 1
    R.Training().advance(eng)
    assert eng.state.units["NZ-5NZBG"].loc == offmap.NRV
    assert [R.untrained_reentry_box(ALLIED, d) for d in (1, 3, 4, 6)] == [1, 1, 2, 2]
    assert [R.untrained_reentry_box(AXIS, d) for d in (1, 2, 3, 6)] == [1, 1, 2, 3]


def test_counter_mix_limit_2_4():
    eng = make("desert-war")
    from core.counters import all_counters
    mix = all_counters()["AX-Base"].mix
    got = [offmap.add_counter(eng, "AX-Base", offmap.ITALY, "test") for _ in range(mix + 2)]
    assert got.count(None) >= 2 and offmap.mix_in_use(eng, "AX-Base") == mix
