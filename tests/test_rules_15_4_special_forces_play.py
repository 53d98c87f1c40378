"""15.4 Special Forces at sea, played from the Run for Tunis set-up (29.0: GT 30, the Allies move first with
1 Commando, 6 Commando and 1st Rangers in the Torch Box) through ``Engine.apply`` only: the ``sf_sea`` order of
the Movement Phase lands SF on any coastal hex (unoccupied: an opposed landing in the Combat Phase against a
defence of 1; friendly-occupied: straight in, no further movement, emergency supply), evacuates them from a
coastal hex to a port or shipping box, never from one coastal hex to another; they use no sealift capacity."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.engine import Engine
from core.newgame import initial_state
from core.rules import naval, special_forces
from core.scenario import load
from tests.ground_helpers import play_until

KIND = special_forces.KIND
BEACH = "A6112"          # a clear, non-port coastal hex of Map A, next to Algiers (A6201), empty at GT 30
OTHER_BEACH = "A6114"    # another non-port coastal hex
TORCH = "box:Torch"


until = play_until


def run_for_tunis(seed: int = 1) -> Engine:
    eng = Engine(initial_state(load("run-for-tunis"), seed))
    until(eng, "movement")
    assert eng.pending().side == ALLIED and eng.state.phase == 6
    return eng


def sail(eng: Engine, units: list[str], to: str):
    return eng.apply(Action(kind=KIND, side=ALLIED, args={"units": units, "to": to}))


def land_on_the_beach(eng: Engine):
    """1 Cdo sails for BEACH in VI and lands there in VIII (the opposed landing against an empty hex)."""
    sail(eng, ["UK-1Cdo"], BEACH)
    d = until(eng, "combat_declare", 8)
    landing = [o.action for o in d.options if o.action.args.get("form") == "amphibious" and o.action.args["hexes"] == [BEACH]]
    assert landing == [Action(kind="declare", side=ALLIED, args={"attackers": ["UK-1Cdo"], "hexes": [BEACH], "form": "amphibious"})]
    eng.apply(landing[0])
    events = []
    for _ in range(40):
        if eng.state.phase != 8:
            break
        d = eng.pending()
        e = eng.apply(next((o.action for o in d.options if o.action.kind in ("done", "resolve")), d.options[0].action))
        events += e.events
    return events


def test_15_4_sf_in_an_at_sea_box_land_on_an_unoccupied_coastal_hex_as_an_opposed_landing():
    eng = run_for_tunis()
    d = eng.pending()
    assert KIND in d.free_kinds
    assert [o for o in d.options if o.action.kind == KIND]            # sampled sea moves are offered
    e = sail(eng, ["UK-1Cdo"], BEACH)
    assert eng.state.units["UK-1Cdo"].loc == TORCH                  # it waits at sea for the Combat Phase (20.5)
    assert "opposed landing" in " ".join(e.events)
    with pytest.raises(IllegalAction, match="has moved"):
        sail(eng, ["UK-1Cdo"], OTHER_BEACH)
    events = []
    d = until(eng, "combat_declare", 8)
    eng.apply(next(o.action for o in d.options if o.action.args.get("hexes") == [BEACH]))
    for _ in range(40):
        if eng.state.phase != 8:
            break
        d = eng.pending()
        events += eng.apply(next((o.action for o in d.options if o.action.kind in ("done", "resolve")),
                                 d.options[0].action)).events
    odds = next(ev for ev in events if " to 1 = " in ev or " to 1 " in ev)
    assert " to 1" in odds                                          # "the hex has a defense factor of 1"
    u = eng.state.units["UK-1Cdo"]
    assert u.loc == BEACH, events
    assert "sf_landing" not in u.flags


def test_15_4_sf_landing_in_a_friendly_occupied_hex_moves_straight_in_and_no_further():
    eng = run_for_tunis()
    land_on_the_beach(eng)
    until(eng, "movement", 12)                                      # the Allies' follow-on Movement Phase
    sail(eng, ["UK-6Cdo"], BEACH)
    u = eng.state.units["UK-6Cdo"]
    assert u.loc == BEACH and u.emergency                           # 15.4: emergency supply for the impulse
    with pytest.raises(IllegalAction):
        eng.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-6Cdo"], "path": [OTHER_BEACH]}))


def test_15_4_sf_evacuation_from_a_coastal_hex_to_a_shipping_box_not_to_another_coastal_hex():
    eng = run_for_tunis()
    land_on_the_beach(eng)
    until(eng, "movement", 12)
    before = eng.state.hash()
    with pytest.raises(IllegalAction, match="coastal hex to another coastal hex") as e:
        sail(eng, ["UK-1Cdo"], OTHER_BEACH)
    assert e.value.rule == "15.4" and eng.state.hash() == before
    sail(eng, ["UK-1Cdo"], TORCH)
    assert eng.state.units["UK-1Cdo"].loc == TORCH


def test_15_4_sf_landing_refused_on_a_map_not_in_play():
    """15.4 "SF can be sealifted from a friendly port to any coastal hex" of the maps in play: 29.0 "Maps in Play: Use
    maps A and T", so a non-port coastal hex of Map L is refused, naming the maps in play (limit: Map A is landed)."""
    from core import mapdata
    from core.rules import combat

    eng = run_for_tunis()
    md = mapdata.load()
    lbeach = next(h.label for h in md.hexes() if h.sheets == ("L",) and combat.coastal(h.label)
                  and not special_forces.is_port(h.label))
    before = eng.state.hash()
    with pytest.raises(IllegalAction, match="Maps in Play: A, T") as e:
        sail(eng, ["UK-1Cdo"], lbeach)
    assert e.value.rule == "15.4" and eng.state.hash() == before
    sail(eng, ["UK-1Cdo"], BEACH)
    assert eng.state.units["UK-1Cdo"].flags["sf_landing"]["hex"] == BEACH


