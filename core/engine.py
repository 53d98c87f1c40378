"""The engine: a deterministic state machine that asks for decisions.

* :meth:`Engine.pending` — the decision the game waits for (who, what, legal options, rule).
* :meth:`Engine.legal_actions` — the enumerable legal actions (one generator for GUI, host, bots).
* :meth:`Engine.apply` — validate and apply one action; an illegal action raises
  :class:`~core.decisions.IllegalAction` citing the rule and leaves the state untouched.

Long procedures (the 20-phase turn of 4.1, a combat, a retreat) are
:class:`Procedure` objects on a stack kept in the state (``state.stack``), so a
procedure can call another (an overrun's reaction, a defender's loss choice) and
resume when it returns.  Rule modules register procedures with
:func:`procedure` and plug them into the sequence of play with
:func:`on_step` (a step's interactive procedure) and :func:`auto_step`
(bookkeeping done by the engine itself).

Dice come only from :meth:`Engine.roll`, whose results are a pure function of
the seed and ``state.dice_drawn``; each action's rolls are recorded in the log.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from core import sequence
from core.decisions import (
    ALLIED, AXIS, Action, Decision, GameOver, IllegalAction, Option, arg_schema, check_args, other,
)
from core.dice import Dice, SeededDice
from core.state import Frame, GameState, write_stamp

CONTINUE = object()  # returned by Procedure.decide when it changed the state/stack and wants re-evaluation

UNDO_RULE = "house rule: undo (docs/rulings.md R-UNDO)"


class Procedure:
    """A rules procedure living on the procedure stack.

    ``decide`` returns the pending Decision, ``None`` when the procedure is finished
    (it is popped and its parent's ``resume`` is called), or ``CONTINUE`` after it
    pushed a child or advanced its own state.
    """

    name: str = ""

    def enter(self, eng: "Engine", frame: Frame) -> None:  # noqa: D401 - hook
        """Called once, when the frame is pushed."""

    def decide(self, eng: "Engine", frame: Frame) -> Decision | None | object:
        raise NotImplementedError

    def apply(self, eng: "Engine", frame: Frame, action: Action) -> None:
        raise IllegalAction(f"{action.kind} is not handled here", frame.proc)

    def resume(self, eng: "Engine", frame: Frame, child: Frame) -> None:
        """Called when a child procedure pushed by this one has finished."""


class OneByOne(Procedure):
    """A step in which a side takes its items one at a time (air units to deploy, 19.1; ocean cargo to ship, 20.2):
    the non-initiative player in the step ``first``, the initiative player in the other.  Each item stays where it is
    (action ``stay``) or moves (action ``move_kind``, applied by :meth:`move`); Done ends the step."""

    first = ""
    stay = ""
    move_kind = ""

    def side(self, eng: "Engine", frame: Frame) -> str:
        return other(eng.state.initiative) if frame.data["step"] == self.first else eng.state.initiative

    def eligible(self, eng: "Engine", side: str) -> list[str]:
        """The items ``side`` may still act on."""
        raise NotImplementedError

    def refusal(self, uid: str, side: str) -> IllegalAction:
        """Why ``uid`` is not one of the eligible items."""
        raise NotImplementedError

    def move(self, eng: "Engine", frame: Frame, side: str, uid: str, action: Action) -> None:
        raise NotImplementedError

    def apply(self, eng: "Engine", frame: Frame, action: Action) -> None:
        side = self.side(eng, frame)
        if action.kind == "done":
            frame.data["done"] = True
            return
        uid = str(action.args.get("unit", ""))
        if uid not in self.eligible(eng, side):
            raise self.refusal(uid, side)
        if action.kind == self.stay:
            frame.data["seen"].append(uid)
            return
        if action.kind == self.move_kind:
            self.move(eng, frame, side, uid, action)
            return
        super().apply(eng, frame, action)


PROCEDURES: dict[str, Procedure] = {}
STEP_PROCEDURES: dict[str, str] = {}
AUTO_STEPS: dict[str, list[Callable[["Engine"], None]]] = {}
PHASE_END: list[Callable[["Engine", int], None]] = []
GAME_START: list[Callable[["Engine"], None]] = []
#: rules that hold after every action whatever procedure moved the units (e.g. 17.1: RP alone in a hex entered by
#: the enemy are destroyed); each returns True when it changed the state
AFTER_ACTION: list[Callable[["Engine"], bool]] = []
QUERIES: dict[str, Callable[..., Any]] = {}


def procedure(name: str) -> Callable[[type[Procedure]], type[Procedure]]:
    """Class decorator: register a procedure under ``name``."""

    def wrap(cls: type[Procedure]) -> type[Procedure]:
        inst = cls()
        inst.name = name
        PROCEDURES[name] = inst
        return cls

    return wrap


def on_step(step_key: str, proc_name: str) -> None:
    """Make ``proc_name`` the procedure run at step ``step_key`` (e.g. ``VI.3``)."""
    if step_key not in sequence.STEPS:
        raise KeyError(f"no step {step_key} in the sequence of play (4.1)")
    STEP_PROCEDURES[step_key] = proc_name


PRE_STEP: dict[str, list[str]] = {}


def before_step(step_key: str, proc_name: str) -> None:
    """Run procedure ``proc_name`` before step ``step_key``'s own procedure (e.g. a card's obligation in a
    Movement Phase); the procedure finishes at once (decide -> None) when it has nothing to ask."""
    if step_key not in sequence.STEPS:
        raise KeyError(f"no step {step_key} in the sequence of play (4.1)")
    PRE_STEP.setdefault(step_key, []).append(proc_name)


def auto_step(step_key: str) -> Callable[[Callable[["Engine"], None]], Callable[["Engine"], None]]:
    """Decorator: bookkeeping the engine performs at an ``auto`` step."""

    def wrap(fn: Callable[["Engine"], None]) -> Callable[["Engine"], None]:
        AUTO_STEPS.setdefault(step_key, []).append(fn)
        return fn

    return wrap


def at_game_start(fn: Callable[["Engine"], None]) -> Callable[["Engine"], None]:
    """Decorator: run once when a new game starts, before set-up decisions (3.0: active events)."""
    GAME_START.append(fn)
    return fn


def at_phase_end(fn: Callable[["Engine", int], None]) -> Callable[["Engine", int], None]:
    """Decorator: run at the end of every phase (e.g. 10.2 stacking limits)."""
    PHASE_END.append(fn)
    return fn


@dataclass
class LogEntry:
    """One applied action with everything its replay must reproduce."""

    seq: int
    action: Action
    rolls: list[int]
    hash: str
    events: list[str] = field(default_factory=list)
    gt: int = 0
    phase: int = 0


@dataclass
class _UndoPoint:
    seq: int
    side: str
    before: bytes


arg_schema("undo")   # undo takes no argument (R-UNDO): anything else is refused, never stored or broadcast


class Engine:
    """Owns one game's state and applies actions to it."""

    def __init__(self, state: GameState, dice: Dice | None = None):
        _ensure_rules_loaded()
        self.state = state
        self.dice: Dice = dice or SeededDice()
        self.log: list[LogEntry] = []
        self._rolls: list[int] = []
        self._events: list[str] = []
        self._undo: list[_UndoPoint] = []
        self._pending: Decision | None = None
        self._generation = 0     # bumped by every applied action: a decision's sampler runs only on its own state
        #: the state's canonical bytes before and after the last action applied (GameState.encode), for the
        #: store's head and snapshots and for a take-back, so that they are encoded once (issue 18)
        self.last_bytes: tuple[bytes, bytes] | None = None
        self._clean: tuple | None = None      # see clean_bytes
        self._settle()
        # rolls made while settling the initial state belong to no action
        self._rolls, self._events = [], []

    # ------------------------------------------------------------------ queries
    def pending(self) -> Decision | None:
        """The decision the game waits for, or None when the scenario has ended."""
        return self._pending

    def legal_actions(self) -> list[Action]:
        """Every enumerable legal action now (free-form kinds are validated on apply)."""
        d = self._pending
        return [o.action for o in d.options] if d else []

    def sampler(self, fn: Callable[[Frame], Iterable[Option]]) -> Callable[[], Iterable[Option]]:
        """Wrap ``fn(frame)`` as a :class:`Decision`'s ``sampled`` options: it runs, at most once, when the options
        are first read, on the decision's own state (the top frame then); never while an action is applied or
        replayed.  Reading them after the game has moved on is a bug and raises."""
        gen = self._generation

        def run() -> Iterable[Option]:
            if self._generation != gen:
                raise RuntimeError("the options of a decision were read after another action was applied; "
                                   "ask Engine.pending() again")
            return fn(self.state.stack[-1])

        return run

    def active_side(self) -> str | None:
        return self._pending.side if self._pending else None

    def hash(self) -> str:
        return self.state.hash()

    @property
    def step(self) -> sequence.Step:
        return sequence.phase(self.state.phase).steps[self.state.step - 1]

    def phasing_side(self) -> str | None:
        return sequence.phasing_side(self.state.phase, self.state.first_player)

    def can_undo(self, side: str) -> bool:
        return bool(self._undo) and self._undo[-1].side == side

    def query(self, name: str, **kwargs: Any) -> Any:
        """Run a registered read-only query (reachable hexes, supply overlay, odds...)."""
        if name not in QUERIES:
            raise KeyError(f"no query {name!r}; known: {', '.join(sorted(QUERIES))}")
        return QUERIES[name](self, **kwargs)

    # ------------------------------------------------------------------ dice & notes
    def roll(self, n: int = 1, why: str = "") -> list[int]:
        """Roll ``n`` d6 from the engine's RNG; recorded in the log of the current action."""
        out = []
        for _ in range(n):
            out.append(self.dice.d6(self.state.seed, self.state.dice_drawn))
            self.state.dice_drawn += 1
        self._rolls.extend(out)
        if why:
            self.say(f"{why}: rolled {'+'.join(map(str, out))}" + (f" = {sum(out)}" if n > 1 else ""))
        return out

    def say(self, text: str) -> None:
        """Add a line to the game log for the current action."""
        self._events.append(text)

    # ------------------------------------------------------------------ stack
    def push(self, proc: str, **data: Any) -> Frame:
        if proc not in PROCEDURES:
            raise KeyError(f"no procedure {proc!r}")
        frame = Frame(proc=proc, data=dict(data))
        self.state.stack.append(frame)
        PROCEDURES[proc].enter(self, frame)
        return frame

    def _settle(self) -> None:
        """Run automatic procedures until a decision is needed or the game ends."""
        stack = self.state.stack
        guard = 0
        while True:
            guard += 1
            if guard > 100_000:
                raise RuntimeError("the engine made no progress (procedure loop)")
            if not stack:
                self._pending = None
                return
            top = stack[-1]
            proc = PROCEDURES[top.proc]
            depth = len(stack)
            d = proc.decide(self, top)
            if d is CONTINUE or len(stack) != depth or stack[-1] is not top:
                continue
            if d is None:
                stack.pop()
                if stack:
                    PROCEDURES[stack[-1].proc].resume(self, stack[-1], top)
                continue
            assert isinstance(d, Decision)
            self._pending = d
            return

    # ------------------------------------------------------------------ apply
    def check(self, action: Action) -> Decision:
        """Raise IllegalAction unless ``action`` answers the pending decision (no state change)."""
        d = self._pending
        if d is None:
            raise GameOver()
        if action.side not in (AXIS, ALLIED):
            raise IllegalAction(f"{action.side!r} is not a side; actions are taken by Axis or Allied", "2.5")
        if action.kind == "undo":
            check_args(action, UNDO_RULE)
            return d
        if not d.allows(action.side):
            raise IllegalAction(
                f"It is the {d.side} player's turn to act ({d.prompt}); the {action.side} player cannot {action.kind} now",
                d.rule,
            )
        check_args(action, d.rule)
        if action.kind in d.free_kinds:
            return d
        # sampled options are all of free kinds (Decision.options checks it): the eager ones are enough here
        for o in d.eager_options():
            if o.action == action:
                return d
        legal = ", ".join(sorted({o.action.kind for o in d.eager_options() if o.action.side == action.side}
                                 | set(d.free_kinds))) or "nothing"
        raise IllegalAction(f"{action.kind} is not a legal choice now ({d.prompt}); legal: {legal}", d.rule)

    def clean_bytes(self) -> bytes | None:
        """The state's canonical bytes as the last :meth:`apply` left them, when no unit, unit attribute or state
        field was set anywhere in the process since (else None).  In-place changes of the state's containers (vars,
        cards, control, flags) are not seen: only for a caller through which nothing but ``apply`` changes the
        state (a game on disk, a replay), to pass as ``apply``'s ``before`` (issue 18)."""
        c = self._clean
        if c is None or c[0] is not self.state or c[1] is not self.state.units or c[2] != self.state.units.version \
                or c[3] != write_stamp():
            return None
        return c[4]

    def apply(self, action: Action, *, before: bytes | None = None) -> LogEntry:
        """Validate and apply one action.  On any refusal the state is untouched.  ``before``: the state's
        canonical bytes now, when the caller holds them (:meth:`clean_bytes`), so that they are not encoded again."""
        self.check(action)
        before = before if before is not None else self.state.encode()
        pending_before = self._pending
        self._rolls, self._events = [], []
        self._generation += 1
        try:
            if action.kind == "undo":
                self._apply_undo(action)
            else:
                top = self.state.stack[-1]
                PROCEDURES[top.proc].apply(self, top, action)
                self._after_action()
                self._settle()
                if self._after_action():       # units placed by automatic steps: the decision is asked again
                    self._settle()
        except BaseException:  # any failure restores the state before the action and re-raises (no half-applied action)
            self.state = GameState.decode(before)
            self._pending = pending_before
            self._generation -= 1
            self._rolls, self._events = [], []
            raise
        after = self.state.encode()
        self.last_bytes = (before, after)
        self._clean = (self.state, self.state.units, self.state.units.version, write_stamp(), after)
        entry = LogEntry(
            seq=len(self.log) + 1, action=action, rolls=list(self._rolls), hash=hashlib.sha256(after).hexdigest(),
            events=list(self._events), gt=self.state.gt, phase=self.state.phase,
        )
        if action.kind != "undo":
            self._note_undo_point(entry, action.side, before)
        self.log.append(entry)
        self._rolls, self._events = [], []
        return entry

    def _after_action(self) -> bool:
        changed = False
        for fn in AFTER_ACTION:
            changed = bool(fn(self)) or changed
        return changed

    def _settle_quietly(self) -> None:
        saved = self.state.dice_drawn
        self._settle()
        self.state.dice_drawn = saved

    # ------------------------------------------------------------------ undo
    def _note_undo_point(self, entry: LogEntry, side: str, before: bytes) -> None:
        """Undo goes back to the last die roll or the other side's last action (R-UNDO)."""
        if entry.rolls:
            self._undo.clear()
            return
        if self._undo and self._undo[-1].side != side:
            self._undo.clear()
        self._undo.append(_UndoPoint(entry.seq, side, before))

    def _apply_undo(self, action: Action) -> None:
        if not self._undo:
            raise IllegalAction(
                "Nothing to take back: undo reaches back only to the last die roll or the other side's last action",
                UNDO_RULE,
            )
        point = self._undo[-1]
        if point.side != action.side:
            raise IllegalAction(
                f"Only the {point.side} player can take back the {point.side} player's last action", UNDO_RULE,
            )
        self._undo.pop()
        self.state = GameState.decode(point.before)
        self._settle_quietly()
        self.say(f"{action.side} takes back action #{point.seq}")

    # ------------------------------------------------------------------ look-ahead
    def fork(self, dice: Dice) -> "Engine":
        """An independent engine on a copy of the current state whose dice come from ``dice`` (issue 21), for a
        look-ahead: e.g. ``eng.fork(SampledDice(random.Random(seed)))`` rolls from the searcher's own RNG, so a
        search never sees the game's real future dice.  The copy is the state's canonical bytes decoded again (the
        same bytes the hash is taken of), so ``fork(...).hash() == hash()``; its log and undo history start empty,
        and nothing done to it touches this engine."""
        eng = Engine.__new__(Engine)
        eng.state = GameState.decode(self.state.encode())
        eng.dice = dice
        eng.log, eng._rolls, eng._events, eng._undo = [], [], [], []
        eng._pending, eng._generation, eng.last_bytes, eng._clean = None, 0, None, None
        eng._settle_quietly()      # the same pending decision, asked of the copy (its options read the copy)
        eng._rolls, eng._events = [], []
        return eng

    # ------------------------------------------------------------------ replay
    @classmethod
    def replay(cls, start: GameState, actions: Iterable[Action], dice: Dice | None = None) -> "Engine":
        eng = cls(GameState.decode(start.encode()), dice)
        for a in actions:
            eng.apply(a)
        return eng


