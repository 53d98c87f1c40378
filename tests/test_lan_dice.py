"""Issue 14 item 4: over a LAN no player can foresee the dice.

The seed stays on the host: clients receive each action with its recorded dice and verify hashes that do not
depend on the seed (the state hashed with the seed blanked); snapshots carry no seed; nothing the host sends
contains it; default file names do not show it.
"""

from __future__ import annotations

import pytest

from core.game import Game, public_hash
from net import protocol as P
from net.testing import Table, converge, play

SEED = 7_340_519_236_407_115_853          # a secret seed whose digits cannot appear in a message by chance
SEATS = [("Rommel", "Axis"), ("Wavell", "Allied"), ("Umpire", "spectator")]


@pytest.fixture
def sent(monkeypatch):
    """Every frame the host sends to a client, as the client receives it."""
    frames: list[bytes] = []
    decode = P.decode_host

    def spy(fs):
        frames.extend(bytes(f) for f in fs)
        return decode(fs)

    monkeypatch.setattr(P, "decode_host", spy)
    return frames


def test_a_lan_clients_state_holds_no_seed_and_its_hash_checks_pass(tmp_path, sent):
    t = Table.new(tmp_path, SEATS, seed=SEED)
    try:
        t.start_host()
        clients = t.connect_all()
        acks = play(t, 40)
        rolls = [r for e in t.host.game.engine.log for r in e.rolls]
        assert rolls, "the game must roll dice for the test to mean something"
        converge(clients, t.host.seq)
        old = t.players["Umpire"].client
        old.stop()
        clients = [c for c in clients if c is not old]
        late = t.connect("Umpire")                # a fresh client (no state at all) catches up from a snapshot
        assert late.wait(lambda c: c.welcome is not None, 20)
        converge([late], t.host.seq)
        assert late.welcome.catchup == "snapshot"
        for c in [*clients, late]:
            assert c.engine.state.seed == 0, c.name              # the client's view of the state has no seed
            assert c.mismatches == [], c.name                     # every update's hash check passed
            assert c.hash() == t.host.hash() == public_hash(t.host.game.state)
            # the clients verify other hashes than the seeded ones the file keeps
            assert all(e.hash != t.host.game.engine.log[s - 1].hash for s, e in c.entries.items())
        assert all(a.hash == t.host._hash_at(a.seq) for a in acks)
        assert t.host.game.state.seed == SEED                     # the host (and its file) keep the seed
        # nothing the host sent names the seed: not the welcome, the snapshot, the updates nor the game id
        assert sent and not any(str(SEED).encode() in f for f in sent)
        assert late.game_id and late.game_id != t.host.game.store.snapshot(0).hash[:32]   # not the seeded hash
    finally:
        t.close()


def test_default_file_names_do_not_show_the_seed(tmp_path, qtbot):
    pytest.importorskip("pytestqt")
    from app.dialogs import NewGameDialog

    dlg = NewGameDialog(None, tmp_path)
    qtbot.addWidget(dlg)
    seed = dlg.seed_value()
    assert seed >= 2 ** 40                                      # random and secret unless the player types one
    assert str(seed) not in dlg.path.text() and dlg.path.text().endswith(".dfd")
    dlg.seed.setText("12345")
    assert dlg.seed_value() == 12345


def test_dfd_new_picks_a_secret_seed_and_does_not_print_it(tmp_path, capsys):
    from app.cli import main

    f = tmp_path / "c.dfd"
    assert main(["new", "sonnenblume", "-o", str(f)]) == 0
    out = capsys.readouterr().out
    g = Game.open(f, read_only=True)
    try:
        assert g.state.seed >= 2 ** 40 and str(g.state.seed) not in out
        assert "secret" in out
    finally:
        g.close()


def test_a_host_started_after_a_program_update_serves_the_new_epoch(tmp_path, monkeypatch):
    from core.game import verify
    from tests.test_epochs import updated_program

    t = Table.new(tmp_path, SEATS, seed=SEED)
    try:
        g = Game.open(t.path)
        for _ in range(20):
            g.act(g.engine.pending().options[0].action)
        g.close()
        updated_program(monkeypatch)
        t.start_host()
        assert len(t.host.game.epochs) == 2 and "epoch 2" in t.host.game.note
        clients = t.connect_all()
        converge(clients, t.host.seq)
        assert all(c.welcome.catchup == "snapshot" and c.seq == 20 for c in clients)
        play(t, 15)
        converge(clients, t.host.seq)
        for c in clients:
            assert c.mismatches == [] and c.hash() == t.host.hash() and c.engine.state.seed == 0
    finally:
        t.close()
    assert verify(t.path).ok
