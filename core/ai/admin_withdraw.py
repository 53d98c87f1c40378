"""Allied withdrawals (7.4; 24.2 a/b, 25.2 a/b): the admin AI gets the units due off the map in time.

A unit listed for withdrawal that is still present after the end of its GT is an instant Axis victory (24.2 a); an
eliminated one costs a refit point (24.2 b).  A unit on the map must leave by regular movement at a map edge (7.4,
13.8), unless the Axis player allows it to be removed directly (7.4 Important); one in the NRV, the Available box or
on a MET track is withdrawn in the Reinforcement Phase (III.1, ``withdraw``).  So the AI:

* sets the units up as near the NRV as the set-up allows (:func:`setup_score`),
* keeps those that arrive as reinforcements off the map, and asks the ground AI to leave them alone
  (:func:`reserved_units`),
* from the GT before their withdrawal GT (earlier when they are far), takes them off the map in its Movement Phase (:func:`withdrawal_move`):
  by rail to the NRV (13.7) or by road to an NRV entry hex and out (22.1 e); on their GT, out at any map edge,
* withdraws every unit offered in III.1 (:func:`choose_withdraw`);
* as the Axis, never lets the Allies skip the march (:func:`choose_allow_withdrawal`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.ai.admin_util import my_options, pass_action, paths, plan_line, trial
from core.decisions import ALLIED, Action, Decision
from core.hexgrid import Hex
from core.rules import transport
from core.rules.status import hex_of

if TYPE_CHECKING:
    from core.engine import Engine

#: GTs ahead of its withdrawal GT that a unit starts for the NRV
LEAD_GTS = 1
NRV_ENTRY_HEXES = tuple(Hex.parse(h) for h in transport.NRV_ENTRIES)


def listed(engine: "Engine") -> dict[str, int]:
    """Unit id -> the GT it must be withdrawn by, for every scenario withdrawal (not the cards' own, ALC-26)
    of a unit still in play."""
    st = engine.state
    out: dict[str, int] = {}
    for w in st.vars.get("withdrawals", []):
        if w.get("card"):
            continue
        for uid in w.get("units", []):
            u = st.units.get(uid)
            if u is None or u.loc == "removed" or u.flags.get("withdrawn"):
                continue
            out[uid] = min(out.get(uid, 99), int(w["gt"]))
    return out


def reserved_units(engine: "Engine", side: str) -> frozenset[str]:
    """The units the admin AI moves itself (Allied units listed for withdrawal that are off the map, or whose
    withdrawal GT is near): the ground AI should leave them alone."""
    if side != ALLIED:
        return frozenset()
    st = engine.state
    return frozenset(uid for uid, gt in listed(engine).items()
                     if hex_of(st.units[uid]) is None or _must_start(engine, uid, gt))


def _must_start(engine: "Engine", uid: str, gt: int) -> bool:
    """True when ``uid`` (on the map) must head for the exit now to be off the map by the end of GT ``gt``: from
    the GT before, or earlier when its distance from the NRV entries needs more Movement Phases than remain
    (two Allied Movement Phases a GT, a rough 1/3 of its MA in hexes each)."""
    from core.rules.status import movement_allowance

    st = engine.state
    if st.gt >= gt - LEAD_GTS:
        return True
    u = st.units[uid]
    h = hex_of(u)
    if h is None:
        return False
    per_phase = max(2, movement_allowance(u) // 3)
    need = -(-nrv_distance(h) // per_phase)
    return need + 2 >= 2 * (gt - st.gt)


def nrv_distance(h: Hex) -> int:
    return min(h.distance(e) for e in NRV_ENTRY_HEXES)


def setup_score(engine: "Engine", uid: str, h: Hex) -> float | None:
    """For a unit listed for withdrawal: prefer the set-up hex nearest the NRV entries (None: not such a unit)."""
    if uid not in listed(engine):
        return None
    return -float(nrv_distance(h))


def choose_withdraw(player: Any, decision: Decision, engine: "Engine") -> Action:
    """III.1 (7.4): withdraw every unit due that may leave now; they are gone from the front either way, and one
    not withdrawn by the end of its GT loses the game (24.2 a)."""
    ws = [o.action for o in my_options(decision, player.side) if o.action.kind == "withdraw"]
    if ws:
        plan_line(player, f"withdrawing {ws[0].args['unit']} as the scenario requires (7.4; 24.2 a)")
        return ws[0]
    return pass_action(decision, player.side)


def choose_allow_withdrawal(player: Any, decision: Decision, engine: "Engine") -> Action:
    """7.4 Important: the Axis need not let the Allied withdrawals leave without marching to a map edge; refusing
    keeps the Allies' burden (and their risk of the 24.2 a instant loss)."""
    for o in my_options(decision, player.side):
        if o.action.args.get("allow") is False:
            plan_line(player, "the Allied withdrawals must march off the map (7.4 Important)")
            return o.action
    return pass_action(decision, player.side)


def _moved(engine: "Engine") -> dict:
    top = engine.state.stack[-1] if engine.state.stack else None
    return dict(top.data.get("moved", {})) if top is not None else {}


def _exits(engine: "Engine", uid: str, due_now: bool) -> list[Action]:
    """Candidate moves that take ``uid`` off the map this phase, cheapest first."""
    st = engine.state
    u = st.units[uid]
    h = hex_of(u)
    out: list[Action] = []
    if not due_now:
        out.append(Action(kind="rail", side=ALLIED, args={"units": [uid], "to": transport.NRV}))
    reach = paths(engine, [uid])
    cands: list[tuple[float, str, list[str]]] = []
    here = h.label if h is not None else ""
    targets = [(here, 0.0, [])] + [(lab, float(len(p)), p) for lab, p in reach.items()]
    gm = None
    if due_now:
        from core.rules import tec
        gm = tec.current_map()
    for lab, mp, path in targets:
        if not lab:
            continue
        if lab in transport.NRV_ENTRIES or (due_now and gm is not None and transport.map_edge(Hex.parse(lab), gm)):
            cands.append((mp, lab, path))
    cands.sort(key=lambda c: (c[0], c[1]))
    for mp, lab, path in cands[:6]:
        for exit_to in (("withdraw", transport.NRV) if due_now and lab in transport.NRV_ENTRIES
                        else ("withdraw",) if due_now else (transport.NRV,)):
            args: dict[str, Any] = {"units": [uid], "path": list(path), "exit": exit_to}
            out.append(Action(kind="move", side=ALLIED, args=args))
    return out


_EDGES: dict[int, frozenset[Hex]] = {}


def exit_distance(h: Hex, due_now: bool) -> int:
    """Hexes to the nearest exit: an NRV entry (22.1), or once the unit is due any map edge (7.4, 13.8)."""
    d = nrv_distance(h)
    if due_now:
        from core.rules import tec

        gm = tec.current_map()
        edges = _EDGES.get(id(gm))
        if edges is None:
            edges = _EDGES[id(gm)] = frozenset(x for x in tec.grid_hexes(gm) if transport.map_edge(x, gm))
        d = min([d] + [h.distance(e) for e in edges])
    return d


def _approach(engine: "Engine", uid: str, due_now: bool) -> Action | None:
    """The reachable hex nearest the exits (strictly nearer than now)."""
    u = engine.state.units[uid]
    h = hex_of(u)
    if h is None:
        return None
    best = None
    now = exit_distance(h, due_now)
    for lab, p in sorted(paths(engine, [uid]).items()):
        d = exit_distance(Hex.parse(lab), due_now)
        key = (d, len(p))
        if d < now and (best is None or key < best[0]):
            best = (key, p)
    if best is None:
        return None
    return Action(kind="move", side=ALLIED, args={"units": [uid], "path": list(best[1])})


def withdrawal_move(player: Any, decision: Decision, engine: "Engine") -> Action | None:
    """In an Allied Movement Phase (the ``movement`` decision): a move that takes a unit listed for withdrawal off
    the map, or nearer the NRV, when its withdrawal GT is close; None when there is none to make.  The ground AI
    asks this before its own moves."""
    if player.side != ALLIED or decision.kind != "movement" or decision.side != ALLIED:
        return None
    st = engine.state
    moved = _moved(engine)
    due = listed(engine)
    for uid, gt in sorted(due.items(), key=lambda kv: (kv[1], kv[0])):
        u = st.units[uid]
        if hex_of(u) is None or uid in moved:
            continue
        if not _must_start(engine, uid, gt):
            continue
        due_now = st.gt >= gt
        for a in _exits(engine, uid, due_now):
            if trial(engine, a):
                how = "by rail to the NRV" if a.kind == "rail" else (
                    "off the map" if a.args.get("exit") == "withdraw" else "to the NRV")
                plan_line(player, f"{uid} leaves {how}: it must be withdrawn by GT {gt} (7.4; 24.2 a)")
                return a
        a = _approach(engine, uid, due_now)
        if a is not None and trial(engine, a):
            plan_line(player, f"{uid} marches toward the NRV: it must be withdrawn by GT {gt} (7.4; 24.2 a)")
            return a
    return None


def reinforce_hold(engine: "Engine", uid: str, decision: Decision, side: str) -> Action | None:
    """A reinforcement listed for withdrawal stays off the map: to the NRV when offered, else held (7.1)."""
    if uid not in listed(engine):
        return None
    opts = my_options(decision, side)
    for o in opts:
        if o.action.kind == "deploy" and o.action.args.get("to") == transport.NRV:
            return o.action
    for o in opts:
        if o.action.kind == "hold":
            return o.action
    return None
