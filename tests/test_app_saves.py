"""Issue 14 in the app: a failed write is taken back and said so; an unopenable file is explained in one
sentence; a campaign opened after a change of rules or data says it continues as a new epoch."""

from __future__ import annotations

import os
import sqlite3

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from tests.test_app_crash import handler  # noqa: E402,F401
from tests.test_app_play import PZ, button, move_by_clicks, start_to_movement, win  # noqa: E402,F401

pytestmark = pytest.mark.gui


@pytest.mark.qt_no_exception_capture
def test_a_failed_write_in_the_app_is_taken_back_and_said_so(qtbot, win, handler, monkeypatch):
    from core.game import Game, verify

    w = win
    start_to_movement(qtbot, w)
    move_by_clicks(qtbot, w, "C0702", "C0705", ["C0703", "C0704"])
    before, n = w.ctl.hash(), len(w.ctl.log())

    def disk_full(*_a, **_k):
        raise sqlite3.OperationalError("database or disk is full (injected)")

    with monkeypatch.context() as m:
        m.setattr(w.ctl.game.store, "append", disk_full)
        qtbot.mouseClick(button(w.prompt.buttons, "End the Movement Phase"), Qt.LeftButton)
        qtbot.waitUntil(lambda: bool(handler.dialogs) and handler.dialogs[-1].isVisible(), timeout=3000)
    text = handler.dialogs[-1].informativeText()
    assert "taken back" in text and str(w.ctl.path) in text
    assert w.ctl.hash() == before and len(w.ctl.log()) == n
    assert w.ctl.state().units[PZ].loc == "C0705" and w.ctl.pending().kind == "movement"
    # the same click again, once the disk has room: played and saved
    qtbot.mouseClick(button(w.prompt.buttons, "End the Movement Phase"), Qt.LeftButton)
    assert len(w.ctl.log()) == n + 1
    h, path = w.ctl.hash(), w.ctl.path
    w.close()
    g = Game.open(path)
    assert g.engine.hash() == h
    g.close()
    assert verify(path).ok


def test_an_unopenable_file_is_explained_in_one_sentence(qtbot, dirs, monkeypatch):
    from app import mainwindow
    from app.mainwindow import MainWindow

    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(mainwindow.QMessageBox, "critical", lambda _p, title, text: shown.append((title, text)))
    junk = dirs / "letter.dfd"
    junk.write_text("Dear Erwin,")
    w = MainWindow()
    qtbot.addWidget(w)
    assert not w.open_path(junk)
    (title, text), = shown
    assert title == "Cannot open the game"
    assert text == f"{junk}: not a Desert Fox game file (it is not an SQLite database; header bytes 0-15)"
    assert "Traceback" not in text and "\n" not in text


def test_a_campaign_opened_after_a_program_update_says_it_continues(qtbot, win, monkeypatch):
    from app.mainwindow import MainWindow
    from tests.test_epochs import updated_program

    w = win
    start_to_movement(qtbot, w)
    path, h = w.ctl.path, w.ctl.hash()
    w.close()
    now = updated_program(monkeypatch)
    w2 = MainWindow()
    qtbot.addWidget(w2)
    assert w2.open_path(path)
    box = w2.findChild(mainwindow_box(), "EpochNote")
    assert box is not None and box.isVisible()
    assert f"({now.version} → 9.9.9)" in box.text() and "nothing was lost" in box.text()
    assert w2.ctl.hash() == h and w2.ctl.pending().kind == "movement"
    # the replay of the app still shows the earlier epoch's states (from the initial state) and this one's
    w2.ctl.set_replay(0)
    assert w2.ctl.pending().kind == "refit"
    w2.ctl.set_replay(None)
    box.close()


def mainwindow_box():
    from PySide6.QtWidgets import QMessageBox

    return QMessageBox


def test_a_second_window_on_a_played_file_is_refused_and_may_watch_it(qtbot, win, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from app import mainwindow
    from app.mainwindow import MainWindow

    w = win
    asked: list[str] = []

    def watch(_parent, _title, text, *_a):
        asked.append(text)
        return QMessageBox.Yes

    monkeypatch.setattr(mainwindow.QMessageBox, "question", watch)
    w2 = MainWindow()
    qtbot.addWidget(w2)
    assert w2.open_path(w.ctl.path)
    assert "already open for play in" in asked[0] and "read-only" in asked[0]
    assert w2.ctl.watching and "(watching, read-only)" in w2.windowTitle()
    refused: list[str] = []
    w2.ctl.refused.connect(lambda reason, _rule: refused.append(reason))
    assert not w2.ctl.act(w2.ctl.pending().options[0].action)
    assert "read-only" in refused[0]
    # the first window plays on; the watcher follows
    start_to_movement(qtbot, w)
    qtbot.waitUntil(lambda: w2.ctl.hash() == w.ctl.hash(), timeout=5000)
    assert w2.ctl.pending().kind == "movement"
