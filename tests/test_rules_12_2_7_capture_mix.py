"""12.2.7 capture with the counter mix exhausted (2.4: the number of MSU and dumps is a limit)."""

from core.counters import all_counters
from core.dice import ScriptedDice, SeededDice
from core.engine import Engine
from core.newgame import initial_state
from core.rules import supply
from core.scenario import load
from core.state import UnitState


def test_12_2_7_capture_with_no_free_counter_destroys_the_supply_unit():
    dice = ScriptedDice([], fallback=SeededDice())
    eng = Engine(initial_state(load("sonnenblume"), 1), dice)
    dice.push(1)
    st = eng.state
    mix = all_counters()["AX-MSU"].mix
    for n in range(1, mix + 1):  # every Axis MSU counter in play (2.4)
        st.units.setdefault(f"AX-MSU#{n}", UnitState(id=f"AX-MSU#{n}", side="Axis", loc="C0701"))
    st.units["AL-MSU#9"] = UnitState(id="AL-MSU#9", side="Allied", loc="C1010")
    before = len(st.units)
    supply.capture_supply(eng, "C1010", "Axis", hq=False)   # die 1: captured... but no counter is free
    assert "AL-MSU#9" not in st.units
    assert len(st.units) == before - 1
    assert sum(1 for u in st.units if u.startswith("AX-MSU#")) == mix
    assert any("counter is in play" in e and "2.4" in e for e in eng._events), eng._events
