"""The computer opponent's answers to every decision that is not a ground move or combat choice (issue 21).

Set-up (3.1), initiative (6.1), cards (5.0, 23.x), reinforcements and withdrawals (7.x, 24.2/25.2), supply and
bases (12.x), air (19.x), naval, Malta and shipping (20.x, 22.x), off-map boxes, refit (17.x), training (8.5) and
the rest.  :data:`KINDS` names the decision kinds answered here; :func:`choose` answers one of them with a legal
action and writes one or two sentences of plan on ``player.plan``.

Every answer is one of the decision's own options or a free-form action tried first on a copy of the state
(:func:`core.ai.admin_util.trial`), chosen with the engine's queries, never by re-implementing a rule; it is
deterministic for the game state (``player.rng`` is used only to break ties) and cheap.

The ground AI (core.ai.player) also asks :func:`movement_first` at each of its Movement-Phase decisions: the
admin moves that must come before ground play (the Allied withdrawals, 7.4; reinforcements from the NRV, 22.1), and :func:`reserved_units` names
the units it should leave alone (the admin AI moves them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from core.ai import admin_cards, admin_construction, admin_enter, admin_refit, admin_supply, admin_withdraw
from core.ai.admin_util import (enemy_hexes, my_options, nearest, objective_hexes, pass_action, plan_line,
                                unit_worth)
from core.decisions import Action, Decision
from core.hexgrid import Hex, HexLabelError
from core.rules import stacking, tec
from core.rules.status import counter_of, hex_of, supply_kind

if TYPE_CHECKING:
    from core.engine import Engine

Handler = Callable[[Any, Decision, "Engine"], Action]

reserved_units = admin_withdraw.reserved_units


def movement_first(player: Any, decision: Decision, engine: "Engine") -> Action | None:
    """The admin moves of a Movement Phase, asked before the ground AI's own (None: none left): emergency supply
    at the phase's beginning (12.7, :mod:`core.ai.admin_cards`), the Allied withdrawals (7.4, :mod:`core.ai.admin_withdraw`), construction (18.1 forts, 18.2 railroad,
    :mod:`core.ai.admin_construction`), the supply train (MSU, dumps, forward bases: 12.2, 12.4,
    :mod:`core.ai.admin_supply`), then the reinforcements waiting in the NRV Box brought to the front (7.0, 22.1,
    :mod:`core.ai.admin_enter`).  First of all the reinforcements waiting for a friendly Movement Phase arrive
    (27.1, 30.2, 31.2: :func:`arrival_move`)."""
    a = arrival_move(player, decision, engine)
    if a is None:
        a = admin_cards.emergency_supply_move(player, decision, engine)
    if a is None:
        a = admin_withdraw.withdrawal_move(player, decision, engine)
    if a is None:
        a = admin_construction.construction_move(player, decision, engine)
    if a is None:
        a = admin_supply.supply_move(player, decision, engine)
    if a is None:
        a = admin_enter.nrv_entry_move(player, decision, engine, reserved_units(engine, player.side))
    return a


def _hex(label: str) -> Hex | None:
    try:
        return Hex.parse(label)
    except (HexLabelError, ValueError):
        return None


def _pass(player: Any, decision: Decision, engine: "Engine") -> Action:
    """Nothing (more) to do here: the ``done`` option (what the rules make optional is declined)."""
    return pass_action(decision, player.side)


def _first(player: Any, decision: Decision, engine: "Engine") -> Action:
    """A decision whose first option is the only sensible one (a roll, a resolution)."""
    return (my_options(decision, player.side) or list(decision.options))[0].action


# --------------------------------------------------------------------------- 3.1 set-up


def _setup_place(player: Any, decision: Decision, engine: "Engine") -> Action:
    """3.1: place the unit in the best legal hex: units due for withdrawal near the NRV (7.4); supply units back
    from the front; combat units in the best defensive terrain near the front without overstacking (10.2); forts
    and other markers where the enemy will come from."""
    from core.rules import stacking, tec

    opts = my_options(decision, player.side)
    uid = str(decision.context.get("unit", ""))
    if not opts:
        raise RuntimeError(f"set-up of {uid} offers no legal hex ({decision.rule})")
    st = engine.state
    gm = tec.current_map()
    front = enemy_hexes(engine, player.side)
    goals = objective_hexes(engine, player.side)
    c = counter_of(uid)
    points: dict[str, int] = {}
    for u in st.units.values():
        if u.side == player.side and hex_of(u) is not None:
            points[u.loc] = points.get(u.loc, 0) + stacking.stacking_points(u)
    mine = stacking.stacking_points(st.units[uid]) if uid in st.units else 1
    crowd = _motorised_room_short(engine, player.side, uid, opts, points)
    best: tuple[float, float, str] | None = None
    for o in opts:
        lab = str(o.action.args.get("hex"))
        h = _hex(lab)
        if h is None:
            continue
        w = admin_withdraw.setup_score(engine, uid, h)
        terrain = gm.hex_terrain(h)
        d_front = nearest(h, front)
        if w is not None:
            score = w
        elif c.kind == "supply":
            score = min(d_front, 12) - 0.2 * nearest(h, goals)
        elif c.kind == "marker":
            score = -d_front - (5 if any(x.id.startswith("MK-Fort") for x in st.units_at(lab)) else 0)
        else:
            score = (3 * gm.is_city(h) + 2 * ("mountain" in terrain) + ("rough" in terrain)
                     + 3 * any(x.id.startswith("MK-Fort") for x in st.units_at(lab))
                     + (2 if h in goals else 0) - 0.3 * min(d_front, 20) - (3 if d_front <= 1 else 0))
        if c.kind == "combat" and points.get(lab, 0) + mine > stacking.limit(gm, lab):
            score -= 100
        elif c.kind == "combat" and c.move_class == "foot" and crowd is not None and not _closed_to_motorised(h):
            # a foot unit here would leave the motorised units still to set up no room but over the limit (10.2):
            # it goes where they cannot (30.2's east edge: the marsh), as long as there is room there
            score -= 50 if crowd < mine else 0
        key = (score, player.rng.random(), lab)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None
    lab = best[2]
    plan_line(player, f"setting up {uid} in {lab}" + (" near the NRV, due for withdrawal (7.4)"
                                                     if admin_withdraw.setup_score(engine, uid, Hex.parse(lab)) is not None
                                                     else ""))
    return next(o.action for o in opts if o.action.args.get("hex") == lab)


def _motorised_room_short(engine: "Engine", side: str, uid: str, opts: list, points: dict[str, int]) -> int | None:
    """For a foot unit set up among hexes some of which motorised units may not enter: the stacking room (10.2) the
    open hexes have beyond what the motorised units still to be set up among the same hexes need (None when the
    question does not arise)."""
    from core.rules import setup

    st = engine.state
    c = counter_of(uid)
    if c.kind != "combat" or c.move_class != "foot":
        return None
    labs = [str(o.action.args.get("hex")) for o in opts]
    hexes = [h for h in (_hex(x) for x in labs) if h is not None]
    if not any(_closed_to_motorised(h) for h in hexes):
        return None
    gm = tec.current_map()
    room = sum(max(0, stacking.limit(gm, h.label) - points.get(h.label, 0)) for h in hexes
               if not _closed_to_motorised(h))
    need = 0
    for p in setup.pending_placements(engine, side):
        pc = counter_of(p["unit"])
        if p["unit"] != uid and pc.kind == "combat" and pc.move_class != "foot" and p["unit"] in st.units:
            need += stacking.stacking_points(st.units[p["unit"]])
    return room - need


def _closed_to_motorised(h: Hex) -> bool:
    """Terrain a mechanised unit may not enter from any side (13.3, TEC: e.g. marsh off the road)."""
    from core import terrain

    try:
        return all(terrain.move_cost(n, h, "mechanised") is None for n in h.neighbours())
    except ValueError:
        return False


# --------------------------------------------------------------------------- 6.1 initiative


def _choose_first_player(player: Any, decision: Decision, engine: "Engine") -> Action:
    """6.1/6.2: with the initiative, be the 1st player (moving first, and keeping surprise when there is one)."""
    for o in my_options(decision, player.side):
        if o.action.args.get("first") is True:
            plan_line(player, "taking the 1st player turn" + (" to use surprise (6.2)" if "surprise" in o.label
                                                              else " (6.1)"))
            return o.action
    return _pass(player, decision, engine)


# --------------------------------------------------------------------------- 5.0 / 23.x cards

def _card_choice(player: Any, decision: Decision, engine: "Engine") -> Action:
    """A card's owed choice: ULTRA influences the initiative (23.1 ALC-13); reinforcements over a longer game
    (5.0 b Important) unless the side would win now."""
    opts = my_options(decision, player.side)
    want = {"benefit": "initiative", "take": "es" if admin_cards.winning_now(engine, player.side) else "units"}
    for o in opts:
        if any(o.action.args.get(k) == v for k, v in want.items()):
            plan_line(player, o.label)
            return o.action
    return opts[0].action


# --------------------------------------------------------------------------- 7.x reinforcements and withdrawals


def arrival_move(player: Any, decision: Decision, engine: "Engine") -> Action | None:
    """27.1 "arrive at hex C0701 during any friendly Movement Phase", 30.2 "any two may arrive in each friendly
    Movement Phase", 31.2 "arrive in Phase 15": every waiting reinforcement arrives in the first friendly Movement
    Phase that allows it, at its best arrival point (:func:`_arrival_key`); None when none can arrive now."""
    if decision.kind != "movement" or "arrive" not in decision.free_kinds:
        return None
    side = player.side
    legal = engine.query("movement_arrivals", side=side)
    keep = reserved_units(engine, side)        # 7.4: a unit listed for withdrawal stays off the map
    for uid, pts in sorted(legal.items()):
        if not pts or uid in keep:
            continue
        key = _arrival_key(engine, side, uid)
        to = min(pts, key=lambda p: key(Action(kind="arrive", side=side, args={"to": p})))
        plan_line(player, f"{uid} arrives at {to} in this Movement Phase (27.1; 30.2)")
        return Action(kind="arrive", side=side, args={"unit": uid, "to": to})
    return None


def _arrival_key(engine: "Engine", side: str, uid: str) -> Callable[[Action], tuple]:
    """The order of arrival points for ``uid``: a safe hex (not next to the enemy) before a box, then one not
    over-stacked (10.3), then the nearest the front and the objectives."""
    front = enemy_hexes(engine, side)
    goals = objective_hexes(engine, side)
    st = engine.state
    pts = stacking.stacking_points(st.units[uid]) if uid in st.units else 0
    gm = tec.current_map()

    def score(a: Action) -> tuple:
        h = _hex(str(a.args.get("to")))
        if h is None:
            return (1, 0, 0, str(a.args.get("to")))      # a box: after any safe hex
        d = nearest(h, front)
        # 10.3: a hex over the stacking limit at the end of the phase disrupts every unit in it
        over = sum(stacking.stacking_points(v) for v in st.units_at(h.label)) + pts > stacking.limit(gm, h.label)
        return (0 if d > 1 else 2, int(over), min(nearest(h, goals), d), h.label)

    return score


def _reinforce(player: Any, decision: Decision, engine: "Engine") -> Action:
    """7.1-7.3: deploy every reinforcement now (units due for withdrawal stay off the map, 7.4), at the arrival
    point nearest the front and the objectives that is not next to the enemy."""
    uid = str(decision.context.get("unit", ""))
    held = admin_withdraw.reinforce_hold(engine, uid, decision, player.side)
    if held is not None:
        plan_line(player, f"keeping {uid} off the map: it is due for withdrawal (7.4)")
        return held
    deploys = [o.action for o in my_options(decision, player.side) if o.action.kind == "deploy"]
    if not deploys:
        return _first(player, decision, engine)
    from core.rules import reinforcements

    hold = next((o.action for o in my_options(decision, player.side) if o.action.kind == "hold"), None)
    if hold is not None and any(not p.startswith("box:") for p in reinforcements.mp_points(engine, uid)):
        # 27.1 via 32.0: it may also arrive at C0701 in a friendly Movement Phase (arrival_move), not by Italy
        plan_line(player, f"{uid} waits to arrive at {reinforcements.mp_points(engine, uid)[0]} in a Movement Phase")
        return hold
    front = enemy_hexes(engine, player.side)
    st = engine.state
    a = min(deploys, key=_arrival_key(engine, player.side, uid))
    own = _hex(str(st.units[uid].flags.get("arrive_to", ""))) if uid in st.units else None
    if counter_of(uid).kind == "supply" and own is not None:
        # a supply unit goes where the schedule sends it (30.2: the dumps "in S0734"), next to the side's base or
        # where its MSU come to make one (12.2.3), unless that hex is next to the enemy
        at = next((d for d in deploys if _hex(str(d.args.get("to"))) == own), None)
        if at is not None and nearest(own, front) > 1:
            a = at
    plan_line(player, f"{uid} arrives at {a.args.get('to')} (7.0)")
    return a


# --------------------------------------------------------------------------- 12.x bases


def _activate_bases(player: Any, decision: Decision, engine: "Engine") -> Action:
    """12.2.3: activate the bases that supply combat units (a friendly combat unit within 12 hexes)."""
    st = engine.state
    own = [hex_of(u) for u in st.units.values() if u.side == player.side and counter_of(u).kind == "combat"
           and hex_of(u) is not None]
    for o in my_options(decision, player.side):
        if o.action.kind != "activate_base":
            continue
        b = st.units.get(str(o.action.args.get("base")))
        h = hex_of(b) if b is not None else None
        active = any(u.side == player.side and u.active and supply_kind(u) == "base" and hex_of(u) is not None
                     for u in st.units.values())
        if h is not None and (nearest(h, own) <= 12 or not active):
            plan_line(player, f"activating the base in {h.label} to keep the units near it in supply (12.2.3)")
            return o.action
    return _pass(player, decision, engine)


def _relocate_primary_base(player: Any, decision: Decision, engine: "Engine") -> Action:
    """12.2.4: move the primary base to a port at least 8 hexes nearer the front, if it stays 4+ hexes from the
    enemy; else keep it."""
    from core.rules import supply

    st = engine.state
    front = enemy_hexes(engine, player.side)
    pb = supply.axis_primary(st)
    here = hex_of(pb) if pb is not None else None
    now = nearest(here, front) if here is not None else 99
    best = None
    for o in my_options(decision, player.side):
        if o.action.kind != "relocate_primary_base":
            continue
        b = st.units.get(str(o.action.args.get("base")))
        h = hex_of(b) if b is not None else None
        if h is None:
            continue
        d = nearest(h, front)
        if d >= 4 and d <= now - 8 and (best is None or d < best[0]):
            best = (d, o.action, h.label)
    if best is not None:
        plan_line(player, f"moving the primary base forward to {best[2]} (12.2.4)")
        return best[1]
    return _pass(player, decision, engine)


def _place_primary_base(player: Any, decision: Decision, engine: "Engine") -> Action:
    """12.2.4: the replacement primary base goes to the port nearest the front that is 4+ hexes from the enemy
    (else the farthest one)."""
    front = enemy_hexes(engine, player.side)
    opts = my_options(decision, player.side)

    def score(o) -> tuple:
        h = _hex(str(o.action.args.get("hex")))
        d = nearest(h, front) if h is not None else 0
        return (0, d, o.label) if d >= 4 else (1, -d, o.label)

    o = min(opts, key=score)
    plan_line(player, f"placing the primary base at {o.action.args.get('hex')} (12.2.4)")
    return o.action


# --------------------------------------------------------------------------- 19.x air


def _air_deploy(player: Any, decision: Decision, engine: "Engine") -> Action:
    """19.1: ground-support aircraft (GS 2+) to the North Africa Box where they fly missions (19.5); the rest to the
    Air Superiority Box, where each counts double for air superiority and the initiative (19.2)."""
    uid = str(decision.context.get("unit", ""))
    c = counter_of(uid)
    opts = my_options(decision, player.side)
    want = "AirNA" if c.gs >= 2 or c.bomb >= 2 else "AirSuperiority"
    for o in opts:
        if o.action.kind == "air_deploy" and want in str(o.action.args.get("to")):
            plan_line(player, f"{uid} to {o.action.args.get('to')} (19.1)")
            return o.action
    return next((o.action for o in opts if o.action.kind == "air_stay"), opts[0].action)


def _strike_allocation(player: Any, decision: Decision, engine: "Engine") -> Action:
    """19.9: send a naval-capable air unit against an enemy shipping lane that carries cargo."""
    lanes = engine.query("shipping_lanes")
    for o in my_options(decision, player.side):
        if o.action.kind == "strike_allocate" and lanes.get(o.action.args.get("lane")):
            plan_line(player, f"{o.action.args.get('unit')} strikes the {o.action.args.get('lane')} shipping (19.9)")
            return o.action
    return next((o.action for o in my_options(decision, player.side) if o.action.kind == "strike_skip"),
                _pass(player, decision, engine))


def _strike_with_all(player: Any, decision: Decision, engine: "Engine") -> Action:
    """Strikes on enemy ports, coasts and Malta (19.9.2, 20.4.2, 22.4): strike while a striker is offered."""
    for o in my_options(decision, player.side):
        if o.action.kind not in ("done", "malta_strike_skip", "strike_skip"):
            plan_line(player, o.label)
            return o.action
    return _pass(player, decision, engine)


def _strike_loss(player: Any, decision: Decision, engine: "Engine") -> Action:
    """19.9.2: lose the least valuable unit of one's own (the most valuable of the enemy's, ULTRA 23.1)."""
    st = engine.state
    opts = my_options(decision, player.side)

    def worth(o) -> float:
        uid = str(o.action.args.get("unit"))
        u = st.units.get(uid)
        steps = u.steps if u is not None else None
        w = unit_worth(uid, steps) if counter_of(uid).kind == "combat" else 4.0
        return w if (u is None or u.side == player.side) else -w

    o = min(opts, key=lambda o: (worth(o), o.label))
    plan_line(player, o.label)
    return o.action


def _combat_support(player: Any, decision: Decision, engine: "Engine") -> Action:
    """19.5, 20.4.2: commit the support that shifts the column most (air first by its shift, then naval), up to
    the limit the engine offers (2 attacking, 1 defending): air and fleets are there to be used where the
    fighting is."""
    import re

    best = None
    for o in my_options(decision, player.side):
        if o.action.kind != "support":
            continue
        m = re.search(r"\((\d+) column", o.label)
        shift = int(m.group(1)) if m else 0
        if shift <= 0:
            continue
        key = (-shift, o.label)
        if best is None or key < best[0]:
            best = (key, o)
    if best is not None:
        where = ", ".join(decision.context.get("hexes", []) or [])
        plan_line(player, f"{best[1].label}" + (f" in the combat at {where}" if where else "") + " (19.5)")
        return best[1].action
    return next((o.action for o in my_options(decision, player.side) if o.action.kind == "support_done"),
                _pass(player, decision, engine))


def _combat_fleet_strike(player: Any, decision: Decision, engine: "Engine") -> Action:
    """20.4.2, 19.9.1: strike the fleet supporting the combat with up to two air units, then resolve."""
    opts = my_options(decision, player.side)
    strikers = decision.context.get("strikers", []) or []
    if len(strikers) < 2:
        for o in opts:
            if o.action.args.get("unit"):
                plan_line(player, o.label)
                return o.action
    return next((o.action for o in opts if o.action.args.get("unit") is None), opts[0].action)


def _yes(player: Any, decision: Decision, engine: "Engine") -> Action:
    """An optional strike or attack on the enemy (27.0 f convoy strikes, 22.7 the FNA boxes): take it."""
    for o in my_options(decision, player.side):
        if o.action.kind != "done" and o.action.args.get("strike", True) is not False:
            plan_line(player, o.label)
            return o.action
    return _pass(player, decision, engine)


# --------------------------------------------------------------------------- 20.x naval and shipping


def _port_score(engine: "Engine", side: str, lab: str) -> tuple:
    front = enemy_hexes(engine, side)
    h = _hex(lab.split(":")[-1])
    if h is None:
        return (1, 0, lab)
    d = nearest(h, front)
    return (0 if d >= 3 else 2, d, lab)


def _ship(player: Any, decision: Decision, engine: "Engine") -> Action:
    """20.2: ship cargo to the friendly port nearest the front that is 3+ hexes from the enemy."""
    opts = [o.action for o in my_options(decision, player.side) if o.action.kind == "ship"]
    if not opts:
        return _first(player, decision, engine)
    a = min(opts, key=lambda a: _port_score(engine, player.side, str(a.args.get("to"))))
    plan_line(player, f"shipping {a.args.get('unit')} toward {a.args.get('to')} (20.2)")
    return a


def _port_placement(player: Any, decision: Decision, engine: "Engine") -> Action:
    """20.1/20.2: land the cargo at its intended port when offered, else at the best port offered."""
    intended = str(decision.context.get("intended", ""))
    opts = [o.action for o in my_options(decision, player.side) if o.action.kind == "port_place"]
    if not opts:
        return _first(player, decision, engine)
    a = next((a for a in opts if str(a.args.get("to")).endswith(":" + intended)), None)
    if a is None:
        a = min(opts, key=lambda a: _port_score(engine, player.side, str(a.args.get("to"))))
    plan_line(player, f"landing {a.args.get('unit')} at {a.args.get('to')} (20.2)")
    return a


def _fleet_allocation(player: Any, decision: Decision, engine: "Engine") -> Action:
    """20.4: escort the Allied convoy when it sails, else strike the Axis shipping, else coastal missions."""
    lanes = engine.query("shipping_lanes")
    opts = {o.action.args.get("mission"): o.action for o in my_options(decision, player.side)
            if o.action.kind == "fleet_allocate"}
    order = ("escort", "strike", "coastal") if lanes.get("AlliedMed") else ("strike", "coastal", "escort")
    for m in order:
        if m in opts:
            plan_line(player, f"fleet {opts[m].args.get('fleet')} on {m} (20.4)")
            return opts[m]
    return _first(player, decision, engine)


# --------------------------------------------------------------------------- card obligations, off-map


def _greek_withdrawal(player: Any, decision: Decision, engine: "Engine") -> Action:
    """23.1 ALC-16 b): send the least valuable eligible units to Greece."""
    st = engine.state
    ws = [o.action for o in my_options(decision, player.side) if o.action.kind == "greek_withdraw"]
    if not ws:
        return _pass(player, decision, engine)
    a = min(ws, key=lambda a: (unit_worth(str(a.args["unit"]), st.units[str(a.args["unit"])].steps),
                               str(a.args["unit"])))
    plan_line(player, f"sending {a.args['unit']}, the least needed, to Greece (ALC-16 b)")
    return a


def _offmap_moves(player: Any, decision: Decision, engine: "Engine") -> Action:
    """22.2.1: send the least valuable unit in the NRV to an active MET track about to go into crisis (its
    highest box, or in crisis) that has no Allied combat unit yet; no other off-map move."""
    from core.rules import met

    st = engine.state
    tracks = engine.query("met")
    pressed = {met.track_box(n) for n, t in tracks.items()
               if t.get("active") and n in met.TRACKS and (t.get("crisis") or int(t.get("box", 0)) >= met.TRACKS[n] - 1)}
    manned = {u.loc for u in st.units.values() if u.side == player.side and counter_of(u).kind == "combat"}
    best = None
    for o in my_options(decision, player.side):
        a = o.action
        to, uid = str(a.args.get("to", "")), str(a.args.get("unit", ""))
        if a.kind != "offmap_move" or to not in pressed or to in manned or uid not in st.units:
            continue
        if st.units[uid].loc != "box:NRV" or counter_of(uid).kind != "combat":
            continue
        key = (unit_worth(uid, st.units[uid].steps), uid, to)
        if best is None or key < best[0]:
            best = (key, a)
    if best is not None:
        plan_line(player, f"{best[1].args['unit']} goes to {best[1].args['to']} to hold off a crisis there (22.2.1)")
        return best[1]
    return _pass(player, decision, engine)


def _met_combat(player: Any, decision: Decision, engine: "Engine") -> Action:
    """22.2.2: fight on every MET track where Allied units stand (each 5-6 lowers the situation a box; the
    units on the track take no losses)."""
    for o in my_options(decision, player.side):
        if o.action.kind == "met_combat":
            plan_line(player, o.label)
            return o.action
    return _pass(player, decision, engine)


HANDLERS: dict[str, Handler] = {
    "setup_place": _setup_place,
    "choose_first_player": _choose_first_player,
    "initiative_roll": _first,
    "events": admin_cards.choose_event,
    "card_choice": _card_choice,
    "reinforce": _reinforce,
    "withdraw": admin_withdraw.choose_withdraw,
    "allow_withdrawal": admin_withdraw.choose_allow_withdrawal,
    "refit": admin_refit.choose_refit,
    "activate_bases": _activate_bases,
    "relocate_primary_base": _relocate_primary_base,
    "place_primary_base": _place_primary_base,
    "air_deploy": _air_deploy,
    "strike_allocation": _strike_allocation,
    "port_strikes": _strike_with_all,
    "coastal_strikes": _strike_with_all,
    "malta_strike": _strike_with_all,
    "fleet_mission_strike": _strike_with_all,
    "strike_loss": _strike_loss,
    "strike_resolution": _first,
    "ocean_shipping": _ship,
    "port_placement": _port_placement,
    "fleet_allocation": _fleet_allocation,
    "greek_withdrawal": _greek_withdrawal,
    "combat_support": _combat_support,
    "combat_fleet_strike": _combat_fleet_strike,
    "convoy_strike_27": _yes,
    "fna_box_combat": _yes,
    "vichy_retreat": _first,
    "oasis_combat": _first,
    "met_rolls": _first,
    "met_combat": _met_combat,
    "offmap_moves": _offmap_moves,
    "crete_raid": admin_cards.choose_crete_raid,
    "crete_raid_victim": admin_cards.choose_crete_raid_victim,
    "training_ops": _pass,
    "step": _pass,
}

#: the decision kinds this module answers (ai-player dispatches them here)
KINDS: frozenset[str] = frozenset(HANDLERS)


def choose(player: Any, decision: Decision, engine: "Engine") -> Action:
    """Answer ``decision`` (whose kind is in :data:`KINDS`) for ``player`` (``.side``, ``.rng``, ``.setting``,
    writable ``.plan``) with an action ``Engine.apply`` accepts."""
    handler = HANDLERS.get(decision.kind)
    if handler is None:
        raise KeyError(f"core.ai.admin does not answer decisions of kind {decision.kind!r} (KINDS: {sorted(KINDS)})")
    player.plan = ""
    action = handler(player, decision, engine)
    if not player.plan:
        label = next((o.label for o in decision.options if o.action == action), action.kind)
        plan_line(player, f"{label} ({decision.rule})")
    return action
