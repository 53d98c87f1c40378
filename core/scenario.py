"""Scenarios as data (3.0, 24.0-33.0).

A scenario file (``scenarios/*.toml``) gives the starting GT and phase, the
initiative, the end scenario marker's box, the maps in play and the set-up.
Set-up lines either fix a unit's place (a hex or a box) or give the owning
player a placement decision ("within N hexes of", 3.1), which the engine asks
for at game start.  ``docs/data.md`` documents the format.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import msgspec

from core.resources import SCENARIOS


class ScenarioError(ValueError):
    """A scenario file that cannot be used; the message names the file and field."""


class Placement(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One set-up line (3.1).

    Exactly one of ``at`` (a hex or box), ``within`` (with ``of``: "within N hexes
    of", the owner decides) must be given.  ``depleted`` sets the unit up on its
    reduced side (8.3).
    """

    unit: str
    at: str | None = None
    of: str | None = None
    within: int | None = None
    depleted: bool = False
    active: bool = False            # bases: set up active side up (12.2.3)
    count: int = 1                  # for generic counters (MSU, dumps, RP markers)
    rule: str = ""
    note: str = ""


class Scenario(msgspec.Struct, kw_only=True, forbid_unknown_fields=False):
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
    setup: list[Placement] = []
    control: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    path: str = ""

    @property
    def gt_range(self) -> str:
        return f"GT {self.start_gt}-{self.end_gt}"


def _decode(path: Path) -> Scenario:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{path}: cannot read the scenario file: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML: {exc}") from exc
    try:
        sc = msgspec.convert(raw, type=Scenario)
    except msgspec.ValidationError as exc:
        raise ScenarioError(f"{path}: {exc}") from exc
    if sc.initiative not in ("Axis", "Allied"):
        raise ScenarioError(f"{path}: field `initiative` must be Axis or Allied, not {sc.initiative!r}")
    if sc.first_player not in (None, "Axis", "Allied"):
        raise ScenarioError(f"{path}: field `first_player` must be Axis or Allied")
    if not 1 <= sc.start_phase <= 20:
        raise ScenarioError(f"{path}: field `start_phase` must be 1-20 (4.1)")
    if sc.end_gt < sc.start_gt:
        raise ScenarioError(f"{path}: field `end_gt` ({sc.end_gt}) is before `start_gt` ({sc.start_gt})")
    return msgspec.structs.replace(sc, path=str(path))


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
