"""13.7 Ground unit transport (rail lift, sealift by coastal shipping, airlift / air landings) and
13.8 non-hex-grid movement (entering from and exiting to off-map boxes, 7.4 withdrawals by exiting).

Truck lift (MSU carrying foot units, RP and dumps) is part of the ``move`` action (``lift``,
``pickup``, ``drop``; :mod:`core.rules.movement`).  The other transports are free kinds of the
movement decision (never of the Reaction Phase, 13.7):

* ``rail`` {units, to}: 3 MP whatever the distance (13.7 Rail Lift), from a hex (or the NRV Box)
  on the active Egyptian railroad, or a controlled hex of the Algeria-Tunisia line, to another
  such hex; combinable with regular movement before and after (a unit that rails may still ``move``
  with the MP it has left);
* ``coastal_ship`` {units, to}: 20.3, from a friendly port to a friendly port on Maps L, S, C, W;
  the unit uses its entire MA (half to embark, half to land) and waits in the receiving port's boxes,
  landing in the next friendly Movement Phase (20.1, ``naval``); ``to`` the side's Refit Box: motorised
  combat units leaving by limited port boxes (20.1 c);
* ``air_land`` {units, from, to}: 13.7 e) air landing with ATP (``vars["atp"][side]``) from Sicily,
  Italy or Crete (Axis) or the NRV or Torch Box (Allied) to a friendly airfield or city hex; the
  units may not move afterwards (13.7 c); from Crete only the GT 27 reinforcements of AXC-13, on GT 28 or
  later with AXC-19 in play, to a friendly airfield, each rolling AXC-19 d) (22.3, R-CRETE-LEAVE);
* ``move`` with ``enter`` (an off-map box) and/or ``exit`` (an off-map box or ``"withdraw"``): 13.8.
"""

from __future__ import annotations

import math
from typing import Any

from core.decisions import ALLIED, AXIS, IllegalAction, other
from core.engine import Engine
from core.hexgrid import Hex, HexLabelError
from core.rules import control, tec, zoc
from core.rules.status import counter_of, hex_of, is_combat, is_rp, movement_allowance, supply_kind
from core.state import Frame, GameState, UnitState

E = tec.EIGHTH
RAIL_COST = 3 * E                                # 13.7 Rail Lift
NRV = "box:NRV"
RAIL_START = "W2232"                             # 22.1 a): the NRV joins the railroad at Alexandria
NRV_ENTRIES = {"W1434": ("track", 14), "W2034": ("road", 14), "W2234": ("road", 14)}   # 22.1 c), d)
NRV_EXIT_COST = 1 * E                            # 22.1 e)
WITHDRAW_EXIT_COST = 1 * E                       # 13.8 "one or more MP" (G-EXIT-COST)
AIRLIFT_FROM = {AXIS: ("box:Sicily", "box:Italy", "box:Crete"), ALLIED: ("box:NRV", "box:Torch")}
COASTAL_MAPS = ("L", "S", "C", "W")              # 20.3.1 / 20.3.2


def _md():
    from core import mapdata

    return mapdata.load()


# =========================================================================== the railroads
def egyptian_line(state: GameState) -> list[str]:
    """18.2: the built Egyptian railroad from Alexandria outward: the printed Alexandria - Mersa Matruh
    line, then the unfinished extension up to the railhead marker (``vars["railhead"]``)."""
    md = _md()
    line = [h.label for h in md.route("egyptian_railroad")]
    ext = [h.label for h in md.route("egyptian_railroad_extension")]
    head = state.vars.get("railhead")
    if head in ext:
        line += [x for x in ext[: ext.index(head) + 1] if x not in line]
    return line


def egyptian_rail_active(state: GameState, gm: tec.GroundMap | None = None) -> list[str]:
    """13.7 a), b): from the NRV outward to the last Allied-controlled hex (completed hexes are
    Allied unless occupied by an Axis unit or in an Axis ZOC), no farther than the railhead."""
    gm = gm or tec.current_map()
    axis = {u.loc for u in state.units.values() if u.side == AXIS}
    ez = zoc.zoc_hexes(state, AXIS, gm)
    out = []
    for lab in egyptian_line(state):
        if lab in axis or Hex.parse(lab) in ez:
            break
        out.append(lab)
    return out


def fna_line() -> list[str]:
    md = _md()
    out: list[str] = []
    for r in md.routes():
        if r.get("kind") == "rail_fna" or str(r.get("id", "")).startswith("fna_railway"):
            out += [x for x in r["hexes"] if x not in out]
    return out


