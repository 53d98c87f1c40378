"""The ground war of the computer opponent: Movement Phase orders (13.0), reaction (13.5), combat declaration (14.0, 14.2) and the interleaved combat choices.

Every legal fact comes from the engine: the hexes a unit can reach and the paths the ``move`` action accepts
(query ``reachable``), supply lines (12.0, ``supply.supply_lines``), combat odds and the result of every die roll
(query ``odds``), and whether an action is accepted (applied on a copy first, :mod:`core.ai.search`).
"""

from __future__ import annotations

import heapq
import random
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from core.charts import decode_result
from core.decisions import Action, Decision, IllegalAction, other
from core.engine import Engine
from core.hexgrid import Hex
from core.names import place, unit_name  # names for the plan sentences (one definition: core.names)
from core.rules import movement as movement_rules
from core.rules import stacking, supply, tec, victory_rules
from core.rules.combat import dumps_for, may_attack
from core.rules.status import (
    hex_of, is_combat, is_motorized, is_track_marker, movement_allowance, tec_class,
)
from core.rules.special_units import info

from core.ai import admin, battle_forms, overrun, reserve
from core.ai import goals as goals_mod
from core.ai.evaluate import unit_value
from core.ai.search import accepted, accepted_move, fork

LOSS = {"Q": 0.25, "H": 0.5, "E": 1.0, "X": 0.5, None: 0.0}
#: the worth of a retreat code (14.5, 14.7) as a fraction of the unit's worth: r retreat, w withdraw or check, m check
RETREAT = {"r": 0.35, "w": 0.2, "m": 0.02, None: 0.0}
RETREAT_ATTACKER = {"r": 0.3, "w": 0.15, "m": 0.02, None: 0.0}
#: expected value (steps of worth gained minus lost) an attack must promise to be declared
ATTACK_THRESHOLD = 0.3
#: how far (hexes) enemy units are felt as a threat
THREAT_RADIUS = 3
#: motorised units sent at each enemy base the enemy's victory needs (:attr:`core.ai.goals.Goals.strike`): without
#: raiders (16.0 is optional, 16.1) the way is blocked by the enemy's units and ZOC (11.3), and a few units stopped
#: on it take nothing: the motorised force goes together and fights its way through.  12, not 16 (session 8, Trail
#: of the Fox as Allied vs random, 30 seeds: 18 wins against 15): the other motorised units clear the lines of
#: supply and hold the front behind it
STRIKE_FORCE = 12
#: in the scenario's last GTs (this many before its end, 4.0) the strike force runs beyond its line of supply: the
#: base must be reached before the end, and being out of supply afterwards costs less than arriving too late
STRIKE_LAST_GTS = 1
#: the worth of taking such a base (12.2.7), against the steps of worth an attack weighs (:func:`attack_value`)
STRIKE_WORTH = 10.0
#: motorised units sent at each hex of :attr:`core.ai.goals.Goals.raid` the enemy leaves empty ...
RAID_FORCE = 2
#: ... and, where enemy combat units hold it, enough more for this ratio of combat factors (up to RAID_MAX)
RAID_ODDS = 3.0
RAID_MAX = 8
#: units further than this many Movement Phases (by the terrain, at their MA) from an enemy stack cutting the side's
#: lines of supply are not sent back to attack it (:attr:`core.ai.goals.Goals.clear`)
CLEAR_TURNS = 1.5
#: while the side holds this many more ports than the enemy (27.3 more ports) ...
PORT_LEAD = 6
#: ... an objective it holds with no enemy combat unit this near (hexes) gets no garrison ...
HOLD_FAR = 16
#: ... unless it weighs this much (a smashing-level objective, :data:`core.ai.goals.LEVEL_WEIGHT`)
HOLD_ALWAYS = 3.0


# --------------------------------------------------------------------------- phase context
@dataclass
class Context:
    """What the side knows at the start of its phase: objectives, supply lines, the enemy's strength."""

    side: str
    goals: goals_mod.Goals
    loc: set
    #: hexes off the side's lines of supply (12.4.1) -> how far (hexes, up to LOS_FAR) from the nearest one on them
    los_dist: dict
    los: set
    #: hexes next to enemy combat units -> [(enemy hex label, its strength)]
    adjacent: dict
    enemy_cf: dict[Hex, float]
    threat: dict[Hex, float] = field(default_factory=dict)
    role: dict[str, str] = field(default_factory=dict)          # unit -> target hex label
    why: dict[str, str] = field(default_factory=dict)           # unit -> hold / take / siege / front
    siege_of: dict[str, str] = field(default_factory=dict)      # siege ring hex -> the objective it cuts off
    #: (objective, TEC class, around the enemy) -> {hex: MP in eighths to reach the objective}, see
    #: :func:`travel_field`
    travel: dict = field(default_factory=dict)
    #: the ids of the hexes on no map in play (R-MAPS-IN-PLAY), never on a way
    off_play: frozenset = frozenset()
    #: hexes of enemy combat units and the enemy ZOC a motorised unit respects (11.2), for a raid's way
    #: (:meth:`travel_mp` ``around_enemy``); filled when first needed
    enemy_hexes: frozenset | None = None
    enemy_zoc: frozenset | None = None

    def travel_mp(self, target: str, cls: str, h: Hex, around_enemy: bool = False, eng: Engine | None = None
                  ) -> float | None:
        """MP a unit of TEC class ``cls`` pays from ``h`` to ``target`` by the terrain alone (None: no way); with
        ``around_enemy`` (and ``eng``), never through an enemy combat unit's hex and paying :data:`EZOC_MP` more
        for each enemy ZOC hex entered on the way (11.3: a unit entering one stops)."""
        key = (target, cls, around_enemy)
        if key not in self.travel:
            blocked, ezoc = frozenset(), frozenset()
            if around_enemy and eng is not None:
                if self.enemy_hexes is None:
                    from core.rules import zoc
                    self.enemy_hexes = frozenset(self.enemy_cf)
                    self.enemy_zoc = frozenset(zoc.enemy_zoc(eng.state, other(self.side), motorized=True))
                blocked, ezoc = self.enemy_hexes, self.enemy_zoc or frozenset()
            self.travel[key] = travel_field(tec.current_map(), cls, Hex.parse(target), off=self.off_play,
                                            blocked=blocked, ezoc=ezoc)
        e = self.travel[key].get(h)
        return None if e is None else e / 8


