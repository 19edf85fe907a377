"""Flake-aware culprit finding: a noisy binary search over commits. Pure.

Commits are indexed ``0 .. n-1`` in first-parent order, as in
:mod:`wynot.bisect`. The test may be flaky: it can FAIL at random with some
rate ``f`` where it should pass, but it never passes where it should fail, so a
PASS is trusted and a FAIL is only evidence. The hypotheses are "commit ``i``
(``1 <= i < n``) is the first bad one: every commit from ``i`` on fails, every
one before fails only at rate ``f``" and "no culprit: every commit fails only
at rate ``f``, BAD's failure was a flake". The search keeps the posterior of
each hypothesis, jointly with ``f`` over a small grid of rates (so the flake
rate is estimated from every run, the reruns of GOOD and BAD included) unless
the caller fixes it. Each step tests the commit whose outcome is expected to
leave the least uncertainty: without flakes, the commit that splits the
probability mass in half; with them, often a little below the half, and the
commit that was BAD is a candidate too (a rerun there tests "no culprit"
directly). It stops when one hypothesis reaches the
confidence asked for, when no test can change the answer, or at the budget.

With ``flake_rate=0`` and uniform priors it tests exactly the commits that
:func:`wynot.bisect.bisect` tests, in the same order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from wynot.outcome import Outcome

FLAKE_GRID = (0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)
NO_CULPRIT_PRIOR = 0.25  # prior belief that a failure seen once is only a flake
_TIE = 9  # digits kept when comparing how evenly commits split the mass


@dataclass(frozen=True, slots=True)
class Culprit:
    """The answer of :func:`find_culprit`.

    ``first_bad`` is the most probable first bad commit, or None when "no
    culprit" is the most probable hypothesis (the failure is a flake).
    ``confidence`` is that hypothesis's posterior; ``decided`` says whether it
    reached the confidence asked for. ``last_good`` is the last commit below
    ``first_bad`` that passed and ``skipped`` the UNRESOLVED commits between
    them (with ``first_bad`` None: the last commit that passed at all).
    ``tested`` lists every test run by the search, a commit once per run, with
    ``outcomes`` in the same order; ``flake_rate`` is the posterior mean of f.
    """

    first_bad: int | None
    confidence: float
    decided: bool
    last_good: int
    skipped: tuple[int, ...]
    tested: tuple[int, ...]
    outcomes: tuple[Outcome, ...]
    flake_rate: float

    @property
    def flaky(self) -> bool:
        return self.first_bad is None

    @property
    def exact(self) -> bool:
        return self.first_bad is not None and self.first_bad == self.last_good + 1


@dataclass(frozen=True, slots=True)
class Posterior:
    """P(first bad = i) for ``i`` in ``0 .. n-1`` (index 0 always 0), and P(no culprit)."""

    commits: tuple[float, ...]
    no_culprit: float
    flake_rate: float  # posterior mean of f

    def best(self) -> tuple[int | None, float]:
        top = max(range(len(self.commits)), key=lambda i: (self.commits[i], -i))
        if self.no_culprit >= self.commits[top]:
            return None, self.no_culprit
        return top, self.commits[top]


class _Evidence:
    """Counts of PASS and FAIL per commit; UNRESOLVED commits are remembered apart."""

    def __init__(self, n: int) -> None:
        self.passes = [0] * n
        self.fails = [0] * n
        self.unresolved: set[int] = set()

    def add(self, i: int, outcome: Outcome) -> None:
        if outcome is Outcome.PASS:
            self.passes[i] += 1
        elif outcome is Outcome.FAIL:
            self.fails[i] += 1
        else:
            self.unresolved.add(i)

    def last_pass(self) -> int:
        return max((i for i, p in enumerate(self.passes) if p), default=-1)


def posterior(evidence: _Evidence, priors: Sequence[float], no_culprit_prior: float,
              rates: Sequence[tuple[float, float]]) -> Posterior:
    """The joint posterior over (hypothesis, f), summed over f.

    A PASS at ``j`` rules out every culprit ``<= j``; it weighs ``1 - f`` under
    the others, alike for all, so it only informs f. A FAIL at ``j`` weighs 1
    under culprits ``<= j`` and ``f`` under the rest and under "no culprit".
    """
    n = len(priors)
    lowest = evidence.last_pass() + 1
    total_passes, total_fails = sum(evidence.passes), sum(evidence.fails)
    weights: list[list[float]] = []
    masses: list[float] = []
    for f, rate_prior in rates:
        row = [0.0] * (n + 1)  # row[n]: no culprit
        fails_below = 0
        for i in range(1, n):
            fails_below += evidence.fails[i - 1]
            if i >= lowest and priors[i] > 0:
                row[i] = priors[i] * _power(f, fails_below)
        row[n] = no_culprit_prior * _power(f, total_fails)
        scale = rate_prior * _power(1 - f, total_passes)
        row = [w * scale for w in row]
        weights.append(row)
        masses.append(sum(row))
    total = sum(masses)
    if total <= 0:
        raise ValueError("the observations contradict every hypothesis")
    summed = [sum(row[i] for row in weights) / total for i in range(n + 1)]
    mean_f = sum(f * m for (f, _), m in zip(rates, masses, strict=True)) / total
    return Posterior(tuple(summed[:n]), summed[n], mean_f)


def _power(base: float, exponent: int) -> float:
    return 1.0 if exponent == 0 else base ** exponent


def next_commit(evidence: _Evidence, post: Posterior) -> int | None:
    """The testable commit whose outcome is expected to teach the most.

    A commit is a candidate when it is not UNRESOLVED, has not passed, and a
    test there can move the mass (some mass lies at or below it and some above
    it or on "no culprit"). Among candidates, the one whose outcome leaves the
    least expected entropy over the hypotheses (with f at its posterior mean);
    ties go to the lower commit. Without flakes this is the commit that splits
    the mass nearest one half, as bisection picks it. None when no commit
    qualifies.
    """
    f = post.flake_rate
    total = sum(_plogp(p) for p in post.commits) + _plogp(post.no_culprit)
    best: tuple[float, int] | None = None
    below = below_plogp = 0.0
    for j in range(len(post.commits)):
        below += post.commits[j]
        below_plogp += _plogp(post.commits[j])
        above, above_plogp = 1.0 - below, total - below_plogp
        if evidence.passes[j] or j in evidence.unresolved:
            continue
        if below <= 1e-12 or above <= 1e-12:
            continue
        key = (round(_expected_entropy(below, below_plogp, above, above_plogp, f), _TIE), j)
        if best is None or key < best:
            best = key
    return None if best is None else best[1]


def _plogp(p: float) -> float:
    return p * math.log(p) if p > 0 else 0.0


def _expected_entropy(below: float, below_plogp: float, above: float, above_plogp: float,
                      f: float) -> float:
    """Entropy left after testing a commit with mass ``below`` at or below it.

    PASS (probability ``(1-f) * above``) keeps the hypotheses above; FAIL
    (``below + f * above``) keeps all, those above weighed by ``f``.
    """
    after_pass = math.log(above) - above_plogp / above
    fail = below + f * above
    weighed = below_plogp + (f * (above_plogp + above * math.log(f)) if f > 0 else 0.0)
    after_fail = math.log(fail) - weighed / fail
    return (1 - f) * above * after_pass + fail * after_fail


def estimate_flake_rate(good: Sequence[Outcome], bad: Sequence[Outcome]) -> float:
    """The posterior mean of the flake rate over :data:`FLAKE_GRID`, from runs of
    GOOD and BAD alone (two commits: BAD is the culprit, or its failure a flake)."""
    evidence = _Evidence(2)
    for i, outcomes in ((0, good), (1, bad)):
        for outcome in outcomes:
            evidence.add(i, outcome)
    rates = [(f, 1.0 / len(FLAKE_GRID)) for f in FLAKE_GRID]
    return posterior(evidence, [0.0, 1.0 - NO_CULPRIT_PRIOR], NO_CULPRIT_PRIOR,
                     rates).flake_rate


def find_culprit(n: int, test: Callable[[int], Outcome], *, confidence: float = 0.95,
                 flake_rate: float | None = None, weights: Sequence[float] | None = None,
                 observations: Sequence[tuple[int, Outcome]] = ((0, Outcome.PASS),),
                 max_tests: int | None = None,
                 no_culprit_prior: float = NO_CULPRIT_PRIOR) -> Culprit:
    """Find the first bad commit among ``n`` with a test that may fail at random.

    ``test(i)`` runs the test on commit ``i`` (it may be called again for the
    same commit). ``observations`` are runs already made, by default GOOD's
    PASS; BAD (``n-1``) is taken to have failed once. ``flake_rate`` fixes f;
    None estimates it over :data:`FLAKE_GRID`. ``weights`` are relative prior
    weights of each commit being the culprit (index 0 is ignored), for
    example its size; uniform by default.
    """
    if n < 2:
        raise ValueError("find_culprit needs GOOD and BAD")
    if not 0.5 <= confidence < 1:
        raise ValueError("confidence must be in [0.5, 1)")
    raw = list(weights) if weights is not None else [1.0] * n
    raw[0] = 0.0
    scale = (1.0 - no_culprit_prior) / sum(raw)
    priors = [w * scale for w in raw]
    grid = FLAKE_GRID if flake_rate is None else (flake_rate,)
    rates = [(f, 1.0 / len(grid)) for f in grid]
    evidence = _Evidence(n)
    for i, outcome in [*observations, (n - 1, Outcome.FAIL)]:
        evidence.add(i, outcome)
    tested: list[int] = []
    outcomes: list[Outcome] = []
    while True:
        post = posterior(evidence, priors, no_culprit_prior, rates)
        top, probability = post.best()
        if probability >= confidence or (max_tests is not None and len(tested) >= max_tests):
            break
        pick = next_commit(evidence, post)
        if pick is None:
            break
        outcome = test(pick)
        tested.append(pick)
        outcomes.append(outcome)
        evidence.add(pick, outcome)
    return _answer(evidence, post, confidence, tested, outcomes)


def _answer(evidence: _Evidence, post: Posterior, confidence: float, tested: list[int],
            outcomes: list[Outcome]) -> Culprit:
    top, probability = post.best()
    last_pass = evidence.last_pass()
    if top is not None:
        # report the range like bisect: the first commit at or above the best
        # hypothesis that was seen failing, and the skipped commits below it
        top = next((j for j in range(top, len(post.commits)) if evidence.fails[j]), top)
    skipped: tuple[int, ...] = ()
    if top is None:
        low = last_pass
    else:
        low = max((j for j in range(top) if evidence.passes[j]), default=0)
        skipped = tuple(sorted(j for j in evidence.unresolved if low < j < top))
    return Culprit(top, probability, probability >= confidence, low, skipped, tuple(tested),
                   tuple(outcomes), post.flake_rate)
