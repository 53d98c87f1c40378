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


def _shift_rows(title: str, items: Any) -> str:
    if not items:
        return ""
    out = [f"<tr><td colspan=3 style='color:#6b4f2a'><b>{html.escape(title)}</b></td></tr>"]
    for it in items:
        if isinstance(it, dict):
            val = it.get("columns", it.get("value", it.get("shift", "")))
            out.append(f"<tr><td>&nbsp;&nbsp;{html.escape(str(it.get('why', it.get('what', it.get('text', '')))))}</td>"
                       f"<td align=right><b>{html.escape(f'{val:+d}' if isinstance(val, int) else str(val))}</b></td><td></td></tr>")
        else:
            out.append(f"<tr><td colspan=3>&nbsp;&nbsp;{html.escape(str(it))}</td></tr>")
    return "".join(out)


def combat_html(data: dict[str, Any]) -> str:
    """The engine's combat description as HTML (keys of core.rules.combat.preview, others listed as details)."""
    g = data.get
    where = g("hexes") or ([g("hex")] if g("hex") else [])
    rows = [f"<h2 style='color:#5b4a2f'>{html.escape(str(g('form') or 'Combat').title())} attack"
            f"{(' on ' + html.escape(', '.join(map(str, where)))) if where else ''}</h2>"]
    rows.append("<table cellpadding=4 width='100%'>")
    rows.append(f"<tr><td width=110><b>Attackers</b></td><td>{_units(g('attackers'))}</td></tr>")
    rows.append(f"<tr><td><b>Defenders</b></td><td>{_units(g('defenders'))}</td></tr>")
    sup = g("attackers_supplied") or g("supply")
    if isinstance(sup, dict):
        rows.append("<tr><td><b>Supply</b></td><td>" + ", ".join(
            f"{_units([u])}: {'supplied' if ok else '<span style=color:#a0301d>unsupplied</span>'}" for u, ok in sup.items()) + "</td></tr>")
    elif sup:
        rows.append(f"<tr><td><b>Supply</b></td><td>{html.escape(str(sup))}</td></tr>")
    rows.append("</table>")
    st = g("strengths")
    rows.append("<h3>Strengths and shifts</h3><table cellpadding=3 width='100%'>")
    if isinstance(st, dict):
        for k in ("attack", "defence"):
            if k in st:
                rows.append(f"<tr><td><b>{k.title()}</b></td><td align=right><b>{html.escape(str(st[k]))}</b></td><td></td></tr>")
        for k, v in st.items():
            if k in ("attack", "defence"):
                continue
            if isinstance(v, list):
                rows.append(_shift_rows(k.replace("_", " ").title(), v))
            elif not isinstance(v, dict):
                rows.append(f"<tr><td>&nbsp;&nbsp;{html.escape(k.replace('_', ' '))}</td><td align=right>{html.escape(str(v))}</td><td></td></tr>")
    elif isinstance(st, list):
        rows.append(_shift_rows("Strengths", st))
    rows.append(_shift_rows("Line reductions", g("line_reductions")))
    rows.append(_shift_rows("General shifts", g("general_shifts")))
    rows.append(_shift_rows("Attacker support", g("attacker_shifts")))
    rows.append(_shift_rows("Defender support", g("defender_shifts")))
    rows.append("</table>")
    line = []
    for k, title in (("odds", "Odds"), ("ratio", "Odds"), ("column", "CRT column"), ("line", "Morale line"),
                     ("roll", "Die roll"), ("dice", "Dice")):
        if g(k) is not None:
            line.append(f"<b>{title}</b> {html.escape(str(g(k)))}")
    if line:
        rows.append("<p style='font-size:13pt;background:#f6ecd2;padding:6px'>" + " &nbsp;·&nbsp; ".join(line) + "</p>")
    res = g("results") or g("result")
    if isinstance(res, list) and res and isinstance(res[0], dict) and "die" in res[0]:
        morale = sorted({m for r in res for m in (r.get("defender") or {})}, key=lambda x: int(x) if str(x).isdigit() else 0)
        rows.append("<h3>Results by die roll (14.5)</h3><table border=1 cellspacing=0 cellpadding=3 width='100%' "
                    "style='border-color:#d8c8a0'><tr style='background:#e4d7b5'><th>Die</th><th>Columns (def/att)</th>"
                    + "".join(f"<th>Defender morale {html.escape(str(m))}</th>" for m in morale)
                    + "<th>Attacker</th></tr>")
        for r in res:
            att = r.get("attacker") or {}
            att_txt = att.get("supplied") if isinstance(att, dict) else att
            rows.append(f"<tr><td align=center><b>{r.get('die')}</b></td><td align=center>{html.escape(str(r.get('defender_column')))}"
                        f" / {html.escape(str(r.get('attacker_column')))}</td>"
                        + "".join(f"<td align=center>{html.escape(str((r.get('defender') or {}).get(m, '')))}</td>" for m in morale)
                        + f"<td align=center>{html.escape(str(att_txt))}</td></tr>")
        rows.append("</table>")
    elif isinstance(res, dict):
        rows.append("<h3>Results</h3><table cellpadding=3>" + "".join(
            f"<tr><td><b>{html.escape(str(k))}</b></td><td>{html.escape(str(v))}</td></tr>" for k, v in res.items()) + "</table>")
    elif res:
        rows.append(f"<h3>Results</h3><p>{html.escape(str(res))}</p>")
    for k in ("losses", "retreat", "advance"):
        if g(k):
            rows.append(f"<p><b>{k.title()}</b>: {html.escape(str(g(k)))}</p>")
    shown = set(KNOWN) | {"hex", "hexes", "form", "attackers_supplied", "line_reductions", "general_shifts",
                          "attacker_shifts", "defender_shifts", "attack", "defence", "general", "attacker_support",
                          "defender_support", "line_options", "parenthesised_allowed"}
    other = {k: v for k, v in data.items() if k not in shown}
    if other:
        rows.append("<h3>Details</h3><table cellpadding=3>" + "".join(
            f"<tr><td><b>{html.escape(str(k))}</b></td><td>{html.escape(str(v))}</td></tr>" for k, v in other.items()) + "</table>")
    return "".join(rows)


class CombatDialog(QDialog):
    def __init__(self, parent: QWidget | None, data: dict[str, Any]):
        super().__init__(parent)
        self.setWindowTitle("Combat")
        self.resize(760, 680)
        lay = QVBoxLayout(self)
        self.view = QTextBrowser()
        self.view.setHtml(combat_html(data))
        lay.addWidget(self.view)
        bb = QDialogButtonBox(QDialogButtonBox.Close)
        bb.rejected.connect(self.reject)
        bb.accepted.connect(self.accept)
        lay.addWidget(bb)
