"""14.0 Combat: declaration (14.0, 14.2), combat supply (12.6), strengths and terrain (14.3, 14.4),
resolution by morale groups (14.5), step losses (14.6), retreats (14.7) and advance (14.8).

Two procedures:

* ``combat_phase`` — plugged into the four Combat Phases (4.1 VIII, XI, XIV, XVII).  The phasing
  player declares every combat first (14.0 Important), the mandatory attacks of 14.2 are checked
  when he says he is done, then he picks the order of resolution (14.0) and each combat is resolved
  by pushing ``resolve_combat``.
* ``resolve_combat`` — one combat, from the support and combat-supply declarations to the advance.
  Frame data ``{"attackers": [ids], "hex": label, "form": "regular"|"overrun"|"mobile"|
  "deliberate"|"exploitation"|"amphibious"}`` (``hexes`` for a multi-hex attack).  Before finishing
  it writes ``frame.data["outcome"] = {"defender_cleared", "attacker_losses", "defender_losses",
  "defender_result", "attacker_result", "columns", ...}``.  The movement rules push it for overruns
  (13.4.4).

Pure functions (odds, columns, loss allocation, retreat legality) are separate from the procedures
and are what the ``odds`` query and the tests use.  The CRT comes from ``core.charts``; strengths,
shifts and line reductions from ``core.rules.special_units``; the map, ZOC and supply lines from
the ground rules (``tec``, ``zoc``, ``supply``) behind the small adapter functions below.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable

from core import calendar, charts
from core.decisions import Action, Decision, IllegalAction, Option, other
from core.engine import CONTINUE, PROCEDURES, QUERIES, Engine, Procedure, on_step, procedure
from core.hexgrid import Hex, HexLabelError
from core.rules import control, east_limit, special_units as su
from core.rules.special_units import CombatView, info, round_half_up
from core.rules import status
from core.rules.status import is_desert_raider, morale_passes  # 8.1: the one definition of the morale check
from core.state import Frame, GameState

FORMS = ("regular", "overrun", "mobile", "deliberate", "exploitation", "amphibious")
COMBAT_STEPS = ("VIII.1", "XI.1", "XIV.1", "XVII.1")

# =========================================================================== adapters (map, ZOC, supply)
# Everything the combat rules read from other chapters goes through these functions, so a change in
# the ground rules' interfaces is absorbed here, in one place.


def gmap():
    """The map the rules read (13.3 TEC adapter of the ground rules)."""
    from core.rules import tec

    return tec.current_map()


def hex_of(label: str) -> Hex | None:
    if not isinstance(label, str) or ":" in label or label == "setup":
        return None
    try:
        return Hex.parse(label)
    except HexLabelError:
        return None


def terrain(label: str) -> frozenset[str]:
    h = hex_of(label)
    return gmap().hex_terrain(h) if h else frozenset()


def fort_level(st: GameState, label: str) -> int | None:
    """18.1 / 14.4: the fort level in a hex (printed fortification or fort marker), None if none."""
    h = hex_of(label)
    lv: int | None = None
    if h is not None and h in gmap().forts:
        lv = int(gmap().forts[h])
    marker = st.vars.get("forts", {}).get(label)
    if isinstance(marker, dict) and int(marker.get("level", -1)) >= 0:
        lv = max(lv or 0, int(marker["level"]))
    elif isinstance(marker, int):
        lv = max(lv or 0, marker)
    return lv


def is_city(label: str) -> bool:
    return "city" in terrain(label)


def is_mountain(label: str) -> bool:
    return "mountain" in terrain(label)


def obstructed(st: GameState, label: str) -> bool:
    """City, fort or mountain hex (13.4.2, 14.7.1, 14.9.2, 15.2, 15.3)."""
    return is_city(label) or is_mountain(label) or fort_level(st, label) is not None


def is_desert(label: str) -> bool:
    """15.9: the infantry halving applies in desert hexes."""
    return "desert" in terrain(label)


def hexside(a: str, b: str) -> frozenset[str]:
    ha, hb = hex_of(a), hex_of(b)
    if ha is None or hb is None or ha.distance(hb) != 1:
        return frozenset()
    return gmap().side_terrain(ha, hb)


def adjacent(a: str, b: str) -> bool:
    ha, hb = hex_of(a), hex_of(b)
    return ha is not None and hb is not None and ha.distance(hb) == 1


def neighbours(label: str) -> list[str]:
    h = hex_of(label)
    if h is None:
        return []
    from core.rules import tec

    gm = gmap()
    return [n.label for n in tec.nbrs(h) if gm.on_grid(n)]      # tec.nbrs: the on-grid neighbours, cached


def tec_class(st: GameState, uid: str) -> str:
    """The TEC column ``uid`` pays (one definition: ``status.tec_class``)."""
    return status.tec_class(st, st.units[uid])


def can_enter(st: GameState, uid: str, a: str, b: str) -> bool:
    """13.3: whether the unit could move from ``a`` into ``b`` (prohibited terrain, 14.4, 14.7.2)."""
    from core.rules import tec

    ha, hb = hex_of(a), hex_of(b)
    if ha is None or hb is None:
        return False
    cost, _ = tec.step_cost(gmap(), tec_class(st, uid), ha, hb)
    return cost is not None


def zoc_sources(st: GameState, enemy: str, label: str, *, motorized_mover: bool | None = None) -> list[str]:
    """Units of ``enemy`` exerting a ZOC into ``label`` (11.1, 11.3); with ``motorized_mover`` True the
    ZOC of non-motorised units is ignored (11.2: retreat and advance), with None all count (11.2
    Exception: combat participation)."""
    from core.rules import zoc

    h = hex_of(label)
    if h is None:
        return []
    gm = gmap()
    out = []
    for n in h.neighbours():
        for v in st.units_at(n.label):
            if not zoc.counts_for(v, enemy):
                continue
            if motorized_mover and not info(st, v.id).motorized:
                continue
            if h in zoc.unit_zoc(st, gm, v):
                out.append(v.id)
    return sorted(out)


def in_ezoc(st: GameState, side: str, label: str, *, motorized_mover: bool | None = None) -> bool:
    return bool(zoc_sources(st, other(side), label, motorized_mover=motorized_mover))


def has_line(st: GameState, uid: str, kind: str) -> bool:
    """12.4.2 LOC (motorized) / LOS (others) at the moment of elimination (8.3).  A unit's
    ``flags["loc"]`` / ``flags["los"]`` (set by a scenario or a test) overrides the tracing."""
    u = st.units[uid]
    if kind in u.flags:
        return bool(u.flags[kind])
    h = hex_of(u.loc)
    if h is None:
        return False
    from core.rules import supply

    lines = supply.supply_lines(st, u.side)
    return supply.has_loc(lines, st, u, h) if kind == "loc" else supply.has_los(lines, st, u, h)


def dump_reaches(st: GameState, dump: str, label: str) -> bool:
    """12.6.1: a dump gives combat supply to one hex with an LOS to it: 7 MMP (3 if the dump is
    disrupted, 8.2.1) traced from the dump as a motorised unit would move, never through enemy units
    or EZOC not negated by friendly units, and never extended by an MSU (12.4.1; ruling R-C-DUMP-REACH).
    12.4.1 Exception: a hex of non-motorised units only may draw it from an adjacent hex on the line."""
    d, h = hex_of(st.units[dump].loc), hex_of(label)
    if d is None or h is None:
        return False
    if d == h:
        return True
    reach = _dump_reach(st, dump)
    if h in reach:
        return True
    side = st.units[dump].side
    ours = [u for u in st.units_at(label) if u.side == side and info(st, u.id).is_combat]
    if ours and not any(info(st, u.id).motorized for u in ours):
        return any(n in reach and all(can_enter(st, u.id, n.label, label) for u in ours)
                   for n in h.neighbours() if gmap().on_grid(n))
    return False


def _dump_reach(st: GameState, dump: str) -> set[Hex]:
    from core.rules import supply, tec

    u = st.units[dump]
    rng = supply.dump_range(u) if hasattr(supply, "dump_range") else (3 if u.disrupted else 7) * tec.EIGHTH
    return supply._los_from(st, u.side, hex_of(u.loc), rng, gmap())


def supply_type(st: GameState, uid: str) -> str:
    i = info(st, uid)
    return i.unit_type if i.kind == "supply" else ""


def dumps_for(st: GameState, side: str, label: str, used: Iterable[str] = ()) -> list[str]:
    """Uncaptured friendly dumps that can combat-supply ``label`` (12.6.1; 12.2.7 captured dumps may
    not be expended)."""
    used = set(used)
    return sorted(u.id for u in st.units.values()
                  if u.side == side and u.id not in used and supply_type(st, u.id) == "dump"
                  and not u.captured and hex_of(u.loc) is not None and dump_reaches(st, u.id, label))


def expend(eng: Engine, uid: str, why: str) -> None:
    try:
        from core.rules import supply

        supply.remove_supply_unit(eng, uid, why)
    except ImportError:  # pragma: no cover
        eng.state.units.pop(uid, None)


def gens_supplied(st: GameState, uid: str) -> bool:
    """13.4.1 / EoP: in an overrun, supply follows GenS at the start of movement (not OGS)."""
    u = st.units[uid]
    return not u.ogs and not u.isolated


def air_ok_in(st: GameState, label: str) -> bool:
    """21.2.1: air operations may not be run in Ghibli-affected hexes."""
    return not ghibli_hex(st, label)


def winter_area(st: GameState, label: str) -> bool:
    """21.1: the winter areas (Map A all; Map C mountain hexes; Map T north of the winter line), in any month
    (one definition: ``tec.winter_area_hex``; ``vars["winter_line_hexes"]`` / ``["winter_all_T"]`` add to Map T)."""
    from core.rules import tec

    h = hex_of(label)
    if h is None:
        return False
    return tec.winter_area_hex(gmap(), h, tec.weather_in_force(st)[1])


def winter_hex(st: GameState, label: str, attacker_hexes: Iterable[str] = ()) -> bool:
    """21.1.1: an attack into a winter hex, or across a wadi hexside in a winter area (Map C), during the
    winter months, with the optional weather rules in use (``vars["weather_rules"]``, default on)."""
    if not st.vars.get("weather_rules", True) or not calendar.is_winter(st.gt):
        return False
    if winter_area(st, label):
        return True
    return label[:1] == "C" and any("wadi" in hexside(a, label) for a in attacker_hexes)


def ghibli_hex(st: GameState, label: str) -> bool:
    """21.2 / 6.3: Ghiblis affect desert and rough hexes outside the winter areas (not Map A, not Map T
    north of the temperate line, not Map C mountains): ``tec.ghibli_area_hex``, while a Ghibli is in force."""
    from core.rules import tec

    h = hex_of(label)
    if h is None or not st.ghibli or not st.vars.get("weather_rules", True):
        return False
    return tec.ghibli_area_hex(gmap(), h, tec.weather_in_force(st)[1])


# =========================================================================== pure: CRT reading


def line_options(st: GameState, hexes: list[str], reductions: int = 0) -> list[tuple[int, str]]:
    """14.4: the CRT lines the defender may choose from (every terrain type in every defender hex),
    forts shifting up one line per level (line 5 at most), reductions (15.1, 15.4, 15.7) down."""
    crt = charts.crt()
    out: dict[int, str] = {}
    for h in hexes:
        fl = fort_level(st, h) or 0
        types = [t for t in terrain(h) if t in crt.terrain_lines] or ["all_other"]
        for t in types:
            ln = charts.terrain_line(t, fort_level=fl, reductions=reductions)
            out.setdefault(ln, f"{t}{f' + fort {fl}' if fl else ''} in {h}")
    return sorted(out.items())


def counted(st: GameState, uid: str) -> int:
    """8.3, 14.6, 15.10: steps of a unit, divisional steps counting two."""
    return info(st, uid).counted_steps


def loss_fraction(code: str, counted_steps: int) -> Fraction:
    """14.6: Q = a quarter, H = a half of the group's (counted) steps; fractions kept until totalled."""
    r = charts.decode_result(code)
    if r.loss == "Q":
        return Fraction(counted_steps, 4)
    if r.loss == "H":
        return Fraction(counted_steps, 2)
    return Fraction(0)


def morale_groups(st: GameState, units: list[str]) -> list[tuple[int, list[str]]]:
    """14.5 Important: groups of equal *printed* morale, highest first."""
    groups: dict[int, list[str]] = {}
    for u in units:
        groups.setdefault(info(st, u).morale, []).append(u)
    return sorted(((m, sorted(us)) for m, us in groups.items()), reverse=True)


def legal_loss_picks(st: GameState, pool: list[str], hit: list[str], remaining: int, first: bool) -> list[str]:
    """14.6: units that may lose the next step.

    * no unit loses a second step before every unit of the pool has lost one;
    * the opposing player picks the first step and may not pick a division when only one step is
      required and a non-divisional unit is in the pool (15.10); the owner may.
    """
    alive = [u for u in pool if u in st.units and not gone(st, u)]
    if not alive or remaining <= 0:
        return []
    fresh = [u for u in alive if u not in hit]
    cands = fresh if fresh else alive
    if first and remaining == 1:
        nondiv = [u for u in cands if not info(st, u).divisional]
        if nondiv:
            cands = nondiv
    return sorted(cands)


