#!/usr/bin/env python3
"""How wynot's own cost grows with the size of the diff (start-up, memory, per-test gap).

    python benchmarks/scale/bench_scale.py [--sizes 1000,5000,20000,100000]
        [--workdir /tmp/wynot-scale] [--mode default|flat] [--rerun] [--timeout 1800]
        [--repeat 1] [--json FILE] [--keep-analysis] [--keep-worktrees] [--jobs 1]

For each size it generates (or reuses, in ``--workdir``) a repository with
``benchmarks/synthetic/generate.py --hunks N --dirs N/50 --seed 1 --no-verify``
(100,000 hunks: about 160 s of CPU; sizes above ``--generate-up-to`` are
``--copies`` copies side by side of a smaller one, ``synNxC``, whose identical
blobs would flatter any reuse of a file's reading) and measures, in the same run:

    git diff     wall time of ``git diff -M -U3 good bad`` (its output read and dropped)
    first test   from starting wynot to the start of its first test (the premise, GOOD)
    first search from starting wynot to the start of its first search test (the third run)
    peak RSS     ``ru_maxrss`` of the wynot process (``os.wait4``)
    CPU          user + system time of wynot and everything it ran (tests included);
                 less sensitive than wall time to a loaded machine. Also: the CPU
                 time of git diff, and wynot's own (with the git commands it ran)
                 when its first search test starts (the probe reads
                 /proc/$PPID/stat), and their ratio; and the median time wynot's
                 main thread was on a CPU during the one-file gaps
                 (/proc/$PPID/schedstat, in ns): what the gap would be on an idle
                 machine; and the time that thread was on a CPU until the first
                 search test (without the forked readers and git)
    gap          median wall time between one test's end and the next one's start,
                 over the tests before which wynot wrote exactly one file ("gap 1
                 file"; the probe counts the files newer than the previous test's
                 end with ``find -newer``), and over all consecutive tests ("gap all")
    rerun        with ``--rerun``: wynot again with its state directory full, time
                 to the start of its first real test (everything before the final
                 verification is answered from the cache), and its total time

Run it with ``PYTHONDONTWRITEBYTECODE`` unset, as an installed wynot runs: with
it set every wynot (and every Python test) compiles its modules at each start,
about 0.3 s of a 0.6 s start-up (docs/performance.md).

The test command is trivial, so that nothing but wynot costs time: a bash
script that notes ``$EPOCHREALTIME`` when it starts and ends, and fails when
the cause hunk's most distinctive added line is in its file (``grep -F``). The
gap therefore includes bash's own start (about 1-2 ms). The first run starts
with an empty state directory (``<git-dir>/wynot`` is removed).

With ``--repeat N`` each size is measured N times (one run after the other)
and every column is the median of the N runs (on a shared machine the CPU
columns are the steadier ones).

``--mode default`` runs wynot with its default options; ``--mode flat`` with
``--group none --no-predict --no-resolve``. ``--autocrlf`` runs it in a clone
of each repository (``syn<N>-autocrlf``) whose configuration sets
``core.autocrlf=true``, where every file wynot writes goes through
``git checkout-index`` as a checkout would write it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
GENERATE = ROOT / "benchmarks" / "synthetic" / "generate.py"
MODES = {"default": [], "flat": ["--group", "none", "--no-predict", "--no-resolve"]}


@dataclass
class Row:
    hunks: int
    files: int
    git_diff: float
    git_diff_cpu: float
    first_test: float | None
    first_search: float | None
    first_search_cpu: float | None  # wynot's CPU seconds when its first search test starts
    peak_rss_mib: float
    cpu: float  # user + system seconds of wynot and the processes it waited for
    gap_one_file_ms: float | None
    gap_one_file_count: int
    gap_all_ms: float | None
    gap_one_file_cpu_ms: float | None  # wynot's main thread on CPU during those gaps
    tests_run: int
    total: float
    exit: int
    rerun_first_test: float | None = None
    rerun_first_test_cpu: float | None = None
    rerun_total: float | None = None
    rerun_exit: int | None = None
    ratio: float | None = None  # first search / git diff, wall times of the same run
    cpu_ratio: float | None = None  # the same in CPU time
    # wynot's main thread on a CPU (/proc/PID/schedstat) until its first search test:
    # without the forked readers and git, what work beside them costs the interpreter
    first_search_main_cpu: float | None = None


def ensure_repo(workdir: Path, hunks: int, timeout: float, copies: int = 1) -> Path:
    """The repository of ``hunks`` hunks: generated, or ``copies`` copies side by side
    of a generated repository of ``hunks / copies`` hunks."""
    repo = workdir / (f"syn{hunks}" if copies == 1 else f"syn{hunks}x{copies}")
    if (repo / ".git").exists():
        return repo
    if copies > 1:
        combine(ensure_repo(workdir, hunks // copies, timeout), repo, copies)
        return repo
    subprocess.run([sys.executable, str(GENERATE), str(repo), "--hunks", str(hunks),
                    "--dirs", str(max(2, hunks // 50)), "--seed", "1", "--no-verify"],
                   check=True, timeout=timeout, stdout=subprocess.DEVNULL)
    return repo


def combine(source: Path, repo: Path, copies: int) -> None:
    """``copies`` copies of source's good and bad trees, under c0/, c1/, ...: a diff
    ``copies`` times as large, with the same kinds of changes (the cause is c0's)."""
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(source), str(repo)], check=True)
    env = {**os.environ, "GIT_AUTHOR_NAME": "Synthetic Developer",
           "GIT_AUTHOR_EMAIL": "synthetic@example.com", "GIT_AUTHOR_DATE": "2026-01-01T00:00Z",
           "GIT_COMMITTER_NAME": "Synthetic Developer",
           "GIT_COMMITTER_EMAIL": "synthetic@example.com",
           "GIT_COMMITTER_DATE": "2026-01-01T00:00Z", "GIT_INDEX_FILE": str(repo / "combine")}
    parent: list[str] = []
    for side in ("good", "bad"):
        (repo / "combine").unlink(missing_ok=True)
        for n in range(copies):
            subprocess.run(["git", "-C", str(repo), "read-tree", f"--prefix=c{n}/",
                            f"{side}^{{tree}}"], check=True, env=env)
        tree = _out(["git", "-C", str(repo), "write-tree"], env)
        commit = _out(["git", "-C", str(repo), "commit-tree", tree, *parent, "-m", side], env)
        subprocess.run(["git", "-C", str(repo), "tag", "-f", side, commit], check=True,
                       stdout=subprocess.DEVNULL)
        parent = ["-p", commit]
    (repo / "combine").unlink(missing_ok=True)
    case = json.loads(source.with_suffix(".json").read_text())
    case.update(hunks=case["hunks"] * copies, files=case["files"] * copies,
                expected=[f"c0/{case['expected'][0]}"], copies=copies)
    repo.with_suffix(".json").write_text(json.dumps(case, indent=2) + "\n")


