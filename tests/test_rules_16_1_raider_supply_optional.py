"""R-RAID-OFF: 16.1 "All desert capable units ... function like any other combat units. Desert raiders have the
additional capabilities listed below" -- 1 MP per hex regardless of terrain, hexside terrain and EZOC ignored, "May
not attack if on the hex grid", two morale checks when attacked alone, "Are always in general and combat supply" --
and those capabilities are the optional desert raider rules (16.0 "The use of desert raiders and the oasis boxes is
optional in all scenarios"; 26.0 b) "nor are Desert Raiders (16.0)").

300 Oasis (a desert raider counter that 26.1 and 27.1 both set up at C0702) from the real set-ups through
``Engine.apply`` only, GT 10 XII.3, the British KDG in C0603 and 2 SG in C0803 exerting ZOC into C0703:

* Sonnenblume (16.0 not used): it pays the TEC as the trucked unit it is (9.0 Important), stops in the EZOC, may
  attack, is attacked on the CRT, and is not always in supply;
* Desert Fox with ``optional=("desert_raiders",)`` (chosen at new game, ``core.newgame``): it has every 16.1
  capability.  Desert Fox without the option is Sonnenblume's case (its reachable hexes are compared below)."""

from __future__ import annotations

from core.hexgrid import Hex
from core.rules import movement, supply
from core.rules.status import is_desert_raider, tec_class
from tests.playpath import Play

OASIS = "GE-300Oasis"
RAIDERS = ("desert_raiders",)
COAST = ["C0703", "C0704", "C0705"]          # past 2 SG along the coast: C0703 is in its ZOC (and KDG's)


def _game(scenario: str, optional: tuple[str, ...] = ()) -> Play:
    p = Play(scenario, seed=1, optional=optional)
    p.to(step="XII.3", gt=10)
    assert p.state.units[OASIS].loc == "C0702" and p.state.units["UK-2SG"].loc == "C0803"
    return p


def _moved(p: Play) -> int:
    """The eighths of MP 300 Oasis has spent this Movement Phase (13.3)."""
    return p.pending.context["moved"][OASIS]


def _attacked_alone_at_c0703(p: Play) -> list[str]:
    """300 Oasis stops alone in C0703; in the Allied Combat Phase 2 SG attacks it.  The log lines of the combat."""
    p.act("move", units=[OASIS], path=["C0703"])
    p.to("combat_declare", side="Allied")
    assert [u.id for u in p.state.units_at("C0703")] == [OASIS]
    n = len(p.eng.log)
    p.act("declare", attackers=["UK-2SG"], hexes=["C0703"], form="regular")
    p.run(lambda e: e.state.gt > 10)
    return p.events(since=n)


# ---------------------------------------------------------------- 16.0 not used: an ordinary (trucked) combat unit
def test_16_1_without_16_0_a_raider_pays_trucked_costs_and_stops_in_an_ezoc():
    """C0703 costs 300 Oasis what it costs a trucked unit, the EZOC's +1 MP included (11.4) -- 5 MP, not 16.1's 1 MP
    a hex -- and the coast path past 2 SG is refused: it entered an EZOC and must stop (11.4)."""
    p = _game("sonnenblume")
    u = p.state.units[OASIS]
    assert not is_desert_raider(p.state, u) and tec_class(p.state, u) == "trucked"
    assert p.refuse("move", units=[OASIS], path=COAST).rule == "11.4"
    p.act("move", units=[OASIS], path=["C0703"])
    assert _moved(p) == 5 * 8


def test_16_1_without_16_0_a_raider_may_attack_and_overrun():
    """16.1 "May not attack if on the hex grid" is not in force: the Combat Phase offers 300 Oasis's attack on 2 SG
    (its overrun of a lone dump: ``test_rules_12_2_7_capture_choice.py::*_play_path``)."""
    p = _game("sonnenblume")
    p.act("move", units=[OASIS], path=["C0703"])
    p.to("combat_declare", side="Axis")
    assert p.option("declare", attackers=[OASIS], hexes=["C0803"]) is not None
    n = len(p.eng.log)
    p.act("declare", attackers=[OASIS], hexes=["C0803"], form="regular")
    assert any("C0803" in e for e in p.events(since=n))


def test_16_1_without_16_0_a_raider_attacked_alone_is_resolved_on_the_crt():
    """No two morale checks for a raider attacked alone (16.1): the CRT gives its line like any unit's (14.5), and
    its combat supply costs a dump (12.6)."""
    lines = _attacked_alone_at_c0703(_game("sonnenblume"))
    assert "Defender 300 Oasis (printed morale 2, line 2): m (14.5)" in lines
    assert "Axis expends a dump for combat supply in C0703 (12.6)" in lines
    assert not any("16.1" in e for e in lines)


