#!/usr/bin/env python3
"""Culprit finding with a flaky test: plain bisection, bisection with reruns, wynot's finder.

    python benchmarks/bench_flaky.py [--commits 300] [--seeds 20] [--rates 0.1,0.2,0.3]
                                     [--reruns 3] [--confidence 0.95]
    python benchmarks/bench_flaky.py --real 3 [--commits 100] [--rates 0.3] [--wynot CMD]

Each generated history has ``--commits`` commits in first-parent order (0 is
GOOD, the last is BAD), about 10% of them unbuildable (the test exits 125:
UNRESOLVED). With a culprit, every commit from it on fails; every commit
before it fails at random with the flake rate. Without one (a "flake only"
history) every commit fails at random with the flake rate and BAD's failure
was one of those. GOOD's PASS and BAD's FAIL are given, as to `git bisect`.

The oracle is pure (no repository): plain bisection here is wynot's
:func:`wynot.bisect.bisect`, the same search `git bisect run` makes, over the
same oracle. Bisection with reruns runs each commit up to ``--reruns`` times
and calls it bad only if every run fails. The last two methods run
the finder twice on the same history, the second run weighing the first
run's observations as wynot's cache makes a rerun do: after a first run cut
off at 10 tests (both runs' tests count), and at confidence 0.99 after a run
at 0.95 (only the second run's tests count).
For each (rate, method) it prints
the share of runs that name the right answer (the culprit, or "flaky: no
culprit" for flake-only histories) and the mean and maximum number of tests.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wynot.bisect import bisect  # noqa: E402
from wynot.flaky import find_culprit  # noqa: E402
from wynot.outcome import Outcome  # noqa: E402

Oracle = Callable[[int], Outcome]
# a method's answer, or (answer, runs that do not count)
Method = Callable[[int, Oracle], "int | None | tuple[int | None, int]"]


def make_history(commits: int, rate: float, seed: int,
                 flake_only: bool) -> tuple[int | None, Oracle]:
    """The culprit (None for a flake-only history) and an oracle that draws each run."""
    rng = random.Random(seed)
    unbuildable = {i for i in range(1, commits - 1) if rng.random() < 0.1}
    buildable = [i for i in range(1, commits) if i not in unbuildable]
    culprit = None if flake_only else rng.choice(buildable)

    def test(i: int) -> Outcome:
        if i in unbuildable:
            return Outcome.UNRESOLVED
        if culprit is not None and i >= culprit:
            return Outcome.FAIL
        return Outcome.FAIL if rng.random() < rate else Outcome.PASS

    return culprit, test


def plain(commits: int, test: Oracle) -> int | None:
    return bisect(commits, test).first_bad


def with_reruns(reruns: int) -> Method:
    def method(commits: int, test: Oracle) -> int | None:
        def rerun(i: int) -> Outcome:
            for _ in range(reruns):
                outcome = test(i)
                if outcome is not Outcome.FAIL:
                    return outcome
            return Outcome.FAIL
        return bisect(commits, rerun).first_bad
    return method


def finder(confidence: float) -> Method:
    def method(commits: int, test: Oracle) -> int | None:
        return find_culprit(commits, test, confidence=confidence).first_bad
    return method


def finder_again(confidence: float, first_confidence: float, first_budget: int | None,
                 count_first: bool) -> Method:
    """The finder run a second time on the same history, weighing the first run's
    observations as wynot's cache makes a rerun do. The first run stops at
    ``first_confidence`` or after ``first_budget`` tests (a CI time limit); its
    tests count too when ``count_first``."""
    def method(commits: int, test: Oracle) -> tuple[int | None, int]:
        first = find_culprit(commits, test, confidence=first_confidence,
                             max_tests=first_budget)
        earlier = [(0, Outcome.PASS), *zip(first.tested, first.outcomes, strict=True)]
        again = find_culprit(commits, test, confidence=confidence, observations=earlier)
        return again.first_bad, 0 if count_first else len(first.tested)
    return method


def measure(method: Method, commits: int, rate: float, seeds: int,
            flake_only: bool) -> tuple[float, float, int]:
    right, counts = 0, []
    for seed in range(seeds):
        culprit, oracle = make_history(commits, rate, seed, flake_only)
        runs = 0

        def counted(i: int, oracle: Oracle = oracle) -> Outcome:
            nonlocal runs
            runs += 1
            return oracle(i)

        answer = method(commits, counted)
        if isinstance(answer, tuple):  # (answer, runs that do not count)
            answer, discount = answer
            runs -= discount
        right += answer == culprit
        counts.append(runs)
    return right / seeds, sum(counts) / seeds, max(counts)


CHECK = """\
import os, pathlib, random, sys
if pathlib.Path("skip.txt").exists():
    sys.exit(125)
state = pathlib.Path(os.environ["FLAKE_STATE"])
number = int(state.read_text()) if state.exists() else 0
state.write_text(str(number + 1))
if pathlib.Path("broken.txt").exists():
    sys.exit(1)
