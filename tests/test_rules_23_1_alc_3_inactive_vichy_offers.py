"""23.1 ALC-3 "These units are not active until ALC-23 (Operation Torch Invasion) is played": the Movement Phase
never offers an order that names an inactive Vichy French unit, since it refuses every such order (one gate,
``fna.inactive_named``; R-VICHY-INACTIVE).  The fuzzer found the engine offering a 14.9.1 deliberate battle marker
for a Vichy French unit next to an Axis unit and then refusing it (issue 16: an offered option refused).

That position came from an Axis unit driven into Tunisia before ALC-23.  Since 22.7 keeps "all hexes in Algeria and
Tunisia" out of play until then (R-FNA-HEXES), no Axis unit can stand next to an inactive Vichy French unit in play:
the play path (Rommel's War, seed 4, both sides played by the random bot through ``Engine.apply``) checks every
Allied Movement decision offers no such order and that no Axis unit enters French North Africa; the position the
fuzzer found is rebuilt by hand on a copy of that game (an Axis unit next to Tunis T6017, the other Axis units
off the map) to show the offer is filtered there too.
"""

from __future__ import annotations

from core import mapdata
from core.bots import RandomBot
from core.decisions import ALLIED, AXIS, Action
from core.dice import SeededDice
from core.hexgrid import Hex
from core.rules import combat, fna, movement
from tests.playpath import Play


def test_alc_3_no_movement_option_names_an_inactive_vichy_french_unit():
    p = Play("rommels-war", seed=4)
    eng, bot = p.eng, RandomBot(4)
    md = mapdata.load()
    with_vf = 0
    for _ in range(1300):
        d = eng.pending()
        assert d is not None
        if d.kind == "movement" and d.side == ALLIED:
            named = [o.action for o in d.options if fna.inactive_named(eng.state, o.action.args)]
            assert not named, f"GT {eng.state.gt}: offered orders for inactive Vichy French units: {named[:3]}"
            with_vf += any(fna.inactive_vf(eng.state, u) for u in eng.state.units_of(ALLIED))
        in_fna = [u.id for u in eng.state.units_of(AXIS) if (h := movement.hex_of(u)) is not None and md.in_fna(h)]
        assert not in_fna, f"GT {eng.state.gt}: Axis units in Algeria or Tunisia before ALC-23 (22.7): {in_fna}"
        eng.apply(bot.choose(d))
    assert with_vf, "no Allied Movement decision had an inactive Vichy French unit: the test proves nothing"


def test_alc_3_no_battle_marker_offered_for_an_inactive_vichy_french_unit_next_to_an_axis_unit():
    """Hand-built on a copy of Rommel's War at its first Allied Movement decision (the position is out of reach of
    play since R-FNA-HEXES): 5 Pz next to the Vichy French at Tunis, T6016; the other Axis units off the map, so the
    sampled battle markers are those of the stack next to it.  None is offered for the inactive VF units, and one
    asked for is refused citing 23.1 ALC-3."""
    p = Play("rommels-war", seed=4)
    p.to("movement", side=ALLIED)
    eng = p.eng.fork(SeededDice())
    st = eng.state
    for u in st.units.values():
        if u.side == AXIS and movement.hex_of(u) is not None:
            u.loc = "box:Refit:Axis"
    st.units["GE-5Pz"].loc = "T6016"
    assert Hex.parse("T6016") in Hex.parse("T6017").neighbours()
    assert combat.enemy_hexes_adjacent(st, ALLIED, "T6017") == ["T6016"]
    vf = [u.id for u in st.units_at("T6017") if fna.inactive_vf(st, u)]
    assert vf
    d = eng.pending()
    assert d.kind == "movement" and d.side == ALLIED
    assert not [o.action for o in d.options if fna.inactive_named(st, o.action.args)]
    before = eng.hash()
    try:
        eng.apply(Action(kind="battle_marker", side=ALLIED, args={"units": [vf[0]], "form": "deliberate"}))
    except Exception as exc:       # IllegalAction
        assert getattr(exc, "rule", "") == "23.1 ALC-3", exc
    else:
        raise AssertionError("a battle marker on an inactive Vichy French unit was accepted")
    assert eng.hash() == before