def loss_decision(st: GameState, L: dict[str, Any], picks: list[str], context: dict[str, Any]) -> Decision:
    """14.6: the next step-loss decision of the loss record ``L`` ({owner, pool, hit, need, done, first}): the
    opposing player picks the first step, the owner the rest.  Map combat and FNA box combat (R-FNA-BOX-COMBAT)."""
    owner = L["owner"]
    chooser = other(owner) if L["first"] else owner
    return Decision(side=chooser, kind="combat_loss",
                    prompt=f"{L.get('name') or owner} loses {L['need'] - L['done']} more step(s): "
                           + ("the opposing player picks the first (14.6)" if L["first"] else "the owner picks (14.6)"),
                    rule="14.6", options=tuple(Option(action=Action(kind="lose_step", side=chooser, args={"unit": u}),
                                                      label=f"{info(st, u).name or u} ({st.units[u].steps} step(s)"
                                                            f"{', divisional' if info(st, u).divisional else ''})") for u in picks),
                    context=context)


def take_loss(eng: Engine, L: dict[str, Any], u: str) -> int:
    """14.6: ``u`` takes the next step of the loss record ``L`` (refused unless a legal pick); the steps lost."""
    st = eng.state
    picks = legal_loss_picks(st, L["pool"], L["hit"], L["need"] - L["done"], L["first"])
    if u not in picks:
        raise IllegalAction(f"{u} may not take this step loss; no unit loses a second step before every unit "
                            "has lost one, and the opponent may not pick a division for a single step (14.6)", "14.6")
    n = lose_step(eng, u, f"{'defender' if L['which'] == 'def' else 'attacker'} step loss (14.6)")
    L["done"] += n
    L["hit"].append(u)
    L["first"] = False
    return n


def gone(st: GameState, uid: str) -> bool:
    """Eliminated (8.3: in the Refit or Destroyed Box) or removed from play."""
    u = st.units.get(uid)
    return u is None or u.loc.startswith(("box:Refit", "box:Destroyed")) or u.loc.startswith("removed")


def retreat_bounds(code: str, in_obstructed: bool) -> tuple[int, int]:
    """14.7.1 via the CRT codes (w 1-3, r 4-6, obstructed: w ignored, r 1-3)."""
    return charts.retreat_hexes(code, obstructed=in_obstructed)


def legal_retreat_steps(st: GameState, uid: str, path: list[str], maximum: int) -> list[str]:
    """14.7.2: the hexes a retreating unit may enter next.

    Not off the map (nor onto a map the scenario does not use, R-MAPS-IN-PLAY, nor into Algeria or Tunisia before
    Operation Torch, 22.7), not into enemy units, not into a hex it already entered (or the combat hex),
    not into terrain it could not enter in movement, not *through* an EZOC: after entering an EZOC
    hex the retreat ends (11.4).  Motorised units ignore non-motorised ZOC (11.2).
    """
    moved = len(path) - 1
    if moved >= maximum:
        return []
    cur = path[-1]
    side = st.units[uid].side
    mot = info(st, uid).motorized
    if moved >= 1 and in_ezoc(st, side, cur, motorized_mover=mot):
        return []
    out = []
    from core.rules import fna, offmap
    me = st.units[uid]
    maps = st.vars.get("maps")
    fna_out = offmap.fna_hexes_out_of_play(st)
    for n in neighbours(cur):
        if n in path:
            continue
        if maps and not offmap.hex_in_play(maps, hex_of(n)):
            continue                                  # "off the map": a map not in play (R-MAPS-IN-PLAY)
        if fna_out and offmap.fna_refusal(st, hex_of(n)):
            continue                                  # 22.7: Algeria and Tunisia out of play until ALC-23 (R-FNA-HEXES)
        if any(fna.hostile_to(v, me) for v in st.units_at(n)):
            continue
        if not can_enter(st, uid, cur, n):
            continue
        if east_limit.barred(st, side, n) and not _retreat_leaves(st, uid, path + [n], maximum):
            continue                                  # 30.0: a retreat may pass the line, not end on or east of it
        out.append(n)
    return sorted(out)


def _retreat_leaves(st: GameState, uid: str, path: list[str], maximum: int) -> bool:
    """30.0 (R-30-EAST): whether a retreat that has entered a hex on or east of Sxx34 can still go on to a hex west
    of it within its maximum (14.7.1, 14.7.2)."""
    side = st.units[uid].side
    return any(not east_limit.barred(st, side, n) or _retreat_leaves(st, uid, path + [n], maximum)
               for n in legal_retreat_steps(st, uid, path, maximum))


def stop_allowed(st: GameState, uid: str, path: list[str], minimum: int) -> bool:
    """14.7.1: a retreat may stop after the minimum, or in the first city, fort or mountain hex; 30.0: never on or
    east of Sxx34 once it has left the combat hex."""
    moved = len(path) - 1
    if moved >= 1 and east_limit.barred(st, st.units[uid].side, path[-1]):
        return False
    return moved >= minimum or (moved >= 1 and obstructed(st, path[-1]))


# =========================================================================== combat view & odds


def combat_view(st: GameState, attacker_side: str, attackers: list[str], hexes: list[str], form: str,
                data: dict[str, Any] | None = None) -> CombatView:
    """The arithmetic view of one combat (14.1 steps 1-4) from a frame's data."""
    from core.rules import fna
    data = data or {}
    defenders = sorted(u.id for h in hexes for u in st.units_at(h)
                       if fna.hostile(u, attacker_side) and info(st, u.id).is_combat)
    if data.get("only_defenders") is not None:      # 15.3 recon superiority: one part of the stack
        defenders = [u for u in defenders if u in set(data["only_defenders"])]
    tag = phase_tag(st)
    across = {}
    for a in attackers:
        loc = st.units[a].loc
        s: frozenset[str] = frozenset()
        for h in hexes:
            s |= hexside(loc, h)
        across[a] = s
    return CombatView(
        attacker_side=attacker_side, form=form, attackers=list(attackers), defenders=defenders, hexes=list(hexes),
        att_supplied={u: bool(v) for u, v in data.get("att_supplied", {}).items()},
        def_supplied={u: bool(v) for u, v in data.get("def_supplied", {}).items()},
        att_air=list(data.get("att_air", [])), def_air=list(data.get("def_air", [])),
        att_fleet=list(data.get("att_fleet", [])), def_fleet=list(data.get("def_fleet", [])),
        def_artillery_support=list(data.get("def_art", [])),
        at_targets=dict(data.get("at_targets", {})),
        no_strength={u for u in defenders if st.units[u].flags.get("retreated_in") == tag},
        obstructed=any(obstructed(st, h) for h in hexes),
        fort_or_city=any(is_city(h) or fort_level(st, h) is not None for h in hexes),
        desert={h: is_desert(h) for h in set(hexes) | {st.units[u].loc for u in attackers + defenders}},
        fort_in_hex={h: fl for h in set(hexes) | {st.units[u].loc for u in attackers + defenders}
                     if (fl := fort_level(st, h)) is not None},
        across=across,
        airfields=dict(data.get("airfields") or {}),
    )


def phase_tag(st: GameState) -> str:
    return f"{st.gt}.{st.phase}"


def impulse_tag(st: GameState) -> str:
    """The GT and impulse (4.1) of the current phase: fleets fly one mission each impulse (20.4.2)."""
    from core import sequence

    try:
        imp = sequence.phase(st.phase).impulse
    except ValueError:          # a phase outside the sequence (hand-built test states): tagged by its number
        imp = str(st.phase)
    return f"{st.gt}:{imp}"


#: 19.1.1 / 19.1.2: maps adjoining each map on the board (layout in docs/maps; ruling R-C-AIR-AREA)
MAP_ADJ = {"A": "T", "T": "AL", "L": "TS", "S": "LC", "C": "SW", "W": "C"}
AIR_BOX_SUFFIX = ("Superiority", "AvailableNextTurn", "AvailableNext")


def air_box(st: GameState, air: str) -> str | None:
    """The holding box name an air unit flies from (19.1), None if it is not in one that can fly
    ground support (the Air Superiority and Available Next Turn boxes cannot)."""
    u = st.units[air]
    loc = u.loc
    if not loc.startswith("box:") or any(x in loc for x in AIR_BOX_SUFFIX):
        return None
    try:
        from core.rules import air as air_rules

        name = air_rules.holding_boxes(u.side).get(loc)
        if name:
            return name
    except ImportError:  # pragma: no cover
        pass
    if loc.startswith("box:Air:"):
        return loc.split(":")[-1]      # test states and older data: box:Air:<Side>:<Box>
    return None


def _base_maps(st: GameState, side: str) -> frozenset[str]:
    """Maps holding a friendly supplied (not OGS, not captured) base (19.1.1, 19.1.2 b); memoised beside the state
    until a unit changes (asked for every air unit and hex of the air mission options)."""
    def compute() -> frozenset[str]:
        return frozenset(u.loc[:1] for u in st.units.values()
                         if u.side == side and supply_type(st, u.id) == "base" and not u.ogs and not u.captured
                         and hex_of(u.loc))
    return st.units.derived(("base_maps", side), compute)


def air_area_ok(st: GameState, air: str, label: str) -> bool:
    """19.5 / 19.1: whether ``label`` is within the area of operations of the air unit's holding box.

    Axis North Africa: Maps L, S, C, W containing, or adjacent to a map containing, a friendly supplied
    base; Sicily: Map T; Crete: Maps C and W.  Allied North Africa: Maps C and W (short range: with
    the base condition), long range any map; Torch: Maps A and T (long range any map); NRV: Map W
    within 10 hexes of the east edge (columns 25-34); Malta: no ground support.  A box the rules do
    not name (test data) is not restricted."""
    box = air_box(st, air)
    if box is None or hex_of(label) is None:
        return False
    u = st.units[air]
    m = label[:1]
    long_range = _counter_field(air, "range") == "L"
    near_base = any(b == m or b in MAP_ADJ.get(m, "") for b in _base_maps(st, u.side))
    if u.side == "Axis":
        if box == "NorthAfrica":
            return m in "LSCW" and near_base
        if box == "Sicily":
            return m == "T"
        if box == "Crete":
            return m in "CW"
        return box not in ("Malta", "NRV", "Torch")
    if box == "NorthAfrica":
        return long_range or (m in "CW" and near_base)
    if box == "Torch":
        return long_range or m in "AT"
    if box == "NRV":
        return m == "W" and int(label[-2:]) >= 25
    if box == "Malta":
        return False
    return True


def _counter_field(uid: str, name: str) -> Any:
    from core.counters import all_counters, resolve

    c = all_counters().get(resolve(uid.split("#")[0]) or uid.split("#")[0])
    return getattr(c, name, None) if c is not None else None


def friendly_airfields(st: GameState, side: str) -> list[str]:
    """19.5: friendly, supplied and not disrupted airfields (19.1.3): the map's airfields controlled by
    ``side`` (2.2.2; else occupied by its units only), with an LOS (12.4), not disrupted
    (``vars["airfields_disrupted"]``, 16.4, 8.2.1).  ``vars["airfields"][side]`` (scenario or test
    data) lists extra ones."""
    from core import mapdata
    from core.rules import supply

    out = list(st.vars.get("airfields", {}).get(side, []))
    fields = mapdata.load().airfields()
    disrupted = st.vars.get("airfields_disrupted", {})
    cand = []
    for h in fields:
        lab = h.label
        if lab in disrupted:
            continue
        if control.controls(st, side, lab):
            cand.append(h)
    if cand:
        lines = supply.supply_lines(st, side)
        out += [h.label for h in cand if h in lines.los]
    return sorted(set(out))


def air_shift(st: GameState, air: str, label: str, fields: Iterable[str] | None = None) -> int:
    """19.5: the ground support rating, +1 within 10 hexes of a friendly supplied undisrupted airfield."""
    i = info(st, air)
    bonus = 0
    h = hex_of(label)
    if fields is None:
        fields = friendly_airfields(st, st.units[air].side)
    for lab in fields:
        a = hex_of(lab)
        if a is not None and h is not None and a.distance(h) <= 10:
            bonus = 1
            break
    return i.gs + bonus


FLEET_MAPS = {"UK-MedFleet": "WC", "UK-ForceH": "AT", "UK-MaltaFleet": ""}   # 20.4.2
COASTAL_MISSIONS_BOX = "box:CoastalMissions"


def coastal(label: str) -> bool:
    """20.4.2: a coastal hex (a land hex next to the sea, or a port)."""
    h = hex_of(label)
    if h is None:
        return False
    gm = gmap()
    if h in gm.ports or any("sea" in gm.terrain.get(n, frozenset()) for n in h.neighbours()):
        return True
    if gm.source == "synthetic":
        return False
    from core import mapdata

    md = mapdata.load()
    return md.has(h) and md.is_coastal(h)      # a hex outside the printed maps is not coastal


def fleet_support_units(st: GameState, side: str, label: str) -> list[str]:
    """20.4.2 Ground Unit Support: fleets allocated to coastal missions (in the Coastal Missions Box,
    or ``flags["coastal_mission"]``), not hit or in port after a mission (19.3), on their maps (Med:
    W and C; Force H: A and T; Malta never), one ground support mission each impulse (``flags["support_used"]``
    holds the :func:`impulse_tag`), for or against a defender on a coastal hex."""
    if not coastal(label):
        return []
    out = []
    for u in sorted(st.units.values(), key=lambda x: x.id):
        if u.side != side or info(st, u.id).kind != "fleet":
            continue
        if not (u.loc == COASTAL_MISSIONS_BOX or u.flags.get("coastal_mission")):
            continue
        if u.flags.get("in_port") or u.flags.get("hit") or u.flags.get("support_used") == impulse_tag(st):
            continue
        base = u.id.split("#")[0]
        maps = FLEET_MAPS.get(base, FLEET_MAPS.get(_canon(base), None))
        if maps is not None and label[:1] not in maps:
            continue
        out.append(u.id)
    return out


