"""A game on disk: an :class:`~core.engine.Engine` bound to a :class:`~core.store.Store`.

``Game.act`` applies an action and commits it (with its dice, the resulting state hash and the resulting
state as the file's *head*) before returning, so every confirmed action survives a crash; a commit that
fails takes the action back in memory too, so the game is never ahead of its file.

**Epochs** (docs/architecture.md).  The log is cut into epochs, each played with one program and one set of
data (:mod:`core.provenance`).  ``Game.open`` loads the latest snapshot of the current epoch and replays the
log after it.  When this program or its data differ from the current epoch's, or the replay does not
reproduce a stored hash, the game continues from the state at the end of its log *as it was played* (the
head) under this program, as a new epoch: its start state is stored, the actions after it are verified from
it, and ``Game.note`` tells the players in one sentence what changed and that nothing was lost.  Actions
logged before the change are never re-applied under the new rules (so none can become illegal or change
its result); :func:`verify` checks each earlier epoch by its own hashes as far as this program reproduces it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import msgspec

from core import provenance
from core.decisions import Action, Decision, GameOver, IllegalAction
from core.dice import Dice, ScriptedDice, SeededDice
from core.engine import Engine, LogEntry
from core.newgame import initial_state
from core.provenance import Provenance
from core.scenario import Scenario, load
from core.state import GameState
from core.store import SNAPSHOT_CLOSE_COST, SNAPSHOT_COST, SNAPSHOT_EVERY, ActionRow, EpochRow, HeadRow, SnapshotRow, Store, StoreError


class _RecordedDice:
    """Replays the dice recorded in the log (a LAN client's dice, a replay's dice)."""

    def __init__(self) -> None:
        self.queue: list[int] = []

    def d6(self, seed: int, index: int) -> int:
        if not self.queue:
            raise StoreError("the log records fewer dice than the replay needs (the log does not match the rules)")
        return self.queue.pop(0)


def public_state(state: GameState) -> bytes:
    """The state's canonical JSON with the seed blanked (0): the only state a LAN client receives (issue 14)."""
    seed = state.seed
    state.seed = 0
    try:
        return state.encode()
    finally:
        state.seed = seed


def public_hash(state: GameState) -> str:
    """The state hash without the seed: what LAN clients, who never see the seed, verify (issue 14).  It equals
    ``GameState.hash()`` of the state a client holds (:func:`public_state`)."""
    return hashlib.sha256(public_state(state)).hexdigest()


@dataclass
class _Checkpoint:
    """Everything ``Engine.apply`` changes, to take an action back when its commit fails.  The state's bytes are
    the ones ``Engine.apply`` encoded before the action (``Engine.last_bytes``), not encoded a second time."""

    pending: Decision | None
    undo: list
    log: int
    generation: int
    state: bytes = b""

    @classmethod
    def take(cls, eng: Engine) -> "_Checkpoint":
        return cls(eng.pending(), list(eng._undo), len(eng.log), eng._generation)

    def restore(self, eng: Engine) -> None:
        eng.state = GameState.decode(self.state)
        eng._pending = self.pending
        eng._undo = self.undo
        eng._generation = self.generation     # the pending decision's sampled options are those of this state
        del eng.log[self.log:]


def _provenance(e: EpochRow) -> Provenance:
    return Provenance(version=e.version, code=e.code, files=json.loads(e.files or "{}"), data=e.data)


def _decode(path: Path, data: bytes, what: str) -> GameState:
    try:
        return GameState.decode(data)
    except msgspec.DecodeError as exc:
        raise StoreError(f"{path}: {what} is not a valid game state ({exc})") from exc


@dataclass
class _Replay:
    """The outcome of replaying logged actions: how many reproduced, and where and why it stopped."""

    reproduced: int = 0
    bad: int | None = None
    why: str = ""
    last_good: bytes = b""     # the state after the last reproduced action


