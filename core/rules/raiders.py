"""16.0 Desert raiders and the Oasis Track (optional rule, chosen at new game: ``dfd new --optional
desert_raiders`` or the New game dialog, kept as ``vars["optional"]["desert_raiders"]``; ``core.scenario``).

* 16.2 Oasis Track movement: box to box 14 MP; box <-> desert-track connection hex 14 MP (16.2.1);
  Jalo (C0117) and Siwa (W0106) are boxes for the track and hexes on the grid.  Only desert-capable
  units enter the boxes.  A unit may move into, not through, a box with an enemy unit: entering it
  triggers the combat engineer's ``oasis_combat`` (16.3).
  Action ``oasis_move`` {units, path: [box ids "box:Oasis:<name>" or hex labels]} of the movement
  decision; a unit reaching the hex grid may go on with ``move`` with the MP it has left.
* 16.4 raider missions: ``raid`` {unit, mission: "supply"|"airfield"|"guiding", target}.
* 16.1 elimination: 1-2 back next GT, 3-6 two GTs later (through 7.1 arrivals); on the track a
  raider that did not move and has no enemy in its box recovers at the end of the Movement Phase.
"""

from __future__ import annotations

from core.decisions import IllegalAction, other
from core.engine import Engine, at_phase_end
from core.hexgrid import Hex, HexLabelError
from core.rules import control, tec
from core.rules.status import (
    MOVEMENT_PHASES, counter_of, desert_raider_rules, has_real_cf, hex_of, is_combat, is_desert_raider, morale,
    morale_passes, movement_allowance, phasing, supply_kind,
)
from core.state import Frame, GameState, UnitState

E = tec.EIGHTH
TRACK_COST = 14 * E          # 16.2, 16.2.1
PREFIX = "box:Oasis:"
CHAD = "FF-Chad"             # 16.1: the CW (Free French) Chad unit
KUFRA = PREFIX + "kufra"


def is_chad(u: UnitState | str) -> bool:
    uid = u if isinstance(u, str) else u.id
    return uid.split("#", 1)[0] == CHAD


#: 16.0: the players chose the optional desert raider rules at new game (one definition: ``status.desert_raider_rules``)
enabled = desert_raider_rules


def _boxes() -> dict[str, dict]:
    from core import mapdata

    return {k: v for k, v in mapdata.load().offmap_boxes().items() if v.get("kind") in ("oasis", "oasis_hex")}


def node(name: str) -> str:
    """The track node of a box name: Jalo and Siwa are their hexes (16.2.1 Important)."""
    rec = _boxes().get(name, {})
    return rec.get("hex") or PREFIX + name


def links() -> dict[str, dict[str, int]]:
    """Track graph: node -> {neighbour node: MP (eighths)} (box ids, oasis-box hexes, connection hexes)."""
    out: dict[str, dict[str, int]] = {}
    for name, rec in _boxes().items():
        a = node(name)
        for c in rec.get("connections", []):
            b = node(c["to"]) if "to" in c else c["hex"]
            cost = int(c.get("cost_mp", 14)) * E
            out.setdefault(a, {})[b] = cost
            out.setdefault(b, {})[a] = cost
    return out


def box_ids() -> list[str]:
    """The Oasis Track boxes proper (not Jalo and Siwa, which are hexes on the grid): "any oasis box" (30.2)."""
    return sorted(PREFIX + name for name, rec in _boxes().items() if rec.get("kind") == "oasis")


def is_box(loc: str) -> bool:
    return loc.startswith(PREFIX)


def desert_capable(u: UnitState) -> bool:
    c = counter_of(u)
    return c.desert_capable or c.move_class == "raider"


def entry_cost(box: str, hex_label: str) -> int | None:
    """16.2.1: 14 MP from an oasis box to a connection hex (13.8 hook)."""
    return links().get(box, {}).get(hex_label) if is_box(box) else None


def exit_cost(u: UnitState, last: str, to: str) -> int | None:
    if not is_box(to):
        return None
    if not desert_capable(u):
        raise IllegalAction(f"only desert capable units may enter Oasis Track boxes ({counter_of(u).name})", "16.2")
    return links().get(last, {}).get(to)


