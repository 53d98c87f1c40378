"""Example of Play, 1st Player Initial and Follow-on Impulse movement, move by move (13.0, 11.4, 12.x, 15.6).

The map is synthetic but reproduces the geography the EoP states (WE-17..WE-30): the
Via Balbia Tripoli L2817 - Beurat L1633 (22 hexes) - El Agheila C0701 (23 primary road
hexes, WE-18) - Agedabia C0907; desert round El Agheila; the 3 Aufkl route of WE-30.
See docs/rulings.d/ground.md (G-EOP-*) for the readings taken.
"""

from __future__ import annotations

import pytest

from core.decisions import AXIS, ALLIED, Action, IllegalAction
from core.engine import PROCEDURES, Procedure
from core.hexgrid import Hex
from core.rules import movement, supply, tec
from core.rules.status import rma
from tests.ground_helpers import detour_path, engine_at_movement, unit

TRIPOLI_BEURAT = detour_path("L2817", "L1633", 22)
BEURAT_AGHEILA = detour_path("L1633", "C0701", 23)
AGHEILA_AGEDABIA = ["C0702"] + detour_path("C0702", "C0907", 10)     # 56 road hexes from Tripoli in all
S1130_AGHEILA = detour_path("S1130", "C0701", 7)
TOBRUK_S1030 = detour_path("C2331", "S1030", 56)


def eop_map() -> tec.GroundMap:
    gm = tec.GroundMap(default="desert")
    gm.add_line(["L2817"] + TRIPOLI_BEURAT + BEURAT_AGHEILA + AGHEILA_AGEDABIA, "primary")
    gm.add_line(["S1130"] + S1130_AGHEILA, "primary")
    gm.add_line(["C2331"] + TOBRUK_S1030, "primary")
    gm.set_hex("C0601", "clear").set_hex("C0802", "clear")
    # WE-30: the 3 Aufkl route
    gm.set_side("C0603", "C0504", "wadi")
    gm.set_hex("C0506", "rough").set_hex("C0606", "rough")
    gm.add_line(["C0505", "C0506", "C0606", "C0706", "C0605"], "track")
    gm.set_side("C0606", "C0706", "wadi")
    gm.ports = {Hex.parse("L2817"): 4, Hex.parse("C2331"): 3}
    return gm


@pytest.fixture
def eop():
    tec.use_map(eop_map())
    yield
    tec.use_map(None)


class FakeOverrun(Procedure):
    """Stands in for the combat engineer's resolve_combat: the defender leaves (retreat or elimination)."""

    def __init__(self, to: str):
        self.to = to

    def decide(self, eng, frame):
        st = eng.state
        for u in list(st.units.values()):
            if u.loc == frame.data["hex"] and u.side != st.units[frame.data["attackers"][0]].side:
                u.loc = self.to
        frame.data["outcome"] = {"cleared": True}
        return None


def initial_impulse(surprise=True):
    units = [
        unit("GE-Kasta", AXIS, "L1633"), unit("GE-3Aufkl", AXIS, "L1633"), unit("GE-5Pz", AXIS, "L1633", steps=2),
        unit("AX-Base#1", AXIS, "L2817", active=True),
        unit("UK-KDG", ALLIED, "C0701"), unit("UK-2SG", ALLIED, "C0803", steps=1),
        unit("UK-3LtArm", ALLIED, "C2308", steps=1), unit("AL-Base#1", ALLIED, "C2331", active=True),
        unit("IT-132Ariete", AXIS, "S1130", steps=2), unit("IT-Nizza", AXIS, "C0701"),
    ]
    # the Italians are placed where the follow-on impulse starts only when needed
    units = [u for u in units if u.id not in ("IT-132Ariete", "IT-Nizza")]
    return engine_at_movement(units, surprise=surprise)


