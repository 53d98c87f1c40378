"""The computer opponent (issue 21): plays a side through the same API as every other client (``Engine.apply``).

:class:`AIPlayer` answers every decision the engine asks; the ground war (movement, overruns, reaction, combat and
its interleaved choices) lives in :mod:`core.ai.ground`, every other decision in :mod:`core.ai.admin`; goals come
from the scenario's own victory conditions (:mod:`core.ai.goals`).  No Qt here.
"""

from core.ai.player import AIPlayer

__all__ = ["AIPlayer"]
