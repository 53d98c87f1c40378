"""LAN measures (issue 9): command-to-all-clients latency with 8 clients on loopback (median, p99) and the
catch-up time of a client 5,000 actions behind (tail only, and snapshot + tail)."""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
from pathlib import Path

from core.decisions import Action
from core.engine import Engine
from core.game import Game, _RecordedDice
from core.state import GameState
from net import protocol as P
from net.client import Client
from net.host import SNAPSHOT_CATCHUP
from net.testing import Table

LATENCY_SCENARIO = "trail-of-the-fox"
SAMPLES = 200


def _percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def _child(host: str, port: int, server_key: str, key_file: str, seed: int) -> None:
    """One measured client in its own process (so that 8 engines do not share one interpreter lock).

    stdout: ``W seq`` when joined, ``U seq acting t`` per applied update, ``S t`` when a command is sent,
    ``R reason`` when one is refused.  stdin: ``act`` (answer the pending decision with a random own-side option).
    """
    import random
    import sys

    from net import keys

    out_lock = threading.Lock()

    def say(line: str) -> None:
        with out_lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def on(kind, data):
        if kind == "update":
            now = time.monotonic()
            say(f"U {data[-1].seq} {c.pending().side if c.pending() else '-'} {now:.6f}")
        elif kind == "welcome":
            pass
        elif kind == "reject":
            say(f"R {data.code} {data.reason}")

    c = Client(host, port, server_key, keys.load(Path(key_file)), heartbeat=0.5, on_event=on)
    c.start()
    c.wait(lambda c: c.engine is not None, 60)
    say(f"W {c.seq} {c.pending().side if c.pending() else '-'}")
    rng = random.Random(seed)
    for line in sys.stdin:
        if line.strip() == "act":
            d = c.pending()
            opts = [o.action for o in d.options if o.action.side == c.seat] if d else []
            if not opts:
                say("R none no option")
                continue
            t0 = time.monotonic()
            c.send_command(rng.choice(opts))
            say(f"S {t0:.6f}")
    c.stop()


