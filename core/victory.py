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
