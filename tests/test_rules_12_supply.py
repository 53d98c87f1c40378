"""12.0 Supply: 12.4 lines (LOS/LOC, EZOC, MSU chains), 12.5 GenS statuses, 12.5.1 attrition, 12.2.3 bases,
12.2.7 capture, 12.7 emergency supply; property: the status does not depend on the order of units."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as hs

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.hexgrid import Hex
from core.rules import supply, tec
from core.state import GameState
from tests.ground_helpers import engine_at_movement, unit

P = Hex.parse


@pytest.fixture
def clear():
    tec.use_map(tec.GroundMap(default="clear"))
    yield
    tec.use_map(None)


def test_12_4_1_base_los_14_mmp_and_msu_chain(clear):
    st = engine_at_movement([unit("AX-Base#1", AXIS, "C1001", active=True)]).state
    lines = supply.supply_lines(st, AXIS)
    assert P("C1015") in lines.los and P("C1016") not in lines.los          # 14 clear hexes at 1 MMP
    st.units["AX-MSU#1"] = unit("AX-MSU#1", AXIS, "C1015")
    st.units["AX-MSU#2"] = unit("AX-MSU#2", AXIS, "C1022")
    lines = supply.supply_lines(st, AXIS)
    assert P("C1029") in lines.los and P("C1030") not in lines.los          # chain: +7 and +7
    assert "MSU at C1022" in lines.los[P("C1029")][1]


def test_8_2_1_disrupted_base_and_msu_ranges(clear):
    st = engine_at_movement([unit("AX-Base#1", AXIS, "C1001", active=True, disrupted=True)]).state
    lines = supply.supply_lines(st, AXIS)
    assert P("C1008") in lines.los and P("C1009") not in lines.los


def test_12_4_ezoc_blocks_unless_friendly_occupied(clear):
    eng = engine_at_movement([unit("AX-Base#1", AXIS, "C1001", active=True), unit("UK-2SG", ALLIED, "C1104", steps=2)])
    st = eng.state
    lines = supply.supply_lines(st, AXIS)
    assert P("C1004") not in lines.los and P("C1005") in lines.los       # around the EZOC
    assert P("C1104") not in lines.los                                    # enemy unit
    st.units["GE-5Pz"] = unit("GE-5Pz", AXIS, "C1004", steps=2)
    assert P("C1004") in supply.supply_lines(st, AXIS).los               # friendly unit negates the EZOC


def test_12_5_igs_ogs_isolated_and_effects(clear):
    eng = engine_at_movement([
        unit("AX-Base#1", AXIS, "C1001", active=False),       # OGS base: LOC only
        unit("GE-5Pz", AXIS, "C1010", steps=2),
        unit("GE-3Aufkl", AXIS, "C2020"),
        unit("UK-2SG", ALLIED, "C1920", steps=2), unit("UK-KDG", ALLIED, "C2120"), unit("UK-3LtArm", ALLIED, "C2019", steps=2),
        unit("UK-11Huss", ALLIED, "C2021"), unit("UK-12Lanc", ALLIED, "C1921"), unit("UK-7SG", ALLIED, "C2119", steps=2),
    ], vars={"nrv_in_play": False})
    status = supply.gens_status(eng.state, AXIS)
    assert status["GE-5Pz"] == "OGS" and status["GE-3Aufkl"] == "isolated"
    supply.apply_gens(eng, AXIS)
    a = eng.state.units["GE-3Aufkl"]
    assert a.ogs and a.isolated and a.disrupted
    from core.rules.status import movement_allowance

    assert movement_allowance(eng.state.units["GE-5Pz"]) == 6          # 13.2.2 OGS motorised: RMA


def test_12_5_1_attrition_depletes_isolated_on_failure(clear):
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C1010", steps=2, isolated=True, ogs=True)])
    eng.dice = ScriptedDice([6])
    supply.supply_attrition(eng)
    assert eng.state.units["GE-5Pz"].steps == 1


def test_12_2_3_create_base_needs_msu_and_dump(clear):
    eng = engine_at_movement([unit("AX-MSU#1", AXIS, "C1010"), unit("AX-Base#1", AXIS, "C1001", active=True)])
    before = eng.hash()
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="create_base", side=AXIS, args={"hex": "C1010"}))
    assert exc.value.rule == "12.2.3" and eng.hash() == before


def test_12_7_emergency_supply_at_start_of_phase(clear):
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C1010", steps=2, ogs=True), unit("AX-Dump#1", AXIS, "C1010")])
    eng.apply(Action(kind="emergency_supply", side=AXIS, args={"unit": "GE-5Pz", "dump": "AX-Dump#1"}))
    u = eng.state.units["GE-5Pz"]
    assert u.emergency and not u.ogs and "AX-Dump#1" not in eng.state.units


def test_12_2_7_capture_with_hq_modifier(clear):
    eng = engine_at_movement([unit("AL-Dump#1", ALLIED, "C1407"), unit("GE-Kasta", AXIS, "C1407")])
    eng.dice = ScriptedDice([4])
    supply.capture_supply(eng, "C1407", AXIS, hq=True)                     # 4 - 1 = 3: captured
    dumps = [u for u in eng.state.units.values() if u.id.startswith("AX-Dump")]
    assert len(dumps) == 1 and dumps[0].captured


def test_12_2_3_transfer_one_dump_between_bases(clear):
    eng = engine_at_movement([unit("AX-Base#1", AXIS, "C1001", active=True), unit("AX-Base#2", AXIS, "C1010"),
                              unit("AX-Dump#1", AXIS, "C1001"), unit("AX-Dump#2", AXIS, "C1001")])
    eng.apply(Action(kind="transfer", side=AXIS, args={"from": "AX-Base#1", "to": "AX-Base#2", "units": ["AX-Dump#1"]}))
    assert eng.state.units["AX-Dump#1"].loc == "C1010"
    with pytest.raises(IllegalAction, match="one transfer"):
        eng.apply(Action(kind="transfer", side=AXIS, args={"from": "AX-Base#1", "to": "AX-Base#2", "units": ["AX-Dump#2"]}))


SPOTS = ["C1005", "C1008", "C1012", "C1205", "C1210", "C0905", "C1503", "C1520", "C0808", "C1111"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=hs.integers(0, 10_000))
def test_12_5_status_independent_of_unit_order(clear, seed):
    rnd = random.Random(seed)
    ids = ["GE-5Pz", "GE-3Aufkl", "GE-Kasta", "IT-132Ariete", "IT-Nizza", "AX-MSU#1"]
    units = [unit("AX-Base#1", AXIS, "C1001", active=True)]
    units += [unit(i, AXIS, rnd.choice(SPOTS)) for i in ids]
    units += [unit("UK-2SG", ALLIED, rnd.choice(SPOTS[3:]), steps=2), unit("UK-KDG", ALLIED, rnd.choice(SPOTS[5:]))]
    st = engine_at_movement(units).state
    a = supply.gens_status(st, AXIS)
    shuffled = list(st.units.items())
    rnd.shuffle(shuffled)
    st2 = GameState.decode(st.encode())
    st2.units = dict(shuffled)
    assert supply.gens_status(st2, AXIS) == a
