"""The oracle dd+ asks: predicted outcomes, real tests, and failure resolution.

For a configuration it

1. when the configuration is not closed under the known dependencies, tests
   it closed under the *learned* ones instead, if that is closed under all
   and adds at most :data:`MAX_KNOWN_REPAIR` changes (a repair that built
   before, made again without the failed build first; if it does not build,
   the configuration is UNRESOLVED, with no further rounds, and once such
   repairs have failed more often than built they are not made again);
   else, or with the loop off, it predicts UNRESOLVED without running
   anything (paper, section 6): derived dependencies are guesses, and a
   configuration they say cannot build is not grown on them;
2. otherwise runs the test (through :class:`~wynot.tester.Tester`);
3. when that run did not build, runs the failure-resolution loop (paper,
   section 8): adds the few changes that the errors point to (with what the
   dependencies learned from repairs say they need; not the derived ones,
   which are guesses) and retries.
   A repair that does not remove the errors it targeted ends the loop, and
   the configuration is UNRESOLVED: a configuration never grows on a guess.
   The dependencies a repair reveals are learned only once the enlarged
   configuration builds. The pairs the compiler shows disagreeing (a call
   and its declaration read from two changes, one applied and one not) are
   kept whatever the repair gives, for labelling (:meth:`SearchOracle.known`).
   The answer is then the outcome of the enlarged configuration, as in the
   paper; the pipeline later checks that the final answer fails on its own.
   A repair step of a loop that ended UNRESOLVED (the same changes added for
   the same errors: :data:`Step`) is futile for configurations that differ
   from the one it was taken from only in changes the loop's last errors do
   not involve (:meth:`~wynot.analysis.resolve.Resolver.involved`): another
   such configuration whose run reaches that step is UNRESOLVED there,
   without the repair's runs, unless the same step was part of a loop that
   built from a configuration nearer it, with the same proviso. A step that
   ended :data:`MAX_FUTILE` loops so and helped none is futile anywhere.
4. a loop that built is remembered (:class:`Repaired`): the configuration it
   started from, the changes its errors involved and the changes its repairs
   added. A later configuration that agrees with that start on every involved
   change breaks alike, as far as the errors tell, so it is run at once with
   those repairs (closed under the known dependencies) instead of making the
   chain again: one run where the chain took two or more. If that run does not
   build, the loop goes on from its errors as from any round's; the memory
   that predicted it is dropped. The outcome is a real run's, as a loop's is.
5. a loop whose errors spread past what repairs add (every round taken and
   still not built, or a repair too large to try: one edit rewritten over
   more changes than rounds reach, of which the configuration holds a part)
   is answered from inside instead: the configuration without the changes
   its errors involve, and without those that need them, is run
   (:meth:`SearchOracle._shrink`, at most :data:`MAX_SHRINK_ROUNDS` times
   while it does not build). A part that FAILS answers FAIL (the failure
   lies inside the configuration, as with a repaired one that FAILS); a
   part that passes says nothing about the whole, which stays UNRESOLVED.
   Once more loops of the search have spread than built after repairs,
   growing is mostly in vain there: a configuration that does not build is
   answered from inside first, and grown only when its part says nothing.
   Until a part has FAILED in the search, this direction is tried
   :data:`MAX_VAIN_SHRINKS` times, then dropped: where the errors spread for
   other reasons (a tangle the cause is part of), every part passes.
   The diagnostics such a loop repaired are remembered: a later loop whose
   repairs lead to one of them, holding none of what that loop added after
   it, would walk the same chain, and stops there as one that spread.
6. a configuration that holds one that really ran and FAILED for an earlier
   question (its own run, its repaired configuration, or its part) is answered
   by that run, with no run of its own: the failure lies inside it, as it does
   for a configuration whose part FAILS, whatever the rest does to the build.
   dd+ then narrows down to that part by the questions that hold it at no cost
   (a tangle around a small failing part took one run per change removed).

7. a configuration that built and was UNRESOLVED with errors that name
   nothing (a crash, a wrong value) is run once more with the changes that
   alone use a name it brings in (:meth:`SearchOracle._complete`): a new
   struct member and the one hunk that allocates it. A FAIL answers for it;
   anything else leaves it UNRESOLVED. Until one such run has FAILED, a
   search makes :data:`MAX_VAIN_COMPLETIONS` of them.

8. a configuration about to run that agrees with a run that did not build on
   every change its errors involve, and on every change of the files they are
   reported in (whose lines any change there moves), is broken alike, as far as
   the errors tell (:class:`Broken`): it is not run, and that run's errors are
   taken for its own, so that the resolution loop goes on from them (the same
   repair, the same futile step). A run that did not build is remembered so
   only when its errors involve a change it applied and one it did not (GOOD
   and BAD build), and while no configuration that built agrees with it: one
   that does shows its errors did not tell everything. A release diff whose
   core structs changed reports the same error for a hundred configurations
   that each drop another few changes (cmark: ``'cmark_node' has no member
   named 'content'``, from one header line; docs/performance.md). Every
   change such errors involve is kept as well: labelling first tries an
   answer without them (:meth:`untouched`).

9. a run that did not build because a name is missing on a line of GOOD's that
   a change not applied rewrites, where the one applied change that takes the
   name's declaration away is known and no change declares it again
   (:meth:`~wynot.analysis.resolve.Resolver.removal_needs`), shows that the
   remover needs that change, in any configuration: the line is there and the
   name is not (:attr:`shown`, also added to the search's dependencies). A
   later configuration that holds the remover without what it needs is run
   with it at once (no failed build first), and the loop goes on from that
   run; where that adds more than :data:`MAX_REPAIR_GROWTH` changes, or what it
   adds lacks what the known dependencies say it needs, or the loops grown so
   have built less often than not in this search, the configuration is UNRESOLVED
   without a run. A configuration that built with the remover and without the
   change (the line compiled out by another change) refutes the need: dropped,
   and not learned again. cmark 0.28 -> 0.30 took ``content`` out of ``struct
   cmark_node`` and ``literal`` out of its union, and the complements that keep
   the struct's change and drop a few of the hunks that stopped using them
   cannot build (docs/performance.md).

With a flaky test (the tester's ``fail_runs`` > 1), a FAIL decides a step of
dd+ only once it held over that many runs in a row; a PASS among them is the
outcome (:meth:`Tester.confirmed`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from wynot.analysis.depends import Dependencies
from wynot.analysis.resolve import Resolution, Resolver, Target, is_construction_failure
from wynot.outcome import Outcome
from wynot.result import CACHED, RAN, TestRecord, plural
from wynot.runner import Reason
from wynot.tester import DID_NOT_BUILD, Tester

MAX_RESOLUTION_ROUNDS = 4
MAX_SHRINK_ROUNDS = 2  # runs of a configuration's part without what its errors involve
MAX_VAIN_SHRINKS = 3  # parts that said nothing before one FAILED: the direction is dropped
MAX_FUTILE = 2  # loops a repair step ended UNRESOLVED, never helping: futile anywhere
MAX_VAIN_COMPLETIONS = 1  # completions that said nothing before one FAILED
MAX_KNOWN_REPAIR = 4  # changes a repair by learned dependencies may add without a run
MAX_REPAIR_GROWTH = 8  # a repair may add this many, or as many as the configuration holds
# One round of the resolution loop: the errors of the run before it (every
# diagnostic, as the resolver identifies it wherever its line moved) and the
# changes the resolver added for them.
Step = tuple[frozenset[Target], frozenset[int]]


@dataclass(frozen=True, slots=True)
class Repaired:
    """A resolution loop that built: the configuration it started from, the
    changes its errors involved (:meth:`Resolver.involved`, every round's), and
    the changes its repairs added (with those the learned dependencies' closure
    added)."""

    start: frozenset[int]
    involved: frozenset[int]
    added: frozenset[int]

    def fits(self, config: frozenset[int]) -> bool:
        """Whether ``config`` agrees with the start on every involved change and
        lacks some of the repairs: broken alike, as far as the errors tell. Not
        a configuration inside the start: that is dd+ narrowing down, whose
        own outcome it keeps and checks again alone, and the changes it drops
        are those a repair's build may have needed without an error saying so."""
        # Asked of every search question once a loop built: the involved changes
        # are looked up one by one, not the whole configuration compared.
        return (not self.added <= config
                and all((c in config) is (c in self.start) for c in self.involved)
                and not config < self.start)


@dataclass(frozen=True, slots=True)
class Broken:
    """A run that did not build (``record``), and the changes a configuration must
    agree with it on to be broken alike, as far as its errors tell: those its
    errors involve (:meth:`Resolver.involved`), and every change of the files
    they are reported in, where any change moves the lines they point at."""

    record: TestRecord
    involved: frozenset[int]
    held: frozenset[int]  # the involved changes the run applied

    def fits(self, config: frozenset[int]) -> bool:
        """Whether ``config`` agrees with the run on every involved change."""
        return all((c in config) is (c in self.held) for c in self.involved)


@dataclass
class SearchOracle:
    tester: Tester
    deps: Dependencies
    # None: no failure-resolution loop; a callable builds the resolver when a
    # configuration first does not build (most searches never need it)
    resolver: Resolver | Callable[[], Resolver] | None
    resolve_patterns: Sequence[str] = ()
    learned: int = field(default=0)
    # The dependencies learned from repairs that built (also in ``deps``).
    taught: Dependencies = field(default_factory=Dependencies)
    # Repairs by learned dependencies that built, and that did not: once more of
    # them fail than build, the learned ones are known to be incomplete, and a
    # configuration they do not close is predicted again.
    built: int = field(default=0)
    unbuilt: int = field(default=0)
    # Pairs of changes the compiler showed disagreeing (a call and its declaration,
    # one applied, the other not), whether or not the repair built: they join
    # the units that labelling removes whole (:meth:`known`), not the search's
    # predictions.
    observed: Dependencies = field(default_factory=Dependencies)
    # Repair steps of loops that ended UNRESOLVED (each with the configurations it
    # was taken from and the changes the loop's last errors involve), and of
    # loops that built (with the changes any of their errors involved): a futile
    # step is not taken again, from a configuration that differs only outside
    # those changes, unless it helped a loop from a configuration that differs
    # from this one only outside what that loop's errors involved.
    futile: dict[Step, list[tuple[frozenset[int], frozenset[int]]]] = field(
        default_factory=dict)
    helped: dict[Step, list[tuple[frozenset[int], frozenset[int]]]] = field(
        default_factory=dict)
    # Loops that built, latest last: their repairs made at once for a
    # configuration broken alike (:meth:`_replay`).
    repaired: list[Repaired] = field(default_factory=list)
    # Resolution loops that built after repairs, and loops whose errors spread past
    # them: once more spread than build, a configuration that does not build is
    # answered from inside first (:meth:`_shrink`), and grown only if that says nothing.
    loops_built: int = field(default=0)
    loops_spread: int = field(default=0)
    # Parts run from inside (:meth:`_shrink`): until one has FAILED, the other
    # direction is tried :data:`MAX_VAIN_SHRINKS` times in a search, no more.
    shrinks_failed: int = field(default=0)
    shrinks_vain: int = field(default=0)
    # Runs with the changes that alone use what a configuration brings in
    # (:meth:`_complete`): until one has FAILED, :data:`MAX_VAIN_COMPLETIONS`.
    completions_failed: int = field(default=0)
    completions_vain: int = field(default=0)
    # The configurations that really ran and FAILED for this oracle's questions (a
    # question's own run, its repaired or its inner part), none inside another:
    # a later question that holds one of them is answered by that run.
    failed: list[frozenset[int]] = field(default_factory=list)
    # Questions answered FAIL by a run of their part with its repairs: that run.
    answered_by: dict[frozenset[int], frozenset[int]] = field(default_factory=dict)
    # Each round of the loops whose errors spread past the repairs: the diagnostics
    # it repaired, and what the loop added after it (its later rounds, and the
    # repair its last errors asked for). A later loop whose repairs lead to one of
    # those diagnostics, holding none of what came after, goes the same way.
    spread_rounds: list[tuple[frozenset[Target], frozenset[int]]] = field(
        default_factory=list)
    # Runs that did not build, none matched by a configuration that built
    # (:meth:`_alike`), and the configurations that ran and built.
    unbuilt_runs: list[Broken] = field(default_factory=list)
    built_runs: list[frozenset[int]] = field(default_factory=list)
    # Every change an error of a run that did not build involved (:meth:`untouched`).
    errors_involved: set[int] = field(default_factory=set)
    # Needs the compiler showed (:meth:`Resolver.removal_needs`; those not already
    # in ``deps`` were added there too, ``shown_in_deps``), and those a
    # configuration that built refuted: dropped, and not learned again. Loops from
    # a run grown by them at once that built, and that did not.
    shown: Dependencies = field(default_factory=Dependencies)
    refuted: set[tuple[int, int]] = field(default_factory=set)
    shown_in_deps: set[tuple[int, int]] = field(default_factory=set)
    shown_built: int = field(default=0)
    shown_unbuilt: int = field(default=0)

    def __call__(self, config: frozenset[int]) -> Outcome:
        inner = self.failed_inside(config)
        if inner is not None:
            return self.tester.decide(inner, "search").outcome  # that run, replayed
        record = self._answer(config)
        if record.outcome is Outcome.FAIL and record.ids and not record.commit:
            self._failed(record.ids)
        return record.outcome

    def failed_inside(self, config: frozenset[int]) -> frozenset[int] | None:
        """A configuration that FAILED for an earlier question and that ``config``
        holds (not ``config`` itself): the failure lies inside ``config`` as it lies
        inside a configuration whose repaired run or part FAILED, whatever the
        rest of ``config`` does to the build."""
        return next((ids for ids in self.failed
                     if len(ids) < len(config) and ids <= config), None)

    def failing_part(self, config: frozenset[int]) -> frozenset[int]:
        """The smallest configuration inside ``config`` that FAILED for this
        oracle's questions (the first of those as small), ``config`` itself when
        there is none."""
        return min((ids for ids in self.failed if ids <= config), key=len, default=config)

    def failed_for(self, config: frozenset[int]) -> frozenset[int]:
        """The configuration whose run answered FAIL for ``config``: the smallest
        failed one inside it (an earlier run that answers for it), else the
        smallest that holds it (its own run, or its repaired one); ``config``
        itself when none is known. Where dd+ goes on after ``config`` FAILED
        (its ``narrow``)."""
        part = self.failing_part(config)
        if part != config:
            return part
        if config in self.answered_by:  # a part of it, repaired (:meth:`_part_repaired`)
            return self.answered_by[config]
        return min((ids for ids in self.failed if config <= ids), key=len, default=config)

    def _failed(self, ids: frozenset[int]) -> None:
        if any(known <= ids for known in self.failed):
            return
        self.failed = [known for known in self.failed if not ids <= known] + [ids]

    def _answer(self, config: frozenset[int]) -> TestRecord:
        lacking = (self.taught.closure(self.shown.closure(config)) - config  # with what the
                   if self.shown.needs else frozenset())  # repairs that built showed those need
        if lacking and (len(lacking) > MAX_REPAIR_GROWTH or self.shown_unbuilt > self.shown_built
                        or not self.deps.is_closed(config | lacking)):
            return self.tester.predict(config, "search", "predicted: the errors showed it "
                                       f"needs {plural(len(lacking), 'more change')}")
        if not lacking and self.deps.needs and not self.deps.is_closed(config):
            repaired = self.taught.closure(config)  # the repairs that built before
            if (self.resolver is None or len(repaired - config) > MAX_KNOWN_REPAIR
                    or not self.deps.is_closed(repaired) or self.unbuilt > self.built):
                missing = len(self.deps.closure(config) - config)
                return self.tester.predict(config, "search",
                                           f"predicted: needs {missing} more changes")
            self.tester.progress(f"resolving: learned dependencies -> adding "
                                 f"{len(repaired - config)} changes")
            record = self._run(repaired, resolving=config)
            if self.did_not_build(record):  # learning was not enough: no further rounds
                self.unbuilt += 1
            else:
                self.built += 1
        else:
            replay = self._replay(config)  # a chain that built: what it adds covers more
            enlarged, involved = config, frozenset[int]()
            if lacking and replay is None:  # what the errors showed it needs, added at once
                enlarged = config | lacking
                self.tester.progress(f"resolving: what the errors showed it needs -> adding "
                                     f"{plural(len(lacking), 'change')}")
                record = self._run(enlarged, resolving=config)
            elif replay is None:
                record = self._run(config)
            else:
                memory, enlarged = replay
                involved = memory.involved
                self.tester.progress(f"resolving: repairs that built before -> adding "
                                     f"{len(enlarged - config)} changes")
                record = self._run(enlarged, resolving=config)
                if self.did_not_build(record):
                    self.repaired.remove(memory)  # it did not predict this one
            if self.resolver is not None:
                first = record
                inside = (self._shrink(config, first) if self.loops_spread > self.loops_built
                          and first.ids == config and self.did_not_build(first) else None)
                if inside is not None:
                    return self.tester.confirmed(inside)
                record, spread = self._resolve(config, record, enlarged, involved)
                self.loops_spread += spread
                if lacking and replay is None:  # grown by what the errors showed: did it build?
                    if self.did_not_build(record):
                        self.shown_unbuilt += 1
                    else:
                        self.shown_built += 1
                if spread and first.ids == config:
                    record = self._shrink(config, first) or record
                if record.outcome is Outcome.UNRESOLVED and not self.did_not_build(record):
                    record = self._complete(config, record) or record
        return self.tester.confirmed(record)

    def known(self) -> Dependencies:
        """The dependencies for labelling: derived, learned, and observed."""
        if not self.observed.needs:
            return self.deps
        known = Dependencies({a: set(bs) for a, bs in self.deps.needs.items()},
                             set(self.deps.ties), list(self.deps.clusters))
        for a, needed in sorted(self.observed.needs.items()):
            for b in sorted(needed):
                known.add(a, b)
        return known

    def did_not_build(self, record: TestRecord) -> bool:
        """UNRESOLVED because the build failed or the output shows a build error."""
        if record.outcome is not Outcome.UNRESOLVED:
            return False
        if record.reason == Reason.BUILD_FAILED.value or record.reason.startswith(DID_NOT_BUILD):
            return True
        return is_construction_failure(record.output_text(), self.resolve_patterns)

    def resolution(self, output: str, applied: frozenset[int]) -> Resolution | None:
        """What failure resolution adds to ``applied`` for the errors ``output``
        reports, None with the loop off. For the output of a run that was
        UNRESOLVED: every error it names counts, not only build errors (a test
        that exits 125 on ``'X' object has no attribute 'y'`` said it cannot
        judge)."""
        if self.resolver is None:
            return None
        return self._resolver().resolve(output, applied)

    def culprits(self, output: str, applied: frozenset[int]) -> frozenset[int]:
        """The changes outside ``applied`` that one error of ``output`` names as its
        only repair (:meth:`~wynot.analysis.resolve.Resolver.culprits`); none with
        the loop off."""
        if self.resolver is None:
            return frozenset()
        return self._resolver().culprits(output, applied)

    def broken(self, output: str, applied: frozenset[int]) -> frozenset[int]:
        """The applied changes the errors of ``output`` are reported on
        (:meth:`~wynot.analysis.resolve.Resolver.broken`); none with the loop off."""
        if self.resolver is None:
            return frozenset()
        return self._resolver().broken(output, applied)

    def reads(self, output: str) -> bool:
        """Whether the resolver reads an error in ``output`` (False with the loop off)."""
        return self.resolver is not None and bool(self._resolver().diagnostics(output))

    def needs_shown(self, output: str, applied: frozenset[int]) -> frozenset[tuple[int, int]]:
        """The (user, needed) pairs the errors of ``output`` show
        (:meth:`~wynot.analysis.resolve.Resolver.needs_shown`); none with the loop off."""
        if self.resolver is None:
            return frozenset()
        return self._resolver().needs_shown(output, applied)

    def _replay(self, config: frozenset[int]) -> tuple[Repaired, frozenset[int]] | None:
        """The loop that built whose start is nearest ``config`` (the latest of
        those as near) among those whose start ``config`` agrees with on every
        change its errors involved, and ``config`` with its repairs, closed under
        the known dependencies; None when there is none, when ``config`` is
        answered at once (it ran in this search, or the cache knows it), or when
        that would add more than a repair round may (:data:`MAX_REPAIR_GROWTH`,
        or as many as the configuration holds)."""
        fitting = [m for m in self.repaired if m.fits(config)]
        # Its own record is free when known: no guess needed. Not a speculative
        # run that happens to have finished: whether the repairs are made must
        # not depend on the workers (the held-out zlib case went another way
        # with -j 4). Asked last: the lookup digests the whole configuration, a
        # cost every test of a large diff would pay (docs/performance.md).
        if not fitting or self.tester.known(config):
            return None
        memory = min(reversed(fitting), key=lambda m: len(config ^ m.start))
        enlarged = self.deps.closure(config | memory.added)
        if len(enlarged - config) > max(MAX_REPAIR_GROWTH, len(config)):
            return None
        return memory, enlarged

    def _resolve(self, config: frozenset[int], record: TestRecord,
                 enlarged: frozenset[int], involved: frozenset[int]
                 ) -> tuple[TestRecord, bool]:
        """Grow a configuration that did not build until it does, or give up; and
        whether the errors spread past what repairs add (every round taken, or a
        repair too large to try).

        Each round repairs what the last run reported; when a run still
        reports a diagnostic an earlier round targeted, the repair did not
        help and the loop stops there (UNRESOLVED). A repair that, with the
        changes it needs, would add more than :data:`MAX_REPAIR_GROWTH`
        changes and more than the configuration holds is not tried, nor is a
        step of a loop that ended UNRESOLVED before (:attr:`futile`): the same
        errors, the same changes added. ``record`` is the run of ``enlarged``
        (``config`` itself, or ``config`` with repairs made at once: :meth:`_replay`,
        whose memory's ``involved`` changes count as this loop's). A loop that
        built is remembered (:attr:`repaired`).
        """
        targeted: set[Target] = set()
        learned: list[tuple[int, int]] = []
        steps: list[tuple[Step, frozenset[int]]] = []
        rounds: list[tuple[frozenset[Target], frozenset[int]]] = []  # repaired, added
        seen = set(involved)  # the changes every round's errors involved
        spread = True  # until a round ends the loop for another reason
        for _ in range(MAX_RESOLUTION_ROUNDS):
            if not self.did_not_build(record):
                self._learn(learned)
                if steps:  # repairs made here, not only made at once
                    self.repaired.append(Repaired(config, frozenset(seen), enlarged - config))
                    self.loops_built += 1
                for step, before in steps:
                    self.helped.setdefault(step, []).append((before, frozenset(seen)))
                return record, False
            resolver = self._resolver()
            output = record.output_text()  # read once: four readers below
            seen.update(resolver.involved(output, enlarged))
            resolution = resolver.resolve(output, enlarged)
            for a, b in resolution.observed:  # seen by the compiler: no need to build
                self.observed.add(a, b)
            if not resolution.add or resolver.reports_again(output, enlarged, targeted):
                spread = False
                break
            if self._spreads_again(resolution.targets, enlarged):
                self.tester.progress(f"resolving: {', '.join(resolution.names[:4])} -> "
                                     "repairs whose errors spread before: not tried")
                return record, True  # a guess: its steps are not shown futile
            targeted.update(resolution.targets)
            learned.extend(resolution.learned)
            # What the errors name, and what earlier repairs showed those need:
            # not the derived dependencies, guesses that grew one repair of a
            # release diff's error by 38 changes (hiredis; docs/performance.md).
            grown = self.taught.closure(enlarged | resolution.add)
            if len(grown - enlarged) > max(MAX_REPAIR_GROWTH, len(enlarged)):
                break  # a repair that more than doubles it is a guess, not a repair
            step = (resolver.signature(output, enlarged), resolution.add)
            if self._futile(step, enlarged):
                self.tester.progress(f"resolving: {', '.join(resolution.names[:4])} -> "
                                     "a repair that did not help before: not tried")
                spread = False
                break
            steps.append((step, enlarged))
            rounds.append((resolution.targets, grown - enlarged))
            enlarged = grown
            self.tester.progress(
                f"resolving: {', '.join(resolution.names[:4])} -> "
                f"adding {len(enlarged) - len(config)} changes")
            record = self._run(enlarged, resolving=config)
        if spread and steps:
            self._spread(rounds, record, enlarged)
        if steps and self.did_not_build(record):
            involved = self._resolver().involved(record.output_text(), enlarged)
            for step, before in steps:
                self.futile.setdefault(step, []).append((before, involved))
        return record, spread

    def helped_by(self, learned: Sequence[tuple[int, int]], added: int) -> None:
        """Learn the (user, needed) pairs of the repairs that grew the search's
        answer alone (:func:`wynot.grow.grow`, from :func:`wynot.label.standalone`)
        until a run's errors named nothing more to repair, though it did not
        build: the repairs were needed (``can't read "internal"`` gone once the
        hunk that sets it is in, and what is left names nothing), and a later
        question with the user gets them at once (:meth:`_answer`), where a
        loop would take them again, or, once it ended UNRESOLVED, not at all
        (:attr:`futile`). Not from repairs that ``added`` more than
        :data:`MAX_KNOWN_REPAIR` changes in all, which a later question would
        not be given at once either. The search's own loops that end so learn
        nothing: learned, a repair of 4 changes after which rustc's errors
        named nothing made base64's search take another way, 170 tests
        against 124."""
        if added > MAX_KNOWN_REPAIR:
            return
        new = self._learn(learned)
        if new:
            self.tester.progress("resolving: the answer's repairs got it past every error "
                                 f"that names something -> {new} learned "
                                 f"{'dependency' if new == 1 else 'dependencies'}")

    def _learn(self, pairs: Sequence[tuple[int, int]]) -> int:
        """Learn that each ``a`` needs ``b`` of ``pairs`` (a repair that built):
        into the dependencies that predict and those repairs grow on; how many
        were new."""
        new = 0
        for a, b in pairs:
            new += self.deps.add(a, b)
            self.taught.add(a, b)
        self.learned += new
        return new

    def _spread(self, rounds: list[tuple[frozenset[Target], frozenset[int]]],
                record: TestRecord, enlarged: frozenset[int]) -> None:
        """Remember the rounds of a loop whose errors spread past its repairs
        (:attr:`spread_rounds`); ``record`` is its last run, of ``enlarged``."""
        ahead = self._resolver().resolve(record.output_text(), enlarged).add - enlarged
        for targets, added in reversed(rounds):
            self.spread_rounds.append((targets, ahead))
            ahead = ahead | added

    def _spreads_again(self, targets: frozenset[Target], config: frozenset[int]) -> bool:
        """Whether a repair of ``targets`` from ``config`` leads down a chain of
        repairs that spread before: a round of such a loop repaired one of them,
        and ``config`` holds none of what that loop added after it."""
        return any(targets & repaired and not ahead & config
                   for repaired, ahead in self.spread_rounds)

    def _shrink(self, config: frozenset[int], record: TestRecord) -> TestRecord | None:
        """A FAIL for ``config`` from inside it, when its errors spread past what
        repairs add (one edit rewritten over many changes, of which ``config``
        holds a part): the changes its errors involve are taken out, with those
        that need them, and what is left is run, up to :data:`MAX_SHRINK_ROUNDS`
        times while it does not build. A part of ``config`` that FAILS answers
        for it, as a repaired configuration that FAILS does (the failure lies
        inside it); one that passes says nothing about ``config``: None then."""
        if not self.shrinks_failed and self.shrinks_vain >= MAX_VAIN_SHRINKS:
            return None
        found = self._shrunk(config, record)
        if found is None:
            self.shrinks_vain += 1
        else:
            self.shrinks_failed += 1
        return found

    def _shrunk(self, config: frozenset[int], record: TestRecord) -> TestRecord | None:
        """:meth:`_shrink`'s runs: the FAIL of a part, or None."""
        resolver = self._resolver()
        current = config
        for _ in range(MAX_SHRINK_ROUNDS):
            output = record.output_text()
            blamed = (resolver.broken(output, current)
                      | resolver.involved(output, current)) & current
            kept = self.deps.interior(current - blamed)
            if not blamed or not kept:
                return None
            self.tester.progress(f"resolving: the errors spread past what repairs add -> "
                                 f"trying {len(kept)} of the {len(config)} changes without "
                                 f"the {len(current) - len(kept)} they involve")
            record = self._run(kept, resolving=config)
            if record.outcome is Outcome.FAIL:
                return record
            if not self.did_not_build(record):
                return None
            repaired = self._part_repaired(config, kept, record)
            if repaired is not None:
                return repaired
            current = kept
        return None

    def _part_repaired(self, config: frozenset[int], kept: frozenset[int],
                       record: TestRecord) -> TestRecord | None:
        """The part ``kept`` of ``config`` did not build (``record``): where its errors
        name their one repair each, changes ``config`` does not hold (a link error
        for the definition the part lacks), the part is run once with them (and
        nothing the derived dependencies add: what it lacks, its errors say). A
        FAIL answers for ``config`` (:meth:`failed_for` gives where it lies: dd+
        goes on there when it holds what dd+ keeps applied); anything else, None."""
        fixes = self._resolver().culprits(record.output_text(), kept) - config
        if not fixes or len(fixes) > MAX_REPAIR_GROWTH:
            return None
        repaired = kept | fixes  # not closed: the errors say what it lacks, runs check
        self.tester.progress(f"resolving: the part's errors name their repair -> adding "
                             f"{plural(len(fixes), 'change')} to the part")
        record = self._run(repaired, resolving=config)
        if record.outcome is not Outcome.FAIL:
            return None
        self.answered_by[config] = repaired
        return record

    def _complete(self, config: frozenset[int], record: TestRecord) -> TestRecord | None:
        """A FAIL for ``config`` from its run ``record`` (of ``config`` or of it
        repaired) that built and was UNRESOLVED with errors that name nothing:
        run once more with the changes that alone use what it brings in
        (:meth:`~wynot.analysis.resolve.Resolver.completions`) and need
        nothing else it lacks. A new struct member and the hunk that allocates
        it: hiredis's reader crashed on its NULL task array without that hunk.
        Anything but a FAIL leaves ``config`` UNRESOLVED (None). Once
        :data:`MAX_VAIN_COMPLETIONS` such runs have said nothing, and none has
        FAILED, no more are made in this search."""
        if not self.completions_failed and self.completions_vain >= MAX_VAIN_COMPLETIONS:
            return None
        base = record.ids
        adds = {c for c in self._resolver().completions(record.output_text(), base)
                if self.deps.is_closed(base | {c})}
        if not adds:
            return None
        self.tester.progress(f"resolving: built, failed naming nothing -> adding "
                             f"{plural(len(adds), 'change')} that alone "
                             f"use{'s' if len(adds) == 1 else ''} what it brings in")
        run = self._run(base | adds, resolving=config)
        if run.outcome is Outcome.FAIL:
            self.completions_failed += 1
            return run
        self.completions_vain += 1
        return None

    def _run(self, config: frozenset[int], *, resolving: frozenset[int] | None = None
             ) -> TestRecord:
        """Run ``config`` for the search, or, when it is broken alike a run that did
        not build (:meth:`_alike`), answer it UNRESOLVED without running it, with
        that run's errors for its own: the resolution loop goes on from them as
        from a run of its own. Not when its run is known (it ran in this search,
        or the cache has it): then that is free, and no guess is needed."""
        if self.resolver is None:
            return self.tester.run(config, "search", resolving=resolving)
        alike = None if self.tester.known(config) else self._alike(config)
        if alike is not None:
            self.tester.progress(f"{plural(len(config), 'change')}: broken alike test "
                                 f"{alike.record.number}, its errors taken without a run")
            return self.tester.alike(config, "search", alike.record, resolving=resolving)
        record = self.tester.run(config, "search", resolving=resolving)
        self._observe(record)
        return record

    def untouched(self, config: frozenset[int]) -> frozenset[int]:
        """The changes of ``config`` that no error of the search's runs that did not
        build involved, as far as this oracle saw them: in a tangle, the errors
        show where its parts hold each other up, and a cause that builds on
        GOOD lies outside them."""
        return config - self.errors_involved

    def _alike(self, config: frozenset[int]) -> Broken | None:
        """The run that did not build nearest ``config`` (the latest of those as
        near) among those ``config`` is broken alike (:meth:`Broken.fits`)."""
        fitting = [run for run in self.unbuilt_runs if run.fits(config)]
        return min(reversed(fitting), key=lambda run: len(config ^ run.record.ids),
                   default=None)

    def _observe(self, record: TestRecord) -> None:
        """Remember a run: one that did not build as a :class:`Broken`, when its
        errors involve a change it applied and one it did not (else GOOD or BAD,
        which build, would be broken alike) and no configuration that built is
        broken alike; one that built, dropping the runs it shows it is not
        broken alike (their errors did not tell everything)."""
        if record.source not in (RAN, CACHED) or record.commit:
            return
        config = record.ids
        if not self.did_not_build(record):
            self.built_runs.append(config)
            self.unbuilt_runs = [run for run in self.unbuilt_runs if not run.fits(config)]
            for a in config & self.shown.needs.keys():
                for b in sorted(self.shown.needs[a] - config):
                    self.shown.discard(a, b)  # it built without: not a need after all
                    self.refuted.add((a, b))
                    if (a, b) in self.shown_in_deps:
                        self.deps.discard(a, b)
                        self.shown_in_deps.discard((a, b))
            return
        resolver, output = self._resolver(), record.output_text()
        for a, b in sorted(resolver.removal_needs(output, config) - self.refuted):
            if not any(a in built and b not in built for built in self.built_runs):
                self.shown.add(a, b)
                if b not in self.deps.needs.get(a, ()):
                    self.deps.add(a, b)
                    self.shown_in_deps.add((a, b))
        named = resolver.involved(output, config)
        self.errors_involved.update(named)
        involved = named | resolver.reported_in(output)
        run = Broken(record, involved, config & involved)
        if (run.held and run.held != involved
                and not any(run.fits(built) for built in self.built_runs)):
            self.unbuilt_runs.append(run)

    def _futile(self, step: Step, config: frozenset[int]) -> bool:
        """Whether ``step``, taken from ``config``, ended a loop UNRESOLVED before,
        from a configuration that differs from ``config`` only in changes that
        loop's last errors do not involve, unless it helped a loop build from a
        configuration nearer ``config`` (fewer changes apart) that differs from
        it only outside what that loop's errors involved: where errors that name
        nothing involve no change, both may fit, and the nearer one judges."""
        def nearest(taken: list[tuple[frozenset[int], frozenset[int]]]) -> int | None:
            return min((len(config ^ before) for before, involved in taken
                        if not (config ^ before) & involved), default=None)
        taken = self.futile.get(step, [])
        if len(taken) >= MAX_FUTILE and step not in self.helped:
            return True  # the same errors, the same repair, in vain wherever taken
        futile, helped = nearest(taken), nearest(self.helped.get(step, []))
        return futile is not None and (helped is None or futile < helped)

    def _resolver(self) -> Resolver:
        """The resolver, built now if it was given as a callable."""
        if not isinstance(self.resolver, Resolver):
            assert self.resolver is not None
            self.resolver = self.resolver()
        return self.resolver
