"""The naval side of the Allocation Phase (4.1 IV.5-IV.9): fleet allocation (20.4), strikes on Malta (IV.6,
19.9.2, 22.4), allocation of air units to ocean naval strikes by the non-initiative then the initiative player
(IV.7, IV.8, 19.9) and their resolution in any order (IV.9, 19.9.1) with losses chosen alternately (Ultra:
the Allied player chooses all) and mission damage on the Air and Naval Loss Table (19.3).

State of the GT's shipping and strikes: ``state.vars["naval"] = {"gt", "lanes": {lane: [uid...]}, "strikes":
[{"side", "lane", "units", "resolved"}]}``.  Lanes: ``Italy``, ``Sicily`` (Axis, 20.2.1/20.2.2), ``AlliedMed``
(20.2.3), ``Cape`` and ``Torch`` (not attackable, 20.2.4-20.2.6).  Ocean shipping (``naval.py``) records the
cargo of each lane as it ships it (the cargo is put on its port at once; hits on a lane fall on that cargo).

Fleets (``UK-MedFleet``, ``UK-ForceH``, ``UK-MaltaFleet``) live in the Allied Available Next Turn Box; in IV.5
they are allocated to the Coastal Missions Box (20.4.2; the combat rules read it) or to ocean missions
(``box:OceanMissions`` with ``flags["mission"]`` = ``strike`` / ``escort``, 20.4.1).
"""

from __future__ import annotations

from core.counters import all_counters
from core.decisions import ALLIED, AXIS, EITHER, Action, Decision, IllegalAction, Option, other
from core.engine import CONTINUE, QUERIES, Engine, Procedure, before_step, on_step, procedure
from core.state import Frame
from core.rules import air, offmap

COASTAL = "box:CoastalMissions"        # 20.4.2 (Map D)
OCEAN = "box:OceanMissions"            # 20.4.1: fleets on an ocean strike or escort
MED, FORCE_H, MALTA_FLEET = "UK-MedFleet", "UK-ForceH", "UK-MaltaFleet"
#: 20.4.1 / 20.4.2: what each fleet may do
FLEET_MISSIONS = {MED: ("strike", "escort", "coastal"), FORCE_H: ("escort", "coastal"), MALTA_FLEET: ("strike",)}
ATTACKABLE = ("Italy", "Sicily", "AlliedMed")      # 19.9.2 Ocean Shipping Strikes (not Cape, not Torch)
LANE_OWNER = {"Italy": AXIS, "Sicily": AXIS, "AlliedMed": ALLIED}


# --------------------------------------------------------------------------- bookkeeping


def naval_vars(eng: Engine) -> dict:
    nv = eng.state.vars.get("naval")
    if not nv or nv.get("gt") != eng.state.gt:
        nv = {"gt": eng.state.gt, "lanes": {}, "strikes": []}
        eng.state.vars["naval"] = nv
    return nv


def _nv_read(eng: Engine) -> dict:
    """The GT's naval record without creating it (queries and refusals stay read-only)."""
    nv = eng.state.vars.get("naval") or {}
    return nv if nv.get("gt") == eng.state.gt else {"gt": eng.state.gt, "lanes": {}, "strikes": []}


def record_cargo(eng: Engine, lane: str, uid: str) -> None:
    """Called by ocean shipping (20.2): ``uid`` travels on ``lane`` this GT."""
    naval_vars(eng)["lanes"].setdefault(lane, []).append(uid)


def cargo(eng: Engine, lane: str) -> list[str]:
    """The lane's cargo still afloat this GT (not destroyed or removed)."""
    nv = eng.state.vars.get("naval") or {}
    if nv.get("gt") != eng.state.gt:
        return []
    out = []
    for uid in nv.get("lanes", {}).get(lane, []):
        u = eng.state.units.get(uid)
        if u and u.loc != offmap.REMOVED and not u.loc.startswith("box:Destroyed") \
                and not all_counters()[offmap.base_id(uid)].sf:   # 15.4: SF at sea cannot be struck
            out.append(uid)
    return out


def _counter(uid: str):
    return all_counters().get(offmap.base_id(uid))


def is_fleet(uid: str) -> bool:
    c = _counter(uid)
    return bool(c and c.kind == "fleet")


def fleet_key(uid: str) -> str:
    from core.counters import resolve
    b = offmap.base_id(uid)
    return resolve(b) or b


def home(side: str = ALLIED) -> str:
    return air.box(side, air.AVAILABLE_NEXT)


