"""Bad input: each gives a one-line message and the documented exit code."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_cli_state import leftover_worktrees

from cli_helpers import run_wynot
from conftest import Executable, GitRepo

LINES = b"".join(b"line %d\n" % i for i in range(30))


@pytest.fixture
def repo(make_repo) -> GitRepo:
    """good: value 1; bad: value 2 (the cause) plus an unrelated edit."""
    repo = make_repo("project")
    repo.commit({"value.txt": b"1\n", "notes.txt": LINES})
    repo.git("tag", "good")
    repo.commit({"value.txt": b"2\n", "notes.txt": LINES.replace(b"line 20", b"LINE 20")})
    repo.git("tag", "bad")
    return repo


CHECK = ["--", "grep", "-q", "1", "value.txt"]


def first_error_line(stderr: str) -> str:
    return next(line for line in stderr.splitlines() if line.startswith("wynot: error:"))


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["nope", "bad", *CHECK], 1, r"unknown revision 'nope'"),
        (["good", "bad~5", *CHECK], 1, r"unknown revision 'bad~5'"),
        (["good", "good", *CHECK], 3, r"same commit"),
        (["bad", "bad", *CHECK], 3, r"same commit"),
        (["bad", "good", *CHECK], 3, r"GOOD \(bad\) fails the test; it must pass"),
        (["good", "bad", "--", "true"], 3, r"BAD \(bad\) passes the test; it must fail"),
        (["good", "bad", "--", "wynot-no-such-command"], 1, r"command not found"),
        (["good", "bad", "--timeout", "0.5", "--", "sleep", "30"], 3,
         r"GOOD \(good\) cannot be tested: timed out"),
        (["good", "bad", "--build", "false", *CHECK], 3,
         r"GOOD \(good\) cannot be tested: build failed"),
    ],
)
def test_bad_input_gets_one_line_and_exit_code(repo: GitRepo, args, code, message) -> None:
    result = run_wynot("--no-cache", *args, cwd=repo.path, timeout=60)
    assert result.returncode == code, result.stderr
    assert re.search(message, first_error_line(result.stderr)), result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_premise_failure_shows_command_output_and_how_to_rerun(repo: GitRepo) -> None:
    result = run_wynot("good", "bad", "--no-cache", "--", "sh", "-c", "echo OOPS-GOOD; exit 3",
                       cwd=repo.path)
    assert result.returncode == 3
    assert "command: sh -c 'echo OOPS-GOOD; exit 3'" in result.stderr
    assert "OOPS-GOOD" in result.stderr
    assert "rerun by hand: git worktree add" in result.stderr


def test_identical_trees_are_no_differences(repo: GitRepo) -> None:
    repo.commit({"value.txt": b"2\n", "notes.txt": LINES.replace(b"line 20", b"LINE 20")},
                message="same tree as bad")
    result = run_wynot("bad", "HEAD", *CHECK, cwd=repo.path)
    assert result.returncode == 3
    assert "no differences between bad and HEAD" in first_error_line(result.stderr)
    assert leftover_worktrees(repo.path) == []  # the one begun before the diff was read


def test_not_a_git_repository(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    result = run_wynot("good", "bad", *CHECK, cwd=plain)
    assert result.returncode == 1
    assert "is not inside a git repository" in first_error_line(result.stderr)


def test_repo_option_points_elsewhere(repo: GitRepo, tmp_path: Path) -> None:
    result = run_wynot("-C", str(repo.path), "good", "bad", "--json", *CHECK, cwd=tmp_path)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["good", "bad", "grep", "-q", "1", "value.txt"], "separate the test command with --"),
        (["good", "bad", "--"], "Missing argument 'COMMAND...'"),
        (["good", "bad", "--timeout", "-1", *CHECK], "--timeout"),
        (["good", "bad", "--fail-pattern", "(", *CHECK], "not a valid regular expression"),
        (["good", "bad", "--build", 'make "unclosed', *CHECK], "--build"),
    ],
)
def test_usage_errors_exit_2(repo: GitRepo, args, message) -> None:
    result = run_wynot(*args, cwd=repo.path)
    assert result.returncode == 2, result.stderr
    assert message in result.stderr


def test_hanging_configuration_is_unresolved_not_a_failure(make_repo) -> None:
    # bad has two edits: one makes the test fail, the other makes it hang.
    repo = make_repo("hang")
    script = (b"#!/bin/sh\ngrep -q 1 value.txt || exit 1\n"
              b"grep -q hang mode.txt && sleep 30\nexit 0\n")

    repo.commit({"value.txt": b"1\n", "mode.txt": b"fast\n", "t.sh": Executable(script)})
    repo.git("tag", "good")
    repo.commit({"value.txt": b"2\n", "mode.txt": b"hang\n", "t.sh": Executable(script)})
    repo.git("tag", "bad")
    result = run_wynot("good", "bad", "--timeout", "1", "--json", "--", "./t.sh",
                       cwd=repo.path, timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [c["label"] for c in report["changes"]] == ["value.txt:-1,1"]
    assert [t["reason"] for t in report["tests"]].count("timed out") == 1


@pytest.mark.parametrize("broken", ["state dir is a file", "owners is a file", "corrupt cache"])
def test_an_unusable_state_directory_is_a_clear_error_and_leaves_nothing(
        repo: GitRepo, tmp_path: Path, broken: str) -> None:
    state = repo.path / ".git" / "wynot"
    if broken == "state dir is a file":
        state.write_text("not a directory\n")
    elif broken == "owners is a file":
        state.mkdir()
        (state / "owners").write_text("not a directory\n")
    else:
        state.mkdir()
        (state / "cache.sqlite").write_text("not a database\n")
    temp = tmp_path / "temp"
    temp.mkdir()
    result = run_wynot("good", "bad", *CHECK, cwd=repo.path, env={"TMPDIR": str(temp)})
    assert result.returncode == 1, result.stderr
    line = first_error_line(result.stderr)
    assert "internal error" not in line
    assert ("wynot clean" in line) if broken == "corrupt cache" else ("File exists" in line)
    assert list(temp.iterdir()) == []  # no scratch directory left behind
    assert leftover_worktrees(repo.path) == []