def _out(argv: list[str], env: dict[str, str]) -> str:
    return subprocess.run(argv, check=True, env=env, capture_output=True,
                          text=True).stdout.strip()


def time_git_diff(repo: Path) -> tuple[float, float]:
    """Wall and CPU time of git diff good..bad, its output read through a pipe."""
    start = time.perf_counter()
    proc = subprocess.Popen(["git", "-C", str(repo), "diff", "-M", "-U3", "--no-color",
                             "good", "bad"], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    while proc.stdout.read(1 << 20):
        pass
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def cause_line(repo: Path, label: str) -> tuple[str, str]:
    """(path, a line the cause hunk adds that GOOD's file does not hold)."""
    path, _, where = label.rpartition(":")
    start, length = where.lstrip("-").split(",")
    patch = subprocess.run(["git", "-C", str(repo), "diff", "-M", "-U3", "good", "bad", "--",
                            path], check=True, capture_output=True, text=True).stdout
    good = subprocess.run(["git", "-C", str(repo), "show", f"good:{path}"], check=True,
                          capture_output=True, text=True).stdout.splitlines()
    header = re.compile(rf"^@@ -{start},{length} ")
    added: list[str] = []
    inside = False
    for line in patch.splitlines():
        if line.startswith("@@"):
            inside = bool(header.match(line))
        elif inside and line.startswith("+"):
            added.append(line[1:])
    fresh = [line for line in added if line.strip() and line not in good]
    if not fresh:
        raise SystemExit(f"no distinctive added line in the cause hunk {label}")
    return path, max(fresh, key=len)


def write_probe(workdir: Path, path: str, line: str) -> Path:
    """The test command: marks its start (with the number of files written since
    the previous test ended) and its end, and fails when the cause is applied."""
    probe = workdir / "probe.sh"
    marks, stamp = workdir / "marks", shlex.quote(str(workdir / "stamp"))
    probe.write_text(
        "#!/bin/bash\n"
        "t=$EPOCHREALTIME\n"
        "c=$(awk '{print $14 + $15 + $16 + $17}' /proc/$PPID/stat)\n"
        f"n=$(find . -path ./.git -prune -o \\( -type f -o -type l \\) -newer {stamp} -print"
        " | wc -l)\n"
        "read -r r _ < /proc/$PPID/schedstat\n"
        f"echo \"s $t $n $c $r\" >> {shlex.quote(str(marks))}\n"
        f"if grep -qF -- {shlex.quote(line)} {shlex.quote(path)}; then x=1; else x=0; fi\n"
        f"touch {stamp}\n"
        "t=$EPOCHREALTIME\n"
        "read -r q _ < /proc/$PPID/schedstat\n"
        f"echo \"e $t $q\" >> {shlex.quote(str(marks))}\n"
        "exit $x\n", encoding="utf-8")
    return marks


@dataclass
class Marks:
    starts: list[float]
    ends: list[float]
    written: list[int]  # files written before each test (since the previous one ended)
    cpu: list[float]  # wynot's CPU seconds (with the children it waited for) at each start
    run_start: list[int]  # ns wynot's main thread had run when each test started
    run_end: list[int]  # ... and when it ended (/proc/PID/schedstat)


def run_wynot(repo: Path, workdir: Path, mode: str, timeout: float, keep_worktrees: bool = False,
              jobs: int = 1) -> tuple[float, int, float, float, Marks]:
    """Run wynot once (with ``--keep-worktrees`` if asked, with ``-j jobs``). Returns
    (start, exit code, peak RSS in MiB, CPU seconds, marks)."""
    marks = workdir / "marks"
    marks.unlink(missing_ok=True)
    (workdir / "stamp").touch()
    kept = ["--keep-worktrees"] if keep_worktrees else []
    argv = [sys.executable, "-m", "wynot", "--json", "-q", *MODES[mode], *kept, "-j", str(jobs),
            "good", "bad", "--",
            "bash", str(workdir / "probe.sh")]
    with (workdir / "report.json").open("wb") as out, \
            (workdir / "stderr.txt").open("wb") as err:
        start = time.time()
        proc = subprocess.Popen(argv, cwd=repo, stdout=out, stderr=err,
                                start_new_session=True)
        timer = threading.Timer(timeout, lambda: os.killpg(proc.pid, signal.SIGKILL))
        timer.start()
        _, status, usage = os.wait4(proc.pid, 0)
        timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
    seen = Marks([], [], [], [], [], [])
    for entry in marks.read_text().splitlines() if marks.exists() else []:
        kind, stamp, *count = entry.split()
        if kind == "s":
            seen.starts.append(float(stamp))
            seen.written.append(int(count[0]))
            seen.cpu.append(int(count[1]) / os.sysconf("SC_CLK_TCK"))
            seen.run_start.append(int(count[2]))
        else:
            seen.ends.append(float(stamp))
            seen.run_end.append(int(count[0]))
    return (start, proc.returncode, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime,
            seen)


def clear_state(state: Path, keep_analysis: bool) -> None:
    """An empty state directory; with ``keep_analysis`` only the outcome cache and the
    run logs go (the search and its gaps without the wait for the analysis)."""
    if not keep_analysis:
        shutil.rmtree(state, ignore_errors=True)
        return
    for name in ("cache.sqlite", "cache.sqlite-wal", "cache.sqlite-shm"):
        (state / name).unlink(missing_ok=True)
    shutil.rmtree(state / "runs", ignore_errors=True)


def autocrlf_clone(repo: Path) -> Path:
    """A clone of ``repo`` (tags good and bad included) with ``core.autocrlf=true``."""
    clone = repo.with_name(f"{repo.name}-autocrlf")
    if not (clone / ".git").exists():
        subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "config", "core.autocrlf", "true"], check=True)
    return clone


