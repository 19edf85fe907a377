"""The CLI for a CI bot, end to end: formats, revert patches, budgets, report/runs/clean."""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cli_helpers import run_wynot, snapshot, wynot_argv
from conftest import GitRepo

pytestmark = pytest.mark.slow

CHECK = ("--", "grep", "-q", "^ok", "v.txt")
LINES = "".join(f"v line {n}\n" for n in range(2, 31))
OTHER = "".join(f"f line {n}\n" for n in range(1, 31))


def history(repo: GitRepo, last: dict[str, bytes]) -> GitRepo:
    """good -> c1 (f.txt) -> c2 (v.txt's first line: the culprit) -> ``last`` (bad)."""
    good = {"v.txt": ("ok\n" + LINES).encode(), "f.txt": OTHER.encode()}
    repo.git("tag", "good", repo.commit(good, "good"))
    c1 = {**good, "f.txt": OTHER.replace("f line 5\n", "F LINE 5\n").encode()}
    repo.commit(c1, "f: shout line 5")
    c2 = {**c1, "v.txt": ("bad\n" + LINES).encode()}
    repo.commit(c2, "v: say bad")
    repo.git("tag", "bad", repo.commit({**c2, **last}, "later work"))
    return repo


@pytest.fixture
def later_edits(make_repo: Callable[..., GitRepo]) -> GitRepo:
    """After the culprit, BAD edits v.txt far from its first line: the revert must merge."""
    return history(make_repo(), {
        "v.txt": ("bad\n" + LINES.replace("v line 28\n", "V LINE 28\n")).encode(),
        "f.txt": OTHER.replace("f line 5\n", "F LINE 5\n").replace("f line 25\n",
                                                                   "F LINE 25\n").encode()})


def wynot_json(repo: GitRepo, *args: str, env: dict[str, str] | None = None) -> tuple[int, dict]:
    done = run_wynot("good", "bad", "--format", "json", "--no-cache", *args, cwd=repo.path,
                     env=env)
    return done.returncode, json.loads(done.stdout)


def test_the_revert_patch_is_carried_onto_bad_and_bad_then_passes(
        later_edits: GitRepo, tmp_path: Path) -> None:
    patch = tmp_path / "revert.patch"
    before = snapshot(later_edits.path)
    code, report = wynot_json(later_edits, "--revert-patch", str(patch), *CHECK)
    assert code == 0, report
    assert report["status"] == "found"
    assert report["commit"]["subject"] == "v: say bad"
    assert report["revert"]["verified"] and report["revert"]["applies"]
    assert report["counts"]["by_phase"]["revert"] == 1
    assert snapshot(later_edits.path) == before
    # By hand: BAD with the patch applied passes and keeps what came after the culprit.
    checkout = tmp_path / "bad-checkout"
    later_edits.git("worktree", "add", "--detach", str(checkout), "bad")
    subprocess.run(["git", "apply", str(patch)], cwd=checkout, check=True)
    assert subprocess.run(CHECK[1:], cwd=checkout, check=False).returncode == 0
    assert (checkout / "v.txt").read_text() == "ok\n" + LINES.replace("v line 28",
                                                                     "V LINE 28")
    assert "F LINE 25" in (checkout / "f.txt").read_text()


