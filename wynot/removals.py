"""Removals from an answer that the compiler has already answered.

Labelling removes units (and single changes) from a failing answer, one run
each, to see whether the test still fails. Where the changes hold each other
up (a prototype and every caller of the function, a renamed local and its
uses), most of those removals do not build, and each costs a run that only
says so. Much of that is known without the run: an earlier configuration
that did not build, and is contained in the removal, reported an error that
exactly one change repairs (the hunk at the error's line, or the one change
that declares the name), and that change is among the removed ones. The
removal keeps every change that configuration had, and lacks the one the
error needs, so it does not build either (:class:`Evidence`). The earlier
configuration may be a run of the search, of the context search or of
labelling: the label comes from a run already made.

Where no run answers a removal yet, one run can answer many:
:func:`probe` removes several pending units at once; the errors it reports
name, each by its one repair, the removed changes the rest cannot build
without, and each of those removals is then answered by that run. A probe
that still FAILS drops all it removed at once. The assumption is the one
failure resolution makes: an error that one change repairs is still
reported while that change is missing, whatever else is applied.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from wynot.outcome import Outcome
from wynot.result import CACHED, RAN, TestRecord
from wynot.tester import Tester

# ``blame(output, applied)``: the changes outside ``applied`` that one error of
# ``output`` alone points to (:meth:`wynot.analysis.resolve.Resolver.culprits`).
Blame = Callable[[str, frozenset[int]], frozenset[int]]
# A label run: the record of one configuration, SearchStopped once the budget is spent.
LabelRun = Callable[[frozenset[int]], TestRecord]

MIN_PROBE = 3  # pending removals below which single runs cost as little as a probe
MAX_PROBE = 16  # units one probe removes at most
MAX_DEBT = 2  # runs the probes may cost beyond what they saved before they stop


@dataclass
class Prober:
    """How many units the next probe removes: doubled after a probe whose errors
    answered at least half of what it removed, halved otherwise, never below
    :data:`MIN_PROBE`; and whether probes still pay. A probe costs a run and
    saves one for each removal its errors answer (each it drops, when it still
    FAILS): once the probes of this labelling have cost more than
    :data:`MAX_DEBT` runs beyond what they saved, no more are made (errors that
    rarely have one repair, as g++'s in templates, answer one removal a probe
    or none). A single unlucky probe no longer ends them: a width that went
    below three used to, for the rest of the labelling (docs/performance.md).
    Errors that stop at the first one, as Python's do, keep the probes from
    starting at all (:meth:`Evidence.several`)."""

    width: int = 4
    credit: int = 0  # runs the probes saved, less the runs they cost

    def batch(self, pending: Sequence[frozenset[int]], limit: int) -> list[frozenset[int]]:
        """The removals the next probe takes together: the first of ``pending`` and
        the next ones, at most ``limit`` changes in all; [] when that is fewer
        than :data:`MIN_PROBE` removals, or once the probes no longer pay."""
        if self.credit < -MAX_DEBT:
            return []
        taken: list[frozenset[int]] = []
        size = 0
        for removal in pending[:self.width]:
            if size + len(removal) > limit:
                break
            taken.append(removal)
            size += len(removal)
        return taken if len(taken) >= MIN_PROBE else []

    def learn(self, batch: Sequence[frozenset[int]], answered: int) -> None:
        """Adjust the width after a probe that answered ``answered`` of ``batch``."""
        if 2 * answered >= len(batch):
            self.width = min(2 * self.width, MAX_PROBE)
        else:
            self.width = max(self.width // 2, MIN_PROBE)
        self.paid(answered)

    def paid(self, saved: int) -> None:
        """Count a run (a probe, or the removal of what it left unanswered) that
        spared ``saved`` runs."""
        self.credit += saved - 1


def unbuilt(record: TestRecord) -> bool:
    """Whether ``record`` is a run of hunks (not a commit) that ran, or was answered
    by the cache, and did not build, its output kept: errors to read."""
    return (record.outcome is Outcome.UNRESOLVED and record.source in (RAN, CACHED)
            and not record.commit and bool(record.output))


@dataclass
class Evidence:
    """The runs of this search that did not build, read for the changes they lacked."""

    tester: Tester
    blame: Blame
    prober: Prober = field(default_factory=lambda: Prober())
    _blamed: dict[int, frozenset[int]] = field(default_factory=dict)
    _several: bool = False

    def unbuildable(self, rest: frozenset[int], removed: frozenset[int]) -> TestRecord | None:
        """A real run whose configuration ``rest`` contains and whose errors each
        name one change of ``removed`` as their only repair: ``rest`` cannot build
        either. None when no run shows it."""
        for record in reversed(self.tester.records):
            if unbuilt(record) and record.ids <= rest and self.blamed(record) & removed:
                return record
        return None

    def several(self) -> bool:
        """Whether some run of this search reported errors that blame two changes or
        more: the test's output shows many errors at once (a C compiler; Python
        stops at the first), so that one probe can answer several removals."""
        if not self._several:
            self._several = any(
                len(self.blamed(r)) > 1 for r in self.tester.records
                if r.outcome is Outcome.UNRESOLVED and r.source in (RAN, CACHED) and r.output)
        return self._several

    def blamed(self, record: TestRecord) -> frozenset[int]:
        """The changes ``record``'s errors name as their one repair (read once)."""
        known = self._blamed.get(record.number)
        if known is None:
            known = self.blame(record.output_text(), record.ids)
            self._blamed[record.number] = known
        return known


