"""27.3 Desert Fox victory conditions, from the real scenario set-up through ``Engine.apply`` only (issue 16)."""

from __future__ import annotations

from core.rules import victory_rules as vr
from tests.playpath import Play


def _cond(p: Play, kind: str) -> dict:
    return next(c for c in vr.conditions(p.eng) if c["kind"] == kind)


def test_27_3_allied_smashing_when_no_axis_base_has_an_overland_loc_to_c0701_after_12_2_5_destroys_the_base():
    """27.3 "The Allied player wins a smashing victory if there is not an Axis base on the map with an overland LOC
    to C0701"; 12.2.5 1) a player may destroy a supply unit stacked with a friendly combat unit in general supply
    at the beginning of a friendly Movement Phase, and "A destroyed base (active or OGS) may be replaced"."""
    p = Play("desert-fox", seed=1)
    p.to("movement", side="Axis")
    cond = _cond(p, "no_base_with_loc")
    assert vr._bases(p.eng, "Axis") == ["C0701"] and not vr.holds(p.eng, cond, "Allied")
    n = len(p.eng.log)
    p.act("destroy_supply", unit="AX-Base#1", by="IT-27Brescia")
    assert any("destroys its base in C0701" in e and "(12.2.5)" in e for e in p.events(n))
    assert vr._bases(p.eng, "Axis") == [] and vr.holds(p.eng, cond, "Allied")


def test_27_3_the_primary_road_from_c0701_to_w2134_runs_along_the_finished_sollum_sidi_barrani_road():
    """27.0 Map Modifications: the Sollum (W2004) - Sidi Barrani (W2110) road is complete (18.3: "converts the route
    into a primary road"), so 27.3's "primary road from C0701 to W2134" exists and passes it; without the finished
    road the coast road has a gap there and the Axis smashing victory could never hold."""
    p = Play("desert-fox", seed=1)
    cond = _cond(p, "road_control")
    road = vr.primary_road(p.eng, cond["from_hex"], cond["to_hex"])
    assert road[0] == "C0701" and road[-1] == "W2134" and {"W2004", "W2110"} <= set(road)
    mods = p.state.vars.pop("map_mods")
    try:
        assert vr.primary_road(p.eng, cond["from_hex"], cond["to_hex"]) == []
    finally:
        p.state.vars["map_mods"] = mods
    assert not vr.holds(p.eng, cond, "Axis")             # the Allies hold most of the road at the start


def test_27_3_road_control_counts_the_road_hexes_an_axis_unit_entered_and_left_2_2_2():
    """27.3 "The Axis player wins a smashing victory if he controls every hex of the primary road from C0701 to
    W2134" read with 2.2.2 "a ground combat unit entering a hex transfers control to its player until an opposing
    unit enters the hex": in Desert Fox (27.0: the Allies control every hex of Maps C and W except the Axis set-up
    hexes), both sides passing GT 10, at the first Axis Movement Phase of GT 11 a motorised unit drives east along
    the road (in GT 10 the Allied ZOC lets none past C0802; 300 Oasis goes round it by C0504 as the trucked
    unit it is without the optional rules of 16.0, R-RAID-OFF); every road hex it
    entered, the ones it passed through included, is Axis-controlled afterwards and drops out of the road hexes still
    denied to the Axis.  (The whole condition needs the 92 road hexes entered and no Allied ZOC on them:
    docs/architecture.md, Unreachable by random play.)"""
    from core.rules import movement, status

    p = Play("desert-fox", seed=1)
    p.to("movement", side="Axis", gt=11)
    cond = _cond(p, "road_control")
    road = vr.primary_road(p.eng, cond["from_hex"], cond["to_hex"])

    def denied() -> set[str]:
        return {h for h in road if vr.controller(p.eng, h) != "Axis"}

    before = denied()
    movers = [u for u in p.state.units.values() if u.side == "Axis" and u.loc in road and status.is_motorized(u)]
    assert movers, "an Axis motorised unit on the road at the 27.1 set-up"
    best = []
    for u in movers:
        for h, i in movement.query_reachable(p.eng, [u.id], with_paths=True).items():
            best.append((len([x for x in i["path"] if x in before]), u.id, h, i))
    _, uid, dest, info = max(best, key=lambda b: b[:3])
    entered = [x for x in info["path"][1:] if x in before]
    assert len(entered) >= 2
    p.act("move", units=[uid], path=info["path"])
    assert p.state.units[uid].loc == dest and dest not in entered[:-1]
    assert denied() == before - set(entered)
    assert not vr.holds(p.eng, cond, "Axis")
