"""Event cards (5.0, 23.0-23.2): all 48 load and each card's key facts from the rules hold."""

from __future__ import annotations

import pytest

from core import cards
from core.cards import CardError, arrival_gt, card, cards_of, es_on_play, reinforcements_due, withdrawals_due


def test_5_0_there_are_28_allied_and_20_axis_cards():
    assert [c.id for c in cards_of("Allied")] == [f"ALC-{n}" for n in range(1, 29)]
    assert [c.id for c in cards_of("Axis")] == [f"AXC-{n}" for n in range(1, 21)]


def test_5_0_five_card_types():
    types = {c.type for c in cards.all_cards().values()}
    assert types == {"at_start", "met", "reinforcement", "monthly_support", "event"}


def test_every_card_has_text_and_provenance():
    for c in cards.all_cards().values():
        assert c.text.strip() and c.source in ("rules", "reconstructed") and c.rule.startswith("23.")


def test_every_unit_a_card_names_exists_in_resources_counters():
    assert cards.unknown_units() == []


# ------------------------------------------------------------------ at start cards


def test_3_1_alc2_setup_as_the_card_image():
    c = card("ALC-2")
    assert (c.type, c.play.window, c.discard.when) == ("at_start", "at_start", "after_setup")
    w2118 = [p for p in c.setup if p.where == "W2118" and p.within == 0][0]
    assert set(w2118.units) == {"UK-22Bde", "AL-Base", "AL-MSU", "AL-Railhead"} and w2118.active == ["AL-Base"]
    ring = [p for p in c.setup if p.where == "W2118" and p.within == 3][0]
    assert set(ring.units) == {"UK-WDF", "UK-4LtArm", "UK-7SG", "UK-11Huss", "UK-7RTR",
                               "IN-5IndBG", "IN-11IndBG", "IN-CIH"}
    assert any(p.where == "W2232" for p in c.setup)


def test_5_0_axc2_setup_as_the_card_image():
    c = card("AXC-2")
    by = {(p.where, p.within, p.adjacent): p for p in c.setup}
    tob = by[("C2331", 0, False)]
    assert set(tob.units) == {"IT-Tobruk", "AX-Base", "AX-MSU", "AX-Dump"} and tob.active == ["AX-Base"]
    assert by[("box:Oasis:Kufra", 0, False)].units == ["IT-Kufra"]
    assert by[("C2331", 0, True)].fort_levels == [2, 2, 2]
    assert set(by[("C2331", 4, False)].units) == {"IT-62Marmarica", "IT-63Cirene", "IT-4CCNN", "IT-1Libyan"}
    singles = {p.where: p.units for p in c.setup if len(p.units) == 1 and p.within == 0}
    assert singles["C2410"] == ["IT-Barce"] and singles["W2104"] == ["IT-Bardia"]
    assert singles["C2308"] == ["IT-Benghazi"] and singles["C0117"] == ["IT-Jalo"]
    assert singles["W2002"] == ["IT-Giarabub2L"] and singles["W0303"] == ["IT-Giarabub"]


def test_24_2_alc1_has_4_nz_bg_on_the_desert_training_track():
    c = card("ALC-1")
    training = [u for p in c.setup if p.where.startswith("track:Training") for u in p.units]
    assert "NZ-4NZBG" in training
    assert any(p.where == "box:CapeRoute" for p in c.setup)


def test_23_1_alc3_vichy_units_in_french_north_africa_inactive_until_torch():
    c = card("ALC-3")
    assert all(p.where.startswith("box:FNA") or p.where[0] in "AT" for p in c.setup)
    assert "vichy_inactive_until_torch" in c.hooks


def test_23_2_axc1_fifth_army_divisions_restricted_until_axc8():
    units = {u for p in card("AXC-1").setup for u in p.units}
    assert {"IT-17Pavia", "IT-25Bologna", "IT-27Brescia", "IT-55Savona", "IT-60Sabratha", "IT-61Sirte"} <= units
    assert "fifth_army_restricted" in card("AXC-1").hooks


# ------------------------------------------------------------------ MET cards


