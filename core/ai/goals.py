"""What the computer plays for: objectives read from the scenario's own victory conditions (data, never hexes
written in code).

Each victory condition of the scenario file (``victory`` entries, 4.1 XIX/XX; the vocabulary of
:mod:`core.rules.victory_rules`) names hexes that matter: the hexes a ``control`` condition lists, the ports a
port condition counts, the bases a base condition looks at, the road of a ``road_control`` condition.  Every such
hex is an objective for *both* sides: the side it belongs to holds it, the other side takes it.  Its weight grows
with the victory level the condition gives (smashing > win > marginal).  A ``card_in_effect`` condition names the
hexes whose control meets the card (its ``params.control`` in resources/cards: AXC-9, Mersa Matruh).

Some of the side's own conditions are met by taking hexes the enemy may leave empty, far from the main battle: the
control hexes of its card condition and the ports its ``port_capacity`` condition still lacks (:func:`port_plan`,
26.3).  They are :attr:`Goals.raid`: a detachment goes for each (``core.ai.ground.assign_roles``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.decisions import other
from core.engine import Engine
from core.hexgrid import Hex, HexLabelError
from core.rules import offmap, tec, victory_rules

LEVEL_WEIGHT = {"smashing": 3.0, "win": 2.5, "marginal": 1.5, "draw": 0.5, "instant": 3.0}


@dataclass
class Goals:
    """Objective hexes (label -> weight) and who controls each now."""

    side: str
    weights: dict[str, float] = field(default_factory=dict)
    control: dict[str, str | None] = field(default_factory=dict)
    #: objective hexes held by the enemy: to take
    take: dict[str, float] = field(default_factory=dict)
    #: objective hexes held by the side: to hold
    hold: dict[str, float] = field(default_factory=dict)
    #: the condition kinds in play (for the plan sentence)
    kinds: list[str] = field(default_factory=list)
    #: enemy-held objectives whose condition needs a line of communication (``loc_to``): objective -> the land
    #: hexes two hexes around it, whose occupation (and ZOC, 11.0) cuts every line out of it (12.4.2)
    siege: dict[str, list[str]] = field(default_factory=dict)
    #: enemy bases the enemy's own victory needs (an enemy ``base_with_loc`` condition, 30.3-like) -> weight: a
    #: base captured or destroyed (12.2.7) leaves no line to draw from it (12.4.2), whatever the ZOC around it
    strike: dict[str, float] = field(default_factory=dict)
    #: hexes the side's own victory needs that the enemy holds, each taken by a detachment (see the module
    #: docstring): the control hexes of its card condition (AXC-9) and the ports of :func:`port_plan`
    raid: dict[str, float] = field(default_factory=dict)
    #: enemy combat hexes that cut the side's own lines of supply (:func:`supply_blockers`, 12.4) -> weight; filled
    #: by the callers that plan moves and attacks (it needs the supply lines), empty from :func:`goals` alone
    clear: dict[str, float] = field(default_factory=dict)


def _label(h: str) -> str | None:
    try:
        return Hex.parse(h).label
    except HexLabelError:
        return None


def _maps(eng: Engine, cond: dict) -> tuple[str, ...]:
    return tuple(cond.get("maps") or eng.state.vars.get("maps") or ())


def card_control_hexes(card: str) -> list[str]:
    """The hexes whose control meets a card's conditions: its ``params.control`` (resources/cards; AXC-9 "the Axis
    controls Mersa Matruh", W2118)."""
    from core import cards

    rec = cards.all_cards().get(card)
    params = getattr(rec, "params", None) or {}
    return [lab for h in params.get("control", []) if (lab := _label(str(h)))]


def port_boxes(cond: dict, h: str, cap: int) -> int:
    """What a port adds to a port condition: its standard boxes for 26.3's "standard port capacity"
    (``port_capacity``, 20.1: the limited boxes do not count), one for 27.3's port count, else every box."""
    if cond.get("kind") == "port_capacity":
        return victory_rules.standard_boxes(h)
    return 1 if cond.get("kind") == "more_ports" else cap


#: in :func:`port_plan`, one enemy combat factor in a port costs as much as this many hexes of way to it
PORT_DEFENCE_HEXES = 10.0


