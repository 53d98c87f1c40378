"""`dfd validate --provenance`: per data file, how many values the rules state and how many are reconstructed.

A value counts as ``rules`` only where its own flag says so: a counter row's ``rules_fields`` (the other fields of
a ``rules`` row are reconstructed), a chart/card entry's ``source`` (a table ``{field = "rules", ...}`` flags
field by field), a map hex's ``source`` with its ``field_source`` exceptions (map.json; a generated hex with no
flag is reconstructed), a scenario set-up, reinforcement or withdrawal line's ``source`` (a line expanded from a
card takes the card's ``units_source``; an unflagged line is reconstructed).  See docs/data.md.
"""

from __future__ import annotations

import json
from collections import Counter as Tally
from pathlib import Path
from typing import Any

from core.resources import RESOURCES, SCENARIOS

META = {"source", "reason", "note", "text", "rule", "id", "title", "units_source", "units_reason", "known",
        "aliases", "name", "rules_fields", "field_source"}
HEX_FIELDS = ("terrain", "name", "port", "fort", "airfield", "town", "mile_marker")


def _count_toml(node: Any, inherited: str, tally: Tally) -> None:
    """Walk a TOML document: every scalar or list of scalars is one value, flagged by the nearest ``source``."""
    if isinstance(node, list):
        for item in node:
            if isinstance(item, (dict, list)):
                _count_toml(item, inherited, tally)
        return
    if not isinstance(node, dict):
        return
    src = node.get("source", inherited)
    per_field = src if isinstance(src, dict) else {}
    default = inherited if isinstance(src, dict) else (src or inherited)
    units_src = node.get("units_source")
    for k, v in node.items():
        if k in META:
            continue
        if isinstance(v, dict) or (isinstance(v, list) and v and isinstance(v[0], dict)):
            child = units_src if units_src and k in ("reinforcements", "setup", "withdrawals") else default
            _count_toml(v, str(per_field.get(k, child)), tally)
            continue
        tally[_word(str(per_field.get(k, default)))] += 1


def _word(src: str) -> str:
    return "rules" if src == "rules" else "reconstructed"


def counters_file(path: Path) -> Tally:
    from core.counters import Counter, read_csv

    tally: Tally = Tally()
    import msgspec

    for c in read_csv(path, Counter):
        values = [f.name for f in msgspec.structs.fields(c)
                  if f.name not in META and getattr(c, f.name) not in ("", 0, False, None)]
        stated = set(c.stated_fields())
        tally["rules"] += sum(1 for k in values if k in stated)
        tally["reconstructed"] += sum(1 for k in values if k not in stated)
    return tally


def map_file(path: Path) -> Tally:
    data = json.loads(path.read_text(encoding="utf-8"))
    tally: Tally = Tally()
    for rec in data["hexes"].values():
        fs = rec.get("field_source", {})
        for k in HEX_FIELDS:
            if k in rec:
                tally[_word(fs.get(k, rec.get("source", "reconstructed")))] += 1
    for rec in data["hexsides"].values():
        tally[_word(rec.get("source", "reconstructed"))] += 1
    for rec in data["routes"]:
        tally[_word(rec.get("source", "reconstructed"))] += len(rec.get("hexes", []))
    return tally


def scenario_file(path: Path) -> Tally:
    from core import cards
    from core.scenario import load

    sc = load(str(path))
    tally: Tally = Tally()
    for p in sc.setup:               # a line expanded from a card carries the card's flag (card_placements)
        tally[_word(p.source or (cards.card(p.card).units_source if p.from_card else ""))] += p.count
    for r in sc.reinforcements:
        tally[_word(r.source)] += max(1, len(r.units)) * r.count
    for w in sc.withdrawals:
        tally[_word(w.source)] += len(w.units)
    return tally


def report() -> list[tuple[str, int, int]]:
    """(file, values from the rules, reconstructed values) for every data file."""
    import tomllib

    rows: list[tuple[str, Tally]] = []
    for p in sorted((RESOURCES / "counters").glob("*.csv")):
        rows.append((f"resources/counters/{p.name}", counters_file(p)))
    for sub in ("charts", "cards", "maps"):
        for p in sorted((RESOURCES / sub).glob("*.toml")):
            if p.name in ("layout.toml",):
                continue
            t: Tally = Tally()
            _count_toml(tomllib.loads(p.read_text(encoding="utf-8")), "reconstructed", t)
            rows.append((f"resources/{sub}/{p.name}", t))
    rows.append(("resources/maps/map.json", map_file(RESOURCES / "maps" / "map.json")))
    for p in sorted(SCENARIOS.glob("*.toml")):
        rows.append((f"scenarios/{p.name}", scenario_file(p)))
    return [(name, t["rules"], t["reconstructed"]) for name, t in rows]


def text() -> str:
    lines = [f"{'file':44} {'rules':>7} {'reconstructed':>14}"]
    tot_r = tot_x = 0
    for name, r, x in report():
        lines.append(f"{name:44} {r:7d} {x:14d}")
        tot_r, tot_x = tot_r + r, tot_x + x
    lines.append(f"{'total':44} {tot_r:7d} {tot_x:14d}")
    return "\n".join(lines)
