"""The engine-speed targets of issue 18, one row per line of its table: measure, target, figure, PASS/FAIL.

``python -m benchmarks`` prints them (``--json`` as one JSON document); ``python -m benchmarks.targets ROW...``
runs only the rows whose key contains one of the words.  Every figure is measured here, on this machine, from
real scenario set-ups played by the random bot; a row's label says what it measured (how many actions a game
has, which scenario).  Nothing is asserted: performance lives here, never in the tests.

Rows and how they are measured:

* ``apply``   apply + commit one action (``Game.act``: ``Engine.apply`` + the SQLite commit) over a whole North
  African Campaign game played by ``RandomBot(1)`` (capped at ``DFD_BENCH_NAC_ACTIONS``, default 6,000
  actions); p50, p99, and the mean of the last quarter over the mean of the first ("flat" = at most 1.5x).
  The ratio beside it is the p50 against one raw ``sqlite3`` insert + commit of the same row with the same
  pragmas (WAL, ``synchronous=FULL``).  The bot reading the options is not part of this row (it is in
  ``autoplay``): options are computed when asked for, never by ``apply``.
* ``open``    ``Game.open`` of that NAC file and of a whole Rommel's War game, in a fresh process each.
* ``verify``  ``core.game.verify`` of the NAC file: actions per second.
* ``autoplay`` decisions per second of the random bot (bot choice + ``Game.act``) on a whole Sonnenblume game and
  on the NAC game above.
* ``app``     a fresh ``python`` process to the first paint of the main window (imports included): the default
  game (created on first use), and the NAC campaign file.
* ``lan``     a ``dfd host`` process and two in-process clients: command sent -> host's ack (applied, committed,
  broadcast) p99; and ``benchmarks.bench_net``'s rows (issue 20): host + 8 client processes on this machine,
  command -> all applied p50/p99; 2 players + 24 spectators p99; catch-up 1,000 and 5,000 actions behind and host
  SIGKILL -> next applied action on a 6,000-action NAC game; each beside a raw pyzmq round trip measured here.
* ``reach``   reachable hexes of one mechanised stack (MA 22, C1520, the whole grand-campaign grid), cold (the first
  search in a fresh process) and warm, against networkx's single-source Dijkstra on the same hex graph (graph build
  not timed).  The map is loaded before the cold search, as for a player (the map is on screen before a first
  query): loading it fills the class-free step tables of the whole grid (``tec.GroundMap.fill_edges``), so that
  part of the first query's cost is paid by the map's load, in the ``open`` and ``app`` rows; the row prints the
  map's load and the filling's share of it beside the figure.
"""

from __future__ import annotations

import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAC = "north-african-campaign"


@dataclass
class Row:
    key: str
    measure: str
    target: str
    value: float
    unit: str
    ok: bool
    beside: str = ""            # ratios against networkx / raw sqlite3, or other figures
    extra: dict = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"measure": self.measure, "target": self.target, "value": self.value, "unit": self.unit,
                "pass": self.ok, "key": self.key, "beside": self.beside, **self.extra}


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


# =========================================================================== games played by the bot
@dataclass
class Played:
    path: Path
    scenario: str
    actions: int
    act_ms: list[float]       # Game.act per action (wall clock)
    total_s: float            # bot + act (wall clock)
    act_cpu_ms: list[float]   # the same, CPU time of this process (fsync waits excluded)
    total_cpu_s: float
    ended: bool
    gt: int


def play(path: Path, scenario: str, seed: int, cap: int) -> Played:
    from core.bots import RandomBot
    from core.game import Game

    g = Game.new(path, scenario, seed, overwrite=True)
    bot = RandomBot(seed)
    times: list[float] = []
    cpu: list[float] = []
    clock, cpu_clock = time.perf_counter, time.process_time
    t0, c0 = clock(), cpu_clock()
    while (d := g.engine.pending()) is not None and len(times) < cap:
        a = bot.choose(d)
        t, c = clock(), cpu_clock()
        g.act(a)
        times.append((clock() - t) * 1000)
        cpu.append((cpu_clock() - c) * 1000)
    total, total_cpu = clock() - t0, cpu_clock() - c0
    out = Played(path, scenario, len(times), times, total, cpu, total_cpu, g.engine.pending() is None, g.state.gt)
    g.close()
    return out


