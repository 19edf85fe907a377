"""The diff between GOOD and BAD as a list of changes (the model; pure).

A :class:`Diff` holds one :class:`FileDiff` per path pair git reports, with the
exact GOOD and BAD content (bytes, never decoded) and the changes it splits
into: one per hunk of a text file, one per whole-file change.
:func:`wynot.diffread.read_diff` builds it from git.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass

from wynot.lineage import apart

REGULAR, EXECUTABLE, SYMLINK, GITLINK = 0o100644, 0o100755, 0o120000, 0o160000


class ChangeKind(enum.Enum):
    """What one change does; see the module docstring of :mod:`wynot.patch`."""

    HUNK = "hunk"  # one hunk of a text file modified in place (or inside a renamed file)
    ADD = "add"  # whole file, symlink or gitlink added
    DELETE = "delete"  # whole file deleted
    CONTENT = "content"  # whole content: binary file, symlink target, gitlink commit
    MODE = "mode"  # executable bit (100644 <-> 100755)
    TYPE = "type"  # regular file <-> symlink <-> gitlink at the same path
    RENAME = "rename"  # the path move of a renamed file; its edits are separate changes


@dataclass(frozen=True, slots=True)
class FileState:
    """One tree entry: git mode and data (link target for symlinks, ascii sha for gitlinks)."""

    mode: int
    data: bytes


@dataclass(frozen=True, slots=True)
class Hunk:
    """One hunk exactly as git numbered it: ``@@ -old_start,old_len +new_start,new_len @@``.

    When a length is 0 its start is the line *before* the empty range.
    ``text`` (header line included, surrogateescape-decoded) is for display only.
    """

    old_start: int
    old_len: int
    new_start: int
    new_len: int
    header: str
    text: str


@dataclass(frozen=True, slots=True)
class Change:
    """One element of the search. ``id`` is its position in :attr:`Diff.changes`.

    ``detail`` completes the label: the old path of a RENAME, "100644 -> 100755"
    for MODE, "symlink -> file" for TYPE, "binary" / "symlink" / "submodule" for CONTENT.
    """

    id: int
    file: int
    kind: ChangeKind
    path: str
    hunk: Hunk | None = None
    detail: str = ""

    @property
    def label(self) -> str:
        """A stable human-readable id, e.g. ``src/a.py:-12,7`` (GOOD lines 12..18)."""
        if self.hunk is not None:
            return f"{self.path}:-{self.hunk.old_start},{self.hunk.old_len}"
        if self.kind is ChangeKind.RENAME:
            return f"{self.detail} -> {self.path} (rename)"
        words = " ".join(w for w in (self.kind.value, self.detail) if w)
        return f"{self.path} ({words})"


@dataclass(frozen=True, slots=True)
class FileDiff:
    """One path pair of the diff. Paths and states are None on the side where it is absent."""

    index: int
    old_path: str | None
    new_path: str | None
    old: FileState | None
    new: FileState | None
    changes: tuple[Change, ...]


@dataclass(frozen=True, slots=True)
class Diff:
    """GOOD..BAD: files in git's order; ``changes[i].id == i``."""

    good: str
    bad: str
    files: tuple[FileDiff, ...]
    changes: tuple[Change, ...]


@functools.lru_cache(maxsize=4)
def flipped(before: frozenset[int], after: frozenset[int]) -> frozenset[int]:
    """The change ids in exactly one of two configurations (their symmetric difference).

    On every test the run log, the dependencies' closure check and the tree
    builder each ask it of the same two configurations (the test before and
    this one): the last few pairs are remembered, so that it is computed once.
    Two configurations dd+ made from a common one (:mod:`wynot.lineage`) cost
    what each added to it; others, their sizes.
    """
    near = apart(before, after)
    return before ^ after if near is None else near
