"""Read GOOD..BAD from git into a :class:`~wynot.changes.Diff`.

:func:`read_diff` builds it from git's raw diff (paths, modes, blob ids), the
blobs themselves and git's patch text, read for its hunks' ranges and section
headers.
"""

from __future__ import annotations

import concurrent.futures
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from wynot.changes import (
    GITLINK,
    SYMLINK,
    Change,
    ChangeKind,
    Diff,
    FileDiff,
    FileState,
    Hunk,
)
from wynot.errors import GitError
from wynot.git import git, resolve_commit

_TYPE_MASK = 0o170000
_BINARY_PROBE = 8000  # git looks for a NUL byte in this many leading bytes
_TYPE_NAMES = {0o100000: "file", SYMLINK: "symlink", GITLINK: "submodule"}


@dataclass(frozen=True, slots=True)
class _Entry:
    """One record of ``git diff-tree --raw -z``; paths are git's bytes."""

    status: str
    old_mode: int
    new_mode: int
    old_sha: str
    new_sha: str
    old_path: bytes
    new_path: bytes


@dataclass(frozen=True, slots=True)
class _Part:
    """The hunks of one file's patch and the path pair its ---/+++ lines name."""

    names: tuple[bytes | None, bytes | None] | None
    hunks: tuple[Hunk, ...]


def read_diff(repo: Path, good: str, bad: str, *, context: int = 3) -> Diff:
    """Diff commits ``good`` and ``bad`` of ``repo`` into changes (renames detected).

    Hunks have ``context`` lines of context. Identical trees give a Diff without
    changes. Raises GitError for unknown revisions or output wynot cannot match.
    """
    if context < 0:
        raise ValueError(f"context must be >= 0, not {context}")
    good_sha, bad_sha = resolve_commit(repo, good), resolve_commit(repo, bad)
    tree_diff = ("diff-tree", "-r", "-z", "--no-abbrev", "-M")
    # The blobs are read while git writes the patch (two processes, not one
    # after the other): the raw part alone costs git little.
    listed, _ = _parse_raw(git(repo, *tree_diff, "--raw", good_sha, bad_sha))
    with concurrent.futures.ThreadPoolExecutor(1) as reader:
        reading = reader.submit(_read_blobs, repo, listed)
        output = git(
            repo, *tree_diff, "--patch-with-raw", f"-U{context}", "--no-color",
            "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/",
            "--submodule=short", "--ignore-submodules=none", good_sha, bad_sha,
        )
        entries, patch = _parse_raw(output)
        chunks = _split_patch(patch)
        blobs = reading.result()
    if entries != listed:  # the same command twice: the same entries
        raise GitError("git listed different files for the same diff twice")
    files: list[FileDiff] = []
    changes: list[Change] = []
    cursor = 0
    for entry in entries:
        used = 2 if _splits_in_patch(entry) else 1
        if cursor + used > len(chunks):
            raise GitError(f"git's patch ends before {os.fsdecode(entry.new_path)}")
        fd = _file_diff(entry, chunks[cursor], blobs, len(files), len(changes))
        cursor += used
        files.append(fd)
        changes.extend(fd.changes)
    if cursor != len(chunks):
        raise GitError(f"git printed {len(chunks)} file patches for {len(entries)} entries")
    return Diff(good_sha, bad_sha, tuple(files), tuple(changes))


def _parse_raw(output: bytes) -> tuple[list[_Entry], bytes]:
    """Split ``--patch-with-raw -z`` output into raw entries and the patch text."""
    entries: list[_Entry] = []
    pos = 0
    while pos < len(output) and output[pos : pos + 1] == b":":
        meta_end = output.index(b"\0", pos)
        old_mode, new_mode, old_sha, new_sha, status = output[pos + 1 : meta_end].split()
        path_end = output.index(b"\0", meta_end + 1)
        old_path = new_path = output[meta_end + 1 : path_end]
        pos = path_end + 1
        if status[:1] in (b"R", b"C"):
            path_end = output.index(b"\0", pos)
            new_path = output[pos:path_end]
            pos = path_end + 1
        entries.append(_Entry(status[:1].decode(), int(old_mode, 8), int(new_mode, 8),
                              old_sha.decode(), new_sha.decode(), old_path, new_path))
    if output[pos : pos + 1] == b"\0":
        pos += 1  # the separator between the raw part and the patch
    return entries, output[pos:]


