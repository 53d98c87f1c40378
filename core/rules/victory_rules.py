"""Victory (4.1 XIX instant wins, XX end of play) for the ten scenarios (24.3-33.3).

Conditions are read from the scenario file's ``victory`` entries (docs/data.d/counters-scenarios.md
vocabulary: control, card_in_effect, base_in_port, base_with_loc, no_base_with_loc, port_capacity,
road_control, more_ports, withdrawal_failed, otherwise, all); while a scenario file carries none, the
built-in table below (the same vocabulary, transcribed from the rules text) is used.  Levels are checked
in the order smashing > win > marginal > draw; the evaluator registered in ``core.victory.EVALUATORS``
returns {winner, level, gt, text, rule}.
"""

from __future__ import annotations

import tomllib
from collections import deque
from functools import cache
from pathlib import Path
from typing import Any

from core import victory
from core.decisions import ALLIED, AXIS, other
from core.engine import QUERIES, Engine
from core.hexgrid import Hex, HexLabelError
from core.rules import offmap

LEVELS = ("smashing", "win", "marginal", "draw")
NRV_CONNECTIONS = ("W1434", "W2034", "W2234")   # 22.1 a)

_C = "control"
BUILTIN: dict[str, list[dict]] = {
    "fox-killed": [
        {"side": AXIS, "kind": "withdrawal_failed", "level": "win", "when": "instant", "rule": "24.2 a)"},
        {"side": AXIS, "kind": _C, "hexes": ["C2331"], "loc_to": "C0701", "overland": True, "level": "win", "rule": "24.3"},
        {"side": AXIS, "kind": "card_in_effect", "card": "AXC-9", "level": "win", "rule": "24.3"},
        {"side": ALLIED, "kind": _C, "hexes": ["C2331", "W2104"], "loc_to": "box:NRV", "overland": True,
         "supply": "general", "level": "win", "rule": "24.3"},
        {"side": "none", "kind": "otherwise", "level": "draw", "rule": "24.3"},
    ],
    "oconnors-war": [
        {"side": AXIS, "kind": "withdrawal_failed", "level": "win", "when": "instant", "rule": "25.2 a)"},
        {"side": "controller", "kind": _C, "hexes": ["L2817"], "level": "win", "rule": "25.3"},
    ],
    "sonnenblume": [
        {"side": AXIS, "kind": _C, "hexes": ["C2331"], "loc_to": "C0701", "overland": True, "level": "smashing", "rule": "26.3"},
        {"side": AXIS, "kind": "card_in_effect", "card": "AXC-9", "still_met_at_end": True, "level": "smashing", "rule": "26.3"},
        {"side": ALLIED, "kind": _C, "hexes": ["C2331"], "loc_to": "box:NRV", "overland": True, "level": "smashing", "rule": "26.3"},
        {"side": AXIS, "kind": "port_capacity", "maps": ["C", "W"], "loc_to": "C0701", "threshold": 5, "level": "marginal", "rule": "26.3"},
        {"side": ALLIED, "kind": "otherwise", "level": "marginal", "rule": "26.3 b)"},
    ],
    "desert-fox": [
        {"side": AXIS, "kind": "road_control", "from_hex": "C0701", "to_hex": "W2134", "level": "smashing", "rule": "27.3"},
        {"side": ALLIED, "kind": "no_base_with_loc", "loc_to": "C0701", "overland": True, "level": "smashing", "rule": "27.3"},
        {"side": "more", "kind": "more_ports", "level": "marginal", "rule": "27.3"},
        {"side": "none", "kind": "otherwise", "level": "draw", "rule": "27.3 (equal ports, R-VIC-TIE)"},
    ],
    "desert-war": [
        {"side": AXIS, "kind": "base_in_port", "min_port_capacity": 3, "not_in_enemy_zoc": True, "level": "win", "rule": "28.3"},
        {"side": ALLIED, "kind": "otherwise", "level": "win", "rule": "28.3"},
    ],
    "run-for-tunis": [{"side": "controller", "kind": _C, "hexes": ["T6017"], "level": "win", "rule": "29.3"}],
    "trail-of-the-fox": [
        {"side": AXIS, "kind": "base_with_loc", "loc_to": "L2909", "level": "win", "rule": "30.3"},
        {"side": ALLIED, "kind": "otherwise", "level": "win", "rule": "30.3"},
    ],
}
for _sid, _r in (("tunisian-campaign", "31.3"), ("rommels-war", "32.3"), ("north-african-campaign", "33.3")):
    BUILTIN[_sid] = [
        {"side": AXIS, "kind": "base_in_port", "min_port_capacity": 3, "not_in_enemy_zoc": True, "level": "win", "rule": _r},
        {"side": ALLIED, "kind": "otherwise", "level": "win", "rule": _r},
    ]


