"""R-RAID-OFF: 16.1 "[Desert raiders] Are always in general and combat supply" is a capability of the optional
desert raider rules (16.0 "The use of desert raiders and the oasis boxes is optional in all scenarios"; 26.0 b)
"nor are Desert Raiders (16.0)").  Sonnenblume from its set-up through ``Engine.apply``: 300 Oasis (a desert raider
the scenario sets up, 26.1) drives far from the Axis base; at the next Axis Movement Phase it is out of general
supply like any unit (it used to be "always in supply" and met AXC-9 alone deep in Egypt).  With the optional rules
chosen at new game (``vars["optional"]["desert_raiders"]``, ``core.newgame``) the same position keeps it in GenS."""

from __future__ import annotations

from core.hexgrid import Hex
from core.rules import movement, supply
from tests.playpath import Play

OASIS = "GE-300Oasis"


def test_16_1_a_desert_raider_is_not_always_supplied_when_the_optional_rules_are_not_used():
    p = Play("sonnenblume", seed=1)
    p.to("movement", side="Axis")
    assert not p.state.vars.get("optional", {}).get("desert_raiders")
    reach = movement.query_reachable(p.eng, [OASIS], with_paths=True)
    far = max(reach, key=lambda h: (Hex.parse(h).distance(Hex.parse("C0701")), h))
    assert Hex.parse(far).distance(Hex.parse("C0701")) > 14
    p.act("move", units=[OASIS], path=reach[far]["path"])
    status = supply.gens_status(p.state, "Axis")
    assert status[OASIS] in ("OGS", "isolated")
    p.state.vars["optional"] = dict(p.state.vars.get("optional", {})) | {"desert_raiders": True}
    assert supply.gens_status(p.state, "Axis")[OASIS] == "IGS"           # 16.1, the optional rules in use
