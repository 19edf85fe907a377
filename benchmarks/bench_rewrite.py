#!/usr/bin/env python3
"""What writing a configuration costs per file rewritten in the scratch worktree.

    python benchmarks/bench_rewrite.py [--files 3000] [--size 5000] [--rounds 6]

Makes a repository of ``--files`` files of about ``--size`` bytes in 100
directories, a scratch worktree of it (``wynot.scratch.scratch_worktree``),
then applies two sets of contents in turn (each file a little longer or
shorter than the other's), ``--rounds`` times: every apply rewrites every
file in place, as a test far from the last one does (the first search test
after the premise rewrites half of a diff's files). Prints the median wall,
user and system time of an apply, and per file. Run it with ``PYTHONPATH``
set to another tree to compare two codes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from wynot.changes import FileState
from wynot.scratch import scratch_worktree


def make_repo(root: Path, files: int, size: int) -> list[str]:
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    paths = []
    for i in range(files):
        path = f"d{i % 100:02d}/f{i}.txt"
        (root / path).parent.mkdir(exist_ok=True)
        (root / path).write_bytes(b"a" * (size + i % 97))
        paths.append(path)
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@b"}
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", "files"], check=True, env=env)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=3000)
    parser.add_argument("--size", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="wynot-rewrite-") as tmp:
        repo = Path(tmp) / "repo"
        paths = make_repo(repo, args.files, args.size)
        head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], check=True,
                              capture_output=True, text=True).stdout.strip()
        longer = {p: FileState(0o100644, b"b" * (args.size + 50 + i % 89))
                  for i, p in enumerate(paths)}
        shorter = {p: FileState(0o100644, b"c" * (args.size - 50 + i % 83))
                   for i, p in enumerate(paths)}
        walls, users, systems = [], [], []
        with scratch_worktree(repo, head, {}) as worktree:
            for n in range(2 * args.rounds):
                before, wall = os.times(), time.perf_counter()
                written = worktree.apply(longer if n % 2 == 0 else shorter)
                after = os.times()
                assert written == len(paths)
                walls.append(time.perf_counter() - wall)
                users.append(after.user - before.user)
                systems.append(after.system - before.system)
    files = len(paths)
    for name, values in (("wall", walls), ("user", users), ("system", systems)):
        median = statistics.median(values)
        print(f"{name:6s} {median:.3f} s an apply, {1000 * median / files:.3f} ms a file "
              f"(range {min(values):.3f}-{max(values):.3f} s)")


if __name__ == "__main__":
    main()
