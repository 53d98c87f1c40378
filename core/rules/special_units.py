"""15.0 Special units in combat: artillery (15.1), anti-tank (15.2), recon (15.3), special forces
(15.4), HQ (15.6), engineers (15.7), garrisons (15.8), standard and light infantry (15.9) and
divisions (15.10); plus the combat-strength arithmetic of 14.3 that they modify.

Everything here is a pure function of the state (no decisions, no dice): the combat procedures in
``core/rules/combat.py`` and the ``odds`` query call these to itemise strengths, shifts and the
terrain line.  A unit's printed values come from ``core.counters`` (the side showing for its steps,
8.3); a state may override any counter field for one unit with ``UnitState.flags["values"]`` (used by
scenario special rules and the tests that rebuild the rules' examples).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable

from core.counters import all_counters, resolve
from core.state import GameState, UnitState

MOTORIZED = frozenset({"trucked", "mechanised", "raider"})  # 9.0
HALF = Fraction(1, 2)


# =========================================================================== unit values


@dataclass(frozen=True)
class UnitInfo:
    """The values of one unit as combat reads them (printed side for its current steps, 8.3)."""

    id: str
    side: str
    kind: str                 # combat | air | fleet | supply | marker
    name: str = ""
    unit_type: str = ""
    cf: int = 0
    paren: bool = False       # parenthesised CF (14.2)
    recon: bool = False       # "R" (15.3)
    light: bool = False       # "L" / light infantry (15.9)
    infantry: str = ""        # "" | standard | light (15.9)
    morale: int = 0           # printed morale of the side showing (14.5 groups)
    ma: int = 0
    art: int = 0
    heavy: bool = False       # "H" artillery (15.1)
    at: int = 0
    engineer: bool = False    # 15.7
    hq: bool = False          # 15.6
    garrison: bool = False    # 15.8
    sf: bool = False          # 15.4
    divisional: bool = False  # 15.10
    no_cadre: bool = False    # 8.3
    move_class: str = ""
    mobile: bool = False      # printed mobile rating (9.0)
    steps: int = 1            # current steps
    max_steps: int = 1
    gs: int = 0               # air: ground support (19.5); fleets: 1 (20.4.2)
    stack_pts: int = 1
    nationality: str = ""

    @property
    def motorized(self) -> bool:
        return self.move_class in MOTORIZED

    @property
    def mech(self) -> bool:
        return self.move_class == "mechanised"

    @property
    def is_combat(self) -> bool:
        return self.kind == "combat"

    @property
    def is_supply(self) -> bool:
        return self.kind == "supply"

    @property
    def real_cf(self) -> bool:
        """A non-zero, non-parenthesised combat factor (14.2, 14.8, 15.3)."""
        return self.cf > 0 and not self.paren

    @property
    def step_weight(self) -> int:
        """8.3, 14.6, 15.10: each divisional step counts as two steps."""
        return 2 if self.divisional else 1

    @property
    def counted_steps(self) -> int:
        return self.steps * self.step_weight


def info(st: GameState, uid: str) -> UnitInfo:
    """The combat values of unit ``uid`` (its counter, the side showing, any per-unit overrides)."""
    u = st.units[uid]
    over = u.flags.get("values")
    if over:
        return _info(uid, u, over)
    key = (uid, u.side, u.steps)
    hit = _INFO.get(key)
    if hit is None:
        hit = _INFO[key] = _info(uid, u, {})
    return hit


#: (unit id, side, steps) -> its values when it has no per-unit overrides: a pure function of the counters, which
#: are loaded once per process (UnitInfo is frozen, so sharing one is safe); issue 18
_INFO: dict[tuple[str, str, int], UnitInfo] = {}


def _info(uid: str, u: UnitState, over: dict[str, Any]) -> UnitInfo:
    cid = resolve(uid.split("#")[0]) or uid.split("#")[0]
    c = all_counters().get(cid)
    vals: dict[str, Any] = {}
    if c is not None:
        reduced = c.steps == 2 and u.steps < c.steps
        vals = dict(
            kind=c.kind, name=c.name, unit_type=c.unit_type, nationality=c.nationality,
            cf=c.red_cf if reduced else c.cf, paren=c.cf_paren,
            recon=(c.red_cf_flag if reduced else c.cf_flag) == "R",
            light=(c.red_cf_flag if reduced else c.cf_flag) == "L" or c.infantry == "light",
            infantry=c.infantry, morale=c.red_morale if reduced else c.morale,
            ma=c.red_ma if reduced else c.ma,
            art=(c.red_art if reduced else c.art), heavy=c.art_heavy, at=(c.red_at if reduced else c.at),
            engineer=c.engineer, hq=c.hq, garrison=c.garrison, sf=c.sf, divisional=c.divisional,
            no_cadre=c.no_cadre, move_class=c.move_class, mobile=c.mobile, max_steps=c.steps,
            gs=c.gs if c.kind == "air" else (1 if c.kind == "fleet" else 0),
            stack_pts=c.stack_pts or (3 if c.divisional else (0 if c.kind != "combat" else 1)),
        )
    vals.update({k: v for k, v in over.items() if k in UnitInfo.__dataclass_fields__})
    vals.setdefault("kind", "combat")
    return UnitInfo(id=uid, side=u.side, steps=u.steps, **vals)


# =========================================================================== small arithmetic


def round_half_up(x: Fraction | int) -> int:
    """14.3: "round up fractions of 1/2 or more" (and 14.6 for step losses)."""
    f = Fraction(x)
    whole = math.floor(f)
    return whole + (1 if f - whole >= HALF else 0)


def halve_rating(x: int) -> int:
    """15.2: an AT rating halved "round fractions up, but always reduced by at least one"."""
    if x <= 0:
        return 0
    return min(math.ceil(x / 2), x - 1)


# =========================================================================== combat context


@dataclass
class CombatView:
    """Everything the strength arithmetic needs to know about one combat (14.1 steps 1-4)."""

    attacker_side: str
    form: str                                   # regular | overrun | mobile | deliberate | exploitation | amphibious
    attackers: list[str]
    defenders: list[str]                        # combat units defending (incl. units that retreated in)
    hexes: list[str]                            # defender hexes
    att_supplied: dict[str, bool] = field(default_factory=dict)
    def_supplied: dict[str, bool] = field(default_factory=dict)
    att_air: list[str] = field(default_factory=list)
    def_air: list[str] = field(default_factory=list)
    att_fleet: list[str] = field(default_factory=list)
    def_fleet: list[str] = field(default_factory=list)
    def_artillery_support: list[str] = field(default_factory=list)  # adjacent defensive artillery (15.1)
    at_targets: dict[str, str] = field(default_factory=dict)        # AT unit -> enemy mech unit it reduces
    no_strength: set[str] = field(default_factory=set)              # retreated into the hex (14.7.2)
    obstructed: bool = False                    # defender hex city / fort / mountain
    fort_or_city: bool = False
    desert: dict[str, bool] = field(default_factory=dict)           # hex -> is a desert hex (15.9)
    fort_in_hex: dict[str, int] = field(default_factory=dict)       # hex -> fort level (15.9 support)
    across: dict[str, frozenset[str]] = field(default_factory=dict)  # attacker -> hexside terrain crossed
    airfields: dict[str, list[str]] = field(default_factory=dict)   # "att"/"def" -> friendly airfields (19.5)

    @property
    def mobile_battle(self) -> bool:
        return self.form == "mobile"

    @property
    def overrun(self) -> bool:
        return self.form == "overrun"


def is_mobile(st: GameState, uid: str) -> bool:
    """9.0 mobile rating; 15.6: a motorized unit stacked with an (undisrupted) HQ is treated as mobile."""
    i = info(st, uid)
    if i.mobile:
        return True
    if not i.motorized:
        return False
    u = st.units[uid]
    for v in st.units_at(u.loc):
        if v.side == u.side and v.id != uid and not v.disrupted and info(st, v.id).hq:
            return True
    return False


def special_ok(st: GameState, uid: str, supplied: bool) -> bool:
    """12.6(2), 8.2(d), 15.8: special capabilities need combat supply and no disruption
    (garrisons are always in supply)."""
    u = st.units[uid]
    if u.disrupted or u.untrained:
        return False
    return supplied or info(st, uid).garrison


# =========================================================================== 15.9 infantry


def infantry_supported(st: GameState, uid: str, fort_level_here: int | None) -> bool:
    """15.9: stacked with a heavy-weapons unit, a non-infantry non-light unit, or a fort marker."""
    u = st.units[uid]
    if fort_level_here is not None:
        return True
    for v in st.units_at(u.loc):
        if v.id == uid or v.side != u.side:
            continue
        o = info(st, v.id)
        if not o.is_combat:
            continue
        if o.unit_type.lower() in ("heavy weapons", "heavy-weapons", "heavy_weapons"):
            return True
        if not o.infantry and not o.light and "infantry" not in o.unit_type.lower():
            return True
    return False


def infantry_halved(st: GameState, uid: str, desert: bool, fort_level_here: int | None) -> bool:
    """15.9: standard and light infantry CF halved in desert hexes unless supported."""
    i = info(st, uid)
    return bool(i.infantry) and desert and not infantry_supported(st, uid, fort_level_here)


# =========================================================================== morale


def morale_mods(st: GameState, uid: str, *, combat_supplied: bool | None = None,
                desert: bool = False, fort_level_here: int | None = None) -> list[tuple[int, str]]:
    """Modifiers to a unit's morale (higher is worse, 8.1): disrupted (8.2a), OGS (12.5),
    no combat supply (12.6(1)), unsupported light infantry (15.9, ruling), US inexperience (ALC-25)."""
    u = st.units[uid]
    i = info(st, uid)
    out: list[tuple[int, str]] = []
    if u.disrupted or u.untrained:
        out.append((1, "disrupted (8.2)"))
    if u.ogs:
        out.append((1, "out of general supply (12.5)"))
    if combat_supplied is False and not i.garrison:
        out.append((1, "no combat supply (12.6)"))
    if i.infantry == "light" and desert and not infantry_supported(st, uid, fort_level_here):
        out.append((1, "light infantry unsupported in the desert (15.9)"))
    if i.nationality == "US" and st.vars.get("us_inexperience") == 2:
        out.append((1, "US inexperience (ALC-25)"))
    return out


def effective_morale(st: GameState, uid: str, **kw: Any) -> int:
    return info(st, uid).morale + sum(m for m, _ in morale_mods(st, uid, **kw))


# =========================================================================== 15.2 anti-tank


def at_rating(st: GameState, view: CombatView, uid: str) -> tuple[int, list[str]]:
    """The AT rating unit ``uid`` brings to this combat (0 if unusable) and why (15.2, 14.9.2, 13.4.4).

    Order (EoP mobile battle, docs/rulings.d/combat.md R-C-AT-ORDER): doubled in mobile battle,
    then halved for a non-mobile attacking AT unit and for a non-mechanised AT unit facing air
    support and/or supplied artillery.
    """
    i = info(st, uid)
    attacking = uid in view.attackers
    supplied = (view.att_supplied if attacking else view.def_supplied).get(uid, True)
    why: list[str] = []
    if i.at <= 0:
        return 0, why
    if not special_ok(st, uid, supplied):
        return 0, ["no AT: disrupted or not in combat supply (15.2, 12.6)"]
    mobile = is_mobile(st, uid)
    if attacking and i.garrison:
        return 0, ["garrisons may not attack (15.8)"]
    if attacking and (view.obstructed or "ridge" in view.across.get(uid, frozenset())):
        return 0, ["attacking AT not usable against a city, fort or mountain hex or across a ridge (15.2)"]
    if not mobile and (view.overrun or view.mobile_battle):
        return 0, ["non-mobile AT not usable in an overrun or mobile battle (15.2, 13.4.4)"]
    r = i.at
    if view.mobile_battle:
        r *= 2
        why.append(f"doubled in mobile battle (14.9.2): {r}")
    if attacking and not mobile:
        r = halve_rating(r)
        why.append(f"attacking non-mobile AT halved (15.2): {r}")
    if not i.mech:
        enemy_air = view.def_air if attacking else view.att_air
        enemy_art = artillery_present(st, view, not attacking)
        if enemy_air or enemy_art:
            r = halve_rating(r)
            why.append(f"non-mechanised AT halved: the enemy has air support and/or supplied artillery (15.2): {r}")
    return r, why


def artillery_present(st: GameState, view: CombatView, attacking_side: bool) -> bool:
    """15.2: the opposing side 'has ... supplied artillery in the combat'."""
    units = view.attackers if attacking_side else view.defenders + view.def_artillery_support
    sup = view.att_supplied if attacking_side else view.def_supplied
    return any(info(st, u).art > 0 and special_ok(st, u, sup.get(u, True)) for u in units)


# =========================================================================== 14.3 strengths


@dataclass
class Item:
    unit: str
    printed: int
    value: Fraction
    notes: list[str]

    def as_dict(self) -> dict[str, Any]:
        return {"unit": self.unit, "printed": self.printed, "value": str(self.value), "notes": list(self.notes)}


def unit_strength(st: GameState, view: CombatView, uid: str, at_against: int = 0) -> Item:
    """One unit's combat factor in this combat, fractions kept (14.3)."""
    i = info(st, uid)
    attacking = uid in view.attackers
    notes: list[str] = []
    if not i.is_combat:
        return Item(uid, 0, Fraction(0), ["supply units add no strength (12.2.6)"])
    if uid in view.no_strength:
        return Item(uid, i.cf, Fraction(0), ["retreated into the hex: adds nothing to its defence (14.7.2)"])
    v = Fraction(i.cf)
    if at_against and i.mech and v > 0:
        # EoP: "(9 - 2 (2 SG AT)) x 2": the AT reduces the printed CF, then the mobile doubling applies
        v = max(Fraction(1), v - at_against)
        notes.append(f"-{at_against} anti-tank, not below 1 (15.2): {v}")
    if view.mobile_battle and i.mech:
        v *= 2
        notes.append(f"x2 mechanised in mobile battle (14.9.2): {v}")
    if attacking and view.overrun and not is_mobile(st, uid):
        v /= 2
        notes.append(f"x1/2 non-mobile overrunning unit (13.4.4): {v}")
    if attacking and view.form == "amphibious" and i.mech:
        v /= 2
        notes.append(f"x1/2 landing mechanised unit (20.5): {v}")
    here = st.units[uid].loc
    if attacking:
        desert = any(view.desert.get(h, False) for h in view.hexes)
    else:
        desert = view.desert.get(here, False)
    if i.infantry and desert and not infantry_supported(st, uid, view.fort_in_hex.get(here)):
        v /= 2
        notes.append(f"x1/2 {i.infantry} infantry in the desert, unsupported (15.9): {v}")
    if attacking:
        crossed = view.across.get(uid, frozenset())
        if "escarpment" in crossed and not i.light:
            v /= 2
            notes.append(f"x1/2 attacking across an escarpment (14.4; light infantry exempt 15.9): {v}")
        if "ridge" in crossed:
            v /= 2
            notes.append(f"x1/2 attacking across a ridge (14.4): {v}")
        if "wadi" in crossed and i.mech:
            v /= 2
            notes.append(f"x1/2 mechanised attacking across a wadi (14.4): {v}")
    return Item(uid, i.cf, v, notes)


