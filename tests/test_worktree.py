"""The scratch worktree: exact states, only changed paths written, never outside."""

from __future__ import annotations

import itertools
import os
import random
import signal
import stat
import sys
import time
from pathlib import Path

import pytest

from conftest import DiffRepo, GitRepo, Symlink
from wynot.changes import EXECUTABLE, GITLINK, SYMLINK, FileState
from wynot.diffread import read_diff
from wynot.patch import PathConflict, tree_states
from wynot.scratch import scratch_worktree
from wynot.worktree import ScratchWorktree


def assert_matches(root: Path, states: dict[str, FileState | None]) -> None:
    for path, state in states.items():
        full = root / path
        if state is None:  # no file or link there; a directory may hold other paths
            absent = not os.path.lexists(full) or (full.is_dir() and not full.is_symlink())
            assert absent, f"{path} should be absent"
        elif state.mode == SYMLINK:
            assert os.readlink(full) == os.fsdecode(state.data), path
        elif state.mode == GITLINK:
            assert full.is_dir() and not full.is_symlink(), path
        else:
            info = full.lstat()
            assert stat.S_ISREG(info.st_mode), path
            assert full.read_bytes() == state.data, path
            assert bool(info.st_mode & 0o100) == (state.mode == EXECUTABLE), path


def worktrees(repo: GitRepo) -> list[str]:
    listed = repo.text("worktree", "list", "--porcelain")
    return [line for line in listed.splitlines() if line.startswith("worktree ")]


def test_random_configurations_are_written_exactly(diff_repo: DiffRepo) -> None:
    repo = diff_repo.repo
    diff = read_diff(repo.path, diff_repo.good, diff_repo.bad)
    ids = [c.id for c in diff.changes]
    rng = random.Random(5)
    configs = [frozenset(ids), frozenset()] + [
        frozenset(rng.sample(ids, rng.randint(1, len(ids) - 1))) for _ in range(40)
    ]
    configs.append(frozenset(ids))
    conflicts = 0
    with scratch_worktree(repo.path, diff.good, tree_states(diff, frozenset())) as worktree:
        root = worktree.root
        assert worktrees(repo)[1:] == [f"worktree {root}"]
        for config in configs:
            try:
                states = tree_states(diff, config)
            except PathConflict:
                conflicts += 1
                continue
            worktree.apply(states)
            assert_matches(root, states)
        # Applying everything reproduces BAD exactly, untouched files included.
        for path, (mode, data) in repo.files(diff.bad).items():
            assert_matches(root, {path: FileState(mode, data)})
    assert not root.exists()
    assert worktrees(repo)[1:] == []
    assert 0 < conflicts < len(configs)


def test_only_changed_paths_are_written(diff_repo: DiffRepo) -> None:
    repo = diff_repo.repo
    diff = read_diff(repo.path, diff_repo.good, diff_repo.bad)
    many = [c.id for c in diff.changes if c.path == "many.txt"]
    base = tree_states(diff, frozenset())
    with scratch_worktree(repo.path, diff.good, base) as worktree:
        assert worktree.apply(tree_states(diff, frozenset(many[:1]))) == 1
        assert worktree.apply(tree_states(diff, frozenset(many[:1]))) == 0
        assert worktree.apply(tree_states(diff, frozenset(many[:2]))) == 1
        assert worktree.apply(base) == 1


def test_symlink_from_bad_never_leads_writes_outside(make_repo, tmp_path: Path) -> None:
    """GOOD has directories d/ and e/; BAD turns d into a symlink to a directory
    outside the worktree and e into a file; every configuration, in an order
    that visits every transition, leaves the outside directory empty."""
    outside = tmp_path / "outside"
    outside.mkdir()
    repo = make_repo("escape")
    good = repo.commit({"d/x": b"x\n", "d/y": b"y\n", "e/z": b"z\n", "f.txt": b"1\n"})
    bad = repo.commit({"d": Symlink(str(outside)), "e": b"e is a file\n",
                       "d2/x": b"x\n", "f.txt": b"2\n"})
    diff = read_diff(repo.path, good, bad)
    ids = [c.id for c in diff.changes]
    assert len(ids) >= 6
    subsets = [frozenset(s) for k in range(len(ids) + 1) for s in itertools.combinations(ids, k)]
    order = subsets + subsets[::-1] + random.Random(1).sample(subsets, len(subsets))
    written = 0
    with scratch_worktree(repo.path, good, tree_states(diff, frozenset())) as worktree:
        for config in order:
            try:
                states = tree_states(diff, config)
            except PathConflict:
                continue
            worktree.apply(states)
            written += 1
            assert_matches(worktree.root, states)
            assert list(outside.iterdir()) == []
    assert written > len(subsets) // 2


