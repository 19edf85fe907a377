"""What a report says beside the :class:`~wynot.result.Result`: status, invocation, revert.

A bot branches on :func:`status_of`. Every renderer in :mod:`wynot.render`
takes a ``Result`` and a :class:`ReportInfo`, both plain data; none of them
runs git or a process.
"""

from __future__ import annotations

import shlex
from collections import Counter
from dataclasses import dataclass

from wynot.outcome import Outcome
from wynot.result import CACHED, CAUSE, CONFLICT, PREDICTED, Result

FOUND, SUSPECT, INCONCLUSIVE = "found", "suspect", "inconclusive"
# Reserved for the flake-aware search ("the failure does not reproduce: no
# culprit"); no version of wynot emits it yet.
FLAKY = "flaky"
STATUSES = (FOUND, SUSPECT, INCONCLUSIVE, FLAKY)
PHASE_NAMES = ("premise", "commits", "search", "label", "verify", "revert")


@dataclass(frozen=True, slots=True)
class RevertInfo:
    """The answer reverted on BAD (``--revert-patch``) and whether BAD then passes."""

    path: str          # where the patch was written ("" when it could not be built)
    applies: bool      # it could be carried onto BAD without conflicts
    verified: bool     # BAD with it applied passed a real run
    message: str       # one sentence: what happened
    test: int | None = None  # the number of the verifying test record


@dataclass(frozen=True, slots=True)
class ReportInfo:
    """How the run was asked for and how it ended."""

    version: str
    argv: tuple[str, ...]          # wynot's own arguments, as typed
    test: tuple[str, ...]          # the test command
    build: tuple[str, ...] | None
    exit_code: int
    message: str = ""              # why the run has no (complete) answer, if it has none
    partial: bool = False          # rebuilt from a run that did not finish
    revert: RevertInfo | None = None
    patch_path: str = ""           # the answer's patch on disk, for the reproduce steps


def status_of(result: Result | None, *, partial: bool = False) -> str:
    """found: a verified, minimal answer (or an exact first bad commit with no hunk
    phase); suspect: something narrower than GOOD..BAD is known to fail but is not
    proven minimal (a budget, an interrupted run, skipped commits);
    inconclusive: nothing narrower than GOOD..BAD."""
    if result is None:
        return INCONCLUSIVE
    phase = result.commit_phase
    narrowed = phase is not None and len(phase.chain) - 2 > 0 and (
        phase.bisection.first_bad - phase.bisection.last_good < len(phase.chain) - 1)
    if result.diff is not None:
        if not result.changes:
            return SUSPECT if narrowed else INCONCLUSIVE
        if result.verified and result.minimal and not partial:
            return FOUND
        if len(result.changes) < len(result.diff.changes) or narrowed:
            return SUSPECT
        return INCONCLUSIVE
    if phase is not None and not partial:
        return FOUND if phase.bisection.exact else SUSPECT
    return SUSPECT if narrowed else INCONCLUSIVE


def counts(result: Result) -> dict[str, object]:
    """Tests by outcome, source and phase, and changes found of the total."""
    real = [t for t in result.tests if t.ran]
    by_outcome = Counter(t.outcome for t in real)
    sources = Counter(t.source for t in result.tests)
    phases = Counter(t.phase for t in real)
    return {
        "tests_run": len(real),
        "pass": by_outcome[Outcome.PASS],
        "fail": by_outcome[Outcome.FAIL],
        "unresolved": by_outcome[Outcome.UNRESOLVED],
        "cached": sources[CACHED],
        "predicted": sources[PREDICTED],
        "conflict": sources[CONFLICT],
        "by_phase": {p: phases[p] for p in PHASE_NAMES if phases[p]},
        "changes_total": len(result.diff.changes) if result.diff is not None else None,
        "changes_found": len(result.changes),
        "causes": sum(1 for c in result.changes if result.roles.get(c.id) == CAUSE),
    }


def wynot_command(info: ReportInfo) -> str:
    """The invocation that reproduces the search, as a shell line."""
    return shlex.join(("wynot", *info.argv))


def reproduce_steps(result: Result, info: ReportInfo) -> list[str]:
    """Shell lines that show the failure without wynot: GOOD of the searched range,
    the answer's patch applied, the build and the test command."""
    if result.diff is None or not result.changes or not info.patch_path:
        if result.commit_phase is None:
            return []
        sha = result.commit_phase.first_bad
        steps = [f"git worktree add --detach ../wynot-repro {sha}", "cd ../wynot-repro"]
    else:
        steps = [f"git worktree add --detach ../wynot-repro {result.diff.good}",
                 "cd ../wynot-repro", f"git apply {shlex.quote(info.patch_path)}"]
    if info.build:
        steps.append(shlex.join(info.build))
    steps.append(shlex.join(info.test))
    return steps
