"""Hunks that open what other hunks of their file close (pure).

A hunk that wraps unchanged code in a new block, ``if (ok) {`` above it and
``}`` below, is two hunks when the wrapped code is longer than git's context:
each alone leaves the file with a brace that nothing closes. So does a
``#if DTOA_ENABLED ... #else`` whose ``#endif`` lies further down. No name
links the two halves, and the compiler's error (``expected declaration or
statement at end of input``, ``unterminated #else``) names none, so neither
the symbols nor resolution can pair them. Their delimiters do:

* for each side of a file, the delimiters of each line, read from its syntax
  tree (tree-sitter's ``{`` and ``}`` tokens, and in C and C++ the ``#if``,
  ``#ifdef`` and ``#ifndef`` that open a conditional and the ``#endif`` that
  closes it: a brace inside a string or a comment is no token);
* for each hunk, the *shift* it makes: the delimiters its added lines open
  less those they close, minus the same count of its removed lines. A hunk
  whose shift is not zero cannot build alone;
* the hunks of one file paired in order, each shift matched with the nearest
  earlier unmatched one of the other sign, as brackets are: both halves of a
  wrap need each other.

A side whose delimiters do not balance by this count (braces repeated under
``#if`` and ``#else``, code the grammar cannot read) says nothing for that
kind of delimiter, and nor does a file whose shifts cannot all be matched.
Only the files with a hunk that a plain count of its lines shows unbalanced
are parsed again (:func:`maybe_unbalanced`): most diffs have none.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Collection, Mapping, Sequence
from typing import Any

# Languages whose blocks are delimited by braces (tree-sitter's names).
BRACED = frozenset({"c", "cpp", "java", "javascript", "typescript", "tsx", "go", "rust"})
PREPROCESSED = frozenset({"c", "cpp"})
# Each kind of delimiter: the token types that open one, and those that close one.
_KINDS = {
    "brace": (("{",), ("}",)),
    "conditional": (("#if", "#ifdef", "#ifndef"), ("#endif",)),
}

Lines = Mapping[int, int]  # line number (1-based) -> opened less closed on it
# A hunk for pairing: its id, the lines it removes (GOOD's side) and adds (BAD's).
Hunk = tuple[int, Collection[int], Collection[int]]


def kinds_of(language: str) -> tuple[str, ...]:
    """The delimiters read in a language."""
    if language not in BRACED:
        return ()
    return ("brace", "conditional") if language in PREPROCESSED else ("brace",)


def maybe_unbalanced(language: str, removed: Sequence[str], added: Sequence[str]) -> bool:
    """Whether a plain count of a hunk's lines leaves its delimiters shifted: the
    cheap test before the syntax trees are read (a brace in a string may fool
    it either way; the trees decide)."""
    for kind in kinds_of(language):
        if _plain_shift(kind, added) != _plain_shift(kind, removed):
            return True
    return False


def _plain_shift(kind: str, lines: Sequence[str]) -> int:
    if kind == "brace":
        return sum(line.count("{") - line.count("}") for line in lines)
    opened = closed = 0
    for line in lines:
        word = line.lstrip()
        if word.startswith("#"):
            word = "#" + word[1:].lstrip()
            opened += word.startswith(("#if ", "#ifdef", "#ifndef", "#if(", "#if\t"))
            closed += word.startswith("#endif")
    return opened - closed


def delimiters(language: str, source: bytes) -> dict[str, Lines] | None:
    """For each kind of delimiter of ``language``, the shift of each line of one
    file side, when the side balances by it; None if it cannot be parsed."""
    query = _query(language)
    if query is None:
        return None
    from wynot.analysis.treesitter import parse  # a grammar exists: _query found it

    tree = parse(language, source)
    if tree is None:
        return None
    sign: dict[str, tuple[str, int]] = {}
    for kind in kinds_of(language):
        opening, closing = _KINDS[kind]
        sign.update(dict.fromkeys(opening, (kind, 1)))
        sign.update(dict.fromkeys(closing, (kind, -1)))
    found: dict[str, dict[int, int]] = {kind: {} for kind in kinds_of(language)}
    cursor = importlib.import_module("tree_sitter").QueryCursor(query)
    for node in cursor.captures(tree.root_node).get("delimiter", []):
        if node.is_missing or node.type not in sign:
            continue  # put in by error recovery, not in the text
        kind, step = sign[node.type]
        line = node.start_point[0] + 1
        found[kind][line] = found[kind].get(line, 0) + step
    return {kind: lines for kind, lines in found.items() if sum(lines.values()) == 0}


@functools.cache
def _query(language: str) -> Any:
    """A query capturing the delimiter tokens a grammar has; None without one."""
    if not kinds_of(language):
        return None
    from wynot.analysis.treesitter import grammar_language

    lang = grammar_language(language)
    if lang is None:
        return None
    ts = importlib.import_module("tree_sitter")
    known = []
    for kind in kinds_of(language):
        for token in (t for group in _KINDS[kind] for t in group):
            try:
                ts.Query(lang, f'"{token}" @delimiter')
            except Exception:  # a token this grammar does not have
                continue
            known.append(token)
    if not known:
        return None
    return ts.Query(lang, "[" + " ".join(f'"{t}"' for t in known) + "] @delimiter")


def paired(hunks: Sequence[Hunk], old: Mapping[str, Lines] | None,
           new: Mapping[str, Lines] | None) -> list[tuple[int, int]]:
    """The pairs of hunks of one file (in the file's order) that each shift its
    delimiters, matched as brackets: each hunk needs the other. A kind that
    either side does not balance, or whose shifts do not all match, gives none."""
    if old is None or new is None:
        return []
    pairs: list[tuple[int, int]] = []
    for kind in old.keys() & new.keys():
        removed_by, added_by = old[kind], new[kind]
        shifts = [(cid, sum(added_by.get(n, 0) for n in added)
                   - sum(removed_by.get(n, 0) for n in removed))
                  for cid, removed, added in hunks]
        found = _match([(cid, shift) for cid, shift in shifts if shift])
        if found is not None:
            pairs.extend(found)
    return sorted(set(pairs))


def _match(shifts: Sequence[tuple[int, int]]) -> list[tuple[int, int]] | None:
    """Each shift matched with the nearest earlier unmatched ones of the other sign
    (a shift of two matches two); None when some are left unmatched."""
    open_: list[list[int]] = []  # [hunk, shift left], all of one sign
    pairs: list[tuple[int, int]] = []
    for cid, shift in shifts:
        while shift and open_ and (open_[-1][1] > 0) != (shift > 0):
            top = open_[-1]
            taken = min(abs(shift), abs(top[1]))
            pairs.append((top[0], cid))
            top[1] -= taken if top[1] > 0 else -taken
            shift -= taken if shift > 0 else -taken
            if not top[1]:
                open_.pop()
        if shift:
            open_.append([cid, shift])
    return None if open_ else pairs
