"""Refit (17.0, 4.1 VI.2) for the admin AI: spend refit points where they rebuild the most.

Candidates, best first: free upgrades offered by the engine (8.4, 17.3); the most valuable units in the Refit Box
rebuilt by RP at the primary base (17.2), at full strength or one step; units in the Destroyed Box shifted to the
Refit Box; depleted units on the map refitted by an RP within reach (17.2).  Each free-form candidate is tried on a
copy of the state (:func:`core.ai.admin_util.trial`) so that the engine decides what is legal (nationality
17.2.1, the one-CW-unit limit, supply, EZOC, costs).  A dump gives GenS to a hex (12.3 b) only where it saves a
large force.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from core.ai.admin_util import my_options, pass_action, plan_line, trial, unit_worth
from core.decisions import Action, Decision, IllegalAction
from core.rules import refit
from core.rules.status import counter_of, destroyed_box, hex_of, is_combat, is_rp, refit_box

if TYPE_CHECKING:
    from core.engine import Engine
    from core.state import UnitState

#: trials per refit decision at most (each copies the state)
MAX_TRIALS = 12
#: a dump is spent on GenS for a hex (12.3 b) only when the units there are worth this much
DUMP_GENS_WORTH = 12.0


def _rps(engine: "Engine", side: str) -> list["UnitState"]:
    return sorted((u for u in engine.state.units.values() if u.side == side and is_rp(u) and u.loc != "removed"),
                  key=lambda u: u.id)


def _box_candidates(engine: "Engine", side: str, destroyed: bool) -> Iterator[Action]:
    st = engine.state
    box = destroyed_box(side) if destroyed else refit_box(side)
    units = sorted((u for u in st.units_at(box) if u.side == side and is_combat(u)),
                   key=lambda u: (-unit_worth(u.id), u.id))
    rps = [r for r in _rps(engine, side) if _near_primary(engine, side, r)]
    if not rps:
        return
    for u in units:
        ids = [r.id for r in rps if refit.same_nationality(u, r)]
        if not ids:
            continue
        kind = "refit_destroyed" if destroyed else "refit_box"
        full = counter_of(u).steps
        for steps in sorted({full, 1}, reverse=True):
            yield Action(kind=kind, side=side, args={"unit": u.id, "rps": ids, "steps": steps})


def _near_primary(engine: "Engine", side: str, rp: "UnitState") -> bool:
    try:
        return refit.near_primary(engine, side, rp)
    except IllegalAction:          # no Axis primary base on the map (12.2.4): no refit from the boxes
        return False


def _hex_candidates(engine: "Engine", side: str) -> Iterator[Action]:
    st = engine.state
    rps = [r for r in _rps(engine, side) if hex_of(r) is not None]
    if not rps:
        return
    depleted = sorted((u for u in st.units.values() if u.side == side and is_combat(u) and hex_of(u) is not None
                       and u.steps < counter_of(u).steps), key=lambda u: (-unit_worth(u.id), u.id))
    for u in depleted:
        h = hex_of(u)
        for r in sorted(rps, key=lambda r: (hex_of(r).distance(h), r.id)):
            if refit.same_nationality(u, r) and hex_of(r).distance(h) <= 12:
                yield Action(kind="refit_hex", side=side, args={"unit": u.id, "rp": r.id})
                break


def _dump_gens(engine: "Engine", decision: Decision, side: str) -> Action | None:
    from core.ai.admin_supply import keep_for_first_base, reserved_dumps

    st = engine.state
    if keep_for_first_base(engine, side):
        return None                 # 12.2.1: the last dumps make and activate the first base, not one hex's GenS
    kept = reserved_dumps(engine, side)
    best = None
    for o in my_options(decision, side):
        if o.action.kind != "dump_gens" or o.action.args.get("dump") in kept:
            continue
        lab = str(o.action.args.get("hex"))
        worth = sum(unit_worth(u.id, u.steps) for u in st.units_at(lab) if u.side == side and is_combat(u) and u.ogs)
        if worth >= DUMP_GENS_WORTH and (best is None or worth > best[0]):
            best = (worth, o.action)
    return best[1] if best else None


def choose_refit(player: Any, decision: Decision, engine: "Engine") -> Action:
    """4.1 VI.2: one refit action, or Done when no candidate is legal."""
    side = player.side
    a = _dump_gens(engine, decision, side)
    if a is not None:
        plan_line(player, f"expending {a.args.get('dump')} to give GenS to {a.args.get('hex')} (12.3 b)")
        return a
    for o in my_options(decision, side):
        if o.action.kind == "upgrade":
            plan_line(player, o.label)
            return o.action
    tries = 0
    for gen in (_box_candidates(engine, side, False), _hex_candidates(engine, side),
                _box_candidates(engine, side, True)):
        for a in gen:
            if tries >= MAX_TRIALS:
                break
            tries += 1
            if trial(engine, a):
                uid = str(a.args["unit"])
                how = {"refit_box": f"rebuilt with {a.args.get('steps')} step(s) from the Refit Box",
                       "refit_hex": f"refitted in place with {a.args.get('rp')}",
                       "refit_destroyed": "moved from the Destroyed to the Refit Box"}[a.kind]
                plan_line(player, f"{counter_of(uid).name} {how} (17.2)")
                return a
    return pass_action(decision, side)
