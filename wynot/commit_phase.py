"""The commit phase: bisect the first-parent commits of GOOD..BAD, like git bisect.

It narrows GOOD..BAD to the last passing and the first failing commit, which
the hunk phase then searches below commit granularity. When the first failing
commit is a merge of two branches that each pass on their own, the regression
lives in their combination: the hunk range becomes merge base..merge, so the
answer can name changes from both branches.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from wynot.bisect import Bisection, bisect
from wynot.cache import OutcomeCache, RunLog
from wynot.changes import Diff
from wynot.dd import Outcome
from wynot.history import CommitInfo, commit_infos, merge_base, show_commit
from wynot.premise import require
from wynot.runner import Commands
from wynot.tester import Progress, Tester, TestRecord
from wynot.worktree import scratch_worktree


@dataclass(frozen=True, slots=True)
class CommitPhase:
    chain: tuple[str, ...]          # GOOD, ..., BAD along BAD's first parents
    bisection: Bisection
    commits: dict[str, CommitInfo]  # metadata of the commits the report names
    hunk_range: tuple[str, str]     # (passing, failing): what the hunk phase searches
    range_records: tuple[TestRecord, TestRecord]  # their test records (PASS, FAIL)
    combination: bool               # the first bad commit is a merge of passing branches
    shown: str                      # the first bad commit as `git show --stat` prints it

    @property
    def last_good(self) -> str:
        return self.chain[self.bisection.last_good]

    @property
    def first_bad(self) -> str:
        return self.chain[self.bisection.first_bad]

    @property
    def skipped(self) -> tuple[str, ...]:
        return tuple(self.chain[i] for i in self.bisection.skipped)


def run_commit_phase(repo: Path, chain: list[str], names: tuple[str, str], commands: Commands,
                     cache: OutcomeCache | None, log: RunLog, records: list[TestRecord],
                     progress: Progress) -> CommitPhase:
    """Premise on GOOD and BAD, then bisect the commits between them."""
    empty = Diff(good=chain[0], bad=chain[-1], files=(), changes=())
    with scratch_worktree(repo, chain[0], {}) as worktree:
        tester = Tester(empty, worktree, commands, cache, "", log, progress, records)
        good = require(tester.run_commit(chain[0], "premise"), Outcome.PASS, "GOOD",
                       names[0], chain[0], commands)
        bad = require(tester.run_commit(chain[-1], "premise"), Outcome.FAIL, "BAD",
                      names[1], chain[-1], commands)
        by_sha = {chain[0]: good, chain[-1]: bad}
        progress(f"bisecting {len(chain) - 2} commits between {names[0]} and {names[1]}")

        def test(i: int) -> Outcome:
            by_sha[chain[i]] = tester.run_commit(chain[i], "commits")
            return by_sha[chain[i]].outcome

        bisection = bisect(len(chain), test)
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
                           (by_sha[low], by_sha[high]), combination, show_commit(repo, high))


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
