#!/usr/bin/env python3
"""Turn a sample project of sample_repos/ into a git repository with a GOOD and a BAD commit.

    python sample_repos/make_repo.py NAME DEST    # builds DEST, prints the path of NAME's case.json
    python sample_repos/make_repo.py --list       # the names of the samples (good/ + bad/ kind)
    python sample_repos/make_repo.py --list --kind history    # ... of the history samples

A sample is a folder NAME/ beside this script with the trees good/ and bad/ as plain
files and a case.json that says how to test it and which changes cause the failure.
The repository at DEST gets commit 1 = good/ (tag `good`) and commit 2 = bad/ (tag `bad`)
on the branch `main`, which is checked out. Author, committer, e-mail addresses, dates
and messages are fixed and the user's and the system's git configuration are ignored,
so the commit ids are the same on every machine. case.json is not committed.

From Python (with this folder on sys.path):

    from make_repo import load_case, make_repo, sample_names
    repo = make_repo("interference", tmp_path / "repo")    # -> the repository's path

History samples (case.json has "kind": "history") hold a whole history instead of two
trees: commits/NNNN-<slug>.patch, one file per commit in file-name order, each a few
mail-style headers, the commit message and a unified diff (see read_history). The
first commit is tagged `good`, the last `bad`; branches and `--no-ff` merges are
described by headers. sample_names() lists the good/ + bad/ samples only, as before;
sample_names("history") or sample_names("all") list the others.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

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

# History samples: case.json keys, and the keys of its "strategy_expected" object.
KINDS = ("pair", "history")
HISTORY_CASE_KEYS = {
    "kind",
    "description",
    "test",
    "build",
    "options",
    "commits",
    "untestable_commits",
    "git_bisect_options",
    "git_bisect_tests",
    "strategy_expected",
}
STRATEGY_KEYS = {"first_bad_commit_subject", "hunk_diff", "expected"}
STRATEGY_OPTIONAL_KEYS = {"first_parent_diff", "expected_first_parent", "expected_branches"}
HISTORY_DIR = "commits"


class SampleError(Exception):
    """A sample that does not exist or is malformed, or a repository that cannot be built."""


def _kind(folder: Path) -> str:
    """The kind of the sample in `folder`: "history" if its case.json says so, else "pair"."""
    try:
        case = json.loads((folder / "case.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "pair"  # load_case reports what is wrong with it
    return "history" if isinstance(case, dict) and case.get("kind") == "history" else "pair"


def sample_names(kind: str = "pair") -> list[str]:
    """The names of the samples: the folders beside this script that hold a case.json.

    `kind` is "pair" (the default: the samples made of good/ and bad/), "history" (the
    samples made of a history of commits) or "all".
    """
    if kind not in (*KINDS, "all"):
        raise SampleError(f"unknown kind of sample {kind!r} (known: pair, history, all)")
    names = sorted(p.name for p in SAMPLES.iterdir() if (p / "case.json").is_file())
    return [name for name in names if kind == "all" or _kind(SAMPLES / name) == kind]


def sample_kind(name: str) -> str:
    """How the sample `name` describes its repository: "pair" or "history"."""
    return _kind(sample_dir(name))


def sample_dir(name: str) -> Path:
    """The folder of the sample `name`."""
    if name not in sample_names("all"):
        known = ", ".join(sample_names("all"))
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

    A history sample has "kind": "history" and, instead of expected: commits (how many),
    untestable_commits (the subjects of the commits whose test exits 125),
    git_bisect_options and git_bisect_tests (the options of `git bisect start` and how
    many commits `git bisect run` tests), and strategy_expected: first_bad_commit_subject,
    hunk_diff (the diff the labels are read from, e.g. "first_bad^..first_bad") and
    expected (its labels), optionally first_parent_diff and expected_first_parent (the
    labels against that diff) and expected_branches (label -> the branch it comes from).
    """
    path = case_path(name)
    try:
        case = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SampleError(f"{path}: {exc}") from None
    problems = []
    if not isinstance(case, dict):
        raise SampleError(f"{path}: not a JSON object")
    history = case.get("kind") == "history"
    keys = HISTORY_CASE_KEYS if history else CASE_KEYS
    if set(case) != keys:
        problems.append(f"keys must be {sorted(keys)}, not {sorted(case)}")
    if not isinstance(case.get("description"), str) or not case.get("description"):
        problems.append("description must be a non-empty string")
    if not _is_argv(case.get("test")):
        problems.append("test must be a non-empty list of strings")
    if case.get("build") is not None and not _is_argv(case.get("build")):
        problems.append("build must be null or a non-empty list of strings")
    options = case.get("options")
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        problems.append("options must be a list of strings")
    if history:
        problems += _history_problems(case)
    elif not _is_labels(case.get("expected")):
        problems.append("expected must be a non-empty list of strings")
    if problems:
        raise SampleError(f"{path}: " + "; ".join(problems))
    return case