def port_plan(eng: Engine, side: str, cond: dict, taking: frozenset[str] = frozenset()) -> dict[str, int]:
    """The ports the side takes for its own ``port_capacity`` condition (26.3: "count the standard port capacity of
    all ports held by the Axis player (on Maps C and W) that have an LOC to C0701 ... five or more"): nothing while
    the ports it holds with that line already reach the threshold; else, among the ports of those maps the enemy
    holds, the set whose standard boxes (20.1) make up the shortfall at least cost.  A port's cost is the way to it
    (hexes from the side's nearest combat unit on the map) plus :data:`PORT_DEFENCE_HEXES` per enemy combat factor
    in it (its garrison); a set costs its farthest way (the detachments go at once) plus its garrisons.  A port in
    ``taking`` (a hex the side goes for anyway, e.g. AXC-9's Mersa Matruh) costs nothing more.  Returns port -> its
    standard boxes."""
    from core.rules.special_units import info
    from core.rules.status import hex_of, is_combat

    st = eng.state
    maps = tuple(cond.get("maps") or ())
    loc_to = cond.get("loc_to")
    held, cands = 0, {}
    for h in sorted(victory_rules._ports(eng)):
        if maps and h[:1] not in maps or not offmap.hex_in_play(st.vars.get("maps"), Hex.parse(h)):
            continue
        std = victory_rules.standard_boxes(h)
        if std <= 0:
            continue
        who = victory_rules.controller(eng, h)
        if who == side:
            if not loc_to or victory_rules.overland_connected(eng, side, h, victory_rules._label(str(loc_to))):
                held += std
        else:
            cands[h] = std
    need = int(cond.get("threshold", 0)) - held
    if need <= 0 or not cands:
        return {}
    own = [hx for u in st.units_of(side) if is_combat(u) and (hx := hex_of(u)) is not None]
    way, garrison = {}, {}
    for h in cands:
        hx = Hex.parse(h)
        if h in taking:
            way[h], garrison[h] = 0, 0.0
            continue
        way[h] = min((hx.distance(o) for o in own), default=0)
        garrison[h] = sum(max(0.5, float(info(st, v.id).cf)) for v in st.units_at(h)
                          if v.side != side and is_combat(v))
    best: tuple | None = None
    labels = sorted(cands)
    for mask in range(1, 1 << len(labels)):
        pick = [labels[i] for i in range(len(labels)) if mask >> i & 1]
        boxes = sum(cands[p] for p in pick)
        if boxes < need:
            continue
        # the detachments go at once: the farthest port sets the time; each garrison must be beaten
        cost = max(way[p] for p in pick) + PORT_DEFENCE_HEXES * sum(garrison[p] for p in pick)
        key = (cost, sum(way[p] for p in pick), -boxes, pick)
        if best is None or key < best:
            best = key
    return {} if best is None else {p: cands[p] for p in best[-1]}


