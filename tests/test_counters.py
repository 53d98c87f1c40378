"""Counters as data (issue 4 item 1): every unit the rules name, with every value the text gives.

The reference list is ../shared/design/units.csv (every unit and named counter in the DFD rules
with its ``known_values``); the values are parsed from that column and compared with
resources/counters/*.csv.  Rule numbers: 2.4-2.6, 8.3, 9.0, 10.1, 15.x, 17.2, Counter Details.
"""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path

import msgspec
import pytest

from core.counters import COMMONWEALTH, Counter, CounterError, all_counters, counter, read_csv, resolve

DESIGN = Path(__file__).resolve().parent / "reference" / "units.csv"  # copy of ../shared/design/units.csv

NAT = {"Commonwealth (British)": "UK", "Commonwealth (Indian)": "IN", "Commonwealth (Australian)": "AU",
       "Commonwealth (New Zealand)": "NZ", "Commonwealth (South African)": "SA", "Associated (Polish)": "PL",
       "Associated (Greek)": "GR", "Associated (Free French)": "FF", "United States": "US", "German": "GE",
       "Italian": "IT", "Commonwealth (nationality not stated)": "UK", "Commonwealth (air)": "UK",
       "Commonwealth (fleet)": "UK", "Vichy French": "VFA"}

#: units.csv names whose counter id is not simply NAT + name without punctuation (rulings in
#: docs/rulings.d/counters-scenarios.md).  None = not a counter.
SPECIAL = {
    "9th Australian Div": None,            # a formation named in the EoP narrative, not a counter
    "4 Ind": None,                         # 30.2 heading for the Indian units that follow
    "Tobruk (Allied counter)": "UK-Tobruk", "Alexandria": "UK-Alexandria",
    "61 (27.1)": "IT-61", "62 (27.1)": "IT-62",
    "Tunisia (unit)": "IT-Tunisia", "Libya (air unit)": "IT-Libya",
    "Tobruk (Axis garrison)": "IT-Tobruk", "Kufra": "IT-Kufra", "Barce (garrison)": "IT-Barce",
    "Bardia (garrison)": "IT-Bardia", "Benghazi (garrison)": "IT-Benghazi", "Jalo (garrison)": "IT-Jalo",
    "Giarabub (W2002 counter)": "IT-Giarabub2L", "Giarabub (W0303 counter)": "IT-Giarabub",
    "unlabelled '2' counters (x3)": "MK-Fort",
    "Base": ("AX-Base", "AL-Base"), "MSU (Mobile Supply Unit)": ("AX-MSU", "AL-MSU"), "Dump": ("AX-Dump", "AL-Dump"),
    "Refit Point (RP) marker": ("GE-RP", "IT-RP", "UK-RP"), "Egyptian Railhead marker": "AL-Railhead",
    "Road construction markers (under construction / finished)": "MK-Road", "Fort markers F0-F3 (Level 0-3)": "MK-Fort",
    "US Inexperience marker": "AL-USInexperience", "Air Transport Point (ATP)": ("AX-ATP", "AL-ATP"),
    "Med (Mediterranean) fleet": "UK-MedFleet", "Force H": "UK-ForceH", "Malta (fleet/flotilla)": "UK-MaltaFleet",
    "11 Hussars": "UK-11Huss",
}


def _rows() -> list[dict[str, str]]:
    with DESIGN.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def ids_for(row: dict[str, str]) -> tuple[str, ...]:
    name = row["name"]
    if name in SPECIAL:
        v = SPECIAL[name]
        return () if v is None else ((v,) if isinstance(v, str) else v)
    nat = NAT[row["nationality"]]
    return (f"{nat}-{re.sub(r'[^A-Za-z0-9]', '', name)}",)