@cache
def _scenario_victory(path: str) -> tuple:
    """The scenario file's ``victory`` entries.  A file that cannot be read or parsed raises naming the file
    and the reason: an unreadable file must never mean "no victory conditions" (fail loudly)."""
    try:
        raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"{path}: the victory conditions could not be read ({type(exc).__name__}: {exc})") from exc
    return tuple(raw.get("victory", []) or ())


def conditions(eng: Engine) -> list[dict]:
    from core.scenario import all_scenarios
    for sc in all_scenarios():
        if sc.id == eng.state.scenario:
            data = _scenario_victory(sc.path)
            if data:
                return [dict(d) for d in data]
    return [dict(d) for d in BUILTIN.get(eng.state.scenario, [])]


# --------------------------------------------------------------------------- state readers


def _label(h: str) -> str:
    try:
        return Hex.parse(h).label
    except HexLabelError:
        return h


def controller(eng: Engine, hex_label: str) -> str | None:
    """2.2.2 hex control (:func:`core.rules.control.controller`, R-VIC-CONTROL) of a hex named by any of its labels."""
    from core.rules import control
    return control.controller(eng.state, _label(hex_label))


def _ground(eng: Engine):
    """The map the rules read for this game: with the roads built or finished by the scenario's map
    modifications (18.3 "converts the route into a primary road"; 27.0 the Sollum - Sidi Barrani road), so 27.3's
    "primary road from C0701 to W2134" runs along it."""
    from core.rules import tec
    return tec.map_for(eng.state)


def overland_connected(eng: Engine, side: str, start: str, target: str) -> bool:
    """An overland line (a LOC of any length, 12.4.2) from ``start`` to ``target``: the one trace of
    :func:`core.rules.supply._loc_from` -- never through enemy units or EZOC, but it may end in an EZOC hex a
    friendly unit has entered since the beginning of the Movement Phase (11.4, G-LOS-EZOC); never out of play
    (22.7, R-MAPS-IN-PLAY)."""
    from core.rules import supply
    gm = _ground(eng)
    try:
        a = Hex.parse(start)
    except HexLabelError:
        return False
    goals: set[Hex] = set()
    for t in (NRV_CONNECTIONS if target == offmap.NRV else (target,)):
        try:
            goals.add(Hex.parse(t))
        except HexLabelError:
            continue
    limits = supply._trace_limits(eng.state, side, gm)
    blocked, ends = limits
    if a in blocked and a not in ends:      # 11.4: a line may end in an EZOC hex entered this phase, not pass it
        return False
    if len(goals) == 1:
        (g,) = goals
        return g in supply._loc_from(eng.state, side, a, gm, limits=limits, goal=g)
    return bool(goals & supply._loc_from(eng.state, side, a, gm, limits=limits))


def in_general_supply(eng: Engine, side: str, hex_label: str) -> bool:
    from core.rules import supply
    lines = supply.supply_lines(eng.state, side)
    return Hex.parse(hex_label) in lines.loc


def _bases(eng: Engine, side: str) -> list[str]:
    pre = "AX-Base" if side == AXIS else "AL-Base"
    return [u.loc for u in eng.state.units.values() if offmap.base_id(u.id) == pre and u.loc[:1].isalpha()
            and u.loc[1:2].isdigit() and not u.captured]


def _ports(eng: Engine) -> dict[str, int]:
    return {h.label: cap for h, cap in _ground(eng).ports.items()}


def standard_boxes(label: str) -> int:
    """20.1: the standard port boxes of a port (its limited boxes carry only some cargo).  26.3 counts "the
    standard port capacity" of the ports held, not every port box; 28.3-33.3's "capacity of three (standard boxes)
    or more" is the same count (R-PORT-CAPACITY, ``naval.port_capacity``)."""
    from core.rules import naval
    return naval.port_capacity(label)