def test_5_0_alc5_levant_track_parameters_exactly_as_the_card_image():
    c = card("ALC-5")
    m = c.met
    assert c.type == "met" and c.discard.when == "never" and c.activation.at_start
    assert m.track == "Levant" and m.boxes == 3 and m.advance == [4, 6]
    assert [(d.value, d.condition) for d in m.drms] == [
        (1, "MET Syria is in crisis"), (1, "AXC-9 is in effect"), (1, "Axis air unit on the track")]
    assert m.drms[2].per == "Axis air unit on track"
    assert [e.es_per_gt for e in m.crisis] == [-1, 0]
    assert m.crisis[1].nrv_port_capacity == 4
    assert m.deactivate == "never" and m.source == "rules"
    assert [p.units for p in c.setup] == [["UK-Royals", "IN-7IndBG"]]


def test_22_2_met_track_lengths_match_the_middle_east_tracks_table():
    boxes = {card(i).met.track: card(i).met.boxes for i in ("ALC-4", "ALC-5", "ALC-6", "ALC-16", "ALC-17", "ALC-19")}
    assert boxes == {"AOI": 5, "Levant": 3, "SW Asia": 5, "Greece": 4, "Syria": 5, "Pacific": 3}


def test_23_1_alc6_sw_asia_put_in_play_by_axc10_active_next_gt_never_deactivated():
    c = card("ALC-6")
    assert c.activation.after_played == ["AXC-10"] and c.activation.delay == 1
    assert c.met.deactivate == "never" and c.discard.when == "never"
    assert any(link.card == "ALC-6" for link in card("AXC-10").activates)


def test_23_1_alc16_greek_campaign_es_per_crisis_withdrawal_and_crete():
    c = card("ALC-16")
    assert c.activation.after_played == ["ALC-12", "AXC-5"] and c.activation.delay == 1
    assert [(e.shift, e.when) for e in c.es] == [(1, "per_gt_in_crisis")]
    assert {"greek_withdrawal", "greek_deactivation"} <= set(c.hooks)
    assert any(link.card == "AXC-13" and link.when == "on_deactivate" for link in c.activates)
    gt13 = [a for a in c.reinforcements if a.gt == 13][0]
    assert gt13.or_es == 1   # 23.1 ALC-16(c): take the GT 13 reinforcements or extend one GT


def test_23_1_alc17_syria_shortens_one_gt_per_crisis_gt():
    assert [(e.shift, e.when) for e in card("ALC-17").es] == [(-1, "per_gt_in_crisis")]


def test_23_1_alc19_pacific_on_gt_14_no_units_min_strength_43():
    c = card("ALC-19")
    assert c.activation.gt == 14 and "pacific_min_strength_43" in c.hooks
    assert any(e.es_per_gt == -1 for e in c.met.crisis)


# ------------------------------------------------------------------ events


def test_23_1_alc12_taranto_forced_on_gt_9_es_minus_2_discard_end_gt_12():
    c = card("ALC-12")
    assert c.play.forced_gt == 9 and c.play.hook == "taranto_forced_activation"
    assert es_on_play(c) == -2
    assert (c.discard.when, c.discard.gt) == ("end_of_gt", 12)
    links = {(link.card, link.when, link.gt) for link in c.activates}
    assert ("ALC-13", "gt", 7) in links and ("ALC-21", "gt", 12) in links and ("ALC-14", "on_play", 0) in links
    fleets = [a for a in c.reinforcements if a.t == 0 and "UK-MedFleet" in a.units][0]
    assert set(fleets.units) == {"UK-MedFleet", "UK-ForceH", "UK-MaltaFleet"}     # 20.4


def test_23_1_alc11_allies_appeal_each_play_shortens_one_gt_next_gt_after_taranto():
    c = card("ALC-11")
    assert c.activation.after_played == ["ALC-12"] and c.activation.delay == 1
    assert c.play.repeatable and not c.once_per_game and es_on_play(c) == -1


def test_23_1_alc10_monthly_support_two_msu_each_gt():
    c = card("ALC-10")
    assert c.type == "monthly_support" and c.play.window == "each_gt"
    assert [a.units.count("AL-MSU") for a in c.reinforcements if a.each_gt] == [2]
    assert reinforcements_due(c, 1, 20)[0].units.count("AL-MSU") == 2


