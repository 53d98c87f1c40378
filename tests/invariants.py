"""State invariants checked after every action by the autoplay tests and ``scripts/fuzz_autoplay.py`` (issue 16).

``check(state, before)`` raises ``AssertionError`` naming the rule when the state breaks one of them:

* counter conservation: every counter is on the map (a hex on the grid, not all-sea), in a box, on a card or
  track, at a map edge, or removed by a rule that says so (2.4, 13.8);
* counter-mix limits (2.4): no more copies of a counter than the mix holds; a combat unit exists once;
* the end-scenario marker moves only by a rule that moves it (4.0);
* stacking at phase ends (10.2, 10.3): once a phase has ended, every combat unit in an overstacked hex is
  disrupted (checked when ``before.phase_key`` differs from the state's: the action crossed a phase end).

``before = Before.of(state)`` is taken before the action.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.counters import all_counters
from core.hexgrid import Hex, HexLabelError
from core.rules import offmap, stacking, tec
from core.rules.status import hex_of, is_combat
from core.state import GameState

#: prefixes of the off-map locations a counter may be in (boxes, cards, tracks, set-up, map edges)
OFF_MAP = ("box:", "card:", "track:", "setup", "edge:")


@dataclass(frozen=True)
class Before:
    end_gt: int
    es_moves: int
    phase_key: tuple[int, int]

    @classmethod
    def of(cls, st: GameState) -> "Before":
        return cls(st.end_gt, len(st.es_history), (st.gt, st.phase))


def check(st: GameState, before: Before | None = None) -> None:
    gm = tec.map_for(st)
    for u in st.units.values():
        if u.loc == offmap.REMOVED:
            assert u.flags.get("removed_by"), f"{u.id} removed without a rule"
        elif not u.loc.startswith(OFF_MAP):
            try:
                h = Hex.parse(u.loc)
            except HexLabelError:
                raise AssertionError(f"{u.id} is nowhere: {u.loc!r}") from None
            assert gm.on_grid(h), f"{u.id} is in {u.loc}, not a land hex of the map (2.2, 13.3)"
    counts: dict[str, int] = {}
    for u in st.units.values():
        if u.loc != offmap.REMOVED:
            b = offmap.base_id(u.id)
            counts[b] = counts.get(b, 0) + 1
    counters = all_counters()
    for b, n in counts.items():
        c = counters.get(b)
        if c and c.mix:
            assert n <= c.mix, f"counter mix of {b} exceeded: {n} > {c.mix} (2.4)"
        elif c and c.kind == "combat":
            assert n == 1, f"{b} is in play {n} times (2.4)"
    if before is None:
        return
    if st.end_gt != before.end_gt:
        new = st.es_history[before.es_moves:]
        assert new and all(h.get("rule") for h in new), "the end scenario marker moved without a rule (4.0)"
    if (st.gt, st.phase) != before.phase_key and st.result is None:
        for lab, (p, lim) in stacking.overstacked(st, gm).items():
            fresh = [u.id for u in st.units_at(lab) if is_combat(u) and not u.disrupted and hex_of(u) is not None]
            assert not fresh, f"{lab} holds {p} stacking points over its limit {lim} after a phase end, yet " \
                              f"{', '.join(fresh)} are not disrupted (10.3)"
