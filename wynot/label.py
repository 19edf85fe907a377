"""After dd+: an answer that fails on its own, its context minimised by units, labels.

:func:`standalone` grows dd+'s answer until it fails applied alone to GOOD.
:func:`label` then minimises the context that answer carries over *units*
(the grouping's units, which hold the components of the derived and learned
dependencies, and every cycle of the dependencies inside the answer): the
cause alone, then the cause with its derived closure, then each unit of the
context removed as a whole, farthest from the cause first. A cluster of
changes that need each other (a renamed function and its callers) drops in
one run. Only inside a unit that stays are single changes removed, and the
labels come from those same runs: removing a cause makes the test PASS,
removing context makes it UNRESOLVED. The configurations each step tries are
computed by pure functions (:mod:`wynot.label_units`), so that they can be
run in parallel.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from wynot.analysis.depends import Dependencies
from wynot.analysis.grouping import Plan
from wynot.dd import SearchStopped
from wynot.grow import Repair, grow, worth_growing
from wynot.label_units import (
    closed_part,
    cores,
    distances,
    in_units,
    joined_needs,
    needed_cores,
    reach,
    sweep_units,
    with_users,
)
from wynot.oracle import SearchOracle
from wynot.outcome import Outcome
from wynot.removals import Blame, Evidence, probe, unbuilt
from wynot.result import CACHED, CAUSE, CONTEXT, INSEPARABLE, RAN, TestRecord, plural
from wynot.search import Stop, search_dd_plus
from wynot.suspects import related
from wynot.tester import Tester

# ``shown(output, applied)``: (user, needed) pairs, an error on the applied change
# ``user`` whose one repair is ``needed`` (:meth:`SearchOracle.needs_shown`).
Shown = Callable[[str, frozenset[int]], frozenset[tuple[int, int]]]
DROPS_BEFORE_BATCHES = 4  # drops in a row after which the next removals go together
MAX_GROWTH = 2  # times a removal of a cluster grows by what its own errors show
MAX_DEAD_ENDS = 2  # cores run in vain (grown or not), after which no more are tried
EARLY_CORES_FROM = 8  # a larger answer: the cores its errors' needs leave, before the sweep


@dataclass(frozen=True, slots=True)
class Labelled:
    """The answer after labelling: its changes and their roles (CAUSE, CONTEXT,
    or INSEPARABLE for every change when no single removal makes the test pass)."""

    chosen: frozenset[int]
    roles: dict[int, str]


def standalone(tester: Tester, plan: Plan, oracle: SearchOracle, chosen: frozenset[int],
               stop: Stop, keep_passing: bool) -> frozenset[int]:
    """Grow dd+'s answer until it fails on its own, measured by a real run.

    dd+'s answer is relative to the changes it kept applied, and with the
    failure-resolution loop an answer may stand for the enlarged configuration
    that was really tested. Either way some configuration that contains the
    answer was seen to FAIL (at worst BAD itself). An answer that the known
    dependencies say cannot build is not run: its closure is tried instead,
    through the oracle (so a build error there is resolved too). Then, with
    failure resolution on, the answer is grown by repairs from the smallest
    failing configuration that contains it (:func:`wynot.grow.grow`); failing
    that, the context the answer needs is searched inside that configuration,
    with the answer applied: dd+ over a handful of changes rather than over
    all the others.

    That search asks the oracle too, so its answer is again nominal: with
    failure resolution, the configuration that FAILED for it may be the one its
    repairs reached. Then the search is not started again from the nominal
    answer (each round would add only what the last repairs added): the
    smallest configuration that really ran and FAILED around it is the answer,
    when a resolution loop reached it and it is smaller than the one the search
    went through, and labelling minimises its context over units
    (:func:`label`). So is the configuration the search went through when no
    smaller one around the grown answer FAILED (all its changes hold each
    other up: a search inside it again would add one change a round). Raises
    SearchStopped when the budget runs out.
    """
    searched: frozenset[int] | None = None  # what the last context search went through
    restarted: set[frozenset[int]] = set()  # failing configurations searched again
    while True:
        closed = oracle.deps.closure(chosen)
        if closed == chosen or tester.has_run(chosen):  # else it cannot build: skip it
            if stop() and not tester.has_run(chosen):
                raise SearchStopped(chosen, tester.runs("search"))
            if tester.decide(chosen, "search").outcome is Outcome.FAIL:
                return chosen
        if closed != chosen and not tester.has_run(closed) and not stop():
            oracle(closed)
        around = smallest_failing_superset(tester, chosen) or frozenset(plan.order)
        inside = smallest_failing(tester)
        if (inside is not None and len(inside) < len(around) and not chosen <= inside
                and inside not in restarted):
            # dd+ went by a failure that a part of its question showed (a repair
            # took out what broke the build): the search starts again inside it
            restarted.add(inside)
            tester.progress(f"the {plural(len(chosen), 'change')} found need"
                            f"{'s' if len(chosen) == 1 else ''} context to fail, and a "
                            f"smaller configuration without {'it' if len(chosen) == 1 else 'them'}"
                            f" failed: searching its {len(inside)} changes again")
            chosen = search_dd_plus(tester, oracle, [c for c in plan.order if c in inside],
                                    frozenset(), plan.split, stop, keep_passing)
            searched = None
            continue
        if searched is not None and around < searched and reached_by_repairs(tester, around):
            tester.progress(f"the {plural(len(chosen), 'change')} found fail"
                            f"{'s' if len(chosen) == 1 else ''} only with what "
                            f"repairs added: the answer is the {len(around)}-change "
                            "configuration that failed, its context minimised by units")
            return around
        if around == searched:  # the last search found no smaller failing configuration
            tester.progress(f"the {plural(len(chosen), 'change')} found fail"
                            f"{'s' if len(chosen) == 1 else ''} only within the "
                            f"{len(around)}-change configuration searched: it is the "
                            "answer, its context minimised by units")
            return around
        if oracle.resolver is not None and worth_growing(chosen, around):  # its errors
            grown = grow(tester, oracle.resolution, chosen, around, stop, "search",
                         oracle.helped_by)
            if grown is not None:
                return grown
        rest = [c for c in plan.order if c in around and c not in chosen]
        tester.progress(f"the {plural(len(chosen), 'change')} found need"
                        f"{'s' if len(chosen) == 1 else ''} context to fail; searching the "
                        f"{plural(len(rest), 'other')} of the smallest failing configuration "
                        f"that contains {'it' if len(chosen) == 1 else 'them'}")
        alike = functools.partial(related, tester.diff, chosen, rest)
        chosen = chosen | search_dd_plus(tester, oracle, rest, chosen, plan.split, stop,
                                         keep_passing, (alike, "that share the most names"))
        searched = around


def reached_by_repairs(tester: Tester, ids: frozenset[int]) -> bool:
    """Whether ``ids`` FAILED as the configuration a resolution loop reached from
    another one, and its verdict stands (a flaky FAIL's confirmation may have
    passed)."""
    verdict = tester.earlier(ids)
    return verdict is not None and verdict.outcome is Outcome.FAIL and any(
        r.ids == ids and r.resolving is not None and r.outcome is Outcome.FAIL
        for r in tester.records)


def smallest_failing(tester: Tester) -> frozenset[int] | None:
    """The smallest configuration that really ran and FAILED (the first of those as
    small)."""
    return min(_failing(tester), key=len, default=None)


def smallest_failing_superset(tester: Tester, ids: frozenset[int]) -> frozenset[int] | None:
    """The smallest configuration containing ``ids`` that really ran and FAILED."""
    return min((f for f in _failing(tester) if ids < f), key=len, default=None)


def _failing(tester: Tester) -> Iterator[frozenset[int]]:
    """The hunk configurations that really ran (or were replayed) and FAILED, in turn.

    Only FAILs that stand: with a flaky test a configuration whose verdict is a
    PASS (a later run of it passed, and a PASS is trusted) has not failed, nor
    has GOOD's empty configuration, whose premise reruns may fail at random."""
    for r in tester.records:
        if r.outcome is Outcome.FAIL and r.source in (RAN, CACHED) and not r.commit and r.ids:
            verdict = tester.earlier(r.ids)
            if verdict is None or verdict.outcome is Outcome.FAIL:
                yield r.ids


