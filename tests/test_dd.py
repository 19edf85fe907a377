"""The search algorithms against the papers' worked examples and random oracles."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dd_oracles import FAIL, PASS, UNRESOLVED, CountingOracle, implies, monotone
from wynot import dd as dd_module
from wynot.dd import (
    Case,
    Decided,
    Event,
    Outcome,
    SearchStopped,
    dd,
    dd_plus,
    ddmin,
    split_evenly,
)

EIGHT = list(range(1, 9))


def table5_oracle(c: frozenset[int]) -> Outcome:
    """Tables 5-6: 2, 3 and 7 can only be applied together; 8 fails."""
    applied = c & {2, 3, 7}
    if applied and applied != {2, 3, 7}:
        return UNRESOLVED
    return FAIL if 8 in c else PASS


class Table7Oracle:
    """Table 7: each change implies all earlier ones. Out-of-order
    configurations are predicted UNRESOLVED without running anything."""

    def __init__(self) -> None:
        self.runs: list[frozenset[int]] = []

    def __call__(self, c: frozenset[int]) -> Outcome:
        if c != frozenset(range(1, max(c) + 1)):
            return UNRESOLVED  # predicted
        self.runs.append(c)
        return FAIL if 7 in c else PASS


# --- the paper's tables ------------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "expected", "tests"),
    [
        pytest.param(monotone({7}), {7}, 5, id="table1-single-cause"),
        pytest.param(monotone({3, 6}), {3, 6}, 8, id="table2-interference"),
        pytest.param(monotone(EIGHT), set(EIGHT), 14, id="table3-all-eight"),
        pytest.param(table5_oracle, {8}, 16, id="tables5-6-inconsistent"),
    ],
)
def test_dd_plus_reproduces_paper_tables(outcome, expected, tests) -> None:
    oracle = CountingOracle(outcome)
    assert dd_plus(EIGHT, oracle) == expected
    assert len(oracle.asked) <= tests
    oracle.assert_no_repeats(EIGHT)


def test_table1_sequence_is_the_papers() -> None:
    oracle = CountingOracle(monotone({7}))
    dd_plus(EIGHT, oracle)
    assert [sorted(c) for c in oracle.asked] == [
        [1, 2, 3, 4], [5, 6, 7, 8], [5, 6], [7, 8], [7],
    ]


def test_tables5_6_sequence_is_the_papers() -> None:
    oracle = CountingOracle(table5_oracle)
    dd_plus(EIGHT, oracle)
    assert [sorted(c) for c in oracle.asked] == [
        [1, 2, 3, 4], [5, 6, 7, 8],
        [1, 2], [3, 4], [5, 6], [7, 8],
        [3, 4, 5, 6, 7, 8], [1, 2, 5, 6, 7, 8], [1, 2, 3, 4, 7, 8], [1, 2, 3, 4, 5, 6],
        [1, 5, 6], [2, 5, 6], [3, 5, 6], [4, 5, 6], [5, 6, 7], [5, 6, 8],
    ]


def test_table7_predicted_outcomes_make_a_binary_search() -> None:
    oracle = Table7Oracle()
    assert dd_plus(EIGHT, oracle) == {7}
    assert [sorted(c) for c in oracle.runs] == [
        [1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6, 7],
    ]


def test_observer_reports_the_cases_taken() -> None:
    events: list[Event[int]] = []
    dd_plus(EIGHT, table5_oracle, observe=events.append)
    cases = [e.case for e in events if isinstance(e, Decided)]
    assert cases == [Case.TRY_AGAIN, Case.TRY_AGAIN, Case.FOUND_IN, Case.FOUND]
    tested = [e for e in events if isinstance(e, dd_module.Tested)]
    assert [e.number for e in tested] == list(range(1, 17))
    assert tested[8].outcome is FAIL and tested[8].configuration == {1, 2, 3, 4, 7, 8}


def table4_oracle(c: frozenset[int]) -> Outcome:
    """Table 4: c_1 = 1-4 is unresolved, c_2 = 5-8 passes; 2 fails."""
    if c == {1, 2, 3, 4}:
        return UNRESOLVED
    return FAIL if 2 in c else PASS


def test_preference_keeps_the_complement_applied() -> None:
    # Prefer c_1, keep 5-8 applied.
    oracle = CountingOracle(table4_oracle)
    events: list[Event[int]] = []
    assert dd_plus(EIGHT, oracle, observe=events.append) == {2}
    assert oracle.asked[2] == {1, 2, 5, 6, 7, 8}
    assert any(isinstance(e, Decided) and e.case is Case.PREFERENCE for e in events)


# --- split --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "n", "sizes"),
    [(8, 2, [4, 4]), (8, 4, [2, 2, 2, 2]), (8, 3, [3, 3, 2]), (3, 5, [1, 1, 1]), (1, 2, [1])],
)
def test_split_evenly_cuts_contiguous_near_equal_runs(size, n, sizes) -> None:
    seq = list(range(size))
    parts = split_evenly(seq, n)
    assert [len(p) for p in parts] == sizes
    assert [x for p in parts for x in p] == seq


def test_custom_split_is_used() -> None:
    # A grouping that keeps {1,2}, {3,4,5,6} and {7,8} together.
    groups = [[1, 2], [3, 4, 5, 6], [7, 8]]

    def by_group(seq: Sequence[int], n: int) -> list[list[int]]:
        inside = [[x for x in g if x in seq] for g in groups]
        inside = [g for g in inside if g]
        if len(inside) >= 2:
            return inside
        return [list(p) for p in split_evenly(seq, n)]

    oracle = CountingOracle(monotone({5}))
    assert dd_plus(EIGHT, oracle, split=by_group) == {5}
    assert oracle.asked[:2] == [{1, 2}, {3, 4, 5, 6}]


def test_split_that_does_not_partition_is_rejected() -> None:
    with pytest.raises(ValueError, match="partition"):
        dd_plus(EIGHT, monotone({1}), split=lambda seq, n: [seq[:2], seq[3:]])


# --- stop hook ----------------------------------------------------------------


def test_stop_hook_returns_smallest_failing_configuration_so_far() -> None:
    oracle = CountingOracle(monotone({7}))
    budget = iter(range(4))
    with pytest.raises(SearchStopped) as stopped:
        dd_plus(EIGHT, oracle, stop=lambda: next(budget, None) is None)
    assert len(oracle.asked) == 4
    assert stopped.value.best == {7, 8}
    assert stopped.value.minimal is False
    assert stopped.value.tests == 4


def test_stop_hook_before_any_failure_returns_everything() -> None:
    with pytest.raises(SearchStopped) as stopped:
        ddmin(EIGHT, monotone({7}), stop=lambda: True)
    assert stopped.value.best == set(EIGHT)



def test_keep_passing_searches_the_second_half_with_the_first_applied() -> None:
    # Table 1 with the shortcut: each passing first half stays applied, and the
    # search makes the same three runs as Table 7's predictions, without them.
    oracle = CountingOracle(monotone({7}))
    events: list[Event[int]] = []
    assert dd_plus(EIGHT, oracle, keep_passing=True, observe=events.append) == {7}
    assert [sorted(c) for c in oracle.asked] == [
        [1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6, 7],
    ]
    decided = [(e.case, sorted(e.c), sorted(e.r)) for e in events if isinstance(e, Decided)]
    assert decided[0] == (Case.KEEP_PASSING, [5, 6, 7, 8], [1, 2, 3, 4])
    assert decided[1] == (Case.KEEP_PASSING, [7, 8], [1, 2, 3, 4, 5, 6])


def test_keep_passing_is_not_taken_after_an_unresolved_first_half() -> None:
    # Table 4 (c_1 = 1-4 unresolved, c_2 = 5-8 passes) stays a preference.
    oracle = CountingOracle(table4_oracle)
    events: list[Event[int]] = []
    assert dd_plus(EIGHT, oracle, keep_passing=True, observe=events.append) == {2}
    assert oracle.asked[:3] == [{1, 2, 3, 4}, {5, 6, 7, 8}, {1, 2, 5, 6, 7, 8}]
    cases = [e.case for e in events if isinstance(e, Decided)]
    assert cases == [Case.PREFERENCE, Case.FOUND_IN, Case.KEEP_PASSING, Case.FOUND]


def test_keep_passing_finds_an_interference_as_result_and_context() -> None:
    # Table 2's cause {3, 6}: 1-4 passes and stays applied, so the search finds
    # 6 relative to it; standalone then finds 3 as the context 6 needs.
    assert dd_plus(EIGHT, monotone({3, 6}), keep_passing=True) == {6}
    oracle = CountingOracle(monotone({3, 6}))
    assert dd_plus(EIGHT, oracle, keep_passing=True, standalone=True) == {3, 6}
    oracle.assert_no_repeats(EIGHT)

def near_ends(cause: int, size: int) -> Callable[[frozenset[int]], Outcome]:
    """Builds only one change away from GOOD or from BAD (a diff whose parts all
    need one another): FAIL with ``cause`` applied, else PASS; UNRESOLVED between."""
    def outcome(c: frozenset[int]) -> Outcome:
        if 1 < len(c) < size - 1:
            return UNRESOLVED
        return FAIL if cause in c else PASS
    return outcome


def test_complements_only_skips_the_subsets_inside_unresolved_ones() -> None:
    # Halves and quarters are all UNRESOLVED: the eighths (pairs) are not asked,
    # their complements are; the single changes are, and 5 fails alone.
    changes = list(range(16))
    plain, shortcut = CountingOracle(near_ends(5, 16)), CountingOracle(near_ends(5, 16))
    events: list[Event[int]] = []
    assert dd_plus(changes, plain) == {5}
    assert dd_plus(changes, shortcut, complements_only=True, observe=events.append) == {5}
    assert sorted(len(c) for c in set(plain.asked) - set(shortcut.asked)) == [2] * 8
    assert set(shortcut.asked) < set(plain.asked)
    assert [e.case for e in events if isinstance(e, Decided)] == [
        Case.TRY_AGAIN, Case.TRY_AGAIN, Case.COMPLEMENTS_ONLY, Case.TRY_AGAIN, Case.FOUND_IN,
        Case.FOUND]
    shortcut.assert_no_repeats(changes)


def test_complements_only_waits_for_two_partitions_of_subsets_that_never_built() -> None:
    # Table 4: 1-4 UNRESOLVED, 5-8 PASS. One partition proves nothing: the same
    # questions as Algorithm 2.
    plain, shortcut = CountingOracle(table4_oracle), CountingOracle(table4_oracle)
    assert dd_plus(EIGHT, plain) == dd_plus(EIGHT, shortcut, complements_only=True) == {2}
    assert shortcut.asked == plain.asked
    plain, shortcut = CountingOracle(table5_oracle), CountingOracle(table5_oracle)
    assert dd_plus(EIGHT, plain) == dd_plus(EIGHT, shortcut, complements_only=True) == {8}
    assert shortcut.asked == plain.asked


def test_complements_only_ends_once_a_subset_built() -> None:
    # 16-31 alone builds and PASSES (preference: search 0-15 with it applied);
    # inside, nothing but single changes builds, yet a subset built before:
    # the same questions as Algorithm 2.
    def outcome(c: frozenset[int]) -> Outcome:
        if c == frozenset(range(16, 32)):
            return PASS
        return near_ends(5, 32)(c)

    plain, shortcut = CountingOracle(outcome), CountingOracle(outcome)
    assert dd_plus(list(range(32)), plain) == dd_plus(
        list(range(32)), shortcut, complements_only=True) == {5}
    assert shortcut.asked == plain.asked


# --- properties ---------------------------------------------------------------

changes_and_cause = st.integers(min_value=1, max_value=40).flatmap(
    lambda n: st.tuples(
        st.just(list(range(n))),
        st.sets(st.integers(0, n - 1), min_size=1, max_size=min(n, 4)),
    )
)


@settings(max_examples=300, deadline=None)
@given(changes_and_cause)
def test_dd_plus_finds_exactly_the_planted_cause(case) -> None:
    changes, cause = case
    oracle = CountingOracle(monotone(cause))
    assert dd_plus(changes, oracle) == cause
    oracle.assert_no_repeats(changes)


@settings(max_examples=300, deadline=None)
@given(changes_and_cause)
def test_ddmin_finds_the_planted_cause(case) -> None:
    changes, cause = case
    oracle = CountingOracle(monotone(cause))
    assert ddmin(changes, oracle) == cause
    oracle.assert_no_repeats(changes)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=1, max_value=200).flatmap(
    lambda n: st.tuples(st.just(n), st.integers(0, n - 1))))
def test_keep_passing_is_a_binary_search_for_one_change(case) -> None:
    n, cause = case
    changes = list(range(n))
    strict, kept = CountingOracle(monotone({cause})), CountingOracle(monotone({cause}))
    assert dd_plus(changes, strict) == dd_plus(changes, kept, keep_passing=True) == {cause}
    assert len(kept.asked) <= max(0, math.ceil(math.log2(n)))
    assert len(kept.asked) <= len(strict.asked)
    kept.assert_no_repeats(changes)


@settings(max_examples=300, deadline=None)
@given(changes_and_cause)
def test_keep_passing_standalone_finds_exactly_the_planted_cause(case) -> None:
    changes, cause = case
    oracle = CountingOracle(monotone(cause))
    assert dd_plus(changes, oracle, keep_passing=True, standalone=True) == cause
    oracle.assert_no_repeats(changes)


def random_oracle(seed: int, changes: Sequence[int]):
    """Arbitrary (non-monotone) outcomes, fixed per configuration."""
    import random

    everything = frozenset(changes)

    def outcome(c: frozenset[int]) -> Outcome:
        if c == everything:
            return FAIL
        if not c:
            return PASS
        draw = random.Random(f"{seed}:{sorted(c)}").random()
        return FAIL if draw < 0.3 else PASS if draw < 0.8 else UNRESOLVED

    return outcome


def assert_one_minimal(result: frozenset[int], outcome) -> None:
    assert outcome(result) is FAIL
    for x in result:
        assert outcome(result - {x}) is not FAIL


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 14), st.integers(0, 10**6))
def test_ddmin_is_one_minimal_for_any_oracle(n, seed) -> None:
    changes = list(range(n))
    outcome = random_oracle(seed, changes)
    oracle = CountingOracle(outcome)
    assert_one_minimal(ddmin(changes, oracle), outcome)
    oracle.assert_no_repeats(changes)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 14), st.integers(0, 10**6))
def test_dd_isolates_a_one_minimal_difference_for_any_oracle(n, seed) -> None:
    changes = list(range(n))
    outcome = random_oracle(seed, changes)
    oracle = CountingOracle(outcome)
    c_pass, c_fail = dd(changes, oracle)
    assert c_pass < c_fail
    assert outcome(c_pass) is PASS and outcome(c_fail) is FAIL
    for delta in c_fail - c_pass:
        assert outcome(c_pass | {delta}) is not PASS
        assert outcome(c_fail - {delta}) is not FAIL
    oracle.assert_no_repeats(changes)


@st.composite
def clustered(draw):
    """Changes, disjoint 'implies' clusters, and a cause among the rest
    (sometimes together with a whole cluster, or one member of it)."""
    n = draw(st.integers(2, 40))
    order = draw(st.permutations(list(range(n))))
    clusters, pos = [], 0
    while pos < n - 1 and draw(st.booleans()):
        k = draw(st.integers(2, min(4, n - pos)))
        clusters.append(frozenset(order[pos : pos + k]))
        pos += k
    safe = sorted(order[pos:])
    if not safe:
        safe = sorted(clusters.pop())
    cause = set(draw(st.sets(st.sampled_from(safe), min_size=1, max_size=3)))
    if clusters and draw(st.booleans()):
        cause |= clusters[0] if draw(st.booleans()) else {min(clusters[0])}
    return list(range(n)), clusters, frozenset(safe), frozenset(cause)


@settings(max_examples=400, deadline=None)
@given(clustered(), st.booleans())
def test_dd_plus_with_implied_clusters_fails_and_drops_safe_changes(case, keep_passing) -> None:
    changes, clusters, safe, cause = case
    outcome = implies(cause, clusters)
    oracle = CountingOracle(outcome)
    # With the shortcut the result is relative to the halves kept applied:
    # standalone makes it fail on its own.
    result = dd_plus(changes, oracle, keep_passing=keep_passing, standalone=keep_passing)
    assert outcome(result) is FAIL
    assert result & safe <= cause  # every safe change that does not induce is excluded
    oracle.assert_no_repeats(changes)


@settings(max_examples=400, deadline=None)
@given(clustered(), st.integers(0, 10**6), st.booleans())
def test_dd_plus_standalone_fails_on_its_own_under_random_unresolved(
        case, seed, keep_passing) -> None:
    changes, clusters, _, cause = case
    outcome = implies(cause, clusters, unresolved_rate=0.5, seed=seed)
    oracle = CountingOracle(outcome)
    events: list[Event[int]] = []
    result = dd_plus(changes, oracle, standalone=True, keep_passing=keep_passing,
                     observe=events.append)
    # The contract: the result is checked, and grown, once the search met an
    # UNRESOLVED outcome or kept a passing half applied. A search that did
    # neither trusts consistency (no extra test, see the next test), so an
    # untested union of interference results may still miss part of a
    # cluster the oracle never showed it.
    kept = any(isinstance(e, Decided) and e.case is Case.KEEP_PASSING for e in events)
    if kept or any(outcome(c) is UNRESOLVED for c in oracle.asked):
        assert outcome(result) is FAIL
    assert cause <= result or any(cause & cl for cl in clusters)
    oracle.assert_no_repeats(changes)


def test_standalone_adds_no_test_when_nothing_was_unresolved() -> None:
    for cause in [{7}, {3, 6}, set(EIGHT)]:
        plain, closed = CountingOracle(monotone(cause)), CountingOracle(monotone(cause))
        assert dd_plus(EIGHT, plain) == dd_plus(EIGHT, closed, standalone=True)
        assert plain.asked == closed.asked


def test_searches_are_deterministic() -> None:
    for algorithm in (dd_plus, ddmin, dd):
        runs = []
        for _ in range(2):
            oracle = CountingOracle(random_oracle(7, EIGHT))
            algorithm(EIGHT, oracle)
            runs.append(oracle.asked)
        assert runs[0] == runs[1]


def test_results_do_not_depend_on_change_type() -> None:
    names = [f"hunk-{i}" for i in EIGHT]
    assert dd_plus(names, lambda c: FAIL if "hunk-7" in c else PASS) == {"hunk-7"}


@pytest.mark.parametrize("algorithm", [dd_plus, ddmin, dd])
def test_empty_and_duplicate_inputs_are_rejected(algorithm) -> None:
    with pytest.raises(ValueError):
        algorithm([], monotone({1}))
    with pytest.raises(ValueError, match="distinct"):
        algorithm([1, 1, 2], monotone({1}))


def test_exhaustive_small_monotone_cases() -> None:
    """Every non-empty cause over 1..6: dd_plus and ddmin find it, dd isolates it."""
    changes = list(range(1, 7))
    for k in range(1, 7):
        for cause in itertools.combinations(changes, k):
            assert dd_plus(changes, monotone(cause)) == set(cause)
            assert ddmin(changes, monotone(cause)) == set(cause)
            c_pass, c_fail = dd(changes, monotone(cause))
            assert set(cause) <= c_fail and not set(cause) <= c_pass


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 24), st.integers(0, 10**6))
def test_complements_only_keeps_dd_plus_contract_for_any_oracle(n, seed) -> None:
    # Whatever the outcomes: no question twice, never GOOD or BAD, a non-empty
    # answer inside the changes.
    changes = list(range(n))
    oracle = CountingOracle(random_oracle(seed, changes))
    found = dd_plus(changes, oracle, complements_only=True)
    assert found and found <= set(changes)
    oracle.assert_no_repeats(changes)


@settings(max_examples=200, deadline=None)
@given(changes_and_cause)
def test_complements_only_changes_nothing_without_unresolved_outcomes(case) -> None:
    changes, cause = case
    plain, shortcut = CountingOracle(monotone(cause)), CountingOracle(monotone(cause))
    assert dd_plus(changes, shortcut, complements_only=True) == dd_plus(changes, plain)
    assert shortcut.asked == plain.asked


# --- inside a failing part (narrow) ---------------------------------------------


class InsideOracle:
    """A tangle answered from inside, as wynot's search oracle answers one: a
    configuration that holds part of ``tangle`` does not build, but when it holds
    the cause, its part without the tangle FAILS and answers for it. ``narrow``
    gives that part, as :meth:`SearchOracle.failing_part` does."""

    def __init__(self, cause: frozenset[int], tangle: frozenset[int]) -> None:
        self.cause, self.tangle = cause, tangle
        self.failed: list[frozenset[int]] = []

    def __call__(self, c: frozenset[int]) -> Outcome:
        inner = next((f for f in self.failed if f <= c), None)
        if inner is not None:
            return FAIL
        if 0 < len(c & self.tangle) < len(self.tangle):
            if self.cause <= c - self.tangle:
                self.failed.append(c - self.tangle)
                return FAIL
            return UNRESOLVED
        if self.cause <= c:
            self.failed.append(c)
            return FAIL
        return PASS

    def narrow(self, c: frozenset[int]) -> frozenset[int]:
        return min((f for f in self.failed if f <= c), key=len, default=c)


def test_dd_plus_goes_on_inside_the_failing_part_the_oracle_knows() -> None:
    # Half of 0-31 holds the cause (3) and half of the tangle (12-19): its part
    # without the tangle, 0-11, FAILED. Found in 0-15, dd+ searches 0-11 next,
    # not the tangle's 12-15 again, one complement at a time.
    changes, cause, tangle = list(range(32)), frozenset({3}), frozenset(range(12, 20))
    plain, inside = InsideOracle(cause, tangle), InsideOracle(cause, tangle)
    plain_asked, inside_asked = CountingOracle(plain), CountingOracle(inside)
    events: list[Event[int]] = []
    assert dd_plus(changes, plain_asked) == cause
    assert dd_plus(changes, inside_asked, narrow=inside.narrow, observe=events.append) == cause
    decided = [e for e in events if isinstance(e, Decided)]
    assert decided[0].case is Case.INSIDE_PART and decided[0].c == frozenset(range(12))
    assert not any(c & tangle for c in inside_asked.asked[1:])
    assert len(inside_asked.asked) < len(plain_asked.asked)
    inside_asked.assert_no_repeats(changes)


def test_a_failing_complements_part_takes_the_search_inside_it() -> None:
    # The cause is 2 and 30 together; the tangle 4-27 spans every quarter. No
    # half or quarter holds both: UNRESOLVED. The complement of 8-15 holds both
    # and part of the tangle: its part without the tangle, 0-3 and 28-31,
    # FAILS, and dd+ goes on inside it (the changes of c' it holds), with n = 2
    # again.
    changes, cause, tangle = list(range(32)), frozenset({2, 30}), frozenset(range(4, 28))
    oracle = InsideOracle(cause, tangle)
    asked = CountingOracle(oracle)
    events: list[Event[int]] = []
    assert dd_plus(changes, asked, narrow=oracle.narrow, observe=events.append) == cause
    inside = [e for e in events if isinstance(e, Decided) and e.case is Case.INSIDE_PART]
    assert inside[0].c == frozenset({0, 1, 2, 3, 28, 29, 30, 31}) and inside[0].n == 4
    after = [e.configuration for e in events[events.index(inside[0]):]
             if isinstance(e, dd_module.Tested)]
    assert after and not any(c & tangle for c in after)
    asked.assert_no_repeats(changes)


@settings(max_examples=300, deadline=None)
@given(changes_and_cause)
def test_narrow_that_knows_no_part_changes_nothing(case) -> None:
    changes, cause = case
    plain, narrowed = CountingOracle(monotone(cause)), CountingOracle(monotone(cause))
    assert dd_plus(changes, narrowed, narrow=lambda c: c) == dd_plus(changes, plain)
    assert narrowed.asked == plain.asked


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 40).flatmap(lambda n: st.tuples(
    st.just(n), st.sets(st.integers(0, n - 1), min_size=1, max_size=3),
    st.integers(0, n - 1), st.integers(1, n))))
def test_dd_plus_inside_failing_parts_finds_exactly_the_cause(case) -> None:
    # A tangle of consecutive changes anywhere (the cause may lie in it): the
    # answer is the cause whenever it lies outside, and fails in any case; no
    # configuration is asked twice.
    n, cause, start, size = case
    changes, cause = list(range(n)), frozenset(cause)
    tangle = frozenset(range(start, min(n, start + size)))
    oracle = InsideOracle(cause, tangle)
    asked = CountingOracle(oracle)
    found = dd_plus(changes, asked, narrow=oracle.narrow)
    if not cause & tangle:
        assert found == cause
    asked.assert_no_repeats(changes)


class RepairingOracle:
    """An oracle that repairs, as wynot's search oracle does: a configuration that
    holds a user of a name (``needs``: user -> definition) without its
    definition does not build, and is run with the definitions added; that
    run answers for it. ``narrow`` gives the run that answered a FAIL, as
    :meth:`SearchOracle.failed_for` does."""

    def __init__(self, cause: frozenset[int], needs: dict[int, int]) -> None:
        self.cause, self.needs = cause, needs
        self.ran: dict[frozenset[int], frozenset[int]] = {}

    def __call__(self, c: frozenset[int]) -> Outcome:
        run = c | {self.needs[u] for u in c if u in self.needs}
        self.ran[c] = run
        return FAIL if self.cause <= run else PASS

    def narrow(self, c: frozenset[int]) -> frozenset[int]:
        return self.ran.get(c, c)


def test_dd_plus_goes_on_inside_the_repaired_run_that_failed() -> None:
    # 7 and 14 fail together; 2 uses a name that 14 defines. The first half
    # holds 2 and 7: run with 14 added, it FAILS. Inside the first half every
    # FAIL is 2's repair, and dd+ would end with 2 and 7, which do not fail on
    # their own. Inside the run that failed (0-7 and 14) it ends with the cause.
    changes, cause, needs = list(range(16)), frozenset({7, 14}), {2: 14}
    assert dd_plus(changes, RepairingOracle(cause, needs)) == {2, 7}
    oracle = RepairingOracle(cause, needs)
    asked = CountingOracle(oracle)
    events: list[Event[int]] = []
    assert dd_plus(changes, asked, narrow=oracle.narrow, observe=events.append) == cause
    decided = [e for e in events if isinstance(e, Decided)]
    assert decided[0].case is Case.INSIDE_REPAIRED
    assert decided[0].c == frozenset(range(8)) | {14}
    asked.assert_no_repeats(changes)


def test_inside_repaired_runs_the_answer_is_a_two_change_cause_more_often() -> None:
    # Random diffs (seeded) of 4-40 changes, two changes the cause (they fail
    # together), up to four changes that use a name another defines (never one
    # of the cause). Where a repair adds a change of the cause, going on inside
    # the subset whose repair FAILED ends with the user instead; inside the
    # run that failed, the search keeps it. No configuration is asked twice.
    rng = random.Random(7)
    exact = {"plain": 0, "inside the run": 0}
    for _ in range(2000):
        n = rng.randint(4, 40)
        cause = frozenset(rng.sample(range(n), 2))
        needs = {rng.randrange(n): rng.randrange(n) for _ in range(rng.randint(0, 4))}
        needs = {u: d for u, d in needs.items() if u != d and u not in cause}
        changes = list(range(n))
        exact["plain"] += cause == dd_plus(changes, RepairingOracle(cause, needs))
        oracle = RepairingOracle(cause, needs)
        asked = CountingOracle(oracle)
        exact["inside the run"] += cause == dd_plus(changes, asked, narrow=oracle.narrow)
        asked.assert_no_repeats(changes)
    assert exact["inside the run"] > exact["plain"] + 50, exact


# --- suspects probed where a step decides nothing (probe) --------------------------


def tangled(cause: frozenset[int], tangle: frozenset[int]) -> Callable[[frozenset[int]], Outcome]:
    """Monotone on ``cause``; a configuration that holds part of ``tangle`` does
    not build (UNRESOLVED)."""
    def outcome(c: frozenset[int]) -> Outcome:
        if 0 < len(c & tangle) < len(tangle):
            return UNRESOLVED
        return FAIL if cause <= c else PASS
    return outcome


def suspects_probe(suspects: Sequence[int]) -> dd_module.Probe[int]:
    """Asks each suspect of ``c`` alone with ``r``, through dd+'s test; the first
    that FAILS is the part to search."""
    def probe(r: frozenset[int], c: frozenset[int],
              test: Callable[[frozenset[int]], Outcome]) -> frozenset[int] | None:
        for x in suspects:
            if x in c and test(r | {x}) is FAIL:
                return frozenset({x})
        return None
    return probe


def test_a_step_that_decides_nothing_asks_the_suspects() -> None:
    # The tangle spans both halves and every quarter: nothing builds but
    # configurations without it or with all of it. The halves decide nothing;
    # the probe asks 5 (UNRESOLVED, in the tangle), then 21, which FAILS: the
    # search goes there, with no finer split of the whole.
    changes, cause = list(range(32)), frozenset({21})
    tangle = frozenset(range(0, 16)) | frozenset(range(24, 32))
    plain, probed = CountingOracle(tangled(cause, tangle)), CountingOracle(tangled(cause, tangle))
    events: list[Event[int]] = []
    assert dd_plus(changes, plain) == cause
    assert dd_plus(changes, probed, probe=suspects_probe([5, 21]),
                   observe=events.append) == cause
    suspected = [e for e in events if isinstance(e, Decided) and e.case is Case.SUSPECTS]
    assert [e.c for e in suspected] == [cause]
    assert probed.asked[2:] == [frozenset({5}), cause]  # after the two halves
    assert len(probed.asked) < len(plain.asked)
    probed.assert_no_repeats(changes)


def test_a_probe_that_finds_nothing_leaves_the_search_as_it_was() -> None:
    changes, cause = list(range(32)), frozenset({21})
    tangle = frozenset(range(0, 16)) | frozenset(range(24, 32))
    plain, probed = CountingOracle(tangled(cause, tangle)), CountingOracle(tangled(cause, tangle))
    assert dd_plus(changes, probed, probe=lambda r, c, test: None) == dd_plus(changes, plain)
    assert probed.asked == plain.asked


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 40).flatmap(lambda n: st.tuples(
    st.just(n), st.sets(st.integers(0, n - 1), min_size=1, max_size=3),
    st.integers(0, n - 1), st.integers(1, n),
    st.lists(st.integers(0, n - 1), max_size=6))))
def test_dd_plus_with_probed_suspects_finds_a_failing_answer(case) -> None:
    # Whatever the suspects, no configuration is asked twice, and a cause
    # outside the tangle is found exactly when it is one change (a cause of
    # several may be split by what passes, as in Algorithm 2).
    n, cause, start, size, suspects = case
    changes, cause = list(range(n)), frozenset(cause)
    tangle = frozenset(range(start, min(n, start + size)))
    asked = CountingOracle(tangled(cause, tangle))
    found = dd_plus(changes, asked, probe=suspects_probe(suspects))
    if len(cause) == 1 and not cause & tangle:
        assert found == cause
    asked.assert_no_repeats(changes)
