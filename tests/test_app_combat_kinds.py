"""The combat dialog drives every combat decision the engine asks (found while updating docs/manual.md):
the naval strike on a fleet before a combat (20.4.2), defensive artillery (15.1), recon superiority's split and
assignment (15.3) and exploitation (14.9.3) open the dialog with their options as buttons, at their stage."""

from __future__ import annotations

import os
import re
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from app.combat import COMBAT_KINDS, STAGES, CombatDialog, CombatInfo, is_combat  # noqa: E402
from core.decisions import Action, Decision, Option  # noqa: E402

pytestmark = pytest.mark.gui
ROOT = Path(__file__).resolve().parent.parent


def test_every_combat_decision_kind_of_the_engine_is_a_combat_decision_of_the_app():
    engine = set()
    for p in (ROOT / "core").rglob("*.py"):
        engine |= set(re.findall(r'kind="(combat_[a-z_]+)"', p.read_text(encoding="utf-8")))
    assert {"combat_fleet_strike", "combat_exploit", "combat_recon_split"} <= engine
    assert engine <= set(COMBAT_KINDS), engine - set(COMBAT_KINDS)
    staged = {k for _t, kinds, _s in STAGES for k in kinds}
    assert engine <= staged, engine - staged


@pytest.mark.parametrize("kind, stage", [("combat_fleet_strike", "Support"), ("combat_def_artillery", "Support"),
                                         ("combat_recon_split", "Declaration"), ("combat_recon_assign", "Declaration"),
                                         ("combat_exploit", "Advance")])
def test_the_dialog_shows_the_new_decisions(qtbot, kind, stage):
    opt = Option(action=Action(kind="x", side="Axis", args={}), label="Strike with FF Afrika")
    d = Decision(side="Axis", kind=kind, prompt="A question (20.4.2)", rule="20.4.2", options=(opt,))
    assert is_combat(d)
    dlg = CombatDialog(None)
    qtbot.addWidget(dlg)
    info = CombatInfo(decision=d)
    dlg.show_info(info)
    assert STAGES[info.stage_index][0] == stage
    assert dlg.prompt.text() == "A question (20.4.2)"
    assert dlg.button("Strike with FF Afrika") is not None
