"""export_patch: ``git apply`` accepts the patch on GOOD and gives exactly the configuration."""

from __future__ import annotations

import hashlib
import os
import random
import stat
from collections.abc import Mapping
from pathlib import Path

import pytest

from conftest import EXECUTABLE, GITLINK, SYMLINK, DiffRepo, GitRepo
from wynot.changes import Diff, FileState
from wynot.diffread import read_diff
from wynot.export import export_patch
from wynot.git import git
from wynot.patch import PathConflict, tree_states

Tree = dict[str, tuple[int, bytes]]


def configurations(diff: Diff, count: int, seed: int = 1) -> list[frozenset[int]]:
    """All, none, every single change, and ``count`` random subsets that do not conflict."""
    ids = [change.id for change in diff.changes]
    chosen = [frozenset(ids), frozenset(), *(frozenset({i}) for i in ids)]
    rnd = random.Random(seed)
    while len(chosen) < 2 + len(ids) + count:
        chosen.append(frozenset(i for i in ids if rnd.random() < 0.5))
    result = []
    for selected in chosen:
        try:
            tree_states(diff, selected)
        except PathConflict:
            continue
        result.append(selected)
    return result


def expected_tree(good: Tree, states: Mapping[str, FileState | None]) -> Tree:
    tree = dict(good)
    for path, state in states.items():
        if state is None:
            tree.pop(path, None)
        else:
            tree[path] = (state.mode, state.data)
    return tree


def apply_in_fresh_worktree(clone: GitRepo, good: str, patch: bytes, name: str) -> Path:
    """Check out GOOD in a new worktree of ``clone`` and ``git apply`` the patch there."""
    worktree = clone.path.parent / name
    clone.git("worktree", "add", "-q", "--detach", str(worktree), good)
    patch_file = clone.path.parent / f"{name}.patch"
    patch_file.write_bytes(patch)
    git(worktree, "apply", "--check", str(patch_file), env=clone.env)
    git(worktree, "apply", "--index", "--binary", str(patch_file), env=clone.env)
    return worktree


def assert_worktree_holds(worktree: Path, tree: Tree, paths: set[str]) -> None:
    """The files on disk at ``paths`` are what ``tree`` says (absent when not in it)."""
    for path in paths:
        where = worktree / path
        if path not in tree:
            is_parent = any(other.startswith(path + "/") for other in tree)
            assert where.is_dir() if is_parent else not os.path.lexists(where), path
            continue
        mode, data = tree[path]
        if mode == SYMLINK:
            assert os.readlink(os.fsencode(where)) == data, path
        elif mode == GITLINK:
            assert where.is_dir(), path
        else:
            assert where.read_bytes() == data, path
            assert bool(where.stat().st_mode & stat.S_IXUSR) == (mode == EXECUTABLE), path


def test_applied_patch_gives_exactly_the_configuration(diff_repo: DiffRepo) -> None:
    repo = diff_repo.repo
    diff = read_diff(repo.path, diff_repo.good, diff_repo.bad)
    clone = GitRepo(repo.path.parent / "clone", repo.env)
    git(repo.path.parent, "clone", "-q", str(repo.path), str(clone.path), env=repo.env)
    good_tree = clone.files(diff_repo.good)
    for number, selected in enumerate(configurations(diff, count=6)):
        states = tree_states(diff, selected)
        patch = export_patch(repo.path, diff.good, states)
        expected = expected_tree(good_tree, states)
        if expected == good_tree:
            assert patch == b"", sorted(selected)
            continue
        assert patch.endswith(b"\n")
        worktree = apply_in_fresh_worktree(clone, diff.good, patch, f"wt{number}")
        tree = clone.files(git(worktree, "write-tree", env=repo.env).decode().strip())
        assert tree == expected, sorted(selected)
        assert_worktree_holds(worktree, expected, set(states))


def test_patch_of_everything_has_binary_data_and_renames(diff_repo: DiffRepo) -> None:
    diff = read_diff(diff_repo.repo.path, diff_repo.good, diff_repo.bad)
    states = tree_states(diff, {change.id for change in diff.changes})
    patch = export_patch(diff_repo.repo.path, diff.good, states)
    assert b"GIT binary patch" in patch
    assert b"rename from pure_old.txt\nrename to pure_new.txt\n" in patch
    assert b"\r\n" in patch and b"caf\xe9" in patch


def test_empty_configuration_gives_empty_patch(diff_repo: DiffRepo) -> None:
    assert export_patch(diff_repo.repo.path, diff_repo.good, {}) == b""


def repository_snapshot(repo: GitRepo) -> dict[str, bytes]:
    git_dir = repo.path / ".git"
    return {
        "index": hashlib.sha256((git_dir / "index").read_bytes()).digest(),
        "HEAD": (git_dir / "HEAD").read_bytes(),
        "head": repo.git("rev-parse", "HEAD"),
        "refs": repo.git("for-each-ref"),
        "status": repo.git("--no-optional-locks", "status", "--porcelain", "-z", "--ignored"),
        "objects": repo.git("count-objects", "-v"),
        "worktrees": repo.git("worktree", "list", "--porcelain"),
        "files": b"\0".join(sorted(os.fsencode(p) for p in git_dir.rglob("*"))),
    }


@pytest.mark.parametrize("seed", [1, 2])
def test_export_leaves_the_repository_alone(diff_repo: DiffRepo, seed: int) -> None:
    repo = diff_repo.repo
    diff = read_diff(repo.path, diff_repo.good, diff_repo.bad)
    before = repository_snapshot(repo)
    for selected in configurations(diff, count=3, seed=seed)[:3]:
        export_patch(repo.path, diff.good, tree_states(diff, selected))
    assert repository_snapshot(repo) == before
