#!/usr/bin/env python3
"""Generate a package whose modules reach each other only by name (Python, JavaScript or C).

    python3 benchmarks/namelink/generate.py DEST [--lang python|javascript|c|cstatic] [--hunks 100]
                                            [--seed 1] [--renames N] [--no-verify]
                                            [--cause-in-rename]

Like a plugin registry, entry points or settings strings: every function is
listed in a table of another package, and some functions call others by name.

* python (the default): ``pkg/dNNN/mMM.py`` define ``f0`` ... ``f7``; the
  tables ``pkg/dNNN/plugins.py`` hold ("pkg.d004.m01", "f2") pairs of strings,
  callers say ``registry.call("pkg.d004.m01", "f2", ...)``, and ``importlib``
  and ``getattr`` resolve the strings when the test runs. Nothing imports
  another module by an ``import`` statement.
* javascript (node, CommonJS): ``pkg/dNNN/mMM.js`` export ``f0`` ... ``f7``;
  the tables ``pkg/dNNN/plugins.js`` hold ["pkg/d004/m01", "f2"] pairs, and
  ``pkg/registry.js`` resolves them with ``require`` and a property lookup.
* c (gcc): ``src/dNNN/mMM.c`` define ``dNNN_mMM_f0`` ... with external linkage,
  declared in ``src/dNNN/mMM.h``; the tables ``src/dNNN/plugins.c`` hold
  { "d004_m01_f2", d004_m01_f2 } entries and callers in other modules call
  ``d004_m01_f2(...)`` through its header. The linker joins the names.
* cstatic (gcc): C as plugin registries write it, with Python's ambiguity:
  ``src/dNNN/mMM.c`` define ``static int f0`` ... ``f7`` (the same names in
  every module) and export only the table ``dNNN_mMM_entries[]`` of
  { "f2", f2 } entries; ``src/registry.c`` maps "d004/m01" to that table, and
  callers say ``registry_call("d004/m01", "f2", ...)``, strings looked up when
  the program runs.

Every module defines eight functions of the same shapes, so a bare function
name says nothing about where it lives.

GOOD..BAD (tags ``good`` and ``bad`` of the git repository at DEST) holds:

* renames: ``fK`` becomes ``fK_v2`` in one module; the table entry naming it
  (in another package; cstatic: in the same module), the strings or calls of
  every caller and, in C, the prototype in the header change with it. Part of
  a rename fails (exit 125): the name does not resolve (python, javascript,
  a caller in cstatic) or the program does not build or link (c; the
  definition or the table entry in cstatic);
* unrelated edits, each harmless alone: doc comments, comments, arithmetic
  rewritten to the same value (``x * 3 + 7`` to ``7 + x * 3``), table comments
  (and, in C, the comments of the prototypes);
* one cause: a function's constant changes (``+ 7`` to ``+ 8``), so what it
  returns changes; alone on GOOD the test exits 1.

Every edit keeps the line count and stays eight or more lines from the next
edit of its file, so ``git diff -U3`` cuts one hunk per edit (checked).
``DEST.json`` (beside the repository) records the hunk count, the cause's
label (``path:-start,len``, as wynot labels hunks), the rename clusters and,
unless --no-verify, the test's exit codes on GOOD, BAD, the cause alone on
GOOD, BAD without the cause (all renames complete: the test passes) and each
hunk of the first rename (and of the first one with a caller, when the first
has none) alone on GOOD (125).

--cause-in-rename: the cause cannot be separated from a rename. Every
function's arithmetic (the constant) and comment lines swap, so the constant
is within two lines of the name; the cause's function (one with a caller) is
also renamed, and its constant edit falls in the hunk of the renamed
definition. The cause's hunk alone is a partial rename (125); the smallest
failing set is the whole rename (the cause's hunk, the table entry, the
callers' strings and, in C, the prototype). ``DEST.json`` records it as
``truth`` (labels) and ``cause_in_rename``, and the verification checks: the
truth set alone on GOOD 1, the cause's hunk alone 125, BAD without the truth
set 0, the truth set without any one of its hunks 125 (1-minimal), and the
hunks of the first other rename alone 125. Without the option the output is
unchanged.

The test (``python3 wynot_case_test.py``, ``node wynot_case_test.js`` or
``sh wynot_case_test.sh``) resolves every table entry, calls each function
with 1, 2 and 5 and compares with GOOD's values (``expected.json`` or
``expected.txt``): 0 equal, 1 different, 125 when a name cannot be resolved
(the error is printed) or, in C, the program does not build.
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
FUNC_LINES = 8          # lines per function in every language (edits at offsets 0..5)
MIN_GAP = 8             # edits of one file at least this many lines apart: one hunk each
EDIT_DENSITY = 0.55     # planned edits per function, to size the package
MODULUS = 1000003
LANGS = ("python", "javascript", "c", "cstatic")


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
    name_bad: str = ""     # "fK_v2" when renamed (each language spells the full name)
    arith_bad: str = ""    # the expression of ``a`` on BAD, e.g. "7 + x * 3"
    doc_bad: str = ""
    comment_bad: str = ""
    return_bad: int = -1   # which rewrite of the return line (an index of Lang.RETURNS)
    hdoc_bad: str = ""     # C: the comment of the prototype in the header

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.dir, self.mod, self.idx)

    @property
    def arith(self) -> str:
        return f"x * {self.coef} + {self.const}"


@dataclass
class Plan:
    lang: Lang
    dirs: int
    funcs: dict[tuple[int, int, int], Func]
    table: dict[int, list[tuple[int, int, int]]]          # dir -> entries (functions of dir+1)
    table_comments: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)
    taken: dict[str, list[int]] = field(default_factory=dict)
    cause: tuple[int, int, int] | None = None
    renames: list[dict] = field(default_factory=list)
    rename_spots: list[list[tuple[str, int]]] = field(default_factory=list)
    rename_callers: list[int] = field(default_factory=list)    # callers of each rename
    edits: int = 0
    cause_in_rename: bool = False     # the cause's function is renamed too, in one hunk
    truth_spots: list[tuple[str, int]] = field(default_factory=list)   # its rename's spots

    def name(self, key: tuple[int, int, int], bad: bool) -> str:
        """The short name of a function (``fK`` or ``fK_v2``) on GOOD or BAD."""
        g = self.funcs[key]
        return g.name_bad if bad and g.name_bad else f"f{g.idx}"


def phrase(rng: random.Random, templates: list[str]) -> str:
    return rng.choice(templates).format(noun=rng.choice(vocab.NOUNS), area=rng.choice(vocab.AREAS),
                                        Noun="Value", Area="Core")


# ---------------------------------------------------------------- languages

class Lang:
    """Where each language puts things, and its texts. The plan is shared."""

    name = ""
    tag = ""                     # in compare.py's repository names ("" for python)
    test_name = ""
    test_command: list[str] = []
    expected_name = ""
    # line of each editable part in a function's 8 lines
    offsets = {"name": 0, "doc": 1, "comment": 2, "arith": 3, "call": 4, "return": 5}
    unrelated_kinds = ("doc", "comment", "arith", "return")
    table_header = 5

    def modpath(self, d: int, m: int) -> str:
        raise NotImplementedError

    def tablepath(self, d: int) -> str:
        raise NotImplementedError

    def module_header(self, plan: Plan, d: int, m: int) -> int:
        """Lines before the first function of a module."""
        raise NotImplementedError

    def qualname(self, f: Func, bad: bool = False) -> str:
        raise NotImplementedError

    def func_line(self, plan: Plan, f: Func, part: str) -> int:
        """0-based line of ``f``'s ``part`` in its module."""
        return self.module_header(plan, f.dir, f.mod) + f.idx * FUNC_LINES + self.offset(plan, part)

    def offset(self, plan: Plan, part: str) -> int:
        """The line of ``part`` in a function: with --cause-in-rename the arithmetic
        (the cause's constant) and the comment swap, so that the constant is within
        two lines of the name and a rename of the cause's function shares its hunk."""
        if plan.cause_in_rename and part in ("arith", "comment"):
            part = "comment" if part == "arith" else "arith"
        return self.offsets[part]

    def arrange(self, plan: Plan, lines: list[str]) -> list[str]:
        """A function's lines in the order of :meth:`offset`."""
        assert len(lines) == FUNC_LINES
        if plan.cause_in_rename:
            i, j = self.offsets["arith"], self.offsets["comment"]
            lines[i], lines[j] = lines[j], lines[i]
        return lines

    def table_line(self, d: int, entry: int) -> int:
        """0-based line of a table entry (its comment is the line before)."""
        return self.table_header + 2 * entry + 1

    def extra_spot(self, plan: Plan, f: Func, part: str) -> tuple[str, int] | None:
        """A spot outside the module that ``part`` of ``f`` also owns (C: the header)."""
        return None

    def table_comment_spot(self, plan: Plan, d: int, e: int) -> tuple[str, int]:
        """The line of the comment of entry ``e`` of table ``d`` (an unrelated edit's spot)."""
        return (self.tablepath(d), self.table_line(d, e) - 1)

    def entries(self, plan: Plan) -> list[tuple[str, tuple[int, int, int]]]:
        """What the test checks, in its order: (label, function) per table entry."""
        return [(f"d{d:03d}:{i}", key) for d in range(plan.dirs)
                for i, key in enumerate(plan.table[d])]

    def rename_spots(self, plan: Plan, f: Func, td: int, te: int,
                     callers: list[Func]) -> list[tuple[str, int]]:
        spots = [(self.modpath(f.dir, f.mod), self.func_line(plan, f, "name"))]
        extra = self.extra_spot(plan, f, "name")
        spots += [extra] if extra else []
        spots.append((self.tablepath(td), self.table_line(td, te)))
        spots += [(self.modpath(c.dir, c.mod), self.func_line(plan, c, "call")) for c in callers]
        return spots

    RETURN = ""                  # the return line on GOOD
    RETURNS = ["", ""]           # its two rewrites (same value)

    def arith_line(self, expr: str) -> str:
        raise NotImplementedError

    def return_line(self, f: Func, bad: bool) -> str:
        return self.RETURNS[f.return_bad] if bad and f.return_bad >= 0 else self.RETURN

    def tree(self, plan: Plan, bad: bool) -> dict[str, str]:
        raise NotImplementedError

    def expected_text(self, values: dict[str, list[int]]) -> str:
        return json.dumps(values, indent=0, sort_keys=True) + "\n"


