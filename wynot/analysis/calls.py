"""Whether a Python call fits a function's signature (pure).

A release that reorders ``Option(opts, dest, obj=None)`` into
``Option(obj, opts, dest)``, or drops the default of ``globs=None``, breaks
every call written for the old shape, and the calls rewritten for the new
shape break on the old one. :mod:`wynot.analysis.python` reads, from one
side's syntax tree, each function's :class:`Signature` with the lines it
spans, and each call's :class:`Call` (how many positional arguments, which
keywords) with the lines it starts its arguments on, into :class:`Shapes`;
:mod:`wynot.analysis.depends` ties a change that
reshapes a function to the changes whose calls one shape breaks
(:func:`broken_by`).

Functions are named as calls name them: a method by its own name, with
``self`` left out; ``__init__`` by its class's name. Calls that unpack a
sequence (``*args``) are left out: their shape is unknown. A call that
unpacks a mapping (``**kwargs``) is kept, with its keywords open: it may
pass any other keyword.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from wynot.analysis.compact import reduce


@dataclass(frozen=True, slots=True)
class Call:
    function: str           # the called name (last dotted part)
    positional: int         # positional arguments passed
    keywords: frozenset[str]
    open_keywords: bool = False  # unpacks a mapping: more keywords may come

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce(self)


@dataclass(frozen=True, slots=True)
class Signature:
    positional: tuple[str, ...]  # positional parameters in order (self/cls of methods out)
    required: int                # how many of the first of them have no default
    varargs: bool
    keyword_only: frozenset[str]
    required_keywords: frozenset[str]
    varkw: bool
    owner: str = ""              # the class of a method, through which other files see it

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce(self)

    def accepts(self, call: Call) -> bool:
        """Whether the call binds to this signature without a TypeError."""
        if call.positional > len(self.positional) and not self.varargs:
            return False
        bound_positionally = set(self.positional[:call.positional])
        if not bound_positionally.isdisjoint(call.keywords):
            return False  # "got multiple values for argument"
        named = set(self.positional) | self.keyword_only
        if not self.varkw and not call.keywords <= named:
            return False  # "got an unexpected keyword argument"
        missing = set(self.positional[call.positional:self.required]) | self.required_keywords
        return call.open_keywords or missing <= call.keywords


def broken_by(call: Call, shape: Signature, other: Signature) -> bool:
    """Whether ``call``, which works with ``shape``, breaks when it becomes ``other``.

    It fits ``shape`` and either does not fit ``other``, or one of its
    positional arguments binds in ``other`` to another parameter while the
    one it binds to in ``shape`` sits elsewhere in ``other`` (a parameter
    inserted before it, or the order changed). A parameter that is only
    renamed moves nothing.
    """
    if not shape.accepts(call):
        return False
    if not other.accepts(call):
        return True
    return any(mine != theirs and mine in other.positional
               for mine, theirs in zip(shape.positional[:call.positional], other.positional,
                                       strict=False))


class Shapes:
    """The signatures and calls of one side of a file, by the lines they span."""

    def __init__(self, signatures: Iterable[tuple[frozenset[int], str, Signature]],
                 calls: Iterable[tuple[frozenset[int], Call]]) -> None:
        self.signatures: dict[int, list[tuple[str, Signature]]] = {}
        self.calls: dict[int, list[Call]] = {}
        for spans, name, signature in signatures:  # a def's lines up to its body
            for line in spans:
                self.signatures.setdefault(line, []).append((name, signature))
        for spans, call in calls:  # the lines a call starts its arguments on
            for line in spans:
                self.calls.setdefault(line, []).append(call)

    def signatures_on(self, lines: Iterable[int]) -> dict[str, Signature]:
        """Functions whose ``def`` lines touch ``lines``; a name defined twice there is left out."""
        found: dict[str, Signature] = {}
        twice: set[str] = set()
        for line in lines:
            for name, signature in self.signatures.get(line, ()):
                if found.get(name, signature) != signature:
                    twice.add(name)
                found[name] = signature
        return {name: sig for name, sig in found.items() if name not in twice}

    def calls_on(self, lines: Iterable[int]) -> frozenset[Call]:
        return frozenset(call for line in lines for call in self.calls.get(line, ()))


def decorated(node: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """Whether the function has the decorator ``@name``."""
    return any(isinstance(d, ast.Name) and d.id == name for d in node.decorator_list)


def signature_of(a: ast.arguments, *, drop_first: bool, owner: str) -> Signature:
    positional = [arg.arg for arg in (*a.posonlyargs, *a.args)]
    if drop_first and positional:
        positional = positional[1:]
    required = max(0, len(positional) - len(a.defaults))
    return Signature(
        positional=tuple(positional), required=required, varargs=a.vararg is not None,
        keyword_only=frozenset(arg.arg for arg in a.kwonlyargs),
        required_keywords=frozenset(
            arg.arg for arg, default in zip(a.kwonlyargs, a.kw_defaults, strict=True)
            if default is None),
        varkw=a.kwarg is not None, owner=owner)


def call_of(node: ast.Call) -> Call | None:
    func = node.func
    name = func.id if isinstance(func, ast.Name) else (
        func.attr if isinstance(func, ast.Attribute) else None)
    if name is None:
        return None
    for arg in node.args:
        if isinstance(arg, ast.Starred):
            return None
    keywords = node.keywords
    if not keywords:
        return _plain_call(name, len(node.args))
    return Call(name, len(node.args), frozenset(k.arg for k in keywords if k.arg),
                open_keywords=any(k.arg is None for k in keywords))


@functools.lru_cache(maxsize=1 << 14)
def _plain_call(function: str, positional: int) -> Call:
    """A call that passes no keyword, made once: the many calls of one shape (most
    calls pass none) share one value."""
    return Call(function, positional, frozenset())


def call_starts(node: ast.Call) -> frozenset[int]:
    """The lines a call names its function and starts each argument on."""
    lines = [arg.lineno for arg in node.args]
    lines.append(node.func.end_lineno or node.lineno)
    if node.keywords:
        lines.extend([keyword.lineno for keyword in node.keywords])
    return frozenset(lines)
