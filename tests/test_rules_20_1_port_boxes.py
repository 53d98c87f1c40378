"""20.1 port boxes, 20.2 ocean cargo placed from the lane and landed, 20.3 coastal shipping landing in the next
friendly Movement Phase (R-COASTAL-LAND), 22.1 the NRV's port boxes: each test named after its rule."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.engine import Engine
from core.hexgrid import Hex
from core.rules import naval, offmap, supply, tec
from core.rules.movement import E
from core.rules.status import printed_ma
from core.state import Frame, GameState
from tests.ground_helpers import engine_at_movement, unit

TOBRUK, BREGA, BENGHAZI, DERNA = "C2331", "C0803", "C2308", "C2821"   # 3+1, 0+1, 2+2, 1+1 boxes (map data)


@pytest.fixture(autouse=True)
def gm():
    m = tec.GroundMap(default="clear", ports={Hex.parse(TOBRUK): 4, Hex.parse(BREGA): 1, Hex.parse(BENGHAZI): 4,
                                              Hex.parse(DERNA): 2})
    tec.use_map(m)
    yield m
    tec.use_map(None)


def sea(uid, side=AXIS, lane="Italy", to=TOBRUK, origin=offmap.ITALY, steps=2, gt=10):
    """A unit put on its lane in the Allocation Phase (20.2)."""
    return unit(uid, side, naval.AT_SEA + lane, steps=steps,
                flags={"shipped_from": origin, "shipped_gt": gt, "at_sea": {"gt": gt, "lane": lane, "to": to}})


def axis_engine(units, phase=6, step=1, first=AXIS, control=None):
    """An engine at ``phase``/``step`` with the four ports Axis-controlled (or ``control``)."""
    st = GameState(scenario="test-ground", seed=7, gt=10, phase=phase, step=step, initiative=first,
                   first_player=first, end_gt=20, units={u.id: u for u in units}, stack=[Frame(proc="turn")],
                   control=dict(control or {p: AXIS for p in (TOBRUK, BREGA, BENGHAZI, DERNA)}))
    return Engine(st)


def act(eng, kind, side=AXIS, **args):
    return eng.apply(Action(kind=kind, side=side, args=args))


def until(eng, kind, limit=40):
    """Answer other decisions with *done* (else their first option) until a decision of ``kind``."""
    for _ in range(limit):
        d = eng.pending()
        if d is None or d.kind == kind:
            return d
        done = [o for o in d.options if o.action.kind == "done"]
        eng.apply((done or list(d.options))[0].action)
    raise AssertionError(f"no {kind} decision")


def refused(eng, side=AXIS, **args):
    """The procedure's own refusal of ``port_place`` (the engine refuses an option it did not offer first)."""
    frame = eng.state.stack[-1]
    assert frame.proc == "port_placement"
    before = eng.state.hash()
    with pytest.raises(IllegalAction) as e:
        naval.PortPlacement().apply(eng, frame, Action(kind="port_place", side=side, args=args))
    assert eng.state.hash() == before
    return e.value


def targets(d):
    return [o.action.args.get("to") for o in d.options if o.action.kind == "port_place"]


# --------------------------------------------------------------------------- placement and capacity


def test_20_1_placement_at_the_beginning_of_a_friendly_movement_phase_one_decision_per_unit():
    eng = axis_engine([sea("GE-5Pz"), sea("GE-8PzL"), unit("UK-2SG", ALLIED, naval.AT_SEA + "Cape")])
    d = eng.pending()
    assert d.kind == "port_placement" and d.side == AXIS and d.rule == "4.1 VI.1; 20.1; 20.2"
    assert (eng.state.phase, eng.state.step) == (6, 1) and d.context["unit"] == "GE-5Pz"
    assert targets(d)[0] == "box:PortBoxes:" + TOBRUK                 # the port chosen at allocation first
    assert "box:PortBoxes:" + BREGA not in targets(d)                  # limited boxes: no motorised unit in
    assert d.options[0].action.kind == "port_stay" and "next friendly Movement Phase" in d.options[0].label
    act(eng, "port_place", unit="GE-5Pz", to="box:PortBoxes:" + TOBRUK)
    u = eng.state.units["GE-5Pz"]
    assert u.loc == "box:PortBoxes:" + TOBRUK and u.flags["port_box"] == {"how": "ocean", "from": offmap.ITALY,
                                                                         "tag": "10.6"}
    assert "at_sea" not in u.flags
    d = eng.pending()
    assert d.kind == "port_placement" and d.context["unit"] == "GE-8PzL"
    act(eng, "port_stay", unit="GE-8PzL")
    assert eng.pending().kind != "port_placement"                      # the Allied cargo waits for its own phase
    assert eng.state.units["GE-8PzL"].loc == naval.AT_SEA + "Italy"


