"""Cards panel: both sides' event cards (5.0, 23.0) with their state, and the reinforcement schedule (7.0).

Card status comes from the game state (``state.cards``) when the engine tracks
it, otherwise from the scenario's card list (its status at start).  Titles
and text come from ``core.cards`` when that module exists, else from section
23.0 of the rules text.  The decisions a card offers are the engine's: they
appear in the prompt bar during the Events Phase.
"""

from __future__ import annotations

import html
import importlib
import re
from functools import cache

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import (
    QGridLayout, QHBoxLayout, QHeaderView, QLabel, QScrollArea, QSplitter, QTableWidget,
    QTableWidgetItem, QVBoxLayout, QWidget,
)

from app import counterart, rulesdoc, theme
from core import calendar
from core.scenario import load as load_scenario
from core.state import GameState

STATUS_STYLE = {
    "setup": ("Set-up", "#8d8d8d"),
    "active": ("Active", "#3b7d3a"),
    "in_effect": ("In effect", "#2e6da4"),
    "in_play": ("In play", "#2e6da4"),
    "available": ("Available", "#c58b00"),
    "inactive": ("Inactive", "#9c9281"),
    "not_used": ("Not used", "#b5ab98"),
    "played": ("Played", "#6b4f2a"),
    "discarded": ("Discarded", "#5a5a5a"),
}


@cache
def card_texts() -> dict[str, tuple[str, str]]:
    """card id -> (title, text): from core.cards if present, else from the rules text (23.0)."""
    out: dict[str, tuple[str, str]] = {}
    try:
        mod = importlib.import_module("core.cards")
        data = None
        for name in ("all_cards", "cards", "CARDS", "load"):
            v = getattr(mod, name, None)
            if v is not None:
                data = v() if callable(v) else v
                break
        if isinstance(data, dict):
            data = data.values()
        for c in data or []:
            cid = getattr(c, "id", None) or (c.get("id") if isinstance(c, dict) else None)
            if not cid:
                continue
            g = (lambda k: c.get(k) if isinstance(c, dict) else getattr(c, k, None))
            out[str(cid)] = (str(g("title") or g("name") or cid), str(g("text") or g("description") or ""))
    except Exception:  # noqa: BLE001 - card data is optional here; fall back to the rules text
        out = {}
    if out:
        return out
    path = rulesdoc.find_rules()
    if path is None:
        return out
    lines = rulesdoc.load(str(path)).lines
    pat = re.compile(r"^(A[LX]C-\d+)\s+([^:]{2,60}):\s*(.*)$")
    for ln in lines:
        m = pat.match(ln.strip())
        if m and m.group(1) not in out:
            out[m.group(1)] = (m.group(2).strip(), m.group(3).strip())
    return out


def _card_key(cid: str) -> tuple[int, int]:
    m = re.match(r"A([LX])C-(\d+)", cid)
    return (0 if m and m.group(1) == "X" else 1, int(m.group(2)) if m else 0)


