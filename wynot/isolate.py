"""The main job: premise, diff, group, search, label, verify.

:func:`isolate` turns a :class:`Request` into a :class:`Result`. It does no
printing: progress goes to the ``progress`` callback as
:class:`~wynot.tester.TestRecord` values and short status strings.
"""

from __future__ import annotations

import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from wynot.cache import OutcomeCache, RunLog, search_key, state_dir
from wynot.changes import Change, Diff, read_diff
from wynot.dd import Outcome, SearchStopped, dd_plus
from wynot.depends import Dependencies, derive
from wynot.errors import CommandNotFoundError, PremiseError, UnfinishedError
from wynot.export import export_patch
from wynot.git import find_repo, resolve_commit
from wynot.grouping import Plan, make_plan
from wynot.oracle import SearchOracle
from wynot.patch import check_reproduces, tree_states
from wynot.resolve import Resolver, is_construction_failure
from wynot.runner import Commands, Reason, output_tail
from wynot.symbols import change_symbols
from wynot.tester import Progress, Tester, TestRecord
from wynot.worktree import scratch_worktree

DEFAULT_CRITERIA = ("dir", "file", "syntax", "lexical")
CAUSE, CONTEXT = "cause", "context"


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
    predict: bool = True
    resolve: bool = True
    resolve_patterns: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Result:
    good: str
    bad: str
    good_name: str
    bad_name: str
    diff: Diff
    changes: tuple[Change, ...]
    roles: dict[int, str]  # change id -> CAUSE (removing it makes the test pass) or CONTEXT
    minimal: bool
    tests: tuple[TestRecord, ...]
    elapsed: float
    patch: bytes
    run_dir: Path

    @property
    def verified(self) -> bool:
        return any(t.phase == "verify" and t.outcome is Outcome.FAIL for t in self.tests)


def isolate(request: Request, progress: Progress = lambda _: None) -> Result:
    """Find the failure-inducing changes between GOOD and BAD, verified on GOOD."""
    started = time.monotonic()
    info = find_repo(request.repo)
    good = resolve_commit(info.toplevel, request.good)
    bad = resolve_commit(info.toplevel, request.bad)
    if good == bad:
        raise PremiseError(f"GOOD and BAD are the same commit ({good[:12]}): nothing to compare")
    diff = read_diff(info.toplevel, good, bad, context=request.context)
    if not diff.changes:
        raise PremiseError(f"no differences between {request.good} and {request.bad}")
    check_reproduces(diff)
    progress(f"{len(diff.changes)} changes in {len(diff.files)} files between "
             f"{request.good} ({good[:12]}) and {request.bad} ({bad[:12]})")
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    deps = derive(symbols) if request.predict else Dependencies()
    plan = make_plan(diff, request.criteria, symbols, deps if request.predict else None)
    key = search_key(good=good, bad=bad, context=request.context, test=request.commands.test,
                     build=request.commands.build, timeout=request.commands.timeout,
                     fail_pattern=request.commands.fail_pattern, resolve=request.resolve,
                     resolve_patterns=request.resolve_patterns)
    state = state_dir(info.git_dir)
    cache = OutcomeCache(state / "cache.sqlite")
    log = RunLog(state / "runs")
    try:
        with scratch_worktree(info.toplevel, good, tree_states(diff, frozenset())) as worktree:
            tester = Tester(diff, worktree, request.commands,
                            cache if request.use_cache else None, key, log, progress)
            _check_premise(tester, request, frozenset(), "GOOD", Outcome.PASS)
            bad_record = _check_premise(tester, request, frozenset(plan.order), "BAD",
                                        Outcome.FAIL)
            resolver = None
            if request.resolve:
                resolver = Resolver(symbols, request.resolve_patterns)
                if not is_construction_failure(bad_record.output_text(),
                                               request.resolve_patterns):
                    tester.build_errors = request.resolve_patterns
            oracle = SearchOracle(tester, deps, resolver, request.predict,
                                  request.resolve_patterns)
            chosen, minimal = _search(tester, request, plan, oracle)
            chosen = _standalone(tester, plan, oracle, chosen)
            chosen, roles = _label(tester, chosen)
            verdict = tester.run(chosen, "verify", use_cache=False)
            if verdict.outcome is not Outcome.FAIL:
                raise UnfinishedError(
                    f"the {len(chosen)} changes found did not fail when tested again on their "
                    f"own ({verdict.reason}); the test may be flaky. Output: {verdict.output}")
    finally:
        cache.close()
        log.close()
    patch = export_patch(info.toplevel, good, tree_states(diff, chosen))
    return Result(
        good=good, bad=bad, good_name=request.good, bad_name=request.bad, diff=diff,
        changes=tuple(c for c in diff.changes if c.id in chosen), roles=roles,
        minimal=minimal, tests=tuple(tester.records), elapsed=time.monotonic() - started,
        patch=patch, run_dir=log.dir,
    )


