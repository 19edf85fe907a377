"""The commit phase with a test that may be flaky: reruns, premise evidence, the finder.

``--repeat N`` runs each commit up to N times and calls it FAIL only if every
run fails (a PASS is trusted: a flaky test fails at random, it does not pass
at random). ``--flaky on`` searches with :func:`wynot.flaky.find_culprit`;
``--flaky auto`` reruns GOOD and BAD first and uses the finder only when they
disagree with themselves. Either way a BAD that passes a rerun means the
failure does not reproduce: "flaky: no culprit".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from wynot.bisect import Bisection, bisect
from wynot.flaky import Culprit, estimate_flake_rate, find_culprit
from wynot.outcome import Outcome
from wynot.result import TestRecord

AUTO_PREMISE_RUNS = 3  # runs of GOOD and of BAD with --flaky auto


@dataclass(frozen=True, slots=True)
class FlakyOptions:
    """How the commit phase treats a test that may be flaky (the defaults: it is not)."""

    repeat: int = 1            # runs per commit at most; the first PASS ends them
    mode: str = "off"          # "off", "auto" or "on"
    confidence: float = 0.95   # the finder stops when one hypothesis reaches it

    @property
    def reruns(self) -> bool:
        return self.repeat > 1 or self.mode != "off"

    def premise_runs(self) -> int:
        return max(self.repeat, AUTO_PREMISE_RUNS) if self.mode != "off" else self.repeat


def confirm_runs(options: FlakyOptions, flake_rate: float | None) -> int:
    """How many FAILs in a row confirm an answer (the hunk phase's verification).

    With a flake rate ``f`` from the finder, the fewest ``k`` with ``f**k <=
    1 - confidence`` (at most 10); with ``--repeat N`` alone, N; else 1.
    """
    if flake_rate is None or flake_rate <= 0:
        return options.repeat
    k = math.ceil(math.log(1 - options.confidence) / math.log(flake_rate))
    return max(options.repeat, min(10, k))


def premise_flake_rate(options: FlakyOptions, good: list[TestRecord],
                       bad: list[TestRecord]) -> float | None:
    """The flake rate the hunk phase assumes when no commit phase estimated one:
    from the premise runs, with ``--flaky on``, or with ``--flaky auto`` when
    they disagree with themselves; None otherwise (the test is taken as sound)."""
    if options.mode == "on" or (options.mode == "auto" and flaky_premise(good, bad)):
        return estimate_flake_rate([r.outcome for r in good], [r.outcome for r in bad])
    return None


def verdict(records: list[TestRecord]) -> TestRecord:
    """The record that stands for several runs of one commit: a PASS if any, else the last."""
    return next((r for r in records if r.outcome is Outcome.PASS), records[-1])


def run_until_pass(run: Callable[[], TestRecord], times: int) -> list[TestRecord]:
    """Run up to ``times`` times, stopping at the first PASS or UNRESOLVED."""
    records = [run()]
    while len(records) < times and records[-1].outcome is Outcome.FAIL:
        records.append(run())
    return records


def flaky_premise(good: list[TestRecord], bad: list[TestRecord]) -> bool:
    """Whether the premise runs show flakiness: GOOD failed once or BAD passed once."""
    return (any(r.outcome is Outcome.FAIL for r in good)
            or any(r.outcome is Outcome.PASS for r in bad))


def uses_finder(options: FlakyOptions, good: list[TestRecord], bad: list[TestRecord],
                earlier: Sequence[tuple[int, Outcome]] = ()) -> bool:
    """Whether :func:`search_commits` searches with the finder: ``--flaky on``, a BAD
    that passed (then "no culprit" is certain), or ``--flaky auto`` with runs that
    disagree with themselves (the premise's, or earlier runs' on one commit)."""
    bad_passed = any(r.outcome is Outcome.PASS for r in bad)
    return (options.mode == "on" or bad_passed
            or (options.mode == "auto" and (flaky_premise(good, bad) or _flaky(earlier))))


def search_commits(n: int, run: Callable[[int], TestRecord], options: FlakyOptions,
                   good: list[TestRecord], bad: list[TestRecord],
                   earlier: Sequence[tuple[int, Outcome]] = ()
                   ) -> tuple[Bisection, Culprit | None]:
    """Bisect commits ``0 .. n-1`` with reruns, or with the finder when it is called for.

    ``run(i)`` runs the test once on commit ``i``; ``good`` and ``bad`` are the
    premise runs of commits 0 and ``n-1``; ``earlier`` what earlier runs observed
    (commit, outcome), evidence for the finder, which is called for when it
    shows flakiness too. The Culprit is None when plain bisection (with
    ``options.repeat`` runs per commit) did the search.
    """
    if uses_finder(options, good, bad, earlier):
        observations = [(0, r.outcome) for r in good]
        observations += [(n - 1, r.outcome) for r in bad[1:]]  # bad[0]: the FAIL taken
        observations += earlier
        culprit = find_culprit(n, lambda i: run(i).outcome, confidence=options.confidence,
                               observations=observations)
        first_bad = n - 1 if culprit.first_bad is None else culprit.first_bad
        return Bisection(culprit.last_good, first_bad, culprit.skipped,
                         culprit.tested), culprit

    def test(i: int) -> Outcome:
        return verdict(run_until_pass(lambda: run(i), options.repeat)).outcome

    return bisect(n, test), None


def _flaky(observations: Sequence[tuple[int, Outcome]]) -> bool:
    """Whether some commit was seen both to PASS and to FAIL."""
    seen: dict[int, set[Outcome]] = {}
    for i, outcome in observations:
        seen.setdefault(i, set()).add(outcome)
    return any({Outcome.PASS, Outcome.FAIL} <= outcomes for outcomes in seen.values())
