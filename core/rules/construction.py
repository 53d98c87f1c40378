"""18.0 Construction: forts F0-F3 (18.1, 15.7 engineers), the Egyptian railroad
(18.2) and the two constructible roads (18.3).

State: ``vars["forts"][hex] = {"level": completed level or -1, "building": unit,
"target": level, "side", "gt", "phase"}``; ``vars["railhead"]`` (hex label);
``vars["roads"][name] = {"hexes": [...], "side", "done": bool}``.

Actions of the movement decision: ``build_fort`` {unit, level, dump? | msu?} (an MSU stacked with a fort marker
of F1+ instead of a dump, 18.1 a-b),
``build_rail`` {msu, hexes: [one or two labels]}, ``build_road`` {road, msu, hexes}.
"""

from __future__ import annotations

from core import sequence
from core.decisions import Action, IllegalAction, other
from core.engine import Engine, at_phase_end, auto_step
from core.hexgrid import Hex, HexLabelError
from core.rules import supply, tec, zoc
from core.rules.status import (
    MOVEMENT_PHASES, counter_of, has_real_cf, hex_of, phasing, printed_ma, supply_kind,
)
from core.state import Frame

NO_FORT_TERRAIN = ("mountain", "city", "sand_sea", "marsh")   # 18.1 Important
ROADS = ("sollum-sidi-barrani", "tobruk-bypass")             # 18.3


def fort_at(eng: Engine, label: str) -> dict:
    return eng.state.vars.get("forts", {}).get(label, {})


def fort_level(eng: Engine, label: str) -> int:
    gm = tec.current_map()
    printed = gm.forts.get(Hex.parse(label), -1)
    return max(printed, int(fort_at(eng, label).get("level", -1)))


def check_fort(eng: Engine, frame: Frame, side: str, uid: str, level: int, dump: str | None,
               msu: str | None = None) -> None:
    """18.1: who may build which fort where; an F1-F3 fort is supplied by a dump, or by an MSU stacked with an
    existing fort marker of F1 or higher (:func:`fort_supply_refusal`)."""
    st = eng.state
    u = st.units.get(uid)
    if u is None or u.side != side:
        raise IllegalAction(f"{uid!r} is not a {side} unit", "18.1")
    name = counter_of(u).name
    if not has_real_cf(u) or printed_ma(u) <= 0:
        raise IllegalAction(f"{name} needs a non-zero, non-parenthesised CF and a non-zero MA to build a fort", "18.1")
    if frame.data.get("moved", {}).get(uid) is not None:
        raise IllegalAction(f"{name} has moved; a fort is begun at the beginning of the Movement Phase by a unit that does not move", "18.1")
    if u.disrupted or u.ogs:
        raise IllegalAction(f"{name} must be undisrupted and in general supply to build a fort", "18.1")
    h = hex_of(u)
    if h is None:
        raise IllegalAction(f"{name} is not on the hex grid", "18.1")
    gm = tec.current_map()
    bad = gm.hex_terrain(h) & set(NO_FORT_TERRAIN)
    if bad:
        raise IllegalAction(f"forts may not be built in {', '.join(sorted(bad))} hexes ({h.label})", "18.1")
    cur = fort_level(eng, h.label)
    if fort_at(eng, h.label).get("building"):
        raise IllegalAction(f"a fort is already under construction in {h.label}", "18.1")
    if level == 0 and cur >= 0:
        raise IllegalAction(f"an F0 fort may be built only where there is no other fort ({h.label} has F{cur})", "18.1")
    if level >= 1 and cur != level - 1 and not (level == 1 and cur == -1):
        raise IllegalAction(f"an F{level} fort may only be built in a hex containing an F{level - 1} fort"
                            + (" (or an unfortified hex)" if level == 1 else ""), "18.1")
    if level >= 1 and msu:
        why = fort_supply_refusal(eng, frame, side, str(msu), h)
        if why:
            raise IllegalAction(why, "18.1")
        return
    if level >= 1:
        d = st.units.get(str(dump)) if dump else None
        if d is None or d.side != side or supply_kind(d) != "dump" or d.captured:
            raise IllegalAction(f"an F{level} fort requires expending a dump as if for combat supply", "18.1")
        lines = supply._los_from(st, side, hex_of(d), supply.DUMP_LOS, gm)
        if h not in lines:
            raise IllegalAction(f"the dump in {d.loc} has no LOS (7 MMP) to {h.label}", "18.1 / 12.6.1")


