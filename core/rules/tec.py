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

from dataclasses import dataclass, field
from functools import cache
from typing import Any, Iterable

from core.hexgrid import Hex, Hexside, all_hexes

EIGHTH = 8            # internal MP unit: 1 MP = 8
PROHIBITED = None     # a cost of None means the move is prohibited (13.1)

MOTORIZED_CLASSES = frozenset({"trucked", "mechanised", "raider"})  # 9.0 (raiders: 9.0 Important)
ROAD_LINES = ("primary", "secondary")        # 13.3: roads negate all other terrain
HEXSIDE_BLOCK_ALL = frozenset({"sea", "impassable"})

#: 9.0 movement classes as the ground rules name them (the chart's ``mech`` is ``mechanised`` here)
CLASSES = ("foot", "horsed", "trucked", "mechanised")
TRACK_LINES = frozenset({"track", "trail"})   # tec.toml [track]: "'Trail' (13.3) is the same line"

# The MP costs themselves are NOT kept here: every map (the real one and the synthetic test maps of
# use_map) takes them from the one Terrain Effects Chart, resources/charts/tec.toml, through
# core.terrain.tec() (docs/rulings.d/ground.md G-TEC).

#: in-hex terrain names of a GroundMap that the chart spells differently
_CHART_TERRAIN = {"village": "town"}


def chart():
    """The Terrain Effects Chart (``core.terrain.tec()``, resources/charts/tec.toml)."""
    from core import terrain

    return terrain.tec()


def chart_column(cls: str) -> str:
    """The chart column a ground class pays or is prohibited as: ``mechanised`` -> ``mech``; 16.1 raiders
    are prohibited as trucked and 15.4 SF as foot (tec.toml [special])."""
    t = chart()
    if cls == "raider":
        return t.cls(t.raw["special"].get("raider_prohibited_as", "trucked"))
    if cls == "sf":
        return t.cls(t.raw["special"].get("sf_prohibited_as", "foot"))
    try:
        return t.cls(cls or "foot")
    except ValueError:
        return "foot"


def road_cost(cls: str, road: str = "primary") -> int:
    """13.3: the eighths a class pays per road hex (SF and raiders: at most their 1 MP per hex)."""
    t = chart()
    c = t.road_cost(road, chart_column(cls))
    if cls in ("raider", "sf"):
        c = min(c, float(t.raw["special"][f"{cls}_mp_per_hex"]))
    return to_eighths(c)


def hex_id(h: Hex) -> int:
    """A hex as one int (row; global column, negative west of map L, offset by 2048): cheap dict keys for
    the searches; :func:`hex_of_id` inverts it."""
    return (h.row << 12) | (h.g + 2048)


