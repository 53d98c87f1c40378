"""The one object through which the GUI talks to the engine.

Like Anki's "operations": widgets never touch ``core`` state directly; they ask
the controller to :meth:`act` (which calls ``Game.act`` — the action is
committed to the ``.dfd`` file before the call returns) and redraw when
:attr:`changed` fires.  Refusals come back as the engine's own reason and rule
(:attr:`refused`); the GUI adds nothing to them.

Replay: the states of the log are rebuilt with :meth:`core.engine.Engine.replay`
semantics — the initial state plus the logged actions with their recorded dice
— from checkpoints kept where the engine holds no undo point.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from PySide6.QtCore import QObject, QTimer, Signal

from app.names import humanize
from core import computer as computer_mod
from core import sequence
from core.decisions import ALLIED, AXIS, Action, Decision, GameOver, IllegalAction
from core.engine import Engine, LogEntry
from core.game import Game
from core.state import GameState

CHECKPOINT_EVERY = 25


class QueueDice:
    """Dice that replay recorded rolls in order (the log's dice)."""

    def __init__(self, rolls: list[int] | None = None):
        self.queue = list(rolls or [])

    def d6(self, seed: int, index: int) -> int:
        if not self.queue:
            raise IllegalAction("the log records fewer dice than the replay needs", "R-UNDO")
        return self.queue.pop(0)


@dataclass(frozen=True)
class Heading:
    index: int       # number of log entries applied before this heading's first action
    gt: int
    phase: int

    @property
    def text(self) -> str:
        from core import calendar
        return f"GT {self.gt} ({calendar.month_of(self.gt)}) · {sequence.phase(self.phase).title}"


def nothing_to_decide(d: Decision) -> bool:
    """A step with nothing to decide: no free-form action and either one option only (a "Done", a die roll the
    rules call for), or — for a step either side answers — only each side's plain "done"."""
    if d.free_kinds or not d.options:
        return False
    if len(d.options) == 1:
        return True
    return d.side not in (AXIS, ALLIED) and all(o.action.kind == "done" and not o.action.args for o in d.options)


class GameController(QObject):
    changed = Signal()              # the shown state or decision changed
    loaded = Signal()               # a game was opened or created
    refused = Signal(str, str)      # reason, rule (from IllegalAction)
    notice = Signal(str)            # neutral status text
    handover = Signal(str)          # hotseat: this side must take the seat
    acted = Signal(object)          # LogEntry just committed

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.game: Game | None = None
        self.path: Path | None = None
        self.seat: str | None = None          # hotseat: the side now at the keyboard
        self.hotseat = True
        self.auto_pass = True                 # hotseat: steps with nothing to decide pass without a click
        self.passed: list[tuple[str, str, str]] = []   # (side, option label, prompt) of the steps passed that way
        self.replay_index: int | None = None  # None: live; n: the state after the first n actions
        self._base = 0                        # the first log index replay can show (a LAN replica starts at a snapshot)
        self._initial: bytes | None = None    # the encoded state after the first ``_base`` actions
        self._checkpoints: dict[int, bytes] = {}
        self._epoch_starts: dict[int, bytes] = {}  # actions before an epoch -> its start state (core.game)
        self._watch = QTimer(self)            # watching read-only: take in the writer's actions
        self._watch.setInterval(1000)
        self._watch.timeout.connect(self._poll)
        self._cursor: tuple[int, Engine] | None = None
        #: the sides the computer plays and its setting, {side: "quick" | "thoughtful"} (issue 21); kept in the game
        #: file's meta table (core.computer), so a reopened game remembers it; the state and its hash never change
        self.computer: dict[str, str] = {}

    # ------------------------------------------------------------------ files
    def new_game(self, path: Path | str, scenario: str, seed: int = 1, overwrite: bool = False,
                 optional: Iterable[str] = (), computer: dict[str, str] | None = None) -> None:
        """A new game; ``optional``: the optional rules chosen in the New game dialog (16.0); ``computer``: the sides
        the computer plays, ``{side: setting}`` (issue 21)."""
        game = Game.new(path, scenario, seed, overwrite=overwrite, optional=optional)
        if computer:
            computer_mod.save_seating(game.store, computer)
        self._install(game, Path(path), pass_steps=True)

    def open_game(self, path: Path | str, read_only: bool = False) -> None:
        """Open ``path`` to play it, or ``read_only`` to watch it while another program plays it (issue 14)."""
        game = Game.open(path, read_only=read_only)
        self._install(game, Path(path))
        if read_only:
            self._watch.start()

    def _install(self, game: Game, path: Path, pass_steps: bool = False) -> None:
        self._watch.stop()
        if self.game is not None:
            self.game.close()
        self.game = game
        self.passed = []
        self.computer = computer_mod.load_seating(game.store)
        if pass_steps:
            self._pass_empty_steps()
        self.path = path
        self.replay_index = None
        self._base = 0
        self._initial = game.store.initial_state()
        # each epoch starts from its stored state: the replay never re-applies an earlier epoch's actions across
        # a change of rules (core.game, "Epochs")
        self._epoch_starts = game.epoch_starts()
        self._checkpoints = {0: self._initial, **self._epoch_starts}
        self._cursor = None
        d = game.engine.pending()
        self.seat = d.side if d is not None and d.side in (AXIS, ALLIED) else self.seat
        self._seat_the_person()
        self.loaded.emit()
        self.changed.emit()

    def close(self) -> None:
        self._watch.stop()
        if self.game is not None:
            self.game.close()
            self.game = None

    @property
    def watching(self) -> bool:
        """True when the game is open read-only, watched while another program plays it."""
        return self.game is not None and self.game.read_only

    def _poll(self) -> None:
        if self.game is not None and self.game.read_only and self.game.refresh():
            self._epoch_starts = self.game.epoch_starts()
            self._checkpoints.update(self._epoch_starts)
            self._cursor = None
            self.changed.emit()

    # ------------------------------------------------------------------ live play
    @property
    def engine(self) -> Engine | None:
        return self.game.engine if self.game else None

    def act(self, action: Action) -> bool:
        """Send one action; True when the engine accepted (and the file committed) it."""
        if self.game is None:
            return False
        if self.replay_index is not None:
            self.refused.emit("Leave replay mode to play: the replay shows a past state of the game", "replay")
            return False
        if self.game.read_only:
            self.refused.emit(f"This window watches {self.path.name if self.path else 'the game'} read-only while "
                              "another program plays it: act there", "")
            return False
        try:
            entry = self.game.act(action)
        except GameOver as exc:
            self.refused.emit(exc.reason, exc.rule)
            return False
        except IllegalAction as exc:
            self.refused.emit(exc.reason, exc.rule)
            return False
        self.acted.emit(entry)
        self._after_change()
        return True

    def _after_change(self) -> None:
        self._pass_empty_steps()
        self.changed.emit()
        d = self.pending()
        if (d is not None and self.hotseat and d.side in (AXIS, ALLIED) and self.seat is not None and d.side != self.seat
                and d.side not in self.computer):      # never a hand-over to the computer (issue 21)
            self.handover.emit(d.side)

    # ------------------------------------------------------------------ the computer (issue 21)
    def persons(self) -> list[str]:
        """The sides a person plays at this table."""
        return [s for s in (AXIS, ALLIED) if s not in self.computer]

    def _seat_the_person(self) -> None:
        """With one person at the table, the seat is always theirs: the computer's turns need no hand-over."""
        people = self.persons()
        if len(people) == 1:
            self.seat = people[0]

    def set_computer(self, side: str, setting: str | None) -> None:
        """Hand ``side`` to the computer with ``setting`` ("quick"/"thoughtful"), or take it back (``None``).

        Saved in the game file's meta table (a reopened game remembers it); the game's state and hash do not change."""
        if side not in (AXIS, ALLIED):
            raise ValueError(f"{side!r} is not a side (Axis or Allied)")
        computer = dict(self.computer)
        if setting is None:
            computer.pop(side, None)
        else:
            computer[side] = setting
        if self.game is not None and not self.game.read_only and not self.remote_mode:
            computer_mod.save_seating(self.game.store, computer)
        self.computer = computer
        if setting is None and len(self.persons()) == 2:
            d = self.pending()
            self.seat = side if d is not None and d.side == side else self.seat
        self._seat_the_person()
        self.changed.emit()

    def computer_side(self, d: Decision | None = None) -> str | None:
        """The computer side that answers the pending decision (or ``d``) now, or None."""
        if self.game is None or self.remote_mode or self.replay_index is not None or self.game.read_only:
            return None
        return computer_mod.answering_side(self.pending() if d is None else d, self.computer)

    def _pass_empty_steps(self) -> None:
        """Hand-over skipping (issue 19): a step where a side has nothing to decide (:func:`nothing_to_decide`) is
        answered here with its only answer — an ordinary logged action, the same the player's click would send, so
        saved logs and replays are unchanged — and needs no hand-over.  Off with the ``auto_pass`` setting."""
        if not (self.auto_pass and self.hotseat) or self.remote_mode or self.game is None or self.game.read_only:
            return
        start = len(self.passed)
        for _ in range(200):
            d = self.game.engine.pending()
            if d is None or not nothing_to_decide(d):
                break
            o = d.options[0]
            try:
                entry = self.game.act(o.action)
            except (GameOver, IllegalAction) as exc:   # refused: show it and let the player act
                self.refused.emit(exc.reason, exc.rule)
                return
            self.passed.append((d.side, o.label, d.prompt))
            self.acted.emit(entry)
        done = self.passed[start:]
        if done:
            self.notice.emit(f"{len(done)} step(s) with nothing to decide passed without a click (see the log): "
                             + "; ".join(f"{side}: {humanize(label)}" for side, label, _p in done[-4:]))

    def take_seat(self, side: str) -> None:
        self.seat = side

    @property
    def remote_mode(self) -> bool:
        """True for a LAN replica (:class:`app.lan.RemoteController`); the hotseat game is local."""
        return False

    def can_act(self, d: Decision | None) -> bool:
        """Whether this screen answers ``d``: at a hotseat table every decision but the computer's."""
        return d is not None and computer_mod.answering_side(d, self.computer) is None

    def undo_side(self) -> str | None:
        """The side whose last action can be taken back now (R-UNDO).

        At a hotseat table each player undoes only his own actions: the seated side, or nobody (issue 19) — the
        Allied player never takes back the Axis's last action.  With the hotseat cover off (one person plays both
        sides) either side's last action can be taken back, the seated side's first."""
        eng = self.engine
        if eng is None or self.replay_index is not None:
            return None
        if self.hotseat and self.seat in (AXIS, ALLIED):
            return self.seat if eng.can_undo(self.seat) else None
        order = [self.seat] if self.seat in (AXIS, ALLIED) else []
        order += [s for s in (AXIS, ALLIED) if s not in order]
        for s in order:
            if eng.can_undo(s):
                return s
        return None

    def undo(self) -> bool:
        side = self.undo_side()
        if side is None:
            who = f"the {self.seat} player" if self.hotseat and self.seat in (AXIS, ALLIED) else "either side"
            self.refused.emit(f"Nothing to undo for {who}: each player takes back only his own actions, back to the "
                              "last die roll or the other side's action", "R-UNDO")
            return False
        return self.act(Action(kind="undo", side=side))

    # ------------------------------------------------------------------ what is shown
    def live_state(self) -> GameState | None:
        return self.game.state if self.game else None

    def state(self) -> GameState | None:
        """The state on screen: the live one, or the replayed one in replay mode."""
        if self.game is None:
            return None
        if self.replay_index is None:
            return self.game.state
        return self._engine_at(self.replay_index).state

    def pending(self) -> Decision | None:
        if self.game is None:
            return None
        if self.replay_index is None:
            return self.game.engine.pending()
        return self._engine_at(self.replay_index).pending()

    def log(self) -> list[LogEntry]:
        return self.game.engine.log if self.game else []

    def hash(self) -> str:
        return self.game.engine.hash() if self.game else ""

    def query_names(self) -> set[str]:
        from core.engine import QUERIES
        return set(QUERIES)

    def query(self, name: str, **kw):
        eng = self.engine if self.replay_index is None else self._engine_at(self.replay_index)
        if eng is None:
            return None
        return eng.query(name, **kw)

    # ------------------------------------------------------------------ replay
    @property
    def replaying(self) -> bool:
        return self.replay_index is not None

    def set_replay(self, index: int | None) -> None:
        if self.game is None:
            return
        n = len(self.log())
        if index is not None:
            index = max(self._base, min(n, index))
        self.replay_index = index
        self.changed.emit()

    def step_replay(self, delta: int) -> None:
        n = len(self.log())
        cur = n if self.replay_index is None else self.replay_index
        self.set_replay(cur + delta)

    def headings(self) -> list[Heading]:
        """The GT/phase headings of the log: where each new (GT, phase) starts."""
        out: list[Heading] = []
        if self.game is None or self._initial is None:
            return out
        start = GameState.decode(self._initial)
        last = (start.gt, start.phase)
        out.append(Heading(self._base, *last))
        log = self.log()
        for i in range(self._base, len(log)):
            e = log[i]
            key = (e.gt, e.phase)
            if key != last:
                out.append(Heading(i + 1, *key))
                last = key
        return out

    def initial_state(self) -> GameState | None:
        return GameState.decode(self._initial) if self._initial else None

    def _engine_at(self, n: int) -> Engine:
        """An engine holding the state after the first ``n`` logged actions."""
        log = self.log()
        n = max(n, self._base)
        cur = self._cursor
        if cur is not None and cur[0] == n:
            return cur[1]
        if cur is not None and cur[0] < n and cur[0] >= max(k for k in self._checkpoints if k <= n):
            start, eng = cur
        else:
            start = max(k for k in self._checkpoints if k <= n)
            eng = Engine(GameState.decode(self._checkpoints[start]), QueueDice())
        try:
            eng = self._advance(eng, start, n, log)
        except IllegalAction:
            # an undo reaching back past a checkpoint: replay from the beginning of the epoch
            first = max((k for k in self._epoch_starts if k <= n), default=None)
            if first is None:
                eng = self._advance(Engine(GameState.decode(self._initial), QueueDice()), self._base, n, log)
            else:
                eng = self._advance(Engine(GameState.decode(self._epoch_starts[first]), QueueDice()), first, n, log)
        self._cursor = (n, eng)
        return eng

    def _advance(self, eng: Engine, start: int, n: int, log: list[LogEntry]) -> Engine:
        for i in range(start, n):
            entry = log[i]
            eng.dice = QueueDice(entry.rolls)
            eng.apply(entry.action)
            k = i + 1
            if k % CHECKPOINT_EVERY == 0 and k not in self._checkpoints and not (eng.can_undo(AXIS) or eng.can_undo(ALLIED)):
                self._checkpoints[k] = eng.state.encode()
        return eng

    def states_by_gt(self) -> dict[int, GameState]:
        """The state at the end of each GT played so far (for the dashboard)."""
        if self.game is None or self._initial is None:
            return {}
        log = self.log()
        eng = Engine(GameState.decode(self._initial), QueueDice())
        encoded: dict[int, bytes] = {eng.state.gt: eng.state.encode()}
        starts = self._epoch_starts
        for i in range(self._base, len(log)):
            if i in starts:
                eng = Engine(GameState.decode(starts[i]), QueueDice())
            entry = log[i]
            nxt = log[i + 1] if i + 1 < len(log) else None
            eng.dice = QueueDice(entry.rolls)
            try:
                eng.apply(entry.action)
            except IllegalAction:
                break
            if nxt is None or nxt.gt != entry.gt or eng.state.gt != entry.gt:
                encoded[eng.state.gt] = eng.state.encode()
        live = self.live_state()
        if live is not None:
            encoded[live.gt] = live.encode()
        return {gt: GameState.decode(b) for gt, b in sorted(encoded.items())}
