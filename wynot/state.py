"""The state directory and who owns what in it: owner records, run logs, their size.

    <git-common-dir>/wynot/cache.sqlite       observed outcomes (wynot.cache)
    <git-common-dir>/wynot/runs/<run-id>/     one run's log and kept test output
    <git-common-dir>/wynot/owners/<token>.<name>.json
                                              a scratch worktree and its owner
    <git-common-dir>/wynot/analysis/          analyses of diffs (wynot.analysis_store)

An *owner token* names one wynot process: its pid and its start time (from
``/proc``), so that a recycled pid never passes for a live owner. Every
process wynot starts carries it in the ``WYNOT_OWNER`` environment variable.
A run that was killed (SIGKILL, power loss) leaves owner records behind; the
next run that opens a worktree in the same repository calls
:func:`dead_owners`, kills the processes still marked with a dead token and
removes what the records name. Run logs are pruned to the newest ``keep``
when a run starts (:func:`prune_runs`); :func:`list_runs` and
:func:`clear_state` let a user see and empty the directory.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from pathlib import Path

STATE_DIR_NAME = "wynot"
OWNER_ENV = "WYNOT_OWNER"
OWNERS = "owners"
RUNS = "runs"
CACHE_FILES = ("cache.sqlite", "cache.sqlite-wal", "cache.sqlite-shm")
OWNER_FILE = "owner"  # inside a run directory: the token of the run that writes it
DEFAULT_KEEP_RUNS = 20

_token: str | None = None


def state_dir(git_dir: Path) -> Path:
    """The state directory of the repository whose common git directory is ``git_dir``."""
    return git_dir / STATE_DIR_NAME


def process_start(pid: int) -> str:
    """The start time of process ``pid`` in clock ticks since boot ("" if unknown)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return ""
    fields = stat[stat.rfind(b")") + 2:].split()
    return fields[19].decode() if len(fields) > 19 else ""


def owner_token() -> str:
    """This process's token, ``<pid>-<start time>``."""
    global _token
    if _token is None or not _token.startswith(f"{os.getpid()}-"):
        _token = f"{os.getpid()}-{process_start(os.getpid())}"
    return _token


def is_alive(token: str) -> bool:
    """Whether the process a token names is still running (the same process, not its pid's heir)."""
    pid_text, _, start = token.partition("-")
    try:
        pid = int(pid_text)
        os.kill(pid, 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True  # someone else's process with that pid: not ours to judge dead
    return not start or process_start(pid) in (start, "")


# Temporary directories named after their owner (a dead owner's are removed).
TEMP_KINDS = ("export", "revert", "carry", "worker", "worktree")


def owned_prefix(kind: str) -> str:
    """The name prefix ``wynot-KIND-<owner token>.`` of a temporary directory this
    process owns: if it is killed, the next run's :func:`reclaim_tempdirs` removes
    the directory (its name says whose it was)."""
    assert kind in TEMP_KINDS, kind
    return f"wynot-{kind}-{owner_token()}."


@contextlib.contextmanager
def owned_tempdir(kind: str) -> Iterator[str]:
    """A temporary directory named by :func:`owned_prefix`, removed when the block ends."""
    with tempfile.TemporaryDirectory(prefix=owned_prefix(kind)) as tmp:
        yield tmp


def reclaim_tempdirs() -> int:
    """Remove the :func:`owned_tempdir` directories of processes that died. Returns how many."""
    removed = 0
    for kind in TEMP_KINDS:
        prefix = f"wynot-{kind}-"
        for entry in Path(tempfile.gettempdir()).glob(f"{prefix}*.*"):
            token = entry.name[len(prefix):].split(".", 1)[0]
            if token and not is_alive(token):
                shutil.rmtree(entry, ignore_errors=True)
                removed += 1
    return removed


def kill_marked(token: str, variable: str = OWNER_ENV, spare: Collection[int] = ()) -> int:
    """SIGKILL every process whose environment carries ``variable=token``
    (``WYNOT_OWNER=token`` by default), except this one and those in ``spare``.

    Linux only (reads ``/proc/*/environ``); elsewhere returns 0. Returns the
    number of processes signalled.
    """
    marker = f"{variable}={token}".encode()
    killed = 0
    if not sys.platform.startswith("linux"):
        return 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == os.getpid() or int(entry.name) in spare:
            continue
        try:
            environ = Path(entry.path, "environ").read_bytes()
        except OSError:
            continue
        if marker in environ.split(b"\0"):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(int(entry.name), signal.SIGKILL)
                killed += 1
    return killed


@dataclass(frozen=True, slots=True)
class OwnerRecord:
    """What one process created and must remove: a scratch worktree and its temporary dir."""

    path: Path  # the record file
    token: str
    worktree: Path
    scratch: Path


def write_owner(state: Path, worktree: Path, scratch: Path) -> OwnerRecord:
    """Record that this process owns ``worktree`` (inside the temporary dir ``scratch``)."""
    owners = state / OWNERS
    owners.mkdir(parents=True, exist_ok=True)
    token = owner_token()
    path = owners / f"{token}.{scratch.name}.json"
    data = {"token": token, "worktree": str(worktree), "scratch": str(scratch)}
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data), encoding="utf-8")
    temporary.replace(path)
    return OwnerRecord(path, token, worktree, scratch)


