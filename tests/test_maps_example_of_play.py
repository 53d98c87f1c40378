"""The Example of Play's geography and the TEC facts (worked_examples.md WE-04, WE-17..WE-30, C2)."""

from __future__ import annotations

import pytest

from core import mapdata, terrain
from core.hexgrid import Hex

AUFKL = ["C0702", "C0602", "C0603", "C0504", "C0505", "C0506", "C0606", "C0706", "C0605"]


@pytest.fixture(scope="module")
def md():
    return mapdata.load()


def test_beurat_to_el_agheila_is_23_primary_road_hexes(md):
    """EoP / WE-18: Kasta and 3 Aufkl, L1633 -> C0701, 'expending 1 MP per primary road hex ... a total 23 MP'."""
    chain = md.route("via_balbia_sirte")
    assert chain[0] == Hex.parse("L1633") and chain[-1] == Hex.parse("C0701")
    assert len(chain) - 1 == 23
    assert all(md.road_between(a, b) == "primary" for a, b in zip(chain, chain[1:]))
    assert terrain.path_cost(chain, "mech") == 23
    # and no cheaper way: the road is the least-cost route for a mechanised unit
    assert terrain.cheapest_path("L1633", "C0701", "mechanised")[0] == 23


def test_road_march_5pz_and_flak(md):
    """WE-21: Beurat -> C0702 = 24 MP for mech (5 Pz needs road march, 22 + 7 = 29); 6 MP for trucked I/18 Flak."""
    chain = md.route("via_balbia_sirte") + [Hex.parse("C0702")]
    assert terrain.path_cost(chain, "mech") == 24
    assert terrain.path_cost(chain, "trucked") == 6


def test_road_hexes_on_the_eop_road(md):
    for a, b in (("C0701", "C0702"), ("C0702", "C0802"), ("C0803", "C0804")):
        assert md.road_between(a, b) == "primary"       # EoP: 1 MP moves; 3 Lt Arm 'along the primary road'
    for h in ("S1420", "S1325", "S1130"):                 # Sirte, 605 PzJg and 132 Ariete road-march there
        assert "primary" in md.routes_at(h)


def test_3_aufkl_route_is_adjacent_step_by_step():
    hexes = [Hex.parse(x) for x in AUFKL]
    assert all(a.distance(b) == 1 for a, b in zip(hexes, hexes[1:]))


def test_3_aufkl_route_terrain(md):
    """EoP (g): desert, a wadi hexside, track over rough, track over desert, track across a wadi."""
    assert [md.terrain(x) for x in AUFKL[1:]] == ["desert", "desert", "desert", "desert", "rough", "rough", "desert",
                                                  "desert"]
    assert md.hexside("C0603", "C0504") == "wadi"                                   # 0504: + 2 MP to cross Wadi
    assert md.hexside("C0606", "C0706") == "wadi" and md.track_between("C0606", "C0706")  # track/Wadi 1 MP
    for a, b in (("C0505", "C0506"), ("C0506", "C0606"), ("C0706", "C0605")):
        assert md.track_between(a, b)                                              # Track/rough, Track/desert
    for a, b in (("C0702", "C0602"), ("C0602", "C0603"), ("C0603", "C0504"), ("C0504", "C0505")):
        assert not md.track_between(a, b) and not md.road_between(a, b)


def test_3_aufkl_route_costs_18_mp():
    """EoP: 'for a total expenditure of 18 MP' (the printed items sum to 17: 0505 is desert, 2 MP; see rulings)."""
    steps = [terrain.move_cost(a, b, "mech") for a, b in zip(AUFKL, AUFKL[1:])]
    assert steps == [2, 2, 4, 2, 2, 2, 2, 1]
    assert terrain.path_cost(AUFKL, "mech", ezoc=["C0605"]) == 18   # + 1 MP EZOC in 0605 (11.4)


