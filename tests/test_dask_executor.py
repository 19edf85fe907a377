"""--executor dask: a real scheduler and two real workers on 127.0.0.1 give the answer of -j 1."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from scripts import make_repo as samples

from cli_helpers import run_wynot, wynot_argv

pytest.importorskip("distributed")

DASK = str(Path(sys.executable).parent / "dask")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(log: Path, text: str, count: int = 1, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if log.exists() and log.read_text(errors="replace").count(text) >= count:
            return
        time.sleep(0.2)
    raise AssertionError(f"{text!r} not seen in {log}:\n{log.read_text(errors='replace')}")


class Cluster:
    """A dask scheduler and its workers, each its own process, on loopback only."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.temp = root / "tmp"
        self.temp.mkdir()
        self.address = f"tcp://127.0.0.1:{free_port()}"
        self.processes: list[subprocess.Popen[bytes]] = []
        try:
            self._start_all()
        except BaseException:
            self.stop()
            raise

    def _start_all(self) -> None:
        root = self.root
        self.start(["scheduler", "--host", "127.0.0.1", "--port",
                    self.address.rsplit(":", 1)[1], "--no-dashboard"], "scheduler")
        wait_for(root / "scheduler.log", "Scheduler at")
        self.workers = [self.start(["worker", self.address, "--nthreads", "1", "--no-nanny",
                                    "--host", "127.0.0.1", "--no-dashboard",
                                    "--local-directory", str(root / f"w{i}")], f"worker{i}")
                        for i in range(2)]
        for i in range(2):
            wait_for(root / f"worker{i}.log", "Registered to")

    def start(self, args: list[str], name: str) -> subprocess.Popen[bytes]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "WYNOT_"))}
        env["TMPDIR"] = str(self.temp)  # the workers' clones and worktrees go there
        with (self.root / f"{name}.log").open("wb") as log:
            proc = subprocess.Popen([DASK, *args], stdout=log, stderr=subprocess.STDOUT,
                                    cwd=self.root, env=env, start_new_session=True)
        self.processes.append(proc)
        return proc

    def stop(self) -> None:
        for proc in reversed(self.processes):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.processes:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    root = tmp_path / "cluster"
    root.mkdir()
    running = Cluster(root)
    try:
        yield running
    finally:
        running.stop()


def decisive(report: dict[str, object]) -> list[tuple[str, tuple[int, ...], str]]:
    """The answers the run rests on, in order: (phase, configuration, outcome)."""
    log = Path(str(report["log"])) / "log.jsonl"
    entries = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    return [(e["phase"], tuple(e["changes"]) if isinstance(e["changes"], list) else (),
             e["outcome"]) for e in entries if e["phase"] not in ("speculative", "verify")]


def sample(tmp_path: Path, name: str = "interference") -> tuple[Path, list[str]]:
    case = samples.load_case(name)
    test = [sys.executable if case["test"][0] in ("python", "python3") else case["test"][0],
            *case["test"][1:]]
    return samples.make_repo(name, tmp_path / name), test


@pytest.mark.slow
def test_dask_executor_gives_the_answer_of_one_worker(cluster: Cluster, tmp_path: Path) -> None:
    repo, test = sample(tmp_path)
    one = run_wynot("good", "bad", "--json", "--no-cache", "--", *test, cwd=repo)
    assert one.returncode == 0, one.stderr
    remote = run_wynot("good", "bad", "--json", "--no-cache", "--executor", "dask",
                       "--scheduler", cluster.address, "--", *test, cwd=repo, timeout=600)
    assert remote.returncode == 0, remote.stderr
    expected, got = json.loads(one.stdout), json.loads(remote.stdout)
    assert [c["label"] for c in got["changes"]] == [c["label"] for c in expected["changes"]]
    assert decisive(got) == decisive(expected)
    workers = {json.loads(line).get("worker") for line in
               (Path(got["log"]) / "log.jsonl").read_text().splitlines()}
    assert len(workers - {None}) == 2, "both workers ran tests"


