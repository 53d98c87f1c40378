"""The game state: one plain, serialisable value (event sourcing's fold result).

Everything the rules need lives here, nothing else does: the state hash is the
sha256 of its canonical JSON encoding (sorted keys), so two processes that
replay the same scenario, seed and actions reach byte-identical states.
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable

import msgspec


#: bumped whenever any unit's attribute is set (``UnitState.__setattr__``): with :attr:`Units.version` it tells a
#: derived index (hex -> units, kept beside the state, never in it) that it is out of date (issue 18)
_UNIT_WRITES = [0]
#: bumped whenever any unit's ``loc`` is set: the hex -> units index (:meth:`Units.at`) depends on nothing else
_LOC_WRITES = [0]
#: bumped whenever a field of any game state is set (``GameState.__setattr__``): with the two counters above, it
#: tells :meth:`core.engine.Engine.clean_bytes` that a state may have changed since it was last encoded
_STATE_WRITES = [0]


def write_stamp() -> tuple[int, int]:
    """The process's count of unit attribute and game-state field writes (in-place changes of containers are not
    counted)."""
    return _UNIT_WRITES[0], _STATE_WRITES[0]


class UnitState(msgspec.Struct, kw_only=True, omit_defaults=True):
    """Where a counter is and the status markers on it (8.0).

    ``loc`` is a hex's primary label (``C2331``) or an off-map box id
    (``box:Refit:Axis``, ``box:NRV``, ``card:ALC-9``...).
    """

    id: str
    side: str
    loc: str
    steps: int = 1
    disrupted: bool = False        # 8.2
    ogs: bool = False              # 12.5 out of general supply
    isolated: bool = False         # 12.5
    reserve: bool = False          # 13.6
    untrained: bool = False        # 8.5.2
    emergency: bool = False        # 12.7
    captured: bool = False         # 12.2.7 (supply units)
    active: bool = False           # bases: active side up (12.2.3)
    training_box: int = 0          # 8.5.1: box of the Training Track (0 = not training)
    flags: dict[str, Any] = {}     # other markers set by later rules (battle markers, forts...)

    def __setattr__(self, name: str, value: Any) -> None:
        _UNIT_WRITES[0] += 1
        if name == "loc":
            _LOC_WRITES[0] += 1
        msgspec.Struct.__setattr__(self, name, value)


class Units(dict):
    """``GameState.units``: a plain dict (encoded and hashed as one) that counts its own changes in ``version``, so
    that indexes derived from it can tell when to rebuild.  Nothing here is part of the state or its hash."""

    __slots__ = ("version", "_at", "_at_key", "_memo", "_memo_key", "_ids_memo", "_ids_key")

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.version = 0
        self._at: dict[str, list[UnitState]] = {}
        self._at_key: tuple[int, int] = (-1, -1)
        self._memo: dict[Any, Any] = {}
        self._memo_key: tuple[int, int] = (-1, -1)
        self._ids_memo: dict[Any, Any] = {}
        self._ids_key = -1

    def by_ids(self, key: Any, compute: Callable[[], Any]) -> Any:
        """``compute()`` memoised until a unit is added, removed or replaced: for values that depend only on which
        unit ids are present (a counter's printed facts), returned as immutable values."""
        if self._ids_key != self.version:
            self._ids_memo, self._ids_key = {}, self.version
        try:
            return self._ids_memo[key]
        except KeyError:
            v = self._ids_memo[key] = compute()
            return v

    def derived(self, key: Any, compute: Callable[[], Any]) -> Any:
        """``compute()`` memoised until any unit changes (added, removed, or an attribute set).  For values derived
        from the units' attributes only (not from ``flags``, whose in-place changes are not seen), returned as
        immutable values (the caller shares them)."""
        stamp = (self.version, _UNIT_WRITES[0])
        if stamp != self._memo_key:
            self._memo, self._memo_key = {}, stamp
        try:
            return self._memo[key]
        except KeyError:
            v = self._memo[key] = compute()
            return v

    def __setitem__(self, k: str, v: UnitState) -> None:
        self.version += 1
        super().__setitem__(k, v)

    def __delitem__(self, k: str) -> None:
        self.version += 1
        super().__delitem__(k)

    def pop(self, *a: Any) -> Any:
        self.version += 1
        return super().pop(*a)

    def popitem(self) -> Any:
        self.version += 1
        return super().popitem()

    def clear(self) -> None:
        self.version += 1
        super().clear()

    def update(self, *a: Any, **kw: Any) -> None:
        self.version += 1
        super().update(*a, **kw)

    def setdefault(self, k: str, v: Any = None) -> Any:
        self.version += 1
        return super().setdefault(k, v)

    def __ior__(self, other: Any) -> "Units":
        self.version += 1
        return super().__ior__(other)

    def at(self, loc: str) -> list[UnitState]:
        """The units whose ``loc`` is ``loc``, in the dict's order (the index is rebuilt after a unit is added,
        removed or replaced, or any unit's ``loc`` set)."""
        key = (self.version, _LOC_WRITES[0])
        if key != self._at_key:
            idx: dict[str, list[UnitState]] = {}
            for u in self.values():
                idx.setdefault(u.loc, []).append(u)
            self._at, self._at_key = idx, key
        return list(self._at.get(loc, ()))


class Frame(msgspec.Struct, kw_only=True, omit_defaults=True):
    """One procedure on the engine's procedure stack, with its local data."""

    proc: str
    data: dict[str, Any] = {}


class GameState(msgspec.Struct, kw_only=True, omit_defaults=True):
    scenario: str
    seed: int
    gt: int
    phase: int
    step: int = 1                          # step number within the phase (4.1)
    initiative: str = "Axis"               # 6.0; last GT's holder until Phase V
    first_player: str = "Axis"             # 6.1
    surprise: bool = False                 # 6.2: this GT only
    ghibli: bool = False                   # 6.3 / 21.2: this GT only
    air_superiority: str | None = None     # 19.2
    air_superiority_margin: int = 0
    end_gt: int = 1                        # the end scenario marker's box (4.0)
    es_history: list[dict[str, Any]] = []  # every move of the end scenario marker, with its reason
    units: dict[str, UnitState] = {}
    control: dict[str, str] = {}           # hex label -> side (2.2.2 hex control)
    cards: dict[str, dict[str, Any]] = {}  # card id -> card status (5.0)
    vars: dict[str, Any] = {}              # scenario and rule bookkeeping
    dice_drawn: int = 0                    # dice rolled so far (the RNG position)
    stack: list[Frame] = []                # the procedure stack (the engine's program counter)
    result: dict[str, Any] | None = None   # set when the scenario has ended (4.1 XX)

    def __post_init__(self) -> None:
        if type(self.units) is not Units:
            msgspec.Struct.__setattr__(self, "units", Units(self.units))

    def __setattr__(self, name: str, value: Any) -> None:
        _STATE_WRITES[0] += 1
        if name == "units" and type(value) is not Units:
            value = Units(value)
        msgspec.Struct.__setattr__(self, name, value)

    def encode(self) -> bytes:
        """Canonical JSON (sorted keys): the basis of the state hash."""
        return msgspec.json.encode(self, order="sorted")

    @classmethod
    def decode(cls, data: bytes | str) -> "GameState":
        return msgspec.json.decode(data, type=cls)

    def hash(self) -> str:
        return hashlib.sha256(self.encode()).hexdigest()

    def units_at(self, loc: str) -> list[UnitState]:
        """The units in ``loc`` (a hex label or box id), from an index kept beside the state (issue 18)."""
        return self.units.at(loc)

    def units_of(self, side: str) -> list[UnitState]:
        return [u for u in self.units.values() if u.side == side]


def state_hash(state: GameState) -> str:
    return state.hash()
