"""Which lines run when a module loads, in languages linked at run time (pure).

In a language with a build step (C, C++, Java, Go, Rust) a use of a missing
name fails the build wherever the use is. In JavaScript a name is looked up
when the line that uses it runs: a missing function breaks the module's
loading only if the loading runs the use; inside a function body that the
module only defines, it fails when (and if) that function is called, and a
test that never calls it passes or fails as if nothing were missing.

:func:`deferred_spans` reads one side's tree-sitter tree and answers the
line spans inside function bodies that loading the module does not run:

* a function declaration (``function f() {}``, a generator, a class's
  method) and a function stored for later (the value of a variable, an
  assignment ``Parser.prototype.parse = function ...``, an object's
  property, a returned closure) are *deferred*;
* a function that is called where it stands (an immediately invoked wrapper,
  ``(function (root) { ... })(this)``), passed to a call (a factory handed to
  a module loader, a callback of ``forEach``), or anything else, runs when
  the code around it runs: it is taken to run (the safe side, since a
  predicted outcome must hold);
* a deferred function whose name the loading code calls (``new Slugger()``,
  ``merge({}, block)``, ``marked.setOptions(...)``) runs too, and so does
  what it calls, to a fixed point.

Only lines strictly inside a deferred body count: a body's first and last
lines also hold code around it (``x = function () {``, ``}(this));``).
Python's own reading of what runs is :mod:`wynot.analysis.runtime`.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

RUNTIME_LINKED = frozenset({"javascript"})  # tree-sitter languages run without a build step

Span = tuple[int, int]  # first and last line, 1-based, inclusive

# Function node types, and the parents under which a function is stored for later.
_FUNCTIONS = frozenset({
    "function_declaration", "generator_function_declaration", "function_expression",
    "function", "generator_function", "arrow_function", "method_definition",
})
_DECLARATIONS = frozenset({"function_declaration", "generator_function_declaration",
                           "method_definition"})
_STORED_IN = frozenset({"variable_declarator", "assignment_expression", "pair",
                        "return_statement", "export_statement", "field_definition",
                        "public_field_definition"})
_CALLS = frozenset({"call_expression", "new_expression"})


@dataclass(frozen=True, slots=True)
class _Function:
    parent: int | None  # index of the enclosing function, None at the module's top
    stored: bool        # declared or stored for later, not run where it stands
    name: str           # its name ('' if none): the declaration's, or what holds it
    inner: Span | None  # lines strictly inside its body (None: no such line)


def deferred_spans(tree: Any) -> tuple[Span, ...]:
    """The spans of lines inside function bodies that loading the module does not
    run (see the module's docstring), sorted, outermost only. ``tree``: a
    tree-sitter tree of a language in :data:`RUNTIME_LINKED`."""
    queries = _queries(tree.language)
    if queries is None:
        return ()
    cursor, functions_query, calls_query = queries
    nodes = cursor(functions_query).captures(tree.root_node).get("function", [])
    callees = cursor(calls_query).captures(tree.root_node).get("callee", [])
    # One sweep in byte order gives each function and call its enclosing function.
    events = sorted([(n.start_byte, -n.end_byte, 0, n) for n in nodes]
                    + [(n.start_byte, -n.end_byte, 1, n) for n in callees],
                    key=lambda e: e[:3])
    functions: list[_Function] = []
    calls: list[tuple[int | None, str]] = []  # (enclosing function, callee's name)
    open_functions: list[tuple[int, int]] = []  # (end byte, index)
    for start, _, kind, node in events:
        while open_functions and open_functions[-1][0] <= start:
            open_functions.pop()
        enclosing = open_functions[-1][1] if open_functions else None
        if kind == 1:
            calls.append((enclosing, _last_name(node)))
            continue
        open_functions.append((node.end_byte, len(functions)))
        functions.append(_describe(node, enclosing))
    running = _running(functions, calls)
    return tuple(sorted(f.inner for i, f in enumerate(functions)
                        if i not in running and f.inner is not None
                        and (f.parent is None or f.parent in running)))


@functools.cache
def _queries(language: Any) -> tuple[Any, Any, Any] | None:
    """A query cursor's class and the queries for functions and callees, for the
    node types the grammar has; None without function types."""
    ts = importlib.import_module("tree_sitter")
    kinds = {language.node_kind_for_id(i) for i in range(language.node_kind_count)
             if language.node_kind_is_named(i) and language.node_kind_is_visible(i)}
    functions = sorted(_FUNCTIONS & kinds)
    if not functions:
        return None
    calls = [f"({kind} {field}: (_) @callee)" for kind, field in
             (("call_expression", "function"), ("new_expression", "constructor"))
             if kind in kinds]
    return (ts.QueryCursor, ts.Query(language, "[" + " ".join(f"({k})" for k in functions)
                                     + "] @function"), ts.Query(language, " ".join(calls)))


def _describe(node: Any, enclosing: int | None) -> _Function:
    holder = node.parent
    while holder is not None and holder.type == "parenthesized_expression":
        holder = holder.parent
    stored = node.type in _DECLARATIONS or (holder is not None and holder.type in _STORED_IN)
    named = node.child_by_field_name("name")
    if named is None and holder is not None:
        named = holder.child_by_field_name(
            {"variable_declarator": "name", "assignment_expression": "left",
             "pair": "key"}.get(holder.type, ""))
    body = node.child_by_field_name("body")
    inner = None
    if body is not None and body.end_point[0] - body.start_point[0] >= 2:
        inner = (body.start_point[0] + 2, body.end_point[0])
    return _Function(parent=enclosing, stored=stored,
                     name=_last_name(named) if named is not None else "", inner=inner)


def _last_name(node: Any) -> str:
    """``f`` of ``f``, ``a.b.f`` and ``a.b['f']``; '' for anything else."""
    while node.type in ("member_expression", "subscript_expression", "parenthesized_expression"):
        field = {"member_expression": "property", "subscript_expression": "index"}.get(
            node.type)
        inner = node.child_by_field_name(field) if field else (
            node.named_children[0] if node.named_children else None)
        if inner is None:
            return ""
        node = inner
    text = node.text.decode("utf-8", errors="replace") if node.text else ""
    return text.strip("'\"`") if node.type in ("string", "identifier", "property_identifier",
                                                "private_property_identifier") else ""


def _running(functions: list[_Function], calls: Iterable[tuple[int | None, str]]) -> set[int]:
    """The functions that run while the module loads, to a fixed point: those run
    where they stand inside running code, and those running code calls by name."""
    running: set[int] = set()
    called: set[str] = set()
    by_caller: dict[int | None, set[str]] = {}
    for caller, name in calls:
        by_caller.setdefault(caller, set()).add(name)
    called |= by_caller.get(None, set())
    changed = True
    while changed:
        changed = False
        for i, f in enumerate(functions):
            if i in running or not (f.parent is None or f.parent in running):
                continue
            if not f.stored or (f.name and f.name in called):
                running.add(i)
                called |= by_caller.get(i, set())
                changed = True
    return running


def in_spans(line: int, spans: tuple[Span, ...]) -> bool:
    """Whether ``line`` lies in one of ``spans`` (sorted, not overlapping)."""
    low, high = 0, len(spans)
    while low < high:
        middle = (low + high) // 2
        if spans[middle][1] < line:
            low = middle + 1
        else:
            high = middle
    return low < len(spans) and spans[low][0] <= line
