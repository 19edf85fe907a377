"""Run configurations: through the cache, on an executor, into the run log.

:class:`Tester` is the one place a configuration (a set of change ids) becomes
an outcome. Every answer, run or not, is a :class:`TestRecord`: ``source``
says whether the test command really ran, came from the cache, was predicted
UNRESOLVED from known dependencies, or could not be written (path conflict).

The decisions (memo, cache, records) are taken in the calling thread, in the
order the search asks; the runs happen on an :class:`~wynot.executor.Executor`.
With several workers, :meth:`Tester.speculate` starts configurations the
search is likely to ask next. A speculative run becomes evidence only when
the search asks for it: until then it is neither cached nor recorded, and
one that is no longer wanted is cancelled and logged as such.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from wynot.cache import CachedOutcome, OutcomeCache, RunLog, command_files, search_key
from wynot.changes import Diff, FileState
from wynot.executor import DID_NOT_BUILD as DID_NOT_BUILD
from wynot.executor import Cancelled, Execution, Executor, Handle, Job, did_not_build
from wynot.lookahead import Guesses
from wynot.outcome import Outcome
from wynot.result import (
    CACHED,
    CONFLICT,
    PREDICTED,
    RAN,
    Progress,
    TestRecord,
    TestStarted,
)
from wynot.runner import Commands, Reason

_Key = tuple[str, frozenset[int]]  # (commit, or "", or AGAIN; change ids)
AGAIN = "+"  # in a key's commit slot: a second, independent run of the configuration
TOP_UP_SECONDS = 0.05  # how often a waiting search looks for free workers
LOST_RETRIES = 3  # runs the executor lost, run again before giving up
LOST_BACKOFF = 0.5  # seconds before the first retry of a lost run, doubled for each next


@dataclass
class Tester:
    diff: Diff
    executor: Executor
    commands: Commands
    cache: OutcomeCache | None
    key: str
    log: RunLog
    progress: Progress
    records: list[TestRecord] = field(default_factory=list)
    # When set, a FAIL whose output shows a build, link or import error is
    # UNRESOLVED ("did not build"): the failure we look for is a different one.
    build_errors: Sequence[str] | None = None
    # Off for reruns of a flaky test: every commit test runs (and adds an observation).
    replay_commits: bool = True
    # Runs in a row a FAIL must hold before it decides anything (:meth:`decide`):
    # 1 for a test that is not flaky.
    fail_runs: int = 1
    _ran: dict[frozenset[int], TestRecord] = field(default_factory=dict, init=False, repr=False)
    _outside_files: dict[str, str] | None = field(default=None, init=False, repr=False)
    _runs: dict[str | None, int] = field(default_factory=dict, init=False, repr=False)
    _pending: dict[_Key, tuple[Handle, Job]] = field(default_factory=dict, init=False, repr=False)
    _speculated: int = field(default=0, init=False, repr=False)
    _listed: list[_Key] = field(default_factory=list, init=False, repr=False)
    _awaited: tuple[_Key, Handle] | None = field(default=None, init=False, repr=False)
    _keep_again: bool = field(default=False, init=False, repr=False)
    # Every run checked for tracked files its commands change (wynot.tracked): asked
    # for (--check-files), or set once a run's commands were seen changing some.
    check_all: bool = False
    # Tracked files that commands of runs not checked for it had changed, found
    # before a later run: the runs between may have decided on other trees.
    misled: tuple[str, ...] = ()
    # Set by a looking-ahead search: plans again (calls :meth:`speculate`) whenever a
    # speculative run finishes while the search waits.
    replan: Callable[[], None] | None = field(default=None, repr=False)
    # Evidence of where the cause lies (change id -> weight, wynot.suspects.weights):
    # it orders speculative runs only.
    suspicion: Mapping[int, float] = field(default_factory=dict, repr=False)

    def runs(self, phase: str | None = None) -> int:
        """How many times the test command really ran (in ``phase``, or at all); O(1)."""
        return self._runs.get(phase, 0)

    def has_run(self, ids: frozenset[int]) -> bool:
        """Whether this configuration already has an outcome from a run in this search."""
        return ids in self._ran

    def earlier(self, ids: frozenset[int]) -> TestRecord | None:
        """The record that answers for this configuration in this search (its run,
        or a flaky FAIL's confirmed verdict), without adding a record; None if it
        has not run."""
        return self._ran.get(ids)

    def predict(self, ids: frozenset[int], phase: str, reason: str) -> TestRecord:
        """Answer UNRESOLVED without running anything."""
        # Predictions can be many and large: keep their size, not their ids.
        return self._add(TestRecord(len(self.records) + 1, phase, frozenset(),
                                    Outcome.UNRESOLVED, reason, 0.0, "", PREDICTED,
                                    count=len(ids)))

    def alike(self, ids: frozenset[int], phase: str, like: TestRecord, *,
              resolving: frozenset[int] | None = None) -> TestRecord:
        """Answer UNRESOLVED without running anything: ``ids`` does not build, as
        the run ``like`` did not, with its errors (its output) for its own. Kept
        whole, unlike :meth:`predict`'s: at most one for each run a search makes."""
        return self._add(TestRecord(len(self.records) + 1, phase, ids, Outcome.UNRESOLVED,
                                    f"{DID_NOT_BUILD} (broken as test {like.number} was; "
                                    "not run)", 0.0, like.output, PREDICTED, resolving))

    def run(self, ids: frozenset[int], phase: str, *, use_cache: bool = True,
            resolving: frozenset[int] | None = None,
            expect: Outcome | None = None) -> TestRecord:
        """Test a configuration. With ``expect``, an outcome cached by an earlier
        run is replayed only if it is that one (a premise that did not hold is
        always checked again)."""
        number = len(self.records) + 1
        earlier = self._ran.get(ids) if use_cache else None
        if earlier is not None:  # the same configuration, earlier in this run
            return self._add(dataclasses.replace(
                earlier, number=number, phase=phase, source=CACHED, resolving=resolving,
                reason=f"{earlier.reason} (as test {earlier.number})", earlier_run=False))
        cached = self._replay(self.key, ids, expect) if use_cache else None
        if cached is not None:
            return self._add(TestRecord(number, phase, ids, cached.outcome, cached.reason,
                                        cached.duration, cached.output, CACHED, resolving,
                                        earlier_run=True))
        execution = self._execute((AGAIN if not use_cache else "", ids), number, phase)
        source = CONFLICT if execution.conflict else RAN
        record = TestRecord(number, phase, ids, execution.outcome, execution.reason,
                            execution.duration, execution.output, source, resolving)
        if self.cache is not None and record.source == RAN:
            self.cache.put(self.key, ids, CachedOutcome(
                record.outcome, record.reason, record.duration, record.output))
        return self._add(record, execution)

    def run_commit(self, sha: str, phase: str, *, expect: Outcome | None = None) -> TestRecord:
        """Test a whole commit, checked out in a worktree (the commit phase); with
        ``replay_commits`` off, it runs even when the cache knows its outcome."""
        number = len(self.records) + 1
        key = self._commit_key(sha)
        cached = self._replay(key, (), expect) if self.replay_commits else None
        if cached is not None:
            return self._add(TestRecord(number, phase, frozenset(), cached.outcome,
                                        cached.reason, cached.duration, cached.output, CACHED,
                                        commit=sha, earlier_run=True))
        execution = self._execute((sha, frozenset()), number, phase)
        record = TestRecord(number, phase, frozenset(), execution.outcome, execution.reason,
                            execution.duration, execution.output, RAN, commit=sha)
        if self.cache is not None:
            self.cache.put(self._commit_key(sha), (), CachedOutcome(
                record.outcome, record.reason, record.duration, record.output))
        return self._add(record, execution)

    def _commit_key(self, sha: str) -> str:
        return search_key(commit=sha, test=self.commands.test, build=self.commands.build,
                          timeout=self.commands.timeout, fail_pattern=self.commands.fail_pattern,
                          outside=self._outside())

    def earlier_observations(self, shas: Sequence[str]) -> dict[str, list[Outcome]]:
        """What earlier runs observed on each commit (trusted observations, every run
        of them), for a search that weighs evidence; empty with ``--no-cache``."""
        if self.cache is None or not self.cache.replay:
            return {}
        found: dict[str, list[Outcome]] = {}
        for sha in dict.fromkeys(shas):
            counts = self.cache.observations(self._commit_key(sha), ())
            outcomes = [o for o in (Outcome.PASS, Outcome.FAIL, Outcome.UNRESOLVED)
                        for _ in range(counts[o])]
            if outcomes:
                found[sha] = outcomes
        return found

    def replayed(self, sha: str, phase: str, outcome: Outcome) -> TestRecord:
        """Record an earlier run's observation of a commit that a search uses as evidence."""
        return self._add(TestRecord(len(self.records) + 1, phase, frozenset(), outcome,
                                    "observed by an earlier run", 0.0, "", CACHED,
                                    commit=sha, earlier_run=True))

    def _outside(self) -> dict[str, str]:
        """The files the commands name outside the repository (read once per search)."""
        if self._outside_files is None:
            repo = getattr(self.executor, "repo", None)
            self._outside_files = {} if repo is None else command_files(
                repo, self.commands.test, self.commands.build)
        return self._outside_files

    def _replay(self, key: str, ids: Iterable[int],
                expect: Outcome | None) -> CachedOutcome | None:
        cached = self.cache.get(key, ids) if self.cache else None
        if cached is None or (expect is not None and cached.outcome is not expect):
            return None
        if not any(r.earlier_run for r in self.records):
            self.progress("replaying outcomes observed by earlier runs "
                          "(--no-cache runs every test again)")
        return cached

    def decide(self, ids: frozenset[int], phase: str) -> TestRecord:
        """Test a configuration whose FAIL decides something (a step of the search, a
        label, a context dropped): with a flaky test, a FAIL observed now or by an
        earlier run is confirmed by reruns (:meth:`confirmed`)."""
        return self.confirmed(self.run(ids, phase))

    def confirmed(self, record: TestRecord) -> TestRecord:
        """``record``, or with a flaky test (``fail_runs`` > 1) the verdict of its
        confirmation when it is a FAIL not yet confirmed in this search."""
        fresh = record.source == RAN or (record.source == CACHED and record.earlier_run)
        if self.fail_runs > 1 and record.outcome is Outcome.FAIL and fresh:
            return self.confirm(record, self.fail_runs)
        return record

    def confirm(self, record: TestRecord, times: int) -> TestRecord:
        """Run ``record``'s configuration again while it FAILs, up to ``times`` runs in
        all (a flaky test: a PASS is trusted, a FAIL is evidence). The verdict, a
        PASS if any, answers for the configuration from then on in this search."""
        runs = [record]
        while len(runs) < times and runs[-1].outcome is Outcome.FAIL:
            runs.append(self.run(record.ids, record.phase, use_cache=False,
                                 resolving=record.resolving))
        verdict = next((r for r in runs if r.outcome is Outcome.PASS), runs[-1])
        self._ran[record.ids] = verdict
        return verdict

    def dispute(self) -> None:
        """Distrust every outcome this search relied on, observed now or before.

        Called when the verification of an answer disagrees with the outcomes
        that led to it: the next run tests those configurations again instead
        of replaying them (one flaky FAIL must not decide later runs).
        """
        if self.cache is None:
            return
        self.cache.dispute(self.key, {r.ids for r in self.records
                                      if r.source in (RAN, CACHED) and not r.commit})

    def run_tree(self, commit: str, states: Mapping[str, FileState | None], phase: str,
                 ids: frozenset[int]) -> TestRecord:
        """Test ``commit`` with ``states`` written over it, never from the cache (the
        answer carried onto GOOD). Raises UnsafePath when a state cannot be written."""
        number = len(self.records) + 1
        job = Job(ids, self.log.output_path(number), commit=commit, states=dict(states))
        handle = self.executor.submit(job)
        self.progress(TestStarted(number, phase, len(ids), commit))
        execution = handle.result()
        return self._add(TestRecord(number, phase, ids, execution.outcome, execution.reason,
                                    execution.duration, execution.output, RAN, commit=commit),
                         execution)

    def guesses(self, changes: Iterable[int]) -> Guesses[int]:
        """How a looking-ahead search over ``changes`` guesses its answers: by their
        sizes and :attr:`suspicion` (:class:`~wynot.lookahead.Guesses`)."""
        universe = frozenset(changes)
        return Guesses(universe, {c: w for c, w in self.suspicion.items() if c in universe})

    def speculate(self, configs: Sequence[frozenset[int]],
                  again: Sequence[frozenset[int]] | None = None) -> None:
        """Start these configurations on idle workers, first ones first.

        Speculative runs started earlier and not among ``configs`` are
        cancelled when a worker is needed for one of ``configs`` (the latest
        started first); until then they run on, as the search may still ask
        for them (the plan looks only so far ahead); finished ones are kept.
        Configurations with a known outcome are skipped; no more runs are
        started than there are workers. Does nothing with one worker.
        ``again``: likely answers among ``configs``, of which a second,
        independent run is started too (right after the first), for the
        verification that reruns the answer without the cache; None leaves
        the second runs started earlier as they are.
        """
        twice = set(again or ())
        self._want([key for ids in configs
                    for key in [("", ids)] + ([(AGAIN, ids)] if ids in twice else [])],
                   keep_again=again is None)

    def speculate_commits(self, shas: Sequence[str]) -> None:
        """:meth:`speculate` for whole commits (the commit phase)."""
        self._want([(sha, frozenset()) for sha in shas])

    def finish(self) -> None:
        """Cancel the speculative runs the search never asked for, and log them."""
        self._want([], keep_finished=False)

    def peek(self, ids: frozenset[int]) -> Outcome | None:
        """The outcome of a finished speculative run of ``ids`` not adopted yet, else None.

        For planning what to speculate on next only: it is evidence only once the
        search asks for the configuration (and then the same run is adopted).
        """
        pending = self._pending.get(("", ids))
        if pending is None or not pending[0].done():
            return None
        try:
            return pending[0].result().outcome
        except Exception:  # noqa: BLE001 - cancelled or broken: nothing to plan with
            return None

    def answered(self, ids: frozenset[int]) -> bool:
        """Whether :meth:`run` answers ``ids`` at once: it ran earlier in this search,
        a speculative run of it has finished, or the cache knows it."""
        pending = self._pending.get(("", ids))
        return self.known(ids) or (pending is not None and pending[0].done())

    def known(self, ids: frozenset[int]) -> bool:
        """Whether ``ids`` ran earlier in this search or the cache knows it: what
        :meth:`answered` says without the speculative runs, so that a decision
        taken on it is the same for every number of workers."""
        return self._known(("", ids))

    def _known(self, key: _Key) -> bool:
        sha, ids = key
        if sha == AGAIN:
            return False
        if not sha and ids in self._ran:
            return True
        if self.cache is None:
            return False
        return self.cache.get(self._commit_key(sha) if sha else self.key, ids) is not None

    def _job(self, key: _Key, output: str) -> Job:
        """The job of ``key``. The verification's (a second run), and every run once
        commands were seen changing tracked files (or with ``check_all``),
        starts in a worktree known to be as wynot left it; with ``check_all`` a
        run is checked after it too (:mod:`wynot.tracked`)."""
        sha, ids = key
        again = sha == AGAIN
        sha = "" if again else sha
        errors = tuple(self.build_errors) if self.build_errors is not None else None
        return Job(ids, self.log.dir / output, commit=sha, build_errors=None if sha else errors,
                   check=self.check_all, clean=self.check_all or again)

    def _want(self, keys: Sequence[_Key], keep_finished: bool = True,
              keep_again: bool = False) -> None:
        """Start the first of ``keys`` not started yet on free workers; keep the other
        speculative runs (a search may still ask for them) until a listed one needs
        their worker (:meth:`_top_up`). With ``keep_finished`` off (the search
        ended), cancel every run not listed."""
        if self.executor.workers < 2 and not self._pending:
            return
        if not keep_finished:
            listed = set(keys)
            for key in [k for k in self._pending if k not in listed]:
                self._drop(key, self._pending.pop(key))
        self._listed = list(keys)
        self._keep_again = keep_again
        self._top_up()

    def _maybe_answer(self, ids: frozenset[int], listed: set[_Key]) -> bool:
        """Whether a second run of ``ids`` may still serve the verification: its first
        run is wanted, still pending, or FAILED when the search asked for it."""
        key = ("", ids)
        earlier = self._ran.get(ids)
        return (key in listed or key in self._pending
                or (earlier is not None and earlier.outcome is Outcome.FAIL))

    def _labels_answer(self, ids: frozenset[int]) -> bool:
        """Whether ``ids`` is a likely answer (one run a second time) without one of its
        changes, the answer's run having FAILED: labelling asks it first, soon."""
        for sha, answer in list(self._pending):
            if sha == AGAIN and len(answer) == len(ids) + 1 and ids < answer:
                earlier = self._ran.get(answer)
                if (earlier.outcome if earlier else self.peek(answer)) is Outcome.FAIL:
                    return True
        return False

    def _top_up(self) -> None:
        """Start the first listed configurations not started yet, while workers are free.

        A worker busy with a run no longer listed is freed for a listed one (the
        latest such run is cancelled first); one that may serve the verification
        (a second run of a likely answer) is kept, and so are the runs of that
        answer without one of its changes (labelling's first questions) once it
        has FAILED.
        """
        awaited_key, awaited = self._awaited or (None, None)
        listed = set(self._listed)
        for key in self._listed:
            if key in self._pending or key == awaited_key or self._known(key):
                continue
            busy = sum(1 for handle, _ in self._pending.values() if not handle.done())
            busy += awaited is not None and not awaited.done()
            if busy >= self.executor.workers and not self._free(listed):
                break
            self._speculated += 1
            job = self._job(key, f"spec-{self._speculated:04d}.out")
            self._pending[key] = (self.executor.submit(job, len(self._pending) + 1,
                                                       speculative=True), job)

    def _free(self, listed: set[_Key]) -> bool:
        """Cancel the latest running speculative run not in ``listed``; False if none."""
        for key in reversed([k for k, (handle, _) in self._pending.items()
                             if k not in listed and not handle.done()]):
            if key[0] == AGAIN and (self._keep_again or self._maybe_answer(key[1], listed)):
                continue
            if not key[0] and self._labels_answer(key[1]):
                continue
            self._drop(key, self._pending.pop(key))
            return True
        return False

    def _drop(self, key: _Key, pending: tuple[Handle, Job]) -> None:
        """Cancel a speculative run nobody asked for; log what became of it."""
        handle = pending[0]
        finished = handle.done()
        handle.cancel()
        sha, ids = key
        entry: dict[str, object] = {"phase": "speculative", "source": "cancelled",
                                    "commit": "" if sha == AGAIN else sha,
                                    "changes": self.log.ids(ids), "again": sha == AGAIN}
        if finished:
            with contextlib.suppress(Exception):  # cancelled, or broke: not evidence
                execution = handle.result()
                entry.update(source="unused", outcome=execution.outcome.value,
                             output=execution.output, **_when(execution))
                if execution.changed:  # what its checks found holds for other runs too
                    self._changed_files(execution)
        elif started := getattr(handle, "started", 0.0):  # a worker took it: it ran till now
            entry.update(started=round(started, 3), ended=round(time.time(), 3))
        self.log.record(**entry)

    def _execute(self, key: _Key, number: int, phase: str) -> Execution:
        """Run ``key``'s job, adopting a speculative run of it if there is one.

        While it runs, workers that finish a speculative run start the next
        configurations of the last list given to :meth:`speculate`.

        A speculative run started without build-error patterns (before the premise
        said a build error is not the failure sought) is adopted and classified
        here, from its output file, as the executor would have; one started under
        other patterns is not adopted.
        """
        output = self.log.output_path(number).name
        asked, pending = key, self._pending.pop(key, None)
        if key[0] == AGAIN:  # a run not used as evidence yet will do as well
            key = ("", key[1])
            pending = pending or self._pending.pop(key, None)
        wanted = self._job(asked, pending[1].output.name if pending else output)
        if pending is not None and pending[1] != wanted and (
                pending[1].build_errors is not None
                or dataclasses.replace(pending[1], build_errors=wanted.build_errors) != wanted):
            self._drop(key, pending)
            pending = None
        handle = pending[0] if pending else self.executor.submit(wanted)
        handle.prioritise()  # the search waits for it now
        late = pending is not None and pending[1].build_errors is None
        self.progress(TestStarted(number, phase, len(key[1]), key[0]))
        for attempt in range(LOST_RETRIES + 1):
            try:
                execution = self._wait(asked, handle)
                if pending is not None and (
                        execution.reason == Reason.TIMED_OUT.value
                        or not execution.started_clean and (asked[0] == AGAIN
                                                            or self.check_all)):
                    # begun as a guess, at a lower CPU priority and beside other
                    # runs: its timeout is no evidence that one run alone times
                    # out; and a verification, or any run once commands were
                    # seen changing files, starts where nothing was changed
                    pending, late = None, False
                    wanted = dataclasses.replace(self._job(asked, output), clean=True)
                    execution = self._wait(asked, self.executor.submit(wanted))
                break
            except Cancelled:
                # Not cancelled here (the run being awaited never is): the executor
                # lost it, e.g. a dask task forgotten with the worker that held its
                # result. A lost run is run again, never an outcome.
                if attempt == LOST_RETRIES:
                    raise
                time.sleep(LOST_BACKOFF * 2 ** attempt)  # e.g. a client reconnecting
                wanted, late = self._job(asked, output), False
                handle = self.executor.submit(wanted)
        if execution.changed:
            self._changed_files(execution)
        return did_not_build(execution, wanted.build_errors if late else None)

    def _changed_files(self, execution: Execution) -> None:
        """Commands changed tracked files (put back since): say so once, and check
        every run from now on; runs that started among such changes mislead."""
        paths = execution.changed
        if not self.check_all:
            shown = ", ".join(paths[:3]) + (", ..." if len(paths) > 3 else "")
            self.progress(f"the test changed files git tracks or needs in its checkout ({shown}): "
                          "they are put back before the next test, and every test is "
                          "checked for it from now on")
        self.check_all = True
        if execution.misled and not self.misled:
            self.misled = paths

    def _wait(self, key: _Key, handle: Handle) -> Execution:
        """The execution of ``handle``; speculation goes on meanwhile."""
        self._awaited = (key, handle)  # not started again, and it holds a worker
        finished = -1
        try:
            while self._listed and not handle.done():  # workers that finish meanwhile go on
                done = sum(1 for h, _ in self._pending.values() if h.done())
                if done != finished and self.replan is not None:
                    finished = done  # a guess was answered: plan again with it
                    self.replan()
                self._top_up()
                time.sleep(TOP_UP_SECONDS)
            return handle.result()
        finally:
            self._awaited = None

    def _add(self, record: TestRecord, execution: Execution | None = None) -> TestRecord:
        self.records.append(record)
        if record.ran:
            self._runs[None] = self._runs.get(None, 0) + 1
            self._runs[record.phase] = self._runs.get(record.phase, 0) + 1
        if record.source in (RAN, CACHED) and not record.commit:
            self._ran.setdefault(record.ids, record)
        # Predicted answers are cheap and can be many: log their size, not their ids
        # (but those predicted alike a run: one for each run at most).
        ids = (record.size if record.count is not None
               else self.log.ids(record.ids, record.number))
        extra = _when(execution) if execution is not None else {}
        self.log.record(number=record.number, phase=record.phase, source=record.source,
                        outcome=record.outcome.value, reason=record.reason,
                        duration=round(record.duration, 3), output=record.output,
                        changes=ids, commit=record.commit, earlier_run=record.earlier_run,
                        **extra)
        self.progress(record)
        return record


def _when(execution: Execution) -> dict[str, object]:
    """Which worker ran it (with several), and when (seconds since the epoch): for
    timelines; and the tracked files its commands changed, if any (put back)."""
    when: dict[str, object] = {"worker": execution.worker} if execution.worker else {}
    if execution.started:
        when.update(started=round(execution.started, 3), ended=round(execution.ended, 3))
    if execution.changed:
        when["changed_files"] = list(execution.changed[:100])
    return when
