"""Dialogs and covers: new game, hotseat hand-over, passwords, rules viewer."""

from __future__ import annotations

import html
import re
import secrets
from pathlib import Path

from PySide6.QtCore import QRegularExpression, Qt, Signal
from PySide6.QtGui import QFont, QRegularExpressionValidator, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QFrame, QHBoxLayout, QLabel, QLineEdit,
    QListWidget, QListWidgetItem, QPushButton, QSplitter, QTextBrowser, QVBoxLayout, QWidget,
)

from app import rulesdoc
from app.settings import Settings
from core import calendar
from core.decisions import ALLIED, AXIS
from core.hexgrid import maps
from core.resources import ROOT
from core.scenario import OPTIONAL_RULES, Scenario, all_scenarios


# ============================================================================ new game


class NewGameDialog(QDialog):
    """Scenario picker: description, GT range, maps; seed; where to save the .dfd file."""

    def __init__(self, parent: QWidget | None, default_dir: Path):
        super().__init__(parent)
        self.setWindowTitle("New game — choose a scenario")
        self.resize(860, 520)
        self.default_dir = default_dir
        lay = QVBoxLayout(self)
        split = QSplitter()
        self.list = QListWidget()
        self.list.setMinimumWidth(240)
        for sc in all_scenarios():
            it = QListWidgetItem(f"{sc.number}. {sc.title}\n    {sc.section} · {sc.gt_range}")
            it.setData(Qt.UserRole, sc.id)
            it.setToolTip(f"{sc.title} ({sc.section}), {sc.gt_range}")
            self.list.addItem(it)
        split.addWidget(self.list)
        right = QWidget()
        rl = QVBoxLayout(right)
        self.info = QTextBrowser()
        self.info.setOpenExternalLinks(False)
        rl.addWidget(self.info, 1)
        form = QFormLayout()
        self.seed = QLineEdit()
        self.seed.setPlaceholderText("random and secret")
        self.seed.setValidator(QRegularExpressionValidator(QRegularExpression(r"\d{0,19}")))
        self.seed.setToolTip("The dice seed: the same scenario, seed and choices always give the same game. Leave it "
                             "blank for a random secret seed: over a LAN a seed someone knows lets them foresee the "
                             "dice (docs/manual.md)")
        self._random_seed = secrets.randbits(63)
        form.addRow("Dice seed", self.seed)
        #: one box per optional rule (core.scenario.OPTIONAL_RULES), enabled where the scenario allows it
        self.optional: dict[str, QCheckBox] = {}
        for key, (rule, text) in OPTIONAL_RULES.items():
            box = QCheckBox(text)
            box.setToolTip(f"Optional rule {rule}: chosen now, kept for the whole game")
            self.optional[key] = box
            form.addRow("Optional rule" if len(self.optional) == 1 else "", box)
        # who plays each side (issue 21): a person (hotseat) or the computer, and how long the computer thinks
        self.players: dict[str, QComboBox] = {}
        for side in (AXIS, ALLIED):
            box = QComboBox()
            box.addItem("A person", "person")
            box.addItem("The computer", "computer")
            box.setToolTip(f"Who plays the {side} side. The computer's side needs no hand-over; Game ▸ Computer "
                           "hands a side over or takes it back during the game")
            box.currentIndexChanged.connect(self._players_changed)
            self.players[side] = box
            form.addRow(f"{side} side", box)
        self.setting = QComboBox()
        for key, title, tip in (("quick", "Quick", "about a second per decision"),
                                ("thoughtful", "Thoughtful", "a deeper look-ahead, slower")):
            self.setting.addItem(f"{title} — {tip}", key)
        self.setting.setToolTip("How long the computer thinks over each decision")
        form.addRow("Computer's play", self.setting)
        self._players_changed()
        pathrow = QHBoxLayout()
        self.path = QLineEdit()
        self.path.setToolTip("The .dfd file; every action is saved to it as it is made")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        pathrow.addWidget(self.path, 1)
        pathrow.addWidget(browse)
        form.addRow("Save as", pathrow)
        rl.addLayout(form)
        split.addWidget(right)
        split.setSizes([260, 600])
        lay.addWidget(split, 1)
        bb = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        bb.button(QDialogButtonBox.Ok).setText("Start game")
        bb.accepted.connect(self.accept)
        bb.rejected.connect(self.reject)
        lay.addWidget(bb)
        self.list.currentItemChanged.connect(self._show)
        self.list.setCurrentRow(2 if self.list.count() > 2 else 0)

    def scenario_id(self) -> str:
        it = self.list.currentItem()
        return it.data(Qt.UserRole) if it else ""

    def _show(self, *_a) -> None:
        sid = self.scenario_id()
        sc = next((s for s in all_scenarios() if s.id == sid), None)
        if sc is None:
            return
        self.info.setHtml(scenario_html(sc))
        self.path.setText(str(free_name(self.default_dir, sc.id)))
        allowed = sc.optional_rules()
        for key, box in self.optional.items():
            box.setEnabled(key in allowed)
            if key not in allowed:
                box.setChecked(False)
                box.setToolTip(f"Not used in {sc.title} ({sc.section}): its instructions switch rule "
                               f"{OPTIONAL_RULES[key][0]} off")
            else:
                box.setToolTip(f"Optional rule {OPTIONAL_RULES[key][0]}: chosen now, kept for the whole game")

    def optional_rules(self) -> list[str]:
        """The optional rules ticked (only those the scenario allows can be ticked)."""
        return [k for k, box in self.optional.items() if box.isEnabled() and box.isChecked()]

    def _players_changed(self, *_a) -> None:
        self.setting.setEnabled(bool(self.computer_sides()))

    def set_player(self, side: str, who: str) -> None:
        """Choose ``"person"`` or ``"computer"`` for ``side``."""
        box = self.players[side]
        box.setCurrentIndex(box.findData(who))

    def computer_sides(self) -> dict[str, str]:
        """``{side: setting}`` for the sides the computer plays."""
        setting = self.setting.currentData() if hasattr(self, "setting") else "quick"
        return {side: setting for side, box in self.players.items() if box.currentData() == "computer"}

    def seed_value(self) -> int:
        """The seed typed, or a random secret one (never shown, never in the file name: issue 14)."""
        text = self.seed.text().strip()
        return int(text) if text else self._random_seed

    def _browse(self) -> None:
        fn, _ = QFileDialog.getSaveFileName(self, "Save the new game as", self.path.text(), "Desert Fox games (*.dfd)")
        if fn:
            self.path.setText(fn if fn.endswith(".dfd") else fn + ".dfd")


