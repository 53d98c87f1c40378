"""16.2 Oasis Track movement (14 MP per link, connection hexes, Jalo/Siwa as boxes and hexes), 16.0 optional,
17.3 upgrades (substitution through the refit decision)."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.rules import raiders, tec
from tests.ground_helpers import engine_at_movement, unit


@pytest.fixture
def gm():
    tec.use_map(tec.GroundMap(default="clear"))
    yield
    tec.use_map(None)


def test_16_2_1_connection_hex_and_boxes(gm):
    g = raiders.links()
    assert g["S0413"] == {"box:Oasis:hon": 14 * tec.EIGHTH, "box:Oasis:zella": 14 * tec.EIGHTH}
    assert "C0117" in g["box:Oasis:zella"]                       # Jalo counts as an oasis box (16.2.1)


def test_16_0_optional_and_16_2_movement(gm):
    eng = engine_at_movement([unit("GE-300Oasis", AXIS, "box:Oasis:hon"), unit("GE-3Aufkl", AXIS, "S0413")])
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="oasis_move", side=AXIS, args={"units": ["GE-300Oasis"], "path": ["box:Oasis:zella"]}))
    assert exc.value.rule == "16.0"
    eng = engine_at_movement([unit("GE-300Oasis", AXIS, "box:Oasis:hon"), unit("GE-3Aufkl", AXIS, "S0413")],
                             vars={"optional": {"desert_raiders": True}})
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="oasis_move", side=AXIS, args={"units": ["GE-3Aufkl"], "path": ["box:Oasis:hon"]}))
    assert exc.value.rule == "16.2"                                # not desert capable
    eng.apply(Action(kind="oasis_move", side=AXIS, args={"units": ["GE-300Oasis"], "path": ["S0413"]}))
    assert eng.state.units["GE-300Oasis"].loc == "S0413"
    assert eng.state.stack[-1].data["moved"]["GE-300Oasis"] == 14 * tec.EIGHTH
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["GE-300Oasis"], "path": ["S0414"]}))   # goes on
    assert eng.state.stack[-1].data["moved"]["GE-300Oasis"] == 15 * tec.EIGHTH


# ---------------------------------------------------------------- 16.4 missions, 16.3 combat, 16.1 rules
from core.dice import ScriptedDice                              # noqa: E402
from core.rules import movement                                 # noqa: E402

ON = {"optional": {"desert_raiders": True}}


def allied(units, **vars_):
    return engine_at_movement(units, phase=9, step=3, vars=ON | vars_)


def act(eng, kind, side=ALLIED, **args):
    return eng.apply(Action(kind=kind, side=side, args=args))


@pytest.fixture
def wadi():
    m = tec.GroundMap(default="clear")
    for n in ("C1011", "C1009", "C0910"):
        m.set_side("C1010", n, "wadi")
    tec.use_map(m)
    yield m
    tec.use_map(None)


def test_16_4_guiding_lowers_wadi_costs_in_movement(wadi):
    eng = allied([unit("UK-LRDG", ALLIED, "C1010"), unit("UK-2SG", ALLIED, "C1012", steps=2)])
    before = movement.path_cost(eng.state, ALLIED, ["UK-2SG"], ["C1011", "C1010"], movement.MoveOptions())["UK-2SG"]
    assert before == 1 * tec.EIGHTH + 3 * tec.EIGHTH                    # clear 1, clear + wadi 1 + 2 (trucked)
    act(eng, "raid", unit="UK-LRDG", mission="guiding")
    assert eng.state.vars["guides"]["C1010"]["side"] == ALLIED
    opts = movement.MoveOptions()
    after = movement.path_cost(eng.state, ALLIED, ["UK-2SG"], ["C1011", "C1010", "C1009"], opts)["UK-2SG"]
    assert after == 3 * tec.EIGHTH                                      # into and out of the guided hex: no wadi
    reach = movement.query_reachable(eng, ["UK-2SG"])
    assert reach["C1010"] == 2 and reach["C1009"] == 3                  # the GUI query agrees
    act(eng, "move", units=["UK-2SG"], path=["C1011", "C1010", "C1009"])
    assert eng.state.stack[-1].data["moved"]["UK-2SG"] == 3 * tec.EIGHTH
    # the enemy does not benefit; nor does the next phase
    assert raiders.guided_hexes(eng.state, AXIS) == frozenset()
    eng.state.phase = 12
    assert raiders.guided_hexes(eng.state, ALLIED) == frozenset()


def test_16_4_guiding_refusals(wadi):
    eng = allied([unit("UK-LRDG", ALLIED, "C1015")])
    with pytest.raises(IllegalAction) as exc:
        act(eng, "raid", unit="UK-LRDG", mission="guiding")
    assert exc.value.rule == "16.4" and "wadi" in str(exc.value)
    eng = allied([unit("UK-LRDG", ALLIED, "C1011")])
    act(eng, "move", units=["UK-LRDG"], path=["C1010"])
    with pytest.raises(IllegalAction) as exc:
        act(eng, "raid", unit="UK-LRDG", mission="guiding")
    assert exc.value.rule == "16.4"                                     # it has moved


@pytest.mark.parametrize("die,disrupted", [(6, True), (1, False)])
def test_16_4_supply_raid_morale_check_for_the_msu(gm, die, disrupted):
    eng = allied([unit("UK-LRDG", ALLIED, "C1010"), unit("AX-MSU#1", AXIS, "C1011")])
    eng.dice = ScriptedDice([die])
    act(eng, "raid", unit="UK-LRDG", mission="supply", target="AX-MSU#1")
    assert eng.state.units["AX-MSU#1"].disrupted is disrupted
    with pytest.raises(IllegalAction) as exc:
        act(eng, "raid", unit="UK-LRDG", mission="supply", target="AX-MSU#1")
    assert exc.value.rule == "16.4"                                     # one mission per Movement Phase


def test_16_4_supply_raid_refusals(gm):
    eng = allied([unit("UK-LRDG", ALLIED, "C1010"), unit("AX-MSU#1", AXIS, "C1013"), unit("AX-Base#1", AXIS, "C1011")])
    for target in ("AX-MSU#1", "AX-Base#1"):                            # not adjacent; a base
        with pytest.raises(IllegalAction) as exc:
            act(eng, "raid", unit="UK-LRDG", mission="supply", target=target)
        assert exc.value.rule == "16.4"
    eng = allied([unit("UK-LRDG", ALLIED, "C1010", disrupted=True), unit("AX-MSU#1", AXIS, "C1011")])
    with pytest.raises(IllegalAction) as exc:
        act(eng, "raid", unit="UK-LRDG", mission="supply", target="AX-MSU#1")
    assert exc.value.rule == "16.4"
    eng = engine_at_movement([unit("UK-LRDG", ALLIED, "C1010"), unit("AX-MSU#1", AXIS, "C1011")], phase=9, step=3)
    with pytest.raises(IllegalAction) as exc:
        act(eng, "raid", unit="UK-LRDG", mission="supply", target="AX-MSU#1")
    assert exc.value.rule == "16.0"                                     # optional rule off


def test_16_4_airfield_raid(gm):
    from core import mapdata

    af = mapdata.load().airfields()[0]
    near = next(n for n in af.neighbours() if n.on_grid)
    eng = allied([unit("UK-LRDG", ALLIED, near.label)])
    eng.state.control[af.label] = AXIS
    eng.dice = ScriptedDice([1])
    act(eng, "raid", unit="UK-LRDG", mission="airfield", target=af.label)
    assert eng.state.vars["airfields_disrupted"][af.label]["rule"] == "16.4"
    eng = allied([unit("UK-LRDG", ALLIED, near.label), unit("GE-3Aufkl", AXIS, af.label)])
    eng.dice = ScriptedDice([3])              # 3 + morale 1 + 1 (adjacent enemy) + 2 (enemy on the airfield) = 7
    act(eng, "raid", unit="UK-LRDG", mission="airfield", target=af.label)
    assert af.label not in eng.state.vars.get("airfields_disrupted", {})


def test_16_3_oasis_combat_on_entering_an_enemy_box(gm):
    eng = engine_at_movement([unit("GE-300Oasis", AXIS, "box:Oasis:hon"), unit("UK-LRDG", ALLIED, "box:Oasis:zella")],
                             vars=ON)
    act(eng, "oasis_move", AXIS, units=["GE-300Oasis"], path=["box:Oasis:zella"])
    d = eng.pending()
    assert d.kind == "oasis_combat" and d.rule == "16.3"
    # 300 Oasis CF 2: two dice against the LRDG (morale 1): 6 and 6 fail twice, the first failure is ignored
    # (CF > 0): disrupted; it survives and counter-attacks with one die (CF 1): 6 -> 300 Oasis ignores it
    eng.dice = ScriptedDice([6, 6, 6])
    eng.apply(d.options[0].action)
    st = eng.state
    assert st.units["UK-LRDG"].disrupted and st.units["UK-LRDG"].loc == "box:Oasis:zella"
    assert not st.units["GE-300Oasis"].disrupted
    with pytest.raises(IllegalAction) as exc:                           # into, not through, an enemy box
        eng2 = engine_at_movement([unit("GE-300Oasis", AXIS, "box:Oasis:hon"),
                                   unit("UK-LRDG", ALLIED, "box:Oasis:zella")], vars=ON)
        act(eng2, "oasis_move", AXIS, units=["GE-300Oasis"], path=["box:Oasis:zella", "C0117"])
    assert exc.value.rule == "16.2"


@pytest.mark.parametrize("die,later", [(1, 1), (2, 1), (3, 2), (6, 2)])
def test_16_1_eliminated_raider_returns_one_or_two_gts_later(gm, die, later):
    eng = allied([unit("UK-LRDG", ALLIED, "box:Refit:Allied")])
    eng.dice = ScriptedDice([die])
    raiders.raiders_phase_end(eng, 9)
    st = eng.state
    u = st.units["UK-LRDG"]
    assert u.loc == "removed" and u.flags["raider_return_gt"] == 10 + later
    assert any(i["unit"] == "UK-LRDG" and i["gt"] == 10 + later and i["rule"] == "16.1" for i in st.vars["reinf"])


def test_16_1_eliminated_chad_makes_no_return_roll_it_refits(gm):
    """16.1 "If eliminated, it may enter at Kufra after it refits" (the Chad unit, G-CHAD): unlike the other raiders
    ("If eliminated roll 1d6"), Chad stays in the Refit Box, rolls nothing and is not scheduled to arrive."""
    eng = allied([unit("FF-Chad", ALLIED, "box:Refit:Allied"), unit("UK-LRDG", ALLIED, "box:Refit:Allied")])
    eng.dice = ScriptedDice([1])
    raiders.raiders_phase_end(eng, 9)
    st = eng.state
    assert st.units["FF-Chad"].loc == "box:Refit:Allied" and "raider_return_gt" not in st.units["FF-Chad"].flags
    assert not any(i["unit"] == "FF-Chad" for i in st.vars.get("reinf", []))
    assert st.units["UK-LRDG"].loc == "removed" and st.units["UK-LRDG"].flags["raider_return_gt"] == 11


def test_16_1_raider_recovers_on_the_track_if_it_did_not_move(gm):
    eng = allied([unit("UK-LRDG", ALLIED, "box:Oasis:kufra", disrupted=True),
                  unit("VFA-BLM", ALLIED, "box:Oasis:hon", disrupted=True), unit("GE-300Oasis", AXIS, "box:Oasis:hon")])
    raiders.raiders_phase_end(eng, 9)
    assert not eng.state.units["UK-LRDG"].disrupted
    assert eng.state.units["VFA-BLM"].disrupted                        # an enemy unit in its box


def test_16_1_chad_enters_only_at_kufra(gm):
    eng = allied([unit("FF-Chad", ALLIED, "box:NRV")])
    with pytest.raises(IllegalAction) as exc:
        act(eng, "oasis_move", units=["FF-Chad"], path=["box:Oasis:siwa"])
    assert exc.value.rule == "16.1"
    with pytest.raises(IllegalAction) as exc:
        act(eng, "move", units=["FF-Chad"], path=["W2034"], enter="box:NRV")
    assert exc.value.rule == "16.1"
    act(eng, "oasis_move", units=["FF-Chad"], path=["box:Oasis:kufra", "W0106"])
    st = eng.state
    assert st.units["FF-Chad"].loc == "W0106" and st.stack[-1].data["moved"]["FF-Chad"] == 14 * tec.EIGHTH
    eng = allied([unit("UK-LRDG", ALLIED, "box:NRV")])
    with pytest.raises(IllegalAction) as exc:                           # only Chad enters the track from off the map
        act(eng, "oasis_move", units=["UK-LRDG"], path=["box:Oasis:kufra"])
    assert exc.value.rule == "16.2.1"


def test_16_1_refitted_desert_garrison_placed_in_a_friendly_oasis(gm):
    units = [unit("AX-Base#1", AXIS, "C1001", active=True), unit("IT-RP#1", AXIS, "C1001", steps=2),
             unit("IT-Kufra", AXIS, "box:Refit:Axis"), unit("IT-Jalo", AXIS, "box:Refit:Axis"),
             unit("IT-17Pavia", AXIS, "box:Refit:Axis"), unit("GE-300Oasis", AXIS, "box:Oasis:kufra"),
             unit("UK-LRDG", ALLIED, "box:Oasis:hon")]
    eng = engine_at_movement(units, phase=6, step=2, vars=ON | {"primary_base": {"Axis": "AX-Base#1"}})
    with pytest.raises(IllegalAction) as exc:
        act(eng, "refit_box", AXIS, unit="IT-Kufra", rps=["IT-RP#1"], to="box:Oasis:hon")   # enemy there
    assert exc.value.rule == "16.1"
    with pytest.raises(IllegalAction) as exc:
        act(eng, "refit_box", AXIS, unit="IT-17Pavia", rps=["IT-RP#1"], to="box:Oasis:kufra")
    assert exc.value.rule == "16.1; 17.2"                               # not a desert garrison
    act(eng, "refit_box", AXIS, unit="IT-Kufra", rps=["IT-RP#1"], to="box:Oasis:kufra")
    assert eng.state.units["IT-Kufra"].loc == "box:Oasis:kufra"
    act(eng, "refit_box", AXIS, unit="IT-Jalo", rps=["IT-RP#1"])        # default: the primary base hex
    assert eng.state.units["IT-Jalo"].loc == "C1001"