_PATCH_HEADER = b"diff --git "
_BINARY_PATCH = (b"Binary files ", b"GIT binary patch")  # a line that starts so


def _split_patch(patch: bytes) -> list[bytes]:
    """One chunk per ``diff --git`` header (body lines never start with "d"): each
    starts at a line that begins with it (found by ``bytes.find``, not a regex)."""
    starts = [0] if patch.startswith(_PATCH_HEADER) else []
    at = patch.find(b"\n" + _PATCH_HEADER)
    while at != -1:
        starts.append(at + 1)
        at = patch.find(b"\n" + _PATCH_HEADER, at + 1)
    ends = [*starts[1:], len(patch)] if starts else []
    return [patch[a:b] for a, b in zip(starts, ends, strict=True)]


# A line of a hunk's body that is neither context, removed, added nor a note.
_OTHER_LINE = re.compile(rb"\n[^ \-+\\\n\r]")
_HUNK_HEADER = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)")


def _parse_part(chunk: bytes) -> _Part:
    """Read one file's text patch: ---/+++ names and hunks (ranges and section headers).

    Each hunk's body must hold the lines its header counts (``-``, ``+``, context;
    ``\\`` notes aside), else the patch is not git's: GitError. The lines are
    those of ``chunk.splitlines(keepends=True)`` cut at ``\\n`` only; they are
    found by ``bytes.find``, not split one by one.
    """
    start = _line_starting(chunk, b"--- ", 0)
    if start < 0:
        return _Part(None, ())
    names_end = _next_line(chunk, start)
    first = chunk[start:names_end].decode("utf-8", "surrogateescape")
    if names_end == len(chunk) or not chunk.startswith(b"+++ ", names_end):
        raise GitError("cannot parse git's patch: no +++ line", details=first)
    body = _next_line(chunk, names_end)  # the line after +++, the first hunk's header
    heads = list(_lines_starting(chunk, b"@@ ", body))
    if heads[:1] != [body] and (heads or body < len(chunk)):
        raise GitError("cannot parse git's patch: no hunk after the names", details=first)
    hunks = tuple(_hunk(chunk[a:b], first)
                  for a, b in zip(heads, [*heads[1:], len(chunk)], strict=True))
    return _Part((_name_of(chunk[start:names_end]), _name_of(chunk[names_end:body])), hunks)


def _next_line(chunk: bytes, at: int) -> int:
    """Where the line after the one at ``at`` starts (``len(chunk)`` if none)."""
    end = chunk.find(b"\n", at)
    return len(chunk) if end < 0 else end + 1


def _line_starting(chunk: bytes, prefix: bytes, at: int) -> int:
    """Where the first line at or after the line start ``at`` that begins with
    ``prefix`` starts; -1 if none does."""
    if chunk.startswith(prefix, at):
        return at
    found = chunk.find(b"\n" + prefix, at)
    return found + 1 if found >= 0 else -1


def _lines_starting(chunk: bytes, prefix: bytes, at: int) -> Iterator[int]:
    """Where each line at or after the line start ``at`` that begins with ``prefix``
    starts, in order."""
    at = _line_starting(chunk, prefix, at) if at < len(chunk) else -1
    while at >= 0:
        yield at
        found = chunk.find(b"\n" + prefix, at)
        at = found + 1 if found >= 0 else -1


