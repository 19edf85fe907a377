"""The analysis of GOOD..BAD before the first test: diff, symbols, dependencies, plan.

:func:`analyse` reads the diff and computes only what the chosen options use
(flat mode, ``--group none --no-predict --no-resolve``, needs no symbols), and
reports progress while it works. It keeps Python's cyclic garbage collector
away from the large structures that live until the end of the run: the
collector is paused while the analysis runs (it makes next to no cycles), the
diff is frozen (``gc.freeze``) as soon as it is read, each share the forked
readers send as it arrives, the rest once it is built, so that collections do
not walk them again and again.

:class:`wynot.analysis_store.AnalysisStore` keeps it in the state directory
for a rerun to reuse.
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from wynot.analysis.depends import Dependencies
from wynot.analysis.grouping import Plan, make_plan
from wynot.analysis.model import FileReadings, read_files, side_words
from wynot.analysis.model import analyse as analyse_diff
from wynot.analysis.symbols import Symbols
from wynot.changes import Diff, FileDiff
from wynot.diffread import read_diff
from wynot.patch import check_reproduces
from wynot.result import plural

QUIET_FOR = 1.0  # an analysis shorter than this shows no progress lines
PARALLEL_FROM = 2000  # changes: a smaller diff is read in this process
MAX_WORKERS = 8  # processes that read the files of a large diff
SHARES_PER_WORKER = 16  # the files in this many parts per worker, taken as each is done


@dataclass(frozen=True)
class Analysis:
    """What the search needs to know about GOOD..BAD before its first test.

    ``symbols`` and ``scopes`` are empty when the options do not use them;
    ``deps`` is empty without ``predict``.
    """

    diff: Diff
    symbols: Mapping[int, Symbols]
    deps: Dependencies
    plan: Plan
    scopes: Mapping[int, str]


@dataclass(frozen=True, slots=True)
class Options:
    """The options that decide what the analysis computes."""

    context: int
    criteria: tuple[str, ...]
    predict: bool
    resolve: bool

    @property
    def needs_symbols(self) -> bool:
        return self.predict or self.resolve or "lexical" in self.criteria


def analyse(repo: Path, good: str, bad: str, options: Options,
            progress: Callable[[str], None],
            diff_read: Callable[[Diff], None] | None = None, *,
            meanwhile: Callable[[Diff], None] | None = None) -> Analysis:
    """Compute the analysis of ``good..bad`` (full commit ids); progress as it goes.

    ``diff_read`` is called with the diff (when it has changes) as soon as it
    is read, before the rest is computed (e.g. to start tests that need no
    more on other workers). ``meanwhile``: work of the caller's that needs the
    diff and no analysis (making the first worktree, running the premise), run
    in this thread once the diff is read, while forked workers read its files
    (or before this process reads them); not run for a diff without changes.
    What it raises ends the analysis.
    """
    with collector_paused():  # what the analysis builds lives until the end
        return _compute(repo, good, bad, options, progress, diff_read,
                        meanwhile or (lambda _: None))


def _compute(repo: Path, good: str, bad: str, options: Options,
             progress: Callable[[str], None], diff_read: Callable[[Diff], None] | None,
             meanwhile: Callable[[Diff], None]) -> Analysis:
    diff = read_diff(repo, good, bad, context=options.context)
    if not diff.changes:
        return Analysis(diff, {}, Dependencies(), make_plan(diff, (), {}), {})
    progress(describe(diff))
    say = _Heartbeat(progress)
    _settle()  # the diff lives until the end: out of the collector's way
    if diff_read is not None:
        diff_read(diff)

    def alongside() -> None:
        check_reproduces(diff)
        meanwhile(diff)

    if not (options.needs_symbols or "syntax" in options.criteria):
        alongside()
        return Analysis(diff, {}, Dependencies(), make_plan(diff, options.criteria, {}), {})
    say(f"analysing {len(diff.changes)} changes in {len(diff.files)} files")
    words: dict[str, Counter[bytes]] = {}

    def idle() -> None:  # while the workers read: what needs the diff alone
        alongside()
        # GOOD's words rank the respellings and moves of every diff that has
        # them; BAD's (removed names outside Python) are counted if asked.
        words["old"] = side_words(diff, "old")

    readings = read_in_parallel(diff, meanwhile=idle)
    if readings is None:
        alongside()
    model = analyse_diff(diff, readings, words)
    deps = Dependencies()
    if options.predict:
        say("deriving dependencies")
        deps = model.dependencies()
    say("planning the search")
    plan = make_plan(diff, options.criteria, model.symbols,
                     deps if options.predict else None, model.enclosing)
    scopes = model.scopes() if options.resolve else {}
    symbols = model.symbols if options.needs_symbols else {}
    return Analysis(diff, symbols, deps, plan, scopes)


def read_in_parallel(diff: Diff, workers: int | None = None,
                     meanwhile: Callable[[], None] | None = None) -> FileReadings | None:
    """:func:`~wynot.analysis.model.read_files` of every file of a large diff, in
    ``workers`` processes (default: one per CPU this process may use, at most
    ``MAX_WORKERS``); None for a diff under ``PARALLEL_FROM`` changes, or where
    processes cannot be made. ``meanwhile`` runs in this thread while the
    workers read (not at all when this returns None); what it raises stops them.

    Each worker reads a share of the files (by size) and sends back what it
    read, whose values are the same as read here. With no other thread
    running, the workers are forked from this process and see the diff
    without copying it. Otherwise (the pool's worktree threads with ``-j``,
    a terminal's live progress display) a fork could copy a lock another
    thread holds, so they are forked from a fresh server process (``forkserver``)
    and each share's files are sent along. The CPU time is that of one
    process plus the transfer; the time it takes is shorter by about the
    number of CPUs (docs/performance.md). With the collector paused (as
    :func:`analyse` runs it), each share is collected and frozen as it arrives.
    """
    workers = workers or min(MAX_WORKERS, len(os.sched_getaffinity(0))
                             if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)
    methods = multiprocessing.get_all_start_methods()
    alone = threading.active_count() == 1  # a fork copies no thread, maybe a held lock
    method = "fork" if alone and "fork" in methods else "forkserver"
    if workers < 2 or len(diff.changes) < PARALLEL_FROM or method not in methods:
        return None
    global _SHARED
    shares = _shares(diff, workers * SHARES_PER_WORKER)
    context = multiprocessing.get_context(method)
    if method == "fork":
        _SHARED = diff
    else:
        context.set_forkserver_preload([__name__])  # each worker starts with it imported
    pool = context.Pool(workers)
    try:
        # Many small shares: the readers end within one share of each other, and
        # the last share's transfer, after every reader is done, is short.
        parts = (pool.imap(_read_part, shares) if method == "fork" else
                 pool.imap(_read_sent, ({i: diff.files[i] for i in share} for share in shares)))
        if meanwhile is not None:
            meanwhile()
        readings = FileReadings({}, {}, {}, {})
        for part in parts:
            readings.update(part)
            # Each share's values out of the paused collector's way as it arrives,
            # while the workers still read: the collection after the analysis
            # then walks only what the serial end makes.
            del part
            if not gc.isenabled():
                _settle()
        pool.close()
        pool.join()
        return readings
    finally:
        pool.terminate()  # at once when interrupted: what the workers read is of no use
        _SHARED = None


_SHARED: Diff | None = None  # the diff a forked worker reads


def _read_part(indexes: list[int]) -> FileReadings:
    assert _SHARED is not None
    return read_files(_SHARED.files, indexes)


def _read_sent(files: dict[int, FileDiff]) -> FileReadings:
    """A share read by a worker that has only its files (not forked from the caller)."""
    return read_files(files, list(files))


def _shares(diff: Diff, count: int) -> list[list[int]]:
    """The file indexes in ``count`` shares of about the same size (bytes of both sides)."""
    shares: list[list[int]] = [[] for _ in range(count)]
    sizes = [0] * count
    by_size = sorted(diff.files, key=lambda fd: -sum(len(s.data) for s in (fd.old, fd.new)
                                                     if s is not None))
    for fd in by_size:
        smallest = sizes.index(min(sizes))
        shares[smallest].append(fd.index)
        sizes[smallest] += sum(len(s.data) for s in (fd.old, fd.new) if s is not None) + 1
    return [sorted(share) for share in shares if share]


def describe(diff: Diff) -> str:
    """The progress line that introduces a diff."""
    return (f"{plural(len(diff.changes), 'change')} in {plural(len(diff.files), 'file')} "
            f"between {diff.good[:12]} and {diff.bad[:12]}")


class _Heartbeat:
    """Progress lines for a long analysis only: none in its first ``QUIET_FOR``
    seconds, then one as each stage starts."""

    def __init__(self, progress: Callable[[str], None]) -> None:
        self._progress = progress
        self._started = time.monotonic()

    def __call__(self, line: str) -> None:
        if time.monotonic() - self._started >= QUIET_FOR:
            self._progress(line)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic collection while a large structure is built (a stored analysis
    read back); then it is frozen, out of the way of later collections."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        _settle()
        if enabled:
            gc.enable()


def _settle() -> None:
    """Collect the cycles among the objects made since the last call, freeze the rest."""
    gc.collect(0)
    gc.freeze()