def label(tester: Tester, chosen: frozenset[int], stop: Stop, deps: Dependencies,
          found: frozenset[int], units: Mapping[int, int],
          repair: Repair | None = None, blame: Blame | None = None,
          broken: Blame | None = None, shown: Shown | None = None,
          untouched: Callable[[frozenset[int]], frozenset[int]] | None = None) -> Labelled:
    """Minimise the context of a failing answer over units, then label it, by real runs.

    ``found`` is dd+'s own answer (the cause as the search saw it), ``units``
    the grouping's unit of each change. First the cause alone and the cause
    with the changes it needs by the derived dependencies (one run each,
    when they differ from the answer): if either fails, the rest of the
    context goes at once. With ``untouched`` (the changes of a configuration
    that no error of the search's runs that did not build involved), so
    does it when the answer's changes that no such error involved, less those
    that lack what they need, FAIL on their own (one run, for an answer of
    more than :data:`EARLY_CORES_FROM` changes): in a tangle the errors show
    where its parts hold each other up, and a cause that builds on GOOD lies
    outside them. With ``repair`` (failure resolution), the cause
    alone is tried even where the derived dependencies say it cannot build,
    and an import or build error it reports is repaired by changes of the
    answer (:func:`wynot.grow.grow`). Then the changes the dependencies pulled in from
    afar, all together. Then :func:`sweep_units`: each unit removed whole,
    and single changes only inside the units that stay. A removal that still
    FAILS drops what it removed, which makes the answer 1-minimal over units
    and over changes; the sweep goes on after a drop, and the labels given
    before it are stale and are given again by another sweep. With ``blame``
    (failure resolution: the changes an error output names as its one
    repair), a removal that an earlier run shows cannot build is labelled from
    that run, and removals no run answers are first probed together
    (:mod:`wynot.removals`). With ``broken`` (the applied changes an error
    output is reported on), an answer with context is tried once more
    without each context change and every change that broke without it
    (:func:`_without_users`): a cluster of changes that only hold each other
    up, beside the cause or around a small cause that no single removal
    showed. Before that, with ``shown`` (the needs an error output shows), the
    smaller answers those needs leave buildable are tried (:func:`_needed_core`):
    an answer where every removal breaks the build, and so no change is
    labelled a cause, may still hold a small failing core that the rest of
    its context is not needed by. Raises SearchStopped (with the answer so
    far, which fails) when the budget runs out.
    """
    needs = deps.needs_only()
    distance = distances(needs, found)
    growing = repair if repair is not None and worth_growing(found & chosen, chosen) else None
    for core in cores(chosen, found, needs, closed_only=growing is None):
        if growing is not None:  # the rest of the context at once, but the repairs
            grown = grow(tester, growing, core, chosen, stop)
            if grown is not None:
                chosen = grown
                break
        elif _run_label(tester, core, stop, chosen) is Outcome.FAIL:
            chosen = core
            break
    if untouched is not None and len(chosen) > EARLY_CORES_FROM:  # else one removal each
        clear = needs.interior(untouched(chosen))
        if clear and clear < chosen:
            if not tester.has_run(clear):  # else its run answers, free
                tester.progress(f"trying the {plural(len(clear), 'change')} of the answer "
                                "that no build error involved")
            if _run_label(tester, clear, stop, chosen) is Outcome.FAIL:
                chosen = clear
    batches = repair if repair is not None and worth_growing(frozenset(), chosen) else None
    far = frozenset(c for c in chosen if distance.get(c, 0) > 1)
    if len(far) > 1 and far < chosen and _run_label(
            tester, chosen - far, stop, chosen) is Outcome.FAIL:
        chosen -= far
    evidence = Evidence(tester, blame) if blame is not None else None
    roles: dict[int, str] = {}
    alone: set[int] = set()  # labelled by a removal of their own since the last drop
    shown_by_run: dict[int, frozenset[tuple[int, int]]] = {}  # each run's errors read once
    if shown is not None and len(chosen) > EARLY_CORES_FROM:
        # the search's runs that did not build already show needs: a small core
        # they leave buildable costs at most ⌈log2 n⌉ runs, the sweep one per unit
        chosen = _needed_core(tester, stop, chosen, frozenset(), needs, shown, {}, repair,
                              evidence, shown_by_run, dead_ends=1)
    while True:
        while len(roles) < len(chosen) or not alone >= in_units(chosen, deps, units):
            chosen, roles, alone = _sweep(tester, stop, chosen, needs, sweep_units(
                chosen, roles.keys(), alone, deps, units, distance), roles, alone, batches,
                evidence)
        if (broken is None and shown is None) or CONTEXT not in roles.values():
            break
        causes = frozenset(c for c, role in roles.items() if role == CAUSE)
        users = _broke_without(tester, chosen, broken) if broken is not None else {}
        smaller = chosen
        if shown is not None:
            smaller = _needed_core(tester, stop, chosen, causes, needs, shown, users,
                                   repair, evidence, shown_by_run)
        if smaller == chosen and broken is not None:
            smaller = _without_users(tester, stop, chosen, causes, broken, users)
        if smaller == chosen:
            break
        chosen, roles, alone = smaller, {}, set()
    if roles and CAUSE not in roles.values():
        roles = dict.fromkeys(roles, INSEPARABLE)
    return Labelled(chosen, roles)


