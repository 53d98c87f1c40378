"""Issue 17: the campaign schedule of 24.0-33.0 — cards' each-GT support, the counter mix (2.4), the ledger.

Every test plays a real scenario set-up through ``Engine.apply`` only (both sides pass) and reads the ledger
(core.ledger) that ``dfd ledger`` prints.
"""

from __future__ import annotations

import pytest

from core import cards, mapdata
from core.rules import offmap, reinforcements
from tests.ledger_kit import LedgerPlay, held, pass_only, support


# --------------------------------------------------------------------------- 5.0 / 23.0: each-GT support


@pytest.mark.parametrize("scenario,cid,gts", [
    ("desert-war", "ALC-7", range(2, 8)),          # 28.2: in play from the start, discarded at the end of GT 7
    ("desert-war", "ALC-8", range(8, 12)),         # put in play when ALC-7 is discarded
    ("desert-war", "ALC-9", range(12, 19)),
    ("desert-war", "ALC-10", range(2, 21)),
    ("desert-fox", "ALC-14", range(11, 19)),       # 27.2: active; discarded at the end of GT 18
    ("desert-fox", "ALC-15", range(19, 30)),       # put in play when ALC-14 is discarded
    ("desert-war", "AXC-3", range(2, 21)),
    ("desert-fox", "AXC-11", [11, 12, 14, 15, 16, 17, 18, 19, 20]),   # 27.1 GT-13: one GT later from GT 13
    ("desert-fox", "AXC-12", range(21, 30)),
    ("desert-fox", "AXC-6", [11, 12, 14, 15, 16, 17, 18, 19, 20]),
    ("desert-fox", "AXC-7", range(21, 30)),
    ("north-african-campaign", "AXC-19", range(12, 21)),
])
def test_5_0_each_gt_support_of_every_card_in_play_is_paid(scenario, cid, gts):
    """5.0 Monthly Support / 23.0: the items a card in play lists for each GT arrive every GT it is in play (issue
    17 item 1: only ALC-10 and AXC-3 paid before)."""
    p = pass_only(scenario)
    per_gt = sum(len(a.units) for a in cards.card(cid).reinforcements if a.each_gt)
    src = f"23.{1 if cid.startswith('ALC') else 2} {cid} (each GT)"
    for gt in gts:
        assert support(p.turn(gt), src) == per_gt, (cid, gt, p.turn(gt)["support"])


def test_23_2_axc3_support_is_cumulative_with_axc11_german_rp():
    """23.2 AXC-3 Important: the MSU/RP of AXC-5, AXC-10 and AXC-19 are cumulative with AXC-3's; in Desert Fox
    (GT 10-29) the Germans receive refit points each GT (17.2.1 needs them)."""
    t = pass_only("desert-fox").turn(12)
    assert support(t, "23.2 AXC-3", "dump") == 2 and support(t, "23.2 AXC-3", "RP") == 1
    assert support(t, "23.2 AXC-11", "RP") == 1 and support(t, "23.2 AXC-11", "MSU") == 1
    assert any(s["nationality"] == "GE" and s["kind"] == "RP" for s in t["support"])


def test_23_1_alc14_support_from_gt_8_boundary():
    """23.1 ALC-14 b): the 'Turn 8' items are in effect from GT 8 (or the GT of play if later): GT 7 pays
    nothing, GT 8 pays."""
    c = cards.card("ALC-14")
    each = [a for a in c.reinforcements if a.each_gt]
    assert not [a for a in cards.reinforcements_due(c, 5, 7) if a.each_gt]
    assert [a for a in cards.reinforcements_due(c, 5, 8) if a.each_gt] == each
    assert [a for a in cards.reinforcements_due(c, 12, 12) if a.each_gt] == each


def test_26_1_sonnenblume_pays_the_support_level_without_the_cards_units():
    """26.1: 'Do not use the reinforcements noted as arriving for AXC-6 and AXC-10, the cards are only listed to
    note the level of support given as monthly support'; 26.2 the same for ALC-12 and ALC-14 (R-SC-SUPPORT)."""
    p = pass_only("sonnenblume")
    for gt in (11, 12, 13, 14):
        t = p.turn(gt)
        assert support(t, "23.2 AXC-6", "RP") == 1
        assert support(t, "23.2 AXC-10", "RP") == 1      # still the support level after AXC-10's GT-10 discard
        assert support(t, "23.1 ALC-14") == 2
        srcs = {a["from"] for a in t["arrived"]}
        assert not {s for s in srcs if s.startswith(("23.2 AXC-6", "23.2 AXC-10", "23.1 ALC-12", "23.1 ALC-14"))}


