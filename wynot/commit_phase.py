"""The commit phase: bisect the first-parent commits of GOOD..BAD, like git bisect.

It narrows GOOD..BAD to the last passing and the first failing commit, which
the hunk phase then searches below commit granularity. When the first failing
commit is a merge of two branches that each pass on their own, the regression
lives in their combination: the hunk range becomes merge base..merge, so the
answer can name changes from both branches. When the merged branch fails on
its own, its commits are bisected in turn, down to its own first bad commit.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from wynot.bisect import Bisection, bisect
from wynot.cache import OutcomeCache, RunLog
from wynot.changes import Diff
from wynot.flaky_phase import (
    FlakyOptions,
    run_until_pass,
    search_commits,
    uses_finder,
    verdict,
)
from wynot.history import branch_chain, commit_infos, count_between, merge_base, show_commit
from wynot.outcome import Outcome
from wynot.premise import require
from wynot.result import CommitInfo, CommitPhase, Progress, TestRecord
from wynot.runner import Commands
from wynot.tester import Tester
from wynot.worktree import scratch_worktree


def run_commit_phase(repo: Path, chain: list[str], names: tuple[str, str], commands: Commands,
                     cache: OutcomeCache | None, log: RunLog, records: list[TestRecord],
                     progress: Progress, flaky: FlakyOptions | None = None) -> CommitPhase:
    """Premise on GOOD and BAD, then bisect the commits between them.

    With ``flaky`` asking for reruns, commits are run again rather than read
    from the outcome cache, and the search may answer "no culprit"
    (``CommitPhase.culprit``; see :mod:`wynot.flaky_phase`). Otherwise, when
    the first bad commit of a line is a merge whose merged branch fails on its
    own, that branch is bisected in turn, down to its own first bad commit
    (as ``git bisect`` does across parents, nested merges included).
    """
    flaky = flaky or FlakyOptions()
    empty = Diff(good=chain[0], bad=chain[-1], files=(), changes=())
    with scratch_worktree(repo, chain[0], {}) as worktree:
        tester = Tester(empty, worktree, commands, cache, "", log, progress, records,
                        replay_commits=not flaky.reruns)
        earlier = tester.earlier_observations(chain) if flaky.reruns else {}
        runs = flaky.premise_runs()
        goods = run_until_pass(
            lambda: tester.run_commit(chain[0], "premise", expect=Outcome.PASS), runs)
        if flaky.mode != "off":  # estimate the flake rate: every run of GOOD counts
            goods += [tester.run_commit(chain[0], "premise", expect=Outcome.PASS)
                      for _ in range(runs - len(goods))]
        bads = [tester.run_commit(chain[-1], "premise", expect=Outcome.FAIL)
                for _ in range(runs)]
        good = require(verdict(goods), Outcome.PASS, "GOOD", names[0], chain[0], commands)
        failed = [r for r in bads if r.outcome is Outcome.FAIL]
        bad = require(failed[0] if failed else bads[-1], Outcome.FAIL, "BAD", names[1],
                      chain[-1], commands)
        by_sha = {chain[0]: good, chain[-1]: bad}
        between = count_between(repo, chain[0], chain[-1])
        line = f"{len(chain) - 2} commits between {names[0]} and {names[1]}"
        if between != len(chain) - 2:
            line = (f"the {len(chain) - 2} commits of BAD's first-parent line between "
                    f"{names[0]} and {names[1]} ({between} in all, merged branches included)")
        progress(f"bisecting {line}")

        def run(i: int) -> TestRecord:
            record = tester.run_commit(chain[i], "commits")
            if by_sha.get(chain[i]) is None or by_sha[chain[i]].outcome is not Outcome.PASS:
                by_sha[chain[i]] = record  # a PASS stands: it is trusted
            return record

        bads = [bad, *(r for r in bads if r is not bad)]
        seen = [(i, o) for i, sha in enumerate(chain) for o in earlier.get(sha, ())]
        prior = (_prior_evidence(tester, chain, earlier, by_sha)
                 if seen and uses_finder(flaky, goods, bads, seen) else [])
        bisection, culprit = search_commits(len(chain), run, flaky, goods, bads, prior)
        if culprit is not None and culprit.flaky:
            return CommitPhase(tuple(chain), bisection, commit_infos(repo, [chain[-1]]),
                               (chain[0], chain[-1]), (good, bad), False, "", culprit,
                               between=between)
        followed: list[str] = []
        while culprit is None and bisection.exact:  # the flake-aware search stays on one line
            branch = _failing_branch(repo, tester, chain[bisection.first_bad],
                                     chain[bisection.last_good], by_sha)
            if branch is None:
                break
            followed.append(chain[bisection.first_bad])
            chain = branch
            bisection = _bisect_chain(tester, chain, by_sha)
        low, high = chain[bisection.last_good], chain[bisection.first_bad]
        interesting = {low, high, *followed, *(chain[i] for i in bisection.skipped)}
        commits = commit_infos(repo, interesting)
        combination = False
        if bisection.exact and commits[high].is_merge and commits[high].parents[0] == low:
            combined = _combination(repo, tester, commits[high], by_sha)
            if combined is not None:
                low, combination = combined, True
                commits.update(commit_infos(repo, [low, *commits[high].parents]))
        tested = sum(1 for r in records if r.commit and r.phase == "commits")
        return CommitPhase(tuple(chain), bisection, commits, (low, high),
                           (by_sha[low], by_sha[high]), combination, show_commit(repo, high),
                           culprit, followed=tuple(followed), between=between,
                           tested=tested)


def _prior_evidence(tester: Tester, chain: list[str], earlier: dict[str, list[Outcome]],
                    by_sha: dict[str, TestRecord]) -> list[tuple[int, Outcome]]:
    """Earlier runs' observations of the chain's commits, as the finder's evidence;
    each is recorded as a replay from the cache (a PASS stands for its commit)."""
    if not earlier:
        return []
    count = sum(len(outcomes) for outcomes in earlier.values())
    tester.progress(f"weighing {count} observations of {len(earlier)} commits from earlier "
                    "runs as evidence (--no-cache leaves them out)")
    evidence = []
    for i, sha in enumerate(chain):
        for outcome in earlier.get(sha, ()):
            record = tester.replayed(sha, "commits", outcome)
            known = by_sha.get(sha)  # GOOD's and BAD's own premise runs stay
            if known is None or (known.earlier_run and outcome is Outcome.PASS):
                by_sha[sha] = record
            evidence.append((i, outcome))
    return evidence


def _bisect_chain(tester: Tester, chain: list[str], by_sha: dict[str, TestRecord]) -> Bisection:
    """Bisect ``chain`` (its ends known to pass and fail), recording each commit's test."""
    def test(i: int) -> Outcome:
        if chain[i] not in by_sha:
            by_sha[chain[i]] = tester.run_commit(chain[i], "commits")
        return by_sha[chain[i]].outcome

    return bisect(len(chain), test)