def raw_sqlite_append_ms(tmp: Path, n: int = 300) -> float:
    """Median of one insert + commit of an action row with raw sqlite3 (WAL, synchronous=FULL)."""
    con = sqlite3.connect(tmp / "raw.sqlite", isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=FULL")
    con.execute("CREATE TABLE a (seq INTEGER PRIMARY KEY, kind TEXT, side TEXT, action TEXT, rolls TEXT, events TEXT, "
                "hash TEXT, gt INTEGER, phase INTEGER, created REAL)")
    action = json.dumps({"kind": "move", "side": "Axis", "args": {"units": ["GE-21Pz"], "path": ["C2331"] * 8}})
    ts = []
    for i in range(1, n + 1):
        t = time.perf_counter()
        con.execute("BEGIN")
        con.execute("INSERT INTO a VALUES (?,?,?,?,?,?,?,?,?,?)",
                    (i, "move", "Axis", action, "[3]", '["a line"]', "0" * 64, 10, 6, time.time()))
        con.execute("COMMIT")
        ts.append((time.perf_counter() - t) * 1000)
    con.close()
    return statistics.median(ts)


def _in_fresh_process(code: str) -> dict:
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen"))
    if r.returncode:
        raise RuntimeError(r.stderr[-2000:])
    return json.loads(r.stdout.strip().splitlines()[-1])


def open_seconds(path: Path) -> tuple[float, float]:
    """``Game.open`` in a fresh process (imports not timed: they are the app-start row's): wall and CPU seconds."""
    code = ("import json,time\nfrom core.game import Game\nimport core.rules\n"
            f"t,c=time.perf_counter(),time.process_time(); g=Game.open({str(path)!r})\n"
            "dt,dc=time.perf_counter()-t,time.process_time()-c; g.close()\n"
            "print(json.dumps({'s': dt, 'cpu': dc}))")
    r = _in_fresh_process(code)
    return r["s"], r["cpu"]


def app_start_seconds(file: Path | None, tmp: Path) -> tuple[float, float]:
    """A fresh interpreter: imports, QApplication, main window on ``file`` (or the default game), first paint."""
    code = f"""
import json, os, sys, time
os.environ['DFD_CONFIG_DIR'] = {str(tmp / 'config')!r}
os.environ['DFD_DATA_DIR'] = {str(tmp / 'data')!r}
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication
from app import theme
from app.main import build_window
from pathlib import Path
qapp = QApplication.instance() or QApplication([])
theme.apply_style(qapp)
painted = []
class F(QObject):
    def eventFilter(self, o, e):
        if e.type() == QEvent.Paint and not painted:
            painted.append(time.time())
        return False
file = {str(file) if file else ''!r}
win = build_window(Path(file) if file else None)
win.resize(1920, 1080)
f = F(); win.view.viewport().installEventFilter(f)
win.show()
end = time.time() + 20
while not painted and time.time() < end:
    qapp.processEvents()
if not painted:
    win.view.viewport().repaint(); painted.append(time.time())
print(json.dumps({{'t': painted[0], 'cpu': time.process_time()}}))
"""
    t0 = time.time()
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(ROOT), QT_QPA_PLATFORM="offscreen"))
    if r.returncode:
        raise RuntimeError(r.stderr[-2000:])
    out = json.loads(r.stdout.strip().splitlines()[-1])
    return out["t"] - t0, out["cpu"]