def test_eop_17_tripoli_los_reaches_agedabia_and_tobruk_s1030(eop):
    """WE-17: 14 MMP = 56 primary road hexes at 1/4 MP (12.4.1 a)."""
    eng = engine_at_movement([unit("AX-Base#1", AXIS, "L2817", active=True),
                              unit("AL-Base#1", ALLIED, "C2331", active=True)])
    ax = supply.supply_lines(eng.state, AXIS)
    assert Hex.parse("C0907") in ax.los and ax.los[Hex.parse("C0907")][0] == 0
    beyond = [n for n in Hex.parse("C0907").neighbours() if n not in ax.los]
    assert beyond                           # the road stops at the LOS limit
    al = supply.supply_lines(eng.state, ALLIED)
    assert Hex.parse("S1030") in al.los and al.los[Hex.parse("S1030")][0] == 0
    overlay = eng.query("supply_overlay", side=AXIS)
    assert overlay["C0907"] == {"los": True, "loc": True, "source": "base AX-Base#1 at L2817"}


def test_eop_18_kasta_3aufkl_23mp_overrun_hq_waives_ezoc_and_overrun(eop, monkeypatch):
    """WE-18/20: 23 MP Beurat -> El Agheila with the overrun, then 1 MP into C0702 (24 in all)."""
    eng = initial_impulse()
    monkeypatch.setitem(PROCEDURES, "resolve_combat", FakeOverrun("C0603"))
    assert eng.pending().kind == "movement"
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-Kasta", "GE-3Aufkl"],
                                                    "path": BEURAT_AGHEILA + ["C0702"]}))
    st = eng.state
    assert st.units["GE-Kasta"].loc == "C0702" and st.units["UK-KDG"].loc == "C0603"
    moved = st.stack[-1].data["moved"]
    assert moved["GE-Kasta"] == 24 * tec.EIGHTH and moved["GE-3Aufkl"] == 24 * tec.EIGHTH


def test_eop_18_without_hq_costs_ezoc_and_overrun(eop, monkeypatch):
    """11.4 a) +1 entering the EZOC, 13.4 +2 for the overrun: 3 Aufkl alone needs 26 MP."""
    eng = initial_impulse()
    monkeypatch.setitem(PROCEDURES, "resolve_combat", FakeOverrun("C0603"))
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-3Aufkl"], "path": BEURAT_AGHEILA}))
    assert eng.state.stack[-1].data["moved"]["GE-3Aufkl"] == (23 + 1 + 2) * tec.EIGHTH


def test_eop_overrun_refused_without_combat_engine_13_4(eop, monkeypatch):
    eng = initial_impulse()
    monkeypatch.delitem(PROCEDURES, "resolve_combat", raising=False)
    before = eng.hash()
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-Kasta", "GE-3Aufkl"], "path": BEURAT_AGHEILA}))
    assert exc.value.rule == "13.4" and eng.hash() == before


def test_eop_21_5pz_road_march_ma_29(eop, monkeypatch):
    """WE-21: 24 MP along the road needs road march (22 + 7 = 29)."""
    eng = initial_impulse(surprise=False)
    monkeypatch.setitem(PROCEDURES, "resolve_combat", FakeOverrun("C0603"))
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-Kasta", "GE-3Aufkl"],
                                                    "path": BEURAT_AGHEILA + ["C0702"]}))
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-5Pz"], "path": BEURAT_AGHEILA + ["C0702"]}))
    assert exc.value.rule == "13.2"
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-5Pz"], "path": BEURAT_AGHEILA + ["C0702"],
                                                    "road_march": True}))
    assert eng.state.units["GE-5Pz"].loc == "C0702"
    assert eng.state.stack[-1].data["moved"]["GE-5Pz"] == 24 * tec.EIGHTH
    assert movement.allowance(eng.state, eng.state.units["GE-5Pz"], movement.MoveOptions(road_march=True)) == 29 * tec.EIGHTH


def follow_on():
    units = [
        unit("GE-Kasta", AXIS, "C0702"), unit("GE-3Aufkl", AXIS, "C0702"), unit("GE-5Pz", AXIS, "C0702", steps=2),
        unit("IT-132Ariete", AXIS, "S1130", steps=2), unit("IT-Nizza", AXIS, "C0701"),
        unit("AX-MSU#1", AXIS, "C0701"), unit("AX-Dump#1", AXIS, "C0701"),
        unit("AX-MSU#2", AXIS, "C0701"), unit("AX-Dump#2", AXIS, "C0701"),
        unit("AX-Base#1", AXIS, "L2817", active=True),
        unit("UK-KDG", ALLIED, "C0603"), unit("UK-2SG", ALLIED, "C0803", steps=2),
        unit("UK-3LtArm", ALLIED, "C0804", steps=1), unit("AL-Base#1", ALLIED, "C2331", active=True),
    ]
    return engine_at_movement(units, phase=12, surprise=True)


