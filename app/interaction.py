"""Map interaction: what a click on the map means, decided in one place (issue 19).

A small state machine with four states:

* **idle** — nothing selected;
* **stack selected** — a hex (usually a friendly stack) is selected; the inspector, the Movement orders panel,
  the reachable hexes and the odds badges follow it;
* **route shown** — a move path is being built hex by hex (13.1: clicking adjacent hexes), drawn on the map;
* **target chosen** — a hex holding several of the pending decision's options was clicked and the player is
  choosing one of them from its menu.

:meth:`MapInteraction.meaning` answers, for a hex and a mouse button, what a click there would do: the
window shows that text in the status bar while the mouse hovers the hex (before the click) and does exactly
that when the click comes.  The rules of the table:

1. A right-click never sends an action: it opens the hex menu (inspect, centre, copy, odds preview).
2. An order form picking a hex (Movement orders panel) takes the click.
3. A hex with the pending decision's highlighted options sends that option (one) or offers them (several).
4. A click on a friendly stack always selects it — even with another stack selected that could move there
   (Shift+click or a drag moves onto it).
5. With a stack selected in a movement decision: a hex on its route moves it there (the engine's route); a
   hand-built path grows by adjacent clicks and is sent by clicking its last hex again.
6. Anything else selects the hex (and shows its units).

The module computes no rule: the window supplies the engine's answers (options, routes, which units may still
move) through a :class:`Board`; the engine validates every action sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from app.names import humanize
from core.decisions import Option


class Mode(str, Enum):
    IDLE = "idle"
    SELECTED = "stack selected"
    ROUTE = "route shown"
    TARGET = "target chosen"


class Board(Protocol):
    """What the interaction asks of the window (all answers come from the engine or the screen)."""

    def picking(self) -> bool: ...                                   # an order form waits for a hex
    def targets(self, label: str) -> list[Option]: ...               # the decision's highlighted options there
    def moving(self) -> bool: ...                                    # a movement decision this screen answers
    def friendly(self, label: str) -> list[str]: ...                 # the acting side's units in the hex
    def movers(self) -> list[str]: ...                               # the selected stack's units that may move
    def route(self, label: str) -> tuple[list[str], float | None] | None: ...   # the engine's route there
    def adjacent(self, a: str, b: str) -> bool: ...
    def name(self, label: str) -> str: ...                           # "C2331 Tobruk"
    def units_text(self, ids: list[str]) -> str: ...                 # "5 Pz, 3 Recce"


@dataclass(frozen=True)
class Click:
    """The meaning of one click on the map: what it does and what the status bar says before it."""

    kind: str                      # menu | pick | option | options | select | move | path | send_path
    hex: str
    text: str
    options: tuple[Option, ...] = ()
    path: tuple[str, ...] = ()

    @property
    def sends(self) -> bool:
        """Whether the click sends an action to the engine (at once)."""
        return self.kind in ("option", "move", "send_path")


@dataclass
class MapInteraction:
    selected: str | None = None
    path: list[str] = field(default_factory=list)     # the hand-built path, starting at the selected hex
    target: str | None = None                          # a hex whose options menu is open

    @property
    def mode(self) -> Mode:
        if self.target is not None:
            return Mode.TARGET
        if len(self.path) > 1:
            return Mode.ROUTE
        if self.selected is not None:
            return Mode.SELECTED
        return Mode.IDLE

    # ---------------------------------------------------------------- transitions
    def select(self, label: str | None) -> None:
        if label != self.selected:
            self.path = []
        self.selected = label
        self.target = None

    def clear(self) -> None:
        self.selected, self.path, self.target = None, [], None

    def clear_path(self) -> None:
        self.path = []

    def extend(self, label: str) -> None:
        self.path = (self.path or [self.selected]) + [label]

    def choosing(self, label: str | None) -> None:
        self.target = label

    def moved_to(self, label: str) -> None:
        """After a move the moved stack stays selected in its new hex (its panels and overlays follow it)."""
        self.path = []
        self.target = None
        self.selected = label

    # ---------------------------------------------------------------- the one decision
    def meaning(self, board: Board, label: str, button: str = "left", shift: bool = False) -> Click:
        if button == "right":
            return Click("menu", label, f"Right-click: the menu of {board.name(label)} (inspect, centre, copy) — never plays")
        if board.picking():
            return Click("pick", label, f"Click: pick {board.name(label)} for the order form (Esc cancels)")
        opts = board.targets(label)
        if len(opts) == 1:
            return Click("option", label, f"Click: {humanize(opts[0].label)}", tuple(opts))
        if len(opts) > 1:
            return Click("options", label, f"Click: choose one of {len(opts)} choices in {board.name(label)}", tuple(opts))
        moving = board.moving() and self.selected is not None and label != self.selected
        movers = board.movers() if moving else []
        friendly = board.friendly(label)
        if movers and self.path and len(self.path) > 1:
            if label == self.path[-1]:
                return Click("send_path", label, f"Click: move {board.units_text(movers)} along "
                             f"{' → '.join(self.path)} (the path built hex by hex)", path=tuple(self.path[1:]))
            if board.adjacent(self.path[-1], label):
                return Click("path", label, f"Click: add {board.name(label)} to the path (click its last hex again to move)")
        route = board.route(label) if movers else None
        if friendly and not (shift and route is not None):
            extra = ""
            if route is not None:
                extra = f" · Shift+click or drag the selected stack: move it here ({_mp(route[1])})"
            return Click("select", label, f"Click: select {board.units_text(friendly)} in {board.name(label)}{extra}")
        if route is not None and not (self.path and len(self.path) > 1):
            path = route[0][1:] if route[0][:1] == [self.selected] else route[0]
            return Click("move", label, f"Click: move {board.units_text(movers)} → {' → '.join(path)}, {_mp(route[1])}",
                         path=tuple(path))
        if movers and board.adjacent(self.path[-1] if self.path else self.selected, label):
            return Click("path", label, f"Click: start a path to {board.name(label)} hex by hex "
                         "(no single route reaches it; click its last hex again to move)")
        return Click("select", label, f"Click: select {board.name(label)}"
                     + (f" ({board.units_text(friendly)})" if friendly else ""))


def _mp(cost: float | None) -> str:
    return f"{cost:g} MP" if isinstance(cost, (int, float)) else "MP as the engine counts them"
