"""The air missions of a friendly Movement Phase (4.1 VI.3 c): interdiction (19.6) and bombardment (19.8).

Both are actions of the movement decision (:func:`core.rules.movement.movement_action`):

* ``interdict`` {unit: air id, hex: label} — 19.6: a non-based air unit with a ground support rating of 1+, in
  a holding box whose area of operations (19.1, ``combat.air_area_ok``) holds the hex, is placed on it (it
  waits in ``box:Interdiction:<hex>``, ``air.interdict``); one air unit per hex.  Enemy units entering the
  hex and any hex within two pay the Air Interdiction Chart's extra MP (``air.interdiction_area``, read by
  the movement rules' ``trace`` and reachable-hex search, so moves, reaction moves and overruns pay it).  At
  the end of the next enemy Movement Phase (maybe in the next GT) the unit checks for damage (19.3) and, if
  undamaged, returns based side up to the holding box it flew from.
* ``air_bombard`` {unit: air id, target: enemy base / dump / MSU id, or an airfield hex} — 19.8: a non-based
  air unit with a bombardment rating of 1+ rolls 1d6 per factor, 4-6 disrupts (no modifiers; Bombardment
  Effects Chart, 8.2.1), then checks for damage (19.3); an undamaged unit is based in its holding box.
  Any number may bombard one target.  A disrupted airfield is recorded in ``vars["airfields_disrupted"]``
  (and the older ``vars["disrupted_airfields"]`` list) and recovers like a unit (8.2.1, 8.2) at the end of
  its owner's Movement Phase when in his LOS and not in an enemy ZOC.

Neither may be flown in a Ghibli-affected hex (21.2.1), from the Air Superiority Box (19.2 Exception) or the
Available Next Turn Box (19.1 Important), nor by Axis air units during the AXC-16 blackout (23.2 e).
"""

from __future__ import annotations

from collections.abc import Callable

from core.counters import all_counters
from core.decisions import AXIS, Action, IllegalAction, Option, other
from core.engine import QUERIES, Engine, at_phase_end
from core.hexgrid import Hex, HexLabelError
from core.state import Frame
from core.rules import air, movement, offmap

INTERDICT, BOMBARD = "interdict", "air_bombard"
#: holding boxes whose air units may fly missions on the map (19.1; 19.2 Exception; 19.1 Important)
NO_MISSIONS = ("Superiority", air.AVAILABLE_NEXT)


def _counter(uid: str):
    return all_counters()[offmap.base_id(uid)]


def _city_or_port(label: str) -> bool:
    """19.3: +1 to the damage roll for a mission conducted in a city or port hex."""
    from core.rules import combat

    h = combat.hex_of(label)
    return h is not None and (combat.is_city(label) or h in combat.gmap().ports)


def flyer_refusal(eng: Engine, side: str, uid: str, rating: str, rule: str) -> IllegalAction | None:
    """Why ``uid`` may not fly a mission of ``rule`` needing ``rating`` (``gs``/``bomb``) 1+ now, or None."""
    st = eng.state
    u = st.units.get(uid)
    if u is None or u.side != side or not air.is_air(uid):
        return IllegalAction(f"{uid} is not a {side} air unit", rule)
    name = _counter(uid).name
    if u.flags.get("based"):
        return IllegalAction(f"{name} is based: only non-based air units fly missions", f"{rule}; 19.1")
    box = air.holding_boxes(side).get(u.loc)
    if box is None:
        return IllegalAction(f"{name} is not in a holding box ({u.loc})", f"{rule}; 19.1")
    if box == "Superiority":
        return IllegalAction(f"{name} is in the Air Superiority Box and may not conduct other missions", "19.2 Exception")
    if box == air.AVAILABLE_NEXT:
        return IllegalAction(f"{name} is in the Available Next Turn Box: not available for missions this GT",
                             "19.1 Important")
    blackout = st.vars.get("malta_invasion_blackout")
    if side == AXIS and blackout and st.gt in blackout:
        return IllegalAction("no Axis air missions while the Malta invasion is prepared", "23.2 AXC-16 e)")
    from core.rules import events

    if events.c3_air_restricted(eng, uid):
        return IllegalAction(f"{name} came to Sicily for Operation C3 and conducts no other missions until the "
                             "invasion is conducted or cancelled", "AXC-16 a)")
    if int(getattr(_counter(uid), rating, 0) or 0) < 1:
        what = "ground support" if rating == "gs" else "bombardment"
        return IllegalAction(f"{name} has no {what} rating", rule)
    return None


