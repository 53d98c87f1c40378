"""The players' harness (issue 21): ``core.players`` (make_player, Table), ``Engine.fork`` and
``core.dice.SampledDice`` - the look-ahead's copy of the game that never sees the real future dice."""

from __future__ import annotations

import random

import pytest

from core.bots import PassBot, RandomBot
from core.decisions import ALLIED, AXIS, EITHER, Action, Decision, Option
from core.dice import SampledDice, SeededDice
from core.engine import Engine
from core.newgame import initial_state
from core import computer as computer_mod
from core.players import AI_SETTINGS, PLAYER_KINDS, Player, Table, answering_side, make_player, view_for
from core.scenario import load


def _engine(scenario: str = "sonnenblume", seed: int = 1) -> Engine:
    return Engine(initial_state(load(scenario), seed))


def _advance(eng: Engine, bot: RandomBot, n: int) -> None:
    for _ in range(n):
        d = eng.pending()
        if d is None:
            return
        eng.apply(bot.choose(d, eng))


def _first_roll(eng: Engine, bot: RandomBot, most: int = 3000) -> Action:
    """Play on until the next action of ``bot`` rolls dice (found on a fork, so ``eng`` stays before it)."""
    for _ in range(most):
        d = eng.pending()
        assert d is not None, "the game ended before any roll"
        action = bot.choose(d, eng)
        probe = eng.fork(SeededDice())
        if probe.apply(action).rolls:
            return action
        eng.apply(action)
    raise AssertionError(f"no roll in {most} decisions")


def test_fork_is_a_copy_and_leaves_the_original_untouched():
    eng = _engine()
    _advance(eng, RandomBot(1), 40)
    before, log = eng.hash(), len(eng.log)
    fork = eng.fork(SampledDice(random.Random(7)))
    assert fork.hash() == before
    assert fork.pending() == eng.pending()
    assert fork.log == [] and not fork.can_undo(AXIS) and not fork.can_undo(ALLIED)
    _advance(fork, RandomBot(2), 60)
    assert fork.hash() != before
    assert eng.hash() == before and len(eng.log) == log
    # the original still plays on from where it was
    _advance(eng, RandomBot(3), 5)
    assert len(eng.log) == log + 5


def test_fork_with_the_real_dice_reproduces_the_original_apply():
    eng = _engine("trail-of-the-fox", 2)
    bot = RandomBot(2)
    action = _first_roll(eng, bot)
    same = eng.fork(SeededDice()).apply(action)
    real = eng.apply(action)
    assert real.rolls and same.rolls == real.rolls
    assert same.hash == real.hash


def test_sampled_dice_are_not_the_real_dice():
    eng = _engine("trail-of-the-fox", 2)
    bot = RandomBot(2)
    action = _first_roll(eng, bot)
    seen = {tuple(eng.fork(SampledDice(random.Random(k))).apply(action).rolls) for k in range(12)}
    real = tuple(eng.fork(SeededDice()).apply(action).rolls)
    assert len(seen) > 1 and seen != {real}
    # the same RNG state gives the same rolls (a search is deterministic for its seed)
    again = eng.fork(SampledDice(random.Random(5))).apply(action)
    assert again.rolls == eng.fork(SampledDice(random.Random(5))).apply(action).rolls


def test_sampled_dice_draw_from_the_given_rng_only():
    a, b = SampledDice(random.Random(3)), SampledDice(random.Random(3))
    rolls = [a.d6(1, i) for i in range(50)]
    assert rolls == [b.d6(99, 1000 + i) for i in range(50)]      # seed and index are ignored
    assert set(rolls) == {1, 2, 3, 4, 5, 6}


