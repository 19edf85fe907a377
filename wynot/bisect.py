"""Binary search for the first failing commit, as ``git bisect run`` does. Pure.

Commits are indexed ``0 .. n-1`` in first-parent order: 0 is GOOD (known to
pass), n-1 is BAD (known to fail). ``test(i)`` returns an Outcome; UNRESOLVED
means the commit cannot be tested (build failure, exit 125, timeout) and is
skipped, like ``git bisect skip``: the search then tries the untested commit
nearest to the middle of what is left. No commit is tested twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from wynot.outcome import Outcome


@dataclass(frozen=True, slots=True)
class Bisection:
    """The narrowest range the tests allow.

    ``last_good`` passes and ``first_bad`` fails; every commit strictly
    between them was skipped (UNRESOLVED). With no skipped commit in between,
    ``first_bad`` is the first failing commit.
    """

    last_good: int
    first_bad: int
    skipped: tuple[int, ...]  # skipped commits between last_good and first_bad
    tested: tuple[int, ...]   # every commit tested, in order
    rounds: int = 0           # rounds of tests (a multisection tests several a round)

    @property
    def exact(self) -> bool:
        return self.first_bad == self.last_good + 1


def bisect(n: int, test: Callable[[int], Outcome]) -> Bisection:
    """Find the first failing commit among ``n`` commits (0 passes, n-1 fails)."""
    if n < 2:
        raise ValueError("bisect needs GOOD and BAD")
    good, bad = 0, n - 1
    skipped: set[int] = set()
    tested: list[int] = []
    while True:
        candidates = [i for i in range(good + 1, bad) if i not in skipped]
        if not candidates:
            break
        middle = (good + bad) / 2
        pick = min(candidates, key=lambda i: (abs(i - middle), i))
        outcome = test(pick)
        tested.append(pick)
        if outcome is Outcome.PASS:
            good = pick
        elif outcome is Outcome.FAIL:
            bad = pick
        else:
            skipped.add(pick)
    between = tuple(sorted(i for i in skipped if good < i < bad))
    return Bisection(good, bad, between, tuple(tested), len(tested))


def multisect(n: int, test_round: Callable[[list[int]], list[Outcome]],
              width: int) -> Bisection:
    """Like :func:`bisect`, testing ``width`` evenly spaced commits a round.

    ``test_round(indices)`` returns their outcomes in the same order (the
    caller runs them in parallel). Each round cuts the range into ``width + 1``
    near-equal pieces, so a range of ``n`` commits takes about
    ``ceil(log(n) / log(width + 1))`` rounds. The range then ends at the first
    failing commit tested and starts at the last passing one below it;
    UNRESOLVED commits are skipped, as in :func:`bisect`, and no commit is
    tested twice. ``width = 1`` picks the commits :func:`bisect` picks.
    """
    if n < 2:
        raise ValueError("multisect needs GOOD and BAD")
    if width < 1:
        raise ValueError("multisect needs a width of at least 1")
    good, bad = 0, n - 1
    skipped: set[int] = set()
    tested: list[int] = []
    rounds = 0
    while True:
        candidates = [i for i in range(good + 1, bad) if i not in skipped]
        if not candidates:
            break
        picks = _spread(candidates, good, bad, width)
        outcomes = test_round(picks)
        rounds += 1
        tested.extend(picks)
        skipped.update(i for i, o in zip(picks, outcomes, strict=True)
                       if o is Outcome.UNRESOLVED)
        bad = min([bad, *(i for i, o in zip(picks, outcomes, strict=True)
                          if o is Outcome.FAIL)])
        good = max([good, *(i for i, o in zip(picks, outcomes, strict=True)
                            if o is Outcome.PASS and i < bad)])
    between = tuple(sorted(i for i in skipped if good < i < bad))
    return Bisection(good, bad, between, tuple(tested), rounds)


def _spread(candidates: list[int], good: int, bad: int, width: int) -> list[int]:
    """``width`` candidates nearest to the points cutting (good, bad) into equal pieces."""
    if len(candidates) <= width:
        return candidates
    picks: list[int] = []
    for k in range(1, width + 1):
        point = good + (bad - good) * k / (width + 1)
        free = [i for i in candidates if i not in picks]
        picks.append(min(free, key=lambda i: (abs(i - point), i)))
    return sorted(picks)
