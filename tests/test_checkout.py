"""The scratch worktree holds what ``git checkout`` would: attributes, eol, filters, ident."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from cli_helpers import run_wynot
from conftest import GitRepo
from wynot.changes import Diff
from wynot.diffread import read_diff
from wynot.patch import PathConflict, tree_states
from wynot.scratch import scratch_worktree
from wynot.worktree import ScratchWorktree

Checkout = Callable[[GitRepo, str, Path], dict[str, bytes]]
NOTES = [b"note %d\n" % n for n in range(1, 30)]
ATTRIBUTES = b"*.txt text eol=crlf\n*.cfg filter=up\n*.c ident\n"


def configure_filter(repo: GitRepo) -> None:
    """A real smudge/clean filter, as Git LFS installs one: upper case in the worktree."""
    repo.git("config", "filter.up.smudge", "tr a-z A-Z")
    repo.git("config", "filter.up.clean", "tr A-Z a-z")
    repo.git("config", "filter.up.required", "true")


def attribute_trees() -> tuple[dict[str, bytes], dict[str, bytes]]:
    notes_bad = list(NOTES)
    notes_bad[2] = b"note three changed\n"
    notes_bad[25] = b"note twenty-six changed\n"
    good = {
        ".gitattributes": ATTRIBUTES,
        "notes.txt": b"".join(NOTES),
        "settings.cfg": b"level=low\nname=x\n",
        "main.c": b"/* $Id$ */\nint x = 1;\n",
        "docs/readme.md": b"untouched\nby the diff\n",
    }
    bad = {
        **good,
        # BAD also converts Markdown, and the readme is not in the diff at all.
        ".gitattributes": ATTRIBUTES + b"*.md text eol=crlf\n",
        "notes.txt": b"".join(notes_bad),
        "settings.cfg": b"level=high\nname=x\n",
        "main.c": b"/* $Id$ */\nint x = 2;\n",
        "new.txt": b"a new file\nof two lines\n",
    }
    return good, bad


def checked_out(repo: GitRepo, commit: str, where: Path) -> dict[str, bytes]:
    """Every file of a real ``git worktree add`` of ``commit``."""
    repo.git("worktree", "add", "--detach", "--quiet", str(where), commit)
    try:
        return files_under(where)
    finally:
        repo.git("worktree", "remove", "--force", str(where))


def files_under(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(root).parts}


def compare_configurations(repo: GitRepo, worktree: ScratchWorktree, diff: Diff,
                           good_tree: dict[str, bytes], configs: list[frozenset[int]],
                           where: Path, checkout: Checkout | None = None) -> dict[str, bytes]:
    """Apply each configuration to the scratch worktree and compare every file with a
    real checkout of the same tree committed (``checkout``, default
    :func:`checked_out`); returns the last checkout's files."""
    expected: dict[str, bytes] = {}
    for number, config in enumerate(configs):
        try:
            states = tree_states(diff, config)
        except PathConflict:
            continue
        worktree.apply(states)
        tree = {**good_tree}
        for path, state in states.items():
            if state is None:
                tree.pop(path, None)
            else:
                tree[path] = state.data
        commit = repo.commit(tree)
        expected = (checkout or checked_out)(repo, commit, where / f"real{number}")
        assert files_under(worktree.root) == expected, sorted(config)
    return expected


@pytest.mark.parametrize("attributes_change", [True, False], ids=["new-attributes", "same"])
def test_every_configuration_holds_what_a_checkout_holds(
        make_repo, tmp_path: Path, attributes_change: bool) -> None:
    repo = make_repo()
    configure_filter(repo)
    good_tree, bad_tree = attribute_trees()
    if not attributes_change:  # only the paths with attributes go through git
        bad_tree[".gitattributes"] = good_tree[".gitattributes"]
        bad_tree["plain.py"] = b"x = 2\n"
        good_tree["plain.py"] = b"x = 1\n"
    good = repo.commit(good_tree)
    bad = repo.commit(bad_tree)
    diff = read_diff(repo.path, good, bad)
    ids = [c.id for c in diff.changes]
    rng = random.Random(15)
    configs = [frozenset(ids), frozenset()]
    configs += [frozenset(rng.sample(ids, rng.randint(1, len(ids) - 1))) for _ in range(6)]
    configs.append(frozenset(ids))
    with scratch_worktree(repo.path, good, tree_states(diff, frozenset())) as worktree:
        expected = compare_configurations(repo, worktree, diff, good_tree, configs, tmp_path)
    # The conversions really happened (the test would be empty otherwise).
    assert expected["notes.txt"].count(b"\r\n") == len(NOTES)
    assert expected["settings.cfg"].startswith(b"LEVEL=HIGH")
    assert b"$Id: " in expected["main.c"]
    readme = b"untouched\r\nby the diff\r\n" if attributes_change else b"untouched\nby the diff\n"
    assert expected["docs/readme.md"] == readme


CHECK = b"""\
import pathlib, sys
for path in pathlib.Path('.').glob('*.txt'):
    for line in path.read_bytes().splitlines(keepends=True):
        if not line.endswith(b'\\r\\n'):
            sys.exit(f'{path}: a line without CRLF')
if b'LEVEL=HIGH' in pathlib.Path('settings.cfg').read_bytes():
    sys.exit('level too high')
"""


def test_a_failure_seen_only_in_a_real_checkout_is_found(make_repo) -> None:
    """BAD fails because of what the smudge filter makes of settings.cfg; the .txt
    files are CRLF in any real checkout, so their changes must not be blamed."""
    repo = make_repo()
    configure_filter(repo)
    good_tree, bad_tree = attribute_trees()
    good_tree["check.py"] = bad_tree["check.py"] = CHECK
    good = repo.commit(good_tree)
    bad = repo.commit(bad_tree)
    result = run_wynot(good, bad, "--json", "--no-cache", "--", "python3", "check.py",
                       cwd=repo.path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [c["path"] for c in report["changes"]] == ["settings.cfg"], result.stderr


def test_pool_worktrees_write_through_the_converter_after_a_commit_phase(
        make_repo, tmp_path: Path) -> None:
    """A worker that checked out whole commits, then switched to GOOD for the hunk
    phase, still writes configurations as ``git checkout`` would."""
    from wynot.executor import Job
    from wynot.pool import LocalPool
    from wynot.runner import Commands

    repo = make_repo()
    configure_filter(repo)
    good_tree, bad_tree = attribute_trees()
    bad_tree[".gitattributes"] = ATTRIBUTES  # the attributes stay: only these paths convert
    good = repo.commit(good_tree)
    bad = repo.commit(bad_tree)
    diff = read_diff(repo.path, good, bad)
    expected = checked_out(repo, bad, tmp_path / "bad")
    copy = tmp_path / "copy"
    commands = Commands(test=("sh", "-c", f"rm -rf '{copy}'; cp -R . '{copy}'"))
    with LocalPool(repo.path, commands, 1) as pool:
        pool.begin(good, diff.__class__(good=good, bad=bad, files=(), changes=()))
        pool.submit(Job(frozenset(), tmp_path / "1.out", commit=bad)).result()
        pool.begin(good, diff)
        pool.submit(Job(frozenset(c.id for c in diff.changes), tmp_path / "2.out")).result()
    assert files_under(copy) == expected
