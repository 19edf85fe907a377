"""BAD's side of a Python file parsed without the statements no hunk touches (pure).

The analysis of a Python file walks only the top-level statements around its
hunks (:func:`wynot.analysis.python.analyse_python`), yet parsing a side
costs in proportion to the whole file. GOOD's side is parsed whole (its
statements' bounds are what this module reads); :func:`parse_bad` parses
BAD's side with the lines of GOOD's untouched top-level statements blanked
(emptied, so that every other line keeps its number), and gives the tree of
the whole side without those statements: the same nodes, at the same lines
and columns, for every statement the analysis walks.

A statement is blanked only where that is sure to hold: its lines are GOOD's
lines unchanged, it shares no line with another statement, no line continues
into it or out of it with a backslash, no asked span (the hunks' lines, a
line wider) touches it, and it lies after the file's first two lines (an
encoding declaration) and after every ``__future__`` (the future imports
stay). The blanked parse is kept only if it succeeds and none of its
statements reaches into a blanked range (a touched line that continues an
indented block, a bracket or a string across the range would read otherwise
in the whole side); else the whole side is parsed, as without this module.
Files with carriage returns (other line numbers) are parsed whole.
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Sequence
from itertools import pairwise

from wynot.analysis.python import first_line, python_tree
from wynot.changes import Hunk

Lines = tuple[int, int]  # first and last line, 1-based, inclusive


def parse_bad(good_tree: ast.Module, good: bytes, bad: bytes, hunks: Sequence[Hunk],
              spans: Sequence[Lines]) -> ast.Module | None:
    """BAD's syntax tree for the statements ``spans`` (BAD's line ranges) touch, as
    a parse of the whole side gives them, or None if the side does not parse.

    ``good_tree``: the parse of ``good``; ``hunks``: the file's hunks. Statements
    no span touches may be missing from the tree.
    """
    ranges = untouched(good_tree, good, bad, hunks, spans)
    if ranges:
        tree = python_tree(blank(bad, ranges))
        if tree is not None and clear_of(tree, ranges):
            return tree
    return python_tree(bad)


def untouched(good_tree: ast.Module, good: bytes, bad: bytes, hunks: Sequence[Hunk],
              spans: Sequence[Lines]) -> list[Lines]:
    """BAD's line ranges that hold GOOD's top-level statements which may be blanked
    (see the module's docstring), in order, adjacent ones merged."""
    if b"\r" in good or b"\r" in bad or b"barry_as_FLUFL" in good + bad:
        return []
    good_lines, bad_lines = good.split(b"\n"), bad.split(b"\n")
    future = bad.rfind(b"__future__")
    after = max(3, bad.count(b"\n", 0, future) + 2 if future >= 0 else 0)  # first line allowed
    bounds = [(first_line(s), s.end_lineno or s.lineno) for s in good_tree.body]
    order = sorted(hunks, key=lambda h: h.old_start)
    old_spans = [(h.old_start - 1, h.old_start + h.old_len + 1) for h in order]
    spans = sorted(spans)
    if any(a[1] > b[1] for a, b in (*pairwise(spans), *pairwise(old_spans))):
        return []  # not a file's hunks in order: _meets could not search them
    shifts = [0]  # BAD's lines minus GOOD's after the first k hunks
    for h in order:
        shifts.append(shifts[-1] + h.new_len - h.old_len)
    starts = [h.old_start for h in order]
    ranges: list[Lines] = []
    for k, (first, last) in enumerate(bounds):
        if (k and bounds[k - 1][1] >= first) or (k + 1 < len(bounds)
                                                 and bounds[k + 1][0] <= last):
            continue  # shares a line with another statement
        if _meets(old_spans, first, last):
            continue
        shift = shifts[bisect.bisect_left(starts, first)]
        start, end = first + shift, last + shift
        if (start < after or end > len(bad_lines) or _meets(spans, start, end)
                or bad_lines[start - 1:end] != good_lines[first - 1:last]
                or bad_lines[start - 2].rstrip().endswith(b"\\")
                or bad_lines[end - 1].rstrip().endswith(b"\\")):
            continue
        if ranges and ranges[-1][1] + 1 == start:
            ranges[-1] = (ranges[-1][0], end)
        else:
            ranges.append((start, end))
    return ranges


def blank(data: bytes, ranges: Sequence[Lines]) -> bytes:
    """``data`` with the lines of ``ranges`` emptied (their line breaks kept)."""
    lines = data.split(b"\n")
    for start, end in ranges:
        lines[start - 1:end] = [b""] * (end - start + 1)
    return b"\n".join(lines)


def clear_of(tree: ast.Module, ranges: Sequence[Lines]) -> bool:
    """Whether no top-level statement of ``tree`` reaches into one of ``ranges``
    (sorted, disjoint)."""
    ends = [end for _, end in ranges]
    for statement in tree.body:
        first, last = first_line(statement), statement.end_lineno or statement.lineno
        k = bisect.bisect_left(ends, first)  # the first range that ends at or after it
        if k < len(ranges) and ranges[k][0] <= last:
            return False
    return True


def _meets(spans: Sequence[Lines], first: int, last: int) -> bool:
    """Whether one of ``spans`` (sorted; as a file's hunks, neither starts nor ends
    go back) overlaps lines ``first`` to ``last``."""
    k = bisect.bisect_left(spans, first, key=lambda span: span[1])
    return k < len(spans) and spans[k][0] <= last
