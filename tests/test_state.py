"""Bounded output and state, and nothing left behind after any ending of a run."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scripts import make_repo as samples
from test_cli_state import good_bad_repo, leftover_worktrees

from cli_helpers import run_wynot, wynot_argv
from wynot.process import OUTPUT_HEAD, OUTPUT_TAIL, BoundedOutput
from wynot.runner import Commands, run_configuration
from wynot.state import (
    clear_state,
    list_runs,
    owned_tempdir,
    owner_token,
    reclaim_tempdirs,
    state_size,
)


def processes_with(argument: str) -> list[int]:
    """Live (not zombie) processes with ``argument`` among their argv."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            status = (entry / "status").read_text()
        except OSError:
            continue
        if argument.encode() in argv and "\nState:\tZ" not in status:
            found.append(int(entry.name))
    return found


def test_a_tests_background_processes_end_with_it(tmp_path: Path) -> None:
    tag = f"996.{os.getpid()}"
    result = run_configuration(tmp_path, Commands(test=("sh", "-c", f"sleep {tag} & exit 1")),
                               tmp_path / "1.out")
    assert result.duration < 5
    assert processes_with(tag) == []


def test_a_process_that_left_the_group_holding_the_output_is_killed_with_the_test(
        tmp_path: Path) -> None:
    tag = f"995.{os.getpid()}"  # setsid: a group of its own, still writing to the test's pipe
    test = ("sh", "-c", f"setsid sleep {tag} & exit 1")
    result = run_configuration(tmp_path, Commands(test=test), tmp_path / "1.out")
    assert result.duration < 1  # not held until the drain gives up
    assert processes_with(tag) == []


