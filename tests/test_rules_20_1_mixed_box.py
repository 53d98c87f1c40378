"""20.1 a): "Each box has a capacity of two combat unit steps" - of any kind: one motorised step and one foot
step share one (standard) box, whether shipped together or one after the other in the impulse.  Play path:
fox-killed's set-up, the Axis Movement Phase of GT 1, coastal shipping (20.3) from Tobruk (3 standard + 1
limited boxes) to Bardia (one standard box, no limited box), only ``Engine.apply``."""

from __future__ import annotations

from core.decisions import AXIS
from core.rules import naval
from tests.playpath import Play

TOBRUK, BARDIA = "C2331", "W2104"
MOT, FOOT, MOT2 = "IT-RaggX", "IT-Tobruk", "IT-Babini"       # 1-step motorised, 1-step foot, 1-step motorised


def axis_movement() -> Play:
    p = Play("fox-killed")
    p.to("movement", side=AXIS)
    st = p.state
    assert naval.port_boxes(p.eng, BARDIA) == (1, 0) and naval.port_boxes(p.eng, TOBRUK) == (3, 1)
    assert all(st.units[u].loc == TOBRUK and st.units[u].steps == 1 for u in (MOT, FOOT, MOT2))
    assert naval.cargo_kind(st.units[MOT]) == "motorised" and naval.cargo_kind(st.units[FOOT]) == "foot"
    return p


def test_20_1_one_motorised_and_one_foot_step_share_one_standard_box():
    p = axis_movement()
    p.act("coastal_ship", units=[MOT, FOOT], to=BARDIA)
    assert p.state.units[MOT].loc == p.state.units[FOOT].loc == naval.box_loc(BARDIA)
    assert naval.boxes_used(p.eng, BARDIA) == (1, 0)         # one box, not two
    assert naval.boxes_used(p.eng, TOBRUK) == (1, 0)         # leaving Tobruk: one standard box too
    exc = p.refuse("coastal_ship", units=[MOT2], to=BARDIA)  # a third step: Bardia's one box is full
    assert "20.1" in exc.rule


def test_20_1_steps_shipped_one_after_the_other_share_a_box():
    p = axis_movement()
    p.act("coastal_ship", units=[MOT], to=BARDIA)
    assert naval.boxes_used(p.eng, BARDIA) == (1, 0)
    p.act("coastal_ship", units=[FOOT], to=BARDIA)           # fills the second half of the same box
    assert naval.boxes_used(p.eng, BARDIA) == (1, 0) and p.state.units[FOOT].loc == naval.box_loc(BARDIA)


def test_20_1_packing_limit_and_limit_plus_one():
    step = lambda n, where="any", d="in": [d, "step", n, where]          # noqa: E731
    assert naval.pack([step(1, "std"), step(1)], 1, 0) == (1, 0)           # motorised + foot: one standard box
    assert naval.pack([step(1, "std"), step(2)], 1, 0) is None             # three steps: two boxes
    assert naval.pack([step(1, "std"), step(2)], 1, 1) == (1, 1)
    assert naval.pack([step(1, "std", "in"), step(1, "any", "out")], 1, 0) is None   # in and out sail apart
    assert naval.pack([["in", "rp", 1, "std"], step(1, "std")], 1, 0) is None        # RP fill boxes of their own