def test_eop_25_base_created_at_c0701(eop):
    """WE-25 / 12.2.3: one MSU and one dump become a base, OGS side up."""
    eng = follow_on()
    eng.apply(Action(kind="create_base", side=AXIS, args={"hex": "C0701"}))
    bases = [u for u in eng.state.units.values() if u.loc == "C0701" and u.id.startswith("AX-Base")]
    assert len(bases) == 1 and not bases[0].active
    assert "AX-MSU#1" not in eng.state.units and "AX-Dump#1" not in eng.state.units
    assert "AX-MSU#2" in eng.state.units


def test_eop_26_kasta_stack_to_c0802_costs_1mp(eop):
    """WE-26: the HQ waives the EZOC cost (15.6): C0702 -> C0802 for 1 MP."""
    eng = follow_on()
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-Kasta", "GE-5Pz"], "path": ["C0802"]}))
    assert eng.state.stack[-1].data["moved"]["GE-5Pz"] == 1 * tec.EIGHTH


def test_eop_27_ariete_15mp_picks_up_nizza_8mp_overrun_kdg(eop, monkeypatch):
    """WE-27/29: Ariete 15 MP and Nizza 8 MP to the overrun of C0603, then +5 to C0705."""
    eng = follow_on()
    monkeypatch.setitem(PROCEDURES, "resolve_combat", FakeOverrun("box:Refit:Allied"))
    eng.apply(Action(kind="move", side=AXIS, args={
        "units": ["IT-132Ariete"], "path": S1130_AGHEILA + ["C0601", "C0602", "C0603", "C0604", "C0705"],
        "pickup": {"C0701": ["IT-Nizza"]}}))
    # 13.4.3 with 6.2: "The KDG is unable to react due to surprise (6.2) and having a maximum RMA of 6 (1d6) to
    # the Nizza RMA of 6" -- no reaction is offered and no die is rolled for it
    assert eng.pending().kind == "movement"
    assert not any("RMA under surprise" in e for e in eng.log[-1].events)
    st = eng.state
    moved = st.stack[-1].data["moved"]
    assert st.units["IT-132Ariete"].loc == "C0705" and st.units["IT-Nizza"].loc == "C0705"
    assert moved["IT-132Ariete"] == 20 * tec.EIGHTH     # 15 to the overrun + 5 (WE-29)
    assert moved["IT-Nizza"] == 13 * tec.EIGHTH         # 8 + 5


def test_eop_30_3aufkl_route_18mp(eop):
    """WE-30: the 3 Aufkl route costs 17 MP of terrain (C0505 desert 2) + 1 EZOC = 18."""
    eng = follow_on()
    route = ["C0602", "C0603", "C0504", "C0505", "C0506", "C0606", "C0706", "C0605"]
    st = eng.state
    st.units["UK-KDG"].loc = "box:Refit:Allied"
    # an Allied unit next to C0605 whose ZOC reaches no other route hex (escarpments block it, 11.3;
    # the EoP charges the EZOC at C0605, G-EOP-AUFKL)
    gm = tec.current_map()
    spot = next(n for n in Hex.parse("C0605").neighbours() if n.label not in route + ["C0702", "C0705", "C0804"])
    for o in route[:-1]:
        if Hex.parse(o).distance(spot) == 1:
            gm.set_side(o, spot.label, "escarpment")
    st.units["UK-3LtArm"].loc = spot.label
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-3Aufkl"], "path": route}))
    assert eng.state.stack[-1].data["moved"]["GE-3Aufkl"] == 18 * tec.EIGHTH


def test_eop_35_5pz_rma_8_with_kasta(eop):
    """WE-35: RMA = ceil(22/4) = 6, +2 with the HQ (15.6) = 8."""
    eng = follow_on()
    pz = eng.state.units["GE-5Pz"]
    assert rma(pz) == 6
    assert movement.reaction_allowance(eng, pz, hq=True) == 8