def hex_of_id(hid: int) -> Hex:
    return Hex(hid >> 12, (hid & 0xFFF) - 2048)


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
    ports: dict[Hex, int] = field(default_factory=dict)       # hex -> all its port boxes (standard + limited, 20.1);
    #                                                           the capacity 12.2.4 / 26.3-33.3 count: naval.port_capacity
    forts: dict[Hex, int] = field(default_factory=dict)       # printed fortifications (level)
    names: dict[Hex, str] = field(default_factory=dict)
    default: str = "desert"
    source: str = "synthetic"
    external: Any = None      # core.terrain when the real map is used: its TEC gives every step cost
    weather: str = ""         # "winter" / "ghibli" in force (21.1.1, 21.2.1: MP costs doubled), see map_for
    winter_extra: frozenset = frozenset()   # Map T hexes put in the winter area by the state (test data), or {"T"}
    _cost_cache: dict = field(default_factory=dict, repr=False)
    _grid_cache: dict = field(default_factory=dict, repr=False)
    _step_cache: dict = field(default_factory=dict, repr=False)
    _misc_cache: dict = field(default_factory=dict, repr=False)
    _generation: int = field(default=0, repr=False)
    #: the map this one is :func:`map_for`'s variant of (same terrain and hexsides; ``changed``: the hex ids at the
    #: ends of the hexsides whose lines differ, the built roads): its step tables are derived from the base's
    base: "GroundMap | None" = field(default=None, repr=False)
    changed: frozenset[int] = field(default=frozenset(), repr=False)

    def on_grid(self, h: Hex) -> bool:
        v = self._grid_cache.get(h)
        if v is None:
            v = self._grid_cache[h] = grid_has(h) and "sea" not in self.terrain.get(h, frozenset())
        return v

    def touch(self) -> None:
        """Forget the derived caches (call after changing ``terrain``, ``sides`` or ``lines``)."""
        self._cost_cache.clear()
        self._grid_cache.clear()
        self._step_cache.clear()
        self._misc_cache.clear()
        self._generation += 1

    def steps(self, cls: str, h: Hex) -> tuple[tuple[Hex, int | None, str], ...]:
        """``(n, cost, route)`` for every on-grid neighbour ``n`` of ``h`` (in :func:`nbrs` order), with the
        :func:`step_cost` of class ``cls`` (cached: pure in the map)."""
        key = (cls, h)
        v = self._step_cache.get(key)
        if v is None:
            costs = self.type_costs(cls)
            v = self._step_cache[key] = tuple((n, *costs[ti]) for _, n, ti, _ in self.edges(hex_id(h)))
        return v

    def steps_by_id(self, cls: str, hid: int) -> tuple[tuple[int, Hex, int | None, str, str], ...]:
        """:meth:`steps` keyed and answered by :func:`hex_id` (for searches: int keys hash in C), with labels:
        ``(nid, n, cost, route, label)``."""
        key = (cls, hid)
        v = self._step_cache.get(key)
        if v is None:
            costs = self.type_costs(cls)
            v = self._step_cache[key] = tuple((nid, n, *costs[ti], lab) for nid, n, ti, lab in self.edges(hid))
        return v

    # -- the step tables (issue 18): a class-free adjacency, a cost per class and kind of step --------------
    # Every step from a hex into an on-grid neighbour is one *kind* of step: the facts its cost depends on (the
    # entered hex's terrain, the hexside's terrain and lines, and under winter/Ghibli whether the entered hex is
    # in the weather area and whether both hexes are on Map C).  A map has few kinds (about 70), so a class's
    # costs are one short list, and a search reads ``costs[kind]`` beside the adjacency: no per-class table
    # is filled hex by hex (the cold search costs what the warm one does).

    def edges(self, hid: int) -> tuple[tuple[int, Hex, int, str], ...]:
        """``(nid, n, kind, label)`` for every on-grid neighbour ``n`` of the hex ``hid`` (:func:`nbrs` order);
        ``kind`` indexes :meth:`type_costs`.  Filled hex by hex, or for the whole grid by :meth:`fill_edges`."""
        adj = self._misc_cache.get("adj")
        if adj is None:
            adj = self._misc_cache["adj"] = {}
        v = adj.get(hid)
        if v is None:
            v = adj[hid] = self._edges_of(hex_of_id(hid))
        return v

    def adjacency(self) -> dict[int, tuple[tuple[int, Hex, int, str], ...]]:
        """The :meth:`edges` filled so far, by hex id (a search reads it directly, falling back to :meth:`edges`)."""
        adj = self._misc_cache.get("adj")
        if adj is None:
            adj = self._misc_cache["adj"] = {}
        return adj

    def fill_edges(self) -> None:
        """Fill :meth:`edges` for every hex of the grid and the costs of the ground classes (done once when the real
        map is loaded, so that no search pays for it)."""
        adj = self.adjacency()
        for h in all_hexes():
            hid = hex_id(h)
            if hid not in adj and self.on_grid(h):
                adj[hid] = self._edges_of(h)
        for cls in (*CLASSES, "raider", "sf"):
            self.type_costs(cls)

    def type_costs(self, cls: str) -> list[tuple[int | None, str]]:
        """``(cost, route)`` of class ``cls`` for every kind of step (index: the kind of :meth:`edges`); the list
        grows in place as new kinds are met, so a search may hold it."""
        kinds, _, costs = self._kinds()
        v = costs.get(cls)
        if v is None:
            v = costs[cls] = [_kind_cost(cls, self.weather, k) for k in kinds]
        return v

    def _kinds(self) -> tuple[list[tuple], dict[tuple, int], dict[str, list]]:
        v = self._misc_cache.get("kinds")
        if v is None:
            v = self._misc_cache["kinds"] = ([], {}, {})
        return v

    def _kind(self, key: tuple) -> int:
        kinds, index, costs = self._kinds()
        k = index.get(key)
        if k is None:
            k = index[key] = len(kinds)
            kinds.append(key)
            for cls, v in costs.items():
                v.append(_kind_cost(cls, self.weather, key))
        return k

    def _side_facts(self) -> dict[tuple[int, int], tuple[frozenset[str], frozenset[str]]]:
        """``(hexside terrain, lines)`` of every hexside that has any, keyed by the hex ids of both its hexes in
        either order (most hexsides have none: a step's facts are then its hex's alone)."""
        v = self._misc_cache.get("side_facts")
        if v is None:
            empty: frozenset[str] = frozenset()
            v = {}
            for hs in {*self.sides, *self.lines}:
                facts = (self.sides.get(hs, empty), self.lines.get(hs, empty))
                a, b = hex_id(hs.a), hex_id(hs.b)
                v[(a, b)] = v[(b, a)] = facts
            self._misc_cache["side_facts"] = v
        return v

    def _edges_of(self, h: Hex) -> tuple[tuple[int, Hex, int, str], ...]:
        hid = hex_id(h)
        if self.base is not None and hid not in self.changed:
            return self._derived_edges(h, hid)
        none = (frozenset(), frozenset())
        facts = self._side_facts()
        terrain = self.terrain
        default = frozenset({self.default})
        kinds = self._kinds()[1]
        wx = self.weather
        out = []
        for n in nbrs(h):
            if not self.on_grid(n):
                continue
            nid = hex_id(n)
            side, lines = facts.get((hid, nid), none)
            if wx:
                area = self._in_weather_area(n)
                both_c = h.label[:1] == "C" and n.label[:1] == "C"
            else:
                area = both_c = False
            key = (terrain.get(n, default), side, lines, area, both_c)
            k = kinds.get(key)
            out.append((nid, n, self._kind(key) if k is None else k, n.label))
        return tuple(out)

    def _derived_edges(self, h: Hex, hid: int) -> tuple[tuple[int, Hex, int, str], ...]:
        """:meth:`_edges_of` from the base map's edges: the same steps, their kinds told the weather facts."""
        assert self.base is not None
        remap = self._misc_cache.get("remap")
        if remap is None:
            remap = self._misc_cache["remap"] = {}
        area = self._misc_cache.get("weather_area")
        if area is None:
            area = self._misc_cache["weather_area"] = {}
        base_kinds = self.base._kinds()[0]
        wx = self.weather
        on_c = h.label[:1] == "C"
        out = []
        for nid, n, k, lab in self.base.edges(hid):
            if wx:
                a = area.get(nid)
                if a is None:
                    a = area[nid] = self._in_weather_area(n)
                facts: Any = (k, a, on_c and lab[:1] == "C")
            else:
                facts = k
            kind = remap.get(facts)
            if kind is None:
                key = base_kinds[k]
                kind = remap[facts] = self._kind(key[:3] + facts[1:] if wx else key)
            out.append((nid, n, kind, lab))
        return tuple(out)

    def _in_weather_area(self, n: Hex) -> bool:
        """21.1 winter area / 21.2 Ghibli-affected hex, for the weather in force on this map."""
        return (winter_area_hex(self, n, self.winter_extra) if self.weather == "winter"
                else ghibli_area_hex(self, n, self.winter_extra))

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
        self.touch()
        return self

    def set_side(self, a: str, b: str, *types: str) -> "GroundMap":
        hs = Hexside.between(Hex.parse(a), Hex.parse(b))
        self.sides[hs] = self.sides.get(hs, frozenset()) | frozenset(types)
        self.touch()
        return self

    def add_line(self, labels: Iterable[str], kind: str) -> "GroundMap":
        """A road/track/trail/rail running through ``labels`` in order."""
        hexes = [Hex.parse(x) for x in labels]
        for a, b in zip(hexes, hexes[1:]):
            hs = Hexside.between(a, b)
            self.lines[hs] = self.lines.get(hs, frozenset()) | {kind}
        self.touch()
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
    key = (a, b, cls)
    hit = gm._cost_cache.get(key)
    if hit is None:
        hit = _step_cost(gm, cls, a, b)
        if gm.weather and hit[0] is not None and hit[1] != "road":
            hit = (hit[0] + weather_extra(gm, cls, a, b, hit[0]), hit[1])
        gm._cost_cache[key] = hit                                   # pure in the map (GroundMap.touch clears)
    return hit


