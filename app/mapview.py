"""The map: all six maps on the global grid in one QGraphicsScene.

Layers (each can be toggled): map sheets, terrain, roads/tracks/rail, hex grid,
hex labels (``C2331``), place names, control, highlights (legal targets of the
pending decision, engine overlays), counters.  The static board is cut into
tiles of prebuilt ``QPainterPath`` s, so a repaint costs a handful of C++ calls
per tile; when zoomed far out the whole board is drawn from one cached image.
Hex labels, counter values and status markers appear as you zoom in (level of
detail).
"""

from __future__ import annotations

import copy
import math
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field

from PySide6.QtCore import QEasingCurve, QPointF, QRectF, QSize, Qt, QTimer, QVariantAnimation, Signal
from PySide6.QtGui import (
    QColor, QFont, QFontMetrics, QFontMetricsF, QImage, QPainter, QPainterPath, QPainterPathStroker, QPen, QPixmap,
    QPolygonF, QStaticText, QTransform,
)
from PySide6.QtWidgets import (
    QFrame, QGraphicsItem, QGraphicsScene, QGraphicsView, QStyleOptionGraphicsItem, QWidget,
)

from app import counterart, geometry as geo, mapinfo, placenames, theme
from core.hexgrid import maps

LOD_LABELS = 0.62      # hex numbers from this scale up
LOD_VECTOR = 0.30      # below: the board comes from the cached overview image
LOD_VALUES = 0.45      # counter values from this scale up
OVERVIEW_SCALE = 0.3   # resolution of the cached overview image (pixels per scene unit)
TILE_ROWS, TILE_COLS = 8, 12
TILE_MAX_SCALE = 1.0                 # above this zoom the board is drawn directly (tile pixmaps cost more than they save)
TILE_CACHE_BYTES = 192 * 1024 * 1024
PRESCALED_BYTES = 96 * 1024 * 1024   # far out: the overview (with place names) pre-scaled per zoom step
LABEL_PX = 10                        # hex number size, scene units


def _lod(painter: QPainter) -> float:
    return QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())


# ============================================================================ static board


@dataclass
class Tile:
    rect: QRectF
    recs: list[geo.HexRec] = field(default_factory=list)
    terrain: dict[str, QPainterPath] = field(default_factory=dict)
    grid: QPainterPath = field(default_factory=QPainterPath)
    sides: dict[str, QPainterPath] = field(default_factory=dict)
    ticks: QPainterPath = field(default_factory=QPainterPath)
    lines: dict[str, QPainterPath] = field(default_factory=dict)


