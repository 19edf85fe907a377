"""Configurations as tree states. Pure: no I/O, no git, no subprocess.

A configuration is a set of change ids. Applied to GOOD it gives, for every path
the diff touches, a :class:`~wynot.changes.FileState` or None (path absent):

- ADD selected: BAD's entry at the new path, else absent.
- DELETE selected: absent, else GOOD's entry at the old path.
- TYPE selected: BAD's entry, else GOOD's (with the edits below).
- otherwise the path is the new one if the RENAME is selected, else the old one
  (the other path is absent); the content is GOOD's with the selected hunks
  spliced in by line number (BAD's data if CONTENT is selected), and the mode is
  BAD's if MODE is selected, else GOOD's.
"""

from __future__ import annotations

import array
import functools
import io
import itertools
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet

from wynot.changes import Change, ChangeKind, Diff, FileDiff, FileState, Hunk, flipped


class PathConflict(Exception):
    """A configuration needs ``path`` as a file (or symlink, or gitlink) while
    ``inner`` needs it as a directory, or two files need the same path
    (then ``inner == path``). Such a configuration cannot be materialized.
    """

    def __init__(self, path: str, inner: str) -> None:
        if path == inner:
            message = f"two changes put content at {path!r}"
        else:
            message = f"{path!r} is needed both as a file and as the directory of {inner!r}"
        super().__init__(message)
        self.path = path
        self.inner = inner

    @property
    def paths(self) -> tuple[str, str]:
        """The two paths in conflict."""
        return self.path, self.inner


class ReproductionError(ValueError):
    """Applying all changes does not give BAD, or applying none does not give GOOD."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message)
        self.path = path


def split_lines(data: bytes) -> list[bytes]:
    """Split on b"\\n" only, keeping it; the last line may lack it; b"" gives []."""
    return io.BytesIO(data).readlines()  # binary streams end lines at b"\n" only


@functools.lru_cache(maxsize=16384)
def _offsets(data: bytes) -> array.array[int]:
    """Where each line of ``data`` starts, then ``len(data)``: a file's lines are
    ``data[offsets[i]:offsets[i + 1]]``. Cached (every configuration splices the same
    files) in this compact form: 8 bytes a line rather than an object a line."""
    return array.array("q", itertools.accumulate(map(len, split_lines(data)), initial=0))


def _first_line(start: int, length: int) -> int:
    """0-based index where git's range starts (a 0-length range follows line ``start``)."""
    return start if length == 0 else start - 1


def apply_hunks(old: bytes, new: bytes, hunks: Sequence[Hunk]) -> bytes:
    """Splice ``hunks`` of the diff old -> new into ``old``, by line number.

    Each hunk replaces its old lines by its new lines taken from ``new``; the
    order of ``hunks`` does not matter. No hunks give ``old`` and all hunks give
    ``new``, byte for byte. Raises ValueError for overlapping or out-of-range hunks.
    """
    if not hunks:
        return old
    old_at, new_at = _offsets(old), _offsets(new)
    old_count, new_count = len(old_at) - 1, len(new_at) - 1
    pieces: list[bytes] = []
    pos = 0
    for hunk in sorted(hunks, key=lambda h: (h.old_start, h.old_len)):
        start = _first_line(hunk.old_start, hunk.old_len)
        new_first = _first_line(hunk.new_start, hunk.new_len)
        if start < pos or start + hunk.old_len > old_count or new_first < 0 \
                or new_first + hunk.new_len > new_count:
            raise ValueError(f"hunk -{hunk.old_start},{hunk.old_len} +{hunk.new_start},"
                             f"{hunk.new_len} overlaps another or is out of range")
        pieces.append(old[old_at[pos]:old_at[start]])
        pieces.append(new[new_at[new_first]:new_at[new_first + hunk.new_len]])
        pos = start + hunk.old_len
    pieces.append(old[old_at[pos]:])
    return b"".join(pieces)


