#!/usr/bin/env python3
"""Run wynot (default and flat dd+) on generated run-time name-linking repositories.

    python3 benchmarks/namelink/compare.py --workdir DIR [--sizes 100,5000] [--seed 1]
        [--langs python,javascript,c,cstatic] [--modes default,flat] [--max-tests 300]
        [--timeout 60] [--wall-limit 3600]
        [--cause-in-rename] [--wynot CMD] [--markdown] [--json-out FILE]

For each language and size the repository is generated with generate.py into
``DIR/namelink-h<size>-s<seed>`` (python), ``DIR/namelink-js-h<size>-s<seed>``,
``DIR/namelink-c-h<size>-s<seed>`` or ``DIR/namelink-cstatic-h<size>-s<seed>``
(reused when it is already there; with --cause-in-rename generated with that
option, named with ``-cr`` after the language, e.g. ``DIR/namelink-js-cr-h100-s1``,
and scored against ``truth`` of DEST.json, the cause's whole rename, with two
more columns: the roles wynot gave the answer's changes and its ``minimal``), then
wynot runs once per mode with ``--json --no-cache --max-tests N --patch FILE``:

* default: wynot's default options
* flat:    ``--group none --no-predict --no-resolve --no-keep-passing``

Each row: hunks, exit code, tests that ran (premise, search, labels,
verification), UNRESOLVED among them, answer size, whether the answer is
exactly the planted cause, the target 2*ceil(log2 hunks) + 6 and whether the
run met it, and the wall time. wynot's stderr goes to ``DIR/logs/``.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "opaque"))
import generate  # noqa: E402
import wynotrun  # noqa: E402


def build(workdir: Path, size: int, seed: int, lang: str = "python",
          cause_in_rename: bool = False) -> tuple[Path, dict]:
    """The generated repository for this language, size and seed, and its description."""
    tags = [generate.LANG[lang].tag] + (["cr"] if cause_in_rename else [])
    repo = workdir / f"namelink-{''.join(t + '-' for t in tags if t)}h{size}-s{seed}"
    meta = repo.with_suffix(".json")
    if not (repo / ".git").exists() or not meta.is_file():
        if repo.exists():
            raise SystemExit(f"compare: {repo} exists but is incomplete; remove it")
        print(f"compare: generating {repo} ...", file=sys.stderr, flush=True)
        generate.generate(repo, size, seed, lang=lang, cause_in_rename=cause_in_rename)
    return repo, json.loads(meta.read_text(encoding="utf-8"))


def target(hunks: int) -> int:
    return 2 * wynotrun.log2ceil(hunks) + 6


COLUMNS = ["case", "mode", "hunks", "exit", "tests", "unresolved", "answer", "exact",
           "target 2⌈log2 n⌉+6", "met", "wall s"]


def roles(row: dict) -> str:
    """How many of the answer's changes got each role, e.g. "cause 1, inseparable 2"."""
    counts: dict[str, int] = {}
    for role in row.get("roles", {}).values():
        counts[str(role)] = counts.get(str(role), 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) or "-"


def cells(row: dict) -> list[str]:
    if "tests" not in row:
        what = "hung" if row.get("hung") else "crashed"
        return [row["case"], row["mode"], str(row["hunks"]), f"{row['exit']} ({what})", "-", "-",
                "-", "-", str(target(row["hunks"])), "NO", f"{row['wall']:.1f}"]
    met = row["exact"] and row["tests"] <= target(row["hunks"])
    return [row["case"], row["mode"], str(row["hunks"]), str(row["exit"]), str(row["tests"]),
            str(row["unresolved"]), str(row["answer_size"]), wynotrun.yn(row["exact"]),
            str(target(row["hunks"])), wynotrun.yn(met), f"{row['wall']:.1f}"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workdir", type=Path, required=True)
    ap.add_argument("--sizes", default="100,5000")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--langs", default="python",
                    help="comma-separated, of: " + ", ".join(generate.LANGS))
    ap.add_argument("--modes", default="default,flat")
    ap.add_argument("--max-tests", type=int, default=300)
    ap.add_argument("--timeout", type=float, default=60, help="wynot --timeout per test")
    ap.add_argument("--wall-limit", type=float, default=3600,
                    help="kill a wynot run after this many seconds (marked hung)")
    ap.add_argument("--wynot", default="wynot", help="the wynot command (default: %(default)s)")
    ap.add_argument("--cause-in-rename", action="store_true",
                    help="generate with --cause-in-rename; score against the cause's rename")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json-out", type=Path)
    args = ap.parse_args(argv)
    workdir = args.workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    rows = []
    langs = args.langs.split(",")
    for lang in langs:
        if lang not in generate.LANGS:
            ap.error(f"--langs: unknown language {lang!r} (one of {', '.join(generate.LANGS)})")
    for lang, size in [(lang, int(s)) for lang in langs for s in args.sizes.split(",")]:
        repo, meta = build(workdir, size, args.seed, lang, args.cause_in_rename)
        if args.cause_in_rename and "truth" not in meta:
            raise SystemExit(f"compare: {repo} was not generated with --cause-in-rename")
        for mode in args.modes.split(","):
            print(f"compare: {repo.name} [{mode}] ...", file=sys.stderr, flush=True)
            run = wynotrun.run_wynot(shlex.split(args.wynot), repo, meta["test_command"], mode,
                                     max_tests=args.max_tests, timeout=args.timeout,
                                     wall_limit=args.wall_limit, log_dir=workdir / "logs",
                                     name=repo.name)
            row = wynotrun.score(run, case=repo.name, mode=mode, hunks=meta["hunks"],
                                 truth=[meta.get("truth", meta["cause"])])
            row["target"] = target(meta["hunks"])
            rows.append(row)
            print(f"compare: {repo.name} [{mode}] exit {row['exit']}, {row.get('tests', '-')} "
                  f"tests, {row['wall']} s, answer of {row.get('answer_size', '-')}; log "
                  f"{row['stderr_log']}", file=sys.stderr, flush=True)
            if args.json_out:
                args.json_out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    if args.cause_in_rename:
        print(wynotrun.render([cells(r) + [roles(r), wynotrun.yn(r.get("minimal"))] for r in rows],
                              COLUMNS + ["roles", "minimal"], args.markdown))
    else:
        print(wynotrun.render([cells(r) for r in rows], COLUMNS, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
