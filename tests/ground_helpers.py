"""Helpers for the ground-rules tests (issue 5): a synthetic map and states built directly."""

from __future__ import annotations

from core.engine import Engine
from core.hexgrid import Hex
from core.rules import tec
from core.state import Frame, GameState, UnitState


def detour_path(a: str, b: str, steps: int) -> list[str]:
    """A path of exactly ``steps`` steps from ``a`` to ``b`` (labels entered, ``a`` excluded)."""
    line = Hex.parse(a).line_to(Hex.parse(b))
    path = list(line)
    i = 0
    while len(path) - 1 < steps:
        x, y = path[i], path[i + 1]
        common = [c for c in x.neighbours() if c.distance(y) == 1 and c not in path and c.on_grid]
        if common:
            path.insert(i + 1, common[0])
            i += 2
        else:
            i += 1
        if i >= len(path) - 1:
            i = 0
    assert len(path) - 1 == steps
    return [h.label for h in path[1:]]


def unit(uid: str, side: str, loc: str, **kw) -> UnitState:
    return UnitState(id=uid, side=side, loc=loc, **kw)


def engine_at_movement(units: list[UnitState], *, phase: int = 6, step: int = 3, surprise: bool = False,
                       first: str = "Axis", vars: dict | None = None) -> Engine:
    """An engine waiting in the Movement (step 3) or Reaction (step 1) Phase with ``units`` placed.  GT 10 is March
    1941, a winter month: the optional weather rules (21.0) are off unless ``vars`` turns them on (the Example of Play
    of GT 10 does not double Map C wadi crossings either)."""
    st = GameState(scenario="test-ground", seed=7, gt=10, phase=phase, step=step, initiative=first,
                   first_player=first, surprise=surprise, end_gt=20,
                   units={u.id: u for u in units}, stack=[Frame(proc="turn")],
                   vars={"weather_rules": False, **(vars or {})})
    return Engine(st)


def open_map(**kw) -> tec.GroundMap:
    return tec.GroundMap(**kw)


def play_until(eng: Engine, kind: str, phase: int | None = None):
    """Play on, answering every other decision with *done* (else its first option), until a decision of ``kind``
    (in ``phase``) is pending; the play-path tests' way from a scenario set-up to the rule they test."""
    for _ in range(300):
        d = eng.pending()
        if d.kind == kind and (phase is None or eng.state.phase == phase):
            return d
        eng.apply(next((o.action for o in d.options if o.action.kind == "done"), d.options[0].action))
    raise AssertionError(f"no {kind} decision")
