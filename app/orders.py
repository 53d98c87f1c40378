"""The movement order panel: what the selected stack does in a Movement Phase.

Everything here is sent to the engine as one of its actions (``core/rules/movement.py``,
``transport.py``, ``construction.py``, ``supply.py``); the panel offers an order only when the pending
decision's ``free_kinds`` lists its kind, and the engine judges it: a refusal shows the engine's reason and
rule.  The panel holds:

* **unit check-boxes** — the units of the selected stack (or box) that move; a map click moves only the
  checked ones, so a stack is split by unchecking units (13.1);
* **move options** — road march (13.2.3), forced march (13.2.4), night movement (11.5), truck lift (13.7)
  with pick-ups and drop-offs, and leaving the map at the end of the move (13.8); road march and night
  movement are passed to the engine's ``reachable``/``route`` queries for the preview;
* **orders** — reserve (13.6), deliberate and mobile battle markers (14.9.1, 14.9.2), create a base (12.2.3), emergency supply (12.7), destroy supply (12.2.5),
  base transfer (12.2.3), forts (18.1), railroad and road construction (18.2, 18.3), rail movement (13.7),
  coastal shipping (20.3), special forces by sea (15.4), airdrops (15.5), air landing (13.7 e), entering the map from a box (13.8), reinforcements arriving in a
  Movement Phase (27.1, 30.2, 31.2); with the optional desert
  raider rules (16.0) Oasis Track moves (16.2) and raider missions (16.4).  An order with
  arguments opens a small form; hex arguments are picked by clicking the map.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QFormLayout, QFrame, QGroupBox, QHBoxLayout, QLabel, QPushButton, QSpinBox, QToolButton,
    QVBoxLayout, QWidget,
)

from app import counterart
from app.flow import FlowLayout
from core.decisions import Action

#: (kind, button text, rule, tooltip)
ORDERS = [
    ("reserve", "Reserve", "13.6", "Put the checked units in reserve status (13.6)"),
    ("create_base", "Create base", "12.2.3", "Remove an MSU and a dump in this hex and place a base (12.2.3)"),
    ("emergency_supply", "Emergency supply…", "12.7", "Expend a dump to give one combat unit emergency supply (12.7)"),
    ("destroy_supply", "Destroy supply…", "12.2.5", "A combat unit destroys a friendly supply unit in its hex (12.2.5)"),
    ("transfer", "Base transfer…", "12.2.3", "Move a dump or two refit points from this base to another base (12.2.3)"),
    ("build_fort", "Build fort…", "18.1", "Begin a fort (F0–F3) in this hex (18.1)"),
    ("build_rail", "Build railroad…", "18.2.1", "Extend the Egyptian railroad one or two hexes with the MSU here (18.2.1)"),
    ("build_road", "Build road…", "18.3.1", "Extend a road one or two hexes with the MSU here (18.3.1)"),
    ("rail", "Rail move…", "13.7", "Rail lift: 3 MP regardless of distance (13.7)"),
    ("coastal_ship", "Coastal shipping…", "20.3", "Ship the checked units from this port to another friendly port (20.3)"),
    ("sf_sea", "Special forces by sea…", "15.4", "Special forces from a port or at-sea box to any coastal hex (a "
                                                "friendly one: straight in; enemy or empty: an opposed landing in the "
                                                "Combat Phase), or evacuated from a coastal hex to a port or shipping "
                                                "box; no sealift capacity used (15.4)"),
    ("air_land", "Air landing…", "13.7 e)", "Air-land the checked units from an airlift box at an airfield or city (13.7 e)"),
    ("oasis_move", "Oasis Track…", "16.2", "Move desert-capable units along the Oasis Track, 14 MP a link "
                                           "(optional desert raider rules, 16.2)"),
    ("raid", "Raider mission…", "16.4", "A desert raider raids an enemy supply unit or airfield, or guides "
                                        "across a wadi (optional desert raider rules, 16.4)"),
    ("interdict", "Interdict…", "19.6", "A non-based air unit with a ground support rating interdicts a hex of its "
                                        "area of operations: enemy units entering it or any hex within two pay extra MP "
                                        "until the end of the next enemy Movement Phase (19.6)"),
    ("air_bombard", "Bombard…", "19.8", "A non-based air unit with a bombardment rating bombards an enemy base, dump, "
                                        "MSU or airfield of its area of operations: 1d6 per factor, 4-6 disrupts (19.8)"),
    ("enter", "Enter the map…", "13.8", "Bring the checked units from the selected box onto the map: pick the entry hex, "
                                        "then the hexes entered (13.8)"),
    ("shore_bombard", "Shore bombardment…", "20.4.2", "A fleet in the Coastal Missions Box bombards an Axis supply unit "
                                                       "in a coastal hex of its maps (20.4.2, 19.8)"),
    ("fleet_strike_box", "Fleet strike…", "20.4.2", "A fleet in the Coastal Missions Box strikes the Axis units in a "
                                                    "port's boxes (20.4.2, 19.9.1)"),
    ("fna_move", "FNA road…", "22.7", "Move the checked units of this French North Africa box one leg of the primary "
                                      "road (14 hexes) to the next box or Algiers (22.7)"),
    ("battle_marker", "Battle marker…", "14.9.1; 14.9.2", "Mark the checked units for a deliberate (14.9.1) or mobile "
                                                          "(14.9.2) battle in the Combat Phase: each must have spent no "
                                                          "more than its RMA, and moves no further this phase"),
    ("airdrop", "Airdrop…", "15.5", "Airdrop an airborne or SF unit of this airlift box, friendly city or airfield on "
                                    "a clear, desert or rough hex not held by the enemy (from the map: the same or an "
                                    "adjacent map) with one ATP; morale check on landing (15.5, 13.7 d)"),
    ("arrive", "Reinforcement arrives…", "27.1; 30.2; 31.2", "Bring a reinforcement waiting for a friendly Movement "
                                                            "Phase onto its arrival hex: 27.1 at most 14 shipping "
                                                            "steps a GT and one dump or two RP a phase; 30.2 any two "
                                                            "dumps/RP a phase at El Agheila; 31.2 in Phase 15; 27.1 c) "
                                                            "one dump or two combat steps a phase by coastal shipping, "
                                                            "and by air lift once AXC-4 is played"),
    ("fall_braun_drop", "Fall Braun airdrop…", "AXC-19 b", "Airdrop an airborne unit from the Fall Braun Box on a Map T "
                                                           "hex with one ATP; morale check on landing (AXC-19 b, 15.5)"),
]

#: Orders only one side ever gives (the engine would refuse the other): fleets are Commonwealth (20.4), the FNA
#: road is Allied (Axis units may not enter the FNA boxes, 22.7), the Fall Braun drop is Axis (AXC-19 b).
ORDER_SIDE = {"shore_bombard": "Allied", "fleet_strike_box": "Allied", "fna_move": "Allied",
              "fall_braun_drop": "Axis"}

NRV = "box:NRV"
RAIDER_ORDERS = ("oasis_move", "raid")
FLEET_ORDERS = ("shore_bombard", "fleet_strike_box")     # 20.4.2: need no selected stack
NO_STACK_ORDERS = FLEET_ORDERS + ("fall_braun_drop", "arrive")     # the unit is picked in the form
COASTAL_MISSIONS = "box:CoastalMissions"
MISSIONS = [("Supply raid on an adjacent MSU or dump", "supply"),
            ("Airfield raid on an adjacent enemy airfield", "airfield"),
            ("Guiding across a wadi hexside (does not move)", "guiding")]
AIR_ORDERS = ("interdict", "air_bombard")     # 19.6 / 19.8: the air unit is picked in the form, no stack needed


def _raiders_enabled(st) -> bool:
    """The engine's own test of the optional desert raider rules (16.0)."""
    if st is None:
        return False
    try:
        from core.rules import raiders

        return raiders.enabled(st)
    except Exception:  # noqa: BLE001 - no raider module: no raider orders
        return False


