"""What a check for tracked files the commands changed costs, by the size of the tree.

    python benchmarks/bench_tracked.py REPO [REPO...] [--repeat 20]

For each REPO (tags ``good`` and ``bad``, e.g. from benchmarks/synthetic/generate.py)
a scratch worktree of GOOD gets BAD's configuration (every change applied),
then ``wynot.tracked.check`` runs ``--repeat`` times with nothing changed (the
cost wynot adds after a run in a tree that is checked), and once after one
tracked file was written over (found and put back). Prints the tracked
files, the paths wynot wrote, and the median wall and CPU time of a check.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from wynot import tracked  # noqa: E402
from wynot.diffread import read_diff  # noqa: E402
from wynot.git import git, resolve_commit  # noqa: E402
from wynot.patch import tree_states  # noqa: E402
from wynot.scratch import scratch_worktree  # noqa: E402


def measure(repo: Path, repeat: int) -> dict[str, object]:
    good, bad = resolve_commit(repo, "good"), resolve_commit(repo, "bad")
    diff = read_diff(repo, good, bad)
    with scratch_worktree(repo, good, tree_states(diff, frozenset())) as worktree:
        worktree.apply(tree_states(diff, frozenset(c.id for c in diff.changes)))
        tracked.check(worktree)  # the first: the index refreshed once
        walls, cpus = [], []
        for _ in range(repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            assert tracked.check(worktree).changed == ()
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        files = git(worktree.root, "ls-files", "-z").split(b"\0")[:-1]
        victim = worktree.root / files[len(files) // 2].decode()
        victim.write_bytes(victim.read_bytes() + b"changed by a test\n")
        found = tracked.check(worktree).changed
        return {"repo": repo.name, "tracked": len(files), "written": len(worktree.stamps),
                "wall_ms": 1000 * statistics.median(walls),
                "cpu_ms": 1000 * statistics.median(cpus), "found": len(found)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repos", nargs="+", type=Path)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    print("| repository | tracked files | paths wynot wrote | check: wall (median) "
          "| check: CPU of wynot (median) | a changed file found |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for repo in args.repos:
        row = measure(repo.resolve(), args.repeat)
        print(f"| {row['repo']} | {row['tracked']:,} | {row['written']:,} | "
              f"{row['wall_ms']:.1f} ms | {row['cpu_ms']:.1f} ms | {row['found']} |")


if __name__ == "__main__":
    main()
