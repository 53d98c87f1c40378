"""LAN recovery (issue 9): a client that drops rejoins and converges; a host killed with SIGKILL restarts from
its file and every client converges with no confirmed action lost."""

from __future__ import annotations

import json
import signal

from core.decisions import Action
from core.engine import Engine
from core.game import Game, _RecordedDice, public_hash, verify
from core.state import GameState
from core.store import Store
from net import protocol as P
from net.testing import Table, converge, play

SEATS = [("Rommel", "Axis"), ("Gariboldi", "Axis"), ("Wavell", "Allied"), ("OConnor", "Allied"), ("Umpire", "spectator")]


def test_client_killed_mid_phase_rejoins_and_converges(tmp_path):
    t = Table.new(tmp_path, SEATS)
    try:
        t.start_host()
        t.connect_all()
        play(t, 12)
        wavell = t.players["Wavell"].client
        phase_before = wavell.pending().context, t.host.game.state.phase
        wavell.kill()  # no goodbye: as a crash or a pulled cable
        assert wavell.wait(lambda c: c.status == "closed", 10)
        play(t, 15)  # the game goes on; O'Connor answers the Allied decisions
        assert t.host.seq == 27
        # Wavell comes back (a new process: no state at all) and catches up
        back = t.connect("Wavell")
        assert back.wait(lambda c: c.welcome is not None, 20)
        assert back.welcome.seat == "Allied" and back.welcome.catchup == "snapshot"
        converge(t.clients(), t.host.seq)
        assert back.hash() == t.host.hash()
        # ... and plays on
        play(t, 20)
        assert {e.by for e in back.entries.values() if e.seq > 27} >= {"Wavell"} or t.host.game.engine.pending() is None
        converge(t.clients(), t.host.seq)
        assert all(c.hash() == t.host.hash() for c in t.clients())
        assert phase_before is not None
    finally:
        t.close()


def test_client_that_drops_reconnects_with_backoff_and_gets_only_the_tail(tmp_path):
    t = Table.new(tmp_path, SEATS[:3])
    try:
        t.start_host()
        t.connect_all()
        play(t, 10)
        gar = t.players["Gariboldi"].client
        gar.drop(seconds=2.0)  # a laptop going to sleep: the client keeps its state
        assert gar.wait(lambda c: c.status == "reconnecting", 10)
        seq_when_dropped = gar.seq
        play(t, 8)
        assert gar.wait(lambda c: c.status == "connected" and c.connections == 2, 30)
        converge([gar], t.host.seq)
        assert gar.welcome.catchup == "tail" and gar.hash() == t.host.hash()
        assert seq_when_dropped == 10 and gar.seq == 18
    finally:
        t.close()


def _file_log(path):
    """``{seq: public hash}`` of the file's log (what clients verify: the state hashed without its seed)."""
    s = Store.open(path, read_only=True)   # the host holds the file: read it as a watcher
    try:
        dice = _RecordedDice()
        eng = Engine(GameState.decode(s.initial_state()), dice)
        out = {}
        for r in s.actions(0):
            dice.queue = json.loads(r.rolls)
            assert eng.apply(Action.from_json(r.action)).hash == r.hash
            out[r.seq] = public_hash(eng.state)
        return out
    finally:
        s.close()


def test_host_sigkill_restart_every_client_converges_nothing_confirmed_lost(tmp_path):
    t = Table.new(tmp_path, SEATS)
    try:
        t.start_host_process()
        clients = t.connect_all(60)
        acks = play(t, 15, timeout=60)
        # a command in flight when the host dies
        ref = clients[0]
        d = ref.pending()
        side = d.side if d.side in ("Axis", "Allied") else "Axis"
        c = t.by_seat(side)[0]
        c.wait_seq(ref.seq, 30)
        action = next(o.action for o in c.pending().options if o.action.side == side)
        sessions = {cl.name: cl.welcome.session for cl in clients}
        cid = c.send_command(action)
        t.kill_host_process(signal.SIGKILL)
        confirmed = max(a.seq for a in acks)
        t.start_host_process()
        # the in-flight command is applied exactly once: before the kill (then acked on resend) or after the restart
        r = c.result(cid, 60)
        assert isinstance(r, P.Ack), r
        logged = _file_log(t.path)
        assert max(logged) == r.seq == confirmed + 1
        converge(clients, r.seq, 60)
        for cl in clients:
            assert cl.status == "connected", cl.name
            # every update a client applied is in the file, with the same state hash
            assert all(logged[s] == e.hash for s, e in cl.entries.items()), cl.name
            assert cl.hash() == clients[0].hash()
        assert all(a.seq in logged for a in acks)
        # every client re-introduced itself to the new host process (a new session)
        assert all(cl.welcome.session != sessions[cl.name] for cl in clients)
        # play on to the end with the restarted host
        play(t, 500, timeout=60)
        final = clients[0].hash()
        t.kill_host_process(signal.SIGTERM)
        assert verify(t.path).ok
        g = Game.open(t.path)
        assert public_hash(g.state) == final and g.engine.pending() is None
        g.close()
        assert all(cl.hash() == final for cl in clients)
    finally:
        t.close()