def fleet_strikers(st: GameState, side: str, label: str, busy: Iterable[str] = ()) -> list[str]:
    """20.4.2: the air units of ``side`` (the Axis) available for a naval strike (19.9.1) on a fleet placed
    adjacent to ``label`` before a combat: not based, with a naval rating (N), in a holding box whose area of
    operations holds the hex (19.1), not in a Ghibli-affected hex (21.2.1), not already committed to the combat."""
    if not air_ok_in(st, label):
        return []
    busy = set(busy)
    out = []
    for u in sorted(st.units.values(), key=lambda x: x.id):
        if u.side != side or u.id in busy or info(st, u.id).kind != "air" or u.flags.get("based"):
            continue
        if not _counter_field(u.id, "naval") or not air_area_ok(st, u.id, label):
            continue
        out.append(u.id)
    return out


def strike_fleet(eng: Engine, fleet: str, strikers: list[str], *, port: bool, cancelled: str) -> int:
    """20.4.2 / 19.9.2 Strikes on Fleets: the naval strike (19.9.1 dice, ``air.naval_strike``) on a fleet placed
    for a coastal mission; a hit fleet is marked ``flags["hit"]`` (no more coastal missions until its next
    allocation) and its mission is cancelled (``cancelled`` says how); then the strikers check for mission
    damage (19.3; +1 when the mission is in a city or port hex, ``port``).  Returns the hits.  Used by the
    combat's naval ground support and by the Movement-Phase fleet missions (``core.rules.fleets``)."""
    from core.rules import air

    st = eng.state
    hits = air.naval_strike(eng, list(strikers))
    if hits:
        st.units[fleet].flags = dict(st.units[fleet].flags) | {"hit": True}
        eng.say(f"The naval strike hits {info(st, fleet).name} ({hits} hit(s)): {cancelled} (20.4.2)")
    else:
        eng.say(f"The naval strike on {info(st, fleet).name} misses (19.9.1)")
    for a in strikers:
        r = air.mission_damage(eng, a, city_or_port=port)
        eng.say(f"{info(st, a).name}: mission damage {r} (19.3)")
    return hits


def _canon(uid: str) -> str:
    from core.counters import resolve

    return resolve(uid) or uid


def general_shifts(st: GameState, attacker_side: str, view: CombatView) -> list[tuple[int, str]]:
    """Shifts that move the column for both sides' results: surprise (6.2), US inexperience (ALC-25)."""
    out: list[tuple[int, str]] = []
    if st.surprise and attacker_side == st.first_player:
        out.append((2, "surprise: first player attack (6.2)"))
    level = st.vars.get("us_inexperience")
    if level in (1, 2):
        nats = {info(st, u).nationality for u in view.attackers + view.defenders}
        if "US" in nats and "GE" in nats:
            n = level
            out.append((n if attacker_side == "Axis" else -n, "US inexperience, in the Axis favour (ALC-25)"))
    return out


def support_shifts(st: GameState, view: CombatView, attacking: bool, deliberate_extra: Iterable[str] = ()) -> list[tuple[int, str]]:
    """Support shifts of one side: artillery (15.1), air (19.5), fleets (20.4.2)."""
    out: list[tuple[int, str]] = []
    n, why = su.artillery_shifts(st, view, attacking, deliberate_extra)
    if n:
        out.append((n, "; ".join(why)))
    label = view.hexes[0] if view.hexes else ""
    fields = view.airfields.get("att" if attacking else "def") if view.airfields else None
    for a in (view.att_air if attacking else view.def_air):
        out.append((air_shift(st, a, label, fields), f"air ground support {a} (19.5)"))
    for f in (view.att_fleet if attacking else view.def_fleet):
        out.append((1, f"naval ground support {f} (20.4.2)"))
    return out


def preview(st: GameState, attacker_side: str, attackers: list[str], hexes: list[str], form: str,
            data: dict[str, Any] | None = None, line: int | None = None) -> dict[str, Any]:
    """Strengths, line, odds, base column, shifts and the results for each die roll (14.3-14.5)."""
    data = data or {}
    view = combat_view(st, attacker_side, attackers, hexes, form, data)
    s = su.strengths(st, view)
    red, red_why = su.line_reductions(st, view)
    opts = line_options(st, hexes, red)
    if line is None:
        line = data.get("line") or max(ln for ln, _ in opts)
    paren = form in ("overrun", "mobile")
    odds = charts.crt_odds(s["attack"], s["defence"], line, overrun=form == "overrun", mobile=form == "mobile")
    gen = general_shifts(st, attacker_side, view)
    for d, why in data.get("extra_general", []):
        gen.append((d, why))
    att_sup = support_shifts(st, view, True, data.get("deliberate_extra", []))
    def_sup = support_shifts(st, view, False)
    g, a, dd = sum(x for x, _ in gen), sum(x for x, _ in att_sup), sum(x for x, _ in def_sup)
    sup_att = {u: view.att_supplied.get(u, True) for u in attackers}
    sup_def = {u: view.def_supplied.get(u, True) for u in view.defenders}
    # 14.5: each defender reads the CRT line of its modified morale (ruling R-C-MORALE-LINE)
    top = charts.crt().max_morale_line
    def_lines = {u: max(1, min(top, su.effective_morale(st, u, combat_supplied=sup_def[u], desert=is_desert(st.units[u].loc),
                                                         fort_level_here=fort_level(st, st.units[u].loc))))
                 for u in view.defenders}
    rows = []
    for die in range(1, 7):
        cd, ca = charts.final_columns(odds.column, die, general=g, attacker_support=a, defender_support=dd)
        rows.append({
            "die": die, "defender_column": cd, "attacker_column": ca,
            "defender": {str(m): charts.crt_result(cd, m) for m in range(1, charts.crt().max_morale_line + 1)},
            "attacker": {"supplied": charts.attacker_result(ca, True), "unsupplied": charts.attacker_result(ca, False)},
            "by_unit": {u: charts.crt_result(cd, def_lines[u]) for u in view.defenders}
            | {u: charts.attacker_result(ca, bool(sup_att[u])) for u in attackers},
        })
    return {
        "form": form, "hexes": list(hexes), "attackers": list(attackers), "defenders": view.defenders,
        "strengths": s, "attack": s["attack"], "defence": s["defence"],
        "line": line, "line_options": [{"line": ln, "why": w} for ln, w in opts],
        "line_reductions": red_why, "odds": odds.text, "column": odds.column, "parenthesised_allowed": paren,
        "general_shifts": [{"columns": x, "why": w} for x, w in gen],
        "attacker_shifts": [{"columns": x, "why": w} for x, w in att_sup],
        "defender_shifts": [{"columns": x, "why": w} for x, w in def_sup],
        "general": g, "attacker_support": a, "defender_support": dd,
        "attackers_supplied": sup_att, "defenders_supplied": sup_def, "defender_lines": def_lines, "results": rows,
    }


def query_odds(eng: Engine, attackers: list[str], hex: str, form: str = "regular", supplied: bool = True,
               defender_supplied: bool = True, line: int | None = None, hexes: list[str] | None = None,
               **kw: Any) -> dict[str, Any]:
    """GUI query ``odds``: a proposed attack's itemised strengths, shifts, line, column and the
    results for every die roll, without rolling (14.3-14.5)."""
    st = eng.state
    if not attackers:
        raise IllegalAction("an attack needs at least one attacking unit", "14.2")
    side = st.units[attackers[0]].side
    hx = list(hexes or [hex])
    view = combat_view(st, side, attackers, hx, form)

    def per_unit(units: list[str], given: Any, default: bool) -> dict[str, bool]:
        # 14.5 Important / 12.6: combat supply is declared per hex, so a force may be partly supplied;
        # ``given`` is a bool for every unit or a dict unit id -> bool (units not named: ``default``)
        if form in ("overrun",):
            return {u: gens_supplied(st, u) for u in units}          # 13.4.1: GenS, no combat supply
        if form == "amphibious" and units is attackers:
            return {u: True for u in units}                           # 20.5: landing attackers are supplied
        if isinstance(given, dict):
            return {u: bool(given.get(u, default)) or info(st, u).garrison for u in units}
        return {u: bool(given) or info(st, u).garrison for u in units}

    att_sup = kw.get("att_supplied", supplied)
    def_sup = kw.get("def_supplied", defender_supplied)
    data: dict[str, Any] = {
        "att_supplied": per_unit(attackers, att_sup, bool(supplied)),
        "def_supplied": per_unit(view.defenders + list(kw.get("def_art", [])), def_sup, bool(defender_supplied)),
        "att_air": list(kw.get("att_air", [])), "def_air": list(kw.get("def_air", [])),
        "att_fleet": list(kw.get("att_fleet", [])), "def_fleet": list(kw.get("def_fleet", [])),
        "def_art": list(kw.get("def_art", [])), "deliberate_extra": list(kw.get("deliberate_extra", [])),
        "at_targets": dict(kw.get("at_targets") or default_at_targets(st, view)),
    }
    if kw.get("only_defenders") is not None:
        data["only_defenders"] = list(kw["only_defenders"])
    return preview(st, side, attackers, hx, form, data, line)


def default_at_targets(st: GameState, view: CombatView) -> dict[str, str]:
    """For a preview: each usable AT unit against the strongest enemy mechanised unit."""
    out: dict[str, str] = {}
    for side_units, enemies in ((view.defenders, view.attackers), (view.attackers, view.defenders)):
        mechs = sorted((u for u in enemies if info(st, u).mech), key=lambda u: (-info(st, u).cf, u))
        if not mechs:
            continue
        for a in side_units:
            if info(st, a).at > 0:
                out[a] = mechs[0]
    return out


QUERIES["odds"] = query_odds


# =========================================================================== elimination and steps


def eliminate(eng: Engine, uid: str, why: str, *, destroyed: bool = False) -> int:
    """8.3: an eliminated unit goes to the Refit Box if it has a LOC (motorized) / LOS (others),
    else the Destroyed Box; No Cadre units always to the Destroyed Box.  Returns counted steps lost."""
    st = eng.state
    u = st.units[uid]
    i = info(st, uid)
    n = i.counted_steps
    if i.kind == "supply":
        expend(eng, uid, why)
        return 0
    to_destroyed = destroyed or i.no_cadre or not has_line(st, uid, "loc" if i.motorized else "los")
    box = f"box:{'Destroyed' if to_destroyed else 'Refit'}:{u.side}"
    u.loc = box
    u.disrupted = False
    u.flags = {k: v for k, v in u.flags.items() if k not in ("retreated_in", "battle")}
    eng.say(f"{i.name or uid} is eliminated ({why}) and placed in the {'Destroyed' if to_destroyed else 'Refit'} Box (8.3)")
    return n


def lose_step(eng: Engine, uid: str, why: str, *, destroyed: bool = False) -> int:
    """8.3: a two-step unit at full strength flips; otherwise it is eliminated.  Returns the counted
    steps lost (divisional steps count two, 14.6)."""
    st = eng.state
    i = info(st, uid)
    if st.units[uid].steps >= 2:
        st.units[uid].steps -= 1
        eng.say(f"{i.name or uid} loses a step ({why}) (8.3)")
        return i.step_weight
    return eliminate(eng, uid, why, destroyed=destroyed)


def stacking_points(st: GameState, label: str) -> int:
    return sum(info(st, u.id).stack_pts for u in st.units_at(label) if info(st, u.id).is_combat)


def stack_limit(label: str) -> int:
    return charts.stacking_limit(city=is_city(label))


# =========================================================================== the combat phase (14.0, 14.2)


def combat_units(st: GameState, side: str) -> list[str]:
    return sorted(u.id for u in st.units.values()
                  if u.side == side and hex_of(u.loc) is not None and info(st, u.id).is_combat)


def enemy_hexes_adjacent(st: GameState, side: str, label: str) -> list[str]:
    from core.rules import fna
    return sorted({n for n in neighbours(label)
                   if any(fna.hostile(v, side) and info(st, v.id).kind in ("combat", "supply") for v in st.units_at(n))})


def may_attack(st: GameState, uid: str) -> str | None:
    """Why ``uid`` may not attack at all (None if it may): 15.8 garrisons, 12.2.6 supply units,
    14.3 zero factors, 16.1 desert raiders on the hex grid (with the optional rules of 16.0, R-RAID-OFF)."""
    from core.rules import fna
    i = info(st, uid)
    if not i.is_combat:
        return "supply units alone cannot attack (12.2.6)"
    if uid in st.units and fna.neutral_vf(st.units[uid]):
        return f"{i.name or uid} is a neutral Vichy French unit: VF units do not attack (22.7 Important; 23.1 ALC-21 i)"
    if uid in st.units and fna.inactive_vf(st, st.units[uid]):
        return f"{i.name or uid} is a Vichy French unit, not active until ALC-23 is played (23.1 ALC-3 Important)"
    if i.garrison:
        return f"{i.name} is a garrison; garrisons may not attack (15.8)"
    if uid in st.units and is_desert_raider(st, st.units[uid]) and hex_of(st.units[uid].loc) is not None:
        return f"{i.name} is a desert raider; desert raiders may not attack on the hex grid (16.1)"
    if i.cf <= 0 and not i.paren:
        return f"{i.name} has a zero combat factor (14.3)"
    return None


