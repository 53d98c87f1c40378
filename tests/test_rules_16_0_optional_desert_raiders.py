"""16.0 Desert raiders (optional): "The use of desert raiders and the oasis boxes is optional in all scenarios"
except where a scenario says they are not used (24.0 b, 25.0 b, 26.0 b).  The players choose the rule at new
game (``dfd new --optional desert_raiders``, the New game dialog's check box); it is kept in the game's initial
state, so replay and LAN clients see it.  Play-path tests: a real scenario set-up, ``Engine.apply`` only."""

from __future__ import annotations

import pytest

from core.game import Game, verify
from core.scenario import ScenarioError, all_scenarios, load
from tests.playpath import Play

RAIDERS = ("desert_raiders",)
SAHARA = {"IT-ISahara", "IT-IISahara"}


def test_16_0_optional_in_every_scenario_but_those_that_do_not_use_it():
    allowed = {s.id for s in all_scenarios() if "desert_raiders" in s.optional_rules()}
    # 24.0 b) / 25.0 b) / 26.0 b) "... nor are Desert Raiders (16.0)"
    assert allowed.isdisjoint({"fox-killed", "oconnors-war", "sonnenblume"})
    assert {"desert-fox", "rommels-war", "trail-of-the-fox", "north-african-campaign"} <= allowed
    with pytest.raises(ScenarioError, match="16.0"):
        Play("sonnenblume", optional=RAIDERS)
    with pytest.raises(ScenarioError, match="no optional rule"):
        Play("desert-fox", optional=("no_such_rule",))


def test_16_2_1_desert_fox_300_oasis_reaches_the_oasis_track_only_with_the_optional_rule():
    """27.0 c) (Optional) Desert Raiders: 300 Oasis (C0702) drives to Jalo (C0117, a connection hex that counts as
    an oasis box, 16.2.1 Important), then along the Oasis Track at 14 MP a box (16.2)."""
    off = Play("desert-fox", seed=1)
    off.to("movement", side="Axis")
    assert off.refuse("oasis_move", units=["GE-300Oasis"], path=["C0703"]).rule == "16.0"

    p = Play("desert-fox", seed=1, optional=RAIDERS)
    p.to("movement", side="Axis")
    path = p.eng.query("route", units=["GE-300Oasis"], to="C0117")["path"]
    p.act("move", units=["GE-300Oasis"], path=path)                 # 18 MP of its 28 (1 MP a hex, 16.1)
    assert p.state.units["GE-300Oasis"].loc == "C0117"
    p.act("done")
    p.to("movement", side="Axis")                              # the next Axis Movement Phase
    # limit + 1: Zella, Hon and Gadamis are 42 MP, more than its 28 (16.2)
    assert p.refuse("oasis_move", units=["GE-300Oasis"],
                    path=["box:Oasis:zella", "box:Oasis:hon", "box:Oasis:gadamis"]).rule == "16.2"
    # limit: 14 MP to Zella + 14 MP to Hon = its 28 MP (16.2)
    n = len(p.eng.log)
    p.act("oasis_move", units=["GE-300Oasis"], path=["box:Oasis:zella", "box:Oasis:hon"])
    assert p.state.units["GE-300Oasis"].loc == "box:Oasis:hon"
    assert any("Oasis Track" in e and "(16.2)" in e for e in p.events(n))


def test_27_1_optional_sahara_units_arrive_only_with_the_desert_raider_rules():
    """27.1 "C0701: ... I/Sahara (optional), and II/Sahara (optional)" arrive in GT 11 with 16.0 only."""
    on, off = Play("desert-fox", seed=1, optional=RAIDERS), Play("desert-fox", seed=1)
    for p in (on, off):
        p.to("movement", side="Axis", gt=11)
    for u in sorted(SAHARA):             # 27.1 "arrive at hex C0701 during any friendly Movement Phase"
        on.act("arrive", unit=u, to="C0701")
        assert on.state.units[u].loc == "C0701"
    assert not SAHARA & set(off.eng.query("movement_arrivals", side="Axis"))
    assert not SAHARA & set(off.state.units) and not any("Sahara" in e for e in off.events())


def test_30_1_trail_of_the_fox_sahara_units_set_up_in_the_gadamis_oasis_box_of_the_track():
    """30.1 "Gadamis Oasis: (Italian) I/Sahara, II/Sahara": the box of the Oasis Track (16.2), so with 16.0 they
    move along the track from it (Gadamis - Hon, 14 MP)."""
    p = Play("trail-of-the-fox", seed=1, optional=RAIDERS)
    assert p.state.units["IT-ISahara"].loc == "box:Oasis:gadamis"
    p.to("movement", side="Axis")
    p.act("oasis_move", units=["IT-ISahara", "IT-IISahara"], path=["box:Oasis:hon"])
    assert p.state.units["IT-IISahara"].loc == "box:Oasis:hon"


