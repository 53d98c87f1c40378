"""22.2.1: a unit that returns from a MET track to the NRV moves no further in that Movement Phase (the NRV entry of
13.8 / 22.1 and the rail lift from the NRV refuse it, citing 22.2.1); in the next phase it moves normally."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, Action, IllegalAction
from core.state import Frame
from core.rules import met, offmap, strategic_moves, transport
from tests.test_events_cards import make, put


def _returned(eng):
    met.activate_track(eng, "Greece", "test")
    put(eng, "UK-22Bde", met.track_box("Greece"))
    eng.state.phase, eng.state.first_player = 6, ALLIED
    eng.push("offmap_moves", step="VI.3")
    eng._settle()
    eng.apply(Action(kind="offmap_move", side=ALLIED, args={"unit": "UK-22Bde", "to": offmap.NRV}))
    assert eng.state.units["UK-22Bde"].loc == offmap.NRV


def test_22_2_1_unit_returned_to_the_nrv_may_not_enter_the_map_that_phase():
    eng = make("desert-war", gt=12)
    _returned(eng)
    assert strategic_moves.returned_this_phase(eng, "UK-22Bde")
    eng.apply(Action(kind="done", side=ALLIED))
    eng.push("movement", step="VI.3")
    eng._settle()
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-22Bde"], "enter": offmap.NRV,
                                                           "path": ["W2234"]}))
    assert exc.value.rule == "22.2.1"
    with pytest.raises(IllegalAction) as exc:
        transport.rail_move(eng, Frame(proc="movement", data={}), ALLIED, {"units": ["UK-22Bde"], "to": "W2232"})
    assert exc.value.rule == "22.2.1"
    eng.state.phase = 12                                                   # the next Allied Movement Phase
    assert not strategic_moves.returned_this_phase(eng, "UK-22Bde")