def check_declaration(st: GameState, side: str, combats: list[dict[str, Any]], new: dict[str, Any]) -> dict[str, Any]:
    """Validate a declaration (14.2, 14.4, 14.9) and return the combat it creates or extends."""
    attackers = sorted(set(new.get("attackers") or []))
    hexes = sorted(set(new.get("hexes") or ([new["hex"]] if new.get("hex") else [])))
    form = new.get("form", "regular")
    if form not in ("regular", "mobile", "deliberate", "amphibious"):
        raise IllegalAction(f"{form!r} is not a form of combat declared in the Combat Phase (regular, mobile, "
                            "deliberate, amphibious)", "14.9")
    if not attackers or not hexes:
        raise IllegalAction("a combat needs attacking units and a defending hex", "14.2")
    from core.rules import combat_forms

    if form == "amphibious":
        combat_forms.check_amphibious(st, side, combats, attackers, hexes)
        return {"attackers": attackers, "hexes": hexes, "form": form, "target": None}
    recon = bool(new.get("recon"))
    target = None
    for c in combats:
        if set(hexes) & set(c["hexes"]) or set(attackers) & set(c["attackers"]):
            if target is not None and target is not c:
                raise IllegalAction("these units and hexes belong to two different declared combats", "14.2")
            target = c
    merged_att = sorted(set(attackers) | set(target["attackers"] if target else []))
    merged_hex = sorted(set(hexes) | set(target["hexes"] if target else []))
    if target is not None:
        form = target["form"] if new.get("form") in (None, "regular") else form
        if form != target["form"]:
            raise IllegalAction("a combat has one form (14.9)", "14.9")
    for u in attackers:
        if u not in st.units or st.units[u].side != side:
            raise IllegalAction(f"{u} is not a {side} unit", "14.0")
        if hex_of(st.units[u].loc) is None:
            raise IllegalAction(f"{u} is not on the map", "14.0")
        why = may_attack(st, u)
        if why:
            raise IllegalAction(why, "14.2")
        for c in combats:
            if c is not target and u in c["attackers"]:
                raise IllegalAction(f"{u} already attacks in another combat; each unit takes part in one combat per phase", "14.2")
            if c is not target and any(st.units[x].loc == st.units[u].loc for x in c["attackers"]):
                raise IllegalAction(f"units stacked with {u} attack in another combat; stacked attackers may not "
                                    "take part in different combats", "14.2")
        if c_done(combats, u):
            raise IllegalAction(f"{u} has already attacked this phase", "14.2")
    from core.rules import fna
    for h in hexes:
        if not any(fna.hostile(v, side) and info(st, v.id).kind in ("combat", "supply") for v in st.units_at(h)):
            raise IllegalAction(f"{h} holds no enemy unit to attack", "14.0")
        if any(fna.neutral_vf(v) for v in st.units_at(h)) and any(fna.is_vf(u) for u in merged_att):
            raise IllegalAction(f"{h} holds neutral Vichy French units: Vichy units that join the Allies cannot "
                                "attack neutral Vichy units (23.1 ALC-21 Important; 22.7 Important)", "23.1 ALC-21 i")
        for c in combats:
            if c is not target and h in c["hexes"]:
                raise IllegalAction(f"{h} is already attacked in another combat; stacked defenders are attacked "
                                    "in the same combat (14.2, recon superiority 15.3 excepted)", "14.2")
    for u in merged_att:
        for h in merged_hex:
            if not adjacent(st.units[u].loc, h):
                raise IllegalAction(f"{u} in {st.units[u].loc} is not adjacent to {h}: every attacker must be "
                                    "adjacent to every defending hex", "14.2")
            if not can_enter(st, u, st.units[u].loc, h):
                raise IllegalAction(f"{u} could not move into {h}; it cannot attack into or across prohibited terrain", "14.4")
    for u in merged_att:
        if info(st, u).paren:
            mates = [x for x in merged_att if st.units[x].loc == st.units[u].loc and info(st, x).real_cf]
            if not mates:
                raise IllegalAction(f"{u} has a parenthesised combat factor: it may only attack with a stacked "
                                    "unit with a non-parenthesised factor", "14.2")
    if sum(info(st, u).cf for u in merged_att if info(st, u).real_cf) <= 0:
        raise IllegalAction("an attacking force with a total combat factor of zero cannot attack", "14.3")
    combat_forms.check_form(st, side, merged_att, merged_hex, form)
    recon = recon or bool(target and target.get("recon"))
    if recon:
        combat_forms.check_recon_split(st, side, merged_att, merged_hex)
    return {"attackers": merged_att, "hexes": merged_hex, "form": form, "target": target, "recon": recon}


def c_done(combats: list[dict[str, Any]], u: str) -> bool:
    return any(u in c["attackers"] and c.get("resolved") for c in combats)


def unmet_requirements(st: GameState, side: str, combats: list[dict[str, Any]]) -> list[str]:
    """14.2 Important: every enemy unit projecting a ZOC onto the hex of an attacking unit must be
    attacked (non-motorised ZOC counts, 11.2 Exception), unless the attackers could not attack it
    across prohibited terrain (14.4)."""
    attacked = {h for c in combats for h in c["hexes"]}
    attacking = {u for c in combats for u in c["attackers"]}
    out = []
    for loc in sorted({st.units[u].loc for u in attacking if u in st.units}):
        for src in zoc_sources(st, other(side), loc):
            h = st.units[src].loc
            if h in attacked:
                continue
            ours = [u for u in st.units_at(loc) if u.side == side and may_attack(st, u.id) is None]
            if not any(can_enter(st, u.id, loc, h) for u in ours):
                continue
            out.append(f"{src} in {h} projects a ZOC onto {loc}, where units attack: it must be attacked (14.2)")
    from core.rules import special_forces

    return out + special_forces.owed_landings(st, side, combats)


def declare_options(st: GameState, side: str, combats: list[dict[str, Any]]) -> list[Option]:
    """Enumerable declarations: the units of one hex against one adjacent enemy hex (joining the
    combat already declared against it), extending a combat to another hex, cancelling."""
    opts: list[Option] = []
    busy = {u for c in combats for u in c["attackers"]}
    by_hex: dict[str, list[str]] = {}
    for u in combat_units(st, side):
        if u in busy or may_attack(st, u):
            continue
        by_hex.setdefault(st.units[u].loc, []).append(u)
    for loc, units in sorted(by_hex.items()):
        if any(st.units[x].loc == loc for x in busy):
            continue
        for h in enemy_hexes_adjacent(st, side, loc):
            for form in ("regular", "mobile", "deliberate"):
                req = {"attackers": units, "hexes": [h], "form": form}
                try:
                    if form != "regular":
                        req["attackers"] = [u for u in units if st.units[u].flags.get("battle") == form]
                        if not req["attackers"]:
                            continue
                    check_declaration(st, side, combats, req)
                except IllegalAction:
                    continue
                label = f"{form.title() + ' battle: ' if form != 'regular' else ''}attack {h} with {', '.join(req['attackers'])} ({loc})"
                opts.append(Option(action=Action(kind="declare", side=side, args={
                    "attackers": req["attackers"], "hexes": [h], "form": form}), label=label))
                if form == "regular" and not any(h in c["hexes"] for c in combats):
                    try:
                        check_declaration(st, side, combats, req | {"recon": True})
                    except IllegalAction:
                        continue
                    opts.append(Option(action=Action(kind="declare", side=side, args={
                        "attackers": req["attackers"], "hexes": [h], "form": form, "recon": True}),
                        label=f"Recon superiority: attack the stack in {h} twice with {', '.join(req['attackers'])} (15.3)"))
    for k, c in enumerate(combats):
        for h in sorted({n for a in c["attackers"] for n in enemy_hexes_adjacent(st, side, st.units[a].loc)} - set(c["hexes"])):
            try:
                check_declaration(st, side, combats, {"attackers": c["attackers"], "hexes": c["hexes"] + [h], "form": c["form"]})
            except IllegalAction:
                continue
            opts.append(Option(action=Action(kind="declare", side=side, args={
                "attackers": c["attackers"], "hexes": sorted(c["hexes"] + [h]), "form": c["form"]}),
                label=f"Extend combat {k + 1} to {h}"))
        opts.append(Option(action=Action(kind="cancel", side=side, args={"combat": k}),
                           label=f"Cancel combat {k + 1} ({', '.join(c['hexes'])})"))
    from core.rules import combat_forms

    opts += combat_forms.amphibious_options(st, side, combats)
    return opts


def attacked_hexes(combats: list[dict[str, Any]]) -> list[str]:
    """Every hex declared attacked this Combat Phase (15.1 defensive artillery)."""
    return sorted({h for c in combats for h in c["hexes"]})


