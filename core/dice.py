"""The engine's dice (2.0: two six-sided dice).

Every roll is a pure function of the game's seed and the number of dice drawn
so far, so a replay of the action log reproduces every roll exactly, in any
process, on any machine.  Tests may substitute :class:`ScriptedDice` to
reproduce the rules' worked examples die for die.
"""

from __future__ import annotations

import hashlib
import random
from collections import deque
from typing import Iterable, Protocol


class Dice(Protocol):
    def d6(self, seed: int, index: int) -> int: ...


class SeededDice:
    """d6 number ``index`` of game ``seed``: sha256-based, unbiased (rejection sampling)."""

    def d6(self, seed: int, index: int) -> int:
        counter = 0
        while True:
            digest = hashlib.sha256(f"dfd:{seed}:{index}:{counter}".encode()).digest()
            for byte in digest:
                if byte < 252:  # 252 = 42 * 6, so every face is equally likely
                    return byte % 6 + 1
            counter += 1


class ScriptedDice:
    """Dice that return a given sequence (for tests of the rules' worked examples)."""

    def __init__(self, rolls: Iterable[int], fallback: Dice | None = None):
        self._rolls = deque(int(r) for r in rolls)
        self._fallback = fallback

    def d6(self, seed: int, index: int) -> int:
        if self._rolls:
            r = self._rolls.popleft()
            if not 1 <= r <= 6:
                raise ValueError(f"scripted die {r} is not 1-6")
            return r
        if self._fallback is None:
            raise RuntimeError("the scripted dice have run out")
        return self._fallback.d6(seed, index)

    def push(self, *rolls: int) -> None:
        self._rolls.extend(rolls)


class SampledDice:
    """Dice drawn from a caller's own RNG (issue 21): an engine forked for a look-ahead
    (:meth:`core.engine.Engine.fork`) rolls with these, so a search samples outcomes and never sees the game's real
    future dice (which are a pure function of the seed and the roll's index, :class:`SeededDice`).  The seed and
    index are ignored: the ``rng`` alone decides, so the same ``rng`` state gives the same rolls."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def d6(self, seed: int, index: int) -> int:
        return self.rng.randint(1, 6)
