"""The scratch worktree: a ``git worktree`` of GOOD where configurations are built.

It lives in a temporary directory outside the user's working tree
(:mod:`wynot.scratch` makes and removes it). Switching from one
configuration to the next writes only the paths whose state changes.
Every write checks that no parent of the path is a symlink or a file, so a
configuration that mixes a symlink from BAD with a directory from GOOD can
never make wynot write outside the worktree.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from wynot.changes import FileState
from wynot.checkout import Converter
from wynot.git import find_repo, git

SYMLINK_MODE = 0o120000
GITLINK_MODE = 0o160000
EXECUTABLE_MODE = 0o100755


class UnsafePath(Exception):
    """A path cannot be written without leaving the worktree or clobbering a directory."""


class ScratchWorktree:
    """A detached worktree of ``good``; ``apply`` brings it to a configuration."""

    def __init__(self, repo: Path, good: str, root: Path, base: Mapping[str, FileState | None],
                 converter: Converter | None = None):
        self.repo = repo
        self.good = good
        self.root = root
        self._current: dict[str, FileState | None] = dict(base)
        self._converter = converter
        self._restart: str | None = None  # a commit checked out since the last apply
        # What wynot last wrote at each path it wrote (None: removed it), to tell a
        # file the commands changed (wynot.tracked); and whether the index's stat
        # data was refreshed since git last wrote the index.
        self.stamps: dict[str, Stamp | None] = {}
        self._written: dict[str, FileState] = {}  # as written there (checkout bytes)
        self.index_fresh = False
        # Whether its files are known to be as wynot left them (no command ran
        # since they were checked), and how many files the commit checked out
        # tracks, once counted (wynot.tracked).
        self.clean = True
        self.tracked: int | None = None
        self.unclean_runs = 0  # runs that gave an outcome, started while not clean
        # Tracked files git reports changed even as written by a checkout, with
        # their stamps then (wynot.tracked).
        self.quirks: dict[str, Stamp | None] = {}
        self._link = _link_of(root)  # the .git file that ties it to the repository

    def apply(self, states: Mapping[str, FileState | None]) -> int:
        """Bring every path in ``states`` to its state (None = absent). Returns paths written.

        On any error the worktree is in an unknown state: the next ``apply``
        rewrites every path it is given.
        """
        todo = {p: s for p, s in states.items() if self._current.get(p, _UNKNOWN) != s}
        if not todo:
            return 0
        if self._restart is not None and self._converter is not None:
            self._converter.restart(self._restart)
            self._restart = None
        removals = sorted((p for p, s in todo.items() if s is None), reverse=True)
        writes = sorted(p for p, s in todo.items() if s is not None)
        try:
            files = self._converter.convert(todo) if self._converter else {}
            for path in removals:
                self._remove(path)
                self._current[path] = None
                self.stamps[path] = None
                self._written.pop(path, None)
            for path in removals:
                self._prune_empty_parents(path)
            checked: set[str] = set()  # directories found real in this pass
            for path in writes:
                state = todo[path]
                assert state is not None
                self._written[path] = files.get(path, state)
                self._write(path, self._written[path], checked)
                self._current[path] = state
                self.stamps[path] = stamp(self._full(path))
            for path in sorted(files.keys() - todo.keys()):  # attributes changed under it
                self._written[path] = files[path]
                self._write(path, files[path], checked)
                self.stamps[path] = stamp(self._full(path))
        except BaseException:
            self._current.clear()  # unknown: rewrite everything next time
            self.stamps.clear()
            self._written.clear()
            raise
        return len(todo)

    def unlike_written(self) -> list[str]:
        """The paths wynot wrote whose file is not what it wrote any more (one only
        touched, its content, kind and mode the same, is stamped again)."""
        unlike = []
        for path, written in self.stamps.items():
            now = stamp(self._full(path))
            if now == written:
                continue
            if written is not None and now is not None and self._holds(path):
                self.stamps[path] = now
                continue
            unlike.append(path)
        return unlike

    def _holds(self, path: str) -> bool:
        """Whether the file at ``path`` is what wynot last wrote there."""
        state = self._written.get(path)
        if state is None or self.stamps.get(path) is None:
            return False
        full = self._full(path)
        info = os.lstat(full)
        if state.mode == SYMLINK_MODE:
            return stat.S_ISLNK(info.st_mode) and os.readlink(full) == os.fsdecode(state.data)
        executable = bool(info.st_mode & 0o100)
        with open(full, "rb") as handle:
            return (stat.S_ISREG(info.st_mode) and executable is (state.mode == EXECUTABLE_MODE)
                    and handle.read() == state.data)

    def rewrite(self, paths: Iterable[str]) -> list[str]:
        """Write again the state of those of ``paths`` that the configurations set
        (whatever is there now); returns the others."""
        mine = {p: self._current[p] for p in paths if p in self._current}
        for path in mine:
            del self._current[path]
            self.stamps.pop(path, None)
            self._written.pop(path, None)
        self.apply(mine)
        return sorted(set(paths) - mine.keys())

    def checkout(self, commit: str) -> None:
        """Check out a whole commit (the commit phase), like ``git bisect`` does."""
        git(self.root, "checkout", "--quiet", "--detach", "--force", commit, checkout=True)
        self._restart = commit  # git itself wrote every file; files written over it convert
        self._current.clear()  # unknown: the next apply rewrites every path it is given
        self.stamps.clear()
        self._written.clear()
        self.index_fresh = False
        self.clean = True  # git wrote every tracked file
        self.tracked = None
        self.unclean_runs = 0
        self.quirks.clear()

    def relink(self) -> bool:
        """Put back the worktree's ``.git`` file, which ties it to the repository,
        when a command removed or replaced it (``rm -rf .git``, ``git init``);
        whether it did. Without it every git command in the worktree fails."""
        if self._link is None:
            return False
        path = self.root / ".git"
        with contextlib.suppress(OSError):
            if not path.is_symlink() and path.is_file() and path.read_bytes() == self._link:
                return False
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.is_symlink() or path.exists():
            path.unlink()
        path.write_bytes(self._link)
        return True

    def switch(self, good: str, base: Mapping[str, FileState | None]) -> ScratchWorktree:
        """This worktree checked out at ``good``, for the configurations of a new diff.

        ``base`` is the state in ``good`` of the paths the new diff touches. The
        worktree writes through a new checkout converter (in a fresh scratch
        directory beside it), as a worktree made by :func:`scratch_worktree` does;
        build outputs, untracked, survive the switch.
        """
        git(self.root, "checkout", "--quiet", "--detach", "--force", good, checkout=True)
        scratch = Path(tempfile.mkdtemp(prefix="checkout-", dir=self.root.parent))
        objects = find_repo(self.repo).git_dir / "objects"
        converter = Converter(self.root, scratch, objects, good, base)
        return ScratchWorktree(self.repo, good, self.root, base, converter)

    # -- filesystem, relative to root (string paths: thousands are written at once) ------

    def _full(self, path: str) -> str:
        parts = [part for part in path.split("/") if part and part != "."]
        if not parts or path.startswith("/") or ".." in parts or ".git" in parts:
            raise UnsafePath(f"refusing to write {path!r}")
        return os.path.join(self.root, *parts)

    def _remove(self, path: str) -> None:
        full = self._full(path)
        self._check_parents(full, create=False)
        try:
            info = os.lstat(full)
        except FileNotFoundError:
            return
        if stat.S_ISDIR(info.st_mode):
            shutil.rmtree(full)  # a gitlink's empty directory, or build output
        else:
            os.unlink(full)

    def _prune_empty_parents(self, path: str) -> None:
        root = os.fspath(self.root)
        parent = os.path.dirname(self._full(path))
        while parent != root:
            try:
                os.rmdir(parent)
            except OSError:
                return
            parent = os.path.dirname(parent)

    def _write(self, path: str, state: FileState, checked: set[str]) -> None:
        """Write one file; ``checked``: the directories this pass found (or made)
        real, whose parents need no check again (only this pass writes meanwhile).

        A regular file over a regular file of one link is rewritten in place:
        creating a file costs the kernel several times what
        rewriting one does (0.4-0.6 ms against 0.05 ms here, docs/performance.md).
        Anything else (a symlink, a directory, a file with other links, one that
        cannot be opened for writing) is removed and the file made anew."""
        full = self._full(path)
        parent = os.path.dirname(full)
        if parent not in checked:
            self._check_parents(full, create=True)
            checked.add(parent)
        perm = 0o755 if state.mode == EXECUTABLE_MODE else 0o644
        try:
            info: os.stat_result | None = os.lstat(full)
        except FileNotFoundError:
            info = None
        if info is not None and stat.S_ISDIR(info.st_mode):
            shutil.rmtree(full)  # build output where a file now goes
            checked.clear()  # it may have held directories found before
        elif info is not None:
            if (stat.S_ISREG(info.st_mode) and info.st_nlink == 1
                    and state.mode not in (SYMLINK_MODE, GITLINK_MODE)
                    and _rewrite(full, state.data, perm)):
                return
            with contextlib.suppress(FileNotFoundError):
                os.unlink(full)
        if state.mode == SYMLINK_MODE:
            os.symlink(os.fsdecode(state.data), full)
        elif state.mode == GITLINK_MODE:
            os.mkdir(full)
        else:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
            _fill(os.open(full, flags, perm), state.data, perm)

    def _check_parents(self, full: str, *, create: bool) -> None:
        """Every directory between root and ``full`` must be a real directory."""
        root = current = os.fspath(self.root)
        for part in full[len(root) + 1:].split("/")[:-1]:  # full: root, "/", parts
            current = os.path.join(current, part)
            try:
                info = os.lstat(current)
            except FileNotFoundError:
                if not create:
                    return
                os.mkdir(current)
                continue
            if not stat.S_ISDIR(info.st_mode):
                kind = "symlink" if stat.S_ISLNK(info.st_mode) else "file"
                raise UnsafePath(f"{current[len(root) + 1:]} is a {kind}, not a directory")


def _rewrite(full: str, data: bytes, perm: int) -> bool:
    """Write ``data`` over the regular file ``full`` (never followed if it became a
    symlink), with permissions ``perm``; False when it cannot be opened for
    writing (read-only, a running program's file): nothing was written.

    The file is written over from its start and then cut to the new length,
    not truncated first: ext4 writes a file emptied by truncation out to disk
    when it is closed (its ``auto_da_alloc``), which made each rewrite ten
    times as costly (docs/performance.md)."""
    try:
        fd = os.open(full, os.O_WRONLY | os.O_NOFOLLOW)
    except OSError:
        return False
    _fill(fd, data, perm)
    return True


def _fill(fd: int, data: bytes, perm: int) -> None:
    """Write ``data`` from the start of the open file ``fd``, cut it to that length,
    set its permissions to ``perm`` (the umask may have dropped bits, the file
    may have had others), and close it."""
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.ftruncate(fd, len(data))
        os.fchmod(fd, perm)


_UNKNOWN = object()  # the state of a path not written yet, or lost after an error
Stamp = tuple[int, int, int, int]  # what lstat says of a path wynot wrote: inode, mode, size, mtime


def _link_of(root: Path) -> bytes | None:
    """The ``.git`` file of a worktree (``gitdir: ...``), or None where there is none."""
    try:
        return (root / ".git").read_bytes()
    except OSError:  # a directory (a clone), or not made yet
        return None


def stamp(full: str) -> Stamp | None:
    """The stamp of the path ``full`` now, None when there is no file there (nothing,
    or a directory: the parent of other paths, or a submodule's, never content)."""
    try:
        info = os.lstat(full)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISDIR(info.st_mode):
        return None
    return info.st_ino, info.st_mode, info.st_size, info.st_mtime_ns
