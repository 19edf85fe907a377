#!/usr/bin/env python3
"""Time the per-line attribution of every change of a repository's good..bad diff.

    python benchmarks/synthetic/generate.py /tmp/syn --hunks 5000 --dirs 100 --seed 1 --no-verify
    python benchmarks/bench_attribution.py /tmp/syn [--wynot-source DIR]

``--wynot-source`` imports wynot from another checkout (to compare versions).
Prints the number of changes and files and the seconds `attribute` took.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--wynot-source", type=Path, default=Path(__file__).resolve().parents[1])
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.wynot_source))
    from wynot.diffread import read_diff
    from wynot.history import attribute

    diff = read_diff(args.repo, "good", "bad")
    started = time.monotonic()
    credits = attribute(args.repo, diff, diff.changes)
    print(f"{len(diff.changes)} changes in {len(diff.files)} files: {len(credits)} credited "
          f"in {time.monotonic() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
