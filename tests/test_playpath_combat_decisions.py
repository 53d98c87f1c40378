"""Play-path tests (issue 16) for the combat decisions random play reaches rarely: 14.4 the defender's choice of
terrain line, 15.2 anti-tank, 15.3 recon superiority.  Each starts from the real Sonnenblume set-up (26.0: GT 10
phase XII, the Axis moves first; 5 Pz and 3 Aufkl in C0702, KDG in C0603, the reduced 2 SG in C0803, 3 Lt Arm in
C0804) and acts only through ``Engine.apply`` with offered options or the free-form kinds the pending decision
lists (``tests/playpath.py``); the ``route`` query is the one the GUI uses to draw a move."""

from __future__ import annotations

from core.decisions import ALLIED, AXIS, Decision
from tests.playpath import Play


def _no_air(d: Decision):
    """Commit no air support (19.5): the Axis player declines FF Afrika."""
    return next(o.action for o in d.options if o.action.kind == "support_done")


def _move(p: Play, units: list[str], to: str) -> None:
    route = p.eng.query("route", units=units, to=to, road_march=False)
    assert route is not None, f"no route for {units} to {to}"
    p.act("move", units=units, path=route["path"])


def _crt_line(events: list[str]) -> str:
    return next(e for e in events if " on line " in e)


def _5_pz_attacks_2_sg() -> tuple[Play, int]:
    """GT 10: 5 Pz and 3 Aufkl move to C0802 and attack the 2 SG in C0803; the log length before the combat."""
    p = Play("sonnenblume", seed=1)
    p.to("movement", side=AXIS)
    p.act("move", units=["GE-5Pz", "GE-3Aufkl"], path=["C0802"])
    p.to("combat_declare")
    p.act("declare", attackers=["GE-3Aufkl", "GE-5Pz"], hexes=["C0803"])
    p.act("done")
    return p, len(p.eng.log)


def test_15_2_play_path_sonnenblume_2_sg_anti_tank_reduces_5_pz_unless_halved_to_zero_by_air_support():
    """15.2: the defending 2 SG (reduced, AT 1, not mechanised) reduces one attacking mechanised unit by its AT
    rating; facing air support its rating is halved, "always reduced by at least one", to 0: no AT at all."""
    p, n = _5_pz_attacks_2_sg()
    d = p.to("combat_anti_tank", script={"combat_support": _no_air}, limit=10)
    assert d.side == ALLIED and d.rule == "15.2"
    assert sorted(o.action.args["target"] for o in d.options) == ["GE-3Aufkl", "GE-5Pz"]
    p.act("anti_tank", unit="UK-2SG", target="GE-5Pz")
    p.to("combat_loss", limit=5)
    events = p.events(since=n)
    assert "2 SG reduces 5 Pz (15.2)" in events
    assert _crt_line(events).startswith("11 to 1 ")           # 3 Aufkl 3 + 5 Pz 9 - AT 1

    q, n = _5_pz_attacks_2_sg()                               # the same attack with FF Afrika's air support
    kinds = []
    while q.pending.kind != "combat_loss":                    # the pass choice commits FF Afrika
        kinds.append(q.pending.kind)
        q.pass_()
    assert kinds[0] == "combat_support" and "combat_anti_tank" not in kinds
    events = q.events(since=n)
    assert not [e for e in events if "(15.2)" in e and "reduces" in e]
    assert _crt_line(events).startswith("12 to 1 ") and "air ground support GE-FFAfrika" in _crt_line(events)


def test_15_3_play_path_sonnenblume_recon_superiority_splits_the_2_sg_3_lt_arm_stack_into_two_combats():
    """15.3: 3 Aufkl (3R) against a stack without recon has recon superiority; the 2 SG and 3 Lt Arm stacked in
    C0803 (the Allies move 3 Lt Arm in) hold two non-zero units in a desert hex: the Axis declares the recon double
    attack, the Allies divide the stack (b), the Axis attacks both parts (c), two combats are resolved."""
    p = Play("sonnenblume", seed=1)
    p.to("movement", side=AXIS)
    p.act("move", units=["GE-5Pz", "GE-3Aufkl"], path=["C0802"])    # out of the overstacked C0702 (10.3)
    p.to("movement", side=ALLIED)
    _move(p, ["UK-3LtArm"], "C0803")
    d = p.to("combat_declare", side=AXIS)
    assert p.state.gt == 11
    recon = [o.action for o in d.options if o.action.args.get("recon")]
    assert [a.args["hexes"] for a in recon] == [["C0803"]]
    n = len(p.eng.log)
    p.eng.apply(recon[0])
    p.act("done")
    d = p.pending
    assert d.kind == "combat_recon_split" and d.side == ALLIED and d.rule == "15.3"
    p.act("recon_split", part=["UK-2SG"])
    d = p.pending
    assert d.kind == "combat_recon_assign" and d.side == AXIS
    assert sorted(o.action.args["part"] for o in d.options) == [1, 2]
    p.act("recon_assign", unit="GE-3Aufkl", part=1)
    d = p.pending                                      # c) both parts must be attacked: 5 Pz takes part 2
    assert d.kind == "combat_recon_assign" and [o.action.args["part"] for o in d.options] == [2]
    p.act("recon_assign", unit="GE-5Pz", part=2)
    p.to("movement", script={"combat_support": _no_air}, limit=60)
    events = p.events(since=n)
    assert "Allied divides the stack in C0803: UK-2SG / UK-3LtArm (15.3)" in events
    combats = [e for e in events if e.startswith("Combat: Axis attacks C0803")]
    assert combats == ["Combat: Axis attacks C0803 (regular) with GE-3Aufkl (14.1)",
                       "Combat: Axis attacks C0803 (regular) with GE-5Pz (14.1)"]
    assert len([e for e in events if " on line " in e]) == 2