def fna_rail_controlled(state: GameState, side: str, gm: tec.GroundMap | None = None) -> list[str]:
    """13.7: hexes of the Algeria-Tunisia line ``side`` controls: b) last entered by friendly units
    (occupied now, or 2.2.2 control), c) the line between two controlled towns free of enemy units
    and EZOC; a) nothing unless a city hex of the line is controlled."""
    gm = gm or tec.current_map()
    md = _md()
    line = fna_line()
    enemy = {u.loc for u in state.units.values() if u.side == other(side) and hex_of(u) is not None}
    mine = {u.loc for u in state.units.values() if u.side == side and hex_of(u) is not None}
    ez = zoc.zoc_hexes(state, other(side), gm)

    def ctl(lab: str) -> bool:              # 13.7 b): "last entered by friendly units" (any unit, not only 2.2.2's)
        return lab in mine or control.controls(state, side, lab)

    out = {lab for lab in line if ctl(lab)}
    towns = [i for i, lab in enumerate(line) if (md.is_town(lab) or md.is_city(lab)) and lab in out]
    for a, b in zip(towns, towns[1:]):
        mid = line[a + 1:b]
        if all(x not in enemy and Hex.parse(x) not in ez for x in mid):
            out.update(mid)
    if not any(md.is_city(lab) for lab in out):
        return []
    return [lab for lab in line if lab in out]


def _rail_cargo_ok(units: list[UnitState]) -> bool:
    """One combat unit, two RP, one MSU or one dump (13.7; stacking chart capacity)."""
    from core import charts

    cap = charts.stacking_chart().capacity
    combat = [u for u in units if is_combat(u)]
    rps = [u for u in units if is_rp(u)]
    msu = [u for u in units if supply_kind(u) == "msu"]
    dumps = [u for u in units if supply_kind(u) == "dump"]
    if len(combat) + len(rps) + len(msu) + len(dumps) != len(units):
        return False
    loads = [(combat, cap.rail_combat_units), (msu, cap.rail_msu), (dumps, cap.rail_dumps)]
    used = [x for x, _ in loads if x] + ([rps] if rps else [])
    if len(used) != 1:
        return False
    if rps:
        return sum(r.steps for r in rps) <= cap.rail_rp
    return all(len(x) <= c for x, c in loads)


def _units(eng: Engine, side: str, ids: Any, rule: str) -> list[UnitState]:
    if not isinstance(ids, list) or not ids:
        raise IllegalAction("name the units transported (args.units)", rule)
    out = []
    for i in ids:
        u = eng.state.units.get(str(i))
        if u is None or u.side != side:
            raise IllegalAction(f"{i!r} is not a {side} unit", rule)
        from core.rules import movement     # (movement imports this module)
        movement.check_not_held(eng.state, u)
        out.append(u)
    if len({u.loc for u in out}) != 1:
        raise IllegalAction("the units transported together must start in one hex or box", rule)
    return out


def _spent(frame: Frame, uid: str) -> int:
    return int(frame.data.get("moved", {}).get(uid, 0))


