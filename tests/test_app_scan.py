"""Background scan layer: three-hex calibration (affine) and the layer on the map, saved with the settings."""

from __future__ import annotations

import json
import math
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from PySide6.QtCore import QPointF, Qt  # noqa: E402
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QTransform  # noqa: E402

from app import geometry as geo  # noqa: E402
from app.scan import Calibration, CalibrationError, solve_affine  # noqa: E402

pytestmark = pytest.mark.gui

# a "printed map" photographed slightly rotated and scaled: scene (x, y) -> image (u, v)
ANGLE, SCALE, MARGIN = math.radians(2.5), 0.21, 25.0


def _turned(x: float, y: float) -> tuple[float, float]:
    c, s = math.cos(ANGLE), math.sin(ANGLE)
    return (x * c - y * s) * SCALE, (x * s + y * c) * SCALE


def scene_to_image(x: float, y: float) -> tuple[float, float]:
    pts = [_turned(r.x, r.y) for r in sheet_c()[:: 7]] if not _ORIGIN else []
    if pts:
        _ORIGIN.extend([min(p[0] for p in pts) - MARGIN, min(p[1] for p in pts) - MARGIN])
    u, v = _turned(x, y)
    return u - _ORIGIN[0], v - _ORIGIN[1]


_ORIGIN: list[float] = []


def sheet_c() -> list[geo.HexRec]:
    return [r for r in geo.by_label().values() if r.label.startswith("C")]


def image_rect_of_c() -> tuple[float, float, float, float]:
    pts = [scene_to_image(r.x, r.y) for r in sheet_c()]
    return min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts)


def test_solve_affine_is_exact_on_three_points():
    src = [(10.0, 20.0), (400.0, 35.0), (60.0, 300.0)]
    a, b, c, d, e, f = 1.5, -0.2, 7.0, 0.3, 2.0, -11.0
    dst = [(a * u + b * v + c, d * u + e * v + f) for u, v in src]
    got = solve_affine(src, dst)
    assert all(abs(g - w) < 1e-9 for g, w in zip(got, (a, b, c, d, e, f)))
    with pytest.raises(CalibrationError, match="one line"):
        solve_affine([(0, 0), (1, 1), (2, 2)], dst)


def test_three_hexes_map_every_hex_centre_within_a_pixel():
    picks = ["C0203", "C2916", "C0431"]
    assert all(geo.rec_of(h) for h in picks)
    exact = Calibration("scan.png", [(*scene_to_image(*_xy(h)), h) for h in picks])
    # clicks land on whole pixels, as a mouse click does at 100 %
    clicked = Calibration("scan.png", [(round(u), round(v), h) for u, v, h in exact.points])
    for cal, tol in ((exact, 1e-6), (clicked, 1.0)):
        inv, ok = cal.transform().inverted()
        assert ok
        worst = 0.0
        for r in sheet_c():
            p = inv.map(QPointF(r.x, r.y))
            u, v = scene_to_image(r.x, r.y)
            worst = max(worst, math.hypot(p.x() - u, p.y() - v))
        assert worst < tol, (cal.points, worst)
    assert "turned +2.5°" in exact.describe() and not exact.suspicious()
    # mistakes are named
    with pytest.raises(CalibrationError, match="not a hex"):
        Calibration("s", [(0, 0, "C0203"), (10, 0, "Z9999"), (0, 10, "C0431")]).coefficients()
    with pytest.raises(CalibrationError, match="different"):
        Calibration("s", [(0, 0, "C0203"), (10, 0, "C0203"), (0, 10, "C0431")]).coefficients()
    swapped = Calibration("s", [exact.points[0], (*exact.points[1][:2], "C0431"), (*exact.points[2][:2], "C2916")])
    assert swapped.suspicious()


def _xy(label: str) -> tuple[float, float]:
    r = geo.rec_of(label)
    return r.x, r.y


