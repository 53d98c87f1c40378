"""8.0 Combat Unit Status: morale (8.1), disruption and recovery (8.2), facility
disruption (8.2.1), depletion and elimination (8.3), and the unit facts every
ground rule reads (9.0 movement class, 13.2 allowances).

Counters come from ``core.counters``; a unit's state from ``core.state.UnitState``.
Unit ids of generic counters carry a ``#n`` suffix (``AX-MSU#2``).
"""

from __future__ import annotations

import math

from core import sequence
from core.counters import Counter, counter
from core.decisions import IllegalAction
from core.engine import Engine, at_phase_end
from core.hexgrid import Hex, HexLabelError
from core.state import GameState, UnitState

MOVEMENT_PHASES = sequence.MOVEMENT_PHASE_NUMBERS
REACTION_PHASES = (7, 10, 13, 16)


# ---------------------------------------------------------------- unit facts
def counter_of(u: UnitState | str) -> Counter:
    """The counter printed for a unit (ids of generic counters end in ``#n``)."""
    uid = u if isinstance(u, str) else u.id
    c = _COUNTER_OF.get(uid)
    if c is None:
        c = _COUNTER_OF[uid] = counter(uid.split("#", 1)[0])
    return c


#: unit id -> printed counter (pure: ``core.counters`` is loaded once per process)
_COUNTER_OF: dict[str, Counter] = {}


def hex_of(u: UnitState) -> Hex | None:
    """The unit's hex, or None when it is in a box or on a card."""
    if ":" in u.loc or u.loc == "setup":
        return None
    try:
        return Hex.parse(u.loc)
    except HexLabelError:
        return None


def supply_kind(u: UnitState) -> str:
    """``base``, ``msu``, ``dump`` for supply units (12.2), else ``""``."""
    c = counter_of(u)
    return c.unit_type if c.kind == "supply" else ""


def is_rp(u: UnitState) -> bool:
    return counter_of(u).unit_type == "refit point"


#: 18.2.1 "The railhead is not affected by enemy action or supply status and does not count toward stacking";
#: 18.3 "The two road markers are used like the railhead marker in 18.2.1".
TRACK_MARKERS = ("egyptian railhead", "road construction")


def is_track_marker(u: UnitState) -> bool:
    """The railhead (18.2.1) or a road construction marker (18.3): a marker, not a unit; the enemy enters its hex
    and traces lines through it as if it were not there."""
    return counter_of(u).unit_type in TRACK_MARKERS


def is_combat(u: UnitState) -> bool:
    return counter_of(u).kind == "combat"


def is_motorized(u: UnitState) -> bool:
    """9.0: trucked, mechanised and desert raiders; MSU are motorised (12.2.2)."""
    return counter_of(u).motorized


def desert_raider_rules(state: GameState) -> bool:
    """16.0 "The use of desert raiders and the oasis boxes is optional in all scenarios": the players chose the optional
    rules at new game (``core.newgame.initial_state`` keeps them as ``vars["optional"]["desert_raiders"]``; 24.0-26.0
    b) leave them out).  The choice is part of the game's initial state and never changes in play."""
    return bool(state.vars.get("optional", {}).get("desert_raiders"))


def is_desert_raider(state: GameState, u: UnitState) -> bool:
    """16.1: whether ``u`` has the desert raiders' additional capabilities -- 1 MP per hex ignoring hexside terrain,
    EZOC ignored, no attack on the hex grid, two morale checks when attacked alone, always in general and combat
    supply, the 1d6 return, raider missions (16.4).  A raider counter has them only in a game that uses the optional
    rules of 16.0; otherwise it "function[s] like any other combat unit" (16.1), a trucked one (9.0 Important:
    desert raiders are motorized; R-RAID-OFF, R-TEC-RAIDERS).

    The one definition every rule granting a raider capability asks.  It reads the game's option rather than a mark
    on the unit: the option is fixed at new game, so the answer cannot change in play, and no unit can come into
    play (set-up, arrival, capture, a hand-built test position) without it."""
    return counter_of(u).move_class == "raider" and desert_raider_rules(state)


