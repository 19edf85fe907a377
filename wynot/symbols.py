"""Identifiers that a change defines, removes and uses (lexical, language-light).

This is the lexical knowledge behind grouping and predicted outcomes: a hunk
that starts using ``parse_header`` needs the hunk that defines it; a hunk that
removes the definition of ``old_name`` needs every hunk that stops using it.
Definitions are recognised with a few patterns that fit Python and C-like
languages; everything else is a plain identifier token. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from wynot.changes import Change, ChangeKind, FileDiff

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

_DEFINITIONS = [
    re.compile(r"^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)"),                # Python function
    re.compile(r"^\s*class\s+([A-Za-z_]\w*)"),                           # Python/C++ class
    re.compile(r"^([A-Za-z_]\w*)\s*(?::[^=]*)?=(?!=)"),                  # module-level name
    re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)"),                      # C macro
    re.compile(r"^\s*typedef\b.*?\b([A-Za-z_]\w*)\s*;"),                 # C typedef
    re.compile(r"^\s*(?:struct|union|enum)\s+([A-Za-z_]\w*)\s*\{"),      # C aggregate
    # C function definition or prototype at column 0: type words, then name(
    re.compile(r"^(?!(?:return|else|case|goto)\b)(?:[A-Za-z_]\w*[\s*]+)+([A-Za-z_]\w*)\s*\("),
]

# Words that never carry a dependency: keywords and builtins of Python and C.
_STOPWORD_TEXT = """
and as assert async await break class continue def del elif else except finally for from
global if import in is lambda nonlocal not or pass raise return try while with yield
None True False self cls print len str int float bool list dict set tuple range object
type super isinstance Exception ValueError TypeError KeyError
auto char const double extern float goto inline long register restrict short signed
sizeof static struct switch typedef union unsigned void volatile case default do enum
include define ifdef ifndef endif pragma NULL size_t uint8_t uint16_t uint32_t uint64_t
int8_t int16_t int32_t int64_t bool true false printf fprintf stderr stdout main argc argv
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


@dataclass(frozen=True, slots=True)
class Symbols:
    """What one change does to identifiers."""

    defined: frozenset[str]     # defined on the BAD side and not on the GOOD side
    undefined: frozenset[str]   # defined on the GOOD side and no longer on the BAD side
    used: frozenset[str]        # mentioned on the BAD side
    old: frozenset[str]         # mentioned on the GOOD side
    imported: frozenset[str] = frozenset()  # bound by a Python import on the BAD side only
    unimported: frozenset[str] = frozenset()  # bound by a Python import on the GOOD side only
    # (function, keyword) pairs: parameters a ``def`` line gains or loses, and
    # keyword arguments calls start or stop passing (Python signature changes).
    params_added: frozenset[tuple[str, str]] = frozenset()
    params_removed: frozenset[tuple[str, str]] = frozenset()
    keywords_added: frozenset[tuple[str, str]] = frozenset()
    keywords_removed: frozenset[tuple[str, str]] = frozenset()

    @property
    def signature_pairs(self) -> frozenset[tuple[str, str]]:
        """Every (function, keyword) pair whose use or definition this change alters."""
        return (self.params_added | self.params_removed
                | self.keywords_added | self.keywords_removed)

    @property
    def dropped(self) -> frozenset[str]:
        """Mentioned on the GOOD side and no longer on the BAD side."""
        return self.old - self.used

    @property
    def mentioned(self) -> frozenset[str]:
        return self.used | self.old | self.defined | self.undefined


def tokens(lines: Iterable[str]) -> set[str]:
    """Identifier tokens, without stopwords and one-letter names."""
    return {t for line in lines for t in IDENTIFIER.findall(line)
            if len(t) > 1 and t not in STOPWORDS}


_IMPORT = re.compile(r"^\s*(?:from\s+[\w.]+\s+)?import\s+\(?([\w.,\s]+?)\)?\s*(?:#.*)?$")
_IMPORTED = re.compile(r"([\w.]+)(?:\s+as\s+(\w+))?")


def imports(lines: Iterable[str]) -> set[str]:
    """Names that Python import lines bind (``import typing as t`` binds ``t``)."""
    found: set[str] = set()
    for line in lines:
        statement = _IMPORT.match(line)
        if statement:
            found.update(alias or name.split(".")[0]
                         for name, alias in _IMPORTED.findall(statement.group(1)))
    return found - STOPWORDS


MAX_ARGUMENTS = 2000
_CALL = re.compile(r"\b(def\s+)?([A-Za-z_]\w*)\s*\(")
_PARAM = re.compile(r"^\s*\**\s*([A-Za-z_]\w*)")
_KEYWORD = re.compile(r"^\s*([A-Za-z_]\w*)\s*=(?!=)")


