"""Dragging counters from the off-map display onto a map hex or a box sends the pending decision's option."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from PySide6.QtCore import QPoint, QPointF, Qt  # noqa: E402
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app import geometry as geo  # noqa: E402

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


def drop_on(widget, pos: QPoint, mime) -> bool:  # ``mime`` stays referenced by the caller for the events' lifetime
    """Deliver a drag (enter, move) and a drop at ``pos``, as Qt does at the end of a QDrag."""
    QApplication.sendEvent(widget, QDragEnterEvent(pos, Qt.MoveAction, mime, Qt.LeftButton, Qt.NoModifier))
    QApplication.sendEvent(widget, QDragMoveEvent(pos, Qt.MoveAction, mime, Qt.LeftButton, Qt.NoModifier))
    ev = QDropEvent(QPointF(pos), Qt.MoveAction, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(widget, ev)
    return ev.isAccepted()


def map_point(w, label: str) -> QPoint:
    rec = geo.rec_of(label)
    w.view.set_zoom(1.0)
    w.view.centerOn(rec.x, rec.y)
    return w.view.mapFromScene(rec.x, rec.y)


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
    assert "C0610 is 7 hexes from C0603; UK-KDG must set up within 2" in w.prompt.refusal.text()
    assert "rule 26.2" in w.prompt.refusal.text()
    assert w.ctl.state().units["UK-KDG"].loc == "setup" and len(w.ctl.log()) == 0
    assert not w.scene.drop.cells, "the drop highlight is gone"

    # dropped on a legal hex: the matching option is sent and applied
    assert drop_on(w.view.viewport(), map_point(w, "C0504"), unit_mime("UK-KDG"))
    assert w.ctl.state().units["UK-KDG"].loc == "C0504"
    log = w.ctl.log()
    assert len(log) == 1 and log[0].action.kind == "place" and log[0].action.args == {"unit": "UK-KDG", "hex": "C0504"}
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
    assert "box:NRV" in w.prompt.refusal.text() and "2.2.2" in w.prompt.refusal.text()
    assert w.ctl.hash() == before and w.ctl.state().units["UK-KDG"].loc == "setup"
    # once placed, the KDG is on the map; a drop of a unit the next decision does not mention stays put
    w.ctl.act(w.ctl.pending().options[0].action)
    assert w.ctl.state().units["UK-KDG"].loc == "C0603"
    assert not drop_on(canvas, nrv.rect.center().toPoint(), mime)
    assert "stays put" in w.prompt.refusal.text()
    assert w.ctl.state().units["UK-KDG"].loc == "C0603"
