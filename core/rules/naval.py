"""20.0 Naval operations and shipping: port/shipping box capacities (20.1), ocean shipping allocation
(20.2, Phases IV.3/IV.4), escort DRMs (19.9.1), amphibious landing limits (20.5).

Ocean shipping here is the allocation step: the owner ships units waiting in an embarkation box (Axis:
Italy / Sicily, 7.2, 22.6; Allied: Cape Route, 20.2.4) to a friendly port whose port boxes still have
room this GT (20.1: a box carries 2 combat steps, or 2 RP, or 1 MSU or dump — WE-13).  One decision per
waiting unit (a port, or *stay*), so a random player always finishes.
"""

from __future__ import annotations

from core.counters import all_counters
from core.decisions import ALLIED, AXIS, Action, Decision, IllegalAction, Option, other
from core.engine import QUERIES, Engine, Procedure, auto_step, on_step, procedure
from core.state import Frame
from core.rules import offmap

EMBARK = {AXIS: (offmap.ITALY, offmap.SICILY), ALLIED: (offmap.CAPE, offmap.TORCH, offmap.TORCH_EAST,
                                                          offmap.available(ALLIED))}
PORT_BOXES = "box:PortBoxes:"      # units in the port boxes of an enemy or neutral port (20.5), per combat_forms


def boxes_needed(uid: str, steps: int) -> int:
    """20.1 / WE-13: 2 combat steps, or 2 RP, or 1 MSU or dump per port box (rounded up)."""
    c = all_counters()[offmap.base_id(uid)]
    if c.kind == "supply" and c.unit_type in ("msu", "dump"):
        return 1
    if offmap.base_id(uid).endswith("-RP"):
        return 1   # one RP is half a box; two RP share one (rounded up per shipment, R-NAV-RP)
    if c.divisional:
        return steps   # 15.10: a division uses one shipping box per step
    return (steps + 1) // 2


def friendly_ports(eng: Engine, side: str) -> dict[str, int]:
    """Ports on the map controlled by ``side`` with their standard port boxes (20.1)."""
    from core.rules import tec, victory_rules
    out = {}
    for h, cap in tec.current_map().ports.items():
        if victory_rules.controller(eng, h.label) == side:
            out[h.label] = int(cap)
    if side == ALLIED:
        out[offmap.NRV] = offmap.nrv_port_capacity(eng)   # 22.1
    return out


def used_boxes(eng: Engine, port: str) -> int:
    return int(eng.state.vars.get("port_use", {}).get(str(eng.state.gt), {}).get(port, 0))


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


def waiting_cargo(eng: Engine, side: str) -> list[str]:
    out = []
    for u in sorted(eng.state.units.values(), key=lambda x: x.id):
        if u.side != side or u.loc not in EMBARK[side] or shipping_blocked(eng, side, u.loc):
            continue
        c = all_counters().get(offmap.base_id(u.id))
        if not c or c.kind not in ("combat", "supply"):
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


def _port_cap(label: str) -> int:
    from core.rules import tec
    from core.hexgrid import Hex
    try:
        return int(tec.current_map().ports.get(Hex.parse(label), 0))
    except Exception:  # noqa: BLE001
        return 0


def landing_ports(eng: Engine, uid: str) -> dict[str, int]:
    """20.2.5 / 20.2.6 / 20.5: destinations of a unit in the Torch or Torch East Box: friendly ports land on the
    hex; enemy or neutral ports take combat units with a real CF into their port boxes (``box:PortBoxes:<hex>``)
    for an opposed landing in the Combat Phase (combat_forms)."""
    from core.rules import tec, victory_rules
    from core.rules.combat_forms import landing_area
    u = eng.state.units[uid]
    c = all_counters()[offmap.base_id(uid)]
    real_cf = c.kind == "combat" and bool(c.cf) and not c.cf_paren
    out: dict[str, int] = {}
    for h, cap in tec.current_map().ports.items():
        lab = h.label
        if not landing_area(u.loc, lab):
            continue
        if victory_rules.controller(eng, lab) == ALLIED and not any(
                v.side != ALLIED and v.loc == lab for v in eng.state.units.values()):
            out[lab] = int(cap)
        elif real_cf:
            out[PORT_BOXES + lab] = int(cap)
    return out