def free_name(folder: Path, stem: str) -> Path:
    """``folder/stem.dfd``, or ``stem-2.dfd``, ``stem-3.dfd``... if taken (the name never shows the seed)."""
    p, n = folder / f"{stem}.dfd", 1
    while p.exists():
        n += 1
        p = folder / f"{stem}-{n}.dfd"
    return p


def scenario_html(sc: Scenario) -> str:
    start, end = calendar.month_of(sc.start_gt), calendar.month_of(sc.end_gt)
    sheet_names = maps()
    map_list = ", ".join(f"{m} ({sheet_names[m].name})" for m in sc.maps if m in sheet_names) or "as the scenario's set-up requires"
    desc = html.escape(sc.description or "").replace("\n", "<br>")
    if not desc:
        doc = rulesdoc.find_rules()
        if doc is not None:
            d = rulesdoc.load(str(doc))
            sec = d.section_for(sc.section)
            if sec is not None:
                body = d.text_of(sec, 40).split("\n")[1:]
                desc = html.escape(" ".join(x for x in body if x.strip())[:900]) + "…"
    return (
        f"<h2 style='color:#5b4a2f'>{html.escape(sc.title)}</h2>"
        f"<p><b>Rules section</b> {sc.section} &nbsp; <b>Length</b> {sc.gt_range} ({start} – {end}), "
        f"{sc.end_gt - sc.start_gt + 1} game turns, starting in Phase {sc.start_phase}</p>"
        f"<p><b>Initiative</b> {sc.initiative}{' with surprise (6.2)' if sc.surprise else ''}"
        f" &nbsp; <b>Maps</b> {html.escape(map_list)}</p>"
        f"<p><b>Set-up lines</b> {len(sc.setup)}</p>"
        f"<p style='color:#3b3325'>{desc}</p>"
    )


# ============================================================================ hotseat cover


