"""13.x movement rules: 13.1 path, 13.2.2 status allowances, 13.2.3 road march, 13.2.4 forced march, 13.3 terrain
and fractions, 13.4 overrun eligibility (WE-24), 13.5 reaction, 13.6 reserve, 13.7 truck lift, 10.3 stacking,
17.2 refit, 18.1 forts; property tests: MP never exceed the allowance; no unit ends a phase in an illegal hex."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as hs

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.engine import PROCEDURES
from core.rules import movement, stacking, tec
from core.rules.status import hex_of
from tests.ground_helpers import engine_at_movement, unit


def mv(eng, units, path, **kw):
    return eng.apply(Action(kind="move", side=AXIS, args={"units": units, "path": path, **kw}))


def test_13_1_path_must_be_contiguous_and_on_grid(gm):
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C1010", steps=2)])
    with pytest.raises(IllegalAction) as exc:
        mv(eng, ["GE-5Pz"], ["C1012"])
    assert exc.value.rule == "13.1"
    gm.set_hex("C1011", "sea")
    with pytest.raises(IllegalAction) as exc:
        mv(eng, ["GE-5Pz"], ["C1011"])
    assert exc.value.rule == "13.8"


def test_13_1_unit_moves_once_per_phase(gm):
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C1010", steps=2)])
    mv(eng, ["GE-5Pz"], ["C1011"])
    with pytest.raises(IllegalAction, match="already moved"):
        mv(eng, ["GE-5Pz"], ["C1012"])


def test_13_3_prohibited_terrain_and_tracks_halve(gm):
    gm.set_hex("C1011", "marsh").set_hex("C1111", "rough")
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C1010", steps=2), unit("GE-3Aufkl", AXIS, "C1110")])
    with pytest.raises(IllegalAction) as exc:
        mv(eng, ["GE-5Pz"], ["C1011"])
    assert exc.value.rule == "13.3"
    gm.add_line(["C1110", "C1111"], "track")
    mv(eng, ["GE-3Aufkl"], ["C1111"])
    assert eng.state.stack[-1].data["moved"]["GE-3Aufkl"] == 2 * tec.EIGHTH   # rough 4 halved


def test_13_3_motorised_lose_fraction_leaving_road(gm):
    gm.add_line(["C1010", "C1011"], "primary")
    eng = engine_at_movement([unit("IT-8Ber", AXIS, "C1010")])                  # trucked: 1/4 MP per road hex
    mv(eng, ["IT-8Ber"], ["C1011", "C1012"])
    assert eng.state.stack[-1].data["moved"]["IT-8Ber"] == 2 * tec.EIGHTH     # 1/4 rounds up to 1, + clear 1


def test_13_2_3_road_march_needs_roads_and_no_disruption(gm):
    gm.add_line(["C1010", "C1011", "C1012"], "primary")
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C1010", steps=2, disrupted=True),
                              unit("AX-Base#1", AXIS, "C1001", active=True)])
    with pytest.raises(IllegalAction) as exc:
        mv(eng, ["GE-5Pz"], ["C1011"], road_march=True)
    assert exc.value.rule == "13.2.3"
    eng.state.units["GE-5Pz"].disrupted = False
    with pytest.raises(IllegalAction) as exc:
        mv(eng, ["GE-5Pz"], ["C1011", "C1112"], road_march=True)
    assert exc.value.rule == "13.2.3"


def test_6_2_surprised_second_player_cannot_road_march(gm):
    gm.add_line(["C1010", "C1011"], "primary")
    eng = engine_at_movement([unit("UK-3LtArm", ALLIED, "C1010", steps=2)], phase=9, surprise=True, first=AXIS)
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-3LtArm"], "path": ["C1011"], "road_march": True}))
    assert exc.value.rule == "6.2"


def test_13_2_4_forced_march_adds_d6_plus_3_and_disrupts(gm):
    eng = engine_at_movement([unit("IT-8Ber", AXIS, "C1001")])                  # MA 14
    eng.dice = ScriptedDice([2])
    mv(eng, ["IT-8Ber"], [f"C10{c:02d}" for c in range(2, 21)], forced_march=True)   # 19 MP <= 14 + 5
    assert eng.state.units["IT-8Ber"].loc == "C1020" and eng.state.units["IT-8Ber"].disrupted


def test_13_4_2_overrun_blocked_by_friendly_zoc_we_24(gm, monkeypatch):
    monkeypatch.setitem(PROCEDURES, "resolve_combat", PROCEDURES.get("resolve_combat") or object())
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C0801", steps=2),
                              unit("UK-2SG", ALLIED, "C0803", steps=2), unit("UK-3LtArm", ALLIED, "C0804", steps=1)])
    with pytest.raises(IllegalAction) as exc:
        mv(eng, ["GE-5Pz"], ["C0802", "C0803"])
    assert exc.value.rule == "13.4.2"


def test_13_4_1_ogs_and_foot_cannot_overrun_combat_units(gm):
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C0801", steps=2, ogs=True), unit("UK-2SG", ALLIED, "C0803", steps=2)])
    with pytest.raises(IllegalAction) as exc:
        mv(eng, ["GE-5Pz"], ["C0802", "C0803"])
    assert exc.value.rule == "13.4.1"




def test_13_6_reserve(gm):
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C1001", steps=2), unit("GE-3Aufkl", AXIS, "C1101")])
    with pytest.raises(IllegalAction) as exc:
        mv(eng, ["GE-5Pz"], [f"C10{c:02d}" for c in range(2, 14)], reserve=True)
    assert exc.value.rule == "13.6"
    mv(eng, ["GE-5Pz"], [f"C10{c:02d}" for c in range(2, 13)], reserve=True)      # 11 MP = half
    assert eng.state.units["GE-5Pz"].reserve
    eng.apply(Action(kind="reserve", side=AXIS, args={"units": ["GE-3Aufkl"]}))
    assert eng.state.units["GE-3Aufkl"].reserve


def test_13_5_reaction_eligibility_and_morale(gm):
    # Reaction Phase VII (2nd player Allied reacts); KDG within two hexes of an Axis unit
    eng = engine_at_movement([unit("UK-KDG", ALLIED, "C1010"), unit("UK-2SG", ALLIED, "C1020", steps=2),
                              unit("GE-5Pz", AXIS, "C1012", steps=2)], phase=7, step=1)
    assert eng.pending().kind == "reaction"
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-2SG"], "path": ["C1019"]}))
    assert exc.value.rule == "13.5"
    eng.dice = ScriptedDice([1])
    eng.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-KDG"], "path": ["C1009", "C1008"]}))
    assert eng.state.units["UK-KDG"].loc == "C1008" and not eng.state.units["UK-KDG"].disrupted
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-KDG"], "path": ["C1007"]}))


def test_13_7_dumps_need_an_msu(gm):
    eng = engine_at_movement([unit("AX-Dump#1", AXIS, "C1010"), unit("AX-MSU#1", AXIS, "C1010")])
    with pytest.raises(IllegalAction) as exc:
        mv(eng, ["AX-Dump#1"], ["C1011"])
    assert exc.value.rule == "13.7"
    mv(eng, ["AX-Dump#1", "AX-MSU#1"], ["C1011"])
    assert eng.state.units["AX-Dump#1"].loc == "C1011"


def test_10_3_overstacking_disrupts_at_phase_end(gm):
    ids = ["IT-132Ariete", "IT-133Littorio", "GE-5Pz"]                          # 3 + 3 + 2 > 6
    eng = engine_at_movement([unit(i, AXIS, "C1010", steps=2) for i in ids])
    assert stacking.overstacked(eng.state) == {"C1010": (8, 6)}
    stacking.overstacking(eng, 6)
    assert all(eng.state.units[i].disrupted for i in ids)
    gm.set_hex("C1010", "city")
    assert stacking.overstacked(eng.state) == {}


def test_17_2_refit_on_hex_grid_we_23(gm):
    eng = engine_at_movement([unit("UK-2SG", ALLIED, "C0803", steps=1), unit("UK-RP#1", ALLIED, "C0803")],
                             phase=9, step=2, first=AXIS)
    assert eng.pending().kind == "refit"
    eng.apply(Action(kind="refit_hex", side=ALLIED, args={"unit": "UK-2SG", "rp": "UK-RP#1"}))
    assert eng.state.units["UK-2SG"].steps == 2 and "UK-RP#1" not in eng.state.units


def test_17_2_1_rp_nationality(gm):
    eng = engine_at_movement([unit("IT-Nizza", AXIS, "C0803"), unit("GE-RP#1", AXIS, "C0803")], phase=6, step=2)
    eng.state.units["IT-132Ariete"] = unit("IT-132Ariete", AXIS, "C0803", steps=1)
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="refit_hex", side=AXIS, args={"unit": "IT-132Ariete", "rp": "GE-RP#1"}))
    assert exc.value.rule == "17.2.1"


def test_18_1_fort_f0_completes_next_phase(gm):
    eng = engine_at_movement([unit("GE-5Pz", AXIS, "C1010", steps=2)])
    eng.apply(Action(kind="build_fort", side=AXIS, args={"unit": "GE-5Pz", "level": 0}))
    with pytest.raises(IllegalAction, match="already moved|moved"):
        mv(eng, ["GE-5Pz"], ["C1011"])
    gm.set_hex("C1111", "mountain")
    eng.state.units["GE-3Aufkl"] = unit("GE-3Aufkl", AXIS, "C1111")
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="build_fort", side=AXIS, args={"unit": "GE-3Aufkl", "level": 0}))
    assert exc.value.rule == "18.1"


def test_query_reachable_matches_trace(gm):
    gm.set_hex("C1011", "rough")
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "C1010")])
    r = eng.query("reachable", units=["GE-3Aufkl"])
    assert r["C1011"] == 4 and r["C1012"] == 3 and max(r.values()) <= 28


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=hs.integers(0, 10_000))
def test_property_random_moves_never_exceed_ma_or_end_illegally(gm, seed):
    """Random legal and illegal moves: MP spent <= allowance; units end only on grid hexes free of enemy units,
    never in prohibited terrain."""
    rnd = random.Random(seed)
    for lab in ("C1012", "C1112", "C0912"):
        gm.set_hex(lab, rnd.choice(["marsh", "rough", "desert", "clear"]))
    ids = ["GE-5Pz", "GE-3Aufkl", "IT-8Ber", "IT-Nizza"]
    eng = engine_at_movement([unit(i, AXIS, "C1010", steps=1) for i in ids] +
                             [unit("UK-2SG", ALLIED, "C1015", steps=2)])
    for uid in ids:
        u = eng.state.units[uid]
        path, cur = [], hex_of(u)
        for _ in range(rnd.randint(1, 12)):
            cur = rnd.choice(cur.neighbours())
            path.append(cur.label)
        try:
            mv(eng, [uid], path)
        except IllegalAction as exc:
            assert exc.rule
    st = eng.state
    mframe = next(f for f in st.stack if f.proc == "movement")    # an overrun may have pushed a combat on top
    for uid in ids:
        u = st.units[uid]
        spent = mframe.data["moved"].get(uid, 0)
        assert spent <= movement.allowance(st, u, movement.MoveOptions())
        h = hex_of(u)
        assert h is not None and gm.on_grid(h) and "marsh" not in gm.hex_terrain(h)
        assert not any(e.side == ALLIED for e in st.units_at(u.loc))
