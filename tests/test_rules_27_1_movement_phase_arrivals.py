"""Reinforcements that arrive during a friendly Movement Phase (R-REINF-DEPLOY), played from the real set-ups:

* 27.1 (Desert Fox): "All units (unless stated otherwise) arrive at hex C0701 during any friendly Movement Phase,
  subject to: a) A maximum of 14 shipping steps may arrive per GT. b) A maximum of one dump or two RP may arrive in
  any single Movement Phase. These units do count against the total shipping steps."
* 30.2 (Trail of the Fox): "Each GT (including GT 31): 3 x Dump, 1 x RP, any two may arrive in each friendly
  Movement Phase in S0734 (El Agheila)."
* 31.2 (Tunisian Campaign): "Reinforcements listed in 30.0 Trail of the Fox arriving on GT 31, arrive in Phase
  15."; 30.1 "GT-31 Phase 12: El Agheila (S0734) Ramcke (depleted), Kasta, 605 PzJg, 2 x MSU".

Every step is an ``Engine.apply`` of an offered option or of the Movement Phase's free ``arrive`` order.
"""

from __future__ import annotations

from core.rules import offmap, reinforcements as R
from tests.playpath import Play

EL_AGHEILA = "C0701"        # S0734 on Map S is C0701 on Map C


def _kinds_of(side: str):
    seen: list[tuple[str, str, str]] = []

    def note(d):
        seen.append((d.side, d.kind, d.context.get("unit", "")))
        return None
    return seen, note


def _steps(p: Play, uid: str) -> int:
    return R.shipping_steps(uid, p.state.units[uid].steps)


def test_27_1_arrivals_offered_in_the_axis_movement_phase_not_in_iii_1_desert_fox():
    p = Play("desert-fox", seed=1)
    seen, note = _kinds_of("Axis")
    d = p.to("movement", side="Axis", gt=11, script={"reinforce": note})
    assert not [s for s in seen if s[0] == "Axis"], "27.1: no Axis unit is deployed to C0701 in III.1"
    waiting = p.eng.query("movement_arrivals", side="Axis")
    assert "IT-17Pavia" in waiting and waiting["IT-17Pavia"] == [EL_AGHEILA]
    assert any(o.action.kind == "arrive" and o.action.args["unit"] == "IT-17Pavia" for o in d.options)
    p.act("arrive", unit="IT-17Pavia", to=EL_AGHEILA)
    assert p.state.units["IT-17Pavia"].loc == EL_AGHEILA
    # the Allied Movement Phase is not a friendly one for the Axis units
    p.to("movement", side="Allied", gt=11)
    exc = p.refuse("arrive", side="Allied", unit="IT-25Bologna", to=EL_AGHEILA)
    assert "7.0" in exc.rule


def test_27_1_b_one_dump_per_movement_phase_desert_fox():
    p = Play("desert-fox", seed=1)
    p.to("movement", side="Axis", gt=12)           # GT 11's supply still waits (7.1): two dumps at least
    waiting = p.eng.query("movement_arrivals", side="Axis")
    dumps = sorted(u for u in waiting if R._supply_kind(u) == "dump")
    rps = sorted(u for u in waiting if R._supply_kind(u) == "rp")
    assert len(dumps) >= 2 and len(rps) >= 3
    p.act("arrive", unit=dumps[0], to=EL_AGHEILA)                 # the limit: one dump
    assert p.refuse("arrive", unit=dumps[1], to=EL_AGHEILA).rule == "27.1 b"
    assert p.refuse("arrive", unit=rps[0], to=EL_AGHEILA).rule == "27.1 b"      # "one dump or two RP"
    assert not [o for o in p.pending.options if o.action.kind == "arrive" and o.action.args["unit"] in dumps + rps]
    p.act("done")
    # the next friendly Movement Phase: two RP (the limit), a third refused, and no dump after them
    p.to("movement", side="Axis", gt=12)
    p.act("arrive", unit=rps[0], to=EL_AGHEILA)
    p.act("arrive", unit=rps[1], to=EL_AGHEILA)
    assert p.refuse("arrive", unit=rps[2], to=EL_AGHEILA).rule == "27.1 b"
    assert p.refuse("arrive", unit=dumps[1], to=EL_AGHEILA).rule == "27.1 b"


