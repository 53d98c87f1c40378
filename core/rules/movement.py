"""13.0 Movement: the VI.3 movement procedure, reaction (13.5), reserve (13.6),
overrun (13.4), truck lift (13.7), road march / forced march / night movement.

A stack moves with one free-form action::

    Action(kind="move", side, args={"units": [ids], "path": [hex labels],
                                    "night": bool, "road_march": bool, "forced_march": bool,
                                    "pickup": {label: [ids]}, "drop": {label: [ids]},
                                    "lift": bool, "reserve": bool})

``path`` lists the hexes entered in order (it may start with the stack's own
hex).  Every step is validated with the MP costs of :mod:`core.rules.tec`
(13.3) and the rules of 11.4, 11.5, 13.2.x, 13.4, 15.3, 15.4, 15.6 and 16.1; a
refusal cites the rule and leaves the state untouched.  Entering an enemy hex is
an overrun (13.4): the procedure pushes the combat engineer's ``resolve_combat``
with ``{"attackers", "hex", "form": "overrun"}`` and continues the rest of the
path in :meth:`MovementProcedure.resume` when the hex was cleared (13.4.4).

Other free kinds of the movement decision: ``create_base`` (12.2.3),
``emergency_supply`` (12.7), ``destroy_supply`` (12.2.5), ``transfer`` (12.2.3),
``reserve`` (13.6).

Other chapters add their own Movement-Phase actions (4.1 VI.3 b, c: naval and air missions) with
:func:`movement_action`, and may sample options for the decision with :func:`movement_options`; the
movement decision lists their kinds as free kinds and hands their actions to them.
"""

from __future__ import annotations

import math

import msgspec
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Callable

from core import sequence
from core.decisions import Action, Decision, IllegalAction, Option, other
from core.engine import PROCEDURES, QUERIES, Engine, Procedure, on_step, procedure
from core.hexgrid import Hex, HexLabelError
from core.rules import air, control, east_limit, offmap, raiders, supply, tec, zoc
from core.rules.status import (
    counter_of, disrupt, has_real_cf, hex_of, is_combat, is_desert_raider, is_motorized, is_rp, is_track_marker,
    morale_check, movement_allowance, nonzero_factor, printed_ma, rma, supply_kind, tec_class,
)
from core.state import Frame, GameState, UnitState

E = tec.EIGHTH
WADI = frozenset({"wadi"})  # 16.4 guiding
OVERRUN_COST = 2 * E      # 13.4
EZOC_COST = 1 * E         # 11.4 a)

#: Movement-Phase actions registered by other chapters (4.1 VI.3 b-e): kind -> handler(eng, frame, action).
#: A handler raises ``IllegalAction`` (state untouched) or applies the action; it may push a procedure
#: (e.g. an enemy strike on a fleet before its mission, 20.4.2), which returns to the Movement Phase.
MOVEMENT_ACTIONS: dict[str, Callable[[Engine, Frame, Action], None]] = {}
#: Option samplers for the movement decision: fn(eng, frame, side) -> options (each must be accepted).
MOVEMENT_OPTIONS: list[Callable[[Engine, Frame, str], list[Option]]] = []


def movement_action(kind: str) -> Callable[[Callable[[Engine, Frame, Action], None]], Callable[[Engine, Frame, Action], None]]:
    """Decorator: handle Movement-Phase action ``kind`` (4.1 VI.3) in the chapter that owns it."""

    def wrap(fn: Callable[[Engine, Frame, Action], None]) -> Callable[[Engine, Frame, Action], None]:
        MOVEMENT_ACTIONS[kind] = fn
        return fn

    return wrap


def movement_options(fn: Callable[[Engine, Frame, str], list[Option]]) -> Callable[[Engine, Frame, str], list[Option]]:
    """Decorator: add sampled options to the movement decision (4.1 VI.3)."""
    MOVEMENT_OPTIONS.append(fn)
    return fn
RECON_EXTRA = 2 * E       # 15.3
ROAD_MARCH = 7            # 13.2.3


def interdiction_extra(area: dict[str, dict[str, int]], cls: str, label: str) -> int:
    """19.6: the eighths a unit of TEC class ``cls`` pays on top of the terrain to enter ``label``, from the
    enemy's interdiction ``area`` (:func:`core.rules.air.interdiction_area`; hexside costs unaffected)."""
    costs = area.get(label)
    return costs.get(cls, 0) * E if costs else 0


# =========================================================================== unit facts for movement
def parse_hex(label: Any, rule: str = "13.1") -> Hex:
    try:
        return Hex.parse(str(label))
    except HexLabelError as exc:
        raise IllegalAction(str(exc), rule) from None


def is_hq_unit(u: UnitState) -> bool:
    return counter_of(u).hq and not u.disrupted          # 8.2 d): disrupted units lose special functions


def recon_strength(units: list[UnitState]) -> int:
    """15.3: total CF of undisrupted recon units."""
    return sum(counter_of(u).values(u.steps)[0] for u in units
               if not u.disrupted and (counter_of(u).cf_flag == "R") and is_combat(u))


def _events() -> Any:
    from core.rules import events
    return events


def check_not_held(st: GameState, u: UnitState) -> None:
    """23.2 AXC-1 Important / AXC-8: a Fifth Army division not yet released does not move (by land, rail or sea)."""
    if _events().fifth_army_held(st, u.id):
        raise IllegalAction(f"{counter_of(u).name} is a Fifth Army division: it may not move until AXC-8 (Fifth Army) "
                            "releases it (23.2 AXC-1 Important, AXC-8)", "23.2 AXC-8")


def _fna() -> Any:
    from core.rules import fna     # (fna imports this module)
    return fna


def enemy_units_at(state: GameState, h: Hex, side: str) -> list[UnitState]:
    """The enemy units in ``h``; the railhead and road markers are not units (18.2.1, 18.3: ``is_track_marker``)."""
    hostile = _fna().hostile        # neutral Vichy French are enemies of the Allies (R-VICHY-NEUTRAL)
    return [u for u in state.units_at(h.label) if hostile(u, side) and not is_track_marker(u)]


def is_surprised(state: GameState, side: str) -> bool:
    """6.2 / WE-22: with surprise in effect the 2nd player suffers its effects."""
    return bool(state.surprise) and side != state.first_player


def hq_reaction_bonus(u: UnitState, hq: bool) -> int:
    """15.6: "Add two MP to the RMA during any reaction movement (13.2.1). This also applies when determining
    enemy reaction capability during overrun (13.4.3)" -- an RMA in MP is a motorised unit's (13.2.1)."""
    return 2 if hq and is_motorized(u) else 0


def rolls_for_rma(state: GameState, u: UnitState) -> bool:
    """6.2: "The 2nd player rolls 1d6 to determine the MA of reacting Mot units not in reserve status"."""
    return is_surprised(state, u.side) and is_motorized(u) and not u.reserve


def reaction_allowance(eng: Engine, u: UnitState, hq: bool) -> int:
    """13.2.1 RMA (+2 with an HQ, 15.6); 6.2: a surprised motorised unit not in reserve rolls 1d6."""
    base = rma(u)
    if rolls_for_rma(eng.state, u):
        base = eng.roll(1, f"{counter_of(u).name} RMA under surprise (6.2)")[0]
    return base + hq_reaction_bonus(u, hq)


# =========================================================================== path tracing
@dataclass
class MoveOptions:
    night: bool = False
    road_march: bool = False
    forced: dict[str, int] = field(default_factory=dict)   # uid -> forced march bonus (13.2.4)
    reaction: bool = False
    lift: bool = False
    reserve_reaction: bool = False


@dataclass
class Plan:
    """The outcome of tracing a path: per-unit MP spent, where each stops, and any overrun."""

    spent: dict[str, int]
    loc: dict[str, str]
    hexes: dict[str, int]                  # hexes entered per unit (reaction of non-motorised units)
    overrun_at: int | None = None          # index in path of the first enemy hex
    entered_ezoc: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    route_flags: dict[str, str] = field(default_factory=dict)


def allowance(state: GameState, u: UnitState, opts: MoveOptions, rma_value: int | None = None) -> int:
    """MP (eighths) ``u`` may spend in this move (13.2, 13.2.1-13.2.4)."""
    if opts.reaction:
        if not is_motorized(u):
            return 10 ** 6          # 13.2.1: limited to one hex, checked by hex count
        return (rma_value if rma_value is not None else rma(u)) * E
    ma = movement_allowance(u)
    if opts.road_march:
        ma += ROAD_MARCH
    if u.id in opts.forced:
        ma = printed_ma(u) + opts.forced[u.id]
    return ma * E


def _ezoc_for(state: GameState, u: UnitState, stack_motorized: bool, gm: tec.GroundMap,
              cache: dict[bool, dict[Hex, list[str]]]) -> dict[Hex, list[str]]:
    """11.2: motorised units, and MSU moving with motorised units, ignore non-motorised ZOC."""
    mot = is_motorized(u) and (supply_kind(u) != "msu" or stack_motorized) or (supply_kind(u) and stack_motorized)
    mot = bool(mot)
    if mot not in cache:
        cache[mot] = zoc.enemy_zoc(state, other(u.side), motorized=mot, gm=gm)
    return cache[mot]


