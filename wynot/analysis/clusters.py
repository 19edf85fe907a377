"""Clusters by change: hunks linked by the identifiers they change, in any language (pure).

Every change has a :class:`~wynot.analysis.lexical.TokenChange`: the
identifiers (names, and words of string literals) that leave its lines and
that arrive on them. Three patterns link changes whatever the language:

* *respelling*: ``a`` leaves and ``b`` arrives at the same place of a
  token-level diff of one change (``f0`` -> ``f0_v2``, also inside
  ``"pkg.m3:f0"``); every change that loses ``a`` and gains ``b`` is linked
  to it (the definition, its callers, a table of names), provided one of
  them respells the declaration itself, ``a`` declared on its GOOD side and
  ``b`` on its BAD side (the same edit of a call to a library function in
  many places, ``lower()`` -> ``casefold()``, links nothing);
* *move*: a definition of ``t`` leaves one change and a definition of ``t``
  arrives in another (a function moved to another file). The change that
  removes the old definition needs the one that adds the new (its users
  would lose ``t``), not the other way round: both definitions together
  often build, when the new one is in another namespace, module or
  ``#if`` branch (cxxopts 2 -> 3 moved its regular expressions into a new
  namespace; jansson 2.14 moved ``from_locale`` under an ``#else``);
* *new* or *removed name*: ``t`` existed nowhere on the GOOD side of the
  diff's files, arrives in several changes and is declared in one or two of
  them (a new helper and its first users; a C prototype and its
  definition); or the same the other way round (a helper and its last users
  deleted). A name declared in more places (a parameter several functions
  gain) says nothing about which changes belong together.

Rarity decides what counts: a token that changes in more than
:func:`link_limit` changes, or that is common in the diff's files where they
do not change, links nothing. No keyword lists: tokens are what the lexer
calls identifiers and strings (:mod:`wynot.analysis.treesitter`).

A fourth pattern reads literals, not names: a *version bump*, the same
version (``1.6.2`` -> ``1.7.0``) respelled on a line of changes in two or more
files (a package's ``package provide`` and its index's ``package ifneeded``,
a library's version macro and its build file's). Such places are often
checked against each other when the code loads, and do nothing apart.

Respellings and version bumps make a :class:`Cluster` (connected components of
their links): :mod:`wynot.analysis.model` ties each into a unit, so that the
search keeps it together and predicts the configurations that split it. Moves
are directed ties (:attr:`Links.moves`), predicted as the clusters' are. New
and removed names give directed needs (a user needs the new helper, not the
other way round: tied both ways, every new helper of a release rewrite
chained its users into one block of 47 changes on click 7 -> 8). In Python
files the ``ast`` analysis reads moves and new names through imports, more
precisely; only respellings (names in strings) come from here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass

from wynot.analysis.lexical import TokenChange

MIN_LINK_LIMIT = 8  # a token may link this many changes in any diff
LINK_SHARE = 0.02  # ... or this share of the changes, in a large diff
MAX_MOVERS = 3  # a name defined or undefined by more changes than this is no move
MAX_DECLARERS = 2  # a new name declared by more changes (a parameter name) is no helper


@dataclass(frozen=True, slots=True)
class Cluster:
    """Changes that one edit spread over the diff, and the tokens that link them."""

    members: frozenset[int]
    reasons: tuple[str, ...]  # "f0 -> f0_v2", "move parse", "new helper", "removed helper"


def link_limit(changes: int) -> int:
    """How many changes one token may link in a diff of ``changes`` changes."""
    return max(MIN_LINK_LIMIT, int(changes * LINK_SHARE))


Counts = Callable[[Iterable[str]], Mapping[str, int]]
# A change's file index and the parts of its path without suffix: src/parse.c -> (src, parse)
Place = tuple[int, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Links:
    """What the token changes link: clusters (units) and needs (``a`` needs ``b``)."""

    clusters: tuple[Cluster, ...]
    needs: tuple[tuple[int, int, str], ...]  # (a, b, reason)
    moves: tuple[tuple[int, int, str], ...] = ()  # (remover, adder, "move t")


def find_clusters(changes: Mapping[int, TokenChange], places: Mapping[int, Place],
                  good_counts: Counts, bad_counts: Counts,
                  precise: Container[int] = (), texts: Mapping[int, str] | None = None
                  ) -> Links:
    """The clusters and needs among ``changes`` (change id -> its token change).

    ``good_counts(tokens)`` says how often each of ``tokens`` occurs on the
    GOOD side of the diff's files, ``bad_counts`` on the BAD side; they are
    asked only about the few candidate tokens. ``precise``: changes whose
    declarations a finer analysis reads (Python's, through imports): moves,
    new and removed names declared there are left to it. ``texts``: each
    change's hunk text (``-`` and ``+`` lines), for the version bumps; those
    of any file, whether its tokens are read or not.
    """
    limit = link_limit(len(changes))
    leaving: dict[str, list[int]] = {}
    arriving: dict[str, list[int]] = {}
    for cid in sorted(changes):
        change = changes[cid]
        for token in change.left:
            leaving.setdefault(token, []).append(cid)
        for token in change.arrived:
            arriving.setdefault(token, []).append(cid)
    respelled = {pair for change in changes.values() for pair in change.respelled}
    links = [*_respellings(changes, arriving, limit, good_counts, places),
             *version_bumps(texts or {}, places, limit)]
    moves = _moves(changes, leaving, arriving, limit, good_counts, precise)
    needs = [*_new_names(changes, arriving, limit, good_counts, "new",
                         {b for _, b in respelled}, precise, places),
             *_new_names(changes, leaving, limit, bad_counts, "removed",
                         {a for a, _ in respelled}, precise, places)]
    return Links(tuple(_components(links)), tuple(needs), tuple(moves))


Link = tuple[frozenset[int], str]


def _respellings(changes: Mapping[int, TokenChange], arriving: Mapping[str, list[int]],
                 limit: int, good_counts: Counts, places: Mapping[int, Place]) -> list[Link]:
    """Changes that lose ``a`` and gain ``b``, for each respelling ``a -> b`` seen.

    When declarations in several modules are respelled alike (``f0`` of two
    modules both become ``f0_v2``), each module's declarations are linked
    only to the changes in its files and to those that qualify the new name
    by its module (the tokens before it: ``"pkg.m3", "f0_v2"``,
    ``m3.f0_v2``). A C header and its source (``lib.h``, ``lib.c``) are one
    module.
    """
    pairs = {pair for change in changes.values() for pair in change.respelled}
    common = good_counts({b for _, b in pairs})
    links: list[Link] = []
    for a, b in sorted(pairs):
        if common.get(b, 0) > limit:
            continue
        members = sorted(cid for cid in arriving[b] if a in changes[cid].left)
        modules: dict[tuple[str, ...], set[int]] = {}  # declaring module -> its files
        for c in members:
            if b in changes[c].defined and a in changes[c].undefined:
                modules.setdefault(places[c][1], set()).add(places[c][0])
        if not modules:
            continue
        if len(modules) == 1:
            linked = [frozenset(members)]
        else:
            dirs = {part for c in members for part in places[c][1][:-1]}
            linked = [frozenset(c for c in members if places[c][0] in files
                                or any(_names(q, path, dirs)
                                       for x, y, q in changes[c].qualifiers if (x, y) == (a, b)))
                      for path, files in modules.items()]
        links.extend((group, f"{a} -> {b}") for group in linked if 1 < len(group) <= limit)
    return links


# A version: two to four dot-separated numbers, not part of a longer word or number;
# a bump has three on one side at least (1.5 -> 1.5.1, not a constant's 0.25 -> 0.5).
_VERSION = re.compile(r"(?<![\w.])\d+(?:\.\d+){1,3}(?![\w.])")
_THREE_PARTS = re.compile(r"\.\d+\.\d")  # starts with a literal: a fast scan


def version_bumps(texts: Mapping[int, str], places: Mapping[int, Place],
                  limit: int) -> list[Link]:
    """Changes of two or more files that respell the same version alike.

    A change respells ``a`` to ``b`` where a removed line and an added line
    are the same but for their versions (``package provide mime 1.6.2`` ->
    ``... 1.7.0``), or where ``a`` is the one version that leaves its lines
    and ``b`` the one that arrives; one of the two has three parts or more
    (two-part numbers are as often constants: ``0.25`` -> ``0.5``). A bump
    seen in one file only, or in more changes than ``limit``, links
    nothing. Only a hunk with a three-part number is read line by line."""
    bumped: dict[tuple[str, str], list[int]] = {}
    for cid in sorted(texts):
        for pair in sorted(_bumps(texts[cid])):
            bumped.setdefault(pair, []).append(cid)
    return [(frozenset(ids), f"version {a} -> {b}") for (a, b), ids in sorted(bumped.items())
            if 1 < len(ids) <= limit and len({places[c][0] for c in ids}) > 1]


def _bumps(text: str) -> set[tuple[str, str]]:
    """The (old, new) versions one hunk's text respells, outside comments."""
    if not _THREE_PARTS.search(text):
        return set()
    removed: dict[str, list[str]] = {}  # line without its versions -> its versions
    added: dict[str, list[str]] = {}
    in_comment = {"-": False, "+": False}  # inside a /* */ block, on each side
    for line in text.splitlines():
        mark = line[:1]
        if mark not in " -+" or line.startswith(("---", "+++")):
            continue
        sides = "-+" if mark == " " else mark
        code = ""
        for side in sides:  # context lines go on in both sides' state
            code, in_comment[side] = _code(line[1:], in_comment[side])
        found = _VERSION.findall(code) if mark != " " else []
        if found:
            target = removed if mark == "-" else added
            target.setdefault(_VERSION.sub("#", code).strip(), found)
    if not removed or not added:
        return set()
    pairs = {(a, b) for key, old in removed.items() if len(old) == len(added.get(key, ()))
             for a, b in zip(old, added[key], strict=True) if a != b}
    gone = {v for vs in removed.values() for v in vs} - {v for vs in added.values() for v in vs}
    come = {v for vs in added.values() for v in vs} - {v for vs in removed.values() for v in vs}
    if len(gone) == 1 and len(come) == 1:
        pairs.add((next(iter(gone)), next(iter(come))))
    return {(a, b) for a, b in pairs if max(a.count("."), b.count(".")) >= 2}


# A line comment: // anywhere, # at the start but for a C directive (#define, #if...)
_LINE_COMMENT = re.compile(r"//|^\s*#(?![a-z])")


def _code(line: str, in_comment: bool) -> tuple[str, bool]:
    """The part of ``line`` outside comments (``/* */`` blocks, which may span
    lines: ``in_comment`` says whether one is open; ``//``; a ``#`` line but
    a C directive's), and whether a block is open after it. A guess: a
    comment marker inside a string cuts the line there."""
    kept: list[str] = []
    at = 0
    while at < len(line):
        if in_comment:
            end = line.find("*/", at)
            if end < 0:
                return "".join(kept), True
            at, in_comment = end + 2, False
            continue
        start = line.find("/*", at)
        part = line[at:] if start < 0 else line[at:start]
        cut = _LINE_COMMENT.search(part) if part else None
        if cut is not None:
            kept.append(part[:cut.start()])
            return "".join(kept), False
        kept.append(part)
        if start < 0:
            break
        at, in_comment = start + 2, True
    return "".join(kept), in_comment


def _names(qualifier: str, path: tuple[str, ...], dirs: set[str]) -> bool:
    """Whether the tokens before a name (``d1.m3``) name the module at ``path``:
    the last one is its name, and the one before, if it is a directory of the
    diff, its directory."""
    words = qualifier.split(".")
    if not path or words[-1] != path[-1]:
        return False
    return len(words) < 2 or len(path) < 2 or words[-2] == path[-2] or words[-2] not in dirs


def _moves(changes: Mapping[int, TokenChange], leaving: Mapping[str, list[int]],
           arriving: Mapping[str, list[int]], limit: int, good_counts: Counts,
           precise: Container[int]) -> list[tuple[int, int, str]]:
    """A definition of a name that is rare where nothing changes, leaving some
    changes and arriving in others: (remover, adder, reason) of each pair."""
    undefiners: dict[str, list[int]] = {}
    definers: dict[str, list[int]] = {}
    for cid in sorted(changes):
        for token in changes[cid].undefined:
            undefiners.setdefault(token, []).append(cid)
        for token in changes[cid].defined:
            definers.setdefault(token, []).append(cid)
    moved = {token: (gone, definers[token]) for token, gone in undefiners.items()
             if token in definers and len(gone) <= MAX_MOVERS
             and not any(c in precise for c in (*gone, *definers[token]))
             and len(definers[token]) <= MAX_MOVERS
             and len(leaving.get(token, ())) + len(arriving.get(token, ())) <= limit}
    common = good_counts(moved)
    return [(a, b, f"move {token}") for token, (gone, come) in sorted(moved.items())
            if common.get(token, 0) <= limit for a in gone for b in come if a != b]


def _new_names(changes: Mapping[int, TokenChange], moving: Mapping[str, list[int]],
               limit: int, counts: Counts, word: str, respelled: set[str],
               precise: Container[int], places: Mapping[int, Place]) -> list[tuple[int, int, str]]:
    """A name absent from the other side that several changes add (or drop), one
    or two of them declaring it: each user needs the new declaration (the
    removal needs each last user changed). Names that respellings explain are
    left to them."""
    new = word == "new"
    declarers: dict[str, list[int]] = {}
    for t, ids in moving.items():
        if 1 < len(ids) <= limit and t not in respelled:
            found = [c for c in ids if t in (changes[c].defined if new else changes[c].undefined)]
            if 0 < len(found) <= MAX_DECLARERS and not any(c in precise for c in found):
                declarers[t] = found
    absent = counts(declarers)
    needs: list[tuple[int, int, str]] = []
    for t in sorted(declarers):
        if absent.get(t, 0) == 0:
            for user in (c for c in moving[t] if c not in declarers[t]):
                # A user in a declaring module (static helpers of the same name in
                # two C files) goes with its own module's declaration.
                own = [d for d in declarers[t] if places[d][1] == places[user][1]]
                needs.extend((user, d, f"{word} {t}") if new else (d, user, f"{word} {t}")
                             for d in own or declarers[t])
    return needs


def _components(links: list[Link]) -> list[Cluster]:
    """Connected components of the links, each with the reasons that made it."""
    parent: dict[int, int] = {}

    def find(i: int) -> int:
        parent.setdefault(i, i)
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for members, _ in links:
        first, *rest = sorted(members)
        for other in rest:
            a, b = find(first), find(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[int, set[int]] = {}
    reasons: dict[int, list[str]] = {}
    for members, reason in links:
        root = find(min(members))
        groups.setdefault(root, set()).update(members)
        reasons.setdefault(root, []).append(reason)
    return [Cluster(frozenset(groups[root]), tuple(reasons[root])) for root in sorted(groups)]


# Identifier bytes kept, every other byte a space: a text's maximal runs of them
# are then its ``split()``, each one word once its leading digits are dropped
# (what ``[A-Za-z_][A-Za-z0-9_]*`` finds in the run), in C rather than a regex.
_IDENTIFIER_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_TO_SPACES = bytes(c if c in _IDENTIFIER_BYTES else 0x20 for c in range(256))
_DIGITS = b"0123456789"


def word_counts(texts: Iterable[bytes]) -> Counter[bytes]:
    """How often each identifier-like word (``[A-Za-z_][A-Za-z0-9_]*``) occurs in
    ``texts`` (a rough count for rarity: comments and strings included)."""
    counter: Counter[bytes] = Counter()
    for text in texts:
        counter.update(text.translate(_TO_SPACES).split())
    for run in [w for w in counter if w[0] <= 0x39]:  # starts with a digit (0x30-0x39)
        count = counter.pop(run)
        word = run.lstrip(_DIGITS)
        if word:
            counter[word] += count
    return counter
