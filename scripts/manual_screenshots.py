"""Render the player's manual's pictures offscreen into docs/manual/*.png.

    .venv/bin/python scripts/manual_screenshots.py [--out docs/manual]

Drives the real app (``app.mainwindow.MainWindow``) through the manual's own walkthrough: a new
Sonnenblume game with dice seed 1, the Allied set-up placements clicked on the map, the Axis
stack in C0702 moved to C0602 with one click, the attack on the King's Dragoon Guards in C0603
declared on the map and resolved through the combat dialog.  Settings, data, keys and logs live in
a throw-away directory, so the player's own settings and games are never touched.

Every picture the manual shows is written here; ``tests/test_manual.py`` checks they exist.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: The pictures this script writes (docs/manual/NAME), in the order they are taken.
SHOTS = [
    "scenario-picker.png", "main-window-start.png", "setup-targets.png", "hotseat-cover.png",
    "prompt-options.png", "move-preview.png", "movement-orders.png", "moved.png", "declare-attack.png", "combat-dialog.png",
    "combat-result.png", "supply-overlay.png", "offmap-display.png", "cards-panel.png", "dashboard.png",
    "replay-controls.png", "stack-inspector.png", "hotseat-passwords.png", "host-dialog.png", "join-dialog.png",
    "rules-viewer.png",
    # chapter "Playing against the computer" (issue 21)
    "computer-new-game.png", "computer-menu.png", "computer-move.png", "computer-combat.png", "computer-host.png",
]

SCENARIO, SEED = "sonnenblume", 1

#: The prompts of the attack on C0603 that chapter 4 quotes, in the order they come.
COMBAT_PROMPTS = (
    "Commit offensive air (max 2) / naval support (19.5, 20.4.2)",
    "Combat supply for your units in C0602 (12.6)",
    "Combat supply for your units in C0603 (12.6)",
    "Allied loses 1 more step(s): the opposing player picks the first (14.6)",
    "300 Oasis: 'm' result - check morale or withdraw 1-3 hexes (14.5)",
    "Retreat 300 Oasis 0-3 hexes from C0602 (14.7)",
)

#: Chapter 4's walk from the Allied impulse of GT 10 through GT 11 and its Phase I-XX table: (the prompt the
#: manual quotes, the button it tells the player to press).  Every decision of the walk must be one of these.
TURN = [
    ("Conduct refit operations (17.0)", "No (more) refits"),
    ("Move ground units (13.0); overruns, supply and construction actions", "End the Movement Phase"),
    ("Reaction movement (13.5)", "End the Reaction Phase"),
    ("Declare all attacks before resolving any (14.0)", "No attacks"),
    ("Events Phase: declare any eligible event (5.0)", "Done: declare no (further) events"),
    ("No MET track is in play (22.2)", "Done"),
    ("Air Superiority Phase: no (more) air units to deploy", "Done"),
    ("Deploy air unit GE-FFAfrika (1 to go)", "GE-FFAfrika: stay in box:AirNA:Axis"),
    ("Deploy * (* waiting)", "Hold"),
    ("Reinforcement Phase: done", ": done"),
    ("The initiative player expends dumps to activate bases", "No (more) base activations"),
    ("The non-initiative player expends dumps to activate bases", "No (more) base activations"),
    ("Allocate ocean shipping: nothing (more) to ship", "Done"),
    ("Allocate naval units: no (more) fleet to allocate", "Done"),
    ("Strikes on Malta: no (more) air unit can strike Malta", "Done"),
    ("Allocate air units to ocean naval strikes: no (more) air unit can strike", "Done"),
    ("Resolve ocean naval strikes: none (more) to resolve", ": done"),
    ("Conduct training operations (8.5)", ": done"),
    ("Roll 2d6 for the initiative (DRM *", "Roll for initiative"),
    ("You have the initiative: be the 1st or the 2nd player?", "Be the 1st player"),
]
AXIS_STACK, TARGET, KDG = "C0702", "C0602", "C0603"


class Shooter:
    def __init__(self, qapp, out: Path):
        self.qapp = qapp
        self.out = out
        self.done: list[Path] = []

    def settle(self, n: int = 3) -> None:
        from PySide6.QtCore import QEventLoop, QTimer

        for _ in range(n):
            self.qapp.processEvents()
        loop = QEventLoop()
        QTimer.singleShot(250, loop.quit)        # the map's tile cache settles 180 ms after a zoom
        loop.exec()
        self.qapp.processEvents()

    def save(self, widget, name: str, rect=None) -> Path:
        assert name in SHOTS, name
        self.settle()
        pix = widget.grab(rect) if rect is not None else widget.grab()
        p = self.out / name
        pix.save(str(p))
        self.done.append(p)
        return p


def choose(win, text: str) -> None:
    """Press the prompt's option whose label contains ``text`` (as a player clicks its button)."""
    d = win.ctl.pending()
    o = next((o for o in d.options if text in o.label), None)
    if o is None:
        raise SystemExit(f"no option {text!r} in {[o.label for o in d.options]} ({d.kind}, {d.rule})")
    win.choose_option(o)


