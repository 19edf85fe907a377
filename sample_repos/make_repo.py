#!/usr/bin/env python3
"""Turn a sample project of sample_repos/ into a git repository with a GOOD and a BAD commit.

    python sample_repos/make_repo.py NAME DEST    # builds DEST, prints the path of NAME's case.json
    python sample_repos/make_repo.py --list       # the names of the samples

A sample is a folder NAME/ beside this script with the trees good/ and bad/ as plain
files and a case.json that says how to test it and which changes cause the failure.
The repository at DEST gets commit 1 = good/ (tag `good`) and commit 2 = bad/ (tag `bad`)
on the branch `main`, which is checked out. Author, committer, e-mail addresses, dates
and messages are fixed and the user's and the system's git configuration are ignored,
so the commit ids are the same on every machine. case.json is not committed.

From Python (with this folder on sys.path):

    from make_repo import load_case, make_repo, sample_names
    repo = make_repo("interference", tmp_path / "repo")    # -> the repository's path
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

SAMPLES = Path(__file__).resolve().parent
BRANCH = "main"
SIDES = ("good", "bad")

IDENTITY = {
    "GIT_AUTHOR_NAME": "Sample Developer",
    "GIT_AUTHOR_EMAIL": "developer@example.com",
    "GIT_COMMITTER_NAME": "Sample Developer",
    "GIT_COMMITTER_EMAIL": "developer@example.com",
}
DATES = {"good": "2024-03-01T09:00:00+00:00", "bad": "2024-03-08T17:30:00+00:00"}
MESSAGES = {
    "good": "{name}: the last version that passes its test\n",
    "bad": "{name}: the next version, which fails its test\n",
}

# What running a sample in place leaves behind; never copied into a repository.
LITTER_DIRS = frozenset({"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"})
LITTER_SUFFIXES = (".pyc", ".pyo", ".o")

CASE_KEYS = {"description", "test", "build", "options", "expected"}


class SampleError(Exception):
    """A sample that does not exist or is malformed, or a repository that cannot be built."""


def sample_names() -> list[str]:
    """The names of the samples: the folders beside this script that hold a case.json."""
    return sorted(p.name for p in SAMPLES.iterdir() if (p / "case.json").is_file())


def sample_dir(name: str) -> Path:
    """The folder of the sample `name`."""
    if name not in sample_names():
        known = ", ".join(sample_names())
        raise SampleError(f"unknown sample {name!r} (known: {known})")
    return SAMPLES / name


def case_path(name: str) -> Path:
    """The path of the case.json of the sample `name`."""
    return sample_dir(name) / "case.json"


def _is_argv(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) > 0
        and all(isinstance(arg, str) and arg for arg in value)
    )


def load_case(name: str) -> dict[str, Any]:
    """The case.json of the sample `name`, checked against the expected shape.

    Keys: description (str), test (argv list), build (argv list or None), options (extra
    wynot command-line options, a list of str) and expected (the labels of the changes
    that make the test fail: "<path>:-<start>,<len>" for a hunk, "<path> (add)" or
    "<path> (delete)" for a whole file).
    """
    path = case_path(name)
    try:
        case = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SampleError(f"{path}: {exc}") from None
    problems = []
    if not isinstance(case, dict):
        raise SampleError(f"{path}: not a JSON object")
    if set(case) != CASE_KEYS:
        problems.append(f"keys must be {sorted(CASE_KEYS)}, not {sorted(case)}")
    if not isinstance(case.get("description"), str) or not case.get("description"):
        problems.append("description must be a non-empty string")
    if not _is_argv(case.get("test")):
        problems.append("test must be a non-empty list of strings")
    if case.get("build") is not None and not _is_argv(case.get("build")):
        problems.append("build must be null or a non-empty list of strings")
    options = case.get("options")
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        problems.append("options must be a list of strings")
    expected = case.get("expected")
    if (
        not isinstance(expected, list)
        or not expected
        or not all(isinstance(label, str) for label in expected)
    ):
        problems.append("expected must be a non-empty list of strings")
    if problems:
        raise SampleError(f"{path}: " + "; ".join(problems))
    return case


def _git_env(side: str) -> dict[str, str]:
    """An environment for git that ignores the user's configuration and pins identity and date."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(IDENTITY)
    env.update(
        GIT_AUTHOR_DATE=DATES[side],
        GIT_COMMITTER_DATE=DATES[side],
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_TERMINAL_PROMPT="0",
        LC_ALL="C",
    )
    return env


