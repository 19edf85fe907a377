#!/usr/bin/env python3
"""Check a case's ground truth by brute force, without wynot.

    python3 benchmarks/real/verify_ground_truth.py NAME [--repo PATH] [-j 2]
    python3 benchmarks/real/verify_ground_truth.py NAME --try 'LABEL;LABEL'   # explore
    python3 benchmarks/real/verify_ground_truth.py NAME --hunks PATH          # list labels
    python3 benchmarks/real/verify_ground_truth.py NAME --reduce ['L1;L2']    # 1-minimal set

Checks, each configuration applied with ``git apply`` to a scratch worktree of GOOD:

1. GOOD passes (exit 0), BAD fails (exit 1).
2. The ground-truth set applied to GOOD makes the test exit 1.
3. It is 1-minimal: removing any one change gives exit 0 or 125.
4. No smaller set fails: every subset of size < k of the changes of the files
   involved (k = size of the ground truth) is tried; then every subset of size k
   too while their number is at most --max-size-k (default 60000), listing the
   failing ones (the ground truth should be the only one).
"""

from __future__ import annotations

import argparse
import itertools
import math
import queue
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import realcases as rc  # noqa: E402


class Pool:
    """``jobs`` scratch worktrees testing configurations in parallel."""

    def __init__(self, repo: Path, changes: list[rc.Change], jobs: int,
                 command: list[str] | None = None):
        self.scratches = [rc.Scratch(repo, changes, command=command) for _ in range(jobs)]

    def map(self, configs, progress: str = ""):
        """Yield (config, code) for each config (a tuple of changes), in any order."""
        todo: queue.Queue = queue.Queue()
        done: queue.Queue = queue.Queue()
        n = 0
        for cfg in configs:
            todo.put(cfg)
            n += 1

        def worker(scratch: rc.Scratch) -> None:
            while True:
                try:
                    cfg = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    code, _ = scratch.run(list(cfg))
                except rc.CaseError as exc:
                    print(f"  {exc}", file=sys.stderr)
                    code = -1
                done.put((cfg, code))

        threads = [threading.Thread(target=worker, args=(s,), daemon=True) for s in self.scratches]
        for t in threads:
            t.start()
        start = time.monotonic()
        for i in range(n):
            item = done.get()
            if progress and (i + 1) % 500 == 0:
                print(f"  {progress}: {i + 1}/{n} ({time.monotonic() - start:.0f} s)",
                      file=sys.stderr, flush=True)
            yield item
        for t in threads:
            t.join()

    def close(self) -> None:
        for s in self.scratches:
            s.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name")
    ap.add_argument("--repo", type=Path, help="an already built case repository")
    ap.add_argument("--cache", type=Path, default=rc.DEFAULT_CACHE)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--max-size-k", type=int, default=60000,
                    help="try all subsets of the ground truth's size when at most this many")
    ap.add_argument("--max-size", type=int, help="exhaustive search only up to this size")
    ap.add_argument("--try", dest="try_", metavar="LABELS",
                    help="only run the test with these changes (';'-separated labels)")
    ap.add_argument("--hunks", metavar="PATH", nargs="?", const="",
                    help="list the change labels (of PATH, or of all files) and exit")
    ap.add_argument("--reduce", nargs="?", const="", metavar="LABELS",
                    help="find a 1-minimal failing subset of these changes (default: all)")
    ap.add_argument("--keep", default="", metavar="LABELS", help="never removed by --reduce")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)

    case = rc.load_case(args.name)
    tmp = None
    repo = args.repo
    if repo is None:
        tmp = tempfile.TemporaryDirectory(prefix="wynot-gt-")
        t0 = time.monotonic()
        repo = rc.build_case(args.name, Path(tmp.name) / "repo", args.cache)
        print(f"built {repo} in {time.monotonic() - t0:.1f} s")
    raw = rc.diff_bytes(repo)
    files = rc.parse_diff(raw)
    changes = rc.all_changes(files)
    by_label = {c.label: c for c in changes}
    print(f"{args.name}: {rc.count_hunk_headers(raw)} hunk headers (git diff -U3 -M good bad), "
          f"{len(changes)} changes in {len(files)} files")

    if args.hunks is not None:
        for c in changes:
            if not args.hunks or c.path == args.hunks:
                first = c.body.split(b"\n", 1)[0].decode(errors="replace")
                print(f"{c.label:60} {first[:90] if c.kind == 'hunk' else ''}")
        return 0

    if args.try_ is not None:
        labels = [x.strip() for x in args.try_.split(";") if x.strip()]
        missing = [x for x in labels if x not in by_label]
        if missing:
            print(f"unknown labels: {missing}")
            return 2
        with rc.Scratch(repo, [by_label[x] for x in labels] or changes[:1]) as s:
            code, out = s.run([by_label[x] for x in labels])
        print(f"exit {code} ({rc.outcome(code)})\n{out[-3000:]}")
        return 0

    if args.reduce is not None:
        def pick(text: str) -> list[rc.Change]:
            return [by_label[x.strip()] for x in text.split(";") if x.strip()]
        found = reduce_failing(repo, changes, pick(args.reduce) or changes, pick(args.keep))
        print(f"1-minimal ({len(found)}): {';'.join(c.label for c in found)}")
        return 0

    ok = check_ground_truth(repo, changes, case["ground_truth"], jobs=args.jobs,
                            max_size_k=args.max_size_k, max_size=args.max_size)
    print(f"{'VERIFIED' if ok else 'NOT VERIFIED'}: {args.name}")
    return 0 if ok else 1


