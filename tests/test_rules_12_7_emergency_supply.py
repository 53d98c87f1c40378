"""12.7 Emergency Supply: "The unit is in both GenS and combat supply" -- played from Sonnenblume (26.0)
through ``Engine.apply``: the Axis gives 27 Brescia emergency supply from a dump at the beginning of the GT 10
Movement Phase (XII), moves it next to KDG and attacks in the Combat Phase (XIV): no combat-supply decision is
asked for its hex and it fights supplied (ruling G-EMERGENCY-COMBAT); at the beginning of the next Axis Movement
Phase the marker goes and a morale check is made (12.7)."""

from __future__ import annotations

import pytest

from core.decisions import AXIS
from tests.playpath import Play


@pytest.fixture(scope="module")
def game():
    p = Play("sonnenblume", seed=1)
    p.to(step="XII.3", gt=10)
    p.act("emergency_supply", AXIS, unit="IT-27Brescia", dump="AX-Dump#1")
    p.act("move", AXIS, units=["IT-27Brescia"], path=["C0702", "C0602"])
    p.to(step="XIV.1", gt=10)
    status = (p.state.units["IT-27Brescia"].emergency, p.state.units["IT-27Brescia"].ogs)
    n = len(p.eng.log)
    p.act("declare", AXIS, attackers=["IT-27Brescia"], hexes=["C0603"], form="regular")
    asked = []
    p.run(lambda eng: eng.step.key == "XV.2",
          script={"combat_supply": lambda d: asked.append((d.side, d.context.get("hexes"))) or None})
    return p, status, p.events(since=n), asked


def test_12_7_emergency_supply_is_gens_and_combat_supply(game):
    _, status, lines, asked = game
    assert status == (True, False)                         # in GenS (12.7) when the Combat Phase begins
    assert [side for side, _ in asked if side == AXIS] == []   # nothing to decide for C0602: in combat supply
    assert any(ln.startswith("Attackers in combat supply") and "IT-27Brescia" in ln for ln in lines)
    assert not any("not in combat supply" in ln and "C0602" in ln for ln in lines)


def test_12_7_marker_removed_with_a_morale_check_at_the_next_friendly_movement_phase():
    p = Play("sonnenblume", seed=1)
    p.to(step="XII.3", gt=10)
    p.act("emergency_supply", AXIS, unit="IT-27Brescia", dump="AX-Dump#1")
    p.to(step="XV.2", gt=10)
    assert p.state.units["IT-27Brescia"].emergency           # the Allied Movement Phase is not a friendly one
    p.to(step="V.1", gt=11)
    assert p.state.units["IT-27Brescia"].emergency
    n = len(p.eng.log)
    p.to(step="VI.2", gt=11)
    assert not p.state.units["IT-27Brescia"].emergency
    assert any("end of emergency supply, 12.7" in ln and "27 Brescia" in ln for ln in p.events(since=n))


@pytest.mark.parametrize("seed, roll, fails", [(2, 1, False), (1, 5, True)])
def test_12_7_failed_morale_check_ending_emergency_supply_disrupts_the_unit(seed: int, roll: int, fails: bool):
    """G-EMERGENCY-FAIL: 12.7 calls for the check and 8.1 "The effects of failure are indicated by the rule
    requiring the check"; 12.7 names none, and 8.2 "A combat unit may become disrupted as a result of ... failed
    morale check": a failure disrupts, a pass does not.  27 Brescia (morale 3) alone in C0602 since GT 10 XII."""
    p = Play("sonnenblume", seed=seed)
    p.to(step="XII.3", gt=10)
    p.act("emergency_supply", AXIS, unit="IT-27Brescia", dump="AX-Dump#1")
    p.act("move", AXIS, units=["IT-27Brescia"], path=["C0702", "C0602"])
    p.to(step="V.1", gt=11)
    u = p.state.units["IT-27Brescia"]
    assert u.emergency and not u.disrupted and u.loc == "C0602"
    n = len(p.eng.log)
    p.to(step="VI.2", gt=11)
    lines = [ln for ln in p.events(since=n) if "27 Brescia" in ln]
    assert lines[0].startswith(f"Morale check (end of emergency supply, 12.7): 27 Brescia rolls {roll} + morale 3")
    assert u.disrupted is fails and not u.emergency