def build_plan(lang: Lang, hunks: int, renames: int, seed: int,
               cause_in_rename: bool = False) -> Plan:
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
    plan = Plan(lang, dirs, funcs, table, cause_in_rename=cause_in_rename)
    if cause_in_rename:
        _plan_cause_in_rename(plan, rng)
    else:
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
    lang = plan.lang
    while True:
        f = plan.funcs[rng.choice(keys)]
        if _take(plan, [(lang.modpath(f.dir, f.mod), lang.func_line(plan, f, "arith"))]):
            f.arith_bad = f"x * {f.coef} + {f.const + 1}"
            plan.cause = f.key
            return


def _callers(plan: Plan) -> dict[tuple[int, int, int], list[Func]]:
    """The functions that call each function by name."""
    callers: dict[tuple[int, int, int], list[Func]] = {}
    for f in plan.funcs.values():
        if f.call:
            callers.setdefault(f.call, []).append(f)
    return callers


def _plan_cause_in_rename(plan: Plan, rng: random.Random) -> None:
    """The cause's function, one with a caller, is also renamed: its constant
    edit and the renamed name fall in one hunk, the first spot of the rename."""
    callers = _callers(plan)
    keys = sorted(plan.funcs)
    lang = plan.lang
    while True:
        f = plan.funcs[rng.choice(keys)]
        if not callers.get(f.key):
            continue
        td, te = _entry_of(plan, f.key)
        spots = lang.rename_spots(plan, f, td, te, callers[f.key])
        path, arith = lang.modpath(f.dir, f.mod), lang.func_line(plan, f, "arith")
        if not _free(plan, path, arith) or not _take(plan, spots):
            continue
        assert 0 < abs(arith - lang.func_line(plan, f, "name")) <= 2
        # the constant's line belongs to the name's hunk (not one more edit), but the
        # next edit of the file must keep its distance from it too
        plan.taken[path].append(arith)
        f.arith_bad = f"x * {f.coef} + {f.const + 1}"
        f.name_bad = f"f{f.idx}_v2"
        plan.cause = f.key
        plan.truth_spots = spots
        _add_rename(plan, f, spots, len(callers[f.key]))
        return


def _add_rename(plan: Plan, f: Func, spots: list[tuple[str, int]], callers: int) -> None:
    lang = plan.lang
    plan.renames.append({"function": lang.qualname(f),
                         "new_name": lang.qualname(f, True).rsplit(".", 1)[-1],
                         "files": [p for p, _ in spots]})
    plan.rename_spots.append(spots)
    plan.rename_callers.append(callers)


