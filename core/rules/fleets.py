"""20.4.2 coastal naval missions in the Allied Movement Phase (4.1 VI.3 b), 19.9.2 Strikes on Fleets and
19.9.2 Port Strikes.

Fleet missions (the Movement-Phase actions registered with ``movement.movement_action``):

* ``shore_bombard`` ``{"fleet", "hex", "target"}`` — Shore Bombardment (20.4.2): the fleet is placed adjacent to
  a coastal hex and bombards one Axis supply unit there with its bombardment rating as in 19.8 (1d6 per factor,
  4-6 disrupts, ``charts.bombardment_hits``).
* ``fleet_strike_box`` ``{"fleet", "port"}`` — Coastal Shipping Strikes (20.4.2) on the Axis units in the port
  boxes of ``port`` (``box:PortBoxes:<hex>``), resolved with 19.9.1 (+1 against a port box, ``air.naval_strike``);
  each hit costs a step or a dump/MSU, chosen alternately, the Axis player first (``strikes.strike_losses``).

Only a fleet in the Coastal Missions Box may fly them (Med fleet: Maps W and C; Force H: Maps A and T; the Malta
fleet never), not in port or hit (19.3, 20.4.2), one mission each impulse, shared with naval ground support
(``flags["support_used"]`` holds ``combat.impulse_tag``, R-FLEET-ONE-MISSION).  The handler validates (state
untouched on a refusal) and pushes ``fleet_mission``: the Axis player first decides the naval strike on the fleet
(Strikes on Fleets, 19.9.2: one air unit at a time from ``combat.fleet_strikers``, or none); the strike is resolved
by ``combat.strike_fleet`` (shared with the combat's naval ground support); a hit fleet checks for damage (19.3)
and its mission is cancelled; an unhit fleet carries on and, after the mission, checks for damage (19.3, 20.4).

Port Strikes (19.9.2) run before step 2 of every Movement Phase (``before_step`` VI.2, IX.2, XII.2, XV.2), after
the phasing player's counters were placed in the port boxes at step 1 (20.1): the non-phasing player allocates
eligible naval air units (:func:`port_striker_refusal`, 19.1 areas of operations) to the port boxes holding
phasing units; each port's strike is resolved with 19.9.1 (+1 port box, -1 per escorting fleet), losses chosen
alternately (``strikes.strike_losses``), then the strikers check for damage (19.3, +1 port hex).
"""

from __future__ import annotations

from core import charts
from core.counters import all_counters
from core.decisions import ALLIED, AXIS, Action, Decision, IllegalAction, Option, other
from core.engine import CONTINUE, QUERIES, Engine, Procedure, before_step, procedure
from core.state import Frame
from core.rules import air, combat, movement, offmap, strikes
from core.rules.combat_forms import PORT_BOXES, TORCH_EAST, landing_area

PORT_STRIKE_STEPS = ("VI.2", "IX.2", "XII.2", "XV.2")
MISSIONS = {"shore_bombard": "shore bombardment", "fleet_strike_box": "port box strike"}
SUPPLY_TYPES = ("base", "dump", "msu")   # 12.2: the supply units a shore bombardment may target (19.8)


def _tag(eng: Engine) -> str:
    return f"{eng.state.gt}.{eng.state.phase}"


def fleet_maps(uid: str) -> str:
    """20.4.2: the maps on which the fleet performs coastal missions ('' for the Malta fleet)."""
    return combat.FLEET_MAPS.get(strikes.fleet_key(uid), "")


def port_box_units(eng: Engine, port: str, side: str) -> list[str]:
    """The units of ``side`` in the port boxes of ``port`` (``box:PortBoxes:<hex>``, 20.1)."""
    return sorted(u.id for u in eng.state.units.values() if u.loc == PORT_BOXES + port and u.side == side)


def occupied_ports(eng: Engine, side: str) -> list[str]:
    """Ports whose port boxes hold units of ``side``."""
    return sorted({u.loc[len(PORT_BOXES):] for u in eng.state.units.values()
                   if u.side == side and u.loc.startswith(PORT_BOXES)})


def _in_port_hex(label: str) -> bool:
    """19.3: +1 when the mission was conducted in a city or port hex."""
    h = combat.hex_of(label)
    return h is not None and (combat.is_city(label) or h in combat.gmap().ports)


