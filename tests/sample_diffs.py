"""What the sample-repository tests share: a clean environment, git, the
sample's command, and a GOOD..BAD diff cut into changes labelled as wynot
labels them, from which a patch of any subset of them is made for `git apply`.
Independent of wynot on purpose: these tests check the samples themselves."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

PASS, FAIL, UNRESOLVED = "PASS", "FAIL", "UNRESOLVED"
TIMEOUT = 120


def clean_env() -> dict[str, str]:
    """The environment minus what would leak this test session into git and the samples."""
    leaks = ("GIT_", "PYTEST_", "MAKE", "MFLAGS")
    env = {key: value for key, value in os.environ.items() if not key.startswith(leaks)}
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        LC_ALL="C",
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env


def git(cwd: Path, *args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        ["git", "-c", "core.quotepath=off", "-c", "advice.detachedHead=false", *args],
        cwd=cwd,
        input=stdin,
        env=env or clean_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout


def argv(command: list[str]) -> list[str]:
    """The sample's command, with its Python being the one that runs these tests."""
    if command[0] in ("python", "python3"):
        return [sys.executable, *command[1:]]
    return list(command)


HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@")


@dataclass
class FileDiff:
    path: str
    header: list[str]
    whole: str | None = None  # "add" or "delete" for a change of the whole file
    hunks: list[tuple[str, list[str]]] = field(default_factory=list)  # (label, lines)

    def labels(self) -> list[str]:
        if self.whole:
            return [f"{self.path} ({self.whole})"]
        return [label for label, _ in self.hunks]


def diff(repo: Path, a: str, b: str) -> list[FileDiff]:
    """The diff from `a` to `b`, one FileDiff per file (no renames, copies or binaries)."""
    text = git(repo, "diff", "-U3", "-M", "--no-color", "--no-ext-diff", a, b)
    files = []
    for block in re.split(r"^(?=diff --git )", text, flags=re.MULTILINE):
        if not block:
            continue
        lines = block.splitlines(keepends=True)
        first = next((i for i, line in enumerate(lines) if line.startswith("@@")), len(lines))
        header = lines[:first]
        assert not any(line.startswith(("rename ", "copy ", "Binary")) for line in header), header
        old = next((h[6:].rstrip("\n") for h in header if h.startswith("--- a/")), None)
        new = next((h[6:].rstrip("\n") for h in header if h.startswith("+++ b/")), None)
        path = new or old
        assert path is not None, f"no paths in {header}"
        file = FileDiff(path, header)
        if any(line.startswith("new file mode") for line in header):
            file.whole = "add"
        elif any(line.startswith("deleted file mode") for line in header):
            file.whole = "delete"
        for line in lines[first:]:
            match = HUNK_HEADER.match(line)
            if match:
                length = match[2] if match[2] is not None else "1"
                file.hunks.append((f"{path}:-{match[1]},{length}", [line]))
            else:
                file.hunks[-1][1].append(line)
        files.append(file)
    return files


def labels_of(files: Iterable[FileDiff]) -> list[str]:
    return [label for file in files for label in file.labels()]


def patch_for(files: Iterable[FileDiff], keep: Iterable[str]) -> str:
    """A patch for `git apply` on the diff's base that holds only the changes labelled `keep`."""
    keep = set(keep)
    out: list[str] = []
    for file in files:
        if file.whole:
            if f"{file.path} ({file.whole})" in keep:
                out += file.header + [line for _, lines in file.hunks for line in lines]
            continue
        chosen = [lines for label, lines in file.hunks if label in keep]
        if chosen:
            out += file.header + [line for lines in chosen for line in lines]
    return "".join(out)
