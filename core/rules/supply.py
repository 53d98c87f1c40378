"""12.0 Supply: lines of supply and communication, general supply, attrition,
emergency supply, bases, capture and voluntary destruction.

* 12.4 a line is traced from a source to the unit through hexes free of enemy
  units and EZOC (a hex occupied by a friendly unit negates the EZOC), at
  motorised (trucked) MP costs, never into terrain prohibited to motorised units;
* 12.4.1 LOS: 14 MMP from an active base (7 if the base is disrupted, 8.2.1),
  7 MMP from an MSU (3 if disrupted) that is itself on a LOS — chains of any
  length; a non-motorised unit adjacent to a hex on the line draws supply
  across terrain passable to it;
* 12.4.2 LOC: any length, from a friendly base (active or OGS) or a
  friendly-controlled port; 22.1 the NRV is a permanent active base for the
  Allies, connected to the grid at W1434 (14 MP), W2034 and W2234 (14 primary
  road hexes = 3.5 MMP);
* 12.5 IGS / OGS / isolated, set for the phasing player at step VI.1;
  12.5.1 attrition at XVIII.1; 12.7 emergency supply; 12.2.3 bases;
  12.2.7 capture.

Statuses are computed from the lines of the whole side at once, so they do not
depend on the order in which units are checked.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from core.counters import all_counters
from core.decisions import IllegalAction, other
from core.engine import QUERIES, Engine, at_phase_end, auto_step
from core.hexgrid import Hex
from core.rules import tec, zoc
from core.rules.status import (
    MOVEMENT_PHASES, counter_of, deplete, disrupt, hex_of, is_combat, is_hq, is_motorized,
    morale_check, phasing, supply_kind, tec_class,
)
from core.state import GameState, UnitState

E = tec.EIGHTH
BASE_LOS = 14 * E         # 12.4.1 a)
DUMP_LOS = 7 * E          # 12.4.1 b)
MSU_LOS = 7 * E           # 12.4.1 c)
DISRUPTED_BASE_LOS = 7 * E   # 8.2.1
DISRUPTED_MSU_LOS = 3 * E    # 8.2.1
NRV_ROAD_ENTRIES = ("W2034", "W2234")   # 22.1 d): 14 primary road hexes travelled
NRV_TRACK_ENTRY = "W1434"               # 22.1 c): 14 MP to enter
NRV = "box:NRV"


@dataclass
class SupplyLines:
    """Where ``side`` has a LOS (remaining MMP in eighths, source) and a LOC (source)."""

    side: str
    los: dict[Hex, tuple[int, str]] = field(default_factory=dict)
    loc: dict[Hex, str] = field(default_factory=dict)


def _blocked_hexes(state: GameState, side: str, gm: tec.GroundMap) -> set[Hex]:
    """12.4 / 11.4: hexes a supply line may not pass: enemy units, and EZOC not
    negated by a friendly unit in the hex."""
    enemy = other(side)
    friendly = {h for u in state.units.values() if u.side == side and (h := hex_of(u)) is not None}
    blocked = {h for u in state.units.values() if u.side == enemy and not u.captured and (h := hex_of(u)) is not None}
    blocked |= {h for h in zoc.zoc_hexes(state, enemy, gm) if h not in friendly}
    return blocked


def _sources(state: GameState, side: str, *, loc: bool) -> list[tuple[Hex, int, str]]:
    """(hex, range in eighths, source name) of GenS sources (12.3) or LOC origins (12.4.2)."""
    out: list[tuple[Hex, int, str]] = []
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.side != side or u.captured or supply_kind(u) != "base":
            continue
        h = hex_of(u)
        if h is None or u.isolated:
            continue
        if loc or u.active:
            rng = DISRUPTED_BASE_LOS if u.disrupted else BASE_LOS
            out.append((h, rng, f"base {u.id} at {h.label}"))
    if side == "Allied" and state.vars.get("nrv_in_play", True):
        # 22.1: the NRV is a permanently active primary base connected at W2034/W2234/W1434
        for lab in NRV_ROAD_ENTRIES:
            try:
                out.append((Hex.parse(lab), BASE_LOS - 14 * E // 4, "NRV (22.1)"))
            except ValueError:
                pass
        try:
            out.append((Hex.parse(NRV_TRACK_ENTRY), 0, "NRV (22.1)"))
        except ValueError:
            pass
    if loc:
        gm = tec.current_map()
        for h in sorted(gm.ports):
            if port_controlled(state, side, h):
                out.append((h, 0, f"port {h.label}"))
    return out


def port_controlled(state: GameState, side: str, h: Hex) -> bool:
    """12.4.2: a friendly-controlled port (2.2.2 control; else occupied by friendly units only)."""
    owner = state.control.get(h.label)
    if owner is not None:
        return owner == side
    sides = {u.side for u in state.units.values() if u.loc == h.label}
    return sides == {side}


def supply_lines(state: GameState, side: str, gm: tec.GroundMap | None = None) -> SupplyLines:
    """Trace every LOS and LOC of ``side`` (12.4)."""
    gm = gm or tec.current_map()
    blocked = _blocked_hexes(state, side, gm)
    msu_range: dict[Hex, int] = {}
    for u in state.units.values():
        if u.side == side and supply_kind(u) == "msu" and not u.captured and (h := hex_of(u)) is not None:
            msu_range[h] = max(msu_range.get(h, 0), DISRUPTED_MSU_LOS if u.disrupted else MSU_LOS)
    out = SupplyLines(side=side)
    # LOS: a Dijkstra that maximises the remaining range; an MSU reached resets it (12.4.1 Important)
    heap: list[tuple[int, int, Hex, str]] = []
    order = 0
    for h, rng, name in _sources(state, side, loc=False):
        if h in blocked:
            continue
        rng = max(rng, msu_range.get(h, 0))
        heapq.heappush(heap, (-rng, order, h, name))
        order += 1
    while heap:
        neg, _, h, name = heapq.heappop(heap)
        rem = -neg
        if h in out.los and out.los[h][0] >= rem:
            continue
        out.los[h] = (rem, name)
        for n in tec.nbrs(h):
            if n in blocked:
                continue
            cost, _ = tec.step_cost(gm, "trucked", h, n)
            if cost is None or cost > rem:
                continue
            r2 = rem - cost
            src = name
            if msu_range.get(n, 0) > r2:
                r2, src = msu_range[n], f"MSU at {n.label} ({name})"
            if n not in out.los or out.los[n][0] < r2:
                heapq.heappush(heap, (-r2, order, n, src))
                order += 1
    # LOC: any length (12.4.2)
    frontier = []
    for h, _, name in _sources(state, side, loc=True):
        if h not in blocked and h not in out.loc:
            out.loc[h] = name
            frontier.append(h)
    while frontier:
        nxt = []
        for h in frontier:
            for n in tec.nbrs(h):
                if n in out.loc or n in blocked:
                    continue
                cost, _ = tec.step_cost(gm, "trucked", h, n)
                if cost is None:
                    continue
                out.loc[n] = out.loc[h]
                nxt.append(n)
        frontier = nxt
    return out


def _adjacent_exception(lines: dict, u: UnitState, h: Hex) -> bool:
    """12.4.1 Exception: a non-motorised unit adjacent to a hex on the line."""
    if is_motorized(u):
        return False
    gm = tec.current_map()
    cls = tec_class(u)
    for n in tec.nbrs(h):
        if n in lines and tec.step_cost(gm, "foot" if cls not in tec.ROAD_COST else cls, n, h)[0] is not None:
            return True
    return False


def has_los(lines: SupplyLines, state: GameState, u: UnitState, h: Hex) -> bool:
    return h in lines.los or _adjacent_exception(lines.los, u, h)


def has_loc(lines: SupplyLines, state: GameState, u: UnitState, h: Hex) -> bool:
    return h in lines.loc or _adjacent_exception(lines.loc, u, h)


def always_supplied(u: UnitState) -> bool:
    """15.8 garrisons and 16.1 desert raiders are always in supply; 12.7 emergency supply."""
    c = counter_of(u)
    return c.garrison or c.move_class == "raider" or u.emergency


def gens_status(state: GameState, side: str, gm: tec.GroundMap | None = None) -> dict[str, str]:
    """12.5: ``IGS``, ``OGS`` or ``isolated`` for every ``side`` unit on the grid."""
    lines = supply_lines(state, side, gm)
    out: dict[str, str] = {}
    for u in state.units.values():
        if u.side != side:
            continue
        h = hex_of(u)
        if h is None:
            continue
        c = counter_of(u)
        if c.kind not in ("combat", "supply") and c.unit_type != "refit point":
            continue
        if always_supplied(u) or has_los(lines, state, u, h):
            out[u.id] = "IGS"
        elif has_loc(lines, state, u, h):
            out[u.id] = "IGS" if c.kind == "supply" else "OGS"   # 12.2: supply units in GenS unless isolated
        else:
            out[u.id] = "isolated"
    return out


def apply_gens(eng: Engine, side: str) -> dict[str, str]:
    """12.5: mark ``side``'s units IGS, OGS or isolated (OGS + disrupted)."""
    st = eng.state
    status = gens_status(st, side)
    if side == "Axis" and st.vars.get("primary_base_moved_gt") == st.gt:
        # 12.2.4: the GT the primary base is transferred all Axis units are OGS unless in emergency supply
        status = {k: ("OGS" if v == "IGS" and not st.units[k].emergency and is_combat(st.units[k]) else v) for k, v in status.items()}
    counts = {"IGS": 0, "OGS": 0, "isolated": 0}
    for uid in sorted(status):
        u = st.units[uid]
        s = status[uid]
        counts[s] += 1
        u.ogs = s != "IGS"
        u.isolated = s == "isolated"
        if s == "isolated" and is_combat(u):
            disrupt(eng, uid, "isolated", "12.5")
    eng.say(f"{side} general supply (12.5): {counts['IGS']} in GenS, {counts['OGS']} OGS, {counts['isolated']} isolated")
    return status


