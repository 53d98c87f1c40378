"""Counters drawn by the program (no copyrighted art).

A counter face follows the COUNTER DETAILS legend of the rules: nationality
background with its ID ink and unit box colour (2.5), the unit ID on top, the
NATO type symbol in the unit box, and the combat factor – morale – movement
allowance along the bottom.  Reduced units (8.3: one step left of two) carry a
band; status markers (8.0) are drawn as small tabs.  The same painter serves
the map, the stack inspector and the off-map display.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF

from app import theme
from core import names
from core.counters import Counter

#: Status markers shown on a counter: (UnitState attribute or flag, short text, colour, long name, rule).
STATUS_MARKERS: tuple[tuple[str, str, str, str, str], ...] = (
    ("disrupted", "D", "#c0392b", "Disrupted", "8.2"),
    ("ogs", "OGS", "#e67e22", "Out of General Supply", "12.5"),
    ("isolated", "ISO", "#7d3c98", "Isolated", "12.5"),
    ("reserve", "R", "#2e6da4", "Reserve", "13.6"),
    ("emergency", "ES", "#d4ac0d", "Emergency Supply", "12.7"),
    ("untrained", "U", "#7f8c8d", "Untrained", "8.5.2"),
    ("captured", "CAP", "#6e2c00", "Captured supply", "12.2.7"),
)
FLAG_MARKERS: dict[str, tuple[str, str, str]] = {
    "deliberate": ("DB", "#8e44ad", "Deliberate battle"),
    "mobile_battle": ("MB", "#16a085", "Mobile battle"),
    "battle": ("B", "#8e44ad", "Special form of combat"),
    "construction": ("UC", "#a04000", "Under construction"),
    "under_construction": ("UC", "#a04000", "Under construction"),
}


#: the counter data of a unit id (generic counters carry ``#n``): :func:`core.names.counter`
lookup = names.counter


def attr(c: Counter | None, name: str, default=None):
    return getattr(c, name, default) if c is not None else default


# ----------------------------------------------------------------------------- unit type

_NATO_KINDS = {
    "infantry": "infantry", "armor": "armour", "armour": "armour", "armored car": "recon", "armoured car": "recon",
    "anti-tank": "antitank", "artillery": "artillery", "garrison": "garrison", "support": "support",
    "airborne": "airborne", "desert raider": "raider", "engineer": "engineer", "hq": "hq", "air": "air", "fleet": "fleet",
}
_TYPE_KINDS = {
    "flak": "antiair", "motor infantry": "motorised", "recon": "recon", "assault gun": "armour", "kampfgruppe": "support",
    "special forces": "infantry", "support group": "support", "airborne engineer": "engineer", "refit point": "marker",
    "base": "supply", "msu": "supply", "dump": "supply",
}


def unit_type(c: Counter | None) -> str:
    """The NATO symbol to draw, from the counter data's ``nato`` (or ``unit_type``) field."""
    if c is None:
        return "unknown"
    if c.kind in ("air", "fleet", "supply", "marker"):
        return c.kind
    ut = (attr(c, "unit_type") or "").lower()
    if ut in _TYPE_KINDS:
        return _TYPE_KINDS[ut]
    nato = (attr(c, "nato") or "").lower()
    return _NATO_KINDS.get(nato, nato or ut or "unknown")


# ----------------------------------------------------------------------------- painting


