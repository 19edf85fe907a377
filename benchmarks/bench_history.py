#!/usr/bin/env python3
"""The commit phase against `git bisect run` on the history samples.

    python benchmarks/bench_history.py [--wynot CMD] [--samples long-history,merge-branches]

For each history sample (built with sample_repos/make_repo.py into a temporary
folder), runs `git bisect run` with the sample's test in a clone, then
`wynot --json --no-cache good bad -- TEST` in the repository, and prints one row:

    commits       commits in good..bad, BAD excluded, merged branches included
    bisect tests  commits `git bisect run` marked good, bad or skip (read from `git bisect log`)
    wynot commit  tests wynot's commit phase ran
    wynot total   every test wynot ran: premise, commits, hunk search, labels, verification
    same commit   wynot's first failing commit is the one `git bisect` names
    answer        the labels of wynot's hunk-level answer, with their roles
    time          wall time of the wynot run
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "sample_repos"))

import make_repo  # noqa: E402


def test_argv(case: dict) -> list[str]:
    head, *rest = case["test"]
    return [sys.executable if head in ("python", "python3") else head, *rest]


def git_bisect_run(repo: Path, clone: Path, test: list[str],
                   options: list[str]) -> tuple[str, int]:
    """First bad commit and the number of commits `git bisect run` tested, in a clone."""
    subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "bisect", "start", *options, "bad", "good"],
                   check=True, capture_output=True)
    run = subprocess.run(["git", "-C", str(clone), "bisect", "run", *test], cwd=clone,
                         capture_output=True, text=True, check=False)
    log = subprocess.run(["git", "-C", str(clone), "bisect", "log"], capture_output=True,
                         text=True, check=True).stdout
    # `git bisect start` records the good and bad ends as comments: only real marks count
    marks = [line for line in log.splitlines()
             if line.startswith(("git bisect good", "git bisect bad", "git bisect skip"))]
    first_bad = next(line.split()[0] for line in run.stdout.splitlines()
                     if line.endswith("is the first bad commit"))
    return first_bad, len(marks)


def measure(name: str, wynot: list[str], workdir: Path) -> dict[str, str]:
    case = make_repo.load_case(name)
    repo = make_repo.make_repo(name, workdir / name)
    test = test_argv(case)
    options = list(case.get("git_bisect_options", []))
    bisect_first_bad, bisect_tests = git_bisect_run(repo, workdir / f"{name}-clone", test,
                                                    options)
    started = time.monotonic()
    done = subprocess.run([*wynot, "-C", str(repo), "--json", "--no-cache", "-q",
                           "good", "bad", "--", *test], capture_output=True, text=True,
                          check=False)
    elapsed = time.monotonic() - started
    if done.returncode != 0:
        raise SystemExit(f"wynot exited {done.returncode} on {name}:\n{done.stderr[-2000:]}")
    report = json.loads(done.stdout)
    phase = report["commit_phase"]
    ran = [t for t in report["tests"] if t["ran"]]
    answer = ", ".join(f"{c['label']} ({c['role']})" for c in report["changes"])
    return {
        "sample": name,
        "commits": str(phase["commits"]),
        "bisect tests": str(bisect_tests),
        "wynot commit": str(sum(1 for t in ran if t["phase"] == "commits")),
        "wynot total": str(len(ran)),
        "same commit": "yes" if phase["first_bad"]["sha"] == bisect_first_bad else "NO",
        "answer": answer,
        "time": f"{elapsed:.1f} s",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wynot", default="wynot", help="the wynot command (default: wynot)")
    parser.add_argument("--samples", default=",".join(make_repo.sample_names("history")))
    args = parser.parse_args(argv)
    wynot = shlex.split(args.wynot)
    rows = []
    with tempfile.TemporaryDirectory(prefix="wynot-bench-history-") as tmp:
        for name in args.samples.split(","):
            print(f"{name} ...", file=sys.stderr, flush=True)
            rows.append(measure(name, wynot, Path(tmp)))
    print_table(rows)
    return 0


def print_table(rows: list[dict[str, str]]) -> None:
    """Rows as a Markdown table, columns in the first row's order."""
    columns = list(rows[0])
    print("| " + " | ".join(columns) + " |")
    print("| " + " | ".join("---" for _ in columns) + " |")
    for row in rows:
        print("| " + " | ".join(row[c] for c in columns) + " |")


if __name__ == "__main__":
    sys.exit(main())