# ---------------------------------------------------------------------------
# 21.0 weather: the areas (21.1, 21.2, 6.3) and the doubled MP costs (21.1.1, 21.2.1)


def winter_area_hex(gm: GroundMap, h: Hex, extra: frozenset = frozenset()) -> bool:
    """21.1: "Map A: All Hexes. Map C: All mountain hexes ... Map T: All hexes north of the winter line" (the map
    data's winter flag, R-MAP-WINTER); ``extra``: Map T hexes the state adds, or ``"T"`` for all of Map T."""
    letter = h.label[:1]
    if letter == "A":
        return True
    if letter == "C":
        return "mountain" in gm.hex_terrain(h)
    if letter == "T":
        if "T" in extra or h.label in extra:
            return True
        from core import mapdata
        md = mapdata.load()
        return md.has(h) and md.winter_area(h)
    return False


def ghibli_area_hex(gm: GroundMap, h: Hex, extra: frozenset = frozenset()) -> bool:
    """21.2 "Ghiblis affect all desert and rough hexes, other than those in the winter areas listed in 21.1"; 6.3 a)
    not Map A, b) not Map T north of the temperate/desert line, c) not Map C mountains."""
    letter = h.label[:1]
    if letter == "A" or winter_area_hex(gm, h, extra):
        return False
    if letter == "T":
        from core import mapdata
        md = mapdata.load()
        if md.has(h) and md.temperate(h):
            return False
    return bool(gm.hex_terrain(h) & {"desert", "rough"})


