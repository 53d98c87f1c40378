"""The supply train (12.2, 12.4) for the admin AI: MSU, dumps and forward bases follow the front.

A unit is in general supply when it traces a line of supply to a source: 14 MMP from an active base, 7 MMP from
an MSU that is itself on a line, in chains (12.4.1); combat supply is a dump expended within 7 MMP of the combat
(12.6.1).  The ground AI moves the combat units; at the start of each of its side's Movement Phases the admin AI
plans, once, where its MSU go (:func:`supply_move`):

* each MSU on the map (the rearmost first) moves to a hex that is on the side's current line of supply, safe
  from the enemy (2+ hexes, 3+ unless stacked with a friendly combat unit), where it reaches the most friendly
  combat units now out of supply (within about its 7 MMP), else as near the front (the friendly combat units
  nearest the enemy) as it can reach, spread 3+ hexes from the other MSU's new hexes;
* an MSU standing with a dump carries it along while fewer than two dumps are near the front (13.7 transport:
  the dump moves in the MSU's stack), so that combat supply is at hand; the rearmost MSU drives back to the
  dumps piling up at a base to fetch the next one;
* where the scenario's victory counts the side's bases (a base in a port, or with a LOC to a hex, 27.3-33.3) and
  fewer than two count, an MSU standing with a dump drives it to the safest such hex it reaches and makes a base;
* the Allies keep one MSU on the railhead once they have three on the map (18.2.1, built by
  :mod:`core.ai.admin_construction`);
* MSU waiting in the NRV Box come up by an NRV entry hex onto the Allied line of supply (22.1);
* where an MSU and a dump stand together with a friendly combat unit 12+ hexes from every friendly base and 3+
  from the enemy, and the side keeps another MSU, they become a base (12.2.3) that a dump activates in the next
  Allocation Phase (IV.1, :func:`core.ai.admin._activate_bases`);
* where the side strikes at an enemy base (30.3-like, :attr:`core.ai.goals.Goals.strike`) and its dumps arrive
  in a map hex nearer that base than every friendly base (30.2 El Agheila), an MSU makes a base there while an
  Allocation Phase is still to come, and the arriving dumps keep it active (:func:`_arrival_base`);
* one dump in the hex of each inactive base is kept to activate it (:func:`reserved_dumps`): no MSU carries it off
  and no combat supply or one hex's GenS expends it.

The lines are the engine's own (``supply.supply_lines``), the paths its ``reachable`` search; every move is tried
on a copy first (:func:`core.ai.admin_util.trial`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.ai.admin_construction import railhead_msu
from core.ai.admin_util import enemy_hexes, nearest, paths, plan_line, trial, unit_worth
from core.decisions import ALLIED, Action, Decision
from core.hexgrid import Hex
from core.names import place
from core.rules import construction, supply, transport
from core.rules.status import hex_of, is_combat, supply_kind

if TYPE_CHECKING:
    from core.engine import Engine

#: an MSU moves only when it gets at least this many hexes nearer the front
MIN_GAIN = 2
#: the MSU's new hexes are this far apart at least (each covers about 7 MMP)
SPREAD = 3
#: a forward base is made this far (hexes) from every friendly base at least
BASE_GAP = 12
#: hexes from an MSU counted as within its 7 MMP (about three desert hexes at two MMP each)
REACH = 3


def _front(engine: "Engine", side: str) -> list[Hex]:
    """The friendly combat units nearest the enemy (within 6 hexes of the nearest), else all of them."""
    st = engine.state
    enemy = enemy_hexes(engine, side)
    own = sorted({h for u in st.units.values() if u.side == side and is_combat(u) and (h := hex_of(u)) is not None},
                 key=lambda h: h.label)
    if not own or not enemy:
        return own
    d0 = min(nearest(h, enemy) for h in own)
    return [h for h in own if nearest(h, enemy) <= d0 + 6]


def _memo(player: Any, engine: "Engine") -> dict:
    st = engine.state
    key = (st.gt, st.phase, st.step, player.side)
    memo = getattr(player, "_admin_supply", None)
    if memo is None or memo.get("key") != key:
        memo = {"key": key, "planned": False, "queue": []}
        player._admin_supply = memo
    return memo


def _safe(engine: "Engine", side: str, h: Hex, enemy: list[Hex]) -> bool:
    d = nearest(h, enemy)
    if d >= 3:
        return True
    return d >= 2 and any(u.side == side and is_combat(u) for u in engine.state.units_at(h.label))


def _plan(engine: "Engine", side: str) -> list[tuple[Action, str]]:
    """The phase's supply moves, in order, each with its plan sentence."""
    st = engine.state
    enemy = enemy_hexes(engine, side)
    front = _front(engine, side)
    if not front:
        return []
    los = supply.supply_lines(st, side).los
    out: list[tuple[Action, str]] = []
    taken: list[Hex] = []
    units = [u for u in st.units.values() if u.side == side and not u.captured]
    dumps_at = {}
    kept = reserved_dumps(engine, side)
    for u in units:
        if supply_kind(u) == "dump" and hex_of(u) is not None and u.id not in kept:
            dumps_at.setdefault(u.loc, []).append(u.id)
    near_front = sum(len(v) for lab, v in dumps_at.items() if nearest(Hex.parse(lab), front) <= 3)
    piles = sorted((lab for lab, v in dumps_at.items() if v and nearest(Hex.parse(lab), front) > 3),
                   key=lambda lab: (-len(dumps_at[lab]), lab))
    bases = [h for u in units if supply_kind(u) == "base" and (h := hex_of(u)) is not None]
    msus = sorted((u for u in units if supply_kind(u) == "msu" and hex_of(u) is not None),
                  key=lambda u: (-nearest(hex_of(u), front), u.id))
    n_msu = len(msus) + sum(1 for u in units if supply_kind(u) == "msu" and u.loc == transport.NRV)
    if not bases:
        # no base on the map (30.2: the Allies enter Map S with none, and no NRV) while the side's dumps arrive in a
        # map hex: the MSU drive there, and the first MSU there with a dump makes a base (12.2.3)
        first = _first_base(engine, side, msus, dumps_at, enemy)
        if first:
            return first
    # 12.2.3: a forward base where an MSU, a dump and a combat unit stand far from every base
    for u in msus:
        h = hex_of(u)
        if (n_msu >= 2 and u.loc in dumps_at and nearest(h, bases) >= BASE_GAP and nearest(h, enemy) >= 3
                and any(x.side == side and is_combat(x) for x in st.units_at(u.loc))
                and not any(supply_kind(x) == "base" for x in st.units_at(u.loc))):
            out.append((Action(kind="create_base", side=side, args={"hex": u.loc}),
                        f"an MSU and a dump become a base at {u.loc}, {nearest(h, bases)} hexes ahead of the last "
                        "one (12.2.3)"))
            n_msu -= 1
            bases.append(h)
            msus = [m for m in msus if m.loc != u.loc]
    vb = _victory_base(engine, side, msus, dumps_at, enemy, n_msu)
    if vb is not None:
        out += vb[0]
        msus = [m for m in msus if m.id != vb[1]]
        n_msu -= 1
    escort = _raid_escort(engine, side, msus, dumps_at, enemy)
    if escort is not None:
        out.append(escort[0])
        taken.append(escort[1])
        msus = [m for m in msus if m.id != escort[2]]
    made, used = _arrival_base(engine, side, msus, dumps_at, enemy, bases)
    if made:
        out += made
        msus = [m for m in msus if m.id not in used]
    builder = railhead_msu(engine, side)
    msus = [m for m in msus if m.id != builder]          # 18.2.1: the MSU on the railhead stays to build
    if side == ALLIED and builder is None and len(msus) >= 3:
        rail = _to_railhead(engine, msus, enemy)
        if rail is not None:
            out.append(rail[0])
            msus = [m for m in msus if m.id != rail[1]]
    shuttle = _shuttle(engine, msus, piles, dumps_at, near_front, enemy)
    if shuttle is not None:
        out.append(shuttle[0])
        taken.append(shuttle[1])
        msus = [m for m in msus if m.id != shuttle[2]]
    needy = [(h, unit_worth(u.id, u.steps)) for u in units
             if is_combat(u) and (h := hex_of(u)) is not None and h not in los]
    covered: set[Hex] = set()
    for u in msus:
        h = hex_of(u)
        carry = dumps_at.get(u.loc, [])[:1] if near_front < 2 else []
        now = nearest(h, front)
        best = None
        for lab, path in sorted(paths(engine, [u.id]).items()):
            x = Hex.parse(lab)
            if x not in los or not _safe(engine, side, x, enemy):
                continue
            cover = sum(w for n, w in needy if n not in covered and n.distance(x) <= REACH)
            d = nearest(x, front)
            key = (-cover, d + (SPREAD if nearest(x, taken) < SPREAD else 0), len(path), lab)
            if best is None or key < best[0]:
                best = (key, path, x)
        if best is None or (best[0][0] == 0 and best[0][1] > now - MIN_GAIN):
            taken.append(h)
            continue
        x = best[2]
        taken.append(x)
        covered |= {n for n, _ in needy if n.distance(x) <= REACH}
        if carry:
            dumps_at[u.loc].remove(carry[0])
            near_front += nearest(x, front) <= 3
        what = f"{u.id}" + (f" with {carry[0]}" if carry else "")
        why = ("to supply the units out of supply near it (12.4.1)" if best[0][0] < 0
               else "following the front on the line of supply (12.4.1)")
        out.append((Action(kind="move", side=side, args={"units": [u.id] + carry, "path": list(best[1])}),
                    f"{what} to {x.label}, {why}"))
    if side == ALLIED:
        out += _nrv_msus(engine, los, front, enemy, taken)
    return out


