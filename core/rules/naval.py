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
from core.engine import QUERIES, Engine, Procedure, on_step, procedure
from core.state import Frame
from core.rules import offmap

EMBARK = {AXIS: (offmap.ITALY, offmap.SICILY), ALLIED: (offmap.CAPE,)}


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


def waiting_cargo(eng: Engine, side: str) -> list[str]:
    return sorted(u.id for u in eng.state.units.values()
                  if u.side == side and u.loc in EMBARK[side] and all_counters().get(offmap.base_id(u.id))
                  and all_counters()[offmap.base_id(u.id)].kind in ("combat", "supply")
                  and not shipping_blocked(eng, side, u.loc))


def legal_ports(eng: Engine, uid: str) -> list[str]:
    u = eng.state.units[uid]
    need = boxes_needed(uid, u.steps)
    return [p for p, cap in sorted(friendly_ports(eng, u.side).items())
            if used_boxes(eng, p) + need <= cap and not (u.side == ALLIED and p == offmap.NRV and u.loc == offmap.NRV)]


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
            use = eng.state.vars.setdefault("port_use", {}).setdefault(str(eng.state.gt), {})
            use[to] = used_boxes(eng, to) + boxes_needed(uid, u.steps)
            eng.state.vars["port_use"] = {str(eng.state.gt): use}
            u.loc = to
            frame.data["seen"].append(uid)
            eng.say(f"{side} ships {uid} to {to} (20.2)")
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


QUERIES["port_boxes_used"] = lambda eng, port="": used_boxes(eng, port)
QUERIES["friendly_ports"] = lambda eng, side=AXIS: friendly_ports(eng, side)
