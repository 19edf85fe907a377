"""-j N: the rounds around the search (the premise during the analysis, removal after
the report). Real repositories, worktrees and processes; no test depends on time."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from test_cli_state import good_bad_repo, leftover_worktrees

from cli_helpers import git_out, run_wynot
from wynot import isolate as isolate_module
from wynot.analyse import Analysis
from wynot.changes import Diff
from wynot.errors import PremiseError
from wynot.executor import Job
from wynot.isolate import Request, isolate
from wynot.outcome import Outcome
from wynot.pool import LocalPool, removal_after
from wynot.runner import Commands


def _log(repo: Path) -> list[dict[str, Any]]:
    """The entries of the repository's only run log."""
    runs = sorted((repo / ".git" / "wynot" / "runs").iterdir())
    assert len(runs) == 1
    return [json.loads(line) for line in
            (runs[0] / "log.jsonl").read_text(encoding="utf-8").splitlines()]


def test_good_and_bad_run_while_the_diff_is_analysed(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """With several workers GOOD and BAD start once the diff is read: both have run
    by the time the analysis returns (with one worker nothing runs before it), and
    the premise adopts those runs rather than running them again."""
    repo = good_bad_repo(tmp_path / "repo")
    marks = tmp_path / "marks"
    marks.mkdir()
    real = isolate_module.analyse
    seen: dict[str, list[str]] = {}

    def observed(*args: Any, **kwargs: Any) -> Analysis:
        analysis = real(*args, **kwargs)
        deadline = time.monotonic() + 60  # generous: this only waits on a real failure
        while len(os.listdir(marks)) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        seen["marks"] = sorted(os.listdir(marks))
        return analysis

    monkeypatch.setattr(isolate_module, "analyse", observed)
    # value.txt is 1 on GOOD, 2 on BAD: each run leaves a mark named after it
    test = ("sh", "-c", f"touch '{marks}'/$(cat value.txt); grep -q 1 value.txt")
    result = isolate(Request(repo, "good", "bad", Commands(test=test), use_cache=False,
                             jobs=3))
    assert seen["marks"] == ["1", "2"], "GOOD and BAD did not run during the analysis"
    assert [c.label for c in result.changes] == ["value.txt:-1,1"]
    premise = [r for r in result.tests if r.phase == "premise"]
    assert [r.outcome for r in premise] == [Outcome.PASS, Outcome.FAIL]
    logged = _log(repo)
    assert [e["outcome"] for e in logged if e["phase"] == "premise"] == ["pass", "fail"]
    assert leftover_worktrees(repo) == []


@pytest.mark.parametrize("test", ["grep -q 3 value.txt", "true"], ids=["GOOD fails",
                                                                       "BAD passes"])
def test_a_premise_that_fails_uses_no_speculative_run(tmp_path: Path, test: str) -> None:
    """GOOD, BAD and dd+'s likeliest first questions run at once; when the premise
    fails, nothing the search would have asked is used, every speculative run is
    logged as cancelled or unused, and no worktree or test process is left."""
    repo = good_bad_repo(tmp_path / "repo")
    pids = tmp_path / "pids"
    script = f"echo $$ >> '{pids}'; {test}"
    result = run_wynot("good", "bad", "--no-cache", "-j", "4", "--", "sh", "-c", script,
                       cwd=repo)
    assert result.returncode == PremiseError.exit_code, result.stderr
    logged = _log(repo)
    assert {e["phase"] for e in logged} <= {"premise", "speculative"}, logged
    assert len([e for e in logged if e["phase"] == "premise"]) <= 2, logged
    assert all(e["source"] in ("cancelled", "unused") for e in logged
               if e["phase"] == "speculative"), logged
    assert leftover_worktrees(repo) == []
    started = [int(p) for p in pids.read_text().split()]  # at least the side that failed
    assert started, result.stderr
    assert [p for p in started if _running(p)] == [], logged


def _running(pid: int) -> bool:
    try:
        return "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False


def test_worktrees_closed_inside_removal_after_go_at_its_end(tmp_path: Path) -> None:
    """A pool closed inside :func:`removal_after` keeps its worktrees until the block
    ends (its runs are over), and they go however the block ends."""
    repo = good_bad_repo(tmp_path / "repo")
    commands = Commands(test=("grep", "-q", "1", "value.txt"))
    good, bad = (git_out(repo, "rev-parse", tag).strip() for tag in ("good", "bad"))
    with removal_after():
        with LocalPool(repo, commands, 2, warm=good) as pool:
            pool.begin(good, Diff(good=good, bad=bad, files=(), changes=()))
            handles = [pool.submit(Job(frozenset(), tmp_path / f"{i}.out", commit=sha))
                       for i, sha in enumerate([good, bad])]
            assert [h.result().outcome for h in handles] == [Outcome.PASS, Outcome.FAIL]
        assert len(leftover_worktrees(repo)) == 2, "removed before the block ended"
    assert leftover_worktrees(repo) == []
    with pytest.raises(RuntimeError, match="report failed"), removal_after():
        with LocalPool(repo, commands, 2, warm=good):
            pass
        raise RuntimeError("report failed")
    assert leftover_worktrees(repo) == []
    with LocalPool(repo, commands, 2, warm=good):
        pass  # outside the block: removed when the pool closes, as ever
    assert leftover_worktrees(repo) == []