def _replay(eng: Engine, recorded: _RecordedDice, rows: list[ActionRow], *, check_seed: bool) -> _Replay:
    """Apply ``rows`` with their recorded dice while every stored hash is reproduced.

    A refusal (the action is no longer legal), other dice or another state hash ends the replay and is
    reported; any other exception is a program error and propagates (it is not a change of rules).
    """
    out = _Replay(last_good=eng.state.encode())
    last = out.last_good
    seed_dice = SeededDice()
    for row in rows:
        rolls = json.loads(row.rolls)
        if check_seed:
            base = eng.state.dice_drawn
            expect = [seed_dice.d6(eng.state.seed, base + i) for i in range(len(rolls))]
            if expect != rolls:
                out.bad, out.why = row.seq, f"its recorded dice {rolls} are not the seed's {expect}"
                out.last_good = last
                return out
        recorded.queue = list(rolls)
        try:
            entry = eng.apply(Action.from_json(row.action), before=eng.clean_bytes())
        except (IllegalAction, GameOver) as exc:
            out.bad, out.why = row.seq, f"it is refused: {exc}"
            out.last_good = last
            return out
        except StoreError:
            out.bad, out.why = row.seq, "it needs more dice than the log records"
            out.last_good = last
            return out
        if recorded.queue:
            out.bad, out.why = row.seq, "it uses fewer dice than the log records"
            out.last_good = last
            return out
        if entry.hash != row.hash:
            out.bad, out.why = row.seq, "it gives a different state than the one saved"
            out.last_good = last
            return out
        out.reproduced += 1
        last = eng.last_bytes[1] if eng.last_bytes else eng.state.encode()
    out.last_good = last
    return out


@dataclass(frozen=True)
class _Cadence:
    """When to store a snapshot (issue 18), counted from the file, so that a game reopened often still gets them.

    A snapshot is stored with an action once the actions since the latest snapshot number ``SNAPSHOT_EVERY``
    or cost ``SNAPSHOT_COST`` seconds of engine time to apply (what the next open would replay), at a state undo
    cannot reach back from (an open rebuilds no undo point before its snapshot; R-UNDO); closing the game stores
    one of the last such state.  ``clean``: the latest such state seen, ``(seq, bytes, hash)``."""

    last_snapshot: int
    since: int = 0
    cost: float = 0.0
    clean: tuple[int, bytes, str] | None = None

    @classmethod
    def of(cls, store: Store, eng: Engine, epoch: EpochRow | None) -> "_Cadence":
        seqs = store.snapshot_seqs()
        last = max(seqs[-1] if seqs else 0, epoch.first_seq - 1 if epoch is not None else 0)   # an epoch's start too
        n = len(eng.log)
        clean = (n, eng.state.encode(), eng.hash()) if n > last and not eng._undo else None
        return cls(last_snapshot=last, since=max(0, n - last), clean=clean)

    def after(self, seq: int, cost: float, state: bytes, h: str, *, clean: bool) -> "_Cadence":
        return _Cadence(self.last_snapshot, self.since + 1, self.cost + cost, (seq, state, h) if clean else self.clean)

    def due(self) -> bool:
        return (self.clean is not None and self.clean[0] == self.last_snapshot + self.since > self.last_snapshot
                and (self.since >= SNAPSHOT_EVERY or self.cost >= SNAPSHOT_COST))

    def unsaved_clean(self) -> bool:
        return self.clean is not None and self.clean[0] > self.last_snapshot

    def clean_snapshot(self) -> SnapshotRow:
        assert self.clean is not None
        return SnapshotRow(seq=self.clean[0], state=self.clean[1], hash=self.clean[2])

    def snapshot_taken(self, seq: int) -> "_Cadence":
        return _Cadence(seq, self.last_snapshot + self.since - seq, 0.0, self.clean)


