"""17.2 refit costs from the Refit Costs Chart (core.charts.refit_cost) and 8.4 / 17.3 upgrades: substitution,
split (steps in play constant, a divisional step counting two, excess to the Refit Box) and addition."""

from __future__ import annotations

import pytest

from core import charts
from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.engine import Engine
from core.rules import refit, tec
from core.state import Frame, GameState
from tests.ground_helpers import engine_at_movement, unit


@pytest.fixture(autouse=True)
def clear():
    tec.use_map(tec.GroundMap(default="clear"))
    yield
    tec.use_map(None)


def refit_phase(units, side=AXIS, gt=10, **vars_):
    st = engine_at_movement(units, phase=6 if side == AXIS else 9, step=2,
                            vars={"nrv_in_play": False, "primary_base": {"Axis": "AX-Base#1"}} | vars_).state
    st.gt = gt
    st.stack = [Frame(proc="turn")]
    return Engine(GameState.decode(st.encode()))


def act(eng, kind, side=AXIS, **args):
    return eng.apply(Action(kind=kind, side=side, args=args))


@pytest.mark.parametrize("uid,cat", [("IT-Kufra", "garrison"), ("UK-LRDG", "desert_raider"),
                                     ("IT-17Pavia", "division"), ("GE-KG15Pz", "no_cadre"),
                                     ("GE-5Pz", "armour"), ("UK-KDG", "armour"), ("UK-2SG", "non_divisional")])
def test_17_2_refit_cost_category_from_the_chart(uid, cat):
    u = unit(uid, AXIS, "C1010")
    assert refit.refit_category(u) == cat
    for stage in ("on_map", "from_refit_box", "destroyed_to_refit"):
        if charts.refit_cost(cat, stage=stage, steps=1) >= 0:
            assert refit.chart_cost(u, stage) == charts.refit_cost(cat, stage=stage, steps=1)


def test_17_2_refit_on_the_hex_grid_pays_the_chart_cost():
    cost = charts.refit_cost("division", stage="on_map", steps=1)
    eng = refit_phase([unit("AX-Base#1", AXIS, "C1001", active=True), unit("IT-17Pavia", AXIS, "C1010", steps=1),
                       unit("IT-RP#1", AXIS, "C1010", steps=cost - 1 if cost > 1 else 0)])
    if cost > 1:
        with pytest.raises(IllegalAction) as exc:
            act(eng, "refit_hex", unit="IT-17Pavia", rp="IT-RP#1")
        assert exc.value.rule == "17.2" and f"needs {cost} RP" in str(exc.value)
    eng = refit_phase([unit("AX-Base#1", AXIS, "C1001", active=True), unit("IT-17Pavia", AXIS, "C1010", steps=1),
                       unit("IT-RP#1", AXIS, "C1010", steps=cost), unit("IT-RP#2", AXIS, "C1010", steps=1)])
    act(eng, "refit_hex", unit="IT-17Pavia", rp="IT-RP#1")
    st = eng.state
    assert st.units["IT-17Pavia"].steps == 2 and "IT-RP#1" not in st.units        # all its steps expended


def test_17_2_box_costs_and_us_cw_one_phase_rebuild():
    two = charts.refit_cost("armour", stage="from_refit_box", steps=2)
    eng = refit_phase([unit("AX-Base#1", AXIS, "C1001", active=True), unit("GE-5Pz", AXIS, "box:Refit:Axis"),
                       unit("GE-RP#1", AXIS, "C1001", steps=two)])
    act(eng, "refit_box", unit="GE-5Pz", rps=["GE-RP#1"], steps=2)
    assert eng.state.units["GE-5Pz"].loc == "C1001" and eng.state.units["GE-5Pz"].steps == 2
    # 17.2 Important: a narrow-band CW unit goes from the Destroyed Box to the map in one phase, paying both stages
    both = charts.refit_cost("armour", stage="destroyed_to_refit", steps=1) + charts.refit_cost(
        "armour", stage="from_refit_box", steps=1)
    eng = refit_phase([unit("UK-3LtArm", ALLIED, "box:Destroyed:Allied"), unit("UK-RP#1", ALLIED, "box:NRV", steps=both)],
                      side=ALLIED)
    act(eng, "refit_destroyed", ALLIED, unit="UK-3LtArm", rps=["UK-RP#1"], steps=1)
    assert eng.state.units["UK-3LtArm"].loc == "box:NRV" and eng.state.units["UK-3LtArm"].steps == 1
    # a German unit only moves to the Refit Box
    eng = refit_phase([unit("AX-Base#1", AXIS, "C1001", active=True), unit("GE-5Pz", AXIS, "box:Destroyed:Axis"),
                       unit("GE-RP#1", AXIS, "C1001", steps=2)])
    act(eng, "refit_destroyed", unit="GE-5Pz", rps=["GE-RP#1"])
    assert eng.state.units["GE-5Pz"].loc == "box:Refit:Axis"


