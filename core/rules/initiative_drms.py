"""Initiative DRMs (6.1) owned by the strategic rules: Kasta / WDF HQs (15.6) and ULTRA (ALC-13).

Sign convention (docs/rulings.md R-INITIATIVE-DRM-SIGN): a provider returns DRMs relative to the roller;
positive favours the other player.  Air superiority (19.2) is provided by ``core.rules.initiative``.
"""

from __future__ import annotations

import math

from core.decisions import ALLIED, AXIS
from core.engine import Engine
from core.rules import offmap
from core.rules.initiative import drm_provider

#: 15.6 Important: the GE Kasta and CW WDF HQ are the only HQs affecting the initiative DR.  Kasta is +2
#: (Example of Play); the WDF's value is not printed and is reconstructed as 2 as well (R-INIT-WDF).
HQ_DRMS = {"GE-Kasta": (AXIS, 2), "UK-WDF": (ALLIED, 2)}


def _on_map(loc: str) -> bool:
    return bool(loc) and loc[:1].isalpha() and loc[1:2].isdigit()


@drm_provider
def hq_drm(eng: Engine, roller: str) -> list[tuple[int, str]]:
    """15.6: Kasta / WDF on the map ("while in play") give their side a DRM."""
    out = []
    for uid, (side, val) in HQ_DRMS.items():
        u = eng.state.units.get(uid)
        if u is None or not _on_map(u.loc):
            continue
        out.append(((val if side != roller else -val), f"{uid.split('-')[1]} HQ on the map (15.6)"))
    return out


def ultra_drm_from_die(die: int) -> int:
    """ALC-13: the Allied die halved, rounded up (EoP: a 6 gives 3) (R-INIT-ULTRA)."""
    return math.ceil(die / 2)


@drm_provider
def ultra_drm(eng: Engine, roller: str) -> list[tuple[int, str]]:
    """ALC-13: ULTRA influencing the initiative DR in the Allied favour (EoP: -3 when the Allies roll)."""
    u = eng.state.vars.get("ultra")
    if not u or u.get("gt") != eng.state.gt or u.get("benefit") != "initiative" or "die" not in u:
        return []
    v = ultra_drm_from_die(int(u["die"]))
    return [((-v if roller == ALLIED else v), f"ULTRA die {u['die']} (ALC-13)")]


_ = offmap
