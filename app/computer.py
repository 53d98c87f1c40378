"""The computer at a hotseat table (issue 21): it answers its sides' decisions one by one, off the GUI thread.

:class:`ComputerOpponent` watches the controller.  When the pending decision is a computer side's
(:meth:`app.controller.GameController.computer_side`), it copies the engine (``Engine.fork`` with ``core.computer.SampledDice``: the
copy's dice are sampled from the computer's own RNG, never the game's) and lets the player think on a
:class:`QThread`, so the window never freezes.  The answer comes back to the GUI thread and is sent through
``GameController.act`` — the same path as a person's click: the engine judges it, the file commits it.

* **Speed** (``SPEEDS``): how long each of the computer's moves stays in view before its next one (instant / normal /
  slow), so that a person can follow them: the window draws a move's path, the docked combat panel shows its
  combats, the status bar says the computer's plan.
* **Pause**: no new thinking starts; an answer already being thought out is held until the computer is resumed
  (and dropped if the game changed meanwhile: an undo, another window).
* A stale answer (the game changed while it was thought out) is never sent: the computer thinks again.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from PySide6.QtCore import QObject, QThread, QTimer, Signal

from app.names import humanize
from core import computer as computer_mod
from core.decisions import Action

#: how long (ms) each of the computer's moves stays in view before it plays the next (Settings ▸ Computer speed)
SPEEDS: dict[str, int] = {"instant": 0, "normal": 900, "slow": 2500}
SPEED_TITLES = {"instant": "Instant", "normal": "Normal", "slow": "Slow"}
SETTING_TITLES = {"quick": "Quick", "thoughtful": "Thoughtful"}

PlayerFactory = Callable[[str, int, str], Any]     # (side, seed, setting) -> Player


def default_factory(side: str, seed: int, setting: str) -> Any:
    return computer_mod.make_computer(side, seed, setting, kind="ai")


class _Thinker(QThread):
    """One decision thought out on a copy of the engine (the live engine is never touched off the GUI thread)."""

    answered = Signal(object, object, str, object)     # token, action, plan, error

    def __init__(self, player: Any, engine: Any, side: str, token: tuple, parent: QObject | None = None):
        super().__init__(parent)
        self.player, self.engine, self.side, self.token = player, engine, side, token

    def run(self) -> None:
        try:
            action, plan = computer_mod.think(self.player, self.engine, self.side)
        except Exception as exc:  # noqa: BLE001 - handed to the GUI thread, which pauses the computer and re-raises
            self.answered.emit(self.token, None, "", exc)
            return
        self.answered.emit(self.token, action, plan, None)


class ComputerOpponent(QObject):
    """Plays the controller's computer sides (``ctl.computer``)."""

    thinking = Signal(str)             # the side the computer thinks for ("" when it stops)
    planned = Signal(str, str)         # side, plan sentence
    played = Signal(object, object)    # the Action just played, {unit: hex before it} (to draw its path)
    pausedChanged = Signal(bool)
    unavailable = Signal(str)          # why the computer cannot play

    def __init__(self, ctl, factory: PlayerFactory | None = None, parent: QObject | None = None):
        super().__init__(parent)
        self.ctl = ctl
        self.factory = factory or default_factory
        self.speed = "normal"
        self.paused = False
        self.plan = ""                 # the last plan sentence
        self.moves = 0                 # actions the computer has played in this window
        self.plans: dict[int, str] = {}      # actions applied after one of the computer's -> its plan (the log shows it)
        self._players: dict[tuple[str, str], Any] = {}
        self._thread: _Thinker | None = None
        self._held: tuple | None = None       # an answer that arrived while paused
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.step)
        ctl.changed.connect(self._changed)
        ctl.loaded.connect(self._loaded)

    # ------------------------------------------------------------------ controls
    def set_speed(self, speed: str) -> None:
        if speed not in SPEEDS:
            raise ValueError(f"{speed!r} is not a computer speed ({', '.join(SPEEDS)})")
        self.speed = speed

    def set_paused(self, paused: bool) -> None:
        if paused == self.paused:
            return
        self.paused = paused
        self.pausedChanged.emit(paused)
        if not paused:
            held, self._held = self._held, None
            if held is not None:
                self._answered(*held)
            else:
                self._timer.start(0)

    @property
    def busy(self) -> bool:
        """True while an answer is being thought out."""
        return self._thread is not None

    def player(self, side: str) -> Any:
        """The computer's player for ``side`` at its current setting (made once per game, side and setting)."""
        setting = self.ctl.computer[side]
        key = (side, setting)
        if key not in self._players:
            game_id = self.ctl.game.store.meta.get("game_id", "") if self.ctl.game is not None else ""
            self._players[key] = self.factory(side, computer_mod.player_seed(game_id, side), setting)
        return self._players[key]

    def shutdown(self) -> None:
        """Stop: no new thinking; wait for the thought in progress (its answer is dropped)."""
        self._timer.stop()
        self.paused = True
        t, self._thread = self._thread, None
        if t is not None:
            t.answered.disconnect()
            t.wait()

    # ------------------------------------------------------------------ the loop
    def _loaded(self) -> None:
        self._players.clear()
        self.plans.clear()
        self.plan = ""
        self._held = None
        self._changed()

    def _changed(self) -> None:
        if not self.busy and not self._timer.isActive() and self.ctl.computer_side() is not None:
            self._timer.start(0)

    def _token(self) -> tuple:
        return (id(self.ctl.game), len(self.ctl.log()), self.ctl.hash())

    def step(self) -> None:
        """Start thinking if the pending decision is the computer's (and the computer is not paused or busy)."""
        if self.paused or self.busy:
            return
        side = self.ctl.computer_side()
        if side is None:
            self.thinking.emit("")
            return
        try:
            player = self.player(side)
        except ImportError as exc:     # this build has no computer opponent: say so, and let the person play on
            self.set_paused(True)
            self.unavailable.emit(f"The computer opponent is not installed ({exc}); take the {side} side back "
                                  "(Game ▸ Computer)")
            return
        eng = self.ctl.engine.fork(computer_mod.SampledDice(random.Random(f"dfd-computer-dice:{self._token()}")))
        t = _Thinker(player, eng, side, self._token(), self)
        t.answered.connect(self._answered)
        self._thread = t
        self.thinking.emit(side)
        t.start()

    def _answered(self, token: tuple, action: Action | None, plan: str, error: BaseException | None) -> None:
        t = self._thread
        if t is not None and t.token == token:
            t.wait()
            self._thread = None
        if error is not None:
            self.set_paused(True)
            self.thinking.emit("")
            raise error
        if self.paused:
            self._held = (token, action, plan, None)
            return
        if token != self._token() or self.ctl.computer_side() is None:
            self._timer.start(0)                  # the game changed meanwhile: think again (if it is still its turn)
            return
        side = self.ctl.computer_side()
        plan = humanize(plan)           # counter and box names, never ids (app.names)
        st = self.ctl.state()
        before = {u: st.units[u].loc for u in _units_of(action) if u in st.units}
        n = len(self.ctl.log())
        new_plan = bool(plan) and plan != self.plan
        if new_plan:        # a new plan sentence: the log shows it under the action it begins with
            self.plans[n + 1] = f"Computer's plan ({side}): {plan}"
        if not self.ctl.act(action):
            # the engine refused the computer's answer (its reason is on the prompt line): stop, never loop on it
            self.plans.pop(n + 1, None)
            self.set_paused(True)
            self.thinking.emit("")
            return
        self.moves += 1
        if new_plan:
            self.plan = plan
            self.planned.emit(side, plan)
        self.played.emit(action, before)
        self._timer.start(SPEEDS[self.speed])


def _units_of(a: Action) -> list[str]:
    units = list(a.args.get("units") or a.args.get("attackers") or [])
    if isinstance(a.args.get("unit"), str):
        units.append(a.args["unit"])
    return [str(u) for u in units]
