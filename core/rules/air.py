"""19.0 Air operations: deployment (19.1), air superiority (19.2), mission damage (19.3), bombardment
(19.8), interdiction (19.6), naval air strikes (19.9, resolution used by ``naval.py``), the based/available
flip after Phase XVII, and the Ghibli ban on air operations (21.2.1).

Holding boxes are ``box:Air:<Side>:<Box>``; the Turn Record Track is ``track:TRT:<gt>`` (19.3).
"""

from __future__ import annotations

from core.counters import all_counters
from core.decisions import ALLIED, AXIS, Action, Decision, IllegalAction, Option, done_step, item_decision, other
from core.engine import QUERIES, Engine, OneByOne, auto_step, on_step, procedure
from core.state import Frame
from core.rules import offmap

AXIS_BOXES = ("NorthAfrica", "Sicily", "Crete", "Superiority")      # 19.1.1
ALLIED_BOXES = ("NorthAfrica", "Malta", "Torch", "NRV", "Superiority")  # 19.1.2
AVAILABLE_NEXT = "AvailableNext"


#: holding-box ids (docs/data.d/counters-scenarios.md "Box and track ids")
_BOX_IDS = {"NorthAfrica": "box:AirNA:{s}", "Superiority": "box:AirSuperiority:{s}",
            AVAILABLE_NEXT: "box:AvailableNextTurn:{s}", "Sicily": "box:Sicily", "Crete": "box:Crete",
            "Malta": "box:Malta", "Torch": "box:Torch", "NRV": "box:NRV"}


def box(side: str, name: str) -> str:
    return _BOX_IDS[name].format(s=side)


def holding_boxes(side: str) -> dict[str, str]:
    """19.1: loc -> box name of the side's holding boxes (and the Available Next Turn Box)."""
    names = (AXIS_BOXES if side == AXIS else ALLIED_BOXES) + (AVAILABLE_NEXT,)
    return {box(side, n): n for n in names}


def is_air(uid: str) -> bool:
    c = all_counters().get(offmap.base_id(uid))
    return bool(c and c.kind in ("air",))


def canon_air_loc(side: str, loc: str) -> str:
    """Map the usual spellings of air holding boxes (scenario data) onto ``box:Air:<Side>:<Box>``."""
    if loc in holding_boxes(side) or loc.startswith("track:") or loc == offmap.REMOVED:
        return loc
    low = "".join(ch for ch in loc.lower() if ch.isalnum())
    for key, name in (("superiority", "Superiority"), ("availablenext", AVAILABLE_NEXT), ("nextturn", AVAILABLE_NEXT),
                      ("northafrica", "NorthAfrica"), ("libya", "NorthAfrica"), ("sicily", "Sicily"), ("crete", "Crete"),
                      ("malta", "Malta"), ("torch", "Torch"), ("nrv", "NRV"), ("nile", "NRV")):
        if key in low:
            return box(side, name)
    return loc


def legal_boxes(eng: Engine, uid: str) -> list[str]:
    """19.1.1 / 19.1.2 / 22.x: the holding boxes this air unit may be deployed to now."""
    from core.rules import events
    u = eng.state.units[uid]
    c = all_counters()[offmap.base_id(uid)]
    if events.c3_air_restricted(eng, uid):
        return [box(AXIS, "Sicily")]   # 23.2 AXC-16 a): only deployed in Sicily until the invasion
    out = []
    if u.side == AXIS:
        for name in AXIS_BOXES:
            if name == "NorthAfrica" and c.nationality == "GE" and not events.afrika_korps(eng):
                continue   # 19.1.1 Important
            if name == "Crete" and not events.in_effect(eng, "AXC-13"):
                continue   # 19.1.1 Crete Box: once AXC-13 is in play
            if name == "Sicily" and eng.state.scenario in ("fox-killed", "oconnors-war", "sonnenblume", "trail-of-the-fox"):
                continue   # 24.0 b), 26.0 b): off-map areas not used
            out.append(box(AXIS, name))
    else:
        for name in ALLIED_BOXES:
            if name == "Malta" and (c.range == "L" or not offmap.malta_allied(eng)):
                continue   # 19.1.2 Important; 23.2 AXC-16 g)
            if name == "Malta" and eng.state.scenario in ("fox-killed", "oconnors-war", "sonnenblume"):
                continue
            if name == "Torch" and not (offmap.fna_in_play(eng) or events.played(eng, "ALC-21")):
                continue   # 20.2.5
            out.append(box(ALLIED, name))
    out += met_boxes(eng, u.side)
    return out


