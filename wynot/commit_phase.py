"""The commit phase: bisect the first-parent commits of GOOD..BAD, like git bisect.

It narrows GOOD..BAD to the last passing and the first failing commit, which
the hunk phase then searches below commit granularity. When the first failing
commit is a merge of two branches that each pass on their own, the regression
lives in their combination: the hunk range becomes merge base..merge, so the
answer can name changes from both branches.
"""

from __future__ import annotations

from pathlib import Path

from wynot.bisect import multisect
from wynot.cache import OutcomeCache, RunLog
from wynot.changes import Diff
from wynot.executor import Executor
from wynot.flaky_phase import FlakyOptions, run_until_pass, search_commits, verdict
from wynot.history import commit_infos, merge_base, show_commit
from wynot.outcome import Outcome
from wynot.premise import require
from wynot.result import CommitInfo, CommitPhase, Progress, TestRecord
from wynot.runner import Commands
from wynot.tester import Tester


def run_commit_phase(repo: Path, chain: list[str], names: tuple[str, str], commands: Commands,
                     cache: OutcomeCache | None, log: RunLog, records: list[TestRecord],
                     progress: Progress, executor: Executor,
                     flaky: FlakyOptions | None = None) -> CommitPhase:
    """Premise on GOOD and BAD, then bisect the commits between them.

    With ``flaky`` asking for reruns, commits are run again rather than read
    from the outcome cache, and the search may answer "no culprit"
    (``CommitPhase.culprit``; see :mod:`wynot.flaky_phase`); the commits are
    then searched one test at a time. Otherwise, with several workers, GOOD
    and BAD are tested together and the commits are multisected: as many
    evenly spaced commits a round as there are workers.
    """
    flaky = flaky or FlakyOptions()
    empty = Diff(good=chain[0], bad=chain[-1], files=(), changes=())
    executor.begin(chain[0], empty)
    tester = Tester(empty, executor, commands, None if flaky.reruns else cache, "", log,
                    progress, records)
    try:
        runs = flaky.premise_runs()
        if runs == 1:
            tester.speculate_commits([chain[0], chain[-1]])
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
        progress(f"bisecting {len(chain) - 2} commits between {names[0]} and {names[1]}")

        def run(i: int) -> TestRecord:
            record = tester.run_commit(chain[i], "commits")
            if by_sha.get(chain[i]) is None or by_sha[chain[i]].outcome is not Outcome.PASS:
                by_sha[chain[i]] = record  # a PASS stands: it is trusted
            return record

        def test_round(indices: list[int]) -> list[Outcome]:
            tester.speculate_commits([chain[i] for i in indices])
            return [run(i).outcome for i in indices]

        culprit = None
        if executor.workers > 1 and not flaky.reruns:
            bisection = multisect(len(chain), test_round, executor.workers)
        else:
            bisection, culprit = search_commits(len(chain), run, flaky, goods,
                                                [bad, *(r for r in bads if r is not bad)])
        if culprit is not None and culprit.flaky:
            return CommitPhase(tuple(chain), bisection, commit_infos(repo, [chain[-1]]),
                               (chain[0], chain[-1]), (good, bad), False, "", culprit)
        low, high = chain[bisection.last_good], chain[bisection.first_bad]
        interesting = {low, high, *(chain[i] for i in bisection.skipped)}
        commits = commit_infos(repo, interesting)
        combination = False
        if bisection.exact and commits[high].is_merge and commits[high].parents[0] == low:
            combined = _combination(repo, tester, commits[high], by_sha)
            if combined is not None:
                low, combination = combined, True
                commits.update(commit_infos(repo, [low, *commits[high].parents]))
        return CommitPhase(tuple(chain), bisection, commits, (low, high),
                           (by_sha[low], by_sha[high]), combination, show_commit(repo, high),
                           culprit)
    finally:
        tester.finish()


def _combination(repo: Path, tester: Tester, merge: CommitInfo,
                 by_sha: dict[str, TestRecord]) -> str | None:
    """The merge base, if both merged branches pass on their own and so does it."""
    second = merge.parents[1]
    by_sha[second] = tester.run_commit(second, "commits")
    if by_sha[second].outcome is not Outcome.PASS:
        return None  # the merged branch fails by itself: its diff holds the cause
    base = merge_base(repo, merge.parents[0], second)
    if base is None:
        return None
    if base not in by_sha:
        by_sha[base] = tester.run_commit(base, "commits")
    return base if by_sha[base].outcome is Outcome.PASS else None
