"""Readable log sentences for actions the engine logged no event line for.

The log shows the engine's own first event line for an action (``LogEntry.events``); when there is none, the
line is composed here from the action's kind and arguments — counter names instead of ids, hexes and boxes in
words, what was chosen — by one table, ``SENTENCES``: action kind → a function of (args, side) returning the
sentence without the side (the log line is ``"#12  Axis: <sentence>"``).  A test checks that every action kind
of ``core/rules/*.py`` (``Action(kind=...)`` and the decisions' ``free_kinds``) has an entry.  Nothing here
judges an action: it only words what was sent.
"""

from __future__ import annotations

import re
from typing import Callable

from app import counterart


def unit_label(x) -> str:
    """A counter's name (``5 Pz``) for a unit id (``GE-5Pz``); a box in words; anything else unchanged."""
    if x is None:
        return "—"
    if isinstance(x, str):
        if x.startswith("box:") or x.startswith("track:"):
            return place(x)
        c = counterart.lookup(x)
        if c is not None and getattr(c, "name", None):
            return c.name
    return str(x)


def units(v) -> str:
    if isinstance(v, (list, tuple)):
        names = [unit_label(x) for x in v]
        if len(names) > 1:
            return ", ".join(names[:-1]) + " and " + names[-1]
        return names[0] if names else "no units"
    return unit_label(v)


