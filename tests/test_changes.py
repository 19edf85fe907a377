"""read_diff on real repositories: every kind of change, exact bytes, git's own hunks."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

from conftest import DiffRepo, GitRepo, Symlink
from wynot.changes import ChangeKind, Diff, FileState
from wynot.diffread import read_diff
from wynot.errors import GitError
from wynot.patch import check_reproduces

# The whole diff of the every-change fixture, in id order: files in git's order,
# changes within a file as rename, type or mode, then content in line order.
EXPECTED_LABELS = [
    "a (delete)",
    "a/x (add)",
    "back\\slash\nnewline.txt:-1,1",
    "bin.dat (content binary)",
    os.fsdecode(b"caf\xe9 latin1 name.txt:-1,1"),
    "crlf.txt:-1,6",
    "crlf.txt:-22,7",
    "d (add)",
    "d/x (delete)",
    "d/y (delete)",
    "del.txt (delete)",
    "dir with space/\xfcn\xefcode.txt:-1,2",
    "emptied.txt:-1,1",
    "file_to_link (type file -> symlink)",
    "latin1.txt:-1,3",
    "link_new (add)",
    "link_retarget (content symlink)",
    "link_to_file (type symlink -> file)",
    "many.txt:-2,7",
    "many.txt:-28,9",
    "many.txt:-61,6",
    "many.txt:-117,4",
    "mode_edit.sh (mode 100644 -> 100755)",
    "mode_edit.sh:-1,2",
    "mode_off.sh (mode 100755 -> 100644)",
    "mode_only.sh (mode 100644 -> 100755)",
    "new.txt (add)",
    "new_empty.txt (add)",
    "nonl_bad.txt:-1,2",
    "nonl_both.txt:-1,2",
    "nonl_good.txt:-1,2",
    "pure_old.txt -> pure_new.txt (rename)",
    "ren_mode_old.sh -> ren_mode_new.sh (rename)",
    "ren_mode_new.sh (mode 100644 -> 100755)",
    "ren_mode_new.sh:-1,6",
    "ren_old.txt -> ren_new.txt (rename)",
    "ren_new.txt:-17,7",
    "sub (content submodule)",
    "sub_new (add)",
    'tab\tand "quotes".txt:-1,1',
    "x b/y.txt:-1,1",
]


def diff_of(fixture: DiffRepo, context: int = 3) -> Diff:
    return read_diff(fixture.repo.path, fixture.good, fixture.bad, context=context)


def test_every_kind_of_change_appears_with_a_stable_label(diff_repo: DiffRepo) -> None:
    diff = diff_of(diff_repo)
    assert [change.label for change in diff.changes] == EXPECTED_LABELS
    assert {change.kind for change in diff.changes} == set(ChangeKind)


def test_ids_are_positions_and_files_own_contiguous_runs(diff_repo: DiffRepo) -> None:
    diff = diff_of(diff_repo)
    assert [change.id for change in diff.changes] == list(range(len(diff.changes)))
    assert [fd.index for fd in diff.files] == list(range(len(diff.files)))
    assert tuple(change for fd in diff.files for change in fd.changes) == diff.changes
    for fd in diff.files:
        assert all(change.file == fd.index for change in fd.changes)
        assert all((change.hunk is not None) == (change.kind is ChangeKind.HUNK)
                   for change in fd.changes)
        starts = [change.hunk.old_start for change in fd.changes if change.hunk]
        assert starts == sorted(starts)


def test_commits_are_resolved_to_full_shas(diff_repo: DiffRepo) -> None:
    diff = read_diff(diff_repo.repo.path, "HEAD~1", "main")
    assert (diff.good, diff.bad) == (diff_repo.good, diff_repo.bad)
    assert diff == diff_of(diff_repo)


def test_states_hold_the_exact_bytes_and_modes_of_both_commits(diff_repo: DiffRepo) -> None:
    diff = diff_of(diff_repo)
    good_files = diff_repo.repo.files(diff_repo.good)
    bad_files = diff_repo.repo.files(diff_repo.bad)
    for fd in diff.files:
        if fd.old_path is None:
            assert fd.old is None and fd.new_path not in good_files
        else:
            assert fd.old == FileState(*good_files[fd.old_path])
        if fd.new_path is None:
            assert fd.new is None and fd.old_path not in bad_files
        else:
            assert fd.new == FileState(*bad_files[fd.new_path])
    touched = {path for fd in diff.files for path in (fd.old_path, fd.new_path) if path}
    assert {p: e for p, e in good_files.items() if p not in touched} == \
        {p: e for p, e in bad_files.items() if p not in touched}


def test_paths_are_git_bytes_decoded_with_surrogateescape(diff_repo: DiffRepo) -> None:
    paths = {change.path for change in diff_of(diff_repo).changes}
    assert os.fsdecode(b"caf\xe9 latin1 name.txt") in paths
    assert "dir with space/\xfcn\xefcode.txt" in paths
    assert 'tab\tand "quotes".txt' in paths
    assert "x b/y.txt" in paths
    assert "back\\slash\nnewline.txt" in paths


def test_hunks_carry_gits_numbers_headers_and_text(diff_repo: DiffRepo) -> None:
    diff = diff_of(diff_repo)
    hunks = {change.label: change.hunk for change in diff.changes if change.hunk}
    numbers = [(h.old_start, h.old_len, h.new_start, h.new_len, h.header)
               for label, h in hunks.items() if label.startswith("many.txt")]
    assert numbers == [
        (2, 7, 2, 7, "line 1"),
        (28, 9, 28, 6, "line 27"),
        (61, 6, 58, 8, "line 60"),
        (117, 4, 116, 4, "line 116"),
    ]
    last = hunks["many.txt:-117,4"]
    assert last.text.startswith("@@ -117,4 +116,4 @@ line 116\n")
    assert last.text.endswith("+last line without newline\n\\ No newline at end of file\n")
    assert "-line 25\r\n+LINE 25\r\n" in hunks["crlf.txt:-22,7"].text
    assert hunks["crlf.txt:-22,7"].header == "line 21"
    latin1 = hunks["latin1.txt:-1,3"].text.encode("utf-8", "surrogateescape")
    assert b"-na\xefve\n+NA\xcfVE\n" in latin1


def test_context_zero_gives_one_hunk_per_edit(diff_repo: DiffRepo) -> None:
    diff = diff_of(diff_repo, context=0)
    many = [(c.hunk.old_start, c.hunk.old_len, c.hunk.new_start, c.hunk.new_len)
            for c in diff.changes if c.hunk and c.path == "many.txt"]
    assert many == [(5, 1, 5, 1), (31, 3, 30, 0), (63, 0, 61, 2), (120, 1, 119, 1)]
    check_reproduces(diff)
    with pytest.raises(ValueError, match="context"):
        diff_of(diff_repo, context=-1)


def test_identical_trees_give_no_changes(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    first = repo.commit({"a.txt": b"a\n", "l": Symlink("a.txt")})
    second = repo.commit({"a.txt": b"a\n", "l": Symlink("a.txt")}, "same tree")
    for good, bad in ((first, second), (first, first)):
        diff = read_diff(repo.path, good, bad)
        assert (diff.files, diff.changes) == ((), ())


def test_gitattributes_binary_makes_text_whole_content(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    attributes = b"*.txt binary\n"
    good = repo.commit({".gitattributes": attributes, "a.txt": b"one\ntwo\n"})
    bad = repo.commit({".gitattributes": attributes, "a.txt": b"one\nTWO\n"})
    assert [c.label for c in read_diff(repo.path, good, bad).changes] == [
        "a.txt (content binary)"
    ]


def test_user_diff_configuration_does_not_change_the_diff(diff_repo: DiffRepo) -> None:
    expected = diff_of(diff_repo)
    hostile = {
        "diff.noprefix": "true", "diff.mnemonicPrefix": "true",
        "diff.suppressBlankEmpty": "true", "diff.submodule": "log",
        "diff.external": "false", "diff.algorithm": "patience", "diff.context": "0",
        "diff.interHunkContext": "10", "diff.renames": "copies", "core.quotePath": "true",
        "color.ui": "always", "color.diff": "always", "diff.ignoreSubmodules": "all",
        "diff.srcPrefix": "x/", "diff.dstPrefix": "y/", "diff.relative": "true",
        "core.autocrlf": "true",
    }
    for key, value in hostile.items():
        diff_repo.repo.git("config", key, value)
    assert diff_of(diff_repo) == expected


def test_unknown_revision_is_a_git_error(diff_repo: DiffRepo) -> None:
    with pytest.raises(GitError, match="unknown revision"):
        read_diff(diff_repo.repo.path, diff_repo.good, "no-such-branch")