def test_23_1_alc14_eighth_army_es_minus_4_and_gt8_gt18_choice():
    c = card("ALC-14")
    assert es_on_play(c) == -4
    assert sorted((e.gt, e.shift) for e in c.es if e.or_units) == [(8, 1), (18, 1)]
    assert {a.gt for a in c.reinforcements if a.or_es == 1} == {8, 18}
    assert (c.discard.gt, c.discard.then_activate) == (18, ["ALC-15"])


def test_eop_alc14_withdraws_wdf_on_gt_9():
    c = card("ALC-14")
    assert [w.units for w in withdrawals_due(c, 8, 9)] == [["UK-WDF"]]


def test_23_1_alc15_gts_26_27_28_extend_or_units_discard_gt_30():
    c = card("ALC-15")
    assert sorted(e.gt for e in c.es if e.or_units) == [26, 27, 28]
    assert c.discard.gt == 30


def test_23_1_alc18_twelve_australian_units():
    units = card("ALC-18").withdrawals[0].units
    assert len(units) == 12 and all(u.startswith("AU-") for u in units)


def test_23_1_alc20_brigade_groups_from_gt_21_with_roll():
    c = card("ALC-20")
    assert c.play.earliest_gt == 21 and "brigade_groups_roll" in c.hooks


def test_23_1_alc21_torch_buildup_gt12_discard_gt29_alc23_from_gt27_es_minus_6():
    c = card("ALC-21")
    assert c.activation.gt == 12 and c.activation.after_played == ["ALC-12"]
    assert (c.discard.gt, c.discard.then_activate) == (29, ["ALC-22"])
    t = card("ALC-23")
    assert t.play.earliest_gt == 27 and es_on_play(t) == -6
    assert {link.card for link in t.activates} == {"ALC-24", "ALC-25", "ALC-26", "ALC-27", "AXC-18", "AXC-19"}


def test_23_1_alc25_us_inexperience_and_alc26_alc28_es():
    assert "us_inexperience" in card("ALC-25").hooks
    assert sorted(e.shift for e in card("ALC-26").es) == [-2, -1]
    assert [e.shift for e in card("ALC-28").es] == [1]


def test_23_2_axc4_appeal_extends_one_gt_each_play():
    c = card("AXC-4")
    assert c.play.repeatable and es_on_play(c) == 1
    assert set(c.activation.any_of) == {"AXC-9", "AXC-10"}


def test_23_2_axc5_parallel_war_es_plus_3_plus_3_discard_gt7():
    c = card("AXC-5")
    assert es_on_play(c) == 3
    assert [e.shift for e in c.es if e.when == "condition"] == [3]
    assert (c.discard.gt, c.discard.then_activate) == (7, ["AXC-6"])
    assert any(link.card == "AXC-8" for link in c.activates)


def test_24_1_axc5_units_babini_depleted_libya_air_san_marco_gt10():
    c = card("AXC-5")
    first = [a for a in c.reinforcements if a.t == 0 and "IT-Babini" in a.units][0]
    assert set(first.units) == {"IT-64Catanzaro", "IT-Babini", "IT-Maletti", "IT-RaggX"} and first.depleted == ["IT-Babini"]
    assert [a.units for a in c.reinforcements if a.gt == 10] == [["IT-SanMarco"]]


def test_23_2_parallel_war_and_afrikakorps_chains():
    assert (card("AXC-6").discard.gt, card("AXC-6").discard.then_activate) == (19, ["AXC-7"])
    assert card("AXC-7").discard.gt == 29
    assert (card("AXC-11").discard.gt, card("AXC-11").discard.then_activate) == (19, ["AXC-12"])
    assert card("AXC-12").discard.gt == 28


def test_23_2_axc10_afrikakorps_es_plus_12_minus_3_if_gt10_refused():
    c = card("AXC-10")
    assert c.activation.after_played == ["AXC-5", "ALC-12"] and c.activation.delay == 1
    assert es_on_play(c) == 12
    assert [(e.gt, e.shift) for e in c.es if e.or_units] == [(10, -3)]
    assert [a.or_es for a in c.reinforcements if a.gt == 10] == [-3]
    assert (c.discard.gt, c.discard.then_activate) == (10, ["AXC-11"])


def test_25_1_axc10_stg1_arrives_gt9():
    assert any("GE-StGI" in a.units for a in card("AXC-10").reinforcements if a.gt == 9)


