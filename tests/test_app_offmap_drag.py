"""Dragging counters from the off-map display onto a map hex or a box sends the pending decision's option."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from PySide6.QtCore import QPointF, Qt  # noqa: E402
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from tests.app_kit import drag_over, drop_on, gt10_scenario, map_point, start_game  # noqa: E402

pytestmark = pytest.mark.gui

WALK = str(Path(__file__).parent / "fixtures" / "walk.toml")


@pytest.fixture
def win(qtbot, tmp_path, monkeypatch):
    from app.mainwindow import MainWindow

    monkeypatch.setenv("DFD_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DFD_DATA_DIR", str(tmp_path / "data"))
    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    w.ctl.new_game(tmp_path / "walk.dfd", WALK, seed=1)
    return w


def test_drag_a_counter_from_the_offmap_display_onto_the_map(qtbot, win):
    from app.offmap import UNIT_MIME, dragged_unit, unit_mime

    w = win
    d = w.ctl.pending()
    assert d.kind == "setup_place" and d.side == "Allied" and d.context.get("unit", "UK-KDG") == "UK-KDG"
    w.tabs.setCurrentIndex(1)
    canvas = w.offmap.canvas
    kdg, sg = canvas.unit_pos("UK-KDG"), canvas.unit_pos("UK-2SG")
    assert kdg is not None and sg is not None, "the KDG waits in 'Units to set up', the 2nd SG in the Refit Box"
    assert canvas.draggable("UK-KDG") and not canvas.draggable("UK-2SG")

    # pressing on the KDG's counter and moving starts a drag carrying the unit
    started = []
    canvas._exec = lambda drag: started.append(drag) or Qt.IgnoreAction
    qtbot.mousePress(canvas, Qt.LeftButton, pos=kdg.toPoint())
    qtbot.mouseMove(canvas, (kdg + QPointF(30, 25)).toPoint())
    assert len(started) == 1 and dragged_unit(started[0].mimeData()) == "UK-KDG"
    assert started[0].mimeData().hasFormat(UNIT_MIME) and not started[0].pixmap().isNull()
    qtbot.mouseRelease(canvas, Qt.LeftButton, pos=(kdg + QPointF(30, 25)).toPoint())
    # ... and the 2nd SG, which the decision does not offer, does not start one
    qtbot.mousePress(canvas, Qt.LeftButton, pos=sg.toPoint())
    qtbot.mouseMove(canvas, (sg + QPointF(30, 25)).toPoint())
    assert len(started) == 1
    qtbot.mouseRelease(canvas, Qt.LeftButton, pos=(sg + QPointF(30, 25)).toPoint())

    # hovering the "Map" tab with the counter opens the map
    bar = w.tabs.tabBar()
    pos = bar.tabRect(0).center()
    mime = unit_mime("UK-KDG")      # the event does not own its mime data: keep it alive
    QApplication.sendEvent(bar, QDragEnterEvent(pos, Qt.MoveAction, mime, Qt.LeftButton, Qt.NoModifier))
    assert w.tabs.currentIndex() == 0

    # dropped too far from C0603: placement is free-form, so the engine judges it and refuses with its rule
    assert not drop_on(w.view.viewport(), map_point(w, "C0610"), unit_mime("UK-KDG"))
    assert w.prompt.refusal.isVisible()
    assert "C0610 is 7 hexes from C0603; KDG must set up within 2" in w.prompt.refusal.text()   # the counter's name
    assert "rule 26.2" in w.prompt.refusal.text()
    assert w.ctl.state().units["UK-KDG"].loc == "setup" and len(w.ctl.log()) == 0
    assert not w.scene.drop.cells, "the drop highlight is gone"

    # dropped on a legal hex: the matching option is sent and applied
    assert drop_on(w.view.viewport(), map_point(w, "C0504"), unit_mime("UK-KDG"))
    assert w.ctl.state().units["UK-KDG"].loc == "C0504"
    log = w.ctl.log()
    assert len(log) == 1 + len(w.ctl.passed)         # the placement, then the steps with nothing to decide
    assert log[0].action.kind == "place" and log[0].action.args == {"unit": "UK-KDG", "hex": "C0504"}
    assert not w.prompt.refusal.isVisible()


def test_a_drop_the_decision_does_not_offer_snaps_back_with_the_reason(qtbot, win):
    from app.offmap import unit_mime

    w = win
    w.tabs.setCurrentIndex(1)
    canvas = w.offmap.canvas
    nrv = next(pl for pl in canvas.placed if pl.box.id == "box:NRV")
    before = w.ctl.hash()
    # the 2nd SG (Refit Box) onto the Nile River Valley box: nothing offers it
    assert not drop_on(canvas, nrv.rect.center().toPoint(), unit_mime("UK-2SG"))
    assert "stays put" in w.prompt.refusal.text() and "offers nothing" in w.prompt.refusal.text()
    assert w.ctl.state().units["UK-2SG"].loc == "box:Refit:Allied" and w.ctl.hash() == before
    assert canvas.unit_pos("UK-2SG") is not None and canvas.drop_box == ""
    # the KDG onto a box: placement is free-form, so the engine judges the box — and refuses, citing its rule
    mime = unit_mime("UK-KDG")
    assert not drop_on(canvas, nrv.rect.center().toPoint(), mime)
    assert "Nile River Valley" in w.prompt.refusal.text() and "2.2.2" in w.prompt.refusal.text()   # box named, not its key
    assert w.ctl.hash() == before and w.ctl.state().units["UK-KDG"].loc == "setup"
    # once placed, the KDG is on the map; a drop of a unit the next decision does not mention stays put
    w.ctl.act(w.ctl.pending().options[0].action)
    assert w.ctl.state().units["UK-KDG"].loc == "C0603"
    assert not drop_on(canvas, nrv.rect.center().toPoint(), mime)
    assert "stays put" in w.prompt.refusal.text()
    assert w.ctl.state().units["UK-KDG"].loc == "C0603"


# the Allied Refit step of GT 10: the 2nd SG waits in the Allied Refit Box, a UK RP in the Nile River Valley
ALLIED_REFIT = gt10_scenario("app-refit-allied", 94, "Test Allied refit by drag (GUI)", [
    ("UK-RP", "box:NRV"), ("UK-2SG", "box:Refit:Allied"), ("UK-KDG", "C0710")], initiative="Allied")


def test_an_allied_refit_drag_highlights_the_nile_river_valley_box(qtbot, win, tmp_path, monkeypatch):
    """17.2, 22.1: the Allied primary base is the NRV box; under a refit drag it is highlighted as the drop
    target for the whole drag, as the Axis primary base hex is on the map."""
    from app import refitdrag
    from app.offmap import unit_mime

    w = win
    start_game(qtbot, w, tmp_path, "allied-refit", ALLIED_REFIT)
    d = w.ctl.pending()
    assert d.kind == "refit" and d.side == "Allied" and "refit_box" in d.free_kinds
    w.tabs.setCurrentIndex(1)
    canvas = w.offmap.canvas
    assert canvas.draggable("UK-2SG") and not canvas.draggable("UK-KDG")
    nrv = next(pl for pl in canvas.placed if pl.box.id == "box:NRV")
    refit = next(pl for pl in canvas.placed if pl.box.id == "box:Refit:Allied")
    assert not canvas.target_boxes
    plain = canvas.grab().toImage()

    # the drag starts over the Refit Box: the NRV is highlighted at once, though the pointer is elsewhere
    mime = unit_mime("UK-2SG")
    start = canvas.unit_pos("UK-2SG").toPoint()
    drag_over(canvas, start, mime)
    assert canvas.target_boxes == {"box:NRV": "primary base"} and canvas.drop_box == refit.box.id
    # ... and painted as a drop target: the highlight's colour shows inside the NRV box
    from PySide6.QtGui import QColor

    from app import theme

    img = canvas.grab().toImage()
    x, y = int(nrv.rect.left() + 2.5), int(nrv.rect.center().y())
    assert img.pixelColor(x, y).name() == QColor(theme.HIGHLIGHT_EDGE).name()
    inside = (int(nrv.rect.right() - 15), int(nrv.rect.top() + 40))      # clear of the counter and the texts
    assert img.pixelColor(*inside) != plain.pixelColor(*inside), "the box is tinted"
    # over the NRV itself it stays highlighted
    over = nrv.rect.center().toPoint()
    QApplication.sendEvent(canvas, QDragMoveEvent(over, Qt.MoveAction, mime, Qt.LeftButton, Qt.NoModifier))
    assert canvas.drop_box == "box:NRV" and "box:NRV" in canvas.target_boxes
    # a dragged counter that is not being refitted shows no target
    other = unit_mime("UK-KDG")
    QApplication.sendEvent(canvas, QDragEnterEvent(over, Qt.MoveAction, other, Qt.LeftButton, Qt.NoModifier))
    assert canvas.target_boxes == {}
    QApplication.sendEvent(canvas, QDragEnterEvent(over, Qt.MoveAction, mime, Qt.LeftButton, Qt.NoModifier))
    assert canvas.target_boxes == {"box:NRV": "primary base"}

    # the drop on the NRV opens the refit form for the primary base (cancelled here: nothing is sent)
    asked = []
    monkeypatch.setattr(refitdrag, "ask", lambda *a: asked.append(a) or None)
    assert not drop_on(canvas, over, mime)
    assert asked and asked[-1][3:] == ("UK-2SG", "box:NRV", None) and len(w.ctl.log()) == 0
    assert canvas.target_boxes == {} and canvas.drop_box == "", "the highlight is gone after the drop"
    # the map shows no hex for it (the NRV is off the map)
    assert w._drop_targets("UK-2SG") == {}
    # a drag that leaves the display clears the highlight too
    QApplication.sendEvent(canvas, QDragEnterEvent(start, Qt.MoveAction, mime, Qt.LeftButton, Qt.NoModifier))
    assert canvas.target_boxes
    from PySide6.QtGui import QDragLeaveEvent

    QApplication.sendEvent(canvas, QDragLeaveEvent())
    assert canvas.target_boxes == {}
