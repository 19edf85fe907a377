"""A configuration as a patch that ``git apply`` accepts on GOOD.

The user's repository is only read: the configuration's tree is built in a
temporary index, its new blobs go to a temporary object directory that borrows
the repository's objects as an alternate, and git diffs that tree against GOOD.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from wynot.changes import GITLINK, FileState
from wynot.git import git
from wynot.state import owned_tempdir

_TYPE_MASK = 0o170000


def export_patch(repo: Path, good: str, states: Mapping[str, FileState | None]) -> bytes:
    """A binary-safe git patch (renames detected, full blob ids) from GOOD to GOOD
    with ``states`` applied (path -> state, None = absent; as :func:`tree_states`
    returns). Returns git's bytes unchanged, final newline included; b"" when the
    states equal GOOD's. Writes nothing to ``repo``: refs, index, HEAD, worktree
    and object store stay as they were.
    """
    if not states:
        return b""
    paths = os.fsdecode(git(repo, "rev-parse", "--git-path", "objects", f"{good}^{{commit}}"))
    objects, good_sha = paths.splitlines()
    with owned_tempdir("export") as tmp:
        scratch = Path(tmp)
        (scratch / "objects").mkdir()
        env = {
            "GIT_INDEX_FILE": str(scratch / "index"),
            "GIT_OBJECT_DIRECTORY": str(scratch / "objects"),
            "GIT_ALTERNATE_OBJECT_DIRECTORIES": _quote_alternate(repo / objects),
        }
        git(repo, "read-tree", good_sha, env=env)
        blob_ids = _write_blobs(repo, scratch, states, env)
        null_id = "0" * len(good_sha)
        records = [
            _index_record(path, state, blob_ids, null_id)
            for path, state in sorted(states.items(), key=lambda item: item[1] is not None)
        ]
        git(repo, "update-index", "-z", "--index-info", input=b"".join(records), env=env)
        return git(
            repo, "diff-index", "--cached", "-p", "--binary", "-M", "--full-index",
            "--no-color", "--no-ext-diff", "--no-textconv", "--src-prefix=a/",
            "--dst-prefix=b/", "--submodule=short", "--ignore-submodules=none",
            good_sha, "--", env=env,
        )


def _quote_alternate(path: Path) -> str:
    """An absolute path for GIT_ALTERNATE_OBJECT_DIRECTORIES (C-quoted if it holds ':')."""
    text = os.path.abspath(path)
    if ":" in text or text.startswith('"'):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


def _write_blobs(repo: Path, scratch: Path, states: Mapping[str, FileState | None],
                 env: Mapping[str, str]) -> dict[bytes, str]:
    """Store each distinct blob of ``states`` with one ``git hash-object``; data -> blob id."""
    datas = list(dict.fromkeys(
        state.data for state in states.values()
        if state is not None and state.mode & _TYPE_MASK != GITLINK
    ))
    if not datas:
        return {}
    files = scratch / "blobs"
    files.mkdir()
    names = []
    for number, data in enumerate(datas):
        name = files / str(number)
        name.write_bytes(data)
        names.append(f"{name}\n")
    output = git(repo, "hash-object", "-w", "--no-filters", "--stdin-paths",
                 input="".join(names).encode(), env=env)
    return dict(zip(datas, output.decode().split(), strict=True))


def _index_record(path: str, state: FileState | None, blob_ids: Mapping[bytes, str],
                  null_id: str) -> bytes:
    """One ``update-index -z --index-info`` record: set the entry, or remove it (mode 0)."""
    if state is None:
        return b"0 %s\t%s\0" % (null_id.encode(), os.fsencode(path))
    if state.mode & _TYPE_MASK == GITLINK:
        object_id = state.data.decode("ascii")
    else:
        object_id = blob_ids[state.data]
    return b"%o %s\t%s\0" % (state.mode, object_id.encode(), os.fsencode(path))
