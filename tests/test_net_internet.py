"""Playing beyond one LAN (issue 20): ``dfd host --public`` names a reachable address in the join code, and a
per-address limit on secure handshakes refuses an address that connects too often while others still join."""

from __future__ import annotations

import time

import pytest
import zmq

from net import keys as keymod
from net import protocol as P
from net.host import ConnectLimit, parse_public
from net.testing import Table

SEATS = [("Rommel", "Axis"), ("Wavell", "Allied")]


def test_public_address_is_put_in_the_join_code_and_the_host_still_binds_as_before(tmp_path):
    t = Table.new(tmp_path, SEATS)
    t.host_args = ["--public", "club.example.org:6000"]
    try:
        t.start_host_process()                              # binds 127.0.0.1:t.port as before
        code = next(line for line in t.host_output if line.startswith("Join code:"))
        assert code == f"Join code: dfd://club.example.org:6000/{bytes(keymod.z85.decode(t.host_key.public)).hex()}"
        jc = keymod.parse_join(code.split(": ", 1)[1])
        assert (jc.host, jc.port, jc.server_key) == ("club.example.org", 6000, t.host_key.public)
        rommel = t.connect("Rommel")                        # the listening address is unchanged
        assert rommel.wait(lambda c: c.welcome is not None and c.engine is not None, 60), rommel.status
    finally:
        t.close()


def test_parse_public_port_defaults_and_limits():
    assert parse_public("club.example.org", 5670) == ("club.example.org", 5670)
    assert parse_public("100.64.0.7:5671", 5670) == ("100.64.0.7", 5671)
    assert parse_public("[fd7a:115c::1]:65535", 5670) == ("fd7a:115c::1", 65535)
    assert parse_public("fd7a:115c::1", 5670) == ("fd7a:115c::1", 5670)
    for bad in ("club.example.org:65536", "club.example.org:0", ":5670", "host:x"):
        with pytest.raises(ValueError):
            parse_public(bad, 5670)


def test_connect_limit_boundary():
    now = [0.0]
    lim = ConnectLimit(3, 10.0, clock=lambda: now[0])
    assert [lim.admit("a") for _ in range(4)] == [True, True, True, False]   # the limit, limit + 1
    assert lim.admit("b")                                                      # per address
    now[0] = 9.9
    assert not lim.admit("a")                                                  # refused attempts count too
    now[0] = 30.0
    assert lim.admit("a")                                                      # quiet long enough: admitted


def _probe(port: int, server_key: str, key: keymod.KeyPair, source: str, wait: float) -> bool:
    """One secure connection from ``source``: True if the host answered (it refuses a message before hello)."""
    ctx = zmq.Context.instance()
    s = ctx.socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    s.curve_secretkey = key.secret_bytes
    s.curve_publickey = key.public_bytes
    s.curve_serverkey = server_key.encode("ascii")
    s.connect(f"tcp://{source}:0;127.0.0.1:{port}")
    try:
        s.send_multipart(P.encode(P.Heartbeat(seq=0)))
        return bool(s.poll(int(wait * 1000)))
    finally:
        s.close(0)


