"""14.9 Special combat forms and other combat situations.

* deliberate battle (14.9.1) and mobile battle (14.9.2): the battle marker placed in the Movement Phase on a
  unit that spent no more than its RMA (``battle_marker``, :func:`battle_marker_refusal`), who may declare
  them (:func:`check_form`); their arithmetic (doubling, extra artillery) lives in ``special_units`` and ``combat``;
* exploitation (14.9.3): flagged in the combat outcome for the movement rules (RMA moves);
* overrun combat (13.4.4): eligibility (:func:`overrun_refusal`); the combat itself is
  ``resolve_combat`` with ``form="overrun"``;
* recon superiority (15.3): :func:`recon_superiority` via ``special_units``;
* amphibious and SF landings (15.4, 20.5): ``resolve_combat`` with ``form="amphibious"`` and
  :func:`amphibious_failure`;
* oasis track combat (16.3): :func:`oasis_effects` (pure) and the ``oasis_combat`` procedure;
* surprise (6.2) is a general shift (``combat.general_shifts``); winter and Ghibli random shifts
  (21.1.1, 21.2.1): :func:`weather_shifts`.
"""

from __future__ import annotations

from typing import Any

from core import charts
from core.decisions import Action, Decision, IllegalAction, Option, other
from core.engine import PROCEDURES, Engine, Procedure, at_phase_end, procedure
from core.rules import movement, tec
from core.rules import special_units as su
from core.rules.special_units import info
from core.state import Frame, GameState

# =========================================================================== 14.9.1 / 14.9.2


def _hostile(v: Any, side: str) -> bool:
    from core.rules import fna
    return fna.hostile(v, side)   # the other side, or neutral Vichy French for the Allies (R-VICHY-NEUTRAL)


def check_form(st: GameState, side: str, attackers: list[str], hexes: list[str], form: str) -> None:
    """Refuse a deliberate or mobile battle whose prerequisites are not met (14.9.1, 14.9.2)."""
    from core.rules import combat

    if form == "regular":
        return
    if len(hexes) != 1:
        raise IllegalAction(f"only one hex may be attacked in a {form} battle", "14.9.1" if form == "deliberate" else "14.9.2")
    for u in attackers:
        if st.units[u].flags.get("battle") != form:
            raise IllegalAction(f"{u} has no {form} battle marker: attackers must have moved no more than their RMA "
                                f"and been marked in the Movement Phase", "14.9.1" if form == "deliberate" else "14.9.2")
    if form == "deliberate":
        for u in attackers:
            if st.units[u].ogs or st.units[u].isolated:
                raise IllegalAction(f"{u} is not in general supply: every attacker in a deliberate battle must be", "14.9.1")
    if form == "mobile":
        h = hexes[0]
        if combat.obstructed(st, h):
            raise IllegalAction(f"{h} is a fortified, city or mountain hex: no mobile battle", "14.9.2")
        for u in attackers:
            if not su.is_mobile(st, u):
                raise IllegalAction(f"{u} is not mobile: only mobile units attack in a mobile battle", "14.9.2")


BATTLE_KIND = "battle_marker"
FORM_RULE = {"deliberate": "14.9.1", "mobile": "14.9.2"}
COMBAT_PHASES = (8, 11, 14, 17)          # 4.1 VIII, XI, XIV, XVII


def battle_marker_refusal(eng: Engine, frame: Frame, side: str, uid: str, form: str) -> str | None:
    """14.9.1 / 14.9.2: "Attacking units are limited to their RMA in the preceding Movement Phase. Mark them with
    deliberate [mobile] battle markers when their movement is completed."  A combat unit of the phasing player on
    the map that has spent no more than its RMA (13.2.1: a quarter of the printed MA for motorised units, one hex
    for the others) this phase; a mobile battle marker only on a mobile unit
    ("Only mobile units may attack", 15.6 HQ included); a deliberate one only on a unit in GenS (determined at
    step 1, 12.5: "All attacking units must be in GenS")."""
    from core.rules import status

    st = eng.state
    if form not in FORM_RULE:
        return f"{form!r} is not a special form of combat with a marker (deliberate or mobile)"
    u = st.units.get(uid)
    if u is None or u.side != side:
        return f"{uid} is not a {side} unit"
    if status.hex_of(u) is None:
        return f"{uid} is not on the map"
    if not info(st, uid).is_combat:
        return f"{uid} is not a combat unit: only combat units attack (14.0)"
    if u.flags.get("battle"):
        return f"{uid} already has a {u.flags['battle']} battle marker: its movement is completed"
    spent = frame.data.get("moved", {}).get(uid, 0)
    if status.is_motorized(u):
        if spent > status.rma(u) * tec.EIGHTH:
            return (f"{uid} has spent {tec.mp(spent):g} MP, more than its RMA ({status.rma(u)}): attackers in a "
                    f"{form} battle are limited to their RMA")
    elif spent and frame.data.get("hexes", {}).get(uid, 99) > 1:
        # 13.2.1: the RMA of a non-motorised unit is one hex (a unit carried by truck, rail, sea or air has
        # moved without a hex count, so beyond it)
        return f"{uid} has moved more than one hex, its RMA (13.2.1): attackers in a {form} battle are limited to their RMA"
    if form == "mobile" and not su.is_mobile(st, uid):
        return f"{uid} is not mobile: only mobile units attack in a mobile battle"
    if form == "deliberate" and (u.ogs or u.isolated):
        return f"{uid} is not in GenS: all attacking units in a deliberate battle must be"
    return None