def _sweep(tester: Tester, stop: Stop, chosen: frozenset[int], needs: Dependencies,
           removals: list[frozenset[int]], roles: dict[int, str],
           alone: set[int], repair: Repair | None = None, evidence: Evidence | None = None
           ) -> tuple[frozenset[int], dict[int, str], set[int]]:
    """One pass over ``removals``: (the answer, its roles, the changes labelled alone).

    A removal that still FAILS drops what it removed and makes the labels stale.
    After :data:`DROPS_BEFORE_BATCHES` drops in a row the next removals go
    together, two in one run, then four, doubling while they FAIL and halving
    when they do not: a context of hundreds of unneeded changes goes in a
    logarithmic number of runs. With ``repair``, a batch whose removal is
    UNRESOLVED gets one more run with the changes its errors name put back
    (:func:`_removed`). A unit of several changes whose removal is
    UNRESOLVED, and which at most as many other changes of the answer need,
    is removed once more with them (:func:`closed_part`): if that FAILS, all
    of them drop (a part of the program that the cause does not use, and its
    few users; a unit that more changes need is likelier to be what the cause
    stands on). Labels come only from removals of one unit. With ``evidence``,
    a removal that an earlier run shows cannot build is not run, and one
    that no run answers yet is first removed together with the next pending
    ones (:func:`wynot.removals.probe`).
    """
    at, width, streak = 0, 1, 0
    while at < len(removals):
        batch = [r for r in removals[at:at + width] if r <= chosen]  # else dropped
        removed = frozenset().union(*batch)
        rest = chosen - removed
        # idle workers run the removals this sweep tries next (from the current
        # answer: a drop makes them stale, and they are cancelled)
        tester.speculate([rest] + [chosen - r for r in removals[at + width:] if r <= chosen])
        if len(batch) > 1:
            kept = _removed(tester, stop, chosen, rest, repair) if rest else None
            if kept is not None:
                chosen, roles, alone = kept, {}, set()
                at, width = at + width, width * 2
            else:
                width //= 2  # the same removals again, fewer at a time
            continue
        at, width = at + width, 1
        if not batch:
            continue
        if len(removed) == 1 and roles.get(min(removed)) == CONTEXT and not needs.is_closed(
                rest):  # its unit is context, and the rest needs it: no run
            tester.predict(rest, "label", "predicted: the rest of its unit needs it")
            alone.update(removed)
            continue
        answer = (_answered(tester, stop, chosen, removed, removals[at:], evidence)
                  if evidence is not None else None)  # a run that did not build without it
        if isinstance(answer, frozenset):  # a probe that still FAILS: all it removed drop
            chosen, roles, alone, streak = answer, {}, set(), streak + 1
            continue
        outcome = (_run_label(tester, rest, stop, chosen) if answer is None else tester.predict(
            rest, "label", f"predicted: test {answer.number} did not build without "
            f"{'it' if len(removed) == 1 else 'them'}").outcome)
        several = outcome is Outcome.UNRESOLVED and len(removed) > 1
        closed = closed_part(rest, needs) if several else rest
        if (closed != rest and closed and len(rest - closed) <= len(removed)
                and _run_label(tester, closed, stop, chosen) is Outcome.FAIL):
            chosen, roles, alone, streak = closed, {}, set(), streak + 1  # its users with it
            width = 2 if streak >= DROPS_BEFORE_BATCHES else 1
            continue
        if outcome is Outcome.FAIL and rest:  # labels before the drop are stale
            chosen, roles, alone, streak = rest, {}, set(), streak + 1
            width = 2 if streak >= DROPS_BEFORE_BATCHES else 1
            continue
        streak = 0
        roles.update(dict.fromkeys(removed, CAUSE if outcome is Outcome.PASS else CONTEXT))
        if len(removed) == 1:
            alone.update(removed)
    return chosen, roles, alone


