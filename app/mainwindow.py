"""The main window: phase bar, prompt, map (with minimap), docks, menus.

The window never decides a rule: it shows ``controller.pending()`` — the
engine's decision — with its options as buttons or highlighted map targets, and
sends the chosen action back through :meth:`GameController.act`.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QGuiApplication, QIcon, QKeySequence
from PySide6.QtWidgets import (
    QApplication, QCheckBox, QDockWidget, QFileDialog, QHBoxLayout, QLabel, QLineEdit, QListWidget,
    QListWidgetItem, QMainWindow, QMenu, QMessageBox, QPushButton, QScrollArea, QSizePolicy, QSlider, QSplitter, QStatusBar,
    QTabWidget, QToolBar,
    QVBoxLayout, QWidget,
)

from app import counterart, geometry as geo, mapinfo, theme
from app.cards import CardsPanel
from app import computer as computer_ui
from app.combat import (
    GROUP_KINDS, CombatDialog, CombatInfo, CombatPanel, answer_of, gather as gather_combat, is_combat, map_hex, place,
)
from app.controller import GameController
from app.interaction import Click, MapInteraction
from app.dashboard import Dashboard
from app.flow import ElidedLabel
from app.names import humanize
from app.dialogs import HotseatCover, NewGameDialog, PasswordsDialog, RulesViewer
from app.lan import ChatPanel, HostDialog, JoinDialog, PresencePanel
from app.scan import Calibration, CalibrationDialog, CalibrationError, ScanItem, choose_scan, load_pixmap
from app.mapview import MapScene, MapView, Minimap
from app.offmap import OffMapDisplay
from app import refitdrag
from app.orders import MovementOrders
from app.panels import LogPanel, PhaseBar, PromptBar, StackInspector, stays_a_button
from app.settings import Settings, data_dir
from core import sequence
from core.decisions import ALLIED, AXIS, Action, Decision, Option
from core.scenario import load as load_scenario

ICON = Path(__file__).resolve().parent.parent / "resources" / "icons" / "dfd.svg"

LAYER_NAMES = [
    ("terrain", "Terrain", "Hex terrain and hexside features (from the map data)"),
    ("scan", "Scanned maps", "Your own scans of the printed maps, aligned with three hexes (View ▸ Background scan)"),
    ("roads", "Roads, tracks and rail", "Primary and secondary roads, desert tracks and the railway"),
    ("grid", "Hex grid", "The hex outlines"),
    ("labels", "Hex numbers", "DFD hex numbers (C2331) — they appear as you zoom in"),
    ("names", "Place names", "Towns, ports and oases"),
    ("sheets", "Map sheets", "Edges and titles of the six maps"),
    ("counters", "Counters", "Units on the map"),
    ("control", "Hex control", "Which side controls each hex (2.2.2)"),
    ("highlights", "Legal targets and overlays", "Hexes the pending decision or an overlay highlights"),
]

#: Overlays computed by the engine: (query name, title, tooltip).  Each is enabled only when
#: the engine registers the query (core.engine.QUERIES); the app never computes them itself.
#: The supply overlay's colours: (line of supply, line of communication) -> colour (12.0).
SUPPLY_COLOURS = {(True, True): "#38761d", (True, False): "#93c47d", (False, True): "#e6b54a"}

#: The legend of each overlay: (colour, meaning) rows shown under the overlay list when it is on.
LEGENDS = {
    "reachable": [("#9fd3a0", "reachable by the selected stack; the MP it costs (13.0)")],
    "zoc": [("#5f6d73", "Axis zone of control (11.0)"), ("#b08d4a", "Allied zone of control"),
            ("#7b4a8a", "both sides' zones (ZOC ×2)")],
    "supply_overlay": [("#38761d", "line of supply and of communication (LOS+LOC, 12.0)"),
                       ("#93c47d", "line of supply only (LOS)"), ("#e6b54a", "line of communication only (LOC)")],
    "odds": [("#e06666", "odds of the selected stack attacking this hex (14.0); 'no attack': the engine refuses")],
    "interdiction_cost": [("#6fa8dc", "extra MP for enemy units next to interdicted hexes (19.6)")],
}

OVERLAYS = [
    ("reachable", "Reachable hexes (MP cost)", "Hexes the selected stack can reach, with the MP cost (13.0)"),
    ("zoc", "Zones of control", "Enemy zones of control (11.0)"),
    ("supply_overlay", "Supply (LOS/LOC, sources)", "Lines of supply and communication per side (12.0)"),
    ("odds", "Combat odds preview", "Odds of an attack on the hovered hex (14.0)"),
    ("interdiction_cost", "Interdiction", "Extra MP for enemy units around interdicted hexes (19.6, Air Interdiction Chart)"),
]


class MainWindow(QMainWindow):
    def __init__(self, settings: Settings | None = None, controller: GameController | None = None):
        super().__init__()
        self.settings = settings or Settings.load()
        self.ctl = controller or GameController(self)
        self.ctl.hotseat = self.settings.hotseat
        self.ctl.auto_pass = self.settings.auto_pass
        self.local_ctl = self.ctl            # the hotseat controller (on the file) while a LAN game is shown
        self.host_session = None             # app.lan.HostSession while hosting
        self.host_dlg: HostDialog | None = None
        self._ctl_links: list = []
        self.mi = MapInteraction()          # what a map click means (idle / stack selected / route / target)
        self.board = _WindowBoard(self)
        self.selected_box: str | None = None
        self._reach: tuple[tuple, dict[str, float], dict[str, list[str]]] | None = None   # (key, MP, paths)
        self._with_paths_ok: bool | None = None     # reachable(..., with_paths=True) accepted by the engine?
        self._routes: dict[tuple, tuple[list[str], float | None] | None] = {}
        self._log_len = -1
        self._hover = ""
        self.setWindowTitle("Desert Fox Campaign Manager")
        if ICON.exists():
            self.setWindowIcon(QIcon(str(ICON)))
        self.resize(1500, 940)

        # ---- map
        self.scene = MapScene(self.settings.layers)
        self.view = MapView(self.scene)
        self.minimap = Minimap(self.view, self.scene)

        # ---- top bars
        self.phasebar = PhaseBar()
        self.prompt = PromptBar()
        self.prompt.optionChosen.connect(self.choose_option)
        self.prompt.distinguish = self._option_origin
        self.prompt.ruleClicked.connect(self.open_rule)

        # ---- centre tabs
        self.offmap = OffMapDisplay()
        self.offmap.boxClicked.connect(self._box_clicked)
        self.offmap.canvas.drop_handler = self.drop_unit
        self.offmap.canvas.draggable = lambda uid: bool(self._unit_options(uid)) or self._refit_draggable(uid)
        self.view.drop_targets = self._drop_targets
        self.offmap.canvas.drop_targets = self._drop_boxes
        self.view.drop_handler = self.drop_unit
        self.cards = CardsPanel()
        self.dashboard = Dashboard()
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.view, "Map")
        self.tabs.addTab(self.offmap, "Off-map display")
        self.tabs.addTab(self.cards, "Cards")
        self.tabs.addTab(self.dashboard, "Dashboard")
        self.tabs.setTabToolTip(0, "All six maps on one grid (F2)")
        self.tabs.setTabToolTip(1, "Turn Record Track, holding boxes and tracks (F3)")
        self.tabs.setTabToolTip(2, "Both sides' event cards (F4)")
        self.tabs.setTabToolTip(3, "Campaign charts (F5)")
        self.tabs.currentChanged.connect(lambda _i: self._refresh_tabs())
        # dragging a counter over a tab opens it (off-map display -> map)
        self.tabs.tabBar().setAcceptDrops(True)
        self.tabs.tabBar().installEventFilter(self)

        central = QWidget()
        cl = QVBoxLayout(central)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(0)
        cl.addWidget(self.phasebar)
        cl.addWidget(self.prompt)
        cl.addWidget(self.tabs, 1)
        self.setCentralWidget(central)

        # ---- docks
        self.inspector = StackInspector()
        self.orders = MovementOrders(self)
        self.orders.changed.connect(self._orders_changed)
        # the movement order panel (shown during movement decisions) above the stack inspector; both scroll
        self.orders_scroll = QScrollArea()
        self.orders_scroll.setWidgetResizable(True)
        self.orders_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.orders_scroll.setFrameShape(QScrollArea.NoFrame)
        self.orders_scroll.setWidget(self.orders)
        self.orders_scroll.hide()
        self.orders.on_visible = self.orders_scroll.setVisible
        stack_box = QSplitter(Qt.Vertical)
        stack_box.setChildrenCollapsible(False)
        stack_box.addWidget(self.orders_scroll)
        stack_box.addWidget(self.inspector)
        stack_box.setStretchFactor(0, 3)
        stack_box.setStretchFactor(1, 2)
        self.stack_split = stack_box
        self.logpanel = LogPanel()
        self.logpanel.replayRequested.connect(self.ctl.set_replay)
        self.layers_panel = self._build_layers_panel()
        self.dock_inspector = self._dock("Stack inspector", stack_box, Qt.RightDockWidgetArea)
        self.dock_log = self._dock("Game log and replay", self.logpanel, Qt.RightDockWidgetArea)
        self.dock_layers = self._dock("Layers and overlays", self.layers_panel, Qt.LeftDockWidgetArea)
        # ---- LAN: presence and chat (shown while hosting or joined)
        self.presence = PresencePanel()
        self.chat = ChatPanel()
        self.chat.send.connect(self._send_chat)
        self.dock_presence = self._dock("Players", self.presence, Qt.LeftDockWidgetArea)
        self.dock_chat = self._dock("Chat", self.chat, Qt.LeftDockWidgetArea)
        self.tabifyDockWidget(self.dock_layers, self.dock_presence)
        self.dock_layers.raise_()
        self.dock_presence.hide()
        self.dock_chat.hide()
        self.resizeDocks([self.dock_inspector, self.dock_log], [330, 330], Qt.Horizontal)
        self.resizeDocks([self.dock_layers], [210], Qt.Horizontal)
        self.resizeDocks([self.dock_inspector, self.dock_log], [520, 300], Qt.Vertical)

        # ---- combat panel, docked beside the map (its buttons are the pending combat decision's options)
        self.combat_dlg = CombatPanel(self)
        self.combat_dlg.optionChosen.connect(self.choose_option)
        self.dock_combat = self._dock("Combat", self.combat_dlg, Qt.RightDockWidgetArea)
        self.combat_dlg.dock = self.dock_combat
        self.tabifyDockWidget(self.dock_inspector, self.dock_combat)
        self.dock_combat.hide()
        self._combat_seen: CombatInfo | None = None     # the last combat shown (its outcome is reported when it ends)

        # ---- cover (hotseat)
        self.cover = HotseatCover(self, self.settings)
        self.cover.revealed.connect(self._revealed)

        # ---- the computer (issue 21): plays the hotseat controller's computer sides, off the GUI thread
        self.computer = computer_ui.ComputerOpponent(self.local_ctl, parent=self)
        self.computer.set_speed(self.settings.computer_speed if self.settings.computer_speed in computer_ui.SPEEDS
                                else "normal")
        self.computer.thinking.connect(self._computer_thinking)
        self.computer.planned.connect(self._computer_planned)
        self.computer.played.connect(self._computer_played)
        self.computer.pausedChanged.connect(lambda _p: self._sync_computer_actions())
        self.computer.unavailable.connect(lambda text: (self.status.showMessage(text, 15000), self._sync_computer_actions()))
        self._computer_routes: list[tuple[list[str], str, str]] = []   # the computer's last move, drawn on the map

        # ---- status bar
        self.status = QStatusBar()
        # elided, never wider than the window: a long route in the status bar must not widen it (issue 19)
        self.hover_label = ElidedLabel("", min_chars=20)
        self.hover_label.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)
        self.file_label = ElidedLabel("", min_chars=12)
        self.file_label.setMaximumWidth(420)
        self.file_label.setStyleSheet("color:#6b5a3a")
        self.status.addWidget(self.hover_label, 1)
        # the computer's plan sentence (issue 21): what it is doing, in its own words
        self.computer_label = ElidedLabel("", min_chars=12)
        self.computer_label.setObjectName("ComputerPlan")
        self.computer_label.setMaximumWidth(520)
        self.computer_label.setStyleSheet("color:#3b5f7a")
        self.computer_label.hide()
        self.status.addPermanentWidget(self.computer_label)
        self.status.addPermanentWidget(self.file_label)
        self.setStatusBar(self.status)

        self._build_actions()
        self._build_toolbar()
        self._build_menus()

        # ---- signals
        self.view.hexClicked.connect(
            lambda lab, b: self.hex_clicked(lab, b, bool(QApplication.keyboardModifiers() & Qt.ShiftModifier)))
        self.view.drag_source = self._drag_source
        self.view.hexDragStarted.connect(self._drag_started)
        self.view.hexDragged.connect(self.drag_move)
        self.view.hexHovered.connect(self._hovered)
        self._connect_controller(self.ctl)

        self._install_scans()
        self._sync_computer_actions()
        if self.settings.geometry:
            self.restoreGeometry(QByteArray.fromBase64(self.settings.geometry.encode()))
        self.refresh()

    # ================================================================ controllers (hotseat file or LAN replica)
    def _connect_controller(self, ctl: GameController) -> None:
        links = [(ctl.changed, self.refresh), (ctl.loaded, self._loaded), (ctl.refused, self._refused),
                 (ctl.handover, self._handover), (ctl.acted, self._acted),
                 (ctl.notice, self._notice)]
        if ctl.remote_mode:
            links += [(ctl.remote.presenceChanged, self._presence_changed), (ctl.remote.chatReceived, self.chat.add),
                      (ctl.status, self._lan_status), (ctl.remote.welcomed, self._presence_changed)]
        self._ctl_links = [(sig, slot) for sig, slot in links if sig.connect(slot) or True]

    def _switch_controller(self, ctl: GameController) -> None:
        for sig, slot in self._ctl_links:
            try:
                sig.disconnect(slot)
            except (RuntimeError, TypeError):
                pass
        self._ctl_links = []
        self.ctl = ctl
        self._connect_controller(ctl)
        self._log_len = -1
        self._reach = None
        self._routes = {}
        self.selected_hex = None
        self.selected_box = None
        self.dock_combat.hide()
        self.cover.hide()
        self._update_lan_actions()
        self.refresh()

    # ================================================================ dragging counters from the off-map display
    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        from PySide6.QtCore import QEvent

        from app.offmap import dragged_unit

        if obj is self.tabs.tabBar() and event.type() in (QEvent.DragEnter, QEvent.DragMove) \
                and dragged_unit(event.mimeData()):
            i = obj.tabAt(event.position().toPoint())
            if i >= 0 and i != self.tabs.currentIndex():
                self.tabs.setCurrentIndex(i)
            event.acceptProposedAction()
            return True
        return super().eventFilter(obj, event)

    def _unit_options(self, uid: str) -> list[Option]:
        """The pending decision's options about unit ``uid`` (those this screen may answer)."""
        d = self.ctl.pending()
        if d is None or self.ctl.replaying or not self.ctl.can_act(d):
            return []
        return [o for o in d.options if uid in option_units(o.action)]

    def drop_unit(self, uid: str, target: str) -> bool:
        """A counter dropped on a hex or box: send the pending decision's option that puts ``uid`` there.

        An enumerated option naming the unit and the target is sent as is.  Otherwise, when the decision
        takes that kind of action free-form (e.g. a placement anywhere within range), the unit's option
        with the target replaced is sent and the engine judges it (its refusal cites the rule).  Anything
        else is not sent: the counter stays where it was and the prompt line says why.
        """
        st, d = self.ctl.state(), self.ctl.pending()
        name = counterart.face_of(st.units[uid]).title() if st is not None and uid in st.units else uid
        where = self.offmap.title_of(target) if target.startswith(("box:", "track:", "card:")) else target
        if d is None:
            self._refused(f"{name} stays put: the scenario has ended", "4.1 XX")
            return False
        if self.ctl.replaying:
            self._refused("Leave replay mode to play: the replay shows a past state of the game", "replay")
            return False
        if not self.ctl.can_act(d):
            self._refused(f"{name} stays put: the game waits for the {d.side} side ({d.prompt})", d.rule)
            return False
        if self._refit_draggable(uid):
            return self._drop_refit(uid, target, name)
        mine = self._unit_options(uid)
        exact = [o for o in mine if option_target(o.action) == target]
        if len(exact) == 1:
            return self.ctl.act(exact[0].action)
        if len(exact) > 1:
            menu = QMenu(self)
            for o in exact:
                menu.addAction(humanize(o.label), lambda o=o: self.ctl.act(o.action))
            menu.exec(self.cursor().pos())
            return True
        free = next((o for o in mine if o.action.kind in d.free_kinds and retarget(o.action, target) is not None), None)
        if free is not None:
            return self.ctl.act(retarget(free.action, target))
        if mine:
            dests = sorted({t for o in mine if (t := option_target(o.action))})
            self._refused(f"{name} cannot go to {where} now: {d.prompt}"
                          + (f" — its choices: {', '.join(dests[:8])}{'…' if len(dests) > 8 else ''}" if dests else ""),
                          d.rule)
        else:
            self._refused(f"{name} stays put: the pending decision ({d.prompt}) offers nothing for it", d.rule)
        return False

    def _refit_draggable(self, uid: str) -> bool:
        d = self.ctl.pending()
        if d is None or self.ctl.replaying or not self.ctl.can_act(d):
            return False
        return refitdrag.can_drag(d, self.ctl.state(), uid)

    def _refit_base(self, uid: str) -> str | None:
        """Where the engine will put ``uid`` when its refit action has no destination (17.2), if it can be dragged."""
        if not self._refit_draggable(uid):
            return None
        return refitdrag.primary_base(self.ctl.state(), self.ctl.pending().side)

    def _drop_targets(self, uid: str) -> dict:
        """Shown on the map under a drag: the Axis primary base hex (12.2.4)."""
        base = self._refit_base(uid)
        return {base: ("primary base", None)} if base and not base.startswith("box:") else {}

    def _drop_boxes(self, uid: str) -> dict:
        """Shown in the off-map display under a drag: the Allied primary base, the Nile River Valley box (22.1)."""
        base = self._refit_base(uid)
        return {base: "primary base"} if base and base.startswith("box:") else {}

    def _drop_refit(self, uid: str, target: str, name: str) -> bool:
        """17.2: a counter from the Refit Box dropped on the primary base (the engine's placement) — or, for a
        desert garrison, elsewhere as ``to`` (16.1): ask for the RP and steps and send ``refit_box``."""
        st, d = self.ctl.state(), self.ctl.pending()
        base = refitdrag.primary_base(st, d.side)
        if target == refitdrag.refit_box_of(d.side):
            return False
        to = None if target == base else target
        args = refitdrag.ask(self, st, d.side, uid, base, to)
        if args is None:
            self.status.showMessage(f"{name}: refit cancelled", 5000)
            return False
        return self.ctl.act(Action(kind="refit_box", side=d.side, args=args))

    def _acted(self, entry) -> None:
        self.prompt.clear_refusal()
        if entry is not None and entry.action.side not in self.ctl.computer:
            self._computer_routes = []          # a person played: the computer's last move is no longer drawn

    # ================================================================ the computer (issue 21)
    def _computer_thinking(self, side: str) -> None:
        self._show_computer_state()

    def _computer_planned(self, side: str, plan: str) -> None:
        self._show_computer_state()

    def _computer_played(self, action: Action, before: dict) -> None:
        """Show the computer's move: its path drawn on the map (kept in view) until its next move or yours."""
        path = [str(h) for h in (action.args.get("path") or [])]
        routes: list[tuple[list[str], str, str]] = []
        if action.kind in ("move", "oasis_move") and path:
            start = next((before[u] for u in before if geo.rec_of(str(before[u])) is not None), None)
            route = ([str(start)] if start is not None and str(start) != path[0] else []) + path
            routes.append((route, "#c27ba0", f"{self.board.units_text(list(before))} moved"))
        # (its declared attacks are drawn with their odds like anyone's, and its combats open the combat panel)
        self._computer_routes = routes
        if routes and self.computer.speed != "instant":
            self.select_hex(routes[0][0][-1])       # the stack it moved, in the stack inspector
            self._keep_in_view(routes[0][0])
        if routes:
            self._update_combat(self.ctl.pending())
        self._show_computer_state()

    def _show_computer_state(self) -> None:
        """The status bar's computer line and, while the computer is to play, the prompt's hint."""
        ctl = self.ctl
        if not ctl.computer or ctl.remote_mode:
            self.computer_label.hide()
            return
        side = ctl.computer_side()
        plan = self.computer.plan
        if side is not None:
            doing = "paused (Game ▸ Computer ▸ Resume the computer)." if self.computer.paused else "thinking…"
            text = f"Computer ({side}, {ctl.computer[side]}): {doing}" + (f"  ·  {plan}" if plan else "")
            self.prompt.hint.setText(f"The computer plays the {side} side: {doing}"
                                     + (f" Its plan: {plan}" if plan else ""))
        else:
            text = f"Computer: {plan}" if plan else "Computer: waiting for your move"
        self.computer_label.setText(text)
        self.computer_label.setToolTip(text)
        self.computer_label.show()

    def set_computer_side(self, side: str, on: bool) -> None:
        """Game ▸ Computer: hand ``side`` to the computer (at the chosen setting) or take it back."""
        if self.ctl.remote_mode:
            self.status.showMessage("In a LAN game the host seats the computer (File ▸ Host this campaign…)", 8000)
            self._sync_computer_actions()
            return
        self.ctl.set_computer(side, self.settings.computer_setting if on else None)
        self.status.showMessage(f"The computer plays the {side} side ({self.settings.computer_setting})" if on
                                else f"You play the {side} side again", 8000)
        self._sync_computer_actions()

    def set_computer_setting(self, setting: str) -> None:
        self.settings.computer_setting = setting
        self._save_settings()
        for side in list(self.ctl.computer):
            self.ctl.set_computer(side, setting)
        self._sync_computer_actions()

    def set_computer_speed(self, speed: str) -> None:
        self.computer.set_speed(speed)
        self.settings.computer_speed = speed
        self._save_settings()
        self._sync_computer_actions()

    def _sync_computer_actions(self) -> None:
        for side, a in self.a_computer_side.items():
            a.blockSignals(True)
            a.setChecked(side in self.ctl.computer)
            a.setEnabled(not self.ctl.remote_mode and self.ctl.game is not None and not self.ctl.watching)
            a.blockSignals(False)
        current = next(iter(self.ctl.computer.values()), self.settings.computer_setting)
        for setting, a in self.a_computer_setting.items():
            a.setChecked(setting == current)
        for speed, a in self.a_computer_speed.items():
            a.setChecked(speed == self.computer.speed)
        self.a_pause.setEnabled(bool(self.ctl.computer) and not self.ctl.remote_mode)
        self.a_pause.setText("Resume the computer" if self.computer.paused else "Pause the computer")
        self._show_computer_state()

    def _toggle_pause(self) -> None:
        self.computer.set_paused(not self.computer.paused)

    def _notice(self, text: str) -> None:
        self.status.showMessage(text, 8000)

    # ================================================================ background scans
    def load_scan(self, path: str | None = None, cal: Calibration | None = None) -> bool:
        """Load a scan and align it: the calibration dialog (three hexes) → affine transform → settings."""
        path = path or choose_scan(self, self.settings.last_dir)
        if not path:
            return False
        try:
            dlg = CalibrationDialog(self, path, cal)
        except CalibrationError as exc:
            QMessageBox.warning(self, "Cannot use this image", str(exc))
            return False
        if dlg.exec() != CalibrationDialog.Accepted:
            return False
        self.add_scan(dlg.calibration())
        return True

    def add_scan(self, cal: Calibration) -> None:
        cal.coefficients()                     # raises CalibrationError on a bad calibration
        self.settings.scans = [s for s in self.settings.scans if s.get("path") != cal.path] + [cal.to_json()]
        self._save_settings()
        self._install_scans()
        if not self.settings.layers.get("scan", True):
            self.set_layer("scan", True)

    def show_ledger(self) -> None:
        from app.ledger import LedgerDialog
        LedgerDialog(self, self.local_ctl.path if self.ctl is self.local_ctl else None).exec()

    def remove_scans(self) -> None:
        self.settings.scans = []
        self._save_settings()
        self._install_scans()

    def _fill_realign(self) -> None:
        self.realign_menu.clear()
        for doc in self.settings.scans:
            cal = Calibration.from_json(doc)
            self.realign_menu.addAction(Path(cal.path).name, lambda cal=cal: self.load_scan(cal.path, cal))
        if not self.settings.scans:
            self.realign_menu.addAction("(no scans loaded)").setEnabled(False)

    def _install_scans(self) -> None:
        items = []
        for doc in self.settings.scans:
            try:
                cal = Calibration.from_json(doc)
                items.append(ScanItem(cal, load_pixmap(cal.path)))
            except (CalibrationError, KeyError, ValueError, TypeError) as exc:
                self.status.showMessage(f"Scan not shown: {exc}", 10000)
        self.scene.scan_opacity = self.settings.scan_opacity
        self.scene.set_scans(items)

    def _scan_opacity_changed(self, v: int) -> None:
        self.settings.scan_opacity = v / 100.0
        self.scene.set_scan_opacity(self.settings.scan_opacity)
        self._save_settings()

    # ================================================================ LAN
    def host_dialog(self) -> HostDialog | None:
        """File ▸ Host this campaign…: seats, port, join code and fingerprint (the dialog stays available)."""
        path = self.local_ctl.path
        if path is None:
            QMessageBox.information(self, "Host this campaign", "Open or create a game first: the host serves its file.")
            return None
        if self.host_dlg is None or self.host_dlg.path != path:
            self.host_dlg = HostDialog(self, path, self.settings, self.host_session)
            self.host_dlg.hostStarted.connect(self._host_started)
            self.host_dlg.hostStopped.connect(self._host_stopped)
            if not self.host_dlg.seats():
                # the sides the computer plays in this game keep it at the LAN table (issue 21); you take another
                for side in self.local_ctl.computer:
                    self.host_dlg.seat_computer(side)
                if self.local_ctl.persons():
                    me = self.host_dlg.seat_me()
                    self.host_dlg.table.cellWidget(me, 1).setCurrentText(self.local_ctl.persons()[0])
        self.host_dlg.show()
        self.host_dlg.raise_()
        return self.host_dlg

    def _host_started(self, session) -> None:
        if session is None:
            # the host is about to open the file: this window lets go of it (it will join like any player)
            if self.ctl.remote_mode:
                self.leave_lan(reopen=False)
            self.local_ctl.close()
            return
        self.host_session = session
        me = self.host_dlg.my_seat() if self.host_dlg else None
        if me is None:
            self.status.showMessage("Hosting. You have no seat, so this window does not show the game: "
                                    "Seat me (as a spectator if you do not play), apply, and join.", 15000)
            self._update_lan_actions()
            return
        self.join_lan("127.0.0.1", session.port, session.public_key, me.name)

    def _host_stopped(self) -> None:
        self.host_session = None
        self.leave_lan()

    def join_dialog(self) -> None:
        """File ▸ Join…: a join code or a host found on the LAN; the player confirms its fingerprint."""
        dlg = JoinDialog(self, self.settings)
        if dlg.exec() != JoinDialog.Accepted:
            return
        host, port, key = dlg.target()
        self._save_settings()
        self.join_lan(host, port, key, dlg.name.text().strip())

    def join_lan(self, host: str, port: int, server_key: str, name: str = "", **options):
        """Show the game hosted at ``host:port`` (its replica); clicks send commands to the host."""
        from app import lan

        if self.ctl.remote_mode:
            self.leave_lan(reopen=False)
        if self.host_session is None and self.local_ctl.game is not None:
            self.local_ctl.close()
        rc = lan.connect(host, port, server_key, name, **options)
        rc.setParent(self)
        self.chat.clear()
        self.presence.show_presence(None)
        self.presence.header.setText(f"Joining {host}:{port}…")
        self.dock_presence.show()
        self.dock_chat.show()
        self._raise_dock(self.dock_presence)
        self.resizeDocks([self.dock_presence, self.dock_chat], [380, 420], Qt.Vertical)
        self._switch_controller(rc)
        return rc

    def leave_lan(self, reopen: bool = True) -> None:
        """Back to the hotseat game on the file (stopping the client; hosting stops only from its dialog)."""
        rc = self.ctl if self.ctl.remote_mode else None
        if rc is not None:
            self._switch_controller(self.local_ctl)
            rc.close()
            self.presence.header.setText("Not connected. File ▸ Host this campaign… or Join…")
            self.presence.show_presence(None)
            self.presence.acting.setText("")
        if reopen and self.host_session is None and self.local_ctl.game is None and self.local_ctl.path is not None:
            try:
                self.local_ctl.open_game(self.local_ctl.path)
            except Exception as exc:  # noqa: BLE001
                from core.game import why_unopenable

                QMessageBox.critical(self, "Cannot reopen the game", why_unopenable(self.local_ctl.path, exc))
        self._update_lan_actions()

    def _leave_action(self) -> None:
        if self.host_session is not None and self.host_dlg is not None:
            if QMessageBox.question(self, "Stop hosting?", "You are hosting this campaign. Stop hosting and "
                                    "return to the hotseat game on the file?") != QMessageBox.Yes:
                return
            self.host_dlg.stop()       # emits hostStopped -> leave_lan()
            return
        self.leave_lan()

    def _update_lan_actions(self) -> None:
        if not hasattr(self, "a_leave"):
            return
        lan_on = self.ctl.remote_mode or self.host_session is not None
        self.a_leave.setEnabled(lan_on)
        for a in (self.a_new, self.a_open):
            a.setEnabled(not lan_on)
        self.recent_menu.setEnabled(not lan_on)

    def _presence_changed(self, _msg=None) -> None:
        ctl = self.ctl
        if not ctl.remote_mode:
            return
        w = ctl.welcome
        self.presence.header.setText(f"<b>{w.campaign}</b> at {ctl.target}<br>You: <b>{w.name}</b> ({w.seat})"
                                     if w else f"Joining {ctl.target}…")
        self.presence.show_presence(ctl.presence, w.name if w else "", w.seat if w else "")

    def _lan_status(self, text: str) -> None:
        self.presence.status.setText(text)
        if text.startswith(("refused", "closed")):
            self.status.showMessage(f"LAN: {text}", 15000)

    def _send_chat(self, text: str, to: str) -> None:
        if self.ctl.remote_mode:
            self.ctl.send_chat(text, to)
        else:
            self.status.showMessage("Chat needs a LAN game: File ▸ Host this campaign… or Join…", 6000)

    # ================================================================ building
    def _dock(self, title: str, w: QWidget, area) -> QDockWidget:
        d = QDockWidget(title, self)
        d.setObjectName(title.replace(" ", "_"))
        d.setWidget(w)
        d.setFeatures(QDockWidget.DockWidgetMovable | QDockWidget.DockWidgetClosable | QDockWidget.DockWidgetFloatable)
        self.addDockWidget(area, d)
        return d

    def _build_layers_panel(self) -> QWidget:
        w = QWidget()
        lay = QVBoxLayout(w)
        lay.setContentsMargins(8, 8, 8, 8)
        head = QLabel("<b>Map layers</b>")
        lay.addWidget(head)
        self.layer_boxes: dict[str, QCheckBox] = {}
        for key, title, tip in LAYER_NAMES:
            cb = QCheckBox(title)
            cb.setToolTip(tip)
            cb.setChecked(self.settings.layers.get(key, True))
            cb.toggled.connect(lambda on, k=key: self.set_layer(k, on))
            lay.addWidget(cb)
            self.layer_boxes[key] = cb
        scan_row = QHBoxLayout()
        scan_row.addSpacing(22)
        scan_row.addWidget(QLabel("Opacity"))
        self.scan_opacity = QSlider(Qt.Horizontal)
        self.scan_opacity.setRange(5, 100)
        self.scan_opacity.setValue(int(round(self.settings.scan_opacity * 100)))
        self.scan_opacity.setToolTip("How strongly the scanned maps show over the drawn map")
        self.scan_opacity.valueChanged.connect(self._scan_opacity_changed)
        scan_row.addWidget(self.scan_opacity, 1)
        lay.addLayout(scan_row)
        self.scan_button = QPushButton("Load a scan…")
        self.scan_button.setToolTip("Lay a scan of a printed map sheet under the counters, aligned with three hexes")
        self.scan_button.clicked.connect(lambda: self.load_scan())
        lay.addWidget(self.scan_button)
        lay.addSpacing(10)
        lay.addWidget(QLabel("<b>Engine overlays</b>"))
        self.overlay_list = QListWidget()
        self.overlay_list.setToolTip("Overlays are computed by the rules engine; greyed out until the engine offers them")
        self.overlay_list.itemChanged.connect(lambda _it: self._update_overlay())
        lay.addWidget(self.overlay_list, 1)
        self.legend = QLabel("")
        self.legend.setObjectName("OverlayLegend")
        self.legend.setWordWrap(True)
        self.legend.setTextFormat(Qt.RichText)
        lay.addWidget(self.legend)
        self.map_source = QLabel("<span style='color:#7a6a4a'>Terrain, roads and places are drawn from a "
                                 "reconstruction of the printed map sheets; lay a scan of your own sheets under "
                                 "the counters to compare.</span>")
        self.map_source.setWordWrap(True)
        lay.addWidget(self.map_source)
        return w

    def _fill_overlays(self) -> None:
        names = self.ctl.query_names()
        self.overlay_list.blockSignals(True)
        checked = {self.overlay_list.item(i).data(Qt.UserRole) for i in range(self.overlay_list.count())
                   if self.overlay_list.item(i).checkState() == Qt.Checked}
        self.overlay_list.clear()
        for q, title, tip in OVERLAYS:
            it = QListWidgetItem(title)
            it.setData(Qt.UserRole, q)
            ok = q in names
            it.setFlags((Qt.ItemIsUserCheckable | Qt.ItemIsEnabled) if ok else Qt.NoItemFlags)
            it.setCheckState(Qt.Checked if q in checked and ok else Qt.Unchecked)
            it.setToolTip(tip + ("" if ok else f"\nNot available yet: the engine registers no '{q}' query."))
            self.overlay_list.addItem(it)
        self.overlay_list.blockSignals(False)

    def _act(self, text: str, slot, shortcut=None, tip: str = "", checkable: bool = False) -> QAction:
        a = QAction(text, self)
        if shortcut:
            a.setShortcut(QKeySequence(shortcut))
        a.setToolTip(tip or text)
        a.setStatusTip(tip or text)
        a.setCheckable(checkable)
        a.triggered.connect(slot)
        self.addAction(a)
        return a

    def _build_actions(self) -> None:
        self.a_new = self._act("&New game…", self.new_game, QKeySequence.New, "Start a new game from a scenario")
        self.a_open = self._act("&Open…", self.open_game_dialog, QKeySequence.Open, "Open a .dfd game file")
        self.a_host = self._act("&Host this campaign…", self.host_dialog, None,
                                "Serve this game to players on the LAN: seats, join code and key fingerprint")
        self.a_join = self._act("&Join…", self.join_dialog, None, "Join a campaign hosted on the LAN")
        self.a_leave = self._act("&Leave the LAN game", self._leave_action, None,
                                 "Disconnect (and stop hosting) and return to the hotseat game on the file")
        self.a_leave.setEnabled(False)
        self.a_export = self._act("&Export map PNG…", self.export_png_dialog, "Ctrl+E", "Save the whole map as a PNG image")
        self.a_quit = self._act("&Quit", self.close, QKeySequence.Quit)
        self.a_undo = self._act("&Undo", self.undo, QKeySequence.Undo,
                                "Take back your last action (back to the last die roll or the other side's action)")
        self.a_replay = self._act("&Replay mode", self.toggle_replay, "Ctrl+R", "Step back and forth through the game", True)
        self.a_back = self._act("Replay: one action back", lambda: self.ctl.step_replay(-1), "Ctrl+Left")
        self.a_fwd = self._act("Replay: one action forward", lambda: self.ctl.step_replay(+1), "Ctrl+Right")
        self.a_start = self._act("Replay: to the start", lambda: self.ctl.set_replay(0), "Ctrl+Home")
        self.a_end = self._act("Replay: back to live play", lambda: self.ctl.set_replay(None), "Ctrl+End")
        self.a_zoom_in = self._act("Zoom &in", lambda: self.view.zoom_smooth(1.4), QKeySequence.ZoomIn)
        self.a_zoom_out = self._act("Zoom &out", lambda: self.view.zoom_smooth(1 / 1.4), QKeySequence.ZoomOut)
        self.a_fit = self._act("&Whole map", self.view.fit_all, "Ctrl+0", "Show all six maps")
        self.a_jump = self._act("&Jump to hex…", self._focus_jump, "Ctrl+J", "Type a hex number (C2331) to centre on it")
        self.a_find = self._act("&Find unit…", self._focus_jump, "Ctrl+F",
                                "Type a counter's name (21 Pz, KDG) to centre on its hex and select it")
        self.a_next = self._act("&Next stack to move", self.next_unmoved, "N",
                                "Select and centre the next stack of the moving side with a unit still to move (13.1)")
        self.a_hotseat = self._act("&Hotseat and passwords…", self.hotseat_dialog, None, "Cover screen and per-side passwords")
        self.a_rule = self._act("&Rule for this prompt", lambda: self.open_rule(self._current_rule()), QKeySequence.HelpContents,
                                "Open the rule the current prompt cites")
        self.a_rules = self._act("Rules &browser", lambda: self.open_rule("1.0"), "Shift+F1")
        self.a_keys = self._act("&Keyboard shortcuts", self.show_shortcuts, "Ctrl+/")
        self.a_rules_file = self._act("&Rules text file…", self.choose_rules_file, None,
                                      "Choose the plain-text rules file the rules viewer shows (saved in the settings)")
        self.a_about = self._act("&About", self.about)
        self.a_sound = self._act("&Sound", self._toggle_sound, None,
                                 "A short system beep at hot-seat hand-overs and refusals (QtMultimedia is not in PySide6-Essentials)", True)
        self.a_sound.setChecked(self.settings.sound)
        self.a_auto_pass = self._act("&Pass steps with nothing to decide", self._toggle_auto_pass, None,
                                     "Hotseat: a step with one possible answer (a Done, a die roll) is answered at once "
                                     "and logged, without a hand-over", True)
        self.a_auto_pass.setChecked(self.settings.auto_pass)
        self.a_computer_side = {
            side: self._act(f"The computer plays the {side} side", lambda on, s=side: self.set_computer_side(s, on),
                            None, f"Hand the {side} side to the computer, or take it back; saved with the game", True)
            for side in (AXIS, ALLIED)}
        self.a_computer_setting = {
            setting: self._act(f"{computer_ui.SETTING_TITLES.get(setting, setting)} play",
                               lambda _on=False, x=setting: self.set_computer_setting(x), None,
                               "How long the computer thinks over each decision: quick (about a second) or "
                               "thoughtful (a deeper look-ahead)", True)
            for setting in computer_ui.computer_mod.settings()}
        self.a_computer_speed = {
            speed: self._act(f"{computer_ui.SPEED_TITLES[speed]}", lambda _on=False, x=speed: self.set_computer_speed(x),
                             None, "How long each of the computer's moves stays in view before its next one", True)
            for speed in computer_ui.SPEEDS}
        self.a_pause = self._act("Pause the computer", self._toggle_pause, "Ctrl+Shift+P",
                                 "Stop the computer after its current move (and let it go on)")
        for i, key in enumerate(("F2", "F3", "F4", "F5")):
            self._act(f"Show tab {i + 1}", lambda _=False, i=i: self.tabs.setCurrentIndex(i), key)

    def _build_toolbar(self) -> None:
        tb = QToolBar("Main")
        tb.setObjectName("MainToolbar")
        tb.setMovable(False)
        tb.setIconSize(QSize(18, 18))
        for a in (self.a_new, self.a_open):
            tb.addAction(a)
        tb.addSeparator()
        tb.addAction(self.a_undo)
        tb.addAction(self.a_replay)
        tb.addAction(self.a_pause)
        tb.addSeparator()
        tb.addAction(self.a_zoom_out)
        tb.addAction(self.a_zoom_in)
        tb.addAction(self.a_fit)
        tb.addSeparator()
        tb.addWidget(QLabel(" Hex "))
        self.jump = QLineEdit()
        self.jump.setPlaceholderText("C2331 or 21 Pz")
        self.jump.setMaximumWidth(130)
        self.jump.setToolTip("Jump to a hex (a DFD hex number, Ctrl+J) or find a unit (a counter's name, Ctrl+F); Enter")
        self.jump.returnPressed.connect(self._jump)
        tb.addWidget(self.jump)
        self.zoom_label = QLabel("")
        self.zoom_label.setMinimumWidth(60)
        self.view.zoomChanged.connect(lambda s: self.zoom_label.setText(f"  {s * 100:.0f}%"))
        tb.addWidget(self.zoom_label)
        self.addToolBar(tb)

    def _build_menus(self) -> None:
        mb = self.menuBar()
        f = mb.addMenu("&File")
        f.addAction(self.a_new)
        f.addAction(self.a_open)
        self.recent_menu = f.addMenu("Open &recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        f.addSeparator()
        f.addAction(self.a_host)
        f.addAction(self.a_join)
        f.addAction(self.a_leave)
        f.addSeparator()
        f.addAction(self.a_export)
        f.addSeparator()
        f.addAction(self.a_quit)
        e = mb.addMenu("&Edit")
        e.addAction(self.a_undo)
        v = mb.addMenu("&View")
        for a in (self.a_zoom_in, self.a_zoom_out, self.a_fit, self.a_jump, self.a_find, self.a_next):
            v.addAction(a)
        v.addSeparator()
        lm = v.addMenu("&Layers")
        self.layer_actions: dict[str, QAction] = {}
        for key, title, tip in LAYER_NAMES:
            a = QAction(title, self, checkable=True)
            a.setChecked(self.settings.layers.get(key, True))
            a.setToolTip(tip)
            a.toggled.connect(lambda on, k=key: self.set_layer(k, on))
            lm.addAction(a)
            self.layer_actions[key] = a
        sm = v.addMenu("&Background scan")
        sm.addAction("&Load a scan of a map sheet…", lambda: self.load_scan())
        self.realign_menu = sm.addMenu("&Realign")
        self.realign_menu.aboutToShow.connect(self._fill_realign)
        sm.addAction("Remove &all scans", self.remove_scans)
        v.addSeparator()
        for d in (self.dock_inspector, self.dock_log, self.dock_layers, self.dock_presence, self.dock_chat):
            v.addAction(d.toggleViewAction())
        g = mb.addMenu("&Game")
        g.addAction(self.a_replay)
        for a in (self.a_back, self.a_fwd, self.a_start, self.a_end):
            g.addAction(a)
        g.addAction("&Ledger…", self.show_ledger)   # issue 17: the per-GT ledger (app/ledger.py)
        g.addSeparator()
        cm = g.addMenu("&Computer")
        self.computer_menu = cm
        for a in self.a_computer_side.values():
            cm.addAction(a)
        cm.addSeparator()
        for a in self.a_computer_setting.values():
            cm.addAction(a)
        cm.addSeparator()
        cm.addAction(self.a_pause)
        sp = cm.addMenu("&Speed")
        for a in self.a_computer_speed.values():
            sp.addAction(a)
        g.addSeparator()
        g.addAction(self.a_hotseat)
        g.addAction(self.a_sound)
        st = mb.addMenu("&Settings")
        st.addAction(self.a_rules_file)
        st.addAction(self.a_hotseat)
        st.addAction(self.a_auto_pass)
        st.addAction(self.a_sound)
        sp2 = st.addMenu("&Computer speed")
        for a in self.a_computer_speed.values():
            sp2.addAction(a)
        h = mb.addMenu("&Help")
        h.addAction(self.a_rule)
        h.addAction(self.a_rules)
        h.addAction(self.a_keys)
        h.addSeparator()
        h.addAction(self.a_about)

    # ================================================================ refresh
    def _loaded(self) -> None:
        self._log_len = -1
        self.selected_hex = None
        self.scene.select_hex(None)
        self.inspector.show_units("", [], "Click a hex or a stack on the map to see its units.")
        if self.ctl.path is not None:
            self.settings.add_recent(self.ctl.path)
            self._save_settings()
        self._computer_routes = []
        self._sync_computer_actions()
        note = getattr(self.ctl.game, "note", "")
        if note:
            self._show_epoch_note(note)
        QTimer.singleShot(0, self._initial_view)

    def _show_epoch_note(self, note: str) -> None:
        """The one sentence saying that the rules or data changed and that the campaign goes on (issue 14)."""
        box = QMessageBox(QMessageBox.Information, "The campaign continues under the new rules", note,
                          QMessageBox.Ok, self)
        box.setObjectName("EpochNote")
        box.setModal(False)
        box.show()

    def _initial_view(self) -> None:
        """The first view: the current decision's map targets (the set-up hexes...), else the units on the map."""
        st = self.ctl.state()
        targets = [geo.rec_of(h) for h in self._map_options(self.ctl.pending())]
        hexes = [h for h in targets if h is not None]
        if hexes:
            self.view.set_zoom(0.85)
            self.view.centerOn(sum(h.x for h in hexes) / len(hexes), sum(h.y for h in hexes) / len(hexes))
            return
        hexes = [geo.rec_of(u.loc) for u in st.units.values()] if st else []
        hexes = [h for h in hexes if h is not None]
        if hexes:
            xs = [h.x for h in hexes]
            ys = [h.y for h in hexes]
            self.view.set_zoom(0.85)
            self.view.centerOn(sum(xs) / len(xs), sum(ys) / len(ys))
        else:
            self.view.fit_all()

    def refresh(self) -> None:
        st = self.ctl.state()
        d = self.ctl.pending()
        title = ""
        if st is not None:
            try:
                sc = load_scenario(st.scenario)
                title = f"{sc.title} ({sc.section})"
            except Exception:  # noqa: BLE001 - a renamed scenario must not stop the window
                title = st.scenario
        self.phasebar.show_state(st, title)
        result = (st.result or {}).get("text", "") if st else ""
        can = self.ctl.can_act(d)
        self.prompt.show_decision(d, enabled=not self.ctl.replaying and can,
                                  result=f"The scenario has ended: {result}" if result else "")
        if d is not None and not can and self.ctl.remote_mode and not self.ctl.replaying:
            who = self.ctl.welcome.seat if self.ctl.welcome else "joining"
            acting = [p.name for p in (self.ctl.presence.players if self.ctl.presence else []) if p.acting and p.connected]
            self.prompt.hint.setText(f"Waiting for the {d.side} side" + (f" ({', '.join(acting)})" if acting else "")
                                     + f" — you hold the {who} seat.")
        if self.ctl.game is None:
            self.prompt.prompt.setText("Connecting to the host…" if self.ctl.remote_mode
                                       else "No game open. File ▸ New game… or Open…")
        if st is not None:
            self.scene.set_units(st.units)
            self.scene.set_control(st.control)
            self.scene.select_hex(self.selected_hex)
        self._update_targets(d)
        self._update_overlay()
        self._update_moves(d)
        self._update_moved(d)
        self._update_combat(d)
        log = self.ctl.log()
        if len(log) != self._log_len:
            self._log_len = len(log)
            self.logpanel.rebuild(log, self.ctl.headings(), start=self.ctl._base,
                                  notes=None if self.ctl.remote_mode else self.computer.plans)
            self._fill_overlays()
        self.logpanel.show_position(self.ctl.replay_index, len(log))
        if self.ctl.replaying and self.ctl.replay_index != getattr(self, "_replay_shown", None):
            self._replay_shown = self.ctl.replay_index
            self._pan_to_action(self.ctl.replay_index)
        elif not self.ctl.replaying:
            self._replay_shown = None
        self.a_replay.setChecked(self.ctl.replaying)
        self.a_undo.setEnabled(self.ctl.undo_side() is not None)
        side = self.ctl.undo_side()
        self.a_undo.setText(f"&Undo ({side})" if side else "&Undo")
        if self.selected_hex:
            self._inspect_hex(self.selected_hex)
        elif self.selected_box:
            self._box_clicked(self.selected_box)
        self._show_orders(d)
        self._refresh_tabs()
        self.minimap.update()
        self._show_computer_state()
        if self.ctl.remote_mode:
            self.setWindowTitle(f"{self.ctl.describe()} — {title} — Desert Fox Campaign Manager")
            self.file_label.setText(f"{self.ctl.describe()}  ·  {len(log)} actions  ·  #{self.ctl.hash()[:10]}")
        elif self.ctl.path:
            watching = " (watching, read-only)" if getattr(self.ctl, "watching", False) else ""
            self.setWindowTitle(f"{self.ctl.path.name}{watching} — {title} — Desert Fox Campaign Manager")
            self.file_label.setText(f"{self.ctl.path}{watching}  ·  {len(log)} actions  ·  #{self.ctl.hash()[:10]}")

    def _pan_to_action(self, index: int | None) -> None:
        """Replay: centre the map on the hexes the action just replayed names (its path's end, hex, attack)."""
        log = self.ctl.log()
        if not index or index > len(log):
            return
        a = log[index - 1].action
        where = option_target(a) or next(iter(a.args.get("hexes") or []), None)
        if where is None:
            st = self.ctl.state()
            locs = [st.units[u].loc for u in option_units(a) if st is not None and u in st.units]
            where = next((x for x in locs if geo.rec_of(x) is not None), None)
        if where is not None and geo.rec_of(str(where)) is not None:
            self._keep_in_view([str(where)])

    def _refresh_tabs(self) -> None:
        st = self.ctl.state()
        i = self.tabs.currentIndex()
        if st is None:
            return
        if i == 1 or self.offmap.stale_for(st):
            self.offmap.show_state(st)
        if i == 2:
            self.cards.show_state(st)
        if i == 3:
            self.dashboard.show_game(self.ctl)

    def _map_options(self, d: Decision | None) -> dict[str, list[Option]]:
        """The pending decision's options that are about one map hex: {hex: [options]}.

        Options with a ``hex`` argument (placements, advances), retreat steps (``to``) and attack
        declarations (the attacked hex; only those of the selected stack when it can declare one).
        """
        out: dict[str, list[Option]] = {}
        if d is None or self.ctl.replaying or not self.ctl.can_act(d):
            return out
        st = self.ctl.state()
        declares = [o for o in d.options if o.action.kind == "declare" and len(o.action.args.get("hexes") or []) == 1]
        if self.selected_hex and declares:
            mine = [o for o in declares if all(geo.rec_of(st.units[u].loc) is not None
                                               and geo.rec_of(st.units[u].loc).label == self.selected_hex
                                               for u in o.action.args.get("attackers", []) if u in st.units)]
            declares = mine or declares
        for o in d.options:
            if stays_a_button(o, d):
                continue
            lab = map_hex(o)
            if lab is None and o in declares:
                lab = o.action.args["hexes"][0]
            if lab is not None:
                out.setdefault(lab, []).append(o)
        return out

    def _update_targets(self, d: Decision | None) -> None:
        cells: dict[str, tuple[str, str | None]] = {}
        for lab, opts in self._map_options(d).items():
            kinds = {o.action.kind for o in opts}
            text = "attack" if kinds == {"declare"} else ("retreat" if kinds == {"retreat"} else
                                                          ("advance" if kinds == {"advance"} else ""))
            cells[lab] = (text, "#e06666" if text == "attack" else None)
        self.scene.targets.set_cells(cells)

    def _update_overlay(self) -> None:
        """Engine overlays (reachable, supply, ...) — drawn from the engine's queries only."""
        cells: dict[str, tuple[str, str | None]] = {}
        badges: dict[str, tuple[str, str | None]] = {}
        legend: list[str] = []
        for i in range(self.overlay_list.count()):
            it = self.overlay_list.item(i)
            if it.checkState() != Qt.Checked:
                continue
            q = it.data(Qt.UserRole)
            legend.append(f"<b>{it.text()}</b>" + "".join(
                f"<br><span style='background:{col};color:{col}'>&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;{text}"
                for col, text in LEGENDS.get(q, [])))
            try:
                res = self._run_overlay(q)
            except Exception as exc:  # noqa: BLE001 - an overlay query must not break the window
                self.status.showMessage(f"Overlay {q}: {exc}", 6000)
                continue
            cells.update(res)
            if q == "odds":
                badges.update({k: (v[0], "#a8322a") for k, v in res.items()})
        self.scene.overlay.set_cells(cells)
        self.legend.setText("<br>".join(legend))
        self.legend.setVisible(bool(legend))
        from app.offmap import port_box_badges

        badges.update(port_box_badges(self.ctl.state()))    # 20.1: units waiting in port boxes
        self.scene.badges.set_cells(badges)

    def _stack_units(self, label: str | None, side: str | None = None) -> list[str]:
        st = self.ctl.state()
        if st is None or not label:
            return []
        out = []
        for u in st.units.values():
            rec = geo.rec_of(u.loc)
            if rec is not None and rec.label == label and (side is None or u.side == side):
                c = counterart.lookup(u.id)
                if c is None or c.kind in ("combat", "supply"):
                    out.append(u.id)
        return sorted(out)

    def _acting_side(self) -> str | None:
        d = self.ctl.pending()
        if d is not None and d.side in (AXIS, ALLIED):
            return d.side
        return self.ctl.seat

    def _run_overlay(self, q: str) -> dict[str, tuple[str, str | None]]:
        """Call one engine query with the arguments it takes and turn the answer into map cells."""
        st = self.ctl.state()
        if q == "reachable":
            units = self._stack_units(self.selected_hex)
            if not units:
                return {}
            side = st.units[units[0]].side
            units = [u for u in units if st.units[u].side == side]
            return {k: (f"{v:g} MP" if isinstance(v, (int, float)) else str(v), None)
                    for k, v in self.ctl.query("reachable", units=units).items() if k != self.selected_hex}
        if q == "zoc":
            out: dict[str, tuple[str, str | None]] = {}
            for side in (AXIS, ALLIED):
                for lab in self.ctl.query("zoc", side=side):
                    out[lab] = ("ZOC" if lab not in out else "ZOC ×2", theme.SIDE_COLOUR[side] if lab not in out else "#7b4a8a")
            return out
        if q == "supply_overlay":
            side = self._acting_side() or AXIS
            res = self.ctl.query("supply_overlay", side=side)
            # colour only (the legend explains it): a text in every hex would hide the place names
            return {k: ("", SUPPLY_COLOURS[(bool(v.get("los")), bool(v.get("loc")))]) for k, v in res.items()
                    if v.get("los") or v.get("loc")}
        if q == "odds":
            units = self._stack_units(self.selected_hex)
            if not units:
                return {}
            side = st.units[units[0]].side
            units = [u for u in units if st.units[u].side == side]
            out = {}
            rec = geo.rec_of(self.selected_hex)
            for n in rec.hex.neighbours():
                enemy = [u for u in st.units.values() if u.loc == n.label and u.side != side]
                if not enemy:
                    continue
                try:
                    res = self.ctl.query("odds", attackers=units, hex=n.label)
                except Exception:  # noqa: BLE001 - the engine's refusal is shown as the cell text
                    out[n.label] = ("no attack", "#cccccc")
                    continue
                out[n.label] = (str(res.get("odds", "?")), "#e06666")
            return out
        res = self.ctl.query(q)
        return overlay_cells(res)

    def preview_attack(self, target: str) -> CombatDialog | None:
        """Open the combat dialog with the engine's odds for the selected stack attacking ``target``."""
        if "odds" not in self.ctl.query_names() or not self.selected_hex:
            return None
        st = self.ctl.state()
        units = self._stack_units(self.selected_hex)
        if not units:
            return None
        side = st.units[units[0]].side
        units = [u for u in units if st.units[u].side == side]
        try:
            data = self.ctl.query("odds", attackers=units, hex=target)
        except Exception as exc:  # noqa: BLE001
            self._refused(getattr(exc, "reason", str(exc)), getattr(exc, "rule", ""))
            return None
        dlg = CombatDialog(self)
        dlg.setWindowTitle(f"Odds preview: {self.board.units_text(units)} attacking {place(target)}")
        dlg.show_info(CombatInfo(current={"attackers": units, "hexes": [target], "form": data.get("form", "regular")},
                                 odds=data, units={u: (st.units[u].loc, st.units[u].steps, st.units[u].disrupted)
                                                   for u in set(units) | set(data.get("defenders", [])) if u in st.units}),
                      enabled=False)
        dlg.show()
        return dlg

    # ================================================================ play
    def _option_origin(self, o: Option) -> str:
        """Which units and from where ("MSU #7 from C0701"): tells apart options with the same label."""
        from app.names import unit_name

        st = self.ctl.state()
        ids = sorted(u for u in option_units(o.action) if st is not None and u in st.units)
        locs = sorted({st.units[u].loc for u in ids})
        names = ", ".join(unit_name(u) for u in ids[:3])
        return (names + (" from " + ", ".join(humanize(x) for x in locs) if locs else "")).strip()

    def choose_option(self, o: Option) -> None:
        d = self.ctl.pending()
        group = (d is not None and d.kind in GROUP_KINDS and self.combat_dlg.group.isVisible()
                 and self.combat_dlg.group.isChecked())
        self._group_answer = (d.kind, d.side, answer_of(o.label), self.combat_dlg.combat_key()) if group else None
        if self.ctl.act(o.action) and group:
            self._answer_group()

    def _answer_group(self) -> None:
        """"The same answer for the other units": while the engine asks the same per-unit question of the same
        combat and offers the same answer, send it (each is an ordinary logged action the engine judges)."""
        for _ in range(40):
            g = self._group_answer
            d = self.ctl.pending()
            if g is None or d is None or self.ctl.replaying or (d.kind, d.side) != g[:2] \
                    or self.combat_dlg.combat_key() != g[3]:
                break
            o = next((o for o in d.options if answer_of(o.label) == g[2]), None)
            if o is None or not self.ctl.act(o.action):
                break
        self._group_answer = None

    # ---------------------------------------------------------------- map clicks (app.interaction decides)
    @property
    def selected_hex(self) -> str | None:
        return self.mi.selected

    @selected_hex.setter
    def selected_hex(self, label: str | None) -> None:
        self.mi.select(label)

    @property
    def move_path(self) -> list[str]:
        return self.mi.path

    @move_path.setter
    def move_path(self, path: list[str]) -> None:
        self.mi.path = list(path)

    def click_meaning(self, label: str, button=Qt.LeftButton, shift: bool = False) -> Click:
        """What a click on ``label`` would do now (shown in the status bar before the click)."""
        return self.mi.meaning(self.board, label, "right" if button == Qt.RightButton else "left", shift)

    def hex_clicked(self, label: str, button=Qt.LeftButton, shift: bool = False) -> None:
        """A click on the map: :class:`app.interaction.MapInteraction` decides its meaning; this does it."""
        c = self.click_meaning(label, button, shift)
        d = self.ctl.pending()
        if c.kind == "menu":
            self._hex_menu(label)
        elif c.kind == "pick":
            self.orders.hex_picked(label)       # an order form asked for a hex: the click answers it
        elif c.kind == "option":
            self.ctl.act(c.options[0].action)
        elif c.kind == "options":
            self.mi.choosing(label)
            menu = QMenu(self)
            for o in c.options:
                menu.addAction(humanize(o.label), lambda o=o: self.ctl.act(o.action))
            rec = geo.rec_of(label)
            self.exec_menu(menu, self.view.mapToGlobal(self.view.mapFromScene(rec.x, rec.y)))
            self.mi.choosing(None)
        elif c.kind in ("move", "send_path"):
            self._send_move(d, list(c.path), label)
        elif c.kind == "path":
            self._extend_path(label)
        else:
            self.select_hex(label)
        if self._hover == label:
            self._hovered(label)

    def _cannot_move_reason(self) -> str:
        """Why the selected friendly stack shows no reachable hexes in a movement decision (13.1, 13.0)."""
        if not self.board.moving() or not self.selected_hex or self._movers(self.ctl.pending()):
            return ""
        mine = self.board.friendly(self.selected_hex)
        if not mine:
            return ""
        done = moved_units(self.ctl.state())
        if all(u in done for u in mine if has_ma(u)) and any(has_ma(u) for u in mine):
            return f"{self.board.units_text(mine)} in {self.selected_hex}: moved this phase — each stack completes its move (13.1)"
        if not any(has_ma(u) for u in mine):
            return f"{self.board.units_text(mine)} in {self.selected_hex}: no movement allowance (a dump moves only with an MSU, 12.2, 13.7)"
        return f"{self.board.units_text(mine)} in {self.selected_hex}: no unit is ticked to move in the Movement orders panel (13.1)"

    def _drag_source(self, label: str) -> bool:
        """A press on a stack of the moving side with units still to move picks it up (drag-to-move)."""
        if not self.board.moving():
            return False
        done = moved_units(self.ctl.state())
        return any(u not in done and has_ma(u) for u in self.board.friendly(label))

    def _drag_started(self, label: str) -> None:
        if label != self.selected_hex:
            self.select_hex(label)

    def drag_move(self, frm: str, to: str) -> bool:
        """Drag-to-move: the stack picked up in ``frm`` dropped on ``to`` moves along the engine's route (as a
        Shift+click would, even onto a friendly stack); no route: nothing is sent and the status bar says why."""
        if frm != self.selected_hex:
            self.select_hex(frm)
        c = self.click_meaning(to, shift=True)
        if c.kind == "move":
            return self._send_move(self.ctl.pending(), list(c.path), to)
        self.status.showMessage(f"{self.board.units_text(self._movers(self.ctl.pending())) or 'The stack'} cannot "
                                f"reach {to} this phase: no legal route (13.0)", 8000)
        self.scene.routes.set_routes([])
        return False

    def select_hex(self, label: str | None) -> None:
        """Select a hex (never an action): the inspector, orders panel, reachable hexes and odds follow it."""
        self.selected_box = None
        self.mi.select(label)
        if not self.mi.path:
            self._clear_path()
        self._refresh_selection()

    def _refresh_selection(self) -> None:
        d = self.ctl.pending()
        self.scene.select_hex(self.selected_hex)
        why = self._cannot_move_reason()
        if why:
            self.status.showMessage(why, 8000)
        if self.selected_hex:
            self._inspect_hex(self.selected_hex)
        self._show_orders(d)
        self._update_overlay()
        self._update_targets(d)
        self._update_moves(d)

    def _show_orders(self, d: Decision | None) -> None:
        self.orders.show_for(d, self.ctl.state(), self.selected_hex, None if self.selected_hex else self.selected_box,
                             not self.ctl.replaying and d is not None and self.ctl.can_act(d))

    def _orders_changed(self) -> None:
        """Units checked/unchecked or road march / night toggled: the engine's preview for that choice."""
        self._reach = None
        self._routes = {}
        self._clear_path()
        self._update_moves(self.ctl.pending())

    def _extend_path(self, label: str) -> None:
        """Build a move path hex by hex (each click an adjacent hex); clicking its last hex again sends it.

        The engine validates the whole path (13.0) and refuses it with the rule if it is illegal.
        """
        self.mi.extend(label)
        self.scene.routes.set_routes([])
        self.scene.path.set_cells({lab: (str(i), "#ffd966") for i, lab in enumerate(self.move_path) if i})
        self.status.showMessage(f"Move path: {' → '.join(self.move_path)} — click {label} again to move, Esc to cancel", 10000)

    def _send_move(self, d: Decision, path: list[str], label: str) -> bool:
        """One ``move {units, path, ...options}`` action for the checked units of the selected stack (13.0):
        the order panel's road march, forced march, night, truck lift and map exit go with it.  Afterwards the
        moved stack stays selected in its new hex and every panel and overlay follows it (issue 19)."""
        units = self._movers(d)
        if not units:
            self._refused(f"No unit of the stack in {self.selected_hex} can move now: "
                          + ("each has moved this phase" if self._stack_units(self.selected_hex, side=d.side) else
                             "none is checked"), "13.1")
            return False
        path = [h for h in path if h != self.selected_hex] if path and path[0] == self.selected_hex else list(path)
        ok = self.ctl.act(Action(kind="move", side=d.side, args={"units": units, "path": path, **self.orders.move_args()}))
        self._clear_path()
        if ok:
            self.orders.moved()
            st = self.ctl.state()
            rec = geo.rec_of(st.units[units[0]].loc) if units[0] in st.units else None
            self.mi.moved_to(rec.label if rec is not None else label)
            self._reach = None
            self._routes = {}
            self._refresh_selection()
        return ok

    def _clear_path(self) -> None:
        self.mi.clear_path()
        self.scene.path.set_cells({})
        self.scene.routes.set_routes([])

    # ---------------------------------------------------------------- one-click moves
    def _movers(self, d: Decision | None) -> list[str]:
        """The selected stack's units that the pending movement decision lets their side move."""
        if d is None or self.ctl.replaying or "move" not in d.free_kinds or not self.selected_hex or not self.ctl.can_act(d):
            return []
        done = moved_units(self.ctl.state())
        units = [u for u in self._stack_units(self.selected_hex, side=d.side) if u not in done]
        if self.orders.where == self.selected_hex and self.orders.checks:
            units = [u for u in units if u in set(self.orders.checked_units())]     # a split stack (13.1)
        # a dump (no movement allowance) would stop the whole stack: it stays; the MSUs and units move (12.2, 13.0)
        return [u for u in units if has_ma(u)]

    def reach(self) -> tuple[dict[str, float], dict[str, list[str]]]:
        """The engine's reachable hexes (MP) for the selected stack, and the paths when the engine gives them."""
        d = self.ctl.pending()
        units = self._movers(d)
        if not units or "reachable" not in self.ctl.query_names():
            return {}, {}
        qopts = self.orders.query_options()
        key = (self.selected_hex, tuple(units), len(self.ctl.log()), self.ctl.hash(), tuple(sorted(qopts)))
        if self._reach is not None and self._reach[0] == key:
            return self._reach[1], self._reach[2]
        mp: dict[str, float] = {}
        paths: dict[str, list[str]] = {}
        res = None
        if self._with_paths_ok is not False:
            try:
                res = self.ctl.query("reachable", units=units, with_paths=True, **qopts)
                self._with_paths_ok = True
            except TypeError:
                self._with_paths_ok = False
            except Exception:  # noqa: BLE001 - the engine refuses: nothing reachable
                res = {}
        if res is None:
            try:
                res = self.ctl.query("reachable", units=units, **qopts)
            except Exception:  # noqa: BLE001
                res = {}
        for lab, v in (res or {}).items():
            lab = str(getattr(lab, "label", lab))
            if isinstance(v, dict):
                cost = v.get("mp", v.get("cost"))
                if v.get("path"):
                    paths[lab] = [str(x) for x in v["path"]]
            elif isinstance(v, (tuple, list)) and len(v) == 2:
                cost, pth = v
                paths[lab] = [str(x) for x in pth]
            else:
                cost = v
            if isinstance(cost, (int, float)):
                mp[lab] = float(cost)
        mp.pop(self.selected_hex, None)
        self._reach = (key, mp, paths)
        return mp, paths

    def route_to(self, label: str) -> tuple[list[str], float | None] | None:
        """The engine's path (and MP) for the selected stack to ``label``: the ``route`` query when the engine
        registers it, else the paths of ``reachable(with_paths=True)``; None when it gives none."""
        d = self.ctl.pending()
        units = self._movers(d)
        if not units:
            return None
        if "route" in self.ctl.query_names():
            qopts = self.orders.query_options()
            key = (self.selected_hex, tuple(units), len(self.ctl.log()), self.ctl.hash(), tuple(sorted(qopts)), label)
            if key in self._routes:
                return self._routes[key]
            try:
                res = self.ctl.query("route", units=units, to=label, **qopts)
            except Exception:  # noqa: BLE001 - no legal route
                res = None
            self._routes = {k: v for k, v in self._routes.items() if k[:5] == key[:5]}
            self._routes[key] = self._parse_route(res, label)
            return self._routes[key]
        mp, paths = self.reach()
        if label in paths:
            return paths[label], mp.get(label)
        return None

    def _parse_route(self, res, label: str) -> tuple[list[str], float | None] | None:
        """``route`` answers ``{"path", "mp"}`` (also accepted: ``(path, mp)`` or a bare path); None: no route."""
        if not res:
            return None
        if isinstance(res, dict):
            path, cost = res.get("path") or [], res.get("mp", res.get("cost"))
        elif isinstance(res, (tuple, list)) and len(res) == 2 and isinstance(res[0], (list, tuple)):
            path, cost = res
        else:
            path, cost = res, None
        path = [str(getattr(x, "label", x)) for x in path]
        if not path:
            return None
        return path, float(cost) if isinstance(cost, (int, float)) else self.reach()[0].get(label)

    def _stacking_warning(self, label: str) -> str:
        """Before a move: the destination's stacking points with the movers, when over its limit (10.2, 10.3)."""
        st = self.ctl.state()
        movers = self._movers(self.ctl.pending())
        if st is None or not movers:
            return ""
        try:
            pts, lim = stacking_at(st, label, movers)
        except (KeyError, ValueError):
            return ""
        if pts <= lim:
            return ""
        return (f"{label} would hold {pts} stacking points, over its limit of {lim} (10.2): all its units are "
                "disrupted at the end of the phase unless some move on (10.3)")

    def _update_moved(self, d: Decision | None) -> None:
        """Moved stacks shown as moved (greyed, "moved") during a Movement or Reaction Phase (13.1)."""
        st = self.ctl.state()
        cells: dict[str, tuple[str, str | None]] = {}
        if st is not None and d is not None and "move" in (d.free_kinds or ()):
            done = moved_units(st)
            by_hex: dict[str, list[str]] = {}
            for u in st.units.values():
                rec = geo.rec_of(u.loc)
                if rec is not None and u.side == d.side:
                    by_hex.setdefault(rec.label, []).append(u.id)
            for lab, ids in by_hex.items():
                ground = self._stack_units(lab, side=d.side)
                if ground and all(u in done for u in ground):
                    cells[lab] = ("moved", None)
        self.scene.moved.set_cells(cells)

    def unmoved_stacks(self) -> list[str]:
        """The hexes of the moving side's stacks with a unit still to move, in map order (13.1)."""
        d = self.ctl.pending()
        st = self.ctl.state()
        if st is None or d is None or "move" not in (d.free_kinds or ()):
            return []
        done = moved_units(st)
        hexes = {geo.rec_of(u.loc).label for u in st.units.values()
                 if u.side == d.side and geo.rec_of(u.loc) is not None and u.id not in done}
        return sorted(h for h in hexes if any(u not in done and has_ma(u) for u in self._stack_units(h, side=d.side)))

    def next_unmoved(self) -> str | None:
        """Key N: select and centre the next stack with a unit still to move."""
        hexes = self.unmoved_stacks()
        if not hexes:
            self.status.showMessage("No stack of the moving side is left to move (13.1)", 6000)
            return None
        after = [h for h in hexes if self.selected_hex is None or h > self.selected_hex]
        label = (after or hexes)[0]
        self.tabs.setCurrentIndex(0)
        self.view.centre_on_hex(label)
        self.select_hex(label)
        self.status.showMessage(f"Next stack to move: {self.board.units_text(self.board.friendly(label))} in "
                                f"{self.board.name(label)} ({len(hexes)} stack(s) left)", 6000)
        return label

    def find_unit(self, text: str) -> str | None:
        """Find a unit by its counter name (or part of it) on the map: select and centre its hex."""
        st = self.ctl.state()
        q = text.strip().lower()
        if st is None or not q:
            return None
        hits = []
        for u in sorted(st.units.values(), key=lambda x: x.id):
            rec = geo.rec_of(u.loc)
            c = counterart.lookup(u.id)
            name = (c.name if c and c.name else u.id).lower()
            if rec is not None and (q == name or q in name or q == u.id.lower()):
                hits.append((q != name, rec.label, c.name if c and c.name else u.id))
        if not hits:
            return None
        hits.sort()
        _exact, label, name = hits[0]
        self.tabs.setCurrentIndex(0)
        self.view.centre_on_hex(label, zoom=max(self.view.scale_factor(), 0.8))
        self.select_hex(label)
        self.status.showMessage(f"{name} is in {self.board.name(label)}"
                                + (f" ({len(hits) - 1} more match(es))" if len(hits) > 1 else ""), 6000)
        return label

    def _update_moves(self, d: Decision | None) -> None:
        """Reachable hexes with their MP for the selected stack during a movement decision (engine query)."""
        mp, _paths = self.reach() if self._movers(d) else ({}, {})
        self.scene.reach.set_cells({lab: (f"{v:g} MP", None) for lab, v in mp.items()})
        if not mp and not self.move_path:
            self.scene.routes.set_routes([])

    def _preview_move(self, label: str) -> str:
        """Hover during movement: draw the engine's path to ``label`` and say its MP cost."""
        if self.move_path:
            return ""
        mp, _ = self.reach() if self._movers(self.ctl.pending()) else ({}, {})
        st = self.ctl.state()
        enemy = bool(mp) and any(u.loc == label and u.side != self.ctl.pending().side for u in st.units.values())
        if label not in mp and not enemy:
            self.scene.routes.set_routes([])
            return ""
        route = self.route_to(label)
        if route is not None:
            path = route[0] if route[0][:1] == [self.selected_hex] else [self.selected_hex] + route[0]
            cost = route[1] if route[1] is not None else mp[label]
            over = self._stacking_warning(label)
            self.scene.routes.set_routes([(path, "#e69138" if over else "#ffd966",
                                           f"{cost:g} MP" + (" ⚠ overstacked (10.2)" if over else ""))])
            return f"{'overrun' if enemy else 'move'}: {' → '.join(path)}, {cost:g} MP — click to move"
        if enemy:
            self.scene.routes.set_routes([])
            return ""
        return f"reachable for {mp[label]:g} MP — click the hexes of the path one by one"

    # ---------------------------------------------------------------- combat dialog
    def _update_combat(self, d: Decision | None) -> None:
        """Show the docked combat panel while a combat decision is pending; draw declared attacks and retreats.

        When the combat procedures end (the last combat resolved, or "No attacks") the panel closes and the status
        bar reports the last combat's outcome (issue 19): nothing of it stays into the next phase."""
        routes: list[tuple[list[str], str, str]] = []
        if is_combat(d):
            info = gather_combat(self.ctl)
            new_combat = self._combat_seen is None or self._combat_seen.current != info.current
            self._combat_seen = info
            self.combat_dlg.show_info(info, enabled=not self.ctl.replaying and self.ctl.can_act(d))
            st = self.ctl.state()
            for k, c in enumerate(info.declared):
                if c.get("resolved"):
                    continue
                odds = info.declared_odds[k] if k < len(info.declared_odds) and ":" in info.declared_odds[k] else ""
                for u in c["attackers"]:
                    if u in st.units and geo.rec_of(st.units[u].loc):
                        routes.append(([geo.rec_of(st.units[u].loc).label, c["hexes"][0]], "#e06666", odds))
                        break
            fr = info.frame or {}
            for r in fr.get("retreat_log", []):
                if len(r["path"]) > 1:
                    routes.append((r["path"], "#9fc5e8", "retreat"))
            if d.kind == "combat_retreat" and d.context.get("path"):
                routes.append((list(d.context["path"]), "#6fa8dc", f"{d.context.get('min', 0)}-{d.context.get('max', 0)} hexes"))
            if self.combat_dlg.dismissed_key != self.combat_dlg.combat_key() and not self.cover.isVisible():
                if not self.dock_combat.isVisible() or new_combat:
                    self.dock_combat.show()
                    self._raise_dock(self.dock_combat)
            if new_combat and (info.current or {}).get("hexes") and not self.ctl.replaying:
                self._keep_in_view((info.current or {}).get("hexes", []) + [
                    geo.rec_of(st.units[u].loc).label for u in (info.current or {}).get("attackers", [])
                    if u in st.units and geo.rec_of(st.units[u].loc) is not None])
        elif self._combat_seen is not None:
            last = self._combat_seen
            self._combat_seen = None
            outcome = (self._outcome_of(last) or last.outcome) if last.current else None
            if outcome is None and last.frame and last.current:
                self.status.showMessage(f"Combat at {', '.join(place(h) for h in last.current.get('hexes', []))} "
                                        "resolved — the game log has every step", 15000)
            if outcome is not None:
                where = ", ".join(place(h) for h in last.current.get("hexes", []))
                self.status.showMessage(f"Combat at {where} over: the defender "
                                        f"{'cleared the hex' if outcome.get('defender_cleared') else 'holds'} "
                                        f"(attacker lost {outcome.get('attacker_losses', 0)}, defender "
                                        f"{outcome.get('defender_losses', 0)} step(s)) — the game log has every step", 15000)
            self.dock_combat.hide()
            self.combat_dlg.dismissed_key = None
        if not self.move_path and not self._movers(d):
            self.scene.routes.set_routes(routes + self._computer_routes)

    def _keep_in_view(self, hexes: list[str]) -> None:
        """Centre the map on ``hexes`` when one of them is out of view (the docked combat panel never hides them)."""
        recs = [geo.rec_of(h) for h in hexes if geo.rec_of(h) is not None]
        if not recs:
            return
        vis = self.view.mapToScene(self.view.viewport().rect()).boundingRect()
        if all(vis.contains(r.x, r.y) for r in recs):
            return
        self.view.centerOn(sum(r.x for r in recs) / len(recs), sum(r.y for r in recs) / len(recs))

    def _outcome_of(self, last: CombatInfo) -> dict | None:
        st = self.ctl.state()
        cur = last.current or {}
        for f in reversed(st.stack):
            if f.proc == "combat_phase":
                for c in f.data.get("combats", []):
                    if c.get("hexes") == cur.get("hexes") and c.get("outcome"):
                        return dict(c["outcome"])
        # the phase is over: the engine's outcome is in its last resolve frame's data no more; rebuild from the log
        return None

    def keyPressEvent(self, event) -> None:  # noqa: N802
        if event.key() == Qt.Key_Escape and self.orders.picking():
            self.orders.form.stop_pick()
            return
        if event.key() == Qt.Key_Escape and self.move_path:
            self._clear_path()
            return
        super().keyPressEvent(event)

    def _inspect_hex(self, label: str) -> None:
        st = self.ctl.state()
        if st is None:
            return
        units = sorted((u for u in st.units.values() if geo.rec_of(u.loc) is not None and geo.rec_of(u.loc).label == label),
                       key=lambda u: u.id)
        rec = geo.rec_of(label)
        info = mapinfo.load()
        bits = []
        if rec is not None:
            if len(rec.hex.labels) > 1:
                bits.append("also " + ", ".join(rec.hex.labels[1:]))
            if info.names.get(label):
                bits.append(info.names[label])
            if info.terrain.get(label):
                bits.append(info.terrain[label].replace("_", " "))
            if st.control.get(label):
                bits.append(f"controlled by {st.control[label]}")
            try:
                pts, lim = stacking_at(st, label)
                bits.append(f"stacking {pts} of {lim} points (10.2)" + (" — OVERSTACKED: disrupted at phase end (10.3)"
                                                                         if pts > lim else ""))
            except (KeyError, ValueError):
                pass
        done = moved_units(st)
        moved = [u.id for u in units if u.id in done]
        if moved:
            bits.append("moved this phase: " + self.board.units_text(moved))
        self.inspector.show_units(f"Hex {label}", units, " · ".join(bits) or ("no units" if not units else ""))
        if not self.dock_combat.isVisible():      # during a combat its panel stays in front (tabbed with this one)
            self._raise_dock(self.dock_inspector)

    def _box_clicked(self, box: str) -> None:
        st = self.ctl.state()
        if st is None:
            return
        self.selected_box = box
        self.selected_hex = None
        self.scene.select_hex(None)
        units = sorted((u for u in st.units.values() if u.loc == box or u.loc.startswith(box + ":")), key=lambda u: u.id)
        self.inspector.show_units(self.offmap.title_of(box), units, box)
        self._show_orders(self.ctl.pending())

    def _hex_menu(self, label: str) -> None:
        self.exec_menu(self.hex_menu(label))

    def exec_menu(self, menu: QMenu, pos=None) -> None:
        """Open a popup menu at the mouse (tests replace this: a real popup blocks the offscreen platform)."""
        menu.exec(pos if pos is not None else self.cursor().pos())

    def hex_menu(self, label: str) -> QMenu:
        """The right-click menu of a hex: inspecting, centring, copying and the odds preview — none of them ever
        sends an action to the engine (issue 19)."""
        menu = QMenu(self)
        menu.addAction(f"Inspect {label}", lambda: self.select_hex(label))      # never an action (issue 19)
        menu.addAction("Centre the map here", lambda: self.view.centre_on_hex(label))
        menu.addAction("Copy hex number", lambda: QGuiApplication.clipboard().setText(label))
        if self.selected_hex and self.selected_hex != label and "odds" in self.ctl.query_names():
            menu.addAction(f"Preview an attack from {self.selected_hex} on {label}…", lambda: self.preview_attack(label))
        return menu

    def undo(self) -> None:
        self.ctl.undo()

    def toggle_replay(self) -> None:
        self.ctl.set_replay(None if self.ctl.replaying else len(self.ctl.log()))

    def _toggle_sound(self, on: bool) -> None:
        self.settings.sound = bool(on)
        self._save_settings()

    def _toggle_auto_pass(self, on: bool) -> None:
        self.settings.auto_pass = bool(on)
        self.local_ctl.auto_pass = bool(on)
        self._save_settings()

    def _beep(self) -> bool:
        if self.settings.sound:
            QApplication.beep()
            return True
        return False

    def _refused(self, reason: str, rule: str) -> None:
        self._beep()
        self.orders.show_refusal(reason, rule)
        self.prompt.show_refusal(reason, rule)
        self.status.showMessage(f"Refused: {humanize(reason)} ({rule})", 10000)

    def _handover(self, side: str) -> None:
        st = self.ctl.state()
        d = self.ctl.pending()
        ph = sequence.phase(st.phase)
        detail = f"GT {st.gt} · {ph.title}" + (f"\n{humanize(d.prompt)}" if d else "")
        self.dock_combat.hide()    # the other player must not see it either
        self._beep()
        self.cover.present(side, detail)

    def _revealed(self, side: str) -> None:
        self.ctl.take_seat(side)
        self.refresh()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        if self.cover.isVisible():
            self.cover.setGeometry(self.rect())
        self._place_minimap()

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        self._place_minimap()

    def _raise_dock(self, dock) -> None:
        """Bring a dock to the front of its tab group, never above the hotseat cover: the other player must not
        see the screen during a hand-over."""
        dock.raise_()
        if self.cover.isVisible():
            self.cover.raise_()

    def _place_minimap(self) -> None:
        vp = self.view.viewport()
        self.minimap.move(vp.width() - self.minimap.width() - 12, vp.height() - self.minimap.height() - 12)
        self.minimap.raise_()

    def _hovered(self, label: str) -> None:
        """The status bar under the mouse: the hex, and what a click there would do (app.interaction)."""
        self._hover = label
        if not label:
            self.hover_label.setText("")
            return
        st = self.ctl.state()
        rec = geo.rec_of(label)
        info = mapinfo.load()
        parts = [label]
        if rec and len(rec.hex.labels) > 1:
            parts.append("(" + " = ".join(rec.hex.labels) + ")")
        if info.names.get(label):
            parts.append(info.names[label])
        if info.terrain.get(label):
            parts.append(info.terrain[label].replace("_", " "))
        if st is not None:
            n = sum(1 for u in st.units.values() if u.loc == label)
            if n:
                parts.append(f"{n} unit{'s' if n > 1 else ''}")
        self._preview_move(label)
        c = self.click_meaning(label)
        text = " · ".join(parts) + " — " + c.text
        warn = self._stacking_warning(label) if c.kind in ("move", "send_path") else ""
        if warn:
            text += " · ⚠ " + warn
        self.hover_label.setText(text)

    def set_layer(self, key: str, on: bool) -> None:
        self.settings.layers[key] = on
        for w in (self.layer_boxes.get(key), self.layer_actions.get(key) if hasattr(self, "layer_actions") else None):
            if w is not None and w.isChecked() != on:
                w.blockSignals(True)
                w.setChecked(on)
                w.blockSignals(False)
        self.scene.apply_layers()
        self.minimap.refresh()
        self._save_settings()

    def _current_rule(self) -> str:
        d = self.ctl.pending()
        return d.rule if d else "4.1"

    def open_rule(self, rule: str) -> None:
        if not hasattr(self, "_rules") or self._rules is None:
            self._rules = RulesViewer(self, self.settings)
        self._rules.show_rule(rule)
        self._rules.show()
        self._rules.raise_()

    def choose_rules_file(self) -> bool:
        """Settings ▸ Rules text file…: the file picker; the rules viewer re-reads the chosen file."""
        from app.dialogs import choose_rules_file

        if not choose_rules_file(self, self.settings):
            return False
        self._save_settings()
        if getattr(self, "_rules", None) is not None:
            self._rules.reload()
        self.status.showMessage(f"Rules text: {self.settings.rules_text}", 6000)
        return True

    def _focus_jump(self) -> None:
        self.jump.setFocus()
        self.jump.selectAll()

    def _jump(self) -> None:
        text = self.jump.text().strip().upper()
        if self.view.centre_on_hex(text, zoom=max(self.view.scale_factor(), 0.8)):
            rec = geo.rec_of(text)
            self.tabs.setCurrentIndex(0)
            self.select_hex(rec.label)          # a jump selects, never plays
            self.status.showMessage(f"Centred on {rec.label}", 3000)
        elif self.find_unit(self.jump.text()) is None:
            self.status.showMessage(f"{self.jump.text().strip()!r} is neither a hex of the game (a hex number is MRRCC, "
                                    "e.g. C2331; 2.2.2) nor a unit on the map", 6000)

    # ================================================================ files
    def new_game(self) -> None:
        dlg = NewGameDialog(self, Path(self.settings.last_dir) if self.settings.last_dir else data_dir())
        if dlg.exec() != NewGameDialog.Accepted:
            return
        path = Path(dlg.path.text())
        if path.exists():
            ok = QMessageBox.question(self, "Replace file?", f"{path.name} exists. Replace it with a new game?")
            if ok != QMessageBox.Yes:
                return
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.ctl.new_game(path, dlg.scenario_id(), dlg.seed_value(), overwrite=True,
                              optional=dlg.optional_rules(), computer=dlg.computer_sides())
        except Exception as exc:  # noqa: BLE001 - show any failure to the player
            QMessageBox.critical(self, "Cannot create the game", str(exc))
            return
        self.settings.last_dir = str(path.parent)

    def open_game_dialog(self) -> None:
        fn, _ = QFileDialog.getOpenFileName(self, "Open a game", self.settings.last_dir or str(data_dir()),
                                            "Desert Fox games (*.dfd);;All files (*)")
        if fn:
            self.open_path(Path(fn))

    def open_path(self, path: Path) -> bool:
        from core.game import why_unopenable
        from core.store import StoreError

        try:
            self.ctl.open_game(path)
        except StoreError as exc:
            text = why_unopenable(path, exc)
            if "already open for play" not in text:
                QMessageBox.critical(self, "Cannot open the game", text)
                return False
            # another program plays it (issue 14): offer to watch it read-only
            if QMessageBox.question(self, "The game is being played elsewhere", f"{text}.\n\nWatch it read-only?",
                                    QMessageBox.Yes | QMessageBox.No) != QMessageBox.Yes:
                return False
            try:
                self.ctl.open_game(path, read_only=True)
            except Exception as exc2:  # noqa: BLE001 - explained in one sentence, never a traceback
                QMessageBox.critical(self, "Cannot open the game", why_unopenable(path, exc2))
                return False
        except Exception as exc:  # noqa: BLE001 - explained in one sentence (issue 14), never a traceback
            QMessageBox.critical(self, "Cannot open the game", why_unopenable(path, exc))
            return False
        self.settings.last_dir = str(path.parent)
        return True

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for r in self.settings.recent:
            a = self.recent_menu.addAction(r, lambda r=r: self.open_path(Path(r)))
            a.setEnabled(Path(r).exists())
        if not self.settings.recent:
            a = self.recent_menu.addAction("(no recent games)")
            a.setEnabled(False)

    def export_png(self, path: Path, scale: float = 0.5) -> Path:
        img = self.scene.render_image(scale)
        img.save(str(path), "PNG")
        return path

    def export_png_dialog(self) -> None:
        default = str((Path(self.settings.last_dir) if self.settings.last_dir else data_dir()) / "map.png")
        fn, _ = QFileDialog.getSaveFileName(self, "Export the map as PNG", default, "PNG images (*.png)")
        if fn:
            QApplication.setOverrideCursor(Qt.WaitCursor)
            try:
                self.export_png(Path(fn))
            finally:
                QApplication.restoreOverrideCursor()
            self.status.showMessage(f"Map exported to {fn}", 6000)

    def hotseat_dialog(self) -> None:
        dlg = PasswordsDialog(self, self.settings)
        if dlg.exec() == PasswordsDialog.Accepted:
            dlg.apply()
            self.ctl.hotseat = self.settings.hotseat
            self._save_settings()

    def show_shortcuts(self) -> None:
        QMessageBox.information(self, "Keyboard shortcuts", self.shortcuts_html())

    def shortcuts_html(self) -> str:
        """Help ▸ Keyboard shortcuts: every action's shortcut, and the mouse on the map."""
        rows = []
        for a in self.actions():
            if a.shortcut().toString():
                rows.append(f"<tr><td><b>{a.shortcut().toString()}</b></td><td>{a.text().replace('&', '')}</td></tr>")
        rows.append("<tr><td><b>Alt+1…9</b></td><td>Choose the prompt's options</td></tr>")
        rows.append("<tr><td><b>Wheel / + / −</b></td><td>Zoom the map</td></tr>")
        rows.append("<tr><td><b>Click</b></td><td>Select a stack; with a stack selected, move it to a reachable hex "
                    "(the status bar says what a click will do before you click)</td></tr>")
        rows.append("<tr><td><b>Drag a stack</b></td><td>Move it along the engine's route (also onto a friendly stack)</td></tr>")
        rows.append("<tr><td><b>Shift+click</b></td><td>Move the selected stack onto a friendly stack</td></tr>")
        rows.append("<tr><td><b>Right-click</b></td><td>The hex menu: inspect, centre, copy, odds preview (never plays)</td></tr>")
        rows.append("<tr><td><b>Esc</b></td><td>Cancel a path built hex by hex</td></tr>")
        rows.append("<tr><td><b>Drag the map</b></td><td>Pan the map</td></tr>")
        return "<table cellpadding=3>" + "".join(rows) + "</table>"

    def about(self) -> None:
        from core import __version__
        QMessageBox.about(self, "About", f"<h3>Desert Fox Campaign Manager {__version__}</h3>"
                          "<p>A rules-enforcing campaign manager for <i>Desert Fox Deluxe</i> "
                          "(Decision Games, 2019). Counters and maps are drawn by the program.</p>")

    def _save_settings(self) -> None:
        try:
            self.settings.save()
        except OSError as exc:
            self.status.showMessage(f"Settings not saved: {exc}", 5000)

    def closeEvent(self, event) -> None:  # noqa: N802
        self.settings.geometry = bytes(self.saveGeometry().toBase64()).decode()
        self._save_settings()
        self.computer.shutdown()
        if self.ctl.remote_mode:
            self.ctl.close()
        if self.host_session is not None:
            self.host_session.stop()
            self.host_session = None
        self.local_ctl.close()
        super().closeEvent(event)


def moved_units(st) -> set[str]:
    """The units that have finished moving in the current Movement or Reaction Phase (13.1): the engine's
    movement frame lists them (``moved``, less those it lets continue).  Read-only: the engine refuses any move
    of them itself; the app only stops offering them."""
    if st is None:
        return set()
    for f in reversed(st.stack):
        if f.proc in ("movement", "reaction"):
            return set(f.data.get("moved", {})) - set(f.data.get("continue", []))
    return set()


def has_ma(uid: str) -> bool:
    """Whether the counter has a movement allowance (a dump or a fort does not; 13.0)."""
    c = counterart.lookup(uid)
    return c is not None and bool(getattr(c, "ma", 0))


def stacking_at(st, label: str, extra: list[str] = ()) -> tuple[int, int]:
    """(stacking points, limit) of hex ``label`` with the units ``extra`` added (10.1, 10.2), from the engine's own
    stacking functions."""
    from core.rules import stacking, tec

    ids = {u.id for u in st.units.values() if geo.rec_of(u.loc) is not None and geo.rec_of(u.loc).label == label}
    ids |= set(extra)
    pts = sum(stacking.stacking_points(st.units[i]) for i in ids if i in st.units)
    return pts, stacking.limit(tec.map_for(st), label)


class _WindowBoard:
    """The window's answers to :class:`app.interaction.Board` (from the engine's decision and queries)."""

    def __init__(self, w: "MainWindow"):
        self.w = w

    def picking(self) -> bool:
        return self.w.orders.picking()

    def targets(self, label: str) -> list[Option]:
        return self.w._map_options(self.w.ctl.pending()).get(label, [])

    def moving(self) -> bool:
        d = self.w.ctl.pending()
        return d is not None and "move" in d.free_kinds and not self.w.ctl.replaying and self.w.ctl.can_act(d)

    def friendly(self, label: str) -> list[str]:
        side = self.w._acting_side()
        return self.w._stack_units(label, side=side) if side else []

    def movers(self) -> list[str]:
        return self.w._movers(self.w.ctl.pending())

    def route(self, label: str):
        return self.w.route_to(label)

    def adjacent(self, a: str | None, b: str) -> bool:
        ra, rb = geo.rec_of(a) if a else None, geo.rec_of(b)
        return ra is not None and rb is not None and ra.hex.distance(rb.hex) == 1

    def name(self, label: str) -> str:
        town = mapinfo.load().names.get(label)
        return f"{label} {town}" if town else label

    def units_text(self, ids: list[str]) -> str:
        names = [counterart.lookup(u).name if counterart.lookup(u) and counterart.lookup(u).name else u for u in ids]
        return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


TARGET_ARGS = ("hex", "to", "box")


def option_units(a: Action) -> set[str]:
    """The units an action is about (``unit``, ``units``)."""
    out = set()
    if isinstance(a.args.get("unit"), str):
        out.add(a.args["unit"])
    if isinstance(a.args.get("units"), (list, tuple)):
        out.update(str(u) for u in a.args["units"])
    return out


def option_target(a: Action) -> str | None:
    """Where an action puts its unit: its ``hex``/``to``/``box`` argument or the last hex of its ``path``."""
    for k in TARGET_ARGS:
        if isinstance(a.args.get(k), str):
            return a.args[k]
    path = a.args.get("path")
    if isinstance(path, (list, tuple)) and path:
        return str(path[-1])
    return None


def retarget(a: Action, target: str) -> Action | None:
    """The same action with its destination (``hex``/``to``/``box``) replaced — for free-form kinds, which the
    engine validates when applied; None when the action has no such single destination."""
    args = dict(a.args)
    for k in TARGET_ARGS:
        if isinstance(args.get(k), str):
            args[k] = target
            return Action(kind=a.kind, side=a.side, args=args)
    return None


def overlay_cells(res) -> dict[str, tuple[str, str | None]]:
    """Normalise an engine overlay query's result to {hex: (text, colour)}.

    Accepted shapes: {hex: cost}, {hex: {"cost"/"text"/"side": ...}}, [hex, ...], [(hex, cost)], or an
    object with a ``hexes`` attribute holding one of those.
    """
    if res is None:
        return {}
    res = getattr(res, "hexes", res)
    out: dict[str, tuple[str, str | None]] = {}
    if isinstance(res, dict):
        for k, v in res.items():
            lab = getattr(k, "label", k)
            if isinstance(v, dict):
                text = str(v.get("text", v.get("cost", v.get("mp", ""))))
                side = v.get("side")
                out[str(lab)] = (text, theme.SIDE_COLOUR.get(side) if side else None)
            elif isinstance(v, str) and v in theme.SIDE_COLOUR:
                out[str(lab)] = ("", theme.SIDE_COLOUR[v])
            else:
                out[str(lab)] = (str(v) if v is not None and v is not True else "", None)
        return out
    for item in res:
        if isinstance(item, (tuple, list)) and len(item) >= 2:
            out[str(getattr(item[0], "label", item[0]))] = (str(item[1]), None)
        else:
            out[str(getattr(item, "label", item))] = ("", None)
    return out
