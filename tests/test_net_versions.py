"""LAN versions (issue 20 item 8): host and players run the same program and data (core.provenance, the versions
a saved game records); a client of another version is refused at join with both versions named."""

from __future__ import annotations

from dataclasses import replace

from core import provenance
from net import protocol as P
from net.testing import Table

SEATS = [("Rommel", "Axis"), ("Wavell", "Allied"), ("Umpire", "spectator")]


def test_a_client_of_another_program_or_data_version_is_refused_at_join_naming_both(tmp_path):
    mine = provenance.current()
    t = Table.new(tmp_path, SEATS)
    try:
        t.start_host()
        older = t.connect("Rommel", provenance=replace(mine, version="0.0.1-old"))
        assert older.wait(lambda c: c.status == "closed", 60), older.status
        assert older.welcome is None and older.connections == 1          # refused for good, no reconnect loop
        assert f"runs Desert Fox Campaign Manager version {mine.version}" in older.closed_reason
        assert "your program runs version 0.0.1-old" in older.closed_reason
        assert older.refusals[-1].code == P.VERSION_MISMATCH and older.refusals[-1].fatal
        edited = t.connect("Wavell", provenance=replace(mine, data="f" * 64))   # same program, other data
        assert edited.wait(lambda c: c.status == "closed", 60), edited.status
        assert f"data {mine.data[:8]}" in edited.closed_reason and "data ffffffff" in edited.closed_reason
        same = t.connect("Umpire")                                        # this program: welcome
        assert same.wait(lambda c: c.status == "connected", 60), same.status
        assert not t.host.conns.keys() - {c.rid for c in t.host.conns.values() if c.seat.name == "Umpire"}
    finally:
        t.close()
