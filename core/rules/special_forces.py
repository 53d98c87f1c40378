"""15.4 Special Forces: their sea moves, orders of the friendly Movement Phase (4.1 VI.3).

``sf_sea`` {units, to}: special forces units that have not moved this phase, all in one place.

* **From a port or an at-sea box** (an on-map friendly port, the port boxes of a port, an ocean lane, the Torch
  boxes, or the side's off-map ports: :data:`HOME_PORTS`) "to any coastal hex" (15.4 Sealift), using no sealift or
  port capacity ("They are always able to move freely by sea"):

  - a friendly-controlled port not occupied by the enemy: the units are shipped there, their movement completed;
  - a friendly-occupied non-port coastal hex: "the SF unit(s) move directly into the hex, they may move no further
    that Movement Phase, but may participate in attacks";
  - an enemy-occupied or unoccupied coastal hex: an opposed landing (20.5): the units stay where they are, marked
    ``flags["sf_landing"] = {"hex", "impulse"}``, and the friendly Combat Phase offers the landing as an
    amphibious combat (``combat_forms.check_amphibious``; "If the hex is unoccupied ... the hex has a defense
    factor of 1"); not cleared, they return to their point of origin (20.5).

  A landing on a non-port coastal hex gives emergency supply for the impulse of landing (15.4, 12.7).
* **From a coastal hex** ("An SF unit starting its move on a coastal hex may be evacuated by sea to a friendly
  controlled port or shipping box"): to an on-map friendly-controlled port or to a shipping box
  (:func:`shipping_box`); "They may not be sealifted from one coastal hex to another coastal hex."

Ruling R-SF-SEA (docs/rulings.d/combat.md).
"""

from __future__ import annotations

from core.decisions import ALLIED, AXIS, Action, Decision, IllegalAction, Option
from core.engine import Engine, Procedure, at_phase_end, before_step, procedure
from core.hexgrid import Hex, HexLabelError
from core.rules import movement, naval, offmap, tec
from core.rules.special_units import info
from core.state import Frame, GameState, UnitState

KIND = "sf_sea"
RULE = "15.4"
#: the side's off-map ports and shipping boxes an SF unit sails from or is evacuated to (22.1 NRV, 22.4 Malta;
#: 7.2 Italy, 22.6 Sicily, 22.3 Crete)
HOME_PORTS = {ALLIED: (offmap.NRV, offmap.MALTA), AXIS: (offmap.ITALY, offmap.SICILY, offmap.CRETE)}


def _hex(label: str) -> Hex | None:
    if not isinstance(label, str) or ":" in label:
        return None
    try:
        return Hex.parse(label)
    except HexLabelError:
        return None


def is_port(label: str) -> bool:
    h = _hex(label)
    return h is not None and h in tec.current_map().ports


def hostile_in(eng: Engine, side: str, label: str) -> bool:
    """Enemy units in ``label`` (neutral Vichy French are hostile to the Allies, R-VICHY-NEUTRAL)."""
    from core.rules import fna

    return any(fna.hostile(v, side) for v in eng.state.units_at(label))


def friendly_port(eng: Engine, side: str, label: str) -> bool:
    """A port hex controlled by ``side`` (2.2.2) holding no enemy unit."""
    from core.rules import victory_rules

    return is_port(label) and victory_rules.controller(eng, label) == side and not hostile_in(eng, side, label)


def shipping_box(side: str, loc: str) -> bool:
    """Where an evacuated SF unit may go off the map: the side's off-map ports, and for the Allies the Torch boxes
    the North African landings sail from (20.2.5, 20.2.6)."""
    return loc in HOME_PORTS[side] or (side == ALLIED and loc in (offmap.TORCH, offmap.TORCH_EAST))


def sea_box(side: str, loc: str) -> bool:
    """An at-sea or port box: the port boxes of a port (20.1), an ocean lane (20.2), the Torch boxes (20.2.5,
    20.2.6) or the side's off-map ports."""
    return (loc.startswith((naval.PORT_BOXES, naval.AT_SEA)) or loc in (offmap.TORCH, offmap.TORCH_EAST)
            or loc in HOME_PORTS[side])


