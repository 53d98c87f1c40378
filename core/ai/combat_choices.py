"""The computer opponent's interleaved combat choices (issue 21: "every interleaved choice"): the retreat path
(14.7), the morale choice of an ``m`` result (14.5), the advance after combat (14.8) and exploitation (14.9.3).

Every legal fact comes from the engine: the hexes a retreat may enter next and where it may stop
(:func:`core.rules.combat.legal_retreat_steps`, :func:`core.rules.combat.stop_allowed`), enemy ZOC
(:func:`core.rules.combat.in_ezoc`), the side's lines of supply (12.4, :func:`core.rules.supply.supply_lines`),
stacking (10.0, the combat rules' own count), the morale check's modified morale (8.1, 14.5) and the options the
decision offers.  Nothing here decides legality: each answer is one of the decision's own options.
"""

from __future__ import annotations

from typing import Any, Callable

from core.decisions import Action, Decision, other
from core.engine import Engine
from core.hexgrid import Hex, HexLabelError
from core.rules import combat as combat_rules
from core.rules import special_units as su
from core.rules import supply
from core.rules.status import hex_of, is_combat, is_motorized, morale_passes

from core.ai import goals as goals_mod

#: the worth of ending a retreat in each kind of hex (higher better)
IN_SUPPLY = 4.0          # on a line of supply (12.4.1): in general supply (12.5 IGS)
ON_LOC = 1.5             # on a line of communication only (12.4.2): out of general supply (12.5 OGS), not isolated
NEXT_TO_ENEMY = -2.0     # per enemy combat stack adjacent: attacked again, surrounded
IN_EZOC = -1.5           # the retreat ends in an enemy ZOC (11.4): no ZOC-free way out next phase
OVERSTACKED = -6.0       # 14.7.2: every unit in the hex disrupted
STEP_LOST = -5.0         # 14.7.1: unable to retreat the minimum, one step lost
OBSTRUCTED = 1.0         # a city, fort or mountain hex (14.7.1: the retreat may end there; it defends better)
HOLD_OBJECTIVE = 2.0     # an objective hex the side holds
BEYOND_MINIMUM = -0.3    # per hex retreated beyond the minimum: ground given up
STAY = 2.5               # a retreat of 0-n hexes (14.5: an m result whose check was taken) that stays put: the unit
                         # keeps its ground (after an overrun, its move: 13.4.4)
#: a morale check is taken (rather than a withdrawal) when it passes at least this often, or in an objective hex
CHECK_AT = 0.5
#: exploitation steps (14.9.3) the player takes per combat at most
EXPLOIT_STEPS = 12


def _cache(player: Any, eng: Engine, side: str) -> dict:
    """Per side and phase: the side's lines of supply and goals (recomputed when the game moved to another phase)."""
    st = eng.state
    key = (st.gt, st.phase, side)
    store = player.__dict__.setdefault("combat_choice_cache", {})
    if store.get("key") != key:
        store.clear()
        store["key"] = key
        lines = supply.supply_lines(st, side)
        store["loc"], store["los"] = set(lines.loc), set(lines.los)
        store["goals"] = goals_mod.goals(eng, side)
    return store


def _enemy_hexes(eng: Engine, side: str) -> set[Hex]:
    return {h for u in eng.state.units_of(other(side)) if is_combat(u) and (h := hex_of(u)) is not None}


def _overstacks(st: Any, uid: str, label: str) -> bool:
    """10.0 / 14.7.2: whether ``uid`` entering ``label`` puts it over the stacking limit (the combat rules' count)."""
    return combat_rules.stacking_points(st, label) + su.info(st, uid).stack_pts > combat_rules.stack_limit(label)


def _parse(label: str) -> Hex | None:
    try:
        return Hex.parse(label)
    except HexLabelError:
        return None


# --------------------------------------------------------------------------- 14.7 retreat
def retreat_end_value(eng: Engine, cache: dict, side: str, uid: str, label: str, enemy: set[Hex],
                      short: bool = False) -> float:
    """How good ending ``uid``'s retreat in ``label`` is: into supply, away from the enemy, out of an enemy ZOC, not
    overstacked (14.7.2), in a city/fort/mountain or an objective (supply: 12.5, IGS on a line of supply, OGS on a line
    of communication only, else isolated); ``short``: the retreat stops short of its
    minimum (14.7.1: a step is lost)."""
    st = eng.state
    h = _parse(label)
    if h is None:
        return -99.0
    s = 0.0
    if h in cache["los"]:
        s += IN_SUPPLY
    elif h in cache["loc"]:
        s += ON_LOC
    near = sum(1 for e in enemy if h.distance(e) == 1)
    s += NEXT_TO_ENEMY * near
    if near == 0:
        s += 0.25 * min(3, min((h.distance(e) for e in enemy), default=3))
    u = st.units[uid]
    if combat_rules.in_ezoc(st, side, label, motorized_mover=is_motorized(u)):
        s += IN_EZOC
    if label != u.loc and _overstacks(st, uid, label):
        s += OVERSTACKED
    if combat_rules.obstructed(st, label):
        s += OBSTRUCTED
    if label in cache["goals"].hold:
        s += HOLD_OBJECTIVE
    if short:
        s += STEP_LOST
    return s


