"""19.6 Interdiction, flown in a friendly Movement Phase (4.1 VI.3 c), driven through the engine's actions:
the Air Interdiction Chart's extra MP in real moves (and reaction moves), the duration to the end of the next
enemy Movement Phase, one air unit per hex, the damage check (19.3) and the based return, the refusals (19.1
area of operations, 19.2 Exception, non-based, ground support rating) and the Ghibli ban (21.2.1)."""

from __future__ import annotations

import copy

import pytest

from core import charts
from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice
from core.engine import Engine
from core.rules import air, air_missions, combat, tec
from tests.ground_helpers import engine_at_movement, unit

NA = air.box(AXIS, "NorthAfrica")


def setup(**kw):
    """Axis 1st player in its Movement Phase (VI); FF Afrika (GS 1) in the North Africa Box; an Axis base on
    Map C puts Map C in its area of operations (19.1.1); 7 RTR is the Allied unit that will move."""
    units = [unit("GE-FFAfrika", AXIS, NA), unit("GE-StGI", AXIS, NA),
             unit("AX-Base#1", AXIS, "C0701", active=True), unit("AL-Base#1", ALLIED, "C1020", active=True),
             unit("GE-5Pz", AXIS, "C1001", steps=2), unit("UK-7RTR", ALLIED, "C1015", steps=2)]
    return engine_at_movement(units + kw.pop("extra", []), **kw)


def interdict(eng, uid, hex_label, side=AXIS):
    return eng.apply(Action(kind="interdict", side=side, args={"unit": uid, "hex": hex_label}))


def fork(eng):
    """An independent engine on a copy of the state (to apply one option of many)."""
    return Engine(copy.deepcopy(eng.state))


def advance_to(eng, phase: int, kind: str = "movement"):
    """Answer every decision with "done" (or its first option) until ``kind`` of ``phase`` is pending."""
    for _ in range(300):
        d = eng.pending()
        if eng.state.phase == phase and d.kind == kind:
            return d
        opt = next((o for o in d.options if o.action.kind == "done"), d.options[0])
        eng.apply(opt.action)
    raise AssertionError(f"phase {phase} {kind} not reached")


def test_19_6_interdiction_raises_the_cost_of_a_real_enemy_move(gm):
    eng = setup()
    assert eng.query("route", units=["UK-7RTR"], to="C1012")["mp"] == 3
    interdict(eng, "GE-FFAfrika", "C1012")
    assert eng.state.units["GE-FFAfrika"].loc == air.interdiction_box("C1012")
    advance_to(eng, 9)                                    # the Allied (2nd player) Movement Phase
    mech = [charts.interdiction_cost(d, "mechanised") for d in (2, 1, 0)]
    assert eng.query("route", units=["UK-7RTR"], to="C1012")["mp"] == 3 + sum(mech)
    e = eng.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-7RTR"], "path": ["C1014", "C1013", "C1012"]}))
    assert eng.state.units["UK-7RTR"].loc == "C1012"
    assert eng.pending().context["moved"]["UK-7RTR"] == (3 + sum(mech)) * tec.EIGHTH
    assert any(f"{3 + sum(mech)} MP" in ev for ev in e.events)


def test_19_6_interdiction_does_not_touch_friendly_moves_or_hexes_beyond_two(gm):
    eng = setup()
    interdict(eng, "GE-FFAfrika", "C1012")
    assert eng.query("interdiction_cost", hex="C1012", side=AXIS) == 0              # friendly units: nothing
    assert eng.query("interdiction_cost", hex="C1015", side=ALLIED) == 0            # three hexes away
    assert eng.query("interdiction_cost", hex="C1012", side=ALLIED, move_class="foot") == charts.interdiction_cost(0, "foot")
    overlay = eng.query("interdiction_cost")
    assert overlay["C1012"]["side"] == AXIS and overlay["C1012"]["text"].startswith("✈")
    assert "C1015" not in overlay


def test_19_6_interdiction_limits_what_the_enemy_can_reach_and_reaction_moves(gm):
    eng = setup()
    before = set(eng.query("reachable", units=["UK-7RTR"]))
    interdict(eng, "GE-FFAfrika", "C1013")
    d = advance_to(eng, 7, "reaction")                    # 13.5: the Allied Reaction Phase pays it too
    assert d.side == ALLIED
    after = eng.query("reachable", units=["UK-7RTR"])
    assert set(after) < before
    for o in d.options:
        if o.action.kind == "move":
            fork(eng).apply(o.action)                         # every sampled reaction move is still legal


def test_19_6_air_unit_stays_until_the_end_of_the_next_enemy_movement_phase_then_damage_check_19_3(gm):
    eng = setup()
    interdict(eng, "GE-FFAfrika", "C1012")
    advance_to(eng, 9)
    assert "C1012" in eng.state.vars["interdiction"]        # still there through VII, VIII and into IX
    eng.dice = ScriptedDice([2, 3])                          # 19.3: 5, undamaged
    eng.apply(Action(kind="done", side=ALLIED))
    assert "interdiction" not in eng.state.vars
    u = eng.state.units["GE-FFAfrika"]
    assert u.loc == NA and u.flags.get("based")              # back in its holding box, based side up


def test_19_6_damaged_interdictor_goes_to_the_turn_record_track_19_3(gm):
    eng = setup()
    interdict(eng, "GE-FFAfrika", "C1012")
    advance_to(eng, 9)
    eng.dice = ScriptedDice([6, 6])
    eng.apply(Action(kind="done", side=ALLIED))
    assert eng.state.units["GE-FFAfrika"].loc == f"track:TRT:{eng.state.gt + 2}"


