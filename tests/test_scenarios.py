"""The ten scenarios (24.0-33.0) as data: they load, ``initial_state`` places every unit, and
a sample of set-up lines from every scenario matches the rules text (3.1)."""

from __future__ import annotations

from collections import Counter as Tally
from pathlib import Path

import msgspec
import pytest

from core.counters import all_counters
from core.hexgrid import Hex
from core.newgame import initial_state
from core.scenario import SCENARIOS, Placement, Scenario, ScenarioError, all_scenarios, load, oasis_box_unused

RULES = Path("/work/shared/seeds/000_e25a106a192fc80d.txt")
RULES_TEXT = RULES.read_text(encoding="utf-8") if RULES.exists() else ""


def _state(sid: str, optional: tuple[str, ...] = ()):
    return initial_state(load(sid), 1, optional=optional)


def _loc(st, uid: str) -> str:
    return st.units[uid].loc


def _pending(st, uid: str) -> dict:
    for p in st.vars.get("setup_pending", []):
        if p["unit"] == uid:
            return p
    raise AssertionError(f"{uid} has no 'within N hexes' set-up decision")


def _count_at(st, cid: str, loc: str) -> int:
    return sum(1 for u in st.units.values() if u.id.split("#")[0] == cid and u.loc == loc)


def _hex(label: str) -> str:
    return Hex.parse(label).label


# ---- headers (Game Length of each scenario) ---------------------------------------------------
HEADERS = {  # id: (section, start GT, start phase, end GT, initiative, surprise, maps)
    "fox-killed": ("24.0", 4, 6, 9, "Axis", False, {"C", "W"}),
    "oconnors-war": ("25.0", 4, 6, 11, "Axis", False, {"C", "L", "S", "W"}),
    "sonnenblume": ("26.0", 10, 12, 14, "Axis", True, {"C", "W"}),
    "desert-fox": ("27.0", 10, 12, 29, "Axis", True, {"C", "W"}),
    "desert-war": ("28.0", 1, 6, 33, "Axis", False, {"L", "S", "C", "W"}),
    "run-for-tunis": ("29.0", 30, 6, 31, "Allied", False, {"A", "T"}),
    "trail-of-the-fox": ("30.0", 31, 12, 33, "Axis", False, {"L", "S"}),
    "tunisian-campaign": ("31.0", 30, 6, 36, "Allied", False, {"A", "T", "L", "S"}),
    "rommels-war": ("32.0", 10, 12, 38, "Axis", True, set("ATLSCW")),
    "north-african-campaign": ("33.0", 1, 2, 38, "Axis", False, set("ATLSCW")),
}


def test_all_ten_scenarios_load() -> None:
    assert [s.id for s in all_scenarios()] == list(HEADERS)


@pytest.mark.parametrize("sid", list(HEADERS))
def test_header_matches_game_length(sid: str) -> None:
    sc = load(sid)
    section, gt, phase, end, ini, surprise, maps = HEADERS[sid]
    assert (sc.section, sc.start_gt, sc.start_phase, sc.end_gt, sc.initiative, sc.surprise, set(sc.maps)) == \
        (section, gt, phase, end, ini, surprise, maps)
    if RULES_TEXT:
        assert f"Start: GT {gt}, Phase {phase}" in RULES_TEXT
        assert f"After the completion of GT {end}" in RULES_TEXT


@pytest.mark.parametrize("sid", list(HEADERS))
def test_initial_state_places_every_line(sid: str) -> None:
    sc = load(sid)
    st = initial_state(sc, 7)
    expected = sum(p.count for p in sc.setup if not oasis_box_unused(p.at or "", ()))   # R-OASIS-OFF (16.0)
    assert len(st.units) == expected
    if sc.optional_rules():                     # with 16.0 chosen, the oasis box lines are placed too
        assert len(initial_state(sc, 7, optional=sc.optional_rules()).units) == sum(p.count for p in sc.setup)
    assert (st.gt, st.phase, st.initiative, st.surprise) == (sc.start_gt, sc.start_phase, sc.initiative, sc.surprise)
    pending = {p["unit"] for p in st.vars.get("setup_pending", [])}
    for uid, u in st.units.items():
        assert (u.loc == "setup") == (uid in pending), uid   # within-N lines become the owner's decision (3.1)