def oasis_move(eng: Engine, frame: Frame, side: str, args: dict) -> None:
    """16.2 / 16.2.1 movement along the track (the path lists the nodes entered)."""
    st = eng.state
    if not enabled(st):
        raise IllegalAction("the Oasis Track is used only with the optional desert raider rules", "16.0")
    ids = args.get("units")
    if not isinstance(ids, list) or not ids:
        raise IllegalAction("name the units moving along the Oasis Track", "16.2")
    units = []
    for i in ids:
        u = st.units.get(str(i))
        if u is None or u.side != side:
            raise IllegalAction(f"{i!r} is not a {side} unit", "16.2")
        if not desert_capable(u):
            raise IllegalAction(f"only desert capable units may enter Oasis Track boxes ({counter_of(u).name})", "16.2")
        if u.id in frame.data.get("moved", {}) and u.id not in frame.data.get("continue", []):
            raise IllegalAction(f"{counter_of(u).name} has already moved this phase", "13.1")
        units.append(u)
    if len({u.loc for u in units}) != 1:
        raise IllegalAction("the units must start together", "16.2")
    path = [str(x) for x in (args.get("path") or [])]
    if not path:
        raise IllegalAction("the path is empty: name the boxes or hexes entered", "16.2")
    g = links()
    cur = units[0].loc
    if cur not in g:
        # 16.1: the Chad unit enters the game (and re-enters after a retreat off the map or a refit) only at Kufra
        if all(is_chad(u) for u in units) and ":" in cur and not is_box(cur) and cur != "removed":
            if path[0] != KUFRA:
                raise IllegalAction("the Free French Chad unit enters only at Kufra", "16.1")
            g = dict(g)
            g[cur] = {KUFRA: 0}
        else:
            raise IllegalAction(f"{counter_of(units[0]).name} is not on the Oasis Track or a connection hex", "16.2.1")
    spent = {u.id: int(frame.data.get("moved", {}).get(u.id, 0)) for u in units}
    combat_box = None
    for i, nxt in enumerate(path):
        if nxt not in g.get(cur, {}):
            raise IllegalAction(f"{nxt} is not connected to {cur} along the Oasis Track", "16.2.1")
        if combat_box is not None:
            raise IllegalAction(f"units may move into, but not through, an oasis box occupied by an enemy unit "
                                f"({combat_box})", "16.2")
        if any(o.side != side for o in st.units_at(nxt)):
            if not is_box(nxt) and not g.get(nxt):
                raise IllegalAction(f"{nxt} is occupied by the enemy", "16.2.1")
            combat_box = nxt
        for u in units:
            spent[u.id] += g[cur][nxt]
            cap = movement_allowance(u) * E
            if spent[u.id] > cap:
                raise IllegalAction(f"{counter_of(u).name} needs {tec.mp(spent[u.id]):g} MP to reach {nxt} but has "
                                    f"{tec.mp(cap):g}", "16.2")
        cur = nxt
    cont = frame.data.setdefault("continue", [])
    for u in units:
        u.loc = cur
        u.reserve = False
        u.flags = dict(u.flags) | {"oasis_moved": [st.gt, st.phase]}
        frame.data.setdefault("moved", {})[u.id] = spent[u.id]
        if not is_box(cur) and u.id not in cont:
            cont.append(u.id)                       # on the grid: may continue with the MP left (13.8)
        elif is_box(cur) and u.id in cont:
            cont.remove(u.id)
    eng.say(f"{', '.join(counter_of(u).name for u in units)} move along the Oasis Track to {cur} (16.2)")
    if combat_box is not None and is_box(combat_box):
        st.vars["oasis_links"] = {k: sorted(v) for k, v in g.items()}
        prev = path[-2] if len(path) > 1 else units[0].flags.get("oasis_from", "")
        eng.push("oasis_combat", attackers=[u.id for u in units], box=combat_box, **({"from": prev} if prev else {}))


# ---------------------------------------------------------------- 16.4 raider missions
def _adjacent(a: Hex, b: Hex) -> bool:
    return a.distance(b) == 1