def file_states(fd: FileDiff, selected: AbstractSet[int]) -> dict[str, FileState | None]:
    """The state of each path ``fd`` touches when the changes ``selected`` are applied."""
    chosen = {c.kind: c for c in fd.changes if c.id in selected}
    if fd.old is None or fd.old_path is None:
        assert fd.new_path is not None
        return {fd.new_path: fd.new if ChangeKind.ADD in chosen else None}
    if fd.new is None or fd.new_path is None:
        return {fd.old_path: None if ChangeKind.DELETE in chosen else fd.old}
    if ChangeKind.RENAME in chosen:
        path, other = fd.new_path, fd.old_path
    else:
        path, other = fd.old_path, fd.new_path
    result: dict[str, FileState | None] = {path: _edited(fd, fd.old, fd.new, chosen, selected)}
    if other != path:
        result[other] = None
    return result


def _edited(fd: FileDiff, old: FileState, new: FileState, chosen: dict[ChangeKind, Change],
            selected: AbstractSet[int]) -> FileState:
    """GOOD's entry with the selected TYPE, CONTENT, HUNK and MODE changes applied."""
    if ChangeKind.TYPE in chosen:
        return new
    if ChangeKind.CONTENT in chosen:
        data = new.data
    elif ChangeKind.HUNK in chosen:
        hunks = [c.hunk for c in fd.changes if c.hunk is not None and c.id in selected]
        data = apply_hunks(old.data, new.data, hunks)
    else:
        data = old.data
    mode = new.mode if ChangeKind.MODE in chosen else old.mode
    if mode == old.mode and data is old.data:
        return old
    return FileState(mode, data)


def tree_states(diff: Diff, selected: AbstractSet[int]) -> dict[str, FileState | None]:
    """The state of every path the diff touches under the configuration ``selected``.

    Raises PathConflict when a present path is a proper directory prefix of
    another present path, or when two files put content at the same path.
    Untouched paths are GOOD's (and BAD's) and cannot conflict.
    """
    return _merged(file_states(fd, selected) for fd in diff.files)


def _merged(per_file: Iterable[dict[str, FileState | None]]) -> dict[str, FileState | None]:
    """The files' states as one tree (see :func:`tree_states`)."""
    states: dict[str, FileState | None] = {}
    for file_state in per_file:
        for path, state in file_state.items():
            if state is None:
                states.setdefault(path, None)
            elif states.get(path) is not None:
                raise PathConflict(path, path)
            else:
                states[path] = state
    present = {path for path, state in states.items() if state is not None}
    for path in present:
        slash = path.find("/")
        while slash != -1:
            if path[:slash] in present:
                raise PathConflict(path[:slash], path)
            slash = path.find("/", slash + 1)
    return states


