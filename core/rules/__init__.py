"""The rules chapters, one module each; importing this package registers them.

Each module registers its procedures (``core.engine.procedure``), plugs them
into the sequence of play (``on_step``, ``auto_step``, ``at_phase_end``) and
registers read-only queries for the GUI.
"""

from core.rules import setup, initiative, control  # noqa: F401  (2.2.2 hex control)
from core.rules import status, zoc, supply, stacking, movement, refit, construction  # noqa: F401  (ground, issue 5)
from core.rules import combat, combat_forms, special_units  # noqa: F401  (combat, issue 6)
from core.rules import offmap, weather, events, met, air, naval, reinforcements, initiative_drms, victory_rules  # noqa: F401  (strategic, issue 7)
from core.rules import transport, raiders  # noqa: F401  (ground, issue 5: 13.7/13.8, 16.0)
from core.rules import obligations  # noqa: F401  (strategic, issue 7: card obligations before Movement)
from core.rules import strikes, strategic_moves  # noqa: F401  (strategic, issue 7: IV.5-IV.9 fleets and strikes; MET/Fall Braun/Herkules moves)
from core.rules import training  # noqa: F401  (ground, issue 5: 8.5 training track, 8.5.2 untrained)
from core.rules import fleets  # noqa: F401  (20.4.2 fleet coastal missions in the Movement Phase; 19.9.2 strikes on fleets, port strikes)
from core.rules import air_missions  # noqa: F401  (strategic: 4.1 VI.3 c air missions, 19.6 interdiction, 19.8 bombardment)
from core.rules import special_forces  # noqa: F401  (15.4 special forces sea moves in the Movement Phase)
from core.rules import airdrop  # noqa: F401  (strategic, issue 7: 23.2 AXC-19 b airdrops from the Fall Braun Box, 15.5)
from core.rules import fna  # noqa: F401  (strategic, issue 7: 22.7 FNA boxes and road, ALC-21 i Vichy French reaction and retreat)
