"""What Python's ``ast`` tells about one side of a file, and about a hunk (pure).

:func:`analyse_python` parses one side of a Python file once and walks the
top-level statements around its hunks twice: one walk (:func:`_walk_calls`)
collects the parameters of every ``def`` and the keywords of every call by
line, and the signatures and call shapes
(:class:`~wynot.analysis.calls.Shapes`); the other (:func:`_walk_names`)
follows scopes: the names each function and class binds and where they are
read, and each scope's line span for grouping. The result,
:class:`PythonSide`, is a plain value (no syntax tree in it), so it can be
kept and pickled.

The ``hunk_*`` functions read a hunk's changed lines against both sides.
"""

from __future__ import annotations

import ast
from collections import Counter, deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from wynot.analysis.calls import (
    Call,
    Shapes,
    Signature,
    call_of,
    call_starts,
    decorated,
    signature_of,
)
from wynot.analysis.lexical import Pairs, changed_lines, leading_context, span
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


def analyse_python(data: bytes,
                   spans: Sequence[tuple[int, int]] | None = None) -> PythonSide | None:
    """Parse once and read everything; None if the side does not parse.

    ``spans``: (first, last) line ranges that will be asked about (the hunks
    of this side); only the top-level statements that touch one are walked.
    Everything a hunk's analysis reads lies in the statements around its
    lines (its enclosing functions and classes).
    """
    tree = python_tree(data)
    if tree is None:
        return None
    if spans is not None:
        tree = ast.Module(body=[s for s in tree.body if _touches(s, spans)], type_ignores=[])
    params, keywords, found = _walk_calls(tree)
    uses, bound, scopes = _walk_names(tree)
    return PythonSide(params, keywords, found, uses, bound, scopes)


def _touches(statement: ast.stmt, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether a statement (with its decorators) overlaps one of the line ranges."""
    decorators = getattr(statement, "decorator_list", [])
    first = min([statement.lineno, *(d.lineno for d in decorators)])
    last = statement.end_lineno or statement.lineno
    return any(start <= last and first <= end for start, end in spans)


def shapes(tree: ast.Module) -> Shapes:
    """Every function signature and every call of known shape in a syntax tree."""
    return _walk_calls(tree)[2]


# Fields that hold no node the walks look at: names, numbers, and the context
# and operator singletons (a third of a tree's nodes).
_SKIPPED_FIELDS = frozenset({"ctx", "op", "ops", "name", "id", "attr", "arg", "module",
                             "asname", "type_comment", "kind", "level", "conversion",
                             "is_async", "simple", "tag"})
_FIELDS: dict[type, tuple[str, ...]] = {}


def _children(node: ast.AST) -> list[ast.AST]:
    """The child nodes of ``node`` in :func:`ast.iter_child_nodes`' order, without
    the context and operator singletons; faster than it."""
    kind = type(node)
    fields = _FIELDS.get(kind)
    if fields is None:
        fields = _FIELDS[kind] = tuple(f for f in kind._fields if f not in _SKIPPED_FIELDS)
    found: list[ast.AST] = []
    for field in fields:
        value = getattr(node, field, None)
        if type(value) is list:
            found.extend(item for item in value if isinstance(item, ast.AST))
        elif isinstance(value, ast.AST):
            found.append(value)
    return found


def _walk(tree: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``tree`` breadth first, as :func:`ast.walk` yields them, without
    the context and operator singletons."""
    todo = deque([tree])
    while todo:
        node = todo.popleft()
        todo.extend(_children(node))
        yield node


def _walk_calls(tree: ast.Module) -> tuple[dict[int, Pairs], dict[int, Pairs], Shapes]:
    """Parameters and keywords by line, and signatures and call shapes, in one walk.

    Parameters are (function, parameter) and keyword arguments (called
    function, keyword), the function named by its last dotted part.
    """
    params: dict[int, Pairs] = {}
    keywords: dict[int, Pairs] = {}
    signatures: list[tuple[frozenset[int], str, Signature]] = []
    calls: list[tuple[frozenset[int], Call]] = []
    methods: dict[ast.AST, str] = {}  # a def directly in a class body -> the class name
    for node in _walk(tree):  # breadth first: a class comes before its methods
        if isinstance(node, ast.ClassDef):
            for child in node.body:
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    methods[child] = node.name
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            a = node.args
            for arg in (*a.posonlyargs, *a.args, a.vararg, *a.kwonlyargs, a.kwarg):
                if arg is not None and arg.arg not in ("self", "cls"):
                    params.setdefault(arg.lineno, set()).add((node.name, arg.arg))
            owner = methods.get(node)
            name = owner if owner is not None and node.name == "__init__" else node.name
            bound = owner is not None and not decorated(node, "staticmethod")
            lines = frozenset(range(node.lineno, max(node.lineno + 1, node.body[0].lineno)))
            signatures.append((lines, name, signature_of(a, drop_first=bound,
                                                         owner=owner or "")))
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else None)
            for keyword in node.keywords:
                if called and keyword.arg:
                    keywords.setdefault(keyword.lineno, set()).add((called, keyword.arg))
            call = call_of(node)
            if call is not None:
                calls.append((frozenset(call_starts(node)), call))
    return params, keywords, Shapes(signatures, calls)


