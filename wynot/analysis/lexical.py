"""Identifiers on a hunk's lines, for any language (pure).

Two levels live here. The *line scan* reads the removed and added lines of a
hunk as text: identifier tokens, Python import lines, ``def`` and call
signatures, and definitions by a few patterns that fit Python and C-like
languages. It is what :mod:`wynot.analysis.symbols` falls back on where no
syntax tree is available.

The *token change* (:func:`token_change`) compares the token sequences of a
hunk's two sides, as a lexer gives them (names, and the words of string
literals, never keywords or punctuation): which identifiers leave, which
arrive, and which are respelled at the same place (``f0`` -> ``f0_v2``).
Clusters by change (:mod:`wynot.analysis.clusters`) are built from it.
"""

from __future__ import annotations

import difflib
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from wynot.analysis.compact import EMPTY, build, reduce
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
    # Rust items, methods inside an impl included (a struct, enum or union by
    # what follows its name: not C's `struct point p;` nor a brace on the next
    # line, which the C pattern above leaves alone too); a constant by its type
    re.compile(r"^\s*(?:pub(?:\([\w:\s]+\))?\s+)?(?:(?:const|async|unsafe|extern\s+\"\w+\")\s+)*"
               r"(?:(?:fn|trait|mod|macro_rules!)\s+([A-Za-z_]\w*)|(?:struct|enum|union)\s+"
               r"([A-Za-z_]\w*)\s*(?:[({<]|where\b))"),
    re.compile(r"^\s*(?:pub(?:\([\w:\s]+\))?\s+)?(?:const|static)\s+(?:mut\s+)?([A-Z_][A-Z0-9_]*)\s*:"),
    # Go: a function or a method (its receiver first), generic or not; a type
    re.compile(r"^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*[(\[]"),
    re.compile(r"^(?:export\s+)?type\s+([A-Za-z_]\w*)\b"),
]

# What every line the patterns above match contains.
_MAY_DEFINE = re.compile(r"def|class|=|\{|\(|mod\b|struct\b|type\b")

# Words that never carry a dependency in the line scan: keywords and builtins
# of Python and C. (Token changes use the lexer's token types instead.)
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

# Files whose definitions the patterns above can read. Elsewhere (prose, data,
# languages they do not fit) a change defines nothing and needs nothing.
PYTHON_SUFFIXES = frozenset({".py", ".pyi", ".pyw"})
CODE_SUFFIXES = PYTHON_SUFFIXES | frozenset({
    ".pyx", ".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".m", ".mm",
    ".java", ".js", ".jsx", ".ts", ".tsx", ".go", ".rs", ".cs", ".kt", ".swift", ".scala",
})

