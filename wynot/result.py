"""The data every layer shares: test records, commit metadata, the results of both phases.

The report depends on these types, not on the pipeline that computes them;
nothing here runs git or a process.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from wynot.bisect import Bisection
from wynot.changes import Change, Diff
from wynot.flaky import Culprit
from wynot.outcome import Outcome

RAN, CACHED, PREDICTED, CONFLICT = "run", "cache", "predicted", "conflict"
CAUSE, CONTEXT = "cause", "context"
# Every change of the answer is needed to build, and none alone makes the test
# pass: the cause cannot be told apart from the context it needs.
INSEPARABLE = "inseparable"


@dataclass(frozen=True, slots=True)
class TestRecord:
    """One answer about one configuration."""

    number: int
    phase: str  # "premise", "search", "label" or "verify"
    ids: frozenset[int]
    outcome: Outcome
    reason: str
    duration: float
    output: str  # path of the output file ("" when nothing ran)
    source: str = RAN
    resolving: frozenset[int] | None = None  # the configuration this one enlarges
    commit: str = ""  # set when a whole commit was tested (the commit phase)
    earlier_run: bool = False  # CACHED from an earlier run's observations (not this run's)
    count: int | None = None  # the configuration's size, when ``ids`` is not kept (predicted)

    @property
    def size(self) -> int:
        """How many changes the configuration holds."""
        return len(self.ids) if self.count is None else self.count

    @property
    def ran(self) -> bool:
        return self.source == RAN

    def output_text(self) -> str:
        return read_output(Path(self.output)) if self.output else ""


@dataclass(frozen=True, slots=True)
class TestStarted:
    """A test began to run (``size`` changes applied, or a whole ``commit``).

    Its :class:`TestRecord` follows with the same ``number`` once it ends.
    """

    number: int
    phase: str
    size: int
    commit: str = ""


Progress = Callable[[TestRecord | TestStarted | str], None]


@dataclass(frozen=True, slots=True)
class CommitInfo:
    sha: str
    author: str
    email: str
    date: str  # ISO 8601, author date
    subject: str
    parents: tuple[str, ...]

    @property
    def short(self) -> str:
        return self.sha[:12]

    @property
    def is_merge(self) -> bool:
        return len(self.parents) > 1


@dataclass(frozen=True, slots=True)
class Origin:
    """A commit credited with part of a change: the lines of it that commit added
    and removed (both 0 for a change without lines: binary, mode, rename)."""

    commit: CommitInfo
    added: int
    removed: int

    @property
    def lines(self) -> int:
        return self.added + self.removed


@dataclass(frozen=True, slots=True)
class CommitPhase:
    """What the commit phase found. ``chain`` and ``bisection`` are those of the
    last line bisected: BAD's first-parent line, or the merged branch followed
    last (``followed`` names the merges whose branches were followed, outermost first)."""

    chain: tuple[str, ...]          # GOOD, ..., BAD along BAD's first parents (or a branch's)
    bisection: Bisection
    commits: dict[str, CommitInfo]  # metadata of the commits the report names
    hunk_range: tuple[str, str]     # (passing, failing): what the hunk phase searches
    range_records: tuple[TestRecord, TestRecord]  # their test records (PASS, FAIL)
    combination: bool               # the first bad commit is a merge of passing branches
    shown: str                      # the first bad commit as `git show --stat` prints it
    culprit: Culprit | None = None  # the flake-aware finder's answer, when it searched
    followed: tuple[str, ...] = ()  # merges whose failing branch was bisected, outermost first
    between: int = -1               # commits in GOOD..BAD, BAD excluded, branches included
    tested: int = -1                # commits this phase really tested (every line, merges)

    @property
    def no_culprit(self) -> bool:
        """The flake-aware search found the failure does not reproduce: a flake."""
        return self.culprit is not None and self.culprit.flaky

    @property
    def commit_count(self) -> int:
        """Commits between GOOD and BAD (the chain's, when ``between`` is not known)."""
        return self.between if self.between >= 0 else len(self.chain) - 2

    @property
    def test_count(self) -> int:
        """Commit tests of the phase (the bisection's, when ``tested`` is not known)."""
        return self.tested if self.tested >= 0 else len(self.bisection.tested)

    @property
    def last_good(self) -> str:
        return self.chain[self.bisection.last_good]

    @property
    def first_bad(self) -> str:
        return self.chain[self.bisection.first_bad]

    @property
    def skipped(self) -> tuple[str, ...]:
        return tuple(self.chain[i] for i in self.bisection.skipped)


@dataclass(frozen=True, slots=True)
class Result:
    good: str
    bad: str
    good_name: str
    bad_name: str
    diff: Diff | None  # the diff the hunk phase searched (None: commit phase only)
    changes: tuple[Change, ...]
    roles: dict[int, str]  # change id -> CAUSE (removing it makes the test pass) or CONTEXT
    minimal: bool
    tests: tuple[TestRecord, ...]
    elapsed: float
    patch: bytes
    run_dir: Path
    commit_phase: CommitPhase | None = None
    # change id -> the commits that made it, most lines first
    origins: dict[int, tuple[Origin, ...]] = field(default_factory=dict)
    patch_base: str = ""  # the commit ``patch`` applies to ("" or GOOD: GOOD)
    patch_note: str = ""  # why the patch does not apply to GOOD

    @property
    def patch_on_good(self) -> bool:
        return self.patch_base in ("", self.good)

    @property
    def from_earlier_runs(self) -> int:
        """How many answers were replayed from outcomes observed by earlier runs."""
        return sum(1 for t in self.tests if t.earlier_run)

    @property
    def verified(self) -> bool:
        return any(t.phase == "verify" and t.outcome is Outcome.FAIL for t in self.tests)


def plural(count: int, noun: str) -> str:
    """'1 change', '2 changes': counts in every message wynot prints."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def read_output(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return ""