def track_routes(start: str) -> list[tuple[str, list[str], int]]:
    """The Oasis Track nodes reachable from ``start`` with the fewest links: (node, path, MP).  Only a picker's
    list — the engine judges the move (MA, enemy boxes, desert capability)."""
    try:
        from core.rules import raiders, tec
    except Exception:  # noqa: BLE001
        return []
    g = raiders.links()
    if start not in g:
        # 16.1: the Chad unit enters at Kufra; the engine refuses anyone else
        return [(raiders.KUFRA, [raiders.KUFRA], 0)]
    seen = {start: ([], 0)}
    frontier = [start]
    while frontier:
        nxt = []
        for a in frontier:
            path, mp = seen[a]
            for b, cost in sorted(g.get(a, {}).items()):
                if b not in seen:
                    seen[b] = (path + [b], mp + cost)
                    nxt.append(b)
        frontier = nxt
    return [(n, p, int(tec.mp(mp))) for n, (p, mp) in sorted(seen.items(), key=lambda kv: (kv[1][1], kv[0]))
            if n != start]


def node_name(node: str) -> str:
    """``box:Oasis:zella`` → ``Zella box``; a hex label stays."""
    if node.startswith("box:Oasis:"):
        return node.split(":")[-1].replace("_", " ").title() + " box"
    return node


def unit_name(uid: str, st=None) -> str:
    """A unit's counter name (``5 Pz``), not its id."""
    u = st.units.get(uid) if st is not None else None
    if u is not None:
        try:
            return counterart.face_of(u).title()
        except Exception:  # noqa: BLE001 - an unknown counter keeps its id
            return uid
    c = counterart.lookup(uid)
    return getattr(c, "name", None) or uid


def _kind(uid: str) -> tuple[str, str]:
    c = counterart.lookup(uid)
    return (getattr(c, "kind", "") or "", getattr(c, "unit_type", "") or "") if c is not None else ("", "")


def is_dump(uid: str) -> bool:
    return _kind(uid) == ("supply", "dump")


def is_msu(uid: str) -> bool:
    return _kind(uid) == ("supply", "msu")


def is_base(uid: str) -> bool:
    return _kind(uid) == ("supply", "base")


def is_combat(uid: str) -> bool:
    return _kind(uid)[0] == "combat"


def is_supply(uid: str) -> bool:
    return _kind(uid)[0] == "supply"


def _is_raider(uid: str) -> bool:
    c = counterart.lookup(uid)
    return getattr(c, "move_class", "") == "raider"


def _neighbour_labels(h) -> list[str]:
    return [n.label for n in h.neighbours()]


def _airfield(label: str) -> bool:
    try:
        from core import mapdata
        from core.hexgrid import Hex

        return bool(mapdata.load().airfield(Hex.parse(label)))
    except Exception:  # noqa: BLE001 - no map data: the hex is listed without the word
        return False


def is_rp(uid: str) -> bool:
    return _kind(uid)[1] == "refit point"


@dataclass
class Field:
    """One argument of an order form."""

    key: str
    label: str
    kind: str                                   # combo | checks | spin | hexes
    choices: Callable[[dict], list] | list = field(default_factory=list)   # [(text, value)] or [(text, value, on)]
    lo: int = 1                                 # spin: range; hexes: how many hexes
    hi: int = 1
    optional: bool = False


