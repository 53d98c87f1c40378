"""20.4.2 naval ground support: the Axis naval strike on a supporting fleet before the combat (19.9.1 dice by
``air.naval_strike``, 19.3 mission damage for the strikers), and one ground support mission per impulse."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS
from core.dice import ScriptedDice
from core.rules import combat, tec
from tests.rules_combat_kit import act, desert_map, make_state, start
from tests.test_rules_14_7_2_retreated_into import settle_defaults

CRETE = "box:Air:Axis:Crete"          # 19.1.1: the Crete Box flies over Maps C and W


@pytest.fixture(autouse=True)
def coast():
    tec.use_map(desert_map(C0904="sea"))
    yield
    tec.use_map(None)


def fight(dice, strikers=("GE-XFK",)):
    st = make_state([("GE-5Pz", AXIS, "C0802", 2), ("UK-2Arm", ALLIED, "C0803", 2),
                     ("UK-MedFleet", ALLIED, combat.COASTAL_MISSIONS_BOX, 1)]
                    + [(a, AXIS, CRETE, 1) for a in strikers])
    eng, fr = start(st, ScriptedDice(list(dice)), attackers=["GE-5Pz"], hexes=["C0803"])
    if strikers:
        act(eng, "support_done", AXIS)          # (FK X could fly ground support instead, 19.5)
    return eng, fr


def test_20_4_2_axis_strike_hits_the_fleet_no_support_strikers_check_damage():
    # strike: FK X bombs 2 dice, 5 hits (19.9.1: 5-6); mission damage 2+2 = 4: based (19.3); combat die 3
    eng, fr = fight([5, 1, 2, 2, 3] + [1] * 10)
    act(eng, "support", ALLIED, unit="UK-MedFleet")
    d = eng.pending()
    assert d.kind == "combat_fleet_strike" and d.side == AXIS and "20.4.2" in d.rule
    assert [o.action.args["unit"] for o in d.options] == ["GE-XFK", None]
    act(eng, "fleet_strike", AXIS, unit="GE-XFK")
    act(eng, "fleet_strike", AXIS, unit=None)
    assert eng.state.units["UK-MedFleet"].flags.get("hit")
    assert fr.data["def_fleet"] == [] and fr.data["fleet_strikes"][0]["hits"] == 1
    assert eng.state.units["GE-XFK"].flags.get("based")
    settle_defaults(eng)
    c = fr.data["columns"]
    assert c["attacker"] == c["defender"]                    # no defensive shift from the hit fleet
    assert combat.fleet_support_units(eng.state, ALLIED, "C0803") == []     # hit: no more missions


def test_19_9_2_a_fleet_hit_before_the_combat_checks_19_3_damage_at_once():
    # strike 5 (hit), 1; FK X damage 2+2 = 4 (based); the hit fleet's own 19.3 roll 6+6 = 12: TRT in two GTs
    eng, fr = fight([5, 1, 2, 2, 6, 6] + [1] * 10)
    act(eng, "support", ALLIED, unit="UK-MedFleet")
    act(eng, "fleet_strike", AXIS, unit="GE-XFK")
    act(eng, "fleet_strike", AXIS, unit=None)
    fleet = eng.state.units["UK-MedFleet"]
    assert fleet.loc == f"track:TRT:{eng.state.gt + 2}" and fr.data["def_fleet"] == []


def test_20_4_2_axis_strike_misses_the_fleet_supports():
    eng, fr = fight([1, 2, 2, 2, 3] + [1] * 10)
    act(eng, "support", ALLIED, unit="UK-MedFleet")
    act(eng, "fleet_strike", AXIS, unit="GE-XFK")
    act(eng, "fleet_strike", AXIS, unit=None)
    assert not eng.state.units["UK-MedFleet"].flags.get("hit") and fr.data["def_fleet"] == ["UK-MedFleet"]
    settle_defaults(eng)
    c = fr.data["columns"]
    assert c["attacker"] == c["defender"] - 1


def test_20_4_2_strike_is_optional_and_not_offered_without_naval_air():
    eng, fr = fight([3] + [1] * 10)
    act(eng, "support", ALLIED, unit="UK-MedFleet")
    act(eng, "fleet_strike", AXIS, unit=None)                # declined: no dice
    assert fr.data.get("fleet_strikes") is None and fr.data["def_fleet"] == ["UK-MedFleet"]
    eng, fr = fight([3] + [1] * 10, strikers=())
    act(eng, "support", ALLIED, unit="UK-MedFleet")
    assert eng.pending().kind != "combat_fleet_strike"


def test_20_4_2_one_ground_support_mission_per_impulse_not_per_combat_phase():
    eng, fr = fight([3] + [1] * 10, strikers=())
    act(eng, "support", ALLIED, unit="UK-MedFleet")
    settle_defaults(eng)
    st = eng.state
    assert st.units["UK-MedFleet"].flags["support_used"] == combat.impulse_tag(st)
    st.units["UK-MedFleet"].flags = {k: v for k, v in st.units["UK-MedFleet"].flags.items() if k != "in_port"}
    assert combat.fleet_support_units(st, ALLIED, "C0803") == []   # the same impulse (phase VIII)
    st.phase = 11                                                   # the Second Player Initial Impulse
    assert combat.fleet_support_units(st, ALLIED, "C0803") == ["UK-MedFleet"]