def _walk_names(tree: ast.Module) -> tuple[dict[int, set[tuple[str, str, bool]]],
                                            dict[str, frozenset[str]], list[Scope]]:
    """The names of each function and class scope, where they are used, and the scopes.

    Functions are named by their dotted path (``Parser.parse``); a nested
    function is a function of its own. A class is a scope too, named
    ``class Parser``: its names are what its body assigns, its methods, and
    the attributes its methods assign through their first parameter
    (``self.config = config``); ``self.config`` in a method is a use there.
    """
    uses: dict[int, set[tuple[str, str, bool]]] = {}
    bound: dict[str, frozenset[str]] = {}
    members: dict[str, set[str]] = {}
    found: list[Scope] = []
    scopes = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
    statements = ast.stmt | ast.excepthandler | ast.match_case

    def visit(node: ast.AST, prefix: str, owner: str = "", nested: bool = False) -> None:
        """``nested``: ``node`` is inside a statement (a def in an ``if`` is no scope
        for grouping)."""
        for child in _children(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef
                          | ast.ClassDef) and not nested:
                found.append((child.lineno, child.end_lineno or child.lineno,
                              prefix + child.name))
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                if owner:
                    members[owner].add(child.name)
                enter(child, f"{prefix}{child.name}", owner, nested)
            elif isinstance(child, ast.ClassDef):
                key = f"class {prefix}{child.name}"
                members[key] = set()
                for statement in child.body:
                    targets = (statement.targets if isinstance(statement, ast.Assign) else
                               [statement.target] if isinstance(statement, ast.AnnAssign) else [])
                    for target in targets:
                        if isinstance(target, ast.Name):
                            members[key].add(target.id)
                            uses.setdefault(target.lineno, set()).add((key, target.id, True))
                visit(child, f"{prefix}{child.name}.", key, nested)
                bound[key] = frozenset(members.pop(key))
            elif isinstance(child, statements):  # a def is a statement: skip expressions
                visit(child, prefix, owner, True)

    def enter(node: ast.FunctionDef | ast.AsyncFunctionDef, name: str, owner: str,
              nested: bool) -> None:
        names = set()
        for parameter in _walk(node.args):
            if isinstance(parameter, ast.arg):
                names.add(parameter.arg)
                uses.setdefault(parameter.lineno, set()).add((name, parameter.arg, True))
        first = (node.args.posonlyargs + node.args.args)[:1]
        me = first[0].arg if owner and first and not decorated(node, "staticmethod") else ""
        todo: list[ast.AST] = list(node.body)
        while todo:
            current = todo.pop()
            if isinstance(current, scopes):
                if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(current.name)
                continue
            if isinstance(current, ast.Name):
                store = not isinstance(current.ctx, ast.Load)
                uses.setdefault(current.lineno, set()).add((name, current.id, store))
                if store:
                    names.add(current.id)
            elif (me and isinstance(current, ast.Attribute)
                  and isinstance(current.value, ast.Name) and current.value.id == me):
                store = not isinstance(current.ctx, ast.Load)
                uses.setdefault(current.lineno, set()).add((owner, current.attr, store))
                if store:
                    members[owner].add(current.attr)
            elif isinstance(current, ast.alias):
                names.add(current.asname or current.name.split(".")[0])
            elif isinstance(current, ast.ExceptHandler) and current.name:
                names.add(current.name)
            todo.extend(_children(current))
        bound[name] = frozenset(names)
        visit(node, f"{name}.", nested=nested)

    visit(tree, "")
    return uses, bound, found


