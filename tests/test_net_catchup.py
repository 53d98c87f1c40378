"""LAN catch-up by state (issue 20 item 2): a client more than a few actions behind receives the host's current
state (seed blanked, issue 14) with its take-back points (R-UNDO) instead of re-applying every missed action, and
then follows the live updates with the recorded dice.  Real host and client sockets on loopback."""

from __future__ import annotations

from core.decisions import Action
from core.engine import Engine
from core.game import Game, _RecordedDice, public_hash
from core.state import GameState
from net import protocol as P
from net.client import Client
from net.host import SNAPSHOT_CATCHUP
from net.testing import WALK, Table, converge, play

SEATS = [("Rommel", "Axis"), ("Wavell", "Allied"), ("Umpire", "spectator")]
N_ACTIONS = 300          # far more than SNAPSHOT_CATCHUP: the tail would be 300 engine runs


def _long_game(path, n_target: int = N_ACTIONS) -> str:
    """A walk-scenario game padded to at least ``n_target`` logged actions with take-backs (undo + redo), ending
    where the side that acted last can still take its action back (so the host has undo points to send).
    Returns that side."""
    g = Game.new(path, WALK, seed=5, overwrite=True)
    try:
        n = 0
        while True:
            d = g.engine.pending()
            assert d is not None, f"the walk ended after {n} actions"
            a = d.options[0].action
            g.act(a)
            n += 1
            if n >= n_target and g.engine.can_undo(a.side):
                return a.side
            while n < n_target and n % 50 and g.engine.can_undo(a.side):
                g.act(Action(kind="undo", side=a.side))
                g.act(a)
                n += 2
    finally:
        g.close()


def test_a_client_far_behind_receives_the_current_state_not_the_tail_and_follows_the_host(tmp_path):
    path = tmp_path / "long.dfd"
    undo_side = _long_game(path)
    t = Table(path, SEATS)
    try:
        host = t.start_host()
        n = host.seq
        assert n >= N_ACTIONS > SNAPSHOT_CATCHUP
        assert host.game.engine.can_undo(undo_side)

        # a fresh client (no state at all) is in sync from the state alone: not one missed action re-applied
        snaps: list[int] = []
        umpire = t.connect("Umpire")
        umpire.add_listener(lambda kind, data: snaps.append(data) if kind == "snapshot" else None)
        assert umpire.wait(lambda c: c.welcome is not None and c.seq == n, 60)
        assert umpire.welcome.catchup == "snapshot"
        assert snaps in ([], [n])                        # the listener may attach after the snapshot arrived
        assert umpire.entries == {}                      # no update carried any of the n actions
        assert umpire.engine.state.seed == 0             # ... and the state came without the seed (issue 14)
        assert umpire.hash() == host.hash() == public_hash(host.game.state)

        # a client that still holds the game's initial state (it slept through the whole game) gets the state too
        p = t.players["Rommel"]
        sleeper = Client("127.0.0.1", t.port, t.host_key.public, p.key, name="Rommel", heartbeat=0.5, timeout=4.0,
                         backoff=(0.1, 1.0))
        dice = _RecordedDice()
        initial = GameState.decode(host.game.store.initial_state())
        initial.seed = 0
        sleeper.engine, sleeper._dice = Engine(initial, dice), dice
        sleeper.seq, sleeper.game_id = 0, host.game_id
        p.client = sleeper.start()
        assert sleeper.wait(lambda c: c.welcome is not None and c.seq == n, 60)
        assert sleeper.welcome.catchup == "snapshot" and sleeper.entries == {}
        assert sleeper.hash() == host.hash()

        wavell = t.connect("Wavell")
        assert wavell.wait(lambda c: c.welcome is not None and c.seq == n, 60)
        assert wavell.welcome.catchup == "snapshot" and wavell.entries == {}

        # the take-back points came with the state (R-UNDO): the last side takes its action back on every client
        actor = sleeper if undo_side == "Axis" else wavell
        assert actor.engine.can_undo(undo_side)
        r = actor.result(actor.send_command(Action(kind="undo", side=undo_side)), 30)
        assert isinstance(r, P.Ack), r
        converge(t.clients(), host.seq)
        assert all(c.hash() == host.hash() for c in t.clients())

        # ... and the game goes on with the recorded dice, every hash checked against the host's
        play(t, 15)
        converge(t.clients(), host.seq)
        assert host.seq > n
        for c in t.clients():
            assert c.mismatches == [], c.name
            assert c.hash() == host.hash() == public_hash(host.game.state), c.name
            assert sorted(c.entries) == list(range(n + 1, host.seq + 1)), c.name   # only live updates applied
    finally:
        t.close()


def test_a_client_a_few_actions_behind_still_gets_the_tail(tmp_path):
    """The boundary: SNAPSHOT_CATCHUP actions behind is re-applied from the tail, one more gets the state."""
    t = Table.new(tmp_path, SEATS)
    try:
        host = t.start_host()
        t.connect_all()
        play(t, SNAPSHOT_CATCHUP + 1)
        assert host.seq == SNAPSHOT_CATCHUP + 1
        for have, expected in ((1, "tail"), (0, "snapshot")):
            p = t.players["Umpire"]
            p.client.stop()
            c = Client("127.0.0.1", t.port, t.host_key.public, p.key, name="Umpire", heartbeat=0.5, timeout=4.0,
                       backoff=(0.1, 1.0))
            dice = _RecordedDice()
            eng = Engine(GameState.decode(host.game.store.initial_state()), dice)
            eng.state.seed = 0
            for e in host.game.engine.log[:have]:
                dice.queue = list(e.rolls)
                eng.apply(e.action)
            c.engine, c._dice, c.seq, c.game_id = eng, dice, have, host.game_id
            p.client = c.start()
            converge([c], host.seq)
            assert c.welcome.catchup == expected, (have, c.welcome.catchup)
            assert c.hash() == host.hash()
            assert len(c.entries) == (host.seq - have if expected == "tail" else 0)
    finally:
        t.close()
