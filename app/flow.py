"""Small layout helpers: a wrapping flow layout and a label that elides instead of widening its parent.

They keep the window within a 1366-pixel laptop screen: a row of cells or buttons wraps onto the next
line instead of setting the window's minimum width to the sum of its items.
"""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel, QLayout, QSizePolicy


class FlowLayout(QLayout):
    """Items laid out left to right, wrapping onto new lines (the Qt "flow layout" example).

    Its minimum width is the widest single item, and it reports height-for-width so the parent grows a
    line taller when the items wrap.
    """

    def __init__(self, parent=None, margin: int = 0, hspacing: int = 6, vspacing: int = 4):
        super().__init__(parent)
        self._items: list = []
        self._h, self._v = hspacing, vspacing
        self.setContentsMargins(QMargins(margin, margin, margin, margin))

    def __del__(self):
        while self.count():
            self.takeAt(0)

    # -- QLayout API
    def addItem(self, item) -> None:  # noqa: N802
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, i: int):  # noqa: N802
        return self._items[i] if 0 <= i < len(self._items) else None

    def takeAt(self, i: int):  # noqa: N802
        if 0 <= i < len(self._items):
            return self._items.pop(i)
        return None

    def expandingDirections(self):  # noqa: N802
        return Qt.Orientations(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        return self._do_layout(QRect(0, 0, width, 0), test=True)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802
        super().setGeometry(rect)
        self._do_layout(rect, test=False)

    def sizeHint(self) -> QSize:  # noqa: N802
        # one line when there is room for it; the window's width decides the wrapping
        w = sum(it.sizeHint().width() for it in self._visible()) + self._h * max(0, len(self._visible()) - 1)
        h = max((it.sizeHint().height() for it in self._visible()), default=0)
        m = self.contentsMargins()
        return QSize(min(w, 900) + m.left() + m.right(), h + m.top() + m.bottom())

    def minimumSize(self) -> QSize:  # noqa: N802
        size = QSize()
        for it in self._visible():
            size = size.expandedTo(it.minimumSize())
        m = self.contentsMargins()
        return size + QSize(m.left() + m.right(), m.top() + m.bottom())

    def _visible(self) -> list:
        return [it for it in self._items if not (it.widget() is not None and it.widget().isHidden())]

    def _do_layout(self, rect: QRect, test: bool) -> int:
        m = self.contentsMargins()
        eff = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, line_h = eff.x(), eff.y(), 0
        for it in self._visible():
            hint = it.sizeHint()
            w = min(hint.width(), max(eff.width(), it.minimumSize().width()))
            nxt = x + w + self._h
            if nxt - self._h > eff.right() + 1 and line_h > 0:
                x, y = eff.x(), y + line_h + self._v
                nxt = x + w + self._h
                line_h = 0
            if not test:
                it.setGeometry(QRect(QPoint(x, y), QSize(w, hint.height())))
            x = nxt
            line_h = max(line_h, hint.height())
        return y + line_h - rect.y() + m.bottom()


class ElidedLabel(QLabel):
    """A one-line label that shows "…" when narrower than its text (full text in the tooltip).

    Its minimum width is ``min_chars`` characters, so a long phase title never widens the window.
    """

    def __init__(self, text: str = "", min_chars: int = 8):
        super().__init__(text)
        self._full = text
        self._min_chars = min_chars
        self.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Fixed)

    def setText(self, text: str) -> None:  # noqa: N802
        self._full = text
        super().setText(text)
        self.updateGeometry()
        self._elide()

    def full_text(self) -> str:
        return self._full

    def text(self) -> str:  # the full text, whatever is on screen
        return self._full

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        fm = QFontMetrics(self.font())
        return QSize(min(fm.horizontalAdvance(self._full), fm.averageCharWidth() * self._min_chars) + 2, fm.height())

    def sizeHint(self) -> QSize:  # noqa: N802
        fm = QFontMetrics(self.font())
        return QSize(fm.horizontalAdvance(self._full) + 4, fm.height())

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        fm = QFontMetrics(self.font())
        shown = fm.elidedText(self._full, Qt.ElideRight, max(10, self.width() - 2))
        QLabel.setText(self, shown)
        if shown != self._full:
            self.setToolTip(self._full)
