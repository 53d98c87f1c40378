"""19.5 air ground support (area of operations, +1 near an airfield), 20.4.2 naval ground support,
ALC-25 US inexperience, 21.1.1 / 21.2.1 random weather shifts, 12.6.1 dump reach."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS
from core.dice import ScriptedDice
from core.rules import combat, combat_forms, tec
from tests.rules_combat_kit import act, desert_map, make_state, start
from tests.test_rules_14_7_2_retreated_into import settle_defaults


@pytest.fixture(autouse=True)
def desert():
    tec.use_map(desert_map())
    yield
    tec.use_map(None)


def test_19_5_area_of_operations_axis_north_africa_needs_a_base_map_nearby():
    st = make_state([("GE-FFAfrika", AXIS, "box:AirNA:Axis", 1)])
    assert not combat.air_area_ok(st, "GE-FFAfrika", "C0803")
    st = make_state([("GE-FFAfrika", AXIS, "box:AirNA:Axis", 1), ("AX-Base#1", AXIS, "S0931")])
    assert combat.air_area_ok(st, "GE-FFAfrika", "C0803")        # S adjoins C (19.1.1)
    assert not combat.air_area_ok(st, "GE-FFAfrika", "T6017")     # Map T: the Sicily box only
    st.units["GE-FFAfrika"].loc = "box:AirSuperiority:Axis"
    assert not combat.air_area_ok(st, "GE-FFAfrika", "C0803")     # the superiority box flies no support


def test_19_1_2_nrv_box_within_ten_hexes_of_the_east_edge():
    st = make_state([("UK-202Group", ALLIED, "box:NRV", 1)])
    assert combat.air_area_ok(st, "UK-202Group", "W2028") and not combat.air_area_ok(st, "UK-202Group", "W2020")


def test_19_5_plus_one_within_ten_hexes_of_a_friendly_supplied_airfield():
    st = make_state([("GE-FFAfrika", AXIS, "box:AirNA:Axis", 1), ("GE-5Pz", AXIS, "C0907", 2),
                     ("AX-Base#1", AXIS, "C0701", 1, {"active": True})])
    assert "C0907" in combat.friendly_airfields(st, AXIS)          # occupied by Axis units only, in LOS
    base = combat.air_shift(st, "GE-FFAfrika", "C0803", [])
    assert combat.air_shift(st, "GE-FFAfrika", "C0803") == base + 1
    assert combat.air_shift(st, "GE-FFAfrika", "C2331") == base    # too far
    st.vars["airfields_disrupted"] = {"C0907": {"gt": st.gt}}
    assert "C0907" not in combat.friendly_airfields(st, AXIS)


def test_20_4_2_fleet_support_on_coastal_hexes_of_its_maps_once_per_impulse():
    tec.use_map(desert_map(C0904="sea"))
    st = make_state([("UK-MedFleet", ALLIED, combat.COASTAL_MISSIONS_BOX, 1), ("UK-ForceH", ALLIED, combat.COASTAL_MISSIONS_BOX, 1)])
    assert combat.fleet_support_units(st, ALLIED, "C0803") == ["UK-MedFleet"]     # Force H: Maps A and T
    assert combat.fleet_support_units(st, ALLIED, "C0802") == []                   # not coastal
    st.units["UK-MedFleet"].flags = {"support_used": combat.impulse_tag(st)}
    assert combat.fleet_support_units(st, ALLIED, "C0803") == []
    # 20.4.2 "one ground support mission each impulse": the first player's Combat Phase (VIII) and his Movement
    # Phase (VI) share an impulse; the second player's Combat Phase (XI) is the next impulse
    st.phase = 6
    assert combat.fleet_support_units(st, ALLIED, "C0803") == []
    st.phase = 11
    assert combat.fleet_support_units(st, ALLIED, "C0803") == ["UK-MedFleet"]


def test_20_4_2_naval_support_shifts_the_attackers_column_and_the_fleet_checks_damage():
    tec.use_map(desert_map(C0904="sea"))
    st = make_state([("GE-5Pz", AXIS, "C0802", 2), ("UK-2Arm", ALLIED, "C0803", 2),
                     ("UK-MedFleet", ALLIED, combat.COASTAL_MISSIONS_BOX, 1)])
    eng, fr = start(st, ScriptedDice([3, 1, 1, 1, 1, 1, 1, 1, 1, 1]), attackers=["GE-5Pz"], hexes=["C0803"])
    act(eng, "support", ALLIED, unit="UK-MedFleet")
    settle_defaults(eng)
    c = fr.data["columns"]
    assert c["attacker"] == c["defender"] - 1          # the defensive shift moves the attacker's column only
    assert eng.state.units["UK-MedFleet"].flags.get("in_port") or eng.state.units["UK-MedFleet"].loc.startswith("track:TRT")


def test_alc_25_us_inexperience_two_columns_axis_favour_and_us_morale_plus_one():
    st = make_state([("GE-5Pz", AXIS, "C0802", 2), ("US-1Arm", ALLIED, "C0803", 2)], vars={"us_inexperience": 2})
    v = combat.combat_view(st, AXIS, ["GE-5Pz"], ["C0803"], "regular")
    assert combat.general_shifts(st, AXIS, v)[-1][0] == 2
    v2 = combat.combat_view(st, ALLIED, ["US-1Arm"], ["C0802"], "regular")
    assert combat.general_shifts(st, ALLIED, v2)[-1][0] == -2
    from core.rules import special_units as su

    assert su.effective_morale(st, "US-1Arm") == 4
    st.vars["us_inexperience"] = 1
    assert combat.general_shifts(st, AXIS, v)[-1][0] == 1 and su.effective_morale(st, "US-1Arm") == 3


def test_alc_25_c_experience_roll_after_a_mostly_us_combat_flips_then_removes_the_marker():
    st = make_state([("GE-5Pz", AXIS, "C0802", 2), ("US-1Arm", ALLIED, "C0803", 2)], vars={"us_inexperience": 2})
    eng, fr = start(st, ScriptedDice([1] + [5] * 12), attackers=["GE-5Pz"], hexes=["C0803"])
    settle_defaults(eng)
    assert eng.state.vars.get("us_inexperience") == 1
    assert any("ALC-25" in e for x in eng.log for e in x.events)


def test_21_1_1_winter_random_shift_on_map_a_and_c_mountains_only_in_winter():
    st = make_state([], gt=1)           # GT 1 = a winter month? decided by core.calendar
    from core import calendar

    wgt = next(g for g in range(1, 40) if calendar.is_winter(g))
    sgt = next(g for g in range(1, 40) if not calendar.is_winter(g))
    st.gt = wgt
    assert combat.winter_hex(st, "A6201") and not combat.winter_hex(st, "C0803")
    tec.use_map(desert_map(C0803="mountain"))
    assert combat.winter_hex(st, "C0803")
    st.gt = sgt
    assert not combat.winter_hex(st, "A6201")
    st.gt = wgt
    st.vars["weather_rules"] = False
    assert not combat.winter_hex(st, "A6201")


def test_21_2_1_ghibli_random_shift_in_desert_not_in_winter_areas_and_no_air():
    tec.use_map(desert_map(C0805="mountain"))
    st = make_state([("GE-5Pz", AXIS, "C0802", 2), ("UK-2Arm", ALLIED, "C0803", 2)])
    st.ghibli = True
    assert combat.ghibli_hex(st, "C0803") and not combat.ghibli_hex(st, "C0805") and not combat.ghibli_hex(st, "A6201")
    assert not combat.air_ok_in(st, "C0803")
    from core import charts
    from core.engine import Engine

    eng = Engine(st, ScriptedDice([1]))
    out = combat_forms.weather_shifts(eng, ["C0803"], ["C0802"])
    assert out == [(charts.weather_shift("ghibli", 1), "Ghibli random shift, die 1 (21.2.1)")] and out[0][0] == -3


def test_12_6_1_dump_reach_is_the_los_from_the_dump_never_through_ezoc_or_msu():
    st = make_state([("AL-Dump#1", ALLIED, "C0810", 1), ("UK-2Arm", ALLIED, "C0803", 2), ("AL-MSU#1", ALLIED, "C0806", 1)])
    assert not combat.dump_reaches(st, "AL-Dump#1", "C0803")        # 7 hexes of desert > 7 MMP? (not with an MSU)
    assert combat.dump_reaches(st, "AL-Dump#1", "C0809")
    st2 = make_state([("AL-Dump#1", ALLIED, "C0806", 1), ("UK-2Arm", ALLIED, "C0803", 2)])
    assert combat.dump_reaches(st2, "AL-Dump#1", "C0803")
    st2.units["GE-5Pz"] = st2.units["UK-2Arm"].__class__(id="GE-5Pz", side=AXIS, loc="C0905", steps=2)
    # the Axis ZOC now covers C0804/C0805: the line from C0806 is cut short
    assert not combat.dump_reaches(st2, "AL-Dump#1", "C0803")