def signatures(lines: Iterable[str]) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """(parameters of ``def`` lines, keyword arguments of calls) as (function, name) pairs.

    ``def f(a, keep=False)`` gives ("f", "a") and ("f", "keep");
    ``mod.f(x, keep=True)`` gives the keyword ("f", "keep"). A call or a
    definition may span lines; each side of a hunk is read as one text.
    """
    text = "\n".join(lines)
    params: set[tuple[str, str]] = set()
    keywords: set[tuple[str, str]] = set()
    for match in _CALL.finditer(text):
        name = match.group(2)
        if name in STOPWORDS and not match.group(1):
            continue
        for argument in _arguments(text, match.end()):
            if match.group(1):
                found = _PARAM.match(argument.split(":", 1)[0].split("=", 1)[0])
                if found and found.group(1) not in ("self", "cls"):
                    params.add((name, found.group(1)))
            else:
                keyword = _KEYWORD.match(argument)
                if keyword:
                    keywords.add((name, keyword.group(1)))
    return params, keywords


def _arguments(text: str, start: int) -> list[str]:
    """The top-level comma-separated pieces of the parenthesis opened at ``start - 1``.

    An argument list that does not close within MAX_ARGUMENTS characters is cut
    there (it continues outside the hunk).
    """
    depth, pieces, begin = 1, [], start
    for i in range(start, min(len(text), start + MAX_ARGUMENTS)):
        char = text[i]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                pieces.append(text[begin:i])
                return pieces
        elif char == "," and depth == 1:
            pieces.append(text[begin:i])
            begin = i + 1
    pieces.append(text[begin:start + MAX_ARGUMENTS])
    return pieces


def definitions(lines: Iterable[str]) -> set[str]:
    """Names the lines define (functions, classes, module-level names, macros, ...)."""
    found = set()
    for line in lines:
        for pattern in _DEFINITIONS:
            match = pattern.match(line)
            if match and match.group(1) not in STOPWORDS:
                found.add(match.group(1))
                break
    return found


def change_symbols(change: Change, fd: FileDiff) -> Symbols:
    """The symbols of one change, from its hunk lines or its whole file."""
    old_lines, new_lines = _sides(change, fd)
    old_defs, new_defs = definitions(old_lines), definitions(new_lines)
    old_tokens, new_tokens = tokens(old_lines), tokens(new_lines)
    if change.kind in (ChangeKind.ADD, ChangeKind.DELETE, ChangeKind.RENAME):
        module = _module_name(change.path if change.kind is not ChangeKind.RENAME
                              else fd.old_path or "")
        target = _module_name(fd.new_path or "")
        if change.kind is ChangeKind.ADD and module:
            new_defs.add(module)
        elif change.kind is ChangeKind.DELETE and module:
            old_defs.add(module)
        elif module and target and module != target:
            old_defs.add(module)
            new_defs.add(target)
    old_params, old_keywords = signatures(old_lines)
    new_params, new_keywords = signatures(new_lines)
    return Symbols(
        defined=frozenset(new_defs - old_defs),
        undefined=frozenset(old_defs - new_defs),
        used=frozenset(new_tokens),
        old=frozenset(old_tokens),
        imported=frozenset(imports(new_lines) - imports(old_lines)),
        unimported=frozenset(imports(old_lines) - imports(new_lines)),
        params_added=frozenset(new_params - old_params),
        params_removed=frozenset(old_params - new_params),
        keywords_added=frozenset(new_keywords - old_keywords),
        keywords_removed=frozenset(old_keywords - new_keywords),
    )


def _sides(change: Change, fd: FileDiff) -> tuple[list[str], list[str]]:
    """(removed lines, added lines) of a change, decoded for scanning."""
    if change.hunk is not None:
        old, new = [], []
        for line in change.hunk.text.split("\n")[1:]:
            if line.startswith("-"):
                old.append(line[1:])
            elif line.startswith("+"):
                new.append(line[1:])
        return old, new
    old_text = _text(fd.old.data) if fd.old is not None and change.kind is ChangeKind.DELETE else ""
    new_text = _text(fd.new.data) if fd.new is not None and change.kind is ChangeKind.ADD else ""
    return old_text.splitlines(), new_text.splitlines()


def _text(data: bytes) -> str:
    if b"\0" in data[:8000]:
        return ""
    return data.decode("utf-8", errors="replace")


def _module_name(path: str) -> str:
    """``pkg/net/http.py`` -> ``http``; ``src/parse.c`` -> ``parse``; '' if none."""
    name = path.rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0] if "." in name else name
    if stem == "__init__":
        parts = path.split("/")
        stem = parts[-2] if len(parts) > 1 else ""
    return stem if IDENTIFIER.fullmatch(stem) and stem not in STOPWORDS else ""
