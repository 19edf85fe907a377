"""Keep related changes together: search order and a grouping-aware split.

Each change gets a *location key*, coarse to fine, from the chosen criteria:

* ``dir``: every directory above the file (``net``, ``net/http``),
* ``file``: the file (a renamed file's two paths count as one),
* ``syntax``: the enclosing function or class (Python's ``ast`` for Python
  files, tree-sitter for C, C++, Java, JavaScript, TypeScript, Go and Rust,
  git's hunk header for other languages),

a *unit*: changes that must stay together, the dependency cycles found by
:mod:`wynot.analysis.depends` (a renamed function's definition and its callers, across
files) and the clusters by change (:mod:`wynot.analysis.clusters`), and a
*lexical group*: hunks of one file that share a rare identifier (``lexical``).

With dependencies, the search order puts units after the units they need
(definitions before uses), ties in diff order, so that every prefix of the
order is closed under them. Lexical groups then only steer the cuts: they are
not units, because joining them to dependency cycles chains unrelated
clusters into one block of thousands of changes and spoils the order. Without
dependencies, a lexical group is a unit and its members follow each other.

:meth:`Plan.split` cuts a run of changes into ``n`` near-equal parts, choosing
around each ideal cut point the coarsest boundary: between top-level
directories rather than files, files rather than functions, functions rather
than inside a lexical group, and never inside a unit while another boundary
is near. Pure.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from wynot.analysis.depends import Dependencies, _tarjan
from wynot.analysis.model import enclosing_scope
from wynot.analysis.symbols import FileAnalysis, Symbols, analyse_file
from wynot.changes import Change, Diff, FileDiff
from wynot.dd import split_evenly

CRITERIA = ("dir", "file", "syntax", "lexical")
MAX_SHARERS = 4  # a token shared by more hunks of a file than this is not a link
_UNIT_BOUNDARY = 10_000  # strength of a cut inside a unit: the weakest there is
_LEXICAL_BOUNDARY = 1_000  # a cut inside a lexical group: weaker than any location


@dataclass(frozen=True)
class Plan:
    """The search order of change ids and how to split runs of it."""

    order: tuple[int, ...]
    keys: Mapping[int, tuple[str, ...]]
    units: Mapping[int, int]
    grouped: bool
    lexical: Mapping[int, int] | None = None  # change id -> its lexical group

    def split(self, seq: Sequence[int], n: int) -> list[Sequence[int]]:
        """Cut ``seq`` (a run in search order) into ``min(n, len(seq))`` parts."""
        if not self.grouped or len(seq) <= n:
            return split_evenly(seq, n)
        strengths = [self._strength(seq[i - 1], seq[i]) for i in range(1, len(seq))]
        cuts: list[int] = []
        size = len(seq) / n
        for k in range(1, n):
            ideal = round(k * size)
            earliest = cuts[-1] + 1 if cuts else 1  # every part keeps at least one change
            latest = len(seq) - (n - k)
            low = max(earliest, ideal - int(size / 3))
            high = min(latest, ideal + int(size / 3))
            if low > high:
                low = high = min(max(ideal, earliest), latest)
            best = min(range(low, high + 1),
                       key=lambda i: (strengths[i - 1], abs(i - ideal)))
            if strengths[best - 1] == _UNIT_BOUNDARY:  # look further for a unit's edge
                low = max(earliest, ideal - int(size / 2))
                high = min(latest, ideal + int(size / 2))
                best = min(range(min(low, best), max(high, best) + 1),
                           key=lambda i: (strengths[i - 1], abs(i - ideal)))
            cuts.append(best)
        bounds = [0, *cuts, len(seq)]
        return [seq[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if a < b]

    def _strength(self, a: int, b: int) -> int:
        """How coarse the boundary between neighbours a and b is (0 = coarsest)."""
        if self.units[a] == self.units[b]:
            return _UNIT_BOUNDARY
        if self.lexical is not None and self.lexical[a] == self.lexical[b]:
            return _LEXICAL_BOUNDARY
        key_a, key_b = self.keys[a], self.keys[b]
        for level, (x, y) in enumerate(zip(key_a, key_b, strict=False)):
            if x != y:
                return level
        return min(len(key_a), len(key_b))


def parse_criteria(text: str) -> tuple[str, ...]:
    """``"dir,file"`` -> ("dir", "file"); ``"none"`` -> (); ValueError if unknown."""
    if text.strip() in ("", "none"):
        return ()
    chosen = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [c for c in chosen if c not in CRITERIA]
    if unknown:
        raise ValueError(f"unknown grouping criteria {', '.join(unknown)} "
                         f"(choose from {', '.join(CRITERIA)} or none)")
    return chosen


def make_plan(
    diff: Diff,
    criteria: Sequence[str],
    symbols: Mapping[int, Symbols],
    deps: Dependencies | None = None,
    enclosing: Mapping[int, str] | None = None,
) -> Plan:
    """Order and group the changes of ``diff``.

    ``enclosing``: each change's function or class (the analysis'
    :attr:`~wynot.analysis.model.Analysis.enclosing`); without it the files
    are read again.
    """
    changes = diff.changes
    if enclosing is None and "syntax" in criteria:
        files = [analyse_file(fd) for fd in diff.files]
        enclosing = {c.id: enclosing_scope(c, files[c.file]) for c in changes}
    places: dict[int, tuple[str, ...]] = {}  # by file: the same for each of its hunks
    keys = {c.id: _location(c, diff.files[c.file], criteria, (enclosing or {}).get(c.id, ""),
                            places) for c in changes}
    lexical = _Union([c.id for c in changes])
    if "lexical" in criteria:
        _join_lexical(changes, symbols, lexical)
    units = _Union([c.id for c in changes])
    if deps is None:
        units = lexical
    else:
        for component in deps.components(c.id for c in changes):
            for member in component[1:]:
                units.join(component[0], member)
    unit_of = {c.id: units.find(c.id) for c in changes}
    # With dependencies, the units are their strongly connected components: no
    # two units need each other, and _order has no cycle to look for.
    order, unit_of = _order(changes, unit_of, deps, acyclic=deps is not None)
    groups = ({c.id: lexical.find(c.id) for c in changes}
              if deps is not None and "lexical" in criteria else None)
    return Plan(order=order, keys=keys, units=unit_of,
                grouped=bool(criteria) or deps is not None, lexical=groups)


def _location(change: Change, fd: FileDiff, criteria: Sequence[str],
              enclosing: str, places: dict[int, tuple[str, ...]] | None = None
              ) -> tuple[str, ...]:
    """A change's grouping key: its directories, file and enclosing scope, as the
    criteria ask. ``places``: the keys' directory and file part by file index,
    filled as they are computed (the same for every change of a file)."""
    place = places.get(fd.index) if places is not None else None
    if place is None:
        key: list[str] = []
        path = fd.new_path or fd.old_path or change.path
        if "dir" in criteria:
            parts = path.split("/")[:-1]
            key.extend("/".join(parts[: i + 1]) for i in range(len(parts)))
        if "file" in criteria:
            key.append(f"file:{fd.index}")
        place = tuple(key)
        if places is not None:
            places[fd.index] = place
    return (*place, "def:" + enclosing) if "syntax" in criteria else place


def scope(change: Change, fd: FileDiff, analysis: FileAnalysis | None = None) -> str:
    """The file and function or class a hunk sits in; '' outside any (or a whole file)."""
    enclosing = enclosing_scope(change, analysis or analyse_file(fd))
    return f"{fd.index}:{enclosing}" if enclosing else ""


def _join_lexical(changes: Sequence[Change], symbols: Mapping[int, Symbols],
                  units: _Union) -> None:
    """Join hunks of the same file that share a rare identifier."""
    by_token: dict[tuple[int, str], list[int]] = {}
    for change in changes:
        for token in symbols[change.id].mentioned:
            by_token.setdefault((change.file, token), []).append(change.id)
    for ids in by_token.values():
        if 1 < len(ids) <= MAX_SHARERS:
            for other in ids[1:]:
                units.join(ids[0], other)


def _order(changes: Sequence[Change], unit_of: Mapping[int, int],
           deps: Dependencies | None, *, acyclic: bool = False
           ) -> tuple[tuple[int, ...], dict[int, int]]:
    """Units in dependency order (needed first), ties broken by diff position.

    Returns the order and the final units: units that need each other (through
    a lexical join closing a dependency cycle) are merged into one. ``acyclic``:
    the caller knows that no units need each other (each block is one unit).
    """
    members: dict[int, list[int]] = {}
    for change in changes:
        members.setdefault(unit_of[change.id], []).append(change.id)
    if deps is None:
        in_diff_order = tuple(cid for unit in sorted(members, key=lambda u: members[u][0])
                              for cid in members[unit])
        return in_diff_order, dict(unit_of)
    needs: dict[int, set[int]] = {u: set() for u in members}
    for a, bs in deps.needs.items():
        for b in bs:
            if a in unit_of and b in unit_of and unit_of[a] != unit_of[b]:
                needs[unit_of[a]].add(unit_of[b])
    # Units that need each other form one block; blocks form a DAG.
    blocks = [[u] for u in sorted(members)] if acyclic else _tarjan(sorted(members), needs)
    block_of = {u: i for i, block in enumerate(blocks) for u in block}
    block_needs = {i: {block_of[v] for u in block for v in needs[u]} - {i}
                   for i, block in enumerate(blocks)}
    first = {i: min(members[u][0] for u in block) for i, block in enumerate(blocks)}
    waiting = {i: len(block_needs[i]) for i in block_needs}
    needed_by: dict[int, list[int]] = {i: [] for i in block_needs}
    for i, bs in block_needs.items():
        for b in bs:
            needed_by[b].append(i)
    # A block's first change is no other block's: the heap holds those alone.
    block_at = {change: i for i, change in first.items()}
    ready = [first[i] for i, count in waiting.items() if count == 0]
    heapq.heapify(ready)
    order: list[int] = []
    merged: dict[int, int] = {}
    while ready:
        i = block_at[heapq.heappop(ready)]
        block = blocks[i]
        block_members = sorted(members[block[0]] if len(block) == 1 else
                               (cid for u in block for cid in members[u]))
        order.extend(block_members)
        merged.update(dict.fromkeys(block_members, block_members[0]))
        for j in needed_by[i]:
            waiting[j] -= 1
            if waiting[j] == 0:
                heapq.heappush(ready, first[j])
    return tuple(order), merged


class _Union:
    """Union-find over change ids."""

    def __init__(self, ids: Sequence[int]) -> None:
        self.parent = {i: i for i in ids}

    def find(self, i: int) -> int:
        root = i
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[i] != root:
            self.parent[i], i = root, self.parent[i]
        return root

    def join(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)