def fort_supply_refusal(eng: Engine, frame: Frame, side: str, msu: str, target: Hex) -> str | None:
    """18.1 "The supply to build a fort may come from an existing fort of F1 or higher stacked with an MSU. The MSU
    can only support the construction of one fort. a) The hex where the fort is being built must be within the
    distance the MSU could move in one Movement Phase (the MSU does not physically move)."  The existing fort is a
    fort marker ("F1 through F3 markers remain in play permanently (unless used for supply)"), of either side; the
    MSU is friendly and its MA after status counts (8.2.1: a disrupted MSU has 7); one fort per MSU per Movement
    Phase."""
    st = eng.state
    m = st.units.get(msu)
    if m is None or m.side != side or supply_kind(m) != "msu" or m.captured or hex_of(m) is None:
        return f"{msu!r} is not a {side} MSU on the map"
    if int(fort_at(eng, m.loc).get("level", -1)) < 1 or fort_at(eng, m.loc).get("building"):
        return f"the MSU in {m.loc} is not stacked with a completed fort marker of F1 or higher"
    if m.flags.get("fort_support") == f"{st.gt}.{st.phase}":
        return "the MSU can only support the construction of one fort (this Movement Phase)"
    from core.rules.status import movement_allowance
    reach = supply._los_from(st, side, hex_of(m), movement_allowance(m) * tec.EIGHTH, tec.map_for(st))
    if target not in reach:
        return (f"{target.label} is beyond the distance the MSU in {m.loc} could move in one Movement Phase "
                f"({movement_allowance(m)} MP)")
    return None


def engineer_started_with(frame: Frame, side: str, here: list) -> bool:
    """15.7: "If an engineer starts the Movement Phase with a unit building a Level 1 or higher fort": an engineer of
    the side (not the upgrade counters F and G, 15.7 Important) in the hex that has spent no MP this phase, so it was
    there when the phase began (a unit that moved, landed or was carried in has spent MP)."""
    from core.rules import special_units

    moved = frame.data.get("moved", {})
    return any(o.side == side and special_units.fort_engineer(o.id) and not moved.get(o.id, 0) for o in here)


