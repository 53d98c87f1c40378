"""22.7 "The seven French North Africa (FNA) Boxes, plus all hexes in Algeria and Tunisia (maps A and T) are out of play
until the Allies execute Operation Torch Invasion (ALC-23)" (2.2.4: "all hexes in Algeria and Tunisia located on Maps
A, T and L"; ruling R-FNA-HEXES).

Play path: the North African Campaign (33.0, "Maps in Play: All maps") from its real set-up, driven only by
``Engine.apply``: the Italian 10 Bersaglieri at Tripoli (L2817, AXC-1) reach the Libyan frontier hex L2908 in their
first Movement Phase; the next hex west, L2907, is in Tunisia and is neither offered nor accepted, and a retreat from
L2908 may not enter it either.  ALC-23 is years away (23.1 ALC-21 a: "starting GT 27").
"""

from __future__ import annotations

from msgspec.structs import replace

import pytest

from core import mapdata
from core.dice import SeededDice
from core.hexgrid import Hex
from core.rules import combat, movement, offmap
from tests.playpath import Play

LAST = "L2908"          # Libya: the last hex west the Italians may enter
FIRST = "L2907"         # Tunisia (Maps L and T): the first hex out of play
UNIT = "IT-10Ber"


@pytest.fixture(scope="module")
def nac() -> Play:
    p = Play("north-african-campaign", seed=1)
    p.to("movement", side="Axis")
    return p


def test_22_7_boundary_hexes_are_neighbours_on_either_side_of_the_frontier():
    md = mapdata.load()
    last, first = Hex.parse(LAST), Hex.parse(FIRST)
    assert last.distance(first) == 1
    assert not md.in_fna(last) and md.in_fna(first)


def test_22_7_move_into_tunisia_before_alc_23_is_refused_by_apply_and_never_offered(nac):
    p = nac
    assert offmap.fna_hexes_out_of_play(p.state) and p.state.cards["ALC-23"]["status"] == "deck"
    reach = movement.query_reachable(p.eng, [UNIT], with_paths=True)
    assert LAST in reach and FIRST not in reach
    md = mapdata.load()
    assert not [h for h in reach if md.in_fna(Hex.parse(h))]
    for o in p.pending.options:
        if o.action.kind == "move":
            assert not any(md.in_fna(Hex.parse(x)) for x in o.action.args["path"]), o.action.args
    path = reach[LAST]["path"]
    exc = p.refuse("move", units=[UNIT], path=path + [FIRST])
    assert exc.rule == "22.7" and "Algeria and Tunisia are out of play" in str(exc) and "ALC-23" in str(exc)
    # passing through Tunisia to come back into Libya is refused at the step into Tunisia too
    exc = p.refuse("move", units=[UNIT], path=path + [FIRST, "L3008"])
    assert exc.rule == "22.7"


def test_22_7_the_last_libyan_hex_is_entered_and_a_retreat_from_it_stays_out_of_tunisia():
    p = Play("north-african-campaign", seed=1)
    p.to("movement", side="Axis")
    path = movement.query_reachable(p.eng, [UNIT], with_paths=True)[LAST]["path"]
    p.act("move", units=[UNIT], path=path)
    assert p.state.units[UNIT].loc == LAST
    steps = combat.legal_retreat_steps(p.state, UNIT, [LAST], 3)
    assert FIRST not in steps and "L2909" in steps
    assert all(not mapdata.load().in_fna(Hex.parse(s)) for s in steps)


def test_22_7_sf_landings_and_drops_read_the_same_refusal(nac):
    """``offmap.map_refusal`` (SF landings 15.4, airdrops 15.5) refuses a Tunisian hex citing 22.7 and accepts the
    Libyan hex beside it."""
    assert offmap.map_refusal(nac.state, LAST) is None
    why = offmap.map_refusal(nac.state, FIRST)
    assert why and "(22.7)" in why


