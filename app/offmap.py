"""The off-map display: Turn Record Track, holding boxes and tracks (22.0, Map D).

Units whose ``loc`` is ``box:...``, ``track:...`` or ``card:...`` (or ``setup``,
waiting for their owner to set them up, 3.1) are drawn in the box of that
name.  Box names are matched loosely (case, spaces and punctuation ignored);
a location the layout does not know gets a box of its own under "Other", so a
unit is never hidden.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from typing import Callable

from PySide6.QtCore import QMimeData, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QDrag, QFont, QFontMetrics, QLinearGradient, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QApplication, QScrollArea, QWidget

from app import counterart, theme
from core import calendar
from core.names import GROUPS, SHIPPING_PREFIXES, BoxDef, Group, norm, shipping_title  # noqa: F401 - the boxes' titles: core.names
from core.state import GameState


def port_box_badges(st: GameState | None) -> dict[str, tuple[str, str | None]]:
    """Map badges: a port hex whose port boxes hold units (20.1) shows how many, e.g. ``port boxes: 2``."""
    n: dict[str, int] = {}
    for u in (st.units.values() if st is not None else ()):
        if u.loc.startswith("box:PortBoxes:"):
            lab = u.loc.split(":", 2)[2]
            n[lab] = n.get(lab, 0) + 1
    return {lab: (f"port boxes: {k}", "#1f4e79") for lab, k in n.items() if lab[:1].isalpha() and lab[1:].isdigit()}


TRT_LAST = 40
CELL = 50
UNIT_MIME = "application/x-dfd-unit"     # a dragged counter: the unit id


def unit_mime(uid: str) -> QMimeData:
    m = QMimeData()
    m.setData(UNIT_MIME, uid.encode("utf-8"))
    m.setText(uid)
    return m


def dragged_unit(mime: QMimeData) -> str:
    return bytes(mime.data(UNIT_MIME)).decode("utf-8") if mime.hasFormat(UNIT_MIME) else ""


@dataclass
class Placed:
    box: BoxDef
    rect: QRectF
    units: list = field(default_factory=list)


class OffMapCanvas(QWidget):
    """The boxes and tracks; counters can be dragged onto a box (here) or a map hex (the map tab).

    A drop is handed to ``drop_handler(unit, target)`` (the window), which sends the pending decision's
    matching option; it returns False when there is none — the counter then stays where it was (the
    window shows why).
    """

    boxClicked = Signal(str)

    def __init__(self):
        super().__init__()
        self.state: GameState | None = None
        self.placed: list[Placed] = []
        self.trt_rects: dict[int, QRectF] = {}
        self.setMouseTracking(True)
        self.setMinimumWidth(760)
        self.setAcceptDrops(True)
        self._key = None
        self.drop_handler: Callable[[str, str], bool] | None = None
        self.draggable: Callable[[str], bool] = lambda uid: True
        self.drop_box: str = ""                  # the box under a drag, highlighted
        # uid -> {box id: caption}: fixed destinations of the dragged counter's action (the NRV for an Allied
        # refit, 17.2, 22.1), highlighted for the whole drag like the primary base hex on the map
        self.drop_targets: Callable[[str], dict[str, str]] = lambda uid: {}
        self.target_boxes: dict[str, str] = {}
        self._press: tuple[QPointF, str] | None = None
        self.last_drag: QDrag | None = None

    # -------------------------------------------------------------- layout
    def _assign(self, st: GameState) -> tuple[dict[str, list], dict[int, list], dict[str, list]]:
        known: dict[str, str] = {}
        for g in GROUPS:
            for b in g.boxes:
                known[norm(b.id)] = b.id
                for a in b.aliases:
                    known[norm(a)] = b.id
        in_box: dict[str, list] = {}
        on_trt: dict[int, list] = {}
        other: dict[str, list] = {}
        for u in sorted(st.units.values(), key=lambda u: u.id):
            loc = u.loc
            m = re.match(r"^(track|box):(trt|turnrecord|turn)[:\-_]?(\d+)$", loc, re.I)
            if m:
                on_trt.setdefault(int(m.group(3)), []).append(u)
                continue
            if u.training_box:
                other.setdefault(f"track:Training:T{u.training_box}", []).append(u)
                continue
            if loc == "setup":
                other.setdefault("setup", []).append(u)
                continue
            if not loc.startswith(("box:", "track:", "card:")):
                continue
            bid = known.get(norm(loc))
            if bid is None:
                # "box:Refit:Axis:2" style sub-locations fold into their parent box when it is known
                parts = loc.split(":")
                for k in range(len(parts) - 1, 1, -1):
                    bid = known.get(norm(":".join(parts[:k])))
                    if bid:
                        break
            if bid is None:
                other.setdefault(loc, []).append(u)
            else:
                in_box.setdefault(bid, []).append(u)
        return in_box, on_trt, other

    def set_state(self, st: GameState) -> None:
        self.state = st
        in_box, on_trt, other = self._assign(st)
        self.on_trt = on_trt
        W = max(self.width(), 760)          # never wider than the tab: the whole track, END marker included, in view
        margin, gap = 16.0, 10.0
        y = 14.0
        # Turn Record Track: rows of 20 boxes (10 when the tab is narrow), each wide enough for its GT and month
        self.trt_rects = {}
        cols = 20 if W >= 1500 else 10
        bw = (W - 2 * margin - (cols - 1) * 4) / cols
        bh = 62.0
        y += 24
        for gt in range(1, TRT_LAST + 1):
            r, c = divmod(gt - 1, cols)
            self.trt_rects[gt] = QRectF(margin + c * (bw + 4), y + r * (bh + 4), bw, bh)
        y += -(-TRT_LAST // cols) * (bh + 4) + 18
        self.placed = []
        self.group_titles: list[tuple[str, QRectF]] = []
        extra_groups = []
        training = {k: v for k, v in other.items() if k.startswith("track:Training")}
        setup = other.pop("setup", [])
        for k in training:
            other.pop(k)
        if setup:
            extra_groups.append(Group("Waiting to be set up (3.1)", [BoxDef("setup", "Units to set up", "3.1")], 1))
            in_box["setup"] = setup
        tboxes = [BoxDef(f"track:Training:T{i}", f"Training T{i}", "8.5") for i in range(1, 5)]
        extra = sorted({int(k.rsplit("T", 1)[1]) for k in training} - {1, 2, 3, 4})
        tboxes += [BoxDef(f"track:Training:T{i}", f"Training T{i}", "8.5") for i in extra]
        in_box.update(training)
        cards = {k: v for k, v in other.items() if k.startswith("card:")}
        ship = {k: v for k, v in other.items() if k.startswith(SHIPPING_PREFIXES)}
        rest = {k: v for k, v in other.items() if not k.startswith("card:") and k not in ship}
        groups = extra_groups + GROUPS[:1] + [Group("Training Track (8.5)", tboxes, max(4, len(tboxes)))] + GROUPS[1:]
        if cards:
            groups.append(Group("On event cards (5.0)", [BoxDef(k, k.split(":", 1)[1], "5.0") for k in cards], 6))
            in_box.update(cards)
        if ship:
            groups.append(Group("Shipping: at sea and in port boxes (20.1, 20.2, 20.3)",
                                [BoxDef(k, shipping_title(k), "20.1" if k.startswith("box:PortBoxes:") else "20.2")
                                 for k in sorted(ship)], 5))
            in_box.update(ship)
        if rest:
            groups.append(Group("Other locations", [BoxDef(k, k, "") for k in rest], 5))
            in_box.update(rest)
        for g in groups:
            cols = max(1, g.columns)
            bw = (W - 2 * margin - (cols - 1) * gap) / cols
            self.group_titles.append((g.title, QRectF(margin, y, W - 2 * margin, 20)))
            y += 24
            row_h = 0.0
            for i, b in enumerate(g.boxes):
                c = i % cols
                if c == 0 and i:
                    y += row_h + gap
                    row_h = 0.0
                units = in_box.get(b.id, [])
                per_row = max(1, int((bw - 12) // CELL))
                rows = max(1, -(-len(units) // per_row))
                h = 30 + rows * CELL + 6
                row_h = max(row_h, h)
                self.placed.append(Placed(b, QRectF(margin + c * (bw + gap), y, bw, h), units))
            # normalise the heights of a row
            y += row_h + 16
        self.setMinimumHeight(int(y + 10))
        self.update()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        if self.state is not None and abs(event.oldSize().width() - event.size().width()) > 2:
            self.set_state(self.state)

    # -------------------------------------------------------------- paint
    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing, True)
        grad = QLinearGradient(0, 0, 0, self.height())
        grad.setColorAt(0, QColor("#efe3c2"))
        grad.setColorAt(1, QColor("#e4d3a8"))
        p.fillRect(self.rect(), grad)
        st = self.state
        if st is None:
            return
        title_font = QFont("DejaVu Serif")
        title_font.setPixelSize(15)
        title_font.setBold(True)
        small = QFont("DejaVu Sans Condensed")
        small.setPixelSize(11)
        # Turn Record Track
        p.setFont(title_font)
        p.setPen(QColor(theme.LABEL_INK))
        first = min(self.trt_rects.values(), key=lambda r: (r.top(), r.left()))
        p.drawText(QRectF(first.left(), first.top() - 24, 600, 20), Qt.AlignLeft | Qt.AlignVCenter, "Turn Record Track (4.0)")
        for gt, r in self.trt_rects.items():
            past = gt < st.gt
            winter = calendar.is_winter(gt)
            fill = QColor("#e9edf2" if winter else "#fbf6e8")
            if past:
                fill = fill.darker(108)
            p.setPen(QPen(QColor("#8a7450"), 1.2))
            p.setBrush(fill)
            p.drawRoundedRect(r, 4, 4)
            m = calendar.month_of(gt)
            p.setFont(small)
            p.setPen(QColor("#5b4a2f"))
            bold = QFont(small)
            bold.setBold(True)
            p.setFont(bold)
            p.drawText(r.adjusted(4, 2, -4, 0), Qt.AlignLeft | Qt.AlignTop, str(gt))
            p.setFont(small)
            p.setPen(QColor("#8a7a5a"))
            # the month on its own line under the GT number: the two never collide (issue 19)
            p.drawText(r.adjusted(4, 16, -4, 0), Qt.AlignLeft | Qt.AlignTop, f"{m.name[:3]} {str(m.year)[2:]}")
            chips = []
            if gt == st.gt:
                chips.append(("GT", "#f4c430", "#2a2722"))
            if gt == st.end_gt:
                chips.append(("END", "#a0301d", "#ffffff"))
            for i, (txt, bg, fg) in enumerate(chips):
                cr = QRectF(r.left() + 4 + i * (r.width() / 2 - 2), r.bottom() - 26, r.width() / 2 - 6, 22)
                p.setPen(QPen(QColor(0, 0, 0, 90), 1))
                p.setBrush(QColor(bg))
                p.drawRoundedRect(cr, 3, 3)
                f = QFont("DejaVu Sans Condensed")
                f.setPixelSize(10)
                f.setBold(True)
                p.setFont(f)
                p.setPen(QColor(fg))
                p.drawText(cr, Qt.AlignCenter, txt)
            units = self.on_trt.get(gt, [])
            for i, u in enumerate(units[:3]):
                s = 18.0
                counterart.paint_counter(p, QRectF(r.right() - 4 - s - i * 6, r.top() + 18 + i * 3, s, s),
                                         counterart.face_of(u), detail=0.2)
        # groups
        for title, r in self.group_titles:
            p.setFont(title_font)
            p.setPen(QColor(theme.LABEL_INK))
            p.drawText(r, Qt.AlignLeft | Qt.AlignVCenter, title)
            p.setPen(QPen(QColor("#b49c6c"), 1))
            fm = p.fontMetrics()
            x0 = r.left() + fm.horizontalAdvance(title) + 10
            p.drawLine(QPointF(x0, r.center().y()), QPointF(r.right(), r.center().y()))
        for pl in self.placed:
            r = pl.rect
            p.setPen(QPen(QColor("#8a7450"), 1.3))
            p.setBrush(QColor(pl.box.tint))
            p.drawRoundedRect(r, 6, 6)
            f, small = heading_fonts()
            p.setFont(f)
            p.setPen(QColor("#3b3325"))
            # the rule number sits at the right; a long title is elided before it (the tooltip has it whole)
            shown, title_rect, _rule_rect = self.box_heading(pl, f, small)
            p.drawText(title_rect, Qt.AlignLeft | Qt.AlignTop, shown)
            if pl.box.rule:
                p.setFont(small)
                p.setPen(QColor("#8a7a5a"))
                p.drawText(r.adjusted(8, 5, -8, 0), Qt.AlignRight | Qt.AlignTop, pl.box.rule)
            if pl.box.id == self.drop_box or pl.box.id in self.target_boxes:
                p.setPen(QPen(QColor(theme.HIGHLIGHT_EDGE), 3))
                p.setBrush(QColor(255, 217, 102, 70))
                p.drawRoundedRect(r.adjusted(1.5, 1.5, -1.5, -1.5), 6, 6)
            if self.target_boxes.get(pl.box.id):
                p.setFont(small)
                p.setPen(QColor(theme.LABEL_INK))
                p.drawText(r.adjusted(8, 0, -8, -4), Qt.AlignRight | Qt.AlignBottom, self.target_boxes[pl.box.id])
            for i, u in enumerate(pl.units):
                counterart.paint_counter(p, self.counter_rect(pl, i), counterart.face_of(u), detail=1.0)
            if not pl.units:
                p.setFont(small)
                p.setPen(QColor("#b0a283"))
                p.drawText(r.adjusted(8, 22, -8, -4), Qt.AlignLeft | Qt.AlignVCenter, "empty")

    @staticmethod
    def box_heading(pl: "Placed", title_font: QFont, rule_font: QFont) -> tuple[str, QRectF, QRectF]:
        """A box's heading: the title as drawn (elided to leave room for the rule number), its rect, and the
        rule number's rect at the right — they never overlap."""
        r = pl.rect
        rfm = QFontMetrics(rule_font)
        rule_w = rfm.horizontalAdvance(pl.box.rule) if pl.box.rule else 0
        rule_rect = QRectF(r.right() - 8 - rule_w, r.top() + 5, rule_w, 16)
        title_w = max(20.0, r.width() - 16 - (rule_w + 8 if rule_w else 0))
        shown = QFontMetrics(title_font).elidedText(pl.box.title, Qt.ElideRight, int(title_w))
        return shown, QRectF(r.left() + 8, r.top() + 4, title_w, 18), rule_rect

    def box_at(self, pt: QPointF) -> Placed | None:
        for pl in self.placed:
            if pl.rect.contains(pt):
                return pl
        return None

    @staticmethod
    def counter_rect(pl: Placed, i: int) -> QRectF:
        r = pl.rect
        per_row = max(1, int((r.width() - 12) // CELL))
        row, col = divmod(i, per_row)
        return QRectF(r.left() + 8 + col * CELL, r.top() + 26 + row * CELL, CELL - 5, CELL - 5)

    def unit_at(self, pt: QPointF) -> str:
        pl = self.box_at(pt)
        if pl is not None:
            for i, u in enumerate(pl.units):
                if self.counter_rect(pl, i).contains(pt):
                    return u.id
        return ""

    def unit_pos(self, uid: str) -> QPointF | None:
        """The centre of a unit's counter in this canvas (tests, drag feedback)."""
        for pl in self.placed:
            for i, u in enumerate(pl.units):
                if u.id == uid:
                    return self.counter_rect(pl, i).center()
        return None

    # -------------------------------------------------------------- drag and drop
    def mousePressEvent(self, event) -> None:  # noqa: N802
        pt = event.position()
        uid = self.unit_at(pt) if event.button() == Qt.LeftButton else ""
        self._press = (pt, uid) if uid else None
        pl = self.box_at(pt)
        if pl is not None:
            self.boxClicked.emit(pl.box.id)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        self._press = None

    def start_drag(self, uid: str) -> Qt.DropAction:
        """Drag ``uid``'s counter; returns Qt.MoveAction when a drop sent an option, else Qt.IgnoreAction."""
        st = self.state
        if st is None or uid not in st.units:
            return Qt.IgnoreAction
        drag = QDrag(self)
        drag.setMimeData(unit_mime(uid))
        pm = QPixmap(CELL, CELL)
        pm.fill(Qt.transparent)
        p = QPainter(pm)
        p.setRenderHint(QPainter.Antialiasing, True)
        counterart.paint_counter(p, QRectF(2, 2, CELL - 5, CELL - 5), counterart.face_of(st.units[uid]), detail=1.0)
        p.end()
        drag.setPixmap(pm)
        drag.setHotSpot(pm.rect().center())
        self.last_drag = drag
        return self._exec(drag)

    def _exec(self, drag: QDrag) -> Qt.DropAction:
        return drag.exec(Qt.MoveAction)

    def _drag_target(self, event) -> str:
        if not dragged_unit(event.mimeData()):
            return ""
        pl = self.box_at(event.position())
        return pl.box.id if pl is not None else ""

    def _show_targets(self, uid: str) -> None:
        targets = dict(self.drop_targets(uid)) if uid else {}
        if targets != self.target_boxes:
            self.target_boxes = targets
            self.update()

    def dragEnterEvent(self, event) -> None:  # noqa: N802
        uid = dragged_unit(event.mimeData())
        self._show_targets(uid)
        if uid:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:  # noqa: N802
        box = self._drag_target(event)
        if box != self.drop_box:
            self.drop_box = box
            self.update()
        if box:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragLeaveEvent(self, event) -> None:  # noqa: N802
        self.drop_box = ""
        self._show_targets("")
        self.update()

    def dropEvent(self, event) -> None:  # noqa: N802
        box = self._drag_target(event)
        uid = dragged_unit(event.mimeData())
        self.drop_box = ""
        self._show_targets("")
        self.update()
        if box and self.drop_handler is not None and self.drop_handler(uid, box):
            event.setDropAction(Qt.MoveAction)
            event.accept()
        else:
            event.ignore()             # the counter stays in its box (the window said why)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if self._press is not None and event.buttons() & Qt.LeftButton:
            if (event.position() - self._press[0]).manhattanLength() >= QApplication.startDragDistance():
                uid = self._press[1]
                self._press = None
                if self.draggable(uid):
                    self.start_drag(uid)
                return
        pl = self.box_at(event.position())
        if pl is None:
            for gt, r in self.trt_rects.items():
                if r.contains(event.position()):
                    m = calendar.month_of(gt)
                    extra = []
                    if self.state and gt == self.state.gt:
                        extra.append("current GT")
                    if self.state and gt == self.state.end_gt:
                        extra.append("end scenario marker (4.0)")
                    self.setToolTip(f"GT {gt}: {m}" + (f" — {', '.join(extra)}" if extra else ""))
                    return
            self.setToolTip("")
            return
        tip = f"<b>{pl.box.title}</b> ({pl.box.rule or pl.box.id})<br>{len(pl.units)} unit(s)"
        uid = self.unit_at(event.position())
        if uid and self.draggable(uid):
            tip += f"<br><i>Drag {uid} to a highlighted hex or box to answer the prompt</i>"
        if pl.units:
            tip += "<br>" + ", ".join(counterart.face_of(u).title() for u in pl.units[:20])
        self.setToolTip(tip)


def heading_fonts() -> tuple[QFont, QFont]:
    """The fonts of a box's title and of its rule number."""
    f = QFont("DejaVu Sans")
    f.setPixelSize(12)
    f.setBold(True)
    small = QFont("DejaVu Sans Condensed")
    small.setPixelSize(11)
    return f, small


class OffMapDisplay(QScrollArea):
    boxClicked = Signal(str)

    def __init__(self):
        super().__init__()
        self.canvas = OffMapCanvas()
        self.canvas.boxClicked.connect(self.boxClicked)
        self.setWidget(self.canvas)
        self.setWidgetResizable(True)
        self._shown: bytes | None = None

    def stale_for(self, st: GameState) -> bool:
        return False

    def show_state(self, st: GameState) -> None:
        key = st.encode()
        if key == self._shown:
            return
        self._shown = key
        self.canvas.set_state(st)

    def title_of(self, box: str) -> str:
        for pl in self.canvas.placed:
            if pl.box.id == box:
                return pl.box.title
        return box
