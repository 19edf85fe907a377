"""-j N: the run the search waits for keeps the CPU, speculative runs yield it; each
run's worker and times in the run log. Real repositories, worktrees and processes."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from pathlib import Path

import pytest
from test_cli_state import good_bad_repo, leftover_worktrees

from cli_helpers import git_out
from wynot import priority
from wynot import tester as testers
from wynot.cache import RunLog
from wynot.diffread import read_diff
from wynot.isolate import Request, isolate
from wynot.outcome import Outcome
from wynot.pool import LocalPool
from wynot.runner import Commands

needs_autogroups = pytest.mark.skipif(
    not priority.autogroups(), reason="the kernel does not schedule sessions as groups")


def _nices(output: str) -> list[int]:
    """The nice values ``cat /proc/self/autogroup`` printed (``/autogroup-N nice V``)."""
    return [int(line.split()[-1]) for line in output.splitlines() if "autogroup" in line]


@needs_autogroups
def test_a_session_priority_is_lowered_and_restored() -> None:
    """Any user may give a test's session a lower priority and then the normal one back."""
    proc = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        seen = []
        for nice in (priority.YIELDING, 0):
            assert priority.set_nice(proc.pid, nice)
            seen.append(_nices(Path(f"/proc/{proc.pid}/autogroup").read_text()))
        assert seen == [[priority.YIELDING], [0]]
    finally:
        proc.kill()
        proc.wait()
    assert not priority.set_nice(proc.pid, 0)  # gone: nothing set, nothing raised


@needs_autogroups
def test_the_awaited_run_keeps_the_cpu_and_speculative_ones_yield(tmp_path: Path) -> None:
    """The run the search waits for has the CPU, the speculative runs under way yield
    it; one the search comes to wait for gets it back while it runs, the others keep
    yielding. The outcomes are the commands' own."""
    repo = good_bad_repo(tmp_path / "repo")
    good, bad = (git_out(repo, "rev-parse", tag).strip() for tag in ("good", "bad"))
    diff = read_diff(repo, good, bad)
    ids = {c.path: c.id for c in diff.changes}
    first, second, third = (frozenset({ids[p]}) for p in ("value.txt", "notes.txt",
                                                           "other.txt"))
    gates = tmp_path / "first", tmp_path / "second"
    wait = "while [ ! -e '{}' ]; do sleep 0.01; done; cat /proc/self/autogroup"
    # the value change: its priority after a second, then the others may go on (exit 1);
    # the others: their priority then, and again once the second gate opens (exit 0)
    script = (f"if grep -q 2 value.txt; then sleep 1; cat /proc/self/autogroup; "
              f"touch '{gates[0]}'; exit 1; fi; {wait.format(gates[0])}; "
              f"{wait.format(gates[1])}")
    commands = Commands(test=("sh", "-c", script))
    log = RunLog(tmp_path / "runs")
    try:
        with LocalPool(repo, commands, 3, warm=good) as pool:
            searcher = testers.Tester(diff, pool, commands, None, "key", log, lambda _: None)
            pool.begin(good, diff)
            searcher.speculate([first, second, third])
            asked = [searcher.run(first, "search")]
            opening = threading.Timer(1.0, gates[1].touch)  # while the second is awaited
            opening.start()
            asked += [searcher.run(config, "search") for config in (second, third)]
            opening.join()
            searcher.finish()
    finally:
        log.close()
    assert [r.outcome for r in asked] == [Outcome.FAIL, Outcome.PASS, Outcome.PASS]
    assert all(Path(r.output).name.startswith("spec-") for r in asked), "not adopted"
    assert [_nices(r.output_text()) for r in asked] == [
        [0], [priority.YIELDING, 0], [priority.YIELDING, priority.YIELDING]]
    assert leftover_worktrees(repo) == []


def test_the_run_log_gives_each_run_its_worker_and_times(tmp_path: Path) -> None:
    """Every run in the log, speculative ones that ran included, names its worker and
    when it started and ended; the answer is that of one worker."""
    answers = []
    for jobs in (1, 3):
        repo = good_bad_repo(tmp_path / f"repo{jobs}")
        before = time.time()
        result = isolate(Request(repo, "good", "bad", Commands(
            test=("sh", "-c", "! grep -q 2 value.txt")), use_cache=False, jobs=jobs))
        answers.append([c.label for c in result.changes])
        entries = [json.loads(line) for line in (result.run_dir / "log.jsonl").read_text(
            encoding="utf-8").splitlines()]
        ran = [e for e in entries if e.get("source") in ("run", "unused")]
        assert ran and all(before <= e["started"] <= e["ended"] <= time.time() for e in ran)
        assert all(("worker" in e) == (jobs > 1) for e in ran)
    assert answers == [["value.txt:-1,1"]] * 2