def met_boxes(eng: Engine, side: str) -> list[str]:
    """22.2.1: Allied air units may be committed to any active track but the Pacific; Axis air units to MET
    Greece while active, and to Syria, SW Asia and Levant once AXC-13 is in play (19.1.1 Crete Box b)."""
    from core.rules import events, met
    out = []
    for name in met.TRACKS:
        if not met.track(eng, name) or name == "Pacific":
            continue
        if side == AXIS and not (name == "Greece" or (name in ("Syria", "SW Asia", "Levant")
                                                     and events.in_effect(eng, "AXC-13"))):
            continue
        out.append(met.track_box(name))
    return out


def deployable(eng: Engine, side: str) -> list[str]:
    """19.1: non-based air units in a holding box or the Available Next Turn Box (not arriving this GT)."""
    st = eng.state
    out = []
    for u in sorted(st.units.values(), key=lambda x: x.id):
        if u.side != side or not is_air(u.id) or u.flags.get("based"):
            continue
        if u.loc not in holding_boxes(side) and not u.loc.startswith("track:MET"):
            continue
        if u.loc == box(side, AVAILABLE_NEXT) and int(u.flags.get("available_gt", 0)) > st.gt:
            continue
        out.append(u.id)
    return out


def normalise(eng: Engine) -> None:
    """Bring air units placed by set-up data into the canonical boxes; return TRT units due this GT (19.3)."""
    st = eng.state
    for u in st.units.values():
        if not is_air(u.id):
            continue
        if u.loc.startswith("track:TRT:"):
            if int(u.loc.rsplit(":", 1)[1]) <= st.gt:
                u.loc = box(u.side, AVAILABLE_NEXT)
                u.flags = dict(u.flags) | {"available_gt": st.gt}
            continue
        new = canon_air_loc(u.side, u.loc)
        if new != u.loc and new in holding_boxes(u.side):
            u.loc = new


@procedure("air_deploy")
class AirDeploy(OneByOne):
    """4.1 II.1 (non-initiative player) / II.2 (initiative player): deploy air units (19.1)."""

    first, stay, move_kind = "II.1", "air_stay", "air_deploy"
    eligible = staticmethod(deployable)

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        if frame.data.get("done"):
            return None
        normalise(eng)
        side = self.side(eng, frame)
        seen: list[str] = frame.data.setdefault("seen", [])
        todo = [u for u in deployable(eng, side) if u not in seen]
        if not todo:
            return done_step(side, "Air Superiority Phase: no (more) air units to deploy",
                             f"4.1 {frame.data['step']}; 19.1")
        uid = todo[0]
        here = eng.state.units[uid].loc
        return item_decision(
            side, "air_deploy", f"Deploy air unit {uid} ({len(todo)} to go)", f"4.1 {frame.data['step']}; 19.1",
            Option(action=Action(kind="air_stay", side=side, args={"unit": uid}), label=f"{uid}: stay in {here}"),
            [Option(action=Action(kind="air_deploy", side=side, args={"unit": uid, "to": b}), label=f"{uid} to {b}")
             for b in legal_boxes(eng, uid) if b != here], context={"unit": uid})

    def refusal(self, uid: str, side: str) -> IllegalAction:
        return IllegalAction(f"{uid} is not a non-based {side} air unit that can deploy now", "19.1")

    def move(self, eng: Engine, frame: Frame, side: str, uid: str, action: Action) -> None:
        to = str(action.args.get("to", ""))
        if to not in legal_boxes(eng, uid):
            if events_c3(eng, uid):
                raise IllegalAction(f"{uid} may only be deployed in Sicily until the Malta invasion is "
                                    "conducted or cancelled", "23.2 AXC-16 a")
            raise IllegalAction(f"{uid} may not be deployed to {to} now", "19.1.1; 19.1.2")
        eng.state.units[uid].loc = to
        frame.data["seen"].append(uid)
        eng.say(f"{side} deploys {uid} to {to} (19.1)")


def events_c3(eng: Engine, uid: str) -> bool:
    from core.rules import events
    return events.c3_air_restricted(eng, uid)


on_step("II.1", "air_deploy")
on_step("II.2", "air_deploy")


def superiority_count(eng: Engine, side: str) -> int:
    """19.2: air units in all holding boxes except Available Next Turn; the Air Superiority Box counts double."""
    if side == AXIS and eng.state.vars.get("malta_invasion_blackout") and eng.state.gt in eng.state.vars["malta_invasion_blackout"]:
        return 0   # 23.2 AXC-16 e): no Axis air missions (R-AIR-C3)
    n = 0
    for u in eng.state.units.values():
        name = holding_boxes(side).get(u.loc)
        if u.side != side or not is_air(u.id) or name is None:
            continue
        if name == AVAILABLE_NEXT:
            continue
        n += 2 if name == "Superiority" else 1
    return n