def test_14_4_play_path_sonnenblume_defender_chooses_the_rough_line_of_one_of_two_defending_hexes():
    """14.4: one combat against KDG in desert C0605 and 3 Lt Arm in rough C0606 (moved there by the Allies): the
    defender chooses line 1 (desert) or line 2 (rough), and the combat is resolved on the line chosen."""
    p = Play("sonnenblume", seed=1)
    p.to("movement", side=ALLIED)
    _move(p, ["UK-KDG"], "C0605")
    _move(p, ["UK-3LtArm"], "C0606")
    p.to("movement", side=AXIS)
    _move(p, ["GE-5Pz"], "C0706")                       # adjacent to both
    p.to("combat_declare")
    n = len(p.eng.log)
    p.act("declare", attackers=["GE-5Pz"], hexes=["C0605", "C0606"])
    p.act("done")
    d = p.to("combat_line", script={"combat_support": _no_air}, limit=10)
    assert d.side == ALLIED and d.rule == "14.4"
    assert [(o.action.args["line"], o.label) for o in d.options] == [(1, "Line 1: desert in C0605"),
                                                                    (2, "Line 2: rough in C0606")]
    p.act("terrain_line", line=2)
    assert " on line 2: " in _crt_line(p.events(since=n))


def _13_corps_next_to_2_sg() -> tuple[Play, int]:
    """Sonnenblume: 5 Pz and 3 Aufkl leave the overstacked C0702 for C0802; the Allies bring 13 Corps from W2118
    along the road (C1908 in GT 10, C0804 in GT 11); in GT 11 XIV the Axis attacks the 2 SG in C0803 alone."""
    p = Play("sonnenblume", seed=1)
    p.to("movement", side=AXIS)
    p.act("move", units=["GE-5Pz", "GE-3Aufkl"], path=["C0802"])
    p.to("movement", side=ALLIED)
    _move(p, ["UK-13Corps"], "C1908")
    p.to("movement", side=ALLIED, gt=11)
    _move(p, ["UK-13Corps"], "C0804")
    p.to("combat_declare", side=AXIS)
    n = len(p.eng.log)
    p.act("declare", attackers=["GE-3Aufkl", "GE-5Pz"], hexes=["C0803"])
    p.act("done")
    return p, n


def test_14_1_15_1_play_path_sonnenblume_13_corps_supports_the_defence_of_an_adjacent_hex_not_attacked():
    """14.1 / 15.1: 13 Corps (artillery), in C0804 next to the attacked C0803 and not attacked this phase, may be
    assigned as defensive artillery; its hex needs combat supply too, and its rating shifts the attacker's column
    down by one (its reduced rating, the 13 Corps of the set-up being reduced)."""
    p, n = _13_corps_next_to_2_sg()
    d = p.to("combat_def_artillery", limit=5)
    assert d.side == ALLIED and d.rule == "15.1"
    assert [o.action.args["unit"] for o in d.options] == ["UK-13Corps", None]
    p.act("defensive_artillery", unit="UK-13Corps")
    p.to("movement", limit=40)
    events = p.events(since=n)
    assert "Allied: 13 Corps in C0804 supports the defence of C0803 (15.1)" in events
    assert "Allied expends a dump for combat supply in C0804 (12.6)" in events
    assert _crt_line(events).endswith("defender column 16, attacker column 14 (14.5)")

    q, n = _13_corps_next_to_2_sg()
    q.to("combat_def_artillery", limit=5)
    q.act("defensive_artillery", unit=None)
    q.to("movement", limit=40)
    events = q.events(since=n)
    assert not [e for e in events if "supports the defence" in e]
    assert _crt_line(events).endswith("defender column 16, attacker column 15 (14.5)")


def test_14_9_1_play_path_sonnenblume_deliberate_battle_marked_declared_and_resolved():
    """14.9.1: 132 Ariete moves to C0802 within its RMA (3 MP), takes a deliberate battle marker, and the Combat
    Phase offers and resolves a deliberate battle against the 2 SG in C0803 (one hex, the attackers in combat
    supply)."""
    p = Play("sonnenblume", seed=1)
    p.to("movement", side=AXIS)
    _move(p, ["IT-132Ariete"], "C0802")
    p.act("battle_marker", units=["IT-132Ariete"], form="deliberate")
    p.to("combat_declare")
    assert p.option("declare", attackers=["IT-132Ariete"], hexes=["C0803"], form="deliberate") is not None
    n = len(p.eng.log)
    p.act("declare", attackers=["IT-132Ariete"], hexes=["C0803"], form="deliberate")
    p.act("done")
    p.to("movement", limit=60)
    events = p.events(since=n)
    assert "Combat: Axis attacks C0803 (deliberate) with IT-132Ariete (14.1)" in events
    assert "Axis expends a dump for combat supply in C0802 (12.6)" in events
    assert _crt_line(events).startswith("6 to 1 ")
    assert not [u.id for u in p.state.units.values() if "battle" in u.flags]     # markers removed after XIV
