"""Audit of 14.0-15.10 (docs/rulings.d/combat.md "Coverage"): the paragraphs no other test proved."""

from __future__ import annotations

from fractions import Fraction

import pytest

from core import charts
from core.decisions import ALLIED, AXIS, IllegalAction
from core.dice import ScriptedDice, SeededDice
from core.engine import PROCEDURES, Engine
from core.rules import combat, combat_forms, special_units as su, tec
from tests.rules_combat_kit import act, desert_map, make_state, start


@pytest.fixture(autouse=True)
def desert():
    tec.use_map(desert_map())
    yield
    tec.use_map(None)


RC = PROCEDURES["resolve_combat"]


def test_14_3_fractions_kept_until_totalled_and_defence_at_least_one():
    # 1 Cdo (light infantry, CF 1) alone in the desert is halved (15.9): 1/2, defending as 1 (14.3)
    st = make_state([("UK-1Cdo", ALLIED, "C0803", 1), ("UK-6Cdo", ALLIED, "C0802", 1), ("IT-8Ber", AXIS, "C0804", 1)])
    v = combat.combat_view(st, AXIS, ["IT-8Ber"], ["C0803"], "regular")
    s = su.strengths(st, v)
    assert s["defence_raw"] == "1/2" and s["defence"] == 1
    # two halves are totalled before rounding: 1/2 + 1/2 = 1 (not 1 + 1 rounded separately)
    v = combat.combat_view(st, ALLIED, ["UK-1Cdo", "UK-6Cdo"], ["C0804"], "regular")
    assert sum(x.value for x in (su.unit_strength(st, v, u) for u in ("UK-1Cdo", "UK-6Cdo"))) == 1
    assert su.round_half_up(Fraction(3, 2)) == 2 and su.round_half_up(Fraction(5, 4)) == 1


def test_14_4_defender_chooses_among_the_terrain_of_every_defending_hex_hexsides_only_across():
    tec.use_map(desert_map(C0803="rough", C0804="clear"))
    st = make_state([("UK-2Arm", ALLIED, "C0803", 2), ("UK-KDG", ALLIED, "C0804", 1), ("GE-5Pz", AXIS, "C0703", 2)])
    lines = [ln for ln, _ in combat.line_options(st, ["C0803", "C0804"])]
    assert len(lines) == 2
    eng, fr = start(st, ScriptedDice([1] * 20), attackers=["GE-5Pz"], hexes=["C0803", "C0804"])
    act(eng, "combat_supply", AXIS, dump=None)
    act(eng, "combat_supply", ALLIED, hex="C0803", dump=None)
    act(eng, "combat_supply", ALLIED, hex="C0804", dump=None)
    while eng.pending().kind == "combat_anti_tank":
        eng.apply(eng.pending().options[0].action)
    d = eng.pending()
    assert d.kind == "combat_line" and d.side == ALLIED and sorted(o.action.args["line"] for o in d.options) == sorted(lines)
    # a ridge hexside halves only the attacker across it (14.4)
    gm = desert_map()
    gm.set_side("C0802", "C0803", "ridge")
    tec.use_map(gm)
    st = make_state([("UK-2Arm", ALLIED, "C0803", 2), ("GE-5Pz", AXIS, "C0802", 2), ("IT-132Ariete", AXIS, "C0703", 2)])
    v = combat.combat_view(st, AXIS, ["GE-5Pz", "IT-132Ariete"], ["C0803"], "regular")
    assert su.unit_strength(st, v, "GE-5Pz").value == Fraction(su.info(st, "GE-5Pz").cf, 2)
    assert su.unit_strength(st, v, "IT-132Ariete").value == su.info(st, "IT-132Ariete").cf


