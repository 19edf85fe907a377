"""A small configuration grown by failure resolution inside an answer known to fail.

dd+'s answer may need context to fail, and labelling starts from an answer
that fails but carries context; both try the cause alone first (the search's
``standalone`` inside the smallest failing configuration seen, labelling
inside the answer). From GOOD's side a small configuration tends to stay
buildable and importable, yet the cause alone often does not quite build:
the error names what is missing (``cannot import name 'X' from 'pkg.mod'``,
``name 'f' is not defined``), and failure resolution maps it to the few
changes that define exactly that name. :func:`grow` runs the cause, adds
those changes, and runs again, one run a round, until the configuration
FAILS: a failing answer far smaller than the context it came with, reached
in a number of runs that grows with the missing definitions rather than with
the size of the context.

It never grows on a guess outside what is known: every change it adds
belongs to the answer (``within``), which has been seen to fail. A repair
after which the error it targeted is still reported is taken back and not
offered again; a diagnostic gets at most :data:`MAX_ATTEMPTS` repairs; the
rounds are bounded (:func:`round_limit`); a PASS, an error nothing repairs,
or the limit end the attempt without an answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from wynot.analysis.resolve import Resolution, Target
from wynot.dd import SearchStopped
from wynot.outcome import Outcome
from wynot.result import plural
from wynot.tester import Tester

MAX_ATTEMPTS = 2  # repairs one diagnostic may get before the attempt ends
Repair = Callable[[str, frozenset[int]], "Resolution | None"]
Learn = Callable[[Sequence[tuple[int, int]], int], None]  # (pairs, changes added)


def round_limit(within: frozenset[int]) -> int:
    """Runs one attempt may cost: 2⌈log2 n⌉ + 2 for an answer of n changes."""
    return 2 * math.ceil(math.log2(max(len(within), 2))) + 2


def worth_growing(core: frozenset[int], within: frozenset[int]) -> bool:
    """Whether growing ``core`` inside ``within`` can pay for its runs: ``core`` is
    at most half of ``within`` (a growth that cannot halve the configuration saves
    less than its rounds cost), and ``within`` leaves out more changes than
    :func:`grow` may cost runs (for a handful, removing them one at a time, or
    dd+ over them, is as cheap, and a round costs a run even when it does not
    help). Checked again before every round."""
    return 2 * len(core) <= len(within) and len(within - core) > round_limit(within)


def grow(tester: Tester, repair: Repair, core: frozenset[int], within: frozenset[int],
         stop: Callable[[], bool], phase: str = "label",
         learn: Learn | None = None) -> frozenset[int] | None:
    """``core`` grown by repairs from ``within`` until it FAILS: that configuration,
    or None when it passes, an error cannot be repaired, or the rounds run out.

    ``repair(output, applied)`` is what failure resolution adds to ``applied``
    for the errors ``output`` reports (None with resolution off); the runs
    count as ``phase``; a configuration already run is read from its record
    (:meth:`Tester.earlier`: another record of it would count as one more test).
    ``learn``, when given, is told the (user, needed) pairs of the repairs made,
    when the attempt ends on a run whose errors name nothing more to repair
    (the oracle's :meth:`~wynot.oracle.SearchOracle.helped_by`: the search's
    questions get those changes at once). Where the last errors still name
    something, the repairs so far may be a detour (a line rewritten rather than
    a declaration brought in), and are not taught: cxxopts' chain of four
    rounds, taught, made its answer 28 changes where it is 5. Raises
    SearchStopped (carrying ``within``, which fails) once the budget is spent.
    """
    config = core
    taken_back: set[int] = set()  # repairs that did not help: never offered again
    attempts: dict[Target, int] = {}
    last: tuple[frozenset[int], frozenset[Target]] = (frozenset(), frozenset())
    why: dict[int, list[tuple[int, int]]] = {}  # each change added: (user, it) pairs
    for _ in range(round_limit(within)):
        if stop() and not tester.has_run(config):
            raise SearchStopped(within, tester.runs(phase))
        record = tester.earlier(config) or tester.decide(config, phase)
        if record.outcome is not Outcome.UNRESOLVED:
            return config if record.outcome is Outcome.FAIL else None
        output = record.output_text()
        resolution = repair(output, config | taken_back)
        if resolution is None:
            return None
        if last[1] & resolution.targets:  # still reported: the last repair did not help
            config -= last[0]
            taken_back |= last[0]
            resolution = repair(output, config | taken_back)
            if resolution is None:
                return None
        add = (resolution.add & within) - config - taken_back
        if not add and not resolution.named and learn is not None:  # nothing named
            learn([pair for added in sorted(config & why.keys()) for pair in why[added]],
                  len(config - core))
        for target in resolution.targets:
            attempts[target] = attempts.get(target, 0) + 1
        if not add or any(n > MAX_ATTEMPTS for n in attempts.values()) or not worth_growing(
                config | add, within):
            return None
        tester.progress(f"resolving: {', '.join(resolution.names[:4])} -> adding "
                        f"{plural(len(add), 'change')} of the answer")
        config |= add
        last = (frozenset(add), resolution.targets)
        for a, b in resolution.learned:
            if b in add:
                why.setdefault(b, []).append((a, b))
    return None