def apply(eng: Engine, frame: Frame, action: Action) -> None:
    a, side, st = action.args, action.side, eng.state
    if action.kind == "build_fort":
        uid, level = str(a.get("unit", "")), int(a.get("level", 0))
        if level not in (0, 1, 2, 3):
            raise IllegalAction("fort levels are F0 to F3", "18.1")
        dump, msu = a.get("dump"), a.get("msu")
        check_fort(eng, frame, side, uid, level, dump, msu)
        u = st.units[uid]
        if level >= 1 and msu:
            m = st.units[str(msu)]
            src = st.vars["forts"][m.loc]
            src["level"] = int(src["level"]) - 1          # 18.1 b) one level for each fort level built
            m.flags = dict(m.flags) | {"fort_support": f"{st.gt}.{st.phase}"}
            eng.say(f"The fort in {m.loc} and its MSU supply the construction: the fort is reduced to F{src['level']} "
                    "(18.1 b)")
        elif level >= 1:
            supply.remove_supply_unit(eng, str(dump), f"expended to build an F{level} fort (18.1)")
        forts = st.vars.setdefault("forts", {})
        prev = forts.get(u.loc, {}).get("level", -1)
        forts[u.loc] = {"level": prev, "building": uid, "target": level, "side": side, "gt": st.gt, "phase": st.phase,
                        "engineer": engineer_started_with(frame, side, st.units_at(u.loc))}
        frame.data.setdefault("moved", {})[uid] = 0            # 18.1: the unit may not move
        eng.say(f"{counter_of(u).name} begins an F{level} fort in {u.loc} (18.1)")
        return
    if action.kind == "build_rail":
        build_rail(eng, frame, side, a)
        return
    if action.kind == "build_road":
        rule = "18.3.1"
        msu = st.units.get(str(a.get("msu", "")))
        if msu is None or msu.side != side or supply_kind(msu) != "msu":
            raise IllegalAction("construction needs an MSU of the building side", rule)
        if frame.data.get("moved", {}).get(msu.id) is not None:
            raise IllegalAction("the MSU must begin the Movement Phase on the construction marker and not move", rule)
        if a.get("road") not in ROADS:
            raise IllegalAction(f"the constructible roads are {', '.join(ROADS)}", "18.3")
        route = road_route(str(a.get("road")))
        key = road_marker_key(str(a.get("road")), side)
        head = st.vars.get(key)
        if head is None:
            why = road_start_refusal(st, str(a.get("road")), msu.loc)
            if why:
                raise IllegalAction(why, "18.3 / 18.3.1")
        elif head != msu.loc:
            raise IllegalAction(f"the MSU must be on the road marker ({head})", rule)
        gm = tec.current_map()
        h = hex_of(msu)
        ez = zoc.zoc_hexes(st, other(side), gm)
        if msu.ogs or h in ez:
            raise IllegalAction("the construction hex must be in general supply and not in an EZOC", rule)
        hexes = _hexes_arg(a, rule)
        lines = supply.supply_lines(st, side, gm)
        cur = h
        for nx in hexes:
            if cur.distance(nx) != 1:
                raise IllegalAction(f"{nx.label} does not continue the line from {cur.label} (no skipping ahead)", rule)
            if nx.label not in route or abs(route.index(nx.label) - route.index(cur.label)) != 1:
                raise IllegalAction(f"{nx.label} is not the next hex of the {a.get('road')} route from {cur.label} "
                                    f"({'-'.join(route)})", "18.3")
            if nx in ez or nx not in lines.los:
                raise IllegalAction(f"the marker and MSU may not be moved OGS or into an EZOC ({nx.label})", rule)
            cur = nx
        st.vars[key] = cur.label
        built = st.vars.setdefault("roads_built", {}).setdefault(road_marker_name(str(a.get("road")), side), [])
        if not built:
            built.append(h.label)                  # the road starts at the marker's first hex (18.3)
        built.extend(x.label for x in hexes)       # consecutive labels: tec.map_for() lays the road
        msu.loc = cur.label
        frame.data.setdefault("moved", {})[msu.id] = 0
        eng.say(f"{side} construction advances to {cur.label} ({rule})")
        return
    raise IllegalAction(f"{action.kind} is not a construction action", "18.0")


def road_marker_name(road: str, side: str) -> str:
    """18.3: "It is possible for both players to be working on either road simultaneously; make additional markers
    if required": each side has its own marker on each road (``vars["roads_built"]`` is keyed by this name, its
    head by :func:`road_marker_key`), so one side's construction never moves or extends the other's."""
    return f"{road}/{side}"


def road_marker_key(road: str, side: str) -> str:
    """The ``vars`` key holding the hex of ``side``'s construction marker on ``road`` (18.3)."""
    return f"road:{road_marker_name(road, side)}"


def road_route(road: str) -> list[str]:
    """18.3: the route a constructible road follows ("the secondary road from Sollum (W2004) to Sidi Barrani (W2110),
    and the 'Tobruk Bypass' along the track from C2329 ...", ``core.mapdata`` routes with ``construct``)."""
    from core import mapdata

    return [h.label for h in mapdata.load().constructible_roads()[road.replace("-", "_")]]


def road_start_refusal(state, road: str, label: str) -> str | None:
    """Where construction of ``road`` may begin (no marker yet): 18.3 "Two roads may be built on the map" along the
    named routes, and 18.3.1 "The road may be constructed in either direction, but it must link with a completed
    primary road hex": the first hex is a hex of the route that is a completed primary road hex (printed primary, or
    a hex of a road already built, which "converts the route into a primary road")."""
    from core import mapdata

    md, route = mapdata.load(), road_route(road)
    if label not in route:
        return f"{label} is not on the {road} route ({'-'.join(route)}); roads may be built only along it"
    built = {x for hexes in [*state.vars.get("roads_built", {}).values(),
                             *tec.finished_roads(state.vars.get("map_mods") or [])] for x in hexes}
    starts = [x for x in route if "primary" in md.routes_at(Hex.parse(x)) or x in built]
    if label not in starts:
        return (f"construction of the {road} must link with a completed primary road hex; {label} is not one "
                f"(on this route: {', '.join(starts)})")
    return None


