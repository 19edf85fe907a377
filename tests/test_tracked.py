"""Tracked files a test changes in its checkout: found, put back, and never an answer
that holds only in a tree the test changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_helpers import run_wynot
from conftest import GitRepo
from wynot import tracked
from wynot.changes import Diff
from wynot.diffread import read_diff
from wynot.executor import Cancelled, Job, execute
from wynot.outcome import Outcome
from wynot.patch import tree_states
from wynot.pool import LocalPool
from wynot.runner import Commands
from wynot.scratch import scratch_worktree


def six_files(repo: GitRepo) -> tuple[str, str]:
    """f0.txt ... f5.txt of 30 lines; BAD changes line 5 of each and marks line 20 of
    f3.txt "BUG": the cause (f3.txt:-18,7), the other six changes harmless."""
    good = {f"f{i}.txt": b"".join(b"f%d %d\n" % (i, n) for n in range(30)) for i in range(6)}
    bad = {path: data.replace(b"%s 5\n" % path[:2].encode(), b"%s 5 changed\n" % path[:2].encode())
           for path, data in good.items()}
    bad["f3.txt"] = bad["f3.txt"].replace(b"f3 20\n", b"f3 20 BUG\n")
    return repo.commit(good), repo.commit(bad)


CAUSE = "f3.txt:-18,7"
FAILS_ON_BUG = "if grep -q BUG f*.txt; then exit 1; fi; "


@pytest.mark.parametrize("jobs", ["1", "3"])
@pytest.mark.parametrize("changes", [
    pytest.param("echo BUG >> f4.txt; exit 0", id="whenever-it-passes"),
    pytest.param('if grep -q "f0 5 changed" f0.txt; then echo BUG >> f4.txt; fi; exit 0',
                 id="in-some-configurations"),
])
def test_a_test_that_changes_tracked_files_gets_the_true_cause(make_repo, jobs: str,  # type: ignore[no-untyped-def]
                                                               changes: str) -> None:
    """The test writes into a committed file that no change touches (as a formatter
    or a lock-file update would), in a way that would make every later test fail:
    the file is put back before the next test, the search finds the true cause,
    and the user's checkout is not touched."""
    repo = make_repo()
    good, bad = six_files(repo)
    done = run_wynot("--no-cache", "--json", "-j", jobs, good, bad, "--",
                     "sh", "-c", FAILS_ON_BUG + changes, cwd=repo.path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [c["label"] for c in report["changes"]] == [CAUSE]
    assert "changed files git tracks or needs in its checkout (f4.txt)" in done.stderr
    assert repo.text("status", "--porcelain") == ""


@pytest.mark.parametrize("jobs", ["1", "3"])
@pytest.mark.parametrize("changes", [
    pytest.param("rm -rf .git", id="removes-it"),
    pytest.param("rm -f .git; git init -q .", id="makes-a-repository-there"),
])
def test_a_test_that_removes_its_checkouts_git_link_gets_the_true_cause(  # type: ignore[no-untyped-def]
        make_repo, jobs: str, changes: str) -> None:
    """The test removes the ``.git`` file of the scratch worktree it runs in (or
    makes a repository there): without it every git command there fails. It is
    put back after each run, and the search finds the true cause; the user's
    repository, its worktrees and its checkout are as they were."""
    repo = make_repo()
    good, bad = six_files(repo)
    worktrees = repo.text("worktree", "list", "--porcelain")
    done = run_wynot("--no-cache", "--json", "-j", jobs, good, bad, "--",
                     "sh", "-c", f"{changes}; {FAILS_ON_BUG}exit 0", cwd=repo.path)
    assert done.returncode == 0, done.stderr
    assert [c["label"] for c in json.loads(done.stdout)["changes"]] == [CAUSE]
    assert "(.git)" in done.stderr
    assert repo.text("status", "--porcelain") == ""
    assert repo.text("worktree", "list", "--porcelain") == worktrees


def test_check_files_checks_every_run_from_the_start(make_repo) -> None:  # type: ignore[no-untyped-def]
    repo = make_repo()
    good, bad = six_files(repo)
    done = run_wynot("--no-cache", "--json", "--check-files", good, bad, "--", "sh", "-c",
                     FAILS_ON_BUG + "echo BUG >> f4.txt; exit 0", cwd=repo.path)
    assert done.returncode == 0, done.stderr
    assert [c["label"] for c in json.loads(done.stdout)["changes"]] == [CAUSE]


def test_changes_are_found_and_put_back(make_repo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Every kind of change to the tracked files and the configuration's paths is
    found and undone; build outputs stay."""
    repo = make_repo()
    good = repo.commit({"keep.txt": b"keep\n", "gone.txt": b"gone\n", "edit.txt": b"a\n",
                        "drop.txt": b"drop\n"})
    bad = repo.commit({"keep.txt": b"keep\n", "gone.txt": b"gone\n", "edit.txt": b"b\n",
                       "new.txt": b"new\n"})
    diff = read_diff(repo.path, good, bad)
    with scratch_worktree(repo.path, good, tree_states(diff, frozenset())) as worktree:
        worktree.apply(tree_states(diff, frozenset(c.id for c in diff.changes)))
        root = worktree.root
        assert tracked.changed_by_commands(worktree) == []
        (root / "keep.txt").write_bytes(b"changed\n")  # tracked, no change touches it
        (root / "gone.txt").unlink()  # tracked, removed
        (root / "edit.txt").write_bytes(b"c\n")  # written by wynot, written over
        (root / "new.txt").unlink()  # added by the diff, removed
        (root / "drop.txt").write_bytes(b"back\n")  # removed by the diff, made again
        (root / "build.o").write_bytes(b"output\n")  # untracked build output
        found = tracked.changed_by_commands(worktree)
        assert found == ["drop.txt", "edit.txt", "gone.txt", "keep.txt", "new.txt"]
        tracked.put_back(worktree, found)
        assert tracked.changed_by_commands(worktree) == []
        assert {p.name: p.read_bytes() for p in root.iterdir()
                if p.is_file() and p.name != ".git"} == {
            "keep.txt": b"keep\n", "gone.txt": b"gone\n", "edit.txt": b"b\n",
            "new.txt": b"new\n", "build.o": b"output\n"}


def test_in_a_large_tree_unchecked_runs_are_found_out_later(make_repo, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                            monkeypatch) -> None:
    """A tree too large to check after a short run: the run is left unchecked, the
    next one starts among its changes, and the run that asks for a clean worktree
    (the verification) puts them back first and says that runs were misled."""
    monkeypatch.setattr(tracked, "CHECK_UP_TO", 0)
    monkeypatch.setattr(tracked, "SECONDS_PER_FILE", 10.0)  # a check would cost far more
    repo = make_repo()
    good = repo.commit({"a.txt": b"a\n"})
    script = "cat a.txt; echo more >> a.txt"
    empty = Diff(good=good, bad=good, files=(), changes=())
    with LocalPool(repo.path, Commands(test=("sh", "-c", script)), 1) as pool:
        pool.begin(good, empty)

        def run(name: str, clean: bool = False) -> tuple[bytes, object]:
            execution = pool.submit(Job(frozenset(), tmp_path / name, clean=clean)).result()
            assert execution.outcome is Outcome.PASS
            return (tmp_path / name).read_bytes(), execution

        assert run("first.out")[0] == b"a\n"
        second, unchecked = run("second.out")
        assert second == b"a\nmore\n" and not unchecked.changed  # started among them
        third, verified = run("third.out", clean=True)
        assert third == b"a\n"
        assert verified.changed == ("a.txt",) and verified.misled


def test_a_cancelled_run_is_checked_before_the_next_one(make_repo, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A run killed mid-way may have changed files: the next run in its worktree
    starts after they are put back (no run with an outcome was misled)."""
    repo = make_repo()
    good = repo.commit({"a.txt": b"a\n"})
    marker = tmp_path / "changed"
    script = (f"cat a.txt; echo more >> a.txt; "
              f"if [ ! -e {marker} ]; then touch {marker}; sleep 30; fi")
    diff = Diff(good=good, bad=good, files=(), changes=())
    commands = Commands(test=("sh", "-c", script), timeout=60)
    with scratch_worktree(repo.path, good, {}) as worktree:
        with pytest.raises(Cancelled):
            execute(worktree, diff, commands, Job(frozenset(), tmp_path / "killed.out"),
                    cancelled=marker.exists)
        assert not worktree.clean
        after = execute(worktree, diff, commands, Job(frozenset(), tmp_path / "next.out"))
    assert (tmp_path / "next.out").read_bytes().startswith(b"a\n")
    assert after.changed == ("a.txt",) and not after.misled and after.started_clean


@pytest.mark.parametrize("extra, command", [
    pytest.param({}, "touch f4.txt; ", id="touched-not-changed"),
    pytest.param({".gitattributes": b"* text=auto\n", "crlf.txt": b"one\r\ntwo\r\n"}, "",
                 id="committed-crlf-under-text-auto"),
])
def test_files_git_reports_but_no_command_changed_are_no_change(make_repo, extra,  # type: ignore[no-untyped-def]
                                                                command: str) -> None:
    """A file whose timestamp changed with the same content, or one git reports as
    changed as soon as it is checked out (committed with CRLF under ``text=auto``):
    nothing to put back, nothing said."""
    repo = make_repo()
    good, bad = six_files(repo)
    good = repo.commit({**repo_files(repo, good), **extra})
    bad = repo.commit({**repo_files(repo, bad), **extra})
    done = run_wynot("--no-cache", "--json", good, bad, "--", "sh", "-c",
                     command + FAILS_ON_BUG + "exit 0", cwd=repo.path)
    assert done.returncode == 0, done.stderr
    assert [c["label"] for c in json.loads(done.stdout)["changes"]] == [CAUSE]
    assert "changed tracked files" not in done.stderr


def repo_files(repo: GitRepo, rev: str) -> dict[str, bytes]:
    return {path: data for path, (_, data) in repo.files(rev).items()}