def test_15_4_a_declared_sf_landing_must_be_made():
    """15.4 "If the hex is unoccupied, the SF unit(s) must make an opposed landing": after 1 Cdo sails for the beach,
    the Allied Combat Phase (VIII) refuses *done* (rule 15.4) until the landing is declared, and offers it."""
    eng = run_for_tunis()
    sail(eng, ["UK-1Cdo"], BEACH)
    d = until(eng, "combat_declare", 8)
    assert not [o for o in d.options if o.action.kind == "done"]
    assert any("must be made" in r for r in d.context["required"])
    before = eng.state.hash()
    with pytest.raises(IllegalAction, match="must make an opposed landing") as e:
        eng.apply(Action(kind="done", side=ALLIED))
    assert e.value.rule == "15.4" and eng.state.hash() == before
    eng.apply(next(o.action for o in d.options if o.action.args.get("hexes") == [BEACH]))
    assert [o for o in eng.pending().options if o.action.kind == "done"]     # declared: the phase may go on


def test_15_4_a_landing_the_combat_phase_cannot_offer_is_logged_as_not_made():
    """A declared landing the Combat Phase could not offer (20.5: more steps than the hex's stacking limit, or a land
    attack already declared on the hex) is not owed; at the end of the Combat Phase the log says it was not made and
    the units stay where they sailed from (20.5 "return to their point of origin").  No scenario position found puts
    the Torch Box's SF over a beach's stacking limit, so after a real sailing (play path) the phase-end step is called
    directly, as the engine calls it when VIII ends; a landing that was made leaves nothing to log (the play-path
    tests above run the whole phase)."""
    eng = run_for_tunis()
    sail(eng, ["UK-1Cdo"], BEACH)
    until(eng, "combat_declare", 8)
    eng._events.clear()
    special_forces.drop_landing_marks(eng, 8)
    assert len(eng._events) == 1 and f"did not make its declared landing on {BEACH}: it stays in {TORCH}" in eng._events[0]
    assert eng.state.units["UK-1Cdo"].loc == TORCH and "sf_landing" not in eng.state.units["UK-1Cdo"].flags


def test_15_4_only_special_forces_sail_this_way():
    eng = run_for_tunis()
    with pytest.raises(IllegalAction, match="not a special forces unit") as e:
        eng.apply(Action(kind=KIND, side=ALLIED, args={"units": ["US-1Arm"], "to": BEACH}))
    assert e.value.rule == "15.4"
    with pytest.raises(IllegalAction, match="not a coastal hex"):
        sail(eng, ["UK-1Cdo"], "A5805")                               # inland clear hex