def _is_labels(value: object) -> bool:
    return (
        isinstance(value, list)
        and len(value) > 0
        and all(isinstance(label, str) for label in value)
    )


def _history_problems(case: dict[str, Any]) -> list[str]:
    """What is wrong with the keys that only a history sample's case.json has."""
    problems = []
    for key in ("commits", "git_bisect_tests"):
        value = case.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            problems.append(f"{key} must be a positive integer")
    for key in ("untestable_commits", "git_bisect_options"):
        value = case.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            problems.append(f"{key} must be a list of strings")
    strategy = case.get("strategy_expected")
    if not isinstance(strategy, dict):
        return [*problems, "strategy_expected must be an object"]
    if not STRATEGY_KEYS <= set(strategy) <= STRATEGY_KEYS | STRATEGY_OPTIONAL_KEYS:
        problems.append(
            f"strategy_expected must have the keys {sorted(STRATEGY_KEYS)} and may have "
            f"{sorted(STRATEGY_OPTIONAL_KEYS)}, not {sorted(strategy)}"
        )
    for key in ("first_bad_commit_subject", "hunk_diff", "first_parent_diff"):
        if key in strategy and (not isinstance(strategy[key], str) or not strategy[key]):
            problems.append(f"strategy_expected.{key} must be a non-empty string")
    for key in ("expected", "expected_first_parent"):
        if key in strategy and not _is_labels(strategy[key]):
            problems.append(f"strategy_expected.{key} must be a non-empty list of strings")
    branches = strategy.get("expected_branches", {})
    if not isinstance(branches, dict) or not all(isinstance(v, str) for v in branches.values()):
        problems.append("strategy_expected.expected_branches must map labels to branch names")
    return problems


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
    _run_git(repo, _git_env(side), args)


def _run_git(repo: Path, env: dict[str, str], args: tuple[str, ...], stdin: bytes = b"") -> bytes:
    command = [
        "git",
        "-c", "core.autocrlf=false",
        "-c", "core.fileMode=true",
        "-c", "core.hooksPath=" + os.devnull,
        "-c", "commit.gpgSign=false",
        "-c", "tag.gpgSign=false",
        *args,
    ]  # fmt: skip
    done = subprocess.run(command, cwd=repo, env=env, input=stdin, capture_output=True, check=False)
    if done.returncode != 0:
        stderr = done.stderr.decode("utf-8", "replace").strip()
        raise SampleError(f"git {' '.join(args)} failed in {repo}: {stderr}")
    return done.stdout


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