def place(x) -> str:
    """A hex label stays; ``box:Oasis:zella`` → ``the Zella oasis box``; ``box:Refit:Axis`` → ``the Axis Refit Box``."""
    if x is None or x == "":
        return "—"
    s = str(x)
    if s.startswith("box:"):
        parts = [p for p in s.split(":")[1:] if p]
        if len(parts) >= 2 and parts[0] == "Oasis":
            return f"the {parts[1].replace('_', ' ').title()} oasis box"
        if len(parts) >= 2 and parts[0] == "PortBoxes":
            return f"the port boxes of {'the NRV' if parts[1] == 'NRV' else parts[1]}"     # 20.1
        if len(parts) >= 2 and parts[0] == "AtSea":
            return f"the {parts[1]} shipping lane"                                          # 20.2
        if len(parts) >= 2 and parts[1] in ("Axis", "Allied"):
            return f"the {parts[1]} {parts[0].replace('_', ' ')} Box"
        words = " ".join(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", p.replace("_", " ")) for p in parts)
        return f"the {words} box"                                   # box:TorchEast -> the Torch East box
    if s.startswith("track:"):
        return "the " + s.split(":", 1)[1].replace("_", " ").replace(":", " ") + " track"
    return s


def path(v) -> str:
    if isinstance(v, (list, tuple)):
        return " → ".join(place(x) for x in v) if v else "(no hexes)"
    return place(v)


def _extras(a: dict, skip: tuple[str, ...]) -> str:
    """Arguments not worded by the sentence, appended as ``(key value; …)``."""
    bits = []
    for k, v in sorted(a.items()):
        if k in skip or v in (None, False, "", [], {}):
            continue
        if v is True:
            bits.append(k.replace("_", " "))
        elif isinstance(v, (list, tuple)):
            bits.append(f"{k.replace('_', ' ')} {units(v)}")
        elif isinstance(v, dict):
            bits.append(f"{k.replace('_', ' ')} " + "; ".join(f"{kk}: {units(vv)}" for kk, vv in v.items()))
        else:
            bits.append(f"{k.replace('_', ' ')} {unit_label(v)}")
    return f" ({'; '.join(bits)})" if bits else ""


def _move(a: dict) -> str:
    opts = [w for k, w in (("road_march", "road march"), ("forced_march", "forced march"), ("night", "at night"),
                          ("lift", "by truck lift")) if a.get(k)]
    s = f"{units(a.get('units'))} move"
    if a.get("enter"):
        s += f" onto the map from {place(a['enter'])}"
    s += f" {path(a.get('path'))}" if a.get("path") else " (no hexes entered)"
    if opts:
        s += ", " + ", ".join(opts)
    if a.get("exit"):
        s += f", then leave the map for {place(a['exit'])}"
    return s + _extras(a, ("units", "path", "enter", "exit", "road_march", "forced_march", "night", "lift"))


def _retreat(a: dict) -> str:
    u = unit_label(a.get("unit"))
    if a.get("stop"):
        return f"{u} stops retreating here"
    if a.get("hold"):
        return f"{u} holds its ground instead of retreating"
    if a.get("follow"):
        return f"{u} retreats along {unit_label(a['follow'])}'s path"
    if a.get("path"):
        return f"{u} retreats {path(a['path'])}"
    return f"{u} retreats to {place(a.get('to'))}"


def _done(a: dict) -> str:
    if a.get("relocate") is False:
        return "keeps the primary base where it is; done"
    if a.get("withdrawals"):
        return "done, with the withdrawals made"
    return "done with this step" + _extras(a, ())


def _card(verb: str) -> Callable[[dict, str], str]:
    return lambda a, s: f"{verb} card {a.get('card', '?')}" + _extras(a, ("card",))


def _u(fmt: str, *skip: str) -> Callable[[dict, str], str]:
    """A sentence from a format over the worded arguments (``{unit}``, ``{to}``, …), other arguments appended."""
    def f(a: dict, _side: str) -> str:
        vals = {k: (units(v) if k in ("unit", "units", "attackers", "fleet", "target", "dump", "by", "base", "rp",
                                     "rps", "follow", "msu")
                    else path(v) if k in ("path", "hexes") else place(v) if isinstance(v, str) else v)
                for k, v in a.items()}
        used = tuple(k for k in a if "{" + k + "}" in fmt) + skip
        try:
            return fmt.format_map(_Default(vals)) + _extras(a, used)
        except Exception:  # noqa: BLE001 - an odd argument still gives a line
            return fmt + _extras(a, ())
    return f


class _Default(dict):
    def __missing__(self, key):
        return "—"


SENTENCES: dict[str, Callable[[dict, str], str]] = {
    # sequence, initiative, cards (4.1, 6.0, 23.0)
    "done": lambda a, s: _done(a),
    "undo": lambda a, s: "takes back the last action",
    "roll_initiative": lambda a, s: "rolls for the initiative (6.1)",
    "choose_first": lambda a, s: "chooses to be the 1st player (6.2)" if a.get("first") else
                                 "lets the other side be the 1st player (6.2)",
    "play_card": _card("plays"),
    "card_choice": _card("chooses for"),
    "roll_met": _u("rolls on the MET tables (22.0)"),
    "met_combat": _u("resolves MET combat on track {track} (22.0)"),
    "greek_withdraw": _u("withdraws {unit} for Greece"),
    "withdraw": _u("withdraws {unit} (7.4)"),
    "allow_withdrawal": lambda a, s: "allows the withdrawal" if a.get("allow") else "refuses the withdrawal",
    # set-up and reinforcements (7.0, 26.0)
    "place": _u("places {unit} in {hex}"),
    "deploy": _u("deploys {unit} to {to}"),
    "place_primary_base": _u("places the primary base {base} at {hex}"),
    "relocate_primary_base": _u("moves the primary base to {base} (12.2.4)"),
    "activate_base": _u("activates the base {base} (12.2.3)"),
    "offmap_move": _u("moves {unit} to {to}"),
    "ship": _u("puts {unit} on its shipping lane toward {to} (20.2)"),
    "ship_stay": _u("keeps {unit} where it is (no shipping)"),
    "port_place": _u("places {unit} in {to} (20.1)"),
    "port_stay": _u("keeps {unit} at sea (20.2)"),
    "leave_training": _u("takes {unit} out of the Training Box (8.5)"),
    "restart_training": _u("restarts {unit}'s training (8.5)"),
    # supply and refit (12.0, 17.0)
    "dump_gens": _u("expends {dump} to give general supply to {hex} (12.3 b)"),
    "create_base": _u("creates a base in {hex} from an MSU and a dump (12.2.3)"),
    "emergency_supply": _u("expends {dump} for emergency supply to {unit} (12.7)"),
    "destroy_supply": _u("{by} destroys {unit} (12.2.5)"),
    "transfer": lambda a, s: (f"transfers {units(a.get('units'))} from the base {unit_label(a.get('from'))} to "
                              f"{unit_label(a.get('to'))} (12.2.3)") + _extras(a, ("units", "from", "to")),
    "refit_hex": _u("refits {unit} with {rp} (17.1)"),
    "refit_box": lambda a, s: (f"rebuilds {unit_label(a.get('unit'))} from the Refit Box"
                               + (f" with {a['steps']} step(s)" if a.get("steps") else "")
                               + f", expending {units(a.get('rps') or [])}"
                               + (f", placed at {place(a['to'])}" if a.get("to") else ", placed at the primary base")
                               + " (17.2)"),
    "refit_destroyed": _u("refits {unit} out of the Destroyed Box with {rps} (17.2)", "steps"),
    "upgrade": _u("upgrades {unit} (row {row}) (17.3)"),
    # movement and transport (13.0, 16.0, 20.3)
    "move": lambda a, s: _move(a),
    "reserve": _u("puts {units} in reserve (13.6)"),
    "rail": _u("moves {units} by rail to {to} (13.7)"),
    "coastal_ship": _u("ships {units} along the coast to {to} (20.3)"),
    "air_land": _u("air-lands {units} at {to} (13.7 e)"),
    "oasis_move": _u("moves {units} along the Oasis Track: {path} (16.2)"),
    "raid": lambda a, s: (f"{unit_label(a.get('unit'))} guides {s or 'its side'} across the wadis of its hex (16.4)"
                          if a.get("mission") == "guiding" else
                          f"{unit_label(a.get('unit'))} raids the airfield at {place(a.get('target'))} (16.4)"
                          if a.get("mission") == "airfield" else
                          f"{unit_label(a.get('unit'))} raids the supply unit {unit_label(a.get('target'))} (16.4)"),
    "oasis_roll": _u("rolls for the oasis combat (16.3)"),
    "build_fort": _u("{unit} begins a level {level} fort (18.1)"),
    "build_rail": _u("{msu} builds the railroad into {hexes} (18.2)"),
    "build_road": _u("{msu} builds the {road} road into {hexes} (18.3)"),
    "exploit": _u("exploits with {units} {path} (14.9)"),
    "exploit_done": lambda a, s: "ends exploitation (14.9)",
    # combat (14.0, 15.0)
    "declare": lambda a, s: (f"declares an attack on {path(a.get('hexes'))} with {units(a.get('attackers') or [])}"
                             + (f" ({a['form']})" if a.get("form") else "")
                             + _extras(a, ("hexes", "attackers", "form")) + " (14.2)"),
    "cancel": _u("cancels the attack {combat}"),
    "resolve": _u("resolves the attack {combat}"),
    "support": lambda a, s: (f"{unit_label(a['unit'])} supports the combat (15.0)" if a.get("unit")
                             else "adds no support"),
    "support_done": lambda a, s: "is done adding support",
    "combat_supply": lambda a, s: (f"supplies the combat in {place(a.get('hex'))} from {unit_label(a['dump'])} (12.6)"
                                   if a.get("dump") else f"does not expend a dump for {place(a.get('hex'))} (12.6)"),
    "battlefield_supply": lambda a, s: ("attempts battlefield supply (12.6)" if a.get("attempt")
                                        else "does not attempt battlefield supply"),
    "terrain_line": _u("chooses the terrain line {line} (14.4)"),
    "defensive_artillery": lambda a, s: (f"{unit_label(a['unit'])} fires defensive artillery (15.1)" if a.get("unit")
                                         else "uses no defensive artillery"),
    "deliberate_artillery": lambda a, s: (f"{unit_label(a['unit'])} fires deliberate artillery"
                                          + (f", expending {unit_label(a['dump'])}" if a.get("dump") else "") + " (15.1)"
                                          if a.get("unit") else "uses no deliberate artillery"),
    "anti_tank": _u("{unit} engages {target} with anti-tank fire (15.2)"),
    "recon_split": _u("splits the recon superiority: part {part} (15.3)"),
    "recon_assign": _u("assigns {unit} to part {part} (15.3)"),
    "lose_step": _u("takes the step loss on {unit}"),
    "morale_choice": lambda a, s: (f"{unit_label(a.get('unit'))} "
                                   + ("takes the morale check" if a.get("choice") == "check"
                                      else "withdraws instead of a morale check" if a.get("choice") == "withdraw"
                                      else f"chooses {a.get('choice')}") + " (14.6)"),
    "retreat": lambda a, s: _retreat(a),
    "retreat_path": lambda a, s: _retreat(a),
    "advance": _u("{unit} advances into {hex} (14.8)"),
    "advance_done": lambda a, s: "ends the advance after combat (14.8)",
    "hold": _u("{unit} holds"),
    # air and naval (19.0, 20.0)
    "air_deploy": _u("deploys the air unit {unit} to {to} (19.0)"),
    "air_stay": _u("keeps the air unit {unit} where it is"),
    "interdict": _u("{unit} interdicts around {hex} (19.6)"),
    "air_bombard": lambda a, s: (f"{unit_label(a.get('unit'))} bombards "
                                 + (f"the airfield at {a['target']}" if str(a.get("target", ""))[:1].isalpha()
                                    and str(a.get("target", ""))[1:2].isdigit() else unit_label(a.get("target")))
                                 + " (19.8)"),
    "strike_allocate": _u("allocates {unit} to strike {lane} (20.0)"),
    "strike_skip": _u("{unit} does not strike"),
    "strike_loss": _u("takes the strike loss on {unit}"),
    "resolve_strike": _u("resolves the strike on {lane}"),
    "coastal_strike": _u("{unit} makes a coastal strike"),
    "fleet_allocate": _u("allocates the fleet {fleet} to {mission} (20.4)"),
    "fleet_stay": _u("keeps the fleet {fleet} in port"),
    "fleet_strike": lambda a, s: (f"{unit_label(a['unit'])} strikes the fleet (20.4.2)" if a.get("unit")
                                  else "makes no strike on the fleet"),
    "malta_strike_with": _u("strikes Malta with {unit}"),
    "malta_strike_skip": _u("{unit} does not strike Malta"),
    "resolve_malta_strike": lambda a, s: "resolves the strike on Malta",
    "convoy_strike_27": lambda a, s: ("strikes the Allied Mediterranean shipping (27.0 f)" if a.get("strike")
                                      else "makes no strike on the Allied Mediterranean shipping (27.0 f)"),
    "crete_raid": _u("raids Crete with the special forces {units} (15.4)"),
    "crete_raid_victim": _u("has {unit} make the damage check after the raid on Crete (15.4 d)"),
    "sf_sea": _u("sends the special forces {units} by sea to {to} (15.4)"),
    "airdrop": _u("airdrops {unit} on {to} (15.5)"),
    "battle_marker": _u("marks {units} for a {form} battle (14.9.1; 14.9.2)"),
    "fall_braun_drop": _u("airdrops {unit} from the Fall Braun Box on {to} (AXC-19 b; 15.5)"),
    "fna_move": _u("moves {units} along the FNA road to {to} (22.7)"),
    "fna_box_attack": _u("attacks the Vichy French in {box} with {attackers} (22.7)"),
    "vichy_retreat": _u("retreats the Vichy French {unit} to {to} (ALC-21 i 4)"),
    "shore_bombard": _u("bombards {target} in {hex} with the fleet {fleet} (20.4.2 shore bombardment)"),
    "fleet_strike_box": _u("strikes the port boxes of {port} with the fleet {fleet} (20.4.2)"),
    "fleet_mission_strike": lambda a, s: (f"{unit_label(a['unit'])} strikes the fleet on its coastal mission (19.9.2)"
                                          if a.get("unit") else "makes no (more) strike on the fleet"),
    "port_strike": _u("{unit} strikes the port boxes of {port} (19.9.2 port strike)"),
}


def describe(kind: str, args: dict, side: str = "") -> str:
    """The readable sentence for an action (without the side)."""
    f = SENTENCES.get(kind)
    if f is not None:
        try:
            return f(dict(args or {}), side)
        except Exception:  # noqa: BLE001 - an unexpected argument shape: fall back to the generic line
            pass
    return kind.replace("_", " ") + _extras(dict(args or {}), ())
