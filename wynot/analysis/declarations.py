"""What code declares, and where: in C and C++ locals, parameters, struct members,
macros, typedefs, enumerators, prototypes and definitions; in the other
languages with a grammar here (Python aside), what their outline reads.

A compiler's ``'offset' undeclared`` in function ``ini_parse`` is repaired by
the change that declares ``offset`` in that function (or in the file, or a
header), not by every change that mentions it. :func:`hunk_declarations`
gives, for one hunk, the declarations its added lines bring and the ones its
removed lines take away, each as (scope, name): the scope is the enclosing
function's name, ``struct NAME`` (``union``, ``class``) for a member, or ''
at file level. Pure; uses :mod:`wynot.analysis.treesitter`.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from wynot.analysis.cfunctions import declared_identifier
from wynot.analysis.lexical import changed_texts
from wynot.analysis.treesitter import Scope, file_language, outline, parse
from wynot.changes import Change, FileDiff

Declared = frozenset[tuple[str, str]]  # (scope, name)
# How a declaration's line changed, its name left out: for each differing run of
# tokens, (GOOD's tokens, BAD's tokens). ``constraintTilde(v *Version)`` and
# ``cfunc func(v *Version)`` both given ``, pre bool`` are retyped alike.
Edit = tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]
_TOKEN = re.compile(r"\w+|[^\w\s]")


class HunkDeclarations(NamedTuple):
    """What one hunk does to declarations, each (scope, name)."""

    added: Declared  # declared by its added lines and not by its removed lines
    removed: Declared  # declared by its removed lines and no longer
    rewritten: Declared = frozenset()  # declared by both: a declaration's line
    # rewritten (a signature, a type), which a call or use that no longer fits names
    edits: frozenset[tuple[str, Edit]] = frozenset()  # (name, how the line
    # declaring it changed, the name left out: :func:`line_edit`) of each rewritten
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


def _walk(node: Any, scope: str, parameters: bool = True) -> Iterator[tuple[int, str, str]]:
    """The declarations under ``node``, in ``scope``; ``parameters``: whether a
    parameter list here declares its names (a definition's, in its function's
    scope), not a prototype's, whose names are visible nowhere."""
    kind = node.type
    inner = scope
    if kind == "parameter_list" and not parameters:
        return
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
        if kind != "parameter_declaration":  # a prototype, a member function declared
            parameters = False
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
    if kind == "function_definition":
        parameters = True
    for child in node.children:
        yield from _walk(child, inner, parameters)


def _text(node: Any) -> str:
    return bytes(node.text).decode("utf-8", errors="replace").rsplit("::", 1)[-1]


@functools.lru_cache(maxsize=128)
def outline_declarations(language: str, source: bytes) -> tuple[tuple[int, str, str], ...]:
    """(1-based line, scope, name) of every declaration the tree-sitter outline of
    ``source`` reads (Java, JavaScript, TypeScript, Go, Rust): a function,
    method or type is in the scope around the one it opens (``upper`` of class
    ``Parser``), anything else in the innermost function or type around its
    line; () if unparsable."""
    side = outline(language, source)
    if side is None:
        return ()
    found: set[tuple[int, str, str]] = set()
    scopes = iter(side.scopes)  # by first line, outer before inner
    pending = next(scopes, None)
    around: list[Scope] = []  # the scopes around ``line``, outer before inner
    for line in sorted(side.declared):  # one sweep: linear in lines and scopes
        around = [scope for scope in around if scope[1] >= line]
        while pending is not None and pending[0] <= line:
            if pending[1] >= line:
                around.append(pending)
            pending = next(scopes, None)
        for name in side.declared[line]:
            opened = next((s for s in around if s[0] == line
                           and s[2].rpartition(".")[2] == name), None)
            if opened is not None:
                scope = opened[2].rpartition(".")[0].rpartition(".")[2]
            else:
                inner = [s for s in around if s[0] < line or s[2].rpartition(".")[2] != name]
                scope = inner[-1][2].rpartition(".")[2] if inner else ""
            found.add((line, scope, name))
    return tuple(sorted(found))


def hunk_declarations(change: Change, fd: FileDiff) -> HunkDeclarations:
    """What a hunk of a file in a language with a grammar here other than Python's
    (whose analysis reads its own) declares, no longer declares and rewrites;
    nothing otherwise."""
    language = file_language(fd)
    if (change.hunk is None or language is None or language == "python" or fd.old is None
            or fd.new is None):
        return HunkDeclarations(frozenset(), frozenset())
    read = declarations if language in C_LANGUAGES else outline_declarations
    hunk = change.hunk
    before, after = changed_texts(hunk.text, hunk.old_start, hunk.new_start)
    old = {(s, n): line for line, s, n in read(language, fd.old.data) if line in before}
    new = {(s, n): line for line, s, n in read(language, fd.new.data) if line in after}
    rewritten = old.keys() & new.keys()
    edits: set[tuple[str, Edit]] = set()
    for scope, name in rewritten:
        edit = line_edit(before[old[scope, name]], after[new[scope, name]], name)
        if edit:
            edits.add((name, edit))
    return HunkDeclarations(frozenset(new.keys() - old.keys()), frozenset(old.keys() - new.keys()),
                            frozenset(rewritten), frozenset(edits))


def line_edit(before: str, after: str, name: str) -> Edit:
    """How a line declaring ``name`` changed, without the name: the runs of
    tokens that differ, each with what replaced it; () if only the name did.
    Two declarations of different names given the same new parameter (or
    return type) have the same edit."""
    old = [t for t in _TOKEN.findall(before) if t != name]
    new = [t for t in _TOKEN.findall(after) if t != name]
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return tuple((tuple(old[i1:i2]), tuple(new[j1:j2]))
                 for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal")
