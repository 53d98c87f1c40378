"""30.2 "Units enter at any hex on the east edge of Map S on the turns indicated": the GT 31 arrivals of Trail of the
Fox, due at the scenario's start (GT 31 Phase XII), are set up by the Allied player in the east-edge hexes he chooses
(R-SC-TOTF-EDGE), not all in C0201; the computer opponent spreads them within the stacking limits (10.2)."""

from __future__ import annotations

from collections import Counter

from core.ai.player import AIPlayer
from core.bots import RandomBot
from core.engine import Engine
from core.newgame import initial_state
from core.rules import stacking, tec
from core.scenario import load
from tests.playpath import Play

EDGE = ["C0201", "C0301", "C0401", "C0501", "C0601", "C0701"]     # the land hexes of Map S's column 34


def test_gt31_arrivals_are_set_up_on_any_east_edge_hex_but_el_agheila_held_by_the_axis() -> None:
    p = Play("trail-of-the-fox", seed=1)
    d = p.to("setup_place", side="Allied")
    assert d.context["unit"] == "UK-30Corps" and "east edge of Map S" in d.prompt
    assert d.context["hexes"] == EDGE[:5]                       # C0701: the Panzerarmee's arrivals (R-REINF-ENEMY-HEX)
    offered = {o.action.args["hex"] for o in d.options}
    assert offered == {"C0201", "C0301", "C0401"}              # 30 Corps is trucked: no marsh (C0501, C0601; 13.3)
    assert p.refuse("place", unit="UK-30Corps", hex="C0701").rule == "30.2"
    assert p.refuse("place", unit="UK-30Corps", hex="S0233").rule == "30.2"    # column 33: not the edge
    p.act("place", unit="UK-30Corps", hex="C0401")
    assert p.state.units["UK-30Corps"].loc == "C0401"
    d = p.run(until=lambda eng: eng.pending().context.get("unit") == "UK-152")
    assert {o.action.args["hex"] for o in d.options} == set(EDGE[:5])        # foot: the marsh too

def test_the_ai_spreads_the_arrivals_within_the_stacking_limits() -> None:
    eng = Engine(initial_state(load("trail-of-the-fox"), 1))
    ai, axis = AIPlayer("Allied", 1), RandomBot(1, "Axis")
    while eng.pending().kind != "movement":
        d = eng.pending()
        eng.apply(ai.choose(d, eng) if d.side == "Allied" else axis.choose(d, eng))
    pts: Counter = Counter()
    for u in eng.state.units_of("Allied"):
        if u.loc in EDGE:
            pts[u.loc] += stacking.stacking_points(u)
    assert sum(pts.values()) == 25 and len(pts) >= 4
    assert all(n <= stacking.limit(tec.current_map(), h) for h, n in pts.items())