def _hex(label: object, rule: str) -> Hex:
    try:
        return Hex.parse(str(label))
    except HexLabelError:
        raise IllegalAction(f"{label!r} is not a hex", rule) from None


def _area_and_weather(eng: Engine, uid: str, label: str, rule: str) -> IllegalAction | None:
    from core.rules import combat

    if not combat.air_area_ok(eng.state, uid, label):
        return IllegalAction(f"{label} is outside the area of operations of {_counter(uid).name}'s holding box",
                             f"{rule}; 19.1")
    if not air.air_mission_allowed(eng, label):
        return IllegalAction(f"air operations may not be run in Ghibli-affected hexes ({label})", "21.2.1")
    return None


# --------------------------------------------------------------------------- 19.6 Interdiction


def interdiction_refusal(eng: Engine, side: str, uid: str, label: str) -> IllegalAction | None:
    bad = flyer_refusal(eng, side, uid, "gs", "19.6")
    if bad:
        return bad
    try:
        label = _hex(label, "19.6").label
    except IllegalAction as exc:
        return exc
    held = eng.state.vars.get("interdiction", {}).get(label)
    if held:
        return IllegalAction(f"{label} is already interdicted by {held.get('unit')}: only one air unit can conduct "
                             "interdiction in a hex", "19.6")
    return _area_and_weather(eng, uid, label, "19.6")


@movement.movement_action(INTERDICT)
def act_interdict(eng: Engine, frame: Frame, action: Action) -> None:
    """19.6: place an air unit on interdiction over a hex (4.1 VI.3 c)."""
    side = frame.data["side"]
    uid, label = str(action.args.get("unit", "")), str(action.args.get("hex", ""))
    bad = interdiction_refusal(eng, side, uid, label)
    if bad:
        raise bad
    air.interdict(eng, uid, Hex.parse(label).label)


@at_phase_end
def end_interdiction(eng: Engine, phase: int) -> None:
    """19.6: at the end of the next enemy Movement Phase the air unit checks for damage (19.3); an undamaged
    one returns based side up to the holding box it flew from (its area of operations holds the hex)."""
    from core.rules import status

    recs = eng.state.vars.get("interdiction")
    if not recs or phase not in status.MOVEMENT_PHASES:
        return
    mover = status.phasing(eng, phase)
    for label in sorted(recs):
        rec = recs[label]
        if rec.get("side") == mover or (rec.get("gt"), rec.get("phase")) == (eng.state.gt, phase):
            continue
        del recs[label]
        uid = rec.get("unit")
        u = eng.state.units.get(uid or "")
        if u is None or u.loc != air.interdiction_box(label):
            continue
        res = air.mission_damage(eng, uid, city_or_port=_city_or_port(label))
        if res == "based":
            back = rec.get("box")
            u.loc = back if back in air.holding_boxes(u.side) else air.box(u.side, "NorthAfrica")
        eng.say(f"{_counter(uid).name} ends its interdiction of {label}: mission damage {res} (19.6; 19.3)")
    if not recs:
        eng.state.vars.pop("interdiction", None)


# --------------------------------------------------------------------------- 19.8 Bombardment


def airfield_owner(eng: Engine, label: str) -> str | None:
    """19.1.3: the side whose ground combat units occupy or last passed through the airfield (2.2.2)."""
    from core.rules import victory_rules

    return victory_rules.controller(eng, label)


def _is_airfield(label: str) -> bool:
    from core import mapdata

    md = mapdata.load()
    try:
        return md.has(label) and bool(md.airfield(label))
    except HexLabelError:       # a box, not a hex
        return False