def expect(ctl, prompt: str, rule: str | None = None, options: tuple[str, ...] = ()) -> None:
    """The manual quotes this prompt (and rule, options): stop if the engine now says something else."""
    d = ctl.pending()
    assert d is not None and d.prompt == prompt, f"the manual quotes {prompt!r}; the engine asks {d and d.prompt!r}"
    assert rule is None or d.rule == rule, f"the manual cites rule {rule}; the prompt cites {d.rule}"
    labels = [o.label for o in d.options]
    assert all(o in labels for o in options), f"the manual quotes the options {options}; offered: {labels}"


def expect_hint(win, start: str) -> None:
    """The manual quotes the prompt line's hint: stop if the app now says something else."""
    got = win.prompt.hint.text()
    assert got.startswith(start), f"the manual quotes the hint {start!r}; the app shows {got!r}"


def reveal(win) -> bool:
    """Pass the hotseat cover (the next player clicks 'I am the … player — show the map')."""
    if win.cover.isVisible():
        win.cover.button.click()
        return True
    return False


def show_hex(win, label: str, zoom: float) -> None:
    win.tabs.setCurrentIndex(0)
    win.view.set_zoom(zoom)
    win.view.centre_on_hex(label)


def walk_turn(win, ctl) -> None:
    """Play from the end of the Axis attack to GT 12 pressing the buttons chapter 4 names; stop if a
    prompt is not one the manual quotes.  Prints the prompts met (for the Phase I-XX table)."""
    from fnmatch import fnmatchcase

    start = ctl.state().gt
    for _ in range(300):
        reveal(win)
        d = ctl.pending()
        st = ctl.state()
        if d is None or st.gt > start + 1:
            break
        hit = next((b for p, b in TURN if fnmatchcase(d.prompt, p)), None)
        assert hit is not None, f"GT {st.gt}: the manual does not quote the prompt {d.prompt!r} ({d.rule}), " \
                                f"options {[o.label for o in d.options]}"
        if d.prompt == "Deploy AX-Dump#1 (9 waiting)":
            expect(ctl, d.prompt, options=("Hold AX-Dump#1 off-map (7.1)", "AX-Dump#1 to C0701", "AX-Dump#1 to box:Italy"))
        if d.kind == "events":
            assert any(o.label.startswith("Play A") for o in d.options), [o.label for o in d.options]
        print(f"  GT {st.gt} {d.side:6} {d.prompt}  [{d.rule}] -> {hit}")
        choose(win, hit)
    assert ctl.state().gt == start + 2, f"the walk stopped in GT {ctl.state().gt}"


