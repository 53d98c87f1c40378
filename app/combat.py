"""The combat dialog: shows a combat as the engine describes it (14.0).

It renders the dictionary the engine returns from its ``odds`` query or puts in
the context of a combat decision: participants, supply, strengths and shifts
itemised, the CRT column, the die roll and the results.  It computes nothing:
every number shown is the engine's.  The decision's options (declare, resolve,
choose losses, retreat, advance) stay the prompt bar's buttons.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from app import counterart

KNOWN = ("attackers", "defenders", "supply", "strengths", "shifts", "modifiers", "odds", "column", "ratio", "roll",
         "dice", "result", "results", "losses", "retreat", "advance", "rule")


def _units(ids: Any) -> str:
    if not ids:
        return "—"
    out = []
    for u in ids:
        uid = u if isinstance(u, str) else getattr(u, "id", str(u))
        c = counterart.lookup(uid)
        out.append(html.escape(c.name if c else uid))
    return ", ".join(out)


def combat_html(data: dict[str, Any]) -> str:
    g = data.get
    rows = [f"<h2 style='color:#5b4a2f'>Combat{(' at ' + html.escape(str(g('hex')))) if g('hex') else ''}</h2>"]
    rows.append("<table cellpadding=4 width='100%'>")
    rows.append(f"<tr><td><b>Attackers</b></td><td>{_units(g('attackers'))}</td></tr>")
    rows.append(f"<tr><td><b>Defenders</b></td><td>{_units(g('defenders'))}</td></tr>")
    if g("supply"):
        rows.append(f"<tr><td><b>Supply</b></td><td>{html.escape(str(g('supply')))}</td></tr>")
    rows.append("</table>")
    items = g("strengths") or []
    shifts = g("shifts") or g("modifiers") or []
    if items or shifts:
        rows.append("<h3>Strengths and shifts</h3><table border=0 cellpadding=3 width='100%'>")
        for it in list(items) + list(shifts):
            if isinstance(it, dict):
                rows.append(f"<tr><td>{html.escape(str(it.get('what', it.get('text', ''))))}</td>"
                            f"<td align=right><b>{html.escape(str(it.get('value', it.get('shift', ''))))}</b></td>"
                            f"<td style='color:#8a7a5a'>{html.escape(str(it.get('rule', '')))}</td></tr>")
            elif isinstance(it, (list, tuple)):
                rows.append("<tr>" + "".join(f"<td>{html.escape(str(x))}</td>" for x in it) + "</tr>")
            else:
                rows.append(f"<tr><td colspan=3>{html.escape(str(it))}</td></tr>")
        rows.append("</table>")
    line = []
    for k, title in (("ratio", "Odds"), ("odds", "Odds"), ("column", "CRT column"), ("roll", "Die roll"), ("dice", "Dice")):
        if g(k) is not None:
            line.append(f"<b>{title}</b> {html.escape(str(g(k)))}")
    if line:
        rows.append("<p style='font-size:13pt'>" + " &nbsp;·&nbsp; ".join(line) + "</p>")
    res = g("results") or g("result")
    if res:
        rows.append("<h3>Results</h3>")
        if isinstance(res, dict):
            rows.append("<table cellpadding=3>" + "".join(
                f"<tr><td><b>{html.escape(str(k))}</b></td><td>{html.escape(str(v))}</td></tr>" for k, v in res.items()) + "</table>")
        else:
            rows.append(f"<p>{html.escape(str(res))}</p>")
    for k in ("losses", "retreat", "advance"):
        if g(k):
            rows.append(f"<p><b>{k.title()}</b>: {html.escape(str(g(k)))}</p>")
    other = {k: v for k, v in data.items() if k not in KNOWN and k != "hex"}
    if other:
        rows.append("<h3>Details</h3><table cellpadding=3>" + "".join(
            f"<tr><td><b>{html.escape(str(k))}</b></td><td>{html.escape(str(v))}</td></tr>" for k, v in other.items()) + "</table>")
    if g("rule"):
        rows.append(f"<p style='color:#8a7a5a'>Rule {html.escape(str(g('rule')))}</p>")
    return "".join(rows)


class CombatDialog(QDialog):
    def __init__(self, parent: QWidget | None, data: dict[str, Any]):
        super().__init__(parent)
        self.setWindowTitle("Combat")
        self.resize(560, 520)
        lay = QVBoxLayout(self)
        self.view = QTextBrowser()
        self.view.setHtml(combat_html(data))
        lay.addWidget(self.view)
        bb = QDialogButtonBox(QDialogButtonBox.Close)
        bb.rejected.connect(self.reject)
        bb.accepted.connect(self.accept)
        lay.addWidget(bb)
