"""4.1 IV.5-IV.9 (20.4 fleets, 19.9 naval strikes, 22.4 Malta), 20.2 lanes, 20.5 landings into enemy port boxes,
19.7 ATP, 22.2.1/22.2.2 MET moves and combat, 22.5 Fall Braun, AXC-13 d / AXC-16 k / AXC-18 c / AXC-19 a-c,
31.0 a: each test named after its rule or card."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.state import Frame
from core.rules import air, met, naval, offmap, reinforcements, strategic_moves, strikes
from tests.test_events_cards import make, put


def push(eng, proc, **data):
    """Run ``proc`` on top of the stack until it asks something."""
    eng.push(proc, **data)
    eng._settle()
    return eng.pending()


def act(eng, kind, side, **args):
    return eng.apply(Action(kind=kind, side=side, args=args))


def fleets_home(eng, *ids):
    for f in ids:
        put(eng, f, strikes.home(ALLIED))


def ship_axis(eng, uid="GE-5Pz"):
    """IV.3/IV.4: ship a unit from Italy (20.2.1), recording the Italy lane's cargo."""
    put(eng, uid, offmap.ITALY)
    eng.state.initiative = AXIS
    proc = naval.OceanShipping()
    fr = Frame(proc="ocean_shipping", data={"step": "IV.4", "seen": []})
    to = naval.legal_ports(eng, uid)[0]
    proc.apply(eng, fr, Action(kind="ship", side=AXIS, args={"unit": uid, "to": to}))
    return to


# --------------------------------------------------------------------------- 20.4 fleets (IV.5)


def test_iv_5_20_4_fleet_allocation_strike_coastal_and_malta_fleet():
    eng = make("desert-war", gt=12)
    fleets_home(eng, "UK-MedFleet", "UK-ForceH", "UK-MaltaFleet")
    assert "No Axis shipping" in strikes.fleet_refusal(eng, "UK-MedFleet", "strike")
    ship_axis(eng)
    assert strikes.fleet_refusal(eng, "UK-MedFleet", "strike") is None
    assert "may not conduct strike" in strikes.fleet_refusal(eng, "UK-ForceH", "strike")     # 20.4.1
    assert "may not conduct coastal" in strikes.fleet_refusal(eng, "UK-MaltaFleet", "coastal")  # 20.4.2
    d = push(eng, "fleet_allocation", step="IV.5")
    assert d.kind == "fleet_allocation" and d.side == ALLIED and all(o.action.side == ALLIED for o in d.options)
    act(eng, "fleet_allocate", ALLIED, fleet=d.context["fleet"], mission="coastal")   # UK-ForceH first
    act(eng, "fleet_allocate", ALLIED, fleet="UK-MaltaFleet", mission="strike")
    act(eng, "fleet_allocate", ALLIED, fleet="UK-MedFleet", mission="strike")
    assert eng.state.units["UK-ForceH"].loc == strikes.COASTAL
    assert eng.state.units["UK-MedFleet"].loc == strikes.OCEAN
    s = eng.state.vars["naval"]["strikes"]
    assert s == [{"side": ALLIED, "lane": "Italy", "units": ["UK-MaltaFleet", "UK-MedFleet"], "resolved": False}]


def test_20_4_malta_fleet_only_out_of_an_allied_malta_axc_16_g():
    eng = make("desert-war", gt=12)
    fleets_home(eng, "UK-MaltaFleet")
    ship_axis(eng)
    eng.state.vars["malta"] = AXIS
    assert "Malta" in strikes.fleet_refusal(eng, "UK-MaltaFleet", "strike")


def test_20_4_1_med_fleet_and_force_h_must_escort_mediterranean_shipping():
    eng = make("desert-war", gt=12)
    fleets_home(eng, "UK-MedFleet", "UK-ForceH")
    put(eng, "UK-22Bde", "W2118")
    strikes.record_cargo(eng, "AlliedMed", "UK-22Bde")
    assert "must escort" in strikes.fleet_refusal(eng, "UK-MedFleet", "coastal")
    d = push(eng, "fleet_allocation", step="IV.5")
    assert {o.action.kind for o in d.options} == {"fleet_allocate"}        # no "not allocated" option
    with pytest.raises(IllegalAction, match="20.4"):
        act(eng, "fleet_stay", ALLIED, fleet=d.context["fleet"])
    act(eng, "fleet_allocate", ALLIED, fleet=d.context["fleet"], mission="escort")
    assert strikes.escorts(eng) == [d.context["fleet"]]


