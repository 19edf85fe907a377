"""Run wynot on a benchmark repository and score its answer against the ground truth.

Shared by ``benchmarks/opaque/compare.py`` and ``benchmarks/namelink/compare.py``
(stdlib only; wynot runs as a subprocess, so any branch's ``wynot`` can be measured
with ``--wynot PATH``).

A row holds: hunks, the true minimal size, exit code, tests that ran (premise,
search, labels, verification), how many of those were UNRESOLVED, the answer's
labels and size, ``exact`` (the answer is one of the true minimal sets),
``within_truth_plus_1`` (answer size <= true minimal size + 1) and
``within_tests_bound`` (tests <= 4*ceil(log2 hunks) + answer size), the wall
time, and where the run's stderr was written. A run that exceeds the wall
limit is killed and marked ``hung``; a run that prints no JSON is marked
``crashed`` (its stderr log says why).
"""

from __future__ import annotations

import json
import math
import os
import shlex
import signal
import subprocess
import tempfile
import time
from pathlib import Path

MODES = {
    "default": [],
    "flat": ["--group", "none", "--no-predict", "--no-resolve", "--no-keep-passing"],
}


def log2ceil(n: int) -> int:
    return math.ceil(math.log2(max(n, 2)))


def tests_bound(hunks: int, answer_size: int) -> int:
    """The issue's cost target: 4*ceil(log2 hunks) + answer size."""
    return 4 * log2ceil(hunks) + answer_size


def run_wynot(wynot: list[str], repo: Path, command: list[str], mode: str, *, max_tests: int,
              timeout: float, wall_limit: float, log_dir: Path, name: str,
              strategy: str | None = None, extra: list[str] | None = None) -> dict:
    """Run wynot once; return its report (or None), exit code, wall time, log paths."""
    log_dir.mkdir(parents=True, exist_ok=True)
    patch = log_dir / f"{name}.{mode}.patch"
    err_path = log_dir / f"{name}.{mode}.stderr"
    out_path = log_dir / f"{name}.{mode}.json"
    for p in (patch, err_path, out_path):
        if p.exists():
            p.unlink()
    cmd = [*wynot, "-C", str(repo), "--json", "--no-cache", "--timeout", str(timeout),
           "--max-tests", str(max_tests), "--patch", str(patch), *MODES[mode],
           *(["--strategy", strategy] if strategy else []), *(extra or []),
           "good", "bad", "--", *command]
    t0 = time.monotonic()
    hung = False
    with open(out_path, "wb") as out, open(err_path, "wb") as err, \
            tempfile.TemporaryDirectory(prefix="wynot-bench-cwd-") as cwd:
        # An empty working directory: ``python -m wynot`` puts it first on
        # sys.path, so that run from this checkout it would import this
        # checkout's wynot and not the one --wynot names (PYTHONPATH=SNAPSHOT).
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, start_new_session=True, cwd=cwd)
        try:
            code = proc.wait(timeout=wall_limit)
        except subprocess.TimeoutExpired:
            hung = True
            os.killpg(proc.pid, signal.SIGKILL)
            code = proc.wait()
    wall = time.monotonic() - t0
    report = None
    text = out_path.read_text(encoding="utf-8", errors="replace")
    if text.strip():
        try:
            report = json.loads(text)
        except json.JSONDecodeError:
            report = None
    return {"command": shlex.join(cmd), "exit": code, "wall": round(wall, 1), "hung": hung,
            "report": report, "stderr_log": str(err_path), "patch": str(patch)}


def score(run: dict, *, case: str, mode: str, hunks: int, truth: list[list[str]]) -> dict:
    """One table row from a run and the true minimal sets (each a list of labels)."""
    row = {"case": case, "mode": mode, "hunks": hunks, "truth": min(len(t) for t in truth),
           "exit": run["exit"],
           "wall": run["wall"], "command": run["command"], "stderr_log": run["stderr_log"],
           "hung": run["hung"]}
    rep = run["report"]
    if rep is None:
        row["crashed"] = not run["hung"]
        with open(run["stderr_log"], encoding="utf-8", errors="replace") as fh:
            row["stderr_tail"] = fh.read()[-3000:]
        return row
    ran = [t for t in rep.get("tests", []) if t.get("ran")]
    answer = [c["label"] for c in rep.get("changes", [])]
    roles = {c["label"]: c.get("role") for c in rep.get("changes", [])}
    row.update(
        tests=len(ran),
        unresolved=sum(1 for t in ran if t.get("outcome") == "unresolved"),
        phases={p: sum(1 for t in ran if t.get("phase") == p)
                for p in sorted({str(t.get("phase")) for t in ran})},
        answer=answer, roles=roles, answer_size=len(answer),
        verified=rep.get("verified"), minimal=rep.get("minimal"), summary=rep.get("summary"),
    )
    return rescore(row, truth)


def rescore(row: dict, truth: list[list[str]]) -> dict:
    """Set the columns that compare a scored row's answer with ``truth``."""
    size = min(len(t) for t in truth)
    row["truth"] = size
    if "answer" not in row:
        return row
    answer = row["answer"]
    row.update(
        exact=any(set(answer) == set(t) for t in truth),
        contains_truth=any(set(t) <= set(answer) for t in truth),
        within_truth_plus_1=bool(answer) and len(answer) <= size + 1,
        within_tests_bound=row["tests"] <= tests_bound(row["hunks"], len(answer)),
        tests_bound=tests_bound(row["hunks"], len(answer)),
    )
    return row


def yn(value: object) -> str:
    return {True: "yes", False: "NO", None: "-"}.get(value, str(value))  # type: ignore[call-overload]


def render(rows: list[list[str]], columns: list[str], markdown: bool) -> str:
    """A table: Markdown, or plain columns."""
    table = [columns, *rows]
    if markdown:
        lines = ["| " + " | ".join(columns) + " |", "|" + "|".join("---" for _ in columns) + "|"]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])
    widths = [max(len(r[i]) for r in table) for i in range(len(columns))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                     for r in table)
