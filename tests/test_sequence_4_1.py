"""4.1 Turn Sequence: every phase in order with the right active side; 6.1 initiative; 3.1 set-up."""

from __future__ import annotations

import pytest

from core import sequence
from core.decisions import ALLIED, AXIS, EITHER, Action, IllegalAction
from core.dice import ScriptedDice


def expected_side(step: sequence.Step, initiative: str, first: str) -> str | None:
    return sequence.side_of(step.role, initiative, first)


def place_setup(eng):
    """3.1: the Allied player places KDG within 2 hexes of C0603."""
    d = eng.pending()
    assert d.kind == "setup_place" and d.side == ALLIED and d.rule == "26.2"
    assert {o.label for o in d.options} >= {"C0603", "C0605"}
    eng.apply(Action(kind="place", side=ALLIED, args={"unit": "UK-KDG", "hex": "C0604"}))
    assert eng.state.units["UK-KDG"].loc == "C0604"


def test_setup_within_n_3_1_refuses_too_far(walk_engine):
    eng = walk_engine()
    before = eng.hash()
    with pytest.raises(IllegalAction, match="within 2"):
        eng.apply(Action(kind="place", side=ALLIED, args={"unit": "UK-KDG", "hex": "C0610"}))
    with pytest.raises(IllegalAction, match="Allied player's turn"):
        eng.apply(Action(kind="place", side=AXIS, args={"unit": "UK-KDG", "hex": "C0603"}))
    assert eng.hash() == before


def test_two_full_gts_visit_all_20_phases_in_order(walk_engine):
    # GT 5: 2+3 = 5 No Change (Axis keeps), Axis chooses to be 2nd.
    # GT 6: 6+6 = 12 Change, Surprise: Allies take the initiative and choose 1st (6.2).
    # GT 5 XVIII: 5 Pz (no base on the map) is isolated when the 2nd player's GenS is determined at IX.1
    # (4.1 IX "in the same order and manner as Phase VI") and checks supply attrition (12.5.1): 1 passes.
    eng = walk_engine(dice=ScriptedDice([2, 3, 1, 6, 6, 1]))
    place_setup(eng)
    visited: list[tuple[int, int, int, str]] = []
    while (d := eng.pending()) is not None:
        st = eng.state
        step = sequence.phase(st.phase).steps[st.step - 1]
        want = expected_side(step, st.initiative, st.first_player)
        assert want is not None, f"auto step {step.key} should never wait for a player"
        if want == EITHER:
            assert d.side in (EITHER, AXIS, ALLIED)
        else:
            assert d.side == want, f"GT {st.gt} {step.key}: expected {want}, got {d.side}"
        visited.append((st.gt, st.phase, st.step, d.side))
        if d.kind == "choose_first_player":
            first = st.gt == 6
            eng.apply(Action(kind="choose_first", side=d.side, args={"first": first}))
            if st.gt == 5:
                assert eng.state.first_player == ALLIED and eng.state.initiative == AXIS
            else:
                assert eng.state.initiative == ALLIED and eng.state.first_player == ALLIED and eng.state.surprise
        else:
            eng.apply(d.options[0].action)
    phases_by_gt = {gt: [p for g, p, _, _ in visited if g == gt] for gt in (5, 6)}
    for gt in (5, 6):
        seen = sorted(set(phases_by_gt[gt]))
        # every phase with a player step is visited, in order (XVIII-XX are automatic)
        assert seen == list(range(1, 18))
        assert phases_by_gt[gt] == sorted(phases_by_gt[gt])
    # the movement phases alternate 1st/2nd player: GT 5 Allied is 1st, GT 6 Allied again (with surprise)
    assert ("VI", ALLIED) in {(sequence.ROMAN[p - 1], s) for g, p, _, s in visited if g == 5 and p == 6}
    assert ("IX", AXIS) in {(sequence.ROMAN[p - 1], s) for g, p, _, s in visited if g == 5 and p == 9}
    assert eng.state.result is not None and eng.state.gt == 6  # 4.1 XX a): marker reached the end box
    attrition = [(e.rolls, ev) for e in eng.log for ev in e.events if "supply attrition, 12.5.1" in ev]
    assert [r for r, _ in attrition] == [[1], [1]] and all("5 Pz" in ev for _, ev in attrition)
    # the log's phase headings show all 20 phases of GT 6, in order, automatic ones (XVIII-XX) included
    headings = [e for entry in eng.log for e in entry.events if e.startswith("GT 6 — Phase ")]
    assert [h.split("Phase ")[1].split(".")[0] for h in headings] == list(sequence.ROMAN)


