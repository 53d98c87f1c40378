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
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, Callable, Iterable, Literal, TypeVar

import msgspec

from core.datafile import load_toml
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
    return load_toml(resource("charts", name), typ, ChartError, _path(name))


def _check_source(name: str, where: str, source: str, reason: str) -> None:
    if source not in SOURCES:
        raise ChartError(f"{_path(name)}: {where}.source must be 'rules' or 'reconstructed', not {source!r}")
    if source == "reconstructed" and not reason.strip():
        raise ChartError(f"{_path(name)}: {where}.reason: a reconstructed value needs a one-line reason")


class _Reader:
    """One chart file being validated: every error names the file, then the row or field and the rule."""

    def __init__(self, name: str) -> None:
        self.name = name

    def error(self, what: str) -> ChartError:
        return ChartError(f"{_path(self.name)}: {what}")

    def sourced(self, where: str, part: Any) -> None:
        """``part`` (a row, a table, or the whole file: ``where`` "") says where its values come from."""
        if isinstance(part, dict):
            _check_source(self.name, where, str(part.get("source", "")), str(part.get("reason", "")))
        else:
            _check_source(self.name, where, part.source, part.reason)

    def require(self, table: dict, keys: Iterable[str], what: str) -> None:
        """Every key present, else ``what`` (with ``{}`` for the key) is the error."""
        for k in keys:
            if k not in table:
                raise self.error(what.format(k))


@dataclass(frozen=True)
class _Rows:
    """A list of rows in a chart file, each with its own source: ``section[i]``, named in errors by ``named``
    (a format of the row, e.g. ``"{0.id}"``); ``unique``: their ids are unique across the file's unique
    sections; ``check(reader, i, row)``: the section's own rule, run after those."""

    section: str
    named: str = ""
    unique: bool = False
    check: Callable[[_Reader, int, Any], None] | None = None


def _chart(name: str, typ: type[T], *, sourced: tuple[str, ...] = (), rows: tuple[_Rows, ...] = (),
           check: Callable[[_Reader, T], None] | None = None) -> T:
    """Load ``resources/charts/<name>`` as ``typ`` and validate it, in this order: each of ``sourced`` (a
    field of the file, "" for the file itself) has a source; each row of ``rows`` has one (and a unique id,
    and passes its section's check); then the chart's own ``check``."""
    reader = _Reader(name)
    data = _load(name, typ)
    for part in sourced:
        reader.sourced(part, getattr(data, part) if part else data)
    ids: set[str] = set()
    for spec in rows:
        for i, row in enumerate(getattr(data, spec.section)):
            reader.sourced(f"{spec.section}[{i}]" + (f" ({spec.named.format(row)})" if spec.named else ""), row)
            if spec.unique:
                if row.id in ids:
                    raise reader.error(f"{spec.section}[{i}].id: {row.id!r} used twice")
                ids.add(row.id)
            if spec.check is not None:
                spec.check(reader, i, row)
    if check is not None:
        check(reader, data)
    return data


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
    return _crt_table(_Reader(name), _load(name, CrtFile))


