"""Shared fixtures: real git repositories built in ``tmp_path``, never mocks.

``make_repo(name)`` returns a :class:`GitRepo`; ``repo.commit({path: content})``
makes a commit whose tree is exactly that dict and returns its sha. Content is
``bytes`` (a regular file), :class:`Executable`, :class:`Symlink` or
:class:`Gitlink`. Author, committer and dates are pinned, and the user's global
and system git configuration are ignored (``HOME`` points into ``tmp_path``, so
git commands wynot itself runs see no user configuration either).
"""

from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from scripts import make_repo as samples

from wynot.git import git

REGULAR, EXECUTABLE, SYMLINK, GITLINK = 0o100644, 0o100755, 0o120000, 0o160000

# A suite started in the background by a non-interactive shell (`./.ci/run &`)
# has SIGINT ignored, and every process it starts inherits that: the tests that
# interrupt wynot as Ctrl-C does would then wait for a run that cannot hear it.
# A handler instead of SIG_IGN makes the processes the tests start begin with
# SIGINT at its default, as in a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@dataclass(frozen=True, slots=True)
class Executable:
    """A regular file with the executable bit (mode 100755)."""

    data: bytes


@dataclass(frozen=True, slots=True)
class Symlink:
    """A symbolic link; ``target`` is a str (surrogateescape allowed) or bytes."""

    target: str | bytes


@dataclass(frozen=True, slots=True)
class Gitlink:
    """A submodule entry (mode 160000) pointing at commit ``sha``."""

    sha: str


Content = bytes | Executable | Symlink | Gitlink


def entry_of(content: Content) -> tuple[int, bytes]:
    """(git mode, object data) for one piece of content; gitlink data is the sha."""
    if isinstance(content, bytes):
        return REGULAR, content
    if isinstance(content, Executable):
        return EXECUTABLE, content.data
    if isinstance(content, Symlink):
        target = content.target
        return SYMLINK, target if isinstance(target, bytes) else os.fsencode(target)
    return GITLINK, content.sha.encode("ascii")