def _emergency_expiry(eng: Engine, side: str) -> None:
    """12.7: at the beginning of the next friendly Movement Phase remove the marker
    and make a morale check (no check when stacked with an HQ, 15.6)."""
    st = eng.state
    for u in sorted(st.units_of(side), key=lambda x: x.id):
        if not u.emergency:
            continue
        if u.flags.get("emergency_gt_phase") == [st.gt, st.phase]:
            continue
        u.emergency = False
        if any(is_hq(o) for o in st.units_at(u.loc) if o.id != u.id):
            eng.say(f"{counter_of(u).name}: emergency supply ends; no morale check with an HQ (15.6)")
        elif not morale_check(eng, u.id, why="end of emergency supply, 12.7"):
            disrupt(eng, u.id, "failed the morale check ending emergency supply", "12.7")


@auto_step("VI.1")
def determine_gens(eng: Engine) -> None:
    """4.1 VI.1: the active player determines GenS for all his units (12.5)."""
    side = phasing(eng, eng.state.phase)
    if side is None:
        return
    _emergency_expiry(eng, side)
    apply_gens(eng, side)


@auto_step("XVIII.1")
def supply_attrition(eng: Engine) -> None:
    """12.5.1: every isolated unit checks morale; failure depletes it (8.3)."""
    st = eng.state
    for uid in sorted(st.units):
        u = st.units[uid]
        if not (u.isolated and is_combat(u) and hex_of(u) is not None):
            continue
        if counter_of(u).garrison or counter_of(u).move_class == "raider":
            continue
        if not morale_check(eng, uid, why="supply attrition, 12.5.1"):
            deplete(eng, uid)