@auto_step("II.3")
def air_superiority(eng: Engine) -> None:
    """4.1 II.3; 19.2: the side with the larger count has air superiority; the difference feeds the initiative DR."""
    a, b = superiority_count(eng, AXIS), superiority_count(eng, ALLIED)
    st = eng.state
    if a == b:
        st.air_superiority, st.air_superiority_margin = None, 0
        eng.say(f"Air superiority: Axis {a}, Allied {b}: nobody has air superiority (19.2)")
    else:
        st.air_superiority = AXIS if a > b else ALLIED
        st.air_superiority_margin = abs(a - b)
        eng.say(f"Air superiority: Axis {a}, Allied {b}: {st.air_superiority} by {abs(a - b)} (19.2)")


@auto_step("XVII.2")
def flip_based(eng: Engine) -> None:
    """4.1 XVII Important; 19.1: based air units (and in-port fleets) flip to their available side."""
    for u in eng.state.units.values():
        if u.flags.get("based") or u.flags.get("in_port"):
            u.flags = {k: v for k, v in u.flags.items() if k not in ("based", "in_port")}


def to_trt(eng: Engine, uid: str, gt: int, rule: str) -> None:
    eng.state.units[uid].loc = f"track:TRT:{gt}"
    eng.say(f"{uid} is placed on the Turn Record Track, GT {gt} ({rule})")


def mission_damage(eng: Engine, uid: str, *, city_or_port: bool = False) -> str:
    """19.3 Air and Naval Loss Table: 2d6, +1 if the opponent has air superiority, +1 in a city/port hex.
    8 or less: based/in-port side up in its box; 9-10: TRT next GT; 11+: TRT in two GTs."""
    u = eng.state.units[uid]
    d = eng.roll(2, f"19.3 mission damage for {uid}")
    mod = (1 if eng.state.air_superiority == other(u.side) else 0) + (1 if city_or_port else 0)
    total = sum(d) + mod
    if total <= 8:
        u.flags = dict(u.flags) | ({"based": True} if is_air(uid) else {"in_port": True})
        return "based"
    later = 1 if total <= 10 else 2
    to_trt(eng, uid, eng.state.gt + later, "19.3")
    return f"trt+{later}"


def bombard(eng: Engine, uid: str, target: str) -> bool:
    """19.8: 1d6 per bombardment factor; the target is disrupted on 4-6; no modifiers."""
    c = all_counters()[offmap.base_id(uid)]
    if not air_mission_allowed(eng, eng.state.units[target].loc):
        raise IllegalAction("Air operations may not be run in Ghibli-affected hexes", "21.2.1")
    dice = eng.roll(max(1, c.bomb), f"19.8 bombardment by {uid}")
    hit = any(d >= 4 for d in dice)
    if hit:
        eng.state.units[target].disrupted = True
        eng.say(f"{target} is disrupted by bombardment (19.8)")
    return hit


def interdict(eng: Engine, uid: str, hex_label: str) -> None:
    """19.6: put ``uid`` on interdiction over ``hex_label`` (the checks are ``air_missions.interdiction_refusal``).
    The record ``vars["interdiction"][hex]`` = {side, unit, gt, phase, box, gs} lasts until the end of the next
    enemy Movement Phase (``air_missions``); the unit waits in ``box:Interdiction:<hex>`` meanwhile."""
    if not air_mission_allowed(eng, hex_label):
        raise IllegalAction("Air operations may not be run in Ghibli-affected hexes", "21.2.1")
    u = eng.state.units[uid]
    c = all_counters()[offmap.base_id(uid)]
    eng.state.vars.setdefault("interdiction", {})[hex_label] = {
        "side": u.side, "unit": uid, "gt": eng.state.gt, "phase": eng.state.phase, "box": u.loc, "gs": int(c.gs)}
    u.loc = interdiction_box(hex_label)
    eng.say(f"{c.name} interdicts around {hex_label} until the end of the next {other(u.side)} Movement Phase (19.6)")


def interdiction_box(hex_label: str) -> str:
    """Where an air unit on interdiction over ``hex_label`` waits (off the hex grid: not a ground unit)."""
    return f"box:Interdiction:{hex_label}"


#: the movement classes of the TEC (9.0, 13.3; SF 15.4, desert raiders 16.1) the chart is read for
INTERDICTION_CLASSES = ("foot", "horsed", "trucked", "mechanised", "sf", "raider")


