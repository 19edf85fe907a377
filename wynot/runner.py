"""Run the build and test commands on one configuration and classify the outcome.

The mapping from what happened to an :class:`~wynot.dd.Outcome` is the table
in DESIGN.md, implemented once in :func:`classify`. Commands run as argv lists
(no shell), in their own process group so that a timeout kills everything they
started, with git's ``GIT_*`` variables removed from their environment.
"""

from __future__ import annotations

import contextlib
import enum
import os
import re
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from wynot.git import clean_environment
from wynot.outcome import Outcome

KILL_GRACE_SECONDS = 2.0
SKIP_EXIT_CODE = 125  # git bisect's "cannot test this"


class Reason(enum.Enum):
    """Why a run got its outcome; shown in logs and messages."""

    PASSED = "test passed"
    FAILED = "test failed"
    BUILD_FAILED = "build failed"
    SKIPPED = "test exited 125 (cannot judge)"
    NOT_EXECUTABLE = "command cannot be executed (exit 126)"
    NOT_FOUND = "command not found (exit 127)"
    TIMED_OUT = "timed out"
    OTHER_FAILURE = "failed without matching --fail-pattern"
    CONFLICT = "configuration cannot be written (path conflict)"


@dataclass(frozen=True, slots=True)
class Commands:
    """What to run for each configuration."""

    test: tuple[str, ...]
    build: tuple[str, ...] | None = None
    timeout: float | None = None
    fail_pattern: re.Pattern[bytes] | None = None


@dataclass(frozen=True, slots=True)
class RunResult:
    outcome: Outcome
    reason: Reason
    returncode: int | None  # of the last command run; None if it timed out or never started
    duration: float
    output: Path  # combined stdout and stderr of build and test


def classify(
    returncode: int | None,
    *,
    timed_out: bool = False,
    output: bytes = b"",
    fail_pattern: re.Pattern[bytes] | None = None,
) -> tuple[Outcome, Reason]:
    """Map the test command's end to an outcome (DESIGN.md, "Outcomes of one test run")."""
    if timed_out or returncode is None:
        return Outcome.UNRESOLVED, Reason.TIMED_OUT
    if returncode == 0:
        return Outcome.PASS, Reason.PASSED
    if returncode == SKIP_EXIT_CODE:
        return Outcome.UNRESOLVED, Reason.SKIPPED
    if returncode == 126:
        return Outcome.UNRESOLVED, Reason.NOT_EXECUTABLE
    if returncode == 127:
        return Outcome.UNRESOLVED, Reason.NOT_FOUND
    if fail_pattern is not None and not fail_pattern.search(output):
        return Outcome.UNRESOLVED, Reason.OTHER_FAILURE
    return Outcome.FAIL, Reason.FAILED  # any other code, or killed by a signal (< 0)


def run_configuration(cwd: Path, commands: Commands, output: Path,
                      cancelled: Callable[[], bool] | None = None) -> RunResult:
    """Run the build (if any) then the test in ``cwd``; write their output to ``output``.

    ``cancelled`` is polled while a command runs; once it returns true the
    command's process group is killed and the run ends as if it timed out
    (the caller, who cancelled it, discards the result).
    """
    env = clean_environment()
    env.setdefault("PYTHONDONTWRITEBYTECODE", "1")  # stale .pyc files could hide a change
    start = time.monotonic()
    output.parent.mkdir(parents=True, exist_ok=True)
    with output.open("wb") as log:
        if commands.build:
            code, timed_out = _run(commands.build, cwd, env, log, _remaining(commands, start),
                                   cancelled)
            if timed_out or code != 0:
                reason = Reason.TIMED_OUT if timed_out else Reason.BUILD_FAILED
                return RunResult(Outcome.UNRESOLVED, reason, code, time.monotonic() - start, output)
        code, timed_out = _run(commands.test, cwd, env, log, _remaining(commands, start),
                               cancelled)
    text = output.read_bytes() if commands.fail_pattern is not None else b""
    outcome, reason = classify(code, timed_out=timed_out, output=text,
                               fail_pattern=commands.fail_pattern)
    return RunResult(outcome, reason, code, time.monotonic() - start, output)


def _remaining(commands: Commands, start: float) -> float | None:
    if commands.timeout is None:
        return None
    return max(0.0, commands.timeout - (time.monotonic() - start))


def _run(
    argv: Sequence[str], cwd: Path, env: dict[str, str], log: BinaryIO, timeout: float | None,
    cancelled: Callable[[], bool] | None = None,
) -> tuple[int | None, bool]:
    """Run one command in its own process group. Returns (exit code, timed out).

    A command that cannot be started gives 127 (not found) or 126 (not
    executable), as a shell would.
    """
    try:
        proc = subprocess.Popen(
            list(argv), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
    except FileNotFoundError:
        _note(log, f"wynot: {argv[0]}: command not found\n")
        return 127, False
    except PermissionError:
        _note(log, f"wynot: {argv[0]}: permission denied\n")
        return 126, False
    try:
        return _wait(proc, timeout, cancelled), False
    except _Cancelled:
        _note(log, "\nwynot: cancelled (no longer needed); killing process group\n")
        kill_group(proc)
        return None, True
    except subprocess.TimeoutExpired:
        _note(log, f"\nwynot: timed out after {timeout:.1f}s; killing process group\n")
        kill_group(proc)
        return None, True
    finally:
        if proc.poll() is None:  # interrupted (Ctrl-C, SIGTERM): leave nothing running
            kill_group(proc)


class _Cancelled(Exception):
    pass


CANCEL_POLL_SECONDS = 0.05


def _wait(proc: subprocess.Popen[bytes], timeout: float | None,
          cancelled: Callable[[], bool] | None) -> int:
    """``proc.wait(timeout)``, raising _Cancelled as soon as ``cancelled()`` is true."""
    if cancelled is None:
        return proc.wait(timeout=timeout)
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        if cancelled():
            raise _Cancelled
        step = CANCEL_POLL_SECONDS
        if deadline is not None:
            step = min(step, max(0.0, deadline - time.monotonic()))
        try:
            return proc.wait(timeout=step)
        except subprocess.TimeoutExpired:
            if deadline is not None and time.monotonic() >= deadline:
                raise


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Terminate the whole process group of ``proc``, then kill whatever is left.

    The group outlives its leader when grandchildren ignore SIGTERM, so the
    SIGKILL goes to the group even after ``proc`` itself has exited.
    """
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=KILL_GRACE_SECONDS)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def _note(log: BinaryIO, text: str) -> None:
    log.write(text.encode())
    log.flush()


def output_tail(path: Path, lines: int = 15) -> str:
    """The last ``lines`` lines of a run's output, for error messages."""
    try:
        data = path.read_bytes()
    except OSError:
        return ""
    text = data.decode("utf-8", errors="replace").rstrip("\n")
    return "\n".join(text.splitlines()[-lines:])
