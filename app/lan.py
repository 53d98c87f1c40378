"""LAN play in the app (issue 9): host this campaign, join a hosted one, presence and chat.

The window keeps talking to a controller.  When joined, that controller is a
:class:`RemoteController`: its state and decision are the client's replica —
produced by the client from host-numbered updates only — and :meth:`act` sends
the action to the host as a command.  Nothing is applied locally: the screen
changes when the host's update arrives.  Refusals (the engine's reason and rule,
or the host's reason for a stale, foreign-side or spectator command) come back
through the same ``refused`` signal the hotseat game uses.

Hosting runs :class:`net.host.Host` in this process, on its own thread, on the
open ``.dfd`` file (the file is the truth; the window then joins its own host over
loopback like any other player, if the host player has a seat).
"""

from __future__ import annotations

import copy
import html
import threading
import time
from typing import Any
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QFont, QGuiApplication, QTextOption
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QGroupBox, QHBoxLayout, QHeaderView,
    QLabel, QLineEdit, QListWidget, QListWidgetItem, QPlainTextEdit, QPushButton, QSpinBox, QTableWidget,
    QTableWidgetItem, QTextBrowser, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget,
)

from app import theme
from app.controller import GameController, QueueDice
from app.settings import Settings
from core.decisions import ALLIED, AXIS, Action, Decision
from core.engine import Engine
from core.state import GameState
from net import keys as keymod
from net import protocol as P

SIDES = (AXIS, ALLIED, P.SPECTATOR)
DEFAULT_PORT = 5670
MONO = "font-family: 'DejaVu Sans Mono', monospace;"


# ============================================================================ the replica on screen


def freeze(eng: Engine) -> Engine:
    """A private copy of a client's replica engine (taken on the network thread, read on the GUI thread).

    The copy shares nothing mutable with the original: its own decoded state, log list and undo points.
    It is only ever read (pending decision, queries, undo availability) — never applied to.
    """
    out = copy.copy(eng)
    out.state = GameState.decode(eng.state.encode())
    out.log = list(eng.log)
    out._undo = list(eng._undo)          # noqa: SLF001 - undo points decide which side may take back (R-UNDO)
    out._rolls, out._events = [], []     # noqa: SLF001
    out.dice = QueueDice()
    out._settle_quietly()                # noqa: SLF001 - its own pending decision, sampling from its own state
    return out


class _Replica:
    """Stands where :class:`core.game.Game` stands for a local game: ``engine`` and ``state``, read-only."""

    def __init__(self, engine: Engine):
        self.engine = engine

    @property
    def state(self) -> GameState:
        return self.engine.state

    def close(self) -> None:
        pass