def reserved_dumps(engine: "Engine", side: str) -> set[str]:
    """The dumps kept to activate the side's inactive bases: one in each such base's hex while an Allocation Phase
    is still to come (12.2.3: "A base is activated by expending a dump in its hex during the Allocation Phase"; 4.0
    the scenario's last GT).  No other use (combat supply, GenS of one hex, transport) takes them (12.2.1: a dump
    is expended once)."""
    st = engine.state
    if st.gt >= st.end_gt:
        return set()
    units = [u for u in st.units.values() if u.side == side and hex_of(u) is not None and not u.captured]
    out: set[str] = set()
    for b in units:
        if supply_kind(b) != "base" or b.active:
            continue
        here = sorted(u.id for u in units if supply_kind(u) == "dump" and u.loc == b.loc and u.id not in out)
        out.update(here[:1])
    return out


#: dumps kept, while the side has no base on the map, for its first base: one to create it, one to activate it (12.2.3)
FIRST_BASE_DUMPS = 2


def keep_for_first_base(engine: "Engine", side: str) -> bool:
    """True while the side's last dumps on the map are kept for its first base (12.2.1: a dump is expended once):
    it has no base on the map, an MSU to make one, at most :data:`FIRST_BASE_DUMPS` dumps, and dumps arriving in a
    map hex (:func:`dump_arrival_hexes`)."""
    mine = [u for u in engine.state.units.values() if u.side == side and hex_of(u) is not None]
    return (not any(supply_kind(u) == "base" for u in mine) and any(supply_kind(u) == "msu" for u in mine)
            and sum(1 for u in mine if supply_kind(u) == "dump") <= FIRST_BASE_DUMPS
            and bool(dump_arrival_hexes(engine, side)))


