"""Player-aid charts: every chart fact of worked_examples.md (Parts A and C) holds.

Test names cite the rule or worked example (WE-nn) they reproduce.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from core import charts
from core.charts import (
    ChartError, attacker_result, crt_column, crt_odds, crt_result, decode_result, final_columns,
    round_steps, steps_lost,
)

# ----------------------------------------------------------------- CRT: odds -> column


def test_we05_14_5_example_4to1_rough_line2_is_column_6_then_10():
    base = crt_column(4, 1, 2)
    assert base == 6
    assert final_columns(base, 4) == (10, 10)


def test_14_5_rough_is_line_2():
    assert charts.terrain_line("rough") == 2


def test_eop_desert_is_all_other_line_1():
    assert charts.terrain_line("desert") == 1
    assert charts.crt().line_names[1] == "All Other"


def test_we31_eop_15_to_3_is_5to1_column_9():
    assert crt_odds(15, 3, 1).text == "5:1"
    assert crt_column(15, 3, 1) == 9


def test_we19_eop_overrun_6to1_all_other_is_column_9():
    # 6:1 rounds down to 5:1: the All Other line prints no 6:1, even for overruns (14.5(1)).
    assert crt_column(6, 1, 1, overrun=True) == 9
    assert crt_column(6, 1, 1) == 9


def test_we28_eop_overrun_7to1_all_other_is_column_10():
    assert crt_column(7, 1, 1, overrun=True) == 10


def test_issue4_7to1_all_other_is_column_10_for_any_combat():
    assert crt_column(7, 1, 1) == 10


def test_we33_eop_mobile_battle_23_to_3_rounds_down_to_7to1_column_10():
    assert crt_odds(23, 3, 1, mobile=True).text == "7:1"
    assert crt_column(23, 3, 1, mobile=True) == 10


def test_15_2_ruling_at_after_doubling_keeps_the_eop_mobile_battle_column():
    # 15.2 order: 5 Pz 9 x 2 - 2 = 16; 16 + 6 + 2 (+1 I/18 Flak) = 24 or 25 vs 3 -> still column 10.
    assert crt_column(24, 3, 1, mobile=True) == 10
    assert crt_column(25, 3, 1, mobile=True) == 10


def test_14_5_parenthesised_odds_only_for_overrun_and_mobile_battle():
    assert crt_column(12, 1, 1) == 10                 # regular combat stops at 7:1
    assert crt_column(12, 1, 1, overrun=True) == 11   # (10:1)
    assert crt_column(12, 1, 1, mobile=True) == 11
    assert crt_odds(12, 1, 1, overrun=True).parenthesised


def test_14_5_ratio_below_lowest_uses_lowest_and_above_highest_uses_highest():
    lowest = charts.crt().lines[1][0]
    assert crt_column(1, 10, 1) == lowest.column
    assert crt_column(1000, 1, 5) == charts.crt().lines[5][-1].column


def test_14_5_ratio_rounds_down_to_nearest_printed_ratio():
    # 2.75:1 is not printed: rounds down to 2:1.
    assert crt_odds(11, 4, 1).text == "2:1"
    assert crt_odds(Fraction(3, 2), 1, 1).text == "3:2"


def test_14_4_fort_raises_line_to_at_most_5_and_reductions_lower_it():
    assert charts.terrain_line("desert", fort_level=1) == 2
    assert charts.terrain_line("city", fort_level=3) == 5
    assert charts.terrain_line("city", fort_level=1, reductions=1) == 4   # engineer 15.7
    assert charts.terrain_line("rough", reductions=3) == 1


def test_14_4_higher_lines_are_harder_at_equal_odds():
    cols = [crt_column(5, 1, line) for line in range(1, 6)]
    assert cols == sorted(cols, reverse=True) and len(set(cols)) == 5


# ----------------------------------------------------------------- CRT: results


def test_we06_14_5_example_column_9_morale_3_Qw_morale_2_Qm_morale_1_m():
    assert crt_result(9, 3) == "Qw"
    assert crt_result(9, 2) == "Qm"
    assert crt_result(9, 1) == "m"


def test_we06_14_6_group_losses_half_plus_half_round_to_one_step():
    total = steps_lost("Qw", 2) + steps_lost("Qm", 2) + steps_lost("m", 2)
    assert total == 1 and round_steps(total) == 1


def test_we07_14_5_example_column_9_supplied_no_result_unsupplied_Xm():
    assert attacker_result(9, supplied=True) == "-"
    assert attacker_result(9, supplied=False) == "Xm"
    assert decode_result("-").no_result


def test_we07_X_is_half_the_defenders_losses():
    assert steps_lost("Xm", 3, enemy_losses=4) == 2


def test_we08_14_6_one_step_Q_rounds_to_0_and_H_to_1():
    assert round_steps(steps_lost("Q", 1)) == 0
    assert round_steps(steps_lost("H", 1)) == 1


def test_14_6_rounding_half_up_quarter_down():
    assert [round_steps(Fraction(n, 4)) for n in range(0, 9)] == [0, 0, 1, 1, 1, 1, 2, 2, 2]


def test_we19_eop_overrun_1_columns_9_11_12_and_KDG_morale_2_Qw_no_loss():
    base = crt_column(6, 1, 1, overrun=True)
    dcol, acol = final_columns(base, 1, general=2)    # surprise is general (6.2)
    assert (base, dcol) == (9, 12)
    assert crt_result(dcol, 2) == "Qw"
    assert round_steps(steps_lost("Qw", 1)) == 0


def test_we20_eop_overrun_1_supplied_attacker_m_at_column_12():
    _, acol = final_columns(9, 1, general=2)
    assert acol == 12
    assert attacker_result(acol, supplied=True) == "m"


def test_we28_eop_overrun_2_columns_10_12_15_KDG_Hr_eliminated_attacker_m():
    dcol, acol = final_columns(crt_column(7, 1, 1, overrun=True), 3, general=2)
    assert dcol == acol == 15
    assert crt_result(15, 2) == "Hr"
    assert round_steps(steps_lost("Hr", 1)) == 1           # one-step KDG eliminated
    assert attacker_result(15, supplied=True) == "m"


def test_we31_eop_3_lt_arm_unsupplied_morale_2_plus_1_reads_line_3_E():
    morale = 2 + charts.morale_modifier("no_combat_supply")
    dcol, acol = final_columns(crt_column(15, 3, 1), 4, general=2)
    assert (dcol, morale) == (15, 3)
    assert crt_result(dcol, morale) == "E"
    assert decode_result(crt_result(dcol, morale)).eliminated
    assert attacker_result(acol, supplied=True) == "m"


def test_we33_eop_mobile_battle_columns_10_12_13_18_defender_E_no_attacker_result():
    dcol, acol = final_columns(crt_column(23, 3, 1, mobile=True), 5, general=2, attacker_support=1)
    assert (dcol, acol) == (18, 17)
    assert all(crt_result(18, m) == "E" for m in (1, 2, 3, 4))   # 2 SG's morale is not printed
    assert attacker_result(17, supplied=True) == "-"
    assert attacker_result(18, supplied=True) == "-"


def test_14_5_columns_never_leave_the_table():
    n = charts.crt().columns
    assert final_columns(18, 6, general=2, attacker_support=5) == (n, n)
    assert final_columns(1, 1, general=-3, defender_support=4) == (1, 1)
    assert crt_result(99, 2) == crt_result(n, 2) and crt_result(-5, 2) == crt_result(1, 2)


def test_14_5_morale_beyond_the_lines_reads_the_last_line():
    t = charts.crt()
    assert crt_result(9, 6) == crt_result(9, t.max_morale_line)
    assert crt_result(9, 0) == crt_result(9, 1)


def test_crt_defender_results_never_improve_with_column_or_worse_morale():
    order = {None: 0, "m": 1, "w": 2, "r": 3}
    loss = {None: 0, "Q": 1, "H": 2, "E": 3}
    t = charts.crt()

    def rank(code):
        r = decode_result(code)
        return (loss[r.loss], 4 if r.eliminated else order[r.retreat])

    for m, row in t.defender.items():
        ranks = [rank(c) for c in row]
        assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in zip(ranks, ranks[1:])), m
    for col in range(1, t.columns + 1):
        ranks = [rank(t.defender[m][col - 1]) for m in sorted(t.defender)]
        assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in zip(ranks, ranks[1:])), col


def test_12_6_unsupplied_attacker_never_better_off_than_supplied():
    sev = {None: 0, "Q": 1, "X": 1, "H": 2, "E": 3}
    ret = {None: 0, "m": 1, "w": 2, "r": 3}
    t = charts.crt()
    for s, u in zip(t.supplied, t.unsupplied):
        a, b = decode_result(s), decode_result(u)
        assert sev[a.loss] <= sev[b.loss] and ret[a.retreat] <= ret[b.retreat], (s, u)


def test_14_5_result_codes_Q_H_X_E_w_r_m_and_combinations_decode():
    assert decode_result("Qw") == charts.CombatResult("Qw", "Q", "w")
    assert decode_result("Hr") == charts.CombatResult("Hr", "H", "r")
    assert decode_result("Xm") == charts.CombatResult("Xm", "X", "m")
    assert decode_result("E").eliminated
    with pytest.raises(ValueError):
        decode_result("Z")
    assert set(charts.crt().codes) == set("QHXEmwr")


def test_we09_14_7_1_retreat_distances_w_1_3_r_4_6_obstructed_ignore_w_r_minus_3():
    assert charts.retreat_hexes("Qw") == (1, 3)
    assert charts.retreat_hexes("Hr") == (4, 6)
    assert charts.retreat_hexes("Qw", obstructed=True) == (0, 0)
    assert charts.retreat_hexes("Hr", obstructed=True) == (1, 3)


def test_every_crt_fact_is_recorded_and_checked_on_load():
    facts = charts.crt().facts
    assert len(facts) >= 19 and all(f.cite for f in facts)


# ----------------------------------------------------------------- validation errors


@pytest.fixture
def chart_dir(tmp_path, monkeypatch):
    real = charts.resource("charts")
    for p in real.glob("*.toml"):
        (tmp_path / p.name).write_text(p.read_text())
    monkeypatch.setattr(charts, "resource", lambda *parts: tmp_path.joinpath(*parts[1:]))
    for fn in (charts.crt, charts.combat_modifiers, charts.stacking_chart):
        fn.cache_clear()
    yield tmp_path
    for fn in (charts.crt, charts.combat_modifiers, charts.stacking_chart):
        fn.cache_clear()


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_validation_a_grid_contradicting_a_rules_fact_names_file_and_fact(chart_dir):
    _edit(chart_dir / "crt.toml", 'results = ["-", "-", "m", "m", "m", "m", "m", "Qm", "Qm"',
          'results = ["-", "-", "m", "m", "m", "m", "m", "Qm", "Qw"')
    with pytest.raises(ChartError, match=r"crt\.toml: facts\[\d+\] \(14\.5 example \(b\)"):
        charts.crt()


def test_validation_bad_code_names_file_line_and_column(chart_dir):
    _edit(chart_dir / "crt.toml", 'supplied   = ["Hw"', 'supplied   = ["Zz"')
    with pytest.raises(ChartError, match=r"crt\.toml: attacker\.supplied\[0\] \(column 1\)"):
        charts.crt()


def test_validation_wrong_type_names_the_field(chart_dir):
    _edit(chart_dir / "stacking.toml", "city = 9 ", 'city = "nine" ')
    with pytest.raises(ChartError, match=r"stacking\.toml: .*\$\.limits\.city"):
        charts.stacking_chart()


def test_validation_reconstructed_value_needs_a_reason(chart_dir):
    _edit(chart_dir / "combat_modifiers.toml",
          'reason = "21.1.1 gives random column shifts without values; rain and mud favour the defender"', "")
    with pytest.raises(ChartError, match=r"combat_modifiers\.toml: weather\.winter\.reason"):
        charts.combat_modifiers()


# ----------------------------------------------------------------- Combat Modifiers Chart


def test_6_2_surprise_is_two_columns_right_for_all_first_player_attacks():
    m = charts.modifier("surprise")
    assert (m.columns, m.kind, m.source) == (2, "general", "rules")


def test_14_9_2_mobile_battle_doubles_mech_both_sides_and_at():
    assert charts.modifier("mobile_battle_mech").factor == 2.0
    assert charts.modifier("mobile_battle_mech").side == "both"
    assert charts.modifier("mobile_battle_at").factor == 2.0


def test_13_4_4_overrun_halves_non_mobile_attackers_and_20_5_landing_mech():
    assert charts.modifier("overrun_non_mobile").factor == 0.5
    assert charts.modifier("amphibious_mech").factor == 0.5


def test_15_9_infantry_halved_in_desert_and_22_2_2_met_armour_doubled():
    assert charts.modifier("infantry_in_desert").factor == 0.5
    assert charts.modifier("met_armour").factor == 2.0


def test_alc25_us_inexperience_shifts_two_then_one_in_axis_favour():
    assert charts.modifier("us_inexperience_2").columns == -2
    assert charts.modifier("us_inexperience_1").columns == -1


def test_21_1_1_and_21_2_1_winter_and_ghibli_random_shifts_are_one_per_die_result():
    for kind in ("winter", "ghibli"):
        shifts = [charts.weather_shift(kind, d) for d in range(1, 7)]
        assert len(shifts) == 6 and min(shifts) < 0
    with pytest.raises(ValueError):
        charts.weather_shift("winter", 7)


def test_8_2_12_5_12_6_morale_modifiers_are_plus_one_each_and_cumulative():
    assert charts.morale_modifier("disrupted", "out_of_general_supply", "no_combat_supply") == 3


def test_14_4_15_1_15_4_15_7_line_shifts():
    assert charts.modifier("engineer").lines == -1
    assert charts.modifier("special_forces").lines == -1
    assert charts.modifier("fort").lines == "level"


# ----------------------------------------------------------------- Stacking Summary


def test_10_2_stacking_limits_city_9_other_6():
    assert charts.stacking_limit(city=True) == 9
    assert charts.stacking_limit(city=False) == 6


def test_15_10_division_3_sp_one_box_and_two_atp_per_step_two_msu():
    d = charts.stacking("division")
    assert (d.stacking_points, d.shipping_boxes_per_step, d.atp_per_step, d.msu) == (3, 1.0, 2.0, 2)
    assert charts.shipping_boxes("division", 2) == 2


def test_we13_20_1_shipping_box_holds_two_steps_two_rp_or_one_msu_or_dump():
    cap = charts.stacking_chart().capacity
    assert (cap.shipping_box_steps, cap.shipping_box_rp, cap.shipping_box_supply) == (2, 2, 1)
    # a two-step unit in and another out of Tobruk: two boxes
    assert charts.shipping_boxes("brigade", 2) + charts.shipping_boxes("brigade", 2) == 2


def test_13_7_atp_and_msu_capacities():
    cap = charts.stacking_chart().capacity
    assert (cap.atp_landing_steps, cap.atp_landing_rp, cap.atp_landing_dumps, cap.atp_drop_units) == (2, 2, 1, 1)
    assert (cap.msu_foot_units, cap.msu_rp, cap.msu_dumps) == (1, 2, 1)
    assert (cap.rail_combat_units, cap.rail_rp, cap.rail_msu, cap.rail_dumps) == (1, 2, 1, 1)


def test_12_2_17_1_supply_units_and_rp_do_not_count_for_stacking():
    for cat in ("msu", "dump", "base", "rp", "marker"):
        assert charts.stacking(cat).stacking_points == 0


def test_15_4_special_forces_use_no_sealift_and_9_0_horsed_cannot_be_trucked():
    assert charts.stacking("special_forces").shipping_boxes_per_step == 0
    assert charts.stacking("horsed").msu == -1 and charts.stacking("horsed").atp_per_step == -1


# ----------------------------------------------------------------- Initiative Table (C3)


def test_we16_6_1_initiative_10_plus_2_is_change_surprise():
    from core.rules.initiative import read_table
    r = read_table(10 + 2, 10)
    assert (r.change, r.surprise) == (True, True) and r.text().startswith("Change, Surprise")


def test_6_2_surprise_at_either_end_of_the_initiative_table():
    from core.rules.initiative import read_table
    assert read_table(2, 10).surprise and read_table(1, 10).surprise and read_table(14, 10).surprise


# ----------------------------------------------------------------- Air and Naval Loss Table (C4)


def test_19_3_loss_bands_8_or_less_9_10_next_gt_11_plus_two_gts():
    assert [charts.loss_table(n) for n in (2, 8, 9, 10, 11, 12)] == [0, 0, 1, 1, 2, 2]


def test_19_3_loss_drms_enemy_air_superiority_and_city_or_port_are_cumulative():
    assert charts.loss_table(8, enemy_air_superiority=True) == 1
    assert charts.loss_table(9, enemy_air_superiority=True, city_or_port=True) == 2


def test_we12_19_3_example_gt10_two_gts_is_gt12_box():
    assert charts.loss_return_gt(10, 11) == 12
    assert charts.loss_return_gt(10, 7) is None


def test_we34_eop_air_damage_3_plus_6_is_9_next_gt_box_gt11():
    assert charts.loss_return_gt(10, 3 + 6) == 11


# ----------------------------------------------------------------- Bombardment, supply (C6, C13)


def test_19_8_bombardment_disrupts_on_4_to_6_without_modifiers():
    assert charts.bombardment_hits([1, 2, 3, 4, 5, 6]) == 3
    assert charts.bombardment_chart().modifiers is False


def test_8_2_1_disrupted_facilities():
    assert charts.bombardment_effect("base")["los_mmp"] == 7
    assert (charts.bombardment_effect("msu")["ma"], charts.bombardment_effect("msu")["los_mmp"]) == (7, 3)
    assert charts.bombardment_effect("dump")["los_mmp"] == 3
    assert charts.bombardment_effect("airfield")["inoperable"] is True


def test_12_4_1_los_base_14_dump_7_msu_7():
    assert (charts.los_range("base"), charts.los_range("dump"), charts.los_range("msu")) == (14, 7, 7)
    assert charts.los_range("base", disrupted=True) == 7


# ----------------------------------------------------------------- Fort Effects (C8)


def test_14_4_18_1_fort_levels_raise_the_line_one_per_level():
    assert [charts.fort_effects(n).crt_lines_up for n in range(4)] == [0, 1, 2, 3]
    assert all(charts.fort_effects(n).no_overrun and charts.fort_effects(n).ignore_withdraw for n in range(4))
    assert not charts.fort_effects(0).needs_dump and charts.fort_effects(1).needs_dump
    assert charts.fort_chart().construction["max_line"] == 5


# ----------------------------------------------------------------- Airborne drop, interdiction, Vichy (C7, C9, C10)


def test_15_5_airborne_drop_only_clear_desert_rough_failure_disrupts():
    d = charts.drop_chart()
    assert d.terrain_allowed == ["clear", "desert", "rough"] and d.failure == "disrupted"
    assert charts.airborne_drop_drm("rough", "in_ezoc") >= 2


def test_19_6_interdiction_reaches_two_hexes_only():
    assert charts.interdiction_cost(0, "mechanised") > 0
    assert charts.interdiction_cost(3, "mechanised") == 0


def test_alc21_vichy_reaction_d6_by_attacker_column_and_alc27_plus_1():
    v = charts.vichy_chart()
    assert all(len(v.results[c]) == 7 for c in v.columns)
    assert charts.vichy_reaction(6, "US", accord_drm=True) == v.results["US"][6]
    assert charts.vichy_reaction(6, "US") == v.results["US"][5]


# ----------------------------------------------------------------- Refit and Upgrade (C11)


def test_17_2_1_rp_refit_only_their_own_nationality():
    assert charts.rp_pool_for("GE") == "GE-RP" and charts.rp_pool_for("IT") == "IT-RP"
    assert charts.rp_pool_for("AU") == charts.rp_pool_for("UK") == "UK-RP"
    assert charts.refit_chart().limits.one_unit_per_cw_nation_per_phase


def test_17_2_on_map_refit_is_one_rp_and_15_8_garrison_one_rp():
    assert charts.refit_cost("non_divisional", stage="on_map") == 1        # EoP: 2 SG refit with the RP
    assert charts.refit_cost("garrison", stage="on_map") == 1
    assert charts.refit_cost("division", stage="from_refit_box", steps=2) == 4


def test_27_1_upgrade_chart_has_the_upgrade_box_counters_and_15_7_f_g():
    to = {u for row in charts.upgrades() for u in row.to}
    assert {"IT-102Trento", "IT-Ragg102", "IT-61", "IT-62", "UK-F", "UK-G"} <= to


def test_upgrade_and_card_counters_exist():
    from core.counters import all_counters, resolve
    ids = {u for row in charts.upgrades() for u in row.from_ + row.to}
    assert sorted(u for u in ids if (resolve(u) or u) not in all_counters()) == []


def test_every_chart_loads_and_validates():
    assert len(charts.all_charts()) == 12
