#!/usr/bin/env python3
"""Generate a Python package whose modules reach each other only by name at run time.

    python3 benchmarks/namelink/generate.py DEST [--hunks 100] [--seed 1] [--renames N]
                                            [--no-verify]

Like a plugin registry, entry points or settings strings: every function is
listed as a (module, function name) pair of strings in a table of another
package (``pkg/dNNN/plugins.py``), and some functions call others through
``registry.call("pkg.d004.m01", "f2", ...)``. Nothing imports another module
by a Python ``import`` statement; ``importlib`` and ``getattr`` resolve the
strings when the test runs. Every module defines ``f0`` ... ``f7``, so a bare
function name says nothing about where it lives.

GOOD..BAD (tags ``good`` and ``bad`` of the git repository at DEST) holds:

* renames: ``fK`` becomes ``fK_v2`` in one module; the table entry naming it
  (in another package) and the strings of every caller change with it. Part
  of a rename fails when the test resolves the names (AttributeError, exit 125);
* unrelated edits, each harmless alone: docstrings, comments, arithmetic
  rewritten to the same value (``x * 3 + 7`` to ``7 + x * 3``), table comments;
* one cause: a function's constant changes (``+ 7`` to ``+ 8``), so what it
  returns changes; alone on GOOD the test exits 1.

Every edit keeps the line count and stays eight or more lines from the next
edit of its file, so ``git diff -U3`` cuts one hunk per edit (checked).
``DEST.json`` (beside the repository) records the hunk count, the cause's
label (``path:-start,len``, as wynot labels hunks), the rename clusters and,
unless --no-verify, the test's exit codes on GOOD, BAD, the cause alone on
GOOD and BAD without the cause (all renames complete: the test passes).

The test (``python3 wynot_case_test.py``) resolves every table entry, calls
each function with 1, 2 and 5 and compares with ``expected.json`` (GOOD's
values): 0 equal, 1 different, 125 when a name cannot be resolved
(ImportError, AttributeError, KeyError; the traceback is printed).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "real"))
sys.path.insert(0, str(HERE.parent / "synthetic"))
import realcases as rc  # noqa: E402
import vocab  # noqa: E402

FUNCS_PER_MODULE = 8
MODULES_PER_DIR = 8
FUNC_LINES = 8          # def, docstring, comment, arithmetic, call, return, 2 blank lines
MIN_GAP = 8             # edits of one file at least this many lines apart: one hunk each
EDIT_DENSITY = 0.55     # planned edits per function, to size the package
MODULUS = 1000003
TEST_NAME = rc.TEST_NAME

TEST_SCRIPT = '''\
"""Resolve every plugin table entry by name and check what the functions return.