# ---------------------------------------------------------------------------
# The sequence of play (4.1) as the bottom procedure of every game.


@procedure("turn")
class TurnProcedure(Procedure):
    """4.1: GT -> impulses -> phases I-XX -> steps, then the Turn Marker Phase."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None | object:
        st = eng.state
        if st.result is not None:
            return None
        if frame.data.get("entered"):
            # the step's procedure finished without popping through resume (should not happen)
            self.advance(eng, frame)
            return CONTINUE
        step = eng.step
        pre = PRE_STEP.get(step.key, [])
        i = int(frame.data.get("pre", 0))
        if i < len(pre):
            frame.data["pre"] = i + 1
            eng.push(pre[i], step=step.key)
            return CONTINUE
        frame.data["entered"] = True
        if step.role == "auto":
            for fn in AUTO_STEPS.get(step.key, []):
                fn(eng)
            self.advance(eng, frame)
            return CONTINUE
        proc = STEP_PROCEDURES.get(step.key)
        if proc is None:          # every interactive step of 4.1 has its rules chapter's procedure (on_step)
            raise RuntimeError(f"step {step.key} ({step.rule}) of the sequence of play has no procedure")
        eng.push(proc, step=step.key)
        return CONTINUE

    def resume(self, eng: Engine, frame: Frame, child: Frame) -> None:
        if frame.data.get("entered"):
            self.advance(eng, frame)

    def advance(self, eng: Engine, frame: Frame) -> None:
        st = eng.state
        frame.data["entered"] = False
        frame.data.pop("pre", None)
        if st.result is not None:
            return
        if st.step < len(sequence.phase(st.phase).steps):
            st.step += 1
            return
        for fn in PHASE_END:
            fn(eng, st.phase)
        if st.result is not None:
            return
        if st.phase < 20:
            st.phase += 1
            st.step = 1
            eng.say(f"GT {st.gt} — Phase {sequence.phase(st.phase).title}")
            return
        # 4.1 XX b): advance the turn marker and continue with the Strategic Impulse
        st.gt += 1
        st.phase, st.step = 1, 1
        # 6.2 / 6.3: surprise and Ghibli last for one GT only
        st.surprise = False
        st.ghibli = False
        eng.say(f"GT {st.gt} begins")
        eng.say(f"GT {st.gt} — Phase {sequence.phase(1).title}")


@procedure("game_start")
class GameStart(Procedure):
    """3.0: lay out what the scenario instructions put in play before the first decision."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        for fn in GAME_START:
            fn(eng)
        return None