def weather_extra(gm: GroundMap, cls: str, a: Hex, b: Hex, cost: int) -> int:
    """The eighths winter or a Ghibli adds to a step of ``cost`` from ``a`` into ``b`` (not along a road, which the
    caller has excluded): :func:`_weather_extra` with the facts of this step."""
    if gm.weather == "winter":
        area = winter_area_hex(gm, b, gm.winter_extra)
    elif gm.weather == "ghibli":
        area = ghibli_area_hex(gm, b, gm.winter_extra)
    else:
        return 0
    return _weather_extra(cls, gm.weather, gm.hex_terrain(b), gm.side_terrain(a, b), gm.lines_between(a, b), area,
                          a.label[:1] == "C" and b.label[:1] == "C", cost)


def _weather_extra(cls: str, weather: str, terrain: frozenset[str], side: frozenset[str], lines: frozenset[str],
                   in_area: bool, both_on_c: bool, cost: int) -> int:
    """21.1.1 / 21.2.1 "All MP costs are doubled except for movement along primary and secondary roads": entering a
    winter (Ghibli-affected: ``in_area``) hex doubles the whole step; in winter a Map C wadi hexside ("Map C: ... all
    wadi hexsides"; ``both_on_c``) doubles its own crossing cost; 6.3 d) a Ghibli never doubles a wadi hexside."""
    wadi_free = cost
    if "wadi" in side:
        c, _ = _chart_cost(cls, terrain, side - {"wadi"}, lines)
        wadi_free = cost if c is None else min(cost, c)
    if weather == "winter":
        if in_area:
            return cost
        if both_on_c and "wadi" in side:
            return cost - wadi_free
        return 0
    if weather == "ghibli" and in_area:
        return wadi_free
    return 0