def _md():
    from core import mapdata
    return mapdata.load()


def _airfield_friendly(eng: Engine, label: str, side: str) -> bool:
    from core.rules import victory_rules
    if label in eng.state.vars.get("disrupted_airfields", []):
        return False   # 19.1.3 Important: disrupted airfields confer no benefit
    return victory_rules.controller(eng, label) == side


def cyrenaica_airfields(eng: Engine, side: str) -> int:
    """19.1.3: how many of C2308, C2309, C2821 are friendly to ``side`` and not disrupted."""
    labels = [h.label for h in _md().naval_airfields()]
    return sum(1 for lab in labels if _airfield_friendly(eng, lab, side))


def map_t_airfields(eng: Engine, side: str) -> int:
    """20.2.2 / 19.9.1: airfields on Map T friendly to ``side``."""
    labels = [h.label for h in _md().airfields() if h.label.startswith("T")]
    return sum(1 for lab in labels if _airfield_friendly(eng, lab, side))


def nothing(frame: Frame, side: str, prompt: str, rule: str) -> Decision | None:
    """The step's acting side says *done* when the step has nothing to decide (like every step of 4.1)."""
    if frame.data.get("done"):
        return None
    return Decision(side=side, kind="step", prompt=prompt, rule=rule,
                    options=(Option(action=Action(kind="done", side=side), label="Done"),))


def took_done(frame: Frame, action: Action) -> bool:
    if action.kind == "done":
        frame.data["done"] = True
        return True
    return False


# --------------------------------------------------------------------------- fleets (20.4)


def normalise_fleets(eng: Engine) -> None:
    """Fleets due back from the TRT (19.3) and fleets whose missions ended return to the Available Next Turn
    Box at the start of the Allocation Phase; the allocation is made again each GT (20.4)."""
    st = eng.state
    for u in st.units.values():
        if not is_fleet(u.id):
            continue
        if u.loc.startswith("track:TRT:"):
            if int(u.loc.rsplit(":", 1)[1]) <= st.gt:
                u.loc = home(u.side)
                u.flags = {k: v for k, v in u.flags.items() if k not in ("mission", "hit")} | {"available_gt": st.gt}
            continue
        if u.loc in (COASTAL, OCEAN):
            u.loc = home(u.side)
            u.flags = {k: v for k, v in u.flags.items() if k not in ("mission", "hit", "support_used")}


def fleet_refusal(eng: Engine, uid: str, mission: str) -> str | None:
    """Why fleet ``uid`` may not take ``mission`` now (None: it may); each reason cites its rule."""
    u = eng.state.units.get(uid)
    if u is None or not is_fleet(uid) or u.side != ALLIED:
        return f"{uid} is not an Allied fleet unit (20.4)"
    if u.loc != home(u.side):
        return f"{uid} is not in the Available Next Turn Box (20.4)"
    if int(u.flags.get("available_gt", 0)) > eng.state.gt:
        return f"{uid} arrived this GT and is available next GT (7.1; 20.4)"
    if u.flags.get("in_port"):
        return f"{uid} is in port until the end of the last Combat Phase (4.1 XVII; 19.3)"
    key = fleet_key(uid)
    allowed = FLEET_MISSIONS.get(key, ())
    if mission not in allowed:
        return f"{uid} may not conduct {mission} missions (20.4.1, 20.4.2)"
    if key == MALTA_FLEET and not offmap.malta_allied(eng):
        return "The Malta fleet operates only out of an Allied Malta (20.4 Important; 23.2 AXC-16 g)"
    if mission == "strike" and not cargo(eng, "Italy"):
        return "No Axis shipping from Italy to strike this GT (20.4.1)"
    if mission == "escort" and not cargo(eng, "AlliedMed"):
        return "The Allied Mediterranean Shipping Boxes are not used this GT (20.4.1 Naval Escort)"
    if mission != "escort" and cargo(eng, "AlliedMed") and "escort" in allowed:
        return ("The Med fleet and Force H must escort while the Mediterranean Shipping Boxes are used "
                "(20.4.1 Naval Escort)")
    return None


def allocatable_fleets(eng: Engine) -> list[str]:
    return sorted(u.id for u in eng.state.units.values()
                  if is_fleet(u.id) and u.side == ALLIED and any(fleet_refusal(eng, u.id, m) is None
                                                                  for m in ("strike", "escort", "coastal")))


