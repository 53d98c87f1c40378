"""Terrain Effects Chart and movement-point costs on the hex grid (2.2.3, 13.3).

Reads ``resources/charts/tec.toml`` (see ``docs/data.d/maps.md``) and the map
(:mod:`core.mapdata`).  Qt-free, cached.

The cost of a step ``a -> b`` for a movement class (9.0: ``foot``, ``horsed``,
``trucked``, ``mech``; plus ``raider`` 16.1 and ``sf`` 15.4):

1. along a primary or secondary road joining ``a`` and ``b``: the road cost of the
   class (13.3 "roads negate all other terrain": mech 1 MP per hex, trucked 1/4 MP,
   EoP and 13.2.4);
2. otherwise the in-hex cost of ``b`` (the greatest of its terrain types, 13.3) plus
   the cost of the hexside crossed; along a track both are halved (13.3);
   terrain a class may not enter is prohibited (None) unless a road or a track
   carries the unit through (13.3 "except on roads or trails");
3. plus 1 MP to enter an enemy ZOC (11.4) when asked;
4. winter and Ghibli double every cost except along roads (21.1.1, 21.2.1; Ghiblis
   do not double wadi hexsides, 6.3d).

:func:`path_cost` adds the 13.3 fraction rule: a motorized unit leaving a road or
track loses the fraction of an MP it has left (its running total is rounded up).
"""

from __future__ import annotations

import heapq
import math
import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Iterable, Sequence

from core import mapdata
from core.hexgrid import Hex
from core.mapdata import HexLike, _hex
from core.resources import resource

PROHIBITED = None


@dataclass(frozen=True)
class Tec:
    """The loaded chart."""

    raw: dict

    @property
    def classes(self) -> list[str]:
        return list(self.raw["classes"])

    def cls(self, move_class: str) -> str:
        """Canonical class name (``mechanised`` -> ``mech``, ``motorized`` -> ``trucked``)."""
        c = move_class.strip().lower()
        c = self.raw.get("class_aliases", {}).get(c, c)
        if c not in self.raw["classes"] and c not in ("raider", "sf"):
            raise ValueError(f"unknown movement class {move_class!r} (9.0: foot, horsed, trucked, mech)")
        return c

    def is_motorized(self, cls: str) -> bool:
        return cls in self.raw["motorized"] or cls == "raider"

    def hex_cost(self, terrain: str, cls: str) -> float | None:
        v = self.raw["hex"][terrain][cls]
        return None if v == "P" else float(v)

    def side_cost(self, terrain: str, cls: str) -> float | None:
        v = self.raw["hexside"][terrain][cls]
        return None if v == "P" else float(v)

    def along_track_base(self, table: str, terrain: str) -> float | None:
        e = self.raw[table][terrain]
        return float(e["along_track_base"]) if e.get("off_road_prohibited") else None

    def road_cost(self, road: str, cls: str) -> float:
        return float(self.raw["road"][road][cls])

    @property
    def other(self) -> dict:
        return self.raw["other"]


@cache
def tec() -> Tec:
    """The chart, loaded once from ``resources/charts/tec.toml``."""
    with resource("charts", "tec.toml").open("rb") as fh:
        return Tec(tomllib.load(fh))


def _in_hex_terrains(b: Hex) -> list[str]:
    md = mapdata.load()
    ts = [md.terrain(b)]
    if md.is_town(b):
        ts.append("town")
    return ts


def move_cost(a: HexLike, b: HexLike, move_class: str, *, ezoc: bool = False, weather: str | None = None) -> float | None:
    """MP for a unit of ``move_class`` to move from ``a`` into the adjacent hex ``b``; None if prohibited.

    ``ezoc``: ``b`` is in an enemy ZOC (+1 MP, 11.4; SF and raiders ignore EZOC,
    15.4, 16.1).  ``weather``: ``"winter"`` or ``"ghibli"`` doubles the cost in the
    hexes those rules name, except along roads (21.1.1, 21.2.1).
    """
    a, b = _hex(a), _hex(b)
    if a.distance(b) != 1:
        raise ValueError(f"{a} and {b} are not adjacent (13.1: a path of contiguous hexes)")
    t = tec()
    md = mapdata.load()
    cls = t.cls(move_class)
    if not b.on_grid or not md.is_land(b):
        return PROHIBITED
    side = md.hexside(a, b)
    if side in ("sea", "impassable"):
        return PROHIBITED
    base_cls = {"raider": "trucked", "sf": "foot"}.get(cls, cls)
    road = md.road_between(a, b)
    if road:
        cost = t.road_cost(road, base_cls)
        if cls in ("raider", "sf"):
            cost = min(cost, float(t.raw["special"]["raider_mp_per_hex"]))
        return cost + (t.other["enter_ezoc"] if ezoc and cls not in ("raider", "sf") else 0)
    track = md.track_between(a, b)
    # in-hex: the greatest cost of the hex's terrain types (13.3)
    hex_cost = 0.0
    for terr in _in_hex_terrains(b):
        c = t.hex_cost(terr, base_cls)
        if c is None:
            c = t.along_track_base("hex", terr) if track else None
            if c is None:
                return PROHIBITED
        hex_cost = max(hex_cost, c)
    side_cost = 0.0
    if side:
        c = t.side_cost(side, base_cls)
        if c is None:
            c = t.along_track_base("hexside", side) if track else None
            if c is None:
                return PROHIBITED
        side_cost = c
    if cls in ("raider", "sf"):  # 16.1, 15.4: 1 MP per hex, hexside terrain ignored
        return float(t.raw["special"]["raider_mp_per_hex"])
    factor = t.raw["track"]["factor"] if track else 1.0
    hex_cost *= factor
    side_cost *= factor
    if weather:
        hex_cost, side_cost = _weather(weather, a, b, side, hex_cost, side_cost)
    return hex_cost + side_cost + (t.other["enter_ezoc"] if ezoc else 0)


