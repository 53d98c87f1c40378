"""Ground-rules measures (issue 5): reachable hexes of a stack on the whole grand-campaign grid,
GenS of every unit of one side in the largest set-up, and the ratio against networkx's
single-source Dijkstra on the same hex graph (same MP costs, no ZOC)."""

from __future__ import annotations

import time

import networkx as nx

from core.hexgrid import Hex
from core.newgame import initial_state
from core.rules import movement, supply, tec
from core.rules.status import hex_of, tec_class
from core.state import UnitState


def _grand_campaign():
    """The North African Campaign: every map in play (R-MAPS-IN-PLAY: a stack on a map the scenario does not use
    reaches nothing, so the grand-campaign grid is named, not the scenario with the most set-up lines)."""
    from core.scenario import load

    return load("north-african-campaign")


def _graph(gm: tec.GroundMap, cls: str) -> nx.DiGraph:
    g = nx.DiGraph()
    for h in tec.grid_hexes(gm):
        for n in tec.nbrs(h):
            c, _ = tec.step_cost(gm, cls, h, n)
            if c is not None:
                g.add_edge(h, n, weight=c)
    return g


def run() -> list[tuple]:
    rows: list[tuple] = []
    gm = tec.current_map()
    sc = _grand_campaign()
    st = initial_state(sc, 1)
    st.stack = []                                   # only the state is needed; no decisions are asked
    # a mechanised stack with a long reach, in the middle of the grand-campaign grid
    start = Hex.parse("C1520")
    st.units["GE-5Pz"] = UnitState(id="GE-5Pz", side="Axis", loc=start.label, steps=2)
    opts = movement.MoveOptions(road_march=False)
    reps = 5
    t0 = time.perf_counter()
    for _ in range(reps):
        paths = movement.reachable_paths(st, "Axis", ["GE-5Pz"], opts, gm=gm)
    t_reach = (time.perf_counter() - t0) / reps
    rows.append(("reachable hexes, one mechanised stack (MA 22)", t_reach * 1000, "ms",
                 f"{len(paths)} hexes from {start.label}; map: {gm.source}"))
    cls = tec_class(st, st.units["GE-5Pz"])
    g = _graph(gm, cls)
    cap = movement.allowance(st, st.units["GE-5Pz"], opts)
    t0 = time.perf_counter()
    for _ in range(reps):
        d = nx.single_source_dijkstra_path_length(g, start, cutoff=cap, weight="weight")
    t_nx = (time.perf_counter() - t0) / reps
    rows.append(("networkx single-source Dijkstra, same graph and cutoff", t_nx * 1000, "ms",
                 f"{len(d)} nodes, {g.number_of_edges()} edges (graph build not timed)"))
    rows.append(("reachable / networkx time ratio", t_reach / t_nx if t_nx else float("inf"), "x",
                 "ours adds ZOC, fraction loss (13.3) and per-route states"))
    side = "Axis"
    n_units = sum(1 for u in st.units.values() if u.side == side and hex_of(u) is not None)
    t0 = time.perf_counter()
    for _ in range(reps):
        status = supply.gens_status(st, side, gm)
    t_sup = (time.perf_counter() - t0) / reps
    rows.append((f"GenS of every {side} unit, {sc.id} set-up", t_sup * 1000, "ms",
                 f"{n_units} units on the grid; {sum(v == 'IGS' for v in status.values())} IGS"))
    rows += _decision_rows()
    return rows


def _decision_rows() -> list[tuple]:
    """The ground rules inside autoplay: the bots' sampled moves of one Movement decision on a fresh
    state (cold: map step tables being filled; warm: the cross-decision memo), and the random bot on
    ``dfd autoplay desert-fox --seed 1 --max-decisions 600`` (in memory, CPU time; before the issue-5
    performance pass: 91 decisions/s on the reference machine, see docs/rulings.d/ground.md G-PERF)."""
    from core.bots import RandomBot
    from core.engine import Engine
    from core.scenario import load

    rows: list[tuple] = []
    eng = Engine(initial_state(load("desert-fox"), 1))
    bot = RandomBot(1)
    n = 0
    t0 = time.process_time()
    while (d := eng.pending()) is not None and n < 600:
        eng.apply(bot.choose(d))
        n += 1
    dt = time.process_time() - t0
    rows.append(("autoplay desert-fox seed 1, 600 decisions (engine only)", n / dt if dt else 0.0, "dec/s",
                 f"{dt:.2f} s CPU; GT {eng.state.gt}; the sampled moves reuse searches across decisions"))
    eng = Engine(initial_state(load("desert-fox"), 1))
    while (d := eng.pending()) is not None and d.kind != "movement":
        eng.apply(bot.choose(d))
    if d is not None:
        frame = eng.state.stack[-1]
        movement._FAR_CACHE.clear()
        t0 = time.perf_counter()
        opts = movement.sample_moves(eng, frame, d.side, reaction=False)
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        movement.sample_moves(eng, frame, d.side, reaction=False)
        warm = time.perf_counter() - t0
        rows.append(("sampled moves of one Movement decision (new searches)", cold * 1000, "ms",
                     f"{len(opts)} options, GT {eng.state.gt}"))
        rows.append(("sampled moves of one Movement decision (memoised)", warm * 1000, "ms",
                     "same state: every search answered from the memo"))
    return rows