@pytest.mark.parametrize("sid", list(HEADERS))
def test_counter_mix_limits_hold(sid: str) -> None:
    """2.4: bases, MSU and dumps in play never exceed the counters provided."""
    st = _state(sid)
    counters = all_counters()
    tally = Tally(u.id.split("#")[0] for u in st.units.values())
    for cid, n in tally.items():
        if counters[cid].mix:
            assert n <= counters[cid].mix, f"{sid}: {n} x {cid} > mix {counters[cid].mix}"


@pytest.mark.parametrize("sid", list(HEADERS))
def test_no_counter_placed_twice(sid: str) -> None:
    sc = load(sid)
    counters = all_counters()
    from core.counters import resolve
    seen = Tally(resolve(p.unit) for p in sc.setup if counters[resolve(p.unit)].kind not in ("supply", "marker"))
    assert [c for c, n in seen.items() if n > 1] == []


@pytest.mark.parametrize("sid", list(HEADERS))
def test_scenario_has_victory_and_cards_data(sid: str) -> None:
    sc = load(sid)
    assert sc.victory, "victory conditions as data"
    assert {v.side for v in sc.victory} >= {"Axis", "Allied"}
    assert all(v.rule for v in sc.victory)
    assert all(p.rule for p in sc.setup), "every set-up line cites its rule"


# ---- samples of set-up lines, quoted from the rules text -----------------------------------------
def test_fox_killed_24() -> None:
    st = _state("fox-killed")
    assert _pending(st, "IT-1CCNN")["within"] == 8 and _pending(st, "IT-1CCNN")["of"] == "C2331"   # 24.1 a
    assert _loc(st, "IT-2CCNN") == "C0803"                                                        # 24.1 b
    assert _count_at(st, "AX-Base", "C0701") == 1                                                 # 24.1 d
    assert _pending(st, "IT-62Marmarica")["within"] == 8                                          # AXC-2 as modified
    assert st.units["IT-Babini"].steps == 1                                                       # 'Babini (depleted)'
    assert _loc(st, "IT-Bardia") == "W2104" and _loc(st, "IT-Jalo") == "C0117"                    # AXC-2 card (5.0)
    assert _loc(st, "UK-22Bde") == "W2118" and _count_at(st, "AL-Railhead", "W2118") == 1          # ALC-2 (3.1)
    assert _pending(st, "UK-WDF") == {**_pending(st, "UK-WDF"), "within": 3, "of": "W2118"}
    assert _pending(st, "IN-7IndBG")["of"] == "W2118"                                             # 24.2 ALC-5
    assert _loc(st, "NZ-4NZBG") == "box:NRV"                                                      # 24.2 b exception
    assert "IT-17Pavia" not in st.units and "IT-Kufra" not in st.units                            # 24.1 c; 24.0 b
    sc = load("fox-killed")
    gt9 = [r for r in sc.reinforcements if r.gt == 9 and r.side == "Allied"]
    assert any(r.depleted and set(r.units) == {"UK-3LtArm", "UK-2SG"} for r in gt9)
    assert [w.units for w in sc.withdrawals if w.gt == 8] == [["IN-5IndBG", "IN-7IndBG", "IN-11IndBG", "IN-CIH"]]


def test_oconnors_war_25() -> None:
    st = _state("oconnors-war")
    assert _loc(st, "IT-2CCNN") == _hex("S0734")                                                  # 25.1 b
    assert _count_at(st, "AX-Base", "C0803") == 1                                                 # 25.1 d
    assert _pending(st, "IT-64Catanzaro")["of"] == "C2331"                                        # 25.1 AXC-5 b
    assert st.units["IT-Babini"].steps == 1
    assert "IT-ISahara" not in st.units                                                           # 25.1 c
    sc = load("oconnors-war")
    assert any(v.kind == "control" and v.hexes == ["L2817"] for v in sc.victory)                  # 25.3


