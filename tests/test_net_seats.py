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