def expected(known: str) -> dict[str, object]:
    """The counter values a units.csv ``known_values`` text states."""
    exp: dict[str, object] = {}
    m = re.search(r"'([^']*?)(\d+)([RL]?) (\d+) (\d+)'", known)         # card prints: '62 Mmrirca 7 3 14', '1R 2 28'
    if m:
        exp.update(cf=int(m.group(2)), morale=int(m.group(4)), ma=int(m.group(5)))
        if m.group(3):
            exp["cf_flag"] = m.group(3)
    m = re.search(r"\bCF (\d+) on its depleted side", known)
    if m:
        exp["red_cf"] = int(m.group(1))
    else:
        m = re.search(r"\bCF (\d+)", known)
        if m:
            exp.setdefault("cf", int(m.group(1)))
    m = re.search(r"\bMA (\d+)-(\d+)", known)
    if m:
        exp["ma_range"] = (int(m.group(1)), int(m.group(2)))
    for key, pat in (("morale", r"\bmorale (\d+)"), ("ma", r"\bMA (\d+)(?![-\d])"), ("at", r"\bAT (\d+)"),
                     ("gs", r"ground-support shift of (\d+)")):
        m = re.search(pat, known)
        if m:
            exp.setdefault(key, int(m.group(1)))
    m = re.search(r"\bRMA (\d+)", known)
    if m:
        exp["rma"] = int(m.group(1))                      # 13.2.1: ceil(MA / 4)
    m = re.search(r"road-march MA (\d+)", known)
    if m:
        exp["road_march"] = int(m.group(1))               # 13.2.3: MA + 7
    if re.search(r"\bR \(recon\)|\brecon\b", known):
        exp["cf_flag"] = "R"
    if "L (light)" in known:
        exp["cf_flag"] = "L"
    if "HQ (+)" in known:
        exp["hq"] = True
    if "airborne drop capable" in known:
        exp["airdrop_capable"] = True
    if "two steps" in known:
        exp["steps"] = 2
    if "divisional unit" in known:
        exp["divisional"] = True
    if "mobile symbol" in known:
        exp["mobile"] = True
    if "motorized (trucked)" in known:
        exp["move_class"] = "trucked"
    if "doubled as mechanized" in known:
        exp["move_class"] = "mechanised"
    if "not mechanized" in known:
        exp["not_mechanised"] = True
    return exp


ROWS = _rows()


def test_units_csv_is_read() -> None:
    assert len(ROWS) > 200  # every unit the rules name


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['side']}:{r['name']}" for r in ROWS])
def test_every_named_unit_exists_with_its_known_values(row: dict[str, str]) -> None:
    counters = all_counters()
    ids = ids_for(row)
    if not ids:
        assert row["name"] in ("9th Australian Div", "4 Ind")
        return
    exp = expected(row["known_values"])
    for cid in ids:
        assert cid in counters, f"{row['name']} ({row['mentioned_in']}): no counter {cid}"
        c = counters[cid]
        for key, val in exp.items():
            if key == "rma":
                assert math.ceil(c.ma / 4) == val, f"{cid}: RMA = ceil(MA/4) must be {val} (13.2.1)"
            elif key == "road_march":
                assert c.ma + 7 == val, f"{cid}: road-march MA = MA + 7 must be {val} (13.2.3)"
            elif key == "ma_range":
                assert val[0] <= c.ma <= val[1], f"{cid}: MA {c.ma} outside {val}"
            elif key == "not_mechanised":
                assert c.move_class != "mechanised", cid
            else:
                assert getattr(c, key) == val, f"{cid}.{key} = {getattr(c, key)!r}, the rules give {val!r} ({row['known_values']})"
        if exp:
            assert c.source == "rules", f"{cid}: values from the rules text must be marked source=rules"


def test_parser_reads_the_quoted_card_prints() -> None:
    assert expected("CF 7, morale 3, MA 14 - AXC-2 card print '62 Mmrirca 7 3 14'") == {"cf": 7, "morale": 3, "ma": 14}
    assert expected("CF 1, R (recon), morale 2, MA 28 - ALC-5 card print '1R 2 28'")["cf_flag"] == "R"
    assert expected("CF 0, L (light), morale 3, MA 0 - AXC-2 card print 'Jalo 0L 3 0'") == {"cf": 0, "cf_flag": "L", "morale": 3, "ma": 0}
    assert expected("morale 2 printed; CF 3 on its depleted side")["red_cf"] == 3


