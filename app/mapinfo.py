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
    try:
        if hasattr(mod, "load") and hasattr(mod.load(), "hex_record"):
            return _from_mapdata(mod.load())
        return _generic(mod)
    except Exception as exc:  # noqa: BLE001 - the map data is optional; show the grid rather than crash
        return MapInfo(source=f"core.mapdata (unreadable: {exc})")


def _from_mapdata(md: Any) -> MapInfo:
    """Read :class:`core.mapdata.MapData` (terrain, towns, ports, airfields, forts, hexsides, routes)."""
    info = MapInfo(source="core.mapdata")
    for h in md.hexes():
        rec = md.hex_record(h)
        lab = h.label
        info.terrain[lab] = _norm(rec.get("terrain", ""))
        if rec.get("name"):
            info.names[lab] = str(rec["name"])
        feats = set()
        if rec.get("town"):
            feats.add("town")
        if rec.get("terrain") == "city":
            feats.add("city")
        if rec.get("port"):
            feats.add("port")
        if rec.get("airfield"):
            feats.add("airfield")
        if rec.get("fort"):
            feats.add("fort")
        if rec.get("terrain") == "oasis" or rec.get("oasis_box"):
            feats.add("oasis")
        if feats:
            info.features[lab] = feats
    for side, rec in md.hexsides_items():
        t = _norm(rec.get("terrain", "") if isinstance(rec, dict) else rec)
        if t:
            info.hexsides[(side.a.label, side.b.label)] = t
    # the coastline: every land/sea hexside
    terr = info.terrain
    for h in md.hexes():
        if terr.get(h.label) == "sea":
            continue
        for n in h.neighbours():
            if n.on_grid and terr.get(n.label) == "sea" and h < n:
                info.hexsides.setdefault((h.label, n.label), "coast")
            elif n.on_grid and terr.get(n.label) == "sea":
                info.hexsides.setdefault((n.label, h.label), "coast")
    for r in md.routes():
        chain = r.get("chain") or r.get("hexes") or []
        labs = [getattr(x, "label", x) for x in chain]
        if len(labs) >= 2:
            info.lines.append((_norm(r.get("kind", "road")), labs))
    return info


def _generic(mod: Any) -> MapInfo:
    info = MapInfo(source="core.mapdata")
    for lab, v in _hex_records(mod):
        t = _terrain_of(v)
        if t:
            info.terrain[lab] = t
        name = _get(v, "name") if not isinstance(v, str) else None
        if name:
            info.names[lab] = str(name)
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