# ---------------------------------------------------------------- bases (12.2.3, 12.2.4)
def free_counter_id(state: GameState, cid: str, rule: str) -> str:
    """The next unused instance id of generic counter ``cid`` within its mix limit (2.4, 12.2)."""
    c = all_counters()[cid]
    used = {uid for uid in state.units if uid.split("#", 1)[0] == cid and not state.units[uid].loc.startswith("box:Pool")}
    if c.mix and len(used) >= c.mix:
        raise IllegalAction(f"all {c.mix} {c.name} counters are in play (the counter mix is a limit, 12.2)", rule)
    n = 1
    while f"{cid}#{n}" in state.units or (n == 1 and cid in state.units):
        n += 1
    return f"{cid}#{n}"


def prefix(side: str) -> str:
    return "AX" if side == "Axis" else "AL"


def remove_supply_unit(eng: Engine, uid: str, why: str) -> None:
    """Expended or destroyed supply units leave the map (12.2.1: available again next GT)."""
    u = eng.state.units.pop(uid)
    eng.state.vars.setdefault("expended", []).append({"unit": uid, "gt": eng.state.gt, "why": why})


def create_base(eng: Engine, side: str, hex_label: str) -> str:
    """12.2.3: remove one dump and one MSU from a single hex during a friendly
    Movement Phase; place a base there, OGS side showing."""
    st = eng.state
    here = [u for u in st.units_at(hex_label) if u.side == side and not u.captured]
    msu = next((u for u in sorted(here, key=lambda x: x.id) if supply_kind(u) == "msu"), None)
    dump = next((u for u in sorted(here, key=lambda x: x.id) if supply_kind(u) == "dump"), None)
    if msu is None or dump is None:
        raise IllegalAction(f"a base needs one MSU and one (uncaptured) dump in {hex_label}", "12.2.3")
    if any(supply_kind(u) == "base" for u in here):
        raise IllegalAction(f"{hex_label} already holds a base", "12.2.3")
    bid = free_counter_id(st, f"{prefix(side)}-Base", "12.2.3")
    remove_supply_unit(eng, msu.id, "expended to create a base (12.2.3)")
    remove_supply_unit(eng, dump.id, "expended to create a base (12.2.3)")
    st.units[bid] = UnitState(id=bid, side=side, loc=hex_label, active=False)
    eng.say(f"{side} removes an MSU and a dump in {hex_label} and places a base, OGS side up (12.2.3)")
    return bid


