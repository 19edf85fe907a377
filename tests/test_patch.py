"""Configurations as tree states: splicing git's hunks, path conflicts, reproduction."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EXECUTABLE, DiffRepo, GitRepo, init_repo
from wynot.changes import Change, ChangeKind, Diff, FileDiff, FileState, Hunk
from wynot.diffread import read_diff
from wynot.patch import (
    PathConflict,
    ReproductionError,
    _offsets,
    apply_hunks,
    check_reproduces,
    file_states,
    split_lines,
    tree_states,
)


@pytest.mark.parametrize(
    ("data", "lines"),
    [
        (b"", []),
        (b"a", [b"a"]),
        (b"a\n", [b"a\n"]),
        (b"\n\n", [b"\n", b"\n"]),
        (b"a\r\nb", [b"a\r\n", b"b"]),
        (b"form\x0cfeed\rcr\x85\n\xff", [b"form\x0cfeed\rcr\x85\n", b"\xff"]),
    ],
)
def test_split_lines_splits_on_newline_only(data: bytes, lines: list[bytes]) -> None:
    assert split_lines(data) == lines
    assert b"".join(lines) == data


# --- apply_hunks against git's own hunks -------------------------------------------

LINE_ALPHABET = [b"alpha", b"beta", b"gamma\r", b"caf\xe9", b"\xff\xfe", b"", b"  }", b"x = 1\r"]


@st.composite
def file_pairs(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """Two related files: random edits of random lines (CRLF, non-UTF-8, no final newline)."""
    size = draw(st.integers(0, 80))
    old = draw(st.lists(st.sampled_from(LINE_ALPHABET), min_size=size, max_size=size))
    new = list(old)
    for _ in range(draw(st.integers(0, 8))):
        pos = draw(st.integers(0, len(new)))
        operation = draw(st.sampled_from(["insert", "delete", "replace"]))
        lines = draw(st.lists(st.sampled_from(LINE_ALPHABET), min_size=1, max_size=3))
        if operation == "insert":
            new[pos:pos] = lines
        elif operation == "delete":
            del new[pos : pos + len(lines)]
        else:
            new[pos : pos + 1] = lines

    def join(lines: list[bytes]) -> bytes:
        return b"\n".join(lines) + (b"\n" if lines and draw(st.booleans()) else b"")

    return join(old), join(new)


@pytest.fixture(scope="module")
def pair_repo(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    return init_repo(tmp_path_factory.mktemp("pairs") / "repo")


def git_hunks(repo: GitRepo, old: bytes, new: bytes, contexts: Sequence[int]) -> list[list[Hunk]]:
    """The hunks git finds between two versions of one file, for each context size."""
    good = repo.commit({"f.txt": old})
    bad = repo.commit({"f.txt": new})
    return [[c.hunk for c in read_diff(repo.path, good, bad, context=n).changes if c.hunk]
            for n in contexts]


def first_line(start: int, length: int) -> int:
    return start if length == 0 else start - 1


def apply_one_by_one(old: bytes, new: bytes, hunks: Sequence[Hunk]) -> bytes:
    """Reference: apply each hunk in the given order, shifted by those applied above it."""
    lines, new_lines = split_lines(old), split_lines(new)
    applied: list[tuple[int, int]] = []
    for hunk in hunks:
        start = first_line(hunk.old_start, hunk.old_len)
        shift = sum(delta for at, delta in applied if at < start)
        first_new = first_line(hunk.new_start, hunk.new_len)
        lines[start + shift : start + shift + hunk.old_len] = \
            new_lines[first_new : first_new + hunk.new_len]
        applied.append((start, hunk.new_len - hunk.old_len))
    return b"".join(lines)


def sides_of(hunk: Hunk) -> tuple[list[bytes], list[bytes]]:
    """The old and new lines a hunk's text shows ("\\ No newline" ends the previous line)."""
    old: list[bytes] = []
    new: list[bytes] = []
    last: list[list[bytes]] = []
    for line in split_lines(hunk.text.encode("utf-8", "surrogateescape"))[1:]:
        sign, content = line[:1], line[1:]
        if sign == b"\\":
            for side in last:
                side[-1] = side[-1].removesuffix(b"\n")
            continue
        last = [side for side, signs in ((old, b" -"), (new, b" +")) if sign in signs]
        for side in last:
            side.append(content)
    return old, new


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pair=file_pairs(), rnd=st.randoms(use_true_random=False))
def test_apply_hunks_splices_gits_hunks(
    pair_repo: GitRepo, pair: tuple[bytes, bytes], rnd: random.Random
) -> None:
    old, new = pair
    for hunks in git_hunks(pair_repo, old, new, contexts=(0, 3)):
        assert bool(hunks) == (old != new)
        assert apply_hunks(old, new, hunks) == new
        assert apply_hunks(old, new, []) == old
        for hunk in hunks:
            start = first_line(hunk.old_start, hunk.old_len)
            first_new = first_line(hunk.new_start, hunk.new_len)
            assert sides_of(hunk) == (
                split_lines(old)[start : start + hunk.old_len],
                split_lines(new)[first_new : first_new + hunk.new_len],
            )
        subsets = [list(s) for n in range(len(hunks) + 1)
                   for s in itertools.combinations(hunks, n)]
        for subset in subsets if len(subsets) <= 64 else rnd.sample(subsets, 64):
            expected = apply_hunks(old, new, subset)
            shuffled = rnd.sample(subset, len(subset))
            assert apply_hunks(old, new, shuffled) == expected
            assert apply_one_by_one(old, new, shuffled) == expected