def test_24_1_fox_killed_sets_aside_axc5_support():
    """24.1: AXC-5 'Ignore the arrival GTs (after set up the card should be aside)'; the Axis support is 24.1's
    'Each GT: 2 x Dump, 1 x Italian RP' only (AXC-3 is not used)."""
    p = pass_only("fox-killed")
    for gt in (5, 6, 7, 8):
        t = p.turn(gt)
        axis = [s for s in t["support"] if s["side"] == "Axis"]
        assert {s["source"] for s in axis} == {"24.1"}
        assert support(t, "24.1", "dump") == 2 and support(t, "24.1", "RP") == 1


# --------------------------------------------------------------------------- 2.4: the counter mix never cancels


def test_2_4_msu_mix_holds_back_and_never_cancels_a_stated_arrival():
    """2.4 Exception / R-CTR-MIX-HOLD: 24.2 'Each GT: 4 x MSU' — when all 10 (reconstructed) MSU counters are in
    play, the MSU is held back (the ledger says why) and stays due: nothing is lost."""
    p = pass_only("fox-killed")
    for gt in (5, 6, 7, 8):
        assert support(p.turn(gt), "24.2", "MSU") == 4        # received + held back = the 4 the rules state
    bite = next(t for t in p.doc()["turns"] if t["held_back"])
    assert "2.4" in bite["held_back"][0]["why"]
    in_play = sum(1 for u in p.state.units.values() if offmap.base_id(u.id) == "AL-MSU" and u.loc != offmap.REMOVED)
    assert in_play == offmap.mix_limit("AL-MSU") == 10
    waiting = [i for i in p.state.vars["reinf"] if i["unit"] == "AL-MSU"]
    assert len(waiting) == sum(h["count"] for h in p.doc()["turns"][-1]["held_back"] if h["what"] == "AL-MSU")


def test_2_4_mix_boundary_limit_and_limit_minus_one():
    """2.4: with 10 MSU in play the next is held back; with 9 it arrives."""
    p = LedgerPlay("desert-fox").until_gt(11)
    eng = p.eng
    msu = [u for u in eng.state.units.values() if offmap.base_id(u.id) == "AL-MSU" and u.loc != offmap.REMOVED]
    assert len(msu) == 10 and reinforcements.mix_full(eng, "AL-MSU")
    held_now: list[dict] = []
    item = {"unit": "AL-MSU", "gt": eng.state.gt, "side": "Allied", "rule": "test"}
    kept = reinforcements.hold_back(eng, item, held_now)
    assert kept["gt"] == eng.state.gt + 1 and held_now[0]["since"] == eng.state.gt
    offmap.remove_unit(eng, msu[0].id, "test", "one MSU leaves play")
    assert not reinforcements.mix_full(eng, "AL-MSU")


def test_ledger_held_back_shows_the_limit_biting_in_desert_fox():
    """Issue 17 item 9: show the player when a limit bites (ledger and game log)."""
    p = pass_only("desert-fox")
    t = p.turn(11)
    assert held(t, "23.1 ALC-10") >= 1
    assert any("held back" in e and "2.4" in e for e in p.events())


# --------------------------------------------------------------------------- 29.3: neutral Vichy French


def test_29_3_neutral_vichy_control_nothing_pass_only_run_for_tunis_is_a_draw():
    """29.3 / 22.7 (R-VIC-VICHY, R-VIC-NONE): a side that does nothing does not win; Tunis held by the Vichy
    French garrison is controlled by neither player, and 29.3 gives no winner then."""
    from core.rules import victory_rules
    p = pass_only("run-for-tunis")
    assert p.state.gt == 31 and p.eng.pending() is None
    assert any(offmap.base_id(u.id).startswith("VFA-") for u in p.state.units.values() if u.loc == "T6017")
    assert victory_rules.controller(p.eng, "T6017") == "VF"      # 29.0's instruction; the garrison adds nothing
    assert p.state.result["winner"] is None and p.state.result["level"] == "draw"


