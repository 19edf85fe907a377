"""The commit phase follows a failing merged branch down to its own first bad commit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_history import _merge

from cli_helpers import run_wynot
from conftest import GitRepo

CHECK = ["sh", "-c", "grep -q 1 value.txt"]


def _line(repo: GitRepo, start: str, files: dict[str, bytes], name: str, count: int,
          bad_from: int | None = None) -> list[str]:
    """``count`` commits on top of ``start``, each changing ``name``.txt; value 2 from
    commit ``bad_from`` on."""
    repo.git("reset", "-q", "--hard", start)
    shas = []
    for i in range(1, count + 1):
        if bad_from is not None and i >= bad_from:
            files["value.txt"] = b"2\n"
        files[f"{name}.txt"] = b"%s %d\n" % (name.encode(), i)
        shas.append(repo.commit(dict(files), f"{name} {i}"))
    return shas


@pytest.fixture
def nested(make_repo) -> GitRepo:
    """main merges feature; feature merged sub; sub's 4th commit breaks the test."""
    repo = make_repo("nested")
    base = {"value.txt": b"1\n", "main.txt": b"main 0\n"}
    good = repo.commit(dict(base), "base")
    repo.git("tag", "good")
    sub = _line(repo, good, dict(base), "sub", 9, bad_from=4)
    feature = _line(repo, good, dict(base), "feature", 2)
    feature_files = {**base, "feature.txt": b"feature 2\n", "sub.txt": b"sub 9\n",
                     "value.txt": b"2\n"}
    merged_sub = _merge(repo, feature[-1], sub[-1], feature_files, "merge sub")
    feature += [merged_sub, *_line(repo, merged_sub, dict(feature_files), "feature", 4)]
    main = _line(repo, good, dict(base), "main", 3)
    main_files = {**feature_files, "feature.txt": b"feature 4\n", "main.txt": b"main 3\n"}
    merged = _merge(repo, main[-1], feature[-1], main_files, "merge feature")
    _line(repo, merged, main_files, "main", 5)
    repo.git("tag", "bad")
    repo.git("tag", "merged", merged)
    repo.git("tag", "culprit", sub[3])
    return repo


def _git_bisect(repo: GitRepo, clone: Path) -> tuple[str, int]:
    from test_history_e2e import bench
    return bench.git_bisect_run(repo.path, clone, CHECK, [])


def test_commit_phase_follows_failing_branches_like_git_bisect(nested: GitRepo,
                                                               tmp_path: Path) -> None:
    culprit = nested.text("rev-parse", "culprit")
    bisect_first_bad, bisect_tests = _git_bisect(nested, tmp_path / "clone")
    assert bisect_first_bad == culprit
    result = run_wynot("good", "bad", "--strategy", "commits", "--json", "--no-cache", "--",
                       *CHECK, cwd=nested.path)
    assert result.returncode == 0, result.stderr
    phase = json.loads(result.stdout)["commit_phase"]
    assert phase["first_bad"]["sha"] == culprit and phase["exact"]
    assert phase["followed_merges"] == [nested.text("rev-parse", "merged"),
                                        nested.text("rev-parse", "merged^2~4")]
    assert phase["commits"] == int(nested.text("rev-list", "--count", "good..bad")) - 1 == 24
    commit_tests = [t for t in json.loads(result.stdout)["tests"] if t["phase"] == "commits"]
    # Line by line costs more than git bisect's halving of the whole graph (11 against 5
    # here, docs/performance.md): a bisection per line and a test of each merged tip.
    assert len(commit_tests) == phase["tested"] <= 3 * bisect_tests
    assert "fails on its own: bisecting the 6 commits of that branch" in result.stderr
    assert "fails on its own: bisecting the 8 commits of that branch" in result.stderr


def test_auto_searches_the_hunks_of_the_branch_commit(nested: GitRepo) -> None:
    """BAD is the merge itself, one step from GOOD on the first-parent line."""
    result = run_wynot("merged^1", "merged", "--no-cache", "--", *CHECK, cwd=nested.path)
    assert result.returncode == 0, result.stderr
    culprit = nested.text("rev-parse", "culprit")
    assert "bisecting 0 commits" not in result.stderr
    assert "bisecting the 0 commits of BAD's first-parent line" in result.stderr
    assert f"{culprit} is the first bad commit" in result.stdout
    assert f"# value.txt:-1,1 - cause: without it the test passes (from {culprit[:12]} sub 4)" \
        in result.stdout
