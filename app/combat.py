"""The combat dialog: one combat, as the engine describes it, from declaration to advance (14.0).

Everything shown comes from the engine: the pending decision (its prompt and options — every
button of the dialog is one of them), the combat procedures' frames on the procedure stack
(``combat_phase``: the declared combats; ``resolve_combat``: supply declarations, line, columns,
die roll, results per morale group, losses, retreat paths, advances) and the ``odds`` query (the
itemised strengths and shifts).  The dialog computes no rule.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog, QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QSplitter, QTextBrowser, QVBoxLayout, QWidget,
)

from app import counterart, theme
from app.names import humanize
from core.decisions import Decision, Option

#: The decision kinds of the combat procedures (core.rules.combat) the dialog drives.
COMBAT_KINDS = ("combat_declare", "combat_recon_split", "combat_recon_assign", "combat_order", "combat_support",
                "combat_fleet_strike", "combat_def_artillery", "combat_supply", "combat_anti_tank", "combat_line",
                "combat_morale", "combat_loss", "combat_retreat", "combat_battlefield_supply", "combat_advance",
                "combat_exploit")

#: The stages of a combat as the dialog's step strip shows them (14.0, 14.1 steps 1-7).
STAGES = (
    ("Declaration", ("combat_declare", "combat_recon_split", "combat_recon_assign"), ("declare",)),
    ("Order", ("combat_order",), ("order",)),
    ("Support", ("combat_support", "combat_fleet_strike", "combat_def_artillery"), ("air_att", "air_def")),
    ("Supply", ("combat_supply", "combat_anti_tank"), ("supply_att", "supply_def", "at_def", "at_att")),
    ("Terrain line", ("combat_line",), ("line",)),
    ("Die roll", (), ("roll",)),
    ("Results", ("combat_morale",), ("m_def", "m_att")),
    ("Losses", ("combat_loss",), ("loss_def", "loss_att")),
    ("Retreats", ("combat_retreat",), ("retreat_def", "retreat_att")),
    ("Advance", ("combat_advance", "combat_battlefield_supply", "combat_exploit"), ("advance", "finish")),
)


def _name(uid: Any) -> str:
    uid = uid if isinstance(uid, str) else getattr(uid, "id", str(uid))
    c = counterart.lookup(uid)
    return c.name if c and c.name else uid


def _units(ids: Any) -> str:
    return ", ".join(html.escape(_name(u)) for u in ids) if ids else "—"


@dataclass
class CombatInfo:
    """What the engine says about the combat on screen (gathered by :func:`gather`)."""

    decision: Decision | None = None
    declared: list[dict] = field(default_factory=list)      # combat_phase frame: the declared combats
    frame: dict | None = None                               # resolve_combat frame data (None before/after)
    current: dict | None = None                             # the combat described: attackers, hexes, form
    odds: dict | None = None                                # the engine's odds query for it
    odds_error: str = ""
    declared_odds: list[str] = field(default_factory=list)  # odds text per declared combat
    events: list[str] = field(default_factory=list)         # the log lines of this combat
    units: dict = field(default_factory=dict)               # uid -> (loc, steps) for the participants
    outcome: dict | None = None                             # the finished combat's outcome (engine's summary)

    @property
    def stage_index(self) -> int:
        """Which of :data:`STAGES` the combat is at (from the decision kind, else the frame's stage)."""
        kind = self.decision.kind if self.decision else ""
        for i, (_t, kinds, _s) in enumerate(STAGES):
            if kind in kinds:
                return i
        stage = (self.frame or {}).get("stage", "")
        for i, (_t, _k, stages) in enumerate(STAGES):
            if stage in stages:
                return i
        return len(STAGES) - 1 if self.outcome else 0


def is_combat(d: Decision | None) -> bool:
    return d is not None and d.kind in COMBAT_KINDS


def gather(ctl) -> CombatInfo:
    """Read the combat on screen from the controller: decision, combat frames, odds query, log lines."""
    st = ctl.state()
    d = ctl.pending()
    info = CombatInfo(decision=d)
    if st is None:
        return info
    phase = next((f for f in reversed(st.stack) if f.proc == "combat_phase"), None)
    res = next((f for f in reversed(st.stack) if f.proc == "resolve_combat"), None)
    if phase is not None:
        info.declared = [dict(c) for c in phase.data.get("combats", [])]
    if res is not None:
        info.frame = dict(res.data)
        info.current = {"attackers": list(res.data.get("attackers", [])), "hexes": list(res.data.get("hexes", [])),
                        "form": res.data.get("form", "regular")}
    elif info.declared:
        done = [c for c in info.declared if c.get("resolved")]
        waiting = [c for c in info.declared if not c.get("resolved")]
        c = waiting[-1] if d is not None and d.kind == "combat_declare" and waiting else (done[-1] if done else waiting[0])
        info.current = {"attackers": list(c["attackers"]), "hexes": list(c["hexes"]), "form": c.get("form", "regular")}
        if c.get("outcome"):
            info.outcome = dict(c["outcome"])
    names = ctl.query_names()
    if "odds" in names:
        for c in info.declared:
            try:
                info.declared_odds.append(str(ctl.query("odds", attackers=list(c["attackers"]), hex=c["hexes"][0],
                                                        hexes=list(c["hexes"]), form=c.get("form", "regular")).get("odds", "?")))
            except Exception as exc:  # noqa: BLE001 - the engine's refusal is shown instead of odds
                info.declared_odds.append(getattr(exc, "reason", str(exc)))
        cur = info.current
        if cur and info.outcome is None:
            fr = info.frame or {}
            attackers = [u for u in cur["attackers"] if u in st.units]
            kw: dict[str, Any] = {"form": cur["form"], "hexes": cur["hexes"]}
            att_sup, def_sup = fr.get("att_supplied") or {}, fr.get("def_supplied") or {}
            if att_sup:
                kw["supplied"] = any(att_sup.values())
            if def_sup:
                kw["defender_supplied"] = any(def_sup.values())
            if fr.get("line") is not None:
                kw["line"] = fr["line"]
            for k in ("att_air", "def_air"):
                if fr.get(k):
                    kw[k] = list(fr[k])
            try:
                info.odds = ctl.query("odds", attackers=attackers, hex=cur["hexes"][0], **kw) if attackers else None
            except Exception as exc:  # noqa: BLE001
                info.odds_error = f"{getattr(exc, 'reason', exc)} ({getattr(exc, 'rule', '14.0')})"
    ids = set((info.current or {}).get("attackers", [])) | set((info.frame or {}).get("defenders", []))
    if info.odds:
        ids |= set(info.odds.get("defenders", []))
    info.units = {u: (st.units[u].loc, st.units[u].steps, st.units[u].disrupted) for u in ids if u in st.units}
    # the log lines since this combat began (resolve_combat logs "Combat: ..." when it starts)
    log = ctl.log() if not ctl.replaying else ctl.log()[: ctl.replay_index]
    start = None
    for i in range(len(log) - 1, -1, -1):
        if any(e.startswith("Combat: ") for e in log[i].events):
            start = i
            break
    if start is not None and (info.frame is not None or info.outcome is not None):
        lines: list[str] = []
        for e in log[start:]:
            evs = e.events
            k = next((j for j, t in enumerate(evs) if t.startswith("Combat: ")), 0) if e is log[start] else 0
            lines.extend(evs[k:])
        info.events = lines
    return info


# ============================================================================ HTML


def _shift_rows(title: str, items: Any) -> str:
    if not items:
        return ""
    out = [f"<tr><td colspan=2 style='color:#6b4f2a'><b>{html.escape(title)}</b></td></tr>"]
    for it in items:
        if isinstance(it, dict):
            val = it.get("columns", it.get("value", it.get("shift", "")))
            out.append(f"<tr><td>&nbsp;&nbsp;{html.escape(str(it.get('why', it.get('what', it.get('text', '')))))}</td>"
                       f"<td align=right><b>{html.escape(f'{val:+d}' if isinstance(val, int) else str(val))}</b></td></tr>")
        elif isinstance(it, (list, tuple)) and len(it) == 2:
            out.append(f"<tr><td>&nbsp;&nbsp;{html.escape(str(it[1]))}</td><td align=right><b>{html.escape(str(it[0]))}</b></td></tr>")
        else:
            out.append(f"<tr><td colspan=2>&nbsp;&nbsp;{html.escape(str(it))}</td></tr>")
    return "".join(out)


def _supply_text(fr: dict, key: str, uid: str) -> str:
    sup = fr.get(key) or {}
    if uid not in sup:
        return "<span style='color:#8a7a5a'>not declared yet</span>"
    return "in combat supply" if sup[uid] else "<span style='color:#a0301d'>no combat supply</span>"


def participants_html(info: CombatInfo) -> str:
    cur = info.current or {}
    fr = info.frame or {}
    defenders = fr.get("defenders") or (info.odds or {}).get("defenders") or []
    rows = ["<table cellpadding=3 cellspacing=0 width='100%'>",
            "<tr style='background:#e4d7b5'><th align=left>Unit</th><th align=left>Hex</th><th>Steps</th><th align=left>Combat supply (12.6)</th></tr>"]
    for title, ids, key in (("Attacker", cur.get("attackers", []), "att_supplied"), ("Defender", defenders, "def_supplied")):
        rows.append(f"<tr><td colspan=4 style='color:#6b4f2a'><b>{title}s</b></td></tr>")
        for u in ids:
            loc, steps, dis = info.units.get(u, ("eliminated", 0, False))
            rows.append(f"<tr><td>&nbsp;&nbsp;{html.escape(_name(u))}{' <i>(disrupted)</i>' if dis else ''}</td>"
                        f"<td>{html.escape(str(loc))}</td><td align=center>{steps}</td><td>{_supply_text(fr, key, u)}</td></tr>")
    support = [(t, fr.get(k)) for t, k in (("Attacker air", "att_air"), ("Defender air", "def_air"),
                                          ("Attacker naval", "att_fleet"), ("Defender naval", "def_fleet")) if fr.get(k)]
    for t, ids in support:
        rows.append(f"<tr><td colspan=4><b>{t} support</b>: {_units(ids)}</td></tr>")
    if fr.get("dumps_used"):
        rows.append(f"<tr><td colspan=4><b>Dumps expended</b>: {_units(fr['dumps_used'])}</td></tr>")
    rows.append("</table>")
    return "".join(rows)


def strengths_html(info: CombatInfo) -> str:
    o = info.odds
    fr = info.frame or {}
    if o is None:
        return f"<p style='color:#a0301d'>{html.escape(info.odds_error)}</p>" if info.odds_error else ""
    out = ["<table cellpadding=3 cellspacing=0 width='100%'>"]
    st = o.get("strengths")
    att, dfn = o.get("attack"), o.get("defence")
    if isinstance(st, dict):
        att, dfn = st.get("attack", att), st.get("defence", dfn)
    out.append(f"<tr><td><b>Attack strength</b></td><td align=right><b>{html.escape(str(att))}</b></td></tr>")
    out.append(f"<tr><td><b>Defence strength</b></td><td align=right><b>{html.escape(str(dfn))}</b></td></tr>")
    if isinstance(st, dict):
        for side_key, raw_key, title in (("attackers", "attack_raw", "Attacking units (14.3)"),
                                         ("defenders", "defence_raw", "Defending units (14.3)")):
            items = st.get(side_key) or []
            if items:
                out.append(f"<tr><td colspan=2 style='color:#6b4f2a'><b>{title}</b></td></tr>")
            for it in items:
                if not isinstance(it, dict):
                    out.append(f"<tr><td colspan=2>&nbsp;&nbsp;{html.escape(str(it))}</td></tr>")
                    continue
                notes = "; ".join(str(n) for n in it.get("notes") or [])
                printed = it.get("printed")
                out.append(f"<tr><td>&nbsp;&nbsp;{html.escape(_name(it.get('unit', '')))}"
                           f"{f' <span style=color:#7a6a4a>(printed {html.escape(str(printed))})</span>' if printed is not None else ''}"
                           f"{f'<br>&nbsp;&nbsp;&nbsp;&nbsp;<i style=color:#6b5a3a>{html.escape(notes)}</i>' if notes else ''}</td>"
                           f"<td align=right>{html.escape(str(it.get('value', '')))}</td></tr>")
            if items and st.get(raw_key) is not None:
                out.append(f"<tr><td>&nbsp;&nbsp;<i>total before rounding (14.3)</i></td><td align=right><i>{html.escape(str(st[raw_key]))}</i></td></tr>")
        for k, v in st.items():
            if k in ("attack", "defence", "attackers", "defenders", "attack_raw", "defence_raw"):
                continue
            if isinstance(v, dict) and not v:
                continue
            if isinstance(v, list):
                out.append(_shift_rows(k.replace("_", " ").capitalize(), v))
            elif isinstance(v, dict):
                out.append(_shift_rows(k.replace("_", " ").capitalize(), [f"{_name(a)}: {b}" for a, b in v.items()]))
            else:
                out.append(f"<tr><td>&nbsp;&nbsp;{html.escape(k.replace('_', ' '))}</td><td align=right>{html.escape(str(v))}</td></tr>")
    out.append(_shift_rows("Terrain line reductions (14.4)", o.get("line_reductions")))
    out.append(_shift_rows("General column shifts", o.get("general_shifts")))
    out.append(_shift_rows("Attacker support shifts", o.get("attacker_shifts")))
    out.append(_shift_rows("Defender support shifts", o.get("defender_shifts")))
    out.append("</table>")
    line_opts = o.get("line_options") or []
    chosen = fr.get("line", o.get("line"))
    if line_opts:
        out.append("<p><b>Terrain line (14.4)</b>: " + " · ".join(
            (f"<b>line {x['line']} ({html.escape(str(x.get('why', '')))})</b>" if x["line"] == chosen else
             f"line {x['line']} ({html.escape(str(x.get('why', '')))})") for x in line_opts)
            + ("" if fr.get("line") is not None else " — <i>the defender chooses</i>") + "</p>")
    return "".join(out)


def _crt_strip(info: CombatInfo) -> str:
    o = info.odds or {}
    fr = info.frame or {}
    cols = fr.get("columns") or (info.outcome or {}).get("columns")
    st = fr.get("strengths") or (info.outcome or {}).get("strengths")
    bits = []
    if o.get("odds"):
        bits.append(f"<b>Odds</b> {html.escape(str(o['odds']))}")
    if fr.get("line", o.get("line")) is not None:
        bits.append(f"<b>Line</b> {fr.get('line', o.get('line'))}")
    if cols:
        bits.append(f"<b>Column</b> {cols.get('base')}")
        bits.append(f"<b>Die</b> <span style='font-size:15pt;color:#8a1c10'><b>{cols.get('die')}</b></span>")
        bits.append(f"<b>Defender column</b> {cols.get('defender')}")
        bits.append(f"<b>Attacker column</b> {cols.get('attacker')}")
    elif o.get("column") is not None:
        bits.append(f"<b>Column</b> {o['column']}")
        bits.append("<i>die not rolled yet</i>")
    if st and cols:
        bits.insert(0, f"<b>{st.get('attack')} : {st.get('defence')}</b>")
    return ("<p style='font-size:12pt;background:#f6ecd2;padding:6px;border:1px solid #d8c8a0'>"
            + " &nbsp;·&nbsp; ".join(bits) + "</p>") if bits else ""


def results_html(info: CombatInfo) -> str:
    fr = info.frame or {}
    outcome = info.outcome or {}
    def_res = fr.get("def_results") or outcome.get("defender_result")
    att_res = fr.get("att_results") or outcome.get("attacker_result")
    out = []
    if def_res:
        groups = fr.get("groups")
        out.append("<h3>Results by morale group (14.5)</h3><table border=1 cellspacing=0 cellpadding=3 width='100%' "
                   "style='border-color:#d8c8a0'><tr style='background:#e4d7b5'><th>Printed morale</th><th align=left>Defender</th>"
                   "<th>Result</th><th align=left>'m' choice</th></tr>")
        m_choices = fr.get("m_choices_def") or (fr.get("m_done") if fr.get("stage") in ("m_def", "loss_def", "retreat_def") else {}) or {}
        rows = groups or [["", list(def_res)]]
        for m, us in rows:
            for u in us:
                out.append(f"<tr><td align=center>{m}</td><td>{html.escape(_name(u))}</td><td align=center><b>{html.escape(str(def_res.get(u, '')))}</b></td>"
                           f"<td>{html.escape(str(m_choices.get(u, '')))}</td></tr>")
        out.append("</table>")
    if att_res:
        out.append("<p><b>Attacker results</b>: " + ", ".join(f"{html.escape(_name(u))} <b>{html.escape(str(r))}</b>"
                                                              for u, r in att_res.items()) + "</p>")
    if not def_res and info.odds and isinstance(info.odds.get("results"), list):
        res = info.odds["results"]
        morale = sorted({m for r in res for m in (r.get("defender") or {})}, key=lambda x: int(x) if str(x).isdigit() else 0)
        out.append("<h3>Possible results by die roll (14.5)</h3><table border=1 cellspacing=0 cellpadding=3 width='100%' "
                   "style='border-color:#d8c8a0'><tr style='background:#e4d7b5'><th>Die</th><th>Columns def/att</th>"
                   + "".join(f"<th>Def. morale {html.escape(str(m))}</th>" for m in morale) + "<th>Attacker</th></tr>")
        for r in res:
            att = r.get("attacker") or {}
            att_txt = att.get("supplied") if isinstance(att, dict) else att
            out.append(f"<tr><td align=center><b>{r.get('die')}</b></td><td align=center>{r.get('defender_column')} / {r.get('attacker_column')}</td>"
                       + "".join(f"<td align=center>{html.escape(str((r.get('defender') or {}).get(m, '')))}</td>" for m in morale)
                       + f"<td align=center>{html.escape(str(att_txt))}</td></tr>")
        out.append("</table>")
    loss = fr.get("loss")
    lost = fr.get("lost") or {}
    if loss or lost.get("att") or lost.get("def") or outcome:
        a = outcome.get("attacker_losses", lost.get("att", 0))
        dd = outcome.get("defender_losses", lost.get("def", 0))
        txt = f"<b>Steps lost</b>: attacker {a}, defender {dd}"
        if loss and loss.get("need", 0) > loss.get("done", 0):
            txt += (f" — {html.escape(loss['owner'])} still loses {loss['need'] - loss['done']} step(s)"
                    f" ({'the opponent picks the first' if loss.get('first') else 'the owner picks'}, 14.6)")
        out.append(f"<p>{txt}</p>")
    retreats = fr.get("retreat_log") or [{"unit": u, "path": p} for u, p in (outcome.get("retreats") or {}).items()]
    if retreats:
        out.append("<p><b>Retreats (14.7)</b>: " + "; ".join(
            f"{html.escape(_name(r['unit']))} {html.escape(' → '.join(r['path']) if len(r['path']) > 1 else 'stays in ' + r['path'][0])}"
            for r in retreats) + "</p>")
    adv = fr.get("advanced") or outcome.get("advanced")
    if adv:
        out.append(f"<p><b>Advance (14.8)</b>: {_units(adv)}</p>")
    if outcome:
        out.append(f"<p style='background:#e8f0d8;padding:6px'><b>Combat over</b>: the defender "
                   f"{'cleared the hex' if outcome.get('defender_cleared') else 'holds'}.</p>")
    return "".join(out)


def combat_html(info: CombatInfo) -> str:
    cur = info.current or {}
    if not cur:
        return ("<h2 style='color:#5b4a2f'>Combat Phase</h2><p>No attack declared yet. Select one of your stacks on the map, "
                "then click the highlighted enemy hex it may attack — or choose an attack below.</p>")
    side = (info.frame or {}).get("side") or (info.decision.side if info.decision else "")
    form = str(cur.get("form") or "regular")
    parts = [f"<h2 style='color:#5b4a2f;margin-bottom:2px'>{html.escape(form.title())} attack on {html.escape(', '.join(cur.get('hexes', [])))}</h2>"
             f"<p style='color:#6b5a3a;margin-top:0'>{html.escape(side)} attacks with {_units(cur.get('attackers'))}</p>"]
    if len(info.declared) > 1 or (info.decision and info.decision.kind in ("combat_declare", "combat_order")):
        parts.append("<h3>Declared attacks (14.0)</h3><table cellpadding=3 cellspacing=0 width='100%'>")
        for k, c in enumerate(info.declared):
            od = info.declared_odds[k] if k < len(info.declared_odds) else ""
            state = "resolved" if c.get("resolved") else ("resolving" if c.get("resolving") else "waiting")
            parts.append(f"<tr><td>{k + 1}.</td><td>{html.escape(', '.join(c['hexes']))}</td><td>{_units(c['attackers'])}</td>"
                         f"<td>{html.escape(od)}</td><td><i>{state}</i></td></tr>")
        parts.append("</table>")
    # the result on top (issue 19): odds, die and results first, the itemised strengths below
    parts.append(_crt_strip(info))
    parts.append(results_html(info))
    parts.append("<h3>Participants</h3>" + participants_html(info))
    if info.odds is not None or info.odds_error:
        parts.append("<h3>Strengths and shifts (engine's odds query)</h3>" + strengths_html(info))
    if info.events:
        parts.append("<h3>Combat log</h3><ul style='margin-left:-20px'>" + "".join(
            f"<li>{html.escape(e)}</li>" for e in info.events) + "</ul>")
    return "".join(parts)


# ============================================================================ the dialog


class CombatPanel(QWidget):
    """The combat panel, docked beside the map (never over it) while the combat decisions are answered — by its
    buttons or on the map.  Its decision box (prompt and choices) is at the top, the result under it."""

    optionChosen = Signal(object)     # Option
    mapHint = "Highlighted hexes on the map are choices too."

    def __init__(self, parent: QWidget | None):
        super().__init__(parent)
        self.setObjectName("CombatPanel")
        self.setWindowTitle("Combat")
        self.dock = None                # the QDockWidget holding the panel (MainWindow)
        self.info: CombatInfo | None = None
        self.dismissed_key: object = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 10, 10, 10)
        self.strip = QHBoxLayout()
        self.strip.setSpacing(2)
        self.stage_labels: list[QLabel] = []
        for title, _k, _s in STAGES:
            lab = QLabel(title)
            lab.setAlignment(Qt.AlignCenter)
            lab.setToolTip(f"Combat stage: {title}")
            self.strip.addWidget(lab, 1)
            self.stage_labels.append(lab)
        lay.addLayout(self.strip)
        split = QSplitter(Qt.Vertical)
        self.view = QTextBrowser()
        self.view.setOpenLinks(False)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        box = QFrame()
        box.setObjectName("CombatDecision")
        box.setStyleSheet("#CombatDecision { background:#f3e8cb; border:1px solid #cdb98a; border-radius:4px; }")
        bl = QVBoxLayout(box)
        bl.setContentsMargins(8, 6, 8, 6)
        head = QHBoxLayout()
        self.side = QLabel("")
        self.side.setMinimumWidth(70)
        self.side.setAlignment(Qt.AlignCenter)
        self.prompt = QLabel("")
        self.prompt.setWordWrap(True)
        self.prompt.setStyleSheet("font-weight:bold; color:#3b2f1c")
        self.rule = QLabel("")
        self.rule.setStyleSheet("color:#7a5d2a")
        head.addWidget(self.side)
        head.addWidget(self.prompt, 1)
        head.addWidget(self.rule)
        bl.addLayout(head)
        self.hint = QLabel("")
        self.hint.setStyleSheet("color:#6b5a3a")
        bl.addWidget(self.hint)
        from PySide6.QtWidgets import QCheckBox

        self.group = QCheckBox("The same answer for the other units of this combat")
        self.group.setToolTip("Morale checks and retreats are asked unit by unit (14.5, 14.7): with this ticked, your "
                              "answer is sent for each further unit that is offered the same answer (each one is "
                              "logged; the engine judges each)")
        self.group.hide()
        bl.addWidget(self.group)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.NoFrame)
        self.scroll.setStyleSheet("QScrollArea { background: transparent; }")
        self.btn_host = QWidget()
        self.btn_lay = QVBoxLayout(self.btn_host)
        self.btn_lay.setContentsMargins(0, 0, 0, 0)
        self.btn_lay.setSpacing(4)
        self.scroll.setWidget(self.btn_host)
        self.scroll.viewport().setAutoFillBackground(False)
        self.btn_host.setAutoFillBackground(False)
        self.btn_host.setObjectName("CombatButtons")
        self.btn_host.setStyleSheet("#CombatButtons { background: transparent; }")
        bl.addWidget(self.scroll, 1)
        split.addWidget(box)            # the decision first: its choices are never below the fold
        split.addWidget(self.view)
        split.setSizes([170, 600])
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 4)
        lay.addWidget(split, 1)
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        self.close_btn = QPushButton("Hide")
        self.close_btn.setToolTip("Hide the panel; the prompt bar keeps the same choices. It reopens at the next combat.")
        self.close_btn.clicked.connect(self._dismiss)
        bottom.addWidget(self.close_btn)
        lay.addLayout(bottom)
        self.buttons: list[QPushButton] = []

    # ------------------------------------------------------------------
    def combat_key(self) -> object:
        cur = (self.info.current or {}) if self.info else {}
        return (tuple(cur.get("hexes", [])), tuple(cur.get("attackers", [])))

    def _dismiss(self) -> None:
        self.dismissed_key = self.combat_key()
        (self.dock or self).hide()

    def show_info(self, info: CombatInfo, *, enabled: bool = True) -> None:
        self.info = info
        cur = info.current or {}
        where = ", ".join(place(h) for h in cur.get("hexes", []))
        self.setWindowTitle(f"Combat: attack on {where}" if where else "Combat: declaration")
        if self.dock is not None:
            self.dock.setWindowTitle(self.windowTitle())
        sb = self.view.verticalScrollBar().value()
        self.view.setHtml(combat_html(info))
        self.view.verticalScrollBar().setValue(sb)
        idx = info.stage_index
        for i, lab in enumerate(self.stage_labels):
            if i == idx:
                lab.setStyleSheet(f"background:{theme.HIGHLIGHT}; color:#2b2416; font-weight:bold; padding:4px; border-radius:3px")
            elif i < idx:
                lab.setStyleSheet("background:#d9c99f; color:#4b3d24; padding:4px; border-radius:3px")
            else:
                lab.setStyleSheet("background:#efe6cf; color:#9a8a6a; padding:4px; border-radius:3px")
        self.buttons = []
        while self.btn_lay.count():
            it = self.btn_lay.takeAt(0)
            wdg = it.widget()
            if wdg is not None:
                wdg.hide()
                wdg.deleteLater()
        d = info.decision
        if d is None or d.kind not in COMBAT_KINDS:
            self.side.setText("")
            self.side.setStyleSheet("")
            self.prompt.setText("The combat is over." if info.outcome or info.frame is None else "")
            self.rule.setText("")
            self.hint.setText("")
            self.close_btn.setDefault(True)
            return
        self.side.setText(d.side)
        self.side.setStyleSheet(f"background:{theme.SIDE_COLOUR.get(d.side, '#6d6a60')}; color:{theme.SIDE_TEXT.get(d.side, '#fff')};"
                                "padding:3px 6px; border-radius:3px; font-weight:bold")
        self.prompt.setText(humanize(d.prompt))
        self.group.setVisible(d.kind in GROUP_KINDS and enabled)
        self.rule.setText(f"Rule {d.rule}")
        on_map = [o for o in d.options if map_hex(o)]
        self.hint.setText((f"{len(on_map)} of these are also highlighted on the map. " if on_map else "")
                          + ("Retreat paths are drawn on the map." if d.kind == "combat_retreat" else ""))
        for o in d.options:
            b = QPushButton(humanize(o.label))
            b.setStyleSheet("text-align:left; padding:4px 8px")
            b.setToolTip((o.hint + "\n" if o.hint else "") + f"{o.action.side}: {o.action.kind} {dict(o.action.args)} ({d.rule})")
            b.setEnabled(enabled)
            b.clicked.connect(lambda _=False, o=o: self.optionChosen.emit(o))
            self.btn_lay.addWidget(b)
            self.buttons.append(b)
        self.btn_lay.addStretch(1)

    def button(self, text_part: str) -> QPushButton | None:
        """The option button whose label contains ``text_part`` (tests, shortcuts)."""
        return next((b for b in self.buttons if text_part in b.text()), None)


