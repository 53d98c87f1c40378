"""A loopback table for tests and benchmarks: a host, seated players and scripted play.

Nothing here is used by the program itself.  :class:`Table` starts a host (in
this process, or as a ``dfd host`` subprocess that can be killed) and clients
with fresh keys; :func:`play` drives the game through the clients, each player
answering the decisions of its own side from its own copy of the state, as a
person at a screen would.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from core.game import Game
from net import keys as keymod
from net import protocol as P
from net.client import Client
from net.host import Host, Seats, write_seats

ROOT = Path(__file__).resolve().parent.parent
WALK = str(ROOT / "tests" / "fixtures" / "walk.toml")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Player:
    name: str
    seat: str
    key: keymod.KeyPair
    client: Client | None = None


@dataclass
class Table:
    """One campaign file, its host key, its seats and the players' clients."""

    path: Path
    seats: list[tuple[str, str]]                       # (name, seat)
    port: int = 0
    host_key: keymod.KeyPair = field(default_factory=keymod.generate)
    players: dict[str, Player] = field(default_factory=dict)
    host: Host | None = None
    proc: subprocess.Popen | None = None
    key_dir: Path | None = None
    host_options: dict = field(default_factory=dict)
    host_output: list[str] = field(default_factory=list)
    host_args: list[str] = field(default_factory=list)      # extra `dfd host` options for start_host_process

    def __post_init__(self) -> None:
        for name, seat in self.seats:
            self.players[name] = Player(name, seat, keymod.generate())
        if not self.port:
            self.port = free_port()

    @classmethod
    def new(cls, directory: Path, seats: list[tuple[str, str]], scenario: str = WALK, seed: int = 1,
            **host_options) -> "Table":
        path = Path(directory) / "lan.dfd"
        Game.new(path, scenario, seed, overwrite=True).close()
        return cls(path, seats, host_options=host_options)

    def seat_entries(self) -> list[tuple[str, str, str]]:
        return [(p.name, p.seat, p.key.public) for p in self.players.values()]

    # ---------------------------------------------------------------- host
    def start_host(self) -> Host:
        # every client of a loopback table shares one address: no per-address handshake limit unless a test sets one
        opts = dict(heartbeat=0.5, timeout=5.0, bind="127.0.0.1", connect_limit=(1_000_000, 10.0))
        opts.update(self.host_options)
        self.host = Host(self.path, self.port, Seats.of(self.seat_entries()), key=self.host_key, **opts).start()
        return self.host

    def start_host_process(self) -> subprocess.Popen:
        """``dfd host`` in a subprocess (so that it can be SIGKILLed); the host key lives in ``key_dir``."""
        self.key_dir = self.key_dir or self.path.parent / "hostkeys"
        keymod.save(self.host_key, keymod.key_dir(self.key_dir) / "host.key")
        seats = self.path.with_suffix(".seats.toml")
        write_seats(seats, self.seat_entries(), campaign="loopback")
        env = dict(os.environ, DFD_KEY_DIR=str(self.key_dir), PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "host", str(self.path), "--port", str(self.port), "--seats", str(seats),
             "--bind", "127.0.0.1", "--no-discovery",
             "--connect-limit", "1000000/10", *self.host_args],   # one shared address (see start_host)
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        listening = threading.Event()
        proc = self.proc

        def drain() -> None:  # keep reading so that the host never blocks on a full pipe
            for line in proc.stdout:
                self.host_output.append(line.rstrip("\n"))
                if "hosting" in line:
                    listening.set()

        threading.Thread(target=drain, daemon=True).start()
        end = time.monotonic() + 60
        while time.monotonic() < end:
            if listening.wait(0.2):
                return self.proc
            if proc.poll() is not None:
                raise RuntimeError(f"the host process exited (rc {proc.returncode}):\n" + "\n".join(self.host_output))
        raise RuntimeError("the host process did not start listening in time")

    def kill_host_process(self, sig: int = signal.SIGKILL) -> None:
        assert self.proc is not None
        self.proc.send_signal(sig)
        self.proc.wait(30)
        self.proc = None

    # ---------------------------------------------------------------- clients
    def connect(self, name: str, address: str = "127.0.0.1", port: int | None = None, **options) -> Client:
        p = self.players[name]
        opts = dict(heartbeat=0.5, timeout=4.0, backoff=(0.1, 1.0))
        opts.update(options)
        p.client = Client(address, port or self.port, self.host_key.public, p.key, name=name, **opts).start()
        return p.client

    def connect_all(self, timeout: float = 30.0) -> list[Client]:
        cs = [self.connect(n) for n in self.players]
        for c in cs:
            if not c.wait(lambda c: c.engine is not None and c.welcome is not None, timeout):
                raise AssertionError(f"{c.name} did not join: {c.status}")
        return cs

    def clients(self) -> list[Client]:
        """The clients still running (not stopped or killed)."""
        return [p.client for p in self.players.values() if p.client is not None and p.client.status != "closed"]

    def by_seat(self, seat: str) -> list[Client]:
        return [c for c in self.clients() if c.welcome is not None and c.seat == seat]

    def close(self) -> None:
        for c in self.clients():
            c.stop()
        if self.host is not None:
            self.host.stop()
            self.host = None
        if self.proc is not None:
            self.kill_host_process(signal.SIGTERM)


