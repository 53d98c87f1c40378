"""13.3 Terrain & Movement: the Terrain Effects Chart as MP costs per movement class.

The ground rules (ZOC 11.3, supply lines 12.4, movement 13.x) read the map only
through :class:`GroundMap`: in-hex terrain, hexside terrain, the lines that
cross a hexside (roads, tracks, trails, railroads), ports, cities and forts.
:func:`current_map` builds it from the maps engineer's ``core.mapdata`` when that
module is present; tests may install a small map with :func:`use_map`.

MP are counted in **eighths** (``EIGHTH = 8`` units per MP) so that road costs
of 1/4 MP (WE-21) and track halving (13.3) stay exact integers.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Iterable

from core.hexgrid import Hex, Hexside, all_hexes

EIGHTH = 8            # internal MP unit: 1 MP = 8
PROHIBITED = None     # a cost of None means the move is prohibited (13.1)

MOTORIZED_CLASSES = frozenset({"trucked", "mechanised", "raider"})  # 9.0 (raiders: 9.0 Important)
ROAD_LINES = ("primary", "secondary")        # 13.3: roads negate all other terrain
HEXSIDE_BLOCK_ALL = frozenset({"sea", "impassable"})

#: 13.3 / TEC (resources/charts, C2 of the design notes): in-hex cost in MP per class.
#: Values the Example of Play fixes: desert 2 and rough 4 for mechanised (WE-30).
#: The rest are reconstructed (docs/rulings.d/ground.md G-TEC).  None = prohibited.
HEX_COST: dict[str, dict[str, float | None]] = {
    "clear":    {"foot": 1, "horsed": 1, "trucked": 1, "mechanised": 1},
    "desert":   {"foot": 2, "horsed": 1, "trucked": 2, "mechanised": 2},
    "rough":    {"foot": 2, "horsed": 2, "trucked": 4, "mechanised": 4},
    "mountain": {"foot": 3, "horsed": 3, "trucked": None, "mechanised": None},
    "sand_sea": {"foot": None, "horsed": None, "trucked": None, "mechanised": None},
    "marsh":    {"foot": 3, "horsed": 3, "trucked": None, "mechanised": None},
    "city":     {"foot": 1, "horsed": 1, "trucked": 1, "mechanised": 1},
    "village":  {"foot": 1, "horsed": 1, "trucked": 1, "mechanised": 1},
    "oasis":    {"foot": 1, "horsed": 1, "trucked": 1, "mechanised": 1},
    "sea":      {"foot": None, "horsed": None, "trucked": None, "mechanised": None},
}
#: Hexside terrain: extra MP per class (None = prohibited unless a road/track/trail crosses it).
SIDE_COST: dict[str, dict[str, float | None]] = {
    "wadi":       {"foot": 1, "horsed": 1, "trucked": 2, "mechanised": 2},   # WE-30: +2 mech
    "ridge":      {"foot": 1, "horsed": 1, "trucked": 1, "mechanised": 1},
    "escarpment": {"foot": 2, "horsed": 2, "trucked": None, "mechanised": None},
}
#: 13.3: the MP cost of a road hex per class (WE-21: mech 1, motorised 1/4).
ROAD_COST: dict[str, float] = {"foot": 0.5, "horsed": 0.5, "trucked": 0.25, "mechanised": 1}


@cache
def nbrs(h: Hex) -> tuple[Hex, ...]:
    """The on-grid neighbours of ``h`` (cached: the grid never changes)."""
    return tuple(h.neighbours())


@cache
def grid_has(h: Hex) -> bool:
    return h.on_grid


def mp(eighths: int) -> float:
    """Eighths of an MP -> MP (for messages and queries)."""
    return eighths / EIGHTH


def to_eighths(v: float) -> int:
    return int(round(v * EIGHTH))


@dataclass
class GroundMap:
    """What the ground rules need to know about the hex grid.

    ``terrain``: hex -> in-hex terrain types (13.3: the costliest applies);
    ``sides``: hexside -> hexside terrain (wadi, escarpment, ridge, sea, impassable);
    ``lines``: hexside -> lines crossing it (primary, secondary, track, trail, rail).
    Hexes absent from ``terrain`` have ``default`` terrain; hexes in ``off_grid``
    (or not on any map sheet) are not part of the grid (13.1).
    """

    terrain: dict[Hex, frozenset[str]] = field(default_factory=dict)
    sides: dict[Hexside, frozenset[str]] = field(default_factory=dict)
    lines: dict[Hexside, frozenset[str]] = field(default_factory=dict)
    ports: dict[Hex, int] = field(default_factory=dict)       # hex -> port capacity (standard boxes)
    forts: dict[Hex, int] = field(default_factory=dict)       # printed fortifications (level)
    names: dict[Hex, str] = field(default_factory=dict)
    default: str = "desert"
    source: str = "synthetic"
    external: Any = None      # core.terrain when the real map is used: its TEC gives every step cost
    _cost_cache: dict = field(default_factory=dict, repr=False)

    def on_grid(self, h: Hex) -> bool:
        return grid_has(h) and "sea" not in self.terrain.get(h, frozenset())

    def hex_terrain(self, h: Hex) -> frozenset[str]:
        return self.terrain.get(h, frozenset({self.default}))

    def side_terrain(self, a: Hex, b: Hex) -> frozenset[str]:
        return self.sides.get(Hexside.between(a, b), frozenset())

    def lines_between(self, a: Hex, b: Hex) -> frozenset[str]:
        return self.lines.get(Hexside.between(a, b), frozenset())

    def is_city(self, h: Hex) -> bool:
        return "city" in self.hex_terrain(h)

    def is_mountain(self, h: Hex) -> bool:
        return "mountain" in self.hex_terrain(h)

    def neighbours(self, h: Hex) -> list[Hex]:
        return [n for n in nbrs(h) if self.on_grid(n)]

    # -- building helpers (tests, adapters) ------------------------------------
    def set_hex(self, label: str, *types: str) -> "GroundMap":
        self.terrain[Hex.parse(label)] = frozenset(types)
        return self

    def set_side(self, a: str, b: str, *types: str) -> "GroundMap":
        hs = Hexside.between(Hex.parse(a), Hex.parse(b))
        self.sides[hs] = self.sides.get(hs, frozenset()) | frozenset(types)
        return self

    def add_line(self, labels: Iterable[str], kind: str) -> "GroundMap":
        """A road/track/trail/rail running through ``labels`` in order."""
        hexes = [Hex.parse(x) for x in labels]
        for a, b in zip(hexes, hexes[1:]):
            hs = Hexside.between(a, b)
            self.lines[hs] = self.lines.get(hs, frozenset()) | {kind}
        return self


def move_class(cls: str, sf: bool = False) -> str:
    """The TEC column for a unit (9.0; 15.4 SF and 16.1 raiders pay 1 MP per hex)."""
    if sf:
        return "sf"
    return cls or "foot"


def step_cost(gm: GroundMap, cls: str, a: Hex, b: Hex) -> tuple[int | None, str]:
    """MP (eighths) for class ``cls`` to move from ``a`` into adjacent ``b`` (13.3).

    Returns (cost or None if prohibited, route) where route is ``road``, ``track``
    or ``open``.  Roads negate all other terrain; tracks halve the in-hex and
    hexside cost; trails let motorised units through terrain otherwise
    prohibited to them (13.3).  SF and desert raiders pay 1 MP for every hex
    (15.4, 16.1) but may not enter prohibited terrain.
    """
    if not gm.on_grid(b):
        return PROHIBITED, "open"
    if gm.external is not None:
        key = (a, b, cls)
        hit = gm._cost_cache.get(key)
        if hit is None:
            hit = _external_cost(gm, cls, a, b)
            gm._cost_cache[key] = hit
        return hit
    side = gm.side_terrain(a, b)
    if side & HEXSIDE_BLOCK_ALL:
        return PROHIBITED, "open"
    lines = gm.lines_between(a, b)
    if cls in ("sf", "raider"):
        base = "foot" if cls == "sf" else "mechanised"
        ok, _ = step_cost(gm, base, a, b)
        if ok is None and not _passable_off_road(gm, base, b, side):
            return PROHIBITED, "open"
        return EIGHTH, "open"
    col = cls if cls in ROAD_COST else "foot"
    if lines & set(ROAD_LINES):
        return to_eighths(ROAD_COST[col]), "road"
    track = "track" in lines
    trail = "trail" in lines
    hex_cost = 0.0
    for t in gm.hex_terrain(b):
        row = HEX_COST.get(t)
        if row is None:
            continue
        c = row.get(col)
        if c is None:
            if (track or trail) and col in MOTORIZED_CLASSES:
                c = HEX_COST[t]["foot"] or 2
            else:
                return PROHIBITED, "open"
        hex_cost = max(hex_cost, float(c))
    side_cost = 0.0
    for t in side:
        row = SIDE_COST.get(t)
        if row is None:
            continue
        c = row.get(col)
        if c is None:
            if (track or trail) and col in MOTORIZED_CLASSES:
                c = row["foot"] or 2
            else:
                return PROHIBITED, "open"
        side_cost += float(c)
    total = to_eighths(hex_cost + side_cost)
    if track:
        return total // 2, "track"
    return total, "open"


def _external_cost(gm: GroundMap, cls: str, a: Hex, b: Hex) -> tuple[int | None, str]:
    """The maps engineer's TEC (``core.terrain.move_cost``, resources/charts/tec.toml)."""
    lines = gm.lines_between(a, b)
    route = "road" if lines & set(ROAD_LINES) else ("track" if lines & {"track", "trail"} else "open")
    try:
        c = gm.external.move_cost(a, b, "sf" if cls == "sf" else cls)
    except ValueError:
        return PROHIBITED, route
    return (None if c is None else to_eighths(c)), route