def best_retreat(eng: Engine, cache: dict, side: str, uid: str, path: list[str], lo: int, hi: int,
                 limit: int = 4000) -> tuple[float, list[str]]:
    """The best way to finish the retreat begun along ``path`` (a depth-first walk of the engine's legal retreat
    steps, 14.7.2): (value of its end, the path); a path shorter than ``lo`` with no step left costs a step."""
    enemy = _enemy_hexes(eng, side)
    st = eng.state
    best: tuple[float, list[str]] = (-1e9, list(path))
    seen = [0]
    values: dict[str, float] = {}

    def value(p: list[str], short: bool) -> float:
        key = f"{p[-1]}:{short}"
        if key not in values:
            values[key] = retreat_end_value(eng, cache, side, uid, p[-1], enemy, short)
        moved = len(p) - 1
        return values[key] + BEYOND_MINIMUM * max(0, moved - lo) + (STAY if moved == 0 else 0.0)

    def walk(p: list[str]) -> None:
        nonlocal best
        seen[0] += 1
        if seen[0] > limit:
            return
        nxt = combat_rules.legal_retreat_steps(st, uid, p, hi)
        if combat_rules.stop_allowed(st, uid, p, lo) or not nxt:
            v = value(p, short=not combat_rules.stop_allowed(st, uid, p, lo))
            if v > best[0]:
                best = (v, list(p))
        for n in nxt:
            walk(p + [n])

    walk(list(path))
    return best


def retreat(player: Any, d: Decision, eng: Engine) -> Action | None:
    """14.7: retreat along the path whose end is best by :func:`retreat_end_value` (one offered step at a time);
    a withdrawal that may be taken in place (14.7.1, disrupted) holds unless the hex is cut off and a retreat
    reaches supply."""
    side = d.side
    uid = str(d.context.get("unit", ""))
    path = [str(x) for x in d.context.get("path", [])]
    if uid not in eng.state.units or not path:
        return None
    cache = _cache(player, eng, side)
    lo, hi = int(d.context.get("min", 1)), int(d.context.get("max", 1))
    plans = cache.setdefault("retreats", {})           # the path chosen at the retreat's first step, followed after
    planned = plans.get(uid)
    if planned is not None and len(path) > 1 and planned[:len(path)] == path:
        best = planned
    else:
        _val, best = best_retreat(eng, cache, side, uid, path, lo, hi)
        plans[uid] = best
    by = {(o.action.args.get("to"), bool(o.action.args.get("stop")), bool(o.action.args.get("hold"))): o.action
          for o in d.options if o.action.kind == "retreat" and o.action.side == side}
    hold = by.get((None, False, True))
    if hold is not None:
        # a withdrawal may be taken in place, disrupted (14.7.1): the ground is kept (measured: holding beats every
        # retreat against the greedy and random players), unless the hex is cut off (12.5: no line of supply or
        # communication) and a retreat reaches a line of supply
        here = Hex.parse(path[-1])
        if here in cache["los"] or here in cache["loc"] or Hex.parse(best[-1]) not in cache["los"]:
            return hold
    if len(best) > len(path):
        return by.get((best[len(path)], False, False))
    return by.get((None, True, False))


# --------------------------------------------------------------------------- 14.5 morale choice
def pass_chance(eng: Engine, uid: str, supplied: bool) -> float:
    """8.1: the chance that ``uid`` passes its morale check for an ``m`` result (the modified morale of 14.5)."""
    st = eng.state
    m = su.effective_morale(st, uid, combat_supplied=supplied, desert=combat_rules.is_desert(st.units[uid].loc))
    return sum(1 for die in range(1, 7) if morale_passes(die, m)) / 6


def morale(player: Any, d: Decision, eng: Engine) -> Action | None:
    """14.5 ``m``: take the morale check when it passes at least half the time, the unit holds an objective hex
    (a withdrawal gives the hex up) or attacks a hex the side's victory needs (an enemy base of
    :attr:`~core.ai.goals.Goals.strike`, a hex of :attr:`~core.ai.goals.Goals.raid`), else
    withdraw 1-3 hexes (a failed check leaves the unit disrupted where it
    stands)."""
    opts = {o.action.args.get("choice"): o.action for o in d.options
            if o.action.kind == "morale_choice" and o.action.side == d.side}
    check, withdraw = opts.get("check"), opts.get("withdraw")
    if check is None or withdraw is None:
        return check or withdraw
    uid = str(check.args.get("unit"))
    st = eng.state
    if uid not in st.units:
        return check
    defending = uid in d.context.get("defenders", [])
    sup = (d.context.get("def_supplied") if defending else d.context.get("att_supplied")) or {}
    cache = _cache(player, eng, d.side)
    if st.units[uid].loc in cache["goals"].hold or pass_chance(eng, uid, bool(sup.get(uid, True))) >= CHECK_AT:
        return check
    g = cache["goals"]
    if not defending and any(h in g.strike or h in g.raid for h in d.context.get("hexes", [])):
        # only an attacker that stays may advance (14.8) and take the hex its victory needs: an enemy base (12.2.7)
        # or a raid objective (2.2.2: entering it is control; supply units alone there are taken, 12.2.6)
        return check
    return withdraw


