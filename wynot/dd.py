"""Delta debugging: dd+, ddmin and dd as pure functions over an oracle.

The algorithms follow the papers in ../shared/references:

* :func:`dd_plus` is Algorithm 2 of "Yesterday, my program worked. Today, it
  does not. Why?" (Zeller, ESEC/FSE 1999): cases *found*, *interference*,
  *preference*, *try again* and *nothing left*; ``keep_passing=True`` adds
  one shortcut of wynot's own (*keep passing*, below).
* :func:`ddmin` is Figure 1 of "Finding failure causes through automated
  testing" (Zeller, AADEBUG 2000): a 1-minimal failing subset.
* :func:`dd` isolates: a passing and a failing configuration whose difference
  is 1-minimal.

Contract shared by all three: ``test`` receives a frozenset of the applied
changes and returns an :class:`Outcome`. The caller has established
``test(empty) is PASS`` and ``test(all) is FAIL``; they are not asked again.
No configuration is asked twice within one search. Subsets are produced by
``split(seq, n)``, contiguous near-equal runs of ``seq`` by default, and keep
the order of ``changes``. The same inputs give the same calls in the same order.

Nothing here does I/O. Progress is reported through ``observe``, budgets
through ``stop``; see :class:`Tested`, :class:`Decided` and :class:`SearchStopped`.
"""

from __future__ import annotations

import array
import enum
import hashlib
from collections.abc import Callable, Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from wynot.lineage import joined
from wynot.outcome import Outcome as Outcome  # re-exported: part of the wynot.dd API

MEMO_KEEP = 2_000_000  # changes the memo keeps in whole configurations, in all
MEMO_DIGEST_ABOVE = 256  # beyond that, larger configurations are kept as digests

T = TypeVar("T", bound=Hashable)


class Case(enum.Enum):
    """The case an algorithm takes after testing a partition."""

    FOUND = "found"                  # |c| = 1: a failure-inducing change
    FOUND_IN = "found in c_i"        # a subset fails: continue inside it
    INSIDE_PART = "inside a failing part"  # dd+: the oracle knows a failing part: go there
    INSIDE_REPAIRED = "inside the run that failed"  # dd+: a larger run answered FAIL: go there
    SUSPECTS = "suspects"            # dd+: nothing decided; a probe of suspects FAILED: go there
    INTERFERENCE = "interference"    # c_i and its complement both pass: search both
    PREFERENCE = "preference"        # c_i unresolved, complement passes: search c_i
    TRY_AGAIN = "try again"          # nothing decided: more, smaller subsets
    COMPLEMENTS_ONLY = "complements only"  # dd+ shortcut: no subset asked has built
    KEEP_PASSING = "keep passing"    # dd+ shortcut: c_1 of 2 passes, search c_2 with it applied
    NOTHING_LEFT = "nothing left"    # n = |c| and nothing decided: return c'
    REDUCE_TO_COMPLEMENT = "reduce to complement"    # ddmin: a complement fails
    INCREASE_TO_COMPLEMENT = "increase to complement"  # dd: a side moves by one subset
    INCREASE_GRANULARITY = "increase granularity"    # ddmin, dd
    DONE = "done"                    # ddmin, dd: 1-minimal
    ADD_CONTEXT = "add context"      # dd+ standalone: the result needs more to fail


@dataclass(frozen=True, slots=True)
class Tested(Generic[T]):
    """The oracle was asked about ``configuration`` and answered ``outcome``."""

    configuration: frozenset[T]
    outcome: Outcome
    number: int  # 1 for the first test of the search


@dataclass(frozen=True, slots=True)
class Decided(Generic[T]):
    """The algorithm took ``case`` for the changes ``c`` (with ``r`` applied)."""

    case: Case
    c: frozenset[T]
    r: frozenset[T]
    n: int