Exit 0: every value as on GOOD. Exit 1: some value differs. Exit 125: a
(module, name) pair cannot be resolved (ImportError, AttributeError,
KeyError), or another unexpected error.
"""

import importlib
import json
import os
import sys
import traceback

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def main():
    with open(os.path.join(HERE, "expected.json"), encoding="utf-8") as fh:
        expected = json.load(fh)
    dirs = sorted(d for d in os.listdir(os.path.join(HERE, "pkg"))
                  if os.path.isfile(os.path.join(HERE, "pkg", d, "plugins.py")))
    try:
        from pkg import registry
        got = {}
        for d in dirs:
            table = importlib.import_module(f"pkg.{d}.plugins").PLUGINS
            for i, (module, name) in enumerate(table):
                func = registry.resolve(module, name)
                got[f"{d}:{i}"] = [func(x) for x in (1, 2, 5)]
    except (ImportError, AttributeError, KeyError):
        traceback.print_exc()
        print("UNRESOLVED: a plugin name could not be resolved")
        return 125
    except Exception:
        traceback.print_exc()
        print("UNRESOLVED: unexpected error")
        return 125
    wrong = [k for k in expected if got.get(k) != expected[k]]
    if sorted(got) != sorted(expected):
        print("UNRESOLVED: the plugin tables do not list the expected entries")
        return 125
    if wrong:
        k = wrong[0]
        print(f"FAIL: {len(wrong)} plugin results differ, e.g. {k}: "
              f"{got[k]} instead of {expected[k]}")
        return 1
    print(f"PASS: {len(got)} plugin results as expected")
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

REGISTRY = '''\
"""Resolve functions by (module, name) strings, as plugin registries do."""

import importlib


def resolve(module, name):
    """The function ``name`` of ``module``, imported on first use."""
    return getattr(importlib.import_module(module), name)


def call(module, name, *args):
    """Call ``module.name(*args)``, resolved by name at run time."""
    return resolve(module, name)(*args)
'''


@dataclass
class Func:
    dir: int
    mod: int
    idx: int
    coef: int
    const: int
    doc: str
    comment: str
    call: tuple[int, int, int] | None = None   # (dir, mod, idx) called by name
    name_bad: str = ""
    arith_bad: str = ""
    doc_bad: str = ""
    comment_bad: str = ""
    return_bad: str = ""

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.dir, self.mod, self.idx)


@dataclass
class Plan:
    dirs: int
    funcs: dict[tuple[int, int, int], Func]
    table: dict[int, list[tuple[int, int, int]]]          # dir -> entries (functions of dir+1)
    table_comments: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)
    taken: dict[str, list[int]] = field(default_factory=dict)
    cause: tuple[int, int, int] | None = None
    renames: list[dict] = field(default_factory=list)
    edits: int = 0


def modname(d: int, m: int) -> str:
    return f"pkg.d{d:03d}.m{m:02d}"


def modpath(d: int, m: int) -> str:
    return f"pkg/d{d:03d}/m{m:02d}.py"


def tablepath(d: int) -> str:
    return f"pkg/d{d:03d}/plugins.py"


MODULE_HEADER = 6      # docstring, blank, import, blank, blank... (see module_text)
TABLE_HEADER = 5


def func_line(f: Func, offset: int) -> int:
    """0-based line of ``f``'s line ``offset`` in its module."""
    return MODULE_HEADER + f.idx * FUNC_LINES + offset


def table_line(dir_: int, entry: int) -> int:
    return TABLE_HEADER + 2 * entry + 1


def phrase(rng: random.Random, templates: list[str]) -> str:
    return rng.choice(templates).format(noun=rng.choice(vocab.NOUNS), area=rng.choice(vocab.AREAS),
                                        Noun="Value", Area="Core")


def build_plan(hunks: int, renames: int, seed: int) -> Plan:
    rng = random.Random(seed)
    per_dir = FUNCS_PER_MODULE * MODULES_PER_DIR
    dirs = max(3, math.ceil(hunks / (per_dir * EDIT_DENSITY)))
    funcs: dict[tuple[int, int, int], Func] = {}
    for d in range(dirs):
        for m in range(MODULES_PER_DIR):
            for i in range(FUNCS_PER_MODULE):
                funcs[(d, m, i)] = Func(d, m, i, rng.randint(2, 9), rng.randint(1, 97),
                                        phrase(rng, vocab.SPACER_SENTENCES),
                                        phrase(rng, vocab.COMMENTS))
    rank = sorted(funcs, key=lambda k: (k[0], k[1]))
    for n, k in enumerate(rank):
        later = [r for r in rank[n + 1:n + 1 + 400] if (r[0], r[1]) != (k[0], k[1])]
        if later and rng.random() < 0.35:
            funcs[k].call = rng.choice(later)
    table = {}
    for d in range(dirs):
        src = (d + 1) % dirs
        entries = [(src, m, i) for m in range(MODULES_PER_DIR) for i in range(FUNCS_PER_MODULE)]
        rng.shuffle(entries)
        table[d] = entries
    plan = Plan(dirs, funcs, table)
    _plan_cause(plan, rng)
    _plan_renames(plan, rng, renames)
    _plan_unrelated(plan, rng, hunks - plan.edits)
    return plan


