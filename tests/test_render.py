"""Markdown, GitHub annotations, JSON and progress estimates from fixed Result values."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from cli_helpers import validate_report
from wynot.bisect import Bisection
from wynot.changes import Change, ChangeKind, Diff, FileDiff, Hunk
from wynot.outcome import Outcome
from wynot.render.github import MAX_ANNOTATIONS, annotated_lines, workflow_commands
from wynot.render.info import (
    FLAKY,
    FOUND,
    INCONCLUSIVE,
    STATUSES,
    SUSPECT,
    ReportInfo,
    RevertInfo,
    status_of,
)
from wynot.render.json_report import failure_json, report_json
from wynot.render.markdown import LIMIT, render_markdown
from wynot.render.progress import Estimate, PlainProgress
from wynot.result import CAUSE, CONTEXT, RAN, CommitInfo, CommitPhase, Origin, Result
from wynot.result import TestRecord as Record

SHA = {name: (name * 40)[:40] for name in "abcdef"}
AUTHOR = CommitInfo(SHA["c"], "Ada Tester", "ada@example.com", "2026-01-02T03:04:05+00:00",
                    "wrap: measure widths in one place", (SHA["b"],))
INFO = ReportInfo("0.1.0", ("good", "bad", "--", "make", "test"), ("make", "test"), None, 0,
                  patch_path="/repo/.git/wynot/runs/1/answer.patch")


def hunk_change(number: int, path: str, body: str, new_start: int = 10) -> Change:
    text = f"@@ -{new_start},3 +{new_start},3 @@ def f():\n{body}"
    return Change(number, number, ChangeKind.HUNK, path,
                  Hunk(new_start, 3, new_start, 3, "def f():", text))


def record(number: int, phase: str, ids: frozenset[int], outcome: Outcome,
           commit: str = "") -> Record:
    return Record(number, phase, ids, outcome, "test failed", 0.25, f"/out/{number}", RAN,
                      commit=commit)


def fixed_result(count: int = 3, body: str = " a\n-old\n+new\n b\n", *, causes: int = 1,
                 phase: bool = True, minimal: bool = True) -> Result:
    changes = tuple(hunk_change(i, f"src/m{i}.py", body, 10 + i) for i in range(count))
    files = tuple(FileDiff(i, c.path, c.path, None, None, (c,)) for i, c in enumerate(changes))
    diff = Diff(SHA["b"], SHA["c"], files, changes)
    everything = frozenset(range(count))
    tests = [record(1, "search", everything, Outcome.FAIL),
             record(2, "verify", frozenset(range(causes)), Outcome.FAIL)]
    commit_phase = None
    if phase:
        commit_phase = CommitPhase(
            (SHA["a"], SHA["b"], SHA["c"], SHA["d"]), Bisection(1, 2, (), (1, 2)),
            {SHA["b"]: dataclasses.replace(AUTHOR, sha=SHA["b"], subject="earlier"),
             SHA["c"]: AUTHOR},
            (SHA["b"], SHA["c"]),
            (record(3, "commits", frozenset(), Outcome.PASS, SHA["b"]),
             record(4, "commits", frozenset(), Outcome.FAIL, SHA["c"])),
            False, f"commit {SHA['c']}\n")
    roles = {i: CAUSE if i < causes else CONTEXT for i in range(count)}
    return Result(SHA["a"], SHA["d"], "good", "bad", diff, changes, roles, minimal,
                  tuple(tests), 1.5, b"patch", Path("/repo/.git/wynot/runs/1"),
                  commit_phase, dict.fromkeys(range(count), (Origin(AUTHOR, 1, 1),)))


def test_statuses_follow_what_the_result_proves() -> None:
    assert status_of(fixed_result()) == FOUND
    assert status_of(fixed_result(minimal=False)) == SUSPECT
    assert status_of(fixed_result(), partial=True) == SUSPECT
    assert status_of(None) == INCONCLUSIVE
    whole = fixed_result(phase=False, minimal=False)
    assert status_of(whole) == INCONCLUSIVE  # the whole diff: nothing narrower
    commits_only = dataclasses.replace(fixed_result(), diff=None, changes=(), roles={})
    assert status_of(commits_only) == FOUND
    assert FLAKY in STATUSES  # reserved: no result maps to it yet
    assert all(status_of(r) != FLAKY for r in (fixed_result(), whole, commits_only))


def test_markdown_puts_the_culprit_first_and_folds_each_change() -> None:
    text = render_markdown(fixed_result(3, causes=1), INFO)
    first_details = text.index("<details>")
    assert text.index("**First bad commit:** `cccccccccccc` wrap: measure widths") < first_details
    assert text.index("**Cause:** `src/m0.py:-10,3`") < first_details
    assert text.count("<details>") == 3 + 1  # each change, and the reproduce block
    assert text.index("src/m0.py:-10,3</code> — cause") < text.index("src/m1.py:-11,3</code>")
    assert "git apply /repo/.git/wynot/runs/1/answer.patch" in text
    assert "wynot good bad -- make test" in text
    assert text.startswith("### wynot: found\n")


def test_markdown_of_a_huge_answer_stays_under_the_limit() -> None:
    body = "".join(f"+line {n} {'x' * 80}\n" for n in range(120))  # ~10 KB per change
    result = fixed_result(400, body, causes=400)
    text = render_markdown(result, INFO)
    assert len(text.encode()) <= LIMIT < 65_536
    assert "more changes not shown here" in text
    assert text.rstrip().endswith("</sub>")  # the reproduce block and footer survive
    assert text.index("**Cause:**") < text.index("<details>")


def test_markdown_fences_survive_backticks_in_the_diff() -> None:
    text = render_markdown(fixed_result(1, " a\n+```python\n+x = 1\n+```\n"), INFO)
    assert "````diff\n" in text and "\n````\n" in text


def test_markdown_without_a_result_says_why() -> None:
    info = dataclasses.replace(INFO, exit_code=3, message="GOOD (good) fails the test")
    text = render_markdown(None, info)
    assert text.startswith("### wynot: inconclusive\n")
    assert "> GOOD (good) fails the test" in text and "exit code 3" in text


def test_github_annotates_at_most_ten_causes_with_bad_line_numbers() -> None:
    result = fixed_result(15, causes=12)
    lines = workflow_commands(result, INFO)
    assert len(lines) == MAX_ANNOTATIONS
    assert lines[0] == ("::error file=src/m0.py,title=wynot,line=11::wynot (found): "
                        "src/m0.py:-10,3 is the cause: without it the test passes")
    assert all("is the cause" in line for line in lines)


def test_github_escapes_paths_and_messages() -> None:
    change = hunk_change(0, "odd,dir/a:b%.py", " x\n+y\n+z\n w\n")
    result = dataclasses.replace(fixed_result(1), changes=(change,), roles={0: CAUSE})
    (line,) = workflow_commands(result, INFO)
    assert line.startswith("::error file=odd%2Cdir/a%3Ab%25.py,title=wynot,line=11,endLine=12::")
    no_answer = workflow_commands(None, dataclasses.replace(INFO, message="a\nb 100%"))
    assert no_answer == ["::error title=wynot::wynot (inconclusive): a%0Ab 100%25"]


@pytest.mark.parametrize(("text", "start", "lines"), [
    ("@@\n a\n b\n-c\n+C\n d\n", 4, (6, 6)),
    ("@@\n a\n+b\n+c\n d\n-e\n+E\n", 1, (2, 5)),
    ("@@\n a\n-b\n-c\n d\n", 7, (8, 8)),   # deleted: where they were
    ("@@\n-gone\n", 3, (3, 3)),              # -U0 deletion: new_start is the line before
])
def test_annotations_cover_the_changed_lines_not_the_context(text: str, start: int,
                                                              lines: tuple[int, int]) -> None:
    assert annotated_lines(text, start) == lines


def test_github_names_the_commit_when_only_commits_were_searched() -> None:
    result = dataclasses.replace(fixed_result(), diff=None, changes=(), roles={})
    assert workflow_commands(result, INFO) == [
        "::error title=wynot::wynot (found): first bad commit cccccccccccc "
        "wrap: measure widths in one place"]


@pytest.mark.parametrize("result", [fixed_result(), fixed_result(minimal=False),
                                    fixed_result(phase=False)], ids=["found", "budget", "hunks"])
def test_json_reports_follow_the_schema(result: Result) -> None:
    revert = RevertInfo("/tmp/r.patch", True, True, "revert verified", 5)
    report = report_json(result, dataclasses.replace(INFO, revert=revert))
    validate_report(report)
    assert report["commit"] == (None if result.commit_phase is None else {
        "sha": SHA["c"], "subject": AUTHOR.subject, "author": "Ada Tester",
        "email": "ada@example.com", "date": AUTHOR.date})
    assert report["reproduce"]["steps"][-1] == "make test"
    assert report["counts"]["changes_found"] == len(result.changes)


def test_failure_json_follows_the_schema() -> None:
    info = dataclasses.replace(INFO, exit_code=3, message="BAD passes")
    report = failure_json(info, "good", "bad")
    validate_report(report)
    assert report["status"] == INCONCLUSIVE


def test_estimate_halves_commits_then_follows_the_smallest_failure() -> None:
    estimate = Estimate()
    estimate.update("bisecting 100 commits between good and bad")
    assert estimate.tests_left() == 7  # ceil(log2(101))
    estimate.update(record(3, "commits", frozenset(), Outcome.PASS, SHA["b"]))
    assert estimate.tests_left() == 6  # 50 left
    estimate.update("40 changes in 3 files between x and y")
    assert estimate.tests_left() == 6 + 1  # ceil(log2(40)) and the verification
    estimate.update(record(4, "search", frozenset(range(5)), Outcome.FAIL))
    assert estimate.tests_left() == 3 + 1
    assert estimate.done == 2


def test_plain_progress_writes_lines_with_the_estimate(tmp_path: Path) -> None:
    path = tmp_path / "progress"
    with path.open("w") as stream:
        progress = PlainProgress(stream)
        progress("8 changes in 2 files between a and b")
        progress(record(1, "search", frozenset(range(4)), Outcome.FAIL))
        progress.close()
    assert path.read_text().splitlines() == [
        "wynot: 8 changes in 2 files between a and b",
        "wynot: test   1 [search]     4 changes: FAIL (test failed, 0.2 s); about 3 left"]
