"""Tracked files that the commands changed in a scratch worktree, and putting them back.

A build or test command may change the files of the checkout it runs in: a
formatter, a code generator, a lock file brought up to date, snapshots
written again. wynot writes only the paths whose state changes from one
configuration to the next, so such a change would stay for every later
test: the search would decide on trees that are not its configurations, and
an answer could be verified in a tree that is not GOOD with the answer.
:func:`changed_by_commands` finds them (git's index for the files of the
commit checked out, wynot's own stamps for what it wrote) and
:func:`put_back` writes them again as the configuration has them. Files
that git does not track and the diff does not touch (build outputs) are
left alone: they are what makes a build incremental.

Which runs are checked (:func:`after_run`, :func:`before_run`): those whose
job asks it, a run killed mid-way (timed out, cancelled), every run in a
tree of at most :data:`CHECK_UP_TO` tracked files, and in a larger tree a
run the check costs little beside (:data:`CHECK_SHARE` of its duration, at
:data:`SECONDS_PER_FILE` a tracked file: a check reads every tracked file's
metadata: 80 ms of CPU and up to half a second for 7,600 files on a busy
machine here, benchmarks/bench_tracked.py). A run left unchecked leaves its
worktree to be checked before the next run that asks (the verification).
The number of files decides, and the run's own duration, not a measured
cost of the check: in a small tree which runs are checked does not depend
on the machine's load.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass

from wynot.git import git
from wynot.worktree import ScratchWorktree, stamp

CHECK_UP_TO = 500  # tracked files: in a tree this small every run is checked
CHECK_SHARE = 0.05  # in a larger one, a run a check costs at most this share of
SECONDS_PER_FILE = 2e-5  # what a check costs, a tracked file (wall, a busy machine)


def changed_by_commands(worktree: ScratchWorktree) -> list[str]:
    """The paths of ``worktree`` that are not as wynot left them: tracked files
    whose content differs from the commit checked out, where wynot did not
    write them, and the paths wynot wrote (or removed) that were changed
    since (written over, removed, made again). Sorted. A file git reports
    changed even as a checkout writes it (committed with CRLF under a ``text``
    attribute, say) counts only when it changed since (``worktree.quirks``)."""
    if not worktree.index_fresh:  # a checkout's racily clean entries, hashed once
        git(worktree.root, "update-index", "-q", "--refresh", check=False, checkout=True)
        worktree.index_fresh = True
    listed = git(worktree.root, "diff-files", "--name-only", "-z", "--ignore-submodules",
                 checkout=True)
    differ = {os.fsdecode(path) for path in listed.split(b"\0") if path}
    quirks = {path for path, was in worktree.quirks.items()
              if stamp(os.path.join(worktree.root, path)) == was}
    candidates = differ - worktree.stamps.keys() - quirks
    for path in _as_in_index(worktree, candidates):  # touched, not changed
        worktree.quirks[path] = stamp(os.path.join(worktree.root, path))
        candidates.discard(path)
    return sorted(candidates | set(worktree.unlike_written()))


def _as_in_index(worktree: ScratchWorktree, paths: set[str]) -> set[str]:
    """Those of ``paths`` (tracked files) that are regular files whose content is
    the index's, as git hashes it (its clean filters and attributes): git's
    diff-files reports a file whose timestamp changed without reading it."""
    files = sorted(p for p in paths if "\n" not in p and _regular(worktree, p))
    if not files:
        return set()
    hashed = git(worktree.root, "hash-object", "--stdin-paths", checkout=True,
                 input=b"".join(os.fsencode(p) + b"\n" for p in files)).split()
    index = {}
    for entry in git(worktree.root, "ls-files", "-s", "-z").split(b"\0"):
        if entry:
            meta, path = entry.split(b"\t", 1)
            index[os.fsdecode(path)] = meta.split()[1]
    return {path for path, sha in zip(files, hashed, strict=True) if index.get(path) == sha}


def _regular(worktree: ScratchWorktree, path: str) -> bool:
    try:
        return stat.S_ISREG(os.lstat(os.path.join(worktree.root, path)).st_mode)
    except OSError:
        return False


def put_back(worktree: ScratchWorktree, paths: Sequence[str]) -> None:
    """Write ``paths`` again as the configuration has them: the paths wynot
    writes from their states, any other tracked file from the index (the commit
    checked out, as a checkout writes it)."""
    others = worktree.rewrite(paths)
    if others:
        git(worktree.root, "checkout-index", "--force", "--quiet", "-u", "-z", "--stdin",
            input=b"".join(os.fsencode(path) + b"\0" for path in others), checkout=True)


@dataclass(frozen=True, slots=True)
class Checked:
    """What a check found: the paths put back, and whether runs that gave an
    outcome had started while some of them may have been changed already."""

    changed: tuple[str, ...] = ()
    misled: bool = False


def check(worktree: ScratchWorktree) -> Checked:
    """Put back what the commands changed in ``worktree``. Afterwards the
    worktree is as wynot left it (``clean``)."""
    changed = tuple(changed_by_commands(worktree))
    if changed:
        put_back(worktree, changed)
        # what git still reports, with no command since, it reports of a checkout
        still = set(changed_by_commands(worktree))
        for path in still:
            worktree.quirks[path] = stamp(os.path.join(worktree.root, path))
        changed = tuple(path for path in changed if path not in still)
    found = Checked(changed, bool(changed) and worktree.unclean_runs > 0)
    worktree.clean, worktree.unclean_runs = True, 0
    return found


def before_run(worktree: ScratchWorktree, asked: bool) -> Checked:
    """Before a run in a worktree not known to be as wynot left it (a run before
    was not checked, or was cancelled mid-way): when ``asked``, or in a small
    tree, put back what earlier commands changed."""
    if worktree.clean or not (asked or _tracked(worktree) <= CHECK_UP_TO):
        return Checked()
    return check(worktree)


def after_run(worktree: ScratchWorktree, asked: bool, seconds: float,
              killed: bool, started_clean: bool) -> Checked:
    """After a run of ``seconds`` (that gave an outcome): put back what its
    commands changed when ``asked``, when it was ``killed`` mid-way, in a
    small tree, or when a check costs little beside the run; else the
    worktree is left unchecked (not ``clean``)."""
    if not started_clean:
        worktree.unclean_runs += 1
    files = _tracked(worktree)
    if (asked or killed or files <= CHECK_UP_TO
            or files * SECONDS_PER_FILE <= CHECK_SHARE * seconds):
        return check(worktree)
    worktree.clean = False
    return Checked()


def _tracked(worktree: ScratchWorktree) -> int:
    """How many files the commit checked out tracks (counted once)."""
    if worktree.tracked is None:
        worktree.tracked = git(worktree.root, "ls-files", "-z").count(b"\0")
    return worktree.tracked