def test_15_4_sf_use_no_sealift_capacity():
    """15.4 Sealift: "They are always able to move freely by sea and do not count against port or sealift capacity"."""
    eng = run_for_tunis()
    assert naval.boxes_needed("UK-1Cdo", 1) == 0 and naval.boxes_needed("US-1Rangers", 1) == 0
    assert naval.boxes_needed("UK-1Para", 2) == 1                    # airborne, not SF: one box for two steps
    st = eng.state
    assert naval.cargo_boxes([st.units["UK-1Cdo"], st.units["UK-6Cdo"], st.units["US-1Rangers"]]) == 0
    assert naval.cargo_boxes([st.units["UK-1Cdo"], st.units["UK-1Para"]]) == 1


def test_15_4_sf_using_sealift_cannot_be_struck():
    """15.4: "SF units using sealift cannot be attacked by naval air or fleet strikes": cargo on a lane this GT."""
    from core.rules import strikes

    eng = run_for_tunis()
    strikes.record_cargo(eng, "TestLane", "UK-1Cdo")
    strikes.record_cargo(eng, "TestLane", "UK-1Para")
    assert strikes.cargo(eng, "TestLane") == ["UK-1Para"]


# --------------------------------------------------------------------------- 15.4 Ground Transport
# The hand-built positions below test the limits; the play-path twin reaches the same rule in Desert Fox, where
# 1 Commando arrives with ALC-8's GT 11 reinforcements (27.2) and is deployed to the NRV with 11 Hussars.

def _to_nrv(d):
    """At the Reinforcement Phase (III.1), deploy each waiting unit that may go to the NRV there (7.1)."""
    return next((o.action for o in d.options if o.action.kind == "deploy" and o.action.args.get("to") == "box:NRV"),
                None)


def desert_fox_gt12(dice=None):
    from tests.playpath import Play

    return Play("desert-fox", seed=1, dice=dice), {"reinforce": _to_nrv}


def test_15_4_sf_ground_transport_play_path():
    """Desert Fox, GT 12: 1 Cdo and 11 Hussars enter the map from the NRV at W2234 (IX); in the next Allied Movement
    Phase (XV) 11 Hussars carries 1 Cdo "as though the motorized unit was an MSU" three hexes along the coast road,
    the commando spending no MP of its own; after the drop it may move one hex on its own (limit), not two
    (limit + 1: "The SF unit may move no more than one hex on its own during the same Movement Phase")."""
    p, dep = desert_fox_gt12()
    p.to("movement", side=ALLIED, gt=12, script=dep)
    first = p.state.phase
    p.act("move", side=ALLIED, units=["UK-11Huss", "UK-1Cdo"], enter="box:NRV", path=["W2234"])
    p.run(lambda e: e.pending() is not None and e.pending().kind == "movement" and e.pending().side == ALLIED
          and e.state.phase != first, script=dep)
    assert p.state.units["UK-1Cdo"].loc == p.state.units["UK-11Huss"].loc == "W2234"
    p.act("move", side=ALLIED, units=["UK-11Huss", "UK-1Cdo"], lift=True, path=["W2233", "W2232", "W2132"])
    assert p.state.units["UK-1Cdo"].loc == "W2132" and p.pending.context["moved"]["UK-1Cdo"] == 0
    exc = p.refuse("move", side=ALLIED, units=["UK-1Cdo"], path=["W2131", "W2130"])
    assert exc.rule.startswith("13.7")
    p.act("move", side=ALLIED, units=["UK-1Cdo"], path=["W2131"])
    assert p.state.units["UK-1Cdo"].loc == "W2131"


def _ground(units):
    from tests.ground_helpers import engine_at_movement, unit

    return engine_at_movement([unit(u, ALLIED, loc, steps=s) for u, loc, s in units], first=ALLIED)


def test_15_4_sf_carried_by_a_motorised_unit_as_though_it_was_an_msu(gm):
    eng = _ground([("UK-1Cdo", "C1010", 1), ("UK-KDG", "C1010", 1)])
    eng.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-KDG", "UK-1Cdo"], "lift": True,
                                                      "path": ["C1011", "C1012", "C1013"]}))
    assert eng.state.units["UK-1Cdo"].loc == "C1013"
    moved = eng.pending().context["moved"]
    assert moved["UK-1Cdo"] == 0                                       # carried: no MP of its own
    with pytest.raises(IllegalAction):                                 # "no more than one hex on its own"
        eng.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-1Cdo"], "path": ["C1014", "C1015"]}))
    eng.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-1Cdo"], "path": ["C1014"]}))