def test_apply_hunks_rejects_overlapping_hunks() -> None:
    hunk = Hunk(1, 1, 1, 1, "", "@@ -1 +1 @@\n-a\n+b\n")
    with pytest.raises(ValueError, match="overlaps"):
        apply_hunks(b"a\n", b"b\n", [hunk, hunk])


# --- tree states of the every-change fixture -----------------------------------------


def fixture_diff(fixture: DiffRepo) -> tuple[Diff, dict[str, int]]:
    diff = read_diff(fixture.repo.path, fixture.good, fixture.bad)
    return diff, {change.label: change.id for change in diff.changes}


def commit_states(fixture: DiffRepo, commit: str, paths: set[str]) -> dict[str, FileState | None]:
    files = fixture.repo.files(commit)
    return {path: FileState(*files[path]) if path in files else None for path in paths}


def test_all_changes_give_bad_and_none_give_good(diff_repo: DiffRepo) -> None:
    diff, _ = fixture_diff(diff_repo)
    everything = tree_states(diff, {change.id for change in diff.changes})
    nothing = tree_states(diff, set())
    assert everything.keys() == nothing.keys()
    assert everything == commit_states(diff_repo, diff_repo.bad, set(everything))
    assert nothing == commit_states(diff_repo, diff_repo.good, set(nothing))
    check_reproduces(diff)


def test_file_states_follow_the_selected_changes(diff_repo: DiffRepo) -> None:
    diff, ids = fixture_diff(diff_repo)
    by_path = {fd.new_path or fd.old_path: fd for fd in diff.files}
    renamed = by_path["ren_mode_new.sh"]
    assert renamed.old is not None and renamed.new is not None
    only_mode = file_states(renamed, {ids["ren_mode_new.sh (mode 100644 -> 100755)"]})
    assert only_mode == {"ren_mode_old.sh": FileState(EXECUTABLE, renamed.old.data),
                         "ren_mode_new.sh": None}
    only_rename = file_states(renamed, {ids["ren_mode_old.sh -> ren_mode_new.sh (rename)"]})
    assert only_rename == {"ren_mode_new.sh": renamed.old, "ren_mode_old.sh": None}
    hunk_id = ids["ren_mode_new.sh:-1,6"]
    assert file_states(renamed, {hunk_id})["ren_mode_old.sh"] == \
        FileState(renamed.old.mode, renamed.new.data)
    link = by_path["link_to_file"]
    assert file_states(link, set()) == {"link_to_file": link.old}
    assert file_states(link, {ids["link_to_file (type symlink -> file)"]}) == \
        {"link_to_file": link.new}