@pytest.mark.parametrize("jobs", ["1", "3"])
def test_daemons_a_test_starts_end_with_the_run(tmp_path: Path, jobs: str) -> None:
    repo = good_bad_repo(tmp_path / "repo")
    tag = f"994.{os.getpid()}{jobs}"  # output closed: only its environment ties it to the run
    script = (f"setsid sleep {tag} >/dev/null 2>&1 </dev/null & "
              "grep -q 'LINE 30' notes.txt && exit 1; exit 0")
    done = run_wynot("--no-cache", "-j", jobs, "good", "bad", "--", "sh", "-c", script, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "1 of 3 changes" in done.stdout
    assert processes_with(tag) == []


def test_a_huge_output_keeps_its_head_and_tail(tmp_path: Path) -> None:
    code = ("import sys; w = sys.stdout.write; w('HEAD' + 'x' * 30_000_000);"
            " w('y' * 30_000_000 + 'TAIL\\n'); sys.exit(3)")
    start = time.monotonic()
    result = run_configuration(tmp_path, Commands(test=(sys.executable, "-c", code)),
                               tmp_path / "1.out")
    assert time.monotonic() - start < 30
    data = result.output.read_bytes()
    assert data.startswith(b"HEAD") and data.endswith(b"TAIL\n")
    assert len(data) < OUTPUT_HEAD + OUTPUT_TAIL + 200
    assert b"bytes of output left out here; 60000009 bytes in all" in data


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return good_bad_repo(tmp_path / "repo")


@pytest.mark.slow
def test_a_test_printing_a_50_mb_line_does_not_hold_the_run_up(repo: Path) -> None:
    code = ("import sys\nif '2' in open('value.txt').read():\n"
            "    sys.stdout.write('x' * 50_000_000); sys.exit(1)\n")
    start = time.monotonic()
    result = run_wynot("good", "bad", "--json", "--", sys.executable, "-c", code, cwd=repo,
                       timeout=120)
    assert result.returncode == 0, result.stderr
    assert time.monotonic() - start < 60
    report = json.loads(result.stdout)
    assert [c["path"] for c in report["changes"]] == ["value.txt"]
    runs = list_runs(repo / ".git" / "wynot")
    assert runs[-1].size < 10 * (OUTPUT_HEAD + OUTPUT_TAIL)


def test_old_runs_are_pruned_and_the_state_can_be_cleared(repo: Path) -> None:
    check = ["--", "sh", "-c", "! grep -q 2 value.txt"]
    for _ in range(3):
        assert run_wynot("good", "bad", "--keep-runs", "2", *check, cwd=repo).returncode == 0
    state = repo / ".git" / "wynot"
    runs = list_runs(state)
    assert len(runs) == 2 and all(r.tests > 0 and r.size > 0 and not r.running for r in runs)
    assert clear_state(state) > 0
    assert list_runs(state) == [] and not (state / "cache.sqlite").exists()
    assert state_size(state) < 1000


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP],
                         ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_an_interrupted_no_cache_run_resumes_as_it_says(
        repo: Path, tmp_path: Path, sig: signal.Signals) -> None:
    flag = tmp_path / "started"
    tag = f"995.{os.getpid()}"
    # The first search test (LINE 3 without value 2) hangs, once.
    script = (f"sleep {tag} & if grep -q LINE notes.txt && grep -q 1 value.txt && "
              '[ ! -e "$FLAG_FILE" ]; then touch "$FLAG_FILE"; sleep 60; fi; '
              "! grep -q 2 value.txt")
    argv = [*wynot_argv(), "good", "bad", "--json", "--", "sh", "-c", script]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "WYNOT_"))}
    env["FLAG_FILE"] = str(flag)
    proc = subprocess.Popen([*argv[:3], "--no-cache", *argv[3:]], cwd=repo, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not flag.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert flag.exists(), "the search never started"
    proc.send_signal(sig)
    _, stderr = proc.communicate(timeout=30)
    assert proc.returncode == 130, stderr
    assert "rerun without --no-cache to resume" in stderr
    assert leftover_worktrees(repo) == [] and processes_with(tag) == []
    resumed = subprocess.run(argv, cwd=repo, env=env, capture_output=True, text=True,
                             timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["from_cache"] >= 2  # GOOD and BAD, observed before


def sample_repo(tmp_path: Path) -> tuple[Path, list[str]]:
    case = samples.load_case("interference")
    repo = samples.make_repo("interference", tmp_path / "interference")
    return repo, list(case["test"])


@pytest.mark.slow
def test_sigkill_at_random_moments_leaves_nothing_after_the_next_run(tmp_path: Path) -> None:
    repo, test = sample_repo(tmp_path)
    temp = tmp_path / "tmp"
    temp.mkdir()
    tag = f"994.{os.getpid()}"
    started = tmp_path / "started"
    command = ["sh", "-c", f'touch "$STARTED"; sleep {tag} & sleep 0.05; exec "$@"', "sh", *test]
    env = {**os.environ, "TMPDIR": str(temp), "STARTED": str(started)}
    env = {k: v for k, v in env.items() if not k.startswith(("GIT_", "WYNOT_"))}
    rng = random.Random(1999)
    for iteration in range(20):
        started.unlink(missing_ok=True)
        proc = subprocess.Popen([*wynot_argv(), "good", "bad", "--", *command], cwd=repo,
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if iteration % 4:  # most kills land while tests run, whatever the machine's speed
            deadline = time.monotonic() + 60
            while not started.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(rng.uniform(0, 1.0))
        else:  # the others anywhere: start-up, worktree creation, the first test
            time.sleep(rng.uniform(0.05, 3.0))
        proc.kill()
        proc.wait()
    final = subprocess.run([*wynot_argv(), "good", "bad", "--", *command], cwd=repo, env=env,
                           capture_output=True, text=True, timeout=300)
    assert final.returncode == 0, final.stderr
    time.sleep(0.5)  # the guard's SIGKILL is asynchronous
    assert leftover_worktrees(repo) == []
    assert not (repo / ".git" / "worktrees").exists() or not any(
        (repo / ".git" / "worktrees").iterdir())
    assert sorted(p.name for p in temp.iterdir()) == []
    assert processes_with(tag) == []
    assert not any((repo / ".git" / "wynot" / "owners").iterdir())


@given(st.lists(st.binary(max_size=40), max_size=30), st.integers(0, 50), st.integers(0, 50))
def test_bounded_output_keeps_exactly_the_head_and_the_tail(chunks, head, tail) -> None:
    handle = io.BytesIO()
    sink = BoundedOutput(handle, head=head, tail=tail)
    for chunk in chunks:
        sink.write(chunk)
    sink.finish()
    data = b"".join(chunks)
    kept = handle.getvalue()
    assert kept == sink.kept()
    if len(data) <= head + tail:
        assert kept == data
    else:
        note = (f"\n[wynot: {len(data) - head - tail} bytes of output left out here; "
                f"{len(data)} bytes in all]\n").encode()
        assert kept == data[:head] + note + data[len(data) - tail:]


def test_a_worktree_directory_made_before_its_owner_record_is_reclaimed(
        tmp_path: Path) -> None:
    """A run killed between creating its worktree's directory and recording it
    leaves a directory named after its dead owner: the next run removes it."""
    repo, test = sample_repo(tmp_path)
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {k: v for k, v in {**os.environ, "TMPDIR": str(temp)}.items()
           if not k.startswith(("GIT_", "WYNOT_"))}
    dead = subprocess.run([sys.executable, "-c", "from wynot.state import owner_token as t;"
                           "print(t())"], capture_output=True, text=True, check=True, env=env)
    orphan = temp / f"wynot-worktree-{dead.stdout.strip()}.k1ll3d"
    (orphan / "worktree").mkdir(parents=True)
    (orphan / "worktree" / "half-written.py").write_text("x = 1\n")
    run = subprocess.run([*wynot_argv(), "good", "bad", "--", *test], cwd=repo, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in temp.iterdir()) == []


def test_a_killed_runs_temporary_directories_are_reclaimed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """export, revert, carry and dask worker directories name their owner; a dead
    owner's go."""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    dead = subprocess.run([sys.executable, "-c", "from wynot.state import owner_token as t;"
                           "print(t())"], capture_output=True, text=True, check=True)
    token = dead.stdout.strip()
    left = [tmp_path / f"wynot-{kind}-{token}.x1"
            for kind in ("export", "revert", "carry", "worker")]
    for path in left:
        (path / "objects").mkdir(parents=True)
    with owned_tempdir("export") as mine:
        assert Path(mine).parent == tmp_path and owner_token() in Path(mine).name
        other = tmp_path / "wynot-notes.txt"
        other.write_text("not ours\n")
        assert reclaim_tempdirs() == 4
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
            [Path(mine).name, other.name])
    assert not Path(mine).exists()


GUARDED_SCRIPT = """
import io, os, sys, threading, time
from pathlib import Path
from wynot.process import BoundedOutput, release_guard, run_command
tag, release = os.environ["GUARDED_TAG"], sys.argv[1] == "1"
threading.Thread(target=run_command, daemon=True, args=(
    ["sleep", tag], Path("."), dict(os.environ), BoundedOutput(io.BytesIO()), None)).start()
time.sleep(0.5)  # the command runs and its group is registered with the guard
child = os.fork()
if child == 0:  # a forked helper, as the analysis store's writer
    if release:
        release_guard()
    time.sleep(8)
    os._exit(0)
print(child, flush=True)
time.sleep(60)
"""


@pytest.mark.parametrize("release", [True, False])
def test_a_forked_helper_that_releases_the_guard_does_not_delay_it(
        tmp_path: Path, release: bool) -> None:
    """wynot killed outright: the guard kills the test's group when wynot's pipe
    closes. A forked helper that keeps a copy of the pipe delays that until it
    exits; one that releases it does not."""
    tag = f"995.{os.getpid()}{int(release)}"
    script = subprocess.Popen([sys.executable, "-c", GUARDED_SCRIPT, str(int(release))],
                              stdout=subprocess.PIPE, text=True, cwd=tmp_path,
                              env={**os.environ, "GUARDED_TAG": tag})
    assert script.stdout is not None
    child = int(script.stdout.readline())
    try:
        assert processes_with(tag), "the guarded command runs"
        script.kill()
        script.wait()
        deadline = time.monotonic() + 3
        while processes_with(tag) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert (processes_with(tag) == []) is release
    finally:
        script.stdout.close()
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)
        for pid in processes_with(tag):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
