"""20.4.2 coastal naval missions in the Allied Movement Phase (4.1 VI.3 b): Shore Bombardment (19.8 procedure),
Coastal Shipping / port box strikes (19.9.1 +1 port box, alternate loss selection), and 19.9.2 Strikes on Fleets
(a hit fleet checks damage and its mission is cancelled; an unhit fleet carries on and checks damage after)."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.rules import air, combat, fleets, strikes
from tests.ground_helpers import engine_at_movement, unit

CRETE = air.box(AXIS, "Crete")          # 19.1.1: the Crete Box flies over Maps C and W
TOBRUK, TUNIS = "C2331", "T6017"


def make(*extra, fleet="UK-MedFleet", first=ALLIED, dice=None):
    eng = engine_at_movement([unit(fleet, ALLIED, strikes.COASTAL), unit("AX-Dump#1", AXIS, TOBRUK),
                              unit("AX-Dump#2", AXIS, TUNIS), unit("UK-2Arm", ALLIED, "W2232"), *extra], first=first)
    if dice is not None:
        eng.dice = ScriptedDice(list(dice))
    return eng


def bombard(eng, fleet="UK-MedFleet", hex=TOBRUK, target="AX-Dump#1"):
    return eng.apply(Action(kind="shore_bombard", side=ALLIED, args={"fleet": fleet, "hex": hex, "target": target}))


def refused(eng, action, needle):
    before = eng.state.hash()
    with pytest.raises(IllegalAction) as exc:
        eng.apply(action)
    assert needle in str(exc.value), str(exc.value)
    assert eng.state.hash() == before and eng.pending().kind == "movement"
    return str(exc.value)


def test_20_4_2_shore_bombardment_disrupts_an_axis_supply_unit_and_the_fleet_checks_damage():
    # no Axis naval air: no strike decision; 2 bombardment dice 4+ disrupts (19.8); damage 2d6 = 4: in port (19.3)
    eng = make(dice=[4, 1, 2, 2])
    bombard(eng)
    st = eng.state
    assert st.units["AX-Dump#1"].disrupted
    f = st.units["UK-MedFleet"]
    assert f.flags["in_port"] and f.flags["support_used"] == combat.impulse_tag(st) and f.loc == strikes.COASTAL
    assert eng.pending().kind == "movement"                 # the Movement Phase continues


def test_20_4_2_shore_bombardment_misses_on_1_to_3():
    eng = make(dice=[3, 3, 6, 6])                            # damage 12: TRT in two GTs (19.3)
    bombard(eng)
    assert not eng.state.units["AX-Dump#1"].disrupted
    assert eng.state.units["UK-MedFleet"].loc == f"track:TRT:{eng.state.gt + 2}"


def test_20_4_2_med_fleet_maps_w_and_c_only_force_h_maps_a_and_t_only():
    eng = make(unit("UK-ForceH", ALLIED, strikes.COASTAL))
    refused(eng, Action(kind="shore_bombard", side=ALLIED,
                        args={"fleet": "UK-MedFleet", "hex": TUNIS, "target": "AX-Dump#2"}), "Maps W and C only (20.4.2)")
    refused(eng, Action(kind="shore_bombard", side=ALLIED,
                        args={"fleet": "UK-ForceH", "hex": TOBRUK, "target": "AX-Dump#1"}), "Maps A and T only (20.4.2)")
    eng.dice = ScriptedDice([5, 5, 1, 1])
    bombard(eng, fleet="UK-ForceH", hex=TUNIS, target="AX-Dump#2")
    assert eng.state.units["AX-Dump#2"].disrupted


def test_20_4_2_malta_fleet_never_performs_coastal_missions():
    eng = make(fleet="UK-MaltaFleet")
    refused(eng, Action(kind="shore_bombard", side=ALLIED, args={"fleet": "UK-MaltaFleet", "hex": TOBRUK,
                                                                 "target": "AX-Dump#1"}), "Malta fleet may not")


def test_20_4_2_refusals_cite_rules_and_leave_the_state_untouched():
    eng = make(unit("UK-ForceH", ALLIED, strikes.home(ALLIED)))
    refused(eng, Action(kind="shore_bombard", side=ALLIED, args={"fleet": "UK-ForceH", "hex": TUNIS,
                                                                 "target": "AX-Dump#2"}), "Coastal Missions Box")
    refused(eng, Action(kind="shore_bombard", side=ALLIED, args={"fleet": "UK-MedFleet", "hex": "C2330",
                                                                 "target": "AX-Dump#1"}), "not an Axis supply unit")
    refused(eng, Action(kind="shore_bombard", side=ALLIED, args={"fleet": "UK-MedFleet", "hex": TOBRUK,
                                                                 "target": "UK-2Arm"}), "not an Axis supply unit")
    refused(eng, Action(kind="fleet_strike_box", side=ALLIED, args={"fleet": "UK-MedFleet", "port": TOBRUK}),
            "No Axis units in the port boxes")
    eng.state.units["AX-Dump#1"].disrupted = True
    refused(eng, bombard_action(), "already disrupted")


def bombard_action():
    return Action(kind="shore_bombard", side=ALLIED, args={"fleet": "UK-MedFleet", "hex": TOBRUK, "target": "AX-Dump#1"})


def test_20_4_2_fleets_fly_coastal_missions_in_allied_movement_phases_only():
    eng = make(first=AXIS)
    assert eng.phasing_side() == AXIS
    assert not [o for o in eng.pending().options if o.action.kind in fleets.MISSIONS]
    with pytest.raises(IllegalAction):
        eng.apply(Action(kind="shore_bombard", side=AXIS, args={"fleet": "UK-MedFleet", "hex": TOBRUK,
                                                                "target": "AX-Dump#1"}))


def test_20_4_2_one_mission_per_impulse_shared_with_ground_support():
    eng = make()
    st = eng.state
    # naval ground support in this impulse's combat (combat's flag) uses the impulse's mission
    st.units["UK-MedFleet"].flags = {"support_used": combat.impulse_tag(st)}
    refused(eng, bombard_action(), "already conducted its coastal mission this impulse")
    # a mission in the Movement Phase uses the impulse's ground support too (a refusal restores the state object)
    eng.state.units["UK-MedFleet"].flags = {}
    eng.dice = ScriptedDice([1, 1, 2, 2])
    bombard(eng)
    st = eng.state
    st.units["UK-MedFleet"].flags.pop("in_port")            # even back from port: one mission per impulse
    refused(eng, bombard_action(), "this impulse")
    st = eng.state
    assert combat.fleet_support_units(st, ALLIED, TOBRUK) == []
    st.phase = 12                                            # the next impulse (4.1 XII)
    assert fleets.fleet_refusal(eng, "UK-MedFleet", TOBRUK) is None


def test_19_9_2_axis_strike_hits_the_fleet_cancels_the_mission_fleet_checks_damage():
    # strike GE-XFK 2 dice: 5 hits (19.9.1); striker damage 2+2 based; fleet hit: 19.3 damage 4+5 +1 (Tobruk is
    # a port) = 10: TRT next GT
    eng = make(unit("GE-XFK", AXIS, CRETE), dice=[5, 1, 2, 2, 4, 5])
    bombard(eng)
    d = eng.pending()
    assert d.kind == "fleet_mission_strike" and d.side == AXIS and "19.9.2" in d.rule
    assert [o.action.args["unit"] for o in d.options] == ["GE-XFK", None]
    eng.apply(Action(kind="fleet_mission_strike", side=AXIS, args={"unit": "GE-XFK"}))
    st = eng.state
    assert not st.units["AX-Dump#1"].disrupted                         # the mission is cancelled
    assert st.units["UK-MedFleet"].flags.get("hit")
    assert st.units["UK-MedFleet"].loc == f"track:TRT:{st.gt + 1}"
    assert st.units["GE-XFK"].flags.get("based")                       # the striker checked damage (19.3)
    assert eng.pending().kind == "movement"


def test_19_9_2_unhit_fleet_carries_on_then_checks_damage():
    eng = make(unit("GE-XFK", AXIS, CRETE), dice=[1, 4, 2, 2, 6, 1, 3, 3])
    bombard(eng)
    eng.apply(Action(kind="fleet_mission_strike", side=AXIS, args={"unit": "GE-XFK"}))
    st = eng.state
    assert st.units["AX-Dump#1"].disrupted
    assert not st.units["UK-MedFleet"].flags.get("hit") and st.units["UK-MedFleet"].flags.get("in_port")


def test_19_9_2_strike_on_the_fleet_is_optional():
    eng = make(unit("GE-XFK", AXIS, CRETE), dice=[4, 4, 2, 2])
    bombard(eng)
    eng.apply(Action(kind="fleet_mission_strike", side=AXIS, args={"unit": None}))
    assert eng.state.units["AX-Dump#1"].disrupted and not eng.state.units["GE-XFK"].flags.get("based")
    with pytest.raises(IllegalAction):
        eng.apply(Action(kind="fleet_mission_strike", side=AXIS, args={"unit": "GE-XFK"}))


def test_19_9_2_strikers_outside_their_area_cannot_strike_the_fleet():
    # Crete flies over Maps C and W only (19.1.1): no strike on Force H off Tunis
    eng = make(unit("GE-XFK", AXIS, CRETE), fleet="UK-ForceH", dice=[4, 4, 2, 2])
    bombard(eng, fleet="UK-ForceH", hex=TUNIS, target="AX-Dump#2")
    assert eng.pending().kind == "movement" and eng.state.units["AX-Dump#2"].disrupted


def test_20_4_2_port_box_strike_plus_one_losses_alternate_axis_first():
    # 2 dice +1 (port box): 4 and 5 are hits; Axis picks the first loss, Allied the second (19.9.1)
    eng = make(unit("GE-5Pz", AXIS, "box:PortBoxes:C2308", steps=2), unit("AX-MSU#1", AXIS, "box:PortBoxes:C2308"),
               dice=[4, 5, 2, 2])
    eng.apply(Action(kind="fleet_strike_box", side=ALLIED, args={"fleet": "UK-MedFleet", "port": "C2308"}))
    d = eng.pending()
    assert d.kind == "strike_loss" and d.side == AXIS
    eng.apply(Action(kind="strike_loss", side=AXIS, args={"unit": "AX-MSU#1"}))
    d = eng.pending()
    assert d.kind == "strike_loss" and d.side == ALLIED and [o.action.args["unit"] for o in d.options] == ["GE-5Pz"]
    eng.apply(Action(kind="strike_loss", side=ALLIED, args={"unit": "GE-5Pz"}))
    st = eng.state
    assert st.units["GE-5Pz"].steps == 1
    assert "AX-MSU#1" not in st.units or not st.units["AX-MSU#1"].loc.startswith("box:PortBoxes")
    assert st.units["UK-MedFleet"].flags.get("in_port")        # the fleet checked damage after the losses
    assert eng.pending().kind == "movement"


def test_20_4_2_sampler_offers_at_most_two_legal_missions_and_they_are_accepted():
    eng = make(unit("UK-ForceH", ALLIED, strikes.COASTAL), unit("GE-5Pz", AXIS, "box:PortBoxes:C2308", steps=2))
    opts = [o for o in eng.pending().options if o.action.kind in fleets.MISSIONS]
    assert 1 <= len(opts) <= 2
    for o in opts:
        probe = engine_at_movement(list(eng.state.units.values()), first=ALLIED)
        probe.apply(o.action)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_20_4_2_random_bot_options_around_fleet_missions_are_always_accepted(seed):
    """Every option offered around the fleet missions (the movement sampler, the Axis strike, the losses) is
    accepted (the engine's promise, tests/test_fuzz_options.py)."""
    from core.bots import RandomBot

    eng = make(unit("UK-ForceH", ALLIED, strikes.COASTAL), unit("GE-XFK", AXIS, CRETE),
               unit("IT-2AS", AXIS, air.box(AXIS, "Sicily")), unit("GE-5Pz", AXIS, "box:PortBoxes:C2308", steps=2),
               unit("AX-MSU#1", AXIS, "box:PortBoxes:T6017"))
    bot = RandomBot(seed)
    kinds = set()
    for _ in range(40):
        d = eng.pending()
        if d is None or (d.kind == "movement" and not any(o.action.kind in fleets.MISSIONS for o in d.options)):
            break
        opts = [o for o in d.options if o.action.kind in fleets.MISSIONS] if d.kind == "movement" else None
        a = bot.choose(d) if not opts else opts[seed % len(opts)].action
        kinds.add(a.kind)
        eng.apply(a)
    assert kinds & set(fleets.MISSIONS)


def test_23_2_axc_16_e_no_axis_strike_on_a_fleet_during_the_malta_invasion_blackout():
    eng = make(unit("GE-XFK", AXIS, CRETE), dice=[4, 4, 2, 2])
    eng.state.vars["malta_invasion_blackout"] = [eng.state.gt]
    bombard(eng)
    assert eng.pending().kind == "movement" and eng.state.units["AX-Dump#1"].disrupted
