"""R-REINF-ENEMY-HEX (7.1, 7.2, 13.1, 2.2.2, 20.1, 20.2.1): Axis reinforcements of Sonnenblume "arrive at hex C0701";
while Allied units occupy El Agheila, or it is Allied controlled after they left it, none arrives there: the units
wait off-map (7.1 "held off-map indefinitely") until an Axis ground combat unit enters the hex again.

Played from the Sonnenblume set-up through ``Engine.apply`` only: the Axis destroys its base and dumps (12.2.5)
and leaves El Agheila, the KDG takes it (XV.3), GT 11 III.1 offers no C0701, the KDG leaves (GT 11), GT 12 III.1
still offers none (Allied control), an Axis unit re-enters (GT 12), GT 13 III.1 offers C0701 and Pavia arrives."""

from __future__ import annotations

from core.rules import control
from tests.playpath import Play

GT11 = ["IT-17Pavia", "IT-25Bologna", "IT-55Savona", "IT-102TrnAP"]     # 26.1 "GT 11: (all units Italian) ..."


def _hold_all(p: Play, gt: int) -> dict[str, list[str]]:
    """Answer every Axis reinforce decision of GT ``gt`` with *hold*; return the points each unit was offered."""
    seen: dict[str, list[str]] = {}
    while True:
        d = p.to(side="Axis", gt=gt)
        if d.kind != "reinforce":
            return seen
        seen[d.context["unit"]] = [o.action.args["to"] for o in d.options if o.action.kind == "deploy"]
        p.act("hold", side="Axis", unit=d.context["unit"])


def _kdg_takes_el_agheila() -> Play:
    p = Play("sonnenblume", seed=1)
    p.to("movement", side="Axis")                                   # GT 10 XII.3
    for supply_unit, by in (("AX-Base#1", "IT-27Brescia"), ("AX-Dump#1", "IT-132Ariete"), ("AX-Dump#2", "IT-8Ber")):
        p.act("destroy_supply", side="Axis", unit=supply_unit, by=by)
    for units, to in ((["IT-27Brescia"], "C0703"), (["IT-132Ariete", "IT-8Ber", "IT-Nizza", "IT-132Cel"], "C0703"),
                      (["AX-MSU#1"], "C0703"), (["AX-MSU#2"], "C0703"),
                      (["GE-Kasta", "GE-5Pz", "GE-Stab200", "GE-3Aufkl", "GE-605PzJg", "GE-I18FLK", "GE-300Oasis"],
                       "C0802")):
        p.act("move", side="Axis", units=units, path=p.eng.query("route", units=units, to=to)["path"])
    assert not p.state.units_at("C0701")
    p.to("movement", side="Allied")                                 # GT 10 XV.3
    p.act("move", side="Allied", units=["UK-KDG"], path=p.eng.query("route", units=["UK-KDG"], to="C0701")["path"])
    assert p.state.units["UK-KDG"].loc == "C0701" and control.controller(p.state, "C0701") == "Allied"
    return p


def test_7_1_no_axis_arrival_in_el_agheila_occupied_by_the_kdg_sonnenblume():
    p = _kdg_takes_el_agheila()
    d = p.to("reinforce", side="Axis", gt=11)
    exc = p.refuse("deploy", side="Axis", unit=d.context["unit"], to="C0701")
    assert "7.1" in exc.rule
    offered = _hold_all(p, 11)
    assert set(GT11) <= set(offered)
    assert all("C0701" not in pts for pts in offered.values())      # hold is all the GT 11 Italians are offered
    assert all(p.state.units[u].loc == "box:Available:Axis" for u in GT11)


def test_7_1_allied_control_after_the_kdg_left_still_bars_the_arrival_until_an_axis_unit_enters():
    p = _kdg_takes_el_agheila()
    p.to("reinforce", side="Axis", gt=11)
    _hold_all(p, 11)
    p.to("movement", side="Allied", gt=11)
    p.act("move", side="Allied", units=["UK-KDG"], path=p.eng.query("route", units=["UK-KDG"], to="C0603")["path"])
    assert not p.state.units_at("C0701") and control.controller(p.state, "C0701") == "Allied"     # 2.2.2
    p.to("reinforce", side="Axis", gt=12)
    offered = _hold_all(p, 12)
    assert set(GT11) <= set(offered) and all("C0701" not in pts for pts in offered.values())
    # boundary: one Axis ground combat unit entering El Agheila makes it Axis again (2.2.2)
    p.to("movement", side="Axis", gt=12)
    routes = {u.id: p.eng.query("route", units=[u.id], to="C0701") for u in p.state.units_of("Axis")
              if control.transfers_control(u) and u.loc[1:].isdigit()}
    mover, route = next((uid, r) for uid, r in sorted(routes.items()) if r)
    p.act("move", side="Axis", units=[mover], path=route["path"])
    assert control.controller(p.state, "C0701") == "Axis"
    p.to("reinforce", side="Axis", gt=13)
    while (d := p.to(side="Axis", gt=13)).kind == "reinforce" and d.context["unit"] != "IT-17Pavia":
        assert "C0701" in [o.action.args["to"] for o in d.options if o.action.kind == "deploy"]
        p.act("hold", side="Axis", unit=d.context["unit"])
    p.act("deploy", side="Axis", unit="IT-17Pavia", to="C0701")
    assert p.state.units["IT-17Pavia"].loc == "C0701"


def test_7_1_allied_arrival_on_map_s_east_edge_trail_of_the_fox_el_agheila_free_under_30_0():
    """Trail of the Fox: 30.2 "Units enter at any hex on the east edge of Map S"; the Panzerarmee set up at El Agheila
    (S0734 = C0701) may not end a phase there (30.0, R-30-EAST), so at the Allied deployment of GT 32 no east-edge hex
    holds Axis units and every land hex of the edge, C0701 included, is offered."""
    p = Play("trail-of-the-fox", seed=1)
    d = p.to("reinforce", side="Allied")
    assert p.state.gt == 32 and not any(u.side == "Axis" for u in p.state.units_at("C0701"))
    pts = [o.action.args["to"] for o in d.options if o.action.kind == "deploy"]
    assert {"C0201", "C0301", "C0401", "C0501", "C0601", "C0701"} <= set(pts)
    p.act("deploy", side="Allied", unit=d.context["unit"], to="C0701")
    assert p.state.units[d.context["unit"]].loc == "C0701"


def test_26_1_all_axis_units_arrive_at_c0701_not_in_italy_sonnenblume():
    """26.1 "All units arrive at hex C0701" (7.2's Italy is the general case; 26.0 b "Off-map Areas (22.0) are not
    used"): the monthly support dumps of AXC-3, whose card names Italy, are offered C0701 only; Italy is refused."""
    p = Play("sonnenblume", seed=1)
    d = p.to("reinforce", side="Axis", gt=11)
    assert d.context["unit"].startswith("AX-Dump")
    assert [o.action.args["to"] for o in d.options if o.action.kind == "deploy"] == ["C0701"]
    assert "7.1" in p.refuse("deploy", side="Axis", unit=d.context["unit"], to="box:Italy").rule
    p.act("deploy", side="Axis", unit=d.context["unit"], to="C0701")
    assert p.state.units[d.context["unit"]].loc == "C0701"
