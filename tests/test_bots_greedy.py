"""The greedy baseline of issue 21 (``core.bots.GreedyBot``: best-odds attack, else move toward the nearest
objective) and the side-relative victory scale (``core.victory.victory_scale``), from real scenario set-ups."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from core.bots import GREEDY_MIN_ODDS, GreedyBot, PassBot, objective_hexes, pass_choice
from core.decisions import ALLIED, AXIS, Action, Decision, Option
from core.engine import Engine
from core.hexgrid import Hex
from core.newgame import initial_state
from core.players import Table, make_player
from core.rules.victory_rules import controller
from core.scenario import load
from core.victory import NO_WINNER_LEVELS, WIN_LEVELS, victory_scale

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def _engine(scenario: str, seed: int = 1) -> Engine:
    return Engine(initial_state(load(scenario), seed))


def test_objectives_come_from_the_scenarios_victory_data():
    eng = _engine("sonnenblume")
    axis = objective_hexes(eng, AXIS)
    assert "C2331" in axis                     # 26.3: Tobruk
    assert "C0701" not in axis                 # the loc_to of 26.3 is where the LOC runs to, not a goal
    assert set(axis) <= set(objective_hexes(eng, ALLIED))
    trail = _engine("trail-of-the-fox")
    assert objective_hexes(trail, AXIS) == ["L2909"]          # 30.3: an Axis base with an LOC to L2909
    assert objective_hexes(trail, ALLIED) == ["L2909"]        # "otherwise": deny the Axis its objective
    road = objective_hexes(_engine("desert-fox"), AXIS)       # 27.3: the primary road C0701-W2134, and the ports
    assert {"C0701", "W2134"} <= set(road)
    assert objective_hexes(_engine("run-for-tunis"), AXIS) == ["T6017"]   # 29.3: Tunis


def _ratio(eng: Engine, action) -> float:
    odds = eng.query("odds", attackers=list(action.args["attackers"]), hex=action.args["hexes"][0],
                     form=action.args["form"])
    return float(odds["attack"]) / float(odds["defence"])


def test_greedy_declares_the_best_odds_attack_worth_taking_and_moves_toward_an_objective():
    """Fox Killed, the Allies greedy against a passing Axis: every declaration is the best-odds one offered and at
    least 2:1 (else "done"); every move ends nearer the unit's nearest uncontrolled objective (24.3)."""
    eng = _engine("fox-killed")
    greedy = GreedyBot(1, ALLIED)
    table = Table.of(PassBot(1, AXIS), greedy)
    declared = done_with_offers = moves = 0
    goals = objective_hexes(eng, ALLIED)
    for _ in range(160):
        d = eng.pending()
        side, action = table.choose(eng)
        if side == ALLIED and d.kind == "combat_declare":
            offers = [o.action for o in d.options if o.action.kind == "declare" and len(o.action.args["hexes"]) == 1
                      and not o.action.args.get("recon")]
            best = max((_ratio(eng, a) for a in offers), default=0.0)
            if action.kind == "declare":
                declared += 1
                assert _ratio(eng, action) == best >= GREEDY_MIN_ODDS
            else:
                assert action.kind == "done" and best < GREEDY_MIN_ODDS
                done_with_offers += bool(offers)
        if side == ALLIED and d.kind == "movement" and action.kind == "move":
            moves += 1
            uid = action.args["units"][0]
            here = Hex.parse(eng.state.units[uid].loc)
            targets = [Hex.parse(h) for h in goals if controller(eng, h) != ALLIED] or [Hex.parse(h) for h in goals]
            near = min(targets, key=lambda g: (here.distance(g), g.label))
            assert Hex.parse(action.args["path"][-1]).distance(near) < here.distance(near)
        eng.apply(action)
    assert moves and (declared or done_with_offers)


def test_greedy_answers_other_decisions_as_the_pass_bot():
    eng = _engine("sonnenblume")
    bot = GreedyBot(1, eng.pending().side)
    d = eng.pending()
    assert d.kind not in ("movement", "combat_declare")
    assert bot.choose(d, eng) == pass_choice(d) == PassBot().choose(d)


