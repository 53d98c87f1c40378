"""2.2.2 Hex control: "Is determined by scenario instructions. Thereafter, a ground combat unit entering a hex
transfers control to its player until an opposing unit enters the hex."

The play-path tests start from real scenario set-ups and move only through ``Engine.apply``; the last test
builds its position by hand to check the record is kept minimal (the play-path tests reach the same rule)."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS
from core.newgame import initial_state
from core.rules import control
from core.scenario import load
from tests.playpath import Play


def _start(scenario: str):
    return initial_state(load(scenario), 1)


@pytest.mark.parametrize("scenario", ["fox-killed", "desert-war", "north-african-campaign"])
def test_2_2_2_libya_axis_egypt_allied_at_the_start_with_the_frontier_between_map_w_columns_04_and_05(scenario):
    st = _start(scenario)
    assert control.initial(st, "C2331") == AXIS                  # Tobruk, Libya
    assert control.initial(st, "W2104") == AXIS                  # Bardia, column 04: the last Libyan column
    assert control.initial(st, "W2105") == ALLIED                # column 05: the first Egyptian column
    assert control.initial(st, "W0106") == ALLIED                # Siwa
    assert control.initial(st, "W2110") == ALLIED                # Sidi Barrani


def test_2_2_2_french_north_africa_is_vichy_at_the_start_of_the_north_african_campaign():
    st = _start("north-african-campaign")
    assert control.initial(st, "T6017") == "VF"                  # Tunis (2.2.4)
    assert control.controller(st, "T6017") == "VF"               # the VF garrison controls nothing (R-VIC-VICHY)


def test_2_2_2_set_up_hexes_of_the_axis_are_axis_in_sonnenblume_and_every_other_hex_allied():
    p = Play("sonnenblume", seed=1)                              # 26.0 "all hexes except those occupied by Axis units"
    assert control.controller(p.state, "C0702") == AXIS
    assert control.controller(p.state, "C0703") == ALLIED
    assert control.controller(p.state, "C2331") == ALLIED


def test_2_2_2_a_hex_passed_through_stays_controlled_by_the_mover_after_it_leaves():
    p = Play("trail-of-the-fox", seed=1)                         # 30.0 "The Axis control all hexes"
    p.to("movement", side=ALLIED)
    assert control.controller(p.state, "C0301") == AXIS
    assert control.controller(p.state, "S0333") == AXIS
    p.act("move", units=["UK-B"], path=["C0301", "S0333"])
    assert not any(control.transfers_control(u) for u in p.state.units_at("C0301"))   # nobody stays there
    assert control.controller(p.state, "C0301") == ALLIED                              # entered on the way
    assert control.controller(p.state, "S0333") == ALLIED
    assert p.state.control.get("C0301") == ALLIED


def test_2_2_2_a_supply_unit_entering_a_hex_transfers_no_control():
    p = Play("sonnenblume", seed=1)
    p.to("movement", side=AXIS)
    assert control.controller(p.state, "C0602") == ALLIED
    p.act("move", units=["AX-MSU#1"], path=["C0702", "C0602"])
    assert p.state.units["AX-MSU#1"].loc == "C0602"
    assert control.controller(p.state, "C0602") == ALLIED        # an MSU is not a ground combat unit
    p2 = Play("sonnenblume", seed=1)
    p2.to("movement", side=AXIS)
    p2.act("move", units=["GE-5Pz"], path=["C0602"])
    assert control.controller(p2.state, "C0602") == AXIS


def test_2_2_2_an_empty_port_is_a_supply_source_of_the_side_the_scenario_gives_it_12_4_2():
    from core import mapdata
    from core.rules import supply

    p = Play("sonnenblume", seed=1)                              # 26.0: Benghazi is Allied, nobody occupies it
    benghazi = mapdata.load().find("Benghazi")
    assert not any(control.transfers_control(u) for u in p.state.units_at(benghazi.label))
    assert supply.port_controlled(p.state, ALLIED, benghazi)
    assert not supply.port_controlled(p.state, AXIS, benghazi)


def test_2_2_2_an_opposing_unit_entering_transfers_control_back_and_the_record_keeps_only_differences():
    st = _start("fox-killed")
    control.enter(st, ALLIED, ["C2331"])                         # an Allied unit enters Tobruk (Libya: Axis)
    assert st.control == {"C2331": ALLIED}
    control.enter(st, AXIS, ["C2331"])                           # an Axis unit enters it again
    assert control.controller(st, "C2331") == AXIS
    assert "C2331" not in st.control                             # back to the start's control: nothing recorded
    control.enter(st, AXIS, ["W2110", "box:Refit:Axis"])         # boxes are not hexes
    assert st.control == {"W2110": AXIS}
