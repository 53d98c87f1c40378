"""23.1 ALC-3 "These units are not active until ALC-23 (Operation Torch Invasion) is played": the Movement Phase
never offers an order that names an inactive Vichy French unit, since it refuses every such order (one gate,
``fna.inactive_named``; R-VICHY-INACTIVE).  The fuzzer found the engine offering a 14.9.1 deliberate battle marker
for a Vichy French unit next to an Axis unit and then refusing it (issue 16: an offered option refused).

Play path: Rommel's War, seed 4, both sides played by the random bot through ``Engine.apply`` until the Allied
Movement decision of GT 18 where an Axis unit stands next to an inactive Vichy French unit.
"""

from __future__ import annotations

from core.bots import RandomBot
from core.decisions import ALLIED
from core.rules import combat, fna
from tests.playpath import Play


def test_alc_3_no_movement_option_names_an_inactive_vichy_french_unit():
    p = Play("rommels-war", seed=4)
    eng, bot = p.eng, RandomBot(4)
    next_to_enemy = 0
    for _ in range(1300):
        d = eng.pending()
        assert d is not None
        if d.kind == "movement" and d.side == ALLIED:
            named = [o.action for o in d.options if fna.inactive_named(eng.state, o.action.args)]
            assert not named, f"GT {eng.state.gt}: offered orders for inactive Vichy French units: {named[:3]}"
            next_to_enemy += any(fna.inactive_vf(eng.state, u) and combat.enemy_hexes_adjacent(eng.state, ALLIED, u.loc)
                                 for u in eng.state.units_of(ALLIED) if u.loc[:1] in "AT")
        eng.apply(bot.choose(d))
    # the position the test is about was reached: an inactive VF unit next to an Axis unit in a Movement Phase
    assert next_to_enemy, "no inactive Vichy French unit was next to an Axis unit: the test proves nothing"