def test_20_1_capacity_per_port_per_impulse_a_box_two_steps():
    eng = axis_engine([sea(uid, steps=2) for uid in ("GE-104", "GE-115", "GE-155", "GE-200")])
    assert naval.port_boxes(eng, TOBRUK) == (3, 1)
    for uid in ("GE-104", "GE-115", "GE-155"):
        act(eng, "port_place", unit=uid, to="box:PortBoxes:" + TOBRUK)
    assert naval.boxes_used(eng, TOBRUK) == (3, 0)                     # motorised: standard boxes only
    d = eng.pending()
    assert d.context["unit"] == "GE-200" and "box:PortBoxes:" + TOBRUK not in targets(d)
    e = refused(eng, unit="GE-200", to="box:PortBoxes:" + TOBRUK)
    assert e.rule == "20.1; 20.2" and "standard port box" in str(e)
    # 20.1: units placed in one impulse do not count against the capacity in the other impulse
    eng.state.phase = 12
    assert naval.boxes_used(eng, TOBRUK) == (0, 0) and naval.boxes_left(eng, TOBRUK) == (3, 1)
    assert "box:PortBoxes:" + TOBRUK in naval.placements(eng, "GE-200")


def test_20_1_port_capacity_used_entering_and_leaving():
    eng = axis_engine([unit("GE-5Pz", AXIS, DERNA, steps=2), unit("GE-382", AXIS, DERNA, steps=1),
                       sea("GE-8PzL", to=DERNA)], phase=6, step=3)
    d = until(eng, "movement")
    assert d is not None
    act(eng, "coastal_ship", units=["GE-5Pz"], to=TOBRUK)              # leaves Derna by its standard box
    assert naval.boxes_used(eng, DERNA) == (1, 0) and naval.boxes_used(eng, TOBRUK) == (1, 0)
    act(eng, "coastal_ship", units=["GE-382"], to=BENGHAZI)          # foot: Derna's limited box, Benghazi's too
    assert naval.boxes_used(eng, DERNA) == (1, 1) and naval.boxes_used(eng, BENGHAZI) == (0, 1)
    assert naval.placements(eng, "GE-8PzL") == ["box:PortBoxes:" + BENGHAZI, "box:PortBoxes:" + TOBRUK]


# --------------------------------------------------------------------------- landing


def test_20_1_landing_after_the_port_strikes_spends_half_the_printed_ma():
    eng = axis_engine([sea("GE-8PzL")])
    act(eng, "port_place", unit="GE-8PzL", to="box:PortBoxes:" + TOBRUK)
    d = eng.pending()
    # step VI.2 (the enemy's port strikes run before it): the cargo is still in the port boxes
    assert eng.state.step == 2 and eng.state.units["GE-8PzL"].loc == "box:PortBoxes:" + TOBRUK, d
    d = until(eng, "movement")
    u = eng.state.units["GE-8PzL"]
    assert u.loc == TOBRUK and u.flags["landed"] == "10.6" and u.flags["landed_gt"] == 10
    assert "port_box" not in u.flags and not u.flags.get("landed_stop")
    assert d.context["moved"]["GE-8PzL"] == printed_ma(u) * E // 2    # movement.seed_landed


