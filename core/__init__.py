"""Desert Fox Deluxe rules engine (no Qt here).

The engine is a deterministic, event-sourced state machine: ``core.engine.Engine``
exposes the pending decision and accepts one action at a time.
"""

__version__ = "0.1.0"