def _enemy_zoc(eng: Engine, side: str) -> set[str]:
    from core.rules import zoc
    return {h.label for h in zoc.zoc_hexes(eng.state, other(side))}


def primary_road(eng: Engine, a: str, b: str) -> list[str]:
    """The hexes of the primary road between two hexes (shortest path along primary-road hexsides)."""
    gm = _ground(eng)
    s, t = Hex.parse(a), Hex.parse(b)
    prev: dict[Hex, Hex | None] = {s: None}
    q = deque([s])
    while q:
        h = q.popleft()
        if h == t:
            break
        for n in h.neighbours():
            if n not in prev and "primary" in " ".join(gm.lines_between(h, n)):
                prev[n] = h
                q.append(n)
    if t not in prev:
        return []
    out, h = [], t
    while h is not None:
        out.append(h.label)
        h = prev[h]
    return out[::-1]


# --------------------------------------------------------------------------- condition kinds


def holds(eng: Engine, cond: dict, side: str) -> bool:
    k = cond.get("kind")
    if k == "control":
        for h in cond.get("hexes", []):
            if controller(eng, h) != side:
                return False
            if cond.get("loc_to") and not overland_connected(eng, side, h, offmap.canon_box(cond["loc_to"])):
                return False
            if cond.get("supply") == "general" and not in_general_supply(eng, side, _label(h)):
                return False
        return True
    if k == "card_in_effect":
        from core.rules import events
        if cond.get("card") == "AXC-9":
            if cond.get("still_met_at_end"):
                # 26.3 b) "The conditions must still be met at the end of the scenario" (R-VIC-AXC9-END)
                return events.axis_in_egypt_now(eng)
            return events.axis_in_egypt(eng)          # 24.3 "in effect at the end of play"
        return events.in_effect(eng, cond.get("card", ""))
    if k == "base_in_port":
        ports = _ports(eng)
        zoc = _enemy_zoc(eng, side) if cond.get("not_in_enemy_zoc") else set()
        return any(h in ports and standard_boxes(h) >= int(cond.get("min_port_capacity", 3)) and h not in zoc
                   for h in _bases(eng, side))
    if k == "base_with_loc":
        return any(overland_connected(eng, side, h, _label(cond["loc_to"])) for h in _bases(eng, side))
    if k == "no_base_with_loc":
        return not any(overland_connected(eng, other(side), h, _label(cond["loc_to"])) for h in _bases(eng, other(side)))
    if k == "port_capacity":
        maps = tuple(cond.get("maps", []))
        total = sum(standard_boxes(h) for h in _ports(eng)
                    if (not maps or h[:1] in maps) and controller(eng, h) == side
                    and (not cond.get("loc_to") or overland_connected(eng, side, h, _label(cond["loc_to"]))))
        return total >= int(cond.get("threshold", 0))
    if k == "road_control":
        road = primary_road(eng, cond["from_hex"], cond["to_hex"])
        if not road:
            return False
        zoc = _enemy_zoc(eng, side)
        return all(controller(eng, h) == side and h not in zoc for h in road)
    if k == "more_ports":   # 27.3: "The side with the larger number of ports wins a marginal victory"
        return port_count(eng, side) > port_count(eng, other(side))
    if k == "withdrawal_failed":
        return bool(withdrawal_failures(eng))
    if k == "all":
        return all(holds(eng, c, side) for c in cond.get("all_of", []))
    if k == "otherwise":
        return True
    return False


def port_count(eng: Engine, side: str) -> int:
    """27.3 "count the standard ports held by each side": the ports with at least one standard box (a port of
    limited boxes only is no standard port, 20.1) on the maps in play (R-VIC-PORTS)."""
    maps = tuple(eng.state.vars.get("maps") or ())
    return sum(1 for h in _ports(eng) if (not maps or h[:1] in maps) and standard_boxes(h) > 0
               and controller(eng, h) == side)


