"""The admin AI spends the cards and special missions that pay (issue 21: "it spends cards, refit points and air
where they pay"), and declines them when they do not (core.ai.admin_cards): 23.2 AXC-14 Arab Revolt, AXC-16
Operation C3, AXC-18 AIDA, 23.1 ALC-28 Soft Underbelly, 15.4 raids on Crete, 12.7 emergency supply.

Positions: real scenario set-ups played through ``Engine.apply`` (tests.playpath) to the decision in question; where
the card's own preconditions are out of reach of a short passing game (AXC-13 in play, GT 20, the Herkules Box
filled, an isolated unit) they are set by hand as the engine's card tests do (tests/test_events_cards.py,
tests/test_cards_axc14_arab_revolt.py, tests/test_cards_axc16_sicily_air.py reach them by play).  Every answer of
the AI is then applied with ``Engine.apply``, so a refused one fails the test."""

from __future__ import annotations

from fractions import Fraction

from core.ai import AIPlayer, admin
from core.ai.admin_cards import chance_at_least
from core.counters import all_counters
from core.decisions import ALLIED, AXIS
from core.rules import events, met, offmap
from core.rules.status import hex_of, values
from core.state import UnitState
from tests.playpath import Play

S287, S288 = "GE-Sdvh287", "GE-Sdvh288"


def put(p: Play, uid: str, loc: str, side: str | None = None) -> None:
    c = all_counters()[offmap.base_id(uid)]
    p.state.units[uid] = UnitState(id=uid, side=side or c.side, loc=loc, steps=c.steps)


def settle(p: Play) -> None:
    """Ask the engine again after a position was set by hand (the pending decision is computed when asked for)."""
    p.eng._settle()


def answer(p: Play, side: str):
    """The AI's answer to the pending decision (applied: the engine must accept it) and its plan sentence."""
    ai = AIPlayer(side, 1)
    a = admin.choose(ai, p.pending, p.eng)
    p.eng.apply(a)
    return a, ai.plan


def cards_played(a) -> str | None:
    return a.args.get("card") if a.kind == "play_card" else None


def events_phase(p: Play, side: str = AXIS) -> list[tuple[dict, str]]:
    """The AI declares ``side``'s events until it is done (5.0): the cards played (args) and plan sentences."""
    out = []
    while p.pending is not None and p.pending.kind == "events" and p.pending.side == side:
        a, plan = answer(p, side)
        if a.kind == "done":
            break
        out.append((dict(a.args), plan))
    return out


# --------------------------------------------------------------------------- AXC-14 Arab Revolt


def arab_revolt_position() -> Play:
    p = Play("north-african-campaign")
    p.to("events", side=AXIS)
    events.put_in_play(p.eng, "AXC-13", "test: the GT after MET Greece is deactivated (22.3)")
    put(p, S287, offmap.CRETE)
    put(p, S288, offmap.CRETE)
    if not met.track(p.eng, "SW Asia"):
        met.activate_track(p.eng, "SW Asia", "test")
    p.state.vars["met"]["SW Asia"]["box"] = 1
    settle(p)
    return p


def test_axc_14_commits_both_sonderverbaende_while_the_roll_can_still_advance_the_track():
    p = arab_revolt_position()
    assert [o.action.args.get("commit") for o in p.pending.options if cards_played(o.action) == "AXC-14"] \
        == [[S287], [S287, S288]]
    a, plan = answer(p, AXIS)
    assert cards_played(a) == "AXC-14" and a.args["commit"] == [S287, S288]
    assert {p.state.units[u].loc for u in (S287, S288)} == {met.track_box("SW Asia")}
    assert "Sdvh 287 and Sdvh 288" in plan and "MET SW Asia" in plan and "AXC-14" in plan


def test_axc_14_declined_while_the_track_is_in_crisis():
    p = arab_revolt_position()
    p.state.vars["met"]["SW Asia"]["crisis"] = True      # no roll can push it further (22.2 c)
    settle(p)
    assert any(cards_played(o.action) == "AXC-14" for o in p.pending.options)
    a, _ = answer(p, AXIS)
    assert cards_played(a) != "AXC-14" and p.state.units[S287].loc == offmap.CRETE


