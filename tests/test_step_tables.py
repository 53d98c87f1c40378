"""The map's step tables (issue 18): the class-free adjacency with a cost per kind of step (``GroundMap.edges``,
``type_costs``, read by ``steps``, ``steps_by_id`` and the reachable-hex search) give exactly the 13.3 cost of
``tec.step_cost`` for every step of the real map, for every ground class, under winter and a Ghibli (21.1.1,
21.2.1, through ``tec.map_for`` as the rules read it) and with a road built (18.3); the real map's tables are
filled when it loads, so a first search fills none."""

from __future__ import annotations

import pytest

from core import calendar
from core.hexgrid import Hex
from core.rules import tec

CLASSES = ("foot", "horsed", "trucked", "mechanised", "raider", "sf")


def pairwise(gm: tec.GroundMap, cls: str, h: Hex) -> tuple:
    """The steps out of ``h`` computed one by one (``tec.step_cost``: the chart, then the weather)."""
    return tuple((n, *tec.step_cost(gm, cls, h, n)) for n in tec.nbrs(h) if gm.on_grid(n))


def variant(wx: str, extra: frozenset = frozenset(), roads: tuple[tuple[str, str], ...] = ()) -> tec.GroundMap:
    """A map as :func:`tec.map_for` builds it for a state with this weather and these built roads (18.3)."""
    class S:
        gt = next(g for g in range(1, 39) if (calendar.is_winter(g) if wx == "winter" else calendar.ghibli_possible(g)))
        ghibli = wx == "ghibli"
        vars = {"roads_built": {"r": [x for ab in roads for x in ab]}} if roads else {}
    if extra:
        S.vars = {**S.vars, "winter_all_T": True}
    gm = tec.map_for(S)
    assert gm.weather == wx and gm.base is tec.current_map()
    return gm


@pytest.fixture(scope="module")
def grid() -> list[Hex]:
    gm = tec.current_map()
    return tec.grid_hexes(gm)


def test_the_real_map_is_filled_when_it_loads(grid):
    gm = tec.current_map()
    assert {tec.hex_id(h) for h in grid} <= set(gm.adjacency())     # (a search may have added an off-grid hex)


@pytest.mark.parametrize("cls", CLASSES)
def test_every_step_of_the_real_map_costs_what_the_chart_says(grid, cls):
    gm = tec.current_map()
    for h in grid:
        assert gm.steps(cls, h) == pairwise(gm, cls, h), h.label


@pytest.mark.parametrize("wx,extra", [("winter", frozenset()), ("winter", frozenset({"T"})), ("ghibli", frozenset())])
def test_weather_maps_derive_their_tables_from_the_base_map(grid, wx, extra):
    gm = variant(wx, extra)
    for cls in ("foot", "mechanised", "sf"):
        for h in grid:
            assert gm.steps(cls, h) == pairwise(gm, cls, h), (wx, cls, h.label)


def test_a_built_road_changes_the_steps_along_it_only():
    a, b = Hex.parse("C1520"), Hex.parse("C1521")
    assert "secondary" not in tec.current_map().lines_between(a, b)
    gm = variant("ghibli", roads=(("C1520", "C1521"),))
    assert {tec.hex_id(a), tec.hex_id(b)} <= gm.changed
    assert dict((n, (c, r)) for n, c, r in gm.steps("mechanised", a))[b][1] == "road"   # 13.3 / 18.3: a road now
    for h in (a, b, *tec.nbrs(a), *tec.nbrs(b)):
        if gm.on_grid(h):
            assert gm.steps("mechanised", h) == pairwise(gm, "mechanised", h), h.label