def destinations(eng: Engine, uid: str) -> dict[str, int]:
    """Where ``uid`` may be shipped from its embarkation box, with each port's boxes (20.1, 20.2)."""
    u = eng.state.units[uid]
    if u.side == AXIS:
        ports = friendly_ports(eng, AXIS)
        ports.pop(offmap.NRV, None)
        if u.loc == offmap.SICILY:
            return {p: c for p, c in ports.items() if p.startswith("T")}        # 20.2.2: Map T
        return {p: c for p, c in ports.items() if p[:1] in ("L", "S", "C", "W")}  # 20.2.1
    if u.loc in (offmap.TORCH, offmap.TORCH_EAST):
        return landing_ports(eng, uid)
    ports = friendly_ports(eng, ALLIED)
    if u.loc == offmap.CAPE and not med_shipping(eng):
        return {offmap.NRV: ports[offmap.NRV]}                                  # 20.2.4
    return ports                                                                # 20.2.3 (and Cape -> NRV)


def used_boxes_at(eng: Engine, dest: str) -> int:
    return used_boxes(eng, dest[len(PORT_BOXES):] if dest.startswith(PORT_BOXES) else dest)


def landing_capacity_left(eng: Engine, box: str) -> int:
    """ALC-21 f), 20.2.5/20.2.6: units landed from a Torch box this GT may not exceed the port boxes of all the
    ports of its area."""
    from core.rules import tec
    from core.rules.combat_forms import landing_area
    total = sum(int(cap) for h, cap in tec.current_map().ports.items() if landing_area(box, h.label))
    used = int(eng.state.vars.get("torch_landed", {}).get(str(eng.state.gt), {}).get(box, 0))
    return total - used


def legal_ports(eng: Engine, uid: str) -> list[str]:
    u = eng.state.units[uid]
    need = boxes_needed(uid, u.steps)
    if u.loc in (offmap.TORCH, offmap.TORCH_EAST) and landing_capacity_left(eng, u.loc) < need:
        return []
    return [p for p, cap in sorted(destinations(eng, uid).items())
            if used_boxes_at(eng, p) + need <= cap and not (u.side == ALLIED and p == offmap.NRV and u.loc == offmap.NRV)]