def _without_users(tester: Tester, stop: Stop, chosen: frozenset[int],
                   causes: frozenset[int], broken: Blame,
                   users: Mapping[int, set[int]]) -> frozenset[int]:
    """``chosen`` (a labelled answer with context) less the first removal that still
    FAILS, or ``chosen`` when none does; no removal takes one of ``causes``
    (the changes whose removal made the test PASS).

    The errors of each single removal that ran say which changes of the
    answer broke without the removed one (``users``, :func:`_broke_without`):
    they need it. Where a small cause
    sits inside a cluster of changes that only hold each other up (a rewrite
    of the parser that the cause does not use), every single removal of the
    cluster breaks another member, and only the whole cluster goes: each
    change with every change that needs it, transitively, largest first
    (:func:`~wynot.label_units.with_users`). A first error shows only the
    first users, so a removal that does not build grows by the changes its
    own errors are reported on (and theirs), up to :data:`MAX_GROWTH` times.
    At most ⌈log2 n⌉ + 2 runs in all for an answer of n changes: on an
    answer that is minimal, every one of them is a run for nothing.
    """
    removals = [r for r in with_users(chosen, users) if not r & causes]
    if removals:
        tester.progress(f"trying {plural(len(removals), 'cluster')} of context that broke "
                        "without one another")
    runs = (len(chosen) - 1).bit_length() + 2  # ⌈log2 n⌉ + 2
    tester.speculate([chosen - r for r in removals[:runs]])
    tried: set[frozenset[int]] = set()
    for removal in removals:
        for _ in range(MAX_GROWTH + 1):
            if removal in tried or len(tried) >= runs:
                break
            tried.add(removal)
            rest = chosen - removal
            record = _label_run(tester, rest, stop, chosen)
            if record.outcome is Outcome.FAIL:
                return rest
            if record.outcome is not Outcome.UNRESOLVED:
                break
            more = broken(record.output_text(), rest) & rest
            if not more:
                break
            removal = reach(removal | more, chosen, users)
            if removal >= chosen or removal & causes:
                break
    return chosen


