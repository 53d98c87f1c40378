"""Property tests of the global hex grid (core/hexgrid.py; 2.2, 2.2.1, 2.2.2)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.hexgrid import DIRECTIONS, Hex, Hexside, all_hexes, maps

ALL = all_hexes()
hexes = st.sampled_from(ALL)
anyhex = st.builds(Hex, st.integers(-5, 70), st.integers(-50, 125))


@given(anyhex, st.sampled_from(DIRECTIONS))
def test_neighbour_symmetry(h, d):
    n = h.neighbour(d)
    assert h in n.neighbours(on_grid_only=False)
    assert n.neighbour(DIRECTIONS[(DIRECTIONS.index(d) + 3) % 6]) == h
    assert h.distance(n) == 1
    assert Hexside.between(h, n) == Hexside.between(n, h)


@given(anyhex, anyhex, anyhex)
def test_distance_is_a_metric(a, b, c):
    assert a.distance(a) == 0
    assert a.distance(b) == b.distance(a)
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(anyhex, anyhex)
def test_line_is_a_shortest_path(a, b):
    line = a.line_to(b)
    assert line[0] == a and line[-1] == b and len(line) == a.distance(b) + 1
    assert all(x.distance(y) == 1 for x, y in zip(line, line[1:]))


@given(hexes)
@settings(max_examples=300)
def test_label_round_trip(h):
    for lab in h.labels:
        assert Hex.parse(lab) == h
        assert Hex.parse(lab.lower()) == h
    assert Hex.parse(h.label) == h


@given(hexes)
def test_overlapping_maps_share_one_hex(h):
    """2.2.1: where maps overlap a hex is one hex of the game with a label on each map."""
    assert len(set(h.labels)) == len(h.sheets) >= 1
    assert h.label == h.labels[0]
    tops = [maps()[m].top for m in h.sheets]
    assert tops == sorted(tops, reverse=True)


@given(anyhex, st.integers(0, 4))
def test_within_and_ring(h, r):
    ring = h.ring(r)
    assert len(ring) == (1 if r == 0 else 6 * r) and all(h.distance(x) == r for x in ring)
    assert len(h.within(r, on_grid_only=False)) == 1 + 3 * r * (r + 1)


def test_overlap_examples():
    assert Hex.parse("S0734") == Hex.parse("C0701")          # El Agheila (EoP, 25.1)
    assert Hex.parse("C0134").label_on("W") == "W0101"        # C column 34 is W column 01
    assert Hex.parse("L1633").labels == ("L1633", "S1616")    # Beurat: L on top of S (rulings)
    assert Hex.parse("L2909").labels[0] == "L2909"            # L lies on T (30.1, 30.3)
    assert Hex.parse("W2104").distance(Hex.parse("C2331")) == 7   # Bardia - Tobruk (design note)


def test_every_map_hex_once():
    assert len(ALL) == len(set(ALL))
    total = sum(len(list(m.hexes())) for m in maps().values())
    assert total > len(ALL)                                   # some hexes are on two maps
