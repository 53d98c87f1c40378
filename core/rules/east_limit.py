"""30.0 Trail of the Fox (and 31.0 Tunisian Campaign, "All rules in 29.0 and 30.0 apply"): "Axis units may not end
any phase in a hex on or east of Sxx34."

The scenario data names the line (``special`` kind ``no_axis_east_of``, ``params = {map, column}``); this module
is its one definition and every rule that puts a unit in a hex asks it (docs/rulings.md R-30-EAST):

* :func:`east_column` / :func:`barred`: a hex is "on or east of Sxx34" when its global column (2.2.2) is at or east
  of column 34 of Map S (which is column 01 of Map C, 2.2.1): on Maps L and S only C0201-C0701 are land.
* A move (13.0: movement, reaction, reaction away from an overrun, exploitation 14.9.3), a retreat (14.7) or an
  advance after combat (14.8) that would leave an Axis unit there is refused citing 30.0 and is not offered
  (:func:`refusal`, :func:`check_end`); a unit may pass through (the rule bars ending a phase there).
* Units that are there without the Axis player having put them there (30.1's El Agheila arrivals, S0734 =
  C0701) must leave in his next Movement Phase: while one of them can make a legal move out, the phase cannot end
  (:func:`must_leave`); one that could not leave is eliminated at the end of that Movement Phase (8.3)
  (:func:`phase_end`).
"""

from __future__ import annotations

from functools import cache

from core.decisions import AXIS, IllegalAction
from core.engine import Engine, at_phase_end
from core.hexgrid import Hex, HexLabelError, maps as sheets
from core.state import GameState, UnitState

KIND = "no_axis_east_of"
RULE = "30.0"


@cache
def _line(scenario: str) -> tuple[str, int, str, str] | None:
    """(side, first barred global column, rule, text) of the scenario's ``no_axis_east_of`` rule, its own or an
    included section's (31.0 includes 30.0), or None."""
    from core import scenario as sc_mod

    sc = next((s for s in sc_mod.all_scenarios() if scenario in (s.id, s.section, str(s.number))), None)
    if sc is None:
        return None
    for s in list(sc.special) + [r for inc in sc_mod.included(sc) for r in inc.special]:
        if s.kind == KIND:
            letter, col = str(s.params["map"]), int(s.params["column"])
            return AXIS, sheets()[letter].offset + col, s.rule or RULE, s.text
    return None


def east_column(state: GameState, side: str) -> int | None:
    """The first global column (2.2.2, ``Hex.g``) ``side``'s units may not end a phase on or east of (30.0), or None
    when the scenario has no such line for that side."""
    line = _line(state.scenario) if state.scenario else None
    return line[1] if line is not None and line[0] == side else None


def barred(state: GameState, side: str, h: Hex | str) -> bool:
    """Is ``h`` a hex on or east of the scenario's line for ``side`` (30.0)?"""
    col = east_column(state, side)
    if col is None:
        return False
    if isinstance(h, str):
        try:
            h = Hex.parse(h)
        except HexLabelError:
            return False          # a box: not a hex of the map
    return h.g >= col


def refusal(state: GameState, side: str, h: Hex | str, what: str = "a move") -> str | None:
    """Why ``what`` may not leave a ``side`` unit in ``h`` (None: it may)."""
    if not barred(state, side, h):
        return None
    line = _line(state.scenario)
    assert line is not None
    lab = h if isinstance(h, str) else h.label
    return (f"{what} may not end in {lab}: \"{line[3]}\" ({line[2]}; every hex of column 34 of Map S, C0201-C0701 on "
            "land, and east of it)")


def check_end(state: GameState, side: str, h: Hex | str, what: str = "a move") -> None:
    """Raise IllegalAction citing 30.0 when ``what`` would leave a ``side`` unit in ``h``."""
    why = refusal(state, side, h, what)
    if why:
        raise IllegalAction(why, _line(state.scenario)[2])  # type: ignore[index]


def stranded(state: GameState, side: str) -> list[UnitState]:
    """``side``'s units on the hex grid in a barred hex (30.0), sorted by id."""
    col = east_column(state, side)
    if col is None:
        return []
    from core.rules.status import counter_of, hex_of

    out = []
    for u in state.units_of(side):
        h = hex_of(u)
        if h is not None and h.g >= col and (counter_of(u).kind in ("combat", "supply")
                                             or counter_of(u).unit_type == "refit point"):
            out.append(u)
    return sorted(out, key=lambda u: u.id)


def way_out(state: GameState, side: str, uid: str, opts=None) -> list[str] | None:
    """A path (hex labels) by which ``uid`` can leave the barred hexes now (the move the ``move`` action accepts,
    13.0), or None.  The engine's own search never ends a path in a barred hex, so any hex it reaches is out."""
    from core.rules import movement

    opts = opts or movement.MoveOptions()
    try:
        paths = movement.reachable_paths(state, side, [uid], opts, max_nodes=4000)
    except IllegalAction:
        return None
    for lab, p in sorted(paths.items(), key=lambda kv: (len(kv[1]), kv[0])):
        try:
            movement.trace(state, side, [uid], [Hex.parse(x) for x in p], opts)
        except IllegalAction:
            continue
        return list(p)
    return None


def must_leave(eng: Engine, free: list[UnitState], limit: int | None = None) -> list[str]:
    """30.0 in a Movement Phase: the units among ``free`` (those still free to move, 13.1) that stand on or east of
    the line and can leave it (the first ``limit`` of them); the phase may not end while any is left."""
    st = eng.state
    out = []
    for u in free:
        if limit is not None and len(out) >= limit:
            break
        if barred(st, u.side, u.loc) and way_out(st, u.side, u.id) is not None:
            out.append(u.id)
    return out


def first_must_leave(eng: Engine, free: list[UnitState]) -> str | None:
    """The first unit of :func:`must_leave` (one search per unit until one is found)."""
    found = must_leave(eng, free, limit=1)
    return found[0] if found else None


@at_phase_end
def phase_end(eng: Engine, phase: int) -> None:
    """30.0 (R-30-EAST): at the end of the limited side's own Movement Phase, a unit of its still on or east of the
    line (one that could not leave: every one that could had to) is eliminated (8.3)."""
    from core import sequence

    st = eng.state
    if phase not in sequence.MOVEMENT_PHASE_NUMBERS:
        return
    side = eng.phasing_side()
    if side is None or east_column(st, side) is None:
        return
    from core.rules import combat

    for u in stranded(st, side):
        why = f"it could not leave {u.loc}, on or east of Sxx34, in its Movement Phase ({RULE}; R-30-EAST)"
        eng.say(f"{u.id} is still in {u.loc} at the end of the {side} Movement Phase: eliminated ({RULE}; R-30-EAST)")
        combat.eliminate(eng, u.id, why)