def dump_arrival_hexes(engine: "Engine", side: str) -> list[Hex]:
    """The map hexes where the side's dumps arrive by the scenario's reinforcement schedule (7.0; 30.2 "Each GT
    ... 3 x Dump ... in S0734 (El Agheila)")."""
    st = engine.state
    out: list[Hex] = []
    for i in list(st.vars.get("reinf_each", [])) + list(st.vars.get("reinf", [])):
        if i.get("side") != side or not str(i.get("unit", "")).endswith("-Dump"):
            continue
        try:
            h = Hex.parse(str(i.get("to", "")))
        except ValueError:
            continue
        if h not in out:
            out.append(h)
    return out


def _first_base(engine: "Engine", side: str, msus: list, dumps_at: dict,
                enemy: list[Hex]) -> list[tuple[Action, str]]:
    """12.2.3 with no base yet: an MSU standing with a dump where the side's dumps arrive makes the base there; the
    other MSU drive toward that hex by the cheapest way (the road, 13.3), each as far as this phase takes it."""
    from core.ai.ground import travel_field
    from core.rules import tec

    arrive = dump_arrival_hexes(engine, side)
    for u in msus:
        if hex_of(u) in arrive and dumps_at.get(u.loc):
            return [(Action(kind="create_base", side=side, args={"hex": u.loc}),
                     f"an MSU and a dump become the first base at {u.loc}, where the dumps arrive (12.2.3)")]
    targets = [h for h in arrive if nearest(h, enemy) >= 2]
    if not targets or not msus:
        return []
    early = _early_base(engine, side, msus, dumps_at, enemy, targets[0])
    if early:
        return early
    out: list[tuple[Action, str]] = []
    target = targets[0]
    from core.rules.movement import off_play_ids

    field = travel_field(tec.current_map(), "trucked", target, off=off_play_ids(engine.state))
    for u in msus:
        here = hex_of(u)
        now = field.get(here)
        best = None
        for lab, path in sorted(paths(engine, [u.id]).items()):
            x = Hex.parse(lab)
            mp = field.get(x)
            if mp is None or not _safe(engine, side, x, enemy) and x != target:
                continue
            if now is not None and mp >= now:
                continue
            key = (mp, len(path), lab)
            if best is None or key < best[0]:
                best = (key, path)
        if best is None:
            continue
        carry = dumps_at.get(u.loc, [])[:1]
        if carry:
            dumps_at[u.loc].remove(carry[0])
        out.append((Action(kind="move", side=side, args={"units": [u.id] + carry, "path": list(best[1])}),
                    f"{u.id} drives toward {target.label}, where the dumps arrive, to make the first base (12.2.3)"))
    return out