@movement.movement_action(BATTLE_KIND)
def act_battle_marker(eng: Engine, frame: Frame, action: Action) -> None:
    """4.1 VI.3: mark units with a deliberate or mobile battle marker (14.9.1, 14.9.2); their movement is
    completed (the movement procedure refuses any further move of a marked unit)."""
    side = frame.data.get("side", action.side)
    form = str(action.args.get("form", ""))
    units = [str(u) for u in action.args.get("units") or []]
    if not units:
        raise IllegalAction("name the units to mark", FORM_RULE.get(form, "14.9"))
    for uid in units:
        why = battle_marker_refusal(eng, frame, side, uid, form)
        if why:
            raise IllegalAction(why, FORM_RULE.get(form, "14.9"))
    moved = frame.data.setdefault("moved", {})
    for uid in units:
        u = eng.state.units[uid]
        u.flags = dict(u.flags) | {"battle": form}
        moved[uid] = moved.get(uid, 0)                       # its movement is completed: no longer a free unit
    eng.say(f"{', '.join(units)} receive {form} battle markers: their movement is completed ({FORM_RULE[form]})")


@movement.movement_options
def battle_marker_options(eng: Engine, frame: Frame, side: str, limit: int = 4) -> list[Option]:
    """A few enumerable markers: units next to an enemy stack that may still be marked (any legal unit is accepted)."""
    from core.rules import combat

    st = eng.state
    out: list[Option] = []
    near_enemy: dict[str, bool] = {}                   # per hex: the units of one stack share the answer
    for u in sorted(st.units_of(side), key=lambda x: x.id):
        if len(out) >= limit:
            break
        if u.flags.get("battle") or movement.hex_of(u) is None:
            continue
        if u.loc not in near_enemy:
            near_enemy[u.loc] = bool(combat.enemy_hexes_adjacent(st, side, u.loc))
        if not near_enemy[u.loc]:
            continue
        for form in ("deliberate", "mobile"):
            if battle_marker_refusal(eng, frame, side, u.id, form) is None:
                out.append(Option(action=Action(kind=BATTLE_KIND, side=side, args={"units": [u.id], "form": form}),
                                  label=f"{form.title()} battle marker on {info(st, u.id).name or u.id} "
                                        f"({FORM_RULE[form]})",
                                  hint="The unit moves no further this phase and may attack in a "
                                       f"{form} battle in the Combat Phase"))
    return out


def battle_marked(st: GameState, ids: list[str]) -> str | None:
    """14.9.1 / 14.9.2: a unit marked for a special form of combat has completed its movement."""
    for uid in ids:
        u = st.units.get(uid)
        if u is not None and u.flags.get("battle"):
            return uid
    return None


@at_phase_end
def remove_battle_markers(eng: Engine, phase: int) -> None:
    """The markers serve the Combat Phase that follows the Movement Phase that placed them (14.9.1, 14.9.2)."""
    if phase not in COMBAT_PHASES:
        return
    for u in eng.state.units.values():
        if "battle" in u.flags:
            u.flags = {k: v for k, v in u.flags.items() if k != "battle"}


# =========================================================================== 15.3 recon superiority


def check_recon_split(st: GameState, side: str, attackers: list[str], hexes: list[str]) -> None:
    """15.3: the attacker has recon superiority over one defending stack that may be split (a)."""
    from core.rules import combat

    if len(hexes) != 1:
        raise IllegalAction("recon superiority double attacks are made against a stack in a single hex", "15.3")
    h = hexes[0]
    defenders = [v.id for v in st.units_at(h) if _hostile(v, side) and info(st, v.id).is_combat]
    if su.recon_superiority(st, attackers, defenders) != "attacker":
        raise IllegalAction("the attackers do not have recon superiority (more undisrupted recon CF)", "15.3")
    if not su.recon_split_possible(st, defenders, combat.obstructed(st, h)):
        raise IllegalAction("the stack must hold two non-zero, non-parenthesised units outside a fort, city or "
                            "mountain hex (15.3 a)", "15.3")
    if sum(1 for u in attackers if info(st, u).real_cf) < 2:
        raise IllegalAction("both parts must be attacked: two attacking units with a real CF are needed (15.3 c)", "15.3")


def recon_splits(st: GameState, defenders: list[str]) -> list[list[str]]:
    """15.3 b): the ways to divide the stack in two, each part with a non-zero, non-parenthesised unit;
    part one always holds the first unit (by id), so each division is listed once."""
    ds = sorted(defenders)
    out = []
    first, rest = ds[0], ds[1:]
    for mask in range(2 ** len(rest)):
        a = [first] + [u for k, u in enumerate(rest) if mask >> k & 1]
        b = [u for u in ds if u not in a]
        if b and any(info(st, u).real_cf for u in a) and any(info(st, u).real_cf for u in b):
            out.append(a)
    return out


def recon_decide(eng: Engine, frame: Frame) -> Decision | object:
    """The CombatPhase's 15.3 sub-steps: the defender divides the stack, the attacker apportions his
    units to the two parts (each part attacked by a unit with a real CF, parenthesised units with a
    stacked real one), then the two combats are resolved, part one first."""
    from core.engine import CONTINUE
    from core.rules import combat

    st = eng.state
    d = frame.data
    r = d["recon"]
    c = d["combats"][r["k"]]
    side, enemy = d["side"], other(d["side"])
    h = c["hexes"][0]
    if r["stage"] == "split":
        defenders = [v.id for v in st.units_at(h) if _hostile(v, side) and info(st, v.id).is_combat]
        splits = recon_splits(st, defenders)
        if not splits:                  # the stack changed since the declaration: one ordinary combat
            c.pop("recon", None)
            d.pop("recon")
            eng.push("resolve_combat", attackers=list(c["attackers"]), hexes=[h], form=c["form"], side=side,
                     index=r["k"], attacked_hexes=combat.attacked_hexes(d["combats"]))
            return CONTINUE
        return Decision(side=enemy, kind="combat_recon_split", rule="15.3",
                        prompt=f"Recon superiority: divide the stack in {h} into two parts (15.3 b)",
                        options=tuple(Option(action=Action(kind="recon_split", side=enemy, args={"part": a}),
                                             label=f"Part 1: {', '.join(a)} / part 2: the rest") for a in splits),
                        context={"hex": h, "defenders": defenders})
    if r["stage"] == "assign":
        todo = [u for u in r["order"] if u not in r["assign"]]
        if not todo:
            r["stage"] = "run1"
            return _recon_push(eng, frame, 1)
        u = todo[0]
        opts = [Option(action=Action(kind="recon_assign", side=side, args={"unit": u, "part": p}),
                       label=f"{info(st, u).name or u} attacks part {p} ({', '.join(r['parts'][p - 1])})")
                for p in _assignable(st, r, u)]
        return Decision(side=side, kind="combat_recon_assign", rule="15.3",
                        prompt=f"Recon superiority: which part of the stack in {h} does {info(st, u).name or u} attack? (15.3 c)",
                        options=tuple(opts), context={"hex": h, "parts": r["parts"], "assign": r["assign"]})
    return None


