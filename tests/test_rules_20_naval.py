"""20.0 naval operations: port boxes (20.1, WE-13), ocean shipping allocation (20.2), escort DRM (19.9.1),
amphibious limit (20.5), the Malta-invasion shipping blackout (AXC-16 e)."""

from __future__ import annotations

import pytest

from core.decisions import AXIS, Action, IllegalAction
from core.rules import naval, offmap
from core.state import Frame
from tests.test_events_cards import make, put


def test_we13_port_boxes_two_steps_or_one_dump_20_1():
    assert naval.boxes_needed("GE-5Pz", 2) == 1
    assert naval.boxes_needed("GE-Kasta", 1) == 1
    uid = "AX-Dump#9"
    assert naval.boxes_needed(uid, 1) == 1
    assert naval.boxes_needed("IT-17Pavia", 2) == 2      # 15.10: one box per divisional step


def test_ocean_shipping_puts_cargo_from_italy_on_its_lane_toward_a_port_with_room_20_2():
    eng = make("desert-war")
    put(eng, "GE-5Pz", offmap.ITALY)
    ports = naval.friendly_ports(eng, AXIS)
    assert ports, "the Axis holds ports on the map at the start of 28.0"
    proc = naval.OceanShipping()
    fr = Frame(proc="ocean_shipping", data={"step": "IV.4", "seen": []})
    eng.state.initiative = AXIS
    to = naval.legal_ports(eng, "GE-5Pz")[0]
    proc.apply(eng, fr, Action(kind="ship", side=AXIS, args={"unit": "GE-5Pz", "to": to}))
    u = eng.state.units["GE-5Pz"]     # 20.2: on the lane in the Allocation Phase, placed in the port boxes later
    assert u.loc == naval.AT_SEA + "Italy" and u.flags["at_sea"] == {"gt": eng.state.gt, "lane": "Italy", "to": to}
    assert naval.allocated(eng, to) == 1 and naval.used_boxes(eng, to) == 0
    with pytest.raises(IllegalAction, match="20.2"):
        proc.apply(eng, fr, Action(kind="ship", side=AXIS, args={"unit": "GE-5Pz", "to": to}))


def test_malta_invasion_blocks_shipping_from_italy_axc16_e():
    eng = make("desert-war", gt=20)
    eng.state.vars["malta_invasion_blackout"] = [20, 21]
    assert "AXC-16" in naval.shipping_blocked(eng, AXIS, offmap.ITALY)


def test_escort_and_amphibious_limits():
    eng = make("desert-war")
    assert naval.escort_drm(2) == -2
    assert naval.amphibious_limit(eng, "C2331") in (6, 9)