class TreeBuilder:
    """The tree states of successive configurations of one diff, for one worktree.

    :meth:`states` returns only the paths whose state differs from the
    configuration of the previous call (every path the diff touches on the
    first call and after :meth:`reset`), so that applying its answer to a
    worktree that holds the previous configuration gives the new one. Only
    the files that hold a change whose selection flipped are recomputed: the
    cost grows with the symmetric difference of the two configurations and
    the size of those files, not with the diff. It raises PathConflict
    exactly when :func:`tree_states` would, and then keeps the previous
    configuration. Use one builder per worktree, and call :meth:`reset`
    whenever that worktree may no longer hold the last answer (a failed
    write, a checkout). A file whose changes are all selected is BAD's entry,
    not spliced (:func:`_states_of`): the diff must reproduce BAD.
    """

    def __init__(self, diff: Diff) -> None:
        self._diff = diff
        self._owners: dict[str, list[int]] = {}  # path -> the files that touch it
        for fd in diff.files:
            for path in {fd.old_path, fd.new_path}:
                if path is not None:
                    self._owners.setdefault(path, []).append(fd.index)
        self._selected: frozenset[int] | None = None  # None: the worktree is unknown
        self._by_file: dict[int, dict[str, FileState | None]] = {}
        self._merged: dict[str, FileState | None] = {}
        self._present: set[str] = set()
        self._dirs: dict[str, int] = {}  # directory -> present paths below it

    def reset(self) -> None:
        """Forget the previous configuration: the next call returns every path."""
        self._selected = None

    def states(self, selected: AbstractSet[int]) -> dict[str, FileState | None]:
        """The paths whose state changes from the previous configuration to ``selected``."""
        chosen = frozenset(selected)
        if self._selected is None:
            self._by_file = {fd.index: _states_of(fd, chosen) for fd in self._diff.files}
            full = _merged(self._by_file.values())
            self._merged, self._present, self._dirs = dict(full), set(), {}
            self._track({p for p, s in full.items() if s is not None}, set())
            self._selected = chosen
            return full
        files = {self._diff.changes[c].file for c in flipped(self._selected, chosen)}
        redone = {i: _states_of(self._diff.files[i], chosen) for i in files}
        changed: dict[str, FileState | None] = {}
        for path in {p for i in files for p in redone[i]}:
            state = self._merge(path, redone)
            if state != self._merged.get(path):
                changed[path] = state
        gone = {p for p, s in changed.items() if s is None and p in self._present}
        added = {p for p, s in changed.items() if s is not None and p not in self._present}
        self._track(added, gone)
        self._by_file.update(redone)
        self._merged.update(changed)
        self._selected = chosen
        return changed

    def _merge(self, path: str, redone: dict[int, dict[str, FileState | None]]
               ) -> FileState | None:
        """The state of ``path``: the one file that puts something there, else None."""
        found: FileState | None = None
        for i in self._owners[path]:
            state = (redone[i] if i in redone else self._by_file[i])[path]
            if state is not None:
                if found is not None:
                    raise PathConflict(path, path)
                found = state
        return found

    def _track(self, added: set[str], gone: set[str]) -> None:
        """Update the present paths; undo and raise PathConflict if a file meets a directory."""
        self._count(gone, -1)
        self._count(added, +1)
        for path in sorted(added):
            inner = self._below(path)
            prefix = next((d for d in _parents(path) if d in self._present), None)
            if prefix is not None or inner is not None:
                self._count(added, -1)
                self._count(gone, +1)
                raise PathConflict(prefix, path) if prefix else PathConflict(path, inner or "")

    def _count(self, paths: set[str], step: int) -> None:
        for path in paths:
            if step > 0:
                self._present.add(path)
            else:
                self._present.discard(path)
            for parent in _parents(path):
                self._dirs[parent] = self._dirs.get(parent, 0) + step

    def _below(self, path: str) -> str | None:
        """A present path inside directory ``path``, if any."""
        if not self._dirs.get(path):
            return None
        return min(p for p in self._present if p.startswith(path + "/"))


def _states_of(fd: FileDiff, selected: AbstractSet[int]) -> dict[str, FileState | None]:
    """:func:`file_states`, where a file whose every change is selected is BAD's entry
    itself, unspliced: the same value for a diff that reproduces BAD, which the
    analysis checks (:func:`check_reproduces`, by splicing) of every diff it
    reads, ending the run when it does not. The premise's BAD, and each file
    whose changes a configuration holds whole, then cost no splice."""
    if (fd.old is None or fd.new is None or fd.old_path is None or fd.new_path is None
            or not fd.changes or not all(c.id in selected for c in fd.changes)):
        return file_states(fd, selected)
    if fd.old_path == fd.new_path:
        return {fd.new_path: fd.new}
    return {fd.new_path: fd.new, fd.old_path: None}


def _parents(path: str) -> list[str]:
    """``a/b/c`` -> ["a", "a/b"]."""
    return [path[:i] for i, char in enumerate(path) if char == "/"]


def side_states(diff: Diff, *, bad: bool) -> dict[str, FileState | None]:
    """Every path the diff touches, as it is in BAD (``bad=True``) or in GOOD."""
    states: dict[str, FileState | None] = {}
    for fd in diff.files:
        for path in (fd.old_path, fd.new_path):
            if path is not None:
                states.setdefault(path, None)
        path, state = (fd.new_path, fd.new) if bad else (fd.old_path, fd.old)
        if path is not None and state is not None:
            states[path] = state
    return states


def check_reproduces(diff: Diff) -> None:
    """Raise ReproductionError naming the first path where all changes do not give
    BAD or no changes do not give GOOD. Run it once per diff."""
    everything = frozenset(change.id for change in diff.changes)
    for name, selected, bad in (("BAD", everything, True), ("GOOD", frozenset(), False)):
        got = tree_states(diff, selected)
        for path, want in side_states(diff, bad=bad).items():
            if got.get(path) != want:
                raise ReproductionError(
                    f"applying {'all' if bad else 'no'} changes to GOOD does not give {name} "
                    f"at {path!r}: expected {_describe(want)}, got {_describe(got.get(path))}",
                    path,
                )


def _describe(state: FileState | None) -> str:
    if state is None:
        return "no entry"
    return f"mode {state.mode:o} with {len(state.data)} bytes"