def _assignable(st: GameState, r: dict[str, Any], u: str) -> list[int]:
    real = [x for x in r["order"] if info(st, x).real_cf]
    out = []
    for p in (1, 2):
        if not info(st, u).real_cf:
            # 14.2: a parenthesised unit attacks with a stacked unit with a real CF
            if any(r["assign"].get(x) == p and st.units[x].loc == st.units[u].loc for x in real):
                out.append(p)
            continue
        trial = dict(r["assign"]) | {u: p}
        left = [x for x in real if x not in trial]
        lacking = [q for q in (1, 2) if not any(trial.get(x) == q for x in real)]
        if len(lacking) <= len(left):
            out.append(p)
    return out


def recon_apply(eng: Engine, frame: Frame, action: Action) -> None:
    st = eng.state
    d = frame.data
    r = d.get("recon")
    if r is None:
        raise IllegalAction("no recon superiority attack is being resolved", "15.3")
    c = d["combats"][r["k"]]
    h = c["hexes"][0]
    if action.kind == "recon_split" and r["stage"] == "split":
        a = sorted(action.args.get("part") or [])
        defenders = [v.id for v in st.units_at(h) if _hostile(v, d["side"]) and info(st, v.id).is_combat]
        if a not in recon_splits(st, defenders):
            raise IllegalAction("each part must hold at least one non-zero, non-parenthesised unit (15.3 b)", "15.3")
        r["parts"] = [a, sorted(u for u in defenders if u not in a)]
        atts = sorted(c["attackers"], key=lambda x: (not info(st, x).real_cf, x))
        r["order"] = atts
        r["assign"] = {}
        r["stage"] = "assign"
        eng.say(f"{action.side} divides the stack in {h}: {', '.join(r['parts'][0])} / {', '.join(r['parts'][1])} (15.3)")
        return
    if action.kind == "recon_assign" and r["stage"] == "assign":
        u, p = action.args.get("unit"), action.args.get("part")
        todo = [x for x in r["order"] if x not in r["assign"]]
        if not todo or u != todo[0] or p not in _assignable(st, r, u):
            raise IllegalAction("both parts must be attacked by a unit with a real CF; parenthesised units attack "
                                "with a stacked unit (15.3 c, 14.2)", "15.3")
        r["assign"][u] = p
        return
    raise IllegalAction(f"{action.kind} is not expected now", "15.3")


def _recon_push(eng: Engine, frame: Frame, part: int) -> object:
    from core.engine import CONTINUE
    from core.rules import combat

    st = eng.state
    d = frame.data
    r = d["recon"]
    c = d["combats"][r["k"]]
    atts = [u for u in r["order"] if r["assign"].get(u) == part and not combat.gone(st, u)
            and combat.hex_of(st.units[u].loc) is not None]
    defs = [u for u in r["parts"][part - 1] if u in st.units and st.units[u].loc == c["hexes"][0]]
    if not atts or not defs:
        eng.say(f"Recon superiority part {part}: nothing left to fight (15.3)")
        return recon_resume(eng, frame, None) or CONTINUE
    eng.push("resolve_combat", attackers=atts, hexes=list(c["hexes"]), form=c["form"], side=d["side"],
             index=r["k"], recon_part=part, only_defenders=defs, attacked_hexes=combat.attacked_hexes(d["combats"]))
    return CONTINUE


def recon_resume(eng: Engine, frame: Frame, child: Frame | None) -> None:
    d = frame.data
    r = d["recon"]
    c = d["combats"][r["k"]]
    if child is not None:
        c.setdefault("outcomes", []).append(child.data.get("outcome", {}))
    if r["stage"] == "run1":
        r["stage"] = "run2"
        _recon_push(eng, frame, 2)
        return
    c["resolved"] = True
    c["outcome"] = (c.get("outcomes") or [{}])[-1]
    d.pop("recon")


# =========================================================================== 13.4 overrun


