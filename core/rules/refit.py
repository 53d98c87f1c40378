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
docs/rulings.d/ground.md G-REFIT-COST): ``core.charts.refit_cost`` by the category of
:func:`refit_category`.

``upgrade`` {unit, row, rps?, to?} (8.4, 17.3): replace a unit by the counters of an Upgrade
Chart row (``core.charts.upgrades``), through the refit procedure.
"""

from __future__ import annotations

from core import sequence
from core.decisions import Action, Decision, IllegalAction, Option, other
from core.engine import AFTER_ACTION, Engine, Procedure, on_step, procedure
from core.hexgrid import Hex
from core.rules import control, supply, tec, zoc
from core.rules.status import counter_of, destroyed_box, hex_of, is_motorized, is_rp, refit_box
from core.state import Frame, UnitState

CW_OTHER = ("AU", "IN", "NZ", "SA")


# --------------------------------------------------------------------------- 17.1 RP alone in a hex entered by the enemy


def lone_rp(st, label: str, entering_side: str) -> list[UnitState]:
    """17.1 Exception: the RP of the other side that are alone in ``label`` (no other unit of theirs there)."""
    theirs = [u for u in st.units_at(label) if u.side != entering_side]
    return theirs if theirs and all(is_rp(u) for u in theirs) else []


def destroy_lone_rp(eng: Engine, label: str, entering_side: str) -> bool:
    """17.1 Exception: "RP cannot be captured, and are automatically destroyed if alone in a hex and that hex is
    entered by an enemy unit" (by any means: movement passing through, advance after combat, retreat...; entering
    such a hex is not an overrun, 13.4)."""
    rps = lone_rp(eng.state, label, entering_side)
    for u in rps:
        supply.remove_supply_unit(eng, u.id, "RP alone in a hex entered by the enemy (17.1)")
        eng.say(f"The {u.side} RP in {label} is destroyed: alone in a hex entered by an enemy unit (17.1)")
    return bool(rps)


def destroy_entered_rp(eng: Engine) -> bool:
    """17.1 after every action: RP that share a hex only with enemy units are destroyed."""
    st = eng.state
    hit = False
    rps = st.units.by_ids("refit points", lambda: tuple(u.id for u in st.units.values() if is_rp(u)))
    on_map = [u for i in rps if ":" not in (u := st.units[i]).loc and hex_of(u) is not None]   # most RP are in boxes
    for u in on_map:
        if u.id in st.units and any(v.side != u.side for v in st.units_at(u.loc)):
            hit = destroy_lone_rp(eng, u.loc, other(u.side)) or hit
    return hit


AFTER_ACTION.append(destroy_entered_rp)


def rp_nationality(rp: UnitState) -> str:
    return counter_of(rp).nationality


def same_nationality(unit: UnitState, rp: UnitState) -> bool:
    """17.2.1 "RP of one nationality may not be used to refit combat units of another nationality"; the
    Commonwealth's RP (the UK RP counters: there are no AU, IN, NZ or SA RP) refit the British and the other
    Commonwealth nationalities, which the second bullet limits to one unit each per Movement Phase (R-REFIT-CW)."""
    nat, rp_nat = counter_of(unit).nationality, rp_nationality(rp)
    return nat == rp_nat or (rp_nat == "UK" and nat in CW_OTHER)


def refit_category(unit: UnitState) -> str:
    """The Refit Costs Chart row of a unit (core.charts.refit_cost categories)."""
    c = counter_of(unit)
    if c.garrison:
        return "garrison"
    if c.move_class == "raider":
        return "desert_raider"
    if c.divisional:
        return "division"
    if c.no_cadre:
        return "no_cadre"
    if c.unit_type in ("armor", "armour", "assault gun") or (c.move_class == "mechanised" and c.unit_type == "recon"):
        return "armour"
    return "non_divisional"


def chart_cost(unit: UnitState, stage: str, steps: int = 1) -> int:
    """17.2: RP steps from the Refit Costs Chart (resources/charts/refit.toml)."""
    from core import charts

    cost = charts.refit_cost(refit_category(unit), stage=stage, steps=steps)   # type: ignore[arg-type]
    if cost < 0:
        raise IllegalAction(f"{counter_of(unit).name} cannot be refitted this way (Refit Costs Chart)", "17.2")
    return cost


def box_cost(unit: UnitState, steps: int) -> int:
    """RP steps to rebuild ``steps`` steps of ``unit`` from the Refit Box (Refit Costs Chart)."""
    return chart_cost(unit, "from_refit_box", steps)


def primary_base_hex(eng: Engine, side: str) -> str:
    """12.2.4: the Axis primary base's hex; the NRV Box for the Allies (22.1)."""
    if side == "Allied":
        return "box:NRV"
    pb = supply.axis_primary(eng.state)
    if pb is not None:
        return pb.loc
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
    if side == "Axis" and st.vars.get("primary_base_moved_gt") == st.gt:
        raise IllegalAction("no Axis refit in the GT the primary base is transferred", "12.2.4")
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
    cost = chart_cost(u, "on_map")
    if rp.steps < cost:
        raise IllegalAction(f"{name} needs {cost} RP (Refit Costs Chart); the marker in {rp.loc} has {rp.steps}", "17.2")
    _cw_limit(frame, u)
    _spend(eng, [rp], cost)
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


