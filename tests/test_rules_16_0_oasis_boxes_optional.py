"""R-OASIS-OFF (16.0): "The use of desert raiders and the oasis boxes is optional in all scenarios".  Without the
optional rule the Oasis Track is not in the game: a unit set up in an oasis box (30.1 "Gadamis Oasis: (Italian)
I/Sahara, II/Sahara"; AXC-2's Kufra) or arriving in one (30.2 "GT 31 or after: Any oasis box: LeClerc") is not
used, as 25.1 c) "Ignore the Gadamis Oasis Box set up" and 27.1 "I/Sahara (optional)" do for their scenarios.
With the option they are set up and arrive.  Played from Trail of the Fox's set-up through ``Engine.apply`` only."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED
from core.scenario import oasis_box_unused
from tests.playpath import Play

SAHARA = ("IT-ISahara", "IT-IISahara")


def test_16_0_without_the_option_no_unit_is_set_up_or_arrives_in_an_oasis_box():
    p = Play("trail-of-the-fox", seed=1)
    assert not any(u in p.state.units for u in SAHARA)                       # 30.1's Gadamis set-up not used
    assert not any(u.loc.lower().startswith("box:oasis") for u in p.state.units.values())
    p.to("movement", side=ALLIED, gt=32)
    assert "FF-LeClerc" not in p.state.units                                 # 30.2: "Any oasis box: LeClerc"
    assert not any("FF-LeClerc" in str(o.action.args) for o in p.pending.options)


def test_16_0_with_the_option_the_gadamis_set_up_and_leclerc_are_used():
    p = Play("trail-of-the-fox", seed=1, optional=("desert_raiders",))
    assert all(p.state.units[u].loc == "box:Oasis:gadamis" for u in SAHARA)
    p.to("movement", side=ALLIED, gt=32)
    leclerc = p.state.units["FF-LeClerc"]                                    # available at GT 32 III (the pass
    assert leclerc.flags["arrive_to"] == "box:Oasis:any"                     # choice holds it back for its box)


@pytest.mark.parametrize("loc, chosen, unused", [
    ("box:Oasis:gadamis", (), True), ("box:Oasis:Any", (), True), ("box:Oasis:gadamis", ("desert_raiders",), False),
    ("C0117", (), False), ("box:NRV", (), False)])
def test_16_0_oasis_box_unused_is_the_track_only(loc: str, chosen: tuple[str, ...], unused: bool):
    """Jalo (C0117) and Siwa (W0106) are hexes on the grid (16.2.1 Important) and stay in the game."""
    assert oasis_box_unused(loc, chosen) is unused