# --- history samples --------------------------------------------------------------------
#
# A history sample keeps its commits in NAME/commits/, one file per commit, applied in
# the order of the file names (0001-initial-import.patch, 0002-...). A file looks like
# `git format-patch` output without the mail envelope:
#
#     From: Ada Lovelace <ada@example.com>         author and committer
#     Date: 2024-01-08 09:00:00 +0100              author and committer date
#     Branch: feature/x                            optional, default main
#     Branch-from: main                            only on the first commit of a new branch
#     Merge: feature/x                             a merge commit (`git merge --no-ff`)
#     Subject: wrap: add fill()
#
#     An optional body, up to a line "---".
#     ---
#     diff --git a/textkit/wrap.py b/textkit/wrap.py
#     --- a/textkit/wrap.py                        "--- /dev/null" adds a file
#     +++ b/textkit/wrap.py                        "+++ /dev/null" deletes one
#     @@ -10,6 +10,12 @@
#     ...
#
# Hunks must apply exactly at the lines they name (no fuzz, no renames, every file ends
# with a newline). A merge commit has no diff: its tree is the three-way merge of its
# parents (per file; a file both sides changed is merged by `git merge-file`, and a
# conflict is an error), which is the tree `git merge --no-ff` makes. The repository is
# written with `git fast-import` in one go.

PATCH_HEADERS = ("From", "Date", "Branch", "Branch-from", "Merge", "Subject")
HUNK_HEADER = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
PERSON = re.compile(r"[^<>\n]+ <[^<>\s]+>")
DATE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}")
SAFE_PATH = re.compile(r"[\w.-]+(/[\w.-]+)*")


class _Hunk(NamedTuple):
    old_start: int
    old_len: int
    lines: list[str]  # each starts with " ", "-" or "+" and ends with a newline


class _FilePatch(NamedTuple):
    old: str | None  # None: the file is added
    new: str | None  # None: the file is deleted
    hunks: list[_Hunk]


class HistoryCommit(NamedTuple):
    """One commit of a history sample, as make_repo writes it."""

    patch: str  # the file name in commits/
    subject: str
    message: str
    author: str  # "Name <e-mail>", also the committer
    date: str  # "YYYY-MM-DD HH:MM:SS +hhmm", also the committer date
    branch: str
    parents: tuple[int, ...]  # indexes into the list of commits
    tree: dict[str, str]  # path -> text


def _lines(text: str) -> list[str]:
    """`text` cut after each newline (str.splitlines also cuts at form feeds and more)."""
    parts = text.split("\n")
    last = parts.pop()
    return [part + "\n" for part in parts] + ([last] if last else [])


def _diff_path(line: str, prefix: str) -> str | None:
    value = line[4:].rstrip("\n")
    if value == "/dev/null":
        return None
    if not value.startswith(prefix) or not SAFE_PATH.fullmatch(value[len(prefix) :]):
        raise SampleError(f"unexpected path line {line.rstrip()!r}")
    path = value[len(prefix) :]
    if ".." in path.split("/") or ".git" in path.split("/"):
        raise SampleError(f"unexpected path {path!r}")
    return path


def _parse_diff(lines: list[str]) -> list[_FilePatch]:
    files: list[_FilePatch] = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("diff --git "):
            raise SampleError(f"expected a line 'diff --git ...', not {lines[i].rstrip()!r}")
        i += 1
        while i < len(lines) and lines[i].startswith(
            ("new file mode ", "deleted file mode ", "index ")
        ):
            i += 1
        if i + 1 >= len(lines) or not lines[i].startswith("--- "):
            raise SampleError("a file's diff needs its '--- ' and '+++ ' lines")
        if not lines[i + 1].startswith("+++ "):
            raise SampleError("a file's diff needs its '--- ' and '+++ ' lines")
        patch = _FilePatch(_diff_path(lines[i], "a/"), _diff_path(lines[i + 1], "b/"), [])
        if patch.old is None and patch.new is None:
            raise SampleError("a file's diff names no file")
        if patch.old is not None and patch.new is not None and patch.old != patch.new:
            raise SampleError(f"{patch.old} -> {patch.new}: renames are not supported")
        i += 2
        while i < len(lines) and lines[i].startswith("@@ "):
            match = HUNK_HEADER.match(lines[i])
            if not match:
                raise SampleError(f"bad hunk header {lines[i].rstrip()!r}")
            old_len = int(match[2] or "1")
            new_len = int(match[4] or "1")
            hunk = _Hunk(int(match[1]), old_len, [])
            i += 1
            while old_len or new_len:
                line = lines[i] if i < len(lines) else "(the end of the file)"
                line = " \n" if line == "\n" else line  # an editor ate the space
                if line.startswith(" ") and old_len and new_len:
                    old_len, new_len = old_len - 1, new_len - 1
                elif line.startswith("-") and old_len:
                    old_len -= 1
                elif line.startswith("+") and new_len:
                    new_len -= 1
                else:
                    raise SampleError(f"hunk {match[0]} does not match its lines at {line!r}")
                hunk.lines.append(line)
                i += 1
            patch.hunks.append(hunk)
        files.append(patch)
    return files