def bombard_target(eng: Engine, side: str, target: str) -> tuple[str, str]:
    """(kind, hex) of a legal 19.8 target of ``side``: ``base``/``dump``/``msu`` (an enemy supply unit on the
    map) or ``airfield`` (an enemy airfield hex); else IllegalAction."""
    from core.rules.status import hex_of, supply_kind

    st = eng.state
    u = st.units.get(target)
    if u is not None:
        kind = supply_kind(u)
        if u.side == side or kind not in ("base", "dump", "msu") or hex_of(u) is None or u.captured:
            raise IllegalAction(f"{target} is not an enemy base, dump or MSU on the map: air units bombard enemy "
                                "bases, dumps, MSU or airfields", "19.8")
        return kind, u.loc
    try:
        label = Hex.parse(target).label
    except HexLabelError:
        raise IllegalAction(f"{target!r} is neither a unit nor a hex", "19.8") from None
    if not _is_airfield(label):
        raise IllegalAction(f"{label} has no airfield", "19.8; 19.1.3")
    if airfield_owner(eng, label) != other(side):
        raise IllegalAction(f"the airfield at {label} is not enemy friendly", "19.8; 19.1.3")
    return "airfield", label


def bombard_refusal(eng: Engine, side: str, uid: str, target: str) -> IllegalAction | None:
    bad = flyer_refusal(eng, side, uid, "bomb", "19.8")
    if bad:
        return bad
    try:
        _kind, label = bombard_target(eng, side, target)
    except IllegalAction as exc:
        return exc
    return _area_and_weather(eng, uid, label, "19.8")


def airfield_disrupted(eng: Engine, label: str) -> bool:
    st = eng.state
    return label in st.vars.get("airfields_disrupted", {}) or label in st.vars.get("disrupted_airfields", [])


def disrupt_airfield(eng: Engine, label: str, rule: str) -> None:
    """8.2.1: a disrupted airfield is inoperable — no benefits (19.5 support, 19.1.1 a / 19.1.2 c naval
    airfields) and no air landing (19.1.3 Important)."""
    st = eng.state
    st.vars.setdefault("airfields_disrupted", {})[label] = {"gt": st.gt, "rule": rule}
    lst = list(st.vars.get("disrupted_airfields", []))
    if label not in lst:
        st.vars["disrupted_airfields"] = lst + [label]


@movement.movement_action(BOMBARD)
def act_bombard(eng: Engine, frame: Frame, action: Action) -> None:
    """19.8: bombard an enemy base, dump, MSU or airfield (4.1 VI.3), then the damage check (19.3)."""
    from core import charts
    from core.rules.status import disrupt

    side = frame.data["side"]
    uid, target = str(action.args.get("unit", "")), str(action.args.get("target", ""))
    bad = bombard_refusal(eng, side, uid, target)
    if bad:
        raise bad
    kind, label = bombard_target(eng, side, target)
    name = _counter(uid).name
    dice = eng.roll(int(_counter(uid).bomb), f"19.8 bombardment of {target} by {name}")
    hit = charts.bombardment_hits(dice) > 0
    what = f"the airfield at {label}" if kind == "airfield" else f"the {kind} in {label}"
    eng.say(f"{name} bombards {what}: {dice} — {'disrupted' if hit else 'no effect'} (19.8)")
    if hit:
        effect = charts.bombardment_effect(kind)["text"]
        if kind == "airfield":
            if not airfield_disrupted(eng, label):
                disrupt_airfield(eng, label, "19.8")
        else:
            disrupt(eng, target, f"bombarded ({effect})", "19.8; 8.2.1")
    res = air.mission_damage(eng, uid, city_or_port=_city_or_port(label))
    eng.say(f"{name}: mission damage {res} (19.3)")


@at_phase_end
def recover_airfields(eng: Engine, phase: int) -> None:
    """8.2.1: facilities recover like combat units (8.2): a disrupted airfield recovers at the end of its
    owner's Movement Phase when it is in his LOS (GenS) and not in an enemy ZOC."""
    from core.rules import status, supply, zoc

    st = eng.state
    marked = set(st.vars.get("airfields_disrupted", {})) | set(st.vars.get("disrupted_airfields", []))
    if not marked or phase not in status.MOVEMENT_PHASES:
        return
    side = status.phasing(eng, phase)
    mine = sorted(lab for lab in marked if airfield_owner(eng, lab) == side)
    if not mine or side is None:
        return
    lines = supply.supply_lines(st, side)
    ez = zoc.zoc_hexes(st, other(side))
    for lab in mine:
        rec = st.vars.get("airfields_disrupted", {}).get(lab) or {}
        if (rec.get("gt"), rec.get("phase")) == (st.gt, phase):
            continue
        h = Hex.parse(lab)
        if h in lines.los and h not in ez:
            st.vars.get("airfields_disrupted", {}).pop(lab, None)
            st.vars["disrupted_airfields"] = [x for x in st.vars.get("disrupted_airfields", []) if x != lab]
            eng.say(f"The airfield at {lab} recovers from disruption (8.2.1)")