#: The per-unit combat questions one answer may cover for the other units (the app sends each; 14.5, 14.7).
GROUP_KINDS = ("combat_morale", "combat_retreat")


def answer_of(label: str) -> str:
    """The answer part of a per-unit option label: "300 Oasis: take the morale check" -> "take the morale check";
    a retreat's hexes differ per unit, so only its kind of answer counts ("end the retreat in C0602" -> "end the
    retreat")."""
    tail = label.split(": ", 1)[1] if ": " in label else label
    return tail.split(" in ", 1)[0] if tail.startswith("end the retreat") else tail


def map_hex(o: Option) -> str | None:
    """The map hex an option is about, if any (the option is also a highlighted map target)."""
    a = o.action.args
    if isinstance(a.get("hex"), str):
        return a["hex"]
    if o.action.kind == "retreat" and isinstance(a.get("to"), str):
        return a["to"]
    return None


def place(label: str) -> str:
    """A hex as a player reads it: "C2331 Tobruk" (the hex number and its place name, if any)."""
    from app import mapinfo

    town = mapinfo.load().names.get(label)
    return f"{label} {town}" if town else label


class CombatDialog(QDialog):
    """A window holding a :class:`CombatPanel` (the attack preview of the hex menu; tests)."""

    def __init__(self, parent: QWidget | None):
        super().__init__(parent)
        self.setModal(False)
        self.resize(640, 700)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.panel = CombatPanel(self)
        lay.addWidget(self.panel)

    def __getattr__(self, name: str):
        return getattr(self.__dict__.get("panel") or super().__getattribute__("panel"), name)
