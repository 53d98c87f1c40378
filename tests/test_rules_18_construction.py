"""18.3: a road built by construction (``vars["roads_built"]``) is a primary road for movement (13.3) and supply
lines ("Construction of the road converts the route into a primary road")."""

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
    eng.state.vars["roads_built"] = {"tobruk-bypass/Axis": ["C1010", "C1011", "C1012", "C1013"]}
    after = movement.path_cost(eng.state, AXIS, ["GE-5Pz"], path, movement.MoveOptions())["GE-5Pz"]
    assert after == 3 * tec.road_cost("mechanised", "primary")        # 18.3 "converts the route into a primary road"
    reach = movement.reachable_paths(eng.state, AXIS, ["GE-5Pz"], movement.MoveOptions())
    assert reach["C1013"] == path
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-5Pz"], "path": path}))
    assert eng.state.units["GE-5Pz"].loc == "C1013"


def test_18_3_unbuilt_hexes_are_not_road(desert):
    st = engine_at_movement([unit("GE-5Pz", AXIS, "C1010", steps=2)]).state
    st.vars["roads_built"] = {"tobruk-bypass/Axis": ["C1010", "C1011"]}
    gm = tec.map_for(st)
    a, b, c = (tec.Hex.parse(x) for x in ("C1010", "C1011", "C1012"))
    assert tec.step_cost(gm, "mechanised", a, b)[1] == "road"
    assert tec.step_cost(gm, "mechanised", b, c)[1] == "open"
    assert tec.map_for(engine_at_movement([]).state) is tec.current_map()


# ---------------------------------------------------------------- 18.2 the Egyptian railroad
from core.decisions import ALLIED, IllegalAction          # noqa: E402
from core.rules import construction, transport             # noqa: E402


def _allied(units, **vars_):
    return engine_at_movement(units, phase=9, step=3, vars=dict(vars_))


def _rail(eng, hexes, msu="AL-MSU#1"):
    return eng.apply(Action(kind="build_rail", side=ALLIED, args={"msu": msu, "hexes": hexes}))


def test_18_2_extension_is_the_printed_unfinished_line():
    from core import mapdata

    ext = construction.rail_extension()
    assert ext[0] == "W2118" and ext[-1] == "C2331"                      # Mersa Matruh to Tobruk
    md = mapdata.load()
    assert all(md.rail_between(a, b) == "rail_unfinished" for a, b in zip(ext, ext[1:]))


def test_18_2_1_railhead_advances_hex_by_hex_along_the_line(desert):
    eng = _allied([unit("AL-MSU#1", ALLIED, "W2118")], railhead="W2118")
    d = eng.pending()
    assert "build_rail" in d.free_kinds
    _rail(eng, ["W2117", "W2116"])
    st = eng.state
    assert st.vars["railhead"] == "W2116" and st.units["AL-MSU#1"].loc == "W2116"
    assert transport.egyptian_line(st)[-3:] == ["W2118", "W2117", "W2116"]     # built hexes join the line
    with pytest.raises(IllegalAction) as exc:                                  # once per Movement Phase
        _rail(eng, ["W2115"])
    assert exc.value.rule == "18.2.1"


@pytest.mark.parametrize("hexes,rule", [
    (["W2116"], "18.2.1"),                      # skipping ahead of the railhead
    (["W2018"], "18.2"),                         # not a printed unfinished rail hexside
    (["W2117", "W2116", "W2115"], "18.2.1"),     # at most two hexes
    (["W2119"], "18.2"),                          # back east along the finished line
])
def test_18_2_refusals_cite_the_rule(desert, hexes, rule):
    eng = _allied([unit("AL-MSU#1", ALLIED, "W2118")], railhead="W2118")
    with pytest.raises(IllegalAction) as exc:
        _rail(eng, hexes)
    assert exc.value.rule == rule