# --------------------------------------------------------------------------- AXC-16 Operation C3


def c3_position(gt: int, units: list[str]) -> Play:
    p = Play("desert-fox")
    p.to("events", side=AXIS)
    p.state.gt = gt
    events.put_in_play(p.eng, "AXC-16", "test: AXC-5 and ALC-12 have been played (23.2 AXC-16)")
    for u in [x.id for x in p.state.units.values() if x.loc == offmap.HERKULES]:
        del p.state.units[u]
    for u in units:
        put(p, u, offmap.HERKULES)
    settle(p)
    return p


#: AXC-16/17's Herkules lists (32 CF: 3 invasion dice, AXC-16 f 1-3) and two Italian divisions more (4 dice)
STRONG = ["IT-185Folgore", "IT-80LaSpezia", "IT-1Superga", "GE-Ramcke", "GE-Barenthin", "GE-5FJ", "GE-11Pio",
          "IT-17Pavia", "IT-25Bologna"]


def test_chance_of_the_invasion_dice():
    assert chance_at_least(2, 13) == 0 and chance_at_least(3, 13) == Fraction(56, 216)
    assert chance_at_least(4, 13) > Fraction(1, 2) > chance_at_least(3, 13)


def test_axc_16_declared_when_the_dice_succeed_at_least_half_the_time():
    p = c3_position(20, STRONG)
    n = events.malta_invasion_dice(p.eng)
    assert n >= 4
    c3 = [(a, plan) for a, plan in events_phase(p) if a["card"] == "AXC-16"]
    assert [a["act"] for a, _ in c3] == ["declare"] and f"invading Malta with {n} dice" in c3[0][1]
    assert p.state.cards["AXC-16"]["declared_gt"] == 20


def test_axc_16_not_declared_with_too_few_dice_and_cancelled_when_it_cannot_succeed():
    p = c3_position(21, STRONG[:7])
    assert events.malta_invasion_dice(p.eng) == 3                  # 13+ on 3 dice: 26%
    assert any(o.action.args.get("act") == "declare" for o in p.pending.options)
    assert [a for a, _ in events_phase(p) if a["card"] == "AXC-16"] == []
    assert p.state.cards["AXC-16"].get("declared_gt") is None and not p.state.cards["AXC-16"].get("cancelled")
    p = c3_position(21, STRONG[:1])
    assert events.malta_invasion_dice(p.eng) <= 2                  # at most 12: it cannot succeed
    c3 = [(a, plan) for a, plan in events_phase(p) if a["card"] == "AXC-16"]
    assert [a["act"] for a, _ in c3] == ["cancel"] and "cancelling" in c3[0][1]
    assert p.state.cards["AXC-16"]["cancelled"] == 21


# --------------------------------------------------------------------------- AXC-18 AIDA (and AXC-4)


def test_axc_18_and_axc_4_played_while_the_axis_would_not_win_now():
    """Desert Fox at GT 11 (AXC-4 to AXC-18 available, 27.0): the Allies would win now, so the Axis extends the
    game and takes AIDA's units (23.2 AXC-4, AXC-18 a, b).  Play path."""
    p = Play("desert-fox")
    p.to("events", side=AXIS)
    assert p.eng.query("victory_check")["winner"] == ALLIED
    played = [a["card"] for a, _ in events_phase(p)]
    assert played == ["AXC-4", "AXC-18"] and p.state.cards["AXC-18"]["status"] == "in_play"


def test_axc_18_declined_while_the_axis_would_win_now():
    p = Play("north-african-campaign")
    p.to("events", side=AXIS)
    assert p.eng.query("victory_check")["winner"] == AXIS
    events.activate(p.eng, "AXC-18", "test: the invasion of Malta was cancelled (23.2 AXC-18)")
    settle(p)
    assert any(cards_played(o.action) == "AXC-18" for o in p.pending.options)
    assert "AXC-18" not in [a["card"] for a, _ in events_phase(p)]
    assert p.state.cards["AXC-18"]["status"] != "in_play"


