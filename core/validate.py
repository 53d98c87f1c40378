"""``dfd validate``: check every data file and every cross-reference.

Each check returns error strings that name the file and the field; nothing here
raises for bad data.
"""

from __future__ import annotations

import importlib
from typing import Callable

from core.resources import RESOURCES


def _call(label: str, fn: Callable[[], object]) -> list[str]:
    try:
        res = fn()
    except Exception as exc:  # noqa: BLE001 - every data error is reported, not raised
        return [f"{label}: {exc}"]
    if isinstance(res, list):
        return [str(e) for e in res]
    return []


def check_counters() -> list[str]:
    from core.counters import all_counters

    all_counters.cache_clear()
    return _call("resources/counters", all_counters)


def check_scenarios() -> list[str]:
    from core.newgame import initial_state
    from core.scenario import all_scenarios, card_contradictions

    all_scenarios.cache_clear()
    errs = _call("scenarios", all_scenarios)
    if errs:
        return errs
    for sc in all_scenarios():
        errs += _call(sc.path, lambda sc=sc: initial_state(sc, 1))
        errs += _call(sc.path, lambda sc=sc: card_contradictions(sc))   # one fact, one place (issue 17)
    return errs


def check_initiative() -> list[str]:
    from core.rules import initiative

    initiative.table.cache_clear()
    return _call("resources/charts/initiative.toml", initiative.table)


def check_optional(module: str, fn: str) -> list[str]:
    """Modules that other issues add (maps, charts, cards) expose a validate() returning errors."""
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError:
        return []
    f = getattr(mod, fn, None)
    return _call(module.replace(".", "/") + ".py", f) if f else []


CHECKS: list[tuple[str, Callable[[], list[str]]]] = [
    ("counters", check_counters),
    ("scenarios", check_scenarios),
    ("initiative table", check_initiative),
    ("map", lambda: check_optional("core.mapdata", "validate")),
    ("terrain effects", lambda: check_optional("core.terrain", "validate")),
    ("charts", lambda: check_optional("core.charts", "validate")),
    ("cards", lambda: check_optional("core.cards", "validate")),
]


def validate_all() -> list[tuple[str, list[str]]]:
    assert RESOURCES.exists(), f"resources folder missing: {RESOURCES}"
    return [(name, fn()) for name, fn in CHECKS]
