"""Which changes does BAD's failure point at? Evidence for guesses only. Pure.

A failing test's output often names what broke: a traceback's files and
lines, a compiler's ``file:line:``, the function a test runner reports
(``FAIL page_count(41, 20): expected 3, got 2``). :func:`suspicion` scores
each change of the diff by that evidence:

* **words**: the identifiers on the lines of BAD's output that GOOD's output
  does not have (digits aside, so that timings and counts do not make a line
  new), split into their parts (``page_count`` gives ``page``, ``count``
  and itself) and reduced to a crude stem, matched against the words of each
  change (its path and its hunk: the header, which names the enclosing
  function, the changed lines and the context lines around them). Each word
  counts by its rarity among the changes (``log(N / df)``): a word that half
  the diff mentions says little; and a change's sum is divided by the square
  root of its own number of words (in units of :data:`LENGTH`), since a long
  hunk mentions more words by chance.
* **places**: every ``path:line`` and traceback frame of BAD's output that
  falls on a line a change brought adds :data:`PLACE_BONUS` times the
  rarest word's score.

The scores order the speculative runs of ``-j N``
(:class:`wynot.lookahead.Guesses`, through :func:`weights`), and choose the
changes the search asks together where a step of dd+ decides nothing
(:class:`wynot.search.Probes`); :func:`related` scores the context an
answer may need by the words it shares with it. Nothing is decided by a
score: a configuration they choose is run like any other, and a wrong
suspicion costs a run, never an answer.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping

from wynot.analysis.places import place
from wynot.changes import Change, Diff

PLACE_BONUS = 3.0  # a failure located on a change's line outweighs a few shared words
MIN_WORD = 3  # shorter parts (``i``, ``db``, ``ok``) match too much to tell anything
LENGTH = 20.0  # a hunk's words, in units of this many: a long hunk mentions more by chance
MAX_OUTPUT = 200_000  # characters of each output read (the bounded head and tail)

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")
_DIGITS = re.compile(r"\d+")
_SUFFIXES = ("ing", "ed", "es", "s")
_PLACES = (
    re.compile(r'File "([^"]+)", line (\d+)'),                  # Python traceback frames
    re.compile(r"([\w./\\-]*\w\.\w+):(\d+)(?::\d+)?"),          # path:line[:col] elsewhere
)


def stem(word: str) -> str:
    """``word`` lowercased, without a plural or verb ending (``hashes`` -> ``hash``)."""
    word = word.lower()
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_WORD:
            return word[:-len(suffix)]
    return word


def words(text: str) -> set[str]:
    """The stems of the identifiers in ``text`` and of their parts (snake and camel
    case), those of :data:`MIN_WORD` letters or more."""
    found: set[str] = set()
    for identifier in set(_IDENTIFIER.findall(text)):
        for word in (identifier, *_PARTS.findall(identifier)):
            if len(word) >= MIN_WORD:
                found.add(stem(word))
    return found


def new_lines(bad: str, good: str) -> list[str]:
    """The lines of ``bad`` that ``good`` does not have (each as often as it has
    them), compared with their digits blanked."""
    seen = Counter(_DIGITS.sub("0", line.strip()) for line in good[:MAX_OUTPUT].splitlines())
    fresh: list[str] = []
    for line in bad[:MAX_OUTPUT].splitlines():
        key = _DIGITS.sub("0", line.strip())
        if seen[key] > 0:
            seen[key] -= 1
        elif key:
            fresh.append(line)
    return fresh


def change_words(change: Change) -> set[str]:
    """The words of a change: its path and its hunk (the header, which names the
    enclosing function, and the context lines, which may hold its ``def``)."""
    text = [change.path, change.detail, change.hunk.text if change.hunk else ""]
    return words("\n".join(text))


def places(lines: Iterable[str]) -> Iterator[tuple[str, int]]:
    """The (path, line) pairs that ``lines`` point at."""
    for line in lines:
        for pattern in _PLACES:
            for match in pattern.finditer(line):
                yield match.group(1), int(match.group(2))


def vocabulary(diff: Diff) -> dict[int, set[str]]:
    """Each change's words (:func:`change_words`), by change id: what
    :func:`suspicion` matches the output against, computable before the output."""
    return {c.id: change_words(c) for c in diff.changes}


def suspicion(diff: Diff, bad_output: str, good_output: str = "",
              known: Mapping[int, set[str]] | None = None) -> dict[int, float]:
    """Each change's score (> 0) by the evidence of BAD's output; changes it does
    not point at are left out. ``good_output`` (empty when unknown) tells which
    lines of BAD's output are the failure's; ``known`` is the diff's
    :func:`vocabulary` if already computed."""
    fresh = new_lines(bad_output, good_output)
    wanted = words("\n".join(fresh))
    if not diff.changes:
        return {}
    every = (known if known is not None else vocabulary(diff)) if wanted else {}
    total = len(diff.changes)
    scores = _scores(every, wanted, total)
    applied = frozenset(c.id for c in diff.changes)
    bonus = PLACE_BONUS * math.log(total + 1)
    for path, line in dict.fromkeys(places(fresh)):
        where = place(diff, applied, path, line)
        if where is not None and where.change is not None and where.applied:
            scores[where.change] = scores.get(where.change, 0.0) + bonus
    return scores


def _scores(every: Mapping[int, set[str]], wanted: set[str], total: int) -> dict[int, float]:
    """Each change's score for the ``wanted`` words it has, by their rarity among
    the changes (``log(N / df)``), over the square root of its own length."""
    matched = {cid: found & wanted for cid, found in every.items()}
    frequency = Counter(word for found in matched.values() for word in found)
    return {cid: sum(math.log((total + 1) / frequency[w]) for w in found)
            / math.sqrt(len(every[cid]) / LENGTH)
            for cid, found in matched.items() if found}


def related(diff: Diff, answer: Iterable[int], among: Iterable[int]) -> dict[int, float]:
    """Each change of ``among`` scored by the words it shares with the changes of
    ``answer`` (rare ones count most, as in :func:`suspicion`): the context an
    answer needs most likely shares its names (the state it reads, the macro
    it uses, the function that calls it), its file and its function."""
    wanted = set().union(*(change_words(diff.changes[cid]) for cid in answer))
    every = {cid: change_words(diff.changes[cid]) for cid in among}
    return {cid: score * _doc_factor(diff, cid)
            for cid, score in _scores(every, wanted, len(every)).items()}


def named(diff: Diff, output: str, reference: str, among: Iterable[int],
          known: Mapping[int, set[str]] | None = None) -> frozenset[int]:
    """The changes of ``among`` that an error output points at by its words alone:
    those whose score (as in :func:`suspicion`, rarity counted among ``among``)
    for the words of the lines of ``output`` that ``reference`` (a known
    failure's output) does not have is at least :data:`NAMED_SHARE` of the
    best. For errors that name no place in the diff (a run-time error without
    a file and line, a version that does not match): a guess, for runs to check.
    ``known`` is the diff's :func:`vocabulary` if already computed."""
    wanted = words("\n".join(new_lines(output, reference)))
    if not wanted:
        return frozenset()
    every = {cid: known[cid] if known is not None else change_words(diff.changes[cid])
             for cid in among}
    scores = _scores(every, wanted, len(every))
    best = max(scores.values(), default=0.0)
    return frozenset(cid for cid, score in scores.items() if score >= NAMED_SHARE * best > 0)


NAMED_SHARE = 0.5  # of the best score: the changes an output's words name most

DOCUMENTATION = (".md", ".rst", ".txt", ".adoc", ".html")
DOC_NAMES = ("changelog", "changes", "news", "readme", "authors", "license", "history")
DOC_WEIGHT = 0.1  # documentation rarely breaks a test, and names everything
SHARPEN = 2.0  # weights grow as this power of the scores: the best evidence leads


def documentation(path: str) -> bool:
    """Whether ``path`` is documentation by its name (``docs/a.rst``, ``CHANGELOG``)."""
    name = path.rsplit("/", 1)[-1].lower()
    return name.endswith(DOCUMENTATION) or name.split(".", 1)[0] in DOC_NAMES


def weights(diff: Diff, bad_output: str, good_output: str = "",
            known: Mapping[int, set[str]] | None = None) -> dict[int, float]:
    """:func:`suspicion` as relative weights of being the cause: scores to the power
    :data:`SHARPEN`, documentation's times :data:`DOC_WEIGHT`."""
    return {cid: score ** SHARPEN * _doc_factor(diff, cid)
            for cid, score in suspicion(diff, bad_output, good_output, known).items()}


def _doc_factor(diff: Diff, cid: int) -> float:
    """:data:`DOC_WEIGHT` for a change to documentation, else 1."""
    return DOC_WEIGHT if documentation(diff.changes[cid].path) else 1.0
