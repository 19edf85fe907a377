#!/usr/bin/env python3
"""Time wynot's analysis of a diff and summarise its clusters by change.

    python benchmarks/bench_analysis.py REPO [GOOD] [BAD] [--clusters N] [--truth FILE]
    python benchmarks/bench_analysis.py REPO --repeat N   # best CPU of N readings

Reads GOOD..BAD (default ``good``..``bad``) as wynot does, then times
``wynot.analysis.model.analyse`` (every file side parsed once: symbols,
enclosing scopes, token changes, clusters) and the derived dependencies. With
``--truth`` (a generator's description with ``cluster_hunks`` or
``rename_clusters``), counts the clusters that lie inside one planted cluster.
With ``--repeat N``, reads the diff and every file N times in this process
(collector off, as wynot runs it; the token cache emptied each time) and
prints the least CPU time of each: to compare two codes under a varying
load (``PYTHONPATH=DIR`` for the other one).
"""

from __future__ import annotations

import argparse
import gc
import json
import time
from pathlib import Path

from wynot.analysis import python as python_analysis
from wynot.analysis import treesitter
from wynot.analysis.model import analyse, read_files
from wynot.diffread import read_diff


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repo", type=Path)
    ap.add_argument("good", nargs="?", default="good")
    ap.add_argument("bad", nargs="?", default="bad")
    ap.add_argument("--clusters", type=int, default=0, help="print the N largest clusters")
    ap.add_argument("--truth", type=Path, help="a generator's description (JSON)")
    ap.add_argument("--repeat", type=int, default=0, help="best CPU of N readings")
    args = ap.parse_args()
    if args.repeat:
        best_cpu(args.repo, args.good, args.bad, args.repeat)
        return
    started = time.perf_counter()
    diff = read_diff(args.repo, args.good, args.bad, context=3)
    read = time.perf_counter()
    analysis = analyse(diff)
    analysed = time.perf_counter()
    analysis.dependencies()
    derived = time.perf_counter()
    sizes = sorted((len(c.members) for c in analysis.clusters), reverse=True)
    print(f"{len(diff.changes)} changes in {len(diff.files)} files: read {read - started:.2f} s, "
          f"analyse {analysed - read:.2f} s, dependencies {derived - analysed:.2f} s, "
          f"Python sides parsed {python_analysis.PARSES['python']}")
    print(f"{len(sizes)} clusters over {sum(sizes)} changes; largest {sizes[:10]}")
    label = {c.id: c.label for c in diff.changes}
    for cluster in sorted(analysis.clusters, key=lambda c: -len(c.members))[:args.clusters]:
        print(f"  {len(cluster.members)}: {', '.join(cluster.reasons[:4])}: "
              f"{', '.join(label[i] for i in sorted(cluster.members))}")
    if args.truth:
        inside(json.loads(args.truth.read_text()), analysis.clusters, label)


def best_cpu(repo: Path, good: str, bad: str, runs: int) -> None:
    """The least CPU time of ``runs`` diff readings and file readings (``read_files``)."""
    gc.disable()
    read = files = float("inf")
    for _ in range(runs):
        started = time.process_time()
        diff = read_diff(repo, good, bad, context=3)
        between = time.process_time()
        treesitter._cached_tokens.cache_clear()
        read_files(diff.files, range(len(diff.files)))
        read, files = min(read, between - started), min(files, time.process_time() - between)
    print(f"{len(diff.changes)} changes: best of {runs}: diff read {read:.3f} s of CPU "
          f"(this process), read_files {files:.3f} s")


def inside(truth: dict, clusters: tuple, label: dict[int, str]) -> None:
    """How many found clusters lie inside one planted cluster."""
    planted: dict[str, set[str]] = {}
    for name, labels in truth.get("cluster_hunks", {}).items():
        for hunk in labels:
            planted.setdefault(hunk, set()).add(name)
    within = sum(1 for c in clusters
                 if set.intersection(*(planted.get(label[i], set()) for i in c.members)))
    print(f"{within} of {len(clusters)} clusters inside one planted cluster "
          f"({len(truth.get('cluster_hunks', {}))} planted; whole-file changes are "
          f"labelled differently there and count as outside)")


if __name__ == "__main__":
    main()
