"""15.5 airborne drops from the Fall Braun Box onto Map T (23.2 AXC-19 b), an action of the Axis Movement Phase.

``fall_braun_drop`` {unit, to}: with AXC-19 in play and French North Africa in play (22.7), an airborne drop capable
unit (15.5 Important; ``airdrop_capable``) in ``box:FallBraun`` is airlifted by one ATP (13.7 d: one unit of one
or two steps per ATP; ``vars["atp"]["Axis"]``, 19.7) to a clear, desert or rough hex of Map T (Airborne Drop
Chart ``terrain_allowed``) not occupied by enemy units (an EZOC is allowed).  The unit makes a morale check with
the chart's DRMs (failure: disrupted), may not move further this phase (13.7 c, 15.5), and has emergency supply
for the impulse of the drop (15.5; 12.7).  R-AXC19B-DROP.
"""

from __future__ import annotations

import functools

from core.counters import all_counters
from core.decisions import ALLIED, AXIS, Action, IllegalAction, Option
from core.engine import QUERIES, Engine
from core.hexgrid import Hex, HexLabelError
from core.state import Frame
from core.rules import movement, offmap, tec

RULE = "23.2 AXC-19 b; 15.5"
KIND = "fall_braun_drop"


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


def drop_hex_refusal(eng: Engine, label: str) -> str | None:
    """15.5: a clear, desert or rough hex of Map T (AXC-19 b), not enemy occupied."""
    from core import charts
    try:
        h = Hex.parse(label)
    except HexLabelError:
        return f"{label!r} is not a hex"
    terrain = _map_t().get(h.label)
    if terrain is None:
        return f"{label} is not on Map T: the Fall Braun airborne units drop on Map T"
    allowed = charts.drop_chart().terrain_allowed
    if terrain not in allowed:
        return f"{label} is {terrain}: drops are made on {', '.join(allowed)} hexes"
    if any(u.side != AXIS for u in eng.state.units_at(h.label)):
        return f"{label} is enemy occupied"
    return None


def drop_drm(eng: Engine, label: str) -> int:
    """The Airborne Drop Chart's DRMs that apply to a drop on ``label``."""
    from core import charts
    from core.rules import zoc
    conds = []
    if _map_t().get(Hex.parse(label).label) == "rough":
        conds.append("rough")
    if Hex.parse(label) in zoc.zoc_hexes(eng.state, ALLIED):
        conds.append("in_ezoc")
    if eng.state.air_superiority not in (None, AXIS):
        conds.append("enemy_air_superiority")
    return charts.airborne_drop_drm(*conds)


@movement.movement_action(KIND)
def act_drop(eng: Engine, frame: Frame, action: Action) -> None:
    """AXC-19 b): airdrop a unit from the Fall Braun Box onto Map T."""
    from core.rules import status
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
    to = Hex.parse(to).label
    st = eng.state
    atp = dict(st.vars.get("atp", {}))
    atp[AXIS] = int(atp.get(AXIS, 0)) - 1
    st.vars["atp"] = atp
    u = st.units[uid]
    u.loc = to
    u.reserve = False
    u.emergency = True                                        # 15.5: emergency supply for the impulse (12.7)
    u.flags = dict(u.flags) | {"emergency_gt_phase": [st.gt, st.phase], "airdrop_gt": st.gt}
    frame.data.setdefault("moved", {})[uid] = max(status.movement_allowance(u), 1) * tec.EIGHTH   # 13.7 c), 15.5
    eng.say(f"{uid} is airdropped from the Fall Braun Box on {to} with one ATP ({atp[AXIS]} left) ({RULE})")
    if not status.morale_check(eng, uid, drop_drm(eng, to), why="airborne drop, 15.5"):
        status.disrupt(eng, uid, "failed the airborne drop morale check", "15.5")


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
