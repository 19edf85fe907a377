"""The commit phase's binary search (pure), against a model of git bisect."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from wynot.bisect import bisect
from wynot.outcome import Outcome


def history(first_bad: int, skipped: set[int]):
    asked: list[int] = []

    def test(i: int) -> Outcome:
        asked.append(i)
        if i in skipped:
            return Outcome.UNRESOLVED
        return Outcome.FAIL if i >= first_bad else Outcome.PASS

    return test, asked


def test_linear_history_needs_log2_tests() -> None:
    for n in (3, 10, 200, 1025):
        for first_bad in (1, n // 3, n - 1):
            test, asked = history(first_bad, set())
            result = bisect(n, test)
            assert (result.last_good, result.first_bad) == (first_bad - 1, first_bad)
            assert result.exact
            assert len(asked) <= math.ceil(math.log2(n - 1))


def test_a_skipped_middle_commit_is_replaced_by_its_neighbour() -> None:
    test, asked = history(first_bad=7, skipped={5})
    result = bisect(11, test)
    assert result.first_bad == 7 and result.exact
    assert asked[0] == 5 and asked[1] in (4, 6)


def test_skipped_commits_next_to_the_first_bad_one_leave_a_range() -> None:
    test, _ = history(first_bad=6, skipped={5})
    result = bisect(11, test)
    assert (result.last_good, result.first_bad, result.skipped) == (4, 6, (5,))
    assert not result.exact


@settings(max_examples=400, deadline=None)
@given(st.integers(3, 300).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(1, n - 1), st.sets(st.integers(1, n - 2), max_size=n // 3))))
def test_bisect_finds_the_narrowest_range_and_never_repeats(case) -> None:
    n, first_bad, skipped = case
    skipped = {s for s in skipped if s < n - 1}
    test, asked = history(first_bad, skipped)
    result = bisect(n, test)
    assert len(asked) == len(set(asked))
    assert 0 not in asked and n - 1 not in asked
    # The range brackets the true first bad commit...
    assert result.last_good < first_bad <= result.first_bad
    # ...and everything strictly inside it was skipped.
    assert set(range(result.last_good + 1, result.first_bad)) == set(result.skipped)
    assert set(result.skipped) <= skipped
    assert result.first_bad not in skipped