@pytest.mark.slow
def test_a_worker_killed_mid_run_loses_a_test_not_the_answer(cluster: Cluster,
                                                              tmp_path: Path) -> None:
    repo, test = sample(tmp_path)
    one = run_wynot("good", "bad", "--json", "--no-cache", "--", *test, cwd=repo)
    assert one.returncode == 0, one.stderr
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "WYNOT_"))}
    remote = subprocess.Popen(
        [*wynot_argv(), "good", "bad", "--json", "--no-cache", "--executor", "dask",
         "--scheduler", cluster.address, "--", *test], cwd=repo, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    runs = repo / ".git" / "wynot" / "runs"
    deadline = time.monotonic() + 120
    own = f"wynot-worker-{cluster.workers[0].pid}-*"  # worker 0's clone, once it has one
    while time.monotonic() < deadline:  # kill worker 0 once it works and a few tests are done
        logs = sorted(runs.glob("*/log.jsonl"))
        if (len(logs) == 2 and len(logs[-1].read_text().splitlines()) >= 4
                and any(cluster.temp.glob(own))):
            break
        time.sleep(0.1)
    os.killpg(cluster.workers[0].pid, signal.SIGKILL)
    stdout, stderr = remote.communicate(timeout=600)
    assert remote.returncode == 0, stderr
    got, expected = json.loads(stdout), json.loads(one.stdout)
    assert [c["label"] for c in got["changes"]] == [c["label"] for c in expected["changes"]]
    assert decisive(got) == decisive(expected)
    # The killed worker could not remove its clone and worktrees; they are named
    # after it, and the next run on the machine removes them (here: reclaim alone).
    left = list(cluster.temp.glob("wynot-worker-*"))
    assert left, "the killed worker's clone"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "WYNOT_"))}
    subprocess.run([sys.executable, "-c", "from wynot.state import reclaim_tempdirs as r; r()"],
                   env={**env, "TMPDIR": str(cluster.temp)}, check=True)
    survivors = [p for p in cluster.temp.iterdir() if p.name.startswith("wynot-")]
    assert len(survivors) == 1, survivors  # the live worker's own clone
    assert all(p.name.startswith("wynot-worker-") for p in survivors)


@pytest.mark.slow
def test_a_job_runs_after_the_cluster_dropped_the_scattered_inputs(
        cluster: Cluster, tmp_path: Path) -> None:
    """A client that reconnects to its scheduler finds its futures cancelled, the
    scattered bundle and diff too; a job submitted after that still runs."""
    from wynot.dask_executor import DaskExecutor
    from wynot.diffread import read_diff
    from wynot.executor import Job
    from wynot.git import resolve_commit
    from wynot.outcome import Outcome
    from wynot.runner import Commands

    repo, test = sample(tmp_path)
    diff = read_diff(repo, "good", "bad")
    with DaskExecutor(repo, Commands(tuple(test)), cluster.address) as executor:
        executor.begin(resolve_commit(repo, "good"), diff)
        everything = frozenset(c.id for c in diff.changes)
        first = executor.submit(Job(everything, tmp_path / "out" / "0001.out")).result()
        assert first.outcome is Outcome.FAIL
        # What a reconnect does to them (distributed cancels a client's futures).
        dropped = [executor._source, executor._diff]
        executor.client.cancel(dropped)
        deadline = time.monotonic() + 30
        while (any(f.status != "cancelled" for f in dropped)
               and time.monotonic() < deadline):
            time.sleep(0.05)
        again = executor.submit(Job(everything, tmp_path / "out" / "0002.out")).result()
        assert again.outcome is Outcome.FAIL
        none = executor.submit(Job(frozenset(), tmp_path / "out" / "0003.out")).result()
        assert none.outcome is Outcome.PASS
