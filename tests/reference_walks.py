"""The Python walks as they were before they became one (a reference for tests).

:func:`wynot.analysis.python.analyse_python` reads a side in one walk; these
two walks (one for calls and signatures, one for scopes and names) are the
earlier reading, kept here only so that a test can check that the one walk
finds exactly what they found.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator

from wynot.analysis.calls import (
    Call,
    Shapes,
    Signature,
    call_of,
    call_starts,
    decorated,
    signature_of,
)
from wynot.analysis.lexical import Pairs

Scope = tuple[int, int, str]


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


def walk_calls(tree: ast.Module) -> tuple[dict[int, Pairs], dict[int, Pairs], Shapes]:
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


def walk_names(tree: ast.Module) -> tuple[dict[int, set[tuple[str, str, bool]]],
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