def measure(workdir: Path, hunks: int, mode: str, rerun: bool, timeout: float,
            copies: int, autocrlf: bool = False, keep_analysis: bool = False,
            keep_worktrees: bool = False, jobs: int = 1) -> Row:
    repo = ensure_repo(workdir, hunks, timeout, copies)
    case = json.loads(repo.with_suffix(".json").read_text())
    if autocrlf:
        repo = autocrlf_clone(repo)
    here = workdir / f"run{hunks}"
    here.mkdir(exist_ok=True)
    path, line = cause_line(repo, case["expected"][0])
    write_probe(here, path, line)
    clear_state(repo / ".git" / "wynot", keep_analysis)
    git_diff, git_cpu = time_git_diff(repo)
    subprocess.run(["git", "-C", str(repo), "worktree", "prune"], check=True)  # kept ones gone
    start, code, rss, cpu, seen = run_wynot(repo, here, mode, timeout, keep_worktrees, jobs)
    starts, ends = seen.starts, seen.ends
    total = (ends[-1] if ends else time.time()) - start
    gaps = [b - a for a, b in zip(ends, starts[1:], strict=False)]
    one = [g for g, n in zip(gaps, seen.written[1:], strict=False) if n == 1]
    cpu_gaps = [(b - a) / 1e9 for a, b in zip(seen.run_end, seen.run_start[1:], strict=False)]
    cpu_one = [g for g, n in zip(cpu_gaps, seen.written[1:], strict=False) if n == 1]
    row = Row(hunks=case["hunks"], files=case["files"], git_diff=git_diff, git_diff_cpu=git_cpu,
              first_search_cpu=seen.cpu[2] if len(seen.cpu) > 2 else None,
              first_test=starts[0] - start if starts else None,
              first_search=starts[2] - start if len(starts) > 2 else None,
              peak_rss_mib=rss, cpu=cpu, gap_one_file_ms=_ms(one), gap_one_file_count=len(one),
              gap_all_ms=_ms(gaps), gap_one_file_cpu_ms=_ms(cpu_one), tests_run=len(starts),
              total=total, exit=code)
    if row.first_search and row.git_diff:
        row.ratio = row.first_search / row.git_diff
    if row.first_search_cpu and row.git_diff_cpu:
        row.cpu_ratio = row.first_search_cpu / row.git_diff_cpu
    if len(seen.run_start) > 2:
        row.first_search_main_cpu = seen.run_start[2] / 1e9
    if rerun:
        again, row.rerun_exit, _, _, seen = run_wynot(repo, here, mode, timeout, keep_worktrees,
                                                      jobs)
        row.rerun_first_test = seen.starts[0] - again if seen.starts else None
        row.rerun_first_test_cpu = seen.cpu[0] if seen.cpu else None
        row.rerun_total = (seen.ends[-1] if seen.ends else time.time()) - again
    return row