def test_20_1_landing_units_are_in_gens_for_the_gt_of_landing():
    u = unit("GE-8PzL", AXIS, "box:PortBoxes:" + TOBRUK, steps=2,
             flags={"port_box": {"how": "ocean", "from": offmap.ITALY, "tag": "10.6"}})
    eng = axis_engine([u], step=3)
    eng.state.control.clear()
    eng.state.control[TOBRUK] = AXIS
    naval.land_from_port_boxes(eng)
    assert supply.gens_status(eng.state, AXIS)["GE-8PzL"] == "IGS"
    eng.state.gt = 11                                                   # the next GT: traced normally
    eng.state.control[TOBRUK] = ALLIED
    assert supply.gens_status(eng.state, AXIS)["GE-8PzL"] != "IGS"


def test_20_1_refit_points_and_dumps_stay_in_the_port_hex_this_movement_phase():
    eng = axis_engine([sea("GE-RP#1", steps=2), sea("AX-Dump#1", steps=1)])
    act(eng, "port_place", unit="AX-Dump#1", to="box:PortBoxes:" + BREGA)    # 20.1 b): dumps in by a limited box
    assert naval.boxes_used(eng, BREGA) == (0, 1)
    assert targets(eng.pending()) == ["box:PortBoxes:" + TOBRUK, "box:PortBoxes:" + BENGHAZI,
                                      "box:PortBoxes:" + DERNA]         # RP: standard boxes only
    act(eng, "port_place", unit="GE-RP#1", to="box:PortBoxes:" + TOBRUK)
    d = until(eng, "movement")
    for uid, port in (("GE-RP#1", TOBRUK), ("AX-Dump#1", BREGA)):
        u = eng.state.units[uid]
        assert u.loc == port and u.flags["landed_stop"] and u.flags["landed"] == "10.6"
        assert d.context["moved"][uid] >= printed_ma(u) * E


# --------------------------------------------------------------------------- limited boxes


def test_20_1_limited_boxes_refuse_motorised_units_in():
    eng = axis_engine([sea("GE-8PzL", to=BREGA)])
    assert "box:PortBoxes:" + BREGA not in targets(eng.pending())
    e = refused(eng, unit="GE-8PzL", to="box:PortBoxes:" + BREGA)
    assert "limited boxes carry non-motorised units" in str(e) and e.rule == "20.1; 20.2"


def test_20_1_limited_boxes_carry_dumps_in_only():
    eng = axis_engine([unit("AX-Dump#1", AXIS, BREGA, steps=1)], step=3)
    until(eng, "movement")
    before = eng.state.hash()
    with pytest.raises(IllegalAction) as e:
        act(eng, "coastal_ship", units=["AX-Dump#1"], to=TOBRUK)
    assert e.value.rule == "20.1; 20.3" and "standard port box" in str(e.value) and eng.state.hash() == before


def test_20_1_c_motorised_unit_leaving_by_a_limited_box_goes_to_the_refit_box():
    eng = axis_engine([unit("GE-8PzL", AXIS, BREGA, steps=2), unit("GE-382", AXIS, BREGA, steps=1)], step=3)
    until(eng, "movement")
    with pytest.raises(IllegalAction) as e:                              # no standard box at Mersa Brega
        act(eng, "coastal_ship", units=["GE-8PzL"], to=TOBRUK)
    assert e.value.rule == "20.1; 20.3"
    with pytest.raises(IllegalAction) as e:                              # only motorised units go to the Refit Box
        act(eng, "coastal_ship", units=["GE-382"], to=offmap.refit(AXIS))
    assert e.value.rule == "20.1 c)"
    act(eng, "coastal_ship", units=["GE-8PzL"], to=offmap.refit(AXIS))
    assert eng.state.units["GE-8PzL"].loc == "box:Refit:Axis" and naval.boxes_used(eng, BREGA) == (0, 1)
    with pytest.raises(IllegalAction):                                   # the limited box is used this impulse
        act(eng, "coastal_ship", units=["GE-382"], to=TOBRUK)


# --------------------------------------------------------------------------- coastal shipping (20.3)


