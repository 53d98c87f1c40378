"""22.7 French North Africa boxes and the Vichy French reaction (23.1 ALC-21 i, ALC-27).

* ``fna_move`` {units, to} (Movement-Phase action): Allied units move along the primary road joining the seven
  FNA boxes to one another and to Algiers (A6201), 14 road hexes a leg (``offmap.fna_road``), paying the
  primary-road cost of their class (TEC) from their MA.  Axis units may not enter the boxes; neutral Vichy French
  units do not move (ALC-21 i).  Stacking in the boxes is unlimited.
* ``fna_box_combat`` (before each Allied Combat Phase step): "Combat can occur in the boxes but is limited to
  Allied attacks on Vichy French units" — the Allied player may attack the neutral VF units of a box with his
  combat units there; the Vichy French Reaction Table is consulted first (``events.vichy_reaction``) and a
  ``fight`` result is resolved on the CRT, its losses and retreats decided by the players (R-FNA-BOX-COMBAT).
* ``vichy_retreat`` {units, chooser, rule}: "A unit forced to retreat is moved by the non-attacking player"
  (ALC-21 i 4): each VF unit retreats one box along the road (in a box) or one hex by the 14.7 retreat rules
  (on the map), the destination chosen by the non-attacking player (R-VICHY-RETREAT).
* :func:`vichy_before_combat`: the hook that consults the table before a combat on the map against neutral VF.
* :func:`hostile`: neutral VF units are enemies of the Allies (attackable, not enterable, blocking Allied supply
  lines) though on the Allied side of the state (R-VICHY-NEUTRAL); the Axis player decides for them when the Allies
  attack them (R-VICHY-DEFENDER).
"""

from __future__ import annotations

from typing import Any

from core.counters import all_counters
from core.decisions import ALLIED, AXIS, Action, Decision, IllegalAction, Option, other
from core.engine import CONTINUE, QUERIES, Engine, Procedure, before_step, procedure
from core.state import Frame, GameState, UnitState
from core.rules import movement, offmap, tec

MOVE = "fna_move"
COMBAT_STEPS = ("VIII.1", "XI.1", "XIV.1", "XVII.1")


def _c(uid: str):
    return all_counters().get(offmap.base_id(uid))


def is_vf(uid: str) -> bool:
    return offmap.base_id(uid).startswith(("VFA-", "VF-"))


def neutral_vf(u: UnitState) -> bool:
    """A Vichy French unit made neutral by ALC-23 (``flags["vichy"] == "neutral"``) that has neither joined the
    Allies nor surrendered (ALC-21 i, ALC-27)."""
    return offmap.base_id(u.id).startswith("VFA-") and u.flags.get("vichy") == "neutral" and u.loc != offmap.REMOVED


def inactive_vf(state: Any, u: UnitState) -> bool:
    """A Vichy French unit of ALC-3 before Operation Torch: 23.1 ALC-3 "Important: These units are not active until
    ALC-23 (Operation Torch Invasion) is played" (22.7: French North Africa is out of play until then).  It sits in
    the Allied side of the state, but the Allied player may not move it or attack with it.  Once ALC-23 is played
    the unit is neutral (:func:`neutral_vf`) until it joins; a scenario without ALC-23 has no inactive VF."""
    if not offmap.base_id(u.id).startswith("VFA-") or u.flags.get("vichy"):
        return False
    card = (getattr(state, "cards", None) or {}).get("ALC-23")
    return card is not None and card.get("status") not in ("in_play", "discarded")


def not_allied_power(state: Any, u: UnitState) -> bool:
    """A Vichy French unit that is not (yet) an active Allied unit: inactive before ALC-23 (23.1 ALC-3 "not active
    until ALC-23") or neutral after it until it joins (23.1 ALC-27 c "When all VF units have either been eliminated,
    surrendered, or joined the Allies, the accord has been reached and Vichy France becomes an active Allied
    power").  No Allied general supply is determined for it (12.5 "at the beginning of each friendly Movement
    Phase": it is no friendly unit of the Allies; R-VICHY-INACTIVE, R-VICHY-NEUTRAL)."""
    return inactive_vf(state, u) or neutral_vf(u)