def _entry_of(plan: Plan, key: tuple[int, int, int]) -> tuple[int, int]:
    d = (key[0] - 1) % plan.dirs
    return d, plan.table[d].index(key)


def _plan_renames(plan: Plan, rng: random.Random, count: int) -> None:
    callers = _callers(plan)
    keys = sorted(plan.funcs)
    rng.shuffle(keys)
    lang = plan.lang
    for key in keys:
        if len(plan.renames) >= count:
            break
        f = plan.funcs[key]
        if key == plan.cause:
            continue
        td, te = _entry_of(plan, key)
        spots = lang.rename_spots(plan, f, td, te, callers.get(key, []))
        if any(c.key == plan.cause for c in callers.get(key, [])):
            continue
        if not _take(plan, spots):
            continue
        f.name_bad = f"f{f.idx}_v2"
        _add_rename(plan, f, spots, len(callers.get(key, [])))


EXPR_VARIANTS = ["{const} + x * {coef}", "{coef} * x + {const}", "(x * {coef}) + {const}"]


def _plan_unrelated(plan: Plan, rng: random.Random, count: int) -> None:
    lang = plan.lang
    slots: list[tuple[str, object]] = []
    for _key, f in sorted(plan.funcs.items()):
        slots += [(kind, f) for kind in lang.unrelated_kinds]
    for d in range(plan.dirs):
        slots += [("table", (d, e)) for e in range(len(plan.table[d]))]
    rng.shuffle(slots)
    done = 0
    for kind, obj in slots:
        if done >= count:
            break
        if kind == "table":
            d, e = obj  # type: ignore[misc]
            if _take(plan, [lang.table_comment_spot(plan, d, e)]):
                plan.table_comments[(d, e)] = ("", phrase(rng, vocab.TABLE_COMMENTS))
                done += 1
            continue
        f: Func = obj  # type: ignore[assignment]
        if f.key == plan.cause and kind == "arith":
            continue
        spot = lang.extra_spot(plan, f, kind) or (lang.modpath(f.dir, f.mod),
                                                  lang.func_line(plan, f, kind))
        if not _take(plan, [spot]):
            continue
        done += 1
        if kind == "doc":
            f.doc_bad = phrase(rng, vocab.SPACER_SENTENCES) + " Pure."
        elif kind == "hdoc":
            f.hdoc_bad = phrase(rng, vocab.SPACER_SENTENCES)
        elif kind == "comment":
            while not f.comment_bad or f.comment_bad == f.comment:
                f.comment_bad = phrase(rng, vocab.COMMENTS)
        elif kind == "arith":
            f.arith_bad = rng.choice(EXPR_VARIANTS).format(const=f.const, coef=f.coef)
        else:
            f.return_bad = rng.choice([0, 1])


# ---------------------------------------------------------------- python

PY_TEST = '''\
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

PY_REGISTRY = '''\
"""Resolve functions by (module, name) strings, as plugin registries do."""

import importlib


def resolve(module, name):
    """The function ``name`` of ``module``, imported on first use."""
    return getattr(importlib.import_module(module), name)


def call(module, name, *args):
    """Call ``module.name(*args)``, resolved by name at run time."""
    return resolve(module, name)(*args)
'''


class Python(Lang):
    name = "python"
    test_name = rc.TEST_NAME
    test_command = rc.TEST_COMMAND
    expected_name = "expected.json"
    MODULE_HEADER = 6      # docstring, blank, import, blank, MODULUS, blank
    RETURN = "    return (a + b) % MODULUS"
    RETURNS = ["    return (b + a) % MODULUS", "    return (a + b) % MODULUS  # wrap"]

    def modname(self, d: int, m: int) -> str:
        return f"pkg.d{d:03d}.m{m:02d}"

    def modpath(self, d: int, m: int) -> str:
        return f"pkg/d{d:03d}/m{m:02d}.py"

    def tablepath(self, d: int) -> str:
        return f"pkg/d{d:03d}/plugins.py"

    def module_header(self, plan: Plan, d: int, m: int) -> int:
        return self.MODULE_HEADER

    def qualname(self, f: Func, bad: bool = False) -> str:
        return f"{self.modname(f.dir, f.mod)}.{f.name_bad if bad else f'f{f.idx}'}"

    def arith_line(self, expr: str) -> str:
        return f"    a = {expr}"

    def func_lines(self, plan: Plan, f: Func, bad: bool) -> list[str]:
        call = "    b = a % 11"
        if f.call:
            d, m, _ = f.call
            call = (f'    b = registry.call("{self.modname(d, m)}", "{plan.name(f.call, bad)}", '
                    'a % 13)')
        lines = [
            f"def {plan.name(f.key, bad)}(x):",
            f'    """{(f.doc_bad if bad and f.doc_bad else f.doc)}"""',
            f"    # {(f.comment_bad if bad and f.comment_bad else f.comment)}",
            self.arith_line(f.arith_bad if bad and f.arith_bad else f.arith),
            call,
            self.return_line(f, bad),
            "",
            "",
        ]
        return self.arrange(plan, lines)

    def module_text(self, plan: Plan, d: int, m: int, bad: bool) -> str:
        lines = [f'"""Stage functions of {self.modname(d, m)}; called by name through the plugin '
                 'tables."""',
                 "",
                 "from pkg import registry",
                 "",
                 f"MODULUS = {MODULUS}",
                 ""]
        assert len(lines) == self.MODULE_HEADER
        for i in range(FUNCS_PER_MODULE):
            lines += self.func_lines(plan, plan.funcs[(d, m, i)], bad)
        return "\n".join(lines).rstrip("\n") + "\n"

    def table_text(self, plan: Plan, d: int, bad: bool) -> str:
        lines = [f'"""Plugins that package d{d:03d} registers: (module, function name) pairs."""',
                 "",
                 "# Resolved by name when the application starts (see pkg/registry.py).",
                 "",
                 "PLUGINS = ["]
        assert len(lines) == self.table_header
        for e, key in enumerate(plan.table[d]):
            comment = plan.table_comments.get((d, e), ("", ""))[1] if bad else ""
            lines.append(f"    # {comment or f'entry {e}'}")
            lines.append(f'    ("{self.modname(key[0], key[1])}", "{plan.name(key, bad)}"),')
        lines.append("]")
        return "\n".join(lines) + "\n"

    def tree(self, plan: Plan, bad: bool) -> dict[str, str]:
        files = {"pkg/__init__.py": '"""A package whose stages find each other by name."""\n',
                 "pkg/registry.py": PY_REGISTRY, self.test_name: PY_TEST}
        for d in range(plan.dirs):
            files[f"pkg/d{d:03d}/__init__.py"] = ""
            files[self.tablepath(d)] = self.table_text(plan, d, bad)
            for m in range(MODULES_PER_DIR):
                files[self.modpath(d, m)] = self.module_text(plan, d, m, bad)
        return files


# ---------------------------------------------------------------- javascript

JS_TEST = '''\
"use strict";
// Resolve every plugin table entry by name and check what the functions return.
//
// Exit 0: every value as on GOOD. Exit 1: some value differs. Exit 125: a
// [module, name] pair cannot be resolved (the error and its stack are
// printed), or another unexpected error.