def probe(run: LabelRun, evidence: Evidence, chosen: frozenset[int],
          pending: Sequence[frozenset[int]]) -> frozenset[int] | None:
    """Remove several of ``pending`` (removals from ``chosen`` that no run answers
    yet) in one run. Returns the answer left when that still FAILS (all of them
    drop), else None: an UNRESOLVED probe has become evidence for the removals
    its errors answer, which :meth:`Evidence.unbuildable` then finds.

    The removals of the probe that its errors leave unanswered are what the
    rest may build without: when there are two or more, and fewer than the
    probe took, they are removed together in one more run (the complement of
    what the errors answered). A group that still FAILS drops all its
    members in one run, where one run each would find them one drop at a
    time (each drop making the labels given before it stale); one that does
    not build is evidence like the probe. Only once: a second complement,
    of what the first left unanswered, mostly removed one change fewer each
    time and cost more runs than it saved (docs/performance.md).

    A change removed together with the changes it needs shows no error of
    its own (nothing that stays conflicts with it); it is left to a run of
    its own. Keeping such changes apart in a probe made the probes smaller
    and cost more runs than it saved (docs/performance.md). No probe removes
    more than half of ``chosen`` (with most of the answer gone the cause
    goes too, and the probe PASSES: no evidence), and none is made before a
    run of this search has shown errors that blame two changes or more
    (:meth:`Evidence.several`)."""
    if not evidence.several():
        return None
    prober = evidence.prober
    batch = prober.batch(pending, len(chosen) // 2)  # the rest keeps half: it rarely PASSES
    rest = chosen - frozenset().union(*batch)
    if not batch or not rest:
        return None
    if run(rest).outcome is Outcome.FAIL:
        prober.paid(len(batch))
        return rest
    unanswered = [r for r in batch if evidence.unbuildable(chosen - r, r) is None]
    prober.learn(batch, len(batch) - len(unanswered))
    if 2 <= len(unanswered) < len(batch):  # what the errors did not answer, together
        rest = chosen - frozenset().union(*unanswered)
        if run(rest).outcome is Outcome.FAIL:
            prober.paid(len(unanswered))
            return rest
        prober.paid(sum(1 for r in unanswered if evidence.unbuildable(chosen - r, r)))
    return None
