"""Player-aid charts as data (2.3; the PAC charts the rules refer to).

Each chart lives in ``resources/charts/<name>.toml`` (human-editable, every
value marked ``source = "rules"`` or ``"reconstructed"`` with a ``reason``; see
docs/data.d/charts-cards.md).  This module loads and validates them with
msgspec and offers pure lookup functions named after the rules:

* Combat Results Table (14.5-14.7): :func:`crt_column`, :func:`final_columns`,
  :func:`crt_result`, :func:`attacker_result`, :func:`decode_result`,
  :func:`steps_lost`, :func:`round_steps`, :func:`terrain_line`,
  :func:`retreat_hexes`.
* Combat Modifiers Chart (14.3, 14.4, 15.x, 21.x): :func:`combat_modifiers`,
  :func:`weather_shift`, :func:`morale_modifier`.
* Stacking Summary (10.1, 10.2): :func:`stacking`, :func:`stacking_limit`.
* Air and Naval Loss Table (19.3): :func:`loss_table`, :func:`loss_return_gt`.
* Refit Costs (17.2): :func:`refit_cost`, :func:`rp_pool_for`.
* Upgrade Chart (8.4, 17.3): :func:`upgrades`, :func:`upgrades_from`.
* Vichy French Reaction Table (ALC-21(i), ALC-27): :func:`vichy_reaction`.
* Air Interdiction Chart (19.6): :func:`interdiction_cost`.
* Airborne Drop Chart (15.5): :func:`airborne_drop_drm`.
* Fort Effects Chart (14.4, 18.1): :func:`fort_effects`.
* Bombardment Effects (19.8, 8.2.1): :func:`bombardment_hits`, :func:`bombardment_effect`.
* Supply Summary (12.0): :func:`supply_summary`, :func:`los_range`.

Every error names the file and the field (``ChartError``).
"""

from __future__ import annotations

import re
import tomllib
from fractions import Fraction
from functools import cache
from typing import Any, Literal, TypeVar

import msgspec

from core.resources import resource

T = TypeVar("T")

SOURCES = ("rules", "reconstructed")


class ChartError(ValueError):
    """A chart file that cannot be used; the message names the file and the field."""


