"""The user's configuration converts as in a real checkout: core.autocrlf, core.eol, and
filters and attributes that live only in the configuration (``.git/info/attributes``)."""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path

import pytest
from test_checkout import compare_configurations

from cli_helpers import run_wynot
from conftest import GitRepo, Symlink
from wynot.diffread import read_diff
from wynot.patch import tree_states
from wynot.scratch import scratch_worktree

LINES = [b"line %d\n" % n for n in range(1, 25)]


def user_git(repo: Path, *args: str) -> bytes:
    """git exactly as the user runs it: the user's own configuration, no overrides."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True,
                          env=env).stdout


def real_checkout(repo: GitRepo, commit: str, where: Path) -> dict[str, bytes]:
    """Every file of the user's own ``git worktree add`` of ``commit``."""
    user_git(repo.path, "worktree", "add", "--detach", "--quiet", str(where), commit)
    try:
        return files_under(where)
    finally:
        user_git(repo.path, "worktree", "remove", "--force", str(where))


def files_under(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(root).parts}


def trees() -> tuple[dict[str, bytes], dict[str, bytes]]:
    changed = list(LINES)
    changed[3] = b"line four changed\n"
    changed[20] = b"line twenty-one changed\n"
    good = {
        "notes.txt": b"".join(LINES),
        "src/main.py": b"x = 1\ny = 2\n",
        "settings.cfg": b"level=low\nname=x\n",
        "logo.bin": bytes(range(256)),
        "crlf.txt": b"already\r\ncrlf\r\n",
        "untouched.md": b"not in\nthe diff\n",
    }
    bad = {**good, "notes.txt": b"".join(changed), "src/main.py": b"x = 1\ny = 3\n",
           "settings.cfg": b"level=high\nname=x\n", "logo.bin": bytes(range(255, -1, -1)),
           "new.txt": b"a new\nfile\n"}
    return good, bad


# name -> (git config pairs, .gitattributes in the tree, .git/info/attributes, or the
# file that a config value "@attributes" names, outside the repository)
SETUPS = {
    "autocrlf-true": ([("core.autocrlf", "true")], None, None),
    "autocrlf-input-eol-crlf": ([("core.autocrlf", "input"), ("core.eol", "crlf")],
                                b"*.txt text\n", None),
    "eol-crlf-text-auto": ([("core.eol", "crlf")], b"* text=auto\n", None),
    "autocrlf-true-with-attributes": ([("core.autocrlf", "true")],
                                      b"*.bin binary\nuntouched.md -text\n", None),
    "global-attributes-file": ([("core.attributesFile", "@attributes")], None,
                               b"*.txt text eol=crlf\n*.py text eol=crlf\n"),
    "filter-in-config-only": ([("filter.up.smudge", "tr a-z A-Z"),
                               ("filter.up.clean", "tr A-Z a-z"),
                               ("filter.up.required", "true")], None, b"*.cfg filter=up\n"),
}


def configure(repo: GitRepo, setup: str) -> tuple[dict[str, bytes], dict[str, bytes]]:
    pairs, attributes, info = SETUPS[setup]
    for key, value in pairs:
        if value == "@attributes":
            assert info is not None
            value = str(repo.path.parent / "attributes")
            Path(value).write_bytes(info)
            info = None
        user_git(repo.path, "config", key, value)
    if info is not None:
        (repo.path / ".git" / "info").mkdir(exist_ok=True)
        (repo.path / ".git" / "info" / "attributes").write_bytes(info)
    good, bad = trees()
    if attributes is not None:
        good[".gitattributes"] = bad[".gitattributes"] = attributes
    return good, bad


def expected_conversion(setup: str, files: dict[str, bytes]) -> None:
    """The real checkout did convert (else the comparison would prove nothing)."""
    if setup == "filter-in-config-only":
        assert files["settings.cfg"].startswith(b"LEVEL=")
    elif setup == "autocrlf-true-with-attributes":
        assert files["notes.txt"].count(b"\r\n") == len(LINES)
        assert files["untouched.md"] == b"not in\nthe diff\n"
    elif setup == "autocrlf-input-eol-crlf":  # autocrlf=input wins over core.eol
        assert b"\r" not in files["notes.txt"]
    else:
        assert files["notes.txt"].count(b"\r\n") == len(LINES)
        assert files["src/main.py"].endswith(b"\r\n")


@pytest.mark.parametrize("setup", sorted(SETUPS))
def test_configurations_hold_what_the_users_checkout_holds(
        make_repo, tmp_path: Path, setup: str) -> None:
    repo = make_repo()
    good_tree, bad_tree = configure(repo, setup)
    good = repo.commit(good_tree)
    bad = repo.commit(bad_tree)
    config_before = user_git(repo.path, "config", "--list", "--show-origin")
    diff = read_diff(repo.path, good, bad)
    ids = [c.id for c in diff.changes]
    rng = random.Random(15)
    configs = [frozenset(), frozenset(ids)]
    configs += [frozenset(rng.sample(ids, rng.randint(1, len(ids) - 1))) for _ in range(4)]
    with scratch_worktree(repo.path, good, tree_states(diff, frozenset())) as worktree:
        assert files_under(worktree.root) == real_checkout(repo, good, tmp_path / "good")
        expected = compare_configurations(repo, worktree, diff, good_tree, configs, tmp_path,
                                          real_checkout)
        expected_conversion(setup, expected)
        # A whole commit (the commit phase), then files written over it (a carried answer).
        worktree.checkout(bad)
        assert files_under(worktree.root) == real_checkout(repo, bad, tmp_path / "bad")
        worktree.apply(tree_states(diff, frozenset()))
        assert files_under(worktree.root) == real_checkout(repo, good, tmp_path / "good2")
    assert user_git(repo.path, "config", "--list", "--show-origin") == config_before