Event = Tested[T] | Decided[T]
Split = Callable[[Sequence[T], int], Sequence[Sequence[T]]]
Oracle = Callable[[frozenset[T]], Outcome]
Narrow = Callable[[frozenset[T]], frozenset[T]]
# ``probe(r, c, test)``: changes of ``c`` that FAIL with ``r``, found by questions the
# caller chooses (the changes the failure points at) and asks through ``test``, or None.
Probe = Callable[[frozenset[T], frozenset[T], Oracle[T]], frozenset[T] | None]


class SearchStopped(Exception, Generic[T]):
    """The ``stop`` hook ended the search before it finished.

    ``best`` is the smallest configuration known to FAIL (the whole set if no
    smaller one was seen); it is not minimal.
    """

    def __init__(self, best: frozenset[T], tests: int) -> None:
        super().__init__(f"search stopped after {tests} tests; best has {len(best)} changes")
        self.best = best
        self.tests = tests
        self.minimal = False


def split_evenly(seq: Sequence[T], n: int) -> list[Sequence[T]]:
    """Cut ``seq`` into ``min(n, len(seq))`` contiguous runs of near-equal size.

    Earlier runs get the extra element: 8 changes, n = 3 gives 3, 3, 2.
    """
    n = max(1, min(n, len(seq)))
    size, extra = divmod(len(seq), n)
    parts: list[Sequence[T]] = []
    start = 0
    for i in range(n):
        end = start + size + (1 if i < extra else 0)
        parts.append(seq[start:end])
        start = end
    return parts