def withdrawal_failures(eng: Engine, final: bool = False) -> list[str]:
    """24.2 a)/b): units listed for withdrawal still present after the end of their GT.  An eliminated unit (in the
    Refit or the Destroyed Box, 8.3: "Place eliminated units in the owning player's holding boxes") costs one RP
    instead, charged when found eliminated, whatever its GT; at the end of the scenario an unpaid RP counts as a
    failed withdrawal (R-WITHDRAW-ELIMINATED)."""
    st = eng.state
    out = []
    for w in st.vars.get("withdrawals", []):
        if w.get("card"):
            continue   # card withdrawals (ALC-26) have their own penalties
        due = w["gt"] < st.gt or (w["gt"] == st.gt and st.phase >= 19)
        for uid in w.get("units", []):
            u = st.units.get(uid)
            if u is None or u.loc == offmap.REMOVED or uid in st.vars.get("withdrawal_rp_paid", []):
                continue
            if offmap.eliminated(u):
                _charge_rp(eng, uid)          # b) "must immediately expend one refit point": at the first check
                continue
            if due:
                out.append(uid)
    if final and st.vars.get("rp_debt", 0) > 0:
        out.append(f"{st.vars['rp_debt']} unpaid refit point(s)")
    return out


def _charge_rp(eng: Engine, uid: str) -> None:
    """24.2 b): one refit point for each withdrawal unit eliminated before withdrawing."""
    st = eng.state
    paid = st.vars.setdefault("withdrawal_rp_paid", [])
    if uid in paid:
        return
    paid.append(uid)
    rp = next((u for u in sorted(st.units.values(), key=lambda x: x.id)
               if offmap.base_id(u.id) == "UK-RP" and u.loc != offmap.REMOVED), None)
    if rp is not None:
        offmap.remove_unit(eng, rp.id, "24.2 b", f"expended for eliminated withdrawal unit {uid}")
    else:
        st.vars["rp_debt"] = int(st.vars.get("rp_debt", 0)) + 1
        eng.say(f"No refit point for {uid}: arriving refit points are forfeited until paid (24.2 b)")


# --------------------------------------------------------------------------- evaluator


def evaluate(eng: Engine, final: bool) -> dict[str, Any] | None:
    from core.rules import events, reinforcements
    events.ensure_cards(eng)
    reinforcements.ensure_schedule(eng)
    conds = conditions(eng)
    if not conds:
        return None
    st = eng.state
    if not final:
        for c in conds:
            if c.get("when") == "instant" or c.get("kind") == "withdrawal_failed":
                fails = withdrawal_failures(eng) if c.get("kind") == "withdrawal_failed" else []
                if (c.get("kind") == "withdrawal_failed" and fails) or (
                        c.get("kind") != "withdrawal_failed" and holds(eng, c, c["side"])):
                    return {"winner": c["side"], "level": "instant", "gt": st.gt, "rule": c.get("rule", ""),
                            "text": f"{c['side']} instant victory: " + (
                                f"withdrawals not made ({', '.join(fails)})" if fails else c.get("kind", "")) +
                            f" ({c.get('rule', '')})"}
        return None
    for lvl in LEVELS:
        for c in conds:
            if c.get("when") == "instant" or (c.get("level") or "win") != lvl:
                continue
            side = c.get("side")
            if side == "controller":
                h = c.get("hexes", [""])[0]
                who = controller(eng, h)
                if who in (AXIS, ALLIED):
                    return _res(st, who, lvl, c, f"{who} controls {h}")
                continue
            if side == "more":
                a, b = port_count(eng, AXIS), port_count(eng, ALLIED)
                if a != b:
                    w = AXIS if a > b else ALLIED
                    return _res(st, w, lvl, c, f"standard ports held: Axis {a}, Allied {b}")
                continue
            if side in ("none", None) and c.get("kind") == "otherwise":
                return {"winner": None, "level": "draw", "gt": st.gt, "rule": c.get("rule", ""),
                        "text": f"Draw: neither side achieved its objectives ({c.get('rule', '')})"}
            if side in (AXIS, ALLIED) and holds(eng, c, side):
                return _res(st, side, lvl, c, c.get("kind", ""))
    return {"winner": None, "level": "draw", "gt": st.gt, "rule": "4.1 XX",
            "text": "Draw: no victory condition of the scenario holds (R-VIC-NONE)"}


def _res(st, side: str, lvl: str, c: dict, why: str) -> dict[str, Any]:
    word = {"smashing": "smashing victory", "marginal": "marginal victory", "win": "victory"}.get(lvl, lvl)
    return {"winner": side, "level": lvl, "gt": st.gt, "rule": c.get("rule", ""),
            "text": f"{side} {word}: {why} ({c.get('rule', '')})"}


victory.EVALUATORS.append(evaluate)
QUERIES["victory_check"] = lambda eng: evaluate(eng, True)
