"""LAN robustness (issue 9): a fuzzer sends thousands of random and mutated messages; the host stays up, the
game is unchanged, the other players are unaffected; a client that keeps misbehaving is disconnected."""

from __future__ import annotations

import random
import socket
import time

import msgspec
import pytest
import zmq

from core import provenance
from net import protocol as P
from net.testing import Table, converge, play

SEATS = [("Rommel", "Axis"), ("Wavell", "Allied"), ("Umpire", "spectator"), ("Fuzz", "spectator"),
         ("Rogue", "Allied")]


_me = provenance.current()     # the fuzzer runs this program: its hellos are not refused for their version


def _templates(seq: int) -> list[bytes]:
    return [
        msgspec.json.encode(m) for m in (
            P.Hello(have_seq=seq, have_hash="0" * 64, game="x", client=_me.version, code=_me.code, data=_me.data),
            P.Command(id="c1", base=seq, action=msgspec.convert({"kind": "done", "side": "Axis"}, P.Action)),
            P.Command(id="c2", base=seq, action=msgspec.convert(
                {"kind": "place", "side": "Allied", "args": {"unit": "UK-KDG", "hex": "C0603"}}, P.Action)),
            P.ChatSend(to="all", text="hello"),
            P.Heartbeat(seq=seq),
            P.Bye(reason="x"),
        )
    ]


def _mutate(rng: random.Random, body: bytes) -> bytes:
    b = bytearray(body)
    op = rng.randrange(9)
    if op == 0 and b:                                   # bit flips
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
    elif op == 1 and b:                                 # truncation
        b = b[: rng.randrange(len(b))]
    elif op == 2:                                       # random insertion
        i = rng.randrange(len(b) + 1)
        b[i:i] = rng.randbytes(rng.randint(1, 40))
    elif op == 3:                                       # type confusion
        b = body.replace(b'"base":', b'"base":"').replace(b'"have_seq":', b'"have_seq":-')
    elif op == 4:                                       # wrong / unknown message type
        b = body.replace(b'"type":"', rng.choice([b'"type":"x', b'"type":"welcome', b'"type":"update", "y":"']))
    elif op == 5:                                       # deep nesting
        d = rng.randint(50, 20_000)
        b = b'{"type":"command","id":"n","base":0,"action":{"kind":"a","side":"Axis","args":{"a":' + b"[" * d + b"]" * d + b"}}}"
    elif op == 6:                                       # huge
        b = b'{"type":"chat","to":"all","text":"' + b"A" * rng.choice([3000, 70_000, 200_000]) + b'"}'
    elif op == 7:                                       # numbers out of range
        b = body.replace(b'"base":', b'"base":1' + b"9" * rng.randint(20, 400))
    else:                                               # invalid UTF-8 / random bytes
        b = rng.randbytes(rng.randint(0, 300))
    return bytes(b)


def _frames(rng: random.Random, seq: int) -> list[bytes]:
    body = _mutate(rng, rng.choice(_templates(seq)))
    r = rng.random()
    if r < 0.7:
        return [P.MAGIC, P.VERSION_BYTES, body]
    if r < 0.8:
        return [rng.choice([b"", b"DFX", P.MAGIC, rng.randbytes(5)]), rng.choice([b"1", b"0", b"99", b""]), body]
    if r < 0.9:
        return [P.MAGIC, P.VERSION_BYTES, body, rng.randbytes(3)][: rng.randint(1, 4)]
    return [rng.randbytes(rng.randint(0, 20)) for _ in range(rng.randint(1, 6))]


def _raw(ctx, table, key):
    s = ctx.socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    s.curve_secretkey, s.curve_publickey = key.secret_bytes, key.public_bytes
    s.curve_serverkey = table.host_key.public_bytes
    s.connect(f"tcp://127.0.0.1:{table.port}")
    return s


@pytest.fixture
def table(tmp_path):
    t = Table.new(tmp_path, SEATS, max_strikes=10**9)
    t.start_host()
    t.connect_all()
    yield t
    t.close()


def test_fuzzer_leaves_the_host_up_and_the_game_unchanged(table):
    host = table.host
    play(table, 6)
    converge(table.clients(), host.seq)
    seq, before = host.seq, host.hash()
    rng = random.Random(1941)
    sent = 0
    ctx = zmq.Context()
    try:
        # two seated keys: a spectator and an Allied player sending mutated Axis commands and garbage; a fresh
        # connection every 100 messages (a connection that sends a wrong protocol version is cut off at once)
        for batch in range(30):
            who = table.players["Fuzz" if batch % 2 else "Rogue"]
            s = _raw(ctx, table, who.key)
            for _ in range(100):
                s.send_multipart(_frames(rng, seq))
                sent += 1
            time.sleep(0.05)
            while s.poll(0):
                s.recv_multipart()
            s.close(0)
    finally:
        ctx.term()
    # raw TCP garbage at the port (not even a ZMTP greeting)
    for _ in range(20):
        with socket.create_connection(("127.0.0.1", table.port), timeout=5) as s:
            s.sendall(rng.randbytes(rng.randint(1, 4000)))
    # the host answers a well-behaved player after all that, and nothing changed
    umpire = table.players["Umpire"].client
    umpire.send_chat("still there?")
    assert umpire.wait(lambda c: any(m.text == "still there?" for m in c.chat), 60)
    # most of it reached the host (a connection that sent a wrong protocol version is ignored after the refusal)
    assert sent == 3000 and host.stats["received"] > 2000 and host.stats["malformed"] > 1000
    assert host.seq == seq and host.hash() == before
    assert host._thread.is_alive()
    # the game goes on for the others
    play(table, 5)
    converge([table.players[n].client for n in ("Rommel", "Wavell", "Umpire")], host.seq)


def test_a_misbehaving_client_is_disconnected_the_others_are_not(tmp_path):
    t = Table.new(tmp_path, SEATS[:3], max_strikes=20)
    try:
        t.start_host()
        t.connect_all()
        ump = t.players["Umpire"].client
        for _ in range(40):
            ump.send_raw([P.MAGIC, P.VERSION_BYTES, b"{not json"])
        assert ump.wait(lambda c: c.status == "closed", 20)
        assert "too many refused messages" in ump.closed_reason
        assert all(c.key != t.players["Umpire"].key.public for c in t.host.conns.values())
        play(t, 5)
        converge(t.clients(), t.host.seq)
        assert all(c.hash() == t.host.hash() for c in t.clients())
    finally:
        t.close()


def test_oversized_and_malformed_messages_are_refused_with_a_reason(table):
    ump = table.players["Umpire"].client
    ump.send_raw([P.MAGIC, P.VERSION_BYTES, b'{"type":"chat","to":"all","text":"' + b"x" * 70_000 + b'"}'])
    ump.send_raw([P.MAGIC, P.VERSION_BYTES, b'{"type":"command","id":"q","base":"x"}'])
    ump.send_raw([P.MAGIC, P.VERSION_BYTES])
    assert ump.wait(lambda c: len(c.refusals) >= 3, 20)
    codes = [(r.code, r.reason) for r in ump.refusals[-3:]]
    assert codes[0][0] == P.OVERSIZED and "limit is 65536 bytes" in codes[0][1]
    assert codes[1][0] == P.MALFORMED and "$.base" in codes[1][1]
    assert codes[2][0] == P.MALFORMED and "3 frames" in codes[2][1]
