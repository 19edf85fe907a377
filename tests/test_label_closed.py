"""closed_part: what labelling removes with a unit, so that the rest can build."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wynot.analysis.depends import Dependencies
from wynot.label_units import closed_part


def test_the_users_of_a_removed_unit_go_with_it_and_nothing_else() -> None:
    deps = Dependencies({1: {2}, 2: {3}, 4: {5}, 6: set()})  # 1 -> 2 -> 3; 4 -> 5
    assert closed_part(frozenset({1, 2, 4, 5, 6}), deps) == {4, 5, 6}  # 3 removed: 2, then 1
    assert closed_part(frozenset({1, 2, 3, 6}), deps) == {1, 2, 3, 6}


@given(st.dictionaries(st.integers(0, 12), st.sets(st.integers(0, 12), max_size=3)),
       st.frozensets(st.integers(0, 12)))
def test_the_closed_part_is_the_largest_closed_subset(needs: dict[int, set[int]],
                                                      config: frozenset[int]) -> None:
    deps = Dependencies({a: set(bs) for a, bs in needs.items()})
    kept = closed_part(config, deps)
    assert deps.is_closed(kept)
    # a change stays exactly when all it needs, directly or not, is in the configuration
    assert kept == {c for c in config if deps.closure({c}) <= config}
