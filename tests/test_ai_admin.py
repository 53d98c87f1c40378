"""The admin AI (core.ai.admin, issue 21): every decision that is not a ground move or combat choice.

Play-path tests: real scenario set-ups driven only by ``Engine.apply``.  The admin AI answers its kinds for the
side(s) it plays; the ground decisions of that side are passed (``done``), except the Movement-Phase moves the
admin AI asks for itself (:func:`core.ai.admin.movement_first`, the 7.4 withdrawals).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from core.ai import admin
from core.bots import PassBot, RandomBot
from core.decisions import ALLIED, AXIS, EITHER, Action, Decision
from core.engine import Engine
from core.hexgrid import Hex
from core.newgame import initial_state
from core.players import view_for
from core.rules.victory_rules import withdrawal_failures
from core.scenario import load


class AdminOnly:
    """The admin AI for one side; its ground decisions are passed (no ground play)."""

    name = "admin-only"

    def __init__(self, side: str, seed: int):
        self.side = side
        self.rng = random.Random(f"ai:{side}:{seed}")
        self.setting = "quick"
        self.plan = ""
        self.answered: Counter[str] = Counter()
        self.plans: list[str] = []

    def choose(self, d: Decision, eng: Engine) -> Action:
        if d.kind in admin.KINDS:
            a = admin.choose(self, d, eng)
            self.answered[f"{d.kind}:{a.kind}"] += 1
            self.plans.append(self.plan)
            assert self.plan.startswith(f"{self.side}: "), self.plan
            return a
        if d.kind == "movement":
            a = admin.movement_first(self, d, eng)
            if a is not None:
                self.answered[f"movement_first:{a.kind}"] += 1
                self.plans.append(self.plan)
                return a
        return PassBot().choose(d)


def play(scenario: str, seed: int, players: dict, limit: int = 20000) -> Engine:
    """Each side's player answers (an ``either`` decision goes to the Axis first, as core.players.Table does)."""
    eng = Engine(initial_state(load(scenario), seed))
    for _ in range(limit):
        d = eng.pending()
        if d is None:
            break
        side = d.side if d.side != EITHER else (AXIS if any(o.action.side == AXIS for o in d.options) else ALLIED)
        p = players[side]
        shown = view_for(d, side)
        eng.apply(p.choose(shown, eng) if isinstance(p, AdminOnly) else p.choose(shown))
    return eng


@pytest.mark.parametrize("scenario", ["fox-killed", "oconnors-war"])
@pytest.mark.parametrize("axis", ["pass", "random"])
def test_allied_withdrawals_are_made_7_4_24_2_25_2(scenario, axis):
    """24.2 a / 25.2 a: a unit not withdrawn by the end of its GT is an instant Axis victory.  With the admin AI as
    the Allies the Indian units set up near the NRV, leave the map in the GT before theirs (rail or road to an NRV
    entry, 13.7 / 22.1 e) and are withdrawn in III.1 of GT 8; the GT 9 units are kept off the map."""
    allied = AdminOnly(ALLIED, 1)
    eng = play(scenario, 1, {AXIS: PassBot() if axis == "pass" else RandomBot(1), ALLIED: allied})
    res = eng.state.result
    assert res is not None and "withdrawals not made" not in res["text"], res
    assert res["gt"] >= 9
    assert not withdrawal_failures(eng, final=True)
    for w in eng.state.vars["withdrawals"]:
        for uid in w["units"]:
            u = eng.state.units[uid]
            assert u.loc == "removed" and u.flags.get("withdrawn"), (uid, u.loc)
    assert allied.answered["withdraw:withdraw"] == 10
    assert allied.answered["movement_first:rail"] + allied.answered["movement_first:move"] >= 4
    assert any("due for withdrawal" in p for p in allied.plans)


def test_axis_refuses_direct_withdrawal_7_4_important():
    """7.4 Important: the Axis AI does not let the Allied withdrawals leave without marching off the map."""
    axis = AdminOnly(AXIS, 1)
    eng = play("fox-killed", 1, {AXIS: axis, ALLIED: PassBot()})
    assert axis.answered["allow_withdrawal:allow_withdrawal"] == 1
    assert eng.state.vars.get("axis_allows_withdrawal_gt") is None
    assert "withdrawals not made" in eng.state.result["text"]       # the passing Allies lose at GT 8


