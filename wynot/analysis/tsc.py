"""The TypeScript compiler's error output read as diagnostics.

``tsc`` prints an error on one line, in one of two shapes: plain (its default
when the output is not a terminal) and ``--pretty`` (a terminal's, or
asked for), which quotes the line below it and adds the places of related
information, indented (the declaration a call does not fit)::

    src/main.ts(6,11): error TS2554: Expected 2 arguments, but got 1.
    src/main.ts:6:11 - error TS2554: Expected 2 arguments, but got 1.
      src/lib/util.ts:5:33

:func:`tsc_diagnostics` reads a name, kind and qualifier from the messages
that name what is missing (a name, a module's export, a type's property, a
module), and keeps any other error nameless at its line (a type that no
longer fits, a call whose arguments do not, with the declaration's place
when the output gives it). The related places are the message's own spans.
Linear in the output. Pure.
"""

from __future__ import annotations

import re
from dataclasses import replace

from wynot.analysis.diagnostics import MAX_FRAMES, Diagnostic, Location, keep, output_lines

MARK = "error TS"  # output without it has no TypeScript error

_SOURCE = r"([^\s(:][^(:]*\.[cm]?[jt]sx?)"
_PLAIN = re.compile(rf"{_SOURCE}\((\d+),\d+\): error TS\d+: (.*)")
_PRETTY = re.compile(rf"{_SOURCE}:(\d+):\d+ - error TS\d+: (.*)")
_RELATED = re.compile(rf"  {_SOURCE}:(\d+):\d+$")
_N = r"([A-Za-z_$][\w$]*)"

# (pattern, kind, group of the name, group of the qualifier or 0), on the message
_MESSAGES: tuple[tuple[re.Pattern[str], str, int, int], ...] = tuple(
    (re.compile(p), kind, name, qualifier) for p, kind, name, qualifier in (
        (rf"Cannot find name '{_N}'", "undefined", 1, 0),  # TS2304, TS2552
        (rf"(?:Module )?'\"([^\"]+)\"' has no exported member (?:named )?'{_N}'", "import",
         2, 1),  # TS2305, TS2724, TS2614
        (rf"Property '{_N}' does not exist on type 'typeof import\(\"([^\"]+)\"\)'", "member",
         1, 2),  # a module's export read through its namespace: TS2339, TS2551
        (rf"Property '{_N}' does not exist on type '(?:typeof )?{_N}", "member", 1, 2),
        (r"Cannot find module '([^']+)'", "import", 1, 0),  # TS2307
        (r"Expected \d+(?:-\d+)? arguments?, but got \d+()", "signature", 1, 0),  # TS2554
    ))


def tsc_diagnostics(output: str) -> list[Diagnostic]:
    """The errors tsc reports in ``output``, in order, without repeats."""
    found: dict[Diagnostic, None] = {}  # in order, each once
    current: Diagnostic | None = None  # the error whose related places are being read
    for line in output_lines(output):
        head = _PLAIN.match(line) or _PRETTY.match(line)
        if head is not None:
            keep(found, current)
            where = Location(head.group(1), int(head.group(2)))
            current = replace(_message(head.group(3)), locations=(where,))
            continue
        related = _RELATED.match(line) if current is not None else None
        if related is not None and current is not None and len(
                current.locations) < MAX_FRAMES:
            where = Location(related.group(1), int(related.group(2)))
            current = replace(current, locations=(*current.locations, where), spans=True)
    keep(found, current)
    return list(found)


def _message(text: str) -> Diagnostic:
    """What an error's message names (no place yet); nameless when it names
    nothing missing."""
    for pattern, kind, name_group, qualifier_group in _MESSAGES:
        match = pattern.search(text)
        if match is None:
            continue
        name = match.group(name_group)
        qualifier = _module(match.group(qualifier_group)) if qualifier_group else ""
        if kind == "import" and not qualifier:  # a module itself: its last part
            qualifier, _, name = _module(name).rpartition(".")
        return Diagnostic(name, kind, qualifier)
    return Diagnostic("", "syntax")


def _module(specifier: str) -> str:
    """A module as a dotted name: ``./lib/util`` -> ``lib.util``; an absolute path
    (``typeof import("/w/src/lib/util")``) by its last part, ``util``."""
    if specifier.startswith("/"):
        return specifier.rsplit("/", 1)[-1]
    parts = [p for p in specifier.split("/") if p not in (".", "..", "")]
    return ".".join(parts) if all(p.replace("-", "_").isidentifier() for p in parts) else (
        specifier)
