"""Victory (4.1 XIX, XX and each scenario's victory conditions).

The scenario files carry their victory conditions as data; the evaluator for
them belongs to the strategic-impulse rules (issue 7).  Until a scenario's
conditions are evaluable, the end of play is reported as undetermined, never
as a silent draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.engine import Engine

EVALUATORS: list = []   # f(engine, final: bool) -> result dict | None, registered by rule modules


def instant_result(eng: "Engine") -> dict[str, Any] | None:
    """4.1 XIX: an instant victory, if a scenario condition gives one now."""
    for fn in EVALUATORS:
        res = fn(eng, False)
        if res is not None:
            return res
    return None


def final_result(eng: "Engine") -> dict[str, Any]:
    """4.1 XX a): the scenario has ended; determine the victor."""
    for fn in EVALUATORS:
        res = fn(eng, True)
        if res is not None:
            return res
    return {
        "winner": None, "level": "undetermined", "gt": eng.state.gt,
        "text": "the scenario's victory conditions are not evaluated yet (see issue 7); no winner recorded",
    }


#: a winner's victory levels, weakest first (the scenarios' ``victory`` data: marginal, win, smashing; 4.1 XIX:
#: an instant victory, which ends the game at once, ranks above them all - no scenario offers both an instant and
#: a smashing victory, so the order between those two never decides a comparison within one scenario)
WIN_LEVELS: tuple[str, ...] = ("marginal", "win", "smashing", "instant")
#: results with no winner: a draw, a game stopped before its end (``dfd autoplay``'s "unfinished"), conditions not
#: evaluated ("undetermined")
NO_WINNER_LEVELS: tuple[str, ...] = ("draw", "unfinished", "undetermined")


def victory_scale(result: dict[str, Any], side: str) -> int:
    """The result as a number for ``side``: higher is better for ``side`` (issue 21's "a higher victory level for its
    side").  The order, from worst to best for ``side``::

        -4 enemy instant < -3 enemy smashing < -2 enemy win < -1 enemy marginal
        < 0 no winner (draw, unfinished, undetermined)
        < 1 own marginal < 2 own win < 3 own smashing < 4 own instant

    An "error" result (an engine failure) or an unknown level raises ``ValueError``: it is never scored as a game."""
    level = result.get("level")
    winner = result.get("winner")
    if winner is None:
        if level in NO_WINNER_LEVELS:
            return 0
        raise ValueError(f"a result without a winner at level {level!r} cannot be scored: {result}")
    if level not in WIN_LEVELS:
        raise ValueError(f"unknown victory level {level!r} in {result}")
    rank = WIN_LEVELS.index(level) + 1
    if side not in ("Axis", "Allied"):
        raise ValueError(f"{side!r} is not a side (Axis or Allied)")
    return rank if winner == side else -rank