# --------------------------------------------------------------------------- fleet missions (20.4.2)


def fleet_refusal(eng: Engine, fleet: str, label: str) -> str | None:
    """Why ``fleet`` may not fly a coastal mission at ``label`` (a hex or a port) now; None when it may."""
    st = eng.state
    u = st.units.get(fleet)
    if u is None or not strikes.is_fleet(fleet) or u.side != ALLIED:
        return f"{fleet} is not an Allied fleet unit (20.4)"
    if eng.phasing_side() != ALLIED:
        return "Fleets fly coastal missions in an Allied Movement Phase (4.1 VI.3 b; 20.4.2)"
    if strikes.fleet_key(fleet) == strikes.MALTA_FLEET:
        return "The Malta fleet may not perform coastal missions (20.4.2)"
    if u.loc != strikes.COASTAL:
        return f"{fleet} is not in the Coastal Missions Box (allocated in the Allocation Phase, 20.4.2)"
    if u.flags.get("hit"):
        return f"{fleet} was hit by an Axis naval strike and conducts no more missions (20.4.2)"
    if u.flags.get("in_port"):
        return f"{fleet} is in port after its mission until the end of the last Combat Phase (19.3; 4.1 XVII)"
    if u.flags.get("support_used") == combat.impulse_tag(st):
        return f"{fleet} has already conducted its coastal mission this impulse (20.4.2)"
    maps = fleet_maps(fleet)
    if label[:1] not in maps:
        return (f"{fleet} performs coastal missions on Maps {' and '.join(maps)} only (20.4.2)" if maps
                else f"{fleet} may not perform coastal missions (20.4.2)")
    return None


def bombard_refusal(eng: Engine, fleet: str, label: str, target: str) -> str | None:
    """20.4.2 Shore Bombardment / 19.8: the fleet bombards an Axis supply unit in a coastal hex of its maps."""
    if combat.hex_of(label) is None:
        return f"{label} is not a hex (20.4.2)"
    why = fleet_refusal(eng, fleet, label)
    if why:
        return why
    if not combat.coastal(label):
        return f"{label} is not a coastal hex (20.4.2 Shore Bombardment)"
    t = eng.state.units.get(target)
    if t is None or t.loc != label or t.side != AXIS or combat.supply_type(eng.state, target) not in SUPPLY_TYPES:
        return f"{target} is not an Axis supply unit in {label} (20.4.2 Shore Bombardment; 19.8)"
    if t.disrupted:
        return f"{target} is already disrupted (19.8; 8.2.1)"
    return None


def box_strike_refusal(eng: Engine, fleet: str, port: str) -> str | None:
    """20.4.2 Coastal Shipping Strikes: the fleet strikes the Axis units in the port boxes of ``port``."""
    if combat.hex_of(port) is None:
        return f"{port} is not a port (20.4.2)"
    why = fleet_refusal(eng, fleet, port)
    if why:
        return why
    if not port_box_units(eng, port, AXIS):
        return f"No Axis units in the port boxes of {port} (20.4.2 Coastal Shipping Strikes; 20.1)"
    return None


def _check(eng: Engine, action: Action) -> tuple[str, str]:
    a = action.args
    fleet = str(a.get("fleet", ""))
    if action.side != ALLIED:
        raise IllegalAction("Only the Allied player has fleet units (20.4)", "20.4")
    if action.kind == "shore_bombard":
        label, target = str(a.get("hex", "")), str(a.get("target", ""))
        why = bombard_refusal(eng, fleet, label, target)
    else:
        label = str(a.get("port", ""))
        why = box_strike_refusal(eng, fleet, label)
    if why:
        raise IllegalAction(why, "20.4.2")
    return fleet, label


def _declare(eng: Engine, frame: Frame, action: Action) -> None:
    fleet, label = _check(eng, action)
    st = eng.state
    st.units[fleet].flags = dict(st.units[fleet].flags) | {"support_used": combat.impulse_tag(st),
                                                           "mission_at": label}
    what = MISSIONS[action.kind]
    eng.say(f"Allied {fleet} is placed next to {label} for a {what} (20.4.2)")
    eng.push("fleet_mission", kind=action.kind, fleet=fleet, hex=label, target=str(action.args.get("target", "")),
             strikers=[])


movement.movement_action("shore_bombard")(_declare)
movement.movement_action("fleet_strike_box")(_declare)