@auto_step("III.2")
def bases_to_ogs(eng: Engine) -> None:
    """4.1 III.2: all bases flip to their OGS side; 12.2.4: the Axis primary base is
    activated automatically unless an Allied unit is adjacent."""
    st = eng.state
    for u in st.units.values():
        if supply_kind(u) == "base":
            u.active = False
    pb = st.vars.get("primary_base", {}).get("Axis")
    if pb in st.units and (h := hex_of(st.units[pb])) is not None:
        near = {n.label for n in h.neighbours()}
        if any(u.side == "Allied" and u.loc in near and is_combat(u) for u in st.units.values()):
            eng.say("The Axis primary base is not activated: an Allied unit is adjacent (12.2.4)")
        else:
            st.units[pb].active = True
            eng.say("The Axis primary base is activated automatically (12.2.4)")


def capture_supply(eng: Engine, hex_label: str, captor: str, *, hq: bool) -> None:
    """12.2.7: each enemy supply unit in the hex is captured on 1-3 (HQ -1, 15.6),
    otherwise destroyed.  RP alone are destroyed (17.1 Exception)."""
    st = eng.state
    for u in sorted(st.units_at(hex_label), key=lambda x: x.id):
        if u.side == captor:
            continue
        kind = supply_kind(u)
        if counter_of(u).unit_type == "refit point":
            remove_supply_unit(eng, u.id, "RP destroyed when its hex is entered (17.1)")
            eng.say(f"The {u.side} RP in {hex_label} is destroyed (17.1)")
            continue
        if not kind:
            continue
        die = eng.roll(1, f"Capture of the {u.side} {kind} in {hex_label} (12.2.7)")[0]
        mod = die - (1 if hq else 0)
        remove_supply_unit(eng, u.id, "captured or destroyed (12.2.7)")
        if mod > 3:
            eng.say(f"{die}{' -1 HQ (15.6)' if hq else ''}: the {kind} is destroyed (12.2.7)")
            continue
        new_cid = f"{prefix(captor)}-{'MSU' if kind == 'msu' else 'Dump'}"
        nid = free_counter_id(st, new_cid, "12.2.7")
        nu = UnitState(id=nid, side=captor, loc=hex_label)
        if kind != "msu":
            nu.captured = True
            nu.flags = {"captured_gt": st.gt, "captured_phase": st.phase}
        st.units[nid] = nu
        eng.say(f"{die}{' -1 HQ (15.6)' if hq else ''}: the {kind} is captured and replaced by a {captor} "
                f"{'MSU' if kind == 'msu' else 'dump with a captured marker'} (12.2.7)")