#: how far (MP) :func:`travel_field` looks
TRAVEL_FAR = 160
#: what entering an enemy ZOC hex on the way adds (MP) in :func:`travel_field`: the unit stops there (11.3)
EZOC_MP = 12


def travel_field(gm: tec.GroundMap, cls: str, target: Hex, far: int = TRAVEL_FAR, off: frozenset = frozenset(),
                 blocked: frozenset = frozenset(), ezoc: frozenset = frozenset(), also: tuple = ()) -> dict[Hex, int]:
    """Every hex within ``far`` MP of ``target`` -> the MP (eighths) a unit of TEC class ``cls`` pays to move from it
    to ``target`` by the Terrain Effects Chart alone (13.3: roads negate other terrain, so the cheapest way is the
    road's); enemy units and ZOC are left to the engine's own search when the move is made, except that the way
    never passes a ``blocked`` hex (but may end in the target) and pays :data:`EZOC_MP` for each ``ezoc`` hex it
    enters before the target.  ``off``: the ids of the hexes on no map in play (13.1, R-MAPS-IN-PLAY), never
    crossed.  ``also``: more targets (the way to the nearest of them)."""
    dist: dict[Hex, int] = {t: 0 for t in (target, *also)}
    heap: list[tuple[int, Hex]] = sorted((0, t) for t in dist)
    while heap:
        d, h = heapq.heappop(heap)
        if d > dist.get(h, d) or d > far * 8:
            continue
        for n in h.neighbours():
            if not gm.on_grid(n) or (off and tec.hex_id(n) in off) or n in blocked:
                continue
            c, _ = tec.step_cost(gm, cls, n, h)           # from n into h
            if c is None:
                continue
            nd = d + c + (EZOC_MP * 8 if h in ezoc and h != target else 0)
            if nd < dist.get(n, nd + 1):
                dist[n] = nd
                heapq.heappush(heap, (nd, n))
    return dist


def _enemy_strength(eng: Engine, side: str) -> dict[Hex, float]:
    out: dict[Hex, float] = {}
    for u in eng.state.units_of(other(side)):
        h = hex_of(u)
        if h is None or not is_combat(u):
            continue
        out[h] = out.get(h, 0.0) + max(0.5, float(info(eng.state, u.id).cf))
    return out


def _threat_map(enemy: dict[Hex, float]) -> dict[Hex, float]:
    out: dict[Hex, float] = {}
    for h, s in enemy.items():
        for r in range(0, THREAT_RADIUS + 1):
            w = s if r <= 1 else s * 0.5 if r == 2 else s * 0.25
            for n in (h.ring(r) if r else [h]):
                out[n] = out.get(n, 0.0) + w
    return out


def context(eng: Engine, side: str) -> Context:
    st = eng.state
    g = goals_mod.goals(eng, side)
    enemy = _enemy_strength(eng, side)
    lines = supply.supply_lines(st, side)
    g.clear = clear_targets(eng, side, g, lines)
    adjacent: dict = {}
    for eh, cf_ in enemy.items():
        for n in eh.neighbours():
            adjacent.setdefault(n, []).append((eh.label, cf_))
    ctx = Context(side=side, goals=g, loc=set(lines.loc), los_dist=_distance_from(set(lines.los), LOS_FAR),
                  los=set(lines.los), adjacent=adjacent,
                  enemy_cf=enemy, threat=_threat_map(enemy), off_play=movement_rules.off_play_ids(st))
    assign_roles(eng, ctx)
    return ctx


LOS_FAR = 6


def clear_targets(eng: Engine, side: str, g: goals_mod.Goals, lines: Any = None) -> dict[str, float]:
    """The enemy stacks cutting the side's lines of supply (12.4, :func:`core.ai.goals.supply_blockers`) that are
    not objectives the side besieges (those are cut off and attacked by the siege, not cleared)."""
    return {h: w for h, w in goals_mod.supply_blockers(eng, side, lines).items() if h not in g.siege}