class _S(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    pass


def _path(name: str) -> str:
    return f"resources/charts/{name}"


def _load(name: str, typ: type[T]) -> T:
    path = resource("charts", name)
    try:
        with path.open("rb") as fh:
            raw = tomllib.load(fh)
    except FileNotFoundError:
        raise ChartError(f"{_path(name)}: file missing") from None
    except tomllib.TOMLDecodeError as exc:
        raise ChartError(f"{_path(name)}: not valid TOML: {exc}") from exc
    try:
        return msgspec.convert(raw, type=typ)
    except msgspec.ValidationError as exc:
        raise ChartError(f"{_path(name)}: {exc}") from exc


def _check_source(name: str, where: str, source: str, reason: str) -> None:
    if source not in SOURCES:
        raise ChartError(f"{_path(name)}: {where}.source must be 'rules' or 'reconstructed', not {source!r}")
    if source == "reconstructed" and not reason.strip():
        raise ChartError(f"{_path(name)}: {where}.reason: a reconstructed value needs a one-line reason")


# =========================================================================== CRT

RATIO_RE = re.compile(r"^(\()?(\d+):(\d+)(\))?$")
CODE_RE = re.compile(r"^(-|E|[QHX][mwr]?|[mwr])$")


class CrtLine(_S, kw_only=True):
    line: int
    name: str
    odds: list[str]
    columns: list[int]
    source: str
    reason: str = ""


class CrtDefender(_S, kw_only=True):
    morale: int
    results: list[str]
    source: str
    reason: str = ""


class CrtAttacker(_S, kw_only=True):
    supplied: list[str]
    unsupplied: list[str]
    source: str
    reason: str = ""


class CrtCode(_S, kw_only=True):
    meaning: str
    rule: str


class CrtFact(_S, kw_only=True):
    kind: Literal["ratio", "defender", "attacker"]
    cite: str
    line: int = 0
    attack: float = 0
    defence: float = 0
    overrun: bool = False
    mobile: bool = False
    column: int = 0
    morale: int = 0
    supplied: bool = True
    result: str = ""


class CrtFile(_S, kw_only=True):
    columns: int
    max_morale_line: int
    lines: list[CrtLine]
    terrain_lines: dict[str, int | str]
    defender: list[CrtDefender]
    attacker: CrtAttacker
    codes: dict[str, CrtCode]
    facts: list[CrtFact]


class Ratio(msgspec.Struct, frozen=True):
    """One printed odds cell: attack:defence, parenthesised (overrun / mobile battle only, 14.5)."""

    text: str
    value: Fraction
    parenthesised: bool
    column: int


class Crt(msgspec.Struct, frozen=True):
    columns: int
    max_morale_line: int
    lines: dict[int, tuple[Ratio, ...]]
    line_names: dict[int, str]
    terrain_lines: dict[str, int]
    defender: dict[int, tuple[str, ...]]
    supplied: tuple[str, ...]
    unsupplied: tuple[str, ...]
    codes: dict[str, CrtCode]
    facts: tuple[CrtFact, ...]


def parse_ratio(text: str) -> tuple[Fraction, bool]:
    """``"3:2"`` -> (3/2, False); ``"(10:1)"`` -> (10, True)."""
    m = RATIO_RE.match(text.strip())
    if not m or bool(m.group(1)) != bool(m.group(4)) or int(m.group(3)) == 0:
        raise ValueError(f"bad odds {text!r} (write e.g. \"3:2\" or \"(10:1)\")")
    return Fraction(int(m.group(2)), int(m.group(3))), bool(m.group(1))


@cache
def crt() -> Crt:
    """Load and validate ``crt.toml``; every [[facts]] cell must hold (14.5)."""
    name = "crt.toml"
    f = _load(name, CrtFile)
    n = f.columns
    if n < 1:
        raise ChartError(f"{_path(name)}: columns must be at least 1")
    lines: dict[int, tuple[Ratio, ...]] = {}
    names: dict[int, str] = {}
    for i, ln in enumerate(f.lines):
        where = f"lines[{i}] (line {ln.line})"
        _check_source(name, where, ln.source, ln.reason)
        if ln.line in lines:
            raise ChartError(f"{_path(name)}: {where}: line {ln.line} defined twice")
        if len(ln.odds) != len(ln.columns) or not ln.odds:
            raise ChartError(f"{_path(name)}: {where}: odds and columns must be non-empty and the same length")
        cells = []
        for j, (o, c) in enumerate(zip(ln.odds, ln.columns)):
            try:
                v, par = parse_ratio(o)
            except ValueError as exc:
                raise ChartError(f"{_path(name)}: {where}.odds[{j}]: {exc}") from None
            if not 1 <= c <= n:
                raise ChartError(f"{_path(name)}: {where}.columns[{j}]: column {c} is off the table (1..{n})")
            cells.append(Ratio(o, v, par, c))
        for a, b in zip(cells, cells[1:]):
            if not (b.value > a.value and b.column > a.column):
                raise ChartError(f"{_path(name)}: {where}: odds and columns must both increase ({a.text} -> {b.text})")
        lines[ln.line] = tuple(cells)
        names[ln.line] = ln.name
    if sorted(lines) != list(range(1, len(lines) + 1)):
        raise ChartError(f"{_path(name)}: lines must be numbered 1..N, got {sorted(lines)}")
    tl: dict[str, int] = {}
    for k, v in f.terrain_lines.items():
        if k in ("source", "reason"):
            continue
        if not isinstance(v, int) or v not in lines:
            raise ChartError(f"{_path(name)}: terrain_lines.{k}: {v!r} is not a line number")
        tl[k] = v
    _check_source(name, "terrain_lines", str(f.terrain_lines.get("source", "")), str(f.terrain_lines.get("reason", "")))
    for code in f.codes:
        if code not in ("Q", "H", "X", "E", "m", "w", "r"):
            raise ChartError(f"{_path(name)}: codes.{code}: unknown result letter")

    def check_row(where: str, row: list[str]) -> tuple[str, ...]:
        if len(row) != n:
            raise ChartError(f"{_path(name)}: {where}: {len(row)} results for {n} columns")
        for j, c in enumerate(row):
            if not CODE_RE.match(c):
                raise ChartError(f"{_path(name)}: {where}[{j}] (column {j + 1}): bad result code {c!r}")
        return tuple(row)

    dfd: dict[int, tuple[str, ...]] = {}
    for i, d in enumerate(f.defender):
        where = f"defender[{i}] (morale {d.morale})"
        _check_source(name, where, d.source, d.reason)
        dfd[d.morale] = check_row(f"{where}.results", d.results)
    if sorted(dfd) != list(range(1, f.max_morale_line + 1)):
        raise ChartError(f"{_path(name)}: defender lines must be morale 1..{f.max_morale_line}, got {sorted(dfd)}")
    _check_source(name, "attacker", f.attacker.source, f.attacker.reason)
    sup = check_row("attacker.supplied", f.attacker.supplied)
    uns = check_row("attacker.unsupplied", f.attacker.unsupplied)
    table = Crt(n, f.max_morale_line, lines, names, tl, dfd, sup, uns, f.codes, tuple(f.facts))
    for i, fact in enumerate(f.facts):
        where = f"facts[{i}] ({fact.cite})"
        if fact.kind == "ratio":
            got: int | str = _column(table, fact.attack, fact.defence, fact.line, fact.overrun, fact.mobile)
            want: int | str = fact.column
        elif fact.kind == "defender":
            got, want = _defender(table, fact.column, fact.morale), fact.result
        else:
            got, want = _attacker(table, fact.column, fact.supplied), fact.result
        if got != want:
            raise ChartError(f"{_path(name)}: {where}: the table gives {got!r} but the rules say {want!r}")
    return table


def _column(t: Crt, att: float | Fraction, dfn: float | Fraction, line: int, overrun: bool, mobile: bool) -> int:
    if line not in t.lines:
        raise ValueError(f"CRT has no terrain line {line} (lines 1..{len(t.lines)})")
    if dfn <= 0:
        raise ValueError("defence strength must be positive (14.3: a defence below 1 counts as 1)")
    ratio = Fraction(att) / Fraction(dfn)
    usable = [r for r in t.lines[line] if overrun or mobile or not r.parenthesised]
    below = [r for r in usable if r.value <= ratio]
    return (below[-1] if below else usable[0]).column


def _defender(t: Crt, column: int, morale: int) -> str:
    line = max(1, min(t.max_morale_line, morale))
    return t.defender[line][clamp_column(column, t) - 1]


def _attacker(t: Crt, column: int, supplied: bool) -> str:
    return (t.supplied if supplied else t.unsupplied)[clamp_column(column, t) - 1]


def clamp_column(column: int, t: Crt | None = None) -> int:
    """14.5(3): "The final column may not be shifted off the table in either direction." """
    t = t or crt()
    return max(1, min(t.columns, column))


def crt_odds(ratio_att: float | Fraction, ratio_def: float | Fraction, line: int, *,
             overrun: bool = False, mobile: bool = False) -> Ratio:
    """14.5(1): the printed odds used: the ratio rounded down to the nearest on the line, the
    lowest if below it, the highest if above; parenthesised odds only for overruns (13.4) and
    mobile battles (14.9.2)."""
    t = crt()
    col = _column(t, ratio_att, ratio_def, line, overrun, mobile)
    return next(r for r in t.lines[line] if r.column == col)


def crt_column(ratio_att: float | Fraction, ratio_def: float | Fraction, line: int, *,
               overrun: bool = False, mobile: bool = False) -> int:
    """14.5(1)-(2): the column printed under the odds (before the 1d6 is added).

    ``crt_column(4, 1, 2) == 6`` (14.5 example); ``crt_column(7, 1, 1) == 10`` (EoP)."""
    return _column(crt(), ratio_att, ratio_def, line, overrun, mobile)


def final_columns(base: int, die: int, *, general: int = 0, attacker_support: int = 0,
                  defender_support: int = 0) -> tuple[int, int]:
    """14.5(2)-(5): (column for defender results, column for attacker results).

    ``general`` moves both (surprise 6.2, US inexperience ALC-25, winter/Ghibli 21.x);
    attacker support shifts (artillery 15.1, air 19.5, fleet 20.4.2) move only the defender's
    column rightward, defender support shifts only the attacker's column leftward (14.5(3):
    "moving the final column for opposing units only").  Both are kept on the table.
    EoP mobile battle: ``final_columns(10, 5, general=2, attacker_support=1) == (18, 17)``."""
    t = crt()
    c = base + die + general
    return clamp_column(c + attacker_support, t), clamp_column(c - defender_support, t)


def crt_result(column: int, morale_group: int) -> str:
    """14.5(4): result for a defending morale group: the line of its morale rating.

    Groups are formed on printed morale (14.5 Important) but the line read is the group's
    morale after modifiers (EoP: 3 Lt Arm, printed 2, unsupplied, reads line 3); morale
    above the last line reads the last line, below 1 reads line 1 (ruling)."""
    return _defender(crt(), column, morale_group)


def attacker_result(column: int, supplied: bool) -> str:
    """14.5(5), 12.6(3): Supplied line for attackers with combat supply, Unsupplied otherwise."""
    return _attacker(crt(), column, supplied)


class CombatResult(msgspec.Struct, frozen=True):
    """A decoded CRT code: ``loss`` in {None, 'Q', 'H', 'X', 'E'}, ``retreat`` in {None, 'm', 'w', 'r'}."""

    code: str
    loss: str | None
    retreat: str | None

    @property
    def eliminated(self) -> bool:
        return self.loss == "E"

    @property
    def no_result(self) -> bool:
        return self.loss is None and self.retreat is None


def decode_result(code: str) -> CombatResult:
    """Split a CRT code such as ``"Qw"`` into its loss and retreat parts (14.5-14.7)."""
    if not CODE_RE.match(code):
        raise ValueError(f"not a CRT result code: {code!r}")
    if code == "-":
        return CombatResult(code, None, None)
    loss = code[0] if code[0] in "QHXE" else None
    retreat = code[-1] if code[-1] in "mwr" else None
    return CombatResult(code, loss, retreat)


def steps_lost(code: str, steps: int, *, enemy_losses: int = 0) -> Fraction:
    """14.6: fractional steps a group loses (round only after totalling, :func:`round_steps`).

    ``steps`` counts divisional steps as two (8.3, 15.10).  Q = steps/4, H = steps/2,
    E = all, X = half the opposing side's losses (14.5 example: 4 -> 2)."""
    r = decode_result(code)
    if r.loss == "Q":
        return Fraction(steps, 4)
    if r.loss == "H":
        return Fraction(steps, 2)
    if r.loss == "E":
        return Fraction(steps)
    if r.loss == "X":
        return Fraction(enemy_losses, 2)
    return Fraction(0)


def round_steps(total: Fraction | float) -> int:
    """14.6: "round fractions of one-half or greater up and fractions less than one-half down"."""
    f = Fraction(total)
    whole = f.numerator // f.denominator
    return whole + (1 if f - whole >= Fraction(1, 2) else 0)


def retreat_hexes(code: str, *, obstructed: bool = False) -> tuple[int, int]:
    """14.7.1: (minimum, maximum) retreat for a result: w 1-3, r 4-6; in a city, fort or mountain
    hex w is ignored and r loses three hexes (1-3).  ``m`` allows an optional 1-3 withdrawal
    (ruling), returned as (0, 3)."""
    r = decode_result(code).retreat
    if r == "w":
        return (0, 0) if obstructed else (1, 3)
    if r == "r":
        return (1, 3) if obstructed else (4, 6)
    if r == "m":
        return (0, 0) if obstructed else (0, 3)
    return (0, 0)


def terrain_line(terrain: str, *, fort_level: int = 0, reductions: int = 0) -> int:
    """14.4: the CRT line for a defender's hex terrain, up one per fort level (line 5 at most),
    down one per reduction (heavy artillery 15.1, engineer 15.7, special forces 15.4), never
    below line 1."""
    t = crt()
    try:
        base = t.terrain_lines[terrain]
    except KeyError:
        raise ValueError(f"no CRT line for terrain {terrain!r} in {_path('crt.toml')} [terrain_lines]") from None
    top = max(t.lines)
    return max(1, min(top, base + fort_level) - reductions)


# =========================================================== Combat Modifiers


class StrengthMod(_S, kw_only=True):
    id: str
    factor: float
    side: Literal["attacker", "defender", "both"]
    applies_to: str
    when: str
    rule: str
    source: str
    reason: str = ""


class RatingMod(_S, kw_only=True):
    id: str
    rating: str
    effect: str
    when: str
    rule: str
    source: str
    reason: str = ""


class ShiftMod(_S, kw_only=True):
    id: str
    columns: int | str
    kind: Literal["general", "attacker_support", "defender_support", "support"]
    when: str
    rule: str
    source: str
    reason: str = ""
    note: str = ""


class LineShift(_S, kw_only=True):
    id: str
    lines: int | str
    when: str
    rule: str
    source: str
    reason: str = ""


class MoraleMod(_S, kw_only=True):
    id: str
    add: int
    rule: str
    source: str
    reason: str = ""
    note: str = ""


class WeatherShifts(_S, kw_only=True):
    shifts: list[int]
    source: str
    reason: str = ""


class CombatModifiers(_S, kw_only=True):
    strength: list[StrengthMod]
    rating: list[RatingMod]
    shift: list[ShiftMod]
    line_shift: list[LineShift]
    morale: list[MoraleMod]
    weather: dict[str, WeatherShifts]


@cache
def combat_modifiers() -> CombatModifiers:
    """Combat Modifiers Chart (14.3, 14.4, 14.9, 15.x, 21.1.1, 21.2.1)."""
    name = "combat_modifiers.toml"
    m = _load(name, CombatModifiers)
    seen: set[str] = set()
    for sect in ("strength", "rating", "shift", "line_shift", "morale"):
        for i, e in enumerate(getattr(m, sect)):
            _check_source(name, f"{sect}[{i}] ({e.id})", e.source, e.reason)
            if e.id in seen:
                raise ChartError(f"{_path(name)}: {sect}[{i}].id: {e.id!r} used twice")
            seen.add(e.id)
    for k in ("winter", "ghibli"):
        if k not in m.weather:
            raise ChartError(f"{_path(name)}: weather.{k} missing (21.1.1, 21.2.1)")
    for k, w in m.weather.items():
        _check_source(name, f"weather.{k}", w.source, w.reason)
        if len(w.shifts) != 6:
            raise ChartError(f"{_path(name)}: weather.{k}.shifts: six entries needed (one per 1d6 result)")
    return m


def modifier(mod_id: str) -> StrengthMod | RatingMod | ShiftMod | LineShift | MoraleMod:
    """Any Combat Modifiers Chart entry by id (e.g. ``"surprise"``, ``"mobile_battle_mech"``)."""
    m = combat_modifiers()
    for sect in (m.strength, m.rating, m.shift, m.line_shift, m.morale):
        for e in sect:
            if e.id == mod_id:
                return e
    raise KeyError(f"no combat modifier {mod_id!r} in {_path('combat_modifiers.toml')}")


def weather_shift(kind: Literal["winter", "ghibli"], die: int) -> int:
    """21.1.1 / 21.2.1: random column shift (general, both sides) for a 1d6 result."""
    if not 1 <= die <= 6:
        raise ValueError("die must be 1..6")
    return combat_modifiers().weather[kind].shifts[die - 1]


def morale_modifier(*ids: str) -> int:
    """Sum of the morale modifiers named (e.g. ``"no_combat_supply"``, 12.6); higher is worse (8.1)."""
    table = {e.id: e.add for e in combat_modifiers().morale}
    return sum(table[i] for i in ids)


# ============================================================ Stacking Summary


class StackLimits(_S, kw_only=True):
    city: int
    other: int
    off_map: int
    met_track: int
    source: str
    reason: str = ""


class Capacity(_S, kw_only=True):
    shipping_box_steps: int
    shipping_box_rp: int
    shipping_box_supply: int
    atp_landing_steps: int
    atp_landing_rp: int
    atp_landing_dumps: int
    atp_drop_units: int
    msu_foot_units: int
    msu_rp: int
    msu_dumps: int
    rail_combat_units: int
    rail_rp: int
    rail_msu: int
    rail_dumps: int
    source: str
    reason: str = ""


class StackRow(_S, kw_only=True):
    id: str
    stacking_points: int
    shipping_boxes_per_step: float
    atp_per_step: float
    atp_drop: int
    msu: int
    note: str
    rule: str
    source: str
    reason: str = ""


class StackingFile(_S, kw_only=True):
    limits: StackLimits
    capacity: Capacity
    category: list[StackRow]


@cache
def stacking_chart() -> StackingFile:
    name = "stacking.toml"
    s = _load(name, StackingFile)
    _check_source(name, "limits", s.limits.source, s.limits.reason)
    _check_source(name, "capacity", s.capacity.source, s.capacity.reason)
    ids: set[str] = set()
    for i, r in enumerate(s.category):
        _check_source(name, f"category[{i}] ({r.id})", r.source, r.reason)
        if r.id in ids:
            raise ChartError(f"{_path(name)}: category[{i}].id: {r.id!r} used twice")
        ids.add(r.id)
        if r.stacking_points < 0:
            raise ChartError(f"{_path(name)}: category[{i}].stacking_points must be 0 or more")
    return s


def stacking(category: str) -> StackRow:
    """10.1: stacking points, shipping boxes, ATP and MSU needed for a unit category."""
    for r in stacking_chart().category:
        if r.id == category:
            return r
    raise KeyError(f"no stacking category {category!r} in {_path('stacking.toml')}")


def stacking_limit(*, city: bool) -> int:
    """10.2: nine stacking points in a city hex, six in all other hexes."""
    lim = stacking_chart().limits
    return lim.city if city else lim.other


def shipping_boxes(category: str, steps: int) -> float:
    """20.1, 15.10: shipping boxes a unit of ``steps`` steps uses (-1 if it cannot be shipped)."""
    r = stacking(category)
    return -1 if r.shipping_boxes_per_step < 0 else r.shipping_boxes_per_step * steps
