"""20.0 Naval operations and shipping: port boxes (20.1), ocean shipping (20.2, Phases IV.3/IV.4 and the
friendly Movement Phases), escort DRMs (19.9.1), amphibious landing limits (20.5).

Ocean shipping runs in three stages, as 20.1 and 20.2 say:

1. *Allocation* (4.1 IV.3 / IV.4): the owner puts units waiting in an embarkation box (Axis: Italy / Sicily,
   7.2, 22.6; Allied: Cape Route 20.2.4, the Allied Mediterranean boxes with ALC-11 20.2.3, the Torch boxes
   20.2.5 / 20.2.6) on the lane toward a port (``ship`` {unit, to}).  The unit waits at sea in
   ``box:AtSea:<lane>`` (lanes ``Italy``, ``Sicily``, ``AlliedMed``, ``Cape``, ``Torch``) with
   ``flags["at_sea"] = {"gt", "lane", "to"}``; the lane strikes of IV.6-IV.9 hit it there
   (``strikes.record_cargo``).  A port is offered when the cargo is of a kind its boxes carry in and the
   cargo already bound for it this GT leaves room in its two impulses (R-NAV-ALLOC); the Torch boxes land
   at most the port boxes of their area each GT (ALC-21 f).
2. *Placement* (``port_placement``, before step 1 of every Movement Phase, VI.1 / IX.1 / XII.1 / XV.1): "units
   arriving ... are placed in the port boxes at the beginning of any friendly Movement Phase".  One decision
   per unit of the phasing player at sea this GT: the port boxes of a port its lane serves that still have
   room this impulse, or *stay at sea* (in the owner's last Movement Phase of the GT: it returns to its
   origin at the end of the GT, 20.2).  The unit goes to ``box:PortBoxes:<hex>`` (the NRV: ``box:PortBoxes:NRV``)
   with ``flags["port_box"] = {"how": "ocean" | "landing", "from": origin, "tag": "<gt>.<phase>"}`` ("landing":
   the port is enemy or neutral, an opposed landing, 20.5).
3. *Landing* (``port_landing``, before step 3 of the Movement Phase, after the enemy's port strikes of step 2):
   the phasing player's units in port boxes land in the port hex (the NRV Box) unless enemy units hold the
   port (20.5: they attack from the boxes in the Combat Phase).  A landing unit is in GenS for the GT of
   landing (``flags["landed_gt"]``, honoured by ``supply.gens_status``); combat units and MSU have spent half
   their printed MA (``flags["landed"]``, ``movement.seed_landed``); refit points and dumps stay in the port
   hex this Movement Phase (``flags["landed_stop"]``).

Port boxes (20.1): a box carries 2 combat steps of any kind, or 2 RP, or 1 MSU or dump (WE-13; a division one box per
step, 15.10); the capacity is per port and per impulse (``vars["port_boxes"]``, reset each Movement Phase) and is
used by cargo entering and leaving alike.  Standard boxes carry everything; limited boxes carry non-motorised
units in or out and dumps in only; a motorised unit may leave by a limited box but is then placed in its Refit
Box (``transport.coastal_ship`` to ``box:Refit:<side>``).  The impulse's cargo of a port is packed as a whole (``pack``).
The NRV has eight standard boxes, four with MET Levant in crisis (22.1, ALC-5).

Coastal shipping (20.3, ``transport.coastal_ship`` and ``coastal.check_and_record``) uses the boxes of both
ports in the impulse of shipping and leaves its units in the receiving port boxes (``how`` "coastal"); they land
in the next friendly Movement Phase, or return / are destroyed (R-COASTAL-LAND); Allied coastal shipping also enters
and leaves the NRV (22.1, ``box:PortBoxes:NRV``).  At the end of the GT (XX.1)
ocean cargo still at sea or in port boxes returns to its origin (20.2; 20.5: to its Torch box).
"""

from __future__ import annotations

from core.counters import all_counters
from core.decisions import ALLIED, AXIS, Action, Decision, IllegalAction, Option, done_step, item_decision
from core.engine import QUERIES, Engine, OneByOne, Procedure, auto_step, before_step, on_step, procedure
from core.hexgrid import Hex, HexLabelError
from core.state import Frame, UnitState
from core.rules import offmap

EMBARK = {AXIS: (offmap.ITALY, offmap.SICILY), ALLIED: (offmap.CAPE, offmap.TORCH, offmap.TORCH_EAST,
                                                          offmap.available(ALLIED))}
PORT_BOXES = "box:PortBoxes:"      # units in the port boxes of a port (20.1; 20.5 opposed landings, combat_forms)
AT_SEA = "box:AtSea:"              # ocean cargo on its lane this GT (20.2), ``box:AtSea:<lane>``
NRV_PORT = "NRV"                   # box:PortBoxes:NRV are the NRV's port boxes (22.1)
PLACE_STEPS = ("VI.1", "IX.1", "XII.1", "XV.1")    # 20.1: placed at the beginning of a friendly Movement Phase
LAND_STEPS = ("VI.3", "IX.3", "XII.3", "XV.3")     # 20.1: landed after the port strikes (step 2)


