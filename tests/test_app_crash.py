"""Crash safety (issue 10): a fault injected mid-phase shows the crash dialog, writes the log, and the
reopened game holds every confirmed action.  Also ``dfd play --smoke``."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from tests.test_app_play import FIXTURE, PZ, button, move_by_clicks, start_to_movement, win  # noqa: E402,F401

pytestmark = pytest.mark.gui


@pytest.fixture
def handler(win):
    from app import crash

    h = crash.install(lambda: win)
    yield h
    h.uninstall()
    for b in list(h.dialogs):
        b.close()


@pytest.mark.qt_no_exception_capture
def test_fault_mid_phase_shows_dialog_writes_log_and_loses_no_action(qtbot, win, handler, dirs, monkeypatch):
    from app.mainwindow import MainWindow
    from core.game import Game, verify

    w = win
    start_to_movement(qtbot, w)
    move_by_clicks(qtbot, w, "C0702", "C0705", ["C0703", "C0704"])
    assert w.ctl.state().units[PZ].loc == "C0705"
    confirmed = [e.action for e in w.ctl.log()]

    # inject a fault in the controller: it raises after the engine accepted (and the file committed) the action
    def broken(*_a, **_k):
        raise RuntimeError("injected fault in the controller")

    with monkeypatch.context() as m:
        m.setattr(w.ctl, "_after_change", broken)
        qtbot.mouseClick(button(w.prompt.buttons, "End the Movement Phase"), Qt.LeftButton)
        qtbot.waitUntil(lambda: bool(handler.dialogs) and handler.dialogs[-1].isVisible(), timeout=3000)

    # the dialog: what happened, where the log is, that the game is safe
    box = handler.dialogs[-1]
    text = box.text() + box.informativeText()
    log = dirs / "log" / "dfd.log"
    assert "injected fault in the controller" in text
    assert str(log) in text and "safe" in text and str(w.ctl.path) in text
    # the log file: the traceback names the failing function and the game file
    body = log.read_text(encoding="utf-8")
    assert "RuntimeError: injected fault in the controller" in body and "broken" in body
    assert str(w.ctl.path) in body and f"{len(confirmed) + 1} confirmed actions" in body
    confirmed.append(w.ctl.log()[-1].action)        # the click that crashed was committed before the fault
    assert confirmed[-1].kind == "done"

    # reopen the game file: every confirmed action is there, and the game goes on
    path = w.ctl.path
    w.close()
    g = Game.open(path)
    try:
        assert [e.action for e in g.engine.log] == confirmed
    finally:
        g.close()
    assert verify(path).ok
    w2 = MainWindow()
    qtbot.addWidget(w2)
    assert w2.open_path(path)
    assert [e.action for e in w2.ctl.log()] == confirmed
    assert w2.ctl.pending().kind == "reaction" and w2.ctl.state().units[PZ].loc == "C0705"


@pytest.mark.qt_no_exception_capture
def test_qt_critical_message_is_logged(qtbot, win, handler, dirs):
    from PySide6.QtCore import qCritical

    qCritical("a critical Qt message")
    log = dirs / "log" / "dfd.log"
    assert "a critical Qt message" in log.read_text(encoding="utf-8")
    assert handler.reports and handler.reports[-1][0].startswith("Qt critical message")


def test_play_smoke_flag_shows_and_closes_the_main_window(qtbot, dirs, capsys):
    from app import crash
    from app.cli import build_parser
    from app.main import run

    args = build_parser().parse_args(["play", str(dirs / "smoke.dfd"), "--smoke"])
    assert args.smoke and args.file == dirs / "smoke.dfd"
    try:
        assert args.fn(args) == 0
    finally:
        if crash.current() is not None:
            crash.current().uninstall()
    assert "smoke: main window shown" in capsys.readouterr().out
    assert (dirs / "smoke.dfd").exists()
    assert run is not None