class RemoteController(GameController):
    """The window's controller when joined to a host: shows the client's replica, sends commands."""

    replicaReady = Signal()          # internal: a new replica was copied on the network thread
    status = Signal(str)             # connection status text

    def __init__(self, qt_client, target: str = "", parent: QObject | None = None):
        super().__init__(parent)
        from net.qt_adapter import QtClient

        self.remote: QtClient = qt_client
        self.client = qt_client.client
        self.target = target or f"{self.client.host}:{self.client.port}"
        self.hotseat = False
        self.welcome: P.Welcome | None = None
        self.presence: P.Presence | None = None
        self.chat: list[P.ChatOut] = []
        self.connection = "connecting"
        self.sent: dict[str, Action] = {}
        self._lock = threading.Lock()
        self._next: tuple[Engine, tuple[int, bytes] | None] | None = None
        self._shown = 0                  # the host sequence number of the replica on screen
        self.replicaReady.connect(self._take_replica, Qt.QueuedConnection)
        self.client.add_listener(self._on_net)
        qt_client.welcomed.connect(self._welcomed)
        qt_client.refused.connect(self._host_refused)
        qt_client.chatReceived.connect(self._chat)
        qt_client.presenceChanged.connect(self._presence)
        qt_client.statusChanged.connect(self._status)
        qt_client.mismatch.connect(lambda text: self.notice.emit(f"Resynchronising: {text}"))
        qt_client.error.connect(lambda text: self.notice.emit(f"LAN error: {text}"))
        qt_client.closed.connect(self._closed)

    # ------------------------------------------------------------------ network thread
    def _on_net(self, kind: str, data) -> None:
        """Runs on the client's network thread, the only thread that changes the replica: copy it there."""
        if kind not in ("snapshot", "update"):
            return
        eng = self.client.engine
        if eng is None:
            return
        frozen = freeze(eng)
        base = (int(data), eng.state.encode()) if kind == "snapshot" else None
        with self._lock:
            prev = self._next
            if base is None and prev is not None:
                base = prev[1]            # a snapshot not yet taken by the GUI stays pending
            self._next = (frozen, base)
        self.replicaReady.emit()

    # ------------------------------------------------------------------ GUI thread
    def start(self) -> None:
        self.remote.start()

    def _take_replica(self) -> None:
        with self._lock:
            nxt, self._next = self._next, None
        if nxt is None:
            return
        eng, base = nxt
        first = self.game is None
        old = len(self.game.engine.log) if self.game is not None else 0
        if base is not None:
            self._base, self._initial = base
            self._checkpoints = {self._base: self._initial}
            self._cursor = None
            old = min(old, self._base)
        self.game = _Replica(eng)
        self._shown = len(eng.log)
        if self.replay_index is not None:
            self.replay_index = max(self._base, min(self.replay_index, self._shown))
        for e in eng.log[max(old, self._base):]:
            self.acted.emit(e)
        if first:
            self.loaded.emit()
        self.changed.emit()

    def _welcomed(self, w: P.Welcome) -> None:
        self.welcome = w
        self.connection = "connected"
        self.seat = w.seat
        self.notice.emit(f"Joined {w.campaign} as {w.name} ({w.seat}); host key fingerprint {w.fingerprint}")
        self.changed.emit()

    def _host_refused(self, r: P.Reject) -> None:
        self.refused.emit(r.reason, r.rule)

    def _chat(self, m: P.ChatOut) -> None:
        self.chat.append(m)

    def _presence(self, p: P.Presence) -> None:
        self.presence = p

    def _status(self, text: str) -> None:
        self.connection = text.split(":", 1)[0]
        self.status.emit(text)

    def _closed(self, reason: str) -> None:
        self.connection = "closed"
        self.status.emit(f"closed: {reason}")

    # ------------------------------------------------------------------ the controller API
    @property
    def remote_mode(self) -> bool:
        return True

    @property
    def shown_seq(self) -> int:
        return self._shown

    def describe(self) -> str:
        w = self.welcome
        who = f"{w.name} ({w.seat})" if w else "joining"
        return f"LAN {w.campaign if w else ''} at {self.target} · you: {who}"

    def can_act(self, d: Decision | None) -> bool:
        """Whether this seat answers ``d`` (the host checks it again: the seat comes from the key)."""
        return d is not None and self.seat in (AXIS, ALLIED) and d.allows(self.seat)

    def act(self, action: Action) -> bool:
        """Send ``action`` to the host; the state changes only when the host's numbered update arrives."""
        if self.game is None:
            return False
        if self.replay_index is not None:
            self.refused.emit("Leave replay mode to play: the replay shows a past state of the game", "replay")
            return False
        cid = self.client.send_command(action, base=self._shown)
        self.sent[cid] = action
        self.notice.emit(f"Sent to the host: {action.kind} (waiting for its update)")
        return True

    def take_seat(self, side: str) -> None:
        pass                                    # the seat comes from the host (the player's key)

    def undo_side(self) -> str | None:
        eng = self.engine
        if eng is None or self.replay_index is not None or self.seat not in (AXIS, ALLIED):
            return None
        return self.seat if eng.can_undo(self.seat) else None

    def undo(self) -> bool:
        if self.seat not in (AXIS, ALLIED):
            return False
        return self.act(Action(kind="undo", side=self.seat))

    def send_chat(self, text: str, to: str = "all") -> None:
        self.remote.send_chat(text, to)

    def open_game(self, path) -> None:  # noqa: ANN001
        raise RuntimeError("Leave the LAN game first (File ▸ Leave the LAN game)")

    new_game = open_game

    def close(self) -> None:
        self.remote.stop()
        self.game = None


# ============================================================================ hosting


class _HostEvents(QObject):
    text = Signal(str)


@dataclass
class SeatRow:
    name: str
    side: str
    key: str