def dead_owners(state: Path) -> list[OwnerRecord]:
    """The records whose owner is no longer running, after killing its marked processes."""
    records = []
    with contextlib.suppress(FileNotFoundError):
        for entry in sorted((state / OWNERS).glob("*.json")):
            try:
                data = json.loads(entry.read_text(encoding="utf-8"))
                record = OwnerRecord(entry, str(data["token"]), Path(data["worktree"]),
                                     Path(data["scratch"]))
            except (OSError, ValueError, KeyError, TypeError):
                continue
            if not is_alive(record.token):
                records.append(record)
    for token in sorted({r.token for r in records}):
        kill_marked(token)
    return records


def forget_owner(record: OwnerRecord) -> None:
    with contextlib.suppress(FileNotFoundError):
        record.path.unlink()


ANALYSES = "analysis"  # cleared with the cache


# -- run logs ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RunInfo:
    """One run directory: its id (sortable by start), size on disk, tests logged, liveness."""

    run_id: str
    path: Path
    size: int
    tests: int
    running: bool


def _tree_size(path: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_size
    return total


def _running(run: Path) -> bool:
    try:
        token = (run / OWNER_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return False
    return is_alive(token)


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
            runs.append(RunInfo(entry.name, entry, _tree_size(entry), tests, _running(entry)))
    return runs


def prune_runs(state: Path, keep: int) -> list[str]:
    """Delete all but the newest ``keep`` runs, never one still running. Returns the ids."""
    removed = []
    runs = list_runs(state)
    for run in runs[:max(0, len(runs) - keep)]:
        if run.running:
            continue
        shutil.rmtree(run.path, ignore_errors=True)
        removed.append(run.run_id)
    return removed


def state_size(state: Path) -> int:
    """Bytes used by the state directory."""
    return _tree_size(state) if state.is_dir() else 0


def clear_state(state: Path, *, runs: bool = True, cache: bool = True) -> int:
    """Delete run logs and/or the outcome cache (with the stored analyses), except
    what a live run uses. Returns bytes freed.

    Runs still in progress are kept, and so is the cache while any run is
    (SQLite would keep writing to a deleted file).
    """
    before = state_size(state)
    live = False
    if runs or cache:
        live = any(r.running for r in list_runs(state))
    if runs:
        for run in list_runs(state):
            if not run.running:
                shutil.rmtree(run.path, ignore_errors=True)
    if cache and not live:
        for name in CACHE_FILES:
            with contextlib.suppress(FileNotFoundError):
                (state / name).unlink()
        shutil.rmtree(state / ANALYSES, ignore_errors=True)
    return before - state_size(state)