def overrun_refusal(st: GameState, movers: list[str], label: str) -> str | None:
    """13.4.1 / 13.4.2: why ``movers`` may not overrun ``label`` (None if they may).  For the
    movement rules, which push ``resolve_combat`` with ``form="overrun"``."""
    from core.rules import combat, fna
    from core.rules.status import nonzero_factor

    defenders = [u for u in st.units_at(label) if _hostile(u, st.units[movers[0]].side)]
    if not defenders:
        return "no enemy unit to overrun (13.4)"
    if any(fna.neutral_vf(u) for u in defenders):
        return (f"{label} holds neutral Vichy French units: they may only be attacked in the Combat Phase, after the "
                "Vichy French Reaction Table (22.7 Important; 23.1 ALC-21 i; R-VICHY-NEUTRAL)")
    if combat.obstructed(st, label):
        return f"{label} is a mountain, city or fortified hex and cannot be overrun (13.4.2)"
    enemy = defenders[0].side
    friends = [s for s in combat.zoc_sources(st, enemy, label) if st.units[s].loc != label]
    if friends:
        return f"{label} is in the ZOC of {friends[0]}, friendly to the defenders: no overrun (13.4.2)"
    real = any(nonzero_factor(v) for v in defenders)                   # 13.4.1, one definition
    for u in movers:
        us = st.units[u]
        if us.ogs or us.isolated:
            return f"{u} is out of general supply and may not overrun (13.4.1)"
        if us.disrupted:
            return f"{u} is disrupted and may not overrun (8.2b)"
        if us.flags.get("transported"):
            return f"{u} is carried by an MSU and cannot take part in an overrun (13.4.1)"
        if real and not info(st, u).motorized:
            return f"{u} is not motorized: only motorized units overrun combat units with a non-zero factor (13.4.1)"
    return None


# =========================================================================== 21.x weather


def weather_shifts(eng: Engine, hexes: list[str], attacker_hexes: list[str]) -> list[tuple[int, str]]:
    """21.1.1 / 21.2.1: a random column shift (1d6 on the Combat Modifiers Chart) for attacks into
    winter hexes (or across a winter wadi) or Ghibli-affected hexes.  Rolled once per attack."""
    from core.rules import combat

    st = eng.state
    out: list[tuple[int, str]] = []
    if any(combat.winter_hex(st, h, attacker_hexes) for h in hexes):
        die = eng.roll(1)[0]
        out.append((charts.weather_shift("winter", die), f"winter random shift, die {die} (21.1.1)"))
    if any(combat.ghibli_hex(st, h) for h in hexes):
        die = eng.roll(1)[0]
        out.append((charts.weather_shift("ghibli", die), f"Ghibli random shift, die {die} (21.2.1)"))
    for n, why in out:
        eng.say(f"{n:+d} column(s): {why}")
    return out


# =========================================================================== 20.5 / 15.4 landings

PORT_BOXES = "box:PortBoxes:"          # units shipped into the port boxes of an enemy port (20.5): box:PortBoxes:<hex>
TORCH, TORCH_EAST = "box:Torch", "box:TorchEast"


def landing_area(box: str, label: str) -> bool:
    """20.2.5 / 20.2.6: the ports the Torch boxes may land in (Torch: Algiers A6201 on the map;
    Torch East: Map A from A6111 east, Map T from T6017 west); a port-boxes loc lands in its own hex."""
    if box == PORT_BOXES + label:
        return True
    if box == TORCH:
        return label == "A6201"
    if box == TORCH_EAST:
        return (label[:1] == "A" and int(label[-2:]) >= 11) or (label[:1] == "T" and int(label[-2:]) <= 17)
    return False


def check_amphibious(st: GameState, side: str, combats: list[dict[str, Any]], attackers: list[str], hexes: list[str]) -> None:
    """20.5: an opposed port landing declared in the friendly Combat Phase."""
    from core.rules import combat, special_forces

    if len(hexes) != 1:
        raise IllegalAction("an amphibious landing attacks one port hex", "20.5")
    h = hexes[0]
    hx = combat.hex_of(h)
    # 15.4: SF that sailed for this hex in the Movement Phase land on any coastal hex, enemy-occupied or empty
    sf_staged = bool(attackers) and all(u in st.units and special_forces.staged_for(st, u, h) for u in attackers)
    if sf_staged:
        if not combat.coastal(h):
            raise IllegalAction(f"{h} is not a coastal hex", "15.4")
    elif hx is None or hx not in combat.gmap().ports:
        raise IllegalAction(f"{h} is not a port: opposed landings are made in ports (20.5; SF: 15.4)", "20.5")
    elif not any(_hostile(v, side) and info(st, v.id).kind in ("combat", "supply") for v in st.units_at(h)):
        raise IllegalAction(f"{h} holds no enemy unit: the units land normally (20.5)", "20.5")
    steps = 0
    for u in attackers:
        if u not in st.units or st.units[u].side != side:
            raise IllegalAction(f"{u} is not a {side} unit", "20.5")
        if any(u in c["attackers"] for c in combats):
            raise IllegalAction(f"{u} already attacks in another combat", "14.2")
        i = info(st, u)
        if not i.is_combat or not i.real_cf:
            raise IllegalAction(f"{u}: only combat units with a non-zero, non-parenthesised CF land opposed", "20.5")
        if not sf_staged and st.units[u].loc != PORT_BOXES + h and not (i.sf and st.units[u].loc.startswith("box:")):
            raise IllegalAction(f"{u} in {st.units[u].loc} cannot land in {h}: the landing is made from the port "
                                f"boxes of {h} (20.5 \"conducts a standard combat from the port boxes\"; 20.1, 20.2.5, "
                                "20.2.6)", "20.5")
        steps += i.steps
    limit = combat.charts.stacking_limit(city=combat.is_city(h))
    if steps > limit:
        raise IllegalAction(f"{steps} steps exceed the stacking limit of {h} ({limit}): the most that may land", "20.5")


def _landing_option(st: GameState, side: str, combats: list[dict[str, Any]], pick: list[str], h: str,
                    label: str) -> list[Option]:
    """The declaration of ``pick`` landing on ``h`` when :func:`check_amphibious` accepts it (else none)."""
    try:
        check_amphibious(st, side, combats, pick, [h])
    except IllegalAction:
        return []
    return [Option(action=Action(kind="declare", side=side, args={"attackers": pick, "hexes": [h], "form": "amphibious"}),
                   label=label)]