# --------------------------------------------------------------------------- 14.8 advance
def advance(player: Any, d: Decision, eng: Engine) -> Action | None:
    """14.8: advance into the vacated hex when it is an objective (to take or hold) or next to the side's lines of
    supply or communication (12.4: the advancing units are not cut off there), the strongest unit first; else no
    (more) advances.  Every attacker advances, even over the stacking limit (10.3: the hex is disrupted at the end of
    the phase): stopping at the limit lost Sonnenblume games as the Axis against the greedy player that advancing
    won (seeds 1 and 2).  A mobile battle's exploitation (14.9.3) follows only an advance."""
    side = d.side
    st = eng.state
    cache = _cache(player, eng, side)
    g = cache["goals"]
    done = next((o.action for o in d.options if o.action.kind == "advance_done" and o.action.side == side), None)
    # the vacated hex is in an enemy ZOC more often than not, so off every line until a friendly unit stands in it
    # (12.4: a friendly unit negates the EZOC); the advancing unit's own hex next to it tells
    lined = cache["los"] | cache["loc"]
    cands = []
    for o in d.options:
        a = o.action
        if a.kind != "advance" or a.side != side or a.args.get("capture"):
            continue
        uid, h = str(a.args.get("unit")), str(a.args.get("hex"))
        hx = _parse(h)
        if uid not in st.units or hx is None:
            continue
        if not (h in g.take or h in g.hold or hx in lined or hex_of(st.units[uid]) in lined):
            continue
        strength = float(su.info(st, uid).cf) + (2.0 if is_motorized(st.units[uid]) else 0.0)
        cands.append((-strength, uid, a))
    if cands:
        return min(cands, key=lambda c: (c[0], c[1]))[2]
    return done


# --------------------------------------------------------------------------- 14.9.3 exploitation
def exploit(player: Any, d: Decision, eng: Engine) -> Action | None:
    """14.9.3: each exploiting unit steps toward the nearest objective the enemy holds while it stays on the side's
    lines of communication and out of reach of more than its own strength; overruns (13.4) only a hex whose
    defenders have no real combat factor; then ends the exploitation."""
    from core.ai.ground import phase_memory

    side = d.side
    st = eng.state
    mem = phase_memory(player, eng, "exploit", side)
    mem["steps"] = mem.get("steps", 0) + 1
    done = next((o.action for o in d.options if o.action.kind == "exploit_done"), None)
    if mem["steps"] > EXPLOIT_STEPS:
        return done
    cache = _cache(player, eng, side)
    targets = [t for t in (_parse(h) for h in cache["goals"].take) if t is not None]
    enemy = _enemy_hexes(eng, side)
    best = None
    for o in d.options:
        a = o.action
        if a.kind != "exploit":
            continue
        uid = str((a.args.get("units") or [""])[0])
        to = _parse(str((a.args.get("path") or [""])[-1]))
        here = hex_of(st.units[uid]) if uid in st.units else None
        if to is None or here is None or to not in cache["loc"]:
            continue
        if to in enemy:
            if any(su.info(st, v.id).is_combat and su.info(st, v.id).cf > 0 for v in st.units_at(to.label)):
                continue
            gain = 3.0
        else:
            aims = targets or sorted(enemy, key=lambda e: e.label)
            if not aims:
                continue
            goal = min(aims, key=lambda t: (to.distance(t), t.label))
            gain = here.distance(goal) - to.distance(goal)
            if gain <= 0 or sum(1 for e in enemy if to.distance(e) == 1) > 1:
                continue
        key = (-gain, uid, to.label)
        if best is None or key < best[0]:
            best = (key, a)
    return best[1] if best else done


# --------------------------------------------------------------------------- 12.6 combat supply
def combat_supply(player: Any, d: Decision, eng: Engine) -> Action | None:
    """12.6.1: the first dump offered, except one kept to activate an inactive base in the next Allocation Phase
    (:func:`core.ai.admin_supply.reserved_dumps`); with only such dumps, none (the unsupplied line, 12.6 3)."""
    from core.ai.admin_supply import reserved_dumps

    kept = reserved_dumps(eng, d.side)
    opts = [o.action for o in d.options if o.action.kind == "combat_supply" and o.action.side == d.side]
    if not kept or not opts:
        return None
    return next((a for a in opts if a.args.get("dump") not in kept), None)


HANDLERS: dict[str, Callable[[Any, Decision, Engine], Action | None]] = {
    "combat_supply": combat_supply,
    "combat_retreat": retreat,
    "combat_morale": morale,
    "combat_advance": advance,
    "combat_exploit": exploit,
}
