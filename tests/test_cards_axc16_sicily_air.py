"""23.2 AXC-16 a) Operation C3: the air units the card data lists for GT 8 arrive in the Sicily Box, may only be
deployed in Sicily (19.1) and fly no other missions until the Malta invasion is conducted or cancelled."""

from __future__ import annotations

import copy

import pytest

from core import cards
from core.decisions import AXIS, Action, IllegalAction
from core.rules import air, events, reinforcements, strikes
from tests.test_events_cards import make, put


def c3_in_play(gt=8):
    eng = make("desert-war", gt=gt)
    eng.state.initiative = AXIS
    events.put_in_play(eng, "AXC-16", "AXC-5 and ALC-12 have been played (23.2 AXC-16)")
    reinforcements.materialize(eng)
    return eng


def named():
    return [u for a in cards.card("AXC-16").reinforcements if a.gt == 8 for u in a.units]


def test_axc_16_a_card_data_names_the_gt8_air_units_and_they_arrive_in_the_sicily_box():
    eng = c3_in_play()
    c = eng.state.cards["AXC-16"]
    assert c.get("declared_gt") is None                    # put in play, not declared (c, d)
    assert set(events.c3_sicily_air()) == set(named()) and named()
    for uid in named():
        assert eng.state.units[uid].loc == air.box(AXIS, "Sicily")
        assert events.c3_air_restricted(eng, uid)


def test_axc_16_a_arrives_at_once_when_put_in_play_after_gt8():
    eng = c3_in_play(gt=11)
    assert all(eng.state.units[u].loc == air.box(AXIS, "Sicily") for u in named())


def test_axc_16_a_deployment_refuses_other_boxes_and_leaves_state_untouched():
    eng = c3_in_play(gt=9)
    uid = named()[0]
    assert air.legal_boxes(eng, uid) == [air.box(AXIS, "Sicily")]
    eng.push("air_deploy", step="II.2")                      # the initiative (Axis) player deploys
    eng._settle()
    d = eng.pending()
    while d.context.get("unit") != uid:
        eng.apply(Action(kind="air_stay", side=AXIS, args={"unit": d.context["unit"]}))
        d = eng.pending()
    assert all(o.action.args.get("to") in (None, air.box(AXIS, "Sicily")) for o in d.options
               if o.action.args.get("unit") == uid)
    before = copy.deepcopy(eng.state.units)
    bad = Action(kind="air_deploy", side=AXIS, args={"unit": uid, "to": air.box(AXIS, "NorthAfrica")})
    with pytest.raises(IllegalAction):
        eng.apply(bad)                                      # not offered
    from core.engine import PROCEDURES
    with pytest.raises(IllegalAction) as e:
        PROCEDURES["air_deploy"].apply(eng, eng.state.stack[-1], bad)
    assert "AXC-16 a" in e.value.rule
    assert eng.state.units == before


def test_axc_16_a_no_other_missions_only_for_the_named_units():
    eng = c3_in_play(gt=9)
    uid = named()[0]
    assert "AXC-16 a" in (strikes.striker_refusal(eng, uid, "Malta") or "")
    put(eng, "GE-FKII", air.box(AXIS, "Sicily"))
    eng.state.units["GE-FKII"].flags = {"arrived_by": "23.2 AXC-16 a"}   # not on the card's GT 8 list
    assert not events.c3_air_restricted(eng, "GE-FKII")
    assert "AXC-16 a" not in (strikes.striker_refusal(eng, "GE-FKII", "Malta") or "")


@pytest.mark.parametrize("how", ["cancelled", "resolved"])
def test_axc_16_a_restriction_lifts_when_the_invasion_is_conducted_or_cancelled(how):
    eng = c3_in_play(gt=21)
    uid = named()[0]
    assert events.c3_air_restricted(eng, uid)
    if how == "cancelled":
        events.put_in_play(eng, "AXC-16", "test", {"act": "cancel"})
    else:
        eng.state.cards["AXC-16"]["resolved_gt"] = 21
    assert not events.c3_air_restricted(eng, uid)
    assert len(air.legal_boxes(eng, uid)) > 1


def test_axc_16_a_no_ground_support_from_the_restricted_units():
    eng = c3_in_play(gt=21)
    eng.state.vars["fna_in_play"] = True
    uid = named()[0]
    put(eng, "GE-FKII", air.box(AXIS, "Sicily"))                  # not on the card's list: may support
    for u in eng.state.units.values():
        if u.loc in ("T5010", "T5011"):
            u.loc = "removed"
    put(eng, "GE-5Pz", "T5010")
    put(eng, "UK-7RTR", "T5011")
    eng.state.phase, eng.state.first_player = 8, AXIS
    eng.push("resolve_combat", attackers=["GE-5Pz"], hex="T5011")
    eng._settle()
    d = eng.pending()
    assert d.kind == "combat_support" and d.side == AXIS
    supporters = {o.action.args.get("unit") for o in d.options if o.action.kind == "support"}
    assert "GE-FKII" in supporters and uid not in supporters
