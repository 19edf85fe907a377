"""One walk over one side's Python syntax tree for everything the analysis reads (pure).

:class:`SideReader` visits each node once and collects what
:class:`wynot.analysis.python.PythonSide` holds: parameters and keywords by
line, signatures and call shapes, the names each function and class scope
binds and where they are read, and the scopes' line spans.
"""

from __future__ import annotations

import ast
from typing import Any

from wynot.analysis.calls import Call, Signature, call_of, call_starts, decorated, signature_of
from wynot.analysis.lexical import Pairs

Scope = tuple[int, int, str]  # (first line, last line, dotted name)


# Fields that hold no node the walk looks at: names, numbers, constants, and the
# context and operator singletons (a third of a tree's nodes).
_SKIPPED_FIELDS = frozenset({"ctx", "op", "ops", "name", "id", "attr", "arg", "module",
                             "asname", "type_comment", "kind", "level", "conversion",
                             "is_async", "simple", "tag", "value"})
_VALUE_FIELD = frozenset({ast.Constant, ast.MatchSingleton})  # ``value`` is no node there
_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}


def _kinds(base: type[ast.AST]) -> set[type[ast.AST]]:
    """``base`` and every node type derived from it."""
    return {base}.union(*map(_kinds, base.__subclasses__()))


# Node types by identity (a parsed tree's nodes are of these exact types).
_STATEMENTS = frozenset(_kinds(ast.stmt) | _kinds(ast.excepthandler) | _kinds(ast.match_case))
_FUNCTIONS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef})
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


class SideReader:
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

    def read(self) -> None:
        """Walk the tree once; the readings are then in the attributes."""
        for statement in self.tree.body:
            self._walk(statement, ("", "", False), None, None)

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
        if kind is ast.Call:
            self._call(node)  # type: ignore[arg-type]
        elif kind in _FUNCTIONS:
            self._function(node, where, body, cls)  # type: ignore[arg-type]
            return
        elif kind is ast.ClassDef:
            self._class(node, where, body)  # type: ignore[arg-type]
            return
        if body is not None:
            if kind is ast.Lambda:
                body = None  # a scope of its own
            elif kind in _NAMING:
                self._name(node, body)
        elif arguments is not None and kind is ast.arg:
            arg: ast.arg = node  # type: ignore[assignment]
            arguments.names.add(arg.arg)
            self._use(arg.lineno, (arguments.name, arg.arg, True))
        if where is not None:
            where = (where[0], where[1], True) if kind in _STATEMENTS else None
        uses = self.uses
        fields = _FIELDS.get(kind)
        for field in fields if fields is not None else _fields(kind):
            value: Any = getattr(node, field, None)
            for item in value if type(value) is list else (value,):
                child = type(item)
                if child is ast.Name:  # two nodes in five: read here, as _name would
                    if body is not None:
                        store = not isinstance(item.ctx, ast.Load)
                        used = uses.get(item.lineno)
                        if used is None:
                            used = uses[item.lineno] = set()
                        used.add((body.name, item.id, store))
                        if store:
                            body.names.add(item.id)
                elif child is not ast.Constant and isinstance(item, ast.AST):
                    self._walk(item, where, body, arguments)

    def _use(self, line: int, use: tuple[str, str, bool]) -> None:
        used = self.uses.get(line)
        if used is None:
            used = self.uses[line] = set()
        used.add(use)

    def _name(self, node: ast.AST, body: _Function) -> None:
        """What a node in a function's body binds or reads."""
        if isinstance(node, ast.Name):
            store = not isinstance(node.ctx, ast.Load)
            self._use(node.lineno, (body.name, node.id, store))
            if store:
                body.names.add(node.id)
        elif (body.me and isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.value.id == body.me):
            store = not isinstance(node.ctx, ast.Load)
            self._use(node.lineno, (body.owner, node.attr, store))
            if store:
                self.members[body.owner].add(node.attr)
        elif isinstance(node, ast.alias):
            body.names.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            body.names.add(node.name)

    def _call(self, node: ast.Call) -> None:
        starts = call_starts(node)  # the lines of its keywords among them
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
        self._found(node, where, body)
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
        self._found(node, where, body)
        key = inner = None
        if where is not None:
            prefix, _, nested = where
            key = f"class {prefix}{node.name}"
            self.members[key] = set()
            for statement in node.body:
                targets = (statement.targets if isinstance(statement, ast.Assign) else
                           [statement.target] if isinstance(statement, ast.AnnAssign) else [])
                for target in targets:
                    if isinstance(target, ast.Name):
                        self.members[key].add(target.id)
                        self._use(target.lineno, (key, target.id, True))
            inner = (f"{prefix}{node.name}.", key, nested)
        for expression in (*node.bases, *node.keywords):
            self._walk(expression, None, None, None)
        for statement in node.body:
            self._walk(statement, inner, None, None, node.name)
        for expression in node.decorator_list:
            self._walk(expression, None, None, None)
        if key is not None:
            self.bound[key] = frozenset(self.members.pop(key))

    def _found(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
               where: Where | None, body: _Function | None) -> None:
        """A def or class: a name of the function whose body holds it, and a scope
        for grouping where no statement but a def or class holds it."""
        if body is not None:
            body.names.add(node.name)
        if where is not None and not where[2]:
            self.found.append((node.lineno, node.end_lineno or node.lineno,
                               where[0] + node.name))