def test_22_7_hexes_come_into_play_when_alc_23_is_played(nac):
    """The limit: once ALC-23 is played ("in_play"), the same hex is in play (a copy of the state; the card is played
    on the play path in ``tests/test_rules_22_7_inactive_vichy.py``)."""
    st = nac.state
    played = replace(st, cards=dict(st.cards) | {"ALC-23": dict(st.cards["ALC-23"], status="in_play")})
    assert not offmap.fna_hexes_out_of_play(played) and offmap.map_refusal(played, FIRST) is None
    assert movement.off_play_ids(played).isdisjoint({movement.tec.hex_id(Hex.parse(FIRST))})
    assert movement.tec.hex_id(Hex.parse(FIRST)) in movement.off_play_ids(st)


@pytest.mark.parametrize("scenario, out", [
    ("north-african-campaign", True),   # 33.0 "Maps in Play: All maps"; ALC-23 in the deck
    ("rommels-war", True),              # 32.0's own Maps in Play line replaces 29.0's (R-FNA-HEXES)
    ("desert-war", True),               # 28.2 "All remaining cards except ALC-21 through ALC-28": never in play
    ("run-for-tunis", False),           # 29.0 "French North Africa is in play."
    ("tunisian-campaign", False),       # 31.0 "All rules in 29.0 and 30.0 apply"
    ("trail-of-the-fox", False),        # 30.0 after Torch, "The Axis control all hexes" (R-FNA-HEXES)
])
def test_22_7_which_scenarios_start_with_algeria_and_tunisia_out_of_play(scenario, out):
    p = Play(scenario, seed=1)
    assert offmap.fna_hexes_out_of_play(p.state) is out


def test_22_7_20_2_1_axis_ocean_shipping_reaches_no_port_in_algeria_or_tunisia_before_alc_23_play_path():
    """20.2.1 "to any Axis controlled ports in North Africa": before ALC-23 the ports of Algeria and Tunisia are out of
    play (22.7) and nobody's (29.0, which 32.0 includes: "The Axis control all hexes in Libya"), so Rommel's War's
    first Axis ocean shipping (GT 11 IV.4, both sides played by the random bot through ``Engine.apply``) offers the
    Libyan ports (Tripoli L2817) and none on French North African hexes (it offered Bougie, Algiers, Gabes, Tunis...
    and landed MSUs at Gabes and Bougie before R-FNA-HEXES)."""
    from core.bots import RandomBot
    from core.rules import naval, victory_rules

    p = Play("rommels-war", seed=4)
    bot = RandomBot(4)
    for _ in range(2000):
        d = p.pending
        if d.kind == "ocean_shipping" and d.side == "Axis":
            break
        p.eng.apply(bot.choose(d))
    d = p.pending
    md = mapdata.load()
    dests = {str(o.action.args.get("to")) for o in d.options if o.action.args.get("to")}
    ports = {x for x in dests if x[:1] in "ALST" and x[1:].isdigit()}
    assert "L2817" in ports
    assert not [x for x in ports if md.in_fna(Hex.parse(x))], sorted(ports)
    # neither side's: the Vichy French hold French North Africa by the scenario's control lines (R-VIC-CONTROL)
    assert victory_rules.controller(p.eng, "T3516") == "VF" and victory_rules.controller(p.eng, "A6113") == "VF"
    assert "T3516" not in naval.friendly_ports(p.eng, "Axis") and "L2817" in naval.friendly_ports(p.eng, "Axis")


def test_22_7_12_2_4_no_primary_base_in_a_tunisian_port_before_alc_23(nac):
    """12.2.4 "any friendly port with a capacity of three or more": Tunis (T6017, four boxes) recorded Axis on a copy
    of the North African Campaign's position is no place for the primary base while Tunisia is out of play, and is
    once ALC-23 has been played (the limit)."""
    from msgspec.structs import replace as _replace
    from core.rules import supply

    st = nac.eng.fork(SeededDice()).state
    st.control["T6017"] = "Axis"
    assert "T6017" not in supply.primary_placements(st) and "L2817" in supply.primary_placements(st)
    played = _replace(st, cards=dict(st.cards) | {"ALC-23": dict(st.cards["ALC-23"], status="in_play")})
    assert "T6017" in supply.primary_placements(played)