def _broke_without(tester: Tester, chosen: frozenset[int],
                   broken: Blame) -> dict[int, set[int]]:
    """Each change of ``chosen`` -> the changes of ``chosen`` that broke when it alone
    was removed (the errors of the runs of ``chosen`` less one change)."""
    users: dict[int, set[int]] = {}
    for record in tester.records:
        if unbuilt(record) and len(record.ids) + 1 == len(chosen) and record.ids < chosen:
            (removed,) = chosen - record.ids
            users.setdefault(removed, set()).update(
                broken(record.output_text(), record.ids) & chosen)
    return users


def _needed_core(tester: Tester, stop: Stop, chosen: frozenset[int], causes: frozenset[int],
                 derived: Dependencies, shown: Shown, users: Mapping[int, set[int]],
                 repair: Repair | None, evidence: Evidence | None,
                 shown_by_run: dict[int, frozenset[tuple[int, int]]],
                 dead_ends: int = MAX_DEAD_ENDS) -> frozenset[int]:
    """The first of :func:`~wynot.label_units.needed_cores` that FAILS (smallest
    first), or ``chosen`` when none does: at most ⌈log2 n⌉ runs for an answer
    of n changes, and only on the cores :func:`_worth_trying`.

    The needs come from every run of this search that did not build: an error
    on a change of ``chosen`` whose one repair is another change of ``chosen``
    (``shown``), whatever else that run lacked, and the changes that broke
    when one change alone was removed (``users``: :func:`_broke_without`). They
    are not all seen, so
    a core that does not build grows by the changes of ``chosen`` its errors
    name (``repair``), with what those need, up to :data:`MAX_GROWTH` times. A
    core that an earlier run shows cannot build is not run: it grows by the
    changes that run's errors blame (:class:`Evidence`). After ``dead_ends``
    cores run in vain that did not build (grown as far as they could be), the
    needs at hand are too incomplete to guess a core from: no more are tried
    (one, before the sweep, when only the search's runs have shown needs). A
    core that PASSES is no dead end: the needs built it, and the cause lies
    elsewhere; the cores inside it are not tried. ``shown_by_run`` keeps each
    run's pairs, read once per labelling.
    """
    needs: dict[int, set[int]] = {}
    for record in tester.records:
        if unbuilt(record):
            pairs = shown_by_run.get(record.number)
            if pairs is None:
                pairs = shown_by_run[record.number] = shown(record.output_text(), record.ids)
            for user, needed in pairs:
                if user in chosen and needed in chosen:
                    needs.setdefault(user, set()).add(needed)
    for needed, broke in users.items():
        for user in broke:
            needs.setdefault(user, set()).add(needed)
    passed = [r.ids for r in tester.records if r.outcome is Outcome.PASS and not r.commit]
    candidates = [c for c in needed_cores(chosen, causes, needs, derived)
                  if _worth_trying(c, chosen, passed)]
    if candidates:
        tester.progress(f"trying {plural(len(candidates), 'smaller answer')} that the "
                        "needs the errors showed leave buildable")
    runs = (len(chosen) - 1).bit_length()  # ⌈log2 n⌉
    tester.speculate(candidates[:runs])
    both = joined_needs(chosen, needs, derived)
    tried: set[frozenset[int]] = set()
    vain = 0
    for core in candidates:
        if vain == dead_ends:
            break
        left, built = runs, False
        for _ in range(MAX_GROWTH + 1):
            if core in tried or runs == 0 or not _worth_trying(core, chosen, passed):
                break
            tried.add(core)
            if evidence is not None and (
                    known := evidence.unbuildable(core, chosen - core)) is not None:
                tester.predict(core, "label", f"predicted: test {known.number} did not build "
                               "without the rest")
                lacking = evidence.blamed(known) & chosen
            else:
                runs -= 1
                record = _label_run(tester, core, stop, chosen)
                if record.outcome is Outcome.FAIL:
                    return core
                if record.outcome is Outcome.PASS:  # it built: the cause lies elsewhere
                    built = True
                    passed.append(core)
                    break
                resolution = (repair(record.output_text(), core) if repair is not None
                              and record.outcome is Outcome.UNRESOLVED else None)
                lacking = resolution.add & chosen if resolution is not None else frozenset()
            if not lacking - core:
                break
            core = reach(core | lacking, chosen, both)
        if runs < left and not built:  # runs for a core that did not build, grown or not
            vain += 1
    return chosen