def test_14_5_odds_clamped_to_the_line_and_columns_never_off_the_table():
    top = charts.crt().columns
    hi, lo = charts.crt_odds(100, 1, 1), charts.crt_odds(1, 100, 1)
    assert hi.column == max(r.column for r in charts.crt().lines[1] if "(" not in r.text)
    assert lo.column == min(r.column for r in charts.crt().lines[1])
    assert charts.final_columns(top, 6, general=3, attacker_support=5) == (top, top)
    assert charts.final_columns(1, 1, general=-9, defender_support=4) == (1, 1)
    # overrun / mobile battle odds may be parenthesised (higher) (14.5(1))
    assert charts.crt_odds(100, 1, 1, overrun=True).column >= hi.column


def test_14_7_1_obstructed_hexes_ignore_w_and_take_3_from_r_and_retreats_may_stop_in_them():
    assert combat.retreat_bounds("w", False) == (1, 3) and combat.retreat_bounds("r", False) == (4, 6)
    assert combat.retreat_bounds("w", True) == (0, 0) and combat.retreat_bounds("r", True) == (1, 3)
    tec.use_map(desert_map(C0805="city"))
    st = make_state([("UK-2Arm", ALLIED, "C0804", 2)])
    assert combat.stop_allowed(st, "UK-2Arm", ["C0804", "C0805"], 4)       # the first city entered
    assert not combat.stop_allowed(st, "UK-2Arm", ["C0804", "C0704"], 4)


def test_14_7_1_unable_to_retreat_the_distance_through_ezoc_loses_a_step():
    """Hr on 1 Greek: it may enter the EZOC hex C1111 but its retreat ends there (11.4, 14.7.2), short of 4:
    it stops and loses a step (14.7.1) - here its last one (the H took the first)."""
    an = ["C1011", "C0910", "C1109", "C1009"]
    st = make_state([("GR-1Greek", ALLIED, "C1010", 2), ("GE-5Pz", AXIS, an[0], 2, {"flags": {"battle": "mobile"}}),
                     ("UK-KDG", ALLIED, "C1009", 1)], surprise=False, first=AXIS, phase=8)
    eng, fr = start(st, SeededDice(), attackers=["GE-5Pz"], hex="C1010")
    eng.state.seed = 365
    act(eng, "combat_supply", AXIS, dump=None)
    act(eng, "combat_supply", ALLIED, dump=None)
    assert fr.data["def_results"]["GR-1Greek"] == "Hr"
    while eng.pending().kind == "combat_loss":
        eng.apply(eng.pending().options[0].action)
    if combat.gone(eng.state, "GR-1Greek"):
        pytest.skip("the H loss already eliminated the unit")          # pragma: no cover
    act(eng, "retreat", ALLIED, unit="GR-1Greek", to="C1111")
    d = eng.pending()
    assert [o.action.args.get("stop") for o in d.options] == [True] and "lose a step" in d.options[0].label
    eng.apply(d.options[0].action)
    assert combat.gone(eng.state, "GR-1Greek")


def test_14_7_2_overstacking_after_retreat_disrupts_every_unit_in_the_hex():
    st = make_state([(u, ALLIED, "C0805", 2) for u in ("UK-2Arm", "UK-7Arm", "UK-4Ind", "UK-7Motor", "UK-22Gds")])
    eng = Engine(st)
    if combat.stacking_points(st, "C0805") <= combat.stack_limit("C0805"):
        pytest.skip("the counter data stacks these units legally")      # pragma: no cover
    RC._overstack(eng, {"retreat_hexes": [{"unit": "UK-2Arm", "path": ["C0804", "C0805"]}]})
    assert all(u.disrupted for u in eng.state.units.values())


def test_14_2_a_stacked_non_participant_retreats_when_every_participant_of_its_hex_retreats():
    st = make_state([("GE-5Pz", AXIS, "C0802", 2), ("GE-3Aufkl", AXIS, "C0802", 1), ("UK-2Arm", ALLIED, "C0803", 2)])
    eng = Engine(st)
    d = {"side": AXIS, "attackers": ["GE-5Pz"], "defenders": ["UK-2Arm"], "att_results": {"GE-5Pz": "r"}, "m_done": {},
         "origin": {"GE-5Pz": "C0802"}, "hexes": ["C0803"]}
    RC._setup_retreats(eng, d, defender=False)
    assert [(e["unit"], e["min"]) for e in d["rq"]] == [("GE-5Pz", 4), ("GE-3Aufkl", 1)]
    assert eng.state.units["GE-5Pz"].disrupted and not eng.state.units["GE-3Aufkl"].disrupted   # r: disrupted (14.7.1)