class HostSession(QObject):
    """A :class:`net.host.Host` serving the open campaign file from a background thread of this process."""

    event = Signal(str)

    def __init__(self, path: Path, port: int, seats: list[SeatRow], *, campaign: str = "", advertise: bool = True,
                 bind: str = "*", computer_setting: str = "quick", parent: QObject | None = None):
        super().__init__(parent)
        self.computer_setting = computer_setting
        self.computers: dict[str, Any] = {}      # public key -> net.computer.ComputerSeat (issue 21)
        self.path = Path(path)
        self.seats_path = self.path.with_suffix(".seats.toml")
        self.campaign = campaign or self.path.stem
        self.port = port
        self.advertise = advertise
        self.bind = bind
        self.host = None
        self.lines: list[str] = []
        self._bridge = _HostEvents()
        self._bridge.text.connect(self._note, Qt.QueuedConnection)
        self.write_seats(seats)

    def write_seats(self, seats: list[SeatRow]) -> None:
        """Write the seat file; a running host re-reads it (a removed key is disconnected)."""
        from net.host import write_seats

        write_seats(self.seats_path, [(s.name, s.side, s.key) for s in seats], campaign=self.campaign)
        self.seats = list(seats)
        if self.running:
            self._seat_computers()

    def _seat_computers(self) -> None:
        """Run a computer seat (:class:`net.computer.ComputerSeat`, a client of this host) for each seat holding a
        computer key (*Seat the computer*); stop those whose seat was removed."""
        from net.computer import ComputerSeat

        wanted = {s.key: s for s in self.seats if s.side in (AXIS, ALLIED) and s.key in computer_keys()}
        for key in [k for k in self.computers if k not in wanted or self.computers[k].side != wanted[k].side]:
            self.computers.pop(key).stop()
        local = "127.0.0.1" if self.bind in ("*", "0.0.0.0", "") else self.bind
        for key, s in wanted.items():
            if key not in self.computers:
                self._note(f"The computer holds the {s.side} side ({self.computer_setting})")
                self.computers[key] = ComputerSeat(local, self.port, self.host.key.public, s.side,
                                                   self.computer_setting, key=computer_keys()[key]).start()

    def start(self) -> None:
        from net.host import Host

        self.host = Host(self.path, self.port, self.seats_path, campaign=self.campaign, advertise=self.advertise,
                         bind=self.bind, on_event=self._bridge.text.emit).start()
        self.port = self.host.port
        self._seat_computers()

    def _note(self, text: str) -> None:
        line = f"{time.strftime('%H:%M:%S')}  {text}"
        self.lines.append(line)
        self.event.emit(line)

    @property
    def running(self) -> bool:
        return self.host is not None

    @property
    def fingerprint(self) -> str:
        return self.host.fingerprint if self.host else ""

    @property
    def public_key(self) -> str:
        return self.host.key.public if self.host else ""

    def join_code(self) -> str:
        if self.host is None:
            return ""
        return self.host.join_code("127.0.0.1" if self.bind.startswith("127.") else None)

    def stop(self) -> None:
        for seat in self.computers.values():
            seat.stop()
        self.computers = {}
        if self.host is not None:
            self.host.stop()
            self.host = None


def computer_keys() -> dict[str, Any]:
    """The computer seats' key pairs by public key (one per side: ``computer-axis``, ``computer-allied``)."""
    from net.computer import computer_key

    pairs = [computer_key(side) for side in (AXIS, ALLIED)]
    return {p.public: p for p in pairs}


def load_seat_rows(path: Path) -> list[SeatRow]:
    """The seats of ``FILE.seats.toml`` if it exists and reads, else none."""
    from net.host import Seats

    p = Path(path).with_suffix(".seats.toml")
    if not p.exists():
        return []
    try:
        seats = Seats.load(p)
    except ValueError:
        return []
    return [SeatRow(s.name, s.seat, s.key) for s in seats.by_key.values()]


class CodeView(QPlainTextEdit):
    """A long join code shown whole: read-only, selectable, wrapped anywhere (it has no spaces)."""

    def __init__(self, text: str = ""):
        super().__init__(text)
        self.setReadOnly(True)
        self.setWordWrapMode(QTextOption.WrapAnywhere)
        self.setLineWrapMode(QPlainTextEdit.WidgetWidth)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setTabChangesFocus(True)

    def text(self) -> str:
        return self.toPlainText()

    def setText(self, text: str) -> None:  # noqa: N802
        self.setPlainText(text)


def _mono(text: str) -> QLabel:
    lab = QLabel(text)
    lab.setStyleSheet(MONO)
    lab.setTextInteractionFlags(Qt.TextSelectableByMouse)
    return lab