def box_loc(port: str) -> str:
    """The loc of units in the port boxes of ``port`` (a hex label or the NRV Box)."""
    return PORT_BOXES + (NRV_PORT if port == offmap.NRV else port)


def port_of(loc: str) -> str:
    """The port (hex label or ``box:NRV``) whose port boxes ``loc`` is."""
    p = loc[len(PORT_BOXES):] if loc.startswith(PORT_BOXES) else loc
    return offmap.NRV if p == NRV_PORT else p


def phase_tag(eng: Engine) -> str:
    return f"{eng.state.gt}.{eng.state.phase}"


def boxes_needed(uid: str, steps: int) -> int:
    """20.1 / WE-13: 2 combat steps, or 2 RP, or 1 MSU or dump per port box (rounded up); SF none (15.4)."""
    c = all_counters()[offmap.base_id(uid)]
    if c.sf:
        return 0   # 15.4 Sealift: SF "do not count against port or sealift capacity"
    if c.kind == "supply" and c.unit_type in ("msu", "dump"):
        return 1
    if offmap.base_id(uid).endswith("-RP"):
        return 1   # one RP is half a box; two RP share one (rounded up per shipment, R-NAV-RP)
    if c.divisional:
        return steps   # 15.10: a division uses one shipping box per step
    return (steps + 1) // 2


def friendly_ports(eng: Engine, side: str) -> dict[str, int]:
    """Ports on the map controlled by ``side`` with their standard port boxes (20.1): on the hexes in play (the
    scenario's Maps in Play, R-MAPS-IN-PLAY; Algeria and Tunisia only once Operation Torch is executed, 22.7,
    R-FNA-HEXES: ``offmap.map_refusal``)."""
    from core.rules import tec, victory_rules
    out = {}
    for h, cap in tec.current_map().ports.items():
        if offmap.map_refusal(eng.state, h.label):
            continue
        if victory_rules.controller(eng, h.label) == side:
            out[h.label] = int(cap)
    if side == ALLIED:
        out[offmap.NRV] = offmap.nrv_port_capacity(eng)   # 22.1
    return out


def shipping_blocked(eng: Engine, side: str, box: str) -> str | None:
    bl = eng.state.vars.get("malta_invasion_blackout")
    if side == AXIS and box == offmap.ITALY and bl and eng.state.gt in bl:
        return "No Shipping from Italy while the Malta invasion is declared (23.2 AXC-16 e)"
    if eng.state.scenario in ("fox-killed", "oconnors-war", "sonnenblume", "trail-of-the-fox"):
        return "Ocean shipping is handled by the scenario's arrival rules (24.0 a), 26.0 a))"
    return None


def med_shipping(eng: Engine) -> bool:
    """20.2.3: the Allied Mediterranean Shipping Boxes are available on GTs when ALC-11 is played."""
    return eng.state.cards.get("ALC-11", {}).get("last_play_gt") == eng.state.gt


def torch_open(eng: Engine) -> bool:
    """ALC-21 d), 22.7: the Torch boxes land units once ALC-23 (Torch Invasion) is played."""
    return offmap.fna_in_play(eng)


def is_cargo(uid: str) -> bool:
    """20.1: what ocean shipping carries: "Two combat unit steps; or, Two refit steps; or, One MSU or Dump" (R-NAV-RP:
    refit points are cargo, 17.1 "RP may be transported by air, sea, rail, and/or MSU")."""
    c = all_counters().get(offmap.base_id(uid))
    return bool(c) and (c.kind in ("combat", "supply") or c.unit_type == "refit point")


def waiting_cargo(eng: Engine, side: str) -> list[str]:
    """IV.3 / IV.4: ``side``'s units waiting in an embarkation box for ocean shipping (20.2): combat units, MSU,
    dumps and refit points (:func:`is_cargo`, R-NAV-RP)."""
    out = []
    for u in sorted(eng.state.units.values(), key=lambda x: x.id):
        if u.side != side or u.loc not in EMBARK[side] or shipping_blocked(eng, side, u.loc):
            continue
        if not is_cargo(u.id):
            continue
        if u.loc == offmap.available(ALLIED) and not med_shipping(eng):
            continue     # held reinforcements ship only by the Mediterranean boxes (20.2.3)
        if u.loc in (offmap.TORCH, offmap.TORCH_EAST) and not torch_open(eng):
            continue     # ALC-21 h): the units remain in the box until the invasion
        out.append(u.id)
    return out


def lane_of(origin: str, dest: str) -> str:
    """The ocean lane a shipment uses (20.2.1-20.2.6), for the strikes of 4.1 IV.6-IV.9."""
    if origin == offmap.ITALY:
        return "Italy"
    if origin == offmap.SICILY:
        return "Sicily"
    if origin in (offmap.TORCH, offmap.TORCH_EAST):
        return "Torch"
    if origin == offmap.CAPE and dest == offmap.NRV:
        return "Cape"
    return "AlliedMed"


