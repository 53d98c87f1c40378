"""What the map shows: terrain per hex, hexside features, roads, place names.

The data belongs to ``core.mapdata``; this module only adapts it into plain
dictionaries the renderer draws.  Nothing here decides a rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from core import mapdata


@dataclass
class MapInfo:
    terrain: dict[str, str] = field(default_factory=dict)              # hex label -> terrain name
    features: dict[str, set[str]] = field(default_factory=dict)        # hex label -> {"port", "airfield", "oasis", ...}
    names: dict[str, str] = field(default_factory=dict)                # hex label -> place name
    hexsides: dict[tuple[str, str], str] = field(default_factory=dict)  # (hex, hex) -> escarpment/wadi/ridge/...
    lines: list[tuple[str, list[str]]] = field(default_factory=list)   # (road|track|rail|..., [hex labels])


def _norm(name: Any) -> str:
    s = str(getattr(name, "value", name) or "").strip().lower().replace(" ", "_").replace("-", "_")
    return s


@cache
def load() -> MapInfo:
    """The map data of ``core.mapdata`` as plain dictionaries for the renderer.

    A map file that cannot be read is an error the user must see (``core.mapdata``
    names the file and the field); the app does not fall back to an empty grid.
    """
    return _from_mapdata(mapdata.load())


def _from_mapdata(md: mapdata.MapData) -> MapInfo:
    """Read :class:`core.mapdata.MapData` (terrain, towns, ports, airfields, forts, hexsides, routes)."""
    info = MapInfo()
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