def bot_game(path: Path, scenario: str, n: int, seed: int = 1, takeback_every: int = 0) -> tuple[int, int]:
    """A game file of ``n`` logged actions of ``scenario`` played by ``RandomBot(seed)`` from its set-up, the game
    still going at the end (for a host to serve).  ``takeback_every``: after every so many bot actions the side
    takes its action back and plays it again (R-UNDO: an undo and the same action, two more logged actions, as
    players do), so that a game the bot would finish sooner reaches ``n``.  Returns (bot actions, take-backs)."""
    from core.bots import RandomBot
    from core.decisions import Action

    g = Game.new(path, scenario, seed, overwrite=True)
    bot = RandomBot(seed)
    played = takebacks = 0
    try:
        while len(g.engine.log) < n:
            d = g.engine.pending()
            if d is None:
                raise RuntimeError(f"{scenario} ended after {len(g.engine.log)} actions, before {n}")
            a = bot.choose(d)
            g.act(a)
            played += 1
            if (takeback_every and played % takeback_every == 0 and len(g.engine.log) <= n - 2
                    and g.engine.pending() is not None and g.engine.can_undo(a.side)):
                g.act(Action(kind="undo", side=a.side))
                g.act(a)
                takebacks += 1
        if g.engine.pending() is None:
            raise RuntimeError(f"{scenario} ended at action #{n}: nothing left to serve")
    finally:
        g.close()
    return played, takebacks


def converge(clients: list[Client], seq: int, timeout: float = 30.0) -> None:
    for c in clients:
        if not c.wait_seq(seq, timeout):
            raise AssertionError(f"{c.name} stuck at #{c.seq} (status {c.status}), expected #{seq}")


def play(table: Table, steps: int, timeout: float = 30.0, chooser=None) -> list[P.Ack]:
    """Play ``steps`` actions: each time, a player of the side the game waits for answers from its own view.

    Players of a side take turns (so both commanders of a team act).  Returns the acks.
    """
    acks: list[P.Ack] = []
    turn = 0
    for _ in range(steps):
        ref = next(c for c in table.clients() if c.status == "connected")
        d = ref.pending()
        if d is None:
            break
        sides = [d.side] if d.side in ("Axis", "Allied") else ["Axis", "Allied"]
        candidates = [c for s in sides for c in table.by_seat(s) if c.status == "connected"]
        c = candidates[turn % len(candidates)]
        turn += 1
        if not c.wait_seq(ref.seq, timeout):
            raise AssertionError(f"{c.name} did not catch up to #{ref.seq}")
        mine = c.pending()
        options = [o.action for o in mine.options if o.action.side == c.seat]
        action = chooser(mine, options) if chooser else options[0]
        cid = c.send_command(action)
        r = c.result(cid, timeout)
        if not isinstance(r, P.Ack):
            raise AssertionError(f"{c.name}'s {action} was not applied: {r}")
        acks.append(r)
        converge(table.clients(), r.seq, timeout)
    return acks
