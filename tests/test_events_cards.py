"""5.0 / 23.0: one test per event card, named after it, driving its trigger and checking its effects."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, IllegalAction
from core.dice import ScriptedDice
from core.engine import Engine
from core.newgame import initial_state
from core.rules import events, met, offmap, strategic_moves
from core.scenario import load
from core.state import UnitState


def make(scenario: str = "north-african-campaign", dice=None, gt: int | None = None) -> Engine:
    eng = Engine(initial_state(load(scenario), 1), dice)
    if gt is not None:
        eng.state.gt = gt
    events.ensure_cards(eng)
    return eng


def st(eng, cid):
    return eng.state.cards[cid]["status"]


def put(eng, uid, loc, side=None, steps=None):
    from core.counters import all_counters
    c = all_counters()[offmap.base_id(uid)]
    eng.state.units[uid] = UnitState(id=uid, side=side or c.side, loc=loc, steps=steps or c.steps)


def egypt(eng):
    put(eng, "GE-5Pz", "W2110")


# --------------------------------------------------------------------------- at-start cards


@pytest.mark.parametrize("cid", ["ALC-1", "ALC-2", "ALC-3", "AXC-1", "AXC-2"])
def test_at_start_cards_discarded_after_setup(cid):
    eng = make()
    assert st(eng, cid) == "discarded" and events.refusal(eng, cid)


def test_alc_1_mec_at_start_offmap():
    eng = make("desert-war")
    assert st(eng, "ALC-1") == "discarded" and "ALC-1" not in [c for c, _, _ in events.declarable(eng, ALLIED)]


def test_alc_2_mec_at_start_map_w():
    eng = make("fox-killed")
    assert st(eng, "ALC-2") == "discarded"


def test_alc_3_vf_at_start():
    eng = make("run-for-tunis")
    assert st(eng, "ALC-3") == "discarded"


def test_axc_1_at_start_map_l():
    assert st(make(), "AXC-1") == "discarded"


def test_axc_2_at_start_maps_c_w():
    assert st(make("fox-killed"), "AXC-2") == "discarded"


# --------------------------------------------------------------------------- MET cards


def test_alc_4_met_aoi_active_from_setup_and_discarded_after_deactivation():
    eng = make("desert-war", dice=ScriptedDice([6] * 20))
    assert met.track(eng, "AOI") and met.track(eng, "AOI")["box"] == 0
    met.deactivate(eng, "AOI")
    events.events_auto(eng)          # same GT: not yet
    eng.state.gt += 1
    events.events_auto(eng)
    assert st(eng, "ALC-4") == "discarded"


def test_alc_5_met_levant_situation_roll_and_crisis_es():
    eng = make("desert-war", dice=ScriptedDice([4, 1, 5, 1, 6, 1, 6, 1]))
    t = eng.state.vars["met"]["Levant"]
    end = eng.state.end_gt
    for _ in range(4):
        met.situation_roll(eng, "Levant")
        met.situation_roll(eng, "AOI")
    assert t["box"] == 3 and t["crisis"]          # 4-6 advances; beyond box 3: crisis (ALC-5)
    met.crisis_effects(eng)
    assert eng.state.end_gt == end - 1 and eng.state.es_history[-1]["rule"] == "23.1 ALC-5"
    from core.rules import offmap as om
    assert om.nrv_port_capacity(eng) == 4          # 22.1 / ALC-5


def test_alc_6_met_sw_asia_put_in_play_by_afrikakorps():
    eng = make(gt=6)
    events.put_in_play(eng, "AXC-10", "test", {"gt10": True})
    assert st(eng, "ALC-6") == "in_play" and not met.track(eng, "SW Asia")
    eng.state.gt = 7
    events.events_auto(eng)
    assert met.track(eng, "SW Asia")          # activated the next GT (23.1 ALC-6)


# --------------------------------------------------------------------------- reinforcement / support cards


def test_alc_7_mec_reinforcements_1940_discard_activates_alc_8():
    eng = make(gt=7)
    events.end_of_gt(eng, 20)
    assert st(eng, "ALC-7") == "discarded" and st(eng, "ALC-8") == "in_play"


def test_alc_8_mec_reinforcements_jan_apr_1941_then_alc_9():
    eng = make(gt=7)
    events.end_of_gt(eng, 20)
    eng.state.gt = 11
    events.end_of_gt(eng, 20)
    assert st(eng, "ALC-8") == "discarded" and st(eng, "ALC-9") == "in_play"


def test_alc_9_mec_reinforcements_may_nov_1941_discarded_gt_18():
    eng = make("sonnenblume")
    eng.state.gt = 18
    events.end_of_gt(eng, 20)
    assert st(eng, "ALC-9") == "discarded"


def test_alc_10_monthly_support_each_gt():
    eng = make("sonnenblume", gt=11)
    eng.state.vars["reinf"] = []
    events.events_auto(eng)
    units = [i["unit"] for i in eng.state.vars["reinf"] if i["rule"].startswith("23.1 ALC-10")]
    assert units.count("AL-MSU") >= 2   # ALC-10 Important: two MSU each GT


def test_axc_3_monthly_support_each_gt():
    eng = make("sonnenblume", gt=11)
    eng.state.vars["reinf"] = []
    events.events_auto(eng)
    assert any(i["rule"].startswith("23.2 AXC-3") for i in eng.state.vars["reinf"])


def test_alc_11_allies_appeal_activated_after_taranto_shortens_game():
    eng = make(gt=8)
    eng.state.cards["ALC-12"].update(status="in_play", played_gt=7)
    events.events_auto(eng)
    assert st(eng, "ALC-11") == "active"
    end = eng.state.end_gt
    events.play_card(eng, "ALC-11")
    assert eng.state.end_gt == end - 1
    with pytest.raises(IllegalAction, match="once each GT"):
        events.play_card(eng, "ALC-11")
    eng.state.gt += 1
    events.play_card(eng, "ALC-11")          # repeatable each GT
    assert eng.state.end_gt == end - 2


def test_axc_4_axis_appeal_extends_game_and_once_in_sonnenblume():
    eng = make("sonnenblume", gt=11)
    end = eng.state.end_gt
    events.play_card(eng, "AXC-4")
    assert eng.state.end_gt == end + 1
    eng.state.gt += 1
    with pytest.raises(IllegalAction, match="26.0 d"):
        events.play_card(eng, "AXC-4")


# --------------------------------------------------------------------------- Taranto, ULTRA, Eighth Army


def test_alc_12_taranto_forced_on_gt_9_and_es_minus_2():
    eng = make(gt=9)
    end = eng.state.end_gt
    events.events_auto(eng)
    c = eng.state.cards["ALC-12"]
    assert c["status"] == "in_play" and c["played_gt"] == 9
    assert eng.state.end_gt == end - 2
    assert st(eng, "ALC-13") == "active"          # played after GT 7: GT-7 effects at once
    assert any(s["card"] == "ALC-21" and s["gt"] == 12 for s in eng.state.vars["card_schedule"])


def test_alc_12_taranto_activated_after_parallel_war_and_axis_in_egypt():
    eng = make(gt=5)
    egypt(eng)
    events.events_auto(eng)
    events.play_card(eng, "AXC-5")
    eng.state.gt = 6
    events.events_auto(eng)
    assert st(eng, "ALC-12") == "active"


def test_alc_13_ultra_initiative_choice():
    eng = make("trail-of-the-fox", dice=ScriptedDice([6]))
    eng.state.gt = 32
    eng.state.phase, eng.state.step = 1, 1
    events.events_auto(eng)
    owed = events.owed_for(eng, ALLIED)
    assert owed and owed[0]["kind"] == "ultra"
    events.resolve_owed(eng, owed[0], {"benefit": "initiative"})
    eng.state.vars["ultra"]["die"] = 6
    from core.rules.initiative import initiative_drms
    drms = initiative_drms(eng, ALLIED)
    assert (-3, "ULTRA die 6 (ALC-13)") in drms            # EoP: a die of 6 gives -3 to the Allied roll
    with pytest.raises(IllegalAction, match="ALC-13"):
        events.resolve_owed(eng, {"kind": "ultra", "card": "ALC-13", "rule": "x"}, {"benefit": "bogus"})


def test_alc_14_eighth_army_es_minus_4_and_gt_18_choice():
    eng = make(gt=8)
    eng.state.cards["ALC-12"].update(status="in_play", played_gt=7)
    eng.state.cards["AXC-10"].update(status="in_play", played_gt=7)
    events.events_auto(eng)
    assert st(eng, "ALC-14") == "active"
    end = eng.state.end_gt
    events.play_card(eng, "ALC-14")
    assert eng.state.end_gt == end - 4
    eng.state.gt = 18
    events.events_auto(eng)
    o = [x for x in events.owed_for(eng, ALLIED) if x["card"] == "ALC-14"][0]
    events.resolve_owed(eng, o, {"take": "es"})
    assert eng.state.end_gt == end - 3
    events.end_of_gt(eng, 20)
    assert st(eng, "ALC-14") == "discarded" and st(eng, "ALC-15") == "in_play"


def test_alc_15_eighth_army_1942_extension_choice_gt_26_to_28():
    eng = make(gt=26)
    eng.state.cards["ALC-15"].update(status="in_play", played_gt=19)
    events.events_auto(eng)
    o = [x for x in events.owed_for(eng, ALLIED) if x["card"] == "ALC-15"]
    assert o and o[0]["gt_key"] == 26
    eng.state.gt = 30
    events.end_of_gt(eng, 20)
    assert st(eng, "ALC-15") == "discarded"


def test_alc_16_greek_campaign_crisis_extends_and_deactivation_activates_crete():
    eng = make(gt=8, dice=ScriptedDice([1] * 10))
    eng.state.end_gt = 24   # room below the TRT's last box, GT 38 (R-TRT-END)
    eng.state.cards["ALC-12"].update(status="in_play", played_gt=7)
    events.play_card(eng, "AXC-5")
    eng.state.gt = 9
    events.events_auto(eng)
    assert st(eng, "ALC-16") == "in_play" and met.track(eng, "Greece")
    eng.state.vars["met"]["Greece"]["crisis"] = True
    end = eng.state.end_gt
    events.events_auto(eng)
    assert eng.state.end_gt == end + 1      # a) +1 GT per GT in crisis
    put(eng, "UK-7RTR", met.track_box("Greece"))
    eng.state.vars["met"]["Greece"].update(crisis=False, box=0)
    met.deactivate(eng, "Greece")
    assert eng.state.units["UK-7RTR"].loc == offmap.NRV     # d) passed its morale check
    eng.state.gt += 1
    events.events_auto(eng)
    assert st(eng, "AXC-13") == "in_play" and offmap.crete_in_play(eng)


def test_alc_17_syrian_campaign_crisis_shortens():
    eng = make(gt=9)
    eng.state.cards["ALC-12"].update(status="in_play", played_gt=7)
    eng.state.cards["AXC-5"].update(status="in_play", played_gt=7)
    events.put_in_play(eng, "ALC-17", "test")
    eng.state.vars["met"]["Syria"]["crisis"] = True
    end = eng.state.end_gt
    events.events_auto(eng)
    assert eng.state.end_gt == end - 1


def test_alc_18_australian_corps_three_gts_in_nrv():
    eng = make("desert-fox", gt=12)
    aus = [u for u in eng.state.units.values() if u.id.startswith("AU-")]
    for u in list(eng.state.units.values()):
        if u.id.startswith("AU-"):
            u.loc = offmap.NRV
    for i, cid in enumerate(["AU-16AusBG", "AU-17AusBG", "AU-19AusBG", "AU-6AusCav", "AU-20AusBG", "AU-21AusBG",
                             "AU-25AusBG", "AU-7AusCav"]):
        if cid not in eng.state.units:
            put(eng, cid, offmap.NRV)
    prog = events.australian_corps_progress(eng)
    assert prog["cf"] >= 36 and not prog["missing"], (prog, aus)
    c = eng.state.cards["ALC-18"]
    for g in (12, 13, 14, 15):
        eng.state.gt = g
        events._aus_each_gt(eng, c)
    assert c["completed_gt"] == 15 and st(eng, "ALC-18") == "discarded"


def test_alc_19_pacific_theater_activated_gt_14_crisis_shortens():
    eng = make(gt=14)
    events.events_auto(eng)
    assert st(eng, "ALC-19") == "in_play" and met.track(eng, "Pacific")
    eng.state.vars["met"]["Pacific"]["crisis"] = True
    end = eng.state.end_gt
    eng.state.gt = 15
    events.events_auto(eng)
    assert eng.state.end_gt == end - 1


def test_alc_20_brigade_groups_roll_plus_20():
    eng = make("desert-fox", dice=ScriptedDice([6, 1]))
    eng.state.gt = 21
    with pytest.raises(IllegalAction, match="GT 21"):
        eng.state.gt = 20
        events.play_card(eng, "ALC-20")
    eng.state.gt = 21
    events.play_card(eng, "ALC-20")          # 6 + 20 = 26 > 21: no reinforcements; resolved once (5.0, R-EV-ALC20)
    assert st(eng, "ALC-20") == "discarded" and "success_gt" not in eng.state.cards["ALC-20"]
    with pytest.raises(IllegalAction):
        events.play_card(eng, "ALC-20")
    eng = make("desert-fox", dice=ScriptedDice([1]))
    eng.state.gt = 21
    events.play_card(eng, "ALC-20")          # 1 + 20 = 21 <= 21
    assert eng.state.cards["ALC-20"]["success_gt"] == 21


# --------------------------------------------------------------------------- Torch


def test_alc_21_operation_torch_buildup_i_discard_gt_29_activates_alc_22():
    eng = make("rommels-war", gt=12)
    events.events_auto(eng)
    assert st(eng, "ALC-21") == "in_play" and st(eng, "AXC-19") == "in_play"
    eng.state.gt = 29
    events.end_of_gt(eng, 20)
    assert st(eng, "ALC-21") == "discarded" and st(eng, "ALC-22") == "in_play"


def test_alc_22_operation_torch_buildup_ii_in_play_in_run_for_tunis():
    eng = make("run-for-tunis")
    assert st(eng, "ALC-22") == "in_play"


def test_alc_23_operation_torch_invasion_shortens_six_and_activates_cards():
    eng = make("rommels-war", gt=26)
    eng.state.cards["ALC-21"].update(status="in_play", played_gt=12)
    events.activate(eng, "ALC-23", "test")
    with pytest.raises(IllegalAction, match="GT 27"):
        events.play_card(eng, "ALC-23")
    eng.state.gt = 27
    end = eng.state.end_gt
    events.play_card(eng, "ALC-23")
    assert eng.state.end_gt == end - 6 and offmap.fna_in_play(eng)
    assert st(eng, "ALC-25") == "in_play" and st(eng, "ALC-24") == "active" and st(eng, "AXC-18") == "active"


def test_alc_24_operation_torch_tunisia_playable_after_invasion():
    eng = make("run-for-tunis")
    events.play_card(eng, "ALC-23")
    assert st(eng, "ALC-24") == "active"
    events.play_card(eng, "ALC-24")
    assert st(eng, "ALC-24") == "in_play"


def test_alc_25_us_inexperience_marker_and_experience_rolls():
    eng = make("run-for-tunis", dice=ScriptedDice([4, 5, 6]))
    events.play_card(eng, "ALC-23")
    assert events.us_inexperience(eng) == (2, 1)
    assert not events.us_experience_check(eng)            # 4: nothing
    assert events.us_experience_check(eng) and events.us_inexperience(eng) == (1, 0)
    assert events.us_experience_check(eng) and events.us_inexperience(eng) == (0, 0)
    assert st(eng, "ALC-25") == "discarded"


def test_alc_26_cw_withdrawal_required_without_axis_in_egypt():
    eng = make("rommels-war", gt=27)
    eng.state.cards["ALC-21"].update(status="in_play", played_gt=12)
    events.activate(eng, "ALC-23", "test")
    events.play_card(eng, "ALC-23")
    put(eng, "SA-1SABG", "W2118")
    eng.state.gt = 28
    events.events_auto(eng)
    assert st(eng, "ALC-26") == "in_play" and eng.state.cards["ALC-26"].get("required")
    end = eng.state.end_gt
    eng.state.gt = 29
    events.events_auto(eng)
    assert eng.state.end_gt == end - 1          # a) not complete: -1 each Events Phase


def test_alc_27_vichy_accord_drm_and_completion():
    eng = make("run-for-tunis")
    put(eng, "VFA-Oran", "box:FNA:Oran")
    put(eng, "VFA-Alger", "box:FNA:Oran")
    eng.state.units["VFA-Oran"].flags = {"vichy": "joined"}
    events.play_card(eng, "ALC-23")
    eng.state.units["VFA-Oran"].flags = {"vichy": "joined"}
    eng.state.gt += 1
    events.events_auto(eng)
    assert st(eng, "ALC-27") == "in_play"
    j, n = events.vichy_totals(eng)
    assert events.vichy_reaction_drm(eng) == (1 if j > n else 0)
    for u in eng.state.units.values():
        if u.id.startswith("VFA-"):
            u.flags = {"vichy": "joined"}
    events.events_auto(eng)
    assert eng.state.cards["ALC-27"]["accord_gt"] == eng.state.gt


def test_alc_28_soft_underbelly_rp_and_extension():
    eng = make("rommels-war", gt=31)
    eng.state.end_gt = 34   # room below the TRT's last box, GT 38 (R-TRT-END)
    eng.state.cards["ALC-28"].update(status="in_play", played_gt=31)
    for uid in ("US-1Arm", "US-2Arm", "UK-8Arm", "UK-23Arm"):
        put(eng, uid, "T6017")
    end = eng.state.end_gt
    events.soft_underbelly_withdraw(eng, ["US-1Arm", "US-2Arm", "UK-8Arm", "UK-23Arm"])
    assert all(eng.state.units[u].loc == offmap.REMOVED for u in ("US-1Arm", "UK-8Arm"))
    assert eng.state.end_gt >= end + 1
    assert any(i["unit"] == "US-RP" for i in eng.state.vars["reinf"])


def test_alc_28_declared_in_the_events_phase_withdraws_the_units_it_names():
    """23.1 ALC-28: playing the card is how the Allied player withdraws the units (it used to do nothing)."""
    eng = make("rommels-war", gt=31)
    eng.state.end_gt = 34
    eng.state.cards["ALC-28"].update(status="active", activated_gt=31)
    for uid in ("US-1Arm", "UK-8Arm"):
        put(eng, uid, "T6017")
    events.play_card(eng, "ALC-28", {"units": ["US-1Arm", "UK-8Arm"]})
    assert st(eng, "ALC-28") == "in_play"
    assert all(eng.state.units[u].loc == offmap.REMOVED for u in ("US-1Arm", "UK-8Arm"))
    with pytest.raises(IllegalAction, match="not an Allied unit in play"):
        events.soft_underbelly_withdraw(eng, ["US-1Arm"])          # already withdrawn


# --------------------------------------------------------------------------- Axis cards


def test_axc_5_parallel_war_extends_three_plus_three_and_fifth_army():
    eng = make(gt=4)
    eng.state.end_gt = 24   # room below the TRT's last box, GT 38 (R-TRT-END)
    end = eng.state.end_gt
    events.play_card(eng, "AXC-5")
    assert eng.state.end_gt == end + 6          # c) +3 and d) +3 (AXC-9 not met three GTs)
    eng.state.gt = 5
    events.events_auto(eng)
    assert st(eng, "AXC-8") == "in_play"


def test_axc_6_parallel_war_1941_follows_axc_5():
    eng = make(gt=7)
    events.play_card(eng, "AXC-5")
    events.end_of_gt(eng, 20)
    assert st(eng, "AXC-5") == "discarded" and st(eng, "AXC-6") == "in_play"


def test_axc_7_parallel_war_1942_follows_axc_6():
    eng = make("sonnenblume")
    eng.state.cards["AXC-7"] = {"id": "AXC-7", "status": "deck"}
    eng.state.gt = 19
    events.end_of_gt(eng, 20)
    assert st(eng, "AXC-6") == "discarded" and st(eng, "AXC-7") == "in_play"


def test_axc_8_fifth_army_released_by_german_unit_on_grid():
    eng = make(gt=5)
    events.put_in_play(eng, "AXC-8", "test")
    eng.state.vars["fifth_army_restricted"] = ["IT-17Pavia"]
    assert eng.query("fifth_army_restricted", unit="IT-17Pavia")
    put(eng, "GE-5Pz", "C0702")
    events.events_auto(eng)
    assert not eng.query("fifth_army_restricted", unit="IT-17Pavia") and st(eng, "AXC-8") == "discarded"


def test_axc_9_axis_in_egypt_consecutive_tracking():
    eng = make(gt=3)
    eng.state.end_gt = 24   # room below the TRT's last box, GT 38 (R-TRT-END)
    egypt(eng)
    for g in (3, 4, 5):
        eng.state.gt = g
        events.events_auto(eng)
    assert events.axis_in_egypt_consecutive(eng) == 3 and events.axis_in_egypt(eng)
    end = eng.state.end_gt
    events.play_card(eng, "AXC-5")
    assert eng.state.end_gt == end + 3           # AXC-9 met three GTs: no additional +3


def test_axc_10_afrikakorps_es_plus_12_and_declined_gt10():
    eng = make(gt=8)
    eng.state.end_gt = 24   # room below the TRT's last box, GT 38 (R-TRT-END)
    eng.state.cards["AXC-10"]["status"] = "active"
    end = eng.state.end_gt
    eng.state.phase, eng.state.step = 1, 2
    opts = [c for c, a, _ in events.declarable(eng, AXIS) if c == "AXC-10"]
    assert len(opts) == 2
    events.play_card(eng, "AXC-10", {"gt10": False})
    assert eng.state.end_gt == end + 12 - 3 and events.afrika_korps(eng)
    assert st(eng, "AXC-17") == "in_play"


def test_axc_11_afrikakorps_1941_follows_axc_10():
    eng = make(gt=10)
    events.put_in_play(eng, "AXC-10", "test", {"gt10": True})
    events.end_of_gt(eng, 20)
    assert st(eng, "AXC-11") == "in_play"


def test_axc_12_afrikakorps_1942_follows_axc_11():
    eng = make(gt=19)
    events.put_in_play(eng, "AXC-11", "test")
    events.end_of_gt(eng, 20)
    assert st(eng, "AXC-12") == "in_play"
    eng.state.gt = 28
    events.end_of_gt(eng, 20)
    assert st(eng, "AXC-12") == "discarded"


def test_axc_13_crete_garrison_air_to_crete():
    from core.rules import air
    eng = make(gt=15)
    put(eng, "GE-XFK", air.box(AXIS, "AvailableNext"))
    assert air.box(AXIS, "Crete") not in air.legal_boxes(eng, "GE-XFK")
    events.put_in_play(eng, "AXC-13", "test")
    assert air.box(AXIS, "Crete") in air.legal_boxes(eng, "GE-XFK")
    assert st(eng, "AXC-14") == "active" and st(eng, "AXC-15") == "active"


def test_axc_14_arab_revolt_commits_sdvh_287():
    eng = make(gt=16)
    events.put_in_play(eng, "AXC-13", "test")
    put(eng, "GE-Sdvh287", offmap.CRETE)
    assert "situation 1" in events.refusal(eng, "AXC-14")
    met.activate_track(eng, "SW Asia", "test")
    eng.state.vars["met"]["SW Asia"]["box"] = 1
    events.play_card(eng, "AXC-14")
    assert eng.state.units["GE-Sdvh287"].loc == met.track_box("SW Asia")
    assert [v for v, lbl in met._drm(eng, "SW Asia") if "AXC-14" in lbl] == [1]   # ALC-6's Sonderverband DRM


def test_axc_15_egyptian_revolt_blocks_nrv_then_ends():
    eng = make(gt=16)
    events.put_in_play(eng, "AXC-13", "test")
    put(eng, "GE-Sdvh288", "W1234")
    events.play_card(eng, "AXC-15")
    assert eng.state.units["GE-Sdvh288"].loc == offmap.NRV and offmap.nrv_exit_blocked(eng, "UK-7RTR")
    eng.state.gt = 18
    events.events_auto(eng)
    assert eng.state.units["GE-Sdvh288"].loc == offmap.destroyed(AXIS) and st(eng, "AXC-15") == "discarded"


def test_axc_16_operation_c3_malta_invasion_dice_total_13():
    eng = make(gt=20, dice=ScriptedDice([6, 6, 1]))
    eng.state.cards["ALC-12"]["status"] = "discarded"
    events.put_in_play(eng, "AXC-16", "test", {"act": "declare"})
    for uid in ("GE-Ramcke", "GE-Barenthin", "GE-5FJ", "GE-11Pio", "IT-185Folgore", "IT-1Superga", "IT-17Pavia",
                "IT-25Bologna", "IT-55Savona"):
        put(eng, uid, offmap.HERKULES)
    n = events.malta_invasion_dice(eng)
    assert n >= 3     # f) CF / 10, halves rounded up
    end = eng.state.end_gt
    eng.state.cards["AXC-16"]["declared_gt"] = 20
    eng.state.gt = 21
    eng.dice = ScriptedDice([6] * n)
    events.events_auto(eng)
    c = eng.state.cards["AXC-16"]
    assert c["resolved_gt"] == 21 and eng.state.end_gt == end   # +3 was at declaration
    assert not offmap.malta_allied(eng) and eng.state.units["UK-MaltaFleet"].loc == offmap.REMOVED \
        if "UK-MaltaFleet" in eng.state.units else not offmap.malta_allied(eng)
    assert eng.state.vars["malta_invasion_losses_owed"] == (0 if 6 * n >= 19 else 19 - n)


def test_axc_16_operation_c3_failure_destroys_ground_units():
    eng = make(gt=20, dice=ScriptedDice([1, 1, 1, 1, 1, 1]))
    events.put_in_play(eng, "AXC-16", "test", {"act": "declare"})
    put(eng, "GE-Ramcke", offmap.HERKULES)
    res = events.resolve_malta_invasion(eng)
    assert not res["success"] and eng.state.units["GE-Ramcke"].loc == offmap.REMOVED and offmap.malta_allied(eng)


def test_axc_17_herkules_put_in_play_by_afrikakorps():
    eng = make(gt=8)
    events.put_in_play(eng, "AXC-10", "test", {"gt10": True})
    assert st(eng, "AXC-17") == "in_play" and eng.state.vars.get("herkules")


def test_axc_18_aida_after_malta_and_es():
    eng = make(gt=22)
    eng.state.end_gt = 24   # room below the TRT's last box, GT 38 (R-TRT-END)
    eng.state.cards["AXC-16"].update(status="in_play", cancelled=21)
    events.schedule(eng, 22, "AXC-18", "activate", "test")
    events.events_auto(eng)
    assert st(eng, "AXC-18") == "active"
    end = eng.state.end_gt
    events.play_card(eng, "AXC-18")
    assert eng.state.end_gt == end + 1
    eng.state.gt = 23
    events.events_auto(eng)          # AXC-9 not in effect: +2 (c)
    assert eng.state.end_gt == end + 3


def test_axc_19_fall_braun_crete_moves_roll():
    eng = make("run-for-tunis", dice=ScriptedDice([6, 6]))
    end = eng.state.end_gt
    eng.state.vars["es_policy"] = "normal"
    assert strategic_moves.crete_move_check(eng, "GE-FJLehr") is False   # 6 + 0 = 6: short of 7
    assert eng.state.end_gt == end
    assert strategic_moves.crete_move_check(eng, "GE-Sdvh288") is True  # 6 + 1 = 7: the limit lengthens the game
    assert eng.state.end_gt == end + 1 and eng.state.cards["AXC-13"]["crete_moved"] == 2   # one count (R-CRETE-LEAVE)


def test_axc_20_fall_braun_arrivals_go_to_sicily_after_torch():
    eng = make("run-for-tunis")
    eng.state.gt = 30
    events.end_of_gt(eng, 20)
    assert st(eng, "AXC-19") == "discarded" and st(eng, "AXC-20") == "in_play"


# --------------------------------------------------------------------------- engine-level behaviour


def test_events_phase_declaration_order_non_initiative_first():
    eng = make("sonnenblume", gt=11)
    eng.state.phase, eng.state.step = 1, 1
    eng.state.stack = eng.state.stack[:1]
    eng.state.stack[0].data = {}
    eng._settle()
    d = eng.pending()
    assert d.kind in ("events", "card_choice") and d.side == ALLIED      # Axis holds the initiative: Allies first
    while eng.pending().side == ALLIED and eng.state.phase == 1:
        eng.apply(eng.pending().options[0].action)
    assert eng.pending().side == AXIS and eng.state.step == 3


def test_card_refusals_cite_rules():
    eng = make("fox-killed")
    with pytest.raises(IllegalAction) as e:
        events.play_card(eng, "ALC-12")
    assert "5.0" in str(e.value)
    eng2 = make()
    with pytest.raises(IllegalAction, match="not been activated"):
        events.play_card(eng2, "ALC-14")


def test_es_changes_ignored_in_fox_killed_24_0_d():
    eng = make("fox-killed")
    end = eng.state.end_gt
    assert not events.es_shift(eng, "AXC-5", +3, "test")
    assert eng.state.end_gt == end and not eng.state.es_history


def test_axc_16_e_no_axis_air_superiority_missions_in_the_gts_of_declaration_and_resolution():
    """AXC-16 e) "no air missions (by any Axis air units)"; 19.1.1 names air superiority among the missions (R-AIR-C3)."""
    from core.rules import air
    eng = make(gt=20)
    eng.state.cards["ALC-12"]["status"] = "discarded"
    put(eng, "GE-XFK", air.box(AXIS, "Superiority"))
    assert air.superiority_count(eng, AXIS) == 2                      # 19.2: the Air Superiority Box counts double
    events.put_in_play(eng, "AXC-16", "test", {"act": "declare"})
    assert air.superiority_count(eng, AXIS) == 0                      # GT of declaration
    eng.state.gt = 21
    assert air.superiority_count(eng, AXIS) == 0                      # GT of resolution
    eng.state.gt = 22
    assert air.superiority_count(eng, AXIS) == 2


def test_unplayed_card_discarded_on_schedule_does_not_bring_its_successor_play_path():
    """R-EV-DISCARD-UNPLAYED (5.0 "To be used and take advantage of the effects, a card must be played"): Desert War
    (28.0, "All cards are available"), both sides passing to GT 20.  AXC-5 is never declared, so AXC-6 is never
    played, and AXC-10 never, so AXC-11 never: their scheduled discards (end of GT 19) put nothing in play; ALC-7,
    in play at the start, still brings ALC-8, and ALC-8 ALC-9."""
    from tests.playpath import Play

    p = Play("desert-war", seed=1)
    p.run(until=lambda e: e.state.gt >= 20)
    cards = p.state.cards
    assert [cards[c]["status"] for c in ("AXC-5", "AXC-6", "AXC-11")] == ["discarded"] * 3
    assert all(cards[c].get("played_gt") is None for c in ("AXC-5", "AXC-6", "AXC-10", "AXC-11"))
    assert cards["AXC-7"]["status"] == "deck" and cards["AXC-12"]["status"] == "deck"
    assert not [e for e in p.events() if "AXC-7" in e or "AXC-12" in e]
    assert cards["ALC-8"].get("played_gt") == 7 and cards["ALC-9"].get("played_gt") == 11   # R-EV-DISCARD