def desert_garrison(u: UnitState) -> bool:
    c = counter_of(u)
    return c.garrison and c.desert_capable


def garrison_places(eng: Engine, side: str) -> list[str]:
    """16.1: friendly-controlled oasis hexes and Oasis Track boxes (no enemy unit; a friendly unit there or
    friendly hex control, 2.2.2) where a refitted desert garrison may be placed."""
    from core.rules import raiders

    st = eng.state
    if not raiders.enabled(st):
        return []
    gm = tec.current_map()
    cands = set(raiders.links())
    cands |= {h.label for h, t in gm.terrain.items() if "oasis" in t}
    out = []
    for loc in sorted(cands):
        if ":" not in loc and not gm.on_grid(Hex.parse(loc)):
            continue
        here = st.units_at(loc)
        if any(x.side != side for x in here):
            continue
        if any(x.side == side for x in here) or (":" not in loc and control.controls(st, side, loc)):
            out.append(loc)
    return out


def refit_from_box(eng: Engine, frame: Frame, side: str, uid: str, rids: list, steps: int, destroyed: bool,
                   to: str = "") -> None:
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
    if to:
        if not desert_garrison(u):
            raise IllegalAction(f"only refitted desert garrisons may be placed away from the primary base "
                                f"({c.name} is not one)", "16.1; 17.2")
        if to not in garrison_places(eng, side):
            raise IllegalAction(f"{to} is not a friendly-controlled oasis hex or box (optional desert raider rules)",
                                "16.1")
    direct = destroyed and c.narrow_refit
    if not destroyed:
        cost = box_cost(u, steps)
    elif direct:
        cost = chart_cost(u, "destroyed_to_refit") + box_cost(u, steps)     # both stages in one phase
    else:
        cost = chart_cost(u, "destroyed_to_refit")
    have = sum(r.steps for r in rps)
    if have < cost:
        raise IllegalAction(f"{c.name} needs {cost} RP; {have} named", "17.2")
    _cw_limit(frame, u)
    _spend(eng, rps, cost)
    if destroyed and not direct:
        u.loc = refit_box(side)
        eng.say(f"{c.name} moves from the Destroyed Box to the Refit Box (17.2)")
        return
    u.loc = to or primary_base_hex(eng, side)      # 16.1: a desert garrison may go to a friendly oasis
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
                        sampled=eng.sampler(lambda fr: self.sampled(eng, fr, side)),
                        free_kinds=("refit_hex", "refit_box", "refit_destroyed", "dump_gens", "upgrade"))

    @staticmethod
    def sampled(eng: Engine, frame: Frame, side: str) -> list[Option]:
        """Dump GenS (12.3 b) and upgrade options; computed only when the decision's options are read."""
        opts = []
        if not frame.data.get("refitted"):
            # 12.3 b): a dump gives GenS to one hex, right after the VI.1 determination (G-DUMP-GENS)
            opts += [Option(action=Action(kind="dump_gens", side=side, args={"dump": d, "hex": h}),
                            label=f"Expend {d} to give GenS to {h} (12.3 b)")
                     for d, h in supply.dump_gens_targets(eng.state, side)]
        return opts + upgrade_options(eng, frame, side)

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        a, side = action.args, action.side
        if action.kind == "done":
            frame.data["done"] = True
        elif action.kind == "dump_gens":
            if frame.data.get("refitted"):
                raise IllegalAction("a dump gives GenS at the start of the Movement Phase, before refit", "12.3 b)")
            supply.dump_gens(eng, side, str(a.get("dump", "")), str(a.get("hex", "")))
        elif action.kind == "upgrade":
            upgrade(eng, frame, side, str(a.get("unit", "")), int(a.get("row", -1)), list(a.get("rps") or []),
                    str(a.get("to") or ""))
            frame.data["refitted"] = True
        elif action.kind == "refit_hex":
            refit_hex(eng, frame, side, str(a.get("unit")), str(a.get("rp")))
            frame.data["refitted"] = True
        elif action.kind in ("refit_box", "refit_destroyed"):
            refit_from_box(eng, frame, side, str(a.get("unit")), list(a.get("rps") or []), int(a.get("steps") or 0),
                           destroyed=action.kind == "refit_destroyed", to=str(a.get("to") or ""))
            frame.data["refitted"] = True
        else:
            super().apply(eng, frame, action)