def inactive_named(state: Any, args: dict) -> UnitState | None:
    """23.1 ALC-3: the first inactive Vichy French unit an order names (``args["units"]`` or ``args["unit"]``), or
    None.  The one gate of the Movement-Phase orders (R-VICHY-INACTIVE: "not active" = no order of any kind)."""
    ids = list(args.get("units") or []) + ([args["unit"]] if args.get("unit") else [])
    for i in ids:
        u = state.units.get(str(i))
        if u is not None and inactive_vf(state, u):
            return u
    return None


def hostile(u: UnitState, side: str) -> bool:
    """``u`` is an enemy of ``side``: a unit of the other side, or a neutral Vichy French unit when ``side`` is
    Allied (the neutral VF are on the Allied side of the state until they join, yet the Allies may attack them,
    22.7; 23.1 ALC-21 i).  The one predicate the combat, movement and supply rules use (R-VICHY-NEUTRAL)."""
    return u.side != side or (side == ALLIED and neutral_vf(u))


def hostile_to(u: UnitState, mover: UnitState) -> bool:
    """``u`` is an enemy of the unit ``mover`` (retreats): a neutral VF unit is an enemy of everyone but
    another neutral VF unit; otherwise :func:`hostile`."""
    if neutral_vf(mover):
        return not neutral_vf(u)
    return hostile(u, mover.side)


def is_combat(uid: str) -> bool:
    c = _c(uid)
    return bool(c and c.kind == "combat")


# --------------------------------------------------------------------------- movement along the FNA road


def move_refusal(eng: Engine, side: str, units: list[UnitState], to: str, moved: dict) -> str | None:
    if not offmap.fna_in_play(eng):
        return "French North Africa is out of play until ALC-23 (Torch Invasion) is played (22.7)"
    if side == AXIS:
        return "Axis units may not enter the FNA boxes (22.7)"
    if not units:
        return "no units named"
    here = units[0].loc
    road = offmap.fna_road()
    if any(u.loc != here for u in units):
        return "the units must start the move together"
    if here not in road or to not in road.get(here, {}):
        return f"{to} is not the next stop on the FNA road from {here} (22.7)"
    for u in units:
        if u.side != side or not (_c(u.id) and _c(u.id).kind in ("combat", "supply")):
            return f"{u.id} is not a {side} ground unit"
        if is_vf(u.id) and neutral_vf(u):
            return f"{u.id}: neutral Vichy French units may not move until the Vichy Accord (23.1 ALC-21 i)"
        if inactive_vf(eng.state, u):
            return f"{u.id}: Vichy French units are not active until ALC-23 is played (23.1 ALC-3 Important)"
    if not to.startswith("box:") and any(hostile(v, side) for v in eng.state.units_at(to)):
        return f"{to} holds enemy units"
    return None


def leg_cost(st: GameState, u: UnitState, here: str, to: str) -> int:
    """Eighths of MP for one leg of the FNA road (22.7: 14 hexes of primary road)."""
    from core.rules import status
    return int(offmap.fna_road()[here][to]) * tec.road_cost(status.tec_class(st, u))


