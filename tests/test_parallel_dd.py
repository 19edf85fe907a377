"""dd+ with N workers answers as dd+ with one, asking the same questions in the same order.

The configurations run on an in-memory executor: worker threads that answer
from an outcome function after a short random delay, and that honour
cancellation. Everything between dd+ and the executor is the real code: the
lookahead, the Tester's speculation, memo and records, the search oracle.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dd_oracles import CountingOracle, implies
from wynot import result, tester
from wynot.analysis.depends import Dependencies
from wynot.cache import RunLog
from wynot.changes import Diff
from wynot.dd import Outcome, dd_plus, split_evenly
from wynot.executor import Cancelled, Execution
from wynot.oracle import SearchOracle
from wynot.pool import LocalHandle, LocalPool
from wynot.runner import Commands, Reason
from wynot.search import FailingParts, search_dd_plus

PASS, FAIL, UNRESOLVED = Outcome.PASS, Outcome.FAIL, Outcome.UNRESOLVED


class MemoryExecutor(LocalPool):
    """A pool whose workers answer ``outcome(job.ids)`` after a short random delay."""

    def __init__(self, outcome: Callable[[frozenset[int]], Outcome], workers: int,
                 seed: int = 0) -> None:
        self.outcome = outcome
        self.ran: list[frozenset[int]] = []
        self.cancelled: list[frozenset[int]] = []
        self._random = random.Random(seed)
        self._record = threading.Lock()
        super().__init__(Path("."), Commands(("true",)), workers)

    def _run(self, name: str, handle: LocalHandle) -> Execution:
        with self._record:
            delay = self._random.uniform(0, 0.002)
        deadline = time.monotonic() + delay
        while time.monotonic() < deadline and not handle.cancelled():
            time.sleep(0.0005)
        with self._record:
            if handle.cancelled():
                self.cancelled.append(handle.job.ids)
                raise Cancelled("cancelled")
            self.ran.append(handle.job.ids)
        return Execution(self.outcome(handle.job.ids), "in memory", delay,
                         str(handle.job.output), worker=name)


def parallel_dd_plus(changes: list[int], outcome: Callable[[frozenset[int]], Outcome],
                     workers: int, log_dir: Path, *, keep_passing: bool,
                     seed: int = 0, suspicion: dict[int, float] | None = None,
                     ) -> tuple[frozenset[int], list[result.TestRecord], MemoryExecutor]:
    executor = MemoryExecutor(outcome, workers, seed)
    log = RunLog(log_dir)
    searcher = tester.Tester(Diff("good", "bad", (), ()), executor, Commands(("true",)), None, "",
                    log, lambda _: None, suspicion=suspicion or {})
    try:
        oracle = SearchOracle(searcher, Dependencies(), None)
        found = search_dd_plus(searcher, oracle, changes, frozenset(), split_evenly, None,
                               keep_passing)
        searcher.finish()
    finally:
        executor.close()
        log.close()
    return found, searcher.records, executor


def random_oracle(n: int, seed: int) -> Callable[[frozenset[int]], Outcome]:
    """Any outcome for any configuration (fixed per configuration), but the premise holds."""
    def outcome(config: frozenset[int]) -> Outcome:
        if not config:
            return PASS
        if len(config) == n:
            return FAIL
        return random.Random(f"{seed}:{sorted(config)}").choice([PASS, FAIL, UNRESOLVED])
    return outcome


def near_ends_oracle(n: int, seed: int) -> Callable[[frozenset[int]], Outcome]:
    """Builds only one change away from GOOD or BAD, as where every part needs
    the others: the search narrows down by complements alone (*complements only*)."""
    cause = seed % n

    def outcome(config: frozenset[int]) -> Outcome:
        if 1 < len(config) < n - 1:
            return UNRESOLVED
        return FAIL if cause in config else PASS
    return outcome


oracles = st.one_of(
    st.tuples(st.integers(2, 24), st.integers(0, 10**6)).map(
        lambda t: (t[0], random_oracle(t[0], t[1]))),
    st.tuples(st.integers(4, 24), st.integers(0, 10**6)).map(
        lambda t: (t[0], implies({t[1] % t[0]}, [frozenset(range(1, min(4, t[0])))],
                                 unresolved_rate=0.7, seed=t[1]))),
    st.tuples(st.integers(16, 24), st.integers(0, 10**6)).map(
        lambda t: (t[0], near_ends_oracle(t[0], t[1]))),
)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=oracles, workers=st.integers(1, 8), keep_passing=st.booleans(),
       seed=st.integers(0, 1000),
       suspicion=st.dictionaries(st.integers(0, 23), st.floats(0.0, 1e3), max_size=4))
def test_parallel_dd_plus_answers_and_asks_as_sequential(
        case: tuple[int, Callable[[frozenset[int]], Outcome]], workers: int,
        keep_passing: bool, seed: int, suspicion: dict[int, float],
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """Whatever the evidence the guesses weigh (right, wrong or none), the answer
    and the questions are those of the sequential search."""
    n, outcome = case
    changes = list(range(n))
    sequential = CountingOracle(outcome)
    expected = dd_plus(changes, sequential, keep_passing=keep_passing,
                       complements_only=keep_passing)  # the pipeline's pair of shortcuts
    found, records, executor = parallel_dd_plus(
        changes, outcome, workers, tmp_path_factory.mktemp("runs"), keep_passing=keep_passing,
        seed=seed, suspicion=suspicion)
    assert found == expected
    assert [r.ids for r in records] == sequential.asked
    assert [r.outcome for r in records] == [outcome(c) for c in sequential.asked]
    assert all(r.source == result.RAN for r in records)
    if workers == 1:
        assert executor.ran == sequential.asked and not executor.cancelled


def test_parallel_runs_speculate_and_cancel(tmp_path: Path) -> None:
    """With 8 workers on 64 changes the extra workers run ahead, and what dd+
    does not ask is cancelled or left unused, never recorded."""
    changes = list(range(64))
    outcome = implies({37}, [], unresolved_rate=0.0)
    sequential = CountingOracle(outcome)
    expected = dd_plus(changes, sequential)
    found, records, executor = parallel_dd_plus(changes, outcome, 8, tmp_path,
                                                keep_passing=False)
    assert found == expected == {37}
    assert [r.ids for r in records] == sequential.asked
    assert len(executor.ran) + len(executor.cancelled) > len(sequential.asked)


def test_a_question_being_awaited_is_not_started_again(tmp_path: Path) -> None:
    """Each configuration dd+ asks runs once; only a likely answer (a few changes
    here: one, or two by interference) runs a second time, for the verification."""
    changes = list(range(64))
    outcome = implies({37}, [], unresolved_rate=0.0)
    sequential = CountingOracle(outcome)
    dd_plus(changes, sequential)
    _, records, executor = parallel_dd_plus(changes, outcome, 4, tmp_path, keep_passing=False)
    assert [r.ids for r in records] == sequential.asked
    twice = {c for c in executor.ran if executor.ran.count(c) > 1}
    assert all(len(c) <= 4 for c in twice), sorted(map(len, twice))
    assert all(executor.ran.count(c) <= 2 for c in twice)
    assert len(twice) < len(sequential.asked) / 2


def test_the_verification_adopts_a_second_run_started_ahead(tmp_path: Path) -> None:
    answer = frozenset({3})
    executor = MemoryExecutor(lambda c: FAIL if 3 in c else PASS, 3)
    log = RunLog(tmp_path)
    searcher = tester.Tester(Diff("good", "bad", (), ()), executor, Commands(("true",)), None,
                             "", log, lambda _: None)
    try:
        searcher.speculate([answer], again=[answer])
        found = searcher.run(answer, "search")
        verdict = searcher.run(answer, "verify", use_cache=False)
        searcher.finish()
    finally:
        executor.close()
        log.close()
    assert found.outcome is verdict.outcome is FAIL and verdict.source == result.RAN
    assert executor.ran == [answer, answer]
    assert Path(found.output).name != Path(verdict.output).name
    assert Path(verdict.output).name.startswith("spec-")  # started ahead, then adopted


class GuessesTimeOut(MemoryExecutor):
    """Every run started as a guess times out (as one starved of the CPU would)."""

    def _run(self, name: str, handle: LocalHandle) -> Execution:
        if handle.speculative:
            with self._record:
                self.ran.append(handle.job.ids)
            return Execution(UNRESOLVED, Reason.TIMED_OUT.value, 1.0, str(handle.job.output),
                             worker=name)
        return super()._run(name, handle)


def test_a_guess_that_timed_out_is_run_again_when_asked(tmp_path: Path) -> None:
    """A speculative run ran at a lower CPU priority, beside other runs: its
    timeout is no evidence, and the search's question runs again."""
    config = frozenset({3})
    executor = GuessesTimeOut(lambda c: FAIL if 3 in c else PASS, 2)
    log = RunLog(tmp_path)
    searcher = tester.Tester(Diff("good", "bad", (), ()), executor, Commands(("true",)), None,
                             "", log, lambda _: None)
    try:
        searcher.speculate([config])
        deadline = time.monotonic() + 10
        while not searcher.answered(config):
            assert time.monotonic() < deadline, "the guess never ran"
            time.sleep(0.01)
        found = searcher.run(config, "search")
        searcher.finish()
    finally:
        executor.close()
        log.close()
    assert found.outcome is FAIL and found.reason != Reason.TIMED_OUT.value
    assert executor.ran == [config, config]


def test_a_replay_goes_into_the_part_the_search_went_into() -> None:
    """The search went from 0-7 into the part {1, 2, 3, 4}; a failure found since
    ({2}) lies inside 0-7 too. A replay of the search goes where the search went
    from 0-7, and into today's part only from a configuration the search has
    not asked about."""
    failed = [frozenset({1, 2, 3, 4})]

    def part_now(config: frozenset[int]) -> frozenset[int]:
        return min((f for f in failed if f <= config), key=len, default=config)

    parts = FailingParts(part_now)
    assert parts(frozenset(range(8))) == {1, 2, 3, 4}
    failed.append(frozenset({2}))
    assert parts.ahead(frozenset(range(8))) == {1, 2, 3, 4}
    assert parts(frozenset(range(8))) == {1, 2, 3, 4}
    assert parts.ahead(frozenset({2, 3, 5})) == {2}
    assert frozenset({2, 3, 5}) not in parts.taken  # a replay's question is not kept