@pytest.mark.parametrize(
    ("labels", "conflict"),
    [
        (["a/x (add)"], ("a", "a/x")),
        (["d (add)"], None),  # d/x or d/y: whichever the set yields first
        (["d (add)", "d/x (delete)"], ("d", "d/y")),
    ],
)
def test_file_and_directory_at_one_path_conflict(
    diff_repo: DiffRepo, labels: list[str], conflict: tuple[str, str] | None
) -> None:
    diff, ids = fixture_diff(diff_repo)
    with pytest.raises(PathConflict) as caught:
        tree_states(diff, {ids[label] for label in labels})
    if conflict is not None:
        assert caught.value.paths == conflict
    assert caught.value.path in {"a", "d"}
    everything = {change.id for change in diff.changes}
    with pytest.raises(PathConflict):
        tree_states(diff, everything - {ids["d/y (delete)"]})


@pytest.mark.parametrize(
    "labels",
    [
        [],
        ["a (delete)"],
        ["a (delete)", "a/x (add)"],
        ["d/x (delete)"],
        ["d (add)", "d/x (delete)", "d/y (delete)"],
    ],
)
def test_consistent_selections_do_not_conflict(diff_repo: DiffRepo, labels: list[str]) -> None:
    diff, ids = fixture_diff(diff_repo)
    tree_states(diff, {ids[label] for label in labels})


def test_check_reproduces_names_the_file_that_does_not(diff_repo: DiffRepo) -> None:
    diff, ids = fixture_diff(diff_repo)
    change = diff.changes[ids["many.txt:-2,7"]]
    assert change.hunk is not None
    wrong = dataclasses.replace(change, hunk=dataclasses.replace(change.hunk, new_start=3))
    fd = diff.files[change.file]
    bad_fd = dataclasses.replace(
        fd, changes=tuple(wrong if c.id == change.id else c for c in fd.changes))
    files = tuple(bad_fd if f.index == fd.index else f for f in diff.files)
    with pytest.raises(ReproductionError, match="many.txt") as caught:
        check_reproduces(dataclasses.replace(diff, files=files))
    assert caught.value.path == "many.txt"


# --- speed ---------------------------------------------------------------------------


def synthetic_diff(files: int, hunks_per_file: int, lines: int) -> Diff:
    """``files`` text files of ``lines`` lines, each with single-line edits (-U0 hunks)."""
    every = lines // hunks_per_file
    fds: list[FileDiff] = []
    changes: list[Change] = []
    for index in range(files):
        old_lines = [b"file %d line %d\n" % (index, n) for n in range(lines)]
        new_lines = list(old_lines)
        own: list[Change] = []
        for k in range(hunks_per_file):
            at = k * every + 1
            new_lines[at - 1] = b"edited %d\n" % at
            hunk = Hunk(at, 1, at, 1, "", f"@@ -{at} +{at} @@\n")
            own.append(Change(len(changes) + k, index, ChangeKind.HUNK, f"dir{index % 37}/f{index}",
                              hunk))
        old = FileState(0o100644, b"".join(old_lines))
        new = FileState(0o100644, b"".join(new_lines))
        fds.append(FileDiff(index, own[0].path, own[0].path, old, new, tuple(own)))
        changes.extend(own)
    return Diff("0" * 40, "1" * 40, tuple(fds), tuple(changes))


def test_tree_states_splits_each_file_once_across_configurations() -> None:
    """The cost of a configuration is splicing, not splitting: each side of a file
    is split into lines once, however many configurations are built (the speed
    itself is measured by benchmarks/scale/bench_tree_states.py)."""
    diff = synthetic_diff(files=1000, hunks_per_file=10, lines=300)
    check_reproduces(diff)
    rnd = random.Random(7)
    _offsets.cache_clear()
    for n in range(5):
        selected = {change.id for change in diff.changes if rnd.random() < 0.5}
        states = tree_states(diff, selected)
        assert len(states) == len(diff.files)
        splits = _offsets.cache_info().misses  # 5 x 2,000 if each configuration split again
        assert splits <= 2 * len(diff.files), (n, splits)
