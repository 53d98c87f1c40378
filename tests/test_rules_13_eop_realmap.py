"""The Example of Play on the real maps (core.mapdata + the TEC of core.terrain): WE-17, WE-18, WE-30."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action
from core.engine import PROCEDURES
from core.hexgrid import Hex
from core.rules import movement, supply, tec
from tests.ground_helpers import engine_at_movement, unit
from tests.test_rules_13_eop import FakeOverrun


@pytest.fixture
def real():
    tec.use_map(None)
    gm = tec.current_map()
    if gm.external is None:
        pytest.fail(f"the real map should be loaded, got {gm.source}")
    return gm


def test_we17_los_extents_on_the_real_map(real):
    st = engine_at_movement([unit("AX-Base#1", AXIS, "L2817", active=True),
                             unit("AL-Base#1", ALLIED, "C2331", active=True)]).state
    ax, al = supply.supply_lines(st, AXIS), supply.supply_lines(st, ALLIED)
    assert Hex.parse("C0907") in ax.los and Hex.parse("S1030") in al.los


def test_we18_beurat_to_el_agheila_23mp_on_the_real_map(real, monkeypatch):
    from core import terrain

    cost, path = terrain.cheapest_path("L1633", "C0701", "mech", roads_only=True)
    assert cost == 23
    labels = [h.label for h in path[1:]]
    eng = engine_at_movement([unit("GE-Kasta", AXIS, "L1633"), unit("GE-3Aufkl", AXIS, "L1633"),
                              unit("UK-KDG", ALLIED, "C0701"), unit("AX-Base#1", AXIS, "L2817", active=True)],
                             surprise=True)
    monkeypatch.setitem(PROCEDURES, "resolve_combat", FakeOverrun("C0603"))
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-Kasta", "GE-3Aufkl"], "path": labels + ["C0702"]}))
    assert eng.state.units["GE-3Aufkl"].loc == "C0702"
    assert eng.state.stack[-1].data["moved"]["GE-Kasta"] == 24 * tec.EIGHTH


def test_we30_3aufkl_route_terrain_17_on_the_real_map(real):
    route = ["C0602", "C0603", "C0504", "C0505", "C0506", "C0606", "C0706", "C0605"]
    st = engine_at_movement([unit("GE-3Aufkl", AXIS, "C0702")]).state
    spent = movement.path_cost(st, AXIS, ["GE-3Aufkl"], route, movement.MoveOptions())
    assert spent["GE-3Aufkl"] == 17 * tec.EIGHTH     # + 1 EZOC at C0605 = the EoP's 18 (G-EOP-AUFKL)
