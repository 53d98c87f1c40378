"""20.5 amphibious port landings and 15.4 SF opposed landings: declaration limits, the combat from the
port boxes (supplied, mechanised halved), success (advance into the port) and failure (H, return)."""

from __future__ import annotations

import pytest

from core.decisions import ALLIED, AXIS, IllegalAction
from core.dice import ScriptedDice
from core.hexgrid import Hex
from core.rules import combat, combat_forms, tec
from tests.rules_combat_kit import desert_map, make_state, start
from tests.test_rules_14_7_2_retreated_into import settle_defaults

PORT = "T6017"


@pytest.fixture(autouse=True)
def port_map():
    gm = desert_map(T6018="sea", T6118="sea")
    gm.ports[Hex.parse(PORT)] = 3
    tec.use_map(gm)
    yield
    tec.use_map(None)


def test_20_5_landing_declared_from_port_boxes_within_the_stacking_limit():
    box = combat_forms.PORT_BOXES + PORT
    st = make_state([("US-1Arm", ALLIED, box, 2), ("US-1Inf", ALLIED, box, 2), ("US-3Inf", ALLIED, box, 2),
                     ("US-9Inf", ALLIED, box, 2), ("GE-5Pz", AXIS, PORT, 2)], first=ALLIED)
    opts = combat.declare_options(st, ALLIED, [])
    land = [o for o in opts if o.action.args.get("form") == "amphibious"]
    assert land and sum(st.units[u].steps for u in land[0].action.args["attackers"]) <= 6
    with pytest.raises(IllegalAction) as e:      # 8 steps > the stacking limit of a non-city hex
        combat.check_declaration(st, ALLIED, [], {"attackers": ["US-1Arm", "US-1Inf", "US-3Inf", "US-9Inf"],
                                                  "hexes": [PORT], "form": "amphibious"})
    assert e.value.rule == "20.5"
    with pytest.raises(IllegalAction):            # not a port
        combat.check_declaration(st, ALLIED, [], {"attackers": ["US-1Inf"], "hexes": ["T6016"], "form": "amphibious"})


def test_20_5_failed_landing_h_result_then_return_to_the_port_boxes():
    box = combat_forms.PORT_BOXES + PORT
    st = make_state([("US-1Arm", ALLIED, box, 2), ("US-1Inf", ALLIED, box, 2),
                     ("GE-5Pz", AXIS, PORT, 2), ("GE-Kasta", AXIS, PORT, 1)], first=ALLIED)
    eng, fr = start(st, ScriptedDice([1] * 12), attackers=["US-1Arm", "US-1Inf"], hexes=[PORT], form="amphibious", side=ALLIED)
    assert fr.data["att_supplied"] == {"US-1Arm": True, "US-1Inf": True}     # 20.5: in combat supply
    v = combat.combat_view(eng.state, ALLIED, ["US-1Arm", "US-1Inf"], [PORT], "amphibious", fr.data)
    from core.rules import special_units as su

    arm = su.unit_strength(eng.state, v, "US-1Arm")
    assert arm.value == 4 and "20.5" in arm.notes[-1]                          # mechanised halved
    settle_defaults(eng, stop_at="combat_loss")
    while (d := eng.pending()) is not None and d.kind == "combat_loss" and fr.data.get("landing") != "failed":
        eng.apply(d.options[0].action)
    assert fr.data.get("landing") == "failed"
    settle_defaults(eng)
    alive = [u for u in ("US-1Arm", "US-1Inf") if not combat.gone(eng.state, u)]
    assert alive and all(eng.state.units[u].loc == box for u in alive)
    assert fr.data["outcome"]["landing"] == "failed"


