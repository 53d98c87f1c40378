"""What the computer plays for: objectives read from the scenario's own victory conditions (data, never hexes
written in code).

Each victory condition of the scenario file (``victory`` entries, 4.1 XIX/XX; the vocabulary of
:mod:`core.rules.victory_rules`) names hexes that matter: the hexes a ``control`` condition lists, the ports a
port condition counts, the bases a base condition looks at, the road of a ``road_control`` condition.  Every such
hex is an objective for *both* sides: the side it belongs to holds it, the other side takes it.  Its weight grows
with the victory level the condition gives (smashing > win > marginal).
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


def _label(h: str) -> str | None:
    try:
        return Hex.parse(h).label
    except HexLabelError:
        return None


def _maps(eng: Engine, cond: dict) -> tuple[str, ...]:
    return tuple(cond.get("maps") or eng.state.vars.get("maps") or ())


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
        elif k in ("port_capacity", "more_ports", "base_in_port"):
            maps = _maps(eng, c)
            for h, cap in ports.items():
                if not maps or h[:1] in maps:
                    # 27.3 counts ports, whatever their size; the others weigh their capacity (20.1)
                    add(h, w if k == "more_ports" else w * (0.5 + 0.25 * min(cap, 4)))
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
    return g
