"""The hex -> units index kept beside the state (issue 18): ``GameState.units_at`` answers exactly as a scan of
``units`` would after every kind of change, and the index is no part of the encoded (hashed, saved) state."""

from __future__ import annotations

from core.state import GameState, Units, UnitState


def scan(st: GameState, loc: str) -> list[UnitState]:
    return [u for u in st.units.values() if u.loc == loc]


def test_units_at_follows_every_change():
    st = GameState(scenario="t", seed=1, gt=1, phase=1,
                   units={"a": UnitState(id="a", side="Axis", loc="C2331"), "b": UnitState(id="b", side="Allied", loc="C2331")})
    assert type(st.units) is Units
    before = st.encode()
    assert [u.id for u in st.units_at("C2331")] == ["a", "b"]
    assert st.encode() == before                         # the index is not in the state
    st.units["a"].loc = "C2332"                          # a move
    assert [u.id for u in st.units_at("C2331")] == ["b"] and [u.id for u in st.units_at("C2332")] == ["a"]
    st.units["c"] = UnitState(id="c", side="Axis", loc="C2331")     # an arrival
    assert [u.id for u in st.units_at("C2331")] == ["b", "c"]
    st.units.pop("b")                                    # an elimination
    assert [u.id for u in st.units_at("C2331")] == ["c"]
    st.units["c"] = UnitState(id="c", side="Axis", loc="box:Refit:Axis")   # replaced by a new record
    assert st.units_at("C2331") == []
    del st.units["c"]
    st.units.update({"d": UnitState(id="d", side="Axis", loc="C2331")})
    st.units.setdefault("e", UnitState(id="e", side="Axis", loc="C2331"))
    assert [u.id for u in st.units_at("C2331")] == ["d", "e"] == [u.id for u in scan(st, "C2331")]
    st.units = {"f": UnitState(id="f", side="Axis", loc="C2331")}     # a new dict is indexed too
    assert type(st.units) is Units and [u.id for u in st.units_at("C2331")] == ["f"]
    st.units.clear()
    assert st.units_at("C2331") == []


def test_decoded_state_is_indexed_and_encodes_identically():
    st = GameState(scenario="t", seed=1, gt=1, phase=1, units={"a": UnitState(id="a", side="Axis", loc="C2331")})
    again = GameState.decode(st.encode())
    assert type(again.units) is Units and again.encode() == st.encode() and again.hash() == st.hash()
    assert [u.id for u in again.units_at("C2331")] == ["a"]
    got = again.units_at("C2331")
    got.clear()                                          # a caller's list is its own
    assert [u.id for u in again.units_at("C2331")] == ["a"]


def test_derived_values_are_recomputed_after_any_unit_change():
    st = GameState(scenario="t", seed=1, gt=1, phase=1, units={"a": UnitState(id="a", side="Axis", loc="C2331")})
    calls = []

    def ogs_units():
        calls.append(1)
        return frozenset(u.id for u in st.units.values() if u.ogs)

    assert st.units.derived("ogs", ogs_units) == frozenset() and st.units.derived("ogs", ogs_units) == frozenset()
    assert len(calls) == 1                               # memoised while nothing changes
    st.units["a"].ogs = True                             # an attribute set
    assert st.units.derived("ogs", ogs_units) == {"a"}
    st.units["b"] = UnitState(id="b", side="Axis", loc="C2331", ogs=True)   # an arrival
    assert st.units.derived("ogs", ogs_units) == {"a", "b"}
    st.units.pop("a")
    assert st.units.derived("ogs", ogs_units) == {"b"} and len(calls) == 4


def test_by_ids_values_follow_arrivals_and_removals_only():
    st = GameState(scenario="t", seed=1, gt=1, phase=1, units={"a": UnitState(id="a", side="Axis", loc="C2331")})
    ids = lambda: tuple(st.units)                        # noqa: E731
    assert st.units.by_ids("ids", ids) == ("a",)
    st.units["a"].loc = "C2332"                          # a move does not change which units exist
    assert st.units.by_ids("ids", ids) == ("a",)
    st.units["b"] = UnitState(id="b", side="Axis", loc="C2331")
    assert st.units.by_ids("ids", ids) == ("a", "b")
    del st.units["a"]
    assert st.units.by_ids("ids", ids) == ("b",)
