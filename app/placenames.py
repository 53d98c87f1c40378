"""Where each place name is drawn on the map, so that no two names overlap.

A name is drawn at one of a few spots around its hex — under the hex centre (the usual spot), above it
(clear of the hex number), to its right or left, or under/above but shifted half a hex sideways.  One
greedy pass, most important places first (cities, then ports, towns, forts, airfields, oases, the rest;
ties by hex label, so the layout is always the same), gives each name the first spot whose box (the text
and its halo) overlaps no name already placed.  A name that cannot keep the usual spot avoids, if it can,
the spots that would cover the counters of another named hex (where units gather).  At the close-in size every name finds a
spot; far out, where the letters are many hexes wide, a minor name with no free spot is left out rather
than printed over another.

Pure geometry: the caller measures the text (:func:`layout` takes the widths and the font's ascent and
descent) and draws it; nothing here depends on the painter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from app import geometry as geo

#: the order names are placed in: lower first (a hex with several features counts its most important)
RANK = {"city": 0, "port": 1, "town": 2, "fort": 3, "fortified": 3, "airfield": 4, "oasis": 5}
OTHER = 6
COUNTER_HALF = 26.0          # half a counter on the map (app.mapview.COUNTER), scene units

Box = tuple[float, float, float, float]      # left, top, right, bottom


@dataclass(frozen=True)
class NamePlace:
    label: str          # the hex
    name: str
    left: float         # where the text starts ...
    baseline: float     # ... and its baseline, scene units
    width: float        # the text's advance
    box: Box            # the text and its halo: no two of these overlap
    spot: str           # "below", "above", "right", "left", "below-right", ...


def importance(features: Iterable[str]) -> int:
    return min((RANK.get(f, OTHER) for f in features), default=OTHER)


def spots(x: float, y: float, w: float, ascent: float, descent: float) -> list[tuple[str, float, float]]:
    """The candidate (spot, left, baseline) of a name ``w`` wide around the hex centred at (x, y), best first."""
    R, W = geo.R, geo.W
    below = y + 0.72 * R                      # the usual spot (the text's baseline in the hex's lower half)
    above = y - 0.86 * R - descent            # the text's bottom just above the hex number
    middle = y + (ascent - descent) / 2       # vertically centred on the hex
    side = 0.7 * R                            # clear of the hex's own counter
    return [
        ("below", x - w / 2, below),
        ("above", x - w / 2, above),
        ("right", x + side, middle),
        ("left", x - side - w, middle),
        ("below-right", x - w / 2 + W / 2, below),
        ("below-left", x - w / 2 - W / 2, below),
        ("above-right", x - w / 2 + W / 2, above),
        ("above-left", x - w / 2 - W / 2, above),
    ]


def _hits(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def layout(places: Iterable[tuple[str, float, float, str, Iterable[str]]], width: Callable[[str], float],
           ascent: float, descent: float, pad: float = 0.0) -> list[NamePlace]:
    """Place every (hex label, x, y, name, features); names that find no free spot are left out.

    ``pad`` widens each name's box on every side (the halo drawn around the letters)."""
    todo = sorted(places, key=lambda p: (importance(p[4]), p[0]))
    counters = {lab: (x - COUNTER_HALF, y - COUNTER_HALF, x + COUNTER_HALF, y + COUNTER_HALF)
                for lab, x, y, _n, _f in todo}
    out: list[NamePlace] = []
    taken: list[Box] = []
    for lab, x, y, name, _f in todo:
        w = width(name)
        options = []
        for spot, left, base in spots(x, y, w, ascent, descent):
            box = (left - pad, base - ascent - pad, left + w + pad, base + descent + pad)
            if any(_hits(box, t) for t in taken):
                continue
            # the usual spot is kept whenever it is free; a name that must move avoids other places' counters
            covers = spot != "below" and any(_hits(box, c) for other, c in counters.items() if other != lab)
            options.append((covers, spot, left, base, box))
            if not covers:
                break
        if not options:
            continue
        covers, spot, left, base, box = min(options, key=lambda o: o[0])     # the first that covers no counter
        out.append(NamePlace(lab, name, left, base, w, box, spot))
        taken.append(box)
    return out
