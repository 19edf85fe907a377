#!/usr/bin/env python3
"""The commit phase on merged branches that fail on their own, against `git bisect run`.

    python benchmarks/bench_merges.py [--wynot CMD]

Builds two histories in a temporary folder, with plain git (pinned names and
dates), where the regression is made on a merged branch:

    flat    main merges a 49-commit branch; the branch's 30th commit breaks the test
    nested  main merges a 7-commit branch, which merged a 9-commit branch whose 4th
            commit breaks the test (the history of tests/test_merges.py)

For each, runs `git bisect run` in a clone and `wynot --strategy commits` in the
repository, and prints one row: commits in good..bad, the tests of each, and
whether both name the branch's own commit.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_history import git_bisect_run, print_table  # noqa: E402

TEST = ["sh", "-c", "grep -q 1 value.txt"]


class History:
    """A repository built commit by commit; every commit writes the files given."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.stamp = 1_700_000_000
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        env = {**os.environ, "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "b@example.com",
               "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "b@example.com",
               "GIT_AUTHOR_DATE": f"@{self.stamp} +0000",
               "GIT_COMMITTER_DATE": f"@{self.stamp} +0000"}
        return subprocess.run(["git", "-C", str(self.path), *args], env=env, check=True,
                              capture_output=True, text=True).stdout.strip()

    def commit(self, files: dict[str, str], message: str, *parents: str) -> str:
        self.stamp += 60
        for name, text in files.items():
            (self.path / name).write_text(text)
        self.git("add", "-A")
        tree = self.git("write-tree")
        args = [arg for parent in parents for arg in ("-p", parent)]
        sha = self.git("commit-tree", tree, *args, "-m", message)
        self.git("reset", "-q", "--hard", sha)
        return sha

    def line(self, start: str, name: str, count: int, bad_from: int = 0) -> list[str]:
        """``count`` commits on ``start`` editing NAME.txt; value 2 from ``bad_from`` on."""
        self.git("reset", "-q", "--hard", start)
        shas = []
        for i in range(1, count + 1):
            files = {f"{name}.txt": f"{name} {i}\n"}
            if bad_from and i >= bad_from:
                files["value.txt"] = "2\n"
            shas.append(self.commit(files, f"{name} {i}", shas[-1] if shas else start))
        return shas

    def merge(self, first: str, second: str, message: str) -> str:
        self.git("reset", "-q", "--hard", first)
        self.git("merge", "-q", "--no-ff", "--no-commit", second)
        return self.commit({}, message, first, second)


def build(path: Path, nested: bool) -> str:
    """The history; returns the sha of the commit that breaks the test."""
    repo = History(path)
    good = repo.commit({"value.txt": "1\n", "main.txt": "main 0\n"}, "base")
    repo.git("tag", "good")
    if nested:
        sub = repo.line(good, "sub", 9, bad_from=4)
        feature = repo.line(good, "feature", 2)
        feature.append(repo.merge(feature[-1], sub[-1], "merge sub"))
        feature += repo.line(feature[-1], "feature2", 4)
        culprit = sub[3]
    else:
        feature = repo.line(good, "feature", 49, bad_from=30)
        culprit = feature[29]
    main = repo.line(good, "main", 3)
    merged = repo.merge(main[-1], feature[-1], "merge feature")
    repo.line(merged, "main2", 5)
    repo.git("tag", "bad")
    return culprit


def measure(name: str, wynot: list[str], tmp: Path) -> dict[str, str]:
    repo = tmp / name
    repo.mkdir()
    culprit = build(repo, nested=name == "nested")
    bisect_first_bad, bisect_tests = git_bisect_run(repo, tmp / f"{name}-clone", TEST, [])
    done = subprocess.run([*wynot, "-C", str(repo), "--json", "--no-cache", "-q",
                           "--strategy", "commits", "good", "bad", "--", *TEST],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"wynot exited {done.returncode} on {name}:\n{done.stderr[-2000:]}")
    phase = json.loads(done.stdout)["commit_phase"]
    return {
        "history": name,
        "commits": str(phase["commits"]),
        "git bisect tests": str(bisect_tests),
        "wynot commit tests": str(phase["tested"]),
        "merges followed": str(len(phase["followed_merges"])),
        "both name the branch's commit": "yes" if bisect_first_bad == culprit
        == phase["first_bad"]["sha"] else "NO",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wynot", default="wynot", help="the wynot command (default: wynot)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="wynot-bench-merges-") as tmp:
        rows = [measure(name, shlex.split(args.wynot), Path(tmp)) for name in ("flat", "nested")]
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
