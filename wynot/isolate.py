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
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from wynot import __version__
from wynot.analysis.depends import Dependencies
from wynot.analysis.grouping import Plan, make_plan
from wynot.analysis.model import analyse
from wynot.analysis.resolve import Resolver, is_construction_failure
from wynot.cache import OutcomeCache, RunLog, search_key, state_dir
from wynot.changes import Change, Diff
from wynot.commit_phase import run_commit_phase
from wynot.dd import SearchStopped, Split, dd_plus
from wynot.diffread import read_diff
from wynot.errors import PremiseError, UnfinishedError, UsageError, WynotError
from wynot.executor import Executor, open_executor
from wynot.export import export_patch
from wynot.git import find_repo, resolve_commit
from wynot.history import attribute, commit_infos, first_parent_chain
from wynot.lookahead import Lookahead
from wynot.oracle import SearchOracle
from wynot.outcome import Outcome
from wynot.patch import check_reproduces, tree_states
from wynot.premise import require
from wynot.result import (
    CACHED,
    CAUSE,
    CONTEXT,
    RAN,
    CommitInfo,
    CommitPhase,
    Progress,
    Result,
    TestRecord,
)
from wynot.runner import Commands
from wynot.runstore import save_commit_phase, save_failure, save_request
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


@dataclass(frozen=True, slots=True)
class _HunkAnswer:
    diff: Diff
    chosen: frozenset[int]
    roles: dict[int, str]
    minimal: bool


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
    cache = OutcomeCache(state / "cache.sqlite")
    log = RunLog(state / "runs")
    save_request(log.dir, argv=request.invocation, version=__version__, good=good, bad=bad,
                 names=(request.good, request.bad), commands=request.commands,
                 context=request.context, strategy=request.strategy)
    records: list[TestRecord] = []
    phase: CommitPhase | None = None
    try:
        with open_executor(request.executor, info.toplevel, request.commands, request.jobs,
                           request.scheduler, progress) as executor:
            low, high, premise = good, bad, None
            if chain is not None and (len(chain) > 2 or request.strategy == "commits"):
                phase = run_commit_phase(info.toplevel, chain, (request.good, request.bad),
                                         request.commands, cache if request.use_cache else None,
                                         log, records, progress, executor)
                (low, high), premise = phase.hunk_range, phase.range_records
                save_commit_phase(log.dir, phase)
            answer = None
            if request.strategy != "commits":
                answer = _hunk_phase(info.toplevel, low, high, request, cache, log, records,
                                     progress, premise, executor, started=started)
    except WynotError as error:
        save_failure(log.dir, error.message, error.exit_code)
        raise
    finally:
        cache.close()
        log.close()
    base = Result(good=good, bad=bad, good_name=request.good, bad_name=request.bad, diff=None,
                  changes=(), roles={}, minimal=True, tests=tuple(records),
                  elapsed=time.monotonic() - started, patch=b"", run_dir=log.dir,
                  commit_phase=phase)
    if answer is None:
        return base
    changes = tuple(c for c in answer.diff.changes if c.id in answer.chosen)
    origins = _origins(info.toplevel, answer.diff, changes)
    return dataclasses.replace(
        base, diff=answer.diff, changes=changes, roles=answer.roles, minimal=answer.minimal,
        patch=export_patch(info.toplevel, answer.diff.good,
                           tree_states(answer.diff, answer.chosen)),
        origins=origins)


def _origins(repo: Path, diff: Diff, changes: tuple[Change, ...]) -> dict[int, CommitInfo]:
    """The commit that introduced each change of the answer."""
    shas = attribute(repo, diff, changes)
    infos = commit_infos(repo, set(shas.values()))
    return {cid: infos[sha] for cid, sha in shas.items()}