def _strike_way(engine: "Engine", side: str, cls: str) -> tuple[str, dict] | None:
    """The enemy base the side strikes at first (:attr:`core.ai.goals.Goals.strike`, highest weight, then label)
    and the travel field toward it for TEC class ``cls`` (the cheapest way in MP, 13.3), or None without one."""
    from core.ai import goals as goals_mod
    from core.ai.ground import travel_field
    from core.rules import tec
    from core.rules.movement import off_play_ids

    strike = sorted(goals_mod.goals(engine, side).strike.items(), key=lambda kv: (-kv[1], kv[0]))
    if not strike:
        return None
    target = strike[0][0]
    return target, travel_field(tec.current_map(), cls, Hex.parse(target), off=off_play_ids(engine.state))


def _early_base(engine: "Engine", side: str, msus: list, dumps_at: dict, enemy: list[Hex],
                target: Hex) -> list[tuple[Action, str]]:
    """When no MSU reaches the dumps' arrival hex this phase but two MSU stand with two dumps: both drive, each
    with its dump, to the hex they reach that is farthest along the way to the enemy base the side strikes at
    (:attr:`core.ai.goals.Goals.strike`; the cheapest way in MP, 13.3), 3+ hexes from the enemy, and the first
    pair makes the base there now (12.2.3): the other dump activates it in the next Allocation Phase, a GT before
    a base made where the dumps arrive could be, and its 14 MMP line of supply (12.4.1) follows the road."""
    pairs = [u for u in msus if dumps_at.get(u.loc)]
    if len(pairs) < 2 or len(dumps_at.get(pairs[0].loc, [])) < 2 or pairs[1].loc != pairs[0].loc:
        return []
    reach = paths(engine, [pairs[0].id])
    if target.label in reach:
        return []                       # it gets there this phase: the base is made there
    way = _strike_way(engine, side, "trucked")
    if way is None:
        return []
    goal, field = way
    here = field.get(hex_of(pairs[0]))
    other_reach = paths(engine, [pairs[1].id])
    best = None
    for lab in sorted(reach):
        x = Hex.parse(lab)
        mp = field.get(x)
        if mp is None or lab not in other_reach or nearest(x, enemy) < 3:
            continue
        if best is None or (mp, lab) < best[0]:
            best = ((mp, lab), lab)
    if best is None or here is None or best[0][0] >= here:
        return []
    lab = best[1]
    d1, d2 = dumps_at[pairs[0].loc][0], dumps_at[pairs[0].loc][1]
    return [(Action(kind="move", side=side, args={"units": [pairs[0].id, d1], "path": list(reach[lab])}),
             f"{pairs[0].id} takes {d1} to {lab}, on the way to {goal}, for the first base (12.2.3)"),
            (Action(kind="move", side=side, args={"units": [pairs[1].id, d2], "path": list(other_reach[lab])}),
             f"{pairs[1].id} takes {d2} to {lab} to activate it next Allocation Phase (12.2.3)"),
            (Action(kind="create_base", side=side, args={"hex": lab}),
             f"an MSU and a dump become the first base at {lab}, toward {goal} (12.2.3)")]