# =========================================================================== rows
def rows_games(tmp: Path) -> list[Row]:
    from core.game import verify

    cap = int(os.environ.get("DFD_BENCH_NAC_ACTIONS", "6000"))
    nac = play(tmp / "nac.dfd", NAC, 1, cap)
    raw = raw_sqlite_append_ms(tmp)
    p50, p99 = _pct(nac.act_ms, 0.5), _pct(nac.act_ms, 0.99)
    c50, c99 = _pct(nac.act_cpu_ms, 0.5), _pct(nac.act_cpu_ms, 0.99)
    q = max(1, nac.actions // 4)
    first, last = statistics.mean(nac.act_ms[:q]), statistics.mean(nac.act_ms[-q:])
    cfirst, clast = statistics.mean(nac.act_cpu_ms[:q]), statistics.mean(nac.act_cpu_ms[-q:])
    label = (f"{nac.actions} actions, GT 1-{nac.gt}{', to the end' if nac.ended else ''}")
    out = [
        Row("apply_p50", f"apply + commit one action, p50 ({NAC}, {label})", "<= 2 ms", p50, "ms", p50 <= 2,
            f"{p50 / raw:.1f}x a raw sqlite3 insert+commit ({raw:.2f} ms); CPU p50 {c50:.2f} ms; "
            f"{sum(t <= 5 for t in nac.act_ms) / nac.actions:.0%} <= 5 ms; mean {statistics.mean(nac.act_ms):.2f} ms",
            {"cpu": c50, "raw_sqlite_ms": raw}),
        Row("apply_p99", f"apply + commit one action, p99 ({NAC}, {label})", "<= 20 ms", p99, "ms", p99 <= 20,
            f"CPU p99 {c99:.1f} ms; max {max(nac.act_ms):.0f} ms", {"cpu": c99}),
        Row("apply_flat", f"apply + commit, mean of the last quarter / the first ({label})", "flat (<= 1.5x)",
            last / first, "x", last / first <= 1.5,
            f"first quarter {first:.2f} ms, last {last:.2f} ms; CPU {cfirst:.2f} -> {clast:.2f} ms", {"cpu": clast / cfirst}),
    ]
    rw = play(tmp / "rw.dfd", "rommels-war", 1, cap)
    for p in (nac, rw):
        s, c = open_seconds(p.path)
        out.append(Row(f"open_{p.scenario}", f"open a saved game ({p.scenario}, {p.actions} actions, Game.open)",
                       "<= 1 s", s, "s", s <= 1.0, f"CPU {c:.2f} s; fresh process, imports not included", {"cpu": c}))
    t, c = time.perf_counter(), time.process_time()
    rep = verify(nac.path)
    dt, dc = time.perf_counter() - t, time.process_time() - c
    rate = rep.actions / dt if rep.ok else 0.0
    crate = rep.actions / dc if rep.ok else 0.0
    out.append(Row("verify", f"dfd replay --verify ({NAC}, {nac.actions} actions)", ">= 1,000 actions/s", rate,
                   "actions/s", rate >= 1000, f"CPU {crate:,.0f} actions/s; {rep.message.splitlines()[0]}", {"cpu": crate}))
    sb = play(tmp / "sb.dfd", "sonnenblume", 1, cap)
    for p, target in ((sb, 1000), (nac, 300)):
        rate, crate = p.actions / p.total_s, p.actions / p.total_cpu_s
        out.append(Row(f"autoplay_{p.scenario}", f"autoplay, random bots ({p.scenario}, {p.actions} decisions)",
                       f">= {target:,} decisions/s", rate, "decisions/s", rate >= target,
                       f"CPU {crate:,.0f} decisions/s; GT {p.gt}{', ended' if p.ended else ''}; bot choice + Game.act",
                       {"cpu": crate}))
    os.environ["DFD_BENCH_NAC_FILE"] = str(nac.path)
    return out


def rows_app(tmp: Path) -> list[Row]:
    out = []
    s, c = app_start_seconds(None, tmp / "a")
    out.append(Row("app_default", "app start to interactive map (default game, created on first use)", "<= 1.5 s",
                   s, "s", s <= 1.5, f"CPU {c:.2f} s; fresh process: imports, window, first paint", {"cpu": c}))
    nac = os.environ.get("DFD_BENCH_NAC_FILE")
    if nac:
        con = sqlite3.connect(f"file:{nac}?mode=ro", uri=True)
        n = con.execute("SELECT COALESCE(MAX(seq), 0) FROM dfd_action").fetchone()[0]
        con.close()
        s, c = app_start_seconds(Path(nac), tmp / "b")
        out.append(Row("app_campaign", f"app start to interactive map ({NAC} file, {n} actions)", "<= 2 s", s, "s",
                       s <= 2.0, f"CPU {c:.2f} s; fresh process: imports, open, window, first paint", {"cpu": c}))
    return out


def rows_lan(tmp: Path) -> list[Row]:
    """Issue 18's two LAN rows and issue 20's (``benchmarks/bench_net.py`` says how each is measured)."""
    from benchmarks import bench_net

    (tmp / "c").mkdir()
    campaign, raw = bench_net.campaign_rows(tmp / "c")
    (tmp / "h").mkdir()
    with bench_net.compiled_bytecode(tmp):
        lat, n = host_ack_ms(tmp / "h")
    p99 = _pct(lat, 0.99)
    out = [Row("lan_host", f"LAN, command -> host's ack (applied, committed, sent), p99 of {n}", "p99 <= 25 ms", p99,
               "ms", p99 <= 25, f"median {statistics.median(lat):.1f} ms; {p99 / raw['p99']:.0f}x a raw pyzmq round trip "
               f"p99 ({raw['p99']:.2f} ms; p50 {raw['p50']:.2f} ms); {bench_net.LATENCY_SCENARIO}; a dfd host process "
               "+ 2 clients in this process", {"raw_p99_ms": raw["p99"], "raw_p50_ms": raw["p50"]})]
    return out + bench_net.fanout_rows(tmp, raw) + campaign


def host_ack_ms(tmp: Path) -> tuple[list[float], int]:
    """A ``dfd host`` process and two clients in this process: each command's round trip to the host's ack."""
    from core.bots import RandomBot
    from net import protocol as P
    from net.testing import Table

    from benchmarks import bench_net

    t = Table.new(tmp, [("Ax", "Axis"), ("Al", "Allied")], scenario=bench_net.LATENCY_SCENARIO, seed=3)
    t.start_host_process()
    try:
        t.connect_all()
        bot = RandomBot(3)
        lat = []
        for _ in range(bench_net.SAMPLES):
            ref = t.clients()[0]
            d = ref.pending()
            if d is None:
                break
            side = "Axis" if d.side in ("Axis", "either") else "Allied"
            c = t.by_seat(side)[0]
            c.wait_seq(ref.seq)
            mine = c.pending()
            a = bot.choose(mine)
            if a.side != side:
                continue
            t0 = time.perf_counter()
            r = c.result(c.send_command(a), 30)
            dt = (time.perf_counter() - t0) * 1000
            if isinstance(r, P.Reject) and r.code == P.STALE:
                continue                    # this client had not seen the last update yet: not a measure
            if not isinstance(r, P.Ack):
                raise RuntimeError(f"refused: {r}")
            lat.append(dt)
            for x in t.clients():
                if not x.wait_seq(r.seq, 60):
                    raise RuntimeError(f"{x.name} did not reach #{r.seq}")
        return lat, len(lat)
    finally:
        t.close()


def rows_reach() -> list[Row]:
    """Cold: the first search of the stack in a fresh process, the map loaded and the scenario set up (the map's
    step tables for these hexes not filled yet): the median of three processes.  Warm: the same search again.
    Each timing with the garbage collector off (collected before), as ``timeit`` does, ours and networkx alike."""
    runs = [_in_fresh_process("import json\nfrom benchmarks.targets import reach_measure\nprint(json.dumps(reach_measure()))")
            for _ in range(3)]
    c = statistics.median(r["cold"] for r in runs)
    w = statistics.median(r["warm"] for r in runs)
    n = statistics.median(r["nx"] for r in runs)
    cc, wc, nc = (statistics.median(r[k] for r in runs) for k in ("cold_cpu", "warm_cpu", "nx_cpu"))
    m = runs[0]
    load, fill = (statistics.median(r[k] for r in runs) for k in ("map_load", "fill"))
    note = f"{m['hexes']} hexes; networkx {n:.2f} ms, CPU {nc:.2f} ms ({m['nodes']} nodes, graph build not timed)"
    return [
        Row("reach_cold", "reachable hexes, one mechanised stack (MA 22), cold (first search in a process)",
            "<= networkx Dijkstra", c, "ms", c <= n, f"{c / n:.2f}x networkx; CPU {cc:.2f} ms = {cc / nc:.2f}x; {note}; "
            f"the map's load before it: {load:.0f} ms, of which {fill:.0f} ms fill the step tables",
            {"networkx_ms": n, "cpu": cc, "networkx_cpu": nc, "map_load_ms": load, "fill_ms": fill}),
        Row("reach_warm", "reachable hexes, one mechanised stack (MA 22), warm", "<= networkx Dijkstra", w, "ms",
            w <= n, f"{w / n:.2f}x networkx; CPU {wc:.2f} ms = {wc / nc:.2f}x; {note}",
            {"networkx_ms": n, "cpu": wc, "networkx_cpu": nc}),
    ]


def _timed(fn) -> tuple[float, object, float]:
    """(wall ms, result, CPU ms) of ``fn()`` with the garbage collector off."""
    import gc

    gc.collect()
    gc.disable()
    try:
        t, c = time.perf_counter(), time.process_time()
        out = fn()
        return (time.perf_counter() - t) * 1000, out, (time.process_time() - c) * 1000
    finally:
        gc.enable()


def reach_measure() -> dict:
    import networkx as nx

    from benchmarks.bench_ground import _grand_campaign, _graph
    from core.hexgrid import Hex
    from core.newgame import initial_state
    from core.rules import movement, tec
    from core.rules.status import tec_class
    from core.state import UnitState

    from core import mapdata

    map_load, gm, _ = _timed(tec.current_map)          # the map a player sees before the first query
    st = initial_state(_grand_campaign(), 1)
    st.stack = []
    start = Hex.parse("C1520")
    st.units["GE-5Pz"] = UnitState(id="GE-5Pz", side="Axis", loc=start.label, steps=2)
    opts = movement.MoveOptions(road_march=False)

    def search():
        return movement.reachable_paths(st, "Axis", ["GE-5Pz"], opts, gm=gm)

    cold, paths, cold_cpu = _timed(search)
    if not paths:
        raise RuntimeError(f"the measured stack at {start.label} reaches no hex in {st.scenario}: the row would time "
                           "nothing")
    warms = [_timed(search) for _ in range(9)]
    g = _graph(gm, tec_class(st, st.units["GE-5Pz"]))
    cap = movement.allowance(st, st.units["GE-5Pz"], opts)
    nx_ms = [_timed(lambda: nx.single_source_dijkstra_path_length(g, start, cutoff=cap, weight="weight"))
             for _ in range(9)]
    fill = _timed(tec._adapt(mapdata).fill_edges)[0]     # the step tables' share of the map's load
    return {"cold": cold, "warm": statistics.median(w[0] for w in warms), "nx": statistics.median(t[0] for t in nx_ms),
            "map_load": map_load, "fill": fill,
            "cold_cpu": cold_cpu, "warm_cpu": statistics.median(w[2] for w in warms),
            "nx_cpu": statistics.median(t[2] for t in nx_ms), "hexes": len(paths), "nodes": len(nx_ms[0][1])}


GROUPS = (("games", rows_games), ("app", rows_app), ("lan", rows_lan), ("reach", rows_reach))


def run(only: list[str] | None = None, progress=None) -> list[Row]:
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="dfd-bench-") as tmp:
        for name, fn in GROUPS:
            if only and not any(o in name for o in only):
                continue
            t = time.perf_counter()
            d = Path(tmp) / name
            d.mkdir()
            try:
                rows += fn(d) if name != "reach" else fn()
            except Exception as exc:  # noqa: BLE001 - a failing group is reported as a failed row, not hidden
                rows.append(Row(name, f"{name}: FAILED", "", 0.0, "", False, f"{type(exc).__name__}: {exc}"[:300]))
            if progress:
                progress(f"[{name}: {time.perf_counter() - t:.1f} s]")
    return rows


def table(rows: list[Row]) -> str:
    w = max(len(r.measure) for r in rows)
    t = max(len(r.target) for r in rows)
    lines = [f"{'measure':{w}}  {'target':{t}}  {'figure':>16}  {'':4}  beside",
             f"{'-' * w}  {'-' * t}  {'-' * 16}  {'-' * 4}  {'-' * 30}"]
    for r in rows:
        fig = f"{r.value:,.2f} {r.unit}"
        lines.append(f"{r.measure:{w}}  {r.target:{t}}  {fig:>16}  {'PASS' if r.ok else 'FAIL'}  {r.beside}")
    return "\n".join(lines)


if __name__ == "__main__":
    rs = run(sys.argv[1:], progress=lambda s: print(s, file=sys.stderr))
    print(table(rs))
