"""rustc's error output read as diagnostics.

rustc puts the message and the place on separate lines, unlike gcc::

    error[E0425]: cannot find function `helper` in this scope
      --> src/lib.rs:22:31

and adds ``note:`` sections with places of their own (``--> src/util.rs:7:8``,
the definition a call does not fit; ``::: path`` for another file) and
``help:`` sections that quote the lines a fix would change (``8 |     pub fn
bump(&mut self)``, ``22 - ...``). :func:`rustc_diagnostics` reads an error's
name, kind and qualifier from its message, its place from the first ``-->``
line, and adds the places of its notes and of the first line each help
quotes, innermost first. An error whose message names nothing keeps its
places, the line its help quotes first: that is where rustc says the fix
goes (``cannot borrow `*self` as mutable``, reported on a call in a method
body, is repaired by the hunk that rewrites ``&self`` in the method's
signature). Warnings are not read (rustc's are lints: unused names, style).
Linear in the output. Pure.
"""

from __future__ import annotations

import re
from dataclasses import replace

from wynot.analysis.diagnostics import MAX_FRAMES, Diagnostic, Location, output_lines

# a line of this shape is in the output of rustc (or of cargo, which passes it on)
MARK = "--> "

_HEAD = re.compile(r"(error|warning)(?:\[E\d{4}\])?: (.*)")
_ARROW = re.compile(r"\s*(?:-->|:::) ([^\s:][^:]*):(\d+)(?::\d+)?\s*$")
_QUOTED = re.compile(r"\s*(\d+) [|+~-]")  # a source line a help quotes, by number
_Q = "`"
_N = r"([A-Za-z_]\w*)"
_PATH = r"((?:[A-Za-z_]\w*::)*)"  # a module path before a name, `::` kept

# (pattern, kind, group of the name, group of the qualifier or 0), on the message
_MESSAGES: tuple[tuple[re.Pattern[str], str, int, int], ...] = tuple(
    (re.compile(p), kind, name, qualifier) for p, kind, name, qualifier in (
        # E0412, E0405 (and E0425 since 1.9x): a type or a trait
        (rf"cannot find (?:type|trait|trait alias) {_Q}{_N}{_Q} in (?:this scope|(?:module|"
         rf"crate) {_Q}{_PATH}(\w+){_Q})", "type", 1, 3),
        # E0425, E0422, E0423, E0531, macros: a function, value, macro, struct...
        (rf"cannot find [\w ,]+? {_Q}{_N}{_Q} in (?:this scope|(?:module|crate) "
         rf"{_Q}{_PATH}(\w+){_Q})", "undefined", 1, 3),
        # E0433: a module or crate not imported; a name not in the module given
        (rf"(?:cannot find module or crate|use of undeclared crate or module|use of "
         rf"unresolved module or unlinked crate) {_Q}{_N}{_Q}", "undefined", 1, 0),
        (rf"use of undeclared type {_Q}{_N}{_Q}", "type", 1, 0),
        (rf"(?:could not find|cannot find) {_Q}{_N}{_Q} in {_Q}{_PATH}(\w+){_Q}", "member",
         1, 3),
        # E0432
        (rf"unresolved import {_Q}{_PATH}{_N}{_Q}", "import", 2, 1),
        # E0599: a method or an associated item of a type (generics, references cut)
        (rf"no (?:method|function or associated item|variant or associated item|variant|"
         rf"associated item|associated function) named {_Q}{_N}{_Q} found for "
         rf"(?:[\w ]+ )?{_Q}(?:&(?:mut )?)?{_PATH}(\w+)", "member", 1, 3),
        (rf"no field {_Q}{_N}{_Q} on type {_Q}(?:&(?:mut )?)?{_PATH}(\w+)", "member", 1, 3),
        (rf"(?:struct|variant|union) {_Q}{_PATH}(\w+){_Q} has no field named {_Q}{_N}{_Q}",
         "member", 3, 2),
        (rf"method {_Q}{_N}{_Q} is not a member of trait {_Q}{_PATH}(\w+){_Q}", "member", 1, 3),
        # E0428: a name defined twice; a label marks the other definition
        (rf"the name {_Q}{_N}{_Q} is defined multiple times", "redefined", 1, 0),
        # E0061: a call that does not fit; the note gives the definition
        (r"this (?:function|method|enum variant|struct) takes \d+ (?:generic )?arguments? "
         r"but \d+ (?:generic )?arguments? (?:was|were) supplied()", "signature", 1, 0),
    ))


def rustc_diagnostics(output: str) -> list[Diagnostic]:
    """The errors rustc reports in ``output``, in order, without repeats."""
    found: dict[Diagnostic, None] = {}  # in order, each once
    current: Diagnostic | None = None  # the error being read: message, then places
    path = ""  # the file of the last place read: a help quotes lines of it
    helping = False  # a help section began; its first quoted line is a place
    helped: Location | None = None  # the first line a help of the error quotes
    for line in output_lines(output):
        head = _HEAD.match(line)
        if head is not None:
            _finish(found, current, helped)
            current = _message(head.group(2)) if head.group(1) == "error" else None
            helping, helped = False, None
            continue
        if current is None:
            continue
        arrow = _ARROW.match(line)
        if arrow is not None:
            path = arrow.group(1)
            current = _placed(current, Location(path, int(arrow.group(2))))
            continue
        if line.startswith("help:"):  # its quoted lines are of the error's file
            helping = True
            path = current.locations[0].path if current.locations else path
            continue
        quoted = _QUOTED.match(line) if helping and path else None
        if quoted is not None:
            helped = helped or Location(path, int(quoted.group(1)))
            current = _placed(current, helped)
            helping = False
    _finish(found, current, helped)
    return list(found)


def _message(text: str) -> Diagnostic | None:
    """The diagnostic an error's message says (no places yet); None for rustc's
    summary (``aborting due to 3 previous errors``)."""
    if text.startswith(("aborting due to", "could not compile")):
        return None
    for pattern, kind, name_group, qualifier_group in _MESSAGES:
        match = pattern.search(text)
        if match is None:
            continue
        qualifier = (match.group(qualifier_group) or "") if qualifier_group else ""
        if qualifier_group and kind != "import":
            qualifier = (match.group(qualifier_group - 1) or "") + qualifier
        return Diagnostic(match.group(name_group), kind, _module(qualifier))
    return Diagnostic("", "syntax")  # named nothing: its places say where


def _module(path: str) -> str:
    """``crate::global_rng::`` -> ``global_rng``: a Rust path as a dotted module name,
    without the crate-relative prefixes."""
    parts = [p for p in path.split("::") if p]
    while parts and parts[0] in ("crate", "self", "super"):
        parts = parts[1:]
    return ".".join(parts)


def _placed(diagnostic: Diagnostic, where: Location) -> Diagnostic:
    if where in diagnostic.locations or len(diagnostic.locations) >= MAX_FRAMES:
        return diagnostic
    return replace(diagnostic, locations=(*diagnostic.locations, where),
                   spans=bool(diagnostic.locations))  # a second place is one of its spans


def _finish(found: dict[Diagnostic, None], diagnostic: Diagnostic | None,
            helped: Location | None) -> None:
    """Keep an error once it is read whole: named, or placed (an error that
    names nothing at the line its help quotes first)."""
    if diagnostic is None or not (diagnostic.name or diagnostic.locations):
        return
    if helped is not None and not diagnostic.name:
        rest = tuple(loc for loc in diagnostic.locations if loc != helped)
        diagnostic = replace(diagnostic, locations=(helped, *rest))
    found.setdefault(diagnostic)