def test_16_1_without_16_0_a_raider_is_not_always_in_supply():
    """Sonnenblume: 300 Oasis is not "always in general and combat supply"; the same counter is with the option."""
    off = _game("sonnenblume")
    on = _game("desert-fox", RAIDERS)
    assert not supply.always_supplied(off.state, off.state.units[OASIS])
    assert supply.always_supplied(on.state, on.state.units[OASIS])


# ---------------------------------------------------------------- 16.0 chosen: every 16.1 capability
def test_16_1_with_16_0_a_raider_pays_1_mp_a_hex_and_ignores_ezoc():
    """Desert Fox with the option: C0703 costs 1 MP (5 MP without), the coast path past 2 SG is legal (3 MP), and
    the raider reaches every hex it reaches without the option and more."""
    on, off = _game("desert-fox", RAIDERS), _game("desert-fox")
    assert tec_class(on.state, on.state.units[OASIS]) == "raider"
    assert tec_class(off.state, off.state.units[OASIS]) == "trucked"
    assert set(movement.query_reachable(off.eng, [OASIS])) < set(movement.query_reachable(on.eng, [OASIS]))
    on.act("move", units=[OASIS], path=COAST)
    assert _moved(on) == 3 * 8 and on.state.units[OASIS].loc == "C0705"
    on = _game("desert-fox", RAIDERS)
    on.act("move", units=[OASIS], path=["C0703"])
    assert _moved(on) == 1 * 8


def test_16_1_with_16_0_a_raider_may_not_attack_or_overrun_on_the_hex_grid():
    """"May not attack if on the hex grid": no attack of 300 Oasis on 2 SG is offered and the declaration is refused;
    nor may it overrun the lone Allied dump at C1407 (13.4: an overrun is combat)."""
    p = _game("desert-fox", RAIDERS)
    path = movement.query_reachable(p.eng, [OASIS], with_paths=True)["C1308"]["path"]
    assert [u.id for u in p.state.units_at("C1407")] == ["AL-Dump#2"]
    refused = p.refuse("move", units=[OASIS], path=path + ["C1407"])
    assert refused.rule == "16.1; 13.4" and "desert raider" in str(refused)
    p.act("move", units=[OASIS], path=["C0703"])
    p.to("combat_declare", side="Axis")
    assert not [o for o in p.pending.options if OASIS in (o.action.args.get("attackers") or [])]
    assert "16.1" in str(p.refuse("declare", attackers=[OASIS], hexes=["C0803"], form="regular"))


def test_16_1_with_16_0_a_raider_attacked_alone_makes_two_morale_checks():
    """Alone in C0703 and attacked by 2 SG: two morale checks instead of its CRT line, and one failure eliminates
    (16.1, R-C-LONE-RAIDER; seed 1 rolls 4 then 5 against morale 2); in combat supply with no dump expended."""
    lines = _attacked_alone_at_c0703(_game("desert-fox", RAIDERS))
    assert [e for e in lines if "desert raider attacked on the hex grid, 16.1" in e] == [
        "Morale check (desert raider attacked on the hex grid, 16.1): 300 Oasis rolls 4 + morale 2 = 6: passes (8.1)",
        "Morale check (desert raider attacked on the hex grid, 16.1): 300 Oasis rolls 5 + morale 2 = 7: fails (8.1)"]
    assert "Desert raider 300 Oasis: fails a check and is eliminated (16.1)" in lines
    assert not any(e.startswith("Defender 300 Oasis") for e in lines)
    assert "Axis expends a dump for combat supply in C0703 (12.6)" not in lines


def test_16_1_with_16_0_a_raider_far_from_the_base_is_in_general_supply():
    """16.1 "Are always in general and combat supply": 300 Oasis driven as far east as it can go stays IGS."""
    p = _game("desert-fox", RAIDERS)
    reach = movement.query_reachable(p.eng, [OASIS], with_paths=True)
    far = max(reach, key=lambda h: (Hex.parse(h).distance(Hex.parse("C0701")), h))
    assert Hex.parse(far).distance(Hex.parse("C0701")) > 14
    p.act("move", units=[OASIS], path=reach[far]["path"])
    assert supply.gens_status(p.state, "Axis")[OASIS] == "IGS"