def mission_options(eng: Engine, frame: Frame, side: str) -> list[Option]:
    """At most two legal fleet missions for the movement decision (random bots exercise them)."""
    if side != ALLIED or eng.phasing_side() != ALLIED:
        return []
    st = eng.state
    fleets = sorted(u.id for u in st.units.values() if u.loc == strikes.COASTAL and strikes.is_fleet(u.id)
                    and u.side == ALLIED and fleet_maps(u.id))
    out: list[Option] = []
    for f in fleets:
        if fleet_refusal(eng, f, fleet_maps(f)[0]) is not None:
            continue
        for t in sorted(st.units.values(), key=lambda x: x.id):
            if t.side == AXIS and not t.disrupted and t.loc[:1] in fleet_maps(f) \
                    and combat.supply_type(st, t.id) in SUPPLY_TYPES and bombard_refusal(eng, f, t.loc, t.id) is None:
                out.append(Option(action=Action(kind="shore_bombard", side=ALLIED,
                                                args={"fleet": f, "hex": t.loc, "target": t.id}),
                                  label=f"{f}: shore bombardment of {t.id} in {t.loc} (20.4.2)"))
                break
        for p in occupied_ports(eng, AXIS):
            if box_strike_refusal(eng, f, p) is None:
                out.append(Option(action=Action(kind="fleet_strike_box", side=ALLIED, args={"fleet": f, "port": p}),
                                  label=f"{f}: strike the Axis port boxes of {p} (20.4.2)"))
                break
        if len(out) >= 2:
            break
    return out[:2]


movement.movement_options(mission_options)


@procedure("fleet_mission")
class FleetMission(Procedure):
    """20.4.2 / 19.9.2 Strikes on Fleets: the Axis naval strike on the placed fleet, then its mission."""

    def _eligible(self, eng: Engine, frame: Frame) -> list[str]:
        d = frame.data
        # the combat's eligibility (N rating, not based, area of operations, Ghibli) and the checks of every naval
        # air strike (no Axis air missions in a Malta invasion blackout, AXC-16 a/e)
        return [u for u in combat.fleet_strikers(eng.state, AXIS, d["hex"])
                if u not in d["strikers"] and strikes.naval_air_refusal(eng, u) is None]

    def decide(self, eng: Engine, frame: Frame) -> Decision | None | object:
        d = frame.data
        if d.get("finished"):
            return None
        if d.get("resolving"):
            return CONTINUE      # a strike_losses child is on the stack (its return finishes the mission)
        elig = [] if d.get("strike_done") else self._eligible(eng, frame)
        if not elig:
            self._resolve(eng, frame)
            return CONTINUE
        what = MISSIONS[d["kind"]]
        opts = [Option(action=Action(kind="fleet_mission_strike", side=AXIS, args={"unit": u}),
                       label=f"Strike {d['fleet']} with {u} (19.9.1)") for u in elig]
        opts.append(Option(action=Action(kind="fleet_mission_strike", side=AXIS, args={"unit": None}),
                           label="No (more) naval strike on the fleet" if d["strikers"] else "No naval strike on the fleet"))
        chosen = f" (so far: {', '.join(d['strikers'])})" if d["strikers"] else ""
        return Decision(side=AXIS, kind="fleet_mission_strike",
                        prompt=f"Naval strike on {d['fleet']} before its {what} at {d['hex']}{chosen} (19.9.2; 20.4.2)",
                        rule="19.9.2 Strikes on Fleets; 20.4.2", options=tuple(opts), free_kinds=("fleet_mission_strike",),
                        context={"fleet": d["fleet"], "hex": d["hex"], "mission": d["kind"]})

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        d = frame.data
        if action.kind != "fleet_mission_strike":
            return super().apply(eng, frame, action)
        uid = action.args.get("unit")
        if uid is None:
            d["strike_done"] = True
            return
        if uid not in self._eligible(eng, frame):
            raise IllegalAction(f"{uid} cannot fly a naval strike on {d['fleet']} at {d['hex']} "
                                "(naval rating, not based, area of operations: 19.9, 19.1)", "19.9.2")
        d["strikers"].append(str(uid))

    def _resolve(self, eng: Engine, frame: Frame) -> None:
        d = frame.data
        st = eng.state
        fleet, label = d["fleet"], d["hex"]
        d["strike_done"] = True
        d["resolving"] = True
        port = _in_port_hex(label)
        if d["strikers"]:
            hits = combat.strike_fleet(eng, fleet, list(d["strikers"]), port=port,
                                       cancelled=f"its {MISSIONS[d['kind']]} is cancelled")
            if hits:
                # 19.9.2: fleet units that are hit use 19.3 to resolve damage; the mission is cancelled
                self._damage(eng, frame)
                return
        if d["kind"] == "shore_bombard":
            c = all_counters()[offmap.base_id(fleet)]
            dice = eng.roll(max(1, c.bomb), f"19.8 shore bombardment by {fleet} on {d['target']} in {label}")
            if charts.bombardment_hits(dice):
                st.units[d["target"]].disrupted = True
                eng.say(f"{d['target']} in {label} is disrupted by the shore bombardment (20.4.2; 19.8)")
            else:
                eng.say(f"The shore bombardment of {d['target']} in {label} has no effect (19.8)")
            self._damage(eng, frame)
            return
        cargo = port_box_units(eng, label, AXIS)
        lane = f"PortBoxes:{label}:{_tag(eng)}"
        for uid in cargo:
            strikes.record_cargo(eng, lane, uid)
        hits = air.naval_strike(eng, [fleet], port=True)
        eng.say(f"{fleet} strikes the Axis port boxes of {label}: {hits} hit(s) (20.4.2; 19.9.1 +1 port box)")
        if hits:
            eng.push("strike_losses", kind="port", lane=lane, hits=hits, target_side=AXIS,
                     ultra=strikes._ultra(eng, AXIS))
            return
        self._damage(eng, frame)

    def _damage(self, eng: Engine, frame: Frame) -> None:
        """19.3 / 20.4: the fleet checks for mission damage (a hit fleet for the hit, else after its mission)."""
        d = frame.data
        fleet = d["fleet"]
        u = eng.state.units.get(fleet)
        if u is not None and not u.loc.startswith(("track:", "box:Destroyed")):
            r = air.mission_damage(eng, fleet, city_or_port=_in_port_hex(d["hex"]))
            eng.say(f"{fleet}: mission damage {r} (19.3; 20.4)")
        if u is not None:
            u.flags = {k: v for k, v in u.flags.items() if k != "mission_at"}
        d["finished"] = True

    def resume(self, eng: Engine, frame: Frame, child: Frame) -> None:
        if child.proc == "strike_losses":
            self._damage(eng, frame)