@procedure("fleet_allocation")
class FleetAllocation(Procedure):
    """4.1 IV.5: the Allied player allocates naval units (20.4): ocean strike, escort, coastal missions."""

    def enter(self, eng: Engine, frame: Frame) -> None:
        normalise_fleets(eng)

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        seen = frame.data.setdefault("seen", [])
        todo = [f for f in allocatable_fleets(eng) if f not in seen]
        if not todo:
            return nothing(frame, ALLIED, "Allocate naval units: no (more) fleet to allocate", "4.1 IV.5; 20.4")
        uid = todo[0]
        forced = cargo(eng, "AlliedMed") and fleet_refusal(eng, uid, "escort") is None
        opts = [] if forced else [Option(action=Action(kind="fleet_stay", side=ALLIED, args={"fleet": uid}),
                                         label=f"{uid}: not allocated")]
        for m in ("strike", "escort", "coastal"):
            if fleet_refusal(eng, uid, m) is None:
                where = {"strike": "ocean strike on the Axis Shipping from Italy Boxes",
                         "escort": "escort the Allied Mediterranean Shipping Boxes",
                         "coastal": "the Coastal Missions Box"}[m]
                opts.append(Option(action=Action(kind="fleet_allocate", side=ALLIED, args={"fleet": uid, "mission": m}),
                                   label=f"{uid}: {where}"))
        return Decision(side=ALLIED, kind="fleet_allocation", prompt=f"Allocate fleet {uid} (20.4)",
                        rule="4.1 IV.5; 20.4", options=tuple(opts), context={"fleet": uid})

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        if took_done(frame, action):
            return
        uid = str(action.args.get("fleet", ""))
        if uid not in allocatable_fleets(eng) or uid in frame.data.get("seen", []):
            raise IllegalAction(f"{uid} is not an Allied fleet waiting for its allocation", "20.4")
        if action.kind == "fleet_stay":
            if cargo(eng, "AlliedMed") and fleet_refusal(eng, uid, "escort") is None:
                raise IllegalAction(f"{uid} must escort the Mediterranean shipping (20.4.1 Naval Escort)", "20.4.1")
            frame.data["seen"].append(uid)
            return
        if action.kind != "fleet_allocate":
            return super().apply(eng, frame, action)
        m = str(action.args.get("mission", ""))
        why = fleet_refusal(eng, uid, m)
        if why:
            raise IllegalAction(why, "20.4")
        u = eng.state.units[uid]
        if m == "coastal":
            u.loc = COASTAL
            u.flags = dict(u.flags) | {"mission": "coastal", "mission_gt": eng.state.gt}
        else:
            u.loc = OCEAN
            u.flags = dict(u.flags) | {"mission": m, "mission_gt": eng.state.gt}
            if m == "strike":
                _add_strike(eng, ALLIED, "Italy", uid)
        frame.data["seen"].append(uid)
        eng.say(f"Allied {uid} allocated to {m} (20.4)")


on_step("IV.5", "fleet_allocation")


def escorts(eng: Engine) -> list[str]:
    return sorted(u.id for u in eng.state.units.values() if is_fleet(u.id) and u.loc == OCEAN
                  and u.flags.get("mission") == "escort" and u.flags.get("mission_gt") == eng.state.gt)


# --------------------------------------------------------------------------- strikers (19.9, 19.1)


def _blackout(eng: Engine, side: str) -> str | None:
    bl = eng.state.vars.get("malta_invasion_blackout")
    if side == AXIS and bl and eng.state.gt in bl:
        return "No Axis air missions while the Malta invasion is declared (23.2 AXC-16 e)"
    return None


def _c3_restricted(eng: Engine, uid: str) -> bool:
    """AXC-16 a): the GT 8 air units in Sicily conduct no other missions until the invasion is conducted or
    cancelled."""
    from core.rules import events
    return events.c3_air_restricted(eng, uid)   # the GT 8 air units named by the card data


def naval_air_refusal(eng: Engine, uid: str) -> str | None:
    """The checks every naval air strike makes (ocean, coastal shipping, port strikes): an air unit with a naval
    rating (19.9 Important), not based (19.1), no Axis air missions in a Malta invasion blackout (23.2 AXC-16 e),
    not one of the air units waiting for the Malta invasion (AXC-16 a).  None when it may strike."""
    u = eng.state.units.get(uid)
    c = _counter(uid)
    if u is None or c is None or c.kind != "air":
        return f"{uid} is not an air unit (19.9)"
    if not c.naval:
        return f"{uid} has no naval rating (N) (19.9 Important)"
    if u.flags.get("based"):
        return f"{uid} is based (19.1)"
    if (b := _blackout(eng, u.side)):
        return b
    if _c3_restricted(eng, uid):
        return f"{uid} waits for the Malta invasion and may not conduct other missions (23.2 AXC-16 a)"
    return None


