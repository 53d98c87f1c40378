"""Play-path helper for the rules random play reaches only now and then (issue 16, docs/architecture.md
``## Unreachable by random play``): play a real scenario with the fuzzer's own seeded bot
(``scripts/fuzz_autoplay.py``: offered options, sampled free-form moves, overruns, orders and declarations,
sampled undo, all through ``Game.act`` = ``Engine.apply`` on a real ``.dfd`` file) until a condition holds, and
hand back the game at that moment so the test can go on with scripted choices (``tests.playpath``-style) and
check the rule's effect.

    from tests.fuzzplay import play_until, pending_kind

    with play_until("desert-war", pending_kind("overrun_reaction"), tmp_path) as g:
        d = g.engine.pending()
        ...

Nothing touches the state: every action is one the bot applied through ``Engine.apply`` and the engine
accepted.  Seeds are tried in order (``seeds``) until one reaches the condition within ``limit`` decisions, so a
rules change that alters one random game does not silently lose the test: if none does, the test fails, naming
the seeds tried.
"""

from __future__ import annotations

import contextlib
import importlib.util
import sys
from pathlib import Path
from collections.abc import Callable, Iterator

from core.engine import Engine

ROOT = Path(__file__).resolve().parents[1]


def fuzz():
    """The module ``scripts/fuzz_autoplay.py``."""
    if "dfd_fuzz" in sys.modules:
        return sys.modules["dfd_fuzz"]
    spec = importlib.util.spec_from_file_location("dfd_fuzz", ROOT / "scripts" / "fuzz_autoplay.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["dfd_fuzz"] = mod
    spec.loader.exec_module(mod)
    return mod


def pending_kind(kind: str, side: str | None = None) -> Callable[[Engine], bool]:
    """The condition "a decision of ``kind`` (by ``side``) is pending"."""
    def here(eng: Engine) -> bool:
        d = eng.pending()
        return d is not None and d.kind == kind and (side is None or d.side == side)
    return here


def on_stack(proc: str) -> Callable[[Engine], bool]:
    """The condition "procedure ``proc`` is running" (its frame is on the procedure stack)."""
    return lambda eng: any(f.proc == proc for f in eng.state.stack)


@contextlib.contextmanager
def play_until(scenario: str, until: Callable[[Engine], bool], folder: Path, seeds=range(1, 7),
               limit: int = 4000) -> Iterator:
    """The open :class:`core.game.Game` of the first seed whose fuzz game reaches ``until`` (closed on exit)."""
    fz = fuzz()
    tried = []
    for seed in seeds:
        out = fz.play(scenario, seed, Path(folder), time_limit=600.0, max_decisions=limit, until=until)
        g = out.get("game")
        if g is None:
            tried.append(f"seed {seed}: {out['error']}")
            continue
        try:
            yield g
        finally:
            g.close()
        return
    raise AssertionError(f"{scenario}: random play did not reach the condition; " + "; ".join(tried))