def _crt_table(r: _Reader, f: CrtFile) -> Crt:
    n = f.columns
    if n < 1:
        raise r.error("columns must be at least 1")
    lines: dict[int, tuple[Ratio, ...]] = {}
    names: dict[int, str] = {}
    for i, ln in enumerate(f.lines):
        where = f"lines[{i}] (line {ln.line})"
        r.sourced(where, ln)
        if ln.line in lines:
            raise r.error(f"{where}: line {ln.line} defined twice")
        if len(ln.odds) != len(ln.columns) or not ln.odds:
            raise r.error(f"{where}: odds and columns must be non-empty and the same length")
        cells = []
        for j, (o, c) in enumerate(zip(ln.odds, ln.columns)):
            try:
                v, par = parse_ratio(o)
            except ValueError as exc:
                raise r.error(f"{where}.odds[{j}]: {exc}") from None
            if not 1 <= c <= n:
                raise r.error(f"{where}.columns[{j}]: column {c} is off the table (1..{n})")
            cells.append(Ratio(o, v, par, c))
        for a, b in zip(cells, cells[1:]):
            if not (b.value > a.value and b.column > a.column):
                raise r.error(f"{where}: odds and columns must both increase ({a.text} -> {b.text})")
        lines[ln.line] = tuple(cells)
        names[ln.line] = ln.name
    if sorted(lines) != list(range(1, len(lines) + 1)):
        raise r.error(f"lines must be numbered 1..N, got {sorted(lines)}")
    tl: dict[str, int] = {}
    for k, v in f.terrain_lines.items():
        if k in ("source", "reason"):
            continue
        if not isinstance(v, int) or v not in lines:
            raise r.error(f"terrain_lines.{k}: {v!r} is not a line number")
        tl[k] = v
    r.sourced("terrain_lines", f.terrain_lines)
    for code in f.codes:
        if code not in ("Q", "H", "X", "E", "m", "w", "r"):
            raise r.error(f"codes.{code}: unknown result letter")

    def check_row(where: str, row: list[str]) -> tuple[str, ...]:
        if len(row) != n:
            raise r.error(f"{where}: {len(row)} results for {n} columns")
        for j, c in enumerate(row):
            if not CODE_RE.match(c):
                raise r.error(f"{where}[{j}] (column {j + 1}): bad result code {c!r}")
        return tuple(row)

    dfd: dict[int, tuple[str, ...]] = {}
    for i, d in enumerate(f.defender):
        where = f"defender[{i}] (morale {d.morale})"
        r.sourced(where, d)
        dfd[d.morale] = check_row(f"{where}.results", d.results)
    if sorted(dfd) != list(range(1, f.max_morale_line + 1)):
        raise r.error(f"defender lines must be morale 1..{f.max_morale_line}, got {sorted(dfd)}")
    r.sourced("attacker", f.attacker)
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
            raise r.error(f"{where}: the table gives {got!r} but the rules say {want!r}")
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
    rows = tuple(_Rows(s, "{0.id}", unique=True) for s in ("strength", "rating", "shift", "line_shift", "morale"))
    return _chart("combat_modifiers.toml", CombatModifiers, rows=rows, check=_weather_shifts)


def _weather_shifts(r: _Reader, m: CombatModifiers) -> None:
    r.require(m.weather, ("winter", "ghibli"), "weather.{} missing (21.1.1, 21.2.1)")
    for k, w in m.weather.items():
        r.sourced(f"weather.{k}", w)
        if len(w.shifts) != 6:
            raise r.error(f"weather.{k}.shifts: six entries needed (one per 1d6 result)")


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
    return _chart("stacking.toml", StackingFile, sourced=("limits", "capacity"),
                  rows=(_Rows("category", "{0.id}", unique=True, check=_stacking_points),))


def _stacking_points(r: _Reader, i: int, row: StackRow) -> None:
    if row.stacking_points < 0:
        raise r.error(f"category[{i}].stacking_points must be 0 or more")


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


# ================================================= Air and Naval Loss Table (19.3)


class LossDrm(_S, kw_only=True):
    id: str
    value: int
    when: str
    rule: str
    source: str
    reason: str = ""


class LossBand(_S, kw_only=True):
    lo: int
    hi: int
    delay_gts: int
    result: str
    rule: str
    source: str
    reason: str = ""


class LossTable(_S, kw_only=True):
    drm: list[LossDrm]
    band: list[LossBand]


@cache
def loss_chart() -> LossTable:
    return _chart("air_naval_loss.toml", LossTable, rows=(_Rows("drm"), _Rows("band")), check=_one_band_each)


def _one_band_each(r: _Reader, t: LossTable) -> None:
    for n in range(0, 20):
        if sum(1 for b in t.band if (b.lo == -1 or n >= b.lo) and (b.hi == -1 or n <= b.hi)) != 1:
            raise r.error(f"band: modified roll {n} must fall in exactly one band")


def loss_table(roll_2d6: int, *, enemy_air_superiority: bool = False, city_or_port: bool = False) -> int:
    """19.3: GTs before the air or fleet unit is available again: 0 (<= 8: back to its box,
    based), 1 (9-10: next GT box on the TRT), 2 (>= 11).  DRMs +1 each, cumulative."""
    t = loss_chart()
    drms = {d.id: d.value for d in t.drm}
    n = roll_2d6 + (drms["enemy_air_superiority"] if enemy_air_superiority else 0) \
        + (drms["city_or_port"] if city_or_port else 0)
    for b in t.band:
        if (b.lo == -1 or n >= b.lo) and (b.hi == -1 or n <= b.hi):
            return b.delay_gts
    raise AssertionError("unreachable: bands validated")


def loss_return_gt(gt: int, roll_2d6: int, **drms: bool) -> int | None:
    """19.3 example: the TRT box (GT 10, 'available in two GTs' -> GT 12); None = not delayed."""
    d = loss_table(roll_2d6, **drms)
    return gt + d if d else None


# ========================================================= Refit Costs (17.2)


class RefitCost(_S, kw_only=True):
    id: str
    applies: str
    on_map: int
    per_step_from_refit_box: int
    destroyed_to_refit: int
    rule: str
    source: str
    reason: str = ""


