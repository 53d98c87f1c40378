"""15.5 airborne drops, orders of the friendly Movement Phase (4.1 VI.3).

``airdrop`` {unit, to}: an airborne drop capable unit (15.5 Important; all SF, 15.4; ``airdrop_capable``) that
starts the Movement Phase "in an off-map box listed in 13.7" (``transport.AIRLIFT_FROM``: Sicily, Italy, Crete;
NRV, Torch; from Crete only AXC-13's GT 27 list from GT 28 on, onto a friendly airfield, 22.3 and AXC-19 c,
R-CRETE-LEAVE) "or in an on-map friendly city or airfield hex" is airlifted by ATP (13.7 d: one unit of one or two
steps per ATP; 15.10: two ATP per divisional step; ``vars["atp"][side]``, 19.7) to "any clear, desert or rough hex"
(Airborne Drop Chart ``terrain_allowed``) "within range (13.7)" from an off-map box (13.7 a, b: "to the hex
grid", no other range: any hex of the map, R-AIRDROP) or "on the same or an adjacent map" from an on-map
hex.  "The drop hex may not be enemy occupied, but may be in an EZOC."  Each unit makes a morale check with the
chart's DRMs (failure: disrupted), "may not move after conducting the drop" (13.7 c) and "ha[s] emergency supply
for the impulse of the drop (12.7)".

``fall_braun_drop`` {unit, to}: the same drop from the Fall Braun Box onto Map T (23.2 AXC-19 b) while AXC-19 and
French North Africa are in play (22.7).  R-AXC19B-DROP.
"""

from __future__ import annotations

import functools

from core.counters import all_counters
from core.decisions import AXIS, Action, IllegalAction, Option, other
from core.engine import QUERIES, Engine
from core.hexgrid import Hex, HexLabelError
from core.rules import movement, offmap, tec
from core.state import Frame

RULE = "23.2 AXC-19 b; 15.5"
KIND = "fall_braun_drop"
DROP = "airdrop"


def _md():
    from core import mapdata
    return mapdata.load()


def droppers(eng: Engine) -> list[str]:
    """Airborne drop capable Axis units in the Fall Braun Box that may drop now (AXC-19 b)."""
    from core.rules import events
    if events.status(eng, "AXC-19") != "in_play" or not offmap.fna_in_play(eng):
        return []
    out = []
    for u in sorted(eng.state.units.values(), key=lambda x: x.id):
        c = all_counters().get(offmap.base_id(u.id))
        if u.side == AXIS and u.loc == offmap.FALL_BRAUN and c is not None and c.kind == "combat" and c.airdrop_capable:
            out.append(u.id)
    return out


def atp_left(eng: Engine) -> int:
    return int(eng.state.vars.get("atp", {}).get(AXIS, 0))


@functools.lru_cache(maxsize=1)
def _map_t() -> dict[str, str]:
    """Map T's hexes: label -> in-hex terrain."""
    md = _md()
    return {h.label: md.terrain(h) for h in md.hexes() if h.label.startswith("T")}


def drop_terrain_refusal(eng: Engine, side: str, label: str) -> str | None:
    """15.5: "any clear, desert, or rough hex" of the maps in play (the scenario's "Maps in Play"); "The drop hex
    may not be enemy occupied, but may be in an EZOC"."""
    from core import charts
    from core.rules import fna
    try:
        h = Hex.parse(label)
    except HexLabelError:
        return f"{label!r} is not a hex"
    md = _md()
    if not md.has(h):
        return f"{label} is not a hex of the map"
    off = offmap.map_refusal(eng.state, h.label)
    if off:
        return off
    terrain = md.terrain(h)
    allowed = charts.drop_chart().terrain_allowed
    if terrain not in allowed:
        return f"{label} is {terrain}: drops are made on {', '.join(allowed)} hexes"
    if any(fna.hostile(u, side) for u in eng.state.units_at(h.label)):
        return f"{label} is enemy occupied"
    return None


def drop_hex_refusal(eng: Engine, label: str) -> str | None:
    """AXC-19 b: a Map T hex that 15.5 allows."""
    if not str(label).upper().startswith("T"):
        return f"{label} is not on Map T: the Fall Braun airborne units drop on Map T"
    return drop_terrain_refusal(eng, AXIS, label)


def drop_drm(eng: Engine, label: str, side: str = AXIS) -> int:
    """The Airborne Drop Chart's DRMs that apply to a drop on ``label``."""
    from core import charts
    from core.rules import zoc
    h = Hex.parse(label)
    conds = []
    if _md().terrain(h) == "rough":
        conds.append("rough")
    if h in zoc.zoc_hexes(eng.state, other(side)):
        conds.append("in_ezoc")
    if eng.state.air_superiority not in (None, side):
        conds.append("enemy_air_superiority")
    return charts.airborne_drop_drm(*conds)