def rail_move(eng: Engine, frame: Frame, side: str, args: dict) -> None:
    """13.7 Rail Lift: 3 MP regardless of distance; one lift per line per Movement Phase."""
    st = eng.state
    units = _units(eng, side, args.get("units"), "13.7")
    to = str(args.get("to", ""))
    src = units[0].loc
    if not _rail_cargo_ok(units):
        raise IllegalAction("a train carries one combat unit, two RP, one MSU or one dump", "13.7")
    egypt = egyptian_rail_active(st)
    on_egypt = side == ALLIED and (src in egypt or src == NRV) and (to in egypt or to == NRV)
    fna = fna_rail_controlled(st, side) if not on_egypt else []
    on_fna = src in fna and to in fna
    if not (on_egypt or on_fna):
        if side == AXIS and (src in egyptian_line(st) or to in egyptian_line(st)):
            raise IllegalAction("only the Allied player may use the Egyptian railroad", "13.7")
        raise IllegalAction(f"{src} -> {to} is not a move between two hexes of the active Egyptian railroad (or the "
                            "NRV) or two controlled hexes of the Algeria-Tunisia line", "13.7")
    if src == to:
        raise IllegalAction("a rail move goes to another hex of the line", "13.7")
    line = "egypt" if on_egypt else "fna"
    used = frame.data.setdefault("rail_used", [])
    if line in used:
        raise IllegalAction("the railroad carries one load per Movement Phase", "13.7")
    if src == NRV:
        from core.rules import offmap, strategic_moves

        for u in units:
            if strategic_moves.returned_this_phase(eng, u.id):
                raise IllegalAction(f"{counter_of(u).name} returned to the NRV from a MET track this phase and moves "
                                    "no further", "22.2.1")
            if offmap.nrv_exit_blocked(eng, u.id):
                raise IllegalAction(offmap.nrv_exit_blocked(eng, u.id) or "", "AXC-15")
    cont = frame.data.setdefault("continue", [])
    for u in units:
        if u.id in frame.data.get("moved", {}) and u.id not in cont:
            pass                                               # moved by road first: combinable (13.7)
        if u.id in frame.data.get("railed", []):
            raise IllegalAction(f"{counter_of(u).name} has already moved by rail this phase", "13.7")
        cap = movement_allowance(u) * E if (is_combat(u) or supply_kind(u) == "msu") else RAIL_COST
        if _spent(frame, u.id) + RAIL_COST > cap:
            raise IllegalAction(f"{counter_of(u).name} needs 3 MP for a rail move and has "
                                f"{tec.mp(cap - _spent(frame, u.id)):g} left", "13.7")
    used.append(line)
    for u in units:
        u.loc = to
        u.reserve = False
        frame.data.setdefault("moved", {})[u.id] = _spent(frame, u.id) + RAIL_COST
        frame.data.setdefault("railed", []).append(u.id)
        if u.id not in cont:
            cont.append(u.id)
    eng.say(f"{', '.join(counter_of(u).name for u in units)} move by rail from {src} to {to} (3 MP, 13.7)")


# =========================================================================== coastal shipping (20.3)
def _port_ok(st: GameState, side: str, lab: str) -> bool:
    from core.rules import supply

    try:
        h = Hex.parse(lab)
    except HexLabelError:
        return False
    return h in tec.current_map().ports and supply.port_controlled(st, side, h)


def coastal_ship(eng: Engine, frame: Frame, side: str, args: dict, arriving_from: str = "") -> None:
    """20.3 for a moving unit: from a friendly port to a friendly port on Maps L, S, C and W, using its
    entire MA (half to embark, half to land); the units wait in the receiving port's boxes
    (``box:PortBoxes:<hex>``, ``flags["port_box"]["how"] == "coastal"``) and land in the next friendly Movement
    Phase (20.1; ``naval.land_from_port_boxes``, R-COASTAL-LAND).  Allied units also enter and leave the NRV
    Box this way (22.1; its boxes ``box:PortBoxes:NRV``).  ``to`` the side's Refit Box: motorised
    combat units leaving the port by limited port boxes (20.1 c).  Port boxes and strikes at sea: ``coastal``
    (20.1, 19.9.2).  ``arriving_from``: a reinforcement arriving using coastal shipping (27.1 c) from that port;
    where the port is not on the maps in play (27.0 "Use maps C and W": Tripoli), it is not checked and uses no
    port box (R-REINF-DEPLOY)."""
    from core.rules import naval, offmap

    st = eng.state
    units = _units(eng, side, args.get("units"), "20.3")
    src, to = arriving_from or units[0].loc, str(args.get("to", ""))
    off_play = bool(arriving_from) and offmap.map_refusal(st, src) is not None
    nrv_src, nrv_to = side == ALLIED and src == NRV, side == ALLIED and to == NRV      # 22.1: the NRV's port
    if not (_port_ok(st, side, src) or nrv_src or off_play):
        raise IllegalAction(f"{src} is not a friendly-controlled port", "20.3")
    if nrv_src and (why := offmap.nrv_exit_blocked(eng, units[0].id)):
        raise IllegalAction(why, "23.2 AXC-15 c)")
    refit = to == offmap.refit(side)
    if refit:
        if nrv_src:
            raise IllegalAction("the NRV has standard port boxes only (22.1): no unit leaves it by a limited box",
                                "20.1 c); 22.1")
        for u in units:
            if not (is_combat(u) and counter_of(u).motorized):
                raise IllegalAction(f"only motorised combat units leave a port by a limited port box for the Refit "
                                    f"Box ({counter_of(u).name})", "20.1 c)")
    elif not (nrv_to or (_port_ok(st, side, to) and to[:1] in COASTAL_MAPS)) or not (nrv_src or src[:1] in COASTAL_MAPS):
        raise IllegalAction(f"coastal shipping delivers to friendly-controlled ports on Maps L, S, C and W "
                            f"(and the NRV for the Allies, 22.1) ({to})", "20.3")
    if src == to:
        raise IllegalAction("coastal shipping goes to another port", "20.3")
    if any(v.side != side for v in st.units_at(to)) and not refit:
        raise IllegalAction(f"{to} holds enemy units: coastal shipping lands in friendly ports", "20.3")
    for u in units:
        if u.id in frame.data.get("moved", {}):
            raise IllegalAction(f"{counter_of(u).name} has moved: shipping uses its entire MA", "20.3")
        if counter_of(u).kind not in ("combat", "supply") and not is_rp(u):
            raise IllegalAction(f"{counter_of(u).name} is not a ground unit", "20.3")
        if supply_kind(u) == "base":
            raise IllegalAction("bases do not move", "12.2.3")
    from core.rules import coastal

    coastal.check_and_record(eng, side, units, src, to, out=not off_play)   # 20.1 port boxes; 19.9.2 cargo at sea
    tag = f"{st.gt}.{st.phase}"
    for u in units:
        u.reserve = False
        frame.data.setdefault("moved", {})[u.id] = max(movement_allowance(u), 1) * E
        if refit:
            u.loc = to
            continue
        u.loc = naval.box_loc(to)
        u.flags = dict(u.flags) | {"port_box": {"how": "coastal", "from": src, "tag": tag}}
    names = ", ".join(counter_of(u).name for u in units)
    if refit:
        eng.say(f"{names} leave {src} by limited port boxes and are placed in the {side} Refit Box (20.1 c)")
        return
    eng.say(f"{names} ship from {src} by {side} coastal shipping, using their entire MA, into the port boxes of "
            f"{to}; they land in the next friendly Movement Phase (20.1, 20.3)")


