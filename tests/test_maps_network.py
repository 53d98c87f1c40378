"""Roads, railways and the generator (issue 3): the coast road, port-to-port road paths, reproducibility."""

from __future__ import annotations

import itertools
from collections import deque

import pytest

from core import mapdata, terrain
from core.hexgrid import Hex
from core.hexinfo import describe


@pytest.fixture(scope="module")
def md():
    return mapdata.load()


def road_component(md, start: Hex) -> dict[Hex, Hex | None]:
    """BFS over primary and secondary road links (a mechanised unit's road path, 13.3)."""
    seen: dict[Hex, Hex | None] = {start: None}
    q = deque([start])
    while q:
        h = q.popleft()
        for n in md.road_neighbours(h):
            if n not in seen:
                seen[n] = h
                q.append(n)
    return seen


def test_coast_road_tripoli_to_alexandria(md):
    comp = road_component(md, Hex.parse("L2817"))
    path = [Hex.parse("W2232")]
    while comp[path[-1]] is not None:
        path.append(comp[path[-1]])
    assert path[-1] == Hex.parse("L2817")
    assert all(md.is_coastal(h) or any(md.is_coastal(n) for n in h.within(3)) for h in path), "along the coast"
    for town in ("Misurata", "Beurat", "Sirte", "El Agheila", "Benghazi", "Derna", "Tobruk", "Bardia", "Sollum",
                 "Sidi Barrani", "Mersa Matruh"):
        assert md.find(town) in comp


def test_road_tunis_to_tripoli(md):
    assert Hex.parse("T6017") in road_component(md, Hex.parse("L2817"))


def test_mechanised_road_path_between_every_pair_of_ports(md):
    ports = md.ports()
    assert len(ports) >= 20
    comp = road_component(md, ports[0])
    for a, b in itertools.combinations(ports, 2):
        assert a in comp and b in comp, f"no road path {md.name(a)} - {md.name(b)}"
    # and the cost along it is finite for a mechanised unit
    cost, path = terrain.cheapest_path("C2331", "W2232", "mech", roads_only=True)
    assert cost == len(path) - 1


def test_egyptian_railroad(md):
    """18.2: built Alexandria W2232 - Mersa Matruh W2118; unfinished on to Tobruk C2331."""
    built = md.route("egyptian_railroad")
    assert {built[0].label, built[-1].label} == {"W2232", "W2118"}
    ext = md.route("egyptian_railroad_extension")
    assert ext[0].label == "W2118" and ext[-1].label == "C2331"
    assert md.rail_between(built[0], built[1]) == "rail"


def test_fna_railway_joins_algiers_and_tunis(md):
    """13.7: the rail line in Algeria and Tunisia, with city hexes on it."""
    chain = md.route("fna_railway")
    assert {chain[0].label, chain[-1].label} == {"A6201", "T6017"}
    assert all(md.rail_between(a, b) == "rail_fna" for a, b in zip(chain, chain[1:]))


def test_constructible_roads(md):
    """18.3: Sollum W2004 - Sidi Barrani W2110 (secondary); the Tobruk Bypass from C2329 (a track)."""
    roads = md.constructible_roads()
    ss = roads["sollum_sidi_barrani"]
    assert {ss[0].label, ss[-1].label} == {"W2004", "W2110"}
    assert all(md.road_between(a, b) == "secondary" for a, b in zip(ss, ss[1:]))
    bp = roads["tobruk_bypass"]
    assert bp[0].label == "C2329" and bp[-1].label == "W2202"
    assert all(md.track_between(a, b) for a, b in zip(bp, bp[1:]))
    names = {md.name(h) for h in bp}
    assert {"Acroma", "Sidi Rezegh"} <= names
    assert "primary" in md.routes_at("W2202") and "primary" in md.routes_at("C2329")