def _passable_off_road(gm: GroundMap, cls: str, b: Hex, side: frozenset[str]) -> bool:
    for t in gm.hex_terrain(b):
        if HEX_COST.get(t, {}).get(cls, 1) is None:
            return False
    for t in side:
        if SIDE_COST.get(t, {}).get(cls, 1) is None:
            return False
    return True


# ---------------------------------------------------------------------------
# The map in use

_override: GroundMap | None = None


def use_map(gm: GroundMap | None) -> None:
    """Install ``gm`` as the map (tests, benchmarks); ``None`` goes back to the real map."""
    global _override
    _override = gm


def current_map() -> GroundMap:
    """The map the rules read: an installed map, else the maps engineer's data."""
    if _override is not None:
        return _override
    return real_map()


@cache
def real_map() -> GroundMap:
    """``core.mapdata`` adapted to a :class:`GroundMap`; an all-desert grid until it exists.

    The fallback (every on-grid hex desert, no roads) keeps the rules working
    while the map data lands; it is reported in docs/rulings.d/ground.md.
    """
    try:
        mod = importlib.import_module("core.mapdata")
    except ImportError:
        return GroundMap(source="fallback: core.mapdata missing, all hexes desert")
    try:
        gm = _adapt(mod)
        try:
            gm.external = importlib.import_module("core.terrain")
            gm.external.tec()
            gm.source += " + core.terrain (TEC)"
        except Exception:
            gm.external = None
        return gm
    except Exception as exc:  # pragma: no cover - depends on the other engineer's data
        return GroundMap(source=f"fallback: core.mapdata unreadable ({exc})")