class HotseatCover(QFrame):
    """Covers the whole window at a hand-over so the other player does not see the screen."""

    revealed = Signal(str)

    def __init__(self, parent: QWidget, settings: Settings):
        super().__init__(parent)
        self.setObjectName("Cover")
        self.settings = settings
        self.side = ""
        lay = QVBoxLayout(self)
        lay.addStretch(2)
        self.title = QLabel("Hand over")
        self.title.setAlignment(Qt.AlignCenter)
        self.sidelabel = QLabel("")
        self.sidelabel.setObjectName("CoverSide")
        self.sidelabel.setAlignment(Qt.AlignCenter)
        self.detail = QLabel("")
        self.detail.setAlignment(Qt.AlignCenter)
        self.detail.setWordWrap(True)
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.Password)
        self.password.setPlaceholderText("Password")
        self.password.setMaximumWidth(260)
        self.password.returnPressed.connect(self._go)
        self.error = QLabel("")
        self.error.setAlignment(Qt.AlignCenter)
        self.error.setStyleSheet("color:#ff9c8a;")
        self.button = QPushButton("Show the map")
        self.button.setCursor(Qt.PointingHandCursor)
        self.button.clicked.connect(self._go)
        for w in (self.title, self.sidelabel, self.detail):
            lay.addWidget(w)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.password)
        row.addStretch(1)
        lay.addLayout(row)
        lay.addWidget(self.error)
        row2 = QHBoxLayout()
        row2.addStretch(1)
        row2.addWidget(self.button)
        row2.addStretch(1)
        lay.addLayout(row2)
        lay.addStretch(3)
        self.hide()

    def present(self, side: str, detail: str) -> None:
        self.side = side
        self.title.setText("Hotseat hand-over")
        self.sidelabel.setText(f"{side} player to play")
        self.sidelabel.setStyleSheet(f"color:{'#c9d3d8' if side == AXIS else '#ffd77a'};")
        self.detail.setText(detail + "\n\nThe other player, please look away.")
        need = bool(self.settings.passwords.get(side))
        self.password.setVisible(need)
        self.password.clear()
        self.error.setText("")
        self.button.setText(f"I am the {side} player — show the map")
        self.setGeometry(self.parentWidget().rect())
        self.raise_()
        self.show()
        (self.password if need else self.button).setFocus()

    def _go(self) -> None:
        if not self.settings.check_password(self.side, self.password.text()):
            self.error.setText("Wrong password")
            self.password.selectAll()
            return
        self.hide()
        self.revealed.emit(self.side)


class PasswordsDialog(QDialog):
    def __init__(self, parent: QWidget | None, settings: Settings):
        super().__init__(parent)
        self.setWindowTitle("Hotseat")
        self.settings = settings
        form = QFormLayout(self)
        self.enabled = QCheckBox("Cover the screen at every hand-over between the sides")
        self.enabled.setChecked(settings.hotseat)
        form.addRow(self.enabled)
        self.fields = {}
        for side in (AXIS, ALLIED):
            le = QLineEdit()
            le.setEchoMode(QLineEdit.Password)
            le.setPlaceholderText("(unchanged)" if settings.passwords.get(side) else "(no password)")
            form.addRow(f"{side} password", le)
            self.fields[side] = le
        self.clear = QCheckBox("Remove both passwords")
        form.addRow(self.clear)
        bb = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        bb.accepted.connect(self.accept)
        bb.rejected.connect(self.reject)
        form.addRow(bb)

    def apply(self) -> None:
        self.settings.hotseat = self.enabled.isChecked()
        if self.clear.isChecked():
            self.settings.passwords = {}
        for side, le in self.fields.items():
            if le.text():
                self.settings.set_password(side, le.text())


# ============================================================================ rules viewer