# =========================================================================== air landings (13.7 e)
def atp_needed(units: list[UnitState]) -> int:
    from core import charts

    cap = charts.stacking_chart().capacity
    steps = sum(u.steps * (2 if counter_of(u).divisional else 1) for u in units if is_combat(u))
    rp = sum(u.steps for u in units if is_rp(u))
    dumps = sum(1 for u in units if supply_kind(u) == "dump")
    return (math.ceil(steps / cap.atp_landing_steps) + math.ceil(rp / cap.atp_landing_rp)
            + math.ceil(dumps / cap.atp_landing_dumps))


def air_land(eng: Engine, frame: Frame, side: str, args: dict) -> None:
    """13.7 Airlift e): regular or light infantry and airborne (two steps per ATP), RP (two per ATP)
    or dumps (one per ATP) from the side's airlift boxes to a friendly airfield or city hex."""
    st = eng.state
    units = _units(eng, side, args.get("units"), "13.7")
    src, to = units[0].loc, str(args.get("to", ""))
    if src not in AIRLIFT_FROM[side]:
        raise IllegalAction(f"{side} units are airlifted from {', '.join(AIRLIFT_FROM[side])} ({src})", "13.7 a), b)")
    from core.rules import offmap, strategic_moves

    crete = src == offmap.CRETE
    for u in units if crete else ():
        if why := strategic_moves.crete_airlift_refusal(eng, u.id):       # 22.3; AXC-19 c) (R-CRETE-LEAVE)
            raise IllegalAction(why, "22.3; 23.2 AXC-19 c")
    for u in units:
        c = counter_of(u)
        ok = is_rp(u) or supply_kind(u) == "dump" or (
            is_combat(u) and c.move_class == "foot" and (c.infantry in ("standard", "light") or c.airdrop_capable
                                                         or c.unit_type in ("infantry", "airborne")))
        if not ok:
            raise IllegalAction(f"{c.name} cannot be air landed (regular or light infantry, airborne, RP or dumps)",
                                "13.7 e)")
    try:
        h = Hex.parse(to)
    except HexLabelError:
        raise IllegalAction(f"{to!r} is not a hex", "13.7 e)") from None
    md = _md()

    friendly = control.controls(st, side, h.label)
    if any(u.side != side for u in st.units_at(to)):
        friendly = False
    if not (md.airfield(h) or md.is_city(h)) or not friendly:
        raise IllegalAction(f"units air landed must be placed at a friendly airfield or city hex ({to})", "13.7 e)")
    if crete and not md.airfield(h):
        raise IllegalAction(f"the GT 27 reinforcements of AXC-13 are airlifted from Crete to a friendly airfield ({to} "
                            "has none)", "23.2 AXC-19 c")
    from core.rules import air_missions

    if not md.is_city(h) and air_missions.airfield_disrupted(eng, h.label):
        raise IllegalAction(f"the airfield at {to} is disrupted and cannot be used for air landing", "19.1.3 Important")
    need = atp_needed(units)
    have = int(st.vars.get("atp", {}).get(side, 0)) - int(frame.data.get("atp_used", 0))
    if need > have:
        raise IllegalAction(f"the landing needs {need} ATP; {side} has {have} left this phase", "13.7 e)")
    frame.data["atp_used"] = int(frame.data.get("atp_used", 0)) + need
    atp = dict(st.vars.get("atp", {}))
    atp[side] = int(atp.get(side, 0)) - need
    st.vars["atp"] = atp
    frame.data["atp_used"] = 0
    for u in units:
        u.loc = to
        frame.data.setdefault("moved", {})[u.id] = max(movement_allowance(u), 1) * E     # 13.7 c)
    eng.say(f"{need} ATP air land {', '.join(counter_of(u).name for u in units)} from {src} at {to} (13.7 e)")
    for u in units if crete else ():
        strategic_moves.crete_move_check(eng, u.id)                        # AXC-13 d); AXC-19 d)


