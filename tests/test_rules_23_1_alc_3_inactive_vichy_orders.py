"""23.1 ALC-3 "Important: These units are not active until ALC-23 (Operation Torch Invasion) is played": before
ALC-23 the Vichy French units (on the Allied side of the state, no ``vichy`` flag yet) are not ordinary Allied units
(R-VICHY-INACTIVE).  Every rule keyed on the Vichy flag is checked here from Run for Tunis's set-up (29.0), driving
only ``Engine.apply``:

* no Movement-Phase order names them (move and fna_move were refused already; entering reserve, 13.6, was
  accepted: every order naming a unit is now refused, citing 23.1 ALC-3);
* they control nothing (29.3 / 22.7, R-VIC-VICHY): Tunis T6017, held by the VF garrison, is no Allied hex;
* no Allied general supply is determined for them (12.5): an inactive unit is neither OGS nor isolated, so never
  disrupted by isolation nor depleted by supply attrition (12.5.1) as an Allied unit would be.
"""

from __future__ import annotations

from core.decisions import ALLIED
from core.rules import fna, supply, victory_rules
from tests.playpath import Play

VF = ("VFA-Alger", "VFA-Constantine", "VFA-Tunis", "VFA-Barre", "VFA-BLM")


def _allied_movement() -> Play:
    p = Play("run-for-tunis", seed=1)
    p.to("movement", side=ALLIED)
    assert p.state.cards["ALC-23"]["status"] not in ("in_play", "discarded")
    return p


def test_alc_3_inactive_vichy_french_may_not_enter_reserve_or_take_any_order():
    p = _allied_movement()
    alger = p.state.units["VFA-Alger"]
    assert fna.inactive_vf(p.state, alger) and alger.side == ALLIED
    exc = p.refuse("reserve", side=ALLIED, units=["VFA-Alger"])
    assert exc.rule == "23.1 ALC-3" and not p.state.units["VFA-Alger"].reserve
    exc = p.refuse("build_fort", side=ALLIED, unit="VFA-Alger", hex="A6201")
    assert exc.rule == "23.1 ALC-3"


def test_alc_3_inactive_vichy_french_have_no_allied_supply_status_and_control_nothing():
    p = Play("run-for-tunis", seed=1)
    p.to("movement", side=ALLIED)                               # VI.1 determined Allied GenS (12.5)
    for uid in VF:
        u = p.state.units[uid]
        if u.loc.startswith(("A", "T")):
            assert fna.inactive_vf(p.state, u)
            assert not u.ogs and not u.isolated, uid
    status = supply.gens_status(p.state, ALLIED)
    assert not [uid for uid in status if uid.startswith("VFA-")]
    assert victory_rules.controller(p.eng, "T6017") != ALLIED