def test_a_flood_from_one_address_is_refused_before_its_key_is_looked_at_while_another_client_joins(tmp_path):
    t = Table.new(tmp_path, SEATS)
    t.host_args = ["--connect-limit", "10/60"]
    ctx = zmq.Context.instance()
    flood: list[zmq.Socket] = []
    try:
        t.start_host_process()
        wavell = t.players["Wavell"].key
        # a seated key from 127.0.0.2 is answered before the flood (so the probe can tell)
        assert _probe(t.port, t.host_key.public, wavell, "127.0.0.2", 20)
        for _ in range(30):                                 # 30 handshakes from 127.0.0.2 with unknown keys
            junk = keymod.generate()
            s = ctx.socket(zmq.DEALER)
            s.setsockopt(zmq.LINGER, 0)
            s.curve_secretkey, s.curve_publickey = junk.secret_bytes, junk.public_bytes
            s.curve_serverkey = t.host_key.public.encode("ascii")
            s.connect(f"tcp://127.0.0.2:0;127.0.0.1:{t.port}")
            flood.append(s)
        end = time.monotonic() + 30
        while time.monotonic() < end and not any("refused connections from 127.0.0.2" in x for x in t.host_output):
            time.sleep(0.2)
        out = "\n".join(t.host_output)
        assert "refused connections from 127.0.0.2: more than 10 in 60 s" in out, out
        # now even a seated key from that address is refused ...
        assert not _probe(t.port, t.host_key.public, wavell, "127.0.0.2", 5)
        # ... while a player from another address joins and is answered
        rommel = t.connect("Rommel")
        assert rommel.wait(lambda c: c.welcome is not None and c.engine is not None, 60), rommel.status
        assert "refused connections from 127.0.0.1" not in "\n".join(t.host_output)
    finally:
        for s in flood:
            s.close(0)
        t.close()


class DelayProxy:
    """A TCP proxy that delays every chunk by ``one_way`` seconds plus jitter, in order (a long-distance link)."""

    def __init__(self, upstream_port: int, one_way: float = 0.15, jitter: float = 0.03, seed: int = 7):
        import random
        import socket
        import threading

        self.upstream_port, self.one_way, self.jitter = upstream_port, one_way, jitter
        self._rng = random.Random(seed)
        self._stop = threading.Event()
        self._socks: list[socket.socket] = []
        self.srv = socket.create_server(("127.0.0.1", 0))
        self.srv.settimeout(0.2)
        self.port = self.srv.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import socket

        while not self._stop.is_set():
            try:
                down, _ = self.srv.accept()
            except OSError:
                continue
            up = socket.create_connection(("127.0.0.1", self.upstream_port))
            self._socks += [down, up]
            self._pipe(down, up)
            self._pipe(up, down)

    def _pipe(self, src, dst) -> None:  # noqa: ANN001 - sockets
        import queue
        import threading

        q: queue.Queue = queue.Queue()

        def read() -> None:
            last = 0.0
            while True:
                try:
                    data = src.recv(65536)
                except OSError:
                    data = b""
                last = max(last, time.monotonic() + self.one_way + self._rng.uniform(-self.jitter, self.jitter))
                q.put((last, data))
                if not data:
                    return

        def write() -> None:
            while True:
                due, data = q.get()
                time.sleep(max(0.0, due - time.monotonic()))
                if not data:
                    try:
                        dst.shutdown(2)
                    except OSError:
                        pass
                    return
                try:
                    dst.sendall(data)
                except OSError:
                    return

        threading.Thread(target=read, daemon=True).start()
        threading.Thread(target=write, daemon=True).start()

    def close(self) -> None:
        self._stop.set()
        self.srv.close()
        for s in self._socks:
            s.close()


def test_clients_join_and_play_over_a_300_ms_round_trip_with_jitter(tmp_path):
    from net.testing import play

    t = Table.new(tmp_path, SEATS, heartbeat=1.0, timeout=6.0)     # the host's own defaults
    proxy = None
    try:
        t.start_host()
        proxy = DelayProxy(t.port)                                  # 150 ms ± 30 ms each way
        cs = [t.connect(n, port=proxy.port, heartbeat=1.0, timeout=5.0, backoff=(0.25, 5.0)) for n in t.players]
        for c in cs:
            assert c.wait(lambda c: c.welcome is not None and c.engine is not None, 60), c.status
        started = time.monotonic()
        acks = play(t, 12, timeout=60)
        assert len(acks) == 12
        assert time.monotonic() - started >= 12 * 0.3              # every command really crossed the slow link
        time.sleep(8)                                               # longer than every timeout, idle over the link
        acks += play(t, 3, timeout=60)
        assert [c.connections for c in cs] == [1, 1]                # nobody was dropped or reconnected
        assert all(c.status == "connected" and c.seq == t.host.seq for c in cs)
    finally:
        t.close()
        if proxy is not None:
            proxy.close()