def interdiction_area(state, mover_side: str) -> dict[str, dict[str, int]]:
    """19.6 / Air Interdiction Chart: hex label -> {movement class: extra MP} for units of ``mover_side``
    entering the hexes interdicted by the other side and any hex within two of them (hexside costs are not
    affected).  Where several interdicted hexes reach a hex only the highest cost counts, as only one air
    unit may affect a hex (R-AIR-INTERDICTION).  The chart's note adds 1 at distance 0 for each ground support
    factor above 1."""
    from core import charts
    from core.hexgrid import Hex, HexLabelError

    recs = state.vars.get("interdiction")
    if not recs:
        return {}
    bonus_note = "ground_support_rating_adds" in charts.interdiction_chart().notes
    out: dict[str, dict[str, int]] = {}
    for lab, rec in sorted(recs.items()):
        if rec.get("side") == mover_side:
            continue
        try:
            centre = Hex.parse(lab)
        except HexLabelError:
            continue
        gs_bonus = max(0, int(rec.get("gs", 1)) - 1) if bonus_note else 0
        for h in centre.within(2):
            d = centre.distance(h)
            costs = out.setdefault(h.label, {})
            for cls in INTERDICTION_CLASSES:
                mp = charts.interdiction_cost(d, cls) + (gs_bonus if d == 0 else 0)
                costs[cls] = max(costs.get(cls, 0), mp)
    return out


def interdiction_cost(eng: Engine, hex_label: str, mover: str, move_class: str = "mechanised") -> int:
    """19.6: the extra MP a ``mover`` unit of ``move_class`` pays to enter ``hex_label`` (Air Interdiction Chart)."""
    return interdiction_area(eng.state, mover).get(hex_label, {}).get(move_class, 0)


def interdiction_overlay(eng: Engine) -> dict[str, dict[str, str]]:
    """GUI overlay: every hex where enemy movement pays interdiction MP (19.6), the extra MP of a mechanised
    unit as text (foot and horsed units may pay less: Air Interdiction Chart) in the interdicting side's colour."""
    out: dict[str, dict[str, str]] = {}
    for side in (AXIS, ALLIED):
        centres = {lab for lab, rec in eng.state.vars.get("interdiction", {}).items() if rec.get("side") == side}
        for lab, costs in interdiction_area(eng.state, other(side)).items():
            mp = max(costs.values())
            if mp:
                out[lab] = {"text": ("✈ " if lab in centres else "") + f"+{mp} MP", "side": side}
    return out


def air_mission_allowed(eng: Engine, hex_label: str) -> bool:
    """21.2.1: no air operations in Ghibli-affected hexes."""
    from core.rules import weather
    return not weather.ghibli_affects(eng, hex_label)


def naval_strike(eng: Engine, attackers: list[str], *, port: bool = False, escorts: int = 0,
                 malta_bonus: bool = False, sicily_bonus: bool = False) -> int:
    """19.9.1: 1d6 per bombardment factor; +1 port box, +2 Malta with the Cyrenaica airfields Allied, +1 vs
    Sicily shipping with 3+ Map T airfields Allied, -1 per escorting fleet; 5-6 hits."""
    mod = (1 if port else 0) + (2 if malta_bonus else 0) + (1 if sicily_bonus else 0) - escorts
    hits = 0
    for uid in attackers:
        c = all_counters()[offmap.base_id(uid)]
        if c.kind == "air" and not c.naval:
            raise IllegalAction(f"{uid} has no naval rating (N)", "19.9 Important")
        for d in eng.roll(max(1, c.bomb), f"19.9.1 naval strike by {uid}"):
            if d + mod >= 5:
                hits += 1
    return hits


def ultra_selects_losses(eng: Engine) -> bool:
    """19.9.1 Important: with Ultra in effect the Allied player rolls 1d6; 1-4: he selects all losses."""
    u = eng.state.vars.get("ultra")
    if not u or u.get("gt") != eng.state.gt or u.get("benefit") != "naval_losses":
        return False
    return eng.roll(1, "Ultra loss selection (19.9.1)")[0] <= 4


QUERIES["air_superiority"] = lambda eng: {"Axis": superiority_count(eng, AXIS), "Allied": superiority_count(eng, ALLIED)}
QUERIES["interdiction_cost"] = lambda eng, hex="", side=AXIS, move_class="mechanised": (
    interdiction_cost(eng, hex, side, move_class) if hex else interdiction_overlay(eng))
QUERIES["air_mission_allowed"] = lambda eng, hex="": air_mission_allowed(eng, hex)