class OrderForm(QGroupBox):
    """The arguments of one order; hexes are picked on the map.  Send builds the engine action."""

    def __init__(self, panel: "MovementOrders", kind: str, title: str, fields: list[Field],
                 build: Callable[[dict], dict], *, store: bool = False):
        super().__init__(title)
        self.panel, self.kind, self.fields, self.build, self.store = panel, kind, fields, build, store
        self.widgets: dict[str, QWidget] = {}
        self.hexes: dict[str, list[str]] = {f.key: [] for f in fields if f.kind == "hexes"}
        self.picking: str | None = None
        lay = QFormLayout(self)
        lay.setFieldGrowthPolicy(QFormLayout.AllNonFixedFieldsGrow)
        lay.setRowWrapPolicy(QFormLayout.WrapLongRows)
        for f in fields:
            lay.addRow(f.label, self._make(f))
        row = QHBoxLayout()
        self.send = QPushButton("Add" if store else "Send")
        self.send.setObjectName("OrderSend")
        self.send.setToolTip("Add this to the next move" if store else "Send the order to the engine, which judges it")
        self.send.clicked.connect(self.submit)
        self.cancel = QPushButton("Cancel")
        self.cancel.clicked.connect(panel.close_form)
        row.addWidget(self.send)
        row.addWidget(self.cancel)
        row.addStretch(1)
        lay.addRow(row)
        self.note = QLabel("")
        self.note.setWordWrap(True)
        self.note.setObjectName("Refusal")
        self.note.hide()
        lay.addRow(self.note)
        self.refill()
        first = next((f.key for f in fields if f.kind == "hexes"), None)
        if first:
            self.start_pick(first)
        self._update_send()

    def _make(self, f: Field) -> QWidget:
        if f.kind == "combo":
            w = QComboBox()
            w.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
            w.setMinimumContentsLength(14)
            w.currentIndexChanged.connect(lambda _i: self.refill())     # later choices may depend on this one
        elif f.kind == "spin":
            w = QSpinBox()
            w.setRange(f.lo, f.hi)
        elif f.kind == "checks":
            w = QWidget()
            v = QVBoxLayout(w)
            v.setContentsMargins(0, 0, 0, 0)
            v.setSpacing(1)
        else:   # hexes
            w = QWidget()
            h = QHBoxLayout(w)
            h.setContentsMargins(0, 0, 0, 0)
            lab = QLabel("—")
            lab.setObjectName("PickedHexes")
            lab.setWordWrap(True)
            btn = QToolButton()
            btn.setText("Pick on the map")
            btn.setCheckable(True)
            btn.setToolTip(f"Click {'the hex' if f.hi == 1 else 'the hexes, in order,'} on the map")
            btn.clicked.connect(lambda on, k=f.key: self.start_pick(k) if on else self.stop_pick())
            clear = QToolButton()
            clear.setText("Clear")
            clear.clicked.connect(lambda _=False, k=f.key: self._clear_hexes(k))
            h.addWidget(lab, 1)
            h.addWidget(btn)
            h.addWidget(clear)
            w.label, w.button = lab, btn
        self.widgets[f.key] = w
        return w

    def values(self) -> dict:
        out: dict = {}
        for f in self.fields:
            w = self.widgets[f.key]
            if f.kind == "combo":
                out[f.key] = w.currentData()
            elif f.kind == "spin":
                out[f.key] = w.value()
            elif f.kind == "checks":
                out[f.key] = [cb.property("value") for cb in w.findChildren(QCheckBox) if cb.isChecked()]
            else:
                out[f.key] = list(self.hexes[f.key])
        return out

    def refill(self) -> None:
        """Fill the combos and check-boxes (some depend on a picked hex)."""
        vals = self.values() if self.widgets else {}
        for f in self.fields:
            if f.kind not in ("combo", "checks"):
                continue
            choices = f.choices(vals) if callable(f.choices) else f.choices
            w = self.widgets[f.key]
            if f.kind == "combo":
                cur = w.currentData()
                w.blockSignals(True)
                w.clear()
                for c in choices:
                    w.addItem(c[0], c[1])
                i = w.findData(cur)
                w.setCurrentIndex(i if i >= 0 else 0)
                w.blockSignals(False)
                vals[f.key] = w.currentData()          # the fields after this one see it
            else:
                was = {cb.property("value"): cb.isChecked() for cb in w.findChildren(QCheckBox) if cb.isEnabled()}
                for cb in w.findChildren(QCheckBox):
                    cb.setParent(None)
                    cb.deleteLater()
                for c in choices:
                    cb = QCheckBox(c[0])
                    cb.setProperty("value", c[1])
                    cb.setChecked(was[c[1]] if c[1] in was else (bool(c[2]) if len(c) > 2 else False))
                    cb.toggled.connect(lambda _on: self._update_send())
                    w.layout().addWidget(cb)
                if not choices:
                    cb = QCheckBox("(none here)")
                    cb.setEnabled(False)
                    w.layout().addWidget(cb)
        self._update_send()

    def _update_send(self) -> None:
        v = self.values()
        ok = True
        for f in self.fields:
            if f.optional:
                continue
            if f.kind == "hexes" and not (f.lo <= len(v[f.key]) <= f.hi):
                ok = False
            if f.kind == "combo" and v[f.key] is None and self.widgets[f.key].count() == 0:
                ok = False
            if f.kind == "checks" and not v[f.key]:
                ok = False
        self.send.setEnabled(ok)

    # -- picking hexes on the map
    def start_pick(self, key: str) -> None:
        self.picking = key
        for f in self.fields:
            if f.kind == "hexes":
                self.widgets[f.key].button.setChecked(f.key == key)
        f = next(x for x in self.fields if x.key == key)
        self.panel.win.status.showMessage(
            f"{self.title()}: click {'the hex' if f.hi == 1 else 'up to %d hexes, in order,' % f.hi} on the map "
            f"for “{f.label.rstrip(':')}” (Esc to stop picking)", 15000)
        self.panel.win.tabs.setCurrentIndex(0)

    def stop_pick(self) -> None:
        self.picking = None
        for f in self.fields:
            if f.kind == "hexes":
                self.widgets[f.key].button.setChecked(False)

    def pick(self, label: str) -> None:
        key = self.picking
        if key is None:
            return
        f = next(x for x in self.fields if x.key == key)
        cur = self.hexes[key]
        if f.hi == 1:
            cur[:] = [label]
        elif cur and cur[-1] == label:
            return
        else:
            cur.append(label)
        self.widgets[key].label.setText(" → ".join(cur))
        if len(cur) >= f.hi:
            self.stop_pick()
        self.panel.show_picked(cur)
        self.refill()

    def _clear_hexes(self, key: str) -> None:
        self.hexes[key] = []
        self.widgets[key].label.setText("—")
        self.panel.show_picked([])
        self.refill()

    def submit(self) -> None:
        self.note.hide()
        args = self.build(self.values())
        if self.store:
            self.panel.close_form()
            return
        self.panel.send(self.kind, args)

    def show_refusal(self, text: str) -> None:
        self.note.setText(f"✖ {text}")
        self.note.show()


