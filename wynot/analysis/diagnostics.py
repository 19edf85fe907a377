"""Error output read as structured diagnostics: what is missing, and where.

A failed build or import says more than a name: gcc and clang give
``file.c:12:5: error: 'x' undeclared`` and ``note:`` lines that point at a
declaration, and in C++ quote the name qualified and typed (``'const char*
ns::Widget::title' is not a static data member of 'class ns::Widget'``); the
linker names the object or source line of an ``undefined reference``;
Python's traceback gives ``File "...", line N`` frames and the module an
attribute was looked up in; javac adds ``symbol:`` and
``location:`` lines; Node prints ``at f (file:line:col)`` frames; rustc
puts its places on ``-->`` lines of their own (:mod:`wynot.analysis.rustc`);
tclsh names a command or variable qualified by its namespace
(``invalid command name "::mime::parse"``) and no place that leads to it;
Perl names a sub qualified by its package, and the place of the call
(``Undefined subroutine &Shapes::product called at lib/Shapes.pm line 3.``);
Lua the function that is nil, and where it was called (``lua:
lib/shapes.lua:3: attempt to call a nil value (field 'product')``).
:func:`parse_diagnostics` turns all of that into :class:`Diagnostic` values.

Every reader here runs in time linear in the size of the output: lines are
read one at a time, a line is cut to :data:`MAX_LINE` characters before any
pattern sees it, and every pattern is anchored or starts with a literal (or a
quote, after which a run of anything but quotes: each character is scanned
once). Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

MAX_LINE = 4096  # error messages are short; a longer line is cut before matching
MAX_FRAMES = 8   # traceback frames kept per diagnostic, innermost first

_Q = "['‘’`\"]"  # quotes: ASCII, and gcc's typographic ones in UTF-8 locales
_NAME = r"([A-Za-z_$][\w$]*)"


@dataclass(frozen=True, slots=True)
class Location:
    """A place the output points at: a path as the tool printed it, a 1-based line."""

    path: str
    line: int


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One error the output reports.

    ``name`` is the identifier blamed ('' when the message names none, as for
    a syntax error); ``kind`` says what is wrong with it (:data:`KINDS`);
    ``qualifier`` is what the message qualifies it by: a module (``pkg.m02``),
    a struct or class (``struct point``, ``Config``), or '' when it says
    nothing. ``locations`` come innermost first: the line of the error, then
    notes and outer frames; with ``spans``, the other places the message
    itself marks (rustc's labels), which lead nowhere outward. ``severity``
    is "warning" for a compiler warning (gcc before 14 warns of an implicit
    declaration): no repair target, but it places the linker's error about
    the same name.
    """

    name: str
    kind: str
    qualifier: str = ""
    locations: tuple[Location, ...] = field(default=())
    severity: str = "error"  # or "warning": it did not stop the build by itself
    spans: bool = False  # locations past the first are the message's own, not a stack


# "redefined": a name defined twice (a definition added where the old one is
# still there): repaired by the change that removes the other one.
KINDS = ("undefined", "member", "import", "type", "signature", "syntax", "redefined")

_Message = tuple[str, re.Pattern[str], str, int, int]


def _table(*entries: tuple[str, str, str, int, int]) -> tuple[_Message, ...]:
    """Message entries with their patterns compiled."""
    return tuple((word, re.compile(p), kind, a, b) for word, p, kind, a, b in entries)


