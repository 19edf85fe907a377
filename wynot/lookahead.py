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

import functools
import heapq
import itertools
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from wynot.dd import Split
from wynot.outcome import Outcome

T = TypeVar("T", bound=Hashable)

Oracle = Callable[[frozenset[T]], Outcome]
Search = Callable[[Oracle[T]], object]  # runs the whole search against an oracle
Predict = Callable[[frozenset[T]], Outcome | None]  # a free answer, or None


class _Unknown(Exception):
    def __init__(self, config: frozenset[Hashable]) -> None:
        super().__init__("unknown")
        self.config = config


Trail = list[tuple[frozenset[T], Outcome]]  # the answers a replay was given, in order


def replay(search: Search[T], answers: Mapping[frozenset[T], Outcome],
           predict: Predict[T] | None = None) -> tuple[frozenset[T] | None, Trail[T]]:
    """The first configuration ``search`` asks whose answer is not in ``answers``
    (None when the search ends, or fails, with the answers given), and the
    answers it was given before, in order (known, predicted or guessed)."""
    trail: Trail[T] = []

    def oracle(config: frozenset[T]) -> Outcome:
        known = answers.get(config)
        if known is None and predict is not None:
            known = predict(config)
        if known is None:
            raise _Unknown(config)
        trail.append((config, known))
        return known

    try:
        search(oracle)
    except _Unknown as unknown:
        return unknown.config, trail  # type: ignore[return-value]
    except Exception:  # noqa: BLE001 - a guessed path the search rejects: nothing to ask
        return None, trail
    return None, trail


# Pseudo-counts before any answer: PASS and FAIL alike, UNRESOLVED rare until seen
# (a guessed UNRESOLVED branch that never comes costs a worker at every step).
PRIOR_COUNTS = {Outcome.PASS: 1.0, Outcome.FAIL: 1.0, Outcome.UNRESOLVED: 0.1}
TRUST = 0.7  # how far the guesses follow the evidence rather than the sizes
FLOOR = 0.02  # no guess is certain: the odds of either outcome stay above this


def prior(answers: Mapping[frozenset[T], Outcome]) -> dict[Outcome, float]:
    """How likely each outcome is, from the answers so far and :data:`PRIOR_COUNTS`."""
    counts = dict(PRIOR_COUNTS)
    for outcome in answers.values():
        counts[outcome] += 1
    total = sum(counts.values())
    return {outcome: count / total for outcome, count in counts.items()}


@dataclass(frozen=True)
class Guesses(Generic[T]):
    """How likely each answer to a question is, from the answers before it. Pure.

    The model: the failure has one cause, a change among the *candidates*
    (the changes of ``universe`` in every configuration that FAILED and in
    none that PASSED, by the answers before the question, in their order; a
    narrowing that would leave none is ignored). Where the cause lies: with
    probability ``trust`` as ``suspicion`` weighs the candidates (relative
    weights, e.g. from :func:`wynot.suspects.suspicion`; those it leaves out
    weigh nothing), else uniformly. A question FAILS when it holds the cause,
    so its odds follow its share of the candidates: half of them, as when dd+
    splits in two, is a coin toss unless the evidence leans; one that holds
    every candidate (or none) is all but certain. UNRESOLVED comes at the
    rate seen (``unresolved``). Without a ``universe``, PASS and FAIL come at
    the rates seen (:func:`prior`).

    The odds only order speculative runs: nothing is decided by them.
    """

    universe: frozenset[T] = frozenset()
    suspicion: Mapping[T, float] = field(default_factory=dict)
    trust: float = TRUST

    def candidates(self, trail: Trail[T]) -> frozenset[T]:
        """The changes that may hold the cause after the answers of ``trail``."""
        found = self.universe
        for config, outcome in trail:
            if outcome is Outcome.FAIL:
                narrowed = found & config
            elif outcome is Outcome.PASS:
                narrowed = found - config
            else:
                continue
            found = narrowed or found
        return found

    def fails(self, question: frozenset[T], trail: Trail[T]) -> float:
        """The probability that ``question`` FAILS, given that it resolves."""
        candidates = self.candidates(trail)
        if not candidates:
            return 0.5
        share = len(question & candidates) / len(candidates)
        total = inside = 0.0
        for change, weight in self.suspicion.items():
            if change in candidates:
                total += weight
                inside += weight if change in question else 0.0
        if total > 0:
            share = self.trust * inside / total + (1 - self.trust) * share
        return min(1 - FLOOR, max(FLOOR, share))

    def odds(self, question: frozenset[T], trail: Trail[T],
             answers: Mapping[frozenset[T], Outcome]) -> dict[Outcome, float]:
        """Each outcome's probability for ``question``; ``answers`` are the real
        ones (the rates), ``trail`` those the question follows (real and guessed)."""
        rates = prior(answers)
        if not self.universe:
            return rates
        resolved = 1 - rates[Outcome.UNRESOLVED]
        fail = self.fails(question, trail)
        return {Outcome.PASS: resolved * (1 - fail), Outcome.FAIL: resolved * fail,
                Outcome.UNRESOLVED: rates[Outcome.UNRESOLVED]}


