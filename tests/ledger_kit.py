"""Pass-only games with their ledger (core.ledger), played through ``Engine.apply`` only (issue 17)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from core.ledger import Ledger
from tests.playpath import Play, pass_action


class LedgerPlay(Play):
    """A :class:`tests.playpath.Play` that keeps the game's ledger as it goes."""

    def __init__(self, scenario: str, seed: int = 1):
        super().__init__(scenario, seed)
        self.ledger = Ledger(self.state)

    def step(self) -> None:
        entry = self.eng.apply(pass_action(self._decision()))
        self.ledger.observe(self.state, entry.events)

    def until_gt(self, gt: int, limit: int = 50000) -> "LedgerPlay":
        """Pass until GT ``gt`` has been played through (or the scenario ends)."""
        for _ in range(limit):
            if self.eng.pending() is None or self.state.gt > gt:
                return self
            self.step()
        raise AssertionError(f"GT {gt} not reached in {limit} decisions")

    def to_end(self) -> "LedgerPlay":
        return self.until_gt(10_000)

    def doc(self) -> dict[str, Any]:
        return self.ledger.document(self.state.result)

    def turn(self, gt: int) -> dict[str, Any]:
        return next(t for t in self.doc()["turns"] if t["gt"] == gt)


@lru_cache(maxsize=None)
def pass_only(scenario: str) -> LedgerPlay:
    """The whole pass-only game of a scenario (cached: several tests read the same game)."""
    return LedgerPlay(scenario).to_end()


def support(turn: dict, source_prefix: str, kind: str | None = None) -> int:
    """Items received (or held back by the counter mix, 2.4) this GT from sources starting with the prefix."""
    got = sum(s["count"] for s in turn["support"] if s["source"].startswith(source_prefix)
              and (kind is None or s["kind"] == kind))
    return got + held(turn, source_prefix, kind)


def held(turn: dict, source_prefix: str, kind: str | None = None) -> int:
    suffix = {"MSU": "-MSU", "dump": "-Dump", "RP": "-RP"}.get(kind or "", "")
    return sum(h["count"] for h in turn["held_back"] if h["source"].startswith(source_prefix)
               and h["what"].endswith(suffix) and h["since"] == turn["gt"])