class RefitLimits(_S, kw_only=True):
    one_unit_per_cw_nation_per_phase: bool
    cw_nations: list[str]
    cw_us_one_phase_from_destroyed: bool
    source: str
    reason: str = ""


class RefitFile(_S, kw_only=True):
    pools: dict[str, list[str] | str]
    limits: RefitLimits
    cost: list[RefitCost]


@cache
def refit_chart() -> RefitFile:
    return _chart("refit.toml", RefitFile, sourced=("pools", "limits"), rows=(_Rows("cost", "{0.id}"),))


def rp_pool_for(nationality: str) -> str:
    """17.2.1: the RP counter id that may refit units of ``nationality``."""
    for rp, nats in refit_chart().pools.items():
        if isinstance(nats, list) and nationality in nats:
            return rp
    raise KeyError(f"no RP pool refits nationality {nationality!r} ({_path('refit.toml')} [pools])")


def refit_cost(category: str, *, stage: Literal["on_map", "from_refit_box", "destroyed_to_refit"],
               steps: int = 1) -> int:
    """17.2: RP steps to refit a unit of ``category`` (non_divisional, armour, division, garrison,
    desert_raider, no_cadre); ``steps`` rebuilt when leaving the Refit Box."""
    for c in refit_chart().cost:
        if c.id == category:
            if stage == "on_map":
                return c.on_map
            if stage == "from_refit_box":
                return c.per_step_from_refit_box * steps
            return c.destroyed_to_refit
    raise KeyError(f"no refit category {category!r} in {_path('refit.toml')}")


# ========================================================== Upgrade Chart (17.3)


class Upgrade(_S, kw_only=True):
    from_: list[str] = msgspec.field(name="from")
    to: list[str]
    kind: Literal["substitution", "split", "addition"]
    rp: int
    available: str
    rule: str
    source: str
    reason: str = ""


class UpgradeFile(_S, kw_only=True):
    upgrade: list[Upgrade]


@cache
def upgrades() -> tuple[Upgrade, ...]:
    """8.4, 17.3: every row of the Upgrade Chart."""
    return tuple(_chart("upgrade.toml", UpgradeFile, rows=(_Rows("upgrade", check=_names_counters),)).upgrade)


def _names_counters(r: _Reader, i: int, row: Upgrade) -> None:
    if not row.from_ or not row.to:
        raise r.error(f"upgrade[{i}]: from and to must name counters")


def upgrades_from(counter_id: str) -> list[Upgrade]:
    """Upgrade Chart rows a counter can take part in."""
    return [u for u in upgrades() if counter_id in u.from_]


# ============================================= Vichy French Reaction Table (ALC-21)


class VichyFile(_S, kw_only=True):
    columns: list[str]
    source: str
    reason: str = ""
    results: dict[str, list[str]]
    meaning: dict[str, str]


@cache
def vichy_chart() -> VichyFile:
    return _chart("vichy_reaction.toml", VichyFile, sourced=("",), check=_vichy_results)


def _vichy_results(r: _Reader, v: VichyFile) -> None:
    for col in v.columns:
        row = v.results.get(col)
        if row is None or len(row) != 7:
            raise r.error(f"results.{col}: seven results needed (rolls 1..6 and 7 with the ALC-27 DRM)")
        for j, res in enumerate(row):
            if res not in v.meaning:
                raise r.error(f"results.{col}[{j}]: {res!r} is not defined under [meaning]")


def vichy_reaction(die: int, column: str, *, accord_drm: bool = False) -> str:
    """ALC-21(i): result for 1d6 (+1 with ALC-27(b)) in the column of the largest attacking force."""
    v = vichy_chart()
    n = max(1, min(7, die + (1 if accord_drm else 0)))
    return v.results[column][n - 1]


# ============================================= Air Interdiction Chart (19.6)


class InterdictionRow(_S, kw_only=True):
    distance: int
    mechanised: int
    trucked: int
    foot: int
    horsed: int


class InterdictionFile(_S, kw_only=True):
    source: str
    reason: str = ""
    row: list[InterdictionRow]
    notes: dict[str, str]


@cache
def interdiction_chart() -> InterdictionFile:
    return _chart("air_interdiction.toml", InterdictionFile, sourced=("",), check=_within_two)


def _within_two(r: _Reader, f: InterdictionFile) -> None:
    if sorted(row.distance for row in f.row) != [0, 1, 2]:
        raise r.error("row: distances 0, 1 and 2 needed (19.6: the hex and any hex within two)")


