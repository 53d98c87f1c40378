"""LAN heartbeats (issue 20 item 1): a client busy on engine work (building its engine, replaying a long tail) is
not taken for a dead one: liveness is kept by libzmq's transport heartbeats (ZMQ_HEARTBEAT_*), which run in
libzmq's I/O thread and never wait on the client's network thread."""

from __future__ import annotations

import time

from net.testing import Table, play

SEATS = [("Rommel", "Axis"), ("Wavell", "Allied")]


def test_a_client_busy_for_longer_than_the_timeout_is_neither_dropped_nor_reconnected(tmp_path):
    notes: list[str] = []
    t = Table.new(tmp_path, SEATS, on_event=notes.append)
    try:
        t.start_host()                                       # heartbeat 0.5 s, timeout 5 s
        rommel, wavell = t.connect_all(60)
        busy = {"left": 1}

        def slow_engine(kind, data) -> None:                 # as a long catch-up replay on the network thread
            if kind == "update" and busy["left"]:
                busy["left"] -= 1
                time.sleep(9.0)

        wavell.add_listener(slow_engine)
        play(t, 1, timeout=60)
        time.sleep(11.0)
        assert not any("timed out" in n for n in notes), notes
        assert sum("Wavell (Allied) joined" in n for n in notes) == 1, notes
        assert wavell.status == "connected" and wavell.connections == 1
        play(t, 3, timeout=60)
        assert wavell.seq == t.host.seq and wavell.hash() == t.host.hash()
    finally:
        t.close()