@at_phase_end
def release_captured(eng: Engine, phase: int) -> None:
    """12.2.7: remove the captured marker at the end of the friendly Movement Phase
    following the phase of capture."""
    if phase not in MOVEMENT_PHASES:
        return
    side = phasing(eng, phase)
    st = eng.state
    for u in st.units.values():
        if u.side == side and u.captured:
            when = (u.flags.get("captured_gt", 0), u.flags.get("captured_phase", 0))
            if when < (st.gt, phase):
                u.captured = False
                u.flags = {k: v for k, v in u.flags.items() if not k.startswith("captured_")}
                eng.say(f"The captured marker on the {side} dump in {u.loc} is removed (12.2.7)")


# ---------------------------------------------------------------- GUI query
def query_supply_overlay(eng: Engine, side: str) -> dict[str, dict]:
    """GUI query: for every hex on a LOS or LOC of ``side``: los, loc and the source."""
    lines = supply_lines(eng.state, side)
    out: dict[str, dict] = {}
    for h in set(lines.los) | set(lines.loc):
        src = lines.los[h][1] if h in lines.los else lines.loc[h]
        out[h.label] = {"los": h in lines.los, "loc": h in lines.loc, "source": src}
    return out


QUERIES["supply_overlay"] = query_supply_overlay


# ---------------------------------------------------------------- movement-phase supply actions
def _phase_start_only(frame, what: str, rule: str) -> None:
    if frame.data.get("moved"):
        raise IllegalAction(f"{what} is done at the beginning of the Movement Phase, before any unit moves", rule)


def _stacked(eng: Engine, a: UnitState, b: UnitState, rule: str) -> None:
    if a.loc != b.loc or hex_of(a) is None:
        raise IllegalAction(f"{counter_of(a).name} and {counter_of(b).name} must be stacked in one hex", rule)


def _own(eng: Engine, uid: object, side: str, rule: str) -> UnitState:
    u = eng.state.units.get(str(uid))
    if u is None or u.side != side:
        raise IllegalAction(f"{uid!r} is not a {side} unit", rule)
    return u


