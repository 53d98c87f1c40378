"""The computer opponent's special forms of combat (14.9.1 deliberate battle, 14.9.2 mobile battle), chosen at the
end of its Movement Phase, and the declaration of the attacks they were chosen for.

14.9.2: "Only one unfortified, non-city, non-mountain hex may be attacked per combat. Only mobile units may attack.
... Attacking units are limited to their RMA in the preceding Movement Phase. Mark them with mobile battle markers
when their movement is completed. The combat factors of all participating mechanized units on both sides ... are
doubled. The anti-tank factors of all participating anti-tank units are doubled."  14.9.3: "If the defending hex is
vacated as a result of a mobile battle, all attacking units may advance (14.8), then exploit."

The AI marks the mobile units next to an enemy hex for a mobile battle when the engine's own odds preview, on a copy
with the markers placed, says the mobile battle is clearly worth more than the regular attack every unit next to
the hex could make (the doubling favours tanks against infantry); the exploitation a vacated hex opens is a bonus.  It never marks
a unit it has no attack for: a marker ends the unit's movement (14.9.1 / 14.9.2).  Deliberate battle is not chosen
(its extra artillery costs a dump per gun, 14.9.1; the regular attack with one artillery unit is the AI's choice).
"""

from __future__ import annotations

from typing import Any

from core.decisions import Action, Decision
from core.engine import Engine
from core.hexgrid import Hex
from core.rules import combat as combat_rules
from core.rules import fna
from core.rules.combat_forms import BATTLE_KIND
from core.rules.special_units import info

#: how much more than the regular attack a mobile battle must promise (in the units of ``ground.attack_value``)
#: before units are marked: a marker ends their movement and binds them to one hex (14.9.2); the exploitation a
#: vacated hex opens (14.9.3) is a bonus not counted
MOBILE_MARGIN = 0.5


def mobile_candidates(eng: Engine, side: str) -> dict[str, list[str]]:
    """Per enemy hex a mobile battle may attack (unfortified, non-city, non-mountain, 14.9.2), the unmarked units
    of ``side`` next to it that the engine would mark for a mobile battle now (mobile, within their RMA)."""
    from core.rules.combat_forms import battle_marker_refusal

    st = eng.state
    frame = st.stack[-1]                      # the Movement Phase's frame: what each unit has spent (13.2.1)
    out: dict[str, list[str]] = {}
    for u in sorted(st.units_of(side), key=lambda x: x.id):
        if u.flags.get("battle") or not info(st, u.id).is_combat or combat_rules.may_attack(st, u.id) is not None:
            continue
        fronts = [h for h in combat_rules.enemy_hexes_adjacent(st, side, u.loc)
                  if any(fna.hostile(v, side) and info(st, v.id).is_combat for v in st.units_at(h))]
        # 14.2 Important: an attacker's hex obliges it to attack every enemy projecting a ZOC onto it, and a mobile
        # battle attacks one hex: the AI marks only units facing a single enemy hex
        targets = [h for h in fronts if not combat_rules.obstructed(st, h)] if len(fronts) == 1 else []
        if not targets or battle_marker_refusal(eng, frame, side, u.id, "mobile") is not None:
            continue
        for h in targets:
            out.setdefault(h, []).append(u.id)
    return out


def _adjacent_attackers(eng: Engine, side: str, target: str) -> list[str]:
    """The unmarked units of ``side`` next to ``target`` that may attack it in a regular combat (14.0)."""
    st = eng.state
    around = {n.label for n in Hex.parse(target).neighbours()}
    return sorted(u.id for u in st.units_of(side)
                  if u.loc in around and info(st, u.id).is_combat and not u.flags.get("battle")
                  and combat_rules.may_attack(st, u.id) is None)


def mark_mobile(player: Any, d: Decision, eng: Engine, attack_value: Any, goals: Any) -> Action | None:
    """The ``battle_marker`` action for the best mobile battle of this Movement Phase, if one pays (see the module
    docstring), else None.  ``attack_value`` is ``core.ai.ground.attack_value`` (passed in: no import cycle)."""
    from core.ai.ground import ATTACK_THRESHOLD
    from core.ai.search import accepted

    side = d.side
    best: tuple[float, Action] | None = None
    for h, units in sorted(mobile_candidates(eng, side).items()):
        regular, _ = attack_value(eng, side, _adjacent_attackers(eng, side, h), [h], goals=goals)
        mark = Action(kind=BATTLE_KIND, side=side, args={"units": units, "form": "mobile"})
        copy = accepted(eng, mark)
        if copy is None:
            continue
        mobile, _ = attack_value(copy, side, units, [h], form="mobile", goals=goals)
        # worth attacking on its own, and clearly better than the regular attack of every unit next to the hex
        # (measured: a mobile battle of three tanks chosen over a regular attack of six units lost Sonnenblume
        # games that the regular attack won)
        if mobile < ATTACK_THRESHOLD or mobile < max(regular, 0.0) + MOBILE_MARGIN:
            continue
        if best is None or mobile > best[0]:
            best = (mobile, mark)
    return None if best is None else best[1]


def marked_by_hex(eng: Engine, side: str) -> dict[str, tuple[str, list[str]]]:
    """Per enemy hex next to units marked for a special form of combat, that form and the marked units next to it
    that may attack it in that form (14.9.1 / 14.9.2: one hex per combat; a mobile battle only against an
    unobstructed hex)."""
    st = eng.state
    out: dict[str, tuple[str, list[str]]] = {}
    for u in sorted(st.units_of(side), key=lambda x: x.id):
        form = u.flags.get("battle")
        if not form or combat_rules.may_attack(st, u.id) is not None:
            continue
        for h in combat_rules.enemy_hexes_adjacent(st, side, u.loc):
            if form == "mobile" and combat_rules.obstructed(st, h):
                continue
            if not any(fna.hostile(v, side) and info(st, v.id).is_combat for v in st.units_at(h)):
                continue
            f, ids = out.setdefault(h, (form, []))
            if f == form:
                ids.append(u.id)
    return out
