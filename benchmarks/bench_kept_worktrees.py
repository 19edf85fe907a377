"""Compilations of an incremental `make` over two runs, with and without --keep-worktrees.

A generated C project of N files, one object each (a per-object Makefile rule,
as `make` projects have), where BAD changes a few of them and one change makes
the test fail. Each wynot run builds with `make -s` and tests the binary; a
compiler wrapper on PATH counts the compilations. Both runs use --no-cache, so
the second run tests exactly what the first did.

    python benchmarks/bench_kept_worktrees.py [--files 40] [--changed 6] [--wynot wynot]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MAKEFILE = """OBJS = $(patsubst %.c,%.o,$(wildcard *.c))
prog: $(OBJS)
\tcc -o prog $(OBJS)
%.o: %.c
\tcc -c $<
"""


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def make_project(repo: Path, files: int, changed: int) -> None:
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "bench@example.com")
    git(repo, "config", "user.name", "bench")
    for i in range(files):
        (repo / f"f{i}.c").write_text(f"int f{i}(void) {{ return {i}; }}\n")
    calls = " + ".join(f"f{i}()" for i in range(files))
    decls = "".join(f"int f{i}(void);\n" for i in range(files))
    expected = sum(range(files))
    main = f"int main(void) {{ return {calls} == {expected} ? 0 : 1; }}\n"
    (repo / "main.c").write_text(decls + main)
    (repo / "Makefile").write_text(MAKEFILE)
    (repo / ".gitignore").write_text("*.o\nprog\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "good")
    git(repo, "tag", "good")
    for i in range(changed):  # the same value, spelled anew; f0's changes it
        value = f"{i} + 1" if i == 0 else f"{i} + 0"
        (repo / f"f{i}.c").write_text(f"int f{i}(void) {{ return {value}; }}\n")
    git(repo, "commit", "-qam", "bad")
    git(repo, "tag", "bad")


def run(wynot: list[str], repo: Path, bindir: Path, count: Path, keep: bool) -> tuple[int, float]:
    """Compilations and wall time of one wynot run."""
    count.write_text("")
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}"}
    start = time.monotonic()
    done = subprocess.run([*wynot, "--no-cache", *(["--keep-worktrees"] if keep else []),
                           "--build", "make -s", "good", "bad", "--", "./prog"],
                          cwd=repo, env=env, capture_output=True, text=True, check=False)
    elapsed = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"wynot failed ({done.returncode}): {done.stderr[-2000:]}")
    compiles = sum(1 for line in count.read_text().splitlines() if line == "-c")
    return compiles, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=40)
    parser.add_argument("--changed", type=int, default=6)
    parser.add_argument("--wynot", default="wynot")
    args = parser.parse_args()
    found = shutil.which(args.wynot)
    if found is None:
        sys.exit(f"{args.wynot}: not found")
    wynot = str(Path(found).resolve())
    real_cc = shutil.which("cc")
    if real_cc is None:
        sys.exit("no cc on PATH")
    with tempfile.TemporaryDirectory(prefix="bench-kept-") as tmp:
        root = Path(tmp)
        bindir = root / "bin"
        bindir.mkdir()
        count = root / "compiles"
        wrapper = bindir / "cc"
        wrapper.write_text(f'#!/bin/sh\nfor a; do [ "$a" = -c ] && echo -c >> "{count}"; done\n'
                           f'exec {real_cc} "$@"\n')
        wrapper.chmod(0o755)
        print("| runs | compilations: first run | second run | wall: first | second |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for keep in (False, True):
            repo = root / f"project-{keep}"
            make_project(repo, args.files, args.changed)
            first = run([wynot], repo, bindir, count, keep)
            second = run([wynot], repo, bindir, count, keep)
            label = "--keep-worktrees" if keep else "default"
            print(f"| {label} | {first[0]} | {second[0]} | {first[1]:.1f} s | {second[1]:.1f} s |")
            if keep:
                subprocess.run([wynot, "clean"], cwd=repo, capture_output=True, check=False)


if __name__ == "__main__":
    main()
