"""Run configurations: through the cache, in the scratch worktree, into the run log.

:class:`Tester` is the one place a configuration (a set of change ids) becomes
an outcome. Every answer, run or not, is a :class:`TestRecord`: ``source``
says whether the test command really ran, came from the cache, was predicted
UNRESOLVED from known dependencies, or could not be written (path conflict).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from wynot.analysis.resolve import is_construction_failure
from wynot.cache import CachedOutcome, OutcomeCache, RunLog, command_files, search_key
from wynot.changes import Diff, FileState
from wynot.checkout import CheckoutFailed
from wynot.outcome import Outcome
from wynot.patch import PathConflict, TreeBuilder
from wynot.result import (
    CACHED,
    CONFLICT,
    PREDICTED,
    RAN,
    Progress,
    TestRecord,
    TestStarted,
    read_output,
)
from wynot.runner import Commands, Reason, run_configuration
from wynot.worktree import ScratchWorktree, UnsafePath

DID_NOT_BUILD = "did not build"


@dataclass
class Tester:
    diff: Diff
    worktree: ScratchWorktree
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
    _ran: dict[frozenset[int], TestRecord] = field(default_factory=dict, init=False, repr=False)
    _outside_files: dict[str, str] | None = field(default=None, init=False, repr=False)
    _runs: dict[str | None, int] = field(default_factory=dict, init=False, repr=False)
    # The worktree's configuration, written file by file (one builder per worktree).
    _trees: TreeBuilder | None = field(default=None, init=False, repr=False)

    def runs(self, phase: str | None = None) -> int:
        """How many times the test command really ran (in ``phase``, or at all); O(1)."""
        return self._runs.get(phase, 0)

    def has_run(self, ids: frozenset[int]) -> bool:
        """Whether this configuration already has an outcome from a run in this search."""
        return ids in self._ran

    def predict(self, ids: frozenset[int], phase: str, reason: str) -> TestRecord:
        """Answer UNRESOLVED without running anything."""
        # Predictions can be many and large: keep their size, not their ids.
        return self._add(TestRecord(len(self.records) + 1, phase, frozenset(),
                                    Outcome.UNRESOLVED, reason, 0.0, "", PREDICTED,
                                    count=len(ids)))

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
        record = self._execute(number, phase, ids, resolving)
        if self.cache is not None and record.source == RAN:
            self.cache.put(self.key, ids, CachedOutcome(
                record.outcome, record.reason, record.duration, record.output))
        return self._add(record)

    def run_commit(self, sha: str, phase: str, *, expect: Outcome | None = None) -> TestRecord:
        """Test a whole commit, checked out in the worktree (the commit phase); with
        ``replay_commits`` off, it runs even when the cache knows its outcome."""
        number = len(self.records) + 1
        key = self._commit_key(sha)
        cached = self._replay(key, (), expect) if self.replay_commits else None
        if cached is not None:
            return self._add(TestRecord(number, phase, frozenset(), cached.outcome,
                                        cached.reason, cached.duration, cached.output, CACHED,
                                        commit=sha, earlier_run=True))
        output = self.log.output_path(number)
        self.worktree.checkout(sha)
        self._trees = None  # the worktree now holds a whole commit
        self.progress(TestStarted(number, phase, 0, sha))
        result = run_configuration(self.worktree.root, self.commands, output)
        record = TestRecord(number, phase, frozenset(), result.outcome, result.reason.value,
                            result.duration, str(output), RAN, commit=sha)
        if self.cache is not None:
            self.cache.put(key, (), CachedOutcome(record.outcome, record.reason,
                                                  record.duration, record.output))
        return self._add(record)

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
            self._outside_files = command_files(self.worktree.repo, self.commands.test,
                                                self.commands.build)
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
        output = self.log.output_path(number)
        self.worktree.checkout(commit)
        self._trees = None  # the worktree now holds a whole commit, and more
        self.worktree.apply(states)
        self.progress(TestStarted(number, phase, len(ids), commit))
        result = run_configuration(self.worktree.root, self.commands, output)
        return self._add(TestRecord(number, phase, ids, result.outcome, result.reason.value,
                                    result.duration, str(output), RAN, commit=commit))

    def _add(self, record: TestRecord) -> TestRecord:
        self.records.append(record)
        if record.ran:
            self._runs[None] = self._runs.get(None, 0) + 1
            self._runs[record.phase] = self._runs.get(record.phase, 0) + 1
        if record.source in (RAN, CACHED) and not record.commit:
            self._ran.setdefault(record.ids, record)
        # Predicted answers are cheap and can be many: log their size, not their ids.
        ids: object = record.size if record.source == PREDICTED else sorted(record.ids)
        self.log.record(number=record.number, phase=record.phase, source=record.source,
                        outcome=record.outcome.value, reason=record.reason,
                        duration=round(record.duration, 3), output=record.output,
                        changes=ids, commit=record.commit, earlier_run=record.earlier_run)
        self.progress(record)
        return record

    def _execute(self, number: int, phase: str, ids: frozenset[int],
                 resolving: frozenset[int] | None) -> TestRecord:
        output = self.log.output_path(number)
        if self._trees is None:
            self._trees = TreeBuilder(self.diff)
        try:
            states = self._trees.states(ids)  # PathConflict: nothing is written
            try:
                self.worktree.apply(states)
            except BaseException:
                self._trees.reset()  # the worktree may hold part of this configuration
                raise
        except (PathConflict, UnsafePath, CheckoutFailed) as conflict:
            output.write_text(f"wynot: not run: {conflict}\n", encoding="utf-8")
            return TestRecord(number, phase, ids, Outcome.UNRESOLVED, Reason.CONFLICT.value,
                              0.0, str(output), CONFLICT, resolving)
        self.progress(TestStarted(number, phase, len(ids)))
        result = run_configuration(self.worktree.root, self.commands, output)
        outcome, reason = result.outcome, result.reason.value
        if (self.build_errors is not None and outcome is Outcome.FAIL
                and is_construction_failure(read_output(output), self.build_errors)):
            outcome, reason = Outcome.UNRESOLVED, f"{DID_NOT_BUILD} ({reason})"
        return TestRecord(number, phase, ids, outcome, reason, result.duration, str(output),
                          RAN, resolving)