def _advance(st, attackers, retreated=()):
    eng = Engine(st)
    d = {"side": AXIS, "form": "regular", "hexes": ["C0803"], "attackers": attackers, "defenders": [],
         "origin": {u: st.units[u].loc for u in attackers}, "advanced": [], "destroyed_steps": 0,
         "retreat_hexes": [{"unit": u, "path": [st.units[u].loc, "C0701"]} for u in retreated]}
    got = RC._advance_decision(eng, d)
    return [] if not hasattr(got, "options") else sorted({o.action.args.get("unit") for o in got.options} - {None})


def test_14_8_only_undisrupted_attackers_that_did_not_retreat_zero_cf_only_accompanied():
    st = make_state([("GE-5Pz", AXIS, "C0802", 2), ("GE-3Aufkl", AXIS, "C0802", 1, {"disrupted": True}),
                     ("UK-51Spt", AXIS, "C0702", 1)])
    assert _advance(st, ["GE-5Pz", "GE-3Aufkl"]) == ["GE-5Pz"]
    assert _advance(st, ["GE-5Pz"], retreated=["GE-5Pz"]) == []
    # a parenthesised unit (51 Spt) may not advance alone (14.8); with an advancing real unit it may
    assert "UK-51Spt" not in _advance(st, ["UK-51Spt"])


def test_14_8_battlefield_supply_roll_at_or_under_the_destroyed_steps_places_a_captured_dump():
    for die, found in ((3, True), (4, False)):
        st = make_state([("GE-5Pz", AXIS, "C0803", 2)])
        eng = Engine(st, ScriptedDice([die]))
        RC._battlefield(eng, {"battlefield": "C0803", "destroyed_steps": 3, "side": AXIS}, True)
        dumps = [u for u in eng.state.units_at("C0803") if combat.supply_type(eng.state, u.id) == "dump"]
        assert bool(dumps) == found and all(u.captured for u in dumps)


def test_14_9_1_deliberate_battle_needs_general_supply():
    st = make_state([("IT-8Ber", AXIS, "C0802", 1, {"flags": {"battle": "deliberate"}, "ogs": True}),
                     ("UK-2Arm", ALLIED, "C0803", 2)])
    with pytest.raises(IllegalAction) as e:
        combat_forms.check_form(st, AXIS, ["IT-8Ber"], ["C0803"], "deliberate")
    assert e.value.rule == "14.9.1"
    with pytest.raises(IllegalAction):
        combat_forms.check_form(st, AXIS, ["IT-8Ber"], ["C0803", "C0804"], "deliberate")   # one hex only


def test_14_9_2_mechanised_doubled_on_both_sides_only_mobile_units_attack():
    st = make_state([("UK-2Arm", ALLIED, "C0803", 2), ("GE-5Pz", AXIS, "C0802", 2, {"flags": {"battle": "mobile"}}),
                     ("IT-8Ber", AXIS, "C0802", 1, {"flags": {"battle": "mobile"}})])
    v = combat.combat_view(st, AXIS, ["GE-5Pz"], ["C0803"], "mobile")
    assert su.unit_strength(st, v, "UK-2Arm").value == 2 * su.info(st, "UK-2Arm").cf       # the defender too
    assert su.unit_strength(st, v, "GE-5Pz").value == 2 * su.info(st, "GE-5Pz").cf
    with pytest.raises(IllegalAction) as e:
        combat_forms.check_form(st, AXIS, ["GE-5Pz", "IT-8Ber"], ["C0803"], "mobile")
    assert e.value.rule == "14.9.2"


