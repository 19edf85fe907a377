"""The commit phase's multisection: N commits a round, the answer of bisect."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from wynot.bisect import bisect, multisect
from wynot.outcome import Outcome

PASS, FAIL, UNRESOLVED = Outcome.PASS, Outcome.FAIL, Outcome.UNRESOLVED


def history(first_bad: int, unbuildable: frozenset[int] = frozenset()):  # type: ignore[no-untyped-def]
    def test(i: int) -> Outcome:
        if i in unbuildable:
            return UNRESOLVED
        return FAIL if i >= first_bad else PASS
    return test


@given(st.integers(2, 400).flatmap(lambda n: st.tuples(st.just(n), st.integers(1, n - 1))),
       st.integers(1, 8))
def test_multisection_finds_the_first_bad_commit_in_log_rounds(case: tuple[int, int],
                                                                width: int) -> None:
    n, first_bad = case
    test = history(first_bad)
    rounds: list[list[int]] = []

    def test_round(indices: list[int]) -> list[Outcome]:
        assert 1 <= len(indices) <= width and len(set(indices)) == len(indices)
        rounds.append(indices)
        return [test(i) for i in indices]

    found = multisect(n, test_round, width)
    assert (found.last_good, found.first_bad) == (first_bad - 1, first_bad)
    assert found.rounds == len(rounds)
    assert len(set(found.tested)) == len(found.tested)
    assert found.rounds <= math.ceil(math.log(n - 1) / math.log(width + 1)) + 1


@given(st.integers(3, 120).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(1, n - 1), st.frozensets(st.integers(1, n - 2), max_size=n // 3))),
       st.integers(1, 8))
def test_multisection_with_unbuildable_commits_agrees_with_bisect(
        case: tuple[int, int, frozenset[int]], width: int) -> None:
    n, first_bad, unbuildable = case
    test = history(first_bad, unbuildable)
    one = bisect(n, test)
    many = multisect(n, lambda picks: [test(i) for i in picks], width)
    assert many.first_bad >= first_bad and many.last_good < first_bad
    assert all(i in unbuildable for i in range(many.last_good + 1, many.first_bad))
    assert set(many.skipped) == set(range(many.last_good + 1, many.first_bad))
    assert (one.last_good, one.first_bad, one.skipped) == (
        many.last_good, many.first_bad, many.skipped)


def test_width_one_picks_what_bisect_picks() -> None:
    test = history(37, frozenset({20, 30}))
    one = bisect(100, test)
    many = multisect(100, lambda picks: [test(i) for i in picks], 1)
    assert many.tested == one.tested and many.rounds == len(one.tested)