def sf_landing_offered(st: GameState, side: str, combats: list[dict[str, Any]], units: list[str], h: str) -> bool:
    """:func:`amphibious_options` offers the 15.4 landing of the staged ``units`` on ``h`` (those not yet attacking)."""
    busy = {u for c in combats for u in c["attackers"]}
    pick = [u for u in units if u not in busy]
    return bool(pick) and not any(h in c["hexes"] for c in combats) and bool(
        _landing_option(st, side, combats, pick, h, ""))


def amphibious_options(st: GameState, side: str, combats: list[dict[str, Any]]) -> list[Option]:
    """One enumerable landing per staging box and enemy port: its units by id up to the stacking limit."""
    from core.rules import combat, special_forces

    busy = {u for c in combats for u in c["attackers"]}
    out: list[Option] = []
    for h, units in sorted(special_forces.staged(st, side).items()):      # 15.4: the SF landings declared
        pick = [u for u in units if u not in busy]
        if not pick or any(h in c["hexes"] for c in combats):
            continue
        out += _landing_option(st, side, combats, pick, h, f"Special forces landing on {h} with {', '.join(pick)} (15.4, 20.5)")
    by_box: dict[str, list[str]] = {}
    for u in sorted(st.units.values(), key=lambda x: x.id):
        if u.side == side and u.id not in busy and u.loc.startswith(PORT_BOXES) \
                and info(st, u.id).is_combat and info(st, u.id).real_cf:
            by_box.setdefault(u.loc, []).append(u.id)
    if not by_box:
        return out
    ports = sorted(h.label for h in combat.gmap().ports)
    for box, units in sorted(by_box.items()):
        for h in ports:
            if not landing_area(box, h) or any(h in c["hexes"] for c in combats):
                continue
            limit = combat.charts.stacking_limit(city=combat.is_city(h))
            pick, n = [], 0
            for u in units:
                if n + info(st, u).steps <= limit:
                    pick.append(u)
                    n += info(st, u).steps
            out += _landing_option(st, side, combats, pick, h, f"Amphibious landing on {h} with {', '.join(pick)} (20.5)")
    return out


def return_to_origin(eng: Engine, attackers: list[str], origin: dict[str, str]) -> None:
    from core.rules import combat

    st = eng.state
    for u in attackers:
        if u in st.units and not combat.gone(st, u):
            st.units[u].loc = origin.get(u, st.units[u].loc)
            eng.say(f"{info(st, u).name or u} returns to {st.units[u].loc} (20.5)")


def amphibious_failure(eng: Engine, attackers: list[str], origin: dict[str, str]) -> int:
    """20.5: if the port is not cleared, the surviving attackers suffer an H result and return to
    their point of origin.  Returns the steps lost.  (``resolve_combat`` with ``form="amphibious"``
    runs this with the 14.6 step choices; this helper is for callers outside a combat.)"""
    from core.rules import combat

    st = eng.state
    alive = [u for u in attackers if u in st.units and not combat.gone(st, u)]
    need = su.round_half_up(sum((combat.loss_fraction("H", info(st, u).counted_steps) for u in alive), start=0))
    lost = 0
    for u in sorted(alive, key=lambda x: (-st.units[x].steps, x)):
        if lost >= need:
            break
        lost += combat.lose_step(eng, u, "failed amphibious assault, H result (20.5)")
    return_to_origin(eng, alive, origin)
    return lost


# =========================================================================== 16.3 oasis track combat


def oasis_effects(failures: int, cf: int, disrupted: bool) -> str:
    """16.3: the effect of ``failures`` failed morale checks on a unit: ``none``, ``disrupt``,
    ``retreat``, ``disrupt_retreat`` or ``eliminate``.  A unit with a CF above zero ignores the
    first failure (a)."""
    f = failures - (1 if cf > 0 and failures > 0 else 0)
    if f <= 0:
        return "none"
    if f >= 3:
        return "eliminate"
    if f == 2:
        return "eliminate" if disrupted else "disrupt_retreat"
    return "retreat" if disrupted else "disrupt"


def oasis_dice(st: GameState, attackers: list[str]) -> int:
    """16.3: one die per combat factor of the attacking units, at least one per unit."""
    return sum(max(1, info(st, u).cf) for u in attackers)


@procedure("oasis_combat")
class OasisCombat(Procedure):
    """16.3: attack from an oasis box; data ``{"attackers": [...], "box": id, "from": box entered from}``.

    Every die is a morale check against one enemy unit (the attacker assigns them); survivors that did
    not retreat counter-attack once (e).  Retreats go to the next box chosen by the owner, never towards
    the box the attacker came from.
    """

    def enter(self, eng: Engine, frame: Frame) -> None:
        st = eng.state
        d = frame.data
        side = st.units[d["attackers"][0]].side
        d["side"] = side
        d["targets"] = sorted(u.id for u in st.units_at(d["box"]) if u.side != side and info(st, u.id).kind == "combat")
        d["round"] = 1

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        d = frame.data
        if d.get("done") or not d["targets"]:
            return None
        side = d["side"]
        return Decision(side=side, kind="oasis_combat", prompt="Roll the oasis track combat dice (16.3)", rule="16.3",
                        options=(Option(action=Action(kind="oasis_roll", side=side), label="Roll"),))

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        if action.kind != "oasis_roll":
            super().apply(eng, frame, action)
        self._exchange(eng, frame.data, frame.data["attackers"], frame.data["targets"], counter=False)
        frame.data["done"] = True

    def _exchange(self, eng: Engine, d: dict[str, Any], att: list[str], tgt: list[str], counter: bool) -> None:
        st = eng.state
        alive = [u for u in tgt if u in st.units and st.units[u].loc == d["box"]]
        if not alive:
            return
        n = oasis_dice(st, att)
        fails: dict[str, int] = {u: 0 for u in alive}
        for k in range(n):
            u = alive[k % len(alive)]   # dice spread evenly over the enemy units (ruling R-C-OASIS-DICE)
            die = eng.roll(1)[0]
            m = su.effective_morale(st, u)
            ok = die != 6 and die + m <= 6
            eng.say(f"Oasis combat die {die} against {info(st, u).name} (morale {m}): {'passes' if ok else 'fails'} (16.3, 8.1)")
            if not ok:
                fails[u] += 1
        survivors = []
        from core.rules import combat

        for u, f in fails.items():
            eff = oasis_effects(f, info(st, u).cf, st.units[u].disrupted)
            if eff == "eliminate":
                combat.eliminate(eng, u, "oasis track combat (16.3)")
            elif eff in ("disrupt", "disrupt_retreat", "retreat"):
                st.units[u].disrupted = True
                if eff != "disrupt":
                    if combat.chad_pulls_back(eng, u):      # 16.1: Chad retreats off the map
                        continue
                    nxt = [b for b in st.vars.get("oasis_links", {}).get(d["box"], []) if b != d.get("from")]
                    if nxt:
                        st.units[u].loc = sorted(nxt)[0]
                        eng.say(f"{info(st, u).name} retreats to {st.units[u].loc} (16.3)")
                    else:
                        combat.eliminate(eng, u, "cannot retreat along the oasis track (16.3)")
                else:
                    survivors.append(u)
            else:
                survivors.append(u)
        if not counter and survivors:
            # 16.3 (e): survivors counter-attack the original attackers
            self._exchange(eng, d, survivors, att, counter=True)


