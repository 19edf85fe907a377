"""The local executor: a pool of scratch worktrees of this machine, one thread each.

:class:`LocalPool` implements :class:`~wynot.executor.Executor` with N
scratch worktrees (``-j N``); a pool of one runs each job in the thread
that waits for it. :func:`open_executor` opens the executor a run asks for
(this pool, or the dask one). See :mod:`wynot.executor` for the seam.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from wynot.changes import Diff, FileState
from wynot.executor import Cancelled, Execution, Executor, Job, Started, execute
from wynot.patch import TreeBuilder, tree_states
from wynot.process import kill_leftovers
from wynot.result import Progress
from wynot.runner import Commands
from wynot.scratch import BegunWorktree, begin_worktree, kept_worktree, scratch_worktree
from wynot.teardown import Removal, signals_deferred, wait_all
from wynot.worktree import ScratchWorktree

RESULT_POLL_SECONDS = 0.1
# How much lower than wynot's the CPU priority of a speculative run is, until
# the search asks for it: where tests outnumber the cores, the runs the
# search waits for get the CPU first (CFS gives a nice-10 process about a
# tenth of a core beside a busy one of nice 0).
SPECULATIVE_NICE = 10
# Inside :func:`removal_after`: where closing pools leave their worktrees' removal.
_LATER: ContextVar[list[Removal] | None] = ContextVar("later", default=None)


@dataclass(eq=False)
class LocalHandle:
    """A job queued on or running in a :class:`LocalPool`."""

    job: Job
    _cancel: threading.Event = field(default_factory=threading.Event)
    _done: threading.Event = field(default_factory=threading.Event)
    _execution: Execution | None = None
    _error: BaseException | None = None
    # A pool of one runs its jobs here, in the thread that asks for the result.
    _inline: Callable[[LocalHandle], None] | None = None
    rank: tuple[int, int] = (0, 0)  # (priority, submission): the queue's order
    started: float = 0.0  # when a worker took it (time.time()), for the run log
    speculative: bool = False  # nobody waits for it yet: a lower CPU priority

    def result(self) -> Execution:
        if self._inline is not None and not self._done.is_set():
            run, self._inline = self._inline, None
            run(self)  # an interrupt raised inside propagates from here
        # Wait in slices: a signal (Ctrl-C, SIGTERM) that the kernel delivers to a
        # worker thread does not interrupt a blocking wait in the main thread, whose
        # handler then runs only when the wait wakes up.
        while not self._done.wait(RESULT_POLL_SECONDS):
            pass
        if self._error is not None:
            raise self._error
        assert self._execution is not None
        return self._execution

    def cancel(self) -> None:
        self._cancel.set()

    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def prioritise(self) -> None:
        self.speculative = False

    def niceness(self) -> int:
        """How much lower than wynot's its commands' CPU priority is to be."""
        return SPECULATIVE_NICE if self.speculative else 0

    def done(self) -> bool:
        return self._done.is_set()

    def finish(self, execution: Execution | None, error: BaseException | None) -> None:
        self._execution, self._error = execution, error
        self._done.set()


class LocalPool:
    """N scratch worktrees of ``repo``, each run by its own thread.

    A worktree is created the first time its thread takes a job, and then
    materialised incrementally from one configuration to the next. With
    ``warm`` (a commit), a thread of its own starts making the worktrees at
    once, one at a time (while the caller analyses the diff), and the
    workers take them as they start their first jobs, the job first in the
    queue's order first (the premise's GOOD and BAD before the guesses). After
    :meth:`begin` (the hunk phase after the commit phase) each worktree checks
    out the new GOOD; build outputs, untracked, survive the switch. Use it as
    a context manager: leaving it cancels what runs and removes the worktrees.

    A pool of one worker has no thread: a job runs in the thread that calls
    its handle's ``result()`` (the main thread, where signals are handled),
    exactly as wynot ran tests before it had workers. With several, the
    worker threads only run jobs; an interrupt is raised in the main thread
    while it waits (in slices, so that handlers run), and :meth:`close`
    cancels every run (its process group killed) and removes the worktrees
    with interrupts held off.
    """

    def __init__(self, repo: Path, commands: Commands, workers: int = 1, *,
                 started: Started | None = None, warm: str | None = None,
                 keep: bool = False) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.repo = repo
        self.commands = commands
        self.workers = workers
        self._started = started
        self._keep = keep  # worktrees kept in the state directory between runs
        self._good = ""
        self._diff = Diff(good="", bad="", files=(), changes=())
        self._generation = 0
        self._queue: list[tuple[int, int, LocalHandle]] = []
        self._order = itertools.count()
        self._lock = threading.Condition()
        self._closing = False
        self._held: list[AbstractContextManager[object]] = []  # the worktrees made, to leave
        self._held_lock = threading.Lock()
        self._running: set[LocalHandle] = set()
        # by worker: its worktree, the generation it was prepared for, its own TreeBuilder
        self._worktrees: dict[str, tuple[ScratchWorktree, int, TreeBuilder]] = {}
        self._inline = workers == 1
        self._threads = [threading.Thread(target=self._work, args=(i + 1,), daemon=True,
                                          name=f"wynot-worker-{i + 1}")
                         for i in range(0 if self._inline else workers)]
        # made ahead (``warm``): worktrees not taken yet, how many are still to come,
        # and the ranks of the jobs whose workers wait for one
        self._made: list[ScratchWorktree] = []
        self._making = 0 if self._inline or warm is None else workers
        self._warm = warm if self._inline else None  # made by warm_up, in the caller's thread
        self._begun: tuple[str, BegunWorktree] | None = None  # start_warm_up's, of that commit
        self._waiting: list[tuple[int, int]] = []
        if self._making:
            self._threads.append(threading.Thread(target=self._make_ahead, args=(warm,),
                                                  daemon=True, name="wynot-worktrees"))
        for thread in self._threads:
            thread.start()

    def __enter__(self) -> LocalPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def begin(self, good: str, diff: Diff) -> None:
        with self._lock:
            self._good, self._diff = good, diff
            self._generation += 1

    def warm_up(self) -> None:
        """A pool of one makes its worktree of ``warm`` now, in this thread (it has no
        thread of its own to make it ahead); the first job takes it."""
        with self._lock:
            commit = self._begun[0] if self._begun else self._to_warm()
        if commit is None:
            return
        made = self._create(commit, {})
        with self._lock:
            self._made.append(made)

    def start_warm_up(self) -> None:
        """A pool of one starts making its worktree of ``warm`` now, its ``git
        worktree add`` a process of its own (no thread: the caller may fork
        meanwhile); :meth:`warm_up` or the first job finishes it. Not for
        worktrees kept between runs (``keep``), which git checks out again."""
        with self._held_lock, self._lock:
            commit = self._to_warm()
            if commit is None or self._keep or self._closing:
                return
            self._begun = (commit, begin_worktree(self.repo, commit))

    def warm_up_ahead(self) -> None:
        """A pool of one makes its worktree of ``warm`` in a thread of its own, as a
        larger pool makes its worktrees ahead; the first job waits for it, and
        closing the pool waits for it too (then removes it)."""
        with self._lock:
            commit = self._to_warm()
            if commit is None or self._closing:
                return
            self._making = 1
            thread = threading.Thread(target=self._make_ahead, args=(commit,),
                                      daemon=True, name="wynot-worktrees")
            self._threads.append(thread)
        thread.start()

    def _to_warm(self) -> str | None:
        """The commit a warm-up makes a worktree of; None when there is none, or a
        worktree is made, being made or in use already. Under ``_lock``."""
        if self._made or self._worktrees or self._making or self._begun:
            return None
        return self._warm

    def submit(self, job: Job, priority: int = 0, speculative: bool = False) -> LocalHandle:
        handle = LocalHandle(job, speculative=speculative)
        with self._lock:
            if self._closing:
                raise RuntimeError("the pool is closed")
            if self._inline:
                handle._inline = self._run_inline
                return handle
            handle.rank = (priority, next(self._order))
            heapq.heappush(self._queue, (*handle.rank, handle))
            self._lock.notify()
        return handle

    def close(self) -> None:
        """Cancel what is queued or running, wait for the workers, remove the worktrees,
        all at once (a :class:`~wynot.teardown.Removal`; inside :func:`removal_after`,
        it is under way while the block goes on, and waited for at its end).

        Interrupts are held off meanwhile (they are delivered afterwards): a second
        Ctrl-C must not leave a worktree behind. One that a worker thread receives
        still raises in this thread; it is raised again once all is cleaned up.
        """
        interrupted: BaseException | None = None
        with signals_deferred():
            with self._lock:
                self._closing = True
                for _, _, handle in self._queue:
                    handle.cancel()
                    handle.finish(None, Cancelled(handle.job.describe()))
                self._queue.clear()
                for handle in self._running:
                    handle.cancel()
                self._lock.notify_all()
            for thread in self._threads:
                while thread.is_alive():
                    try:
                        thread.join()
                    except KeyboardInterrupt as error:  # the workers first, then leave
                        interrupted = error
            if self._begun is not None:  # begun, never taken
                self._held.append(self._begun[1])
                self._begun = None
            removal = Removal(self._held)  # under way from now on, all at once
            self._held = []
            later = _LATER.get()
            if later is None or interrupted is not None:
                removal.wait()
            else:
                later.append(removal)
            kill_leftovers()  # daemons the tests started live no longer than the run
        if interrupted is not None:
            raise interrupted

    def _run_inline(self, handle: LocalHandle) -> None:
        """Run ``handle``'s job in this thread (a pool of one)."""
        if handle.cancelled():
            handle.finish(None, Cancelled(handle.job.describe()))
            return
        try:
            if self._started is not None:
                self._started("w1", handle.job)
            execution = self._run("", handle)
        except BaseException as error:
            handle.finish(None, error)
            raise
        handle.finish(execution, None)

    def _next(self) -> LocalHandle | None:
        with self._lock:
            while True:
                while self._queue and self._queue[0][2].cancelled():
                    _, _, dropped = heapq.heappop(self._queue)
                    dropped.finish(None, Cancelled(dropped.job.describe()))
                if self._closing:
                    return None
                if self._queue:
                    handle = heapq.heappop(self._queue)[2]
                    handle.started = time.time()
                    self._running.add(handle)
                    return handle
                self._lock.wait()

    def _work(self, number: int) -> None:
        name = f"w{number}"
        while (handle := self._next()) is not None:
            try:
                if self._started is not None:
                    self._started(name, handle.job)
                handle.finish(self._run(name, handle), None)
            except BaseException as error:  # noqa: BLE001 - handed to the waiting thread
                handle.finish(None, error)
            finally:
                with self._lock:
                    self._running.discard(handle)

    def _run(self, name: str, handle: LocalHandle) -> Execution:
        """Run one job in worker ``name``'s worktree (created or switched first)."""
        with self._lock:
            good, diff, current = self._good, self._diff, self._generation
        worktree, generation, trees = self._worktrees.get(name, (None, -1, None))
        if worktree is None or trees is None or generation != current:
            worktree = self._prepare(worktree, good, diff, handle.rank)
            trees = TreeBuilder(diff)  # a fresh worktree of GOOD, or one just checked out
            self._worktrees[name] = (worktree, current, trees)
        return execute(worktree, diff, self.commands, handle.job, handle.cancelled, name, trees,
                       handle.niceness)

    def _prepare(self, worktree: ScratchWorktree | None, good: str, diff: Diff,
                 rank: tuple[int, int] = (0, 0)) -> ScratchWorktree:
        """A worktree of ``good`` whose diff paths are known to hold their GOOD states
        (one made ahead if any comes, for the job of ``rank``)."""
        base = tree_states(diff, frozenset()) if diff.changes else {}
        commit = good or "HEAD"
        worktree = worktree or self._take(rank)
        if worktree is None:
            return self._create(commit, base)
        return worktree.switch(commit, base)  # writes through a new checkout converter

    def _create(self, commit: str, base: Mapping[str, FileState | None]) -> ScratchWorktree:
        """A new worktree of ``commit``, removed when the pool closes."""
        # One at a time: a `git worktree add` can read another's half-written
        # administrative files ("failed to read .git/worktrees/worktree6/commondir"),
        # and the reclaiming of dead runs' worktrees prunes.
        with self._held_lock:
            begun = None
            if self._begun is not None and self._begun[0] == commit:
                begun, self._begun = self._begun[1], None
            created = (kept_worktree(self.repo, commit, base) if self._keep else
                       scratch_worktree(self.repo, commit, base, begun=begun))
            fresh = created.__enter__()
            self._held.append(created)
        return fresh

    def _make_ahead(self, commit: str) -> None:
        """Make a worktree of ``commit`` for each worker, one at a time (``warm``)."""
        try:
            while True:
                with self._lock:
                    if self._closing or not self._making:
                        return
                made = self._create(commit, {})
                with self._lock:
                    self._made.append(made)
                    self._making -= 1
                    self._lock.notify_all()
        finally:  # closing, done or broken: workers that wait make their own
            with self._lock:
                self._making = 0
                self._lock.notify_all()

    def _take(self, rank: tuple[int, int]) -> ScratchWorktree | None:
        """A worktree made ahead, once no job ranked before ``rank`` waits for one;
        None when no more come."""
        with self._lock:
            self._waiting.append(rank)
            try:
                while not (self._made and min(self._waiting) == rank):
                    if not self._making and not self._made:
                        return None
                    self._lock.wait()
                return self._made.pop(0)
            finally:
                self._waiting.remove(rank)
                self._lock.notify_all()