def at_reductions(st: GameState, view: CombatView) -> dict[str, int]:
    """Total AT reduction against each enemy mechanised unit, from ``view.at_targets`` (15.2)."""
    out: dict[str, int] = {}
    for at_unit, target in view.at_targets.items():
        r, _ = at_rating(st, view, at_unit)
        if r and target in (view.attackers + view.defenders) and info(st, target).mech:
            out[target] = out.get(target, 0) + r
    return out


def strengths(st: GameState, view: CombatView) -> dict[str, Any]:
    """14.3: itemised attack and defence strengths, totals rounded half up, defence at least 1."""
    red = at_reductions(st, view)
    att = [unit_strength(st, view, u, red.get(u, 0)) for u in view.attackers]
    dfn = [unit_strength(st, view, u, red.get(u, 0)) for u in view.defenders]
    a_raw = sum((x.value for x in att), Fraction(0))
    d_raw = sum((x.value for x in dfn), Fraction(0))
    a = round_half_up(a_raw)
    d = max(1, round_half_up(d_raw))
    return {
        "attack": a, "defence": d, "attack_raw": str(a_raw), "defence_raw": str(d_raw),
        "attackers": [x.as_dict() for x in att], "defenders": [x.as_dict() for x in dfn],
        "at": {k: v for k, v in red.items()},
    }