rate = float(os.environ["FLAKE_RATE"])
sys.exit(1 if random.Random(os.environ["FLAKE_SEED"] + str(number)).random() < rate else 0)
"""


def make_repository(path: Path, commits: int, seed: int) -> str:
    """A history like make_history's, as git commits; returns the culprit's subject."""
    rng = random.Random(seed)
    culprit = rng.randint(1, commits)
    env = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.com"}

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(path), *args], check=True, capture_output=True,
                       env={**env, "PATH": "/usr/bin:/bin"})

    path.mkdir()
    git("init", "-q")
    (path / "check.py").write_text(CHECK)
    git("add", "-A")
    git("commit", "-qm", "good")
    git("tag", "good")
    for i in range(1, commits + 1):
        (path / "skip.txt").unlink(missing_ok=True)
        (path / f"log{i}.txt").write_text(f"{i}\n")
        if i == culprit:
            (path / "broken.txt").write_text("broken\n")
        elif i < commits and rng.random() < 0.1:
            (path / "skip.txt").write_text("cannot build\n")
        git("add", "-A")
        git("commit", "-qm", f"commit {i}")
    git("tag", "bad")
    return f"commit {culprit}"


def measure_real(wynot: list[str], commits: int, rate: float, seed: int,
                 confidence: float) -> tuple[bool, int, bool, int]:
    """(git bisect right, its tests, wynot right, its commit-phase tests) on one repository."""
    with tempfile.TemporaryDirectory(prefix="wynot-bench-flaky-") as tmp:
        repo = Path(tmp) / "repo"
        culprit = make_repository(repo, commits, seed)
        env = {"FLAKE_RATE": str(rate), "FLAKE_SEED": str(seed),
               "PATH": "/usr/bin:/bin:" + str(Path(sys.executable).parent)}
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "bisect", "start", "bad", "good"], check=True,
                       capture_output=True)
        run = subprocess.run(["git", "-C", str(clone), "bisect", "run", sys.executable,
                              "check.py"], capture_output=True, text=True, check=False,
                             env={**env, "FLAKE_STATE": str(Path(tmp) / "bisect-runs")})
        log = subprocess.run(["git", "-C", str(clone), "bisect", "log"], capture_output=True,
                             text=True, check=True).stdout
        marks = sum(1 for line in log.splitlines()
                    if line.startswith(("git bisect good", "git bisect bad", "git bisect skip")))
        named = run.stdout.split("is the first bad commit", 1)[-1][:400]
        bisect_right = f"    {culprit}\n" in named
        done = subprocess.run([*wynot, "-C", str(repo), "--json", "--no-cache", "-q",
                               "--flaky", "on", "--confidence", str(confidence),
                               "--strategy", "commits", "good", "bad", "--",
                               sys.executable, "check.py"], capture_output=True, text=True,
                              check=False,
                              env={**env, "FLAKE_STATE": str(Path(tmp) / "wynot-runs")})
        report = json.loads(done.stdout)
        phase = report.get("commit_phase") or {}
        wynot_right = (done.returncode == 0 and phase.get("exact")
                       and phase["first_bad"].get("subject") == culprit)
        tests = sum(1 for t in report["tests"] if t["ran"] and t["phase"] == "commits")
        return bisect_right, marks, bool(wynot_right), tests


def real(args: argparse.Namespace) -> int:
    wynot = shlex.split(args.wynot)
    print("| flake rate | seed | git bisect run right | its tests | wynot --flaky on right "
          "| its commit tests |")
    print("| --- | --- | --- | --- | --- | --- |")
    for rate in (float(r) for r in args.rates.split(",")):
        for seed in range(args.real):
            b_right, b_tests, w_right, w_tests = measure_real(wynot, args.commits, rate, seed,
                                                              args.confidence)
            print(f"| {rate} | {seed} | {'yes' if b_right else 'NO'} | {b_tests} "
                  f"| {'yes' if w_right else 'NO'} | {w_tests} |", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--rates", default="0.1,0.2,0.3")
    parser.add_argument("--reruns", type=int, default=3)
    parser.add_argument("--confidence", type=float, default=0.95)
    parser.add_argument("--real", type=int, default=0, metavar="K",
                        help="run K real repositories per rate through git bisect and wynot")
    parser.add_argument("--wynot", default="wynot", help="the wynot command (default: wynot)")
    args = parser.parse_args(argv)
    if args.real:
        return real(args)
    methods: dict[str, Method] = {
        "plain bisection": plain,
        f"bisection, {args.reruns} reruns": with_reruns(args.reruns),
        f"wynot finder ({args.confidence})": finder(args.confidence),
        f"wynot finder ({args.confidence}) stopped at 10 tests, then run again (both counted)":
            finder_again(args.confidence, args.confidence, 10, True),
        "wynot finder (0.99) after a run at 0.95 (the second run's tests)":
            finder_again(0.99, 0.95, None, False),
    }
    print("| history | flake rate | method | right | tests (mean) | tests (max) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for flake_only in (False, True):
        for rate in (float(r) for r in args.rates.split(",")):
            for name, method in methods.items():
                share, mean, most = measure(method, args.commits, rate, args.seeds, flake_only)
                kind = "flake only" if flake_only else "culprit"
                print(f"| {kind} | {rate} | {name} | {share:.0%} | {mean:.1f} | {most} |",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