@contextlib.contextmanager
def removal_after() -> Iterator[None]:
    """Leave the removal of worktrees to the end of this block.

    A :class:`LocalPool` closed inside the block cancels its runs and waits for
    its workers as always, and starts removing its worktrees, all at once, but
    does not wait for that: what follows (writing the report) goes on
    meanwhile. The block's end waits until they are removed, however it ends,
    an exception or an interrupt included, with interrupts held off meanwhile
    (delivered afterwards).
    """
    later: list[Removal] = []
    token = _LATER.set(later)
    try:
        yield
    finally:
        with signals_deferred():
            _LATER.reset(token)
            wait_all(later)


@contextlib.contextmanager
def open_executor(kind: str, repo: Path, commands: Commands, jobs: int,
                  scheduler: str | None, progress: Progress,
                  warm: str | None = None, keep: bool = False) -> Iterator[Executor]:
    """The executor a run asked for, closed (runs cancelled, workers released) on exit.

    ``kind`` is "local" (a :class:`LocalPool` of ``jobs`` worktrees, made ahead
    from the commit ``warm`` if given, kept between runs with ``keep``) or "dask"
    (the workers of the dask.distributed scheduler at ``scheduler``).
    """
    def started(worker: str, job: Job) -> None:
        progress(f"[{worker}] running {job.describe()}")

    show = started if jobs > 1 or kind != "local" else None
    if kind == "dask":
        from wynot.dask_executor import DaskExecutor  # optional extra: wynot[dask]

        with DaskExecutor(repo, commands, scheduler, jobs=jobs) as remote:
            yield remote
        return
    with LocalPool(repo, commands, jobs, started=show, warm=warm, keep=keep) as pool:
        yield pool
