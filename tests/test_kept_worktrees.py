"""--keep-worktrees: build outputs survive from one run to the next, and `wynot clean`
removes the worktrees kept for that."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_cli_state import good_bad_repo, leftover_worktrees

from cli_helpers import run_wynot

# The build makes an untracked output once per worktree and notes each time it does.
BUILD = 'test -f built.out || {{ echo made >> "{log}"; echo out > built.out; }}'
TEST = "grep -q 'LINE 30' notes.txt && exit 1; exit 0"


def wynot_run(repo: Path, log: Path, *options: str) -> None:
    done = run_wynot("--no-cache", *options, "--build", f"sh -c '{BUILD.format(log=log)}'",
                     "good", "bad", "--", "sh", "-c", TEST, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "1 of 3 changes" in done.stdout


def made(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_build_outputs_stay_for_the_next_run_until_clean(tmp_path: Path, jobs: str) -> None:
    repo = good_bad_repo(tmp_path / "repo")
    log = tmp_path / "builds.log"
    wynot_run(repo, log, "-j", jobs, "--keep-worktrees")
    first = made(log)
    assert 1 <= first <= int(jobs)  # once per worktree: both phases and every test share it
    assert len(leftover_worktrees(repo)) == first
    kept = [Path(line.split(" ", 1)[1]) for line in leftover_worktrees(repo)]
    assert all((path / "built.out").is_file() for path in kept)
    assert all(path.is_relative_to(repo / ".git" / "wynot") for path in kept)

    wynot_run(repo, log, "-j", jobs, "--keep-worktrees")
    assert made(log) == first  # the kept worktrees' outputs were used again

    cleaned = run_wynot("clean", cwd=repo)
    assert cleaned.returncode == 0, cleaned.stderr
    assert "kept worktree" in cleaned.stdout
    assert leftover_worktrees(repo) == []
    assert not any(path.exists() for path in kept)


def test_without_the_option_every_run_builds_afresh_and_keeps_nothing(tmp_path: Path) -> None:
    repo = good_bad_repo(tmp_path / "repo")
    log = tmp_path / "builds.log"
    wynot_run(repo, log)
    wynot_run(repo, log)
    assert made(log) == 2
    assert leftover_worktrees(repo) == []


def test_a_broken_kept_worktree_is_made_again(tmp_path: Path) -> None:
    repo = good_bad_repo(tmp_path / "repo")
    log = tmp_path / "builds.log"
    wynot_run(repo, log, "--keep-worktrees")
    [kept] = [Path(line.split(" ", 1)[1]) for line in leftover_worktrees(repo)]
    (kept / ".git").unlink()  # no longer a worktree: git must not look above it
    wynot_run(repo, log, "--keep-worktrees")
    assert made(log) == 2
    assert [Path(line.split(" ", 1)[1]) for line in leftover_worktrees(repo)] == [kept]
