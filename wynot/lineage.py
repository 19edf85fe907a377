"""Configurations that remember how they were made (pure; a cache, no I/O).

dd+ builds each configuration it asks about as ``r | c_i``: a large set of
changes kept applied and a few more. Consecutive questions share ``r``, or
an ``r`` grown from it, so they differ only in what was added to it. Their
symmetric difference, which the run log, the dependencies' closure check,
the tree builder and the outcome cache's key all need on every test, then
costs what the two added, not the tens of thousands of changes they share.

:func:`joined` makes ``base | extra`` and notes, while both sets live (weak
references: nothing is kept alive by it), that it is ``base`` plus the
changes of ``extra`` outside ``base``. :func:`apart` finds the nearest
configuration both of two configurations were made from and returns their
symmetric difference from what each added to it; None when there is none
near enough. The result is always exactly ``before ^ after``: lineage only
changes how it is computed.
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable, Iterable
from typing import TypeVar

T = TypeVar("T", bound=Hashable)

MAX_DEPTH = 64  # links followed up from each configuration
KEEP_RATIO = 4  # a result is remembered when it adds at most 1/KEEP_RATIO of its base

# id(made) -> (made, base, the changes made adds to base): weak references to the
# sets, so that an entry lives as long as ``made`` does (its callback removes it).
_Entry = tuple["weakref.ref[frozenset[object]]", "weakref.ref[frozenset[object]]",
               frozenset[object]]
_made: dict[int, _Entry] = {}


def joined(base: frozenset[T], extra: Iterable[T]) -> frozenset[T]:
    """``base | extra`` (``base`` itself when ``extra`` adds nothing), remembered
    as made from ``base`` when it adds at most a quarter of ``base``'s size (what
    it adds is kept as long as the result lives). Costs the union, plus what
    ``extra`` holds."""
    added = frozenset(extra).difference(base)
    if not added:
        return base
    made = base | added
    if len(added) * KEEP_RATIO > len(base):
        return made
    key = id(made)

    def forget(ref: weakref.ref[frozenset[object]], key: int = key) -> None:
        entry = _made.get(key)
        if entry is not None and entry[0] is ref:
            del _made[key]

    _made[key] = (weakref.ref(made, forget), weakref.ref(base), added)
    return made


def apart(before: frozenset[T], after: frozenset[T]) -> frozenset[T] | None:
    """``before ^ after`` when both were made (:func:`joined`) from a common
    configuration, and what they add to it is at most an eighth of their sizes
    together; None otherwise (the caller computes it whole)."""
    if before is after:
        return frozenset()
    limit = (len(before) + len(after)) // 8
    mine = _ancestors(before, limit)
    node: frozenset[T] = after
    extras: list[frozenset[T]] = []
    size = 0
    for _ in range(MAX_DEPTH + 1):
        hit = mine.get(id(node))
        if hit is not None and hit[0] is node:
            return frozenset[T]().union(*hit[1]).symmetric_difference(
                frozenset[T]().union(*extras))
        step = _base(node)
        if step is None:
            return None
        node, added = step
        size += len(added)
        if size > limit:
            return None
        extras.append(added)
    return None


def _ancestors(config: frozenset[T], limit: int
               ) -> dict[int, tuple[frozenset[T], list[frozenset[T]]]]:
    """``config`` and the configurations it was made from, by id, each with the
    changes added on the way from it to ``config`` (in all at most ``limit``)."""
    found = {id(config): (config, list[frozenset[T]]())}
    node, extras, size = config, list[frozenset[T]](), 0
    for _ in range(MAX_DEPTH):
        step = _base(node)
        if step is None:
            break
        node, added = step
        size += len(added)
        if size > limit:
            break
        extras = [*extras, added]
        found[id(node)] = (node, extras)
    return found


def _base(config: frozenset[T]) -> tuple[frozenset[T], frozenset[T]] | None:
    """(the set ``config`` was made from, the changes it added), if known and alive."""
    entry = _made.get(id(config))
    if entry is None or entry[0]() is not config:
        return None
    base = entry[1]()
    if base is None:
        return None
    return base, entry[2]  # type: ignore[return-value]
