"""Helpers shared by the GUI tests: act on the real widgets as a player would."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from app import geometry as geo


def game_window(qtbot, game: Path, scenario: str, seed: int = 3):
    """The main window, 1400 x 900 and shown, with a new game of ``scenario`` saved as ``game``."""
    from app.mainwindow import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    w.ctl.new_game(game, scenario, seed=seed)
    return w


def gt10_scenario(sid: str, number: int, title: str, units: list[tuple], initiative: str = "Axis") -> str:
    """The text of a test scenario on map C that starts in phase 6 of GT 10 (ends at GT 11), the Axis base at C0701
    active and primary; ``units`` are the other ``[[setup]]`` tables: (unit, at) or (unit, at, count)."""
    text = f'''
id = "{sid}"
number = {number}
section = "test"
title = "{title}"
start_gt = 10
start_phase = 6
end_gt = 11
initiative = "{initiative}"
surprise = false
maps = ["C"]

[[setup]]
unit = "AX-Base"
at = "C0701"
active = true
primary = true
'''
    for unit, at, *count in units:
        text += f'\n[[setup]]\nunit = "{unit}"\nat = "{at}"\n' + "".join(f"count = {n}\n" for n in count)
    return text


def start_game(qtbot, w, folder: Path, name: str, scenario_text: str, seed: int = 3) -> None:
    """Write ``scenario_text`` to ``folder/<name>.toml``, start a new game of it there and pass the cover screen."""
    path = folder / f"{name}.toml"
    path.write_text(scenario_text)
    w.ctl.new_game(folder / f"{name}.dfd", str(path), seed=seed)
    pass_cover(qtbot, w)


def prompt_button(w, text: str):
    """The prompt bar's button whose text has ``text`` in it."""
    b = next((b for b in w.prompt.buttons if text in b.text()), None)
    assert b is not None, f"no button {text!r} in {[x.text() for x in w.prompt.buttons]}"
    return b


def map_point(w, label: str) -> QPoint:
    """The view's point of a hex's centre, the map at zoom 1 centred on it."""
    rec = geo.rec_of(label)
    w.view.set_zoom(1.0)
    w.view.centerOn(rec.x, rec.y)
    return w.view.mapFromScene(rec.x, rec.y)


def click_hex(qtbot, w, label: str) -> None:
    """Click the centre of a hex on the map view, as a player would."""
    w.tabs.setCurrentIndex(0)
    qtbot.mouseClick(w.view.viewport(), Qt.LeftButton, pos=map_point(w, label))


def drag_over(widget, pos: QPoint, mime) -> None:
    """Deliver a drag entering ``widget`` and moving at ``pos``, as Qt does under a QDrag."""
    QApplication.sendEvent(widget, QDragEnterEvent(pos, Qt.MoveAction, mime, Qt.LeftButton, Qt.NoModifier))
    QApplication.sendEvent(widget, QDragMoveEvent(pos, Qt.MoveAction, mime, Qt.LeftButton, Qt.NoModifier))


def drop(widget, pos: QPoint, mime) -> bool:
    """Deliver the drop at ``pos`` that ends a QDrag; whether ``widget`` accepted it."""
    ev = QDropEvent(QPointF(pos), Qt.MoveAction, mime, Qt.LeftButton, Qt.NoModifier)
    QApplication.sendEvent(widget, ev)
    return ev.isAccepted()


def drop_on(widget, pos: QPoint, mime) -> bool:  # ``mime`` stays referenced by the caller for the events' lifetime
    """Deliver a drag (enter, move) and a drop at ``pos``, as Qt does at the end of a QDrag."""
    drag_over(widget, pos, mime)
    return drop(widget, pos, mime)


def to_movement(qtbot, w) -> None:
    """From the Refit step (after the cover screen) on to the Movement Phase: no refits."""
    pass_cover(qtbot, w)
    assert w.ctl.pending().kind == "refit"
    qtbot.mouseClick(prompt_button(w, "No (more) refits"), Qt.LeftButton)
    pass_cover(qtbot, w)
    assert w.ctl.pending().kind == "movement"


def pass_cover(qtbot, w) -> None:
    """Dismiss the hotseat cover screen if it is up."""
    if w.cover.isVisible():
        qtbot.mouseClick(w.cover.button, Qt.LeftButton)
