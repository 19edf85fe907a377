"""The failure-resolution loop (WYNOT paper, section 8).

When a configuration does not build, its error output says what is missing
and where: ``NameError: name 'parse_header' is not defined`` after a
traceback, ``x.c:12:5: error: 'offset' undeclared``, ``undefined reference to
`frob'``. :class:`Resolver` reads those diagnostics
(:mod:`wynot.analysis.diagnostics`) and proposes the few changes, not yet
applied, that can repair each: the hunk that rewrites the line the error is
on, else the change that defines (or declares) exactly that name where the
message qualifies it, else the changes bound to it in a narrower way (the old
users of a name an applied change removed, the hunks of the same function),
else, for a C name that no change declares, the hunks that add an
``#include`` to the file of the error. An
error that names nothing (Node's ``Cannot read properties of undefined``) is
read from its stack: the hunk at its innermost changed frame, else one that
rewrites a GOOD line of an outer frame (the caller passing the value), else
those of the function nearest its innermost frame, if GOOD's. A
name defined or mentioned in many places points nowhere. It also says which
applied changes the error came from, so that the dependency can be learned.
Pure: the caller runs the tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from wynot.analysis import golang
from wynot.analysis.declarations import HunkDeclarations
from wynot.analysis.depends import MAX_USERS
from wynot.analysis.diagnostics import Diagnostic, parse_diagnostics, without_colours
from wynot.analysis.names import MAX_REPAIR, NameIndex
from wynot.analysis.places import Place, file_for, good_line, place
from wynot.analysis.symbols import Symbols
from wynot.analysis.treesitter import Scope, file_language, outline
from wynot.changes import Diff

MAX_ROUND = 8  # changes one round of repairs may add, beyond the first diagnostic's
# Python calls that no longer fit a changed signature: (function, parameter).
SIGNATURE_PATTERNS: tuple[str, ...] = (
    r"([\w.<>]+)\(\) got an unexpected keyword argument '(\w+)'",
    r"([\w.<>]+)\(\) got multiple values for argument '(\w+)'",
    r"([\w.<>]+)\(\) missing \d+ required (?:positional|keyword-only) arguments?: '(\w+)'",
)
# Output that shows the configuration did not build or import, with or without names.
# Node's ReferenceError is Python's NameError: a name no code in scope defines.
CONSTRUCTION_ERRORS = re.compile("|".join((
    r"(NameError|ImportError|ModuleNotFoundError|AttributeError: module|SyntaxError|"
    r"IndentationError|ReferenceError|error: |undefined reference|fatal error|ld returned|"
    r"\[build failed\]|\[setup failed\]|error TS|"  # go test's; tsc's (error TS2304: ...)
    # names missing at run time, as Python's NameError is: tclsh's, Perl's, Lua's
    r"invalid command name|: no such variable|Undefined subroutine|"
    r"attempt to call a nil value)",
    *SIGNATURE_PATTERNS,
)))


# A diagnostic as the loop tells repeats apart: (name, kind, qualifier, the change
# at its line or None). Not its line number: lines move as hunks are added, and
# the same error reported two lines lower after a repair is still not repaired.
Target = tuple[str, str, str, int | None]


@dataclass(frozen=True, slots=True)
class Resolution:
    """What to add, and the dependencies it reveals (applied change -> added change).

    ``names`` label the repairs for the progress line; ``targets`` are the
    diagnostics repaired (:data:`Target`), so that the caller can tell whether a
    repair helped (:meth:`Resolver.reports_again`).
    """

    add: frozenset[int]
    learned: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    targets: frozenset[Target] = frozenset()
    # (applied change, change not applied) that the compiler itself showed
    # disagreeing: the call and the declaration of one function, one rewritten
    # and the other not. A fact about the code, learned whether or not the
    # repair builds (``learned`` is a repair's guess, kept only once it builds).
    observed: tuple[tuple[int, int], ...] = ()
    # Whether the output reports a diagnostic that names something, repaired or
    # not: with none, a configuration got past every error a repair could read.
    named: bool = False


class Resolver:
    """Maps build errors to the few changes that can repair them.

    ``diff`` lets a diagnostic's location (a line of the tested
    configuration) be mapped back to the hunk there; ``declared`` (change id
    -> (declared, undeclared) (scope, name) pairs, from
    :func:`~wynot.analysis.declarations.hunk_declarations`) lets an
    ``undeclared`` name (C, C++), or a member a type lacks (a method of a
    TypeScript class), find its declaration. ``scopes`` (change id -> enclosing
    function, as grouping sees it) lets a blamed local name be repaired by
    the hunks of the same function. ``files`` (change id -> file) lets a name
    be looked for in the file or module the message names.
    """

    def __init__(self, symbols: Mapping[int, Symbols], extra_patterns: Sequence[str] = (),
                 scopes: Mapping[int, str] | None = None,
                 files: Mapping[int, int] | None = None, *, diff: Diff | None = None,
                 declared: Mapping[int, HunkDeclarations] | None = None):
        self.patterns = [re.compile(p) for p in extra_patterns]
        self._signature_patterns = [re.compile(p) for p in SIGNATURE_PATTERNS]
        self._diff = diff
        self._files = dict(files or ({c.id: c.file for c in diff.changes} if diff else {}))
        self._index = NameIndex(symbols, declared or {})
        self._scopes = {cid: scope for cid, scope in (scopes or {}).items() if scope}
        self._modules = _module_files(diff) if diff is not None else {}
        self._includers = _include_adders(diff) if diff is not None else {}
        # per file of the diff: GOOD's scopes, and each hunk's GOOD span (_up_the_stack)
        self._good_sides: dict[int, tuple[tuple[Scope, ...], list[tuple[int, int, int]]]] = {}

    def diagnostics(self, output: str) -> list[Diagnostic]:
        """What the output reports: the built-in readers, then the user's patterns.
        Warnings stay: an implicit declaration that gcc only warns of still
        breaks the program (a pointer returned as ``int``)."""
        found = parse_diagnostics(output)
        for line in output.splitlines() if self.patterns else ():
            for match in (m for p in self.patterns for m in p.finditer(line[:4096])):
                name = next((g for g in match.groups() if g), None)
                extra = Diagnostic(name, "undefined") if name else None
                if extra is not None and extra not in found:
                    found.append(extra)
        return found

    def names(self, output: str) -> list[str]:
        """Identifiers the error output blames, in order of appearance."""
        return list(dict.fromkeys(d.name for d in self.diagnostics(output) if d.name))

    def signature_pairs(self, output: str) -> list[tuple[str, str]]:
        """(function, parameter) pairs of calls that do not fit a signature.

        Python names the function by its qualified name: ``Config.__init__``
        stands for the class as well, since calls name the class.
        """
        found: list[tuple[str, str]] = []
        for match in (m for p in self._signature_patterns for m in p.finditer(output)):
            parts = match.group(1).split(".")
            names = parts[-1:] + (parts[-2:-1] if parts[-1] in ("__init__", "__new__") else [])
            found.extend((name, match.group(2)) for name in names
                         if (name, match.group(2)) not in found)
        return found

    def resolve(self, output: str, applied: Iterable[int]) -> Resolution:
        """Changes outside ``applied`` that can repair what the output reports.

        Each diagnostic is repaired by at most :data:`MAX_REPAIR` changes
        (:meth:`_repair` says which); one that points at more is no target.
        Diagnostics are repaired in the order reported, the first one always,
        the next ones while the round adds at most :data:`MAX_ROUND` changes.
        A call that does not fit a signature is repaired by the changes to
        that function's parameter or to the calls that pass it; a value that
        no longer fits brings the declarations retyped as its own is
        (:meth:`~wynot.analysis.names.NameIndex.alike`; not a sole repair,
        which :meth:`culprits` and :meth:`needs_shown` read).
        """
        applied = frozenset(applied)
        add: set[int] = set()
        learned: list[tuple[int, int]] = []
        labels: list[str] = []
        targets: set[Target] = set()
        repaired: set[str] = set()  # functions whose calls the signature rule repaired
        for pair in self.signature_pairs(output):
            signers = self._index.signers.get(pair, ())
            signed = [c for c in signers if c not in applied]
            if 0 < len(signed) <= MAX_USERS:  # every call that passes it: the closure
                add.update(signed)
                learned.extend((u, c) for u in signers if u in applied for c in signed)
                labels.append(f"{pair[0]}({pair[1]}=)")
                repaired.add(pair[0])
        observed: list[tuple[int, int]] = []
        diagnostics = self.diagnostics(output)
        for diagnostic in diagnostics:
            observed.extend(self._disagreeing(diagnostic, applied))
            if diagnostic.kind == "signature" and diagnostic.name.rsplit(".")[-1] in repaired:
                continue
            fixes, users = self._repair(diagnostic, applied)
            if diagnostic.kind == "signature":
                fixes = fixes | self._index.alike(diagnostic.name, applied)
            if fixes and (not add or len(add | fixes) <= MAX_ROUND):
                add.update(fixes)
                learned.extend((u, c) for u in sorted(users) for c in sorted(fixes))
                labels.append(_label(diagnostic))
                targets.add(self.target(diagnostic, applied))
        return Resolution(frozenset(add), tuple(dict.fromkeys(learned)), tuple(labels),
                          frozenset(targets), tuple(dict.fromkeys(observed)),
                          any(d.name for d in diagnostics))

    def culprits(self, output: str, applied: Iterable[int]) -> frozenset[int]:
        """The changes outside ``applied`` that one error of ``output`` alone points
        to: a diagnostic whose repair (:meth:`_repair`) is exactly one change.
        The configuration failed to build for want of each of them, whatever
        else was missing; a diagnostic with several candidates blames none."""
        return frozenset(needed for needed, _ in self._sole_repairs(output, applied))

    def needs_shown(self, output: str, applied: Iterable[int]) -> frozenset[tuple[int, int]]:
        """(user, needed) pairs: an error reported on the applied change ``user``
        whose one repair is the change ``needed``, not applied. Where the
        compiler shows them, the needs of a configuration's changes, whatever
        else it lacked (a configuration that lacked several changes tells which
        of its changes needed which of them)."""
        return frozenset((user, needed) for needed, users in self._sole_repairs(output, applied)
                         for user in users)

    def _sole_repairs(self, output: str, applied: Iterable[int]
                      ) -> list[tuple[int, frozenset[int]]]:
        """For each error of ``output`` that exactly one change repairs: that
        change and the applied changes the error came from."""
        applied = frozenset(applied)
        found: list[tuple[int, frozenset[int]]] = []
        for diagnostic in self.diagnostics(output):
            fixes, users = self._repair(diagnostic, applied, guess=False)
            if len(fixes) == 1:
                found.append((min(fixes), frozenset(users)))
        return found

    def removal_needs(self, output: str, applied: Iterable[int]
                      ) -> frozenset[tuple[int, int]]:
        """(remover, user) pairs the errors of ``output`` show: a name missing on a
        line of GOOD's that the change ``user`` (not applied) rewrites, whose
        declaration the applied change ``remover`` takes away, and no change
        declares again (:meth:`~wynot.analysis.names.NameIndex.undeclarer`).
        Wherever ``remover`` is applied without ``user``, that line is there and
        the name is not: ``remover`` needs ``user``. A struct member dropped
        from a release's core type, and the forty hunks that stop using it, are
        one edit; a configuration that splits them does not build."""
        if self._diff is None:
            return frozenset()
        applied = frozenset(applied)
        found: set[tuple[int, int]] = set()
        for diagnostic in self.diagnostics(output):
            if not diagnostic.name or not diagnostic.locations:
                continue
            location = diagnostic.locations[0]
            where = place(self._diff, applied, location.path, location.line)
            if where is None or where.change is None or where.applied:
                continue
            remover = self._index.undeclarer(diagnostic, applied)
            if remover is not None and remover != where.change:
                found.add((remover, where.change))
        return frozenset(found)

    def completions(self, output: str, applied: Iterable[int]) -> frozenset[int]:
        """For a configuration that built and failed in a way that names nothing
        (no diagnostic in ``output``: a crash, a wrong result), the changes
        outside ``applied`` that alone use a name an applied change brings in
        (:meth:`~wynot.analysis.names.NameIndex.completions`): a guess, which a
        run checks. Nothing when ``output`` reports a diagnostic, which the loop
        reads instead."""
        if self.diagnostics(output):
            return frozenset()
        return frozenset(self._index.completions(frozenset(applied)))

    def broken(self, output: str, applied: Iterable[int]) -> frozenset[int]:
        """The applied changes whose lines (context lines included) any location of
        the errors of ``output`` is on, notes too: with one change removed from a
        configuration that built, the changes that broke without it (they need
        it, as far as the compiler showed; a guess that a run checks)."""
        if self._diff is None:
            return frozenset()
        applied = frozenset(applied)
        found: set[int] = set()
        for diagnostic in self.diagnostics(output):
            for location in diagnostic.locations:
                where = place(self._diff, applied, location.path, location.line, context=True)
                if where is not None and where.change is not None and where.applied:
                    found.add(where.change)
        return frozenset(found)

    def target(self, diagnostic: Diagnostic, applied: frozenset[int]) -> Target:
        """What identifies ``diagnostic`` from one repair round to the next: a
        name undeclared in a function is one error wherever in the function it
        is reported (a compiler reports it once a function); any other, one
        error at each change it is reported in (``ensure`` called wrongly in
        five hunks is five errors)."""
        if diagnostic.kind == "undefined" and diagnostic.qualifier.startswith("function "):
            return diagnostic.name, diagnostic.kind, diagnostic.qualifier, None
        places = self._places(diagnostic, applied)
        change = places[0].change if places else None
        return diagnostic.name, diagnostic.kind, diagnostic.qualifier, change

    def signature(self, output: str, applied: Iterable[int]) -> frozenset[Target]:
        """Every diagnostic ``output`` reports, as :meth:`target` identifies it (named
        or not): what the compiler saw wrong with the configuration ``applied``,
        wherever its lines moved. Two configurations with one signature are broken
        alike, as far as the errors show."""
        applied = frozenset(applied)
        return frozenset(self.target(d, applied) for d in self.diagnostics(output))

    def involved(self, output: str, applied: Iterable[int]) -> frozenset[int]:
        """The changes the errors of ``output`` may depend on: those at their places
        (applied or not), and those that define, declare, remove or mention a
        name they report. A configuration that differs from ``applied`` only
        outside these changes is, as far as the errors tell, broken alike."""
        applied = frozenset(applied)
        found: set[int] = set()
        index = self._index
        for diagnostic in self.diagnostics(output):
            # a nameless error: every place of its stack (those _places picks among),
            # and the repairs read up it
            places = (self._places(diagnostic, applied) if diagnostic.name
                      else self._stack(diagnostic, applied))
            found.update(p.change for p in places if p.change is not None)
            if not diagnostic.name:
                found.update(self._up_the_stack(diagnostic, applied))
            name = diagnostic.name.rsplit(".", 1)[-1] if diagnostic.name else ""
            for table in (index.definers, index.removers, index.mentioners):
                found.update(table.get(name, ()))
            found.update(cid for cid, _ in index.declarers.get(name, ()))
        return frozenset(found)

    def reported_in(self, output: str) -> frozenset[int]:
        """The changes of the files the errors of ``output`` point into (notes and
        frames too): applying or dropping any of them moves the lines there."""
        if self._diff is None:
            return frozenset()
        files = {file_for(self._diff, location.path)
                 for diagnostic in self.diagnostics(output) for location in diagnostic.locations}
        return frozenset(c.id for index in files if index is not None
                         for c in self._diff.files[index].changes)

    def reports_again(self, output: str, applied: Iterable[int],
                      targets: Iterable[Target]) -> bool:
        """Whether ``output`` still reports a named diagnostic of ``targets``: the
        repair that targeted it did not help."""
        applied = frozenset(applied)
        wanted = set(targets)
        return any(self.target(d, applied) in wanted
                   for d in self.diagnostics(output) if d.name) if wanted else False

    def _disagreeing(self, diagnostic: Diagnostic,
                     applied: frozenset[int]) -> list[tuple[int, int]]:
        """(applied, not applied) pairs of one signature diagnostic's places: a call
        and its declaration (or a definition and its prototype) that the compiler
        read from two different changes, exactly one of them applied."""
        if diagnostic.kind != "signature" or len(diagnostic.locations) < 2:
            return []
        places = self._places(diagnostic, applied)
        users = sorted({p.change for p in places if p.change is not None and p.applied})
        missing = sorted({p.change for p in places if p.change is not None and not p.applied})
        if len(users) != 1 or len(missing) != 1:
            return []
        return [(users[0], missing[0])]

    def _repair(self, diagnostic: Diagnostic, applied: frozenset[int], *,
                guess: bool = True) -> tuple[set[int], set[int]]:
        """(the changes that repair ``diagnostic``, the applied changes it came from).

        First the place: a GOOD line that an unapplied hunk rewrites is
        repaired by that hunk (for a call that does not fit its declaration,
        the compiler's notes name the declaration too). Then the name: see
        :meth:`~wynot.analysis.names.NameIndex.repair`. Last, with ``guess``,
        for a type or name that nothing in the diff declares: the hunks that add
        an ``#include`` to the file it is reported in. That is a guess, which a
        repair's run checks; what the errors show without a run (:meth:`culprits`,
        :meth:`needs_shown`) leaves it out: ``no type named 'type' in 'struct
        std::enable_if<false, void>'`` is no missing header.
        """
        places = self._places(diagnostic, applied)
        rewrite = {p.change for p in places if p.change is not None and not p.applied}
        users = {p.change for p in places if p.change is not None and p.applied}
        if rewrite:
            return (rewrite, users) if len(rewrite) <= MAX_REPAIR else (set(), users)
        if not diagnostic.name:
            return self._up_the_stack(diagnostic, applied), users
        files = {p.file for p in places}
        owners = self._owners(diagnostic.qualifier)
        fixes, found_users = self._index.repair(
            diagnostic, applied, users, files, owners, self._files, self._scopes)
        if guess and not fixes and diagnostic.kind in ("undefined", "type") and files and (
                not self._index.declares(diagnostic.name)):
            fixes = {c for f in files for c in self._includers.get(f, ()) if c not in applied}
            fixes = fixes if len(fixes) <= MAX_REPAIR else set()
        return fixes, users or found_users  # the error's own line, when it is known

    def _places(self, diagnostic: Diagnostic, applied: frozenset[int]) -> list[Place]:
        """The places of the diagnostic inside the diff: all for a signature
        (call and declaration) and a name defined twice (both definitions), else
        the innermost one; for an error that names
        nothing, the innermost frame on a changed line (a value missing in an
        unchanged helper is missing where a change calls it)."""
        if self._diff is None:
            return []
        found: list[Place] = []
        frames = not diagnostic.name and diagnostic.kind != "signature"
        for location in diagnostic.locations:
            where = place(self._diff, applied, location.path, location.line)
            if where is None:
                continue
            if frames and where.change is None and len(diagnostic.locations) > 1:
                found = found or [where]  # the innermost, unless a frame lands on a change
                continue
            if frames and found and found[0].change is None:
                found = []
            found.append(where)
            if diagnostic.kind not in ("signature", "redefined"):  # both places count
                break
        return found

    def _up_the_stack(self, diagnostic: Diagnostic, applied: frozenset[int]) -> set[int]:
        """The repairs of an error that names nothing (a value that is not there)
        whose innermost changed frame is an applied change or none: the hunks that
        rewrite a GOOD line further up its stack (the caller that passes the value),
        else the hunks not applied of the function nearest its innermost frame that
        the diff changes (where the value is made), if that is GOOD's; at most
        :data:`MAX_REPAIR`. Not for a message whose places are its own spans
        (rustc's labels): those are no callers; nor for a syntax error, whose
        frames are the chain of imports that loaded the file."""
        if self._diff is None or diagnostic.kind in ("signature", "syntax") or (
                diagnostic.spans) or len(diagnostic.locations) < 2:
            return set()
        callers = {p.change for p in self._stack(diagnostic, applied)
                   if p.change is not None and not p.applied}
        if callers:
            return callers if len(callers) <= MAX_REPAIR else set()
        innermost = diagnostic.locations[0]
        good = good_line(self._diff, applied, innermost.path, innermost.line)
        if good is None:
            return set()
        index, line = good
        scopes, hunks = self._good_side(index)
        for first, last, _ in reversed(scopes):  # innermost first
            if not first <= line <= last:
                continue
            inside = {cid for cid, start, end in hunks if start <= last and end >= first}
            if inside:  # the nearest function the diff changes
                missing = inside - applied
                return missing if len(missing) <= MAX_REPAIR and missing == inside else set()
        return set()

    def _stack(self, diagnostic: Diagnostic, applied: frozenset[int]) -> list[Place]:
        """The places of all the diagnostic's locations (its frames) inside the diff."""
        if self._diff is None:
            return []
        found = (place(self._diff, applied, location.path, location.line)
                 for location in diagnostic.locations)
        return [where for where in found if where is not None]

    def _good_side(self, index: int) -> tuple[tuple[Scope, ...], list[tuple[int, int, int]]]:
        """GOOD's scopes of the diff's file ``index``, outer before inner (none for a
        language without a grammar here), and (change, first, last) of each of its
        hunks' GOOD spans; read once per file."""
        if index not in self._good_sides:
            assert self._diff is not None
            fd = self._diff.files[index]
            language = file_language(fd) if fd.old_path else None
            side = outline(language, fd.old.data) if language and fd.old is not None else None
            hunks = [(c.id, *_good_span(c.hunk.text, c.hunk.old_start))
                     for c in fd.changes if c.hunk is not None]
            self._good_sides[index] = (side.scopes if side is not None else (), hunks)
        return self._good_sides[index]

    def _owners(self, qualifier: str) -> set[int]:
        """Files a dotted module qualifier (``pkg.d008.m03``) names."""
        return set(self._modules.get(qualifier, ())) if "." in qualifier or (
            qualifier in self._modules) else set()


def _good_span(hunk_text: str, old_start: int) -> tuple[int, int]:
    """The first and last GOOD line a hunk rewrites, its context lines aside (an
    insertion: the line before which it goes)."""
    touched: list[int] = []
    old = old_start
    for line in hunk_text.split("\n")[1:]:
        if line.startswith(("-", "+")):
            touched.append(old)
        if line.startswith(("-", " ")):
            old += 1
    return (min(touched), max(touched)) if touched else (old_start, old_start)


def _label(diagnostic: Diagnostic) -> str:
    if diagnostic.name:
        qualifier = diagnostic.qualifier
        return f"{diagnostic.name} in {qualifier}" if qualifier else diagnostic.name
    where = diagnostic.locations[0] if diagnostic.locations else None
    return f"{where.path.rsplit('/', 1)[-1]}:{where.line}" if where else diagnostic.kind


_INCLUDE = re.compile(r"^\+\s*#\s*(?:include|import)\b", re.MULTILINE)


def _include_adders(diff: Diff) -> dict[int, list[int]]:
    """File -> the hunks that add an ``#include`` line to it (C, C++, Objective-C).

    A C name that no change declares (``DBL_EPSILON``, ``fabs``) comes from a
    header, and the hunk that adds that header's ``#include`` to the file of
    the error repairs it."""
    adders: dict[int, list[int]] = {}
    for change in diff.changes:
        if change.hunk is not None and _INCLUDE.search(change.hunk.text):
            adders.setdefault(change.file, []).append(change.id)
    return adders


def _module_files(diff: Diff) -> dict[str, list[int]]:
    """Dotted module names (every suffix of the path: ``a.b.c``, ``b.c``, ``c``) -> files.
    A Go package is its directory: each suffix of a ``.go`` file's directory
    names it too (``util`` of ``util.Join``: every file of ``pkg/util``)."""
    modules: dict[str, list[int]] = {}
    for fd in diff.files:
        names: dict[str, None] = {}  # this file's, each once (both paths of a rename)
        for path in {p for p in (fd.old_path, fd.new_path) if p}:
            stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
            parts = stem.split("/")
            if parts[-1] == "__init__":
                parts = parts[:-1]
            names.update(dict.fromkeys(".".join(parts[start:]) for start in range(len(parts))))
            if path.endswith(".go"):
                names.update(dict.fromkeys(".".join(parts[start:-1])
                                           for start in range(len(parts) - 1)))
        for name in names:
            modules.setdefault(name, []).append(fd.index)
    return modules

# CONSTRUCTION_ERRORS as searches that take time linear in the output: a
# signature pattern's leading ``([\w.<>]+)`` retried at every position of a
# long word is quadratic (40 KB of one word: 37 s), and one character of it
# is enough to match. Plain words are found with ``in``, far faster than a
# regular expression tried at every position.
# The words as the pattern writes them, escapes and all (``\[build failed\]``),
# and as found in the output (``[build failed]``).
_WORDS, _, _REST = CONSTRUCTION_ERRORS.pattern.partition(")|")
_WRITTEN = tuple(_WORDS[1:].split("|")) if _WORDS.startswith("(") and _REST else ()
_PLAIN = tuple(re.sub(r"\\(.)", r"\1", w) for w in _WRITTEN)
if not _PLAIN or any(re.escape(p).replace("\\ ", " ") != w for p, w in zip(
        _PLAIN, _WRITTEN, strict=True)):
    _PLAIN, _REST = (), CONSTRUCTION_ERRORS.pattern
# Every signature pattern names a call: output without "()" cannot match them.
_NEEDS_CALL = "()" if all(r"\(\)" in p for p in SIGNATURE_PATTERNS) else ""
_CONSTRUCTION_ERRORS_LINEAR = re.compile(re.sub(r"(^|\|)\(\[\\w\.<>\]\+\)", r"\1[\\w.<>]",
                                                _REST))


# Node's frames of ``require``: an error thrown while a module loads (the CommonJS
# loader is on its stack) is that module not loading, whatever its type.
NODE_LOADING = ("at Module.require (node:internal/modules/",)


def is_construction_failure(output: str, extra_patterns: Sequence[str] = ()) -> bool:
    """Does the output look like a build, link or import error?

    Linear in the length of ``output`` for the built-in patterns (the
    ``extra_patterns`` are the user's own).
    """
    output = without_colours(output)
    if any(word in output for word in _PLAIN) or any(w in output for w in NODE_LOADING):
        return True
    if golang.MARK in output and golang.COMPILE_ERROR.search(output):  # go build, vet, run
        return True
    if (not _PLAIN or _NEEDS_CALL in output) and _CONSTRUCTION_ERRORS_LINEAR.search(output):
        return True
    return any(re.search(p, output) for p in extra_patterns)