# --------------------------------------------------------------------------- port strikes (19.9.2)


def _air_refusal(eng: Engine, uid: str) -> tuple[str | None, str | None]:
    """The checks every naval air strike makes (``strikes.naval_air_refusal``, ``strikes.strike_box``):
    (reason, holding box name)."""
    if (why := strikes.naval_air_refusal(eng, uid)):
        return why, None
    return strikes.strike_box(eng, uid)


def sicily_reaches(port: str) -> bool:
    """19.1.1 Sicily Box (all missions on Map T) and 20.2.6 Important (port boxes on Map A from A6111 east and on
    Map T from T6017 west): the ports Axis air units in Sicily may strike (R-FLEET-SICILY-PORTS)."""
    return port[:1] == "T" or landing_area(TORCH_EAST, port)


def port_striker_refusal(eng: Engine, uid: str, port: str) -> str | None:
    """Why air unit ``uid`` may not strike the enemy units in the port boxes of ``port`` now (19.9.2 Port
    Strikes; areas of operations 19.1, 20.2.6, 20.3); None when it may."""
    why, box = _air_refusal(eng, uid)
    if why:
        return why
    u = eng.state.units[uid]
    tag = _tag(eng)
    if u.flags.get("port_strike") == tag:
        return f"{uid} already struck port boxes this Movement Phase (19.9.2)"
    if combat.hex_of(port) is None or not port_box_units(eng, port, other(u.side)):
        return f"No enemy units in the port boxes of {port} (19.9.2 Port Strikes)"
    if not combat.air_ok_in(eng.state, port):
        return "Air operations may not be run in Ghibli-affected hexes (21.2.1)"
    m = port[:1]
    if u.side == AXIS:
        if box == "Crete":
            if m in "CW":
                return None
            return "Axis air units in Crete strike port boxes on Maps C and W only (19.1.1 Crete Box a)"
        if box == "Sicily":
            if sicily_reaches(port):
                return None
            return ("Axis air units in Sicily strike port boxes on Map T and on Map A from A6111 east "
                    "(19.1.1 Sicily Box; 20.2.6 Important)")
        if box == "NorthAfrica":
            if not strikes.cyrenaica_airfields(eng, AXIS):
                return ("Axis air units in North Africa strike Allied shipping only with an Axis Cyrenaica naval "
                        "airfield (19.1.1 a; 20.3.2)")
            if combat.air_area_ok(eng.state, uid, port):
                return None
            return ("Axis air units in North Africa fly over Maps L, S, C and W containing or adjacent to a map "
                    "with a friendly supplied base (19.1.1)")
        return f"Axis air units in the {box} Box do not strike port boxes (19.1.1)"
    if box == "Malta":
        return "Allied air units in Malta fly only ocean naval strikes on the shipping from Italy (19.1.2 Malta Box)"
    if box == "NorthAfrica":
        c = all_counters()[offmap.base_id(uid)]
        if c.range != "L" and not strikes.cyrenaica_airfields(eng, ALLIED):
            return ("Allied short-range air units in North Africa strike Axis shipping only with an Allied Cyrenaica "
                    "naval airfield (19.1.2 c; 20.3.1)")
        if combat.air_area_ok(eng.state, uid, port):
            return None
        return "Allied short-range air units in North Africa fly over Maps C and W near a friendly base (19.1.2 b)"
    if box == "Torch":
        if combat.air_area_ok(eng.state, uid, port):
            return None
        return "Allied air units in the Torch Box fly all missions on Maps A and T (19.1.2 Torch Box)"
    return f"Allied air units in the {box} Box do not fly naval strikes (19.1.2)"