# =========================================================================== 6.2 surprise, ALC-25


def surprise_applies(st: GameState, attacker_side: str) -> bool:
    """6.2: "First Player Combat Phases: Shift two columns to the right for all attacks" (and, per the
    EoP, the first player's overruns in his Movement Phases)."""
    return bool(st.surprise) and attacker_side == st.first_player


def us_inexperience_shift(st: GameState, attacker_side: str, nationalities: set[str]) -> int:
    """ALC-25: with US and German units in a combat, 2 (or 1) columns in the Axis favour."""
    level = st.vars.get("us_inexperience")
    if level not in (1, 2) or not {"US", "GE"} <= nationalities:
        return 0
    return level if attacker_side == "Axis" else -level


def defender_side(attacker_side: str) -> str:
    return other(attacker_side)


# =========================================================================== 14.9.3 exploitation


@procedure("exploitation")
class Exploitation(Procedure):
    """14.9.3: after a mobile battle vacated the defending hex and the attackers advanced, each attacking
    unit (not disrupted, not eliminated) may move up to its RMA; friendly mobile units in reserve may
    too if they enter the original defending hex.  EZOC are ignored when every defender was eliminated,
    or along the line of retreat of the retreated defenders (every hex of the move on it, the combat hex
    included); reserve units always respect EZOC.  Exploiting units may overrun (13.4).

    Data ``{"side", "hex", "attackers", "retreat_lines", "all_eliminated"}``.  Moves are validated by the
    movement rules' path tracing (``movement.trace``, RMA as in 13.2.1).  Enumerable options are
    one-hex steps; ``exploit`` with a whole ``path`` is accepted as a free action."""

    def enter(self, eng: Engine, frame: Frame) -> None:
        from core.rules import combat

        st = eng.state
        d = frame.data
        side = d["side"]
        d["units"] = sorted(u for u in d["attackers"] if not combat.gone(st, u) and combat.hex_of(st.units[u].loc)
                            and not st.units[u].disrupted)
        d["reserve"] = sorted(u.id for u in st.units.values() if u.side == side and u.reserve and u.id not in d["units"]
                              and combat.hex_of(u.loc) is not None and info(st, u.id).is_combat and su.is_mobile(st, u.id)
                              and not u.disrupted)
        d["rma"] = {u: exploit_rma(st, u) for u in d["units"] + d["reserve"]}
        d["spent"] = {}
        d["hexes_moved"] = {}
        d["stopped"] = []
        d["entered_defending_hex"] = []
        line = {d["hex"]}
        for p in d.get("retreat_lines", []):
            line |= set(p)
        d["line"] = sorted(line)
        eng.say(f"Exploitation from {d['hex']} (14.9.3): {', '.join(d['units'] + d['reserve']) or 'no unit'} may move up to their RMA")

    # ------------------------------------------------------------------ legality
    def trace(self, eng: Engine, d: dict[str, Any], units: list[str], path: list[str]):
        """The movement plan of ``units`` along ``path`` (no enemy hex in it), or IllegalAction."""
        from core.hexgrid import Hex, HexLabelError
        from core.rules import movement
        from core.rules.status import is_motorized
        from core.state import GameState as GS

        st = eng.state
        if not units or not path:
            raise IllegalAction("name the exploiting units and a path", "14.9.3")
        locs = {st.units[u].loc for u in units if u in st.units}
        if len(locs) != 1:
            raise IllegalAction("exploiting units moving together start in the same hex", "14.9.3")
        for u in units:
            if u not in d["units"] and u not in d["reserve"]:
                raise IllegalAction(f"{u} may not exploit: only the attackers of the mobile battle and mobile reserve "
                                    "units may (14.9.3)", "14.9.3")
            if u in d["stopped"]:
                raise IllegalAction(f"{u} has ended its exploitation (it entered an EZOC or its overrun failed)", "14.9.3")
        start = next(iter(locs))
        reserve = any(u in d["reserve"] for u in units)
        ignore = not reserve and (d.get("all_eliminated") or all(h in d["line"] for h in [start] + path))
        view = st
        if ignore:
            view = GS.decode(st.encode())
            for v in view.units.values():
                if v.side != d["side"]:
                    v.loc = "box:exploitation-ignored"
        try:
            hexes = [Hex.parse(h) for h in path]
        except HexLabelError as exc:
            raise IllegalAction(f"{exc}", "13.1") from None
        rmas = {u: d["rma"][u] for u in units}
        plan = movement.trace(view, d["side"], units, hexes, movement.MoveOptions(reaction=True, reserve_reaction=True),
                              spent0={u: d["spent"].get(u, 0) for u in units}, rma_values=rmas)
        if plan.overrun_at is not None:
            raise IllegalAction(f"{path[plan.overrun_at]} holds enemy units: end the path there to overrun it", "13.4")
        # 21.1.1 / 21.2.1 "This includes ... exploitation after combat": the trace reads tec.map_for(view), whose
        # step costs are doubled off the roads in winter and Ghibli hexes, against the RMA (R-WX-AREAS)
        for u in units:
            if not is_motorized(st.units[u]) and d["hexes_moved"].get(u, 0) + plan.hexes[u] > 1:
                raise IllegalAction(f"{u} is not motorised: its RMA is one hex (13.2.1)", "13.2.1")
        if reserve and d["hex"] not in path and start != d["hex"]:
            if not any(h == d["hex"] for h in path):
                raise IllegalAction("reserve units exploiting must at least enter the original defending hex (14.9.3)", "14.9.3")
        return plan, ignore

    def _enemy(self, st: GameState, side: str, label: str) -> bool:
        return any(_hostile(v, side) for v in st.units_at(label))

    def options(self, eng: Engine, d: dict[str, Any]) -> list[Option]:
        from core.rules import combat

        st = eng.state
        side = d["side"]
        opts = []
        for u in d["units"] + d["reserve"]:
            if u in d["stopped"] or combat.gone(st, u) or combat.hex_of(st.units[u].loc) is None:
                continue
            here = st.units[u].loc
            for n in combat.neighbours(here):
                if self._enemy(st, side, n):
                    if combat_overrun_ok(eng, d, [u], here, n, self):
                        opts.append(Option(action=Action(kind="exploit", side=side, args={"units": [u], "path": [n]}),
                                           label=f"{info(st, u).name or u}: overrun {n} (14.9.3, 13.4)"))
                    continue
                if u in d["reserve"] and n != d["hex"] and u not in d["entered_defending_hex"]:
                    continue
                try:
                    self.trace(eng, d, [u], [n])
                except IllegalAction:
                    continue
                opts.append(Option(action=Action(kind="exploit", side=side, args={"units": [u], "path": [n]}),
                                   label=f"{info(st, u).name or u}: exploit into {n}"))
        opts.append(Option(action=Action(kind="exploit_done", side=side), label="End the exploitation"))
        return opts

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        d = frame.data
        if d.get("done"):
            return None
        opts = self.options(eng, d)
        if len(opts) == 1:
            return None
        return Decision(side=d["side"], kind="combat_exploit", prompt=f"Exploitation after the mobile battle at {d['hex']} (14.9.3)",
                        rule="14.9.3", options=tuple(opts), free_kinds=("exploit",),
                        context={"hex": d["hex"], "units": d["units"], "reserve": d["reserve"], "spent": d["spent"],
                                 "rma": d["rma"]})

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:

        st = eng.state
        d = frame.data
        if action.kind == "exploit_done":
            d["done"] = True
            return
        if action.kind != "exploit":
            super().apply(eng, frame, action)
        units = [str(u) for u in action.args.get("units") or []]
        path = [str(h) for h in action.args.get("path") or []]
        if not units or not path or any(u not in st.units for u in units):
            raise IllegalAction("name the exploiting units and a path", "14.9.3")
        last = path[-1]
        enemy_at = [k for k, h in enumerate(path) if self._enemy(st, d["side"], h)]
        if enemy_at and enemy_at[0] != len(path) - 1:
            raise IllegalAction(f"{path[enemy_at[0]]} holds enemy units: a path ends at the hex it overruns (13.4)", "13.4")
        if enemy_at:
            start = st.units[units[0]].loc
            prefix = path[:-1]
            if prefix:
                plan, _ = self.trace(eng, d, units, prefix)
                self._commit(eng, d, units, prefix, plan)
                start = prefix[-1]
            if not combat_overrun_ok(eng, d, units, start, last, self, explain=True):
                raise IllegalAction(f"{', '.join(units)} may not overrun {last} now", "13.4")
            from core.rules import supply
            d["overrun"] = {"units": units, "hex": last, "cost": d.pop("_ov_cost"), "terrain": d.pop("_ov_terrain", 0)}
            if supply.capture_choice(action.args):
                d["overrun"]["destroy_supply"] = True            # 12.2.7: destroy, not roll
            eng.say(f"{', '.join(units)} overrun {last} during exploitation (14.9.3, 13.4)")
            away = overrun_reactors(eng, units, last)
            if away and "overrun_reaction" in PROCEDURES:
                # 13.4.3: the defender may react away before the 2 MP of the overrun are expended (the ground
                # rules' own procedure, as in normal movement)
                eng.say(f"{', '.join(info(st, u).name or u for u in away)} may react away from {last} before the "
                        "overrun (13.4.3)")
                d["overrun"]["reaction"] = True
                eng.push("overrun_reaction", hex=last, units=sorted(away), rma=away, attackers=list(units),
                         side=other(d["side"]))
                return
            eng.push("resolve_combat", attackers=list(units), hex=last, form="overrun", side=d["side"])
            return
        plan, _ = self.trace(eng, d, units, path)
        self._commit(eng, d, units, path, plan)

    def _commit(self, eng: Engine, d: dict[str, Any], units: list[str], path: list[str], plan) -> None:
        st = eng.state
        for u in units:
            st.units[u].loc = plan.loc[u]
            d["spent"][u] = plan.spent[u]
            d["hexes_moved"][u] = d["hexes_moved"].get(u, 0) + plan.hexes[u]
            if u in plan.entered_ezoc and u not in d["stopped"]:
                d["stopped"].append(u)
            if d["hex"] in path and u not in d["entered_defending_hex"]:
                d["entered_defending_hex"].append(u)
        eng.say(f"{', '.join(units)} exploit {' -> '.join(path)} (14.9.3)")

    def resume(self, eng: Engine, frame: Frame, child: Frame) -> None:
        from core.rules import combat

        st = eng.state
        d = frame.data
        ov = d.pop("overrun", None)
        if ov is not None and child.proc == "overrun_reaction":
            if self._enemy(st, d["side"], ov["hex"]):
                d["overrun"] = ov
                eng.push("resolve_combat", attackers=list(ov["units"]), hex=ov["hex"], form="overrun", side=d["side"])
                return
            # 13.4.3: every defender reacted away; the units enter the hex paying its terrain cost, not the 2 MP
            alive = [u for u in ov["units"] if not combat.gone(st, u) and combat.hex_of(st.units[u].loc)]
            for u in alive:
                st.units[u].loc = ov["hex"]
                d["spent"][u] = d["spent"].get(u, 0) + ov.get("terrain", ov["cost"])
                d["hexes_moved"][u] = d["hexes_moved"].get(u, 0) + 1
                if ov["hex"] == d["hex"] and u not in d["entered_defending_hex"]:
                    d["entered_defending_hex"].append(u)
            eng.say(f"{ov['hex']} is empty after the reaction: the exploiting units enter it without the overrun's "
                    "2 MP (13.4.3)")
            return
        if ov is None or child.proc != "resolve_combat":
            return
        out = child.data.get("outcome", {})
        alive = [u for u in ov["units"] if not combat.gone(st, u) and combat.hex_of(st.units[u].loc)]
        # 14.7 / 14.8: an overrunning unit that retreated (an m withdrawal) left the combat: it does not enter the
        # cleared hex and its exploitation ends where the retreat put it
        retreated = movement.overrun_retreated(st, child, alive)
        for u in retreated:
            if u not in d["stopped"]:
                d["stopped"].append(u)
            eng.say(f"{info(st, u).name or u} retreated from the overrun of {ov['hex']}: its exploitation ends (14.7, 14.9.3)")
        alive = [u for u in alive if u not in retreated]
        if retreated and not alive:
            return
        if out.get("defender_cleared") and alive and not self._enemy(st, d["side"], ov["hex"]):
            try:
                from core.rules import supply

                supply.capture_supply(eng, ov["hex"], d["side"], hq=su.hq_present(st, alive),
                                      destroy=bool(ov.get("destroy_supply")))
            except (ImportError, IllegalAction):  # pragma: no cover
                pass
            for u in alive:
                st.units[u].loc = ov["hex"]
                d["spent"][u] = d["spent"].get(u, 0) + ov["cost"]
                d["hexes_moved"][u] = d["hexes_moved"].get(u, 0) + 1
            eng.say(f"{ov['hex']} is cleared: the overrunning units enter it and may go on exploiting (13.4.4)")
            return
        for u in alive:
            if u not in d["stopped"]:
                d["stopped"].append(u)
            m = su.effective_morale(st, u)
            if not combat._roll_morale(eng, u, m, "overrun not cleared, 13.4.4"):
                combat._disrupt(eng, u, "failed morale check after an overrun that did not clear the hex (13.4.4)")