@dataclass
class Face:
    uid: str
    side: str
    counter: Counter | None
    steps: int
    status: list[tuple[str, str, str]]   # (short, colour, long name)

    @property
    def max_steps(self) -> int:
        return int(attr(self.counter, "steps", 1) or 1)

    @property
    def reduced(self) -> bool:
        return self.max_steps == 2 and self.steps == 1

    def values(self) -> str:
        """CF–morale–MA as printed on the side showing (8.3), with the CF's letter and parentheses."""
        c = self.counter
        if c is None or c.kind == "marker":
            return ""
        if c.kind == "air":
            return f"{attr(c, 'gs', 0)}-{attr(c, 'bomb', 0)}"
        if c.kind == "fleet":
            return f"{attr(c, 'bomb', 0)}"
        if hasattr(c, "values"):
            cf, morale, ma = c.values(self.steps)
        else:
            cf, morale, ma = c.cf, c.morale, c.ma
        flag = (attr(c, "red_cf_flag") if self.reduced else attr(c, "cf_flag")) or attr(c, "cf_flag") or ""
        cf_text = f"{cf}{flag}"
        if attr(c, "cf_paren"):
            cf_text = f"({cf_text})"
        return f"{cf_text}-{morale}-{ma}"

    def ratings(self) -> tuple[str, str]:
        """Special ratings printed beside the unit box: left (artillery), right (AT, +, H, E)."""
        c = self.counter
        if c is None:
            return "", ""
        art = attr(c, "red_art") if self.reduced and attr(c, "red_art") else attr(c, "art", 0)
        at = attr(c, "red_at") if self.reduced and attr(c, "red_at") else attr(c, "at", 0)
        left = f"{art}" if art else ""
        right = "".join(x for x, on in (("+", attr(c, "hq")), ("H", attr(c, "art_heavy")), ("E", attr(c, "engineer"))) if on)
        if at:
            right = f"{at}" + right
        if c.kind == "air":
            right = (attr(c, "range") or "") + ("N" if attr(c, "naval") else "")
        return left, right

    def title(self) -> str:
        return self.counter.name if self.counter else self.uid


def face_of(unit) -> Face:
    """A Face for a :class:`core.state.UnitState`."""
    c = lookup(unit.id)
    status = [(short, col, name) for key, short, col, name, _ in STATUS_MARKERS if getattr(unit, key, False)]
    for key, val in (unit.flags or {}).items():
        if val and key in FLAG_MARKERS:
            short, col, name = FLAG_MARKERS[key]
            status.append((short, col, name))
    return Face(unit.id, unit.side, c, unit.steps, status)


def tooltip(unit) -> str:
    f = face_of(unit)
    c = f.counter
    lines = [f"<b>{f.title()}</b> <span style='color:#7a5d2a'>({unit.id})</span>"]
    if c is not None:
        st = theme.nation(c.nationality, c.side)
        lines.append(f"{c.side} · {st.name} · {c.kind}{' · ' + c.move_class if c.move_class else ''}")
        if c.kind not in ("supply", "marker"):
            lines.append(f"Printed values (CF-morale-MA): {f.values()}")
        lines.append(f"Steps {unit.steps} of {c.steps}" + (" (reduced, 8.3)" if f.reduced else ""))
        left, right = f.ratings()
        if left or right:
            lines.append(" · ".join(x for x in (f"Artillery {left}" if left else "", f"Special {right}" if right else "") if x))
        if c.source != "rules":
            lines.append(f"<i>values {c.source}: {c.reason}</i>" if c.reason else f"<i>values {c.source}</i>")
    else:
        lines.append(f"{unit.side}")
    if f.status:
        lines.append("Status: " + ", ".join(n for _, _, n in f.status))
    lines.append(f"Location: {unit.loc}")
    return "<br>".join(lines)


def _fit_font(p: QPainter, text: str, width: float, size: float, bold: bool = True, family: str = "DejaVu Sans Condensed") -> QFont:
    f = QFont(family)
    f.setBold(bold)
    f.setPixelSize(max(1, int(size)))
    p.setFont(f)
    w = p.fontMetrics().horizontalAdvance(text)
    if w > width and w > 0:
        f.setPixelSize(max(1, int(size * width / w)))
        p.setFont(f)
    return f


def _draw_fitted(p: QPainter, text: str, box: QRectF, size: float, align=Qt.AlignCenter, min_ratio: float = 0.62) -> None:
    """Draw ``text`` in ``box``: shrunk to fit down to ``min_ratio`` of ``size``, then elided (long names)."""
    f = QFont("DejaVu Sans Condensed")
    f.setBold(True)
    f.setPixelSize(max(1, int(size)))
    p.setFont(f)
    w = p.fontMetrics().horizontalAdvance(text)
    if w > box.width() and w > 0:
        f.setPixelSize(max(1, int(max(size * min_ratio, size * box.width() / w))))
        p.setFont(f)
        if p.fontMetrics().horizontalAdvance(text) > box.width():
            text = p.fontMetrics().elidedText(text, Qt.ElideRight, int(box.width()))
    p.drawText(box, align, text)


