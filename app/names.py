"""Names a player reads on the screen (issue 19): :func:`humanize`, :func:`unit_name` and :func:`box_name` are
:mod:`core.names`' (one definition for the app, the LAN and the computer opponent's plan sentences); the engine's
texts are unchanged (logs, LAN and tests read them); tooltips keep the raw action.  Here: the names of the
free-form action kinds (the prompt's "use the map or panels" hint).
"""

from __future__ import annotations

from core.names import box_name, humanize, unit_name  # noqa: F401 - the app's names are core.names'

#: The free-form action kinds of the decisions as a player reads them (the prompt's "use the map or panels" hint).
KIND_NAMES = {
    "move": "move stacks", "place": "place units", "refit_hex": "refit in a hex", "refit_box": "refit from the Refit Box",
    "refit_destroyed": "rebuild destroyed units", "dump_gens": "generate dumps", "upgrade": "upgrade units",
    "create_base": "create a base", "emergency_supply": "emergency supply", "destroy_supply": "destroy supply",
    "transfer": "transfer supply", "reserve": "put units in reserve", "build_fort": "build a fort",
    "build_rail": "build railway", "build_road": "build road", "rail": "move by rail", "coastal_ship": "coastal shipping",
    "air_land": "air landing", "declare": "declare attacks", "done": "finish",
}


def kinds_text(kinds) -> str:
    return ", ".join(KIND_NAMES.get(k, k.replace("_", " ")) for k in kinds)
