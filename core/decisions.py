"""Decisions, actions and refusals: the engine's whole public vocabulary.

At every moment the engine exposes one pending :class:`Decision`: who must act
(``Axis``, ``Allied`` or ``either``), what kind of decision it is, a prompt, the
rule that governs it, and the legal options.  A player answers with an
:class:`Action`.  An illegal action raises :class:`IllegalAction`, whose message
always cites the rule, and leaves the state untouched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Literal

import msgspec

AXIS = "Axis"
ALLIED = "Allied"
EITHER = "either"
SIDES: tuple[str, str] = (AXIS, ALLIED)

SideName = Literal["Axis", "Allied"]


def other(side: str) -> str:
    """The opposing side."""
    if side == AXIS:
        return ALLIED
    if side == ALLIED:
        return AXIS
    raise ValueError(f"{side!r} is not a side (Axis or Allied)")


class Action(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One player's answer to a decision.  Round-trips through JSON exactly."""

    kind: str
    side: str
    args: dict[str, Any] = {}

    def to_json(self) -> bytes:
        return msgspec.json.encode(self, order="sorted")

    @classmethod
    def from_json(cls, data: bytes | str) -> "Action":
        return msgspec.json.decode(data, type=cls)

    def __str__(self) -> str:
        extra = " ".join(f"{k}={v}" for k, v in sorted(self.args.items()))
        return f"{self.side}: {self.kind}" + (f" {extra}" if extra else "")


class Option(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One legal choice of a decision, with the label a GUI shows on its button."""

    action: Action
    label: str
    hint: str = ""


class Decision:
    """What the engine is waiting for.

    ``options`` lists the enumerable legal actions.  ``free_kinds`` names action
    kinds whose arguments are too many to enumerate (a move along a path, a
    placement within N hexes); they are validated when applied, and the engine
    offers queries (reachable hexes, legal placements) to build them.

    ``sampled`` (optional) is a function returning more options, all of free kinds (a few sampled moves, air
    missions...).  It runs the first time ``options`` is read, never while an action is applied or replayed:
    :meth:`core.engine.Engine.check` validates a free kind by the procedure's own ``apply`` and any other kind
    against the options given eagerly, so it never needs the sampled ones (issue 18).
    """

    __slots__ = ("side", "kind", "prompt", "rule", "free_kinds", "context", "_options", "_sampled")

    def __init__(self, *, side: str, kind: str, prompt: str, rule: str, options: Iterable[Option] = (),
                 free_kinds: Iterable[str] = (), context: dict[str, Any] | None = None,
                 sampled: Callable[[], Iterable[Option]] | None = None):
        self.side = side
        self.kind = kind
        self.prompt = prompt
        self.rule = rule
        self._options = tuple(options)
        self.free_kinds = tuple(free_kinds)
        self.context = {} if context is None else context
        self._sampled = sampled

    @property
    def options(self) -> tuple[Option, ...]:
        if self._sampled is not None:
            more = tuple(self._sampled())
            self._sampled = None
            stray = sorted({o.action.kind for o in more} - set(self.free_kinds))
            if stray:
                raise RuntimeError(f"sampled options of the {self.kind!r} decision are of kinds {stray}, not free "
                                   f"kinds: Engine.check could not accept them without sampling")
            self._options += more
        return self._options

    def eager_options(self) -> tuple[Option, ...]:
        """The options given when the decision was made, without running the sampler (and the sampled ones too
        once they have been asked for)."""
        return self._options

    def allows(self, side: str) -> bool:
        return self.side == EITHER or self.side == side

    def _key(self) -> tuple:
        return (self.side, self.kind, self.prompt, self.rule, self.options, self.free_kinds, self.context)

    def __eq__(self, other_: object) -> bool:
        return isinstance(other_, Decision) and self._key() == other_._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (f"Decision(side={self.side!r}, kind={self.kind!r}, prompt={self.prompt!r}, rule={self.rule!r}, "
                f"options={self.options!r}, free_kinds={self.free_kinds!r}, context={self.context!r})")


#: Per action kind, the arguments it may carry: name -> (accepted types, largest length of a str or list).
#: ``Engine.check`` refuses an unknown or oversized argument of a listed kind before any procedure sees the
#: action - the check needs no option list, like the rest of ``Engine.check`` (issue 18; the place for the
#: LAN's per-kind argument schemas).  Register with :func:`arg_schema` beside the procedure that applies the kind.
ARG_SCHEMAS: dict[str, dict[str, tuple[tuple[type, ...], int]]] = {}


def arg_schema(kind: str, **args: tuple[tuple[type, ...], int]) -> None:
    """Declare the arguments of action ``kind``: ``arg_schema("place", unit=((str,), 64), hex=((str,), 8))``."""
    ARG_SCHEMAS[kind] = dict(args)


def check_args(action: "Action", rule: str) -> None:
    """Raise IllegalAction when ``action`` carries an argument its kind's schema does not list, of another type,
    or longer than the schema allows (kinds without a schema are checked by their procedure only)."""
    schema = ARG_SCHEMAS.get(action.kind)
    if schema is None:
        return
    for name, value in action.args.items():
        spec = schema.get(name)
        if spec is None:
            raise IllegalAction(f"{action.kind} takes no argument {name!r} (it takes: {', '.join(sorted(schema)) or 'none'})",
                                rule)
        types, most = spec
        if not isinstance(value, types) or isinstance(value, bool) and bool not in types:
            raise IllegalAction(f"{action.kind}: argument {name!r} must be {' or '.join(t.__name__ for t in types)}", rule)
        if isinstance(value, (str, list)) and len(value) > most:
            raise IllegalAction(f"{action.kind}: argument {name!r} is longer than {most}", rule)


class IllegalAction(ValueError):
    """An action the rules forbid.  ``rule`` is the governing rule number."""

    def __init__(self, reason: str, rule: str):
        self.reason = reason
        self.rule = rule
        super().__init__(f"{reason} ({rule})" if rule and rule not in reason else reason)


class GameOver(IllegalAction):
    def __init__(self) -> None:
        super().__init__("The scenario has ended; no further actions are possible", "4.1 XX")


# --------------------------------------------------------------------------- one item at a time, then Done
# A step that takes a side's items one at a time (air units to deploy, 19.1; ocean cargo to ship, 20.2): each
# item's options are "stay" first, then its moves; the Done step ends it when no item is left (core.engine.OneByOne).


def done_step(side: str, prompt: str, rule: str) -> Decision:
    """The step decision once no item is left: its one option is Done."""
    return Decision(side=side, kind="step", prompt=prompt, rule=rule,
                    options=(Option(action=Action(kind="done", side=side), label="Done"),))


def item_decision(side: str, kind: str, prompt: str, rule: str, stay: Option, moves: Iterable[Option],
                  **extra: Any) -> Decision:
    """The decision on one item: ``stay`` first, then its ``moves``; Done stays free (``extra``: e.g. ``context``)."""
    return Decision(side=side, kind=kind, prompt=prompt, rule=rule, options=(stay, *moves), free_kinds=("done",),
                    **extra)