def trace(state: GameState, side: str, units: list[str], path: list[Hex], opts: MoveOptions,
          *, spent0: dict[str, int] | None = None, gm: tec.GroundMap | None = None,
          pickup: dict[Hex, list[str]] | None = None, drop: dict[Hex, list[str]] | None = None,
          rma_values: dict[str, int] | None = None, started_in_ezoc: set[str] | None = None,
          ezoc_cache: dict[bool, dict[Hex, list[str]]] | None = None) -> Plan:
    """Walk ``units`` along ``path`` and return the plan, or raise IllegalAction citing the rule.

    Stops (without error) at the first enemy-occupied hex, reported as ``overrun_at``:
    the caller validates and resolves the overrun (13.4).  ``ezoc_cache``: the enemy ZOC maps of this state,
    shared by several traces on one unchanged state (the sampled moves of one decision).
    """
    gm = gm or tec.map_for(state)
    pickup = pickup or {}
    drop = drop or {}
    spent = dict(spent0 or {})
    moving = [state.units[i] for i in units]
    for u in moving:
        spent.setdefault(u.id, 0)
    start = hex_of(moving[0])
    assert start is not None
    plan = Plan(spent=spent, loc={u.id: u.loc for u in moving}, hexes={u.id: 0 for u in moving})
    route: dict[str, str] = {u.id: "open" for u in moving}
    cache: dict[bool, dict[Hex, list[str]]] = {} if ezoc_cache is None else ezoc_cache
    hq = any(is_hq_unit(u) for u in moving)
    in_ezoc = set(started_in_ezoc or ())
    if started_in_ezoc is None:
        for u in moving:
            if start in _ezoc_for(state, u, _stack_motorized(moving), gm, cache):
                in_ezoc.add(u.id)
    lines = supply.supply_lines(state, side, gm) if opts.road_march else None
    guided = raiders.guided_hexes(state, side)
    interdicted = air.interdiction_area(state, side)
    cur = start
    maps = state.vars.get("maps")                 # the scenario's Maps in Play (R-MAPS-IN-PLAY)
    fna_out = offmap.fna_hexes_out_of_play(state)  # 22.7: Algeria and Tunisia until ALC-23 (R-FNA-HEXES)
    must_stop: set[str] = set()
    caps: dict[str, int] = {}                  # per unit: its allowance and EZOC map do not change along the path
    ez_of: dict[tuple[str, bool], dict[Hex, list[str]]] = {}
    stack_mot = _stack_motorized(moving)       # both change only where units are picked up or dropped off
    moving_real_cf = any(has_real_cf(u) for u in moving)
    facts: dict[str, tuple] = {}               # per unit: class, cost per kind of step, carried, motorised, combat, ignores
    graph, edges_of = gm.adjacency(), gm.edges  # the step tables the search reads (tec.GroundMap.edges)
    cur_id = tec.hex_id(cur)
    for i, nxt in enumerate(path):
        nxt_id = tec.hex_id(nxt)
        kind = None                            # the kind of step cur -> nxt: None if nxt is not an on-grid neighbour
        for e in graph.get(cur_id) or edges_of(cur_id):
            if e[0] == nxt_id:
                kind = e[2]
                break
        if kind is None and cur.distance(nxt) != 1:
            raise IllegalAction(f"{nxt.label} is not adjacent to {cur.label}: a path is a line of contiguous hexes", "13.1")
        if not moving:
            raise IllegalAction(f"no unit is left moving at {cur.label} (every unit was dropped off)", "13.1")
        if side == "Allied" and any(_fna().neutral_vf(v) for v in state.units_at(nxt.label)):
            raise IllegalAction(f"{nxt.label} holds neutral Vichy French units: Allied units may not enter, pass through "
                                "or overrun their hex; attack them in the Combat Phase after the Vichy French Reaction "
                                "Table (22.7 Important; 23.1 ALC-21 i; R-VICHY-NEUTRAL)", "23.1 ALC-21 i")
        if any(not is_rp(v) for v in enemy_units_at(state, nxt, side)):
            plan.overrun_at = i                        # 17.1: a hex of enemy RP alone is entered, not overrun
            break
        if kind is None:                       # adjacent but not an on-grid neighbour (GroundMap.on_grid)
            raise IllegalAction(f"{nxt.label} is off the hex grid; units may not leave it except by off-map movement", "13.8")
        if maps and not offmap.hex_in_play(maps, nxt):      # 13.1: a map the scenario does not use is off the grid
            raise IllegalAction(f"{offmap.map_refusal(state, nxt.label)}: units may not move off the hex grid unless "
                                "using off-map movement (13.1; R-MAPS-IN-PLAY)", "13.1")
        if fna_out and (why := offmap.fna_refusal(state, nxt)):
            raise IllegalAction(f"{why}: units may not enter it (R-FNA-HEXES)", "22.7")
        real_cf_present = moving_real_cf or any(has_real_cf(o) for o in state.units_at(nxt.label) if o.side == side)
        for u in moving:
            if u.id in must_stop:
                raise IllegalAction(f"{counter_of(u).name} entered an enemy ZOC at {cur.label} and must stop "
                                    "(unless overrunning)", "11.4")
            f = facts.get(u.id)
            if f is None:
                cls = tec_class(state, u)
                f = facts[u.id] = (cls, gm.type_costs(cls), _carried(u, moving, opts), is_motorized(u), is_combat(u),
                                   counter_of(u).sf or is_desert_raider(state, u))   # 15.4, 16.1: ignore all EZOC
            cls, costs, carried, motorized, combat, ignores = f
            if carried:
                cost, rt = 0, "road"
            else:
                cost, rt = costs[kind]                          # = tec.step_cost(gm, cls, cur, nxt), 13.3 / 21.0
                if guided and (cur.label in guided or nxt.label in guided):
                    cost, rt = tec.step_cost_ignoring(gm, cls, cur, nxt, WADI)     # 16.4 guiding
                if cost is None:
                    raise IllegalAction(f"{counter_of(u).name} ({cls}) may not enter {nxt.label} from {cur.label}: "
                                        "prohibited terrain", "13.3")
                if opts.lift and supply_kind(u) == "msu" and _carries_division(moving):
                    cost *= 2                                   # 13.7 Important: one MSU carrying a division
            if opts.road_march and rt != "road" and not carried:
                raise IllegalAction(f"road march moves only along roads; {cur.label}->{nxt.label} is not a road", "13.2.3")
            if opts.road_march and lines is not None and nxt not in lines.los and combat:
                raise IllegalAction(f"road march may not enter {nxt.label}, where {counter_of(u).name} would be OGS", "13.2.3")
            # 13.3: a motorised unit leaving a road or track loses any fraction of an MP
            if motorized and route[u.id] in ("road", "track") and rt == "open" and spent[u.id] % E:
                spent[u.id] += E - spent[u.id] % E
            route[u.id] = rt
            ez = ez_of.get((u.id, stack_mot))
            if ez is None:
                ez = ez_of[(u.id, stack_mot)] = _ezoc_for(state, u, stack_mot, gm, cache)
            extra = 0
            if not ignores and cur in ez and (u.id in in_ezoc) and _recon_superior(state, side, moving, ez[cur]):
                extra += RECON_EXTRA                               # 15.3 leaving a recon-superior ZOC
            if not ignores and nxt in ez:
                if u.id in in_ezoc and not opts.night and cur in ez:
                    raise IllegalAction(f"{counter_of(u).name} may not move directly from one enemy ZOC ({cur.label}) into another "
                                        f"({nxt.label}) except by night movement", "11.4")
                if combat and not has_real_cf(u) and not real_cf_present:
                    raise IllegalAction(f"{counter_of(u).name} has a parenthesised or zero CF and may enter an enemy ZOC only with a "
                                        "unit with a real combat factor", "11.4")
                if opts.reaction and not opts.reserve_reaction:
                    for eid in ez[nxt]:
                        eh = hex_of(state.units[eid])
                        if eh is not None and not any(o.side == side and hex_of(o) in eh.neighbours()
                                                      and o.id not in units for o in state.units.values()):
                            raise IllegalAction(f"a reacting unit may not enter the ZOC of {counter_of(state.units[eid]).name}, "
                                                "which is not adjacent to a friendly unit", "13.5")
                if opts.night:
                    cost *= 2                                       # 11.5: double cost in an EZOC hex
                if not hq:
                    extra += EZOC_COST                              # 11.4 a) (waived by an HQ, 15.6)
                if _recon_superior(state, side, moving, ez[nxt]):
                    extra += RECON_EXTRA                            # 15.3: +3 in total
                plan.entered_ezoc.add(u.id)
                if not opts.night:
                    must_stop.add(u.id)
                in_ezoc.add(u.id)
            else:
                in_ezoc.discard(u.id)
            if opts.road_march and any(e for e in enemy_units_at_adjacent(state, nxt, side, gm)):
                raise IllegalAction(f"road march may not enter {nxt.label}, adjacent to an enemy unit", "13.2.3")
            if not carried:
                extra += interdiction_extra(interdicted, cls, nxt.label)      # 19.6 Air Interdiction Chart
            spent[u.id] += cost + extra
            plan.hexes[u.id] += 1
            if opts.reaction and not motorized and plan.hexes[u.id] > 1:
                raise IllegalAction(f"{counter_of(u).name} is not motorised and may react at most one hex", "13.2.1")
            cap = caps.get(u.id)
            if cap is None:
                cap = caps[u.id] = allowance(state, u, opts, (rma_values or {}).get(u.id))
            if spent[u.id] > cap:
                raise IllegalAction(f"{counter_of(u).name} needs {tec.mp(spent[u.id]):g} MP to reach {nxt.label} but has {tec.mp(cap):g}", "13.2")
            plan.loc[u.id] = nxt.label
        # pick-ups and drop-offs at the hex just entered (13.1)
        for pid in pickup.get(nxt, []):
            pu = state.units.get(pid)
            if pu is None or pu.side != side or pu.loc != nxt.label:
                raise IllegalAction(f"{pid} is not a {side} unit waiting in {nxt.label} to be picked up", "13.1")
            moving.append(pu)
            spent.setdefault(pid, 0)
            plan.loc[pid] = nxt.label
            plan.hexes[pid] = 0
            route[pid] = "open"
            if nxt in _ezoc_for(state, pu, True, gm, cache):
                in_ezoc.add(pid)
        dropped = set(drop.get(nxt, []))
        if dropped:
            moving = [u for u in moving if u.id not in dropped]
        if dropped or pickup.get(nxt):
            stack_mot = _stack_motorized(moving)
            moving_real_cf = any(has_real_cf(u) for u in moving)
        cur, cur_id = nxt, nxt_id
    plan.route_flags = route
    plan.notes.append(",".join(sorted(must_stop)))
    # 30.0: no move may end on or east of Sxx34 (the declared path's end when it overruns on the way, 13.4.4)
    ends = sorted(set(plan.loc.values())) if plan.overrun_at is None else [path[-1].label]
    for lab in ends:
        east_limit.check_end(state, side, lab)
    return plan


def enemy_units_at_adjacent(state: GameState, h: Hex, side: str, gm: tec.GroundMap) -> list[UnitState]:
    """13.2.3 d): enemy units adjacent to ``h`` unless the hexside between is impassable."""
    out = []
    for n in tec.nbrs(h):
        if gm.side_terrain(h, n) & tec.HEXSIDE_BLOCK_ALL:
            continue
        out.extend(u for u in state.units_at(n.label) if _fna().hostile(u, side) and is_combat(u))
    return out


def _stack_motorized(moving: list[UnitState]) -> bool:
    return any(is_motorized(u) and is_combat(u) for u in moving)


def _carried(u: UnitState, moving: list[UnitState], opts: MoveOptions) -> bool:
    """13.7 truck lift: dumps and RP always ride an MSU; foot units when ``lift`` is set."""
    c = counter_of(u)
    if supply_kind(u) == "dump" or c.unit_type == "refit point":
        return True
    return opts.lift and is_combat(u) and not is_motorized(u)


def _carries_division(moving: list[UnitState]) -> bool:
    divs = sum(1 for u in moving if counter_of(u).divisional and not is_motorized(u))
    msus = sum(1 for u in moving if supply_kind(u) == "msu")
    return divs > 0 and msus < 2 * divs


def _recon_superior(state: GameState, side: str, moving: list[UnitState], enemy_ids: list[str]) -> bool:
    """15.3: the enemy stack(s) exerting the ZOC have greater undisrupted recon CF."""
    hexes = {state.units[i].loc for i in enemy_ids}
    enemy = [u for u in state.units.values() if u.loc in hexes and u.side != side]
    return recon_strength(enemy) > recon_strength(moving)


# =========================================================================== validation of a move action
def _labels(v: Any) -> list[str]:
    if not isinstance(v, (list, tuple)):
        raise IllegalAction("path must be a list of hex labels", "13.1")
    return [str(x) for x in v]


def check_lift(state: GameState, units: list[UnitState], lift: bool = False) -> None:
    """13.7: one MSU carries one foot unit, two RP or one dump (a division needs two MSU or double cost).
    15.4 Ground Transport: "an SF unit may be carried by any motorized unit as though the motorized unit was an
    MSU"; with ``lift`` the foot combat units are carried, one per MSU left, SF also one per motorised combat unit."""
    msus = sum(1 for u in units if supply_kind(u) == "msu")
    dumps = sum(1 for u in units if supply_kind(u) == "dump")
    rps = sum(1 for u in units if counter_of(u).unit_type == "refit point")
    need = dumps + math.ceil(rps / 2)
    if need > msus:
        raise IllegalAction(f"{dumps} dump(s) and {rps} RP need {need} MSU to move; the stack has {msus}", "13.7")
    if any(supply_kind(u) == "base" for u in units):
        raise IllegalAction("bases do not move", "12.2.3")
    if not lift:
        return
    foot = [u for u in units if is_combat(u) and not is_motorized(u)]
    sf = sum(1 for u in foot if counter_of(u).sf)
    others = len(foot) - sf
    free = msus - need
    if others > free:
        raise IllegalAction(f"{others} foot unit(s) need {others} MSU to be trucked; the stack has {max(free, 0)} free",
                            "13.7")
    carriers = free - others + sum(1 for u in units if is_combat(u) and is_motorized(u))
    if sf > carriers:
        raise IllegalAction(f"{sf} special forces unit(s) need an MSU or a motorised unit each to be carried; the stack "
                            f"has {max(carriers, 0)}", "15.4")


@dataclass
class MoveRequest:
    units: list[str]
    path: list[Hex]
    opts: MoveOptions
    pickup: dict[Hex, list[str]]
    drop: dict[Hex, list[str]]
    reserve: bool = False


