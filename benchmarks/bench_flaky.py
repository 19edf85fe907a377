#!/usr/bin/env python3
"""Culprit finding with a flaky test: plain bisection, bisection with reruns, wynot's finder.

    python benchmarks/bench_flaky.py [--commits 300] [--seeds 20] [--rates 0.1,0.2,0.3]
                                     [--reruns 3] [--confidence 0.95]

Each generated history has ``--commits`` commits in first-parent order (0 is
GOOD, the last is BAD), about 10% of them unbuildable (the test exits 125:
UNRESOLVED). With a culprit, every commit from it on fails; every commit
before it fails at random with the flake rate. Without one (a "flake only"
history) every commit fails at random with the flake rate and BAD's failure
was one of those. GOOD's PASS and BAD's FAIL are given, as to `git bisect`.

The oracle is pure (no repository): plain bisection here is wynot's
:func:`wynot.bisect.bisect`, the same search `git bisect run` makes, over the
same oracle. Bisection with reruns runs each commit up to ``--reruns`` times
and calls it bad only if every run fails. For each (rate, method) it prints
the share of runs that name the right answer (the culprit, or "flaky: no
culprit" for flake-only histories) and the mean and maximum number of tests.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wynot.bisect import bisect  # noqa: E402
from wynot.flaky import find_culprit  # noqa: E402
from wynot.outcome import Outcome  # noqa: E402

Oracle = Callable[[int], Outcome]
Method = Callable[[int, Oracle], "int | None"]


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

        right += method(commits, counted) == culprit
        counts.append(runs)
    return right / seeds, sum(counts) / seeds, max(counts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--rates", default="0.1,0.2,0.3")
    parser.add_argument("--reruns", type=int, default=3)
    parser.add_argument("--confidence", type=float, default=0.95)
    args = parser.parse_args(argv)
    methods: dict[str, Method] = {
        "plain bisection": plain,
        f"bisection, {args.reruns} reruns": with_reruns(args.reruns),
        f"wynot finder ({args.confidence})": finder(args.confidence),
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
