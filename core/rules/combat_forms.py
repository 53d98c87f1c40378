"""14.9 Special combat forms and other combat situations.

* deliberate battle (14.9.1) and mobile battle (14.9.2): who may declare them (:func:`check_form`);
  their arithmetic (doubling, extra artillery) lives in ``special_units`` and ``combat``;
* exploitation (14.9.3): flagged in the combat outcome for the movement rules (RMA moves);
* overrun combat (13.4.4): eligibility (:func:`overrun_refusal`); the combat itself is
  ``resolve_combat`` with ``form="overrun"``;
* recon superiority (15.3): :func:`recon_superiority` via ``special_units``;
* amphibious and SF landings (15.4, 20.5): ``resolve_combat`` with ``form="amphibious"`` and
  :func:`amphibious_failure`;
* oasis track combat (16.3): :func:`oasis_effects` (pure) and the ``oasis_combat`` procedure;
* surprise (6.2) is a general shift (``combat.general_shifts``); winter and Ghibli random shifts
  (21.1.1, 21.2.1): :func:`weather_shifts`.
"""

from __future__ import annotations

from typing import Any

from core import charts
from core.decisions import Action, Decision, IllegalAction, Option, other
from core.engine import Engine, Procedure, procedure
from core.rules import special_units as su
from core.rules.special_units import info
from core.state import Frame, GameState


# =========================================================================== 14.9.1 / 14.9.2


def check_form(st: GameState, side: str, attackers: list[str], hexes: list[str], form: str) -> None:
    """Refuse a deliberate or mobile battle whose prerequisites are not met (14.9.1, 14.9.2)."""
    from core.rules import combat

    if form == "regular":
        return
    if len(hexes) != 1:
        raise IllegalAction(f"only one hex may be attacked in a {form} battle", "14.9.1" if form == "deliberate" else "14.9.2")
    for u in attackers:
        if st.units[u].flags.get("battle") != form:
            raise IllegalAction(f"{u} has no {form} battle marker: attackers must have moved no more than their RMA "
                                f"and been marked in the Movement Phase", "14.9.1" if form == "deliberate" else "14.9.2")
    if form == "deliberate":
        for u in attackers:
            if st.units[u].ogs or st.units[u].isolated:
                raise IllegalAction(f"{u} is not in general supply: every attacker in a deliberate battle must be", "14.9.1")
    if form == "mobile":
        h = hexes[0]
        if combat.obstructed(st, h):
            raise IllegalAction(f"{h} is a fortified, city or mountain hex: no mobile battle", "14.9.2")
        for u in attackers:
            if not su.is_mobile(st, u):
                raise IllegalAction(f"{u} is not mobile: only mobile units attack in a mobile battle", "14.9.2")


# =========================================================================== 13.4 overrun


def overrun_refusal(st: GameState, movers: list[str], label: str) -> str | None:
    """13.4.1 / 13.4.2: why ``movers`` may not overrun ``label`` (None if they may).  For the
    movement rules, which push ``resolve_combat`` with ``form="overrun"``."""
    from core.rules import combat

    defenders = [u for u in st.units_at(label) if u.side != st.units[movers[0]].side]
    if not defenders:
        return "no enemy unit to overrun (13.4)"
    if combat.obstructed(st, label):
        return f"{label} is a mountain, city or fortified hex and cannot be overrun (13.4.2)"
    enemy = defenders[0].side
    friends = [s for s in combat.zoc_sources(st, enemy, label) if st.units[s].loc != label]
    if friends:
        return f"{label} is in the ZOC of {friends[0]}, friendly to the defenders: no overrun (13.4.2)"
    real = any(info(st, v.id).is_combat and info(st, v.id).cf > 0 for v in defenders)
    for u in movers:
        us = st.units[u]
        if us.ogs or us.isolated:
            return f"{u} is out of general supply and may not overrun (13.4.1)"
        if us.disrupted:
            return f"{u} is disrupted and may not overrun (8.2b)"
        if us.flags.get("transported"):
            return f"{u} is carried by an MSU and cannot take part in an overrun (13.4.1)"
        if real and not info(st, u).motorized:
            return f"{u} is not motorized: only motorized units overrun combat units with a non-zero factor (13.4.1)"
    return None


# =========================================================================== 21.x weather


def weather_shifts(eng: Engine, hexes: list[str], attacker_hexes: list[str]) -> list[tuple[int, str]]:
    """21.1.1 / 21.2.1: a random column shift (1d6 on the Combat Modifiers Chart) for attacks into
    winter hexes (or across a winter wadi) or Ghibli-affected hexes.  Rolled once per attack."""
    from core.rules import combat

    st = eng.state
    out: list[tuple[int, str]] = []
    if any(combat.winter_hex(st, h, attacker_hexes) for h in hexes):
        die = eng.roll(1)[0]
        out.append((charts.weather_shift("winter", die), f"winter random shift, die {die} (21.1.1)"))
    if any(combat.ghibli_hex(st, h) for h in hexes):
        die = eng.roll(1)[0]
        out.append((charts.weather_shift("ghibli", die), f"Ghibli random shift, die {die} (21.2.1)"))
    for n, why in out:
        eng.say(f"{n:+d} column(s): {why}")
    return out


# =========================================================================== 20.5 amphibious