def _kind_cost(cls: str, weather: str, kind: tuple) -> tuple[int | None, str]:
    """The :func:`step_cost` of a kind of step (:meth:`GroundMap.edges`): the chart's cost (13.3), doubled off the
    roads where the weather in force says so (21.1.1, 21.2.1)."""
    terrain, side, lines, in_area, both_on_c = kind
    c, r = _chart_cost(cls, terrain, side, lines)
    if weather and c is not None and r != "road":
        c += _weather_extra(cls, weather, terrain, side, lines, in_area, both_on_c, c)
    return c, r


def weather_in_force(state: Any) -> tuple[str, frozenset]:
    """("winter" / "ghibli" / "", extra winter hexes) for ``state``'s GT: the optional weather rules in use
    (``vars["weather_rules"]``, default on), 21.1 winter months, a Ghibli rolled for this GT (6.3, ``state.ghibli``)."""
    from core import calendar

    v = getattr(state, "vars", None) or {}
    if not v.get("weather_rules", True) or not hasattr(state, "gt"):
        return "", frozenset()
    extra = frozenset(v.get("winter_line_hexes", ())) | (frozenset({"T"}) if v.get("winter_all_T") else frozenset())
    if calendar.is_winter(state.gt):
        return "winter", extra
    if getattr(state, "ghibli", False) and calendar.ghibli_possible(state.gt):
        return "ghibli", extra
    return "", extra


def _step_cost(gm: GroundMap, cls: str, a: Hex, b: Hex) -> tuple[int | None, str]:
    """One TEC for every map: the chart's values applied to the map's terrain, hexsides and lines
    (the same computation as ``core.terrain.move_cost``, which reads ``core.mapdata`` directly;
    tests/test_rules_13_movement.py checks that both agree on the real map)."""
    if not gm.on_grid(b):
        return PROHIBITED, "open"
    hs = Hexside(a, b) if (a.row, a.g) < (b.row, b.g) else Hexside(b, a)    # = Hexside.between (a, b adjacent)
    empty = frozenset()
    side = gm.sides.get(hs, empty)
    lines = gm.lines.get(hs, empty)
    terr = gm.hex_terrain(b)
    key = ("cost", cls, terr, side, lines)
    hit = gm._misc_cache.get(key)
    if hit is None:
        hit = gm._misc_cache[key] = _chart_cost(cls, terr, side, lines)   # few distinct combinations
    return hit


def step_cost_ignoring(gm: GroundMap, cls: str, a: Hex, b: Hex, ignore: frozenset[str]) -> tuple[int | None, str]:
    """:func:`step_cost` with the hexside terrain types in ``ignore`` disregarded (16.4 guiding: wadi)."""
    if not gm.on_grid(b):
        return PROHIBITED, "open"
    hs = Hexside.between(a, b)
    side = gm.sides.get(hs, frozenset())
    if not side & ignore:
        return step_cost(gm, cls, a, b)
    key = ("cost", cls, gm.hex_terrain(b), side - ignore, gm.lines.get(hs, frozenset()))
    hit = gm._misc_cache.get(key)
    if hit is None:
        hit = gm._misc_cache[key] = _chart_cost(cls, key[2], key[3], key[4])
    return hit


