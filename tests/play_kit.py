"""Play-path kit: start a real scenario and drive only ``Engine.apply`` with legal actions.

``play(eng, until=..., script=...)`` answers every pending decision with the scripted actions for its GT and
step (applied in order, each exactly once, when that step's decision is pending for the action's side) and
passes otherwise (the decision's "done" option, else its first option).  It returns the log lines written on
the way, each tagged with the GT and step key the game was in when the action that wrote it finished.
"""

from __future__ import annotations

from dataclasses import dataclass

from core import sequence
from core.decisions import Action, Decision
from core.dice import Dice
from core.engine import Engine
from core.newgame import initial_state
from core.scenario import load


def new_game(scenario: str, seed: int = 1, dice: Dice | None = None) -> Engine:
    """A new game of ``scenario`` exactly as ``Game.new`` starts it (3.0, 3.1)."""
    return Engine(initial_state(load(scenario), seed), dice)


def step_key(eng: Engine) -> str:
    """``IX.3``-style key of the step the game is in (4.1)."""
    return f"{sequence.ROMAN[eng.state.phase - 1]}.{eng.state.step}"


def where(eng: Engine) -> tuple[int, str]:
    return eng.state.gt, step_key(eng)


def pass_action(d: Decision) -> Action:
    """The "pass" answer: the decision's ``done`` option, else its first option."""
    for o in d.options:
        if o.action.kind == "done":
            return o.action
    return d.options[0].action


@dataclass
class Line:
    gt: int
    step: str
    text: str


def order(gt: int, key: str) -> tuple[int, int, int]:
    """(GT, phase, step) of a ``(GT, "IX.3")`` point, for comparing points of the sequence of play (4.1)."""
    roman, step = key.split(".")
    return gt, sequence.ROMAN.index(roman) + 1, int(step)


def play(eng: Engine, *, until: tuple[int, str], script: dict[tuple[int, str], list[Action]] | None = None,
         limit: int = 5000, decisions: list[tuple[int, str, str, str]] | None = None) -> list[Line]:
    """Play until the game waits at step ``until`` = (GT, step key); scripted actions first, then passes.

    ``script`` is consumed in place, so one script can serve several calls.  A scripted action whose step
    has been passed without applying it fails the test (a script that does not run is not a silent pass).
    ``decisions`` collects (GT, step, kind, side) of every decision answered."""
    todo = script if script is not None else {}
    lines: list[Line] = []
    for _ in range(limit):
        missed = [k for k, v in todo.items() if v and order(*k) < order(*where(eng))]
        assert not missed, f"scripted actions never applied: {[(k, todo[k]) for k in missed]}"
        if where(eng) == until and eng.pending() is not None:
            break
        d = eng.pending()
        assert d is not None, f"the game ended before GT {until[0]} {until[1]}"
        if decisions is not None:
            decisions.append((*where(eng), d.kind, d.side))
        queue = todo.get(where(eng), [])
        if queue and d.side in (queue[0].side, "either"):
            action = queue.pop(0)
        else:
            action = pass_action(d)       # nothing scripted here, or the other side decides first
        entry = eng.apply(action)
        lines.extend(Line(*where(eng), str(t)) for t in entry.events)
    else:
        raise AssertionError(f"GT {until[0]} {until[1]} not reached in {limit} actions")
    return lines


def move(side: str, units: list[str], path: list[str], **args) -> Action:
    """A ``move`` action of the Movement or Reaction Phase (13.1)."""
    return Action(kind="move", side=side, args={"units": units, "path": path, **args})
