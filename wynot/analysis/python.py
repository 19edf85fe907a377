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
from collections import Counter
from collections.abc import Sequence
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
from wynot.analysis.lexical import Changed, Pairs, changed_lines, leading_context, span
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
    of this side); only the top-level statements that touch one are walked,
    and only the calls that start an argument on one of their lines are
    read. Everything a hunk's analysis reads lies in the statements around
    its lines (its enclosing functions and classes).
    """
    tree = python_tree(data)
    if tree is None:
        return None
    if spans is not None:
        tree = ast.Module(body=[s for s in tree.body if _touches(s, spans)], type_ignores=[])
    asked = None if spans is None else frozenset(
        line for start, end in spans for line in range(start, end + 1))
    return _Reader(tree, asked).side()


def _touches(statement: ast.stmt, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether a statement (with its decorators) overlaps one of the line ranges."""
    decorators = getattr(statement, "decorator_list", [])
    first = min([statement.lineno, *(d.lineno for d in decorators)])
    last = statement.end_lineno or statement.lineno
    return any(start <= last and first <= end for start, end in spans)


def shapes(tree: ast.Module) -> Shapes:
    """Every function signature and every call of known shape in a syntax tree."""
    return _Reader(tree).side().shapes


# Fields that hold no node the walk looks at: names, numbers, constants, and the
# context and operator singletons (a third of a tree's nodes).
_SKIPPED_FIELDS = frozenset({"ctx", "op", "ops", "name", "id", "attr", "arg", "module",
                             "asname", "type_comment", "kind", "level", "conversion",
                             "is_async", "simple", "tag", "value"})
_VALUE_FIELD = frozenset({ast.Constant, ast.MatchSingleton})  # ``value`` is no node there
_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}
_STATEMENTS = (ast.stmt, ast.excepthandler, ast.match_case)
_NAMING = frozenset({ast.Name, ast.Attribute, ast.alias, ast.ExceptHandler})  # see _name
Where = tuple[str, str, bool]  # (dotted prefix, class scope, nested in a statement)


def _fields(kind: type[ast.AST]) -> tuple[str, ...]:
    """The fields of a node type that may hold child nodes, in their order."""
    fields = _FIELDS.get(kind)
    if fields is None:
        fields = _FIELDS[kind] = tuple(
            f for f in kind._fields
            if f not in _SKIPPED_FIELDS or (f == "value" and kind not in _VALUE_FIELD))
    return fields


class _Function:
    """The names a function binds, as the walk finds them in its arguments and body."""

    __slots__ = ("me", "name", "names", "owner")

    def __init__(self, name: str, owner: str, me: str) -> None:
        self.name, self.owner, self.me = name, owner, me
        self.names: set[str] = set()