def test_29_3_joined_vichy_french_control_tunis_for_the_allies():
    """ALC-21 i) 'join': VF units that join the Allies control their hex for them (the limit of R-VIC-VICHY)."""
    from core.rules import victory_rules
    p = LedgerPlay("run-for-tunis")
    vf = [u for u in p.state.units.values() if u.loc == "T6017" and offmap.base_id(u.id).startswith("VFA-")]
    assert victory_rules.controller(p.eng, "T6017") == "VF"
    for u in vf:
        u.flags = dict(u.flags) | {"vichy": "joined"}     # the reaction table's "join" (events.vichy_reaction)
    assert victory_rules.controller(p.eng, "T6017") == "Allied"


# --------------------------------------------------------------------------- 30.1 arrival groups (31.1)

GROUP_STEPS = {"Group 1": 5, "Group 2": 4, "Group 3": 4, "Group 4": 3, "Group 5": 3, "Group 6": 3, "Group 7": 2,
               "Group 8": 3}


def _group_result(p: LedgerPlay, gt: int) -> tuple[dict[str, int], list[str]]:
    """(steps arrived per group, units sent to the Refit Box by a group) from the ledger and the units."""
    arrived: dict[str, int] = {}
    refit = []
    for t in p.doc()["turns"]:
        if t["gt"] != gt:
            continue
        for a in t["arrived"]:
            if " Group " not in a["from"]:
                continue
            grp = "Group " + a["from"].rsplit(" Group ", 1)[1]
            if a["to"].startswith("box:Refit"):
                refit.append(a["unit"])
            else:
                arrived[grp] = arrived.get(grp, 0) + p.state.units[a["unit"]].steps
    return arrived, refit


def test_30_1_trail_of_the_fox_groups_deliver_their_steps_group4_from_the_destroyed_box():
    """30.1 / R-SC-TOTF-GROUP4: Group 4 (3 steps) takes 125 (2 steps) from the Destroyed Box and 164 Aufkl (1);
    382 and 433 go to the Refit Box.  Every group delivers exactly its steps."""
    p = LedgerPlay("trail-of-the-fox")
    arrived, refit = _group_result(p, 31)
    assert arrived == GROUP_STEPS
    el_agheila = mapdata.find("El Agheila").label     # S0734 = C0701 (30.1)
    assert p.state.units["GE-125"].loc == el_agheila and p.state.units["GE-164Aufkl"].loc == el_agheila
    assert p.state.units["GE-382"].loc.startswith("box:Refit") and p.state.units["GE-433"].loc.startswith("box:Refit")
    assert {"GE-382", "GE-433"} <= set(refit)


def test_31_1_tunisian_campaign_groups_keep_their_step_limits():
    """31.1 'Set up in accordance with 29.1 and 30.1': the eight groups arrive on GT 31 with their step limits
    (27 steps), the rest to the Refit Box (issue 17 item 4: 46 steps arrived before)."""
    p = LedgerPlay("tunisian-campaign").until_gt(31)
    arrived, refit = _group_result(p, 31)
    assert arrived == GROUP_STEPS and sum(arrived.values()) == 27
    assert refit and all(p.state.units[u].loc.startswith("box:Refit") for u in refit)


def test_31_1_pistoia_sets_up_at_sirte_s1420():
    """31.1 'S1410 (Sirte): 16 Pistoia' — Sirte is S1420 (R-MAP-SIRTE)."""
    p = LedgerPlay("tunisian-campaign")
    assert p.state.units["IT-16Pistoia"].loc == "S1420" == mapdata.find("Sirte").label


# --------------------------------------------------------------------------- counters: IT-Nizza (EoP g)


def test_eop_g_nizza_road_marches_misurata_to_el_agheila():
    """Example of Play g): 'Nizza (using road march) to El Agheila (C0701)' from Misurata (L2429).  A mech unit
    pays 1 MP per primary road hex (EoP d), too many for MA 22 + 7; Nizza is trucked (1/4 MP per road hex,
    R-CTR-NIZZA)."""
    from core import terrain
    from core.counters import all_counters
    from core.decisions import AXIS, Action
    from core.rules import tec
    from tests.ground_helpers import engine_at_movement, unit

    tec.use_map(None)
    nizza = all_counters()["IT-Nizza"]
    assert nizza.move_class == "trucked" and not nizza.mobile
    mech_cost, _ = terrain.cheapest_path("L2429", "C0701", "mech", roads_only=True)
    assert mech_cost > nizza.ma + 7                      # a mech Nizza could not make move g)
    _, path = terrain.cheapest_path("L2429", "C0701", "trucked", roads_only=True)
    eng = engine_at_movement([unit("IT-Nizza", AXIS, "L2429"), unit("AX-Base#1", AXIS, "L2817", active=True)])
    eng.apply(Action(kind="move", side=AXIS, args={"units": ["IT-Nizza"], "path": [h.label for h in path[1:]]}))
    assert eng.state.units["IT-Nizza"].loc == "C0701"