def strike_box(eng: Engine, uid: str) -> tuple[str | None, str | None]:
    """19.1 / 19.2: (refusal, holding box name) — a naval strike flies from a holding box other than the Air
    Superiority and Available Next Turn Boxes."""
    u = eng.state.units[uid]
    box = air.holding_boxes(u.side).get(u.loc)
    if box is None or box in ("Superiority", air.AVAILABLE_NEXT):
        return (f"{uid} must be in a holding box other than the Air Superiority and Available Next Turn Boxes "
                "(19.2, 19.1)"), None
    return None, box


def striker_refusal(eng: Engine, uid: str, target: str) -> str | None:
    """Why air unit ``uid`` may not strike ``target`` (a lane or ``Malta``) now; None when it may (19.1, 19.9)."""
    if (why := naval_air_refusal(eng, uid)):
        return why
    u = eng.state.units[uid]
    why, box = strike_box(eng, uid)
    if why:
        return why
    if any(s["side"] == u.side and uid in s["units"] for s in _nv_read(eng)["strikes"]) \
            or u.flags.get("strike_gt") == eng.state.gt:
        return f"{uid} already flew a naval strike this GT (19.9)"
    if target == "Malta":
        if u.side != AXIS or box != "Sicily":
            return "Strikes on Malta are flown by Axis air units in the Sicily Box (19.1.1; 22.4)"
        if not offmap.malta_allied(eng):
            return "Malta is Axis controlled (22.4)"
        return None
    if target not in ATTACKABLE:
        return f"{target} cannot be attacked (20.2.4-20.2.6; 19.9.2 Important)"
    if LANE_OWNER[target] == u.side:
        return f"{target} is friendly shipping"
    if not cargo(eng, target):
        return f"No enemy shipping on {target} this GT (19.9.2)"
    if u.side == ALLIED:
        if target == "Italy":
            if box == "Malta" and offmap.malta_allied(eng):
                return None
            if box == "NorthAfrica" and cyrenaica_airfields(eng, ALLIED):
                return None
            return "Shipping from Italy is attacked from Malta, or from North Africa with a Cyrenaica naval airfield (20.2.1)"
        if target == "Sicily":
            if box == "Torch" and map_t_airfields(eng, ALLIED):
                return None
            return "Shipping from Sicily is attacked from the Torch Box with an Allied airfield on Map T (20.2.2)"
    else:
        if box in ("Sicily", "Crete") or (box == "NorthAfrica" and cyrenaica_airfields(eng, AXIS)):
            return None
        return "Allied Mediterranean shipping is attacked from Sicily, Crete, or North Africa with a Cyrenaica naval airfield (20.2.3)"
    return f"{uid} cannot reach {target}"


def _add_strike(eng: Engine, side: str, lane: str, uid: str) -> None:
    nv = naval_vars(eng)
    for s in nv["strikes"]:
        if s["side"] == side and s["lane"] == lane and not s["resolved"]:
            s["units"].append(uid)
            break
    else:
        nv["strikes"].append({"side": side, "lane": lane, "units": [uid], "resolved": False})
    eng.state.units[uid].flags = dict(eng.state.units[uid].flags) | {"strike_gt": eng.state.gt}


def _strike_dice(eng: Engine, side: str, lane: str, units: list[str]) -> int:
    """19.9.1 a): one die per bombardment factor, with the DRMs of the strike's source and target."""
    hits = 0
    n_esc = len(escorts(eng)) if lane == "AlliedMed" else 0
    for uid in units:
        u = eng.state.units[uid]
        from_malta = side == ALLIED and u.loc == air.box(ALLIED, "Malta")
        bonus = from_malta and cyrenaica_airfields(eng, ALLIED) >= 3
        sic = lane == "Sicily" and map_t_airfields(eng, ALLIED) >= 3
        hits += air.naval_strike(eng, [uid], escorts=n_esc, malta_bonus=bonus, sicily_bonus=sic)
    return hits


# --------------------------------------------------------------------------- loss selection (19.9.1)


def _loss_candidates(eng: Engine, data: dict) -> list[str]:
    if data["kind"] == "convoy_27":
        return convoy_27_cargo(eng, data["target_side"])   # 27.0 e) / f)
    if data["kind"] == "malta_air":
        return sorted(u.id for u in eng.state.units.values()
                      if u.side == ALLIED and u.loc == air.box(ALLIED, "Malta") and air.is_air(u.id))
    return cargo(eng, data["lane"])