def enclosing(hunk: Hunk, old: PythonSide) -> str:
    """The innermost def or class around a hunk's first changed line ('' if none)."""
    first_changed = hunk.old_start + leading_context(hunk.text)
    inside = [name for start, end, name in old.scopes if start <= first_changed <= end]
    return inside[-1] if inside else ""


def hunk_signatures(hunk: Hunk, old: PythonSide,
                    new: PythonSide) -> tuple[Pairs, Pairs, Pairs, Pairs]:
    """(old params, new params, old keywords, new keywords) on a hunk's changed lines."""
    removed, added = changed_lines(hunk.text, hunk.old_start, hunk.new_start)

    def on(lines: set[int], by_line: dict[int, Pairs]) -> Pairs:
        return {pair for n in lines for pair in by_line.get(n, ())}

    return (on(removed, old.params), on(added, new.params),
            on(removed, old.keywords), on(added, new.keywords))


def hunk_shapes(hunk: Hunk, old: PythonSide, new: PythonSide) -> tuple[
        frozenset[tuple[str, Signature, Signature]], frozenset[Call], frozenset[Call]]:
    """(functions reshaped, calls removed, calls added) by a hunk."""
    removed, added = changed_lines(hunk.text, hunk.old_start, hunk.new_start)
    # A signature the hunk edits on one side only (a parameter deleted) is
    # found on the other side within the hunk's lines, context included.
    old_span, new_span = span(hunk.old_start, hunk.old_len), span(hunk.new_start, hunk.new_len)
    edited_old, edited_new = old.shapes.signatures_on(removed), new.shapes.signatures_on(added)
    before = {**old.shapes.signatures_on(old_span), **edited_old}
    after = {**new.shapes.signatures_on(new_span), **edited_new}
    reshaped = frozenset((name, before[name], after[name]) for name in edited_old | edited_new
                         if name in before and name in after and before[name] != after[name])
    # Likewise a call whose argument lines the hunk only deletes or only adds.
    removed_calls, added_calls = old.shapes.calls_on(removed), new.shapes.calls_on(added)
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


def hunk_names(hunk: Hunk, old: PythonSide, new: PythonSide) -> HunkNames:
    """Names of function and class scopes on a hunk's changed lines.

    A name is *newly bound* when BAD's scope binds it and GOOD's, which
    exists, does not; *unbound* the other way round. A read belongs to the
    innermost enclosing function that binds the name (a nested function
    reads its parent's locals); ``self.name`` to the method's class.
    """
    removed, added = changed_lines(hunk.text, hunk.old_start, hunk.new_start)

    def local(lines: set[int], here: PythonSide,
              there: PythonSide) -> tuple[LocalNames, LocalNames]:
        """(names bound here and not there, names read), for the scopes on ``lines``."""
        seen = [entry for n in lines for entry in here.uses.get(n, ())]
        reads = {(_owner(f, name, here.bound), name) for f, name, store in seen if not store}
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