def reduce_failing(repo: Path, changes: list[rc.Change], start: list[rc.Change],
                   keep: list[rc.Change] = (), command: list[str] | None = None,
                   log=print) -> list[rc.Change]:
    """A 1-minimal failing subset of ``start``, found without wynot.

    Removes chunks of ``start`` (halves, then quarters, ... then single
    changes), keeping a removal whenever the test still exits 1, and ends
    with passes of single removals until none can go. ``keep`` is never
    removed. ``start`` must fail (exit 1).
    """
    current = list(start)
    runs = 0
    with rc.Scratch(repo, changes, command=command) as s:
        code, _ = s.run(current)
        runs += 1
        if code != 1:
            raise rc.CaseError(f"reduce: the start set exits {code}, not 1")
        size = max(1, len(current) // 2)
        while True:
            removable = [c for c in current if c not in keep]
            chunks = [removable[i:i + size] for i in range(0, len(removable), size)]
            dropped = False
            for chunk in chunks:
                trial = [c for c in current if c not in chunk]
                code, _ = s.run(trial)
                runs += 1
                if code == 1:
                    current = trial
                    dropped = True
                    log(f"  dropped {len(chunk)} ({len(current)} left, {runs} runs)")
            if size == 1 and not dropped:
                break
            if not dropped or size > 1:
                size = max(1, size // 2)
    log(f"  1-minimal after {runs} runs")
    return current


def check_ground_truth(repo: Path, changes: list[rc.Change], gt_labels: list[str], *,
                       jobs: int = 2, max_size_k: int = 60000,
                       command: list[str] | None = None,
                       universe_paths: list[str] | None = None,
                       necessity: bool = False, max_size: int | None = None) -> bool:
    """Checks 1-4 of the module docstring, printing each; True when all hold.

    The exhaustive search runs over the changes of the files the ground truth
    touches, or of ``universe_paths`` when given. With ``necessity``, also
    checks that the whole universe without any one ground-truth change does
    not fail (evidence, not proof, that every failing set needs that change:
    a subset of a passing configuration may still fail).
    """
    by_label = {c.label: c for c in changes}
    missing = [x for x in gt_labels if x not in by_label]
    if missing:
        print(f"FAILED: ground-truth labels not in the diff: {missing}")
        return False
    gt = [by_label[x] for x in gt_labels]
    involved = sorted(set(universe_paths) if universe_paths else {c.path for c in gt})
    universe = [c for c in changes if c.path in involved]
    k = len(gt)
    print(f"ground truth: {k} changes in {len(involved)} file(s) {involved}; "
          f"{len(universe)} changes in those files")
    ok = True
    t_start = time.monotonic()
    pool = Pool(repo, universe, jobs, command)
    runs = 0
    try:
        # 1. premise, on the whole trees
        with rc.Scratch(repo, universe) as s:
            code_good, _ = rc.run_test(s.tree, command=command)
            rc.git(s.tree, "checkout", "-q", "--detach", "bad")
            code_bad, _ = rc.run_test(s.tree, command=command)
            rc.git(s.tree, "checkout", "-q", "--detach", "good")
        runs += 2
        print(f"[{'ok' if code_good == 0 else 'FAILED'}] GOOD exits {code_good} (want 0)")
        print(f"[{'ok' if code_bad == 1 else 'FAILED'}] BAD exits {code_bad} (want 1)")
        ok &= code_good == 0 and code_bad == 1

        # 2. + 3. the ground truth fails, each removal does not
        configs = [tuple(gt)] + [tuple(c for c in gt if c is not drop) for drop in gt]
        results = dict(pool.map(configs))
        runs += len(configs)
        code = results[tuple(gt)]
        print(f"[{'ok' if code == 1 else 'FAILED'}] ground truth applied to GOOD exits {code} "
              f"(want 1)")
        ok &= code == 1
        for drop in gt:
            cfg = tuple(c for c in gt if c is not drop)
            code = results[cfg]
            good = rc.outcome(code) != "FAIL"
            print(f"[{'ok' if good else 'FAILED'}] without {drop.label}: exit {code} "
                  f"({rc.outcome(code)})")
            ok &= good

        # 3b. each hunk is necessary: the whole universe without it does not fail
        if necessity:
            configs = [tuple(c for c in universe if c is not drop) for drop in gt]
            results = dict(pool.map(configs))
            runs += len(configs)
            for drop, cfg in zip(gt, configs, strict=True):
                code = results[cfg]
                good = rc.outcome(code) != "FAIL"
                print(f"[{'ok' if good else 'FAILED'}] all {len(universe)} changes but "
                      f"{drop.label}: exit {code} ({rc.outcome(code)})")
                ok &= good

        # 4. exhaustive over the changes of the files involved
        top = k if max_size is None else min(k, max_size)
        if top < k:
            print(f"[note] exhaustive search only up to size {top} (--max-size), not {k}")
        for size in range(1, top + 1):
            total = math.comb(len(universe), size)
            if size == k and total > max_size_k:
                print(f"[skip] size {size}: {total} subsets > --max-size-k {max_size_k}")
                break
            t0 = time.monotonic()
            fails = []
            counts = {"PASS": 0, "FAIL": 0, "UNRESOLVED": 0}
            for cfg, code in pool.map(itertools.combinations(universe, size),
                                      progress=f"size {size}"):
                counts[rc.outcome(code) if code >= 0 else "UNRESOLVED"] += 1
                if rc.outcome(code) == "FAIL":
                    fails.append(sorted(c.label for c in cfg))
            runs += total
            dt = time.monotonic() - t0
            if size < k:
                good = not fails
                if good:
                    print(f"[ok] size {size}: {total} subsets, none fails ({counts['PASS']} pass, "
                          f"{counts['UNRESOLVED']} unresolved; {dt:.0f} s)")
                else:
                    print(f"[FAILED] size {size}: {len(fails)} failing subsets, e.g. {fails[:3]}")
                ok &= good
            else:
                only = fails == [sorted(gt_labels)]
                tail = "; the ground truth is the only one" if only else f": {fails[:5]}"
                print(f"[{'ok' if only else 'note'}] size {size}: {total} subsets, {len(fails)} "
                      f"fail ({counts['PASS']} pass, {counts['UNRESOLVED']} unresolved; "
                      f"{dt:.0f} s){tail}")
    finally:
        pool.close()
    print(f"{runs} test runs, {time.monotonic() - t_start:.0f} s")
    return ok


if __name__ == "__main__":
    sys.exit(main())