@procedure("combat_phase")
class CombatPhase(Procedure):
    """4.1 VIII/XI/XIV/XVII (14.0): declare every combat, then resolve them in the attacker's order."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None | object:
        st = eng.state
        d = frame.data
        side = eng.phasing_side() or st.first_player
        d.setdefault("side", side)
        side = d["side"]
        combats: list[dict[str, Any]] = d.setdefault("combats", [])
        stage = d.setdefault("stage", "declare")
        if stage == "declare":
            opts = declare_options(st, side, combats)
            unmet = unmet_requirements(st, side, combats)
            if not unmet:
                opts.append(Option(action=Action(kind="done", side=side),
                                   label="No more attacks: resolve the declared combats" if combats else "No attacks"))
            return Decision(side=side, kind="combat_declare",
                            prompt="Declare all attacks before resolving any (14.0)" + (f"; still required: {unmet[0]}" if unmet else ""),
                            rule="14.0; 14.2", options=tuple(opts), free_kinds=("declare", "done"),
                            context={"combats": combats, "required": unmet})
        if stage == "order" and d.get("recon"):
            from core.rules import combat_forms

            return combat_forms.recon_decide(eng, frame)
        if stage == "order":
            left = [k for k, c in enumerate(combats) if not c.get("resolved")]
            if not left:
                for u in st.units.values():
                    if "retreated_in" in u.flags:
                        u.flags = {k: v for k, v in u.flags.items() if k != "retreated_in"}
                return None
            if len(left) == 1:
                self._start(eng, frame, left[0])
                return CONTINUE
            return Decision(side=side, kind="combat_order", prompt="Choose the next combat to resolve (14.0)", rule="14.0",
                            options=tuple(Option(action=Action(kind="resolve", side=side, args={"combat": k}),
                                                 label=f"Resolve the attack on {', '.join(combats[k]['hexes'])}")
                                          for k in left), context={"combats": _plain(combats)})
        return None

    def _start(self, eng: Engine, frame: Frame, k: int) -> None:
        c = frame.data["combats"][k]
        c["resolving"] = True
        if c.get("recon"):
            frame.data["recon"] = {"k": k, "stage": "split"}
            return
        eng.push("resolve_combat", attackers=list(c["attackers"]), hexes=list(c["hexes"]), form=c["form"],
                 side=frame.data["side"], index=k, attacked_hexes=attacked_hexes(frame.data["combats"]))

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        st = eng.state
        d = frame.data
        side = d["side"]
        combats = d["combats"]
        if action.kind == "declare":
            got = check_declaration(st, side, combats, dict(action.args))
            if got["target"] is not None:
                got["target"].update(attackers=got["attackers"], hexes=got["hexes"], form=got["form"])
                if got.get("recon"):
                    got["target"]["recon"] = True
            else:
                combats.append({"attackers": got["attackers"], "hexes": got["hexes"], "form": got["form"]}
                               | ({"recon": True} if got.get("recon") else {}))
            eng.say(f"{side} declares a {got['form']} attack on {', '.join(got['hexes'])} with {', '.join(got['attackers'])} (14.0)")
            return
        if action.kind == "cancel":
            k = int(action.args.get("combat", -1))
            if not 0 <= k < len(combats) or d["stage"] != "declare":
                raise IllegalAction("no such declared combat to cancel", "14.0")
            combats.pop(k)
            return
        if action.kind == "done":
            from core.rules import special_forces

            owed = special_forces.owed_landings(st, side, combats)
            if owed:
                raise IllegalAction(owed[0], "15.4")
            unmet = unmet_requirements(st, side, combats)
            if unmet:
                raise IllegalAction(unmet[0], "14.2")
            d["stage"] = "order"
            return
        if action.kind in ("recon_split", "recon_assign"):
            from core.rules import combat_forms

            combat_forms.recon_apply(eng, frame, action)
            return
        if action.kind == "resolve":
            k = int(action.args.get("combat", -1))
            if not 0 <= k < len(combats) or combats[k].get("resolved"):
                raise IllegalAction("that combat is not waiting to be resolved", "14.0")
            self._start(eng, frame, k)
            return
        super().apply(eng, frame, action)

    def resume(self, eng: Engine, frame: Frame, child: Frame) -> None:
        if child.proc == "resolve_combat" and child.data.get("recon_part"):
            from core.rules import combat_forms

            combat_forms.recon_resume(eng, frame, child)
            return
        if child.proc == "resolve_combat":
            k = child.data.get("index")
            if k is not None:
                frame.data["combats"][k]["resolved"] = True
                frame.data["combats"][k]["outcome"] = child.data.get("outcome", {})


for _key in COMBAT_STEPS:
    on_step(_key, "combat_phase")


# =========================================================================== one combat (14.1)


def lone_desert_raider(st: GameState, uid: str) -> bool:
    """16.1: a desert raider on the hex grid not stacked with a non-desert-raider unit of its side (no raider
    without the optional rules of 16.0: R-RAID-OFF)."""
    u = st.units[uid]
    if not is_desert_raider(st, u) or hex_of(u.loc) is None:
        return False
    return not any(o.side == u.side and o.id != uid and info(st, o.id).is_combat and not is_desert_raider(st, o)
                   for o in st.units_at(u.loc))


def _roll_morale(eng: Engine, uid: str, morale: int, why: str) -> bool:
    die = eng.roll(1)[0]
    ok = morale_passes(die, morale)
    eng.say(f"Morale check ({why}): {info(eng.state, uid).name or uid} rolls {die} + morale {morale} = {die + morale}: "
            f"{'passes' if ok else 'fails'} (8.1)")
    return ok


def chad_pulls_back(eng: Engine, uid: str) -> bool:
    """16.1: "The CW (Free French) Chad unit ... If forced to retreat, it pulls back off the map.  It may re-enter
    at Kufra in the next friendly Movement Phase."  Chad goes to the NRV box (ruling R-C-CHAD); the ground rules
    let it re-enter only at Kufra from there.  True when ``uid`` is Chad and was pulled back."""
    from core.rules import offmap, raiders

    if not raiders.is_chad(uid) or uid not in eng.state.units:
        return False
    frm = eng.state.units[uid].loc
    eng.state.units[uid].loc = offmap.NRV
    eng.state.units[uid].reserve = False
    eng.say(f"{info(eng.state, uid).name or uid} is forced to retreat from {frm}: it pulls back off the map "
            "(to the NRV box) and may re-enter only at Kufra (16.1)")
    return True


def _disrupt(eng: Engine, uid: str, why: str) -> None:
    u = eng.state.units[uid]
    if not u.disrupted:
        u.disrupted = True
        eng.say(f"{info(eng.state, uid).name or uid} is disrupted ({why})")


@procedure("resolve_combat")
class ResolveCombat(Procedure):
    """One combat (14.1 steps 1-7); see the module docstring for the frame data."""

    # ------------------------------------------------------------------ set-up
    def enter(self, eng: Engine, frame: Frame) -> None:
        st = eng.state
        d = frame.data
        hexes = list(d.get("hexes") or [d["hex"]])
        d["hexes"] = hexes
        d.setdefault("form", "regular")
        if d["form"] not in FORMS:
            raise IllegalAction(f"unknown form of combat {d['form']!r}", "14.9")
        attackers = [u for u in d["attackers"] if u in st.units]
        d["attackers"] = attackers
        d.setdefault("side", st.units[attackers[0]].side if attackers else eng.phasing_side())
        side = d["side"]
        from core.rules import fna
        d["defenders"] = sorted(u.id for h in hexes for u in st.units_at(h)
                                if fna.hostile(u, side) and info(st, u.id).is_combat)
        if d.get("only_defenders") is not None:   # 15.3: one part of a split stack
            d["defenders"] = [u for u in d["defenders"] if u in set(d["only_defenders"])]
        d["origin"] = {u: st.units[u].loc for u in attackers + d["defenders"]}
        from core.rules import movement      # 13.6: attacking or defending ends reserve status
        movement.end_reserve(eng, attackers, "attacks")
        movement.end_reserve(eng, d["defenders"], "defends")
        d["initial_steps"] = {u: st.units[u].steps for u in attackers + d["defenders"]}
        d["stage"] = "air_att"
        d.setdefault("att_air", [])
        d.setdefault("def_air", [])
        d.setdefault("att_fleet", [])
        d.setdefault("def_fleet", [])
        d["att_supplied"] = {}
        d["def_supplied"] = {}
        d["dumps_used"] = []
        d["at_targets"] = {}
        d["lost"] = {"att": 0, "def": 0}
        d["destroyed_steps"] = 0
        if d["form"] in ("overrun", "amphibious"):
            # 13.4.1 Important: no combat supply in overruns; status follows GenS (EoP). 20.5: landings are supplied.
            for u in attackers:
                d["att_supplied"][u] = gens_supplied(st, u) if d["form"] == "overrun" else True
            for u in d["defenders"]:
                d["def_supplied"][u] = gens_supplied(st, u)
        if side == "Allied" and any(fna.neutral_vf(st.units[u]) for u in d["defenders"]):
            # R-VICHY-DEFENDER: the Axis player decides for the neutral VF but gives them no support; they defend
            # in combat supply (no dump of theirs to expend)
            d["vf_defence"] = True
            for u in d["defenders"]:
                d["def_supplied"][u] = True
        eng.say(f"Combat: {side} attacks {', '.join(hexes)} ({d['form']}) with {', '.join(attackers)} (14.1)")
        from core.rules import construction
        construction.attacked_builders(eng, d["defenders"])     # 18.1: disrupted before the combat is resolved

    def view(self, eng: Engine, d: dict[str, Any]) -> CombatView:
        return combat_view(eng.state, d["side"], d["attackers"], d["hexes"], d["form"], d)

    # ------------------------------------------------------------------ decide
    def decide(self, eng: Engine, frame: Frame) -> Decision | None | object:
        d = frame.data
        st = eng.state
        side, enemy = d["side"], other(d["side"])
        stage = d["stage"]
        if not d.get("vichy_checked"):
            from core.rules import fna   # 23.1 ALC-21 i): the Vichy French Reaction Table before the combat
            if fna.vichy_before_combat(eng, frame):
                return CONTINUE
            stage = d["stage"]
        if stage in ("air_att", "air_def"):
            attacking = stage == "air_att"
            who = side if attacking else enemy
            opts = self._support_options(eng, d, who, attacking=attacking)
            if not opts:
                d["stage"] = "air_def" if attacking else "def_art"
                return CONTINUE
            opts.append(Option(action=Action(kind="support_done", side=who), label="No (more) support"))
            what = "offensive air (max 2)" if attacking else "defensive air (max 1)"
            return Decision(side=who, kind="combat_support", prompt=f"Commit {what} / naval support (19.5, 20.4.2)",
                            rule="19.5; 20.4.2", options=tuple(opts), context=self._ctx(d))
        if stage == "fleet_strike":
            fs = d["fleet_strike"]
            striker = other(st.units[fs["fleet"]].side)
            cands = [u for u in fleet_strikers(st, striker, d["hexes"][0], d["att_air"] + d["def_air"]) if u not in fs["units"]]
            opts = [Option(action=Action(kind="fleet_strike", side=striker, args={"unit": u}),
                           label=f"Strike {info(st, fs['fleet']).name} with {info(st, u).name or u} (19.9.1)") for u in cands]
            opts.append(Option(action=Action(kind="fleet_strike", side=striker, args={"unit": None}),
                               label=(f"Resolve the strike with {', '.join(fs['units'])}" if fs["units"] else "No naval strike")))
            return Decision(side=striker, kind="combat_fleet_strike",
                            prompt=f"Naval strike on {info(st, fs['fleet']).name} before the combat (20.4.2, 19.9.1)",
                            rule="20.4.2; 19.9.1", options=tuple(opts), context=self._ctx(d) | {"fleet": fs["fleet"],
                                                                                                   "strikers": list(fs["units"])})
        if stage == "def_art":
            opts = self._def_art_options(eng, d) if not d.get("def_art_done") else []
            if not opts:
                d["stage"] = "supply_att" if d["form"] not in ("overrun", "amphibious") else "at_def"
                return CONTINUE
            return Decision(side=enemy, kind="combat_def_artillery",
                            prompt="Assign defensive artillery from adjacent hexes not attacked this phase (15.1; 14.1)",
                            rule="15.1", options=tuple(opts), context=self._ctx(d))
        if stage in ("supply_att", "supply_def"):
            who = side if stage == "supply_att" else enemy
            units = d["attackers"] if stage == "supply_att" else d["defenders"] + list(d.get("def_art", []))
            key = "att_supplied" if stage == "supply_att" else "def_supplied"
            # garrisons (15.8) and desert raiders (16.1) are always supplied; emergency supply is combat supply (12.7)
            from core.rules import supply

            for u in units:
                if u not in d[key] and supply.combat_supplied_without_dump(st, st.units[u]):
                    d[key][u] = True
            todo = sorted({st.units[u].loc for u in units if u not in d[key]})
            if not todo:
                if stage == "supply_att" and d["form"] == "deliberate":
                    opt = self._deliberate_options(eng, d)
                    if opt:
                        return Decision(side=side, kind="combat_supply", prompt="Deliberate battle: expend extra dumps for more artillery (14.9.1)",
                                        rule="14.9.1; 15.1", options=tuple(opt), context=self._ctx(d))
                d["stage"] = "supply_def" if stage == "supply_att" else "at_def"
                return CONTINUE
            h = todo[0]
            opts = [Option(action=Action(kind="combat_supply", side=who, args={"hex": h, "dump": dp}),
                           label=f"Expend the dump {dp} ({st.units[dp].loc}) for {h}") for dp in dumps_for(st, who, h, d["dumps_used"])]
            opts.append(Option(action=Action(kind="combat_supply", side=who, args={"hex": h, "dump": None}),
                               label=f"No combat supply for {h}"))
            return Decision(side=who, kind="combat_supply", prompt=f"Combat supply for your units in {h} (12.6)",
                            rule="12.6", options=tuple(opts), context=self._ctx(d))
        if stage in ("at_def", "at_att"):
            who = enemy if stage == "at_def" else side
            mine = d["defenders"] if stage == "at_def" else d["attackers"]
            theirs = d["attackers"] if stage == "at_def" else d["defenders"]
            v = self.view(eng, d)
            for a in mine:
                if a in d["at_targets"]:
                    continue
                r, _ = su.at_rating(st, v, a)
                targets = [t for t in theirs if info(st, t).mech and info(st, t).cf > 0]
                if r <= 0 or not targets:
                    d["at_targets"][a] = None
                    continue
                return Decision(side=who, kind="combat_anti_tank",
                                prompt=f"{info(st, a).name}: AT rating {r} reduces one enemy mechanised unit (15.2)", rule="15.2",
                                options=tuple(Option(action=Action(kind="anti_tank", side=who, args={"unit": a, "target": t}),
                                                     label=f"Reduce {info(st, t).name or t}") for t in sorted(targets)),
                                context=self._ctx(d))
            d["stage"] = "at_att" if stage == "at_def" else "line"
            return CONTINUE
        if stage == "line":
            if not [u for u in d["attackers"] if u in st.units and not gone(st, u)
                    and (hex_of(st.units[u].loc) is not None or d["form"] == "amphibious")]:
                d["stage"] = "finish"
                return CONTINUE
            if not any(st.units_at(h) for h in d["hexes"]) and d["form"] != "amphibious":
                d["stage"] = "finish"      # (15.4: an unoccupied landing hex defends with 1)
                return CONTINUE
            v = self.view(eng, d)
            red, _ = su.line_reductions(st, v)
            opts = line_options(st, d["hexes"], red)
            if len(opts) == 1:
                d["line"] = opts[0][0]
                d["stage"] = "roll"
                return CONTINUE
            return Decision(side=enemy, kind="combat_line", prompt="Choose the CRT terrain line (14.4)", rule="14.4",
                            options=tuple(Option(action=Action(kind="terrain_line", side=enemy, args={"line": ln}),
                                                 label=f"Line {ln}: {why}") for ln, why in opts), context=self._ctx(d))
        if stage == "roll":
            self._roll(eng, d)
            return CONTINUE
        if stage == "m_def" or stage == "m_att":
            who = enemy if stage == "m_def" else side
            for u in d["m_queue"]:
                if u in d["m_done"]:
                    continue
                if gone(st, u) or (hex_of(st.units[u].loc) is None and d["form"] != "amphibious"):
                    d["m_done"][u] = "gone"
                    continue
                name = info(st, u).name or u
                opts = [Option(action=Action(kind="morale_choice", side=who, args={"unit": u, "choice": "check"}),
                               label=f"{name}: take the morale check (fail: disrupted)")]
                if not (stage == "m_def" and obstructed(st, st.units[u].loc)) and hex_of(st.units[u].loc) is not None:
                    opts.append(Option(action=Action(kind="morale_choice", side=who, args={"unit": u, "choice": "withdraw"}),
                                       label=f"{name}: withdraw 1-3 hexes"))
                return Decision(side=who, kind="combat_morale", prompt=f"{name}: 'm' result - check morale or withdraw 1-3 hexes (14.5)",
                                rule="14.5; 8.1", options=tuple(opts), context=self._ctx(d))
            d["stage"] = "loss_def" if stage == "m_def" else "loss_att"
            self._setup_losses(eng, d, defender=stage == "m_def")
            return CONTINUE
        if stage in ("loss_def", "loss_att"):
            L = d["loss"]
            picks = legal_loss_picks(st, L["pool"], L["hit"], L["need"] - L["done"], L["first"])
            if (not picks or L["done"] >= L["need"]) and L.get("then"):
                d["stage"] = L.pop("then")
                return CONTINUE
            if not picks or L["done"] >= L["need"]:
                d["stage"] = "retreat_def" if stage == "loss_def" else "retreat_att"
                self._setup_retreats(eng, d, defender=stage == "loss_def")
                return CONTINUE
            return loss_decision(st, L, picks, self._ctx(d))
        if stage in ("retreat_def", "retreat_att"):
            return self._retreat_decision(eng, d, defender=stage == "retreat_def")
        if stage == "advance":
            if d.get("battlefield"):
                side = d["side"]
                return Decision(side=side, kind="combat_battlefield_supply",
                                prompt=f"Search the battlefield for supplies ({d['destroyed_steps']} defending step(s) destroyed) (14.8)",
                                rule="14.8", options=(
                                    Option(action=Action(kind="battlefield_supply", side=side, args={"attempt": True}),
                                           label="Roll 1d6 for battlefield supply"),
                                    Option(action=Action(kind="battlefield_supply", side=side, args={"attempt": False}),
                                           label="Do not search")), context=self._ctx(d))
            if d.get("advance_over"):
                d["stage"] = "finish"
                if d.get("exploit") and not d.get("exploited"):
                    d["exploited"] = True   # 14.9.3: advance, then exploit
                    eng.push("exploitation", side=d["side"], hex=d["hexes"][0], attackers=list(d["attackers"]),
                             retreat_lines=[x["path"] for x in d.get("retreat_log", [])],
                             all_eliminated=all(gone(st, u) for u in d["defenders"]))
                return CONTINUE
            return self._advance_decision(eng, d)
        if stage == "finish":
            if d["form"] == "amphibious" and "landing" not in d:
                if self._landing(eng, d):
                    return CONTINUE
            self._finish(eng, d)
            return None
        if stage == "amph_return":
            from core.rules import combat_forms

            combat_forms.return_to_origin(eng, d["attackers"], d["origin"])
            d["stage"] = "finish"
            return CONTINUE
        return None

    # ------------------------------------------------------------------ 20.5 / 15.4 landings
    def _landing(self, eng: Engine, d: dict[str, Any]) -> bool:
        """20.5: cleared - the surviving attackers advance into the port; not cleared - they suffer an H
        result (14.6 step choice) and return to their point of origin.  True when a loss decision follows."""
        st = eng.state
        for u in d["attackers"]:                  # the declared SF landing is made (15.4; special_forces.owed_landings)
            if u in st.units and "sf_landing" in st.units[u].flags:
                st.units[u].flags = {k: v for k, v in st.units[u].flags.items() if k != "sf_landing"}
        alive = [u for u in d["attackers"] if not gone(st, u)]
        cleared = bool(self._vacated(eng, d))
        d["landing"] = "cleared" if cleared and alive else "failed"
        if cleared and alive:
            for u in alive:
                st.units[u].loc = d["hexes"][0]
                st.units[u].flags = {k: v for k, v in st.units[u].flags.items() if k != "port_box"} | {
                    "landed": phase_tag(st), "landed_gt": st.gt}          # 20.1: in GenS for the GT of landing
            d.setdefault("advanced", []).extend(alive)
            eng.say(f"The landing clears {d['hexes'][0]}: {', '.join(alive)} land (20.5, 15.4)")
            return False
        if not alive:
            return False
        total = sum((loss_fraction("H", info(st, u).counted_steps) for u in alive), Fraction(0))
        need = round_half_up(total)
        eng.say(f"The landing fails: the attackers suffer an H result, {total} -> {need} step(s), and return to their "
                f"point of origin (20.5)")
        d["loss"] = {"owner": d["side"], "pool": alive, "hit": [], "need": need, "done": 0, "first": True,
                     "which": "att", "then": "amph_return"}
        d["stage"] = "loss_att"
        return True

    def _ctx(self, d: dict[str, Any]) -> dict[str, Any]:
        """The context of every combat decision (for the GUI): the combat so far, copied (JSON-safe)."""
        ctx = {"hexes": list(d["hexes"]), "attackers": list(d["attackers"]), "defenders": list(d["defenders"]),
               "form": d["form"], "side": d.get("side"), "stage": d.get("stage"), "columns": _plain(d.get("columns")),
               "line": d.get("line"), "att_supplied": dict(d.get("att_supplied", {})),
               "def_supplied": dict(d.get("def_supplied", {})), "def_results": dict(d.get("def_results", {})),
               "groups": _plain(d.get("groups", [])), "att_results": dict(d.get("att_results", {})),
               "loss": _plain(d.get("loss")), "retreat_log": _plain(d.get("retreat_log", [])),
               "advanced": list(d.get("advanced", [])), "strengths": _plain(d.get("strengths")),
               "support": {"att_air": list(d.get("att_air", [])), "def_air": list(d.get("def_air", [])),
                           "att_fleet": list(d.get("att_fleet", [])), "def_fleet": list(d.get("def_fleet", [])),
                           "def_art": list(d.get("def_art", []))},
               "lost": _plain(d.get("lost"))}
        return ctx

    # ------------------------------------------------------------------ support (19.5, 20.4.2)
    def _support_options(self, eng: Engine, d: dict[str, Any], who: str, attacking: bool) -> list[Option]:
        st = eng.state
        form = d["form"]
        target = d["hexes"][0]
        if not attacking and form == "overrun":
            return []  # 19.5 Important: no defensive ground support against overruns
        if not attacking and d.get("vf_defence"):
            return []  # R-VICHY-DEFENDER: the Axis does not support neutral Vichy French defenders
        used_air = d["att_air"] if attacking else d["def_air"]
        limit = 2 if attacking else 1
        opts: list[Option] = []
        if len(used_air) < limit and air_ok_in(st, target):
            fields = None
            for u in sorted(st.units.values(), key=lambda x: x.id):
                if u.side != who or info(st, u.id).kind != "air" or u.id in used_air:
                    continue
                i = info(st, u.id)
                if i.gs <= 0 or u.flags.get("based") or not air_area_ok(st, u.id, target):
                    continue  # 19.5: non-based, ground support 1+, within the box's area of operations (19.1)
                from core.rules import events
                if events.c3_air_restricted(st, u.id):
                    continue  # 23.2 AXC-16 a): the GT 8 Sicily air units fly no other missions
                if form in ("overrun", "mobile") and not i.mobile:
                    continue  # 19.5 / 14.9.2: only aircraft with the mobile symbol
                if fields is None:
                    fields = self._airfields(eng, d, who, attacking)
                opts.append(Option(action=Action(kind="support", side=who, args={"unit": u.id}),
                                   label=f"Air support: {i.name} ({air_shift(st, u.id, target, fields)} column(s))"))
        fleets = d["att_fleet"] if attacking else d["def_fleet"]
        if form not in ("overrun", "mobile"):
            for f in fleet_support_units(st, who, target):
                if f not in fleets:
                    opts.append(Option(action=Action(kind="support", side=who, args={"unit": f}),
                                       label=f"Naval ground support: {info(st, f).name} (1 column, 20.4.2)"))
        return opts

    def _fleet_strike(self, eng: Engine, d: dict[str, Any]) -> None:
        """20.4.2 / 19.9.1: the strike dice (``air.naval_strike``); a hit fleet gives no support (``flags["hit"]``
        until its next allocation) and checks for damage at once (19.9.2, 19.3); the strikers check for mission
        damage (19.3, 19.9.1).  An unhit fleet checks after the combat with the air units (``_air_damage``)."""
        fs = d.pop("fleet_strike")
        d["stage"] = fs["back"]
        f = fs["fleet"]
        if not fs["units"]:
            return
        port = any(hex_of(h) in gmap().ports for h in d["hexes"])
        hits = strike_fleet(eng, f, list(fs["units"]), port=port, cancelled="it gives no ground support")
        d.setdefault("fleet_strikes", []).append({"fleet": f, "strikers": list(fs["units"]), "hits": hits})
        if hits:
            for key in ("att_fleet", "def_fleet"):
                if f in d[key]:
                    d[key].remove(f)
            # 19.9.2 Strikes on Fleets: "Fleet units that are hit use the procedures outlined in 19.3"
            from core.rules import air

            eng.say(f"{info(eng.state, f).name}: mission damage {air.mission_damage(eng, f, city_or_port=port)} (19.3)")

    def _airfields(self, eng: Engine, d: dict[str, Any], who: str, attacking: bool) -> list[str]:
        """19.5: the side's friendly supplied airfields, traced once per combat (kept in the frame)."""
        key = "att" if attacking else "def"
        cache = d.setdefault("airfields", {})
        if key not in cache:
            cache[key] = friendly_airfields(eng.state, who)
        return cache[key]

    # ------------------------------------------------------------------ defensive artillery (15.1)
    def _def_art_options(self, eng: Engine, d: dict[str, Any]) -> list[Option]:
        st = eng.state
        enemy = other(d["side"])
        if d.get("vf_defence"):
            return []  # R-VICHY-DEFENDER: no Axis artillery for neutral Vichy French defenders
        used = set(d.get("def_art", []))
        attacked = set(d.get("attacked_hexes") or d["hexes"])
        tag = phase_tag(st)
        opts = []
        for u in sorted(st.units.values(), key=lambda x: x.id):
            if u.side != enemy or u.id in used or u.loc in d["hexes"] or hex_of(u.loc) is None:
                continue
            i = info(st, u.id)
            if i.art <= 0 or not i.is_combat or u.disrupted or u.untrained:
                continue
            if not any(adjacent(u.loc, h) for h in d["hexes"]):
                continue
            if u.loc in attacked:
                continue  # 15.1: only if the artillery unit itself is not attacked in the same Combat Phase
            if u.flags.get("def_art_used") == tag:
                continue  # 15.1: to one adjacent defending hex
            if d["form"] in ("overrun", "mobile") and not su.is_mobile(st, u.id):
                continue  # 14.9.2 (mobile artillery only), 13.4.4
            opts.append(Option(action=Action(kind="defensive_artillery", side=enemy, args={"unit": u.id}),
                               label=f"{i.name or u.id} ({u.loc}) supports the defence: {i.art} column(s) (15.1)"))
        if opts:
            opts.append(Option(action=Action(kind="defensive_artillery", side=enemy, args={"unit": None}),
                               label="No (more) defensive artillery from adjacent hexes"))
        return opts

    def _deliberate_options(self, eng: Engine, d: dict[str, Any]) -> list[Option]:
        """14.9.1: with the whole force in combat supply, one extra dump per artillery unit after the first."""
        st = eng.state
        if not all(d["att_supplied"].get(u) for u in d["attackers"]) or d.get("deliberate_done"):
            return []
        v = self.view(eng, d)
        arts = su.artillery_units(st, v, True)[1:]
        extra = d.setdefault("deliberate_extra", [])
        opts = []
        for a in arts:
            if a in extra:
                continue
            for dp in dumps_for(st, d["side"], st.units[a].loc, d["dumps_used"]):
                opts.append(Option(action=Action(kind="deliberate_artillery", side=d["side"], args={"unit": a, "dump": dp}),
                                   label=f"Expend {dp} so that {info(st, a).name} adds its shifts"))
        if opts:
            opts.append(Option(action=Action(kind="deliberate_artillery", side=d["side"], args={"unit": None}),
                               label="No more artillery"))
        return opts

    # ------------------------------------------------------------------ the roll (14.5)
    def _roll(self, eng: Engine, d: dict[str, Any]) -> None:
        st = eng.state
        from core.rules import combat_forms

        extra = combat_forms.weather_shifts(eng, d["hexes"], [st.units[u].loc for u in d["attackers"]])
        d["extra_general"] = [list(x) for x in extra]
        pv = preview(st, d["side"], d["attackers"], d["hexes"], d["form"], d, d["line"])
        d["strengths"] = {"attack": pv["attack"], "defence": pv["defence"]}
        if pv["attack"] <= 0:
            eng.say("The attacking force has a final combat factor of zero and cannot attack (14.3)")
            d["stage"] = "finish"
            return
        die = eng.roll(1)[0]
        cd, ca = charts.final_columns(pv["column"], die, general=pv["general"], attacker_support=pv["attacker_support"],
                                      defender_support=pv["defender_support"])
        d["columns"] = {"base": pv["column"], "die": die, "defender": cd, "attacker": ca}
        shifts = "; ".join(f"{x['columns']:+d} {x['why']}" for x in pv["general_shifts"] + pv["attacker_shifts"])
        eng.say(f"{pv['attack']} to {pv['defence']} = {pv['odds']} on line {d['line']}: column {pv['column']}; "
                f"die {die}; {('shifts ' + shifts + '; ') if shifts else ''}defender column {cd}, attacker column {ca} (14.5)")
        self._mark_support_used(eng, d)
        # defender results by printed-morale group, highest first (14.5)
        res: dict[str, str] = {}
        groups = morale_groups(st, d["defenders"])
        d["groups"] = [[m, us] for m, us in groups]
        for m, us in groups:
            for u in us:
                mm = su.effective_morale(st, u, combat_supplied=d["def_supplied"].get(u, True),
                                         desert=is_desert(st.units[u].loc), fort_level_here=fort_level(st, st.units[u].loc))
                if lone_desert_raider(st, u):
                    # 16.1: two morale checks instead of the CRT; one failure eliminates, passing both routs
                    ok = all(_roll_morale(eng, u, mm, "desert raider attacked on the hex grid, 16.1") for _ in range(2))
                    res[u] = "r" if ok else "E"
                    eng.say(f"Desert raider {info(st, u).name or u}: {'passes both checks and routs' if ok else 'fails a check and is eliminated'} (16.1)")
                    continue
                res[u] = charts.crt_result(cd, mm)
                eng.say(f"Defender {info(st, u).name or u} (printed morale {m}, line {max(1, min(charts.crt().max_morale_line, mm))}): "
                        f"{res[u]} (14.5)")
        d["def_results"] = res
        # eliminations (E) first, in group order
        for m, us in groups:
            for u in us:
                if charts.decode_result(res[u]).eliminated:
                    d["lost"]["def"] += eliminate(eng, u, "E result (14.5)", destroyed=d["form"] == "overrun")
                    if st.units[u].loc.startswith("box:Destroyed"):
                        d["destroyed_steps"] += d["initial_steps"][u] * info(st, u).step_weight
        d["m_queue"] = [u for m, us in groups for u in us if charts.decode_result(res[u]).retreat == "m"]
        d["m_done"] = {}
        d["stage"] = "m_def"

    def _mark_support_used(self, eng: Engine, d: dict[str, Any]) -> None:
        st = eng.state
        for f in d["att_fleet"] + d["def_fleet"]:
            st.units[f].flags = dict(st.units[f].flags) | {"support_used": impulse_tag(st)}

    # ------------------------------------------------------------------ losses (14.6)
    def _setup_losses(self, eng: Engine, d: dict[str, Any], defender: bool) -> None:
        st = eng.state
        if defender:
            res = d["def_results"]
            pool = [u for u in d["defenders"] if u in res and charts.decode_result(res[u]).loss in ("Q", "H")]
            total = sum((loss_fraction(res[u], d["initial_steps"][u] * info(st, u).step_weight) for u in pool), Fraction(0))
            need = round_half_up(total)
            owner = other(d["side"])
            if total:
                eng.say(f"Defender losses: {total} step(s) in total, rounded to {need} (14.6)")
        else:
            res = d["att_results"]
            pool = [u for u in d["attackers"] if u in res and charts.decode_result(res[u]).loss in ("Q", "H", "X")]
            total = Fraction(0)
            for u in pool:
                total += loss_fraction(res[u], d["initial_steps"][u] * info(st, u).step_weight)
            x = [u for u in pool if charts.decode_result(res[u]).loss == "X"]
            if x:
                total += Fraction(d["lost"]["def"], 2)
            need = round_half_up(total)
            owner = d["side"]
            if total:
                eng.say(f"Attacker losses: {total} step(s), rounded to {need} (14.5 X = half the defender's {d['lost']['def']}; 14.6)")
        pool = [u for u in pool if not gone(st, u) and (hex_of(st.units[u].loc) is not None or d["form"] == "amphibious")]
        d["loss"] = {"owner": owner, "pool": pool, "hit": [], "need": need, "done": 0, "first": True,
                     "which": "def" if defender else "att"}
        if defender and d.get("vf_defence"):
            d["loss"]["name"] = "The Vichy French (the Axis player decides, R-VICHY-DEFENDER)"

    # ------------------------------------------------------------------ retreats (14.7)
    def _setup_retreats(self, eng: Engine, d: dict[str, Any], defender: bool) -> None:
        st = eng.state
        res = d["def_results"] if defender else d["att_results"]
        units = d["defenders"] if defender else d["attackers"]
        q = []
        for u in units:
            if u not in st.units or hex_of(st.units[u].loc) is None or u not in res:
                continue
            code = res[u]
            r = charts.decode_result(code).retreat
            if r is None:
                continue
            here = st.units[u].loc
            obs = obstructed(st, here) if defender else False
            if info(st, u).garrison:
                eng.say(f"{info(st, u).name} is a garrison: it ignores the retreat (15.8)")
                continue
            lo, hi = retreat_bounds(code, obs)
            if r == "m":
                choice = d["m_done"].get(u)
                if choice == "withdraw":
                    lo, hi = (1, 3) if not obs else (0, 0)
                elif choice == "check":
                    lo, hi = 0, (0 if obs else 3)
                else:
                    continue
            if r == "r":
                _disrupt(eng, u, "rout (14.7.1)")
            if lo > 0 and chad_pulls_back(eng, u):
                continue
            if hi <= 0:
                if r == "w" and obs:
                    eng.say(f"{info(st, u).name} ignores the withdrawal in a city, fort or mountain hex (14.7.1)")
                continue
            q.append({"unit": u, "min": lo, "max": hi, "path": [here], "code": r, "hold": r == "w"})
        if not defender:
            # 14.2: a stacked non-participating unit must retreat if all participating units of its hex retreat
            retreating = {e["unit"] for e in q if e["min"] > 0}
            for loc in sorted({d["origin"][u] for u in d["attackers"]}):
                parts = [u for u in d["attackers"] if d["origin"][u] == loc and u in st.units and st.units[u].loc == loc]
                if parts and all(u in retreating for u in parts):
                    for v in st.units_at(loc):
                        if v.side == d["side"] and v.id not in d["attackers"] and info(st, v.id).is_combat:
                            if chad_pulls_back(eng, v.id):           # 16.1
                                continue
                            q.append({"unit": v.id, "min": 1, "max": 3, "path": [loc], "code": "w", "hold": False})
        d["rq"] = q
        d["retreat_hexes"] = []
        d.setdefault("retreat_log", [])

    def _retreat_decision(self, eng: Engine, d: dict[str, Any], defender: bool) -> Decision | object:
        st = eng.state
        owner = other(d["side"]) if defender else d["side"]
        while d["rq"]:
            e = d["rq"][0]
            u = e["unit"]
            if u not in st.units or hex_of(st.units[u].loc) is None:
                d["rq"].pop(0)
                continue
            name = info(st, u).name or u
            nxt = legal_retreat_steps(st, u, e["path"], e["max"])
            opts: list[Option] = []
            moved = len(e["path"]) - 1
            if e.get("hold") and moved == 0:
                opts.append(Option(action=Action(kind="retreat", side=owner, args={"unit": u, "hold": True}),
                                   label=f"{name}: disrupt and hold in place (14.7.1, EoP)"))
            if stop_allowed(st, u, e["path"], e["min"]):
                opts.append(Option(action=Action(kind="retreat", side=owner, args={"unit": u, "stop": True}),
                                   label=f"{name}: end the retreat in {e['path'][-1]}"))
            elif not nxt:
                opts.append(Option(action=Action(kind="retreat", side=owner, args={"unit": u, "stop": True}),
                                   label=f"{name}: cannot retreat {e['min']} hexes - stop in {e['path'][-1]} and lose a step (14.7.1)"))
            for n in nxt:
                opts.append(Option(action=Action(kind="retreat", side=owner, args={"unit": u, "to": n}),
                                   label=f"{name}: retreat to {n}"))
            if moved == 0:
                for lead in d["retreat_hexes"]:
                    path = lead["path"]
                    if lead["unit"] != u and self._path_ok(st, u, path, e["min"], e["max"]):
                        opts.append(Option(action=Action(kind="retreat", side=owner, args={"unit": u, "follow": lead["unit"]}),
                                           label=f"{name}: retreat with {lead['unit']} to {path[-1]}"))
            return Decision(side=owner, kind="combat_retreat",
                            prompt=f"Retreat {name} {e['min']}-{e['max']} hexes from {e['path'][0]} (14.7)",
                            rule="14.7", options=tuple(opts), free_kinds=("retreat_path",),
                            context=self._ctx(d) | {"unit": u, "path": e["path"], "min": e["min"], "max": e["max"]})
        self._overstack(eng, d)
        if defender:
            self._attacker_results(eng, d)
        else:
            d["stage"] = "advance"
        return CONTINUE

    def _path_ok(self, st: GameState, u: str, path: list[str], lo: int, hi: int) -> bool:
        if not path or path[0] != st.units[u].loc or not (1 <= len(path) - 1 <= hi):
            return False
        for k in range(1, len(path)):
            if path[k] not in legal_retreat_steps(st, u, path[:k], hi):
                return False
        return stop_allowed(st, u, path, lo)

    def _overstack(self, eng: Engine, d: dict[str, Any]) -> None:
        """14.7.2: overstacking after all retreats of the combat disrupts every unit in the hex."""
        st = eng.state
        for h in sorted({x["path"][-1] for x in d["retreat_hexes"] if len(x["path"]) > 1}):
            if stacking_points(st, h) > stack_limit(h):
                for v in st.units_at(h):
                    if info(st, v.id).is_combat:
                        _disrupt(eng, v.id, f"overstacked after retreat in {h} (14.7.2, 10.3)")

    # ------------------------------------------------------------------ attacker results (14.5 step 5)
    def _attacker_results(self, eng: Engine, d: dict[str, Any]) -> None:
        st = eng.state
        ca = d["columns"]["attacker"]
        res = {}
        for u in d["attackers"]:
            if gone(st, u) or (hex_of(st.units[u].loc) is None and d["form"] != "amphibious"):
                continue
            res[u] = charts.attacker_result(ca, bool(d["att_supplied"].get(u, True)))
        for sup in (True, False):
            grp = [u for u in res if bool(d["att_supplied"].get(u, True)) == sup]
            if grp:
                eng.say(f"Attackers {'in' if sup else 'without'} combat supply ({', '.join(grp)}): "
                        f"{charts.attacker_result(ca, sup)} (14.5)")
        d["att_results"] = res
        d["m_queue"] = [u for u in sorted(res) if charts.decode_result(res[u]).retreat == "m"]
        d["m_choices_def"] = dict(d["m_done"])
        d["m_done"] = {}
        if not res:
            d["stage"] = "advance"
            return
        d["stage"] = "m_att"

    # ------------------------------------------------------------------ advance (14.8)
    def _vacated(self, eng: Engine, d: dict[str, Any]) -> list[str]:
        st = eng.state
        from core.rules import fna
        return [h for h in d["hexes"] if not any(fna.hostile(v, d["side"]) and info(st, v.id).is_combat
                                                 for v in st.units_at(h))]

    def _advance_decision(self, eng: Engine, d: dict[str, Any]) -> Decision | object:
        st = eng.state
        side = d["side"]
        vac = self._vacated(eng, d)
        if d["form"] in ("overrun", "amphibious") or not vac:
            d["stage"] = "finish"
            return CONTINUE
        adv = d.setdefault("advanced", [])
        retreated = {x["unit"] for x in d.get("retreat_hexes", []) if len(x["path"]) > 1}
        opts: list[Option] = []
        for u in d["attackers"]:
            if u in adv or u not in st.units or st.units[u].loc != d["origin"].get(u) or u in retreated:
                continue
            if st.units[u].disrupted:
                continue  # 14.8: non-disrupted units only (ruling R-C-ADVANCE-DISRUPTED)
            i = info(st, u)
            if not i.real_cf and not any(info(st, a).real_cf for a in adv):
                continue  # 14.8: zero/parenthesised units only with an accompanying unit
            for h in vac:
                if adjacent(st.units[u].loc, h) and not east_limit.barred(st, side, h):    # 30.0
                    opts.append(Option(action=Action(kind="advance", side=side, args={"unit": u, "hex": h}),
                                       label=f"Advance {i.name or u} into {h}"))
                    if any(v.side != side and info(st, v.id).kind == "supply" for v in st.units_at(h)):
                        opts.append(Option(action=Action(kind="advance", side=side,
                                                         args={"unit": u, "hex": h, "capture": "destroy"}),
                                           label=f"Advance {i.name or u} into {h} and destroy the enemy supply "
                                                 f"there instead of rolling to capture it (12.2.7)"))
        if not opts:
            self._after_advance(eng, d)
            d["advance_over"] = True
            return CONTINUE
        opts.append(Option(action=Action(kind="advance_done", side=side), label="No (more) advances"))
        return Decision(side=side, kind="combat_advance", prompt="Advance into the vacated hex (14.8)", rule="14.8",
                        options=tuple(opts), context=self._ctx(d))

    def _after_advance(self, eng: Engine, d: dict[str, Any]) -> None:
        st = eng.state
        adv = d.get("advanced", [])
        if not adv:
            return
        entered = sorted({st.units[u].loc for u in adv if u in st.units})
        hq = su.hq_present(st, adv)
        for h in entered:
            if any(v.side != d["side"] and info(st, v.id).kind == "supply" for v in st.units_at(h)):
                try:
                    from core.rules import supply

                    supply.capture_supply(eng, h, d["side"], hq=hq, destroy=h in d.get("destroy_supply", []))
                except ImportError:  # pragma: no cover
                    pass
        if d["form"] == "mobile":
            d["exploit"] = True
        # 14.8 battlefield supply: a defender was placed in the Destroyed Box; the advancing player may try
        if d["destroyed_steps"] > 0 and entered:
            d["battlefield"] = entered[0]

    def _battlefield(self, eng: Engine, d: dict[str, Any], attempt: bool) -> None:
        """14.8: roll 1d6; at or under the destroyed defending steps (divisional x2), a captured dump."""
        h = d.pop("battlefield")
        if not attempt:
            return
        die = eng.roll(1)[0]
        if die <= d["destroyed_steps"]:
            self._place_captured_dump(eng, d["side"], h)
            eng.say(f"Battlefield supply: {die} <= {d['destroyed_steps']} destroyed step(s): a dump with a captured marker "
                    f"is placed in {h} (14.8)")
        else:
            eng.say(f"Battlefield supply: {die} > {d['destroyed_steps']} destroyed step(s): nothing found (14.8)")

    def _place_captured_dump(self, eng: Engine, side: str, h: str) -> None:
        st = eng.state
        cid = f"{'AX' if side == 'Axis' else 'AL'}-Dump"
        try:
            from core.rules import supply

            nid = supply.free_counter_id(st, cid, "14.8")
        except (ImportError, IllegalAction):
            eng.say("No dump counter is free in the counter mix (2.4): none is placed (14.8)")
            return
        from core.state import UnitState

        st.units[nid] = UnitState(id=nid, side=side, loc=h, captured=True,
                                  flags={"captured_gt": st.gt, "captured_phase": st.phase})

    # ------------------------------------------------------------------ finish
    def _finish(self, eng: Engine, d: dict[str, Any]) -> None:
        cleared = bool(self._vacated(eng, d))
        out = {
            "defender_cleared": cleared,
            "attacker_losses": d["lost"]["att"], "defender_losses": d["lost"]["def"],
            "defender_result": d.get("def_results", {}), "attacker_result": d.get("att_results", {}),
            "columns": d.get("columns"), "strengths": d.get("strengths"), "line": d.get("line"),
            "advanced": d.get("advanced", []), "exploit": bool(d.get("exploit")),
            "retreats": {x["unit"]: x["path"] for x in d.get("retreat_log", [])},
        }
        out["cleared"] = cleared  # the movement rules read this key (13.4.4: they move on or stop and check morale)
        if d["form"] == "amphibious":
            out["landing"] = d.get("landing")
        self._air_damage(eng, d)
        self._us_experience(eng, d)
        d["outcome"] = out
        record_combat(eng, d, out)

    def _us_experience(self, eng: Engine, d: dict[str, Any]) -> None:
        """ALC-25 c): after a combat in which most Allied steps involved are US, roll 1d6; 5-6: a gain
        (first: the marker flips to +1/+0; second: removed)."""
        st = eng.state
        level = st.vars.get("us_inexperience")
        if level not in (1, 2) or d.get("columns") is None:
            return
        allied = [u for u in d["attackers"] + d["defenders"] if u in st.units and st.units[u].side == "Allied"
                  and not (u in d["defenders"] and d.get("vf_defence"))]
        steps = {u: d["initial_steps"].get(u, 1) * info(st, u).step_weight for u in allied}
        us = sum(n for u, n in steps.items() if info(st, u).nationality == "US")
        if not steps or 2 * us <= sum(steps.values()):
            return
        die = eng.roll(1)[0]
        if die >= 5:
            st.vars["us_inexperience"] = 1 if level == 2 else None
            if level == 1:
                st.vars.pop("us_inexperience", None)
                st.vars["us_experience"] = True
            eng.say(f"US experience roll {die}: a gain, the US inexperience marker "
                    f"{'flips to its +1/+0 side' if level == 2 else 'is removed'} (ALC-25 c)")
        else:
            eng.say(f"US experience roll {die}: no gain (ALC-25 c)")

    def _air_damage(self, eng: Engine, d: dict[str, Any]) -> None:
        """19.5 / 19.3: every committed air unit checks for mission damage after the combat (EoP)."""
        st = eng.state
        for a in d["att_air"] + d["def_air"] + d["att_fleet"] + d["def_fleet"]:
            try:
                from core.rules import air

                r = air.mission_damage(eng, a, city_or_port=any(is_city(h) or hex_of(h) in gmap().ports for h in d["hexes"]))
                eng.say(f"{info(st, a).name}: mission damage {r} (19.3)")
            except ImportError:  # pragma: no cover
                st.units[a].flags = dict(st.units[a].flags) | {"based": True}

    # ------------------------------------------------------------------ apply
    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        st = eng.state
        d = frame.data
        k = action.kind
        a = action.args
        if k == "support":
            u = a.get("unit")
            attacking = d["stage"] == "air_att"
            kind = info(st, u).kind
            if kind == "air":
                (d["att_air"] if attacking else d["def_air"]).append(u)
            else:
                (d["att_fleet"] if attacking else d["def_fleet"]).append(u)
            eng.say(f"{action.side} commits {info(st, u).name} to ground support ({'19.5' if kind == 'air' else '20.4.2'})")
            if kind == "fleet" and fleet_strikers(st, other(action.side), d["hexes"][0], d["att_air"] + d["def_air"]):
                # 20.4.2: "If available, Axis air units may conduct a naval strike against the fleet before
                # resolving the combat"
                d["fleet_strike"] = {"fleet": u, "units": [], "back": d["stage"]}
                d["stage"] = "fleet_strike"
            return
        if k == "fleet_strike":
            fs = d["fleet_strike"]
            if a.get("unit") is not None:
                fs["units"].append(a["unit"])
                return
            self._fleet_strike(eng, d)
            return
        if k == "support_done":
            d["stage"] = "air_def" if d["stage"] == "air_att" else "def_art"
            return
        if k == "defensive_artillery":
            u = a.get("unit")
            if u is None:
                d["def_art_done"] = True
                return
            d.setdefault("def_art", []).append(u)
            if d["form"] in ("overrun", "amphibious"):
                d["def_supplied"][u] = gens_supplied(st, u)
            st.units[u].flags = dict(st.units[u].flags) | {"def_art_used": phase_tag(st)}
            eng.say(f"{action.side}: {info(st, u).name or u} in {st.units[u].loc} supports the defence of "
                    f"{', '.join(d['hexes'])} (15.1)")
            return
        if k == "combat_supply":
            h, dump = a.get("hex"), a.get("dump")
            att = d["stage"] == "supply_att"
            units = d["attackers"] if att else d["defenders"] + list(d.get("def_art", []))
            key = "att_supplied" if att else "def_supplied"
            from core.rules import supply

            for u in units:
                if st.units[u].loc == h and u not in d[key]:
                    d[key][u] = dump is not None or supply.combat_supplied_without_dump(st, st.units[u])
            if dump is not None:
                d["dumps_used"].append(dump)
                expend(eng, dump, f"combat supply for {h} (12.6)")
                eng.say(f"{action.side} expends a dump for combat supply in {h} (12.6)")
            else:
                eng.say(f"{action.side} declares the units in {h} not in combat supply (12.6)")
            return
        if k == "deliberate_artillery":
            if a.get("unit") is None:
                d["deliberate_done"] = True
                return
            d.setdefault("deliberate_extra", []).append(a["unit"])
            d["dumps_used"].append(a["dump"])
            expend(eng, a["dump"], "extra dump for deliberate battle artillery (14.9.1)")
            return
        if k == "anti_tank":
            d["at_targets"][a["unit"]] = a["target"]
            eng.say(f"{info(st, a['unit']).name} reduces {info(st, a['target']).name} (15.2)")
            return
        if k == "terrain_line":
            d["line"] = int(a["line"])
            d["stage"] = "roll"
            return
        if k == "morale_choice":
            u = a["unit"]
            d["m_done"][u] = a["choice"]
            if a["choice"] == "check":
                defending = d["stage"] == "m_def"
                sup = (d["def_supplied"] if defending else d["att_supplied"]).get(u, True)
                mm = su.effective_morale(st, u, combat_supplied=sup, desert=is_desert(st.units[u].loc))
                if not _roll_morale(eng, u, mm, "m result, 14.5"):
                    _disrupt(eng, u, "failed morale check (14.5, 8.1)")
            return
        if k == "lose_step":
            L = d["loss"]
            u = a["unit"]
            # ruling R-C-OVERRUN-BOX: step-loss eliminations follow 8.3 even in an overrun (EoP KDG)
            n = take_loss(eng, L, u)
            if L["which"] == "def" and st.units[u].loc.startswith("box:Destroyed"):
                d["destroyed_steps"] += n
            d["lost"][L["which"]] += n
            return
        if k in ("retreat", "retreat_path"):
            self._apply_retreat(eng, d, action)
            return
        if k == "advance":
            u, h = a["unit"], a["hex"]
            from core.rules import supply
            if supply.capture_choice(a):
                d.setdefault("destroy_supply", []).append(h)          # 12.2.7: the advancing player's choice
            st.units[u].loc = h
            d.setdefault("advanced", []).append(u)
            eng.say(f"{info(st, u).name or u} advances into {h} (14.8)")
            return
        if k == "advance_done":
            self._after_advance(eng, d)
            d["advance_over"] = True
            return
        if k == "battlefield_supply":
            self._battlefield(eng, d, bool(a.get("attempt")))
            return
        super().apply(eng, frame, action)

    def _apply_retreat(self, eng: Engine, d: dict[str, Any], action: Action) -> None:
        st = eng.state
        e = d["rq"][0]
        u = e["unit"]
        a = action.args
        if a.get("unit") != u:
            raise IllegalAction(f"{a.get('unit')} is not the unit retreating now ({u})", "14.7")
        tag = phase_tag(st)
        if action.kind == "retreat_path" or a.get("follow"):
            path = list(a.get("path") or next(x["path"] for x in d["retreat_hexes"] if x["unit"] == a["follow"]))
            if not self._path_ok(st, u, path, e["min"], e["max"]):
                raise IllegalAction(f"{' -> '.join(path)} is not a legal retreat for {u}: {e['min']}-{e['max']} hexes, never "
                                    "through enemy units or EZOC, into prohibited terrain or the same hex twice", "14.7.2")
            e["path"] = path
            st.units[u].loc = path[-1]
            if control.transfers_control(st.units[u]):
                control.enter(st, st.units[u].side, path[1:])      # 2.2.2: the hexes it retreats through
            self._end_retreat(eng, d, e, tag)
            return
        if a.get("hold"):
            if not e.get("hold") or len(e["path"]) > 1:
                raise IllegalAction("only a withdrawal (w) may be exchanged for disruption in place", "14.7.1")
            _disrupt(eng, u, "held in place instead of withdrawing (14.7.1, EoP)")
            d["rq"].pop(0)
            return
        if a.get("stop"):
            if not stop_allowed(st, u, e["path"], e["min"]):
                if legal_retreat_steps(st, u, e["path"], e["max"]):
                    raise IllegalAction(f"{u} must retreat at least {e['min']} hexes (14.7)", "14.7")
                lose = lose_step(eng, u, "unable to retreat the required distance (14.7.1)")
                d["lost"]["def" if u in d["defenders"] else "att"] += lose
            self._end_retreat(eng, d, e, tag)
            return
        to = a.get("to")
        if to not in legal_retreat_steps(st, u, e["path"], e["max"]):
            raise IllegalAction(f"{u} may not retreat into {to} (14.7.2)", "14.7.2")
        e["path"].append(to)
        st.units[u].loc = to
        if not legal_retreat_steps(st, u, e["path"], e["max"]) and stop_allowed(st, u, e["path"], e["min"]):
            self._end_retreat(eng, d, e, tag)

    def _end_retreat(self, eng: Engine, d: dict[str, Any], e: dict[str, Any], tag: str) -> None:
        st = eng.state
        u = e["unit"]
        if u in st.units and len(e["path"]) > 1:
            st.units[u].flags = dict(st.units[u].flags) | {"retreated_in": tag}
            eng.say(f"{info(st, u).name or u} retreats {' -> '.join(e['path'])} (14.7)")
        d["retreat_hexes"].append({"unit": u, "path": list(e["path"])})
        d["retreat_log"].append({"unit": u, "path": list(e["path"])})
        d["rq"].pop(0)


