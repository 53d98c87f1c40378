"""Decisions, actions and refusals: the engine's whole public vocabulary.

At every moment the engine exposes one pending :class:`Decision`: who must act
(``Axis``, ``Allied`` or ``either``), what kind of decision it is, a prompt, the
rule that governs it, and the legal options.  A player answers with an
:class:`Action`.  An illegal action raises :class:`IllegalAction`, whose message
always cites the rule, and leaves the state untouched.
"""

from __future__ import annotations

from collections.abc import Iterable
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


class Decision(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What the engine is waiting for.

    ``options`` lists the enumerable legal actions.  ``free_kinds`` names action
    kinds whose arguments are too many to enumerate (a move along a path, a
    placement within N hexes); they are validated when applied, and the engine
    offers queries (reachable hexes, legal placements) to build them.
    """

    side: str
    kind: str
    prompt: str
    rule: str
    options: tuple[Option, ...] = ()
    free_kinds: tuple[str, ...] = ()
    context: dict[str, Any] = {}

    def allows(self, side: str) -> bool:
        return self.side == EITHER or self.side == side


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