def _base_goals(engine: "Engine", side: str, enemy: list[Hex]) -> tuple[list[Hex], int]:
    """The scenario's base conditions for ``side`` (27.3-33.3 ``base_in_port`` / ``base_with_loc``): the hexes
    where one more base would count, safest first, and how many bases count there now."""
    from core.rules import tec, victory_rules

    st = engine.state
    gm = tec.current_map()
    bases = [h for u in st.units.values() if u.side == side and supply_kind(u) == "base" and not u.captured
             and (h := hex_of(u)) is not None]
    want: list[Hex] = []
    have = 0
    for c in victory_rules.conditions(engine):
        if c.get("side") != side:
            continue
        if c.get("kind") == "base_in_port":
            cap = int(c.get("min_port_capacity", 3))
            ports = [h for h in gm.ports if victory_rules.standard_boxes(h.label) >= cap
                     and supply.port_controlled(st, side, h)]
            have += sum(1 for b in bases if b in ports)
            want += [h for h in ports if h not in bases]
        elif c.get("kind") == "base_with_loc":
            goal = Hex.parse(str(c["loc_to"]))
            have += sum(1 for b in bases if b.distance(goal) <= 3)
            want += [h for h in goal.within(2) if gm.on_grid(h) and h not in bases]
    want = [h for h in want if nearest(h, enemy) >= 4]
    return sorted(set(want), key=lambda h: (-min(nearest(h, enemy), 30), h.label)), have


def _victory_base(engine: "Engine", side: str, msus: list, dumps_at: dict, enemy: list[Hex],
                  n_msu: int) -> tuple[list[tuple[Action, str]], str] | None:
    """A second base where the scenario's victory counts bases (12.2.3): an MSU standing with a dump drives it to
    the safest such hex it reaches this phase and makes the base there."""
    if n_msu < 2:
        return None
    want, have = _base_goals(engine, side, enemy)
    if have >= 2 or not want:
        return None
    for u in msus:
        carry = dumps_at.get(u.loc, [])[:1]
        if not carry:
            continue
        reach = paths(engine, [u.id])
        for h in want:
            if h.label == u.loc or h.label in reach:
                moves: list[tuple[Action, str]] = []
                if h.label != u.loc:
                    moves.append((Action(kind="move", side=side, args={"units": [u.id] + carry,
                                                                        "path": list(reach[h.label])}),
                                  f"{u.id} takes {carry[0]} to {h.label} to make a base the victory conditions "
                                  "count (12.2.3)"))
                moves.append((Action(kind="create_base", side=side, args={"hex": h.label}),
                              f"a base at {h.label}: {have + 1} base(s) where the victory conditions count them "
                              "(12.2.3)"))
                dumps_at[u.loc].remove(carry[0])
                return moves, u.id
    return None