# (word, pattern, kind, group of the name, group of the qualifier or 0): the
# pattern is searched in a line only when the line holds the word.
_MESSAGES = _table(
        # Python
        ("NameError", r"NameError: name '(\w+)' is not defined", "undefined", 1, 0),
        ("UnboundLocalError", r"UnboundLocalError: cannot access local variable '(\w+)'",
         "undefined", 1, 0),
        ("ImportError", r"ImportError: cannot import name '(\w+)' from '([\w.]+)'",
         "import", 1, 2),
        ("ModuleNotFoundError", r"ModuleNotFoundError: No module named '([\w.]+)'",
         "import", 1, 0),
        ("AttributeError", r"AttributeError: module '([\w.]+)' has no attribute '(\w+)'",
         "member", 2, 1),
        ("AttributeError", r"AttributeError: type object '(\w+)' has no attribute '(\w+)'",
         "member", 2, 1),
        ("AttributeError", r"AttributeError: '(\w+)' object has no attribute '(\w+)'",
         "member", 2, 1),
        ("TypeError", r"TypeError: ([\w.]+)\(\) (?:got an unexpected keyword argument|"
         r"missing \d+ required \w+(?:-only)? arguments?:) '(\w+)'", "signature", 1, 0),
        # gcc, clang, the linker (the message may name where the lookup happened)
        ("undeclared", rf"{_Q}(\w+){_Q} undeclared", "undefined", 1, 0),
        ("undeclared", rf"use of undeclared identifier {_Q}(\w+){_Q}", "undefined", 1, 0),
        ("implicit", rf"implicit declaration of function {_Q}(\w+){_Q}", "undefined", 1, 0),
        ("undefined", rf"undefined reference to {_Q}(?:[\w:~]*::)?(\w+)(?:\([^)]*\))?{_Q}"
         r"(?: in (?:module )?([\w.]+))?", "undefined", 1, 2),
        ("unknown", rf"unknown type name {_Q}(\w+){_Q}", "type", 1, 0),
        ("member", rf"{_Q}((?:struct|union|enum|class) \w+){_Q} has no member named "
         rf"{_Q}(\w+){_Q}", "member", 2, 1),
        ("member", rf"no member named {_Q}(\w+){_Q} in {_Q}((?:struct |union |class )?\w+)"
         rf"{_Q}", "member", 1, 2),
        ("arguments", rf"too (?:few|many) arguments to function {_Q}(?:[^'‘’`\"(]*[\s*&:])?"
         r"(\w+)", "signature", 1, 0),
        ("conflicting", rf"conflicting types for {_Q}(\w+){_Q}", "signature", 1, 0),
        # an argument of the wrong type (gcc 14 makes these errors; before, warnings)
        ("passing", rf"passing argument \d+ of {_Q}(\w+){_Q} (?:from incompatible pointer "
         r"type|makes (?:integer from pointer|pointer from integer) without a cast)",
         "signature", 1, 0),
        # a name defined twice: gcc's and clang's note, ld's "first defined here",
        # give the other definition's place
        ("redefinition", rf"redefinition of {_Q}(\w+){_Q}", "redefined", 1, 0),
        ("multiple definition", rf"multiple definition of {_Q}(?:[\w:~]*::)?(\w+)"
         rf"(?:\([^)]*\))?{_Q}", "redefined", 1, 0),
        ("macro", rf"macro {_Q}(\w+){_Q} (?:passed \d+ arguments?, but takes just|requires "
         r"\d+ arguments?, but only) \d+", "signature", 1, 0),
        # javac's "cannot find symbol" takes its name from the "symbol:" line below
        ("package", r"package ([\w.]+) does not exist", "import", 1, 0),
        # javac: a call that fits no declaration of the method (one, or overloads)
        ("applied", rf"(?:method|constructor) {_NAME} in (?:class|interface|enum|record) "
         r"([\w.$]+) cannot be applied to given types", "signature", 1, 2),
        ("suitable", r"no suitable (?:method|constructor) found for ([\w$]+)\(", "signature",
         1, 0),
        ("already defined", rf"(?:method|variable|class|interface|enum|record) {_NAME}"
         r"(?:\([^)]*\))? is already defined in (?:class|interface|enum|record) ([\w.$]+)",
         "redefined", 1, 2),
        ("already defined", rf"(?:method|variable) {_NAME}(?:\([^)]*\))? is already defined "
         r"in (?:method|constructor) ", "redefined", 1, 0),
        # Node
        ("ReferenceError", rf"ReferenceError: {_NAME} is not defined", "undefined", 1, 0),
        ("SyntaxError", rf"SyntaxError: Identifier {_Q}{_NAME}{_Q} has already been declared",
         "redefined", 1, 0),
        ("TypeError", r"TypeError: ([\w$.]+) is not a (?:function|constructor)",
         "member", 1, 0),
        ("SyntaxError", r"SyntaxError: The requested module '([^']+)' does not provide an "
         r"export named '(\w+)'", "import", 2, 1),
        # a value that is not there, read by a line that does not say whose it is
        # (the property named is the one read, not the one missing): no name,
        # only the frames of its stack
        ("TypeError", r"TypeError: Cannot read propert(?:y|ies) of (?:undefined|null)()",
         "undefined", 1, 0),
        # Tcl (tclsh's errorInfo): a name qualified by its namespace (``::mime::x``);
        # no place: a "(procedure ... line N)" counts from the body, and the one
        # "(file ... line N)" is the outermost caller's
        ("invalid command name", r'invalid command name "([\w:]+)"', "undefined", 1, 0),
        ("can't read", r'can\'t read "([\w:]+)(?:\([^)"]*\))?": no such', "undefined", 1, 0),
        ("can't find package", r"can't find package ([\w:]+)", "import", 1, 0),
        ("wrong # args", r'wrong # args: should be "([\w:]+)', "signature", 1, 0),
        # Perl: a sub called that no package defines, qualified by its package
        ("Undefined subroutine", r"Undefined subroutine &([\w:]+) called", "undefined", 1, 0),
        # Lua: a function called that is nil (a global, a table's field, a method)
        ("attempt to call a nil value", r"attempt to call a nil value \((?:global|field|"
         r"method|upvalue|local) '(\w+)'\)", "undefined", 1, 0),
)
# C++ compilers name what they blame qualified and typed (``'const char*
# ns::Widget::title'``, ``'void ns::Widget::resize(int)'``, ``'const class
# ns::Widget'``): (word, pattern, kind, group of the named text, group of the
# scope's text or 0), read by :func:`_cxx_name` and :func:`_cxx_scope`. Tried
# after the table above, which reads C's plainer forms, on lines that start
# with the compiler's ``file:line:`` only.
_TEXT = r"([^'‘’`\"]+)"
_CXX_MESSAGES = _table(
        # g++
        ("not declared", rf"{_Q}{_TEXT}{_Q} was not declared in this scope", "undefined", 1, 0),
        ("has not been declared", rf"{_Q}{_TEXT}{_Q} has not been declared", "undefined", 1, 0),
        ("does not name a", rf"{_Q}{_TEXT}{_Q} (?:in (?:namespace |class |struct )?{_Q}{_TEXT}"
         rf"{_Q} )?does not name a (?:template )?type", "type", 1, 2),
        ("static data member", rf"{_Q}{_TEXT}{_Q} is not a static data member of {_Q}{_TEXT}{_Q}",
         "member", 1, 2),
        ("does not have any field", rf"class {_Q}{_TEXT}{_Q} does not have any field named "
         rf"{_Q}(\w+){_Q}", "member", 2, 1),
        ("has no member named", rf"{_Q}{_TEXT}{_Q}(?: {{aka {_Q}{_TEXT}{_Q}}})? has no member "
         rf"named {_Q}(\w+){_Q}", "member", 3, 1),
        ("is not a member of", rf"{_Q}{_TEXT}{_Q} is not a member of {_Q}{_TEXT}{_Q}", "member",
         1, 2),
        # a definition or a call that fits no declaration: the notes name the candidates
        ("no declaration matches", rf"no declaration matches {_Q}{_TEXT}{_Q}", "signature", 1, 0),
        ("redefinition", rf"redefinition of {_Q}{_TEXT}{_Q}", "redefined", 1, 0),
        ("no matching", rf"no matching (?:member )?function for call to {_Q}{_TEXT}{_Q}",
         "signature", 1, 0),
        ("call of overloaded", rf"call of overloaded {_Q}{_TEXT}{_Q} is ambiguous", "signature",
         1, 0),
        # clang++
        ("no member named", rf"no member named {_Q}(\w+){_Q} in (?:namespace )?{_Q}{_TEXT}{_Q}",
         "member", 1, 2),
        ("out-of-line definition", rf"out-of-line definition of {_Q}(\w+){_Q} does not match "
         rf"any declaration in {_Q}{_TEXT}{_Q}", "signature", 1, 2),
        ("member initializer", rf"member initializer {_Q}(\w+){_Q} does not name a non-static "
         "data member", "member", 1, 0),
        ("no type named", rf"no type named {_Q}(\w+){_Q} in {_Q}{_TEXT}{_Q}", "type", 1, 2),
)
_AGGREGATE_WORDS = ("class", "struct", "union", "enum")

