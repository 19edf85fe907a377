"""How well does BAD's failure output point at the answer? The evidence behind -j N's guesses.

    python benchmarks/bench_suspects.py REPO [REPO...]

Each REPO is as for ``bench_parallel.py hunks`` (tags ``good`` and ``bad``, a
test command in ``REPO.json`` or ``wynot_case_test.py``). The test runs once
on GOOD and once on BAD (in temporary worktrees), wynot finds the answer
(``--json``, the cache allowed), and :func:`wynot.suspects.weights` scores the
changes from the two outputs. Printed per change of the answer: its rank
among the scored changes (0 = the most suspect) and its share of the
weight, the part of the guesses' evidence that points at it (the guesses
follow the evidence with probability 0.7, ``wynot.lookahead.TRUST``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_parallel import WYNOT, test_command  # noqa: E402

from wynot.diffread import read_diff  # noqa: E402
from wynot.suspects import weights  # noqa: E402


def output_of(repo: Path, rev: str, test: list[str]) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(repo), "worktree", "add", "-q", "--detach", str(tree),
                        rev], check=True)
        try:
            done = subprocess.run(test, cwd=tree, capture_output=True, text=True, check=False)
        finally:
            subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(tree)],
                           check=True)
    return done.stdout + done.stderr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repos", nargs="+", type=Path)
    args = ap.parse_args()
    print("| repository | changes | scored | answer's change | rank | share of the weight |")
    print("| --- | ---: | ---: | --- | ---: | ---: |")
    for repo in args.repos:
        test = test_command(repo)[2].removeprefix("sleep 1; exec ")
        command = ["sh", "-c", test]
        good, bad = (subprocess.run(["git", "-C", str(repo), "rev-parse", tag], check=True,
                                    capture_output=True, text=True).stdout.strip()
                     for tag in ("good", "bad"))
        diff = read_diff(repo, good, bad)
        scores = weights(diff, output_of(repo, bad, command), output_of(repo, good, command))
        report = json.loads(subprocess.run([*WYNOT, "good", "bad", "--json", "-q", "--", *command],
                                           cwd=repo, capture_output=True, text=True,
                                           check=False).stdout)
        ranked = sorted(scores, key=lambda c: -scores[c])
        total = sum(scores.values())
        for change in (c["id"] for c in report["changes"]):
            rank = ranked.index(change) if change in scores else "-"
            share = scores.get(change, 0.0) / total if total else 0.0
            print(f"| {repo.name} | {len(diff.changes)} | {len(scores)} | "
                  f"{diff.changes[change].label} | {rank} | {share:.3f} |", flush=True)


if __name__ == "__main__":
    main()
