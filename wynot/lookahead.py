"""Which questions will a deterministic search ask next? Pure: no git, no I/O.

A search such as :func:`wynot.dd.dd_plus` asks its oracle one configuration at
a time, and which one it asks next depends on the answers so far. Because it
is deterministic, replaying it against the known answers reaches exactly the
question it is about to ask; replaying it with a guessed answer to that
question reaches the question after it, and so on. :func:`plan_ahead` walks
this tree of guesses best first and returns the ``width`` configurations most
likely to be asked soon, which idle workers can then run speculatively.

Nothing here decides anything: the real search still asks its questions one
by one, in its own order, and waits for the real answers. A wrong guess costs
a worker's time, never a wrong answer.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Generic, TypeVar

from wynot.outcome import Outcome

T = TypeVar("T", bound=Hashable)

Oracle = Callable[[frozenset[T]], Outcome]
Search = Callable[[Oracle[T]], object]  # runs the whole search against an oracle
Predict = Callable[[frozenset[T]], Outcome | None]  # a free answer, or None


class _Unknown(Exception):
    def __init__(self, config: frozenset[Hashable]) -> None:
        super().__init__("unknown")
        self.config = config


def next_question(search: Search[T], answers: Mapping[frozenset[T], Outcome],
                  predict: Predict[T] | None = None) -> frozenset[T] | None:
    """The first configuration ``search`` asks whose answer is not in ``answers``.

    None when the search ends (or fails) with the answers given.
    """
    def oracle(config: frozenset[T]) -> Outcome:
        known = answers.get(config)
        if known is None and predict is not None:
            known = predict(config)
        if known is None:
            raise _Unknown(config)
        return known

    try:
        search(oracle)
    except _Unknown as unknown:
        return unknown.config  # type: ignore[return-value]
    except Exception:  # noqa: BLE001 - a guessed path the search rejects: nothing to ask
        return None
    return None


# Pseudo-counts before any answer: PASS and FAIL alike, UNRESOLVED rare until seen
# (a guessed UNRESOLVED branch that never comes costs a worker at every step).
PRIOR_COUNTS = {Outcome.PASS: 1.0, Outcome.FAIL: 1.0, Outcome.UNRESOLVED: 0.1}


def prior(answers: Mapping[frozenset[T], Outcome]) -> dict[Outcome, float]:
    """How likely each outcome is, from the answers so far and :data:`PRIOR_COUNTS`."""
    counts = dict(PRIOR_COUNTS)
    for outcome in answers.values():
        counts[outcome] += 1
    total = sum(counts.values())
    return {outcome: count / total for outcome, count in counts.items()}


def plan_ahead(search: Search[T], answers: Mapping[frozenset[T], Outcome], width: int, *,
               predict: Predict[T] | None = None, replays: int | None = None,
               ) -> list[frozenset[T]]:
    """Up to ``width`` configurations the search may ask next, likeliest first.

    The first is the question the search is about to ask (certain). The
    others are reached by guessing answers, each outcome weighted by
    :func:`prior`; a path's weight is the product of its guesses. At most
    ``replays`` replays of the search are made (default ``3 * width``).
    """
    weights = prior(answers)
    limit = 3 * width if replays is None else replays
    order = itertools.count()
    heap: list[tuple[float, int, tuple[tuple[frozenset[T], Outcome], ...]]] = [(-1.0, 0, ())]
    found: list[frozenset[T]] = []
    made = 0
    while heap and len(found) < width and made < limit:
        weight, _, guesses = heapq.heappop(heap)
        made += 1
        question = next_question(search, {**answers, **dict(guesses)}, predict)
        if question is None:
            continue
        if question not in found:
            found.append(question)
        for outcome in Outcome:
            heapq.heappush(heap, (weight * weights[outcome], next(order),
                                  (*guesses, (question, outcome))))
    return found


class Lookahead(Generic[T]):
    """An oracle that, before each question, announces the likeliest next ones.

    ``search`` must run the same search, with the same arguments, as the one
    this oracle is passed to. ``announce`` receives :func:`plan_ahead`'s list
    (e.g. :meth:`wynot.tester.Tester.speculate`); ``oracle`` gives the real
    answers, which are returned unchanged.
    """

    def __init__(self, search: Search[T], oracle: Oracle[T],
                 announce: Callable[[Sequence[frozenset[T]]], None], width: int,
                 predict: Predict[T] | None = None) -> None:
        self.search = search
        self.oracle = oracle
        self.announce = announce
        self.width = width
        self.predict = predict
        self.answers: dict[frozenset[T], Outcome] = {}

    def plan(self) -> list[frozenset[T]]:
        """:func:`plan_ahead` from the answers so far, twice as many as can run (runs
        still likely are kept)."""
        return plan_ahead(self.search, self.answers, 2 * self.width, predict=self.predict)

    def __call__(self, config: frozenset[T]) -> Outcome:
        if self.width > 1:
            self.announce(self.plan())
        outcome = self.oracle(config)
        self.answers[config] = outcome
        return outcome
