"""The only Qt in ``net/``: a QObject that turns client events into Qt signals for the GUI thread.

The :class:`~net.client.Client` receives and applies host updates on its own
network thread; this adapter is registered as its listener and re-emits each
event as a signal.  Qt queues signals emitted on another thread to receivers
that live in the GUI thread, so slots run on the GUI thread and may touch
widgets.  The adapter never changes the game state itself: the GUI sends
commands and redraws when ``updated`` arrives (no optimistic updates).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from core.decisions import Action, Decision
from net.client import Client


class QtClient(QObject):
    statusChanged = Signal(str)
    welcomed = Signal(object)        # protocol.Welcome
    updated = Signal(object)         # list[protocol.Entry], already applied to client.engine
    snapshotLoaded = Signal(int)     # the sequence number of the state received
    acknowledged = Signal(object)    # protocol.Ack
    refused = Signal(object)         # protocol.Reject (reason and rule are the engine's, verbatim)
    chatReceived = Signal(object)    # protocol.ChatOut
    presenceChanged = Signal(object)  # protocol.Presence
    mismatch = Signal(str)           # a state hash mismatch was detected (a resync follows)
    error = Signal(str)
    closed = Signal(str)

    _SIGNALS = {
        "status": "statusChanged", "welcome": "welcomed", "update": "updated", "snapshot": "snapshotLoaded",
        "ack": "acknowledged", "reject": "refused", "chat": "chatReceived", "presence": "presenceChanged",
        "mismatch": "mismatch", "error": "error", "closed": "closed",
    }

    def __init__(self, client: Client, parent: QObject | None = None):
        super().__init__(parent)
        self.client = client
        client.add_listener(self._on_event)

    # called on the client's network thread
    def _on_event(self, kind: str, data: Any) -> None:
        name = self._SIGNALS.get(kind)
        if name is not None:
            getattr(self, name).emit(data)

    # thin pass-throughs for the GUI
    def start(self) -> None:
        self.client.start()

    def stop(self) -> None:
        self.client.stop()

    def send_command(self, action: Action) -> str:
        return self.client.send_command(action)

    def send_chat(self, text: str, to: str = "all") -> None:
        self.client.send_chat(text, to)

    def pending(self) -> Decision | None:
        return self.client.pending()

    @property
    def seat(self) -> str:
        return self.client.seat