def _raid_escort(engine: "Engine", side: str, msus: list, dumps_at: dict, enemy: list[Hex]
                 ) -> tuple[tuple[Action, str], Hex, str] | None:
    """An MSU with a dump follows the raid (:attr:`core.ai.goals.Goals.raid`): the detachment that goes for a hex
    the side's own victory needs runs beyond its line of supply, where motorised units have their MA halved (12.5)
    and attackers out of combat supply take the unsupplied line (12.6 3).  An MSU extends the line "up to 7 MMP from
    the MSU to the unit" (12.4.1) and carries one dump (13.7 truck lift), "the only source for combat supply"
    (12.6.1) and of emergency supply (12.7).  So, once the first raid hex is held by no enemy combat unit and the
    side's combat unit nearest it is off the line of supply, the rearmost MSU standing with a dump (the front keeps
    the MSU it leans on, and the side its last MSU) drives to the safe hex nearest the raid hex that it reaches, never
    nearer than that combat unit (supply units alone are captured by any enemy unit entering their hex, 12.2.7).
    Returns (the move and its sentence, the MSU's new hex, the MSU) or None."""
    from core.ai.goals import goals

    raid = goals(engine, side).raid
    if not raid:
        return None
    st = engine.state
    target = Hex.parse(min(raid.items(), key=lambda kv: (-kv[1], kv[0]))[0])
    if any(v.side != side and is_combat(v) for v in st.units_at(target.label)):
        return None                     # a garrison of combat units: the raid waits, the dump stays at the front
    loaded = [u for u in msus if dumps_at.get(u.loc)]
    own = [h for v in st.units_of(side) if is_combat(v) and (h := hex_of(v)) is not None]
    if not loaded or not own or len(msus) < 2:
        return None                     # the side's last MSU stays on the main line of supply
    # never ahead of the detachment: supply units alone are captured by any enemy unit that enters their hex (12.2.7)
    lead = min(h.distance(target) for h in own)
    if all(h in supply.supply_lines(st, side).los for h in own if h.distance(target) == lead):
        return None                     # the detachment is still on the line of supply the front's MSU follow
    u = loaded[0]                       # ``msus`` comes rearmost first
    now = hex_of(u).distance(target)
    if now <= 1:
        return None                     # already next to it: it stays with its dump for the Combat Phase
    best = None
    for lab, path in sorted(paths(engine, [u.id]).items()):
        x = Hex.parse(lab)
        d = x.distance(target)
        if d < max(1, lead) or not _safe(engine, side, x, enemy):
            continue
        key = (d, len(path), lab)
        if best is None or key < best[0]:
            best = (key, path, x)
    if best is None or best[0][0] >= now:
        return None
    carry = dumps_at[u.loc][:1]
    dumps_at[u.loc].remove(carry[0])
    x = best[2]
    return ((Action(kind="move", side=side, args={"units": [u.id] + carry, "path": list(best[1])}),
             f"{u.id} takes {carry[0]} to {x.label} behind the raid on {target.label}: its line of supply (12.4.1) and "
             "combat supply (12.6.1)"),
            x, u.id)


def _arrival_base(engine: "Engine", side: str, msus: list, dumps_at: dict, enemy: list[Hex],
                  bases: list[Hex]) -> tuple[list[tuple[Action, str]], set[str]]:
    """A base where the side's dumps arrive (:func:`dump_arrival_hexes`; 30.2 "Each GT (including GT 31): 3 ×
    Dump, 1 × RP, any two may arrive in each friendly Movement Phase in S0734 (El Agheila)") when that hex is
    nearer the base the side strikes at (:attr:`core.ai.goals.Goals.strike`; the cheapest way in MP, 13.3) than
    every friendly base.  "Active bases provide GenS", a base "is activated by expending a dump in its hex during
    the Allocation Phase" (12.2.3), and "All bases are flipped to their OGS side" each GT (4.1 III.2): a base the
    dumps reach by arriving stays active every GT, and the strike force's line of supply (12.4.1) starts nearer.
    Made while an Allocation Phase is still to come (4.0), by an MSU there or one that gets there this phase, with
    one of two dumps there (the other activates it).  Returns the moves with their sentences and the MSU used."""
    st = engine.state
    way = _strike_way(engine, side, "mot") if st.gt < st.end_gt and msus and bases else None
    if way is None:
        return [], set()
    goal, field = way
    nearest_base = min((field[b] for b in bases if b in field), default=None)
    for h in dump_arrival_hexes(engine, side):
        here = dumps_at.get(h.label, [])
        if (h in bases or len(here) < 2 or h not in field or (nearest_base is not None and field[h] >= nearest_base)
                or nearest(h, enemy) < 3):
            continue
        out: list[tuple[Action, str]] = []
        u = next((m for m in msus if m.loc == h.label), None)
        if u is None:
            # the rearmost MSU that gets there: the others go on carrying the line toward the front
            for m in sorted(msus, key=lambda m: (-field.get(hex_of(m), 10 ** 6), m.id)):
                r = paths(engine, [m.id])
                if h.label in r:
                    u = m
                    out.append((Action(kind="move", side=side, args={"units": [m.id], "path": list(r[h.label])}),
                                f"{m.id} drives to {place(h.label)}, where the dumps arrive, to make a base (12.2.3)"))
                    break
        if u is None:
            continue
        del dumps_at[h.label][:2]               # one makes the base, the other activates it (12.2.3)
        out.append((Action(kind="create_base", side=side, args={"hex": h.label}),
                    f"an MSU and a dump become a base at {place(h.label)}, where the dumps arrive, nearer "
                    f"{place(goal)} (12.2.3)"))
        return out, {u.id}
    return [], set()