def test_a_revert_that_conflicts_is_said_so_and_exits_4(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = history(make_repo(), {"v.txt": ("worse\n" + LINES).encode()})
    patch = tmp_path / "revert.patch"
    code, report = wynot_json(repo, "--revert-patch", str(patch), *CHECK)
    assert code == 4
    assert report["status"] == "found"  # the answer stands; the revert does not
    assert not report["revert"]["applies"] and not report["revert"]["verified"]
    assert "conflicts" in report["revert"]["message"] and "v.txt" in report["revert"]["message"]
    assert not patch.exists()


def test_a_revert_after_which_bad_still_fails_exits_4(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = history(make_repo(), {"w.txt": b"boom\n"})
    check = ("--", "sh", "-c", "grep -q ^ok v.txt && ! grep -qs boom w.txt")
    patch = tmp_path / "revert.patch"
    code, report = wynot_json(repo, "--revert-patch", str(patch), *check)
    assert code == 4
    assert report["revert"]["applies"] and not report["revert"]["verified"]
    assert "NOT verified" in report["revert"]["message"]
    assert report["tests"][-1]["phase"] == "revert" and report["tests"][-1]["outcome"] == "fail"


def test_github_format_annotates_and_writes_the_job_summary(
        later_edits: GitRepo, tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    done = run_wynot("good", "bad", "--format", "github", "--no-cache", *CHECK,
                     cwd=later_edits.path, env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "::error file=v.txt,title=wynot,line=1::wynot (found): v.txt:-1,4 is the cause: "
        "without it the test passes"]
    text = summary.read_text()
    assert text.startswith("### wynot: found") and "v: say bad" in text


def eight_hunks(repo: GitRepo) -> GitRepo:
    """a.txt with 8 distant edits; the second one (line 15) makes the test fail."""
    lines = [f"line {n}\n" for n in range(1, 81)]
    repo.git("tag", "good", repo.commit({"a.txt": "".join(lines).encode()}))
    for n in range(5, 80, 10):
        lines[n - 1] = "CAUSE\n" if n == 15 else f"changed {n}\n"
    repo.git("tag", "bad", repo.commit({"a.txt": "".join(lines).encode()}))
    return repo


def test_report_of_a_run_stopped_by_max_tests_shows_its_best_answer(
        make_repo: Callable[..., GitRepo]) -> None:
    repo = eight_hunks(make_repo())
    check = ("--", "sh", "-c", "! grep -q CAUSE a.txt")
    code, live = wynot_json(repo, "--max-tests", "1", *check)
    assert code == 4 and not live["minimal"]
    assert live["status"] == "suspect" and "budget" in live["message"]
    done = run_wynot("report", "--format", "json", cwd=repo.path)
    assert done.returncode == 0, done.stderr
    again = json.loads(done.stdout)
    assert [c["label"] for c in again["changes"]] == [c["label"] for c in live["changes"]]
    assert again["tests"] == live["tests"] and again["status"] == "suspect"
    text = run_wynot("report", cwd=repo.path).stdout
    assert "NOT minimal" in text and "a.txt:-12,7" in text


def test_report_of_an_interrupted_run_shows_the_smallest_failure_so_far(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = eight_hunks(make_repo())
    count, started = tmp_path / "count", tmp_path / "started"
    script = (f"n=$(cat '{count}' 2>/dev/null || echo 0); n=$((n+1)); echo $n > '{count}'; "
              f"if [ $n -ge 4 ]; then touch '{started}'; sleep 60; fi; ! grep -q CAUSE a.txt")
    proc = subprocess.Popen([*wynot_argv(), "good", "bad", "--no-cache", "--strategy", "hunks",
                             "--", "sh", "-c", script], cwd=repo.path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert started.exists(), "the fourth test never started"
    proc.send_signal(signal.SIGINT)
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, stderr
    done = run_wynot("report", "--format", "json", cwd=repo.path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    labels = [c["label"] for c in report["changes"]]
    assert report["partial"] and report["status"] == "suspect" and report["exit_code"] == 130
    assert "a.txt:-12,7" in labels and len(labels) < 8
    assert Path(report["reproduce"]["patch"]).read_bytes().count(b"\n@@ ") + 1 >= len(labels)
    markdown = run_wynot("report", "--format", "markdown", cwd=repo.path).stdout
    assert "did not finish" in markdown and "a.txt:-12,7" in markdown
    listing = run_wynot("runs", cwd=repo.path).stdout
    assert "interrupted" in listing


def test_max_time_stops_the_search_with_exit_4(make_repo: Callable[..., GitRepo]) -> None:
    repo = eight_hunks(make_repo())
    check = ("--", "sh", "-c", "sleep 0.3; ! grep -q CAUSE a.txt")
    code, report = wynot_json(repo, "--max-time", "0.5", *check)
    assert code == 4, report
    assert not report["minimal"] and report["verified"]
    assert report["counts"]["by_phase"].get("search", 0) <= 2


def test_runs_lists_and_clean_deletes(later_edits: GitRepo) -> None:
    for _ in range(3):
        assert run_wynot("good", "bad", "-q", *CHECK, cwd=later_edits.path).returncode == 0
    runs = json.loads(run_wynot("runs", "--json", cwd=later_edits.path).stdout)
    assert len(runs) == 3 and {r["status"] for r in runs} == {"found"}
    assert all(r["good"] == "good" and r["command"] == "grep -q ^ok v.txt" for r in runs)
    assert run_wynot("clean", "--keep", "1", cwd=later_edits.path).returncode == 0
    kept = json.loads(run_wynot("runs", "--json", cwd=later_edits.path).stdout)
    assert [r["id"] for r in kept] == [runs[-1]["id"]]
    state = later_edits.path / ".git" / "wynot"
    assert (state / "cache.sqlite").exists()
    assert run_wynot("clean", cwd=later_edits.path).returncode == 0
    assert not (state / "cache.sqlite").exists()
    assert json.loads(run_wynot("runs", "--json", cwd=later_edits.path).stdout) == []


def test_a_revision_named_like_a_subcommand_is_written_with_commit_suffix(
        later_edits: GitRepo) -> None:
    later_edits.git("tag", "report", "good")
    done = run_wynot("report^{commit}", "bad", "--json", "--no-cache", *CHECK,
                     cwd=later_edits.path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["good"]["name"] == "report^{commit}"


def test_an_error_still_prints_a_json_report(later_edits: GitRepo) -> None:
    done = run_wynot("bad", "good", "--format", "json", "--no-cache", *CHECK,
                     cwd=later_edits.path)
    assert done.returncode == 3
    report = json.loads(done.stdout)
    assert report["status"] == "inconclusive" and "must pass" in report["message"]
    rendered = run_wynot("report", "--format", "json", cwd=later_edits.path)
    assert json.loads(rendered.stdout)["exit_code"] == 3


def test_progress_is_live_on_a_terminal_and_stdout_stays_json(
        later_edits: GitRepo) -> None:
    """stderr is a pseudo-terminal: the running test, its time and the estimate are drawn."""
    leader, follower = pty.openpty()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "WYNOT_"))}
    env.update(COLUMNS="120", TERM="xterm")
    proc = subprocess.Popen([*wynot_argv(), "good", "bad", "--format", "json", "--no-cache",
                             "--", "sh", "-c", "sleep 0.4; grep -q ^ok v.txt"],
                            cwd=later_edits.path, stdout=subprocess.PIPE, stderr=follower,
                            env=env)
    os.close(follower)
    drawn = bytearray()
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        drawn += chunk
    stdout, _ = proc.communicate(timeout=60)
    os.close(leader)
    assert proc.returncode == 0
    assert json.loads(stdout)["status"] == "found"
    screen = drawn.decode("utf-8", "replace")
    assert "running test 1 [premise] commit" in screen
    assert re.search(r"running test \d+ \[search\] 1 changes: 0\.\d s", screen)
    assert "tests done, about 1 left" in screen
    assert "wynot: test   3 [commits]" in screen  # finished tests still get a line