def test_el_agheila_cannot_be_surrounded(md):
    """EoP: 'the terrain near Agheila (C0701) makes it impossible to surround the KDG' - sea and marsh."""
    h = Hex.parse("C0701")
    kinds = {d: md.terrain(h.neighbour(d)) for d in ("NE", "NW", "SE", "SW")}
    assert kinds["NE"] == kinds["NW"] == "sea"
    assert kinds["SE"] == kinds["SW"] == "marsh"
    # only the two coast-road hexes are open to motorized units
    open_to_mech = [n for n in h.neighbours() if terrain.move_cost(h, n, "mech") is not None]
    assert sorted(n.label for n in open_to_mech) == ["C0702", "S0733"]


def test_kdg_retreat_and_nizza_overrun(md):
    """EoP: KDG retreats three hexes C0701 -> C0603; Nizza pays 8 MP = 5 terrain + 1 EZOC (11.4) + 2 overrun (13.4)."""
    assert Hex.parse("C0701").distance(Hex.parse("C0603")) == 3
    cost, _ = terrain.cheapest_path("C0701", "C0603", "mech")
    assert cost + 1 + 2 == 8


def test_ariete_from_s1130(md):
    """EoP: 132 Ariete S1130 -> C0701 -> C0603: '11 terrain costs'."""
    a, _ = terrain.cheapest_path("S1130", "C0701", "mech")
    b, _ = terrain.cheapest_path("C0701", "C0603", "mech")
    assert a + b == 11


def test_ariete_and_nizza_to_c0705():
    """EoP: C0603 -> C0705 'the two desert hexes' = 4 MP (+1 EZOC)."""
    assert terrain.path_cost(["C0603", "C0704", "C0705"], "mech") == 4


def test_cel_and_bers_c0502_to_c0705():
    """EoP: 132 Cel and 8 Bers move C0502 -> C0705 'at a cost of 9 MP' (four desert hexes + EZOC)."""
    assert terrain.cheapest_path("C0502", "C0705", "mech")[0] + 1 == 9


def test_german_stack_to_c0802_costs_1():
    assert terrain.move_cost("C0702", "C0802", "mech") == 1


def test_5pz_exploits_to_c1206_with_rma_8():
    """EoP: 5 Pz, RMA 8 (22/4 -> 6, +2 Kasta), advances into C0803 and exploits to C1206."""
    cost, _ = terrain.cheapest_path("C0803", "C1206", "mech")
    assert cost <= 8


def test_los_of_tobruk_reaches_s1030_exactly():
    """EoP: 'The LOS from Tobruk extends to S1030 (14 MMP from Tobruk)' (12.4.1, motorized MP)."""
    r = terrain.reachable("C2331", "trucked", 14)
    assert Hex.parse("S1030") in r and r[Hex.parse("S1030")] == 14
    assert Hex.parse("S1130") not in r


def test_los_of_tripoli_reaches_agedabia():
    """EoP: 'the LOS from Tripoli extends to Agadabia (C0907)'."""
    r = terrain.reachable("L2817", "trucked", 14)
    assert Hex.parse("C0907") in r and r[Hex.parse("C0907")] == 14


def test_ma_14_motorized_covers_56_coast_road_hexes(md):
    """13.2.4: 'A motorized unit with an MA of 14 could move ... eight mile markers or 56 hexes'."""
    from resources.maps.build import coast_road_chains

    chain = [Hex.parse(x) for x in coast_road_chains(md.raw["routes"])[0]]
    start = chain.index(Hex.parse("C0701"))
    leg = chain[start:start + 57]
    assert len(leg) == 57
    assert terrain.path_cost(leg, "trucked") == 14
    assert terrain.path_cost(chain[start:start + 58], "trucked") == 14.25
    markers = [h for h in leg[1:] if md.mile_marker(h)]
    assert len(markers) == 8                 # eight mile markers, 7 hexes apart
    assert terrain.path_cost(leg[:15], "mech") == 14   # for contrast: mech MA 14 = 14 hexes = 2 markers


