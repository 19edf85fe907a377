"""-j N against -j 1: wall time, answer and decisive tests, with a test that sleeps 1 s.

    python benchmarks/bench_parallel.py hunks REPO [REPO...] [--jobs 1,4,8] [--repeat R]
                                         [--markdown]
    python benchmarks/bench_parallel.py commits [--commits 300] [--jobs 1,3,7]
    python benchmarks/bench_parallel.py timeline REPO [--jobs 8]

``hunks``: each REPO has tags ``good`` and ``bad`` and a test command in
``REPO.json`` (benchmarks/synthetic/generate.py) or ``wynot_case_test.py``
(benchmarks/real/build_case.py). The test command becomes
``sh -c 'sleep 1; exec TEST'`` and wynot runs with ``--no-cache`` once per
-j value (``--repeat R``: R times, the -j values taking turns; the median
wall time and its range are shown). Printed per -j: wall time (until wynot
exits) and its ratio to -j 1, the time until the JSON report was complete on
stdout and its ratio, whether the answer and the sequence of decisive tests (every answer the
search used, in order: phase, configuration, outcome) are those of -j 1 in
every run, how many runs were speculative (started ahead, then left unused
or cancelled; medians), and the load average (1 minute) when the runs
started (mean).

``commits``: a linear history of N commits whose test starts failing at a
commit; the multisection's rounds and tests for each width, averaged over
every position of the first bad commit (the pure function), beside
``git bisect run`` on the real repository for a few positions.

Run it with ``PYTHONDONTWRITEBYTECODE`` unset, as an installed wynot runs: with
it set every wynot (and every Python test) compiles its modules at each start,
about 0.3 s of a 0.6 s start-up (docs/performance.md).

``timeline``: one run of REPO as ``hunks`` makes it, with progress: each
line wynot prints (a worker starting a run, an answer used, the analysis'
stages) after the seconds since the start, then the exit.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from wynot.bisect import multisect  # noqa: E402
from wynot.cache import log_ids  # noqa: E402
from wynot.outcome import Outcome  # noqa: E402

WYNOT = [sys.executable, "-m", "wynot"]


def test_command(repo: Path) -> list[str]:
    meta = repo.with_suffix(".json")
    if meta.exists():
        test = json.loads(meta.read_text())["test"]
    else:
        test = ["python3", "wynot_case_test.py"]
    return ["sh", "-c", f"sleep 1; exec {shlex.join(test)}"]


def run_json(argv: list[str], cwd: Path) -> tuple[int, str, str, float, float]:
    """Run ``argv``; its exit code, stdout, stderr, and the seconds until its JSON
    report was complete on stdout and until it exited."""
    started = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    errors: list[bytes] = []
    reader = threading.Thread(target=lambda: errors.append(proc.stderr.read()))  # type: ignore[union-attr]
    reader.start()
    out, reported = b"", None
    while chunk := os.read(proc.stdout.fileno(), 1 << 16):  # type: ignore[union-attr]
        out += chunk
        if reported is None and out.rstrip().endswith(b"}"):
            try:
                json.loads(out)
            except ValueError:
                continue
            reported = time.monotonic() - started
    proc.wait()
    reader.join()
    exited = time.monotonic() - started
    return proc.returncode, out.decode(), b"".join(errors).decode(), reported or exited, exited


def run_hunks(repo: Path, jobs: int) -> dict[str, object]:
    load = os.getloadavg()[0]
    code, stdout, stderr, reported, wall = run_json(
        [*WYNOT, "good", "bad", "--json", "--no-cache", "-q", "-j", str(jobs), "--",
         *test_command(repo)], repo)
    if code not in (0, 4):
        raise SystemExit(f"{repo} -j {jobs}: exit {code}\n{stderr}")
    report = json.loads(stdout)
    entries = [json.loads(line) for line in
               (Path(report["log"]) / "log.jsonl").read_text().splitlines()]
    configurations: dict[int, frozenset[int]] = {}
    for e in entries:
        if "number" in e:
            configurations[e["number"]] = log_ids(e["changes"], configurations) or frozenset()
    decisive = [(e["phase"], str(sorted(configurations[e["number"]])), e["outcome"])
                for e in entries if e["phase"] not in ("speculative", "verify")]
    speculative = [e for e in entries if e["phase"] == "speculative"]
    return {"wall": wall, "reported": reported, "load": load,
            "answer": sorted(c["label"] for c in report["changes"]),
            "decisive": decisive,
            "ran": sum(1 for e in entries if e.get("source") == "run"),
            "cancelled": sum(1 for e in speculative if e["source"] == "cancelled"),
            "unused": sum(1 for e in speculative if e["source"] == "unused")}


def bench_hunks(repos: list[Path], jobs: list[int], markdown: bool, repeat: int = 1) -> None:
    if markdown:
        print("| repository | -j | wall (s) | × -j 1 | report (s) | × -j 1 | same answer "
              "| same decisive tests | decisive tests | runs used | unused | cancelled | load |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: "
              "| ---: |")
    for repo in repos:
        # the -j values take turns, so that each meets the same load as the others
        rows: dict[int, list[dict[str, object]]] = {j: [] for j in jobs}
        for _ in range(repeat):
            for j in jobs:
                rows[j].append(run_hunks(repo, j))
        base = rows[jobs[0]][0]
        base_wall = statistics.median(float(r["wall"]) for r in rows[jobs[0]])  # type: ignore[arg-type]
        base_report = statistics.median(float(r["reported"]) for r in rows[jobs[0]])  # type: ignore[arg-type]
        for j in jobs:
            runs = rows[j]
            walls = sorted(float(r["wall"]) for r in runs)  # type: ignore[arg-type]
            wall = statistics.median(walls)
            shown = f"{wall:.1f}" if repeat == 1 else f"{wall:.1f} ({walls[0]:.1f}-{walls[-1]:.1f})"
            reported = statistics.median(float(r["reported"]) for r in runs)  # type: ignore[arg-type]
            row = runs[0]
            cells = [repo.name, j, shown, f"{wall / base_wall:.2f}", f"{reported:.1f}",
                     f"{reported / base_report:.2f}",
                     all(r["answer"] == base["answer"] for r in runs),
                     all(r["decisive"] == base["decisive"] for r in runs),
                     len(row["decisive"]), row["ran"],  # type: ignore[arg-type]
                     statistics.median(int(r["unused"]) for r in runs),  # type: ignore[call-overload]
                     statistics.median(int(r["cancelled"]) for r in runs),  # type: ignore[call-overload]
                     f"{statistics.mean(float(r['load']) for r in runs):.1f}"]  # type: ignore[arg-type]
            if markdown:
                print("| " + " | ".join(map(str, cells)) + " |", flush=True)
            else:
                print(*cells, sep="\t", flush=True)


def make_history(dest: Path, commits: int, first_bad: int) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.com",
           "GIT_AUTHOR_DATE": "2026-01-01T00:00:00", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00"}
    subprocess.run(["git", "init", "-q", "-b", "main", str(dest)], check=True)
    script = "import pathlib,sys; sys.exit(int(pathlib.Path('value').read_text()) > 0)\n"
    (dest / "test.py").write_text(script)
    # fast-import: one commit per value, so 300 commits take a moment, not a minute
    lines = []
    for i in range(commits):
        value = "1" if i >= first_bad else "0"
        lines += ["commit refs/heads/main", f"mark :{i + 1}",
                  f"committer b <b@example.com> {1767225600 + i} +0000", "data 2", f"{i:02d}"[-2:]]
        if i:
            lines.append(f"from :{i}")
        lines += [f"M 644 inline value\ndata {len(value)}\n{value}",
                  f"M 644 inline test.py\ndata {len(script)}\n{script}", ""]
    subprocess.run(["git", "-C", str(dest), "fast-import", "--quiet"],
                   input="\n".join(lines).encode(), check=True, env=env)
    subprocess.run(["git", "-C", str(dest), "checkout", "-q", "-f", "main"], check=True)
    subprocess.run(["git", "-C", str(dest), "tag", "good", "main~" + str(commits - 1)],
                   check=True)
    subprocess.run(["git", "-C", str(dest), "tag", "bad", "main"], check=True)


def git_bisect_tests(repo: Path) -> int:
    subprocess.run(["git", "-C", str(repo), "bisect", "start", "bad", "good"], check=True,
                   capture_output=True)
    proc = subprocess.run(["git", "-C", str(repo), "bisect", "run", sys.executable, "test.py"],
                          check=True, capture_output=True, text=True)
    subprocess.run(["git", "-C", str(repo), "bisect", "reset"], check=True,
                   capture_output=True)
    return proc.stdout.count("running")


def bench_commits(commits: int, jobs: list[int]) -> None:
    print(f"| width (-j) | rounds (mean) | rounds (max) | tests (mean) | bound "
          f"ceil(log_(N+1)({commits - 1})) |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for width in jobs:
        rounds, tests = [], []
        for first_bad in range(1, commits):
            found = multisect(commits, lambda picks, fb=first_bad: [
                Outcome.FAIL if i >= fb else Outcome.PASS for i in picks], width)
            assert found.first_bad == first_bad
            rounds.append(found.rounds)
            tests.append(len(found.tested))
        bound = 0
        while (width + 1) ** bound < commits - 1:
            bound += 1
        print(f"| {width} | {statistics.mean(rounds):.2f} | {max(rounds)} | "
              f"{statistics.mean(tests):.2f} | {bound} |")
    with tempfile.TemporaryDirectory() as tmp:
        for first_bad in (37, 150, 251):
            repo = Path(tmp) / f"h{first_bad}"
            make_history(repo, commits, first_bad)
            print(f"git bisect run, first bad commit {first_bad} of {commits}: "
                  f"{git_bisect_tests(repo)} tests")
            for j in jobs:
                started = time.monotonic()
                proc = subprocess.run(
                    [*WYNOT, "good", "bad", "--json", "--no-cache", "-q", "--strategy",
                     "commits", "-j", str(j), "--", "sh", "-c",
                     f"sleep 1; exec {shlex.quote(sys.executable)} test.py"],
                    cwd=repo, capture_output=True, text=True, check=False)
                report = json.loads(proc.stdout)
                ran = sum(1 for t in report["tests"] if t["phase"] == "commits")
                print(f"  wynot -j {j}: {ran} commit tests, "
                      f"{time.monotonic() - started:.1f} s wall (test sleeps 1 s)")


def timeline(repo: Path, jobs: int) -> None:
    started = time.monotonic()
    proc = subprocess.Popen([*WYNOT, "good", "bad", "--no-cache", "-j", str(jobs), "--",
                             *test_command(repo)], cwd=repo, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    for line in proc.stderr:
        print(f"{time.monotonic() - started:6.2f}  {line.rstrip()}", flush=True)
    proc.wait()
    print(f"{time.monotonic() - started:6.2f}  exit {proc.returncode}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    hunks = sub.add_parser("hunks")
    hunks.add_argument("repos", nargs="+", type=Path)
    hunks.add_argument("--jobs", default="1,4,8")
    hunks.add_argument("--markdown", action="store_true")
    hunks.add_argument("--repeat", type=int, default=1,
                       help="runs of each -j (taking turns); the median wall time is shown")
    commits = sub.add_parser("commits")
    commits.add_argument("--commits", type=int, default=300)
    commits.add_argument("--jobs", default="1,3,7")
    line = sub.add_parser("timeline")
    line.add_argument("repo", type=Path)
    line.add_argument("--jobs", default="8")
    args = ap.parse_args()
    jobs = [int(j) for j in args.jobs.split(",")]
    if args.what == "timeline":
        timeline(args.repo, jobs[0])
    elif args.what == "hunks":
        bench_hunks(args.repos, jobs, args.markdown, args.repeat)
    else:
        bench_commits(args.commits, jobs)


if __name__ == "__main__":
    main()
