"""Dependencies.is_closed: the subset test over the smaller side, against its definition."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wynot.analysis.depends import Dependencies

edges = st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), max_size=60)
configs = st.frozensets(st.integers(0, 30), max_size=31)


@given(edges, configs)
def test_closed_exactly_when_every_member_has_what_it_needs(
        needs: list[tuple[int, int]], config: frozenset[int]) -> None:
    deps = Dependencies()
    for a, b in needs:
        deps.add(a, b)
    expected = all(b in config for a in config for b in deps.needs.get(a, ()))
    assert deps.is_closed(config) is expected
    assert deps.is_closed(deps.closure(config))
    assert deps.is_closed(config) == (deps.closure(config) == config)


def test_both_ways_of_looking() -> None:
    deps = Dependencies()
    deps.add(1, 2)
    deps.add(3, 4)
    assert deps.is_closed(frozenset({1, 2, 5, 6, 7}))  # more members than changes with needs
    assert not deps.is_closed(frozenset({1, 5, 6, 7, 8}))
    assert not deps.is_closed(frozenset({3}))  # fewer
    assert deps.is_closed(frozenset({2})) and deps.is_closed(frozenset())
