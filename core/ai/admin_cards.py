"""The admin AI's cards and special missions (issue 21: "it spends cards, refit points and air where they pay").

Each judge below says, in one sentence a player can check, why an option the engine offers pays now, or returns
None when it does not (the AI then declines it).  Legality is always the engine's: only offered options are
taken, and a free-form action (12.7 emergency supply) is tried on a fork first.

* 5.0 Events Phase (:func:`choose_event`): the game-length cards (23.1 ALC-11/12 shorten the game, played only
  while the Allies would win now; 23.2 AXC-4 and AXC-18 AIDA extend it, played only while the Axis would not);
  23.2 AXC-14 Arab Revolt (commit the Sonderverbaende on Crete to MET SW Asia while the +1 to its situation roll
  can still advance the track); 23.2 AXC-16 Operation C3 (declare the Malta invasion when its dice succeed at
  least half the time, cancel it when they cannot succeed); 23.1 ALC-28 Soft Underbelly (withdraw the spare units,
  far from every enemy and on no objective, for refit points); every other declared event that is offered.
* 15.4 Allied raids on Crete (:func:`choose_crete_raid`): raid with the special forces waiting in the NRV when an
  Axis air unit is on Crete and each raider passes its morale check on at least half the rolls; the Axis answers a
  raider that passed with its least valuable air unit there (:func:`choose_crete_raid_victim`, R-SF-CRETE).
* 12.7 emergency supply (:func:`emergency_supply_move`): at the start of the Movement Phase, a dump is expended for
  the most valuable isolated combat unit stacked with it (12.5: attrition), or a motorized one out of general
  supply (12.5 a: its MA is halved).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

from core.ai.admin_util import (enemy_hexes, my_options, nearest, objective_hexes, pass_action, plan_line, trial,
                                unit_worth)
from core.decisions import Action, Decision
from core.names import unit_name
from core.rules.status import counter_of, hex_of, is_combat, is_motorized, supply_kind

if TYPE_CHECKING:
    from core.engine import Engine

#: cards that shorten the game when played (23.1): the Allies play them only while they would win now
SHORTENING = frozenset({"ALC-11", "ALC-12"})
#: cards that extend the game (23.2 AXC-4 a, AXC-18 b): the Axis plays them only while it would not win now
EXTENDING = frozenset({"AXC-4", "AXC-18"})
#: AXC-16 f) 4: the invasion succeeds on a total of 13 or more
MALTA_TARGET = 13
#: ALC-28: a unit this many hexes or more from every enemy combat unit (and on no objective) is spare
SPARE_DISTANCE = 15


def winning_now(engine: "Engine", side: str) -> bool:
    """Would ``side`` win if the scenario ended now (the victory conditions' own evaluator)?"""
    res = engine.query("victory_check")
    return bool(res and res.get("winner") == side)


@cache
def chance_at_least(dice: int, target: int) -> Fraction:
    """The chance that ``dice`` six-sided dice total ``target`` or more."""
    ways = {0: 1}
    for _ in range(dice):
        nxt: dict[int, int] = {}
        for s, n in ways.items():
            for f in range(1, 7):
                nxt[s + f] = nxt.get(s + f, 0) + n
        ways = nxt
    return Fraction(sum(n for s, n in ways.items() if s >= target), 6 ** dice)


# --------------------------------------------------------------------------- 5.0 the cards' judges


def _arab_revolt(engine: "Engine", args: dict) -> str | None:
    """23.2 AXC-14: committed Sonderverbaende add 1 each to MET SW Asia's situation roll (ALC-6's DRM), pushing it
    toward crisis; they wait on Crete anyway (22.3).  It does not pay while the track is in crisis (no roll can
    push it further) or when every roll already advances it."""
    from core.rules import met

    t = met.track(engine, "SW Asia")
    if not t or t.get("crisis"):
        return None
    low = met.params("SW Asia").advance[0]
    drm = sum(v for v, _ in met._drm(engine, "SW Asia"))
    if 1 + drm >= low:
        return None
    who = " and ".join(unit_name(u) for u in args.get("commit") or [])
    return (f"committing {who} to MET SW Asia: +{len(args.get('commit') or [])} to its situation roll, which "
            f"advances on {max(1, low - drm - len(args.get('commit') or []))}-6 instead of {low - drm}-6 (23.2 AXC-14)")


def _operation_c3(engine: "Engine", args: dict) -> str | None:
    """23.2 AXC-16: declare the Malta invasion when the Herkules Box's dice (f 1-3) reach 13 at least half the
    time; cancel it, freeing its units and bringing AIDA (AXC-16 j, k; AXC-18), once it cannot succeed."""
    from core.rules import events

    n = events.malta_invasion_dice(engine)
    p = chance_at_least(n, MALTA_TARGET)
    c = engine.state.cards.get("AXC-16", {})
    if args.get("act") == "declare" and p >= Fraction(1, 2):
        return f"invading Malta with {n} dice: 13 or more {float(p):.0%} of the time (23.2 AXC-16 f)"
    if args.get("act") == "cancel" and p == 0 and c.get("declared_gt") is None:
        return (f"cancelling the invasion of Malta: {n} dice can never make 13; its units are free again "
                "(23.2 AXC-16 j, k)")
    return None


def _soft_underbelly(engine: "Engine", side: str, args: dict) -> str | None:
    """23.1 ALC-28: withdraw a spare unit - :data:`SPARE_DISTANCE` hexes or more from every enemy combat unit, on
    no objective, holding no city or port - whose factors come back as refit points (a, b); not while the Allies
    would win now if it lengthens the game (c, as :data:`EXTENDING`)."""
    from core import mapdata
    from core.rules import tec
    from core.rules.status import values

    units = list(args.get("units") or [])
    if len(units) != 1 or units[0] not in engine.state.units:
        return None
    u = engine.state.units[units[0]]
    h = hex_of(u)
    if h is None or h in objective_hexes(engine, side) or tec.current_map().is_city(h) or mapdata.port(h) is not None:
        return None
    d = nearest(h, enemy_hexes(engine, side))
    if d < SPARE_DISTANCE:
        return None
    cf = values(u)[0]
    done = int(engine.state.cards.get("ALC-28", {}).get("withdrawn_cf", 0))
    if (done + cf) // 20 > done // 20 and winning_now(engine, side):
        return None
    far = "no enemy on the map" if d >= 99 else f"{d} hexes from the nearest enemy"
    return (f"withdrawing {counter_of(u).name} ({cf} CF, {far}) for good: its factors come back as refit "
            "points (23.1 ALC-28 a, b)")


def card_pays(engine: "Engine", side: str, card: str, args: dict, label: str) -> str | None:
    """Why playing ``card`` (with its variant ``args``) pays for ``side`` now, or None."""
    if card in SHORTENING and not winning_now(engine, side):
        return None
    if card in EXTENDING and winning_now(engine, side):
        return None
    if card == "AXC-14":
        return _arab_revolt(engine, args)
    if card == "AXC-16":
        return _operation_c3(engine, args)
    if card == "ALC-28":
        return _soft_underbelly(engine, side, args)
    name = label[5:] if label.startswith("Play ") else card
    return f"playing {name} (5.0)"


def choose_event(player: Any, decision: Decision, engine: "Engine") -> Action:
    """5.0: declare the offered event that pays most (:func:`card_pays`; the larger commitment of AXC-14 first),
    else declare nothing more."""
    best = None
    for i, o in enumerate(my_options(decision, player.side)):
        a = o.action
        if a.kind != "play_card":
            continue
        args = {k: v for k, v in a.args.items() if k != "card"}
        why = card_pays(engine, player.side, str(a.args.get("card")), args, o.label)
        if why is None:
            continue
        key = (-len(args.get("commit") or []), i)
        if best is None or key < best[0]:
            best = (key, a, why)
    if best is None:
        return pass_action(decision, player.side)
    plan_line(player, best[2])
    return best[1]


# --------------------------------------------------------------------------- 15.4 raids on Crete


def raid_chance(engine: "Engine", uid: str, drm: int) -> Fraction:
    """The chance ``uid`` passes its raid morale check (8.1) with the garrison's DRM (15.4 b)."""
    from core.rules.status import morale, morale_passes

    m = morale(engine.state.units[uid])
    return Fraction(sum(1 for die in range(1, 7) if morale_passes(die, m, drm)), 6)


def choose_crete_raid(player: Any, decision: Decision, engine: "Engine") -> Action:
    """15.4: raid Crete with the SF units waiting in the NRV (those in a port hold it) that pass the morale check
    at least half the time, when an Axis air unit is on Crete to damage (d); else no raid."""
    from core.rules import offmap

    air = list(decision.context.get("air") or [])
    drm = int(decision.context.get("garrison") or 0)
    st = engine.state
    good = sorted((u for u in decision.context.get("raiders") or []
                   if u in st.units and st.units[u].loc == offmap.NRV and raid_chance(engine, u, drm) >= Fraction(1, 2)),
                  key=lambda u: (-raid_chance(engine, u, drm), u))
    if not air or not good:
        return pass_action(decision, player.side)
    raids = [o for o in my_options(decision, player.side) if o.action.kind == "crete_raid"]
    pick = next((o for o in raids if sorted(o.action.args.get("units") or []) == sorted(good)), None)
    if pick is None:
        pick = next(o for o in raids if o.action.args.get("units") == [good[0]])
    units = pick.action.args["units"]
    plan_line(player, f"raiding Crete with {', '.join(unit_name(u) for u in units)}: "
                      f"{unit_name(air[0])} there must pass a damage check on each success (15.4 d)")
    return pick.action


def air_worth(uid: str) -> float:
    """A rough worth of an air unit: its ground support and bombardment factors, naval capability, long range."""
    c = counter_of(uid)
    return c.gs + c.bomb + (1 if c.naval else 0) + (1 if c.range == "L" else 0)


def choose_crete_raid_victim(player: Any, decision: Decision, engine: "Engine") -> Action:
    """15.4 d) (R-SF-CRETE): the Axis puts the raid's damage check on its least valuable air unit on Crete
    (:func:`air_worth`; a damaged unit spends one or two GTs on the TRT, 19.3)."""
    opts = [o for o in my_options(decision, player.side) if o.action.kind == "crete_raid_victim"]
    if not opts:
        return pass_action(decision, player.side)
    pick = min(opts, key=lambda o: (air_worth(str(o.action.args["unit"])), str(o.action.args["unit"])))
    plan_line(player, f"{unit_name(pick.action.args['unit'])}, the least needed air unit on Crete, takes the raid's "
                      "damage check (15.4 d)")
    return pick.action


# --------------------------------------------------------------------------- 12.7 emergency supply


def emergency_candidates(engine: "Engine", side: str) -> list[tuple[str, str]]:
    """(unit, dump) pairs worth an emergency supply (12.7), best first: an isolated combat unit (12.5: supply
    attrition), else a motorized one out of general supply (12.5 a: MA halved), stacked with a usable dump of its
    side; the most valuable first."""
    from core.ai.admin_supply import keep_for_first_base

    st = engine.state
    if keep_for_first_base(engine, side):
        return []                   # the last dumps make and activate the side's first base (12.2.3)
    dumps: dict[str, list[str]] = {}
    for u in st.units.values():
        if u.side == side and supply_kind(u) == "dump" and not u.captured and hex_of(u) is not None:
            dumps.setdefault(u.loc, []).append(u.id)
    out = []
    for u in st.units.values():
        if u.side != side or u.loc not in dumps or not is_combat(u) or u.emergency:
            continue
        if u.isolated or (u.ogs and is_motorized(u)):
            out.append(((0 if u.isolated else 1, -unit_worth(u.id, u.steps), u.id), u.id, sorted(dumps[u.loc])[0]))
    return [(uid, dump) for _, uid, dump in sorted(out)]


def emergency_supply_move(player: Any, decision: Decision, engine: "Engine") -> Action | None:
    """12.7, at the beginning of the Movement Phase (before any other move): the next emergency supply that pays
    (:func:`emergency_candidates`), one unit per dump, or None."""
    if decision.kind != "movement" or decision.side != player.side or "emergency_supply" not in decision.free_kinds:
        return None
    st = engine.state
    key = (st.gt, st.phase, st.step, player.side)
    memo = getattr(player, "_admin_emergency", None)
    if memo is None or memo.get("key") != key:
        memo = {"key": key, "used": set(), "over": False}
        player._admin_emergency = memo
    if memo["over"]:
        return None
    for uid, dump in emergency_candidates(engine, player.side):
        if dump in memo["used"]:
            continue
        a = Action(kind="emergency_supply", side=player.side, args={"unit": uid, "dump": dump})
        if trial(engine, a):
            memo["used"].add(dump)
            u = st.units[uid]
            why = "isolated, it would suffer supply attrition" if u.isolated else "out of general supply, its MA is halved"
            plan_line(player, f"expending {unit_name(dump)} on emergency supply for {counter_of(u).name} in "
                              f"{u.loc}: {why} (12.7, 12.5)")
            return a
    memo["over"] = True
    return None
