"""The computer opponent's plan sentences name units, boxes and places as a player reads them (issue 21: "each
impulse it logs one or two sentences of plan"), in the app, over the LAN and in ``dfd autoplay``: the naming is
core's (core.names, no Qt), one definition the app's names (app.names) re-use."""

from __future__ import annotations

import re
import subprocess
import sys

from core.ai import AIPlayer
from core.counters import all_counters
from core.engine import Engine
from core.names import humanize, place, place_of, plan_text, unit_name
from core.newgame import initial_state
from core.scenario import load

#: an internal unit id (``GE-FFAfrika``, ``AX-Dump#3``) or a box/track/card key (``box:AirNA:Axis``)
_ID = re.compile(r"\b[A-Z]{2,3}-[A-Za-z0-9][A-Za-z0-9#]*|\b(?:box|track|card):\w")


def internal_ids(text: str) -> list[str]:
    return [m.group(0) for m in _ID.finditer(text)
            if ":" in m.group(0) or m.group(0).split("#")[0] in all_counters()]


def test_plan_text_names_units_boxes_and_named_hexes_and_ends_once():
    assert unit_name("GE-FFAfrika") == "FF Afrika" and unit_name("AX-Dump#3") == "Dump #3"
    assert place_of("C2331") == "Tobruk" and place("C2331") == "Tobruk" and place_of("C2315") is None
    s = plan_text("Axis: Axis: GE-FFAfrika to box:AirSuperiority:Axis and AX-Dump#1 to C2331 (19.1)")
    assert s == "Axis: FF Afrika to Axis Air Superiority and Dump #1 to Tobruk (19.1)"
    assert plan_text("Allied: holding Tobruk….") == "Allied: holding Tobruk…"
    assert plan_text("Allied: holding Tobruk..") == "Allied: holding Tobruk."
    assert plan_text("Axis: attacking C2315 at 3:1.") == "Axis: attacking C2315 at 3:1."     # an unnamed hex keeps its number
    assert plan_text("Axis: landing at Tobruk (C2331) (20.2)") == "Axis: landing at Tobruk (C2331) (20.2)"
    assert plan_text("Axis: playing AXC-4 Axis Appeal (5.0)") == "Axis: playing AXC-4 Axis Appeal (5.0)"   # a card's number is printed
    assert humanize("GE-Unknown stays") == "GE-Unknown stays"
    assert internal_ids("Axis: GE-FFAfrika to box:Air") == ["GE-FFAfrika", "box:A"]


def test_names_need_no_qt():
    code = "import sys, core.names, core.ai, core.computer; print('PySide6' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_app_names_are_core_names():
    import app.names
    import core.names

    assert app.names.humanize is core.names.humanize and app.names.unit_name is core.names.unit_name


def test_no_plan_sentence_of_a_short_ai_game_carries_an_internal_id_or_a_double_stop():
    """Fox Killed, the computer for both sides to the end (every action through Engine.apply)."""
    eng = Engine(initial_state(load("fox-killed"), 1))
    ais = {s: AIPlayer(s, 1, "quick") for s in ("Axis", "Allied")}
    while (d := eng.pending()) is not None:
        side = "Axis" if d.side == "either" else d.side
        eng.apply(ais[side].choose(d, eng))
    plans = [p for ai in ais.values() for p in ai.plans]
    assert len(plans) > 50 and eng.state.result is not None
    assert any("Dump #" in p or "El Agheila" in p or "Tobruk" in p for p in plans)     # the names are there
    bad = [p for p in plans if internal_ids(p) or ".." in p or "…." in p or re.match(r"(Axis|Allied): (Axis|Allied):", p)]
    assert bad == []