# A line holds none of these words: it cannot start, place or complete a diagnostic.
_WORDS = ("rror", "note:", "warning:", "undefined", "File \"", "at ", "symbol:",
          "location:", "function", "At top level", "invalid command name", "can't ",
          "wrong # args", "attempt to call", "multiple definition")
_SYNTAX = re.compile(r"(?:SyntaxError|IndentationError|error: expected )")

# Where: the line prefix of gcc/clang/javac, traceback frames, Node frames, ld.
_COMPILER = re.compile(r"([^\s:][^:]*):(\d+):(?:(\d+):)? ?(fatal error|error|note|warning):")
_PY_FRAME = re.compile(r'\s*File "([^"]+)", line (\d+)')
_NODE_FRAME = re.compile(r"\s+at (?:.* \()?((?:file://)?/[^\s():]+|[\w./-]+\.[cm]?[jt]sx?)"
                         r":(\d+):\d+\)?$")
# ld's place of an undefined or twice defined name: the source line (with debug
# information) or the file; a data symbol's on the line that names the linker
# and the object (``/usr/bin/ld: a.o:b.c:2: multiple definition of `x'``)
_LINKER_AT = re.compile(r"(?:[^\s:]*ld: [^\s:]+\.o:)?([^\s:(][^:(]*):(?:(\d+)|\([^)]*\)): "
                        r"(?:undefined reference to |multiple definition of )")