@pytest.mark.parametrize("scenario,limit", [("sonnenblume", 3000), ("desert-fox", 700)])
def test_every_admin_answer_is_legal(scenario, limit):
    """Both sides answered by the admin AI (ground play random): every answer is applied by Engine.apply (a
    refusal raises IllegalAction and fails the test)."""
    ax, al = AdminOnly(AXIS, 2), AdminOnly(ALLIED, 2)
    rnd = {AXIS: RandomBot(2), ALLIED: RandomBot(3)}

    eng = Engine(initial_state(load(scenario), 2))
    for _ in range(limit):
        d = eng.pending()
        if d is None:
            break
        side = d.side if d.side != EITHER else (AXIS if any(o.action.side == AXIS for o in d.options) else ALLIED)
        shown = view_for(d, side)
        p = ax if side == AXIS else al
        a = p.choose(shown, eng) if (d.kind in admin.KINDS or d.kind == "movement") else None
        if a is None or (d.kind == "movement" and a.kind == "done"):
            a = rnd[side].choose(shown)
        eng.apply(a)
    kinds = {k.split(":")[0] for k in ax.answered + al.answered}
    assert {"setup_place", "refit", "events", "reinforce", "step", "choose_first_player", "air_deploy"} <= kinds
    if scenario == "desert-fox":
        assert {"ocean_shipping", "port_placement", "card_choice", "offmap_moves"} <= kinds
        assert (ax.answered + al.answered)["refit:refit_box"] >= 1


def test_same_seed_same_game():
    """Determinism: the same seed gives the same actions, plans and final hash."""
    def run():
        allied = AdminOnly(ALLIED, 5)
        eng = play("fox-killed", 5, {AXIS: RandomBot(5), ALLIED: allied})
        return eng.hash(), allied.plans

    assert run() == run()


def test_kinds_leave_ground_play_alone():
    """The admin AI answers no ground-movement or ground-combat decision kind (those are the ground AI's); of the
    combat decisions only the air and naval ones (19.5 support, 19.9.1 strikes on a supporting fleet)."""
    ground = {k for k in admin.KINDS if k.startswith("combat") or k in ("movement", "reaction", "overrun_reaction")}
    assert ground == {"combat_support", "combat_fleet_strike"}


@pytest.mark.parametrize("scenario", ["fox-killed", "oconnors-war"])
def test_ai_player_as_allies_makes_the_withdrawals(scenario):
    """Issue 21 with the whole computer opponent (core.ai.AIPlayer) as the Allies against the random bot: no
    'withdrawals not made' instant loss (24.2 a / 25.2 a); the reinforcements waiting in the NRV come up to the
    map (7.0, 22.1); MSU move up (12.4.1); in Fox Killed the railroad grows from Mersa Matruh (18.2)."""
    from core.players import Table, make_player

    eng = Engine(initial_state(load(scenario), 1))
    allied = make_player("ai", ALLIED, 1)
    Table.of(make_player("random", AXIS, 1), allied).play(eng)
    res = eng.state.result
    assert res is not None and "withdrawals not made" not in res["text"], res
    assert not withdrawal_failures(eng, final=True)
    entered = [e for e in eng.log if e.action.side == ALLIED and (e.action.args.get("enter") == "box:NRV"
                                                                   or (e.action.kind == "rail"
                                                                       and "NRV" not in e.action.args["to"]))]
    assert entered
    assert any("comes up from the NRV" in p for p in allied.plans)
    # 12.4.1 the supply train follows the front; 18.2 the railroad is extended by the MSU kept on the railhead
    msu_moves = [e for e in eng.log if e.action.side == ALLIED and e.action.kind == "move"
                 and any(u.startswith("AL-MSU") for u in e.action.args.get("units", []))]
    assert msu_moves
    if scenario == "fox-killed":
        built = [e for e in eng.log if e.action.kind == "build_rail"]
        assert built and eng.state.vars["railhead"] != "W2118"
        assert any("Egyptian railroad is extended" in p for p in allied.plans)


def test_bases_where_the_victory_conditions_count_them_30_3():
    """30.3: the Axis wins with a base on the map with a LOC to L2909.  The admin AI (ground play passed) drives
    an MSU with a dump next to L2909 and makes a base there (12.2.3), so that more than the primary base counts."""
    axis = AdminOnly(AXIS, 1)
    eng = play("trail-of-the-fox", 1, {AXIS: axis, ALLIED: PassBot()})
    made = [e for e in eng.log if e.action.kind == "create_base" and e.action.side == AXIS]
    assert made
    goal = Hex.parse("L2909")
    assert any(Hex.parse(e.action.args["hex"]).distance(goal) <= 2 for e in made)
    assert eng.state.result["winner"] == AXIS
