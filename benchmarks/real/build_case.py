#!/usr/bin/env python3
"""Build a real-regression case as a git repository with tags ``good`` and ``bad``.

    python3 benchmarks/real/build_case.py --list
    python3 benchmarks/real/build_case.py NAME DEST [--cache DIR]

The two sdists are taken from the cache (default ~/.cache/wynot-bench, or
$WYNOT_BENCH_CACHE), downloaded with pip (or the pinned URL) when missing, and
checked against their sha256. Each tree is the sdist's content without PKG-INFO,
*.egg-info and bytecode, plus the case's test script as wynot_case_test.py.
Identity and dates are pinned, so the commit ids are the same everywhere.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import realcases  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name", nargs="?")
    ap.add_argument("dest", nargs="?")
    ap.add_argument("--list", action="store_true", help="list the cases")
    ap.add_argument("--cache", type=Path, default=realcases.DEFAULT_CACHE,
                    help="sdist cache (default: %(default)s)")
    args = ap.parse_args(argv)
    if args.list:
        for name in realcases.case_names():
            c = realcases.load_case(name)
            print(f"{name:36} {c['package']} {c['good_version']} -> {c['bad_version']}")
        return 0
    if not args.name or not args.dest:
        ap.error("NAME and DEST are required (or --list)")
    try:
        repo = realcases.build_case(args.name, Path(args.dest), args.cache)
    except realcases.CaseError as exc:
        print(f"build_case: {exc}", file=sys.stderr)
        return 1
    raw = realcases.diff_bytes(repo)
    print(f"{repo}: good {realcases.rev(repo, 'good')[:12]} bad {realcases.rev(repo, 'bad')[:12]}, "
          f"{realcases.count_hunk_headers(raw)} hunks; test: cd {repo} && "
          f"{' '.join(realcases.TEST_COMMAND)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
