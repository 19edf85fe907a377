"""The analysis of a diff, kept in the state directory for reruns.

    <git-common-dir>/wynot/analysis/<key>.pickle

The key digests GOOD, BAD, the context size, the options that change the
analysis and wynot's own source, so that only the same code reads back what
it wrote. The newest ``KEPT_ANALYSES`` files are kept. A file is written
atomically, in parts of ``PART`` files or changes, each pickled with a fresh
memo: pickling 100,000 hunks in one piece held a memo entry for each of
millions of objects. A file that cannot be read is removed and the analysis
computed again.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import itertools
import os
import pickle
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from wynot.analyse import Analysis, Options, collector_paused
from wynot.changes import Diff
from wynot.process import release_guard

KEPT_ANALYSES = 4  # analyses kept in the state directory, newest first
PART = 1000  # files (or changes' symbols) pickled with one memo
FORMAT = "wynot-analysis-1"


@dataclass(frozen=True, slots=True)
class AnalysisStore:
    """Where the analysis of ``good..bad`` under ``options`` is kept in ``state``."""

    state: Path
    good: str
    bad: str
    options: Options

    @property
    def path(self) -> Path:
        return self.state / "analysis" / f"{_key(self.good, self.bad, self.options)}.pickle"

    def load(self, progress: Callable[[str], None]) -> Analysis | None:
        """The stored analysis, or None when there is none (or it cannot be read)."""
        stored = _load(self.path)
        if stored is not None:
            progress(f"analysis of {self.good[:12]}..{self.bad[:12]} read from "
                     f"{self.path.parent}")
        return stored

    def save(self, analysis: Analysis) -> None:
        """Store ``analysis`` atomically, keeping the newest ``KEPT_ANALYSES``; errors
        are ignored (the next run computes it again)."""
        _store(self.path, analysis)

    def save_soon(self, analysis: Analysis) -> Saving:
        """:meth:`save` beside the caller, while it runs its first tests; join it
        before the process ends. ``analysis`` must not change meanwhile.

        In a forked process where one can be forked safely (no other thread
        runs): pickling holds the interpreter lock for long stretches, and in a
        thread of this process it slowed the first search test's file writes,
        each of which gives the lock up and waits to take it back
        (docs/performance.md). Else in a thread.
        """
        if hasattr(os, "fork") and threading.active_count() == 1:
            pid = os.fork()
            if pid == 0:  # pragma: no cover - the child; coverage does not follow it
                _save_and_exit(self.path, analysis)
            return Saving(pid, None)
        thread = threading.Thread(target=self.save, args=(analysis,), daemon=True,
                                  name="wynot-save-analysis")
        thread.start()
        return Saving(None, thread)


class Saving:
    """An analysis being written by :meth:`AnalysisStore.save_soon`."""

    def __init__(self, pid: int | None, thread: threading.Thread | None) -> None:
        self._pid = pid
        self._thread = thread

    def join(self) -> None:
        """Wait until the analysis is written (or its writing failed)."""
        if self._thread is not None:
            self._thread.join()
        self._reap()

    def stop(self) -> None:
        """End a forked writing at once (a thread is left to finish: it is a
        daemon). A file cut off is not read: only a temporary name is written
        before the last step, and ``_prune`` removes it later."""
        if self._pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
        self._reap()

    def _reap(self) -> None:
        if self._pid is not None:
            pid, self._pid = self._pid, None
            with contextlib.suppress(ChildProcessError):  # EINTR: Python retries it
                os.waitpid(pid, 0)


def _save_and_exit(path: Path, analysis: Analysis) -> None:  # pragma: no cover - a child
    """In a forked child: store ``analysis`` and leave without running the parent's
    exit handlers, flushing its buffers or unwinding its stack."""
    code = 1
    try:
        release_guard()  # a SIGKILL of wynot must reach the guard now, not after this write
        _store(path, analysis)
        code = 0
    finally:
        os._exit(code)


def _key(good: str, bad: str, options: Options) -> str:
    text = repr((good, bad, options.context, options.criteria, options.predict,
                 options.resolve, _code_digest()))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@functools.cache
def _code_digest() -> str:
    """A digest of wynot's own source: a stored analysis is only reused by the same code."""
    package = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for source in sorted(package.rglob("*.py")):
        digest.update(str(source.relative_to(package)).encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()


def _write(out: IO[bytes], analysis: Analysis) -> None:
    """The analysis as a series of pickles: head, then files and symbols in parts."""
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    diff, symbols = analysis.diff, list(analysis.symbols.items())
    head = (FORMAT, diff.good, diff.bad, analysis.deps, analysis.plan, analysis.scopes,
            _count(len(diff.files)), _count(len(symbols)))
    for piece in [head, *_parts(diff.files), *_parts(symbols)]:
        pickler.dump(piece)
        pickler.clear_memo()


def _read(handle: IO[bytes]) -> Analysis:
    """The analysis; its symbols are read from the file now but unpickled when first
    used (only failure resolution reads them once the plan is made)."""
    form, good, bad, deps, plan, scopes, file_parts, symbol_parts = pickle.load(handle)
    if form != FORMAT:
        raise ValueError(f"not a {FORMAT} file")
    files = tuple(itertools.chain.from_iterable(pickle.load(handle) for _ in range(file_parts)))
    changes = tuple(change for fd in files for change in fd.changes)
    symbols = _LazySymbols(handle.read(), symbol_parts) if symbol_parts else {}
    return Analysis(Diff(good, bad, files, changes), symbols, deps, plan, scopes)


class _LazySymbols(Mapping[int, Any]):
    """Each change's symbols, unpickled from ``data`` (``parts`` pickles) on first use."""

    def __init__(self, data: bytes, parts: int) -> None:
        self._data: bytes | None = data
        self._parts = parts
        self._symbols: dict[int, Any] = {}

    def _loaded(self) -> dict[int, Any]:
        if self._data is not None:
            stream = io.BytesIO(self._data)
            with collector_paused():
                for _ in range(self._parts):
                    self._symbols.update(pickle.load(stream))
            self._data = None
        return self._symbols

    def __getitem__(self, key: int) -> Any:
        return self._loaded()[key]

    def __iter__(self) -> Iterator[int]:
        return iter(self._loaded())

    def __len__(self) -> int:
        return len(self._loaded())


def _count(items: int) -> int:
    return -(-items // PART)


def _parts(items: Sequence[Any]) -> Iterator[Sequence[Any]]:
    return (items[i:i + PART] for i in range(0, len(items), PART))


def _load(path: Path) -> Analysis | None:
    try:
        with path.open("rb") as handle, collector_paused():
            stored = _read(handle)
    except FileNotFoundError:
        return None
    except Exception:  # noqa: BLE001 - a damaged or foreign file: compute again
        with contextlib.suppress(OSError):
            path.unlink()
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # newest first when old analyses are removed
    return stored


def _store(path: Path, analysis: Analysis) -> None:
    """Write atomically; keep only the newest ``KEPT_ANALYSES`` files. Errors are ignored."""
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                _write(out, analysis)
            os.replace(temporary, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
        _prune(sorted(path.parent.glob("*.pickle"), key=_mtime, reverse=True))


def _prune(newest_first: Sequence[Path]) -> None:
    """Remove all but the newest analyses, and files left by a save that was cut off."""
    stale = [p for p in newest_first[0].parent.glob("*.tmp") if _mtime(p) < time.time() - 3600]
    for old in [*newest_first[KEPT_ANALYSES:], *stale]:
        with contextlib.suppress(OSError):
            old.unlink()


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
