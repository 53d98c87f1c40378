"""Counters as data (2.4, Counter Details): every combat, air, fleet, supply and marker counter.

Loaded from ``resources/counters/*.csv`` (one row per counter, human-editable).
Every row carries ``source`` = ``rules`` (a value the rules text states,
reproduced exactly) or ``reconstructed`` (our best reconstruction, with a
one-line ``reason``), so an owner of the game can correct it to match the
printed counter; ``dfd validate`` checks the result.  See docs/data.md.
"""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

import msgspec

from core.resources import resource


class CounterError(ValueError):
    """A counter file row that cannot be used; the message names file, row and field."""


class Counter(msgspec.Struct, kw_only=True, frozen=True):
    id: str
    side: str                  # Axis | Allied
    nationality: str           # 2.5: GE IT VF UK AU IN NZ SA FF GR PL US VFA
    name: str                  # as printed on the counter
    kind: str                  # combat | air | fleet | supply | marker
    steps: int = 1             # 8.3: one or two steps
    move_class: str = ""       # 9.0: foot horsed trucked mechanised raider (blank: none)
    cf: int = 0
    morale: int = 0
    ma: int = 0
    source: str = "reconstructed"
    reason: str = ""


_BOOL = {"": False, "0": False, "no": False, "false": False, "n": False,
         "1": True, "yes": True, "true": True, "y": True, "x": True}


def _coerce(row: dict[str, str], fields: dict[str, type]) -> dict[str, object]:
    out: dict[str, object] = {}
    for k, v in row.items():
        if k is None or k not in fields:
            continue
        v = (v or "").strip()
        t = fields[k]
        if t is bool:
            out[k] = _BOOL.get(v.lower(), v)  # an unknown word fails validation with the field named
        elif t is int:
            out[k] = int(v) if v.lstrip("-").isdigit() else (0 if v == "" else v)
        else:
            out[k] = v
    return out


def read_csv(path: Path, cls: type) -> list:
    """Rows of ``path`` converted to ``cls``; errors name the file, line and field."""
    fields = {f.name: f.type if isinstance(f.type, type) else _resolve(f.type) for f in msgspec.structs.fields(cls)}
    out = []
    with path.open(newline="", encoding="utf-8") as fh:
        for lineno, row in enumerate(csv.DictReader(fh), start=2):
            if not any((v or "").strip() for v in row.values()) or (row.get("id") or "").startswith("#"):
                continue
            try:
                out.append(msgspec.convert(_coerce(row, fields), type=cls))
            except msgspec.ValidationError as exc:
                raise CounterError(f"{path.name} line {lineno} (id {row.get('id')!r}): {exc}") from exc
    return out


def _resolve(t: object) -> type:
    name = str(t)
    for cand in (bool, int, str, float):
        if name == cand.__name__:
            return cand
    return str


@cache
def all_counters() -> dict[str, Counter]:
    """Every counter of the game by id."""
    out: dict[str, Counter] = {}
    for path in sorted(resource("counters").glob("*.csv")):
        for c in read_csv(path, Counter):
            if c.id in out:
                raise CounterError(f"{path.name}: counter id {c.id!r} is defined twice")
            out[c.id] = c
    return out


def counter(cid: str) -> Counter:
    try:
        return all_counters()[cid]
    except KeyError:
        raise CounterError(f"no counter {cid!r} in resources/counters/") from None
