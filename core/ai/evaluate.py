"""Position evaluation for the computer opponent: material, objectives held and supply, from one side's view.

Everything is read from the state and the engine's own rules (victory controller, supply lines, unit values);
nothing here re-implements a rule.
"""

from __future__ import annotations

from core.decisions import other
from core.engine import Engine
from core.rules import offmap, supply, victory_rules
from core.rules.status import cf, counter_of, hex_of, is_combat
from core.state import UnitState

from core.ai import goals as goals_mod


def unit_value(u: UnitState) -> float:
    """A combat unit's worth: its combat factor and steps (8.3), a little for any counter on the map."""
    if not is_combat(u):
        return 0.0
    c = counter_of(u)
    return max(1, cf(u)) * (1.5 if c.divisional else 1.0) + 0.5 * max(1, u.steps)


def material(eng: Engine, side: str) -> float:
    """The worth of ``side``'s combat units in play (on the map or off it, not eliminated or removed)."""
    total = 0.0
    for u in eng.state.units_of(side):
        if u.loc == offmap.REMOVED or offmap.eliminated(u):
            continue
        total += unit_value(u)
    return total


def result_score(res: dict | None, side: str) -> float:
    """A finished scenario from ``side``'s view: +/- by the victory level (LEVELS of 4.1 XX)."""
    if not res:
        return 0.0
    lvl = {"instant": 4, "smashing": 4, "win": 3, "marginal": 2, "draw": 0}.get(str(res.get("level")), 0)
    if res.get("winner") == side:
        return 100.0 * lvl
    if res.get("winner") == other(side):
        return -100.0 * lvl
    return 0.0


def evaluate(eng: Engine, side: str) -> float:
    """Higher is better for ``side``: the result if the scenario ended, else material balance, objectives held
    and units out of supply."""
    st = eng.state
    if st.result is not None:
        return result_score(st.result, side)
    score = material(eng, side) - material(eng, other(side))
    g = goals_mod.goals(eng, side)
    score += 6.0 * sum(g.hold.values()) - 6.0 * sum(w for h, w in g.take.items() if g.control.get(h) == other(side))
    lines = supply.supply_lines(st, side)
    for u in st.units_of(side):
        h = hex_of(u)
        if h is not None and is_combat(u) and h not in lines.loc:
            score -= 0.5 * unit_value(u)
    return score


def provisional(eng: Engine, side: str) -> float:
    """The result the scenario would give if it ended now (the engine's own victory check), from ``side``'s view."""
    return result_score(victory_rules.evaluate(eng, True), side)
