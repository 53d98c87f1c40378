"""Issue 7, round 2: the strategic rules read the scenario and card data (card status, end-scenario policy, MET
parameters, AXC-8/AXC-9), XVIII supply attrition (12.5.1), the combat interop functions and card rules
(ALC-19 c, ALC-21 i / ALC-27 b, ALC-16 a/f)."""

from __future__ import annotations

from core.decisions import ALLIED, AXIS
from core.dice import ScriptedDice
from core.engine import Engine, AUTO_STEPS
from core.newgame import initial_state
from core.rules import air, events, met, offmap
from core.scenario import load
from core.state import UnitState


def make(scenario: str = "north-african-campaign", dice=None, gt: int | None = None) -> Engine:
    eng = Engine(initial_state(load(scenario), 1), dice)
    if gt is not None:
        eng.state.gt = gt
    events.ensure_cards(eng)
    return eng


def put(eng, uid, loc, side=None, steps=None, **kw):
    from core.counters import all_counters
    c = all_counters()[offmap.base_id(uid)]
    eng.state.units[uid] = UnitState(id=uid, side=side or c.side, loc=loc, steps=steps or c.steps, **kw)
    return eng.state.units[uid]


def st(eng, cid):
    return eng.state.cards.get(cid, {}).get("status")


# --------------------------------------------------------------------------- card status from the scenario files


def test_scenario_cards_28_0_all_cards_available_follow_their_activation():
    eng = make("desert-war")
    assert st(eng, "AXC-5") == "active"            # "active at the beginning of the game" (its own activation)
    assert st(eng, "AXC-9") == "in_play"           # automatic, at start
    assert st(eng, "AXC-3") == "in_play" and st(eng, "ALC-7") == "in_play"       # "active" in the scenario
    assert st(eng, "ALC-4") == "in_play" and st(eng, "AXC-1") == "discarded"     # set-up: MET vs at-start card
    assert st(eng, "ALC-12") == "deck" and st(eng, "AXC-10") == "deck"           # their conditions come later
    assert st(eng, "ALC-21") is None                                             # not used (28.0)


def test_scenario_cards_26_0_available_means_activated_and_from_gt_scheduled():
    eng = make("sonnenblume")
    assert st(eng, "AXC-4") == "active" and st(eng, "ALC-11") == "active"
    assert st(eng, "ALC-13") == "deck"
    assert {"gt": 11, "card": "ALC-13", "what": "play", "rule": "26.2"} in eng.state.vars["card_schedule"]
    assert eng.state.vars["card_reinf_only"]["ALC-9"] == [12, 14]
    assert eng.state.vars["card_reinf_ignored"]["AXC-10"] == "all"


def test_scenario_cards_32_0_inherits_the_torch_cards_of_29_0_in_the_deck():
    eng = make("rommels-war")
    for cid in ("ALC-21", "ALC-23", "AXC-19", "ALC-15", "AXC-11"):
        assert st(eng, cid) == "deck", cid


def test_es_policy_from_the_scenario_special_rules():
    assert make("fox-killed").state.vars["es_policy"] == "ignore"          # 24.0 d) ignore_card_end_changes
    assert make("sonnenblume").state.vars["es_policy"] == "appeals"        # 26.0 d) end_changes_only
    assert make("desert-fox").state.vars["es_policy"] == "appeals"         # 27.0 includes 26.0
    assert make("rommels-war").state.vars["es_policy"] == "normal"         # 32.0 scenario_end_by_events
    assert make("run-for-tunis").state.vars["es_policy"] == "ignore"       # R-EV-ES-FIXED
    assert make("desert-war").state.vars["es_policy"] == "normal"


def test_alc_6_arrival_delay_from_27_0_card_line():
    eng = make("desert-fox")
    assert eng.state.vars["card_arrival_delay"] == {"ALC-6": 12}


# --------------------------------------------------------------------------- MET parameters from the MET cards


