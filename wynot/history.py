"""The commits between GOOD and BAD: first-parent order, metadata, attribution.

Metadata comes from GitPython (one repository object, closed after use);
listing and blame use the subprocess helper.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

import git as gitpython

from wynot.changes import Change, ChangeKind, Diff
from wynot.git import git
from wynot.result import CommitInfo


def first_parent_chain(repo: Path, good: str, bad: str) -> list[str] | None:
    """[good, ..., bad] along BAD's first parents, or None if GOOD is not on that chain."""
    listed = os.fsdecode(git(repo, "rev-list", "--first-parent", "--reverse",
                             f"{good}..{bad}")).split()
    if not listed:
        return None
    parents = os.fsdecode(git(repo, "rev-list", "--parents", "-n", "1", listed[0])).split()
    if len(parents) < 2 or parents[1] != good:
        return None
    return [good, *listed]


def commit_infos(repo: Path, shas: Iterable[str]) -> dict[str, CommitInfo]:
    """Author, date, subject and parents of each commit."""
    result: dict[str, CommitInfo] = {}
    handle = gitpython.Repo(repo)
    try:
        for sha in shas:
            commit = handle.commit(sha)
            result[sha] = CommitInfo(
                sha=commit.hexsha,
                author=str(commit.author.name),
                email=str(commit.author.email),
                date=commit.authored_datetime.isoformat(),
                subject=str(commit.summary),
                parents=tuple(p.hexsha for p in commit.parents),
            )
    finally:
        handle.close()
    return result


def merge_base(repo: Path, a: str, b: str) -> str | None:
    out = os.fsdecode(git(repo, "merge-base", a, b, check=False)).strip()
    return out or None


def show_commit(repo: Path, sha: str) -> str:
    """The commit as ``git bisect`` shows the first bad commit: header, message, stat."""
    return os.fsdecode(git(repo, "show", "--no-color", "--stat", "--format=medium",
                           sha)).rstrip("\n")


_BLAME_HEADER = re.compile(r"^([0-9a-f]{40}) \d+ (\d+)")


def attribute(repo: Path, diff: Diff, changes: Sequence[Change]) -> dict[int, str]:
    """The commit in GOOD..BAD that introduced each change (by blame, else by log)."""
    result: dict[int, str] = {}
    for change in changes:
        fd = diff.files[change.file]
        sha = None
        if change.kind is ChangeKind.HUNK and change.hunk is not None and fd.new_path:
            sha = _blame_added_lines(repo, diff, fd.new_path, change)
        if sha is None:
            path = fd.new_path or fd.old_path or change.path
            log = os.fsdecode(git(repo, "log", "--format=%H", f"{diff.good}..{diff.bad}",
                                  "--", path, check=False)).split()
            sha = log[0] if log else None
        if sha is not None:
            result[change.id] = sha
    return result


def _blame_added_lines(repo: Path, diff: Diff, path: str, change: Change) -> str | None:
    hunk = change.hunk
    assert hunk is not None
    added = _added_line_numbers(hunk.text, hunk.new_start)
    if not added:
        return None
    out = git(repo, "blame", "--porcelain", "-L", f"{min(added)},{max(added)}",
              f"{diff.good}..{diff.bad}", "--", path, check=False)
    votes: Counter[str] = Counter()
    boundary: set[str] = set()
    current = None
    for line in os.fsdecode(out).splitlines():
        match = _BLAME_HEADER.match(line)
        if match:
            current = match.group(1)
            if int(match.group(2)) in added:
                votes[current] += 1
        elif line == "boundary" and current is not None:
            boundary.add(current)
    for sha, _ in votes.most_common():
        if sha not in boundary:
            return sha
    return None


def _added_line_numbers(text: str, new_start: int) -> set[int]:
    numbers = set()
    line_no = new_start
    for line in text.split("\n")[1:]:
        if line.startswith("+"):
            numbers.add(line_no)
            line_no += 1
        elif line.startswith(" "):
            line_no += 1
    return numbers