class _Reader:
    """One walk over a syntax tree that visits each node once and reads both what
    calls and signatures say (parameters and keywords by line, :class:`Shapes`)
    and what scopes say (names bound and read, scope spans).

    The scope reading follows Python's scopes: a function's names are those
    its arguments and body bind, not those of the functions, classes and
    lambdas inside it, which are scopes of their own. Functions are named by
    their dotted path (``Parser.parse``); a class is named ``class Parser``:
    its names are what its body assigns, its methods, and the attributes its
    methods assign through their first parameter (``self.config = config``);
    ``self.config`` in a method is a use there. Scopes for grouping are the
    defs and classes not nested in another statement, outer before inner.
    """

    def __init__(self, tree: ast.Module, asked: frozenset[int] | None = None) -> None:
        self.tree, self.asked = tree, asked  # asked: the lines calls are read on (None: all)
        self.params: dict[int, Pairs] = {}
        self.keywords: dict[int, Pairs] = {}
        self.signatures: list[tuple[frozenset[int], str, Signature]] = []
        self.calls: list[tuple[frozenset[int], Call]] = []
        self.uses: dict[int, set[tuple[str, str, bool]]] = {}
        self.bound: dict[str, frozenset[str]] = {}
        self.members: dict[str, set[str]] = {}
        self.found: list[Scope] = []

    def side(self) -> PythonSide:
        for statement in self.tree.body:
            self._walk(statement, ("", "", False), None, None)
        return PythonSide(self.params, self.keywords, Shapes(self.signatures, self.calls),
                          self.uses, self.bound, self.found)

    def _walk(self, node: ast.AST, where: Where | None, body: _Function | None,
              arguments: _Function | None, cls: str | None = None) -> None:
        """Read ``node`` and its subtree. ``where``: the node sits among statements
        only, from the module down (defs and classes are found there); ``body``:
        the function whose body holds it (not across a nested scope);
        ``arguments``: the function whose arguments hold it; ``cls``: the name of
        the class whose body holds it directly."""
        kind = type(node)
        if kind is ast.Constant:  # the commonest leaves first
            return
        if kind is ast.Name:
            if body is not None:
                self._name(node, body)
            return
        if isinstance(node, ast.Call):
            self._call(node)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            self._function(node, where, body, cls)
            return
        elif isinstance(node, ast.ClassDef):
            self._class(node, where, body)
            return
        if body is not None:
            if kind is ast.Lambda:
                body = None  # a scope of its own
            elif kind in _NAMING:
                self._name(node, body)
        elif arguments is not None and isinstance(node, ast.arg):
            arguments.names.add(node.arg)
            self.uses.setdefault(node.lineno, set()).add((arguments.name, node.arg, True))
        if where is not None:
            where = (where[0], where[1], True) if isinstance(node, _STATEMENTS) else None
        fields = _FIELDS.get(kind)
        for field in fields if fields is not None else _fields(kind):
            value = getattr(node, field, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, ast.AST):
                        self._walk(item, where, body, arguments)
            elif isinstance(value, ast.AST):
                self._walk(value, where, body, arguments)

    def _name(self, node: ast.AST, body: _Function) -> None:
        """What a node in a function's body binds or reads."""
        if isinstance(node, ast.Name):
            store = not isinstance(node.ctx, ast.Load)
            self.uses.setdefault(node.lineno, set()).add((body.name, node.id, store))
            if store:
                body.names.add(node.id)
        elif (body.me and isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.value.id == body.me):
            store = not isinstance(node.ctx, ast.Load)
            self.uses.setdefault(node.lineno, set()).add((body.owner, node.attr, store))
            if store:
                self.members[body.owner].add(node.attr)
        elif isinstance(node, ast.alias):
            body.names.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            body.names.add(node.name)

    def _call(self, node: ast.Call) -> None:
        starts = frozenset(call_starts(node))  # the lines of its keywords among them
        if self.asked is not None and starts.isdisjoint(self.asked):
            return
        func = node.func
        called = func.id if isinstance(func, ast.Name) else (
            func.attr if isinstance(func, ast.Attribute) else None)
        for keyword in node.keywords:
            if called and keyword.arg:
                self.keywords.setdefault(keyword.lineno, set()).add((called, keyword.arg))
        call = call_of(node)
        if call is not None:
            self.calls.append((starts, call))

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, where: Where | None,
                  body: _Function | None, cls: str | None) -> None:
        """A def: its parameters and signature; as a scope, its names."""
        if body is not None:
            body.names.add(node.name)
        a = node.args
        for arg in (*a.posonlyargs, *a.args, a.vararg, *a.kwonlyargs, a.kwarg):
            if arg is not None and arg.arg not in ("self", "cls"):
                self.params.setdefault(arg.lineno, set()).add((node.name, arg.arg))
        method = cls is not None and not decorated(node, "staticmethod")
        lines = frozenset(range(node.lineno, max(node.lineno + 1, node.body[0].lineno)))
        self.signatures.append((lines, cls if cls is not None and node.name == "__init__"
                                else node.name,
                                signature_of(a, drop_first=method, owner=cls or "")))
        scope = inner = None
        if where is not None:
            prefix, owner, nested = where
            if not nested:
                self.found.append((node.lineno, node.end_lineno or node.lineno,
                                   prefix + node.name))
            if owner:
                self.members[owner].add(node.name)
            first = (a.posonlyargs + a.args)[:1]
            me = first[0].arg if owner and first and not decorated(node, "staticmethod") else ""
            scope = _Function(prefix + node.name, owner, me)
            inner = (f"{scope.name}.", "", nested)
        self._walk(a, None, None, scope)
        for statement in node.body:
            self._walk(statement, inner, scope, None)
        for expression in (*node.decorator_list, node.returns):
            if expression is not None:
                self._walk(expression, None, None, None)
        if scope is not None:
            self.bound[scope.name] = frozenset(scope.names)

    def _class(self, node: ast.ClassDef, where: Where | None, body: _Function | None) -> None:
        """A class: as a scope, what its body assigns and what its methods set."""
        if body is not None:
            body.names.add(node.name)
        key = inner = None
        if where is not None:
            prefix, owner, nested = where
            if not nested:
                self.found.append((node.lineno, node.end_lineno or node.lineno,
                                   prefix + node.name))
            key = f"class {prefix}{node.name}"
            self.members[key] = set()
            for statement in node.body:
                targets = (statement.targets if isinstance(statement, ast.Assign) else
                           [statement.target] if isinstance(statement, ast.AnnAssign) else [])
                for target in targets:
                    if isinstance(target, ast.Name):
                        self.members[key].add(target.id)
                        self.uses.setdefault(target.lineno, set()).add((key, target.id, True))
            inner = (f"{prefix}{node.name}.", key, nested)
        for expression in (*node.bases, *node.keywords):
            self._walk(expression, None, None, None)
        for statement in node.body:
            self._walk(statement, inner, None, None, node.name)
        for expression in node.decorator_list:
            self._walk(expression, None, None, None)
        if key is not None:
            self.bound[key] = frozenset(self.members.pop(key))


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