@pytest.mark.parametrize("cid,cf,morale,ma", [
    ("GE-5Pz", 9, 1, 22), ("UK-2SG", 3, 2, 22), ("UK-Royals", 1, 2, 28), ("IT-62Marmarica", 7, 3, 14),
    ("IT-Tobruk", 3, 3, 0), ("AX-MSU", 0, 2, 14), ("AL-MSU", 0, 2, 14), ("AU-25AusBG", 5, 2, 14), ("IT-Jalo", 0, 3, 0),
    ("IN-7IndBG", 5, 2, 14), ("IT-4CCNN", 7, 2, 14), ("IT-1Libyan", 6, 3, 14), ("IT-63Cirene", 7, 3, 14),
])
def test_issue_examples_exactly(cid: str, cf: int, morale: int, ma: int) -> None:
    """Issue 4's list: 5 Pz CF 9 MA 22, '62 Mmrirca 7 3 14', 'Royals 1R 2 28', 'Tobruk 3 3 0', MSU '0 2 14',
    25 Aus BG CF 5 (2.5 errata), 'Jalo 0L 3 0'."""
    c = counter(cid)
    assert (c.cf, c.morale, c.ma) == (cf, morale, ma)


def test_flags_of_issue_examples() -> None:
    assert counter("UK-2SG").at == 2                           # EoP
    assert counter("UK-KDG").morale == 2 and counter("UK-KDG").cf_flag == "R"
    assert counter("UK-Royals").cf_flag == "R"
    assert counter("IT-Jalo").cf_flag == "L" and counter("IT-Kufra").cf_flag == "L"
    assert counter("IT-Giarabub2L").cf == 2 and counter("IT-Giarabub2L").cf_flag == "L"
    assert counter("GE-Kasta").hq and counter("UK-WDF").hq     # 15.6
    assert counter("IT-Tobruk").garrison and counter("IT-Tobruk").ma == 0   # 15.8


def test_starter_ids_kept() -> None:
    for cid in ("GE-Kasta", "GE-5Pz", "GE-3Aufkl", "IT-132Ariete", "UK-KDG", "UK-2SG", "UK-3LtArm"):
        assert cid in all_counters()


