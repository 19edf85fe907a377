"""The analysis before the first test: only what the options use, stored and reused."""

from __future__ import annotations

import gc
import multiprocessing
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from test_grouping import project

from conftest import GitRepo
from wynot import analyse as analyse_module
from wynot.analyse import Analysis, Options, analyse, describe
from wynot.analysis.grouping import make_plan, scope
from wynot.analysis.model import FileReadings, read_files
from wynot.analysis.model import analyse as analyse_diff
from wynot.analysis_store import AnalysisStore
from wynot.changes import Diff
from wynot.diffread import read_diff

DEFAULT = Options(context=3, criteria=("dir", "file", "syntax"), predict=True, resolve=True)
FLAT = Options(context=3, criteria=(), predict=False, resolve=False)


def _run(repo: GitRepo, good: str, bad: str, options: Options,
         state: Path | None) -> tuple[Analysis, list[str]]:
    """As the pipeline does it: read from ``state``, else compute and store there."""
    said: list[str] = []
    store = None if state is None else AnalysisStore(state, good, bad, options)
    stored = store.load(said.append) if store is not None else None
    if stored is not None:
        return stored, said
    computed = analyse(repo.path, good, bad, options, said.append)
    if store is not None:
        store.save(computed)
    return computed, said


def test_the_analysis_is_what_the_pipeline_computed_before(make_repo: Callable[..., GitRepo],
                                                            tmp_path: Path) -> None:
    repo, good, bad = project(make_repo)
    got, said = _run(repo, good, bad, DEFAULT, tmp_path)
    diff = read_diff(repo.path, good, bad)
    model = analyse_diff(diff)
    deps = model.dependencies()
    assert got.diff == diff and got.symbols == model.symbols and got.deps == deps
    assert got.plan == make_plan(diff, DEFAULT.criteria, model.symbols, deps, model.enclosing)
    assert got.scopes == {c.id: scope(c, diff.files[c.file]) for c in diff.changes}
    assert said == [describe(diff)]  # quick: no further progress lines
    assert gc.isenabled()


