"""Playing against the computer in the app (issue 21), offscreen: New game with a computer side, handing a side to the
computer and taking it back (remembered by the file, the hash unchanged), the computer's moves one by one (its path on
the map, its plan in the status bar and the log, the speed), thinking off the GUI thread, pause, and no hand-over
cover for the computer's side.

The computer here is a scripted player or the pass/random bots (``core.players``), so that the tests are fast and
each one can fail; the opponent's own play is tested in its own files.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import threading  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from core import computer as cm  # noqa: E402
from core.decisions import Action  # noqa: E402
from core.game import Game  # noqa: E402
from tests.app_kit import game_window  # noqa: E402

pytestmark = pytest.mark.gui

FIXTURES = Path(__file__).parent / "fixtures"
WALK = str(FIXTURES / "walk.toml")
BATTLE = str(FIXTURES / "app_battle.toml")
PZ = "GE-5Pz"
WAIT = 30_000


def bots(kind: str):
    return lambda side, seed, setting: cm.make_computer(side, 7, setting, kind=kind)     # one game, whatever its id


class Scripted:
    """A computer player for the tests: moves 5 Pz to C0705 by the engine's route in a movement decision, otherwise
    takes the first option; says a plan; records the thread it thinks on."""

    name = "scripted"

    def __init__(self, side: str, delay: float = 0.0):
        self.side, self.plan, self.delay = side, "", delay
        self.threads: list[str] = []
        self.moved = False

    def choose(self, decision, engine) -> Action:
        self.threads.append(threading.current_thread().name)
        time.sleep(self.delay)
        if "move" in decision.free_kinds and not self.moved and PZ in engine.state.units:
            self.moved = True
            res = engine.query("route", units=[PZ], to="C0705")
            path = res["path"] if isinstance(res, dict) else res[0]
            path = [h for h in path if h != engine.state.units[PZ].loc]
            self.plan = f"{self.side}: moving {PZ} towards the King's Dragoon Guards"
            return Action(kind="move", side=decision.side, args={"units": [PZ], "path": path})
        self.plan = f"{self.side}: holding the line"
        return decision.options[0].action


def _quick(w, factory, speed: str = "instant"):
    w.computer.factory = factory
    w.computer.set_speed(speed)


def _play_person(qtbot, w, until, timeout: float = 30.0) -> list[str]:
    """Let the computer play its side while the person answers theirs with the first option (a pass); returns the
    sides of the hand-over covers that appeared."""
    covers: list[str] = []
    end = time.monotonic() + timeout
    while not until() and time.monotonic() < end:
        qtbot.wait(5)
        if w.cover.isVisible():
            covers.append(w.cover.side)
            qtbot.mouseClick(w.cover.button, Qt.LeftButton)
        d = w.ctl.pending()
        if d is not None and w.ctl.can_act(d) and not w.computer.busy:
            w.ctl.act(next((o.action for o in d.options if o.action.kind == "done"), d.options[0].action))
    return covers


def test_new_game_dialog_seats_the_computer_and_the_file_remembers(qtbot, dirs, monkeypatch):
    from app.dialogs import NewGameDialog
    from app.mainwindow import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    _quick(w, bots("pass"))
    w.computer.set_paused(True)           # this test looks at the seating only
    target = dirs / "vs.dfd"

    def fill(dlg):
        assert not dlg.setting.isEnabled(), "the computer's setting matters only when it plays a side"
        dlg.set_player("Allied", "computer")
        assert dlg.setting.isEnabled()
        dlg.setting.setCurrentIndex(dlg.setting.findData("thoughtful"))
        dlg.path.setText(str(target))
        return NewGameDialog.Accepted

    monkeypatch.setattr(NewGameDialog, "exec", fill)
    w.new_game()
    assert w.ctl.computer == {"Allied": "thoughtful"}
    assert w.ctl.seat == "Axis", "one person at the table: the seat is always theirs"
    assert w.a_computer_side["Allied"].isChecked() and not w.a_computer_side["Axis"].isChecked()
    assert w.a_computer_setting["thoughtful"].isChecked()
    h = w.ctl.hash()
    w.ctl.close()
    g = Game.open(target)
    assert cm.load_seating(g.store) == {"Allied": "thoughtful"}
    assert g.engine.hash() == h
    g.close()
    # a reopened game remembers who plays which side
    w.open_path(target)
    assert w.ctl.computer == {"Allied": "thoughtful"} and w.a_computer_side["Allied"].isChecked()
    w.close()


def test_a_whole_game_against_the_computer_without_hand_over_covers(qtbot, dirs):
    w = game_window(qtbot, dirs / "walk.dfd", WALK)
    assert w.cover.isVisible() is False
    _quick(w, bots("random"))
    # Game ▸ Computer ▸ The computer plays the Allied side (the Allied set-up is pending: it plays at once)
    w.a_computer_side["Allied"].trigger()
    assert w.ctl.computer == {"Allied": "quick"}
    covers = _play_person(qtbot, w, lambda: w.ctl.pending() is None, timeout=60)
    assert w.ctl.pending() is None, "the game reached its end"
    assert covers == [], "no hand-over screen for the computer's side"
    assert w.computer.moves > 5
    sides = {e.action.side for e in w.ctl.log()}
    assert sides == {"Axis", "Allied"}
    # every logged action was accepted by the engine and the file verifies
    from core.game import verify
    path = w.ctl.path
    w.close()
    assert verify(path).ok


def test_hand_a_running_game_to_the_computer_and_take_it_back(qtbot, dirs):
    w = game_window(qtbot, dirs / "battle.dfd", BATTLE)
    _quick(w, bots("pass"))
    before = w.ctl.hash()
    n = len(w.ctl.log())
    assert w.ctl.pending().side == "Axis" and w.ctl.can_act(w.ctl.pending())
    # hand the Axis side (the one to play) to the computer: it plays on; the hash is that of the game, not the seating
    w.a_computer_side["Axis"].trigger()
    assert cm.load_seating(w.ctl.game.store) == {"Axis": "quick"}
    assert not w.ctl.can_act(w.ctl.pending()) and not any(b.isEnabled() for b in w.prompt.buttons)
    qtbot.waitUntil(lambda: len(w.ctl.log()) > n, timeout=WAIT)
    assert w.ctl.log()[n].action.side == "Axis"
    # take it back: the computer stops at once; the prompt is the person's again
    w.a_computer_side["Axis"].trigger()
    assert w.ctl.computer == {} and cm.load_seating(w.ctl.game.store) == {}
    qtbot.wait(50)
    d = w.ctl.pending()
    if d is not None and d.side == "Axis":
        assert w.ctl.can_act(d) and all(b.isEnabled() for b in w.prompt.buttons)
    m = len(w.ctl.log())
    qtbot.wait(200)
    assert len(w.ctl.log()) == m, "a side taken back is not played by the computer"
    # the seating never enters the state: the same actions on a fresh game give the same hash
    g = Game.new(dirs / "same.dfd", BATTLE, seed=3)
    for e in w.ctl.log():
        g.act(e.action)
    assert g.engine.hash() == w.ctl.hash() and before != w.ctl.hash()
    g.close()
    w.close()


def test_the_computer_move_is_shown_with_its_path_and_plan_and_thinks_off_the_gui_thread(qtbot, dirs):
    w = game_window(qtbot, dirs / "battle.dfd", BATTLE)
    player = Scripted("Axis", delay=0.4)
    _quick(w, lambda side, seed, setting: player, speed="slow")
    ticks: list[float] = []
    from PySide6.QtCore import QTimer
    beat = QTimer(w)
    beat.timeout.connect(lambda: ticks.append(time.monotonic()))
    beat.start(20)
    w.a_computer_side["Axis"].trigger()
    qtbot.waitUntil(lambda: w.computer.busy, timeout=WAIT)     # it thinks as soon as its side is to play
    assert "thinking" in w.computer_label.text() and "Axis" in w.prompt.hint.text()
    qtbot.waitUntil(lambda: w.computer.moves >= 1, timeout=WAIT)
    # the GUI went on while the computer thought (0.4 s a decision), on another thread
    assert len(ticks) >= 3, "a GUI thread blocked for the computer's thinking would have let one tick through"
    assert threading.main_thread().name not in player.threads
    # the refit decision first, then the move along the route: shown one by one (slow: 2.5 s in view)
    qtbot.waitUntil(lambda: player.moved and w.computer.moves >= 2, timeout=WAIT)
    assert w.ctl.state().units[PZ].loc == "C0705"
    assert w.computer._timer.isActive() and w.computer._timer.interval() == 2500
    routes = w.scene.routes.routes
    assert any(r[0][0] == "C0702" and r[0][-1] == "C0705" and "moved" in r[2] for r in routes), routes
    # the plan sentence: status bar and log
    assert "moving 5 Pz" in w.computer_label.text(), "the plan names the counter, not its id"
    texts = []
    it = w.logpanel.tree.invisibleRootItem()
    stack = [it]
    while stack:
        x = stack.pop()
        texts += [x.child(i).text(0) for i in range(x.childCount())]
        stack += [x.child(i) for i in range(x.childCount())]
    assert any(t.startswith("Computer's plan (Axis): Axis: moving 5 Pz") for t in texts), texts
    beat.stop()
    w.close()


def test_pause_holds_the_computer_and_resume_lets_it_play(qtbot, dirs):
    w = game_window(qtbot, dirs / "battle.dfd", BATTLE)
    _quick(w, bots("pass"))
    assert not w.a_pause.isEnabled(), "nothing to pause while no side is the computer's"
    n = len(w.ctl.log())
    w.a_computer_side["Axis"].trigger()
    w.a_pause.trigger()                 # before its first move
    assert w.computer.paused and w.a_pause.text() == "Resume the computer"
    qtbot.wait(300)
    assert len(w.ctl.log()) == n and "paused" in w.computer_label.text()
    w.a_pause.trigger()
    qtbot.waitUntil(lambda: len(w.ctl.log()) > n, timeout=WAIT)
    # paused while it thinks: the answer is held, then played on resume
    player = Scripted("Axis", delay=0.3)
    w.computer._players.clear()
    w.computer.factory = lambda side, seed, setting: player
    w.computer.set_speed("instant")
    qtbot.waitUntil(lambda: w.computer.busy or w.ctl.computer_side() is None, timeout=WAIT)
    if w.computer.busy:
        m = len(w.ctl.log())
        w.a_pause.trigger()
        qtbot.waitUntil(lambda: not w.computer.busy, timeout=WAIT)
        qtbot.wait(100)
        assert len(w.ctl.log()) == m
        w.a_pause.trigger()
        qtbot.waitUntil(lambda: len(w.ctl.log()) > m, timeout=WAIT)
    w.close()


def test_speed_setting_is_saved_and_used(qtbot, dirs):
    from app.settings import Settings

    w = game_window(qtbot, dirs / "battle.dfd", BATTLE)
    w.a_computer_speed["slow"].trigger()
    assert w.computer.speed == "slow" and Settings.load().computer_speed == "slow"
    assert w.a_computer_speed["slow"].isChecked() and not w.a_computer_speed["normal"].isChecked()
    w.a_computer_speed["instant"].trigger()
    assert w.computer.speed == "instant" and Settings.load().computer_speed == "instant"
    w.close()


def test_a_lan_host_seats_the_computer(qtbot, dirs):
    """File ▸ Host this campaign… on a game where the computer plays the Axis: the dialog seats the computer on the
    Axis side (its own key) and the host player on the Allied side; once hosting, the computer's seat answers the Axis
    decisions through the host, like any player's client, and the window (joined as Allied) follows."""
    from net.computer import computer_key
    from net.testing import free_port

    w = game_window(qtbot, dirs / "lan.dfd", WALK)
    w.computer.set_paused(True)
    w.ctl.set_computer("Axis", "quick")
    dlg = w.host_dialog()
    rows = {dlg.table.item(r, 0).text(): (dlg.table.cellWidget(r, 1).currentText(), dlg.table.item(r, 2).text())
            for r in range(dlg.table.rowCount())}
    assert rows["Computer (Axis)"] == ("Axis", computer_key("Axis").public)
    assert [side for name, (side, _k) in rows.items() if name != "Computer (Axis)"] == ["Allied"]
    dlg.port.setValue(free_port())
    dlg.announce.setChecked(False)
    assert dlg.start(bind="127.0.0.1")
    session = w.host_session
    try:
        assert list(session.computers) == [computer_key("Axis").public]
        qtbot.waitUntil(lambda: w.ctl.remote_mode and w.ctl.game is not None and w.ctl.welcome is not None,
                        timeout=WAIT * 2)
        assert w.ctl.seat == "Allied"
        seat = next(iter(session.computers.values()))
        # the window plays the Allied side's decisions (the first option, a pass); the computer the Axis side's
        end = time.monotonic() + 30
        while time.monotonic() < end and not any(e.by == "Computer (Axis)" for e in w.ctl.client.entries.values()):
            assert seat.error is None, seat.error
            d = w.ctl.pending()
            if d is not None and w.ctl.can_act(d):
                shown = w.ctl.shown_seq
                w.ctl.act(next(o.action for o in d.options if o.action.side == "Allied"))
                qtbot.waitUntil(lambda s=shown: w.ctl.shown_seq > s, timeout=WAIT * 2)
            qtbot.wait(50)
        mine = [e for e in w.ctl.client.entries.values() if e.by == "Computer (Axis)"]
        assert mine, (w.ctl.pending(), seat.client.status, seat.client.welcome, seat.client.seq, w.ctl.shown_seq,
                      seat.error, session.lines)
        assert mine and all(e.action.side == "Axis" for e in mine)
        assert "Computer (Axis)" in [n for n, _s, _on, _a in w.presence.names()]
    finally:
        dlg.stop()
    assert not w.ctl.remote_mode and w.ctl.computer == {"Axis": "quick"}, "the file still says who plays what"
    w.close()