def apply_cargo_hit(eng: Engine, uid: str, rule: str) -> None:
    """19.9.2: a hit on a shipping box inflicts one step loss on a combat unit or eliminates a dump, MSU or RP."""
    u = eng.state.units[uid]
    c = _counter(uid)
    if c is not None and c.kind == "combat" and u.steps > 1:
        u.steps -= 1
        eng.say(f"{uid} loses a step at sea ({rule})")
    else:
        offmap.destroy_unit(eng, uid, rule)


@procedure("strike_losses")
class StrikeLosses(Procedure):
    """19.9.1: losses are chosen alternately, the targeted player first; with Ultra (ALC-13, naval losses) and a
    1-4 the Allied player chooses all."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        d = frame.data
        left = int(d["hits"]) - int(d.get("taken", 0))
        cands = _loss_candidates(eng, d)
        if left <= 0 or not cands:
            return None
        chooser = ALLIED if d.get("ultra") else (d["target_side"] if int(d.get("taken", 0)) % 2 == 0
                                                 else other(d["target_side"]))
        if d.get("choosers"):
            chooser = d["choosers"][int(d.get("taken", 0))]   # 27.0 e): the re-roll names who selects each loss
        what = "Malta air unit to check for damage (19.9.2)" if d["kind"] == "malta_air" else "loss at sea (19.9.2)"
        opts = tuple(Option(action=Action(kind="strike_loss", side=chooser, args={"unit": u}), label=f"{u}: {what}")
                     for u in cands)
        return Decision(side=chooser, kind="strike_loss", prompt=f"Choose a {what}; {left} hit(s) to take",
                        rule=d.get("rule", "19.9.1"), options=opts, context={"lane": d.get("lane", "Malta")})

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        if action.kind != "strike_loss":
            return super().apply(eng, frame, action)
        uid = str(action.args.get("unit", ""))
        if uid not in _loss_candidates(eng, frame.data):
            raise IllegalAction(f"{uid} is not in the boxes under attack", frame.data.get("rule", "19.9.1"))
        if frame.data["kind"] == "malta_air":
            res = air.mission_damage(eng, uid)
            eng.say(f"{uid} on Malta is hit: {res} (19.9.2 Strikes on Malta; 19.3)")
        else:
            apply_cargo_hit(eng, uid, frame.data.get("rule", "19.9.2"))
        frame.data["taken"] = int(frame.data.get("taken", 0)) + 1


def _ultra(eng: Engine, target_side: str) -> bool:
    return target_side in (AXIS, ALLIED) and air.ultra_selects_losses(eng)


def _after_strike(eng: Engine, strikers: list[str], escorting: list[str]) -> None:
    """19.9.1: after all losses the striking player checks for unit damage (19.3); escorts check too (19.9.2)."""
    for uid in strikers + escorting:
        u = eng.state.units.get(uid)
        if u is None or u.loc.startswith(("track:", "box:Destroyed")) or u.loc == offmap.REMOVED:
            continue
        res = air.mission_damage(eng, uid)
        if is_fleet(uid) and not u.loc.startswith("track:"):
            u.loc = home(ALLIED)
        eng.say(f"{uid} mission damage: {res} (19.3)")


# --------------------------------------------------------------------------- IV.6 strikes on Malta


@procedure("malta_strikes")
class MaltaStrikes(Procedure):
    """4.1 IV.6; 19.9.2 Strikes on Malta; 22.4: Axis naval air units in Sicily strike the Allied air units on
    Malta, before strikes from Malta are resolved."""

    def _eligible(self, eng: Engine) -> list[str]:
        if eng.state.scenario in ("fox-killed", "oconnors-war", "sonnenblume", "trail-of-the-fox"):
            return []   # 24.0 b), 26.0 b): off-map areas (Sicily, Malta) not used
        return sorted(u.id for u in eng.state.units.values()
                      if u.side == AXIS and air.is_air(u.id) and striker_refusal(eng, u.id, "Malta") is None)

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        d = frame.data
        if d.get("resolved"):
            return None
        chosen = d.setdefault("units", [])
        seen = d.setdefault("seen", [])
        todo = [u for u in self._eligible(eng) if u not in seen]
        if not todo:
            if not chosen:
                return nothing(frame, AXIS, "Strikes on Malta: no (more) air unit can strike Malta", "4.1 IV.6; 22.4")
            return Decision(side=AXIS, kind="malta_strike", prompt=f"Resolve the strike on Malta by {', '.join(chosen)}",
                            rule="4.1 IV.6; 19.9.2",
                            options=(Option(action=Action(kind="resolve_malta_strike", side=AXIS), label="Resolve"),))
        uid = todo[0]
        return Decision(side=AXIS, kind="malta_strike", prompt=f"Strike Malta with {uid}?", rule="4.1 IV.6; 19.9.2; 22.4",
                        options=(Option(action=Action(kind="malta_strike_with", side=AXIS, args={"unit": uid}),
                                        label=f"{uid} strikes Malta"),
                                 Option(action=Action(kind="malta_strike_skip", side=AXIS, args={"unit": uid}),
                                        label=f"{uid} does not strike Malta")),
                        context={"unit": uid})

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        d = frame.data
        if not d.get("units") and took_done(frame, action):
            return
        if action.kind == "resolve_malta_strike":
            if not d.get("units"):
                raise IllegalAction("No air unit is allocated to a strike on Malta", "19.9.2")
            d["resolved"] = True
            hits = sum(air.naval_strike(eng, [u]) for u in d["units"])
            eng.say(f"Strike on Malta: {hits} hit(s) (19.9.1)")
            for u in d["units"]:
                eng.state.units[u].flags = dict(eng.state.units[u].flags) | {"strike_gt": eng.state.gt}
            d["after"] = list(d["units"])
            if hits:
                eng.push("strike_losses", kind="malta_air", hits=hits, target_side=ALLIED, ultra=_ultra(eng, ALLIED))
            else:
                _after_strike(eng, d["after"], [])
            return
        uid = str(action.args.get("unit", ""))
        if action.kind not in ("malta_strike_with", "malta_strike_skip"):
            return super().apply(eng, frame, action)
        if uid in d.get("seen", []):
            raise IllegalAction(f"{uid} has already been allocated", "19.9")
        if action.kind == "malta_strike_with":
            why = striker_refusal(eng, uid, "Malta")
            if why:
                raise IllegalAction(why, "19.9.2")
            d["units"].append(uid)
        d["seen"].append(uid)

    def resume(self, eng: Engine, frame: Frame, child: Frame) -> None:
        _after_strike(eng, frame.data.get("after", []), [])


on_step("IV.6", "malta_strikes")


# --------------------------------------------------------------------------- IV.7 / IV.8 allocation


def strike_side(eng: Engine, step: str) -> str:
    return other(eng.state.initiative) if step == "IV.7" else eng.state.initiative


def strike_options(eng: Engine, side: str, uid: str) -> list[str]:
    return [lane for lane in ATTACKABLE if striker_refusal(eng, uid, lane) is None]


@procedure("strike_allocation")
class StrikeAllocation(Procedure):
    """4.1 IV.7 (non-initiative player) / IV.8 (initiative player): allocate air units to ocean naval strikes."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        side = strike_side(eng, frame.data["step"])
        seen = frame.data.setdefault("seen", [])
        todo = [u.id for u in sorted(eng.state.units.values(), key=lambda x: x.id)
                if u.side == side and air.is_air(u.id) and u.id not in seen and strike_options(eng, side, u.id)]
        if not todo:
            return nothing(frame, side, "Allocate air units to ocean naval strikes: no (more) air unit can strike",
                           f"4.1 {frame.data['step']}; 19.9")
        uid = todo[0]
        opts = [Option(action=Action(kind="strike_skip", side=side, args={"unit": uid}), label=f"{uid}: no naval strike")]
        opts += [Option(action=Action(kind="strike_allocate", side=side, args={"unit": uid, "lane": lane}),
                        label=f"{uid} strikes the {lane} shipping") for lane in strike_options(eng, side, uid)]
        return Decision(side=side, kind="strike_allocation", prompt=f"Allocate {uid} to an ocean naval strike?",
                        rule=f"4.1 {frame.data['step']}; 19.9", options=tuple(opts), context={"unit": uid})

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        side = strike_side(eng, frame.data["step"])
        if took_done(frame, action):
            return
        uid = str(action.args.get("unit", ""))
        if action.kind not in ("strike_skip", "strike_allocate"):
            return super().apply(eng, frame, action)
        u = eng.state.units.get(uid)
        if u is None or u.side != side or uid in frame.data.get("seen", []):
            raise IllegalAction(f"{uid} is not a {side} air unit waiting for its allocation", "19.9")
        if action.kind == "strike_allocate":
            lane = str(action.args.get("lane", ""))
            why = striker_refusal(eng, uid, lane)
            if why:
                raise IllegalAction(why, "19.9")
            _add_strike(eng, side, lane, uid)
            eng.say(f"{side} allocates {uid} to a strike on the {lane} shipping (19.9)")
        frame.data.setdefault("seen", []).append(uid)