def parse_move(eng: Engine, frame: Frame, action: Action, reaction: bool) -> MoveRequest:
    st = eng.state
    a = action.args
    ids = a.get("units")
    if not isinstance(ids, list) or not ids:
        raise IllegalAction("a move names the units that move together (args.units)", "13.1")
    ids = [str(i) for i in ids]
    if len(set(ids)) != len(ids):
        raise IllegalAction("a unit is listed twice in the moving stack", "13.1")
    units = []
    for i in ids:
        u = st.units.get(i)
        if u is None or u.side != action.side:
            raise IllegalAction(f"{i} is not a {action.side} unit", "13.0")
        if _fna().neutral_vf(u):
            raise IllegalAction(f"{counter_of(u).name} is a neutral Vichy French unit: VF units may not move (except as "
                                "a result of combat) until the Vichy Accord (23.1 ALC-21 i)", "23.1 ALC-21 i")
        if _fna().inactive_vf(st, u):
            raise IllegalAction(f"{counter_of(u).name} is a Vichy French unit: not active until ALC-23 (Operation Torch "
                                "Invasion) is played (23.1 ALC-3 Important)", "23.1 ALC-3")
        check_not_held(st, u)
        if hex_of(u) is None and not (a.get("enter") and u.loc == a.get("enter")):
            raise IllegalAction(f"{counter_of(u).name} is not on the hex grid ({u.loc}); to enter it name the box in "
                                "args.enter (13.8, 22.0)", "13.8")
        if i in frame.data.get("moved", {}) and i not in frame.data.get("continue", []):
            raise IllegalAction(f"{counter_of(u).name} has already moved this phase; each stack completes its movement "
                                "before another moves", "13.1")
        if u.captured:
            raise IllegalAction("captured supply may not be moved until its marker is removed", "12.2.7")
        if counter_of(u).kind not in ("combat", "supply") and counter_of(u).unit_type != "refit point":
            raise IllegalAction(f"{counter_of(u).name} is not a ground unit", "13.0")
        units.append(u)
    locs = {u.loc for u in units}
    if len(locs) != 1:
        raise IllegalAction("the units of a moving stack must start in one hex (pick others up on the way)", "13.1")
    path = [parse_hex(x) for x in _labels(a.get("path", []))]
    start = hex_of(units[0])
    if path and path[0] == start:
        path = path[1:]
    if not path and not a.get("reserve") and not a.get("exit"):
        raise IllegalAction("the path is empty: name the hexes entered", "13.1")
    if reaction and a.get("reserve"):
        raise IllegalAction("a unit enters reserve status during a friendly Movement Phase, not while reacting", "13.6")
    if reaction and (a.get("lift") or a.get("enter")):
        raise IllegalAction("transport and entering the map take place only during a friendly Movement Phase", "13.7")
    opts = MoveOptions(night=bool(a.get("night")), road_march=bool(a.get("road_march")), reaction=reaction,
                       lift=bool(a.get("lift")))
    if a.get("forced_march"):
        opts.forced = {}
    pickup = {parse_hex(k): [str(x) for x in v] for k, v in (a.get("pickup") or {}).items()}
    drop = {parse_hex(k): [str(x) for x in v] for k, v in (a.get("drop") or {}).items()}
    for hx, lst in pickup.items():
        for pid in lst:
            if pid in frame.data.get("moved", {}):
                pu = st.units.get(pid)
                # 13.7 c): a transported unit may move up to its RMA (one hex on foot) before being picked up
                if (pu is None or is_motorized(pu) or frame.data.get("hexes", {}).get(pid, 99) > 1
                        or pid in frame.data.get("lifted", [])):
                    raise IllegalAction(f"{pid} has already moved this phase (more than its RMA before being "
                                        "transported)", "13.7 c)")
    check_lift(st, units + [st.units[p] for lst in pickup.values() for p in lst if p in st.units], opts.lift)
    check_own_movement(units, opts)
    return MoveRequest(units=ids, path=path, opts=opts, pickup=pickup, drop=drop, reserve=bool(a.get("reserve")))


def immobile(u: UnitState) -> bool:
    """R-MA-ZERO: a combat unit whose printed MA is 0 (the garrisons, 15.8: 'Tobruk 3 3 0') does not move by
    itself: 13.2 "A unit's printed MA is the standard number of MP it may use", and 13.2 Important "There is no
    minimum movement"; road march (13.2.3) and forced march (13.2.4) add to an MA it does not have."""
    return is_combat(u) and printed_ma(u) == 0


def check_own_movement(units: list[UnitState], opts: MoveOptions) -> None:
    """R-MA-ZERO (13.2, 13.2.3, 13.2.4, 13.5, 15.8): a unit with a printed MA of 0 may not move, road march, force
    march or react; it may still be carried by a truck lift (13.7: the MSU moves, the carried unit spends nothing)."""
    for u in units:
        if immobile(u) and not _carried(u, units, opts):
            raise IllegalAction(f"{counter_of(u).name} has a printed MA of 0 and may not move, road march, force march "
                                "or react (it may be carried by a truck lift, 13.7)", "13.2")


def check_road_march(st: GameState, units: list[UnitState], reaction: bool, lift: bool = False) -> None:
    """Who may road march at all (13.2.3, 6.2): not in the Reaction Phase, not the surprised 2nd player, no
    disrupted unit, no combat unit that began the phase out of GenS, not starting next to an enemy unit, no unit
    with a printed MA of 0 unless a truck lift carries it (R-MA-ZERO).  The one definition the ``move`` action and the GUI queries (``route``,
    ``reachable``) share."""
    if reaction:
        raise IllegalAction("road march is not available during the Reaction Phase", "13.2.3")
    if is_surprised(st, units[0].side):
        raise IllegalAction("under surprise the 2nd player cannot use road march", "6.2")
    for u in units:
        if immobile(u) and not _carried(u, units, MoveOptions(lift=lift)):
            raise IllegalAction(f"{counter_of(u).name} has a printed MA of 0: there is no MA to increase by seven, "
                                "and it may not road march (R-MA-ZERO)", "13.2.3")
        if u.disrupted:
            raise IllegalAction(f"{counter_of(u).name} is disrupted and may not road march", "13.2.3")
        if u.ogs and is_combat(u):
            raise IllegalAction(f"{counter_of(u).name} did not begin the phase in GenS and may not road march", "13.2.3")
    gm = tec.current_map()
    start = hex_of(units[0])
    if start is not None and enemy_units_at_adjacent(st, start, units[0].side, gm):
        raise IllegalAction("road march may not start adjacent to an enemy unit", "13.2.3")


def check_move_status(eng: Engine, req: MoveRequest) -> None:
    """Status limits on the whole move (8.2, 11.5, 12.5, 13.2.3, 13.2.4, 13.5, 6.2)."""
    st = eng.state
    units = [st.units[i] for i in req.units]
    if req.opts.road_march:
        check_road_march(st, units, req.opts.reaction, req.opts.lift)


# =========================================================================== the movement procedure
def _units_free(eng: Engine, frame: Frame, side: str) -> list[UnitState]:
    moved = frame.data.get("moved", {})
    return [u for u in sorted(eng.state.units_of(side), key=lambda x: x.id)
            if hex_of(u) is not None and u.id not in moved and movement_allowance(u) > 0 and not u.captured
            and (is_combat(u) or supply_kind(u) == "msu") and not _fna().neutral_vf(u)
            and not _fna().inactive_vf(eng.state, u) and not u.flags.get("battle")       # 14.9.1 / 14.9.2: its movement is completed
            and not _events().fifth_army_held(eng.state, u.id)]                             # 23.2 AXC-1 / AXC-8


def spent_destroying(frame: Frame | None, units: list[str]) -> dict[str, int]:
    """12.2.5 1): the eighths each of ``units`` expended this phase destroying supply units ("must expend half its
    movement allowance for each supply unit destroyed"), which its move this phase starts from."""
    costs = frame.data.get("destroy_cost", {}) if frame is not None else {}
    return {i: int(costs[i]) for i in units if i in costs}


