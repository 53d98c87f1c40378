"""22.7 Important / 23.1 ALC-21 i: neutral Vichy French units are enemies of the Allies on the map (R-VICHY-NEUTRAL,
``fna.hostile``): the Allies may declare attacks on them (the Vichy French Reaction Table first), the Axis player
decides for the VF defenders (R-VICHY-DEFENDER, ALC-21 i 4), Allied units may not enter their hexes, joined VF may
not attack them, and the losses of a combat in an FNA box are decisions (R-FNA-BOX-COMBAT)."""

from __future__ import annotations

import copy

import pytest

from core.decisions import ALLIED, AXIS, Action, IllegalAction
from core.dice import ScriptedDice, SeededDice
from core.hexgrid import Hex
from core.rules import combat, fna, supply, tec
from tests.rules_combat_kit import all_events, desert_map, make_state, start
from tests.test_cards_vichy_retreat import put, torch_played

DEF = "C1010"
NEUTRAL = {"flags": {"vichy": "neutral"}}


@pytest.fixture(autouse=True)
def desert():
    tec.use_map(desert_map())
    yield
    tec.use_map(None)


def att_hex() -> str:
    return Hex.parse(DEF).neighbours()[0].label


def vf_state(phase=8, extra=()):
    a = att_hex()
    return make_state([("VFA-Casablanca", ALLIED, DEF, 2, NEUTRAL), ("VFA-Meknes", ALLIED, DEF, 2, NEUTRAL),
                       ("US-1Inf", ALLIED, a, 2), ("US-3Inf", ALLIED, a, 2), ("US-1Arm", ALLIED, a, 2), *extra],
                      phase=phase, first=ALLIED)


def test_fna_hostile_predicate_neutral_vf_are_enemies_of_the_allies_only():
    st = vf_state()
    vf, us = st.units["VFA-Casablanca"], st.units["US-1Inf"]
    assert fna.hostile(vf, ALLIED) and fna.hostile(vf, AXIS) and not fna.hostile(us, ALLIED)
    vf.flags = {"vichy": "joined"}
    assert not fna.hostile(vf, ALLIED)


def test_22_7_alc_21_i_allied_declaration_against_neutral_vf_offered_accepted_and_axis_decides_for_them():
    eng, _ = start(vf_state(), ScriptedDice([1, 4], fallback=SeededDice()), proc="combat_phase", side=ALLIED)
    d = eng.pending()
    decl = [o.action for o in d.options if o.action.kind == "declare" and o.action.args["hexes"] == [DEF]]
    assert decl, "the Allied attack on the neutral VF hex is offered (14.2; 22.7)"
    eng.apply(next(a for a in decl if a.args["form"] == "regular" and not a.args.get("recon")))
    eng.apply(Action(kind="done", side=ALLIED))
    kinds = []
    while (d := eng.pending()) is not None:
        kinds.append((d.kind, d.side))
        assert not (d.kind in ("combat_support", "combat_def_artillery") and d.side == AXIS), \
            "the Axis gives no support to neutral VF (R-VICHY-DEFENDER)"
        eng.apply(d.options[0].action)
    text = " ".join(all_events(eng))
    assert "Vichy French Reaction Table (US)" in text and "Vichy French reaction: fight" in text   # ALC-21 i 1-3
    losses = [s for k, s in kinds if k == "combat_loss"]
    # 14.6: the opposing (Allied) player picks the first VF step; the Axis player, owner for the VF, the rest
    assert losses[:2] == [ALLIED, AXIS]
    assert (("combat_retreat", AXIS) in kinds)                       # ALC-21 i 4: the non-attacking player retreats them
    assert sum(eng.state.units[u].steps for u in ("VFA-Casablanca", "VFA-Meknes")) < 4


def test_alc_21_i_join_result_ends_the_map_combat_unresolved():
    eng, _ = start(vf_state(), ScriptedDice([5], fallback=SeededDice()), proc="combat_phase", side=ALLIED)
    eng.apply(Action(kind="declare", side=ALLIED, args={"attackers": ["US-1Arm", "US-1Inf", "US-3Inf"],
                                                         "hexes": [DEF], "form": "regular"}))
    eng.apply(Action(kind="done", side=ALLIED))
    while (d := eng.pending()) is not None:
        eng.apply(d.options[0].action)
    assert all(eng.state.units[u].flags["vichy"] == "joined" and eng.state.units[u].steps == 2
               for u in ("VFA-Casablanca", "VFA-Meknes"))