@movement.movement_action(MOVE)
def act_fna_move(eng: Engine, frame: Frame, action: Action) -> None:
    """22.7: move a stack one leg of the FNA road (box to box, or between Orleansville and Algiers A6201)."""
    from core.rules import status
    side = frame.data.get("side", action.side)
    ids = [str(x) for x in (action.args.get("units") or [])]
    units = [eng.state.units[x] for x in ids if x in eng.state.units]
    to = str(action.args.get("to", ""))
    moved = frame.data.setdefault("moved", {})
    why = move_refusal(eng, side, units, to, moved) if len(units) == len(ids) else "unknown unit"
    if why:
        raise IllegalAction(why, "22.7")
    here = units[0].loc
    for u in units:
        cost = leg_cost(eng.state, u, here, to)
        if int(moved.get(u.id, 0)) + cost > status.movement_allowance(u) * tec.EIGHTH:
            raise IllegalAction(f"{u.id} needs {tec.mp(cost):g} MP for the 14 road hexes from {here} to {to} "
                                f"and has {tec.mp(status.movement_allowance(u) * tec.EIGHTH - int(moved.get(u.id, 0))):g} "
                                "left", "22.7; 13.1")
    for u in units:
        moved[u.id] = int(moved.get(u.id, 0)) + leg_cost(eng.state, u, here, to)
        u.loc = to
        u.reserve = False
    eng.say(f"{side} moves {', '.join(ids)} along the FNA road from {here} to {to} (22.7)")


@movement.movement_options
def fna_move_options(eng: Engine, frame: Frame, side: str) -> list[Option]:
    """A few sampled FNA road moves (one per stack and direction, at most three)."""
    from core.rules import status
    if side != ALLIED or not offmap.fna_in_play(eng):
        return []
    moved = frame.data.get("moved", {})
    road = offmap.fna_road()
    out: list[Option] = []
    for here in sorted(road):
        units = [u for u in eng.state.units_at(here) if u.side == ALLIED and not neutral_vf(u)
                 and not inactive_vf(eng.state, u) and _c(u.id) and _c(u.id).kind in ("combat", "supply")
                 and not u.flags.get("battle")]          # 14.9.1 / 14.9.2: a marked unit has completed its movement
        for to in sorted(road[here]):
            ok = [u for u in units if int(moved.get(u.id, 0)) + leg_cost(eng.state, u, here, to)
                  <= status.movement_allowance(u) * tec.EIGHTH]
            if ok and move_refusal(eng, side, ok, to, moved) is None:
                out.append(Option(action=Action(kind=MOVE, side=side, args={"units": [u.id for u in ok], "to": to}),
                                  label=f"Move {', '.join(u.id for u in ok)} along the FNA road to {to} (22.7)"))
            if len(out) >= 3:
                return out
    return out


# --------------------------------------------------------------------------- the Vichy French retreat


def retreat_choices(eng: Engine, uid: str) -> list[str]:
    """Where a VF unit forced to retreat may go: the next box or hex along the FNA road free of non-VF combat
    units (in a box, 22.7), or a legal one-hex retreat (14.7, on the map).  An Allied attacker retreating from a
    box (R-FNA-BOX-COMBAT) goes to the next stop free of units hostile to it (neutral VF, Axis)."""
    u = eng.state.units[uid]
    road = offmap.fna_road()
    if offmap.is_fna_box(u.loc):
        out = []
        for nxt in sorted(road.get(u.loc, {})):
            if neutral_vf(u) and any(not is_vf(v.id) and is_combat(v.id) for v in eng.state.units_at(nxt)):
                continue
            if not neutral_vf(u) and any(hostile(v, u.side) for v in eng.state.units_at(nxt)):
                continue
            out.append(nxt)
        return out
    if offmap.is_offmap(u.loc):
        return []
    from core.rules import combat
    return list(combat.legal_retreat_steps(eng.state, uid, [u.loc], 1))