def objective_hexes(eng: Engine, side: str) -> dict[str, float]:
    """Every hex the scenario's victory conditions look at, with a weight (see the module docstring)."""
    out: dict[str, float] = {}
    maps_in_play = eng.state.vars.get("maps")

    def add(label: str | None, w: float) -> None:
        # a hex on no map in play (a base placed there, 12.2.4) is no objective: no unit may go there (R-MAPS-IN-PLAY)
        if label and offmap.hex_in_play(maps_in_play, Hex.parse(label)):
            out[label] = max(out.get(label, 0.0), w)

    ports = victory_rules._ports(eng)
    for c in victory_rules.conditions(eng):
        w = LEVEL_WEIGHT.get(str(c.get("level") or "win"), 2.0)
        k = c.get("kind")
        if k == "control":
            for h in c.get("hexes", []):
                add(_label(h), w * 2)
        elif k == "card_in_effect":
            for h in card_control_hexes(str(c.get("card", ""))):
                add(h, w * 2)
        elif k in ("port_capacity", "more_ports", "base_in_port"):
            maps = _maps(eng, c)
            for h, cap in ports.items():
                boxes = port_boxes(c, h, cap)
                if (not maps or h[:1] in maps) and boxes > 0:
                    # 27.3 counts ports, whatever their size; the others weigh what they count (20.1, 26.3)
                    add(h, w if k == "more_ports" else w * (0.5 + 0.25 * min(boxes, 4)))
        elif k in ("base_with_loc", "no_base_with_loc"):
            for s in (side, other(side)):
                for h in victory_rules._bases(eng, s):
                    add(_label(h), w * 1.5)
            add(_label(str(c.get("loc_to", ""))), w)
        elif k == "road_control":
            road = victory_rules.primary_road(eng, c["from_hex"], c["to_hex"])
            if c.get("side") != side:
                # the enemy needs every hex of the road (27.3): holding one end denies it; garrisoning the whole
                # road would tie the army down behind the front
                road = [h for h in road if h in (_label(c["from_hex"]), _label(c["to_hex"]))]
            for h in road[:: max(1, len(road) // 12)]:
                add(h, w * 0.4)
    return out


def _loc_ends(loc_to: str) -> list[Hex]:
    """The hexes a line of communication to ``loc_to`` ends in (the NRV's connections, 22.1 a)."""
    labels = victory_rules.NRV_CONNECTIONS if offmap.canon_box(loc_to) == offmap.NRV else (loc_to,)
    out = []
    for x in labels:
        try:
            out.append(Hex.parse(x))
        except HexLabelError:
            continue
    return out


def goals(eng: Engine, side: str) -> Goals:
    g = Goals(side=side, weights=objective_hexes(eng, side))
    g.kinds = sorted({str(c.get("kind")) for c in victory_rules.conditions(eng)})
    for h, w in g.weights.items():
        who = victory_rules.controller(eng, h)
        g.control[h] = who
        (g.hold if who == side else g.take)[h] = w
    mine = [c for c in victory_rules.conditions(eng) if c.get("side") == side]

    def raid(hexes) -> None:
        for h in hexes:
            if h in g.take:
                g.raid[h] = max(g.raid.get(h, 0.0), g.take[h])

    for c in mine:
        if c.get("kind") == "card_in_effect":          # AXC-9: the hex whose control meets the card
            raid(card_control_hexes(str(c.get("card", ""))))
    for c in mine:
        if c.get("kind") == "port_capacity":           # 26.3: the ports still lacking, after those above
            raid(port_plan(eng, side, c, frozenset(g.raid)))
    gm = tec.current_map()
    for c in victory_rules.conditions(eng):
        if c.get("kind") == "base_with_loc" and c.get("side") == other(side):
            # 30.3-like: the enemy needs a base with a line to a hex: stand around that hex, the side facing the
            # enemy's bases first
            end = _label(str(c.get("loc_to", "")))
            bases = [Hex.parse(b) for b in victory_rules._bases(eng, other(side)) if _label(b)]
            for b in bases:
                g.strike[b.label] = max(g.strike.get(b.label, 0.0), g.weights.get(b.label, 1.0))
            if end and bases:
                # next to a base its hex is in our ZOC, where no line starts (11.0, 12.4); then around the end
                for b in bases:
                    near = [n.label for n in b.ring(1) if gm.on_grid(n) and "sea" not in gm.hex_terrain(n)]
                    if near:
                        g.siege[b.label] = near
                ring = [n for n in Hex.parse(end).ring(2) if gm.on_grid(n) and "sea" not in gm.hex_terrain(n)]
                g.siege[end] = [n.label for n in sorted(ring, key=lambda n: (min(n.distance(b) for b in bases),
                                                                              n.label))]
            continue
        if c.get("kind") != "control" or c.get("side") != other(side) or not c.get("loc_to"):
            continue
        for h in c.get("hexes", []):
            lab = _label(h)
            if lab is None or g.control.get(lab) == side:
                continue
            ends = _loc_ends(str(c["loc_to"]))
            ring = []
            # the hexes next to it (a line may not pass a hex our units hold, even out of supply: 12.4), then the
            # ring around them (our ZOC, 11.0); each the side facing where the line must run first (12.4.2)
            for r in (1, 2):
                land = [n for n in Hex.parse(lab).ring(r) if gm.on_grid(n) and "sea" not in gm.hex_terrain(n)]
                ring += [n.label for n in sorted(land, key=lambda n: (min((n.distance(e) for e in ends), default=0),
                                                                    n.label))]
            if ring:
                g.siege[lab] = ring
    # a hex the enemy holds with a line out of it (a siege objective) is besieged and attacked, not raided
    g.raid = {h: w for h, w in g.raid.items() if h not in g.siege}
    return g


#: in :func:`supply_blockers`, the weight one own unit cut off adds to the enemy stack that cuts it off ...
CLEAR_PER_UNIT = 0.25
#: ... up to this (a smashing-level objective weighs 3.0, :data:`LEVEL_WEIGHT`)
CLEAR_MAX = 3.0


def supply_blockers(eng: Engine, side: str, lines=None) -> dict[str, float]:
    """The enemy combat hexes that cut the side's lines of supply (12.4: "The line must be free of enemy units and
    EZOC"; 12.5: a unit without one is out of general supply, its motorised MA halved, no overrun, no reaction).

    For every combat unit of the side on the map without a line of supply (``lines``: :func:`core.rules.supply.
    supply_lines`), the way a line would take to it from the side's nearest general supply source (12.3: its active
    bases, the NRV) were there no enemy: the cheapest way by the motorised column of the Terrain Effects Chart
    (12.4.1, "motorized movement points").  An enemy stack on that way, or next to a hex of it that no unit of the
    side occupies (its ZOC; friendly units negate EZOC, 12.4), cuts the line.  Returns each such enemy hex ->
    :data:`CLEAR_PER_UNIT` per unit cut off (up to :data:`CLEAR_MAX`): taking it back puts them in supply."""
    from core.ai.ground import travel_field
    from core.rules import movement as movement_rules, supply
    from core.rules.status import hex_of, is_combat

    st = eng.state
    if lines is None:
        lines = supply.supply_lines(st, side)
    own_hexes, cut = set(), []
    for u in st.units_of(side):
        h = hex_of(u)
        if h is None:
            continue
        own_hexes.add(h)
        if is_combat(u) and h not in lines.los:
            cut.append(h)
    if not cut:
        return {}
    enemy = {h for u in st.units_of(other(side)) if is_combat(u) and (h := hex_of(u)) is not None}
    if not enemy:
        return {}
    gm, off = tec.current_map(), movement_rules.off_play_ids(st)
    sources = sorted({s[0] for s in supply._sources(st, side, loc=False) if gm.on_grid(s[0])}, key=lambda x: x.label)
    if not sources:
        return {}
    dist = travel_field(gm, "mot", sources[0], off=off, also=tuple(sources[1:])).get

    count: dict[Hex, int] = {}
    for h in sorted(set(cut), key=lambda x: x.label):
        n_units = sum(1 for u in st.units_at(h.label) if u.side == side and is_combat(u))
        way = cheapest_way(dist, h)
        hit: set[Hex] = set()
        for w in way:
            if w in enemy:
                hit.add(w)
            elif w not in own_hexes:
                hit.update(n for n in w.neighbours() if n in enemy)
        for e in hit:
            count[e] = count.get(e, 0) + n_units
    return {e.label: min(CLEAR_MAX, CLEAR_PER_UNIT * n) for e, n in sorted(count.items(), key=lambda kv: kv[0].label)}


def cheapest_way(dist, start: Hex) -> list[Hex]:
    """The hexes from ``start`` down a travel field ``dist`` (hex -> cost to its origin, :func:`core.ai.ground.
    travel_field`) to the origin, one cheapest step at a time (ties by label): the way a motorised unit goes."""
    d, here, way = dist(start), start, [start]
    while d:
        step = min(((dn, n.label, n) for n in here.neighbours() if (dn := dist(n)) is not None and dn < d),
                   default=None)
        if step is None:
            break
        d, here = step[0], step[2]
        way.append(here)
    return way


def strike_blockers(eng: Engine, side: str, g: Goals) -> dict[str, float]:
    """The enemy combat hexes that stop the side's motorised units on their way to a base it strikes at
    (:attr:`Goals.strike`, 30.3-like): an enemy stack on the cheapest way (the road, 13.3) from such a unit to the
    base, or projecting its ZOC into a hex of that way no unit of the side occupies (11.4 a: a unit entering an EZOC
    must stop; 11.2: motorised units ignore the ZOC of non-motorised ones).  Without raiders (16.0 optional) the way
    to the base is only opened by beating them (14.0).  Returns each such hex -> :data:`CLEAR_PER_UNIT` per unit it
    stops (up to :data:`CLEAR_MAX`), as :func:`supply_blockers` does for the lines of supply."""
    from core.ai.ground import travel_field
    from core.rules import movement as movement_rules, zoc
    from core.rules.special_units import info
    from core.rules.status import hex_of, is_combat, is_motorized

    if not g.strike:
        return {}
    st = eng.state
    enemy = {h for u in st.units_of(other(side)) if is_combat(u) and (h := hex_of(u)) is not None}
    if not enemy:
        return {}
    ezoc = zoc.enemy_zoc(st, other(side), motorized=True)
    own_hexes = {h for u in st.units_of(side) if (h := hex_of(u)) is not None}
    movers = [(h, u) for u in st.units_of(side) if is_combat(u) and is_motorized(u) and info(st, u.id).real_cf
              and (h := hex_of(u)) is not None]
    gm, off = tec.current_map(), movement_rules.off_play_ids(st)
    count: dict[Hex, int] = {}
    for base in sorted(g.strike):
        target = Hex.parse(base)
        dist = travel_field(gm, "mot", target, off=off).get
        for h, _u in sorted(movers, key=lambda m: (m[0].label, m[1].id)):
            way = cheapest_way(dist, h)
            hit: set[Hex] = set()
            for w in way[1:]:
                if w == target:
                    break
                if w in enemy:
                    hit.add(w)
                elif w in ezoc and w not in own_hexes:
                    hit.update(p for i in ezoc[w] if (p := hex_of(st.units[i])) is not None)
            for e in hit:
                count[e] = count.get(e, 0) + 1
    return {e.label: min(CLEAR_MAX, CLEAR_PER_UNIT * n) for e, n in sorted(count.items(), key=lambda kv: kv[0].label)}
