#!/usr/bin/env python3
"""Run wynot with several search configurations on one synthetic repository.

    python benchmarks/synthetic/compare.py [--hunks 5000] [--dirs 100] [--causes 1]
        [--cause-needs-context] [--seed 1] [--configs flat,dir-file,all,...]
        [--workdir DIR] [--max-tests 3000] [--markdown]

Generates the repository with generate.py (or reuses the one already in
--workdir), runs ``wynot --json --no-cache -q`` once per configuration with the
repository's test command, and prints one row per configuration:

    configuration   the wynot options compared (see CONFIGS)
    changes         hunks and whole-file changes in GOOD..BAD
    tests           tests really run: premise, search and verification
    unresolved      of those, how many were UNRESOLVED
    time            wall time of the whole wynot run
    tests/log2      tests / ceil(log2(changes)): 1.0 would be a binary search
    answer          size of the reported change set
    expected        whether it is exactly the planted cause (yes/no)
    exit            wynot's exit code

A configuration whose options this wynot does not know shows
"n/a (option missing)". Without --workdir the repository lives in a
temporary directory that is removed at the end.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402

# key -> (name shown in the table, wynot options). Every configuration but
# "default" runs dd+ as published (--no-keep-passing), so that each one adds
# a single feature to the paper's flat dd+; "published" is the default with
# only that shortcut turned off.
_PUBLISHED = ["--no-keep-passing"]
CONFIGS: dict[str, tuple[str, list[str]]] = {
    "flat": ("flat", ["--group", "none", "--no-predict", "--no-resolve", *_PUBLISHED]),
    "dir-file": ("dir,file",
                 ["--group", "dir,file", "--no-predict", "--no-resolve", *_PUBLISHED]),
    "all": ("all criteria",
            ["--group", "dir,file,lexical,syntax", "--no-predict", "--no-resolve",
             *_PUBLISHED]),
    "all-predict": ("all + predict",
                    ["--group", "dir,file,lexical,syntax", "--predict", "--no-resolve",
                     *_PUBLISHED]),
    "all-resolve": ("all + resolve",
                    ["--group", "dir,file,lexical,syntax", "--no-predict", "--resolve",
                     *_PUBLISHED]),
    "published": ("default, dd+ as published", _PUBLISHED),
    "default": ("default", []),
}
COLUMNS = ["configuration", "changes", "tests", "unresolved", "time", "tests/log2",
           "answer", "expected", "exit"]


@dataclass
class Row:
    name: str
    cells: dict[str, str]
    note: str = ""


def repo_name(args: argparse.Namespace) -> str:
    context = "-ctx" if args.cause_needs_context else ""
    return f"synthetic-h{args.hunks}-d{args.dirs}-c{args.causes}{context}-s{args.seed}"


def prepare(args: argparse.Namespace, workdir: Path) -> tuple[Path, dict[str, object]]:
    """The repository and its description, generated unless already in workdir."""
    repo = workdir / repo_name(args)
    description = Path(f"{repo}.json")
    if repo.is_dir() and description.is_file():
        info = json.loads(description.read_text(encoding="utf-8"))
        if info.get("generator_version") == generate.GENERATOR_VERSION:
            return repo, info
    if repo.exists():
        shutil.rmtree(repo)
    print(f"generating {repo} ...", file=sys.stderr)
    info = generate.generate(repo, args.hunks, args.dirs, args.causes, args.seed,
                             args.cause_needs_context)
    return repo, info


def is_real_run(test: dict[str, object]) -> bool:
    """Whether a test of wynot's JSON report ran the command (not cache, not predicted)."""
    if "ran" in test:
        return bool(test["ran"])
    if "cached" in test:
        return test["cached"] is False
    return test.get("source", "run") == "run"


def run_gracefully(command: list[str], timeout: float | None
                   ) -> subprocess.CompletedProcess[str] | None:
    """Run wynot; on Ctrl-C or timeout, interrupt it (SIGINT) so it removes its worktree.

    None after a timeout; KeyboardInterrupt is raised again once wynot has exited.
    """
    # An empty working directory: ``python -m wynot`` puts it first on sys.path,
    # so that run from this checkout it would import this checkout's wynot and
    # not the one --wynot names (PYTHONPATH=SNAPSHOT).
    with tempfile.TemporaryDirectory(prefix="wynot-bench-cwd-") as cwd:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, cwd=cwd)

        def stop() -> None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()

        try:
            stdout, stderr = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            stop()
            return None
        except KeyboardInterrupt:
            stop()
            raise
    return subprocess.CompletedProcess(command, proc.returncode, stdout, stderr)


def option_missing(stderr: str) -> bool:
    return "no such option" in stderr.lower() or "no such command" in stderr.lower()


