"""Scratch worktrees made, kept between runs and removed.

:func:`scratch_worktree` makes a detached ``git worktree`` of GOOD in a new
temporary directory (or finishes one :func:`begin_worktree` began beside the
analysis) and removes and prunes it when the ``with`` block ends, whatever ends
it; an owner record in the state directory names it until then, so that the
next run in the repository removes what a killed run left (:func:`reclaim`).
:func:`kept_worktree` keeps one in the state directory between runs
(``--keep-worktrees``). What happens inside one is :mod:`wynot.worktree`'s.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from wynot.changes import FileState
from wynot.checkout import Converter
from wynot.errors import GitError
from wynot.git import StartedGit, find_repo, git, start_git
from wynot.state import (
    OWNER_ENV,
    OwnerRecord,
    dead_owners,
    forget_owner,
    owned_prefix,
    owner_token,
    reclaim_tempdirs,
    state_dir,
    write_owner,
)
from wynot.teardown import signals_deferred
from wynot.worktree import ScratchWorktree


@contextlib.contextmanager
def scratch_worktree(
    repo: Path, good: str, base: Mapping[str, FileState | None], within: Path | None = None,
    begun: BegunWorktree | None = None,
) -> Iterator[ScratchWorktree]:
    """Create a detached worktree of ``good`` in a new temporary directory (inside
    ``within`` when given: a directory that goes with its owner), or finish one
    :func:`begin_worktree` began (``begun``, of ``good``).

    ``base`` is the state of the paths the search will touch, in GOOD. The
    worktree is removed and pruned on exit, also on KeyboardInterrupt and
    SystemExit (the CLI turns SIGTERM and SIGHUP into KeyboardInterrupt). An
    owner record in the state directory names it until then, so that the
    next run removes it if this process is killed outright; that next run is
    any run that opens a worktree in the same repository, which first
    reclaims what dead owners left (:func:`reclaim`).
    """
    begun = begun or begin_worktree(repo, good, within)
    try:
        begun.wait()
        objects = find_repo(repo).git_dir / "objects"
        converter = Converter(begun.root, begun.parent / "checkout", objects, good, base)
        yield ScratchWorktree(repo, good, begun.root, base, converter)
    finally:
        begun.remove()


def begin_worktree(repo: Path, good: str, within: Path | None = None) -> BegunWorktree:
    """Start making a scratch worktree of ``good``: its ``git worktree add`` runs
    beside the caller as a process (no thread: the caller may fork meanwhile),
    with this run's owner mark, as :func:`add_worktree`'s.
    :func:`scratch_worktree` finishes it; :meth:`BegunWorktree.remove` undoes it."""
    common = find_repo(repo).git_dir
    state = state_dir(common)
    reclaim(repo, state)
    # Named after its owner: if this process dies before the record below is
    # written, the next run's reclaim_tempdirs still removes it.
    parent = Path(tempfile.mkdtemp(prefix=owned_prefix("worktree"), dir=within))
    root = parent / "worktree"
    try:
        record = write_owner(state, root, parent)
    except BaseException:  # a full disk, an unusable state directory: nothing is left
        shutil.rmtree(parent, ignore_errors=True)
        raise
    begun = BegunWorktree(repo, parent, root, record)
    try:
        begun.adding = start_git(repo, *_adding(root, good), output=parent / "add.out",
                                 env={OWNER_ENV: owner_token()}, checkout=True)
    except BaseException:
        begun.remove()
        raise
    return begun


class BegunWorktree:
    """A scratch worktree being made (:func:`begin_worktree`)."""

    def __init__(self, repo: Path, parent: Path, root: Path, record: OwnerRecord) -> None:
        self.repo, self.parent, self.root, self._record = repo, parent, root, record
        self.adding: StartedGit | None = None

    def wait(self) -> None:
        """Wait until ``git worktree add`` is done; GitError if it failed. Interrupted
        (Ctrl-C reaches wynot, not git, in its own session), git still runs, and
        :meth:`remove` stops it."""
        if self.adding is not None:
            try:
                self.adding.wait()
            except GitError:  # git has ended
                self.adding = None
                raise
            self.adding = None

    def __enter__(self) -> BegunWorktree:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()

    def remove(self) -> None:
        """Remove the worktree and its directory (``git worktree add`` stopped first
        if nobody waited for it)."""
        with signals_deferred():  # a second Ctrl-C must not cut the removal short
            if self.adding is not None:  # never waited for: of no use, stopped
                self.adding.stop()
                self.adding = None
            remove_worktree(self.repo, self.root)
            shutil.rmtree(self.parent, ignore_errors=True)
            forget_owner(self._record)


KEPT = "worktrees"  # in the state directory: the worktrees kept between runs


@contextlib.contextmanager
def kept_worktree(
    repo: Path, good: str, base: Mapping[str, FileState | None]
) -> Iterator[ScratchWorktree]:
    """A worktree of ``good`` kept in the state directory between runs
    (``--keep-worktrees``): the first one no other run holds, or a new one.

    Reused, it is checked out at ``good`` by git, which rewrites only the files
    that differ and leaves untracked files (build outputs) where they are, so
    an incremental build starts from the previous run's outputs. It is held by
    an exclusive lock on ``<slot>.lock`` beside it while in use (released by the
    kernel if this process dies) and stays on exit; ``wynot clean`` removes it
    (:func:`remove_kept_worktrees`).
    """
    common = find_repo(repo).git_dir
    state = state_dir(common)
    reclaim(repo, state)
    kept = state / KEPT
    kept.mkdir(parents=True, exist_ok=True)
    with _free_slot(kept) as slot:
        root = slot / "worktree"
        scratch = slot / "checkout"
        shutil.rmtree(scratch, ignore_errors=True)
        scratch.mkdir(parents=True)
        try:
            if not (root / ".git").is_file():  # git would look for a repository above it
                raise GitError("no kept worktree")
            git(root, "checkout", "--quiet", "--detach", "--force", good, checkout=True)
        except GitError:  # missing, broken or no longer registered: made again
            remove_worktree(repo, root)
            add_worktree(repo, root, good)
        yield ScratchWorktree(repo, good, root, base,
                              Converter(root, scratch, common / "objects", good, base))


@contextlib.contextmanager
def _free_slot(kept: Path) -> Iterator[Path]:
    """The directory ``kept/<n>`` of the lowest ``n`` whose lock this process gets."""
    for number in itertools.count(1):
        handle = open(kept / f"{number}.lock", "a+b")  # noqa: SIM115 (held across the yield)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            continue
        try:
            yield kept / str(number)
        finally:
            handle.close()  # the lock goes with it
        return


def remove_kept_worktrees(repo: Path, state: Path) -> int:
    """Remove the kept worktrees no running wynot holds. Returns how many."""
    removed = 0
    for lock in sorted((state / KEPT).glob("*.lock")):
        with open(lock, "a+b") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue
            slot = lock.with_suffix("")
            if slot.exists():
                remove_worktree(repo, slot / "worktree")
                shutil.rmtree(slot, ignore_errors=True)
                removed += 1
            lock.unlink()
    return removed


def add_worktree(repo: Path, root: Path, commit: str) -> None:
    """``git worktree add`` of ``commit``, detached, at ``root``; what it starts (a
    checkout hook) carries this run's owner mark, killed with the run's leftovers."""
    git(repo, *_adding(root, commit), env={OWNER_ENV: owner_token()}, checkout=True)


def _adding(root: Path, commit: str) -> tuple[str, ...]:
    """The arguments of ``git worktree add`` of ``commit``, detached, at ``root``."""
    return ("worktree", "add", "--detach", "--quiet", str(root), commit)


def reclaim(repo: Path, state: Path) -> int:
    """Remove the worktrees (and kill the processes) of wynot runs that died. Returns how many."""
    reclaim_tempdirs()
    records = dead_owners(state)
    for record in records:
        remove_worktree(repo, record.worktree)
        shutil.rmtree(record.scratch, ignore_errors=True)
        forget_owner(record)
    return len(records)


def remove_worktree(repo: Path, root: Path) -> None:
    """Remove a scratch worktree and its administrative files, ignoring errors (a
    prune only when git could not remove it: one git process, not two, per worktree)."""
    removed = False
    with contextlib.suppress(Exception):
        git(repo, "worktree", "remove", "--force", "--force", str(root))
        removed = True
    shutil.rmtree(root, ignore_errors=True)
    if not removed:
        with contextlib.suppress(Exception):
            git(repo, "worktree", "prune", check=False)