def _chart_cost(cls: str, hex_terrain: frozenset[str], side: frozenset[str],
                lines: frozenset[str]) -> tuple[int | None, str]:
    if side & HEXSIDE_BLOCK_ALL:
        return PROHIBITED, "open"
    t = chart()
    special = cls in ("raider", "sf")
    col = chart_column(cls)
    for road in ROAD_LINES:
        if road in lines:
            return road_cost(cls, road), "road"                  # 13.3 roads negate all other terrain
    track = bool(lines & TRACK_LINES)
    route = "track" if track else "open"
    hex_cost = 0.0
    for terr in hex_terrain:
        terr = _CHART_TERRAIN.get(terr, terr)
        if terr not in t.raw["hex"]:
            continue
        c = t.hex_cost(terr, col)
        if c is None:
            c = t.along_track_base("hex", terr) if track else None     # 13.3 "except on roads or trails"
            if c is None:
                return PROHIBITED, route
        hex_cost = max(hex_cost, c)                               # 13.3: the costlier terrain applies
    side_cost = 0.0
    for terr in side:
        if terr not in t.raw["hexside"]:
            continue
        c = t.side_cost(terr, col)
        if c is None:
            c = t.along_track_base("hexside", terr) if track else None
            if c is None:
                return PROHIBITED, route
        side_cost += c
    if special:                                                   # 15.4, 16.1: 1 MP per hex entered
        return to_eighths(float(t.raw["special"][f"{cls}_mp_per_hex"])), route
    factor = float(t.raw["track"]["factor"]) if track else 1.0   # 13.3 tracks halve in-hex and hexside
    return to_eighths((hex_cost + side_cost) * factor), route


def prohibited_terrain(gm: GroundMap, cls: str, a: Hex, b: Hex) -> bool:
    """11.3: ``b`` (or the hexside from ``a``) is terrain the class could not enter, roads and tracks
    disregarded (the chart's ``P``)."""
    if not gm.on_grid(b):
        return True
    side = gm.side_terrain(a, b)
    if side & HEXSIDE_BLOCK_ALL:
        return True
    t = chart()
    col = chart_column(cls)
    for terr in gm.hex_terrain(b):
        terr = _CHART_TERRAIN.get(terr, terr)
        if terr in t.raw["hex"] and t.hex_cost(terr, col) is None:
            return True
    return any(terr in t.raw["hexside"] and t.side_cost(terr, col) is None for terr in side)


def external_cost(gm: GroundMap, cls: str, a: Hex, b: Hex) -> tuple[int | None, str]:
    """``core.terrain.move_cost`` on the real map (kept to cross-check :func:`step_cost`)."""
    from core import terrain

    lines = gm.lines_between(a, b)
    route = "road" if lines & set(ROAD_LINES) else ("track" if lines & TRACK_LINES else "open")
    try:
        c = terrain.move_cost(a, b, "sf" if cls == "sf" else cls)
    except ValueError:
        return PROHIBITED, route
    return (None if c is None else to_eighths(c)), route


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


#: (base map, generation, built edges) -> the base map with the roads built (18.3)
_WITH_ROADS: dict[tuple, GroundMap] = {}


def finished_roads(map_mods: list) -> list[list[str]]:
    """The scenario's finished roads ("Map Modifications: The road from Sollum (W2004) to Sidi Barrani (W2110) is
    complete, place the finished road marker in Sidi Barrani", 26.0, 27.0, 32.0): each ``road_finished`` map
    modification, as the hexes of the constructible route (18.3) between its two end hexes."""
    from core import mapdata

    out = []
    for m in map_mods:
        if m.get("kind") != "road_finished":
            continue
        ends = [str(x) for x in m.get("hexes", [])]
        for chain in mapdata.load().constructible_roads().values():
            route = [h.label for h in chain]
            if len(ends) == 2 and all(e in route for e in ends):
                i, j = sorted(route.index(e) for e in ends)
                out.append(route[i:j + 1])
                break
        else:
            raise MapLoadError(f"scenario map modification {m}: {ends} are not two hexes of a constructible road (18.3)")
    return out


