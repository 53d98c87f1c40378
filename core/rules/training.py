"""8.5 Training: the Training Track around the IV.10 procedure of ``reinforcements`` (8.5.1), deployment
while untrained (8.5.2) and the 12.2.4 limits when the Axis primary base is moved.

Locations (docs/rulings.d/ground.md G-TRAIN):

* a unit **on the Training Track** is at ``track:Training:<side>:<n>`` with ``training_box == n``;
* a unit with ``training_box > 0`` anywhere else has **pending** training: its arrival card's box, not
  entered yet.  It enters the track automatically at IV.10 when it is at the 8.5.1 location (Axis: stacked
  with or adjacent to the primary base, 12.2.4; Allied: the Nile River Valley Box, 22.1);
* a pending unit on the hex grid anywhere else has entered the map area before completing its training
  (8.5.2 1): it gets the untrained marker (``untrained``; treated as disrupted, ``disrupted`` is set too,
  and it may not recover, 8.2 / ``status.can_recover``) and its pending box is dropped.

``reinforcements.Training`` (IV.10) moves every unit with ``training_box > 0`` one box down and places
those leaving box 1.  This module runs **before** it (``before_step("IV.10", "training_ops")``): it holds
(``flags["training_hold"]``, ``training_box`` 0 during IV.10) the units that must not move this phase --
units placed on the track this phase (8.5.1 "in the next Allocation Phase, move the unit"), pending units
not on the track, and Axis units in the GT the primary base is moved (12.2.4) -- and restores them at the
end of the Allocation Phase (``at_phase_end``), when it also brings each track unit's location up to date.

Decision ``training_ops`` (IV.10, either side, only when there is something to choose):

* ``restart_training`` {unit}: an untrained unit at the 8.5.1 location restarts its training (8.5.2 2):
  1d6, Allied ÷3, Axis ÷2, rounded up = its box (8.5.2 3);
* ``leave_training`` {unit}: a unit on the track leaves it before completing its training (8.5.2: units
  are not required to complete it); it is placed at the 8.5.1 location, untrained;
* ``done``.
"""

from __future__ import annotations

import math

from core.decisions import ALLIED, AXIS, Action, Decision, IllegalAction, Option
from core.engine import Engine, Procedure, at_phase_end, before_step, procedure
from core.rules import supply
from core.rules.status import counter_of, hex_of
from core.state import Frame, GameState, UnitState

NRV = "box:NRV"
TRACK = "track:Training:"
RULE = "8.5"


def track_loc(side: str, box: int) -> str:
    return f"{TRACK}{side}:{box}"


def on_track(u: UnitState) -> bool:
    return u.loc.startswith((TRACK, "box:Training"))


def pending(u: UnitState) -> bool:
    """Training to do (the arrival card's box) but not on the track yet."""
    return u.training_box > 0 and not on_track(u)


def untrained_box(side: str, die: int) -> int:
    """8.5.2 3): Allied units divide the die by three, Axis units by two, rounding up."""
    return math.ceil(die / 3) if side == ALLIED else math.ceil(die / 2)


def blocked(state: GameState, side: str) -> bool:
    """12.2.4: in the GT the Axis primary base is transferred, no Axis unit enters or leaves the track and the
    units on it do not move."""
    return side == AXIS and state.vars.get("primary_base_moved_gt") == state.gt


def location(state: GameState, side: str) -> str | None:
    """8.5.1: where a unit completing its training is placed (the primary base hex, or the NRV Box)."""
    if side == ALLIED:
        return NRV
    pb = supply.axis_primary(state)
    return pb.loc if pb is not None and hex_of(pb) is not None else None


def at_location(state: GameState, u: UnitState) -> bool:
    """8.5 Important / 12.2.4: Axis units enter training stacked with or adjacent to the primary base; Allied
    units in the Nile River Valley Box."""
    if u.side == ALLIED:
        return u.loc == NRV
    loc = location(state, AXIS)
    h = hex_of(u)
    if loc is None or h is None:
        return False
    return h.distance(hex_of(supply.axis_primary(state))) <= 1


def make_untrained(eng: Engine, u: UnitState, why: str) -> None:
    """8.5.2 1): the untrained marker; the unit is treated as disrupted and may not recover until trained."""
    u.untrained = True
    u.disrupted = True
    u.training_box = 0
    u.flags = {k: v for k, v in u.flags.items() if k != "training_hold"}
    eng.say(f"{counter_of(u).name} {why} before completing its training: untrained marker, treated as disrupted "
            "until it completes its training (8.5.2 1)")


def check_untrained(eng: Engine, u: UnitState) -> None:
    """8.5.2: a unit with pending training on the hex grid away from the 8.5.1 location is untrained."""
    if u.training_box > 0 and not on_track(u) and hex_of(u) is not None and not at_location(eng.state, u):
        make_untrained(eng, u, f"enters the map area at {u.loc}")


# ---------------------------------------------------------------- IV.10
def _hold(u: UnitState, box: int) -> None:
    u.flags = dict(u.flags) | {"training_hold": box}
    u.training_box = 0


def freeze(eng: Engine) -> None:
    """Before ``reinforcements.Training`` moves the track: pending units at the 8.5.1 location enter their box
    (8.5.1); they, the other pending units and (12.2.4) the Axis track units in the GT of a primary base
    transfer are held so that the track does not move them this phase."""
    st = eng.state
    supply.sync_primary_base(st)
    for u in sorted(st.units.values(), key=lambda x: x.id):
        if u.training_box <= 0:
            continue
        n = u.training_box
        if pending(u):
            if at_location(st, u) and not blocked(st, u.side):
                u.loc = track_loc(u.side, n)
                u.disrupted = u.reserve = False
                eng.say(f"{counter_of(u).name} enters box {n} of the Training Track (8.5.1)")
            _hold(u, n)
        elif blocked(st, u.side):
            _hold(u, n)
            eng.say(f"{counter_of(u).name} does not move on the Training Track: the primary base was moved this GT "
                    "(12.2.4)")