def _apply(tree: dict[str, str], patch: _FilePatch) -> None:
    """Apply one file's diff to `tree` (path -> text), exactly where its hunks say."""
    path = patch.new or patch.old
    assert path is not None
    if (patch.old is None) == (path in tree):
        raise SampleError(f"{path}: " + ("exists already" if path in tree else "does not exist"))
    before = _lines(tree.get(path, ""))
    after: list[str] = []
    done = 0  # lines of `before` used up
    for hunk in patch.hunks:
        start = hunk.old_start - 1 if hunk.old_len else hunk.old_start
        old = [line[1:] for line in hunk.lines if not line.startswith("+")]
        if start < done or before[start : start + len(old)] != old:
            raise SampleError(f"{path}: hunk @@ -{hunk.old_start},{hunk.old_len} does not apply")
        after += before[done:start] + [line[1:] for line in hunk.lines if line[0] != "-"]
        done = start + len(old)
    text = "".join(after + before[done:])
    if text and not text.endswith("\n"):
        raise SampleError(f"{path}: files of history samples end with a newline")
    if patch.new is None:
        if text:
            raise SampleError(f"{path}: the diff that deletes it leaves lines behind")
        del tree[path]
    else:
        tree[path] = text


def _read_patch(path: Path) -> tuple[dict[str, str], str, list[_FilePatch]]:
    """The headers, the commit message and the file diffs of one commit file."""
    text = path.read_bytes().decode("utf-8")
    if not text.endswith("\n"):
        raise SampleError(f"{path}: must end with a newline")
    lines = _lines(text)
    headers: dict[str, str] = {}
    i = 0
    while i < len(lines) and lines[i] not in ("\n", "---\n"):
        key, colon, value = lines[i].rstrip("\n").partition(": ")
        if not colon or key not in PATCH_HEADERS or key in headers or not value.strip():
            raise SampleError(f"{path}:{i + 1}: not a header line: {lines[i].rstrip()!r}")
        headers[key] = value
        i += 1
    missing = [key for key in ("From", "Date", "Subject") if key not in headers]
    if missing:
        raise SampleError(f"{path}: missing headers {missing}")
    if not PERSON.fullmatch(headers["From"]) or not DATE.fullmatch(headers["Date"]):
        raise SampleError(f"{path}: From must be 'Name <e-mail>', Date 'YYYY-MM-DD HH:MM:SS +hhmm'")
    body = []
    i += lines[i : i + 1] == ["\n"]
    while i < len(lines) and lines[i] != "---\n":
        body.append(lines[i].rstrip() + "\n")
        i += 1
    if i == len(lines):
        raise SampleError(f"{path}: no line '---' ends the commit message")
    text_body = "".join(body).strip("\n")
    message = headers["Subject"].strip() + "\n" + (f"\n{text_body}\n" if text_body else "")
    try:
        files = _parse_diff(lines[i + 1 :])
    except SampleError as exc:
        raise SampleError(f"{path}: {exc}") from None
    return headers, message, files


def _ancestors(commits: list[HistoryCommit], index: int) -> set[int]:
    seen: set[int] = set()
    todo = [index]
    while todo:
        i = todo.pop()
        if i not in seen:
            seen.add(i)
            todo += commits[i].parents
    return seen


