"""Helpers shared by the GUI tests: act on the real widgets as a player would."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app import geometry as geo


def click_hex(qtbot, w, label: str) -> None:
    """Click the centre of a hex on the map view, as a player would."""
    rec = geo.rec_of(label)
    w.tabs.setCurrentIndex(0)
    w.view.set_zoom(1.0)
    w.view.centerOn(rec.x, rec.y)
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, pos=w.view.mapFromScene(rec.x, rec.y))


def pass_cover(qtbot, w) -> None:
    """Dismiss the hotseat cover screen if it is up."""
    if w.cover.isVisible():
        qtbot.mouseClick(w.cover.button, Qt.LeftButton)
