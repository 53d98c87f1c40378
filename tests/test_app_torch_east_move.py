"""R-TORCH-EAST in the app: the 20.2.5 moves from the Torch Box to the Torch East Box show in the prompt bar as the off-map
moves decision's buttons (one per unit, like the MET and Fall Braun moves), and read in the game log (pytest-qt,
offscreen).  The play path: tests/test_rules_20_2_5_torch_east_move_play.py."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

pytest.importorskip("pytestqt")

from core.decisions import ALLIED  # noqa: E402
from core.rules import offmap  # noqa: E402

pytestmark = pytest.mark.gui


def test_20_2_5_torch_east_move_buttons_and_log_line(qtbot):
    from app.logtext import describe
    from app.panels import PromptBar
    from tests.playpath import Play
    from tests.test_rules_20_2_5_torch_east_move_play import play_alc23

    p = Play("tunisian-campaign")
    d = p.to("offmap_moves", side=ALLIED, script={"events": play_alc23})
    bar = PromptBar()
    qtbot.addWidget(bar)
    bar.show_decision(d)
    texts = [b.text() for b in bar.buttons]
    assert any(t.startswith("11 Bde to Torch East Box") and "20.2.5" in t for t in texts), texts
    assert not any("242" in t for t in texts)              # an air unit does not land, so does not move (R-TORCH-EAST)
    assert "Torch East" in bar.prompt.text()
    assert "20.2.5" in bar.rule.text()
    line = describe("offmap_move", {"unit": "UK-11Bde", "to": offmap.TORCH_EAST}, ALLIED)
    assert line == "moves 11 Bde to the Torch East box", line
