"""Creating a game: scenario + seed -> the initial state (3.0, 3.1, 4.0)."""

from __future__ import annotations

from core.counters import all_counters
from core.hexgrid import Hex, HexLabelError
from core.scenario import Scenario, ScenarioError
from core.state import Frame, GameState, UnitState


def _location(sc: Scenario, where: str, field: str) -> str:
    if where.startswith(("box:", "card:", "track:")):
        return where
    try:
        return Hex.parse(where).label
    except HexLabelError as exc:
        raise ScenarioError(f"{sc.path}: {field}: {exc}") from None


def initial_state(sc: Scenario, seed: int) -> GameState:
    """The state before the first decision: fixed set-up placed, ranged set-up pending (3.1)."""
    counters = all_counters()
    units: dict[str, UnitState] = {}
    pending: list[dict] = []
    used: dict[str, int] = {}
    for i, p in enumerate(sc.setup):
        field = f"setup[{i}] (unit {p.unit!r})"
        c = counters.get(p.unit)
        if c is None:
            raise ScenarioError(f"{sc.path}: {field}: no such counter in resources/counters/")
        for _ in range(p.count):
            n = used.get(p.unit, 0)
            used[p.unit] = n + 1
            uid = p.unit if p.count == 1 and n == 0 else f"{p.unit}#{n + 1}"
            if uid in units:
                raise ScenarioError(f"{sc.path}: {field}: counter {uid} is placed twice")
            steps = 1 if p.depleted else c.steps
            if p.within is not None:
                if not p.of:
                    raise ScenarioError(f"{sc.path}: {field}: `within` needs `of` (the centre hex)")
                centre = _location(sc, p.of, field)
                units[uid] = UnitState(id=uid, side=c.side, loc="setup", steps=steps, active=p.active)
                pending.append({"unit": uid, "name": c.name, "side": c.side, "of": centre,
                                "within": p.within, "rule": p.rule or sc.section})
            else:
                if not p.at:
                    raise ScenarioError(f"{sc.path}: {field}: give `at` (a hex or box) or `within` + `of`")
                units[uid] = UnitState(id=uid, side=c.side, loc=_location(sc, p.at, field), steps=steps, active=p.active)
    first = sc.first_player or sc.initiative  # R-FIRST-PLAYER
    st = GameState(
        scenario=sc.id, seed=seed, gt=sc.start_gt, phase=sc.start_phase, step=1,
        initiative=sc.initiative, first_player=first, surprise=sc.surprise,
        end_gt=sc.end_gt, units=units, stack=[Frame(proc="turn")],
        vars={"maps": list(sc.maps)} | ({"setup_pending": pending} if pending else {}),
    )
    if sc.surprise and first != sc.initiative:
        raise ScenarioError(f"{sc.path}: surprise needs the initiative player ({sc.initiative}) to be 1st player (6.2)")
    if pending:
        st.stack.append(Frame(proc="setup"))
    return st
