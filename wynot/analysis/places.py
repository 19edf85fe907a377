"""Where a line of a tested configuration comes from.

The scratch worktree holds GOOD with some hunks spliced in by line number
(:mod:`wynot.patch`), so line 40 of a file there may be line 40 of GOOD, line
31 of GOOD, or a line that an applied hunk brought. An error reported at that
line is repaired by a different change in each case. :func:`place` maps a
path and line as a tool printed them back to the diff. Pure.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from wynot.analysis.lexical import changed_lines
from wynot.changes import ChangeKind, Diff, FileDiff

LEAD = 3  # lines before an applied hunk that ``place(..., context=True)`` gives to it


@dataclass(frozen=True, slots=True)
class Place:
    """A line of a configuration's file: the file's index in the diff, and the
    change whose lines it is (``applied``: a line the change added; not
    applied: a GOOD line the change removes or rewrites), or None for a line
    no change touches, a hunk's context line included (or ``line`` 0: the
    file as a whole)."""

    file: int
    change: int | None
    applied: bool


def file_for(diff: Diff, path: str) -> int | None:
    """The file of the diff that ``path`` names: the longest diff path that ends
    ``path`` on a component boundary (an absolute path in a scratch worktree
    ends with the repository path); None when there is none or two fit equally."""
    path = path.replace("\\", "/")
    best: tuple[int, int] | None = None  # (length, index)
    tied = False
    for fd in diff.files:
        for candidate in {p for p in (fd.old_path, fd.new_path) if p}:
            if path == candidate or path.endswith("/" + candidate):
                if best is None or len(candidate) > best[0]:
                    best, tied = (len(candidate), fd.index), False
                elif len(candidate) == best[0] and best[1] != fd.index:
                    tied = True
    return None if best is None or tied else best[1]


def place(diff: Diff, applied: AbstractSet[int], path: str, line: int,
          context: bool = False) -> Place | None:
    """The change at ``line`` (1-based) of ``path`` in the configuration ``applied``;
    with ``context``, a context line of an applied hunk is that hunk's too, and
    so are the :data:`LEAD` lines before it: a statement split over lines, the
    error reported at its head (a function's name, its parameters below it,
    rewritten by the hunk)."""
    index = file_for(diff, path)
    if index is None:
        return None
    fd = diff.files[index]
    whole = _whole_file_change(fd, applied)
    if whole is not None:
        return Place(index, whole[0], whole[1])
    if line <= 0:
        return Place(index, None, False)
    row = line - 1  # 0-based, in the configuration's version of the file
    delta = 0  # lines the applied hunks above added (or removed, if negative)
    for change in sorted((c for c in fd.changes if c.hunk is not None),
                         key=lambda c: c.hunk.old_start if c.hunk else 0):
        hunk = change.hunk
        assert hunk is not None
        first = hunk.old_start if hunk.old_len == 0 else hunk.old_start - 1
        removed, added = changed_lines(hunk.text, hunk.old_start, hunk.new_start)
        if change.id in applied:
            if row < first + delta:
                if context and row >= first + delta - LEAD:  # the statement's head
                    return Place(index, change.id, True)
                break
            if row < first + delta + hunk.new_len:  # a context line is nobody's
                bad_line = (hunk.new_start if hunk.new_len else hunk.new_start + 1) + (
                    row - first - delta)
                return Place(index, change.id, True) if context or bad_line in added else (
                    Place(index, None, False))
            delta += hunk.new_len - hunk.old_len
        elif first <= row - delta < first + hunk.old_len:
            good_line = row - delta + 1
            return Place(index, change.id, False) if good_line in removed else Place(
                index, None, False)
    return Place(index, None, False)


def good_line(diff: Diff, applied: AbstractSet[int], path: str,
              line: int) -> tuple[int, int] | None:
    """(file index, GOOD line) of ``line`` of ``path`` in the configuration ``applied``,
    when that line is GOOD's own (outside every applied hunk); None for a line an
    applied hunk holds, a file one change stands for whole, or a path not in the diff."""
    index = file_for(diff, path)
    if index is None or line <= 0:
        return None
    fd = diff.files[index]
    if _whole_file_change(fd, applied) is not None:
        return None
    row, delta = line - 1, 0
    for change in sorted((c for c in fd.changes if c.hunk is not None and c.id in applied),
                         key=lambda c: c.hunk.old_start if c.hunk else 0):
        hunk = change.hunk
        assert hunk is not None
        first = hunk.old_start if hunk.old_len == 0 else hunk.old_start - 1
        if row < first + delta:
            break
        if row < first + delta + hunk.new_len:
            return None
        delta += hunk.new_len - hunk.old_len
    return index, row - delta + 1


def _whole_file_change(fd: FileDiff, applied: AbstractSet[int]) -> tuple[int, bool] | None:
    """(change, applied) when one change stands for the whole content of the file."""
    for change in fd.changes:
        if change.kind in (ChangeKind.ADD, ChangeKind.CONTENT, ChangeKind.TYPE):
            if change.id in applied or change.kind is not ChangeKind.ADD:
                return change.id, change.id in applied
            return change.id, False
    return None