#: state.vars key of the record of finished combats: {"current": {"gt", "phase", "combats": [...]}, "last": {...}}
COMBAT_RECORD = "combat_record"
COMBAT_RECORD_MAX = 40          # combats kept per phase (bounded: the state is hashed after every action)


def record_combat(eng: Engine, d: dict[str, Any], out: dict[str, Any]) -> None:
    """Keep the finished combat's outcome for the ``combats`` query: the current phase's combats and the
    last earlier phase's (overruns are recorded in the Movement Phase they happen in)."""
    st = eng.state
    rec = dict(st.vars.get(COMBAT_RECORD) or {})
    cur = rec.get("current")
    if not cur or (cur.get("gt"), cur.get("phase")) != (st.gt, st.phase):
        if cur:
            rec["last"] = cur
        cur = {"gt": st.gt, "phase": st.phase, "combats": []}
    entry = {"side": d["side"], "form": d["form"], "hexes": list(d["hexes"]), "attackers": list(d["attackers"]),
             "defenders": list(d["defenders"]), "att_supplied": dict(d.get("att_supplied", {})),
             "def_supplied": dict(d.get("def_supplied", {})), "groups": d.get("groups", [])} | out
    cur = dict(cur)
    cur["combats"] = (list(cur["combats"]) + [_plain(entry)])[-COMBAT_RECORD_MAX:]
    rec["current"] = cur
    st.vars[COMBAT_RECORD] = rec