def raid(eng: Engine, frame: Frame, side: str, args: dict) -> None:
    st = eng.state
    if not enabled(st):
        raise IllegalAction("raider missions belong to the optional desert raider rules", "16.0")
    u = st.units.get(str(args.get("unit", "")))
    if u is None or u.side != side or not is_desert_raider(st, u):
        raise IllegalAction(f"{args.get('unit')!r} is not a {side} desert raider", "16.4")
    if u.disrupted or hex_of(u) is None:
        raise IllegalAction("an undisrupted raider on the hex grid may conduct a mission", "16.4")
    done = frame.data.setdefault("raids", [])
    if u.id in done:
        raise IllegalAction(f"{counter_of(u).name} has already conducted a mission this Movement Phase", "16.4")
    mission = str(args.get("mission", ""))
    h = hex_of(u)
    if mission == "supply":
        t = st.units.get(str(args.get("target", "")))
        if t is None or t.side == side or supply_kind(t) not in ("msu", "dump") or hex_of(t) is None:
            raise IllegalAction("a supply raid targets an enemy MSU or dump (not a base)", "16.4")
        if not _adjacent(h, hex_of(t)):
            raise IllegalAction("the raider must be adjacent to the supply unit", "16.4")
        drm = -1 if any(has_real_cf(o) and o.side == t.side for o in st.units_at(t.loc)) else 0
        die = eng.roll(1, f"Supply raid on the {supply_kind(t)} in {t.loc} (16.4)")[0]
        ok = morale_passes(die, morale(t), drm)
        if not ok:
            t.disrupted = True
        eng.say(f"{die}{drm:+d} + morale {morale(t)}: the {supply_kind(t)} {'holds' if ok else 'is disrupted'} (16.4)")
    elif mission == "airfield":
        try:
            a = Hex.parse(str(args.get("target", "")))
        except HexLabelError:
            raise IllegalAction("name the airfield hex", "16.4") from None
        from core import mapdata

        if not mapdata.load().airfield(a) or not _adjacent(h, a):
            raise IllegalAction("an airfield raid is made adjacent to an enemy-controlled airfield", "16.4")
        if control.controller(st, a.label) != other(side):
            raise IllegalAction(f"the airfield at {a.label} is not enemy controlled", "16.4")
        enemy_adj = any(o.side != side and has_real_cf(o) and (oh := hex_of(o)) is not None and _adjacent(h, oh)
                        for o in st.units.values())
        on_af = any(o.side != side and is_combat(o) for o in st.units_at(a.label))
        drm = (1 if enemy_adj else 0) + (2 if on_af else 0)
        die = eng.roll(1, f"Airfield raid on {a.label} (16.4)")[0]
        ok = morale_passes(die, morale(u), drm)
        if ok:
            st.vars.setdefault("airfields_disrupted", {})[a.label] = {"gt": st.gt, "rule": "16.4"}
        eng.say(f"{die}{drm:+d}: the raid {'disrupts the airfield' if ok else 'fails'} at {a.label} (16.4)")
    elif mission == "guiding":
        if u.id in frame.data.get("moved", {}):
            raise IllegalAction("a guiding raider does not move this phase", "16.4")
        gm = tec.current_map()
        if not any("wadi" in gm.side_terrain(h, n) for n in tec.nbrs(h)):
            raise IllegalAction(f"{h.label} has no wadi hexside", "16.4")
        st.vars.setdefault("guides", {})[h.label] = {"side": side, "gt": st.gt, "phase": st.phase}
        frame.data.setdefault("moved", {})[u.id] = 0
        eng.say(f"{counter_of(u).name} guides: {side} units ignore the wadi costs into and out of {h.label} (16.4)")
    else:
        raise IllegalAction("the missions are supply, airfield and guiding", "16.4")
    done.append(u.id)


def guided_hexes(state: GameState, side: str) -> frozenset[str]:
    """16.4 Guiding: the hexes whose wadi costs ``side`` ignores this phase (``vars["guides"]``)."""
    g = state.vars.get("guides")
    if not g:
        return frozenset()
    return frozenset(lab for lab, rec in g.items()
                     if rec.get("side") == side and (rec.get("gt"), rec.get("phase")) == (state.gt, state.phase))


def guided_wadi(state: GameState, side: str, a: Hex, b: Hex) -> bool:
    """16.4 Guiding: this phase, ``side`` ignores wadi costs entering or leaving a guided hex."""
    g = state.vars.get("guides", {})
    for lab in (a.label, b.label):
        rec = g.get(lab)
        if rec and rec["side"] == side and (rec["gt"], rec["phase"]) == (state.gt, state.phase):
            return True
    return False


# ---------------------------------------------------------------- 16.1 recovery and elimination
@at_phase_end
def raiders_phase_end(eng: Engine, phase: int) -> None:
    st = eng.state
    if not enabled(st):
        return
    for u in sorted(st.units.values(), key=lambda x: x.id):
        if not is_desert_raider(st, u):
            continue
        if (u.loc.startswith(("box:Refit:", "box:Destroyed:")) and not u.flags.get("raider_return_gt")
                and not is_chad(u)):    # 16.1 "If eliminated, it [Chad] may enter at Kufra after it refits": no roll
            die = eng.roll(1, f"{counter_of(u).name} eliminated (16.1)")[0]
            gt = st.gt + (1 if die <= 2 else 2)
            u.flags = dict(u.flags) | {"raider_return_gt": gt, "removed_by": "16.1 (returns later)"}
            u.loc = "removed"
            from core.rules import reinforcements

            reinforcements.schedule_arrival(eng, u.id, gt, "16.1", side=u.side)
            eng.say(f"{die}: {counter_of(u).name} is available again in GT {gt} (16.1)")
        if phase in MOVEMENT_PHASES and phasing(eng, phase) == u.side and is_box(u.loc) and u.disrupted:
            if u.flags.get("oasis_moved") != [st.gt, phase] and not any(o.side != u.side for o in st.units_at(u.loc)):
                u.disrupted = False
                eng.say(f"{counter_of(u).name} recovers on the Oasis Track (16.1 Important)")