def test_primary_road_c0701_to_w2134(md):
    """27.3: 'every hex of the primary road from C0701 to W2134' (27.0 uses 26.0, where the Sollum - Sidi
    Barrani road is already built, i.e. primary, 18.3)."""
    built = md.constructible_roads()["sollum_sidi_barrani"]
    extra = {frozenset(e) for e in zip(built, built[1:])}
    seen = {Hex.parse("C0701")}
    q = deque(seen)
    while q:
        h = q.popleft()
        nbrs = md.road_neighbours(h, ("primary",)) + [n for n in h.neighbours() if frozenset((h, n)) in extra]
        for n in nbrs:
            if n not in seen:
                seen.add(n)
                q.append(n)
    assert Hex.parse("W2134") in seen


def test_nrv_connections_are_on_their_routes(md):
    assert "track" in md.routes_at("W1434")
    assert "primary" in md.routes_at("W2034") and "primary" in md.routes_at("W2234")
    for lab in ("W1434", "W2034", "W2234"):
        assert Hex.parse(lab).g == Hex.parse("W0134").g            # on the east edge (col 34)


def test_fna_membership(md):
    """2.2.4: French North Africa = Algeria and Tunisia hexes on Maps A, T and L."""
    assert md.in_fna("T6017") and md.in_fna("A6201")
    assert not md.in_fna("L2817") and not md.in_fna("C2331")
    assert any(md.in_fna(h) for h in md.hexes() if "L" in h.sheets and md.is_land(h))


def test_winter_and_temperate(md):
    """21.1: Map A all hexes; Map C mountains; Map T north of the winter line; 6.3 temperate line."""
    assert md.winter_area("A6201") and md.winter_area("T6017")
    jebel = [h for h in md.hexes() if "C" in h.sheets and md.terrain(h) == "mountain"]
    assert jebel and all(md.winter_area(h) for h in jebel)
    assert not md.winter_area("C0701")
    assert md.temperate("T6017") and not md.ghibli_affected("T6017")
    assert md.ghibli_affected("C0602")


def test_offmap_boxes(md):
    boxes = md.offmap_boxes()
    for b in ("nrv", "cape_route", "torch", "torch_east", "italy", "sicily", "crete", "malta", "fall_braun",
              "herkules", "kufra", "gadamis", "hon", "zella", "axis_refit", "allied_refit", "axis_destroyed",
              "allied_destroyed", "axis_training", "allied_training", "upgrade", "turn_record_track",
              "air_available_next_turn", "air_superiority", "air_north_africa", "air_sicily", "air_crete",
              "air_malta", "air_torch", "air_nrv", "axis_shipping_italy", "axis_shipping_sicily",
              "allied_med_shipping", "axis_coastal_shipping", "allied_coastal_shipping", "port_boxes",
              "coastal_missions"):
        assert b in boxes, b
    fna = [k for k, v in boxes.items() if v["kind"] == "fna"]
    assert len(fna) == 7                                                   # 22.7
    assert boxes["fna_orleansville"]["connections"][0] == {"hex": "A6201", "road_hexes": 14}
    assert boxes["fna_oran"]["port"] == [3, 0] and boxes["fna_casablanca"]["port"] == [3, 0]
    assert boxes["nrv"]["port"] == [8, 0]                                  # 22.1
    met = md.met_tracks()
    assert {k: v["boxes"][-1] for k, v in met.items()} == {
        "syria": 5, "sw_asia": 5, "levant": 3, "greece": 4, "aoi": 5, "pacific": 3}
    for k, v in md.offmap_boxes().items():
        assert v.get("source") and v.get("reason"), k


def test_describe_lists_everything():
    text = describe("S0734")
    assert "C0701" in text and "S0734" in text and "El Agheila" in text
    assert "sea" in text and "marsh" in text and "primary" in text
    t2 = describe("C2308")
    assert "naval airfield" in t2 and "port: 2 standard" in t2
    assert len([ln for ln in describe("W2118").splitlines() if ln.startswith("    ")]) == 6


def test_validate_is_clean():
    assert mapdata.validate() == []


def test_generator_reproduces_map_json_byte_for_byte():
    """Issue 3: re-running resources/maps/build.py gives the committed file exactly."""
    from resources.maps import build

    fresh = build.render(build.build())
    assert fresh == build.OUT.read_text(encoding="utf-8")
