"""What C and C++ code declares, and where: locals, parameters, struct members,
macros, typedefs, enumerators, prototypes and definitions.

A compiler's ``'offset' undeclared`` in function ``ini_parse`` is repaired by
the change that declares ``offset`` in that function (or in the file, or a
header), not by every change that mentions it. :func:`hunk_declarations`
gives, for one hunk, the declarations its added lines bring and the ones its
removed lines take away, each as (scope, name): the scope is the enclosing
function's name, ``struct NAME`` (``union``, ``class``) for a member, or ''
at file level. Pure; uses :mod:`wynot.analysis.treesitter`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from wynot.analysis.cfunctions import declared_identifier
from wynot.analysis.lexical import changed_lines
from wynot.analysis.treesitter import language_for, parse
from wynot.changes import Change, FileDiff

Declared = frozenset[tuple[str, str]]  # (scope, name)
_AGGREGATES = {"struct_specifier": "struct", "union_specifier": "union",
               "class_specifier": "class", "enum_specifier": "enum"}

C_LANGUAGES = ("c", "cpp")  # the grammars whose declarations _walk reads


@functools.lru_cache(maxsize=128)
def declarations(language: str, source: bytes) -> tuple[tuple[int, str, str], ...]:
    """(1-based line, scope, name) of every declaration in ``source``; () if unparsable."""
    tree = parse(language, source)
    if tree is None:
        return ()
    return tuple(sorted(set(_walk(tree.root_node, ""))))


def _walk(node: Any, scope: str) -> Iterator[tuple[int, str, str]]:
    kind = node.type
    inner = scope
    if kind == "function_definition":
        name = declared_identifier(node.child_by_field_name("declarator"))
        if name is not None:
            yield name.start_point[0] + 1, scope, _text(name)
            inner = _text(name)
    elif kind in ("declaration", "field_declaration", "parameter_declaration",
                  "type_definition"):
        for child in node.children_by_field_name("declarator"):
            name = declared_identifier(child)
            if name is not None:
                yield name.start_point[0] + 1, scope, _text(name)
    elif kind in ("preproc_def", "preproc_function_def", "enumerator"):
        name = node.child_by_field_name("name")
        if name is not None:
            yield name.start_point[0] + 1, "" if kind != "enumerator" else scope, _text(name)
    elif kind in _AGGREGATES:
        name = node.child_by_field_name("name")
        if name is not None and node.child_by_field_name("body") is not None:
            yield name.start_point[0] + 1, scope, _text(name)
            if kind != "enum_specifier":
                inner = f"{_AGGREGATES[kind]} {_text(name)}"
    for child in node.children:
        yield from _walk(child, inner)


def _text(node: Any) -> str:
    return bytes(node.text).decode("utf-8", errors="replace").rsplit("::", 1)[-1]


def hunk_declarations(change: Change, fd: FileDiff) -> tuple[Declared, Declared]:
    """(declared by the added lines and not before, declared by the removed lines and
    no longer): for a hunk of a C or C++ file; two empty sets otherwise."""
    language = language_for(fd.new_path or fd.old_path or "")
    if change.hunk is None or language not in C_LANGUAGES or fd.old is None or fd.new is None:
        return frozenset(), frozenset()
    hunk = change.hunk
    removed, added = changed_lines(hunk.text, hunk.old_start, hunk.new_start)
    old = {(s, n) for line, s, n in declarations(language, fd.old.data) if line in removed}
    new = {(s, n) for line, s, n in declarations(language, fd.new.data) if line in added}
    return frozenset(new - old), frozenset(old - new)
