"""The phase bar, the prompt bar, the stack inspector and the game log with replay."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QKeySequence, QPainter
from PySide6.QtWidgets import (
    QComboBox, QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QSizePolicy, QSlider, QStyle, QToolButton,
    QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget,
)

from app import counterart, theme
from app.flow import ElidedLabel, FlowLayout
from app.names import humanize, kinds_text
from core import calendar, sequence
from core.decisions import EITHER, Decision
from core.state import GameState


# ============================================================================ phase bar


class _Cell(QWidget):
    def __init__(self, caption: str, tip: str, role: str = "value"):
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 2, 8, 2)
        lay.setSpacing(0)
        self.cap = QLabel(caption.upper())
        self.cap.setProperty("role", "caption")
        self.val = ElidedLabel("—", min_chars=10)
        self.val.setProperty("role", role)
        self.setObjectName("PhaseCell")
        lay.addWidget(self.cap)
        lay.addWidget(self.val)
        self.setToolTip(tip)

    def set(self, text: str, tip: str | None = None) -> None:
        self.val.setText(text)
        if tip:
            self.setToolTip(tip)


class PhaseBar(QFrame):
    """GT, month and year, impulse, phase and step, initiative, 1st player, surprise, air superiority, weather."""

    def __init__(self):
        super().__init__()
        self.setObjectName("PhaseBar")
        # the cells wrap onto a second line on a narrow window (and long values elide) instead of
        # widening the window beyond a laptop screen
        lay = FlowLayout(self, margin=0, hspacing=0, vspacing=0)
        lay.setContentsMargins(6, 2, 6, 2)
        self.gt = _Cell("Game turn", "The Game Turn (4.0: each GT is one month)", role="gt")
        self.month = _Cell("Month", "The calendar month of this GT (GT 1 = June 1940)")
        self.impulse = _Cell("Impulse", "The impulse of the GT (4.1: six impulses of twenty phases)")
        self.phase = _Cell("Phase · step", "The phase and step of the sequence of play (4.1)")
        self.initiative = _Cell("Initiative", "The side holding the initiative (6.1); until Phase V it is last GT's holder")
        self.first = _Cell("1st player", "The 1st player of this GT (6.1)")
        self.surprise = _Cell("Surprise", "Surprise (6.2) lasts this GT only")
        self.air = _Cell("Air superiority", "The side with air superiority and its margin (19.2)")
        self.weather = _Cell("Weather", "Winter months (21.1) and Ghibli (6.3)")
        self.end = _Cell("End marker", "The end scenario marker's box on the Turn Record Track (4.0)")
        self.cells = [self.gt, self.month, self.impulse, self.phase, self.initiative, self.first, self.surprise,
                      self.air, self.weather, self.end]
        for c in self.cells:
            c.setStyleSheet("#PhaseCell { border-right: 1px solid #6b604c; }")
            lay.addWidget(c)
        self.phase.val._min_chars = 22
        self.scenario_cell = _Cell("Scenario", "The scenario being played (its rules section)")
        self.scenario_cell.val.setStyleSheet("color:#e6d8b3;")
        self.scenario_cell.val._min_chars = 16
        self.scenario = self.scenario_cell.val
        lay.addWidget(self.scenario_cell)

    def show_state(self, st: GameState | None, title: str = "") -> None:
        if st is None:
            for c in self.cells:
                c.set("—")
            return
        ph = sequence.phase(st.phase)
        step = ph.steps[min(st.step, len(ph.steps)) - 1]
        self.gt.set(f"GT {st.gt}")
        self.month.set(str(calendar.month_of(st.gt)))
        self.impulse.set(ph.impulse)
        self.phase.set(f"{ph.title} · {step.key}", f"{ph.title}, step {step.key}: {step.text} ({step.rule})")
        self.initiative.set(st.initiative)
        self.first.set(st.first_player)
        self.surprise.set("Yes" if st.surprise else "No")
        self.air.set(f"{st.air_superiority} +{st.air_superiority_margin}" if st.air_superiority else "None")
        bits = []
        if calendar.is_winter(st.gt):
            bits.append("Winter")
        if st.ghibli:
            bits.append("Ghibli")
        self.weather.set(", ".join(bits) or "Fair")
        self.end.set(f"GT {st.end_gt}")
        self.scenario.setText(title)


# ============================================================================ prompt bar


class SideBadge(QLabel):
    def __init__(self):
        super().__init__()
        self.setObjectName("SideBadge")
        self.setAlignment(Qt.AlignCenter)
        self.setMinimumWidth(70)

    def set_side(self, side: str) -> None:
        self.setText({EITHER: "Either side"}.get(side, side))
        bg = theme.SIDE_COLOUR.get(side, "#6d6a60")
        fg = theme.SIDE_TEXT.get(side, "#ffffff")
        self.setStyleSheet(f"background:{bg}; color:{fg};")


def option_labels(options, distinguish=lambda o: "") -> list[str]:
    """The options' labels as a player reads them: names for ids (:func:`app.names.humanize`), and two options
    with the same label told apart (``Move MSU to L2215 (from L2314)``)."""
    labels = [humanize(o.label) for o in options]
    plain = list(labels)
    for i, o in enumerate(options):
        if plain.count(plain[i]) > 1:
            extra = distinguish(o)
            if extra:
                labels[i] = f"{labels[i]} ({extra})"
    return labels


def stays_a_button(o, d: Decision) -> bool:
    """In a decision where a map click moves a stack ("move" is a free kind, 13.0), an option of another kind
    (a sampled air or fleet mission, 19.6, 20.4.2) is a button, never a highlighted map target: clicking a hex
    there selects or moves a stack."""
    return "move" in (d.free_kinds or ()) and o.action.kind != "move"


class PromptBar(QFrame):
    """What the active side must do, the rule, the legal options as buttons and the refusal line."""

    optionChosen = Signal(object)      # Option
    ruleClicked = Signal(str)
    MAX_BUTTONS = 12

    def __init__(self):
        super().__init__()
        self.setObjectName("PromptBar")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(10, 6, 10, 6)
        outer.setSpacing(4)
        top = QHBoxLayout()
        self.badge = SideBadge()
        self.prompt = QLabel("")
        self.prompt.setObjectName("Prompt")
        self.prompt.setWordWrap(True)
        self.rule = QPushButton("")
        self.rule.setObjectName("RuleLink")
        self.rule.setFlat(True)
        self.rule.setCursor(Qt.PointingHandCursor)
        self.rule.setStyleSheet("QPushButton { color:#7a5d2a; text-decoration: underline; border:none; background:none; }")
        self.rule.setToolTip("Open this rule in the rules viewer (F1)")
        self.rule.clicked.connect(lambda: self.ruleClicked.emit(self._rule))
        top.addWidget(self.badge)
        top.addWidget(self.prompt, 1)
        top.addWidget(self.rule)
        outer.addLayout(top)
        # options wrap onto more lines instead of widening the window (a Movement Phase offers a dozen)
        self.buttons_row = FlowLayout(None, margin=0, hspacing=6, vspacing=4)
        outer.addLayout(self.buttons_row)
        self.hint = QLabel("")
        self.hint.setObjectName("Notice")
        self.hint.setWordWrap(True)
        outer.addWidget(self.hint)
        self.refusal = QLabel("")
        self.refusal.setObjectName("Refusal")
        self.refusal.setWordWrap(True)
        self.refusal.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.refusal.hide()
        outer.addWidget(self.refusal)
        self._rule = ""
        self.buttons: list[QPushButton] = []
        self.more: QComboBox | None = None
        self.distinguish = lambda o: ""     # a few words telling apart options with the same label (the window's)

    def show_decision(self, d: Decision | None, *, enabled: bool = True, result: str = "", map_hint: str = "") -> None:
        self.buttons = []
        self.more = None
        while self.buttons_row.count():
            it = self.buttons_row.takeAt(0)
            w = it.widget()
            if w is not None:
                w.hide()            # gone at once, even before the event loop deletes it
                w.deleteLater()
        if d is None:
            self.badge.set_side("either")
            self.badge.setText("Game over")
            self.prompt.setText(result or "The scenario has ended.")
            self.rule.setText("4.1 XX")
            self._rule = "4.1 XX"
            self.hint.setText("")
            return
        self.badge.set_side(d.side)
        self.prompt.setText(humanize(d.prompt))
        self._rule = d.rule
        self.rule.setText(f"Rule {d.rule}")
        opts = list(d.options)
        on_map = [o for o in opts if "hex" in o.action.args and not stays_a_button(o, d)]
        buttons = [o for o in opts if o not in on_map]
        labels = option_labels(buttons, self.distinguish)
        for i, o in enumerate(buttons[: self.MAX_BUTTONS]):
            b = QPushButton(labels[i])
            b.setToolTip((o.hint + "\n" if o.hint else "") + f"{o.action.side}: {o.action.kind} ({d.rule})"
                         + (f"\nShortcut: Alt+{i + 1}" if i < 9 else ""))
            if i < 9:
                b.setShortcut(QKeySequence(f"Alt+{i + 1}"))
            b.setEnabled(enabled)
            b.clicked.connect(lambda _=False, o=o: self.optionChosen.emit(o))
            self.buttons_row.addWidget(b)
            self.buttons.append(b)
        if len(buttons) > self.MAX_BUTTONS:
            more = QComboBox()
            more.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
            more.setMinimumContentsLength(22)
            more.view().setMinimumWidth(420)
            more.setToolTip("The other choices the engine offers")
            more.addItem(f"{len(buttons) - self.MAX_BUTTONS} more choices…")
            for o, text in zip(buttons[self.MAX_BUTTONS:], labels[self.MAX_BUTTONS:]):
                more.addItem(text, o)
            more.setEnabled(enabled)
            more.activated.connect(lambda i, m=more: i > 0 and self.optionChosen.emit(m.itemData(i)))
            self.buttons_row.addWidget(more)
            self.more = more
        hints = []
        if on_map:
            hints.append(f"Click one of the {len(on_map)} highlighted hexes on the map.")
        if "move" in (d.free_kinds or ()) and not on_map:
            hints.append("Click one of your stacks, then a reachable hex to move it"
                         + ("; the Movement orders panel has the other orders" if len(d.free_kinds) > 1 else "") + ".")
        elif d.free_kinds and not on_map:
            hints.append("Also possible on the map and in the panels: " + kinds_text(d.free_kinds) + ".")
        if map_hint:
            hints.append(map_hint)
        self.hint.setText(" ".join(hints))

    def show_refusal(self, reason: str, rule: str) -> None:
        # "✖", not "⛔": the no-entry sign is missing from common fonts and showed as an empty box (issue 19)
        self.refusal.setText(f"✖ Refused: {humanize(reason)}" + (f"  — rule {rule}" if rule and rule not in reason else ""))
        self.refusal.show()

    def clear_refusal(self) -> None:
        self.refusal.hide()
        self.refusal.setText("")


# ============================================================================ stack inspector


class CounterChip(QWidget):
    def __init__(self, unit, size: int = 56):
        super().__init__()
        self.unit = unit
        self.setFixedSize(size + 6, size + 6)
        self.setToolTip(counterart.tooltip(unit))

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        s = self.width() - 6
        counterart.paint_counter(p, QRectF(2, 2, s, s), counterart.face_of(self.unit), detail=1.0)


class StackInspector(QScrollArea):
    """Every unit of the selected hex or box, with its full data and status."""

    def __init__(self):
        super().__init__()
        self.setWidgetResizable(True)
        self.body = QWidget()
        self.lay = QVBoxLayout(self.body)
        self.lay.setContentsMargins(6, 6, 6, 6)
        self.lay.setSizeConstraint(QVBoxLayout.SetMinimumSize)
        self.setWidget(self.body)
        self.title = ""
        self.show_units("", [], "Click a hex or a stack on the map to see its units.")

    def show_units(self, title: str, units: list, extra: str = "") -> None:
        while self.lay.count():
            it = self.lay.takeAt(0)
            w = it.widget()
            if w is not None:
                w.setParent(None)
                w.deleteLater()
        self.title = title
        head = QLabel(f"<b style='font-size:12pt'>{title}</b>" + (f"<br><span style='color:#6b5a3a'>{extra}</span>" if extra else ""))
        head.setWordWrap(True)
        self.lay.addWidget(head)
        for u in units:
            row = QFrame()
            row.setFrameShape(QFrame.StyledPanel)
            row.setStyleSheet("QFrame { background:#fffdf6; border:1px solid #e2d4b0; border-radius:4px; }"
                              " QLabel { border:none; }")
            h = QHBoxLayout(row)
            h.setContentsMargins(4, 4, 4, 4)
            h.addWidget(CounterChip(u))
            c = counterart.lookup(u.id)
            face = counterart.face_of(u)
            lines = [f"<b>{face.title()}</b>"]
            if c is not None:
                nat = theme.nation(c.nationality, c.side).name
                # a part already said is not repeated ("Allied supply · trucked", not "… supply · supply · trucked")
                parts = dict.fromkeys(p for p in (nat, counterart.unit_type(c).replace("_", " "), c.move_class or c.kind)
                                      if p and p.lower() not in nat.lower().split())
                lines.append(" · ".join([nat, *(p for p in parts if p != nat)]))
                if c.kind not in ("supply", "marker", "air", "fleet"):
                    # the side showing (8.3): a reduced unit's reduced CF, morale and MA
                    cf, morale, ma = c.values(u.steps) if hasattr(c, "values") else (c.cf, c.morale, c.ma)
                    lines.append(f"CF <b>{cf}</b> · Morale <b>{morale}</b> · MA <b>{ma}</b>")
                lines.append(f"Steps {u.steps}/{c.steps}" + (" · <span style='color:#a0301d'>reduced</span>" if face.reduced else ""))
                if c.source != "rules":
                    lines.append(f"<i style='color:#8a7a5a'>values {c.source}</i>")
            status = [f"<span style='background:{col};color:white;padding:0 3px'>&nbsp;{short}&nbsp;</span> {name}"
                      for short, col, name in face.status]
            if status:
                lines.append(" ".join(status))
            info = QLabel("<br>".join(lines))
            info.setToolTip(counterart.tooltip(u))
            info.setTextFormat(Qt.RichText)
            info.setWordWrap(True)
            h.addWidget(info, 1)
            row.setSizePolicy(QSizePolicy.Preferred, QSizePolicy.Fixed)
            self.lay.addWidget(row)
        self.lay.addStretch(1)

    def body_text(self) -> str:
        """Everything the inspector shows, as plain text (tests)."""
        from PySide6.QtGui import QTextDocument

        out = []
        for lab in self.body.findChildren(QLabel):
            doc = QTextDocument()
            doc.setHtml(lab.text())
            out.append(doc.toPlainText())
        return "\n".join(out)


# ============================================================================ log & replay


def unit_label(x) -> str:
    """A counter's name (``5 Pz``) for a unit id (``GE-5Pz``); anything else unchanged."""
    if isinstance(x, str):
        c = counterart.lookup(x)
        if c is not None and getattr(c, "name", None):
            return c.name
    return str(x)