_HEX_ALIASES = {"salt_marsh": "marsh", "salt marsh": "marsh", "sand sea": "sand_sea", "sandsea": "sand_sea",
                "town": "village", "port": "city", "desert/rough": "rough"}


def _norm(t: str) -> str:
    t = str(t).strip().lower().replace("-", "_")
    return _HEX_ALIASES.get(t, t)


def _adapt(mod: Any) -> GroundMap:
    """Read whatever shape ``core.mapdata`` offers: a ``load()``/``hexes()`` API of records."""
    gm = GroundMap(source="core.mapdata")
    data = None
    for fn in ("load", "load_map", "map_data", "mapdata"):
        if callable(getattr(mod, fn, None)):
            data = getattr(mod, fn)()
            break
    hexes = getattr(data, "hexes", None) if data is not None else getattr(mod, "HEXES", None)
    if callable(hexes):
        hexes = hexes()
    if isinstance(hexes, dict):
        items = hexes.items()
    else:
        items = ((getattr(r, "label", None) or r.get("label"), r) for r in (hexes or []))
    for lab, rec in items:
        h = Hex.parse(str(lab))
        get = (lambda k, r=rec: r.get(k) if isinstance(r, dict) else getattr(r, k, None))
        types = get("terrain")
        types = [types] if isinstance(types, str) else list(types or [])
        gm.terrain[h] = frozenset(_norm(t) for t in types) or frozenset({"clear"})
        cap = get("port") or get("port_boxes") or 0
        if isinstance(cap, (list, tuple)):
            cap = sum(int(x) for x in cap)
        if cap:
            gm.ports[h] = int(cap) if not isinstance(cap, bool) else 1
        if get("city"):
            gm.terrain[h] = gm.terrain[h] | {"city"}
        if get("fort"):
            gm.forts[h] = int(get("fort"))
        if get("name"):
            gm.names[h] = str(get("name"))
    sides = getattr(data, "hexsides", None) if data is not None else getattr(mod, "HEXSIDES", None)
    if callable(sides):
        sides = sides()
    for key, rec in (sides.items() if isinstance(sides, dict) else []):
        hs = Hexside.parse(str(key))
        feats = rec if isinstance(rec, (list, tuple, set, frozenset)) else (rec.get("terrain") or [])
        feats = [feats] if isinstance(feats, str) else list(feats)
        for f in feats:
            f = _norm(f)
            if f in ("primary", "secondary", "track", "trail", "rail", "road"):
                gm.lines[hs] = gm.lines.get(hs, frozenset()) | {"primary" if f == "road" else f}
            else:
                gm.sides[hs] = gm.sides.get(hs, frozenset()) | {f}
    return gm


def grid_hexes(gm: GroundMap) -> list[Hex]:
    """Every hex of the grid the map holds (for benchmarks and whole-map queries)."""
    return [h for h in all_hexes() if gm.on_grid(h)]
