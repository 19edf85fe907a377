"""--repeat, --flaky and --confidence end to end, with a test that fails at random."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

from cli_helpers import run_wynot
from conftest import GitRepo

# Fails when the tree is broken; else fails on the runs FLAKE_FAILS lists, or at random
# with FLAKE_RATE (seeded by the run's number, kept in FLAKE_STATE): reproducible.
CHECK = b"""\
import os, pathlib, random, sys
if pathlib.Path("skip.txt").exists():
    sys.exit(125)
state = pathlib.Path(os.environ["FLAKE_STATE"])
number = int(state.read_text()) if state.exists() else 0
state.write_text(str(number + 1))
if "broken" in pathlib.Path("value.txt").read_text():
    sys.exit(1)
if str(number) in os.environ.get("FLAKE_FAILS", "").split(","):
    sys.exit(1)
sys.exit(1 if random.Random(number).random() < float(os.environ.get("FLAKE_RATE", "0")) else 0)
"""


def flaky_history(repo: GitRepo, commits: int, culprit: int | None) -> None:
    """GOOD, then ``commits`` commits (tagged bad at the end), some unbuildable."""
    rng = random.Random(commits)
    files: dict[str, bytes] = {"check.py": CHECK, "value.txt": b"fine\n"}
    repo.commit(files, "good")
    repo.git("tag", "good")
    for i in range(1, commits + 1):
        files = {k: v for k, v in files.items() if k != "skip.txt"}
        files[f"log{i}.txt"] = f"{i}\n".encode()
        if i == culprit:
            files["value.txt"] = b"broken\n"
        elif i < commits and rng.random() < 0.1:
            files["skip.txt"] = b"cannot build\n"
        repo.commit(files, "the culprit" if i == culprit else f"commit {i}")
    repo.git("tag", "bad")


def wynot(repo: GitRepo, tmp_path: Path, *args: str, **env: str) -> tuple[int, dict]:
    done = run_wynot("good", "bad", "--json", "--no-cache", "-q", *args, "--", "python3",
                     "check.py", cwd=repo.path,
                     env={"FLAKE_STATE": str(tmp_path / "runs"), **env})
    assert done.stdout, done.stderr
    return done.returncode, json.loads(done.stdout)


def test_the_finder_names_the_culprit_despite_flaky_failures(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = make_repo()
    flaky_history(repo, 60, culprit=23)
    code, report = wynot(repo, tmp_path, "--flaky", "on", "--strategy", "commits",
                         FLAKE_RATE="0.3")
    assert code == 0 and report["status"] == "found"
    assert report["commit_phase"]["first_bad"]["subject"] == "the culprit"
    commit_fails = [t for t in report["tests"]
                    if t["phase"] == "commits" and t["outcome"] == "fail"]
    assert any(t["commit"] != report["commit_phase"]["first_bad"]["sha"]
               for t in commit_fails)  # flaky failures happened and were outweighed


def test_plain_bisection_is_misled_where_the_finder_is_not(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = make_repo()
    flaky_history(repo, 60, culprit=23)
    # runs 0 and 1 are GOOD and BAD, run 2 the middle (above the culprit), run 3 the
    # next middle, below the culprit: it fails
    code, report = wynot(repo, tmp_path, "--strategy", "commits", FLAKE_FAILS="3")
    assert code == 0 and report["commit_phase"]["first_bad"]["subject"] != "the culprit"
    (tmp_path / "runs").unlink()
    code, report = wynot(repo, tmp_path, "--repeat", "3", "--strategy", "commits",
                         FLAKE_FAILS="3")
    assert code == 0 and report["commit_phase"]["first_bad"]["subject"] == "the culprit"


def test_a_failure_that_does_not_reproduce_is_flaky_with_exit_5(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = make_repo()
    flaky_history(repo, 30, culprit=None)
    # GOOD passes (run 0), BAD fails once (run 1), then passes its reruns
    code, report = wynot(repo, tmp_path, "--repeat", "3", FLAKE_FAILS="1")
    assert code == 5 and report["status"] == "flaky"
    assert "no culprit" in report["message"]
    assert report["changes"] == []
    assert not [t for t in report["tests"] if t["phase"] == "commits"]


def test_auto_switches_to_the_finder_when_the_premise_is_flaky(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = make_repo()
    flaky_history(repo, 40, culprit=None)
    # premise: GOOD runs 0-2, BAD runs 3-5; all of BAD's fail, GOOD's second fails
    code, report = wynot(repo, tmp_path, "--flaky", "auto",
                         FLAKE_FAILS="1,3,4,5", FLAKE_RATE="0.3")
    assert code == 5 and report["status"] == "flaky"
    premise = [t for t in report["tests"] if t["phase"] == "premise"]
    assert len(premise) == 6


def test_the_hunk_phase_confirms_its_answer_by_reruns(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo = make_repo()
    flaky_history(repo, 12, culprit=5)
    code, report = wynot(repo, tmp_path, "--flaky", "on", FLAKE_RATE="0.3")
    assert code == 0 and report["status"] == "found", report["message"]
    assert report["commit_phase"]["first_bad"]["subject"] == "the culprit"
    assert [c["path"] for c in report["changes"]] == ["value.txt"]
    verify = [t for t in report["tests"] if t["phase"] == "verify"]
    rate = report["commit_phase"]["flaky"]["flake_rate"]
    assert rate > 0 and len(verify) >= 2 and all(t["outcome"] == "fail" for t in verify)


# Fails when any file holds "BUG"; else on the runs FLAKE_FAILS lists (numbered from 1).
SCRIPTED = b"""\
import os, pathlib, sys
state = pathlib.Path(os.environ["FLAKE_STATE"])
number = (int(state.read_text()) if state.exists() else 0) + 1
state.write_text(str(number))
if any("BUG" in p.read_text() for p in pathlib.Path(".").glob("f*.txt")):
    sys.exit(1)