const fs = require("fs");
const path = require("path");

function main() {
  const expected = JSON.parse(fs.readFileSync(path.join(__dirname, "expected.json"), "utf8"));
  const pkg = path.join(__dirname, "pkg");
  const dirs = fs.readdirSync(pkg)
    .filter((d) => fs.existsSync(path.join(pkg, d, "plugins.js")))
    .sort();
  const got = {};
  try {
    const registry = require("./pkg/registry");
    for (const d of dirs) {
      const table = require(path.join(pkg, d, "plugins.js"));
      table.forEach(([mod, name], i) => {
        const func = registry.resolve(mod, name);
        got[`${d}:${i}`] = [1, 2, 5].map((x) => func(x));
      });
    }
  } catch (err) {
    console.log(err && err.stack ? err.stack : String(err));
    console.log("UNRESOLVED: a plugin name could not be resolved");
    return 125;
  }
  const keys = Object.keys(expected).sort();
  if (JSON.stringify(Object.keys(got).sort()) !== JSON.stringify(keys)) {
    console.log("UNRESOLVED: the plugin tables do not list the expected entries");
    return 125;
  }
  const wrong = keys.filter((k) => JSON.stringify(got[k]) !== JSON.stringify(expected[k]));
  if (wrong.length) {
    const k = wrong[0];
    console.log(`FAIL: ${wrong.length} plugin results differ, e.g. ${k}: ` +
                `${JSON.stringify(got[k])} instead of ${JSON.stringify(expected[k])}`);
    return 1;
  }
  console.log(`PASS: ${keys.length} plugin results as expected`);
  return 0;
}

process.exitCode = main();
'''

JS_REGISTRY = '''\
"use strict";
// Resolve functions by [module, name] strings, as plugin registries do.

const path = require("path");

const root = path.resolve(__dirname, "..");

// The function `name` exported by the module at `mod` (relative to the root),
// loaded on first use.
function resolve(mod, name) {
  const func = require(path.join(root, mod))[name];
  if (typeof func !== "function") {
    throw new TypeError(`${mod} has no function ${name}`);
  }
  return func;
}

// Call mod.name(...args), resolved by name at run time.
function call(mod, name, ...args) {
  return resolve(mod, name)(...args);
}

module.exports = { resolve, call };
'''


class JavaScript(Lang):
    name = "javascript"
    tag = "js"
    test_name = "wynot_case_test.js"
    test_command = ["node", "wynot_case_test.js"]
    expected_name = "expected.json"
    MODULE_HEADER = 6      # "use strict", comment, require, blank, MODULUS, blank
    RETURN = "  return (a + b) % MODULUS;"
    RETURNS = ["  return (b + a) % MODULUS;", "  return (a + b) % MODULUS; // wrap"]

    def modname(self, d: int, m: int) -> str:
        return f"pkg/d{d:03d}/m{m:02d}"

    def modpath(self, d: int, m: int) -> str:
        return f"pkg/d{d:03d}/m{m:02d}.js"

    def tablepath(self, d: int) -> str:
        return f"pkg/d{d:03d}/plugins.js"

    def module_header(self, plan: Plan, d: int, m: int) -> int:
        return self.MODULE_HEADER

    def qualname(self, f: Func, bad: bool = False) -> str:
        return f"{self.modname(f.dir, f.mod)}.{f.name_bad if bad else f'f{f.idx}'}"

    def arith_line(self, expr: str) -> str:
        return f"  const a = {expr};"

    def func_lines(self, plan: Plan, f: Func, bad: bool) -> list[str]:
        call = "  const b = a % 11;"
        if f.call:
            d, m, _ = f.call
            call = (f'  const b = registry.call("{self.modname(d, m)}", '
                    f'"{plan.name(f.call, bad)}", a % 13);')
        lines = [
            f"exports.{plan.name(f.key, bad)} = function (x) {{",
            f"  // {(f.doc_bad if bad and f.doc_bad else f.doc)}",
            f"  // {(f.comment_bad if bad and f.comment_bad else f.comment)}",
            self.arith_line(f.arith_bad if bad and f.arith_bad else f.arith),
            call,
            self.return_line(f, bad),
            "};",
            "",
        ]
        return self.arrange(plan, lines)

    def module_text(self, plan: Plan, d: int, m: int, bad: bool) -> str:
        lines = ['"use strict";',
                 f"// Stage functions of {self.modname(d, m)}; called by name through the plugin "
                 "tables.",
                 'const registry = require("../registry");',
                 "",
                 f"const MODULUS = {MODULUS};",
                 ""]
        assert len(lines) == self.MODULE_HEADER
        for i in range(FUNCS_PER_MODULE):
            lines += self.func_lines(plan, plan.funcs[(d, m, i)], bad)
        return "\n".join(lines).rstrip("\n") + "\n"

    def table_text(self, plan: Plan, d: int, bad: bool) -> str:
        lines = ['"use strict";',
                 f"// Plugins that package d{d:03d} registers: [module, function name] pairs.",
                 "// Resolved by name when the application starts (see pkg/registry.js).",
                 "",
                 "module.exports = ["]
        assert len(lines) == self.table_header
        for e, key in enumerate(plan.table[d]):
            comment = plan.table_comments.get((d, e), ("", ""))[1] if bad else ""
            lines.append(f"  // {comment or f'entry {e}'}")
            lines.append(f'  ["{self.modname(key[0], key[1])}", "{plan.name(key, bad)}"],')
        lines.append("];")
        return "\n".join(lines) + "\n"

    def tree(self, plan: Plan, bad: bool) -> dict[str, str]:
        files = {"package.json": '{\n  "name": "namelink",\n  "private": true,\n'
                                 '  "type": "commonjs"\n}\n',
                 "pkg/registry.js": JS_REGISTRY, self.test_name: JS_TEST}
        for d in range(plan.dirs):
            files[self.tablepath(d)] = self.table_text(plan, d, bad)
            for m in range(MODULES_PER_DIR):
                files[self.modpath(d, m)] = self.module_text(plan, d, m, bad)
        return files


# ---------------------------------------------------------------- c

# The C programs' build rules, and their test's build and comparison (the
# run between them differs: cstatic prints what the registry says).
_MAKE_RULES = """
OUT ?= build
CC ?= gcc
CFLAGS = -std=c99 -O0 -pipe -Wall -Werror=implicit-function-declaration
SRCS := $(sort $(wildcard src/*.c src/*/*.c))
OBJS := $(patsubst src/%.c,$(OUT)/%.o,$(SRCS))

$(OUT)/namelink: $(OBJS)
\t$(CC) -o $@ $(OBJS)

$(OUT)/%.o: src/%.c
\t@mkdir -p $(dir $@)
\t$(CC) $(CFLAGS) -c -o $@ $<
"""
_TEST_BUILD = """
out=$(mktemp -d "${TMPDIR:-/tmp}/namelink.XXXXXX") || exit 125
trap 'rm -rf "$out"' EXIT
if ! make -s -j2 -f build.mk OUT="$out" >"$out/build.log" 2>&1; then
    tail -n 20 "$out/build.log"
    echo "UNRESOLVED: the program does not build"
    exit 125
fi
"""
_C_RUN = """\
if ! "$out/namelink" >"$out/got.txt"; then
    echo "UNRESOLVED: the program failed"
    exit 125
fi
"""
_CS_RUN = """\
if ! "$out/namelink" >"$out/got.txt" 2>"$out/err.txt"; then
    tail -n 20 "$out/err.txt"
    echo "UNRESOLVED: the program failed"
    exit 125
fi
"""
_TEST_COMPARE = """\
if cmp -s expected.txt "$out/got.txt"; then
    echo "PASS: $(wc -l <expected.txt) plugin results as expected"
    exit 0
fi
echo "FAIL: plugin results differ:"
diff expected.txt "$out/got.txt" | head -n 6
exit 1
"""

C_TEST = """\
#!/bin/sh
# Build the program (the linker joins the functions, the tables and the callers
# by name), run it and compare what every table entry returns for 1, 2 and 5
# with GOOD's values in expected.txt.
#
# Exit 0: every value as on GOOD. Exit 1: some value differs. Exit 125: the
# program does not build or link (an undeclared or undefined name; the
# compiler's or the linker's message is printed), or it does not run.
""" + _TEST_BUILD + _C_RUN + _TEST_COMPARE

C_MAKEFILE = """\
# Build the program out of the tree: make -f build.mk OUT=DIR (DIR/namelink).
# Every src/**/*.c is a translation unit; the linker resolves the names.
""" + _MAKE_RULES

C_PLUGIN_H = '''\
/* A plugin table entry: a function's name and the function, joined by the linker. */
#ifndef NAMELINK_PLUGIN_H
#define NAMELINK_PLUGIN_H