def tec_class(state: GameState, u: UnitState) -> str:
    """The TEC column the unit pays (9.0, 15.4 SF, 16.1 desert raiders; a raider counter without the optional rules
    of 16.0 pays as the trucked unit it is, R-RAID-OFF)."""
    c = counter_of(u)
    if c.sf:
        return "sf"
    if c.move_class == "raider":
        return "raider" if is_desert_raider(state, u) else "trucked"
    return c.move_class or "foot"


def values(u: UnitState) -> tuple[int, int, int]:
    """(CF, printed morale, printed MA) of the side showing (8.3)."""
    return counter_of(u).values(u.steps)


def printed_ma(u: UnitState) -> int:
    return values(u)[2]


def cf(u: UnitState) -> int:
    return values(u)[0]


def has_real_cf(u: UnitState) -> bool:
    """A non-parenthesised combat factor greater than zero (11.1a, 11.4b)."""
    c = counter_of(u)
    return c.kind == "combat" and cf(u) > 0 and not c.cf_paren


def nonzero_factor(u: UnitState) -> bool:
    """13.4.1 "Only motorized units may overrun a hex containing non-zero factor combat units" ("Any unit may overrun
    an enemy hex containing only supply units or zero-factor combat units"): a combat unit whose CF is greater than
    zero, parenthesised or not -- the rules write "non-zero, non-parenthesized" where they exclude parenthesised
    factors (11.1a, 14.8, 15.3, 16.4, 18.1), and 13.4.1 does not.  The one test of the overrun rules (the
    declared overrun, a declared path's later overruns, the combat's eligibility check)."""
    return counter_of(u).kind == "combat" and cf(u) > 0


def is_hq(u: UnitState) -> bool:
    """15.6: an HQ's capabilities are special functions, lost when disrupted (8.2d)."""
    return counter_of(u).hq and not u.disrupted


def morale(u: UnitState, extra: int = 0) -> int:
    """8.2a: disrupted +1; 12.5b: OGS +1."""
    m = values(u)[1] + extra
    if u.disrupted or u.untrained:
        m += 1
    if u.ogs:
        m += 1
    return m


def rma(u: UnitState) -> int:
    """13.2.1: one-quarter of the printed MA, rounded up, for motorised units.

    Non-motorised units move at most one hex when reacting (returned as 0 MP;
    :func:`reaction_hex_limit` gives the hex limit).
    """
    return math.ceil(printed_ma(u) / 4) if is_motorized(u) else 0


def movement_allowance(u: UnitState) -> int:
    """13.2, 13.2.2: the MA after status (disrupted halved round up; OGS motorised RMA;
    OGS non-motorised half).  8.2.1: a disrupted MSU has MA 7."""
    ma = printed_ma(u)
    if supply_kind(u) == "msu" and u.disrupted:
        return min(ma, 7)
    if u.ogs and not u.emergency:
        ma = rma(u) if is_motorized(u) else math.ceil(ma / 2)
    if u.disrupted or u.untrained:
        ma = math.ceil(ma / 2)
    return ma


# ---------------------------------------------------------------- morale (8.1)
def morale_passes(die: int, morale_value: int, mods: int = 0) -> bool:
    """8.1: pass iff the modified result is 6 or less; a natural 6 always fails."""
    return die != 6 and die + morale_value + mods <= 6


def morale_check(eng: Engine, uid: str, mods: int = 0, why: str = "") -> bool:
    """Roll a morale check for ``uid`` (8.1) and log it; True when passed."""
    u = eng.state.units[uid]
    m = morale(u)
    die = eng.roll(1)[0]
    ok = morale_passes(die, m, mods)
    name = counter_of(u).name
    eng.say(f"Morale check{(' (' + why + ')') if why else ''}: {name} rolls {die} + morale {m}"
            + (f" {mods:+d}" if mods else "") + f" = {die + m + mods}: {'passes' if ok else 'fails'} (8.1)")
    return ok


# ---------------------------------------------------------------- disruption (8.2)
def disrupt(eng: Engine, uid: str, why: str, rule: str) -> None:
    """8.2: place a D marker (additional disruptions have no effect)."""
    u = eng.state.units[uid]
    if not u.disrupted:
        u.disrupted = True
        eng.say(f"{counter_of(u).name} is disrupted: {why} ({rule})")