class Game:
    def __init__(self, store: Store, engine: Engine, epochs: list[EpochRow] | None = None, note: str = ""):
        self.store = store
        self.engine = engine
        self.epochs: list[EpochRow] = epochs if epochs is not None else store.epochs()
        #: one sentence for the players when this open began a new epoch (or, read-only, would begin one)
        self.note = note
        self._cadence = _Cadence.of(store, engine, self.epochs[-1] if self.epochs else None)
        #: the stored state this game was loaded from (the latest snapshot of its epoch, or the epoch's start) and
        #: how many actions precede it; a LAN host sends it (without the seed) to a client that must catch up
        self.base: tuple[int, bytes] = (-1, b"")

    # -- construction ---------------------------------------------------------
    @classmethod
    def new(cls, path: Path | str, scenario: str | Scenario, seed: int = 1, *, dice: Dice | None = None,
            overwrite: bool = False, optional: Iterable[str] = ()) -> "Game":
        """A new game file; ``optional``: the optional rules chosen (``core.scenario.OPTIONAL_RULES``, 16.0)."""
        sc = load(scenario) if isinstance(scenario, str) else scenario
        st = initial_state(sc, seed, optional)
        eng = Engine(st, dice)
        kind = "scripted" if isinstance(dice, ScriptedDice) else "seeded"
        prov = provenance.current()
        # the initial state stored is the settled one, so replay starts exactly here
        start = eng.state.encode()
        epoch = EpochRow(n=1, first_seq=1, start=start, start_hash=eng.hash(), version=prov.version, code=prov.code,
                         data=prov.data, files=json.dumps(prov.files, sort_keys=True), created=time.time())
        store = Store.create(Path(path), scenario=sc.id, seed=seed, initial_state=start, initial_hash=eng.hash(),
                             dice=kind, overwrite=overwrite, epoch=epoch)
        game = cls(store, eng, [epoch])
        game.base = (0, start)
        return game

    @classmethod
    def open(cls, path: Path | str, *, read_only: bool = False) -> "Game":
        """Open a game to play it (``read_only``: to show or watch it; nothing is written)."""
        store = Store.open(Path(path), read_only=read_only)
        try:
            return cls._load(store)
        except BaseException:  # a game that cannot be loaded releases its file lock and re-raises unchanged
            store.close()
            raise

    @classmethod
    def _load(cls, store: Store) -> "Game":
        path = store.path
        epochs = store.epochs()
        cur = epochs[-1]
        seeded = store.meta.get("dice", "seeded") == "seeded"
        rows = list(store.actions(0))
        # the latest snapshot taken in this epoch, else the epoch's start state
        snap = store.latest_snapshot(at_least=cur.first_seq)
        if snap is not None:
            base, base_state, base_hash = snap.seq, snap.state, snap.hash
        else:
            base, base_state, base_hash = cur.first_seq - 1, cur.start, cur.start_hash
        recorded = _RecordedDice()
        eng = Engine(_decode(path, base_state, f"the state at action #{base}"), recorded)
        eng.log = [_entry(r) for r in rows if r.seq <= base]
        replay_cost = 0.0
        if eng.hash() != base_hash:
            rep = _Replay(bad=base + 1, why="the state it starts from settles differently", last_good=base_state)
        else:
            t0 = time.process_time()
            rep = _replay(eng, recorded, [r for r in rows if r.seq > base], check_seed=False)
            replay_cost = time.process_time() - t0
        changed = not provenance.current().same_as(_provenance(cur))
        if rep.bad is None and not changed:
            eng.dice = SeededDice() if seeded else recorded
            head = store.head()
            if not store.read_only and (head is None or head.seq != len(rows) or head.hash != eng.hash()
                                        or _sha(head.state) != head.hash):
                # the replay proves the state at the end of the log: keep the head the next epoch would need
                state = eng.state.encode()
                store.put_head(HeadRow(seq=len(eng.log), state=state, hash=_sha(state)))
            game = cls(store, eng, epochs)
            game.base = (base, base_state)
            game._cadence = dataclasses.replace(game._cadence, cost=replay_cost)   # what this open replayed
            return game
        return cls._new_epoch(store, epochs, rows, rep, reproduced_state=eng.state.encode(), seeded=seeded)

    @classmethod
    def _new_epoch(cls, store: Store, epochs: list[EpochRow], rows: list[ActionRow], rep: _Replay, *,
                   reproduced_state: bytes, seeded: bool) -> "Game":
        """Continue the game under this program as epoch n+1 from the state at the end of its log."""
        path = store.path
        cur = epochs[-1]
        prov = provenance.current()
        last = rows[-1].seq if rows else 0
        hashes = {r.seq: r.hash for r in rows}

        def hash_after(seq: int) -> str:
            return hashes[seq] if seq >= cur.first_seq else cur.start_hash

        head = store.head()
        lost = ""
        if (head is not None and head.seq == last and head.hash == hash_after(last)
                and _sha(head.state) == head.hash):
            cont, from_seq = head.state, last
        elif rep.bad is None:
            cont, from_seq = reproduced_state, last          # every action reproduced: the same state
        else:
            # no usable head (a schema-1 file, or a damaged one) and a log this program no longer reproduces
            cont, from_seq = rep.last_good, rep.bad - 1
            lost = (f"; this file does not hold its last state (it was saved before the program kept it), so actions "
                    f"#{rep.bad}-#{last} stay in the file but are not on the board")
        what = prov.change_from(_provenance(cur))
        if rep.bad is not None and not what:
            what = (f"the program's rules (action #{rep.bad} no longer replays as it was played: {rep.why}; "
                    f"the program changed without a new version number)")
        elif not what:
            what = "the program"
        try:
            eng = Engine(_decode(path, cont, f"the state at action #{from_seq}"), _RecordedDice())
        except StoreError:
            raise
        except Exception as exc:  # noqa: BLE001 - refused with its reason, never turned into another game
            raise StoreError(f"{path}: this program cannot continue the game from action #{from_seq} "
                             f"({type(exc).__name__}: {exc})") from exc
        eng.log = [_entry(r) for r in rows]
        eng.dice = SeededDice() if seeded else eng.dice
        n = cur.n + 1
        st = eng.state
        where = f"GT {st.gt}, action #{from_seq}"
        if store.read_only:
            note = (f"{_cap(what)} changed since {path.name} was last played: opening it to play continues it from "
                    f"where it was left ({where}) under the new rules as epoch {n}; nothing is lost{lost}.")
            game = cls(store, eng, epochs, note)
            game.base = (last, st.encode())
            return game
        note = (f"{_cap(what)} changed since {path.name} was last played: it continues from where it was left "
                f"({where}) under the new rules as epoch {n}; nothing was lost, and the earlier actions stay in the "
                f"log as they were played{lost}.")
        start = st.encode()
        epoch = EpochRow(n=n, first_seq=last + 1, from_seq=from_seq, from_hash=hash_after(from_seq),
                         diverged=rep.bad or 0, start=start,
                         start_hash=eng.hash(), version=prov.version, code=prov.code, data=prov.data,
                         files=json.dumps(prov.files, sort_keys=True), note=note, created=time.time())
        store.add_epoch(epoch, HeadRow(seq=last, state=start, hash=epoch.start_hash))
        game = cls(store, eng, [*epochs, epoch], note)
        game.base = (last, start)
        return game

    def close(self) -> None:
        """Close the file; when the actions since the latest snapshot cost more than ``SNAPSHOT_CLOSE_COST`` seconds
        to replay, a snapshot of the last state undo cannot reach back from is stored first, so that the next open
        replays as little as possible (issue 18)."""
        try:
            if not self.store.read_only and self._cadence.unsaved_clean() and self._cadence.cost >= SNAPSHOT_CLOSE_COST:
                self.store.add_snapshot(self._cadence.clean_snapshot())
        finally:
            self.store.close()

    @property
    def read_only(self) -> bool:
        return self.store.read_only

    def refresh(self) -> bool:
        """Watching read-only: take in what the file's writer committed since; True when the game moved on."""
        if self.store.count() == len(self.engine.log) and len(self.store.epochs()) == len(self.epochs):
            return False
        fresh = Game._load(self.store)
        self.engine, self.epochs, self.note, self.base = fresh.engine, fresh.epochs, fresh.note, fresh.base
        return True

    # -- play -----------------------------------------------------------------
    def act(self, action: Action) -> LogEntry:
        """Apply and commit one action.  A refused action, or one whose commit fails, changes nothing."""
        if self.store.read_only:
            raise StoreError(f"{self.store.path}: opened read-only to watch; actions are taken where it is played")
        eng = self.engine
        before = _Checkpoint.take(eng)
        t0 = time.process_time()
        entry = eng.apply(action, before=eng.clean_bytes())   # the state as the last act left it: not encoded again
        cost = time.process_time() - t0
        before.state, state = eng.last_bytes            # encoded once, by Engine.apply
        row = ActionRow(
            seq=entry.seq, kind=action.kind, side=action.side, action=action.to_json().decode(),
            rolls=json.dumps(entry.rolls), events=json.dumps(entry.events), hash=entry.hash,
            gt=entry.gt, phase=entry.phase, created=time.time(),
        )
        cadence = self._cadence
        self._cadence = cadence.after(entry.seq, cost, state, entry.hash, clean=not eng._undo)
        snap = None
        if self._cadence.due():                         # a snapshot of this very state
            snap = self._cadence.clean_snapshot()
            self._cadence = self._cadence.snapshot_taken(snap.seq)
        try:
            self.store.append(row, snap, HeadRow(seq=entry.seq, state=state, hash=entry.hash))
        except BaseException:  # re-raised: the engine goes back to what the file holds, so the save stays consistent
            # the action could not be committed: the game goes back to exactly where the file is
            before.restore(eng)
            self._cadence = cadence
            raise
        if snap is not None:
            self.base = (entry.seq, state)
        return entry

    def public_hashes(self) -> dict[int, str]:
        """``{seq: public hash}`` from :attr:`base` to now, replayed with the recorded dice (for a LAN host)."""
        seq, state = self.base
        recorded = _RecordedDice()
        eng = Engine(GameState.decode(state), recorded)
        eng.log = list(self.engine.log[:seq])
        out = {seq: public_hash(eng.state)}
        for e in self.engine.log[seq:]:
            recorded.queue = list(e.rolls)
            eng.apply(e.action)
            out[e.seq] = public_hash(eng.state)
        if out[len(self.engine.log)] != public_hash(self.engine.state):
            raise StoreError(f"{self.store.path}: the log does not reproduce the game's state from action #{seq}")
        return out

    @property
    def state(self) -> GameState:
        return self.engine.state

    @property
    def epoch(self) -> EpochRow:
        return self.epochs[-1]

    def epoch_starts(self) -> dict[int, bytes]:
        """``{number of actions before it: start state}`` of every epoch after the first (replay checkpoints)."""
        return {e.first_seq - 1: e.start for e in self.epochs[1:]}


