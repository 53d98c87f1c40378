"""15.x special units in combat: AT halving (15.2), artillery (15.1), infantry in the desert (15.9),
recon superiority (15.3), line reductions (15.1, 15.4, 15.7); 16.3 oasis effects; 13.4 overrun eligibility."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS
from core.rules import combat, combat_forms, special_units as su, tec
from tests.rules_combat_kit import desert_map, make_state


@pytest.fixture(autouse=True)
def desert():
    tec.use_map(desert_map())
    yield
    tec.use_map(None)


def test_15_2_halving_rounds_up_but_always_reduces_by_one():
    assert [su.halve_rating(x) for x in (1, 2, 3, 4, 5)] == [0, 1, 2, 2, 3]


def test_15_2_at_in_mobile_battle_doubled_then_halved_against_air_support():
    st = make_state([("UK-2SG", ALLIED, "C0803", 2), ("GE-5Pz", AXIS, "C0802", 2)])
    v = combat.combat_view(st, AXIS, ["GE-5Pz"], ["C0803"], "mobile", {"att_air": ["GE-FFAfrika"]})
    assert su.at_rating(st, v, "UK-2SG")[0] == 2
    v2 = combat.combat_view(st, AXIS, ["GE-5Pz"], ["C0803"], "regular")
    assert su.at_rating(st, v2, "UK-2SG")[0] == 2      # no doubling, no halving
    v3 = combat.combat_view(st, AXIS, ["GE-5Pz"], ["C0803"], "regular", {"def_supplied": {"UK-2SG": False}})
    assert su.at_rating(st, v3, "UK-2SG")[0] == 0      # not in combat supply: no special capability (12.6)


def test_15_2_non_mobile_at_unusable_in_overrun_and_attacking_obstructed():
    st = make_state([("UK-2Arm", ALLIED, "C0803", 2), ("GE-I18FLK", AXIS, "C0802", 1), ("GE-5Pz", AXIS, "C0802", 2)])
    v = combat.combat_view(st, AXIS, ["GE-I18FLK", "GE-5Pz"], ["C0803"], "overrun")
    assert su.at_rating(st, v, "GE-I18FLK")[0] == 0
    tec.use_map(desert_map(C0803="city"))
    v = combat.combat_view(st, AXIS, ["GE-I18FLK", "GE-5Pz"], ["C0803"], "regular")
    assert su.at_rating(st, v, "GE-I18FLK")[0] == 0


def test_15_9_standard_infantry_halved_in_desert_unless_stacked_with_non_infantry():
    st = make_state([("UK-2Arm", ALLIED, "C0803", 2), ("IT-8Ber", AXIS, "C0802", 1)])
    v = combat.combat_view(st, AXIS, ["IT-8Ber"], ["C0803"], "regular")
    assert su.unit_strength(st, v, "IT-8Ber").value == 2
    st = make_state([("UK-2Arm", ALLIED, "C0803", 2), ("IT-8Ber", AXIS, "C0802", 1), ("IT-132Ariete", AXIS, "C0802", 2)])
    v = combat.combat_view(st, AXIS, ["IT-8Ber"], ["C0803"], "regular")
    assert su.unit_strength(st, v, "IT-8Ber").value == 4


def test_15_1_only_one_attacking_artillery_unit_except_deliberate():
    st = make_state([("UK-2Arm", ALLIED, "C0803", 2), ("IT-131Cel", AXIS, "C0802", 1), ("IT-3Cel", AXIS, "C0802", 1)])
    v = combat.combat_view(st, AXIS, ["IT-131Cel", "IT-3Cel"], ["C0803"], "regular")
    assert su.artillery_shifts(st, v, True)[0] == 1
    v = combat.combat_view(st, AXIS, ["IT-131Cel", "IT-3Cel"], ["C0803"], "deliberate")
    assert su.artillery_shifts(st, v, True, ["IT-3Cel"])[0] == 2
    v = combat.combat_view(st, AXIS, ["IT-131Cel", "IT-3Cel"], ["C0803"], "regular", {"att_supplied": {"IT-131Cel": False, "IT-3Cel": False}})
    assert su.artillery_shifts(st, v, True)[0] == 0


def test_15_3_recon_superiority_eop_aufkl_over_kdg():
    st = make_state([("UK-KDG", ALLIED, "C0701", 1), ("GE-3Aufkl", AXIS, "C0702", 1)])
    assert su.recon_superiority(st, ["GE-3Aufkl"], ["UK-KDG"]) == "attacker"


def test_14_4_forts_raise_the_line_engineers_lower_it():
    st = make_state([("UK-2Arm", ALLIED, "C0803", 2)], vars={"forts": {"C0803": {"level": 2}}})
    assert combat.line_options(st, ["C0803"]) == [(3, "desert + fort 2 in C0803")]
    assert combat.line_options(st, ["C0803"], reductions=1)[0][0] == 2


def test_16_3_oasis_effects_example_blm_two_failures_disrupted():
    assert combat_forms.oasis_effects(2, 2, False) == "disrupt"      # first failure ignored (a), one left (b)
    assert combat_forms.oasis_effects(3, 2, False) == "disrupt_retreat"
    assert combat_forms.oasis_effects(4, 2, True) == "eliminate"
    assert combat_forms.oasis_effects(1, 0, True) == "retreat"


def test_13_4_2_no_overrun_of_a_hex_in_a_friendly_zoc_we_24():
    st = make_state([("UK-2SG", ALLIED, "C0803", 2), ("UK-3LtArm", ALLIED, "C0804", 1), ("GE-5Pz", AXIS, "C0802", 2)])
    why = combat_forms.overrun_refusal(st, ["GE-5Pz"], "C0803")
    assert why and "13.4.2" in why
    tec.use_map(desert_map(C0803="mountain"))
    assert "13.4.2" in combat_forms.overrun_refusal(st, ["GE-5Pz"], "C0803")