def test_27_1_a_fourteen_shipping_steps_per_gt_desert_fox():
    """Nothing arrives on GT 11 (the units wait off-map, 7.1); on GT 12 combat units counting against the shipping
    steps arrive until exactly 14; the next one is refused; GT 11's Italians, which "do not count", still arrive."""
    p = Play("desert-fox", seed=1)
    p.to("movement", side="Axis", gt=12)
    waiting = p.eng.query("movement_arrivals", side="Axis")
    assert "IT-17Pavia" in waiting                                  # carried over from GT 11 (7.1)
    counting = [u for u in sorted(waiting) if R._supply_kind(u) == "" and
                not p.state.units[u].flags.get("free_shipping")]
    used = 0
    for uid in sorted(counting, key=lambda u: -_steps(p, u)):
        if used + _steps(p, uid) <= 14:
            p.act("arrive", unit=uid, to=EL_AGHEILA)
            used += _steps(p, uid)
    assert used == 14 == p.state.vars["shipping_used"]["12"]
    rest = [u for u in counting if p.state.units[u].loc == offmap.available("Axis")]
    assert rest
    exc = p.refuse("arrive", unit=rest[0], to=EL_AGHEILA)
    assert exc.rule == "27.1 a" and "14" in str(exc)
    p.act("arrive", unit="IT-17Pavia", to=EL_AGHEILA)               # 27.1 GT 11: "do not count"
    assert p.state.vars["shipping_used"]["12"] == 14


def test_30_2_any_two_dumps_or_rp_per_allied_movement_phase_at_el_agheila_trail_of_the_fox():
    p = Play("trail-of-the-fox", seed=1)
    d = p.to("movement", side="Allied", gt=31)
    assert p.state.phase == 15
    offered = sorted({o.action.args["to"] for o in d.options if o.action.kind == "arrive"})
    assert offered == [EL_AGHEILA]                                  # "in S0734", not the whole east edge
    waiting = sorted(p.eng.query("movement_arrivals", side="Allied"))
    assert len(waiting) == 4                                        # 3 x Dump, 1 x RP (GT 31 included)
    assert "30.2" in p.refuse("arrive", unit=waiting[0], to="C0201").rule
    p.act("arrive", unit=waiting[0], to=EL_AGHEILA)
    p.act("arrive", unit=waiting[-1], to=EL_AGHEILA)                # any two: the limit
    assert p.refuse("arrive", unit=waiting[1], to=EL_AGHEILA).rule == "30.2"
    # the two left wait off-map (7.1); III.1 of GT 32 does not deploy them, the next Movement Phase brings them in
    seen, note = _kinds_of("Allied")
    p.to("movement", side="Allied", gt=32, script={"reinforce": note})
    assert not [s for s in seen if s[2].startswith(("AL-Dump", "UK-RP"))]
    left = sorted(p.eng.query("movement_arrivals", side="Allied"))
    assert waiting[1] in left and waiting[2] in left and len(left) == 6     # GT 32's allotment joins them
    p.act("arrive", unit=waiting[1], to=EL_AGHEILA)
    p.act("arrive", unit=waiting[2], to=EL_AGHEILA)
    assert p.refuse("arrive", unit=left[-1], to=EL_AGHEILA).rule == "30.2"


def test_31_2_trail_arrivals_of_gt_31_in_phase_15_tunisian_campaign():
    """31.0 a) gives the Axis the initiative on maps L and S on GT 31; with the Allies (who roll) choosing to be
    the 2nd player, Phase 12 is the Axis Movement Phase and Phase 15 the Allied one."""
    script = {"choose_first_player": lambda d: next(o.action for o in d.options if o.action.args["first"] is False)
              if d.side == "Allied" else None}
    p = Play("tunisian-campaign", seed=1)
    d = p.to("movement", side="Allied", gt=31, script=script)
    assert p.state.phase == 9
    assert not [o for o in d.options if o.action.kind == "arrive"]
    exc = p.refuse("arrive", unit="UK-30Corps", to="C0201")
    assert "Phase 15" in str(exc) and "31.2" in exc.rule
    d = p.to("movement", side="Axis", gt=31, phase=12, script=script)
    assert "GE-Ramcke" in p.eng.query("movement_arrivals", side="Axis")          # 30.1 "GT-31 Phase 12"
    d = p.to("movement", side="Allied", gt=31, phase=15, script=script)
    arrivals = p.eng.query("movement_arrivals", side="Allied")
    assert "UK-30Corps" in arrivals and "C0201" in arrivals["UK-30Corps"]        # any hex of the east edge
    p.act("arrive", unit="UK-30Corps", to="C0201")
    assert p.state.units["UK-30Corps"].loc == "C0201"


def test_30_2_eighth_army_enters_on_the_east_edge_of_map_s_not_a_torch_box_tunisian_campaign():
    """30.2 "Units enter at any hex on the east edge of Map S" (31.0 includes it): GT 32's 1 Greek (30.2 "GT 32: ...
    1 Greek") is offered the edge hexes in III.1, not the Torch or Torch East Box (7.3: those hold "Units arriving
    as part of ALC-21 through ALC-24")."""
    p = Play("tunisian-campaign", seed=1)
    d = p.to("reinforce", side="Allied", gt=32)
    assert d.context["unit"] == "GR-1Greek"
    pts = [o.action.args["to"] for o in d.options if o.action.kind == "deploy"]
    assert "C0201" in pts and all(not x.startswith("box:") for x in pts)
    exc = p.refuse("deploy", unit="GR-1Greek", to=offmap.TORCH_EAST)
    assert "7.3" in exc.rule
