"""24.3 Fox Killed in the Cradle: the Axis wins if "AXC-9 (Axis in Egypt) [is] in effect at the end of play" — an
Axis combat unit in general supply occupies Sidi Barrani (W2110) or a hex of Egypt east of it, checked in every
Events Phase (23.2 AXC-9).  Played from the real Fox Killed set-up (24.0: GT 4, the Axis moves first) through
``Engine.apply`` only (tests/playpath.py)."""

from __future__ import annotations

from core.decisions import AXIS
from core.rules import victory_rules
from tests.playpath import Play


def _axc9_holds(p: Play) -> bool:
    [c] = [c for c in victory_rules.conditions(p.eng) if c.get("kind") == "card_in_effect"]
    assert c["card"] == "AXC-9" and c["rule"] == "24.3"
    return victory_rules.holds(p.eng, c, AXIS)


def test_24_3_play_path_fox_killed_babini_at_sidi_barrani_puts_axc_9_in_effect():
    p = Play("fox-killed", seed=1)
    p.to("movement", side=AXIS, gt=4)
    assert not _axc9_holds(p)
    route = p.eng.query("route", units=["IT-Babini"], to="W2110")
    p.act("move", units=["IT-Babini"], path=route["path"])
    n = len(p.eng.log)
    p.to("events", side=AXIS, gt=5)
    p.pass_()                                                   # the Axis Events Phase checks AXC-9
    assert "AXC-9 Axis in Egypt: conditions met (1 consecutive GT) (23.2 AXC-9)" in p.events(since=n)
    u = p.state.units["IT-Babini"]
    assert u.loc == "W2110" and not (u.ogs or u.isolated)
    assert _axc9_holds(p)
