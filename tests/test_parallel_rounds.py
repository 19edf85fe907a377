"""-j N: the rounds around the search (the premise during the analysis, removal after
the report). Real repositories, worktrees and processes; no test depends on time."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from test_cli_state import good_bad_repo, leftover_worktrees

from cli_helpers import git_out, run_wynot
from wynot import isolate as isolate_module
from wynot import tester as testers
from wynot.analyse import Analysis
from wynot.cache import RunLog
from wynot.changes import Diff
from wynot.diffread import read_diff
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
    """A pool closed inside :func:`removal_after` has its runs over when it closes, and
    its worktrees gone when the block ends, however it ends."""
    repo = good_bad_repo(tmp_path / "repo")
    commands = Commands(test=("grep", "-q", "1", "value.txt"))
    good, bad = (git_out(repo, "rev-parse", tag).strip() for tag in ("good", "bad"))
    with removal_after():
        with LocalPool(repo, commands, 2, warm=good) as pool:
            pool.begin(good, Diff(good=good, bad=bad, files=(), changes=()))
            handles = [pool.submit(Job(frozenset(), tmp_path / f"{i}.out", commit=sha))
                       for i, sha in enumerate([good, bad])]
            assert [h.result().outcome for h in handles] == [Outcome.PASS, Outcome.FAIL]
        assert all(h.done() for h in handles)
    assert leftover_worktrees(repo) == []
    with pytest.raises(RuntimeError, match="report failed"), removal_after():
        with LocalPool(repo, commands, 2, warm=good):
            pass
        raise RuntimeError("report failed")
    assert leftover_worktrees(repo) == []
    with LocalPool(repo, commands, 2, warm=good):
        pass  # outside the block: removed when the pool closes, as ever
    assert leftover_worktrees(repo) == []


_REMOVAL_UNDER_INTERRUPTS = """
import json, os, signal, subprocess, sys, threading, time
from pathlib import Path
from wynot.changes import Diff
from wynot.executor import Job
from wynot.pool import LocalPool, removal_after
from wynot.runner import Commands

repo, good, bad, out = Path(sys.argv[1]), sys.argv[2], sys.argv[3], Path(sys.argv[4])
workers = int(sys.argv[5])
# every test waits until all are running: each worker has made its worktree
barrier = f"touch {out}/$$; while [ $(ls {out} | wc -l) -lt {workers} ]; do sleep 0.01; done"

def interrupt() -> None:
    # once the removal has begun, Ctrl-C after Ctrl-C until the end, received by this
    # thread (it does not hold them off): each is raised in the main thread
    while not any(t.name == "wynot-removal" for t in threading.enumerate()):
        time.sleep(0.0001)
    with open(out.parent / "sent", "ab", buffering=0) as sent:
        while any(t.name == "wynot-removal" for t in threading.enumerate()):
            sent.write(b"x")
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.0005)

with removal_after():
    with LocalPool(repo, Commands(test=("sh", "-c", barrier)), workers, warm=good) as pool:
        pool.begin(good, Diff(good=good, bad=bad, files=(), changes=()))
        handles = [pool.submit(Job(frozenset(), out.parent / f"{i}.out", commit=good))
                   for i in range(workers)]
        print([h.result().outcome.name for h in handles], file=sys.stderr)
        listed = subprocess.run(["git", "-C", str(repo), "worktree", "list", "--porcelain"],
                                capture_output=True, text=True, check=True).stdout
        roots = [line.split(" ", 1)[1] for line in listed.splitlines()
                 if line.startswith("worktree ")]
        (out.parent / "roots.json").write_text(json.dumps(roots[1:]))
        threading.Thread(target=interrupt, daemon=True).start()
    time.sleep(60)  # the worktrees are being removed meanwhile
"""  # the interrupts, held off until every worktree has gone, end the script


def test_worktrees_are_removed_together_and_entirely_under_interrupts(tmp_path: Path) -> None:
    """The worktrees of a pool go at the same time (one thread each) from its close,
    inside :func:`removal_after`, while Ctrl-C arrives again and again and is raised
    in the main thread: none is left registered, no directory and no owner record
    stays, and the interrupt is raised once they are gone."""
    repo = good_bad_repo(tmp_path / "repo")
    good, bad = (git_out(repo, "rev-parse", tag).strip() for tag in ("good", "bad"))
    (tmp_path / "started").mkdir()
    workers = 6
    proc = subprocess.run([sys.executable, "-c", _REMOVAL_UNDER_INTERRUPTS, str(repo), good,
                           bad, str(tmp_path / "started"), str(workers)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == -signal.SIGINT, proc.stderr  # ended by the interrupt
    assert (tmp_path / "sent").read_bytes(), "no interrupt came while the worktrees went"
    assert "['PASS', 'PASS', 'PASS', 'PASS', 'PASS', 'PASS']" in proc.stderr
    roots = [Path(root) for root in json.loads((tmp_path / "roots.json").read_text())]
    assert len(set(roots)) == workers
    assert [root for root in roots if root.parent.exists()] == []
    assert leftover_worktrees(repo) == []
    assert not list((repo / ".git" / "worktrees").glob("*"))
    assert not list((repo / ".git" / "wynot" / "owners").glob("*"))


def test_label_runs_of_an_answer_that_failed_are_kept_for_likelier_guesses(
        tmp_path: Path) -> None:
    """A likely answer run twice ahead, and without each of its changes (labelling's
    first questions): once it has FAILED, its label runs still running are not
    cancelled when a new plan needs their workers for other guesses; labelling
    then adopts them."""
    repo = good_bad_repo(tmp_path / "repo")
    good, bad = (git_out(repo, "rev-parse", tag).strip() for tag in ("good", "bad"))
    diff = read_diff(repo, good, bad)
    ids = {c.path: c.id for c in diff.changes}
    answer = frozenset({ids["value.txt"], ids["notes.txt"]})
    gate = tmp_path / "gate"
    # the answer fails at once; every other configuration waits for the gate, then passes
    script = (f"if grep -q 2 value.txt && grep -q LINE notes.txt; then exit 1; fi; "
              f"while [ ! -e '{gate}' ]; do sleep 0.01; done")
    commands = Commands(test=("sh", "-c", script))
    log = RunLog(tmp_path / "runs")
    labels = [answer - {ids["value.txt"]}, answer - {ids["notes.txt"]}]
    try:
        with LocalPool(repo, commands, 4, warm=good) as pool:
            searcher = testers.Tester(diff, pool, commands, None, "key", log, lambda _: None)
            pool.begin(good, diff)
            searcher.speculate([answer, *labels], again=[answer])  # 4 runs on 4 workers
            while searcher.peek(answer) is not Outcome.FAIL:
                time.sleep(0.01)
            others = [frozenset({ids["other.txt"]}), frozenset({ids["other.txt"],
                                                                ids["value.txt"]}),
                      frozenset({ids["other.txt"], ids["notes.txt"]})]
            searcher.speculate(others, again=[])  # three guesses, at most two free workers
            gate.touch()
            asked = [searcher.run(config, "label") for config in labels]
            searcher.finish()
    finally:
        log.close()
    assert [r.outcome for r in asked] == [Outcome.PASS, Outcome.PASS]
    assert all(Path(r.output).name.startswith("spec-") for r in asked), "not adopted"
    entries = [json.loads(line) for line in
               (log.dir / "log.jsonl").read_text(encoding="utf-8").splitlines()]
    cancelled = [frozenset(e["changes"]) for e in entries if e.get("source") == "cancelled"]
    assert not set(labels) & set(cancelled)
    assert leftover_worktrees(repo) == []
