"""Render the app's screenshots offscreen into docs/screenshots/*.png.

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--scenario sonnenblume]

Creates a throw-away game (settings and data in a temporary directory), plays
the set-up through the engine's own options, and grabs: the main window, the
full map, a zoomed battle area, the off-map display, the cards panel, the
dashboard, the supply overlay with its legend, the North African Campaign's turn track, the rules viewer and
(when the engine offers the ``odds`` query) the move preview with the stacking readout and the docked combat
panel with its result; then
hosts the game on this machine (LAN) and grabs the Host dialog (seats, join code,
key fingerprint) and the window joined to it with the Players and Chat panels.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--scenario", default="sonnenblume")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="dfd-shots-"))
    os.environ["DFD_CONFIG_DIR"] = str(tmp / "config")
    os.environ["DFD_DATA_DIR"] = str(tmp / "data")

    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    import app  # noqa: F401  (installs the PySide6/py3.11 workaround)
    from app import geometry as geo, theme
    from app.mainwindow import MainWindow

    qapp = QApplication.instance() or QApplication([])
    theme.apply_style(qapp)
    args.out.mkdir(parents=True, exist_ok=True)
    win = MainWindow()
    win.resize(1680, 1020)
    win.show()
    win.ctl.new_game(tmp / "game.dfd", args.scenario, seed=args.seed)
    ctl = win.ctl
    ctl.hotseat = False
    # play the set-up placements with the engine's own first legal option
    for _ in range(400):
        d = ctl.pending()
        if d is None or d.kind != "setup_place":
            break
        ctl.act(d.options[0].action)
    qapp.processEvents()
    shots: list[Path] = []

    def save(widget, name: str) -> None:
        qapp.processEvents()
        p = args.out / name
        widget.grab().save(str(p))
        shots.append(p)

    # the main window on the front line
    st = ctl.state()
    front = "C2331" if any(geo.rec_of(u.loc) and geo.rec_of(u.loc).label == "C2331" for u in st.units.values()) else None
    win.tabs.setCurrentIndex(0)
    win.view.set_zoom(0.62)
    win.view.centre_on_hex(front or "C1520")
    lab = front or "C2331"
    win.selected_hex = lab
    win.scene.select_hex(lab)
    win._inspect_hex(lab)
    save(win, "main-window.png")
    # the full map
    img = win.scene.render_image(2600 / win.scene.sceneRect().width())
    p = args.out / "full-map.png"
    img.save(str(p))
    shots.append(p)
    # a zoomed battle area with hex numbers, counters and values
    win.view.set_zoom(1.35)
    win.view.centre_on_hex(front or "C2331")
    save(win.view, "zoomed-map.png")
    for i, name in ((1, "offmap-display.png"), (2, "cards-panel.png"), (3, "dashboard.png")):
        win.tabs.setCurrentIndex(i)
        qapp.processEvents()
        save(win.tabs.currentWidget(), name)
    win.tabs.setCurrentIndex(0)
    # the supply overlay (12.0) with its legend in the Layers panel
    for i in range(win.overlay_list.count()):
        it = win.overlay_list.item(i)
        if it.data(Qt.UserRole) == "supply_overlay" and it.flags() & Qt.ItemIsEnabled:
            it.setCheckState(Qt.Checked)
    win.view.set_zoom(0.8)
    win.view.centre_on_hex("C2325")
    save(win, "supply-overlay.png")
    for i in range(win.overlay_list.count()):
        win.overlay_list.item(i).setCheckState(Qt.Unchecked)
    # the rules viewer (Help > Rule for this prompt), when the rules text is found
    win.open_rule("14.5")
    if getattr(win, "_rules", None) is not None:
        win._rules.resize(1000, 700)
        save(win._rules, "rules-viewer.png")
        win._rules.close()
    # the North African Campaign's Turn Record Track (GT 1 to the END marker)
    win.ctl.new_game(tmp / "nac.dfd", "north-african-campaign", seed=args.seed)
    win.cover.hide()
    win.tabs.setCurrentIndex(1)
    save(win.tabs.currentWidget(), "turn-track-nac.png")
    win.tabs.setCurrentIndex(0)
    win.close()
    battle(qapp, tmp, args.out, shots)
    lan(qapp, tmp, args.out, shots, args.scenario, args.seed)
    for p in shots:
        print(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p)
    return 0


BATTLE = ROOT / "tests" / "fixtures" / "app_battle.toml"


def battle(qapp, tmp: Path, out: Path, shots: list[Path]) -> None:
    """A small battle played through the GUI's own code paths: the move preview, the odds preview on
    the zoomed map, and the combat dialog mid-resolution (after the die roll, at the loss choice)."""
    from PySide6.QtCore import Qt

    from app.mainwindow import MainWindow

    win = MainWindow()
    win.resize(1680, 1020)
    win.show()
    ctl = win.ctl
    ctl.new_game(tmp / "battle.dfd", str(BATTLE), seed=3)
    ctl.hotseat = False
    win.cover.hide()

    def save(widget, name: str) -> None:
        qapp.processEvents()
        p = out / name
        widget.grab().save(str(p))
        shots.append(p)

    def choose(text: str) -> None:
        d = ctl.pending()
        o = next(o for o in d.options if text in o.label)
        win.choose_option(o)

    choose("No (more) refits")
    win.tabs.setCurrentIndex(0)
    win.view.set_zoom(1.1)
    win.view.centre_on_hex("C0704")
    win.hex_clicked("C0702", None)
    win._hovered("C0705")
    save(win, "move-preview.png")                  # selected stack, route, status bar and the stacking readout
    win.hex_clicked("C0705", None)                 # one-click move along the engine's route
    choose("End the Movement Phase")
    choose("End the Reaction Phase")
    win.hex_clicked("C0705", None)
    win.hex_clicked("C0706", None)                 # declare the attack on the highlighted hex
    for i in range(win.overlay_list.count()):      # the odds overlay for the selected stack
        it = win.overlay_list.item(i)
        if it.data(Qt.UserRole) == "odds" and it.flags() & Qt.ItemIsEnabled:
            it.setCheckState(Qt.Checked)
    win.dock_combat.hide()
    win.view.set_zoom(1.6)
    win.view.centre_on_hex("C0705")
    win.selected_hex = "C0705"
    win.scene.select_hex("C0705")
    win._update_overlay()
    save(win.view, "battle-odds.png")
    choose("No more attacks")
    d = ctl.pending()
    for _ in range(6):
        d = ctl.pending()
        if d.kind == "combat_supply":
            choose("Expend" if any("Expend" in o.label for o in d.options) else "No combat supply")
        else:
            break
    win.refresh()
    win.view.set_zoom(1.3)
    win.view.centre_on_hex("C0705")
    save(win, "combat-panel.png")                  # the docked combat panel beside the map, its result on top
    win.close()


def lan(qapp, tmp: Path, out: Path, shots: list[Path], scenario: str, seed: int) -> None:
    """Host the campaign from the window (File > Host this campaign...) with two more players joined headless."""
    import time

    os.environ["DFD_KEY_DIR"] = str(tmp / "keys")
    from app import geometry as geo
    from app.mainwindow import MainWindow
    from core.game import Game
    from net import keys as keymod
    from net.client import Client
    from net.testing import free_port

    path = tmp / "lan-campaign.dfd"
    g = Game.new(path, scenario, seed)
    for _ in range(400):
        d = g.engine.pending()
        if d is None or d.kind != "setup_place":
            break
        g.act(d.options[0].action)
    g.close()

    def pump(until, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while not until() and time.monotonic() < end:
            qapp.processEvents()
            time.sleep(0.02)
        if not until():
            raise RuntimeError("the LAN screenshot scene did not come together in time")

    win = MainWindow()
    win.resize(1680, 1020)
    win.show()
    win.open_path(path)
    win.settings.player_name = "Rommel"
    dlg = win.host_dialog()
    dlg.resize(980, 720)
    dlg.table.item(0, 0).setText("Rommel")
    dlg.table.cellWidget(0, 1).setCurrentText("Axis")
    others = {"Gariboldi": ("Axis", keymod.generate()), "Wavell": ("Allied", keymod.generate()),
              "O'Connor": ("Allied", keymod.generate()), "Umpire": ("spectator", keymod.generate())}
    for name, (side, key) in others.items():
        dlg.add_seat(name, side, key.public)
    dlg.campaign.setText("Sonnenblume at the club")
    dlg.port.setValue(free_port())
    dlg.announce.setChecked(False)
    if not dlg.start():
        raise RuntimeError(dlg.error.text())
    session = win.host_session
    clients = {n: Client("127.0.0.1", session.port, session.public_key, others[n][1], name=n, heartbeat=0.5).start()
               for n in ("Gariboldi", "Wavell")}
    try:
        pump(lambda: win.ctl.game is not None and win.ctl.presence is not None
             and sum(p.connected for p in win.ctl.presence.players) == 3)
        pump(lambda: len(dlg.events.toPlainText().splitlines()) >= 3)
        qapp.processEvents()
        dlg.show()
        dlg.raise_()
        qapp.processEvents()
        p = out / "lan-host.png"
        dlg.grab().save(str(p))
        shots.append(p)
        dlg.hide()
        clients["Wavell"].send_chat("Good luck, gentlemen. The Desert Air Force sends its regards.", "all")
        pump(lambda: len(win.chat.lines) >= 1)
        win.chat.to.setCurrentIndex(1)
        win.chat.line.setText("Gariboldi, hold Ariete at Agedabia until the 5th Light is through.")
        win.chat.button.click()
        pump(lambda: len(win.chat.lines) >= 2)
        clients["Gariboldi"].send_chat("Ariete is refuelled and ready.", "side")
        pump(lambda: len(win.chat.lines) >= 3)
        win.chat.to.setCurrentIndex(0)
        win.tabs.setCurrentIndex(0)
        st = win.ctl.state()
        hexes = [geo.rec_of(u.loc) for u in st.units.values() if u.side == "Axis" and geo.rec_of(u.loc)]
        if hexes:
            win.view.set_zoom(0.7)
            win.view.centre_on_hex(hexes[len(hexes) // 2].label)
        win.refresh()
        qapp.processEvents()
        time.sleep(0.3)
        qapp.processEvents()
        p = out / "lan-presence-chat.png"
        win.grab().save(str(p))
        shots.append(p)
    finally:
        for c in clients.values():
            c.stop()
        dlg.stop()
        win.close()


if __name__ == "__main__":
    sys.exit(main())