class GitRepo:
    """A real repository with a worktree; every git call runs with pinned identity."""

    def __init__(self, path: Path, env: Mapping[str, str]) -> None:
        self.path = path
        self.env = dict(env)
        self._commits = 0

    def git(self, *args: str, input: bytes | None = None) -> bytes:
        """Run git in this repository and return stdout (GitError on failure)."""
        return git(self.path, *args, input=input, env=self.env)

    def text(self, *args: str) -> str:
        """Like :meth:`git`, decoded and stripped."""
        return os.fsdecode(self.git(*args)).strip()

    def commit(self, files: Mapping[str, Content], message: str = "") -> str:
        """Commit a tree holding exactly ``files`` on top of HEAD; return its sha.

        The branch, the index and the worktree follow the new commit.
        """
        self._commits += 1
        stamp = f"@{1_700_000_000 + 60 * self._commits} +0000"
        env = {**self.env, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
        tree = self._write_tree(files)
        head = git(self.path, "rev-parse", "--verify", "--quiet", "HEAD^{commit}",
                   env=self.env, check=False).decode().strip()
        args = ["commit-tree", tree, "-m", message or f"commit {self._commits}"]
        if head:
            args += ["-p", head]
        sha = git(self.path, *args, env=env).decode().strip()
        self.git("reset", "-q", "--hard", sha)
        return sha

    def _write_tree(self, files: Mapping[str, Content]) -> str:
        entries = {os.fsencode(path): entry_of(content) for path, content in files.items()}
        with tempfile.TemporaryDirectory() as tmp:
            blobs = [(p, m, d) for p, (m, d) in sorted(entries.items()) if m != GITLINK]
            names = []
            for number, (_, _, data) in enumerate(blobs):
                name = Path(tmp, str(number))
                name.write_bytes(data)
                names.append(str(name))
            shas = self.git("hash-object", "-w", "--no-filters", "--stdin-paths",
                            input="".join(n + "\n" for n in names).encode()).split()
            objects = {p: s for (p, _, _), s in zip(blobs, shas, strict=True)}
            info = b"".join(
                b"%o %s\t%s\0" % (mode, objects.get(path, data), path)
                for path, (mode, data) in sorted(entries.items())
            )
            env = {**self.env, "GIT_INDEX_FILE": str(Path(tmp, "index"))}
            git(self.path, "update-index", "-z", "--index-info", input=info, env=env)
            return git(self.path, "write-tree", env=env).decode().strip()

    def files(self, rev: str = "HEAD") -> dict[str, tuple[int, bytes]]:
        """Every entry of ``rev``'s tree: path -> (mode, data); gitlink data is the sha."""
        listing = self.git("ls-tree", "-r", "-z", "--full-tree", rev)
        entries = []
        for record in listing.split(b"\0"):
            if record:
                meta, path = record.split(b"\t", 1)
                mode, kind, sha = meta.split()
                entries.append((os.fsdecode(path), int(mode, 8), kind == b"commit", sha))
        shas = b"".join(sha + b"\n" for _, _, is_link, sha in entries if not is_link)
        output = self.git("cat-file", "--batch", input=shas) if shas else b""
        result: dict[str, tuple[int, bytes]] = {}
        pos = 0
        for path, mode, is_link, sha in entries:
            if is_link:
                result[path] = (mode, sha)
                continue
            header_end = output.index(b"\n", pos)
            size = int(output[pos:header_end].split()[2])
            result[path] = (mode, output[header_end + 1 : header_end + 1 + size])
            pos = header_end + 2 + size
        return result


PINNED_ENV = {
    "GIT_AUTHOR_NAME": "Ada Tester",
    "GIT_AUTHOR_EMAIL": "ada@example.com",
    "GIT_COMMITTER_NAME": "Ada Tester",
    "GIT_COMMITTER_EMAIL": "ada@example.com",
    "GIT_AUTHOR_DATE": "@1700000000 +0000",
    "GIT_COMMITTER_DATE": "@1700000000 +0000",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def init_repo(path: Path) -> GitRepo:
    """``git init`` an empty directory (branch main) with pinned identity and dates.

    For fixtures of wider scope than a test; prefer the ``make_repo`` fixture.
    """
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main", env=PINNED_ENV)
    return GitRepo(path, PINNED_ENV)


@pytest.fixture
def make_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., GitRepo]:
    """Factory: ``make_repo("name")`` initialises tmp_path/name and returns a GitRepo.

    HOME and XDG_CONFIG_HOME point into tmp_path for the test, so the git
    commands wynot runs do not see the user's global configuration either.
    """
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))

    def factory(name: str = "repo") -> GitRepo:
        return init_repo(tmp_path / name)

    return factory


@dataclass(frozen=True, slots=True)
class DiffRepo:
    """A repository with two commits whose diff holds every kind of change."""

    repo: GitRepo
    good: str
    bad: str


def _numbered(count: int, prefix: bytes = b"line") -> list[bytes]:
    return [b"%s %d\n" % (prefix, n) for n in range(1, count + 1)]


