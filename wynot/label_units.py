"""What labelling removes from an answer, and in what order: pure functions.

The answer's units (the grouping's units, joined by every cycle of the
dependencies inside the answer), their distance from dd+'s own answer, the
smaller answers to try first, and the largest part of a configuration that
its dependencies let build. :mod:`wynot.label` runs what these compute.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet

from wynot.analysis.depends import Dependencies


def closed_part(config: frozenset[int], needs: Dependencies) -> frozenset[int]:
    """The largest part of ``config`` closed under ``needs``: ``config`` less every
    change that needs, directly or through others, a change outside it. Pure."""
    return frozenset(c for c in config if needs.closure({c}) <= config)


def cores(chosen: frozenset[int], found: frozenset[int], needs: Dependencies,
          closed_only: bool = True) -> list[frozenset[int]]:
    """The smaller answers to try first: dd+'s answer alone, then with its derived
    closure; only those smaller than ``chosen``, and with ``closed_only`` only those
    that the dependencies let build. Pure."""
    tries: list[frozenset[int]] = []
    core = found & chosen
    for candidate in (core, needs.closure(core) & chosen):
        if candidate and candidate < chosen and candidate not in tries and (
                not closed_only or needs.is_closed(candidate)):
            tries.append(candidate)
    return tries


def sweep_units(chosen: frozenset[int], done: AbstractSet[int], alone: AbstractSet[int],
                deps: Dependencies, units: Mapping[int, int],
                distance: Mapping[int, int]) -> list[frozenset[int]]:
    """What to remove from ``chosen``, one removal a run, to label what is not labelled.

    Each unit (the changes of ``chosen`` in one grouping unit or one cycle of
    ``deps``) whole, farthest from the cause first; then, inside units of
    several changes, each change alone. A unit all in ``done`` (labelled
    already) is not removed again, nor a change in ``alone`` (labelled by a
    removal of its own). Pure.
    """
    groups = units_of(chosen, deps, units)
    order = sorted(groups, key=lambda g: (-min(distance.get(c, 0) for c in g), min(g)))
    removals: list[frozenset[int]] = [g for g in order if not g <= done]
    removals.extend(frozenset({c}) for g in order if len(g) > 1
                    for c in sorted(g) if c not in alone)
    return removals


def in_units(chosen: frozenset[int], deps: Dependencies,
              units: Mapping[int, int]) -> set[int]:
    """The changes of ``chosen`` that share their unit with another one."""
    return {c for g in units_of(chosen, deps, units) if len(g) > 1 for c in g}


def units_of(chosen: frozenset[int], deps: Dependencies,
           units: Mapping[int, int]) -> list[frozenset[int]]:
    """The changes of ``chosen`` grouped by unit, a cycle of ``deps`` joining its units."""
    parent = {c: units.get(c, -1 - c) for c in chosen}
    joined: dict[int, int] = {}

    def find(u: int) -> int:
        while joined.get(u, u) != u:
            u = joined[u]
        return u

    for component in deps.components(sorted(chosen)):
        inside = [parent[c] for c in component if c in parent]
        for other in inside[1:]:
            joined[find(other)] = find(inside[0])
    groups: dict[int, set[int]] = {}
    for change, unit in parent.items():
        groups.setdefault(find(unit), set()).add(change)
    return [frozenset(g) for g in groups.values()]


def distances(deps: Dependencies, found: frozenset[int]) -> dict[int, int]:
    """How many dependency steps lead from dd+'s answer to each change it needs."""
    distance = dict.fromkeys(found, 0)
    frontier = sorted(found)
    while frontier:
        reached = []
        for change in frontier:
            for needed in sorted(deps.needs.get(change, ())):
                if needed not in distance:
                    distance[needed] = distance[change] + 1
                    reached.append(needed)
        frontier = reached
    return distance


def with_users(chosen: frozenset[int],
               users: Mapping[int, AbstractSet[int]]) -> list[frozenset[int]]:
    """Each change of ``chosen`` with every change that needs it, directly or through
    others, by ``users`` (change -> the changes of ``chosen`` that broke without
    it, as the errors of its removal showed): the removals of clusters of
    context to try on a labelled answer, largest first. Only removals of
    several changes that leave something; each one once. Pure."""
    removals = {reach({change}, chosen, users) for change in sorted(chosen)}
    return sorted((r for r in removals if 1 < len(r) < len(chosen)),
                  key=lambda r: (-len(r), sorted(r)))


def needed_cores(chosen: frozenset[int], causes: frozenset[int],
                 shown: Mapping[int, AbstractSet[int]],
                 derived: Dependencies) -> list[frozenset[int]]:
    """The smaller answers that the needs inside ``chosen`` leave buildable, smallest
    first: the causes with every change of ``chosen`` they need, directly or
    through others. Without causes, the same for each *top*: a cycle of
    changes (or one change) that no other change of ``chosen`` was seen to
    need (``shown``: change -> the changes of ``chosen`` its errors showed it
    needs). A top is in the answer for the failure's sake, not to let another
    change build, so the cause is among the tops, with what they need.
    ``derived`` needs count in the closure (a core they say cannot build would
    not be tried otherwise), not in finding the tops (a guess is no reason to
    think a change is only context). Pure."""
    seeds = [causes] if causes else tops(chosen, shown)
    needs = joined_needs(chosen, shown, derived)
    cores = {reach(seed, chosen, needs) for seed in seeds}
    return sorted((c for c in cores if c < chosen), key=lambda c: (len(c), sorted(c)))


def tops(chosen: frozenset[int], shown: Mapping[int, AbstractSet[int]]) -> list[frozenset[int]]:
    """The cycles of ``shown`` inside ``chosen`` (single changes included) that no
    change of ``chosen`` outside them needs. Pure."""
    graph = Dependencies({user: {n for n in needed if n in chosen}
                          for user, needed in shown.items() if user in chosen})
    parts = graph.components(chosen)
    part_of = {c: i for i, part in enumerate(parts) for c in part}
    needed = {part_of[n] for user, ns in graph.needs.items() for n in ns
              if part_of[n] != part_of[user]}
    return [frozenset(part) for i, part in enumerate(parts) if i not in needed]


def reach(start: AbstractSet[int], chosen: frozenset[int],
          edges: Mapping[int, AbstractSet[int]]) -> frozenset[int]:
    """``start`` (changes of ``chosen``) with every change of ``chosen`` that ``edges``
    lead to from them, directly or through others: with change -> its users,
    every change that needs one of them; with change -> what it needs,
    everything they need. Pure."""
    reached = set(start)
    frontier = sorted(reached)
    while frontier:
        for other in sorted(edges.get(frontier.pop(), ())):
            if other in chosen and other not in reached:
                reached.add(other)
                frontier.append(other)
    return frozenset(reached)


def joined_needs(chosen: frozenset[int], shown: Mapping[int, AbstractSet[int]],
                 derived: Dependencies) -> dict[int, set[int]]:
    """Each change of ``chosen`` -> what it needs by ``shown`` or ``derived``. Pure."""
    return {c: set(shown.get(c, ())) | derived.needs.get(c, set()) for c in chosen}
