"""The analysis of GOOD..BAD before the first test: diff, symbols, dependencies, plan.

:func:`analyse` reads the diff and computes only what the chosen options use
(flat mode, ``--group none --no-predict --no-resolve``, needs no symbols), and
reports progress while it works. It keeps Python's cyclic garbage collector
out of the way while it builds its large, long-lived structures (they are
frozen afterwards, so later collections do not walk them either).

:class:`wynot.analysis_store.AnalysisStore` keeps it in the state directory
for a rerun to reuse.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from wynot.analysis.depends import Dependencies, derive
from wynot.analysis.grouping import Plan, enclosing, make_plan, scope
from wynot.analysis.symbols import Symbols, change_symbols, file_symbols
from wynot.changes import Diff
from wynot.diffread import read_diff
from wynot.patch import check_reproduces

PROGRESS_EVERY = 2.0  # seconds between progress lines while files are analysed
QUIET_FOR = 1.0  # an analysis shorter than this shows no progress lines


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
            progress: Callable[[str], None]) -> Analysis:
    """Compute the analysis of ``good..bad`` (full commit ids); progress as it goes."""
    with collector_paused():
        return _compute(repo, good, bad, options, progress)


def _compute(repo: Path, good: str, bad: str, options: Options,
             progress: Callable[[str], None]) -> Analysis:
    diff = read_diff(repo, good, bad, context=options.context)
    if not diff.changes:
        return Analysis(diff, {}, Dependencies(), make_plan(diff, (), {}), {})
    progress(describe(diff))
    say = _Heartbeat(progress)
    check_reproduces(diff)
    say(f"analysing {len(diff.changes)} changes in {len(diff.files)} files")
    symbols, places = _per_file(diff, options, say)
    deps = Dependencies()
    if options.predict:
        say("deriving dependencies")
        by_file = {fd.index: file_symbols(fd) for fd in diff.files}
        deps = derive(symbols, {c.id: by_file[c.file] for c in diff.changes})
    say("planning the search")
    plan = make_plan(diff, options.criteria, symbols, deps if options.predict else None,
                     enclosing=places if "syntax" in options.criteria else None)
    scopes = ({c.id: scope(c, diff.files[c.file], places[c.id]) for c in diff.changes}
              if options.resolve else {})
    return Analysis(diff, symbols, deps, plan, scopes)


def describe(diff: Diff) -> str:
    """The progress line that introduces a diff."""
    return (f"{len(diff.changes)} changes in {len(diff.files)} files between "
            f"{diff.good[:12]} and {diff.bad[:12]}")


class _Heartbeat:
    """Progress lines for a long analysis only: none in its first ``QUIET_FOR``
    seconds, then each stage, and per-file lines at most every ``PROGRESS_EVERY``."""

    def __init__(self, progress: Callable[[str], None]) -> None:
        self._progress = progress
        self._started = self._shown = time.monotonic()

    def __call__(self, line: str, *, often: bool = False) -> None:
        now = time.monotonic()
        if now - self._started < QUIET_FOR or (often and now - self._shown < PROGRESS_EVERY):
            return
        self._shown = now
        self._progress(line)


def _per_file(diff: Diff, options: Options, say: _Heartbeat
              ) -> tuple[dict[int, Symbols], dict[int, str]]:
    """Symbols and enclosing function of each change, as the options need them.

    One file after the other, so that the parses a file needs are shared
    while they are in the parse caches.
    """
    places_needed = options.resolve or "syntax" in options.criteria
    symbols: dict[int, Symbols] = {}
    places: dict[int, str] = {}
    if not (options.needs_symbols or places_needed):
        return symbols, places
    for fd in diff.files:
        for change in fd.changes:
            if options.needs_symbols:
                symbols[change.id] = change_symbols(change, fd)
            if places_needed:
                places[change.id] = enclosing(change, fd)
        _settle()
        say(f"analysed {fd.index + 1} of {len(diff.files)} files", often=True)
    return symbols, places


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic collection while the analysis builds; what it built is frozen.

    The analysis allocates millions of objects that live until the end of
    the run; the collector, left alone, would walk all of them again and
    again (the time grew faster than the diff). Cyclic garbage made on the
    way is collected by :func:`_settle`, which looks only at what was made
    since it last ran, so that every object is looked at about once.
    """
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
