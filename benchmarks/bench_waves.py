"""Where the wall time of a -j N run goes: its runs on a timeline, its rounds and waves.

    python benchmarks/bench_waves.py REPO [REPO...] [--jobs 1,8] [--runs]

Each REPO as for ``bench_parallel.py hunks`` (tags ``good`` and ``bad``, the
test command after a one-second sleep, ``--no-cache``). wynot runs once per
-j value; its run log gives each run's worker, start and end (the ``started``
and ``ended`` fields), and wynot's own CPU time is read in its process as it
exits (the tests' CPU time is that of its children). Printed per run:

* *start-up*: from the start of wynot to the start of its first run;
* *rounds*: the longest chain of runs used as evidence (decisive, or the
  verification) each of which started after the one before ended: the
  number of test durations the run needed one after the other;
* *idle*: worker-seconds with no run, from the first run's start to the
  last run's end (N workers);
* *< cores*: seconds, in that span, with fewer runs under way than the
  machine has cores, and how many such periods (*waves* of idle cores);
* *tail*: from the end of the last run used to the exit (labels from runs
  already made, the report, the worktrees' removal);
* *wynot CPU* and *tests CPU* (seconds); *runs*: used, unused, cancelled.

``--runs`` also prints every run: start and end (seconds since wynot
started), worker, phase (speculative runs as ``-``) and size.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_parallel import test_command  # noqa: E402

# wynot's CLI, reporting its own CPU time (not its children's) on stderr as it exits
_CPU = ("import atexit, resource, sys\n"
        "def _cpu():\n"
        "    u = resource.getrusage(resource.RUSAGE_SELF)\n"
        "    sys.stderr.write(f'@cpu {u.ru_utime + u.ru_stime:.3f}\\n')\n"
        "atexit.register(_cpu)\n"
        "from wynot.cli import main\n"
        "main()\n")


WAVE_SECONDS = 0.1  # shorter dips below the cores are a worker between two runs


@dataclass(frozen=True)
class Run:
    start: float  # seconds since wynot started
    end: float
    worker: str
    phase: str  # "premise", "search", ..., "-" for a speculative run not used
    size: int
    used: bool  # its outcome is a record (evidence, or the verification)


def runs_of(log: Path, origin: float) -> list[Run]:
    """The runs of a run log that carry times, relative to ``origin`` (epoch seconds)."""
    found = []
    for line in log.read_text().splitlines():
        e = json.loads(line)
        if "started" not in e:
            continue
        used = e.get("source") == "run"
        changes = e.get("changes")
        size = len(changes) if isinstance(changes, list) else -1
        found.append(Run(e["started"] - origin, e["ended"] - origin, e.get("worker", ""),
                         e["phase"] if used else "-", size, used))
    return sorted(found, key=lambda r: r.start)


def rounds(runs: list[Run]) -> int:
    """The longest chain of used runs, each started after the one before it ended."""
    chain, end = 0, float("-inf")
    for run in sorted((r for r in runs if r.used), key=lambda r: r.end):
        if run.start >= end - 0.05:  # started once the one before was in
            chain, end = chain + 1, run.end
    return chain


def busy_profile(runs: list[Run], workers: int, cores: int) -> tuple[float, float, int]:
    """(idle worker-seconds, seconds with fewer than ``cores`` runs under way, how many
    such periods of :data:`WAVE_SECONDS` or more), from the first run's start to the
    last one's end."""
    events = sorted([(r.start, 1) for r in runs] + [(r.end, -1) for r in runs])
    spans: list[tuple[float, int]] = []  # (seconds, runs under way)
    busy, at = 0, events[0][0] if events else 0.0
    for when, step in events:
        if when > at:
            spans.append((when - at, busy))
        busy, at = busy + step, when
    idle = sum(span * max(0, workers - busy) for span, busy in spans)
    short = sum(span for span, busy in spans if busy < cores)
    waves, wave = 0, 0.0
    for span, busy in [*spans, (0.0, cores)]:
        if busy < cores:
            wave += span
        else:
            waves, wave = waves + (wave >= WAVE_SECONDS), 0.0
    return idle, short, waves


def measure(repo: Path, jobs: int) -> dict[str, object]:
    origin = time.time()
    proc = subprocess.run([sys.executable, "-c", _CPU, "good", "bad", "--json", "--no-cache",
                           "-q", "-j", str(jobs), "--", *test_command(repo)],
                          cwd=repo, capture_output=True, text=True, check=False)
    wall = time.time() - origin
    if proc.returncode not in (0, 4):
        raise SystemExit(f"{repo} -j {jobs}: exit {proc.returncode}\n{proc.stderr}")
    usage = os.times()
    cpu = float(proc.stderr.rsplit("@cpu ", 1)[1].split()[0])
    report = json.loads(proc.stdout)
    found = runs_of(Path(report["log"]) / "log.jsonl", origin)
    entries = [json.loads(line) for line in (Path(report["log"]) / "log.jsonl").open()]
    speculative = [e for e in entries if e["phase"] == "speculative"]
    return {"wall": wall, "cpu": cpu, "runs": found, "load": os.getloadavg()[0],
            "children": usage.children_user + usage.children_system,
            "unused": sum(e["source"] == "unused" for e in speculative),
            "cancelled": sum(e["source"] == "cancelled" for e in speculative)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repos", nargs="+", type=Path)
    ap.add_argument("--jobs", default="1,8")
    ap.add_argument("--runs", action="store_true", help="print every run too")
    args = ap.parse_args()
    cores = len(os.sched_getaffinity(0))
    print("| repository | -j | wall (s) | start-up (s) | rounds | idle (worker-s) "
          f"| < {cores} cores busy (s, waves) | tail (s) | wynot CPU (s) | tests CPU (s) "
          "| runs used, unused, cancelled | load |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
    for repo in args.repos:
        for jobs in (int(j) for j in args.jobs.split(",")):
            children = os.times().children_user + os.times().children_system
            m = measure(repo, jobs)
            found: list[Run] = m["runs"]  # type: ignore[assignment]
            idle, short, waves = busy_profile(found, jobs, cores)
            used = [r for r in found if r.used]
            tail = float(m["wall"]) - max(r.end for r in used)  # type: ignore[arg-type]
            print(f"| {repo.name} | {jobs} | {m['wall']:.1f} | {found[0].start:.2f} "
                  f"| {rounds(found)} | {idle:.1f} | {short:.1f} ({waves}) | {tail:.2f} "
                  f"| {m['cpu']:.2f} | {float(m['children']) - children - float(m['cpu']):.1f} "  # type: ignore[arg-type]
                  f"| {len(used)}, {m['unused']}, {m['cancelled']} | {m['load']:.1f} |",
                  flush=True)
            if args.runs:
                for r in found:
                    print(f"    {r.start:6.2f} {r.end:6.2f} {r.worker:>3} {r.phase:8} {r.size}")


if __name__ == "__main__":
    main()