class HostDialog(QDialog):
    """File ▸ Host this campaign…: seats (name, side, key), port, the join code and the key fingerprint."""

    hostStarted = Signal(object)     # HostSession
    hostStopped = Signal()

    COLS = ("Name", "Side", "Public key", "Fingerprint")

    def __init__(self, parent: QWidget | None, path: Path, settings: Settings, session: HostSession | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"Host this campaign — {Path(path).name}")
        self.setObjectName("HostDialog")
        self.path = Path(path)
        self.settings = settings
        self.session = session
        self.me = keymod.load_or_create("player")
        self.resize(980, 720)
        lay = QVBoxLayout(self)

        intro = QLabel(f"<b>{html.escape(self.path.name)}</b> is served to the players you seat below. "
                       "The file stays the truth: every action is validated by the rules engine here and saved "
                       "before the players see it. Each seat is bound to a player's public key "
                       "(they find theirs in File ▸ Join…).")
        intro.setWordWrap(True)
        lay.addWidget(intro)

        form = QFormLayout()
        self.campaign = QLineEdit(self.path.stem.replace("_", " ").title())
        self.campaign.setToolTip("The name players see in their Join dialog (LAN discovery)")
        self.port = QSpinBox()
        self.port.setRange(1024, 65535)
        self.port.setValue(settings.lan_port or DEFAULT_PORT)
        self.port.setToolTip("The TCP port players connect to")
        self.announce = QCheckBox("Announce on the LAN (zeroconf), so players see it in their Join dialog")
        self.announce.setChecked(True)
        form.addRow("Campaign name", self.campaign)
        form.addRow("Port", self.port)
        form.addRow("", self.announce)
        lay.addLayout(form)

        box = QGroupBox("Seats")
        bl = QVBoxLayout(box)
        self.table = QTableWidget(0, len(self.COLS))
        self.table.setHorizontalHeaderLabels(self.COLS)
        self.table.verticalHeader().hide()
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(0, QHeaderView.Interactive)
        hh.setSectionResizeMode(2, QHeaderView.Stretch)
        self.table.setColumnWidth(0, 130)
        self.table.setColumnWidth(1, 110)
        hh.setSectionResizeMode(3, QHeaderView.ResizeToContents)     # the fingerprint is never cut
        hh.setMinimumSectionSize(60)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.ElideMiddle)                  # a long key elides in its middle (tooltip: whole)
        self.table.setMinimumHeight(190)
        self.table.itemChanged.connect(self._item_changed)
        bl.addWidget(self.table)
        row = QHBoxLayout()
        self.b_add = QPushButton("Add seat")
        self.b_add.setToolTip("A new seat: type the player's name and paste their public key")
        self.b_me = QPushButton("Seat me")
        self.b_me.setToolTip("Add your own key, so that this window plays over the host like everyone else")
        self.b_computer = QPushButton("Seat the computer")
        self.b_computer.setToolTip("The computer holds a side: it answers that side's decisions through the host "
                                   "like any player (Game ▸ Computer sets how long it thinks)")
        self.b_remove = QPushButton("Remove seat")
        self.b_apply = QPushButton("Apply seat changes")
        self.b_apply.setToolTip("Write the seat file; the running host re-reads it (removed keys are disconnected)")
        for b in (self.b_add, self.b_me, self.b_computer, self.b_remove):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(self.b_apply)
        bl.addLayout(row)
        mine = QHBoxLayout()
        mine.addWidget(QLabel("Your public key:"))
        mine.addWidget(_mono(self.me.public), 1)
        lay.addWidget(box, 1)
        bl.addLayout(mine)

        self.join_box = QGroupBox("Players join with")
        jl = QFormLayout(self.join_box)
        self.code = CodeView("—")
        self.code.setObjectName("JoinCode")
        self.code.setStyleSheet(MONO)
        self.code.setFixedHeight(self.code.fontMetrics().lineSpacing() * 3 + 14)
        self.code.setToolTip("Send this to the players: it holds this computer's address, the port and the host's key")
        self.fp = QLabel("—")
        self.fp.setObjectName("Fingerprint")
        self.fp.setStyleSheet(MONO + "font-size: 15pt; font-weight: 600; color: #6b4f2a;")
        self.fp.setTextInteractionFlags(Qt.TextSelectableByMouse)
        copy_row = QHBoxLayout()
        copy_row.addWidget(self.code, 1)
        self.b_copy = QPushButton("Copy")
        self.b_copy.setToolTip("Copy the join code to the clipboard")
        self.b_copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.code.text()))
        copy_row.addWidget(self.b_copy)
        jl.addRow("Join code", copy_row)
        jl.addRow("Host key fingerprint", self.fp)
        hint = QLabel("Players compare this fingerprint with the one their Join dialog shows before they join.")
        hint.setStyleSheet("color:#7a6a4a;")
        jl.addRow("", hint)
        lay.addWidget(self.join_box)

        self.events = QPlainTextEdit()
        self.events.setReadOnly(True)
        self.events.setMaximumBlockCount(500)
        self.events.setFixedHeight(110)
        self.events.setPlaceholderText("Host events (players joining and leaving, refused connections) appear here.")
        lay.addWidget(self.events)

        self.error = QLabel("")
        self.error.setStyleSheet("color:#a8322a;")
        self.error.setWordWrap(True)
        lay.addWidget(self.error)
        btns = QHBoxLayout()
        self.b_start = QPushButton("Start hosting")
        self.b_start.setDefault(True)
        self.b_stop = QPushButton("Stop hosting")
        self.b_close = QPushButton("Close")
        btns.addStretch(1)
        for b in (self.b_start, self.b_stop, self.b_close):
            btns.addWidget(b)
        lay.addLayout(btns)

        self.b_add.clicked.connect(lambda: self.add_seat("", AXIS, ""))
        self.b_me.clicked.connect(self.seat_me)
        self.b_computer.clicked.connect(lambda: self.seat_computer())
        self.b_remove.clicked.connect(self._remove)
        self.b_apply.clicked.connect(self.apply_seats)
        self.b_start.clicked.connect(self.start)
        self.b_stop.clicked.connect(self.stop)
        self.b_close.clicked.connect(self.hide)

        for s in (session and self._session_rows()) or load_seat_rows(self.path):
            self.add_seat(s.name, s.side, s.key)
        if session is not None:
            for line in session.lines:
                self.events.appendPlainText(line)
            session.event.connect(self.events.appendPlainText)
        self._sync()

    def _session_rows(self) -> list[SeatRow]:
        return load_seat_rows(self.session.path) if self.session else []

    # ------------------------------------------------------------------ seats
    def add_seat(self, name: str, side: str, key: str) -> int:
        r = self.table.rowCount()
        self.table.blockSignals(True)
        self.table.insertRow(r)
        self.table.setItem(r, 0, QTableWidgetItem(name))
        combo = QComboBox()
        combo.addItems(list(SIDES))
        combo.setCurrentText(side if side in SIDES else AXIS)
        combo.setToolTip("Axis or Allied: may act for that side; spectator: sees everything, acts on nothing")
        self.table.setCellWidget(r, 1, combo)
        k = QTableWidgetItem(key)
        k.setFont(QFont("DejaVu Sans Mono"))
        k.setToolTip("The player's CURVE public key (40 characters): they copy it from their Join dialog")
        self.table.setItem(r, 2, k)
        fp = QTableWidgetItem("")
        fp.setFlags(Qt.ItemIsEnabled | Qt.ItemIsSelectable)          # selectable, so it can be copied
        fp.setFont(QFont("DejaVu Sans Mono"))
        self.table.setItem(r, 3, fp)
        self.table.blockSignals(False)
        self._item_changed(k)
        return r

    def seat_me(self) -> int:
        for r in range(self.table.rowCount()):
            if self.table.item(r, 2).text().strip() == self.me.public:
                return r
        name = self.settings.player_name or "Host"
        return self.add_seat(name, ALLIED if self._sides().count(AXIS) > self._sides().count(ALLIED) else AXIS,
                             self.me.public)

    def seat_computer(self, side: str | None = None) -> int:
        """A seat for the computer on ``side`` (default: the side with fewer seats); its key is the computer's own."""
        from net.computer import COMPUTER_NAME, computer_key

        sides = self._sides()
        side = side or (ALLIED if sides.count(AXIS) > sides.count(ALLIED) else AXIS)
        key = computer_key(side).public
        for r in range(self.table.rowCount()):
            if self.table.item(r, 2).text().strip() == key:
                return r
        return self.add_seat(f"{COMPUTER_NAME} ({side})", side, key)

    def _sides(self) -> list[str]:
        return [self.table.cellWidget(r, 1).currentText() for r in range(self.table.rowCount())]

    def _remove(self) -> None:
        r = self.table.currentRow()
        if r >= 0:
            self.table.removeRow(r)

    def _item_changed(self, item: QTableWidgetItem) -> None:
        if item.column() != 2:
            return
        key = item.text().strip()
        fp = self.table.item(item.row(), 3)
        if fp is None:
            return
        self.table.blockSignals(True)
        if not key:
            fp.setText("(paste the player's key)")
            fp.setForeground(QColor("#9a8a6a"))
        elif keymod.is_public_key(key):
            fp.setText(keymod.fingerprint(key))
            fp.setToolTip(keymod.fingerprint(key))
            fp.setForeground(QColor("#3b3325"))
        else:
            fp.setText("not a public key")
            fp.setForeground(QColor("#a8322a"))
        self.table.blockSignals(False)

    def seats(self) -> list[SeatRow]:
        """The seats as entered; raises ValueError naming the first problem."""
        out: list[SeatRow] = []
        seen: set[str] = set()
        for r in range(self.table.rowCount()):
            name = (self.table.item(r, 0).text() if self.table.item(r, 0) else "").strip()
            key = (self.table.item(r, 2).text() if self.table.item(r, 2) else "").strip()
            side = self.table.cellWidget(r, 1).currentText()
            if not name and not key:
                continue
            if not name:
                raise ValueError(f"Seat {r + 1}: the player's name is missing")
            if '"' in name or "\\" in name:
                raise ValueError(f"Seat {r + 1}: a name may not contain quotes or backslashes")
            if not keymod.is_public_key(key):
                raise ValueError(f"Seat {r + 1} ({name}): {key!r} is not a public key (40 characters)")
            if key in seen:
                raise ValueError(f"Seat {r + 1} ({name}): this key already has a seat; one key, one seat")
            seen.add(key)
            out.append(SeatRow(name, side, key))
        return out

    def my_seat(self) -> SeatRow | None:
        try:
            return next((s for s in self.seats() if s.key == self.me.public), None)
        except ValueError:
            return None

    def apply_seats(self) -> bool:
        try:
            seats = self.seats()
        except ValueError as exc:
            self.error.setText(str(exc))
            return False
        self.error.setText("")
        if self.session is not None:
            self.session.write_seats(seats)
        return True

    # ------------------------------------------------------------------ start / stop
    def start(self, bind: str = "*") -> bool:
        if self.session is not None and self.session.running:
            return True
        try:
            seats = self.seats()
        except ValueError as exc:
            self.error.setText(str(exc))
            return False
        if not seats:
            self.error.setText("Seat at least one player (Add seat, or Seat me)")
            return False
        self.error.setText("")
        session = HostSession(self.path, self.port.value(), seats, campaign=self.campaign.text().strip(),
                              advertise=self.announce.isChecked(), bind=bind,
                              computer_setting=self.settings.computer_setting)
        session.event.connect(self.events.appendPlainText)
        # the host opens the file: the window lets go of it first
        self.hostStarted.emit(None)
        try:
            session.start()
        except Exception as exc:  # noqa: BLE001 - port in use, unreadable file...
            self.error.setText(f"Cannot host: {exc}")
            self.hostStopped.emit()
            return False
        self.session = session
        self.settings.lan_port = session.port
        self._sync()
        self.hostStarted.emit(session)
        return True

    def stop(self) -> None:
        if self.session is not None:
            self.session.stop()
            self.session = None
            self.events.appendPlainText(f"{time.strftime('%H:%M:%S')}  hosting stopped")
            self._sync()
            self.hostStopped.emit()

    def _sync(self) -> None:
        running = self.session is not None and self.session.running
        self.b_start.setEnabled(not running)
        self.b_stop.setEnabled(running)
        self.b_apply.setEnabled(running)
        self.port.setEnabled(not running)
        self.campaign.setEnabled(not running)
        self.announce.setEnabled(not running)
        self.join_box.setEnabled(running)
        if running:
            self.code.setText(self.session.join_code())
            self.fp.setText(self.session.fingerprint)
        else:
            self.code.setText("— (start hosting)")
            self.fp.setText("—")