# =========================================================================== 15.1 artillery


def artillery_units(st: GameState, view: CombatView, attacking: bool) -> list[str]:
    """Artillery able to give shifts: undisrupted and in combat supply (15.1); garrisons may not
    support an attack (15.8); non-mobile artillery gives nothing in an overrun (13.4.4) and only
    mobile artillery supports a mobile battle (14.9.2)."""
    units = view.attackers if attacking else view.defenders + view.def_artillery_support
    sup = view.att_supplied if attacking else view.def_supplied
    out = []
    for u in units:
        i = info(st, u)
        if i.art <= 0 or not special_ok(st, u, sup.get(u, True)) or u in view.no_strength:
            continue
        if attacking and i.garrison:
            continue
        if (view.overrun or view.mobile_battle) and not is_mobile(st, u):
            continue
        out.append(u)
    return sorted(out, key=lambda x: (-info(st, x).art, x))


def artillery_shifts(st: GameState, view: CombatView, attacking: bool,
                     deliberate_extra: Iterable[str] = ()) -> tuple[int, list[str]]:
    """15.1: shifts equal to the artillery rating; one attacking unit only, except deliberate battle
    (14.9.1) where the units in ``deliberate_extra`` (one extra dump each) add theirs."""
    units = artillery_units(st, view, attacking)
    if not units:
        return 0, []
    if attacking:
        used = [units[0]] + [u for u in deliberate_extra if u in units[1:]] if view.form == "deliberate" else [units[0]]
    else:
        used = units
    total = sum(info(st, u).art for u in used)
    return total, [f"{u} artillery {info(st, u).art} (15.1)" for u in used]