# =========================================================================== 8.4 / 17.3 upgrades
def _gt_available(eng: Engine, text: str) -> bool:
    """An Upgrade Chart row's ``available``: "GT n" (from that GT on) or a card id (once played)."""
    import re

    m = re.search(r"GT\s*(\d+)", text)
    if m and eng.state.gt >= int(m.group(1)):
        return True
    for card in re.findall(r"[A-Z]{3}-\d+", text):
        if eng.state.cards.get(card, {}).get("status") in ("in_play", "discarded", "played"):
            return True
    return False


def _in_play(eng: Engine, cid: str) -> bool:
    """A counter is in play unless absent, removed, or waiting in an Upgrade Box (27.1)."""
    for uid, u in eng.state.units.items():
        if uid.split("#", 1)[0] == cid and u.loc != "removed" and not u.loc.lower().startswith("box:upgrade"):
            return True
    return False


def upgrade_rows(eng: Engine, u: UnitState) -> list[tuple[int, object]]:
    from core import charts

    out = []
    for i, row in enumerate(charts.upgrades()):
        if u.id.split("#", 1)[0] in row.from_ and _gt_available(eng, row.available):
            free = [t for t in row.to if not _in_play(eng, t)]
            if free and (row.kind != "split" or len(free) == len(row.to)):
                out.append((i, row))
    return out


def _upgrade_eligible(eng: Engine, u: UnitState, ez: set | None = None) -> str:
    """'' when ``u`` may upgrade now, else the reason (8.2 g, 12.2.4, 17.2)."""
    if u.disrupted:
        return "disrupted units may not refit or upgrade"
    if u.loc == refit_box(u.side):
        return ""
    if hex_of(u) is None:
        return "only units on the map or in the Refit Box may upgrade"
    if u.ogs or u.isolated:
        return "the unit must be in general supply to refit or upgrade"
    if hex_of(u) in (ez if ez is not None else zoc.zoc_hexes(eng.state, other(u.side))):
        return "the unit may not be in an enemy ZOC to refit or upgrade"
    return ""


def upgrade_options(eng: Engine, frame: Frame, side: str) -> list[Option]:
    out: list[Option] = []
    if side == "Axis" and eng.state.vars.get("primary_base_moved_gt") == eng.state.gt:
        return out
    ez = zoc.zoc_hexes(eng.state, other(side))          # one state: the enemy ZOC once for every unit
    for u in sorted(eng.state.units_of(side), key=lambda x: x.id):
        if u.id in frame.data.get("upgraded", []) or _upgrade_eligible(eng, u, ez):
            continue
        for i, row in upgrade_rows(eng, u):
            if row.rp == 0:
                out.append(Option(action=Action(kind="upgrade", side=side, args={"unit": u.id, "row": i}),
                                  label=f"Upgrade {counter_of(u).name}: {row.kind} into {', '.join(row.to)} (17.3)"))
    return out[:20]