def _distance_from(region: set, far: int) -> dict:
    """Hexes within ``far`` of ``region`` but outside it -> their distance (hexes) from it."""
    out: dict = {}
    frontier = [h for h in region if any(n not in region for n in h.neighbours())]
    seen = set(region)
    for d in range(1, far + 1):
        nxt = []
        for h in frontier:
            for n in h.neighbours():
                if n not in seen:
                    seen.add(n)
                    out[n] = d
                    nxt.append(n)
        frontier = nxt
    return out


def _movers(eng: Engine, side: str) -> list[str]:
    reserved = admin.reserved_units(eng, side)         # moved by the admin AI (7.4 withdrawals)
    return sorted(u.id for u in eng.state.units_of(side)
                  if hex_of(u) is not None and is_combat(u) and movement_allowance(u) > 0 and u.id not in reserved)


def assign_roles(eng: Engine, ctx: Context) -> None:
    """Garrison the objectives the side holds (the nearest units, two per hex), send the others against the
    objectives the enemy holds (the nearest by distance over weight) or, with none, toward the nearest enemy."""
    st = eng.state
    units = _movers(eng, ctx.side)
    free = set(units)
    pos = {u: hex_of(st.units[u]) for u in units}
    spare_far = "more_ports" in ctx.goals.kinds and (
        victory_rules.port_count(eng, ctx.side) - victory_rules.port_count(eng, other(ctx.side)) >= PORT_LEAD)
    for h, w in sorted(ctx.goals.hold.items(), key=lambda kv: (-kv[1], kv[0])):
        hx = Hex.parse(h)
        # two defenders where the enemy is near, else one garrison (a slow unit first) against a raid; none far
        # behind the front when a raid there cannot cost the victory (a lead in ports, 27.3): those units go forward
        need = 2 if _near_enemy(ctx, hx, 8) else 1
        if need == 1 and spare_far and w < HOLD_ALWAYS and not _near_enemy(ctx, hx, HOLD_FAR):
            need = 0
        for uid in sorted(free, key=lambda u: (pos[u].distance(hx) + (2 if is_motorized(st.units[u]) else 0), u)):
            if need <= 0 or pos[uid].distance(hx) > 10:
                break
            ctx.role[uid], ctx.why[uid] = h, "hold"
            free.discard(uid)
            need -= 1
    for base, _w in sorted(ctx.goals.strike.items(), key=lambda kv: (-kv[1], kv[0])):
        # a motorised force dashes at an enemy base the enemy's victory needs, to take it in a Combat Phase (12.2.6,
        # 12.2.7): the fastest units that can get next to it soonest
        def phases(u: str) -> float:
            mp = ctx.travel_mp(base, tec_class(st, st.units[u]), pos[u])
            return (mp if mp is not None else 10 ** 6) / max(1, movement_allowance(st.units[u]))

        fast = sorted((u for u in free if is_motorized(st.units[u]) and info(st, u).real_cf),
                      key=lambda u: (phases(u), u))
        for uid in fast[:STRIKE_FORCE]:
            ctx.role[uid], ctx.why[uid] = base, "strike"
            free.discard(uid)
    for h, _w in sorted(ctx.goals.clear.items(), key=lambda kv: (-kv[1], kv[0])):
        # an enemy stack that cuts the side's lines of supply (12.4) is attacked by the units nearest to it, enough
        # for RAID_ODDS (at least RAID_FORCE units), none further than CLEAR_TURNS Movement Phases away: the units
        # it cuts off are out of general supply until it is gone (12.5)
        def phases_to(u: str, h: str = h) -> float:
            mp = ctx.travel_mp(h, tec_class(st, st.units[u]), pos[u])
            return (mp if mp is not None else 10 ** 6) / max(1, movement_allowance(st.units[u]))

        need = RAID_ODDS * ctx.enemy_cf.get(Hex.parse(h), 0.0)
        force, team = 0.0, []
        for uid in sorted((u for u in free if info(st, u).real_cf), key=lambda u: (phases_to(u), u)):
            if len(team) >= STRIKE_FORCE or (len(team) >= RAID_FORCE and force >= need) or phases_to(uid) > CLEAR_TURNS:
                break
            team.append(uid)
            force += max(0.5, float(info(st, uid).cf))
        if force < need:
            continue            # not enough near it for the odds: the units go on with their other tasks
        for uid in team:
            ctx.role[uid], ctx.why[uid] = h, "clear"
            free.discard(uid)
    for h, _w in sorted(ctx.goals.raid.items(), key=lambda kv: (-kv[1], kv[0])):
        # a detachment takes a hex the side's own victory needs where the enemy is weak or absent (2.2.2: entering
        # it is enough; 26.3's ports, AXC-9's Mersa Matruh): the units that get there soonest by the cheapest way
        def turns(u: str, h: str = h) -> float:
            mp = ctx.travel_mp(h, tec_class(st, st.units[u]), pos[u], around_enemy=True, eng=eng)
            return (mp if mp is not None else 10 ** 6) / max(1, movement_allowance(st.units[u]))

        garrison = ctx.enemy_cf.get(Hex.parse(h), 0.0)
        if not garrison and any(v.side != ctx.side and not is_track_marker(v) for v in st.units_at(h)):
            garrison = 1.0      # 12.2.6: supply units alone "defend with a combined combat factor of one"
        force = 0.0
        # a disrupted unit out of general supply cannot recover (12.5 e) nor advance into the hex after combat (14.8)
        fast = sorted((u for u in free if is_motorized(st.units[u]) and info(st, u).real_cf
                       and not (st.units[u].disrupted and st.units[u].ogs)),
                      key=lambda u: (turns(u), u))
        for n, uid in enumerate(fast):
            if n >= RAID_MAX or (n >= RAID_FORCE and force >= RAID_ODDS * garrison) or turns(uid) >= 10 ** 5:
                break
            ctx.role[uid], ctx.why[uid] = h, "raid"
            free.discard(uid)
            force += max(0.5, float(info(st, uid).cf))
    for obj, ring in sorted(ctx.goals.siege.items(), key=lambda kv: (-ctx.goals.weights.get(kv[0], 0),
                                                                      len(kv[1]), kv[0])):
        for r in ring:
            rh = Hex.parse(r)
            if not free:
                break
            uid = min(free, key=lambda u: (pos[u].distance(rh) / max(1, movement_allowance(st.units[u])), u))
            ctx.role[uid], ctx.why[uid] = r, "siege"
            ctx.siege_of[r] = obj
            free.discard(uid)
    takes = [(Hex.parse(h), w, h) for h, w in ctx.goals.take.items()]
    enemy_hexes = sorted(ctx.enemy_cf, key=lambda x: x.label)
    for uid in sorted(free):
        p = pos[uid]
        if takes:
            t = min(takes, key=lambda x: (p.distance(x[0]) / x[1] ** 1.5, x[2]))
            ctx.role[uid], ctx.why[uid] = t[2], "take"
        elif enemy_hexes:
            e = min(enemy_hexes, key=lambda x: (p.distance(x), x.label))
            ctx.role[uid], ctx.why[uid] = e.label, "front"


