"""The outcome table of DESIGN.md, on real processes."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest

from wynot.outcome import Outcome
from wynot.runner import Commands, Reason, classify, run_configuration

PASS, FAIL, UNRESOLVED = Outcome.PASS, Outcome.FAIL, Outcome.UNRESOLVED


@pytest.mark.parametrize(
    ("returncode", "timed_out", "output", "pattern", "expected"),
    [
        (0, False, b"", None, (PASS, Reason.PASSED)),
        (1, False, b"", None, (FAIL, Reason.FAILED)),
        (2, False, b"", None, (FAIL, Reason.FAILED)),
        (-11, False, b"", None, (FAIL, Reason.FAILED)),  # killed by SIGSEGV
        (125, False, b"", None, (UNRESOLVED, Reason.SKIPPED)),
        (126, False, b"", None, (UNRESOLVED, Reason.NOT_EXECUTABLE)),
        (127, False, b"", None, (UNRESOLVED, Reason.NOT_FOUND)),
        (None, True, b"", None, (UNRESOLVED, Reason.TIMED_OUT)),
        (1, False, b"AssertionError: 3 != 4", rb"AssertionError", (FAIL, Reason.FAILED)),
        (1, False, b"ImportError: no module", rb"AssertionError",
         (UNRESOLVED, Reason.OTHER_FAILURE)),
        (0, False, b"AssertionError", rb"AssertionError", (PASS, Reason.PASSED)),
    ],
)
def test_classify_follows_the_outcome_table(returncode, timed_out, output, pattern, expected):
    compiled = re.compile(pattern) if pattern else None
    assert classify(returncode, timed_out=timed_out, output=output,
                    fail_pattern=compiled) == expected


def sh(script: str) -> tuple[str, ...]:
    return ("sh", "-c", script)


@pytest.mark.parametrize(
    ("commands", "outcome", "reason"),
    [
        (Commands(test=sh("exit 0")), PASS, Reason.PASSED),
        (Commands(test=sh("echo boom; exit 1")), FAIL, Reason.FAILED),
        (Commands(test=sh("exit 125")), UNRESOLVED, Reason.SKIPPED),
        (Commands(test=sh("kill -9 $$")), FAIL, Reason.FAILED),
        (Commands(test=("wynot-no-such-command-x",)), UNRESOLVED, Reason.NOT_FOUND),
        (Commands(test=sh("exit 0"), build=sh("exit 2")), UNRESOLVED, Reason.BUILD_FAILED),
        (Commands(test=sh("exit 1"), build=sh("exit 0")), FAIL, Reason.FAILED),
        (Commands(test=sh("echo ImportError; exit 1"), fail_pattern=re.compile(rb"Assert")),
         UNRESOLVED, Reason.OTHER_FAILURE),
        (Commands(test=sh("echo AssertionError; exit 1"), fail_pattern=re.compile(rb"Assert")),
         FAIL, Reason.FAILED),
    ],
)
def test_real_commands_get_their_outcome(tmp_path: Path, commands, outcome, reason):
    result = run_configuration(tmp_path, commands, tmp_path / "out" / "1.out")
    assert (result.outcome, result.reason) == (outcome, reason)
    assert result.output.exists()


def test_not_executable_file_is_unresolved(tmp_path: Path):
    script = tmp_path / "test.sh"
    script.write_text("#!/bin/sh\nexit 0\n")
    script.chmod(0o644)
    result = run_configuration(tmp_path, Commands(test=(str(script),)), tmp_path / "1.out")
    assert (result.outcome, result.reason) == (UNRESOLVED, Reason.NOT_EXECUTABLE)


def test_output_of_build_and_test_is_kept(tmp_path: Path):
    commands = Commands(test=sh("echo from-test >&2; exit 1"), build=sh("echo from-build"))
    result = run_configuration(tmp_path, commands, tmp_path / "1.out")
    text = result.output.read_text()
    assert "from-build" in text and "from-test" in text


def test_runs_in_the_given_directory_without_git_variables(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("GIT_DIR", "/somewhere/else")
    commands = Commands(test=sh('pwd; test -z "$GIT_DIR" && echo clean'))
    result = run_configuration(tmp_path, commands, tmp_path / "1.out")
    assert result.outcome is PASS
    lines = result.output.read_text().split()
    assert lines == [str(tmp_path), "clean"]


def test_timeout_kills_the_whole_process_group(tmp_path: Path):
    marker = tmp_path / "grandchild.pid"
    # The test starts a grandchild that would outlive a plain kill of the test.
    script = f"sleep 60 & echo $! > {marker}; wait"
    start = time.monotonic()
    result = run_configuration(tmp_path, Commands(test=sh(script), timeout=0.5),
                               tmp_path / "1.out")
    assert time.monotonic() - start < 10
    assert (result.outcome, result.reason) == (UNRESOLVED, Reason.TIMED_OUT)
    pid = int(marker.read_text())
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid), "the grandchild survived the timeout"


def test_timeout_covers_build_and_test_together(tmp_path: Path):
    commands = Commands(test=sh("sleep 1"), build=sh("sleep 1"), timeout=1.5)
    result = run_configuration(tmp_path, commands, tmp_path / "1.out")
    assert result.reason is Reason.TIMED_OUT


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead for our purposes; /proc tells.
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


def test_python_bytecode_is_not_written(tmp_path: Path):
    (tmp_path / "mod.py").write_text("X = 1\n")
    commands = Commands(test=(sys.executable, "-c", "import mod"))
    assert run_configuration(tmp_path, commands, tmp_path / "1.out").outcome is PASS
    assert not (tmp_path / "__pycache__").exists()