class CardFace(QWidget):
    W, H = 210, 150

    def __init__(self, cid: str, status: str, note: str, extra: str):
        super().__init__()
        self.cid, self.status, self.note, self.extra = cid, status, note, extra
        self.title, self.text = card_texts().get(cid, (cid, ""))
        self.setFixedSize(self.W, self.H)
        label, _ = STATUS_STYLE.get(status, (status, "#777"))
        tip = f"<b>{cid} {html.escape(self.title)}</b> — {label}<br>{html.escape(self.text[:500])}"
        if note:
            tip += f"<br><i>{html.escape(note)}</i>"
        if extra:
            tip += f"<br>{html.escape(extra)}"
        self.setToolTip(tip)

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing, True)
        axis = self.cid.startswith("AXC")
        faded = self.status in ("not_used", "played", "discarded", "inactive")
        body = QColor("#dfe3e4" if axis else "#f3e6c4")
        head = QColor("#4f5b61" if axis else "#8a6a2e")
        if faded:
            body = body.lighter(104)
            head = QColor("#9c9688")
        r = QRectF(3, 3, self.W - 8, self.H - 8)
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(0, 0, 0, 60))
        p.drawRoundedRect(r.translated(2, 3), 9, 9)
        p.setBrush(body)
        p.setPen(QPen(head.darker(120), 1.4))
        p.drawRoundedRect(r, 9, 9)
        hr = QRectF(r.left(), r.top(), r.width(), 34)
        p.setBrush(head)
        p.setPen(Qt.NoPen)
        p.drawRoundedRect(hr, 9, 9)
        p.drawRect(QRectF(hr.left(), hr.bottom() - 10, hr.width(), 10))
        f = QFont("DejaVu Sans Condensed")
        f.setPixelSize(11)
        f.setBold(True)
        p.setFont(f)
        p.setPen(QColor("#ffffff"))
        p.drawText(hr.adjusted(8, 1, -8, -15), Qt.AlignLeft | Qt.AlignVCenter, self.cid)
        f2 = QFont("DejaVu Serif")
        f2.setPixelSize(12)
        f2.setBold(True)
        p.setFont(f2)
        title = p.fontMetrics().elidedText(self.title, Qt.ElideRight, int(hr.width() - 16))
        p.drawText(hr.adjusted(8, 14, -8, 0), Qt.AlignLeft | Qt.AlignVCenter, title)
        # body text
        f3 = QFont("DejaVu Sans")
        f3.setPixelSize(10)
        p.setFont(f3)
        p.setPen(QColor("#3b3325" if not faded else "#8a8273"))
        txt = self.text or "(card text not loaded)"
        p.drawText(QRectF(r.left() + 8, hr.bottom() + 4, r.width() - 16, r.height() - 34 - 36),
                   Qt.TextWordWrap | Qt.AlignTop | Qt.AlignLeft, txt)
        # status ribbon
        label, col = STATUS_STYLE.get(self.status, (self.status.replace("_", " ").title(), "#777777"))
        sr = QRectF(r.left() + 8, r.bottom() - 26, 86, 20)
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(col))
        p.drawRoundedRect(sr, 10, 10)
        f4 = QFont("DejaVu Sans")
        f4.setPixelSize(10)
        f4.setBold(True)
        p.setFont(f4)
        p.setPen(QColor("#ffffff"))
        p.drawText(sr, Qt.AlignCenter, label)
        if self.extra:
            p.setPen(QColor("#6b5a3a"))
            p.setFont(f3)
            p.drawText(QRectF(sr.right() + 6, sr.top(), r.right() - sr.right() - 12, sr.height()),
                       Qt.AlignRight | Qt.AlignVCenter, p.fontMetrics().elidedText(self.extra, Qt.ElideRight, int(r.right() - sr.right() - 12)))


