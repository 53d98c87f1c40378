"""13.1 path query for the GUI: ``route`` (cheapest legal path the move action accepts) and
``reachable(..., with_paths=True)``; the default ``reachable`` result is unchanged."""

from __future__ import annotations


from core.decisions import ALLIED, AXIS, Action
from core.engine import PROCEDURES
from core.rules import tec
from tests.ground_helpers import engine_at_movement, unit


def test_13_1_route_is_cheapest_and_accepted_by_move(gm):
    gm.set_hex("C1011", "rough")
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "C1010")])
    r = eng.query("route", units=["GE-3Aufkl"], to="C1012")
    assert r is not None and r["path"][-1] == "C1012"
    assert r["mp"] == 3 and "C1011" not in r["path"]              # around the rough hex (4 + 1 through it)
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-3Aufkl"], "path": r["path"]}))
    assert eng.state.units["GE-3Aufkl"].loc == "C1012"
    assert eng.state.stack[-1].data["moved"]["GE-3Aufkl"] == 3 * tec.EIGHTH


def test_13_1_route_none_when_unreachable_or_prohibited(gm):
    gm.set_hex("C1030", "marsh")
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "C1010")])
    assert eng.query("route", units=["GE-3Aufkl"], to="C1030") is None       # 13.3 prohibited
    assert eng.query("route", units=["GE-3Aufkl"], to="C1060") is None       # beyond the MA
    assert eng.query("route", units=["GE-3Aufkl"], to="nowhere") is None


def test_13_1_reachable_with_paths_keeps_default(gm):
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "C1010")])
    plain = eng.query("reachable", units=["GE-3Aufkl"])
    rich = eng.query("reachable", units=["GE-3Aufkl"], with_paths=True)
    assert set(plain) == set(rich)
    assert all(isinstance(v, float) for v in plain.values())
    for lab in ("C1011", "C1013", "C1210"):
        assert rich[lab]["mp"] == plain[lab] and rich[lab]["path"][-1] == lab
    r = eng.query("route", units=["GE-3Aufkl"], to="C1013")
    assert r["mp"] == plain["C1013"]


class _Clear:
    def enter(self, eng, frame):
        pass

    def decide(self, eng, frame):
        for u in list(eng.state.units.values()):
            if u.loc == frame.data["hex"] and u.side != eng.state.units[frame.data["attackers"][0]].side:
                u.loc = "box:Destroyed:Allied"
        frame.data["outcome"] = {"cleared": True}
        return None


def test_13_4_route_to_enemy_hex_is_an_overrun(gm, monkeypatch):
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "C1010"), unit("UK-KDG", ALLIED, "C1014")])
    r = eng.query("route", units=["GE-3Aufkl"], to="C1014")
    assert r["overrun"] and r["path"][-1] == "C1014"
    assert r["mp"] == 4 + 1 + 2                 # 3 hexes, +1 into the EZOC (11.4), C1014 1 + 2 overrun (13.4)
    monkeypatch.setitem(PROCEDURES, "resolve_combat", _Clear())
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-3Aufkl"], "path": r["path"]}))
    assert eng.state.units["GE-3Aufkl"].loc == "C1014"