class RulesViewer(QDialog):
    """Shows the rules section a prompt cites (Help ▸ Rule)."""

    def __init__(self, parent: QWidget | None, settings: Settings):
        super().__init__(parent)
        self.setWindowTitle("Rules")
        self.resize(780, 720)
        self.settings = settings
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.search = QLineEdit()
        self.search.setPlaceholderText("Rule number, e.g. 13.5 or 4.1")
        self.search.returnPressed.connect(lambda: self.show_rule(self.search.text()))
        top.addWidget(QLabel("Go to rule"))
        top.addWidget(self.search, 1)
        self.choose_file = QPushButton("Rules text file…")
        self.choose_file.setToolTip("Choose the plain-text rules file (also Settings ▸ Rules text file…); "
                                    "the choice is saved in the settings")
        self.choose_file.clicked.connect(lambda: choose_rules_file(self, self.settings) and self.reload())
        top.addWidget(self.choose_file)
        lay.addLayout(top)
        self.source = QLabel("")
        self.source.setStyleSheet("color:#7a6a4a;")
        self.source.setWordWrap(True)
        self.source.setTextInteractionFlags(Qt.TextSelectableByMouse)
        split = QSplitter()
        self.toc = QListWidget()
        self.toc.setMaximumWidth(260)
        self.toc.itemActivated.connect(lambda it: self.show_rule(it.data(Qt.UserRole)))
        self.toc.itemClicked.connect(lambda it: self.show_rule(it.data(Qt.UserRole)))
        self.text = QTextBrowser()
        self.text.setFont(QFont("DejaVu Serif", 11))
        split.addWidget(self.toc)
        split.addWidget(self.text)
        split.setSizes([220, 560])
        lay.addWidget(split, 1)
        lay.addWidget(self.source)
        self.doc = None
        self.reload()

    def reload(self) -> None:
        """(Re)read the rules text named by the settings (or found elsewhere) and rebuild the contents:
        only the numbered rule headings (``13.5 Reaction Movement``), never set-up list lines."""
        self.doc = None
        self.toc.clear()
        path = rulesdoc.find_rules(self.settings.rules_text)
        if path is not None:
            self.doc = rulesdoc.load(str(path))
            for s in self.doc.sections:
                it = QListWidgetItem(("    " * (s.number.count(".") - 1)) + f"{s.number} {s.title}")
                it.setData(Qt.UserRole, s.number)
                self.toc.addItem(it)
        missing = self.settings.rules_text and (path is None or str(path) != str(Path(self.settings.rules_text)))
        self.source.setText((f"Rules text: {path}" if path else "No rules text found.")
                            + (f"  (the file in the settings, {self.settings.rules_text}, is missing)" if missing else ""))
        if self.search.text():
            self.show_rule(self.search.text())

    def show_rule(self, rule: str) -> bool:
        """Show the section for ``rule``; house rulings (R-...) come from docs/rulings*."""
        self.search.setText(rule)
        m = re.search(r"R-[A-Z0-9-]+", rule or "")
        if m:
            txt = _ruling(m.group(0))
            if txt:
                self.text.setMarkdown(f"### {m.group(0)}\n\n" + math_text(txt))    # rulings are Markdown (issue 19)
                return True
        if self.doc is None:
            self.text.setHtml("<p>The rules text was not found. Set its path in Settings ▸ Rules text file, "
                              "or the environment variable DFD_RULES_TEXT.</p>")
            return False
        sec = self.doc.section_for(rule)
        if sec is None:
            self.text.setHtml(f"<p>No section of the rules matches <b>{html.escape(rule)}</b>.</p>")
            return False
        body = self.doc.text_of(sec)
        lines = body.split("\n")
        out = [f"<h2 style='color:#5b4a2f'>{html.escape(lines[0])}</h2>"]
        for ln in lines[1:]:
            t = inline_html(ln)
            if not t.strip():
                continue
            if re.match(r"^\d+(\.\d+)+\s+[A-Z]", ln.strip()):
                out.append(f"<h3 style='color:#6b4f2a'>{t}</h3>")
            elif ln.strip().startswith("Important") or ln.strip().startswith("Example"):
                out.append(f"<p style='background:#f6ecd2;padding:4px'>{t}</p>")
            else:
                out.append(f"<p>{t}</p>")
        self.text.setHtml("".join(out))
        self.text.moveCursor(QTextCursor.Start)
        for i in range(self.toc.count()):
            if self.toc.item(i).data(Qt.UserRole) == sec.number:
                self.toc.setCurrentRow(i)
                break
        self.setWindowTitle(f"Rules — {sec.number} {sec.title}")
        return True


_FRAC = re.compile(r"\\frac\{([^{}]*)\}\{([^{}]*)\}")
_MATH = re.compile(r"\$([^$\n]+)\$")
_SYMBOLS = {r"\div": "÷", r"\times": "×", r"\pm": "±", r"\le": "≤", r"\ge": "≥", r"\cdot": "·"}
_UNICODE_FRACS = {("1", "2"): "½", ("1", "4"): "¼", ("3", "4"): "¾", ("1", "3"): "⅓", ("2", "3"): "⅔"}


def math_text(text: str) -> str:
    """``$1 \\div 4 = \\frac{1}{4}$`` -> ``1 ÷ 4 = ¼``: the rules text's few TeX formulas as plain text."""
    def one(m: re.Match) -> str:
        f = _FRAC.sub(lambda x: _UNICODE_FRACS.get((x.group(1).strip(), x.group(2).strip()),
                                                    f"{x.group(1)}/{x.group(2)}"), m.group(1))
        for k, v in _SYMBOLS.items():
            f = f.replace(k, v)
        return f.strip()
    return _MATH.sub(one, text)


def inline_html(line: str) -> str:
    """One line of the rules text as HTML: escaped, ``**bold**`` bold, formulas as text (issue 19)."""
    t = html.escape(math_text(line))
    return re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", t)


def choose_rules_file(parent: QWidget | None, settings: Settings) -> bool:
    """Settings ▸ Rules text file…: pick the plain-text rules file; saved in the settings."""
    start = settings.rules_text or str(rulesdoc.find_rules(settings.rules_text) or Path.home())
    fn, _ = QFileDialog.getOpenFileName(parent, "The rules text file", start, "Text files (*.txt);;All files (*)")
    if not fn:
        return False
    settings.rules_text = str(Path(fn).resolve())
    try:
        settings.save()
    except OSError:
        pass
    return True


def _ruling(code: str) -> str:
    files = [ROOT / "docs" / "rulings.md"] + sorted((ROOT / "docs" / "rulings.d").glob("*.md"))
    for f in files:
        try:
            text = f.read_text(encoding="utf-8")
        except OSError:
            continue
        i = text.find(code)
        if i >= 0:
            start = text.rfind("\n#", 0, i)
            start = 0 if start < 0 else start + 1
            end = text.find("\n#", i)
            return text[start: end if end > 0 else len(text)].strip()
    return ""