def atp_cost(eng: Engine, uid: str) -> int:
    """13.7 d: one ATP per unit (one or two steps); 15.10: two per step of a division."""
    c = all_counters()[offmap.base_id(uid)]
    return 2 * eng.state.units[uid].steps if c.divisional else 1


def atp_of(eng: Engine, side: str) -> int:
    return int(eng.state.vars.get("atp", {}).get(side, 0))


def drop(eng: Engine, frame: Frame, side: str, uid: str, to: str, rule: str) -> None:
    """Carry out a validated drop: spend the ATP, place the unit, emergency supply for the impulse, no further
    movement, the morale check (15.5)."""
    from core.rules import status
    st = eng.state
    need = atp_cost(eng, uid)
    if atp_of(eng, side) < need:
        raise IllegalAction(f"the drop needs {need} ATP; {side} has {atp_of(eng, side)}", "13.7 d; 19.7")
    to = Hex.parse(to).label
    src = st.units[uid].loc
    atp = dict(st.vars.get("atp", {}))
    atp[side] = int(atp.get(side, 0)) - need
    st.vars["atp"] = atp
    u = st.units[uid]
    u.loc = to
    u.reserve = False
    u.emergency = True                                        # 15.5: emergency supply for the impulse (12.7)
    u.flags = dict(u.flags) | {"emergency_gt_phase": [st.gt, st.phase], "airdrop_gt": st.gt}
    frame.data.setdefault("moved", {})[uid] = max(status.movement_allowance(u), 1) * tec.EIGHTH   # 13.7 c), 15.5
    eng.say(f"{uid} is airdropped from {src} on {to} with {need} ATP ({atp[side]} left) ({rule})")
    if not status.morale_check(eng, uid, drop_drm(eng, to, side), why="airborne drop, 15.5"):
        status.disrupt(eng, uid, "failed the airborne drop morale check", "15.5")


@movement.movement_action(KIND)
def act_drop(eng: Engine, frame: Frame, action: Action) -> None:
    """AXC-19 b): airdrop a unit from the Fall Braun Box onto Map T."""
    side = frame.data.get("side", action.side)
    uid, to = str(action.args.get("unit", "")), str(action.args.get("to", ""))
    if side != AXIS:
        raise IllegalAction("Only the Axis player drops from the Fall Braun Box", RULE)
    if uid not in droppers(eng):
        raise IllegalAction(f"{uid} is not an airborne unit in the Fall Braun Box that may drop now "
                            "(AXC-19 in play, French North Africa in play)", RULE)
    why = drop_hex_refusal(eng, to)
    if why:
        raise IllegalAction(why, RULE)
    if atp_left(eng) < 1:
        raise IllegalAction("No Axis air transport point is available for the drop", "23.2 AXC-19 b; 13.7 d")
    drop(eng, frame, AXIS, uid, to, RULE)


# --------------------------------------------------------------------------- 15.5 airdrops in general


def _friendly_field(eng: Engine, side: str, label: str) -> bool:
    """15.5 / 13.7 Important: an on-map friendly city or airfield hex."""
    from core.rules import victory_rules
    try:
        h = Hex.parse(label)
    except HexLabelError:
        return False
    md = _md()
    return md.has(h) and bool(md.is_city(h) or md.airfield(h)) and victory_rules.controller(eng, h.label) == side


def start_refusal(eng: Engine, frame: Frame, side: str, uid: str) -> str | None:
    """Why ``uid`` may not drop this phase (None: it may)."""
    from core.rules import transport
    u = eng.state.units.get(uid)
    c = all_counters().get(offmap.base_id(uid)) if u is not None else None
    if u is None or u.side != side or c is None:
        return f"{uid} is not a {side} unit"
    if c.kind != "combat" or not c.airdrop_capable:
        return f"{uid} is not airborne drop capable (15.5 Important: the listed airborne units and all SF)"
    if uid in frame.data.get("moved", {}) or u.flags.get("battle"):
        return f"{uid} has moved this phase: a dropping unit starts the Movement Phase where it drops from"
    if u.loc == offmap.CRETE:
        from core.rules import strategic_moves
        return strategic_moves.crete_airlift_refusal(eng, uid)       # 22.3; AXC-19 c) (R-CRETE-LEAVE)
    if u.loc in transport.AIRLIFT_FROM[side] or _friendly_field(eng, side, u.loc):
        return None
    return (f"{uid} is in {u.loc}: units making an airdrop start the Movement Phase in "
            f"{', '.join(transport.AIRLIFT_FROM[side])} or an on-map friendly city or airfield hex")