def _units(eng: Engine, frame: Frame, side: str, ids: object) -> list[UnitState]:
    if not isinstance(ids, list) or not ids:
        raise IllegalAction("name the special forces units", RULE)
    st = eng.state
    out = []
    for uid in ids:
        u = st.units.get(str(uid))
        if u is None or u.side != side:
            raise IllegalAction(f"{uid} is not a {side} unit", RULE)
        if not info(st, u.id).sf:
            raise IllegalAction(f"{uid} is not a special forces unit", RULE)
        if u.id in frame.data.get("moved", {}):
            raise IllegalAction(f"{uid} has moved this phase: an SF unit sails from where it starts its move", RULE)
        out.append(u)
    if len({u.loc for u in out}) != 1:
        raise IllegalAction("the units sail together from one place", RULE)
    return out


def refusal(eng: Engine, frame: Frame, side: str, units: list[UnitState], to: str) -> str | None:
    """Why ``units`` may not make the sea move to ``to`` (None: they may)."""
    from core.rules import combat

    src = units[0].loc
    from_port = sea_box(side, src) or friendly_port(eng, side, src)
    if not from_port:
        if not combat.coastal(src):
            return f"{src} is neither a port, an at-sea box nor a coastal hex: SF sail from those only"
        if not (friendly_port(eng, side, to) or shipping_box(side, to)):
            return ("an SF unit on a coastal hex may be evacuated to a friendly controlled port or shipping box only; "
                    "they may not be sealifted from one coastal hex to another coastal hex")
        return None if shipping_box(side, to) else offmap.map_refusal(eng.state, to)
    if to == src:
        return "the units are already there"
    if shipping_box(side, to) and not sea_box(side, src):
        return None                                      # from an on-map port back to an off-map port
    if not combat.coastal(to):
        return f"{to} is not a coastal hex: SF land on any coastal hex"
    return offmap.map_refusal(eng.state, to)


def landed(eng: Engine, frame: Frame, units: list[UnitState], to: str, *, emergency: bool) -> None:
    """The units are in ``to`` with their movement completed (15.4: "they may move no further that Movement
    Phase"); a landing on a non-port coastal hex gives emergency supply for the impulse (15.4, 12.7)."""
    st = eng.state
    from core.rules import combat

    for u in units:
        u.loc = to
        u.reserve = False
        u.flags = {k: v for k, v in u.flags.items() if k not in ("port_box", "at_sea", "sf_landing")}
        u.flags["landed"] = combat.phase_tag(st)
        if emergency:
            u.emergency = True
            u.flags["emergency_gt_phase"] = [st.gt, st.phase]
        frame.data.setdefault("moved", {})[u.id] = max(movement.movement_allowance(u), 1) * tec.EIGHTH


@movement.movement_action(KIND)
def act_sf_sea(eng: Engine, frame: Frame, action: Action) -> None:
    """15.4: a special forces sea move (sealift, landing, evacuation)."""
    from core.rules import combat

    st = eng.state
    side = frame.data.get("side", action.side)
    units = _units(eng, frame, side, action.args.get("units"))
    to = str(action.args.get("to", ""))
    if to.startswith("box:"):
        pass
    elif _hex(to) is None:
        raise IllegalAction(f"{to!r} is not a hex", RULE)
    else:
        to = _hex(to).label
    why = refusal(eng, frame, side, units, to)
    if why:
        raise IllegalAction(why, RULE)
    names = ", ".join(info(st, u.id).name or u.id for u in units)
    src = units[0].loc
    if to.startswith("box:") or friendly_port(eng, side, to):
        landed(eng, frame, units, to, emergency=False)
        eng.say(f"{names} sail from {src} to {to}, using no sealift capacity; their movement is completed (15.4)")
        return
    here = st.units_at(to)
    if here and not hostile_in(eng, side, to) and not is_port(to):
        landed(eng, frame, units, to, emergency=True)
        eng.say(f"{names} land in friendly-occupied {to} and may move no further this phase, but may attack; "
                "emergency supply for the impulse of landing (15.4, 12.7)")
        return
    for u in units:
        u.flags = dict(u.flags) | {"sf_landing": {"hex": to, "impulse": combat.impulse_tag(st)}}
        frame.data.setdefault("moved", {})[u.id] = max(movement.movement_allowance(u), 1) * tec.EIGHTH
    what = "enemy-occupied" if hostile_in(eng, side, to) else "unoccupied (it defends with 1)"
    eng.say(f"{names} sail from {src} for an opposed landing on {what} {to}, made in the Combat Phase (15.4, 20.5)")