def test_unsafe_parent_is_refused(make_repo, tmp_path: Path) -> None:
    outside = tmp_path / "outside2"
    outside.mkdir()
    repo = make_repo("unsafe")
    good = repo.commit({"f.txt": b"1\n"})
    with scratch_worktree(repo.path, good, {}) as worktree:
        (worktree.root / "link").symlink_to(outside)
        try:
            worktree.apply({"link/evil.txt": FileState(0o100644, b"x")})
        except Exception as error:  # noqa: BLE001
            assert "symlink, not a directory" in str(error)
        else:
            raise AssertionError("wrote through a symlink")
        assert list(outside.iterdir()) == []
        assert isinstance(worktree, ScratchWorktree)


def test_a_file_is_rewritten_in_place_only_when_it_is_the_files_one_link(
        make_repo, tmp_path: Path) -> None:
    """A regular file of one link is rewritten in place (same inode, the new mode);
    a file with another link, a symlink put in its place, or a read-only file
    leave what lies beyond them as it was."""
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"outside\n")
    repo = make_repo("inplace")
    good = repo.commit({"a.txt": b"a\n", "b.txt": b"b\n", "c.txt": b"c\n", "d.sh": b"d\n"})
    with scratch_worktree(repo.path, good, {}) as worktree:
        root = worktree.root
        inode = (root / "a.txt").stat().st_ino
        os.link(root / "b.txt", tmp_path / "b-link.txt")  # a build's hard link
        (root / "c.txt").unlink()
        (root / "c.txt").symlink_to(outside)
        (root / "d.sh").chmod(0o444)
        states = {"a.txt": FileState(0o100644, b"A\n"), "b.txt": FileState(0o100644, b"B\n"),
                  "c.txt": FileState(0o100644, b"C\n"), "d.sh": FileState(EXECUTABLE, b"D\n")}
        assert worktree.apply(states) == 4
        assert_matches(root, states)
        assert (root / "a.txt").stat().st_ino == inode
        assert (tmp_path / "b-link.txt").read_bytes() == b"b\n"
        assert outside.read_bytes() == b"outside\n"
        assert stat.S_IMODE((root / "d.sh").stat().st_mode) == 0o755


def test_a_file_rewritten_in_place_ends_where_its_new_content_ends(make_repo) -> None:
    """A rewrite writes over the old content and then cuts the file: shorter,
    empty, longer and equal-length contents in turn leave exactly the new bytes."""
    repo = make_repo("shorter")
    good = repo.commit({"a.txt": b"0123456789\n" * 50})
    with scratch_worktree(repo.path, good, {}) as worktree:
        full = worktree.root / "a.txt"
        inode = full.stat().st_ino
        for data in (b"short\n", b"", b"much longer than before\n" * 80, b"x" * 1920,
                     b"y" * 1920, b"z\n"):
            assert worktree.apply({"a.txt": FileState(0o100644, data)}) == 1
            assert full.read_bytes() == data
            assert full.stat().st_size == len(data)
        assert full.stat().st_ino == inode


def test_every_file_kind_end_to_end(diff_repo: DiffRepo) -> None:
    """The CLI isolates one hunk among every kind of change, and prints
    non-UTF-8 names and content without crashing."""
    from cli_helpers import run_wynot

    repo = diff_repo.repo
    repo.git("tag", "good", diff_repo.good)
    repo.git("tag", "bad", diff_repo.bad)
    target = "dir with space/\xfcn\xefcode.txt"
    result = run_wynot("good", "bad", "--", "grep", "-q", "stra\xdfe", target, cwd=repo.path)
    assert result.returncode == 0, result.stderr
    assert f"+++ b/{target}" in result.stdout
    assert "1 of " in result.stdout


def running_in(directory: Path) -> list[str]:
    """The command lines of the processes that name ``directory`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            if str(directory) in line:
                found.append(line)
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_an_interrupt_while_git_adds_the_worktree_leaves_nothing_behind(
        make_repo, tmp_path: Path) -> None:
    """Ctrl-C while ``git worktree add`` writes the files (git runs in a session
    of its own, so the signal reaches wynot only): git is stopped before the
    worktree is removed, and nothing is left, neither the worktree nor its
    directory nor git's record of it."""
    repo = make_repo("interrupted")
    good = repo.commit({f"d{i % 20}/f{i}.txt": b"%d\n" % i for i in range(2000)})

    def interrupt(*_: object) -> None:
        raise KeyboardInterrupt

    within = tmp_path / "scratch"
    within.mkdir()
    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(KeyboardInterrupt), scratch_worktree(repo.path, good, {}, within):
            time.sleep(10)  # reached only if git was done within 50 ms
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert running_in(within) == []  # git stopped, not left to end on its own
    time.sleep(0.5)  # a git left running would go on writing meanwhile
    assert list(within.iterdir()) == []
    assert worktrees(repo)[1:] == []
    admin = repo.path / ".git" / "worktrees"
    assert not admin.exists() or list(admin.iterdir()) == []