def why_unopenable(path: Path | str, exc: BaseException) -> str:
    """One sentence naming the file and why it cannot be opened (for ``dfd show`` and the app; no traceback)."""
    if isinstance(exc, StoreError):
        text = str(exc)
        return text if text.startswith(str(path)) else f"{path}: {text}"
    if isinstance(exc, OSError):
        return f"{path}: cannot be read ({exc.strerror or exc})"
    return f"{path}: this program cannot open it ({type(exc).__name__}: {exc})"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _entry(row: ActionRow) -> LogEntry:
    return LogEntry(seq=row.seq, action=Action.from_json(row.action), rolls=json.loads(row.rolls), hash=row.hash,
                    events=json.loads(row.events), gt=row.gt, phase=row.phase)


# -- verification ---------------------------------------------------------------

@dataclass
class EpochReport:
    n: int
    first: int            # its first action
    last: int             # its last action (first - 1 when it has none)
    reproduced: int       # how many of its actions this program reproduces, from its start
    ok: bool
    text: str


@dataclass
class VerifyReport:
    ok: bool
    actions: int                       # actions reproduced by this program, all epochs together
    first_bad: int | None              # the first action that makes the file fail verification
    message: str
    epochs: list[EpochReport] = field(default_factory=list)


def verify(path: Path | str) -> VerifyReport:
    """Replay the log epoch by epoch (read-only).

    Each epoch is replayed from its own stored start state.  An epoch played with this program and data must
    reproduce every stored hash.  An epoch played with another program is verified by its own hashes as far
    as this program reproduces them; where it stops reproducing, the rest of that epoch stands on the hashes
    recorded by the program that played it, and the next epoch must continue exactly the state it left
    (``from_hash``).  The dice of a seeded game must be the seed's, in every epoch.
    """
    store = Store.open(Path(path), read_only=True)
    try:
        return _verify(store)
    finally:
        store.close()


