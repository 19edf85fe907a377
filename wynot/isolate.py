"""The main job: verify the premise, diff, search, verify the answer.

:func:`isolate` turns a :class:`Request` into a :class:`Result`. It does no
printing: progress goes to the ``progress`` callback as :class:`TestRecord`
values and short status strings.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from wynot.cache import CachedOutcome, OutcomeCache, RunLog, search_key, state_dir
from wynot.changes import Change, Diff, read_diff
from wynot.dd import Outcome, SearchStopped, dd_plus
from wynot.errors import CommandNotFoundError, PremiseError, UnfinishedError, WynotError
from wynot.export import export_patch
from wynot.git import find_repo, resolve_commit
from wynot.patch import PathConflict, check_reproduces, tree_states
from wynot.runner import Commands, Reason, output_tail, run_configuration
from wynot.worktree import ScratchWorktree, UnsafePath, scratch_worktree


@dataclass(frozen=True, slots=True)
class Request:
    """What the user asked for."""

    repo: Path
    good: str
    bad: str
    commands: Commands
    context: int = 3
    max_tests: int | None = None
    use_cache: bool = True


@dataclass(frozen=True, slots=True)
class TestRecord:
    """One test: which configuration, how it ended, and whether it really ran."""

    number: int
    phase: str  # "premise", "search" or "verify"
    ids: frozenset[int]
    outcome: Outcome
    reason: str
    duration: float
    output: str
    cached: bool


@dataclass(frozen=True, slots=True)
class Result:
    good: str
    bad: str
    good_name: str
    bad_name: str
    diff: Diff
    changes: tuple[Change, ...]
    minimal: bool
    tests: tuple[TestRecord, ...]
    elapsed: float
    patch: bytes
    run_dir: Path

    @property
    def verified(self) -> bool:
        return any(t.phase == "verify" and t.outcome is Outcome.FAIL for t in self.tests)


Progress = Callable[[TestRecord | str], None]


def isolate(request: Request, progress: Progress = lambda _: None) -> Result:
    """Find the failure-inducing changes between GOOD and BAD, verified on GOOD."""
    started = time.monotonic()
    info = find_repo(request.repo)
    good = resolve_commit(info.toplevel, request.good)
    bad = resolve_commit(info.toplevel, request.bad)
    if good == bad:
        raise PremiseError(f"GOOD and BAD are the same commit ({good[:12]}): nothing to compare")
    diff = read_diff(info.toplevel, good, bad, context=request.context)
    if not diff.changes:
        raise PremiseError(f"no differences between {request.good} and {request.bad}")
    check_reproduces(diff)
    progress(f"{len(diff.changes)} changes in {len(diff.files)} files between "
             f"{request.good} ({good[:12]}) and {request.bad} ({bad[:12]})")
    key = search_key(good=good, bad=bad, context=request.context, test=request.commands.test,
                     build=request.commands.build, timeout=request.commands.timeout,
                     fail_pattern=request.commands.fail_pattern)
    state = state_dir(info.git_dir)
    cache = OutcomeCache(state / "cache.sqlite")
    log = RunLog(state / "runs")
    try:
        with scratch_worktree(info.toplevel, good, tree_states(diff, frozenset())) as worktree:
            tester = _Tester(diff, worktree, request, cache if request.use_cache else None,
                             key, log, progress)
            chosen, minimal = _search(tester, request, diff)
            verdict = tester.run(chosen, "verify", use_cache=False)
            if verdict.outcome is not Outcome.FAIL:
                raise UnfinishedError(
                    f"the {len(chosen)} changes found did not fail when tested again on their "
                    f"own ({verdict.reason}); the test may be flaky. Output: {verdict.output}")
    finally:
        cache.close()
        log.close()
    patch = export_patch(info.toplevel, good, tree_states(diff, chosen))
    return Result(
        good=good, bad=bad, good_name=request.good, bad_name=request.bad, diff=diff,
        changes=tuple(c for c in diff.changes if c.id in chosen), minimal=minimal,
        tests=tuple(tester.records), elapsed=time.monotonic() - started, patch=patch,
        run_dir=log.dir,
    )


def _search(tester: _Tester, request: Request, diff: Diff) -> tuple[frozenset[int], bool]:
    """Check the premise, then run dd+. Returns (changes found, minimal)."""
    everything = frozenset(c.id for c in diff.changes)
    _check_premise(tester, frozenset(), "GOOD", request.good, Outcome.PASS)
    _check_premise(tester, everything, "BAD", request.bad, Outcome.FAIL)
    ids = [c.id for c in diff.changes]
    if len(ids) == 1:
        return everything, True
    budget = request.max_tests

    def stop() -> bool:
        return budget is not None and tester.real_runs("search") >= budget

    def oracle(config: frozenset[int]) -> Outcome:
        return tester.run(config, "search").outcome

    try:
        found = dd_plus(ids, oracle, stop=stop, standalone=True)
    except SearchStopped as stopped:
        tester.progress(f"budget of {budget} tests spent; best so far has "
                        f"{len(stopped.best)} changes")
        return frozenset(stopped.best), False
    if found == everything:
        raise UnfinishedError(
            "could not narrow the failure down: every smaller configuration was "
            "UNRESOLVED (does the test exit 125 or the build fail for most of them? "
            "see the run log)")
    return frozenset(found), True


def _check_premise(tester: _Tester, ids: frozenset[int], side: str, name: str,
                   expected: Outcome) -> None:
    record = tester.run(ids, "premise")
    if record.outcome is expected:
        return
    command = shlex.join(tester.request.commands.test)
    if tester.request.commands.build:
        command = shlex.join(tester.request.commands.build) + " && " + command
    if record.reason in (Reason.NOT_FOUND.value, Reason.NOT_EXECUTABLE.value):
        raise CommandNotFoundError(
            f"{record.reason}: {shlex.join(tester.request.commands.test[:1])} "
            f"(it runs in a checkout of {side}, with that checkout as working directory)",
            details=record.output)
    if record.outcome is Outcome.UNRESOLVED:
        what = f"{side} ({name}) cannot be tested: {record.reason}"
    elif expected is Outcome.PASS:
        what = f"GOOD ({name}) fails the test; it must pass"
    else:
        what = f"BAD ({name}) passes the test; it must fail"
    sha = tester.diff.good if side == "GOOD" else tester.diff.bad
    rerun = (f"git worktree add --detach /tmp/wynot-check {sha[:12]} && cd /tmp/wynot-check && "
             f"{command}   (then: git worktree remove --force /tmp/wynot-check)")
    tail = output_tail(Path(record.output))
    raise PremiseError(what, details=(
        f"command: {command}\noutput ({record.output}), last lines:\n{_indent(tail)}\n"
        f"rerun by hand: {rerun}"))


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines()) or "    (no output)"


@dataclass
class _Tester:
    """Runs configurations in the scratch worktree, through the cache, into the log."""

    diff: Diff
    worktree: ScratchWorktree
    request: Request
    cache: OutcomeCache | None
    key: str
    log: RunLog
    progress: Progress
    records: list[TestRecord] = field(default_factory=list)

    def real_runs(self, phase: str) -> int:
        return sum(1 for r in self.records if r.phase == phase and not r.cached)

    def run(self, ids: frozenset[int], phase: str, *, use_cache: bool = True) -> TestRecord:
        number = len(self.records) + 1
        cached = self.cache.get(self.key, ids) if self.cache and use_cache else None
        if cached is not None:
            record = TestRecord(number, phase, ids, cached.outcome, cached.reason,
                                cached.duration, cached.output, cached=True)
        else:
            record = self._execute(number, phase, ids)
            if self.cache is not None:
                self.cache.put(self.key, ids, CachedOutcome(
                    record.outcome, record.reason, record.duration, record.output))
        self.records.append(record)
        self.log.record(number=number, phase=phase, outcome=record.outcome.value,
                        reason=record.reason, duration=round(record.duration, 3),
                        cached=record.cached, output=record.output,
                        changes=[c.label for c in self.diff.changes if c.id in ids])
        self.progress(record)
        return record

    def _execute(self, number: int, phase: str, ids: frozenset[int]) -> TestRecord:
        output = self.log.output_path(number)
        try:
            self.worktree.apply(tree_states(self.diff, ids))
        except (PathConflict, UnsafePath) as conflict:
            output.write_text(f"wynot: not run: {conflict}\n", encoding="utf-8")
            return TestRecord(number, phase, ids, Outcome.UNRESOLVED, Reason.CONFLICT.value,
                              0.0, str(output), cached=False)
        result = run_configuration(self.worktree.root, self.request.commands, output)
        return TestRecord(number, phase, ids, result.outcome, result.reason.value,
                          result.duration, str(output), cached=False)


__all__ = ["Request", "Result", "TestRecord", "WynotError", "isolate"]