class BoardItem(QGraphicsItem):
    """Sheets, terrain, hexsides, roads, grid, labels and names: everything that does not move."""

    def __init__(self, layers: dict[str, bool]):
        super().__init__()
        self.layers = layers
        self.info = mapinfo.load()
        self._rect = geo.extent().adjusted(-geo.W * 2, -geo.R * 3, geo.W * 2, geo.R * 3)
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption, True)
        self.setZValue(0)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self._build()
        self._overview: QImage | None = None
        self._overview_key: tuple | None = None
        self._tile_cache: OrderedDict[tuple, QPixmap] = OrderedDict()   # (tile, zoom bucket, layers) -> pixmap
        self._tile_bytes = 0
        self._prescaled: OrderedDict[tuple, QImage] = OrderedDict()      # (zoom step, layers) -> board image
        self._prescaled_bytes = 0
        self._labels: dict[str, tuple[QStaticText, float]] = {}          # hex number -> laid-out text, width
        self._label_font = QFont("DejaVu Sans Condensed")
        self._label_font.setPixelSize(LABEL_PX)
        self.cache_tiles = True
        self.zooming = False

    # -------------------------------------------------------------- build once
    def _build(self) -> None:
        tiles: dict[tuple[int, int], Tile] = {}
        for (row, g), rec in geo.board().items():
            key = (row // TILE_ROWS, g // TILE_COLS)
            t = tiles.get(key)
            if t is None:
                t = tiles[key] = Tile(QRectF())
            t.recs.append(rec)
        for t in tiles.values():
            r = QRectF()
            edges: set[tuple] = set()
            for rec in t.recs:
                poly = geo.polygon(rec.hex)
                terr = self.info.terrain.get(rec.label, "")
                path = t.terrain.get(terr)
                if path is None:
                    path = t.terrain[terr] = QPainterPath()
                path.addPolygon(poly)
                path.closeSubpath()
                # the grid as unique edges: neighbouring hexes share a side, drawn once (half the segments)
                pts = [(round(poly[i].x(), 2), round(poly[i].y(), 2)) for i in range(poly.size())]
                if len(pts) > 1 and pts[0] == pts[-1]:
                    pts = pts[:-1]
                for a, b in zip(pts, pts[1:] + pts[:1]):
                    e = (a, b) if a <= b else (b, a)
                    if e not in edges:
                        edges.add(e)
                        t.grid.moveTo(*e[0])
                        t.grid.lineTo(*e[1])
                r = r.united(poly.boundingRect())
            t.rect = r
        self.tiles = list(tiles.values())
        self._tile_of = {(rec.hex.row, rec.hex.g): t for t in self.tiles for rec in t.recs}
        # sheets
        self.sheet_paths: dict[str, QPainterPath] = {}
        for letter, m in maps().items():
            p = QPainterPath()
            for h in m.hexes():
                p.addPolygon(geo.polygon(h))
            self.sheet_paths[letter] = p.simplified()
        # lines (roads, tracks, rail) through hex centres, cut into per-tile segments
        for kind, labels in self.info.lines:
            pts = [geo.rec_of(lab) for lab in labels]
            pts = [p for p in pts if p is not None]
            for a, b in zip(pts, pts[1:]):
                t = self._tile_of.get((a.hex.row, a.hex.g))
                if t is None:
                    continue
                path = t.lines.setdefault(kind, QPainterPath())
                path.moveTo(a.x, a.y)
                path.lineTo(b.x, b.y)
                t.rect = t.rect.united(QRectF(QPointF(a.x, a.y), QPointF(b.x, b.y)).normalized())
        # hexside features, per tile
        for (a, b), kind in self.info.hexsides.items():
            ra, rb = geo.rec_of(a), geo.rec_of(b)
            if ra is None or rb is None:
                continue
            try:
                d = ra.hex.direction_to(rb.hex)
            except ValueError:
                continue
            t = self._tile_of.get((ra.hex.row, ra.hex.g))
            if t is None:
                continue
            i, j = geo.SIDE_CORNERS[d]
            cs = geo.corners_xy(ra.x, ra.y)
            path = t.sides.setdefault(kind, QPainterPath())
            path.moveTo(cs[i])
            path.lineTo(cs[j])
            if kind == "escarpment":
                # short hachures on one side of the escarpment line
                for f in (0.25, 0.5, 0.75):
                    px = cs[i].x() + (cs[j].x() - cs[i].x()) * f
                    py = cs[i].y() + (cs[j].y() - cs[i].y()) * f
                    dx, dy = rb.x - px, rb.y - py
                    k = 7.0 / max(1e-6, (dx * dx + dy * dy) ** 0.5)
                    t.ticks.moveTo(px, py)
                    t.ticks.lineTo(px + dx * k, py + dy * k)
        # place names as ready-made paths, each at a spot around its hex where it overlaps no other name
        self._name_cache: dict[tuple[str, int], tuple[QPainterPath, QPainterPath | None]] = {}
        self._name_layouts: dict[int, list[placenames.NamePlace]] = {}    # font size -> where each name goes

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._rect

    # -------------------------------------------------------------- painting
    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:  # noqa: D401
        lod = _lod(p)
        exposed = option.exposedRect
        if p.hasClipping():
            # QGraphicsView.render / QGraphicsScene.render pass the whole board as the exposed rect (the
            # 11,000 px wide campaign map): bound it by the painter's clip, or every tile of the board is
            # drawn (or rendered into the tile cache) off-screen
            exposed = exposed.intersected(p.clipBoundingRect())
        if lod < LOD_VECTOR:
            if self.cache_tiles and self._paint_prescaled(p, exposed, lod):
                return
            img = self.overview()
            p.setRenderHint(QPainter.SmoothPixmapTransform, True)
            p.drawImage(geo.extent(), img)
            self._paint_names(p, exposed, lod)
            return
        if not self.cache_tiles or self.zooming or lod > TILE_MAX_SCALE:
            p.setRenderHint(QPainter.Antialiasing, lod < 1.5)
            self._paint_vector(p, exposed, lod)
            return
        # at rest, static layers come from per-tile pixmaps rendered at the exact zoom, so panning,
        # hover fan-outs, selections and overlays only blit pixmaps; names stay live on top.  While a
        # zoom is in progress (MapView.zooming) the vectors are drawn directly: no pixmap churn.
        bucket = round(lod, 4)
        p.setRenderHint(QPainter.SmoothPixmapTransform, False)
        for i, t in enumerate(self.tiles):
            if t.rect.intersects(exposed):
                pm, src = self._tile_pixmap(i, t, bucket)
                p.drawPixmap(src, pm, QRectF(pm.rect()))
        self._paint_names(p, exposed, lod)
        self._paint_sheet_titles(p, exposed, lod)

    def _paint_prescaled(self, p: QPainter, exposed: QRectF, lod: float) -> bool:
        """Far out: blit the exposed part of the board pre-scaled to this zoom step (overview + place names).

        At rest the step is the exact zoom, so the image maps 1:1 onto the screen.  While a zoom is in
        progress no new step is rendered: the nearest cached step is drawn scaled (names included), so
        the gesture never waits; the exact step follows once the zoom settles.  False: nothing cached yet
        while zooming (the caller draws the plain overview).
        """
        layers = tuple(sorted(self.layers.items()))
        step = round(lod, 4)
        key = (step, layers)
        img = self._prescaled.get(key)
        if img is None and self.zooming:
            near = [k for k in self._prescaled if k[1] == layers]
            if not near:
                return False
            key = min(near, key=lambda k: abs(math.log(k[0] / lod)))
            img = self._prescaled[key]
            step = key[0]
        elif img is None:
            img = self._build_prescaled(step, layers)
        self._prescaled.move_to_end(key)
        ext = geo.extent()
        src = QRectF((exposed.left() - ext.left()) * step, (exposed.top() - ext.top()) * step,
                     exposed.width() * step, exposed.height() * step).intersected(QRectF(img.rect()))
        if src.isEmpty():
            return True
        dst = QRectF(ext.left() + src.left() / step, ext.top() + src.top() / step, src.width() / step, src.height() / step)
        p.setRenderHint(QPainter.SmoothPixmapTransform, step != round(lod, 4))
        p.drawImage(dst, img, src)
        return True

    def _build_prescaled(self, step: float, layers: tuple) -> QImage:
        ext = geo.extent()
        img = QImage(QSize(max(1, math.ceil(ext.width() * step)), max(1, math.ceil(ext.height() * step))),
                     QImage.Format_ARGB32_Premultiplied)
        img.fill(Qt.transparent)
        p = QPainter(img)
        p.setRenderHint(QPainter.SmoothPixmapTransform, True)
        p.setRenderHint(QPainter.Antialiasing, True)
        p.setRenderHint(QPainter.TextAntialiasing, True)
        p.drawImage(QRectF(0, 0, ext.width() * step, ext.height() * step), self.overview())
        p.scale(step, step)
        p.translate(-ext.left(), -ext.top())
        self._paint_names(p, ext, step)
        p.end()
        self._prescaled[(step, layers)] = img
        self._prescaled_bytes += img.sizeInBytes()
        while self._prescaled_bytes > PRESCALED_BYTES and len(self._prescaled) > 1:
            _k, old = self._prescaled.popitem(last=False)
            self._prescaled_bytes -= old.sizeInBytes()
        return img

    def _label(self, label: str) -> tuple[QStaticText, float]:
        """A hex number laid out once (QStaticText): drawing it is then a glyph blit, no text layout."""
        hit = self._labels.get(label)
        if hit is None:
            st = QStaticText(label)
            st.setTextFormat(Qt.PlainText)
            st.setPerformanceHint(QStaticText.AggressiveCaching)
            st.prepare(QTransform(), self._label_font)
            hit = self._labels[label] = (st, st.size().width())
        return hit

    def _tile_pixmap(self, i: int, t: Tile, bucket: float) -> tuple[QPixmap, QRectF]:
        m = geo.W * 0.75
        src = t.rect.adjusted(-m, -m, m, m)
        key = (i, bucket, tuple(sorted(self.layers.items())))
        pm = self._tile_cache.get(key)
        if pm is not None:
            self._tile_cache.move_to_end(key)
            return pm, src
        pm = QPixmap(max(1, int(src.width() * bucket)), max(1, int(src.height() * bucket)))
        pm.fill(Qt.transparent)
        p = QPainter(pm)
        p.setRenderHint(QPainter.Antialiasing, bucket < 1.5)
        p.setRenderHint(QPainter.TextAntialiasing, True)
        p.scale(bucket, bucket)
        p.translate(-src.left(), -src.top())
        self._paint_vector(p, src, bucket, only=[t], live=False)
        p.end()
        self._tile_cache[key] = pm
        self._tile_bytes += pm.width() * pm.height() * 4
        while self._tile_bytes > TILE_CACHE_BYTES and len(self._tile_cache) > 1:
            _k, old = self._tile_cache.popitem(last=False)
            self._tile_bytes -= old.width() * old.height() * 4
        return pm, src

    def _paint_vector(self, p: QPainter, exposed: QRectF, lod: float, *, overview: bool = False,
                      only: list[Tile] | None = None, live: bool = True) -> None:
        L = self.layers
        tiles = only if only is not None else [t for t in self.tiles if t.rect.intersects(exposed)]
        # sheets (paper) and terrain: hex fills abut, so no antialiasing (faster, and no seams)
        aa = p.testRenderHint(QPainter.Antialiasing)
        p.setRenderHint(QPainter.Antialiasing, False)
        p.setPen(Qt.NoPen)
        for t in tiles:
            for terr, path in t.terrain.items():
                if L.get("terrain", True) and terr:
                    col = theme.TERRAIN_FILL.get(terr, theme.TERRAIN_FILL["clear"])
                else:
                    col = theme.SHEET_PAPER
                p.setBrush(QColor(col))
                p.drawPath(path)
        p.setRenderHint(QPainter.Antialiasing, aa)
        if L.get("terrain", True) and not overview:
            self._paint_features(p, exposed, lod)
        # hexside features: coastline, escarpments, wadis, ridges
        if L.get("terrain", True):
            for kind in ("coast", "wadi", "escarpment", "ridge", "impassable"):
                if kind == "coast":
                    pen = QPen(QColor(theme.COAST), 2.6)
                elif kind == "wadi":
                    pen = QPen(QColor("#6f8fa0"), 3.0, Qt.DotLine)
                elif kind == "ridge":
                    pen = QPen(QColor("#5a4030"), 4.0, Qt.DashDotLine)
                elif kind == "impassable":
                    pen = QPen(QColor("#222222"), 5.0)
                else:
                    pen = QPen(QColor(theme.ESCARPMENT), 5.0)
                pen.setCapStyle(Qt.RoundCap)
                p.setPen(pen)
                p.setBrush(Qt.NoBrush)
                for t in tiles:
                    path = t.sides.get(kind)
                    if path is not None:
                        p.drawPath(path)
            if not overview and lod >= 0.45:
                p.setPen(QPen(QColor(theme.ESCARPMENT), 2.0))
                for t in tiles:
                    if not t.ticks.isEmpty():
                        p.drawPath(t.ticks)
        # roads, tracks, rail
        if L.get("roads", True):
            p.setBrush(Qt.NoBrush)
            order = ("track", "rail_unfinished", "rail", "rail_fna", "secondary", "primary")
            for kind in sorted({k for t in tiles for k in t.lines}, key=lambda k: order.index(k) if k in order else 0):
                paths = [t.lines[kind] for t in tiles if kind in t.lines]
                if "rail" in kind:
                    passes = [QPen(QColor(theme.RAIL if kind != "rail_unfinished" else "#777777"), 4)]
                    dash = QPen(QColor("#f6f1e4"), 2.2, Qt.CustomDashLine)
                    dash.setDashPattern([3, 3])
                    passes.append(dash)
                elif "track" in kind:
                    passes = [QPen(QColor(theme.TRACK), 3, Qt.DashLine)]
                else:
                    primary = "secondary" not in kind and "minor" not in kind
                    col = theme.ROAD_PRIMARY if primary else theme.ROAD_SECONDARY
                    passes = [QPen(QColor("#f7efe0"), 8 if primary else 6, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin),
                              QPen(QColor(col), 4.5 if primary else 3, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)]
                for pen in passes:
                    p.setPen(pen)
                    for path in paths:
                        p.drawPath(path)
        # grid
        if L.get("grid", True):
            p.setBrush(Qt.NoBrush)
            pen = QPen(QColor(theme.GRID_LINE), 0 if overview else max(0.8, 1.1 / max(lod, 0.01)))
            pen.setCosmetic(not overview)
            col = QColor(theme.GRID_LINE)
            col.setAlpha(150 if lod < 1 else 200)
            pen.setColor(col)
            if not overview:
                pen.setWidthF(1.0)
            p.setPen(pen)
            p.setRenderHint(QPainter.Antialiasing, False)
            for t in tiles:
                p.drawPath(t.grid)
            p.setRenderHint(QPainter.Antialiasing, aa)
        # sheet edges
        if L.get("sheets", True):
            p.setBrush(Qt.NoBrush)
            col = QColor("#5a4630")
            col.setAlpha(110)
            pen = QPen(col, 2.0, Qt.DashLine)
            p.setPen(pen)
            for letter, path in self.sheet_paths.items():
                if path.boundingRect().intersects(exposed):
                    p.drawPath(path)
        # hex labels
        if L.get("labels", True) and lod >= LOD_LABELS and not overview:
            p.setFont(self._label_font)
            p.setPen(QColor(theme.LABEL_INK))
            top = geo.R * 0.88 - (14 - LABEL_PX * 1.2) / 2
            for t in tiles:
                for rec in t.recs:
                    if exposed.contains(rec.x, rec.y - geo.R * 0.6) or exposed.contains(rec.x, rec.y):
                        st, w = self._label(rec.label)
                        p.drawStaticText(QPointF(rec.x - w / 2, rec.y - top), st)
        if not overview and live:
            self._paint_names(p, exposed, lod)
            self._paint_sheet_titles(p, exposed, lod)

    def _paint_features(self, p: QPainter, exposed: QRectF, lod: float) -> None:
        for lab, feats in self.info.features.items():
            rec = geo.rec_of(lab)
            if rec is None or not exposed.contains(rec.x, rec.y):
                continue
            x, y = rec.x, rec.y
            if feats & {"city", "town"}:
                p.setPen(QPen(QColor("#5b4a3a"), 1.2))
                p.setBrush(QColor("#8a7866"))
                s = 13 if "city" in feats else 8
                p.drawRect(QRectF(x - s / 2 - 8, y + 6, s, s))
            if "port" in feats:
                p.setPen(QPen(QColor("#1f4e6b"), 2.2))
                p.setBrush(Qt.NoBrush)
                p.drawEllipse(QPointF(x + 12, y + 8), 3, 3)
                p.drawLine(QPointF(x + 12, y + 11), QPointF(x + 12, y + 22))
                p.drawArc(QRectF(x + 6, y + 14, 12, 9), 200 * 16, 140 * 16)
            if "airfield" in feats:
                p.setPen(QPen(QColor("#3a3a3a"), 2))
                p.drawLine(QPointF(x - 7, y - 14), QPointF(x + 7, y - 6))
                p.drawLine(QPointF(x - 7, y - 6), QPointF(x + 7, y - 14))
            if "oasis" in feats:
                p.setPen(Qt.NoPen)
                p.setBrush(QColor("#3f7d3a"))
                p.drawEllipse(QPointF(x, y + 12), 6, 6)
            if feats & {"fort", "fortified"}:
                p.setPen(QPen(QColor("#3d2b1f"), 2.5))
                p.setBrush(Qt.NoBrush)
                p.drawPolygon(QPolygonF(geo.corners_xy(x, y, 0.78)))

    @staticmethod
    def name_font(px: int) -> QFont:
        f = QFont("DejaVu Serif")
        f.setPixelSize(px)
        f.setBold(True)
        return f

    def name_layout(self, px: int) -> list[placenames.NamePlace]:
        """Where each place name goes at font size ``px`` (scene units): no two overlap, halo included
        (:mod:`app.placenames`); far out a minor name with no free spot is left out."""
        hit = self._name_layouts.get(px)
        if hit is None:
            f = self.name_font(px)
            fm = QFontMetricsF(f)
            places = [(lab, rec.x, rec.y, name, self.info.features.get(lab, ()))
                      for lab, name in self.info.names.items() if (rec := geo.rec_of(lab)) is not None]
            # whole-pixel advances, as the names were always centred
            hit = self._name_layouts[px] = placenames.layout(
                places, QFontMetrics(f).horizontalAdvance, fm.ascent(), fm.descent(), pad=px * 0.14 + 1)
        return hit

    def _paint_names(self, p: QPainter, exposed: QRectF, lod: float) -> None:
        if not self.layers.get("names", True) or not self.info.names:
            return
        px = int(15 if lod >= 0.5 else max(15, 11 / max(lod, 0.05)))
        f = self.name_font(px)
        p.setFont(f)
        halo = QPen(QColor(255, 250, 235, 220), px * 0.28, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)
        ink = QColor(theme.PLACE_INK)
        halo_col = QColor(255, 250, 235, 220)
        p.setPen(Qt.NoPen)
        for n in self.name_layout(px):
            left, top, right, bottom = n.box
            if not exposed.intersects(QRectF(left, top, right - left, bottom - top)):
                continue
            key = (n.name, px)
            hit = self._name_cache.get(key)
            if hit is None:
                # the text and its halo outline built once: filling two ready paths per frame instead of
                # stroking the glyph outlines with a wide round-joined pen every frame
                path = QPainterPath()
                path.addText(QPointF(-n.width / 2, 0), f, n.name)
                # the halo's outline only at the fixed close-in size (far out each zoom step has its own size;
                # there the halo is stroked live); filled under the text it looks exactly like the stroke
                ring = QPainterPathStroker(halo).createStroke(path).simplified() if px == 15 else None
                hit = self._name_cache[key] = (path, ring)
            path, ring = hit
            x, y = n.left + n.width / 2, n.baseline
            p.translate(x, y)
            if ring is not None:
                p.setBrush(halo_col)
                p.drawPath(ring)
            else:
                p.setPen(halo)
                p.setBrush(Qt.NoBrush)
                p.drawPath(path)
                p.setPen(Qt.NoPen)
            p.setBrush(ink)
            p.drawPath(path)
            p.translate(-x, -y)

    def _paint_sheet_titles(self, p: QPainter, exposed: QRectF, lod: float) -> None:
        if not self.layers.get("sheets", True) or lod > 0.9:
            return
        f = QFont("DejaVu Serif")
        f.setPixelSize(int(min(160, 30 / max(lod, 0.05))))
        f.setBold(True)
        p.setFont(f)
        for letter, m in maps().items():
            rect = self.sheet_paths[letter].boundingRect()
            if not rect.intersects(exposed):
                continue
            col = QColor(theme.LABEL_INK)
            col.setAlpha(70)
            p.setPen(col)
            p.drawText(rect.adjusted(0, 0, 0, -geo.R), Qt.AlignHCenter | Qt.AlignBottom, f"{letter} · {m.name.upper()}")

    def overview(self) -> QImage:
        """The whole board rendered once at OVERVIEW_SCALE (used far out and by the minimap)."""
        key = tuple(sorted(self.layers.items()))
        if self._overview is not None and self._overview_key == key:
            return self._overview
        ext = geo.extent()
        img = QImage(QSize(int(ext.width() * OVERVIEW_SCALE), int(ext.height() * OVERVIEW_SCALE)),
                     QImage.Format_ARGB32_Premultiplied)
        img.fill(Qt.transparent)
        p = QPainter(img)
        p.setRenderHint(QPainter.Antialiasing, True)
        p.scale(OVERVIEW_SCALE, OVERVIEW_SCALE)
        p.translate(-ext.left(), -ext.top())
        self._paint_vector(p, ext, OVERVIEW_SCALE, overview=True)
        p.resetTransform()
        p.scale(OVERVIEW_SCALE, OVERVIEW_SCALE)
        p.translate(-ext.left(), -ext.top())
        self._paint_sheet_titles(p, ext, 0.2)
        p.end()
        self._overview, self._overview_key = img, key
        return img

    def invalidate(self) -> None:
        """Repaint; cached tiles, the overview and its pre-scaled steps are keyed by the layers, so a layer change
        re-renders them and anything else (units, overlays) keeps them."""
        self.update()

    def drop_tile_cache(self) -> None:
        self._tile_cache.clear()
        self._tile_bytes = 0
        self._prescaled.clear()
        self._prescaled_bytes = 0
        self.update()


# ============================================================================ overlays


def _label_font(p: QPainter, px: int = 13) -> None:
    """Set the bold font of the texts drawn on the map (overlay texts, badges, captions: 13 px)."""
    f = QFont("DejaVu Sans")
    f.setPixelSize(px)
    f.setBold(True)
    p.setFont(f)


class _CellsItem(QGraphicsItem):
    """A map item drawn over some hexes, a (text, colour or None) each; bounded by those hexes."""

    SPAN = (1.2, 2.4)       # the bounds of a hex: from this many hex radii above its centre, this many high

    def __init__(self, z: float):
        super().__init__()
        self.setZValue(z)
        self.cells: dict[str, tuple[str, str | None]] = {}    # label -> (text, colour or None)
        self._rect = QRectF()
        self.setAcceptedMouseButtons(Qt.NoButton)

    def _keep(self, cells: dict[str, tuple[str, str | None]]) -> dict[str, tuple[str, str | None]]:
        return dict(cells)

    def set_cells(self, cells: dict[str, tuple[str, str | None]]) -> None:
        self.prepareGeometryChange()
        self.cells = self._keep(cells)
        top, height = self.SPAN
        r = QRectF()
        for lab in self.cells:
            rec = geo.rec_of(lab)
            if rec is not None:
                r = r.united(QRectF(rec.x - geo.W, rec.y - geo.R * top, geo.W * 2, geo.R * height))
        self._rect = r
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect


class HexOverlay(_CellsItem):
    """Translucent hexes with an optional text each (legal targets, reachable MP, control...)."""

    def __init__(self, z: float, fill: str, edge: str, alpha: int = 110):
        super().__init__(z)
        self.fill, self.edge, self.alpha = fill, edge, alpha

    def paint(self, p: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        if not self.cells:
            return
        lod = _lod(p)
        p.setRenderHint(QPainter.Antialiasing, True)
        _label_font(p)
        for lab, (text, colour) in self.cells.items():
            rec = geo.rec_of(lab)
            if rec is None or not option.exposedRect.adjusted(-geo.W, -geo.W, geo.W, geo.W).contains(rec.x, rec.y):
                continue
            col = QColor(colour or self.fill)
            col.setAlpha(self.alpha)
            p.setBrush(col)
            pen = QPen(QColor(self.edge), 2.5)
            p.setPen(pen)
            p.drawPolygon(QPolygonF(geo.corners_xy(rec.x, rec.y, 0.9)))
            if text and lod >= 0.35:
                p.setPen(QColor("#2b2416"))
                p.drawText(QRectF(rec.x - geo.W / 2, rec.y + geo.R * 0.25, geo.W, 18), Qt.AlignCenter, text)


class SelectionItem(QGraphicsItem):
    def __init__(self):
        super().__init__()
        self.setZValue(40)
        self.label: str | None = None
        self.setAcceptedMouseButtons(Qt.NoButton)

    def set_hex(self, label: str | None) -> None:
        self.prepareGeometryChange()
        self.label = label
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        rec = geo.rec_of(self.label) if self.label else None
        if rec is None:
            return QRectF()
        return QRectF(rec.x - geo.W, rec.y - geo.R * 1.3, geo.W * 2, geo.R * 2.6)

    def paint(self, p: QPainter, option, widget=None) -> None:
        rec = geo.rec_of(self.label) if self.label else None
        if rec is None:
            return
        p.setRenderHint(QPainter.Antialiasing, True)
        p.setBrush(Qt.NoBrush)
        p.setPen(QPen(QColor(0, 0, 0, 120), 7))
        p.drawPolygon(QPolygonF(geo.corners_xy(rec.x, rec.y, 0.97)))
        p.setPen(QPen(QColor(theme.SELECTION), 4))
        p.drawPolygon(QPolygonF(geo.corners_xy(rec.x, rec.y, 0.97)))


class BadgeItem(_CellsItem):
    """Short texts in a label box above a hex, drawn over the counters (odds on an enemy stack...)."""

    SPAN = (1.6, 1.2)

    def __init__(self):
        super().__init__(36)

    def _keep(self, cells: dict[str, tuple[str, str | None]]) -> dict[str, tuple[str, str | None]]:
        return {k: v for k, v in cells.items() if v[0]}

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setRenderHint(QPainter.Antialiasing, True)
        _label_font(p)
        for lab, (text, colour) in self.cells.items():
            rec = geo.rec_of(lab)
            if rec is None:
                continue
            w = max(40.0, 8.5 * len(text) + 10)
            box = QRectF(rec.x - w / 2, rec.y - geo.R - 12, w, 20)
            p.setPen(QPen(QColor(0, 0, 0, 170), 1.2))
            p.setBrush(QColor(colour or "#fff8e6"))
            p.drawRoundedRect(box, 5, 5)
            p.setPen(QColor("#ffffff" if colour else "#2b2416"))
            p.drawText(box, Qt.AlignCenter, text)


class RouteItem(QGraphicsItem):
    """Paths drawn through hex centres with an arrowhead: move previews, declared attacks, retreat paths."""

    def __init__(self):
        super().__init__()
        self.setZValue(35)
        self.routes: list[tuple[list[str], str, str]] = []     # (hex labels, colour, caption at the end)
        self._rect = QRectF()
        self.setAcceptedMouseButtons(Qt.NoButton)

    def set_routes(self, routes: list[tuple[list[str], str, str]]) -> None:
        self.prepareGeometryChange()
        self.routes = [(list(r[0]), r[1], r[2]) for r in routes if len(r[0]) >= 1]
        rect = QRectF()
        for labels, _c, _t in self.routes:
            for lab in labels:
                rec = geo.rec_of(lab)
                if rec is not None:
                    rect = rect.united(QRectF(rec.x - geo.W * 1.5, rec.y - geo.R * 1.5, geo.W * 3, geo.R * 3))
        self._rect = rect
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setRenderHint(QPainter.Antialiasing, True)
        for labels, colour, caption in self.routes:
            pts = [QPointF(r.x, r.y) for r in (geo.rec_of(lab) for lab in labels) if r is not None]
            if not pts:
                continue
            col = QColor(colour)
            if len(pts) > 1:
                for width, c in ((11.0, QColor(0, 0, 0, 110)), (6.5, col)):
                    pen = QPen(c, width, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin)
                    p.setPen(pen)
                    p.setBrush(Qt.NoBrush)
                    p.drawPolyline(QPolygonF(pts))
                a, b = pts[-2], pts[-1]
                ang = math.atan2(b.y() - a.y(), b.x() - a.x())
                tip = QPointF(b.x() - math.cos(ang) * 8, b.y() - math.sin(ang) * 8)
                head = QPolygonF([QPointF(tip.x() + math.cos(ang) * 16, tip.y() + math.sin(ang) * 16),
                                  QPointF(tip.x() + math.cos(ang + 2.5) * 15, tip.y() + math.sin(ang + 2.5) * 15),
                                  QPointF(tip.x() + math.cos(ang - 2.5) * 15, tip.y() + math.sin(ang - 2.5) * 15)])
                p.setPen(QPen(QColor(0, 0, 0, 140), 2))
                p.setBrush(col)
                p.drawPolygon(head)
                p.setPen(Qt.NoPen)
                p.setBrush(QColor(0, 0, 0, 150))
                p.drawEllipse(pts[0], 6, 6)
                p.setBrush(col)
                p.drawEllipse(pts[0], 4.5, 4.5)
            if caption:
                _label_font(p)
                end = pts[-1]
                w = max(46.0, 8.0 * len(caption))
                box = QRectF(end.x() - w / 2, end.y() - geo.R - 14, w, 20)
                p.setPen(QPen(QColor(0, 0, 0, 160), 1))
                p.setBrush(QColor(255, 250, 235, 235))
                p.drawRoundedRect(box, 4, 4)
                p.setPen(QColor("#2b2416"))
                p.drawText(box, Qt.AlignCenter, caption)


# ============================================================================ counters

COUNTER = 52.0   # counter size on the map, scene units (a hex is 69 wide)


class StackItem(QGraphicsItem):
    """The units in one hex.  Stacks show their depth; hovering fans them out."""

    def __init__(self, label: str, units: list):
        super().__init__()
        self.label = label
        self.units = units
        rec = geo.rec_of(label)
        self.setPos(rec.x, rec.y) if rec else None
        self.setZValue(20)
        self.setAcceptHoverEvents(True)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.fanned = False
        self.selected = False
        self.setToolTip("<hr>".join(counterart.tooltip(u) for u in units))

    def _offsets(self) -> list[QPointF]:
        n = len(self.units)
        if self.fanned and n > 1:
            step = COUNTER * 1.06
            x0 = -step * (n - 1) / 2
            return [QPointF(x0 + i * step, -COUNTER * 0.2) for i in range(n)]
        d = 3.5
        return [QPointF(-d * (n - 1 - i) + d * (n - 1) / 2, -d * (n - 1 - i) + d * (n - 1) / 2) for i in range(n)]

    def boundingRect(self) -> QRectF:  # noqa: N802
        offs = self._offsets()
        r = QRectF()
        for o in offs:
            r = r.united(QRectF(o.x() - COUNTER / 2 - 4, o.y() - COUNTER / 2 - 4, COUNTER + 12, COUNTER + 12))
        return r

    def paint(self, p: QPainter, option, widget=None) -> None:
        lod = _lod(p)
        detail = 1.0 if lod >= LOD_VALUES else (0.5 if lod >= 0.18 else 0.2)
        for i, (u, o) in enumerate(zip(self.units, self._offsets())):
            rect = QRectF(o.x() - COUNTER / 2, o.y() - COUNTER / 2, COUNTER, COUNTER)
            top = i == len(self.units) - 1
            face = counterart.face_of(u)
            counterart.paint_counter(p, rect, face, detail=detail if (top or self.fanned) else min(detail, 0.3),
                                     selected=self.selected and (top or self.fanned))
        n = len(self.units)
        if n > 1 and not self.fanned and lod >= 0.3:
            o = self._offsets()[-1]
            badge = QRectF(o.x() - COUNTER / 2 - 8, o.y() - COUNTER / 2 - 8, 16, 16)
            p.setPen(QPen(QColor("#ffffff"), 1.2))
            p.setBrush(QColor("#2b2416"))
            p.drawEllipse(badge)
            _label_font(p, 10)
            p.drawText(badge, Qt.AlignCenter, str(n))

    def hoverEnterEvent(self, event) -> None:  # noqa: N802
        if len(self.units) > 1:
            self.prepareGeometryChange()
            self.fanned = True
            self.setZValue(30)
            self.update()

    def hoverLeaveEvent(self, event) -> None:  # noqa: N802
        if self.fanned:
            self.prepareGeometryChange()
            self.fanned = False
            self.setZValue(20)
            self.update()


# ============================================================================ scene & view


class MapScene(QGraphicsScene):
    def __init__(self, layers: dict[str, bool]):
        super().__init__()
        self.layers = layers
        self.setItemIndexMethod(QGraphicsScene.NoIndex)
        self.setBackgroundBrush(QColor(theme.OFF_SHEET))
        self.board = BoardItem(layers)
        self.addItem(self.board)
        self.control = HexOverlay(5, "#888888", "#00000000", alpha=70)
        self.addItem(self.control)
        self.overlay = HexOverlay(8, "#6fa8dc", "#2f5f8a", alpha=90)
        self.addItem(self.overlay)
        self.targets = HexOverlay(10, theme.HIGHLIGHT, theme.HIGHLIGHT_EDGE, alpha=120)
        self.addItem(self.targets)
        self.reach = HexOverlay(9, "#9fd3a0", "#3e7f41", alpha=80)
        self.addItem(self.reach)
        self.moved = HexOverlay(25, "#6d6a60", "#4a473f", alpha=75)    # over the counters: stacks that have moved
        self.addItem(self.moved)
        self.path = HexOverlay(12, "#ffd966", "#7f6000", alpha=170)
        self.addItem(self.path)
        self.drop = HexOverlay(13, "#ffd966", "#7f6000", alpha=200)     # the hex under a dragged counter
        self.addItem(self.drop)
        self.routes = RouteItem()
        self.addItem(self.routes)
        self.badges = BadgeItem()
        self.addItem(self.badges)
        self.selection = SelectionItem()
        self.addItem(self.selection)
        self.stacks: dict[str, StackItem] = {}
        self.scans: list[QGraphicsItem] = []       # app.scan.ScanItem: the player's aligned map scans
        self.scan_opacity = 0.6
        self.setSceneRect(self.board.boundingRect())

    def set_scans(self, items: list[QGraphicsItem]) -> None:
        """The background scan layer: aligned scans between the drawn board and the overlays."""
        for it in self.scans:
            self.removeItem(it)
        self.scans = list(items)
        for it in self.scans:
            self.addItem(it)
        self.apply_layers()

    def set_scan_opacity(self, opacity: float) -> None:
        self.scan_opacity = max(0.0, min(1.0, opacity))
        for it in self.scans:
            it.setOpacity(self.scan_opacity)

    def set_units(self, units: dict) -> None:
        """Show the units of a state whose loc is a hex (off-map units live in the off-map display)."""
        by_hex: dict[str, list] = defaultdict(list)
        for u in units.values():
            rec = geo.rec_of(u.loc)
            if rec is not None:
                by_hex[rec.label].append(copy.deepcopy(u))  # the engine mutates its units in place
        for lab in list(self.stacks):
            if lab not in by_hex:
                self.removeItem(self.stacks.pop(lab))
        for lab, us in by_hex.items():
            us.sort(key=lambda u: u.id)
            old = self.stacks.get(lab)
            if old is not None:
                if old.units == us:
                    continue
                self.removeItem(old)
            item = StackItem(lab, us)
            self.stacks[lab] = item
            self.addItem(item)
        self.apply_layers()

    def set_control(self, control: dict[str, str]) -> None:
        cells = {lab: ("", theme.SIDE_COLOUR.get(side, "#888888")) for lab, side in control.items()}
        self.control.set_cells(cells)

    def apply_layers(self) -> None:
        show = self.layers.get("counters", True)
        for it in self.stacks.values():
            it.setVisible(show)
        self.control.setVisible(self.layers.get("control", False))
        self.targets.setVisible(self.layers.get("highlights", True))
        self.overlay.setVisible(self.layers.get("highlights", True))
        self.reach.setVisible(self.layers.get("highlights", True))
        self.moved.setVisible(self.layers.get("highlights", True))
        self.badges.setVisible(self.layers.get("highlights", True))
        for it in self.scans:
            it.setVisible(self.layers.get("scan", True))
            it.setOpacity(self.scan_opacity)
        self.board.invalidate()

    def select_hex(self, label: str | None) -> None:
        for lab, it in self.stacks.items():
            if it.selected != (lab == label):
                it.selected = lab == label
                it.update()
        self.selection.set_hex(label)

    def render_image(self, scale: float) -> QImage:
        """The whole map as an image (File ▸ Export map PNG, screenshots, benchmarks)."""
        rect = self.sceneRect()
        img = QImage(QSize(max(1, int(rect.width() * scale)), max(1, int(rect.height() * scale))),
                     QImage.Format_ARGB32_Premultiplied)
        img.fill(QColor(theme.OFF_SHEET))
        p = QPainter(img)
        p.setRenderHint(QPainter.Antialiasing, True)
        p.setRenderHint(QPainter.TextAntialiasing, True)
        cached, self.board.cache_tiles = self.board.cache_tiles, False   # a one-off: draw the vectors directly
        try:
            self.render(p, QRectF(img.rect()), rect)
        finally:
            self.board.cache_tiles = cached
        p.end()
        return img


class MapView(QGraphicsView):
    hexClicked = Signal(str, object)    # label, Qt.MouseButton
    hexHovered = Signal(str)
    hexDragStarted = Signal(str)        # a stack picked up (drag-to-move): its hex
    hexDragged = Signal(str, str)       # a stack dragged from one hex and dropped on another
    zoomChanged = Signal(float)

    MIN_SCALE, MAX_SCALE = 0.06, 3.0

    def __init__(self, scene: MapScene, parent: QWidget | None = None):
        super().__init__(scene, parent)
        self.drop_targets = lambda uid: {}      # uid -> {hex: (text, colour)}: fixed destinations shown under a drag
        self.setRenderHints(QPainter.Antialiasing | QPainter.TextAntialiasing | QPainter.SmoothPixmapTransform)
        self.setViewportUpdateMode(QGraphicsView.SmartViewportUpdate)
        self.setOptimizationFlags(QGraphicsView.DontSavePainterState)
        self.setDragMode(QGraphicsView.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.AnchorViewCenter)
        self.setFrameShape(QFrame.NoFrame)
        self.setBackgroundBrush(QColor(theme.OFF_SHEET))
        self.setMouseTracking(True)
        self._press: QPointF | None = None
        self._anim: QVariantAnimation | None = None
        self._last_hover = ""
        self.setToolTip("")
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(180)
        self._settle.timeout.connect(self._zoom_settled)
        self.drop_handler = None             # (unit, hex) -> bool: a counter dropped from the off-map display
        self.drag_source = lambda label: False   # hex -> whether a press there picks up a stack (drag-to-move)
        self._drag_from: str | None = None
        self._dragging = False
        self.setAcceptDrops(True)
        self.viewport().setAcceptDrops(True)

    def scale_factor(self) -> float:
        return self.transform().m11()

    def set_zoom(self, s: float) -> None:
        s = max(self.MIN_SCALE, min(self.MAX_SCALE, s))
        cur = self.scale_factor()
        if cur > 0 and abs(s - cur) > 1e-9:
            board = self.scene().board if isinstance(self.scene(), MapScene) else None
            if board is not None and self.isVisible():
                board.zooming = True
                self._settle.start()
            self.scale(s / cur, s / cur)
            self.zoomChanged.emit(s)

    def _zoom_settled(self) -> None:
        board = self.scene().board if isinstance(self.scene(), MapScene) else None
        if board is not None and board.zooming:
            board.zooming = False
            self.viewport().update()

    def zoom_smooth(self, factor: float) -> None:
        """Animated zoom about the view centre (toolbar, keyboard)."""
        start = self.scale_factor()
        end = max(self.MIN_SCALE, min(self.MAX_SCALE, start * factor))
        if self._anim is not None:
            self._anim.stop()
        anim = QVariantAnimation(self)
        anim.setDuration(160)
        anim.setStartValue(float(start))
        anim.setEndValue(float(end))
        anim.setEasingCurve(QEasingCurve.OutCubic)
        old = self.transformationAnchor()
        self.setTransformationAnchor(QGraphicsView.AnchorViewCenter)
        anim.valueChanged.connect(lambda v: self.set_zoom(float(v)))
        anim.finished.connect(lambda: self.setTransformationAnchor(old))
        self._anim = anim
        anim.start()

    def fit_all(self) -> None:
        self.fitInView(geo.extent(), Qt.KeepAspectRatio)
        self.zoomChanged.emit(self.scale_factor())

    def centre_on_hex(self, label: str, zoom: float | None = None) -> bool:
        rec = geo.rec_of(label.strip().upper())
        if rec is None:
            return False
        if zoom is not None:
            self.set_zoom(zoom)
        self.centerOn(rec.x, rec.y)
        return True

    def wheelEvent(self, event) -> None:  # noqa: N802
        delta = event.angleDelta().y() or event.pixelDelta().y()
        if delta == 0:
            return
        factor = math.pow(1.0015, delta)
        self.set_zoom(self.scale_factor() * factor)

    def mousePressEvent(self, event) -> None:  # noqa: N802
        self._press = event.position()
        rec = geo.hex_at(self.mapToScene(event.position().toPoint()))
        if event.button() == Qt.RightButton:
            if rec is not None:
                self.hexClicked.emit(rec.label, Qt.RightButton)
            return
        if event.button() == Qt.LeftButton and rec is not None and self.drag_source(rec.label):
            # a stack that can move: a press picks it up (drag-to-move) instead of panning the map
            self._drag_from, self._dragging = rec.label, False
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        if self._drag_from is not None and event.button() == Qt.LeftButton:
            frm, dragging = self._drag_from, self._dragging
            self._drag_from, self._dragging = None, False
            self.viewport().unsetCursor()
            rec = geo.hex_at(self.mapToScene(event.position().toPoint()))
            self._press = None
            if rec is None:
                return
            if dragging and rec.label != frm:
                self.hexDragged.emit(frm, rec.label)
            else:
                self.hexClicked.emit(rec.label, Qt.LeftButton)
            return
        super().mouseReleaseEvent(event)
        if event.button() == Qt.LeftButton and self._press is not None:
            moved = (event.position() - self._press).manhattanLength()
            if moved < 6:
                rec = geo.hex_at(self.mapToScene(event.position().toPoint()))
                if rec is not None:
                    self.hexClicked.emit(rec.label, Qt.LeftButton)
        self._press = None

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if self._drag_from is not None and self._press is not None and not self._dragging \
                and (event.position() - self._press).manhattanLength() >= 6:
            self._dragging = True
            self.viewport().setCursor(Qt.ClosedHandCursor)
            self.hexDragStarted.emit(self._drag_from)
        super().mouseMoveEvent(event)
        rec = geo.hex_at(self.mapToScene(event.position().toPoint()))
        lab = rec.label if rec else ""
        if lab != self._last_hover:
            self._last_hover = lab
            self.hexHovered.emit(lab)

    # -------------------------------------------------------------- counters dragged from the off-map display
    def _drop_hex(self, event) -> str:
        from app.offmap import dragged_unit

        if not dragged_unit(event.mimeData()):
            return ""
        rec = geo.hex_at(self.mapToScene(event.position().toPoint()))
        return rec.label if rec else ""

    def _show_drop(self, label: str, uid: str = "") -> None:
        scene = self.scene()
        if isinstance(scene, MapScene):
            # the fixed destination of the dragged counter's action (e.g. the primary base of a refit, 17.2)
            cells = dict(self.drop_targets(uid)) if uid and label else {}
            if label:
                cells.setdefault(label, ("drop", None))
            scene.drop.set_cells(cells)

    def dragEnterEvent(self, event) -> None:  # noqa: N802
        from app.offmap import dragged_unit

        if dragged_unit(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:  # noqa: N802
        from app.offmap import dragged_unit

        label = self._drop_hex(event)
        self._show_drop(label, dragged_unit(event.mimeData()) or "")
        if label:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragLeaveEvent(self, event) -> None:  # noqa: N802
        self._show_drop("")

    def dropEvent(self, event) -> None:  # noqa: N802
        from app.offmap import dragged_unit

        label = self._drop_hex(event)
        self._show_drop("")
        if label and self.drop_handler is not None and self.drop_handler(dragged_unit(event.mimeData()), label):
            event.setDropAction(Qt.MoveAction)
            event.accept()
        else:
            event.ignore()

    def keyPressEvent(self, event) -> None:  # noqa: N802
        k = event.key()
        if k in (Qt.Key_Plus, Qt.Key_Equal):
            self.zoom_smooth(1.4)
        elif k == Qt.Key_Minus:
            self.zoom_smooth(1 / 1.4)
        else:
            super().keyPressEvent(event)


class Minimap(QWidget):
    """The whole board in the corner of the map, with the visible area framed; click or drag to move."""

    def __init__(self, view: MapView, scene: MapScene):
        super().__init__(view)
        self.view, self.scene_ = view, scene
        self.setFixedSize(300, 104)
        self.setCursor(Qt.PointingHandCursor)
        self.setToolTip("Minimap: click or drag to move the map view")
        self._pix: QPixmap | None = None
        view.horizontalScrollBar().valueChanged.connect(self.update)
        view.verticalScrollBar().valueChanged.connect(self.update)
        view.zoomChanged.connect(lambda _s: self.update())

    def refresh(self) -> None:
        self._pix = None
        self.update()

    def _frame(self) -> QRectF:
        ext = geo.extent()
        k = min((self.width() - 8) / ext.width(), (self.height() - 8) / ext.height())
        w, h = ext.width() * k, ext.height() * k
        return QRectF((self.width() - w) / 2, (self.height() - h) / 2, w, h)

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing, True)
        p.setPen(QPen(QColor("#3c352b"), 1))
        p.setBrush(QColor(38, 34, 28, 215))
        p.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6)
        fr = self._frame()
        if self._pix is None or self._pix.size() != fr.size().toSize():
            img = self.scene_.board.overview().scaled(fr.size().toSize(), Qt.IgnoreAspectRatio, Qt.SmoothTransformation)
            self._pix = QPixmap.fromImage(img)
        p.drawPixmap(fr.topLeft(), self._pix)
        ext = geo.extent()
        k = fr.width() / ext.width()
        # units as dots
        for it in self.scene_.stacks.values():
            side = it.units[-1].side
            p.setPen(Qt.NoPen)
            p.setBrush(QColor("#1f2a30") if side == "Axis" else QColor("#9c2a1a"))
            p.drawEllipse(QPointF(fr.left() + (it.x() - ext.left()) * k, fr.top() + (it.y() - ext.top()) * k), 2.2, 2.2)
        vis = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        r = QRectF(fr.left() + (vis.left() - ext.left()) * k, fr.top() + (vis.top() - ext.top()) * k,
                   vis.width() * k, vis.height() * k).intersected(fr)
        p.setBrush(QColor(255, 239, 138, 40))
        p.setPen(QPen(QColor(theme.SELECTION), 1.6))
        p.drawRect(r)

    def _goto(self, pos: QPointF) -> None:
        fr = self._frame()
        ext = geo.extent()
        k = fr.width() / ext.width()
        self.view.centerOn(ext.left() + (pos.x() - fr.left()) / k, ext.top() + (pos.y() - fr.top()) / k)

    def mousePressEvent(self, event) -> None:  # noqa: N802
        self._goto(event.position())

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if event.buttons() & Qt.LeftButton:
            self._goto(event.position())