def _search(tester: Tester, request: Request, plan: Plan,
            oracle: Callable[[frozenset[int]], Outcome]) -> tuple[frozenset[int], bool]:
    """Run dd+ in the plan's order. Returns (changes found, minimal)."""
    everything = frozenset(plan.order)
    if len(everything) == 1:
        return everything, True
    budget = request.max_tests

    def stop() -> bool:
        return budget is not None and tester.runs("search") >= budget

    try:
        found = dd_plus(list(plan.order), oracle, split=plan.split, stop=stop)
    except SearchStopped as stopped:
        tester.progress(f"budget of {budget} tests spent; best so far has "
                        f"{len(stopped.best)} changes")
        return frozenset(stopped.best), False
    if found == everything:
        raise UnfinishedError(
            "could not narrow the failure down: every smaller configuration was "
            "UNRESOLVED (does the test exit 125 or the build fail for most of them? "
            "see the run log)")
    return frozenset(found), True


def _standalone(tester: Tester, plan: Plan, oracle: SearchOracle,
                chosen: frozenset[int]) -> frozenset[int]:
    """Grow dd+'s answer until it fails on its own, measured by a real run.

    dd+'s answer is relative to the changes it kept applied, and with the
    failure-resolution loop an answer may stand for the enlarged configuration
    that was really tested. First take that enlarged configuration; otherwise
    search the remaining changes, with the answer applied, for the context it
    needs (dd+ again, ending at worst with all changes, which fail).
    """
    while _known_or_run(tester, chosen, "search") is not Outcome.FAIL:
        bigger = oracle.enlarged.get(chosen)
        if bigger is not None and _known_or_run(tester, bigger, "search") is Outcome.FAIL:
            chosen = bigger
            continue
        rest = [c for c in plan.order if c not in chosen]
        tester.progress(f"the {len(chosen)} changes found need context to fail; searching "
                        f"the other {len(rest)}")
        chosen = chosen | dd_plus(rest, _with(oracle, chosen), split=plan.split)
    return chosen


def _with(oracle: SearchOracle, applied: frozenset[int]) -> Callable[[frozenset[int]], Outcome]:
    """The oracle for configurations that always include ``applied``."""
    return lambda config: oracle(applied | config)


def _label(tester: Tester, chosen: frozenset[int]) -> tuple[frozenset[int], dict[int, str]]:
    """Test the answer without each of its changes, for real.

    Removing a cause makes the test PASS; removing context the cause needs
    makes it UNRESOLVED. A change whose removal still FAILS is not needed and
    is dropped, which makes the answer 1-minimal.
    """
    roles: dict[int, str] = {}
    while True:
        for change in sorted(chosen):
            if change in roles:
                continue
            rest = chosen - {change}
            outcome = _known_or_run(tester, rest, "label")
            if outcome is Outcome.FAIL and rest:
                chosen, roles = rest, {}
                break
            roles[change] = CAUSE if outcome is Outcome.PASS else CONTEXT
        else:
            return chosen, roles


def _known_or_run(tester: Tester, ids: frozenset[int], phase: str) -> Outcome:
    """The outcome of ``ids`` from an earlier real run of this search, else a new run."""
    for record in tester.records:
        if record.ids == ids and record.source in ("run", "cache") and record.resolving is None:
            return record.outcome
    return tester.run(ids, phase).outcome


def _check_premise(tester: Tester, request: Request, ids: frozenset[int], side: str,
                   expected: Outcome) -> TestRecord:
    record = tester.run(ids, "premise")
    if record.outcome is expected:
        return record
    name = request.good if side == "GOOD" else request.bad
    command = shlex.join(request.commands.test)
    if request.commands.build:
        command = shlex.join(request.commands.build) + " && " + command
    if record.reason in (Reason.NOT_FOUND.value, Reason.NOT_EXECUTABLE.value):
        raise CommandNotFoundError(
            f"{record.reason}: {shlex.join(request.commands.test[:1])} "
            f"(it runs in a checkout of {side}, with that checkout as working directory)",
            details=record.output_text())
    if record.outcome is Outcome.UNRESOLVED:
        what = f"{side} ({name}) cannot be tested: {record.reason}"
    elif expected is Outcome.PASS:
        what = f"GOOD ({name}) fails the test; it must pass"
    else:
        what = f"BAD ({name}) passes the test; it must fail"
    sha = tester.diff.good if side == "GOOD" else tester.diff.bad
    rerun = (f"git worktree add --detach /tmp/wynot-check {sha[:12]} && cd /tmp/wynot-check && "
             f"{command}   (then: git worktree remove --force /tmp/wynot-check)")
    tail = output_tail(Path(record.output)) if record.output else ""
    raise PremiseError(what, details=(
        f"command: {command}\noutput ({record.output}), last lines:\n{_indent(tail)}\n"
        f"rerun by hand: {rerun}"))


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines()) or "    (no output)"
