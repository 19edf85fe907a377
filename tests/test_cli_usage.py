"""What a user meets around a run: usage, help, names and counts in the report."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli_helpers import run_wynot
from conftest import Executable, GitRepo
from wynot.manpage import PAGES, render

ROOT = Path(__file__).resolve().parent.parent
CHECK = ["--", "grep", "-q", "1", "value.txt"]


@pytest.fixture
def repo(make_repo) -> GitRepo:
    repo = make_repo("usage")
    repo.commit({"value.txt": b"1\n", "notes.txt": b"n\n"})
    repo.git("tag", "good")
    repo.commit({"value.txt": b"2\n", "notes.txt": b"N\n"})
    repo.git("tag", "bad")
    return repo


@pytest.mark.parametrize("patch", ["missing-dir/fix.patch", "."])
def test_unwritable_patch_path_is_refused_before_the_search(repo: GitRepo, patch: str) -> None:
    result = run_wynot("good", "bad", "--patch", patch, *CHECK, cwd=repo.path)
    assert result.returncode == 2
    assert "cannot write the patch" in result.stderr or "is a directory" in result.stderr
    assert "test   1" not in result.stderr  # nothing ran


@pytest.mark.parametrize(("args", "missing"), [
    (["good", "--", "sh", "t.sh"], "Error: BAD is missing"),
    (["--timeout", "5", "--", "sh", "t.sh"], "Error: GOOD and BAD are missing"),
])
def test_revisions_after_the_separator_are_a_usage_error(repo: GitRepo, args: list[str],
                                                         missing: str) -> None:
    result = run_wynot(*args, cwd=repo.path)
    assert result.returncode == 2
    assert missing in result.stderr and "unknown revision" not in result.stderr


def test_usage_line_shows_the_separator() -> None:
    result = run_wynot("-h")
    assert result.stdout.startswith("Usage: wynot [OPTIONS] GOOD BAD -- COMMAND [ARGS]...")


def test_missing_interpreter_is_named(make_repo) -> None:
    repo = make_repo("interp")
    script = Executable(b"#!/no/such/interp\nexit 0\n")
    repo.commit({"t.sh": script, "v.txt": b"1\n"})
    repo.git("tag", "good")
    repo.commit({"t.sh": script, "v.txt": b"2\n"})
    result = run_wynot("good", "HEAD", "--", "./t.sh", cwd=repo.path)
    assert result.returncode == 1
    error = next(line for line in result.stderr.splitlines() if "error:" in line)
    assert "./t.sh: /no/such/interp: bad interpreter" in error
    assert "command not found" not in error


def test_control_characters_in_paths_are_quoted_like_git(make_repo) -> None:
    repo = make_repo("newline")
    repo.commit({"odd\nname.txt": b"1\n"})
    repo.git("tag", "good")
    repo.commit({"odd\nname.txt": b"2\n"})
    result = run_wynot("good", "HEAD", "--", "grep", "-q", "1", "odd\nname.txt",
                       cwd=repo.path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert '--- "a/odd\\nname.txt"' in lines and '+++ "b/odd\\nname.txt"' in lines
    assert any(line.startswith("# odd\\nname.txt:-1,1 - cause") for line in lines)
    git_header = repo.text("diff", "good", "HEAD").splitlines()[2]
    assert git_header == '--- "a/odd\\nname.txt"'


def test_path_conflict_context_is_named_as_such(make_repo) -> None:
    """BAD turns the file `lib` into a directory: the new file needs the deletion."""
    repo = make_repo("conflict")
    repo.commit({"lib": b"old\n", "keep.txt": b"k\n"})
    repo.git("tag", "good")
    repo.commit({"lib/mod.txt": b"new\n", "keep.txt": b"k\n"})
    result = run_wynot("good", "HEAD", "--", "sh", "-c", "test ! -f lib/mod.txt",
                       cwd=repo.path)
    assert result.returncode == 0, result.stderr
    assert ("# lib (delete) - context: without it the configuration cannot be written "
            "(a path conflict)") in result.stdout
    assert "needed to build" not in result.stdout


def test_counts_of_one_are_singular(make_repo) -> None:
    repo = make_repo("single")
    repo.commit({"value.txt": b"1\n"})
    repo.git("tag", "good")
    repo.commit({"value.txt": b"2\n"})
    result = run_wynot("good", "HEAD", "--no-cache", *CHECK, cwd=repo.path)
    assert result.returncode == 0, result.stderr
    assert "wynot: 1 change in 1 file between" in result.stderr
    assert "1 of 1 change;" in result.stdout
    assert "1 change: " in result.stderr  # a test's progress line
    assert not re.search(r"\b1 (changes|tests|files)\b", result.stdout + result.stderr)


def test_manual_pages_match_the_help() -> None:
    for name in PAGES:
        page = (ROOT / "docs" / "man" / f"{name}.1").read_text(encoding="utf-8")
        assert page == render(name), "regenerate with: python -m wynot.manpage docs/man"


@pytest.mark.skipif(shutil.which("man") is None, reason="man is not installed")
def test_git_wynot_help_shows_the_manual(tmp_path: Path) -> None:
    scripts = Path(sys.executable).parent
    assert (scripts.parent / "share" / "man" / "man1" / "git-wynot.1").exists(), \
        "install wynot (pip install -e .) to install its manual pages"
    env = {**os.environ, "PATH": f"{scripts}{os.pathsep}{os.environ['PATH']}",
           "MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100"}
    env.pop("MANPATH", None)
    result = subprocess.run(["git", "wynot", "--help"], capture_output=True, text=True,
                            env=env, cwd=tmp_path, check=False)
    assert result.returncode == 0, result.stderr
    assert "git wynot [OPTIONS] GOOD BAD -- COMMAND [ARGS]..." in result.stdout
    assert "--strategy" in result.stdout
