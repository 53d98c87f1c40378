"""Helpers for the combat tests (14.0-15.10): build states directly and drive ``resolve_combat``."""

from __future__ import annotations

from typing import Any, Callable

from core.decisions import Action
from core.engine import Engine
from core.rules import tec
from core.state import Frame, GameState, UnitState


def make_state(units: list[tuple], *, gt: int = 10, phase: int = 8, surprise: bool = False,
               first: str = "Axis", vars: dict | None = None) -> GameState:
    """``units``: (id, side, loc, steps, {extra UnitState fields}) tuples."""
    us = {}
    for row in units:
        uid, side, loc = row[0], row[1], row[2]
        steps = row[3] if len(row) > 3 else 1
        extra = dict(row[4]) if len(row) > 4 else {}
        us[uid] = UnitState(id=uid, side=side, loc=loc, steps=steps, **extra)
    return GameState(scenario="test", seed=1, gt=gt, phase=phase, step=1, initiative=first, first_player=first,
                     surprise=surprise, end_gt=99, units=us, vars=dict(vars or {}), stack=[])


def desert_map(**hexes: str) -> tec.GroundMap:
    gm = tec.GroundMap(default="desert")
    for label, t in hexes.items():
        gm.set_hex(label, *t.split("+"))
    return gm


def start(state: GameState, dice, proc: str = "resolve_combat", **data: Any) -> tuple[Engine, Frame]:
    eng = Engine(state, dice)
    frame = eng.push(proc, **data)
    eng._settle()
    eng._rolls, eng._events = [], []
    return eng, frame


def act(eng: Engine, kind: str, side: str | None = None, **args: Any):
    d = eng.pending()
    assert d is not None, "no decision pending"
    for o in d.options:
        if o.action.kind == kind and all(o.action.args.get(k) == v for k, v in args.items()) \
                and (side is None or o.action.side == side):
            return eng.apply(o.action)
    raise AssertionError(f"no option {kind} {args} in {d.kind}: {[ (o.action.kind, o.action.args) for o in d.options]}")


def drive(eng: Engine, choose: Callable[[Any], Action], limit: int = 500) -> None:
    n = 0
    while eng.pending() is not None and n < limit:
        eng.apply(choose(eng.pending()))
        n += 1
    assert eng.pending() is None, f"combat did not finish in {limit} decisions: {eng.pending()}"


def all_events(eng: Engine) -> list[str]:
    return [e for entry in eng.log for e in entry.events]
