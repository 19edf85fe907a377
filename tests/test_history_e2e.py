"""The commit phase on the history samples, against `git bisect run`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scripts import ROOT, load_script

from cli_helpers import run_wynot
from test_samples_e2e import samples

# The benchmark's `git bisect run` driver: one way of counting bisect's tests.
bench = load_script(ROOT / "benchmarks" / "bench_history.py", "bench_history")


@pytest.mark.slow
def test_long_history_matches_git_bisect_then_goes_to_the_hunk(tmp_path: Path) -> None:
    case = samples.load_case("long-history")
    repo = samples.make_repo("long-history", tmp_path / "repo")
    test = bench.test_argv(case)
    bisect_first_bad, bisect_tests = bench.git_bisect_run(repo, tmp_path / "clone", test, [])
    result = run_wynot("good", "bad", "--json", "--no-cache", "--", *test, cwd=repo,
                       timeout=600)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    phase = report["commit_phase"]
    assert phase["exact"]
    assert phase["first_bad"]["sha"] == bisect_first_bad
    assert phase["first_bad"]["subject"] == case["strategy_expected"]["first_bad_commit_subject"]
    assert phase["tested"] <= bisect_tests
    commit_tests = [t for t in report["tests"] if t["phase"] == "commits" and t["ran"]]
    assert len(commit_tests) == phase["tested"]
    assert [c["label"] for c in report["changes"]] == case["strategy_expected"]["expected"]
    assert all(c["commit"]["sha"] == bisect_first_bad for c in report["changes"])


@pytest.mark.slow
def test_merge_sample_names_changes_from_both_branches(tmp_path: Path) -> None:
    case = samples.load_case("merge-branches")
    repo = samples.make_repo("merge-branches", tmp_path / "repo")
    test = bench.test_argv(case)
    bisect_first_bad, _ = bench.git_bisect_run(repo, tmp_path / "clone", test, ["--first-parent"])
    result = run_wynot("good", "bad", "--json", "--no-cache", "--", *test, cwd=repo,
                       timeout=600)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["commit_phase"]["first_bad"]["sha"] == bisect_first_bad
    assert report["commit_phase"]["combination"]
    expected = case["strategy_expected"]
    assert sorted(c["label"] for c in report["changes"]) == sorted(expected["expected"])
    branch_of = expected["expected_branches"]
    assert {branch_of[c["label"]] for c in report["changes"]} == {
        "feature/semicolons", "feature/export-via-csvio"}
    assert report["verified"] and report["minimal"]