class MovementOrders(QFrame):
    """Unit check-boxes, move options and orders for the selected stack (shown during movement decisions)."""

    changed = Signal()      # the checked units or the preview options changed: redraw the reachable hexes

    def __init__(self, win):
        super().__init__()
        self.win = win
        self.setObjectName("MovementOrders")
        self.setFrameShape(QFrame.StyledPanel)
        self._key: tuple | None = None
        self.side: str | None = None
        self.where: str | None = None          # hex label or box
        self.units: list[str] = []
        self.pickup: dict[str, list[str]] = {}
        self.drop: dict[str, list[str]] = {}
        self.form: OrderForm | None = None
        self.free: tuple[str, ...] = ()
        self.on_visible: Callable[[bool], None] | None = None     # the window shows/hides the panel's container
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.setSpacing(4)
        self.title = QLabel("<b>Movement orders</b>")
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        self.units_box = QWidget()
        self.units_lay = QVBoxLayout(self.units_box)
        self.units_lay.setContentsMargins(0, 0, 0, 0)
        self.units_lay.setSpacing(1)
        lay.addWidget(self.units_box)
        self.checks: dict[str, QCheckBox] = {}
        sel = QHBoxLayout()
        self.all_btn = QToolButton()
        self.all_btn.setText("All")
        self.all_btn.setToolTip("Check every unit of the stack")
        self.all_btn.clicked.connect(lambda: self._set_all(True))
        self.none_btn = QToolButton()
        self.none_btn.setText("None")
        self.none_btn.setToolTip("Uncheck every unit (then check the ones that move)")
        self.none_btn.clicked.connect(lambda: self._set_all(False))
        sel.addWidget(QLabel("Units that move:"))
        sel.addWidget(self.all_btn)
        sel.addWidget(self.none_btn)
        sel.addStretch(1)
        lay.addLayout(sel)
        # ---- move options
        opts = FlowLayout(None, hspacing=10, vspacing=2)
        self.road = QCheckBox("Road march")
        self.road.setToolTip("Road march (13.2.3): along the road only, not adjacent to the enemy; the preview shows "
                             "the engine's reachable hexes with it")
        self.forced = QCheckBox("Forced march")
        self.forced.setToolTip("Forced march (13.2.4): the engine rolls the extra MP when the move is sent")
        self.night = QCheckBox("Night")
        self.night.setToolTip("Night movement (11.5): EZOC costs doubled, disrupted at the end of the move")
        self.lift = QCheckBox("Truck lift")
        self.lift.setToolTip("Truck lift (13.7): motorised units carry foot units; pick up and drop off on the way")
        for cb in (self.road, self.forced, self.night, self.lift):
            cb.toggled.connect(self._options_changed)
            opts.addWidget(cb)
        lay.addLayout(opts)
        lift_row = QHBoxLayout()
        self.pickup_btn = QPushButton("Pick up at…")
        self.pickup_btn.setToolTip("Truck lift (13.7): pick up units in a hex on the way")
        self.pickup_btn.clicked.connect(self.open_pickup)
        self.drop_btn = QPushButton("Drop off at…")
        self.drop_btn.setToolTip("Truck lift (13.7): drop off carried units in a hex on the way")
        self.drop_btn.clicked.connect(self.open_drop)
        self.lift_clear = QToolButton()
        self.lift_clear.setText("Clear")
        self.lift_clear.clicked.connect(self.clear_lift)
        lift_row.addWidget(self.pickup_btn)
        lift_row.addWidget(self.drop_btn)
        lift_row.addWidget(self.lift_clear)
        lift_row.addStretch(1)
        self.lift_row = QWidget()
        self.lift_row.setLayout(lift_row)
        lay.addWidget(self.lift_row)
        self.lift_label = QLabel("")
        self.lift_label.setWordWrap(True)
        lay.addWidget(self.lift_label)
        lay.addWidget(QLabel("Then leave the map:"))
        exit_row = QHBoxLayout()
        self.exit = QComboBox()
        self.exit.setToolTip("Leave the hex grid at the end of the move (13.8): the Nile River Valley (22.1), "
                             "withdrawal (7.4) or an Oasis Track box (16.2)")
        self.exit.setSizeAdjustPolicy(QComboBox.AdjustToMinimumContentsLengthWithIcon)
        self.exit.setMinimumContentsLength(10)
        self.exit.currentIndexChanged.connect(lambda _i: self._update_buttons())
        exit_row.addWidget(self.exit, 1)
        self.exit_here = QPushButton("Leave from here")
        self.exit_here.setToolTip("Leave the map from this hex without moving first (13.8)")
        self.exit_here.clicked.connect(self.leave_here)
        exit_row.addWidget(self.exit_here)
        lay.addLayout(exit_row)
        # ---- orders
        self.order_buttons: dict[str, QPushButton] = {}
        grid = FlowLayout(None, hspacing=4, vspacing=4)
        for kind, text, rule, tip in ORDERS:
            b = QPushButton(text)
            b.setToolTip(tip)
            b.clicked.connect(lambda _=False, k=kind: self.order(k))
            grid.addWidget(b)
            self.order_buttons[kind] = b
        lay.addLayout(grid)
        self.form_holder = QVBoxLayout()
        lay.addLayout(self.form_holder)
        self.hint = QLabel("")
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color:#6b5a3a")
        lay.addWidget(self.hint)
        self._fill_exits()
        self.hide()

    # ------------------------------------------------------------------ showing
    def _fill_exits(self) -> None:
        self.exit.clear()
        self.exit.addItem("— stay on the map", None)
        self.exit.addItem("Nile River Valley box (22.1)", NRV)
        self.exit.addItem("Withdraw (7.4)", "withdraw")
        try:
            from core.rules import raiders

            boxes = sorted({b for k, v in raiders.links().items() for b in [k, *v] if str(b).startswith("box:")})
        except Exception:  # noqa: BLE001 - no Oasis Track data: the other exits remain
            boxes = []
        for b in boxes:
            self.exit.addItem(f"{b.split(':')[-1].title()} oasis box (16.2)", b)

    def show_for(self, d, st, hex_label: str | None, box: str | None, can_act: bool) -> None:
        """Show the panel for the selected hex/box while a decision takes ``move`` free-form."""
        if d is None or st is None or not can_act or "move" not in (d.free_kinds or ()):
            self._key = None
            self.close_form()
            self._shown(False)
            return
        self.side = d.side
        self.free = tuple(d.free_kinds)
        where = hex_label or box
        from app import geometry as geo

        units = []
        if where:
            for u in st.units.values():
                if u.side != d.side:
                    continue
                rec = geo.rec_of(u.loc) if hex_label else None
                here = (rec is not None and rec.label == hex_label) if hex_label else (u.loc == box or u.loc.startswith(box + ":"))
                if here and _kind(u.id)[0] in ("combat", "supply"):
                    units.append(u.id)
        units.sort()
        moved = dict((d.context or {}).get("moved", {}))
        key = (where, tuple(units))
        if key != self._key:
            keep = {u for u, cb in self.checks.items() if not cb.isChecked()} if self._key and self._key[0] == where else set()
            self._key = key
            self.where = where
            self.units = units
            for cb in self.checks.values():
                cb.setParent(None)
                cb.deleteLater()
            self.checks = {}
            for uid in units:
                cb = QCheckBox(unit_name(uid, st) + ("  · moved" if uid in moved else ""))
                cb.setToolTip(f"{uid}: check to move it with the stack; uncheck to leave it behind (13.1)"
                              + ("\nThe engine counts it as moved this phase" if uid in moved else ""))
                cb.setChecked(uid not in keep)
                cb.toggled.connect(lambda _on: self._selection_changed())
                self.units_lay.addWidget(cb)
                self.checks[uid] = cb
            if self.form is not None and self.form.kind != "lift":
                self.close_form()
        else:
            for uid, cb in self.checks.items():
                cb.setText(unit_name(uid, st) + ("  · moved" if uid in moved else ""))
        place = where or "no stack"
        if hex_label:
            place = f"hex {hex_label}"
        elif box:
            place = self.win.offmap.title_of(box) if hasattr(self.win, "offmap") else box
        self.title.setText(f"<b>Movement orders</b> — {d.side}, {place}" if where else
                           f"<b>Movement orders</b> — {d.side}: select a stack on the map (or a box)")
        self.hint.setText("" if units else ("No units of the moving side here." if where else
                                            "Click one of your stacks; its units appear here as check-boxes."))
        self._update_buttons()
        self._shown(True)

    def _shown(self, on: bool) -> None:
        self.setVisible(on)
        if self.on_visible is not None:
            self.on_visible(on)

    def _update_buttons(self) -> None:
        have = bool(self.checked_units())
        raiders_on = _raiders_enabled(self.win.ctl.state())
        for kind, b in self.order_buttons.items():
            k = "move" if kind == "enter" else kind
            offered = (k in self.free and (raiders_on or kind not in RAIDER_ORDERS)
                       and ORDER_SIDE.get(kind, self.side) == self.side)
            b.setEnabled(offered and (bool(self.where) or kind in NO_STACK_ORDERS))
            b.setVisible(offered)
        for cb in (self.road, self.forced, self.night, self.lift):
            cb.setEnabled("move" in self.free)
        self.lift_row.setVisible(self.lift.isChecked())
        self.exit_here.setEnabled(have and self.exit.currentData() is not None)
        bits = [f"pick up {', '.join(unit_name(u) for u in ids)} at {h}" for h, ids in self.pickup.items()]
        bits += [f"drop off {', '.join(unit_name(u) for u in ids)} at {h}" for h, ids in self.drop.items()]
        self.lift_label.setText(("Truck lift: " + "; ".join(bits)) if bits and self.lift.isChecked() else "")
        self.lift_label.setVisible(bool(bits) and self.lift.isChecked())
        for kind in AIR_ORDERS:                   # 19.6 / 19.8: offered whenever the engine takes the kind
            if kind in self.order_buttons:
                self.order_buttons[kind].setEnabled(kind in self.free)

    def _set_all(self, on: bool) -> None:
        for cb in self.checks.values():
            cb.blockSignals(True)
            cb.setChecked(on)
            cb.blockSignals(False)
        self._selection_changed()

    def _selection_changed(self) -> None:
        self._update_buttons()
        self.changed.emit()

    def _options_changed(self, _on=None) -> None:
        self._update_buttons()
        self.changed.emit()

    # ------------------------------------------------------------------ what a move sends
    def checked_units(self) -> list[str]:
        return [u for u, cb in self.checks.items() if cb.isChecked()]

    def query_options(self) -> dict:
        """The options the engine's ``reachable``/``route`` queries take."""
        out = {}
        if self.road.isChecked():
            out["road_march"] = True
        if self.night.isChecked():
            out["night"] = True
        return out

    def move_args(self) -> dict:
        """The move options added to a ``move`` action (13.2.3, 13.2.4, 11.5, 13.7, 13.8)."""
        a: dict = {}
        if self.road.isChecked():
            a["road_march"] = True
        if self.forced.isChecked():
            a["forced_march"] = True
        if self.night.isChecked():
            a["night"] = True
        if self.lift.isChecked():
            a["lift"] = True
            if self.pickup:
                a["pickup"] = {h: list(v) for h, v in self.pickup.items()}
            if self.drop:
                a["drop"] = {h: list(v) for h, v in self.drop.items()}
        if self.exit.currentData() is not None:
            a["exit"] = self.exit.currentData()
        return a

    def moved(self) -> None:
        """A move was accepted: the one-move options are spent."""
        self.clear_lift()
        self.exit.setCurrentIndex(0)
        self.forced.setChecked(False)

    def clear_lift(self) -> None:
        self.pickup, self.drop = {}, {}
        self._update_buttons()

    # ------------------------------------------------------------------ sending
    def send(self, kind: str, args: dict) -> bool:
        d = self.win.ctl.pending()
        if d is None:
            return False
        ok = self.win.ctl.act(Action(kind=kind, side=d.side, args=args))
        if ok:
            self.close_form()
            self.win.status.showMessage(f"{kind.replace('_', ' ')}: accepted by the engine", 6000)
        return ok

    def show_refusal(self, reason: str, rule: str) -> None:
        if self.form is not None:
            self.form.show_refusal(f"{reason}" + (f" — rule {rule}" if rule and rule not in reason else ""))

    def leave_here(self) -> None:
        units = self.checked_units()
        if units and self.exit.currentData() is not None:
            if self.send("move", {"units": units, "path": [], **self.move_args()}):
                self.moved()

    # ------------------------------------------------------------------ forms
    def picking(self) -> bool:
        return self.form is not None and self.form.picking is not None

    def hex_picked(self, label: str) -> None:
        if self.form is not None:
            self.form.pick(label)

    def show_picked(self, hexes: list[str]) -> None:
        self.win.scene.path.set_cells({h: (str(i + 1), "#9fc5e8") for i, h in enumerate(hexes)})

    def close_form(self) -> None:
        if self.form is not None:
            self.form.setParent(None)
            self.form.deleteLater()
            self.form = None
            self.win.scene.path.set_cells({})
            self.win.status.clearMessage()
        for b in self.order_buttons.values():
            b.setDown(False)

    def _open(self, form: OrderForm) -> OrderForm:
        self.close_form()
        self.form = form
        self.form_holder.addWidget(form)
        return form

    def _here(self, pred=None, side_only: bool = True) -> list[tuple[str, str]]:
        st = self.win.ctl.state()
        out = []
        for uid in self.units:
            if pred is None or pred(uid):
                out.append((f"{unit_name(uid, st)} ({uid})", uid))
        return out

    def _all_of_side(self, pred) -> list[tuple[str, str]]:
        st = self.win.ctl.state()
        out = []
        for u in sorted(st.units.values(), key=lambda x: x.id):
            if u.side == self.side and pred(u.id) and u.loc not in ("removed",):
                out.append((f"{unit_name(u.id, st)} in {u.loc}", u.id))
        return out

    def order(self, kind: str) -> OrderForm | None:
        """An order button: send it (no arguments to choose) or open its form."""
        units = self.checked_units()
        where = self.where or ""
        title = next(t for k, t, _r, _tip in ORDERS if k == kind).rstrip("…")
        rule = next(r for k, _t, r, _tip in ORDERS if k == kind)
        if kind == "reserve":
            self.send("reserve", {"units": units})
            return None
        if kind == "create_base":
            self.send("create_base", {"hex": where})
            return None
        if kind == "battle_marker":
            st = self.win.ctl.state()
            return self._open(OrderForm(self, kind, f"{title} ({rule})", [
                Field("units", "Units:", "checks", [(unit_name(u, st), u, True) for u in units if is_combat(u)]),
                Field("form", "Form of combat:", "combo", [("Deliberate battle (14.9.1)", "deliberate"),
                                                           ("Mobile battle (14.9.2)", "mobile")])],
                lambda v: {"units": v["units"], "form": v["form"]}))
        if kind == "emergency_supply":
            return self._open(OrderForm(self, kind, f"{title} ({rule})", [
                Field("unit", "Unit:", "combo", self._here(is_combat)),
                Field("dump", "Dump:", "combo", self._here(is_dump))], lambda v: v))
        if kind == "destroy_supply":
            return self._open(OrderForm(self, kind, f"{title} ({rule})", [
                Field("unit", "Supply unit:", "combo", self._here(is_supply)),
                Field("by", "Destroyed by:", "combo", self._here(is_combat))], lambda v: v))
        if kind == "transfer":
            here = self._here(is_base)
            return self._open(OrderForm(self, kind, f"{title} ({rule})", [
                Field("from", "From the base:", "combo", here),
                Field("to", "To the base:", "combo", [c for c in self._all_of_side(is_base) if c[1] not in dict(here).values()]),
                Field("units", "Items:", "checks", [(t, v, False) for t, v in self._here(lambda u: is_dump(u) or is_rp(u))])],
                lambda v: v))
        if kind == "build_fort":
            return self._open(OrderForm(self, kind, f"{title} ({rule})", [
                Field("unit", "Built by:", "combo", self._here(lambda u: is_combat(u))),
                Field("level", "Level F:", "spin", lo=0, hi=3),
                Field("dump", "Dump expended:", "combo", [("— none (an F0 fort)", None)] + self._all_of_side(is_dump))],
                lambda v: {k: x for k, x in v.items() if x is not None}))
        if kind in ("build_rail", "build_road"):
            fields = [Field("msu", "MSU:", "combo", self._here(is_msu))]
            if kind == "build_road":
                from core.rules.construction import ROADS

                fields.append(Field("road", "Road:", "combo", [(r.replace("-", " – ").title(), r) for r in ROADS]))
            fields.append(Field("hexes", "Hexes (1 or 2):", "hexes", lo=1, hi=2))
            return self._open(OrderForm(self, kind, f"{title} ({rule})", fields, lambda v: v))
        if kind in ("rail", "coastal_ship", "air_land"):
            fields = [Field("units", "Units:", "checks", [(unit_name(u, self.win.ctl.state()), u, True) for u in units])]
            if kind == "rail" and self.side == "Allied":
                fields.append(Field("box", "Or to:", "combo", [("— the hex picked on the map", None),
                                                               ("Nile River Valley box (22.1)", NRV)]))
            if kind == "coastal_ship":       # 22.1: Allied coastal shipping to the NRV; 20.1 c): to the Refit Box
                extra = [("Nile River Valley box (22.1)", NRV)] if self.side == "Allied" else []
                extra.append((f"{self.side} Refit Box: motorised units leaving by a limited port box (20.1 c)",
                              f"box:Refit:{self.side}"))
                fields.append(Field("box", "Or to:", "combo", [("— the port picked on the map", None)] + extra))
            fields.append(Field("to", "To:", "hexes", lo=1, hi=1,
                                optional=(kind == "rail" and self.side == "Allied") or kind == "coastal_ship"))

            def build(v, kind=kind):
                to = v.get("box") or (v["to"][0] if v["to"] else "")
                return {"units": v["units"], "to": to}

            return self._open(OrderForm(self, kind, f"{title} ({rule})", fields, build))
        if kind == "sf_sea":
            from core.rules import special_forces

            st = self.win.ctl.state()
            boxes = list(special_forces.HOME_PORTS.get(self.side, ()))
            boxes += ["box:Torch", "box:TorchEast"] if self.side == "Allied" else []
            return self._open(OrderForm(self, kind, f"{title} ({rule})", [
                Field("units", "Units:", "checks", [(unit_name(u, st), u, True) for u in units]),
                Field("box", "Or to:", "combo", [("— the hex picked on the map", None)] + [(b[4:], b) for b in boxes]),
                Field("to", "To:", "hexes", lo=1, hi=1, optional=True)],
                lambda v: {"units": v["units"], "to": v.get("box") or (v["to"][0] if v["to"] else "")}))
        if kind in AIR_ORDERS:
            return self._open(self._air_form(kind, f"{title} ({rule})"))
        if kind == "oasis_move":
            st = self.win.ctl.state()
            start = where if where else ""
            routes = track_routes(start)
            choices = [(f"{node_name(n)} — {' → '.join(node_name(x) for x in p)} ({mp} MP)", p) for n, p, mp in routes]
            return self._open(OrderForm(self, kind, f"{title} ({rule})", [
                Field("units", "Units:", "checks", [(unit_name(u, st), u, True) for u in units]),
                Field("path", "To:", "combo", choices)], lambda v: {"units": v["units"], "path": list(v["path"] or [])}))
        if kind == "raid":
            st = self.win.ctl.state()

            def targets(v):
                uid = v.get("unit")
                mission = v.get("mission")
                u = st.units.get(uid or "")
                if u is None or mission == "guiding":
                    return [("— none (the raider's own hex)", None)]
                from core.hexgrid import Hex, HexLabelError

                try:
                    h = Hex.parse(u.loc)
                except (HexLabelError, ValueError):
                    return []
                near = sorted(_neighbour_labels(h))
                if mission == "supply":
                    return [(f"{unit_name(o.id, st)} in {o.loc}", o.id) for o in sorted(st.units.values(), key=lambda x: x.id)
                            if o.side != self.side and o.loc in near and is_supply(o.id) and not is_base(o.id)]
                return [(f"Airfield {lab}" if _airfield(lab) else lab, lab) for lab in near]

            return self._open(OrderForm(self, kind, f"{title} ({rule})", [
                Field("unit", "Raider:", "combo", self._here(_is_raider)),
                Field("mission", "Mission:", "combo", MISSIONS),
                Field("target", "Target:", "combo", targets, optional=True)],
                lambda v: {k: x for k, x in v.items() if x is not None}))
        if kind in FLEET_ORDERS:
            return self._open(self._fleet_form(kind, f"{title} ({rule})"))
        if kind == "fna_move":
            from core.rules import offmap

            st = self.win.ctl.state()
            legs = offmap.fna_road().get(where, {})
            names = {loc: r.get("name", loc) for loc, r in offmap.fna_boxes().items()}
            return self._open(OrderForm(self, kind, f"{title} ({rule})", [
                Field("units", "Units:", "checks", [(unit_name(u, st), u, True) for u in units]),
                Field("to", "To:", "combo", [(f"{names.get(n, n)} ({hexes} road hexes)", n)
                                             for n, hexes in sorted(legs.items())])],
                lambda v: {"units": v["units"], "to": v["to"]}))
        if kind == "airdrop":
            from core.counters import all_counters
            from core.rules.offmap import base_id

            st = self.win.ctl.state()
            able = [u for u in units if getattr(all_counters().get(base_id(u)), "airdrop_capable", False)]
            return self._open(OrderForm(self, kind, f"{title} ({rule})", [
                Field("unit", "Airborne unit:", "combo", [(unit_name(u, st), u) for u in able]),
                Field("to", "Drop hex:", "hexes", lo=1, hi=1)],
                lambda v: {"unit": v["unit"], "to": (v["to"] or [""])[0]}))
        if kind == "fall_braun_drop":
            st = self.win.ctl.state()
            try:
                droppers = list(self.win.ctl.query("fall_braun_droppers"))
            except Exception:  # noqa: BLE001 - no airdrop rules: an empty list
                droppers = []
            return self._open(OrderForm(self, kind, f"{title} ({rule})", [
                Field("unit", "Airborne unit:", "combo", [(unit_name(u, st), u) for u in droppers if u in st.units]),
                Field("to", "Drop hex (Map T):", "hexes", lo=1, hi=1)],
                lambda v: {"unit": v["unit"], "to": (v["to"] or [""])[0]}))
        if kind == "arrive":
            st = self.win.ctl.state()
            arrivals = dict(self.win.ctl.query("movement_arrivals", side=self.side))
            methods = dict(self.win.ctl.query("arrival_methods", side=self.side))     # 27.1 c)
            hows = [("at its arrival hex", "")] + [(text, by) for by, text in (
                ("coastal", "using coastal shipping (27.1 c; 20.3)"), ("airlift", "by air lift (27.1 c; 13.7)"))
                if methods.get(by)]

            def pool(v: dict) -> dict:
                return methods.get(v.get("by"), {}) if v.get("by") else arrivals

            return self._open(OrderForm(self, kind, f"{title} ({rule})", [
                Field("by", "How:", "combo", hows),
                Field("unit", "Reinforcement:", "combo", lambda v: [(unit_name(u, st), u)
                                                                    for u, pts in sorted(pool(v).items()) if pts]),
                Field("to", "Arrives at:", "combo", lambda v: [(node_name(p), p) for p in pool(v).get(v.get("unit"), [])])],
                lambda v: {"unit": v["unit"], "to": v["to"], **({"by": v["by"]} if v.get("by") else {})}))
        if kind == "enter":
            box = where

            def build(v):
                return {"units": v["units"], "enter": box, "path": v["path"], **{
                    k: x for k, x in self.move_args().items() if k != "exit"}}

            return self._open(OrderForm(self, "move", f"{title} ({rule})", [
                Field("units", "Units:", "checks", [(unit_name(u, self.win.ctl.state()), u, True) for u in units]),
                Field("path", "Entry hex, then the hexes entered:", "hexes", lo=1, hi=60)], build))
        return None

    def _fleet_form(self, kind: str, title: str) -> OrderForm:
        """20.4.2: the fleet (Coastal Missions Box) and its target: a coastal hex picked on the map and an Axis
        supply unit there (shore bombardment), or a port whose boxes hold Axis units (fleet strike)."""
        st = self.win.ctl.state()
        fleets = [(unit_name(u.id, st), u.id) for u in sorted(st.units.values(), key=lambda x: x.id)
                  if u.loc == COASTAL_MISSIONS and _kind(u.id)[0] == "fleet"]
        if kind == "fleet_strike_box":
            ports = sorted({u.loc.split(":", 2)[2] for u in st.units.values()
                            if u.side != self.side and u.loc.startswith("box:PortBoxes:")})
            return OrderForm(self, kind, title, [
                Field("fleet", "Fleet:", "combo", fleets),
                Field("port", "Port boxes of:", "combo", [(p, p) for p in ports])], lambda v: v)

        def targets(v):
            hexes = v.get("hex") or []
            return [(f"{unit_name(o.id, st)} ({o.id})", o.id) for o in sorted(st.units.values(), key=lambda x: x.id)
                    if hexes and o.loc == hexes[0] and o.side != self.side and is_supply(o.id)]

        return OrderForm(self, kind, title, [
            Field("fleet", "Fleet:", "combo", fleets),
            Field("hex", "Coastal hex:", "hexes", lo=1, hi=1),
            Field("target", "Supply unit:", "combo", targets)],
            lambda v: {"fleet": v["fleet"], "hex": (v["hex"] or [""])[0], "target": v["target"]})

    def _air_form(self, kind: str, title: str) -> OrderForm:
        """19.6 Interdict (air unit + a hex clicked on the map) / 19.8 Bombard (air unit + a target): the lists are
        the engine's ``air_mission_units`` / ``bombard_targets`` queries; the engine judges the order."""
        st = self.win.ctl.state()
        d = self.win.ctl.pending()
        side = d.side if d is not None else self.side
        try:
            flyers = list(self.win.ctl.query("air_mission_units", side=side, mission=kind))
        except Exception:  # noqa: BLE001 - no air-mission rules: an empty list
            flyers = []
        units = [(f"{unit_name(u, st)} ({st.units[u].loc})", u) for u in flyers if u in st.units]
        if kind == "interdict":
            return OrderForm(self, kind, title, [
                Field("unit", "Air unit:", "combo", units),
                Field("hex", "Hex interdicted:", "hexes", lo=1, hi=1)],
                lambda v: {"unit": v["unit"], "hex": (v["hex"] or [""])[0]})

        def targets(v):
            try:
                found = self.win.ctl.query("bombard_targets", side=side, unit=v.get("unit") or "")
            except Exception:  # noqa: BLE001
                return []
            out = []
            for t in found:
                u = st.units.get(t)
                out.append((f"{unit_name(t, st)} in {u.loc}", t) if u is not None else (f"Airfield {t}", t))
            return out

        return OrderForm(self, kind, title, [
            Field("unit", "Air unit:", "combo", units),
            Field("target", "Target:", "combo", targets)], lambda v: {"unit": v["unit"], "target": v["target"]})

    def open_pickup(self) -> OrderForm:
        st = self.win.ctl.state()

        def here(v):
            hexes = v.get("hex") or []
            return [(unit_name(u.id, st), u.id, False) for u in sorted(st.units.values(), key=lambda x: x.id)
                    if hexes and u.loc == hexes[0] and u.side == self.side]

        def build(v):
            self.pickup[v["hex"][0]] = list(v["units"])
            self._update_buttons()
            return v

        return self._open(OrderForm(self, "lift", "Truck lift: pick up (13.7)", [
            Field("hex", "In hex:", "hexes", lo=1, hi=1), Field("units", "Units:", "checks", here)], build, store=True))

    def open_drop(self) -> OrderForm:
        st = self.win.ctl.state()
        carried = self.checked_units() + [u for ids in self.pickup.values() for u in ids]

        def build(v):
            self.drop[v["hex"][0]] = list(v["units"])
            self._update_buttons()
            return v

        return self._open(OrderForm(self, "lift", "Truck lift: drop off (13.7)", [
            Field("hex", "In hex:", "hexes", lo=1, hi=1),
            Field("units", "Units:", "checks", [(unit_name(u, st), u, False) for u in carried])], build, store=True))
