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