def _is_hex(label: str) -> bool:
    """Whether ``label`` names a hex (not a box such as the NRV Box)."""
    try:
        Hex.parse(label)
    except HexLabelError:
        return False
    return True


def _port_cap(label: str) -> int:
    from core.rules import tec
    try:
        h = Hex.parse(label)
    except HexLabelError:       # a box, not a hex: no port of the map
        return 0
    return int(tec.current_map().ports.get(h, 0))


# --------------------------------------------------------------------------- 20.1 port boxes


def port_boxes(eng: Engine, port: str) -> tuple[int, int]:
    """20.1: the (standard, limited) port boxes of ``port`` (a hex label or the NRV Box, 22.1: standard only).
    The map's split (``core.mapdata``) is used when it matches the port's boxes in play; a test map's port
    has standard boxes only."""
    if port in (offmap.NRV, NRV_PORT):
        return offmap.nrv_port_capacity(eng), 0
    if port in offmap.fna_box_ports():
        return offmap.fna_box_ports()[port], 0   # 22.7: Casablanca and Oran, three standard boxes
    return map_port_boxes(port)


def map_port_boxes(port: str) -> tuple[int, int]:
    """20.1: the (standard, limited) boxes of the port in hex ``port`` (0, 0 if none).  The map's split
    (``core.mapdata``) is used when it matches the port's boxes in play; a test map's port has standard boxes only."""
    total = _port_cap(port)
    from core import mapdata
    md = mapdata.load()
    p = md.port(port) if _is_hex(port) and md.has(port) else None     # a test map's port: not on the printed maps
    if p is not None and p.standard + p.limited == total:
        return p.standard, p.limited
    return total, 0


def port_capacity(port: str) -> int:
    """R-PORT-CAPACITY: a port's capacity is its number of standard boxes, the count 12.2.4 ("a capacity of three or
    more"), 26.3 ("the standard port capacity"), 28.3 / 31.3 ("a capacity of three standard boxes or more") and
    32.3 / 33.3 ("a capacity of three or more") read; 22.1 and 22.7 state capacities in standard boxes ("NRV port
    capacity is eight standard boxes", "a port capacity of three standard boxes").  Limited boxes (20.1: they
    "can carry" only some cargo) do not count."""
    return map_port_boxes(port)[0]


def cargo_kind(u: UnitState) -> str:
    """``dump``, ``msu``, ``rp``, ``motorised`` (combat) or ``foot`` (combat) for the box rules of 20.1."""
    c = all_counters()[offmap.base_id(u.id)]
    if c.unit_type == "refit point":
        return "rp"
    if c.kind == "supply":
        return "dump" if c.unit_type == "dump" else "msu"
    return "motorised" if c.motorized else "foot"


def standard_only(u: UnitState, direction: str) -> bool:
    """20.1: limited boxes carry non-motorised units in or out and dumps in only (``direction`` "in"/"out")."""
    k = cargo_kind(u)
    return not (k == "foot" or (k == "dump" and direction == "in"))


def cargo_boxes(units: list[UnitState]) -> int:
    """20.1: the boxes a shipment fills (2 combat steps / 2 RP per box, rounded up; one per MSU or dump;
    a division one box per step, 15.10)."""
    steps = rp = single = 0
    for u in units:
        k, n, _ = _cargo_item(u, "in")
        if k == "step":
            steps += n
        elif k == "rp":
            rp += n
        else:
            single += 1
    return (steps + 1) // 2 + (rp + 1) // 2 + single


def _cargo_item(u: UnitState, direction: str, boxes: str = "") -> tuple[str, int, str]:
    """One unit as port-box cargo (20.1): (``step`` / ``rp`` / ``single``, how many, which boxes may carry it:
    ``std`` standard only, ``any`` standard or limited, ``lim`` limited only).  Combat steps of any kind share
    a box, two to a box (20.1 a); a division fills one box per step (15.10), i.e. counts two steps per step."""
    k = cargo_kind(u)
    c = all_counters()[offmap.base_id(u.id)]
    where = boxes or ("std" if standard_only(u, direction) else "any")
    if c.sf:
        return "step", 0, where      # 15.4 Sealift: SF "do not count against port or sealift capacity"
    if k == "rp":
        return "rp", int(u.steps), where
    if k in ("motorised", "foot"):
        return "step", int(u.steps) * (2 if c.divisional else 1), where
    return "single", 1, where