def thaw(eng: Engine) -> None:
    """End of the Allocation Phase: held units get their box back; track units' locations follow their box."""
    for u in sorted(eng.state.units.values(), key=lambda x: x.id):
        hold = u.flags.get("training_hold")
        if hold:
            u.flags = {k: v for k, v in u.flags.items() if k != "training_hold"}
            u.training_box = int(hold)
        if u.loc.startswith(TRACK) and u.training_box > 0:
            u.loc = track_loc(u.side, u.training_box)


def restart_options(state: GameState, side: str) -> list[str]:
    if blocked(state, side):
        return []
    return sorted(u.id for u in state.units_of(side)
                  if u.untrained and not on_track(u) and u.training_box == 0 and at_location(state, u))


def leave_options(state: GameState, side: str) -> list[str]:
    if blocked(state, side) or location(state, side) is None:
        return []
    return sorted(u.id for u in state.units_of(side) if on_track(u))


def restart(eng: Engine, side: str, uid: str) -> None:
    """8.5.2 2), 3): back on the track in box 1d6 ÷3 (Allied) or ÷2 (Axis), rounded up."""
    st = eng.state
    u = st.units.get(uid)
    if u is None or u.side != side:
        raise IllegalAction(f"{uid!r} is not a {side} unit", "8.5.2")
    if blocked(st, side):
        raise IllegalAction("no Axis unit may enter the Training Track in the GT the primary base is moved", "12.2.4")
    if not u.untrained or on_track(u):
        raise IllegalAction(f"{counter_of(u).name} is not an untrained unit off the Training Track", "8.5.2")
    if not at_location(st, u):
        where = "the Nile River Valley Box" if side == ALLIED else "stacked with or adjacent to the primary base"
        raise IllegalAction(f"to restart its training {counter_of(u).name} must be {where}", "8.5.2 2); 8.5.1; 12.2.4")
    die = eng.roll(1, f"{counter_of(u).name} restarts its training (8.5.2 3)")[0]
    box = untrained_box(side, die)
    u.loc = track_loc(side, box)
    u.disrupted = u.reserve = u.ogs = u.isolated = False      # off the map; still untrained until box 1 is left
    _hold(u, box)
    eng.say(f"{die} {'÷3' if side == ALLIED else '÷2'} = box {box} of the Training Track (8.5.2 3)")


def leave(eng: Engine, side: str, uid: str) -> None:
    """8.5.2: a unit need not complete its training: it leaves the track, untrained, at the 8.5.1 location."""
    st = eng.state
    u = st.units.get(uid)
    if u is None or u.side != side or not on_track(u):
        raise IllegalAction(f"{uid!r} is not a {side} unit on the Training Track", "8.5.2")
    if blocked(st, side):
        raise IllegalAction("no Axis unit may leave the Training Track in the GT the primary base is moved", "12.2.4")
    loc = location(st, side)
    if loc is None:
        raise IllegalAction("the Axis has no primary base on the map to place the unit at", "12.2.4")
    u.loc = loc
    make_untrained(eng, u, f"leaves the Training Track for {loc}")


@procedure("training_ops")
class TrainingOps(Procedure):
    """4.1 IV.10 (8.5), before the track moves: restart or leave training; see the module docstring."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        st = eng.state
        if not frame.data.get("frozen"):
            frame.data["frozen"] = True
            freeze(eng)
        done = frame.data.setdefault("done", [])
        opts: list[Option] = []
        for side in (AXIS, ALLIED):
            if side in done:
                continue
            mine = [Option(action=Action(kind="restart_training", side=side, args={"unit": uid}),
                           label=f"Restart the training of {counter_of(uid).name} (8.5.2)")
                    for uid in restart_options(st, side)]
            mine += [Option(action=Action(kind="leave_training", side=side, args={"unit": uid}),
                            label=f"Take {counter_of(uid).name} off the Training Track, untrained (8.5.2)")
                     for uid in leave_options(st, side)]
            if mine:
                opts += [Option(action=Action(kind="done", side=side), label=f"{side}: no (more) changes")] + mine
        if not opts:
            return None
        sides = sorted({o.action.side for o in opts})
        return Decision(side="either" if len(sides) == 2 else sides[0], kind="training_ops",
                        prompt="Training operations: restart or leave training (8.5.2)", rule="4.1 IV.10; 8.5.2",
                        options=tuple(opts), free_kinds=("restart_training", "leave_training"))

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        k = action.kind
        if k == "done":
            frame.data.setdefault("done", []).append(action.side)
        elif k == "restart_training":
            restart(eng, action.side, str(action.args.get("unit", "")))
        elif k == "leave_training":
            leave(eng, action.side, str(action.args.get("unit", "")))
        else:
            raise IllegalAction(f"{k} is not a training action", RULE)


before_step("IV.10", "training_ops")


@at_phase_end
def training_phase_end(eng: Engine, phase: int) -> None:
    """Restore the units held during IV.10; 8.5.2: pending units found on the map away from the 8.5.1 location
    become untrained."""
    st = eng.state
    if phase == 4 or any("training_hold" in u.flags for u in st.units.values() if u.flags):
        thaw(eng)
    for u in sorted(st.units.values(), key=lambda x: x.id):
        if u.training_box > 0:
            check_untrained(eng, u)