def staged_for(st: GameState, uid: str, label: str) -> bool:
    """The SF unit declared an opposed landing on ``label`` in this impulse's Movement Phase (15.4)."""
    from core.rules import combat

    f = st.units[uid].flags.get("sf_landing")
    return isinstance(f, dict) and f.get("hex") == label and f.get("impulse") == combat.impulse_tag(st)


def staged(st: GameState, side: str) -> dict[str, list[str]]:
    """The hexes of this impulse's declared SF landings and their units."""
    out: dict[str, list[str]] = {}
    for u in sorted(st.units.values(), key=lambda x: x.id):
        f = u.flags.get("sf_landing")
        if u.side == side and isinstance(f, dict) and staged_for(st, u.id, str(f.get("hex"))):
            out.setdefault(str(f["hex"]), []).append(u.id)
    return out


def owed_landings(st: GameState, side: str, combats: list[dict]) -> list[str]:
    """The declared SF landings the friendly Combat Phase must still declare (15.4: "If the hex is enemy occupied,
    they make an opposed landing"; "If the hex is unoccupied, the SF unit(s) must make an opposed landing"): each
    staged hex no combat is declared against, whose landing ``combat_forms`` offers.  The Combat Phase refuses
    *done* until they are declared (R-SF-SEA)."""
    from core.rules import combat_forms

    out = []
    for h, units in sorted(staged(st, side).items()):
        if any(h in c["hexes"] for c in combats):
            continue
        if combat_forms.sf_landing_offered(st, side, combats, units, h):
            out.append(f"{', '.join(units)} sailed for an opposed landing on {h}: it must be made "
                       "(15.4 \"the SF unit(s) must make an opposed landing\")")
    return out


@at_phase_end
def drop_landing_marks(eng: Engine, phase: int) -> None:
    """A declared landing is made in the Combat Phase of its impulse (:func:`owed_landings`).  One the Combat Phase
    could not offer (e.g. more steps than the hex's stacking limit, 20.5) is not made: the log says so, and the units
    stay where they sailed from, as after a landing that did not clear the hex (20.5 "return to their point of
    origin").  A landing made, cleared or not, has already removed the mark (``combat.ResolveCombat._landing``)."""
    from core.rules import combat_forms

    if phase not in combat_forms.COMBAT_PHASES:
        return
    for u in sorted(eng.state.units.values(), key=lambda x: x.id):
        f = u.flags.get("sf_landing")
        if f is None:
            continue
        u.flags = {k: v for k, v in u.flags.items() if k != "sf_landing"}
        if isinstance(f, dict):                   # a landing made clears the mark (combat.ResolveCombat._landing)
            eng.say(f"{info(eng.state, u.id).name or u.id} did not make its declared landing on {f.get('hex')}: it "
                    f"stays in {u.loc}, its point of origin (15.4, 20.5)")


def _sf_here(eng: Engine, frame: Frame, side: str) -> dict[str, list[str]]:
    moved = frame.data.get("moved", {})
    out: dict[str, list[str]] = {}
    for u in sorted(eng.state.units_of(side), key=lambda x: x.id):
        if info(eng.state, u.id).sf and u.id not in moved and not u.flags.get("battle"):
            out.setdefault(u.loc, []).append(u.id)
    return out


