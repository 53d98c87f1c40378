"""3.1 Set Up: units placed "within N hexes of" a hex are placed by their owner.

Fixed placements are made when the game is created (``core.newgame``); this
procedure asks each side in turn (Axis first, docs/rulings.md R-SETUP-ORDER)
to place every unit whose set-up line gives a range.  "Within three hexes"
includes the hex itself (3.1: "in W2118 and/or in any hex within three hexes").
"""

from __future__ import annotations

from typing import Callable

from core.decisions import ALLIED, AXIS, Action, Decision, IllegalAction, Option, arg_schema
from core.engine import Engine, Procedure, at_game_start, procedure
from core.hexgrid import Hex, HexLabelError
from core.state import Frame

#: Extra placement filters registered by later rules (terrain, stacking): f(engine, unit_id, hex) -> reason or None.
PLACEMENT_FILTERS: list[Callable[[Engine, str, Hex], str | None]] = []


def terrain_filter(eng: Engine, unit_id: str, h: Hex) -> str | None:
    """A unit sets up only where it could be (2.2.3, 13.1): on land, and in terrain its class may enter."""
    from core import mapdata, terrain
    from core.counters import all_counters

    if not mapdata.is_land(h):
        return f"{h.label} is a sea hex; units set up on land (2.2.3)"
    c = all_counters().get(unit_id.split("#")[0])
    cls = getattr(c, "move_class", "") if c else ""
    if not cls:
        return None
    try:
        if any(terrain.move_cost(n, h, cls) is not None for n in h.neighbours()):
            return None
    except ValueError:
        return None
    return f"{c.name} ({cls}) cannot be in {h.label}: its terrain is prohibited to its class (13.3, TEC)"


PLACEMENT_FILTERS.append(terrain_filter)


def legal_hexes(eng: Engine, item: dict) -> list[Hex]:
    """The hexes ``item`` may be set up in: within N hexes of a hex (3.1), or any of a list of hexes (``hexes``:
    30.2 "any hex on the east edge of Map S"), less those the placement filters refuse."""
    if "hexes" in item:
        cands = [Hex.parse(x) for x in item["hexes"]]
    else:
        cands = Hex.parse(item["of"]).within(int(item["within"]))
    out = []
    for h in cands:
        if all(f(eng, item["unit"], h) is None for f in PLACEMENT_FILTERS):
            out.append(h)
    return out


def _range_text(n: int) -> str:
    """3.1 wording: "within three hexes of"; within 1 is "on or adjacent to"."""
    if n == 0:
        return "in"
    if n == 1:
        return "on or adjacent to"
    return f"within {n} hexes of"


def pending_placements(eng: Engine, side: str) -> list[dict]:
    return [p for p in eng.state.vars.get("setup_pending", []) if p["side"] == side]


def placement_options(eng: Engine, side: str) -> list[Option]:
    """The legal hexes of the next unit ``side`` places (its options; ``place`` is validated by ``apply``)."""
    item = pending_placements(eng, side)[0]
    return [Option(action=Action(kind="place", side=side, args={"unit": item["unit"], "hex": h.label}), label=h.label)
            for h in legal_hexes(eng, item)]


arg_schema("place", unit=((str,), 64), hex=((str,), 16))    # 3.1: which unit, in which hex


@procedure("setup")
class SetUp(Procedure):
    """3.1: the owning player places units set up "within N hexes of" a hex."""

    def decide(self, eng: Engine, frame: Frame) -> Decision | None:
        for side in (AXIS, ALLIED):
            todo = pending_placements(eng, side)
            if not todo:
                continue
            item = todo[0]
            name = item.get("name", item["unit"])
            where = (item.get("where") or "in one of " + ", ".join(item["hexes"]) if "hexes" in item
                     else f"{_range_text(int(item['within']))} {item['of']}")
            ctx = ({"hexes": list(item["hexes"])} if "hexes" in item else {"of": item["of"], "within": item["within"]})
            return Decision(
                side=side, kind="setup_place",
                prompt=f"Set up {name} {where} ({len(todo)} left to place)",
                rule=item.get("rule") or "3.1",
                sampled=eng.sampler(lambda fr: placement_options(eng, side)),
                free_kinds=("place",),
                context={"unit": item["unit"]} | ctx,
            )
        eng.state.vars.pop("setup_pending", None)
        return None

    def apply(self, eng: Engine, frame: Frame, action: Action) -> None:
        if action.kind != "place":
            raise IllegalAction(f"{action.kind} is not a set-up action", "3.1")
        todo = pending_placements(eng, action.side)
        uid = action.args.get("unit")
        item = next((p for p in todo if p["unit"] == uid), None)
        if item is None:
            raise IllegalAction(f"{uid!r} is not a {action.side} unit waiting to be set up", "3.1")
        try:
            h = Hex.parse(str(action.args.get("hex", "")))
        except HexLabelError as exc:
            raise IllegalAction(str(exc), "2.2.2") from None
        if "hexes" in item:
            if h.label not in item["hexes"]:
                raise IllegalAction(f"{h.label} is not one of the hexes {uid} may set up in ({', '.join(item['hexes'])})",
                                    item.get("rule") or "3.1")
        elif h.distance(Hex.parse(item["of"])) > int(item["within"]):
            raise IllegalAction(
                f"{h.label} is {h.distance(Hex.parse(item['of']))} hexes from {item['of']}; {uid} must set up within {item['within']}",
                item.get("rule") or "3.1",
            )
        for f in PLACEMENT_FILTERS:
            why = f(eng, uid, h)
            if why:
                raise IllegalAction(why, item.get("rule") or "3.1")
        eng.state.units[uid].loc = h.label
        eng.state.vars["setup_pending"].remove(item)
        eng.say(f"{action.side} sets up {item.get('name', uid)} in {h.label}")


@at_game_start
def lay_out_event_cards(eng: Engine) -> None:
    """3.0 "Active Events" are part of the scenario set-up: card status is known before the first decision."""
    from core.rules import events

    events.ensure_cards(eng)