def test_xvii_2_in_port_fleets_flip_and_return_from_the_trt_19_3():
    eng = make("desert-war", gt=12)
    put(eng, "UK-MedFleet", "track:TRT:12")
    strikes.normalise_fleets(eng)
    assert eng.state.units["UK-MedFleet"].loc == strikes.home(ALLIED)
    eng.state.units["UK-MedFleet"].flags = {"in_port": True}
    assert "in port" in strikes.fleet_refusal(eng, "UK-MedFleet", "coastal")
    air.flip_based(eng)
    assert strikes.fleet_refusal(eng, "UK-MedFleet", "coastal") is None


# --------------------------------------------------------------------------- IV.6 strikes on Malta


def test_iv_6_22_4_axis_strike_on_malta_hits_checked_on_the_loss_table():
    eng = make("desert-war", gt=12)
    put(eng, "GE-FKII", air.box(AXIS, "Sicily"))
    put(eng, "UK-39Sqn" if False else "UK-201Group", air.box(ALLIED, "Malta"))
    eng.state.air_superiority = None
    d = push(eng, "malta_strikes", step="IV.6")
    assert d.side == AXIS and {o.action.kind for o in d.options} == {"malta_strike_with", "malta_strike_skip"}
    eng.dice = ScriptedDice([6, 1,          # GE-FKII: 2 bombardment dice, one hit (19.9.1)
                             6, 6,          # 19.3 damage of the hit Malta unit: 12 -> TRT +2
                             1, 1])         # GE-FKII's own mission damage: 2 -> based
    act(eng, "malta_strike_with", AXIS, unit="GE-FKII")
    act(eng, "resolve_malta_strike", AXIS)
    d = eng.pending()
    assert d.kind == "strike_loss" and d.side == ALLIED              # the targeted player chooses first
    act(eng, "strike_loss", ALLIED, unit="UK-201Group")
    assert eng.state.units["UK-201Group"].loc == "track:TRT:14"
    assert eng.state.units["GE-FKII"].flags.get("based")


def test_iv_6_no_axis_air_missions_while_the_malta_invasion_is_declared_axc_16_e():
    eng = make("desert-war", gt=21)
    put(eng, "GE-FKII", air.box(AXIS, "Sicily"))
    eng.state.vars["malta_invasion_blackout"] = [21, 22]
    assert "AXC-16 e" in strikes.striker_refusal(eng, "GE-FKII", "Malta")


def test_axc_16_a_gt8_sicily_air_units_fly_no_other_missions():
    eng = make("desert-war", gt=12)
    put(eng, "GE-XFK", air.box(AXIS, "Sicily"))
    eng.state.units["GE-XFK"].flags = {"arrived_by": "23.2 AXC-16 a"}
    eng.state.cards.setdefault("AXC-16", {"status": "in_play"})
    assert "AXC-16 a" in strikes.striker_refusal(eng, "GE-XFK", "Malta")


# --------------------------------------------------------------------------- IV.7 - IV.9 ocean strikes


def test_iv_7_iv_8_iv_9_allied_strike_on_shipping_from_italy_19_9():
    eng = make("desert-war", gt=12)
    port = ship_axis(eng, "GE-5Pz")
    put(eng, "UK-201Group", air.box(ALLIED, "NorthAfrica"))
    eng.state.control["C2308"] = AXIS
    eng.state.control["C2309"] = AXIS
    eng.state.control["C2821"] = AXIS
    assert "Cyrenaica" in strikes.striker_refusal(eng, "UK-201Group", "Italy")       # 20.2.1
    eng.state.units["IT-Benghazi"].loc = "box:Destroyed:Axis"      # 2.2.2: a hex the Axis occupies is the Axis's
    eng.state.control["C2308"] = ALLIED
    assert strikes.striker_refusal(eng, "UK-201Group", "Italy") is None
    eng.state.initiative = AXIS                                      # the Allies allocate first (IV.7)
    d = push(eng, "strike_allocation", step="IV.7")
    assert d.side == ALLIED
    act(eng, "strike_allocate", ALLIED, unit="UK-201Group", lane="Italy")
    eng.dice = ScriptedDice([5, 1, 1])          # 1 die (bomb 1): 5 = hit; then 19.3 damage 2 -> based
    d = push(eng, "strike_resolution", step="IV.9")
    assert d.options[0].action.kind == "resolve_strike"
    act(eng, "resolve_strike", ALLIED, lane="Italy")
    d = eng.pending()
    assert d.kind == "strike_loss" and d.side == AXIS                  # the targeted player first
    act(eng, "strike_loss", AXIS, unit="GE-5Pz")
    u = eng.state.units["GE-5Pz"]                    # still at sea on its lane, bound for the port (20.2)
    assert u.steps == 1 and u.loc == naval.AT_SEA + "Italy" and u.flags["at_sea"]["to"] == port
    assert eng.state.units["UK-201Group"].flags.get("based")


