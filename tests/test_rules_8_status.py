"""8.0 Combat unit status: 8.1 morale, 8.2 disruption/recovery, 8.2.1 facilities, 8.3 depletion and elimination."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS
from core.dice import ScriptedDice
from core.rules import status, tec
from tests.ground_helpers import engine_at_movement, unit


@pytest.fixture
def desert():
    tec.use_map(tec.GroundMap(default="desert"))
    yield
    tec.use_map(None)


@pytest.mark.parametrize("die,morale,mods,ok", [(1, 5, 0, True), (2, 5, 0, False), (6, 0, 0, False), (5, 1, 0, True),
                                                 (3, 3, 1, False), (4, 2, 0, True)])
def test_8_1_morale_natural_six_always_fails(die, morale, mods, ok):
    assert status.morale_passes(die, morale, mods) is ok


def test_8_1_morale_check_rolls_and_logs(desert):
    eng = engine_at_movement([unit("GE-Kasta", AXIS, "C0702")])
    eng.dice = ScriptedDice([6])
    assert status.morale_check(eng, "GE-Kasta") is False       # morale 1, but a natural 6


def test_8_2_disrupted_ma_halved_round_up_and_morale_plus_one():
    u = unit("IT-Nizza", AXIS, "C0701", disrupted=True)
    assert status.movement_allowance(u) == 11 and status.morale(u) == 4


@pytest.mark.parametrize("uid,ogs,disrupted,ma", [
    ("UK-69", True, False, 7),     # 13.2.2: OGS non-motorised: 14 halved = 7, an odd MA
    ("UK-69", True, True, 4),      # 8.2 e): 7 halved = 3.5, rounded UP to 4 (round down would give 3)
    ("UK-KDG", True, False, 7),    # 13.2.1/13.2.2: OGS motorised: RMA = 28/4 = 7, an odd MA
    ("UK-KDG", True, True, 4),     # 8.2 e): 7 halved rounds up to 4
    ("UK-KDG", False, True, 14),   # 28 halved: no fraction
])
def test_8_2_e_disrupted_odd_ma_halves_rounding_up(uid, ogs, disrupted, ma):
    u = unit(uid, ALLIED, "C0701", ogs=ogs, disrupted=disrupted)
    assert status.printed_ma(u) in (14, 28)
    assert status.movement_allowance(u) == ma


def test_8_2_1_disrupted_msu_ma_7():
    assert status.movement_allowance(unit("AX-MSU#1", AXIS, "C0701", disrupted=True)) == 7


def test_8_2_recovery_at_end_of_movement_phase_only_in_gens_and_out_of_ezoc(desert):
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C0702", disrupted=True, steps=2),
                              unit("GE-3Aufkl", AXIS, "C0602", disrupted=True),
                              unit("UK-KDG", ALLIED, "C0603")])
    status.recover_at_movement_end(eng, 6)
    assert not eng.state.units["GE-5Pz"].disrupted          # in GenS, not in an EZOC
    assert eng.state.units["GE-3Aufkl"].disrupted           # C0602 is in the KDG's ZOC


def test_8_3_elimination_box_by_loc_los_and_no_cadre(desert):
    # WE-37: motorised with a LOC -> Refit; without -> Destroyed; No Cadre always Destroyed; overrun -> Destroyed
    eng = engine_at_movement([unit("AL-Base#1", ALLIED, "C0905", active=False),
                              unit("UK-KDG", ALLIED, "C0603"), unit("UK-3LtArm", ALLIED, "C0804", steps=1),
                              unit("GE-KG15Pz", AXIS, "C2020"), unit("IT-132Ariete", AXIS, "C0703", steps=2)])
    st = eng.state
    box, _ = status.elimination_box(st, st.units["UK-KDG"])
    assert box == "box:Refit:Allied"                        # LOC from the OGS base
    assert status.elimination_box(st, st.units["UK-KDG"], overrun=True)[0] == "box:Destroyed:Allied"
    assert status.elimination_box(st, st.units["GE-KG15Pz"])[0] == "box:Destroyed:Axis"   # No Cadre
    st.units["AL-Base#1"].loc = "box:Destroyed:Allied"
    st.vars["nrv_in_play"] = False          # no NRV connection in this test (22.1)
    assert status.elimination_box(st, st.units["UK-3LtArm"])[0] == "box:Destroyed:Allied"


def test_8_3_depletion_flips_then_eliminates(desert):
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C0702", steps=2)])
    status.deplete(eng, "GE-5Pz")
    assert eng.state.units["GE-5Pz"].steps == 1
    status.deplete(eng, "GE-5Pz")
    assert eng.state.units["GE-5Pz"].loc.startswith("box:")
