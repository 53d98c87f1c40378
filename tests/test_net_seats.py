"""LAN seats (issue 20): one key in two processes, seat file edits while the host runs."""

from __future__ import annotations

import time

from net.host import write_seats
from net.testing import Table

SEATS = [("Rommel", "Axis"), ("Wavell", "Allied"), ("Umpire", "spectator")]


def test_one_key_in_two_processes_the_newer_wins_and_the_older_stops_for_good(tmp_path):
    t = Table.new(tmp_path, SEATS)
    try:
        t.start_host()
        older = t.connect("Rommel")
        assert older.wait(lambda c: c.welcome is not None, 30)
        newer = t.connect("Rommel")          # the same key from a second program
        assert newer.wait(lambda c: c.welcome is not None, 30)
        assert older.wait(lambda c: c.status == "closed", 30), older.status
        assert "newer connection has the seat" in older.closed_reason
        time.sleep(4.0)                      # no ping-pong: the newer keeps its only connection
        assert newer.status == "connected" and newer.connections == 1
        assert older.connections == 1
        assert sum(1 for c in t.host.conns.values() if c.key == t.players["Rommel"].key.public) == 1
    finally:
        t.close()


def test_saving_the_seat_file_by_truncate_then_write_disconnects_nobody(tmp_path):
    """An editor that truncates the file, then writes it: the host (a `dfd host` process) never reloads the empty
    or the half-written file, says why it keeps the seats, and nobody is disconnected."""
    t = Table.new(tmp_path, SEATS)
    try:
        t.start_host_process()
        seats = t.path.with_suffix(".seats.toml")
        full = seats.read_text(encoding="utf-8")
        clients = t.connect_all(60)
        seats.write_text("", encoding="utf-8")                 # truncated ... and the editor is slow
        time.sleep(4.0)
        half = full[: full.index("[[seat]]", full.index("[[seat]]") + 1) + 20]   # cut inside the second seat
        seats.write_text(half, encoding="utf-8")
        time.sleep(0.1)
        seats.write_text(full, encoding="utf-8")              # ... and the whole file is written
        time.sleep(4.0)
        assert all(c.status == "connected" and c.connections == 1 for c in clients), \
            [(c.name, c.status, c.closed_reason) for c in clients]
        out = "\n".join(t.host_output)
        assert "has no [[seat]]" in out and "in use are kept" in out
        assert "disconnected" not in out
        # a real edit still takes effect once the file is complete: the umpire is removed
        write_seats(seats, [e for e in t.seat_entries() if e[0] != "Umpire"], campaign="loopback")
        umpire = t.players["Umpire"].client
        assert umpire.wait(lambda c: c.status == "closed", 30)
        assert "removed from the host's seat file" in umpire.closed_reason
        assert all(c.status == "connected" and c.connections == 1 for c in clients if c is not umpire)
    finally:
        t.close()
