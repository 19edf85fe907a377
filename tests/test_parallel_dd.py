"""dd+ with N workers answers as dd+ with one, asking the same questions in the same order.

The configurations run on an in-memory executor: worker threads that answer
from an outcome function after a short random delay, and that honour
cancellation. Everything between dd+ and the executor is the real code: the
lookahead, the Tester's speculation, memo and records, the search oracle.
"""

from __future__ import annotations

import heapq
import itertools
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
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
from wynot.executor import Cancelled, Execution, Job, LocalHandle
from wynot.isolate import search_dd_plus
from wynot.oracle import SearchOracle
from wynot.runner import Commands

PASS, FAIL, UNRESOLVED = Outcome.PASS, Outcome.FAIL, Outcome.UNRESOLVED


@dataclass
class MemoryExecutor:
    """Runs jobs on ``workers`` threads; a job's outcome is ``outcome(job.ids)``."""

    outcome: Callable[[frozenset[int]], Outcome]
    workers: int
    seed: int = 0
    ran: list[frozenset[int]] = field(default_factory=list)
    cancelled: list[frozenset[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._queue: list[tuple[int, int, LocalHandle]] = []
        self._order = itertools.count()
        self._lock = threading.Condition()
        self._closing = False
        self._random = random.Random(self.seed)
        self._threads = [threading.Thread(target=self._work, daemon=True)
                         for _ in range(self.workers)]
        for thread in self._threads:
            thread.start()

    def begin(self, good: str, diff: Diff) -> None:
        del good, diff

    def submit(self, job: Job, priority: int = 0) -> LocalHandle:
        handle = LocalHandle(job)
        with self._lock:
            heapq.heappush(self._queue, (priority, next(self._order), handle))
            self._lock.notify()
        return handle

    def close(self) -> None:
        with self._lock:
            self._closing = True
            self._lock.notify_all()
        for thread in self._threads:
            thread.join()

    def _work(self) -> None:
        while True:
            with self._lock:
                while not self._queue and not self._closing:
                    self._lock.wait()
                if self._closing:
                    return
                handle = heapq.heappop(self._queue)[2]
                delay = self._random.uniform(0, 0.002)
            deadline = time.monotonic() + delay
            while time.monotonic() < deadline and not handle.cancelled():
                time.sleep(0.0005)
            if handle.cancelled():
                with self._lock:
                    self.cancelled.append(handle.job.ids)
                handle.finish(None, Cancelled("cancelled"))
                continue
            with self._lock:
                self.ran.append(handle.job.ids)
            handle.finish(Execution(self.outcome(handle.job.ids), "in memory", delay, ""), None)


def parallel_dd_plus(changes: list[int], outcome: Callable[[frozenset[int]], Outcome],
                     workers: int, log_dir: Path, *, keep_passing: bool,
                     seed: int = 0,
                     ) -> tuple[frozenset[int], list[result.TestRecord], MemoryExecutor]:
    executor = MemoryExecutor(outcome, workers, seed)
    log = RunLog(log_dir)
    searcher = tester.Tester(Diff("good", "bad", (), ()), executor, Commands(("true",)), None, "",
                    log, lambda _: None)
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


oracles = st.one_of(
    st.tuples(st.integers(2, 24), st.integers(0, 10**6)).map(
        lambda t: (t[0], random_oracle(t[0], t[1]))),
    st.tuples(st.integers(4, 24), st.integers(0, 10**6)).map(
        lambda t: (t[0], implies({t[1] % t[0]}, [frozenset(range(1, min(4, t[0])))],
                                 unresolved_rate=0.7, seed=t[1]))),
)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=oracles, workers=st.integers(1, 8), keep_passing=st.booleans(),
       seed=st.integers(0, 1000))
def test_parallel_dd_plus_answers_and_asks_as_sequential(
        case: tuple[int, Callable[[frozenset[int]], Outcome]], workers: int,
        keep_passing: bool, seed: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    n, outcome = case
    changes = list(range(n))
    sequential = CountingOracle(outcome)
    expected = dd_plus(changes, sequential, keep_passing=keep_passing)
    found, records, executor = parallel_dd_plus(
        changes, outcome, workers, tmp_path_factory.mktemp("runs"), keep_passing=keep_passing,
        seed=seed)
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