def test_sonnenblume_26() -> None:
    st = _state("sonnenblume")
    for uid in ("IT-27Brescia", "IT-132Ariete", "IT-8Ber", "IT-Nizza", "IT-132Cel"):
        assert _loc(st, uid) == "C0701"                                                           # 26.1
    assert _count_at(st, "AX-MSU", "C0701") == 2 and _count_at(st, "AX-Dump", "C0701") == 2
    assert st.units["AX-Base#1"].active
    for uid in ("GE-Kasta", "GE-5Pz", "GE-Stab200", "GE-3Aufkl", "GE-605PzJg", "GE-I18FLK", "GE-300Oasis"):
        assert _loc(st, uid) == "C0702"
    assert _loc(st, "GE-FFAfrika") == "box:AirNA:Axis"
    assert _loc(st, "IT-SanMarco") == "box:Refit:Axis" and _loc(st, "IT-Maletti") == "box:Destroyed:Axis"
    assert _loc(st, "UK-KDG") == "C0603"                                                          # 26.2
    assert _loc(st, "UK-2SG") == "C0803" and st.units["UK-2SG"].steps == 1
    assert _loc(st, "UK-3LtArm") == "C0804" and st.units["UK-3LtArm"].steps == 1
    assert _loc(st, "UK-Tobruk") == "C2331" and _loc(st, "AU-26AusBG") == "C2331"
    forts = [p for p in st.vars["setup_pending"] if p["unit"].startswith("MK-Fort")]
    assert len(forts) == 3 and all(p["within"] == 1 and p["of"] == "C2331" and p["side"] == "Allied" for p in forts)
    assert all(st.units[p["unit"]].flags["fort_level"] == 1 for p in forts)
    assert _pending(st, "AU-20AusBG")["of"] == "C2410"
    assert st.units["UK-13Corps"].steps == 1 and st.units["UK-22Bde"].steps == 1                  # '22 (d)', '13 Corps (d)'
    assert _count_at(st, "AL-MSU", "box:CapeRoute") == 4
    assert _loc(st, "UK-30Corps") == "box:Refit:Allied"
    assert _count_at(st, "AL-Dump", "C2821") == 1
    sc = load("sonnenblume")
    assert sc.map_mods[0].marker_at == "W2110"
    gt12 = next(r for r in sc.reinforcements if r.gt == 12 and r.side == "Allied")
    assert gt12.roll is not None and gt12.roll.on == [1, 2, 3] and gt12.roll.else_gt == 13
    smashing = [v for v in sc.victory if v.level == "smashing" and v.side == "Axis" and v.kind == "control"]
    assert smashing[0].hexes == ["C2331"] and smashing[0].loc_to == "C0701"


def test_desert_fox_27() -> None:
    st = _state("desert-fox")
    assert _loc(st, "GE-Kasta") == "C0702"                                                        # uses 26.1
    for uid in ("IT-Tobruk", "IT-Barce", "IT-Bardia", "IT-Benghazi", "IT-Jalo", "IT-Giarabub"):
        assert _loc(st, uid) == "box:Destroyed:Axis"                                              # 27.1 a
    for uid in ("IT-102Trento", "IT-Ragg102", "IT-61", "IT-62"):
        assert _loc(st, uid) == "box:Upgrade:Axis"                                                # 27.1 b
    assert _loc(st, "UK-Alexandria") == "W2232"                                                   # 27.2
    sc = load("desert-fox")
    assert next(c for c in sc.cards if c.card == "ALC-6").arrival_delay == 12
    aida = next(r for r in sc.reinforcements if r.gt == 27 and "GE-KG125" in r.units)
    assert "AXC-18" in aida.condition
    assert any(v.kind == "road_control" and v.from_hex == "C0701" and v.to_hex == "W2134" for v in sc.victory)


def test_desert_war_28() -> None:
    st = _state("desert-war")
    assert _loc(st, "UK-Royals") == "track:MET-Levant" and _loc(st, "IN-7IndBG") == "track:MET-Levant"  # ALC-5 (5.0)
    assert "IT-Kufra" not in st.units and _pending(st, "IT-4CCNN")["within"] == 4    # AXC-2; no Oasis Track (R-OASIS-OFF)
    assert _loc(_state("desert-war", ("desert_raiders",)), "IT-Kufra") == "box:Oasis:kufra"       # with 16.0
    assert _count_at(st, "AL-Railhead", "W2118") == 1                                             # ALC-2
    sc = load("desert-war")
    assert {c.card for c in sc.cards if c.status == "active"} == {"AXC-3", "ALC-7", "ALC-18", "ALC-10"}
    assert {c.card for c in sc.cards if c.status == "not_used"} == {f"ALC-{n}" for n in range(21, 29)}