def test_18_2_1_conditions_msu_on_railhead_clear_line_no_ezoc(desert):
    # default railhead: the end of the printed line (Mersa Matruh)
    eng = _allied([unit("AL-MSU#1", ALLIED, "W2118")])
    _rail(eng, ["W2117"])
    assert eng.state.vars["railhead"] == "W2117"
    # MSU not on the railhead
    eng = _allied([unit("AL-MSU#1", ALLIED, "W2117")], railhead="W2118")
    with pytest.raises(IllegalAction) as exc:
        _rail(eng, ["W2117"])
    assert exc.value.rule == "18.2.1" and "railhead" in str(exc.value)
    # an Axis unit on the built line back to Alexandria
    eng = _allied([unit("AL-MSU#1", ALLIED, "W2116"), unit("GE-3Aufkl", AXIS, "W2025")], railhead="W2116")
    with pytest.raises(IllegalAction) as exc:
        _rail(eng, ["W2115"])
    assert exc.value.rule == "18.2.1" and "clear of enemy" in str(exc.value)
    # advancing into an EZOC
    eng = _allied([unit("AL-MSU#1", ALLIED, "W2118"), unit("GE-3Aufkl", AXIS, "W2115")], railhead="W2118")
    with pytest.raises(IllegalAction) as exc:
        _rail(eng, ["W2117", "W2116"])
    assert exc.value.rule == "18.2.1" and "EZOC" in str(exc.value)
    # only the Commonwealth
    eng = engine_at_movement([unit("AX-MSU#1", AXIS, "W2118")], vars={"railhead": "W2118"})
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="build_rail", side=AXIS, args={"msu": "AX-MSU#1", "hexes": ["W2117"]}))
    assert exc.value.rule == "18.2"


def test_18_2_ends_at_tobruk(desert):
    eng = _allied([unit("AL-MSU#1", ALLIED, "C2331")], railhead="C2331")
    with pytest.raises(IllegalAction) as exc:
        _rail(eng, ["C2330"])
    assert exc.value.rule == "18.2" and "Tobruk" in str(exc.value)
    assert construction.rail_advances(eng.state, ALLIED) == []


def test_18_2_enumerable_options_are_accepted(desert):
    eng = _allied([unit("AL-MSU#1", ALLIED, "W2118")], railhead="W2118")
    acts = [o.action for o in eng.pending().options if o.action.kind == "build_rail"]
    assert [a.args["hexes"] for a in acts] == [["W2117"], ["W2117", "W2116"]]
    eng.apply(acts[1])
    assert eng.state.vars["railhead"] == "W2116"
    assert not [o for o in eng.pending().options if o.action.kind == "build_rail"]   # the MSU has been used


# ---------------------------------------------------------------- 18.3 where road construction starts
from tests.playpath import Play                          # noqa: E402


def test_18_3_road_cannot_start_off_its_route_play_path():
    """18.3 names the two routes; 18.3.1 "it must link with a completed primary road hex".  Sonnenblume, the first
    Axis Movement Phase: the Axis MSU at El Agheila (C0701) is on neither route."""
    p = Play("sonnenblume", seed=1)
    p.to("movement", side=AXIS)
    assert p.state.units["AX-MSU#1"].loc == "C0701"
    exc = p.refuse("build_road", side=AXIS, msu="AX-MSU#1", road="tobruk-bypass", hexes=["C0702"])
    assert exc.rule.startswith("18.3") and "route" in str(exc)
    assert "roads_built" not in p.state.vars and not [k for k in p.state.vars if k.startswith("road:")]


def _road_engine(loc):
    """An Allied Movement Phase with an MSU and an active base (12.3: general supply) in ``loc``."""
    return _allied([unit("AL-MSU#1", ALLIED, loc), unit("AL-Base#1", ALLIED, loc, active=True)])


def _road(eng, hexes, road="sollum-sidi-barrani", msu="AL-MSU#1"):
    return eng.apply(Action(kind="build_road", side=ALLIED, args={"msu": msu, "road": road, "hexes": hexes}))


def test_18_3_1_road_starts_on_a_primary_road_hex_of_its_route(desert):
    # Sollum (W2004) is on the primary coast road: construction may start there
    eng = _road_engine("W2004")
    _road(eng, ["W2005", "W2006"])
    assert eng.state.vars["roads_built"]["sollum-sidi-barrani/Allied"] == ["W2004", "W2005", "W2006"]
    # either direction: from Sidi Barrani (W2110) westwards
    eng = _road_engine("W2110")
    _road(eng, ["W2109"])
    assert eng.state.vars["roads_built"]["sollum-sidi-barrani/Allied"] == ["W2110", "W2109"]