def plan_ahead(search: Search[T], answers: Mapping[frozenset[T], Outcome], width: int, *,
               predict: Predict[T] | None = None, replays: int | None = None,
               guesses: Guesses[T] | None = None) -> list[frozenset[T]]:
    """Up to ``width`` configurations the search may ask next, likeliest first.

    The first is the question the search is about to ask (certain). The
    others are reached by guessing answers, each weighted by ``guesses``
    (:class:`Guesses`; by default the rates of :func:`prior`, alike for every
    question); a path's weight is the product of its guesses. At most
    ``replays`` replays of the search are made (default ``3 * width``).
    """
    guess = guesses if guesses is not None else Guesses[T]()
    limit = 3 * width if replays is None else replays
    order = itertools.count()
    heap: list[tuple[float, int, tuple[tuple[frozenset[T], Outcome], ...]]] = [(-1.0, 0, ())]
    found: list[frozenset[T]] = []
    made = 0
    while heap and len(found) < width and made < limit:
        weight, _, path = heapq.heappop(heap)
        made += 1
        question, trail = replay(search, {**answers, **dict(path)}, predict)
        if question is None:
            continue
        if question not in found:
            found.append(question)
        for outcome, odds in guess.odds(question, trail, answers).items():
            heapq.heappush(heap, (weight * odds, next(order), (*path, (question, outcome))))
    return found


SPLITS_KEPT = 1024  # splits a remembered split keeps (the latest used)


def remembered(split: Split[T], kept: int = SPLITS_KEPT) -> Split[T]:
    """``split`` (a pure function) with its latest results kept: the replays of a
    looking-ahead search split the same runs of changes again and again."""
    @functools.lru_cache(maxsize=kept)
    def cut(seq: tuple[T, ...], n: int) -> tuple[tuple[T, ...], ...]:
        return tuple(tuple(part) for part in split(seq, n))

    return lambda seq, n: cut(tuple(seq), n)


class Lookahead(Generic[T]):
    """An oracle that, before each question, announces the likeliest next ones.

    ``search`` must run the same search, with the same arguments, as the one
    this oracle is passed to. ``announce`` receives :func:`plan_ahead`'s list
    (e.g. :meth:`wynot.tester.Tester.speculate`); ``oracle`` gives the real
    answers, which are returned unchanged. ``guesses`` weighs the guessed
    answers (:class:`Guesses`). ``ready`` tells a question the oracle answers
    at once (already run): no plan is made before it, since the next question
    comes at once too and plans with one more answer known; when the search
    ends after such questions, :meth:`settle` makes the plan they skipped.
    """

    def __init__(self, search: Search[T], oracle: Oracle[T],
                 announce: Callable[[Sequence[frozenset[T]]], None], width: int,
                 predict: Predict[T] | None = None, guesses: Guesses[T] | None = None,
                 ready: Callable[[frozenset[T]], bool] | None = None) -> None:
        self.search = search
        self.guesses = guesses
        self.oracle = oracle
        self.announce = announce
        self.width = width
        self.predict = predict
        self.ready = ready
        self.answers: dict[frozenset[T], Outcome] = {}
        self.skipped = False  # a plan was skipped since the last one

    def plan(self) -> list[frozenset[T]]:
        """:func:`plan_ahead` from the answers so far, twice as many as can run (runs
        still likely are kept)."""
        return plan_ahead(self.search, self.answers, 2 * self.width, predict=self.predict,
                          guesses=self.guesses)

    def settle(self) -> None:
        """Announce the plan that questions answered at once skipped, if any (the
        search ended: what comes after it, e.g. the answer tested alone)."""
        if self.skipped:
            self.skipped = False
            self.announce(self.plan())

    def __call__(self, config: frozenset[T]) -> Outcome:
        if self.width > 1:
            self.skipped = self.ready is not None and self.ready(config)
            if not self.skipped:
                self.announce(self.plan())
        outcome = self.oracle(config)
        self.answers[config] = outcome
        return outcome
