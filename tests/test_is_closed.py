"""Dependencies.is_closed: the subset test over the smaller side, and the answer
updated from the last one, against its definition."""

from __future__ import annotations

import pickle

from hypothesis import given, settings
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


nodes = st.integers(0, 60)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(nodes, nodes), max_size=90),
       st.lists(st.tuples(st.booleans(), st.frozensets(nodes, max_size=6)),
                min_size=1, max_size=16),
       st.lists(st.tuples(nodes, nodes), max_size=3))
def test_a_walk_of_configurations_answers_as_the_definition(
        needs: list[tuple[int, int]], walk: list[tuple[bool, frozenset[int]]],
        learned: list[tuple[int, int]]) -> None:
    """Asked one configuration after another (each near the one before, or far from
    it), edges added on the way: every answer is the definition's."""
    deps = Dependencies()
    for a, b in needs:
        deps.add(a, b)
    config = frozenset(range(61))
    for step, (near, ids) in enumerate(walk):
        config = config ^ ids if near else ids
        expected = all(b in config for a in config for b in deps.needs.get(a, ()))
        assert deps.is_closed(config) is expected
        assert deps.is_closed(frozenset(config)) is expected  # an equal set, another object
        if step < len(learned):
            deps.add(*learned[step])
            expected = all(b in config for a in config for b in deps.needs.get(a, ()))
            assert deps.is_closed(config) is expected


def test_pickled_without_the_last_answer() -> None:
    deps = Dependencies()
    deps.add(1, 2)
    assert not deps.is_closed(frozenset(range(1, 40)) - {2})
    copy = pickle.loads(pickle.dumps(deps))
    assert copy == deps and copy._last is None and copy._needed_by is None
    assert copy.is_closed(frozenset({1, 2}))


def test_near_answers_follow_what_enters_and_leaves() -> None:
    deps = Dependencies()
    deps.add(1, 99)
    deps.add(2, 3)
    many = frozenset(range(1, 50))
    assert not deps.is_closed(many)  # 1 lacks 99
    assert deps.is_closed(many - {1})  # the one that lacked something left
    assert not deps.is_closed(many - {1, 3})  # 2 lost what it needs
    assert deps.is_closed(many - {1, 2, 3})
    assert not deps.is_closed((many - {1, 3}) | {99})  # 2 still lacks 3
    assert deps.is_closed(many | {99})  # 99 entered: 1 has it


def test_the_interior_drops_what_lacks_a_need_and_what_needs_that() -> None:
    deps = Dependencies()
    deps.add(1, 2)  # 1 needs 2, 2 needs 3
    deps.add(2, 3)
    assert deps.interior({1, 2}) == frozenset()
    assert deps.interior({1, 2, 3, 4}) == {1, 2, 3, 4}
    assert deps.interior({2, 3, 4}) == {2, 3, 4}
    assert deps.is_closed(deps.interior({1, 3, 4}))


@given(edges, st.integers(0, 59), configs)
def test_a_need_discarded_is_forgotten_by_the_answers_kept(
        needs: list[tuple[int, int]], drop: int, config: frozenset[int]) -> None:
    """After asking, an edge is discarded: the answers are those of a graph that
    never had it, ties included."""
    deps, without = Dependencies(), Dependencies()
    for i, (a, b) in enumerate(needs):
        (deps.tie if i % 3 == 0 else deps.add)(a, b)
    deps.is_closed(config)
    if needs:
        a, b = needs[drop % len(needs)]
        deps.discard(a, b)
        for i, (x, y) in enumerate(needs):
            if (x, y) != (a, b):
                (without.tie if i % 3 == 0 else without.add)(x, y)
    else:
        without = Dependencies()
    assert deps.is_closed(config) is without.is_closed(config)
    assert deps.needs == {k: v for k, v in without.needs.items() if v}
    assert deps.ties == without.ties