# ============================================================================ joining


class _Services(QObject):
    changed = Signal(object)


class JoinDialog(QDialog):
    """File ▸ Join…: a join code or HOST:PORT, hosts found on the LAN, the host's fingerprint to confirm."""

    def __init__(self, parent: QWidget | None, settings: Settings, discover: bool = True):
        super().__init__(parent)
        self.setWindowTitle("Join a campaign on the LAN")
        self.settings = settings
        self.me = keymod.load_or_create("player")
        self.services: list = []
        self.resize(720, 560)
        lay = QVBoxLayout(self)

        lay.addWidget(QLabel("<b>Campaigns on this network</b>"))
        self.found = QListWidget()
        self.found.setToolTip("Hosts announcing a campaign on the LAN. Anyone can announce anything: "
                              "compare the fingerprint with the host's screen before you join.")
        self.found.currentRowChanged.connect(self._picked)
        lay.addWidget(self.found, 1)
        self.found_hint = QLabel("Looking for hosts…" if discover else "LAN discovery is off; type the join code.")
        self.found_hint.setStyleSheet("color:#7a6a4a;")
        lay.addWidget(self.found_hint)

        form = QFormLayout()
        self.code = QLineEdit()
        self.code.setPlaceholderText("dfd://192.168.1.20:5670/…  or  192.168.1.20:5670")
        self.code.setToolTip("The join code the host shows (it carries the host's key), or HOST:PORT")
        self.code.textChanged.connect(self._check)
        self.name = QLineEdit(settings.player_name)
        self.name.setPlaceholderText("Your name (the host's seat file names you too)")
        form.addRow("Join code", self.code)
        form.addRow("Your name", self.name)
        lay.addLayout(form)

        self.fp = QLabel("—")
        self.fp.setObjectName("Fingerprint")
        self.fp.setStyleSheet(MONO + "font-size: 14pt; font-weight: 600;")
        self.fp.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.trust = QCheckBox("This is the fingerprint on the host's screen")
        self.trust.setToolTip("The host shows its key fingerprint in its Host dialog. Join only if they match.")
        self.trust.toggled.connect(self._check)
        fpbox = QGroupBox("Host key")
        fl = QVBoxLayout(fpbox)
        fl.addWidget(self.fp)
        fl.addWidget(self.trust)
        lay.addWidget(fpbox)

        mine = QGroupBox("Your key (send it to the host, who binds it to your seat)")
        ml = QHBoxLayout(mine)
        ml.addWidget(_mono(self.me.public), 1)
        ml.addWidget(QLabel("fingerprint"))
        ml.addWidget(_mono(self.me.fingerprint))
        b = QPushButton("Copy")
        b.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.me.public))
        ml.addWidget(b)
        lay.addWidget(mine)

        self.error = QLabel("")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color:#a8322a;")
        lay.addWidget(self.error)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText("Join")
        self.buttons.accepted.connect(self._accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)

        self._bridge = _Services()
        self._bridge.changed.connect(self._services, Qt.QueuedConnection)
        self.browser = None
        if discover:
            try:
                from net.discovery import Browser

                self.browser = Browser(on_change=self._bridge.changed.emit).start()
            except Exception as exc:  # noqa: BLE001 - no multicast here: manual entry still works
                self.found_hint.setText(f"LAN discovery is not available ({exc}); type the join code.")
        self.finished.connect(self._stop_browser)
        self._check()

    def _stop_browser(self, *_a) -> None:
        if self.browser is not None:
            self.browser.stop()
            self.browser = None

    def _services(self, services: list) -> None:
        self.services = list(services)
        self.found.blockSignals(True)
        self.found.clear()
        for s in self.services:
            trusted = s.trusted(self.settings.trusted_hosts)
            where = f"{s.addresses[0] if s.addresses else s.server}:{s.port}"
            state = ("known host" if trusted else "unverified") if s.consistent else "key and fingerprint disagree"
            if not s.compatible:
                state = f"protocol v{s.version}, this app speaks v{P.VERSION}"
            it = QListWidgetItem(f"{s.campaign or s.instance}  —  {where}  —  {s.fingerprint}  ({state})")
            it.setForeground(QColor("#3e7f41" if trusted else ("#3b3325" if s.consistent and s.compatible else "#a8322a")))
            self.found.addItem(it)
        self.found.blockSignals(False)
        self.found_hint.setText(f"{len(self.services)} host(s) found" if self.services else "Looking for hosts…")

    def _picked(self, row: int) -> None:
        if 0 <= row < len(self.services) and self.services[row].consistent:
            self.code.setText(self.services[row].join_code())

    def target(self) -> tuple[str, int, str | None]:
        """(host, port, server key) from the code; the key from a discovered host at that address if absent."""
        c = keymod.parse_join(self.code.text())
        key = c.server_key
        if key is None:
            for s in self.services:
                if s.port == c.port and (c.host in s.addresses or c.host == s.server.rstrip(".")) and s.consistent:
                    key = s.key
        return c.host, c.port, key

    def _check(self, *_a) -> None:
        ok = False
        self.error.setText("")
        text = self.code.text().strip()
        if not text:
            self.fp.setText("—")
        else:
            try:
                _h, _p, key = self.target()
            except keymod.KeyError_ as exc:
                self.fp.setText("—")
                self.error.setText(str(exc))
            else:
                if key is None:
                    self.fp.setText("—")
                    self.error.setText("The host's key is needed: paste the join code the host shows "
                                       "(dfd://HOST:PORT/KEY), or pick the host from the list above.")
                else:
                    self.fp.setText(keymod.fingerprint(key))
                    known = key in self.settings.trusted_hosts or keymod.fingerprint(key) in self.settings.trusted_hosts
                    if known and not self.trust.isChecked():
                        self.trust.setChecked(True)
                        return
                    ok = self.trust.isChecked()
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(ok)

    def _accept(self) -> None:
        host, port, key = self.target()
        if not key or not self.trust.isChecked():
            return
        if key not in self.settings.trusted_hosts:
            self.settings.trusted_hosts = [key] + self.settings.trusted_hosts[:49]
        self.settings.player_name = self.name.text().strip()
        self.accept()