def pack(cargo: list[list], std_cap: int, lim_cap: int) -> tuple[int, int] | None:
    """20.1: the fewest (standard, limited) boxes that carry ``cargo`` (items ``[direction, kind, n, boxes]`` of
    :func:`_cargo_item`) within the capacities, fewest boxes first, then fewest standard boxes; None if it does
    not fit.  Two combat steps share a box whatever their kind (one motorised and one foot step: one standard
    box); cargo entering and leaving sails in different boxes (R-NAV-BOXSHARE); RP fill boxes of their own."""
    steps: dict[tuple[str, str], int] = {}
    rp: dict[str, int] = {}
    single = {"std": 0, "any": 0, "lim": 0}
    for d, k, n, where in cargo:
        if k == "step":
            steps[(d, where)] = steps.get((d, where), 0) + int(n)
        elif k == "rp":
            rp[d] = rp.get(d, 0) + int(n)
        else:
            single[where] += int(n)
    dirs = sorted({d for d, _ in steps})
    std_fixed = sum((n + 1) // 2 for n in rp.values()) + single["std"]
    lim_fixed = single["lim"]
    best: tuple[int, int] | None = None
    import itertools
    ranges = [range(steps.get((d, "any"), 0) + 1) for d in dirs]
    for split in itertools.product(*ranges):           # any-steps of each direction carried by limited boxes
        std = std_fixed
        lim = lim_fixed
        for d, x in zip(dirs, split):
            std += (steps.get((d, "std"), 0) + steps.get((d, "any"), 0) - x + 1) // 2
            lim += (steps.get((d, "lim"), 0) + x + 1) // 2
        for y in range(single["any"] + 1):              # dumps carried in by limited boxes
            s, li = std + single["any"] - y, lim + y
            if s <= std_cap and li <= lim_cap and (best is None or (s + li, s) < (sum(best), best[0])):
                best = (s, li)
    return best


def _ledger(eng: Engine) -> dict:
    rec = eng.state.vars.get("port_boxes") or {}
    return rec if rec.get("tag") == phase_tag(eng) else {"tag": phase_tag(eng), "cargo": {}}


def _cargo(eng: Engine, port: str) -> list[list]:
    return list(_ledger(eng)["cargo"].get(offmap.NRV if port == NRV_PORT else port, []))


def boxes_used(eng: Engine, port: str) -> tuple[int, int]:
    """The (standard, limited) boxes of ``port`` used this impulse (20.1: entering and leaving alike)."""
    return pack(_cargo(eng, port), 10 ** 6, 10 ** 6) or (0, 0)


def used_boxes(eng: Engine, port: str) -> int:
    return sum(boxes_used(eng, port))


def boxes_left(eng: Engine, port: str) -> tuple[int, int]:
    std, lim = port_boxes(eng, port)
    us, ul = boxes_used(eng, port)
    return std - us, lim - ul


def plan_boxes(eng: Engine, port: str, units: list[UnitState], direction: str, boxes: str = "") -> tuple[int, int] | str:
    """20.1: the (standard, limited) boxes of ``port`` in use this impulse once ``units`` go ``direction``
    ("in" / "out") with the cargo already placed (``boxes`` "lim": limited boxes only, 20.1 c); or why they do
    not fit."""
    std, lim = port_boxes(eng, port)
    new = [[direction, *_cargo_item(u, direction, boxes)] for u in units]
    got = pack(_cargo(eng, port) + new, std, lim)
    if got is not None:
        return got
    name = "the NRV" if port in (offmap.NRV, NRV_PORT) else port
    us, ul = boxes_used(eng, port)
    if boxes == "lim":
        return f"leaving {name} by limited port boxes needs more than the {max(lim - ul, 0)} left this impulse"
    alone = pack(new, 10 ** 6, 10 ** 6) or (0, 0)
    return (f"{alone[0]} standard port box(es) and {alone[1]} other needed at {name}, {max(std - us, 0)} standard "
            f"and {max(lim - ul, 0)} limited left this impulse (limited boxes carry non-motorised units in or out "
            f"and dumps in only)")


def use_boxes(eng: Engine, port: str, units: list[UnitState], direction: str, boxes: str = "") -> None:
    """Record ``units`` as cargo of ``port``'s boxes this impulse (after :func:`check_boxes`)."""
    rec = _ledger(eng)
    key = offmap.NRV if port == NRV_PORT else port
    rec["cargo"].setdefault(key, []).extend([direction, *_cargo_item(u, direction, boxes)] for u in units)
    eng.state.vars["port_boxes"] = rec


def check_boxes(eng: Engine, port: str, units: list[UnitState], direction: str, rule: str = "20.1",
                boxes: str = "") -> tuple[int, int]:
    got = plan_boxes(eng, port, units, direction, boxes)
    if isinstance(got, str):
        raise IllegalAction(got, rule)
    return got


# --------------------------------------------------------------------------- 20.2 destinations


def landing_ports(eng: Engine, uid: str, origin: str | None = None) -> dict[str, int]:
    """20.2.5 / 20.2.6 / 20.5: destinations of a unit from the Torch or Torch East Box (``origin``, default its
    loc): friendly ports land on the hex; enemy or neutral ports take combat units with a real CF into their
    port boxes (``box:PortBoxes:<hex>``) for an opposed landing in the Combat Phase (combat_forms)."""
    from core.rules import tec, victory_rules
    from core.rules.combat_forms import landing_area
    u = eng.state.units[uid]
    origin = origin or u.loc
    c = all_counters()[offmap.base_id(uid)]
    real_cf = c.kind == "combat" and bool(c.cf) and not c.cf_paren
    out: dict[str, int] = {}
    for h, cap in tec.current_map().ports.items():
        lab = h.label
        if not landing_area(origin, lab):
            continue
        if victory_rules.controller(eng, lab) == ALLIED and not enemy_in_port(eng, ALLIED, lab):
            out[lab] = int(cap)
        elif real_cf:
            out[PORT_BOXES + lab] = int(cap)
    return out


def destinations(eng: Engine, uid: str, origin: str | None = None, lane: str | None = None,
                 memo: dict | None = None) -> dict[str, int]:
    """Where ``uid`` may be shipped from its embarkation box ``origin`` (default its loc), with each port's
    boxes (20.1, 20.2); ``lane``: only the ports that lane serves (the lane chosen at allocation).  ``memo``:
    shared by the calls of one unchanged state (each side's friendly ports are found once)."""
    u = eng.state.units[uid]
    origin = origin or u.loc

    def ports_of(side: str) -> dict[str, int]:
        if memo is None:
            return friendly_ports(eng, side)
        if side not in memo:
            memo[side] = friendly_ports(eng, side)
        return dict(memo[side])

    if u.side == AXIS:
        ports = ports_of(AXIS)
        ports.pop(offmap.NRV, None)
        if origin == offmap.SICILY:
            return {p: c for p, c in ports.items() if p.startswith("T")}        # 20.2.2: Map T
        return ports        # 20.2.1: "to any Axis controlled ports in North Africa" (every map, Map T included)
    if origin in (offmap.TORCH, offmap.TORCH_EAST):
        return landing_ports(eng, uid, origin) | offmap.fna_landings(eng, origin)   # 22.7 FNA box ports
    ports = ports_of(ALLIED)
    if lane == "Cape" or (lane is None and origin == offmap.CAPE and not med_shipping(eng)):
        return {offmap.NRV: ports[offmap.NRV]}                                  # 20.2.4
    return ports                                                                # 20.2.3 (and Cape -> NRV)


def _dest_port(dest: str) -> str:
    return dest[len(PORT_BOXES):] if dest.startswith(PORT_BOXES) else dest


def landing_capacity_left(eng: Engine, box: str) -> int:
    """ALC-21 f), 20.2.5/20.2.6: units landed from a Torch box this GT may not exceed the port boxes of all the
    ports of its area."""
    from core.rules import tec
    from core.rules.combat_forms import landing_area
    total = sum(int(cap) for h, cap in tec.current_map().ports.items() if landing_area(box, h.label))
    total += sum(offmap.fna_landings(eng, box).values())   # 22.7: Casablanca and Oran
    used = int(eng.state.vars.get("torch_landed", {}).get(str(eng.state.gt), {}).get(box, 0))
    return total - used


def allocated(eng: Engine, port: str) -> int:
    """The boxes of ocean cargo bound for ``port`` this GT (allocated in IV.3 / IV.4)."""
    return int(eng.state.vars.get("ocean_alloc", {}).get(str(eng.state.gt), {}).get(port, 0))


def legal_ports(eng: Engine, uid: str, memo: dict | None = None) -> list[str]:
    """IV.3 / IV.4: the ports ``uid`` may be put on the lane toward: the port's boxes carry its kind in, and the
    cargo bound there this GT fits in the port's boxes of the GT's two impulses (R-NAV-ALLOC).  ``memo``: see
    :func:`destinations`."""
    u = eng.state.units[uid]
    need = boxes_needed(uid, u.steps)
    if u.loc in (offmap.TORCH, offmap.TORCH_EAST) and landing_capacity_left(eng, u.loc) < need:
        return []
    out = []
    for p in sorted(destinations(eng, uid, memo=memo)):
        port = _dest_port(p)
        std, lim = port_boxes(eng, port)
        cap = std if standard_only(u, "in") else std + lim
        if u.side == ALLIED and p == offmap.NRV and u.loc == offmap.NRV:
            continue
        if need <= cap and allocated(eng, port) + need <= 2 * cap:
            out.append(p)
    return out


@procedure("ocean_shipping")
class OceanShipping(OneByOne):
    """4.1 IV.3 (non-initiative player) / IV.4 (initiative player): put ocean cargo on its lane (20.2)."""

    first, stay, move_kind = "IV.3", "ship_stay", "ship"
    eligible = staticmethod(waiting_cargo)

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        side = self.side(eng, frame)
        if frame.data.get("done"):
            return None
        seen = frame.data.setdefault("seen", [])
        todo = [u for u in waiting_cargo(eng, side) if u not in seen]
        memo: dict = {}             # one state: each side's friendly ports found once (issue 18)
        todo = [u for u in todo if legal_ports(eng, u, memo)]
        if not todo:
            return done_step(side, "Allocate ocean shipping: nothing (more) to ship", f"4.1 {frame.data['step']}; 20.2")
        uid = todo[0]
        return item_decision(
            side, "ocean_shipping", f"Ship {uid} ({len(todo)} waiting)", f"4.1 {frame.data['step']}; 20.1; 20.2",
            Option(action=Action(kind="ship_stay", side=side, args={"unit": uid}), label=f"{uid}: stay"),
            [Option(action=Action(kind="ship", side=side, args={"unit": uid, "to": p}),
                    label=f"Ship {uid} toward {place_name(p)} (lane {lane_of(eng.state.units[uid].loc, _dest_port(p))})")
             for p in legal_ports(eng, uid, memo)])

    def refusal(self, uid: str, side: str) -> IllegalAction:
        return IllegalAction(f"{uid} is not {side} cargo waiting in an embarkation box", "20.2")

    def move(self, eng: Engine, frame: Frame, side: str, uid: str, action: Action) -> None:
        to = str(action.args.get("to", ""))
        if to not in legal_ports(eng, uid):
            raise IllegalAction(f"{to} has no room for {uid} this GT (port boxes, 20.1)", "20.1")
        u = eng.state.units[uid]
        port = _dest_port(to)
        need = boxes_needed(uid, u.steps)
        al = eng.state.vars.get("ocean_alloc", {}).get(str(eng.state.gt), {})
        al = dict(al) | {port: allocated(eng, port) + need}
        eng.state.vars["ocean_alloc"] = {str(eng.state.gt): al}
        if u.loc in (offmap.TORCH, offmap.TORCH_EAST):
            tl = eng.state.vars.setdefault("torch_landed", {})
            g = tl.setdefault(str(eng.state.gt), {})
            g[u.loc] = int(g.get(u.loc, 0)) + need
            eng.state.vars["torch_landed"] = {str(eng.state.gt): g}
        from core.rules import strikes
        lane = lane_of(u.loc, port)
        strikes.record_cargo(eng, lane, uid)
        u.flags = dict(u.flags) | {"shipped_from": u.loc, "shipped_gt": eng.state.gt,
                                   "at_sea": {"gt": eng.state.gt, "lane": lane, "to": to}}
        u.loc = AT_SEA + lane
        frame.data["seen"].append(uid)
        eng.say(f"{side} ships {uid} on the {lane} lane toward {place_name(to)} (20.2)")


on_step("IV.3", "ocean_shipping")
on_step("IV.4", "ocean_shipping")


def place_name(dest: str) -> str:
    """``Tobruk (C2331)``, ``the port boxes of Algiers (A6201)`` (20.5), ``the NRV``."""
    from core.rules import tec
    from core.hexgrid import Hex
    port = port_of(dest) if dest.startswith(PORT_BOXES) else dest
    if port == offmap.NRV:
        name = "the NRV"
    else:
        n = tec.current_map().names.get(Hex.parse(port)) if _is_hex(port) else None
        name = f"{n} ({port})" if n else port
    return f"the port boxes of {name}" if dest.startswith(PORT_BOXES) else name


# --------------------------------------------------------------------------- placement (20.1, 20.2)


def at_sea(eng: Engine, side: str) -> list[str]:
    """``side``'s ocean cargo on its lane this GT, waiting to be placed in port boxes (20.2)."""
    return [u.id for u in sorted(eng.state.units.values(), key=lambda x: x.id)
            if u.side == side and u.loc.startswith(AT_SEA)
            and (u.flags.get("at_sea") or {}).get("gt") == eng.state.gt]


def placements(eng: Engine, uid: str) -> list[str]:
    """The port boxes ``uid`` (at sea) may be placed in now: ports its lane serves (R-NAV-PLACE) with room this
    impulse (20.1); ``box:PortBoxes:<hex>`` of an enemy or neutral port is an opposed landing (20.5)."""
    u = eng.state.units[uid]
    sea = u.flags.get("at_sea") or {}
    origin = str(u.flags.get("shipped_from") or "")
    out = []
    for p in sorted(destinations(eng, uid, origin=origin, lane=sea.get("lane"))):
        port = _dest_port(p)
        if isinstance(plan_boxes(eng, port, [u], "in"), tuple):
            out.append(box_loc(port))
    return sorted(set(out), key=lambda d: (d != box_loc(_dest_port(str(sea.get("to", "")))), d))


def last_friendly_movement(eng: Engine) -> bool:
    """The phasing player's last Movement Phase of the GT (phase XII for the 1st player, XV for the 2nd)."""
    return eng.state.phase + 6 > 15


def is_enemy_port(eng: Engine, side: str, port: str) -> bool:
    """An enemy or neutral port (20.5): not controlled by ``side`` or holding enemy units."""
    if port == offmap.NRV:
        return side != ALLIED
    from core.rules import victory_rules
    return victory_rules.controller(eng, port) != side or enemy_in_port(eng, side, port)


def enemy_in_port(eng: Engine, side: str, port: str) -> bool:
    """Enemy combat or supply units hold ``port`` (20.5: the cargo waits in the port boxes and fights); neutral
    Vichy French units are enemies of the Allies here too (``fna.hostile``, 22.7, R-VICHY-NEUTRAL), except in the
    Casablanca and Oran boxes, where the landed units fight the VF inside the box (22.7, R-FNA-BOX-COMBAT)."""
    from core.rules import fna

    enemy = (lambda v: v.side != side) if offmap.is_fna_box(port) else (lambda v: fna.hostile(v, side))
    return any(enemy(v) and v.loc == port and (c := all_counters().get(offmap.base_id(v.id)))
               and c.kind in ("combat", "supply") for v in eng.state.units.values())


@procedure("port_placement")
class PortPlacement(Procedure):
    """20.1 / 20.2: at the beginning of a friendly Movement Phase the phasing player places his ocean cargo at
    sea into port boxes, one decision per unit (a port's boxes, or stay at sea)."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        side = eng.phasing_side()
        if side is None or frame.data.get("done"):
            return None
        seen = frame.data.setdefault("seen", [])
        todo = [u for u in at_sea(eng, side) if u not in seen]
        if not todo:
            return None
        uid = todo[0]
        u = eng.state.units[uid]
        back = offmap_name(str(u.flags.get("shipped_from") or ""))
        stay = (f"{uid}: stay at sea (not placed this GT: returns to {back} at the end of the GT, 20.2)"
                if last_friendly_movement(eng) else f"{uid}: stay at sea until the next friendly Movement Phase")
        opts = [Option(action=Action(kind="port_stay", side=side, args={"unit": uid}), label=stay)]
        opts += [Option(action=Action(kind="port_place", side=side, args={"unit": uid, "to": p}),
                        label=f"Place {uid} in {place_name(p)}" + (" — opposed landing (20.5)"
                                                                    if is_enemy_port(eng, side, port_of(p)) else ""))
                 for p in placements(eng, uid)]
        if len(todo) > 1:
            opts.append(Option(action=Action(kind="done", side=side),
                               label=f"Done: the {len(todo)} units left stay at sea this Movement Phase"))
        return Decision(side=side, kind="port_placement",
                        prompt=f"Place ocean cargo in port boxes: {uid} ({len(todo)} at sea)",
                        rule=f"4.1 {eng.step.key}; 20.1; 20.2", options=tuple(opts),
                        context={"unit": uid, "lane": (u.flags.get("at_sea") or {}).get("lane"),
                                 "intended": (u.flags.get("at_sea") or {}).get("to")})

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        side = eng.phasing_side()
        if action.kind == "done":
            frame.data["done"] = True
            return
        uid = str(action.args.get("unit", ""))
        if action.kind not in ("port_stay", "port_place"):
            return super().apply(eng, frame, action)
        if side is None or uid not in at_sea(eng, side):
            raise IllegalAction(f"{uid} is not {side} cargo at sea this GT", "20.2")
        if action.kind == "port_stay":
            frame.data.setdefault("seen", []).append(uid)
            return
        to = str(action.args.get("to", ""))
        if not to.startswith(PORT_BOXES):
            to = box_loc(to)
        u = eng.state.units[uid]
        if to not in placements(eng, uid):
            port = port_of(to)
            sea = u.flags.get("at_sea") or {}
            served = {box_loc(_dest_port(p)) for p in destinations(eng, uid, origin=str(u.flags.get("shipped_from") or ""),
                                                                   lane=sea.get("lane"))}
            got = plan_boxes(eng, port, [u], "in")
            why = (f"the {sea.get('lane')} lane does not serve {place_name(port)}" if to not in served
                   else got if isinstance(got, str) else "no room")
            raise IllegalAction(f"{uid} cannot be placed in the port boxes of {port}: {why}", "20.1; 20.2")
        port = port_of(to)
        check_boxes(eng, port, [u], "in")
        use_boxes(eng, port, [u], "in")
        how = "landing" if is_enemy_port(eng, side, port) else "ocean"
        origin = str(u.flags.get("shipped_from") or "")
        u.flags = {k: v for k, v in u.flags.items() if k != "at_sea"} | {
            "port_box": {"how": how, "from": origin, "tag": phase_tag(eng)}}
        u.loc = to
        frame.data.setdefault("seen", []).append(uid)
        eng.say(f"{side} places {uid} in {place_name(to)} (20.1{'; 20.5' if how == 'landing' else ''})")


def offmap_name(loc: str) -> str:
    return {offmap.ITALY: "Italy", offmap.SICILY: "Sicily", offmap.CAPE: "the Cape Route Box",
            offmap.TORCH: "the Torch Box", offmap.TORCH_EAST: "the Torch East Box",
            offmap.available(ALLIED): "the Allied Available Box"}.get(loc, loc or "its origin")


for _k in PLACE_STEPS:
    before_step(_k, "port_placement")


def escort_drm(fleets: int) -> int:
    """19.9.1: -1 for each Allied fleet unit providing escort (Part D 21: printed '- 1')."""
    return -fleets


def amphibious_limit(eng: Engine, hex_label: str) -> int:
    """20.5: the steps landing may not exceed the hex's stacking limit (9 city / 6 other, 10.2)."""
    from core.rules import tec
    from core.hexgrid import Hex
    return 9 if tec.current_map().is_city(Hex.parse(hex_label)) else 6


# --------------------------------------------------------------------------- landing (20.1, 20.3, 20.5)


def friendly_open(eng: Engine, side: str, port: str) -> bool:
    """A port ``side`` may land in or return to: the NRV for the Allies (22.1), else a ``side``-controlled port
    (12.4.2) free of enemy units."""
    if port == offmap.NRV:
        return side == ALLIED
    from core.hexgrid import Hex, HexLabelError
    from core.rules import supply
    try:
        h = Hex.parse(port)
    except HexLabelError:
        return False
    return supply.port_controlled(eng.state, side, h) and not enemy_in_port(eng, side, port)


def land(eng: Engine, u: UnitState, port: str, why: str) -> None:
    """20.1: ``u`` lands in ``port``: in GenS for the GT (``landed_gt``), half its printed MA spent this Movement
    Phase (``landed``, ``movement.seed_landed``); refit points and dumps move no further (``landed_stop``)."""
    stop = cargo_kind(u) in ("rp", "dump")
    flags = {k: v for k, v in u.flags.items() if k not in ("port_box", "at_sea", "landed_stop")}
    flags |= {"landed": phase_tag(eng), "landed_gt": eng.state.gt} | ({"landed_stop": True} if stop else {})
    u.flags = flags
    u.loc = port
    u.ogs = False
    u.isolated = False
    u.reserve = False
    eng.say(f"{u.id} lands from the port boxes at {place_name(port)} "
            f"({why}; {'may not move further this phase' if stop else 'half its MA spent'})")


def land_from_port_boxes(eng: Engine) -> None:
    """20.1 / 20.5 / R-COASTAL-LAND: after the port strikes the phasing player's units in port boxes land:
    ocean cargo at once unless enemy units hold the port (20.5: they attack from the boxes in the Combat Phase);
    coastal cargo in the friendly Movement Phase after the one it shipped in, or, when the receiving port is no
    longer a friendly one free of enemy units, back to its port of origin if that still is, else destroyed."""
    side = eng.phasing_side()
    if side is None:
        return
    tag = phase_tag(eng)
    for u in sorted(eng.state.units.values(), key=lambda x: x.id):
        if u.side != side or not u.loc.startswith(PORT_BOXES):
            continue
        port = port_of(u.loc)
        pb = u.flags.get("port_box") or {}
        if pb.get("how") == "coastal":
            if pb.get("tag") == tag:
                continue                       # shipped this phase: lands in the next friendly Movement Phase
            if friendly_open(eng, side, port):
                land(eng, u, port, "20.3")
                continue
            origin = str(pb.get("from") or "")
            if origin and friendly_open(eng, side, origin):
                u.flags = {k: v for k, v in u.flags.items() if k != "port_box"}
                u.loc = origin
                eng.say(f"{u.id} cannot land at {place_name(port)} and returns to its port of origin "
                        f"{place_name(origin)} (20.3; R-COASTAL-LAND)")
            else:
                u.flags = {k: v for k, v in u.flags.items() if k != "port_box"}
                offmap.destroy_unit(eng, u.id, "20.3: not landed and its port of origin is lost (R-COASTAL-LAND)")
            continue
        if port != offmap.NRV and enemy_in_port(eng, side, port):
            continue                           # 20.5: an opposed landing from the boxes in the Combat Phase
        land(eng, u, port, "20.5" if pb.get("how") == "landing" or not pb else "20.1")


@procedure("port_landing")
class PortLanding(Procedure):
    """4.1 VI.3 (before the moves): the landing of 20.1, after the port strikes of step 2 (bookkeeping)."""

    def enter(self, eng: Engine, frame: Frame) -> None:
        land_from_port_boxes(eng)

    def decide(self, eng: Engine, frame: Frame) -> None:
        return None


for _k in LAND_STEPS:
    before_step(_k, "port_landing")


@auto_step("XX.1")
def unlanded_return(eng: Engine) -> None:
    """20.2: ocean cargo not landed in the GT it was shipped (at sea, or in port boxes) returns to its point of
    origin (20.5: to the Torch box it came from).  Coastal cargo stays in its receiving port boxes and lands in
    the next friendly Movement Phase (20.1; R-COASTAL-LAND)."""
    for u in sorted(eng.state.units.values(), key=lambda x: x.id):
        pb = u.flags.get("port_box") or {}
        if u.loc.startswith(AT_SEA) or (u.loc.startswith(PORT_BOXES) and pb.get("how") != "coastal"):
            back = str(u.flags.get("shipped_from") or pb.get("from") or u.flags.get("landing_from") or offmap.TORCH)
            u.flags = {k: v for k, v in u.flags.items() if k not in ("port_box", "at_sea")}
            u.loc = back
            eng.say(f"{u.id} was not landed and returns to {offmap_name(back)} (20.2; 20.5)")


QUERIES["port_boxes_used"] = lambda eng, port="": used_boxes(eng, port)
QUERIES["port_boxes_left"] = lambda eng, port="": boxes_left(eng, port)
QUERIES["friendly_ports"] = lambda eng, side=AXIS: friendly_ports(eng, side)