@procedure("vichy_retreat")
class VichyRetreat(Procedure):
    """ALC-21 i) 4): the non-attacking player moves each VF unit forced to retreat (R-VICHY-RETREAT)."""

    def _todo(self, eng: Engine, frame: Frame) -> list[str]:
        done = frame.data.setdefault("done", [])
        return [u for u in frame.data.get("units", []) if u not in done and u in eng.state.units
                and eng.state.units[u].loc != offmap.REMOVED and not eng.state.units[u].loc.startswith("box:Destroyed")]

    def decide(self, eng: Engine, frame: Frame) -> Decision | None | object:
        todo = self._todo(eng, frame)
        if not todo:
            return None
        uid = todo[0]
        who = frame.data.get("chooser", AXIS)
        rule = frame.data.get("rule", "23.1 ALC-21 i 4")
        where = retreat_choices(eng, uid)
        if not where:
            from core.rules import combat
            frame.data["done"].append(uid)
            combat.lose_step(eng, uid, f"cannot retreat ({rule}; 14.7.1)")
            return CONTINUE
        opts = tuple(Option(action=Action(kind="vichy_retreat", side=who, args={"unit": uid, "to": w}),
                            label=f"Retreat {uid} to {w}") for w in where)
        whose = ("the non-attacking player chooses where" if is_vf(uid)
                 else "the owning player chooses where (R-FNA-BOX-COMBAT)")
        return Decision(side=who, kind="vichy_retreat",
                        prompt=f"{'The Vichy French ' if is_vf(uid) else ''}{uid} retreats from "
                               f"{eng.state.units[uid].loc}: {whose}", rule=rule, options=opts,
                        context={"unit": uid})

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        if action.kind != "vichy_retreat":
            return super().apply(eng, frame, action)
        rule = frame.data.get("rule", "23.1 ALC-21 i 4")
        who = frame.data.get("chooser", AXIS)
        todo = self._todo(eng, frame)
        uid, to = str(action.args.get("unit", "")), str(action.args.get("to", ""))
        if action.side != who:
            raise IllegalAction(f"The {who} player moves these retreating units", rule)
        if not todo or uid != todo[0]:
            raise IllegalAction(f"{uid} is not the Vichy French unit retreating now", rule)
        if to not in retreat_choices(eng, uid):
            raise IllegalAction(f"{uid} may not retreat to {to} (one box along the FNA road, or one hex, 14.7)",
                                rule)
        u = eng.state.units[uid]
        src = u.loc
        u.loc = to
        frame.data["done"].append(uid)
        eng.say(f"{who} retreats {'the Vichy French ' if is_vf(uid) else ''}{uid} from {src} to {to} ({rule}; 14.7)")


def start_vichy_retreat(eng: Engine, units: list[str], attacker_side: str, rule: str) -> None:
    """Push the retreat of ``units`` (VF), chosen by the non-attacking player (ALC-21 i 4)."""
    if units:
        eng.push("vichy_retreat", units=list(units), chooser=other(attacker_side), rule=rule, done=[])


def vichy_before_combat(eng: Engine, frame: Frame) -> bool:
    """ALC-21 i) 1)-4) for a combat on the map (``resolve_combat`` frame): consult the table when neutral VF
    units defend; unless the result is ``fight`` the combat is not resolved (stage ``finish``), and a
    ``retreat`` moves them (the non-attacking player).  True when the combat's stack changed."""
    from core.rules import events
    d = frame.data
    if d.get("vichy_checked"):
        return False
    d["vichy_checked"] = True
    st = eng.state
    vf = [u for u in d.get("defenders", []) if u in st.units and neutral_vf(st.units[u])]
    if not vf or not d.get("attackers"):
        return False
    res = events.vichy_reaction(eng, list(d["attackers"]), vf)
    d["vichy"] = res
    if res == "fight":
        return False
    d["stage"] = "finish"
    if res == "retreat":
        start_vichy_retreat(eng, [u for u in vf if u in st.units and st.units[u].loc not in (offmap.REMOVED,)],
                            d["side"], "23.1 ALC-21 i 4")
        return True
    return False


# --------------------------------------------------------------------------- combat in the FNA boxes (22.7)


def box_attacks(eng: Engine, done: list[str]) -> list[tuple[str, list[str], list[str]]]:
    """(box, Allied attackers, neutral VF defenders) for each FNA box where the Allies may attack now."""
    from core.rules import combat
    out = []
    for loc in sorted(offmap.fna_boxes()):
        if loc in done:
            continue
        here = eng.state.units_at(loc)
        vf = sorted(u.id for u in here if neutral_vf(u) and is_combat(u.id))
        att = sorted(u.id for u in here if u.side == ALLIED and not is_vf(u.id) and is_combat(u.id)
                     and combat.may_attack(eng.state, u.id) is None)
        if vf and att:
            out.append((loc, att, vf))
    return out


