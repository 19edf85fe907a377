"""Executors: run one configuration and give its outcome.

The seam between the decisions (:class:`~wynot.tester.Tester`: memo, cache,
records, prediction) and the execution of one configuration: materialise it
in a worktree, build, test, classify. A :class:`Job` names what to run (a set
of change ids of the executor's current :class:`~wynot.changes.Diff`, or a
whole commit); :meth:`Executor.submit` returns a :class:`Handle` whose
``result()`` waits for the :class:`Execution` and whose ``cancel()`` ends the
run (its process group is killed) and makes ``result()`` raise
:class:`Cancelled`.

:class:`wynot.pool.LocalPool` runs jobs on N scratch worktrees of this
machine, one thread each; ``wynot.dask_executor`` runs them on a
dask.distributed cluster; :func:`wynot.pool.open_executor` opens the one a run
asks for.
Executors never touch the cache or the run log: the decisions stay in the
calling thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from wynot.analysis.resolve import is_construction_failure
from wynot.changes import Diff, FileState
from wynot.checkout import CheckoutFailed
from wynot.outcome import Outcome
from wynot.patch import PathConflict, TreeBuilder
from wynot.result import read_output
from wynot.runner import Commands, Reason, run_configuration
from wynot.tracked import after_run, before_run
from wynot.worktree import ScratchWorktree, UnsafePath

DID_NOT_BUILD = "did not build"


class Cancelled(Exception):
    """The job was cancelled before it gave an outcome."""


@dataclass(frozen=True, slots=True)
class Job:
    """One configuration to run: change ids of the current diff, or a whole commit."""

    ids: frozenset[int]
    output: Path  # where the build and test output goes
    commit: str = ""  # set: check out this commit instead of applying ``ids``
    # When set, a FAIL whose output shows a build, link or import error is
    # UNRESOLVED ("did not build"): the failure we look for is a different one.
    build_errors: tuple[str, ...] | None = None
    # With ``commit``: written over the checkout (an answer carried onto GOOD).
    states: Mapping[str, FileState | None] | None = field(default=None, compare=False)
    # Whether the tracked files the commands change are looked for after the run
    # (and put back), whatever that costs; and whether the run must start in a
    # worktree known to be as wynot left it (wynot.tracked).
    check: bool = field(default=False, compare=False)
    clean: bool = field(default=False, compare=False)

    def describe(self) -> str:
        return f"commit {self.commit[:12]}" if self.commit else f"{len(self.ids)} changes"


@dataclass(frozen=True, slots=True)
class Execution:
    """What running a job gave."""

    outcome: Outcome
    reason: str
    duration: float
    output: str  # path of the output file
    conflict: bool = False  # not run: the configuration cannot be written
    worker: str = ""
    started: float = 0.0  # when the worker took it, and when it ended (time.time())
    ended: float = 0.0
    # The tracked files commands changed (this run's, put back after it, or
    # unchecked runs' before it in the same worktree, put back before it);
    # whether runs that gave an outcome had started among such changes
    # (wynot.tracked); whether this run started in a worktree known to be as
    # wynot left it.
    changed: tuple[str, ...] = ()
    misled: bool = False
    started_clean: bool = True


class Handle(Protocol):
    def result(self) -> Execution: ...
    def cancel(self) -> None: ...
    def done(self) -> bool: ...
    def prioritise(self) -> None:
        """Somebody now waits for this run: a speculative one goes on at full
        CPU priority where the system allows it."""


class Executor(Protocol):
    """Runs jobs; ``workers`` of them at a time."""

    workers: int

    def begin(self, good: str, diff: Diff) -> None:
        """Configurations of the next jobs are subsets of ``diff`` applied to ``good``."""

    def submit(self, job: Job, priority: int = 0, speculative: bool = False) -> Handle:
        """Start ``job`` when a worker is free; lower ``priority`` first, then FIFO.
        A ``speculative`` job (nobody waits for it yet) may run at a lower CPU
        priority until :meth:`Handle.prioritise`."""

    def warm_up(self) -> None:
        """Prepare, in the calling thread, what the first job needs (the caller has
        time to spare: it waits for other processes)."""

    def start_warm_up(self) -> None:
        """Start preparing what the first job needs in processes of their own, no
        thread (the caller may fork meanwhile); :meth:`warm_up` finishes it."""

    def warm_up_ahead(self) -> None:
        """Start preparing what the first job needs beside the caller, which has
        work of its own meanwhile (a rerun loading its stored analysis and
        answering its search from the cache); the first job waits for it."""

    def close(self) -> None:
        """Cancel what still runs and release the workers."""


Started = Callable[[str, Job], None]  # (worker name, job): a worker starts a job


def execute(worktree: ScratchWorktree, diff: Diff, commands: Commands, job: Job,
            cancelled: Callable[[], bool] | None = None, worker: str = "",
            trees: TreeBuilder | None = None,
            niceness: Callable[[], int] | None = None) -> Execution:
    """Materialise ``job`` in ``worktree``, build, test and classify. Raises Cancelled.
    ``niceness``: how much lower the commands' CPU priority is to be than
    wynot's, polled while they run.

    ``trees`` is the worktree's own builder (it remembers the configuration
    last written there, so only the files whose selection flips are written);
    it is reset after a failed write or a checkout. Without one, a fresh
    builder is used.
    """
    output, started = job.output, time.time()
    if trees is None:
        trees = TreeBuilder(diff)
    if job.commit:
        try:
            worktree.checkout(job.commit)
            if job.states is not None:
                worktree.apply(job.states)  # UnsafePath: the caller hears of it
        finally:
            trees.reset()  # the worktree now holds a whole commit
    else:
        try:
            states = trees.states(job.ids)  # PathConflict: nothing is written
            try:
                worktree.apply(states)
            except BaseException:
                trees.reset()  # the worktree may hold part of this configuration
                raise
        except (PathConflict, UnsafePath, CheckoutFailed) as conflict:
            output.parent.mkdir(parents=True, exist_ok=True)
            output.write_text(f"wynot: not run: {conflict}\n", encoding="utf-8")
            return Execution(Outcome.UNRESOLVED, Reason.CONFLICT.value, 0.0, str(output),
                             conflict=True, worker=worker, started=started, ended=time.time())
    before = before_run(worktree, job.clean)
    started_clean = worktree.clean
    result = run_configuration(worktree.root, commands, output, cancelled, niceness)
    # The commands may have removed the worktree's .git (rm -rf .git, git init):
    # put back at once, killed or not, since every git command there needs it.
    relinked = (".git",) if worktree.relink() else ()
    if cancelled is not None and cancelled():
        worktree.clean = False  # killed mid-way: checked before a run that asks
        raise Cancelled(job.describe())
    after = after_run(worktree, job.check, result.duration, result.reason is Reason.TIMED_OUT,
                      started_clean)
    execution = Execution(result.outcome, result.reason.value, result.duration, str(output),
                          worker=worker, started=started, ended=time.time(),
                          changed=relinked + (before.changed or after.changed),
                          misled=before.misled or after.misled, started_clean=started_clean)
    return did_not_build(execution, job.build_errors)


def did_not_build(execution: Execution, build_errors: Sequence[str] | None) -> Execution:
    """``execution`` as UNRESOLVED ("did not build") when ``build_errors`` is set and it
    FAILED with a build, link or import error in its output file; else unchanged."""
    if (build_errors is None or execution.outcome is not Outcome.FAIL
            or not is_construction_failure(read_output(Path(execution.output)), build_errors)):
        return execution
    return replace(execution, outcome=Outcome.UNRESOLVED,
                   reason=f"{DID_NOT_BUILD} ({execution.reason})")


def parse_jobs(value: str | int, cpus: Callable[[], int | None]) -> int:
    """``-j`` as given: a positive number, or ``auto`` for the number of CPUs."""
    if isinstance(value, int):
        jobs = value
    elif value.strip().lower() == "auto":
        jobs = cpus() or 1
    else:
        try:
            jobs = int(value)
        except ValueError:
            raise ValueError(f"{value!r} is not a number or 'auto'") from None
    if jobs < 1:
        raise ValueError(f"{jobs} is not a positive number")
    return jobs