def test_15_4_a_motorised_unit_carries_one_sf_unit_and_no_other_foot_unit(gm):
    eng = _ground([("UK-1Cdo", "C1010", 1), ("UK-6Cdo", "C1010", 1), ("UK-KDG", "C1010", 1), ("UK-69", "C1010", 1)])
    with pytest.raises(IllegalAction) as e:                           # two SF, one carrier: limit + 1
        eng.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-KDG", "UK-1Cdo", "UK-6Cdo"], "lift": True,
                                                          "path": ["C1011"]}))
    assert e.value.rule == "15.4"
    with pytest.raises(IllegalAction) as e:                           # 13.7: other foot units need an MSU
        eng.apply(Action(kind="move", side=ALLIED, args={"units": ["UK-KDG", "UK-69"], "lift": True, "path": ["C1011"]}))
    assert e.value.rule == "13.7"


# --------------------------------------------------------------------------- 15.4 Allied Raids on Crete
# The play path: Desert War (28.0, every card and MET track in use) from its real set-up.  The Allies play ALC-12
# (Taranto) and the Axis AXC-5 (Parallel War) when offered, which puts ALC-16 (MET Greece) in play; Layforce and
# 1 Cdo are deployed to the NRV when they arrive.  The Greece track is deactivated at the end of GT 12 (ALC-16: "the
# fall of Crete"), Crete becomes Axis (22.3) and AXC-13 is played; in GT 13's Allocation Phase the Axis deploys its
# air unit Libya to Crete (22.3 "The Axis player may deploy air units to Crete in the ensuing Allocation Phase"), and
# at II.3 the Allies may raid.  Before that, Crete is out of play (22.3) and no raid is offered (it was offered from
# GT 11 on, a raid on an island out of play that could cost the raider).


def _to_nrv_and_play_greece(d):
    if d.kind == "reinforce":
        return _to_nrv(d)
    if d.kind == "events":
        return next((o.action for o in d.options if o.action.kind == "play_card"
                     and o.action.args.get("card") in ("ALC-12", "AXC-5")), None)
    if d.kind == "air_deploy":
        return next((o.action for o in d.options if o.action.kind == "air_deploy"
                     and o.action.args.get("to") == "box:Crete"), None)
    return None


@pytest.fixture(scope="module")
def crete_raid_gt13():
    from core.dice import ScriptedDice, SeededDice
    from core.rules import offmap
    from tests.playpath import Play

    p = Play("desert-war", seed=1, dice=ScriptedDice([], fallback=SeededDice()))
    offered = []

    def record(d):
        offered.append((p.state.gt, dict(d.context)))
        return next(o.action for o in d.options if o.action.kind == "done")

    script = {k: _to_nrv_and_play_greece for k in ("reinforce", "events", "air_deploy")} | {"crete_raid": record}
    d = p.run(lambda e: e.pending() is not None and e.pending().kind == "crete_raid" and bool(e.pending().context["air"]),
              script=script, limit=100000)
    offered.append((p.state.gt, dict(d.context)))
    assert offmap.crete_in_play(p.eng)
    return p, offered


def test_15_4_22_3_no_crete_raid_while_crete_is_out_of_play_play_path(crete_raid_gt13):
    """22.3 "Crete ... is out of play until the MET Greece Track is deactivated": Layforce waits in the NRV from GT 11,
    and the first raid is offered in GT 13, the GT after the track's deactivation (the limit: GT 12 is not)."""
    p, offered = crete_raid_gt13
    assert [gt for gt, _ in offered] == [13]
    assert p.state.cards["ALC-16"]["status"] != "in_play" or p.state.vars.get("crete_axis")
    assert p.state.cards["AXC-13"]["status"] == "in_play"