# ---------------------------------------------------------------- 18.2 the Egyptian railroad
CW_NATIONALITIES = ("AL", "UK", "AU", "NZ", "IN", "SA")
TOBRUK = "C2331"


def rail_extension() -> list[str]:
    """18.2: the printed unfinished railroad, Mersa Matruh (W2118) to Tobruk (C2331), east to west
    (``core.mapdata`` route ``egyptian_railroad_extension``, hexsides ``rail_unfinished``)."""
    from core import mapdata

    return [h.label for h in mapdata.load().route("egyptian_railroad_extension")]


def railhead(state) -> str:
    """18.2: the railhead marker (``vars["railhead"]``); without scenario instructions it is at the end of
    the printed line, Mersa Matruh (G-RAILHEAD)."""
    return str(state.vars.get("railhead") or rail_extension()[0])


def _hexes_arg(a: dict, rule: str) -> list[Hex]:
    raw = a.get("hexes") or []
    if not isinstance(raw, list) or not 1 <= len(raw) <= 2:
        raise IllegalAction("construction advances one or two hexes per Movement Phase", rule)
    try:
        return [Hex.parse(str(x)) for x in raw]
    except HexLabelError as exc:
        raise IllegalAction(str(exc), rule) from None


def rail_advances(state, side: str) -> list[list[str]]:
    """The one- and two-hex advances of the railhead :func:`build_rail` would accept now (for options)."""
    ext = rail_extension()
    head = railhead(state)
    if head not in ext:
        return []
    i = ext.index(head)
    return [ext[i + 1:i + 1 + n] for n in (1, 2) if i + n < len(ext)]


def build_rail(eng: Engine, frame: Frame, side: str, a: dict) -> None:
    """18.2 / 18.2.1: a CW MSU on the railhead, which began the Movement Phase there and does not move,
    advances the railhead one or two hexes along the printed unfinished line, east to west, hex by hex."""
    msu, cur = check_rail(eng, frame, side, a)
    eng.state.vars["railhead"] = cur.label
    msu.loc = cur.label
    frame.data.setdefault("moved", {})[msu.id] = 0
    eng.say(f"The Egyptian railroad is completed to {cur.label}; the railhead and the MSU advance (18.2)")


def rail_options(eng: Engine, frame: Frame, side: str) -> list[Action]:
    """Enumerable ``build_rail`` actions (checked like the action itself)."""
    st = eng.state
    if side != "Allied":
        return []
    head = railhead(st)
    out = []
    for m in sorted(u.id for u in st.units_at(head) if u.side == side and supply_kind(u) == "msu"):
        for hexes in rail_advances(st, side):
            args = {"msu": m, "hexes": hexes}
            try:
                check_rail(eng, frame, side, args)
            except IllegalAction:
                continue
            out.append(Action(kind="build_rail", side=side, args=args))
    return out


