"""Background scan layer: a player's own scans of the printed map sheets, aligned to the grid.

The program draws its own map; a player who owns the printed maps may lay a scan
under the counters for comparison.  The scan is aligned with an **affine
transform** found from three hexes the player clicks on the image and names
(``C2331``): three image points and the three hex centres on the global grid
fix the six coefficients exactly.  The calibration is saved with the settings
(platformdirs), so the scan comes back next time.

Nothing here touches the rules: the layer is a picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QImageReader, QPainter, QPen, QPixmap, QTransform
from PySide6.QtWidgets import (
    QDialog, QDialogButtonBox, QFileDialog, QGraphicsEllipseItem, QGraphicsPixmapItem, QGraphicsScene,
    QGraphicsSimpleTextItem, QGraphicsView, QGridLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout,
    QWidget,
)

from app import geometry as geo

Z_SCAN = 2            # above the drawn board (0), below control (5), overlays and counters


class CalibrationError(ValueError):
    """Three points that do not fix a transform; the message says why."""


# ============================================================================ the math


def solve_affine(src: list[tuple[float, float]], dst: list[tuple[float, float]]) -> tuple[float, ...]:
    """Coefficients (a, b, c, d, e, f) with ``x = a·u + b·v + c`` and ``y = d·u + e·v + f`` mapping each
    ``src`` point (u, v) exactly onto its ``dst`` point (x, y).  Three points, not collinear."""
    if len(src) != 3 or len(dst) != 3:
        raise CalibrationError("three points are needed")
    (u1, v1), (u2, v2), (u3, v3) = src
    det = u1 * (v2 - v3) - v1 * (u2 - u3) + (u2 * v3 - u3 * v2)
    span = max(abs(u1 - u2), abs(u1 - u3), abs(v1 - v2), abs(v1 - v3), 1.0)
    if abs(det) < 1e-6 * span * span:
        raise CalibrationError("the three points on the image lie on one line: pick three hexes far apart, "
                               "not in a row")

    def row(t1: float, t2: float, t3: float) -> tuple[float, float, float]:
        # Cramer's rule on [[u1 v1 1] [u2 v2 1] [u3 v3 1]] · (p, q, r) = (t1, t2, t3)
        p = (t1 * (v2 - v3) - v1 * (t2 - t3) + (t2 * v3 - t3 * v2)) / det
        q = (u1 * (t2 - t3) - t1 * (u2 - u3) + (u2 * t3 - u3 * t2)) / det
        r = (u1 * (v2 * t3 - v3 * t2) - v1 * (u2 * t3 - u3 * t2) + t1 * (u2 * v3 - u3 * v2)) / det
        return p, q, r

    a, b, c = row(dst[0][0], dst[1][0], dst[2][0])
    d, e, f = row(dst[0][1], dst[1][1], dst[2][1])
    return a, b, c, d, e, f


def to_qtransform(coef: tuple[float, ...]) -> QTransform:
    """The image → scene transform as a QTransform (Qt's row-vector convention)."""
    a, b, c, d, e, f = coef
    return QTransform(a, d, b, e, c, f)


def hex_centre(label: str) -> tuple[float, float]:
    rec = geo.rec_of(label.strip().upper())
    if rec is None:
        raise CalibrationError(f"{label!r} is not a hex of the game (a hex number is MRRCC, e.g. C2331)")
    return rec.x, rec.y


@dataclass
class Calibration:
    """One scan and the three (image point, hex) pairs that align it."""

    path: str
    points: list[tuple[float, float, str]]      # (u, v, hex label) on the image, in image pixels

    def coefficients(self) -> tuple[float, ...]:
        labels = [p[2].strip().upper() for p in self.points]
        if len(set(labels)) != len(labels):
            raise CalibrationError("name three different hexes")
        dst = [hex_centre(lab) for lab in labels]
        xs, ys = [x for x, _ in dst], [y for _, y in dst]
        if abs((xs[1] - xs[0]) * (ys[2] - ys[0]) - (xs[2] - xs[0]) * (ys[1] - ys[0])) < 1e-6:
            raise CalibrationError("the three hexes lie in one line on the map: pick hexes far apart, not in a row")
        return solve_affine([(u, v) for u, v, _ in self.points], dst)

    def transform(self) -> QTransform:
        return to_qtransform(self.coefficients())

    def describe(self) -> str:
        """How the scan sits on the grid: hex size on the image, how far it is turned, shear (should be ~0)."""
        a, b, _c, d, e, _f = self.coefficients()
        sx, sy = math.hypot(a, d), math.hypot(b, e)          # map units per image pixel, across and down
        turned = -math.degrees(math.atan2(d, a))             # the image's rotation relative to the grid
        shear = abs(a * b + d * e) / (sx * sy) if sx and sy else 1.0
        return (f"a hex is {geo.W / sx if sx else 0:.1f} × {geo.W / sy if sy else 0:.1f} image pixels; "
                f"the scan is turned {turned:+.1f}°; shear {shear * 100:.1f}%")

    def suspicious(self) -> str:
        """A warning when the fit is far from a scaled, rotated copy (likely a misnamed or misclicked hex)."""
        a, b, _c, d, e, _f = self.coefficients()
        sx, sy = math.hypot(a, d), math.hypot(b, e)
        shear = abs(a * b + d * e) / (sx * sy) if sx and sy else 1.0
        if (sx and sy and abs(sx / sy - 1) > 0.08) or shear > 0.08:
            return ("The fit stretches or skews the scan: check the three hex numbers and the points you clicked "
                    "(a printed map is a scaled, perhaps slightly rotated copy of the grid).")
        return ""

    def to_json(self) -> dict:
        return {"path": self.path, "points": [[u, v, h] for u, v, h in self.points]}

    @classmethod
    def from_json(cls, doc: dict) -> "Calibration":
        return cls(str(doc["path"]), [(float(u), float(v), str(h)) for u, v, h in doc["points"]])


# ============================================================================ the layer


class ScanItem(QGraphicsPixmapItem):
    """One aligned scan under the counters (z between the drawn board and the overlays)."""

    def __init__(self, cal: Calibration, pixmap: QPixmap):
        super().__init__(pixmap)
        self.cal = cal
        self.setZValue(Z_SCAN)
        self.setTransformationMode(Qt.SmoothTransformation)
        self.setTransform(cal.transform())
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setAcceptHoverEvents(False)


def load_pixmap(path: str | Path) -> QPixmap:
    reader = QImageReader(str(path))
    reader.setAutoTransform(True)
    img = reader.read()
    if img.isNull():
        raise CalibrationError(f"{path}: cannot read the image ({reader.errorString()})")
    return QPixmap.fromImage(img)


# ============================================================================ calibration dialog


class _ImageView(QGraphicsView):
    clicked = Signal(QPointF)

    def __init__(self, scene: QGraphicsScene):
        super().__init__(scene)
        self.setRenderHints(QPainter.Antialiasing | QPainter.SmoothPixmapTransform)
        self.setDragMode(QGraphicsView.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)
        self._press = None

    def wheelEvent(self, event) -> None:  # noqa: N802
        f = 1.25 if event.angleDelta().y() > 0 else 0.8
        self.scale(f, f)

    def mousePressEvent(self, event) -> None:  # noqa: N802
        self._press = event.position()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        super().mouseReleaseEvent(event)
        if self._press is not None and event.button() == Qt.LeftButton \
                and (event.position() - self._press).manhattanLength() < 4:
            self.clicked.emit(self.mapToScene(event.position().toPoint()))
        self._press = None


class CalibrationDialog(QDialog):
    """Click three known hexes on the scan and name them; the transform aligns the scan with the grid."""

    COLOURS = ("#d0402f", "#2f6fd0", "#2f9a4a")

    def __init__(self, parent: QWidget | None, path: str | Path, cal: Calibration | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"Align a scan — {Path(path).name}")
        self.path = str(path)
        self.pixmap = load_pixmap(path)
        self.resize(1000, 760)
        lay = QVBoxLayout(self)
        intro = QLabel("Click the centre of three hexes you can identify on the scan — far apart, not in a row — "
                       "and type their numbers (e.g. C2331). Wheel to zoom, drag to pan. "
                       "Each click sets the next point.")
        intro.setWordWrap(True)
        lay.addWidget(intro)
        self.scene = QGraphicsScene(self)
        self.scene.addPixmap(self.pixmap)
        self.view = _ImageView(self.scene)
        self.view.clicked.connect(self.click)
        lay.addWidget(self.view, 1)
        grid = QGridLayout()
        self.point_labels: list[QLabel] = []
        self.hex_edits: list[QLineEdit] = []
        self.points: list[tuple[float, float] | None] = [None, None, None]
        self.markers: list[tuple[QGraphicsEllipseItem, QGraphicsSimpleTextItem] | None] = [None, None, None]
        for i in range(3):
            tag = QLabel(f"<b style='color:{self.COLOURS[i]}'>Point {i + 1}</b>")
            pos = QLabel("click on the image")
            pos.setMinimumWidth(160)
            edit = QLineEdit()
            edit.setPlaceholderText("hex, e.g. C2331")
            edit.setMaximumWidth(120)
            edit.textChanged.connect(self._check)
            grid.addWidget(tag, i, 0)
            grid.addWidget(pos, i, 1)
            grid.addWidget(QLabel("is hex"), i, 2)
            grid.addWidget(edit, i, 3)
            self.point_labels.append(pos)
            self.hex_edits.append(edit)
        grid.setColumnStretch(4, 1)
        lay.addLayout(grid)
        self.fit = QLabel("")
        self.fit.setWordWrap(True)
        lay.addWidget(self.fit)
        row = QHBoxLayout()
        self.reset = QPushButton("Clear the points")
        self.reset.clicked.connect(self.clear)
        row.addWidget(self.reset)
        row.addStretch(1)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText("Align")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        row.addWidget(self.buttons)
        lay.addLayout(row)
        self.next = 0
        if cal is not None:
            for u, v, h in cal.points[:3]:
                self.click(QPointF(u, v))
                self.hex_edits[self.next - 1].setText(h)
        self._check()
        self.view.fitInView(self.scene.sceneRect(), Qt.KeepAspectRatio)

    def click(self, pt: QPointF) -> None:
        i = self.next
        u = min(max(pt.x(), 0.0), float(self.pixmap.width()))
        v = min(max(pt.y(), 0.0), float(self.pixmap.height()))
        self.points[i] = (u, v)
        if self.markers[i] is not None:
            for it in self.markers[i]:
                self.scene.removeItem(it)
        r = max(4.0, self.pixmap.width() / 250)
        dot = self.scene.addEllipse(QRectF(u - r, v - r, 2 * r, 2 * r), QPen(QColor("white"), r / 3),
                                    QBrush(QColor(self.COLOURS[i])))
        txt = self.scene.addSimpleText(str(i + 1), QFont("DejaVu Sans", 10, QFont.Bold))
        txt.setBrush(QColor(self.COLOURS[i]))
        txt.setScale(r / 5)
        txt.setPos(u + r * 1.2, v - r * 2.5)
        self.markers[i] = (dot, txt)
        self.point_labels[i].setText(f"x {u:.1f}, y {v:.1f} px")
        self.hex_edits[i].setFocus()
        self.next = (i + 1) % 3
        self._check()

    def clear(self) -> None:
        for m in self.markers:
            if m is not None:
                for it in m:
                    self.scene.removeItem(it)
        self.points = [None, None, None]
        self.markers = [None, None, None]
        self.next = 0
        for lab in self.point_labels:
            lab.setText("click on the image")
        self._check()

    def calibration(self) -> Calibration:
        if any(p is None for p in self.points):
            raise CalibrationError("click three points on the image")
        labels = [e.text().strip().upper() for e in self.hex_edits]
        if not all(labels):
            raise CalibrationError("type the hex number of each point")
        return Calibration(self.path, [(p[0], p[1], h) for p, h in zip(self.points, labels)])

    def _check(self, *_a) -> None:
        ok = False
        try:
            cal = self.calibration()
            desc = cal.describe()
            warn = cal.suspicious()
            self.fit.setText(f"<span style='color:#3e7f41'>Fit: {desc}</span>"
                             + (f"<br><span style='color:#a8322a'>{warn}</span>" if warn else ""))
            ok = True
        except CalibrationError as exc:
            self.fit.setText(f"<span style='color:#7a6a4a'>{exc}</span>")
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(ok)


def choose_scan(parent: QWidget | None, start_dir: str = "") -> str:
    fn, _ = QFileDialog.getOpenFileName(parent, "Load a scan of a map sheet", start_dir,
                                        "Images (*.png *.jpg *.jpeg *.tif *.tiff *.bmp *.webp);;All files (*)")
    return fn
