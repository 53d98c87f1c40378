"""6.1 "rolls 2d6, applying the DRM as listed" with the DRM a card grants: 23.1 ALC-13 ULTRA, "During each Events
Phase (beginning the GT after activation) the Allied player may choose one of the listed benefits"; influencing the
initiative: "The Allied player rolls 1d6 with a result of 6, giving the Allied player a -3 DRM" (Example of Play;
R-INIT-ULTRA).  Play path: trail-of-the-fox (30.0; ULTRA in play), GT 32, only ``Engine.apply``."""

from __future__ import annotations

from core.decisions import ALLIED
from core.dice import ScriptedDice, SeededDice
from tests.playpath import Play


def to_ultra_choice(p: Play):
    return p.run(lambda eng: eng.pending() is not None and eng.pending().kind == "card_choice"
                 and any(o.action.args.get("card") == "ALC-13" for o in eng.pending().options))


def roll_initiative(p: Play, *dice: int) -> list[str]:
    p.run(lambda eng: eng.pending() is not None and eng.pending().kind == "initiative_roll")
    n = len(p.eng.log)
    p.eng.dice.push(*dice)
    p.act("roll_initiative")
    return p.events(since=n)


def test_6_1_alc_13_ultra_die_rolled_with_the_initiative_and_its_drm_applied():
    p = Play("trail-of-the-fox", dice=ScriptedDice([], fallback=SeededDice()))
    to_ultra_choice(p)
    p.act("card_choice", side=ALLIED, card="ALC-13", benefit="initiative")
    ev = roll_initiative(p, 6, 3, 3)                 # the ULTRA die 6 first, then the 2d6
    assert any("ULTRA influences the initiative DR" in e and "rolled 6" in e for e in ev)
    line = next(e for e in ev if e.startswith("Initiative:"))
    assert "ULTRA die 6 (ALC-13)" in line
    roller = line.split()[1]
    assert ("-3 (ULTRA" in line) == (roller == ALLIED) and ("+3 (ULTRA" in line) == (roller != ALLIED)


def test_6_1_no_ultra_die_without_the_initiative_benefit():
    p = Play("trail-of-the-fox", dice=ScriptedDice([], fallback=SeededDice()))
    to_ultra_choice(p)
    p.act("card_choice", side=ALLIED, card="ALC-13", benefit="none")
    ev = roll_initiative(p, 3, 3)
    assert not any("ULTRA" in e for e in ev)