def test_axc_14_b_sdvh_288_committed_when_it_arrives_after_sdvh_287():
    p = arab_revolt_position()
    del p.state.units[S288]                               # Sdvh 288 has not arrived yet (AXC-13 b)
    settle(p)
    assert [a["commit"] for a, _ in events_phase(p) if a["card"] == "AXC-14"] == [[S287]]
    p2 = arab_revolt_position()                           # the same with Sdvh 288 arriving in a later phase
    del p2.state.units[S288]
    settle(p2)
    a, _ = answer(p2, AXIS)
    assert a.args.get("commit") == [S287]
    put(p2, S288, offmap.CRETE)
    settle(p2)
    assert [a["commit"] for a, _ in events_phase(p2) if a["card"] == "AXC-14"] == [[S288]]
    assert p2.state.units[S288].loc == met.track_box("SW Asia")


# --------------------------------------------------------------------------- 15.4 raids on Crete


def crete_position(units):
    """The Air Superiority Phase (II.3), after both sides deployed their air units: as the 15.4 tests build it
    (tests/test_rules_15_4_special_forces_play.py; its play-path twin reaches the raid in Desert War, GT 13), with
    Crete in play (22.3: the MET Greece Track deactivated)."""
    from core.dice import SeededDice
    from core.engine import Engine
    from tests.ground_helpers import engine_at_movement, unit

    st = engine_at_movement([unit(u, side, loc) for u, side, loc in units], phase=2, step=3, first=ALLIED,
                            vars={"crete_axis": True}).state
    return Engine(st, SeededDice())


def test_crete_raid_with_the_sf_in_the_nrv_when_an_axis_air_unit_is_on_crete():
    eng = crete_position([("UK-Layforce", ALLIED, offmap.NRV), ("GE-StGI", AXIS, offmap.CRETE)])
    d = eng.pending()
    assert d.kind == "crete_raid" and d.context["air"] == ["GE-StGI"]
    ai = AIPlayer(ALLIED, 1)
    a = admin.choose(ai, d, eng)
    assert a.kind == "crete_raid" and a.args["units"] == ["UK-Layforce"]
    assert "raiding Crete with Layforce" in ai.plan and "15.4" in ai.plan
    eng.apply(a)
    assert eng.state.units["UK-Layforce"].loc in (offmap.NRV, offmap.refit(ALLIED))


def test_no_crete_raid_without_an_axis_air_unit_there_or_with_a_raider_holding_a_port():
    from core.counters import all_counters
    from core.rules import special_forces

    inf = next(c.id for c in all_counters().values() if c.side == AXIS and c.kind == "combat" and c.nato == "infantry"
               and c.steps == 1 and not c.divisional)
    cases = [[("UK-Layforce", ALLIED, offmap.NRV), (inf, AXIS, offmap.CRETE)]]             # nothing to damage
    if special_forces.is_port("W2232"):
        cases.append([("UK-1Cdo", ALLIED, "W2232"), ("GE-StGI", AXIS, offmap.CRETE)])      # it holds its port
    for units in cases:
        eng = crete_position(units)
        d = eng.pending()
        assert d.kind == "crete_raid"
        a = admin.choose(AIPlayer(ALLIED, 1), d, eng)
        assert a.kind == "done"
        eng.apply(a)


# --------------------------------------------------------------------------- 12.7 emergency supply


def movement_position(isolated: bool):
    from tests.ground_helpers import engine_at_movement, unit

    return engine_at_movement([unit("GE-5Pz", AXIS, "C1910", isolated=isolated, ogs=isolated),
                               unit("AX-Dump#1", AXIS, "C1910"), unit("UK-7RTR", ALLIED, "C1920")])


