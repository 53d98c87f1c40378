"""20.3 coastal shipping: port-box capacity and strikes on the coastal shipping boxes (19.9.2, 20.3.1, 20.3.2,
20.4.2 coastal naval escort).

``transport.coastal_ship`` moves the units into the receiving port's boxes (``box:PortBoxes:<hex>``, they land
in the next friendly Movement Phase, ``naval.land_from_port_boxes``, R-COASTAL-LAND); before it does it calls
:func:`check_and_record`, which

* refuses a shipment the port boxes cannot carry this impulse (20.1: a box carries 2 combat steps, 2 RP, or one
  MSU or dump; the capacity is used at the port of departure and at the port of arrival; limited boxes carry
  non-motorised units in or out and dumps in only, a motorised unit leaving by a limited box goes to its Refit
  Box; units placed in one impulse do not count against the other's; ``naval`` keeps one count per port and
  impulse for ocean and coastal cargo);
* records the cargo on the phase's coastal shipping lane (``strikes.record_cargo``, lane
  ``Coastal:<side>:<gt>.<phase>``), so that hits fall on it while it waits in the receiving port boxes.

Coastal Shipping Strikes (19.9.2) "are conducted during enemy Movement Phases": after the moving player's
movement step, before the other player's Reaction Phase (``before_step`` VII/X/XIII/XVI), the non-phasing player
allocates eligible naval air units one by one and the strike is resolved with 19.9.1 (``air.naval_strike``);
losses are chosen alternately, the targeted player first (``strikes.strike_losses``); strikers then check for
damage (19.3).  Eligible strikers: against Axis shipping (20.3.1, 19.1.2 c) Allied long-range air units in the
North Africa Box, and short-range ones when a Cyrenaica naval airfield is Allied and not disrupted; against
Allied shipping (20.3.2, 19.1.1) Axis air units in the Crete Box, and in the North Africa Box when a Cyrenaica
naval airfield is Axis.  The Med fleet in the Coastal Missions Box escorts Allied coastal shipping on Maps W and C
(−1 per fleet, 20.4.2 Coastal Naval Escort).
"""

from __future__ import annotations

from core.counters import all_counters
from core.decisions import ALLIED, AXIS, Action, Decision, IllegalAction, Option, other
from core.engine import QUERIES, Engine, Procedure, before_step, procedure
from core.state import Frame
from core.rules import air, naval, offmap, strikes

REACTION_STEPS = ("VII.1", "X.1", "XIII.1", "XVI.1")
#: 20.4.2: the maps on which each fleet performs coastal missions
FLEET_MAPS = {strikes.MED: ("W", "C"), strikes.FORCE_H: ("A", "T")}


def _tag(eng: Engine) -> str:
    return f"{eng.state.gt}.{eng.state.phase}"


def lane(side: str, tag: str) -> str:
    return f"Coastal:{side}:{tag}"


def _rec(eng: Engine) -> dict:
    rec = eng.state.vars.get("coastal") or {}
    return rec if rec.get("tag") == _tag(eng) else {"tag": _tag(eng), "use": {}, "shipped": {}}


def boxes_left(eng: Engine, port: str) -> int:
    """20.1: the port boxes (standard and limited) of ``port`` still free this impulse (``naval`` keeps the
    count for ocean and coastal cargo alike)."""
    return sum(naval.boxes_left(eng, port))


def shipment_boxes(units: list) -> int:
    """20.1: the boxes a shipment fills (2 combat steps / 2 RP per box, rounded up; one per MSU or dump;
    a division one box per step, 15.10)."""
    return naval.cargo_boxes(units)


def check_and_record(eng: Engine, side: str, units: list, src: str, to: str, out: bool = True) -> None:
    """Called by ``transport.coastal_ship`` after its own checks, before the units move: refuse a shipment the
    port boxes cannot carry this impulse (20.1: leaving ``src`` and entering ``to``; limited boxes carry
    non-motorised units in or out and dumps in only; ``to`` the Refit Box: motorised units leaving by limited
    boxes, 20.1 c), use the boxes (``naval.use_boxes``) and record the cargo on the phase's coastal lane (19.9.2).
    ``out`` False: ``src`` is off the maps in play (27.1 c from Tripoli in 27.0) and no box of it is used."""
    if to == offmap.refit(side):
        got = naval.plan_boxes(eng, src, units, "out", boxes="lim")
        if isinstance(got, str):
            raise IllegalAction(got, "20.1; 20.3")
        naval.use_boxes(eng, src, units, "out", boxes="lim")
        return
    out_ = naval.plan_boxes(eng, src, units, "out") if out else None
    in_ = naval.plan_boxes(eng, to, units, "in")
    for got in (out_, in_):
        if isinstance(got, str):
            raise IllegalAction(f"coastal shipping from {src} to {to}: {got}", "20.1; 20.3")
    if out:
        naval.use_boxes(eng, src, units, "out")
    naval.use_boxes(eng, to, units, "in")
    rec = _rec(eng)
    rec["shipped"].setdefault(side, []).extend([u.id, src, to] for u in units)
    eng.state.vars["coastal"] = rec
    for u in units:
        strikes.record_cargo(eng, lane(side, _tag(eng)), u.id)


# --------------------------------------------------------------------------- strikes (19.9.2)


def shipped_maps(eng: Engine, side: str, tag: str) -> set[str]:
    rec = eng.state.vars.get("coastal") or {}
    if rec.get("tag") != tag:
        return set()
    return {p[:1] for _uid, a, b in rec.get("shipped", {}).get(side, []) for p in (a, b)}