CHECK = b"""\
import pathlib, sys
strict = b'strict' in pathlib.Path('mode.txt').read_bytes()
if strict and b'\\r' in pathlib.Path('table.csv').read_bytes():
    sys.exit('table.csv: CR in strict mode')
"""


@pytest.mark.parametrize("history", ["one-commit", "commits"])
def test_a_failure_seen_only_with_autocrlf_is_found(make_repo, history: str) -> None:
    """With the user's core.autocrlf=true every checkout writes table.csv with CRLF:
    BAD fails only there, and the cause is the line that turns strict mode on."""
    repo = make_repo()
    user_git(repo.path, "config", "core.autocrlf", "true")
    base = {"check.py": CHECK, "table.csv": b"a,b\n1,2\n", "notes.txt": b"one\ntwo\n",
            "mode.txt": b"# the parser's mode\nmode=lenient\n# end\n"}
    good = repo.commit(base, "good")
    steps = [{"notes.txt": b"one\ntwo\nthree\n"},
             {"mode.txt": b"# the parser's mode\nmode=strict\n# end\n"},
             {"table.csv": b"a,b\n1,2\n3,4\n"}]
    tree = dict(base)
    for number, step in enumerate(steps):
        tree.update(step)
        if history == "commits" or number == len(steps) - 1:
            bad = repo.commit(dict(tree), f"step {number}")
            if number == 1:
                culprit = bad
    status = user_git(repo.path, "status", "--porcelain")
    revert = repo.path.parent / "revert.patch"
    result = run_wynot(good, bad, "--format", "json", "--no-cache", "--revert-patch",
                       str(revert), "--", "python3", "check.py", cwd=repo.path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert [c["path"] for c in report["changes"]] == ["mode.txt"], result.stderr
    # the revert is applied to a checkout of BAD (CRLF files) and passes there
    assert report["revert"]["applies"] and report["revert"]["verified"], report["revert"]
    if history == "commits":
        assert report["commit_phase"]["first_bad"]["sha"] == culprit
    assert user_git(repo.path, "config", "core.autocrlf") == b"true\n"
    assert user_git(repo.path, "status", "--porcelain") == status


def entries_under(root: Path) -> dict[str, tuple[str, bytes]]:
    """Every entry under ``root`` as it lies on disk: a symlink is not followed."""
    found: dict[str, tuple[str, bytes]] = {}
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if ".git" in path.relative_to(root).parts or path.is_dir() and not path.is_symlink():
            continue
        if path.is_symlink():
            found[name] = ("symlink", os.fsencode(os.readlink(path)))
        else:
            found[name] = (oct(path.lstat().st_mode), path.read_bytes())
    return found


def test_symlinks_false_writes_links_as_plain_files_like_a_checkout(
        make_repo, tmp_path: Path) -> None:
    """With the user's core.symlinks=false git writes each symlink as a file holding the
    link text; the scratch worktree holds the same, for every configuration."""
    repo = make_repo()
    user_git(repo.path, "config", "core.symlinks", "false")
    config_before = user_git(repo.path, "config", "--list", "--show-origin")
    good_tree = {"notes.txt": b"".join(LINES), "docs/readme.md": b"read me\n",
                 "link": Symlink("notes.txt"), "gone": Symlink("docs/readme.md"),
                 "typed": b"a plain file\n", "dangling": Symlink("nowhere")}
    bad_tree = {**good_tree, "link": Symlink("docs/readme.md"), "typed": Symlink("notes.txt"),
                "docs/new-link": Symlink("../notes.txt"), "notes.txt": b"".join(LINES[1:])}
    del bad_tree["gone"]
    good = repo.commit(good_tree)
    bad = repo.commit(bad_tree)
    diff = read_diff(repo.path, good, bad)
    ids = [c.id for c in diff.changes]
    configs = [frozenset(ids), frozenset(), *(frozenset(ids[:n]) for n in range(1, len(ids)))]

    def real(commit: str, where: Path) -> dict[str, tuple[str, bytes]]:
        user_git(repo.path, "worktree", "add", "--detach", "--quiet", str(where), commit)
        try:
            return entries_under(where)
        finally:
            user_git(repo.path, "worktree", "remove", "--force", str(where))

    with scratch_worktree(repo.path, good, tree_states(diff, frozenset())) as worktree:
        first = real(good, tmp_path / "good")
        assert first["link"] == (oct(0o100644), b"notes.txt")  # git wrote no symlink
        assert entries_under(worktree.root) == first
        for number, config in enumerate(configs):
            states = tree_states(diff, config)
            worktree.apply(states)
            tree: dict[str, bytes | Symlink] = dict(good_tree)
            for path, state in states.items():
                if state is None:
                    tree.pop(path, None)
                else:
                    tree[path] = (Symlink(state.data) if state.mode == 0o120000
                                  else state.data)
            expected = real(repo.commit(tree), tmp_path / f"real{number}")
            assert entries_under(worktree.root) == expected, sorted(config)
        worktree.checkout(bad)
        assert entries_under(worktree.root) == real(bad, tmp_path / "bad")
        worktree.apply(tree_states(diff, frozenset()))
        assert entries_under(worktree.root) == first
    assert user_git(repo.path, "config", "--list", "--show-origin") == config_before
