"""What Python's ``ast`` tells about one side of a file, and about a hunk (pure).

:func:`analyse_python` parses one side of a Python file once and walks the
top-level statements around its hunks once
(:class:`~wynot.analysis.pyread.SideReader`), visiting each node once for two
readings: the parameters of every ``def`` and the keywords of every call by
line, with the signatures and call shapes
(:class:`~wynot.analysis.calls.Shapes`); and the scopes: the names each
function and class binds and where they are read, and each scope's line span
for grouping. A walk over the statements alone finds what Python does not
evaluate (:mod:`wynot.analysis.runtime`). The result, :class:`PythonSide`,
is a plain value (no syntax tree in it), so it can be kept and pickled.

The ``hunk_*`` functions read a hunk's changed lines against both sides.
"""

from __future__ import annotations

import ast
import bisect
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from wynot.analysis.calls import (
    Call,
    Shapes,
    Signature,
)
from wynot.analysis.lexical import Changed, Pairs, changed_lines, leading_context
from wynot.analysis.pyread import SideReader
from wynot.analysis.runtime import NOTHING_INERT, Inert, postponed, read_inert
from wynot.changes import Hunk

# How many times a side was parsed: the analysis of a diff parses each side once.
PARSES: Counter[str] = Counter()

Scope = tuple[int, int, str]  # (first line, last line, dotted name)
LocalNames = frozenset[tuple[str, str]]


def python_tree(data: bytes) -> ast.Module | None:
    """The syntax tree of a Python file, or None if it does not parse."""
    PARSES["python"] += 1
    try:
        return ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # not Python, or too deep
        return None


@dataclass(frozen=True, slots=True)
class PythonSide:
    """One side of a Python file: signatures, calls, scopes and names, by line."""

    params: dict[int, Pairs]  # (function, parameter) by line
    keywords: dict[int, Pairs]  # (called function, keyword) by line
    shapes: Shapes
    uses: dict[int, set[tuple[str, str, bool]]]  # by line: (scope, name, bound there)
    bound: dict[str, frozenset[str]]  # each scope's names
    scopes: list[Scope]  # every def and class, outer before inner
    inert: Inert = NOTHING_INERT  # names not evaluated, lines never run (wynot.analysis.runtime)


def analyse_python(data: bytes,
                   spans: Sequence[tuple[int, int]] | None = None) -> PythonSide | None:
    """Parse once and read everything; None if the side does not parse.

    ``spans``: (first, last) line ranges that will be asked about (the hunks
    of this side); only the top-level statements that touch one are walked,
    and only the calls that start an argument on one of their lines are
    read. Everything a hunk's analysis reads lies in the statements around
    its lines (its enclosing functions and classes).
    """
    tree = python_tree(data)
    if tree is None:
        return None
    future = postponed(tree)
    if spans is not None:
        tree = ast.Module(body=_touching(tree.body, spans), type_ignores=[])
    asked = None if spans is None else frozenset(
        itertools.chain.from_iterable(range(start, end + 1) for start, end in spans))
    return _side(SideReader(tree, asked), read_inert(tree.body, future=future))


def whole_file_inert(data: bytes) -> Inert:
    """What Python does not evaluate in a whole file (one added or deleted), by the
    line numbers of ``data.splitlines()``; nothing when it does not parse or when
    ``splitlines`` counts lines otherwise than Python (a form feed, a lone CR)."""
    tree = python_tree(data)
    text = data.decode("utf-8", errors="replace")
    if tree is None or len(text.splitlines()) != len(text.split("\n")) - text.endswith("\n"):
        return NOTHING_INERT
    return read_inert(tree.body, future=postponed(tree))


def _touching(statements: list[ast.stmt],
              spans: Sequence[tuple[int, int]]) -> list[ast.stmt]:
    """The statements (with their decorators) that overlap one of the line ranges,
    in their order.

    A statement overlaps a range that starts by its last line and ends at or
    after its first: the ranges sorted by their start, a binary search finds
    those that start by its last line and the furthest end among them says
    whether one reaches it (a file's many hunks: no pass over every range for
    every statement)."""
    ordered = sorted(spans)
    starts = [start for start, _ in ordered]
    reach = list(itertools.accumulate((end for _, end in ordered), max))
    found = []
    for statement in statements:
        decorators = getattr(statement, "decorator_list", None)
        first = min(statement.lineno, *(d.lineno for d in decorators)) if decorators \
            else statement.lineno
        last = statement.end_lineno or statement.lineno
        before = bisect.bisect_right(starts, last)
        if before and reach[before - 1] >= first:
            found.append(statement)
    return found


def _side(reader: SideReader, inert: Inert = NOTHING_INERT) -> PythonSide:
    reader.read()
    return PythonSide(reader.params, reader.keywords, Shapes(reader.signatures, reader.calls),
                      reader.uses, reader.bound, reader.found, inert)


def shapes(tree: ast.Module) -> Shapes:
    """Every function signature and every call of known shape in a syntax tree."""
    return _side(SideReader(tree)).shapes


