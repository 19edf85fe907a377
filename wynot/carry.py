"""Carry an answer found between two later commits back onto GOOD, three-way.

The commit phase leaves the hunk phase a range ``low..high`` (the first bad
commit and its parent); the answer is a set of changes to ``low``. Users
apply a patch to GOOD, so :func:`carry_states` replays the answer's edits on
GOOD's files the way ``git merge-file`` merges (``low`` is the base, GOOD is
ours, ``low`` with the answer is theirs). Only temporary files are written;
the user's repository is read.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from wynot.changes import Diff, FileState
from wynot.diffread import read_blobs
from wynot.errors import GitError
from wynot.export import export_patch
from wynot.git import git
from wynot.outcome import Outcome
from wynot.patch import side_states, tree_states
from wynot.state import owned_tempdir
from wynot.tester import Tester
from wynot.worktree import UnsafePath

_TYPE_MASK, _REGULAR, _GITLINK = 0o170000, 0o100000, 0o160000

States = Mapping[str, FileState | None]


class CarryError(Exception):
    """The answer's edits do not carry onto GOOD (a conflict, a missing file)."""


def carry_states(repo: Path, onto: str, base: States,
                 answer: States) -> dict[str, FileState | None]:
    """The answer's states carried onto ``onto``: path -> state (None = absent).

    ``base`` holds each path as it is where the answer was found (``low``),
    ``answer`` as the answer leaves it. Only paths the answer changes are
    returned. Raises CarryError naming the first path that does not carry.
    """
    changed = {p: s for p, s in answer.items() if s != base.get(p)}
    ours = read_states(repo, onto, list(changed))
    return {path: _merge(repo, path, base.get(path), ours.get(path), theirs)
            for path, theirs in sorted(changed.items())}


def _merge(repo: Path, path: str, base: FileState | None, ours: FileState | None,
           theirs: FileState | None) -> FileState | None:
    """One path, three-way: what the answer did to ``base``, done to ``ours``."""
    if ours in (base, theirs):
        return theirs
    if base is None or ours is None or theirs is None:
        raise CarryError(f"{path}: {_what(base, theirs)} by the answer, but GOOD has "
                         f"{'no such file' if ours is None else 'another version'}")
    mode = _merge_mode(path, base.mode, ours.mode, theirs.mode)
    if ours.data == base.data or ours.data == theirs.data:
        return FileState(mode, theirs.data)
    if theirs.data == base.data:
        return FileState(mode, ours.data)
    if any(s.mode & _TYPE_MASK != _REGULAR for s in (base, ours, theirs)):
        raise CarryError(f"{path}: GOOD holds another link target or submodule commit")
    return FileState(mode, _merge_file(repo, path, base.data, ours.data, theirs.data))


def _merge_mode(path: str, base: int, ours: int, theirs: int) -> int:
    if ours in (base, theirs):
        return theirs
    if theirs == base:
        return ours
    raise CarryError(f"{path}: GOOD has mode {ours:o}, the answer makes it {theirs:o}")


def _what(base: FileState | None, theirs: FileState | None) -> str:
    return "added" if base is None else "deleted" if theirs is None else "changed"


def _merge_file(repo: Path, path: str, base: bytes, ours: bytes, theirs: bytes) -> bytes:
    """``git merge-file -p`` of the three versions; CarryError on a conflict."""
    with owned_tempdir("carry") as tmp:
        names = []
        for name, data in (("ours", ours), ("base", base), ("theirs", theirs)):
            Path(tmp, name).write_bytes(data)
            names.append(os.path.join(tmp, name))
        try:
            return git(repo, "merge-file", "-p", *names)
        except GitError as error:
            raise CarryError(f"{path}: the answer's edits conflict with GOOD's version "
                             f"({error.message})") from error


def read_states(repo: Path, commit: str, paths: list[str]) -> dict[str, FileState]:
    """The entries of ``paths`` in ``commit``'s tree (absent paths are left out)."""
    if not paths:
        return {}
    listing = git(repo, "--literal-pathspecs", "ls-tree", "-z", "--full-tree", commit, "--",
                  *paths)
    entries = []
    for record in listing.split(b"\0"):
        if record:
            info, name = record.split(b"\t", 1)
            mode, _, sha = info.split()
            entries.append((os.fsdecode(name), int(mode, 8), sha.decode("ascii")))
    blobs = [sha for _, mode, sha in entries if mode & _TYPE_MASK != _GITLINK]
    datas = read_blobs(repo, blobs)
    return {name: FileState(mode, sha.encode("ascii") if mode & _TYPE_MASK == _GITLINK
                            else datas[sha])
            for name, mode, sha in entries}



@dataclass(frozen=True, slots=True)
class Carried:
    """The answer on GOOD: its states there, or why it is not (``states`` None)."""

    states: dict[str, FileState | None] | None
    note: str = ""


def carry_answer(tester: Tester, onto: str, diff: Diff, chosen: frozenset[int]) -> Carried:
    """Carry the answer ``chosen`` of ``diff`` onto ``onto`` (GOOD) and test it there.

    The answer carries when its edits merge onto GOOD's files and the test,
    run for real on GOOD with them, FAILS. The scratch worktree is left at
    GOOD with the answer written.
    """
    repo = tester.worktree.repo
    try:
        states = carry_states(repo, onto, side_states(diff, bad=False), tree_states(diff, chosen))
    except CarryError as error:
        return Carried(None, f"it does not carry onto GOOD: {error}")
    tester.progress(f"carrying the answer from {diff.good[:12]} onto GOOD {onto[:12]} and "
                    "testing it there")
    try:
        record = tester.run_tree(onto, states, "verify", chosen)
    except UnsafePath as error:
        return Carried(None, f"it cannot be written onto GOOD: {error}")
    if record.outcome is not Outcome.FAIL:
        return Carried(None, f"carried onto GOOD it does not fail ({record.reason}): it needs "
                             f"changes made between GOOD and {diff.good[:12]}")
    return Carried(states)


def answer_patch(repo: Path, diff: Diff, chosen: frozenset[int], carried: Carried | None,
                 good: str) -> tuple[bytes, str, str]:
    """(patch, the commit it applies to, why that is not GOOD) for the answer ``chosen``
    of ``diff``. ``carried`` is None when ``diff`` starts at GOOD. A patch that does not
    apply to GOOD says so in a first line, which ``git apply`` skips."""
    if carried is not None and carried.states is not None:
        return export_patch(repo, good, carried.states), good, ""
    low = diff.good
    patch = export_patch(repo, low, tree_states(diff, chosen))
    if carried is None:
        return patch, low, ""
    header = f"wynot: this patch applies to {low}, not to GOOD {good}: {carried.note}\n\n"
    return header.encode() + patch, low, carried.note
