"""Scenarios as data (3.0, 24.0-33.0).

A scenario file (``scenarios/*.toml``) gives the starting GT and phase, the
initiative, the end scenario marker's box, the maps in play and the set-up.
Set-up lines either fix a unit's place (a hex or a box) or give the owning
player a placement decision ("within N hexes of", 3.1), which the engine asks
for at game start.  ``docs/data.md`` documents the format.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any, Iterable

import msgspec

from core.datafile import load_toml
from core.resources import SCENARIOS


class ScenarioError(ValueError):
    """A scenario file that cannot be used; the message names the file and field."""


class Placement(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One set-up line (3.1).

    Exactly one of ``at`` (a hex, ``box:...`` or ``track:...``) or ``within``
    (with ``of``: "within N hexes of", the owner decides) must be given.
    ``depleted`` sets the unit up on its reduced side (8.3).
    """

    unit: str
    at: str | None = None
    of: str | None = None
    within: int | None = None
    depleted: bool = False
    active: bool = False            # bases: set up active side up (12.2.3)
    primary: bool = False           # the Axis primary base (12.2.4)
    count: int = 1                  # for generic counters (MSU, dumps, RP markers, forts)
    level: int | None = None        # fort markers: Level 0-3 (18.1)
    owner: str | None = None        # generic markers usable by both sides (forts): Axis | Allied
    card: str = ""                  # the event card the line comes from (e.g. AXC-2), if any
    changes_card: str = ""          # the rule that changes the card's set-up for this unit (24.1 a ...)
    from_card: bool = False         # expanded from ``card_setups`` (not written in the scenario file)
    rule: str = ""
    note: str = ""
    source: str = ""                # rules | reconstructed (with ``reason``): required in scenarios/ (docs/data.md)
    reason: str = ""


