"""23.1 ALC-20 Brigade Groups, played from rommels-war's set-up (32.0: ALC-14 played before the start, ALC-20 active)
through ``Engine.apply`` only: "a) When played the Allied player rolls 1d6 and adds 20 to the result. b) If the
result is equal to or less than the current GT number, the Allied player receives the reinforcements listed on the
card on the GTs listed."  7.1: "A unit made available by an event arrives on the GT indicated, or on the GT the card
is played if its arrival date has already passed."  5.0: "unless specified otherwise each occurs only once per game"
(R-EV-ALC20).  The die of the card's roll is scripted; every other die is the game's own."""

from __future__ import annotations

from core.decisions import ALLIED
from core.dice import ScriptedDice, SeededDice
from core.rules import events
from tests.playpath import Play

LISTED_GT = 21          # the card's reinforcements are listed on GT 21 (resources/cards/allied.toml)


def offered(eng, card: str) -> bool:
    d = eng.pending()
    return bool(d and d.kind == "events" and d.side == ALLIED
                and any(o.action.args.get("card") == card for o in d.options))


def at_events(gt: int) -> Play:
    p = Play("rommels-war", dice=ScriptedDice([], fallback=SeededDice()))
    assert events.listed_gts("ALC-20") == [LISTED_GT]
    p.run(lambda eng: eng.state.gt == gt and offered(eng, "ALC-20"))
    return p


def scheduled(p: Play) -> list[dict]:
    return [r for r in p.state.vars.get("reinf", []) if "ALC-20" in r["rule"]]


def test_23_1_alc_20_success_after_gt_21_units_arrive_on_the_gt_played_7_1():
    p = at_events(23)
    assert not scheduled(p)
    p.eng.dice.push(3)                                  # 3 + 20 = 23 <= GT 23
    p.act("play_card", card="ALC-20")
    got = scheduled(p)
    assert got and all(r["gt"] == 23 for r in got)     # listed GT 21 has passed: the GT of play (7.1)
    assert {r["unit"] for r in got} >= {"UK-150", "UK-69", "UK-151"}
    assert p.state.cards["ALC-20"]["success_gt"] == 23


def test_23_1_alc_20_limit_roll_equal_to_the_gt_succeeds_one_more_fails_and_the_card_is_resolved_once():
    p = at_events(23)
    p.eng.dice.push(4)                                  # 4 + 20 = 24 > GT 23: no reinforcements
    p.act("play_card", card="ALC-20")
    assert not scheduled(p) and p.state.cards["ALC-20"]["status"] == "discarded"
    assert any("R-EV-ALC20" in e for e in p.events())
    p.run(lambda eng: eng.state.gt == 24 and eng.pending() is not None and eng.pending().kind == "events"
          and eng.pending().side == ALLIED)
    assert not offered(p.eng, "ALC-20")                 # 5.0: occurs once - not replayed until it succeeds