def test_emergency_supply_for_an_isolated_unit_stacked_with_a_dump():
    eng = movement_position(isolated=True)
    d = eng.pending()
    assert d.kind == "movement" and d.side == AXIS
    ai = AIPlayer(AXIS, 1)
    a = admin.movement_first(ai, d, eng)
    assert a is not None and a.kind == "emergency_supply" and a.args == {"unit": "GE-5Pz", "dump": "AX-Dump#1"}
    assert "emergency supply for 5 Pz" in ai.plan and "Dump #1" in ai.plan and "12.7" in ai.plan
    eng.apply(a)
    u = eng.state.units["GE-5Pz"]
    assert u.emergency and not u.isolated and not u.ogs and "AX-Dump#1" not in eng.state.units
    a2 = admin.movement_first(ai, eng.pending(), eng)
    assert a2 is None or a2.kind != "emergency_supply"          # one unit, one dump


def test_no_emergency_supply_for_a_unit_in_general_supply():
    eng = movement_position(isolated=False)
    a = admin.movement_first(AIPlayer(AXIS, 1), eng.pending(), eng)
    assert a is None or a.kind != "emergency_supply"
    assert "AX-Dump#1" in eng.state.units


# --------------------------------------------------------------------------- ALC-28 Soft Underbelly


def test_alc_28_withdraws_the_spare_units_and_keeps_the_others():
    """Rommel's War at GT 11, the Allied Events Phase, with ALC-28 activated by hand (the Vichy Accord it needs is
    out of reach of a short game, R-EV-SOFT-UNDERBELLY): the AI withdraws US/CW units 15+ hexes from every enemy,
    on no objective and holding no city or port (their CF come back as refit points), none of the others, and -
    the Allies winning now - not so many that the game is lengthened (ALC-28 c)."""
    from core import mapdata
    from core.ai.admin_cards import SPARE_DISTANCE
    from core.ai.admin_util import enemy_hexes, nearest, objective_hexes
    from core.rules import tec

    p = Play("rommels-war")
    p.to("events", side=ALLIED)
    events.activate(p.eng, "ALC-28", "test: the GT after ALC-27 is complete (23.1 ALC-28)")
    settle(p)
    assert p.eng.query("victory_check")["winner"] == ALLIED
    front, goals, gm = enemy_hexes(p.eng, ALLIED), objective_hexes(p.eng, ALLIED), tec.current_map()
    where = {u: hex_of(p.state.units[u]) for u in events.soft_underbelly_units(p.eng)}
    spare = {u for u, h in where.items() if nearest(h, front) >= SPARE_DISTANCE and h not in goals
             and not gm.is_city(h) and mapdata.port(h) is None}
    assert spare and spare != set(where)                  # both kinds are there
    done = [(a["units"][0], plan) for a, plan in events_phase(p, ALLIED) if a["card"] == "ALC-28"]
    assert done and {u for u, _ in done} <= spare
    assert all(p.state.units[u].loc == offmap.REMOVED for u, _ in done)
    assert all(offmap.in_play(p.state.units[u]) for u in set(where) - {u for u, _ in done})
    assert all("ALC-28" in plan and "refit points" in plan for _, plan in done)
    c = p.state.cards["ALC-28"]
    assert c["withdrawn_cf"] < 20                      # c) the game is not lengthened while the Allies win
    left = [u for u in spare if offmap.in_play(p.state.units[u])]
    assert all(c["withdrawn_cf"] + values(p.state.units[u])[0] >= 20 for u in left)   # each would lengthen it


def test_alc_28_rp_counts_the_factors_withdrawn_one_at_a_time():
    """R-EV-SOFT-UNDERBELLY: units withdrawn one declaration at a time earn the RP their total earns (a, b)."""
    p = Play("rommels-war")
    p.to("events", side=ALLIED)
    events.put_in_play(p.eng, "ALC-28", "test")
    cw = [u for u in events.soft_underbelly_units(p.eng) if not u.startswith("US-")]
    before = len(p.state.vars.get("reinf", []))
    total = 0
    for u in cw:
        total += all_counters()[offmap.base_id(u)].values(p.state.units[u].steps)[0]
        events.soft_underbelly_withdraw(p.eng, [u])
        if total >= 10:
            break
    assert total >= 10 and len(p.state.vars["reinf"]) - before == total // 10
