"""How much time the search itself adds, next to a trivial oracle.

    python benchmarks/bench_dd.py [--repeat 5]

Cases (the targets come from the issue "Delta debugging core"):
  * 100,000 changes, one cause, consistent monotone oracle: well under 1 s.
  * 10,000 changes, one cause, 30% of configurations UNRESOLVED: under 5 s.
Prints one line per case: changes, tests asked, best wall time, per-test cost.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wynot.dd import Outcome, dd_plus, ddmin  # noqa: E402

Oracle = Callable[[frozenset[int]], Outcome]


def single_cause(cause: int) -> Oracle:
    return lambda c: Outcome.FAIL if cause in c else Outcome.PASS


def noisy(cause: int, rate: float, seed: int) -> Oracle:
    """One cause; each configuration is UNRESOLVED with probability ``rate``."""
    rng = random.Random(seed)

    def outcome(c: frozenset[int]) -> Outcome:
        if rng.random() < rate:
            return Outcome.UNRESOLVED
        return Outcome.FAIL if cause in c else Outcome.PASS

    return outcome


def measure(name: str, n: int, make_oracle: Callable[[], Oracle], algorithm, repeat: int) -> None:
    changes = list(range(n))
    best = float("inf")
    asked = 0
    result: frozenset[int] = frozenset()
    for _ in range(repeat):
        oracle = make_oracle()
        calls = 0

        def counted(c: frozenset[int], oracle: Oracle = oracle) -> Outcome:
            nonlocal calls
            calls += 1
            return oracle(c)

        start = time.perf_counter()
        result = algorithm(changes, counted)
        best = min(best, time.perf_counter() - start)
        asked = calls
    per_test = best / max(asked, 1) * 1000
    print(f"{name:<44} changes={n:>7,} tests={asked:>4} time={best:7.3f}s "
          f"per-test={per_test:6.2f}ms result={sorted(result)[:5]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    cause = 61_803
    measure("dd_plus, one cause, consistent", 100_000, lambda: single_cause(cause),
            dd_plus, args.repeat)
    measure("dd_plus keep passing, one cause, consistent", 100_000,
            lambda: single_cause(cause),
            lambda ch, t: dd_plus(ch, t, keep_passing=True, standalone=True), args.repeat)
    measure("ddmin, one cause, consistent", 100_000, lambda: single_cause(cause),
            ddmin, args.repeat)
    measure("dd_plus, one cause, 30% unresolved", 10_000, lambda: noisy(6_180, 0.3, 1),
            dd_plus, args.repeat)
    measure("dd_plus standalone, 30% unresolved", 10_000, lambda: noisy(6_180, 0.3, 1),
            lambda ch, t: dd_plus(ch, t, standalone=True), args.repeat)
    worst = 0.0
    for seed in range(20):
        changes = list(range(10_000))
        start = time.perf_counter()
        dd_plus(changes, noisy(random.Random(seed).randrange(10_000), 0.3, seed))
        worst = max(worst, time.perf_counter() - start)
    print(f"{'dd_plus, 30% unresolved, worst of 20 seeds':<44} changes= 10,000 time={worst:7.3f}s")


if __name__ == "__main__":
    main()
