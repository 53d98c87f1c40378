"""Creating a game: scenario + seed -> the initial state (3.0, 3.1, 4.0)."""

from __future__ import annotations

from typing import Iterable

import msgspec

from core.counters import all_counters, resolve
from core.hexgrid import Hex, HexLabelError
from core.scenario import OPTIONAL_RULES, Scenario, ScenarioError, oasis_box_unused
from core.state import Frame, GameState, UnitState

#: Generic counters (supply units, markers) may be placed many times; combat, air and fleet units once.
GENERIC_KINDS = frozenset({"supply", "marker"})


def _location(sc: Scenario, where: str, field: str) -> str:
    if where.startswith(("box:", "card:", "track:")):
        return where
    try:
        return Hex.parse(where).label
    except HexLabelError as exc:
        raise ScenarioError(f"{sc.path}: {field}: {exc}") from None


def _training_box(loc: str) -> int:
    """``track:Training:<Side>:<n>`` -> n (8.5.1), else 0."""
    parts = loc.split(":")
    if len(parts) == 4 and parts[0] == "track" and parts[1] == "Training" and parts[3].isdigit():
        return int(parts[3])
    return 0


def _hex_or_box(sc: Scenario, where: str, field: str) -> None:
    if where and not where.startswith(("box:", "card:", "track:", "edge:")):
        _location(sc, where, field)


def check_references(sc: Scenario) -> None:
    """Every unit and hex named outside the set-up exists (reinforcements, withdrawals, victory, map changes)."""
    for i, r in enumerate(sc.reinforcements):
        for u in r.units:
            if resolve(u) is None:
                raise ScenarioError(f"{sc.path}: reinforcements[{i}].units: no counter {u!r} in resources/counters/")
        _hex_or_box(sc, r.at, f"reinforcements[{i}].at")
    for i, w in enumerate(sc.withdrawals):
        for u in w.units:
            if resolve(u) is None:
                raise ScenarioError(f"{sc.path}: withdrawals[{i}].units: no counter {u!r} in resources/counters/")

    def victory(v, field: str) -> None:
        for h in v.hexes:
            _location(sc, h, f"{field}.hexes")
        for name in ("loc_to", "from_hex", "to_hex"):
            if getattr(v, name):
                _hex_or_box(sc, getattr(v, name), f"{field}.{name}")
        for j, sub in enumerate(v.all_of):
            victory(sub, f"{field}.all_of[{j}]")
    for i, v in enumerate(sc.victory):
        victory(v, f"victory[{i}]")
    for i, m in enumerate(sc.map_mods):
        for h in m.hexes + ([m.marker_at] if m.marker_at else []):
            _location(sc, h, f"map_mods[{i}]")


def initial_state(sc: Scenario, seed: int, optional: Iterable[str] = ()) -> GameState:
    """The state before the first decision: fixed set-up placed, ranged set-up pending (3.1).

    ``optional`` names the optional rules the players chose (``core.scenario.OPTIONAL_RULES``, e.g.
    ``"desert_raiders"`` for 16.0); each must be one the scenario allows (:meth:`Scenario.optional_rules`)."""
    check_references(sc)
    chosen = sorted(set(optional))
    for key in chosen:
        if key not in OPTIONAL_RULES:
            raise ScenarioError(f"no optional rule {key!r} (the optional rules: {', '.join(OPTIONAL_RULES)})")
        if key not in sc.optional_rules():
            rule = OPTIONAL_RULES[key][0]
            raise ScenarioError(f"{sc.title} ({sc.section}) does not use the optional rule {rule} ({key})")
    counters = all_counters()
    units: dict[str, UnitState] = {}
    pending: list[dict] = []
    used: dict[str, int] = {}
    for i, p in enumerate(sc.setup):
        field = f"setup[{i}] (unit {p.unit!r})"
        cid = resolve(p.unit)
        if cid is None:
            raise ScenarioError(f"{sc.path}: {field}: no such counter in resources/counters/")
        c = counters[cid]
        generic = c.kind in GENERIC_KINDS
        if p.count != 1 and not generic:
            raise ScenarioError(f"{sc.path}: {field}: `count` is only for supply units and markers; {cid} is one counter")
        side = p.owner or c.side
        if side not in ("Axis", "Allied"):
            raise ScenarioError(f"{sc.path}: {field}: {cid} is used by both sides; give `owner` (Axis or Allied)")
        for _ in range(p.count):
            n = used.get(cid, 0)
            used[cid] = n + 1
            if n and not generic:
                raise ScenarioError(f"{sc.path}: {field}: counter {cid} is placed twice")
            uid = cid if not generic else f"{cid}#{n + 1}"
            if c.mix and used[cid] > c.mix:
                raise ScenarioError(f"{sc.path}: {field}: more than {c.mix} {cid} counters in play "
                                    f"(2.4: the counter mix is a limit for bases, MSU and dumps)")
            steps = 1 if p.depleted else c.steps
            if p.depleted and c.steps != 2:
                raise ScenarioError(f"{sc.path}: {field}: `depleted` needs a two-step unit (8.3); {cid} has one step")
            flags: dict = {}
            if p.level is not None:
                flags["fort_level"] = p.level
            if p.primary:
                flags["primary_base"] = True
            if p.within is not None:
                centre = _location(sc, p.of or "", field)
                units[uid] = UnitState(id=uid, side=side, loc="setup", steps=steps, active=p.active, flags=flags)
                pending.append({"unit": uid, "name": c.name, "side": side, "of": centre,
                                "within": p.within, "rule": p.rule or sc.section})
            else:
                loc = _location(sc, p.at or "", field)
                if oasis_box_unused(loc, chosen):
                    used[cid] -= 1      # 16.0 not chosen: the Oasis Track is not in the game (R-OASIS-OFF)
                    continue
                units[uid] = UnitState(id=uid, side=side, loc=loc, steps=steps, active=p.active,
                                       training_box=_training_box(loc), flags=flags)
    first = sc.first_player or sc.initiative  # R-FIRST-PLAYER
    extra: dict = {}
    if sc.control:
        extra["control_rules"] = msgspec.to_builtins(sc.control)
    if sc.map_mods:
        extra["map_mods"] = msgspec.to_builtins(sc.map_mods)
    st = GameState(
        scenario=sc.id, seed=seed, gt=sc.start_gt, phase=sc.start_phase, step=1,
        initiative=sc.initiative, first_player=first, surprise=sc.surprise,
        end_gt=sc.end_gt, units=units, stack=[Frame(proc="turn")],
        vars={"maps": list(sc.maps)} | extra | ({"setup_pending": pending} if pending else {})
        | ({"optional": {k: True for k in chosen}} if chosen else {}),
    )
    if sc.surprise and first != sc.initiative:
        raise ScenarioError(f"{sc.path}: surprise needs the initiative player ({sc.initiative}) to be 1st player (6.2)")
    if pending:
        st.stack.append(Frame(proc="setup"))
    st.stack.append(Frame(proc="game_start"))  # runs first: 3.0 active events, before any set-up decision
    return st
