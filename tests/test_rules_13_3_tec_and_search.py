"""13.3 one Terrain Effects Chart for every map, and the search behind the reachable-hex query and the bots'
sampled moves (issue 5 performance pass): the synthetic test maps and the real map both take their MP costs
from resources/charts/tec.toml; the real map's costs equal core.terrain.move_cost; the memoised sampled moves
equal a fresh search; hex ids round-trip on every map (A and T have negative global columns)."""

from __future__ import annotations

import random

import pytest

from core import terrain
from core.decisions import AXIS
from core.hexgrid import Hex, all_hexes
from core.rules import movement, tec
from tests.ground_helpers import engine_at_movement, unit


@pytest.fixture
def clear():
    m = tec.GroundMap(default="clear")
    tec.use_map(m)
    yield m
    tec.use_map(None)


def test_13_3_no_duplicate_cost_tables_in_the_rules():
    for name in ("HEX_COST", "SIDE_COST", "ROAD_COST"):
        assert not hasattr(tec, name), f"tec.{name} duplicates resources/charts/tec.toml"


@pytest.mark.parametrize("cls,col", [("foot", "foot"), ("horsed", "horsed"), ("trucked", "trucked"),
                                     ("mechanised", "mech")])
def test_13_3_synthetic_map_costs_are_the_charts(clear, cls, col):
    chart = terrain.tec()
    a = Hex.parse("C1010")
    b = Hex.parse("C1011")
    for terr, row in chart.raw["hex"].items():
        if terr == "sea":
            continue
        clear.set_hex(b.label, terr)
        want = row[col]
        got, route = tec.step_cost(clear, cls, a, b)
        assert got == (None if want == "P" else tec.to_eighths(want)), (terr, cls)
        assert route == "open"
    clear.set_hex(b.label, "clear")
    for terr, row in chart.raw["hexside"].items():
        if terr in ("sea", "impassable"):
            continue
        m = tec.GroundMap(default="clear").set_side(a.label, b.label, terr)
        want = row[col]
        got, _ = tec.step_cost(m, cls, a, b)
        assert got == (None if want == "P" else tec.to_eighths(1 + want)), (terr, cls)
    m = tec.GroundMap(default="rough").add_line([a.label, b.label], "primary")
    assert tec.step_cost(m, cls, a, b) == (tec.to_eighths(chart.road_cost("primary", col)), "road")
    m = tec.GroundMap(default="rough").add_line([a.label, b.label], "track")
    assert tec.step_cost(m, cls, a, b) == (tec.to_eighths(chart.hex_cost("rough", col) / 2), "track")


def test_13_3_track_lets_motorised_units_through_prohibited_terrain(clear):
    a, b = Hex.parse("C1010"), Hex.parse("C1011")
    clear.set_hex(b.label, "marsh")
    assert tec.step_cost(clear, "mechanised", a, b)[0] is None
    clear.add_line([a.label, b.label], "track")
    base = terrain.tec().raw["hex"]["marsh"]["along_track_base"]
    assert tec.step_cost(clear, "mechanised", a, b) == (tec.to_eighths(base / 2), "track")


def test_13_3_real_map_costs_equal_core_terrain():
    tec.use_map(None)
    gm = tec.current_map()
    hexes = [h for h in all_hexes() if gm.on_grid(h)]
    rng = random.Random(5)
    checked = 0
    for h in rng.sample(hexes, 500):
        for n in tec.nbrs(h):
            for cls in ("foot", "horsed", "trucked", "mechanised", "raider", "sf"):
                mine = tec.step_cost(gm, cls, h, n)
                ref = tec.external_cost(gm, cls, h, n)
                assert mine[0] == ref[0], (h.label, n.label, cls, mine, ref)
                if mine[0] is not None:
                    assert mine[1] == ref[1]
                checked += 1
    assert checked > 10_000


def test_hex_ids_round_trip_on_every_map():
    seen = set()
    for h in all_hexes():
        i = tec.hex_id(h)
        assert tec.hex_of_id(i) == h
        seen.add(i)
    assert len(seen) == len(list(all_hexes()))
    assert any(h.g < 0 for h in all_hexes())          # maps A and T lie west of global column 0


def test_13_sampled_moves_memo_equals_a_fresh_search(clear):
    clear.set_hex("C1012", "rough").set_side("C1010", "C1110", "wadi").add_line(["C1010", "C1011", "C1012"], "track")
    def make():
        return engine_at_movement([unit("GE-5Pz", AXIS, "C1010", steps=2), unit("IT-8Ber", AXIS, "C1015"),
                                   unit("UK-3LtArm", "Allied", "C1210")])

    eng = make()
    movement._FAR_CACHE.clear()
    d = eng.pending()
    assert d.kind == "movement"
    frame = eng.state.stack[-1]
    first = movement.sample_moves(eng, frame, AXIS, reaction=False)
    again = movement.sample_moves(eng, frame, AXIS, reaction=False)
    assert [o.action for o in first] == [o.action for o in again]
    for uid in ("GE-5Pz", "IT-8Ber"):
        paths = movement.reachable_paths(eng.state, AXIS, [uid], movement.MoveOptions(), max_nodes=300)
        far = sorted(paths.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:3]
        got = [o.action.args["path"] for o in first if o.action.args["units"] == [uid]]
        assert got == [p for _, p in far]
    for o in first:                                   # every sampled move is accepted
        make().apply(o.action)


def test_13_search_cache_follows_map_changes(clear):
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C1010", steps=2)])
    opts = movement.MoveOptions()
    before = movement.reachable_paths(eng.state, AXIS, ["GE-5Pz"], opts)
    clear.set_hex("C1011", "marsh")
    after = movement.reachable_paths(eng.state, AXIS, ["GE-5Pz"], opts)
    assert "C1011" in before and "C1011" not in after
