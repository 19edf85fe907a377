"""The commits between GOOD and BAD: first-parent order, metadata, attribution.

Metadata comes from GitPython (one repository object, closed after use);
listing and blame use the subprocess helper.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

from wynot.analysis.lexical import changed_lines
from wynot.changes import Change, ChangeKind, Diff, FileState
from wynot.git import git
from wynot.result import CommitInfo, Origin

_TYPE_MASK, _REGULAR_TYPE = 0o170000, 0o100000


def origins(repo: Path, diff: Diff, changes: Sequence[Change]) -> dict[int, tuple[Origin, ...]]:
    """The commits that made each change (see :func:`attribute`): most lines first, then
    commits before merges (a merge that only carries a branch's removal over), then oldest."""
    credits = attribute(repo, diff, changes)
    infos = commit_infos(repo, {sha for per in credits.values() for sha in per})
    return {
        cid: tuple(sorted((Origin(infos[sha], added, removed)
                           for sha, (added, removed) in per.items()),
                          key=lambda o: (-o.lines, o.commit.is_merge, o.commit.date,
                                         o.commit.sha)))
        for cid, per in credits.items()
    }


class OriginsAhead:
    """:func:`origins` of some changes (dd+'s answer), computed by a thread of its own
    while the last runs go on, for :meth:`of` the changes finally reported, which
    may differ: each change's origins depend on that change alone, so only the
    changes not computed ahead are attributed then."""

    def __init__(self, repo: Path, diff: Diff, changes: Sequence[Change]) -> None:
        self._repo, self._diff = repo, diff
        self._ahead = frozenset(c.id for c in changes)
        self._found: dict[int, tuple[Origin, ...]] | None = None
        self._thread = threading.Thread(target=self._compute, args=(list(changes),),
                                        daemon=True, name="wynot-origins")
        self._thread.start()

    def _compute(self, changes: list[Change]) -> None:
        with contextlib.suppress(Exception):  # GitError and the like: computed again in of()
            self._found = origins(self._repo, self._diff, changes)

    def settle(self, error: type[BaseException] | None, *_: object) -> None:
        """An exit callback (``ExitStack.push``): when the run ends in an error (an
        interrupt, a failed verification), waits for the thread, so that no
        ``git blame`` of it outlives the run; otherwise lets it go on."""
        if error is not None:
            self._thread.join()

    def of(self, changes: Sequence[Change]) -> dict[int, tuple[Origin, ...]]:
        """:func:`origins` of ``changes`` (of the same diff), those computed ahead
        taken from there."""
        self._thread.join()
        found = self._found or {}
        done = self._ahead if self._found is not None else frozenset()
        rest = [c for c in changes if c.id not in done]
        wanted = {c.id for c in changes}
        known = {cid: o for cid, o in found.items() if cid in wanted}
        return {**known, **(origins(self._repo, self._diff, rest) if rest else {})}


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


def count_between(repo: Path, good: str, bad: str) -> int:
    """How many commits lie between GOOD and BAD (in GOOD..BAD, BAD excluded), merged
    branches included."""
    return int(os.fsdecode(git(repo, "rev-list", "--count", f"{good}..{bad}")).strip()) - 1


def branch_chain(repo: Path, main: str, tip: str) -> list[str] | None:
    """[fork, ..., tip] along ``tip``'s first parents, back to the first commit that
    ``main`` also reaches (the fork point); None if ``main`` reaches ``tip``."""
    listed = os.fsdecode(git(repo, "rev-list", "--first-parent", "--reverse", tip,
                             f"^{main}")).split()
    if not listed:
        return None
    parents = os.fsdecode(git(repo, "rev-list", "--parents", "-n", "1", listed[0])).split()
    if len(parents) < 2:
        return None  # the branch has a root of its own
    return [parents[1], *listed]


def commit_infos(repo: Path, shas: Iterable[str]) -> dict[str, CommitInfo]:
    """Author, date, subject and parents of each commit."""
    import git as gitpython  # here: a run that needs no metadata does not import it (0.05 s)

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


_BLAME_HEADER = re.compile(rb"^([0-9a-f]{40,64}) \d+ (\d+)")
_MANY_RANGES = 2000  # beyond this many -L ranges, one blame of the whole file
_TEXT_PROBE = 8000  # git's binary test: a NUL byte among the first 8000 bytes
_MERGE_DEPTH = 3  # merges followed to find who removed a line

Credits = dict[int, dict[str, tuple[int, int]]]  # change id -> sha -> (added, removed)


def attribute(repo: Path, diff: Diff, changes: Sequence[Change]) -> Credits:
    """The commits of GOOD..BAD that made each change, line by line.

    Each added line is credited to the commit that added it (``git blame`` on
    BAD), each removed line to the commit that removed it (``git blame
    --reverse`` on GOOD gives the last commit that still had it; its child
    toward BAD removed it). A new or deleted text file counts all its lines.
    One blame per file and direction, whatever the number of changes in it.
    A change with no lines (binary, mode, rename, symlink) is credited with
    (0, 0) to the newest commit of the range that touched its path.
    """
    added: dict[str, dict[int, int]] = {}    # BAD path -> line -> change id
    removed: dict[str, dict[int, int]] = {}  # GOOD path -> line -> change id
    credits: Credits = {}
    for change in changes:
        fd = diff.files[change.file]
        plus, minus = _changed_lines(change, fd.old, fd.new)
        for line in plus:
            added.setdefault(fd.new_path or "", {})[line] = change.id
        for line in minus:
            removed.setdefault(fd.old_path or "", {})[line] = change.id
        if not plus and not minus:
            sha = _newest_touching(repo, diff, fd.new_path or fd.old_path or change.path)
            if sha is not None:
                credits.setdefault(change.id, {})[sha] = (0, 0)
    span = f"{diff.good}..{diff.bad}"
    for path, lines in added.items():
        for line, sha in _blame(repo, span, path, lines, reverse=False).items():
            _credit(credits, lines[line], sha, 1, 0)
    graph = _Graph(repo, span) if removed else None
    for path, lines in removed.items():
        assert graph is not None
        for line, remover in graph.removers(diff.good, diff.bad, path, lines).items():
            _credit(credits, lines[line], remover, 0, 1)
    return credits


def _credit(credits: Credits, change: int, sha: str, added: int, removed: int) -> None:
    per_commit = credits.setdefault(change, {})
    was_added, was_removed = per_commit.get(sha, (0, 0))
    per_commit[sha] = (was_added + added, was_removed + removed)


def _changed_lines(change: Change, old: FileState | None,
                   new: FileState | None) -> tuple[list[int], list[int]]:
    """(lines added in BAD's file, lines removed from GOOD's file), 1-based."""
    if change.kind is ChangeKind.HUNK and change.hunk is not None:
        hunk = change.hunk
        removed, added = changed_lines(hunk.text, hunk.old_start, hunk.new_start)
        return sorted(added), sorted(removed)
    if change.kind is ChangeKind.ADD and _is_text(new):
        assert new is not None
        return list(range(1, _count_lines(new.data) + 1)), []
    if change.kind is ChangeKind.DELETE and _is_text(old):
        assert old is not None
        return [], list(range(1, _count_lines(old.data) + 1))
    return [], []


def _is_text(state: FileState | None) -> bool:
    return (state is not None and state.mode & _TYPE_MASK == _REGULAR_TYPE
            and b"\0" not in state.data[:_TEXT_PROBE])


def _count_lines(data: bytes) -> int:
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def _blame(repo: Path, span: str, path: str, lines: Iterable[int], *,
           reverse: bool) -> dict[int, str]:
    """line -> commit for the given lines of ``path``: one ``git blame --porcelain``.

    Forward, lines are BAD's and the commit added the line (lines GOOD already
    had are left out); with ``reverse``, lines are GOOD's and the commit is
    the last one that still had the line.
    """
    ranges = _ranges(sorted(set(lines)))
    args = ["blame", "--porcelain", *(["--reverse"] if reverse else [])]
    if len(ranges) <= _MANY_RANGES:
        args += [f"-L{first},{last}" for first, last in ranges]
    out = git(repo, *args, span, "--", path, check=False)
    found: dict[int, str] = {}
    boundary: set[str] = set()
    current = ""
    for row in out.split(b"\n"):
        if row.startswith(b"\t"):
            continue
        match = _BLAME_HEADER.match(row)
        if match:
            current = match.group(1).decode("ascii")
            found[int(match.group(2))] = current
        elif row == b"boundary":
            boundary.add(current)
    wanted = set(lines)
    return {line: sha for line, sha in found.items()
            if line in wanted and (reverse or sha not in boundary)}


def _ranges(lines: list[int]) -> list[tuple[int, int]]:
    """Sorted line numbers as (first, last) runs."""
    runs: list[tuple[int, int]] = []
    for line in lines:
        if runs and runs[-1][1] == line - 1:
            runs[-1] = (runs[-1][0], line)
        else:
            runs.append((line, line))
    return runs


class _Graph:
    """The commits of a range with their parents and children, to find who removed a line."""

    def __init__(self, repo: Path, span: str) -> None:
        self.repo = repo
        out = os.fsdecode(git(repo, "rev-list", "--parents", "--reverse", "--topo-order",
                              span))
        self.parents: dict[str, list[str]] = {}
        self.children: dict[str, list[str]] = {}
        for row in out.splitlines():
            child, *parents = row.split()
            self.parents[child] = parents
            for number, parent in enumerate(parents):
                siblings = self.children.setdefault(parent, [])
                siblings.insert(len(siblings) if number else 0, child)  # first-parent first

    def removers(self, good: str, tip: str, path: str, lines: Iterable[int],
                 depth: int = 0) -> dict[int, str]:
        """GOOD's line -> the commit of good..tip that removed it.

        ``git blame --reverse`` names the last commit that had the line; a
        child of it removed it (when there are several, the one whose own
        reverse blame still ends at that commit). When the remover is a merge,
        the merge only took the removal from another parent: the removal is
        looked for on that parent's side (a few merges deep).
        """
        by_holder: dict[str, list[int]] = {}
        for line, holder in _blame(self.repo, f"{good}..{tip}", path, lines,
                                   reverse=True).items():
            if holder != tip and self.children.get(holder):
                by_holder.setdefault(holder, []).append(line)
        found: dict[int, str] = {}
        via_merge: dict[str, list[int]] = {}  # another parent of the merge -> its lines
        reach: set[str] | None = None
        if any(len(self.children[holder]) > 1 for holder in by_holder):
            reach = set(os.fsdecode(git(self.repo, "rev-list", f"{good}..{tip}")).split())
        for holder, held in by_holder.items():
            for line, remover in self._child_removing(good, holder, path, held, reach).items():
                found[line] = remover
                others = [p for p in self.parents[remover] if p != holder]
                if others and depth < _MERGE_DEPTH:
                    via_merge.setdefault(others[0], []).append(line)
        for parent, merged in via_merge.items():
            found.update(self.removers(good, parent, path, merged, depth + 1))
        return found

    def _child_removing(self, good: str, holder: str, path: str, lines: list[int],
                        reach: set[str] | None) -> dict[int, str]:
        """Which child of ``holder`` (among those in ``reach``) lacks each line; of
        several, a commit before a merge (which may only have taken the removal in),
        and the first-parent child before the others."""
        children = [c for c in self.children[holder] if reach is None or c in reach]
        if not children:
            return {}
        found = dict.fromkeys(lines, children[0])
        if len(children) > 1:
            ranked = sorted(children, key=lambda c: (len(self.parents[c]) == 1,
                                                     c == children[0]))
            for child in ranked:  # the last to claim a line keeps it
                ended = _blame(self.repo, f"{good}..{child}", path, lines, reverse=True)
                found.update({line: child for line, last in ended.items() if last == holder})
        return found


def _newest_touching(repo: Path, diff: Diff, path: str) -> str | None:
    log = os.fsdecode(git(repo, "log", "-1", "--format=%H", f"{diff.good}..{diff.bad}",
                          "--", path, check=False)).split()
    return log[0] if log else None