def resolve_box_fight(eng: Engine, loc: str, att: list[str], vf: list[str]) -> dict[str, Any]:
    """R-FNA-BOX-COMBAT: a ``fight`` result in a box is resolved on the CRT on line 1 (the boxes have no
    terrain), without support, the attackers in combat supply; then ``fna_box_fight`` takes the 14.6 losses as
    decisions (``combat.loss_decision``: the VF defender's by the Axis player, R-VICHY-DEFENDER) and the retreats."""
    from core import charts
    st = eng.state

    def cf(uids: list[str]) -> int:
        tot = 0
        for u in uids:
            c = _c(u)
            if c is not None and not c.cf_paren:
                tot += c.values(st.units[u].steps)[0]
        return tot

    a, dfn = cf(att), max(1, cf(vf))
    base = charts.crt_column(a, dfn, 1)
    die = eng.roll(1, f"combat in the {loc} box ({a}:{dfn}, 22.7)")[0]
    dcol, acol = charts.final_columns(base, die)
    morale = max(_c(u).values(st.units[u].steps)[1] for u in vf)
    dres, ares = charts.crt_result(dcol, morale), charts.attacker_result(acol, True)
    dsteps = sum(st.units[u].steps * (2 if _c(u).divisional else 1) for u in vf)
    dlost = charts.round_steps(charts.steps_lost(dres, dsteps))
    eng.say(f"Combat in the {loc} box: defender {dres}, attacker {ares} (22.7; 14.5)")
    out = {"box": loc, "defender": dres, "attacker": ares}
    eng.push("fna_box_fight", box=loc, attackers=list(att), vf=list(vf), dres=dres, ares=ares, stage="loss_def",
             loss={"owner": AXIS, "pool": list(vf), "hit": [], "need": dlost, "done": 0, "first": True, "which": "def",
                   "name": "The Vichy French (the Axis player decides, R-VICHY-DEFENDER)"})
    return out