class CardsPanel(QSplitter):
    def __init__(self):
        super().__init__(Qt.Vertical)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.body = QWidget()
        self.body.setStyleSheet("background:#efe3c2;")
        self.lay = QVBoxLayout(self.body)
        self.lay.setContentsMargins(14, 10, 14, 10)
        self.scroll.setWidget(self.body)
        self.addWidget(self.scroll)
        rein = QWidget()
        rl = QVBoxLayout(rein)
        rl.setContentsMargins(8, 6, 8, 6)
        self.rein_title = QLabel("<b>Reinforcements and withdrawals (7.0)</b>")
        rl.addWidget(self.rein_title)
        self.table = QTableWidget(0, 6)
        self.table.setHorizontalHeaderLabels(["GT", "Month", "Side", "Units", "Where", "Rule / note"])
        self.table.verticalHeader().setVisible(False)
        self.table.setAlternatingRowColors(True)
        self.table.setEditTriggers(QTableWidget.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(3, QHeaderView.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(5, QHeaderView.Stretch)
        rl.addWidget(self.table)
        self.addWidget(rein)
        self.setSizes([560, 260])
        self._key = None

    def show_state(self, st: GameState) -> None:
        key = (st.scenario, st.gt, repr(st.cards))
        if key == self._key:
            return
        self._key = key
        while self.lay.count():
            it = self.lay.takeAt(0)
            w = it.widget()
            if w is not None:
                w.deleteLater()
            elif it.layout() is not None:
                _clear(it.layout())
        try:
            sc = load_scenario(st.scenario)
        except Exception:  # noqa: BLE001
            sc = None
        cards: dict[str, tuple[str, str, str]] = {}
        if sc is not None:
            for cu in getattr(sc, "cards", []):
                extra = []
                if cu.from_gt:
                    extra.append(f"from GT {cu.from_gt}")
                if cu.reinforcements == "none":
                    extra.append("no units")
                elif cu.reinforcements == "only" and cu.gts:
                    extra.append("GT " + ", ".join(map(str, cu.gts)))
                cards[cu.card] = (cu.status, cu.note, "; ".join(extra))
        for cid, info in st.cards.items():
            status = str(info.get("status", "active")) if isinstance(info, dict) else str(info)
            old = cards.get(cid, ("", "", ""))
            cards[cid] = (status, old[1], old[2])
        source = ("game state (the engine lays out the cards at the start of the game and keeps their status)"
                  if st.cards else "scenario's card line (this game's state holds no card status: a scenario "
                                   "without event cards, or a game begun before the engine kept them)")
        head = QLabel(f"<span style='font-size:13pt;font-weight:700;color:#5b4a2f'>Event cards</span>"
                      f"&nbsp;&nbsp;<span style='color:#8a7a5a'>status from the {source}</span>")
        self.lay.addWidget(head)
        for side, prefix in (("Axis", "AXC"), ("Allied", "ALC")):
            ids = sorted((c for c in cards if c.startswith(prefix)), key=_card_key)
            title = QLabel(f"<b style='color:{theme.SIDE_COLOUR[side]}'>{side} cards</b> ({len(ids)})")
            self.lay.addWidget(title)
            grid = QGridLayout()
            grid.setHorizontalSpacing(10)
            grid.setVerticalSpacing(10)
            for i, cid in enumerate(ids):
                status, note, extra = cards[cid]
                grid.addWidget(CardFace(cid, status, note, extra), i // 6, i % 6)
            if not ids:
                grid.addWidget(QLabel("<i>This scenario uses no cards of this side.</i>"), 0, 0)
            row = QHBoxLayout()
            row.addLayout(grid)
            row.addStretch(1)
            self.lay.addLayout(row)
        self.lay.addStretch(1)
        self._fill_reinforcements(sc, st)

    def _fill_reinforcements(self, sc, st: GameState) -> None:
        rows = []
        if sc is not None:
            for r in getattr(sc, "reinforcements", []):
                gt = r.gt or r.from_gt or r.card_gt or 0
                when = str(r.gt) if r.gt else (f"{r.from_gt}–{r.to_gt or 'end'}" if r.from_gt else (f"card {r.card}" if r.card else "?"))
                names = [counterart.lookup(u).name if counterart.lookup(u) else u for u in r.units]
                units = ", ".join(names) + (f" ×{r.count}" if r.count > 1 else "")
                if r.card and not r.units:
                    units = f"as on card {r.card}"
                note = "; ".join(x for x in (r.rule, r.note, r.condition, "depleted" if r.depleted else "",
                                             "optional" if r.optional else "") if x)
                rows.append((gt, when, r.side, units, r.at or "—", note))
            for w in getattr(sc, "withdrawals", []):
                names = [counterart.lookup(u).name if counterart.lookup(u) else u for u in w.units]
                rows.append((w.gt, str(w.gt), w.side, "Withdraw: " + ", ".join(names), "off the map (7.4)", "; ".join(x for x in (w.rule, w.note) if x)))
        rows.sort(key=lambda r: (r[0], r[2]))
        self.table.setRowCount(len(rows))
        for i, (gt, when, side, units, at, note) in enumerate(rows):
            month = str(calendar.month_of(gt)) if gt else ""
            vals = [when, month, side, units, at, note]
            for j, v in enumerate(vals):
                it = QTableWidgetItem(v)
                if gt == st.gt:
                    it.setBackground(QColor("#ffefb0"))
                elif gt and gt < st.gt:
                    it.setForeground(QColor("#9c9281"))
                if j == 2:
                    it.setForeground(QColor(theme.SIDE_COLOUR.get(side, "#333")).darker(120))
                it.setToolTip(v)
                self.table.setItem(i, j, it)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setSectionResizeMode(3, QHeaderView.Stretch)
        self.rein_title.setText(f"<b>Reinforcements and withdrawals (7.0)</b> — {len(rows)} scheduled; "
                                f"GT {st.gt} highlighted")


def _clear(layout) -> None:
    while layout.count():
        it = layout.takeAt(0)
        if it.widget() is not None:
            it.widget().deleteLater()
        elif it.layout() is not None:
            _clear(it.layout())
