"""LAN security (issue 9): CURVE keys bound to seats, unknown keys and wrong host keys refused, protocol version
mismatch refused with a clear message, the seat never taken from the message."""

from __future__ import annotations

import msgspec
import pytest

from net import keys
from net import protocol as P
from net.client import Client
from net.host import Seats
from net.testing import Table, converge, play

SEATS = [("Rommel", "Axis"), ("Wavell", "Allied"), ("Umpire", "spectator")]


@pytest.fixture
def table(tmp_path):
    t = Table.new(tmp_path, SEATS)
    t.start_host()
    t.connect_all()
    yield t
    t.close()


def test_client_without_a_seated_key_cannot_connect(table):
    stranger = keys.generate()
    events = []
    c = Client("127.0.0.1", table.port, table.host_key.public, stranger, heartbeat=0.5, timeout=3.0,
               backoff=(0.2, 0.5), on_event=lambda k, d: events.append((k, d))).start()
    try:
        assert c.wait(lambda c: c.status == "refused", 20), c.status
        assert not c.wait(lambda c: c.welcome is not None, 3)
        assert c.engine is None and c.seq == 0
        assert any("not in the host's seat file" in str(d) for k, d in events if k == "status")
        assert all(conn.key != stranger.public for conn in table.host.conns.values())
    finally:
        c.stop()
    # the seated players are unaffected
    play(table, 3)


def test_wrong_host_key_gets_no_connection(table):
    impostor = keys.generate()  # the client expects another host key (a spoofed discovery result, say)
    me = table.players["Rommel"].key
    c = Client("127.0.0.1", table.port, impostor.public, me, heartbeat=0.5, timeout=2.0, backoff=(0.2, 0.5)).start()
    try:
        assert not c.wait(lambda c: c.welcome is not None, 5)
        assert c.engine is None
    finally:
        c.stop()


def test_seat_comes_from_the_key_not_from_the_message(table):
    rommel = table.players["Rommel"].client
    # a hello cannot carry a seat: the schema has no such field, and unknown fields are refused
    body = b'{"type":"hello","have_seq":0,"seat":"Allied"}'
    rommel.send_raw([P.MAGIC, P.VERSION_BYTES, body])
    assert rommel.wait(lambda c: any(r.code == P.MALFORMED and "seat" in r.reason for r in c.refusals), 20)
    assert rommel.seat == "Axis"
    # a command's action names a side, but only the key decides what it may act for
    d = rommel.pending()
    r = rommel.result(rommel.send_command(_action_for(d, "Allied")), 20)
    assert isinstance(r, P.Reject) and r.code == P.NOT_YOUR_SIDE and "Rommel holds an Axis seat" in r.reason
    assert table.players["Umpire"].client.welcome.seat == "spectator"


def _action_for(d, side):
    from core.decisions import Action

    return next((o.action for o in d.options if o.action.side == side), Action(kind="done", side=side))


def test_protocol_version_mismatch_is_refused_with_a_clear_message(table):
    me = table.players["Wavell"]
    events = []
    c = Client("127.0.0.1", table.port, table.host_key.public, me.key, heartbeat=0.5, timeout=3.0,
               on_event=lambda k, d: events.append((k, d)))
    # a client of protocol version 2 says hello
    c._hello = lambda: P.Hello(name="future")  # type: ignore[method-assign]
    import net.client as NC

    original = NC.P.encode
    NC.P.encode = lambda m: [P.MAGIC, b"2", msgspec.json.encode(m)]
    try:
        c.start()
        assert c.wait(lambda c: c.status == "closed", 20)
    finally:
        NC.P.encode = original
        c.stop()
    assert "protocol version mismatch" in c.closed_reason
    assert "this host speaks DFD LAN protocol 1" in c.closed_reason
    assert "install the same version" in c.closed_reason
    assert c.engine is None


def test_version_mismatch_from_the_hosts_side_is_explained():
    reply = [P.MAGIC, b"7", b'{"type":"reject","code":"version","reason":"upgrade please","fatal":true}']
    with pytest.raises(P.ProtocolError) as exc:
        P.decode_host(reply)
    assert exc.value.code == P.VERSION_MISMATCH
    assert "the host speaks DFD LAN protocol '7'" in exc.value.reason and "upgrade please" in exc.value.reason


def test_seat_file_binds_keys_to_seats(tmp_path):
    a, b = keys.generate(), keys.generate()
    f = tmp_path / "seats.toml"
    f.write_text(f'campaign = "c"\n[[seat]]\nname = "R"\nside = "Axis"\nkey = "{a.public}"\n'
                 f'[[seat]]\nname = "W"\nside = "Allied"\nkey = "{b.public}"\n')
    s = Seats.load(f)
    assert s.by_key[a.public].seat == "Axis" and s.by_key[b.public].name == "W" and s.campaign == "c"
    f.write_text(f'[[seat]]\nname = "R"\nside = "Germans"\nkey = "{a.public}"\n')
    with pytest.raises(ValueError, match="not one of Axis, Allied, spectator"):
        Seats.load(f)
    f.write_text(f'[[seat]]\nname = "R"\nside = "Axis"\nkey = "{a.public}"\n[[seat]]\nname = "S"\nside = "Allied"\n'
                 f'key = "{a.public}"\n')
    with pytest.raises(ValueError, match="one key, one seat"):
        Seats.load(f)
    f.write_text('[[seat]]\nname = "R"\nside = "Axis"\nkey = "not a key"\n')
    with pytest.raises(ValueError, match="not a CURVE public key"):
        Seats.load(f)


def test_removing_a_key_from_the_seat_file_disconnects_that_player(tmp_path):
    from net.host import write_seats

    t = Table.new(tmp_path, SEATS)
    seats = tmp_path / "seats.toml"
    write_seats(seats, t.seat_entries())
    t.host = __import__("net.host", fromlist=["Host"]).Host(t.path, t.port, seats, key=t.host_key, heartbeat=0.3,
                                                           bind="127.0.0.1").start()
    try:
        t.connect_all()
        import os
        import time

        write_seats(seats, [e for e in t.seat_entries() if e[0] != "Umpire"])
        os.utime(seats, ns=(time.time_ns(), time.time_ns() + 10_000_000))
        umpire = t.players["Umpire"].client
        assert umpire.wait(lambda c: c.status == "closed", 20)
        assert "removed from the host's seat file" in umpire.closed_reason
        play(t, 2)
        converge(t.clients(), t.host.seq)
    finally:
        t.close()


def test_keys_fingerprints_and_join_codes(tmp_path):
    pair = keys.load_or_create("alice", tmp_path)
    assert keys.load_or_create("alice", tmp_path) == pair
    assert (tmp_path / "alice.key").stat().st_mode & 0o077 == 0
    fp = keys.fingerprint(pair.public)
    assert len(fp) == 39 and fp.count("-") == 7 and fp != keys.fingerprint(keys.generate().public)
    code = keys.join_code("192.168.1.20", 5670, pair.public)
    j = keys.parse_join(code)
    assert (j.host, j.port, j.server_key) == ("192.168.1.20", 5670, pair.public)
    assert keys.parse_join("host:5670").server_key is None
    with pytest.raises(keys.KeyError_):
        keys.parse_join("no-port")
    (tmp_path / "bad.key").write_text(f'public = "{pair.public}"\nsecret = "{keys.generate().secret}"\n')
    with pytest.raises(keys.KeyError_, match="does not match"):
        keys.load(tmp_path / "bad.key")
