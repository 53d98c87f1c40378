"""17.0 Refit (4.1 VI.2): RP rebuild depleted units on the hex grid and units in
the Refit and Destroyed boxes.

Actions of the ``refit`` decision (free kinds; ``done`` is enumerable):

* ``refit_hex`` {unit, rp}: a depleted unit with an RP within its reaction
  movement distance, both in GenS, undisrupted, not in an EZOC: remove one RP
  step and flip the unit to full strength (17.2, WE-23);
* ``refit_box`` {unit, rps, steps}: a unit in the Refit Box rebuilt by RP stacked
  with or adjacent to the primary base (the NRV Box for the Allies, 12.2.4, 22.1),
  placed in the primary base hex (17.2);
* ``refit_destroyed`` {unit, rps}: RP at the primary base shift a destroyed unit
  to the Refit Box; two-step US and CW units go straight back (17.2 Important).

Limits (17.2.1): RP of one nationality refit only that nationality; one unit of
each Commonwealth nationality other than British per Movement Phase.  The RP
cost of a box refit is one RP step per unit step (reconstructed, see
docs/rulings.d/ground.md G-REFIT-COST) unless ``core.charts.refit_cost`` is available.
"""

from __future__ import annotations

from core import sequence
from core.decisions import Action, Decision, IllegalAction, Option, other
from core.engine import Engine, Procedure, on_step, procedure
from core.hexgrid import Hex
from core.rules import supply, tec, zoc
from core.rules.status import counter_of, destroyed_box, hex_of, is_motorized, refit_box, rma
from core.state import Frame, UnitState

CW_OTHER = ("AU", "IN", "NZ", "SA")


def rp_nationality(rp: UnitState) -> str:
    return counter_of(rp).nationality


def same_nationality(unit: UnitState, rp: UnitState) -> bool:
    """17.2.1: RP of one nationality may not refit units of another."""
    return counter_of(unit).nationality == rp_nationality(rp)


def box_cost(unit: UnitState, steps: int) -> int:
    """RP steps to rebuild ``steps`` steps of ``unit`` (Refit Costs Chart)."""
    try:
        from core import charts

        fn = getattr(charts, "refit_cost", None)
        if fn is not None:
            return int(fn(counter_of(unit), steps))
    except Exception:
        pass
    return steps


def primary_base_hex(eng: Engine, side: str) -> str:
    """12.2.4: the Axis primary base's hex; the NRV Box for the Allies (22.1)."""
    if side == "Allied":
        return "box:NRV"
    pb = eng.state.vars.get("primary_base", {}).get("Axis")
    if pb in eng.state.units:
        return eng.state.units[pb].loc
    raise IllegalAction("the Axis has no primary base on the map", "12.2.4")


def near_primary(eng: Engine, side: str, rp: UnitState) -> bool:
    loc = primary_base_hex(eng, side)
    if rp.loc == loc:
        return True
    if loc.startswith("box:"):
        return False
    a, b = hex_of(rp), Hex.parse(loc)
    return a is not None and a.distance(b) <= 1


def _cw_limit(frame: Frame, unit: UnitState) -> None:
    nat = counter_of(unit).nationality
    if nat in CW_OTHER:
        used = frame.data.setdefault("cw_used", [])
        if nat in used:
            raise IllegalAction(f"only one {nat} unit may receive RP this Movement Phase", "17.2.1")
        used.append(nat)


def _rp(eng: Engine, rid: object, side: str) -> UnitState:
    rp = eng.state.units.get(str(rid))
    if rp is None or rp.side != side or counter_of(rp).unit_type != "refit point":
        raise IllegalAction(f"{rid!r} is not a {side} RP marker", "17.1")
    return rp


def _spend(eng: Engine, rps: list[UnitState], n: int) -> None:
    """Remove ``n`` RP steps (17.1: markers split and combine freely)."""
    for rp in rps:
        if n <= 0:
            return
        take = min(n, rp.steps)
        rp.steps -= take
        n -= take
        if rp.steps <= 0:
            supply.remove_supply_unit(eng, rp.id, "RP expended (17.2)")


