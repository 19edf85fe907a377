"""wynot never touches the user's repository, even when interrupted."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path

import pytest

from cli_helpers import git_out, run_wynot, snapshot, wynot_argv

ENV = {
    "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
}


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=ENV)


def commit_files(repo: Path, files: dict[str, str], message: str, tag: str) -> None:
    for name, text in files.items():
        (repo / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    git(repo, "tag", tag)


def good_bad_repo(repo: Path) -> Path:
    """A new repository with tags good and bad: value.txt 1 -> 2, line 30 of
    notes.txt upper-cased, other.txt a -> b."""
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    lines = "".join(f"line {i}\n" for i in range(40))
    commit_files(repo, {"value.txt": "1\n", "notes.txt": lines, "other.txt": "a\n"},
                 "good", "good")
    commit_files(repo, {"value.txt": "2\n", "notes.txt": lines.replace("line 30", "LINE 30"),
                        "other.txt": "b\n"}, "bad", "bad")
    return repo


@pytest.fixture
def dirty_repo(tmp_path: Path) -> Path:
    """A repository with good/bad tags, a modified file, a staged file, an
    untracked file and a stash entry."""
    repo = good_bad_repo(tmp_path / "user repo")
    (repo / "other.txt").write_text("stashed edit\n")
    git(repo, "stash", "push", "-q")
    (repo / "notes.txt").write_text("uncommitted edit\n")
    (repo / "staged.txt").write_text("staged\n")
    git(repo, "add", "staged.txt")
    (repo / "untracked.txt").write_text("untracked\n")
    return repo


def leftover_worktrees(repo: Path) -> list[str]:
    listed = git_out(repo, "worktree", "list", "--porcelain")
    return [line for line in listed.splitlines() if line.startswith("worktree ")][1:]


def test_a_run_leaves_the_repository_byte_for_byte_unchanged(dirty_repo: Path) -> None:
    before = snapshot(dirty_repo)
    result = run_wynot("good", "bad", "--json", "--", "grep", "-q", "1", "value.txt",
                       cwd=dirty_repo)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [c["label"] for c in report["changes"]] == ["value.txt:-1,1"]
    assert snapshot(dirty_repo) == before
    assert leftover_worktrees(dirty_repo) == []


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_run_cleans_up_and_leaves_the_repository_alone(
    dirty_repo: Path, tmp_path: Path, sig: signal.Signals
) -> None:
    before = snapshot(dirty_repo)
    started = tmp_path / "test-started"
    script = f"echo $$ > '{started}'; sleep 60"
    proc = subprocess.Popen([*wynot_argv(), "good", "bad", "--no-cache", "--", "sh", "-c", script],
                            cwd=dirty_repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.monotonic() + 30
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert started.exists(), "the test command never started"
    time.sleep(0.2)
    proc.send_signal(sig)
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr
    test_pid = int(started.read_text())
    assert not Path(f"/proc/{test_pid}").exists() or "State:\tZ" in Path(
        f"/proc/{test_pid}/status").read_text(), "the test command is still running"
    assert leftover_worktrees(dirty_repo) == []
    assert snapshot(dirty_repo) == before