def line_reductions(st: GameState, view: CombatView) -> tuple[int, list[str]]:
    """Terrain-line reductions against forts and cities: heavy artillery by its factor (15.1, one
    unit only), engineers -1 (15.7), special forces -1 (15.4)."""
    if not view.fort_or_city:
        return 0, []
    out: list[str] = []
    n = 0
    heavy = [u for u in artillery_units(st, view, True) if info(st, u).heavy]
    if heavy:
        best = max(heavy, key=lambda u: info(st, u).art)
        n += info(st, best).art
        out.append(f"-{info(st, best).art} heavy artillery {best} (15.1)")
    eng = [u for u in view.attackers if info(st, u).engineer
           and special_ok(st, u, view.att_supplied.get(u, True))]
    if eng:
        n += 1
        out.append(f"-1 engineer {eng[0]} (15.7)")
    sf = [u for u in view.attackers if info(st, u).sf and special_ok(st, u, view.att_supplied.get(u, True))]
    if sf:
        n += 1
        out.append(f"-1 special forces {sf[0]} (15.4)")
    return n, out


# =========================================================================== 15.3 recon


def recon_strength(st: GameState, units: Iterable[str]) -> int:
    return sum(info(st, u).cf for u in units if info(st, u).recon and not st.units[u].disrupted)