def _free(plan: Plan, path: str, line: int) -> bool:
    return all(abs(line - other) >= MIN_GAP for other in plan.taken.get(path, []))


def _take(plan: Plan, spots: list[tuple[str, int]]) -> bool:
    if len(set(spots)) != len(spots) or not all(_free(plan, p, ln) for p, ln in spots):
        return False
    for p, ln in spots:
        if any(abs(ln - q) < MIN_GAP for p2, q in spots if p2 == p and q != ln):
            return False
    for p, ln in spots:
        plan.taken.setdefault(p, []).append(ln)
    plan.edits += len(spots)
    return True


def _plan_cause(plan: Plan, rng: random.Random) -> None:
    keys = sorted(plan.funcs)
    while True:
        f = plan.funcs[rng.choice(keys)]
        if _take(plan, [(modpath(f.dir, f.mod), func_line(f, 3))]):
            f.arith_bad = f"    a = x * {f.coef} + {f.const + 1}"
            plan.cause = f.key
            return


def _entry_of(plan: Plan, key: tuple[int, int, int]) -> tuple[int, int]:
    d = (key[0] - 1) % plan.dirs
    return d, plan.table[d].index(key)


def _plan_renames(plan: Plan, rng: random.Random, count: int) -> None:
    callers: dict[tuple[int, int, int], list[Func]] = {}
    for f in plan.funcs.values():
        if f.call:
            callers.setdefault(f.call, []).append(f)
    keys = sorted(plan.funcs)
    rng.shuffle(keys)
    for key in keys:
        if len(plan.renames) >= count:
            break
        f = plan.funcs[key]
        if key == plan.cause:
            continue
        td, te = _entry_of(plan, key)
        spots = [(modpath(f.dir, f.mod), func_line(f, 0)), (tablepath(td), table_line(td, te))]
        spots += [(modpath(c.dir, c.mod), func_line(c, 4)) for c in callers.get(key, [])]
        if any(c.key == plan.cause for c in callers.get(key, [])):
            continue
        if not _take(plan, spots):
            continue
        f.name_bad = f"f{f.idx}_v2"
        plan.renames.append({"function": f"{modname(f.dir, f.mod)}.f{f.idx}",
                             "new_name": f.name_bad, "files": [p for p, _ in spots]})


def _plan_unrelated(plan: Plan, rng: random.Random, count: int) -> None:
    slots: list[tuple[str, object]] = []
    for _key, f in sorted(plan.funcs.items()):
        slots += [("doc", f), ("comment", f), ("arith", f), ("return", f)]
    for d in range(plan.dirs):
        slots += [("table", (d, e)) for e in range(len(plan.table[d]))]
    rng.shuffle(slots)
    done = 0
    for kind, obj in slots:
        if done >= count:
            break
        if kind == "table":
            d, e = obj  # type: ignore[misc]
            if _take(plan, [(tablepath(d), table_line(d, e) - 1)]):
                plan.table_comments[(d, e)] = ("", phrase(rng, vocab.TABLE_COMMENTS))
                done += 1
            continue
        f: Func = obj  # type: ignore[assignment]
        if f.key == plan.cause and kind == "arith":
            continue
        offset = {"doc": 1, "comment": 2, "arith": 3, "return": 5}[kind]
        if not _take(plan, [(modpath(f.dir, f.mod), func_line(f, offset))]):
            continue
        done += 1
        if kind == "doc":
            f.doc_bad = phrase(rng, vocab.SPACER_SENTENCES) + " Pure."
        elif kind == "comment":
            while not f.comment_bad or f.comment_bad == f.comment:
                f.comment_bad = phrase(rng, vocab.COMMENTS)
        elif kind == "arith":
            f.arith_bad = rng.choice([f"    a = {f.const} + x * {f.coef}",
                                      f"    a = {f.coef} * x + {f.const}",
                                      f"    a = (x * {f.coef}) + {f.const}"])
        else:
            f.return_bad = rng.choice(["    return (b + a) % MODULUS",
                                       "    return (a + b) % MODULUS  # wrap"])


