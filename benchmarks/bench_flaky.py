#!/usr/bin/env python3
"""Culprit finding with a flaky test: plain bisection, bisection with reruns, wynot's finder.

    python benchmarks/bench_flaky.py [--commits 300] [--seeds 20] [--rates 0.1,0.2,0.3]
                                     [--reruns 3] [--confidence 0.95]
    python benchmarks/bench_flaky.py --real 3 [--commits 100] [--rates 0.3] [--wynot CMD]
    python benchmarks/bench_flaky.py --bound [--commits 300] [--rates 0.1,0.2,0.3]

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

``--real K`` builds K git repositories per rate and kind of history (with a
culprit, and flake-only, whose BAD fails on its first run, as CI saw it, and
at random after) and runs, each in its own clone or run: ``git bisect run``
(the tests are the runs of check.py), ``git bisect run`` of a wrapper that
runs check.py up to ``--reruns`` times (bad only if every run fails; all its
runs count), and ``wynot --flaky on --strategy commits`` through its CLI (its
commit-phase tests, and every run of check.py, premise included). Bisection
always names a commit, so it is never right on a flake-only history; wynot
is right there when it answers "flaky: no culprit" (exit 5).

``--bound`` prints, for each flake rate, the fewest tests any method can
need on average to name one of ``--commits - 1`` candidate commits: a PASS is
certain, a FAIL is the culprit's or a flake, so one test tells at most
max over q of H(q + (1 - q)f) - (1 - q)H(f) bits (q: the chance that the
tested commit is at or after the culprit), and naming a commit takes
log2(candidates) bits, before any margin for the confidence asked for.
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
from math import log2
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
runs = pathlib.Path(os.environ["FLAKE_STATE"] + ".all")
runs.write_text(str(int(runs.read_text()) + 1 if runs.exists() else 1))
if pathlib.Path("skip.txt").exists():
    sys.exit(125)
if pathlib.Path("last.txt").exists():  # BAD, in a flake-only history: CI saw it fail once
    seen = pathlib.Path(os.environ["FLAKE_STATE"] + ".bad")
    if not seen.exists():
        seen.write_text("1")
        sys.exit(1)
state = pathlib.Path(os.environ["FLAKE_STATE"])
number = int(state.read_text()) if state.exists() else 0
state.write_text(str(number + 1))
if pathlib.Path("broken.txt").exists():
    sys.exit(1)
rate = float(os.environ["FLAKE_RATE"])
sys.exit(1 if random.Random(os.environ["FLAKE_SEED"] + str(number)).random() < rate else 0)
"""
# Bisection with fixed reruns under `git bisect run`: bad only if every run fails.
RERUN = """\
import subprocess, sys
for _ in range(int(sys.argv[1])):
    code = subprocess.run([sys.executable, "check.py"]).returncode
    if code in (0, 125):
        sys.exit(code)
sys.exit(1)
"""


def make_repository(path: Path, commits: int, seed: int, flake_only: bool) -> str | None:
    """A history like make_history's, as git commits; returns the culprit's subject
    (None in a flake-only history, whose last commit adds ``last.txt``)."""
    rng = random.Random(seed)
    culprit = None if flake_only else rng.randint(1, commits)
    env = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.com"}

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(path), *args], check=True, capture_output=True,
                       env={**env, "PATH": "/usr/bin:/bin"})

    path.mkdir()
    git("init", "-q")
    (path / "check.py").write_text(CHECK)
    (path / "rerun.py").write_text(RERUN)
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
        if flake_only and i == commits:
            (path / "last.txt").write_text("BAD\n")
        git("add", "-A")
        git("commit", "-qm", f"commit {i}")
    git("tag", "bad")
    return None if culprit is None else f"commit {culprit}"


def run_bisect(tmp: Path, repo: Path, env: dict[str, str], name: str,
               command: list[str]) -> tuple[str, int]:
    """``git bisect run COMMAND`` in a clone: (its answer's text, runs of check.py)."""
    clone = tmp / name
    subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "bisect", "start", "bad", "good"], check=True,
                   capture_output=True)
    state = tmp / f"{name}-runs"
    run = subprocess.run(["git", "-C", str(clone), "bisect", "run", *command],
                         capture_output=True, text=True, check=False,
                         env={**env, "FLAKE_STATE": str(state)})
    named = run.stdout.split("is the first bad commit", 1)[-1][:400]
    return named, int(Path(f"{state}.all").read_text())


