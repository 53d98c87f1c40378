"""The desktop app (PySide6).  ``app.main.run`` starts it; ``app.cli`` is the ``dfd`` command."""

from app import qtcompat  # noqa: F401  (must run before any Qt call; see the module)
