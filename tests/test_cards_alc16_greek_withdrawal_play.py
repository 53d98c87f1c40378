"""23.1 ALC-16 Greek Campaign b) from the real Desert War set-up (28.0) through ``Engine.apply`` only
(tests/playpath.py): the Axis declares AXC-5 (Parallel War), ALC-12 (Taranto) is played on GT 9 (a), and ALC-16 is
put in play the GT after both; in the first Allied Movement Phase of GT 10 the Allies must withdraw four steps of
non-parenthesised infantry with a CF above one and two steps of tanks, placed on the MET Greece track the GT after."""

from __future__ import annotations

from core.decisions import ALLIED, Decision
from tests.playpath import Play


def _parallel_war_and_taranto(d: Decision):
    return next((o.action for o in d.options if o.action.kind == "play_card"
                 and o.action.args.get("card") in ("ALC-12", "AXC-5")), None)


def test_23_1_alc_16_b_play_path_desert_war_greek_withdrawal_four_infantry_and_two_armour_steps():
    p = Play("desert-war", seed=1)
    d = p.to("greek_withdrawal", script={"events": _parallel_war_and_taranto})
    assert (p.state.gt, p.eng.step.key, d.side, d.rule) == (10, "VI.3", ALLIED, "23.1 ALC-16 b")
    assert "withdraw 4 more infantry and 2 more armour steps" in d.prompt
    n = len(p.eng.log)
    p.act("greek_withdraw", unit="AU-16AusBG")
    p.act("greek_withdraw", unit="AU-17AusBG")
    d = p.pending
    assert d.kind == "greek_withdrawal" and "withdraw 0 more infantry and 2 more armour steps" in d.prompt
    assert {o.action.args["unit"] for o in d.options} == {"UK-4LtArm", "UK-7LtArm", "UK-7RTR"}
    assert "ALC-16" in p.refuse("done", side=ALLIED).rule           # armour steps still owed and available
    p.act("greek_withdraw", unit="UK-7LtArm")
    assert p.pending.kind != "greek_withdrawal"
    assert [e for e in p.events(since=n) if "withdrawn for the Greek expedition" in e] == [
        f"{u} is withdrawn for the Greek expedition (23.1 ALC-16 b)" for u in ("AU-16AusBG", "AU-17AusBG", "UK-7LtArm")]
    p.to("events", side=ALLIED, gt=11)
    assert {p.state.units[u].loc for u in ("AU-16AusBG", "AU-17AusBG", "UK-7LtArm")} == {"track:MET-Greece"}


def test_23_1_alc_16_f_play_path_desert_war_met_greece_deactivated_puts_axc_13_crete_garrison_in_play():
    """ALC-16 f): "When the track is deactivated, AXC-13 (Crete Garrison) is activated" (23.2 AXC-13: put into play
    on the GT after the MET Greece Track is deactivated); the same game, the Allies withdrawing the first units
    offered, reaches it on GT 13 with the seeded dice."""
    p = Play("desert-war", seed=1)
    p.run(lambda eng: eng.state.cards.get("AXC-13", {}).get("status") == "in_play",
          script={"events": _parallel_war_and_taranto, "greek_withdrawal": lambda d: d.options[0].action})
    events = p.events()
    off = events.index("MET Greece is deactivated (22.2.2)")
    assert events.index("AXC-13 Crete Garrison is played: scheduled (23.2 AXC-13; 22.3) (23.2 AXC-13)") > off
    assert p.state.cards["AXC-13"]["plays"] == 1 and p.state.gt == 13