def _near_enemy(ctx: Context, h: Hex, radius: int) -> bool:
    return any(h.distance(e) <= radius for e in ctx.enemy_cf)


def _stack_points(eng: Engine, label: str) -> int:
    return sum(stacking.stacking_points(u) for u in eng.state.units_at(label))


def _own_cf(eng: Engine, side: str, label: str) -> float:
    return sum(max(0.5, float(info(eng.state, u.id).cf)) for u in eng.state.units_at(label)
               if u.side == side and is_combat(u))


def score_hex(eng: Engine, ctx: Context, uid: str, start: Hex, h: Hex, mp: float,
              own: dict[str, float] | None = None) -> float:
    """How good ending the move of ``uid`` in ``h`` is (higher better); ``own``: the side's combat strength by hex
    (computed when not given)."""
    st = eng.state
    u = st.units[uid]
    target = ctx.role.get(uid)
    why = ctx.why.get(uid, "")
    s = 0.0
    if target:
        t = Hex.parse(target)
        d0, d1 = start.distance(t), h.distance(t)
        if why in ("strike", "raid"):
            # the cheapest way in MP (the road), not the straight line: 4 road hexes of a motorised unit are 1 MP
            cls, around = tec_class(st, u), why == "raid"
            m0 = ctx.travel_mp(target, cls, start, around, eng)
            m1 = ctx.travel_mp(target, cls, h, around, eng)
            if m0 is not None and m1 is not None:
                s += (m0 - m1) * 1.5
        else:
            s += (d0 - d1) * (1.5 if why in ("take", "siege", "clear") else 1.0)
        if d1 == 0:
            s += 4.0 if why != "front" else 0.0
        elif why == "siege" and d1 == 1:
            s += 1.5
        elif why in ("strike", "raid", "clear") and d1 == 1:
            s += 6.0                  # next to it: it can be attacked in the Combat Phase (14.0, 12.2.6)
        if why == "hold" and d1 > 1:
            s -= 1.0
    mine = max(0.5, float(info(st, uid).cf))
    if own is None:
        own = _own_strength(eng, ctx.side)
    here = own.get(h.label, 0.0) + (0 if h == start else mine)
    threat = ctx.threat.get(h, 0.0)
    dash = why == "strike" and st.end_gt - st.gt <= STRIKE_LAST_GTS
    # a raider goes beyond supply on purpose: entering the hex is what counts (2.2.2), and the scenario ends before
    # its supply tells (12.5, 12.7)
    beyond = dash or why == "raid"
    if h not in ctx.loc and not beyond:
        s -= 3.0
    off = 0 if h in ctx.los else ctx.los_dist.get(h, LOS_FAR + 1)
    if off > 2 and not beyond:        # beyond where an MSU can follow (12.4.1 c): out of general supply next phase
        s -= (off - 2) * (1.2 if is_motorized(u) else 0.6)
    if threat > 0:
        ratio = threat / max(here, 0.5)
        if ratio > 3:
            s -= min(6.0, (ratio - 3) * 0.8) * (0.5 if why in ("take", "siege", "strike", "raid", "clear") else 1.0)
    # adjacent enemy stacks we could attack at good odds next Combat Phase
    for n, e in ctx.adjacent.get(h, ()):
        if here >= 2.5 * e:
            s += 1.0 + (2.0 if n in ctx.goals.take else 0.0)
        elif here < e:
            s -= 1.0
    if h.label in ctx.goals.take and not ctx.enemy_cf.get(h):
        s += 3.0 * ctx.goals.take[h.label]
    if h.label in ctx.goals.hold:
        s += 1.0
    return s - 0.01 * mp