def run_config(key: str, repo: Path, info: dict[str, object],
               args: argparse.Namespace) -> Row:
    name, options = CONFIGS[key]
    command = [*args.wynot, "-C", str(repo.resolve()), "--json", "--no-cache", "-q",
               "--max-tests", str(args.max_tests), *options, *args.wynot_arg,
               "good", "bad", "--", *info["test"]]  # type: ignore[misc]
    started = time.monotonic()
    try:
        done = run_gracefully(command, args.run_timeout)
    except FileNotFoundError:
        return Row(name, {"configuration": name, "tests": f"n/a ({args.wynot[0]} not found)"})
    elapsed = time.monotonic() - started
    if done is None:
        return Row(name, {"configuration": name,
                          "tests": f"n/a (no answer in {args.run_timeout:g} s)"})
    if done.returncode == 2 and option_missing(done.stderr):
        return Row(name, {"configuration": name, "tests": "n/a (option missing)"},
                   note=done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "")
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "no output"
        return Row(name, {"configuration": name, "tests": "n/a (no JSON report)",
                          "exit": str(done.returncode)}, note=last)
    tests = [t for t in report.get("tests", []) if is_real_run(t)]
    unresolved = sum(1 for t in tests if t.get("outcome") == "unresolved")
    total = int(report.get("total_changes") or len(info.get("expected", [])) or 1)
    answer = sorted(str(c.get("label")) for c in report.get("changes", []))
    expected = sorted(str(label) for label in info["expected"])  # type: ignore[attr-defined]
    log2 = max(1, math.ceil(math.log2(total))) if total > 1 else 1
    cells = {
        "configuration": name,
        "changes": str(total),
        "tests": str(len(tests)),
        "unresolved": str(unresolved),
        "time": f"{elapsed:.1f} s",
        "tests/log2": f"{len(tests) / log2:.1f}",
        "answer": str(len(answer)),
        "expected": "yes" if answer == expected else "no",
        "exit": str(done.returncode),
    }
    note = "" if answer == expected else f"answer: {', '.join(answer[:6])}" + (
        " ..." if len(answer) > 6 else "")
    return Row(name, cells, note)


def render(rows: list[Row], markdown: bool) -> str:
    table = [[row.cells.get(column, "") for column in COLUMNS] for row in rows]
    if markdown:
        lines = ["| " + " | ".join(COLUMNS) + " |",
                 "| " + " | ".join("---" if i == 0 else "---:" for i in range(len(COLUMNS))) + " |"]
        lines += ["| " + " | ".join(cell or " " for cell in cells) + " |" for cells in table]
        return "\n".join(lines)
    widths = [max(len(column), *(len(cells[i]) for cells in table))
              for i, column in enumerate(COLUMNS)]
    # an "n/a (...)" note may be wider than its column: let it run over the next ones
    def line(cells: list[str]) -> str:
        out = ""
        for i, cell in enumerate(cells):
            out += cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
            out += "  "
        return out.rstrip()

    lines = [line(COLUMNS), line(["-" * w for w in widths])]
    lines += [line(cells) for cells in table]
    return "\n".join(lines)


def describe(info: dict[str, object], repo: Path) -> str:
    clusters = info.get("clusters", {})
    share = clusters.get("share", 0) if isinstance(clusters, dict) else 0
    return (f"synthetic repository {repo}: {info['hunks']} hunks in {info['files']} files, "
            f"{info['dirs']} packages, seed {info['seed']}, {share:.0%} of the hunks in "
            f"dependency clusters; expected cause: {', '.join(info['expected'])}")  # type: ignore


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Compare wynot search configurations on a synthetic repository.")
    parser.add_argument("--hunks", type=int, default=5000)
    parser.add_argument("--dirs", type=int, default=100)
    parser.add_argument("--causes", type=int, default=1, choices=(1, 2))
    parser.add_argument("--cause-needs-context", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--configs", default=",".join(CONFIGS),
                        help=f"comma list of configurations: {', '.join(CONFIGS)} "
                             "(default: all, in this order)")
    parser.add_argument("--workdir", type=Path,
                        help="keep (and reuse) the generated repository here")
    parser.add_argument("--max-tests", type=int, default=3000,
                        help="passed to wynot: stop a search after this many tests")
    parser.add_argument("--run-timeout", type=float, default=None,
                        help="give up on one wynot run after this many seconds")
    parser.add_argument("--wynot", default="wynot",
                        help="the wynot command (split on spaces), e.g. 'python3 -m wynot'")
    parser.add_argument("--wynot-arg", action="append", default=[],
                        help="extra option for every wynot run (repeatable)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args(argv)
    args.wynot = args.wynot.split()
    keys = [k.strip() for k in args.configs.split(",") if k.strip()]
    unknown = [k for k in keys if k not in CONFIGS]
    if unknown:
        parser.error(f"unknown configuration {', '.join(unknown)} (known: {', '.join(CONFIGS)})")

    temporary = None
    if args.workdir is None:
        temporary = tempfile.mkdtemp(prefix="wynot-synthetic-")
        workdir = Path(temporary)
    else:
        workdir = args.workdir
        workdir.mkdir(parents=True, exist_ok=True)
    rows: list[Row] = []
    repo: Path | None = None
    info: dict[str, object] | None = None
    try:
        try:
            repo, info = prepare(args, workdir)
        except generate.GenerateError as exc:
            print(f"compare.py: {exc}", file=sys.stderr)
            return 1
        print(describe(info, repo), file=sys.stderr)
        for key in keys:
            print(f"running {CONFIGS[key][0]} ...", file=sys.stderr)
            row = run_config(key, repo, info, args)
            rows.append(row)
            print(f"  {' '.join(f'{c}={row.cells[c]}' for c in COLUMNS[1:] if c in row.cells)}",
                  file=sys.stderr)
    except KeyboardInterrupt:
        print("interrupted; the rows so far:", file=sys.stderr)
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)
    if args.markdown and info is not None and repo is not None:
        print(describe(info, repo) + "\n")
    print(render(rows, args.markdown))
    notes = [f"{row.name}: {row.note}" for row in rows if row.note]
    if notes:
        print()
        print("\n".join(notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