@pytest.mark.parametrize("loc,road,hexes", [
    ("W2107", "sollum-sidi-barrani", ["W2108"]),      # on the route but not a completed primary road hex
    ("C2229", "tobruk-bypass", ["C2130"]),            # the bypass track, not primary
    ("W2004", "tobruk-bypass", ["W2005"]),            # a primary road hex of the other route
    ("W2104", "sollum-sidi-barrani", ["W2005"]),      # a primary road hex next to the route, not on it
])
def test_18_3_road_start_refusals(desert, loc, road, hexes):
    eng = _road_engine(loc)
    with pytest.raises(IllegalAction) as exc:
        _road(eng, hexes, road=road)
    assert exc.value.rule.startswith("18.3")
    assert "roads_built" not in eng.state.vars


@pytest.mark.parametrize("hexes", [["W2105"], ["W2006"], ["W2005", "W2105"]])
def test_18_3_road_follows_its_route(desert, hexes):
    eng = _road_engine("W2004")
    with pytest.raises(IllegalAction) as exc:
        _road(eng, hexes)
    assert exc.value.rule.startswith("18.3")


def test_18_3_built_road_is_primary_for_the_mechanised_class(desert):
    """18.3 "Construction of the road converts the route into a primary road": the built hexside costs what the
    chart's primary road costs (it differs from the secondary road for the classes where the chart says so)."""
    eng = _road_engine("W2004")
    _road(eng, ["W2005"])
    gm = tec.map_for(eng.state)
    a, b = tec.Hex.parse("W2004"), tec.Hex.parse("W2005")
    assert "primary" in gm.lines[tec.Hexside.between(a, b)]
    for cls in ("mechanised", "trucked", "foot"):
        assert tec.step_cost(gm, cls, a, b)[0] == tec.road_cost(cls, "primary")


def test_18_3_each_side_has_its_own_marker_on_a_road(desert):
    """18.3 "It is possible for both players to be working on either road simultaneously; make additional markers
    if required": the Axis marker on the Sollum road is not the Allied one, so an Allied MSU at Sidi Barrani starts
    its own construction while the Axis works from Sollum, and neither side's advance moves the other's marker."""
    from tests.ground_helpers import engine_at_movement as eam

    eng = eam([unit("AL-MSU#1", ALLIED, "W2110"), unit("AL-Base#1", ALLIED, "W2110", active=True)],
              phase=9, step=3, vars={"road:sollum-sidi-barrani/Axis": "W2005",
                                     "roads_built": {"sollum-sidi-barrani/Axis": ["W2004", "W2005"]}})
    _road(eng, ["W2109"])
    assert eng.state.vars["road:sollum-sidi-barrani/Allied"] == "W2109"
    assert eng.state.vars["road:sollum-sidi-barrani/Axis"] == "W2005"
    assert eng.state.vars["roads_built"] == {"sollum-sidi-barrani/Axis": ["W2004", "W2005"],
                                             "sollum-sidi-barrani/Allied": ["W2110", "W2109"]}


@pytest.mark.parametrize("scenario,kinds", [("sonnenblume", {"primary", "secondary"}), ("desert-fox", {"primary", "secondary"}),
                                            ("oconnors-war", {"secondary"})])
def test_18_3_scenario_finished_road_is_primary(scenario, kinds):
    """26.0/27.0 "Map Modifications: The road from Sollum (W2004) to Sidi Barrani (W2110) is complete": from the
    set-up the printed secondary road is a primary road (18.3 "converts the route into a primary road"), so any hex of
    it is a completed primary road hex (18.3.1); O'Connor's War has no such modification: still secondary."""
    from core.newgame import initial_state
    from core.scenario import load

    st = initial_state(load(scenario), 1)
    gm = tec.map_for(st)
    for a, b in (("W2005", "W2006"), ("W2108", "W2109")):
        assert gm.lines[tec.Hexside.between(tec.Hex.parse(a), tec.Hex.parse(b))] == kinds
    why = construction.road_start_refusal(st, "sollum-sidi-barrani", "W2107")
    assert (why is None) == ("primary" in kinds)