# ld's other definition of a name defined twice, after the object it is in
_LINKER_FIRST = re.compile(r"; (?:[^\s:;]+\.o:)?([^\s:(;][^:(;]*):(?:(\d+)|\([^)]*\)): "
                           r"first defined here")
# Node's first line for an error it can show the source of (a SyntaxError while a
# module loads, an uncaught exception): the file and line alone, then that line
# and a caret, then the message
_NODE_HEADER = re.compile(r"((?:file://)?/[^\s:]+|[\w./-]+\.[cm]?[jt]sx?):(\d+)")
_NODE_HEADER_SPAN = 5  # lines from that header to its message
_PERL_AT = re.compile(r" at (\S+) line (\d+)\.$")  # the end of Perl's die and warn
_LUA_AT = re.compile(r"(?:[^\s:]+: )?([^\s:]+\.lua):(\d+): ")  # lua: file.lua:3: message
_JAVA_SYMBOL = re.compile(r"\s+symbol:\s+(?:(?:static )?\w+ )?(\w+)")
_JAVA_LOCATION = re.compile(r"\s+location:\s+(?:variable \w+ of type |class |interface )"
                            r"([\w.]+)")
_TRACEBACK = "Traceback (most recent call last):"
_COLOUR = re.compile(r"\x1b\[[0-9;]*[mK]")  # SGR colours, gcc's erase-line
_IN_FUNCTION = re.compile(rf"[^:]+: In (?:(?:static )?member function|function|constructor|"
                          rf"destructor) {_Q}{_TEXT}{_Q}")