def _verify(store: Store) -> VerifyReport:
    epochs = store.epochs()
    rows = list(store.actions(0))
    seeded = store.meta.get("dice", "seeded") == "seeded"
    now = provenance.current()
    reports: list[EpochReport] = []
    total, first_bad = 0, None
    hashes = {r.seq: r.hash for r in rows}
    for i, e in enumerate(epochs):
        nxt = epochs[i + 1].first_seq if i + 1 < len(epochs) else (rows[-1].seq + 1 if rows else 1)
        nxt = max(nxt, e.first_seq)
        mine = [r for r in rows if e.first_seq <= r.seq < nxt]
        last = nxt - 1
        label = f"epoch {e.n} (actions #{e.first_seq}-#{last}" if mine else f"epoch {e.n} (no actions yet"
        label += f", {_played_with(e)})"
        problem = ""
        if i > 0:
            prev = epochs[i - 1]
            want = hashes.get(e.from_seq) if e.from_seq >= prev.first_seq else prev.start_hash
            if e.from_seq > e.first_seq - 1 or e.from_hash != want:
                problem = f"it does not continue the state after action #{e.from_seq} (the file is damaged)"
        if not problem and _sha(e.start) != e.start_hash:
            problem = "its stored start state does not match its hash (the file is damaged)"
        recorded = _RecordedDice()
        eng = Engine(_decode(store.path, e.start, f"the start of epoch {e.n}"), recorded)
        same = now.same_as(_provenance(e))
        if problem:
            rep = _Replay(bad=e.first_seq)
        elif eng.hash() != e.start_hash:
            rep = _Replay(bad=e.first_seq, why="its start state settles differently under this program")
        else:
            rep = _replay(eng, recorded, mine, check_seed=seeded)
        total += rep.reproduced
        if problem:
            ok, text = False, f"{label}: FAIL, {problem}"
        elif rep.bad is None:
            ok, text = True, f"{label}: OK, all {len(mine)} actions reproduced"
        elif "seed's" in rep.why or (same and not _superseded_at(epochs, i, rep.bad)):
            ok, text = False, f"{label}: FAIL at action #{rep.bad}: {rep.why}"
        else:
            ok = True
            text = (f"{label}: OK, this program reproduces {rep.reproduced} of its {len(mine)} actions from its "
                    f"start; from action #{rep.bad} on ({rep.why}) it stands on the hashes recorded when it was "
                    f"played")
        if not ok and first_bad is None:
            first_bad = rep.bad
        reports.append(EpochReport(e.n, e.first_seq, last, rep.reproduced, ok, text))
    head = store.head()
    if head is not None and rows and epochs[-1].first_seq <= rows[-1].seq and head.hash != rows[-1].hash:
        reports.append(EpochReport(0, 0, 0, 0, False, "the stored last state does not match the last action"))
        first_bad = first_bad or rows[-1].seq
    ok = all(r.ok for r in reports)
    n = len(rows)
    head_line = (f"OK: {n} actions in {len(epochs)} epoch{'s' if len(epochs) > 1 else ''}, every epoch verified"
                 if ok else f"FAIL: {n} actions in {len(epochs)} epoch{'s' if len(epochs) > 1 else ''}")
    if ok and len(epochs) == 1 and reports[0].reproduced == n:
        head_line = f"OK: {n} actions replayed, every state hash reproduced"
    message = "\n".join([head_line, *("  " + r.text for r in reports)])
    return VerifyReport(ok, total, first_bad, message, reports)


def _superseded_at(epochs: list[EpochRow], i: int, bad: int) -> bool:
    """Whether epoch ``i``, played with this very program, was closed because its replay stopped at ``bad`` or
    before (a rules change without a new version number, e.g. a development build) rather than being damaged."""
    return i + 1 < len(epochs) and 0 < epochs[i + 1].diverged <= bad


def _played_with(e: EpochRow) -> str:
    if not e.version:
        return "played before the program recorded its version"
    now = provenance.current()
    if now.same_as(_provenance(e)):
        return f"played with this program ({e.version})"
    return f"played with {e.version}; since then {now.change_from(_provenance(e)) or 'the program'} changed"
