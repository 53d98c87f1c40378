"""Every hex the rules name (../shared/design/gazetteer.csv) is on the right map with the features the rules imply."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from core import mapdata
from core.hexgrid import Hex, maps

GAZETTEER = Path(__file__).resolve().parent / "reference" / "gazetteer.csv"  # copy of ../shared/design/gazetteer.csv
LOCAL_COPY = [  # (hex, map letter) from the gazetteer, so the test runs without the shared folder
    "A6111", "A6201", "T6017", "L1633", "L2429", "L2624", "L2817", "L2909", "S0413", "S0734", "S0931", "S0932",
    "S1030", "S1130", "S1325", "S1410", "S1420", "C0117", "C0502", "C0504", "C0505", "C0506", "C0602", "C0603",
    "C0605", "C0606", "C0701", "C0702", "C0705", "C0706", "C0802", "C0803", "C0804", "C0907", "C1206", "C1407",
    "C1812", "C2231", "C2308", "C2309", "C2319", "C2329", "C2331", "C2410", "C2423", "C2718", "C2821", "W0106",
    "W0303", "W1434", "W2002", "W2004", "W2034", "W2104", "W2110", "W2118", "W2134", "W2232", "W2234",
]


def gazetteer_hexes() -> list[str]:
    if GAZETTEER.exists():
        with GAZETTEER.open(encoding="utf-8") as fh:
            return [r["hex"] for r in csv.DictReader(fh) if "xx" not in r["hex"]]
    return LOCAL_COPY


@pytest.fixture(scope="module")
def md():
    return mapdata.load()


@pytest.mark.parametrize("label", gazetteer_hexes())
def test_named_hex_is_land_on_its_map(md, label):
    """2.2.2: the map letter names the map the hex is printed on; every named hex is land."""
    h = Hex.parse(label)
    assert label[0] in h.sheets
    assert h.label_on(label[0]) == label
    assert md.is_land(h), f"{label} must be land"


def test_local_copy_matches_gazetteer():
    if not GAZETTEER.exists():
        pytest.skip("shared design folder not present")
    assert set(gazetteer_hexes()) == set(LOCAL_COPY)


# What the rules imply about each named hex: (label, name, city?, port?, airfield, oasis?, on a road, on a track)
IMPLIED = [
    ("L2817", "Tripoli", True, True, None, False, True, False),     # 25.3, 30.1: port, primary base
    ("T6017", "Tunis", True, True, None, False, True, False),       # 29.3 victory hex
    ("A6201", "Algiers", True, True, None, False, True, False),     # 20.2.5 landing port, 22.7 road
    ("C2331", "Tobruk", True, True, None, False, True, False),      # 2.2.2, 20.1 example
    ("C2308", "Benghazi", True, True, "N", False, True, False),     # 19.1.3 naval airfield
    ("C2309", None, False, False, "N", False, False, False),        # 19.1.3 naval airfield
    ("C2821", "Derna", False, True, "N", False, True, False),       # 19.1.3 naval airfield
    ("W2232", "Alexandria", True, True, None, False, True, False),  # 18.2
    ("C0117", "Jalo", False, False, None, True, False, True),       # 16.2.1 oasis
    ("W0106", "Siwa", False, False, None, True, False, True),       # 16.2.1 oasis
    ("W0303", "Giarabub", False, False, None, True, False, True),   # AXC-2
    ("C0701", "El Agheila", False, False, None, False, True, False),  # EoP primary road
    ("C1812", "Msus", False, False, None, False, False, True),      # on a track (design note)
    ("C2319", "Mechili", False, False, None, False, False, True),   # on a track
    ("W2118", "Mersa Matruh", False, True, None, False, True, False),  # 18.2 railhead
]


@pytest.mark.parametrize("label,name,city,port,airfield,oasis,road,track", IMPLIED)
def test_named_hex_features(md, label, name, city, port, airfield, oasis, road, track):
    h = Hex.parse(label)
    if name:
        assert md.name(h) == name
        assert md.find(name) == h
    if city:
        assert md.is_city(h)
    if port:
        assert md.port(h) is not None and md.is_coastal(h)
    if airfield:
        assert md.airfield(h) == airfield
    if oasis:
        assert md.terrain(h) == "oasis"
    routes = md.routes_at(h)
    if road:
        assert routes & {"primary", "secondary"}
    if track:
        assert "track" in routes


def test_naval_airfields_are_exactly_the_three_of_19_1_3(md):
    assert sorted(h.label for h in md.naval_airfields()) == ["C2308", "C2309", "C2821"]


def test_named_towns(md):
    for label in ("L1633", "L2429", "L2624", "S1420", "S0931", "S0932", "C0803", "C0907", "C2410", "C2423",
                  "C2718", "W2004", "W2104", "W2110"):
        h = Hex.parse(label)
        assert md.name(h), f"{label} should carry its name"
        assert md.is_town(h) or md.is_city(h) or md.terrain(h) == "oasis"


def test_el_agheila_has_two_labels():
    """El Agheila is S0734 and C0701 (Map S overlaps Map C, 2.2.1): one hex, C on top."""
    h = Hex.parse("S0734")
    assert h == Hex.parse("C0701")
    assert h.label == "C0701"
    assert set(h.labels) == {"C0701", "S0734"}


def test_rules_labels_are_primary_labels():
    """Every label the rules print for a hex is the label of the map on top, except S0734 (= C0701)."""
    for label in gazetteer_hexes():
        if label == "S0734":
            continue
        assert Hex.parse(label).label == label


def test_sirte_is_s1420(md):
    """Ruling: Sirte is S1420 (EoP); 31.1's S1410 is a typo (docs/rulings.d/maps.md)."""
    assert md.find("Sirte") == Hex.parse("S1420")
    assert md.name("S1410") is None


