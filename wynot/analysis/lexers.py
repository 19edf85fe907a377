"""Tokens of the languages tree-sitter has no grammar for here, by Pygments' lexers (pure).

The clusters by change (:mod:`wynot.analysis.clusters`) need, for each
change, the identifiers that leave and arrive on its lines, also inside
string literals, and the names its lines declare. :mod:`wynot.analysis.
treesitter` reads them for the languages it has a grammar for; for any other
file that Pygments has a lexer for (Ruby, PHP, Perl, Lua, Kotlin, Swift,
shell, build and configuration files: entry points and plugin tables live
there) they come from the lexer's token types instead:

* *tokens*: the words of every ``Name`` token (sigils and separators
  dropped: ``$count``, ``Registry::call``) and of every string literal, in
  order; keywords, operators, numbers and comments are not tokens;
* *declarations*: the words of ``Name.Function`` and ``Name.Class`` tokens
  (``def parse``, ``function parse``, ``class Parser``). How well a lexer
  marks them varies by language (C#'s marks no method name): where it does
  not, renames are not seen as respelling a declaration, as before.

Prose (plain text, Markdown, reStructuredText and other markup) has no
lexer here: a name it mentions is no code that needs the change.
"""

from __future__ import annotations

import fnmatch
import functools
import re
from typing import Any

from wynot.analysis.treesitter import Tokens

# Pygments is imported when a file needs it (5-10 ms, most diffs never do).

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Lexers of prose, by their module in pygments.lexers: what they mark up is text.
_PROSE = frozenset({"pygments.lexers.special", "pygments.lexers.markup",
                    "pygments.lexers.textfmts"})
SAMPLE = 4096  # bytes of a file that choose among the lexers of its name (.pl: Perl, Prolog)
MAX_TEXT = 1_000_000  # bytes: larger texts are not lexed (generated code, data)


def lexer_for(path: str, sample: bytes = b"") -> str | None:
    """The Pygments lexer (its first alias) for a file by its name; None for prose or
    without a lexer. Where several lexers claim the name (``.pm``: Perl, Raku,
    Promela), the one that reads ``sample`` (the file's first bytes) with the
    fewest errors, then the one whose own test rates it highest, then the one
    that finds the most declarations in it."""
    name = path.rsplit("/", 1)[-1]
    claiming = [alias for alias, patterns in _patterns()
                if any(fnmatch.fnmatchcase(name, p) for p in patterns)]
    candidates = [alias for alias in claiming if type(_lexer(alias)).__module__ not in _PROSE]
    if len(candidates) < 2:
        return candidates[0] if candidates else None
    text = sample[:SAMPLE].decode("utf-8", errors="replace")
    return min(candidates, key=lambda alias: _rating(alias, text))


@functools.cache
def _patterns() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each lexer's first alias and the file name patterns it claims."""
    from pygments.lexers import get_all_lexers
    return tuple((aliases[0], tuple(filenames))
                 for _, aliases, filenames, _ in get_all_lexers(plugins=False)
                 if aliases and filenames)


def _rating(alias: str, text: str) -> tuple[int, float, int]:
    """How well a lexer reads ``text``, best lowest: its errors, its own test's
    rating (negated), the declarations it finds (negated)."""
    from pygments.token import Error, Name
    errors = declarations = 0
    for kind, _ in _lexer(alias).get_tokens(text):
        errors += kind in Error
        declarations += kind in Name.Function or kind in Name.Class
    return errors, -_lexer(alias).analyse_text(text), -declarations


def lexed_tokens(lexer: str, text: bytes) -> Tokens:
    """The identifier and string-literal words of ``text`` in order, and the names it
    declares, as the lexer ``lexer`` (a Pygments alias) marks them."""
    if not text or len(text) > MAX_TEXT:
        return Tokens((), frozenset())
    from pygments.token import Name, String
    sequence: list[str] = []
    declared: set[str] = set()
    for kind, value in _lexer(lexer).get_tokens(text.decode("utf-8", errors="replace")):
        if kind in Name:
            words = _WORD.findall(value)
            sequence.extend(words)
            if kind in Name.Function or kind in Name.Class:
                declared.update(words)
        elif kind in String:
            sequence.extend(_WORD.findall(value))
    return Tokens(tuple(sequence), frozenset(declared))


@functools.cache
def _lexer(alias: str) -> Any:
    """One lexer object per alias (building one compiles its patterns)."""
    from pygments.lexers import get_lexer_by_name
    # startinline: a hunk of PHP has no opening tag (other lexers ignore the option)
    return get_lexer_by_name(alias, stripnl=False, ensurenl=False, startinline=True)
