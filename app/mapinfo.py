"""What the map shows: terrain per hex, hexside features, roads, place names.

The data belongs to ``core.mapdata`` (written by the maps engineer).  This
module only adapts whatever that module offers into plain dictionaries the
renderer draws, so the app works before the map data lands (grid only) and
picks the terrain up as soon as it does.  Nothing here decides a rule.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Iterable


@dataclass
class MapInfo:
    terrain: dict[str, str] = field(default_factory=dict)              # hex label -> terrain name
    features: dict[str, set[str]] = field(default_factory=dict)        # hex label -> {"port", "airfield", "oasis", ...}
    names: dict[str, str] = field(default_factory=dict)                # hex label -> place name
    hexsides: dict[tuple[str, str], str] = field(default_factory=dict)  # (hex, hex) -> escarpment/wadi/ridge/...
    lines: list[tuple[str, list[str]]] = field(default_factory=list)   # (road|track|rail|..., [hex labels])
    source: str = "none"

    @property
    def has_terrain(self) -> bool:
        return bool(self.terrain)


def _norm(name: Any) -> str:
    s = str(getattr(name, "value", name) or "").strip().lower().replace(" ", "_").replace("-", "_")
    return s


def _label(x: Any) -> str | None:
    if isinstance(x, str):
        return x
    lab = getattr(x, "label", None)
    return lab if isinstance(lab, str) else None


def _call_or_get(mod: Any, *names: str) -> Any:
    for n in names:
        v = getattr(mod, n, None)
        if v is None:
            continue
        try:
            return v() if callable(v) else v
        except TypeError:
            continue
    return None


def _hex_records(mod: Any) -> Iterable[tuple[str, Any]]:
    data = _call_or_get(mod, "all_hex_data", "hex_data", "hexes", "HEXES", "load_hexes", "map_data", "load")
    if data is None:
        return []
    if hasattr(data, "hexes") and not isinstance(data, dict):
        data = data.hexes
    if isinstance(data, dict):
        return [(str(_label(k) or k), v) for k, v in data.items()]
    out = []
    for v in data:
        lab = _label(getattr(v, "hex", None)) or getattr(v, "label", None) or getattr(v, "id", None)
        if lab:
            out.append((str(lab), v))
    return out


def _terrain_of(v: Any) -> str:
    if isinstance(v, str):
        return _norm(v)
    for key in ("terrain", "kind", "type"):
        t = v.get(key) if isinstance(v, dict) else getattr(v, key, None)
        if t:
            return _norm(t)
    return ""


def _get(v: Any, key: str) -> Any:
    return v.get(key) if isinstance(v, dict) else getattr(v, key, None)


@cache
def load() -> MapInfo:
    """The map data, from ``core.mapdata`` if it exists (empty otherwise)."""
    try:
        mod = importlib.import_module("core.mapdata")
    except ModuleNotFoundError:
        return MapInfo()
    except Exception as exc:  # noqa: BLE001 - a broken map module must not stop the app
        return MapInfo(source=f"core.mapdata (cannot import: {exc})")
    info = MapInfo(source="core.mapdata")
    try:
        for lab, v in _hex_records(mod):
            t = _terrain_of(v)
            if t:
                info.terrain[lab] = t
            name = _get(v, "name") if not isinstance(v, str) else None
            if name:
                info.names[lab] = str(name)
            feats: set[str] = set()
            for key in ("features", "feature", "point", "points"):
                f = _get(v, key) if not isinstance(v, str) else None
                if isinstance(f, str) and f:
                    feats.add(_norm(f))
                elif f:
                    feats.update(_norm(x) for x in f)
            for flag in ("port", "airfield", "oasis", "city", "town", "fort", "fortified", "victory"):
                if not isinstance(v, str) and _get(v, flag):
                    feats.add(flag)
            if feats:
                info.features[lab] = feats
        names = _call_or_get(mod, "place_names", "names", "NAMES")
        if isinstance(names, dict):
            for k, n in names.items():
                info.names[str(_label(k) or k)] = str(n)
        sides = _call_or_get(mod, "hexsides", "all_hexsides", "HEXSIDES")
        if isinstance(sides, dict):
            for k, v in sides.items():
                pair = _pair(k)
                t = _terrain_of(v)
                if pair and t:
                    info.hexsides[pair] = t
        elif sides:
            for v in sides:
                pair = _pair(_get(v, "hexside") or _get(v, "side") or (_get(v, "a"), _get(v, "b")))
                t = _terrain_of(v)
                if pair and t:
                    info.hexsides[pair] = t
        lines = _call_or_get(mod, "lines", "roads", "all_roads", "ROADS")
        if isinstance(lines, dict):
            lines = [{"kind": k, "hexes": v} for k, v in lines.items()]
        for ln in lines or []:
            kind = _norm(_get(ln, "kind") or _get(ln, "type") or "road")
            hexes = _get(ln, "hexes") or _get(ln, "path") or []
            labs = [lab for lab in (_label(h) or str(h) for h in hexes) if lab]
            if len(labs) >= 2:
                info.lines.append((kind, labs))
    except Exception as exc:  # noqa: BLE001 - the map data is optional; show the grid rather than crash
        info.source = f"core.mapdata (unreadable: {exc})"
    return info


def _pair(k: Any) -> tuple[str, str] | None:
    if isinstance(k, str):
        for sep in ("/", "-", "|"):
            if sep in k:
                a, b = k.split(sep, 1)
                return (a.strip(), b.strip())
        return None
    a = getattr(k, "a", None)
    b = getattr(k, "b", None)
    if a is not None and b is not None:
        return (str(a), str(b))
    if isinstance(k, (tuple, list)) and len(k) == 2:
        return (str(_label(k[0]) or k[0]), str(_label(k[1]) or k[1]))
    return None