# --------------------------------------------------------------------------- one fact, one place


def test_28_1_desert_war_and_nac_set_up_every_unit_of_alc1_and_axc1():
    """28.1/28.2, 33.1/33.2 'Units are set up as directed by AXC-1 ... ALC-1': the scenarios read the cards (one
    fact, one place), so the Training Track units, LRDG, 202 Group and 10 Ber enter and ALC-18's twelve
    Australian units exist (issue 17 item 2; 24.2 b shows ALC-1 holds the Training Track units)."""
    from core.rules import events
    for sid in ("desert-war", "north-african-campaign"):
        p = LedgerPlay(sid)
        on_cards = [(u, cp.where) for cid in ("ALC-1", "AXC-1") for cp in cards.card(cid).setup
                    for u in cards.placement_units(cp)
                    if "-MSU" not in u and "-Dump" not in u and "-RP" not in u and "-Base" not in u]
        for u, where in on_cards:     # the Gadamis Oasis Box set-up only with 16.0 (R-OASIS-OFF)
            assert (u in p.state.units) != where.lower().startswith("box:oasis:"), (sid, u)
        p.until_gt(18)
        aus = {u for u in p.state.units if u.startswith("AU-") and events._is_ground(u)}
        assert len(aus) == 12                                   # R-CTR-AUS12
        for u in ("AU-16AusBG", "AU-17AusBG", "AU-19AusBG", "AU-6AusCav", "NZ-6NZBG", "NZ-4NZBG"):
            assert p.state.units[u].loc == offmap.NRV, (sid, u)  # trained (8.5.1) and placed in the NRV


def test_29_1_fall_braun_and_29_2_torch_box_come_from_the_cards():
    """29.1 'Fall Braun Box: All units on AXC-19'; 29.2 'Place all units listed on ALC-21 and ALC-22, GT 30 units
    in the Torch Box' — read from the cards' arrivals (R-SC-FALLBRAUN, R-SC-TORCH)."""
    for sid in ("run-for-tunis", "tunisian-campaign"):
        st = LedgerPlay(sid).state
        for cid, box in (("AXC-19", offmap.FALL_BRAUN), ("ALC-21", offmap.TORCH), ("ALC-22", offmap.TORCH)):
            for a in cards.card(cid).reinforcements:
                if a.gt and a.gt <= 30:
                    for u in a.units:
                        if "-" in u and not u.startswith(("AL-", "AX-")) and not u.endswith("-RP"):
                            assert st.units[u].loc == box, (sid, u)
        assert st.units["GE-47"].loc == offmap.SICILY      # 29.1 Sicily, not the Fall Braun Box


def test_dfd_validate_fails_on_a_planted_contradiction_between_a_scenario_and_a_card(tmp_path, monkeypatch, capsys):
    """One fact, one place: a scenario line that restates a card's set-up differently fails `dfd validate`,
    naming the file, the unit and the card; the same line citing the rule that changes it (`changes_card`)
    passes."""
    import shutil

    from app import cli
    from core import resources, scenario

    src = resources.SCENARIOS
    dst = tmp_path / "scenarios"
    shutil.copytree(src, dst)
    f = dst / "desert-war.toml"
    text = f.read_text(encoding="utf-8")
    planted = '  {unit = "UK-LRDG", at = "box:CapeRoute", card = "ALC-1", source = "rules", rule = "28.2"},\n'
    assert "UK-LRDG" not in text
    f.write_text(text.replace("setup = [\n", "setup = [\n" + planted, 1).replace(
        '  {card = "ALC-1", rule = "28.2"},', '  {card = "ALC-1", rule = "28.2", skip_units = ["UK-LRDG"]},'),
        encoding="utf-8")
    monkeypatch.setattr(scenario, "SCENARIOS", dst)
    scenario.all_scenarios.cache_clear()
    try:
        assert cli.main(["validate"]) == 1
        out = capsys.readouterr().out
        assert "desert-war.toml" in out and "UK-LRDG" in out and "ALC-1" in out and "box:NRV" in out
        f.write_text(f.read_text(encoding="utf-8").replace('card = "ALC-1", source = "rules", rule = "28.2"},\n  ', 'card = "ALC-1", changes_card = "test", source = "rules", rule = "28.2"},\n  ', 1), encoding="utf-8")
        scenario.all_scenarios.cache_clear()
        assert cli.main(["validate"]) == 0
    finally:
        scenario.all_scenarios.cache_clear()


