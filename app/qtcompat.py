"""Work around a PySide6 6.12 bug on Python 3.11: every call of a void Qt method
returns ``None`` without taking a reference, so ``None``'s reference count falls
by one per call until CPython aborts ("none_dealloc: deallocating None").

Python 3.12+ makes ``None`` immortal, so the bug is harmless there.  On older
Pythons we raise ``None``'s reference count once by a huge amount (2**40 calls'
worth), which is exactly what immortality does.  Remove this module when the
project requires Python 3.12 or a fixed PySide6.
"""

from __future__ import annotations

import ctypes
import sys

_BUMP = 1 << 40
_done = False


def protect_none() -> None:
    global _done
    if _done or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    _done = True
    ref = ctypes.c_ssize_t.from_address(id(None))
    ref.value += _BUMP


protect_none()