def computer_chapter(sh: Shooter, qapp, folder: Path) -> None:
    """The chapter "Playing against the computer": a Sonnenblume game where the computer plays the Axis (the real
    opponent, quick): the New game dialog, Game ▸ Computer, one of its moves with its path and plan, one of its
    combats in the docked panel, and the Host dialog with the computer seated."""
    from PySide6.QtCore import QEventLoop, QPoint, Qt, QTimer

    from app.dialogs import NewGameDialog
    from app.mainwindow import MainWindow

    win = MainWindow()
    win.resize(1600, 980)
    win.show()
    sh.settle()
    dlg = NewGameDialog(win, folder)
    row = next(i for i in range(dlg.list.count()) if dlg.list.item(i).data(Qt.UserRole) == SCENARIO)
    dlg.list.setCurrentRow(row)
    dlg._show()
    dlg.set_player("Axis", "computer")
    dlg.path.setText("/home/player/Documents/sonnenblume-vs-computer.dfd")
    dlg.show()
    sh.save(dlg, "computer-new-game.png")
    dlg.close()

    ctl = win.ctl
    win.computer.set_speed("normal")
    from core.computer import make_computer
    win.computer.factory = lambda side, _seed, setting: make_computer(side, SEED, setting)   # the same pictures
    ctl.new_game(folder / "vs-computer.dfd", SCENARIO, seed=SEED, computer=dlg.computer_sides())
    sh.settle()
    assert ctl.computer == {"Axis": "quick"} and ctl.seat == "Allied"
    # the Allied set-up, placed by the person as in chapter 4; no hand-over cover follows: the computer plays on
    for lab in ("C2331", "C2330", "C2332", "C2410", "C2310"):
        win.hex_clicked(lab, Qt.LeftButton)
        sh.settle(1)
    assert not win.cover.isVisible(), "no hand-over to the computer's side"

    # ---- Game ▸ Computer, opened over the window
    sh.settle()
    menu = win.computer_menu
    menu.popup(win.mapToGlobal(QPoint(260, 30)))
    sh.settle()
    sh.save(menu, "computer-menu.png")
    menu.hide()

    # ---- the computer's turn: the first ground move (path and plan), then the first combat (docked panel)
    state = {"move": False, "combat": 0}

    def wait_until(pred, seconds: float) -> bool:
        end = time.monotonic() + seconds
        while not pred() and time.monotonic() < end:
            loop = QEventLoop()
            QTimer.singleShot(20, loop.quit)
            loop.exec()
        return pred()

    def played(action, _before) -> None:
        if action.kind == "move" and not state["move"]:
            state["move"] = True
            win.computer.set_paused(True)

    win.computer.played.connect(played)
    assert wait_until(lambda: state["move"], 300), "the computer made no ground move"
    sh.save(win, "computer-move.png")
    print("  the computer's plan:", win.computer.plan)
    win.computer.set_paused(False)

    def combat_stage() -> int:
        """0: no combat shown; 1: a combat decision in the docked panel; 2: the same after its die roll."""
        d = ctl.pending()
        if d is None or not d.kind.startswith("combat_") or d.kind == "combat_declare" or not win.dock_combat.isVisible():
            return 0
        info = win.combat_dlg.info
        return 2 if info and info.frame and info.frame.get("die") else 1

    def pause_in_combat() -> None:
        stage = combat_stage()
        if stage > state["combat"]:
            state["combat"] = stage
            win.computer.set_paused(True)

    ctl.changed.connect(pause_in_combat)
    for _ in range(3000):
        if win.computer.paused:                # a combat in the panel: its picture (again after the die roll)
            sh.settle()
            sh.save(win, "computer-combat.png")
            win.computer.set_paused(False)
        if state["combat"] == 2 or ctl.pending() is None or ctl.state().gt > 10:
            break
        d = ctl.pending()
        if win.cover.isVisible():
            win.cover.button.click()
        if d is not None and ctl.can_act(d) and not win.computer.busy:
            win.choose_option(next((o for o in d.options if o.action.kind == "done"), d.options[0]))
        wait_until(lambda: win.computer.busy is False, 30)
        sh.settle(1)
    assert state["combat"], "the computer made no attack in its first turn"
    win.computer.set_paused(False)
    win.computer.shutdown()

    # ---- File ▸ Host this campaign… on this game: the computer keeps its seat, you take the Allied one
    from net.testing import free_port

    host = win.host_dialog()
    host.port.setValue(free_port())
    host.announce.setChecked(False)
    host.resize(900, 680)
    sh.save(host, "computer-host.png")
    host.hide()
    win.close()
    sh.settle(1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "manual")
    ap.add_argument("--only", choices=["computer"], help="render one chapter's pictures only")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="dfd-manual-"))
    for var, sub in (("DFD_CONFIG_DIR", "config"), ("DFD_DATA_DIR", "data"), ("DFD_KEY_DIR", "keys"),
                     ("DFD_LOG_DIR", "log")):
        os.environ[var] = str(tmp / sub)

    from PySide6.QtCore import QRect, Qt
    from PySide6.QtWidgets import QApplication

    import app  # noqa: F401  (installs the PySide6/py3.11 workaround)
    from app import theme
    from app.dialogs import NewGameDialog, PasswordsDialog
    from app.mainwindow import MainWindow

    qapp = QApplication.instance() or QApplication([])
    qapp.setApplicationName("Desert Fox Campaign Manager")
    theme.apply_style(qapp)
    args.out.mkdir(parents=True, exist_ok=True)
    sh = Shooter(qapp, args.out)

    if args.only == "computer":
        computer_chapter(sh, qapp, tmp / "data")
        for p in sh.done:
            print(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p)
        return 0

    win = MainWindow()
    win.resize(1600, 980)
    win.show()
    sh.settle()

    # ---- File ▸ New game…: the scenario picker on Sonnenblume, seed 1
    dlg = NewGameDialog(win, tmp / "data")
    row = next(i for i in range(dlg.list.count()) if dlg.list.item(i).data(Qt.UserRole) == SCENARIO)
    dlg.list.setCurrentRow(row)
    dlg.seed.setText(str(SEED))
    dlg._show()
    dlg.path.setText("/home/player/Documents/sonnenblume.dfd")
    dlg.show()
    sh.save(dlg, "scenario-picker.png")
    dlg.close()

    # ---- the game starts: Allied set-up placements (26.2) with the legal hexes highlighted
    ctl = win.ctl
    ctl.new_game(tmp / "data" / "sonnenblume.dfd", SCENARIO, seed=SEED)
    sh.settle()
    expect(ctl, "Set up Fort on or adjacent to C2331 (5 left to place)", "26.2")
    reveal(win)
    show_hex(win, "C2331", 0.9)
    sh.save(win, "main-window-start.png")
    show_hex(win, "C2331", 1.5)
    sh.save(win.view, "setup-targets.png")
    # three forts on Tobruk's hexes, the two Australian brigade groups near C2410
    for lab in ("C2331", "C2330", "C2332", "C2410", "C2310"):
        d = ctl.pending()
        assert d.kind == "setup_place", d.kind
        win.hex_clicked(lab, Qt.LeftButton)
        sh.settle(1)
    # ---- the hand-over to the Axis player (hotseat cover)
    assert win.cover.isVisible(), "no hand-over after the Allied set-up"
    sh.save(win, "hotseat-cover.png")
    reveal(win)

    # ---- Phase XII: refit (17.0), then the Movement Phase prompt with its options
    expect(ctl, "Conduct refit operations (17.0)", options=("No (more) refits",))
    expect_hint(win, "Also possible on the map and in the panels: refit in a hex, refit from the Refit Box")
    choose(win, "No (more) refits")
    expect(ctl, "Move ground units (13.0); overruns, supply and construction actions")
    expect_hint(win, "Click one of your stacks, then a reachable hex to move it; the Movement orders panel has the "
                     "other orders.")
    # ---- select the Axis stack, hover the target: reachable hexes with MP and the route
    win.hex_clicked(AXIS_STACK, Qt.LeftButton)
    win._hovered(TARGET)
    assert "Click: move" in win.hover_label.text(), win.hover_label.text()      # the status bar, before the click
    assert "⚠" in win.hover_label.text() and "10.2" in win.hover_label.text(), "the manual quotes the stacking warning"
    print("  status bar:", win.hover_label.text())
    show_hex(win, "C0703", 1.25)
    sh.save(win, "move-preview.png")
    assert win.orders.isVisible() and len(win.orders.checks) == 7, "the Movement orders panel lists the stack's 7 units"
    assert all(cb.isChecked() for cb in win.orders.checks.values()), "all units are checked by default"
    win.dock_inspector.setMinimumWidth(430)
    win.orders_scroll.setMinimumHeight(win.orders.sizeHint().height() + 4)
    sh.settle()
    sh.save(win.orders, "movement-orders.png")
    win.orders_scroll.setMinimumHeight(0)
    win.orders_scroll.hide()                             # the inspector alone, at its full height
    sh.save(win.inspector, "stack-inspector.png")
    win.orders_scroll.show()
    win.dock_inspector.setMinimumWidth(0)
    win.hex_clicked(TARGET, Qt.LeftButton)               # one click: the engine's route
    win._hovered("")
    assert ctl.state().units["GE-5Pz"].loc == TARGET, ctl.state().units["GE-5Pz"].loc
    show_hex(win, "C0703", 1.25)
    sh.save(win.view, "moved.png")
    choose(win, "End the Movement Phase")

    # ---- Phase XIII: the Allied Reaction Phase (hand-over both ways)
    reveal(win)
    expect(ctl, "Reaction movement (13.5)", options=("End the Reaction Phase", "Try to destroy the dump in C0803 (12.2.5)"))
    top = win.phasebar.mapTo(win, win.phasebar.rect().topLeft())
    bottom = win.prompt.mapTo(win, win.prompt.rect().bottomRight())
    right = win.phasebar.mapTo(win, win.phasebar.rect().topRight()).x()
    sh.save(win, "prompt-options.png", QRect(top.x(), top.y(), min(right, top.x() + 1500) - top.x(), bottom.y() - top.y()))
    choose(win, "End the Reaction Phase")
    reveal(win)

    # ---- Phase XIV: declare the attack on the map, odds overlay on
    expect(ctl, "Declare all attacks before resolving any (14.0)")
    assert ctl.query("odds", attackers=win._stack_units(TARGET, side="Axis"), hex=KDG)["odds"] == "7:1"
    win.dock_combat.hide()
    win.hex_clicked(TARGET, Qt.LeftButton)
    for i in range(win.overlay_list.count()):
        it = win.overlay_list.item(i)
        if it.data(Qt.UserRole) == "odds" and it.flags() & Qt.ItemIsEnabled:
            it.setCheckState(Qt.Checked)
    show_hex(win, TARGET, 1.6)
    sh.save(win.view, "declare-attack.png")
    win.hex_clicked(KDG, Qt.LeftButton)                  # the highlighted enemy hex: declare
    for i in range(win.overlay_list.count()):
        win.overlay_list.item(i).setCheckState(Qt.Unchecked)
    choose(win, "No more attacks")
    # resolve: combat supply for both sides, then the die roll; picture the dialog at the first
    # decision after the roll, then play on to the end of the combat
    prefer = {"combat_supply": ("Expend", "No combat supply"), "combat_line": ("Line",),
              "combat_support": ("No (more)",), "combat_battlefield_supply": ("Do not search",),
              "combat_morale": ("take the morale check",), "combat_retreat": ("end the retreat",)}
    shot_dialog = False
    seen: list[str] = []
    passed0 = len(ctl.passed)
    for _ in range(60):
        reveal(win)
        d = ctl.pending()
        if d is None or not d.kind.startswith("combat_"):
            break
        seen.append(d.prompt)
        assert win.combat_dlg.isVisible() or win.cover.isVisible(), f"no combat panel for {d.kind}"
        info = win.combat_dlg.info
        rolled = bool(info and info.frame and info.frame.get("die"))
        if not shot_dialog and (rolled or d.kind in ("combat_loss", "combat_morale", "combat_retreat", "combat_advance")):
            win.refresh()
            sh.save(win, "combat-dialog.png")                # the docked panel beside the map, the result on top
            shot_dialog = True
        if d.kind == "combat_advance":
            targets = [lab for lab in win.scene.targets.cells]
            if targets:
                win.hex_clicked(targets[0], Qt.LeftButton)
                continue
        o = next((o for t in prefer.get(d.kind, ()) for o in d.options if t in o.label), d.options[0])
        win.choose_option(o)
    if not shot_dialog:
        sh.save(win, "combat-dialog.png")
    print("  passed without a click:", ctl.passed[passed0:])
    shown = list(seen)
    for side, label, prompt in ctl.passed[passed0:]:    # a step with one answer passes by itself (issue 19)
        if prompt not in seen:
            seen.append(prompt)
    for quoted in COMBAT_PROMPTS:                        # chapter 4 quotes these, in this order
        assert quoted in seen, f"the manual quotes the combat prompt {quoted!r}; the engine asked {seen}"
    order = [shown.index(q) for q in COMBAT_PROMPTS if q in shown]
    assert order == sorted(order), shown
    reveal(win)
    assert ctl.state().units["UK-KDG"].loc.startswith("box:"), ctl.state().units["UK-KDG"].loc   # the manual says so
    assert not win.combat_dlg.isVisible(), "the combat panel closes when the combat is over"
    print("  status bar after the combat:", win.status.currentMessage())
    show_hex(win, KDG, 1.4)
    sh.save(win, "combat-result.png")                    # the map after the combat, the outcome in the status bar

    # ---- the supply overlay (12.0) for the side to act
    for i in range(win.overlay_list.count()):
        it = win.overlay_list.item(i)
        if it.data(Qt.UserRole) == "supply_overlay" and it.flags() & Qt.ItemIsEnabled:
            it.setCheckState(Qt.Checked)
    show_hex(win, "C2325", 0.8)
    win._raise_dock(win.dock_layers)
    sh.save(win, "supply-overlay.png")                   # the map with the overlay and its legend (Layers panel)
    for i in range(win.overlay_list.count()):
        win.overlay_list.item(i).setCheckState(Qt.Unchecked)

    # ---- the other tabs
    for i, name in ((1, "offmap-display.png"), (2, "cards-panel.png"), (3, "dashboard.png")):
        win.tabs.setCurrentIndex(i)
        sh.save(win.tabs.currentWidget(), name)
    win.tabs.setCurrentIndex(0)

    # ---- replay: two actions back
    win.logpanel.btn_replay.click()
    win.logpanel.btn_back.click()
    win.logpanel.btn_back.click()
    sh.save(win.dock_log, "replay-controls.png")
    win.logpanel.btn_replay.click()                      # back to live play

    # ---- Game ▸ Hotseat and passwords…
    pw = PasswordsDialog(win, win.settings)
    pw.show()
    sh.save(pw, "hotseat-passwords.png")
    pw.close()

    # ---- Help ▸ Rule for this prompt (F1), when the rules text is found
    win.open_rule("4.1")
    if getattr(win, "_rules", None) is not None:
        win._rules.resize(900, 640)
        sh.save(win._rules, "rules-viewer.png")
        win._rules.close()

    # ---- File ▸ Host this campaign… (started on loopback, no LAN announcement) and File ▸ Join…
    from app.lan import JoinDialog
    from net.testing import free_port

    host = win.host_dialog()
    host.table.item(0, 0).setText("Rommel")
    host.table.cellWidget(0, 1).setCurrentText("Axis")
    host.port.setValue(free_port())
    host.announce.setChecked(False)
    host.resize(900, 680)
    host.start(bind="127.0.0.1")
    sh.settle(5)
    sh.save(host, "host-dialog.png")
    host.stop()
    host.hide()
    join = JoinDialog(win, win.settings, discover=False)
    join.name.setText("Wavell")
    join.show()
    sh.save(join, "join-dialog.png")
    join.close()

    # ---- chapter 4's walk on: the Allied impulse of GT 10, then GT 11 phase by phase (the table)
    walk_turn(win, ctl)

    win.close()
    sh.settle(1)
    computer_chapter(sh, qapp, tmp / "data")
    missing = [n for n in SHOTS if not (args.out / n).exists()]
    for p in sh.done:
        print(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p)
    if missing:
        print("not written:", ", ".join(missing), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
