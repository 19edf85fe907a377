"""What ``git checkout`` writes for a configuration's files: git converts, not wynot.

A blob's bytes are not always a file's bytes: ``.gitattributes`` may ask for
end-of-line conversion (``text eol=crlf``), keyword expansion (``ident``),
an encoding (``working-tree-encoding``) or a smudge filter (``filter=lfs``).
:class:`Converter` keeps a temporary index that holds the configuration (its
new blobs go to a temporary object directory that borrows the repository's
objects as an alternate) and lets ``git checkout-index`` write the files that
change into a temporary directory, with the attributes the configuration
itself holds: git runs with an empty work tree of its own, so it reads every
``.gitattributes`` from the temporary index. The user's repository is only read.

git runs with the user's end-of-line configuration, as the user's own
checkout does (``core.autocrlf``, ``core.eol``, the filters the
configuration defines). When no ``.gitattributes`` changes and
``core.autocrlf`` is not ``true``, only the paths of the diff that have a
conversion attribute (from any attributes file) go through git; the others
(all of them, in most repositories) are written from their blob bytes, with
no git process. With ``core.autocrlf=true`` any text file may convert, so
every path goes through git.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path

from wynot.changes import FileState
from wynot.errors import GitError
from wynot.export import _quote_alternate
from wynot.git import autocrlf, git

SYMLINK_MODE = 0o120000
GITLINK_MODE = 0o160000
_TYPE_MASK = 0o170000
ATTRIBUTES_FILE = ".gitattributes"
# The attributes that make a checked-out file differ from its blob.
CONVERSION_ATTRIBUTES = ("text", "eol", "crlf", "filter", "ident", "working-tree-encoding")


class CheckoutFailed(Exception):
    """git could not check out a file of the configuration (a failing smudge filter)."""


def is_regular(state: FileState) -> bool:
    return state.mode & _TYPE_MASK not in (SYMLINK_MODE, GITLINK_MODE)


class Converter:
    """Checkout bytes for the regular files of successive configurations of one worktree."""

    def __init__(self, worktree: Path, scratch: Path, objects: Path, good: str,
                 paths: Iterable[str]) -> None:
        """``worktree`` is a checkout of ``good``; ``scratch`` an empty directory of ours;
        ``objects`` the repository's object directory; ``paths`` every path the
        configurations may change."""
        self._scratch = scratch
        self._worktree = worktree
        self._objects = objects
        # The paths git must convert; None: any may (a .gitattributes changes).
        self._converted = _converted_paths(worktree, list(paths))
        self.active = self._converted is None or bool(self._converted)
        self._started = False
        if self.active:
            self._start(good)

    def restart(self, commit: str) -> None:
        """The worktree now holds a checkout of ``commit``: convert from there on,
        every path through git (the attributes may differ from the first commit's)."""
        self._converted = None
        self.active = True
        self._start(commit)

    def _start(self, commit: str) -> None:
        if not self._started:
            (self._scratch / "objects").mkdir(parents=True)
            # git reads .gitattributes from the work tree before the index: an
            # empty work tree of our own makes it read the configuration's own,
            # from the temporary index, wherever it is in the scratch worktree.
            self._cwd = self._scratch / "attributes-from-index"
            self._cwd.mkdir()
            git_dir = git(self._worktree, "rev-parse", "--absolute-git-dir").decode().rstrip("\n")
            self._env = {
                "GIT_DIR": git_dir,
                "GIT_WORK_TREE": str(self._cwd),
                "GIT_INDEX_FILE": str(self._scratch / "index"),
                "GIT_OBJECT_DIRECTORY": str(self._scratch / "objects"),
                "GIT_ALTERNATE_OBJECT_DIRECTORIES": _quote_alternate(self._objects),
            }
            self._blobs = 0
            self._started = True
        self._null_id = b"0" * len(commit)
        git(self._cwd, "read-tree", commit, env=self._env)

    def convert(self, todo: Mapping[str, FileState | None]) -> dict[str, FileState]:
        """The states to write, as checkout bytes, for ``todo`` (path -> state, None = absent).

        Returns a state (checkout bytes, mode) for every regular file in
        ``todo`` and for every other path whose conversion attributes the
        configuration changes (a new ``.gitattributes``); other paths of
        ``todo`` are not in the result. Raises CheckoutFailed.
        """
        regular = {p: s for p, s in todo.items() if s is not None and is_regular(s)}
        if self._converted is not None:  # the attributes never change: convert only these
            todo = {p: s for p, s in todo.items() if p in self._converted}
        if not self.active or not todo:
            return regular
        attributes_change = any(_is_attributes(p) for p in todo)
        before = self._attributes() if attributes_change else {}
        self._update_index(todo)
        extra: dict[str, int] = {}
        if attributes_change:
            after = self._attributes()
            modes = self._regular_modes()
            extra = {p: modes[p] for p, attrs in after.items()
                     if attrs != before.get(p) and p in modes and p not in todo}
        converted = {p: s for p, s in regular.items() if p in todo}
        data = self._checkout(sorted([*converted, *extra]))
        result = {**regular, **{p: FileState(s.mode, data[p]) for p, s in converted.items()}}
        result.update({p: FileState(mode, data[p]) for p, mode in extra.items()})
        return result

    def _update_index(self, todo: Mapping[str, FileState | None]) -> None:
        blobs = self._write_blobs([s.data for s in todo.values()
                                   if s is not None and s.mode & _TYPE_MASK != GITLINK_MODE])
        records = []
        for path, state in sorted(todo.items(), key=lambda item: item[1] is not None):
            name = os.fsencode(path)
            if state is None:
                records.append(b"0 %s\t%s\0" % (self._null_id, name))
                continue
            object_id = (state.data if state.mode & _TYPE_MASK == GITLINK_MODE
                         else blobs[state.data])
            records.append(b"%o %s\t%s\0" % (state.mode, object_id, name))
        git(self._cwd, "update-index", "-z", "--index-info", input=b"".join(records),
            env=self._env)

    def _write_blobs(self, datas: list[bytes]) -> dict[bytes, bytes]:
        """Store each distinct blob in the temporary object directory; data -> blob id."""
        unique = list(dict.fromkeys(datas))
        if not unique:
            return {}
        folder = self._scratch / "blobs"
        folder.mkdir(exist_ok=True)
        names = []
        for data in unique:
            self._blobs += 1
            name = folder / str(self._blobs)
            name.write_bytes(data)
            names.append(f"{name}\n")
        try:
            output = git(self._cwd, "hash-object", "-w", "--no-filters", "--stdin-paths",
                         input="".join(names).encode(), env=self._env)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        return dict(zip(unique, output.split(), strict=True))

    def _checkout(self, paths: list[str]) -> dict[str, bytes]:
        """Let git check ``paths`` out of the temporary index into a temporary dir."""
        if not paths:
            return {}
        out = self._scratch / "out"
        shutil.rmtree(out, ignore_errors=True)
        try:
            git(self._cwd, "checkout-index", "-f", "-z", "--stdin", f"--prefix={out}/",
                input=b"".join(os.fsencode(p) + b"\0" for p in paths), env=self._env,
                checkout=True)
            return {p: (out / p).read_bytes() for p in paths}
        except (GitError, OSError) as error:
            raise CheckoutFailed(f"git cannot check out this configuration: {error}") from error
        finally:
            shutil.rmtree(out, ignore_errors=True)

    def _regular_modes(self) -> dict[str, int]:
        listed = git(self._cwd, "ls-files", "-s", "-z", env=self._env)
        modes = {}
        for entry in listed.split(b"\0"):
            if entry:
                info, _, name = entry.partition(b"\t")
                mode = int(info.split()[0], 8)
                if mode & _TYPE_MASK not in (SYMLINK_MODE, GITLINK_MODE):
                    modes[os.fsdecode(name)] = mode
        return modes

    def _attributes(self) -> dict[str, tuple[bytes, ...]]:
        """The conversion attributes of every path of the temporary index, from the index."""
        names = git(self._cwd, "ls-files", "-z", env=self._env)
        return _check_attr(self._cwd, names, cached=True, env=self._env)


def _is_attributes(path: str) -> bool:
    return path.rsplit("/", 1)[-1] == ATTRIBUTES_FILE


def _converted_paths(worktree: Path, paths: list[str]) -> set[str] | None:
    """The paths whose checkout bytes can differ from their blob bytes, or None
    when any can (the diff changes a ``.gitattributes``)."""
    if any(_is_attributes(p) for p in paths):
        return None
    if not paths:
        return set()
    if autocrlf(worktree) == "true":  # any text file may be written with CRLF
        return set(paths)
    names = b"".join(os.fsencode(p) + b"\0" for p in paths)
    found = _check_attr(worktree, names, cached=False, env={})
    unset = (b"unspecified",) * len(CONVERSION_ATTRIBUTES)
    return {path for path, values in found.items() if values != unset}


def _check_attr(worktree: Path, names: bytes, *, cached: bool,
                env: Mapping[str, str]) -> dict[str, tuple[bytes, ...]]:
    """path -> the values of CONVERSION_ATTRIBUTES (``git check-attr -z``)."""
    if not names:
        return {}
    flags = ("--cached",) if cached else ()
    output = git(worktree, "check-attr", *flags, "-z", "--stdin", *CONVERSION_ATTRIBUTES,
                 input=names, env=env)
    fields = output.split(b"\0")
    values: dict[str, list[bytes]] = {}
    for index in range(0, len(fields) - 2, 3):
        values.setdefault(os.fsdecode(fields[index]), []).append(fields[index + 2])
    return {path: tuple(found) for path, found in values.items()}