# --------------------------------------------------------------------------- options for the movement decision


def _flyers(eng: Engine, side: str, rating: str, rule: str, limit: int | None = None) -> list[str]:
    """``side``'s air units that may fly a mission of ``rule`` now, in id order (``limit``: the first few only,
    the others not judged)."""
    out: list[str] = []
    for u in sorted(eng.state.units.values(), key=lambda x: x.id):
        if u.side == side and air.is_air(u.id) and flyer_refusal(eng, side, u.id, rating, rule) is None:
            out.append(u.id)
            if len(out) == limit:
                break
    return out


def _sample(flyers: list[str], targets: list[str], limit: int, allowed: Callable[[str, str], bool],
            option: Callable[[str, str], Option]) -> list[Option]:
    """Up to ``limit`` missions: each of the first two flyers on the first target ``allowed`` for it."""
    out: list[Option] = []
    for uid in flyers[:2]:
        for t in targets:
            if allowed(uid, t):
                out.append(option(uid, t))
                break
        if len(out) >= limit:
            break
    return out


def interdiction_options(eng: Engine, side: str, limit: int = 1) -> list[Option]:
    """A few interdictions over enemy combat units' hexes (every one accepted by ``interdict``)."""
    from core.rules.status import hex_of, is_combat

    flyers = _flyers(eng, side, "gs", "19.6", limit=2)      # _sample offers the first two
    if not flyers:
        return []
    enemy = sorted({u.loc for u in eng.state.units.values()
                    if u.side == other(side) and is_combat(u) and hex_of(u) is not None})
    return _sample(
        flyers, enemy, limit, lambda uid, lab: interdiction_refusal(eng, side, uid, lab) is None,
        lambda uid, lab: Option(action=Action(kind=INTERDICT, side=side, args={"unit": uid, "hex": lab}),
                                label=f"{_counter(uid).name} interdicts around {lab} (19.6)"))


def bombard_targets(eng: Engine, side: str) -> list[str]:
    """Enemy bases, dumps and MSU on the map, then enemy airfields (19.8), not already disrupted."""
    from core.rules.status import hex_of, supply_kind

    st = eng.state
    out = [u.id for u in sorted(st.units.values(), key=lambda x: x.id)
           if u.side == other(side) and supply_kind(u) in ("base", "dump", "msu") and hex_of(u) is not None
           and not u.captured and not u.disrupted]
    from core import mapdata

    fields = [h.label for h in mapdata.load().airfields()]
    out += [lab for lab in fields if not airfield_disrupted(eng, lab) and airfield_owner(eng, lab) == other(side)]
    return out


def bombard_options(eng: Engine, side: str, limit: int = 2) -> list[Option]:
    flyers = _flyers(eng, side, "bomb", "19.8", limit=2)
    if not flyers:
        return []
    targets = bombard_targets(eng, side)
    return _sample(
        flyers, targets, limit, lambda uid, t: bombard_refusal(eng, side, uid, t) is None,
        lambda uid, t: Option(action=Action(kind=BOMBARD, side=side, args={"unit": uid, "target": t}),
                              label=f"{_counter(uid).name} bombards {t} (19.8)"))


@movement.movement_options
def air_mission_options(eng: Engine, frame: Frame, side: str) -> list[Option]:
    """4.1 VI.3 c: at most three sampled air missions (one interdiction, two bombardments)."""
    return interdiction_options(eng, side, 1) + bombard_options(eng, side, 2)


QUERIES["air_mission_units"] = lambda eng, side=AXIS, mission=INTERDICT: (
    _flyers(eng, side, "gs", "19.6") if mission == INTERDICT else _flyers(eng, side, "bomb", "19.8"))
QUERIES["bombard_targets"] = lambda eng, side=AXIS, unit="": [
    t for t in bombard_targets(eng, side) if not unit or bombard_refusal(eng, side, unit, t) is None]
