"""Successive configurations written incrementally: TreeBuilder against tree_states."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_patch import fixture_diff, synthetic_diff

from conftest import DiffRepo
from wynot.changes import FileState
from wynot.patch import PathConflict, TreeBuilder, tree_states


def _outcome(call: object) -> tuple[str, object]:
    """("ok", states) or ("conflict", the two paths) of calling ``call``."""
    try:
        return "ok", call()  # type: ignore[operator]
    except PathConflict as conflict:
        return "conflict", conflict.paths


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_builder_follows_tree_states_through_any_sequence(
        diff_repo: DiffRepo, data: st.DataObject) -> None:
    """Applying each answer to the previous tree gives tree_states; conflicts agree."""
    diff, _ = fixture_diff(diff_repo)
    ids = [change.id for change in diff.changes]
    builder = TreeBuilder(diff)
    tree: dict[str, FileState | None] | None = None
    for _ in range(data.draw(st.integers(1, 12))):
        selected = frozenset(data.draw(st.sets(st.sampled_from(ids))))
        want = _outcome(lambda s=selected: tree_states(diff, s))
        got = _outcome(lambda s=selected: builder.states(s))
        assert got[0] == want[0], (sorted(selected), got, want)
        if want[0] == "conflict":
            assert {got[1][0], want[1][0]} <= {"a", "d", "d/x", "d/y", "a/x"}
            continue
        assert isinstance(got[1], dict) and isinstance(want[1], dict)
        if tree is None:
            assert got[1] == want[1]  # the first answer names every path
            tree = dict(got[1])
        else:
            assert all(tree.get(p) != s for p, s in got[1].items())  # only what changes
            tree.update(got[1])
        assert tree == want[1]


def test_a_file_selected_whole_is_bads_entry_unspliced(diff_repo: DiffRepo) -> None:
    """BAD (every change) and a file with all its changes: BAD's entries themselves,
    equal to the spliced ones of tree_states."""
    diff, _ = fixture_diff(diff_repo)
    everything = frozenset(change.id for change in diff.changes)
    bad = TreeBuilder(diff).states(everything)
    assert bad == tree_states(diff, everything)
    edited = [fd for fd in diff.files if fd.old is not None and fd.new is not None
              and any(c.hunk is not None for c in fd.changes)]
    assert edited
    for fd in edited:
        assert fd.new_path is not None and bad[fd.new_path] is fd.new
        whole = frozenset(c.id for c in fd.changes)
        builder = TreeBuilder(diff)
        states = builder.states(whole)
        assert states == tree_states(diff, whole) and states[fd.new_path] is fd.new


def test_reset_makes_the_next_answer_complete(diff_repo: DiffRepo) -> None:
    diff, _ = fixture_diff(diff_repo)
    builder = TreeBuilder(diff)
    nothing = builder.states(frozenset())
    assert builder.states(frozenset()) == {}
    builder.reset()
    assert builder.states(frozenset()) == nothing


def test_a_conflict_keeps_the_previous_configuration(diff_repo: DiffRepo) -> None:
    diff, ids = fixture_diff(diff_repo)
    builder = TreeBuilder(diff)
    builder.states(frozenset())
    with pytest.raises(PathConflict) as caught:
        builder.states(frozenset({ids["a/x (add)"]}))
    assert caught.value.paths == ("a", "a/x")
    assert builder.states(frozenset()) == {}  # still GOOD: nothing to write
    moved = builder.states(frozenset({ids["a (delete)"], ids["a/x (add)"]}))
    assert moved == {path: state for path, state in
                     tree_states(diff, {ids["a (delete)"], ids["a/x (add)"]}).items()
                     if path in ("a", "a/x")}


def test_one_file_changing_costs_one_file_at_a_hundred_thousand_hunks() -> None:
    """Time grows with what changes, not with the diff: 100,000 hunks in 5,000 files."""
    diff = synthetic_diff(files=5000, hunks_per_file=20, lines=400)
    rnd = random.Random(3)
    selected = frozenset(change.id for change in diff.changes if rnd.random() < 0.5)
    builder = TreeBuilder(diff)
    started = time.perf_counter()
    builder.states(selected)
    whole = time.perf_counter() - started
    timings = []
    for file in rnd.sample(range(5000), 20):
        selected ^= {change.id for change in diff.files[file].changes[:3]}
        started = time.perf_counter()
        changed = builder.states(selected)
        timings.append(time.perf_counter() - started)
        assert list(changed) == [diff.files[file].old_path]
    assert sorted(timings)[len(timings) // 2] < whole / 20, (whole, timings)