def test_20_3_coastal_shipping_lands_in_the_next_friendly_movement_phase():
    eng = axis_engine([unit("GE-5Pz", AXIS, DERNA, steps=2)], step=3)
    until(eng, "movement")
    act(eng, "coastal_ship", units=["GE-5Pz"], to=TOBRUK)
    u = eng.state.units["GE-5Pz"]
    assert u.loc == "box:PortBoxes:" + TOBRUK and u.flags["port_box"] == {"how": "coastal", "from": DERNA,
                                                                        "tag": "10.6"}
    naval.land_from_port_boxes(eng)                                      # not in the Movement Phase of shipping
    assert u.loc == "box:PortBoxes:" + TOBRUK
    eng.state.phase = 12                                                 # the Axis (1st player) follow-on impulse
    naval.land_from_port_boxes(eng)
    assert u.loc == TOBRUK and u.flags["landed"] == "10.12" and u.flags["landed_gt"] == 10


def test_r_coastal_land_cargo_shipped_in_the_last_friendly_movement_phase_lands_next_gt():
    u = unit("GE-5Pz", AXIS, "box:PortBoxes:" + TOBRUK, steps=2,
             flags={"port_box": {"how": "coastal", "from": DERNA, "tag": "10.12"}})
    eng = axis_engine([u], phase=20)
    naval.unlanded_return(eng)                                           # XX.1: coastal cargo is not sent back
    assert u.loc == "box:PortBoxes:" + TOBRUK
    eng.state.gt, eng.state.phase = 11, 6
    naval.land_from_port_boxes(eng)
    assert u.loc == TOBRUK and u.flags["landed"] == "11.6"


def test_r_coastal_land_port_lost_returns_to_origin_else_destroyed():
    a = unit("GE-5Pz", AXIS, "box:PortBoxes:" + TOBRUK, steps=2,
             flags={"port_box": {"how": "coastal", "from": DERNA, "tag": "10.6"}})
    b = unit("GE-8PzL", AXIS, "box:PortBoxes:" + BENGHAZI, steps=2,
             flags={"port_box": {"how": "coastal", "from": BREGA, "tag": "10.6"}})
    eng = axis_engine([a, b, unit("UK-2SG", ALLIED, BENGHAZI, steps=2)], phase=12)
    eng.state.control[TOBRUK] = ALLIED
    eng.state.control[BREGA] = ALLIED
    naval.land_from_port_boxes(eng)
    assert a.loc == DERNA and "port_box" not in a.flags                  # Derna is still Axis: back to it
    assert b.loc == offmap.destroyed(AXIS)                               # enemy-held port, origin lost


# --------------------------------------------------------------------------- 20.2 end of GT, 22.1 NRV


def test_20_2_ocean_cargo_not_landed_returns_to_its_origin_at_the_end_of_the_gt():
    a = sea("GE-5Pz")
    b = unit("GE-8PzL", AXIS, "box:PortBoxes:" + TOBRUK, steps=2,
             flags={"shipped_from": offmap.SICILY, "port_box": {"how": "ocean", "from": offmap.SICILY, "tag": "10.12"}})
    eng = axis_engine([a, b], phase=12)
    d = eng.pending()
    assert "returns to Italy at the end of the GT" in d.options[0].label   # the owner's last Movement Phase
    eng.state.phase, eng.state.step = 20, 1
    naval.unlanded_return(eng)
    assert a.loc == offmap.ITALY and b.loc == offmap.SICILY
    assert "at_sea" not in a.flags and "port_box" not in b.flags


def test_22_1_20_2_4_cape_route_cargo_uses_the_nrv_port_boxes_and_lands_in_the_nrv():
    eng = engine_at_movement([sea("UK-2SG", ALLIED, "Cape", offmap.NRV, offmap.CAPE),
                              sea("UK-7RTR", ALLIED, "Cape", offmap.NRV, offmap.CAPE)],
                             phase=9, step=1, first=AXIS)
    d = eng.pending()
    assert d.side == ALLIED and targets(d) == ["box:PortBoxes:NRV"] and "the NRV" in d.options[1].label
    act(eng, "port_place", ALLIED, unit="UK-2SG", to="box:PortBoxes:NRV")
    assert naval.boxes_used(eng, offmap.NRV) == (1, 0) and naval.boxes_left(eng, offmap.NRV) == (7, 0)
    act(eng, "port_stay", ALLIED, unit="UK-7RTR")
    until(eng, "movement")
    u = eng.state.units["UK-2SG"]
    assert u.loc == offmap.NRV and u.flags["landed"] == "10.9"
    assert eng.state.units["UK-7RTR"].loc == naval.AT_SEA + "Cape"