def apply_action(eng: Engine, frame, action) -> None:
    """Movement-phase supply actions: ``emergency_supply`` {unit, dump} (12.7),
    ``destroy_supply`` {unit, by} (12.2.5), ``transfer`` {from, to, units} (12.2.3)."""
    a, side = action.args, action.side
    if action.kind == "emergency_supply":
        _phase_start_only(frame, "emergency supply", "12.7")
        u = _own(eng, a.get("unit"), side, "12.7")
        d = _own(eng, a.get("dump"), side, "12.7")
        if supply_kind(d) != "dump" or d.captured:
            raise IllegalAction(f"{d.id} is not a usable dump", "12.7")
        _stacked(eng, u, d, "12.7")
        if not is_combat(u):
            raise IllegalAction("emergency supply is given to one combat unit", "12.7")
        remove_supply_unit(eng, d.id, "expended for emergency supply (12.7)")
        u.emergency, u.ogs, u.isolated = True, False, False
        u.flags = dict(u.flags) | {"emergency_gt_phase": [eng.state.gt, eng.state.phase]}
        eng.say(f"{counter_of(u).name} receives emergency supply: in GenS and combat supply (12.7)")
        return
    if action.kind == "destroy_supply":
        _phase_start_only(frame, "voluntary destruction of supply units", "12.2.5")
        s = _own(eng, a.get("unit"), side, "12.2.5")
        c = _own(eng, a.get("by"), side, "12.2.5")
        if not supply_kind(s):
            raise IllegalAction(f"{counter_of(s).name} is not a supply unit", "12.2.5")
        if not is_combat(c):
            raise IllegalAction(f"{counter_of(c).name} is not a combat unit", "12.2.5")
        _stacked(eng, s, c, "12.2.5")
        from core.rules.status import movement_allowance

        ma = movement_allowance(c) * tec.EIGHTH
        used = frame.data.setdefault("destroy_cost", {}).get(c.id, 0)
        if c.ogs:
            if used:
                raise IllegalAction(f"{counter_of(c).name} is OGS and spends its whole MA to destroy one supply unit", "12.2.5")
            if not morale_check(eng, c.id, why="OGS unit destroying a supply unit, 12.2.5"):
                frame.data["destroy_cost"][c.id] = ma
                frame.data.setdefault("moved", {})
                eng.say(f"{counter_of(c).name} fails and the {supply_kind(s)} survives (12.2.5)")
                return
            cost = ma
        else:
            cost = ma // 2
            if used + cost > ma:
                raise IllegalAction(f"{counter_of(c).name} has no MA left to destroy another supply unit (half its MA each)", "12.2.5")
        frame.data["destroy_cost"][c.id] = used + cost
        remove_supply_unit(eng, s.id, "voluntarily destroyed (12.2.5)")
        eng.say(f"{side} destroys its {supply_kind(s)} in {c.loc}; {counter_of(c).name} expends {tec.mp(cost):g} MP (12.2.5)")
        return
    if action.kind == "transfer":
        src = _own(eng, a.get("from"), side, "12.2.3")
        dst = _own(eng, a.get("to"), side, "12.2.3")
        if supply_kind(src) != "base" or supply_kind(dst) != "base" or src.id == dst.id:
            raise IllegalAction("a transfer goes from one base to another base", "12.2.3")
        if not src.active:
            raise IllegalAction("only an active base may transfer", "12.2.3 a)")
        done = frame.data.setdefault("transfers", {"out": [], "in": [], "moved": []})
        if src.id in done["out"] or dst.id in done["in"]:
            raise IllegalAction("a base makes one transfer and receives one transfer each Movement Phase", "12.2.3 b)")
        items = [_own(eng, x, side, "12.2.3") for x in (a.get("units") or [])]
        dumps = [x for x in items if supply_kind(x) == "dump"]
        rps = [x for x in items if counter_of(x).unit_type == "refit point"]
        if not items or len(dumps) + len(rps) != len(items) or not ((len(dumps) == 1 and not rps) or (not dumps and 1 <= len(rps) <= 2)):
            raise IllegalAction("a transfer moves one dump or two refit points", "12.2.3 a)")
        for x in items:
            if x.loc != src.loc:
                raise IllegalAction(f"{x.id} is not at the transferring base", "12.2.3")
            if x.id in done["moved"]:
                raise IllegalAction(f"{x.id} was already transferred this phase", "12.2.3 d)")
        # c) within a base LOS (14 MMP) traced from the sending base
        st = eng.state
        gm = tec.current_map()
        dh, sh = hex_of(dst), hex_of(src)
        lines = _los_from(st, side, sh, BASE_LOS, gm)
        if dh not in lines:
            raise IllegalAction(f"{dst.loc} is not within a base LOS (14 MMP) of {src.loc}", "12.2.3 c)")
        for x in items:
            x.loc = dst.loc
            done["moved"].append(x.id)
        done["out"].append(src.id)
        done["in"].append(dst.id)
        eng.say(f"{side} transfers {len(items)} supply item(s) from the base at {src.loc} to the base at {dst.loc} (12.2.3)")
        return
    raise IllegalAction(f"{action.kind} is not a supply action", "12.0")


def _los_from(state: GameState, side: str, start: Hex, rng: int, gm: tec.GroundMap) -> set[Hex]:
    """Hexes within ``rng`` MMP of ``start`` along a legal supply path (12.4)."""
    blocked = _blocked_hexes(state, side, gm)
    best = {start: rng}
    heap = [(-rng, start)]
    while heap:
        neg, h = heapq.heappop(heap)
        if best.get(h, -1) > -neg:
            continue
        for n in tec.nbrs(h):
            if n in blocked:
                continue
            c, _ = tec.step_cost(gm, "trucked", h, n)
            if c is None or c > -neg:
                continue
            r = -neg - c
            if best.get(n, -1) < r:
                best[n] = r
                heapq.heappush(heap, (-r, n))
    return set(best)
