#!/usr/bin/env python3
"""Explore and check a C case's ground truth by brute force, without wynot.

    python3 benchmarks/ccases/verify.py NAME [--repo PATH] [--mirror GIT_DIR] [-j 2]
        [--universe PATH,PATH] [--max-size-k 60000] [--max-size N] [--necessity]
    python3 benchmarks/ccases/verify.py NAME --hunks [PATH]    # list the change labels
    python3 benchmarks/ccases/verify.py NAME --try 'L1;L2'     # run one configuration
    python3 benchmarks/ccases/verify.py NAME --reduce ['L1;L2'] [--keep 'L;L'] [--shuffle SEED]

The check is ``benchmarks/real/verify_ground_truth.py``'s: GOOD exits 0 and BAD
1; the ground truth applied to GOOD exits 1; without any one of its hunks it
does not (with --necessity, nor does the whole diff without it); no smaller
subset of the hunks of the files involved (or of --universe) exits 1, and
of its own size only it (while there are at most --max-size-k subsets).

--reduce starts from the given changes (default: all) and removes halves,
quarters, ... then single changes while the test still exits 1, until no
single change can go: a 1-minimal failing set, found without wynot.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "real"))
import ccases  # noqa: E402
import verify_ground_truth as vgt  # noqa: E402
from ccases import rc  # noqa: E402


def labels_of(text: str) -> list[str]:
    return [x.strip() for x in text.split(";") if x.strip()]


def without_pairs(repo: Path, changes: list[rc.Change], truth: list[rc.Change]) -> bool:
    """Run ``truth`` without each pair of its changes; True when none of them exits 1
    (with 1-minimality, no set that lacks two of its changes fails: 2-minimal)."""
    t0, runs, failing = time.monotonic(), 0, []
    with rc.Scratch(repo, changes, command=ccases.TEST_COMMAND) as s:
        for i, a in enumerate(truth):
            for b in truth[i + 1:]:
                code, _ = s.run([c for c in truth if c not in (a, b)])
                runs += 1
                if code == 1:
                    failing.append(f"{a.label};{b.label}")
                    print(f"  fails without {a.label} and {b.label}", flush=True)
    print(f"{runs} pairs removed, {len(failing)} still fail ({time.monotonic() - t0:.0f} s)")
    return not failing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name")
    ap.add_argument("--repo", type=Path, help="an already built case repository")
    ap.add_argument("--mirror", type=Path)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--max-size-k", type=int, default=60000)
    ap.add_argument("--universe", help="comma-separated paths for the exhaustive search")
    ap.add_argument("--max-size", type=int, help="exhaustive search only up to this size")
    ap.add_argument("--necessity", action="store_true",
                    help="also run the whole diff without each ground-truth change")
    ap.add_argument("--hunks", nargs="?", const="", metavar="PATH")
    ap.add_argument("--try", dest="try_", metavar="LABELS")
    ap.add_argument("--reduce", nargs="?", const="", metavar="LABELS")
    ap.add_argument("--keep", default="", metavar="LABELS", help="never dropped by --reduce")
    ap.add_argument("--pairs", action="store_true",
                    help="2-minimality: run the ground truth without each pair of its changes")
    ap.add_argument("--shuffle", type=int, metavar="SEED",
                    help="--reduce tries the changes in a random order (this seed), not the "
                         "diff's: another 1-minimal set, perhaps a smaller one")
    args = ap.parse_args(argv)

    case = ccases.load_case(args.name)
    tmp = None
    repo = args.repo
    if repo is None:
        tmp = tempfile.TemporaryDirectory(prefix="wynot-cgt-")
        repo = ccases.build_case(args.name, Path(tmp.name) / "repo", args.mirror)
    raw = rc.diff_bytes(repo)
    changes = rc.all_changes(rc.parse_diff(raw))
    by_label = {c.label: c for c in changes}
    print(f"{args.name}: {rc.count_hunk_headers(raw)} hunks, {len(changes)} changes")
    if args.hunks is not None:
        for c in changes:
            if not args.hunks or c.path == args.hunks:
                first = c.body.split(b"\n", 1)[0].decode(errors="replace")
                print(f"{c.label:50} {first[:100] if c.kind == 'hunk' else ''}")
        return 0
    if args.try_ is not None:
        chosen = [by_label[x] for x in labels_of(args.try_)]
        with rc.Scratch(repo, changes, command=ccases.TEST_COMMAND) as s:
            code, out = s.run(chosen)
        print(f"exit {code} ({rc.outcome(code)})\n{out[-3000:]}")
        return 0
    if args.reduce is not None:
        start = [by_label[x] for x in labels_of(args.reduce)] or changes
        if args.shuffle is not None:
            start = list(start)
            random.Random(args.shuffle).shuffle(start)
        t0 = time.monotonic()
        result = vgt.reduce_failing(repo, changes, start,
                                    [by_label[x] for x in labels_of(args.keep)],
                                    command=ccases.TEST_COMMAND)
        print(f"1-minimal ({len(result)}, {time.monotonic() - t0:.0f} s): "
              f"{';'.join(c.label for c in result)}")
        return 0
    if args.pairs:
        return 0 if without_pairs(repo, changes, [by_label[x] for x in case["ground_truth"]]) else 1
    universe = args.universe.split(",") if args.universe else None
    ok = vgt.check_ground_truth(repo, changes, case["ground_truth"], jobs=args.jobs,
                                max_size_k=args.max_size_k, command=ccases.TEST_COMMAND,
                                universe_paths=universe, necessity=args.necessity,
                                max_size=args.max_size)
    print(f"{'VERIFIED' if ok else 'NOT VERIFIED'}: {args.name}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
