"""Overruns in the computer opponent's Movement Phase (13.4; issue 21: "movement and overruns").

A unit overruns an enemy hex when the engine allows it (13.4.1 / 13.4.2, :func:`core.rules.combat_forms.
overrun_refusal`), the odds preview of the overrun (query ``odds``, ``form="overrun"``: 13.4.4, the halved
non-mobile attacker, the CRT's overrun columns) promises a clear gain in worth, and the engine's ``route`` query
finds a path that reaches the hex with the MP the overrun costs (13.4: the terrain, the hexside and the 2 MP).  The
move is tried on a copy before it is sent (:func:`core.ai.search.accepted`).
"""

from __future__ import annotations

from typing import Any

from core.charts import decode_result
from core.decisions import Action, IllegalAction
from core.engine import Engine
from core.hexgrid import Hex
from core.names import place, unit_name
from core.rules.combat_forms import overrun_refusal
from core.rules.special_units import info
from core.rules.status import hex_of, is_motorized, movement_allowance

from core.ai.search import accepted_move

#: the expected gain in worth (enemy lost minus own, :func:`core.ai.ground.attack_value`) an overrun must promise
OVERRUN_THRESHOLD = 1.0
#: ... at odds of at least this many attack factors per defence factor (14.5: the overrun's own strengths)
MIN_ODDS = 3.0
#: ... clearing the hex (every defender eliminated or routed, 14.5) on at least this many of the six rolls: a
#: failed overrun ends the unit's move next to the enemy and costs it a morale check (13.4.4)
CLEARS = 4
#: a cleared hex is entered (13.4.4): not one where the enemy around it is more than this many times the unit
EXPOSURE = 3.0
#: candidate hexes checked with the engine's ``route`` query per unit
ROUTES = 3


def candidates(eng: Engine, ctx: Any, uid: str) -> list[tuple[float, str, str]]:
    """The enemy hexes ``uid`` may overrun within its MA with a gain above :data:`OVERRUN_THRESHOLD`, best first:
    (gain, hex, odds)."""
    from core.ai.ground import attack_value

    st = eng.state
    u = st.units[uid]
    start = hex_of(u)
    if start is None or u.ogs or u.disrupted:
        return []
    reach = movement_allowance(u)
    mine = max(0.5, float(info(st, uid).cf))
    out = []
    for e, strength in sorted(ctx.enemy_cf.items(), key=lambda kv: kv[0].label):
        if start.distance(e) > reach or overrun_refusal(st, [uid], e.label) is not None:
            continue
        around = ctx.threat.get(e, 0.0) - strength            # the enemy near the hex, without its own units
        if around > EXPOSURE * mine:
            continue
        if not _sure(eng, uid, e.label):
            continue
        gain, odds = attack_value(eng, ctx.side, [uid], [e.label], form="overrun", goals=ctx.goals)
        if gain >= OVERRUN_THRESHOLD:
            out.append((gain, e.label, odds))
    out.sort(key=lambda c: (-c[0], c[1]))
    return out


def _sure(eng: Engine, uid: str, label: str) -> bool:
    """Whether the overrun of ``label`` by ``uid`` has :data:`MIN_ODDS` and clears the hex on :data:`CLEARS` rolls
    (the engine's odds preview, query ``odds``)."""
    try:
        pv = eng.query("odds", attackers=[uid], hex=label, form="overrun")
    except (IllegalAction, KeyError, ValueError):
        return False
    if float(pv["attack"]) < MIN_ODDS * max(float(pv["defence"]), 0.5):
        return False
    clears = 0
    for row in pv["results"]:
        res = [decode_result(row["by_unit"].get(d, "-")) for d in pv["defenders"]]
        clears += all(r.loss == "E" or r.retreat == "r" for r in res)
    return clears >= CLEARS


def best_overrun(eng: Engine, ctx: Any, uid: str) -> tuple[Action | None, str]:
    """The move of ``uid`` that overruns the best hex of :func:`candidates` (the engine's own path, ``route``), or
    None; and its sentence of plan."""
    if not is_motorized(eng.state.units[uid]):
        return None, ""                      # the non-motorised overrun only zero-factor hexes (13.4.1): left to moves
    for gain, label, odds in candidates(eng, ctx, uid)[:ROUTES]:
        try:
            r = eng.query("route", units=[uid], to=label)
        except IllegalAction:
            continue
        if not r or not r.get("overrun"):
            continue
        act = accepted_move(eng, ctx.side, [uid], r["path"])
        if act is not None:
            return act, f"{unit_name(uid)} overruns {place(label)} at {odds}"
    return None, ""


# --------------------------------------------------------------------------- 13.4.3 reacting away
#: the attacker's expected gain (:func:`core.ai.ground.attack_value`) above which units on an objective the side
#: holds react away rather than stand: below it the overrun is likely to fail and the objective is kept
STAND_ON_OBJECTIVE_BELOW = 2.0


def react_away(player: Any, d: Any, eng: Engine) -> Action | None:
    """13.4.3: "the non-phasing player may react away" from a hex about to be overrun.  The units stand when the
    overrun promises the enemy nothing (the engine's odds preview of the overrun, 13.4.4) or, on an objective the
    side holds (:mod:`core.ai.goals`), little; else they react away to the offered hex that is next to no enemy,
    then in the side's line of supply (12.4.1), then nearest."""
    from core.ai import goals as goals_mod
    from core.ai.ground import attack_value
    from core.decisions import other
    from core.rules import combat, supply

    st = eng.state
    side = d.side
    top = st.stack[-1] if st.stack else None
    attackers = list(top.data.get("attackers", [])) if top is not None else []
    here = str(d.context.get("hex", ""))
    stand = next((o.action for o in d.options if o.action.kind == "done"), None)
    moves = [o.action for o in d.options if o.action.kind == "move" and o.action.side == side]
    if not moves or not attackers or not here:
        return stand
    gain, _ = attack_value(eng, other(side), attackers, [here], form="overrun")
    held = goals_mod.goals(eng, side).hold.get(here, 0.0)
    if gain <= 0.0 or (held and gain < STAND_ON_OBJECTIVE_BELOW):
        return stand
    los = supply.supply_lines(st, side).los

    def score(a: Action) -> tuple:
        path = [str(x) for x in a.args["path"]]
        end = path[-1]
        exposed = bool(combat.enemy_hexes_adjacent(st, side, end))
        try:
            in_line = Hex.parse(end) in los
        except ValueError:
            in_line = False
        return (exposed, not in_line, len(path), end)

    best = min(moves, key=score)
    player.say(f"{side}: {', '.join(unit_name(u) for u in best.args['units'][:3])} react away from the overrun of "
               f"{place(here)} to {place(str(best.args['path'][-1]))}.")
    return best