def parse_diagnostics(output: str) -> list[Diagnostic]:
    """The diagnostics ``output`` reports, in order, without repeats.

    Linear in ``len(output)``. A compiler's ``note:`` lines join the error
    before them; a Python traceback's frames and Node's ``at`` frames join
    the exception they end with; javac's ``symbol:`` and ``location:`` lines
    complete its ``cannot find symbol``.
    """
    output = without_colours(output)
    found: list[Diagnostic] = []
    seen: dict[Diagnostic, int] = {}  # index in found
    frames: list[Location] = []  # of the traceback or stack being read, innermost first
    last: int | None = None  # index in found of the diagnostic that notes may extend
    function = ""  # the function gcc said the next errors are in
    header: Location | None = None  # Node's file:line above the message it places
    header_left = 0  # lines to that message, at most
    for line in output_lines(output):
        header_left -= 1
        if line[-1:].isdigit() and ":" in line:
            match = _NODE_HEADER.fullmatch(line)
            if match is not None:
                header = Location(match.group(1).removeprefix("file://"), int(match.group(2)))
                header_left = _NODE_HEADER_SPAN
                continue
        if not any(word in line for word in _WORDS):
            continue
        inside = _IN_FUNCTION.match(line)
        if inside is not None or line.endswith((": At top level:", ": At global scope:")):
            function = _function(inside.group(1)) if inside is not None else ""
            continue
        located = _location(line)
        if located is not None and _is_note(line) and last is not None:
            found[last] = _with_location(found[last], located, end=True)
            continue
        if line.startswith(_TRACEBACK):
            frames = []
            continue
        frame = _frame(line)
        if frame is not None:
            if line.lstrip().startswith("at ") and last is not None and not frames:
                found[last] = _with_location(found[last], frame, end=True)
                continue
            frames = [frame, *frames[:MAX_FRAMES - 1]]
            continue
        java = _java_detail(line)
        if java is not None and last is not None:
            found[last] = _java_complete(found[last], *java)
            continue
        placed = located if located is not None or header_left <= 0 else header
        diagnostic = _diagnostic(line, placed, frames)
        if diagnostic is None:
            if located is not None:  # the notes below belong to this message
                last = None
            continue
        if located is not None and _severity(line) == "warning":
            diagnostic = replace(diagnostic, severity="warning")
        first = _LINKER_FIRST.search(line) if diagnostic.kind == "redefined" else None
        if first is not None and not first.group(1).endswith(".o"):  # a source, not an object
            diagnostic = _with_location(diagnostic, Location(first.group(1), int(
                first.group(2) or 0)), end=True)
        if function and located is not None and diagnostic.kind == "undefined" and not (
                diagnostic.qualifier or "undefined reference" in line):
            diagnostic = replace(diagnostic, qualifier=f"function {function}")
        frames, header_left = [], 0
        last = seen.setdefault(diagnostic, len(found))
        if last == len(found):
            found.append(diagnostic)
    # tools whose messages have shapes of their own (each reader builds on this module)
    from wynot.analysis import golang, rustc, tsc
    for mark, reader in ((rustc.MARK, rustc.rustc_diagnostics), (golang.MARK,
                         golang.go_diagnostics), (tsc.MARK, tsc.tsc_diagnostics)):
        for diagnostic in reader(output) if mark in output else ():
            if seen.setdefault(diagnostic, len(found)) == len(found):
                found.append(diagnostic)
    return _placed_by_warnings(found)


def _placed_by_warnings(found: list[Diagnostic]) -> list[Diagnostic]:
    """An error that names no line (the linker's ``undefined reference`` without
    debug information) takes the line of a warning about the same name (the
    call that implicitly declared it)."""
    warned = {d.name: d.locations[0] for d in found
              if d.severity == "warning" and d.name and d.locations and d.locations[0].line}
    if not warned:
        return found
    return [_with_location(d, warned[d.name], end=False)
            if d.severity == "error" and d.name in warned
            and not any(loc.line for loc in d.locations) else d for d in found]


def keep(found: dict[Diagnostic, None], diagnostic: Diagnostic | None) -> None:
    """Add a diagnostic a reader finished to ``found`` (in order, each once)."""
    if diagnostic is not None:
        found.setdefault(diagnostic)


def without_colours(output: str) -> str:
    """``output`` without the terminal's colour codes (gcc's and tsc's when asked
    for, or forced by a CI), which split a message's words."""
    return _COLOUR.sub("", output) if "\x1b[" in output else output


def output_lines(output: str) -> Iterator[str]:
    """The lines of ``output``, each cut to MAX_LINE characters (linear overall)."""
    start = 0
    while start < len(output):
        end = output.find("\n", start)
        if end < 0:
            end = len(output)
        yield output[start:min(end, start + MAX_LINE)].rstrip("\r")
        start = end + 1


def _location(line: str) -> Location | None:
    match = _COMPILER.match(line) or _LINKER_AT.match(line) or _LUA_AT.match(line)
    if match is None:
        match = _PERL_AT.search(line) if line.endswith(".") and " line " in line else None
        if match is None:
            return None
    return Location(match.group(1), int(match.group(2) or 0))  # 0: the file only


def _is_note(line: str) -> bool:
    return _severity(line) == "note"


def _severity(line: str) -> str:
    """'error', 'fatal error', 'note' or 'warning' for a compiler line; '' otherwise."""
    match = _COMPILER.match(line)
    return match.group(4) if match is not None else ""


def _frame(line: str) -> Location | None:
    match = _PY_FRAME.match(line) or _NODE_FRAME.match(line)
    if match is None:
        return None
    path = match.group(1)
    return Location(path.removeprefix("file://"), int(match.group(2)))


def _java_detail(line: str) -> tuple[str, str] | None:
    """("symbol", name) or ("location", class) from javac's lines under an error."""
    match = _JAVA_SYMBOL.match(line)
    if match is not None:
        return "symbol", match.group(1)
    match = _JAVA_LOCATION.match(line)
    return ("location", match.group(1)) if match is not None else None


