"""LAN extras (issue 9): zeroconf discovery (untrusted until the key matches) and the Qt adapter."""

from __future__ import annotations

import time

import pytest

from net import keys
from net import protocol as P
from net.testing import Table, converge


def test_discovery_announces_and_results_are_untrusted_until_the_key_matches():
    from net import discovery

    k = keys.generate()
    adv = discovery.Advertiser("Discovery test", 45999, k.public, addresses=["127.0.0.1"])
    try:
        adv.start()
    except OSError as exc:  # no multicast-capable interface on this machine
        pytest.skip(f"zeroconf cannot run here: {exc}")
    found = []
    browser = discovery.Browser().start()
    try:
        end = time.monotonic() + 20
        while time.monotonic() < end and not found:
            found = [s for s in browser.list() if s.port == 45999]
            time.sleep(0.2)
    finally:
        browser.stop()
        adv.stop()
    if not found:
        pytest.skip("no mDNS traffic seen on this machine (multicast blocked)")
    svc = found[0]
    assert svc.campaign == "Discovery test" and svc.version == P.VERSION and svc.compatible
    assert svc.key == k.public and svc.consistent
    assert not svc.trusted()                               # nothing known yet: untrusted
    assert not svc.trusted([keys.generate().public])       # another key: untrusted
    assert svc.trusted([k.public]) and svc.trusted([keys.fingerprint(k.public)])
    assert keys.parse_join(svc.join_code()).server_key == k.public
    # a spoofed announcement whose fingerprint does not belong to its key is never trusted
    spoof = discovery.Service("x", "x", "h.local.", ("127.0.0.1",), 1, 1, keys.fingerprint(k.public),
                              keys.generate().public)
    assert not spoof.consistent and not spoof.trusted([keys.fingerprint(k.public)])


def test_qt_adapter_delivers_updates_on_the_gui_thread(tmp_path, qtbot):
    from PySide6.QtCore import QThread

    from net.qt_adapter import QtClient

    t = Table.new(tmp_path, [("Rommel", "Axis"), ("Wavell", "Allied")])
    try:
        t.start_host()
        player = t.players["Rommel"]
        from net.client import Client

        qc = QtClient(Client("127.0.0.1", t.port, t.host_key.public, player.key, heartbeat=0.5))
        gui = QThread.currentThread()
        threads = []
        qc.updated.connect(lambda entries: threads.append(QThread.currentThread()))
        with qtbot.waitSignal(qc.welcomed, timeout=20000) as w:
            qc.start()
        assert w.args[0].seat == "Axis"
        qtbot.waitUntil(lambda: qc.pending() is not None, timeout=20000)
        other = t.connect("Wavell")
        assert other.wait(lambda c: c.engine is not None and c.pending() is not None, 20)
        converge([other], t.host.seq)
        d = qc.pending()
        side_client = qc if d.allows("Axis") else None
        if side_client is None:
            a = next(o.action for o in other.pending().options if o.action.side == "Allied")
            with qtbot.waitSignal(qc.updated, timeout=20000) as w:
                other.send_command(a)
        else:
            a = next(o.action for o in d.options if o.action.side == "Axis")
            with qtbot.waitSignal(qc.updated, timeout=20000) as w:
                qc.send_command(a)
        assert w.args[0][-1].action == a
        assert threads and all(th is gui for th in threads)
        assert qc.client.hash() == t.host.hash()
        with qtbot.waitSignal(qc.refused, timeout=20000) as w:
            qc.send_command(P.Action(kind="done", side="Allied"))
        assert w.args[0].code == P.NOT_YOUR_SIDE
        qc.stop()
    finally:
        t.close()
