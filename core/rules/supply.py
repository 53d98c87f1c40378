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
* 12.5 IGS / OGS / isolated, set for the phasing player at step 1 of each Movement Phase (4.1 VI.1, IX.1,
  XII.1, XV.1; 20.1: a unit that landed from port
  boxes this GT, ``flags["landed_gt"]``, is in GenS);
  12.5.1 attrition at XVIII.1; 12.7 emergency supply; 12.2.3 bases;
  12.2.7 capture.

Statuses are computed from the lines of the whole side at once, so they do not
depend on the order in which units are checked.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

import msgspec

from core.counters import all_counters
from core import sequence
from core.decisions import Action, Decision, IllegalAction, Option, other
from core.engine import QUERIES, Engine, Procedure, at_game_start, at_phase_end, auto_step, on_step, procedure
from core.state import Frame
from core.hexgrid import Hex
from core.rules import tec, zoc
from core.rules.status import (
    MOVEMENT_PHASES, counter_of, deplete, disrupt, hex_of, is_combat, is_desert_raider, is_hq, is_motorized,
    is_track_marker, morale_check, phasing, supply_kind, tec_class,
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


MP_START = "mp_start_occupied"   # state.vars key: side -> hexes its units held when the Movement Phase began


def _friendly_hexes(state: GameState, side: str) -> set[Hex]:
    from core.rules import fna     # the other side's units, and neutral Vichy French for the Allies (R-VICHY-NEUTRAL)
    return {h for u in state.units.values() if not fna.hostile(u, side) and (h := hex_of(u)) is not None}


def record_movement_phase_start(eng: Engine) -> None:
    """11.4: remember the hexes each side occupies at the beginning of the Movement Phase (step 1 of every
    Movement Phase, before GenS is determined): only those negate EZOC for LOS and LOC (G-LOS-EZOC)."""
    eng.state.vars[MP_START] = {side: sorted(h.label for h in _friendly_hexes(eng.state, side))
                                for side in ("Axis", "Allied")}


def ezoc_negating_hexes(state: GameState, side: str) -> set[Hex]:
    """11.4: "LOC and LOS may not be traced through EZOC unless the hex is occupied by a friendly unit at the
    beginning of the Movement Phase" -- the most recent Movement Phase of either player; before the first
    Movement Phase of a game, the set-up positions (G-LOS-EZOC)."""
    snap = state.vars.get(MP_START)
    if snap is None:
        return _friendly_hexes(state, side)
    return {Hex.parse(lab) for lab in snap[side]}


def off_grid_ids(state: GameState) -> frozenset[int]:
    """The ids (:func:`tec.hex_id`) of the hexes no LOS or LOC (12.4) is traced into: the hexes on no map in play
    (R-MAPS-IN-PLAY: a scenario's hex grid is its "Maps in Play") and, while 22.7 keeps them out of play, the hexes
    in Algeria and Tunisia (``offmap.fna_hexes_out_of_play``, R-FNA-HEXES).  The one list movement reads as well
    (``movement.off_play_ids``): a line of supply is traced through hexes, and a hex out of play is no hex of the
    game."""
    from core.rules import movement
    return movement.off_play_ids(state)


def _off_grid(state: GameState) -> frozenset[Hex]:
    """:func:`off_grid_ids` as hexes (computed once per list of maps in play and 22.7 status)."""
    from core.rules import offmap
    key = (tuple(state.vars.get("maps") or ()), offmap.fna_hexes_out_of_play(state))
    v = _OFF_GRID.get(key)
    if v is None:
        v = _OFF_GRID[key] = frozenset(tec.hex_of_id(k) for k in off_grid_ids(state))
    return v


_OFF_GRID: dict[tuple[tuple[str, ...], bool], frozenset[Hex]] = {}


def _trace_limits(state: GameState, side: str, gm: tec.GroundMap) -> tuple[set[Hex], set[Hex]]:
    """12.4 / 11.4: (hexes a supply line may not enter, hexes where it may only end).

    A line may not pass enemy units or EZOC, unless the EZOC hex was occupied by a friendly unit at the
    beginning of the Movement Phase (:func:`ezoc_negating_hexes`).  It may still be traced *to* a friendly
    unit in an EZOC hex it entered since then: 11.4 forbids tracing "through" EZOC, and the line ends in that
    unit's hex (G-LOS-EZOC).  It never enters a hex out of play (:func:`off_grid_ids`: R-MAPS-IN-PLAY, 22.7)."""
    blocked, ends = _unit_limits(state, side, gm)
    return blocked | _off_grid(state), ends


def _unit_limits(state: GameState, side: str, gm: tec.GroundMap) -> tuple[set[Hex], set[Hex]]:
    """:func:`_trace_limits` less the hexes out of play: what the enemy units and their ZOC block (12.4, 11.4)."""
    from core.rules import fna     # the other side's units, and neutral Vichy French for the Allies (R-VICHY-NEUTRAL)
    enemy = other(side)
    friendly = _friendly_hexes(state, side)
    blocked = {h for u in state.units.values() if fna.hostile(u, side) and not u.captured and not is_track_marker(u)
               and (h := hex_of(u)) is not None and (u.side != side or h not in friendly)}
    enemy_held = set(blocked)
    negated = ezoc_negating_hexes(state, side)
    ezoc = {h for h in zoc.zoc_hexes(state, enemy, gm) if h not in negated}
    blocked |= ezoc
    return blocked, (ezoc & friendly) - enemy_held


def _blocked_hexes(state: GameState, side: str, gm: tec.GroundMap) -> set[Hex]:
    """12.4 / 11.4: hexes a supply line may not enter (see :func:`_trace_limits`)."""
    return _trace_limits(state, side, gm)[0]


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
        if not loc:
            # 22.1 a), b): the Egyptian railroad; a LOS by rail arrives with 3 MP spent (G-NRV-RAIL)
            from core.rules import transport

            for lab in transport.egyptian_rail_active(state):
                out.append((Hex.parse(lab), BASE_LOS - transport.RAIL_COST, "NRV rail (22.1)"))
    if loc:
        gm = tec.current_map()
        for h in sorted(gm.ports):
            if port_controlled(state, side, h):
                out.append((h, 0, f"port {h.label}"))
    return out


def port_controlled(state: GameState, side: str, h: Hex) -> bool:
    """12.4.2: a friendly-controlled port (2.2.2)."""
    from core.rules import control
    return control.controls(state, side, h.label)


def supply_lines(state: GameState, side: str, gm: tec.GroundMap | None = None) -> SupplyLines:
    """Trace every LOS and LOC of ``side`` (12.4).

    Over the map's step tables by hex id (:meth:`tec.GroundMap.edges`, trucked costs: issue 18); the result is
    keyed by hexes, in the order the hexes were reached."""
    gm = gm or tec.map_for(state)
    blocked, ends = _unit_limits(state, side, gm)       # :func:`_trace_limits`, the hexes out of play by id
    hid = tec.hex_id
    end_ids = {hid(h) for h in ends}
    stop = ({hid(h) for h in blocked} - end_ids) | off_grid_ids(state)   # a line may not enter these (it may end in ``ends``)
    hexes: dict[int, Hex] = {}
    msu_range: dict[int, int] = {}
    for u in state.units.values():
        if u.side == side and supply_kind(u) == "msu" and not u.captured and (h := hex_of(u)) is not None:
            k = hid(h)
            msu_range[k] = max(msu_range.get(k, 0), DISRUPTED_MSU_LOS if u.disrupted else MSU_LOS)
    graph, edges_of = gm.adjacency(), gm.edges
    costs = gm.type_costs("trucked")
    # LOS: a Dijkstra that maximises the remaining range; an MSU reached resets it (12.4.1 Important)
    los: dict[int, tuple[int, str]] = {}
    heap: list[tuple[int, int, int, str]] = []
    order = 0
    for h, rng, name in _sources(state, side, loc=False):
        k = hid(h)
        if k in stop:
            continue
        hexes[k] = h
        rng = max(rng, msu_range.get(k, 0))
        heapq.heappush(heap, (-rng, order, k, name))
        order += 1
    heappop, heappush = heapq.heappop, heapq.heappush
    while heap:
        neg, _, h, name = heappop(heap)
        rem = -neg
        cur = los.get(h)
        if cur is not None and cur[0] >= rem:
            continue
        los[h] = (rem, name)
        if h in end_ids:
            continue                    # 11.4: the line ends here, it does not go through
        for n, nh, kind, lab in graph.get(h) or edges_of(h):
            if n in stop:
                continue
            cost = costs[kind][0]
            if cost is None or cost > rem:
                continue
            r2 = rem - cost
            src = name
            if msu_range.get(n, 0) > r2:
                r2, src = msu_range[n], f"MSU at {lab} ({name})"
            cur = los.get(n)
            if cur is None or cur[0] < r2:
                hexes[n] = nh
                heappush(heap, (-r2, order, n, src))
                order += 1
    # LOC: any length (12.4.2)
    loc: dict[int, str] = {}
    frontier = []
    for h, _, name in _sources(state, side, loc=True):
        k = hid(h)
        if k not in stop and k not in loc:
            hexes[k] = h
            loc[k] = name
            frontier.append(k)
    while frontier:
        nxt = []
        for h in frontier:
            if h in end_ids:
                continue                # 11.4: the line ends here, it does not go through
            for n, nh, kind, _ in graph.get(h) or edges_of(h):
                if n in loc or n in stop or costs[kind][0] is None:
                    continue
                hexes[n] = nh
                loc[n] = loc[h]
                nxt.append(n)
        frontier = nxt
    return SupplyLines(side=side, los={hexes[k]: v for k, v in los.items()}, loc={hexes[k]: v for k, v in loc.items()})


def _adjacent_exception(lines: dict, state: GameState, u: UnitState, h: Hex) -> bool:
    """12.4.1 Exception: a non-motorised unit adjacent to a hex on the line."""
    if is_motorized(u):
        return False
    gm = tec.current_map()
    cls = tec_class(state, u)
    for n in tec.nbrs(h):
        if n in lines and tec.step_cost(gm, cls if cls in tec.CLASSES else "foot", n, h)[0] is not None:
            return True
    return False


def has_los(lines: SupplyLines, state: GameState, u: UnitState, h: Hex) -> bool:
    return h in lines.los or _adjacent_exception(lines.los, state, u, h)


def has_loc(lines: SupplyLines, state: GameState, u: UnitState, h: Hex) -> bool:
    return h in lines.loc or _adjacent_exception(lines.loc, state, u, h)


def always_supplied(state: GameState, u: UnitState) -> bool:
    """15.8 garrisons ("always considered in supply"), 16.1 desert raiders ("Are always in general and combat
    supply") while the optional desert raider rules are used (16.0; not in 24.0-26.0 b: R-RAID-OFF), and 12.7
    emergency supply."""
    return counter_of(u).garrison or raider_always_supplied(state, u) or u.emergency


def raider_always_supplied(state: GameState, u: UnitState) -> bool:
    """16.1: a desert raider is always in general supply -- a capability of the optional rules of 16.0."""
    return is_desert_raider(state, u)


def combat_supplied_without_dump(state: GameState, u: UnitState) -> bool:
    """Units in combat supply with no dump expended (12.6): 15.8 garrisons (always in supply), 16.1 desert raiders
    ("Are always in general and combat supply", with the optional rules of 16.0: R-RAID-OFF) and 12.7 emergency
    supply ("The unit is in both GenS and combat supply")."""
    return counter_of(u).garrison or is_desert_raider(state, u) or u.emergency


def gens_status(state: GameState, side: str, gm: tec.GroundMap | None = None) -> dict[str, str]:
    """12.5: ``IGS``, ``OGS`` or ``isolated`` for every ``side`` unit on the grid (not the Vichy French units that are
    no active Allied units: inactive before ALC-23, neutral after it until they join, ``fna.not_allied_power``;
    R-VICHY-INACTIVE, R-VICHY-NEUTRAL)."""
    from core.rules import fna
    lines = supply_lines(state, side, gm)
    out: dict[str, str] = {}
    for u in state.units.values():
        if u.side != side or fna.not_allied_power(state, u):    # 23.1 ALC-3, ALC-21 i, ALC-27 c
            continue
        h = hex_of(u)
        if h is None:
            continue
        c = counter_of(u)
        if c.kind not in ("combat", "supply") and c.unit_type != "refit point":
            continue
        if (always_supplied(state, u) or u.flags.get("landed_gt") == state.gt
                or u.flags.get("entry_supplied_gt") == state.gt or has_los(lines, state, u, h)):
            out[u.id] = "IGS"          # 20.1: landing units are in GenS for the GT of landing; 30.2 entering ones too
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


def determine_gens(eng: Engine) -> None:
    """4.1 VI.1 (and IX.1, XII.1, XV.1, "conducted in the same order and manner as Phase VI"): the active
    player determines GenS for all his units (12.5: "at the beginning of each friendly Movement Phase");
    12.7: emergency supply given in his previous Movement Phase ends first."""
    side = phasing(eng, eng.state.phase)
    if side is None:
        return
    record_movement_phase_start(eng)
    _emergency_expiry(eng, side)
    apply_gens(eng, side)


for _k in sequence.movement_steps(1):
    auto_step(_k)(determine_gens)


@auto_step("XVIII.1")
def supply_attrition(eng: Engine) -> None:
    """12.5.1: every isolated unit checks morale; failure depletes it (8.3)."""
    st = eng.state
    for uid in sorted(st.units):
        u = st.units[uid]
        if not (u.isolated and is_combat(u) and hex_of(u) is not None):
            continue
        if counter_of(u).garrison or raider_always_supplied(st, u):
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
    pb = axis_primary(eng.state)
    eng.state.units.pop(uid)
    eng.state.vars.setdefault("expended", []).append({"unit": uid, "gt": eng.state.gt, "why": why})
    if pb is not None and pb.id == uid:
        primary_base_lost(eng)                                  # 12.2.4


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
    pbu = axis_primary(st)
    pb = pbu.id if pbu is not None else None
    if pb in st.units and (h := hex_of(st.units[pb])) is not None:
        near = {n.label for n in h.neighbours()}
        if any(u.side == "Allied" and u.loc in near and is_combat(u) for u in st.units.values()):
            eng.say("The Axis primary base is not activated: an Allied unit is adjacent (12.2.4)")
        else:
            st.units[pb].active = True
            eng.say("The Axis primary base is activated automatically (12.2.4)")


def capture_supply(eng: Engine, hex_label: str, captor: str, *, hq: bool, destroy: bool = False) -> None:
    """12.2.7: "The advancing player may either destroy it or roll 1d6 to attempt a capture": with ``destroy`` every
    enemy supply unit in the hex is destroyed without a roll; otherwise each is captured on 1-3 (HQ -1, 15.6), else
    destroyed.  RP are destroyed (17.1 Exception)."""
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
        if destroy:
            remove_supply_unit(eng, u.id, "destroyed by the advancing player (12.2.7)")
            eng.say(f"The {u.side} {kind} in {hex_label} is destroyed: the advancing player chose not to roll (12.2.7)")
            continue
        die = eng.roll(1, f"Capture of the {u.side} {kind} in {hex_label} (12.2.7)")[0]
        mod = die - (1 if hq else 0)
        remove_supply_unit(eng, u.id, "captured or destroyed (12.2.7)")
        if mod > 3:
            eng.say(f"{die}{' -1 HQ (15.6)' if hq else ''}: the {kind} is destroyed (12.2.7)")
            continue
        new_cid = f"{prefix(captor)}-{'MSU' if kind == 'msu' else 'Dump'}"
        try:
            nid = free_counter_id(st, new_cid, "12.2.7")
        except IllegalAction:
            # 2.4: the counter mix is a hard limit; with no free counter the capture yields nothing (R-CAPTURE-MIX)
            eng.say(f"{die}: the {kind} would be captured, but every {captor} "
                    f"{'MSU' if kind == 'msu' else 'dump'} counter is in play; it is destroyed (2.4, 12.2.7)")
            continue
        nu = UnitState(id=nid, side=captor, loc=hex_label)
        if kind != "msu":
            nu.captured = True
            nu.flags = {"captured_gt": st.gt, "captured_phase": st.phase}
        st.units[nid] = nu
        eng.say(f"{die}{' -1 HQ (15.6)' if hq else ''}: the {kind} is captured and replaced by a {captor} "
                f"{'MSU' if kind == 'msu' else 'dump with a captured marker'} (12.2.7)")



def capture_choice(args: dict) -> bool:
    """12.2.7: the advancing player's choice, an optional ``capture`` argument of the move / advance / exploit
    action that enters the hex: ``"destroy"`` destroys the supply units, ``"roll"`` (the default) rolls."""
    choice = args.get("capture", "roll")
    if choice not in ("roll", "destroy"):
        raise IllegalAction(f"capture must be 'roll' or 'destroy', not {choice!r}", "12.2.7")
    return choice == "destroy"


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


def _los_from(state: GameState, side: str, start: Hex, rng: int, gm: tec.GroundMap,
              limits: tuple[set[Hex], set[Hex]] | None = None) -> set[Hex]:
    """Hexes within ``rng`` MMP of ``start`` along a legal supply path (12.4; ``limits`` from
    :func:`_trace_limits`)."""
    blocked, ends = limits if limits is not None else _trace_limits(state, side, gm)
    best = {start: rng}
    heap = [(-rng, start)]
    while heap:
        neg, h = heapq.heappop(heap)
        if best.get(h, -1) > -neg:
            continue
        if h in ends and h != start:
            continue                    # 11.4: the line ends here, it does not go through
        for n, c, _ in gm.steps("trucked", h):
            if n in blocked and n not in ends:
                continue
            if c is None or c > -neg:
                continue
            r = -neg - c
            if best.get(n, -1) < r:
                best[n] = r
                heapq.heappush(heap, (-r, n))
    return set(best)


# ---------------------------------------------------------------- 12.3 b) a dump gives GenS to one hex
def dump_range(d: UnitState) -> int:
    """12.4.1 b) 7 MMP from a dump; 8.2.1 a disrupted dump 3."""
    return DISRUPTED_MSU_LOS if d.disrupted else DUMP_LOS


#: fingerprint of everything dump_gens_targets reads -> its answer (bounded memo; the refit step asks
#: again after every refit although dumps, units out of supply and enemy ZOC have not changed)
_DUMP_TARGETS: dict[bytes, list[tuple[str, str]]] = {}


def dump_gens_targets(state: GameState, side: str, gm: tec.GroundMap | None = None) -> list[tuple[str, str]]:
    """(dump id, hex) pairs: hexes holding ``side`` units out of GenS within the dump's LOS (12.3 b)."""
    gm = gm or tec.map_for(state)
    from core.rules import offmap
    key = msgspec.json.encode([id(gm), gm._generation, side, state.vars.get("forts"), state.vars.get(MP_START),
                               state.vars.get("maps"), offmap.fna_hexes_out_of_play(state),    # the hexes in play
                               [u for u in state.units.values() if ":" not in u.loc and u.loc != "setup"]])
    hit = _DUMP_TARGETS.get(key)
    if hit is None:
        if len(_DUMP_TARGETS) > 64:
            _DUMP_TARGETS.clear()
        hit = _DUMP_TARGETS[key] = _dump_gens_targets(state, side, gm)
    return list(hit)


def _dump_gens_targets(state: GameState, side: str, gm: tec.GroundMap) -> list[tuple[str, str]]:
    wanting: dict[Hex, list[UnitState]] = {}
    for u in state.units.values():
        if u.side == side and (u.ogs or u.isolated) and not supply_kind(u) and (h := hex_of(u)) is not None:
            wanting.setdefault(h, []).append(u)
    out: list[tuple[str, str]] = []
    if not wanting:
        return out
    limits: tuple[set[Hex], set[Hex]] | None = None
    for d in sorted(state.units.values(), key=lambda x: x.id):
        if d.side != side or supply_kind(d) != "dump" or d.captured or (dh := hex_of(d)) is None:
            continue
        if limits is None:
            limits = _trace_limits(state, side, gm)             # one state: computed once for every dump
        reach = _los_from(state, side, dh, dump_range(d), gm, limits)
        for h in sorted(wanting, key=lambda x: x.label):
            if h in reach:
                out.append((d.id, h.label))
    return out


def dump_gens(eng: Engine, side: str, dump_id: str, hex_label: str) -> None:
    """12.2.1 2), 12.3 b): expend a dump to put every friendly unit in one hex in GenS.

    Offered at the start of the Movement Phase, in the refit step (VI.2) right after the
    GenS determination of VI.1 (docs/rulings.d/ground.md G-DUMP-GENS)."""
    st = eng.state
    d = st.units.get(str(dump_id))
    if d is None or d.side != side or supply_kind(d) != "dump":
        raise IllegalAction(f"{dump_id!r} is not a {side} dump", "12.3 b)")
    if d.captured:
        raise IllegalAction("a captured dump may not be expended until its marker is removed", "12.2.7")
    if (str(dump_id), str(hex_label)) not in dump_gens_targets(st, side):
        raise IllegalAction(f"the dump in {d.loc} has no LOS ({tec.mp(dump_range(d)):g} MMP) to a hex of "
                            f"{side} units out of general supply at {hex_label}", "12.3 b)")
    remove_supply_unit(eng, d.id, "expended to provide GenS to one hex (12.3 b)")
    n = 0
    for u in st.units_at(str(hex_label)):
        if u.side == side and (u.ogs or u.isolated):
            u.ogs = u.isolated = False
            n += 1
    eng.say(f"{side} expends the dump in {d.loc}: {n} unit(s) in {hex_label} are in general supply (12.3 b)")


# ---------------------------------------------------------------- 12.2.3 base activation (IV.1 / IV.2)
def activatable_bases(state: GameState, side: str) -> list[tuple[str, str]]:
    """(base id, dump id): OGS bases of ``side`` with an uncaptured dump in their hex (12.2.3)."""
    out = []
    for b in sorted(state.units.values(), key=lambda x: x.id):
        if b.side != side or supply_kind(b) != "base" or b.active or hex_of(b) is None or b.captured:
            continue
        dump = next((d for d in sorted(state.units_at(b.loc), key=lambda x: x.id)
                     if d.side == side and supply_kind(d) == "dump" and not d.captured), None)
        if dump is not None:
            out.append((b.id, dump.id))
    return out


def activate_base(eng: Engine, side: str, base_id: str) -> None:
    st = eng.state
    b = st.units.get(str(base_id))
    if b is None or b.side != side or supply_kind(b) != "base":
        raise IllegalAction(f"{base_id!r} is not a {side} base", "12.2.3")
    if b.active:
        raise IllegalAction(f"the base in {b.loc} is already active", "12.2.3")
    pair = dict(activatable_bases(st, side)).get(b.id)
    if pair is None:
        raise IllegalAction(f"activating the base in {b.loc} expends a dump in its hex; there is none", "12.2.3")
    remove_supply_unit(eng, pair, "expended to activate a base (12.2.3)")
    b.active = True
    eng.say(f"{side} expends the dump in {b.loc}: the base there is active (12.2.3)")


# ---------------------------------------------------------------- 12.2.4 primary base
def axis_primary(state: GameState) -> UnitState | None:
    """12.2.4: the Axis primary base unit.  The truth is ``vars["primary_base"]["Axis"]`` (a unit id); before it
    is written (a new game) the base the scenario marks ``primary`` (``flags["primary_base"]``) is it
    (G-PRIMARY-SYNC)."""
    pb = state.vars.get("primary_base", {}).get("Axis")
    if pb:
        return state.units.get(pb)
    if state.vars.get("primary_base_lost"):
        return None
    for u in state.units.values():
        if u.side == "Axis" and u.flags.get("primary_base") and supply_kind(u) == "base" and hex_of(u) is not None:
            return u
    return None


def set_axis_primary(state: GameState, uid: str | None) -> None:
    """Write the Axis primary base everywhere it is kept (G-PRIMARY-SYNC): ``vars["primary_base"]["Axis"]`` (the
    unit id, the truth) and the strategic rules' ``vars["axis_primary_base"]`` (its hex label)."""
    prim = dict(state.vars.get("primary_base", {}))
    u = state.units.get(uid) if uid else None
    if u is None:
        prim.pop("Axis", None)
        state.vars.pop("axis_primary_base", None)
    else:
        prim["Axis"] = u.id
        if hex_of(u) is not None:
            state.vars["axis_primary_base"] = u.loc
    state.vars["primary_base"] = prim


def sync_primary_base(state: GameState) -> None:
    """Bring ``vars["axis_primary_base"]`` (and, for a new game, ``vars["primary_base"]``) up to date with the
    primary base unit; writes nothing when both already agree."""
    pb = axis_primary(state)
    if pb is None or hex_of(pb) is None:
        return
    if state.vars.get("primary_base", {}).get("Axis") != pb.id or state.vars.get("axis_primary_base") != pb.loc:
        set_axis_primary(state, pb.id)


@at_game_start
def primary_base_at_start(eng: Engine) -> None:
    """12.2.4: the scenario's primary base becomes the Axis primary base of the game (G-PRIMARY-SYNC)."""
    sync_primary_base(eng.state)


def _port_capacity(h: Hex) -> int:
    """12.2.4 "a capacity of three or more": standard boxes (R-PORT-CAPACITY, ``naval.port_capacity``)."""
    from core.rules import naval
    return naval.port_capacity(h.label)


def relocation_targets(state: GameState, gm: tec.GroundMap | None = None) -> list[str]:
    """12.2.4 1): friendly ports of capacity >= 3 with a friendly base and a LOC to the primary base's hex."""
    gm = gm or tec.map_for(state)
    pb = axis_primary(state)
    if pb is None or (ph := hex_of(pb)) is None:
        return []
    out = []
    limits: tuple[set[Hex], set[Hex]] | None = None     # one state: computed once for every base
    for b in sorted(state.units.values(), key=lambda x: x.id):
        if b.side != "Axis" or supply_kind(b) != "base" or b.id == pb.id or (h := hex_of(b)) is None:
            continue
        if h not in gm.ports or _port_capacity(h) < 3 or not port_controlled(state, "Axis", h):
            continue
        if limits is None:
            limits = _trace_limits(state, "Axis", gm)
        if ph in _loc_from(state, "Axis", h, gm, limits=limits, goal=ph):
            out.append(b.id)
    return out


def _loc_from(state: GameState, side: str, start: Hex, gm: tec.GroundMap, *,
              limits: tuple[set[Hex], set[Hex]] | None = None, goal: Hex | None = None) -> set[Hex]:
    """Hexes reached by a LOC (any length, 12.4.2) from ``start`` (``limits`` from :func:`_trace_limits`); with
    ``goal``, the search stops once it is reached (the set then holds it, and only part of the rest)."""
    blocked, ends = _trace_limits(state, side, gm) if limits is None else limits
    seen = {start}
    frontier = [start]
    while frontier and goal not in seen:
        nxt = []
        for h in frontier:
            if h in ends and h != start:
                continue                # 11.4: the line ends here, it does not go through
            for n in tec.nbrs(h):
                if n in seen or (n in blocked and n not in ends) or tec.step_cost(gm, "trucked", h, n)[0] is None:
                    continue
                seen.add(n)
                nxt.append(n)
        frontier = nxt
    return seen


def relocate_primary(eng: Engine, base_id: str) -> None:
    """12.2.4: the primary base and the base at the new location swap places, both OGS."""
    st = eng.state
    if base_id not in relocation_targets(st):
        raise IllegalAction(f"{base_id!r} is not a friendly base in a port of capacity 3+ with a LOC to the primary base",
                            "12.2.4")
    pb = axis_primary(st)
    other_base = st.units[base_id]
    old, new = pb.loc, other_base.loc
    pb.loc, other_base.loc = new, old
    pb.active = other_base.active = False
    st.vars["primary_base_moved_gt"] = st.gt
    set_axis_primary(st, pb.id)
    eng.say(f"The Axis primary base moves from {old} to {new}, OGS side up; the base there moves to {old} (12.2.4). "
            "This GT all Axis units are OGS unless in emergency supply, and no refit or training")


def primary_base_lost(eng: Engine) -> None:
    """12.2.4: the primary base destroyed: Refit, Destroyed and Training boxes emptied permanently;
    1d6 halved (round up) GTs to replace it."""
    st = eng.state
    if st.vars.get("primary_base_lost"):
        return
    die = eng.roll(1, "Axis primary base destroyed: GTs to replace it (12.2.4)")[0]
    gts = (die + 1) // 2
    st.vars["primary_base_lost"] = {"gt": st.gt, "return_gt": st.gt + gts}
    set_axis_primary(st, None)
    gone = []
    for u in sorted(st.units.values(), key=lambda x: x.id):
        if u.side != "Axis":
            continue
        if u.loc in ("box:Refit:Axis", "box:Destroyed:Axis") or u.loc.startswith(("track:Training", "box:Training")):
            u.loc = "removed"
            u.training_box = 0
            u.flags = dict(u.flags) | {"removed_by": "12.2.4"}
            gone.append(u.id)
    eng.say(f"{die} halved = {gts}: the Axis primary base can be replaced in GT {st.gt + gts}; "
            f"{len(gone)} unit(s) in the Refit, Destroyed and Training boxes are removed from play (12.2.4)")


def primary_placements(state: GameState, gm: tec.GroundMap | None = None) -> list[str]:
    """12.2.4: any friendly port with a capacity of three or more, on a hex in play (R-MAPS-IN-PLAY; 22.7,
    R-FNA-HEXES: ``offmap.map_refusal``)."""
    from core.rules import offmap
    gm = gm or tec.map_for(state)
    return sorted(h.label for h in gm.ports
                  if _port_capacity(h) >= 3 and port_controlled(state, "Axis", h) and not offmap.map_refusal(state, h.label))


def place_primary(eng: Engine, hex_label: str) -> str:
    st = eng.state
    if hex_label not in primary_placements(st):
        raise IllegalAction(f"{hex_label} is not a friendly port with a capacity of three or more", "12.2.4")
    bid = free_counter_id(st, "AX-Base", "12.2.4")
    st.units[bid] = UnitState(id=bid, side="Axis", loc=hex_label, active=True)
    st.vars.pop("primary_base_lost", None)
    set_axis_primary(st, bid)
    eng.say(f"The Axis primary base is replaced at {hex_label} (12.2.4)")
    return bid


@at_phase_end
def primary_base_check(eng: Engine, phase: int) -> None:
    """12.2.4: a primary base removed by any rule (capture, combat, destruction) is lost."""
    pb = eng.state.vars.get("primary_base", {}).get("Axis")
    if pb and (pb not in eng.state.units or hex_of(eng.state.units[pb]) is None):
        primary_base_lost(eng)
    else:
        sync_primary_base(eng.state)


@procedure("allocation_supply")
class AllocationSupply(Procedure):
    """4.1 IV.1 / IV.2 (12.2.3): the initiative, then the non-initiative player expends dumps to
    activate bases.  At IV.1, first (12.2.4 'at the beginning of the Allocation Phase') the Axis
    player may relocate the primary base, or must replace a destroyed one once its GTs have passed."""

    def enter(self, eng: Engine, frame: Frame) -> None:
        step = sequence.STEPS[frame.data["step"]]
        frame.data["side"] = sequence.side_of(step.role, eng.state.initiative, eng.state.first_player)

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        st = eng.state
        side = frame.data["side"]
        if frame.data["step"] == "IV.1" and not frame.data.get("primary_done"):
            lost = st.vars.get("primary_base_lost")
            if lost and st.gt >= lost["return_gt"]:
                spots = primary_placements(st)
                if spots:
                    return Decision(side="Axis", kind="place_primary_base", rule="12.2.4",
                                    prompt="Place the replacement Axis primary base in a friendly port (capacity 3+)",
                                    options=tuple(Option(action=Action(kind="place_primary_base", side="Axis",
                                                                       args={"hex": h}), label=f"Primary base at {h}")
                                                  for h in spots))
            targets = relocation_targets(st) if axis_primary(st) is not None else []
            if targets:
                opts = [Option(action=Action(kind="done", side="Axis", args={"relocate": False}),
                               label="Keep the primary base where it is")]
                opts += [Option(action=Action(kind="relocate_primary_base", side="Axis", args={"base": b}),
                                label=f"Relocate the primary base to {st.units[b].loc}") for b in targets]
                return Decision(side="Axis", kind="relocate_primary_base", rule="12.2.4",
                                prompt="Relocate the Axis primary base? (12.2.4)", options=tuple(opts))
            frame.data["primary_done"] = True
        if frame.data.get("done"):
            return None
        opts = [Option(action=Action(kind="done", side=side), label="No (more) base activations")]
        opts += [Option(action=Action(kind="activate_base", side=side, args={"base": b}),
                        label=f"Expend the dump in {st.units[b].loc} to activate the base there")
                 for b, _ in activatable_bases(st, side)]
        step = sequence.STEPS[frame.data["step"]]
        return Decision(side=side, kind="activate_bases", prompt=step.text, rule=step.rule, options=tuple(opts))

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        k = action.kind
        if k == "place_primary_base":
            place_primary(eng, str(action.args.get("hex", "")))
            frame.data["primary_done"] = True
        elif k == "relocate_primary_base":
            relocate_primary(eng, str(action.args.get("base", "")))
            frame.data["primary_done"] = True
        elif k == "done" and action.args.get("relocate") is False:
            frame.data["primary_done"] = True
        elif k == "done":
            frame.data["done"] = True
        elif k == "activate_base":
            activate_base(eng, action.side, str(action.args.get("base", "")))
        else:
            super().apply(eng, frame, action)


on_step("IV.1", "allocation_supply")
on_step("IV.2", "allocation_supply")


def reaction_destroy_options(eng: Engine, frame: Frame, side: str, eligible) -> list[tuple[str, str]]:
    """12.2.5 2): (supply unit, combat unit eligible to react) pairs stacked together."""
    st = eng.state
    tried = set(frame.data.get("destroy_tried", []))
    out = []
    for s in sorted(st.units.values(), key=lambda x: x.id):
        if s.side != side or not supply_kind(s) or s.id in tried or hex_of(s) is None:
            continue
        for c in sorted(st.units_at(s.loc), key=lambda x: x.id):
            if c.side == side and is_combat(c) and c.id not in frame.data.get("moved", {}) and eligible(c):
                out.append((s.id, c.id))
                break
    return out


def reaction_destroy(eng: Engine, frame: Frame, side: str, sid: str, cid: str, eligible) -> None:
    """12.2.5 2): at the beginning of a friendly Reaction Phase a combat unit eligible to react
    expends its whole RMA; 1-3 destroys the supply unit.  One attempt per supply unit per phase."""
    if frame.data.get("reacted"):
        raise IllegalAction("supply units are destroyed at the beginning of the Reaction Phase, before any unit "
                            "reacts", "12.2.5")
    s = _own(eng, sid, side, "12.2.5")
    c = _own(eng, cid, side, "12.2.5")
    if not supply_kind(s):
        raise IllegalAction(f"{counter_of(s).name} is not a supply unit", "12.2.5")
    if s.id in frame.data.get("destroy_tried", []):
        raise IllegalAction("only one attempt may be made per supply unit per Reaction Phase", "12.2.5")
    if not is_combat(c) or not eligible(c) or c.id in frame.data.get("moved", {}):
        raise IllegalAction(f"{counter_of(c).name} is not a combat unit eligible to react (13.5) with its RMA unspent",
                            "12.2.5")
    _stacked(eng, s, c, "12.2.5")
    frame.data.setdefault("destroy_tried", []).append(s.id)
    frame.data.setdefault("moved", {})[c.id] = 0                     # its entire RMA is expended
    die = eng.roll(1, f"Destruction of the {supply_kind(s)} in {s.loc} (12.2.5)")[0]
    if die <= 3:
        remove_supply_unit(eng, s.id, "destroyed in the Reaction Phase (12.2.5)")
        eng.say(f"{die}: the {supply_kind(s)} in {c.loc} is destroyed; {counter_of(c).name} expends its RMA (12.2.5)")
    else:
        eng.say(f"{die}: the {supply_kind(s)} in {c.loc} remains in place; {counter_of(c).name} expends its RMA (12.2.5)")