def fake_scan(path) -> None:
    """A synthetic 'scan' of map C: a dot at each hex centre, drawn with the known transform."""
    x0, y0, x1, y1 = image_rect_of_c()
    assert x0 > 0 and y0 > 0
    img = QImage(int(x1 + 40), int(y1 + 40), QImage.Format_RGB32)
    img.fill(QColor("#f3ead2"))
    p = QPainter(img)
    p.setRenderHint(QPainter.Antialiasing)
    p.setPen(QPen(QColor("#5a4a30"), 1))
    for r in sheet_c():
        u, v = scene_to_image(r.x, r.y)
        p.drawEllipse(QPointF(u, v), 2.5, 2.5)
    p.end()
    assert img.save(str(path))


def test_calibration_dialog_and_the_scan_layer(qtbot, dirs):
    from app.mainwindow import MainWindow
    from app.scan import CalibrationDialog, ScanItem

    scan = dirs / "map-c.png"
    fake_scan(scan)
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    w.ctl.new_game(dirs / "g.dfd", "sonnenblume", seed=1)

    dlg = CalibrationDialog(w, scan)
    qtbot.addWidget(dlg)
    dlg.show()
    ok = dlg.buttons.button(dlg.buttons.StandardButton.Ok)
    assert not ok.isEnabled()
    # point 1 by a real click on the image (zoomed in so that the click is precise), points 2 and 3 likewise
    for i, h in enumerate(["C0203", "C2916", "C0431"]):
        u, v = scene_to_image(*_xy(h))
        dlg.view.resetTransform()
        dlg.view.scale(4, 4)
        dlg.view.centerOn(u, v)
        qtbot.mouseClick(dlg.view.viewport(), Qt.LeftButton, pos=dlg.view.mapFromScene(QPointF(u, v)))
        assert dlg.points[i] is not None and math.hypot(dlg.points[i][0] - u, dlg.points[i][1] - v) < 0.5
        qtbot.keyClicks(dlg.hex_edits[i], h.lower())
    assert ok.isEnabled(), dlg.fit.text()
    assert "turned +2.5°" in dlg.fit.text()
    cal = dlg.calibration()
    w.add_scan(cal)

    # the layer: one scan item, between the drawn board and the overlays, placed over map C
    assert len(w.scene.scans) == 1
    item = w.scene.scans[0]
    assert isinstance(item, ScanItem) and item.isVisible()
    assert w.scene.board.zValue() < item.zValue() < w.scene.control.zValue()
    box = item.sceneBoundingRect()
    for h in ("C0203", "C2916", "C1520"):
        assert box.contains(QPointF(*_xy(h)))
    # a hex centre of the scan lands on the grid's hex centre (within an image pixel)
    u, v = scene_to_image(*_xy("C1520"))
    p = item.sceneTransform().map(QPointF(u, v))
    assert math.hypot(p.x() - _xy("C1520")[0], p.y() - _xy("C1520")[1]) < 1 / SCALE
    # opacity slider and layer toggle
    w.scan_opacity.setValue(35)
    assert abs(item.opacity() - 0.35) < 1e-6
    w.layer_boxes["scan"].setChecked(False)
    assert not item.isVisible()
    w.layer_boxes["scan"].setChecked(True)
    assert item.isVisible()
    # it shows in the rendered map: the scan's paper colour appears where map C is drawn
    w.scan_opacity.setValue(100)
    w.view.set_zoom(0.5)
    w.view.centerOn(*_xy("C1520"))
    img = w.view.grab().toImage()
    rec = w.view.mapFromScene(*_xy("C1520"))
    assert abs(img.pixelColor(rec.x() + 12, rec.y() + 12).red() - 0xF3) <= 3

    # saved with the settings, back in a new window
    saved = json.loads((dirs / "config" / "settings.json").read_text())
    assert saved["scans"][0]["path"] == str(scan) and saved["scan_opacity"] == 1.0
    assert [p[2] for p in saved["scans"][0]["points"]] == ["C0203", "C2916", "C0431"]
    w.close()
    w2 = MainWindow()
    qtbot.addWidget(w2)
    assert len(w2.scene.scans) == 1
    assert w2.scene.scans[0].transform() == QTransform(cal.transform())
    w2.remove_scans()
    assert not w2.scene.scans
    w2.close()