def every_change_trees() -> tuple[dict[str, Content], dict[str, Content]]:
    """GOOD and BAD trees covering every kind of change wynot distinguishes."""
    many = _numbered(120)
    many_bad = list(many)
    many_bad[4] = b"LINE 5 changed\n"  # replacement
    del many_bad[30:33]  # deletion only
    many_bad[60:60] = [b"inserted a\n", b"inserted b\n"]  # insertion only
    many_bad[-1] = b"last line without newline"
    long_text = b"".join(_numbered(40, b"row"))
    columns = b"".join(_numbered(40, b"col"))
    non_utf8_name = os.fsdecode(b"caf\xe9 latin1 name.txt")
    good: dict[str, Content] = {
        "keep.txt": b"never changes\n",
        "del.txt": b"deleted in BAD\n",
        "pure_old.txt": b"moved\nwithout edits\n",
        "ren_old.txt": long_text,
        "ren_mode_old.sh": columns,
        "bin.dat": b"\x00\x01\x02 binary \xff" * 10,
        "mode_only.sh": b"#!/bin/sh\necho same\n",
        "mode_edit.sh": b"#!/bin/sh\necho one\n",
        "mode_off.sh": Executable(b"#!/bin/sh\necho off\n"),
        "link_retarget": Symlink("target-one"),
        "link_to_file": Symlink("keep.txt"),
        "file_to_link": b"plain\n",
        "a": b"a is a file in GOOD\n",
        "d/x": b"d/x in GOOD\n",
        "d/y": b"d/y in GOOD\n",
        "nonl_both.txt": b"first\nsecond",
        "nonl_good.txt": b"first\nsecond",
        "nonl_bad.txt": b"first\nsecond\n",
        "crlf.txt": b"".join(line.replace(b"\n", b"\r\n") for line in _numbered(30)),
        "latin1.txt": "caf\xe9\nna\xefve\nd\xe9j\xe0 vu\n".encode("latin-1"),
        "dir with space/\xfcn\xefcode.txt": "\xfcber\nstra\xdfe\n".encode(),
        'tab\tand "quotes".txt': b"quoted name\n",
        "back\\slash\nnewline.txt": b"escaped name\n",
        non_utf8_name: b"name is not utf-8\n",
        "x b/y.txt": b"ambiguous diff --git header\n",
        "many.txt": b"".join(many),
        "emptied.txt": b"will be emptied\n",
        "sub": Gitlink("1" * 40),
    }
    removed = {"del.txt", "a", "d/x", "d/y", "pure_old.txt", "ren_old.txt", "ren_mode_old.sh"}
    bad = {path: content for path, content in good.items() if path not in removed}
    bad.update({
        "new.txt": b"added in BAD\n",
        "new_empty.txt": b"",
        "pure_new.txt": good["pure_old.txt"],
        "ren_new.txt": long_text.replace(b"row 20\n", b"ROW 20\n"),
        "ren_mode_new.sh": Executable(columns.replace(b"col 3\n", b"COL 3\n")),
        "bin.dat": b"\x00\x01\x03 binary \xfe" * 10,
        "mode_only.sh": Executable(b"#!/bin/sh\necho same\n"),
        "mode_edit.sh": Executable(b"#!/bin/sh\necho two\n"),
        "mode_off.sh": b"#!/bin/sh\necho off\n",
        "link_retarget": Symlink("target-two"),
        "link_new": Symlink("dir with space"),
        "link_to_file": b"now a regular file\n",
        "file_to_link": Symlink("keep.txt"),
        "a/x": b"a is a directory in BAD\n",
        "d": Symlink("dir with space"),
        "nonl_both.txt": b"first\nSECOND",
        "nonl_good.txt": b"first\nsecond\nthird\n",
        "nonl_bad.txt": b"first\nsecond\nthird",
        "crlf.txt": _crlf_edit(good["crlf.txt"]),
        "latin1.txt": "caf\xe9\nNA\xcfVE\nd\xe9j\xe0 vu\n".encode("latin-1"),
        "dir with space/\xfcn\xefcode.txt": "\xfcber\nSTRA\xdfE\n".encode(),
        'tab\tand "quotes".txt': b"quoted name, edited\n",
        "back\\slash\nnewline.txt": b"escaped name, edited\n",
        non_utf8_name: b"name is not utf-8, edited\n",
        "x b/y.txt": b"ambiguous diff --git header, edited\n",
        "many.txt": b"".join(many_bad),
        "emptied.txt": b"",
        "sub": Gitlink("2" * 40),
        "sub_new": Gitlink("3" * 40),
    })
    return good, bad


def _crlf_edit(data: bytes) -> bytes:
    """Edit two distant CRLF lines (two hunks)."""
    return data.replace(b"line 3\r\n", b"LINE 3\r\n").replace(b"line 25\r\n", b"LINE 25\r\n")


@pytest.fixture
def diff_repo(make_repo: Callable[..., GitRepo]) -> DiffRepo:
    """A repository whose GOOD..BAD diff holds every kind of change (see every_change_trees)."""
    repo = make_repo("every-change")
    good, bad = every_change_trees()
    return DiffRepo(repo, repo.commit(good, "GOOD"), repo.commit(bad, "BAD"))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The repository of each sample (``sample_repos/``), built once per test module,
    by name, on demand: ``built["interference"]``."""

    class Built(dict[str, Path]):
        def __missing__(self, name: str) -> Path:
            repo: Path = samples.make_repo(name, tmp_path_factory.mktemp(name) / "repo")
            self[name] = repo
            return repo

    return Built()