def test_15_1_heavy_artillery_lowers_the_line_against_cities_one_unit_only():
    tec.use_map(desert_map(C0803="city"))
    st = make_state([("UK-2Arm", ALLIED, "C0803", 2), ("GE-220Art", AXIS, "C0802", 1), ("IT-8Ber", AXIS, "C0802", 1)])
    v = combat.combat_view(st, AXIS, ["GE-220Art", "IT-8Ber"], ["C0803"], "regular")
    assert su.line_reductions(st, v)[0] == su.info(st, "GE-220Art").art
    tec.use_map(desert_map())
    v = combat.combat_view(st, AXIS, ["GE-220Art", "IT-8Ber"], ["C0803"], "regular")
    assert su.line_reductions(st, v)[0] == 0                   # not a fort or city
    st.units["GE-220Art"].disrupted = True
    assert su.artillery_shifts(st, v, True)[0] == 0            # undisrupted artillery only (15.1)


def test_15_2_an_at_reduction_never_takes_a_unit_below_one():
    st = make_state([("UK-2Arm", ALLIED, "C0803", 2), ("GE-5Pz", AXIS, "C0802", 2)])
    v = combat.combat_view(st, AXIS, ["GE-5Pz"], ["C0803"], "regular")
    assert su.unit_strength(st, v, "GE-5Pz", at_against=99).value == 1


def test_15_4_special_forces_lower_the_line_against_a_city():
    tec.use_map(desert_map(C0803="city"))
    st = make_state([("UK-2Arm", AXIS, "C0803", 2), ("UK-1Cdo", ALLIED, "C0802", 1)])
    v = combat.combat_view(st, ALLIED, ["UK-1Cdo"], ["C0803"], "regular")
    n, why = su.line_reductions(st, v)
    assert n == 1 and "15.4" in why[0]


def test_15_8_garrisons_always_supplied_ignore_retreats_and_may_not_attack():
    st = make_state([("UK-Tobruk", ALLIED, "C0803", 1), ("GE-5Pz", AXIS, "C0802", 2)])
    assert "15.8" in (combat.may_attack(st, "UK-Tobruk") or "")
    eng, fr = start(st, ScriptedDice([6] * 20), attackers=["GE-5Pz"], hex="C0803")
    act(eng, "combat_supply", AXIS, dump=None)
    assert fr.data["def_supplied"] == {"UK-Tobruk": True}      # no supply decision asked for the garrison
    assert eng.pending() is None or eng.pending().kind != "combat_supply" or eng.pending().side != ALLIED
    while (d := eng.pending()) is not None:
        assert d.kind != "combat_retreat" or d.context["unit"] != "UK-Tobruk"
        eng.apply(next((o for o in d.options if o.action.kind in ("advance_done", "support_done")), d.options[0]).action)


def test_15_9_light_infantry_morale_and_escarpment():
    st = make_state([("UK-1Para", ALLIED, "C0803", 1)])
    i = su.info(st, "UK-1Para")
    assert su.effective_morale(st, "UK-1Para", desert=True) == i.morale + 1      # unsupported in the desert
    assert su.effective_morale(st, "UK-1Para", desert=False) == i.morale
    gm = desert_map(C0803="clear", C0802="clear")
    gm.set_side("C0802", "C0803", "escarpment")
    tec.use_map(gm)
    st = make_state([("GE-5Pz", ALLIED, "C0803", 2), ("UK-1Para", AXIS, "C0802", 1), ("IT-8Ber", AXIS, "C0802", 1)])
    v = combat.combat_view(st, AXIS, ["UK-1Para", "IT-8Ber"], ["C0803"], "regular")
    assert su.unit_strength(st, v, "UK-1Para").value == su.info(st, "UK-1Para").cf    # light: escarpment ignored
    assert su.unit_strength(st, v, "IT-8Ber").value < su.info(st, "IT-8Ber").cf
