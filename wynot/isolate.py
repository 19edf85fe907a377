"""The main job: commit phase, then hunk phase (premise, search, label, verify).

:func:`isolate` turns a :class:`Request` into a :class:`Result`. With more
than one commit between GOOD and BAD (``--strategy auto``) it first bisects
the commits, then searches the hunks between the last passing and the first
failing commit. It does no printing: progress goes to the ``progress``
callback as :class:`~wynot.tester.TestRecord` values and short status strings.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from wynot import __version__
from wynot.analyse import Analysis, Options, analyse, describe
from wynot.analysis.declarations import hunk_declarations
from wynot.analysis.depends import Dependencies
from wynot.analysis.grouping import Plan
from wynot.analysis.resolve import Resolver, is_construction_failure
from wynot.analysis_store import AnalysisStore
from wynot.cache import OutcomeCache, RunLog, command_files, search_key, state_dir
from wynot.carry import Carried, answer_patch, carry_answer
from wynot.changes import Diff
from wynot.commit_phase import run_commit_phase
from wynot.dd import SearchStopped
from wynot.errors import NoCulpritError, PremiseError, UnfinishedError, UsageError, WynotError
from wynot.executor import Executor
from wynot.flaky_phase import FlakyOptions, confirm_runs, premise_flake_rate
from wynot.git import find_repo, resolve_commit
from wynot.history import OriginsAhead, count_between, first_parent_chain, origins
from wynot.label import label, smallest_failing_superset, standalone
from wynot.oracle import SearchOracle
from wynot.outcome import Outcome
from wynot.pool import open_executor
from wynot.premise import require
from wynot.result import (
    CACHED,
    RAN,
    CommitPhase,
    Progress,
    Result,
    TestRecord,
    plural,
)
from wynot.runner import Commands
from wynot.runstore import save_commit_phase, save_failure, save_request
from wynot.search import first_questions, search_dd_plus
from wynot.state import DEFAULT_KEEP_RUNS
from wynot.suspects import named, vocabulary, weights
from wynot.tester import Tester

DEFAULT_CRITERIA = ("dir", "file", "syntax")  # lexical: see docs/performance.md


@dataclass(frozen=True, slots=True)
class Request:
    """What the user asked for."""

    repo: Path
    good: str
    bad: str
    commands: Commands
    context: int = 3
    max_tests: int | None = None
    use_cache: bool = True
    criteria: tuple[str, ...] = DEFAULT_CRITERIA
    strategy: str = "auto"  # "auto", "commits" or "hunks"
    predict: bool = True
    resolve: bool = True
    resolve_patterns: tuple[str, ...] = ()
    keep_passing: bool | None = None  # dd+'s *keep passing* shortcut; None: with predict
    jobs: int = 1  # tests run at a time (-j)
    executor: str = "local"  # "local" (a pool of worktrees) or "dask"
    scheduler: str | None = None  # the dask scheduler's address
    max_time: float | None = None  # seconds from the start; then stop as with max_tests
    invocation: tuple[str, ...] = ()  # wynot's arguments, kept for ``wynot report``
    flaky: FlakyOptions = FlakyOptions()  # --repeat, --flaky, --confidence
    keep_runs: int = DEFAULT_KEEP_RUNS  # run logs kept in the state directory
    keep_worktrees: bool = False  # worktrees (and build outputs) kept for the next run
    check_files: bool = False  # every run checked for tracked files its commands change


@dataclass(frozen=True, slots=True)
class _HunkAnswer:
    diff: Diff
    chosen: frozenset[int]
    roles: dict[int, str]
    minimal: bool
    carried: Carried | None = None  # the answer carried onto GOOD (when found elsewhere)
    # dd+'s answer attributed to its commits while the last runs go on
    ahead: OriginsAhead | None = field(default=None, compare=False)


def isolate(request: Request, progress: Progress = lambda _: None) -> Result:
    """Find the failure-inducing changes between GOOD and BAD, verified on GOOD."""
    started = time.monotonic()
    info = find_repo(request.repo)
    good = resolve_commit(info.toplevel, request.good)
    bad = resolve_commit(info.toplevel, request.bad)
    if good == bad:
        raise PremiseError(f"GOOD and BAD are the same commit ({good[:12]}): nothing to compare")
    chain = None if request.strategy == "hunks" else first_parent_chain(info.toplevel, good, bad)
    if request.strategy == "commits" and chain is None:
        raise UsageError(f"--strategy commits needs {request.good} to be an ancestor of "
                         f"{request.bad} on its first-parent line")
    state = state_dir(info.git_dir)
    cache = OutcomeCache(state / "cache.sqlite", replay=request.use_cache)
    log = RunLog(state / "runs", keep=request.keep_runs)
    save_request(log.dir, argv=request.invocation, version=__version__, good=good, bad=bad,
                 names=(request.good, request.bad), commands=request.commands,
                 context=request.context, strategy=request.strategy)
    records: list[TestRecord] = []
    phase: CommitPhase | None = None
    try:
        with open_executor(request.executor, info.toplevel, request.commands, request.jobs,
                           request.scheduler, progress, warm=good,
                           keep=request.keep_worktrees) as executor:
            low, high, premise = good, bad, None
            if chain is not None and (request.strategy == "commits"
                                      or count_between(info.toplevel, good, bad) > 0):
                phase = run_commit_phase(info.toplevel, chain, (request.good, request.bad),
                                         request.commands, cache, log, records, progress,
                                         executor, request.flaky)
                (low, high), premise = phase.hunk_range, phase.range_records
                save_commit_phase(log.dir, phase)
            answer = None
            if request.strategy != "commits" and not (phase and phase.no_culprit):
                answer = _hunk_phase(info.toplevel, low, high, request, cache, log, records,
                                     progress, premise, state, good, executor, started=started,
                                     flake_rate=phase.culprit.flake_rate
                                     if phase and phase.culprit else None)
    except WynotError as error:
        save_failure(log.dir, error.message, error.exit_code)
        raise
    finally:
        cache.close()
        log.close()
        gc.unfreeze()  # the analysis froze what it built (wynot.analyse)
    base = Result(good=good, bad=bad, good_name=request.good, bad_name=request.bad, diff=None,
                  changes=(), roles={}, minimal=True, tests=tuple(records),
                  elapsed=time.monotonic() - started, patch=b"", run_dir=log.dir,
                  commit_phase=phase)
    if answer is None:
        return base
    changes = tuple(c for c in answer.diff.changes if c.id in answer.chosen)
    patch, patch_base, note = answer_patch(info.toplevel, answer.diff, answer.chosen,
                                           answer.carried, good)
    return dataclasses.replace(
        base, diff=answer.diff, changes=changes, roles=answer.roles, minimal=answer.minimal,
        patch=patch, patch_base=patch_base, patch_note=note,
        origins=answer.ahead.of(changes) if answer.ahead
        else origins(info.toplevel, answer.diff, changes))


def _hunk_phase(repo: Path, good: str, bad: str, request: Request, cache: OutcomeCache,
                log: RunLog, records: list[TestRecord], progress: Progress,
                premise: tuple[TestRecord, TestRecord] | None, state: Path, onto: str,
                executor: Executor, *, started: float | None = None,
                flake_rate: float | None = None) -> _HunkAnswer:
    """Search the hunks of good..bad: dd+, standalone answer, labels, verification;
    then, when ``good`` is not GOOD (``onto``), carry the answer onto GOOD."""
    options = Options(request.context, request.criteria, request.predict, request.resolve)
    store = AnalysisStore(state, good, bad, options) if request.use_cache else None
    if store is not None and store.path.exists():  # a rerun: the worktree beside the load
        executor.warm_up_ahead()
    else:  # its files written by git while the diff is read (meanwhile finishes it)
        executor.start_warm_up()
    analysis = store.load(progress) if store is not None else None
    saving = None
    early: list[Tester] = []

    def diff_read(diff: Diff) -> None:  # GOOD and BAD need no analysis: they start now,
        # on workers that would wait for it (the premise adopts the runs)
        early.append(_tester(repo, diff, request, cache, log, progress, records, executor))
        early[0].speculate([frozenset(), frozenset(c.id for c in diff.changes)])

    ran: list[tuple[TestRecord, TestRecord]] = []

    def meanwhile(diff: Diff) -> None:  # while the analysis's workers read the files:
        executor.warm_up()  # the worktree, and with one worker the premise itself
        if premise is None and executor.workers == 1 and not request.flaky.reruns:
            early.append(_tester(repo, diff, request, cache, log, progress, records, executor))
            ran.append(_premise(early[0], request, frozenset(c.id for c in diff.changes)))

    if analysis is None:
        try:
            analysis = analyse(repo, good, bad, options, progress, diff_read
                               if premise is None and executor.workers > 1 else None,
                               meanwhile=meanwhile)
        except BaseException:
            for tester in early:
                tester.finish()
            raise
        saving = store.save_soon(analysis) if store is not None else None
    elif analysis.diff.changes:
        progress(describe(analysis.diff))
    try:
        if not analysis.diff.changes:
            raise PremiseError(f"no differences between {request.good} and {request.bad}")
        tester = early[0] if early else _tester(repo, analysis.diff, request, cache, log,
                                                progress, records, executor)
        return _search_hunks(repo, analysis, request, tester, ran[0] if ran else premise,
                             onto, started, flake_rate)
    except KeyboardInterrupt:
        if saving is not None:  # leave at once: the next run computes the analysis again
            saving.stop()
            saving = None
        raise
    finally:
        if saving is not None:
            saving.join()  # written while the first tests ran; now it must be complete


def _blamed(oracle: SearchOracle, bad_output: str, known: Callable[[], Mapping[int, set[str]]],
            output: str, applied: frozenset[int]) -> frozenset[int]:
    """The applied changes the errors of ``output`` are reported on; where the
    resolver reads no error in it at all (a run-time error of a language it
    has no reader for, a test's own message), those its words name
    (:func:`suspects.named`; ``known``: the diff's words, computed once)."""
    found = oracle.broken(output, applied)
    if found or oracle.reads(output):
        return found
    return named(oracle.tester.diff, output, bad_output, applied, known())


def _tester(repo: Path, diff: Diff, request: Request, cache: OutcomeCache, log: RunLog,
            progress: Progress, records: list[TestRecord], executor: Executor) -> Tester:
    """The tester of the hunk phase's search over ``diff``, on ``executor`` (begun on it)."""
    key = search_key(good=diff.good, bad=diff.bad, context=request.context,
                     test=request.commands.test, build=request.commands.build,
                     timeout=request.commands.timeout,
                     fail_pattern=request.commands.fail_pattern, resolve=request.resolve,
                     resolve_patterns=request.resolve_patterns,
                     outside=command_files(repo, request.commands.test, request.commands.build))
    executor.begin(diff.good, diff)
    return Tester(diff, executor, request.commands, cache, key, log, progress, records,
                  check_all=request.check_files)


def _search_hunks(repo: Path, analysis: Analysis, request: Request, tester: Tester,
                  premise: tuple[TestRecord, TestRecord] | None, onto: str,
                  started: float | None, flake_rate: float | None) -> _HunkAnswer:
    diff, plan = analysis.diff, analysis.plan
    # The search learns dependencies from build errors: into a copy, so that the
    # analysis, which a rerun may reuse, stays what the diff alone says.
    deps = dataclasses.replace(
        analysis.deps, needs={a: set(b) for a, b in analysis.deps.needs.items()},
        ties=set(analysis.deps.ties), clusters=list(analysis.deps.clusters),
        hints=list(analysis.deps.hints))
    with contextlib.ExitStack() as finishing:
        finishing.callback(tester.finish)
        keep = request.predict if request.keep_passing is None else request.keep_passing
        if premise is None:
            good_record, bad_record = _premise_round(tester, request, deps, plan, keep)
            if request.flaky.reruns:
                flake_rate = _premise_reruns(tester, request.flaky, good_record, bad_record)
        else:
            good_record, bad_record = premise
            if tester.executor.workers > 1:  # where BAD's failure points: for guesses only
                tester.suspicion = weights(diff, bad_record.output_text(),
                                           good_record.output_text())
        resolver = None
        if request.resolve:
            resolver = functools.partial(_resolver, analysis, request.resolve_patterns)
            if not is_construction_failure(bad_record.output_text(), request.resolve_patterns):
                tester.build_errors = request.resolve_patterns
        tester.fail_runs = confirm_runs(request.flaky, flake_rate)  # 1 without flakes
        oracle = SearchOracle(tester, deps, resolver, request.resolve_patterns)
        stop = _budget(tester, request.max_tests, request.max_time, started)
        # Keeping a passing half applied pays off when the order puts
        # definitions first (the half is closed under the known dependencies);
        # without derived dependencies it costs runs (docs/performance.md).
        suspects = functools.cache(lambda: tester.suspicion or weights(
            diff, bad_record.output_text(), good_record.output_text()))
        chosen, minimal = _search(tester, plan, oracle, stop, keep,
                                  (suspects, "the failure points at"))
        found = chosen
        ahead = OriginsAhead(repo, diff, [c for c in diff.changes if c.id in found])
        finishing.push(ahead.settle)  # an error waits for it: no git blame outlives us
        try:
            chosen = standalone(tester, plan, oracle, chosen, stop, keep)
        except SearchStopped:
            chosen, minimal = smallest_failing_superset(tester, chosen) or chosen, False
        roles: dict[int, str] = {}
        if minimal:  # labelling costs tests: not once the budget is spent
            try:
                labelled = label(tester, chosen, stop, oracle.known(), found, plan.units,
                                 oracle.resolution if oracle.resolver else None,
                                 oracle.culprits if oracle.resolver else None,
                                 functools.partial(_blamed, oracle, bad_record.output_text(),
                                                   functools.cache(lambda: vocabulary(diff)))
                                 if oracle.resolver else None,
                                 oracle.needs_shown if oracle.resolver else None,
                                 oracle.untouched if oracle.resolver else None)
                chosen, roles = labelled.chosen, labelled.roles
            except SearchStopped as stopped:
                tester.progress(f"budget spent while labelling; the answer has "
                                f"{plural(len(stopped.best), 'change')}")
                chosen, minimal = frozenset(stopped.best), False
        for _ in range(confirm_runs(request.flaky, flake_rate)):  # 1 without --flaky
            verdict = tester.run(chosen, "verify", use_cache=False)
            if tester.misled:
                tester.dispute()
                raise UnfinishedError(
                    f"the test changed tracked files of its checkout "
                    f"({', '.join(tester.misled[:3])}{', ...' if len(tester.misled) > 3 else ''})"
                    " in runs that were not checked for it, so the search decided on "
                    "trees that were not its configurations; run again with --check-files "
                    "(every test is then checked, and what it changes put back)")
            if verdict.outcome is not Outcome.FAIL:
                tester.dispute()  # the next run tests again what led here
                raise UnfinishedError(
                    f"the answer ({plural(len(chosen), 'change')}) did not fail when tested "
                    f"again on its own ({verdict.reason}); the test may be flaky. "
                    f"Output: {verdict.output}")
        carried = carry_answer(repo, tester, onto, diff, chosen) if onto != diff.good else None
    return _HunkAnswer(diff, chosen, roles, minimal, carried, ahead)


def _premise_round(tester: Tester, request: Request, deps: Dependencies, plan: Plan,
                   keep: bool) -> tuple[TestRecord, TestRecord]:
    """GOOD's and BAD's records (the premise checked), with dd+'s likeliest first
    questions started meanwhile on idle workers; with several workers, the
    tester's suspicion is set from BAD's output (for guesses only).

    GOOD and BAD may be in already (started when the diff was read, they ran
    while the analysis did): then BAD's output guides the first questions'
    guesses too. First questions run on a local pool only (their build errors
    are classified here, from the whole output file).
    """
    diff, everything = tester.diff, frozenset(plan.order)
    parallel = tester.executor.workers > 1

    def records() -> tuple[TestRecord, TestRecord]:
        return _premise(tester, request, everything)

    ahead = parallel and tester.answered(frozenset()) and tester.answered(everything)
    if ahead:
        good, bad = records()
        tester.suspicion = weights(diff, bad.output_text(), good.output_text())
    opening = first_questions(tester, deps, list(plan.order), plan.split,
                              keep) if request.executor == "local" else []
    tester.speculate([frozenset(), everything, *opening])
    if not ahead:
        known = vocabulary(diff) if parallel else None  # while GOOD and BAD run
        good, bad = records()
        if parallel:
            tester.suspicion = weights(diff, bad.output_text(), good.output_text(), known)
    return good, bad


def _premise(tester: Tester, request: Request,
             everything: frozenset[int]) -> tuple[TestRecord, TestRecord]:
    """GOOD must pass and BAD (``everything``) fail: their records, else PremiseError."""
    diff = tester.diff
    good = tester.run(frozenset(), "premise", expect=Outcome.PASS)
    if request.flaky.reruns and good.outcome is Outcome.FAIL:
        # a flaky test: GOOD runs again until it passes, as in a commit phase (a
        # PASS is trusted, and its verdict answers for GOOD from then on)
        good = tester.confirm(good, request.flaky.premise_runs())
    return (require(good, Outcome.PASS, "GOOD", request.good, diff.good, request.commands),
            require(tester.run(everything, "premise", expect=Outcome.FAIL), Outcome.FAIL,
                    "BAD", request.bad, diff.bad, request.commands))


def _resolver(analysis: Analysis, patterns: tuple[str, ...]) -> Resolver:
    """The failure resolver of ``analysis``, built when a configuration first does
    not build: its name index and the C declarations cost a rerun its start-up."""
    diff = analysis.diff
    files = {c.id: c.file for c in diff.changes}
    declared = {c.id: hunk_declarations(c, diff.files[c.file]) for c in diff.changes}
    return Resolver(analysis.symbols, patterns, analysis.scopes, files, diff=diff,
                    declared=declared)


def _premise_reruns(tester: Tester, flaky: FlakyOptions, good: TestRecord,
                    bad: TestRecord) -> float | None:
    """Run GOOD and BAD again (``--repeat``/``--flaky`` without a commit phase) and
    return the flake rate to assume. BAD passing a rerun ends the run: its failure
    does not reproduce."""
    runs = flaky.premise_runs()
    failed = [r for r in tester.records if r.phase == "premise" and r.ids == good.ids
              and r.outcome is Outcome.FAIL and r.source in (RAN, CACHED)]  # before its PASS
    goods = [tester.run(good.ids, "premise", use_cache=False) for _ in range(runs - 1)]
    bads = [tester.run(bad.ids, "premise", use_cache=False) for _ in range(runs - 1)]
    passed = next((r for r in bads if r.outcome is Outcome.PASS), None)
    if passed is not None:
        raise NoCulpritError(
            f"BAD passed when run again (test {passed.number}): its failure does not "
            f"reproduce, the test is flaky; nothing is blamed. Output: {passed.output}")
    return premise_flake_rate(flaky, [*failed, good, *goods], [bad, *bads])


def _budget(tester: Tester, max_tests: int | None, max_time: float | None = None,
            started: float | None = None) -> Callable[[], bool]:
    """The stop hook: true once ``max_tests`` search and label tests have run, or
    ``max_time`` seconds have passed since ``started`` (default: now)."""
    deadline = None if max_time is None else (started or time.monotonic()) + max_time
    return lambda: (max_tests is not None and tester.runs("search") + tester.runs(
        "label") >= max_tests) or (deadline is not None and time.monotonic() >= deadline)


def _search(tester: Tester, plan: Plan, oracle: SearchOracle,
            stop: Callable[[], bool], keep_passing: bool,
            suspects: tuple[Callable[[], Mapping[int, float]], str] | None = None
            ) -> tuple[frozenset[int], bool]:
    """Run dd+ in the plan's order, probing ``suspects`` where a step decides
    nothing (:class:`wynot.search.Probes`). Returns (changes found, minimal).

    When the dependencies predict every smaller configuration UNRESOLVED, the
    changes are one edit and all of them are the answer; labelling then
    shows, by real runs, which of them is the cause. When real tests could
    not narrow the failure down, there is no answer.
    """
    everything = frozenset(plan.order)
    if len(everything) == 1:
        return everything, True
    try:
        found = search_dd_plus(tester, oracle, list(plan.order), frozenset(), plan.split, stop,
                               keep_passing, suspects)
    except SearchStopped as stopped:
        tester.progress(f"budget of {tester.runs('search')} tests spent; best so far has "
                        f"{plural(len(stopped.best), 'change')}")
        return frozenset(stopped.best), False
    if found == everything and any(r.phase == "search" and r.source in (RAN, CACHED)
                                   for r in tester.records):
        raise UnfinishedError(
            "could not narrow the failure down: every smaller configuration was "
            "UNRESOLVED (does the test exit 125 or the build fail for most of them? "
            "see the run log)")
    return frozenset(found), True