def test_16_0_dfd_new_optional_desert_raiders_is_kept_in_the_file(tmp_path, capsys):
    from app.cli import main

    f = tmp_path / "df.dfd"
    assert main(["new", "desert-fox", "--seed", "3", "--optional", "desert_raiders", "-o", str(f)]) == 0
    assert "desert_raiders" in capsys.readouterr().out
    g = Game.open(f)
    try:
        assert g.state.vars["optional"] == {"desert_raiders": True}
    finally:
        g.close()
    assert verify(f).ok
    # a scenario that does not use 16.0 refuses it, naming the rule, and writes no file
    g2 = tmp_path / "sb.dfd"
    assert main(["new", "sonnenblume", "--optional", "desert_raiders", "-o", str(g2)]) != 0
    assert not g2.exists()
    assert "16.0" in capsys.readouterr().err


def test_16_0_new_game_dialog_offers_the_option_where_the_scenario_allows_it(tmp_path, qtbot):
    pytest.importorskip("pytestqt")
    from PySide6.QtCore import Qt

    from app.dialogs import NewGameDialog

    dlg = NewGameDialog(None, tmp_path)
    qtbot.addWidget(dlg)
    box = dlg.optional["desert_raiders"]

    def pick(sid: str) -> None:
        row = next(i for i in range(dlg.list.count()) if dlg.list.item(i).data(Qt.UserRole) == sid)
        dlg.list.setCurrentRow(row)

    pick("desert-fox")
    assert box.isEnabled() and dlg.optional_rules() == []
    box.setChecked(True)
    assert dlg.optional_rules() == ["desert_raiders"]
    pick("sonnenblume")                                     # 26.0 b) Desert Raiders are not used
    assert not box.isEnabled() and dlg.optional_rules() == []
    assert load("sonnenblume").optional_rules() == []


def test_30_2_leclerc_enters_any_oasis_box_and_16_3_entering_its_box_triggers_oasis_track_combat():
    """30.2 "GT 31 or after: Any oasis box: LeClerc": the deploy offers each box of the Oasis Track; 16.2 "Entering
    an enemy occupied box triggers combat" (16.3: one die per combat factor, each a morale check)."""
    p = Play("trail-of-the-fox", seed=1, optional=RAIDERS)
    p.to("movement", side="Axis")
    p.act("oasis_move", units=["IT-ISahara", "IT-IISahara"], path=["box:Oasis:hon"])
    p.to(step="XIII.1")           # passing: the El Agheila arrivals leave column 34 first (30.0), then done
    boxes: set[str] = set()

    def deploy(d):
        for o in d.options:
            if o.action.kind == "deploy" and o.action.args.get("unit") == "FF-LeClerc":
                boxes.add(o.action.args["to"])
        return next((o.action for o in d.options if o.action.kind == "deploy"
                     and o.action.args == {"unit": "FF-LeClerc", "to": "box:Oasis:zella"}), None)

    p.to("movement", side="Axis", script={"reinforce": deploy})
    assert {"box:Oasis:gadamis", "box:Oasis:hon", "box:Oasis:kufra", "box:Oasis:zella"} <= boxes
    assert p.state.units["FF-LeClerc"].loc == "box:Oasis:zella"
    n = len(p.eng.log)
    p.act("oasis_move", units=["IT-ISahara"], path=["box:Oasis:zella"])
    d = p.pending
    assert (d.kind, d.side, d.rule) == ("oasis_combat", "Axis", "16.3")
    p.act("oasis_roll")
    checks = [e for e in p.events(n) if e.startswith("Oasis combat die")]
    assert checks and all("(16.3, 8.1)" in e for e in checks)
    assert any("against LeClerc" in e for e in checks)


def test_16_4_supply_raid_next_to_an_enemy_dump_from_the_desert_fox_set_up():
    """16.4 Supply Raid: "Move adjacent to an enemy MSU or dump (not a base) and make a morale check for it";
    one mission per raider and Movement Phase."""
    p = Play("desert-fox", seed=1, optional=RAIDERS)
    p.to("movement", side="Axis")
    dump = next(u for u in p.state.units_at("C0803") if u.side == "Allied" and u.id.startswith("AL-Dump"))
    p.act("move", units=["GE-300Oasis"], path=["C0802"])
    n = len(p.eng.log)
    p.act("raid", unit="GE-300Oasis", mission="supply", target=dump.id)
    line = next(e for e in p.events(n) if "(16.4)" in e)
    assert ("is disrupted" in line) == p.state.units[dump.id].disrupted
    assert p.refuse("raid", unit="GE-300Oasis", mission="supply", target=dump.id).rule == "16.4"   # one mission
