"""Hex geometry of the global grid in scene coordinates.

Pointy-topped hexes in horizontal rows; rows increase NORTHWARD, so row ``r`` is
drawn at ``y = -r * ROW_H``; even rows are shifted east by half a hex (even-r,
see ``resources/maps/layout.toml``).  The x position follows the axial
coordinates of :class:`core.hexgrid.Hex` so that the picture and the engine's
adjacency always agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPolygonF

from core.hexgrid import Hex, HexLabelError, all_hexes, maps

R = 40.0                      # circumradius of a hex, scene units
W = math.sqrt(3.0) * R        # width of a hex (flat side to flat side)
ROW_H = 1.5 * R               # vertical distance between rows


def centre(h: Hex) -> QPointF:
    q, r = h.axial
    return QPointF(W * (q + r / 2.0), -ROW_H * r)


def centre_xy(h: Hex) -> tuple[float, float]:
    q, r = h.axial
    return W * (q + r / 2.0), -ROW_H * r


_CORNERS = [(R * math.cos(math.radians(60 * i - 30)), R * math.sin(math.radians(60 * i - 30))) for i in range(6)]


def polygon(h: Hex, shrink: float = 0.0) -> QPolygonF:
    x, y = centre_xy(h)
    k = 1.0 - shrink
    return QPolygonF([QPointF(x + cx * k, y + cy * k) for cx, cy in _CORNERS])


def corners_xy(x: float, y: float, k: float = 1.0) -> list[QPointF]:
    return [QPointF(x + cx * k, y + cy * k) for cx, cy in _CORNERS]


#: Corner indices of the hexside facing each direction (screen y grows downward, i.e.
#: southward): 0 = ENE, 1 = ESE, 2 = S, 3 = WSW, 4 = WNW, 5 = N.
SIDE_CORNERS: dict[str, tuple[int, int]] = {
    "E": (0, 1), "SE": (1, 2), "SW": (2, 3), "W": (3, 4), "NW": (4, 5), "NE": (5, 0),
}


@dataclass(frozen=True)
class HexRec:
    hex: Hex
    label: str
    x: float
    y: float
    sheet: str


@cache
def board() -> dict[tuple[int, int], HexRec]:
    """Every hex of the game keyed by (row, global column)."""
    out: dict[tuple[int, int], HexRec] = {}
    for h in all_hexes():
        x, y = centre_xy(h)
        lab = h.label
        out[(h.row, h.g)] = HexRec(h, lab, x, y, lab[0])
    return out


@cache
def by_label() -> dict[str, HexRec]:
    out = {}
    for rec in board().values():
        out[rec.label] = rec
        for alt in rec.hex.labels:
            out.setdefault(alt, rec)
    return out


def rec_of(label: str) -> HexRec | None:
    rec = by_label().get(label)
    if rec is not None:
        return rec
    try:
        h = Hex.parse(label)
    except (HexLabelError, KeyError):
        return None
    return board().get((h.row, h.g))


@cache
def extent() -> QRectF:
    xs = [r.x for r in board().values()]
    ys = [r.y for r in board().values()]
    return QRectF(min(xs) - W, min(ys) - R * 1.2, max(xs) - min(xs) + 2 * W, max(ys) - min(ys) + R * 2.4)


@cache
def row_range() -> tuple[int, int]:
    rows = [k[0] for k in board()]
    return min(rows), max(rows)


@cache
def g_range() -> tuple[int, int]:
    gs = [k[1] for k in board()]
    return min(gs), max(gs)


def hexes_in(rect: QRectF, margin: int = 1) -> list[HexRec]:
    """Hexes whose centres lie in (or just around) a scene rectangle."""
    b = board()
    rmin, rmax = row_range()
    r_lo = max(rmin, math.floor(-rect.bottom() / ROW_H) - margin)
    r_hi = min(rmax, math.ceil(-rect.top() / ROW_H) + margin)
    out = []
    for r in range(r_lo, r_hi + 1):
        # x = W * (g - (r + (r & 1)) / 2 + r / 2) = W * (g - 0.5 * (r & 1))
        shift = 0.5 * (r & 1)
        g_lo = math.floor(rect.left() / W + shift) - margin
        g_hi = math.ceil(rect.right() / W + shift) + margin
        for g in range(g_lo, g_hi + 1):
            rec = b.get((r, g))
            if rec is not None:
                out.append(rec)
    return out


def hex_at(pt: QPointF) -> HexRec | None:
    """The hex under a scene point (cube rounding of the pixel position)."""
    r_f = -pt.y() / ROW_H
    q_f = pt.x() / W - r_f / 2.0
    x, z = q_f, r_f
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    h = Hex.from_axial(int(rx), int(rz))
    return board().get((h.row, h.g))


@cache
def sheet_outlines() -> dict[str, QPolygonF]:
    """A rectangle-ish outline per map sheet (bounding box of its hex centres)."""
    out = {}
    for letter, m in maps().items():
        pts = [centre_xy(h) for h in m.hexes()]
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        rect = QRectF(min(xs) - W / 2, min(ys) - R, max(xs) - min(xs) + W, max(ys) - min(ys) + 2 * R)
        out[letter] = QPolygonF(rect)
    return out
