"""A computer seat at a LAN table (issue 21): the computer holds the Axis side of a hosted game as a client of the host,
answering its side's decisions through the same command path as a person's client; the Allied player plays against it
over loopback to the end of the scenario, and the host's file verifies."""

from __future__ import annotations

from core import computer as cm
from core.game import verify
from net import protocol as P
from net.computer import ComputerSeat, computer_key, parse_computer, seat_computer
from net.host import Seats
from net.testing import Player, Table

import pytest


def test_the_computer_holds_a_side_of_a_lan_game_to_its_end(tmp_path, monkeypatch):
    monkeypatch.setenv("DFD_KEY_DIR", str(tmp_path / "keys"))
    table = Table.new(tmp_path, [("Wavell", "Allied")])
    pair = computer_key("Axis")
    table.players["Computer (Axis)"] = Player("Computer (Axis)", "Axis", pair)
    table.start_host()
    seat = ComputerSeat("127.0.0.1", table.port, table.host_key.public, "Axis", key=pair, kind="random", seed=5,
                        heartbeat=0.5).start()
    try:
        wavell = table.connect("Wavell")
        assert wavell.wait(lambda c: c.engine is not None and c.welcome is not None, 60)
        n_person = 0
        for _ in range(2000):
            assert seat.error is None, seat.error
            if not wavell.wait(lambda c: c.engine is not None and (c.engine.pending() is None
                                                                    or c.engine.pending().allows("Allied")), 60):
                raise AssertionError(f"stuck at #{wavell.seq}: {wavell.pending()}")
            d = wavell.pending()
            if d is None:
                break
            mine = [o.action for o in d.options if o.action.side == "Allied"]
            if not mine:                 # an either-side step the computer answers first: wait for its update
                wavell.wait(lambda c, s=wavell.seq: c.seq > s, 60)
                continue
            action = next((a for a in mine if a.kind == "done"), mine[0])
            seq = wavell.seq
            r = wavell.result(wavell.send_command(action), 60)
            assert isinstance(r, P.Ack) or r.code == "stale", r      # stale: the computer's command came first
            n_person += 1
            wavell.wait(lambda c, s=seq: c.seq > s, 60)
        assert wavell.pending() is None, "the game reached its end"
        assert seat.error is None
        by = {e.by for e in wavell.entries.values()}
        assert "Computer (Axis)" in by and "Wavell" in by
        # every Axis action was the computer's, sent as its client's commands; the others the person's
        for e in wavell.entries.values():
            assert (e.by == "Computer (Axis)") == (e.action.side == "Axis"), e
        assert seat.sent >= sum(1 for e in wavell.entries.values() if e.by == "Computer (Axis)")
    finally:
        seat.stop()
        table.close()
    assert verify(table.path).ok


def test_seat_the_computer_in_the_seat_file_and_parse_the_option(tmp_path, monkeypatch):
    monkeypatch.setenv("DFD_KEY_DIR", str(tmp_path / "keys"))
    seats = tmp_path / "g.seats.toml"
    pair = seat_computer(seats, "Allied")
    again = seat_computer(seats, "Allied")
    loaded = Seats.load(seats)
    assert again.public == pair.public and list(loaded.by_key) == [pair.public], "seated once"
    assert loaded.by_key[pair.public].seat == "Allied" and loaded.by_key[pair.public].name == "Computer (Allied)"
    assert computer_key("Axis").public != pair.public, "one key, one seat: each side's computer has its own"
    assert parse_computer("allied") == ("Allied", cm.DEFAULT_SETTING)
    assert parse_computer("Axis:thoughtful") == ("Axis", "thoughtful")
    for bad in ("Italians", "Axis:slow"):
        with pytest.raises(ValueError):
            parse_computer(bad)


def test_dfd_host_computer_seats_and_runs_the_computer(tmp_path):
    """``dfd host FILE --computer Axis`` (a real host process): the computer's seat is added to the seat file and it
    answers the Axis decisions over loopback while a person's client answers the Allied ones."""
    table = Table.new(tmp_path, [("Wavell", "Allied")])
    table.host_args = ["--computer", "Axis"]
    table.start_host_process()
    try:
        wavell = table.connect("Wavell")
        assert wavell.wait(lambda c: c.engine is not None and c.welcome is not None, 60)
        for _ in range(200):
            if any(e.by == "Computer (Axis)" for e in wavell.entries.values()):
                break
            d = wavell.pending()
            mine = [o.action for o in d.options if o.action.side == "Allied"] if d is not None else []
            if mine and d.allows("Allied"):
                seq = wavell.seq
                wavell.result(wavell.send_command(next((a for a in mine if a.kind == "done"), mine[0])), 60)
                wavell.wait(lambda c, s=seq: c.seq > s, 60)
            else:
                wavell.wait(lambda c, s=wavell.seq: c.seq > s, 60)
        mine = [e for e in wavell.entries.values() if e.by == "Computer (Axis)"]
        assert mine and all(e.action.side == "Axis" for e in mine), table.host_output[-20:]
        assert any("The computer holds the Axis side (quick)" in line for line in table.host_output)
        seats = Seats.load(table.path.with_suffix(".seats.toml"))
        assert [s.name for s in seats.by_key.values() if s.seat == "Axis"] == ["Computer (Axis)"]
    finally:
        table.close()