def recon_superiority(st: GameState, attackers: Iterable[str], defenders: Iterable[str]) -> str | None:
    """15.3: the side with the greater total CF of undisrupted recon units ("attacker", "defender", None)."""
    a, d = recon_strength(st, attackers), recon_strength(st, defenders)
    if a > d:
        return "attacker"
    if d > a:
        return "defender"
    return None


def recon_split_possible(st: GameState, defenders: list[str], obstructed: bool) -> bool:
    """15.3(a): at least two non-zero, non-parenthesised defenders, not in a fort, city or mountain."""
    return not obstructed and sum(1 for u in defenders if info(st, u).real_cf) >= 2


# =========================================================================== 15.7 engineers

#: 15.7 Important: "The Allied upgrade counters F and G do not have this capability" (the fort-building one); they
#: keep the E of attacks on forts and cities.
NO_FORT_BONUS = ("UK-F", "UK-G")


def fort_engineer(uid: str) -> bool:
    """15.7: an engineer whose presence shortens fort building (every E unit except the upgrade counters F and G)."""
    c = all_counters().get(resolve(uid.split("#")[0]) or uid.split("#")[0])
    return c is not None and c.engineer and c.id not in NO_FORT_BONUS


# =========================================================================== 15.6 HQ


def hq_present(st: GameState, units: Iterable[str]) -> bool:
    """15.6: an HQ among (or stacked with) the units: -1 on supply capture rolls."""
    seen = set(units)
    locs = {st.units[u].loc for u in seen}
    for v in st.units.values():
        if (v.id in seen or v.loc in locs) and not v.disrupted and info(st, v.id).hq:
            if any(st.units[u].side == v.side for u in seen):
                return True
    return False


def units_info(st: GameState, ids: Iterable[str]) -> list[UnitInfo]:
    return [info(st, u) for u in ids]


def unit_state(st: GameState, uid: str) -> UnitState:
    return st.units[uid]