def _hunk_phase(repo: Path, good: str, bad: str, request: Request, cache: OutcomeCache,
                log: RunLog, records: list[TestRecord], progress: Progress,
                premise: tuple[TestRecord, TestRecord] | None, executor: Executor, *,
                started: float | None = None) -> _HunkAnswer:
    """Search the hunks of good..bad: dd+, standalone answer, labels, verification."""
    diff = read_diff(repo, good, bad, context=request.context)
    if not diff.changes:
        raise PremiseError(f"no differences between {request.good} and {request.bad}")
    check_reproduces(diff)
    progress(f"{len(diff.changes)} changes in {len(diff.files)} files between "
             f"{good[:12]} and {bad[:12]}")
    analysis = analyse(diff)
    symbols = analysis.symbols
    deps = analysis.dependencies() if request.predict else Dependencies()
    plan = make_plan(diff, request.criteria, symbols, deps if request.predict else None,
                     analysis.enclosing)
    key = search_key(good=good, bad=bad, context=request.context, test=request.commands.test,
                     build=request.commands.build, timeout=request.commands.timeout,
                     fail_pattern=request.commands.fail_pattern, resolve=request.resolve,
                     resolve_patterns=request.resolve_patterns)
    executor.begin(good, diff)
    tester = Tester(diff, executor, request.commands, cache if request.use_cache else None,
                    key, log, progress, records)
    with contextlib.ExitStack() as finishing:
        finishing.callback(tester.finish)
        if premise is None:
            tester.speculate([frozenset(), frozenset(plan.order)])
            require(tester.run(frozenset(), "premise"), Outcome.PASS, "GOOD", request.good,
                    good, request.commands)
            bad_record = require(tester.run(frozenset(plan.order), "premise"), Outcome.FAIL,
                                 "BAD", request.bad, bad, request.commands)
        else:
            bad_record = premise[1]
        resolver = None
        if request.resolve:
            resolver = Resolver(symbols, request.resolve_patterns, analysis.scopes(),
                                dict(analysis.file_of))
            if not is_construction_failure(bad_record.output_text(), request.resolve_patterns):
                tester.build_errors = request.resolve_patterns
        oracle = SearchOracle(tester, deps, resolver, request.resolve_patterns)
        stop = _budget(tester, request.max_tests, request.max_time, started)
        # Keeping a passing half applied pays off when the order puts
        # definitions first (the half is closed under the known dependencies);
        # without derived dependencies it costs runs (docs/performance.md).
        keep = request.predict if request.keep_passing is None else request.keep_passing
        chosen, minimal = _search(tester, plan, oracle, stop, keep)
        found = chosen
        try:
            chosen = _standalone(tester, plan, oracle, chosen, stop, keep)
        except SearchStopped:
            chosen, minimal = _smallest_failing_superset(tester, chosen) or chosen, False
        roles: dict[int, str] = {}
        if minimal:  # labelling costs a test per change: not once the budget is spent
            try:
                chosen, roles = _label(tester, chosen, stop, oracle.deps, found)
            except SearchStopped as stopped:
                tester.progress(f"budget spent while labelling; the answer has "
                                f"{len(stopped.best)} changes")
                chosen, minimal = frozenset(stopped.best), False
        verdict = tester.run(chosen, "verify", use_cache=False)
        if verdict.outcome is not Outcome.FAIL:
            raise UnfinishedError(
                f"the {len(chosen)} changes found did not fail when tested again on their "
                f"own ({verdict.reason}); the test may be flaky. Output: {verdict.output}")
    return _HunkAnswer(diff, chosen, roles, minimal)


def _budget(tester: Tester, max_tests: int | None, max_time: float | None = None,
            started: float | None = None) -> Callable[[], bool]:
    """The stop hook: true once ``max_tests`` search and label tests have run, or
    ``max_time`` seconds have passed since ``started`` (default: now)."""
    deadline = None if max_time is None else (started or time.monotonic()) + max_time
    return lambda: (max_tests is not None and tester.runs("search") + tester.runs(
        "label") >= max_tests) or (deadline is not None and time.monotonic() >= deadline)


