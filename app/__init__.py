"""The desktop app (PySide6).  ``app.main.run`` starts it; ``app.cli`` is the ``dfd`` command."""