def test_alc_21_important_joined_vf_cannot_attack_neutral_vf_and_neutral_vf_do_not_attack():
    a = att_hex()
    st = vf_state(extra=[("VFA-Fez", ALLIED, a, 2, {"flags": {"vichy": "joined"}})])
    with pytest.raises(IllegalAction, match="join the Allies cannot attack neutral Vichy") as e:
        combat.check_declaration(st, ALLIED, [], {"attackers": ["VFA-Fez", "US-1Inf"], "hexes": [DEF]})
    assert "ALC-21" in e.value.rule
    assert "22.7 Important" in combat.may_attack(st, "VFA-Casablanca")
    opts = combat.declare_options(st, ALLIED, [])
    assert not any("VFA-Fez" in o.action.args.get("attackers", []) and DEF in o.action.args.get("hexes", [])
                   for o in opts)
    assert not any(u.startswith("VFA-Casablanca") for o in opts for u in o.action.args.get("attackers", []))


def test_13_0_alc_21_i_allied_move_into_a_neutral_vf_hex_refused_state_untouched():
    eng, _ = start(vf_state(phase=6), ScriptedDice([]), proc="movement", side=ALLIED, step="VI.3")
    before = copy.deepcopy(eng.state)
    with pytest.raises(IllegalAction) as e:
        eng.apply(Action(kind="move", side=ALLIED, args={"units": ["US-1Arm"], "path": [DEF]}))
    assert "ALC-21 i" in e.value.rule and "neutral Vichy French" in str(e.value)
    assert eng.state.hash() == before.hash()
    with pytest.raises(IllegalAction, match="may not move") as e:          # ALC-21 i: VF do not move
        eng.apply(Action(kind="move", side=ALLIED, args={"units": ["VFA-Casablanca"], "path": [att_hex()]}))
    assert eng.state.hash() == before.hash()
    for o in eng.pending().options:                                        # no offered move enters or moves VF
        if o.action.kind == "move":
            assert DEF not in o.action.args["path"] and not any(u.startswith("VFA-") for u in o.action.args["units"])


def test_12_4_allied_supply_lines_do_not_pass_neutral_vf_hexes():
    st = vf_state()
    gm = tec.map_for(st)
    assert Hex.parse(DEF) in supply._blocked_hexes(st, ALLIED, gm)
    for u in ("VFA-Casablanca", "VFA-Meknes"):
        st.units[u].flags = {"vichy": "joined"}
    assert Hex.parse(DEF) not in supply._blocked_hexes(st, ALLIED, gm)


def _box_fight(die):
    eng = torch_played()
    eng.dice = ScriptedDice([1, die], fallback=SeededDice())          # US column 1: fight; then the CRT die
    for uid in ("VFA-Oran", "VFA-Casablanca"):
        put(eng, uid, "box:Oran")
        eng.state.units[uid].flags = {"vichy": "neutral"}
    put(eng, "US-2509", "box:Oran")
    eng.push("fna_box_combat", step="VIII.1")
    eng._settle()
    eng.apply(next(o.action for o in eng.pending().options if o.action.kind == "fna_box_attack"))
    seen = []
    while (d := eng.pending()) is not None and d.kind in ("combat_loss", "vichy_retreat"):
        seen.append((d.kind, d.side, sorted(o.action.args["unit"] for o in d.options)))
        eng.apply(d.options[-1].action)
    return eng, seen