# ---------------------------------------------------------------- texts

def func_lines(plan: Plan, f: Func, bad: bool) -> list[str]:
    def name_of(key: tuple[int, int, int]) -> str:
        g = plan.funcs[key]
        return g.name_bad if bad and g.name_bad else f"f{g.idx}"

    call = "    b = a % 11"
    if f.call:
        d, m, _ = f.call
        call = f'    b = registry.call("{modname(d, m)}", "{name_of(f.call)}", a % 13)'
    lines = [
        f"def {name_of(f.key)}(x):",
        f'    """{(f.doc_bad if bad and f.doc_bad else f.doc)}"""',
        f"    # {(f.comment_bad if bad and f.comment_bad else f.comment)}",
        f.arith_bad if bad and f.arith_bad else f"    a = x * {f.coef} + {f.const}",
        call,
        f.return_bad if bad and f.return_bad else "    return (a + b) % MODULUS",
        "",
        "",
    ]
    assert len(lines) == FUNC_LINES
    return lines


def module_text(plan: Plan, d: int, m: int, bad: bool) -> str:
    lines = [f'"""Stage functions of {modname(d, m)}; called by name through the plugin tables."""',
             "",
             "from pkg import registry",
             "",
             f"MODULUS = {MODULUS}",
             ""]
    assert len(lines) == MODULE_HEADER
    for i in range(FUNCS_PER_MODULE):
        lines += func_lines(plan, plan.funcs[(d, m, i)], bad)
    return "\n".join(lines).rstrip("\n") + "\n"


def table_text(plan: Plan, d: int, bad: bool) -> str:
    lines = [f'"""Plugins that package d{d:03d} registers: (module, function name) pairs."""',
             "",
             "# Resolved by name when the application starts (see pkg/registry.py).",
             "",
             "PLUGINS = ["]
    assert len(lines) == TABLE_HEADER
    for e, key in enumerate(plan.table[d]):
        g = plan.funcs[key]
        name = g.name_bad if bad and g.name_bad else f"f{g.idx}"
        comment = plan.table_comments.get((d, e), ("", ""))[1] if bad else ""
        lines.append(f"    # {comment or f'entry {e}'}")
        lines.append(f'    ("{modname(key[0], key[1])}", "{name}"),')
    lines.append("]")
    return "\n".join(lines) + "\n"


def tree(plan: Plan, bad: bool) -> dict[str, str]:
    files = {"pkg/__init__.py": '"""A package whose stages find each other by name."""\n',
             "pkg/registry.py": REGISTRY, TEST_NAME: TEST_SCRIPT}
    for d in range(plan.dirs):
        files[f"pkg/d{d:03d}/__init__.py"] = ""
        files[tablepath(d)] = table_text(plan, d, bad)
        for m in range(MODULES_PER_DIR):
            files[modpath(d, m)] = module_text(plan, d, m, bad)
    return files


def expected_values(plan: Plan) -> dict[str, list[int]]:
    """GOOD's results, computed here the way the generated code computes them."""
    memo: dict[tuple[tuple[int, int, int], int], int] = {}

    def value(key: tuple[int, int, int], x: int) -> int:
        if (key, x) not in memo:
            f = plan.funcs[key]
            a = x * f.coef + f.const
            b = value(f.call, a % 13) if f.call else a % 11
            memo[(key, x)] = (a + b) % MODULUS
        return memo[(key, x)]

    return {f"d{d:03d}:{i}": [value(key, x) for x in (1, 2, 5)]
            for d in range(plan.dirs) for i, key in enumerate(plan.table[d])}


# ---------------------------------------------------------------- repository

