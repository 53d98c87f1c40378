"""26.3 Sonnenblume marginal victory, played from the real set-up (26.0: GT 10 Phase XII to GT 14) through
``Engine.apply`` only (issue 16): "count the standard port capacity of all ports held by the Axis player (on Maps
C and W) that have an LOC to C0701.  a) If the number is five or more the Axis player wins a marginal victory."

Both players' moves are scripted.  The Allies clear the way: they destroy their base in Mersa Matruh (12.2.5) and
march its garrison and the covering forces off the coast; the Axis drives 3 Aufkl to Benghazi (2 standard boxes),
5 Pz to Bardia (1) and the Kasta HQ to Mersa Matruh (2), where the Egyptian railhead stays (18.2.1: "not affected by
enemy action").  Benghazi and Bardia alone are 3 standard boxes (they have 5 port boxes with Benghazi's two
limited ones, which 26.3 does not count); Mersa Matruh makes 5.  The Axis holds the count at the end, but AXC-9
(Axis in Egypt: it controls Mersa Matruh) is a smashing victory, which 26.3 puts first."""

from __future__ import annotations

import heapq

from core.decisions import ALLIED, AXIS, Action, IllegalAction, other
from core.hexgrid import Hex
from core.rules import tec, victory_rules as vr, zoc
from core.rules.status import is_track_marker, tec_class
from tests.playpath import Play

BENGHAZI, BARDIA, MATRUH, JALO = "C2308", "W2104", "W2118", "C0117"


def cheapest_path(p: Play, uid: str, goal: str) -> list[str]:
    """The cheapest path (13.3 MP costs of the unit's class) to ``goal`` on Maps C and W, around enemy units and
    ending at the first enemy ZOC hex it enters (11.3); the railhead is no unit (18.2.1)."""
    st = p.state
    u = st.units[uid]
    gm, cls = tec.map_for(st), tec_class(st, u)
    ezoc = zoc.zoc_hexes(st, other(u.side))
    enemy = {v.loc for v in st.units.values() if v.side != u.side and not is_track_marker(v)} - {goal}
    start, end = Hex.parse(u.loc), Hex.parse(goal)
    cost, prev, todo = {start: 0}, {start: None}, [(0, start.label, start)]
    while todo:
        c, _, h = heapq.heappop(todo)
        if h == end:
            break
        if c > cost[h] or (h != start and h in ezoc):
            continue
        for n in h.neighbours():
            if n.label[:1] not in "CW" or n.label in enemy:
                continue
            step, _ = tec.step_cost(gm, cls, h, n)
            if step is not None and c + step < cost.get(n, 1 << 60):
                cost[n], prev[n] = c + step, h
                heapq.heappush(todo, (c + step, n.label, n))
    assert end in prev, f"no path for {uid} to {goal}"
    path, h = [], end
    while h != start:
        path.append(h.label)
        h = prev[h]
    return path[::-1]


def drive(p: Play, uid: str, goal: str) -> str:
    """A free-form move (13.1) of ``uid`` as far along its cheapest path to ``goal`` as its MA allows."""
    path = cheapest_path(p, uid, goal)
    for n in range(len(path), 0, -1):
        try:
            p.eng.apply(Action(kind="move", side=p.state.units[uid].side, args={"units": [uid], "path": path[:n]}))
            return path[n - 1]
        except IllegalAction:
            continue
    raise AssertionError(f"{uid} cannot move toward {goal}")


def standard_capacity_held(p: Play) -> int:
    cond = next(c for c in vr.conditions(p.eng) if c["kind"] == "port_capacity")
    return sum(vr.standard_boxes(h) for h in vr._ports(p.eng)
               if h[:1] in cond["maps"] and vr.controller(p.eng, h) == AXIS
               and vr.overland_connected(p.eng, AXIS, h, cond["loc_to"]))


def test_26_3_axis_ports_of_five_standard_boxes_with_an_loc_to_c0701_hold_the_marginal_condition():
    p = Play("sonnenblume", seed=1)
    cond = next(c for c in vr.conditions(p.eng) if c["kind"] == "port_capacity")
    assert cond["threshold"] == 5 and cond["loc_to"] == "C0701" and cond["level"] == "marginal"
    p.to("movement", side=ALLIED)                                    # GT 10 Phase XV
    base = next(u.id for u in p.state.units_at(MATRUH) if u.id.startswith("AL-Base"))
    p.act("destroy_supply", unit=base, by="UK-22Bde")                # 12.2.5 1), before any move
    for uid, goal in (("UK-KDG", JALO), ("UK-2SG", JALO), ("UK-3LtArm", JALO), ("AU-20AusBG", "C2420"),
                      ("AU-24AusBG", "C2420"), ("UK-22Bde", "W1834"), ("IN-3Ind", "W1834"), ("UK-13Corps", "W1834")):
        drive(p, uid, goal)
    assert [u.id for u in p.state.units_at(MATRUH)] == ["AL-Railhead#1"]
    goals = {"GE-3Aufkl": BENGHAZI, "GE-5Pz": BARDIA, "GE-Kasta": MATRUH}
    while True:
        p.to("movement", side=AXIS)
        last = (p.state.gt, p.state.phase) == (14, 12)               # the last Axis Movement Phase
        for uid, goal in goals.items():
            if p.state.units[uid].loc != goal:
                drive(p, uid, goal)
            if uid == "GE-5Pz" and last:
                # Benghazi 2 + Bardia 1 standard boxes (Benghazi's 2 limited boxes do not count): 3 < 5
                assert p.state.units["GE-3Aufkl"].loc == BENGHAZI and p.state.units["GE-5Pz"].loc == BARDIA
                assert standard_capacity_held(p) == 3 and not vr.holds(p.eng, cond, AXIS)
        if last:
            break
        p.pass_()
    assert p.state.units["GE-Kasta"].loc == MATRUH and "AL-Railhead#1" in {u.id for u in p.state.units_at(MATRUH)}
    assert standard_capacity_held(p) == 5 and vr.holds(p.eng, cond, AXIS)          # + Mersa Matruh 2 = 5
    p.run(lambda eng: eng.pending() is None)                        # the Allies pass to the end of GT 14
    assert vr.holds(p.eng, cond, AXIS)
    assert p.state.result["winner"] == AXIS and p.state.result["level"] == "smashing"      # 26.3 b) AXC-9 first