def amphibious_failure(eng: Engine, attackers: list[str], origin: dict[str, str]) -> int:
    """20.5: if the port is not cleared, the surviving attackers suffer an H result and return to
    their point of origin.  Returns the steps lost."""
    from core.rules import combat

    st = eng.state
    alive = [u for u in attackers if u in st.units and combat.hex_of(st.units[u].loc) is not None]
    need = su.round_half_up(sum((charts.steps_lost("H", info(st, u).counted_steps) for u in alive), start=0))
    lost = 0
    for u in sorted(alive, key=lambda x: (-st.units[x].steps, x)):
        if lost >= need:
            break
        lost += combat.lose_step(eng, u, "failed amphibious assault, H result (20.5)")
    for u in alive:
        if u in st.units and combat.hex_of(st.units[u].loc) is not None:
            st.units[u].loc = origin.get(u, st.units[u].loc)
    return lost


# =========================================================================== 16.3 oasis track combat


def oasis_effects(failures: int, cf: int, disrupted: bool) -> str:
    """16.3: the effect of ``failures`` failed morale checks on a unit: ``none``, ``disrupt``,
    ``retreat``, ``disrupt_retreat`` or ``eliminate``.  A unit with a CF above zero ignores the
    first failure (a)."""
    f = failures - (1 if cf > 0 and failures > 0 else 0)
    if f <= 0:
        return "none"
    if f >= 3:
        return "eliminate"
    if f == 2:
        return "eliminate" if disrupted else "disrupt_retreat"
    return "retreat" if disrupted else "disrupt"


def oasis_dice(st: GameState, attackers: list[str]) -> int:
    """16.3: one die per combat factor of the attacking units, at least one per unit."""
    return sum(max(1, info(st, u).cf) for u in attackers)


@procedure("oasis_combat")
class OasisCombat(Procedure):
    """16.3: attack from an oasis box; data ``{"attackers": [...], "box": id, "from": box entered from}``.

    Every die is a morale check against one enemy unit (the attacker assigns them); survivors that did
    not retreat counter-attack once (e).  Retreats go to the next box chosen by the owner, never towards
    the box the attacker came from.
    """

    def enter(self, eng: Engine, frame: Frame) -> None:
        st = eng.state
        d = frame.data
        side = st.units[d["attackers"][0]].side
        d["side"] = side
        d["targets"] = sorted(u.id for u in st.units_at(d["box"]) if u.side != side and info(st, u.id).kind == "combat")
        d["round"] = 1

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        d = frame.data
        if d.get("done") or not d["targets"]:
            return None
        side = d["side"]
        return Decision(side=side, kind="oasis_combat", prompt="Roll the oasis track combat dice (16.3)", rule="16.3",
                        options=(Option(action=Action(kind="oasis_roll", side=side), label="Roll"),))

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        if action.kind != "oasis_roll":
            super().apply(eng, frame, action)
        self._exchange(eng, frame.data, frame.data["attackers"], frame.data["targets"], counter=False)
        frame.data["done"] = True

    def _exchange(self, eng: Engine, d: dict[str, Any], att: list[str], tgt: list[str], counter: bool) -> None:
        st = eng.state
        alive = [u for u in tgt if u in st.units and st.units[u].loc == d["box"]]
        if not alive:
            return
        n = oasis_dice(st, att)
        fails: dict[str, int] = {u: 0 for u in alive}
        for k in range(n):
            u = alive[k % len(alive)]   # dice spread evenly over the enemy units (ruling R-C-OASIS-DICE)
            die = eng.roll(1)[0]
            m = su.effective_morale(st, u)
            ok = die != 6 and die + m <= 6
            eng.say(f"Oasis combat die {die} against {info(st, u).name} (morale {m}): {'passes' if ok else 'fails'} (16.3, 8.1)")
            if not ok:
                fails[u] += 1
        survivors = []
        from core.rules import combat

        for u, f in fails.items():
            eff = oasis_effects(f, info(st, u).cf, st.units[u].disrupted)
            if eff == "eliminate":
                combat.eliminate(eng, u, "oasis track combat (16.3)")
            elif eff in ("disrupt", "disrupt_retreat", "retreat"):
                st.units[u].disrupted = True
                if eff != "disrupt":
                    nxt = [b for b in st.vars.get("oasis_links", {}).get(d["box"], []) if b != d.get("from")]
                    if nxt:
                        st.units[u].loc = sorted(nxt)[0]
                        eng.say(f"{info(st, u).name} retreats to {st.units[u].loc} (16.3)")
                    else:
                        combat.eliminate(eng, u, "cannot retreat along the oasis track (16.3)")
                else:
                    survivors.append(u)
            else:
                survivors.append(u)
        if not counter and survivors:
            # 16.3 (e): survivors counter-attack the original attackers
            self._exchange(eng, d, survivors, att, counter=True)


# =========================================================================== 6.2 surprise, ALC-25


def surprise_applies(st: GameState, attacker_side: str) -> bool:
    """6.2: "First Player Combat Phases: Shift two columns to the right for all attacks" (and, per the
    EoP, the first player's overruns in his Movement Phases)."""
    return bool(st.surprise) and attacker_side == st.first_player


def us_inexperience_shift(st: GameState, attacker_side: str, nationalities: set[str]) -> int:
    """ALC-25: with US and German units in a combat, 2 (or 1) columns in the Axis favour."""
    level = st.vars.get("us_inexperience")
    if level not in (1, 2) or not {"US", "GE"} <= nationalities:
        return 0
    return level if attacker_side == "Axis" else -level


def defender_side(attacker_side: str) -> str:
    return other(attacker_side)
