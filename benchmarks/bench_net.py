"""LAN measures (issues 18 and 20), with real processes on loopback, each beside a raw pyzmq round trip measured on
the same machine a moment before (the ratio baseline: what the network stack alone costs here).

* ``fanout``   command -> applied by every client: a ``dfd host`` process and N client processes (each its own
  interpreter and engine, as each player has his own machine on a LAN); a player's process answers the pending
  decision with a random option of its side, every client process stamps the moment it applied the update
  (CLOCK_MONOTONIC is one clock for every process of the machine).  8 clients (2 + 2 players, 4 spectators) on
  the Trail of the Fox, and 2 players + 24 spectators.
* ``catchup``  a client that holds the game's state 1,000 (5,000) actions before the host's last one connects to
  a ``dfd host`` process serving a 6,000-action North African Campaign game: from ``Client.start`` to holding the
  host's last state (hash checked).
* ``restart``  the same game: the ``dfd host`` process is SIGKILLed and restarted at once, and a player sends a
  command while it is down: from the kill to the command's ack (applied, committed, broadcast), over several kills.
* ``raw``      a DEALER/ROUTER pair with CURVE on loopback, the echo in another process: the round trip of a
  200-byte message (p50, p99) and of a message the size of a 6,000-action game's state.

The 6,000-action game: ``RandomBot(1)`` plays the North African Campaign from its set-up, and after every tenth
action (fifth, third... if the game would end sooner) the side takes that action back and plays it again (an undo
and the same action: two more logged actions, R-UNDO), because the bot ends this scenario at 4,500-5,200 actions
(GT 29-31, depending on the rules of the day) and the measure needs a game still going at action 6,000; the row's
label says how many of each.  Host processes run with compiled bytecode, as an installed program does (the first start
compiles it; with ``PYTHONDONTWRITEBYTECODE`` every start would compile every module again, about a second).
"""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LATENCY_SCENARIO = "trail-of-the-fox"
NAC = "north-african-campaign"
SAMPLES = 200              # commands measured with 8 clients
FANOUT_SAMPLES = 100       # ... with 24 spectators
RESTARTS = 5               # host kills measured
CAMPAIGN_ACTIONS = 6000


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