def test_example_of_play_combat_totals() -> None:
    """The EoP's arithmetic holds with the counter values."""
    c = counter
    # Overrun of the KDG by Kasta + 3 Aufkl: 6 vs 1 (6:1); Kasta's HQ makes motorized units mobile (15.6).
    assert c("GE-Kasta").cf + c("GE-3Aufkl").cf == 6 and c("UK-KDG").cf == 1
    # Overrun by 132 Ariete + Nizza at 7:1: non-mobile attackers are halved in an overrun (13.4.4).
    ov = sum(u.cf if u.mobile else u.cf // 2 for u in (c("IT-132Ariete"), c("IT-Nizza")))
    assert ov == 7
    # 15 attacking CF (Ariete, 132 Cel, 8 Ber, Nizza) against the depleted 3 Lt Arm's 3.
    assert sum(c(i).cf for i in ("IT-132Ariete", "IT-132Cel", "IT-8Ber", "IT-Nizza")) == 15
    assert c("UK-3LtArm").values(1) == (3, 2, 22)
    # Mobile battle: (5 Pz 9 - 2 AT) x 2 + Kasta 3 x 2 + Stab 200 2 + I/18 Flak = 23; mech doubled (14.9.2).
    total = 0
    for cid in ("GE-5Pz", "GE-Kasta", "GE-Stab200", "GE-I18FLK"):
        u = c(cid)
        cf = u.cf - (c("UK-2SG").at * 2 // 2 if cid == "GE-5Pz" else 0)
        total += cf * 2 if u.move_class == "mechanised" else cf
    assert total == 23
    # Exploitation: 5 Pz RMA ceil(22/4) = 6, +2 with Kasta (WE-35).
    assert math.ceil(c("GE-5Pz").ma / 4) + 2 == 8


def test_alc18_twelve_australian_units_reach_36_cf() -> None:
    """23.1 ALC-18: all twelve Australian units; withdrawn CF must reach 36."""
    aus = [c for c in all_counters().values() if c.nationality == "AU" and c.kind == "combat"]
    assert len(aus) == 12
    assert sum(c.cf for c in aus) >= 36


def test_airdrop_list_is_exactly_15_5() -> None:
    """15.5: GE Ramcke, Barenthin, 5 FJ, 11 Pio, FJ Lehr; IT Folgore; CW 1 Para; US 2/509; and all SF units."""
    drop = {c.id for c in all_counters().values() if c.airdrop_capable and not c.sf}
    assert drop == {"GE-Ramcke", "GE-Barenthin", "GE-5FJ", "GE-11Pio", "GE-FJLehr", "IT-185Folgore", "UK-1Para", "US-2509"}
    assert all(c.airdrop_capable for c in all_counters().values() if c.sf)


def test_divisions_and_refit_bands() -> None:
    for c in all_counters().values():
        if c.divisional:   # 15.10: Italian and Vichy French divisions, three stacking points
            assert c.nationality in ("IT", "VF", "VFA") and c.stack_pts == 3, c.id
        # 17.2 / Counter Details: CW and US two-step units have the narrow one-step band
        assert c.narrow_refit == (c.kind == "combat" and c.steps == 2 and c.nationality in COMMONWEALTH | {"US"}), c.id
        if c.kind == "combat":
            assert c.stack_pts >= 1 and c.move_class, c.id      # 10.1, 9.0
        if c.move_class == "raider":
            assert c.desert_capable, c.id                        # 16.0


def test_counter_mix_limits_only_for_bases_msu_dumps() -> None:
    """2.4: the numbers of bases, MSU and dumps are a game limit; other markers are not."""
    limited = {c.id for c in all_counters().values() if c.mix}
    assert limited == {"AX-Base", "AX-MSU", "AX-Dump", "AL-Base", "AL-MSU", "AL-Dump"}


def test_air_and_fleet_units() -> None:
    ff = counter("GE-FFAfrika")
    assert ff.kind == "air" and ff.mobile and ff.gs == 1                      # EoP
    for cid in ("UK-MedFleet", "UK-ForceH", "UK-MaltaFleet"):                 # 20.4
        assert counter(cid).kind == "fleet"
    assert counter("UK-Malta").id == "UK-MaltaFleet"                          # alias (30.2 'Malta (in port)')
    for c in all_counters().values():
        if c.kind == "air":
            assert c.range in ("S", "L"), c.id


def test_every_reconstructed_value_has_a_reason() -> None:
    for c in all_counters().values():
        assert c.source in ("rules", "reconstructed")
        assert c.reason, c.id


def test_aliases_resolve_spelling_variants() -> None:
    assert resolve("IT-62Mmrirca") == "IT-62Marmarica"
    assert resolve("IT-25Bolgna") == "IT-25Bologna"
    assert resolve("IT-RagX") == "IT-RaggX"
    assert resolve("GE-NoSuchUnit") is None
    with pytest.raises(CounterError, match="GE-NoSuchUnit"):
        counter("GE-NoSuchUnit")


def test_bad_row_names_file_line_and_field(tmp_path: Path) -> None:
    p = tmp_path / "bad.csv"
    p.write_text("id,side,nationality,name,kind,cf\nGE-X,Axis,GE,X,combat,lots\n", encoding="utf-8")
    with pytest.raises(CounterError, match=r"bad.csv line 2 \(id 'GE-X'\).*cf"):
        read_csv(p, Counter)


def test_problems_name_the_field() -> None:
    c = msgspec.convert({"id": "GE-X", "side": "Axis", "nationality": "GE", "name": "X", "kind": "combat",
                         "move_class": "hovercraft", "steps": 3, "reason": "r"}, Counter)
    msgs = " ".join(c.problems())
    assert "move_class" in msgs and "steps" in msgs
