"""Play-path test helper: start from a real scenario set-up and drive only ``Engine.apply`` with legal actions.

A rule is done when a test reaches it this way (docs/architecture.md, "Tests"; issue 16).  The helper plays
scripted choices and *passes* otherwise: at every decision it is not told about, it takes the option whose
action kind is ``done`` if one is offered, else the first option offered (what ``core.bots.PassBot`` does).
Nothing here touches ``state.flags``, the procedure stack or any other internal: every step is an
``Engine.apply`` of an offered option or of a free-form action kind the pending decision lists.

The API (kept small and stable; other tests rely on it)::

    from tests.playpath import Play

    p = Play("sonnenblume", seed=1)                 # real scenario set-up (dice=ScriptedDice(...) optional)
    d = p.to("movement", side="Axis")               # pass until an Axis Movement-Phase decision
    p.act("move", units=["GE-3Recon"], path=[...])  # an offered option whose args match, or a free-form kind
    exc = p.refuse("move", units=[...], path=[...]) # must be refused (IllegalAction); state untouched
    p.to(step="VIII.1", gt=12)                      # pass until that step (and GT)
    p.run(until=lambda eng: ..., script={"combat_declare": lambda d: ...})   # scripted choices by kind
    p.events()                                      # every game-log line so far (p.events(since=n))

* ``Play(scenario, seed=1, dice=None, optional=())`` — ``scenario`` is a scenario id (``dfd scenarios``) or a
  path to a scenario TOML; ``optional`` names the optional rules chosen at new game (``"desert_raiders"``,
  16.0); ``p.eng`` is the :class:`~core.engine.Engine`, ``p.state`` its state, ``p.pending`` the pending
  decision (``None`` once the scenario has ended).
* ``p.pass_()`` — apply the pass choice of the pending decision (above).
* ``p.run(until, script=None, limit=20000)`` — until ``until(eng)`` is true, answer each decision with
  ``script[d.kind](d)`` when that returns an :class:`~core.decisions.Action` and pass otherwise.  Raises
  ``AssertionError`` if the game ends or ``limit`` decisions are made first.  Returns the pending decision.
* ``p.to(kind=None, *, side=None, step=None, gt=None, phase=None, script=None, limit=20000)`` — ``run``
  until the pending decision matches every criterion given (``step`` is a 4.1 step key such as ``"VI.3"``).
* ``p.act(kind, side=None, **args)`` — apply an offered option of ``kind`` (and ``side``) whose args
  contain ``args``; if none matches and ``kind`` is one of the decision's ``free_kinds``, apply
  ``Action(kind, side or the deciding side, args)``.  Returns the :class:`~core.engine.LogEntry`.
* ``p.option(kind, side=None, **args)`` — the matching offered :class:`~core.decisions.Option` or ``None``.
* ``p.refuse(kind, side=None, **args)`` — apply ``Action(kind, side, args)``, assert it is refused with the
  state hash unchanged, and return the :class:`~core.decisions.IllegalAction` (check its ``.rule``).
* ``p.events(since=0)`` — the game-log lines of the actions applied since log entry ``since``.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from core.decisions import EITHER, Action, Decision, IllegalAction, Option
from core.dice import Dice
from core.engine import Engine, LogEntry
from core.newgame import initial_state
from core.scenario import load

Script = Mapping[str, Callable[[Decision], Action | None]]


def pass_action(d: Decision) -> Action:
    """The pass choice of a decision: its ``done`` option if offered, else its first option."""
    if not d.options:
        raise AssertionError(f"decision {d.kind} ({d.rule}) offers no option to pass with")
    for o in d.options:
        if o.action.kind == "done":
            return o.action
    return d.options[0].action


def _matches(o: Option, kind: str, side: str | None, args: Mapping[str, Any]) -> bool:
    return (o.action.kind == kind and (side is None or o.action.side == side)
            and all(o.action.args.get(k) == v for k, v in args.items()))


class Play:
    """A game from a real scenario set-up, played through ``Engine.apply`` only (see the module docstring)."""

    def __init__(self, scenario: str, seed: int = 1, dice: Dice | None = None, optional: tuple[str, ...] = ()):
        self.eng = Engine(initial_state(load(scenario), seed, optional), dice)

    @property
    def state(self):
        return self.eng.state

    @property
    def pending(self) -> Decision | None:
        return self.eng.pending()

    def _decision(self) -> Decision:
        d = self.eng.pending()
        if d is None:
            raise AssertionError(f"the scenario has ended: {self.state.result}")
        return d

    def pass_(self) -> LogEntry:
        return self.eng.apply(pass_action(self._decision()))

    def run(self, until: Callable[[Engine], bool], script: Script | None = None, limit: int = 20000) -> Decision | None:
        for _ in range(limit):
            if until(self.eng):
                return self.eng.pending()
            d = self._decision()
            fn = (script or {}).get(d.kind)
            a = fn(d) if fn else None
            self.eng.apply(a if a is not None else pass_action(d))
        if until(self.eng):
            return self.eng.pending()
        raise AssertionError(f"not reached within {limit} decisions; now GT {self.state.gt} "
                             f"phase {self.state.phase} step {self.state.step}: {self.eng.pending()}")

    def to(self, kind: str | None = None, *, side: str | None = None, step: str | None = None,
           gt: int | None = None, phase: int | None = None, script: Script | None = None,
           limit: int = 20000) -> Decision:
        def here(eng: Engine) -> bool:
            d = eng.pending()
            return (d is not None and (kind is None or d.kind == kind) and (side is None or d.side == side)
                    and (step is None or eng.step.key == step) and (gt is None or eng.state.gt == gt)
                    and (phase is None or eng.state.phase == phase))

        d = self.run(here, script, limit)
        assert d is not None
        return d

    def option(self, kind: str, side: str | None = None, **args: Any) -> Option | None:
        return next((o for o in self._decision().options if _matches(o, kind, side, args)), None)

    def act(self, kind: str, side: str | None = None, **args: Any) -> LogEntry:
        d = self._decision()
        o = self.option(kind, side, **args)
        if o is not None:
            return self.eng.apply(o.action)
        if kind in d.free_kinds:
            who = side or d.side
            if who == EITHER:
                raise AssertionError(f"{d.kind} may be answered by either side: name the side of {kind}")
            return self.eng.apply(Action(kind=kind, side=who, args=dict(args)))
        offered = [(o.action.kind, o.action.side, dict(o.action.args)) for o in d.options][:20]
        raise AssertionError(f"no option {kind} {args} in {d.kind} ({d.rule}); offered: {offered}; "
                             f"free-form: {list(d.free_kinds)}")

    def refuse(self, kind: str, side: str | None = None, **args: Any) -> IllegalAction:
        d = self._decision()
        who = side or d.side
        before = self.eng.hash()
        try:
            self.eng.apply(Action(kind=kind, side=who, args=dict(args)))
        except IllegalAction as exc:
            assert self.eng.hash() == before, "a refused action changed the state"
            return exc
        raise AssertionError(f"{kind} {args} by {who} was accepted in {d.kind}, expected a refusal")

    def events(self, since: int = 0) -> list[str]:
        return [e for entry in self.eng.log[since:] for e in entry.events]