def _weather(weather: str, a: Hex, b: Hex, side: str | None, hex_cost: float, side_cost: float) -> tuple[float, float]:
    md = mapdata.load()
    w = tec().raw["weather"]
    if weather == "winter":  # 21.1: winter hexes; Map C wadi hexsides
        f = w["winter_factor"]
        if md.winter_area(b):
            hex_cost *= f
            side_cost *= f
        elif side == "wadi" and md.winter_hexside(a, b):
            side_cost *= f
    elif weather == "ghibli":  # 21.2: desert and rough hexes outside the winter areas; not wadis (6.3d)
        if md.ghibli_affected(b):
            hex_cost *= w["ghibli_factor"]
            if side not in w["ghibli_exempt_hexsides"]:
                side_cost *= w["ghibli_factor"]
    else:
        raise ValueError(f"unknown weather {weather!r} (winter or ghibli)")
    return hex_cost, side_cost


def along_road_or_track(a: HexLike, b: HexLike) -> bool:
    md = mapdata.load()
    return bool(md.road_between(a, b)) or md.track_between(a, b)


def path_cost(hexes: Sequence[HexLike], move_class: str, *, ezoc: Iterable[HexLike] = (),
              weather: str | None = None) -> float | None:
    """Total MP to move along ``hexes`` (the first is the start hex); None if any step is prohibited.

    ``ezoc``: hexes of the path that are in an enemy ZOC (+1 MP each, 11.4).
    Motorized units lose the fraction of an MP left when they leave a road or track (13.3).
    """
    t = tec()
    cls = t.cls(move_class)
    path = [_hex(h) for h in hexes]
    z = {_hex(h) for h in ezoc}
    total = 0.0
    on_line = False
    for a, b in zip(path, path[1:]):
        c = move_cost(a, b, cls, ezoc=b in z, weather=weather)
        if c is None:
            return PROHIBITED
        line = along_road_or_track(a, b)
        if on_line and not line and t.is_motorized(cls):
            total = math.ceil(total - 1e-9)
        total += c
        on_line = line
    return total


def cheapest_path(start: HexLike, goal: HexLike, move_class: str, *, roads_only: bool = False,
                  weather: str | None = None) -> tuple[float, list[Hex]] | None:
    """Least-MP path (Dijkstra over :func:`move_cost`; the 13.3 fraction rule is not applied).

    ``roads_only``: use only steps along primary/secondary roads (13.2.3 road march).
    Returns (cost, hexes) or None when the goal cannot be reached.
    """
    s, g = _hex(start), _hex(goal)
    md = mapdata.load()
    dist = {s: 0.0}
    prev: dict[Hex, Hex] = {}
    heap = [(0.0, s)]
    while heap:
        d, h = heapq.heappop(heap)
        if h == g:
            path = [h]
            while path[-1] in prev:
                path.append(prev[path[-1]])
            return d, path[::-1]
        if d > dist.get(h, math.inf):
            continue
        for n in h.neighbours():
            if roads_only and not md.road_between(h, n):
                continue
            c = move_cost(h, n, move_class, weather=weather)
            if c is None:
                continue
            nd = d + c
            if nd < dist.get(n, math.inf) - 1e-12:
                dist[n] = nd
                prev[n] = h
                heapq.heappush(heap, (nd, n))
    return None


def reachable(start: HexLike, move_class: str, budget: float, *, weather: str | None = None) -> dict[Hex, float]:
    """Every hex reachable from ``start`` within ``budget`` MP, with its least cost.

    With ``move_class="trucked"`` this measures motorized movement points (MMP), the
    unit of supply-line length (12.4.1: a base's LOS is 14 MMP).
    """
    s = _hex(start)
    dist = {s: 0.0}
    heap = [(0.0, s)]
    while heap:
        d, h = heapq.heappop(heap)
        if d > dist.get(h, math.inf):
            continue
        for n in h.neighbours():
            c = move_cost(h, n, move_class, weather=weather)
            if c is None:
                continue
            nd = d + c
            if nd <= budget + 1e-9 and nd < dist.get(n, math.inf) - 1e-12:
                dist[n] = nd
                heapq.heappush(heap, (nd, n))
    return dist


def validate() -> list[str]:
    """Check the chart (for ``dfd validate``): every class has a value for every terrain."""
    errs: list[str] = []
    t = tec()
    for table in ("hex", "hexside"):
        for terr, row in t.raw[table].items():
            for c in t.classes:
                v = row.get(c)
                if v != "P" and not isinstance(v, (int, float)):
                    errs.append(f"tec.toml [{table}.{terr}] {c}: {v!r} is neither a number nor \"P\"")
            if "source" not in row or "reason" not in row:
                errs.append(f"tec.toml [{table}.{terr}] needs source and reason")
    for road, row in t.raw["road"].items():
        for c in t.classes:
            if not isinstance(row.get(c), (int, float)):
                errs.append(f"tec.toml [road.{road}] {c} missing")
    md = mapdata.load()
    for h in md.hexes():
        if md.terrain(h) not in t.raw["hex"]:
            errs.append(f"map terrain {md.terrain(h)!r} at {h} has no TEC entry")
            break
    return errs