def port_escorts(eng: Engine, port: str) -> list[str]:
    """20.4.2 Coastal Naval Escort: Allied fleets in the Coastal Missions Box whose maps hold the port (R-FLEET-ESCORT)."""
    return sorted(u.id for u in eng.state.units.values()
                  if strikes.is_fleet(u.id) and u.side == ALLIED and u.loc == strikes.COASTAL
                  and not u.flags.get("in_port") and not u.flags.get("hit") and port[:1] in fleet_maps(u.id))


@procedure("port_strikes")
class PortStrikes(Procedure):
    """19.9.2 Port Strikes, in the enemy Movement Phase after the counters were placed in the port boxes (20.1):
    the non-phasing player allocates naval air units to the port boxes holding phasing units, then each port's
    strike is resolved (19.9.1), losses chosen alternately, and the strikers check for damage (19.3)."""

    def enter(self, eng: Engine, frame: Frame) -> None:
        frame.data.update({"target": eng.phasing_side(), "tag": _tag(eng), "strikes": {}})

    def _pairs(self, eng: Engine, frame: Frame) -> list[tuple[str, str]]:
        d = frame.data
        target = d.get("target")
        if target not in (AXIS, ALLIED):
            return []
        busy = {u for us in d["strikes"].values() for u in us}
        ports = occupied_ports(eng, target)
        if not ports:
            return []
        out = []
        for u in sorted(eng.state.units.values(), key=lambda x: x.id):
            if u.side != other(target) or u.id in busy or not air.is_air(u.id):
                continue
            out += [(u.id, p) for p in ports if port_striker_refusal(eng, u.id, p) is None]
        return out

    def decide(self, eng: Engine, frame: Frame) -> Decision | None | object:
        d = frame.data
        if d.get("finished"):
            return None
        if d.get("queue") is not None:
            return CONTINUE if self._next(eng, frame) else None
        pairs = self._pairs(eng, frame)
        if not pairs and not d["strikes"]:
            return None
        striker = other(d["target"])
        opts = [Option(action=Action(kind="done", side=striker),
                       label="Resolve the port strikes" if d["strikes"] else "No port strike")]
        opts += [Option(action=Action(kind="port_strike", side=striker, args={"unit": u, "port": p}),
                        label=f"{u} strikes the {d['target']} port boxes of {p} "
                              f"({len(port_box_units(eng, p, d['target']))} unit(s))")
                 for u, p in pairs]
        so_far = "; ".join(f"{p}: {', '.join(us)}" for p, us in sorted(d["strikes"].items()))
        return Decision(side=striker, kind="port_strikes",
                        prompt=f"Port strikes on the {d['target']} port boxes (19.9.2)"
                               + (f" — allocated {so_far}" if so_far else ""),
                        rule="19.9.2 Port Strikes; 19.9.1", options=tuple(opts), free_kinds=("port_strike",))

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        d = frame.data
        if d.get("queue") is not None:
            return super().apply(eng, frame, action)
        if action.kind == "port_strike":
            uid, port = str(action.args.get("unit", "")), str(action.args.get("port", ""))
            if action.side != other(d["target"]):
                raise IllegalAction(f"{action.side} cannot strike its own port boxes (19.9.2)", "19.9.2")
            if any(uid in us for us in d["strikes"].values()):
                raise IllegalAction(f"{uid} is already allocated to a port strike", "19.9.2")
            why = port_striker_refusal(eng, uid, port)
            if why:
                raise IllegalAction(why, "19.9.2; 19.1")
            d["strikes"].setdefault(port, []).append(uid)
            eng.say(f"{action.side} allocates {uid} to a strike on the port boxes of {port} (19.9.2)")
            return
        if action.kind != "done":
            return super().apply(eng, frame, action)
        d["queue"] = sorted(d["strikes"])
        if not d["queue"]:
            d["finished"] = True

    def _next(self, eng: Engine, frame: Frame) -> bool:
        """Resolve the next port's strike; True when a strike_losses child was pushed or more remain."""
        d = frame.data
        while d["queue"]:
            port = d["queue"].pop(0)
            units = d["strikes"][port]
            cargo = port_box_units(eng, port, d["target"])
            if not cargo:
                eng.say(f"The port boxes of {port} are empty: no strike (19.9.2)")
                continue
            lane = f"PortBoxes:{port}:{d['tag']}"
            for uid in cargo:
                strikes.record_cargo(eng, lane, uid)
            esc = port_escorts(eng, port) if d["target"] == ALLIED else []
            hits = air.naval_strike(eng, list(units), port=True, escorts=len(esc))
            for uid in units:
                eng.state.units[uid].flags = dict(eng.state.units[uid].flags) | {"port_strike": d["tag"]}
            eng.say(f"{other(d['target'])} strike on the port boxes of {port}: {hits} hit(s) "
                    f"(19.9.1: +1 port box{f', -{len(esc)} escort' if esc else ''})")
            d["current"] = {"port": port, "units": list(units), "escorts": esc}
            if hits:
                eng.push("strike_losses", kind="port", lane=lane, hits=hits, target_side=d["target"],
                         ultra=strikes._ultra(eng, d["target"]))
                return True
            self._damage(eng, frame)
        d["finished"] = True
        return False

    def _damage(self, eng: Engine, frame: Frame) -> None:
        """19.9.2: after all losses the striking player checks for unit damage (19.3, +1 in a port hex);
        escorting fleets check too (20.4.2 Coastal Naval Escort as 19.9.2 Ocean Shipping Strikes)."""
        cur = frame.data.pop("current", None) or {}
        for uid in cur.get("units", []) + cur.get("escorts", []):
            u = eng.state.units.get(uid)
            if u is None or u.loc.startswith(("track:", "box:Destroyed")) or u.loc == offmap.REMOVED:
                continue
            r = air.mission_damage(eng, uid, city_or_port=True)
            eng.say(f"{uid} mission damage: {r} (19.3)")

    def resume(self, eng: Engine, frame: Frame, child: Frame) -> None:
        if child.proc == "strike_losses":
            self._damage(eng, frame)


for _k in PORT_STRIKE_STEPS:
    before_step(_k, "port_strikes")


QUERIES["fleet_mission_fleets"] = lambda eng: sorted(
    u.id for u in eng.state.units.values() if u.loc == strikes.COASTAL and strikes.is_fleet(u.id))
QUERIES["fleet_mission_refusal"] = lambda eng, fleet="", hex="", target="", kind="shore_bombard": (
    bombard_refusal(eng, fleet, hex, target) if kind == "shore_bombard" else box_strike_refusal(eng, fleet, hex))
QUERIES["axis_port_boxes"] = lambda eng: occupied_ports(eng, AXIS)
QUERIES["port_strike_refusal"] = lambda eng, unit="", port="": port_striker_refusal(eng, unit, port)