sys.exit(1 if str(number) in os.environ.get("FLAKE_FAILS", "").split(",") else 0)
"""


def test_flaky_failures_overruled_by_a_pass_are_not_searched_again(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    # GOOD fails two of its premise reruns (runs 3 and 4) and a single change
    # (run 12) fails once before its confirmation passes: none of those FAILs
    # stands, and none may be taken for a smaller failing configuration (GOOD's
    # empty one made the context search crash on "dd_plus needs at least one change").
    repo = make_repo()
    _one_commit_repo(repo)
    done = run_wynot("good", "bad", "--json", "--no-cache", "-q", "--flaky", "on", "--",
                     "python3", "check.py", cwd=repo.path,
                     env={"FLAKE_STATE": str(tmp_path / "runs"),
                          "FLAKE_FAILS": "3,4,8,9,10,12"})
    assert "internal error" not in done.stderr, done.stderr
    report = json.loads(done.stdout)
    assert done.returncode in (0, 4), done.stderr
    if done.returncode == 0:
        assert [c["label"] for c in report["changes"]] == ["f5.txt:-28,7"]


def _one_commit_repo(repo: GitRepo) -> None:
    lines = b"".join(b"l %d\n" % n for n in range(40))
    good = {f"f{i}.txt": lines for i in range(8)}
    good["check.py"] = SCRIPTED
    repo.commit(good, "good")
    repo.git("tag", "good")
    bad = {k: v.replace(b"l 5\n", b"l 5 c\n") for k, v in good.items()}
    bad["check.py"] = SCRIPTED
    bad["f5.txt"] = bad["f5.txt"].replace(b"l 30\n", b"l 30 BUG\n")
    repo.commit(bad, "bad")
    repo.git("tag", "bad")


def test_a_flaky_failure_of_good_alone_does_not_end_the_hunk_phase(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    # One commit between GOOD and BAD: no commit phase. GOOD's first run fails at
    # random; as in a commit phase, GOOD is run again and its PASS is trusted.
    repo = make_repo()
    _one_commit_repo(repo)
    for options in (("--flaky", "on"), ("--flaky", "auto"), ("--repeat", "3")):
        (tmp_path / "runs").unlink(missing_ok=True)
        done = run_wynot("good", "bad", "--json", "--no-cache", "-q", *options, "--",
                         "python3", "check.py", cwd=repo.path,
                         env={"FLAKE_STATE": str(tmp_path / "runs"), "FLAKE_FAILS": "1"})
        report = json.loads(done.stdout)
        assert done.returncode == 0, (options, report["message"])
        assert [c["label"] for c in report["changes"]] == ["f5.txt:-28,7"]
        goods = [t for t in report["tests"] if t["phase"] == "premise" and not t["changes"]]
        assert goods[0]["outcome"] == "fail" and any(t["outcome"] == "pass" for t in goods)
    # GOOD failing every one of its runs still breaks the premise
    (tmp_path / "runs").unlink()
    done = run_wynot("good", "bad", "--json", "--no-cache", "-q", "--flaky", "on", "--",
                     "python3", "check.py", cwd=repo.path,
                     env={"FLAKE_STATE": str(tmp_path / "runs"), "FLAKE_FAILS": "1,2,3"})
    assert done.returncode == 3, done.stderr
