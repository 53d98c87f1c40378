"""18.3: a road built by construction (``vars["roads_built"]``) is a road for movement (13.3) and supply lines."""

from __future__ import annotations

import pytest

from core.decisions import AXIS, Action
from core.rules import movement, tec
from tests.ground_helpers import engine_at_movement, unit


@pytest.fixture
def desert():
    m = tec.GroundMap(default="desert")
    tec.use_map(m)
    yield m
    tec.use_map(None)


def test_18_3_built_road_lowers_movement_costs(desert):
    path = ["C1011", "C1012", "C1013"]
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C1010", steps=2)])
    before = movement.path_cost(eng.state, AXIS, ["GE-5Pz"], path, movement.MoveOptions())["GE-5Pz"]
    assert before == 3 * 2 * tec.EIGHTH                               # desert, 2 MP a hex
    eng.state.vars["roads_built"] = {"tobruk-bypass": ["C1010", "C1011", "C1012", "C1013"]}
    after = movement.path_cost(eng.state, AXIS, ["GE-5Pz"], path, movement.MoveOptions())["GE-5Pz"]
    assert after == 3 * tec.road_cost("mechanised", "secondary")      # 13.3: a road negates the terrain
    reach = movement.reachable_paths(eng.state, AXIS, ["GE-5Pz"], movement.MoveOptions())
    assert reach["C1013"] == path
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-5Pz"], "path": path}))
    assert eng.state.units["GE-5Pz"].loc == "C1013"


def test_18_3_unbuilt_hexes_are_not_road(desert):
    st = engine_at_movement([unit("GE-5Pz", AXIS, "C1010", steps=2)]).state
    st.vars["roads_built"] = {"tobruk-bypass": ["C1010", "C1011"]}
    gm = tec.map_for(st)
    a, b, c = (tec.Hex.parse(x) for x in ("C1010", "C1011", "C1012"))
    assert tec.step_cost(gm, "mechanised", a, b)[1] == "road"
    assert tec.step_cost(gm, "mechanised", b, c)[1] == "open"
    assert tec.map_for(engine_at_movement([]).state) is tec.current_map()
