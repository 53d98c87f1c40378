"""LAN failure reports (issue 20 item 7): the join code of a bound host, a clean SIGTERM, a connection that breaks
during the secure handshake."""

from __future__ import annotations

import signal
import socket
import threading
import time

from net.testing import Table

SEATS = [("Rommel", "Axis"), ("Wavell", "Allied")]


def test_bound_host_prints_its_own_address_and_stops_cleanly_on_sigterm(tmp_path):
    t = Table.new(tmp_path, SEATS)
    try:
        proc = t.start_host_process()                       # dfd host ... --bind 127.0.0.1
        code = next(line for line in t.host_output if line.startswith("Join code:"))
        assert code.startswith(f"Join code: dfd://127.0.0.1:{t.port}/"), code
        rommel = t.connect("Rommel")
        assert rommel.wait(lambda c: c.status == "connected", 60)
        t.kill_host_process(signal.SIGTERM)
        assert proc.returncode == 0
        assert rommel.wait(lambda c: c.status != "connected", 30)
        time.sleep(0.5)                                     # the drain thread reads the last lines
        out = "\n".join(t.host_output)
        assert "[host] stopped" in out
        assert "Traceback" not in out and "error" not in out.lower(), out
    finally:
        t.close()


def test_a_connection_broken_during_the_handshake_is_not_blamed_on_the_key(tmp_path):
    t = Table.new(tmp_path, SEATS)
    statuses: list[str] = []
    stop = threading.Event()
    try:
        t.start_host()
        rommel = t.connect("Rommel", backoff=(0.2, 0.5))
        rommel.add_listener(lambda kind, data: statuses.append(str(data)) if kind == "status" else None)
        assert rommel.wait(lambda c: c.status == "connected", 60)
        t.host.stop()
        t.host = None
        # something at the host's address accepts connections and drops them mid-handshake
        srv = socket.socket()
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind(("127.0.0.1", t.port))
        srv.listen(16)
        srv.settimeout(0.2)

        def breaker() -> None:
            while not stop.is_set():
                try:
                    conn, _ = srv.accept()
                except OSError:
                    continue
                conn.recv(64)
                conn.close()

        th = threading.Thread(target=breaker, daemon=True)
        th.start()
        end = time.monotonic() + 20
        while time.monotonic() < end and not any("handshake" in s for s in statuses):
            time.sleep(0.2)
        stop.set()
        th.join(5)
        srv.close()
        assert any("broke during the secure handshake" in s for s in statuses), statuses
        assert not any("check the host's key" in s for s in statuses), statuses
        assert rommel.status != "refused"
    finally:
        stop.set()
        t.close()
