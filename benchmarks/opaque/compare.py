#!/usr/bin/env python3
"""Run wynot on the cases whose dependencies Python's imports do not show.

    python3 benchmarks/opaque/compare.py --workdir DIR [--cases a,b] [--modes default,flat]
        [--max-tests 300] [--timeout 120] [--wall-limit 3600] [--wynot CMD]
        [--markdown] [--json-out FILE]

The cases (``--cases``, default all, in this order):

* ``namelink-100``, ``namelink-5000``: generated packages whose modules reach
  each other only by (module, name) strings (``benchmarks/namelink``, seed 1);
* Python release pairs that rewrite their package (``benchmarks/real`` cases
  ``werkzeug_build_empty_list``, ``itsdangerous_aware_timestamp``,
  ``markupsafe_html5_unescape``); their sdists come from the cache or PyPI;
* real C release pairs built with one gcc command (``benchmarks/ccases``:
  ``libyaml_quote_escape``, ``lz4_frame_bound_autoflush``,
  ``cjson_array_prev``, ``cjson_print_precision``); their history is read
  from a local mirror (``--mirrors``, default ``$WYNOT_MIRRORS`` or
  /work/.mirror, one ``<owner>+<name>/repo`` each);
* held-out cases of the same machinery, of shapes the code was not written
  around: ``parson_trailing_comma`` (C, another project),
  ``marked_fences_normal`` (JavaScript run with node),
  ``jsonjava_similar_numbers`` (Java built with javac),
  ``mustache_primitive_lookup`` (JavaScript: a helper that a function body
  calls), ``strsim_jaro_transpositions``, ``fastrand_wyrand_constants`` and
  ``base64_decode_slice_exact`` (Rust built with rustc, which must be on
  ``PATH``), ``tinyxml2_bool_attribute`` (C++, a release that threads line
  numbers through the parser), ``semver_prerelease_and_group`` (Go built with
  ``go test -c``, offline in GOPATH mode; a function type's signature
  changed under every function of a map), ``toml_float_exponent`` (Go again,
  a package with an internal package, copied into a GOPATH by the build; a
  method renamed under every call of it), ``mojo_json_exception_stash``
  (Perl run with ``perl -Ilib``: the 78 modules of a Mojolicious application,
  where a missing sub is an error only when it is called),
  ``jansson_real_dtoa_shortest`` (C, a third project: the hashtable's
  functions take a key length through every file, and the behaviour
  change is a new source file with the function that calls it),
  ``md4c_table_short_underline`` (C, a fourth project: a Markdown parser
  whose inline-mark chains became stacks in the same releases; the fix
  reads a limit that another hunk defines), ``zlib_raw_deflate_end`` (C, a
  fifth project: zlib, whose CRC-32 code was rewritten and whose deflate
  state's buffers were replaced in the same releases; the fix is two hunks of
  one commit), ``pugixml_attribute_tab_escape`` (C++, a third project: one
  source file over its header, whose XPath code was reworked on the way; the
  fix is one entry of a table), ``semverjs_long_build_metadata``
  (JavaScript, 47 CommonJS modules that ``require()`` each other; every
  module changed, most by a ``'use strict'`` line);
  ``hiredis_nested_depth_limit`` (C: hiredis, whose reply parser's fixed
  stack of read tasks became one that grows, through every function that
  reads it, in a release that also added RESP3 and allocator injection);
  ``gson_appendable_tostring`` (Java again: gson's core, 271 hunks in 47
  files of classes that reference each other; the behaviour comes from an
  override added for performance, and the changelog's own fix, a
  ``toString()``, is not needed); ``httpparser_ipv4_in_ipv6`` (C again:
  http-parser's one-file state machine, 89 hunks from its first 2.x release to
  its last; the fix is one hunk and the declaration of the states it names);
  ``cmark_emphasis_openers_bottom`` (C: cmark 0.28.3 -> 0.30.0, 241 hunks
  over 27 files, whose node structure and reference map were reworked; the
  fix is two hunks of one function, and the cause alone overruns a table,
  trapped by the case's bounds checks); ``yyjson_exponent_no_fraction`` (C:
  yyjson 0.5.0 -> 0.8.0, 354 hunks in one source file that repeats whole
  blocks; the fix is one line of the number writer);
  ``pygments_ada_lexer_moved`` (Python again, from ``benchmarks/real``:
  Pygments, whose lexers are found through a table of module-name strings
  that ``pygments.lexers`` imports with ``__import__``; a lexer moved to a
  new module with its table line).

Each case is built under ``DIR/<case>`` (reused when present) and wynot runs
once per mode with ``--json --no-cache --strategy hunks --timeout T
--max-tests N --patch FILE``: default options, and flat dd+ (``--group none
--no-predict --no-resolve --no-keep-passing``). wynot's stderr and JSON go to
``DIR/logs/``; a run past --wall-limit seconds is killed and shown as hung.

Columns: hunks; truth (size of the true minimal set; "≤ n" where the minimum
is not proven and n is the smallest failing set known); tests that ran
(premise, search, labels, verification); unresolved among them; answer
size; exact (the answer is the true minimal set); ``<= truth+1``; the bound
4*ceil(log2 hunks) + answer size and whether the tests met it; wall time.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
for sub in ("namelink", "ccases", "real"):
    sys.path.insert(0, str(HERE.parent / sub))
sys.path.insert(0, str(HERE))
import ccases  # noqa: E402
import realcases as rc  # noqa: E402
import wynotrun  # noqa: E402

NAMELINK = {"namelink-100": 100, "namelink-5000": 5000}
PYTHON = ["werkzeug_build_empty_list", "itsdangerous_aware_timestamp",
          "markupsafe_html5_unescape"]
C = ["libyaml_quote_escape", "lz4_frame_bound_autoflush", "cjson_array_prev",
     "cjson_print_precision"]
# held out: shapes the code was not tuned on (another C project, JavaScript, Java, C++,
# Rust, Go, TypeScript, Perl)
HELDOUT = ["parson_trailing_comma", "marked_fences_normal", "jsonjava_similar_numbers",
           "mustache_primitive_lookup", "cxxopts_char_length", "strsim_jaro_transpositions",
           "fastrand_wyrand_constants", "base64_decode_slice_exact", "tinyxml2_bool_attribute",
           "semver_prerelease_and_group", "pathtoregexp_match_array",
           "inih_long_line_consume", "lua_popen_invalid_mode", "lua_bitwise_many_constants",
           "toml_float_exponent", "mojo_json_exception_stash", "jansson_real_dtoa_shortest",
           "md4c_table_short_underline", "zlib_raw_deflate_end", "tcllib_mime_readonly_header",
           "expat_doctype_default_handler", "pugixml_attribute_tab_escape",
           "semverjs_long_build_metadata", "hiredis_nested_depth_limit",
           "gson_appendable_tostring", "httpparser_ipv4_in_ipv6",
           "cmark_emphasis_openers_bottom", "yyjson_exponent_no_fraction",
           "jsonc_vertical_tab_whitespace", "onig_notbol_begin_buf",
           "utf8proc_regional_indicator_start", "miniz_zlib_header_flevel"]
# held out too, built by benchmarks/real: a Python package whose modules reach each other
# by name at run time (a table of module-name strings resolved with __import__)
PYTHON_HELDOUT = ["pygments_ada_lexer_moved"]
ALL = [*NAMELINK, *PYTHON, *C, *HELDOUT, *PYTHON_HELDOUT]


def prepare(name: str, workdir: Path,
            mirrors: Path) -> tuple[Path, list[str], list[list[str]], bool]:
    """Build (or reuse) the case: repository, test command, true minimal sets, and
    whether the minimum is proven (False: the smallest failing set known)."""
    repo = workdir / name
    if name in NAMELINK:
        import generate  # benchmarks/namelink/generate.py
        meta_path = repo.with_suffix(".json")
        if not (repo / ".git").exists():
            generate.generate(repo, NAMELINK[name], seed=1)
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        return repo, meta["test_command"], [meta["cause"]], True
    if name in PYTHON or name in PYTHON_HELDOUT:
        case = rc.load_case(name)
        if not (repo / ".git").exists():
            rc.build_case(name, repo)
        return repo, rc.TEST_COMMAND, [case["ground_truth"]], True
    case = ccases.load_case(name)
    if not (repo / ".git").exists():
        mirror = mirrors / case["project"].replace("/", "+") / "repo"
        ccases.build_case(name, repo, mirror)
    truths = [case["ground_truth"], *case.get("ground_truth_alternatives", [])]
    return repo, ccases.TEST_COMMAND, truths, case.get("ground_truth_proven", True)


COLUMNS = ["case", "mode", "hunks", "truth", "exit", "tests", "unresolved", "answer", "exact",
           "≤ truth+1", "bound 4⌈log2 h⌉+answer", "≤ bound", "wall s"]


def cells(row: dict) -> list[str]:
    yn = wynotrun.yn
    truth = str(row["truth"]) if row.get("truth_proven", True) else f"≤{row['truth']}"
    if "tests" not in row:
        what = "hung" if row.get("hung") else "crashed"
        return [row["case"], row["mode"], str(row["hunks"]), truth,
                f"{row['exit']} ({what})", "-", "-", "-", "-", "NO", "-", "NO",
                f"{row['wall']:.0f}"]
    return [row["case"], row["mode"], str(row["hunks"]), truth, str(row["exit"]),
            str(row["tests"]), str(row["unresolved"]), str(row["answer_size"]), yn(row["exact"]),
            yn(row["within_truth_plus_1"]), str(row["tests_bound"]),
            yn(row["within_tests_bound"]), f"{row['wall']:.0f}"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workdir", type=Path, required=True)
    ap.add_argument("--cases", default=",".join(ALL))
    ap.add_argument("--modes", default="default,flat")
    ap.add_argument("--max-tests", type=int, default=300)
    ap.add_argument("--timeout", type=float, default=120, help="wynot --timeout per test")
    ap.add_argument("--wall-limit", type=float, default=3600,
                    help="kill a wynot run after this many seconds (shown as hung)")
    ap.add_argument("--wynot", default="wynot", help="the wynot command (default: %(default)s)")
    ap.add_argument("--mirrors", type=Path, default=ccases.MIRRORS)
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json-out", type=Path)
    ap.add_argument("--rescore", type=Path, metavar="JSON",
                    help="run nothing: score the rows of an earlier --json-out against the "
                         "current ground truths and print the table")
    args = ap.parse_args(argv)
    names = [n for n in args.cases.split(",") if n]
    unknown = [n for n in names if n not in ALL]
    if unknown:
        ap.error(f"unknown cases {unknown}; known: {', '.join(ALL)}")
    workdir = args.workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    if args.rescore:
        rows = [r for r in json.loads(args.rescore.read_text(encoding="utf-8"))
                if r["case"] in names]
        for row in rows:
            _, _, truths, proven = prepare(row["case"], workdir, args.mirrors)
            wynotrun.rescore(row, truths)["truth_proven"] = proven
        print(wynotrun.render([cells(r) for r in rows], COLUMNS, args.markdown))
        return 0
    rows: list[dict] = []
    for name in names:
        t0 = time.monotonic()
        repo, command, truths, proven = prepare(name, workdir, args.mirrors)
        hunks = rc.count_hunk_headers(rc.diff_bytes(repo))
        print(f"compare: {name}: {hunks} hunks, ready in {time.monotonic() - t0:.0f} s",
              file=sys.stderr, flush=True)
        for mode in args.modes.split(","):
            run = wynotrun.run_wynot(shlex.split(args.wynot), repo, command, mode,
                                     max_tests=args.max_tests, timeout=args.timeout,
                                     wall_limit=args.wall_limit, log_dir=workdir / "logs",
                                     name=name, strategy="hunks")
            row = wynotrun.score(run, case=name, mode=mode, hunks=hunks, truth=truths)
            row["truth_proven"] = proven
            rows.append(row)
            print(f"compare: {name} [{mode}] exit {row['exit']}, {row.get('tests', '-')} tests, "
                  f"{row['wall']} s, answer {row.get('answer_size', '-')}"
                  f"{' (exact)' if row.get('exact') else ''}; log {row['stderr_log']}",
                  file=sys.stderr, flush=True)
            if args.json_out:
                args.json_out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    print(wynotrun.render([cells(r) for r in rows], COLUMNS, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