class _Search(Generic[T]):
    """The state of one search: the memo, the counters and the hooks."""

    def __init__(
        self,
        changes: Sequence[T],
        test: Oracle[T],
        split: Split[T],
        observe: Callable[[Event[T]], None] | None,
        stop: Callable[[], bool] | None,
        keep_passing: bool = False,
        complements_only: bool = False,
        narrow: Narrow[T] | None = None,
        probe: Probe[T] | None = None,
    ) -> None:
        self.order = {change: i for i, change in enumerate(changes)}
        if len(self.order) != len(changes):
            raise ValueError("changes must be distinct")
        everything = frozenset(changes)
        # Outcomes asked so far. Once the configurations kept hold MEMO_KEEP changes
        # in all, a large one is remembered by a digest of its positions: thousands
        # of predicted configurations of thousands of changes each took gigabytes.
        self.memo: dict[frozenset[T] | bytes, Outcome] = {
            frozenset(): Outcome.PASS,
            everything: Outcome.FAIL,
        }
        self._kept = len(everything)  # changes in the configurations kept whole
        self._digests = 0  # configurations kept as digests
        self.best = everything
        self.tests = 0
        self.unresolved = 0
        self._test = test
        self._split = split
        self._observe = observe
        self._stop = stop
        self.keep_passing = keep_passing  # dd+ only: take the *keep passing* shortcut
        self.complements_only = complements_only  # dd+ only: the *complements only* one
        self._narrow = narrow  # dd+ only: a failing part of a configuration that FAILED
        self._probe = probe  # dd+ only: a failing part found by the caller's questions
        self.resolved_subset = False  # a subset asked by dd_3 came back PASS or FAIL
        self.kept = 0  # how often it was taken

    def _digest(self, configuration: frozenset[T]) -> bytes:
        """16 bytes that stand for the configuration: its sorted positions, hashed."""
        positions = array.array("q", sorted(map(self.order.__getitem__, configuration)))
        return hashlib.blake2b(positions.tobytes(), digest_size=16).digest()

    def _recall(self, configuration: frozenset[T]) -> Outcome | None:
        known = self.memo.get(configuration)
        if known is None and self._digests and len(configuration) > MEMO_DIGEST_ABOVE:
            known = self.memo.get(self._digest(configuration))
        return known

    def _remember(self, configuration: frozenset[T], outcome: Outcome) -> None:
        if len(configuration) > MEMO_DIGEST_ABOVE and self._kept > MEMO_KEEP:
            self.memo[self._digest(configuration)] = outcome
            self._digests += 1
        else:
            self.memo[configuration] = outcome
            self._kept += len(configuration)

    def test(self, configuration: frozenset[T]) -> Outcome:
        known = self._recall(configuration)
        if known is not None:
            return known
        if self._stop is not None and self._stop():
            raise SearchStopped(self.best, self.tests)
        outcome = self._test(configuration)
        if not isinstance(outcome, Outcome):
            raise TypeError(f"test must return an Outcome, not {outcome!r}")
        self.tests += 1
        self.unresolved += outcome is Outcome.UNRESOLVED
        self._remember(configuration, outcome)
        if outcome is Outcome.FAIL and len(configuration) < len(self.best):
            self.best = configuration
        if self._observe is not None:
            self._observe(Tested(configuration, outcome, self.tests))
        return outcome

    def decide(self, case: Case, c: Collection[T],
               r: frozenset[T] = frozenset(), n: int = 0) -> None:
        if self._observe is not None:
            self._observe(Decided(case, frozenset(c), r, n))

    def part(self, configuration: frozenset[T], c: Collection[T]) -> frozenset[T] | None:
        """The changes of ``c`` inside the failing part the oracle knows of
        ``configuration`` (which FAILED), when that leaves some of ``c`` out and
        not all of it; else None."""
        if self._narrow is None:
            return None
        part = self._narrow(configuration)
        inside = part.intersection(c)
        if part < configuration and inside and len(inside) < len(c):
            return frozenset(inside)
        return None

    def ran(self, configuration: frozenset[T], c: Collection[T],
            r: frozenset[T]) -> frozenset[T] | None:
        """The changes of ``c`` in the configuration that ran for ``configuration``
        (which FAILED) when that run held more than ``configuration``: an oracle
        that repaired it by adding changes. Only where the run held ``r`` and
        nothing outside ``c`` and ``r``; else None."""
        if self._narrow is None:
            return None
        part = self._narrow(configuration)
        if part <= configuration or not r <= part:
            return None
        inside = part - r
        return frozenset(inside) if inside.issubset(c) else None

    def probed(self, c: Sequence[T], r: frozenset[T]) -> frozenset[T] | None:
        """The changes of ``c`` that the caller's probe found FAILING with ``r``,
        when they are fewer than ``c``; else None."""
        if self._probe is None:
            return None
        found = self._probe(r, frozenset(c), self.test)
        if found is None:
            return None
        inside = found.intersection(c)
        return frozenset(inside) if inside and len(inside) < len(c) else None

    def split(self, c: Sequence[T], n: int) -> list[tuple[T, ...]]:
        parts = [tuple(p) for p in self._split(c, n)]
        if sum(len(p) for p in parts) != len(c) or set().union(*parts) != set(c):
            raise ValueError("split must partition its input")
        if any(not p for p in parts) or (len(c) > 1 and len(parts) < 2):
            raise ValueError("split must return at least two non-empty parts")
        return parts

    def ordered(self, items: frozenset[T] | set[T]) -> tuple[T, ...]:
        return tuple(sorted(items, key=self.order.__getitem__))


# ---------------------------------------------------------------------------
# dd+ (WYNOT paper, Algorithm 2)