def test_20_1_refusals_cite_the_rules_and_leave_the_state_untouched():
    eng = axis_engine([sea("GE-5Pz"), unit("GE-8PzL", AXIS, "C2310", steps=2)])
    e = refused(eng, unit="GE-5Pz", to="box:PortBoxes:W2232")            # not a port the lane serves
    assert e.rule == "20.1; 20.2" and "does not serve" in str(e)
    assert refused(eng, unit="GE-8PzL", to="box:PortBoxes:" + TOBRUK).rule == "20.2"   # not at sea
    before = eng.state.hash()
    with pytest.raises(IllegalAction) as e2:                              # the engine: not an offered option
        act(eng, "port_place", unit="GE-5Pz", to="box:PortBoxes:W2232")
    assert "20.1; 20.2" in e2.value.rule and eng.state.hash() == before


def test_22_1_allied_coastal_shipping_enters_and_leaves_the_nrv():
    eng = axis_engine([unit("UK-2SG", ALLIED, offmap.NRV, steps=2), unit("UK-KDG", ALLIED, TOBRUK, steps=2)],
                      phase=9, step=3, control={TOBRUK: ALLIED})
    until(eng, "movement")
    with pytest.raises(IllegalAction) as e:                               # the NRV has no limited boxes
        act(eng, "coastal_ship", ALLIED, units=["UK-2SG"], to=offmap.refit(ALLIED))
    assert e.value.rule == "20.1 c); 22.1" and eng.state.units["UK-2SG"].loc == offmap.NRV
    act(eng, "coastal_ship", ALLIED, units=["UK-2SG"], to=TOBRUK)
    act(eng, "coastal_ship", ALLIED, units=["UK-KDG"], to=offmap.NRV)
    assert eng.state.units["UK-2SG"].loc == "box:PortBoxes:" + TOBRUK
    assert eng.state.units["UK-KDG"].loc == "box:PortBoxes:NRV"
    assert naval.boxes_used(eng, offmap.NRV) == (2, 0) and naval.boxes_used(eng, TOBRUK) == (2, 0)
    eng.state.phase = 15                                                  # the next Allied Movement Phase
    naval.land_from_port_boxes(eng)
    assert eng.state.units["UK-2SG"].loc == TOBRUK and eng.state.units["UK-KDG"].loc == offmap.NRV
    assert eng.state.units["UK-KDG"].flags["landed"] == "10.15"


def test_20_5_22_7_allied_cargo_does_not_land_beside_neutral_vichy_french_in_the_port():
    """Neutral VF units holding a port are enemies of the Allies (fna.hostile, R-VICHY-NEUTRAL): the cargo waits in
    the port boxes for an opposed landing (20.5) instead of landing and stacking with them."""
    boxes = "box:PortBoxes:" + BENGHAZI
    cargo = unit("US-1Inf", ALLIED, boxes, steps=2, flags={"port_box": {"how": "landing", "from": offmap.TORCH,
                                                                         "tag": "10.6"}})
    vf = unit("VFA-Alger", ALLIED, BENGHAZI, steps=2, flags={"vichy": "neutral"})
    eng = axis_engine([cargo, vf], phase=6, step=3, first=ALLIED, control={BENGHAZI: ALLIED})
    assert naval.enemy_in_port(eng, ALLIED, BENGHAZI)
    naval.land_from_port_boxes(eng)
    assert eng.state.units["US-1Inf"].loc == boxes
    eng.state.units["VFA-Alger"].flags = {"vichy": "joined"}
    naval.land_from_port_boxes(eng)
    assert eng.state.units["US-1Inf"].loc == BENGHAZI