@movement.movement_options
def sf_options(eng: Engine, frame: Frame, side: str, limit: int = 3) -> list[Option]:
    """A few enumerable sea moves: from each place holding SF, to the nearest legal coastal hexes / ports."""

    out: list[Option] = []
    gm = tec.current_map()
    ports = sorted(h.label for h in gm.ports)
    for loc, ids in _sf_here(eng, frame, side).items():
        units = [eng.state.units[i] for i in ids]
        cands = ports + [lab for lab in sorted(HOME_PORTS[side])]
        if _hex(loc) is not None:
            cands = sorted(cands, key=lambda lab: (_hex(lab) is None, _hex(loc).distance(_hex(lab)) if _hex(lab) else 0))
        n = 0
        for to in cands:
            if n >= limit:
                break
            if refusal(eng, frame, side, units, to) is None:
                out.append(Option(action=Action(kind=KIND, side=side, args={"units": ids, "to": to}),
                                  label=f"Special forces {', '.join(ids)} sail from {loc} to {to} (15.4)"))
                n += 1
    return out


# --------------------------------------------------------------------------- 15.4 Allied Raids on Crete

CRETE_HOLDING = "box:CreteHolding"
RAID_RULE = "15.4 Allied Raids on Crete"


def raiders(eng: Engine) -> list[str]:
    """Allied SF units "in the NRV or any port hex on maps W and C" (15.4)."""
    out = []
    for u in sorted(eng.state.units_of(ALLIED), key=lambda x: x.id):
        if info(eng.state, u.id).sf and (u.loc == offmap.NRV or (u.loc[:1] in "WC" and is_port(u.loc))):
            out.append(u.id)
    return out


def crete_garrison(eng: Engine) -> int:
    """b) "Add one to the DR for each Axis infantry unit currently garrisoning Crete" (the Crete Box, 22.3)."""
    from core.counters import all_counters

    def infantry(uid: str) -> bool:       # the infantry unit symbol (NATO type) of a combat unit
        c = all_counters().get(offmap.base_id(uid))
        return c is not None and c.kind == "combat" and c.nato == "infantry"

    return sum(1 for u in eng.state.units.values() if u.side == AXIS and u.loc == offmap.CRETE and infantry(u.id))


def crete_air(eng: Engine) -> list[str]:
    from core.rules import air

    return sorted(u.id for u in eng.state.units.values() if u.side == AXIS and u.loc == offmap.CRETE and air.is_air(u.id))


VICTIM_KIND = "crete_raid_victim"


def _damage(eng: Engine, raider: str, target: str) -> None:
    """d) "one Axis air unit deployed on Crete must conduct a damage check (19.3)"; the raider, its raid over, returns
    to the NRV Box (R-SF-CRETE)."""
    from core.rules import air

    result = air.mission_damage(eng, target)
    eng.say(f"{target} on Crete makes a damage check after the raid: {result} (19.3; {RAID_RULE} d)")
    eng.state.units[raider].loc = offmap.NRV


def resolve_raiders(eng: Engine, frame: Frame) -> None:
    """a)-d) for the raiders still queued in ``frame.data["queue"]``, in turn: a morale check (+1 per Axis infantry
    unit on Crete, b); failed: 1d6, a 1 puts it in the Allied Refit Box, else it returns to the NRV Box (c); passed:
    one Axis air unit deployed on Crete makes a damage check (d) — chosen by the Axis player when there is more than
    one (R-SF-CRETE): the queue stops at ``frame.data["victim_for"]`` until the Axis answers."""
    from core.rules import status

    st, q, drm = eng.state, frame.data["queue"], int(frame.data["drm"])
    while q and not frame.data.get("victim_for"):
        uid = q[0]
        if status.morale_check(eng, uid, drm, why=f"raid on Crete, +{drm} for the Axis infantry garrison"):
            targets = crete_air(eng)
            if len(targets) > 1:
                frame.data["victim_for"] = uid        # the Axis player chooses (decide)
                return
            if targets:
                _damage(eng, uid, targets[0])
            else:
                st.units[uid].loc = offmap.NRV
        else:
            die = eng.roll(1, f"{uid} failed raid on Crete")[0]
            st.units[uid].loc = offmap.refit(ALLIED) if die == 1 else offmap.NRV
            eng.say(f"{uid} fails and rolls {die}: placed in {st.units[uid].loc} ({RAID_RULE} c)")
        q.pop(0)
    if not q:
        frame.data["done"] = True