def _to_railhead(engine: "Engine", msus: list, enemy: list[Hex]) -> tuple[tuple[Action, str], str] | None:
    """18.2.1: the MSU nearest the railhead that reaches it this phase goes there to extend the railroad."""
    head = construction.railhead(engine.state)
    if head not in construction.rail_extension()[:-1] or not _safe(engine, ALLIED, Hex.parse(head), enemy):
        return None
    for u in sorted(msus, key=lambda m: (hex_of(m).distance(Hex.parse(head)), m.id)):
        reach = paths(engine, [u.id])
        if head in reach:
            return ((Action(kind="move", side=ALLIED, args={"units": [u.id], "path": list(reach[head])}),
                     f"{u.id} goes to the railhead at {head} to extend the Egyptian railroad (18.2.1)"), u.id)
    return None


def _shuttle(engine: "Engine", msus: list, piles: list[str], dumps_at: dict, near_front: int,
             enemy: list[Hex]) -> tuple[tuple[Action, str], Hex, str] | None:
    """With fewer than two dumps near the front and more than one MSU, the rearmost MSU not standing on a dump
    pile drives back to the largest pile it reaches (it carries a dump forward in a later phase)."""
    if near_front >= 2 or len(msus) < 2 or not piles:
        return None
    if any(m.loc in piles for m in msus):
        return None                     # one is at a pile already: it carries a dump this phase
    u = msus[0]
    reach = paths(engine, [u.id])
    for lab in piles:
        if lab in reach and _safe(engine, u.side, Hex.parse(lab), enemy):
            return ((Action(kind="move", side=u.side, args={"units": [u.id], "path": list(reach[lab])}),
                     f"{u.id} drives back to the dumps at {lab} to bring one forward (12.2.2, 13.7)"),
                    Hex.parse(lab), u.id)
    return None


def _nrv_msus(engine: "Engine", los: dict, front: list[Hex], enemy: list[Hex],
              taken: list[Hex]) -> list[tuple[Action, str]]:
    """22.1: Allied MSU in the NRV Box come onto the line of supply toward the front."""
    from core.ai.admin_enter import _paths_from

    st = engine.state
    out: list[tuple[Action, str]] = []
    msus = sorted(u.id for u in st.units_at(transport.NRV) if u.side == ALLIED and supply_kind(u) == "msu")
    for uid in msus[:3]:
        best = None
        for entry in sorted(transport.NRV_ENTRIES):
            for lab, path in _paths_from(engine, uid, entry).items():
                x = Hex.parse(lab)
                if x not in los or not _safe(engine, ALLIED, x, enemy):
                    continue
                key = (nearest(x, front) + (SPREAD if nearest(x, taken) < SPREAD else 0), len(path), lab)
                if best is None or key < best[0]:
                    best = (key, [entry] + [p for p in path if p != entry], x)
        if best is None:
            continue
        taken.append(best[2])
        out.append((Action(kind="move", side=ALLIED, args={"units": [uid], "path": best[1], "enter": transport.NRV}),
                    f"{uid} comes up from the NRV to carry the line of supply toward the front (22.1, 12.4.1)"))
    return out


def supply_move(player: Any, decision: Decision, engine: "Engine") -> Action | None:
    """The next supply-train move of this Movement Phase (planned at its first ask), or None."""
    if decision.kind != "movement" or decision.side != player.side:
        return None
    memo = _memo(player, engine)
    if not memo["planned"]:
        memo["planned"] = True
        memo["queue"] = _plan(engine, player.side)
    while memo["queue"]:
        a, why = memo["queue"].pop(0)
        if trial(engine, a):
            plan_line(player, why)
            return a
        if a.kind == "move" and a.args.get("enter"):
            cut = _shorter(engine, a)
            if cut is not None:
                plan_line(player, why)
                return cut
    return None


def _shorter(engine: "Engine", a: Action) -> Action | None:
    """An NRV entry cut shorter until the engine accepts it (the entry costs part of the allowance)."""
    from core.ai.admin_enter import _road_move

    return _road_move(a.args["units"][0], list(a.args["path"]), engine)