def _name_of(line: bytes) -> bytes | None:
    """The path a ``---`` or ``+++`` line names (up to a tab or the line's end)."""
    return _patch_name(line[4:].decode("utf-8", "surrogateescape").split("\t", 1)[0]
                       .split("\n", 1)[0])


def _hunk(raw: bytes, first: str) -> Hunk:
    """The hunk whose header line starts ``raw`` and whose body is the rest of it."""
    text = raw.decode("utf-8", "surrogateescape")
    header_end = raw.find(b"\n")
    header_line = raw[:header_end + 1] if header_end >= 0 else raw
    header = _HUNK_HEADER.match(text)
    if header is None:
        raise GitError(f"cannot parse git's hunk header {header_line!r}", details=first)
    old_start, old_len, new_start, new_len = (
        int(n) if n is not None else 1 for n in header.group(1, 2, 3, 4))
    # The body's lines by their first byte, counted in its bytes (a line starts
    # after the line break that ends the one before, the header's first).
    body = header_end if header_end >= 0 else len(raw) - 1
    removed, added = raw.count(b"\n-", body), raw.count(b"\n+", body)
    notes = raw.count(b"\n\\", body)  # \ No newline at end of file
    lines = raw.count(b"\n") + (not raw.endswith(b"\n"))  # the header's included
    context = lines - 1 - removed - added - notes  # ' ', or an empty line
    if _OTHER_LINE.search(raw, body) or (removed + context, added + context) != (old_len,
                                                                                new_len):
        raise GitError(f"cannot parse git's patch: a hunk does not hold the lines its "
                       f"header {header_line!r} counts", details=first)
    return Hunk(old_start, old_len, new_start, new_len, header.group(5), text)


_ESCAPES = {ord(k): ord(v) for k, v in zip('abtnvfr"\\', '\a\b\t\n\v\f\r"\\', strict=True)}


def _patch_name(name: str) -> bytes | None:
    """Git's ---/+++ name as path bytes: C-unquoted, a/ or b/ removed, None for /dev/null."""
    raw = name.encode("utf-8", "surrogateescape")
    if raw == b"/dev/null":
        return None
    if len(raw) >= 2 and raw.startswith(b'"') and raw.endswith(b'"'):
        raw = _unquote_c(raw[1:-1])
    return raw[2:]


def _unquote_c(quoted: bytes) -> bytes:
    """Undo git's C-style quoting (``\\t``, ``\\"``, ``\\ooo`` octal bytes, ...)."""
    out = bytearray()
    i = 0
    while i < len(quoted):
        if quoted[i] != 0x5C:
            out.append(quoted[i])
            i += 1
        elif quoted[i + 1 : i + 2].isdigit():
            out.append(int(quoted[i + 1 : i + 4], 8))
            i += 4
        else:
            out.append(_ESCAPES.get(quoted[i + 1], quoted[i + 1]))
            i += 2
    return bytes(out)


def _splits_in_patch(entry: _Entry) -> bool:
    """Git prints a type change as a deletion and a creation: two patches, one entry."""
    old_type, new_type = entry.old_mode & _TYPE_MASK, entry.new_mode & _TYPE_MASK
    return bool(old_type and new_type and old_type != new_type)


def _read_blobs(repo: Path, entries: list[_Entry]) -> dict[str, bytes]:
    """The content of every blob the entries name, read by one ``git cat-file --batch``."""
    wanted = sorted({
        sha
        for e in entries
        for sha, mode in ((e.old_sha, e.old_mode), (e.new_sha, e.new_mode))
        if mode and mode & _TYPE_MASK != GITLINK
    })
    return read_blobs(repo, wanted)


def read_blobs(repo: Path, wanted: list[str]) -> dict[str, bytes]:
    """The content of each blob in ``wanted`` (shas), read by one ``git cat-file --batch``."""
    if not wanted:
        return {}
    output = git(repo, "cat-file", "--batch", input="".join(s + "\n" for s in wanted).encode())
    blobs: dict[str, bytes] = {}
    pos = 0
    for sha in wanted:
        header_end = output.index(b"\n", pos)
        fields = output[pos:header_end].split()
        if len(fields) != 3 or fields[1] != b"blob":
            raise GitError(f"cannot read blob {sha}: {os.fsdecode(output[pos:header_end])}")
        size = int(fields[2])
        blobs[sha] = output[header_end + 1 : header_end + 1 + size]
        pos = header_end + 1 + size + 1
    return blobs


