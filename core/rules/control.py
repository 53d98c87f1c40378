"""2.2.2 Hex control.

"Hex Control: Is determined by scenario instructions. Thereafter, a ground combat unit entering a hex transfers
control to its player until an opposing unit enters the hex."

* The scenario's instructions are data: its ``control`` lines (``scenarios/*.toml``, kept in the state's
  ``vars["control_rules"]``) name an area of ``resources/maps/areas.toml``, ``all``, ``map:X`` or ``FNA``; the first
  line whose area holds a hex gives its control at the start (:func:`initial`).
* ``state.control`` records, per hex, the side that last entered it with a ground combat unit when that differs
  from the start (:func:`enter`), so that a hex stays controlled after its units leave.  It is written at the two
  moments a ground combat unit enters a hex: along a move's or retreat's path (:func:`enter` from the movement and
  combat chapters) and, after every action, for each hex a side's ground combat units occupy (:func:`record_occupation`,
  an ``AFTER_ACTION`` rule like 17.1's), which covers set-up, reinforcements, landings, airdrops and advances.
* A hex that ground combat units of one side occupy is controlled by that side (they entered it, and no opposing
  unit can have entered it since); so :func:`controller` is right even between an entry and the end of the action.

Vichy French units that have not joined the Allies control nothing for either player (22.7; R-VIC-VICHY).
Supply units, air units, fleets and markers are not ground combat units and transfer no control.
"""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any, Iterable

from core.counters import all_counters
from core.engine import AFTER_ACTION, GAME_START, Engine
from core.resources import resource
from core.state import GameState, UnitState

AREAS_FILE = resource("maps", "areas.toml")


class ControlDataError(ValueError):
    """A control instruction or area that cannot be read (names the file and field)."""


@cache
def _areas() -> dict[str, dict[str, Any]]:
    with AREAS_FILE.open("rb") as f:
        data = tomllib.load(f)
    areas = data.get("areas")
    if not isinstance(areas, dict):
        raise ControlDataError(f"{AREAS_FILE}: no [areas] table")
    for name, a in areas.items():
        cols = a.get("columns")
        if not isinstance(cols, dict) or not all(isinstance(v, list) and len(v) == 2 for v in cols.values()):
            raise ControlDataError(f"{AREAS_FILE}: areas.{name}.columns must map a map letter to [first, last]")
        if a.get("source") not in ("rules", "reconstructed"):
            raise ControlDataError(f"{AREAS_FILE}: areas.{name}.source must be 'rules' or 'reconstructed'")
    return areas


def is_map_hex(loc: str) -> bool:
    """A hex label (``C2331``), not an off-map box, card or track."""
    return len(loc) == 5 and loc[1:].isdigit()


def in_area(label: str, area: str) -> bool:
    """Whether hex ``label`` lies in the named area of a control instruction (2.2.2)."""
    if area == "all":
        return True
    if area.startswith("map:"):
        return label[:1] == area[4:]
    from core import mapdata

    if area == "FNA":
        return mapdata.load().in_fna(label)
    a = _areas().get(area)
    if a is None:
        raise ControlDataError(f"no area {area!r} in {AREAS_FILE} (a scenario's control line names it, 2.2.2)")
    span = a["columns"].get(label[:1])
    if span is None or not span[0] <= int(label[3:5]) <= span[1]:
        return False
    return not (a.get("exclude_fna") and mapdata.load().in_fna(label))


@cache
def _initial(rules: tuple[tuple[str, str], ...], label: str) -> str | None:
    for side, area in rules:
        if in_area(label, area):
            return side
    return None


def _rules(state: GameState) -> tuple[tuple[str, str], ...]:
    try:
        return tuple((str(r["side"]), str(r["area"])) for r in state.vars.get("control_rules", ()))
    except (KeyError, TypeError) as exc:
        raise ControlDataError(f"the game's control_rules (from the scenario's control lines) are malformed: {exc}") \
            from None


def initial(state: GameState, label: str) -> str | None:
    """The side the scenario's instructions give hex ``label`` at the start (2.2.2), or None (no instruction holds
    it: e.g. the Libyan hexes of Map L in Run for Tunis).  An off-map box is nobody's at the start: the instructions
    speak of hexes (a box is controlled by the side whose ground combat units are in it, :func:`occupant`)."""
    if not is_map_hex(label):
        return None
    return _initial(_rules(state), label)


@cache
def _kind(uid: str) -> str:
    """"ground" (a ground combat unit), "vf" (a Vichy French one: its flags decide) or "" (no control)."""
    from core.rules import fna, offmap

    c = all_counters().get(offmap.base_id(uid))
    if c is None or c.kind != "combat":
        return ""
    return "vf" if fna.is_vf(uid) else "ground"


def transfers_control(u: UnitState) -> bool:
    """2.2.2: a ground combat unit (not a supply unit, air unit, fleet or marker); a Vichy French unit that has not
    joined the Allies controls nothing (22.7, R-VIC-VICHY)."""
    k = _kind(u.id)
    return k == "ground" or (k == "vf" and u.flags.get("vichy") == "joined")


def occupant(state: GameState, label: str) -> str | None:
    """The side whose ground combat units alone occupy ``label``, if any."""
    sides = {u.side for u in state.units_at(label) if transfers_control(u)}
    return sides.pop() if len(sides) == 1 else None


def controller(state: GameState, label: str) -> str | None:
    """2.2.2: who controls hex ``label`` now: the side occupying it with ground combat units, else the side that
    last entered it (``state.control``), else the scenario's instructions (``VF`` for French North Africa where a
    scenario says so), else nobody."""
    occ = occupant(state, label)
    if occ is not None:
        return occ
    rec = state.control.get(label)
    return rec if rec is not None else initial(state, label)


def controls(state: GameState, side: str, label: str) -> bool:
    return controller(state, label) == side


def enter(state: GameState, side: str, labels: Iterable[str]) -> None:
    """2.2.2: ground combat units of ``side`` entered ``labels`` (in order): each becomes ``side``'s until an opposing
    unit enters it.  Only the difference from the start is kept in ``state.control``."""
    rules = _rules(state)
    for lab in labels:
        if not is_map_hex(lab):
            continue                    # an off-map box: controlled while occupied (occupant), nothing recorded
        if _initial(rules, lab) == side:
            if lab in state.control:
                del state.control[lab]
        elif state.control.get(lab) != side:
            state.control[lab] = side


def record_occupation(eng: Engine) -> bool:
    """After every action: each hex occupied by one side's ground combat units is that side's (2.2.2).  Returns
    False: it places no unit."""
    st = eng.state
    for side, hexes in _occupied(st):
        enter(st, side, hexes)
    return False


def _occupied(st: GameState) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Per side, the hexes its ground combat units alone occupy (sorted)."""
    by_hex: dict[str, set[str]] = {}
    for u in st.units.values():
        loc = u.loc
        if is_map_hex(loc) and transfers_control(u):
            by_hex.setdefault(loc, set()).add(u.side)
    out: dict[str, list[str]] = {}
    for lab in sorted(by_hex):
        if len(sides := by_hex[lab]) == 1:
            out.setdefault(next(iter(sides)), []).append(lab)
    return tuple((side, tuple(h)) for side, h in sorted(out.items()))


AFTER_ACTION.append(record_occupation)
GAME_START.append(record_occupation)