@auto_step("XX.1")
def turn_marker(eng: Engine) -> None:
    """4.1 XX a): if the turn marker is in the end scenario marker's box, the scenario ends."""
    st = eng.state
    if st.gt >= st.end_gt:
        from core import victory

        st.result = victory.final_result(eng)
        eng.say(f"End of scenario after GT {st.gt}: {st.result.get('text', '')}")


@auto_step("XIX.1")
def instant_victory(eng: Engine) -> None:
    """4.1 XIX: check the scenario instructions for an instant victory."""
    from core import victory

    res = victory.instant_result(eng)
    if res is not None:
        eng.state.result = res
        eng.say(f"Instant victory: {res.get('text', '')}")


#: The last box of the Turn Record Track: the longest scenarios (32.0, 33.0) end after GT 38 (R-TRT-END).
TRT_LAST_GT = 38


def move_end_scenario_marker(eng: Engine, delta: int, reason: str, rule: str) -> None:
    """4.0: the end scenario marker moves only as scenario instructions or events direct."""
    st = eng.state
    new = min(TRT_LAST_GT, max(st.gt, st.end_gt + delta))
    st.es_history.append({"gt": st.gt, "from": st.end_gt, "to": new, "reason": reason, "rule": rule})
    eng.say(f"End scenario marker moves from GT {st.end_gt} to GT {new} ({reason}, {rule})")
    st.end_gt = new


_loaded = False


def _ensure_rules_loaded() -> None:
    """Import the rule modules so that they register their procedures."""
    global _loaded
    if _loaded:
        return
    # set only once the import is complete: a second thread building an engine meanwhile waits on the module's
    # import lock instead of settling a state whose procedures are not registered yet (KeyError: 'movement')
    import core.rules  # noqa: F401  (registers every rules chapter)
    _loaded = True


__all__ = [
    "Engine", "Procedure", "procedure", "on_step", "auto_step", "before_step", "at_phase_end", "CONTINUE",
    "LogEntry", "move_end_scenario_marker", "other",
]