def test_19_9_2_axis_may_not_strike_cape_route_or_torch():
    eng = make("desert-war", gt=12)
    put(eng, "GE-FKII", air.box(AXIS, "Sicily"))
    assert "cannot be attacked" in strikes.striker_refusal(eng, "GE-FKII", "Cape")
    assert "cannot be attacked" in strikes.striker_refusal(eng, "GE-FKII", "Torch")


def test_19_9_1_escorting_fleets_minus_one_each_and_check_damage():
    eng = make("desert-war", gt=12)
    put(eng, "UK-22Bde", "W2118")
    strikes.record_cargo(eng, "AlliedMed", "UK-22Bde")
    put(eng, "UK-MedFleet", strikes.OCEAN)
    eng.state.units["UK-MedFleet"].flags = {"mission": "escort", "mission_gt": 12}
    put(eng, "GE-FKII", air.box(AXIS, "Crete"))
    strikes._add_strike(eng, AXIS, "AlliedMed", "GE-FKII")
    eng.dice = ScriptedDice([5, 6,      # 5-1 = 4 miss, 6-1 = 5 hit
                             1, 1,      # GE-FKII damage: based
                             6, 6])     # escort damage 12: TRT +2
    push(eng, "strike_resolution", step="IV.9")
    act(eng, "resolve_strike", AXIS, lane="AlliedMed")
    act(eng, "strike_loss", ALLIED, unit="UK-22Bde")
    assert eng.state.units["UK-22Bde"].steps == 1
    assert eng.state.units["UK-MedFleet"].loc == "track:TRT:14"


def test_19_9_1_ultra_allied_player_selects_all_losses():
    eng = make("desert-war", gt=12)
    for uid in ("GE-5Pz", "GE-8PzL"):
        put(eng, uid, "C2308")
        strikes.record_cargo(eng, "Italy", uid)
    put(eng, "UK-201Group", air.box(ALLIED, "NorthAfrica"))
    eng.state.control["C2308"] = ALLIED
    strikes._add_strike(eng, ALLIED, "Italy", "UK-201Group")
    eng.state.vars["ultra"] = {"gt": 12, "benefit": "naval_losses"}
    eng.dice = ScriptedDice([6, 3, 1, 1])        # hit; Ultra 3 (1-4: Allied selects); damage 2
    push(eng, "strike_resolution", step="IV.9")
    act(eng, "resolve_strike", ALLIED, lane="Italy")
    assert eng.pending().side == ALLIED and eng.pending().kind == "strike_loss"


# --------------------------------------------------------------------------- 20.2 lanes, 20.5 landings


def test_20_2_4_cape_route_ships_to_the_nrv_and_20_2_3_mediterranean_with_alc_11():
    eng = make("desert-war", gt=12)
    put(eng, "UK-22Bde", offmap.CAPE)
    assert naval.legal_ports(eng, "UK-22Bde") == [offmap.NRV]
    eng.state.cards.setdefault("ALC-11", {"status": "in_play"})["last_play_gt"] = 12
    assert len(naval.legal_ports(eng, "UK-22Bde")) > 1
    assert naval.lane_of(offmap.CAPE, "W2118") == "AlliedMed" and naval.lane_of(offmap.CAPE, offmap.NRV) == "Cape"


def test_20_5_torch_units_ship_into_enemy_port_boxes_and_alc_21_f_capacity():
    eng = make("tunisian-campaign")
    eng.state.vars["fna_in_play"] = True
    put(eng, "US-1Inf", offmap.TORCH)
    eng.state.control["A6201"] = AXIS
    ports = naval.legal_ports(eng, "US-1Inf")
    assert ports == ["box:Casablanca", "box:Oran",      # the FNA box ports (22.7)
                     naval.PORT_BOXES + "A6201"]         # Algiers, VF: an opposed landing (20.2.5, 20.5)
    ports = ports[2:]
    eng.state.initiative = ALLIED
    proc = naval.OceanShipping()
    fr = Frame(proc="ocean_shipping", data={"step": "IV.4", "seen": []})
    proc.apply(eng, fr, Action(kind="ship", side=ALLIED, args={"unit": "US-1Inf", "to": ports[0]}))
    u = eng.state.units["US-1Inf"]                       # on the Torch lane until a Movement Phase (20.1)
    assert u.loc == naval.AT_SEA + "Torch" and u.flags["shipped_from"] == offmap.TORCH
    assert naval.landing_capacity_left(eng, offmap.TORCH) == 6 + 3 + 3 - 1   # ALC-21 f): Algiers, Casablanca, Oran
    eng.state.phase, eng.state.step, eng.state.first_player = 6, 1, ALLIED
    d = push(eng, "port_placement", step="VI.1")        # placed in the port boxes of the enemy port (20.5)
    assert [o.action.args.get("to") for o in d.options] == [None, "box:PortBoxes:A6201", "box:PortBoxes:box:Casablanca",
                                                           "box:PortBoxes:box:Oran"]
    act(eng, "port_place", ALLIED, unit="US-1Inf", to="box:PortBoxes:A6201")
    assert u.loc == "box:PortBoxes:A6201" and u.flags["port_box"]["how"] == "landing"
    naval.unlanded_return(eng)                                          # 20.2: not landed -> back
    assert eng.state.units["US-1Inf"].loc == offmap.TORCH


