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
from wynot.outcome import Outcome

RAN, CACHED, PREDICTED, CONFLICT = "run", "cache", "predicted", "conflict"
CAUSE, CONTEXT = "cause", "context"


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
    origins: dict[int, CommitInfo] = field(default_factory=dict)  # change id -> its commit

    @property
    def verified(self) -> bool:
        return any(t.phase == "verify" and t.outcome is Outcome.FAIL for t in self.tests)


def read_output(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return ""