@procedure("fna_box_fight")
class FnaBoxFight(Procedure):
    """R-FNA-BOX-COMBAT: the losses (14.6, as on the map: ``combat.loss_decision`` / ``combat.take_loss``; the
    Axis player is the owner of the neutral VF defenders, R-VICHY-DEFENDER) and retreats (one leg of the FNA road,
    ``vichy_retreat``) of a combat in an FNA box."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None | object:
        from core import charts
        from core.rules import combat
        st = eng.state
        d = frame.data
        if d["stage"] in ("loss_def", "loss_att"):
            L = d["loss"]
            picks = combat.legal_loss_picks(st, L["pool"], L["hit"], L["need"] - L["done"], L["first"])
            if picks and L["done"] < L["need"]:
                return combat.loss_decision(st, L, picks, {"box": d["box"], "attackers": d["attackers"],
                                                           "defenders": d["vf"]})
            if d["stage"] == "loss_def":
                d["vf_steps_lost"] = L["done"]
                asteps = sum(st.units[u].steps * (2 if _c(u).divisional else 1)
                             for u in d["attackers"] if not combat.gone(st, u))
                need = charts.round_steps(charts.steps_lost(d["ares"], asteps, enemy_losses=L["done"]))
                d["loss"] = {"owner": ALLIED, "pool": [u for u in d["attackers"] if not combat.gone(st, u)],
                             "hit": [], "need": need, "done": 0, "first": True, "which": "att"}
                d["stage"] = "loss_att"
                return CONTINUE
            d["allied_steps_lost"] = L["done"]
            d["stage"] = "retreat"
            return CONTINUE
        if d["stage"] == "retreat":
            d["stage"] = "over"
            loc = d["box"]
            ar = charts.decode_result(d["ares"]).retreat
            if ar in ("w", "r"):            # 14.7.1: the attackers retreat one leg of the road (r: disrupted too)
                live = [u for u in d["attackers"] if u in st.units and st.units[u].loc == loc]
                if ar == "r":
                    for u in live:
                        combat._disrupt(eng, u, "rout (14.7.1)")
                if live:
                    eng.push("vichy_retreat", units=live, chooser=ALLIED, rule="14.7; 22.7; R-FNA-BOX-COMBAT", done=[])
            elif ar == "m":                 # 14.5 m: no room to withdraw 1-3 hexes in a box: the morale check
                from core.rules import special_units as su
                for u in [u for u in d["attackers"] if u in st.units and st.units[u].loc == loc]:
                    if not combat._roll_morale(eng, u, su.effective_morale(st, u, combat_supplied=True, desert=False),
                                               "m result in an FNA box, 14.5"):
                        combat._disrupt(eng, u, "failed morale check (14.5, 8.1)")
            if charts.decode_result(d["dres"]).retreat is not None:
                live = [u for u in d["vf"] if u in st.units and st.units[u].loc == loc]
                start_vichy_retreat(eng, live, ALLIED, "22.7; 23.1 ALC-21 i 4")
            return CONTINUE
        return None

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        from core.rules import combat
        if action.kind != "lose_step" or frame.data["stage"] not in ("loss_def", "loss_att"):
            return super().apply(eng, frame, action)
        combat.take_loss(eng, frame.data["loss"], str(action.args.get("unit", "")))


@procedure("fna_box_combat")
class FnaBoxCombat(Procedure):
    """22.7: before the Allied player's Combat Phase attacks, combat in the FNA boxes (Allied attacks on
    neutral Vichy French units only), each box at most once per Combat Phase."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        if eng.phasing_side() != ALLIED or frame.data.get("done") or not offmap.fna_in_play(eng):
            return None
        todo = box_attacks(eng, frame.data.setdefault("boxes", []))
        if not todo:
            return None
        opts = [Option(action=Action(kind="done", side=ALLIED), label="No (more) attacks in the FNA boxes")]
        opts += [Option(action=Action(kind="fna_box_attack", side=ALLIED, args={"box": loc, "attackers": att}),
                        label=f"Attack the Vichy French in the {loc} box ({', '.join(vf)}) with {', '.join(att)}")
                 for loc, att, vf in todo]
        return Decision(side=ALLIED, kind="fna_box_combat", prompt="Combat in the French North Africa boxes (22.7)",
                        rule="22.7; 23.1 ALC-21 i", options=tuple(opts))

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        from core.rules import events
        if action.kind == "done":
            frame.data["done"] = True
            return
        if action.kind != "fna_box_attack":
            return super().apply(eng, frame, action)
        loc = str(action.args.get("box", ""))
        avail = {b: (att, vf) for b, att, vf in box_attacks(eng, frame.data.setdefault("boxes", []))}
        if loc not in avail:
            raise IllegalAction(f"No Allied attack on neutral Vichy French units is possible in {loc} now "
                                "(22.7: Allied attacks on VF units only, each box once per phase)", "22.7")
        att = [str(x) for x in (action.args.get("attackers") or avail[loc][0])]
        if not att or any(x not in avail[loc][0] for x in att):
            raise IllegalAction(f"The attackers must be Allied combat units in {loc} that may attack", "22.7; 14.2")
        vf = avail[loc][1]
        frame.data["boxes"].append(loc)
        eng.say(f"The Allies attack the Vichy French in the {loc} box with {', '.join(att)} (22.7)")
        res = events.vichy_reaction(eng, att, vf)       # ALC-21 i 1)-3): before resolving the combat
        if res == "retreat":
            start_vichy_retreat(eng, vf, ALLIED, "23.1 ALC-21 i 4")
        elif res == "fight":
            resolve_box_fight(eng, loc, att, vf)


for _k in COMBAT_STEPS:
    before_step(_k, "fna_box_combat")


QUERIES["fna_box_attacks"] = lambda eng: [{"box": b, "attackers": a, "vf": v} for b, a, v in box_attacks(eng, [])]
