"""LAN reconnect storms (issue 20 item 9): after a host restart the clients rejoin at jittered moments and the
host coalesces the presence updates of their joins."""

from __future__ import annotations

import signal
import time

from net import protocol as P
from net.testing import Table

SEATS = [("Rommel", "Axis"), ("Wavell", "Allied")] + [(f"Watcher{i}", "spectator") for i in range(6)]


def test_after_a_host_restart_clients_rejoin_jittered_and_presence_is_coalesced(tmp_path):
    t = Table.new(tmp_path, SEATS)
    try:
        t.start_host_process()
        clients = t.connect_all(90)
        watcher = clients[0]
        seen: list[tuple[float, P.Presence]] = []
        hellos: list[float] = []
        presences = {c.name: 0 for c in clients}
        watcher.add_listener(lambda kind, data: seen.append((time.monotonic(), data)) if kind == "presence" else None)
        for c in clients:
            c.add_listener(lambda kind, data, c=c: presences.__setitem__(c.name, presences[c.name] + 1)
                           if kind == "presence" else None)
            c.add_listener(lambda kind, data, c=c: hellos.append(time.monotonic())
                           if kind == "status" and str(data).startswith("connected") else None)
        old = {c.name: c.welcome.session for c in clients}
        t.kill_host_process(signal.SIGKILL)
        seen.clear()
        presences.update({n: 0 for n in presences})
        t.start_host_process()
        assert all(c.wait(lambda c: c.status == "connected" and c.welcome.session != old[c.name]
                          and c.presence is not None and sum(p.connected for p in c.presence.players) == len(SEATS),
                          90) for c in clients), [(c.name, c.status) for c in clients]
        time.sleep(1.5)                                   # any presence still due arrives
        assert len(hellos) == len(SEATS)
        # eight joins one after the other, each broadcast to everyone connected, would send 1 + 2 + ... + 8 = 36
        # presence updates; coalesced, each client gets a few
        assert sum(presences.values()) < 30, presences
        assert all(n >= 1 for n in presences.values()), presences
        assert sum(p.connected for p in seen[-1][1].players) == len(SEATS)
        # the rejoins were spread out, not all in the same instant
        assert max(hellos) - min(hellos) > 0.1, sorted(hellos)
    finally:
        t.close()