def test_giarabub_and_w2002(md):
    """Ruling: Giarabub is the oasis W0303; AXC-2's second 'Giarabub' at W2002 is Fort Capuzzo by Sollum."""
    assert md.find("Giarabub") == Hex.parse("W0303")
    assert md.terrain("W0303") == "oasis"
    assert md.name("W2002") == "Fort Capuzzo"
    assert Hex.parse("W2002").distance(Hex.parse("W2004")) <= 2


def test_ports_of_capacity_three(md):
    """12.2.4 and 28.3 etc.: a primary base needs a port of capacity >= 3 (Tripoli at least)."""
    big = {md.name(h) for h in md.ports() if md.port(h).capacity >= 3}
    assert {"Tripoli", "Tobruk", "Tunis", "Alexandria", "Algiers"} <= big


def test_map_sizes_match_2_2():
    """2.2: 22 inches = 34 columns; 17 inches = 30 rows (or 26 columns); 8 1/2 inches = 15 rows; 11 inches = 19 rows."""
    s = maps()
    assert {m: (x.cols[1] - x.cols[0] + 1, x.rows[1] - x.rows[0] + 1) for m, x in s.items()} == {
        "A": (26, 19), "T": (26, 39), "L": (34, 15), "S": (34, 15), "C": (34, 30), "W": (34, 30)}


def test_nrv_air_strip_columns_exist():
    """19.1.2: Wxx25 through Wxx34 are the ten columns next to Map W's east edge."""
    assert maps()["W"].cols == (1, 34)


def test_special_connection_hexes(md):
    assert md.oasis_connection("S0413") == ["hon", "zella"]          # 16.2.1
    assert md.oasis_box("C0117") == "jalo" and md.oasis_box("W0106") == "siwa"
    assert md.nrv_connection("W1434")["by"] == "track"               # 22.1
    assert md.nrv_connection("W2034")["road_hexes"] == 14
    assert md.nrv_connection("W2234")["road_hexes"] == 14
    assert md.track_between("W1434", next(n for n in Hex.parse("W1434").neighbours() if md.track_between("W1434", n)))