def write_tree(repo: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = repo / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


def generate(dest: Path, hunks: int = 100, seed: int = 1, renames: int | None = None,
             verify: bool = True) -> dict:
    """Build the repository at ``dest`` (must not exist); return its description."""
    dest = Path(dest).resolve()
    if dest.exists():
        raise SystemExit(f"generate: {dest} exists")
    if renames is None:
        renames = max(10, hunks // 10)
    plan = build_plan(hunks, renames, seed)
    expected = json.dumps(expected_values(plan), indent=0, sort_keys=True) + "\n"
    dest.mkdir(parents=True)
    rc.git(dest, "init", "-q")
    for side in ("good", "bad"):
        files = tree(plan, side == "bad")
        files["expected.json"] = expected
        write_tree(dest, files)
        rc.git(dest, "add", "-A", ".", side=side)
        rc.git(dest, "commit", "-q", "--no-verify", "-m",
               f"namelink {side}: seed {seed}, about {hunks} hunks", side=side)
        rc.git(dest, "tag", side, side=side)
    raw = rc.diff_bytes(dest)
    changes = rc.all_changes(rc.parse_diff(raw))
    count = rc.count_hunk_headers(raw)
    if count != plan.edits:
        raise SystemExit(f"generate: {count} hunks, planned {plan.edits} edits")
    cf = plan.funcs[plan.cause]  # type: ignore[index]
    cause_path = modpath(cf.dir, cf.mod)
    cause_line = cf.arith_bad.encode()
    cause = [c for c in changes if c.path == cause_path and b"\n+" + cause_line in c.body]
    assert len(cause) == 1, cause
    info = {"hunks": count, "seed": seed, "dirs": plan.dirs, "renames": len(plan.renames),
            "rename_hunks": sum(len(r["files"]) for r in plan.renames),
            "test_command": rc.TEST_COMMAND, "cause": [cause[0].label],
            "cause_function": f"{modname(cf.dir, cf.mod)}.f{cf.idx}",
            "rename_clusters": plan.renames,
            "target_tests": 2 * math.ceil(math.log2(count)) + 6}
    if verify:
        info["verify"] = verify_repo(dest, changes, cause[0])
    dest.with_suffix(".json").write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    return info


def verify_repo(repo: Path, changes: list[rc.Change], cause: rc.Change) -> dict:
    """Exit codes on GOOD, BAD, the cause alone and BAD without the cause."""
    out = {}
    with rc.Scratch(repo, changes) as s:
        t0 = time.monotonic()
        out["good"], _ = s.run([])
        out["test_seconds"] = round(time.monotonic() - t0, 2)
        out["cause_alone"], _ = s.run([cause])
        out["bad_without_cause"], _ = s.run([c for c in changes if c is not cause])
        s.reset()
        subprocess.run(["git", "checkout", "-q", "--detach", "bad"], cwd=s.tree, check=True)
        shutil.rmtree(s.tree / "pkg" / "__pycache__", ignore_errors=True)
        out["bad"], _ = rc.run_test(s.tree)
        subprocess.run(["git", "checkout", "-q", "--detach", "good"], cwd=s.tree, check=True)
    want = {"good": 0, "bad": 1, "cause_alone": 1, "bad_without_cause": 0}
    bad = {k: out[k] for k in want if out[k] != want[k]}
    if bad:
        raise SystemExit(f"generate: verification failed: {bad} (want {want})")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dest", type=Path)
    ap.add_argument("--hunks", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--renames", type=int, help="functions renamed (default: max(10, hunks/10))")
    ap.add_argument("--no-verify", action="store_true", help="skip the four test runs")
    args = ap.parse_args(argv)
    info = generate(args.dest, args.hunks, args.seed, args.renames, not args.no_verify)
    print(f"{args.dest}: {info['hunks']} hunks ({info['renames']} renames in "
          f"{info['rename_hunks']} hunks), cause {info['cause'][0]}, "
          f"verify {info.get('verify', 'skipped')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
