"""The flake-aware culprit finder over simulated oracles, deterministic and flaky."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wynot.bisect import bisect
from wynot.flaky import find_culprit
from wynot.outcome import Outcome


def history(n: int, culprit: int | None, skipped: set[int], flake: float, seed: int):
    """An oracle: commits from ``culprit`` on fail; the others fail at rate ``flake``."""
    rng = random.Random(seed)
    runs: list[int] = []

    def test(i: int) -> Outcome:
        runs.append(i)
        if i in skipped:
            return Outcome.UNRESOLVED
        if culprit is not None and i >= culprit:
            return Outcome.FAIL
        return Outcome.FAIL if rng.random() < flake else Outcome.PASS

    return test, runs


@st.composite
def histories(draw: st.DrawFn) -> tuple[int, int, set[int]]:
    n = draw(st.integers(2, 80))
    culprit = draw(st.integers(1, n - 1))
    skipped = draw(st.sets(st.integers(1, n - 2), max_size=n // 3)) if n > 2 else set()
    return n, culprit, skipped


@settings(max_examples=300, deadline=None)
@given(histories())
def test_without_flakes_it_tests_what_git_bisect_tests(case: tuple[int, int, set[int]]) -> None:
    n, culprit, skipped = case
    plain, _ = history(n, culprit, skipped, 0.0, 0)
    noisy, runs = history(n, culprit, skipped, 0.0, 0)
    expected = bisect(n, plain)
    found = find_culprit(n, noisy, flake_rate=0.0)
    assert found.tested == expected.tested == tuple(runs)
    assert (found.last_good, found.first_bad, found.skipped) == (
        expected.last_good, expected.first_bad, expected.skipped)
    assert found.decided == (not found.skipped)


@settings(max_examples=60, deadline=None)
@given(histories(), st.sampled_from([0.1, 0.3]), st.integers(0, 10_000))
def test_a_decided_answer_respects_every_pass(case: tuple[int, int, set[int]], flake: float,
                                              seed: int) -> None:
    n, culprit, skipped = case
    test, runs = history(n, culprit, skipped, flake, seed)
    found = find_culprit(n, test, confidence=0.9)
    assert found.tested == tuple(runs)
    passed = {i for i, o in zip(found.tested, found.outcomes, strict=True) if o is Outcome.PASS}
    assert all(i < culprit for i in passed)  # a flaky test never passes after the culprit
    if found.first_bad is not None:
        assert not any(i >= found.first_bad for i in passed)
        assert found.last_good < found.first_bad
        assert found.first_bad not in skipped
    assert found.confidence >= 0.9 or not found.decided


@pytest.mark.parametrize("flake", [0.1, 0.3])
def test_flaky_histories_name_the_culprit_most_of_the_time(flake: float) -> None:
    right = 0
    for seed in range(30):
        rng = random.Random(seed)
        culprit = rng.randint(1, 149)
        skipped = {i for i in range(1, 149) if rng.random() < 0.1} - {culprit}
        test, _ = history(150, culprit, skipped, flake, seed)
        found = find_culprit(150, test)
        right += found.decided and found.first_bad == culprit
    assert right >= 27


def test_a_pass_of_bad_means_no_culprit() -> None:
    test, runs = history(40, None, set(), 0.3, 7)
    found = find_culprit(40, test)
    assert found.flaky and found.decided and found.first_bad is None
    assert tuple(runs) == found.tested
    assert any(i == 39 and o is Outcome.PASS  # BAD, rerun, passed
               for i, o in zip(found.tested, found.outcomes, strict=True))


def test_flake_only_histories_answer_no_culprit() -> None:
    flaky = 0
    for seed in range(30):
        test, _ = history(200, None, set(), 0.3, seed)
        found = find_culprit(200, test)
        flaky += found.flaky and found.decided
    assert flaky >= 27


def test_the_budget_stops_the_search_undecided() -> None:
    test, runs = history(300, 123, set(), 0.3, 1)
    found = find_culprit(300, test, max_tests=3)
    assert len(runs) == 3 and not found.decided


def test_priors_move_the_first_pick_towards_heavy_commits() -> None:
    weights = [1.0] * 20
    weights[3] = 100.0
    test, runs = history(20, 3, set(), 0.0, 0)
    found = find_culprit(20, test, flake_rate=0.0, weights=weights)
    assert found.first_bad == 3 and runs[0] in (2, 3)


def test_rejects_impossible_requests() -> None:
    with pytest.raises(ValueError):
        find_culprit(1, lambda i: Outcome.FAIL)
    with pytest.raises(ValueError):
        find_culprit(5, lambda i: Outcome.FAIL, confidence=1.0)