def _latency(tmp: Path) -> list[tuple]:
    import subprocess
    import sys

    from net import keys

    seats = [(f"Axis{i}", "Axis") for i in range(2)] + [(f"Allied{i}", "Allied") for i in range(2)] + \
            [(f"Spectator{i}", "spectator") for i in range(4)]
    t = Table.new(tmp, seats, scenario=LATENCY_SCENARIO, seed=3)
    t.start_host_process()
    procs: dict[str, subprocess.Popen] = {}
    lines: dict[str, list[str]] = {}
    cond = threading.Condition()

    def reader(name: str, proc: subprocess.Popen) -> None:
        for line in proc.stdout:
            with cond:
                lines[name].append(line.split())
                cond.notify_all()

    def wait_for(pred, timeout=60.0) -> bool:
        end = time.monotonic() + timeout
        with cond:
            while not pred():
                if not cond.wait(max(0.0, min(0.5, end - time.monotonic()))) and time.monotonic() > end:
                    return False
            return True

    try:
        for i, (name, seat) in enumerate(seats):
            kf = tmp / f"{name}.key"
            keys.save(t.players[name].key, kf)
            lines[name] = []
            procs[name] = subprocess.Popen(
                [sys.executable, "-m", "benchmarks.bench_net", "--child", "127.0.0.1", str(t.port),
                 t.host_key.public, str(kf), str(i)],
                cwd=Path(__file__).resolve().parent.parent, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            threading.Thread(target=reader, args=(name, procs[name]), daemon=True).start()
        if not wait_for(lambda: all(any(l[0] == "W" for l in ls) for ls in lines.values()), 120):
            raise RuntimeError("the benchmark clients did not join")

        def latest(name):
            ev = [l for l in lines[name] if l[0] in ("W", "U")]
            return int(ev[-1][1]), ev[-1][2]

        lat: list[float] = []
        turn = 0
        for _ in range(SAMPLES):
            with cond:
                seq, acting = latest("Spectator0")
            if acting not in ("Axis", "Allied", "either"):
                break
            side = "Axis" if acting == "either" else acting
            who = f"{side}{turn % 2}"
            turn += 1
            if not wait_for(lambda: latest(who)[0] >= seq):
                break
            with cond:
                mark = len(lines[who])
            procs[who].stdin.write("act\n")
            procs[who].stdin.flush()
            if not wait_for(lambda: any(l[0] in ("S", "R") for l in lines[who][mark:])):
                break
            with cond:
                sent = [l for l in lines[who][mark:] if l[0] in ("S", "R")][0]
            if sent[0] == "R":
                break
            t0 = float(sent[1])
            if not wait_for(lambda: all(any(l[0] == "U" and int(l[1]) == seq + 1 for l in ls) for ls in lines.values())):
                break
            with cond:
                arrivals = [float(l[3]) for ls in lines.values() for l in ls if l[0] == "U" and int(l[1]) == seq + 1]
            lat.append((max(arrivals) - t0) * 1000)
        note = (f"{len(lat)} random commands, {LATENCY_SCENARIO}; host and 8 clients (2+2 players, 4 spectators) "
                f"each in its own process; CURVE, SQLite commit and every client's engine apply + hash check included")
        if not lat:
            raise RuntimeError("no command was measured")
        import os

        return [
            ("LAN command -> all 8 clients, median", statistics.median(lat), "ms", note),
            ("LAN command -> all 8 clients, p99", _percentile(lat, 0.99), "ms",
             f"the tail is the heaviest engine steps (refit, movement: 0.1-0.4 s per apply) run by 9 processes on "
             f"{os.cpu_count()} cores; on a LAN each client applies on its own machine"),
        ]
    finally:
        for p in procs.values():
            try:
                p.stdin.close()
            except OSError:
                pass
        for p in procs.values():
            try:
                p.wait(10)
            except Exception:  # noqa: BLE001
                p.kill()
        t.close()


def _long_game(tmp: Path, n_target: int = 5000) -> Path:
    """A walk-scenario game padded to ``n_target`` logged actions with take-backs (undo + redo)."""
    from net.testing import WALK

    path = tmp / "long.dfd"
    g = Game.new(path, WALK, seed=5, overwrite=True)
    n = 0
    while n < n_target:
        d = g.engine.pending()
        if d is None:
            break
        a = d.options[0].action
        g.act(a)
        n += 1
        while n < n_target - 1 and g.engine.pending() is not None and g.engine.can_undo(a.side) and n % 60:
            g.act(Action(kind="undo", side=a.side))
            g.act(a)
            n += 2
    g.close()
    return path


def _catchup(tmp: Path) -> list[tuple]:
    path = _long_game(tmp)
    t = Table(path, [("Late", "spectator")])
    t.start_host()
    rows = []
    try:
        n = t.host.seq
        initial = t.host.game.store.initial_state()
        p = t.players["Late"]
        def late_client(name: str, with_initial_state: bool) -> tuple[Client, float]:
            c = Client("127.0.0.1", t.port, t.host_key.public, p.key, name=name)
            if with_initial_state:  # it was there at the start of the game, then slept through 5,000 actions
                dice = _RecordedDice()
                c.engine, c._dice = Engine(GameState.decode(initial), dice), dice
                c.seq, c.game_id = 0, t.host.game_id
            t0 = time.perf_counter()
            c.start()
            ok = c.wait(lambda c: c.seq >= n, 300)
            dt = time.perf_counter() - t0
            if not (ok and c.hash() == t.host.hash()):
                raise RuntimeError(f"{name} did not converge ({c.status}, #{c.seq})")
            c.stop()
            return c, dt

        t.host.snapshot_catchup = 10**9
        c, dt = late_client("tail", True)
        assert c.welcome.catchup == "tail"
        rows.append((f"LAN catch-up {n} actions behind, whole tail", dt, "s",
                     f"all {n} actions re-applied and hash-checked, {P.UPDATE_BATCH} per message"))
        t.host.snapshot_catchup = SNAPSHOT_CATCHUP
        c, dt = late_client("default", True)
        assert c.welcome.catchup == "snapshot"
        rows.append((f"LAN catch-up {n} actions behind (host's choice)", dt, "s",
                     f"the host's current state (a tail longer than {SNAPSHOT_CATCHUP} gets the state, issue 20)"))
    finally:
        t.close()
    return rows


def run() -> list[tuple]:
    with tempfile.TemporaryDirectory() as tmp:
        a = Path(tmp) / "a"
        b = Path(tmp) / "b"
        a.mkdir()
        b.mkdir()
        return _latency(a) + _catchup(b)


if __name__ == "__main__":
    import sys

    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6]))
    else:
        for row in run():
            print(row)
