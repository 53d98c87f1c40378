"""Render the six DFD maps (and the whole grid) to PNG in ``docs/maps/`` (issue 3).

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/render_maps.py [--scale 14] [--only C]

Each picture draws the hexes of ``resources/maps/map.json`` on the game grid (rows
northward, even rows shifted east) coloured by in-hex terrain, hexside terrain as
thick coloured edges (escarpment brown, wadi blue, ridge olive), roads, tracks and
railways between hex centres, and markers for ports, airfields, forts, towns and
named places.  ``geo_check.png`` plots every hex centre at its latitude/longitude
over the land mask, to check the fitted layout against the real coastline.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QPointF, QRectF, Qt  # noqa: E402
from PySide6.QtGui import QBrush, QColor, QFont, QGuiApplication, QImage, QPainter, QPen, QPolygonF  # noqa: E402

from core import mapdata  # noqa: E402
from core.hexgrid import Hex, maps  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "docs" / "maps"

TERRAIN_COLOURS = {
    "sea": "#7fb2d9", "clear": "#cfe3a0", "desert": "#ecd9a6", "rough": "#c6a26b", "mountain": "#8c6a4a",
    "sand_sea": "#f4c76a", "marsh": "#9fc9b5", "city": "#b0b0b0", "oasis": "#63b35e",
}
SIDE_COLOURS = {"escarpment": "#6b3b12", "wadi": "#2f6fd6", "ridge": "#6b7a1d", "impassable": "#000000"}
ROUTE_STYLE = {
    "primary": ("#c0161e", 0.22, Qt.SolidLine), "secondary": ("#e0651b", 0.16, Qt.SolidLine),
    "track": ("#6b4a2b", 0.10, Qt.DashLine), "rail": ("#111111", 0.12, Qt.SolidLine),
    "rail_unfinished": ("#111111", 0.10, Qt.DotLine), "rail_fna": ("#333366", 0.10, Qt.SolidLine),
}


def centre(h: Hex, s: float, x0: float, y1: float) -> QPointF:
    """Pixel centre: x in hex widths (axial), y northward rows drawn upward."""
    q, r = h.axial
    return QPointF((q + r / 2.0 - x0) * s, (y1 - r) * s * math.sqrt(3) / 2)


def hex_poly(c: QPointF, s: float) -> QPolygonF:
    rad = s / math.sqrt(3)
    return QPolygonF([QPointF(c.x() + rad * math.cos(math.radians(60 * i - 30)),
                              c.y() + rad * math.sin(math.radians(60 * i - 30))) for i in range(6)])


def render(hexes: list[Hex], path: Path, s: float, title: str, labels: bool) -> None:
    md = mapdata.load()
    hs = set(hexes)
    xs = [h.axial[0] + h.axial[1] / 2.0 for h in hexes]
    ys = [h.row for h in hexes]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    w = int((x1 - x0) * s) + 1
    hgt = int((y1 - y0) * s * math.sqrt(3) / 2) + int(s * 2)
    img = QImage(w, hgt, QImage.Format_RGB32)
    img.fill(QColor("#ffffff"))
    p = QPainter(img)
    p.setRenderHint(QPainter.Antialiasing)
    p.setPen(QPen(QColor("#00000030"), 0.5))
    for h in hexes:
        p.setBrush(QBrush(QColor(TERRAIN_COLOURS[md.terrain(h)])))
        p.drawPolygon(hex_poly(centre(h, s, x0, y1), s))
    # hexsides
    for side, rec in md.hexsides_items():
        if side.a not in hs and side.b not in hs:
            continue
        ca, cb = centre(side.a, s, x0, y1), centre(side.b, s, x0, y1)
        mx, my = (ca.x() + cb.x()) / 2, (ca.y() + cb.y()) / 2
        dx, dy = cb.x() - ca.x(), cb.y() - ca.y()
        ln = math.hypot(dx, dy) or 1
        half = s / math.sqrt(3) / 2
        px, py = -dy / ln * half, dx / ln * half
        p.setPen(QPen(QColor(SIDE_COLOURS[rec["terrain"]]), max(2.0, s * 0.14)))
        p.drawLine(QPointF(mx - px, my - py), QPointF(mx + px, my + py))
    # routes
    for kind in ("track", "secondary", "primary", "rail_fna", "rail_unfinished", "rail"):
        colour, width, style = ROUTE_STYLE[kind]
        p.setPen(QPen(QColor(colour), max(1.0, s * width), style))
        for a, b in md.route_edges(kind):
            if a in hs or b in hs:
                p.drawLine(centre(a, s, x0, y1), centre(b, s, x0, y1))
    # features
    font = QFont("DejaVu Sans", max(6, int(s * 0.28)))
    small = QFont("DejaVu Sans", max(5, int(s * 0.18)))
    for h in hexes:
        rec = md.hex_record(h)
        c = centre(h, s, x0, y1)
        if rec.get("port"):
            p.setPen(QPen(QColor("#003a80"), 1.5))
            p.setBrush(QBrush(QColor("#ffffff")))
            p.drawEllipse(c, s * 0.18, s * 0.18)
            p.setFont(small)
            p.drawText(QRectF(c.x() - s * 0.2, c.y() - s * 0.12, s * 0.4, s * 0.24), Qt.AlignCenter,
                       f"{rec['port'][0]}/{rec['port'][1]}")
        if rec.get("airfield"):
            p.setPen(QPen(QColor("#000000"), 1.2))
            p.drawText(QRectF(c.x() + s * 0.1, c.y() - s * 0.45, s * 0.4, s * 0.3), Qt.AlignLeft,
                       "✈" + ("N" if rec["airfield"] == "N" else ""))
        if rec.get("fort"):
            p.setPen(QPen(QColor("#000000"), max(1.5, s * 0.08)))
            p.setBrush(QColor(0, 0, 0, 0))
            p.drawPolygon(hex_poly(c, s * 0.8))
        if rec.get("town"):
            p.setPen(QColor(0, 0, 0, 0))
            p.setBrush(QBrush(QColor("#202020")))
            p.drawRect(QRectF(c.x() - s * 0.08, c.y() - s * 0.08, s * 0.16, s * 0.16))
        if rec.get("mile_marker"):
            p.setPen(QPen(QColor("#ffffff"), 1))
            p.setBrush(QBrush(QColor("#c0161e")))
            p.drawEllipse(QPointF(c.x() - s * 0.3, c.y() + s * 0.25), s * 0.08, s * 0.08)
        if rec.get("name"):
            p.setPen(QPen(QColor("#000000")))
            p.setFont(font)
            p.drawText(QRectF(c.x() - s * 2, c.y() + s * 0.15, s * 4, s * 0.5), Qt.AlignHCenter | Qt.AlignTop,
                       rec["name"])
        if labels:
            p.setPen(QPen(QColor(0, 0, 0, 150)))
            p.setFont(small)
            p.drawText(QRectF(c.x() - s * 0.5, c.y() - s * 0.48, s, s * 0.3), Qt.AlignHCenter, h.label)
    p.setPen(QPen(QColor("#000000")))
    p.setFont(QFont("DejaVu Sans", max(10, int(s * 0.6)), QFont.Bold))
    p.drawText(QRectF(10, 5, w - 20, s * 1.2), Qt.AlignLeft, title)
    p.end()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not img.save(str(path)):
        raise OSError(f"could not write {path}")
    print("wrote", path)


def render_geo(path: Path) -> None:
    """Hex centres at their lat/lon over the land mask (grey = land, blue = sea)."""
    from global_land_mask import globe
    import numpy as np

    md = mapdata.load()
    path.parent.mkdir(parents=True, exist_ok=True)
    lat0, lat1, lon0, lon1 = 28.5, 38.0, 1.5, 32.0
    k = 60.0  # px per degree
    w, h = int((lon1 - lon0) * k), int((lat1 - lat0) * k)
    lats = lat1 - (np.arange(h) + 0.5) / k
    lons = lon0 + (np.arange(w) + 0.5) / k
    ll, la = np.meshgrid(lons, lats)
    land = globe.is_land(la, ll)
    buf = np.where(land, np.uint32(0xFFD8D8D8), np.uint32(0xFFCFE6F7)).astype(np.uint32)
    raw = buf.tobytes()
    img = QImage(raw, w, h, 4 * w, QImage.Format_RGB32).copy()
    del raw
    p = QPainter(img)
    for hx in md.hexes():
        rec = md.hex_record(hx)
        x, y = (rec["lon"] - lon0) * k, (lat1 - rec["lat"]) * k
        p.setPen(QColor(0, 0, 0, 0))
        p.setBrush(QBrush(QColor(TERRAIN_COLOURS[rec["terrain"]]).darker(130)))
        p.drawEllipse(QPointF(x, y), 2.2, 2.2)
        if rec.get("name"):
            p.setPen(QPen(QColor("#000000")))
            p.setFont(QFont("DejaVu Sans", 7))
            p.drawText(QPointF(x + 3, y - 3), f"{rec['name']} {hx.label}")
    p.end()
    if not img.save(str(path)):
        raise OSError(f"could not write {path}")
    print("wrote", path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=26.0, help="pixels per hex width for single maps")
    ap.add_argument("--only", help="render only this map letter (or 'all' / 'geo')")
    ap.add_argument("--labels", action="store_true", help="print hex labels")
    args = ap.parse_args(argv)
    QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    sheets = maps()
    todo = [args.only] if args.only else [*sheets, "all", "geo"]
    for m in todo:
        if m == "all":
            render(sorted({h for s in sheets.values() for h in s.hexes()}), OUT / "all.png", 9.0,
                   "Desert Fox Deluxe: the six maps on one grid", False)
        elif m == "geo":
            render_geo(OUT / "geo_check.png")
        else:
            s = sheets[m]
            render(list(s.hexes()), OUT / f"map_{m}.png", args.scale, f"Map {m}: {s.name}", args.labels)
    return 0


if __name__ == "__main__":
    sys.exit(main())
