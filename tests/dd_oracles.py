"""Oracles and a trace printer for the search tests (in-memory, no I/O)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from wynot.dd import Case, Decided, Event, Outcome, Tested

PASS, FAIL, UNRESOLVED = Outcome.PASS, Outcome.FAIL, Outcome.UNRESOLVED


@dataclass
class CountingOracle:
    """Wraps an outcome function; records every configuration it is asked."""

    outcome: Callable[[frozenset[int]], Outcome]
    asked: list[frozenset[int]] = field(default_factory=list)

    def __call__(self, configuration: frozenset[int]) -> Outcome:
        self.asked.append(configuration)
        return self.outcome(configuration)

    def assert_no_repeats(self, changes: Sequence[int]) -> None:
        assert len(set(self.asked)) == len(self.asked), "a configuration was asked twice"
        assert frozenset() not in self.asked, "the empty configuration was asked"
        assert frozenset(changes) not in self.asked, "the full configuration was asked"


def monotone(cause: Iterable[int]) -> Callable[[frozenset[int]], Outcome]:
    """FAIL exactly when every change of ``cause`` is applied."""
    cause = frozenset(cause)
    return lambda c: FAIL if cause <= c else PASS


def implies(
    cause: Iterable[int],
    clusters: Sequence[frozenset[int]],
    *,
    unresolved_rate: float = 1.0,
    seed: int = 0,
) -> Callable[[frozenset[int]], Outcome]:
    """Monotone on ``cause``, but a configuration that applies part of a cluster
    is UNRESOLVED (with probability ``unresolved_rate``, fixed per configuration)."""
    cause = frozenset(cause)

    def outcome(c: frozenset[int]) -> Outcome:
        if any(0 < len(c & cluster) < len(cluster) for cluster in clusters):
            draw = random.Random(f"{seed}:{sorted(c)}").random()
            if draw < unresolved_rate:
                return UNRESOLVED
        return FAIL if cause <= c else PASS

    return outcome


def _set(items: Iterable[int]) -> str:
    return "{" + ", ".join(map(str, sorted(items))) + "}"


def describe(event: Decided[int]) -> str:
    """One case in words, with the sets it names."""
    if event.case is Case.TRY_AGAIN:
        return f"try again: c' = {_set(event.c)}, r' = {_set(event.r)}"
    if event.case in (Case.INTERFERENCE, Case.PREFERENCE, Case.KEEP_PASSING):
        return f"{event.case.value}: search {_set(event.c)}"
    return f"{event.case.value} {_set(event.c)}"


def render_trace(changes: Sequence[int], events: Iterable[Event[int]]) -> str:
    """The paper's table layout: one line per test, the case taken after it."""
    lines = ["step  configuration     test  case"]
    pending = ""
    for event in events:
        if isinstance(event, Tested):
            if pending:
                lines[-1] += pending
                pending = ""
            row = " ".join(str(x) if x in event.configuration else "." for x in changes)
            lines.append(f"{event.number:>4}  {row:<16}  {event.outcome.symbol:<4}")
        elif isinstance(event, Decided):
            pending += "  " + describe(event)
    if pending:
        lines[-1] += pending
    return "\n".join(line.rstrip() for line in lines)