def check_rail(eng: Engine, frame: Frame, side: str, a: dict):
    """The checks of :func:`build_rail` (no change to the state): returns (MSU, new railhead hex)."""
    st = eng.state
    rule = "18.2.1"
    msu = st.units.get(str(a.get("msu", "")))
    if msu is None or msu.side != side or supply_kind(msu) != "msu":
        raise IllegalAction("railroad construction needs an MSU of the building side", rule)
    if side != "Allied" or counter_of(msu).nationality not in CW_NATIONALITIES:
        raise IllegalAction("only the Commonwealth player may extend the Egyptian railroad, with a CW MSU", "18.2")
    if frame.data.get("moved", {}).get(msu.id) is not None:
        raise IllegalAction("the MSU must begin the Movement Phase on the railhead marker and not move", rule)
    ext = rail_extension()
    head = railhead(st)
    if msu.loc != head:
        raise IllegalAction(f"the CW MSU must be on the railhead marker ({head})", rule)
    if head not in ext:
        raise IllegalAction(f"the railhead ({head}) is not on the unfinished railroad printed on the map", "18.2")
    gm = tec.current_map()
    ez = zoc.zoc_hexes(st, other(side), gm)
    h = hex_of(msu)
    if msu.ogs or h in ez:
        raise IllegalAction("the railhead hex must be in general supply and not in an EZOC", rule)
    from core.rules import transport

    enemy = {u.loc for u in st.units.values() if u.side != side}
    for lab in transport.egyptian_line(st):
        if lab in enemy or Hex.parse(lab) in ez:
            raise IllegalAction(f"the railroad from the railhead to Alexandria must be clear of enemy units and EZOC "
                                f"({lab})", rule)
    hexes = _hexes_arg(a, rule)
    from core import mapdata

    md = mapdata.load()
    lines = supply.supply_lines(st, side, gm)
    i = ext.index(head)
    cur = h
    for k, nx in enumerate(hexes):
        if i + k + 1 >= len(ext):
            raise IllegalAction(f"the railroad may be extended only as far as Tobruk ({TOBRUK})", "18.2")
        want = ext[i + k + 1]
        if nx.label != want:
            if nx.label not in ext[i + k + 1:] and md.rail_between(cur, nx) != "rail_unfinished":
                raise IllegalAction(f"{cur.label}->{nx.label} is not an unfinished railroad hexside printed on the "
                                    "map; only those may be completed", "18.2")
            raise IllegalAction(f"construction goes from east to west, continuously: the next hex is {want}, not "
                                f"{nx.label} (the railhead may not be skipped ahead)", rule)
        if nx in ez or nx not in lines.los:
            raise IllegalAction(f"the railhead and MSU may not be moved OGS or into an EZOC ({nx.label})", rule)
        cur = nx
    return msu, cur


def _complete(eng: Engine, side: str, *, engineers_only: bool) -> None:
    st = eng.state
    for lab, f in sorted(st.vars.get("forts", {}).items()):
        uid = f.get("building")
        if not uid or f.get("side") != side:
            continue
        if engineers_only and not (f.get("engineer") and f.get("target", 0) >= 1):
            continue
        if not engineers_only and (f.get("gt"), f.get("phase")) == (st.gt, st.phase):
            continue
        u = st.units.get(uid)
        if u is None or u.loc != lab:
            continue
        f["level"], f["building"] = f["target"], ""
        eng.say(f"The F{f['level']} fort in {lab} is complete (18.1{', 15.7' if engineers_only else ''})")


def attacked_builders(eng: Engine, defenders: list[str]) -> None:
    """18.1 "If attacked while under construction, the unit is disrupted before combat resolution begins."""
    from core.rules.status import disrupt
    for lab, f in sorted(eng.state.vars.get("forts", {}).items()):
        uid = f.get("building")
        if uid in defenders and eng.state.units[uid].loc == lab and not eng.state.units[uid].disrupted:
            disrupt(eng, uid, "attacked while building a fort", "18.1")


def complete_forts(eng: Engine) -> None:
    """18.1: a unit still in place at the beginning of the next friendly Movement Phase completes its fort - any of
    the four Movement Phases (4.1 VI, IX, XII, XV; idempotent: a fort completes once)."""
    side = phasing(eng, eng.state.phase)
    if side:
        _complete(eng, side, engineers_only=False)


for _k in sequence.movement_steps(1):
    auto_step(_k)(complete_forts)


@at_phase_end
def forts_phase_end(eng: Engine, phase: int) -> None:
    """15.7: with an engineer a fort of level 1+ takes one Movement Phase; 18.1: F0
    vanishes when no eligible friendly unit remains; a removed builder cancels the work."""
    st = eng.state
    if phase in MOVEMENT_PHASES:
        side = phasing(eng, phase)
        if side:
            _complete(eng, side, engineers_only=True)
    forts = st.vars.get("forts", {})
    for lab in sorted(forts):
        f = forts[lab]
        uid = f.get("building")
        if uid and (uid not in st.units or st.units[uid].loc != lab):
            target = f.get("target", 0)
            f["building"] = ""
            f["level"] = target - 1 if target >= 2 else f.get("level", -1)   # 18.1: one level below
            eng.say(f"Fort construction in {lab} is abandoned (18.1)")
        if f.get("level") == 0 and not f.get("building"):
            side = f.get("side")
            if not any(u.side == side and has_real_cf(u) and u.loc == lab for u in st.units.values()):
                del forts[lab]
                eng.say(f"The F0 fort in {lab} is removed: no friendly unit able to build it remains (18.1)")