def test_a_long_analysis_shows_progress(make_repo: Callable[..., GitRepo],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    repo, good, bad = project(make_repo)
    monkeypatch.setattr(analyse_module, "QUIET_FOR", 0.0)
    got, said = _run(repo, good, bad, DEFAULT, None)
    assert said == [describe(got.diff), f"analysing {len(got.diff.changes)} changes in "
                    f"{len(got.diff.files)} files", "deriving dependencies",
                    "planning the search"]


@pytest.mark.parametrize("parallel", [False, True])
def test_the_callers_work_runs_once_while_the_files_are_read(
        make_repo: Callable[..., GitRepo], monkeypatch: pytest.MonkeyPatch,
        parallel: bool) -> None:
    """``meanwhile`` runs once the diff is read: while forked workers read its files,
    or, read here, before; the analysis is the same."""
    repo, good, bad = project(make_repo)
    if parallel:
        monkeypatch.setattr(analyse_module, "PARALLEL_FROM", 1)
    reading = analyse_module.read_in_parallel
    seen: list[str] = []

    def read(diff: Diff, workers: int | None = None,
             meanwhile: Callable[[], None] | None = None) -> FileReadings | None:
        seen.append("read")
        return reading(diff, 2, meanwhile)

    monkeypatch.setattr(analyse_module, "read_in_parallel", read)
    workers: list[int] = []

    def meanwhile(diff: Diff) -> None:
        seen.append("meanwhile")
        workers.append(len(multiprocessing.active_children()))

    got = analyse(repo.path, good, bad, DEFAULT, lambda _: None, meanwhile=meanwhile)
    assert seen == ["read", "meanwhile"]
    assert workers == [2 if parallel else 0]  # the workers read meanwhile
    plain, _ = _run(repo, good, bad, DEFAULT, None)
    assert got.plan == plain.plan and got.deps == plain.deps and got.symbols == plain.symbols
    for options in (DEFAULT, FLAT):  # no changes: nothing to do alongside
        said: list[str] = []
        analyse(repo.path, good, good, options, said.append,
                meanwhile=lambda _: seen.append("again"))
    assert "again" not in seen
    analyse(repo.path, good, bad, FLAT, lambda _: None, meanwhile=lambda _: seen.append("flat"))
    assert seen[-1] == "flat"


def test_flat_mode_computes_no_symbols(make_repo: Callable[..., GitRepo]) -> None:
    repo, good, bad = project(make_repo)
    got, _ = _run(repo, good, bad, FLAT, None)
    assert got.symbols == {} and got.scopes == {} and not got.deps.needs
    assert got.plan.order == tuple(range(len(got.diff.changes)))


def test_a_rerun_reads_the_stored_analysis(make_repo: Callable[..., GitRepo],
                                           tmp_path: Path) -> None:
    repo, good, bad = project(make_repo)
    first, _ = _run(repo, good, bad, DEFAULT, tmp_path)
    [stored] = (tmp_path / "analysis").glob("*.pickle")
    again, said = _run(repo, good, bad, DEFAULT, tmp_path)
    assert said == [f"analysis of {good[:12]}..{bad[:12]} read from {tmp_path / 'analysis'}"]
    assert again.plan == first.plan and again.deps == first.deps and again.diff == first.diff
    assert again.symbols == first.symbols and again.scopes == first.scopes
    _run(repo, good, bad, FLAT, tmp_path)  # other options: another entry
    assert len(list((tmp_path / "analysis").glob("*.pickle"))) == 2
    stored.write_bytes(b"not a pickle")
    repaired, said = _run(repo, good, bad, DEFAULT, tmp_path)
    assert repaired.plan == first.plan and not said[0].startswith("analysis of")


def test_a_large_diff_is_read_in_worker_processes_with_the_same_result(
        make_repo: Callable[..., GitRepo], monkeypatch: pytest.MonkeyPatch) -> None:
    repo, good, bad = project(make_repo)
    diff = read_diff(repo.path, good, bad)
    assert analyse_module.read_in_parallel(diff, workers=2) is None  # small: here
    monkeypatch.setattr(analyse_module, "PARALLEL_FROM", 1)
    readings = analyse_module.read_in_parallel(diff, workers=2)
    assert readings is not None
    alone = read_files(diff.files, range(len(diff.files)))
    assert readings == alone
    model, serial = analyse_diff(diff, readings), analyse_diff(diff)
    assert model.symbols == serial.symbols and model.clusters == serial.clusters
    assert model.dependencies() == serial.dependencies()
    got, _ = _run(repo, good, bad, DEFAULT, None)  # the pipeline takes that path too
    assert got.plan == make_plan(diff, DEFAULT.criteria, serial.symbols, serial.dependencies(),
                                 serial.enclosing)


def test_with_another_thread_running_the_workers_get_their_files_sent(
        make_repo: Callable[..., GitRepo], monkeypatch: pytest.MonkeyPatch) -> None:
    """A thread running (a pool's worktree maker, a terminal's display) rules out
    forking this process; the workers then come from a fork server, with each
    share's files sent, and read the same values."""
    repo, good, bad = project(make_repo)
    diff = read_diff(repo.path, good, bad)
    monkeypatch.setattr(analyse_module, "PARALLEL_FROM", 1)
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        readings = analyse_module.read_in_parallel(diff, workers=2)
    finally:
        release.set()
        other.join()
    assert readings is not None
    assert readings == read_files(diff.files, range(len(diff.files)))
    assert analyse_module._SHARED is None  # nothing of this diff left for a later fork


@pytest.mark.parametrize("threaded", [False, True])
def test_the_analysis_saved_beside_the_caller_reads_back_the_same(
        make_repo: Callable[..., GitRepo], tmp_path: Path, threaded: bool) -> None:
    """Written by a forked process when no other thread runs, else by a thread:
    the same file either way, complete once ``join`` returns."""
    repo, good, bad = project(make_repo)
    computed = analyse(repo.path, good, bad, DEFAULT, lambda _: None)
    store = AnalysisStore(tmp_path, good, bad, DEFAULT)
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    if threaded:
        other.start()
    try:
        saving = store.save_soon(computed)
        assert (saving._pid is None) == threaded  # forked only with no other thread
        saving.join()
    finally:
        release.set()
        if threaded:
            other.join()
    stored = store.load(lambda _: None)
    assert stored is not None
    assert stored.diff == computed.diff and stored.deps == computed.deps
    assert stored.plan == computed.plan and dict(stored.symbols) == computed.symbols


def test_a_forked_save_stopped_leaves_no_process_and_no_partial_file(
        make_repo: Callable[..., GitRepo], tmp_path: Path) -> None:
    repo, good, bad = project(make_repo)
    computed = analyse(repo.path, good, bad, DEFAULT, lambda _: None)
    store = AnalysisStore(tmp_path, good, bad, DEFAULT)
    saving = store.save_soon(computed)
    pid = saving._pid
    assert pid is not None
    saving.stop()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped: no process left behind
    stored = store.load(lambda _: None)  # cut off or complete, never half read
    assert stored is None or stored.plan == computed.plan
    saving.join()  # nothing left to wait for


def test_with_the_collector_paused_each_share_is_frozen_as_it_arrives(
        make_repo: Callable[..., GitRepo], monkeypatch: pytest.MonkeyPatch) -> None:
    """The shares' values leave the young generation while the workers read, so the
    collection when the analysis ends does not walk them; the values are the same."""
    repo, good, bad = project(make_repo)
    diff = read_diff(repo.path, good, bad)
    monkeypatch.setattr(analyse_module, "PARALLEL_FROM", 1)
    with analyse_module.collector_paused():
        frozen = gc.get_freeze_count()
        readings = analyse_module.read_in_parallel(diff, workers=2)
        assert readings is not None and gc.get_freeze_count() > frozen
        young = {id(o) for generation in range(3) for o in gc.get_objects(generation)}
    values = [v for v in readings.symbols.values() if gc.is_tracked(v)]
    assert values and not any(id(v) in young for v in values)
    assert readings == read_files(diff.files, range(len(diff.files)))
