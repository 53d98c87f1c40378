"""The chosen move's ``trace`` over the map's step tables (issue 18): ``movement.trace`` reads the kind of each step
from the class-free adjacency the reachable-hex search reads (``tec.GroundMap.edges``) and its cost from the class's
cost per kind (``type_costs``), where it used to ask ``tec.step_cost`` hex pair by hex pair.  A speed change changes
no result: over real positions of random games (every Movement Phase decision reached by ``Engine.apply``), for
every unit and stack of both sides, the legal paths of the search (plain, road march 13.2.3, night 11.5) and random
walks (into enemy ZOC 11.4, enemy hexes 13.4, prohibited terrain 13.3, off the grid 13.8, a jump 13.1), with a
reaction (13.2.1, 13.5) and a drop-off (13.1), under the weather of the day and again under winter (21.1.1), a
Ghibli (21.2.1) and a road built along the path (18.3), the new trace returns the same plan or refuses with the same
reason and rule as the trace before it (``_trace_before``: ``movement.trace`` as of 26c9211, reading the same
helpers of ``core.rules.movement``, so that only the step lookup differs)."""

from __future__ import annotations

import random

import msgspec
import pytest

from core import calendar
from core.bots import RandomBot
from core.engine import Engine
from core.hexgrid import Hex
from core.newgame import initial_state
from core.rules import movement
from core.rules.movement import MoveOptions, reachable_paths
from core.rules.movement import (  # noqa: F401 - the names the oracle below reads, as core.rules.movement has them
    E, EZOC_COST, RECON_EXTRA, WADI, GameState, IllegalAction, Plan, _carried, _carries_division, _ezoc_for, _fna,
    _recon_superior, _stack_motorized, air, allowance, counter_of, enemy_units_at, enemy_units_at_adjacent, has_real_cf,
    interdiction_extra, is_combat, is_hq_unit, is_motorized, is_rp, raiders, supply, supply_kind, tec, tec_class)
from core.rules.status import hex_of
from core.scenario import load