def _worth_trying(core: frozenset[int], chosen: frozenset[int],
                  passed: Sequence[frozenset[int]]) -> bool:
    """Whether a core is worth a run: two changes at least (a single change that
    fails alone, among changes that hold each other up, is what the removal of
    clusters finds), at most half of ``chosen`` (a small answer is the point;
    a core that keeps most of the answer saves less than its run costs), and
    not inside a configuration that PASSED (what a passing configuration holds
    does not fail, as dd+ assumes)."""
    return (len(core) >= 2 and 2 * len(core) <= len(chosen)
            and not any(core <= ids for ids in passed))


def _answered(tester: Tester, stop: Stop, chosen: frozenset[int], removed: frozenset[int],
              later: Sequence[frozenset[int]], evidence: Evidence
              ) -> TestRecord | frozenset[int] | None:
    """The run that shows ``chosen - removed`` cannot build (:class:`Evidence`); else,
    after a probe that removes it with the next pending removals of ``later``,
    that probe's answer when it still FAILS, or the run it has become; else None."""
    known = evidence.unbuildable(chosen - removed, removed)
    if known is not None:
        return known
    pending = [removed] + [r for r in later if r <= chosen and r != removed
                           and evidence.unbuildable(chosen - r, r) is None]
    dropped = probe(lambda config: _label_run(tester, config, stop, chosen), evidence,
                    chosen, pending)
    return dropped if dropped is not None else evidence.unbuildable(chosen - removed, removed)