def query_combats(eng: Engine, phase: str = "current") -> dict[str, Any]:
    """GUI query ``combats``: the finished combats (outcomes) of the current phase, or of the last earlier
    phase in which combats were fought (``phase="last"``)."""
    if phase not in ("current", "last"):
        raise IllegalAction(f"phase must be 'current' or 'last', not {phase!r}", "14.0")
    st = eng.state
    rec = st.vars.get(COMBAT_RECORD) or {}
    cur = rec.get("current")
    now = cur is not None and (cur.get("gt"), cur.get("phase")) == (st.gt, st.phase)
    if phase == "current":
        got = cur if now else None
    else:
        got = rec.get("last") if now else cur
    if not got:
        return {"gt": None, "phase": None, "combats": []}
    return _plain(got)


QUERIES["combats"] = query_combats


def _plain(x: Any) -> Any:
    """A JSON-safe deep copy (lists, dicts, numbers, strings; fractions as floats)."""
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, Fraction):
        return float(x)
    return x


def outcome_summary(frame: Frame) -> dict[str, Any]:
    return dict(frame.data.get("outcome", {}))


__all__ = [
    "ResolveCombat", "CombatPhase", "preview", "query_odds", "legal_loss_picks", "legal_retreat_steps",
    "line_options", "loss_fraction", "morale_groups", "check_declaration", "unmet_requirements",
    "PROCEDURES",
]
