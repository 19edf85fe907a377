"""The failure-resolution loop (WYNOT paper, section 8).

When a configuration does not build, its error output usually names what is
missing: ``NameError: name 'parse_header' is not defined``, ``undefined
reference to `frob'``. :class:`Resolver` reads those identifiers and proposes
the changes, not yet applied, that define them (or, failing that, mention
them), so the configuration can be retried. It also says which applied
changes mentioned the identifier, so the dependency can be learned for the
rest of the search. Pure: the caller runs the tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from wynot.analysis.depends import MAX_USERS
from wynot.analysis.symbols import Symbols

_Q = "['‘’`\"]"  # quotes: ASCII, and gcc's typographic ones in UTF-8 locales
DEFAULT_PATTERNS: tuple[str, ...] = (
    # Python
    r"NameError: name '(\w+)' is not defined",
    r"ImportError: cannot import name '(\w+)'",
    r"ModuleNotFoundError: No module named '(?:[\w.]*\.)?(\w+)'",
    r"AttributeError: module '[\w.]+' has no attribute '(\w+)'",
    r"AttributeError: (?:type object )?'\w+' (?:object )?has no attribute '(\w+)'",
    r"UnboundLocalError: .*?'(\w+)'",
    # gcc and clang
    rf"{_Q}(\w+){_Q} undeclared",
    rf"implicit declaration of function {_Q}(\w+){_Q}",
    rf"undefined reference to {_Q}(\w+){_Q}",
    rf"unknown type name {_Q}(\w+){_Q}",
    rf"use of undeclared identifier {_Q}(\w+){_Q}",
    rf"too (?:few|many) arguments to function {_Q}(?:[\w\s*]*?\b)?(\w+)",
    rf"conflicting types for {_Q}(\w+){_Q}",
    rf"has no member named {_Q}(\w+){_Q}",
    rf"no member named {_Q}(\w+){_Q}",
)
# Python calls that no longer fit a changed signature: (function, parameter).
SIGNATURE_PATTERNS: tuple[str, ...] = (
    r"([\w.<>]+)\(\) got an unexpected keyword argument '(\w+)'",
    r"([\w.<>]+)\(\) got multiple values for argument '(\w+)'",
    r"([\w.<>]+)\(\) missing \d+ required (?:positional|keyword-only) arguments?: '(\w+)'",
)
# Output that shows the configuration did not build or import, with or without names.
CONSTRUCTION_ERRORS = re.compile("|".join((
    r"(NameError|ImportError|ModuleNotFoundError|AttributeError: module|SyntaxError|"
    r"IndentationError|error: |undefined reference|fatal error|ld returned)",
    *SIGNATURE_PATTERNS,
)))
MAX_MENTIONERS = 10


@dataclass(frozen=True, slots=True)
class Resolution:
    """What to add, and the dependencies it reveals (applied change -> added change)."""

    add: frozenset[int]
    learned: tuple[tuple[int, int], ...]
    names: tuple[str, ...]


class Resolver:
    """Maps build errors to the changes that could repair them.

    ``scopes`` (change id -> enclosing function, as grouping sees it) lets a
    blamed local name (``globs``) be repaired by the hunks of the same
    function rather than by every hunk that happens to use the word.
    ``files`` (change id -> file) lets a name whose import an applied change
    dropped be repaired by the changes to its users in that file.
    """

    def __init__(self, symbols: Mapping[int, Symbols], extra_patterns: Sequence[str] = (),
                 scopes: Mapping[int, str] | None = None,
                 files: Mapping[int, int] | None = None):
        self.patterns = [re.compile(p) for p in (*extra_patterns, *DEFAULT_PATTERNS)]
        self._signature_patterns = [re.compile(p) for p in SIGNATURE_PATTERNS]
        self._signers: dict[tuple[str, str], list[int]] = {}
        self._definers: dict[str, list[int]] = {}
        self._removers: dict[str, list[int]] = {}
        self._unimporters: dict[str, list[int]] = {}
        self._old_users: dict[str, list[int]] = {}
        self._mentioners: dict[str, list[int]] = {}
        for cid in sorted(symbols):
            sym = symbols[cid]
            for name in sym.defined | sym.imported:
                self._definers.setdefault(name, []).append(cid)
            for name in sym.undefined:
                self._removers.setdefault(name, []).append(cid)
            for name in sym.unimported:
                self._unimporters.setdefault(name, []).append(cid)
            for name in (sym.old if sym.code else ()):
                self._old_users.setdefault(name, []).append(cid)
            for name in sym.mentioned:
                self._mentioners.setdefault(name, []).append(cid)
            for pair in sym.signature_pairs:
                self._signers.setdefault(pair, []).append(cid)
        self._scopes = {cid: scope for cid, scope in (scopes or {}).items() if scope}
        self._files = files or {}

    def names(self, output: str) -> list[str]:
        """Identifiers the error output blames, in order of appearance."""
        found: list[str] = []
        for line in output.splitlines():
            for pattern in self.patterns:
                for match in pattern.finditer(line):
                    name = next((g for g in match.groups() if g), None)
                    if name and name not in found:
                        found.append(name)
        return found

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
        """Changes outside ``applied`` that could repair the blamed names.

        For each name: the changes that newly define it or import it; when an
        applied change removed its definition, every change to a line that used
        it (the importers of a removed name); when an applied change dropped
        its import, the changes to the lines of that file that used it; and the
        changes that mention it, those in the function of an applied change
        that mentions it first (a local variable), else all of them when they
        are few (the importer of a moved function is repaired by the change to
        the importer). For a call that does not fit a signature: the changes to
        that function's parameter or to the calls that pass it.
        """
        applied = frozenset(applied)
        names = self.names(output)
        add: set[int] = set()
        learned: list[tuple[int, int]] = []
        pairs = self.signature_pairs(output)
        for pair in pairs:
            signers = self._signers.get(pair, ())
            fixes = [c for c in signers if c not in applied]
            if len(fixes) > MAX_USERS:
                continue
            add.update(fixes)
            learned.extend((user, c) for user in signers if user in applied for c in fixes)
        for name in names:
            definers = [c for c in self._definers.get(name, ()) if c not in applied]
            add.update(definers)
            if any(c in applied for c in self._removers.get(name, ())):
                old_users = [c for c in self._old_users.get(name, ()) if c not in applied]
                if len(old_users) <= MAX_USERS:
                    add.update(old_users)
            unimporters = [c for c in self._unimporters.get(name, ()) if c in applied]
            if unimporters and self._files:
                where = {self._files[c] for c in unimporters}
                local = [c for c in self._old_users.get(name, ())
                         if c not in applied and self._files[c] in where]
                add.update(local)
                learned.extend((u, c) for u in unimporters for c in local
                               if self._files[u] == self._files[c])
            mentioners = [c for c in self._mentioners.get(name, ()) if c not in applied]
            users = [c for c in self._mentioners.get(name, ()) if c in applied]
            user_scopes = {self._scopes[c] for c in users if c in self._scopes}
            near = [c for c in mentioners if self._scopes.get(c) in user_scopes]
            if near:
                add.update(near)
            elif len(mentioners) <= MAX_MENTIONERS:
                add.update(mentioners)
            learned.extend((user, c) for user in users for c in (*definers, *near))
        labels = [f"{function}({parameter}=)" for function, parameter in pairs]
        return Resolution(frozenset(add), tuple(learned), (*names, *labels))


# CONSTRUCTION_ERRORS as searches that take time linear in the output: a
# signature pattern's leading ``([\w.<>]+)`` retried at every position of a
# long word is quadratic (40 KB of one word: 37 s), and one character of it
# is enough to match. Plain words are found with ``in``, far faster than a
# regular expression tried at every position.
_WORDS, _, _REST = CONSTRUCTION_ERRORS.pattern.partition(")|")
_PLAIN = tuple(_WORDS[1:].split("|")) if _WORDS.startswith("(") and _REST else ()
if not _PLAIN or any(re.escape(w).replace("\\ ", " ") != w for w in _PLAIN):
    _PLAIN, _REST = (), CONSTRUCTION_ERRORS.pattern
# Every signature pattern names a call: output without "()" cannot match them.
_NEEDS_CALL = "()" if all(r"\(\)" in p for p in SIGNATURE_PATTERNS) else ""
_CONSTRUCTION_ERRORS_LINEAR = re.compile(re.sub(r"(^|\|)\(\[\\w\.<>\]\+\)", r"\1[\\w.<>]",
                                                _REST))


def is_construction_failure(output: str, extra_patterns: Sequence[str] = ()) -> bool:
    """Does the output look like a build, link or import error?

    Linear in the length of ``output`` for the built-in patterns (the
    ``extra_patterns`` are the user's own).
    """
    if any(word in output for word in _PLAIN):
        return True
    if (not _PLAIN or _NEEDS_CALL in output) and _CONSTRUCTION_ERRORS_LINEAR.search(output):
        return True
    return any(re.search(p, output) for p in extra_patterns)