def test_pass_choice_prefers_done_and_never_declares_and_cancels_for_ever():
    """14.2: a declared attack can leave a declaration still required, and the Combat Phase then offers no "done";
    when nothing else is left the last combat is cancelled and its hexes abandoned for the phase (the greedy bot
    declared and cancelled for ever in Trail of the Fox, seed 1; the pass bot in Desert Fox, seed 1)."""
    combats = [{"attackers": ["A"], "hexes": ["S0333"]}, {"attackers": ["B"], "hexes": ["S0334"]}]

    def dec(*acts):
        return Decision(side=AXIS, kind="combat_declare", prompt="", rule="14.0; 14.2", context={"combats": combats},
                        options=tuple(Option(action=Action(kind=k, side=AXIS, args=a), label=k) for k, a in acts))

    cancel0, cancel1 = ("cancel", {"combat": 0}), ("cancel", {"combat": 1})
    again = ("declare", {"attackers": ["A"], "hexes": ["S0333"], "form": "regular"})
    assert pass_choice(dec(cancel0, ("done", {}))).kind == "done"
    assert pass_choice(dec(cancel0, again)) == Action(kind="declare", side=AXIS, args=again[1])
    abandoned: set[str] = set()
    assert pass_choice(dec(cancel0, cancel1), abandoned).args == {"combat": 1} and abandoned == {"S0334"}
    assert pass_choice(dec(cancel0, again), {"S0333"}).args == {"combat": 0}      # never the abandoned attack again


def test_bots_keep_abandoned_hexes_for_one_step_only():
    eng = _engine("fox-killed")
    bot = PassBot(1, AXIS)
    mine = bot.abandoned(eng)
    mine.add("C2331")
    assert bot.abandoned(eng) == {"C2331"}
    eng.apply(bot.choose(eng.pending(), eng))          # a set-up step: the next decision is another step
    while (eng.state.gt, eng.state.phase, eng.state.step) == bot._memory[0]:
        eng.apply(PassBot().choose(eng.pending()))
    assert bot.abandoned(eng) == set()


def test_same_seed_same_greedy_game():
    def play() -> str:
        eng = _engine("fox-killed", 4)
        Table.of(make_player("greedy", AXIS, 4), make_player("greedy", ALLIED, 4)).play(eng, 250)
        return eng.hash()

    assert play() == play()


# --------------------------------------------------------------------------- the victory scale


def test_victory_scale_orders_results_for_each_side():
    order = [{"winner": AXIS, "level": lv} for lv in reversed(WIN_LEVELS)] + [{"winner": None, "level": "draw"}] + [
        {"winner": ALLIED, "level": lv} for lv in WIN_LEVELS]
    allied = [victory_scale(r, ALLIED) for r in order]
    assert allied == sorted(allied) == list(range(-4, 5))
    assert [victory_scale(r, AXIS) for r in order] == [-x for x in allied]
    for lv in NO_WINNER_LEVELS:
        assert victory_scale({"winner": None, "level": lv}, AXIS) == 0
    with pytest.raises(ValueError, match="cannot be scored"):
        victory_scale({"winner": None, "level": "error"}, AXIS)
    with pytest.raises(ValueError, match="unknown victory level"):
        victory_scale({"winner": AXIS, "level": "glorious"}, AXIS)


def test_victory_scale_knows_every_level_of_the_ten_scenarios():
    """Every level a scenario's victory data or the evaluator can give (4.1 XIX instant; the ``win`` default of a
    condition without a level) has a place on the scale."""
    from core.rules.victory_rules import BUILTIN, LEVELS

    levels = {"instant", *LEVELS}
    for path in SCENARIOS.glob("*.toml"):
        for c in tomllib.loads(path.read_text(encoding="utf-8")).get("victory", []):
            levels.add(c.get("level") or "win")
    for conds in BUILTIN.values():
        levels.update(c.get("level") or "win" for c in conds)
    assert levels <= set(WIN_LEVELS) | set(NO_WINNER_LEVELS)