def connect(host: str, port: int, server_key: str, name: str = "", key: keymod.KeyPair | None = None,
            **options) -> RemoteController:
    """A started :class:`RemoteController` on a new client (the player's own key unless ``key`` is given)."""
    from net.client import Client
    from net.qt_adapter import QtClient

    me = key or keymod.load_or_create("player")
    client = Client(host, port, server_key, me, name=name, **options)
    rc = RemoteController(QtClient(client), f"{host}:{port}")
    rc.start()
    return rc


# ============================================================================ presence and chat


class PresencePanel(QWidget):
    """Who is seated, who is connected, which side, who is acting."""

    def __init__(self):
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        self.header = QLabel("Not connected. File ▸ Host this campaign… or Join…")
        self.header.setWordWrap(True)
        lay.addWidget(self.header)
        self.acting = QLabel("")
        self.acting.setObjectName("Acting")
        lay.addWidget(self.acting)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(4)
        self.tree.setHeaderLabels(["", "Player", "Side", ""])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        hh = self.tree.header()
        hh.setStretchLastSection(False)
        hh.setMinimumSectionSize(16)
        hh.setSectionResizeMode(0, QHeaderView.Fixed)
        hh.resizeSection(0, 22)
        hh.setSectionResizeMode(1, QHeaderView.Stretch)
        hh.setSectionResizeMode(2, QHeaderView.ResizeToContents)
        hh.setSectionResizeMode(3, QHeaderView.ResizeToContents)
        lay.addWidget(self.tree, 1)
        self.status = QLabel("")
        self.status.setStyleSheet("color:#7a6a4a;")
        self.status.setWordWrap(True)
        lay.addWidget(self.status)

    def show_presence(self, p: P.Presence | None, me: str = "", seat: str = "") -> None:
        self.tree.clear()
        if p is None:
            return
        if p.acting:
            names = [x.name for x in p.players if x.acting and x.connected]
            self.acting.setText(f"<b>Acting:</b> <span style='color:{theme.SIDE_COLOUR.get(p.acting, '#333')}'>"
                                f"{html.escape(p.acting)}</span>"
                                + (f" — {html.escape(', '.join(names))}" if names else " — nobody of that side is online"))
        else:
            self.acting.setText("<b>The scenario has ended</b>")
        order = {AXIS: 0, ALLIED: 1, P.SPECTATOR: 2}
        for pl in sorted(p.players, key=lambda x: (order.get(x.seat, 3), x.name)):
            it = QTreeWidgetItem(["●", pl.name, pl.seat, "acting" if pl.acting else ""])
            if pl.name == me and pl.seat == seat:
                f = it.font(1)
                f.setBold(True)
                it.setFont(1, f)
            it.setForeground(0, QColor("#3e9a4a" if pl.connected else "#b9ae95"))
            it.setToolTip(0, "connected" if pl.connected else "not connected")
            it.setForeground(2, QColor(theme.SIDE_COLOUR.get(pl.seat, "#6d6a60")).darker(120))
            if pl.acting:
                f = it.font(3)
                f.setBold(True)
                it.setFont(3, f)
                it.setForeground(3, QColor("#8a6500"))
            tip = (f"{pl.name}{' (you)' if pl.name == me and pl.seat == seat else ''}: {pl.seat}, "
                   f"{'connected' if pl.connected else 'offline'}\nkey fingerprint {pl.fingerprint}")
            for c in range(4):
                it.setToolTip(c, tip)
            self.tree.addTopLevelItem(it)

    def names(self) -> list[tuple[str, str, bool, bool]]:
        out = []
        for i in range(self.tree.topLevelItemCount()):
            it = self.tree.topLevelItem(i)
            out.append((it.text(1), it.text(2), it.foreground(0).color() == QColor("#3e9a4a"),
                        it.text(3) == "acting"))
        return out