def test_23_2_axc16_malta_from_gt20_es_plus_3_air_gt8_in_sicily():
    c = card("AXC-16")
    assert c.play.earliest_gt == 20 and [e.shift for e in c.es] == [3]
    assert [a.where for a in c.reinforcements if a.gt == 8] == ["box:AirSicily:Axis"]
    assert "malta_invasion" in c.hooks


def test_23_2_axc18_aida_es_plus_1_plus_2_four_gts():
    c = card("AXC-18")
    assert es_on_play(c) == 1 and [e.shift for e in c.es if e.when == "condition"] == [2]
    assert (c.discard.when, c.discard.gts) == ("after_gts", 4)


def test_23_2_axc19_fall_braun_with_alc21_discard_gt30_then_axc20():
    c = card("AXC-19")
    assert c.activation.after_played == ["ALC-21"]
    assert (c.discard.gt, c.discard.then_activate) == (30, ["AXC-20"])


def test_23_2_axc13_crete_reinforcements_gt18_and_gt27():
    gts = {a.gt for a in card("AXC-13").reinforcements}
    assert {18, 27} <= gts
    assert card("AXC-13").activation.after_discarded == ["ALC-16"]


def test_23_2_axc15_egyptian_revolt_two_gts():
    c = card("AXC-15")
    assert (c.discard.when, c.discard.gts) == ("after_gts", 2) and "egyptian_revolt" in c.hooks


# ------------------------------------------------------------------ helpers


def test_we03_5_0_t_plus_n_counts_from_the_gt_of_play():
    c = card("AXC-8")
    assert [a.units for a in reinforcements_due(c, 5, 6)] == [["IT-61Sirte"]]    # T+1
    assert [a.units for a in reinforcements_due(c, 5, 7)] == [["IT-60Sabratha"]]  # T+2


def test_7_1_a_fixed_gt_already_passed_arrives_on_the_gt_of_play():
    c = card("ALC-8")
    gt9 = [a for a in c.reinforcements if a.gt == 9][0]
    assert arrival_gt(gt9, 5) == 9
    assert arrival_gt(gt9, 11) == 11
    assert gt9 in reinforcements_due(c, 11, 11)


def test_every_procedure_hook_is_named():
    hooks = cards.all_hooks()
    assert "taranto_forced_activation" in hooks and "malta_invasion" in hooks and len(hooks) > 40
    assert all(h and " " not in h for h in hooks)


def test_every_card_reference_points_at_a_real_card():
    ids = set(cards.all_cards())
    for c in cards.all_cards().values():
        for ref in c.activation.after_played + c.activation.after_discarded + c.discard.then_activate:
            assert ref in ids


# ------------------------------------------------------------------ validation


@pytest.fixture
def card_dir(tmp_path, monkeypatch):
    real = cards.resource("cards")
    for p in real.glob("*.toml"):
        (tmp_path / p.name).write_text(p.read_text())
    monkeypatch.setattr(cards, "resource", lambda *parts: tmp_path.joinpath(*parts[1:]))
    cards.all_cards.cache_clear()
    yield tmp_path
    cards.all_cards.cache_clear()


def test_validation_bad_unit_id_names_file_card_and_field(card_dir):
    p = card_dir / "allied.toml"
    p.write_text(p.read_text().replace('units = ["UK-Royals", "IN-7IndBG"]', 'units = ["Royals", "IN-7IndBG"]'))
    with pytest.raises(CardError, match=r"allied\.toml: card\[4\] \(ALC-5\)\.setup\[0\]\.units\[0\]"):
        cards.all_cards()


def test_validation_missing_card_is_reported(card_dir):
    p = card_dir / "axis.toml"
    text = p.read_text()
    start = text.index("# =========================================================================== AXC-20")
    p.write_text(text[:start])
    with pytest.raises(CardError, match=r"axis\.toml: missing \['AXC-20'\]"):
        cards.all_cards()


def test_validation_bad_advance_range(card_dir):
    p = card_dir / "allied.toml"
    p.write_text(p.read_text().replace("advance = [4, 6]", "advance = [4, 7]", 1))
    with pytest.raises(CardError, match=r"met\.advance"):
        cards.all_cards()