def test_met_tracks_read_the_met_cards():
    assert met.TRACKS["AOI"] == 5 and met.TRACKS["Levant"] == 3 and met.TRACKS["Pacific"] == 3
    assert met.params("AOI").advance == [5, 6] and met.params("Levant").advance == [4, 6]
    assert met.NEVER_DEACTIVATED == {"Levant", "SW Asia", "Pacific"}


def test_alc_4_met_aoi_advances_only_on_5_6_and_gt10_drm():
    eng = make("desert-war", dice=ScriptedDice([4, 5]))
    met.situation_roll(eng, "AOI")                 # 4: no change on AOI (5-6 on ALC-4)
    assert eng.state.vars["met"]["AOI"]["box"] == 0
    met.situation_roll(eng, "AOI")
    assert eng.state.vars["met"]["AOI"]["box"] == 1
    eng.state.gt = 10
    assert (-1, "GT 10 or later (ALC-4)") in met._drm(eng, "AOI")


def test_alc_4_aoi_not_deactivated_before_gt_10():
    eng = make("desert-war", dice=ScriptedDice([6] * 12))
    put(eng, "UK-7RTR", met.track_box("AOI"))
    met.met_combat(eng, "AOI")
    assert eng.state.vars["met"]["AOI"]["active"]


def test_alc_16_greece_deactivated_at_end_of_gt_12_activates_crete():
    eng = make(gt=12)
    eng.state.cards["AXC-13"]["status"] = "deck"
    met.activate_track(eng, "Greece", "test")
    events.end_of_gt(eng, 20)
    assert not eng.state.vars["met"]["Greece"]["active"]
    assert any(s["card"] == "AXC-13" for s in eng.state.vars["card_schedule"])   # ALC-16 f)


def test_met_tracks_off_from_rules_changed_24_0_c():
    eng = make("fox-killed")
    assert not met.mets_used(eng) and not met.track(eng, "Levant")
    eng2 = make("desert-fox")
    assert met.track_allowed(eng2, "SW Asia") and not met.track_allowed(eng2, "AOI")   # 27.0 d) except list


def test_alc_5_nrv_port_capacity_from_crisis_effect():
    eng = make("desert-war")
    eng.state.vars["met"]["Levant"].update(box=3, crisis=True)
    assert offmap.nrv_port_capacity(eng) == 4


# --------------------------------------------------------------------------- AXC-9 and AXC-8 from the card data


def test_axc_9_axis_in_egypt_conditions_from_card_data():
    eng = make()
    assert events.axc9_params()["control"] == ["W2118"]
    u = put(eng, "GE-5Pz", "W1515")                 # Egypt east of Sidi Barrani (column 15)
    assert events.axis_in_egypt_now(eng)
    u.ogs = True                                    # not in general supply
    assert not events.axis_in_egypt_now(eng)
    u.ogs, u.loc = False, "W1505"                   # west of Sidi Barrani
    assert not events.axis_in_egypt_now(eng)
    for v in eng.state.units_at("W2118"):           # 2.2.2: entered by an Axis unit after its garrison left
        v.loc = "box:Refit:Allied"
    eng.state.control["W2118"] = AXIS               # Mersa Matruh controlled
    assert events.axis_in_egypt_now(eng)


def test_axc_8_fifth_army_divisions_from_card_data():
    eng = make(gt=5)
    assert events.fifth_army_schedule()[0] == (1, ["IT-61Sirte"])
    events.put_in_play(eng, "AXC-8", "test")
    assert "IT-27Brescia" in eng.state.vars["fifth_army_restricted"]
    assert not [i for i in eng.state.vars.get("reinf", []) if i.get("unit") == "IT-61Sirte"]   # a release, not an arrival
    eng.state.gt = 6
    events._fifth_each_gt(eng, eng.state.cards["AXC-8"])
    assert "IT-61Sirte" not in eng.state.vars["fifth_army_restricted"]
    assert "IT-60Sabratha" in eng.state.vars["fifth_army_restricted"]
    eng.state.gt = 11
    events._fifth_each_gt(eng, eng.state.cards["AXC-8"])
    assert st(eng, "AXC-8") == "discarded"         # discard after all divisions are activated