def paint_counter(p: QPainter, rect: QRectF, face: Face, *, detail: float = 1.0, selected: bool = False) -> None:
    """Draw one counter face into ``rect`` (a square).  ``detail`` < 0.35 draws a plain chip."""
    c = face.counter
    st = theme.nation(c.nationality if c else "", face.side)
    s = rect.width()
    p.save()
    p.setRenderHint(QPainter.Antialiasing, True)
    # shadow + body
    radius = s * 0.08
    shadow = QRectF(rect).translated(s * 0.04, s * 0.05)
    p.setPen(Qt.NoPen)
    p.setBrush(QColor(0, 0, 0, 70))
    p.drawRoundedRect(shadow, radius, radius)
    p.setBrush(QColor(st.background))
    edge = QColor(theme.SELECTION) if selected else QColor(st.background).darker(170)
    p.setPen(QPen(edge, s * (0.07 if selected else 0.025)))
    p.drawRoundedRect(rect, radius, radius)
    if detail < 0.35:
        p.restore()
        return
    ink = QColor(st.ink)
    inner = rect.adjusted(s * 0.06, s * 0.04, -s * 0.06, -s * 0.04)
    # unit ID along the top
    p.setPen(ink)
    # the title keeps clear of the step pips (top right) and the reduced band (top left)
    lpad = s * 0.22 if face.reduced else 0.0
    rpad = s * 0.2 if face.max_steps == 2 else 0.0
    top = QRectF(inner.left() + lpad, inner.top(), inner.width() - lpad - rpad, s * 0.24)
    _draw_fitted(p, face.title(), top, s * 0.2, Qt.AlignHCenter | Qt.AlignVCenter, min_ratio=0.55)
    # the unit box with the NATO symbol
    kind = unit_type(c)
    box = QRectF(rect.center().x() - s * 0.3, rect.top() + s * 0.3, s * 0.6, s * 0.36)
    if kind in ("air", "fleet"):
        _draw_icon(p, box, kind, ink)
    elif kind == "supply":
        _draw_supply(p, box, ink, QColor(st.box))
    else:
        p.setPen(QPen(ink, max(0.6, s * 0.025)))
        p.setBrush(QColor(st.box))
        p.drawRect(box)
        _draw_nato(p, box, kind, ink)
    left, right = face.ratings()
    if detail >= 0.6 and (left or right):
        p.setPen(ink)
        if left:
            _fit_font(p, left, s * 0.17, s * 0.2)
            p.drawText(QRectF(rect.left() + s * 0.02, box.top(), s * 0.17, box.height()), Qt.AlignCenter, left)
        if right:
            _fit_font(p, right, s * 0.19, s * 0.2)
            p.drawText(QRectF(box.right() + s * 0.005, box.top(), s * 0.19, box.height()), Qt.AlignCenter, right)
    if attr(c, "no_cadre") and detail >= 0.6:
        p.setPen(Qt.NoPen)
        p.setBrush(ink)
        p.drawEllipse(QPointF(rect.left() + s * 0.09, rect.top() + s * 0.14), s * 0.035, s * 0.035)
    # values along the bottom
    vals = face.values()
    if vals and detail >= 0.6:
        p.setPen(ink)
        _draw_fitted(p, vals, QRectF(inner.left(), rect.bottom() - s * 0.33, inner.width(), s * 0.3), s * 0.25, min_ratio=0.5)
    # step pips (top right): filled for every step left
    if face.max_steps == 2:
        for i in range(2):
            r = QRectF(rect.right() - s * (0.15 + 0.1 * i), rect.top() + s * 0.075, s * 0.075, s * 0.075)
            p.setPen(QPen(ink, s * 0.015))
            p.setBrush(ink if i < face.steps else Qt.NoBrush)
            p.drawEllipse(r)
    # reduced side: a band across the upper-left corner (8.3)
    if face.reduced:
        band = QPolygonF([rect.topLeft() + QPointF(0, s * 0.28), rect.topLeft() + QPointF(s * 0.28, 0),
                          rect.topLeft() + QPointF(s * 0.4, 0), rect.topLeft() + QPointF(0, s * 0.4)])
        p.setPen(Qt.NoPen)
        # CW/US two-step units have a different depleted indicator (Counter Details, 17.2)
        p.setBrush(QColor("#ffffff") if attr(c, "narrow_refit") else QColor("#c0392b"))
        p.drawPolygon(band)
    # status markers: tabs down the right edge
    if face.status and detail >= 0.5:
        th = s * 0.2
        for i, (short, col, _name) in enumerate(face.status[:4]):
            tab = QRectF(rect.right() - s * 0.33, rect.top() + s * 0.28 + i * (th + s * 0.02), s * 0.36, th)
            p.setPen(QPen(QColor(0, 0, 0, 120), s * 0.01))
            p.setBrush(QColor(col))
            p.drawRoundedRect(tab, s * 0.03, s * 0.03)
            p.setPen(QColor("#ffffff"))
            _fit_font(p, short, tab.width() - s * 0.04, th * 0.8)
            p.drawText(tab, Qt.AlignCenter, short)
    p.restore()


