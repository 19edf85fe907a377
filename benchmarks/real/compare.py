#!/usr/bin/env python3
"""Run wynot on the real-regression cases and compare with the ground truth.

    python3 benchmarks/real/compare.py [--cases a,b] [--max-tests 3000] [--markdown]
                                       [--workdir DIR] [--wynot CMD] [--json-out FILE]

For each case the repository is built (under --workdir, default a temporary
folder; an existing build there is reused) and wynot runs twice, with
``--json --no-cache -q --timeout 60 --max-tests N --patch FILE``:

* default: wynot's default options
* flat:    ``--group none --no-predict --no-resolve --no-keep-passing`` (the
  paper's flat dd+, Algorithm 2 as published)

Columns: hunks (``git diff -U3 -M good bad | grep -c '^@@'``), exit code, tests
(entries of the JSON "tests" with "ran": true; premise, search, label and verify
all count), unresolved (of those), wall time, answer size, cause (the answer
contains the ground truth's behaviour-change hunks), =gt (the answer is exactly
the ground truth), alone (wynot's --patch applied with git apply to a fresh
worktree of GOOD makes the test exit 1), 1-min labels (every change of the answer
is labelled cause, context or inseparable by wynot), 1-min check (removing any one change from
the answer, the test does not exit 1 — run here), bound (4*ceil(log2 hunks)).
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import realcases as rc  # noqa: E402

MODES = {
    "default": [],
    "flat": ["--group", "none", "--no-predict", "--no-resolve", "--no-keep-passing"],
}


def run_wynot(wynot: list[str], repo: Path, mode: str, max_tests: int, timeout: float,
              patch: Path) -> dict:
    cmd = [*wynot, "-C", str(repo.resolve()), "--json", "--no-cache", "-q", "--timeout",
           str(timeout), "--max-tests", str(max_tests), "--patch", str(patch.resolve()),
           *MODES[mode], "good", "bad", "--", *rc.TEST_COMMAND]
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="wynot-bench-cwd-") as cwd:
        # An empty working directory: ``python -m wynot`` puts it first on
        # sys.path, so that run from this checkout it would import this
        # checkout's wynot and not the one --wynot names (PYTHONPATH=SNAPSHOT).
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    wall = time.monotonic() - t0
    report = None
    try:
        report = json.loads(proc.stdout) if proc.stdout.strip() else None
    except json.JSONDecodeError:
        report = None
    return {"command": shlex.join(cmd), "exit": proc.returncode, "wall": wall,
            "report": report, "stderr_tail": proc.stderr[-2000:],
            "stdout_head": proc.stdout[:500] if report is None else ""}


def check_answer(repo: Path, changes: list[rc.Change], answer: list[str], patch: Path,
                 timeout: float) -> dict:
    """Does the answer fail alone (wynot's patch), and is it 1-minimal (checked here)?"""
    out: dict = {"alone": None, "alone_exit": None, "one_minimal_check": None,
                 "removals": {}}
    by_label = {c.label: c for c in changes}
    scratch = rc.Scratch(repo, changes[:1])
    try:
        if patch.is_file() and patch.stat().st_size > 0:
            proc = subprocess.run(["git", "apply", "--whitespace=nowarn", str(patch)],
                                  cwd=scratch.tree, capture_output=True, text=True)
            if proc.returncode != 0:
                out["alone"] = False
                out["alone_exit"] = f"git apply: {proc.stderr.strip()[-300:]}"
            else:
                code, _ = rc.run_test(scratch.tree, timeout)
                out["alone"] = code == 1
                out["alone_exit"] = code
    finally:
        scratch.close()
    known = [by_label.get(label) for label in answer]
    if answer and all(c is not None and c.kind != "whole" for c in known):
        with rc.Scratch(repo, known) as s:
            ok = True
            for drop in known:
                code, _ = s.run([c for c in known if c is not drop], timeout)
                out["removals"][drop.label] = code
                ok &= rc.outcome(code) != "FAIL"
            out["one_minimal_check"] = ok
    return out


def measure(case: dict, repo: Path, mode: str, args, wynot: list[str], workdir: Path,
            changes: list[rc.Change], hunks: int) -> dict:
    patch = workdir / f"{case['name']}.{mode}.patch"
    if patch.exists():
        patch.unlink()
    res = run_wynot(wynot, repo, mode, args.max_tests, args.timeout, patch)
    row = {"case": case["name"], "mode": mode, "hunks": hunks, "exit": res["exit"],
           "wall": round(res["wall"], 1), "bound": 4 * math.ceil(math.log2(hunks)),
           "command": res["command"]}
    rep = res["report"]
    if rep is None:
        row.update(error=True, stderr_tail=res["stderr_tail"], stdout_head=res["stdout_head"])
        return row
    ran = [t for t in rep.get("tests", []) if t.get("ran")]
    answer = [c["label"] for c in rep.get("changes", [])]
    roles = {c["label"]: c.get("role") for c in rep.get("changes", [])}
    gt = set(case["ground_truth"])
    cause = set(case.get("ground_truth_cause") or case["ground_truth"])
    row.update(
        tests=len(ran),
        unresolved=sum(1 for t in ran if t.get("outcome") == "unresolved"),
        phases={p: sum(1 for t in ran if t.get("phase") == p)
                for p in sorted({t.get("phase") for t in ran})},
        answer_size=len(answer),
        answer=answer,
        roles=roles,
        contains_cause=cause <= set(answer),
        equals_gt=set(answer) == gt,
        verified=rep.get("verified"),
        minimal=rep.get("minimal"),
        one_minimal_labels=bool(answer) and all(r in ("cause", "context", "inseparable")
                                                for r in roles.values()),
        summary=rep.get("summary"),
    )
    if res["exit"] != 0:
        row["stderr_tail"] = res["stderr_tail"]
    row.update(check_answer(repo, changes, answer, patch, args.timeout))
    return row


def yn(value) -> str:
    return {True: "yes", False: "NO", None: "-"}.get(value, str(value))


COLUMNS = ["case", "mode", "hunks", "exit", "tests", "unresolved", "wall s", "answer",
           "cause", "=gt", "alone", "1-min labels", "1-min check", "bound"]


def cells(row: dict) -> list[str]:
    if row.get("error"):
        return [row["case"], row["mode"], str(row["hunks"]), str(row["exit"]), "-", "-",
                f"{row['wall']:.1f}", "-", "-", "-", "-", "-", "-", str(row["bound"])]
    return [row["case"], row["mode"], str(row["hunks"]), str(row["exit"]), str(row["tests"]),
            str(row["unresolved"]), f"{row['wall']:.1f}", str(row["answer_size"]),
            yn(row["contains_cause"]), yn(row["equals_gt"]), yn(row["alone"]),
            yn(row["one_minimal_labels"]), yn(row["one_minimal_check"]), str(row["bound"])]


def render(rows: list[dict], markdown: bool) -> str:
    table = [COLUMNS] + [cells(r) for r in rows]
    if markdown:
        lines = ["| " + " | ".join(table[0]) + " |",
                 "|" + "|".join("---" for _ in COLUMNS) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in table[1:]]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in table) for i in range(len(COLUMNS))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                     for r in table)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", help="comma-separated case names (default: all)")
    ap.add_argument("--modes", default="default,flat", help="default,flat")
    ap.add_argument("--max-tests", type=int, default=3000)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    ap.add_argument("--workdir", type=Path, help="where cases are built (default: a temp dir)")
    ap.add_argument("--cache", type=Path, default=rc.DEFAULT_CACHE)
    ap.add_argument("--wynot", default="wynot", help="the wynot command (default: %(default)s)")
    ap.add_argument("--json-out", type=Path, help="write all measurements as JSON here")
    args = ap.parse_args(argv)

    names = args.cases.split(",") if args.cases else rc.case_names()
    modes = args.modes.split(",")
    for m in modes:
        if m not in MODES:
            ap.error(f"unknown mode {m!r}")
    tmp = None
    if args.workdir is None:
        tmp = tempfile.TemporaryDirectory(prefix="wynot-compare-")
        workdir = Path(tmp.name)
    else:
        workdir = args.workdir.resolve()
        workdir.mkdir(parents=True, exist_ok=True)
    wynot = shlex.split(args.wynot)
    rows = []
    try:
        for name in names:
            case = rc.load_case(name)
            repo = workdir / name
            if not (repo / ".git").exists():
                t0 = time.monotonic()
                rc.build_case(name, repo, args.cache)
                print(f"compare: built {name} in {time.monotonic() - t0:.1f} s", file=sys.stderr)
            raw = rc.diff_bytes(repo)
            hunks = rc.count_hunk_headers(raw)
            changes = rc.all_changes(rc.parse_diff(raw))
            for mode in modes:
                print(f"compare: {name} [{mode}] ...", file=sys.stderr, flush=True)
                row = measure(case, repo, mode, args, wynot, workdir, changes, hunks)
                rows.append(row)
                print(f"compare: {name} [{mode}] exit {row['exit']}, "
                      f"{row.get('tests', '-')} tests, {row['wall']} s, answer "
                      f"{row.get('answer', '-')}", file=sys.stderr, flush=True)
                if row["exit"] not in (0, 4) and row.get("stderr_tail"):
                    print(f"compare: stderr tail:\n{row['stderr_tail']}", file=sys.stderr)
    finally:
        if args.json_out:
            args.json_out.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
        if tmp is not None:
            tmp.cleanup()
    print(render(rows, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