def test_previous_gt_status_until_phase_v(walk_engine):
    """4.1 Important: before Phase V the initiative/1st player are last GT's."""
    eng = walk_engine(dice=ScriptedDice([6, 6]))
    place_setup(eng)
    while eng.state.phase < 5:
        d = eng.pending()
        step = sequence.phase(eng.state.phase).steps[eng.state.step - 1]
        if step.role == "both":
            eng.apply(d.options[0].action)
            continue
        assert d.side == sequence.side_of(step.role, AXIS, AXIS)
        eng.apply(d.options[0].action)
    assert eng.state.initiative == AXIS
    eng.apply(Action(kind="roll_initiative", side=AXIS))
    assert eng.state.initiative == ALLIED and eng.state.surprise  # 12: Change, Surprise
    assert eng.log[-1].rolls == [6, 6]


def test_surprise_lost_if_initiative_player_goes_second_6_2(walk_engine):
    eng = walk_engine(dice=ScriptedDice([6, 6]))
    place_setup(eng)
    while eng.pending().kind != "choose_first_player":
        eng.apply(eng.pending().options[0].action)
    eng.apply(Action(kind="choose_first", side=ALLIED, args={"first": False}))
    assert not eng.state.surprise and eng.state.first_player == AXIS


def test_illegal_action_leaves_state_untouched(walk_engine):
    eng = walk_engine()
    place_setup(eng)
    before = eng.hash()
    d = eng.pending()
    wrong = AXIS if d.side == ALLIED else ALLIED
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="done", side=wrong))
    assert exc.value.rule  # every refusal cites a rule
    with pytest.raises(IllegalAction):
        eng.apply(Action(kind="teleport", side=d.side))
    assert eng.hash() == before


def test_undo_back_to_last_roll_or_other_side(walk_engine):
    eng = walk_engine(dice=ScriptedDice([3, 3]))
    place_setup(eng)                       # Allied action
    h_after_setup = eng.hash()
    d = eng.pending()                      # I.2 non-initiative = Allied
    assert d.side == ALLIED
    eng.apply(d.options[0].action)
    assert eng.can_undo(ALLIED) and not eng.can_undo(AXIS)
    with pytest.raises(IllegalAction, match="Only the Allied"):
        eng.apply(Action(kind="undo", side=AXIS))
    eng.apply(Action(kind="undo", side=ALLIED))
    assert eng.hash() == h_after_setup
    eng.apply(Action(kind="undo", side=ALLIED))  # the set-up placement itself, also Allied
    assert eng.state.units["UK-KDG"].loc == "setup"
    with pytest.raises(IllegalAction, match="Nothing to take back"):
        eng.apply(Action(kind="undo", side=ALLIED))


def test_undo_stops_at_die_roll(walk_engine):
    eng = walk_engine(dice=ScriptedDice([3, 3]))
    place_setup(eng)
    while eng.pending().kind != "initiative_roll":
        eng.apply(eng.pending().options[0].action)
    eng.apply(Action(kind="roll_initiative", side=AXIS))
    assert not eng.can_undo(AXIS)


def test_end_scenario_marker_moves_are_recorded_4_0(walk_engine):
    from core.engine import move_end_scenario_marker

    eng = walk_engine()
    move_end_scenario_marker(eng, +2, "test event", "ALC-14")
    assert eng.state.end_gt == 8 and eng.state.es_history[-1]["rule"] == "ALC-14"


def test_scenario_start_mid_turn_sonnenblume_gt10_phase12():
    from core.engine import Engine
    from core.newgame import initial_state
    from core.scenario import load

    eng = Engine(initial_state(load("sonnenblume"), 3))
    while eng.pending().kind == "setup_place":
        eng.apply(eng.pending().options[0].action)
    assert (eng.state.gt, eng.state.phase) == (10, 12)
    assert eng.state.surprise and eng.state.initiative == AXIS
    assert eng.pending().side == AXIS  # Phase XII: 1st player movement


def test_setup_refuses_sea_and_prohibited_terrain_3_1():
    """3.1 ranges may reach into the sea (26.2 forts on or adjacent to Tobruk): those hexes are not offered."""
    from core.engine import Engine
    from core.newgame import initial_state
    from core.scenario import load

    eng = Engine(initial_state(load("sonnenblume"), 1))
    d = eng.pending()
    labels = {o.label for o in d.options}
    assert "C2331" in labels and "C2431" not in labels and "C2430" not in labels
    before = eng.hash()
    with pytest.raises(IllegalAction, match="sea hex"):
        eng.apply(Action(kind="place", side=d.side, args={"unit": d.context["unit"], "hex": "C2431"}))
    assert eng.hash() == before


def test_end_scenario_marker_stays_on_the_turn_record_track_4_0(walk_engine):
    from core.engine import TRT_LAST_GT, move_end_scenario_marker

    eng = walk_engine()
    move_end_scenario_marker(eng, +50, "test event", "ALC-14")
    assert eng.state.end_gt == TRT_LAST_GT == 38
    move_end_scenario_marker(eng, -99, "test event", "ALC-14")
    assert eng.state.end_gt == eng.state.gt  # never before the current GT
