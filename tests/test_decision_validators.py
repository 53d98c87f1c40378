"""Validation without option lists (issue 18 item 2), from a real scenario set-up through ``Engine.apply``.

An action of a free kind is validated by its procedure (citing the rule), never by sampling the decision's
options: applying it leaves the sampler unrun; reading a decision's options after the game moved on is refused
loudly; a kind with an argument schema (``core.decisions.arg_schema``) refuses unknown and oversized arguments
before any procedure sees them, and the state is untouched."""

from __future__ import annotations

import pytest

from core.decisions import Action, IllegalAction
from core.engine import Engine
from core.hexgrid import Hex
from core.newgame import initial_state
from core.scenario import load


@pytest.fixture
def nac():
    eng = Engine(initial_state(load("north-african-campaign"), 1))
    d = eng.pending()
    assert d.kind == "setup_place"                     # 3.1: units set up "within N hexes of" a hex
    return eng


def legal_place(eng: Engine) -> Action:
    d = eng.pending()
    return Action(kind="place", side=d.side, args={"unit": d.context["unit"], "hex": d.context["of"]})


def test_a_free_kind_is_applied_without_sampling_the_options(nac):
    d = nac.pending()
    assert d.eager_options() == ()                     # the placements are sampled only when asked for
    nac.apply(legal_place(nac))
    assert d._sampled is not None                      # never run: apply needed no option list
    with pytest.raises(RuntimeError, match="after another action was applied"):
        d.options                                      # noqa: B018 - a stale decision answers nothing
    assert nac.pending().options                       # the new decision samples its own state


def test_the_sampled_options_are_the_legal_placements(nac):
    d = nac.pending()
    hexes = [o.action.args["hex"] for o in d.options]
    of, within = Hex.parse(d.context["of"]), int(d.context["within"])
    assert hexes and all(Hex.parse(h).distance(of) <= within for h in hexes)
    before = nac.hash()
    far = next(h for h in of.within(within + 1) if h.distance(of) == within + 1)
    with pytest.raises(IllegalAction, match="must set up within"):   # limit + 1 is refused by 3.1 itself
        nac.apply(Action(kind="place", side=d.side, args={"unit": d.context["unit"], "hex": far.label}))
    assert nac.hash() == before


@pytest.mark.parametrize("args, why", [
    ({"extra": 1}, "takes no argument 'extra'"),
    ({"hex": 2331}, "must be str"),
])
def test_the_argument_schema_refuses_before_the_procedure(nac, args, why):
    a = legal_place(nac)
    before = nac.hash()
    with pytest.raises(IllegalAction, match=why) as exc:
        nac.apply(Action(kind="place", side=a.side, args={**a.args, **args}))
    assert exc.value.rule == nac.pending().rule and nac.hash() == before


def test_the_argument_schema_limit_and_limit_plus_one(nac):
    a = legal_place(nac)                               # a legal hex, padded with blanks (2.2.2 labels ignore them)
    before = nac.hash()
    with pytest.raises(IllegalAction, match="longer than 16"):
        nac.apply(Action(kind="place", side=a.side, args={**a.args, "hex": a.args["hex"].rjust(17)}))
    assert nac.hash() == before
    nac.apply(Action(kind="place", side=a.side, args={**a.args, "hex": a.args["hex"].rjust(16)}))
    assert nac.hash() != before