def interdiction_cost(distance: int, move_class: str) -> int:
    """19.6: extra MP to enter a hex ``distance`` (0-2) from the interdicted hex; 0 beyond.
    Motorised raiders and SF pay as trucked / foot."""
    if distance > 2:
        return 0
    row = next(r for r in interdiction_chart().row if r.distance == distance)
    cls = {"mechanized": "mechanised", "raider": "trucked", "desert_raider": "trucked", "motorized": "trucked",
           "sf": "foot", "airborne": "foot"}.get(move_class, move_class)
    return int(getattr(row, cls))


# ============================================= Airborne Drop Chart (15.5)


class DropDrm(_S, kw_only=True):
    id: str
    value: int
    when: str
    source: str
    reason: str = ""


class DropFile(_S, kw_only=True):
    terrain_allowed: list[str]
    terrain_source: str
    failure: str
    failure_source: str
    drm: list[DropDrm]


@cache
def drop_chart() -> DropFile:
    return _chart("airborne_drop.toml", DropFile, rows=(_Rows("drm", "{0.id}"),))


def airborne_drop_drm(*conditions: str) -> int:
    """15.5: total DRM for a drop's morale check (failure: disrupted)."""
    table = {d.id: d.value for d in drop_chart().drm}
    return sum(table[c] for c in conditions)


# ============================================= Fort Effects Chart (14.4, 18.1)


class FortLevel(_S, kw_only=True):
    level: int
    crt_lines_up: int
    no_overrun: bool
    ignore_withdraw: bool
    rout_minus: int
    blocks_zoc_into: bool
    supports_infantry_in_desert: bool
    needs_dump: bool
    permanent: bool
    source: str
    reason: str = ""


class FortFile(_S, kw_only=True):
    level: list[FortLevel]
    construction: dict[str, Any]


@cache
def fort_chart() -> FortFile:
    return _chart("fort_effects.toml", FortFile, rows=(_Rows("level"),), check=_four_levels)


def _four_levels(r: _Reader, f: FortFile) -> None:
    if sorted(lv.level for lv in f.level) != [0, 1, 2, 3]:
        raise r.error("level: fort levels 0-3 needed (18.1)")


def fort_effects(level: int) -> FortLevel:
    """18.1, 14.4: the benefits of a fort of ``level`` (F0-F3) to units inside it."""
    return next(lv for lv in fort_chart().level if lv.level == level)


# ============================================= Bombardment Effects (19.8, 8.2.1)


class BombFile(_S, kw_only=True):
    hit_min: int
    hit_max: int
    modifiers: bool
    source: str
    reason: str = ""
    effects: dict[str, dict[str, Any]]


@cache
def bombardment_chart() -> BombFile:
    return _chart("bombardment.toml", BombFile, sourced=("",), check=lambda r, b: r.require(
        b.effects, ("base", "msu", "dump", "airfield"), "effects.{} missing (8.2.1)"))


def bombardment_hits(dice: list[int]) -> int:
    """19.8: one die per bombardment factor; 4-6 disrupts the target (no modifiers)."""
    b = bombardment_chart()
    return sum(1 for d in dice if b.hit_min <= d <= b.hit_max)


def bombardment_effect(target: str) -> dict[str, Any]:
    """8.2.1: what a disrupted base / msu / dump / airfield loses."""
    return bombardment_chart().effects[target]


# ============================================= Supply Summary (12.0)


@cache
def supply_summary() -> dict[str, Any]:
    """The Supply Summary Chart (12.0-12.7) as a plain table."""
    return _chart("supply.toml", dict[str, Any], sourced=("",),
                  check=lambda r, d: r.require(d, ("los_mmp", "disrupted_los_mmp", "sources"), "[{}] missing"))


def los_range(source: str, *, disrupted: bool = False) -> int:
    """12.4.1 / 8.2.1: LOS length in MMP from a base, dump or MSU."""
    key = "disrupted_los_mmp" if disrupted else "los_mmp"
    return int(supply_summary()[key][source])


def all_charts() -> dict[str, object]:
    """Load (and so validate) every chart; for ``dfd validate``."""
    return {
        "crt.toml": crt(), "combat_modifiers.toml": combat_modifiers(), "stacking.toml": stacking_chart(),
        "air_naval_loss.toml": loss_chart(), "refit.toml": refit_chart(), "upgrade.toml": upgrades(),
        "vichy_reaction.toml": vichy_chart(), "air_interdiction.toml": interdiction_chart(),
        "airborne_drop.toml": drop_chart(), "fort_effects.toml": fort_chart(),
        "bombardment.toml": bombardment_chart(), "supply.toml": supply_summary(),
    }