def dd_plus(
    changes: Sequence[T],
    test: Oracle[T],
    *,
    split: Split[T] = split_evenly,
    observe: Callable[[Event[T]], None] | None = None,
    stop: Callable[[], bool] | None = None,
    standalone: bool = False,
    keep_passing: bool = False,
    complements_only: bool = False,
    narrow: Narrow[T] | None = None,
    probe: Probe[T] | None = None,
) -> frozenset[T]:
    """Return the failure-inducing changes that dd+ finds in ``changes``.

    For monotone, unambiguous and consistent configurations the result is a
    minimal failure-inducing set. With UNRESOLVED outcomes, every change that
    is safe (applies to GOOD or comes out of BAD without inconsistency) and not
    failure-inducing is excluded, but the result is relative to the changes
    the search kept applied when it found it (*preference*, *try again*), and
    may not fail on its own.

    ``standalone=True`` closes that gap: while the result does not FAIL on its
    own, dd+ searches the remaining changes, with the result applied, for the
    context it needs, and adds it. This costs at least one more test whenever
    the search met an UNRESOLVED outcome, and none otherwise: a search that met
    none trusts the configurations to be consistent, so a result it never
    tested (a union of two interference results) is not checked. wynot's
    pipeline does not rely on this; it tests its answer alone.

    ``keep_passing=True`` saves a test at each split in two whose first half
    passes. Algorithm 2 then tests the second half alone too, which in a
    monotone world fails and tells nothing new; only when it passes as well
    (interference) does the search learn something. With the shortcut
    (case *keep passing*) dd+ goes straight on inside the second half, with
    the first applied, as it does after *try again* when the second half is
    UNRESOLVED. The invariant holds (the first half with ``r`` does not
    FAIL, all of ``c`` with ``r`` does not PASS), and so does the result's
    meaning: failure-inducing relative to the changes kept applied. What is
    lost is interference seen as such: the part of a cause that lies in the
    first half stays applied and must be found as context (``standalone``
    tests the result on its own once the shortcut was taken).

    ``complements_only=True`` saves the subsets that cannot build, where most
    configurations do not (a release diff whose parts need one another).
    While every subset the search has asked was UNRESOLVED, from the third
    partition of a ``dd_3`` on (each part inside an UNRESOLVED one) the
    subsets are not asked: they count as UNRESOLVED, and dd+ narrows ``c``
    down by its complements alone, the configurations nearest ``c | r``,
    which build the likeliest (case *complements only*). One subset that
    built (PASS or FAIL), anywhere in the search, ends the shortcut for
    good. Single changes are always asked: applied alone, a change is
    nearest ``r``, the paper's best chance of a consistent configuration,
    and the *found* and *preference* cases need them. The
    invariant and the cases are Algorithm 2's (an UNRESOLVED subset decides
    nothing by itself); what is lost is a subset that would have built
    nonetheless. A new ``dd_3`` (inside a subset or a complement) asks the
    subsets of its first two partitions again.

    ``narrow``, when given, is asked about each configuration the oracle
    answered FAIL, and returns a part of it known to FAIL (the configuration
    itself when none is known): an oracle that answered from inside, a part
    it ran without the changes that kept the whole from building. dd+ then
    goes on inside that part at once (case *inside a failing part*: a new
    ``dd_3`` over the changes of ``c`` the part holds, with ``r`` and what the
    step found passing applied) instead of finding it again one complement at
    a time. The invariant holds as long as a configuration that holds the
    part is not PASS, which is what an oracle that answers from inside
    assumes (monotony, as dd+ does throughout). It may also return more than
    the configuration: the run that answered for it, which an oracle that
    repairs configurations grew by the changes the build needed. Where that
    run holds ``r`` and nothing outside ``c`` and ``r``, dd+ goes on inside
    the changes of ``c`` it held (case *inside the run that failed*) rather
    than inside ``c_i``, whose FAIL was the repair's: the failure may lie in
    what the repair added. A complement that FAILED so takes out of ``c``
    only what its run left out. Then ``test(c | r)`` is not PASS because a
    run of exactly ``c | r`` FAILED, not on the word of a repair. A run that
    is all of ``c | r`` (known to FAIL) tells nothing new: Algorithm 2's
    case is taken, on the repair's word.

    ``probe``, when given, is asked after a step that decided nothing (every
    subset and complement it asked UNRESOLVED, none left out), before the
    next, finer step. It asks questions of its own choosing through the
    test it is given, dd+'s own (so no configuration is asked twice, and each
    counts; wynot's search asks the few changes the evidence points at,
    together), and returns changes of ``c`` that FAIL with ``r``, or None.
    dd+ then goes on inside them (case *suspects*, a new ``dd_3`` with ``r``
    applied): the invariant holds, since they FAIL with ``r``. Its questions
    are what it costs when it finds nothing.
    """
    if len(changes) == 0:
        raise ValueError("dd_plus needs at least one change")
    search = _Search(changes, test, split, observe, stop, keep_passing, complements_only,
                     narrow, probe)
    result = _dd3(search, tuple(changes), frozenset(), 2)
    if standalone and (search.unresolved or search.kept):
        result = _add_context(search, changes, result)
    return result


