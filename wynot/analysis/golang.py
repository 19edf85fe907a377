"""The Go toolchain's error output read as diagnostics.

``go build``, ``go vet``, ``go test`` and ``go run`` print a package's
compile errors under a line naming the package, each error on a line of its
own without the word ``error``, and details on tab-indented lines below (``<TAB>``)::

    # example.com/demo/pkg/util [example.com/demo/pkg/util.test]
    ./use.go:7:7: undefined: Missing
    ./use.go:9:9: p.Upper undefined (type Parser has no field or method Upper)
    pkg/util/util.go:9:6: Join redeclared in this block
    <TAB>pkg/util/use.go:14:6: other declaration of Join

Paths are relative to the directory go ran in: ``./use.go`` in the package's
own directory. Such a path is read under the package's import path (the
``#`` line), whose last parts are the package's directory in the repository
(:func:`wynot.analysis.places.file_for` matches the longest path it ends
with). :func:`go_diagnostics` reads a name, kind and qualifier from the
messages that name what is missing (an undefined name, qualified by its
package or by the type that lacks a field or method; a call with too few or
too many arguments, or a named value, that no longer fits its declaration;
a name declared twice, with the other declaration's place);
any other error is kept nameless at its line (an import or a variable no
longer used, an expression whose type no longer fits), with the places
its detail lines give as the message's own spans. Linear in the output. Pure.
"""

from __future__ import annotations

import re
from dataclasses import replace

from wynot.analysis.diagnostics import MAX_FRAMES, Diagnostic, Location, keep, output_lines

MARK = ".go:"  # output without it has no Go compile error

# path.go:LINE:COL: at a line's start (a failing Go test's own lines,
# path_test.go:LINE: message, have no column)
_PLACE = r"(?:vet: )?([^\s:][^:\n]*\.go):(\d+):\d+: "
_ERROR = re.compile(_PLACE + "(.*)")
COMPILE_ERROR = re.compile("(?m)^" + _PLACE)  # searched for in a whole output
_PACKAGE = re.compile(r"# (\S+)")
_DETAIL = re.compile(r"\t(?:([^\s:][^:]*\.go):(\d+):\d+: )?(.*)")
_N = r"([A-Za-z_]\w*)"
_TYPE = rf"\*?(?:\w+\.)?{_N}"  # a type as go prints it: *util.Parser -> Parser

# (pattern, kind, group of the name, group of the qualifier or 0), matched at the
# start of the message
_MESSAGES: tuple[tuple[re.Pattern[str], str, int, int], ...] = tuple(
    (re.compile(p), kind, name, qualifier) for p, kind, name, qualifier in (
        (rf"undefined: {_N}\.{_N}$", "member", 2, 1),  # a name its package lacks
        (rf"undefined: {_N}$", "undefined", 1, 0),
        (rf"{_N} not declared by package {_N}", "member", 1, 2),  # go vet's wording
        (rf".*?\.{_N} undefined \(type {_TYPE} has no (?:field or )?method {_N}",
         "member", 1, 2),
        (rf"(?:not enough|too many) arguments in call to (?:[\w.]+\.)?{_N}", "signature", 1, 0),
        # a value whose type no longer fits where it is used: its declaration changed
        (rf"cannot use {_N} \((?:value|variable|constant) of type", "signature", 1, 0),
        (rf"unknown field '?{_N}'? in struct literal of type {_TYPE}", "member", 1, 2),
        # a name declared twice in a package; the detail line gives the other
        (rf"{_N} redeclared in this block", "redefined", 1, 0),
    ))
# a detail line: a type that lacks a method an interface asks for (1.19's
# wording, then later versions')
_MISSING = re.compile(rf"{_TYPE} does not implement [\w.*]+ \(missing (?:method {_N}|"
                      rf"{_N} method)\)")


def go_diagnostics(output: str) -> list[Diagnostic]:
    """The compile errors go reports in ``output``, in order, without repeats."""
    found: dict[Diagnostic, None] = {}  # in order, each once
    current: Diagnostic | None = None  # the error whose detail lines are being read
    package = ""  # the import path of the package whose errors follow
    for line in output_lines(output):
        header = _PACKAGE.match(line)
        if header is not None:
            keep(found, current)
            current, package = None, header.group(1)
            continue
        error = _ERROR.match(line)
        if error is not None:
            keep(found, current)
            where = Location(_path(error.group(1), package), int(error.group(2)))
            current = replace(_message(error.group(3)), locations=(where,))
            continue
        detail = _DETAIL.match(line) if current is not None else None
        if detail is None or current is None:
            keep(found, current)
            current = None
            continue
        missing = _MISSING.search(detail.group(3)) if not current.name else None
        if missing is not None:  # the type and the method it lacks
            current = replace(current, name=missing.group(2) or missing.group(3),
                              kind="member", qualifier=missing.group(1))
        if detail.group(1) is not None and len(current.locations) < MAX_FRAMES:
            where = Location(_path(detail.group(1), package), int(detail.group(2)))
            current = replace(current, locations=(*current.locations, where), spans=True)
    keep(found, current)
    return list(found)


def _message(text: str) -> Diagnostic:
    """What an error's message names (no place yet); nameless when it names
    nothing missing (its line is where the repair goes)."""
    for pattern, kind, name_group, qualifier_group in _MESSAGES:
        match = pattern.match(text)
        if match is not None:
            qualifier = match.group(qualifier_group) if qualifier_group else ""
            return Diagnostic(match.group(name_group), kind, qualifier)
    return Diagnostic("", "syntax")


def _path(path: str, package: str) -> str:
    """A path go printed, under the package's import path when it is one of the
    package's own files (``./use.go``, or ``use.go``)."""
    own = path.removeprefix("./")
    if package and package != "command-line-arguments" and "/" not in own:
        return f"{package}/{own}"
    return path
