"""Run jobs on a dask.distributed cluster (optional extra: ``pip install 'wynot[dask]'``).

Each dask worker keeps, for one wynot run, its own clone of the repository
and one scratch worktree per worker thread, materialised incrementally as on
this machine. The clone comes from a ``git bundle`` of the repository that
wynot ships to every worker, or from ``source``, a path or URL every worker
reaches. A job sends the configuration's change ids (the diff itself is sent
once per phase) or a commit; the worker runs the commands and sends back the
outcome and the tail of the output, which wynot writes into its run log.

Dask cannot interrupt a running task, so cancellation is wynot's own: every
job has a dask ``Event`` that its task polls while the test runs, and when it
is set the task kills the test's process group. A worker lost mid-test loses
the test, and the scheduler runs the task again on another worker: the lost
run never gives an outcome.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field, replace
from pathlib import Path

from distributed import Client, Event, Future, get_worker

from wynot.changes import Diff
from wynot.executor import Cancelled, Execution, Job, execute
from wynot.git import git
from wynot.patch import TreeBuilder, tree_states
from wynot.runner import Commands
from wynot.scratch import scratch_worktree
from wynot.state import owned_prefix
from wynot.worktree import ScratchWorktree

TAIL_BYTES = 64 * 1024  # of each run's output, sent back to wynot
POLL_SECONDS = 0.5  # how often a running task asks whether it was cancelled


@dataclass
class DaskHandle:
    """A job submitted to the cluster."""

    job: Job
    future: Future[tuple[Execution, bytes]]
    event: Event

    def result(self) -> Execution:
        if self.future.cancelled():
            raise Cancelled(self.job.describe())
        execution, tail = self.future.result()
        self.job.output.parent.mkdir(parents=True, exist_ok=True)
        self.job.output.write_bytes(tail)
        done: Execution = replace(execution, output=str(self.job.output))
        return done

    def cancel(self) -> None:
        with contextlib.suppress(Exception):
            self.event.set()
        self.future.cancel()

    def done(self) -> bool:
        return bool(self.future.done())

    def prioritise(self) -> None:
        """Nothing to do: a dask worker runs its tests at its own priority."""


class DaskExecutor:
    """Jobs run as dask tasks (``pure=False``) on the workers of ``scheduler``.

    ``workers`` (how many tests run at a time) is ``jobs`` when given above
    1, else the number of worker threads the cluster has when wynot connects.
    """

    def __init__(self, repo: Path, commands: Commands, scheduler: str | None, *,
                 jobs: int = 1, source: str | None = None, timeout: float = 30) -> None:
        self.repo = repo
        self.commands = commands
        self.client = Client(scheduler, timeout=timeout, set_as_default=False)
        threads = sum(w.get("nthreads", 1)
                      for w in self.client.scheduler_info()["workers"].values())
        self.workers = jobs if jobs > 1 else max(1, threads)
        self.session = uuid.uuid4().hex
        self._temp = Path(tempfile.mkdtemp(prefix="wynot-dask-"))
        self._bundle: Path | None = None  # set when the bundle is shipped
        self._source: object = source if source is not None else self._ship_bundle()
        self._good = ""
        self._diff_value = Diff(good="", bad="", files=(), changes=())
        self._diff: object = self._diff_value
        self._token = ""
        self._handles: list[DaskHandle] = []

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _ship_bundle(self) -> object:
        bundle = self._temp / "repo.bundle"
        git(self.repo, "bundle", "create", "--quiet", str(bundle), "--all")
        self._bundle = bundle
        return self.client.scatter(bundle.read_bytes(), broadcast=True)

    def begin(self, good: str, diff: Diff) -> None:
        self._good = good
        self._diff_value = diff
        self._diff = self.client.scatter(diff, broadcast=True)
        self._token = uuid.uuid4().hex

    def _inputs(self) -> tuple[object, object]:
        """The bundle and the diff as the tasks take them, scattered again when the
        cluster dropped them: a client that reconnects to its scheduler finds
        every future of its own cancelled, these too, and a task that needs a
        cancelled one is cancelled at once (each retry of a lost run with it)."""
        # Under new keys (hash=False): the data's own would name the dropped ones,
        # which the scheduler may still be forgetting.
        if self._bundle is not None and _dropped(self._source):
            self._source = self.client.scatter(self._bundle.read_bytes(), broadcast=True,
                                               hash=False)
        if _dropped(self._diff):
            self._diff = self.client.scatter(self._diff_value, broadcast=True, hash=False)
        return self._source, self._diff

    def warm_up(self) -> None:
        """Nothing to prepare here: the workers set themselves up."""

    warm_up_ahead = start_warm_up = warm_up

    def submit(self, job: Job, priority: int = 0, speculative: bool = False) -> DaskHandle:
        name = f"wynot-cancel-{self.session}-{uuid.uuid4().hex}"
        event = Event(name, client=self.client)
        remote = replace(job, output=Path(job.output.name))  # the worker picks the folder
        source, diff = self._inputs()
        future = self.client.submit(
            run_task, self.session, source, self._good, self._token, diff,
            self.commands, remote, name, pure=False, priority=-priority,
            key=f"wynot-{job.output.stem}-{uuid.uuid4().hex[:8]}")
        handle = DaskHandle(job, future, event)
        self._handles.append(handle)
        return handle

    def close(self) -> None:
        for handle in self._handles:
            if not handle.done():
                handle.cancel()
        with contextlib.suppress(Exception):
            self.client.run(cleanup_session, self.session)
        with contextlib.suppress(Exception):
            self.client.close()
        shutil.rmtree(self._temp, ignore_errors=True)


def _dropped(value: object) -> bool:
    """Whether ``value`` is a future the cluster no longer holds."""
    return isinstance(value, Future) and value.status in ("cancelled", "lost", "error")


# -- on the workers ---------------------------------------------------------------------


@dataclass
class _Session:
    """One wynot run on one dask worker: a clone and a worktree per thread."""

    root: Path
    clone: Path
    stack: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)
    # by thread: its worktree, the run token it was prepared for, its own TreeBuilder
    worktrees: dict[int, tuple[ScratchWorktree, str, TreeBuilder]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


_SESSIONS: dict[str, _Session] = {}
_SESSIONS_LOCK = threading.Lock()


def run_task(session: str, source: object, good: str, token: str, diff: Diff,
             commands: Commands, job: Job, event_name: str) -> tuple[Execution, bytes]:
    """The dask task: materialise, build, test, classify; (execution, output tail)."""
    state = _session(session, source)
    worktree, trees = _worktree(state, good, token, diff)
    output = state.root / "out" / job.output.name
    event = Event(event_name)
    last = [0.0, False]

    def cancelled() -> bool:
        now = time.monotonic()
        if not last[1] and now - last[0] >= POLL_SECONDS:
            last[0] = now
            with contextlib.suppress(Exception):
                last[1] = bool(event.is_set())
        return bool(last[1])

    worker = get_worker().address
    execution = execute(worktree, diff, commands, replace(job, output=output), cancelled,
                        worker, trees)
    data = output.read_bytes() if output.exists() else b""
    output.unlink(missing_ok=True)
    return execution, data[-TAIL_BYTES:]


def _session(session: str, source: object) -> _Session:
    with _SESSIONS_LOCK:
        state = _SESSIONS.get(session)
        if state is not None:
            return state
        # named after this worker process: if it is killed, the next wynot run on
        # this machine removes the clone and its worktrees (state.reclaim_tempdirs)
        root = Path(tempfile.mkdtemp(prefix=owned_prefix("worker")))
        clone = root / "repo"
        origin = str(source)
        if isinstance(source, bytes):
            bundle = root / "repo.bundle"
            bundle.write_bytes(source)
            origin = str(bundle)
        git(root, "clone", "--quiet", "--no-checkout", origin, str(clone))
        state = _Session(root, clone)
        _SESSIONS[session] = state
        return state


def _worktree(state: _Session, good: str, token: str,
              diff: Diff) -> tuple[ScratchWorktree, TreeBuilder]:
    """This thread's worktree, at ``good`` with the diff's paths in their GOOD states,
    and the builder that knows what was last written there (one per worktree)."""
    thread = threading.get_ident()
    base = tree_states(diff, frozenset()) if diff.changes else {}
    with state.lock:
        known = state.worktrees.get(thread)
        if known is None:
            worktree = state.stack.enter_context(
                scratch_worktree(state.clone, good, base, within=state.root))
            trees = TreeBuilder(diff)
            state.worktrees[thread] = (worktree, token, trees)
            return worktree, trees
    worktree, current, trees = known
    if current != token:
        worktree = worktree.switch(good, base)  # writes through a new checkout converter
        trees = TreeBuilder(diff)
        with state.lock:
            state.worktrees[thread] = (worktree, token, trees)
    return worktree, trees


def cleanup_session(session: str) -> None:
    """Remove a run's clone and worktrees from this worker (``client.run``)."""
    with _SESSIONS_LOCK:
        state = _SESSIONS.pop(session, None)
    if state is not None:
        state.stack.close()
        shutil.rmtree(state.root, ignore_errors=True)
