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


SIDES = ("Axis", "Allied", "Both")
NATIONALITIES = ("GE", "IT", "VF", "UK", "AU", "IN", "NZ", "SA", "FF", "GR", "PL", "US", "VFA", "AX", "AL", "MK")
COMMONWEALTH = frozenset({"UK", "AU", "IN", "NZ", "SA"})
KINDS = ("combat", "air", "fleet", "supply", "marker")
MOVE_CLASSES = ("", "foot", "horsed", "trucked", "mechanised", "raider")   # 9.0 (raider: 16.0)
MOTORIZED = frozenset({"trucked", "mechanised", "raider"})                 # 9.0; desert raiders count as motorized


class Counter(msgspec.Struct, kw_only=True, frozen=True):
    """One counter (Counter Details; 2.4-2.5, 8.0-10.1, 15.0-17.2, 19.0, 20.4).

    Values are the full-strength (front) side; ``red_*`` are the reduced
    (back) side of a two-step unit (8.3).  ``cf_flag`` is the letter printed
    after the combat factor: ``R`` recon (15.3), ``L`` light (15.9/Counter
    Details); ``cf_paren`` is a parenthesised CF (limited capability, 11.1,
    11.4, Counter Details).
    """

    id: str
    side: str                  # Axis | Allied | Both (generic markers)
    nationality: str           # 2.5: GE IT VF UK AU IN NZ SA FF GR PL US VFA; AX/AL/MK for generic counters
    name: str                  # as printed on the counter
    kind: str                  # combat | air | fleet | supply | marker
    unit_type: str = ""        # e.g. armor, infantry, recon, artillery, anti-tank, HQ, garrison, airborne...
    nato: str = ""             # NATO symbol / icon (Counter Details): infantry, armor, armored car, support...
    move_class: str = ""       # 9.0: foot horsed trucked mechanised raider (blank: none)
    mobile: bool = False       # 9.0 mobile rating; for air units the mobile symbol (19.5)
    sf: bool = False           # 15.4 special forces indicator (foot class)
    airborne: bool = False     # 15.5 airborne movement class icon (foot class)
    cf: int = 0                # combat factor (14.3)
    cf_flag: str = ""          # "" | R (recon, 15.3) | L (light, Counter Details)
    cf_paren: bool = False     # parenthesised CF (Counter Details; 11.1a, 11.4b)
    morale: int = 0            # 8.1 (middle number)
    ma: int = 0                # movement allowance (13.2)
    art: int = 0               # artillery rating (15.1)
    art_heavy: bool = False    # "H" heavy artillery (15.1)
    at: int = 0                # anti-tank rating (15.2)
    engineer: bool = False     # "E" (15.7)
    hq: bool = False           # "+" headquarters (15.6)
    garrison: bool = False     # garrison unit (15.8)
    infantry: str = ""         # "" | standard | light (15.9)
    steps: int = 1             # 8.3: one or two steps
    red_cf: int = 0            # reduced side (two-step units only)
    red_cf_flag: str = ""
    red_morale: int = 0
    red_ma: int = 0
    red_art: int = 0
    red_at: int = 0
    divisional: bool = False   # 15.10 (Italian and VF divisions)
    stack_pts: int = 0         # 10.1 Stacking Summary (divisions 3, 15.10)
    no_cadre: bool = False     # Counter Details "•": always to the Destroyed Box (8.3)
    desert_capable: bool = False   # 16.0 / Counter Details
    airdrop_capable: bool = False  # 15.5 (the list) and all SF units (15.4)
    requires_training: bool = False  # 8.5
    narrow_refit: bool = False     # 17.2: CW/US two-step units, narrow one-step band
    gs: int = 0                # air: ground support (19.5)
    bomb: int = 0              # air/fleet: bombardment (19.8, 20.4.2)
    naval: bool = False        # air: "N" naval strike capable; fleets: always
    range: str = ""            # air: S short / L long (19.1.2)
    mix: int = 0               # 2.4: counter-mix limit (bases, MSU, dumps); 0 = no limit
    aliases: str = ""          # other ids (spelling variants in the rules), separated by ";"
    source: str = "reconstructed"  # rules | reconstructed
    reason: str = ""
    known: str = ""            # what the rules text states about this counter (quoted/paraphrased)
    rules_fields: str = ""     # with source = rules: the fields the rules state (";"-separated); the rest is reconstructed

    def stated_fields(self) -> list[str]:
        """The fields whose values the rules text states (``rules_fields``); every other value is reconstructed."""
        return [f.strip() for f in self.rules_fields.split(";") if f.strip()] if self.source == "rules" else []

    @property
    def motorized(self) -> bool:
        """9.0: trucked and mechanised units (and desert raiders, 16.0) are motorized."""
        return self.move_class in MOTORIZED

    def values(self, steps: int | None = None) -> tuple[int, int, int]:
        """(CF, morale, MA) printed on the side showing with ``steps`` steps (8.3)."""
        if steps is None or steps >= self.steps or self.steps == 1:
            return self.cf, self.morale, self.ma
        return self.red_cf, self.red_morale, self.red_ma

    def problems(self) -> list[str]:
        """Inconsistencies of this row (field name first); empty when the row is usable."""
        out = []
        if self.side not in SIDES:
            out.append(f"side: {self.side!r} is not one of {', '.join(SIDES)}")
        if self.nationality not in NATIONALITIES:
            out.append(f"nationality: {self.nationality!r} is not one of {' '.join(NATIONALITIES)} (2.5)")
        if self.kind not in KINDS:
            out.append(f"kind: {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.move_class not in MOVE_CLASSES:
            out.append(f"move_class: {self.move_class!r} is not one of {', '.join(m for m in MOVE_CLASSES if m)} (9.0)")
        if self.cf_flag not in ("", "R", "L") or self.red_cf_flag not in ("", "R", "L"):
            out.append("cf_flag: must be blank, R (recon, 15.3) or L (light)")
        if self.infantry not in ("", "standard", "light"):
            out.append("infantry: must be blank, standard or light (15.9)")
        if self.range not in ("", "S", "L"):
            out.append("range: must be blank, S or L (19.1.2)")
        if self.steps not in (1, 2):
            out.append(f"steps: {self.steps} (8.3: one or two steps)")
        if self.source not in ("rules", "reconstructed"):
            out.append(f"source: {self.source!r} must be rules or reconstructed")
        if self.source == "reconstructed" and not self.reason:
            out.append("reason: a reconstructed counter needs a one-line reason")
        if self.source == "rules" and not self.rules_fields:
            out.append("rules_fields: a `rules` row names the fields the rules state (the others are reconstructed)")
        names = _field_names(Counter)
        for f in self.stated_fields():
            if f not in names:
                out.append(f"rules_fields: {f!r} is not a counter field")
        if not self.id.startswith(self.nationality + "-"):
            out.append(f"id: {self.id!r} must start with its nationality {self.nationality}- (docs/data.d/counters-scenarios.md)")
        if self.kind == "combat" and not self.move_class:
            out.append("move_class: a combat unit needs a movement class (9.0)")
        if self.steps == 1 and (self.red_cf or self.red_morale or self.red_ma):
            out.append("red_cf/red_morale/red_ma: a one-step unit has no reduced side (8.3)")
        if self.kind == "combat" and self.steps == 2 and not self.red_morale:
            out.append("red_morale: a two-step unit needs its reduced side's values (8.3)")
        if self.divisional and self.stack_pts != 3:
            out.append("stack_pts: a division counts as three stacking points (15.10)")
        if self.narrow_refit and not (self.steps == 2 and self.nationality in COMMONWEALTH | {"US"}):
            out.append("narrow_refit: only CW and US two-step units have the narrow band (17.2)")
        if self.airdrop_capable and not (self.airborne or self.sf):
            out.append("airdrop_capable: only airborne and SF units can drop (15.4, 15.5)")
        if min(self.cf, self.morale, self.ma, self.art, self.at, self.mix) < 0:
            out.append("cf/morale/ma/art/at/mix: values cannot be negative")
        return out


@cache
def _field_names(cls: type) -> frozenset[str]:
    """The fields of a struct, once: ``msgspec.structs.fields`` evaluates every annotation on each call (1-2 ms;
    asked for every counter row, it was half a second of every start, issue 18)."""
    return frozenset(f.name for f in msgspec.structs.fields(cls))


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
            bad = c.problems()
            if bad:
                raise CounterError(f"{path.name} (id {c.id!r}): " + "; ".join(bad))
            out[c.id] = c
    for c in list(out.values()):
        for alias in filter(None, (a.strip() for a in c.aliases.split(";"))):
            if alias in out and out[alias].id != c.id:
                raise CounterError(f"counter {c.id!r}: field `aliases`: {alias!r} is already a counter id")
            _ALIASES[alias] = c.id
    return out


_ALIASES: dict[str, str] = {}


def resolve(cid: str) -> str | None:
    """The counter id for ``cid`` or one of its aliases (spelling variants), else None."""
    counters = all_counters()
    if cid in counters:
        return cid
    return _ALIASES.get(cid)


def counter(cid: str) -> Counter:
    real = resolve(cid)
    if real is None:
        raise CounterError(f"no counter {cid!r} in resources/counters/")
    return all_counters()[real]
