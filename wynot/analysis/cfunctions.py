"""C and C++ function signatures, and which of them a hunk changes.

A release that changes a function's parameters changes its prototype (in a
header) and its definition in separate hunks, and either without the other
does not compile: ``conflicting types for 'f'``. The signature compared is
the one the compiler checks: the return type and each parameter's type,
without the parameters' names and without top-level qualifiers (``cJSON *
const item`` declares the same parameter type as ``cJSON *item``), spaces
normalised.

:func:`read_functions` reads one parsed side (its prototypes and
definitions); :func:`retyped` gives those one hunk retypes. Pure; the trees
come from :mod:`wynot.analysis.treesitter`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

# (first line, last line, name, signature) of a declarator; 1-based lines
Function = tuple[int, int, str, str]

_DECLARATORS = ("init_declarator", "pointer_declarator", "array_declarator",
                "function_declarator", "parenthesized_declarator", "reference_declarator")
# What a function declarator may be called: C++ names an operator, a destructor, or
# a member defined outside its class (``Options::parse``: only its last part counts,
# since the class body declares it unqualified).
_NAMES = ("identifier", "field_identifier", "qualified_identifier", "operator_name",
          "destructor_name")
_HOLDERS = ("declaration", "function_definition", "field_declaration")
_WRAPPERS = ("pointer_declarator", "reference_declarator", "parenthesized_declarator")
_QUALIFIERS = re.compile(r"\b(?:const|volatile|restrict|__restrict|__restrict__)\b")
_SPACE = re.compile(r"\s+")
_PUNCT_SPACE = re.compile(r"\s*([*&(),\[\]])\s*")


@dataclass(frozen=True, slots=True)
class Functions:
    """One side's function declarators (empty for other languages)."""

    declared: tuple[Function, ...] = ()


NO_FUNCTIONS = Functions()


def read_functions(declarators: Iterable[Any]) -> Functions:
    """The prototypes and definitions among tree-sitter's ``function_declarator``
    nodes of one side, as a query captured them."""
    found = [f for node in declarators if (f := _function(node)) is not None]
    return Functions(tuple(sorted(set(found))))


def retyped(old: Functions, new: Functions, removed: set[int],
            added: set[int]) -> frozenset[tuple[str, str, str]]:
    """(name, GOOD's signature, BAD's) of each function whose declarator the hunk
    rewrites (a removed line in its GOOD declarator, an added one in its BAD
    one) to another signature; a name declared twice on one side, unpaired."""
    before = _touched(old.declared, removed)
    after = _touched(new.declared, added)
    return frozenset((name, sig, after[name]) for name, sig in before.items()
                     if name in after and after[name] != sig and sig and after[name])


def _touched(functions: tuple[Function, ...], lines: set[int]) -> dict[str, str]:
    """Name -> signature of the declarators that span one of ``lines`` (a name
    declared twice there, with different signatures, maps to '')."""
    touched: dict[str, str] = {}
    for first, last, name, sig in functions:
        if any(n in lines for n in range(first, last + 1)):
            touched[name] = sig if touched.get(name, sig) == sig else ""
    return touched


def _function(node: Any) -> Function | None:
    """A function declarator of a prototype or a definition (not a parameter's
    function pointer, not a call mistaken for one), as a :data:`Function`."""
    name_node = node.child_by_field_name("declarator")
    params = node.child_by_field_name("parameters")
    if name_node is None or params is None or name_node.type not in _NAMES:
        return None
    holder, stars = node.parent, ""
    while holder is not None and holder.type in _WRAPPERS:
        stars += "*" if holder.type == "pointer_declarator" else ""
        holder = holder.parent
    if holder is None or holder.type not in _HOLDERS:
        return None
    kind = holder.child_by_field_name("type")
    returns = _normal(_text(kind)) if kind is not None else ""
    types = [_parameter(p) for p in params.named_children if p.type != "comment"]
    name = _text(name_node).rsplit("::", 1)[-1]
    signature = f"{returns}{stars}({','.join(types)})"
    return node.start_point[0] + 1, node.end_point[0] + 1, name, signature


def _parameter(node: Any) -> str:
    """A parameter's type as the compiler compares it: no name, no top-level qualifier."""
    raw = bytes(node.text)
    default = node.child_by_field_name("default_value")  # C++: only the declaration has it
    if default is not None:
        raw = raw[:default.start_byte - node.start_byte].rstrip().removesuffix(b"=")
    name = declared_identifier(node.child_by_field_name("declarator"))
    if name is not None:
        start, end = name.start_byte - node.start_byte, name.end_byte - node.start_byte
        raw = raw[:start] + raw[end:]
    text = _normal(raw.decode("utf-8", errors="replace"))
    if any(mark in text for mark in "*&["):
        cut = max(text.rfind("*"), text.rfind("&"))
        if cut >= 0:  # qualifiers after the last '*' qualify the parameter itself
            text = text[:cut + 1] + _normal(_QUALIFIERS.sub("", text[cut + 1:]))
        return text
    return _normal(_QUALIFIERS.sub("", text))


def declared_identifier(node: Any) -> Any:
    """The identifier a declarator declares (through pointers, arrays, initialisers)."""
    while node is not None and node.type in _DECLARATORS:
        inner = node.child_by_field_name("declarator")
        if inner is None and node.type in _WRAPPERS and node.named_child_count:
            inner = node.named_children[-1]  # C++'s ``& name`` and ``(&name)`` name no field
        node = inner
    if node is not None and node.type in ("identifier", "field_identifier",
                                          "type_identifier", "qualified_identifier"):
        return node
    return None


def _normal(text: str) -> str:
    return _PUNCT_SPACE.sub(r"\1", _SPACE.sub(" ", text).strip())


def _text(node: Any) -> str:
    return bytes(node.text).decode("utf-8", errors="replace")
