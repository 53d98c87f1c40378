"""Boundary tests (issue 16): every rule limit is tested at the limit and at limit + 1, so that a flipped
comparison or a constant off by one fails a test (``scripts/mutants.py`` flips them one at a time).

10.2 stacking (6 points, 9 in a city); 13.5 reaction radius (two hexes); 13.2.1 RMA (a quarter, rounded up);
8.2 e) disrupted MA (halved, rounded up, odd MA); 12.4.1 LOS ranges (base 14, dump and MSU 7; 8.2.1 disrupted
base 7, MSU and dump 3)."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.hexgrid import Hex
from core.rules import movement, stacking, status, supply, tec
from tests.ground_helpers import engine_at_movement, unit

P = Hex.parse


# --------------------------------------------------------------------------- 10.2 stacking limits
SIX = [("GE-5Pz", 2), ("GE-8PzL", 2), ("GE-5PzL", 2)]          # 3 x 2 points


def _stack(hex_label: str, extra: list[str]) -> list:
    return [unit(uid, AXIS, hex_label, steps=2) for uid, _ in SIX] + [unit(uid, AXIS, hex_label) for uid in extra]


@pytest.mark.parametrize("extra,points,over", [([], 6, False), (["GE-Kasta"], 7, True)])
def test_10_2_six_points_in_a_hex_at_the_limit_seven_over(gm, extra, points, over):
    eng = engine_at_movement(_stack("C1010", extra))
    assert sum(stacking.stacking_points(u) for u in eng.state.units.values()) == points
    assert ("C1010" in stacking.overstacked(eng.state)) is over
    stacking.overstacking(eng, 6)                              # 10.3: at the end of the phase
    assert all(u.disrupted is over for u in eng.state.units.values())


@pytest.mark.parametrize("extra,points,over", [(["IT-132Ariete"], 9, False), (["IT-132Ariete", "GE-Kasta"], 10, True)])
def test_10_2_nine_points_in_a_city_at_the_limit_ten_over(gm, extra, points, over):
    gm.set_hex("C1010", "city")
    eng = engine_at_movement(_stack("C1010", extra))
    assert sum(stacking.stacking_points(u) for u in eng.state.units.values()) == points
    assert ("C1010" in stacking.overstacked(eng.state)) is over


# --------------------------------------------------------------------------- 13.5 reaction radius


@pytest.mark.parametrize("allied_at,near", [("C1012", True), ("C1013", False)])
def test_13_5_only_units_within_two_hexes_of_an_enemy_may_react(gm, allied_at, near):
    units = [unit("GE-5Pz", AXIS, "C1010", steps=2), unit("UK-2SG", ALLIED, allied_at, steps=2)]
    assert P("C1010").distance(P(allied_at)) == (2 if near else 3)
    assert ("UK-2SG" in movement.units_near_enemy(engine_at_movement(units).state, ALLIED)) is near
    eng = engine_at_movement(units, phase=7, step=1)         # 4.1 VII: the Allied Reaction Phase
    d = eng.pending()
    assert d.kind == "reaction" and d.side == ALLIED
    to = P(allied_at).neighbours()[0].label
    move = Action(kind="move", side=ALLIED, args={"units": ["UK-2SG"], "path": [to]})
    if near:
        eng.apply(move)
        assert eng.state.units["UK-2SG"].loc == to
    else:
        with pytest.raises(IllegalAction) as exc:
            eng.apply(move)
        assert "13.5" in exc.value.rule and eng.state.units["UK-2SG"].loc == allied_at


# --------------------------------------------------------------------------- 13.2.1 RMA


@pytest.mark.parametrize("uid,printed,rma", [
    ("GE-5Pz", 22, 6),        # 22/4 = 5.5 -> 6 (rounded down would be 5)
    ("UK-7RTR", 14, 4),       # 14/4 = 3.5 -> 4
    ("UK-KDG", 28, 7),        # exact
    ("UK-69", 14, 0),         # non-motorised: one hex, no RMA in MP
])
def test_13_2_1_rma_is_a_quarter_of_the_printed_ma_rounded_up(uid, printed, rma):
    u = unit(uid, ALLIED if uid.startswith("UK") else AXIS, "C1010")
    assert status.printed_ma(u) == printed and status.rma(u) == rma


def test_13_2_1_reaction_moves_the_rma_and_not_one_mp_more(gm):
    # UK-2SG: MA 22 -> RMA 6: six clear hexes at 1 MP each are the limit, a seventh is one MP over
    base = [unit("GE-5Pz", AXIS, "C1010", steps=2)]
    ok = engine_at_movement(base + [unit("UK-2SG", ALLIED, "C1012", steps=2)], phase=7, step=1)
    path = [f"C10{n:02d}" for n in range(13, 19)]
    ok.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-2SG"], "path": path}))
    assert ok.state.units["UK-2SG"].loc == "C1018"
    over = engine_at_movement(base + [unit("UK-2SG", ALLIED, "C1012", steps=2)], phase=7, step=1)
    with pytest.raises(IllegalAction):
        over.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-2SG"], "path": path + ["C1019"]}))


# --------------------------------------------------------------------------- 8.2 e) disrupted MA, odd MA


def test_8_2_e_a_disrupted_ogs_foot_unit_moves_four_mp_not_five(gm):
    # UK-69: printed 14, OGS non-motorised 7 (13.2.2), disrupted 7/2 = 3.5 -> 4 (8.2 e)
    def eng():
        return engine_at_movement([unit("UK-69", ALLIED, "C1010", steps=2, ogs=True, disrupted=True),
                                   unit("GE-5Pz", AXIS, "C2020", steps=2)], first=ALLIED)
    e = eng()
    assert status.movement_allowance(e.state.units["UK-69"]) == 4
    path = [f"C10{n:02d}" for n in range(11, 15)]
    e.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-69"], "path": path}))
    assert e.state.units["UK-69"].loc == "C1014"
    with pytest.raises(IllegalAction):
        eng().apply(Action(kind="move", side=ALLIED, args={"units": ["UK-69"], "path": path + ["C1015"]}))


# --------------------------------------------------------------------------- 12.4.1 / 8.2.1 LOS ranges


def test_12_4_1_dump_los_seven_mmp_not_eight(gm):
    st = engine_at_movement([unit("AX-Dump#1", AXIS, "C1001"), unit("GE-5Pz", AXIS, "C1008", steps=2, ogs=True),
                             unit("GE-8PzL", AXIS, "C1009", steps=2, ogs=True)]).state
    assert supply.dump_range(st.units["AX-Dump#1"]) == 7 * tec.EIGHTH
    hexes = {h for _, h in supply.dump_gens_targets(st, AXIS)}
    assert "C1008" in hexes and "C1009" not in hexes          # 7 clear hexes: in; 8: out


def test_8_2_1_disrupted_dump_los_three_mmp_not_four(gm):
    st = engine_at_movement([unit("AX-Dump#1", AXIS, "C1001", disrupted=True),
                             unit("GE-5Pz", AXIS, "C1004", steps=2, ogs=True),
                             unit("GE-8PzL", AXIS, "C1005", steps=2, ogs=True)]).state
    hexes = {h for _, h in supply.dump_gens_targets(st, AXIS)}
    assert "C1004" in hexes and "C1005" not in hexes


@pytest.mark.parametrize("disrupted,last", [(False, "C1022"), (True, "C1018")])
def test_12_4_1_msu_extends_the_los_seven_mmp_disrupted_three(gm, disrupted, last):
    st = engine_at_movement([unit("AX-Base#1", AXIS, "C1001", active=True),
                             unit("AX-MSU#1", AXIS, "C1015", disrupted=disrupted)]).state
    lines = supply.supply_lines(st, AXIS)
    nxt = f"C10{int(last[3:]) + 1:02d}"
    assert P(last) in lines.los and P(nxt) not in lines.los


@pytest.mark.parametrize("disrupted,last", [(False, "C1015"), (True, "C1008")])
def test_12_4_1_base_los_fourteen_mmp_disrupted_seven(gm, disrupted, last):
    st = engine_at_movement([unit("AX-Base#1", AXIS, "C1001", active=True, disrupted=disrupted)]).state
    lines = supply.supply_lines(st, AXIS)
    nxt = f"C10{int(last[3:]) + 1:02d}"
    assert P(last) in lines.los and P(nxt) not in lines.los


# --------------------------------------------------------------------------- 15.3 recon superiority in movement


@pytest.mark.parametrize("enemy,mp", [("UK-KDG", 4), ("UK-2SG", 2)])
def test_15_3_entering_the_zoc_of_a_recon_superior_enemy_costs_two_mp_more(gm, enemy, mp):
    # clear 1 MP + EZOC 1 MP (11.4 a); + 2 MP when the enemy recon (KDG) is superior (15.3): 4 MP, not 3
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C1010", steps=2), unit(enemy, ALLIED, "C1012", steps=2)])
    cost = movement.path_cost(eng.state, AXIS, ["GE-5Pz"], ["C1011"], movement.MoveOptions())
    assert cost["GE-5Pz"] == mp * tec.EIGHTH


# --------------------------------------------------------------------------- 4.0 / R-TRT-END: the last box, GT 38


@pytest.mark.parametrize("end,delta,new", [(36, 2, 38), (37, 2, 38), (38, 1, 38), (38, -1, 37)])
def test_4_0_the_end_scenario_marker_stops_in_the_last_box_gt_38(end, delta, new):
    from core.engine import move_end_scenario_marker

    eng = engine_at_movement([])
    eng.state.end_gt = end
    move_end_scenario_marker(eng, delta, "test", "4.0")
    assert eng.state.end_gt == new


# --------------------------------------------------------------------------- 23.1 ALC-18 b): 36 CF of Australians

AUS_BG = ["AU-16AusBG", "AU-17AusBG", "AU-18AusBG", "AU-19AusBG", "AU-20AusBG", "AU-21AusBG", "AU-24AusBG",
          "AU-26AusBG", "AU-25AusBG"]
AUS_CAV = ["AU-6AusCav", "AU-7AusCav", "AU-9AusCav"]


@pytest.mark.parametrize("cav_lost,cf,met", [(False, 36, True), (True, 35, False)])
def test_23_1_alc_18_b_the_australians_count_from_36_cf(cav_lost, cf, met):
    from core.rules import events, offmap

    # five battle groups at full strength (5 CF), four reduced (2 CF), the cavalry 1 CF each: 25 + 8 + 3 = 36
    units = [unit(b, ALLIED, offmap.NRV, steps=2 if i < 5 else 1) for i, b in enumerate(AUS_BG)]
    units += [unit(c, ALLIED, offmap.NRV) for c in AUS_CAV]
    if cav_lost:
        units[-1] = unit(AUS_CAV[-1], ALLIED, "box:Destroyed:Allied")
    eng = engine_at_movement(units)
    prog = events.australian_corps_progress(eng)
    assert prog["missing"] == [] and prog["cf"] == cf
    card = {"since": None}
    events._aus_each_gt(eng, card)
    assert (card["since"] == eng.state.gt) is met
