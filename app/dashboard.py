"""The campaign dashboard: charts drawn with QPainter (QtCharts is not in PySide6-Essentials).

Steps on the map per side per GT, losses (steps in the Refit and Destroyed
boxes), supply dumps, the end scenario marker's history (``state.es_history``)
and the scenario's victory conditions with the result when the game has ended.
The numbers are counted from the replayed states; nothing here applies a rule.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGridLayout, QLabel, QScrollArea, QSizePolicy, QWidget

from app import counterart, geometry as geo, theme
from core import calendar
from core.scenario import load as load_scenario
from core.state import GameState


class Chart(QWidget):
    """A small line/step chart: series of (x, y) points, GT on the x axis."""

    def __init__(self, title: str, y_label: str, step: bool = False):
        super().__init__()
        self.title, self.y_label, self.step = title, y_label, step
        self.series: list[tuple[str, str, list[tuple[float, float]]]] = []
        self.marks: list[tuple[float, str]] = []
        self.setMinimumSize(420, 240)
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)

    def set_series(self, series, marks=None) -> None:
        self.series = series
        self.marks = marks or []
        tips = [self.title]
        for name, _c, pts in series:
            if pts:
                tips.append(f"{name}: " + ", ".join(f"GT {int(x)}: {y:g}" for x, y in pts[-8:]))
        self.setToolTip("\n".join(tips))
        self.update()

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing, True)
        r = QRectF(self.rect()).adjusted(4, 4, -4, -4)
        p.setPen(QPen(QColor("#d8c8a0"), 1))
        p.setBrush(QColor("#fffdf6"))
        p.drawRoundedRect(r, 8, 8)
        tf = QFont("DejaVu Serif")
        tf.setPixelSize(14)
        tf.setBold(True)
        p.setFont(tf)
        p.setPen(QColor(theme.LABEL_INK))
        # the legend goes under the title when both do not fit on one line (issue 19: titles were overdrawn)
        lf = QFont("DejaVu Sans")
        lf.setPixelSize(10)
        legend_w = sum(QFontMetrics(lf).horizontalAdvance(n) + 22 for n, _c, pts in self.series if pts)
        title = QFontMetrics(tf).elidedText(self.title, Qt.ElideRight, int(r.width() - 24))
        legend_dy = 18 if QFontMetrics(tf).horizontalAdvance(title) + legend_w + 36 > r.width() else 0
        p.drawText(r.adjusted(12, 8, -12, 0), Qt.AlignLeft | Qt.AlignTop, title)
        plot = r.adjusted(52, 40 + legend_dy, -18, -44)
        pts_all = [pt for _n, _c, pts in self.series for pt in pts]
        small = QFont("DejaVu Sans")
        small.setPixelSize(10)
        p.setFont(small)
        if not pts_all:
            p.setPen(QColor("#9c9281"))
            p.drawText(plot, Qt.AlignCenter, "No data yet")
            return
        xs = [x for x, _ in pts_all] + [m for m, _ in self.marks]
        ys = [y for _, y in pts_all]
        x0, x1 = min(xs), max(xs)
        if x1 - x0 < 4:
            x1 = x0 + 4
        y0, y1 = 0.0, max(ys) if max(ys) > 0 else 1.0
        y1 = _nice(y1 * 1.1)

        def X(x: float) -> float:
            return plot.left() + (x - x0) / (x1 - x0) * plot.width()

        def Y(y: float) -> float:
            return plot.bottom() - (y - y0) / (y1 - y0) * plot.height()

        # grid
        for i in range(5):
            yv = y0 + (y1 - y0) * i / 4
            yy = Y(yv)
            p.setPen(QPen(QColor("#eee3c8"), 1))
            p.drawLine(QPointF(plot.left(), yy), QPointF(plot.right(), yy))
            p.setPen(QColor("#7a6a4a"))
            p.drawText(QRectF(plot.left() - 48, yy - 8, 42, 16), Qt.AlignRight | Qt.AlignVCenter, f"{yv:g}")
        stepx = max(1, int((x1 - x0) / 10) or 1)
        gt = int(x0)
        while gt <= x1:
            xx = X(gt)
            p.setPen(QPen(QColor("#eee3c8"), 1))
            p.drawLine(QPointF(xx, plot.top()), QPointF(xx, plot.bottom()))
            p.setPen(QColor("#7a6a4a"))
            m = calendar.month_of(gt)
            p.drawText(QRectF(xx - 30, plot.bottom() + 4, 60, 14), Qt.AlignCenter, f"GT {gt}")
            p.setPen(QColor("#a89a7a"))
            p.drawText(QRectF(xx - 30, plot.bottom() + 17, 60, 14), Qt.AlignCenter, f"{m.name[:3]} {str(m.year)[2:]}")
            gt += stepx
        p.setPen(QPen(QColor("#8a7450"), 1.2))
        p.drawLine(plot.bottomLeft(), plot.bottomRight())
        p.drawLine(plot.bottomLeft(), plot.topLeft())
        for mx, text in self.marks:
            p.setPen(QPen(QColor("#a0301d"), 1.2, Qt.DashLine))
            p.drawLine(QPointF(X(mx), plot.top()), QPointF(X(mx), plot.bottom()))
            p.setPen(QColor("#a0301d"))
            p.drawText(QRectF(X(mx) - 60, plot.top() - 16, 120, 14), Qt.AlignCenter, text)
        # series
        legend_x = r.right() - 12
        for name, colour, pts in reversed(self.series):
            if not pts:
                continue
            path = QPainterPath(QPointF(X(pts[0][0]), Y(pts[0][1])))
            for (xa, ya), (xb, yb) in zip(pts, pts[1:]):
                if self.step:
                    path.lineTo(X(xb), Y(ya))
                path.lineTo(X(xb), Y(yb))
            p.setPen(QPen(QColor(colour), 2.6, Qt.SolidLine, Qt.RoundCap, Qt.RoundJoin))
            p.setBrush(Qt.NoBrush)
            p.drawPath(path)
            p.setBrush(QColor(colour))
            p.setPen(QPen(QColor("#ffffff"), 1.2))
            for x, y in pts:
                p.drawEllipse(QPointF(X(x), Y(y)), 3.6, 3.6)
            fm = p.fontMetrics()
            w = fm.horizontalAdvance(name) + 22
            legend_x -= w
            p.setPen(Qt.NoPen)
            p.setBrush(QColor(colour))
            p.drawRoundedRect(QRectF(legend_x, r.top() + 13 + legend_dy, 12, 8), 2, 2)
            p.setPen(QColor("#3b3325"))
            p.drawText(QRectF(legend_x + 15, r.top() + 9 + legend_dy, w, 16), Qt.AlignLeft | Qt.AlignVCenter, name)
        p.setPen(QColor("#7a6a4a"))
        p.save()
        p.translate(r.left() + 12, plot.center().y())
        p.rotate(-90)
        p.drawText(QRectF(-80, -8, 160, 16), Qt.AlignCenter, self.y_label)
        p.restore()


def _nice(v: float) -> float:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if v <= step * 4:
            return float(step * 4)
    return float(int(v) + 1)


def steps_on_map(st: GameState, side: str) -> int:
    return sum(u.steps for u in st.units.values() if u.side == side and geo.rec_of(u.loc) is not None
               and (counterart.lookup(u.id) is None or counterart.lookup(u.id).kind == "combat"))


def steps_lost(st: GameState, side: str) -> int:
    n = 0
    for u in st.units.values():
        if u.side == side and u.loc.lower().startswith(("box:refit", "box:destroyed")):
            c = counterart.lookup(u.id)
            n += c.steps if c is not None else 1
    return n


def dumps(st: GameState, side: str) -> int:
    n = 0
    for u in st.units.values():
        c = counterart.lookup(u.id)
        if u.side == side and c is not None and (getattr(c, "unit_type", "") == "dump") and geo.rec_of(u.loc) is not None:
            n += 1
    return n


class Dashboard(QScrollArea):
    def __init__(self):
        super().__init__()
        self.setWidgetResizable(True)
        body = QWidget()
        body.setStyleSheet("background:#efe3c2;")
        g = QGridLayout(body)
        g.setContentsMargins(12, 12, 12, 12)
        g.setSpacing(12)
        self.c_steps = Chart("Steps on the map", "steps")
        self.c_losses = Chart("Losses: steps in Refit and Destroyed boxes", "steps")
        self.c_dumps = Chart("Supply dumps on the map", "dumps")
        self.c_end = Chart("End scenario marker", "ends after GT", step=True)
        self.victory = QLabel("")
        self.victory.setWordWrap(True)
        self.victory.setTextFormat(Qt.RichText)
        self.victory.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        self.victory.setStyleSheet("background:#fffdf6; border:1px solid #d8c8a0; border-radius:8px; padding:10px;")
        g.addWidget(self.c_steps, 0, 0)
        g.addWidget(self.c_losses, 0, 1)
        g.addWidget(self.c_end, 1, 0)
        g.addWidget(self.c_dumps, 1, 1)
        g.addWidget(self.victory, 2, 0, 1, 2)
        self.setWidget(body)
        self._key = None

    def show_game(self, ctl) -> None:
        st = ctl.state()
        if st is None:
            return
        key = (len(ctl.log()), ctl.replay_index)
        if key == self._key:
            return
        self._key = key
        states = ctl.states_by_gt()
        if ctl.replay_index is not None:
            states = {gt: s for gt, s in states.items() if gt <= st.gt}
            states[st.gt] = st
        gts = sorted(states)
        ax, al = theme.SIDE_COLOUR["Axis"], "#b0701e"
        self.c_steps.set_series([
            ("Axis", ax, [(g, steps_on_map(states[g], "Axis")) for g in gts]),
            ("Allied", al, [(g, steps_on_map(states[g], "Allied")) for g in gts]),
        ])
        self.c_losses.set_series([
            ("Axis", ax, [(g, steps_lost(states[g], "Axis")) for g in gts]),
            ("Allied", al, [(g, steps_lost(states[g], "Allied")) for g in gts]),
        ])
        self.c_dumps.set_series([
            ("Axis", ax, [(g, dumps(states[g], "Axis")) for g in gts]),
            ("Allied", al, [(g, dumps(states[g], "Allied")) for g in gts]),
        ])
        # end scenario marker: its starting box, then every recorded move
        try:
            sc = load_scenario(st.scenario)
            start_end, start_gt = sc.end_gt, sc.start_gt
        except Exception:  # noqa: BLE001
            sc, start_end, start_gt = None, st.end_gt, gts[0] if gts else st.gt
        pts = [(float(start_gt), float(start_end))]
        for h in st.es_history:
            pts.append((float(h.get("gt", st.gt)), float(h.get("to", st.end_gt))))
        pts.append((float(st.gt), float(st.end_gt)))
        self.c_end.set_series([("End marker", "#a0301d", pts)], marks=[(float(st.gt), "now")])
        tips = [f"GT {h.get('gt')}: GT {h.get('from')} → GT {h.get('to')} ({h.get('reason')}, {h.get('rule')})" for h in st.es_history]
        self.c_end.setToolTip("\n".join(["End scenario marker moves (4.0)"] + (tips or ["no moves yet"])))
        self.victory.setText(victory_html(sc, st))


def victory_html(sc, st: GameState) -> str:
    parts = ["<span style='font-size:13pt;font-weight:700;color:#5b4a2f'>Victory conditions</span>"]
    if st.result:
        res = st.result
        parts.append(f"<p style='background:#ffefb0;padding:6px'><b>Result:</b> {html.escape(str(res.get('text', '')))}"
                     f" (winner: {html.escape(str(res.get('winner') or 'none'))}, level: {html.escape(str(res.get('level', '')))})</p>")
    else:
        parts.append(f"<p>In play — GT {st.gt} of {st.end_gt} (the end scenario marker's box).</p>")
    if sc is not None and getattr(sc, "victory", None):
        parts.append("<table cellspacing=0 cellpadding=4 width='100%'>")
        for v in sc.victory:
            col = theme.SIDE_COLOUR.get(v.side, "#6d6a60")
            parts.append(f"<tr><td><b style='color:{col}'>{html.escape(v.side)}</b></td><td>{html.escape(v.level)}</td>"
                         f"<td>{html.escape(v.when)}</td><td>{html.escape(v.text or v.kind)}</td>"
                         f"<td style='color:#8a7a5a'>{html.escape(v.rule)}</td></tr>")
        parts.append("</table>")
        parts.append("<p style='color:#8a7a5a'>Whether a condition holds is evaluated by the rules engine at the "
                     "Victory Check and Turn Marker Phases (4.1 XIX, XX).</p>")
    return "".join(parts)