def measure_real(wynot: list[str], commits: int, rate: float, seed: int, confidence: float,
                 reruns: int, flake_only: bool) -> dict[str, tuple[bool, int]]:
    """method -> (right, runs of the test) on one repository, for git bisect run, git
    bisect run with reruns, and wynot (its runs after the premise, and all of them)."""
    with tempfile.TemporaryDirectory(prefix="wynot-bench-flaky-") as tmp_name:
        tmp = Path(tmp_name)
        repo = tmp / "repo"
        culprit = make_repository(repo, commits, seed, flake_only)
        env = {"FLAKE_RATE": str(rate), "FLAKE_SEED": str(seed),
               "PATH": "/usr/bin:/bin:" + str(Path(sys.executable).parent)}
        results: dict[str, tuple[bool, int]] = {}
        for name, command in (("plain", [sys.executable, "check.py"]),
                              ("reruns", [sys.executable, "rerun.py", str(reruns)])):
            named, runs = run_bisect(tmp, repo, env, name, command)
            # bisection always names a commit: right only when there is a culprit
            results[name] = (culprit is not None and f"    {culprit}\n" in named, runs)
        state = tmp / "wynot-runs"
        done = subprocess.run([*wynot, "-C", str(repo), "--json", "--no-cache", "-q",
                               "--flaky", "on", "--confidence", str(confidence),
                               "--strategy", "commits", "good", "bad", "--",
                               sys.executable, "check.py"], capture_output=True, text=True,
                              check=False, env={**env, "FLAKE_STATE": str(state)})
        report = json.loads(done.stdout) if done.stdout.strip() else {}
        phase = report.get("commit_phase") or {}
        if culprit is None:
            right = done.returncode == 5 and report.get("status") == "flaky"
        else:
            right = bool(done.returncode == 0 and phase.get("exact")
                         and phase["first_bad"].get("subject") == culprit)
        tests = sum(1 for t in report.get("tests", []) if t["ran"] and t["phase"] == "commits")
        results["wynot"] = (right, tests)
        results["wynot, all runs"] = (right, int(Path(f"{state}.all").read_text()))
        return results


def real(args: argparse.Namespace) -> int:
    """Real repositories: each method's share right, and its mean and maximum runs."""
    wynot = shlex.split(args.wynot)
    print("| history | flake rate | method | right | tests (mean) | tests (max) |")
    print("| --- | --- | --- | --- | --- | --- |")
    names = {"plain": "git bisect run", "reruns": f"git bisect run, {args.reruns} reruns",
             "wynot": f"wynot --flaky on ({args.confidence}), after the premise",
             "wynot, all runs": "wynot, every run of the test"}
    for flake_only in (False, True):
        for rate in (float(r) for r in args.rates.split(",")):
            found = [measure_real(wynot, args.commits, rate, seed, args.confidence,
                                  args.reruns, flake_only) for seed in range(args.real)]
            kind = "flake only" if flake_only else "culprit"
            for key, name in names.items():
                right = sum(f[key][0] for f in found) / len(found)
                runs = [f[key][1] for f in found]
                print(f"| {kind} | {rate} | {name} | {right:.0%} | "
                      f"{sum(runs) / len(runs):.1f} | {max(runs)} |", flush=True)
    return 0


def entropy(p: float) -> float:
    """The binary entropy of ``p``, in bits."""
    return 0.0 if p <= 0 or p >= 1 else -p * log2(p) - (1 - p) * log2(1 - p)


def bits_per_test(rate: float, steps: int = 10_000) -> float:
    """The most a test can tell about the culprit when a FAIL may be a flake."""
    return max(entropy(q + (1 - q) * rate) - (1 - q) * entropy(rate)
               for q in (i / steps for i in range(1, steps)))


def bound(args: argparse.Namespace) -> int:
    """Print the information bound on the tests of any culprit finder."""
    candidates = args.commits - 1
    plain_tests = log2(candidates)
    print("| flake rate | bits a test tells (most) | tests needed (at least) "
          "| × plain bisection's log2(n) |")
    print("| --- | --- | --- | --- |")
    for rate in (float(r) for r in args.rates.split(",")):
        bits = bits_per_test(rate)
        print(f"| {rate} | {bits:.3f} | {plain_tests / bits:.1f} | "
              f"{1 / bits:.2f} |")
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
    parser.add_argument("--bound", action="store_true",
                        help="print the information bound on the tests, run nothing")
    args = parser.parse_args(argv)
    if args.bound:
        return bound(args)
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
