"""Colours, fonts and the application style sheet.

Everything visual that is not a rule lives here: the terrain palette, the
nationality colours of the counters (2.5: "the combination of a counter's
background colour and the colour of its ID and unit box indicates its parent
army/nationality"), and the widget style.  The colours are our own choice
(no copyrighted art is reproduced); a player can recolour them in the settings
file.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication

# ----------------------------------------------------------------------------- terrain

#: Fill colour per hex terrain type (keys follow core.mapdata's terrain names; unknown
#: names fall back to "clear").  A desert palette: sand, ochre, olive and sea blues.
TERRAIN_FILL: dict[str, str] = {
    "clear": "#e3dcb0",
    "desert": "#efdfb2",
    "sea": "#a9cfe0",
    "water": "#9fc5d8",
    "lake": "#a9cddc",
    "rough": "#d5bd8c",
    "stony": "#d5bd8c",
    "mountain": "#b38f68",
    "mountains": "#b38f68",
    "hills": "#c9a97a",
    "sand": "#f2d98e",
    "sand_sea": "#f2d98e",
    "dunes": "#f2d98e",
    "marsh": "#c3cdb0",
    "salt_marsh": "#c9d0b3",
    "depression": "#cdbf9a",
    "city": "#cdb7a0",
    "town": "#e0cfa9",
    "oasis": "#b9d58f",
    "cultivated": "#c8d69c",
    "fortified": "#cdb9a0",
}

#: The blank paper of a map sheet where no terrain data is known yet.
SHEET_PAPER = "#efe3c2"
SEA_BACKDROP = "#8fb9cf"
OFF_SHEET = "#3b362e"
TABLE_BACKGROUND = "#2b2a27"
GRID_LINE = "#7d6a4a"
LABEL_INK = "#5b4a2f"
PLACE_INK = "#2d2216"
ROAD_PRIMARY = "#9c2f1f"
ROAD_SECONDARY = "#b8662f"
TRACK = "#7b5a36"
RAIL = "#202020"
ESCARPMENT = "#6b4b2a"
COAST = "#4f7d96"
HIGHLIGHT = "#f4c430"
HIGHLIGHT_EDGE = "#b8860b"
SELECTION = "#ffef8a"

# ----------------------------------------------------------------------------- sides and nations


@dataclass(frozen=True)
class NationStyle:
    """How a nationality's counters look: background, ID/text ink, unit box colour."""

    name: str
    background: str
    ink: str
    box: str


#: 2.5 Nationalities.  Axis: Germany (army field-grey, Luftwaffe blue-grey), Italy,
#: Vichy France.  Allied: the Commonwealth (one khaki background, the dominion told
#: apart by the colour of the ID and unit box), associated forces, the US.
NATIONS: dict[str, NationStyle] = {
    "GE": NationStyle("German", "#8c9a9f", "#111111", "#f3f3f0"),
    "GL": NationStyle("German (Luftwaffe)", "#9db3c8", "#0d1b2a", "#f3f3f0"),
    "IT": NationStyle("Italian", "#a8c08a", "#111111", "#f6f6ee"),
    "VF": NationStyle("Vichy French", "#b7c9e2", "#1b2a49", "#f6f6f6"),
    "UK": NationStyle("British", "#d8bf8a", "#111111", "#fbf4e2"),
    "AU": NationStyle("Australian", "#d8bf8a", "#7a1f12", "#f5dcc2"),
    "IN": NationStyle("Indian", "#d8bf8a", "#124a2a", "#dceedd"),
    "NZ": NationStyle("New Zealand", "#d8bf8a", "#111111", "#c9d9ea"),
    "SA": NationStyle("South African", "#d8bf8a", "#5b3a0b", "#f2e29a"),
    "FF": NationStyle("Free French", "#7f9cc6", "#0e1a33", "#f4f4f4"),
    "GR": NationStyle("Greek", "#a9cde3", "#123b63", "#ffffff"),
    "PL": NationStyle("Polish", "#c9a18f", "#5a0f0f", "#f7ecec"),
    "US": NationStyle("United States", "#9ca36b", "#111111", "#eef0d6"),
    "VFA": NationStyle("Vichy French (Allied)", "#c8d6e8", "#4a1212", "#f6f6f6"),
    "AX": NationStyle("Axis supply", "#c7c2b0", "#111111", "#f3f3f0"),
    "AL": NationStyle("Allied supply", "#e4d2a4", "#111111", "#fbf4e2"),
    "MK": NationStyle("Marker", "#f0e6c8", "#2b2416", "#ffffff"),
}
FALLBACK_NATION = {"Axis": NationStyle("Axis", "#9aa3a6", "#111111", "#f3f3f0"),
                   "Allied": NationStyle("Allied", "#d8bf8a", "#111111", "#fbf4e2")}