def test_mile_markers_every_7_hexes(md):
    from resources.maps.build import coast_road_chains

    east, west = coast_road_chains(md.raw["routes"])
    for chain in (east, west):
        marked = [k for k, lab in enumerate(chain) if md.mile_marker(lab) == k]
        assert marked == list(range(7, len(chain), 7))


# ---------------------------------------------------------------- TEC facts (worked_examples.md C2)
def test_tec_facts():
    t = terrain.tec()
    assert t.hex_cost("desert", "mech") == 2                    # EoP
    assert t.hex_cost("rough", "mech") == 4                     # EoP track/rough 2 = half of 4
    assert t.side_cost("wadi", "mech") == 2                     # EoP
    assert t.road_cost("primary", "mech") == 1                  # EoP
    assert t.road_cost("primary", "trucked") == 0.25            # EoP, 13.2.4
    assert t.raw["track"]["factor"] == 0.5                      # 13.3
    assert t.other["enter_ezoc"] == 1                           # 11.4
    assert t.other["enter_ezoc_recon_superior"] == 3            # 15.3
    assert t.other["overrun"] == 2                              # 13.4
    assert t.other["rail"] == 3                                 # 13.7
    assert t.other["nrv_to_grid_w1434"] == 14 and t.other["grid_to_nrv"] == 1   # 22.1
    assert t.other["oasis_track_box_to_box"] == 14              # 16.2
    assert terrain.validate() == []


def test_every_tec_value_has_provenance():
    t = terrain.tec()
    for table in ("hex", "hexside", "road"):
        for name, row in t.raw[table].items():
            assert row.get("source") and row.get("reason"), f"{table}.{name}"


def test_roads_negate_terrain_and_tracks_halve():
    """13.3: a road through the salt marsh/mountain is open to motorized units; a track halves terrain."""
    md = mapdata.load()
    chain = md.route("via_balbia_cyrenaica")
    mountain_steps = [(a, b) for a, b in zip(chain, chain[1:]) if md.terrain(b) == "mountain"]
    assert mountain_steps, "the Via Balbia crosses the Jebel Akhdar"
    for a, b in mountain_steps:
        assert terrain.move_cost(a, b, "mech") == 1
    assert terrain.move_cost("C0505", "C0506", "mech") == terrain.tec().hex_cost("rough", "mech") / 2


def test_motorized_fraction_lost_leaving_road():
    """13.3: a motorized unit leaving a road loses the fraction of an MP it has left."""
    # C0702 -> C0701 is road (1/4), C0701 -> ... C0702 -> C0602 leaves the road: 0.25 rounds up to 1, + 2
    assert terrain.path_cost(["C0701", "C0702", "C0602"], "trucked") == 3
    assert terrain.path_cost(["C0701", "C0702", "C0602"], "mech") == 3


def test_prohibited_terrain():
    assert terrain.move_cost("C0701", "C0601", "mech") is None      # marsh (13.3)
    assert terrain.move_cost("C0701", "C0601", "foot") == 3
    assert terrain.move_cost("C0701", "C0801", "foot") is None      # sea


def test_special_classes():
    """16.1 raiders and 15.4 SF: 1 MP per hex whatever the terrain, hexsides ignored."""
    assert terrain.move_cost("C0603", "C0504", "raider") == 1
    assert terrain.move_cost("C0603", "C0504", "sf") == 1
    assert terrain.move_cost("C0701", "C0601", "raider") is None     # still no prohibited terrain


def test_weather_doubles_off_road_only():
    """21.1.1 / 21.2.1: MP costs doubled except along roads; Ghiblis do not double wadis (6.3d)."""
    assert terrain.move_cost("C0603", "C0504", "mech", weather="ghibli") == 2 * 2 + 2
    assert terrain.move_cost("C0701", "C0702", "mech", weather="ghibli") == 1