def test_22_7_box_combat_losses_are_decisions():
    eng, seen = _box_fight(5)                                            # defender Qm, attacker X
    # 14.6 as on the map: the opposing player picks the first step of each side (R-FNA-BOX-COMBAT)
    assert seen[0] == ("combat_loss", ALLIED, ["VFA-Casablanca", "VFA-Oran"])
    assert seen[1] == ("combat_loss", AXIS, ["US-2509"])
    assert [s for k, s, _ in seen[2:]] == [AXIS, AXIS]                   # the VF retreat: the non-attacking player
    assert eng.state.units["VFA-Oran"].steps == 1 and eng.state.units["VFA-Casablanca"].steps == 2
    assert "Combat in the box:Oran box" in " ".join(all_events(eng))


def test_22_7_box_combat_attacker_retreat_is_a_decision_of_the_allied_player():
    eng, seen = _box_fight(1)                                            # defender m, attacker Hw
    assert seen[-1] == ("vichy_retreat", ALLIED, ["US-2509"])              # one leg of the FNA road (14.7.1 w)
    vf_box = eng.state.units["VFA-Casablanca"].loc
    assert eng.state.units["US-2509"].loc in ("box:Orleansville", "box:Tlemcen")
    assert eng.state.units["US-2509"].loc != vf_box                        # not into the neutral VF


def test_13_2_3_road_march_may_not_pass_next_to_neutral_vf():
    from core.rules import movement
    st = vf_state(phase=6)
    gm = tec.map_for(st)
    assert [u.id for u in movement.enemy_units_at_adjacent(st, Hex.parse(att_hex()), ALLIED, gm)] == \
        ["VFA-Casablanca", "VFA-Meknes"]
    assert [u.id for u in movement.enemy_units_at(st, Hex.parse(DEF), ALLIED)] == ["VFA-Casablanca", "VFA-Meknes"]
    assert movement.enemy_units_at(st, Hex.parse(att_hex()), AXIS)             # unchanged for the Axis


def test_alc_21_i_4_retreat_result_of_an_allied_map_attack_is_moved_by_the_axis():
    eng, _ = start(vf_state(), ScriptedDice([3], fallback=SeededDice()), proc="combat_phase", side=ALLIED)
    eng.apply(Action(kind="declare", side=ALLIED, args={"attackers": ["US-1Arm", "US-1Inf", "US-3Inf"],
                                                         "hexes": [DEF], "form": "regular"}))
    eng.apply(Action(kind="done", side=ALLIED))                       # US column, 3: retreat
    d = eng.pending()
    assert d.kind == "vichy_retreat" and d.side == AXIS and "ALC-21 i 4" in d.rule
    assert att_hex() not in {o.action.args["to"] for o in d.options}  # not into the Allied attackers' hex
    while (d := eng.pending()) is not None and d.kind == "vichy_retreat":
        eng.apply(d.options[0].action)
    assert not eng.state.units_at(DEF) and all(eng.state.units[u].steps == 2 for u in ("VFA-Casablanca", "VFA-Meknes"))
    assert {eng.state.units[u].loc for u in ("US-1Arm", "US-1Inf", "US-3Inf")} == {att_hex()}


def test_11_0_neutral_vf_exert_their_zoc_on_the_allies_and_on_the_axis():
    from core.rules import movement, zoc

    st = vf_state()
    adj = {h.label for h in Hex.parse(DEF).neighbours()}
    gm = tec.map_for(st)
    assert adj <= {h.label for h in zoc.zoc_hexes(st, AXIS, gm)}            # the Allies' EZOC (11.0: enemy units)
    assert adj <= {h.label for h in zoc.zoc_hexes(st, ALLIED, gm)}           # the Axis' EZOC, as before
    assert combat.in_ezoc(st, ALLIED, att_hex()) and combat.in_ezoc(st, AXIS, att_hex())
    for u in ("VFA-Casablanca", "VFA-Meknes"):                               # joined: Allied units, no EZOC for them
        st.units[u].flags = {"vichy": "joined"}
    assert not combat.in_ezoc(st, ALLIED, att_hex())
    assert "US-1Inf" not in movement.units_near_enemy(st, ALLIED)           # no enemy unit left near it


def test_13_5_allied_units_within_two_hexes_of_neutral_vf_may_react():
    from core.rules import movement

    st = vf_state()
    assert {"US-1Inf", "US-3Inf", "US-1Arm"} <= set(movement.units_near_enemy(st, ALLIED))