def test_15_4_crete_raid_damage_check_on_the_axis_air_unit_deployed_on_crete_play_path(crete_raid_gt13):
    """15.4 d) "If the SF passes the morale check, one Axis air unit deployed on Crete must conduct a damage check
    (19.3)": 19.3 (2d6, +1 while the Allies hold air superiority): 8 or less, it stays on Crete based side up (the
    limit); 9-10, to the TRT for the next GT (limit + 1); 11 or more, two GTs.  A failed morale check (c) makes no
    damage check.  Each outcome on a fork of the same GT 13 II.3 position with the dice given."""
    from core.dice import ScriptedDice

    p, _ = crete_raid_gt13
    d = p.pending
    assert (p.state.gt, p.eng.step.key) == (13, "II.3") and d.side == ALLIED
    assert d.context["air"] == ["IT-Libya"] and d.context["garrison"] == 0
    assert "UK-1Cdo" in d.context["raiders"] and p.state.units["IT-Libya"].loc == "box:Crete"
    mod = 1 if p.state.air_superiority == ALLIED else 0
    raid = Action(kind="crete_raid", side=ALLIED, args={"units": ["UK-1Cdo"]})
    for dice, where, result in (((1, 4, 4 - mod), "box:Crete", "based"), ((1, 4, 5 - mod), "track:TRT:14", "trt+1"),
                                ((1, 5, 6 - mod), "track:TRT:15", "trt+2"), ((6, 2), "box:Crete", None)):
        eng = p.eng.fork(ScriptedDice(list(dice)))
        e = eng.apply(raid)
        libya = eng.state.units["IT-Libya"]
        assert libya.loc == where, (dice, libya.loc)
        damage = [ev for ev in e.events if "damage check after the raid" in ev]
        assert (damage == [] if result is None else result in damage[0]), (dice, e.events)
        assert eng.state.units["UK-1Cdo"].loc == "box:NRV"
        if result == "based":
            assert libya.flags.get("based")


def _crete(units, dice):
    from core.engine import Engine as _E
    from tests.ground_helpers import engine_at_movement, unit

    st = engine_at_movement([unit(u, side, loc) for u, side, loc in units], phase=2, step=3, first=ALLIED,
                            vars={"crete_axis": True}).state      # 22.3: Crete in play (MET Greece deactivated)
    return _E(st, dice)


def test_15_4_crete_raid_is_offered_after_the_air_deployment_and_a_pass_damages_an_axis_air_unit():
    from core.dice import ScriptedDice

    eng = _crete([("UK-Layforce", ALLIED, "box:NRV"), ("UK-1Cdo", ALLIED, "W2232"), ("GE-StGI", "Axis", "box:Crete"),
                  ("GE-Hecker", "Axis", "box:Crete")], ScriptedDice([1, 6, 6]))
    d = eng.pending()
    assert d.kind == "crete_raid" and d.side == ALLIED and set(d.context["raiders"]) == {"UK-Layforce"} | (
        {"UK-1Cdo"} if special_forces.is_port("W2232") else set())
    assert d.context["garrison"] == 0 and d.context["air"] == ["GE-StGI"]
    e = eng.apply(Action(kind="crete_raid", side=ALLIED, args={"units": ["UK-Layforce"]}))
    assert any("passes" in ev for ev in e.events)                      # die 1: passes
    assert eng.state.units["GE-StGI"].loc.startswith("track:TRT:")     # 6 + 6 = 12: 19.3 TRT in two GTs
    assert eng.state.units["UK-Layforce"].loc == "box:NRV"


@pytest.mark.parametrize("second_die, where", [(1, "box:Refit:Allied"), (2, "box:NRV")])
def test_15_4_crete_raid_failure_one_goes_to_the_refit_box_else_the_nrv(second_die, where):
    from core.dice import ScriptedDice

    eng = _crete([("UK-Layforce", ALLIED, "box:NRV"), ("GE-StGI", "Axis", "box:Crete")], ScriptedDice([6, second_die]))
    eng.apply(Action(kind="crete_raid", side=ALLIED, args={"units": ["UK-Layforce"]}))
    assert eng.state.units["UK-Layforce"].loc == where
    assert eng.state.units["GE-StGI"].loc == "box:Crete"               # no damage check after a failure


def test_15_4_crete_raid_axis_infantry_on_crete_adds_to_the_die():
    from core.counters import all_counters
    from core.dice import ScriptedDice

    inf = next(c.id for c in all_counters().values() if c.side == "Axis" and c.kind == "combat" and c.nato == "infantry"
               and c.steps == 1 and not c.divisional)
    morale = all_counters()["UK-Layforce"].morale
    die = 6 - morale                                                   # passes alone (limit), fails with +1
    eng = _crete([("UK-Layforce", ALLIED, "box:NRV"), (inf, "Axis", "box:Crete")], ScriptedDice([die, 2]))
    assert eng.pending().context["garrison"] == 1
    e = eng.apply(Action(kind="crete_raid", side=ALLIED, args={"units": ["UK-Layforce"]}))
    assert any("fails" in ev for ev in e.events)


