"""The sequence of play (4.0, 4.1): a GT is six impulses of twenty phases.

Each phase is a list of numbered steps with the role that acts in it.  Roles
are resolved to a side by :func:`side_of` from the initiative and 1st-player
status in the state.  4.1 "Important": until the Initiative Phase (V) of the
current GT, initiative and 1st/2nd player refer to the previous GT's status;
this holds automatically because the state keeps last GT's status until Phase V
changes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from core.decisions import ALLIED, AXIS, other

Role = Literal[
    "auto",            # the engine does it (bookkeeping, automatic rolls)
    "both",            # either player may act; both must finish
    "initiative", "non_initiative",
    "first", "second",
    "axis", "allied",
]

ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X",
         "XI", "XII", "XIII", "XIV", "XV", "XVI", "XVII", "XVIII", "XIX", "XX")


@dataclass(frozen=True)
class Step:
    phase: int
    number: int
    role: Role
    text: str
    rule: str

    @property
    def key(self) -> str:
        """``VI.3`` style key, used by rule modules to plug in procedures."""
        return f"{ROMAN[self.phase - 1]}.{self.number}"


@dataclass(frozen=True)
class Phase:
    number: int
    name: str
    impulse: str
    player: Literal["first", "second", ""]  # the phasing player of phases VI-XVII
    steps: tuple[Step, ...]

    @property
    def roman(self) -> str:
        return ROMAN[self.number - 1]

    @property
    def title(self) -> str:
        return f"{self.roman}. {self.name}"


IMPULSES = (
    "Strategic Impulse",
    "First Player Initial Impulse",
    "Second Player Initial Impulse",
    "First Player Follow-on Impulse",
    "Second Player Follow-on Impulse",
    "Administrative Impulse",
)


def _phase(n: int, name: str, impulse: int, player: str, steps: list[tuple[Role, str, str]]) -> Phase:
    return Phase(
        number=n, name=name, impulse=IMPULSES[impulse], player=player,  # type: ignore[arg-type]
        steps=tuple(Step(n, i + 1, role, text, rule) for i, (role, text, rule) in enumerate(steps)),
    )


def _movement(n: int, who: str, impulse: int) -> Phase:
    return _phase(n, f"{who.title()} Player Movement Phase", impulse, who, [
        ("auto", "The active player determines GenS for all units; mark units OGS or disrupted (12.5)", "4.1 VI.1; 12.5"),
        (who, "Conduct refit operations (17.0)", "4.1 VI.2; 17.0"),  # type: ignore[list-item]
        (who, "Move ground units; overruns, naval and interdiction moves, supply destruction, construction (13.0)", "4.1 VI.3; 13.0"),  # type: ignore[list-item]
    ])


def _reaction(n: int, who: str, impulse: int) -> Phase:
    return _phase(n, f"{who.title()} Player Reaction Phase", impulse, who, [
        (who, "Eligible units may conduct reaction movement (13.5)", "4.1 VII; 13.5"),  # type: ignore[list-item]
    ])


def _combat(n: int, who: str, impulse: int, last: bool = False) -> Phase:
    steps: list[tuple[Role, str, str]] = [
        (who, "Conduct all required attacks and any other eligible attacks (14.0)", "4.1 VIII; 14.0"),  # type: ignore[list-item]
    ]
    if last:
        steps.append(("auto", "Flip Based aircraft and In-Port Allied naval units to their Available side", "4.1 XVII Important"))
    return _phase(n, f"{who.title()} Player Combat Phase", impulse, who, steps)


PHASES: tuple[Phase, ...] = (
    _phase(1, "Events Phase", 0, "", [
        ("auto", "Check all active events; determine the cards automatically in play or still in play", "4.1 I.1; 5.0"),
        ("non_initiative", "The non-initiative player may declare he is playing any eligible event", "4.1 I.2; 5.0"),
        ("initiative", "The initiative player may declare he is playing any eligible event", "4.1 I.3; 5.0"),
        ("allied", "The Allied player rolls for each MET in play", "4.1 I.4; 22.2"),
    ]),
    _phase(2, "Air Superiority Phase", 0, "", [
        ("non_initiative", "The non-initiative player deploys air units", "4.1 II.1; 19.1"),
        ("initiative", "The initiative player deploys air units", "4.1 II.2; 19.1"),
        ("auto", "Determine the side that has air superiority", "4.1 II.3; 19.2"),
    ]),
    _phase(3, "Reinforcement Phase", 0, "", [
        ("both", "Determine available units and deploy them to shipping boxes or points of arrival", "4.1 III.1; 7.0"),
        ("auto", "All bases are flipped to their OGS side", "4.1 III.2; 12.2.3"),
    ]),
    _phase(4, "Allocation Phase", 0, "", [
        ("initiative", "The initiative player expends dumps to activate bases", "4.1 IV.1; 12.2.3"),
        ("non_initiative", "The non-initiative player expends dumps to activate bases", "4.1 IV.2; 12.2.3"),
        ("non_initiative", "The non-initiative player allocates ocean shipping", "4.1 IV.3; 20.2"),
        ("initiative", "The initiative player allocates ocean shipping", "4.1 IV.4; 20.2"),
        ("allied", "The Allied player allocates naval units", "4.1 IV.5; 20.4"),
        ("axis", "The Axis player resolves strikes on Malta", "4.1 IV.6; 22.4"),
        ("non_initiative", "The non-initiative player allocates air units to ocean naval strikes", "4.1 IV.7; 19.9"),
        ("initiative", "The initiative player allocates air units to ocean naval strikes", "4.1 IV.8; 19.9"),
        ("both", "Resolve ocean naval strikes in any order", "4.1 IV.9; 19.9"),
        ("both", "Conduct training operations", "4.1 IV.10; 8.5"),
    ]),
    _phase(5, "Initiative Phase", 0, "", [
        ("initiative", "Determine the initiative (roll 2d6 on the Initiative Table)", "4.1 V.1; 6.1"),
        ("initiative", "The initiative player decides to be the 1st or 2nd player", "4.1 V.2; 6.1"),
    ]),
    _movement(6, "first", 1),
    _reaction(7, "second", 1),
    _combat(8, "first", 1),
    _movement(9, "second", 2),
    _reaction(10, "first", 2),
    _combat(11, "second", 2),
    _movement(12, "first", 3),
    _reaction(13, "second", 3),
    _combat(14, "first", 3),
    _movement(15, "second", 4),
    _reaction(16, "first", 4),
    _combat(17, "second", 4, last=True),
    _phase(18, "Supply Attrition Phase", 5, "", [
        ("auto", "Morale checks for all units marked OGS and isolated", "4.1 XVIII; 12.5.1"),
    ]),
    _phase(19, "Victory Check Phase", 5, "", [
        ("auto", "Check the scenario instructions for an instant victory", "4.1 XIX"),
    ]),
    _phase(20, "Turn Marker Phase", 5, "", [
        ("auto", "End the scenario or advance the turn marker", "4.1 XX"),
    ]),
)

STEPS: dict[str, Step] = {s.key: s for p in PHASES for s in p.steps}

#: 4.1 IX, XII, XV: "conducted in the same order and manner as Phase VI" -- the four Movement Phases
MOVEMENT_PHASE_NUMBERS = (6, 9, 12, 15)


def movement_steps(number: int) -> tuple[str, ...]:
    """The keys of step ``number`` of every Movement Phase (``movement_steps(1)`` = VI.1, IX.1, XII.1, XV.1):
    a rule module registers a Movement-Phase step once for all four phases (4.1 IX, XII, XV)."""
    return tuple(f"{ROMAN[n - 1]}.{number}" for n in MOVEMENT_PHASE_NUMBERS)


def phase(n: int) -> Phase:
    if not 1 <= n <= 20:
        raise ValueError(f"phase {n} does not exist; a GT has phases I-XX (4.1)")
    return PHASES[n - 1]


def first_player(initiative: str, first_is_initiative: bool) -> str:
    return initiative if first_is_initiative else other(initiative)


def side_of(role: Role, initiative: str, first: str) -> str | None:
    """The side that acts in ``role`` (None for auto, ``either`` for both)."""
    match role:
        case "auto":
            return None
        case "both":
            return "either"
        case "initiative":
            return initiative
        case "non_initiative":
            return other(initiative)
        case "first":
            return first
        case "second":
            return other(first)
        case "axis":
            return AXIS
        case "allied":
            return ALLIED
    raise ValueError(role)


def phasing_side(phase_no: int, first: str) -> str | None:
    """The phasing player of Phases VI-XVII (4.0: the player conducting an action)."""
    p = phase(phase_no)
    if p.player == "first":
        return first
    if p.player == "second":
        return other(first)
    return None