def _draw_nato(p: QPainter, box: QRectF, kind: str, ink: QColor) -> None:
    w, h = box.width(), box.height()
    pen = QPen(ink, max(0.6, w * 0.045))
    pen.setCapStyle(Qt.RoundCap)
    p.setPen(pen)
    p.setBrush(Qt.NoBrush)
    l, t, r, b = box.left(), box.top(), box.right(), box.bottom()
    cx, cy = box.center().x(), box.center().y()
    if kind in ("infantry", "garrison", "airborne", "mech_infantry", "motorised", "motorized"):
        p.drawLine(QPointF(l, t), QPointF(r, b))
        p.drawLine(QPointF(l, b), QPointF(r, t))
        if kind in ("motorised", "motorized"):
            p.setBrush(ink)
            p.drawEllipse(QPointF(l + w * 0.22, b - h * 0.12), h * 0.07, h * 0.07)
            p.drawEllipse(QPointF(r - w * 0.22, b - h * 0.12), h * 0.07, h * 0.07)
            p.setBrush(Qt.NoBrush)
        if kind == "garrison":
            p.setBrush(ink)
            p.drawRect(QRectF(l, b - h * 0.2, w, h * 0.2))
        if kind == "airborne":
            path = QPainterPath(QPointF(cx - w * 0.25, cy + h * 0.3))
            path.quadTo(QPointF(cx - w * 0.12, cy + h * 0.1), QPointF(cx, cy + h * 0.3))
            path.quadTo(QPointF(cx + w * 0.12, cy + h * 0.1), QPointF(cx + w * 0.25, cy + h * 0.3))
            p.setBrush(Qt.NoBrush)
            p.drawPath(path)
    elif kind == "raider":
        p.drawLine(QPointF(l, b), QPointF(r, t))
        p.drawEllipse(QPointF(cx - w * 0.18, b - h * 0.16), h * 0.09, h * 0.09)
        p.drawEllipse(QPointF(cx + w * 0.18, b - h * 0.16), h * 0.09, h * 0.09)
    elif kind in ("armour", "armor", "tank"):
        p.drawRoundedRect(QRectF(l + w * 0.18, t + h * 0.24, w * 0.64, h * 0.52), h * 0.26, h * 0.26)
    elif kind in ("recon", "armoured_car", "armored_car", "cavalry"):
        p.drawLine(QPointF(l, b), QPointF(r, t))
        p.drawRoundedRect(QRectF(l + w * 0.22, t + h * 0.28, w * 0.56, h * 0.44), h * 0.22, h * 0.22)
    elif kind in ("support", "heavy_weapons"):
        p.drawLine(QPointF(l, t), QPointF(r, b))
        p.drawLine(QPointF(l, b), QPointF(r, t))
        p.setBrush(ink)
        p.drawEllipse(box.center(), h * 0.09, h * 0.09)
    elif kind == "artillery":
        p.setBrush(ink)
        p.drawEllipse(box.center(), h * 0.16, h * 0.16)
    elif kind in ("antitank", "anti_tank"):
        p.drawLine(QPointF(l, b), QPointF(cx, t))
        p.drawLine(QPointF(cx, t), QPointF(r, b))
    elif kind == "antiair":
        path = QPainterPath(QPointF(l + w * 0.1, b))
        path.quadTo(QPointF(cx, t - h * 0.2), QPointF(r - w * 0.1, b))
        p.drawPath(path)
    elif kind == "engineer":
        p.drawLine(QPointF(l + w * 0.25, cy + h * 0.15), QPointF(r - w * 0.25, cy + h * 0.15))
        p.drawLine(QPointF(l + w * 0.25, cy + h * 0.15), QPointF(l + w * 0.25, cy - h * 0.15))
        p.drawLine(QPointF(cx, cy + h * 0.15), QPointF(cx, cy - h * 0.15))
        p.drawLine(QPointF(r - w * 0.25, cy + h * 0.15), QPointF(r - w * 0.25, cy - h * 0.15))
        p.drawLine(QPointF(l + w * 0.25, cy - h * 0.15), QPointF(r - w * 0.25, cy - h * 0.15))
    elif kind == "hq":
        p.setBrush(ink)
        p.drawRect(QRectF(l, t, w * 0.12, h))
        p.setBrush(Qt.NoBrush)
        _fit_font(p, "HQ", w * 0.6, h * 0.55)
        p.drawText(box.adjusted(w * 0.12, 0, 0, 0), Qt.AlignCenter, "HQ")
    # unknown types: the empty unit box says "type not recorded"


