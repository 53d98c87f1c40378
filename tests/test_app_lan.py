"""LAN play in the app (issues 8 and 9), on loopback: the window hosts or joins; the host decides everything."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt  # noqa: E402

from core.decisions import Action  # noqa: E402
from net import keys as keymod  # noqa: E402
from net import protocol as P  # noqa: E402
from net.client import Client  # noqa: E402
from net.testing import Table, free_port  # noqa: E402
from tests.app_kit import click_hex  # noqa: E402

pytestmark = pytest.mark.gui

WALK = str(Path(__file__).parent / "fixtures" / "walk.toml")
WAIT = 60_000      # generous: two slow cores run the host, two clients and the GUI


def test_host_from_the_window_play_chat_presence(qtbot, dirs):
    from app.mainwindow import MainWindow

    w = MainWindow()
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    w.ctl.new_game(dirs / "lan.dfd", WALK, seed=1)
    rommel = keymod.generate()

    # File ▸ Host this campaign…: the dialog seats the host player already (their own key)
    dlg = w.host_dialog()
    assert dlg.table.rowCount() == 1 and dlg.table.item(0, 2).text() == keymod.load_or_create("player").public
    dlg.table.item(0, 0).setText("Wavell")
    dlg.table.cellWidget(0, 1).setCurrentText("Allied")
    r = dlg.add_seat("Rommel", "Axis", rommel.public)
    assert dlg.table.item(r, 3).text() == rommel.fingerprint
    dlg.add_seat("Nobody", "Axis", "not a key")
    assert not dlg.start(bind="127.0.0.1") and "not a public key" in dlg.error.text()
    dlg.table.removeRow(2)
    dlg.port.setValue(free_port())
    dlg.announce.setChecked(False)
    assert dlg.start(bind="127.0.0.1")
    session = w.host_session
    assert session is not None and dlg.fp.text() == session.fingerprint
    assert dlg.code.text().startswith(f"dfd://127.0.0.1:{session.port}/")
    assert keymod.parse_join(dlg.code.text()).server_key == session.public_key

    # the window joined its own host as Wavell (Allied); Rommel joins headless as Axis
    qtbot.waitUntil(lambda: w.ctl.remote_mode and w.ctl.game is not None and w.ctl.welcome is not None, timeout=WAIT)
    assert w.ctl.seat == "Allied" and w.dock_presence.isVisible() and w.dock_chat.isVisible()
    axis = Client("127.0.0.1", session.port, session.public_key, rommel, name="Rommel", heartbeat=0.5).start()
    try:
        assert axis.wait(lambda c: c.engine is not None and c.welcome is not None, 60)
        # presence lists both players, connected; the Allied side is acting (set-up)
        qtbot.waitUntil(lambda: sorted((n, s, on) for n, s, on, _a in w.presence.names())
                        == [("Rommel", "Axis", True), ("Wavell", "Allied", True)], timeout=WAIT)
        assert "Allied" in w.presence.acting.text() and "Wavell" in w.presence.acting.text()

        # a click on an option in the window: the Allied set-up placement on the map
        d = w.ctl.pending()
        assert d.side == "Allied" and d.kind == "setup_place"
        assert "C0503" in w.scene.targets.cells
        click_hex(qtbot, w, "C0503")
        assert w.ctl.shown_seq == 0, "nothing is applied locally: the window waits for the host's update"
        qtbot.waitUntil(lambda: w.ctl.shown_seq == 1, timeout=WAIT)
        assert w.ctl.state().units["UK-KDG"].loc == "C0503"
        # ... was applied by the host and appears in the other client
        assert axis.wait_seq(1, 60)
        assert axis.engine.state.units["UK-KDG"].loc == "C0503"
        assert axis.entries[1].by == "Wavell"
        assert axis.hash() == session.host.hash() == w.ctl.hash()

        # a prompt button (Events Phase: done) — again through the host
        qtbot.waitUntil(lambda: w.prompt.buttons and w.prompt.buttons[0].isEnabled(), timeout=WAIT)
        assert w.ctl.pending().side == "Allied"
        qtbot.mouseClick(w.prompt.buttons[0], Qt.LeftButton)
        assert axis.wait_seq(2, 60)
        qtbot.waitUntil(lambda: w.ctl.shown_seq == 2, timeout=WAIT)

        # now the Axis decides: the window's buttons are disabled and it says whom it waits for
        assert w.ctl.pending().side == "Axis"
        assert w.prompt.buttons and not any(b.isEnabled() for b in w.prompt.buttons)
        assert "Waiting for the Axis side" in w.prompt.hint.text()
        # a command for a side this seat does not hold is refused by the host, with its reason
        w.ctl.act(Action(kind="done", side="Axis"))
        qtbot.waitUntil(lambda: w.prompt.refusal.isVisible(), timeout=WAIT)
        assert "Wavell holds an Allied seat and cannot act for the Axis side" in w.prompt.refusal.text()
        # the engine's refusal comes back with its rule
        w.ctl.act(Action(kind="done", side="Allied"))
        qtbot.waitUntil(lambda: "rule" in w.prompt.refusal.text() and "Wavell holds" not in w.prompt.refusal.text(),
                        timeout=WAIT)
        rej = [r for r in axis.refusals] + [r for r in w.ctl.client.refusals]
        illegal = [r for r in rej if r.code == P.ILLEGAL]
        assert illegal and illegal[-1].reason in w.prompt.refusal.text() and illegal[-1].rule in w.prompt.refusal.text()
        assert session.host.seq == 2

        # the Axis player answers on their client; the window follows
        opt = next(o.action for o in axis.pending().options if o.action.side == "Axis")
        assert isinstance(axis.result(axis.send_command(opt), 60), P.Ack)
        qtbot.waitUntil(lambda: w.ctl.shown_seq == 3, timeout=WAIT)
        assert w.ctl.hash() == session.host.hash()
        qtbot.waitUntil(lambda: w.logpanel.total == 3, timeout=WAIT)

        # chat: to all from the window's chat panel; to the side from Rommel (not seen by the Allied window)
        w.chat.line.setText("Good luck, Rommel")
        qtbot.keyClick(w.chat.line, Qt.Key_Return)
        assert axis.wait(lambda c: any(m.text == "Good luck, Rommel" and m.sender == "Wavell" for m in c.chat), 60)
        axis.send_chat("Axis eyes only", to="side")
        axis.send_chat("And to you, general", to="all")
        qtbot.waitUntil(lambda: any(m.text == "And to you, general" for m in w.chat.lines), timeout=WAIT)
        assert "Rommel" in w.chat.view.toPlainText() and "And to you, general" in w.chat.view.toPlainText()
        assert not any(m.text == "Axis eyes only" for m in w.chat.lines)

        # Rommel leaves: presence shows him offline
        axis.stop()
        qtbot.waitUntil(lambda: ("Rommel", "Axis", False) in [(n, s, on) for n, s, on, _a in w.presence.names()],
                        timeout=WAIT)
    finally:
        axis.stop()
    # stop hosting: the window is back on its file, which holds every action the host confirmed
    dlg.stop()
    assert not w.ctl.remote_mode and w.ctl.game is not None
    assert len(w.ctl.log()) == 3 and w.ctl.state().units["UK-KDG"].loc == "C0503"
    w.close()


def test_join_dialog_confirms_the_fingerprint_and_a_spectator_is_refused(qtbot, dirs):
    from app.lan import JoinDialog
    from app.mainwindow import MainWindow
    from app.settings import Settings

    me = keymod.load_or_create("player")
    table = Table.new(dirs, [("Rommel", "Axis"), ("Wavell", "Allied"), ("Umpire", "spectator")])
    table.players["Umpire"].key = me
    table.start_host()
    try:
        rommel = table.connect("Rommel")
        wavell = table.connect("Wavell")
        for c in (rommel, wavell):
            assert c.wait(lambda c: c.engine is not None and c.welcome is not None, 60)
        w = MainWindow()
        qtbot.addWidget(w)
        w.resize(1400, 900)
        w.show()
        w.ctl.new_game(dirs / "own.dfd", WALK, seed=3)

        settings = Settings.load()
        dlg = JoinDialog(w, settings, discover=False)
        qtbot.addWidget(dlg)
        ok = dlg.buttons.button(dlg.buttons.StandardButton.Ok)
        dlg.code.setText(f"127.0.0.1:{table.port}")
        assert not ok.isEnabled() and "key is needed" in dlg.error.text()
        dlg.code.setText(keymod.join_code("127.0.0.1", table.port, table.host_key.public))
        assert dlg.fp.text() == table.host_key.fingerprint
        assert not ok.isEnabled(), "the player must confirm the fingerprint first"
        dlg.trust.setChecked(True)
        dlg.name.setText("Umpire")
        assert ok.isEnabled()
        qtbot.mouseClick(ok, Qt.LeftButton)
        assert dlg.result() == JoinDialog.Accepted and table.host_key.public in settings.trusted_hosts
        host, port, key = dlg.target()
        rc = w.join_lan(host, port, key, dlg.name.text(), heartbeat=0.5)
        qtbot.waitUntil(lambda: w.ctl.game is not None and w.ctl.welcome is not None, timeout=WAIT)
        assert rc.seat == "spectator" and rc.hash() == table.host.hash()
        assert "Umpire" in w.windowTitle() and "spectator" in w.windowTitle()
        # a spectator sees the game and the host's fingerprint but acts on nothing
        assert not w.scene.targets.cells and not any(b.isEnabled() for b in w.prompt.buttons)
        d = w.ctl.pending()
        w.ctl.act(d.options[0].action)
        qtbot.waitUntil(lambda: w.prompt.refusal.isVisible(), timeout=WAIT)
        assert "spectator" in w.prompt.refusal.text()
        assert table.host.seq == 0
        # Rommel plays; the spectator's window follows every host update, and replay works on the replica
        from net.testing import play

        play(table, 4)
        qtbot.waitUntil(lambda: w.ctl.shown_seq == table.host.seq, timeout=WAIT)
        assert w.ctl.hash() == table.host.hash()
        placed = rommel.entries[1].action.args["hex"]
        w.ctl.set_replay(0)
        assert w.ctl.state().units["UK-KDG"].loc != placed
        w.ctl.set_replay(1)
        assert w.ctl.state().units["UK-KDG"].loc == placed
        assert w.logpanel.position.isVisible()
        w.ctl.set_replay(None)
        # leave: back to the window's own file
        w.leave_lan()
        assert not w.ctl.remote_mode and w.ctl.path == dirs / "own.dfd" and w.ctl.game is not None
        w.close()
    finally:
        table.close()