# =========================================================================== 13.8 entering / exiting
def entry_cost(box: str, hex_label: str, cls: str) -> int:
    """13.8 / 22.1: MP (eighths) spent on entering ``hex_label`` from ``box``."""
    if box == NRV:
        if hex_label not in NRV_ENTRIES:
            raise IllegalAction(f"the NRV is connected to the hex grid at {', '.join(NRV_ENTRIES)} and by rail "
                                f"({hex_label} is none of them)", "22.1 a)")
        kind, n = NRV_ENTRIES[hex_label]
        if kind == "track":
            return n * E                                          # 22.1 c)
        return n * tec.road_cost(cls)   # 22.1 d)
    from core.rules import raiders

    cost = raiders.entry_cost(box, hex_label)
    if cost is not None:
        return cost
    raise IllegalAction(f"{box} is not connected to {hex_label}", "13.8")


def map_edge(h: Hex, gm: tec.GroundMap) -> bool:
    """A hex of the grid with a neighbour off the grid (a map edge, 13.8)."""
    return gm.on_grid(h) and (len(tec.nbrs(h)) < 6 or any(not gm.on_grid(n) and "sea" not in gm.hex_terrain(n)
                                                          for n in tec.nbrs(h)))


def exit_cost(eng: Engine, u: UnitState, last: str, to: str) -> int:
    """13.8: the MP to leave the hex grid from ``last`` to ``to`` (refusal cites the rule)."""
    if to == NRV:
        if u.side != ALLIED:
            raise IllegalAction("Axis units may not enter the NRV Box", "22.1")
        if last not in NRV_ENTRIES and last != RAIL_START:
            raise IllegalAction(f"units reach the NRV from {', '.join(NRV_ENTRIES)} (or by rail), not {last}", "22.1 a)")
        return NRV_EXIT_COST                                      # 22.1 e)
    if to == "withdraw":
        from core.rules import reinforcements

        if u.id not in reinforcements.due_withdrawals(eng):
            raise IllegalAction(f"{counter_of(u).name} is not due for withdrawal", "7.4")
        if not map_edge(Hex.parse(last), tec.current_map()) and last not in NRV_ENTRIES:
            raise IllegalAction(f"a withdrawing unit leaves the map at a map edge ({last} is not one)", "7.4; 13.8")
        return WITHDRAW_EXIT_COST
    from core.rules import raiders

    cost = raiders.exit_cost(u, last, to)
    if cost is not None:
        return cost
    raise IllegalAction(f"{to} cannot be reached from {last}", "13.8")


def finish_exit(eng: Engine, u: UnitState, to: str) -> None:
    if to == "withdraw":
        u.loc = "removed"
        u.flags = dict(u.flags) | {"withdrawn": True, "removed_by": "7.4 withdrawal"}
        eng.say(f"{counter_of(u).name} exits the map and is withdrawn (7.4, 13.8)")
        return
    u.loc = to if to.startswith("box:") else f"box:{to}"
    eng.say(f"{counter_of(u).name} leaves the hex grid for {u.loc} (13.8)")