class CardSetup(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """"Units are set up as directed by AXC-1" (28.1): the set-up lines of a card, read from resources/cards (one
    fact, one place).  ``skip_where``: card placements whose location starts with one of these are not used;
    ``skip_units``: units not used (the scenario's own lines say where they go instead)."""

    card: str
    rule: str = ""
    arrivals_gt: int | None = None  # place the card's arrivals of GT <= this instead (29.2 "GT 30 units")
    skip_where: list[str] = []
    skip_units: list[str] = []
    note: str = ""


class ControlRule(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Hex control at start (2.2.2: "Hex Control: Is determined by scenario instructions")."""

    side: str                       # Axis | Allied | VF
    area: str                       # all | Libya | Egypt | FNA | map:C ...
    except_setup_of: str | None = None   # "all hexes except those occupied by <side> units at set-up"
    rule: str = ""


class MapMod(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A change to the printed map at start (e.g. a finished road, 18.3)."""

    kind: str                       # road_finished | railhead
    hexes: list[str] = []
    marker_at: str | None = None
    rule: str = ""


#: The optional rules a player chooses at new game: key -> (rule section, what a new-game dialog calls it).
#: A chosen rule is kept in the game's initial state (``vars["optional"]``), so replay and LAN clients see it.
OPTIONAL_RULES: dict[str, tuple[str, str]] = {
    "desert_raiders": ("16.0", "Desert raiders and the Oasis Track (16.0, optional)"),
}


def oasis_box_unused(loc: str, optional: Iterable[str]) -> bool:
    """16.0: "The use of desert raiders and the oasis boxes is optional in all scenarios": without the optional rule
    a place on the Oasis Track (``box:Oasis:<name>``, "any oasis box") is not in the game, so a unit set up or
    arriving there is not used (R-OASIS-OFF; 25.1 c) "Ignore the Gadamis Oasis Box set up", 27.1 "I/Sahara
    (optional)")."""
    return loc.lower().startswith("box:oasis:") and "desert_raiders" not in set(optional)


class RuleUse(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A rule section switched off (or optional) in this scenario."""

    rule: str                       # e.g. "20.2"
    use: str = "no"                 # no | optional | yes
    except_: list[str] = msgspec.field(default_factory=list, name="except")
    text: str = ""


class CardUse(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """An event card's status at start (5.0, 23.0) with the scenario's exceptions as data."""

    card: str                       # ALC-1..ALC-28, AXC-1..AXC-20
    status: str                     # setup | active | in_effect | available | not_used | played
    from_gt: int | None = None      # available/active only from this GT
    reinforcements: str = "all"     # all | none | only
    gts: list[int] = []             # with reinforcements = "only": the card GTs used
    support: bool | None = None     # the card's each-GT support: None = paid unless reinforcements are restricted
    arrival_delay: int = 0          # card reinforcements arrive this many GTs late (27.2 ALC-6)
    end_changes: bool = True        # False: ignore the card's ES +/- shifts (24.0 d)
    note: str = ""
    rule: str = ""


class ArrivalRoll(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Per-unit arrival roll: 1d6 in ``on`` arrives on the GT, otherwise on ``else_gt`` (26.2)."""

    on: list[int]
    else_gt: int


class Reinforcement(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Units that become available (7.0): on ``gt``, or each GT from ``from_gt`` to ``to_gt``."""

    side: str
    units: list[str] = []
    count: int = 1                  # generic counters: how many of each
    gt: int | None = None
    from_gt: int | None = None      # "Each GT": every GT from..to (to_gt None = the end)
    to_gt: int | None = None
    phase: int | None = None        # arrives in this phase (30.1 "GT-31 Phase 12"), a friendly Movement Phase
    movement_phase: bool = False    # arrives in a friendly Movement Phase, not III.1 (30.2 "any two ... in each")
    free_shipping: bool = False     # 27.1 GT 11 "They do not count against the total shipping steps"
    at: str = ""                    # hex or box of arrival
    depleted: bool = False
    optional: bool = False
    roll: ArrivalRoll | None = None
    morale_check: bool = False      # 26.2 GT13: fails -> depleted and a GT late
    card: str = ""                  # "as on card X" (the card's own list, GT in ``card_gt``)
    card_gt: int | None = None
    steps: int | None = None        # 30.1 groups: only this many steps arrive, the rest to the Refit Box
    group: str = ""
    condition: str = ""
    rule: str = ""
    note: str = ""
    source: str = ""                # rules | reconstructed (with ``reason``), as on a set-up line
    reason: str = ""


class Withdrawal(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Units that must leave the map by the end of ``gt`` (7.4)."""

    side: str
    gt: int
    units: list[str]
    rule: str = ""
    note: str = ""
    source: str = ""                # rules | reconstructed (with ``reason``), as on a set-up line
    reason: str = ""


class SpecialRule(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A scenario special rule: ``kind`` + ``params`` for the program, ``text`` for people."""

    kind: str
    text: str
    rule: str
    params: dict[str, Any] = {}


class Victory(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One victory condition (see docs/data.d/counters-scenarios.md for the vocabulary).

    Conditions with the same ``side`` and ``level`` are alternatives (any one wins);
    ``all_of`` groups conditions that must all hold.
    """

    side: str                       # Axis | Allied | none (draw)
    kind: str
    level: str = "win"              # win | smashing | marginal | draw
    when: str = "end"               # end | instant (Victory Check Phase, 4.1 XIX)
    hexes: list[str] = []
    loc_to: str | None = None
    overland: bool = False
    supply: str = "any"             # any | general
    card: str | None = None
    still_met_at_end: bool = False  # card_in_effect: the card's conditions must hold at the end (26.3 b)
    min_port_capacity: int = 0
    not_in_enemy_zoc: bool = False
    maps: list[str] = []
    threshold: int | None = None
    from_hex: str | None = None
    to_hex: str | None = None
    all_of: list["Victory"] = []
    text: str = ""
    rule: str = ""


KINDS_VICTORY = ("control", "card_in_effect", "base_in_port", "base_with_loc", "no_base_with_loc",
                 "port_capacity", "road_control", "more_ports", "withdrawal_failed", "otherwise", "all")
CARD_STATUS = ("setup", "active", "in_effect", "available", "not_used", "played")


class Scenario(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    id: str
    number: int
    section: str
    title: str
    start_gt: int
    start_phase: int
    end_gt: int
    initiative: str
    first_player: str | None = None
    surprise: bool = False
    maps: list[str] = []
    description: str = ""
    control: list[ControlRule] = []
    map_mods: list[MapMod] = []
    rules_changed: list[RuleUse] = []
    cards: list[CardUse] = []
    card_setups: list[CardSetup] = []
    setup: list[Placement] = []
    reinforcements: list[Reinforcement] = []
    withdrawals: list[Withdrawal] = []
    special: list[SpecialRule] = []
    victory: list[Victory] = []
    includes: list[str] = []        # sections whose instructions apply too (e.g. 27.0 uses 26.0)
    path: str = ""

    def optional_rules(self) -> list[str]:
        """The optional rules a player may switch on at new game in this scenario (``OPTIONAL_RULES``): 16.0
        "The use of desert raiders and the oasis boxes is optional in all scenarios", except where the scenario
        says they are not used (24.0 b, 25.0 b, 26.0 b: ``rules_changed`` with ``use = "no"``)."""
        off = {r.rule for r in self.rules_changed if r.use == "no"}
        return [k for k, (rule, _text) in OPTIONAL_RULES.items() if rule not in off]

    @property
    def gt_range(self) -> str:
        return f"GT {self.start_gt}-{self.end_gt}"


_CARD_RE = re.compile(r"^(ALC-([1-9]|1[0-9]|2[0-8])|AXC-([1-9]|1[0-9]|20))$")


def _check(sc: Scenario, path: Path) -> None:
    """Cross-field checks; errors name the file and the field."""
    def err(field: str, msg: str) -> ScenarioError:
        return ScenarioError(f"{path}: {field}: {msg}")

    if sc.initiative not in ("Axis", "Allied"):
        raise err("initiative", f"must be Axis or Allied, not {sc.initiative!r}")
    if sc.first_player not in (None, "Axis", "Allied"):
        raise err("first_player", "must be Axis or Allied")
    if not 1 <= sc.start_phase <= 20:
        raise err("start_phase", "must be 1-20 (4.1)")
    if sc.end_gt < sc.start_gt:
        raise err("end_gt", f"({sc.end_gt}) is before `start_gt` ({sc.start_gt})")
    for m in sc.maps:
        if m not in "ATLSCWD" or len(m) != 1:
            raise err("maps", f"{m!r} is not a map letter (2.2: A T L S C W D)")
    for i, p in enumerate(sc.setup):
        f = f"setup[{i}] (unit {p.unit!r})"
        if (p.at is None) == (p.within is None):
            raise err(f, "give exactly one of `at` (a hex or box) or `within` + `of` (3.1)")
        if p.within is not None and not p.of:
            raise err(f, "`within` needs `of` (the centre hex)")
        if p.count < 1:
            raise err(f, "`count` must be at least 1")
        if p.owner not in (None, "Axis", "Allied"):
            raise err(f, "`owner` must be Axis or Allied")
        if p.card and not _CARD_RE.match(p.card):
            raise err(f, f"`card` {p.card!r} is not ALC-1..ALC-28 or AXC-1..AXC-20")
    for i, sp in enumerate(sc.special):
        if sp.kind == "allied_entry_supplied":       # 30.2 "Units enter at any hex on the east edge of Map S"
            letter, _, where = str(sp.params.get("edge", "")).partition(":")
            if where != "east" or letter not in sc.maps:
                raise err(f"special[{i}] ({sp.kind}).params.edge", f"must be '<map letter of the scenario>:east' "
                          f"(30.2 'the east edge of Map S'; maps {''.join(sc.maps)}), not {sp.params.get('edge')!r}")
    for i, c in enumerate(sc.cards):
        if not _CARD_RE.match(c.card):
            raise err(f"cards[{i}]", f"{c.card!r} is not ALC-1..ALC-28 or AXC-1..AXC-20 (5.0)")
        if c.status not in CARD_STATUS:
            raise err(f"cards[{i}] ({c.card})", f"status {c.status!r} is not one of {', '.join(CARD_STATUS)}")
        if c.reinforcements not in ("all", "none", "only"):
            raise err(f"cards[{i}] ({c.card})", "reinforcements must be all, none or only")
    for i, r in enumerate(sc.reinforcements):
        f = f"reinforcements[{i}]"
        if r.side not in ("Axis", "Allied"):
            raise err(f, f"side {r.side!r} must be Axis or Allied")
        if r.gt is None and r.from_gt is None:
            raise err(f, "give `gt` or `from_gt`")
        if not r.units and not r.card:
            raise err(f, "give `units` or `card`")
        if r.card and not _CARD_RE.match(r.card):
            raise err(f, f"card {r.card!r} is not ALC-1..ALC-28 or AXC-1..AXC-20")
    for i, v in enumerate(sc.victory):
        _check_victory(v, f"victory[{i}]", err)
    _check_sources(sc, path, err)


SOURCES = ("rules", "reconstructed")


def _check_sources(sc: Scenario, path: Path, err) -> None:
    """Provenance per line (docs/data.md): every set-up, reinforcement and withdrawal line says whether the rules
    state it (``source = "rules"``, its ``rule`` the section) or it is ``"reconstructed"`` with a one-line
    ``reason`` (a ruling id and why).  Required in the shipped scenarios (``scenarios/``); a scenario file kept
    elsewhere (a test fixture, a user's own) may leave it out, and its unflagged lines count as reconstructed."""
    required = path.resolve().parent == Path(SCENARIOS).resolve()
    lines = ([(f"setup[{i}] (unit {p.unit!r})", p) for i, p in enumerate(sc.setup)]
             + [(f"reinforcements[{i}]", r) for i, r in enumerate(sc.reinforcements)]
             + [(f"withdrawals[{i}]", w) for i, w in enumerate(sc.withdrawals)])
    for f, line in lines:
        if not line.source:
            if required:
                raise err(f, 'give `source = "rules"` (the rules state it) or `source = "reconstructed"` with a '
                             '`reason` (docs/data.md)')
            continue
        if line.source not in SOURCES:
            raise err(f, f"`source` must be rules or reconstructed, not {line.source!r}")
        if line.source == "reconstructed" and not line.reason.strip():
            raise err(f, "a reconstructed line needs a one-line `reason`")
        if line.source == "rules" and not line.rule.strip():
            raise err(f, "a line the rules state names its section in `rule`")


def _check_victory(v: Victory, field: str, err) -> None:
    if v.kind not in KINDS_VICTORY:
        raise err(field, f"kind {v.kind!r} is not one of {', '.join(KINDS_VICTORY)}")
    if v.side not in ("Axis", "Allied", "none"):
        raise err(field, f"side {v.side!r} must be Axis, Allied or none")
    if v.level not in ("win", "smashing", "marginal", "draw"):
        raise err(field, f"level {v.level!r} must be win, smashing, marginal or draw")
    if v.when not in ("end", "instant"):
        raise err(field, "when must be end or instant")
    if v.kind == "control" and not v.hexes:
        raise err(field, "a control condition needs `hexes`")
    if v.kind == "card_in_effect" and not v.card:
        raise err(field, "a card_in_effect condition needs `card`")
    if v.kind == "all" and not v.all_of:
        raise err(field, "an `all` condition needs `all_of`")
    for j, sub in enumerate(v.all_of):
        _check_victory(sub, f"{field}.all_of[{j}]", err)


def card_placements(use: CardSetup) -> list[Placement]:
    """The set-up lines of card ``use.card`` (resources/cards) as scenario set-up lines (3.1)."""
    from core import cards

    card = cards.card(use.card)
    out: list[Placement] = []
    lines: list[Any] = list(card.setup)
    if use.arrivals_gt is not None:
        lines = [cards.Placement(where=a.where, units=list(a.units), depleted=list(a.depleted),
                                 training_box=a.training_box, note=a.note)
                 for a in card.reinforcements if not a.each_gt and a.t < 0 and 0 < a.gt <= use.arrivals_gt]
    for cp in lines:
        if any(cp.where.startswith(w) for w in use.skip_where):
            continue
        forts = iter(cp.fort_levels)
        for unit in cards.placement_units(cp):
            if unit in use.skip_units:
                continue
            loc = cards.state_location(cp.where, card.side, cp.training_box)   # a card places its own side's units
            within = 1 if cp.adjacent else cp.within
            place: dict[str, Any] = {"at": loc} if not within else {"within": within, "of": loc}
            level = next(forts, None) if unit == "MK-Fort" else None
            out.append(Placement(unit=unit, depleted=unit in cp.depleted, active=unit in cp.active,
                                 primary=unit in cp.primary, level=level,
                                 owner=card.side if unit.startswith("MK-") else None,   # markers both sides use
                                 card=use.card, from_card=True, rule=use.rule, note=cp.note,
                                 source=getattr(cp, "source", "") or card.units_source,
                                 reason=getattr(cp, "reason", "") or card.units_reason, **place))
    return out


def _where(p: Placement) -> str:
    return p.at or f"within {p.within} of {p.of}"


def card_contradictions(sc: Scenario) -> list[str]:
    """One fact, one place: a scenario set-up line that names a ``card`` must agree with that card's set-up
    (resources/cards), unless ``changes_card`` cites the rule that changes it (24.1 a ...).  A scenario refers
    to a card's contents through ``card_setups``; it never restates them differently."""
    from core import cards

    errs: list[str] = []
    expanded = {(p.card, p.unit) for p in sc.setup if p.from_card}
    for i, p in enumerate(sc.setup):
        if p.from_card or not p.card or p.changes_card:
            continue
        field = f"{sc.path}: setup (unit {p.unit!r}, card = {p.card!r})"
        if (p.card, p.unit) in expanded:
            errs.append(f"{field}: the card's set-up is already used (card_setups); do not place the unit twice")
            continue
        try:
            card = cards.card(p.card)
        except KeyError as exc:
            errs.append(f"{field}: {exc}")
            continue
        spots = []
        arrivals = [cards.Placement(where=a.where, units=list(a.units)) for a in card.reinforcements if a.gt > 0]
        for cp in list(card.setup) + arrivals:
            if p.unit in cards.placement_units(cp):
                loc = cards.state_location(cp.where, card.side, cp.training_box)
                within = 1 if cp.adjacent else cp.within
                spots.append(loc if not within else f"within {within} of {loc}")
        side_file = "allied.toml" if p.card.startswith("ALC") else "axis.toml"
        if not spots:
            errs.append(f"{field}: resources/cards/{side_file} {p.card} does not set up {p.unit}; list it on the card "
                        f"or give `changes_card` with the rule that adds it")
        elif _where(p) not in spots:
            errs.append(f"{field}: places it {_where(p)}, but resources/cards/{side_file} {p.card} places it "
                        f"{' or '.join(spots)}; use the card (card_setups) or give `changes_card` with the rule")
    return errs


def _decode(path: Path) -> Scenario:
    sc = load_toml(path, Scenario, ScenarioError)
    _check(sc, path)
    expanded: list[Placement] = []
    for i, use in enumerate(sc.card_setups):
        if not _CARD_RE.match(use.card):
            raise ScenarioError(f"{path}: card_setups[{i}]: {use.card!r} is not ALC-1..ALC-28 or AXC-1..AXC-20")
        try:
            expanded += card_placements(use)
        except (KeyError, ValueError) as exc:
            raise ScenarioError(f"{path}: card_setups[{i}] ({use.card}): {exc}") from exc
    return msgspec.structs.replace(sc, path=str(path), setup=expanded + list(sc.setup))


@cache
def all_scenarios() -> tuple[Scenario, ...]:
    """The ten scenarios of 24.0-33.0, in rules order."""
    found = [_decode(p) for p in sorted(SCENARIOS.glob("*.toml"))]
    return tuple(sorted(found, key=lambda s: s.number))


def load(name: str) -> Scenario:
    """A scenario by id (``sonnenblume``), rule section (``26.0``) or file path."""
    p = Path(name)
    if p.suffix == ".toml" and p.exists():
        return _decode(p)
    for sc in all_scenarios():
        if name in (sc.id, sc.section, str(sc.number)):
            return sc
    known = ", ".join(s.id for s in all_scenarios())
    raise ScenarioError(f"no scenario {name!r}; known scenarios: {known}")


def included(sc: Scenario) -> list[Scenario]:
    """The sections whose instructions also apply (27.0 uses 26.0; 32.0 uses 27.0 and 29.0), transitively,
    breadth first, each once.  A section that cannot be loaded is skipped: `dfd validate` reports it."""
    out: list[Scenario] = []
    seen = {sc.section}
    todo = list(sc.includes)
    while todo:
        sec = todo.pop(0)
        if sec in seen:
            continue
        seen.add(sec)
        try:
            inc = load(sec)
        except ScenarioError:
            continue
        out.append(inc)
        todo += list(inc.includes)
    return out
