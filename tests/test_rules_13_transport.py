"""13.4.3 reacting away from an overrun; 13.7 rail lift (Egyptian railroad, active length; Algeria-Tunisia
line control), coastal shipping (20.3 for a moving unit), air landings with ATP, truck lift 13.7 c);
13.8 entering from / exiting to off-map boxes (NRV 22.1) and 7.4 withdrawals by exiting the map."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.engine import PROCEDURES
from core.hexgrid import Hex
from core.rules import tec, transport
from core.rules.movement import E
from core.rules.status import printed_ma
from tests.ground_helpers import engine_at_movement, unit


@pytest.fixture
def gm():
    m = tec.GroundMap(default="clear", ports={Hex.parse("C2331"): 4, Hex.parse("C2308"): 4, Hex.parse("C1001"): 2})
    tec.use_map(m)
    yield m
    tec.use_map(None)


def allied_movement(units, **kw):
    return engine_at_movement(units, phase=9, step=3, **kw)        # 2nd player (Allied) Movement Phase


def act(eng, kind, side=ALLIED, **args):
    return eng.apply(Action(kind=kind, side=side, args=args))


class _Combat:
    called = 0

    def enter(self, eng, frame):
        _Combat.called += 1

    def decide(self, eng, frame):
        frame.data["outcome"] = {"cleared": False}
        return None


def test_13_4_3_defender_reacts_away_before_the_overrun(gm, monkeypatch):
    monkeypatch.setitem(PROCEDURES, "resolve_combat", _Combat())
    _Combat.called = 0
    eng = engine_at_movement([unit("IT-8Ber", AXIS, "C1010"), unit("UK-KDG", ALLIED, "C1013")])
    # 8 Ber (trucked MA 14, RMA 4) overruns KDG (mechanised, RMA 7): KDG may react away
    act(eng, "move", AXIS, units=["IT-8Ber"], path=["C1011", "C1012", "C1013", "C1014"])
    d = eng.pending()
    assert d.kind == "overrun_reaction" and d.side == ALLIED and d.rule == "13.4.3"
    assert any(o.action.kind == "done" for o in d.options)
    eng.dice = ScriptedDice([1])
    act(eng, "move", units=["UK-KDG"], path=["C1114"])
    st = eng.state
    assert st.units["UK-KDG"].loc == "C1114" and _Combat.called == 0
    assert st.units["IT-8Ber"].loc == "C1013"                 # entered without overrun; C1014 is in the EZOC: stops
    moved = next(f for f in st.stack if f.proc == "movement").data["moved"]
    # C1011 1, C1012 1 + 1 EZOC (11.4) + 2 recon superiority of KDG (15.3), C1013 1; no +2 overrun MP (13.4.3)
    assert moved["IT-8Ber"] == 6 * tec.EIGHTH


def test_13_4_3_standing_fast_leads_to_the_overrun(gm, monkeypatch):
    monkeypatch.setitem(PROCEDURES, "resolve_combat", _Combat())
    _Combat.called = 0
    eng = engine_at_movement([unit("IT-8Ber", AXIS, "C1010"), unit("UK-KDG", ALLIED, "C1013")])
    act(eng, "move", AXIS, units=["IT-8Ber"], path=["C1011", "C1012", "C1013"])
    act(eng, "done")
    assert _Combat.called == 1


def test_13_4_3_no_reaction_when_not_faster(gm, monkeypatch):
    monkeypatch.setitem(PROCEDURES, "resolve_combat", _Combat())
    _Combat.called = 0
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "C1010"), unit("UK-KDG", ALLIED, "C1013")])
    act(eng, "move", AXIS, units=["GE-3Aufkl"], path=["C1011", "C1012", "C1013"])
    assert _Combat.called == 1 and eng.pending().kind != "overrun_reaction"


def test_13_7_rail_egyptian_active_length_and_3_mp(gm):
    eng = allied_movement([unit("UK-KDG", ALLIED, "box:NRV"), unit("UK-2SG", ALLIED, "W2020", steps=2)],
                          vars={"railhead": "W2116"})
    assert transport.egyptian_rail_active(eng.state)[-1] == "W2116"
    act(eng, "rail", units=["UK-KDG"], to="W2116")
    mframe = eng.state.stack[-1]
    assert eng.state.units["UK-KDG"].loc == "W2116" and mframe.data["moved"]["UK-KDG"] == 3 * tec.EIGHTH
    with pytest.raises(IllegalAction) as exc:                         # one load per phase on the line
        act(eng, "rail", units=["UK-2SG"], to="W2118")
    assert exc.value.rule == "13.7"
    act(eng, "move", units=["UK-KDG"], path=["W2115"])                # combined with regular movement
    assert eng.state.stack[-1].data["moved"]["UK-KDG"] == 4 * tec.EIGHTH


def test_13_7_rail_refusals(gm):
    eng = allied_movement([unit("UK-KDG", ALLIED, "W2020"), unit("UK-2SG", ALLIED, "W2020", steps=2),
                           unit("GE-3Aufkl", AXIS, "W2110")], vars={"railhead": "W2110"})
    with pytest.raises(IllegalAction, match="one combat unit") as exc:
        act(eng, "rail", units=["UK-KDG", "UK-2SG"], to="W2118")
    assert exc.value.rule == "13.7"
    with pytest.raises(IllegalAction) as exc:                        # beyond the last Allied-controlled hex
        act(eng, "rail", units=["UK-KDG"], to="W2111")
    assert exc.value.rule == "13.7"


def test_13_7_fna_rail_needs_a_controlled_city(gm):
    line = transport.fna_line()
    assert "A6201" in line and "T6017" in line
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "A5806")])
    assert transport.fna_rail_controlled(eng.state, AXIS) == []            # no city of the line controlled
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "A5806"), unit("GE-Kasta", AXIS, "A6201")])
    ctl = transport.fna_rail_controlled(eng.state, AXIS)
    assert "A6201" in ctl and "A5806" in ctl and line[line.index("A6201") + 1] in ctl   # 13.7 c) between towns
    act(eng, "rail", AXIS, units=["GE-3Aufkl"], to="A6201")
    assert eng.state.units["GE-3Aufkl"].loc == "A6201"


def test_20_3_coastal_shipping_uses_entire_ma(gm):
    eng = allied_movement([unit("UK-2SG", ALLIED, "C2331", steps=2), unit("UK-KDG", ALLIED, "C2308")])
    act(eng, "coastal_ship", units=["UK-2SG"], to="C2308")
    st = eng.state
    assert st.units["UK-2SG"].loc == "box:PortBoxes:C2308"          # lands in the next friendly Movement Phase (20.1)
    assert eng.pending().context["moved"]["UK-2SG"] >= printed_ma(st.units["UK-2SG"]) * E   # its entire MA
    with pytest.raises(IllegalAction, match="not on the hex grid"):    # waiting in the port boxes, not in C2308
        act(eng, "move", units=["UK-2SG"], path=["C2309"])
    with pytest.raises(IllegalAction) as exc:
        act(eng, "coastal_ship", units=["UK-KDG"], to="C1001")                # not a friendly port
    assert exc.value.rule == "20.3"


def test_13_7_e_air_landing_with_atp(gm):
    eng = engine_at_movement([unit("GE-3Aufkl", AXIS, "box:Sicily"), unit("GE-125", AXIS, "box:Sicily", steps=2),
                              unit("GE-382", AXIS, "box:Sicily", steps=2), unit("GE-Kasta", AXIS, "C0907")],
                             vars={"atp": {"Axis": 1}})
    with pytest.raises(IllegalAction) as exc:
        act(eng, "air_land", AXIS, units=["GE-3Aufkl"], to="C0907")             # mechanised
    assert exc.value.rule == "13.7 e)"
    with pytest.raises(IllegalAction) as exc:
        act(eng, "air_land", AXIS, units=["GE-125"], to="C1010")               # no airfield / city
    assert exc.value.rule == "13.7 e)"
    with pytest.raises(IllegalAction, match="needs 2 ATP") as exc:
        act(eng, "air_land", AXIS, units=["GE-125", "GE-382"], to="C0907")     # four steps: two ATP
    act(eng, "air_land", AXIS, units=["GE-125"], to="C0907")
    st = eng.state
    assert st.units["GE-125"].loc == "C0907" and st.vars["atp"]["Axis"] == 0
    with pytest.raises(IllegalAction, match="already moved"):                   # 13.7 c)
        act(eng, "move", AXIS, units=["GE-125"], path=["C0908"])


def test_13_7_c_truck_lift_drop_then_one_hex(gm):
    eng = engine_at_movement([unit("AX-MSU#1", AXIS, "C1010"), unit("GE-125", AXIS, "C1012")])
    from core.counters import counter

    if counter("GE-125").move_class != "foot":
        pytest.skip("needs a foot unit")
    act(eng, "move", AXIS, units=["AX-MSU#1"], path=["C1011", "C1012", "C1013", "C1014"], lift=True,
        pickup={"C1012": ["GE-125"]}, drop={"C1014": ["GE-125"]})
    assert eng.state.units["GE-125"].loc == "C1014"
    with pytest.raises(IllegalAction) as exc:
        act(eng, "move", AXIS, units=["GE-125"], path=["C1015", "C1016"])
    assert exc.value.rule == "13.7 c)"
    act(eng, "move", AXIS, units=["GE-125"], path=["C1015"])
    assert eng.state.units["GE-125"].loc == "C1015"


def test_13_8_enter_from_nrv_and_exit_to_nrv(gm):
    gm.add_line(["W2034", "W2033", "W2032"], "primary")
    eng = allied_movement([unit("UK-KDG", ALLIED, "box:NRV"), unit("UK-2SG", ALLIED, "W1433", steps=2)])
    act(eng, "move", units=["UK-KDG"], path=["W2034", "W2033"], enter="box:NRV")
    moved = eng.state.stack[-1].data["moved"]
    assert eng.state.units["UK-KDG"].loc == "W2033" and moved["UK-KDG"] == 14 * tec.EIGHTH + tec.EIGHTH  # 22.1 d)
    act(eng, "move", units=["UK-2SG"], path=["W1434"], exit="box:NRV")
    assert eng.state.units["UK-2SG"].loc == "box:NRV" and moved["UK-2SG"] == 2 * tec.EIGHTH   # 1 + 1 (22.1 e)
    eng2 = allied_movement([unit("UK-KDG", ALLIED, "box:NRV")])
    with pytest.raises(IllegalAction) as exc:
        act(eng2, "move", units=["UK-KDG"], path=["W2134"], enter="box:NRV")
    assert exc.value.rule == "22.1 a)"


def test_7_4_withdrawal_by_exiting_the_map(gm):
    eng = allied_movement([unit("UK-KDG", ALLIED, "W2233")],
                          vars={"withdrawals": [{"gt": 10, "units": ["UK-KDG"], "rule": "test"}]})
    with pytest.raises(IllegalAction) as exc:
        act(eng, "move", units=["UK-KDG"], path=["W2133"], exit="withdraw")
    assert exc.value.rule == "7.4; 13.8"
    act(eng, "move", units=["UK-KDG"], path=["W2234"], exit="withdraw")
    u = eng.state.units["UK-KDG"]
    assert u.loc == "removed" and u.flags["withdrawn"]


# ---------------------------------------------------------------- 13.8 / 22.1 c), d) NRV entries, 7.4 exits
@pytest.mark.parametrize("uid,entry,mp", [
    ("UK-2SG", "W1434", 14),               # 22.1 c): the desert track entry costs 14 MP whatever the class
    ("UK-3LtArm", "W1434", 14),
    ("UK-2SG", "W2034", 14 * 0.25),        # 22.1 d): 14 primary road hexes, trucked 1/4 MP each
    ("UK-2SG", "W2234", 14 * 0.25),
    ("AU-16AusBG", "W2234", 14 * 0.5),     # foot 1/2 MP a road hex
])
def test_22_1_nrv_entry_costs(gm, uid, entry, mp):
    eng = allied_movement([unit(uid, ALLIED, "box:NRV", steps=2)])
    act(eng, "move", units=[uid], path=[entry], enter="box:NRV")
    assert eng.state.units[uid].loc == entry
    assert eng.state.stack[-1].data["moved"][uid] == tec.to_eighths(mp)


def test_22_1_c_w1434_needs_14_mp(gm):
    eng = allied_movement([unit("AU-16AusBG", ALLIED, "box:NRV", steps=2)])     # foot, MA 14
    act(eng, "move", units=["AU-16AusBG"], path=["W1434"], enter="box:NRV")
    assert eng.state.stack[-1].data["moved"]["AU-16AusBG"] == 14 * tec.EIGHTH
    eng = allied_movement([unit("AU-16AusBG", ALLIED, "box:NRV", steps=2)])
    with pytest.raises(IllegalAction) as exc:                                      # no MP left for W1433
        act(eng, "move", units=["AU-16AusBG"], path=["W1434", "W1433"], enter="box:NRV")
    assert exc.value.rule == "13.2"
    eng = allied_movement([unit("AU-16AusBG", ALLIED, "box:NRV", steps=2, disrupted=True)])   # MA 7
    with pytest.raises(IllegalAction) as exc:
        act(eng, "move", units=["AU-16AusBG"], path=["W1434"], enter="box:NRV")
    assert exc.value.rule == "13.8"


def test_22_1_d_road_entry_then_moving_on(gm):
    gm.add_line(["W2234", "W2233", "W2232"], "primary")
    eng = allied_movement([unit("UK-2SG", ALLIED, "box:NRV", steps=2)])
    act(eng, "move", units=["UK-2SG"], path=["W2234", "W2233", "W2232"], enter="box:NRV")
    assert eng.state.stack[-1].data["moved"]["UK-2SG"] == tec.to_eighths(16 * 0.25)


def test_13_8_withdrawal_exit_at_a_map_edge_costs_mp(gm):
    wd = {"withdrawals": [{"gt": 10, "units": ["UK-KDG", "UK-2SG"], "rule": "test"}]}
    eng = allied_movement([unit("UK-KDG", ALLIED, "W1033"), unit("UK-2SG", ALLIED, "W1133", steps=2)], vars=wd)
    assert transport.map_edge(Hex.parse("W1034"), gm) and not transport.map_edge(Hex.parse("W1033"), gm)
    act(eng, "move", units=["UK-KDG"], path=["W1034"], exit="withdraw")
    u = eng.state.units["UK-KDG"]
    assert u.loc == "removed" and u.flags["withdrawn"]
    assert eng.state.stack[-1].data["moved"]["UK-KDG"] == 2 * tec.EIGHTH            # 1 clear hex + 1 to exit
    with pytest.raises(IllegalAction) as exc:                                        # not due: no withdrawal
        eng2 = allied_movement([unit("UK-3LtArm", ALLIED, "W1033", steps=2)], vars=wd)
        act(eng2, "move", units=["UK-3LtArm"], path=["W1034"], exit="withdraw")
    assert exc.value.rule == "7.4"
    # the exit MP count against the allowance: 22 MP spent reaching the edge leaves none to exit
    path = [f"W{r:02d}33" for r in range(10, 0, -1)] + ["W0134"]
    eng3 = allied_movement([unit("UK-2SG", ALLIED, "W1133", steps=2)], vars=wd)
    eng3.state.units["UK-2SG"].disrupted = True                                     # MA 11
    with pytest.raises(IllegalAction) as exc:
        act(eng3, "move", units=["UK-2SG"], path=path, exit="withdraw")
    assert exc.value.rule in ("13.8", "13.2")