def median_row(rows: list[Row]) -> Row:
    """Each field's median over ``rows`` (the runs of one size); None where a run had none."""
    merged = {}
    for name, value in asdict(rows[0]).items():
        values = [getattr(r, name) for r in rows]
        known = [v for v in values if v is not None]
        if not isinstance(value, int | float) or len(known) < len(values):
            merged[name] = value if len(known) == len(values) else None
        else:
            middle = statistics.median(known)
            merged[name] = type(value)(middle) if isinstance(value, int) else middle
    return Row(**merged)


def _ms(values: list[float]) -> float | None:
    return round(statistics.median(values) * 1000, 1) if values else None


def markdown(rows: list[Row]) -> str:
    head = ("| hunks | files | git diff | first test | first search test | x git diff | "
            "peak RSS | CPU | gap, 1 file (n) | gap, all | tests | total | exit | "
            "rerun: first test | CPU: git diff | CPU: to first search test | CPU: x git diff | "
            "CPU: gap, 1 file | CPU: rerun, first test | CPU: main thread to first search |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        ratio = f"{r.ratio:.0f}" if r.ratio else "-"
        cpu_ratio = f"{r.cpu_ratio:.0f}" if r.cpu_ratio else "-"
        lines.append(
            f"| {r.hunks:,} | {r.files:,} | {r.git_diff:.2f} s | {_s(r.first_test)} | "
            f"{_s(r.first_search)} | {ratio} | {r.peak_rss_mib:,.0f} MiB | {r.cpu:.1f} s | "
            f"{_v(r.gap_one_file_ms)} ms ({r.gap_one_file_count}) | {_v(r.gap_all_ms)} ms | "
            f"{r.tests_run} | {r.total:.1f} s | {r.exit} | {_s(r.rerun_first_test)} | "
            f"{r.git_diff_cpu:.2f} s | {_s(r.first_search_cpu)} | {cpu_ratio} | "
            f"{_v(r.gap_one_file_cpu_ms)} ms | {_s(r.rerun_first_test_cpu)} | "
            f"{_s(r.first_search_main_cpu)} |")
    return "\n".join(lines)


def _s(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f} s"


def _v(value: float | None) -> str:
    return "-" if value is None else f"{value}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,5000,20000,100000")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/wynot-scale"))
    parser.add_argument("--mode", choices=sorted(MODES), default="default")
    parser.add_argument("--rerun", action="store_true", help="also time a rerun, cache full")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per wynot run")
    parser.add_argument("--json", type=Path, help="also write the rows to this file")
    parser.add_argument("--repeat", type=int, default=1, help="runs per size (medians)")
    parser.add_argument("--generate-up-to", type=int, default=100000,
                        help="larger sizes are --copies copies of a generated repository "
                             "(identical blobs across the copies flatter any reuse of a "
                             "file's reading)")
    parser.add_argument("--copies", type=int, default=5)
    parser.add_argument("--keep-analysis", action="store_true",
                        help="keep the analysis stored by an earlier run (first test figures"
                             " are then those of a rerun; the gaps are the search's)")
    parser.add_argument("--keep-worktrees", action="store_true",
                        help="run wynot with --keep-worktrees (the rerun reuses the first"
                             " run's worktree)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="run wynot with -j JOBS (its first search test is then the"
                             " third run to start, speculative or not)")
    parser.add_argument("--autocrlf", action="store_true",
                        help="run in a clone configured with core.autocrlf=true")
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        copies = args.copies if size > args.generate_up_to else 1
        runs = []
        for _ in range(args.repeat):
            runs.append(measure(args.workdir, size, args.mode, args.rerun, args.timeout, copies,
                                args.autocrlf, args.keep_analysis, args.keep_worktrees,
                                args.jobs))
            print(markdown(runs[-1:]).splitlines()[-1], file=sys.stderr, flush=True)
        rows.append(median_row(runs))
    print(markdown(rows))
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=2) + "\n")


if __name__ == "__main__":
    main()