def _failing_branch(repo: Path, tester: Tester, first_bad: str, last_good: str,
                    by_sha: dict[str, TestRecord]) -> list[str] | None:
    """The branch to bisect next: [fork, ..., second parent], when ``first_bad`` is a
    merge onto ``last_good`` whose second parent fails. The fork point is an ancestor
    of ``last_good`` and, as ``git bisect`` assumes, passes: it is not tested."""
    [merge] = commit_infos(repo, [first_bad]).values()
    if not merge.is_merge or merge.parents[0] != last_good:
        return None
    second = merge.parents[1]
    if second not in by_sha:
        by_sha[second] = tester.run_commit(second, "commits")
    if by_sha[second].outcome is not Outcome.FAIL:
        return None  # passes: maybe a combination (see _combination); unresolved: stop here
    branch = branch_chain(repo, last_good, second)
    if branch is None:
        return None
    fork = branch[0]  # an ancestor of the passing first parent: it passes, as git bisect assumes
    if fork not in by_sha:
        by_sha[fork] = dataclasses.replace(by_sha[last_good], commit=fork)
    tester.progress(f"{merge.short} merges {second[:12]}, which fails on its own: bisecting "
                    f"the {len(branch) - 2} commits of that branch between {fork[:12]} and "
                    f"{second[:12]}")
    return branch


def _combination(repo: Path, tester: Tester, merge: CommitInfo,
                 by_sha: dict[str, TestRecord]) -> str | None:
    """The merge base, if both merged branches pass on their own and so does it."""
    second = merge.parents[1]
    if second not in by_sha:
        by_sha[second] = tester.run_commit(second, "commits")
    if by_sha[second].outcome is not Outcome.PASS:
        return None  # the merged branch fails by itself: its diff holds the cause
    base = merge_base(repo, merge.parents[0], second)
    if base is None:
        return None
    if base not in by_sha:
        by_sha[base] = tester.run_commit(base, "commits")
    return base if by_sha[base].outcome is Outcome.PASS else None