@contextmanager
def compiled_bytecode(tmp: Path):
    """Child processes write and reuse compiled bytecode (in ``tmp``, not in the source tree), as an install has."""
    saved = {k: os.environ.get(k) for k in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ.setdefault("PYTHONPYCACHEPREFIX", str(tmp / "pycache"))
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


# =========================================================================== raw pyzmq baseline
def _echo(port: int, secret: str, public: str) -> None:
    """The raw baseline's far end: a CURVE ROUTER echoing every message (stdin closed = stop)."""
    import zmq

    ctx = zmq.Context()
    s = ctx.socket(zmq.ROUTER)
    s.curve_server = True
    s.curve_secretkey, s.curve_publickey = secret.encode(), public.encode()
    s.setsockopt(zmq.MAXMSGSIZE, -1)
    s.bind(f"tcp://127.0.0.1:{port}")
    print("ready", flush=True)
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    while True:
        s.send_multipart(s.recv_multipart())


def raw_round_trips(state_bytes: int, n: int = 2000) -> dict:
    """pyzmq alone on this machine: CURVE DEALER -> ROUTER echo in another process -> back."""
    import zmq

    from net.testing import free_port

    port = free_port()
    pub, sec = zmq.curve_keypair()
    proc = subprocess.Popen([sys.executable, "-m", "benchmarks.bench_net", "--echo", str(port), sec.decode(),
                             pub.decode()], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    ctx = zmq.Context()
    try:
        proc.stdout.readline()
        s = ctx.socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        cpub, csec = zmq.curve_keypair()
        s.curve_secretkey, s.curve_publickey, s.curve_serverkey = csec, cpub, pub
        s.connect(f"tcp://127.0.0.1:{port}")

        def trip(payload: bytes) -> float:
            t = time.perf_counter()
            s.send(payload)
            s.recv()
            return (time.perf_counter() - t) * 1000

        small = os.urandom(200)
        for _ in range(50):
            trip(small)
        rtt = [trip(small) for _ in range(n)]
        big = os.urandom(state_bytes)
        trip(big)
        bulk = [trip(big) for _ in range(20)]
        s.close(0)
        return {"p50": statistics.median(rtt), "p99": _pct(rtt, 0.99), "state_ms": statistics.median(bulk),
                "state_bytes": state_bytes}
    finally:
        proc.stdin.close()
        proc.wait(10)
        ctx.term()


# =========================================================================== fan-out: command -> every client
def _child(host: str, port: int, server_key: str, key_file: str, seed: int) -> None:
    """One measured client in its own process (so that the engines do not share one interpreter lock).

    stdout: ``W seq acting`` when joined, ``U seq acting t`` per applied update, ``S t`` when a command is sent,
    ``R reason`` when one is refused.  stdin: ``act`` (answer the pending decision with a random own-side option).
    """
    from net import keys
    from net.client import Client

    out_lock = threading.Lock()

    def say(line: str) -> None:
        with out_lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def on(kind, data):
        if kind == "update":
            now = time.monotonic()
            say(f"U {data[-1].seq} {c.pending().side if c.pending() else '-'} {now:.6f}")
        elif kind == "reject":
            say(f"R {data.code} {data.reason}")

    c = Client(host, port, server_key, keys.load(Path(key_file)), heartbeat=0.5, on_event=on)
    c.start()
    c.wait(lambda c: c.engine is not None, 300)
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


def fanout(tmp: Path, players: int, spectators: int, samples: int) -> tuple[list[float], str]:
    """Milliseconds from a command sent by a player's process to the moment the last client process applied it;
    ``players`` per side (2 sides) and ``spectators``, each client its own process, with a ``dfd host`` process."""
    from net import keys
    from net.testing import Table

    seats = ([(f"Axis{i}", "Axis") for i in range(players)] + [(f"Allied{i}", "Allied") for i in range(players)]
             + [(f"Spectator{i}", "spectator") for i in range(spectators)])
    t = Table.new(tmp, seats, scenario=LATENCY_SCENARIO, seed=3)
    t.start_host_process()
    procs: dict[str, subprocess.Popen] = {}
    lines: dict[str, list[list[str]]] = {}
    cond = threading.Condition()

    def reader(name: str, proc: subprocess.Popen) -> None:
        for line in proc.stdout:
            with cond:
                lines[name].append(line.split())
                cond.notify_all()

    def wait_for(pred, timeout=120.0) -> bool:
        end = time.monotonic() + timeout
        with cond:
            while not pred():
                if not cond.wait(max(0.0, min(0.5, end - time.monotonic()))) and time.monotonic() > end:
                    return False
            return True

    try:
        for i, (name, _seat) in enumerate(seats):
            kf = tmp / f"{name}.key"
            keys.save(t.players[name].key, kf)
            lines[name] = []
            procs[name] = subprocess.Popen(
                [sys.executable, "-m", "benchmarks.bench_net", "--child", "127.0.0.1", str(t.port),
                 t.host_key.public, str(kf), str(i)], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                text=True)
            threading.Thread(target=reader, args=(name, procs[name]), daemon=True).start()
        if not wait_for(lambda: all(any(l[0] == "W" for l in ls) for ls in lines.values()), 600):
            raise RuntimeError("the benchmark clients did not join")
        watcher = seats[-1][0]

        def latest(name):
            ev = [l for l in lines[name] if l[0] in ("W", "U")]
            return int(ev[-1][1]), ev[-1][2]

        lat: list[float] = []
        turn = 0
        for _ in range(samples):
            with cond:
                seq, acting = latest(watcher)
            if acting not in ("Axis", "Allied", "either"):
                break
            side = "Axis" if acting == "either" else acting
            who = f"{side}{turn % players}"
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
        if not lat:
            raise RuntimeError("no command was measured")
        note = (f"{len(lat)} random commands, {LATENCY_SCENARIO} from its set-up; a dfd host process and "
                f"{len(seats)} client processes ({2 * players} players, {spectators} spectators) on {os.cpu_count()} "
                "cores; CURVE, the SQLite commit and every client's apply + hash check included")
        return lat, note
    finally:
        for p in procs.values():
            try:
                p.stdin.close()
            except OSError:
                pass
        for p in procs.values():
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
        t.close()


# =========================================================================== catch-up and restart on a campaign
def campaign(path: Path, n: int = CAMPAIGN_ACTIONS) -> str:
    """The 6,000-action NAC game (see the module's docstring); returns its label."""
    from net.testing import bot_game

    from core.game import Game

    for every in (10, 5, 3, 2):   # the rules of the day decide how long the bot's game lasts: take back more often
        try:
            played, takebacks = bot_game(path, NAC, n, seed=1, takeback_every=every)
            break
        except RuntimeError as exc:
            if "ended" not in str(exc) or every == 2:
                raise

    g = Game.open(path, read_only=True)
    gt = g.state.gt
    g.close()
    return f"NAC game of {n:,} actions, GT {gt}: RandomBot(1) {played:,} + {takebacks} take-backs (undo, the same again)"


def _public_state_at(path: Path, seq: int):
    """The game's state after action ``seq`` as a client holds it (seed blanked), from the file's snapshots."""
    from core.decisions import Action
    from core.engine import Engine
    from core.game import _RecordedDice
    from core.state import GameState
    from core.store import Store

    s = Store.open(path, read_only=True)
    try:
        base = max(q for q in s.snapshot_seqs() if q <= seq)
        dice = _RecordedDice()
        eng = Engine(GameState.decode(s.snapshot(base).state), dice)
        for r in s.actions(base, seq):
            dice.queue = json.loads(r.rolls)
            eng.apply(Action.from_json(r.action))
        state = eng.state
        state.seed = 0
        return GameState.decode(state.encode())
    finally:
        s.close()


def catchup_seconds(t, behind: int) -> tuple[float, str]:
    """A client holding the state ``behind`` actions before the host's last one: seconds to the host's state."""
    from core.engine import Engine
    from core.game import _RecordedDice
    from net.client import Client

    p = next(p for p in t.players.values() if p.seat == "spectator")
    host_seq = int(_hosting(t)[0])
    state = _public_state_at(t.path, host_seq - behind)
    c = Client("127.0.0.1", t.port, t.host_key.public, p.key, name=p.name)
    dice = _RecordedDice()
    c.engine, c._dice = Engine(state, dice), dice
    c.seq, c.game_id = host_seq - behind, _game_id(t.path)
    t0 = time.perf_counter()
    c.start()
    ok = c.wait(lambda c: c.welcome is not None and c.seq >= host_seq, 300)
    dt = time.perf_counter() - t0
    if not (ok and c.hash() == c.welcome.hash):
        raise RuntimeError(f"the client {behind} behind did not converge ({c.status}, #{c.seq})")
    how = c.welcome.catchup
    c.stop()
    return dt, how


def _game_id(path: Path) -> str:
    from core.store import Store

    s = Store.open(path, read_only=True)
    try:
        return s.meta.get("game_id") or s.get_meta("game_id")
    finally:
        s.close()


def _hosting(t) -> tuple[int, int, int]:
    """(action, stored state opened from, actions replayed) of the host process's latest start."""
    import re

    line = [x for x in t.host_output if "hosting" in x][-1]
    m = re.search(r"action #(\d+)\) .*stored at #(\d+) \+ (\d+) actions replayed", line)
    return int(m[1]), int(m[2]), int(m[3])


def restart_seconds(t, runs: int) -> list[dict]:
    """Kill the host process (SIGKILL), start it again at once; a player sends a command while it is down."""
    from core.bots import RandomBot
    from net import protocol as P

    bot = RandomBot(7)
    out = []
    clients = t.connect_all(300)
    for _ in range(runs):
        ref = clients[0]
        d = ref.pending()
        side = "Axis" if d.side in ("Axis", "either") else d.side
        c = t.by_seat(side)[0]
        c.wait_seq(ref.seq, 60)
        action = bot.rng.choice([o.action for o in c.pending().options if o.action.side == side])
        t0 = time.perf_counter()
        t.kill_host_process(signal.SIGKILL)
        cid = c.send_command(action)
        t.start_host_process()
        listening = time.perf_counter() - t0
        r = c.result(cid, 300)
        acked = time.perf_counter() - t0
        if not isinstance(r, P.Ack):
            raise RuntimeError(f"the command sent while the host was down was not applied: {r}")
        for x in clients:
            if not x.wait_seq(r.seq, 120):
                raise RuntimeError(f"{x.name} did not reach #{r.seq} after the restart")
        at, base, replayed = _hosting(t)
        out.append({"s": acked, "listening": listening, "seq": r.seq, "base": base, "replayed": replayed})
    return out


def campaign_rows(tmp: Path, raw: dict | None = None) -> list:
    """Catch-up 1,000 and 5,000 behind and host kill -> next applied action, on the 6,000-action NAC game."""
    from benchmarks.targets import Row
    from net.testing import Table

    path = tmp / "campaign.dfd"
    label = campaign(path)
    t = Table(path, [("Rommel", "Axis"), ("Wavell", "Allied"), ("Umpire", "spectator")])
    rows = []
    with compiled_bytecode(tmp):
        t.start_host_process()
        try:
            if raw is None:
                raw = raw_round_trips(len(_public_state_at(path, CAMPAIGN_ACTIONS).encode()))
            base = f"raw pyzmq: one round trip of the state's {raw['state_bytes'] / 1000:.0f} kB {raw['state_ms']:.1f} ms"
            for behind in (1000, 5000):
                s, how = catchup_seconds(t, behind)
                rows.append(Row(f"lan_catchup_{behind}", f"LAN catch-up, a client {behind:,} actions behind, "
                                f"Client.start -> the host's state ({label})", "<= 2 s", s, "s", s <= 2.0,
                                f"{s * 1000 / raw['state_ms']:.0f}x {base}; sent: {how}; a dfd host process",
                                {"raw_state_ms": raw["state_ms"], "catchup": how}))
            runs = restart_seconds(t, RESTARTS)
            worst = max(r["s"] for r in runs)
            rows.append(Row("lan_restart", f"LAN host SIGKILLed and restarted at once, kill -> next command applied "
                            f"and acked, worst of {len(runs)} ({label})", "<= 2 s", worst, "s", worst <= 2.0,
                            f"median {statistics.median(r['s'] for r in runs):.2f} s; host listening again after "
                            f"{statistics.median(r['listening'] for r in runs):.2f} s (median); opened from the state "
                            f"stored at #{runs[-1]['base']} + {runs[-1]['replayed']} replayed; "
                            f"{worst * 1000 / raw['p99']:.0f}x a raw pyzmq round trip p99 ({raw['p99']:.2f} ms)",
                            {"runs": runs}))
        finally:
            t.close()
    return rows, raw


def fanout_rows(tmp: Path, raw: dict) -> list:
    from benchmarks.targets import Row

    r50, r99 = f"a raw pyzmq round trip p50 ({raw['p50']:.2f} ms)", f"a raw pyzmq round trip p99 ({raw['p99']:.2f} ms)"
    rows = []
    (tmp / "f8").mkdir()
    with compiled_bytecode(tmp):
        lat, note = fanout(tmp / "f8", 2, 4, SAMPLES)
    p50, p99 = statistics.median(lat), _pct(lat, 0.99)
    rows.append(Row("lan_8_p50", "LAN, host + 8 clients on this machine, command -> all applied, p50", "-", p50, "ms",
                    True, f"{p50 / raw['p50']:.0f}x {r50}; {note}", {"raw_p50_ms": raw["p50"]}))
    rows.append(Row("lan_8", "LAN, host + 8 clients on this machine, command -> all applied, p99", "p99 <= 150 ms",
                    p99, "ms", p99 <= 150, f"{p99 / raw['p99']:.0f}x {r99}; max {max(lat):.0f} ms",
                    {"raw_p99_ms": raw["p99"]}))
    (tmp / "f24").mkdir()
    with compiled_bytecode(tmp):
        lat, note = fanout(tmp / "f24", 1, 24, FANOUT_SAMPLES)
    p50, p99 = statistics.median(lat), _pct(lat, 0.99)
    rows.append(Row("lan_24", "LAN, host + 2 players + 24 spectators on this machine, command -> all 26 applied, p99",
                    "p99 <= 150 ms (#18's 8-client target)", p99, "ms", p99 <= 150,
                    f"median {p50:.0f} ms; {p99 / raw['p99']:.0f}x {r99}; {note}", {"raw_p99_ms": raw["p99"]}))
    return rows


def run() -> list[tuple]:
    """``python -m benchmarks net``: every LAN row (name, value, unit, note)."""
    with tempfile.TemporaryDirectory() as tmp:
        rows, raw = campaign_rows(Path(tmp))
        rows += fanout_rows(Path(tmp), raw)
    return [(r.measure, r.value, r.unit, f"target {r.target}: {'PASS' if r.ok else 'FAIL'}; {r.beside}") for r in rows]


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _child(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6]))
    elif len(sys.argv) > 1 and sys.argv[1] == "--echo":
        _echo(int(sys.argv[2]), sys.argv[3], sys.argv[4])
    else:
        for row in run():
            print(row)