def _add_context(search: _Search[T], changes: Sequence[T], d: frozenset[T]) -> frozenset[T]:
    """Grow ``d`` by the changes it needs to FAIL on its own.

    Each round runs dd_3 over the changes outside ``d`` with ``d`` applied;
    its invariant holds because test(d) != FAIL and test(all) = FAIL. Every
    round adds at least one change, so this ends at the latest with all.
    """
    while search.test(d) is not Outcome.FAIL:
        rest = tuple(x for x in changes if x not in d)
        search.decide(Case.ADD_CONTEXT, rest, d, 2)
        d = joined(d, _dd3(search, rest, d, 2))
    return d


def _dd3(search: _Search[T], c: tuple[T, ...], r: frozenset[T], n: int) -> frozenset[T]:
    """Algorithm 2's dd_3(c, r, n); invariant: test(r) != FAIL, test(c | r) != PASS."""
    hopeless = 0  # partitions in a row while no subset has built (complements only)
    while True:
        if len(c) == 1:
            search.decide(Case.FOUND, c, r, n)
            return frozenset(c)
        parts = search.split(c, n)
        n = len(parts)
        t: list[Outcome] = []
        asked = parts
        if hopeless >= 2 and n < len(c):
            search.decide(Case.COMPLEMENTS_ONLY, c, r, n)
            t, asked = [Outcome.UNRESOLVED] * n, []
        for i, c_i in enumerate(asked):
            r_c_i = joined(r, c_i)
            t.append(search.test(r_c_i))
            search.resolved_subset |= t[i] is not Outcome.UNRESOLVED
            if t[i] is Outcome.FAIL:
                inside = search.part(r_c_i, c_i)
                if inside is not None:
                    search.decide(Case.INSIDE_PART, inside, r, n)
                    return _dd3(search, search.ordered(inside), r, 2)
                ran = search.ran(r_c_i, c, r)
                if ran is not None and len(ran) < len(c):
                    search.decide(Case.INSIDE_REPAIRED, ran, r, n)
                    return _dd3(search, search.ordered(ran), r, 2)
                search.decide(Case.FOUND_IN, c_i, r, n)
                return _dd3(search, c_i, r, 2)
            if search.keep_passing and n == 2 and i == 0 and t[i] is Outcome.PASS:
                search.kept += 1
                search.decide(Case.KEEP_PASSING, parts[1], r_c_i, n)
                return _dd3(search, parts[1], r_c_i, 2)
        complements = [_complement(parts, i) for i in range(n)]
        t_bar = _test_complements(search, parts, complements, t, r)
        for i in range(n):
            if t[i] is Outcome.PASS and t_bar[i] is Outcome.PASS:
                search.decide(Case.INTERFERENCE, parts[i], r, n)
                d_i = _dd3(search, parts[i], joined(r, complements[i]), 2)
                d_bar_i = _dd3(search, complements[i], joined(r, parts[i]), 2)
                return d_i | d_bar_i
        for i in range(n):
            if t[i] is Outcome.UNRESOLVED and t_bar[i] is Outcome.PASS:
                search.decide(Case.PREFERENCE, parts[i], r, n)
                return _dd3(search, parts[i], joined(r, complements[i]), 2)
        c_prime = set(c)
        passed: list[T] = []  # r' = r | passed: built from r, not copied (wynot.lineage)
        inside_part = False  # a failing complement's part took c' further in
        for i in range(n):
            if t_bar[i] is Outcome.FAIL:
                ran = search.ran(joined(r, complements[i]), c, r)
                if ran is not None and len(ran) < len(c):  # repaired by some of c_i: those stay
                    c_prime.difference_update(set(parts[i]) - ran)
                else:
                    c_prime.difference_update(parts[i])
                inside = search.part(joined(r, complements[i]), c_prime)
                if inside is not None:
                    c_prime.intersection_update(inside)
                    inside_part = True
            if t[i] is Outcome.PASS:
                c_prime.difference_update(parts[i])
                passed.extend(parts[i])
        if inside_part and c_prime:  # as a new dd_3: its first subsets asked again
            r_prime = joined(r, passed)
            search.decide(Case.INSIDE_PART, c_prime, r_prime, n)
            c, r, n, hopeless = search.ordered(c_prime), r_prime, 2, 0
            continue
        if not passed and len(c_prime) == len(c):  # nothing decided
            probed = search.probed(c, r)
            if probed is not None:
                search.decide(Case.SUSPECTS, probed, r, n)
                c, n, hopeless = search.ordered(probed), 2, 0
                continue
        if n < len(c) and c_prime:
            if search.complements_only and not search.resolved_subset:
                hopeless += 1
            else:
                hopeless = 0
            r_prime = joined(r, passed)
            search.decide(Case.TRY_AGAIN, c_prime, r_prime, n)
            n = min(len(c_prime), 2 * n)
            c, r = search.ordered(c_prime), r_prime
            continue
        search.decide(Case.NOTHING_LEFT, c_prime or set(c), r, n)
        return frozenset(c_prime or c)


