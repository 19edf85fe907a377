"""A flaky test in the hunk phase (decisive FAILs confirmed by reruns) and earlier runs'
observations as evidence for the commit phase's flake-aware finder."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from test_flaky_cli import CHECK, flaky_history, wynot

from cli_helpers import run_wynot
from conftest import GitRepo
from wynot.flaky import estimate_flake_rate
from wynot.flaky_phase import FlakyOptions, confirm_runs, premise_flake_rate
from wynot.outcome import Outcome
from wynot.result import TestRecord as Record

FILES = 8
PASS, FAIL = Outcome.PASS, Outcome.FAIL


def records(*outcomes: Outcome) -> list[Record]:
    return [Record(n, "premise", frozenset(), o, "", 0.0, "", "run")
            for n, o in enumerate(outcomes)]


def test_the_hunk_phase_rate_and_reruns_follow_the_premise() -> None:
    sound = estimate_flake_rate([PASS] * 3, [FAIL] * 3)
    shaky = estimate_flake_rate([PASS, FAIL, PASS], [FAIL] * 3)
    assert 0 < sound < shaky < 0.5
    good, bad = records(PASS, PASS, PASS), records(FAIL, FAIL, FAIL)
    assert premise_flake_rate(FlakyOptions(), good, bad) is None
    assert premise_flake_rate(FlakyOptions(mode="auto"), good, bad) is None
    assert premise_flake_rate(FlakyOptions(mode="on"), good, bad) == sound
    assert premise_flake_rate(FlakyOptions(mode="auto"), records(PASS, FAIL, PASS),
                              bad) == shaky
    assert confirm_runs(FlakyOptions(), None) == 1  # no flakes: one FAIL decides
    assert confirm_runs(FlakyOptions(repeat=4), None) == 4
    assert confirm_runs(FlakyOptions(mode="on"), 0.3) == 3  # 0.3 ** 3 <= 0.05
    assert confirm_runs(FlakyOptions(mode="on", confidence=0.99), 0.3) == 4


def hunk_repo(repo: GitRepo, check: bytes = CHECK) -> None:
    """GOOD and BAD one commit apart: eight unrelated files change, value.txt breaks."""
    good = {"check.py": check, "value.txt": b"fine\n",
            **{f"part{i}.txt": f"part {i}\n".encode() for i in range(FILES)}}
    repo.commit(good, "good")
    repo.git("tag", "good")
    bad = {**good, "value.txt": b"broken\n",
           **{f"part{i}.txt": f"part {i}, changed\n".encode() for i in range(FILES)}}
    repo.commit(bad, "bad")
    repo.git("tag", "bad")


def search_runs(report: dict, phases: tuple[str, ...] = ("search",)) -> list[tuple[int, str]]:
    """(size, outcome) of each test the search really ran, in order."""
    return [(t["changes"], t["outcome"]) for t in report["tests"]
            if t["phase"] in phases and t["ran"]]


def test_a_flaky_fail_does_not_decide_a_hunk_search_step(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = make_repo()
    hunk_repo(repo)
    # Plain: runs 0 and 1 are the premise; the search's first runs fail at random.
    flakes = [2, 4, 6]
    code, plain = wynot(repo, tmp_path, "--strategy", "hunks",
                        FLAKE_FAILS=",".join(map(str, flakes)))
    assert code != 0 or [c["path"] for c in plain["changes"]] != ["value.txt"]
    # --flaky on: GOOD and BAD run 3 times each (runs 0-5), so the same search
    # steps come 4 runs later; each FAIL there is run again, and passes.
    (tmp_path / "runs").unlink()
    code, report = wynot(repo, tmp_path, "--strategy", "hunks", "--flaky", "on",
                         FLAKE_FAILS=",".join(str(n + 4) for n in flakes))
    assert code == 0 and report["status"] == "found", report["message"]
    assert [c["path"] for c in report["changes"]] == ["value.txt"]
    runs = search_runs(report)
    overturned = [size for (size, outcome), after in zip(runs, runs[1:], strict=False)
                  if outcome == "fail" and after == (size, "pass")]
    assert overturned, runs  # a FAIL was run again at once, and its PASS decided the step
    premise = [t for t in report["tests"] if t["phase"] == "premise"]
    assert len(premise) == 6


def test_without_flakes_the_hunk_search_is_unchanged(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = make_repo()
    hunk_repo(repo)
    _, plain = wynot(repo, tmp_path, "--strategy", "hunks")
    code, auto = wynot(repo, tmp_path, "--strategy", "hunks", "--flaky", "auto")
    assert code == 0 and [c["path"] for c in auto["changes"]] == ["value.txt"]
    phases = ("search", "label", "verify")
    assert search_runs(auto, phases) == search_runs(plain, phases)
    for phase in phases:
        assert auto["counts"]["by_phase"].get(phase) == plain["counts"]["by_phase"].get(phase)
    assert auto["counts"]["by_phase"]["premise"] == 6


def run_cached(repo: GitRepo, tmp_path: Path, *args: str) -> tuple[int, dict, str]:
    """wynot with the cache (the helper of test_flaky_cli runs with --no-cache)."""
    done = run_wynot("good", "bad", "--json", *args, "--", "python3", "check.py",
                     cwd=repo.path, env={"FLAKE_STATE": str(tmp_path / "runs"),
                                         "FLAKE_RATE": "0.3"})
    assert done.stdout, done.stderr
    return done.returncode, json.loads(done.stdout), done.stderr


def test_a_rerun_adds_evidence_to_what_earlier_runs_observed(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = make_repo()
    flaky_history(repo, 60, culprit=23)
    args = ("--flaky", "on", "--strategy", "commits")
    code, first, _ = run_cached(repo, tmp_path, *args)
    assert code == 0 and first["commit_phase"]["first_bad"]["subject"] == "the culprit"
    ran_first = [t for t in first["tests"] if t["ran"]]
    assert not any(t["earlier_run"] for t in first["tests"])
    code, second, stderr = run_cached(repo, tmp_path, *args)
    assert code == 0 and second["commit_phase"]["first_bad"]["subject"] == "the culprit"
    replayed = [t for t in second["tests"] if t["earlier_run"]]
    # every run of the first search is evidence now, announced and counted as replays
    assert len(replayed) == len(ran_first) == second["from_cache"]
    assert f"weighing {len(ran_first)} observations" in stderr
    again = run_wynot("report", "--format", "json", cwd=repo.path)  # the run, read back
    assert json.loads(again.stdout)["from_cache"] == second["from_cache"], again.stderr
    text = run_wynot("report", cwd=repo.path).stdout
    assert f"{len(ran_first)} outcomes from the cache of earlier runs" in text
    ran_second = [t for t in second["tests"] if t["phase"] == "commits" and t["ran"]]
    ran_commits_first = [t for t in ran_first if t["phase"] == "commits"]
    assert len(ran_second) < len(ran_commits_first)
    # --flaky auto takes the finder when earlier runs disagree with themselves on a
    # commit, though its own premise runs may not; --repeat alone bisects, unweighed
    code, auto, stderr = run_cached(repo, tmp_path, "--flaky", "auto", "--strategy", "commits")
    assert "weighing" in stderr and auto["commit_phase"]["flaky"] is not None
    code, repeat, stderr = run_cached(repo, tmp_path, "--repeat", "2", "--strategy", "commits")
    assert code == 0  # BAD (after the culprit) always fails: no reason for the finder
    assert "weighing" not in stderr and repeat["commit_phase"].get("flaky") is None
    # --no-cache starts from nothing again
    code, fresh, stderr = run_cached(repo, tmp_path, *args, "--no-cache")
    assert not any(t["earlier_run"] for t in fresh["tests"]) and "weighing" not in stderr
    cleaned = run_wynot("clean", "--keep", "4", cwd=repo.path)  # 5 runs so far
    assert "deleted 1 run, kept the newest 4" in cleaned.stdout, cleaned.stderr


def test_without_a_commit_phase_a_bad_that_passes_a_rerun_ends_the_run(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    """BAD passing a rerun is "flaky: no culprit" (exit 5, status flaky) with or
    without a commit phase: the same evidence, the same verdict."""
    repo = make_repo()
    flaky_history(repo, 3, culprit=None)
    # run 0: GOOD passes; run 1: BAD fails (a flake); its reruns (3, 4) pass
    code, report = wynot(repo, tmp_path, "--strategy", "hunks", "--flaky", "on",
                         FLAKE_FAILS="1")
    assert code == 5 and report["status"] == "flaky"
    assert "BAD passed when run again" in report["message"]
    assert not [t for t in report["tests"] if t["phase"] == "search"]
    markdown = run_wynot("good", "bad", "--format", "markdown", "--no-cache", "-q",
                         "--strategy", "hunks", "--flaky", "on", "--", "python3", "check.py",
                         cwd=repo.path, env={"FLAKE_STATE": str(tmp_path / "md-runs"),
                                             "FLAKE_FAILS": "1"})
    assert markdown.returncode == 5 and "### wynot: flaky" in markdown.stdout, markdown.stdout
    # the commit phase, given a BAD that fails once and then passes, says the same
    # with a commit phase: runs 0-2 are GOOD's, 3-5 BAD's; BAD fails once, then passes
    (tmp_path / "commits").mkdir()
    code, report = wynot(repo, tmp_path / "commits", "--flaky", "on", FLAKE_FAILS="3")
    assert code == 5 and report["status"] == "flaky", report


# Fails only when value.txt is broken *and* part0.txt changed: an answer of two
# causes, each labelled by a run that removes it and passes.
PAIR_CHECK = CHECK.replace(b'if "broken" in pathlib.Path("value.txt").read_text():',
                           b'if ("broken" in pathlib.Path("value.txt").read_text()\n'
                           b'        and "changed" in pathlib.Path("part0.txt").read_text()):')


def test_a_flaky_fail_does_not_drop_a_cause_while_labelling(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = make_repo()
    assert PAIR_CHECK != CHECK
    hunk_repo(repo, PAIR_CHECK)
    code, clean = wynot(repo, tmp_path, "--strategy", "hunks", "--flaky", "on")
    assert code == 0, clean["message"]
    assert sorted(c["path"] for c in clean["changes"]) == ["part0.txt", "value.txt"]
    ran = [t for t in clean["tests"] if t["ran"]]  # one check.py run each, in order
    removals = [n for n, t in enumerate(ran) if t["phase"] == "label" and t["outcome"] == "pass"]
    assert removals, ran  # a cause's removal passed: that is where a flake would hurt
    (tmp_path / "runs").unlink()
    code, report = wynot(repo, tmp_path, "--strategy", "hunks", "--flaky", "on",
                         FLAKE_FAILS=str(removals[0]))
    assert code == 0 and report["status"] == "found", report["message"]
    assert sorted(c["path"] for c in report["changes"]) == ["part0.txt", "value.txt"]
    labels = [t for t in report["tests"] if t["phase"] == "label" and t["ran"]]
    assert [t["outcome"] for t in labels].count("fail") >= 1  # the flake, run again
