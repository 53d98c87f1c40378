"""The computer opponent's mobile battles (issue 21 "exploits breakthroughs"; 14.9.2, 14.9.3; ``core.ai.battle_forms``).

Reached by play: Sonnenblume from its set-up, both sides the AI (seed 1, quick), every action through
``Engine.apply``.  The AI marks mobile units for a mobile battle at the end of its Movement Phase and declares the
mobile battle in the Combat Phase that follows.  Its exploitation of a vacated hex (14.9.3,
``core.ai.combat_choices.exploit``) is tested in tests/test_ai_combat_choices.py."""

from __future__ import annotations

import pytest

from core.ai import AIPlayer
from core.ai import battle_forms
from core.rules import combat
from core.rules.special_units import info, is_mobile
from tests.playpath import Play


@pytest.fixture(scope="module")
def game() -> list[tuple[str, dict, dict]]:
    """(kind, args, facts at the moment) of every battle marker and declaration of the game, both sides the AI."""
    p = Play("sonnenblume", seed=1)
    ais = {s: AIPlayer(s, 1, "quick") for s in ("Axis", "Allied")}
    seen: list[tuple[str, dict, dict]] = []
    for _ in range(6000):
        d = p.pending
        if d is None:
            break
        a = ais[d.side].choose(d, p.eng) if d.side in ais else d.options[0].action
        if a.kind == "battle_marker":
            st = p.state
            facts = {uid: {"mobile": is_mobile(st, uid), "loc": st.units[uid].loc,
                           "fronts": [h for h in combat.enemy_hexes_adjacent(st, a.side, st.units[uid].loc)
                                      if any(v.side != a.side and info(st, v.id).is_combat for v in st.units_at(h))]}
                     for uid in a.args["units"]}
            seen.append(("battle_marker", dict(a.args, side=a.side), facts))
        elif a.kind == "exploit":
            seen.append(("exploit", dict(a.args, side=a.side), {"gt": p.state.gt, "phase": p.state.phase}))
        elif a.kind == "declare":
            seen.append(("declare", dict(a.args, side=a.side), {"gt": p.state.gt, "phase": p.state.phase}))
        p.eng.apply(a)
    return seen


def test_14_9_2_the_ai_marks_mobile_units_for_a_mobile_battle_and_declares_it(game):
    """14.9.2 "Mark them with mobile battle markers when their movement is completed": every marker the AI places is
    a mobile one, on mobile units, and the units it marked then attack together in a mobile battle of one hex."""
    marks = [(args, facts) for k, args, facts in game if k == "battle_marker"]
    assert marks, "the AI placed no battle marker in a whole game"
    assert all(args["form"] == "mobile" for args, _ in marks)             # deliberate battle is not chosen
    assert all(f["mobile"] for _, facts in marks for f in facts.values())
    mobile_declares = [args for k, args, _ in game if k == "declare" and args["form"] == "mobile"]
    assert mobile_declares
    assert all(len(a["hexes"]) == 1 for a in mobile_declares)              # "Only one ... hex may be attacked"
    marked = {u for args, _ in marks for u in args["units"]}
    assert all(set(a["attackers"]) <= marked for a in mobile_declares)


def test_14_2_the_ai_marks_only_units_that_face_a_single_enemy_hex(game):
    """14.2 Important: "If a unit attacks, then all defending units projecting a ZOC onto that attacker's hex must be
    attacked"; a mobile battle attacks one hex (14.9.2), so the AI marks only units next to one enemy stack."""
    for k, args, facts in game:
        if k == "battle_marker":
            assert all(len(f["fronts"]) <= 1 for f in facts.values()), (args, facts)


def test_mobile_candidates_leave_out_a_city_hex_and_units_that_may_not_attack():
    """14.9.2 "Only one unfortified, non-city, non-mountain hex may be attacked": from the Sonnenblume set-up no
    candidate targets a city (Tobruk C2331, Benghazi) or a fortified hex, and no candidate unit is a supply unit."""
    p = Play("sonnenblume", seed=1)
    p.to("movement", side="Axis")
    st = p.state
    cands = battle_forms.mobile_candidates(p.eng, "Axis")
    for h, units in cands.items():
        assert not combat.obstructed(st, h)
        assert all(combat.may_attack(st, u) is None and is_mobile(st, u) for u in units)

