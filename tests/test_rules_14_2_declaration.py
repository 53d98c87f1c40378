"""14.0 / 14.2 declaration: all combats declared first, mandatory attacks, stacking and adjacency limits,
and a property test over random legal combats (steps conserved, one place per unit, legal retreats)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as s

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice, SeededDice
from core.hexgrid import Hex
from core.rules import combat, tec
from core.rules.special_units import info
from tests.rules_combat_kit import act, desert_map, drive, make_state, start

DEF = "C1010"


@pytest.fixture(autouse=True)
def desert():
    tec.use_map(desert_map())
    yield
    tec.use_map(None)


def nbrs(label):
    return [n.label for n in Hex.parse(label).neighbours()]


def test_14_2_every_defender_projecting_zoc_onto_an_attacker_must_be_attacked():
    a = nbrs(DEF)[0]
    other_def = next(h for h in nbrs(a) if h != DEF and Hex.parse(h).distance(Hex.parse(DEF)) == 1)
    st = make_state([("UK-2Arm", ALLIED, DEF, 2), ("UK-KDG", ALLIED, other_def, 1),
                     ("GE-5Pz", AXIS, a, 2)], phase=8)
    eng, fr = start(st, ScriptedDice([]), proc="combat_phase", side=AXIS)
    d = eng.pending()
    assert d.kind == "combat_declare" and any(o.action.kind == "done" for o in d.options)  # attacking is voluntary
    eng.apply(Action(kind="declare", side=AXIS, args={"attackers": ["GE-5Pz"], "hexes": [DEF]}))
    assert not any(o.action.kind == "done" for o in eng.pending().options)
    before = eng.hash()
    with pytest.raises(IllegalAction) as exc:
        eng.apply(Action(kind="done", side=AXIS))
    assert exc.value.rule == "14.2" and "UK-KDG" in str(exc.value) and eng.hash() == before
    # extending the same combat to the second hex satisfies the requirement
    act(eng, "declare", AXIS, hexes=sorted([DEF, other_def]))
    assert any(o.action.kind == "done" for o in eng.pending().options)


def test_14_2_refusals_adjacency_stacked_attackers_garrison_parenthesised():
    a = nbrs(DEF)[0]
    far = "C1510"
    st = make_state([("UK-2Arm", ALLIED, DEF, 2), ("UK-KDG", ALLIED, far, 1),
                     ("GE-5Pz", AXIS, a, 2), ("GE-3Aufkl", AXIS, a, 1)], phase=8)
    eng, fr = start(st, ScriptedDice([]), proc="combat_phase", side=AXIS)
    with pytest.raises(IllegalAction, match="adjacent") as exc:
        eng.apply(Action(kind="declare", side=AXIS, args={"attackers": ["GE-5Pz"], "hexes": [far]}))
    assert exc.value.rule == "14.2"
    with pytest.raises(IllegalAction, match="no enemy"):
        eng.apply(Action(kind="declare", side=AXIS, args={"attackers": ["GE-5Pz"], "hexes": [next(h for h in nbrs(a) if h != DEF)]}))
    st2 = make_state([("UK-2Arm", ALLIED, DEF, 2), ("GE-5Pz", AXIS, a, 2, {"flags": {"values": {"garrison": True}}})])
    with pytest.raises(IllegalAction, match="garrison") as exc:
        combat.check_declaration(st2, AXIS, [], {"attackers": ["GE-5Pz"], "hexes": [DEF]})
    assert exc.value.rule == "14.2"
    st3 = make_state([("UK-2Arm", ALLIED, DEF, 2), ("GE-5Pz", AXIS, a, 2, {"flags": {"values": {"paren": True}}})])
    with pytest.raises(IllegalAction, match="parenthesised"):
        combat.check_declaration(st3, AXIS, [], {"attackers": ["GE-5Pz"], "hexes": [DEF]})
    # stacked attackers may not take part in different combats (14.2)
    other_hex = next(h for h in nbrs(a) if h not in (DEF,) and Hex.parse(h).distance(Hex.parse(DEF)) == 1)
    st4 = make_state([("UK-2Arm", ALLIED, DEF, 2), ("UK-KDG", ALLIED, other_hex, 1),
                      ("GE-5Pz", AXIS, a, 2), ("GE-3Aufkl", AXIS, a, 1)])
    combats = [{"attackers": ["GE-5Pz"], "hexes": [DEF], "form": "regular"}]
    with pytest.raises(IllegalAction, match="stacked"):
        combat.check_declaration(st4, AXIS, combats, {"attackers": ["GE-3Aufkl"], "hexes": [other_hex]})


def test_14_9_2_mobile_battle_needs_markers_and_an_open_hex():
    a = nbrs(DEF)[0]
    st = make_state([("UK-2Arm", ALLIED, DEF, 2), ("GE-5Pz", AXIS, a, 2)])
    with pytest.raises(IllegalAction, match="marker") as exc:
        combat.check_declaration(st, AXIS, [], {"attackers": ["GE-5Pz"], "hexes": [DEF], "form": "mobile"})
    assert exc.value.rule == "14.9.2"
    st.units["GE-5Pz"].flags = {"battle": "mobile"}
    tec.use_map(desert_map(**{DEF: "city"}))
    with pytest.raises(IllegalAction, match="city"):
        combat.check_declaration(st, AXIS, [], {"attackers": ["GE-5Pz"], "hexes": [DEF], "form": "mobile"})


def test_14_0_phase_declares_all_then_attacker_orders_resolution():
    a = nbrs(DEF)[0]
    b = "C1510"
    st = make_state([("UK-2Arm", ALLIED, DEF, 2), ("UK-KDG", ALLIED, b, 1),
                     ("GE-5Pz", AXIS, a, 2), ("GE-3Aufkl", AXIS, nbrs(b)[0], 1)], phase=8)
    eng, fr = start(st, SeededDice(), proc="combat_phase", side=AXIS)
    act(eng, "declare", AXIS, hexes=[DEF])
    act(eng, "declare", AXIS, hexes=[b])
    act(eng, "done", AXIS)
    d = eng.pending()
    assert d.kind == "combat_order" and len(d.options) == 2
    act(eng, "resolve", AXIS, combat=1)
    rng = random.Random(3)
    drive(eng, lambda d: rng.choice(d.options).action)
    assert all(c.get("resolved") for c in fr.data["combats"])


# --------------------------------------------------------------------------- property test

ALLIES = ["GR-1Greek", "UK-2Arm", "UK-7Motor", "UK-KDG", "UK-2SG", "UK-3LtArm"]
AXES = ["GE-5Pz", "GE-Kasta", "GE-3Aufkl", "IT-132Ariete", "IT-Nizza", "IT-8Ber", "IT-102Trento", "IT-136GGFF", "IT-132Cel"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s.integers(0, 10_000), s.lists(s.sampled_from(ALLIES), min_size=1, max_size=3, unique=True),
       s.lists(s.sampled_from(AXES), min_size=1, max_size=4, unique=True),
       s.sampled_from(["regular", "overrun", "mobile"]), s.booleans())
def test_property_random_combats_conserve_steps_and_retreat_legally(seed, defs, atts, form, dumps):
    tec.use_map(desert_map())
    an = nbrs(DEF)
    rows = [(u, ALLIED, DEF, 2 if seed % (i + 2) else 1) for i, u in enumerate(defs)]
    rows += [(u, AXIS, an[i % 2], 1 + (seed >> i) % 2, {"flags": {"battle": "mobile"}}) for i, u in enumerate(atts)]
    rows += [("UK-KDG", ALLIED, an[3], 1)] if "UK-KDG" not in defs else []
    if dumps:
        rows += [("AL-Dump#1", ALLIED, DEF), ("AX-Dump#1", AXIS, an[0]), ("AX-Dump#2", AXIS, an[1])]
    st = make_state(rows, surprise=bool(seed % 3 == 0), first=AXIS, phase=8)
    for u in st.units.values():
        c = info(st, u.id)
        if u.steps > c.max_steps:
            u.steps = c.max_steps
    if form == "mobile":
        try:
            combat.check_declaration(st, AXIS, [], {"attackers": atts, "hexes": [DEF], "form": "mobile"})
        except IllegalAction:
            form = "regular"
    initial = {u.id: (u.steps, info(st, u.id).step_weight) for u in st.units.values() if info(st, u.id).is_combat}
    eng, fr = start(st, SeededDice(), attackers=atts, hex=DEF, form=form)
    eng.state.seed = seed
    rng = random.Random(seed)
    drive(eng, lambda d: rng.choice(d.options).action)
    out = fr.data["outcome"]
    lost = 0
    for uid, (steps0, w) in initial.items():
        u = eng.state.units[uid]
        assert isinstance(u.loc, str) and (u.loc.startswith(("box:", "track:")) or Hex.parse(u.loc))
        now = 0 if u.loc.startswith("box:") else u.steps
        assert 0 <= now <= steps0
        lost += (steps0 - now) * w
    # steps conserved (14.6), over every combat fought (an exploitation may overrun, 14.9.3): the `combats` query
    fought = eng.query("combats")["combats"]
    assert fought[-1]["hexes"] == [DEF] and fought[-1]["attacker_losses"] == out["attacker_losses"]
    assert lost == sum(c["attacker_losses"] + c["defender_losses"] for c in fought)
    for x in fr.data.get("retreat_log", []):
        p = x["path"]
        assert len(set(p)) == len(p) and len(p) - 1 <= 6                 # 14.7.2: never the same hex twice
        assert all(Hex.parse(a).distance(Hex.parse(b)) == 1 for a, b in zip(p, p[1:]))
        side = eng.state.units[x["unit"]].side
        # (an exploitation overrun may later clear the hex a unit retreated into; a unit eliminated at the end
        # of its retreat, 14.7.1, leaves the hex free for the attacker's own retreat)
        if not out["exploit"] and not eng.state.units[x["unit"]].loc.startswith("box:"):
            assert not any(v.side != side for v in eng.state.units_at(p[-1]))  # never into enemy units