def _java_complete(diagnostic: Diagnostic, what: str, value: str) -> Diagnostic:
    if diagnostic.kind != "undefined" or diagnostic.name not in ("", value):
        return diagnostic if what == "symbol" or diagnostic.qualifier else (
            replace(diagnostic, qualifier=value))
    if what == "symbol":
        return replace(diagnostic, name=value)
    return replace(diagnostic, qualifier=diagnostic.qualifier or value)


def _diagnostic(line: str, located: Location | None,
                frames: list[Location]) -> Diagnostic | None:
    """The diagnostic a line reports, with the place it names or the frames read before."""
    where = (located,) if located is not None else tuple(frames[:MAX_FRAMES])
    for word, pattern, kind, name_group, qualifier_group in _MESSAGES:
        match = pattern.search(line) if word in line else None
        if match is None:
            continue
        name = match.group(name_group)
        qualifier = (match.group(qualifier_group) or "") if qualifier_group else ""
        if kind in ("import", "member") and "." in name and not qualifier:  # dotted
            qualifier, name = name.rsplit(".", 1)
        elif "::" in name and kind != "import":  # Tcl's namespaces: ::mime::parse
            qualifier, name = name.rsplit("::", 1)
            qualifier = qualifier.lstrip(":").rsplit("::", 1)[-1]
        return Diagnostic(name, kind, qualifier, where)
    for word, pattern, kind, name_group, scope_group in _CXX_MESSAGES:
        match = pattern.search(line) if located is not None and word in line else None
        named = _cxx_name(match.group(name_group)) if match is not None else None
        if match is not None and named is not None:
            scope = match.group(scope_group) if scope_group else ""
            return Diagnostic(named[0], kind, _cxx_scope(scope) if scope else named[1], where)
    if "arguments to function call" in line and located is not None:  # clang: the notes
        return Diagnostic("", "signature", "", where)  # name the declaration
    if "cannot find symbol" in line and located is not None:
        return Diagnostic("", "undefined", "", where)  # javac: the name follows
    if where and (_SYNTAX.search(line) or (located is not None and " error:" in line)):
        return Diagnostic("", "syntax", "", where)
    return None


def _cxx_name(text: str) -> tuple[str, str] | None:
    """(name, the scope it is qualified by or '') of what a C++ message quotes:
    ``const char* ns::Widget::title`` -> (title, Widget), ``void
    ns::Widget::resize(int)`` -> (resize, Widget), ``offset`` -> (offset, '');
    None when it names no identifier (an operator, a type expression)."""
    text = _without_templates(text.split("(", 1)[0]).strip()
    words = text.replace("*", " ").replace("&", " ").split()
    if not words:
        return None
    parts = words[-1].split("::")
    if not parts[-1].isidentifier():
        return None
    return parts[-1], parts[-2] if len(parts) > 1 else ""


def _cxx_scope(text: str) -> str:
    """The scope a C++ message names, without namespaces or ``const``: ``const
    class ns::Widget`` -> ``class Widget``, ``ns::Widget`` -> ``Widget``."""
    words = _without_templates(text).split()
    keyword = next((w for w in words if w in _AGGREGATE_WORDS), "")
    name = words[-1].rsplit("::", 1)[-1] if words else ""
    return f"{keyword} {name}" if keyword and name != keyword else name


def _without_templates(text: str) -> str:
    """``text`` without its template arguments (``std::vector<int>::size`` ->
    ``std::vector::size``); linear."""
    kept: list[str] = []
    depth = 0
    for char in text:
        if char == "<":
            depth += 1
        elif char == ">" and depth:
            depth -= 1
        elif not depth:
            kept.append(char)
    return "".join(kept)


def _function(text: str) -> str:
    """The function gcc names in its ``In function`` line, with its class if a
    member (``int ns::Widget::area(int)`` -> ``Widget::area``; C's ``main``)."""
    named = _cxx_name(text)
    if named is None:
        return ""
    name, scope = named
    return f"{scope}::{name}" if scope else name


def _with_location(diagnostic: Diagnostic, where: Location, *, end: bool) -> Diagnostic:
    if where in diagnostic.locations or len(diagnostic.locations) >= MAX_FRAMES:
        return diagnostic
    places = (*diagnostic.locations, where) if end else (where, *diagnostic.locations)
    return replace(diagnostic, locations=places)