def test_run_for_tunis_29() -> None:
    st = _state("run-for-tunis")
    for uid in ("GE-Barenthin", "GE-5FJ", "GE-11Pio", "GE-47", "GE-190PzAbt", "IT-1Superga"):
        assert _loc(st, uid) == "box:Sicily"                                                      # 29.1
    assert _loc(st, "GE-FKII") == "box:Sicily"
    assert any(u.loc == "box:FallBraun" for u in st.units.values())
    assert any(u.loc == "box:Torch" for u in st.units.values())                                   # 29.2
    sc = load("run-for-tunis")
    assert any(v.hexes == ["T6017"] for v in sc.victory)


def test_trail_of_the_fox_30() -> None:
    st = _state("trail-of-the-fox")
    assert _loc(st, "IT-SanMarco") == "L2817" and _count_at(st, "AX-Dump", "L2817") == 3          # 30.1
    assert st.units["AX-Base#1"].flags.get("primary_base") and st.units["AX-Base#1"].active
    assert _pending(st, "IT-80LaSpezia") == {**_pending(st, "IT-80LaSpezia"), "within": 3, "of": "L2817"}
    assert _loc(st, "IT-Tunisia") == "L2909"
    assert _pending(st, "IT-16Pistoia")["of"] == "S0931"
    assert "IT-ISahara" not in st.units                                      # no Oasis Track without 16.0 (R-OASIS-OFF)
    assert _loc(_state("trail-of-the-fox", ("desert_raiders",)), "IT-ISahara") == "box:Oasis:gadamis"
    assert _loc(st, "GE-I18FLK") == "box:Refit:Axis" and _loc(st, "IT-185Folgore") == "box:Destroyed:Axis"
    assert _loc(st, "GE-Ramcke") == _hex("S0734") and st.units["GE-Ramcke"].steps == 1
    assert _loc(st, "UK-201Group") == "box:Malta" and _loc(st, "UK-MaltaFleet") == "box:Malta"      # 30.2
    sc = load("trail-of-the-fox")
    g1 = next(r for r in sc.reinforcements if r.group == "Group 1")
    assert g1.steps == 5 and "GE-KGMenny" in g1.units
    ff = next(r for r in sc.reinforcements if "FF-1FF" in r.units)
    assert ff.gt == 33 and ff.depleted
    assert any(s.kind == "no_axis_east_of" and s.params == {"map": "S", "column": 34} for s in sc.special)


def test_tunisian_campaign_31() -> None:
    st = _state("tunisian-campaign")
    assert _loc(st, "IT-31Cent") == _hex("L1633") and _loc(st, "IT-16Pistoia") == "S1420"        # 31.1 (R-MAP-SIRTE)
    assert _loc(st, "GE-Barenthin") == "box:Sicily"                                               # 29.1
    assert "GE-Kasta" not in st.units                                                             # arrives GT 31 Phase 12
    sc = load("tunisian-campaign")
    assert any(r.gt == 34 and "UK-167" in r.units and _hex(r.at) == _hex("S0734") for r in sc.reinforcements)
    assert any(r.gt == 31 and r.phase == 15 and "UK-30Corps" in r.units for r in sc.reinforcements)   # 31.2


def test_rommels_war_32() -> None:
    st = _state("rommels-war")
    assert _loc(st, "GE-5Pz") == "C0702" and _loc(st, "UK-KDG") == "C0603"                        # 27.0 via 32.0
    sc = load("rommels-war")
    assert sc.map_mods and sc.map_mods[0].hexes == ["W2004", "W2110"]
    assert any(v.kind == "base_in_port" and v.min_port_capacity == 3 for v in sc.victory)


def test_north_african_campaign_33() -> None:
    st = _state("north-african-campaign")
    assert _loc(st, "UK-22Bde") == "W2118" and _loc(st, "IT-Bardia") == "W2104"                   # ALC-2, AXC-2
    assert any(u.id.startswith("VFA-") for u in st.units.values())                                # ALC-3
    sc = load("north-african-campaign")
    assert {c.card for c in sc.cards if c.status == "setup"} >= {"AXC-1", "AXC-2", "ALC-1", "ALC-2", "ALC-3", "ALC-4", "ALC-5"}