def _own_strength(eng: Engine, side: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for u in eng.state.units_of(side):
        if is_combat(u) and hex_of(u) is not None:
            out[u.loc] = out.get(u.loc, 0.0) + max(0.5, float(info(eng.state, u.id).cf))
    return out


def best_move(eng: Engine, ctx: Context, uid: str) -> tuple[Action | None, str]:
    """The best move of ``uid`` by :func:`score_hex`, or None when staying put is as good."""
    st = eng.state
    u = st.units[uid]
    start = hex_of(u)
    if start is None:
        return None, ""
    side = ctx.side
    target = ctx.role.get(uid, "")
    if ctx.why.get(uid) in ("take", "strike", "raid") and target and not ctx.enemy_cf.get(Hex.parse(target)) and any(
            v.side != side for v in st.units_at(target)):
        act = _capture(eng, side, uid, target)      # only enemy supply units there: capture them (12.2.7, 13.4)
        if act is not None:
            return act, f"capturing {place(target)}"
    reach = reachable(eng, side, uid)
    own = _own_strength(eng, side)
    stay = score_hex(eng, ctx, uid, start, start, 0.0, own)
    own_pts = stacking.stacking_points(u)
    gm = tec.current_map()
    ranked = []
    for lab, path in reach.items():
        h = Hex.parse(lab)
        if h == start:
            continue
        if _stack_points(eng, lab) + own_pts > stacking.limit(gm, lab):
            continue
        sc = score_hex(eng, ctx, uid, start, h, float(len(path)), own)
        if sc > stay + 0.5:
            ranked.append((-sc, lab, path))
    ranked.sort()
    why = ctx.why.get(uid, "")
    verb = {"take": "advancing on", "hold": "holding", "front": "closing up toward",
            "siege": "cutting off", "strike": "dashing at the base in", "raid": "raiding",
            "clear": "clearing the line of supply at"}.get(why, "moving toward")
    if why == "siege":
        target = ctx.siege_of.get(target, target)
    for _sc, lab, path in ranked[:3]:
        act = Action(kind="move", side=side, args={"units": [uid], "path": list(path)})
        if accepted(eng, act) is not None:
            return act, f"{verb} {place(target)}" if target else ""
    return None, ""


def _capture(eng: Engine, side: str, uid: str, target: str) -> Action | None:
    try:
        r = eng.query("route", units=[uid], to=target)
    except IllegalAction:
        return None
    if not r:
        return None
    act = Action(kind="move", side=side, args={"units": [uid], "path": list(r["path"])})
    return act if accepted(eng, act) is not None else None


def reachable(eng: Engine, side: str, uid: str) -> dict[str, list[str]]:
    """The hexes ``uid`` can reach now -> the path the ``move`` action takes (the engine's own search behind the
    ``reachable`` query, 13.0-13.4; a path the engine then refuses is skipped when tried)."""
    try:
        return dict(movement_rules.reachable_paths(eng.state, side, [uid],
                                                   movement_rules._query_opts(eng, False, False)))
    except IllegalAction:
        return {}


def movement(player: Any, d: Decision, eng: Engine) -> Action | None:
    """4.1 VI.3 (after the admin moves, :func:`core.ai.admin.movement_first`, asked by the player): one unit at a
    time by :func:`best_move`, leaving alone the units the admin moves (:func:`core.ai.admin.reserved_units`)."""
    st = eng.state
    side = d.side
    mem = phase_memory(player, eng, "movement", side)
    if "ctx" not in mem:
        mem.update(ctx=context(eng, side), tried=set(), said=[])
    ctx: Context = mem["ctx"]
    moved = d.context.get("moved", {})
    order = sorted(_movers(eng, side), key=lambda x: (not is_motorized(st.units[x]), x))
    for uid in order:
        if uid in mem["tried"] or uid in moved:
            continue
        mem["tried"].add(uid)
        act, why = (None, "") if ctx.why.get(uid) == "hold" else overrun.best_overrun(eng, ctx, uid)   # 13.4
        if act is None:
            act, why = best_move(eng, ctx, uid)
        if act is None and (act := reserve.enter_reserve(eng, ctx, uid)) is not None:     # 13.6
            why = f"{unit_name(uid)} in reserve"
        if act is None:
            continue
        if why and why not in mem["said"]:
            mem["said"].append(why)
            player.say(f"{side}: " + "; ".join(mem["said"][:3]) + ".")
        return act
    mark = battle_forms.mark_mobile(player, d, eng, attack_value, goals_mod.goals(eng, side))     # 14.9.2
    if mark is not None:
        return mark
    return _done(d, side)


def phase_memory(player: Any, eng: Engine, kind: str, side: str) -> dict:
    """The player's working notes for this step of this phase (cleared when the game has moved on)."""
    st = eng.state
    key = (kind, st.gt, st.phase, st.step, side)
    mem = player.memory
    if mem.get("key") != key:
        mem.clear()
        mem["key"] = key
    return mem


def _done(d: Decision, side: str) -> Action | None:
    for o in d.options:
        if o.action.kind == "done" and o.action.side == side:
            return o.action
    return None


def _within_surprise_rma(st: Any, side: str, uid: str, path: list[str]) -> bool:
    """6.2: a surprised motorised unit not in reserve rolls 1d6 for its RMA when it reacts, after the path is given
    (``movement.reaction_allowance``); the AI does not know the real die, so it sends only a path the lowest roll
    (1, +2 with an HQ, 15.6) allows.  Any other unit: True."""
    u = st.units[uid]
    if not movement_rules.rolls_for_rma(st, u):
        return True
    opts = movement_rules.MoveOptions(reaction=True)
    cap = (1 + movement_rules.hq_reaction_bonus(u, movement_rules.is_hq_unit(u))) * tec.EIGHTH
    try:
        spent = movement_rules.path_cost(st, side, [uid], path, opts)
    except IllegalAction:
        return False
    return spent.get(uid, cap + 1) <= cap


def reaction(player: Any, d: Decision, eng: Engine) -> Action | None:
    """13.5: react to put a defender into an objective the side holds that the enemy is next to and nobody
    defends; otherwise stand (the moves the engine accepts, tried on a copy first)."""
    st = eng.state
    side = d.side
    mem = phase_memory(player, eng, "reaction", side)
    mem.setdefault("tried", set())
    act = reserve.react(player, d, eng, mem)          # 13.6: the units in reserve first
    if act is not None:
        return act
    frame = st.stack[-1]
    g = goals_mod.goals(eng, side)
    enemy = _enemy_strength(eng, side)
    for h, _w in sorted(g.hold.items(), key=lambda kv: (-kv[1], kv[0])):
        hx = Hex.parse(h)
        if _own_cf(eng, side, h) > 0 or not any(hx.distance(e) <= 2 for e in enemy):
            continue
        for uid in _movers(eng, side):
            u = st.units[uid]
            if uid in mem["tried"] or hex_of(u).distance(hx) > 3 or not movement_rules.reaction_eligible(eng, frame, u):
                continue
            mem["tried"].add(uid)
            path = reachable(eng, side, uid).get(h)
            if not path or not _within_surprise_rma(st, side, uid, path):
                continue
            act = accepted_move(eng, side, [uid], path)
            if act is not None:
                player.say(f"{side}: {unit_name(uid)} reacts into {place(h)} (13.5).")
                return act
    return _done(d, side)


# --------------------------------------------------------------------------- combat
def attack_value(eng: Engine, side: str, attackers: list[str], hexes: list[str], form: str = "regular",
                 goals: goals_mod.Goals | None = None) -> tuple[float, str]:
    """Expected worth of an attack from the engine's odds preview (14.3-14.5): the defenders' expected losses and
    retreats minus the attackers' expected losses, plus the chance of clearing an objective hex; and the odds text."""
    st = eng.state
    defenders0 = sorted({v.id for h in hexes for v in st.units_at(h) if v.side == other(side) and is_combat(v)})
    try:
        pv = eng.query("odds", attackers=attackers, hex=hexes[0], hexes=hexes, form=form,
                       att_supplied=combat_supply(st, side, attackers), def_supplied=combat_supply(st, other(side), defenders0))
    except (IllegalAction, KeyError, ValueError):
        return -99.0, ""
    gain = 0.0
    defenders = list(pv.get("defenders", []))
    line = str(pv.get("line", ""))
    for row in pv["results"]:
        by = row["by_unit"]
        dl = 0.0
        dsteps = 0.0
        cleared = bool(defenders)
        if not defenders:
            # supply units alone: any defender result but No Effect, then an advance of an attacker that neither
            # retreats nor is eliminated, takes them (12.2.6, 12.2.7, 14.8)
            res = [decode_result(by.get(a, "-")) for a in attackers]
            cleared = (str(row.get("defender", {}).get(line, "-")) != "-"
                       and any(r.loss != "E" and r.retreat not in ("w", "r") for r in res))
        for du in defenders:
            r = decode_result(by.get(du, "-"))
            u = st.units.get(du)
            v = unit_value(u) if u is not None else 1.0
            frac = LOSS.get(r.loss, 0.0) if r.loss != "X" else 0.0
            dl += frac * v + RETREAT.get(r.retreat, 0.0) * v
            dsteps += frac * (u.steps if u is not None else 1)
            if not (r.loss == "E" or r.retreat == "r"):
                cleared = False
        al = 0.0
        per_step = sum(unit_value(st.units[a]) / max(1, st.units[a].steps) for a in attackers) / max(1, len(attackers))
        for au in attackers:
            r = decode_result(by.get(au, "-"))
            u = st.units[au]
            if r.loss == "X":
                al += 0.5 * dsteps * per_step / max(1, len(attackers))
            else:
                al += LOSS.get(r.loss, 0.0) * unit_value(u)
            al += RETREAT_ATTACKER.get(r.retreat, 0.0) * unit_value(u)
        obj = 0.0
        if goals is not None and cleared:
            obj = sum(3.0 * (goals.take.get(h, 0.0) + goals.clear.get(h, 0.0)) + STRIKE_WORTH * goals.strike.get(h, 0.0)
                      for h in hexes)
        gain += dl - al + obj
    return gain / max(1, len(pv["results"])), str(pv.get("odds", ""))


def combat_supply(st: Any, side: str, units: list[str]) -> dict[str, bool]:
    """12.6: whether each unit would be in combat supply: supplied without a dump, or a friendly dump reaches its hex
    (:func:`core.rules.combat.dumps_for`)."""
    out: dict[str, bool] = {}
    reach: dict[str, bool] = {}
    for uid in units:
        u = st.units[uid]
        if supply.combat_supplied_without_dump(st, u):
            out[uid] = True
            continue
        if u.loc not in reach:
            reach[u.loc] = bool(dumps_for(st, side, u.loc))
        out[uid] = reach[u.loc]
    return out


_REQ = re.compile(r" in (\S+) projects a ZOC")
#: attacks whose odds-preview worth is below this are also resolved on copies before being declared
LOOKAHEAD_BELOW = 2.0
#: ... and declined when on those copies it loses more worth than this
LOOKAHEAD_VETO = -0.5


def simulate_attack(eng: Engine, side: str, declarations: list[Action], rng: Any, samples: int,
                    depth: int = 40) -> tuple[float | None, int]:
    """The mean gain in worth (enemy worth lost minus own, :func:`core.ai.evaluate.material`) of declaring only
    ``declarations`` and resolving the Combat Phase on ``samples`` copies, every choice on the way answered as a
    player who passes would; and the nodes (actions applied) it cost."""
    from core.ai.evaluate import material

    me0, them0 = material(eng, side), material(eng, other(side))
    total, nodes = 0.0, 0
    for _ in range(samples):
        copy = fork(eng, random.Random(rng.random()))
        try:
            for a in declarations:
                copy.apply(a)
                nodes += 1
            d = copy.pending()
            done = next((o.action for o in d.options if o.action.kind == "done"), None)
            if done is None:
                return None, nodes
            copy.apply(done)
            nodes += 1
            for _ in range(depth):
                d = copy.pending()
                if d is None or not d.kind.startswith("combat") or d.kind == "combat_declare":
                    break
                copy.apply(_pass_answer(d))
                nodes += 1
        except IllegalAction:
            return None, nodes
        total += (them0 - material(copy, other(side))) - (me0 - material(copy, side))
    return total / max(1, samples), nodes


def _pass_answer(d: Decision) -> Action:
    for o in d.options:
        if o.action.kind == "done":
            return o.action
    return next((o.action for o in d.options if o.action.kind != "cancel"), d.options[0].action)


def plan_attacks(player: Any, eng: Engine, side: str) -> tuple[list[Action], list[str]]:
    """14.0, 14.2: the attacks worth declaring, each checked on a copy with the hexes 14.2 then requires added;
    returns the declarations (then done) and the plan sentences."""
    st = eng.state
    g = goals_mod.goals(eng, side)
    g.clear = clear_targets(eng, side, g)
    for h, w in goals_mod.strike_blockers(eng, side, g).items():     # the way to the base (11.4, 30.3-like)
        g.clear[h] = max(g.clear.get(h, 0.0), w)
    by_hex: dict[str, list[str]] = {}
    for u in st.units_of(side):
        if hex_of(u) is not None and is_combat(u) and may_attack(st, u.id) is None and not u.flags.get("battle"):
            by_hex.setdefault(u.loc, []).append(u.id)
    targets: dict[str, list[str]] = {}
    groups: dict[str, list[list[str]]] = {}            # each target -> the attackers of each adjacent hex
    for loc, ids in by_hex.items():
        for n in Hex.parse(loc).neighbours():
            here = st.units_at(n.label)
            # enemy combat units; or an enemy base the enemy's victory needs, or a hex the side's own victory needs
            # (a raid), held by supply units alone where it cannot be overrun (13.4.2): they defend with one factor,
            # and any result but No Effect followed by an advance takes them (12.2.6, 12.2.7)
            if any(v.side == other(side) and is_combat(v) for v in here) or (
                    (n.label in g.strike or n.label in g.raid)
                    and any(v.side == other(side) and not is_track_marker(v) for v in here)):
                targets.setdefault(n.label, []).extend(sorted(ids))
                groups.setdefault(n.label, []).append(sorted(ids))
    cands = []
    for h, att in sorted(targets.items()):
        val, odds = attack_value(eng, side, sorted(set(att)), [h], goals=g)
        cands.append((val, h, sorted(set(att)), odds, "regular"))
    for h, (form, att) in sorted(battle_forms.marked_by_hex(eng, side).items()):     # 14.9.1 / 14.9.2
        val, odds = attack_value(eng, side, att, [h], form=form, goals=g)
        cands.append((val, h, att, odds, form))
    cands.sort(key=lambda c: (-c[0], c[1], c[4]))
    plan: list[Action] = []
    lines: list[str] = []
    budget = [int(getattr(player, "budget", 0))]      # nodes (actions applied on copies) for the look-ahead
    copy = None
    used: set[str] = set()

    def alone(h: str, form: str, att: list[str]) -> list[tuple]:
        """Where the units of several hexes next to ``h`` are refused together, each hex's units alone: units in
        another defender's ZOC must attack it too (14.2), and a combat of several defending hexes needs "all
        attacking units ... adjacent to all defending units" (14.2), which one hex's units may be."""
        if form != "regular" or len({st.units[a].loc for a in att}) < 2:
            return []
        out = []
        for grp in groups.get(h, []):
            v, o = attack_value(eng, side, grp, [h], goals=g)
            if v >= LOOKAHEAD_BELOW:        # only a clear gain: a lone hex's attack is weaker than the whole's
                out.append((v, h, grp, o, form))
        return sorted(out, key=lambda c: (-c[0], c[2]))

    i = -1
    while (i := i + 1) < len(cands):
        val, h, att, odds, form = cands[i]
        if val < ATTACK_THRESHOLD:
            continue
        att = [a for a in att if a not in used and not any(st.units[a].loc == st.units[x].loc for x in used)]
        if not att:
            continue
        val, odds = attack_value(eng, side, att, [h], form=form, goals=g)
        if val < ATTACK_THRESHOLD:
            continue
        base = copy if copy is not None else eng
        acts = [Action(kind="declare", side=side, args={"attackers": att, "hexes": [h], "form": form})]
        trial = accepted(base, acts[0])
        if trial is None:
            cands[i + 1:i + 1] = alone(h, form, att)
            continue
        hexes = [h]
        ok = True
        for _ in range(4):
            dd = trial.pending()
            req = dd.context.get("required", []) if dd is not None and dd.kind == "combat_declare" else []
            need = sorted({m.group(1) for r in req for m in [_REQ.search(r)] if m} - set(hexes))
            if not need:
                break
            if form != "regular":
                ok = False              # 14.9.1 / 14.9.2: "Only one hex may be attacked per combat"
                break
            hexes = sorted(set(hexes) | set(need))
            ext = Action(kind="declare", side=side, args={"attackers": att, "hexes": hexes, "form": "regular"})
            nxt = accepted(trial, ext)
            if nxt is None:
                ok = False
                break
            acts.append(ext)
            trial = nxt
        else:
            ok = False
        if not ok:
            cands[i + 1:i + 1] = alone(h, form, att)
            continue
        if len(hexes) > 1:
            val, odds = attack_value(eng, side, att, hexes, goals=g)
            if val < ATTACK_THRESHOLD:
                continue
        dd = trial.pending()
        if dd is None or dd.kind != "combat_declare" or dd.context.get("required"):
            continue
        if budget[0] > 0 and val < LOOKAHEAD_BELOW:
            # a doubtful attack: resolve it on copies with dice from the player's own RNG (never the game's)
            sim, spent = simulate_attack(eng, side, acts, player.rng_for(eng, f"attack:{hexes[0]}"),
                                         samples=max(1, min(4, budget[0] // 25)))
            budget[0] -= spent
            if sim is not None and sim < LOOKAHEAD_VETO:
                continue                    # on the copies it costs more than it gains
        copy = trial
        plan += acts
        used.update(att)
        names = ", ".join(unit_name(a) for a in att[:3]) + (f" and {len(att) - 3} more" if len(att) > 3 else "")
        how = {"mobile": " in a mobile battle", "deliberate": " in a deliberate battle"}.get(form, "")
        lines.append(f"attacking {place(hexes[0])} at {odds}{how} with {names}")
    return plan, lines


def combat_declare(player: Any, d: Decision, eng: Engine) -> Action | None:
    """14.0: declare the attacks :func:`plan_attacks` chose, one at a time, then done (cancelling only if a
    requirement of 14.2 were left unmet)."""
    side = d.side
    mem = phase_memory(player, eng, "declare", side)
    if "queue" not in mem:
        if d.context.get("combats"):
            mem["queue"] = []          # combats declared before this player took over: keep them
        else:
            plan, lines = plan_attacks(player, eng, side)
            mem["queue"] = plan
            if lines:
                player.say(f"{side}: " + "; ".join(lines[:3]) + ".")
    while mem["queue"]:
        a = mem["queue"].pop(0)
        if accepted(eng, a) is not None:
            return a
        mem["queue"].clear()
    done = _done(d, side)
    if done is not None:
        return done
    # a requirement of 14.2 is unmet: cancel the last combat until none is
    for o in d.options:
        if o.action.kind == "cancel":
            return o.action
    return None


def combat_loss(player: Any, d: Decision, eng: Engine) -> Action | None:
    """14.6: the step that costs the owner least when we pick our own losses, the one that costs most when we pick
    the enemy's first step (a one-step unit loses all its worth, a larger one a share of it)."""
    st = eng.state

    def cost(o: Any) -> float:
        u = st.units.get(str(o.action.args.get("unit")))
        if u is None:
            return 0.0
        return unit_value(u) / max(1, u.steps) if u.steps > 1 else unit_value(u)

    opts = [o for o in d.options if o.action.kind == "lose_step" and o.action.side == d.side]
    if not opts:
        return None
    mine = [o for o in opts if st.units[str(o.action.args.get("unit"))].side == d.side]
    if mine:
        return min(mine, key=lambda o: (cost(o), str(o.action.args.get("unit")))).action
    return max(opts, key=lambda o: (cost(o), str(o.action.args.get("unit")))).action


HANDLERS: dict[str, Callable[[Any, Decision, Engine], Action | None]] = {
    "combat_loss": combat_loss,
    "movement": movement,
    "reaction": reaction,
    "combat_declare": combat_declare,
    "overrun_reaction": overrun.react_away,          # 13.4.3
}
