"""23.1 ALC-16 b) Greek Campaign: in the first Allied Movement Phase of the activation GT the Allied player must
withdraw at least four steps of non-parenthesised infantry (CF > 1) and two steps of tanks/armour.  The engine
refuses to end the obligation while eligible units remain; only a genuine shortfall ends it short, logged."""

from __future__ import annotations

import copy

import pytest

from core.decisions import ALLIED, Action, IllegalAction
from core.rules import events, obligations, offmap
from tests.test_events_cards import make, put


def greek_gt(units):
    eng = make(gt=8)
    for u in [u for u in eng.state.units.values() if u.side == ALLIED]:
        u.loc = offmap.REMOVED            # a clean board: only the units the test places
    eng.state.phase, eng.state.first_player = 6, ALLIED
    events.put_in_play(eng, "ALC-16", "test")
    for i, (uid, loc) in enumerate(units):
        put(eng, uid, loc, side=ALLIED)
    eng.push("greek_withdrawal", step="VI.3")
    eng._settle()
    return eng


def test_alc_16_b_done_refused_while_eligible_units_remain_and_state_untouched():
    eng = greek_gt([("UK-7RTR", "W1510"), ("UK-4LtArm", offmap.NRV), ("UK-2Arm", "box:Torch")])
    d = eng.pending()
    assert d.kind == "greek_withdrawal" and d.rule == "23.1 ALC-16 b"
    offered = {o.action.args.get("unit") for o in d.options}
    assert "done" not in {o.action.kind for o in d.options}
    assert {"UK-7RTR", "UK-4LtArm"} <= offered and "UK-2Arm" not in offered   # R-EV-ALC16B-POOL
    before = copy.deepcopy(eng.state)
    with pytest.raises(IllegalAction) as e:
        eng.apply(Action(kind="done", side=ALLIED))
    assert "ALC-16" in e.value.rule and eng.state.hash() == before.hash()
    from core.engine import PROCEDURES
    with pytest.raises(IllegalAction, match="Greek"):
        PROCEDURES["greek_withdrawal"].apply(eng, eng.state.stack[-1], Action(kind="done", side=ALLIED))
    assert eng.state.hash() == before.hash()


def test_alc_16_b_minimum_met_ends_the_obligation():
    eng = greek_gt([("UK-7RTR", "W1510"), ("UK-1Tank", "W1511"), ("UK-32Tank", "W1512")])
    eng.state.vars["greek_withdrawal"]["withdrawn_steps"] = {"infantry": 4}
    for uid in ("UK-7RTR", "UK-1Tank"):
        if obligations.obligation(eng) and uid in obligations.eligible(eng):
            eng.apply(Action(kind="greek_withdraw", side=ALLIED, args={"unit": uid}))
    rec = eng.state.vars["greek_withdrawal"]
    assert rec.get("done") and not any(obligations.owed(rec).values()) and "short" not in rec
    assert eng.state.units["UK-32Tank"].loc == "W1512"


def test_alc_16_b_genuine_shortfall_ends_short_and_is_logged():
    eng = greek_gt([("UK-7RTR", "W1510")])
    d = eng.pending()
    assert [o.action.args.get("unit") for o in d.options] == ["UK-7RTR"]   # no "done" while 7 RTR is eligible
    eng.apply(Action(kind="greek_withdraw", side=ALLIED, args={"unit": "UK-7RTR"}))
    d = eng.pending()
    assert d.kind == "greek_withdrawal" and [o.action.kind for o in d.options] == ["done"]
    eng.apply(Action(kind="done", side=ALLIED))
    rec = eng.state.vars["greek_withdrawal"]
    assert rec["done"] and rec["short"]["infantry"] == 4
    text = " ".join(e for le in eng.log for e in getattr(le, "events", []))
    assert "short" in text and "ALC-16 b" in text
