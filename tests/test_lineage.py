"""Configurations that remember how they were made: the symmetric difference from
their lineage is the one computed whole, and so are the outcome cache's keys."""

from __future__ import annotations

import array
import hashlib
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from wynot.cache import DIGEST_ABOVE, OutcomeCache, _resorted
from wynot.changes import flipped
from wynot.dd import dd_plus
from wynot.lineage import apart, joined
from wynot.oracle import Repaired
from wynot.outcome import Outcome

BIG = DIGEST_ABOVE + 300

# each step: a configuration made from an earlier one (which, by its index) and ids
steps = st.lists(st.tuples(st.integers(0, 30), st.sampled_from(["joined", "removed", "plain"]),
                           st.frozensets(st.integers(0, BIG + 100), max_size=40)),
                 min_size=1, max_size=25)


def _walk(moves: list[tuple[int, str, frozenset[int]]]) -> list[frozenset[int]]:
    made = [frozenset(range(BIG))]
    for which, how, ids in moves:
        base = made[which % len(made)]
        if how == "joined":
            made.append(joined(base, ids))
        elif how == "removed":  # no lineage: a set made otherwise
            made.append(base - ids)
        else:
            made.append(base | ids)
    return made


@settings(max_examples=80, deadline=None)
@given(steps)
def test_the_difference_from_lineage_is_the_whole_one(
        moves: list[tuple[int, str, frozenset[int]]]) -> None:
    made = _walk(moves)
    for before in made:
        for after in made:
            near = apart(before, after)
            assert near is None or near == before ^ after
            assert flipped(before, after) == before ^ after


@settings(max_examples=80, deadline=None)
@given(steps)
def test_keys_sorted_from_an_earlier_configuration_are_those_sorted_whole(
        moves: list[tuple[int, str, frozenset[int]]]) -> None:
    for config in _walk(moves):
        # a list is keyed whole, as every key was before lineage
        assert OutcomeCache.configuration_key(config) == OutcomeCache.configuration_key(
            list(config))


def test_a_large_key_is_the_digest_of_the_sorted_ids() -> None:
    config = joined(frozenset(range(0, 2 * BIG, 2)), [7, 9])
    ordered = sorted(config)
    packed = b"".join(i.to_bytes(8, sys.byteorder, signed=True) for i in ordered)
    assert OutcomeCache.configuration_key(config) == (
        f"sha256:{len(ordered)}:{hashlib.sha256(packed).hexdigest()}")


@settings(max_examples=200, deadline=None)
@given(st.frozensets(st.integers(0, 300)), st.frozensets(st.integers(0, 300)))
def test_resorted_is_sorted_whole(before: frozenset[int], after: frozenset[int]) -> None:
    got = _resorted(array.array("q", sorted(before)), sorted(before - after),
                    sorted(after - before))
    assert list(got) == sorted(after)


def test_dd_plus_questions_share_their_lineage() -> None:
    """Consecutive questions of a search over many changes, once it narrows down,
    differ by what each added to a common configuration: no whole comparison
    (asked while the search runs: the configurations between them live as
    long as it needs them)."""
    changes = list(range(20_000))
    asked: list[frozenset[int]] = []
    near: list[frozenset[int] | None] = []

    def test(config: frozenset[int]) -> Outcome:
        if asked:
            near.append(apart(asked[-1], config))
            assert near[-1] is None or near[-1] == asked[-1] ^ config
        asked.append(config)
        return Outcome.FAIL if 19_990 in config else Outcome.PASS

    # the halves before the cause pass, and stay applied (keep passing)
    assert dd_plus(changes, test, keep_passing=True) == frozenset({19_990})
    assert len(near) > 10
    assert all(n is not None for n in near[2:])  # the first ones add half or more


@settings(max_examples=200, deadline=None)
@given(st.frozensets(st.integers(0, 30)), st.frozensets(st.integers(0, 30)),
       st.frozensets(st.integers(0, 30)), st.frozensets(st.integers(0, 30)))
def test_a_repaired_loop_fits_as_its_definition_says(
        start: frozenset[int], involved: frozenset[int], added: frozenset[int],
        config: frozenset[int]) -> None:
    memory = Repaired(start, involved, added)
    assert memory.fits(config) == (not (config ^ start) & involved
                                   and not added <= config and not config < start)