class ChatPanel(QWidget):
    """Chat to all, or to the players of my side."""

    send = Signal(str, str)          # text, to ("all" | "side")

    def __init__(self):
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        self.view = QTextBrowser()
        self.view.setOpenLinks(False)
        self.view.setPlaceholderText("Messages from the other players appear here.")
        lay.addWidget(self.view, 1)
        row = QHBoxLayout()
        row2 = QHBoxLayout()
        self.to = QComboBox()
        self.to.addItem("To all", "all")
        self.to.addItem("To my side", "side")
        self.to.setToolTip("Everyone (including spectators), or only the players seated on your side")
        self.line = QLineEdit()
        self.line.setPlaceholderText("Message…")
        self.line.setMaxLength(2000)
        self.line.returnPressed.connect(self._send)
        self.button = QPushButton("Send")
        self.button.clicked.connect(self._send)
        row.addWidget(self.line, 1)
        row2.addWidget(self.to, 1)
        row2.addWidget(self.button)
        lay.addLayout(row)
        lay.addLayout(row2)
        self.lines: list[P.ChatOut] = []

    def _send(self) -> None:
        text = self.line.text().strip()
        if text:
            self.send.emit(text, self.to.currentData())
            self.line.clear()

    def add(self, m: P.ChatOut) -> None:
        self.lines.append(m)
        colour = QColor(theme.SIDE_COLOUR.get(m.seat, "#6d6a60")).darker(140).name()
        when = time.strftime("%H:%M", time.localtime(m.ts)) if m.ts else ""
        scope = "" if m.to == "all" else f" <span style='color:#8a6500'>[{html.escape(m.seat)} only]</span>"
        self.view.append(f"<span style='color:#9a8a6a'>{when}</span> <b style='color:{colour}'>{html.escape(m.sender)}</b>"
                         f" <span style='color:#9a8a6a'>({html.escape(m.seat)})</span>{scope}: {html.escape(m.text)}")

    def clear(self) -> None:
        self.lines = []
        self.view.clear()