def can_recover(state: GameState, u: UnitState, enemy_zoc: set[Hex]) -> bool:
    """8.2: recovery at the end of a friendly Movement Phase if in GenS and not in an EZOC.
    8.5.2: untrained units cannot recover; 12.5e: OGS units cannot recover."""
    if not u.disrupted or u.untrained or u.ogs or u.isolated:
        return False
    h = hex_of(u)
    if h is None:
        return True
    return h not in enemy_zoc


def phasing(eng: Engine, phase: int) -> str | None:
    from core import sequence

    return sequence.phasing_side(phase, eng.state.first_player)


@at_phase_end
def recover_at_movement_end(eng: Engine, phase: int) -> None:
    """8.2 / 8.2.1: at the end of a friendly Movement Phase, disrupted units and
    facilities in GenS and not in an EZOC recover."""
    if phase not in MOVEMENT_PHASES:
        return
    from core.rules import zoc

    side = phasing(eng, phase)
    if side is None:
        return
    ezoc = zoc.zoc_hexes(eng.state, _other(side))
    for u in sorted(eng.state.units_of(side), key=lambda x: x.id):
        if u.disrupted and u.flags.get("recover_blocked_gt_phase") != [eng.state.gt, phase] and can_recover(eng.state, u, ezoc):
            u.disrupted = False
            eng.say(f"{counter_of(u).name} recovers from disruption (8.2)")


def _other(side: str) -> str:
    from core.decisions import other

    return other(side)


# ---------------------------------------------------------------- depletion (8.3)
def refit_box(side: str) -> str:
    return f"box:Refit:{side}"


def destroyed_box(side: str) -> str:
    return f"box:Destroyed:{side}"


def elimination_box(state: GameState, u: UnitState, *, overrun: bool = False) -> tuple[str, str]:
    """8.3: where an eliminated unit goes, with the reason.

    No Cadre -> Destroyed; overrun casualties -> Destroyed (13.4.4); motorised ->
    Refit with a LOC (8.3a); non-motorised -> Refit with a LOS (8.3b).
    """
    c = counter_of(u)
    if c.no_cadre:
        return destroyed_box(u.side), "No Cadre unit (8.3 Important)"
    if overrun:
        return destroyed_box(u.side), "eliminated in an overrun (13.4.4)"
    from core.rules import supply

    h = hex_of(u)
    if h is None:
        return refit_box(u.side), "eliminated off the hex grid (22.0: off-map areas are in GenS)"
    lines = supply.supply_lines(state, u.side)
    if is_motorized(u):
        if supply.has_loc(lines, state, u, h):
            return refit_box(u.side), "motorised unit with a LOC (8.3a)"
        return destroyed_box(u.side), "motorised unit without a LOC (8.3a)"
    if supply.has_los(lines, state, u, h):
        return refit_box(u.side), "non-motorised unit with a LOS (8.3b)"
    return destroyed_box(u.side), "non-motorised unit without a LOS (8.3b)"


def eliminate(eng: Engine, uid: str, *, overrun: bool = False) -> str:
    """8.3: remove the unit to its Refit or Destroyed box; returns the box."""
    u = eng.state.units[uid]
    box, why = elimination_box(eng.state, u, overrun=overrun)
    u.loc = box
    u.steps = counter_of(u).steps
    u.disrupted = u.ogs = u.isolated = u.reserve = u.emergency = False
    eng.say(f"{counter_of(u).name} is eliminated and placed in the {box.split(':')[1]} Box: {why}")
    return box


def deplete(eng: Engine, uid: str, *, overrun: bool = False) -> None:
    """8.3: a two-step unit flips to its reduced side; a one-step or reduced unit is eliminated."""
    u = eng.state.units[uid]
    if u.steps >= 2:
        u.steps = 1
        eng.say(f"{counter_of(u).name} is depleted (8.3)")
    else:
        eliminate(eng, uid, overrun=overrun)


def require_unit(eng: Engine, uid: object, side: str, rule: str) -> UnitState:
    """The unit ``uid`` of ``side``, or IllegalAction citing ``rule``."""
    if not isinstance(uid, str) or uid not in eng.state.units:
        raise IllegalAction(f"there is no unit {uid!r}", rule)
    u = eng.state.units[uid]
    if u.side != side:
        raise IllegalAction(f"{counter_of(u).name} is not a {side} unit", rule)
    return u