# What :func:`tokens` leaves out: the stopwords and every one-letter name.
_ONE_LETTER = frozenset("_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_NO_TOKENS = STOPWORDS | _ONE_LETTER
_SHORT_MODULE = re.compile(r"(?<![\w.])([A-Za-z_])(?:\.(?=[A-Za-z_])|\()")


def tokens(lines: Iterable[str]) -> set[str]:
    """Identifier tokens, without stopwords and one-letter names.

    A one-letter name whose attribute is read or that is called stays
    (``t.Optional``, ``_("text")``): it is usually a module alias or a
    function imported under a short name (``import typing as t``).
    """
    text = "\n".join(lines)  # no token spans a line break
    found = set(IDENTIFIER.findall(text))
    # Each name the short-module pattern finds is a one-letter identifier token
    # too (nothing word-like or a dot before it, a dot or parenthesis after it):
    # text without one-letter tokens has none to search for.
    short = not found.isdisjoint(_ONE_LETTER)
    found -= _NO_TOKENS
    if short:
        found.update(_SHORT_MODULE.findall(text))
    return found


_IMPORT = re.compile(r"^\s*(?:from\s+[\w.]+\s+)?import\s+\(?([\w.,\s]+?)\)?\s*(?:#.*)?$")
_IMPORTED = re.compile(r"([\w.]+)(?:\s+as\s+(\w+))?")
STAR_IMPORT = re.compile(r"^\s*from\s+[\w.]*?(\w+)\s+import\s+\*")


def imports(lines: Iterable[str]) -> set[str]:
    """Names that Python import lines bind (``import typing as t`` binds ``t``)."""
    found: set[str] = set()
    for line in lines:
        statement = _IMPORT.match(line) if "import" in line else None
        if statement:
            found.update(alias or name.split(".")[0]
                         for name, alias in _IMPORTED.findall(statement.group(1)))
    return found - STOPWORDS


MAX_ARGUMENTS = 2000
_CALL = re.compile(r"\b(def\s+)?([A-Za-z_]\w*)\s*\(")
_PARAM = re.compile(r"^\s*\**\s*([A-Za-z_]\w*)")
_KEYWORD = re.compile(r"^\s*([A-Za-z_]\w*)\s*=(?!=)")
Pairs = set[tuple[str, str]]


def signatures(lines: Iterable[str]) -> tuple[Pairs, Pairs]:
    """(parameters of ``def`` lines, keyword arguments of calls) as (function, name) pairs.

    ``def f(a, keep=False)`` gives ("f", "a") and ("f", "keep");
    ``mod.f(x, keep=True)`` gives the keyword ("f", "keep"). A call or a
    definition may span lines; each side of a hunk is read as one text.
    """
    text = "\n".join(lines)
    params: Pairs = set()
    keywords: Pairs = set()
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
        if not _MAY_DEFINE.search(line):  # no pattern fits: a cheaper test first
            continue
        for pattern in _DEFINITIONS:
            match = pattern.match(line)
            name = match and (match.group(1) or match.group(match.lastindex or 1))
            if name and name not in STOPWORDS:
                found.add(name)
                break
    return found


def suffix(path: str) -> str:
    """``src/a.PY`` -> ``.py``; '' without one."""
    name = path.rsplit("/", 1)[-1]
    return "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""


def text_of(data: bytes) -> str:
    """Text to scan ('' for binary data)."""
    if is_binary(data):
        return ""
    return data.decode("utf-8", errors="replace")


def is_binary(data: bytes) -> bool:
    """Whether ``data`` is binary, as git tells (a NUL byte in its first 8,000)."""
    return b"\0" in data[:8000]


# What ``str.splitlines`` cuts at beyond ``\n`` and ``\r``, UTF-8 encoded.
_OTHER_BREAKS = (b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e", b"\xc2\x85", b"\xe2\x80\xa8",
                 b"\xe2\x80\xa9")


def lines_with(data: bytes, word: str) -> list[str]:
    """The lines of ``text_of(data).splitlines()`` that contain ``word`` (ASCII).

    The same lines, decoding only those that hold the word: where the data
    has no other line break than ``\n`` and ``\r``, its lines as bytes are
    the text's lines encoded (a decoding error never joins or splits them).
    """
    encoded = word.encode("ascii")
    if encoded not in data or is_binary(data):
        return []
    if any(other in data for other in _OTHER_BREAKS):
        return [line for line in text_of(data).splitlines() if word in line]
    # The lines of ``data.splitlines()`` that hold the word, found without
    # splitting every line: each occurrence widened to the breaks around it.
    cr = b"\r" in data
    found: list[str] = []
    at = data.find(encoded)
    while at >= 0:
        begin = data.rfind(b"\n", 0, at) + 1
        end = data.find(b"\n", at)
        end = len(data) if end < 0 else end
        if cr:  # a lone CR or CRLF breaks a line too
            begin = max(begin, data.rfind(b"\r", begin, at) + 1)
            before = data.find(b"\r", at, end)
            end = end if before < 0 else before
        found.append(data[begin:end].decode("utf-8", errors="replace"))
        at = data.find(encoded, end)
    return found


def module_name(path: str) -> str:
    """``pkg/net/http.py`` -> ``http``; ``src/parse.c`` -> ``parse``; '' if none."""
    name = path.rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0] if "." in name else name
    if stem == "__init__":
        parts = path.split("/")
        stem = parts[-2] if len(parts) > 1 else ""
    return stem if IDENTIFIER.fullmatch(stem) and stem not in STOPWORDS else ""


def span(start: int, length: int) -> set[int]:
    return set(range(start, start + length))


Changed = tuple[set[int], set[int]]  # line numbers: (removed on GOOD's side, added on BAD's)


def changed_lines(hunk_text: str, old_start: int, new_start: int) -> Changed:
    """Line numbers of the removed lines (GOOD) and the added lines (BAD) of a hunk."""
    removed, added = changed_texts(hunk_text, old_start, new_start)
    return set(removed), set(added)


def changed_texts(hunk_text: str, old_start: int, new_start: int
                  ) -> tuple[dict[int, str], dict[int, str]]:
    """The text of a hunk's removed lines by GOOD line number, and of its added
    lines by BAD line number."""
    removed: dict[int, str] = {}
    added: dict[int, str] = {}
    old, new = old_start, new_start
    for line in hunk_text.split("\n")[1:]:
        if line.startswith("-"):
            removed[old] = line[1:]
            old += 1
        elif line.startswith("+"):
            added[new] = line[1:]
            new += 1
        elif line.startswith(" "):
            old += 1
            new += 1
    return removed, added