on_step("IV.7", "strike_allocation")
on_step("IV.8", "strike_allocation")


# --------------------------------------------------------------------------- IV.9 resolution


def open_strikes(eng: Engine) -> list[dict]:
    return [s for s in _nv_read(eng)["strikes"] if not s["resolved"] and cargo(eng, s["lane"])]


@procedure("strike_resolution")
class StrikeResolution(Procedure):
    """4.1 IV.9: both players resolve ocean naval strikes in any order (19.9.1, 19.9.2)."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        todo = open_strikes(eng)
        if not todo:
            for s in _nv_read(eng)["strikes"]:
                if not s["resolved"]:
                    s["resolved"] = True     # nothing left to hit; the strikers fly no mission
            done = frame.data.setdefault("done_by", [])
            waiting = [x for x in (AXIS, ALLIED) if x not in done]
            if not waiting:
                return None
            return Decision(side=EITHER if len(waiting) == 2 else waiting[0], kind="step",
                            prompt="Resolve ocean naval strikes: none (more) to resolve", rule="4.1 IV.9; 19.9",
                            options=tuple(Option(action=Action(kind="done", side=x), label=f"{x}: done") for x in waiting))
        sides = {s["side"] for s in todo}
        opts = tuple(Option(action=Action(kind="resolve_strike", side=s["side"], args={"lane": s["lane"]}),
                            label=f"{s['side']}: resolve the strike on the {s['lane']} shipping ({', '.join(s['units'])})")
                     for s in todo)
        return Decision(side=EITHER if len(sides) > 1 else sides.pop(), kind="strike_resolution",
                        prompt="Resolve ocean naval strikes in any order", rule="4.1 IV.9; 19.9", options=opts)

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        if action.kind == "done" and not open_strikes(eng):
            frame.data.setdefault("done_by", []).append(action.side)
            return
        if action.kind != "resolve_strike":
            return super().apply(eng, frame, action)
        lane = str(action.args.get("lane", ""))
        s = next((x for x in open_strikes(eng) if x["lane"] == lane and x["side"] == action.side), None)
        if s is None:
            raise IllegalAction(f"No open {action.side} strike on the {lane} shipping", "19.9")
        s["resolved"] = True
        hits = _strike_dice(eng, s["side"], lane, s["units"])
        eng.say(f"{s['side']} strike on the {lane} shipping: {hits} hit(s) (19.9.1)")
        frame.data["after"] = list(s["units"])
        frame.data["escorts"] = escorts(eng) if lane == "AlliedMed" else []
        target = LANE_OWNER[lane]
        if hits:
            eng.push("strike_losses", kind="cargo", lane=lane, hits=hits, target_side=target,
                     ultra=_ultra(eng, target))
        else:
            self.resume(eng, frame, frame)

    def resume(self, eng: Engine, frame: Frame, child: Frame) -> None:
        _after_strike(eng, frame.data.pop("after", []), frame.data.pop("escorts", []))


on_step("IV.9", "strike_resolution")


def return_ocean_fleets(eng: Engine) -> None:
    """Fleets whose ocean missions are over (or never flew) go back to the Available Next Turn Box."""
    for u in eng.state.units.values():
        if is_fleet(u.id) and u.loc == OCEAN:
            u.loc = home(u.side)


QUERIES["naval_strike_options"] = lambda eng, unit="": [t for t in ATTACKABLE + ("Malta",)
                                                        if striker_refusal(eng, unit, t) is None]
QUERIES["shipping_lanes"] = lambda eng: {k: cargo(eng, k) for k in _nv_read(eng)["lanes"]}


# --------------------------------------------------------------------------- 27.0 e) / f) convoy strikes


def convoy_27_cargo(eng: Engine, target_side: str) -> list[str]:
    """27.0 e) / f): what the replacement strikes hit this GT.  Axis: the units on their way to C0701 counting
    against the 27.1 shipping steps - waiting to arrive in a Movement Phase (27.1 "arrive at hex C0701 during any
    friendly Movement Phase", ``reinforcements.convoy_waiting``) or arrived this GT (``flags["convoy_gt"]``)
    (R-27-CONVOY-STRIKES); Allied: the cargo on the Allied Mediterranean lane (20.2.3)."""
    from core.rules import reinforcements

    if target_side == ALLIED:
        return cargo(eng, "AlliedMed")
    arrived = [u.id for u in eng.state.units.values()
               if u.side == AXIS and u.flags.get("convoy_gt") == eng.state.gt and u.loc != offmap.REMOVED
               and not u.loc.startswith("box:Destroyed")]
    return sorted(set(arrived) | set(reinforcements.convoy_waiting(eng, AXIS))) + cargo(eng, "Italy") + cargo(eng, "Sicily")


def _special_27(eng: Engine, kind: str):
    from core.rules import events
    return events.special(eng, kind)


def convoy_27_roll(eng: Engine, target_side: str, rule: str) -> list[str]:
    """27.0 e): two 1d6, each 5-6 a hit; per hit 1d6: 1-4 the targeted player selects the step or supply unit
    lost, 5-6 the other player (R-27-CONVOY-STRIKES).  Returns the chooser of each loss."""
    sp = _special_27(eng, "malta_strikes")
    p = dict(sp.params) if sp is not None else {}
    hit_on = list(p.get("hit", [5, 6]))
    owner_picks = list(p.get("axis_picks", [1, 2, 3, 4]))
    dice = eng.roll(int(p.get("dice", 2)), f"{rule}: strikes on the {target_side} convoy")
    hits = sum(1 for d in dice if d in hit_on)
    choosers = []
    for k in range(hits):
        d = eng.roll(1, f"{rule}: who selects loss {k + 1}")[0]
        choosers.append(target_side if d in owner_picks else other(target_side))
    eng.say(f"{rule}: {hits} hit(s) on the {target_side} convoy; losses selected by {', '.join(choosers) or '-'}")
    return choosers


@procedure("convoy_strikes_27")
class ConvoyStrikes27(Procedure):
    """27.0 e) (Desert Fox; Rommel's War by 32.0) in place of 19.7.2: two 1d6 for Malta strikes on the Axis
    convoys, none once the Malta invasion (AXC-16) has succeeded; f) after GT 13 the Axis player may make two
    strikes on Allied Mediterranean shipping the same way.  Run before IV.9's resolution."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        d = frame.data
        if _special_27(eng, "malta_strikes") is None:
            return None
        if not d.get("e_done"):
            d["e_done"] = True
            if not offmap.malta_allied(eng):
                eng.say("27.0 e): Malta has fallen (AXC-16); no Malta strikes on the Axis convoys")
            elif convoy_27_cargo(eng, AXIS):
                choosers = convoy_27_roll(eng, AXIS, "27.0 e")
                if choosers:
                    eng.push("strike_losses", kind="convoy_27", hits=len(choosers), target_side=AXIS,
                             choosers=choosers, rule="27.0 e", lane="Convoy")
                    return CONTINUE
        f = _special_27(eng, "med_shipping_strikes")
        if f is None or d.get("f_done"):
            return None
        if eng.state.gt <= int(dict(f.params).get("after_gt", 13)) or not convoy_27_cargo(eng, ALLIED):
            d["f_done"] = True
            return None
        return Decision(side=AXIS, kind="convoy_strike_27",
                        prompt="27.0 f): make two strikes on the Allied Mediterranean shipping?", rule="27.0 f",
                        options=(Option(action=Action(kind="convoy_strike_27", side=AXIS, args={"strike": True}),
                                        label="Strike the Allied Mediterranean shipping"),
                                 Option(action=Action(kind="convoy_strike_27", side=AXIS, args={"strike": False}),
                                        label="No strike")))

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        if action.kind != "convoy_strike_27":
            return super().apply(eng, frame, action)
        if frame.data.get("f_done") or not convoy_27_cargo(eng, ALLIED):
            raise IllegalAction("No Allied Mediterranean shipping to strike now", "27.0 f")
        frame.data["f_done"] = True
        if not action.args.get("strike"):
            eng.say("27.0 f): the Axis player makes no strikes on the Allied Mediterranean shipping")
            return
        choosers = convoy_27_roll(eng, ALLIED, "27.0 f")
        if choosers:
            eng.push("strike_losses", kind="convoy_27", hits=len(choosers), target_side=ALLIED,
                     choosers=choosers, rule="27.0 f", lane="AlliedMed")


before_step("IV.9", "convoy_strikes_27")