def built_road_edges(state: Any) -> frozenset[Hexside]:
    """18.3: the hexsides of the roads built so far (``vars["roads_built"][marker]`` = consecutive hexes, one list
    per road and side, ``construction.road_marker_name``)."""
    v = getattr(state, "vars", {}) or {}
    roads = [*v.get("roads_built", {}).values(), *finished_roads(v.get("map_mods") or [])]
    return _road_edges(tuple(tuple(labels) for labels in roads)) if roads else frozenset()


@cache
def _road_edges(roads: tuple[tuple[str, ...], ...]) -> frozenset[Hexside]:
    """The hexsides along ``roads`` (each a line of consecutive hex labels); cached: pure."""
    out = set()
    for labels in roads:
        hexes = [Hex.parse(x) for x in labels]
        out.update(Hexside.between(a, b) for a, b in zip(hexes, hexes[1:]) if a.distance(b) == 1)
    return frozenset(out)


def map_for(state: Any) -> GroundMap:
    """The map the rules read for ``state``: :func:`current_map` plus the roads built by construction (18.3:
    "Construction of the road converts the route into a primary road", for movement and supply lines, 13.3) and the weather in force (21.1.1, 21.2.1:
    MP costs doubled off the roads, for movement, reaction, exploitation and supply ranges alike)."""
    base = current_map()
    edges = built_road_edges(state)
    wx, extra = weather_in_force(state)
    if not edges and not wx:
        return base
    key = (id(base), base._generation, edges, wx, extra if wx else frozenset())
    gm = _WITH_ROADS.get(key)
    if gm is None:
        if len(_WITH_ROADS) > 16:
            _WITH_ROADS.clear()
        lines = dict(base.lines)
        for hs in edges:
            lines[hs] = lines.get(hs, frozenset()) | {"primary"}      # 18.3 "converts the route into a primary road"
        note = (" + roads built (18.3)" if edges else "") + (f" + {wx} (21.0)" if wx else "")
        gm = GroundMap(terrain=base.terrain, sides=base.sides, lines=lines, ports=base.ports, forts=base.forts,
                       names=base.names, default=base.default, source=base.source + note,
                       external=base.external, weather=wx, winter_extra=extra if wx else frozenset(),
                       base=base, changed=frozenset(hex_id(x) for hs in edges for x in (hs.a, hs.b)))
        _WITH_ROADS[key] = gm
    return gm


class MapLoadError(RuntimeError):
    """The printed map (resources/maps/map.json through ``core.mapdata``) or its Terrain Effects Chart
    could not be read: the game cannot be played on a guessed map, so this is raised, never replaced."""


@cache
def real_map() -> GroundMap:
    """``core.mapdata`` adapted to a :class:`GroundMap`, every step cost from ``core.terrain``'s TEC.

    A map or chart that fails to load raises :class:`MapLoadError` naming the file and the reason: an
    all-desert substitute would be a different game (fail loudly, docs/architecture.md).
    """
    from core import mapdata, terrain

    try:
        gm = _adapt(mapdata)
    except Exception as exc:  # noqa: BLE001 - re-raised with the file named
        raise MapLoadError(f"resources/maps/map.json: the map could not be read ({type(exc).__name__}: {exc})") from exc
    try:
        terrain.tec()
    except Exception as exc:  # noqa: BLE001 - re-raised with the file named
        raise MapLoadError(f"resources/charts/tec.toml: the Terrain Effects Chart could not be read "
                           f"({type(exc).__name__}: {exc})") from exc
    gm.external = terrain
    gm.source += " + core.terrain (TEC)"
    gm.fill_edges()         # the step tables of the whole grid, once per process (issue 18: no search pays for them)
    return gm


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