struct plugin {
    const char *name;
    int (*func)(int);
};

#endif
'''


class C(Lang):
    name = "c"
    tag = "c"
    test_name = "wynot_case_test.sh"
    test_command = ["sh", "wynot_case_test.sh"]
    expected_name = "expected.txt"
    offsets = {"doc": 0, "name": 1, "comment": 2, "arith": 3, "call": 4, "return": 5}
    unrelated_kinds = ("doc", "comment", "arith", "return", "hdoc")
    table_header = 2 + MODULES_PER_DIR + 2      # comment, plugin.h, 8 headers, blank, array
    HEADER_TOP = 4                              # comment, #ifndef, #define, blank
    PROTO_LINES = 3                             # comment, prototype, blank
    RETURN = "    return (a + b) % MODULUS;"
    RETURNS = ["    return (b + a) % MODULUS;", "    return (a + b) % MODULUS; /* wrap */"]

    def cname(self, d: int, m: int, short: str) -> str:
        return f"d{d:03d}_m{m:02d}_{short}"

    def modpath(self, d: int, m: int) -> str:
        return f"src/d{d:03d}/m{m:02d}.c"

    def headerpath(self, d: int, m: int) -> str:
        return f"src/d{d:03d}/m{m:02d}.h"

    def tablepath(self, d: int) -> str:
        return f"src/d{d:03d}/plugins.c"

    def callees(self, plan: Plan, d: int, m: int) -> list[tuple[int, int]]:
        """The other modules whose functions module (d, m) calls: it includes their headers."""
        out = {plan.funcs[(d, m, i)].call for i in range(FUNCS_PER_MODULE)}
        return sorted({(c[0], c[1]) for c in out if c})

    def module_header(self, plan: Plan, d: int, m: int) -> int:
        return 2 + len(self.callees(plan, d, m)) + 3

    def qualname(self, f: Func, bad: bool = False) -> str:
        return self.cname(f.dir, f.mod, f.name_bad if bad else f"f{f.idx}")

    def extra_spot(self, plan: Plan, f: Func, part: str) -> tuple[str, int] | None:
        line = self.HEADER_TOP + f.idx * self.PROTO_LINES
        if part == "name":
            return (self.headerpath(f.dir, f.mod), line + 1)
        if part == "hdoc":
            return (self.headerpath(f.dir, f.mod), line)
        return None

    def arith_line(self, expr: str) -> str:
        return f"    int a = {expr};"

    def full(self, plan: Plan, key: tuple[int, int, int], bad: bool) -> str:
        return self.cname(key[0], key[1], plan.name(key, bad))

    def func_lines(self, plan: Plan, f: Func, bad: bool) -> list[str]:
        call = "    int b = a % 11;"
        if f.call:
            call = f"    int b = {self.full(plan, f.call, bad)}(a % 13);"
        lines = [
            f"/* {(f.doc_bad if bad and f.doc_bad else f.doc)} */",
            f"int {self.full(plan, f.key, bad)}(int x) {{",
            f"    /* {(f.comment_bad if bad and f.comment_bad else f.comment)} */",
            self.arith_line(f.arith_bad if bad and f.arith_bad else f.arith),
            call,
            self.return_line(f, bad),
            "}",
            "",
        ]
        return self.arrange(plan, lines)

    def module_text(self, plan: Plan, d: int, m: int, bad: bool) -> str:
        lines = [f"/* Stage functions of d{d:03d}/m{m:02d}: listed in the plugin tables and "
                 "called by other modules. */",
                 f'#include "m{m:02d}.h"']
        lines += [f'#include "../d{cd:03d}/m{cm:02d}.h"' for cd, cm in self.callees(plan, d, m)]
        lines += ["", f"#define MODULUS {MODULUS}", ""]
        assert len(lines) == self.module_header(plan, d, m)
        for i in range(FUNCS_PER_MODULE):
            lines += self.func_lines(plan, plan.funcs[(d, m, i)], bad)
        return "\n".join(lines).rstrip("\n") + "\n"

    def header_text(self, plan: Plan, d: int, m: int, bad: bool) -> str:
        guard = f"NAMELINK_D{d:03d}_M{m:02d}_H"
        lines = [f"/* The functions of d{d:03d}/m{m:02d}: external linkage, names unique per "
                 "module. */",
                 f"#ifndef {guard}",
                 f"#define {guard}",
                 ""]
        assert len(lines) == self.HEADER_TOP
        for i in range(FUNCS_PER_MODULE):
            f = plan.funcs[(d, m, i)]
            hdoc = f.hdoc_bad if bad and f.hdoc_bad else f"Stage {i} of d{d:03d}/m{m:02d}."
            lines += [f"/* {hdoc} */", f"int {self.full(plan, f.key, bad)}(int x);", ""]
        lines.append("#endif")
        return "\n".join(lines) + "\n"

    def table_text(self, plan: Plan, d: int, bad: bool) -> str:
        src = (d + 1) % plan.dirs
        lines = [f"/* Plugins that package d{d:03d} registers: (name, function) pairs. */",
                 '#include "../plugin.h"']
        lines += [f'#include "../d{src:03d}/m{m:02d}.h"' for m in range(MODULES_PER_DIR)]
        lines += ["", f"const struct plugin d{d:03d}_plugins[] = {{"]
        assert len(lines) == self.table_header
        for e, key in enumerate(plan.table[d]):
            comment = plan.table_comments.get((d, e), ("", ""))[1] if bad else ""
            name = self.full(plan, key, bad)
            lines.append(f"    /* {comment or f'entry {e}'} */")
            lines.append(f'    {{ "{name}", {name} }},')
        lines += ["};", "",
                  f"const int d{d:03d}_plugins_count = "
                  f"sizeof d{d:03d}_plugins / sizeof d{d:03d}_plugins[0];"]
        return "\n".join(lines) + "\n"

    def main_text(self, plan: Plan) -> str:
        lines = ["/* Print what every plugin table entry returns for 1, 2 and 5. */",
                 "#include <stdio.h>",
                 '#include "plugin.h"',
                 ""]
        for d in range(plan.dirs):
            lines += [f"extern const struct plugin d{d:03d}_plugins[];",
                      f"extern const int d{d:03d}_plugins_count;"]
        lines += ["",
                  "static void run(const char *dir, const struct plugin *table, int count)",
                  "{",
                  "    for (int i = 0; i < count; i++)",
                  '        printf("%s:%d %d %d %d\\n", dir, i, table[i].func(1), table[i].func(2),',
                  "               table[i].func(5));",
                  "}",
                  "",
                  "int main(void)",
                  "{"]
        lines += [f'    run("d{d:03d}", d{d:03d}_plugins, d{d:03d}_plugins_count);'
                  for d in range(plan.dirs)]
        lines += ["    return 0;", "}"]
        return "\n".join(lines) + "\n"

    def tree(self, plan: Plan, bad: bool) -> dict[str, str]:
        files = {"build.mk": C_MAKEFILE, "src/plugin.h": C_PLUGIN_H,
                 "src/main.c": self.main_text(plan), self.test_name: C_TEST}
        for d in range(plan.dirs):
            files[self.tablepath(d)] = self.table_text(plan, d, bad)
            for m in range(MODULES_PER_DIR):
                files[self.modpath(d, m)] = self.module_text(plan, d, m, bad)
                files[self.headerpath(d, m)] = self.header_text(plan, d, m, bad)
        return files

    def expected_text(self, values: dict[str, list[int]]) -> str:
        return "".join(f"{k} {' '.join(map(str, v))}\n" for k, v in values.items())


# ---------------------------------------------------------------- cstatic

CS_TEST = """\
#!/bin/sh
# Build the program, run it and compare what every module's table entry
# returns for 1, 2 and 5 with GOOD's values in expected.txt. The functions are
# static; the registry (src/registry.c) finds them by module path and name
# when the program runs.
#
# Exit 0: every value as on GOOD. Exit 1: some value differs. Exit 125: the
# program does not build (the compiler's message is printed), or it fails,
# e.g. a name the registry cannot find ("registry: d004/m01 has no function
# f2_v2").
""" + _TEST_BUILD + _CS_RUN + _TEST_COMPARE

CS_MAKEFILE = """\
# Build the program out of the tree: make -f build.mk OUT=DIR (DIR/namelink).
# Every src/**/*.c is a translation unit; the registry finds functions by name
# when the program runs.
""" + _MAKE_RULES

CS_REGISTRY_BODY = """\
static const struct plugin_entry *module_table(const char *path)
{
    for (const struct plugin_module *m = registry_modules; m->path; m++)
        if (strcmp(m->path, path) == 0)
            return m->entries;
    fprintf(stderr, "registry: no module %s\\n", path);
    exit(125);
}

plugin_func registry_lookup(const char *path, const char *name)
{
    for (const struct plugin_entry *e = module_table(path); e->name; e++)
        if (strcmp(e->name, name) == 0)
            return e->func;
    fprintf(stderr, "registry: %s has no function %s\\n", path, name);
    exit(125);
}

int registry_call(const char *path, const char *name, int x)
{
    return registry_lookup(path, name)(x);
}
"""

CS_MAIN = """\
/* Print what every function of every module's table returns for 1, 2 and 5. */
#include <stdio.h>
#include "plugins.h"

int main(void)
{
    for (const struct plugin_module *m = registry_modules; m->path; m++)
        for (int i = 0; m->entries[i].name; i++) {
            plugin_func f = m->entries[i].func;
            printf("%s:%d %d %d %d\\n", m->path, i, f(1), f(2), f(5));
        }
    return 0;
}
"""


class CStatic(C):
    """C with the ambiguity of the Python and JavaScript packages: every module
    defines ``static int f0`` ... ``f7`` and exports only a table of
    ``{ "f2", f2 }`` entries; callers reach another module's function through
    ``registry_call("d004/m01", "f2", ...)``, strings resolved at run time."""

    name = "cstatic"
    tag = "cstatic"
    offsets = {"doc": 0, "name": 1, "comment": 2, "arith": 3, "call": 4, "return": 5}
    unrelated_kinds = ("doc", "comment", "arith", "return")
    MODULE_HEADER = 5       # comment, #include, blank, #define MODULUS, blank
    TABLE_TOP = MODULE_HEADER + FUNCS_PER_MODULE * FUNC_LINES + 2   # comment, array

    def modname(self, d: int, m: int) -> str:
        return f"d{d:03d}/m{m:02d}"

    def module_header(self, plan: Plan, d: int, m: int) -> int:
        return self.MODULE_HEADER

    def qualname(self, f: Func, bad: bool = False) -> str:
        return f"{self.modname(f.dir, f.mod)}.{f.name_bad if bad else f'f{f.idx}'}"

    def entry_line(self, i: int) -> int:
        """0-based line of the table entry of ``fi`` (its comment is the line before)."""
        return self.TABLE_TOP + 2 * i + 1

    def table_comment_spot(self, plan: Plan, d: int, e: int) -> tuple[str, int]:
        # plan.table[d] has one slot per function of a package: slot e is the
        # comment of entry e % 8 of module e // 8 of package d
        return (self.modpath(d, e // FUNCS_PER_MODULE), self.entry_line(e % FUNCS_PER_MODULE) - 1)

    def entries(self, plan: Plan) -> list[tuple[str, tuple[int, int, int]]]:
        return [(f"{self.modname(d, m)}:{i}", (d, m, i)) for d in range(plan.dirs)
                for m in range(MODULES_PER_DIR) for i in range(FUNCS_PER_MODULE)]

    def rename_spots(self, plan: Plan, f: Func, td: int, te: int,
                     callers: list[Func]) -> list[tuple[str, int]]:
        path = self.modpath(f.dir, f.mod)
        spots = [(path, self.func_line(plan, f, "name")), (path, self.entry_line(f.idx))]
        spots += [(self.modpath(c.dir, c.mod), self.func_line(plan, c, "call")) for c in callers]
        return spots

    def extra_spot(self, plan: Plan, f: Func, part: str) -> tuple[str, int] | None:
        return None

    def func_lines(self, plan: Plan, f: Func, bad: bool) -> list[str]:
        call = "    int b = a % 11;"
        if f.call:
            d, m, _ = f.call
            call = (f'    int b = registry_call("{self.modname(d, m)}", '
                    f'"{plan.name(f.call, bad)}", a % 13);')
        lines = [
            f"/* {(f.doc_bad if bad and f.doc_bad else f.doc)} */",
            f"static int {plan.name(f.key, bad)}(int x) {{",
            f"    /* {(f.comment_bad if bad and f.comment_bad else f.comment)} */",
            self.arith_line(f.arith_bad if bad and f.arith_bad else f.arith),
            call,
            self.return_line(f, bad),
            "}",
            "",
        ]
        return self.arrange(plan, lines)

    def module_text(self, plan: Plan, d: int, m: int, bad: bool) -> str:
        mod = self.modname(d, m)
        lines = [f"/* Stage functions of {mod}: static, reached by name through the table at "
                 "the end. */",
                 '#include "../plugins.h"',
                 "",
                 f"#define MODULUS {MODULUS}",
                 ""]
        assert len(lines) == self.MODULE_HEADER
        for i in range(FUNCS_PER_MODULE):
            lines += self.func_lines(plan, plan.funcs[(d, m, i)], bad)
        lines += [f"/* The functions {mod} registers: (name, function) pairs, looked up by name "
                  "(src/registry.c). */",
                  f"const struct plugin_entry d{d:03d}_m{m:02d}_entries[] = {{"]
        assert len(lines) == self.TABLE_TOP
        for i in range(FUNCS_PER_MODULE):
            e = m * FUNCS_PER_MODULE + i
            comment = plan.table_comments.get((d, e), ("", ""))[1] if bad else ""
            name = plan.name((d, m, i), bad)
            assert len(lines) == self.entry_line(i) - 1
            lines.append(f"    /* {comment or f'entry {i}'} */")
            lines.append(f'    {{ "{name}", {name} }},')
        lines += ["    { NULL, NULL }", "};"]
        return "\n".join(lines) + "\n"

    def modules(self, plan: Plan) -> list[tuple[int, int]]:
        return [(d, m) for d in range(plan.dirs) for m in range(MODULES_PER_DIR)]

    def plugins_h(self, plan: Plan) -> str:
        lines = ["/* The plugin registry: every module exports one table of (name, function)",
                 " * pairs; src/registry.c maps a module path (\"d004/m01\") to its table and",
                 " * finds a function by its name when the program runs. */",
                 "#ifndef NAMELINK_PLUGINS_H",
                 "#define NAMELINK_PLUGINS_H",
                 "",
                 "#include <stddef.h>",
                 "",
                 "typedef int (*plugin_func)(int);",
                 "",
                 "struct plugin_entry {",
                 "    const char *name;",
                 "    plugin_func func;",
                 "};",
                 "",
                 "struct plugin_module {",
                 "    const char *path;",
                 "    const struct plugin_entry *entries;",
                 "};",
                 "",
                 "/* The modules' tables, each ended by { NULL, NULL }. */"]
        lines += [f"extern const struct plugin_entry d{d:03d}_m{m:02d}_entries[];"
                  for d, m in self.modules(plan)]
        lines += ["",
                  "/* Every module and its table, ended by { NULL, NULL } (src/registry.c). */",
                  "extern const struct plugin_module registry_modules[];",
                  "",
                  "/* The function `name` of the module at `path`; when there is none, print",
                  " * \"registry: PATH has no function NAME\" and exit 125. */",
                  "plugin_func registry_lookup(const char *path, const char *name);",
                  "",
                  "/* registry_lookup(path, name)(x) */",
                  "int registry_call(const char *path, const char *name, int x);",
                  "",
                  "#endif"]
        return "\n".join(lines) + "\n"

    def registry_text(self, plan: Plan) -> str:
        lines = ["/* Find plugin functions by module path and name, as plugin registries do. */",
                 "#include <stdio.h>",
                 "#include <stdlib.h>",
                 "#include <string.h>",
                 '#include "plugins.h"',
                 "",
                 "const struct plugin_module registry_modules[] = {"]
        lines += [f'    {{ "{self.modname(d, m)}", d{d:03d}_m{m:02d}_entries }},'
                  for d, m in self.modules(plan)]
        lines += ["    { NULL, NULL }", "};", ""]
        return "\n".join(lines) + "\n" + CS_REGISTRY_BODY

    def tree(self, plan: Plan, bad: bool) -> dict[str, str]:
        files = {"build.mk": CS_MAKEFILE, "src/plugins.h": self.plugins_h(plan),
                 "src/registry.c": self.registry_text(plan), "src/main.c": CS_MAIN,
                 self.test_name: CS_TEST}
        for d, m in self.modules(plan):
            files[self.modpath(d, m)] = self.module_text(plan, d, m, bad)
        return files


LANG = {"python": Python(), "javascript": JavaScript(), "c": C(), "cstatic": CStatic()}


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

    return {label: [value(key, x) for x in (1, 2, 5)] for label, key in plan.lang.entries(plan)}


# ---------------------------------------------------------------- repository

def write_tree(repo: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = repo / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


def generate(dest: Path, hunks: int = 100, seed: int = 1, renames: int | None = None,
             verify: bool = True, lang: str = "python", cause_in_rename: bool = False) -> dict:
    """Build the repository at ``dest`` (must not exist); return its description."""
    dest = Path(dest).resolve()
    if dest.exists():
        raise SystemExit(f"generate: {dest} exists")
    if renames is None:
        renames = max(10, hunks // 10)
    language = LANG[lang]
    plan = build_plan(language, hunks, renames, seed, cause_in_rename)
    expected = language.expected_text(expected_values(plan))
    dest.mkdir(parents=True)
    rc.git(dest, "init", "-q")
    for side in ("good", "bad"):
        files = language.tree(plan, side == "bad")
        files[language.expected_name] = expected
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
    cause = change_at(changes, language.modpath(cf.dir, cf.mod),
                      language.func_line(plan, cf, "arith"))
    assert b"\n+" + language.arith_line(cf.arith_bad).encode() + b"\n" in cause.body, cause.body
    truth = [change_at(changes, p, ln) for p, ln in plan.truth_spots]
    if cause_in_rename:
        assert truth[0] is cause and cf.name_bad.encode() in cause.body, cause.body
    info = {"hunks": count, "seed": seed, "dirs": plan.dirs, "renames": len(plan.renames),
            "rename_hunks": sum(len(r["files"]) for r in plan.renames),
            "test_command": language.test_command, "cause": [cause.label],
            "cause_function": language.qualname(cf),
            "rename_clusters": plan.renames,
            "target_tests": 2 * math.ceil(math.log2(count)) + 6}
    if lang != "python":
        info["lang"] = lang
    if cause_in_rename:
        # the cause's hunk is part of a rename: the smallest failing set is that rename
        info["cause_in_rename"] = True
        info["truth"] = [c.label for c in truth]
    if verify:
        # the first rename, and the first one with a caller when the first has none
        # (with --cause-in-rename: of the renames after the cause's)
        first = 1 if cause_in_rename else 0
        which = [first] + [next((i for i, n in enumerate(plan.rename_callers)
                                 if n and i >= first), first)]
        parts = [change_at(changes, p, ln) for i in sorted(set(which))
                 for p, ln in plan.rename_spots[i]]
        info["verify"] = verify_repo(dest, changes, cause, parts, language.test_command,
                                     truth if cause_in_rename else None)
    dest.with_suffix(".json").write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    return info


def change_at(changes: list[rc.Change], path: str, line: int) -> rc.Change:
    """The hunk of ``path`` that changes 0-based line ``line``."""
    found = [c for c in changes if c.path == path and c.kind == "hunk"
             and c.old_start <= line + 1 < c.old_start + c.old_len]
    assert len(found) == 1, (path, line, [c.label for c in found])
    return found[0]


def verify_repo(repo: Path, changes: list[rc.Change], cause: rc.Change,
                rename_parts: list[rc.Change], command: list[str] | None = None,
                truth: list[rc.Change] | None = None) -> dict:
    """Exit codes on GOOD, BAD, the cause alone, BAD without the cause and each
    part of one rename alone. With ``truth`` (the cause's rename, the cause's
    hunk among them): the cause alone is a partial rename (125); the truth set
    alone fails, BAD without it passes, and without any one of its hunks it is
    a partial rename (125): the truth set is 1-minimal."""
    out: dict = {}
    with rc.Scratch(repo, changes, command=command) as s:
        t0 = time.monotonic()
        out["good"], _ = s.run([])
        out["test_seconds"] = round(time.monotonic() - t0, 2)
        out["cause_alone"], _ = s.run([cause])
        if truth is None:
            out["bad_without_cause"], _ = s.run([c for c in changes if c is not cause])
        else:
            out["truth_alone"], _ = s.run(truth)
            out["bad_without_truth"], _ = s.run(
                [c for c in changes if not any(c is t for t in truth)])
            out["truth_without_one"] = [s.run([t for t in truth if t is not x])[0]
                                        for x in truth]
        out["rename_part_alone"] = [s.run([c])[0] for c in rename_parts]
        s.reset()
        subprocess.run(["git", "checkout", "-q", "--detach", "bad"], cwd=s.tree, check=True)
        shutil.rmtree(s.tree / "pkg" / "__pycache__", ignore_errors=True)
        out["bad"], _ = rc.run_test(s.tree, command=command)
        subprocess.run(["git", "checkout", "-q", "--detach", "good"], cwd=s.tree, check=True)
    want = {"good": 0, "bad": 1, "cause_alone": 1, "bad_without_cause": 0,
            "rename_part_alone": [125] * len(rename_parts)}
    if truth is not None:
        del want["bad_without_cause"]
        want.update(cause_alone=125, truth_alone=1, bad_without_truth=0,
                    truth_without_one=[125] * len(truth))
    bad = {k: out[k] for k in want if out[k] != want[k]}
    if bad:
        raise SystemExit(f"generate: verification failed: {bad} (want {want})")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dest", type=Path)
    ap.add_argument("--lang", choices=LANGS, default="python")
    ap.add_argument("--hunks", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--renames", type=int, help="functions renamed (default: max(10, hunks/10))")
    ap.add_argument("--no-verify", action="store_true", help="skip the verification runs")
    ap.add_argument("--cause-in-rename", action="store_true",
                    help="rename the cause's function too, its constant in the renamed "
                         "definition's hunk: the smallest failing set is that whole rename")
    args = ap.parse_args(argv)
    info = generate(args.dest, args.hunks, args.seed, args.renames, not args.no_verify, args.lang,
                    args.cause_in_rename)
    print(f"{args.dest}: {info['hunks']} hunks ({info['renames']} renames in "
          f"{info['rename_hunks']} hunks), cause {info['cause'][0]}, "
          f"{'truth ' + ' '.join(info['truth']) + ', ' if 'truth' in info else ''}"
          f"verify {info.get('verify', 'skipped')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
