#!/usr/bin/env python3
"""How long a configuration takes to become a tree: tree_states and TreeBuilder.

    python benchmarks/scale/bench_tree_states.py [--files 1000] [--hunks-per-file 10]
        [--lines 300] [--flips 30] [--seed 7]

A diff of ``files`` text files of ``lines`` lines, each edited on
``hunks-per-file`` single lines (one -U0 hunk each), built in memory. It
reports the CPU time (``time.process_time``, medians) of:

    tree_states      every path's state for a random half of the hunks (the first
                     call splits each file into lines; later ones splice only)
    builder, first   TreeBuilder.states for such a configuration, first call
    builder, 1 file  TreeBuilder.states after the selection of three hunks of one
                     file flipped: what wynot computes between two tests that
                     differ in one file

This replaces a timed unit test: speed is measured here, on demand; the test
suite checks the operation count instead (each file split once).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from wynot.changes import Change, ChangeKind, Diff, FileDiff, FileState, Hunk  # noqa: E402
from wynot.patch import TreeBuilder, check_reproduces, tree_states  # noqa: E402


def single_line_edits(files: int, hunks_per_file: int, lines: int) -> Diff:
    """``files`` files, each with ``hunks_per_file`` evenly spaced one-line edits."""
    every = lines // hunks_per_file
    fds: list[FileDiff] = []
    changes: list[Change] = []
    for index in range(files):
        path = f"d{index % 50}/file{index}.txt"
        old = [b"line %d of file %d\n" % (n, index) for n in range(lines)]
        new = list(old)
        own = []
        for k in range(hunks_per_file):
            line = k * every + 1
            new[line - 1] = b"changed line %d\n" % line
            own.append(Change(len(changes) + k, index, ChangeKind.HUNK, path,
                              Hunk(line, 1, line, 1, "", f"@@ -{line} +{line} @@\n")))
        fds.append(FileDiff(index, path, path, FileState(0o100644, b"".join(old)),
                            FileState(0o100644, b"".join(new)), tuple(own)))
        changes.extend(own)
    return Diff("0" * 40, "1" * 40, tuple(fds), tuple(changes))


def _cpu_ms(action: object) -> float:
    started = time.process_time()
    action()  # type: ignore[operator]
    return (time.process_time() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--hunks-per-file", type=int, default=10)
    parser.add_argument("--lines", type=int, default=300)
    parser.add_argument("--flips", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    diff = single_line_edits(args.files, args.hunks_per_file, args.lines)
    check_reproduces(diff)
    rnd = random.Random(args.seed)
    halves = [frozenset(c.id for c in diff.changes if rnd.random() < 0.5) for _ in range(5)]
    full = [_cpu_ms(lambda s=s: tree_states(diff, s)) for s in halves]
    builder = TreeBuilder(diff)
    first = _cpu_ms(lambda: builder.states(halves[0]))
    selected, flips = halves[0], []
    for index in (rnd.randrange(args.files) for _ in range(args.flips)):
        selected = selected ^ {c.id for c in diff.files[index].changes[:3]}
        flips.append(_cpu_ms(lambda s=selected: builder.states(s)))
    print(f"{len(diff.changes):,} hunks in {args.files:,} files, half applied (CPU, median): "
          f"tree_states {statistics.median(full[1:]):.1f} ms (first {full[0]:.1f} ms); "
          f"builder, first {first:.1f} ms; builder, 1 file {statistics.median(flips):.2f} ms")


if __name__ == "__main__":
    main()