def _state(mode: int, sha: str, blobs: dict[str, bytes]) -> FileState | None:
    if not mode:
        return None
    if mode & _TYPE_MASK == GITLINK:
        return FileState(mode, sha.encode("ascii"))
    return FileState(mode, blobs[sha])


def _file_diff(entry: _Entry, chunk: bytes, blobs: dict[str, bytes], index: int,
               first_id: int) -> FileDiff:
    """Build the FileDiff of one raw entry; its changes get ids from ``first_id`` on."""
    if entry.status not in ("A", "D", "M", "T", "R", "C"):
        raise GitError(f"unexpected diff status {entry.status!r} for {entry.new_path!r}")
    old = _state(entry.old_mode, entry.old_sha, blobs)
    new = _state(entry.new_mode, entry.new_sha, blobs)
    if entry.status == "C":  # copies are not asked for; the copy is an added file
        old = None
    old_path = os.fsdecode(entry.old_path) if old else None
    new_path = os.fsdecode(entry.new_path) if new else None
    kinds = _change_kinds(entry, old, new, chunk)
    changes = tuple(
        Change(first_id + n, index, kind, new_path or old_path or "", hunk, detail)
        for n, (kind, hunk, detail) in enumerate(kinds)
    )
    return FileDiff(index, old_path, new_path, old, new, changes)


_Kinds = list[tuple[ChangeKind, Hunk | None, str]]


def _change_kinds(entry: _Entry, old: FileState | None, new: FileState | None,
                  chunk: bytes) -> _Kinds:
    """The changes one entry splits into, in order: rename, type or mode, content."""
    if old is None:
        return [(ChangeKind.ADD, None, "")]
    if new is None:
        return [(ChangeKind.DELETE, None, "")]
    kinds: _Kinds = []
    if entry.old_path != entry.new_path:
        kinds.append((ChangeKind.RENAME, None, os.fsdecode(entry.old_path)))
    old_type, new_type = old.mode & _TYPE_MASK, new.mode & _TYPE_MASK
    if old_type != new_type:
        detail = f"{_TYPE_NAMES[old_type]} -> {_TYPE_NAMES[new_type]}"
        return [*kinds, (ChangeKind.TYPE, None, detail)]
    if old.mode != new.mode:
        kinds.append((ChangeKind.MODE, None, f"{old.mode:o} -> {new.mode:o}"))
    if old.data == new.data:
        return kinds
    if new_type != 0o100000:
        return [*kinds, (ChangeKind.CONTENT, None, _TYPE_NAMES[new_type])]
    if _is_binary(old.data) or _is_binary(new.data) or _binary_patch(chunk):
        return [*kinds, (ChangeKind.CONTENT, None, "binary")]
    part = _parse_part(chunk)
    if part.names != (entry.old_path, entry.new_path) or not part.hunks:
        raise GitError(f"git's patch does not match {os.fsdecode(entry.new_path)}",
                       details=repr(part.names))
    return kinds + [(ChangeKind.HUNK, hunk, "") for hunk in part.hunks]


def _binary_patch(chunk: bytes) -> bool:
    """Whether a line of a file's patch says it is binary (found by ``bytes.find``:
    a search for the start of every line cost more than the rest of the patch's
    reading)."""
    return any(_line_starting(chunk, mark, 0) >= 0 for mark in _BINARY_PATCH)


def _is_binary(data: bytes) -> bool:
    """Git's test: a NUL byte among the first 8000 bytes."""
    return b"\0" in data[:_BINARY_PROBE]