def leading_context(hunk_text: str) -> int:
    """How many context lines a hunk starts with (its lines after the header that
    start with a space, up to the first that does not; the text is not split)."""
    count = 0
    at = hunk_text.find("\n") + 1  # the first line after the header
    while at and hunk_text.startswith(" ", at):
        count += 1
        at = hunk_text.find("\n", at) + 1
    return count


def sides(change: Change, fd: FileDiff) -> tuple[list[str], list[str]]:
    """(removed lines, added lines) of a change, decoded for scanning."""
    if change.hunk is not None:
        old, new = [], []
        for line in change.hunk.text.split("\n")[1:]:
            if line.startswith("-"):
                old.append(line[1:])
            elif line.startswith("+"):
                new.append(line[1:])
        return old, new
    old_text = text_of(fd.old.data) if fd.old is not None and change.kind is ChangeKind.DELETE \
        else ""
    new_text = text_of(fd.new.data) if fd.new is not None and change.kind is ChangeKind.ADD \
        else ""
    return old_text.splitlines(), new_text.splitlines()


def read_change(change: Change, fd: FileDiff) -> tuple[list[str], list[str], Changed | None]:
    """:func:`sides` and, for a hunk, its :func:`changed_lines`, in one pass over its text."""
    hunk = change.hunk
    if hunk is None:
        return (*sides(change, fd), None)
    old_text: list[str] = []
    new_text: list[str] = []
    removed: set[int] = set()
    added: set[int] = set()
    old, new = hunk.old_start, hunk.new_start
    for line in hunk.text.split("\n")[1:]:
        if line.startswith("-"):
            old_text.append(line[1:])
            removed.add(old)
            old += 1
        elif line.startswith("+"):
            new_text.append(line[1:])
            added.add(new)
            new += 1
        elif line.startswith(" "):
            old += 1
            new += 1
    return old_text, new_text, (removed, added)


@dataclass(frozen=True, slots=True)
class TokenChange:
    """How one change alters the identifiers of its lines.

    ``left``: tokens that occur fewer times on the BAD side than on the GOOD
    side; ``arrived``: more times. ``respelled``: (old, new) pairs that take
    each other's place in a token-level diff of the two sides (a rename at
    that spot); ``qualifiers``: (old, new, the two tokens before the new one,
    joined by a dot) for each respelling (``"pkg.d1.m3", "f0_v2"`` ->
    ``d1.m3``: which module's ``f0`` was renamed). ``defined``: tokens the
    BAD side defines (a function, type or variable name in its
    declaration), ``undefined``: the GOOD side's.
    """

    left: frozenset[str] = frozenset()
    arrived: frozenset[str] = frozenset()
    respelled: frozenset[tuple[str, str]] = frozenset()
    qualifiers: frozenset[tuple[str, str, str]] = frozenset()
    defined: frozenset[str] = frozenset()
    undefined: frozenset[str] = frozenset()

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce(self)

    def __post_init__(self) -> None:
        """One empty set for all (216 bytes each), one copy of each name."""
        for name in ("left", "arrived", "respelled", "qualifiers", "defined", "undefined"):
            value = getattr(self, name)
            if not value:
                object.__setattr__(self, name, _EMPTY)
            elif name in ("left", "arrived"):
                object.__setattr__(self, name, frozenset(map(sys.intern, value)))


_EMPTY: frozenset[Any] = EMPTY
NO_TOKEN_CHANGE = TokenChange()


def token_change(old: Sequence[str], new: Sequence[str], *, old_defined: Iterable[str] = (),
                 new_defined: Iterable[str] = ()) -> TokenChange:
    """Compare the token sequences of a change's two sides."""
    old_count, new_count = Counter(old), Counter(new)
    # ``get``, not ``[]``: a Counter's missing key goes through ``__missing__`` in Python
    left = frozenset(t for t, n in old_count.items() if n > new_count.get(t, 0))
    arrived = frozenset(t for t, n in new_count.items() if n > old_count.get(t, 0))
    qualifiers: set[tuple[str, str, str]] = set()
    if left and arrived:
        matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "replace" and i2 - i1 == j2 - j1:
                qualifiers.update((a, new[j1 + k], ".".join(new[max(0, j1 + k - 2):j1 + k]))
                                  for k, a in enumerate(old[i1:i2])
                                  if a != new[j1 + k] and a in left and new[j1 + k] in arrived)
    defined, undefined = set(new_defined), set(old_defined)
    # TokenChange(...) as __init__ and __post_init__ make it, without them
    return build(TokenChange, (left, arrived, {(a, b) for a, b, _ in qualifiers}, qualifiers,
                               defined - undefined, undefined - defined), _TOKEN_SETS)


_TOKEN_SETS = (True, True, False, False, False, False)  # left and arrived interned