@procedure("ocean_shipping")
class OceanShipping(Procedure):
    """4.1 IV.3 (non-initiative player) / IV.4 (initiative player): allocate ocean shipping (20.2)."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        side = other(eng.state.initiative) if frame.data["step"] == "IV.3" else eng.state.initiative
        if frame.data.get("done"):
            return None
        seen = frame.data.setdefault("seen", [])
        todo = [u for u in waiting_cargo(eng, side) if u not in seen]
        todo = [u for u in todo if legal_ports(eng, u)]
        if not todo:
            return Decision(side=side, kind="step", prompt="Allocate ocean shipping: nothing (more) to ship",
                            rule=f"4.1 {frame.data['step']}; 20.2",
                            options=(Option(action=Action(kind="done", side=side), label="Done"),))
        uid = todo[0]
        opts = [Option(action=Action(kind="ship_stay", side=side, args={"unit": uid}), label=f"{uid}: stay")]
        opts += [Option(action=Action(kind="ship", side=side, args={"unit": uid, "to": p}), label=f"Ship {uid} to {p}")
                 for p in legal_ports(eng, uid)]
        return Decision(side=side, kind="ocean_shipping", prompt=f"Ship {uid} ({len(todo)} waiting)",
                        rule=f"4.1 {frame.data['step']}; 20.1; 20.2", options=tuple(opts), free_kinds=("done",))

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        side = other(eng.state.initiative) if frame.data["step"] == "IV.3" else eng.state.initiative
        if action.kind == "done":
            frame.data["done"] = True
            return
        uid = str(action.args.get("unit", ""))
        if uid not in waiting_cargo(eng, side):
            raise IllegalAction(f"{uid} is not {side} cargo waiting in an embarkation box", "20.2")
        if action.kind == "ship_stay":
            frame.data["seen"].append(uid)
            return
        if action.kind == "ship":
            to = str(action.args.get("to", ""))
            if to not in legal_ports(eng, uid):
                raise IllegalAction(f"{to} has no room for {uid} this GT (port boxes, 20.1)", "20.1")
            u = eng.state.units[uid]
            port = to[len(PORT_BOXES):] if to.startswith(PORT_BOXES) else to
            need = boxes_needed(uid, u.steps)
            use = eng.state.vars.setdefault("port_use", {}).setdefault(str(eng.state.gt), {})
            use[port] = used_boxes(eng, port) + need
            eng.state.vars["port_use"] = {str(eng.state.gt): use}
            if u.loc in (offmap.TORCH, offmap.TORCH_EAST):
                tl = eng.state.vars.setdefault("torch_landed", {})
                g = tl.setdefault(str(eng.state.gt), {})
                g[u.loc] = int(g.get(u.loc, 0)) + need
                eng.state.vars["torch_landed"] = {str(eng.state.gt): g}
            from core.rules import strikes
            strikes.record_cargo(eng, lane_of(u.loc, port), uid)
            u.flags = dict(u.flags) | {"shipped_from": u.loc, "shipped_gt": eng.state.gt}
            u.loc = to
            frame.data["seen"].append(uid)
            eng.say(f"{side} ships {uid} to {to} (20.2{'; 20.5' if to.startswith(PORT_BOXES) else ''})")
            return
        super().apply(eng, frame, action)


on_step("IV.3", "ocean_shipping")
on_step("IV.4", "ocean_shipping")


def escort_drm(fleets: int) -> int:
    """19.9.1: -1 for each Allied fleet unit providing escort (Part D 21: printed '- 1')."""
    return -fleets


def amphibious_limit(eng: Engine, hex_label: str) -> int:
    """20.5: the steps landing may not exceed the hex's stacking limit (9 city / 6 other, 10.2)."""
    from core.rules import tec
    from core.hexgrid import Hex
    return 9 if tec.current_map().is_city(Hex.parse(hex_label)) else 6


def land_from_port_boxes(eng: Engine) -> None:
    """20.5: units in the port boxes of a port now clear of enemy units land normally in the next friendly
    Movement Phase (at its first step)."""
    side = eng.phasing_side()
    for u in sorted(eng.state.units.values(), key=lambda x: x.id):
        if u.side != side or not u.loc.startswith(PORT_BOXES):
            continue
        port = u.loc[len(PORT_BOXES):]
        if any(v.side != side and v.loc == port and all_counters().get(offmap.base_id(v.id))
               and all_counters()[offmap.base_id(v.id)].kind in ("combat", "supply") for v in eng.state.units.values()):
            continue
        u.loc = port
        eng.say(f"{u.id} lands from the port boxes at {port} (20.5)")


for _k in ("VI.1", "IX.1", "XII.1", "XV.1"):
    auto_step(_k)(land_from_port_boxes)


@auto_step("XX.1")
def unlanded_return(eng: Engine) -> None:
    """20.2: units not landed in the GT they were shipped return to their point of origin (20.5: to the Torch
    box they came from)."""
    for u in sorted(eng.state.units.values(), key=lambda x: x.id):
        if u.loc.startswith(PORT_BOXES):
            back = str(u.flags.get("shipped_from") or u.flags.get("landing_from") or offmap.TORCH)
            u.loc = back
            eng.say(f"{u.id} was not landed and returns to {back} (20.2; 20.5)")


QUERIES["port_boxes_used"] = lambda eng, port="": used_boxes(eng, port)
QUERIES["friendly_ports"] = lambda eng, side=AXIS: friendly_ports(eng, side)
