"""Bots that drive the engine through the same API as every other client.

Each bot is a :class:`core.players.Player`: ``name``, ``side`` (the side it plays, or ``None`` for a bot that
answers every decision of both sides, as ``dfd autoplay --bot`` uses it), ``plan`` (always ``""``: bots do not
explain themselves) and ``choose(decision, engine=None)``.  ``engine`` is optional for the bots that only look at
the decision's options, so that older callers (``bot.choose(decision)``) keep working.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from core.decisions import Action, Decision
from core.hexgrid import Hex, HexLabelError

if TYPE_CHECKING:
    from core.engine import Engine


def _rng(seed: int, side: str | None) -> random.Random:
    """The bot's RNG: ``dfd-bot:{seed}`` for a bot playing both sides (the games recorded so far), one stream per
    side (``dfd-bot:{seed}:{side}``) when each side has its own bot."""
    return random.Random(f"dfd-bot:{seed}" if side is None else f"dfd-bot:{seed}:{side}")


class RandomBot:
    """Picks a uniformly random legal option; deterministic for a given seed (and side)."""

    name = "random"
    plan = ""

    def __init__(self, seed: int = 0, side: str | None = None):
        self.side = side
        self.rng = _rng(seed, side)

    def choose(self, decision: Decision, engine: "Engine | None" = None) -> Action:
        if not decision.options:
            raise RuntimeError(f"the decision {decision.kind!r} offers no enumerable option ({decision.rule})")
        return self.rng.choice(decision.options).action


def pass_choice(decision: Decision, abandoned: set[str] | None = None) -> Action:
    """The do-nothing answer: "done" when offered; else the first option that neither cancels anything nor declares
    an attack on a hex in ``abandoned``; else the last cancel offered, whose combat's hexes are added to
    ``abandoned``; else the first option.

    14.2: a declared attack may leave a declaration still required (every enemy unit projecting a ZOC onto an
    attacker's hex must be attacked), and the Combat Phase then offers no "done".  When no declaration can meet
    it, the combat is cancelled and its hexes abandoned (``abandoned`` is kept by the caller for the Combat Phase),
    never declared against again in that phase - so declaring and cancelling cannot go on for ever."""
    opts = decision.options
    abandoned = set() if abandoned is None else abandoned
    for o in opts:
        if o.action.kind == "done":
            return o.action
    for o in opts:
        a = o.action
        if a.kind == "cancel" or a.kind == "declare" and abandoned & set(a.args.get("hexes") or []):
            continue
        return a
    cancels = [o.action for o in opts if o.action.kind == "cancel"]
    if cancels:
        combats = decision.context.get("combats", [])
        k = cancels[-1].args.get("combat")
        if isinstance(k, int) and 0 <= k < len(combats):
            abandoned.update(combats[k].get("hexes", []))
        return cancels[-1]
    return opts[0].action


class _PhaseMemory:
    """The hexes a bot abandoned (see :func:`pass_choice`) in the current step of play."""

    _memory: tuple[tuple, set[str]] = ((), set())

    def abandoned(self, engine: "Engine | None") -> set[str]:
        if engine is None:
            return set()
        st = engine.state
        key = (st.gt, st.phase, st.step)
        if self._memory[0] != key:
            self._memory = (key, set())
        return self._memory[1]


class PassBot(_PhaseMemory):
    """Does nothing it may leave undone: :func:`pass_choice` ("done" when offered, else the first option that
    cancels nothing, else a cancel) - the quickest way through a turn."""

    name = "pass"
    plan = ""

    def __init__(self, seed: int = 0, side: str | None = None):
        self.side = side
        self._memory = ((), set())

    def choose(self, decision: Decision, engine: "Engine | None" = None) -> Action:
        return pass_choice(decision, self.abandoned(engine))


#: the weakest odds the greedy bot attacks at, as the attack-to-defence strength ratio of the odds preview (14.3)
GREEDY_MIN_ODDS = 2.0
#: the declaration forms the greedy bot considers (the battle forms of 14.9 only for units marked for them)
_GREEDY_FORMS = ("regular", "mobile", "deliberate")


def objective_hexes(engine: "Engine", side: str) -> list[str]:
    """The map hexes ``side`` plays for, read from the scenario's victory conditions (the scenario file's
    ``victory`` data, :func:`core.rules.victory_rules.conditions`), on the maps in play:

    * ``control``: its ``hexes`` (its ``loc_to`` is where the supply line is traced from, not a place to go);
    * ``base_with_loc`` / ``no_base_with_loc``: the ``loc_to`` hex (the line to hold, or to cut);
    * ``road_control``: the hexes of the primary road from ``from_hex`` to ``to_hex`` (27.3), or those two hexes
      when the map data joins them by no primary road;
    * ``base_in_port`` / ``port_capacity`` / ``more_ports``: the standard ports (20.1) (of ``maps`` when given);
    * ``otherwise`` (a side that wins by preventing the other's victory), and a side with no hex of its own:
      the other side's objectives, to deny them.

    A condition naming no hex (``card_in_effect``, ``withdrawal_failed``) adds none.  Sorted, no duplicates."""
    from core.decisions import other
    from core.rules import tec, victory_rules

    st = engine.state
    maps = tuple(st.vars.get("maps") or ())
    conds = victory_rules.conditions(engine)

    def of(c: dict) -> set[str]:
        k = c.get("kind")
        out: set[str] = set()
        out.update(str(h) for h in c.get("hexes", []))
        if k in ("base_with_loc", "no_base_with_loc"):
            out.add(str(c["loc_to"]))
        if k == "road_control":
            # the road's two ends when the map data gives no primary road between them
            out.update(victory_rules.primary_road(engine, c["from_hex"], c["to_hex"]) or (c["from_hex"], c["to_hex"]))
        if k in ("base_in_port", "port_capacity", "more_ports"):
            only = tuple(c.get("maps", ()))
            out.update(h.label for h in tec.current_map().ports if not only or h.label[:1] in only)
        return out

    def hexes(who: str, deny: bool) -> set[str]:
        out: set[str] = set()
        for c in conds:
            mine = c.get("side") == who or c.get("side") in ("controller", "more")
            if mine and (c.get("kind") != "otherwise" or not deny):
                out |= of(c)
        return out

    own = hexes(side, False)
    if not own or any(c.get("side") == side and c.get("kind") == "otherwise" for c in conds):
        own |= hexes(other(side), True)
    on_map = set()
    for h in own:
        try:
            lab = Hex.parse(h).label
        except HexLabelError:
            continue                       # a box (the NRV): not a hex to move to
        if not maps or any(x[:1] in maps for x in Hex.parse(lab).labels):
            on_map.add(lab)
    return sorted(on_map)


class GreedyBot(_PhaseMemory):
    """The documented greedy baseline of issue 21 (``--bot greedy``): **best-odds attack, else move toward the
    nearest objective**.

    * Combat declaration (14.0, 14.2): of the declarations the decision offers (one hex's units against one
      adjacent enemy hex, forms regular / mobile / deliberate, no recon or amphibious variants, no extension),
      it declares the one with the best odds - the highest attack-to-defence strength ratio of the engine's odds
      preview (the ``odds`` query, 14.3) - if that ratio is at least :data:`GREEDY_MIN_ODDS` (2:1), and asks
      again; otherwise it says done.  When a declaration is still required (14.2: the decision offers no "done"),
      it declares the best one offered whatever its odds (extending a combat to more hexes included); when none is
      left it cancels a combat and abandons its hexes for the phase (:func:`pass_choice`).
    * Movement Phase (13.0): one unit at a time, each combat unit on the map not moved yet is moved along the
      engine's own cheapest legal paths (``movement.reachable_paths``, what the ``reachable`` query reads) to the
      reachable hex closest to its nearest objective
      (:func:`objective_hexes`: the scenario's victory data; the nearest one its side does not control, or the
      nearest one when it controls them all), when that is closer than where it stands (ties: the
      shorter path); never into an enemy hex (no overrun).  Every move is first tried on a fork of the engine
      (:meth:`core.engine.Engine.fork`); a unit whose move is refused is left where it is.  Then done.
    * Every other decision (set-up, cards, reinforcements, air, naval, reaction, losses, retreats, advances,
      refit...), and a declaration or move it does not want: what :class:`PassBot` does (:func:`pass_choice`).
    """

    name = "greedy"
    plan = ""

    def __init__(self, seed: int = 0, side: str | None = None):
        self.side = side
        self.rng = _rng(seed, side)
        self._memory = ((), set())
        self._objectives: dict[str, list[str]] = {}
        self._tried: tuple[tuple, set[str]] = ((), set())

    def choose(self, decision: Decision, engine: "Engine") -> Action:
        side = decision.side if self.side is None else self.side
        abandoned = self.abandoned(engine)
        if decision.kind == "combat_declare":
            act = self._attack(decision, engine, abandoned)
            if act is not None:
                return act
        elif decision.kind == "movement" and "move" in decision.free_kinds:
            # 27.1, 30.2, 31.2: the reinforcements waiting for a friendly Movement Phase arrive first
            act = next((o.action for o in decision.options if o.action.kind == "arrive"), None) \
                or self._advance(decision, engine, side)
            if act is not None:
                return act
        return pass_choice(decision, abandoned)

    # ------------------------------------------------------------------ combat
    def _attack(self, decision: Decision, engine: "Engine", abandoned: set[str]) -> Action | None:
        from core.decisions import IllegalAction

        required = not any(o.action.kind == "done" for o in decision.options)
        busy = {u for c in decision.context.get("combats", []) for u in c.get("attackers", [])}
        best: tuple[float, int, Action] | None = None
        for i, o in enumerate(decision.options):
            a = o.action
            hexes = a.args.get("hexes") or []
            if (a.kind != "declare" or a.args.get("recon") or a.args.get("form") not in _GREEDY_FORMS
                    or abandoned & set(hexes)):
                continue
            if not required and (len(hexes) != 1 or busy & set(a.args.get("attackers", []))):
                continue
            try:
                odds = engine.query("odds", attackers=list(a.args["attackers"]), hex=hexes[0], hexes=list(hexes),
                                    form=a.args["form"])
            except IllegalAction:
                continue
            ratio = float(odds["attack"]) / float(odds["defence"]) if float(odds["defence"]) > 0 else float("inf")
            if best is None or ratio > best[0]:
                best = (ratio, i, a)
        if best is not None and (best[0] >= GREEDY_MIN_ODDS or required):
            return best[2]
        return None

    # ------------------------------------------------------------------ movement
    def _advance(self, decision: Decision, engine: "Engine", side: str) -> Action | None:
        from core.decisions import IllegalAction
        from core.dice import SampledDice
        from core.rules.combat import combat_units
        from core.rules.movement import MoveOptions, reachable_paths

        st = engine.state
        if side not in self._objectives:
            self._objectives[side] = objective_hexes(engine, side)
        from core.rules.victory_rules import controller

        goals = [Hex.parse(h) for h in self._objectives[side] if controller(engine, h) != side] or [
            Hex.parse(h) for h in self._objectives[side]]
        if not goals:
            return None
        key = (st.gt, st.phase, st.step, len(st.stack))
        if self._tried[0] != key:
            self._tried = (key, set())
        tried = self._tried[1]
        moved = decision.context.get("moved", {})
        enemy = {u.loc for u in st.units.values() if u.side != side}
        cache: dict = {}                    # one state for every search of this decision (13.0 reachable_paths)
        for uid in combat_units(st, side):
            if uid in tried or uid in moved:
                continue
            tried.add(uid)
            here = Hex.parse(st.units[uid].loc)
            near = min(goals, key=lambda g: (here.distance(g), g.label))
            try:
                reach = reachable_paths(st, side, [uid], MoveOptions(), cache=cache)
            except IllegalAction:
                continue
            best = None
            for lab, path in sorted(reach.items()):
                if lab in enemy or not path:
                    continue
                d = Hex.parse(lab).distance(near)
                if d < here.distance(near) and (best is None or (d, len(path)) < best[0]):
                    best = ((d, len(path)), path)
            if best is None:
                continue
            act = Action(kind="move", side=side, args={"units": [uid], "path": list(best[1])})
            try:
                engine.fork(SampledDice(self.rng)).apply(act)
            except IllegalAction:
                continue
            return act
        return None


BOTS = {"random": RandomBot, "pass": PassBot, "greedy": GreedyBot}
