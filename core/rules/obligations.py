"""Card obligations asked at the start of a Movement Phase (run before VI.3 / IX.3 / XII.3 / XV.3).

* ALC-16 b) Greek Campaign: on the GT of activation, during the first Allied Movement Phase, the Allied player
  must withdraw at least four steps of non-parenthesised infantry with a combat factor greater than one and two
  steps of tanks/armour.  The withdrawn units are placed on MET Greece the GT after the track is activated
  (R-EV-ALC16B: they wait in ``box:GreekExpedition`` and go to the track in the next I.1).

Each decision offers one option per eligible unit (on the hex grid or in the NRV Box, R-EV-ALC16B-POOL) and,
only once the minimum is met or no eligible unit is left, *done*; *done* is refused (citing ALC-16 b) while the
minimum is unmet and eligible units remain, so the Allied player cannot end the obligation short.  A genuine
shortfall (nothing eligible left) is recorded in ``vars["greek_withdrawal"]["short"]`` and logged.
"""

from __future__ import annotations

from core.counters import all_counters
from core.decisions import ALLIED, Action, Decision, IllegalAction, Option
from core.engine import Engine, Procedure, auto_step, before_step, procedure
from core.state import Frame
from core.rules import offmap

RULE = "23.1 ALC-16 b"
WAITING = "box:GreekExpedition"
NEED = {"infantry": 4, "armor": 2}


def _kind(uid: str) -> str | None:
    """'infantry' (non-parenthesised, CF > 1) or 'armor' (tank/armoured), else None (ALC-16 b)."""
    c = all_counters().get(offmap.base_id(uid))
    if c is None or c.kind != "combat":
        return None
    cf = c.values(c.steps)[0]
    if c.unit_type.startswith(("arm", "tank")):
        return "armor"
    if "infantry" in c.unit_type and cf > 1 and not c.cf_paren:
        return "infantry"
    return None


def obligation(eng: Engine) -> dict | None:
    rec = eng.state.vars.get("greek_withdrawal")
    if not rec or rec.get("done") or rec.get("gt") != eng.state.gt:
        return None
    return rec


def owed(rec: dict) -> dict[str, int]:
    got = rec.get("withdrawn_steps", {})
    return {k: max(0, n - int(got.get(k, 0))) for k, n in NEED.items()}


def eligible(eng: Engine) -> list[str]:
    rec = obligation(eng)
    if rec is None:
        return []
    need = owed(rec)
    out = []
    for u in sorted(eng.state.units.values(), key=lambda x: x.id):
        if u.side != ALLIED or not offmap.in_play(u) or u.loc.startswith(("track:", WAITING)):
            continue
        if offmap.is_offmap(u.loc) and u.loc != offmap.NRV:
            continue   # R-EV-ALC16B-POOL: units on the hex grid or in the NRV Box can be withdrawn
        if u.flags.get("vichy"):
            continue   # VF units are not the Allied player's to withdraw
        k = _kind(u.id)
        if k and need.get(k):
            out.append(u.id)
    return out


@procedure("greek_withdrawal")
class GreekWithdrawal(Procedure):
    """ALC-16 b): the Greek expedition's withdrawal in the first Allied Movement Phase of the activation GT."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        from core import sequence
        if frame.data.get("done") or obligation(eng) is None or eng.phasing_side() != ALLIED:
            return None
        if sequence.STEPS[frame.data["step"]].phase not in (6, 9, 12, 15):
            return None
        rec = obligation(eng)
        need = owed(rec)
        units = eligible(eng)
        opts = [Option(action=Action(kind="greek_withdraw", side=ALLIED, args={"unit": u}),
                       label=f"Withdraw {u} for Greece ({_kind(u)})") for u in units]
        if not units or not any(need.values()):
            opts.append(Option(action=Action(kind="done", side=ALLIED), label="Done"))
        return Decision(side=ALLIED, kind="greek_withdrawal",
                        prompt=f"ALC-16 Greek Campaign: withdraw {need['infantry']} more infantry and "
                               f"{need['armor']} more armour steps", rule=RULE, options=tuple(opts))

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        rec = obligation(eng)
        if action.kind == "done":
            if rec and any(owed(rec).values()) and eligible(eng):
                raise IllegalAction("The Greek expedition needs four infantry and two armour steps withdrawn "
                                    "in the first Allied Movement Phase", RULE)
            if rec:
                rec["done"] = True
                _log_short(eng, rec)
            frame.data["done"] = True
            return
        if action.kind != "greek_withdraw":
            return super().apply(eng, frame, action)
        uid = str(action.args.get("unit", ""))
        if uid not in eligible(eng):
            raise IllegalAction(f"{uid} is not an Allied infantry (CF > 1) or armour unit still needed", RULE)
        u = eng.state.units[uid]
        k = _kind(uid) or ""
        got = rec.setdefault("withdrawn_steps", {})
        got[k] = int(got.get(k, 0)) + u.steps
        rec.setdefault("units", []).append(uid)
        u.flags = dict(u.flags) | {"greek_from": u.loc}
        u.loc = WAITING
        eng.say(f"{uid} is withdrawn for the Greek expedition ({RULE})")
        if not any(owed(rec).values()):
            rec["done"] = True
            frame.data["done"] = True


for _k in ("VI.3", "IX.3", "XII.3", "XV.3"):
    before_step(_k, "greek_withdrawal")


@auto_step("XX.1")
def greek_unmet(eng: Engine) -> None:
    """ALC-16 b): an obligation still open at the end of its GT is recorded (nothing eligible was left)."""
    rec = eng.state.vars.get("greek_withdrawal")
    if rec and not rec.get("done") and rec.get("gt") == eng.state.gt:
        rec["done"] = True
        _log_short(eng, rec)


def _log_short(eng: Engine, rec: dict) -> None:
    """ALC-16 b): the minimum could not be met (no eligible unit left anywhere): record and log the shortfall."""
    short = owed(rec)
    if any(short.values()):
        rec["short"] = short
        eng.say(f"The Greek expedition is short {short['infantry']} infantry and {short['armor']} armour steps: "
                f"no eligible Allied unit is left to withdraw ({RULE})")


def place_on_track(eng: Engine) -> None:
    """ALC-16 b): the withdrawn units are placed on the track the GT after it is activated (called in I.1)."""
    from core.rules import met
    rec = eng.state.vars.get("greek_withdrawal")
    if not rec or eng.state.gt <= int(rec.get("gt", 0)):
        return
    for uid in rec.get("units", []):
        u = eng.state.units.get(uid)
        if u and u.loc == WAITING:
            u.loc = met.track_box("Greece") if met.track(eng, "Greece") else offmap.NRV
            eng.say(f"{uid} is placed on {u.loc} ({RULE})")