def test_15_4_no_sf_no_crete_raid_decision():
    from core.dice import ScriptedDice

    eng = _crete([("UK-KDG", ALLIED, "box:NRV"), ("GE-StGI", "Axis", "box:Crete")], ScriptedDice([]))
    assert eng.pending().kind != "crete_raid"


def test_15_4_sf_carried_onto_the_map_from_the_nrv_spends_no_mp_of_its_own_play_path():
    """13.7 Truck Lift / 15.4 Ground Transport entering the map (13.8, 22.1 d): 11 Hussars carries 1 Cdo from the NRV
    in at W2234 and on to W2233; the carrier pays the entry (14 road hexes) and the commando nothing (before this
    ruling the commando paid its own foot entry cost, 7 MP, as though it walked); after the drop it may move its RMA,
    one hex (limit), not two (limit + 1)."""
    p, dep = desert_fox_gt12()
    p.to("movement", side=ALLIED, gt=12, script=dep)
    p.act("move", side=ALLIED, units=["UK-11Huss", "UK-1Cdo"], lift=True, enter="box:NRV", path=["W2234", "W2233"])
    moved = p.pending.context["moved"]
    assert moved["UK-1Cdo"] == 0 and moved["UK-11Huss"] > 0
    exc = p.refuse("move", side=ALLIED, units=["UK-1Cdo"], path=["W2232", "W2132"])
    assert exc.rule.startswith("13.7")
    p.act("move", side=ALLIED, units=["UK-1Cdo"], path=["W2232"])
    assert p.state.units["UK-1Cdo"].loc == "W2232"


def test_15_4_a_landing_the_combat_phase_cannot_offer_is_not_made_play_path():
    """The play-path twin of the test above, the whole Combat Phase through ``Engine.apply``: GT 30, 1 Cdo lands
    beside Algiers (A6202, an opposed landing on an empty hex).  GT 31: ALC-23 is played (the Vichy French at Algiers
    are neutral, enemies of the Allies: R-VICHY-NEUTRAL); 6 Cdo sails for Algiers (an opposed landing on an
    enemy-occupied hex); in the Combat Phase 1 Cdo's land attack on Algiers is declared first, and the engine offers
    no landing on a hex a combat is already declared against (``special_forces.owed_landings``, R-SF-SEA): the
    landing is not owed, the phase ends, and the log says 6 Cdo did not make its landing; it stays in the Torch Box,
    its point of origin (20.5 "return to their point of origin")."""
    from tests.playpath import Play

    def torch(d):
        return next((o.action for o in d.options if o.action.kind == "play_card" and o.action.args.get("card") == "ALC-23"),
                    None)

    p = Play("run-for-tunis", seed=1)
    p.to("movement", side=ALLIED)
    p.act(KIND, units=["UK-1Cdo"], to="A6202")
    p.to("combat_declare", side=ALLIED)
    p.act("declare", attackers=["UK-1Cdo"], hexes=["A6202"], form="amphibious")
    p.run(lambda e: e.state.phase != 8)
    assert p.state.units["UK-1Cdo"].loc == "A6202"
    p.run(lambda e: e.state.gt == 31 and e.pending().kind == "movement" and e.pending().side == ALLIED,
          script={"events": torch})
    e = p.act(KIND, units=["UK-6Cdo"], to="A6201")
    assert "opposed landing on enemy-occupied A6201" in " ".join(e.events)
    d = p.to("combat_declare", side=ALLIED)
    assert any("UK-6Cdo" in r for r in d.context["required"])
    assert not [o for o in d.options if o.action.kind == "done"]            # owed: the landing must be made
    p.act("declare", attackers=["UK-1Cdo"], hexes=["A6201"], form="regular")
    d = p.pending
    assert d.context.get("required") == []
    assert not [o for o in d.options if o.action.args.get("form") == "amphibious"]
    n, phase = len(p.eng.log), p.state.phase
    p.run(lambda e: e.state.phase != phase)
    assert f"6 Cdo did not make its declared landing on A6201: it stays in {TORCH}, its point of origin (15.4, 20.5)" \
        in p.events(n)
    assert p.state.units["UK-6Cdo"].loc == TORCH and "sf_landing" not in p.state.units["UK-6Cdo"].flags