def exploit_rma(st: GameState, uid: str) -> int:
    """14.9.3: the unit's RMA (13.2.1), +2 MP for a motorised unit stacked with an undisrupted HQ (15.6;
    the EoP: 5 Pz "has 8 RMA (22 / 4 = 6 + 2 due to the Kasta)")."""
    from core.rules.status import is_motorized, rma

    u = st.units[uid]
    n = rma(u)
    if is_motorized(u) and any(v.side == u.side and not v.disrupted and info(st, v.id).hq for v in st.units_at(u.loc)):
        n += 2
    return n


def combat_overrun_ok(eng: Engine, d: dict[str, Any], units: list[str], start: str, target: str, proc: Exploitation,
                      explain: bool = False) -> bool:
    """13.4 during exploitation: eligibility (13.4.1, 13.4.2) and the MP (terrain to enter + 2; HQ: no +2, 15.6)
    within the RMA."""
    from core.rules import combat, movement, tec
    from core.rules.status import rma

    st = eng.state
    if any(u in d["stopped"] for u in units) or overrun_refusal(st, units, target):
        return False
    if not combat.adjacent(st.units[units[0]].loc, target) and st.units[units[0]].loc != start:
        return False
    hq = any(info(st, u).hq for u in units)
    worst = 0
    terrain_only = 0
    for u in units:
        cost, _ = tec.step_cost(tec.map_for(st), combat.tec_class(st, u), combat.hex_of(start),   # 21.1.1 / 21.2.1
                                combat.hex_of(target))
        if cost is None:
            return False
        total = cost + (0 if hq else movement.OVERRUN_COST)
        if d["spent"].get(u, 0) + total > d["rma"].get(u, rma(st.units[u])) * tec.EIGHTH:
            return False
        worst = max(worst, total)
        terrain_only = max(terrain_only, cost)
    if explain:
        d["_ov_cost"] = worst
        d["_ov_terrain"] = terrain_only
    return True


def overrun_reactors(eng: Engine, movers: list[str], label: str) -> dict[str, int]:
    """13.4.3: the units in ``label`` that may react away from the overrun -> their reaction MA (the ground
    rules' test, which may roll for surprise, 6.2)."""
    from core.rules import combat, movement

    return movement.overrun_reactors(eng, movers, combat.hex_of(label))