def refit_hex(eng: Engine, frame: Frame, side: str, uid: str, rid: str) -> None:
    st = eng.state
    u = st.units.get(uid)
    if u is None or u.side != side:
        raise IllegalAction(f"{uid!r} is not a {side} unit", "17.2")
    rp = _rp(eng, rid, side)
    name = counter_of(u).name
    if u.steps >= counter_of(u).steps:
        raise IllegalAction(f"{name} is not depleted", "17.2")
    if hex_of(u) is None or hex_of(rp) is None:
        raise IllegalAction("refitting on the hex grid needs the unit and the RP on the map", "17.2")
    if not same_nationality(u, rp):
        raise IllegalAction(f"{rp_nationality(rp)} RP may not refit the {counter_of(u).nationality} {name}", "17.2.1")
    ez = zoc.zoc_hexes(st, other(side))
    for x in (u, rp):
        if x.disrupted or x.ogs:
            raise IllegalAction("both unit and RP must be in GenS and not disrupted", "17.2 / 8.2 g")
        if hex_of(x) in ez:
            raise IllegalAction("neither the unit nor the RP may be in an EZOC", "17.2")
    if not within_reaction_distance(eng, u, hex_of(rp)):
        raise IllegalAction(f"the RP in {rp.loc} is not within {name}'s reaction movement distance", "17.2")
    _cw_limit(frame, u)
    _spend(eng, [rp], 1)
    u.steps = counter_of(u).steps
    eng.say(f"{name} is refitted to full strength with the RP in {rp.loc} (17.2)")


def within_reaction_distance(eng: Engine, u: UnitState, target: Hex) -> bool:
    """17.2: within the unit's reaction movement distance (RMA; one hex if not motorised)."""
    h = hex_of(u)
    if h == target:
        return True
    if not is_motorized(u):
        return h.distance(target) <= 1
    from core.rules.movement import MoveOptions, reachable_paths

    return target.label in reachable_paths(eng.state, u.side, [u.id], MoveOptions(reaction=True))


def refit_from_box(eng: Engine, frame: Frame, side: str, uid: str, rids: list, steps: int, destroyed: bool) -> None:
    st = eng.state
    u = st.units.get(uid)
    if u is None or u.side != side:
        raise IllegalAction(f"{uid!r} is not a {side} unit", "17.2")
    c = counter_of(u)
    box = destroyed_box(side) if destroyed else refit_box(side)
    if u.loc != box:
        raise IllegalAction(f"{c.name} is not in the {side} {'Destroyed' if destroyed else 'Refit'} Box", "17.2")
    if side == "Axis" and st.vars.get("primary_base_moved_gt") == st.gt:
        raise IllegalAction("no Axis refit in the GT the primary base is transferred", "12.2.4")
    rps = [_rp(eng, r, side) for r in rids]
    if not rps:
        raise IllegalAction("name the RP markers to expend", "17.2")
    for rp in rps:
        if not same_nationality(u, rp):
            raise IllegalAction(f"{rp_nationality(rp)} RP may not refit the {c.nationality} {c.name}", "17.2.1")
        if not near_primary(eng, side, rp):
            raise IllegalAction("the RP must be stacked with or adjacent to the primary base", "17.2 / 12.2.4")
    steps = max(1, min(int(steps or c.steps), c.steps))
    direct = destroyed and c.narrow_refit
    cost = box_cost(u, steps) if (not destroyed or direct) else 1
    have = sum(r.steps for r in rps)
    if have < cost:
        raise IllegalAction(f"{c.name} needs {cost} RP; {have} named", "17.2")
    _cw_limit(frame, u)
    _spend(eng, rps, cost)
    if destroyed and not direct:
        u.loc = refit_box(side)
        eng.say(f"{c.name} moves from the Destroyed Box to the Refit Box (17.2)")
        return
    u.loc = primary_base_hex(eng, side)
    u.steps = steps
    u.disrupted = u.ogs = u.isolated = False
    eng.say(f"{c.name} is rebuilt with {steps} step(s) and placed at {u.loc} (17.2)")


@procedure("refit")
class RefitProcedure(Procedure):
    """4.1 VI.2: the phasing player conducts refit operations (17.0)."""

    def enter(self, eng: Engine, frame: Frame) -> None:
        step = sequence.STEPS[frame.data["step"]]
        frame.data["side"] = sequence.side_of(step.role, eng.state.initiative, eng.state.first_player)

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        if frame.data.get("done"):
            return None
        side = frame.data["side"]
        return Decision(side=side, kind="refit", prompt="Conduct refit operations (17.0)", rule="4.1 VI.2; 17.0",
                        options=(Option(action=Action(kind="done", side=side), label="No (more) refits"),),
                        free_kinds=("refit_hex", "refit_box", "refit_destroyed"))

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        a, side = action.args, action.side
        if action.kind == "done":
            frame.data["done"] = True
        elif action.kind == "refit_hex":
            refit_hex(eng, frame, side, str(a.get("unit")), str(a.get("rp")))
        elif action.kind in ("refit_box", "refit_destroyed"):
            refit_from_box(eng, frame, side, str(a.get("unit")), list(a.get("rps") or []), int(a.get("steps") or 0),
                           destroyed=action.kind == "refit_destroyed")
        else:
            super().apply(eng, frame, action)


for _k in ("VI.2", "IX.2", "XII.2", "XV.2"):
    on_step(_k, "refit")