def raw_action(a) -> str:
    return f"{a.kind}" + (" " + " ".join(f"{k}={v}" for k, v in sorted(a.args.items())) if a.args else "")


def describe_action(a) -> str:
    """A readable sentence for an action the engine logged no event for (``app.logtext``): counter names,
    hexes and boxes in words, what was chosen."""
    from app import logtext

    return logtext.describe(a.kind, a.args, a.side)


class LogPanel(QWidget):
    """The game log with GT/phase headings, and the replay controls."""

    replayRequested = Signal(object)   # index (int) or None for live

    def __init__(self):
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        bar = QHBoxLayout()
        self.btn_replay = QToolButton()
        self.btn_replay.setText("Replay")
        self.btn_replay.setCheckable(True)
        self.btn_replay.setToolTip("Replay mode: step back and forth through the whole game (Ctrl+R)")
        st = self.style()
        self.btn_first = QToolButton(); self.btn_first.setIcon(st.standardIcon(QStyle.SP_MediaSkipBackward))
        self.btn_first.setToolTip("Back to the start (Ctrl+Home)")
        self.btn_back = QToolButton(); self.btn_back.setIcon(st.standardIcon(QStyle.SP_MediaSeekBackward))
        self.btn_back.setToolTip("One action back (Ctrl+Left)")
        self.btn_fwd = QToolButton(); self.btn_fwd.setIcon(st.standardIcon(QStyle.SP_MediaSeekForward))
        self.btn_fwd.setToolTip("One action forward (Ctrl+Right)")
        self.btn_last = QToolButton(); self.btn_last.setIcon(st.standardIcon(QStyle.SP_MediaSkipForward))
        self.btn_last.setToolTip("To the latest action (Ctrl+End)")
        for b in (self.btn_replay, self.btn_first, self.btn_back, self.btn_fwd, self.btn_last):
            bar.addWidget(b)
        self.jump = QComboBox()
        self.jump.setToolTip("Jump to a GT and phase")
        self.jump.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Fixed)
        bar.addWidget(self.jump, 1)
        lay.addLayout(bar)
        self.slider = QSlider(Qt.Horizontal)
        self.slider.setToolTip("Drag through the game's actions")
        lay.addWidget(self.slider)
        self.position = QLabel("")
        self.position.setObjectName("ReplayBanner")
        self.position.setWordWrap(True)                  # wraps: never widens the dock (issue 19)
        self.position.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        self.position.hide()
        lay.addWidget(self.position)
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setUniformRowHeights(False)
        self.tree.setWordWrap(True)
        lay.addWidget(self.tree, 1)
        self.total = 0
        self._items: dict[int, QTreeWidgetItem] = {}
        self._rendered = 0
        self._headings_key: tuple | None = None
        self.btn_replay.toggled.connect(lambda on: self.replayRequested.emit(self.total if on else None))
        self.btn_first.clicked.connect(lambda: self.replayRequested.emit(0))
        self.btn_back.clicked.connect(lambda: self.replayRequested.emit(max(0, self._pos() - 1)))
        self.btn_fwd.clicked.connect(lambda: self.replayRequested.emit(min(self.total, self._pos() + 1)))
        self.btn_last.clicked.connect(lambda: self.replayRequested.emit(self.total))
        self.slider.valueChanged.connect(self._slid)
        self.jump.activated.connect(lambda i: self.replayRequested.emit(self.jump.itemData(i)))
        self.tree.itemDoubleClicked.connect(self._double)
        self._syncing = False

    def _pos(self) -> int:
        return self.slider.value() if self.btn_replay.isChecked() else self.total

    def _slid(self, v: int) -> None:
        if not self._syncing and self.btn_replay.isChecked():
            self.replayRequested.emit(v)

    def _double(self, item: QTreeWidgetItem, _col: int) -> None:
        idx = item.data(0, Qt.UserRole)
        if idx is not None:
            self.replayRequested.emit(int(idx))

    def rebuild(self, log: list, headings: list, start: int = 0, notes: dict[int, str] | None = None) -> None:
        """Refill the tree (GT > phase > action with its events).

        ``notes``: {number of actions applied after it: a sentence} shown under that action — the computer's plan
        (issue 21).

        ``start`` > 0 (a LAN replica that began from the host's snapshot): the first ``start`` actions are not
        held here and are summarised in one line.
        """
        self.tree.clear()
        self._items = {}
        gt_items: dict[int, QTreeWidgetItem] = {}
        phase_item: QTreeWidgetItem | None = None
        starts = {h.index: h for h in headings}
        bold = self.tree.font()
        bold.setBold(True)
        if start:
            first = QTreeWidgetItem([f"Actions #1–#{start}: played before this replica started (the host sent its state at #{start})"])
            first.setForeground(0, QColor("#7a6a4a"))
            first.setData(0, Qt.UserRole, start)
            self.tree.addTopLevelItem(first)
        for i in range(start, len(log) + 1):
            h = starts.get(i)
            if h is not None:
                gi = gt_items.get(h.gt)
                if gi is None:
                    gi = QTreeWidgetItem([f"GT {h.gt} — {calendar.month_of(h.gt)}"])
                    gi.setFont(0, bold)
                    gi.setForeground(0, QColor("#6b4f2a"))
                    gi.setData(0, Qt.UserRole, h.index)
                    self.tree.addTopLevelItem(gi)
                    gt_items[h.gt] = gi
                phase_item = QTreeWidgetItem([sequence.phase(h.phase).title])
                phase_item.setData(0, Qt.UserRole, h.index)
                phase_item.setForeground(0, QColor("#7a5d2a"))
                gi.addChild(phase_item)
            if i == len(log):
                break
            e = log[i]
            a = e.action
            events = [str(ev) for ev in e.events]
            # the engine's own readable line(s); the raw action only in the tooltip
            text = f"#{e.seq}  {a.side}: " + humanize(events[0] if events else describe_action(a))
            it = QTreeWidgetItem([text])
            it.setData(0, Qt.UserRole, i + 1)
            it.setForeground(0, QColor(theme.SIDE_COLOUR.get(a.side, "#333")).darker(130))
            tip = [f"#{e.seq}  {a.side}: {raw_action(a)}"] + events + ([f"dice: {e.rolls}"] if e.rolls else [])
            it.setToolTip(0, "\n".join(tip))
            for ev in events[1:]:
                child = QTreeWidgetItem([humanize(ev)])
                child.setData(0, Qt.UserRole, i + 1)
                child.setForeground(0, QColor("#3b3325"))
                it.addChild(child)
            if notes and notes.get(i + 1):
                child = QTreeWidgetItem([notes[i + 1]])
                child.setData(0, Qt.UserRole, i + 1)
                child.setForeground(0, QColor("#3b5f7a"))
                it.addChild(child)
                it.setExpanded(True)
            (phase_item or self.tree.invisibleRootItem()).addChild(it)
            self._items[i + 1] = it
        # expand the latest GT and phase
        if gt_items:
            last = list(gt_items.values())[-1]
            last.setExpanded(True)
            if last.childCount():
                last.child(last.childCount() - 1).setExpanded(True)
        self.jump.clear()
        for h in headings:
            self.jump.addItem(h.text, h.index)
        if headings:
            self.jump.setCurrentIndex(len(headings) - 1)       # the GT being played, not the first one
        self.total = len(log)
        self._syncing = True
        self.slider.setRange(0, self.total)
        self.slider.setValue(self.total)
        self._syncing = False
        if self.tree.topLevelItemCount():
            self.tree.scrollToBottom()

    def show_position(self, index: int | None, total: int) -> None:
        self._syncing = True
        self.btn_replay.blockSignals(True)
        self.btn_replay.setChecked(index is not None)
        self.btn_replay.blockSignals(False)
        self.slider.setRange(0, total)
        self.slider.setValue(total if index is None else index)
        self.slider.setEnabled(index is not None)
        for b in (self.btn_back, self.btn_fwd, self.btn_first, self.btn_last):
            b.setEnabled(index is not None or total > 0)
        self._syncing = False
        if index is None:
            self.position.hide()
        else:
            self.position.setText(f"REPLAY · after action {index} of {total} — play is paused; press Replay to return")
            self.position.show()
            it = self._items.get(index)
            self.tree.clearSelection()
            if it is not None:
                it.setSelected(True)
                self.tree.scrollToItem(it)