# --------------------------------------------------------------------------- XVIII supply attrition (12.5.1)


def test_xviii_supply_attrition_12_5_1_isolated_units_check_morale():
    assert AUTO_STEPS.get("XVIII.1"), "XVIII.1 has an automatic procedure"
    eng = make(dice=ScriptedDice([1, 6, 6]))   # sorted ids: IT-60Sabratha, IT-61Sirte, UK-7RTR
    for uid in [u for u in eng.state.units if not offmap.is_offmap(eng.state.units[u].loc)]:
        del eng.state.units[uid]
    two = put(eng, "IT-61Sirte", "L2817", isolated=True, ogs=True, disrupted=True)
    ok = put(eng, "IT-60Sabratha", "L2818", isolated=True, ogs=True, disrupted=True)
    one = put(eng, "UK-7RTR", "C0701", isolated=True, ogs=True, disrupted=True)
    fine = put(eng, "GE-5Pz", "L2819", ogs=True)     # OGS but not isolated: no check
    for fn in AUTO_STEPS["XVIII.1"]:
        fn(eng)
    assert two.steps == 1                             # failed: depleted (8.3)
    assert ok.steps == 2                              # passed
    assert eng.state.units["UK-7RTR"].loc != "C0701" or one.steps == 0   # one-step unit failed: destroyed
    assert fine.steps == 2


# --------------------------------------------------------------------------- combat interop


def test_interop_air_holding_boxes_and_us_inexperience_on_a_state():
    assert "box:AirSuperiority:Axis" in air.holding_boxes(AXIS)
    eng = make("run-for-tunis")
    assert events.us_inexperience(eng.state) == (0, 0)
    eng.state.cards["ALC-25"]["status"] = "active"
    events.put_in_play(eng, "ALC-25", "test")
    assert events.us_inexperience(eng.state) == (2, 1) and eng.state.vars["us_inexperience"] == 2


def test_alc_25_us_experience_check_needs_a_us_majority():
    eng = make("run-for-tunis", dice=ScriptedDice([6]))
    events.put_in_play(eng, "ALC-25", "test")
    put(eng, "US-1Inf", "T0101")
    put(eng, "UK-7RTR", "T0102")
    put(eng, "UK-7RTR#2", "T0102") if False else None
    assert events.us_experience_check(eng, ["UK-7RTR"]) is False          # no US majority: no roll
    assert events.us_experience_check(eng, ["US-1Inf", "UK-7RTR"]) is True
    assert eng.state.vars["us_inexperience"] == 1


def test_alc_21_i_vichy_french_reaction_table_and_alc_27_b_drm():
    eng = make("run-for-tunis", dice=ScriptedDice([5, 6]))
    vf = put(eng, "VFA-Oran", "T0101", flags={"vichy": "neutral"})
    put(eng, "US-1Inf", "T0102")
    assert events.vichy_column(eng, ["US-1Inf"]) == "US"
    assert events.vichy_reaction_drm(eng.state) == 0
    res = events.vichy_reaction(eng, ["US-1Inf"], ["VFA-Oran"])        # US column, 5: join
    assert res == "join" and vf.flags["vichy"] == "joined"
    put(eng, "VFA-Fez", "T0103", flags={"vichy": "neutral"})
    put(eng, "GE-5Pz", "T0104")
    assert events.vichy_reaction(eng, ["GE-5Pz"], ["VFA-Fez"]) == "surrender"   # Axis column, 6
    assert eng.state.units["VFA-Fez"].loc == offmap.REMOVED


# --------------------------------------------------------------------------- ALC-19 c) 43 CF minimum


