"""12.5 a) against 13.2.2 (ruling G-OGS-MA): an OGS motorised unit moves its RMA (13.2.2), not half its MA
(12.5 a); an OGS non-motorised unit half its printed MA; an isolated unit (OGS and disrupted) halves that again.

Play path: Sonnenblume (26.0) GT 10 -- KDG (mechanised, MA 28) has no LOS at XV.1 (4.1 XV, 12.5) and is OGS in
the Allied Movement Phase: 7 MP (28 / 4), where 12.5 a) would give 14."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS
from core.hexgrid import Hex
from core.rules import tec
from core.rules.status import movement_allowance
from tests.ground_helpers import engine_at_movement, unit
from tests.playpath import Play


def test_12_5_a_13_2_2_ogs_motorised_unit_moves_its_rma_play_path():
    p = Play("sonnenblume", seed=1)
    p.to(step="XV.3", gt=10)
    eng = p.eng
    kdg = eng.state.units["UK-KDG"]
    assert kdg.ogs and not kdg.isolated and movement_allowance(kdg) == 7
    reach = eng.query("reachable", units=["UK-KDG"], with_paths=True)
    assert max(v["mp"] for v in reach.values()) <= 7
    far = max(reach.items(), key=lambda kv: (kv[1]["mp"], kv[0]))
    path = far[1]["path"]
    gm = tec.map_for(eng.state)
    nxt = next(n.label for n in Hex.parse(path[-1]).neighbours()          # one open hex past the farthest reach
               if n.label not in reach and n.on_grid and n.label != kdg.loc
               and tec.step_cost(gm, "mechanised", Hex.parse(path[-1]), n)[0] is not None)
    exc = p.refuse("move", ALLIED, units=["UK-KDG"], path=path + [nxt])
    assert exc.rule == "13.2" and "has 7" in str(exc)
    p.act("move", ALLIED, units=["UK-KDG"], path=path)
    assert eng.state.units["UK-KDG"].loc == far[0]


@pytest.mark.parametrize("uid,kw,ma", [
    ("GE-5Pz", {}, 22), ("GE-5Pz", {"ogs": True}, 6), ("GE-5Pz", {"ogs": True, "isolated": True, "disrupted": True}, 3),
    ("IT-27Brescia", {}, 14), ("IT-27Brescia", {"ogs": True}, 7),
    ("IT-27Brescia", {"ogs": True, "isolated": True, "disrupted": True}, 4),
    ("GE-5Pz", {"ogs": True, "emergency": True}, 22),
])
def test_12_5_13_2_2_allowances(uid, kw, ma):
    """Motorised MA 22: OGS = RMA 6 (not 11); isolated = 6 halved = 3.  Foot MA 14: OGS 7; isolated 4 (7 halved,
    rounded up).  Emergency supply (12.7) is GenS: the full MA."""
    eng = engine_at_movement([unit(uid, AXIS, "C1010", steps=2, **kw)])
    assert movement_allowance(eng.state.units[uid]) == ma