def _removed(tester: Tester, stop: Stop, chosen: frozenset[int], rest: frozenset[int],
             repair: Repair | None) -> frozenset[int] | None:
    """``rest`` (``chosen`` less a batch of units) if it still FAILS; else, when it is
    UNRESOLVED and its errors name changes of the batch (``repair``), ``rest`` with
    those put back if that FAILS (one more run); else None."""
    record = _label_run(tester, rest, stop, chosen)
    if record.outcome is Outcome.FAIL:
        return rest
    if repair is None or record.outcome is not Outcome.UNRESOLVED:
        return None
    resolution = repair(record.output_text(), rest)
    if resolution is None:
        return None
    back = (resolution.add & chosen) - rest
    if not back or len(back) * 2 > len(chosen - rest):  # most of the batch: no gain
        return None
    tester.progress(f"resolving: {', '.join(resolution.names[:4])} -> putting back "
                    f"{plural(len(back), 'change')} of the removed ones")
    return rest | back if _run_label(tester, rest | back, stop, chosen) is Outcome.FAIL else None


def _run_label(tester: Tester, config: frozenset[int], stop: Stop,
               answer: frozenset[int]) -> Outcome:
    """One label test's outcome (:func:`_label_run`)."""
    return _label_run(tester, config, stop, answer).outcome


def _label_run(tester: Tester, config: frozenset[int], stop: Stop,
               answer: frozenset[int]) -> TestRecord:
    """One label test; SearchStopped (carrying ``answer``) once the budget is spent."""
    if stop() and not tester.has_run(config):
        raise SearchStopped(answer, tester.runs("label"))
    return tester.decide(config, "label")