def _hex_label(label: str) -> str | None:
    try:
        return Hex.parse(label).label
    except HexLabelError:
        return None


def airdrop_refusal(eng: Engine, frame: Frame, side: str, uid: str, to: str) -> str | None:
    why = start_refusal(eng, frame, side, uid)
    if why:
        return why
    src = eng.state.units[uid].loc
    if not src.startswith("box:") and _hex_label(to):
        from core.rules.combat import MAP_ADJ
        dest = _hex_label(to)[:1]
        if dest != src[:1] and dest not in MAP_ADJ.get(src[:1], ""):
            return f"from {src} a drop reaches Map {src[:1]} or an adjacent map ({', '.join(MAP_ADJ.get(src[:1], ''))})"
    if src == offmap.CRETE and not (_hex_label(to) and _friendly_field(eng, side, _hex_label(to))
                                    and _md().airfield(Hex.parse(to))):
        return (f"the GT 27 reinforcements of AXC-13 are airlifted from Crete to a friendly airfield on the hex grid "
                f"({to} is none) (22.3; 23.2 AXC-19 c)")
    why = drop_terrain_refusal(eng, side, to)
    if why:
        return why
    if atp_of(eng, side) < atp_cost(eng, uid):
        return f"the drop needs {atp_cost(eng, uid)} ATP; {side} has {atp_of(eng, side)} (13.7 d, 19.7)"
    return None


@movement.movement_action(DROP)
def act_airdrop(eng: Engine, frame: Frame, action: Action) -> None:
    """15.5: an airborne drop from an airlift box or a friendly city or airfield."""
    side = frame.data.get("side", action.side)
    uid, to = str(action.args.get("unit", "")), str(action.args.get("to", ""))
    why = airdrop_refusal(eng, frame, side, uid, to)
    if why:
        raise IllegalAction(why, "22.3; 23.2 AXC-19 c" if "22.3" in why else "15.5")
    crete = eng.state.units[uid].loc == offmap.CRETE
    drop(eng, frame, side, uid, to, "15.5; 13.7 d")
    if crete:
        from core.rules import strategic_moves
        strategic_moves.crete_move_check(eng, uid)                    # AXC-13 d); AXC-19 d)


@functools.lru_cache(maxsize=1)
def _drop_terrain_hexes() -> tuple[str, ...]:
    """The printed map's clear, desert and rough hexes (the Airborne Drop Chart's terrain)."""
    from core import charts
    allowed = set(charts.drop_chart().terrain_allowed)
    md = _md()
    return tuple(sorted(h.label for h in md.hexes() if md.terrain(h) in allowed))


@movement.movement_options
def airdrop_options(eng: Engine, frame: Frame, side: str) -> list[Option]:
    """15.5: two sampled drops for the first unit that may drop (any legal hex is accepted)."""
    if atp_of(eng, side) < 1:
        return []
    for u in sorted(eng.state.units_of(side), key=lambda x: x.id):
        if start_refusal(eng, frame, side, u.id) is not None:
            continue
        hexes = _drop_terrain_hexes()
        out = []
        for lab in hexes[::max(1, len(hexes) // 40)]:
            if airdrop_refusal(eng, frame, side, u.id, lab) is None:
                out.append(Option(action=Action(kind=DROP, side=side, args={"unit": u.id, "to": lab}),
                                  label=f"Airdrop {u.id} from {u.loc} on {lab} (15.5)"))
                if len(out) == 2:
                    return out
        if out:
            return out
    return []


def _sample_hexes(eng: Engine, limit: int) -> list[str]:
    out = [lab for lab in sorted(_map_t()) if drop_hex_refusal(eng, lab) is None]
    if len(out) <= limit:
        return out
    step = max(1, len(out) // limit)
    return out[::step][:limit]


@movement.movement_options
def drop_options(eng: Engine, frame: Frame, side: str) -> list[Option]:
    """AXC-19 b): a few sampled drops for the movement decision (any legal hex is accepted)."""
    if side != AXIS or atp_left(eng) < 1:
        return []
    units = droppers(eng)
    if not units:
        return []
    return [Option(action=Action(kind=KIND, side=AXIS, args={"unit": units[0], "to": h}),
                   label=f"Airdrop {units[0]} from the Fall Braun Box on {h} (AXC-19 b)")
            for h in _sample_hexes(eng, 2)]


QUERIES["fall_braun_droppers"] = lambda eng: droppers(eng)
QUERIES["fall_braun_drop_refusal"] = lambda eng, hex="": drop_hex_refusal(eng, hex)
