"""6.0 Initiative: the Initiative Table, surprise (6.2) and Ghiblis (6.3).

Phase V.1: the player who holds the initiative rolls 2d6 with DRMs on the
Initiative Table.  Phase V.2: the player who now holds it chooses to be the 1st
or 2nd player; with surprise he must choose 1st to gain its advantages (6.2).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from typing import Callable

from core import calendar
from core.decisions import Action, Decision, Option, other
from core.engine import Engine, Procedure, on_step, procedure
from core.resources import resource
from core.state import Frame


@dataclass(frozen=True)
class InitiativeResult:
    change: bool
    surprise: bool
    ghibli: bool

    def text(self) -> str:
        words = ["Change" if self.change else "No Change"]
        if self.surprise:
            words.append("Surprise")
        if self.ghibli:
            words.append("Ghibli")
        return ", ".join(words)


@cache
def table() -> tuple[int, int, dict[int, InitiativeResult]]:
    with resource("charts", "initiative.toml").open("rb") as fh:
        data = tomllib.load(fh)
    lo, hi = int(data["min"]), int(data["max"])
    cells: dict[int, InitiativeResult] = {}
    for row in data["rows"]:
        a, _, b = str(row["roll"]).partition("-")
        for n in range(int(a), int(b or a) + 1):
            cells[n] = InitiativeResult(bool(row.get("change")), bool(row.get("surprise")), bool(row.get("ghibli")))
    missing = [n for n in range(lo, hi + 1) if n not in cells]
    if missing:
        raise ValueError(f"resources/charts/initiative.toml: no row for modified roll(s) {missing}")
    return lo, hi, cells


def read_table(modified: int, gt: int) -> InitiativeResult:
    """6.1/6.2: clamp to the ends of the table; 6.3: Ghibli only in its months."""
    lo, hi, cells = table()
    r = cells[max(lo, min(hi, modified))]
    if r.ghibli and not calendar.ghibli_possible(gt):
        r = InitiativeResult(r.change, r.surprise, False)
    return r


#: DRM providers: f(engine, roller) -> list of (drm, reason).  Positive favours the non-roller.
DRM_PROVIDERS: list[Callable[[Engine, str], list[tuple[int, str]]]] = []


def drm_provider(fn: Callable[[Engine, str], list[tuple[int, str]]]) -> Callable[[Engine, str], list[tuple[int, str]]]:
    DRM_PROVIDERS.append(fn)
    return fn


@drm_provider
def air_superiority_drm(eng: Engine, roller: str) -> list[tuple[int, str]]:
    """19.2: the difference in air superiority strength, in favour of the side with air superiority."""
    st = eng.state
    if not st.air_superiority or not st.air_superiority_margin:
        return []
    sign = 1 if st.air_superiority != roller else -1
    return [(sign * st.air_superiority_margin, f"{st.air_superiority} air superiority by {st.air_superiority_margin} (19.2)")]


def initiative_drms(eng: Engine, roller: str) -> list[tuple[int, str]]:
    return [d for fn in DRM_PROVIDERS for d in fn(eng, roller)]


def scenario_override(eng: Engine) -> dict | None:
    """6.1 Important: scenario instructions may grant the initiative or fix the 1st player on given GTs."""
    over = eng.state.vars.get("initiative_overrides", {})
    return over.get(str(eng.state.gt))


@procedure("initiative_roll")
class InitiativeRoll(Procedure):
    """Phase V.1 (6.1)."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        if frame.data.get("done"):
            return None
        st = eng.state
        if scenario_override(eng):
            return None  # the scenario dictates the initiative this GT; applied in V.2
        drms = initiative_drms(eng, st.initiative)
        total = sum(d for d, _ in drms)
        hint = "; ".join(f"{d:+d} {why}" for d, why in drms) or "no DRM"
        return Decision(
            side=st.initiative, kind="initiative_roll",
            prompt=f"Roll 2d6 for the initiative (DRM {total:+d}: {hint})", rule="6.1",
            options=(Option(action=Action(kind="roll_initiative", side=st.initiative), label="Roll for initiative"),),
        )

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        st = eng.state
        roller = st.initiative
        ultra = st.vars.get("ultra")
        if ultra and ultra.get("gt") == st.gt and ultra.get("benefit") == "initiative" and "die" not in ultra:
            # 23.1 ALC-13 (EoP: "Ultra is in play and decides to influence the initiative DR. The Allied player rolls
            # 1d6"): the die is rolled with the initiative roll, before the 2d6 (initiative_drms.ultra_drm reads it)
            ultra["die"] = eng.roll(1, "ULTRA influences the initiative DR: the Allied player's 1d6 (23.1 ALC-13)")[0]
        dice = eng.roll(2)
        drms = initiative_drms(eng, roller)
        modified = sum(dice) + sum(d for d, _ in drms)
        res = read_table(modified, st.gt)
        if res.change:
            st.initiative = other(roller)
        st.surprise = res.surprise
        st.ghibli = res.ghibli
        eng.say(
            f"Initiative: {roller} rolls {dice[0]}+{dice[1]}"
            + "".join(f" {d:+d} ({why})" for d, why in drms)
            + f" = {modified}: {res.text()}; {st.initiative} has the initiative (6.1)"
        )
        frame.data["done"] = True


@procedure("initiative_choose")
class InitiativeChoose(Procedure):
    """Phase V.2 (6.1, 6.2)."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        if frame.data.get("done"):
            return None
        st = eng.state
        over = scenario_override(eng)
        if over:
            st.initiative = over.get("initiative", st.initiative)
            st.first_player = over.get("first_player", st.initiative)
            st.surprise = bool(over.get("surprise", False))
            eng.say(f"Scenario instructions: {st.initiative} has the initiative, {st.first_player} is 1st player (6.1)")
            frame.data["done"] = True
            return None
        s = st.initiative
        first_label = "Be the 1st player" + (" (gains surprise, 6.2)" if st.surprise else "")
        second_label = "Be the 2nd player" + (" (forgoes surprise, 6.2)" if st.surprise else "")
        return Decision(
            side=s, kind="choose_first_player", prompt="You have the initiative: be the 1st or the 2nd player?",
            rule="6.1" + ("; 6.2" if st.surprise else ""),
            options=(
                Option(action=Action(kind="choose_first", side=s, args={"first": True}), label=first_label),
                Option(action=Action(kind="choose_first", side=s, args={"first": False}), label=second_label),
            ),
        )

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        st = eng.state
        first = bool(action.args.get("first"))
        st.first_player = st.initiative if first else other(st.initiative)
        if st.surprise and not first:
            st.surprise = False
            eng.say("Surprise is lost: the initiative player chose to be 2nd player (6.2)")
        eng.say(f"{st.first_player} is the 1st player this GT (6.1)")
        frame.data["done"] = True


on_step("V.1", "initiative_roll")
on_step("V.2", "initiative_choose")