def _merge_file(path: str, ours: str, base: str, theirs: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        names = []
        for side, text in (("ours", ours), ("base", base), ("theirs", theirs)):
            (Path(tmp) / side).write_bytes(text.encode("utf-8"))
            names.append(side)
        done = subprocess.run(
            ["git", "merge-file", "-p", *names],
            cwd=tmp,
            env=_history_env(),
            capture_output=True,
            check=False,
        )
    if done.returncode != 0:
        raise SampleError(f"{path}: the branches conflict (git merge-file: {done.returncode})")
    return done.stdout.decode("utf-8")


def _merge(commits: list[HistoryCommit], ours: int, theirs: int) -> dict[str, str]:
    """The tree of merging commit `theirs` into commit `ours` (no conflicts allowed)."""
    common = _ancestors(commits, ours) & _ancestors(commits, theirs)
    base = max(common)  # parents come before their children
    if not common <= _ancestors(commits, base):
        raise SampleError("criss-cross merges (several merge bases) are not supported")
    trees = commits[base].tree, commits[ours].tree, commits[theirs].tree
    merged = {}
    for path in sorted(set().union(*trees)):
        old, mine, other = (tree.get(path) for tree in trees)
        if mine == other or other == old:
            text = mine
        elif mine == old:
            text = other
        elif mine is None or other is None or old is None:
            raise SampleError(
                f"{path}: the branches conflict (changed on one, deleted on the other)"
            )
        else:
            text = _merge_file(path, mine, old, other)
        if text is not None:
            merged[path] = text
    return merged


def read_history(folder: Path) -> list[HistoryCommit]:
    """The commits described by the commits/ folder of a history sample, with their trees."""
    commits: list[HistoryCommit] = []
    tips: dict[str, int] = {}  # branch -> its last commit
    paths = sorted(folder.glob("*.patch"))
    if not paths:
        raise SampleError(f"{folder}: no commits (*.patch)")
    for path in paths:
        headers, message, files = _read_patch(path)
        branch = headers.get("Branch", BRANCH)
        start, merge = headers.get("Branch-from"), headers.get("Merge")
        parents: tuple[int, ...] = ()
        if commits and branch in tips and start is None:
            parents = (tips[branch],)
        elif commits and branch not in tips and start in tips:
            parents = (tips[start],)
        elif commits or branch != BRANCH or start or merge:
            raise SampleError(
                f"{path}: the first commit is on {BRANCH}; a new branch needs Branch-from: "
                "an existing branch, an existing one takes no Branch-from"
            )
        if merge is not None:
            if merge not in tips or merge == branch or files:
                raise SampleError(f"{path}: Merge: names another branch, and a merge has no diff")
            parents += (tips[merge],)
            tree = _merge(commits, parents[0], parents[1])
        else:
            tree = dict(commits[parents[0]].tree) if parents else {}
        for patch in files:
            try:
                _apply(tree, patch)
            except SampleError as exc:
                raise SampleError(f"{path}: {exc}") from None
        subject = headers["Subject"].strip()
        commits.append(
            HistoryCommit(
                path.name, subject, message, headers["From"], headers["Date"], branch, parents, tree
            )
        )
        tips[branch] = len(commits) - 1
    if commits[-1].branch != BRANCH:
        raise SampleError(f"{paths[-1]}: the last commit (tagged bad) must be on {BRANCH}")
    return commits


def _fast_import_stream(commits: list[HistoryCommit]) -> bytes:
    out = bytearray()

    def data(text: str) -> None:
        raw = text.encode("utf-8")
        out.extend(b"data %d\n%s\n" % (len(raw), raw))

    for mark, commit in enumerate(commits, start=1):
        when = datetime.strptime(commit.date, "%Y-%m-%d %H:%M:%S %z")
        person = f"{commit.author} {int(when.timestamp())} {commit.date[-5:]}\n"
        out.extend(f"commit refs/heads/{commit.branch}\nmark :{mark}\n".encode())
        out.extend(f"author {person}committer {person}".encode())
        data(commit.message)
        for keyword, parent in zip(("from", "merge", "merge"), commit.parents, strict=False):
            out.extend(f"{keyword} :{parent + 1}\n".encode())
        before = commits[commit.parents[0]].tree if commit.parents else {}
        for path in sorted(before.keys() - commit.tree.keys()):
            out.extend(f"D {path}\n".encode())
        for path, text in sorted(commit.tree.items()):
            if before.get(path) != text:
                out.extend(f"M 100644 inline {path}\n".encode())
                data(text)
        out.extend(b"\n")
    tags = f"reset refs/tags/good\nfrom :1\n\nreset refs/tags/bad\nfrom :{len(commits)}\n\n"
    out.extend(tags.encode())
    return bytes(out)


def _history_env() -> dict[str, str]:
    """An environment for git that ignores the user's configuration (identities and dates
    come from the commit files)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    env.update(
        GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, GIT_TERMINAL_PROMPT="0", LC_ALL="C"
    )
    return env


def _make_history_repo(source: Path, repo: Path) -> None:
    commits = read_history(source / HISTORY_DIR)
    env = _history_env()
    _run_git(repo, env, ("init", "-q", "--initial-branch=" + BRANCH))
    _run_git(
        repo, env, ("fast-import", "--quiet", "--date-format=raw"), _fast_import_stream(commits)
    )
    _run_git(repo, env, ("reset", "-q", "--hard", BRANCH))


def format_commit_patch(
    headers: Mapping[str, str], body: str, before: Mapping[str, str], after: Mapping[str, str]
) -> str:
    """The text of a commit file: `headers` (From, Date, ..., Subject), the message `body`
    and the diff from the tree `before` to the tree `after` (path -> text), as read_history
    reads it. For the scripts that write the history samples."""
    out = [f"{key}: {value}\n" for key, value in headers.items()]
    if body.strip():
        out += ["\n", body.strip("\n") + "\n"]
    out.append("---\n")
    for path in sorted(before.keys() | after.keys()):
        old, new = before.get(path), after.get(path)
        if old == new:
            continue
        out.append(f"diff --git a/{path} b/{path}\n")
        if old is None:
            out.append("new file mode 100644\n")
        if new is None:
            out.append("deleted file mode 100644\n")
        out.append("--- " + ("/dev/null" if old is None else f"a/{path}") + "\n")
        out.append("+++ " + ("/dev/null" if new is None else f"b/{path}") + "\n")
        diff = difflib.unified_diff(_lines(old or ""), _lines(new or ""), n=3)
        out += list(diff)[2:]  # without difflib's own ---/+++ lines
    return "".join(out)


def make_repo(name: str, dest: Path | str) -> Path:
    """Create the git repository of the sample `name` at `dest` and return its absolute path.

    `dest` must not exist or be an empty directory. Tags `good` and `bad` name the two
    commits; HEAD is the branch `main` at `bad`, with a clean working tree. For a history
    sample, `good` is its first commit and `bad` its last (see read_history).
    """
    source = sample_dir(name)
    repo = Path(dest).absolute()
    if repo.exists() and (not repo.is_dir() or any(repo.iterdir())):
        raise SampleError(f"{repo} exists and is not an empty directory")
    repo.mkdir(parents=True, exist_ok=True)
    if _kind(source) == "history":
        _make_history_repo(source, repo)
        return repo
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
    parser.add_argument(
        "--kind",
        choices=("pair", "history", "all"),
        help="with --list: the kind of samples to list (default pair: good/ + bad/)",
    )
    parser.add_argument("name", nargs="?", help="the sample to build")
    parser.add_argument("dest", nargs="?", type=Path, help="where to create the repository")
    args = parser.parse_args(argv)
    if args.list:
        if args.name is not None:
            parser.error("--list takes no other arguments")
        for name in sample_names(args.kind or "pair"):
            print(name)
        return 0
    if args.kind is not None:
        parser.error("--kind goes with --list")
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
