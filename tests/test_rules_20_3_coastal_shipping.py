"""20.3 coastal shipping: port-box capacity (20.1) and Coastal Shipping Strikes during the enemy Movement Phase
(19.9.2, 20.3.1, 20.3.2, 20.4.2 coastal naval escort)."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.hexgrid import Hex
from core.rules import coastal, strikes, tec
from tests.ground_helpers import engine_at_movement, unit


@pytest.fixture
def gm():
    m = tec.GroundMap(default="clear", ports={Hex.parse("C2331"): 4, Hex.parse("C2308"): 1, Hex.parse("C2310"): 4})
    tec.use_map(m)
    yield m
    tec.use_map(None)


def act(eng, kind, side=ALLIED, **args):
    return eng.apply(Action(kind=kind, side=side, args=args))


def allied_movement(units, dice=None):
    units = units + [unit("UK-11Huss", ALLIED, "C2308"), unit("UK-Royals", ALLIED, "C2310")]   # friendly ports
    eng = engine_at_movement(units, phase=9, step=3)     # the Allied 2nd player Movement Phase (Axis first)
    if dice is not None:
        eng.dice = dice
    return eng


def test_20_1_coastal_shipping_uses_port_boxes_at_both_ends(gm):
    eng = allied_movement([unit("UK-2SG", ALLIED, "C2331", steps=2), unit("UK-KDG", ALLIED, "C2331", steps=2),
                           unit("UK-7RTR", ALLIED, "C2331", steps=2)])
    assert coastal.boxes_left(eng, "C2308") == 1
    act(eng, "coastal_ship", units=["UK-2SG"], to="C2308")          # two steps: one box at each port
    assert eng.state.units["UK-2SG"].loc == "box:PortBoxes:C2308"     # lands in the next friendly Movement Phase
    assert coastal.boxes_left(eng, "C2308") == 0 and coastal.boxes_left(eng, "C2331") == 3
    with pytest.raises(IllegalAction) as exc:
        act(eng, "coastal_ship", units=["UK-KDG"], to="C2308")      # Tobruk's only box is used
    assert exc.value.rule == "20.1; 20.3" and eng.state.units["UK-KDG"].loc == "C2331"
    act(eng, "coastal_ship", units=["UK-KDG", "UK-7RTR"], to="C2310")  # four steps: two boxes
    assert coastal.boxes_left(eng, "C2331") == 1
    assert coastal.shipment_boxes([eng.state.units["UK-KDG"], eng.state.units["UK-7RTR"]]) == 2


def _ship_and_end_movement(eng):
    act(eng, "coastal_ship", units=["UK-2SG"], to="C2310")
    while eng.pending() and eng.pending().kind != "coastal_strikes":
        d = eng.pending()
        assert eng.state.phase <= 10, d
        eng.apply(d.options[0].action)


def test_19_9_2_coastal_shipping_strike_from_crete_hits_the_cargo(gm):
    eng = allied_movement([unit("UK-2SG", ALLIED, "C2331", steps=2), unit("GE-XFK", AXIS, "box:Crete")],
                          dice=ScriptedDice([6, 5, 1, 1], fallback=None))
    _ship_and_end_movement(eng)
    d = eng.pending()
    assert d.side == AXIS and d.rule == "19.9.2; 20.3" and eng.state.phase == 10
    assert [o.action.args.get("unit") for o in d.options] == [None, "GE-XFK"]
    act(eng, "coastal_strike", AXIS, unit="GE-XFK")
    act(eng, "done", AXIS)                                              # 2 dice: 6, 5 -> two hits
    d = eng.pending()
    assert d.kind == "strike_loss" and d.side == ALLIED                 # the targeted player chooses first
    eng.apply(d.options[0].action)
    d = eng.pending()
    assert d.kind == "strike_loss" and d.side == AXIS
    eng.apply(d.options[0].action)
    assert eng.state.units["UK-2SG"].loc.startswith(("box:Destroyed", "removed", "box:Refit")) \
        or eng.state.units["UK-2SG"].steps < 2     # the cargo waiting in the receiving port boxes is hit (20.1)
    assert eng.state.units["GE-XFK"].flags.get("coastal_strike") == "10.9"    # damage check (1+1: based)
    assert eng.state.units["GE-XFK"].flags.get("based")


def test_20_3_2_north_africa_axis_air_needs_a_cyrenaica_naval_airfield(gm):
    eng = allied_movement([unit("UK-2SG", ALLIED, "C2331", steps=2), unit("GE-XFK", AXIS, "box:AirNA:Axis")])
    act(eng, "coastal_ship", units=["UK-2SG"], to="C2310")
    tag = f"{eng.state.gt}.{eng.state.phase}"
    why = coastal.striker_refusal(eng, "GE-XFK", ALLIED, tag)
    assert why and "20.3.2" in why
    assert coastal.eligible(eng, AXIS, tag) == []


def test_20_3_1_allied_long_range_air_strikes_axis_coastal_shipping(gm):
    eng = engine_at_movement([unit("GE-125", AXIS, "C2331", steps=2), unit("GE-382", AXIS, "C2310"),
                              unit("UK-201Group", ALLIED, "box:AirNA:Allied")],
                             phase=6, step=3)
    act(eng, "coastal_ship", AXIS, units=["GE-125"], to="C2310")
    tag = f"{eng.state.gt}.6"
    assert coastal.eligible(eng, ALLIED, tag) == ["UK-201Group"]
    assert strikes.cargo(eng, coastal.lane(AXIS, tag)) == ["GE-125"]


def test_20_4_2_med_fleet_escorts_allied_coastal_shipping_on_maps_w_c(gm):
    eng = allied_movement([unit("UK-2SG", ALLIED, "C2331", steps=2), unit("UK-MedFleet", ALLIED, strikes.COASTAL),
                           unit("UK-ForceH", ALLIED, strikes.COASTAL)])
    act(eng, "coastal_ship", units=["UK-2SG"], to="C2310")
    tag = f"{eng.state.gt}.{eng.state.phase}"
    assert coastal.coastal_escorts(eng, ALLIED, tag) == ["UK-MedFleet"]       # Force H: Maps A and T only