# --------------------------------------------------------------------------- the oracle: the trace before (26c9211)
def _trace_before(state: GameState, side: str, units: list[str], path: list[Hex], opts: MoveOptions,
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
    must_stop: set[str] = set()
    caps: dict[str, int] = {}                  # per unit: its allowance and EZOC map do not change along the path
    ez_of: dict[tuple[str, bool], dict[Hex, list[str]]] = {}
    stack_mot = _stack_motorized(moving)       # both change only where units are picked up or dropped off
    moving_real_cf = any(has_real_cf(u) for u in moving)
    for i, nxt in enumerate(path):
        if cur.distance(nxt) != 1:
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
        if not gm.on_grid(nxt):
            raise IllegalAction(f"{nxt.label} is off the hex grid; units may not leave it except by off-map movement", "13.8")
        real_cf_present = moving_real_cf or any(has_real_cf(o) for o in state.units_at(nxt.label) if o.side == side)
        for u in moving:
            name = counter_of(u).name
            if u.id in must_stop:
                raise IllegalAction(f"{name} entered an enemy ZOC at {cur.label} and must stop (unless overrunning)", "11.4")
            cls = tec_class(u)
            carried = _carried(u, moving, opts)
            if carried:
                cost, rt = 0, "road"
            else:
                cost, rt = tec.step_cost(gm, cls, cur, nxt)
                if guided and (cur.label in guided or nxt.label in guided):
                    cost, rt = tec.step_cost_ignoring(gm, cls, cur, nxt, WADI)     # 16.4 guiding
                if cost is None:
                    raise IllegalAction(f"{name} ({cls}) may not enter {nxt.label} from {cur.label}: prohibited terrain", "13.3")
                if opts.lift and supply_kind(u) == "msu" and _carries_division(moving):
                    cost *= 2                                   # 13.7 Important: one MSU carrying a division
            if opts.road_march and rt != "road" and not carried:
                raise IllegalAction(f"road march moves only along roads; {cur.label}->{nxt.label} is not a road", "13.2.3")
            if opts.road_march and lines is not None and nxt not in lines.los and is_combat(u):
                raise IllegalAction(f"road march may not enter {nxt.label}, where {name} would be OGS", "13.2.3")
            # 13.3: a motorised unit leaving a road or track loses any fraction of an MP
            if is_motorized(u) and route[u.id] in ("road", "track") and rt == "open" and spent[u.id] % E:
                spent[u.id] += E - spent[u.id] % E
            route[u.id] = rt
            ez = ez_of.get((u.id, stack_mot))
            if ez is None:
                ez = ez_of[(u.id, stack_mot)] = _ezoc_for(state, u, stack_mot, gm, cache)
            ignores = counter_of(u).sf or cls == "raider"         # 15.4, 16.1: ignore all EZOC
            extra = 0
            if not ignores and cur in ez and (u.id in in_ezoc) and _recon_superior(state, side, moving, ez[cur]):
                extra += RECON_EXTRA                               # 15.3 leaving a recon-superior ZOC
            if not ignores and nxt in ez:
                if u.id in in_ezoc and not opts.night and cur in ez:
                    raise IllegalAction(f"{name} may not move directly from one enemy ZOC ({cur.label}) into another "
                                        f"({nxt.label}) except by night movement", "11.4")
                if is_combat(u) and not has_real_cf(u) and not real_cf_present:
                    raise IllegalAction(f"{name} has a parenthesised or zero CF and may enter an enemy ZOC only with a "
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
            if opts.reaction and not is_motorized(u) and plan.hexes[u.id] > 1:
                raise IllegalAction(f"{name} is not motorised and may react at most one hex", "13.2.1")
            cap = caps.get(u.id)
            if cap is None:
                cap = caps[u.id] = allowance(state, u, opts, (rma_values or {}).get(u.id))
            if spent[u.id] > cap:
                raise IllegalAction(f"{name} needs {tec.mp(spent[u.id]):g} MP to reach {nxt.label} but has {tec.mp(cap):g}", "13.2")
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
        cur = nxt
    plan.route_flags = route
    plan.notes.append(",".join(sorted(must_stop)))
    return plan




# --------------------------------------------------------------------------- positions and paths
WINTER_GT = next(g for g in range(1, 39) if calendar.is_winter(g))
GHIBLI_GT = next(g for g in range(1, 39) if calendar.ghibli_possible(g) and not calendar.is_winter(g))


def outcome(fn, state, side, units, path, opts, **kw) -> tuple:
    """The plan's fields, or the refusal's type, reason and rule."""
    try:
        p = fn(state, side, units, path, opts, **kw)
    except Exception as e:          # noqa: BLE001 - compared, not swallowed: both traces must fail alike
        return ("refused", type(e).__name__, str(e), getattr(e, "rule", None))
    return ("plan", p.spent, p.loc, p.hexes, p.overrun_at, sorted(p.entered_ezoc), p.notes, p.route_flags)


def walk(rng: random.Random, start: Hex, n: int) -> list[Hex]:
    """A random line of hexes from ``start`` (any neighbour, on the grid or not), now and then a jump of two."""
    out, cur = [], start
    for _ in range(n):
        nb = cur.neighbours(on_grid_only=False)
        nxt = rng.choice(nb)
        if rng.random() < 0.03:
            nxt = rng.choice(nxt.neighbours(on_grid_only=False))       # not adjacent to cur (or cur itself)
        out.append(nxt)
        cur = nxt
    return out


def towards(start: Hex, target: Hex) -> list[Hex]:
    """A line of hexes from ``start`` into ``target`` (each step the neighbour nearest to it): an overrun (13.4)."""
    out, cur = [], start
    while cur != target and len(out) < 8:
        cur = min(cur.neighbours(on_grid_only=False), key=lambda h: (h.distance(target), h.label))
        out.append(cur)
    return out


def variants(state, path: list[Hex]):
    """The position as it is, under winter, under a Ghibli, and with a road built along ``path`` (18.3)."""
    yield "as is", state
    yield "winter", msgspec.structs.replace(state, gt=WINTER_GT, ghibli=False)
    yield "ghibli", msgspec.structs.replace(state, gt=GHIBLI_GT, ghibli=True)
    on = [h.label for h in path[:4] if h.on_grid]
    if len(on) >= 2:
        yield "road", msgspec.structs.replace(state, vars={**state.vars, "roads_built": {"test": on}})


def cases(state, side: str, rng: random.Random):
    """(units, path, opts, kwargs) for stacks of both sides at this position."""
    for s in (side, "Axis" if side == "Allied" else "Allied"):
        mine = [u for u in state.units.values() if u.side == s and hex_of(u) is not None]
        for u in rng.sample(mine, min(2, len(mine))):
            start = hex_of(u)
            stack = [o.id for o in state.units_at(u.loc) if o.side == s][:4]
            for units in ([u.id], stack):
                for opts in (MoveOptions(), MoveOptions(road_march=True), MoveOptions(night=True),
                             MoveOptions(reaction=True)):
                    paths = list(reachable_paths(state, s, units, opts, max_nodes=400).values())
                    for p in rng.sample(paths, min(2, len(paths))):
                        yield units, s, [Hex.parse(x) for x in p], opts, {}
                    yield units, s, walk(rng, start, rng.randint(1, 8)), opts, {}
                enemies = [h for e in state.units.values() if e.side != s and (h := hex_of(e)) is not None
                           and 0 < h.distance(start) <= 4]
                if enemies:
                    target = rng.choice(enemies)
                    p = towards(start, target)
                    yield units, s, p, MoveOptions(), {}
                    along = [h for h in p[-2].neighbours() if h.distance(target) == 1] if len(p) > 1 else []
                    if along:                                   # on along the enemy's ZOC (11.4)
                        yield units, s, [*p[:-1], rng.choice(along)], MoveOptions(), {}
                if len(units) > 1:
                    p = walk(rng, start, 4)
                    yield units, s, p, MoveOptions(), {"drop": {p[0]: [units[-1]]}}


@pytest.fixture(scope="module")
def compared() -> dict[str, int]:
    """Play random games and compare both traces at every Movement Phase decision; returns what was compared."""
    seen: dict[str, int] = {}
    for scenario, seed, limit in (("sonnenblume", 1, 400), ("fox-killed", 2, 200)):
        eng = Engine(initial_state(load(scenario), seed))
        bot, rng = RandomBot(seed), random.Random(seed)
        n = 0
        while (d := eng.pending()) is not None and n < limit:
            if d.kind == "movement" and rng.random() < 0.05:
                for units, side, path, opts, kw in cases(eng.state, d.side, rng):
                    for name, st in variants(eng.state, path):
                        old = outcome(_trace_before, st, side, units, path, opts, **kw)
                        new = outcome(movement.trace, st, side, units, path, opts, **kw)
                        assert new == old, (scenario, n, name, units, [h.label for h in path], opts, kw)
                        seen[name] = seen.get(name, 0) + 1
                        key = old[0] if old[0] == "plan" else f"refused {old[3]}"
                        seen[key] = seen.get(key, 0) + 1
                        if old[0] == "plan" and old[5]:
                            seen["entered EZOC"] = seen.get("entered EZOC", 0) + 1
                        if old[0] == "plan" and old[4] is not None:
                            seen["overrun"] = seen.get("overrun", 0) + 1
            eng.apply(bot.choose(d))
            n += 1
    return seen


def test_trace_over_the_step_tables_gives_what_it_gave_before(compared):
    """Both traces agree (asserted while playing); this checks that the comparison reached every kind of case."""
    for name in ("as is", "winter", "ghibli", "road", "plan", "entered EZOC", "overrun",
                 "refused 13.1", "refused 13.2", "refused 13.3", "refused 11.4", "refused 13.2.3", "refused 13.8"):
        assert compared.get(name, 0) > 0, (name, compared)