@pytest.mark.skipif(not RULES_TEXT, reason="rules text not available")
@pytest.mark.parametrize("quote", [
    "C0603: KDG", "C0804: 3 Lt Arm (depleted)", "Within 3 hexes of C2410 (Barce): 20 Aus BG, 24 Aus BG",
    "C0702: Kasta, 5 Pz, Stab 200, 3 Aufkl, 605 PzJg, 1/18 FLK, 300 Oasis", "L2909: (Italian) Tunisia",
    "Malta: 201 Group, Malta (in port)", "S1410 (Sirte): 16 Pistoia", "**C0803:** 2 CCNN", "b) S0734 (El Agheila): 2 CCNN.",
])
def test_sampled_lines_are_quoted_from_the_rules(quote: str) -> None:
    """The sampled set-up lines above are the rules' own words."""
    assert quote in RULES_TEXT


# ---- errors name the file and the field ----------------------------------------------------------
def _with_setup(lines: list[Placement]) -> Scenario:
    return msgspec.structs.replace(load("sonnenblume"), setup=lines, path="scenarios/test.toml")


def test_duplicate_placement_is_an_error() -> None:
    sc = _with_setup([Placement(unit="GE-5Pz", at="C0702"), Placement(unit="GE-5Pz", at="C0701")])
    with pytest.raises(ScenarioError, match=r"test.toml: setup\[1\] \(unit 'GE-5Pz'\).*placed twice"):
        initial_state(sc, 1)


def test_counter_mix_exceeded_is_an_error() -> None:
    sc = _with_setup([Placement(unit="AX-Dump", at="C0701", count=all_counters()["AX-Dump"].mix + 1)])
    with pytest.raises(ScenarioError, match=r"setup\[0\].*2.4"):
        initial_state(sc, 1)


def test_bad_hex_and_unknown_unit_name_the_field() -> None:
    with pytest.raises(ScenarioError, match=r"setup\[0\].*Z9999"):
        initial_state(_with_setup([Placement(unit="GE-5Pz", at="Z9999")]), 1)
    with pytest.raises(ScenarioError, match=r"setup\[0\] \(unit 'GE-Nobody'\).*no such counter"):
        initial_state(_with_setup([Placement(unit="GE-Nobody", at="C0702")]), 1)


def test_depleting_a_one_step_unit_is_an_error() -> None:
    with pytest.raises(ScenarioError, match="8.3"):
        initial_state(_with_setup([Placement(unit="UK-KDG", at="C0603", depleted=True)]), 1)


def test_bad_toml_fields_are_reported(tmp_path: Path) -> None:
    good = Path(load("sonnenblume").path).read_text(encoding="utf-8")
    p = tmp_path / "bad.toml"
    p.write_text(good.replace('kind = "road_control"', 'kind = "capture_the_flag"')
                 .replace('initiative = "Axis"', 'initiative = "Axis"\nbogus_field = 1'), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"bad.toml.*bogus_field"):
        load(str(p))
    p.write_text(good.replace('{card = "AXC-3"', '{card = "AXC-99"'), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"bad.toml: cards\[0\]: 'AXC-99'"):
        load(str(p))
    p.write_text(good.replace('kind = "port_capacity"', 'kind = "capture_the_flag"'), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"victory\[3\]: kind 'capture_the_flag'"):
        load(str(p))


@pytest.mark.parametrize("edge, ok", [("S:east", True), ("S:west", False), ("Q:east", False), ("", False)])
def test_30_2_allied_entry_edge_is_checked_when_the_scenario_loads(tmp_path, edge: str, ok: bool) -> None:
    """30.2 "Units enter at any hex on the east edge of Map S": a malformed ``allied_entry_supplied`` edge is refused
    when the file loads, naming the file and the field -- not in the middle of a game."""
    text = (SCENARIOS / "trail-of-the-fox.toml").read_text(encoding="utf-8")
    assert 'params = {edge = "S:east"}' in text
    f = tmp_path / "trail-of-the-fox.toml"
    f.write_text(text.replace('params = {edge = "S:east"}', f'params = {{edge = "{edge}"}}'), encoding="utf-8")
    if ok:
        assert load(str(f)).id == "trail-of-the-fox"
        return
    with pytest.raises(ScenarioError, match=r"trail-of-the-fox.toml: special\[\d+\] \(allied_entry_supplied\)"
                                            r"\.params\.edge: .*30.2"):
        load(str(f))
