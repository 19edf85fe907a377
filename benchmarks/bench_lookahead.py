"""How far can looking ahead take dd+? A model: k workers, every test one time unit.

    python benchmarks/bench_lookahead.py [--changes 200,1000] [--jobs 1,4,8] [--seeds 20]

No processes and no git: dd+ (``wynot.dd.dd_plus``, keep passing) runs against
an in-memory oracle through the real ``wynot.lookahead.Lookahead``, and a
simulated clock stands in for the executor. Each test takes one unit; a
worker that frees up starts the next configuration of the latest plan; the
plan is made again before each question and whenever a run finishes, with
the finished guesses known (as ``Tester.peek`` does). The time printed is
the time until dd+ returns, averaged over ``--seeds`` oracles of each shape:

* ``single``: one failure-inducing change;
* ``pair``: two that fail only together;
* ``unresolved``: one cause, and half of the configurations that miss a
  cluster of three changes are UNRESOLVED;
* ``suspected``: one cause, and evidence (as :mod:`wynot.suspects` reads
  it from BAD's output) that names it among three changes, alike;
* ``misled``: one cause, and evidence that names three other changes.

The guesses are :class:`wynot.lookahead.Guesses` over the changes (with the
evidence, if any); ``--coin`` guesses every question as a coin toss instead
(the lookahead before the guesses had a model).

``bound`` is the best a binary split allows when every guess is a coin toss:
k workers cover a tree of about log2(k + 1) levels of questions a round.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from dd_oracles import implies  # noqa: E402
from wynot.dd import Outcome, dd_plus  # noqa: E402
from wynot.lookahead import Guesses, Lookahead  # noqa: E402

Config = frozenset[int]


class Clock:
    """k simulated workers; runs take one unit; the awaited run is never queued behind."""

    def __init__(self, outcome: Callable[[Config], Outcome], workers: int) -> None:
        self.outcome, self.workers = outcome, workers
        self.now = 0.0
        self.running: dict[Config, float] = {}
        self.known: dict[Config, Outcome] = {}
        self.listed: list[Config] = []
        self.replan: Callable[[], list[Config]] | None = None

    def want(self, configs: list[Config]) -> None:
        self.listed = list(configs)
        for config in [c for c in self.running if c not in set(configs)]:
            del self.running[config]  # cancelled
        self._top_up()

    def _top_up(self) -> None:
        for config in self.listed:
            if len(self.running) >= self.workers:
                return
            if config not in self.running and config not in self.known:
                self.running[config] = self.now + 1

    def ask(self, config: Config) -> Outcome:
        if config not in self.known and config not in self.running:
            if len(self.running) >= self.workers:  # the awaited one takes a worker
                del self.running[next(reversed(self.running))]
            self.running[config] = self.now + 1
        while config not in self.known:
            self.now = min(self.running.values())
            for done in [c for c, end in self.running.items() if end <= self.now]:
                del self.running[done]
                self.known[done] = self.outcome(done)
            if config not in self.known:
                self.want(self.replan()) if self.replan else self._top_up()
        return self.known[config]


def simulate(n: int, outcome: Callable[[Config], Outcome], guesses: Guesses[int] | None,
             workers: int) -> float:
    changes = list(range(n))
    clock = Clock(outcome, workers)
    if workers == 1:
        dd_plus(changes, clock.ask, keep_passing=True)
        return clock.now

    def search(answer: Callable[[Config], Outcome]) -> object:
        return dd_plus(changes, answer, keep_passing=True)

    lookahead = Lookahead(search, clock.ask, clock.want, workers,
                          predict=lambda c: clock.known.get(c), guesses=guesses)
    clock.replan = lookahead.plan
    dd_plus(changes, lookahead, keep_passing=True)
    return clock.now


SHAPES = ("single", "pair", "unresolved", "suspected", "misled")


def case(shape: str, n: int, seed: int,
         coin: bool) -> tuple[Callable[[Config], Outcome], Guesses[int] | None]:
    """The oracle of ``shape`` and the guesses the lookahead makes about it."""
    rnd = random.Random(seed)
    if shape in ("suspected", "misled"):
        cause, *others = rnd.sample(range(n), 4)
        named = [cause, *others[:2]] if shape == "suspected" else others
        found = implies({cause}, [], unresolved_rate=0.0)
        return found, None if coin else Guesses(frozenset(range(n)), dict.fromkeys(named, 1.0))
    return oracle(shape, n, seed), None if coin else Guesses(frozenset(range(n)))


def oracle(shape: str, n: int, seed: int) -> Callable[[Config], Outcome]:
    rnd = random.Random(seed)
    if shape == "single":
        return implies({rnd.randrange(n)}, [], unresolved_rate=0.0)
    if shape == "pair":
        return implies(set(rnd.sample(range(n), 2)), [], unresolved_rate=0.0)
    return implies({rnd.randrange(n)}, [frozenset(rnd.sample(range(n), 3))],
                   unresolved_rate=0.5, seed=seed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--changes", default="200,1000")
    ap.add_argument("--jobs", default="1,4,8")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--coin", action="store_true", help="guess every answer as a coin toss")
    args = ap.parse_args()
    jobs = [int(j) for j in args.jobs.split(",")]
    print("| changes | shape | " + " | ".join(f"-j {j} (units)" for j in jobs)
          + " | " + " | ".join(f"-j {j} × -j 1 (bound)" for j in jobs if j > 1) + " |")
    print("| ---: | --- |" + " ---: |" * (len(jobs) + len([j for j in jobs if j > 1])))
    for n in (int(c) for c in args.changes.split(",")):
        for shape in args.shapes.split(","):
            times = {j: statistics.mean(simulate(n, *case(shape, n, s, args.coin), j)
                                        for s in range(args.seeds)) for j in jobs}
            base = times[jobs[0]]
            ratios = [f"{times[j] / base:.2f} ({1 / math.log2(j + 1):.2f})"
                      for j in jobs if j > 1]
            print(f"| {n} | {shape} | " + " | ".join(f"{times[j]:.2f}" for j in jobs)
                  + " | " + " | ".join(ratios) + " |", flush=True)


if __name__ == "__main__":
    main()