def _row(kind, from_):
    return next(i for i, r in enumerate(charts.upgrades()) if r.kind == kind and from_ in r.from_)


def test_17_3_substitution_keeps_the_steps():
    row = _row("substitution", "GE-5Pz")
    units = [unit("AX-Base#1", AXIS, "C1001", active=True), unit("GE-5Pz", AXIS, "C1010", steps=1)]
    eng = refit_phase(units, gt=31)
    with pytest.raises(IllegalAction) as exc:
        act(eng, "upgrade", unit="GE-5Pz", row=row)
    assert exc.value.rule == "8.4"                                            # available from GT 32
    eng = refit_phase(units, gt=32)
    opt = Action(kind="upgrade", side=AXIS, args={"unit": "GE-5Pz", "row": row})
    assert opt in [o.action for o in eng.pending().options]                  # enumerated (no RP needed)
    eng.apply(opt)
    st = eng.state
    assert st.units["GE-5Pz"].loc == "removed"
    new = [u for u in st.units.values() if u.id.startswith("GE-5PzL")]
    assert len(new) == 1 and new[0].loc == "C1010" and new[0].steps == 1


def test_17_3_split_keeps_steps_constant_excess_to_refit_box():
    row = _row("split", "IT-102TrnAP")
    eng = refit_phase([unit("AX-Base#1", AXIS, "C1001", active=True), unit("IT-102TrnAP", AXIS, "C1010", steps=2)])
    act(eng, "upgrade", unit="IT-102TrnAP", row=row)
    st = eng.state
    where = {u.id.split("#")[0]: (u.loc, u.steps) for u in st.units.values() if u.id != "AX-Base#1"}
    # 2 divisional steps = 4 steps: the divisional 102 Trento takes them all (2 divisional steps)
    assert where["IT-102TrnAP"][0] == "removed"
    assert where["IT-102Trento"] == ("C1010", 2)
    assert all(where[c] == ("box:Refit:Axis", 1) for c in ("IT-Ragg102", "IT-61", "IT-62"))


def test_17_3_split_of_a_depleted_division():
    row = _row("split", "IT-102TrnAP")
    eng = refit_phase([unit("AX-Base#1", AXIS, "C1001", active=True), unit("IT-102TrnAP", AXIS, "C1010", steps=1)])
    act(eng, "upgrade", unit="IT-102TrnAP", row=row)
    where = {u.id.split("#")[0]: (u.loc, u.steps) for u in eng.state.units.values()}
    assert where["IT-102Trento"] == ("C1010", 1)                              # 1 divisional step = 2 steps
    assert where["IT-61"][0] == "box:Refit:Axis"


def test_17_3_addition_places_the_new_unit_with_the_old():
    row = _row("addition", "GE-5Pz")
    eng = refit_phase([unit("AX-Base#1", AXIS, "C1001", active=True), unit("GE-5Pz", AXIS, "C1010", steps=2)], gt=29)
    act(eng, "upgrade", unit="GE-5Pz", row=row)
    st = eng.state
    assert st.units["GE-5Pz"].loc == "C1010"
    kg = [u for u in st.units.values() if u.id.startswith("GE-KG21Pz")]
    assert len(kg) == 1 and kg[0].loc == "C1010"
    with pytest.raises(IllegalAction) as exc:                                 # its counter is now in play
        act(eng, "upgrade", unit="GE-5Pz", row=row)
    assert exc.value.rule in ("17.3", "8.4")


def test_17_3_upgrade_refusals_disrupted_and_primary_base_moved():
    row = _row("substitution", "GE-5Pz")
    eng = refit_phase([unit("AX-Base#1", AXIS, "C1001", active=True), unit("GE-5Pz", AXIS, "C1010", disrupted=True)],
                      gt=32)
    with pytest.raises(IllegalAction) as exc:
        act(eng, "upgrade", unit="GE-5Pz", row=row)
    assert exc.value.rule == "8.4; 17.3; 8.2 g"
    eng = refit_phase([unit("AX-Base#1", AXIS, "C1001", active=True), unit("GE-5Pz", AXIS, "C1010")], gt=32,
                      primary_base_moved_gt=32)
    with pytest.raises(IllegalAction) as exc:
        act(eng, "upgrade", unit="GE-5Pz", row=row)
    assert exc.value.rule == "12.2.4"