def enclosing(hunk: Hunk, old: PythonSide) -> str:
    """The innermost def or class around a hunk's first changed line ('' if none)."""
    first_changed = hunk.old_start + leading_context(hunk.text)
    inside = [name for start, end, name in old.scopes if start <= first_changed <= end]
    return inside[-1] if inside else ""


def hunk_signatures(hunk: Hunk, old: PythonSide, new: PythonSide,
                    lines: Changed | None = None) -> tuple[Pairs, Pairs, Pairs, Pairs]:
    """(old params, new params, old keywords, new keywords) on a hunk's changed lines.

    ``lines``: the hunk's :func:`~wynot.analysis.lexical.changed_lines`, when the
    caller has them (likewise below).
    """
    removed, added = lines or changed_lines(hunk.text, hunk.old_start, hunk.new_start)

    def on(lines: set[int], by_line: dict[int, Pairs]) -> Pairs:
        return {pair for n in lines for pair in by_line.get(n, ())}

    return (on(removed, old.params), on(added, new.params),
            on(removed, old.keywords), on(added, new.keywords))


def hunk_shapes(hunk: Hunk, old: PythonSide, new: PythonSide,
                lines: Changed | None = None) -> tuple[
        frozenset[tuple[str, Signature, Signature]], frozenset[Call], frozenset[Call]]:
    """(functions reshaped, calls removed, calls added) by a hunk."""
    removed, added = lines or changed_lines(hunk.text, hunk.old_start, hunk.new_start)
    # A signature the hunk edits on one side only (a parameter deleted) is
    # found on the other side within the hunk's lines, context included.
    # (The hunk's whole spans are read only where its changed lines hold a
    # signature or a call: most hunks have neither.)
    old_span = range(hunk.old_start, hunk.old_start + hunk.old_len)  # as lexical.span, unbuilt
    new_span = range(hunk.new_start, hunk.new_start + hunk.new_len)
    edited_old, edited_new = old.shapes.signatures_on(removed), new.shapes.signatures_on(added)
    reshaped: frozenset[tuple[str, Signature, Signature]] = frozenset()
    if edited_old or edited_new:
        before = {**old.shapes.signatures_on(old_span), **edited_old}
        after = {**new.shapes.signatures_on(new_span), **edited_new}
        reshaped = frozenset((name, before[name], after[name]) for name in edited_old | edited_new
                             if name in before and name in after and before[name] != after[name])
    # Likewise a call whose argument lines the hunk only deletes or only adds.
    removed_calls, added_calls = old.shapes.calls_on(removed), new.shapes.calls_on(added)
    if not (removed_calls or added_calls):
        return reshaped, removed_calls, added_calls
    called = {c.function for c in removed_calls | added_calls}
    return (reshaped,
            removed_calls | {c for c in old.shapes.calls_on(old_span) if c.function in called},
            added_calls | {c for c in new.shapes.calls_on(new_span) if c.function in called})


@dataclass(frozen=True, slots=True)
class HunkNames:
    """What a Python hunk does to the names of function and class scopes."""

    bound: LocalNames = frozenset()  # (scope, name) newly bound on added lines
    read: LocalNames = frozenset()  # (scope, name) read on added lines
    unbound: LocalNames = frozenset()  # no longer bound in the scope
    read_old: LocalNames = frozenset()  # read on removed lines


def hunk_names(hunk: Hunk, old: PythonSide, new: PythonSide,
               lines: Changed | None = None) -> HunkNames:
    """Names of function and class scopes on a hunk's changed lines.

    A name is *newly bound* when BAD's scope binds it and GOOD's, which
    exists, does not; *unbound* the other way round. A read belongs to the
    innermost enclosing function that binds the name (a nested function
    reads its parent's locals); ``self.name`` to the method's class.
    """
    removed, added = lines or changed_lines(hunk.text, hunk.old_start, hunk.new_start)

    def local(lines: set[int], here: PythonSide,
              there: PythonSide) -> tuple[LocalNames, LocalNames]:
        """(names bound here and not there, names read), for the scopes on ``lines``."""
        seen = [entry for n in lines for entry in here.uses.get(n, ())]
        reads = {(_owner(f, name, here.bound), name)
                 for f, name in {(f, name) for f, name, store in seen if not store}}
        return (frozenset((f, name) for f, name, store in seen
                          if store and f in there.bound and name not in there.bound[f]),
                frozenset((f, name) for f, name in reads if f))

    bound, read = local(added, new, old)
    unbound, read_old = local(removed, old, new)
    return HunkNames(bound=bound, read=read, unbound=unbound, read_old=read_old)


def _owner(function: str, name: str, bound: dict[str, frozenset[str]]) -> str:
    """The scope whose ``name`` a read in ``function`` refers to ('' if none of them).

    A function reads its own locals or an enclosing function's; a class
    scope's names (``self.config``) are its own, else inherited or unknown.
    """
    if function.startswith("class "):
        return function if name in bound.get(function, ()) else ""
    while function:
        if name in bound.get(function, ()):
            return function
        function = function.rpartition(".")[0]
    return ""