class CreteRaid(Procedure):
    """4.1 II, after both players have deployed air units (II.2) and before air superiority (II.3): "the Allied
    player may declare a raid on Crete" with SF in the NRV or a port of Maps W and C; then, for each raider that
    passes its morale check with two or more Axis air units on Crete, the Axis player's choice of the one that makes
    the damage check (15.4 d, R-SF-CRETE)."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        if frame.data.get("done") or not offmap.crete_in_play(eng):
            return None                 # 22.3: "Crete ... is out of play until the MET Greece Track is deactivated"
        if raider := frame.data.get("victim_for"):
            air_units = crete_air(eng)
            return Decision(side=AXIS, kind="crete_raid_victim", rule=f"{RAID_RULE} d); R-SF-CRETE",
                            prompt=f"{raider} has passed its morale check on Crete: which Axis air unit deployed on "
                                   "Crete makes the damage check (19.3)?",
                            options=tuple(Option(action=Action(kind=VICTIM_KIND, side=AXIS, args={"unit": t}),
                                                 label=f"{t} makes the damage check (15.4 d)") for t in air_units),
                            context={"raider": raider, "air": air_units})
        units = raiders(eng)
        if not units:
            return None
        opts = [Option(action=Action(kind="done", side=ALLIED), label="No raid on Crete")]
        opts += [Option(action=Action(kind="crete_raid", side=ALLIED, args={"units": [u]}), label=f"Raid Crete with {u}")
                 for u in units]
        if len(units) > 1:
            opts.append(Option(action=Action(kind="crete_raid", side=ALLIED, args={"units": units}),
                               label=f"Raid Crete with {', '.join(units)}"))
        return Decision(side=ALLIED, kind="crete_raid", prompt="Declare an Allied raid on Crete with special forces (15.4)?",
                        rule=RAID_RULE, options=tuple(opts), free_kinds=("crete_raid",),
                        context={"raiders": units, "garrison": crete_garrison(eng), "air": crete_air(eng)})

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        if frame.data.get("victim_for"):
            self._victim(eng, frame, action)
            return
        if action.kind == "done":
            frame.data["done"] = True
            return
        if action.kind != "crete_raid":
            raise IllegalAction(f"{action.kind} is not a Crete raid decision", RAID_RULE)
        if not offmap.crete_in_play(eng):
            raise IllegalAction("Crete is out of play until the MET Greece Track is deactivated", "22.3")
        ok = raiders(eng)
        units = [str(u) for u in action.args.get("units") or []]
        if not units or any(u not in ok for u in units) or len(set(units)) != len(units):
            raise IllegalAction("raiders are Allied SF units in the NRV or a port hex of Maps W and C", RAID_RULE)
        for uid in units:
            eng.state.units[uid].loc = CRETE_HOLDING
        eng.say(f"Allied raid on Crete: {', '.join(units)} move to the Crete Holding Box ({RAID_RULE})")
        frame.data.update(queue=list(units), drm=crete_garrison(eng))
        resolve_raiders(eng, frame)

    def _victim(self, eng: Engine, frame: Frame, action: Action) -> None:
        """d): the Axis player's choice of the air unit that makes the damage check (R-SF-CRETE)."""
        target = str(action.args.get("unit", ""))
        if action.kind != VICTIM_KIND or target not in crete_air(eng):
            raise IllegalAction(f"choose one Axis air unit deployed on Crete for the damage check ({target or action.kind} "
                                f"is not one: {', '.join(crete_air(eng))})", f"{RAID_RULE} d)")
        raider = str(frame.data.pop("victim_for"))
        _damage(eng, raider, target)
        frame.data["queue"].pop(0)
        resolve_raiders(eng, frame)


procedure("crete_raid")(CreteRaid)
before_step("II.3", "crete_raid")