def _search(tester: Tester, plan: Plan, oracle: SearchOracle,
            stop: Callable[[], bool], keep_passing: bool) -> tuple[frozenset[int], bool]:
    """Run dd+ in the plan's order. Returns (changes found, minimal).

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
                               keep_passing)
    except SearchStopped as stopped:
        tester.progress(f"budget of {tester.runs('search')} tests spent; best so far has "
                        f"{len(stopped.best)} changes")
        return frozenset(stopped.best), False
    if found == everything and any(r.phase == "search" and r.source in (RAN, CACHED)
                                   for r in tester.records):
        raise UnfinishedError(
            "could not narrow the failure down: every smaller configuration was "
            "UNRESOLVED (does the test exit 125 or the build fail for most of them? "
            "see the run log)")
    return frozenset(found), True


def _standalone(tester: Tester, plan: Plan, oracle: SearchOracle, chosen: frozenset[int],
                stop: Callable[[], bool], keep_passing: bool) -> frozenset[int]:
    """Grow dd+'s answer until it fails on its own, measured by a real run.

    dd+'s answer is relative to the changes it kept applied, and with the
    failure-resolution loop an answer may stand for the enlarged configuration
    that was really tested. Either way some configuration that contains the
    answer was seen to FAIL (at worst BAD itself). An answer that the known
    dependencies say cannot build is not run: its closure is tried instead,
    through the oracle (so a build error there is resolved too). Then the
    context the answer needs is searched inside the smallest failing
    configuration that contains it, with the answer applied: dd+ over a
    handful of changes rather than over all the others. Raises SearchStopped
    when the budget runs out.
    """
    while True:
        closed = oracle.deps.closure(chosen)
        if closed == chosen or tester.has_run(chosen):  # else it cannot build: skip it
            if stop() and not tester.has_run(chosen):
                raise SearchStopped(chosen, tester.runs("search"))
            if tester.run(chosen, "search").outcome is Outcome.FAIL:
                return chosen
        if closed != chosen and not tester.has_run(closed) and not stop():
            oracle(closed)
        around = _smallest_failing_superset(tester, chosen) or frozenset(plan.order)
        rest = [c for c in plan.order if c in around and c not in chosen]
        tester.progress(f"the {len(chosen)} changes found need context to fail; searching "
                        f"the {len(rest)} others of the smallest failing configuration "
                        f"that contains them")
        chosen = chosen | search_dd_plus(tester, oracle, rest, chosen, plan.split, stop,
                                         keep_passing)


def _smallest_failing_superset(tester: Tester, ids: frozenset[int]) -> frozenset[int] | None:
    """The smallest configuration containing ``ids`` that really ran and FAILED."""
    failing = [r.ids for r in tester.records
               if r.outcome is Outcome.FAIL and r.source in (RAN, CACHED) and not r.commit
               and ids < r.ids]
    return min(failing, key=len, default=None)


def search_dd_plus(tester: Tester, oracle: SearchOracle, changes: list[int],
                   applied: frozenset[int], split: Split[int], stop: Callable[[], bool] | None,
                   keep_passing: bool) -> frozenset[int]:
    """dd+ over ``changes`` with ``applied`` always applied.

    With several workers the oracle looks ahead: before each question it
    starts the configurations dd+ is likeliest to ask next on idle workers
    (:mod:`wynot.lookahead`). dd+ still asks and decides one configuration at
    a time, so its answer and its questions do not depend on the workers.
    """
    def ask(config: frozenset[int]) -> Outcome:
        return oracle(applied | config)

    def search(answer: Callable[[frozenset[int]], Outcome]) -> object:
        return dd_plus(changes, answer, split=split, keep_passing=keep_passing)

    def predict(config: frozenset[int]) -> Outcome | None:
        return None if oracle.deps.is_closed(applied | config) else Outcome.UNRESOLVED

    def announce(configs: Sequence[frozenset[int]]) -> None:
        tester.speculate([applied | config for config in configs])

    workers = tester.executor.workers
    test = Lookahead(search, ask, announce, workers, predict) if workers > 1 else ask
    return dd_plus(changes, test, split=split, stop=stop, keep_passing=keep_passing)


def _label(tester: Tester, chosen: frozenset[int], stop: Callable[[], bool],
           deps: Dependencies, found: frozenset[int]) -> tuple[frozenset[int], dict[int, str]]:
    """Test the answer without each of its changes, for real.

    Removing a cause makes the test PASS; removing context the cause needs
    makes it UNRESOLVED. A change whose removal still FAILS is not needed and
    is dropped, which makes the answer 1-minimal. A drop makes the labels
    given before it stale, not those after it: the sweep goes on, and another
    sweep labels again only what the last drop left stale.

    Changes that need each other (a function reshaped and its calls
    rewritten) survive any single removal, so first each pair and each larger
    cycle of ``deps`` within the answer is removed as a whole, once, by a
    real run (whatever the dependencies predict): if the rest still fails,
    they were not needed. Ties do not count: a new local's binding builds
    without its readers, so a single removal can drop it.

    A change the dependencies pulled in from afar (needed only by other
    context, not by ``found``, dd+'s own answer) is the likeliest to be
    unneeded: a dropped import needs every rewritten user of it, called or
    not. So before anything else, when there are several, they are all
    removed at once, by one real run; and both sweeps then go farthest first
    from ``found``, so that a drop leaves fewer labels stale. Raises
    SearchStopped (with the answer so far, which fails) when the budget runs
    out.
    """
    needs = deps.needs_only()
    distance = _distances(needs, found)
    far = frozenset(c for c in chosen if distance.get(c, 0) > 1)
    if len(far) > 1 and far < chosen and _run_label(
            tester, chosen - far, stop, chosen) is Outcome.FAIL:
        chosen -= far
    groups = _cycles(needs, sorted(chosen))
    for group in sorted(groups, key=lambda g: -min(distance.get(c, 0) for c in g)):
        if group < chosen and _run_label(tester, chosen - group, stop, chosen) is Outcome.FAIL:
            chosen -= group
    roles: dict[int, str] = {}
    while len(roles) < len(chosen):
        sweep = sorted(chosen - roles.keys(), key=lambda c: (-distance.get(c, 0), c))
        for k, change in enumerate(sweep):
            tester.speculate([chosen - {c} for c in sweep[k:]])
            rest = chosen - {change}
            outcome = _run_label(tester, rest, stop, chosen)
            if outcome is Outcome.FAIL and rest:
                chosen, roles = rest, {}
                continue
            roles[change] = CAUSE if outcome is Outcome.PASS else CONTEXT
    return chosen, roles


def _run_label(tester: Tester, config: frozenset[int], stop: Callable[[], bool],
               answer: frozenset[int]) -> Outcome:
    """One label test; SearchStopped (carrying ``answer``) once the budget is spent."""
    if stop() and not tester.has_run(config):
        raise SearchStopped(answer, tester.runs("label"))
    return tester.run(config, "label").outcome


def _distances(deps: Dependencies, found: frozenset[int]) -> dict[int, int]:
    """How many dependency steps lead from dd+'s answer to each change it needs."""
    distance = dict.fromkeys(found, 0)
    frontier = sorted(found)
    while frontier:
        reached = []
        for change in frontier:
            for needed in sorted(deps.needs.get(change, ())):
                if needed not in distance:
                    distance[needed] = distance[change] + 1
                    reached.append(needed)
        frontier = reached
    return distance


def _cycles(deps: Dependencies, changes: list[int]) -> list[frozenset[int]]:
    """Sets of ``changes`` that need each other: pairs, then larger cycles, smallest first."""
    inside = set(changes)
    pairs = {frozenset((a, b)) for a in changes for b in deps.needs.get(a, ())
             if b in inside and a in deps.needs.get(b, ())}
    larger = {frozenset(group) for group in deps.components(changes) if len(group) > 2}
    return sorted(pairs | larger, key=lambda group: (len(group), sorted(group)))
