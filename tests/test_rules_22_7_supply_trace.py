"""22.7 with 12.4: "all hexes in Algeria and Tunisia (maps A and T) are out of play until the Allies execute Operation
Torch Invasion (ALC-23)" (2.2.4: "all hexes in Algeria and Tunisia located on Maps A, T and L"; R-FNA-HEXES), and a
hex out of play is no hex a LOS or LOC (12.4.1, 12.4.2) is traced through; R-MAPS-IN-PLAY: neither is a hex on no
map in play.  One definition, ``supply.off_grid_ids`` (= ``movement.off_play_ids``), read by every trace
(``supply._trace_limits``, ``supply.supply_lines``).

Play paths from the real set-ups, driven only by ``Engine.apply``:

* Desert War (28.0 "Use maps L, S, C and W"; ALC-23 never available): at the first Axis Movement Phase the Axis LOC
  reaches the last Libyan hex L2908 and not the Tunisian hex L2907 beside it; no hex of Map L's Tunisia and no hex
  of Maps A or T is on an Axis LOS or LOC (before the fix: 991 Tunisian and Algerian hexes were on the LOC);
* the North African Campaign (33.0 "All maps"): Tunisia stays off the LOC while ALC-23 is in the deck, and the same
  trace enters it once the card is in play (the limit);
* Run for Tunis (29.0 "Use maps A and T"): no line on Maps L, S, C, W (the Allied NRV on Map W used to lend a LOC
  across Libya into Tunisia); the Tunisian Campaign (31.0, French North Africa in play): Tunisian hexes are traced.
"""

from __future__ import annotations

from msgspec.structs import replace

from core import mapdata
from core.hexgrid import Hex
from core.rules import offmap, supply
from tests.playpath import Play

LAST = "L2908"          # Libya: the last hex before the frontier
FIRST = "L2907"         # Tunisia (Maps L and T): out of play until ALC-23


def _fna(hexes) -> list[str]:
    md = mapdata.load()
    return sorted(h.label for h in hexes if md.in_fna(h))


def test_22_7_12_4_desert_war_axis_los_and_loc_stop_at_the_tunisian_frontier():
    p = Play("desert-war", seed=1)
    p.to("movement", side="Axis")
    assert offmap.fna_hexes_out_of_play(p.state)
    lines = supply.supply_lines(p.state, "Axis")
    assert Hex.parse(LAST) in lines.loc                       # the limit: the Libyan hex is on the LOC
    assert Hex.parse(FIRST) not in lines.loc                  # limit + 1: the Tunisian hex beside it is not
    assert _fna(lines.loc) == [] and _fna(lines.los) == []
    maps = p.state.vars["maps"]
    assert not [h.label for h in lines.loc if not offmap.hex_in_play(maps, h)]     # R-MAPS-IN-PLAY: no A or T hex
    overlay = p.eng.query("supply_overlay", side="Axis")     # what the app shows
    assert LAST in overlay and FIRST not in overlay


def test_22_7_12_4_north_african_campaign_tunisia_joins_the_trace_once_alc_23_is_in_play():
    p = Play("north-african-campaign", seed=1)
    p.to("movement", side="Axis")
    st = p.state
    assert st.cards["ALC-23"]["status"] == "deck"
    lines = supply.supply_lines(st, "Axis")
    assert Hex.parse(LAST) in lines.loc and _fna(lines.loc) == []
    played = replace(st, cards=dict(st.cards) | {"ALC-23": dict(st.cards["ALC-23"], status="in_play")})
    after = supply.supply_lines(played, "Axis")
    assert Hex.parse(FIRST) in after.loc and len(_fna(after.loc)) > 100


def test_22_7_12_4_run_for_tunis_traces_no_line_on_the_maps_not_in_play():
    """R-MAPS-IN-PLAY: 29.0 "Use maps A and T": the Allied NRV (22.1, on Map W) lent a LOC across Libya into Tunisia
    (1984 hexes of Maps L, S, C and W on it before the fix); now no line of either side leaves Maps A and T."""
    p = Play("run-for-tunis", seed=1)
    p.to("movement")
    assert not offmap.fna_hexes_out_of_play(p.state)
    maps = p.state.vars["maps"]
    for side in ("Axis", "Allied"):
        lines = supply.supply_lines(p.state, side)
        assert not [h.label for h in list(lines.loc) + list(lines.los) if not offmap.hex_in_play(maps, h)], side


def test_22_7_12_4_tunisian_campaign_traces_into_tunisia_where_french_north_africa_is_in_play():
    """31.0 (with 29.0 "French North Africa is in play"): the Axis LOC runs on from Libya into Tunisia (the limit of
    the rule above: the same hexes, in play)."""
    p = Play("tunisian-campaign", seed=1)
    p.to("movement", side="Axis")
    assert not offmap.fna_hexes_out_of_play(p.state)
    lines = supply.supply_lines(p.state, "Axis")
    assert Hex.parse(LAST) in lines.loc and Hex.parse(FIRST) in lines.loc and len(_fna(lines.loc)) > 100
