"""Refit from the Refit Box by drag (17.2).

The engine's ``refit_box`` {unit, rps, steps[, to]} has no destination for most units: the engine places the
rebuilt unit at the primary base (the Axis primary base hex, 12.2.4; the Nile River Valley box for the
Allies, 22.1); only a desert garrison may be given ``to`` (a friendly oasis, 16.1).  So, while the refit
decision takes ``refit_box`` free-form, a counter in the side's Refit Box can be dragged: the primary base is
the drop target, and a drop there (or, for ``to``, elsewhere — the engine judges) opens a small form for the
RP markers to expend and the steps to rebuild, then sends the action.  The GUI decides nothing: the RP
pre-checked are only a suggestion (those in or next to the primary base), and the engine refuses with its
reason and rule.
"""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from app import counterart
from app.orders import is_rp, unit_name


def refit_box_of(side: str) -> str:
    return f"box:Refit:{side}"


def primary_base(st, side: str) -> str | None:
    """Where the engine puts a unit rebuilt from the Refit Box (the drop target shown)."""
    if side == "Allied":
        return "box:NRV"
    try:
        from core.rules import supply

        pb = supply.axis_primary(st)
    except Exception:  # noqa: BLE001
        pb = None
    return pb.loc if pb is not None else None


def can_drag(d, st, uid: str) -> bool:
    """A counter in the deciding side's Refit Box while the decision takes ``refit_box`` free-form."""
    if d is None or st is None or "refit_box" not in (d.free_kinds or ()):
        return False
    u = st.units.get(uid)
    return u is not None and u.side == d.side and u.loc == refit_box_of(d.side)


def _near(a: str, b: str) -> bool:
    if a == b:
        return True
    try:
        from core.hexgrid import Hex

        return Hex.parse(a).distance(Hex.parse(b)) <= 1
    except Exception:  # noqa: BLE001 - boxes: only the same box
        return False


class RefitForm(QDialog):
    """The RP markers to expend and the steps to rebuild."""

    def __init__(self, parent: QWidget | None, st, side: str, uid: str, base: str | None, to: str | None):
        super().__init__(parent)
        self.setWindowTitle("Refit from the Refit Box (17.2)")
        lay = QVBoxLayout(self)
        where = f"placed at {to}" if to else f"placed at the primary base ({base or 'none on the map'})"
        lay.addWidget(QLabel(f"<b>{unit_name(uid, st)}</b> is rebuilt and {where}.<br>"
                             "The engine checks the RP (same nationality, with or next to the primary base) and the cost."))
        form = QFormLayout()
        self.steps = QSpinBox()
        full = getattr(counterart.lookup(uid), "steps", 1) or 1
        self.steps.setRange(1, max(1, int(full)))
        self.steps.setValue(max(1, int(full)))
        form.addRow("Steps:", self.steps)
        box = QWidget()
        v = QVBoxLayout(box)
        v.setContentsMargins(0, 0, 0, 0)
        self.rps: dict[str, QCheckBox] = {}
        for u in sorted(st.units.values(), key=lambda x: x.id):
            if u.side == side and is_rp(u.id) and u.loc not in ("removed",):
                cb = QCheckBox(f"{unit_name(u.id, st)} in {u.loc}")
                cb.setChecked(bool(base) and _near(u.loc, base))
                v.addWidget(cb)
                self.rps[u.id] = cb
        if not self.rps:
            v.addWidget(QLabel("(no RP markers)"))
        form.addRow("Expend RP:", box)
        lay.addLayout(form)
        bb = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        bb.button(QDialogButtonBox.Ok).setText("Refit")
        bb.accepted.connect(self.accept)
        bb.rejected.connect(self.reject)
        lay.addWidget(bb)

    def args(self, uid: str, to: str | None) -> dict:
        a = {"unit": uid, "rps": [r for r, cb in self.rps.items() if cb.isChecked()], "steps": self.steps.value()}
        if to:
            a["to"] = to
        return a


def ask(parent, st, side: str, uid: str, base: str | None, to: str | None) -> dict | None:
    """The form, modal; the action's arguments or None (cancelled).  Tests replace this function."""
    dlg = RefitForm(parent, st, side, uid, base, to)
    if dlg.exec() != QDialog.Accepted:
        return None
    return dlg.args(uid, to)
