"""LAN junk arguments (issue 20 item 5): `undo` or `place` with an unknown 60,000-character argument is refused by
the engine's per-kind argument schema (core.decisions.arg_schema, Engine.check) with a reason; nothing is stored
or broadcast."""

from __future__ import annotations

from core.decisions import Action
from core.store import Store
from net import protocol as P
from net.testing import Table, converge, play

SEATS = [("Rommel", "Axis"), ("Wavell", "Allied")]
JUNK = "x" * 60_000


def test_undo_and_place_with_junk_arguments_are_refused_over_the_network(tmp_path):
    t = Table.new(tmp_path, SEATS)
    try:
        t.start_host_process()
        clients = t.connect_all(60)
        play(t, 4, timeout=60)
        ref = clients[0]
        seq = ref.seq
        last = ref.entries[seq].action.side            # the side that may take its last action back
        acting = ref.pending().side                    # the side the game waits for
        sent = [(t.by_seat(last)[0], Action(kind="undo", side=last, args={"junk": JUNK})),
                (t.by_seat(acting)[0], Action(kind="place", side=acting,
                                              args={"unit": "GE-21-5", "hex": "C0603", "junk": JUNK}))]
        for c, action in sent:
            r = c.result(c.send_command(action), 60)
            assert isinstance(r, P.Reject), (action.kind, r)
            assert r.code == P.ILLEGAL and f"{action.kind} takes no argument 'junk'" in r.reason, r
        # nothing was applied, stored or broadcast; the game goes on
        play(t, 2, timeout=60)
        converge(clients, seq + 2, 60)
        assert all(c.seq == seq + 2 for c in clients)
        assert all(JUNK not in str(e.action.args) for c in clients for e in c.entries.values())
    finally:
        t.close()
    s = Store.open(t.path, read_only=True)
    try:
        assert all("junk" not in r.action for r in s.actions(0))
    finally:
        s.close()
