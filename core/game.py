"""A game on disk: an :class:`~core.engine.Engine` bound to a :class:`~core.store.Store`.

``Game.act`` applies an action and commits it (with its dice and the resulting
state hash) before returning, so every confirmed action survives a crash.
``Game.open`` = latest snapshot + replay of the log after it; ``verify``
replays the whole log from the initial state and checks every stored hash.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import msgspec

from core.decisions import Action
from core.dice import Dice, ScriptedDice, SeededDice
from core.engine import Engine, LogEntry
from core.newgame import initial_state
from core.scenario import Scenario, load
from core.state import GameState
from core.store import SNAPSHOT_EVERY, ActionRow, SnapshotRow, Store, StoreError


class _RecordedDice:
    """Replays the dice recorded in the log, checking them against the seed where the game used seeded dice."""

    def __init__(self) -> None:
        self.queue: list[int] = []

    def d6(self, seed: int, index: int) -> int:
        if not self.queue:
            raise StoreError("the log records fewer dice than the replay needs (the log does not match the rules)")
        return self.queue.pop(0)


@dataclass
class VerifyReport:
    ok: bool
    actions: int
    first_bad: int | None
    message: str


class Game:
    def __init__(self, store: Store, engine: Engine):
        self.store = store
        self.engine = engine
        self._since_snapshot = 0

    # -- construction ---------------------------------------------------------
    @classmethod
    def new(cls, path: Path | str, scenario: str | Scenario, seed: int = 1, *, dice: Dice | None = None,
            overwrite: bool = False) -> "Game":
        sc = load(scenario) if isinstance(scenario, str) else scenario
        st = initial_state(sc, seed)
        eng = Engine(st, dice)
        kind = "scripted" if isinstance(dice, ScriptedDice) else "seeded"
        # the initial state stored is the settled one, so replay starts exactly here
        store = Store.create(Path(path), scenario=sc.id, seed=seed, initial_state=eng.state.encode(),
                             initial_hash=eng.hash(), dice=kind, overwrite=overwrite)
        return cls(store, eng)

    @classmethod
    def open(cls, path: Path | str) -> "Game":
        store = Store.open(Path(path))
        snap = store.snapshot()
        try:
            state = GameState.decode(snap.state)
        except msgspec.DecodeError as exc:
            raise StoreError(f"{path}: snapshot {snap.seq} is not a valid game state ({exc})") from exc
        recorded = _RecordedDice()
        eng = Engine(state, recorded)
        eng.log = [_entry(r) for r in store.actions(0) if r.seq <= snap.seq]
        for row in store.actions(snap.seq):
            recorded.queue = json.loads(row.rolls)
            entry = eng.apply(Action.from_json(row.action))
            if entry.hash != row.hash:
                raise StoreError(f"{path}: replaying action #{row.seq} gives a different state than the one saved")
        eng.dice = SeededDice() if store.meta.get("dice", "seeded") == "seeded" else recorded
        return cls(store, eng)

    def close(self) -> None:
        self.store.close()

    # -- play -----------------------------------------------------------------
    def act(self, action: Action) -> LogEntry:
        """Apply and commit one action; refused actions raise IllegalAction and change nothing."""
        entry = self.engine.apply(action)
        row = ActionRow(
            seq=entry.seq, kind=action.kind, side=action.side, action=action.to_json().decode(),
            rolls=json.dumps(entry.rolls), events=json.dumps(entry.events), hash=entry.hash,
            gt=entry.gt, phase=entry.phase, created=time.time(),
        )
        self._since_snapshot += 1
        snap = None
        if self._since_snapshot >= SNAPSHOT_EVERY and not self.engine._undo:  # snapshots only where undo cannot reach back
            snap = SnapshotRow(seq=entry.seq, state=self.engine.state.encode(), hash=entry.hash)
            self._since_snapshot = 0
        try:
            self.store.append(row, snap)
        except Exception:
            # the action could not be committed: take it back in memory too
            self.engine.log.pop()
            raise
        return entry

    @property
    def state(self) -> GameState:
        return self.engine.state


def _entry(row: ActionRow) -> LogEntry:
    return LogEntry(seq=row.seq, action=Action.from_json(row.action), rolls=json.loads(row.rolls), hash=row.hash,
                    events=json.loads(row.events), gt=row.gt, phase=row.phase)


def verify(path: Path | str) -> VerifyReport:
    """Replay the whole log from the initial state; every stored hash must be reproduced."""
    store = Store.open(Path(path))
    try:
        start = GameState.decode(store.initial_state())
        seeded = store.meta.get("dice", "seeded") == "seeded"
        seed_dice = SeededDice()
        recorded = _RecordedDice()
        eng = Engine(start, recorded)
        n = 0
        for row in store.actions(0):
            rolls = json.loads(row.rolls)
            if seeded:
                base = eng.state.dice_drawn
                expect = [seed_dice.d6(eng.state.seed, base + i) for i in range(len(rolls))]
                if expect != rolls:
                    return VerifyReport(False, n, row.seq, f"action #{row.seq}: recorded dice {rolls} are not the seed's {expect}")
            recorded.queue = list(rolls)
            try:
                entry = eng.apply(Action.from_json(row.action))
            except Exception as exc:  # noqa: BLE001 - report any failure with its action
                return VerifyReport(False, n, row.seq, f"action #{row.seq} ({row.kind}) is refused on replay: {exc}")
            if recorded.queue:
                return VerifyReport(False, n, row.seq, f"action #{row.seq}: the log records more dice than the replay used")
            if entry.hash != row.hash:
                return VerifyReport(False, n, row.seq, f"action #{row.seq}: state hash differs from the stored one")
            n += 1
        return VerifyReport(True, n, None, f"OK: {n} actions replayed, every state hash reproduced")
    finally:
        store.close()
