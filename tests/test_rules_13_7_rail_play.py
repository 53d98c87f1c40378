"""13.7 Rail Lift from the real Sonnenblume set-up (26.0: 13 Corps, 22 Bde and 3 Ind at the railhead, Mersa Matruh
W2118) through ``Engine.apply`` only (tests/playpath.py): the Allied player moves one combat unit along the active
Egyptian railroad for 3 MP whatever the distance; the line carries one load per Movement Phase."""

from __future__ import annotations

from core.decisions import ALLIED
from core.rules import transport
from tests.playpath import Play


def test_13_7_play_path_sonnenblume_13_corps_rails_to_alexandria_one_load_a_movement_phase():
    p = Play("sonnenblume", seed=1)
    p.to("movement", side=ALLIED)
    assert {"W2118", "W2232"} <= set(transport.egyptian_rail_active(p.state))
    n = len(p.eng.log)
    p.act("rail", units=["UK-13Corps"], to="W2232")
    assert p.events(since=n) == ["13 Corps move by rail from W2118 to W2232 (3 MP, 13.7)"]
    assert p.state.units["UK-13Corps"].loc == "W2232"
    exc = p.refuse("rail", units=["UK-22Bde"], to="W2232")           # the second load of the phase
    assert exc.rule == "13.7" and "one load" in str(exc)