def _draw_icon(p: QPainter, box: QRectF, kind: str, ink: QColor) -> None:
    p.setPen(Qt.NoPen)
    p.setBrush(ink)
    cx, cy, w, h = box.center().x(), box.center().y(), box.width(), box.height()
    if kind == "air":
        body = QPolygonF([QPointF(cx, cy - h * 0.5), QPointF(cx + w * 0.05, cy + h * 0.45), QPointF(cx - w * 0.05, cy + h * 0.45)])
        wing = QPolygonF([QPointF(cx - w * 0.48, cy), QPointF(cx + w * 0.48, cy), QPointF(cx + w * 0.48, cy + h * 0.12),
                          QPointF(cx - w * 0.48, cy + h * 0.12)])
        tail = QPolygonF([QPointF(cx - w * 0.18, cy + h * 0.38), QPointF(cx + w * 0.18, cy + h * 0.38),
                          QPointF(cx + w * 0.18, cy + h * 0.46), QPointF(cx - w * 0.18, cy + h * 0.46)])
        for poly in (body, wing, tail):
            p.drawPolygon(poly)
    else:
        hull = QPolygonF([QPointF(cx - w * 0.5, cy), QPointF(cx + w * 0.5, cy), QPointF(cx + w * 0.38, cy + h * 0.3),
                          QPointF(cx - w * 0.42, cy + h * 0.3)])
        p.drawPolygon(hull)
        p.drawRect(QRectF(cx - w * 0.15, cy - h * 0.25, w * 0.3, h * 0.25))
        p.drawRect(QRectF(cx - w * 0.02, cy - h * 0.5, w * 0.04, h * 0.25))


def _draw_supply(p: QPainter, box: QRectF, ink: QColor, fill: QColor) -> None:
    p.setPen(QPen(ink, box.width() * 0.04))
    p.setBrush(fill)
    p.drawEllipse(box.center(), box.height() * 0.5, box.height() * 0.5)
    _fit_font(p, "S", box.height(), box.height() * 0.6)
    p.drawText(box, Qt.AlignCenter, "S")
