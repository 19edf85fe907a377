#!/usr/bin/env python3
"""Build a C case as a git repository with tags ``good`` and ``bad``.

    python3 benchmarks/ccases/build_case.py --list
    python3 benchmarks/ccases/build_case.py NAME DEST [--mirror GIT_DIR]

The project's history is read from a local mirror (default
``$WYNOT_MIRRORS/<owner>+<name>/repo``, ``/work/.mirror`` unless set); nothing
is fetched. Identity and dates are pinned, so the commit ids are the same
everywhere.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ccases  # noqa: E402
from ccases import rc  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name", nargs="?")
    ap.add_argument("dest", nargs="?", type=Path)
    ap.add_argument("--list", action="store_true", help="list the cases")
    ap.add_argument("--mirror", type=Path, help="the project's git directory")
    args = ap.parse_args(argv)
    if args.list:
        for name in ccases.case_names():
            c = ccases.load_case(name)
            print(f"{name:36} {c['project']} {c['good_tag']} -> {c['bad_tag']}")
        return 0
    if not args.name or not args.dest:
        ap.error("NAME and DEST are required (or --list)")
    try:
        repo = ccases.build_case(args.name, args.dest, args.mirror)
    except rc.CaseError as exc:
        print(f"build_case: {exc}", file=sys.stderr)
        return 1
    raw = rc.diff_bytes(repo)
    print(f"{repo}: good {rc.rev(repo, 'good')[:12]} bad {rc.rev(repo, 'bad')[:12]}, "
          f"{rc.count_hunk_headers(raw)} hunks; test: cd {repo} && "
          f"{' '.join(ccases.TEST_COMMAND)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
