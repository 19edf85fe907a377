"""The local pool: real worktrees, real processes; -j N end to end gives the answer of -j 1."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from scripts import make_repo as samples
from test_cli_state import good_bad_repo, leftover_worktrees

from cli_helpers import assert_no_configuration_ran_twice, run_wynot, snapshot, wynot_argv
from conftest import GitRepo
from wynot.changes import Diff
from wynot.executor import Cancelled, Job, parse_jobs
from wynot.outcome import Outcome
from wynot.pool import LocalPool
from wynot.runner import Commands


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_cancelled_run_has_its_process_group_killed(make_repo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    repo: GitRepo = make_repo()
    good = repo.commit({"a.txt": b"a\n"})
    pidfile = tmp_path / "child.pid"
    script = f"sleep 60 & echo $! > {pidfile}; wait"
    empty = Diff(good=good, bad=good, files=(), changes=())
    with LocalPool(repo.path, Commands(test=("sh", "-c", script)), 2) as pool:
        pool.begin(good, empty)
        slow = pool.submit(Job(frozenset(), tmp_path / "slow.out"))
        deadline = time.monotonic() + 30
        while not pidfile.exists() or not pidfile.read_text().strip():
            assert time.monotonic() < deadline, "the test never started"
            time.sleep(0.05)
        child = int(pidfile.read_text())
        assert alive(child)
        slow.cancel()
        with pytest.raises(Cancelled):
            slow.result()
        deadline = time.monotonic() + 10
        while alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(child), "the test's child survived the cancellation"


def test_pool_runs_commits_then_configurations_in_its_worktrees(make_repo,  # type: ignore[no-untyped-def]
                                                                tmp_path: Path) -> None:
    repo: GitRepo = make_repo()
    first = repo.commit({"value": b"0\n"})
    second = repo.commit({"value": b"1\n"})
    test = Commands(test=("sh", "-c", 'test "$(cat value)" = 0'))
    empty = Diff(good=first, bad=second, files=(), changes=())
    with LocalPool(repo.path, test, 3) as pool:
        pool.begin(first, empty)
        handles = [pool.submit(Job(frozenset(), tmp_path / f"{i}.out", commit=sha))
                   for i, sha in enumerate([first, second, first, second])]
        outcomes = [h.result().outcome for h in handles]
    assert outcomes == [Outcome.PASS, Outcome.FAIL, Outcome.PASS, Outcome.FAIL]
    assert repo.text("worktree", "list").count("\n") == 0, "the worktrees were removed"


def test_worktrees_made_ahead_go_to_the_first_jobs_in_queue_order(make_repo,  # type: ignore[no-untyped-def]
                                                                  tmp_path: Path) -> None:
    """``warm``: the worktrees are made before any job (while the caller analyses),
    jobs take them (and check out what they need), and closing removes them all,
    taken or not."""
    repo: GitRepo = make_repo()
    first = repo.commit({"value": b"0\n"})
    second = repo.commit({"value": b"1\n"})
    test = Commands(test=("sh", "-c", 'test "$(cat value)" = 0'))
    with LocalPool(repo.path, test, 3, warm=first) as pool:
        deadline = time.monotonic() + 60
        while len(leftover_worktrees(repo.path)) < 3:  # made with no job submitted
            assert time.monotonic() < deadline, "the worktrees were not made ahead"
            time.sleep(0.05)
        pool.begin(first, Diff(good=first, bad=second, files=(), changes=()))
        late = pool.submit(Job(frozenset(), tmp_path / "late.out", commit=second), 5)
        early = pool.submit(Job(frozenset(), tmp_path / "early.out"), 1)
        assert early.result().outcome is Outcome.PASS  # GOOD: made ahead, checked out again
        assert late.result().outcome is Outcome.FAIL
        assert len(leftover_worktrees(repo.path)) == 3  # none made on demand
    assert leftover_worktrees(repo.path) == [], "the worktrees were removed"
    with LocalPool(repo.path, test, 4, warm=first):
        pass  # closed at once, perhaps while still making them: none is left behind
    assert leftover_worktrees(repo.path) == []


def test_a_pool_of_one_makes_its_worktree_when_warmed_up(make_repo,  # type: ignore[no-untyped-def]
                                                        tmp_path: Path) -> None:
    """A pool of one has no thread to make its worktree ahead: ``warm_up`` makes it
    in the caller's thread (while the analysis's workers read), the first job takes it."""
    repo: GitRepo = make_repo()
    first = repo.commit({"value": b"0\n"})
    second = repo.commit({"value": b"1\n"})
    test = Commands(test=("sh", "-c", 'test "$(cat value)" = 0'))
    with LocalPool(repo.path, test, 1, warm=first) as pool:
        assert leftover_worktrees(repo.path) == []  # nothing made by itself
        pool.warm_up()
        assert len(leftover_worktrees(repo.path)) == 1
        pool.warm_up()  # once
        pool.begin(first, Diff(good=first, bad=second, files=(), changes=()))
        assert pool.submit(Job(frozenset(), tmp_path / "good.out")).result().outcome \
            is Outcome.PASS
        assert pool.submit(Job(frozenset(), tmp_path / "bad.out", commit=second)).result() \
            .outcome is Outcome.FAIL
        assert len(leftover_worktrees(repo.path)) == 1  # the one made ahead
    assert leftover_worktrees(repo.path) == []
    with LocalPool(repo.path, test, 1) as pool:
        pool.warm_up()  # no commit to make it of: nothing
        assert leftover_worktrees(repo.path) == []


def test_a_pool_of_one_makes_its_worktree_ahead_beside_the_caller(make_repo,  # type: ignore[no-untyped-def]
                                                                  tmp_path: Path) -> None:
    """``warm_up_ahead`` (a rerun, whose caller loads its stored analysis meanwhile):
    the worktree is made in a thread; the first job waits for it and takes it, a
    later ``warm_up`` makes no second one, and closing removes it, also when the
    pool closes while it is being made."""
    repo: GitRepo = make_repo()
    first = repo.commit({"value": b"0\n"})
    second = repo.commit({"value": b"1\n"})
    test = Commands(test=("sh", "-c", 'test "$(cat value)" = 0'))
    with LocalPool(repo.path, test, 1, warm=first) as pool:
        pool.warm_up_ahead()
        pool.warm_up()  # made ahead already, or being made: not again
        pool.begin(first, Diff(good=first, bad=second, files=(), changes=()))
        assert pool.submit(Job(frozenset(), tmp_path / "good.out")).result().outcome \
            is Outcome.PASS
        assert len(leftover_worktrees(repo.path)) == 1  # the one made ahead, taken
    assert leftover_worktrees(repo.path) == []
    with LocalPool(repo.path, test, 1, warm=first) as pool:
        pool.warm_up_ahead()  # closed at once, perhaps while it is being made
    assert leftover_worktrees(repo.path) == []


def test_a_pool_of_one_starts_its_worktree_as_a_process_of_its_own(  # type: ignore[no-untyped-def]
        make_repo, tmp_path: Path) -> None:
    """``start_warm_up`` (a first run, before the diff is read): ``git worktree add``
    runs beside the caller with no thread started (the analysis may fork its
    readers meanwhile); ``warm_up`` finishes it and the first job takes it.
    Closed before anyone took it, also while git writes it, it is removed."""
    repo: GitRepo = make_repo()
    files = {f"d{i % 7}/f{i}.txt": b"%d\n" % i for i in range(300)}
    first = repo.commit({**files, "value": b"0\n"})
    second = repo.commit({"value": b"1\n"})
    test = Commands(test=("sh", "-c", 'test "$(cat value)" = 0'))
    threads = threading.active_count()
    with LocalPool(repo.path, test, 1, warm=first) as pool:
        pool.start_warm_up()
        assert threading.active_count() == threads
        pool.start_warm_up()  # once
        pool.warm_up()
        assert len(leftover_worktrees(repo.path)) == 1
        pool.begin(first, Diff(good=first, bad=second, files=(), changes=()))
        assert pool.submit(Job(frozenset(), tmp_path / "good.out")).result().outcome \
            is Outcome.PASS
        assert len(leftover_worktrees(repo.path)) == 1  # the one begun, taken
    assert leftover_worktrees(repo.path) == []
    for pause in (0.0, 0.02, 0.2):
        with LocalPool(repo.path, test, 1, warm=first) as pool:
            pool.start_warm_up()
            time.sleep(pause)
        assert leftover_worktrees(repo.path) == []
        assert not (repo.path / ".git" / "worktrees").exists() \
            or list((repo.path / ".git" / "worktrees").iterdir()) == []
    with LocalPool(repo.path, test, 1, warm=first, keep=True) as pool:
        pool.start_warm_up()  # a kept worktree is checked out again instead: not begun
        assert leftover_worktrees(repo.path) == []


def test_jobs_option_values() -> None:
    assert parse_jobs("3", lambda: 8) == 3
    assert parse_jobs("auto", lambda: 8) == 8
    assert parse_jobs("auto", lambda: None) == 1
    for bad in ("0", "-2", "many"):
        with pytest.raises(ValueError):
            parse_jobs(bad, lambda: 8)


def decisive(report: dict[str, object]) -> list[tuple[str, str, str]]:
    log = Path(str(report["log"])) / "log.jsonl"
    entries = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    return [(e["phase"], str(e["changes"]), e["outcome"]) for e in entries
            if e["phase"] not in ("speculative", "verify", "commits", "premise")]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["interference", "long-history"])
def test_jobs_give_the_answer_of_one_job(name: str, tmp_path: Path) -> None:
    case = samples.load_case(name)
    test = [sys.executable if case["test"][0] in ("python", "python3") else case["test"][0],
            *case["test"][1:]]
    repo = samples.make_repo(name, tmp_path / name)
    reports = []
    for jobs in ("1", "3"):
        result = run_wynot("good", "bad", "--json", "--no-cache", "-j", jobs, "--", *test,
                           cwd=repo, timeout=900)
        assert result.returncode == 0, result.stderr
        reports.append(json.loads(result.stdout))
        assert_no_configuration_ran_twice(reports[-1])
    one, three = reports
    assert [c["label"] for c in three["changes"]] == [c["label"] for c in one["changes"]]
    assert decisive(three) == decisive(one)
    if "commit_phase" in one:
        assert three["commit_phase"]["first_bad"] == one["commit_phase"]["first_bad"]


def _alive_not_zombie(pid: int) -> bool:
    try:
        return "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupt_with_several_workers_kills_every_test_and_removes_every_worktree(
        tmp_path: Path, sig: signal.Signals) -> None:
    repo = good_bad_repo(tmp_path / "repo")
    before = snapshot(repo)
    pids = tmp_path / "pids"
    script = f"sleep 61 & echo $$ $! >> '{pids}'; wait"
    proc = subprocess.Popen([*wynot_argv(), "good", "bad", "--no-cache", "-j", "3", "--",
                             "sh", "-c", script], cwd=repo, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (
            not pids.exists() or len(pids.read_text().splitlines()) < 3):
        time.sleep(0.05)
    started = [int(p) for line in pids.read_text().splitlines() for p in line.split()]
    assert len(started) >= 6, "three tests never ran at once"
    proc.send_signal(sig)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr
    assert [pid for pid in started if _alive_not_zombie(pid)] == []
    assert leftover_worktrees(repo) == []
    assert snapshot(repo) == before


def _niceness_written(path: Path) -> int:
    deadline = time.monotonic() + 30
    while not path.exists() or not path.read_text().strip():
        assert time.monotonic() < deadline, "the test never started"
        time.sleep(0.02)
    return int(path.read_text().split()[0])


def _can_raise_priority() -> bool:
    """Whether this process may give a process back a higher CPU priority."""
    child = subprocess.Popen(["sleep", "5"])
    try:
        os.setpriority(os.PRIO_PROCESS, child.pid, os.getpriority(os.PRIO_PROCESS, 0) + 5)
        os.setpriority(os.PRIO_PROCESS, child.pid, os.getpriority(os.PRIO_PROCESS, 0))
        return True
    except PermissionError:
        return False
    finally:
        child.kill()
        child.wait()


def test_a_speculative_run_yields_the_cpu_until_it_is_prioritised(  # type: ignore[no-untyped-def]
        make_repo, tmp_path: Path, monkeypatch) -> None:
    """A speculative job runs at a lower CPU priority (its build and test, and what
    they start); one nobody guessed runs at wynot's. Once prioritised (the search
    waits for it) it goes back to wynot's priority where the system allows it."""
    repo: GitRepo = make_repo()
    good = repo.commit({"a.txt": b"a\n"})
    own = os.getpriority(os.PRIO_PROCESS, 0)
    # each run writes its niceness (field 19 of stat, from a child of the test's
    # shell), then again once a file appears
    script = ("n() { sh -c 'cut -d\" \" -f19 /proc/$$/stat'; }; n > \"$OUT.1\"; "
              "while [ ! -e \"$OUT.go\" ]; do sleep 0.02; done; n > \"$OUT.2\"")
    empty = Diff(good=good, bad=good, files=(), changes=())
    with LocalPool(repo.path, Commands(test=("sh", "-c", script)), 2) as pool:
        pool.begin(good, empty)
        monkeypatch.setenv("OUT", str(tmp_path / "guess"))
        guess = pool.submit(Job(frozenset(), tmp_path / "guess.out"), 1, speculative=True)
        assert _niceness_written(tmp_path / "guess.1") == min(19, own + 10)
        guess.prioritise()
        time.sleep(0.3)  # polled while it runs
        (tmp_path / "guess.go").touch()
        assert guess.result().outcome is Outcome.PASS
        back = _niceness_written(tmp_path / "guess.2")
        assert back == (own if _can_raise_priority() else min(19, own + 10))
        monkeypatch.setenv("OUT", str(tmp_path / "asked"))
        (tmp_path / "asked.go").touch()
        asked = pool.submit(Job(frozenset(), tmp_path / "asked.out"))
        assert asked.result().outcome is Outcome.PASS
        assert _niceness_written(tmp_path / "asked.1") == own