def test_alc_19_c_pacific_withdrawals_made_up_to_43_cf_with_rp():
    eng = make(gt=15)
    met.activate_track(eng, "Pacific", "test")
    eng.state.vars["met"]["Pacific"].update(box=3, crisis=True)
    for uid in ("UK-7LtArm", "UK-14BG"):
        put(eng, uid, offmap.NRV)
    for n in range(1, 41):
        put(eng, f"UK-RP#{n}", offmap.NRV)
    eng.state.cards["ALC-18"].update(status="discarded", completed_gt=14)
    met.pacific_withdrawals(eng)
    rec = eng.state.vars["pacific_withdrawal"]
    assert set(rec["units"]) >= {"UK-7LtArm", "UK-14BG"} and not any(u.startswith("AU-") for u in rec["units"])
    end = eng.state.end_gt
    met.crisis_effects(eng)                          # units not withdrawn yet: still in crisis, ES -1 (d)
    assert eng.state.vars["met"]["Pacific"]["crisis"] and eng.state.end_gt == end - 1
    for uid in rec["units"]:
        offmap.remove_unit(eng, uid, "7.4 withdrawal", "test")
        eng.state.units[uid].flags["withdrawn"] = True
    stt = met.pacific_status(eng)
    assert stt["rp_owed"] == 43 - stt["cf"] > 0
    met.crisis_effects(eng)
    assert met.pacific_status(eng)["rp_owed"] == 0
    assert not eng.state.vars["met"]["Pacific"]["crisis"]
    assert sum(1 for u in eng.state.units.values() if u.flags.get("removed_by") == "23.1 ALC-19 c") == 43 - stt["cf"]


_ = ALLIED


# --------------------------------------------------------------------------- ALC-16 b) the Greek withdrawal obligation


def test_alc_16_b_greek_withdrawal_obligation_in_first_allied_movement_phase():
    import pytest
    from core.decisions import Action, IllegalAction
    from core.engine import PRE_STEP, PROCEDURES
    from core.state import Frame
    from core.rules import obligations
    assert "greek_withdrawal" in PRE_STEP["VI.3"]
    eng = make(gt=8)
    eng.state.phase, eng.state.first_player = 6, ALLIED
    events.put_in_play(eng, "ALC-16", "test")
    proc, frame = PROCEDURES["greek_withdrawal"], Frame(proc="greek_withdrawal", data={"step": "VI.3"})
    for i, uid in enumerate(("IT-61Sirte", "UK-7RTR", "GE-5Pz")):
        put(eng, uid, f"W15{10 + i}", side=ALLIED)
    d = proc.decide(eng, frame)
    assert d.rule == "23.1 ALC-16 b" and {o.action.kind for o in d.options} == {"greek_withdraw"}
    with pytest.raises(IllegalAction, match="ALC-16 b"):
        proc.apply(eng, frame, Action(kind="done", side=ALLIED))
    proc.apply(eng, frame, Action(kind="greek_withdraw", side=ALLIED, args={"unit": "UK-7RTR"}))
    rec = eng.state.vars["greek_withdrawal"]
    assert obligations.owed(rec)["armor"] == 1 and eng.state.units["UK-7RTR"].loc == obligations.WAITING
    for d in [proc.decide(eng, frame)]:
        assert all(o.action.kind == "greek_withdraw" or o.action.kind == "done" for o in d.options)
    eng.state.gt = 9
    met.activate_track(eng, "Greece", "test")
    obligations.place_on_track(eng)
    assert eng.state.units["UK-7RTR"].loc == met.track_box("Greece")


def test_alc_6_units_arrive_12_gts_late_in_27_0():
    eng = make("desert-fox", gt=12)
    eng.state.vars["reinf"] = []
    events.make_available(eng, "ALC-6", [{"unit": "UK-7RTR", "count": 1}], 12, "test")
    assert [i["gt"] for i in eng.state.vars["reinf"] if i["unit"] == "UK-7RTR"] == [24]
