"""LAN team play on loopback (issue 9): convergence, seats, refusals, stale and duplicate commands, chat."""

from __future__ import annotations

import pytest

from core.decisions import Action, IllegalAction
from core.game import Game, public_hash, verify
from net import protocol as P
from net.testing import Table, converge, play

SEATS = [("Rommel", "Axis"), ("Gariboldi", "Axis"), ("Wavell", "Allied"), ("OConnor", "Allied"), ("Umpire", "spectator")]


@pytest.fixture
def table(tmp_path):
    t = Table.new(tmp_path, SEATS)
    t.start_host()
    t.connect_all()
    yield t
    t.close()


def _ready(table: Table) -> None:
    converge(table.clients(), table.host.seq)


def test_team_play_converges_on_the_hosts_hash(table):
    host = table.host
    clients = table.clients()
    # presence: everyone is listed as connected
    assert clients[0].wait(lambda c: c.presence is not None and sum(p.connected for p in c.presence.players) == 5, 20)
    acks = play(table, 500)
    assert host.game.engine.pending() is None, "the scripted GTs were played to the end of the scenario"
    assert len(acks) == host.seq >= 70
    for c in clients:
        assert c.wait_seq(host.seq, 20)
        assert c.hash() == host.hash(), c.name
        assert c.mismatches == []
    # both commanders of each team acted, identified by the host from their keys
    by = {e.by for e in clients[-1].entries.values()}
    assert {"Rommel", "Gariboldi", "Wavell", "OConnor"} <= by
    assert "Umpire" not in by
    host.stop()
    assert verify(table.path).ok
    g = Game.open(table.path)
    # the clients hold the host's state without its seed (issue 14): the same public hash, never the seeded one
    assert public_hash(g.state) == clients[0].hash() != g.engine.hash()
    g.close()


def test_allied_player_cannot_act_for_axis(table):
    _ready(table)
    wavell = table.players["Wavell"].client
    before, seq = table.host.hash(), table.host.seq
    d = wavell.pending()
    axis_action = next((o.action for o in d.options if o.action.side == "Axis"), Action(kind="done", side="Axis"))
    r = wavell.result(wavell.send_command(axis_action), 20)
    assert isinstance(r, P.Reject) and r.code == P.NOT_YOUR_SIDE
    assert "Wavell holds an Allied seat and cannot act for the Axis side" in r.reason
    assert table.host.hash() == before and table.host.seq == seq


def test_spectator_cannot_act(table):
    _ready(table)
    ump = table.players["Umpire"].client
    assert ump.seat == "spectator"
    before = table.host.hash()
    for side in ("Axis", "Allied"):
        d = ump.pending()
        a = next((o.action for o in d.options if o.action.side == side), Action(kind="done", side=side))
        r = ump.result(ump.send_command(a), 20)
        assert isinstance(r, P.Reject) and r.code == P.SPECTATOR_CANNOT_ACT, r
    assert table.host.hash() == before
    # ...but sees everything
    play(table, 5)
    assert ump.wait_seq(table.host.seq, 20) and ump.hash() == table.host.hash()


def test_engine_refusal_is_cited_verbatim(table):
    _ready(table)
    d = table.host.game.engine.pending()
    wrong = "Allied" if d.side == "Axis" else "Axis"
    client = table.by_seat(wrong)[0]
    action = Action(kind="done", side=wrong)
    with pytest.raises(IllegalAction) as exc:
        table.host.game.engine.check(action)
    r = client.result(client.send_command(action), 20)
    assert isinstance(r, P.Reject) and r.code == P.ILLEGAL
    assert r.reason == exc.value.reason and r.rule == exc.value.rule and r.rule


def test_conflicting_commands_one_applies_the_stale_one_is_refused_and_resends_apply_once(table):
    _ready(table)
    # walk to a decision of one side, then let both of its players answer the same situation
    play(table, 3)
    d = table.host.game.engine.pending()
    side = d.side if d.side in ("Axis", "Allied") else "Axis"
    a, b = table.by_seat(side)
    converge([a, b], table.host.seq)
    base = a.seq
    option = next(o.action for o in a.pending().options if o.action.side == side)
    id_a = a.send_command(option, base=base)
    ra = a.result(id_a, 20)
    assert isinstance(ra, P.Ack) and ra.seq == base + 1
    rb = b.result(b.send_command(option, base=base), 20)
    assert isinstance(rb, P.Reject) and rb.code == P.STALE and f"#{base}" in rb.reason and "moved on" in rb.reason
    # a resend of a's command (as after a reconnect) is acknowledged, not applied again
    seq = table.host.seq
    again = a.result(_resend(a, id_a, option, base), 20)
    assert isinstance(again, P.Ack) and again.duplicate and again.seq == ra.seq
    assert table.host.seq == seq


def _resend(client, cmd_id, action, base):
    client.acks.pop(cmd_id, None)
    return client.send_command(action, base=base, cmd_id=cmd_id)


def test_chat_to_all_and_to_side(table):
    _ready(table)
    rommel, gariboldi = table.players["Rommel"].client, table.players["Gariboldi"].client
    wavell, ump = table.players["Wavell"].client, table.players["Umpire"].client
    rommel.send_chat("Axis eyes only", to="side")
    rommel.send_chat("Good luck, gentlemen", to="all")
    for c in table.clients():
        assert c.wait(lambda c: any(m.text == "Good luck, gentlemen" for m in c.chat), 20), c.name
    assert any(m.text == "Axis eyes only" and m.sender == "Rommel" and m.seat == "Axis" for m in gariboldi.chat)
    for c in (wavell, ump, table.players["OConnor"].client):
        assert not any(m.text == "Axis eyes only" for m in c.chat)


def test_presence_shows_who_is_acting(table):
    _ready(table)
    c = table.players["Umpire"].client
    assert c.wait(lambda c: c.presence is not None and len(c.presence.players) == 5, 20)
    acting = table.host.game.engine.pending().side
    pres = c.presence
    for p in pres.players:
        if p.seat == "spectator":
            assert not p.acting
        else:
            assert p.acting == (acting in (p.seat, "either"))