# --------------------------------------------------------------------------- 15.4 d) the raid's victim (R-SF-CRETE)
# Desert War again, kept going past GT 21: the Axis cancels the Malta invasion on GT 21 (AXC-16 j), which frees X FK
# and 2 AS from Sicily (AXC-16 a) and brings AIDA (AXC-18), whose c) lets the GT 18 garrison of Crete move to Italy
# (R-CRETE-LEAVE); every air unit the Axis may deploy to Crete goes there.  On GT 23 three Axis air units are on
# Crete and one infantry unit (Sdvh 287) garrisons it: the raid the Allies declare there is the first that can pass
# (+6 for the GT 18 infantry before) and meets more than one air unit.


def _cards_to_gt23(d):
    cards = (("ALC-12", {}), ("AXC-5", {}), ("AXC-16", {"act": "cancel"}), ("AXC-18", {}), ("AXC-4", {}))
    return next((o.action for c, a in cards for o in d.options if o.action.kind == "play_card"
                 and o.action.args.get("card") == c and all(o.action.args.get(k) == v for k, v in a.items())), None)


@pytest.fixture(scope="module")
def crete_raid_two_air_units():
    from tests.playpath import Play

    p = Play("desert-war", seed=1)

    def leave_crete(d):
        return next((o.action for o in d.options if o.action.kind == "offmap_move"
                     and p.state.units[o.action.args["unit"]].loc == "box:Crete"), None)

    def to_crete(d):
        return next((o.action for o in d.options if o.action.kind == "air_deploy"
                     and o.action.args.get("to") == "box:Crete"), None)

    script = {"reinforce": _to_nrv, "events": _cards_to_gt23, "air_deploy": to_crete, "offmap_moves": leave_crete}
    p.run(lambda e: (d := e.pending()) is not None and d.kind == "crete_raid" and len(d.context["air"]) > 1
          and d.context["garrison"] <= 1, script=script, limit=100000)
    return p


def test_15_4_d_the_axis_player_chooses_which_air_unit_on_crete_makes_the_damage_check_play_path(
        crete_raid_two_air_units):
    """15.4 d) "one Axis air unit deployed on Crete must conduct a damage check (19.3)" names no chooser; the owner
    chooses its own unit, as 19.9.1 has the targeted player select the first loss of a strike and 19.6 the owning
    player the interdicting air unit (R-SF-CRETE).  The Axis is asked only after a raider passes, and picks here the
    last by id (the former engine always took the first)."""
    from core.ai import admin
    from core.dice import ScriptedDice

    p = crete_raid_two_air_units
    d = p.pending
    assert (p.state.gt, p.eng.step.key, d.side) == (23, "II.3", ALLIED)
    air = d.context["air"]
    assert air == ["GE-XFK", "IT-2AS", "IT-Libya"] and d.context["garrison"] == 1
    p.eng = p.eng.fork(ScriptedDice([1, 6, 6]))          # 1 + morale 1 + 1 = 3: passes; 6 + 6: two GTs on the TRT
    p.act("crete_raid", units=["UK-1Cdo"])
    v = p.pending
    assert v.kind == "crete_raid_victim" and v.side == AXIS and "15.4" in v.rule
    assert [o.action.args["unit"] for o in v.options] == air and p.state.units["UK-1Cdo"].loc == "box:CreteHolding"
    assert p.refuse("crete_raid_victim", side=ALLIED, unit="IT-Libya").rule == v.rule      # the Axis player's choice
    assert p.refuse("crete_raid_victim", unit="GE-Sdvh287").rule == v.rule                 # not an air unit
    ai = admin.choose(type("P", (), {"side": AXIS, "plan": ""})(), v, p.eng)               # the computer opponent
    assert ai.kind == "crete_raid_victim" and ai.args["unit"] in air
    n = len(p.eng.log)
    p.act("crete_raid_victim", unit="IT-Libya")
    assert p.state.units["IT-Libya"].loc == f"track:TRT:{p.state.gt + 2}"                   # 19.3: 11 or more
    assert p.state.units["GE-XFK"].loc == p.state.units["IT-2AS"].loc == "box:Crete"
    assert p.state.units["UK-1Cdo"].loc == "box:NRV"
    assert any("IT-Libya on Crete makes a damage check" in e for e in p.events(since=n))
    assert p.pending is None or p.pending.kind != "crete_raid_victim"
