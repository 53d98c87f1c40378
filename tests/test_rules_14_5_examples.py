"""14.5 / 14.6 worked examples and the Example of Play's combats, reproduced with scripted dice.

Hex terrain is desert (the EoP's "All Other" line) unless a test says otherwise.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from core import charts
from core.decisions import ALLIED, AXIS
from core.dice import ScriptedDice
from core.rules import combat, tec
from core.rules.special_units import info, round_half_up
from tests.rules_combat_kit import act, desert_map, make_state, start


@pytest.fixture(autouse=True)
def desert():
    tec.use_map(desert_map())
    yield
    tec.use_map(None)


# --------------------------------------------------------------------------- 14.5 defender example (WE-06)


def test_14_5_defender_example_groups_qw_qm_m_one_step_attacker_picks_2_arm():
    """1 Greek (3), 2 Arm (2), 7 Motor (1) on column 9: Qw, Qm, m; 1/2 + 1/2 = 1 step; 2 Arm fails."""
    tec.use_map(desert_map(C1010="clear"))
    st = make_state([
        ("GR-1Greek", ALLIED, "C1010", 2),
        ("UK-2Arm", ALLIED, "C1010", 2),
        # 14.5: "7 Motor (morale 1)" - the counter data now prints 1 (ruling R-C-7MOTOR)
        ("UK-7Motor", ALLIED, "C1010", 2),
        ("AL-Dump#1", ALLIED, "C1010"),
        ("IT-16Pistoia", AXIS, "C1011", 2, {"flags": {"values": {"cf": 45}}}),
        ("AX-Dump#1", AXIS, "C1011"),
    ])
    # 45 : 15 = 3:1 -> column 7; die 2 -> column 9.  2 Arm rolls 6 (fails), 7 Motor rolls 1 (passes).
    eng, fr = start(st, ScriptedDice([2, 6, 1]), attackers=["IT-16Pistoia"], hex="C1010")
    act(eng, "combat_supply", AXIS, dump="AX-Dump#1")
    act(eng, "combat_supply", ALLIED, dump="AL-Dump#1")
    assert fr.data["columns"]["defender"] == 9 and fr.data["columns"]["base"] == 7
    res = fr.data["def_results"]
    assert res == {"GR-1Greek": "Qw", "UK-2Arm": "Qm", "UK-7Motor": "m"}
    # groups by printed morale, highest first (14.5)
    assert [m for m, _ in fr.data["groups"]] == [3, 2, 1]
    act(eng, "morale_choice", ALLIED, unit="UK-2Arm", choice="check")
    act(eng, "morale_choice", ALLIED, unit="UK-7Motor", choice="check")
    assert eng.state.units["UK-2Arm"].disrupted and not eng.state.units["UK-7Motor"].disrupted
    d = eng.pending()
    assert d.kind == "combat_loss" and d.side == AXIS  # the opposing player picks the first step (14.6)
    assert {o.action.args["unit"] for o in d.options} == {"GR-1Greek", "UK-2Arm"}
    act(eng, "lose_step", AXIS, unit="UK-2Arm")
    assert eng.state.units["UK-2Arm"].steps == 1 and eng.state.units["GR-1Greek"].steps == 2
    assert fr.data["lost"]["def"] == 1
    # e) all three withdraw to the same hex
    d = eng.pending()
    assert d.kind == "combat_retreat" and d.side == ALLIED
    act(eng, "retreat", ALLIED, unit="GR-1Greek", to="C1009")
    act(eng, "retreat", ALLIED, unit="GR-1Greek", stop=True)
    act(eng, "retreat", ALLIED, unit="UK-2Arm", follow="GR-1Greek")
    act(eng, "retreat", ALLIED, unit="UK-7Motor", follow="GR-1Greek")
    assert {eng.state.units[u].loc for u in ("GR-1Greek", "UK-2Arm", "UK-7Motor")} == {"C1009"}
    # attacker: supplied line at column 9 = no result; the hex is vacated: advance
    assert fr.data["att_results"] == {"IT-16Pistoia": "-"}
    act(eng, "advance", AXIS, unit="IT-16Pistoia", hex="C1010")
    assert eng.pending() is None          # no other unit may advance: the combat is over
    assert fr.data["outcome"]["defender_cleared"] and fr.data["outcome"]["defender_losses"] == 1


# --------------------------------------------------------------------------- 14.5 attacker example (WE-07)


def test_14_5_attacker_example_split_supply_xm_trento_divisional_step():
    st = make_state([
        ("IT-136GGFF", AXIS, "C1011", 2), ("IT-102Trento", AXIS, "C1011", 2), ("IT-16Pistoia", AXIS, "C1110", 2),
    ])
    assert charts.attacker_result(9, True) == "-"        # a) Pistoia: no result
    assert charts.attacker_result(9, False) == "Xm"      # b) GGFF and Trento
    need = round_half_up(Fraction(4, 2))                 # X: half of the defender's 4 steps
    assert need == 2
    pool = ["IT-102Trento", "IT-136GGFF"]
    # the opposing player may pick either (two steps required)
    assert combat.legal_loss_picks(st, pool, [], need, first=True) == pool
    # he takes one step from GGFF; c) the owner must then reduce Trento (no second step before all have one)
    assert combat.legal_loss_picks(st, pool, ["IT-136GGFF"], need - 1, first=False) == ["IT-102Trento"]
    assert info(st, "IT-102Trento").step_weight == 2     # a divisional step counts two: 1 + 2 = 3 >= 2
    # had he picked Trento first, its two counted steps would meet the result alone
    assert info(st, "IT-102Trento").counted_steps - info(st, "IT-102Trento").step_weight + 2 >= need


def test_14_6_opponent_may_not_pick_a_division_for_a_single_step_15_10():
    st = make_state([("IT-136GGFF", AXIS, "C1011", 2), ("IT-102Trento", AXIS, "C1011", 2)])
    pool = ["IT-102Trento", "IT-136GGFF"]
    assert combat.legal_loss_picks(st, pool, [], 1, first=True) == ["IT-136GGFF"]
    assert combat.legal_loss_picks(st, pool, [], 1, first=False) == pool   # the owner is free
    only_div = ["IT-102Trento"]
    assert combat.legal_loss_picks(st, only_div, [], 1, first=True) == only_div  # one step must still be lost


def test_14_6_q_and_h_rounding():
    """14.6 example: one step with Q: 1/4 -> 0; with H: 1/2 -> 1 (eliminated)."""
    assert round_half_up(combat.loss_fraction("Qw", 1)) == 0
    assert round_half_up(combat.loss_fraction("Hr", 1)) == 1
    assert round_half_up(combat.loss_fraction("Qw", 2) + combat.loss_fraction("Qm", 2)) == 1   # WE-06 d)
    assert combat.loss_fraction("Qw", 4) == Fraction(1)   # divisional steps already doubled by the caller


def test_14_5_odds_to_column_rough_4_1_we_05():
    assert charts.crt_column(4, 1, 2) == 6
    assert charts.final_columns(6, 4) == (10, 10)


# --------------------------------------------------------------------------- Example of Play


def test_eop_overrun_1_kdg_qw_retreats_three_hexes_to_c0603():
    """WE-19/20: Kasta + 3 Aufkl 6 vs KDG 1 = 6:1 -> 9, surprise 11, die 1 -> 12: Qw (0 steps); m for the attackers."""
    st = make_state([
        ("UK-KDG", ALLIED, "C0701", 1),
        # they come along the coast road from the west (S0733), so C0601-C0603 are outside their ZOC
        ("GE-Kasta", AXIS, "S0733", 1), ("GE-3Aufkl", AXIS, "S0733", 1),
    ], surprise=True, first=AXIS, phase=6)
    eng, fr = start(st, ScriptedDice([1, 2, 4]), attackers=["GE-Kasta", "GE-3Aufkl"], hex="C0701", form="overrun")
    c = fr.data["columns"]
    assert (c["base"], c["die"], c["defender"], c["attacker"]) == (9, 1, 12, 12)
    assert fr.data["strengths"] == {"attack": 6, "defence": 1}
    assert fr.data["def_results"] == {"UK-KDG": "Qw"}
    assert fr.data["lost"]["def"] == 0            # 1/4 rounds to 0 (14.6)
    d = eng.pending()
    assert d.kind == "combat_retreat" and d.side == ALLIED
    assert any(o.action.args.get("hold") for o in d.options)   # disrupt and hold, or retreat 1-3
    path = _path(eng, "UK-KDG", "C0603", 3)
    for h in path[1:]:
        act(eng, "retreat", ALLIED, unit="UK-KDG", to=h)
    if eng.pending().kind == "combat_retreat" and eng.pending().context.get("unit") == "UK-KDG":
        act(eng, "retreat", ALLIED, unit="UK-KDG", stop=True)
    assert eng.state.units["UK-KDG"].loc == "C0603" and not eng.state.units["UK-KDG"].disrupted
    assert fr.data["att_results"] == {"GE-3Aufkl": "m", "GE-Kasta": "m"}
    act(eng, "morale_choice", AXIS, unit="GE-3Aufkl", choice="check")   # 4 + 1 = 5 passes
    act(eng, "morale_choice", AXIS, unit="GE-Kasta", choice="check")    # 2 + 1 = 3 passes
    while eng.pending() is not None:
        act(eng, "retreat", AXIS, stop=True)
    assert not eng.state.units["GE-Kasta"].disrupted and not eng.state.units["GE-3Aufkl"].disrupted
    assert fr.data["outcome"]["defender_cleared"] and fr.data["outcome"]["cleared"]


def _path(eng, uid, goal, n):
    """A legal retreat path of exactly n hexes ending in goal (searching the legal steps)."""
    start_hex = eng.state.units[uid].loc

    def dfs(p):
        if len(p) - 1 == n:
            return p if p[-1] == goal else None
        for h in combat.legal_retreat_steps(eng.state, uid, p, n):
            r = dfs(p + [h])
            if r:
                return r
        return None

    p = dfs([start_hex])
    assert p, f"no legal {n}-hex retreat from {start_hex} to {goal}"
    return p


def test_eop_overrun_2_kdg_hr_to_refit_box():
    """WE-28: Ariete 6 + Nizza 2 halved (not mobile) = 7 vs 1 -> column 10 -> 12 -> 15: Hr, KDG eliminated
    (one step, 1/2 rounds up) and placed in the Refit Box (it has a LOC; ruling R-C-OVERRUN-BOX)."""
    st = make_state([
        ("UK-KDG", ALLIED, "C0603", 1, {"flags": {"loc": True}}),
        ("IT-132Ariete", AXIS, "C0701", 2), ("IT-Nizza", AXIS, "C0701", 1),
    ], surprise=True, first=AXIS, phase=12)
    eng, fr = start(st, ScriptedDice([3, 3, 3]), attackers=["IT-132Ariete", "IT-Nizza"], hex="C0603", form="overrun")
    assert fr.data["strengths"] == {"attack": 7, "defence": 1}
    c = fr.data["columns"]
    assert (c["base"], c["defender"], c["attacker"]) == (10, 15, 15)
    assert fr.data["def_results"] == {"UK-KDG": "Hr"}
    act(eng, "lose_step", AXIS, unit="UK-KDG")
    assert eng.state.units["UK-KDG"].loc == "box:Refit:Allied"
    act(eng, "morale_choice", AXIS, unit="IT-132Ariete", choice="check")   # 3 + 2 = 5 passes
    act(eng, "morale_choice", AXIS, unit="IT-Nizza", choice="check")       # 3 + 3 = 6 passes
    while eng.pending() is not None:
        act(eng, "retreat", AXIS, stop=True)
    assert not any(eng.state.units[u].disrupted for u in ("IT-132Ariete", "IT-Nizza"))
    assert fr.data["outcome"]["defender_cleared"] and fr.data["outcome"]["defender_losses"] == 1


def test_eop_italian_attack_15_to_3_unsupplied_3_lt_arm_e_destroyed_box():
    """WE-31: 15 : 3 = 5:1 -> 9, surprise 11, die 4 -> 15; 3 Lt Arm printed morale 2 +1 unsupplied = line 3: E."""
    st = make_state([
        ("UK-3LtArm", ALLIED, "C0804", 1, {"flags": {"loc": False}}),
        ("UK-2SG", ALLIED, "C0803", 2), ("AL-Dump#1", ALLIED, "C0803"),
        ("IT-132Ariete", AXIS, "C0705", 2), ("IT-Nizza", AXIS, "C0705", 1),
        # the EoP gives no artillery shift; resources/counters gives 132 Cel artillery 1 (reported)
        ("IT-132Cel", AXIS, "C0705", 1), ("IT-8Ber", AXIS, "C0705", 1),
        ("AX-Dump#1", AXIS, "C0706"),
    ], surprise=True, first=AXIS, phase=14)
    atts = ["IT-132Ariete", "IT-Nizza", "IT-132Cel", "IT-8Ber"]
    # die 4; morale checks in id order: Ariete 6 fails, Cel 6 fails, 8 Ber 1 passes, Nizza 1 passes
    eng, fr = start(st, ScriptedDice([4, 6, 6, 1, 1]), attackers=atts, hex="C0804")
    act(eng, "combat_supply", AXIS, dump="AX-Dump#1")       # 1) the Axis expends the dump
    act(eng, "combat_supply", ALLIED, dump=None)            # 2) the Allies save theirs
    assert "AX-Dump#1" not in eng.state.units and "AL-Dump#1" in eng.state.units
    assert fr.data["strengths"] == {"attack": 15, "defence": 3}
    c = fr.data["columns"]
    assert (c["base"], c["defender"], c["attacker"]) == (9, 15, 15)
    assert fr.data["def_results"] == {"UK-3LtArm": "E"}
    assert eng.state.units["UK-3LtArm"].loc == "box:Destroyed:Allied"
    assert set(fr.data["att_results"].values()) == {"m"}
    for u in sorted(atts):
        act(eng, "morale_choice", AXIS, unit=u, choice="check")
    assert [u for u in atts if eng.state.units[u].disrupted] == ["IT-132Ariete", "IT-132Cel"]
    while eng.pending().kind == "combat_retreat":
        act(eng, "retreat", AXIS, stop=True)
    # 14.8: only non-disrupted attackers advance (ruling R-C-ADVANCE-DISRUPTED; the EoP lets all four)
    d = eng.pending()
    assert {o.action.args.get("unit") for o in d.options if o.action.kind == "advance"} == {"IT-Nizza", "IT-8Ber"}
    act(eng, "advance", AXIS, unit="IT-Nizza")
    act(eng, "advance", AXIS, unit="IT-8Ber")
    assert eng.pending().kind == "combat_battlefield_supply"      # a step went to the Destroyed Box (14.8)
    act(eng, "battlefield_supply", AXIS, attempt=False)
    assert eng.pending() is None and eng.state.units["IT-Nizza"].loc == "C0804"


def test_eop_mobile_battle_23_vs_3_at_doubled_then_halved_air_shift_column_18():
    """WE-32/33/34: 2 SG AT 2 x2 (mobile) /2 (air support) = 2 on 5 Pz; (9-2)x2 + 6 + 2 + 1 = 23 vs 3 = 7:1 ->
    10, surprise 12, air 13 (defender results only), die 5 -> 18 (attacker 17): 2 SG E to the Destroyed Box;
    no attacker result.  Air damage 3 + 6 = 9: TRT next GT.  Then the capture roll at C1407 (12.2.7)."""
    atts = ["GE-Kasta", "GE-5Pz", "GE-Stab200", "GE-I18FLK"]
    rows = [(u, AXIS, "C0802", 2 if u == "GE-5Pz" else 1, {"flags": {"battle": "mobile"}}) for u in atts]
    st = make_state(rows + [
        ("UK-2SG", ALLIED, "C0803", 2, {"flags": {"loc": False}}), ("AL-Dump#1", ALLIED, "C0803"),
        ("AX-Dump#1", AXIS, "C0802"),
        ("GE-FFAfrika", AXIS, "box:AirNA:Axis", 1),
        ("AX-Base#1", AXIS, "C0701"),            # 26.1 El Agheila: the base that puts Map C in the area (19.1.1)
        ("AL-Dump#2", ALLIED, "C1407"),
    ], surprise=True, first=AXIS, phase=14)
    eng, fr = start(st, ScriptedDice([5, 3, 6, 2]), attackers=atts, hex="C0803", form="mobile")
    act(eng, "support", AXIS, unit="GE-FFAfrika")            # 2) mobile symbol: may support (14.9.2)
    act(eng, "combat_supply", AXIS, dump="AX-Dump#1")         # 3) both sides expend their dumps
    act(eng, "combat_supply", ALLIED, dump="AL-Dump#1")
    d = eng.pending()
    assert d.kind == "combat_anti_tank" and d.side == ALLIED and "AT rating 2" in d.prompt
    act(eng, "anti_tank", ALLIED, unit="UK-2SG", target="GE-5Pz")   # 4) the Allied player chooses the 5 Pz
    assert fr.data["strengths"] == {"attack": 23, "defence": 3}
    c = fr.data["columns"]
    assert (c["base"], c["defender"], c["attacker"]) == (10, 18, 17)
    assert fr.data["def_results"] == {"UK-2SG": "E"} and eng.state.units["UK-2SG"].loc == "box:Destroyed:Allied"
    assert set(fr.data["att_results"].values()) == {"-"}
    for u in atts:                                            # 9) all attacking units advance
        act(eng, "advance", AXIS, unit=u)
    act(eng, "battlefield_supply", AXIS, attempt=False)
    d = eng.pending()                                         # 10) exploitation (14.9.3)
    assert d.kind == "combat_exploit" and d.context["rma"]["GE-5Pz"] == 8   # 22 / 4 = 6 + 2 (Kasta, 15.6)
    act(eng, "exploit_done", AXIS)
    assert eng.pending() is None
    assert all(eng.state.units[u].loc == "C0803" for u in atts)
    assert eng.state.units["GE-FFAfrika"].loc == "track:TRT:11"   # 19.3: 9 -> next GT box
    out = fr.data["outcome"]
    assert out["exploit"] and out["defender_cleared"] and out["attacker_losses"] == 0
    # 10) exploitation: Kasta and Stab 200 enter C1407 and roll 2: the dump is captured (12.2.7)
    from core.rules import supply

    for u in ("GE-Kasta", "GE-Stab200"):
        eng.state.units[u].loc = "C1407"
    supply.capture_supply(eng, "C1407", AXIS, hq=True)
    caps = [u for u in eng.state.units.values() if u.loc == "C1407" and u.side == AXIS and u.captured]
    assert len(caps) == 1 and caps[0].id.startswith("AX-Dump")


def test_odds_query_previews_without_rolling_eop_mobile_battle():
    atts = ["GE-Kasta", "GE-5Pz", "GE-Stab200", "GE-I18FLK"]
    st = make_state([(u, AXIS, "C0802", 2 if u == "GE-5Pz" else 1, {"flags": {"battle": "mobile"}}) for u in atts]
                    + [("UK-2SG", ALLIED, "C0803", 2)], surprise=True, first=AXIS, phase=14)
    eng, _ = start(st, ScriptedDice([]), proc="combat_phase", side=AXIS, step="XIV.1")   # the query needs a game in progress only
    before = eng.state.dice_drawn
    o = eng.query("odds", attackers=atts, hex="C0803", form="mobile", att_air=["GE-FFAfrika"],
                  at_targets={"UK-2SG": "GE-5Pz"}) if "GE-FFAfrika" in eng.state.units else None
    assert o is None
    eng.state.units["GE-FFAfrika"] = eng.state.units["GE-Kasta"].__class__(id="GE-FFAfrika", side=AXIS, loc="box:AirNA:Axis")
    o = eng.query("odds", attackers=atts, hex="C0803", form="mobile", att_air=["GE-FFAfrika"],
                  at_targets={"UK-2SG": "GE-5Pz"})
    assert eng.state.dice_drawn == before
    assert (o["attack"], o["defence"], o["odds"], o["column"], o["line"]) == (23, 3, "7:1", 10, 1)
    assert o["general"] == 2 and o["attacker_support"] == 1
    row5 = o["results"][4]
    assert row5["defender_column"] == 18 and row5["attacker_column"] == 17 and row5["defender"]["2"] == "E"
    five_pz = next(x for x in o["strengths"]["attackers"] if x["unit"] == "GE-5Pz")
    assert five_pz["value"] == "14"
