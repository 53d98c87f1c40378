"""17.2.1 Refit Limitations, sentence by sentence: "RP of one nationality may not be used to refit combat units of
another nationality." "Only one unit of each Commonwealth nationality other than British may receive RP in a given
Movement Phase."  The Commonwealth's RP are the UK RP counters (no AU, IN, NZ or SA RP exist): they refit the other
Commonwealth nationalities, one unit of each a phase (R-REFIT-CW).  Play path: desert-war's set-up (UK-RP#1 in the
NRV, the Allies' primary base, 22.1), the Allied refit step of GT 1; the units in the Refit Box are placed by hand."""

from __future__ import annotations

from core.decisions import ALLIED
from core.rules import offmap
from core.state import UnitState
from tests.playpath import Play


def allied_refit(*units: str, rps: int = 2) -> Play:
    p = Play("desert-war")
    p.to("refit", side=ALLIED)
    for uid in units:
        p.state.units[uid] = UnitState(id=uid, side=ALLIED, loc=offmap.refit(ALLIED), steps=1)
    for i in range(2, rps + 1):                        # more UK RP in the NRV (the scenario gives one)
        rid = f"UK-RP#{i + 10}"
        p.state.units[rid] = UnitState(id=rid, side=ALLIED, loc=offmap.NRV, steps=2)
    return p


def rp_ids(p: Play) -> list[str]:
    return sorted(u.id for u in p.state.units.values() if u.id.startswith("UK-RP") and u.loc == offmap.NRV)


def test_17_2_1_uk_rp_refit_an_australian_unit():
    p = allied_refit("AU-16AusBG")
    p.act("refit_box", unit="AU-16AusBG", rps=rp_ids(p)[:1], steps=1)
    assert p.state.units["AU-16AusBG"].loc == offmap.NRV


def test_17_2_1_one_unit_of_each_other_commonwealth_nationality_a_phase_limit_and_limit_plus_one():
    p = allied_refit("AU-16AusBG", "AU-17AusBG", "NZ-4NZBG", rps=3)
    r = rp_ids(p)
    p.act("refit_box", unit="AU-16AusBG", rps=[r[0]], steps=1)
    exc = p.refuse("refit_box", unit="AU-17AusBG", rps=[r[1]], steps=1)      # a second Australian: refused
    assert exc.rule == "17.2.1"
    p.act("refit_box", unit="NZ-4NZBG", rps=[r[1]], steps=1)                 # one New Zealand unit: allowed
    assert p.state.units["NZ-4NZBG"].loc == offmap.NRV


def test_17_2_1_british_units_have_no_such_limit():
    p = allied_refit("UK-69", "UK-150", rps=3)
    r = rp_ids(p)
    p.act("refit_box", unit="UK-69", rps=[r[0]], steps=1)
    p.act("refit_box", unit="UK-150", rps=[r[1]], steps=1)
    assert p.state.units["UK-150"].loc == offmap.NRV


def test_17_2_1_rp_of_another_nationality_may_not_refit():
    p = allied_refit("US-1Inf")
    exc = p.refuse("refit_box", unit="US-1Inf", rps=rp_ids(p)[:1], steps=1)  # UK RP, an American unit
    assert exc.rule == "17.2.1"