def _within_allowance(state: GameState, side: str, uid: str, far: tuple, spent0: dict[str, int], cache: dict) -> tuple:
    """The sampled paths of ``far`` that ``uid`` can still pay for after the MP of ``spent0`` (12.2.5 1); when none
    is left, the three farthest hexes of a fresh search that it can."""
    if not spent0:
        return far

    def fits(p) -> bool:
        try:
            trace(state, side, [uid], [Hex.parse(x) for x in p], MoveOptions(), spent0=spent0,
                  ezoc_cache=cache.setdefault(("trace_ezoc", side), {}))
        except IllegalAction:
            return False
        return True

    out = [(lab, p) for lab, p in far if fits(p)]
    if not out:
        paths = reachable_paths(state, side, [uid], MoveOptions(), max_nodes=300, cache=cache)
        for lab, p in sorted(paths.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            if fits(p):
                out.append((lab, tuple(p)))
                if len(out) == 3:
                    break
    return tuple(out)


def sample_moves(eng: Engine, frame: Frame, side: str, reaction: bool, limit: int = 12) -> list[Option]:
    """A modest sample of legal moves for bots: for a few stacks, a few reachable hexes (a unit that expended MP
    destroying supply units this phase only those it can still pay for, 12.2.5 1)."""
    out: list[Option] = []
    by_hex: dict[str, list[str]] = {}
    for u in _units_free(eng, frame, side):
        if reaction and not reaction_eligible(eng, frame, u):
            continue
        if reaction and is_surprised(eng.state, side) and is_motorized(u) and not u.reserve:
            continue            # 6.2: its RMA is rolled when it moves, so no move can be offered as surely legal
        by_hex.setdefault(u.loc, []).append(u.id)
    cache: dict = {}                    # one state for every search: enemy ZOC and hexes computed once
    for loc in sorted(by_hex)[:4]:
        for uid in by_hex[loc][:2]:
            try:
                far = _sampled_far(eng.state, side, uid, MoveOptions(reaction=reaction), cache)
                far = _within_allowance(eng.state, side, uid, far, spent_destroying(frame, [uid]), cache)
            except IllegalAction:
                continue
            for lab, p in far:
                act = Action(kind="move", side=side, args={"units": [uid], "path": list(p)})
                out.append(Option(action=act, label=f"Move {counter_of(eng.state.units[uid]).name} to {lab}"))
                if len(out) >= limit:
                    return out
    return out


def leave_moves(eng: Engine, frame: Frame, side: str, limit: int = 4) -> list[Option]:
    """30.0: moves out for the first ``limit`` units on or east of Sxx34 that can leave (each the farthest hexes of
    its sampled search, else the engine's shortest way out), so that a player who may not end the phase is offered
    the moves that let him."""
    st = eng.state
    out: list[Option] = []
    if not east_limit.stranded(st, side):
        return out
    cache: dict = {}
    for uid in east_limit.must_leave(eng, _units_free(eng, frame, side), limit):
        try:
            far = [p for _lab, p in _within_allowance(st, side, uid, _sampled_far(st, side, uid, MoveOptions(), cache),
                                                      spent_destroying(frame, [uid]), cache)]
        except IllegalAction:
            far = []
        if not far:
            way = east_limit.way_out(st, side, uid)
            far = [tuple(way)] if way else []
        for p in far[:2]:
            act = Action(kind="move", side=side, args={"units": [uid], "path": list(p)})
            out.append(Option(action=act, label=f"Move {counter_of(st.units[uid]).name} to {p[-1]} (30.0: it must "
                                                f"leave {st.units[uid].loc})"))
    return out


#: search fingerprint -> the three farthest hexes of a sampled move (bounded; see :func:`_search_key`)
_FAR_CACHE: dict[bytes, tuple] = {}
_FAR_CACHE_MAX = 512


def _search_key(state: GameState, side: str, units: list[str], opts: MoveOptions, cache: dict) -> bytes:
    """Everything :func:`reachable_paths` reads, as bytes: the moving units, the options, the enemy units
    (hexes, ZOC, recon), the state vars that change costs or ZOC (forts 18.1, built roads 18.2, raider guides
    16.4, air interdiction 19.6) and the GT and phase (16.4 guides last one phase).  The map is the one in force
    (its identity and cache generation: weather and built roads make another map, :func:`tec.map_for`)."""
    enemy = cache.get(("enemy_key", side))
    if enemy is None:
        enemy = cache[("enemy_key", side)] = msgspec.json.encode(
            [u for u in state.units.values() if _fna().hostile(u, side) and ":" not in u.loc and u.loc != "setup"])
    gm = tec.map_for(state)
    extra = {k: state.vars.get(k) for k in _SEARCH_VARS if k in state.vars}
    return msgspec.json.encode([id(gm), gm._generation, state.gt, state.phase, [state.units[i] for i in units],
                                opts.__dict__, extra, east_limit.east_column(state, side)]) + enemy


#: state vars read (directly or through tec/zoc) by a reachable-hex search
_SEARCH_VARS = ("forts", "roads_built", "guides", "interdiction")


def _sampled_far(state: GameState, side: str, uid: str, opts: MoveOptions, cache: dict) -> tuple:
    """The three farthest (most hexes, then label) reachable hexes of a 300-node search for ``uid``,
    memoised across decisions on the search's inputs (most stacks' searches do not change when another
    stack moves)."""
    key = _search_key(state, side, [uid], opts, cache)
    hit = _FAR_CACHE.get(key)
    if hit is None:
        paths = reachable_paths(state, side, [uid], opts, max_nodes=300, cache=cache)
        hit = tuple((lab, tuple(p)) for lab, p in sorted(paths.items(), key=lambda kv: (-len(kv[1]), kv[0]))[:8])
        if len(_FAR_CACHE) >= _FAR_CACHE_MAX:
            _FAR_CACHE.pop(next(iter(_FAR_CACHE)))
        _FAR_CACHE[key] = hit
    # Friendly positions are not part of the search (nor of its key), yet 13.5 (a reacting unit enters an
    # EZOC only next to a friendly unit) and 11.4 b (a zero or parenthesised CF unit enters an EZOC only
    # with, or into a hex holding, a real-CF unit) depend on them: when either can apply, each candidate is
    # traced against the state as it is, so every offered move is one the `move` action accepts.  Nothing else
    # `trace` checks reads more than the search and its key (the enemy units, neutral Vichy French among them,
    # and the costs), so a unit that neither reacts nor lacks a real CF takes the search's first three.
    u = state.units[uid]
    if not (opts.reaction and not opts.reserve_reaction) and not (is_combat(u) and not has_real_cf(u)):
        return hit[:3]
    out = []
    for lab, p in hit:
        try:
            trace(state, side, [uid], [Hex.parse(x) for x in p], opts, ezoc_cache=cache.setdefault(("trace_ezoc", side), {}))
        except IllegalAction:
            continue
        out.append((lab, p))
        if len(out) == 3:
            break
    return tuple(out)


class _MoveBase(Procedure):
    reaction = False
    rule = "13.0"

    def side(self, eng: Engine, frame: Frame) -> str:
        return frame.data["side"]

    def enter(self, eng: Engine, frame: Frame) -> None:
        step = sequence.STEPS[frame.data["step"]]
        frame.data["side"] = sequence.side_of(step.role, eng.state.initiative, eng.state.first_player)
        frame.data.setdefault("moved", {})

    def apply_move(self, eng: Engine, frame: Frame, action: Action) -> None:
        req = parse_move(eng, frame, action, self.reaction)
        st = eng.state
        if supply.capture_choice(action.args):         # 12.2.7: destroy, not roll, in an overrun of this move
            frame.data["destroy_supply"] = True
        else:
            frame.data.pop("destroy_supply", None)
        if self.reaction:
            for uid in req.units:
                u = st.units[uid]
                if not reaction_eligible(eng, frame, u):
                    raise IllegalAction(f"{counter_of(u).name} may not react: it must begin the Reaction Phase within two "
                                        "hexes of an enemy unit or in reserve, be in GenS and not disrupted", "13.5")
            req.opts.reserve_reaction = all(st.units[i].reserve for i in req.units)
            # 13.6: "It does not make a morale check after reacting" -- the marker itself goes when it moves
            frame.data.setdefault("from_reserve", []).extend(i for i in req.units if st.units[i].reserve)
        check_move_status(eng, req)
        if frame.data.get("phase_started") is None:
            frame.data["phase_started"] = True
        hq = any(is_hq_unit(st.units[i]) for i in req.units)
        rma_values = None
        if self.reaction:
            rma_values = {i: reaction_allowance(eng, st.units[i], hq) for i in req.units}
        if action.args.get("forced_march"):
            for uid in req.units:
                u = st.units[uid]
                if u.ogs or u.disrupted:
                    raise IllegalAction(f"{counter_of(u).name} must be in GenS and undisrupted to force march", "13.2.4")
                gm = tec.current_map()
                if enemy_units_at_adjacent(st, hex_of(u), u.side, gm):
                    raise IllegalAction(f"{counter_of(u).name} starts adjacent to an enemy unit and may not force march", "13.2.4")
            if req.opts.road_march:
                raise IllegalAction("a force-marching unit may not road march", "13.2.4")
            bonus = eng.roll(1, "Forced march (13.2.4)")[0] + 3
            req.opts.forced = {uid: bonus for uid in req.units}
        if req.opts.lift:
            frame.data["pre_lift_moved"] = [p for lst in req.pickup.values() for p in lst
                                            if p in frame.data.get("moved", {})]
        cont = frame.data.setdefault("continue", [])
        spent0 = {i: frame.data["moved"][i] for i in req.units if i in cont and i in frame.data.get("moved", {})}
        for i, cost in spent_destroying(frame, req.units).items():
            spent0.setdefault(i, cost)  # 12.2.5 1): "must expend half its movement allowance for each supply unit destroyed"
        after_lift = [i for i in req.units if i in frame.data.get("after_lift", [])]
        if after_lift and len(req.path) > 1 and not is_motorized(st.units[after_lift[0]]):
            raise IllegalAction(f"{counter_of(st.units[after_lift[0]]).name} was transported and may move no more "
                                "than its RMA (one hex) after being dropped off", "13.7 c)")
        path = req.path
        box = action.args.get("enter")
        if box:
            from core.rules import transport

            if not path:
                raise IllegalAction("name the hex of entry first in the path", "13.8")
            entry = path[0]
            for uid in req.units:
                u = st.units[uid]
                if uid in frame.data.get("moved", {}):
                    raise IllegalAction(f"{counter_of(u).name} has already moved this phase", "13.1")
                if raiders.is_chad(u):
                    raise IllegalAction("the Free French Chad unit enters only at Kufra (oasis_move to "
                                        f"{raiders.KUFRA})", "16.1")
                if box == transport.NRV:
                    from core.rules import offmap, strategic_moves

                    if strategic_moves.returned_this_phase(eng, uid):
                        raise IllegalAction(f"{counter_of(u).name} returned to the NRV from a MET track this phase "
                                            "and moves no further", "22.2.1")
                    why = offmap.nrv_exit_blocked(eng, uid)
                    if why:
                        raise IllegalAction(why, "AXC-15")
                c = transport.entry_cost(str(box), entry.label, tec_class(st, u))
                if req.opts.lift and is_combat(u) and not is_motorized(u):
                    c = 0          # 13.7 truck lift (15.4: SF on a motorised unit): the carrier pays the entry
                if c > allowance(st, u, req.opts):
                    raise IllegalAction(f"{counter_of(u).name} needs {tec.mp(c):g} MP to enter at {entry.label}", "13.8")
                if enemy_units_at(st, entry, u.side):
                    raise IllegalAction(f"the entry hex {entry.label} is occupied by the enemy", "13.8")
                spent0[uid] = c
                u.loc = entry.label
            path = path[1:]
        for i in req.units:
            if i in cont:
                cont.remove(i)
        if not path:
            for uid in req.units:
                east_limit.check_end(st, action.side, st.units[uid].loc, "a unit that stays where it is")   # 30.0
            for uid in req.units:
                frame.data["moved"][uid] = spent0.get(uid, frame.data["moved"].get(uid, 0))
                if req.reserve and not action.args.get("exit"):
                    # 13.6: a stack that stays where it is enters reserve in place, as the ``reserve`` order does
                    u = st.units[uid]
                    enter_reserve(eng, u, frame.data["moved"][uid], uid in frame.data.get("began_in_ezoc", []))
        else:
            self.run_path(eng, frame, req.units, path, req.opts, spent0, req.pickup, req.drop, rma_values,
                          reserve=req.reserve, forced=bool(action.args.get("forced_march")))
        exit_to = action.args.get("exit")
        if exit_to:
            from core.rules import transport

            if frame.data.get("overrun"):
                raise IllegalAction("a stack that overruns on its way may not leave the map in the same move", "13.8")
            for uid in req.units:
                u = st.units[uid]
                c = transport.exit_cost(eng, u, u.loc, str(exit_to))
                spent = frame.data["moved"].get(uid, 0) + c
                if spent > allowance(st, u, req.opts, (rma_values or {}).get(uid)):
                    raise IllegalAction(f"{counter_of(u).name} needs {tec.mp(c):g} more MP to leave the hex grid from "
                                        f"{u.loc}", "13.8")
                frame.data["moved"][uid] = spent
                transport.finish_exit(eng, u, str(exit_to))
        if req.opts.lift and not frame.data.get("overrun"):
            pre_moved = set(frame.data.get("pre_lift_moved", []))
            for uid in [x for lst in req.pickup.values() for x in lst] + req.units:
                u = st.units.get(uid)
                if u is None or is_motorized(u) or not is_combat(u) or uid in frame.data.setdefault("lifted", []):
                    continue
                frame.data["lifted"].append(uid)
                if uid not in pre_moved:
                    frame.data.setdefault("after_lift", []).append(uid)      # 13.7 c): may move its RMA after
                    cont.append(uid)

    def run_path(self, eng: Engine, frame: Frame, units: list[str], path: list[Hex], opts: MoveOptions,
                 spent0: dict[str, int], pickup: dict, drop: dict, rma_values: dict | None, *,
                 reserve: bool = False, forced: bool = False, started_in_ezoc: set[str] | None = None) -> None:
        st = eng.state
        side = st.units[units[0]].side
        plan = trace(st, side, units, path, opts, spent0=spent0, pickup=pickup, drop=drop, rma_values=rma_values,
                     started_in_ezoc=started_in_ezoc)
        stopped_for_overrun = plan.overrun_at is not None
        all_ids = list(plan.loc)
        movers: list[str] = []
        spent: dict[str, int] = {}
        if stopped_for_overrun:
            idx = plan.overrun_at
            movers = [i for i in all_ids if plan.loc[i] == (path[idx - 1].label if idx else st.units[units[0]].loc)
                      and not _dropped_before(drop, path, idx, i)]
            spent = overrun_spent(st, side, movers, path[idx], plan, opts, rma_values)   # refuses before any change
            for later in path[idx + 1:]:                       # the declared path's later overruns, checked now
                if any(not is_rp(v) for v in enemy_units_at(st, later, side)):
                    check_later_overrun(st, side, movers, later)
        from core.rules import refit
        for h in path[:plan.overrun_at]:
            refit.destroy_lone_rp(eng, h.label, side)          # 17.1: RP alone in a hex the movers enter
        control.enter(st, side, _entered_by_ground_combat(st, units, path[:plan.overrun_at], pickup, drop))
        if stopped_for_overrun:
            self.start_overrun(eng, frame, movers, path[idx], plan, opts, path[idx + 1:], rma_values, spent)
            for uid in all_ids:
                if uid not in movers:
                    self.finish_unit(eng, frame, uid, plan.loc[uid], plan.spent[uid], opts, reserve=False)
            return
        hexes = frame.data.setdefault("hexes", {})
        for uid in all_ids:
            if not _carried(st.units[uid], [st.units[i] for i in all_ids], opts):
                hexes[uid] = hexes.get(uid, 0) + plan.hexes.get(uid, 0)
            self.finish_unit(eng, frame, uid, plan.loc[uid], plan.spent[uid], opts,
                             reserve=reserve, entered_ezoc=uid in plan.entered_ezoc)
        self.after_move(eng, frame, all_ids, opts, forced)

    def finish_unit(self, eng: Engine, frame: Frame, uid: str, loc: str, spent: int, opts: MoveOptions,
                    *, reserve: bool, entered_ezoc: bool = False) -> None:
        u = eng.state.units[uid]
        if u.loc != loc:
            u.reserve = False                                  # 13.6: the marker is removed if the unit moves
        u.loc = loc
        frame.data["moved"][uid] = spent
        if u.training_box:
            from core.rules import training

            training.check_untrained(eng, u)                   # 8.5.2: on the map before completing training
        if reserve:
            enter_reserve(eng, u, spent, entered_ezoc or uid in frame.data.get("began_in_ezoc", []))

    def after_move(self, eng: Engine, frame: Frame, ids: list[str], opts: MoveOptions, forced: bool) -> None:
        st = eng.state
        names = ", ".join(counter_of(st.units[i]).name for i in ids)
        cost = ", ".join(f"{counter_of(st.units[i]).name} {tec.mp(frame.data['moved'][i]):g} MP" for i in ids)
        eng.say(f"{names} move to {st.units[ids[0]].loc} ({cost})")
        for i in ids:
            if opts.night:
                disrupt(eng, i, "night movement", "11.5")
            if forced:
                disrupt(eng, i, "forced march", "13.2.4")

    # -- overrun (13.4) ------------------------------------------------------------
    def start_overrun(self, eng: Engine, frame: Frame, movers: list[str], target: Hex, plan: Plan,
                      opts: MoveOptions, rest: list[Hex], rma_values: dict | None, spent: dict[str, int]) -> None:
        """Begin the overrun of ``target`` validated by :func:`overrun_spent` (``spent``: each unit's MP with it)."""
        st = eng.state
        hq = any(is_hq_unit(st.units[i]) for i in movers)
        for uid in plan.loc:
            st.units[uid].loc = plan.loc[uid]
        frame.data["overrun"] = {
            "units": movers, "hex": target.label, "rest": [h.label for h in rest], "spent": spent,
            "opts": {"night": opts.night, "road_march": opts.road_march, "forced": opts.forced,
                     "reaction": opts.reaction, "lift": opts.lift, "reserve_reaction": opts.reserve_reaction},
            "rma": rma_values or {}, "hq": hq, "extra": 0 if hq else OVERRUN_COST,
        }
        if frame.data.get("destroy_supply"):
            frame.data["overrun"]["destroy_supply"] = True
        away = overrun_reactors(eng, movers, target)
        if away:
            # 13.4.3: the defender may react away before the 2 MP of the overrun are expended
            eng.say(f"{', '.join(counter_of(st.units[i]).name for i in away)} may react away from {target.label} "
                    "before the overrun (13.4.3)")
            eng.push("overrun_reaction", hex=target.label, units=sorted(away), rma=away, attackers=list(movers),
                     side=other(st.units[movers[0]].side))
            return
        self.push_overrun_combat(eng, frame)

    def continue_path(self, eng: Engine, frame: Frame, movers: list[str], ov: dict, opts: MoveOptions,
                      spent: dict[str, int], started_in_ezoc: set[str] | None) -> None:
        """13.4.3 / 13.4.4: the units that entered the overrun hex "may continue" along the rest of their declared
        path.  It was checked only as far as the overrun hex; the reaction or the combat may since have made it
        illegal (a unit disrupted by its own m result moves on at half MA, 8.2; a defender retreated into it; a
        hex past it could never be entered).  Then the units stop in the hex they entered -- the continuation is
        theirs to make, never a reason to refuse the other side's reaction or combat choice (G-OVERRUN-CLEARED,
        G-OVERRUN-REACT).  run_path changes nothing before it refuses."""
        rest = [parse_hex(x) for x in ov["rest"]]
        if rest:
            try:
                self.run_path(eng, frame, movers, rest, opts, spent, {}, {}, ov["rma"] or None,
                              started_in_ezoc=started_in_ezoc)
                return
            except IllegalAction as exc:
                eng.say(f"The rest of the declared path is not legal after the overrun ({exc}); the moving units stop "
                        f"in {ov['hex']} (13.4.4)")
        for i in movers:
            frame.data["moved"][i] = spent[i]

    def push_overrun_combat(self, eng: Engine, frame: Frame) -> None:
        st = eng.state
        ov = frame.data["overrun"]
        movers = ov["units"]
        eng.say(f"{', '.join(counter_of(st.units[i]).name for i in movers)} overrun {ov['hex']} (13.4)")
        eng.push("resolve_combat", attackers=list(movers), hex=ov["hex"], form="overrun")

    def resume(self, eng: Engine, frame: Frame, child: Frame) -> None:
        ov = frame.data.get("overrun")
        if ov is None:
            return
        st = eng.state
        if child.proc == "overrun_reaction":
            if any(u.side != frame.data["side"] for u in st.units_at(ov["hex"])):
                self.push_overrun_combat(eng, frame)
                return
            # every defender reacted away: the movers enter the hex without the overrun's 2 MP (13.4.3)
            frame.data.pop("overrun")
            opts = MoveOptions(**{k: v for k, v in ov["opts"].items()})
            movers = [i for i in ov["units"] if i in st.units]
            spent = {i: ov["spent"][i] - ov.get("extra", 0) for i in movers}
            for i in movers:
                st.units[i].loc = ov["hex"]
            eng.say(f"{ov['hex']} is empty after the reaction: the moving units enter it (13.4.3)")
            self.continue_path(eng, frame, movers, ov, opts, spent, started_in_ezoc=None)
            return
        frame.data.pop("overrun", None)
        target = ov["hex"]
        opts = MoveOptions(**{k: v for k, v in ov["opts"].items()})
        outcome = child.data.get("outcome")
        survivors = [i for i in ov["units"] if i in st.units and hex_of(st.units[i]) is not None]
        enemy_left = [u for u in st.units_at(target) if u.side != frame.data["side"] and is_combat(u)]
        cleared = not enemy_left
        combat_did_capture = False
        if isinstance(outcome, dict):
            for key in ("defender_cleared", "cleared"):
                if key in outcome:
                    cleared = bool(outcome[key]) and not enemy_left
                    combat_did_capture = key == "defender_cleared"
        side = frame.data["side"]
        if cleared and survivors:
            retreated = overrun_retreated(st, child, survivors)
            for i in retreated:
                frame.data["moved"][i] = ov["spent"].get(i, 0)
                eng.say(f"{counter_of(st.units[i]).name} retreated from the overrun of {target}: its move ends "
                        "(14.7, 13.4.4)")
            movers = [i for i in survivors if i not in retreated]
            if not movers:
                return
            if not combat_did_capture:
                supply.capture_supply(eng, target, side, hq=bool(ov["hq"]),     # 13.4.4 / 12.2.7
                                      destroy=bool(ov.get("destroy_supply")))
            # the moving unit enters the hex and may continue (13.4.4)
            for i in movers:
                st.units[i].loc = target
            eng.say(f"{target} is cleared; the overrunning units enter it and may continue (13.4.4)")
            self.continue_path(eng, frame, movers, ov, opts, {k: v for k, v in ov["spent"].items() if k in movers},
                               started_in_ezoc=set())
            return
        for i in survivors:
            frame.data["moved"][i] = ov["spent"].get(i, 0)
        if survivors and not child.data.get("attacker_morale_done"):
            for i in survivors:
                if st.units[i].loc != target and not morale_check(eng, i, why="overrun failed to clear the hex, 13.4.4"):
                    disrupt(eng, i, "failed the morale check after an overrun that did not clear the hex", "13.4.4")
        eng.say(f"{target} was not cleared: the overrunning force's movement ends (13.4.4)")


def _entered_by_ground_combat(st: GameState, units: list[str], path: list[Hex], pickup: dict, drop: dict) -> list[str]:
    """The hexes of ``path`` a ground combat unit of the moving stack enters (2.2.2): a unit moves with the stack
    from its start, or from the hex where it is picked up (13.7), until it is dropped."""
    out = []
    aboard = [u for u in units if control.transfers_control(st.units[u])]
    for i, h in enumerate(path):
        if any(not _dropped_before(drop, path, i, u) for u in aboard):
            out.append(h.label)
        aboard += [p for p in pickup.get(h, []) if p in st.units and control.transfers_control(st.units[p])]
    return out


def _dropped_before(drop: dict, path: list[Hex], idx: int, uid: str) -> bool:
    return any(uid in drop.get(h, []) for h in path[:idx])


def overrun_spent(st: GameState, side: str, movers: list[str], target: Hex, plan: Plan, opts: MoveOptions,
                  rma_values: dict | None) -> dict[str, int]:
    """13.4: each unit's MP once it has overrun ``target`` from where ``plan`` left it (the full terrain cost of
    the hex and 2 MP, none with an HQ, 15.6; 19.6 interdiction), or IllegalAction citing the rule (13.4.1,
    13.4.2 eligibility first).  Changes nothing."""
    check_overrun(st, side, movers, target, opts, reaction_reserve=opts.reserve_reaction)
    gm = tec.map_for(st)
    hq = any(is_hq_unit(st.units[i]) for i in movers)
    origin = parse_hex(plan.loc[movers[0]])
    spent = dict(plan.spent)
    for uid in movers:
        u = st.units[uid]
        cost, _ = tec.step_cost(gm, tec_class(st, u), origin, target)
        if cost is None:
            raise IllegalAction(f"{counter_of(u).name} may not enter {target.label}: prohibited terrain", "13.4")
        spent[uid] += cost + (0 if hq else OVERRUN_COST)      # 13.4 full terrain + 2 MP (15.6 HQ: none)
        spent[uid] += interdiction_extra(air.interdiction_area(st, side), tec_class(st, u), target.label)   # 19.6
        cap = allowance(st, u, opts, (rma_values or {}).get(uid))
        if spent[uid] > cap:
            raise IllegalAction(f"{counter_of(u).name} needs {tec.mp(spent[uid]):g} MP to overrun {target.label} "
                                f"but has {tec.mp(cap):g}", "13.4")
    if "resolve_combat" not in PROCEDURES:
        raise IllegalAction("overruns are resolved by the combat rules (14.0), which are not available in this "
                            "build yet; move adjacent and attack in the Combat Phase instead", "13.4")
    return spent


def overrun_retreated(st: GameState, combat_frame: Frame, units: list[str]) -> list[str]:
    """14.7 / 13.4.4: the overrunning ``units`` the overrun combat retreated (an m withdrawal): they left the
    combat, do not enter the cleared hex, and their move ends where the retreat put them."""
    origin = combat_frame.data.get("origin", {})
    return [u for u in units if u in st.units and origin.get(u, st.units[u].loc) != st.units[u].loc]


def check_overrun(state: GameState, side: str, movers: list[str], target: Hex, opts: MoveOptions,
                  *, reaction_reserve: bool = False) -> None:
    """13.4.1 eligible attackers, 13.4.2 eligible defenders, 8.2 b), 12.5 c), 13.5 b)."""
    gm = tec.current_map()
    defenders = enemy_units_at(state, target, side)
    if opts.reaction and not reaction_reserve:
        raise IllegalAction("reacting units may not overrun (only units reacting from reserve may)", "13.5")
    if gm.is_mountain(target) or gm.is_city(target) or zoc.fortified(state, gm, target):
        raise IllegalAction(f"units in a mountain, city or fortified hex ({target.label}) cannot be overrun", "13.4.2")
    zm = zoc.zoc_map(state, other(side), gm)
    if target in zm:
        names = ", ".join(counter_of(state.units[i]).name for i in zm[target])
        raise IllegalAction(f"{target.label} is in the ZOC of {names}, friendly to the units there: no overrun", "13.4.2")
    real = any(nonzero_factor(d) for d in defenders)                  # 13.4.1 (parenthesised CF included)
    for uid in movers:
        u = state.units[uid]
        name = counter_of(u).name
        if u.ogs:
            raise IllegalAction(f"{name} is OGS and may not overrun", "13.4.1")
        if u.disrupted:
            raise IllegalAction(f"{name} is disrupted and may not overrun", "8.2")
        if is_desert_raider(state, u):      # an overrun is combat (13.4); R-RAID-OFF: only with the optional rules
            raise IllegalAction(f"{name} is a desert raider and may not attack on the hex grid: no overrun", "16.1; 13.4")
        if _carried(u, [state.units[i] for i in movers], opts) and is_combat(u):
            raise IllegalAction(f"{name} is being transported and cannot take part in an overrun", "13.4.1")
        if real and is_combat(u) and not is_motorized(u):
            raise IllegalAction(f"only motorised units may overrun a hex with non-zero combat units; {name} is not", "13.4.1")


def check_later_overrun(state: GameState, side: str, movers: list[str], target: Hex) -> None:
    """A later enemy hex of a declared path (13.4.4 "may continue" after a cleared overrun): what the first overrun
    cannot change is checked when the move is declared, so that no continuation is refused after the combat:
    13.4.2 terrain (mountain, city, fortified) and 13.4.1 "only motorised units may overrun a hex with non-zero
    combat units"."""
    gm = tec.current_map()
    if gm.is_mountain(target) or gm.is_city(target) or zoc.fortified(state, gm, target):
        raise IllegalAction(f"units in a mountain, city or fortified hex ({target.label}) cannot be overrun", "13.4.2")
    if any(nonzero_factor(d) for d in enemy_units_at(state, target, side)):
        for uid in movers:
            u = state.units[uid]
            if is_combat(u) and not is_motorized(u):
                raise IllegalAction(f"only motorised units may overrun a hex with non-zero combat units "
                                    f"({target.label}, later in the path); {counter_of(u).name} is not", "13.4.1")


def enter_reserve(eng: Engine, u: UnitState, spent: int, entered_ezoc: bool) -> None:
    """13.6: no more than half its printed MA used; did not start or move into an EZOC."""
    name = counter_of(u).name
    if not is_combat(u):
        raise IllegalAction(f"{name} is not a combat unit and cannot enter reserve", "13.6")
    if spent * 2 > printed_ma(u) * E:
        raise IllegalAction(f"{name} used {tec.mp(spent):g} MP, more than half its printed MA ({printed_ma(u)}), "
                            "and cannot enter reserve", "13.6")
    if entered_ezoc:
        raise IllegalAction(f"{name} started in or moved into an enemy ZOC and cannot enter reserve", "13.6")
    u.reserve = True
    eng.say(f"{name} enters reserve (13.6)")


def end_reserve(eng: Engine, uids: list[str], why: str) -> None:
    """13.6: "The marker is removed if the unit moves or engages in combat (attack or defense)"."""
    for uid in uids:
        u = eng.state.units.get(uid)
        if u is not None and u.reserve:
            u.reserve = False
            eng.say(f"{counter_of(u).name} leaves reserve: it {why} (13.6)")


def reaction_eligible(eng: Engine, frame: Frame, u: UnitState) -> bool:
    """13.5: within two hexes of an enemy unit at the start of the phase, or in reserve;
    in GenS; not disrupted; MSU only with reacting combat units."""
    if u.disrupted or u.ogs or hex_of(u) is None or not (is_combat(u) or supply_kind(u) == "msu"):
        return False
    if u.reserve:
        return True
    near = frame.data.get("near_enemy")
    if near is None:
        return False
    return u.id in near


def units_near_enemy(state: GameState, side: str, radius: int = 2) -> list[str]:
    hostile = _fna().hostile        # neutral Vichy French are enemy units of the Allies (R-VICHY-NEUTRAL)
    enemy_hexes = {h for e in state.units.values() if hostile(e, side) and is_combat(e) and (h := hex_of(e)) is not None}
    out = []
    for u in state.units.values():
        h = hex_of(u)
        if u.side == side and h is not None and any(h.distance(e) <= radius for e in enemy_hexes):
            out.append(u.id)
    return sorted(out)


def overrun_reactors(eng: Engine, movers: list[str], target: Hex) -> dict[str, int]:
    """13.4.3 "If the unit about to be overrun has a greater reaction MA than the overrunning unit, it may react
    away from the hex (13.5)": each defender able to react (13.5: in GenS, not disrupted) whose reaction MA is
    greater than the greatest of the overrunning units' -> its reaction MA before an HQ's bonus
    (G-OVERRUN-REACT).  Both sides' RMA (13.2.1) count an HQ's +2 (15.6); a surprised 2nd player's motorised
    unit not in reserve rolls 1d6 for its RMA (6.2), and does not roll when even a 6 could not be greater
    (Example of Play: "a maximum RMA of 6 (1d6) to the Nizza RMA of 6")."""
    st = eng.state
    side = st.units[movers[0]].side
    att_hq = any(is_hq_unit(st.units[i]) for i in movers)
    best = max((rma(st.units[i]) + hq_reaction_bonus(st.units[i], att_hq) for i in movers), default=0)
    defenders = [u for u in sorted(st.units_at(target.label), key=lambda x: x.id) if u.side != side]
    def_hq = any(is_hq_unit(u) for u in defenders)
    out: dict[str, int] = {}
    for u in defenders:
        if u.disrupted or u.ogs or not is_combat(u) or not is_motorized(u):
            continue            # 13.5; 13.2.1: a non-motorised unit has no RMA in MP, only a one-hex move
        bonus = hq_reaction_bonus(u, def_hq)
        if rolls_for_rma(st, u):
            if 6 + bonus <= best:
                continue
            base = eng.roll(1, f"{counter_of(u).name} RMA under surprise, reacting to an overrun (6.2, 13.4.3)")[0]
        else:
            base = rma(u)
        if base + bonus > best:
            out[u.id] = base
    return out


@procedure("overrun_reaction")
class OverrunReaction(Procedure):
    """13.4.3: the non-phasing player may react away from the hex about to be overrun; the reacting
    units make a morale check afterwards (no check with an HQ, 15.6)."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        d = frame.data
        if d.get("done"):
            return None
        side = d["side"]
        st = eng.state
        # 13.4.3: each unit reacts at most once per overrun (d["reacted"])
        left = [i for i in d["units"] if i in st.units and st.units[i].loc == d["hex"] and i not in d.get("reacted", [])]
        if not left:
            return None
        opts = [Option(action=Action(kind="done", side=side), label=f"Stand in {d['hex']} and accept the overrun")]
        try:
            paths = reachable_paths(st, side, left, MoveOptions(reaction=True), max_nodes=2000,
                                    rma_values=self.allowances(eng, d, left))
        except IllegalAction:
            paths = {}
        paths = {lab: p for lab, p in paths.items() if lab != d["hex"] and p and _labels(p)[-1] != d["hex"]}
        # the search reads no friendly position, 13.5 a) does: each candidate passes the check `apply` makes
        offered = 0
        for lab, p in sorted(paths.items(), key=lambda kv: (len(kv[1]), kv[0])):
            if offered == 12:
                break
            try:
                self.reaction_plan(eng, d, left, [parse_hex(x) for x in p])
            except IllegalAction:
                continue
            offered += 1
            opts.append(Option(action=Action(kind="move", side=side, args={"units": left, "path": p}),
                               label=f"React away to {lab}"))
        return Decision(side=side, kind="overrun_reaction", rule="13.4.3",
                        prompt=f"React away from {d['hex']} before it is overrun? (13.4.3)",
                        options=tuple(opts), free_kinds=("move",), context={"hex": d["hex"], "units": left})

    @classmethod
    def reaction_plan(cls, eng: Engine, d: dict, ids: list[str], path: list[Hex]) -> Plan:
        """13.4.3 / 13.5: the reaction move of ``ids`` along ``path`` away from the overrun hex, or IllegalAction
        citing the rule -- the one check behind both the offered moves and the accepted ones (13.5 a) reads the
        friendly positions, which the reachable-hex search does not)."""
        plan = trace(eng.state, d["side"], ids, path, MoveOptions(reaction=True), rma_values=cls.allowances(eng, d, ids))
        if plan.overrun_at is not None:
            raise IllegalAction("reacting units may not overrun", "13.5 b)")
        if any(plan.loc.get(i) in (None, d["hex"]) for i in ids):
            raise IllegalAction(f"a unit reacting to the overrun must leave {d['hex']}: the move may not end there "
                                "(13.4.3)", "13.4.3")
        return plan

    @staticmethod
    def allowances(eng: Engine, d: dict, ids: list[str]) -> dict[str, int]:
        """Each reacting unit's RMA found when the overrun began (rolled under surprise, 6.2), +2 when an HQ
        moves with it (15.6)."""
        st = eng.state
        hq = any(is_hq_unit(st.units[i]) for i in ids)
        return {i: d["rma"][i] + hq_reaction_bonus(st.units[i], hq) for i in ids}

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        d = frame.data
        st = eng.state
        if action.kind == "done":
            d["done"] = True
            return
        if action.kind != "move":
            super().apply(eng, frame, action)
        ids = [str(i) for i in action.args.get("units") or []]
        if not ids or any(i not in d["units"] or st.units[i].loc != d["hex"] for i in ids):
            raise IllegalAction(f"only the units in {d['hex']} with a greater reaction MA than the overrunning "
                                "units may react away", "13.4.3")
        if any(i in d.get("reacted", []) for i in ids):
            raise IllegalAction("a unit reacts away from an overrun only once (13.4.3)", "13.4.3")
        path = [parse_hex(x) for x in _labels(action.args.get("path", []))]
        if path and path[0].label == d["hex"]:
            path = path[1:]
        if not path:
            raise IllegalAction("the path is empty: name the hexes entered", "13.1")
        plan = self.reaction_plan(eng, d, ids, path)
        hq = any(is_hq_unit(st.units[i]) for i in ids)
        d.setdefault("reacted", []).extend(i for i in ids if i not in d.get("reacted", []))
        for i in ids:
            st.units[i].loc = plan.loc[i]
            st.units[i].reserve = False
        eng.say(f"{', '.join(counter_of(st.units[i]).name for i in ids)} react away to {st.units[ids[0]].loc} (13.4.3)")
        for i in ids:
            if hq:
                continue
            if not morale_check(eng, i, why="after reacting away from an overrun, 13.4.3"):
                disrupt(eng, i, "failed the morale check after reacting away from an overrun", "13.4.3")


def seed_landed(eng: Engine, frame: Frame, side: str) -> None:
    """20.1: units that landed from port boxes just before this Movement Phase's step 3, after the port strikes
    (``naval``; ``flags["landed"]`` is the
    phase's ``gt.phase`` tag) have expended one-half of their printed MA and may use the rest; refit points
    and dumps (``flags["landed_stop"]``) may not move further this phase."""
    tag = f"{eng.state.gt}.{eng.state.phase}"
    for u in sorted(eng.state.units_of(side), key=lambda x: x.id):
        if u.flags.get("landed") != tag:
            continue
        if u.flags.get("landed_stop"):
            frame.data["moved"][u.id] = max(printed_ma(u), 1) * E
            continue
        frame.data["moved"][u.id] = (printed_ma(u) * E) // 2
        frame.data.setdefault("continue", []).append(u.id)


def _battle_marked_mover(eng: Engine, action: Action) -> str | None:
    """14.9.1 / 14.9.2: a unit is marked "when [its] movement is completed", so a marked unit named by any
    Movement-Phase order (``units``, ``unit`` or a truck-lift ``pickup``) may not move again."""
    from core.rules import combat_forms

    if action.kind == combat_forms.BATTLE_KIND:
        return None                                    # the marker's own refusal names the marker already placed
    a = action.args
    ids = [x for x in (a.get("units") or []) if isinstance(x, str)] if isinstance(a.get("units"), list) else []
    if isinstance(a.get("unit"), str):
        ids.append(a["unit"])
    if isinstance(a.get("pickup"), dict):
        ids += [x for lst in a["pickup"].values() if isinstance(lst, list) for x in lst if isinstance(x, str)]
    return combat_forms.battle_marked(eng.state, ids)


@procedure("movement")
class MovementProcedure(_MoveBase):
    """4.1 VI.3 (13.0): the phasing player moves stacks one at a time, then says done."""

    def enter(self, eng: Engine, frame: Frame) -> None:
        super().enter(eng, frame)
        side = frame.data["side"]
        gm = tec.current_map()
        ez = zoc.zoc_hexes(eng.state, other(side), gm)
        frame.data["began_in_ezoc"] = sorted(u.id for u in eng.state.units_of(side) if hex_of(u) in ez)
        seed_landed(eng, frame, side)

    def decide(self, eng: Engine, frame: Frame) -> Decision | None | object:
        if frame.data.get("done"):
            return None
        side = frame.data["side"]
        prompt, rule = "Move ground units (13.0); overruns, supply and construction actions", "4.1 VI.3; 13.0"
        done: tuple[Option, ...] = (Option(action=Action(kind="done", side=side), label="End the Movement Phase"),)
        leave = east_limit.first_must_leave(eng, _units_free(eng, frame, side)) \
            if east_limit.stranded(eng.state, side) else None
        if leave is not None:
            # 30.0: the phase may not end while a unit on or east of Sxx34 can still leave (R-30-EAST)
            who = f"{counter_of(eng.state.units[leave]).name} in {eng.state.units[leave].loc}"
            prompt = (f"Move ground units (13.0): every unit on or east of Sxx34 that can leave ({who}...) must "
                      "leave before the Movement Phase ends (30.0)")
            rule, done = "4.1 VI.3; 13.0; 30.0", ()
        return Decision(
            side=side, kind="movement", prompt=prompt,
            rule=rule, options=done,
            sampled=eng.sampler(lambda fr: self.sampled(eng, fr, side)),
            free_kinds=("move", "create_base", "emergency_supply", "destroy_supply", "transfer", "reserve", "build_fort",
                        "build_rail", "build_road", "rail", "coastal_ship", "air_land", "oasis_move", "raid",
                        *MOVEMENT_ACTIONS),
            context={"step": frame.data["step"], "moved": dict(frame.data.get("moved", {}))},
        )

    @staticmethod
    def sampled(eng: Engine, frame: Frame, side: str) -> list[Option]:
        """A few moves, railroad extensions (18.2) and the Movement-Phase options of the other chapters, sampled
        for the bots and the GUI's buttons; computed only when the decision's options are read."""
        opts = leave_moves(eng, frame, side) + sample_moves(eng, frame, side, reaction=False)
        from core.rules import construction

        # 18.2: the railhead is where the scenario puts it, else at Mersa Matruh (construction.railhead, G-RAILHEAD)
        if side == "Allied" and eng.state.units_at(construction.railhead(eng.state)):
            opts += [Option(action=a, label=f"Extend the Egyptian railroad to {a.args['hexes'][-1]} (18.2)")
                     for a in construction.rail_options(eng, frame, side)]
        for sampler in MOVEMENT_OPTIONS:
            opts += sampler(eng, frame, side)
        # 23.1 ALC-3: the one gate apply() refuses by also filters what is offered (R-VICHY-INACTIVE)
        return [o for o in opts if _fna().inactive_named(eng.state, o.action.args) is None]

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        k = action.kind
        if k == "done":
            frame.data["done"] = True
            return
        marked = _battle_marked_mover(eng, action)
        if marked:
            raise IllegalAction(f"{marked} has a {eng.state.units[marked].flags['battle']} battle marker: its movement "
                                "is completed", "14.9.1; 14.9.2")
        vf = _fna().inactive_named(eng.state, action.args)
        if vf is not None:
            raise IllegalAction(f"{counter_of(vf).name} is a Vichy French unit: not active until ALC-23 (Operation Torch "
                                "Invasion) is played; it takes no order (23.1 ALC-3 Important; R-VICHY-INACTIVE)",
                                "23.1 ALC-3")
        if k == "move":
            self.apply_move(eng, frame, action)
            return
        if k == "reserve":
            ids = action.args.get("units") or []
            for uid in ids:
                u = eng.state.units.get(str(uid))
                if u is None or u.side != action.side:
                    raise IllegalAction(f"{uid} is not a {action.side} unit", "13.6")
                spent = frame.data["moved"].get(u.id, 0)
                enter_reserve(eng, u, spent, u.id in frame.data.get("began_in_ezoc", []))
            return
        if k == "create_base":
            supply.create_base(eng, action.side, str(action.args.get("hex", "")))
            return
        if k in ("emergency_supply", "destroy_supply", "transfer"):
            supply.apply_action(eng, frame, action)
            return
        if k in ("rail", "coastal_ship", "air_land"):
            from core.rules import transport

            {"rail": transport.rail_move, "coastal_ship": transport.coastal_ship,
             "air_land": transport.air_land}[k](eng, frame, action.side, dict(action.args))
            return
        if k in ("oasis_move", "raid"):
            from core.rules import raiders

            (raiders.oasis_move if k == "oasis_move" else raiders.raid)(eng, frame, action.side, dict(action.args))
            return
        if k in ("build_fort", "build_rail", "build_road"):
            from core.rules import construction

            construction.apply(eng, frame, action)
            return
        if k in MOVEMENT_ACTIONS:
            MOVEMENT_ACTIONS[k](eng, frame, action)
            return
        super().apply(eng, frame, action)


@procedure("reaction")
class ReactionProcedure(_MoveBase):
    """4.1 VII/X/XIII/XVI (13.5): eligible non-phasing units may react, then say done."""

    reaction = True

    def enter(self, eng: Engine, frame: Frame) -> None:
        super().enter(eng, frame)
        side = frame.data["side"]
        frame.data["near_enemy"] = units_near_enemy(eng.state, side)

    def decide(self, eng: Engine, frame: Frame) -> Decision | None | object:
        if frame.data.get("done"):
            return None
        side = frame.data["side"]
        return Decision(side=side, kind="reaction", prompt="Reaction movement (13.5)", rule="4.1 VII; 13.5",
                        options=(Option(action=Action(kind="done", side=side), label="End the Reaction Phase"),),
                        sampled=eng.sampler(lambda fr: self.sampled(eng, fr, side)),
                        free_kinds=("move", "destroy_supply"), context={"step": frame.data["step"]})

    @staticmethod
    def sampled(eng: Engine, frame: Frame, side: str) -> list[Option]:
        """12.2.5 attempts to destroy enemy supply and a few sampled reaction moves; computed only when read."""
        opts = []
        if not frame.data.get("reacted"):
            elig = lambda u: reaction_eligible(eng, frame, u)                      # noqa: E731
            for sid, cid in supply.reaction_destroy_options(eng, frame, side, elig):
                opts.append(Option(action=Action(kind="destroy_supply", side=side, args={"unit": sid, "by": cid}),
                                   label=f"Try to destroy the {supply_kind(eng.state.units[sid])} in "
                                         f"{eng.state.units[sid].loc} (12.2.5)"))
        opts += sample_moves(eng, frame, side, reaction=True, limit=6)
        return opts

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        if action.kind == "done":
            frame.data["done"] = True
            return
        if action.kind == "destroy_supply":
            supply.reaction_destroy(eng, frame, action.side, str(action.args.get("unit", "")),
                                    str(action.args.get("by", "")), lambda u: reaction_eligible(eng, frame, u))
            return
        if action.kind == "move":
            if action.args.get("road_march"):
                raise IllegalAction("road march is not available during the Reaction Phase", "13.2.3")
            self.apply_move(eng, frame, action)
            frame.data["reacted"] = True
            return
        super().apply(eng, frame, action)

    def after_move(self, eng: Engine, frame: Frame, ids: list[str], opts: MoveOptions, forced: bool) -> None:
        super().after_move(eng, frame, ids, opts, forced)
        st = eng.state
        hq = any(is_hq_unit(st.units[i]) for i in ids)
        for i in ids:
            u = st.units[i]
            if not is_combat(u):
                continue
            if i in frame.data.get("from_reserve", []):
                continue                                       # 13.6: no morale check after reacting from reserve
            if hq:
                continue                                       # 15.6: no morale check with an HQ
            if not morale_check(eng, i, why="after reaction movement, 13.5 c"):
                disrupt(eng, i, "failed the morale check after reacting", "13.5")


on_step("VI.3", "movement")
on_step("IX.3", "movement")
on_step("XII.3", "movement")
on_step("XV.3", "movement")
for _k in ("VII.1", "X.1", "XIII.1", "XVI.1"):
    on_step(_k, "reaction")


# =========================================================================== reachable hexes
_OFF_PLAY: dict[tuple[str, ...], frozenset[int]] = {}


def off_play_ids(state: GameState) -> frozenset[int]:
    """The ids of the hexes on no map in play in this scenario (R-MAPS-IN-PLAY: "Units may not move off the hex
    grid unless using off-map movement", 13.1; the grid is the scenario's "Maps in Play"), and of the hexes in
    Algeria and Tunisia while they are out of play (22.7, ``offmap.fna_hexes_out_of_play``; R-FNA-HEXES).  Empty:
    every hex in play."""
    off = _maps_off_play_ids(tuple(state.vars.get("maps") or ()))
    return off | _fna_ids() if offmap.fna_hexes_out_of_play(state) else off


@cache
def _fna_ids() -> frozenset[int]:
    """The ids of the hexes in Algeria and Tunisia (2.2.4, the map data's ``fna`` hexes of Maps A, T and L)."""
    from core import mapdata

    md = mapdata.load()
    return frozenset(tec.hex_id(h) for h in md.hexes() if md.in_fna(h))


def _maps_off_play_ids(maps: tuple[str, ...]) -> frozenset[int]:
    """The ids of the hexes on no map of ``maps`` (computed once per list of maps)."""
    if not maps:
        return frozenset()
    v = _OFF_PLAY.get(maps)
    if v is None:       # the hexes of the sheets not in play less those also printed on a sheet in play (2.2.1)
        from core.hexgrid import maps as sheets

        every = sheets()
        if set(every) <= set(maps):
            _OFF_PLAY[maps] = frozenset()
            return _OFF_PLAY[maps]
        on = frozenset().union(*(_sheet_ids(m) for m in maps if m in every))
        v = _OFF_PLAY[maps] = frozenset().union(*(_sheet_ids(m) for m in every)) - on
    return v


@cache
def _sheet_ids(letter: str) -> frozenset[int]:
    """The ids of the hexes printed on map sheet ``letter``."""
    from core.hexgrid import maps as sheets

    return frozenset(tec.hex_id(h) for h in sheets()[letter].hexes())


def reachable_paths(state: GameState, side: str, units: list[str], opts: MoveOptions, *,
                    frame: Frame | None = None, gm: tec.GroundMap | None = None,
                    max_nodes: int = 200_000, cache: dict | None = None,
                    rma_values: dict[str, int] | None = None) -> dict[str, list[str]]:
    """Cheapest legal path to every hex the stack can enter (Dijkstra over (hex, route)).

    For a mixed stack the search minimises the largest fraction of any unit's
    allowance spent; overruns are not explored.  Returns hex -> path labels.
    ``cache`` may be shared by several searches on one unchanged state (the
    enemy ZOC and enemy hexes are computed once).

    Hot path of the bots' sampled moves: the step costs come from the map's
    class-free adjacency and each class's cost per kind of step
    (:meth:`tec.GroundMap.edges`, filled for the whole grid when the map loads),
    the unit facts are read once, and the 15.3 recon comparison is memoised per
    exerting group.
    """
    gm = gm or tec.map_for(state)
    us = [state.units[i] for i in units]
    start = hex_of(us[0])
    if start is None:
        return {}
    import heapq

    caps = [allowance(state, u, opts, (rma_values or {}).get(u.id)) for u in us]
    if any(c <= 0 for c in caps):
        return {}
    cache = {} if cache is None else cache
    enemy_hexes = cache.get(("enemy_hexes", side))
    if enemy_hexes is None:
        hostile = _fna().hostile
        enemy_hexes = cache[("enemy_hexes", side)] = {
            h for e in state.units.values() if hostile(e, side) and (h := hex_of(e)) is not None}
    stack_mot = _stack_motorized(us)
    ezs = [_ezoc_for(state, u, stack_mot, gm, cache) for u in us]
    hq = any(is_hq_unit(u) for u in us)
    began_ez = [start in ez for ez in ezs]
    classes = [tec_class(state, u) for u in us]
    carried = [_carried(u, us, opts) for u in us]
    ignores = [counter_of(u).sf or is_desert_raider(state, u) for u in us]     # 15.4, 16.1: ignore all EZOC
    motor = [is_motorized(u) for u in us]
    idx = range(len(us))
    recon_memo: dict[tuple, bool] = {}

    def recon(ids: list[str]) -> bool:
        key = tuple(ids)
        v = recon_memo.get(key)
        if v is None:
            v = recon_memo[key] = _recon_superior(state, side, us, ids)
        return v

    adjacent_memo: dict[Hex, bool] = {}
    night, road_march, reaction = opts.night, opts.road_march, opts.reaction
    hid = tec.hex_id
    ezi = []                                       # the EZOC maps keyed by hex id (built once per shared cache)
    for ez in ezs:
        v = cache.get(("ez_by_id", id(ez)))
        if v is None:
            v = cache[("ez_by_id", id(ez))] = ({hid(h): ids for h, ids in ez.items()}, ez)
        ezi.append(v[0])
    stopping = [ezi[k] for k in idx if not ignores[k]]
    closed_ids = cache.get(("closed_ids", side))
    if closed_ids is None:
        off_play = off_play_ids(state)                             # 13.1, R-MAPS-IN-PLAY: never entered either
        closed_ids = cache[("closed_ids", side)] = {hid(h) for h in enemy_hexes} | off_play
    start_id = hid(start)
    east = east_limit.east_column(state, side)     # 30.0: a path may pass the line, not end on or east of it
    guided = frozenset(hid(Hex.parse(x)) for x in raiders.guided_hexes(state, side))    # 16.4 guiding
    interdicted = {hid(Hex.parse(lab)): c for lab, c in air.interdiction_area(state, side).items()}   # 19.6
    best: dict[tuple[int, str], float] = {}
    out: dict[str, list[str]] = {}
    graph, edges_of = gm.adjacency(), gm.edges        # the map's class-free step tables (tec.GroundMap.edges)
    costs = [gm.type_costs(c) for c in classes]      # ... and each class's cost of every kind of step
    heap: list[tuple] = [(0.0, 0, start_id, "open", tuple(0 for _ in us), ())]
    order = 1
    single = len(us) == 1 and not carried[0]
    stop_one = stopping[0] if len(stopping) == 1 else ({} if not stopping else None)
    heappop, heappush = heapq.heappop, heapq.heappush
    while heap and order < max_nodes:
        key, _, h, rt, sp, path = heappop(heap)
        if best.get((h, rt), 1e18) < key:
            continue
        if path:
            if path[-1] not in out and (east is None or (h & 0xFFF) - 2048 < east):   # 30.0: never ends there
                out[path[-1]] = list(path)
            if not night and (h in stop_one if stop_one is not None else any(h in ez for ez in stopping)):
                continue                                                # 11.4: must stop in an EZOC
        from_road = rt in ("road", "track")
        if single:                                                      # the bots' sampled moves: one unit
            ez = ezi[0]
            ign = ignores[0]
            mot = motor[0]
            cap = caps[0]
            s0 = sp[0]
            if from_road and mot and s0 % E:
                s_round = s0 + E - s0 % E
            else:
                s_round = s0
            h_in_ez = not ign and h in ez
            cost0 = costs[0]
            for n, nh, kind, lab in graph.get(h) or edges_of(h):
                c, r = cost0[kind]
                if guided and (h in guided or n in guided):
                    c, r = tec.step_cost_ignoring(gm, classes[0], tec.hex_of_id(h), nh, WADI)
                if n in closed_ids or c is None or (road_march and r != "road"):
                    continue
                s = s_round if r == "open" else s0
                if not ign:
                    if n in ez:
                        if h_in_ez and (h != start_id or began_ez[0]) and not night:
                            continue
                        if night:
                            c *= 2
                        if not hq:
                            c += EZOC_COST
                        if recon(ez[n]):
                            c += RECON_EXTRA
                    if h_in_ez and recon(ez[h]):                # 15.3 leaving (the start hex too)
                        c += RECON_EXTRA
                if n in interdicted:
                    c += interdicted[n].get(classes[0], 0) * E   # 19.6 Air Interdiction Chart
                s += c
                if s > cap or (reaction and path and not mot):
                    continue
                if road_march:
                    adj = adjacent_memo.get(nh)
                    if adj is None:
                        adj = adjacent_memo[nh] = bool(enemy_units_at_adjacent(state, nh, side, gm))
                    if adj:
                        continue
                k2 = s / cap
                bk = (n, r)
                if best.get(bk, 1e18) <= k2:
                    continue
                best[bk] = k2
                heappush(heap, (k2, order, n, r, (s,), path + (lab,)))
                order += 1
            continue
        for n, nh, kind, lab in graph.get(h) or edges_of(h):
            if n in closed_ids:
                continue
            new = []
            nrt = rt
            ok = True
            for k in idx:
                if carried[k]:
                    new.append(sp[k])
                    continue
                c, r = costs[k][kind]
                if guided and (h in guided or n in guided):
                    c, r = tec.step_cost_ignoring(gm, classes[k], tec.hex_of_id(h), nh, WADI)
                if c is None or (road_march and r != "road"):
                    ok = False
                    break
                s = sp[k]
                if from_road and r == "open" and motor[k] and s % E:
                    s += E - s % E
                nrt = r
                if not ignores[k]:
                    ez = ezi[k]
                    if n in ez:
                        if h in ez and (h != start_id or began_ez[k]) and not night:
                            ok = False
                            break
                        if night:
                            c *= 2
                        if not hq:
                            c += EZOC_COST
                        if recon(ez[n]):
                            c += RECON_EXTRA
                    if h in ez and recon(ez[h]):                 # 15.3 leaving (the start hex too)
                        c += RECON_EXTRA
                if n in interdicted:
                    c += interdicted[n].get(classes[k], 0) * E   # 19.6 Air Interdiction Chart
                s += c
                if s > caps[k]:
                    ok = False
                    break
                if reaction and path and not motor[k]:
                    ok = False
                    break
                new.append(s)
            if not ok:
                continue
            if road_march:
                adj = adjacent_memo.get(nh)
                if adj is None:
                    adj = adjacent_memo[nh] = bool(enemy_units_at_adjacent(state, nh, side, gm))
                if adj:
                    continue
            k2 = max(x / caps[i] for i, x in enumerate(new))
            bk = (n, nrt)
            if best.get(bk, 1e18) <= k2:
                continue
            best[bk] = k2
            heappush(heap, (k2, order, n, nrt, tuple(new), path + (lab,)))
            order += 1
    return out


def path_cost(state: GameState, side: str, units: list[str], path: list[str], opts: MoveOptions) -> dict[str, int]:
    plan = trace(state, side, units, [Hex.parse(x) for x in path], opts)
    return plan.spent


def _query_opts(eng: Engine, road_march: bool, night: bool) -> MoveOptions:
    st = eng.state
    frame = st.stack[-1] if st.stack else None
    reaction = bool(frame and frame.proc in ("reaction", "overrun_reaction"))
    return MoveOptions(road_march=road_march, night=night, reaction=reaction)


def _own_move_allowed(st: GameState, units: list[str], opts: MoveOptions) -> bool:
    """The GUI queries offer no path the ``move`` action would refuse for the stack itself: a unit with a printed
    MA of 0 moves, road marches, force marches and reacts not at all (R-MA-ZERO, :func:`check_own_movement`; the
    one-hex reaction of 13.2.1 is counted by hexes, not MP, so its allowance alone would not stop it), and a road
    march needs every 13.2.3 condition (6.2)."""
    us = [st.units[i] for i in units]
    try:
        check_own_movement(us, opts)
        if opts.road_march:
            check_road_march(st, us, opts.reaction)
    except IllegalAction:
        return False
    return True


def query_reachable(eng: Engine, units: list[str], road_march: bool = False, night: bool = False,
                    with_paths: bool = False) -> dict[str, Any]:
    """GUI query: every hex the stack can reach this phase -> MP spent by its first unit.

    With ``with_paths=True`` each value is ``{"mp": x, "path": [labels]}`` (the
    path a ``move`` action would accept); the default return value is unchanged.
    """
    st = eng.state
    if not units:
        return {}
    side = st.units[units[0]].side
    opts = _query_opts(eng, road_march, night)
    if not _own_move_allowed(st, units, opts):
        return {}
    paths = reachable_paths(st, side, units, opts)
    spent0 = spent_destroying(st.stack[-1] if st.stack else None, units)          # 12.2.5 1)
    out: dict[str, Any] = {}
    for lab, p in paths.items():
        try:
            spent = trace(st, side, units, [Hex.parse(x) for x in p], opts, spent0=spent0).spent
        except IllegalAction:
            continue
        cost = tec.mp(max(spent[u] for u in units))
        out[lab] = {"mp": cost, "path": list(p)} if with_paths else cost
    return out


def query_route(eng: Engine, units: list[str], to: str, road_march: bool = False,
                night: bool = False) -> dict[str, Any] | None:
    """GUI query: the cheapest legal path to ``to`` the ``move`` action would accept,
    ``{"path": [labels], "mp": cost}``, or None.  An enemy-occupied ``to`` is
    reached by an overrun (13.4): the path ends in it, ``"overrun": True`` and the
    cost includes the full terrain cost and the 2 MP (none with an HQ, 15.6)."""
    st = eng.state
    if not units or any(i not in st.units for i in units):
        return None
    try:
        target = Hex.parse(str(to))
    except HexLabelError:
        return None
    us = [st.units[i] for i in units]
    start = hex_of(us[0])
    if start is None or target == start:
        return None
    side = us[0].side
    opts = _query_opts(eng, road_march, night)
    if not _own_move_allowed(st, units, opts):
        return None
    paths = reachable_paths(st, side, units, opts)
    if not enemy_units_at(st, target, side):
        p = paths.get(target.label)
        if p is None:
            return None
        try:
            spent = trace(st, side, units, [Hex.parse(x) for x in p], opts,
                          spent0=spent_destroying(st.stack[-1] if st.stack else None, units)).spent   # 12.2.5 1)
        except IllegalAction:
            return None
        return {"path": list(p), "mp": tec.mp(max(spent[u] for u in units))}
    # overrun: the cheapest adjacent approach whose total stays within every allowance
    gm = tec.map_for(st)
    hq = any(is_hq_unit(u) for u in us)
    best: dict[str, Any] | None = None
    for n in tec.nbrs(target):
        approach = [] if n == start else paths.get(n.label)
        if approach is None:
            continue
        try:
            plan = trace(st, side, units, [Hex.parse(x) for x in approach] + [target], opts)
            if plan.overrun_at is None:
                continue
            check_overrun(st, side, units, target, opts)
        except IllegalAction:
            continue
        total = 0
        ok = True
        for u in us:
            c, _ = tec.step_cost(gm, tec_class(st, u), n, target)
            if c is None:
                ok = False
                break
            s = plan.spent[u.id] + c + (0 if hq else OVERRUN_COST) + interdiction_extra(
                air.interdiction_area(st, side), tec_class(st, u), target.label)          # 19.6
            if s > allowance(st, u, opts):
                ok = False
                break
            total = max(total, s)
        if ok and (best is None or total < best["_e"]):
            best = {"path": list(approach) + [target.label], "mp": tec.mp(total), "overrun": True, "_e": total}
    if best is not None:
        best.pop("_e")
    return best


QUERIES["reachable"] = query_reachable
QUERIES["route"] = query_route