def test_20_5_units_in_port_boxes_of_a_cleared_port_land_in_the_movement_phase():
    eng = make("tunisian-campaign")
    for v in list(eng.state.units.values()):
        if v.loc == "A6201":
            v.loc = offmap.REMOVED
    put(eng, "US-1Inf", "box:PortBoxes:A6201")
    eng.state.phase = 6
    eng.state.first_player = ALLIED
    naval.land_from_port_boxes(eng)
    assert eng.state.units["US-1Inf"].loc == "A6201"


# --------------------------------------------------------------------------- 19.7 ATP


def test_19_7_atp_arrivals_fill_the_pool_29_1_and_air_land_spends_them():
    eng = make("run-for-tunis")
    before = int(eng.state.vars.get("atp", {}).get(AXIS, 0))
    reinforcements._arrive(eng, {"side": AXIS, "unit": "AX-ATP", "rule": "29.1 Each GT"})
    reinforcements._arrive(eng, {"side": AXIS, "unit": "AX-ATP", "rule": "29.1 Each GT"})
    assert eng.state.vars["atp"][AXIS] == before + 2
    assert not any(offmap.base_id(u.id) == "AX-ATP" and u.loc != offmap.REMOVED for u in eng.state.units.values())


def test_19_7_atp_counters_from_set_up_become_points():
    eng = make("desert-war")
    put(eng, "AX-ATP#1", offmap.SICILY, side=AXIS)
    reinforcements.atp_counters_to_pool(eng)
    assert eng.state.units["AX-ATP#1"].loc == offmap.REMOVED
    assert eng.state.units["AX-ATP#1"].flags["removed_by"] == "19.7"
    assert eng.state.vars["atp"][AXIS] >= 1


# --------------------------------------------------------------------------- 22.2 MET


def _allied_phase(eng):
    eng.state.phase = 6
    eng.state.first_player = ALLIED


def test_22_2_1_units_move_from_the_nrv_to_a_track_and_back_not_pacific():
    eng = make("desert-war", gt=12)
    met.activate_track(eng, "Greece", "test")
    met.activate_track(eng, "Pacific", "test")
    put(eng, "UK-22Bde", offmap.NRV)
    _allied_phase(eng)
    dests = strategic_moves.met_destinations(eng, "UK-22Bde")
    assert met.track_box("Greece") in dests and met.track_box("Pacific") not in dests
    d = push(eng, "offmap_moves", step="VI.3")
    assert d.kind == "offmap_moves"
    act(eng, "offmap_move", ALLIED, unit="UK-22Bde", to=met.track_box("Greece"))
    assert eng.state.units["UK-22Bde"].loc == met.track_box("Greece")
    assert strategic_moves.met_destinations(eng, "UK-22Bde") == []       # one move per phase
    eng.state.phase = 12
    assert strategic_moves.met_destinations(eng, "UK-22Bde") == [offmap.NRV]


def test_22_2_1_air_units_committed_to_tracks_in_the_air_phase():
    eng = make("desert-war", gt=12)
    met.activate_track(eng, "Greece", "test")
    put(eng, "UK-201Group", air.box(ALLIED, "NorthAfrica"))
    put(eng, "GE-FKII", air.box(AXIS, "Sicily"))
    assert met.track_box("Greece") in air.legal_boxes(eng, "UK-201Group")
    assert met.track_box("Greece") in air.legal_boxes(eng, "GE-FKII")        # 22.2.1: Greece any GT