def test_make_player_kinds_and_refusals():
    assert PLAYER_KINDS == ("ai", "greedy", "random", "pass")
    assert AI_SETTINGS == ("quick", "thoughtful")
    p = make_player("random", AXIS, 4)
    assert isinstance(p, RandomBot) and isinstance(p, Player) and p.side == AXIS and p.plan == ""
    assert isinstance(make_player("pass", ALLIED, 4), PassBot)
    with pytest.raises(ValueError, match="no player kind"):
        make_player("smart", AXIS, 1)
    with pytest.raises(ValueError, match="no AI setting"):
        make_player("random", AXIS, 1, setting="deep")
    with pytest.raises(ValueError, match="not a side"):
        make_player("random", "either", 1)


def test_random_bot_per_side_streams_and_old_single_stream():
    d = Decision(side=AXIS, kind="x", prompt="", rule="0",
                 options=tuple(Option(action=Action(kind="k", side=AXIS, args={"i": i}), label="") for i in range(50)))
    picks = lambda bot: [bot.choose(d).args["i"] for _ in range(20)]  # noqa: E731 - old call form (no engine)
    assert picks(RandomBot(1)) == picks(RandomBot(1))
    assert picks(RandomBot(1, AXIS)) != picks(RandomBot(1, ALLIED))
    assert picks(RandomBot(1, None)) == picks(RandomBot(1))


def test_either_decision_goes_to_axis_first_showing_only_its_options():
    opts = tuple(Option(action=Action(kind="done", side=s), label=f"{s}: done") for s in (AXIS, ALLIED))
    d = Decision(side=EITHER, kind="step", prompt="p", rule="4.1 III.1", options=opts)
    axis, allied = RandomBot(1, AXIS), RandomBot(1, ALLIED)
    table = Table.of(axis, allied)
    side, player, shown = table.who(d)
    assert (side, player) == (AXIS, axis)
    assert shown.side == AXIS and [o.action.side for o in shown.options] == [AXIS]
    assert view_for(d, ALLIED).options == (opts[1],)
    only_allied = Decision(side=ALLIED, kind="step", prompt="p", rule="4.1 III.1", options=opts[1:])
    assert table.who(only_allied)[:2] == (ALLIED, allied)
    # one player for both sides sees the whole decision (dfd autoplay --bot)
    both = RandomBot(1)
    assert Table.of(both, both).who(d)[2] is d


def test_one_definition_of_who_answers_an_either_decision():
    """core.players.answering_side decides for the table (autoplay), the app's and the LAN seat's computer."""
    opts = tuple(Option(action=Action(kind="done", side=s), label=f"{s}: done") for s in (AXIS, ALLIED))
    d = Decision(side=EITHER, kind="step", prompt="p", rule="4.1 III.1", options=opts)
    assert computer_mod.answering_side is answering_side
    assert answering_side(d, (AXIS, ALLIED)) == AXIS == Table.of(RandomBot(1, AXIS), RandomBot(1, ALLIED)).who(d)[0]
    assert answering_side(d, {ALLIED: "quick"}) == ALLIED      # a computer Allied side answers its own options
    assert answering_side(Decision(side=EITHER, kind="step", prompt="p", rule="4.1 III.1", options=opts[:1]),
                          {ALLIED: "quick"}) is None
    assert answering_side(Decision(side=AXIS, kind="x", prompt="p", rule="0", options=opts[:1]), {ALLIED: "quick"}) is None
    assert answering_side(None, (AXIS, ALLIED)) is None


def test_table_answers_each_side_with_its_own_player():
    eng = _engine("fox-killed", 3)
    seen: dict[str, set[str]] = {AXIS: set(), ALLIED: set()}

    class Spy(RandomBot):
        def choose(self, decision, engine=None):
            assert decision.side == self.side, f"{self.side} player shown a {decision.side} decision"
            assert all(o.action.side == self.side for o in decision.options)
            seen[self.side].add(decision.kind)
            return super().choose(decision, engine)

    table = Table.of(Spy(3, AXIS), Spy(3, ALLIED))
    n = table.play(eng, 400)
    assert n == 400 and seen[AXIS] and seen[ALLIED]
    assert sum(table.decisions.values()) == 400


def test_table_needs_both_sides():
    with pytest.raises(ValueError, match="missing: Allied"):
        Table({AXIS: PassBot()})
