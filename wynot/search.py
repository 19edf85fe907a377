"""dd+ as the search runs it: over the plan's order, with the search oracle.

:func:`search_dd_plus` runs dd+ over some changes with others always applied,
with the shortcuts the search takes (*keep passing*, *complements only*, and
inside the failing part the oracle knows of a configuration), and with
several workers looks ahead: the configurations dd+ is likeliest to ask next
start on idle workers (:mod:`wynot.lookahead`), while dd+ still asks and
decides one at a time. :func:`first_questions` are those it is likeliest to ask
first, for the workers idle while the premise runs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from wynot.analysis.depends import Dependencies
from wynot.dd import Narrow, Probe, Split, dd_plus
from wynot.lineage import joined
from wynot.lookahead import Lookahead, plan_ahead, remembered
from wynot.oracle import SearchOracle
from wynot.outcome import Outcome
from wynot.result import plural
from wynot.tester import Tester

Stop = Callable[[], bool]
LABELS_AHEAD = 8  # a likely answer of up to this many changes: its labels' runs start ahead


def _dd_plus(changes: list[int], test: Callable[[frozenset[int]], Outcome], split: Split[int],
             keep_passing: bool, stop: Stop | None = None,
             narrow: Narrow[int] | None = None,
             probe: Probe[int] | None = None) -> frozenset[int]:
    """dd+ as the search runs it: with *keep passing*, the complements only,
    inside the failing part the oracle knows of a configuration (``narrow``),
    and with the suspects probed where a step decides nothing (``probe``)."""
    return dd_plus(changes, test, split=split, stop=stop, keep_passing=keep_passing,
                   complements_only=keep_passing, narrow=narrow, probe=probe)


@dataclass
class FailingParts:
    """The failing part dd+ went into after each FAIL, as the oracle knew it then
    (``part_now``: the oracle's failing part of a configuration, today).

    Called by the search, it asks ``part_now`` and keeps the answer; a replay
    of the lookahead asks :meth:`ahead`, which gives the part the search went
    into where the search asked. Asked later, the oracle would give the part
    of a failure found since, and the replay would plan questions the search
    never asks (syn200 at -j 8, medians of six: 5.1 s with the parts kept,
    6.8 s without; docs/performance.md)."""

    part_now: Callable[[frozenset[int]], frozenset[int]]
    taken: dict[frozenset[int], frozenset[int]] = field(default_factory=dict)

    def __call__(self, config: frozenset[int]) -> frozenset[int]:
        part = self.taken.get(config)
        if part is None:
            part = self.taken[config] = self.part_now(config)
        return part

    def ahead(self, config: frozenset[int]) -> frozenset[int]:
        """Where the search went from ``config``, else where it would go now."""
        part = self.taken.get(config)
        return part if part is not None else self.part_now(config)


@dataclass
class Probes:
    """The changes the evidence points at, asked together (with ``r``, ``applied``
    and what they are known to need; dd+'s question, so the oracle repairs
    it) the first time a step of dd+ decides nothing: where every subset and
    complement was UNRESOLVED, the few changes the failure names, or that
    share the most names with the answer whose context is searched, are the
    likeliest small configuration that builds and FAILS. When they do not
    build together (UNRESOLVED), the heaviest is asked alone, with what it is
    known to need. When a question FAILS, dd+ goes on inside the
    configuration that ran.

    ``suspects()`` gives each change's weight (computed when first asked);
    the :meth:`size` heaviest are asked. It is tried once in a search, and
    costs those one or two questions (and their repairs) when it finds
    nothing; a replay of the lookahead is given what it found there
    (:meth:`ahead`) and probes nothing itself. ``what`` names them in the
    progress line."""

    tester: Tester
    oracle: SearchOracle
    applied: frozenset[int]
    suspects: Callable[[], Mapping[int, float]]
    total: int  # the changes searched
    what: str
    taken: dict[tuple[frozenset[int], frozenset[int]], frozenset[int] | None] = field(
        default_factory=dict)

    def size(self) -> int:
        """How many suspects are asked: the depth of a binary search over all."""
        return max(1, math.ceil(math.log2(max(2, self.total))))

    def __call__(self, r: frozenset[int], c: frozenset[int],
                 ask: Callable[[frozenset[int]], Outcome]) -> frozenset[int] | None:
        if self.taken:
            return self.taken.get((r, c))
        self.taken[(r, c)] = None  # once, even if the budget stops it
        self.taken[(r, c)] = found = self._probe(r, c, ask)
        return found

    def ahead(self, r: frozenset[int], c: frozenset[int],
              ask: Callable[[frozenset[int]], Outcome]) -> frozenset[int] | None:
        """What probing found at ``(r, c)``, if the search probed there."""
        return self.taken.get((r, c))

    def _probe(self, r: frozenset[int], c: frozenset[int],
               ask: Callable[[frozenset[int]], Outcome]) -> frozenset[int] | None:
        weight = self.suspects()
        ranked = sorted((x for x in c if weight.get(x, 0.0) > 0.0),
                        key=lambda x: (-weight[x], x))[:self.size()]
        base = self.applied | r
        config = self._question(base, ranked, c)
        if config is None:
            return None
        self.tester.progress(f"nothing decided at this split: asking the "
                             f"{plural(len(ranked), 'change')} {self.what} together")
        outcome = ask(config - self.applied)
        if outcome is Outcome.UNRESOLVED and len(ranked) > 1:  # they do not build together
            alone = self._question(base, ranked[:1], c)
            if alone is not None:
                self.tester.progress("they do not build together: asking the first alone")
                config, outcome = alone, ask(alone - self.applied)
        if outcome is not Outcome.FAIL:
            return None
        failed = self.oracle.failed_for(config)
        inside = failed - base
        if not failed >= base or not inside <= c:
            return None
        self.tester.progress(f"they fail: searching the {plural(len(inside), 'change')} "
                             "of the configuration that ran")
        return inside

    def _question(self, base: frozenset[int], suspects: Sequence[int],
                  c: frozenset[int]) -> frozenset[int] | None:
        """``base`` with ``suspects`` and what they are known to need, when that adds
        only changes of ``c``, and not all of them; else None."""
        if not suspects:
            return None
        config = self.oracle.deps.closure(base | frozenset(suspects))
        added = config - base
        return config if added <= c and len(added) < len(c) else None


def search_dd_plus(tester: Tester, oracle: SearchOracle, changes: list[int],
                   applied: frozenset[int], split: Split[int], stop: Stop | None,
                   keep_passing: bool,
                   suspects: tuple[Callable[[], Mapping[int, float]], str] | None = None
                   ) -> frozenset[int]:
    """dd+ over ``changes`` with ``applied`` always applied; with ``suspects``
    (the changes' weights, and what they are in words), the heaviest are
    asked together the first time a step decides nothing (:class:`Probes`).

    With several workers the oracle looks ahead: before each question, and
    whenever a guess is answered meanwhile, it starts the configurations dd+
    (and then :func:`wynot.label.standalone`, with the answer) is likeliest to ask next on
    idle workers (:mod:`wynot.lookahead`). dd+ still asks and decides one configuration at
    a time, so its answer and its questions do not depend on the workers.
    """
    def ask(config: frozenset[int]) -> Outcome:
        return oracle(joined(config, applied))  # no copy of a large one; its lineage kept

    narrow = FailingParts(lambda config: oracle.failed_for(joined(config, applied)) - applied)
    probes = (Probes(tester, oracle, applied, suspects[0], len(changes), suspects[1])
              if suspects is not None else None)

    answers: set[frozenset[int]] = set()  # dd+'s answers reached by the replays

    def search(answer: Callable[[frozenset[int]], Outcome]) -> object:
        found = _dd_plus(changes, answer, split, keep_passing, narrow=narrow.ahead,
                         probe=probes.ahead if probes is not None else None)
        answers.add(found)
        return answer(found)  # wynot.label.standalone tests it with ``applied`` (when closed)

    def predict(config: frozenset[int]) -> Outcome | None:
        if oracle.failed_inside(applied | config) is not None:
            return Outcome.FAIL
        if not oracle.deps.is_closed(applied | config):
            return Outcome.UNRESOLVED
        return tester.peek(applied | config)  # a guess already answered

    def announce(configs: Sequence[frozenset[int]]) -> None:
        # a likely answer is also run a second time, for the verification, and
        # without each of its changes (when it has few), for the labels, right after it
        likely = [applied | config for config in configs if config in answers]
        tester.speculate([run for config in configs for run in [applied | config] + (
            [applied | config - {c} for c in sorted(config)]
            if config in answers and len(applied | config) <= LABELS_AHEAD else [])],
            again=likely)

    if tester.executor.workers < 2:
        return _dd_plus(changes, ask, split, keep_passing, stop, narrow, probes)
    split = remembered(split)  # the replays split the same runs again and again
    def ready(config: frozenset[int]) -> bool:  # answered at once: no plan before it
        closed = oracle.deps.is_closed(applied | config)
        return (tester.answered(applied | config) or (not closed and oracle.resolver is None)
                or oracle.failed_inside(applied | config) is not None)

    test = Lookahead(search, ask, announce, tester.executor.workers, predict,
                     tester.guesses(changes), ready)
    tester.replan = lambda: announce(test.plan())
    try:
        found = _dd_plus(changes, test, split, keep_passing, stop, narrow, probes)
        test.settle()  # the answer alone, its labels and its second run: ahead
        return found
    finally:
        tester.replan = None


def first_questions(tester: Tester, deps: Dependencies, changes: list[int], split: Split[int],
                    keep_passing: bool) -> list[frozenset[int]]:
    """The configurations dd+ over ``changes`` is likeliest to ask first, for idle
    workers while the premise runs (none with one worker): guessed by the
    tester's odds (:meth:`~wynot.tester.Tester.guesses`) when BAD's output is
    in already (its suspicion), else PASS and FAIL alike."""
    workers = tester.executor.workers
    if workers < 2 or len(changes) < 2:
        return []

    def search(answer: Callable[[frozenset[int]], Outcome]) -> object:
        return _dd_plus(changes, answer, split, keep_passing)

    return plan_ahead(search, {}, 2 * workers, predict=lambda config: None if deps.is_closed(
        config) else Outcome.UNRESOLVED,
        guesses=tester.guesses(changes) if tester.suspicion else None)