SIDE_COLOUR = {"Axis": "#5f6d73", "Allied": "#b08d4a", "either": "#6d6a60"}
SIDE_TEXT = {"Axis": "#ffffff", "Allied": "#1d1608", "either": "#ffffff"}


def nation(code: str, side: str = "Axis") -> NationStyle:
    return NATIONS.get(code.upper(), FALLBACK_NATION.get(side, FALLBACK_NATION["Axis"]))


def qc(hexcode: str, alpha: int | None = None) -> QColor:
    c = QColor(hexcode)
    if alpha is not None:
        c.setAlpha(alpha)
    return c


# ----------------------------------------------------------------------------- widget style

STYLE_SHEET = """
QMainWindow, QDialog { background: #f3ecdc; }
QWidget { font-size: 10pt; }
QToolTip { background: #fffbe9; color: #2b2416; border: 1px solid #b89b62; padding: 4px; }
#PhaseBar { background: qlineargradient(x1:0, y1:0, x2:0, y2:1, stop:0 #4b4436, stop:1 #36312a); }
#PhaseBar QLabel { color: #f4ead2; }
#PhaseBar QLabel[role="value"] { color: #ffffff; font-weight: 600; }
#PhaseBar QLabel[role="caption"] { color: #cbbd98; font-size: 8pt; }
#PhaseBar QLabel[role="gt"] { color: #ffd77a; font-size: 15pt; font-weight: 700; }
#PromptBar { background: #f8f1df; border-bottom: 1px solid #cdbb91; }
#PromptBar QLabel#Prompt { font-size: 11pt; font-weight: 600; color: #2b2416; }
#PromptBar QLabel#Rule { color: #7a5d2a; }
#PromptBar QPushButton { background: #fffaf0; border: 1px solid #b89b62; border-radius: 4px; padding: 4px 12px; }
#PromptBar QPushButton:hover { background: #ffe9a8; }
#PromptBar QPushButton:disabled { color: #9c9281; background: #efe9dc; }
#SideBadge { border-radius: 9px; padding: 2px 10px; font-weight: 700; }
#Refusal { background: #fbe2dc; color: #7b1d10; border: 1px solid #d98c7c; border-radius: 4px; padding: 4px 8px; }
#Notice { color: #3b5d2a; }
QDockWidget { font-weight: 600; }
QDockWidget::title { background: #e4d7b5; padding: 4px; }
QTreeWidget, QListWidget, QTextBrowser, QTableWidget { background: #fffdf6; alternate-background-color: #f7f0df; }
QGroupBox { font-weight: 600; border: 1px solid #cdbb91; border-radius: 5px; margin-top: 10px; padding-top: 4px; }
QGroupBox::title { subcontrol-origin: margin; left: 8px; padding: 0 3px; color: #5b4a2f; }
#Cover { background: #2a2722; }
#Cover QLabel { color: #f4ead2; }
#Cover QLabel#CoverSide { font-size: 28pt; font-weight: 700; }
#Cover QPushButton { font-size: 13pt; padding: 8px 24px; background: #f4c430; border-radius: 6px; color: #2a2722; }
#ReplayBanner { background: #6b4f2a; color: #fff3d6; padding: 3px 10px; font-weight: 600; }
"""


def apply_style(app: QApplication) -> None:
    app.setStyle("Fusion")
    pal = app.palette()
    pal.setColor(QPalette.Window, QColor("#f3ecdc"))
    pal.setColor(QPalette.Base, QColor("#fffdf6"))
    pal.setColor(QPalette.AlternateBase, QColor("#f7f0df"))
    pal.setColor(QPalette.Button, QColor("#efe6cf"))
    pal.setColor(QPalette.Highlight, QColor("#b8862b"))
    pal.setColor(QPalette.HighlightedText, QColor("#ffffff"))
    pal.setColor(QPalette.ToolTipBase, QColor("#fffbe9"))
    app.setPalette(pal)
    app.setStyleSheet(STYLE_SHEET)


def ui_font(size: float = 9, bold: bool = False, family: str = "") -> QFont:
    f = QFont(family) if family else QFont()
    f.setPointSizeF(size)
    f.setBold(bold)
    return f