def test_19_6_mission_may_last_into_the_next_gt():
    """Placed in the 2nd player's Follow-on Movement Phase (XV): the next enemy Movement Phase is next GT's."""
    eng = setup(phase=15, first=ALLIED)                       # Axis is the 2nd player: XV is Axis
    interdict(eng, "GE-FFAfrika", "C1012")
    air_missions.end_interdiction(eng, 15)                   # the Axis phase itself does not end it
    assert "C1012" in eng.state.vars["interdiction"]
    eng.state.gt += 1
    eng.dice = ScriptedDice([1, 1])
    air_missions.end_interdiction(eng, 6)                    # next GT, the Allied (1st player) Movement Phase
    assert "interdiction" not in eng.state.vars and eng.state.units["GE-FFAfrika"].flags.get("based")


def test_19_6_only_one_air_unit_may_interdict_a_hex(gm):
    eng = setup()
    interdict(eng, "GE-FFAfrika", "C1012")
    before = eng.state.units["GE-StGI"].loc
    with pytest.raises(IllegalAction) as exc:
        interdict(eng, "GE-StGI", "C1012")
    assert exc.value.rule == "19.6" and "only one air unit" in exc.value.reason
    assert eng.state.units["GE-StGI"].loc == before
    interdict(eng, "GE-StGI", "C1013")                        # a neighbouring hex is fine
    # the areas overlap: a hex within two of both pays the highest cost only (R-AIR-INTERDICTION)
    gs_bonus = 1                                              # StG I: ground support 2 (chart note)
    assert eng.query("interdiction_cost", hex="C1013", side=ALLIED) == charts.interdiction_cost(0, "mechanised") + gs_bonus


@pytest.mark.parametrize("uid,loc,flags,rule", [
    ("UK-201Group", air.box(ALLIED, "NorthAfrica"), {}, "19.6"),            # not Axis
    ("GE-FFAfrika", NA, {"based": True}, "19.6; 19.1"),                     # based
    ("GE-FFAfrika", air.box(AXIS, "Superiority"), {}, "19.2 Exception"),
    ("GE-FFAfrika", air.box(AXIS, "AvailableNext"), {}, "19.1 Important"),
])
def test_19_6_refusals_cite_the_rule_and_leave_the_state_untouched(gm, uid, loc, flags, rule):
    eng = setup()
    eng.state.units[uid] = unit(uid, AXIS if uid.startswith("GE") else ALLIED, loc, flags=flags)
    h = eng.hash()
    with pytest.raises(IllegalAction) as exc:
        interdict(eng, uid, "C1012")
    assert exc.value.rule == rule
    assert eng.hash() == h


def test_19_6_needs_a_ground_support_rating_and_the_area_of_operations_19_1(gm):
    eng = setup(extra=[unit("IT-2AS", AXIS, air.box(AXIS, "Crete"))])
    with pytest.raises(IllegalAction) as exc:                 # Crete Box: Maps C and W only (19.1.1)
        interdict(eng, "IT-2AS", "L2817")
    assert exc.value.rule == "19.6; 19.1"
    eng.state.units["AX-Base#1"].loc = "A1001"               # no supplied base near Map C any more
    with pytest.raises(IllegalAction) as exc:
        interdict(eng, "GE-FFAfrika", "C1012")
    assert exc.value.rule == "19.6; 19.1"
    eng2 = engine_at_movement([unit("UK-201Group", ALLIED, air.box(ALLIED, "NorthAfrica")),
                               unit("AL-Base#1", ALLIED, "C2331", active=True)], phase=9)
    with pytest.raises(IllegalAction, match="no ground support rating") as exc:
        interdict(eng2, "UK-201Group", "C1012", side=ALLIED)
    assert exc.value.rule == "19.6"


def test_19_6_ghibli_bans_interdiction_21_2_1(gm):
    eng = setup()
    assert air.air_mission_allowed(eng, "C1012")              # a clear hex: Ghiblis affect desert and rough (21.2)
    gm.set_hex("C1012", "desert")
    eng.state.gt = 12                                         # May 1941: Ghiblis possible
    eng.state.ghibli = True
    eng.state.vars["weather_rules"] = True                   # the optional weather rules (21.0) in use
    assert not air.air_mission_allowed(eng, "C1012")
    with pytest.raises(IllegalAction) as exc:
        interdict(eng, "GE-FFAfrika", "C1012")
    assert exc.value.rule == "21.2.1"
    assert "interdiction" not in eng.state.vars
    offered = [o.action.args["hex"] for o in fork(eng).pending().options if o.action.kind == "interdict"]
    assert "C1012" not in offered and not any(combat.ghibli_hex(eng.state, h) for h in offered)


def test_19_6_sampled_interdiction_options_are_accepted(gm):
    eng = setup()
    opts = [o for o in eng.pending().options if o.action.kind in ("interdict", "air_bombard")]
    assert 1 <= len(opts) <= 3
    assert any(o.action.kind == "interdict" for o in opts)
    for o in opts:
        fork(eng).apply(o.action)


def test_axc_16_a_operation_c3_air_units_fly_no_interdiction(gm):
    from core.rules import events

    uid = sorted(events.c3_sicily_air())[0]
    eng = setup(extra=[unit(uid, AXIS, air.box(AXIS, "Sicily"), flags={"arrived_by": "AXC-16 a)"})])
    h = eng.hash()
    with pytest.raises(IllegalAction) as exc:
        interdict(eng, uid, "T5010")
    assert exc.value.rule == "AXC-16 a)" and eng.hash() == h
