"""R-SF-CRETE in the app: the Axis player's choice of the air unit on Crete that makes the raid's damage check (15.4 d)
shows in the prompt bar as one button per air unit, like every decision the engine asks, and reads in the game log
(pytest-qt, offscreen).  The play path that reaches the decision is
tests/test_rules_15_4_special_forces_play.py::test_15_4_d_the_axis_player_chooses_which_air_unit_on_crete_makes_the_damage_check_play_path."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from core.decisions import ALLIED, AXIS, Action  # noqa: E402
from core.dice import ScriptedDice  # noqa: E402

pytestmark = pytest.mark.gui


def test_15_4_d_crete_raid_victim_buttons_and_log_line(qtbot):
    from app.logtext import describe
    from app.panels import PromptBar
    from tests.test_rules_15_4_special_forces_play import _crete

    eng = _crete([("UK-Layforce", ALLIED, "box:NRV"), ("GE-StGI", AXIS, "box:Crete"), ("IT-Libya", AXIS, "box:Crete")],
                 ScriptedDice([1]))                    # the raider passes its morale check
    eng.apply(Action(kind="crete_raid", side=ALLIED, args={"units": ["UK-Layforce"]}))
    d = eng.pending()
    assert d.kind == "crete_raid_victim" and d.side == AXIS
    bar = PromptBar()
    qtbot.addWidget(bar)
    bar.show_decision(d)
    texts = [b.text() for b in bar.buttons]
    assert len(texts) == 2 and any("Libya" in t for t in texts) and any("StG" in t for t in texts), texts
    assert "15.4" in bar.rule.text()
    line = describe("crete_raid_victim", {"unit": "IT-Libya"}, AXIS)
    assert "Libya" in line and "damage check" in line and "15.4 d" in line