def upgrade(eng: Engine, frame: Frame, side: str, uid: str, row_i: int, rids: list, to: str = "") -> None:
    """8.4 / 17.3: substitution, split (steps constant, excess to the Refit Box) or addition;
    RP (if the row asks for them) are expended as for a refit (same nationality, within
    reaction distance on the map or at the primary base from the Refit Box)."""
    from core import charts
    from core.rules import offmap

    st = eng.state
    u = st.units.get(uid)
    if u is None or u.side != side:
        raise IllegalAction(f"{uid!r} is not a {side} unit", "17.3")
    if side == "Axis" and st.vars.get("primary_base_moved_gt") == st.gt:
        raise IllegalAction("no Axis refit in the GT the primary base is transferred", "12.2.4")
    if uid in frame.data.get("upgraded", []):
        raise IllegalAction(f"{counter_of(u).name} has already been upgraded this phase", "17.3")
    why = _upgrade_eligible(eng, u)
    if why:
        raise IllegalAction(f"{counter_of(u).name}: {why}", "8.4; 17.3; 8.2 g")
    rows = dict(upgrade_rows(eng, u))
    if row_i not in rows:
        rows_all = charts.upgrades()
        if 0 <= row_i < len(rows_all) and uid.split("#", 1)[0] in rows_all[row_i].from_:
            raise IllegalAction(f"the upgrade into {', '.join(rows_all[row_i].to)} is not available yet "
                                f"({rows_all[row_i].available}) or its counters are in play", "8.4")
        raise IllegalAction(f"{counter_of(u).name} has no Upgrade Chart row {row_i}", "8.4; 17.3")
    row = rows[row_i]
    if row.rp:
        rps = [_rp(eng, r, side) for r in rids]
        if sum(r.steps for r in rps) < row.rp:
            raise IllegalAction(f"this upgrade expends {row.rp} RP through the refit procedure", "17.3")
        for rp in rps:
            if not same_nationality(u, rp):
                raise IllegalAction(f"{rp_nationality(rp)} RP may not refit the {counter_of(u).nationality} unit", "17.2.1")
            ok = near_primary(eng, side, rp) if u.loc == refit_box(side) else (
                hex_of(rp) is not None and within_reaction_distance(eng, u, hex_of(rp)))
            if not ok:
                raise IllegalAction("the RP must be within the unit's reaction distance (or at the primary base for a "
                                    "unit in the Refit Box)", "17.3; 17.2")
        _cw_limit(frame, u)
        _spend(eng, rps, row.rp)
    loc = u.loc
    free = [t for t in row.to if not _in_play(eng, t)]

    def place(cid: str, where: str, steps: int) -> str:
        for nid, x in st.units.items():                       # a counter waiting in the Upgrade Box
            if nid.split("#", 1)[0] == cid and x.loc.lower().startswith("box:upgrade"):
                x.loc, x.steps = where, steps
                return nid
        if cid in st.units:
            st.units[cid].loc, st.units[cid].steps = where, steps
            return cid
        nid = offmap.add_counter(eng, cid, where, "17.3")
        if nid is None:
            raise IllegalAction(f"the counter {cid} cannot be brought into play", "17.3; 2.4")
        st.units[nid].steps = steps
        return nid

    placed: list[str] = []
    if row.kind == "addition":
        for cid in free:
            placed.append(place(cid, loc, all_counters_steps(cid)))
    else:
        if row.kind == "substitution":
            pick = to or free[0]
            if pick not in free:
                raise IllegalAction(f"{pick!r} is not a free counter of this upgrade ({', '.join(free)})", "17.3")
            targets = [pick]
        else:
            targets = free
        budget = u.steps * (2 if counter_of(u).divisional else 1)
        for cid in targets:
            full = all_counters_steps(cid)
            if row.kind == "substitution":
                placed.append(place(cid, loc, min(u.steps, full)))
                continue
            weight = 2 if _divisional(cid) else 1                   # 15.10: a divisional step counts two
            take = min(full, budget // weight)
            if take > 0:
                placed.append(place(cid, loc, take))
                budget -= take * weight
            else:
                placed.append(place(cid, refit_box(side), full))      # 17.3: excess new units to the Refit Box
        u.loc = "removed"
        u.flags = dict(u.flags) | {"removed_by": "17.3 upgrade"}
    frame.data.setdefault("upgraded", []).extend([uid] + placed)
    eng.say(f"{counter_of(u).name} is upgraded ({row.kind}): {', '.join(f'{p} at {st.units[p].loc}' for p in placed)} "
            "(8.4, 17.3)")


def _divisional(cid: str) -> bool:
    from core.counters import all_counters

    return all_counters()[cid].divisional


def all_counters_steps(cid: str) -> int:
    from core.counters import all_counters

    return all_counters()[cid].steps


for _k in ("VI.2", "IX.2", "XII.2", "XV.2"):
    on_step(_k, "refit")