# --------------------------------------------------------------------------- dfd ledger


def test_dfd_ledger_prints_the_table_and_json_ends_with_one_document(tmp_path, capsys):
    """`dfd ledger FILE` on an autoplay game prints the per-GT table; `--json` prints one JSON document with the
    keys of issue 17 (scenario, turns: gt, arrived, withdrawn, support, eliminated, held_back)."""
    import json

    from app import cli

    f = tmp_path / "fk.dfd"
    assert cli.main(["autoplay", "fox-killed", "--seed", "3", "--bot", "random", "-o", str(f)]) == 0
    capsys.readouterr()
    assert cli.main(["ledger", str(f)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Ledger of fox-killed") and "GT 5" in out and "support" in out and "24.2" in out
    assert cli.main(["ledger", str(f), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["scenario"] == "fox-killed"
    t5 = next(t for t in doc["turns"] if t["gt"] == 5)
    assert {"gt", "arrived", "withdrawn", "support", "eliminated", "held_back"} <= set(t5)
    s = next(s for s in t5["support"] if s["source"] == "24.2" and s["kind"] == "MSU")
    assert s["side"] == "Allied" and s["nationality"] == "AL" and s["count"] + sum(
        h["count"] for h in t5["held_back"] if h["since"] == 5 and h["what"] == "AL-MSU") == 4


# --------------------------------------------------------------------------- provenance


def test_provenance_is_flagged_per_field_and_reported_per_file(capsys):
    """Issue 17: a value flagged `rules` must be stated by the rules. AU-25AusBG: only CF 5 (2.5 errata); the map's
    port capacities and printed forts (Tobruk 3 ports, fort 1) are reconstructed although the place is named by
    the rules; `dfd validate --provenance` prints per file how many values come from the rules."""
    import json

    from app import cli
    from core.counters import all_counters
    from core.resources import RESOURCES

    assert all_counters()["AU-25AusBG"].stated_fields() == ["cf"]
    assert all(c.stated_fields() for c in all_counters().values() if c.source == "rules")
    tobruk = json.loads((RESOURCES / "maps" / "map.json").read_text(encoding="utf-8"))["hexes"]["C2331"]
    assert tobruk["source"] == "rules" and tobruk["field_source"] == {"port": "reconstructed", "fort": "reconstructed"}
    assert cli.main(["validate", "--provenance"]) == 0
    out = capsys.readouterr().out
    rows = {ln.split()[0]: ln.split()[1:] for ln in out.splitlines() if ln.startswith(("resources/", "scenarios/"))}
    assert {"resources/counters/allied.csv", "resources/maps/map.json", "resources/charts/tec.toml",
            "scenarios/desert-war.toml"} <= set(rows)
    assert all(len(v) == 2 and v[0].isdigit() and v[1].isdigit() for v in rows.values())


def _copied_scenarios(tmp_path, monkeypatch):
    import shutil

    from core import resources, scenario

    dst = tmp_path / "scenarios"
    shutil.copytree(resources.SCENARIOS, dst)
    monkeypatch.setattr(scenario, "SCENARIOS", dst)
    scenario.all_scenarios.cache_clear()
    return dst


def test_every_scenario_line_carries_its_source_flag():
    """Issue 17: scenario set-up, reinforcement and withdrawal lines carry `source` like counters and charts:
    `rules` (with the `rule` that states it) or `reconstructed` with a `reason`; each ruled line names its ruling
    (R-SC-PRIMARY, R-MAP-SIRTE, ...)."""
    from core.scenario import all_scenarios

    n = {"rules": 0, "reconstructed": 0}
    for sc in all_scenarios():
        lines = [p for p in sc.setup if not p.from_card] + list(sc.reinforcements) + list(sc.withdrawals)
        for line in lines:
            assert line.source in ("rules", "reconstructed"), (sc.id, line)
            assert line.source == "rules" and line.rule or line.reason.startswith(("R-", "30.1")), (sc.id, line)
            n[line.source] += 1
    assert n["rules"] > 300 and n["reconstructed"] >= 30
    pistoia = next(p for p in next(s for s in all_scenarios() if s.id == "tunisian-campaign").setup
                   if p.unit == "IT-16Pistoia")
    assert pistoia.source == "reconstructed" and pistoia.reason.startswith("R-MAP-SIRTE")


@pytest.mark.parametrize("old,new,why", [
    ('{unit = "IT-27Brescia", at = "C0701", source = "rules", rule = "26.1"}',
     '{unit = "IT-27Brescia", at = "C0701", rule = "26.1"}', "give `source"),
    ('{unit = "IT-27Brescia", at = "C0701", source = "rules", rule = "26.1"}',
     '{unit = "IT-27Brescia", at = "C0701", source = "reconstructed", rule = "26.1"}', "needs a one-line `reason`"),
])
def test_dfd_validate_refuses_a_scenario_line_without_a_true_source_flag(tmp_path, monkeypatch, capsys, old, new, why):
    from app import cli
    from core import scenario

    dst = _copied_scenarios(tmp_path, monkeypatch)
    f = dst / "sonnenblume.toml"
    text = f.read_text(encoding="utf-8")
    assert old in text
    try:
        assert cli.main(["validate"]) == 0
        capsys.readouterr()
        f.write_text(text.replace(old, new, 1), encoding="utf-8")
        scenario.all_scenarios.cache_clear()
        assert cli.main(["validate"]) == 1
        out = capsys.readouterr()
        assert "sonnenblume.toml" in out.out + out.err and why in out.out + out.err
    finally:
        scenario.all_scenarios.cache_clear()


def test_provenance_counts_scenario_lines_by_their_flag(tmp_path, monkeypatch):
    """`dfd validate --provenance` counts a scenario line by its own flag: flipping one `rules` line of Sonnenblume
    to `reconstructed` moves its one value from the first column to the second."""
    from core import data_provenance, scenario

    before = data_provenance.scenario_file(scenario.SCENARIOS / "sonnenblume.toml")
    dst = _copied_scenarios(tmp_path, monkeypatch)
    f = dst / "sonnenblume.toml"
    f.write_text(f.read_text(encoding="utf-8").replace(
        '{unit = "IT-27Brescia", at = "C0701", source = "rules"',
        '{unit = "IT-27Brescia", at = "C0701", source = "reconstructed", reason = "test"', 1), encoding="utf-8")
    try:
        after = data_provenance.scenario_file(f)
    finally:
        scenario.all_scenarios.cache_clear()
    assert after["rules"] == before["rules"] - 1 and after["reconstructed"] == before["reconstructed"] + 1


def test_a_rules_counter_row_must_name_its_stated_fields():
    """A `rules` row without `rules_fields` is refused (the other values would pass for the rules')."""
    from core.counters import all_counters
    import msgspec

    c = all_counters()["AU-25AusBG"]
    assert not c.problems()
    bad = msgspec.structs.replace(c, rules_fields="")
    assert any(p.startswith("rules_fields") for p in bad.problems())
    bad = msgspec.structs.replace(c, rules_fields="cf;colour")
    assert any("'colour'" in p for p in bad.problems())


def test_map_a_wooded_tell_coast_is_not_desert():
    """Issue 17: the wooded coast north of 36 N on Maps A/T (Philippeville, Tabarka) is not desert (21.1/21.2
    Ghiblis and the TEC treat desert differently)."""
    import json

    from core.resources import RESOURCES

    hexes = json.loads((RESOURCES / "maps" / "map.json").read_text(encoding="utf-8"))["hexes"]
    north = {k: v for k, v in hexes.items() if k[0] in "AT" and v.get("lat", 0) >= 36.0 and v["terrain"] != "sea"}
    assert len(north) > 100 and not [k for k, v in north.items() if v["terrain"] == "desert"]
    assert hexes["A6223"]["name"] == "Philippeville" and hexes["T6209"]["name"] == "Tabarka"


def test_docs_data_lists_every_reconstructed_chart_counter_and_card():
    """docs/data.md lists every reconstructed chart entry and counter with its reason (scripts/provenance_doc.py
    regenerates the lists after a data change)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "scripts" / "provenance_doc.py"
    spec = importlib.util.spec_from_file_location("provenance_doc", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.DOC.read_text(encoding="utf-8") == mod.render(), "run scripts/provenance_doc.py and build_docs.py"
    data = (path.parent.parent / "docs" / "data.md").read_text(encoding="utf-8")
    assert "`AU-21AusBG`" in data and "### `crt.toml`" in data and "One fact, one place" in data