def test_22_2_2_met_combat_is_an_allied_combat_phase_decision():
    eng = make("desert-war", gt=12)
    met.activate_track(eng, "Greece", "test")
    eng.state.vars["met"]["Greece"]["box"] = 1
    put(eng, "UK-22Bde", met.track_box("Greece"))
    eng.state.phase = 8
    eng.state.first_player = ALLIED
    assert strategic_moves.met_combat_refusal(eng, "Greece") is None
    d = push(eng, "met_combat", step="VIII.1")
    assert {o.action.kind for o in d.options} == {"done", "met_combat"}
    eng.dice = ScriptedDice([6] * 10)
    act(eng, "met_combat", ALLIED, track="Greece")
    assert eng.state.vars["met"]["Greece"]["box"] == 0
    assert "already fought" in strategic_moves.met_combat_refusal(eng, "Greece")
    eng.state.first_player = AXIS
    assert "Allied Combat Phase" in strategic_moves.met_combat_refusal(eng, "Greece")


# --------------------------------------------------------------------------- 22.5, AXC-13/16/18/19


def _axis_phase(eng):
    eng.state.phase = 6
    eng.state.first_player = AXIS


def test_22_5_fall_braun_box_to_italy_any_time_sicily_after_axc_19_and_alc_23():
    eng = make("north-african-campaign", gt=28)
    put(eng, "GE-7Pz", offmap.FALL_BRAUN)
    _axis_phase(eng)
    assert strategic_moves.axis_destinations(eng, "GE-7Pz") == [offmap.ITALY]
    eng.state.cards["AXC-19"]["status"] = "in_play"
    eng.state.cards["ALC-23"] = dict(eng.state.cards.get("ALC-23", {})) | {"status": "in_play", "played_gt": 27}
    assert offmap.SICILY in strategic_moves.axis_destinations(eng, "GE-7Pz")
    push(eng, "offmap_moves", step="VI.3")
    act(eng, "offmap_move", AXIS, unit="GE-7Pz", to=offmap.SICILY)
    assert eng.state.units["GE-7Pz"].loc == offmap.SICILY


def test_axc_16_k_herkules_units_redeploy_after_cancellation():
    eng = make("north-african-campaign", gt=22)
    uid = "GE-Ramcke"
    put(eng, uid, offmap.HERKULES)
    _axis_phase(eng)
    eng.state.cards["AXC-16"] = {"status": "in_play"}
    assert strategic_moves.axis_destinations(eng, uid) == []
    eng.state.cards["AXC-16"]["cancelled"] = 21
    assert strategic_moves.axis_destinations(eng, uid) == [offmap.ITALY, offmap.FALL_BRAUN]


def test_axc_18_c_and_axc_13_d_crete_gt18_units_to_italy_with_the_extension_roll():
    eng = make("north-african-campaign", gt=19)
    put(eng, "GE-125", offmap.CRETE)
    _axis_phase(eng)
    assert strategic_moves.axis_destinations(eng, "GE-125") == []
    eng.state.cards["AXC-18"]["status"] = "in_play"
    assert strategic_moves.axis_destinations(eng, "GE-125") == [offmap.ITALY]
    end = eng.state.end_gt
    eng.dice = ScriptedDice([6])
    eng.state.cards["AXC-13"]["crete_moved"] = 1          # 6 + 1 >= 7: lengthen by one GT
    eng.state.vars["es_policy"] = "normal"
    push(eng, "offmap_moves", step="VI.3")
    act(eng, "offmap_move", AXIS, unit="GE-125", to=offmap.ITALY)
    assert eng.state.units["GE-125"].loc == offmap.ITALY
    assert eng.state.cards["AXC-13"]["crete_moved"] == 2
    assert eng.state.end_gt in (end, end + 1)


def test_axc_19_c_crete_gt27_units_to_italy_or_sicily_from_gt_28():
    eng = make("north-african-campaign", gt=28)
    put(eng, "GE-FJLehr", offmap.CRETE)
    _axis_phase(eng)
    eng.state.cards["AXC-19"]["status"] = "in_play"
    assert strategic_moves.axis_destinations(eng, "GE-FJLehr") == [offmap.ITALY, offmap.SICILY]


# --------------------------------------------------------------------------- 31.0 a


def test_31_0_a_axis_initiative_on_maps_l_and_s_on_gt_31():
    eng = make("tunisian-campaign", gt=31)
    eng.state.initiative = ALLIED
    assert strategic_moves.initiative_on(eng, "L2817") == AXIS
    assert strategic_moves.initiative_on(eng, "S1410") == AXIS
    assert strategic_moves.initiative_on(eng, "T6017") == ALLIED
    eng.state.gt = 32
    assert strategic_moves.initiative_on(eng, "L2817") == ALLIED
