"""The runs kept in the state directory: list them with their size, prune, clear.

    <git-common-dir>/wynot/cache.sqlite       observed outcomes (wynot.cache)
    <git-common-dir>/wynot/runs/<run-id>/     one run's log, output and report files

A run id is ``YYYYmmdd-HHMMSS-PID``: it sorts by start, and a run whose
process still exists counts as running (it is never deleted).
"""

from __future__ import annotations

import contextlib
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

RUNS = "runs"
CACHE_FILES = ("cache.sqlite", "cache.sqlite-wal", "cache.sqlite-shm")


@dataclass(frozen=True, slots=True)
class RunInfo:
    """One run directory: its id (sortable by start), size on disk, tests logged, liveness."""

    run_id: str
    path: Path
    size: int
    tests: int
    running: bool


def list_runs(state: Path) -> list[RunInfo]:
    """Every run kept in ``state``, oldest first."""
    runs = []
    with contextlib.suppress(FileNotFoundError):
        for entry in sorted((state / RUNS).iterdir()):
            if not entry.is_dir():
                continue
            try:
                with (entry / "log.jsonl").open("rb") as log:
                    tests = sum(1 for _ in log)
            except OSError:
                tests = 0
            runs.append(RunInfo(entry.name, entry, _tree_size(entry), tests,
                                _running(entry.name)))
    return runs


def prune_runs(state: Path, keep: int) -> list[str]:
    """Delete all but the newest ``keep`` runs, never one still running. Returns the ids."""
    removed = []
    runs = [r for r in list_runs(state) if not r.running]
    for run in runs[:max(0, len(runs) - keep)]:
        shutil.rmtree(run.path, ignore_errors=True)
        removed.append(run.run_id)
    return removed


def state_size(state: Path) -> int:
    """Bytes used by the state directory."""
    return _tree_size(state) if state.is_dir() else 0


def clear_state(state: Path, *, runs: bool = True, cache: bool = True) -> int:
    """Delete run logs and/or the outcome cache, except what a live run uses.

    Returns the bytes freed. The cache is kept while any run is live (SQLite
    would keep writing to a deleted file).
    """
    before = state_size(state)
    live = any(r.running for r in list_runs(state))
    if runs:
        prune_runs(state, 0)
    if cache and not live:
        for name in CACHE_FILES:
            with contextlib.suppress(FileNotFoundError):
                (state / name).unlink()
    return before - state_size(state)


def _tree_size(path: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_size
    return total


def _running(run_id: str) -> bool:
    """Whether the process that started the run still exists (by the pid in its id)."""
    pid = run_id.rpartition("-")[2]
    if not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