def _git(repo: Path, side: str, *args: str) -> None:
    command = [
        "git",
        "-c", "core.autocrlf=false",
        "-c", "core.fileMode=true",
        "-c", "core.hooksPath=" + os.devnull,
        "-c", "commit.gpgSign=false",
        "-c", "tag.gpgSign=false",
        *args,
    ]  # fmt: skip
    done = subprocess.run(
        command, cwd=repo, env=_git_env(side), capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SampleError(f"git {' '.join(args)} failed in {repo}: {done.stderr.strip()}")


def _copy_tree(source: Path, dest: Path) -> None:
    """Copy the files of `source` into `dest` as regular files with mode 0644.

    Modes are normalised so that the commit ids do not depend on the checkout the
    samples came from; scripts in a sample are run with `sh` or `python3`.
    """
    if not source.is_dir():
        raise SampleError(f"{source} is missing")
    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source)
        if LITTER_DIRS.intersection(relative.parts) or path.name.endswith(LITTER_SUFFIXES):
            continue
        target = dest / relative
        if path.is_symlink():
            raise SampleError(f"{path}: samples hold plain files, not symbolic links")
        if path.is_dir():
            if path.name == ".git":
                raise SampleError(f"{path}: samples hold plain files, not nested repositories")
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
            target.chmod(0o644)


def _clear_worktree(repo: Path) -> None:
    for child in repo.iterdir():
        if child.name == ".git":
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()


def make_repo(name: str, dest: Path | str) -> Path:
    """Create the git repository of the sample `name` at `dest` and return its absolute path.

    `dest` must not exist or be an empty directory. Tags `good` and `bad` name the two
    commits; HEAD is the branch `main` at `bad`, with a clean working tree.
    """
    source = sample_dir(name)
    repo = Path(dest).absolute()
    if repo.exists() and (not repo.is_dir() or any(repo.iterdir())):
        raise SampleError(f"{repo} exists and is not an empty directory")
    repo.mkdir(parents=True, exist_ok=True)
    _git(repo, "good", "init", "-q", "--initial-branch=" + BRANCH)
    for side in SIDES:
        _clear_worktree(repo)
        _copy_tree(source / side, repo)
        _git(repo, side, "add", "-A")
        message = MESSAGES[side].format(name=name)
        _git(repo, side, "commit", "-q", "--no-verify", "--allow-empty", "-m", message)
        _git(repo, side, "tag", side)
    return repo


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="make_repo.py",
        description="Create the git repository of a sample (commit `good`, then `bad`) "
        "and print the path of its case.json.",
    )
    parser.add_argument("--list", action="store_true", help="print the names of the samples")
    parser.add_argument("name", nargs="?", help="the sample to build")
    parser.add_argument("dest", nargs="?", type=Path, help="where to create the repository")
    args = parser.parse_args(argv)
    if args.list:
        if args.name is not None:
            parser.error("--list takes no other arguments")
        for name in sample_names():
            print(name)
        return 0
    if args.name is None or args.dest is None:
        parser.error("give NAME and DEST, or --list")
    try:
        load_case(args.name)
        make_repo(args.name, args.dest)
    except SampleError as exc:
        print(f"make_repo.py: error: {exc}", file=sys.stderr)
        return 1
    print(case_path(args.name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