def _complement(parts: list[tuple[T, ...]], i: int) -> tuple[T, ...]:
    return tuple(x for j, part in enumerate(parts) if j != i for x in part)


def _test_complements(
    search: _Search[T],
    parts: list[tuple[T, ...]],
    complements: list[tuple[T, ...]],
    t: list[Outcome],
    r: frozenset[T],
) -> list[Outcome | None]:
    """Test the complements that a case can still use, in index order.

    Interference (needs t_i = PASS) outranks preference (needs t_i = UNRESOLVED),
    so once an interference is seen nothing else is tested, and once a
    preference is seen only complements of passing subsets are.
    """
    t_bar: list[Outcome | None] = [None] * len(parts)
    preference_seen = False
    for i, c_bar_i in enumerate(complements):
        if preference_seen and t[i] is not Outcome.PASS:
            continue
        t_bar[i] = search.test(joined(r, c_bar_i))
        if t[i] is Outcome.PASS and t_bar[i] is Outcome.PASS:
            break
        if t[i] is Outcome.UNRESOLVED and t_bar[i] is Outcome.PASS:
            preference_seen = True
    return t_bar


# ---------------------------------------------------------------------------
# ddmin (AADEBUG 2000, Figure 1)


def ddmin(
    changes: Sequence[T],
    test: Oracle[T],
    *,
    split: Split[T] = split_evenly,
    observe: Callable[[Event[T]], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> frozenset[T]:
    """Return a 1-minimal failing subset of ``changes``.

    1-minimal: the result FAILs, and removing any single change from it gives
    a configuration that does not FAIL (PASS or UNRESOLVED). UNRESOLVED counts
    as "does not fail" throughout.
    """
    if len(changes) == 0:
        raise ValueError("ddmin needs at least one change")
    search = _Search(changes, test, split, observe, stop)
    c: tuple[T, ...] = tuple(changes)
    n = 2
    while True:
        if len(c) == 1:
            search.decide(Case.DONE, c, n=n)
            return frozenset(c)
        parts = search.split(c, n)
        n = len(parts)
        reduced = _ddmin_reduce(search, parts, n)
        if reduced is not None:
            c, n = reduced
            continue
        if n < len(c):
            search.decide(Case.INCREASE_GRANULARITY, c, n=n)
            n = min(len(c), 2 * n)
            continue
        search.decide(Case.DONE, c, n=n)
        return frozenset(c)


def _ddmin_reduce(
    search: _Search[T], parts: list[tuple[T, ...]], n: int
) -> tuple[tuple[T, ...], int] | None:
    """ddmin's two reduction cases: the new (c, n), or None if neither applies."""
    for c_i in parts:
        if search.test(frozenset(c_i)) is Outcome.FAIL:
            search.decide(Case.FOUND_IN, c_i, n=n)
            return c_i, 2
    if n == 2:
        return None  # the complements are the subsets just tested
    for i in range(n):
        c_bar_i = _complement(parts, i)
        if search.test(frozenset(c_bar_i)) is Outcome.FAIL:
            search.decide(Case.REDUCE_TO_COMPLEMENT, c_bar_i, n=n)
            return c_bar_i, max(n - 1, 2)
    return None


# ---------------------------------------------------------------------------
# dd (isolation): a passing and a failing configuration, 1-minimal difference


def dd(
    changes: Sequence[T],
    test: Oracle[T],
    *,
    split: Split[T] = split_evenly,
    observe: Callable[[Event[T]], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> tuple[frozenset[T], frozenset[T]]:
    """Return ``(c_pass, c_fail)`` with ``c_pass < c_fail`` and a 1-minimal difference.

    ``test(c_pass)`` is PASS and ``test(c_fail)`` is FAIL; for every change
    ``delta`` in ``c_fail - c_pass``, ``c_pass | {delta}`` does not PASS and
    ``c_fail - {delta}`` does not FAIL: no single change moves either side
    closer to the other.
    """
    if len(changes) == 0:
        raise ValueError("dd needs at least one change")
    search = _Search(changes, test, split, observe, stop)
    c_pass: frozenset[T] = frozenset()
    c_fail: frozenset[T] = frozenset(changes)
    n = 2
    while True:
        delta = search.ordered(c_fail - c_pass)
        if len(delta) == 1:
            search.decide(Case.DONE, delta, c_pass, n)
            return c_pass, c_fail
        parts = search.split(delta, n)
        n = len(parts)
        step = _dd_step(search, c_pass, c_fail, parts, n)
        if step is not None:
            c_pass, c_fail, n = step
            continue
        if n < len(delta):
            search.decide(Case.INCREASE_GRANULARITY, delta, c_pass, n)
            n = min(len(delta), 2 * n)
            continue
        search.decide(Case.DONE, delta, c_pass, n)
        return c_pass, c_fail


def _dd_step(
    search: _Search[T],
    c_pass: frozenset[T],
    c_fail: frozenset[T],
    parts: list[tuple[T, ...]],
    n: int,
) -> tuple[frozenset[T], frozenset[T], int] | None:
    """The four narrowing cases of dd, in priority order; None if none applies."""
    added = [c_pass | frozenset(delta_i) for delta_i in parts]
    removed = [c_fail - frozenset(delta_i) for delta_i in parts]
    t_added: list[Outcome] = []
    for i, config in enumerate(added):
        t_added.append(search.test(config))
        if t_added[i] is Outcome.FAIL:
            search.decide(Case.FOUND_IN, parts[i], c_pass, n)
            return c_pass, config, 2
    t_removed: list[Outcome] = []
    for i, config in enumerate(removed):
        t_removed.append(search.test(config))
        if t_removed[i] is Outcome.PASS:
            search.decide(Case.FOUND_IN, parts[i], config, n)
            return config, c_fail, 2
    reduce = max(n - 1, 2)
    for i in range(n):
        if t_added[i] is Outcome.PASS:
            search.decide(Case.INCREASE_TO_COMPLEMENT, parts[i], added[i], n)
            return added[i], c_fail, reduce
    for i in range(n):
        if t_removed[i] is Outcome.FAIL:
            search.decide(Case.INCREASE_TO_COMPLEMENT, parts[i], c_pass, n)
            return c_pass, removed[i], reduce
    return None