def coastal_escorts(eng: Engine, side: str, tag: str) -> list[str]:
    """20.4.2 Coastal Naval Escort: Allied fleets in the Coastal Missions Box on the maps of the shipping."""
    if side != ALLIED:
        return []
    maps = shipped_maps(eng, side, tag)
    out = []
    for u in sorted(eng.state.units.values(), key=lambda x: x.id):
        if strikes.is_fleet(u.id) and u.loc == strikes.COASTAL and not u.flags.get("in_port"):
            if set(FLEET_MAPS.get(strikes.fleet_key(u.id), ())) & maps:
                out.append(u.id)
    return out


def striker_refusal(eng: Engine, uid: str, target_side: str, tag: str) -> str | None:
    """Why air unit ``uid`` may not strike ``target_side``'s coastal shipping of phase ``tag`` (19.1, 20.3.1/2)."""
    u = eng.state.units.get(uid)
    c = all_counters().get(offmap.base_id(uid)) if u else None
    if u is None or c is None or c.kind != "air":
        return f"{uid} is not an air unit (19.9)"
    if u.side == target_side:
        return "friendly shipping (19.9.2)"
    if (why := strikes.naval_air_refusal(eng, uid)):
        return why
    if u.flags.get("coastal_strike") == tag:
        return f"{uid} already struck coastal shipping this Movement Phase (19.9.2)"
    if not strikes.cargo(eng, lane(target_side, tag)):
        return "no enemy coastal shipping at sea this Movement Phase (19.9.2)"
    box = air.holding_boxes(u.side).get(u.loc)
    if u.side == ALLIED:
        if box == "NorthAfrica" and (c.range == "L" or strikes.cyrenaica_airfields(eng, ALLIED)):
            return None
        return ("Axis coastal shipping is attacked by long-range Allied air units in North Africa, short-range ones "
                "only with an Allied Cyrenaica naval airfield (20.3.1; 19.1.2 c)")
    if box == "Crete" or (box == "NorthAfrica" and strikes.cyrenaica_airfields(eng, AXIS)):
        return None
    return ("Allied coastal shipping is attacked by Axis air units in Crete, or in North Africa with an Axis "
            "Cyrenaica naval airfield (20.3.2; 19.1.1 a)")


def eligible(eng: Engine, striker_side: str, tag: str) -> list[str]:
    return sorted(u.id for u in eng.state.units.values()
                  if u.side == striker_side and air.is_air(u.id)
                  and striker_refusal(eng, u.id, other(striker_side), tag) is None)


@procedure("coastal_strikes")
class CoastalStrikes(Procedure):
    """19.9.2 Coastal Shipping Strikes, during the enemy Movement Phase (after its movement step)."""

    def enter(self, eng: Engine, frame: Frame) -> None:
        prev = eng.state.phase - 1
        frame.data.update({"tag": f"{eng.state.gt}.{prev}", "target": sequence_side(eng, prev), "units": []})

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        d = frame.data
        if d.get("done") or not d.get("target"):
            return None
        striker = other(d["target"])
        elig = [u for u in eligible(eng, striker, d["tag"]) if u not in d["units"]]
        if not elig and not d["units"]:
            return None
        opts = [Option(action=Action(kind="done", side=striker),
                       label="Resolve the strike" if d["units"] else "No coastal shipping strike")]
        opts += [Option(action=Action(kind="coastal_strike", side=striker, args={"unit": u}),
                        label=f"{u} strikes {d['target']} coastal shipping") for u in elig]
        return Decision(side=striker, kind="coastal_strikes",
                        prompt=f"Strike the {d['target']} coastal shipping at sea "
                               f"({len(strikes.cargo(eng, lane(d['target'], d['tag'])))} unit(s))?",
                        rule="19.9.2; 20.3", options=tuple(opts))

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        d = frame.data
        if action.kind == "coastal_strike":
            uid = str(action.args.get("unit", ""))
            if uid in d["units"]:
                raise IllegalAction(f"{uid} is already allocated to this strike", "19.9.2")
            why = striker_refusal(eng, uid, d["target"], d["tag"]) if uid in eng.state.units else f"no unit {uid}"
            if why or eng.state.units[uid].side == d["target"]:
                raise IllegalAction(why or "friendly shipping", "19.9.2; 20.3")
            d["units"].append(uid)
            return
        if action.kind != "done":
            return super().apply(eng, frame, action)
        d["done"] = True
        if not d["units"]:
            return
        esc = coastal_escorts(eng, d["target"], d["tag"])
        hits = air.naval_strike(eng, list(d["units"]), escorts=len(esc))
        for uid in d["units"]:
            eng.state.units[uid].flags = dict(eng.state.units[uid].flags) | {"coastal_strike": d["tag"]}
        eng.say(f"{other(d['target'])} coastal shipping strike: {hits} hit(s) (19.9.1; escorts {len(esc)})")
        d["escorts"] = esc
        if hits:
            eng.push("strike_losses", kind="coastal", lane=lane(d["target"], d["tag"]), hits=hits,
                     target_side=d["target"], ultra=strikes._ultra(eng, d["target"]))
        else:
            strikes._after_strike(eng, list(d["units"]), esc)

    def resume(self, eng: Engine, frame: Frame, child: Frame) -> None:
        strikes._after_strike(eng, list(frame.data["units"]), list(frame.data.get("escorts", [])))


def sequence_side(eng: Engine, phase: int) -> str | None:
    """The phasing side of Movement Phase ``phase`` (the side whose coastal shipping is at sea)."""
    from core import sequence

    try:
        return sequence.phasing_side(phase, eng.state.first_player)
    except ValueError:          # a phase outside the sequence (hand-built test states): no side at sea
        return None


for _k in REACTION_STEPS:
    before_step(_k, "coastal_strikes")

QUERIES["coastal_boxes_left"] = lambda eng, port="": boxes_left(eng, port)
_ = AXIS
