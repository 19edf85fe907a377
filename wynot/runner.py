"""Run the build and test commands on one configuration and classify the outcome.

The mapping from what happened to an :class:`~wynot.dd.Outcome` is the table
in DESIGN.md, implemented once in :func:`classify`. Commands run as argv lists
(no shell), each in its own process group (:mod:`wynot.process`: a timeout or
the command's end kills everything it started; only the head and tail of its
output are kept), with git's ``GIT_*`` variables removed from their environment.
"""

from __future__ import annotations

import enum
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from wynot.git import clean_environment
from wynot.outcome import Outcome
from wynot.process import BoundedOutput, run_command

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
                      cancelled: Callable[[], bool] | None = None,
                      niceness: Callable[[], int] | None = None) -> RunResult:
    """Run the build (if any) then the test in ``cwd``; keep their output in ``output``.

    The output file holds the first and the last :data:`OUTPUT_HEAD` and
    :data:`OUTPUT_TAIL` bytes of what build and test printed, with a note of
    the size left out between them; ``--fail-pattern`` is matched on that.
    Processes a command leaves behind in its process group are killed when
    it ends. ``cancelled`` is polled while a command runs; once it returns
    true the command's process group is killed and the run ends as if it
    timed out (the caller, who cancelled it, discards the result).
    ``niceness`` likewise: how much lower the commands' CPU priority is to
    be than wynot's (:func:`~wynot.process.run_command`).
    """
    env = clean_environment()
    env.setdefault("PYTHONDONTWRITEBYTECODE", "1")  # stale .pyc files could hide a change
    start = time.monotonic()
    output.parent.mkdir(parents=True, exist_ok=True)
    with output.open("wb") as handle:
        log = BoundedOutput(handle)
        try:
            if commands.build:
                code, timed_out = run_command(commands.build, cwd, env, log,
                                              _remaining(commands, start), cancelled, niceness)
                if timed_out or code != 0:
                    reason = Reason.TIMED_OUT if timed_out else Reason.BUILD_FAILED
                    return RunResult(Outcome.UNRESOLVED, reason, code,
                                     time.monotonic() - start, output)
            code, timed_out = run_command(commands.test, cwd, env, log,
                                          _remaining(commands, start), cancelled, niceness)
        finally:
            log.finish()
    text = log.kept() if commands.fail_pattern is not None else b""
    outcome, reason = classify(code, timed_out=timed_out, output=text,
                               fail_pattern=commands.fail_pattern)
    return RunResult(outcome, reason, code, time.monotonic() - start, output)


def _remaining(commands: Commands, start: float) -> float | None:
    if commands.timeout is None:
        return None
    return max(0.0, commands.timeout - (time.monotonic() - start))


def output_tail(path: Path, lines: int = 15) -> str:
    """The last ``lines`` lines of a run's output, for error messages."""
    try:
        data = path.read_bytes()
    except OSError:
        return ""
    text = data.decode("utf-8", errors="replace").rstrip("\n")
    return "\n".join(text.splitlines()[-lines:])
