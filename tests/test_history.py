"""The commit phase end to end: bisect, skips, strategies, merges, attribution."""

from __future__ import annotations

import json

import pytest

from cli_helpers import run_wynot
from conftest import GitRepo

PAD = b"".join(b"pad %d\n" % i for i in range(10))
# FAIL when value.txt says 2; cannot judge (125) when build.txt says broken.
CHECK = ["--", "sh", "-c", "grep -q broken build.txt && exit 125; grep -q 1 value.txt"]


def tree(i: int, *, value: int, broken: bool = False) -> dict[str, bytes]:
    return {
        "value.txt": b"%d\n" % value,
        "build.txt": b"broken\n" if broken else b"fine\n",
        "counter.txt": b"%d\n" % i + PAD + b"tail %d\n" % (i % 3),
        "notes.txt": b"note %d\n" % (i // 4),
    }


@pytest.fixture
def linear(make_repo) -> GitRepo:
    """30 commits; commit 17 sets value to 2 (with other edits); 16 does not build."""
    repo = make_repo("linear")
    for i in range(30):
        repo.commit(tree(i, value=2 if i >= 17 else 1, broken=i == 12), f"commit {i}")
        if i == 0:
            repo.git("tag", "good")
    repo.git("tag", "bad")
    return repo


def test_auto_bisects_then_searches_inside_the_first_bad_commit(linear: GitRepo) -> None:
    result = run_wynot("good", "bad", "--no-cache", *CHECK, cwd=linear.path)
    assert result.returncode == 0, result.stderr
    first_bad = linear.text("rev-parse", "bad~12")
    assert f"{first_bad} is the first bad commit" in result.stdout
    assert "    commit 17" in result.stdout
    assert "# value.txt:-1,1 - cause" in result.stdout
    assert f"(from {first_bad[:12]} commit 17)" in result.stdout


def test_json_names_the_commit_of_each_change(linear: GitRepo) -> None:
    result = run_wynot("good", "bad", "--json", "--no-cache", *CHECK, cwd=linear.path)
    report = json.loads(result.stdout)
    phase = report["commit_phase"]
    assert phase["first_bad"]["subject"] == "commit 17" and phase["exact"]
    assert phase["commits"] == 28
    assert phase["tested"] <= 6
    [change] = report["changes"]
    assert change["label"] == "value.txt:-1,1"
    assert change["commit"]["subject"] == "commit 17"
    assert change["commit"]["author"] == "Ada Tester"
    commit_tests = [t for t in report["tests"] if t["phase"] == "commits"]
    assert len(commit_tests) == phase["tested"]
    assert len({t["commit"] for t in commit_tests}) == len(commit_tests)


def test_strategy_commits_stops_after_the_commit_phase(linear: GitRepo) -> None:
    result = run_wynot("good", "bad", "--strategy", "commits", "--json", "--no-cache", *CHECK,
                       cwd=linear.path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["changes"] == [] and report["total_changes"] is None
    assert {t["phase"] for t in report["tests"]} == {"premise", "commits"}


def test_strategy_hunks_searches_the_whole_diff(linear: GitRepo) -> None:
    result = run_wynot("good", "bad", "--strategy", "hunks", "--json", "--no-cache", *CHECK,
                       cwd=linear.path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert "commit_phase" not in report
    assert [c["label"] for c in report["changes"]] == ["value.txt:-1,1"]


def test_skipped_commits_next_to_the_cause_give_a_range(make_repo) -> None:
    repo = make_repo("skips")
    for i in range(12):
        repo.commit(tree(i, value=2 if i >= 6 else 1, broken=i == 5), f"commit {i}")
        if i == 0:
            repo.git("tag", "good")
    result = run_wynot("good", "HEAD", "--no-cache", *CHECK, cwd=repo.path)
    assert result.returncode == 0, result.stderr
    assert "The first bad commit could be any of:" in result.stdout
    assert "# value.txt:-1,1 - cause" in result.stdout


def test_merge_of_two_passing_branches_searches_both(make_repo) -> None:
    """Branch a changes the separator, branch b adds a file that relies on the
    old one: each passes alone, their merge fails."""
    repo = make_repo("merges")
    check = ["--", "sh", "-c", 'test "$(cat sep.txt)" = "," || ! test -f user.txt']
    base_files = {"sep.txt": b",\n", "readme.txt": b"base\n" + PAD}
    base = repo.commit(base_files, "base")
    repo.git("tag", "good")
    a = repo.commit({**base_files, "sep.txt": b";\n"}, "a: semicolons")
    repo.git("reset", "-q", "--hard", base)
    b = repo.commit({**base_files, "user.txt": b"uses the separator\n"}, "b: add user")
    repo.git("reset", "-q", "--hard", base)
    main1 = repo.commit({**base_files, "readme.txt": b"base, edited\n" + PAD}, "main work")
    merged_a = _merge(repo, main1, a, {"sep.txt": b";\n", "readme.txt": b"base, edited\n" + PAD},
                      "merge a")
    _merge(repo, merged_a, b, {"sep.txt": b";\n", "readme.txt": b"base, edited\n" + PAD,
                               "user.txt": b"uses the separator\n"}, "merge b")
    result = run_wynot("good", "HEAD", "--json", "--no-cache", *check, cwd=repo.path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["commit_phase"]["first_bad"]["subject"] == "merge b"
    assert report["commit_phase"]["combination"]
    subjects = {c["commit"]["subject"] for c in report["changes"]}
    assert subjects == {"a: semicolons", "b: add user"}


def _merge(repo: GitRepo, first: str, second: str, files: dict[str, bytes], message: str) -> str:
    repo.git("reset", "-q", "--hard", first)
    single = repo.commit(files, message)
    tree_sha = repo.text("rev-parse", f"{single}^{{tree}}")
    merge = repo.text("commit-tree", tree_sha, "-p", first, "-p", second, "-m", message)
    repo.git("reset", "-q", "--hard", merge)
    return merge
