#!/usr/bin/env python3
"""Generate a large synthetic Python project with a GOOD and a BAD commit.

    python benchmarks/synthetic/generate.py DEST [--hunks 5000] [--dirs 100]
        [--causes 1|2] [--cause-needs-context] [--seed 1] [--cluster-share 0.4]

DEST (which must not exist) becomes a git repository on branch ``main`` with
commit 1 tagged ``good`` and commit 2 tagged ``bad`` (HEAD). Identity, dates and
messages are pinned and the user's git configuration is ignored, so the same
arguments give the same commit ids on every machine. ``DEST.json`` (beside DEST,
not inside it) describes the case: hunk and file counts, the test command and
the labels of the hunks that cause the failure.

The project (``proj/``) is a few hundred modules in nested packages, built from
templates. GOOD..BAD is a mix of:

* local edits, each safe alone: docstrings, comments, constant tweaks, guards,
  refactors inside one function;
* dependency clusters of 2-8 hunks across files and directories: renamed
  functions with every user updated, new helpers used from other packages,
  functions moved to another module, new modules imported by changed modules,
  deleted modules whose importers stop using them, functions that gain a keyword
  parameter that calls made at import time pass. A configuration holding part
  of a cluster raises ImportError, AttributeError, NameError or TypeError at
  import time;
* the planted cause: one hunk that changes what a tested function returns
  (``--causes 1``), or two hunks in different packages that only fail together
  (``--causes 2``); with ``--cause-needs-context`` the cause also needs a new
  helper from another hunk.

``run_test.py`` (the same in GOOD and BAD) imports every module, then checks a
few behaviours: exit 0 pass, 1 a check fails, 125 the tree does not import.

Hunks are kept apart by construction (more than 6 unchanged lines between any
two edits, so ``git diff -U3`` cuts exactly one hunk per edit); the script
predicts the hunk count from its own model and checks it against git. Unless
``--no-verify``, it also runs run_test.py on GOOD, BAD and the cause hunks alone
(and each of them alone) and exits 1 if one of them does not behave as planned.
"""

from __future__ import annotations

import argparse
import collections
import copy
import difflib
import functools
import itertools
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import causes as CAUSES  # noqa: E402
import vocab as V  # noqa: E402

GOOD, BAD = 0, 1
MERGE_GAP = 6  # git -U3 joins two edits with at most 6 unchanged lines between them
MIN_GAP = 9  # edits meant to be separate hunks keep at least this many lines apart
TEST_COMMAND = ["python3", "run_test.py"]
HUNKS_PER_MODULE = 18
# Owners of the hunks of dependency clusters start with one of these.
CLUSTER_KINDS = ("rename", "helper", "move", "new module", "delete", "signature")
# Bumped whenever the same arguments start giving a different repository.
GENERATOR_VERSION = 2
# How often each kind of unit is picked for a local edit (functions dominate real churn).
UNIT_WEIGHTS = {"FuncUnit": 1.0, "ClassUnit": 1.0, "ConstUnit": 0.35, "TableUnit": 0.3}

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Synthetic Developer",
    "GIT_AUTHOR_EMAIL": "synthetic@example.com",
    "GIT_COMMITTER_NAME": "Synthetic Developer",
    "GIT_COMMITTER_EMAIL": "synthetic@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
DATES = {"good": "2025-01-06T09:00:00+00:00", "bad": "2025-03-31T17:30:00+00:00"}


class GenerateError(Exception):
    """Bad arguments or a repository that cannot be built."""


# ---------------------------------------------------------------------------
# Model: packages, modules, functions, references between them
# ---------------------------------------------------------------------------


class Pkg:
    """A package directory, e.g. proj/net/http."""

    def __init__(self, parts: tuple[str, ...], parent: Pkg | None) -> None:
        self.parts = parts
        self.parent = parent
        self.children: list[str] = []
        self.modules: list[Module] = []
        self.weight = 1.0

    @property
    def dotted(self) -> str:
        return ".".join(self.parts)

    @property
    def path(self) -> str:
        return "/".join(self.parts)

    @functools.cached_property
    def area(self) -> str:  # read for every module on every cluster attempt: computed once
        return self.parts[1] if len(self.parts) > 1 else "core"

    def taken(self, name: str) -> bool:
        return name in self.children or any(m.name == name for m in self.modules)


class Func:
    """A module-level function; its name and module may differ between the sides."""

    def __init__(self, name: str, home: Module, noun: str) -> None:
        self.names = [name, name]
        self.homes: list[Module] = [home, home]
        self.noun = noun
        self.refs: list[Ref] = []
        self.unit: Unit | None = None
        self.frozen = False

    @property
    def called_at_import(self) -> bool:
        """Whether a module-level statement calls it (so it runs on import)."""
        return any(ref.use == "init_call" for ref in self.refs)


class Ref:
    """One use of a function in another place.

    style: "module" (``from proj.x import mod`` + ``mod.fn``), "from"
    (``from proj.x.mod import fn`` + ``fn``) or "local" (same module).
    use: where the name appears: "default_arg", "call_top", "call_tail",
    "class_attr", "table" or "fixed" (inside a checked function's literal source).
    """

    def __init__(self, target: Func, host_module: Module, host_unit: Unit, style: str,
                 use: str, present: list[bool], param: str = "") -> None:
        self.target = target
        self.host_module = host_module
        self.host_unit = host_unit
        self.style = style
        self.use = use
        self.present = present
        self.param = param

    def expr(self, side: int) -> str:
        name = self.target.names[side]
        if self.style == "module":
            return f"{self.host_module.alias_for(self.target.homes[side])}.{name}"
        return name

    @property
    def import_time(self) -> bool:
        return self.use in ("default_arg", "class_attr", "table", "init_call") \
            or self.style == "from"


class Module:
    """One .py file of the project."""

    def __init__(self, gen: Generator, pkg: Pkg, name: str, rank: float) -> None:
        self.gen = gen
        self.pkg = pkg
        self.name = name
        self.rank = rank
        self.exists = [True, True]
        self.special = ""  # "", "legacy" (deleted in BAD), "added", "checked"
        self.file_owner = "?"  # the cluster that adds or deletes the whole file
        self.units: list[Unit] = []
        self.stdlib: list[str] = []
        self.hosted: list[Ref] = []
        self.aliases: dict[int, str] = {}
        self.alias_names: set[str] = set()
        self.consts: list[ConstUnit] = []
        self.weight = 1.0
        noun = gen.rng.choice(V.NOUNS)
        self.noun = noun
        self.doc = gen.rng.choice(V.MODULE_DOCS).format(
            Area=pkg.area.capitalize(), area=pkg.area, noun=noun, Noun=noun.capitalize())
        self.header = Header(self)

    @property
    def dotted(self) -> str:
        return f"{self.pkg.dotted}.{self.name}"

    @property
    def path(self) -> str:
        return f"{self.pkg.path}/{self.name}.py"

    def alias_for(self, other: Module) -> str:
        """The name this module binds another module to (stable once chosen)."""
        key = id(other)
        if key not in self.aliases:
            candidates = [other.name, f"{other.pkg.parts[-1]}_{other.name}"]
            candidates += [f"{other.pkg.parts[-1]}_{other.name}_{n}" for n in range(2, 50)]
            for alias in candidates:
                if alias not in self.alias_names and alias not in self.gen.used_names:
                    break
            self.aliases[key] = alias
            self.alias_names.add(alias)
        return self.aliases[key]


# ---------------------------------------------------------------------------
# Units: the pieces a module is rendered from, each with a GOOD and a BAD text
# ---------------------------------------------------------------------------


def compute_regions(good: list[str], bad: list[str]) -> list[tuple[int, int]] | None:
    """The hunks git -U3 cuts from one unit, as GOOD line ranges; None if ambiguous."""
    if good == bad:
        return []
    if not good:
        return [(0, 0)]
    if not bad:
        return [(0, len(good))]
    # common prefix and suffix first: difflib only sees the part that differs
    head = 0
    limit = min(len(good), len(bad))
    while head < limit and good[head] == bad[head]:
        head += 1
    tail = 0
    while tail < limit - head and good[-1 - tail] == bad[-1 - tail]:
        tail += 1
    middle_good = good[head:len(good) - tail]
    middle_bad = bad[head:len(bad) - tail]
    if not middle_good or not middle_bad:
        return [(head, len(good) - tail)]
    out: list[tuple[int, int]] = []
    matcher = difflib.SequenceMatcher(None, middle_good, middle_bad, autojunk=False)
    for tag, i1, i2, _j1, _j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        i1 += head
        i2 += head
        if out and i1 - out[-1][1] <= MERGE_GAP:
            out[-1] = (out[-1][0], i2)
        elif out and i1 - out[-1][1] < MIN_GAP:
            return None
        else:
            out.append((i1, i2))
    return out


class Unit:
    """A piece of a module: one function, class, constant, table or the header."""

    section = "body"

    def __init__(self, module: Module) -> None:
        self.module = module
        self.present = [True, True]
        self.frozen = False
        self.owners: dict[tuple[int, int], str] = {}
        self.misses = 0  # local edits that did not fit; after a few, stop trying

    def render(self, side: int) -> list[str]:
        raise NotImplementedError

    def regions(self) -> list[tuple[int, int]] | None:
        return compute_regions(self.good_lines(), self.render(BAD))

    def state(self) -> tuple[list[str], list[tuple[int, int]] | None]:
        """The BAD text and the hunks, cached between attempts once GOOD is final."""
        cached = getattr(self, "_state", None)
        if cached is not None:
            return cached
        bad = self.render(BAD)
        state = (bad, compute_regions(self.good_lines(), bad))
        if self.module.gen.good_final:
            self._state = state
        return state

    def good_lines(self) -> list[str]:
        """The GOOD text; cached once the GOOD side is final (Generator.good_final)."""
        cached = getattr(self, "_good", None)
        if cached is not None:
            return cached
        lines = self.render(GOOD)
        if self.module.gen.good_final:
            self._good = lines
        return lines

    def local_edits(self) -> list[str]:
        """Names of the local (safe) edits this unit still accepts."""
        return []

    def apply_local(self, kind: str, rng: random.Random) -> Callable[[], None]:
        """Make one local edit on the BAD side; return a function that undoes it."""
        raise NotImplementedError


class Header(Unit):
    """Module docstring and imports, computed from the references the module hosts."""

    section = "header"

    def render(self, side: int) -> list[str]:
        m = self.module
        if not m.exists[side]:
            return []
        lines = [f'"""{m.doc}"""']
        std = [f"import {name}" for name in sorted(m.stdlib)]
        modules: dict[str, str] = {}
        names: dict[str, set[str]] = {}
        for ref in m.hosted:
            if not ref.present[side] or ref.style == "local":
                continue
            home = ref.target.homes[side]
            if ref.style == "module":
                alias = m.alias_for(home)
                tail = "" if alias == home.name else f" as {alias}"
                modules[home.dotted] = f"from {home.pkg.dotted} import {home.name}{tail}"
            else:
                names.setdefault(home.dotted, set()).add(ref.target.names[side])
        proj: list[tuple[str, int, list[str]]] = []
        for dotted, line in modules.items():
            proj.append((dotted, 0, [line]))
        for dotted, bound in names.items():
            line = f"from {dotted} import {', '.join(sorted(bound))}"
            if len(line) > 88:
                block = [f"from {dotted} import ("] + [f"    {n}," for n in sorted(bound)] + [")"]
            else:
                block = [line]
            proj.append((dotted, 1, block))
        proj.sort(key=lambda item: (item[0], item[1]))
        if std or proj:
            lines.append("")
        lines += std
        if std and proj:
            lines.append("")
        for _, _, block in proj:
            lines += block
        return lines


class Body:
    """The statements of a function or method, built from a template of vocab.BODIES."""

    def __init__(self, unit: Unit, rng: random.Random, p0: str, p1: str, noun: str,
                 template: int) -> None:
        self.unit = unit
        self.t = V.BODIES[template]
        self.p0 = p0
        self.p1 = p1
        self.noun = noun
        var = rng.choice(V.RESULT_VARS)
        self.var = [var, var]
        self.sep = rng.choice(V.SEPARATORS)
        self.tweak_index = rng.randrange(len(self.t["tweaks"]))
        self.tweak = [False, False]
        self.guard = [False, False]
        self.comments: dict[int, list[str | None]] = {}
        slots = list(range(1, len(self.t["lines"])))
        count = min(len(slots), rng.choice([1, 2, 2, 3, 3, 4]))
        texts = rng.sample(V.COMMENTS, count)
        for slot, text in zip(rng.sample(slots, count), texts, strict=True):
            text = text.format(noun=noun, area=unit.module.pkg.area)
            self.comments[slot] = [text, text]
        # a blank line and a comment paragraph in the middle of some bodies (never edited)
        self.notes: dict[int, list[str]] = {}
        if rng.random() < 0.8 and len(self.t["lines"]) > 4:
            middle = rng.randrange(2, len(self.t["lines"]) - 1)
            unused = [c for c in V.COMMENTS if c not in texts]
            sentences = rng.sample(unused, rng.choice([2, 3, 3, 4]))
            self.notes[middle] = [""] + ["# " + t.format(noun=noun, area=unit.module.pkg.area)
                                         for t in sentences]
        self.param_refs: list[Ref] = []
        self.top_refs: list[Ref] = []
        self.tail_refs: list[Ref] = []

    def comment_text(self, rng: random.Random) -> str:
        area = self.unit.module.pkg.area
        return rng.choice(V.COMMENTS).format(noun=self.noun, area=area)

    def subst(self, line: str, side: int) -> str:
        return (line.replace("{p0}", self.p0).replace("{p1}", self.p1)
                .replace("{v}", self.var[side]).replace("{sep}", self.sep)
                .replace("{noun}", self.noun))

    def render(self, side: int, indent: str) -> list[str]:
        out = []
        for ref in self.param_refs:
            if ref.present[side]:
                out.append(f"{indent}{self.p0} = {ref.param}({self.p0})")
        for ref in self.top_refs:
            if ref.present[side]:
                out.append(f"{indent}{self.p0} = {ref.expr(side)}({self.p0})")
        if self.guard[side]:
            empty = V.EMPTY.get(self.t["empty"], "None")
            out += [f"{indent}if not {self.p0}:", f"{indent}    return {empty}"]
        lines = self.t["lines"]
        tweak_line, old, new = self.t["tweaks"][self.tweak_index]
        for k, template in enumerate(lines):
            if self.tweak[side] and k == tweak_line:
                template = template.replace(old, new, 1)
            text = self.subst(template, side)
            lead = len(text) - len(text.lstrip(" "))
            for note in self.notes.get(k, []):
                out.append(f"{indent}{' ' * lead}{note}".rstrip())
            comment = self.comments.get(k)
            if comment and comment[side]:
                out.append(f"{indent}{' ' * lead}# {comment[side]}")
            if k == len(lines) - 1:
                for ref in self.tail_refs:
                    if ref.present[side]:
                        var = self.var[side]
                        out.append(f"{indent}{var} = {ref.expr(side)}({var})")
            out.append(indent + text)
        return out

    def local_edits(self) -> list[str]:
        kinds = []
        if not self.tweak[BAD]:
            kinds.append("tweak")
        if not self.guard[BAD]:
            kinds.append("guard")
        if self.var[BAD] == self.var[GOOD]:
            kinds.append("refactor")
        if any(c[GOOD] and c[BAD] == c[GOOD] for c in self.comments.values()):
            kinds.append("comment_edit")
        if len(self.comments) < len(self.t["lines"]) - 1:
            kinds.append("comment_add")
        return kinds

    def used_comments(self) -> set[str | None]:
        return {text for pair in self.comments.values() for text in pair}

    def apply_local(self, kind: str, rng: random.Random) -> Callable[[], None]:
        if kind == "tweak":
            self.tweak[BAD] = True
            return lambda: self.tweak.__setitem__(BAD, False)
        if kind == "guard":
            self.guard[BAD] = True
            return lambda: self.guard.__setitem__(BAD, False)
        if kind == "refactor":
            taken = {self.p0, self.p1}
            self.var[BAD] = rng.choice([v for v in V.RESULT_VARS if v != self.var[GOOD]
                                        and v not in taken])
            return lambda: self.var.__setitem__(BAD, self.var[GOOD])
        if kind == "comment_edit":
            slot = rng.choice([k for k, c in sorted(self.comments.items())
                               if c[GOOD] and c[BAD] == c[GOOD]])
            old = self.comments[slot][GOOD]
            used = self.used_comments()
            choices = [c for c in (self.comment_text(rng) for _ in range(8)) if c not in used]
            self.comments[slot][BAD] = choices[0] if choices else f"{old} (see above)"
            return lambda: self.comments[slot].__setitem__(BAD, old)
        if kind == "comment_add":
            slot = rng.choice([k for k in range(1, len(self.t["lines"])) if k not in self.comments])
            used = self.used_comments()
            texts = [c for c in (self.comment_text(rng) for _ in range(8)) if c not in used]
            self.comments[slot] = [None, texts[0] if texts else "Checked by the caller."]
            return lambda: self.comments.pop(slot)
        raise ValueError(kind)


def summary_for(body: Body, rng: random.Random, p0: str, p1: str, avoid: str = "") -> str:
    options = [s.format(noun=body.noun, p0=p0, p1=p1) for s in body.t["summary"]]
    options = [s for s in options if s != avoid] or [avoid + " (See below.)"]
    return rng.choice(options)


class FuncUnit(Unit):
    """A module-level function."""

    def __init__(self, module: Module, func: Func, rng: random.Random, template: int) -> None:
        super().__init__(module)
        self.func = func
        func.unit = self
        t = V.BODIES[template]
        p0 = rng.choice(t["p0"])
        p1 = rng.choice([p for p in t["p1"] if p != p0])
        self.body = Body(self, rng, p0, p1, func.noun, template)
        kind = t["p1_default"]
        default = None
        if kind == "int":
            consts = [c for c in module.consts if c.kind == "int"]
            if consts and rng.random() < 0.4:
                default = rng.choice(consts).name
            else:
                default = str(rng.choice([8, 16, 20, 32, 50, 64, 100, 128, 256, 1000]))
        elif kind == "float":
            default = rng.choice(["1.0", "2.5", "10.0", "100.0", "None"])
        elif kind == "tuple":
            default = rng.choice(["()", '("debug",)', '("internal", "test")'])
        self.default = [default, default]
        self.extra_param: list[str | None] = [None, None]  # a keyword parameter BAD adds
        summary = summary_for(self.body, rng, p0, p1)
        self.summary = [summary, summary]
        area = module.pkg.area
        self.style = rng.choices(["short", "details", "google"], [0.15, 0.3, 0.55])[0]
        count = {"short": 0, "details": rng.randint(2, 6), "google": rng.randint(1, 3)}
        self.details = [d.format(area=area, noun=func.noun)
                        for d in rng.sample(V.DETAILS, count[self.style])]
        noun = func.noun
        self.args: list[tuple[str, list[str]]] = []
        if self.style == "google":
            for param in (p0, p1):
                options = V.ARG_DESC.get(param, [f"the {param}.", f"the {param} to use."])
                first = rng.randrange(2)
                text = options[first].format(noun=noun)
                self.args.append((param, [text, text]))
            self.alt_args = [V.ARG_DESC.get(p, ["", f"the {p}, see above."])[1].format(noun=noun)
                             for p in (p0, p1)]
            returns = V.RETURNS.get(t["empty"], ["The result."])
            self.returns = rng.choice(returns).format(noun=noun)

    def doc_lines(self, side: int) -> list[str]:
        summary = self.summary[side]
        if self.style == "short":
            return [f'    """{summary}"""']
        out = [f'    """{summary}', ""] + [f"    {d}" for d in self.details]
        if self.style == "google":
            if self.details:
                out.append("")
            out.append("    Args:")
            out += [f"        {param}: {text[side]}" for param, text in self.args]
            out += ["", "    Returns:", f"        {self.returns}"]
        return out + ['    """']

    def signature(self, side: int) -> list[str]:
        body = self.body
        params = [body.p0]
        default = self.default[side]
        params.append(body.p1 if default is None else f"{body.p1}={default}")
        if self.extra_param[side]:
            params.append(f"{self.extra_param[side]}=False")
        for ref in body.param_refs:
            if ref.present[side]:
                params.append(f"{ref.param}={ref.expr(side)}")
        name = self.func.names[side]
        line = f"def {name}({', '.join(params)}):"
        if len(line) <= 88:
            return [line]
        return [f"def {name}("] + [f"    {p}," for p in params] + ["):"]

    def render(self, side: int) -> list[str]:
        if not self.present[side]:
            return []
        out = ["", ""] + self.signature(side) + self.doc_lines(side)
        return out + self.body.render(side, "    ")

    def local_edits(self) -> list[str]:
        if self.frozen or not (self.present[GOOD] and self.present[BAD]):
            return []
        kinds = self.body.local_edits()
        if self.summary[BAD] == self.summary[GOOD]:
            kinds.append("doc")
        default = self.default[GOOD]
        if default is not None and default == self.default[BAD] and default[0].isdigit():
            kinds.append("default")
        if self.args and all(text[BAD] == text[GOOD] for _, text in self.args):
            kinds.append("doc_args")
        return kinds

    def apply_local(self, kind: str, rng: random.Random) -> Callable[[], None]:
        if kind == "doc_args":
            index = rng.randrange(len(self.args))
            text = self.args[index][1]
            old = text[GOOD]
            alternative = self.alt_args[index]
            text[BAD] = alternative if alternative != old else old.rstrip(".") + ", or None."
            return lambda: text.__setitem__(BAD, old)
        if kind == "doc":
            self.summary[BAD] = summary_for(self.body, rng, self.body.p0, self.body.p1,
                                            avoid=self.summary[GOOD])
            return lambda: self.summary.__setitem__(BAD, self.summary[GOOD])
        if kind == "default":
            old = self.default[GOOD]
            assert old is not None
            value = float(old) if "." in old else int(old)
            new = value * rng.choice([2, 4]) if rng.random() < 0.6 else value / 2
            as_float = isinstance(new, float) and "." in old
            self.default[BAD] = repr(new) if as_float else str(int(new))
            if self.default[BAD] == old:
                self.default[BAD] = str(int(value) + 1)
            return lambda: self.default.__setitem__(BAD, old)
        return self.body.apply_local(kind, rng)


class ClassUnit(Unit):
    """A small class: docstring, class attributes, __init__ and one method."""

    def __init__(self, module: Module, name: str, noun: str, rng: random.Random,
                 template: int) -> None:
        super().__init__(module)
        self.name = name
        t = V.BODIES[template]
        a0 = rng.choice(t["p0"])
        a1 = rng.choice([p for p in t["p1"] if p != a0])
        self.a0, self.a1 = a0, a1
        self.body = Body(self, rng, f"self.{a0}", f"self.{a1}", noun, template)
        self.method = f"{rng.choice(V.VERBS)}_{noun}s"
        self.init_default = rng.choice(["None", "0", "16", "()", '""']) if t["p1_default"] else ""
        self.attr = rng.choice(["max_retries", "batch_size", "page_size", "ttl_seconds",
                                "window", "threshold"])
        value = str(rng.choice([2, 3, 5, 10, 30, 60, 100]))
        self.attr_value = [value, value]
        summary = rng.choice([f"Keeps track of {noun}s for the {module.pkg.area} layer.",
                              f"A {noun} {name[len(noun):].lower() or 'holder'} with a small API.",
                              f"Holds {noun}s and answers questions about them."])
        self.summary = [summary, summary]
        self.detail = rng.choice(V.DETAILS).format(area=module.pkg.area, noun=noun)
        msummary = summary_for(self.body, rng, a0, a1)
        self.msummary = msummary
        self.attr_refs: list[Ref] = []

    def render(self, side: int) -> list[str]:
        if not self.present[side]:
            return []
        out = ["", "", f"class {self.name}:", f'    """{self.summary[side]}', "",
               f"    {self.detail}", '    """', ""]
        for ref in self.attr_refs:
            if ref.present[side]:
                out.append(f"    {ref.param} = staticmethod({ref.expr(side)})")
        out.append(f"    {self.attr} = {self.attr_value[side]}")
        init = f"{self.a1}={self.init_default}" if self.init_default else self.a1
        out += ["", f"    def __init__(self, {self.a0}, {init}):",
                f"        self.{self.a0} = {self.a0}", f"        self.{self.a1} = {self.a1}",
                "", f"    def {self.method}(self):", f'        """{self.msummary}"""']
        return out + self.body.render(side, "        ")

    def local_edits(self) -> list[str]:
        if self.frozen:
            return []
        kinds = self.body.local_edits()
        if self.summary[BAD] == self.summary[GOOD]:
            kinds.append("doc")
        if self.attr_value[BAD] == self.attr_value[GOOD]:
            kinds.append("attr")
        return kinds

    def apply_local(self, kind: str, rng: random.Random) -> Callable[[], None]:
        if kind == "doc":
            self.summary[BAD] = rng.choice([
                f"Tracks {self.body.noun}s; see the module docstring.",
                f"Small {self.body.noun} container used by the {self.module.pkg.area} code.",
                f"Remembers {self.body.noun}s between calls."])
            return lambda: self.summary.__setitem__(BAD, self.summary[GOOD])
        if kind == "attr":
            self.attr_value[BAD] = str(int(self.attr_value[GOOD]) * rng.choice([2, 3]))
            return lambda: self.attr_value.__setitem__(BAD, self.attr_value[GOOD])
        return self.body.apply_local(kind, rng)


class ConstUnit(Unit):
    """A module constant with a comment."""

    section = "const"

    def __init__(self, module: Module, rng: random.Random) -> None:
        super().__init__(module)
        for _ in range(50):
            suffix, kind = rng.choice(V.CONST_SUFFIXES)
            name = f"{rng.choice(V.NOUNS).upper()}_{suffix}"
            if all(c.name != name for c in module.consts):
                break
        self.name = name
        self.kind = kind
        value = self.initial(kind, rng)
        self.value = [value, value]
        comment = rng.choice([
            f"Default {suffix.lower().replace('_', ' ')} for {module.noun} handling.",
            f"Tuned for the {module.pkg.area} workload; change with care.",
            "Shared by every function of this module.",
            f"Upper bound used by the {module.noun} helpers.",
            "Overridable from the settings file.",
        ])
        self.comment = [comment, comment]

    @staticmethod
    def initial(kind: str, rng: random.Random) -> str:
        if kind == "int":
            return str(rng.choice([3, 5, 8, 16, 30, 64, 100, 128, 512, 1024]))
        if kind == "float":
            return rng.choice(["0.25", "0.5", "1.5", "2.0", "10.0", "30.0"])
        if kind == "sep":
            return rng.choice(['","', '";"', '"/"', '":"', '"|"'])
        if kind == "enc":
            return rng.choice(['"utf-8"', '"ascii"', '"latin-1"'])
        if kind == "tuple":
            return rng.choice(['("json", "text")', '("csv",)', '("raw", "gzip", "zstd")'])
        return rng.choice(['"x-"', '"tmp_"', '"proj."', '""'])

    def render(self, side: int) -> list[str]:
        if not self.present[side]:
            return []
        return ["", f"# {self.comment[side]}", f"{self.name} = {self.value[side]}"]

    def local_edits(self) -> list[str]:
        if self.frozen:
            return []
        kinds = []
        if self.value[BAD] == self.value[GOOD]:
            kinds += ["value", "value"]
        if self.comment[BAD] == self.comment[GOOD]:
            kinds.append("comment")
        return kinds

    def apply_local(self, kind: str, rng: random.Random) -> Callable[[], None]:
        if kind == "value":
            old = self.value[GOOD]
            if self.kind == "int":
                new = str(int(old) * 2)
            elif self.kind == "float":
                new = repr(float(old) * 2)
            elif self.kind == "tuple":
                new = old[:-1].rstrip(",") + ', "xml")' if old != '("csv",)' else '("csv", "tsv")'
            else:
                new = rng.choice([v for v in ('"-"', '"utf-16"', '"."', '"v2_"') if v != old])
            self.value[BAD] = new
            return lambda: self.value.__setitem__(BAD, old)
        old_comment = self.comment[GOOD]
        self.comment[BAD] = rng.choice(["Raised after the load tests of the last release.",
                                        "Keep in sync with the documentation.",
                                        f"See the {self.module.pkg.area} settings for details.",
                                        "Measured; do not lower without a benchmark."])
        if self.comment[BAD] == old_comment:
            self.comment[BAD] = old_comment.rstrip(".") + " (measured)."
        return lambda: self.comment.__setitem__(BAD, old_comment)


class TableUnit(Unit):
    """A module-level dict of handlers: builtins and functions of other modules."""

    section = "table"

    def __init__(self, module: Module, rng: random.Random) -> None:
        super().__init__(module)
        noun = rng.choice(V.NOUNS)
        base = f"{noun.upper()}_HANDLERS"
        self.name = base if all(getattr(u, "name", "") != base for u in module.units) \
            else f"{noun.upper()}_CONVERTERS_{len(module.units)}"
        comment = rng.choice(V.TABLE_COMMENTS).format(noun=noun)
        self.comment = [comment, comment]
        keys = rng.sample(V.TABLE_KEYS, 2)
        self.entries: list[tuple[str, Ref | str, list[bool]]] = [
            (k, rng.choice(V.TABLE_BUILTINS), [True, True]) for k in keys]
        self.refs: list[Ref] = []
        self.dynamic = False  # created for a new use: exists only where a use does

    def free_key(self, rng: random.Random) -> str:
        used = {k for k, _, _ in self.entries}
        free = [k for k in V.TABLE_KEYS if k not in used]
        return rng.choice(free) if free else f"extra_{len(self.entries)}"

    def render(self, side: int) -> list[str]:
        if not self.present[side]:
            return []
        if self.dynamic and not any(isinstance(v, Ref) and p[side] for _, v, p in self.entries):
            return []
        out = ["", "", f"# {self.comment[side]}", f"{self.name} = {{"]
        for key, value, present in self.entries:
            if present[side]:
                text = value.expr(side) if isinstance(value, Ref) else value
                out.append(f'    "{key}": {text},')
        return out + ["}"]

    def local_edits(self) -> list[str]:
        if self.frozen:
            return []
        kinds = ["entry"] if len(self.entries) < 6 else []
        if self.comment[BAD] == self.comment[GOOD]:
            kinds.append("comment")
        return kinds

    def apply_local(self, kind: str, rng: random.Random) -> Callable[[], None]:
        if kind == "entry":
            entry = (self.free_key(rng), rng.choice(V.TABLE_BUILTINS), [False, True])
            self.entries.append(entry)
            return lambda: self.entries.remove(entry)
        old = self.comment[GOOD]
        self.comment[BAD] = old.rstrip(".") + "; the order matters."
        return lambda: self.comment.__setitem__(BAD, old)


class InitCallUnit(Unit):
    """A module-level constant computed by calling a function at import time."""

    section = "table"

    def __init__(self, module: Module, rng: random.Random, template: int) -> None:
        super().__init__(module)
        noun = rng.choice(V.NOUNS).upper()
        self.name = f"{noun}_{rng.choice(['DEFAULTS', 'SAMPLE', 'PRESET', 'BASELINE'])}"
        existing = {getattr(u, "name", "") for u in module.units}
        if self.name in existing:
            self.name = f"{self.name}_{len(module.units)}"
        self.comment = rng.choice(V.INIT_COMMENTS)
        self.args = V.BODIES[template]["sample"]
        self.kwarg: list[str | None] = [None, None]
        self.ref: Ref | None = None

    def render(self, side: int) -> list[str]:
        ref = self.ref
        if not self.present[side] or ref is None or not ref.present[side]:
            return []
        kwarg = f", {self.kwarg[side]}" if self.kwarg[side] else ""
        return ["", "", f"# {self.comment}",
                f"{self.name} = {ref.expr(side)}({self.args}{kwarg})"]


class LiteralUnit(Unit):
    """Fixed source text (checked functions, the cause, its helper)."""

    def __init__(self, module: Module, lines: list[str]) -> None:
        super().__init__(module)
        self.lines = [list(lines), list(lines)]
        self.frozen = True

    def render(self, side: int) -> list[str]:
        if not self.present[side]:
            return []
        return ["", ""] + self.lines[side]


def replace_lines(lines: list[str], mapping: dict[int, list[str]], **fmt: str) -> list[str]:
    out: list[str] = []
    for index, line in enumerate(lines):
        if index in mapping:
            out += [new.format(**fmt) if fmt else new for new in mapping[index]]
        else:
            out.append(line)
    return out


# ---------------------------------------------------------------------------
# The generator
# ---------------------------------------------------------------------------


class Layout:
    """Both texts of a module as they are built, and where their hunks are."""

    def __init__(self) -> None:
        self.good: list[str] = []
        self.bad: list[str] = []
        self.regions: list[tuple[int, int, str]] = []
        # recent edits: (GOOD end line, lines deleted, lines inserted)
        self.recent: list[tuple[int, int, int]] = []

    @staticmethod
    def sizes(good: list[str], bad: list[str], regions: list[tuple[int, int]]
              ) -> list[tuple[int, int, int, int]]:
        """(start, end, deleted, inserted) per region; insertions are estimated."""
        grow = max(0, len(bad) - len(good))
        if len(regions) == 1:
            start, end = regions[0]
            return [(start, end, end - start, len(bad) - (len(good) - (end - start)))]
        return [(start, end, end - start, end - start + grow) for start, end in regions]

    def need(self, good: list[str], bad: list[str], regions: list[tuple[int, int]]) -> int:
        """How many more unchanged lines must come before a unit with these hunks.

        Two edits need MIN_GAP unchanged lines between them, and more when one
        deletes and the other inserts a block: git would rather pair the lines
        the two blocks have in common (blank lines, docstring headings) than keep
        a short run of unchanged lines between them, and join the two hunks.
        """
        if not regions:
            return 0
        start, _end, deleted, inserted = self.sizes(good, bad, regions)[0]
        start += len(self.good)
        need = 0
        for end, old_deleted, old_inserted in self.recent:
            gap = start - end
            required = max(MIN_GAP, min(old_deleted, inserted) + 4, min(old_inserted, deleted) + 4)
            need = max(need, required - gap)
        return need

    def place(self, good: list[str], bad: list[str], regions: list[tuple[int, int]],
              owners: dict[tuple[int, int], str]) -> None:
        base = len(self.good)
        for start, end, deleted, inserted in self.sizes(good, bad, regions):
            self.regions.append((base + start, base + end, owners.get((start, end), "?")))
            self.recent = [r for r in self.recent if base + start - r[0] < 80]
            self.recent.append((base + end, deleted, inserted))
        self.good.extend(good)
        self.bad.extend(bad)


class Generator:
    def __init__(self, hunks: int, dirs: int, causes: int, seed: int, needs_context: bool,
                 cluster_share: float) -> None:
        self.target = hunks
        self.n_dirs = dirs
        self.n_causes = causes
        self.seed = seed
        self.needs_context = needs_context
        self.cluster_share = cluster_share
        self.rng = random.Random(f"wynot-synthetic-{seed}")
        self.used_names: set[str] = set(CAUSES.reserved_names())
        self.good_final = False  # set once no GOOD text changes any more
        self.candidates: dict[str, list[Func]] = {}
        self.importers: dict[int, set[int]] = {}  # module -> modules importing it (GOOD)
        self.pkgs: list[Pkg] = []
        self.modules: list[Module] = []
        self.funcs: list[Func] = []
        self.checks: list[tuple[str, str, str, str]] = []  # module, function, call, expected
        self.cause_owners: list[str] = []
        self.clusters: list[dict[str, object]] = []
        self.kinds: collections.Counter[str] = collections.Counter()  # clusters by kind
        self._pool: list[Module] | None = None
        self._pool_size = 0
        self.unit_hunks = 0  # hunks inside files modified in place, as predicted
        self.file_hunks = 0  # added and deleted files
        self.local_hunks = 0
        self.cluster_hunks = 0

    # -- names ------------------------------------------------------------

    def func_name(self) -> tuple[str, str]:
        rng = self.rng
        for _ in range(1000):
            noun = rng.choice(V.NOUNS)
            name = f"{rng.choice(V.VERBS)}_{noun}{rng.choice(V.QUALIFIERS)}"
            if name not in self.used_names:
                self.used_names.add(name)
                return name, noun
        raise GenerateError("ran out of function names")

    def renamed(self, name: str) -> str:
        rng = self.rng
        verb, rest = name.split("_", 1)
        options = [f"{syn}_{rest}" for syn in V.VERB_SYNONYMS.get(verb, [])]
        options += [f"{name}{suffix}" for suffix in V.RENAME_SUFFIXES]
        rng.shuffle(options)
        for option in options:
            if option not in self.used_names:
                self.used_names.add(option)
                return option
        fresh, _ = self.func_name()
        return fresh

    def class_name(self, noun: str) -> str:
        for _ in range(100):
            name = noun.capitalize() + self.rng.choice(V.ROLES)
            if name not in self.used_names:
                self.used_names.add(name)
                return name
        name = f"{noun.capitalize()}Thing{len(self.used_names)}"
        self.used_names.add(name)
        return name

    def module_name(self, pkg: Pkg, pool: list[str] | None = None) -> str:
        pool = pool or V.MODULE_NAMES
        for _ in range(200):
            name = self.rng.choice(pool)
            if not pkg.taken(name):
                return name
        for n in range(2, 1000):
            name = f"{self.rng.choice(pool)}{n}"
            if not pkg.taken(name):
                return name
        raise GenerateError("ran out of module names")

    # -- structure ----------------------------------------------------------

    def make_packages(self) -> None:
        rng = self.rng
        root = Pkg(("proj",), None)
        self.pkgs = [root]
        top = max(2, min(len(V.AREAS), round(math.sqrt(self.n_dirs))))
        top = min(top, self.n_dirs - 1)
        for name in rng.sample(V.AREAS, top):
            root.children.append(name)
            self.pkgs.append(Pkg(("proj", name), root))
        while len(self.pkgs) < self.n_dirs:
            parents = [p for p in self.pkgs if 2 <= len(p.parts) <= 3]
            weights = [3.0 if len(p.parts) == 2 else 1.0 for p in parents]
            parent = rng.choices(parents, weights)[0]
            free = [s for s in V.SUBAREAS if s not in parent.children]
            if not free:
                continue
            name = rng.choice(free)
            parent.children.append(name)
            self.pkgs.append(Pkg(parent.parts + (name,), parent))
        for pkg in self.pkgs:
            pkg.weight = rng.lognormvariate(0, 0.6)

    def make_modules(self) -> None:
        rng = self.rng
        count = max(len(self.pkgs), round(self.target / HUNKS_PER_MODULE))
        layer = {area: rng.random() for area in V.AREAS}
        homes = list(self.pkgs)
        homes += rng.choices(self.pkgs, [p.weight for p in self.pkgs], k=count - len(self.pkgs))
        for pkg in homes:
            name = self.module_name(pkg)
            rank = 0.6 * layer.get(pkg.area, 0.5) + 0.4 * rng.random()
            module = Module(self, pkg, name, rank)
            module.weight = rng.lognormvariate(0, 0.45)
            pkg.modules.append(module)
            self.modules.append(module)
        self.modules.sort(key=lambda m: m.rank)
        for index, module in enumerate(self.modules):
            module.rank = float(index)
        self.modules.sort(key=lambda m: m.path)

    def new_func_unit(self, module: Module) -> FuncUnit:
        name, noun = self.func_name()
        func = Func(name, module, noun)
        self.funcs.append(func)
        return FuncUnit(module, func, self.rng, self.rng.randrange(len(V.BODIES)))

    def drop_func(self, func: Func) -> None:
        """Forget a function made for a cluster that did not fit (usually the last one
        made: looked for from the end, not through tens of thousands of others)."""
        for index in range(len(self.funcs) - 1, -1, -1):
            if self.funcs[index] is func:
                del self.funcs[index]
                return
        raise ValueError("unknown function")

    def new_class_unit(self, module: Module) -> ClassUnit:
        noun = self.rng.choice(V.NOUNS)
        return ClassUnit(module, self.class_name(noun), noun, self.rng,
                         self.rng.randrange(len(V.BODIES)))

    def make_units(self) -> None:
        rng = self.rng
        per_module = self.target / len(self.modules)
        for module in self.modules:
            for _ in range(rng.choice([1, 2, 2, 3])):
                const = ConstUnit(module, rng)
                module.consts.append(const)
                module.units.append(const)
            n_body = max(2, round(module.weight * per_module * 0.3))
            for _ in range(n_body):
                if rng.random() < 0.08:
                    module.units.append(self.new_class_unit(module))
                else:
                    module.units.append(self.new_func_unit(module))
            if rng.random() < 0.3:
                module.units.append(TableUnit(module, rng))

    def insert_body_unit(self, module: Module, unit: Unit) -> None:
        """Put a unit at a random place among the functions and classes of a module."""
        positions = [i for i, u in enumerate(module.units) if u.section == "body"]
        if positions:
            index = self.rng.choice(positions + [positions[-1] + 1])
        else:
            index = len([u for u in module.units if u.section == "const"])
        module.units.insert(index, unit)

    def other_area(self, avoid: Iterable[Module], pool: list[Module]) -> list[Module]:
        areas = {m.pkg.area for m in avoid}
        dirs = {m.pkg.path for m in avoid}
        best = [m for m in pool if m.pkg.area not in areas]
        return best or [m for m in pool if m.pkg.path not in dirs] or pool

    def place_checked(self) -> None:
        rng = self.rng
        normal = [m for m in self.modules if m.special == ""]
        used: list[Module] = []
        singles = sorted(CAUSES.SINGLE)
        rng.shuffle(singles)
        if self.n_causes == 1:
            self.cause_name = singles[0]
            checked = singles[:4]
        else:
            self.cause_name = rng.choice(sorted(CAUSES.PAIRS))
            checked = singles[:3]
            spec = CAUSES.PAIRS[self.cause_name]
            definer_mod = rng.choice([m for m in normal if m.rank < len(self.modules) / 2])
            used.append(definer_mod)
            callers = [m for m in self.other_area(used, normal) if m.rank > definer_mod.rank]
            caller_mod = rng.choice(callers or [m for m in normal if m.rank > definer_mod.rank])
            used.append(caller_mod)
            definer = LiteralUnit(definer_mod, spec["definer"])
            caller = LiteralUnit(caller_mod, spec["caller"])
            func = Func(self.cause_name, definer_mod, "amount")
            func.frozen = True
            func.unit = definer
            ref = Ref(func, caller_mod, caller, "from", "fixed", [True, True])
            func.refs.append(ref)
            caller_mod.hosted.append(ref)
            for mod, unit in ((definer_mod, definer), (caller_mod, caller)):
                mod.special = "checked"
                self.insert_body_unit(mod, unit)
            self.pair_units = (definer, caller)
            for call, expected in spec["checks"]:
                self.checks.append((caller_mod.dotted, spec["caller_name"], call, expected))
        self.single_units: dict[str, LiteralUnit] = {}
        for name in checked:
            spec = CAUSES.SINGLE[name]
            module = rng.choice(self.other_area(used, normal))
            used.append(module)
            module.special = "checked"
            unit = LiteralUnit(module, spec["lines"])
            self.insert_body_unit(module, unit)
            for std in spec["stdlib"]:
                if std not in module.stdlib:
                    module.stdlib.append(std)
            self.single_units[name] = unit
            for call, expected in spec["checks"]:
                self.checks.append((module.dotted, name, call, expected))
        self.checked_modules = used

    def make_legacy_modules(self) -> None:
        """Self-contained modules that BAD deletes; their users stop importing them."""
        rng = self.rng
        count = max(1, round(self.target / 1200))
        names = ["compat", "legacy", "shims", "old_api", "deprecated", "backports", "v1_compat"]
        self.legacy: list[Module] = []
        for index in range(count):
            pkg = rng.choice(self.pkgs[1:] or self.pkgs)
            module = Module(self, pkg, self.module_name(pkg, names), -1.0 - index)
            module.special = "legacy"
            for _ in range(rng.randint(2, 4)):
                unit = self.new_func_unit(module)
                unit.frozen = True
                unit.func.frozen = True
                module.units.append(unit)
            pkg.modules.append(module)
            self.modules.append(module)
            self.legacy.append(module)

    # -- references ---------------------------------------------------------

    def hosts_for(self, module: Module, use: str, changing: bool = False) -> list[Unit]:
        """Units of ``module`` that can take one more use of kind ``use``.

        A default argument is used on the first line of the body; when the use
        changes between the sides (``changing``), the docstring between the two
        must be short enough for git to show both in one hunk.
        """
        return [unit for unit in module.units if self.can_host(unit, use, changing)]

    @staticmethod
    def can_host(unit: Unit, use: str, changing: bool) -> bool:
        if unit.frozen or not (unit.present[GOOD] or unit.present[BAD]):
            return False
        if isinstance(unit, FuncUnit) and unit.func.called_at_import and use in (
                "default_arg", "call_top", "call_tail"):
            return False  # it runs at import time on sample arguments: keep it self-contained
        if use == "default_arg":
            return (isinstance(unit, FuncUnit) and not unit.body.param_refs
                    and (not changing or len(unit.doc_lines(GOOD)) <= 5))
        if use in ("call_top", "call_tail"):
            if not isinstance(unit, FuncUnit | ClassUnit):
                return False
            return not (unit.body.top_refs if use == "call_top" else unit.body.tail_refs)
        if use == "class_attr":
            return isinstance(unit, ClassUnit) and not unit.attr_refs
        return use == "table" and isinstance(unit, TableUnit) and not unit.refs

    def add_ref(self, target: Func, host: Module, style: str, present: list[bool],
                uses: list[str], new_table: bool = True,
                exclude: Iterable[Unit] = ()) -> tuple[Ref, Callable[[], None]] | None:
        """Attach a use of ``target`` to some unit of ``host``; return it and its undo.

        ``uses`` are tried in order; a module without a free table gets a new one.
        """
        rng = self.rng
        exclude = list(exclude)
        changing = present != [True, True] or host.special == "" and any(
            m.special == "legacy" for m in target.homes)
        for use in uses:
            if use == "init_call":
                unit = target.unit
                if not (isinstance(unit, FuncUnit) and style != "local"
                        and not (unit.body.param_refs or unit.body.top_refs
                                 or unit.body.tail_refs)):
                    continue
                call = InitCallUnit(host, rng, V.BODIES.index(unit.body.t))
                host.units.append(call)
                return self.attach(target, host, call, style, use, present, call)
            hosts = [u for u in self.hosts_for(host, use, changing) if u not in exclude
                     and not (isinstance(u, FuncUnit) and u.func is target)]
            if hosts:
                return self.attach(target, host, rng.choice(hosts), style, use, present, None)
            if use == "table" and new_table and \
                    sum(isinstance(u, TableUnit) for u in host.units) < 3:
                created = TableUnit(host, rng)
                created.dynamic = True
                host.units.append(created)
                return self.attach(target, host, created, style, use, present, created)
        return None

    def attach(self, target: Func, host: Module, unit: Unit, style: str, use: str,
               present: list[bool], created: Unit | None) -> tuple[Ref, Callable[[], None]]:
        rng = self.rng
        ref = Ref(target, host, unit, style, use, present)
        undo: list[Callable[[], None]] = []
        if isinstance(unit, FuncUnit | ClassUnit) and use in ("default_arg", "call_top",
                                                               "call_tail"):
            body = unit.body
            if use == "default_arg":
                ref.param = rng.choice([p for p in V.HOOK_PARAMS if p not in (body.p0, body.p1)])
                refs = body.param_refs
            else:
                refs = body.top_refs if use == "call_top" else body.tail_refs
            refs.append(ref)
            undo.append(lambda: refs.remove(ref))
        elif isinstance(unit, ClassUnit):
            ref.param = rng.choice(V.HOOK_PARAMS)
            unit.attr_refs.append(ref)
            undo.append(lambda: unit.attr_refs.remove(ref))
        elif isinstance(unit, InitCallUnit):
            unit.ref = ref
        elif isinstance(unit, TableUnit):
            entry = (unit.free_key(rng), ref, present)
            unit.entries.insert(rng.randrange(len(unit.entries) + 1), entry)
            unit.refs.append(ref)
            undo.append(lambda: unit.entries.remove(entry))
            undo.append(lambda: unit.refs.remove(ref))
        target.refs.append(ref)
        host.hosted.append(ref)
        undo.append(lambda: target.refs.remove(ref))
        undo.append(lambda: host.hosted.remove(ref))
        if created is not None:
            undo.append(lambda: host.units.remove(created))

        def revert() -> None:
            for step in reversed(undo):
                step()

        return ref, revert

    def pick_uses(self, import_time_bias: float = 0.0) -> list[str]:
        rng = self.rng
        uses = ["default_arg", "call_top", "call_tail", "class_attr", "table", "init_call"]
        weights = [0.3 + import_time_bias, 0.2, 0.15, 0.1 + import_time_bias / 3,
                   0.15 + import_time_bias / 2, 0.1]
        first = rng.choices(uses, weights)[0]
        rest = [u for u in uses if u != first]
        rng.shuffle(rest)
        return [first] + rest

    def make_refs(self) -> None:
        rng = self.rng
        by_rank = sorted((m for m in self.modules if m.special in ("", "checked")),
                         key=lambda m: m.rank)
        for index, module in enumerate(by_rank):
            lower = by_rank[:index]
            if not lower:
                continue
            weights = [3.0 if m.pkg.area != module.pkg.area else
                       1.5 if m.pkg.path != module.pkg.path else 1.0 for m in lower]
            deps: list[Module] = []
            for _ in range(min(len(lower), rng.randint(1, 4))):
                dep = rng.choices(lower, weights)[0]
                if dep not in deps:
                    deps.append(dep)
            for dep in deps:
                funcs = [u.func for u in dep.units if isinstance(u, FuncUnit) and not u.frozen]
                if not funcs:
                    continue
                # popular functions attract more uses (a few are used all over)
                weights = [(1 + len(f.refs)) ** 2 for f in funcs]
                picks: list[Func] = []
                for _ in range(min(len(funcs), rng.choice([1, 1, 2]))):
                    func = rng.choices(funcs, weights)[0]
                    if func not in picks:
                        picks.append(func)
                for func in picks:
                    style = "module" if rng.random() < 0.7 else "from"
                    self.add_ref(func, module, style, [True, True], self.pick_uses())
            # calls between functions of the same module
            funcs = [u for u in module.units if isinstance(u, FuncUnit) and not u.frozen]
            for unit in funcs:
                if len(funcs) > 2 and rng.random() < 0.1:
                    other = rng.choice([u for u in funcs if u is not unit])
                    self.add_ref(other.func, module, "local", [True, True],
                                 rng.sample(["call_top", "call_tail"], 2), exclude=[other])
        for legacy in self.legacy:
            funcs = [u.func for u in legacy.units if isinstance(u, FuncUnit)]
            pool = [m for m in self.other_area([legacy], self.modules) if m.special == ""]
            for host in rng.sample(pool, min(len(pool), rng.randint(1, 3))):
                style = "module" if rng.random() < 0.5 else "from"
                self.add_ref(rng.choice(funcs), host, style, [True, True],
                             self.pick_uses(0.3))

    # -- edits ----------------------------------------------------------------

    def attempt(self, units: list[Unit], mutate: Callable[[], Callable[[], None]], owner: str,
                lo: int = 1, hi: int = 1, extra: int = 0) -> int | None:
        """Apply a BAD-side change; keep it if each changed unit gains exactly one clean hunk.

        Returns the number of hunks the change adds (``extra`` counts whole-file
        changes), or None after undoing it.
        """
        seen: list[Unit] = []
        for unit in units:
            if unit not in seen:
                seen.append(unit)
        before = []
        for unit in seen:
            bad, regions = unit.state()
            assert regions is not None, "a unit was left ambiguous"
            before.append((bad, regions))
        revert = mutate()
        added: dict[int, tuple[Unit, tuple[int, int], list[str], list[tuple[int, int]]]] = {}
        ok = True
        for unit, (bad, regions) in zip(seen, before, strict=True):
            now = unit.render(BAD)
            if now == bad:
                continue
            new = compute_regions(unit.good_lines(), now)
            if new is None or len(new) != len(regions) + 1 or not set(regions) <= set(new):
                ok = False
                break
            added[id(unit)] = (unit, (set(new) - set(regions)).pop(), now, new)
        count = len(added) + extra
        if not ok or not lo <= count <= hi:
            revert()
            return None
        for unit, region, now, new in added.values():
            unit.owners[region] = owner
            if self.good_final:
                unit._state = (now, new)  # type: ignore[attr-defined]
        self.unit_hunks += len(added)
        self.file_hunks += extra
        return count

    def plant_causes(self) -> None:
        rng = self.rng
        normal = [m for m in self.modules if m.special == ""]
        helper_unit = None
        if self.n_causes == 1:
            spec = CAUSES.SINGLE[self.cause_name]
            unit = self.single_units[self.cause_name]
            mapping = spec["context"] if self.needs_context else spec["mutate"]
            cause_units = [(unit, mapping)]
            helper = spec["helper"]
        else:
            spec = CAUSES.PAIRS[self.cause_name]
            definer, caller = self.pair_units
            mapping = spec["definer_context"] if self.needs_context else spec["definer_mutate"]
            cause_units = [(definer, mapping), (caller, spec["caller_mutate"])]
            helper = spec["helper"]
        helper_module = None
        if self.needs_context:
            helper_module = rng.choice(self.other_area(self.checked_modules, normal))
            helper_unit = LiteralUnit(helper_module, helper)
            helper_unit.present = [False, False]
        for unit, mapping in cause_units:
            fmt = {"helper_mod": helper_module.dotted} if helper_module else {}

            def mutate(unit: LiteralUnit = unit, mapping: dict = mapping,
                       fmt: dict = fmt) -> Callable[[], None]:
                old = unit.lines[BAD]
                unit.lines[BAD] = replace_lines(unit.lines[GOOD], mapping, **fmt)
                return lambda: unit.lines.__setitem__(BAD, old)

            if self.attempt([unit], mutate, "cause") is None:
                raise GenerateError("the cause is not one hunk")
            self.cause_owners.append("cause")
        if helper_unit is not None and helper_module is not None:
            self.insert_body_unit(helper_module, helper_unit)

            def show() -> Callable[[], None]:
                helper_unit.present[BAD] = True
                return lambda: helper_unit.present.__setitem__(BAD, False)

            if self.attempt([helper_unit], show, "cause-context") is None:
                raise GenerateError("the cause's helper is not one hunk")

    def next_candidate(self, kind: str, ok: Callable[[Func], bool]) -> Func | None:
        """A random function that passes ``ok`` (candidates are drawn without replacement)."""
        pool = self.candidates.get(kind)
        if pool is None:
            # weighted shuffle: functions with more uses come up sooner
            keyed = [(self.rng.random() ** (1.0 / max(1, len(f.refs))), index, f)
                     for index, f in enumerate(self.funcs) if ok(f)]
            keyed.sort()
            pool = [f for _, _, f in keyed]
            self.candidates[kind] = pool
        while pool:
            func = pool.pop()
            if ok(func):
                return func
        return None

    @staticmethod
    def can_rename(f: Func) -> bool:
        return (not f.frozen and 1 <= len(f.refs) <= 5 and f.names[GOOD] == f.names[BAD]
                and f.homes[GOOD] is f.homes[BAD] and f.unit is not None
                and f.unit.present == [True, True]
                and all(r.present == [True, True] for r in f.refs))

    @staticmethod
    def can_move(f: Func) -> bool:
        return (not f.frozen and 1 <= len(f.refs) <= 4
                and isinstance(f.unit, FuncUnit) and f.unit.present == [True, True]
                and not f.unit.owners and f.homes[GOOD] is f.homes[BAD]
                and f.names[GOOD] == f.names[BAD]
                and not (f.unit.default[GOOD] or "0").isupper()
                and not (f.unit.body.param_refs or f.unit.body.top_refs
                         or f.unit.body.tail_refs)
                and all(r.style != "local" and r.present == [True, True] for r in f.refs))

    def cluster_rename(self) -> int | None:
        func = self.next_candidate("rename", self.can_rename)
        if func is None:
            return None
        new = self.renamed(func.names[GOOD])
        units: list[Unit] = [func.unit]  # type: ignore[list-item]
        for ref in func.refs:
            units.append(ref.host_unit)
            if ref.style == "from":
                units.append(ref.host_module.header)

        def mutate() -> Callable[[], None]:
            func.names[BAD] = new
            return lambda: func.names.__setitem__(BAD, func.names[GOOD])

        count = self.attempt(units, mutate, f"rename:{func.names[GOOD]}", lo=2, hi=8)
        if count is not None:
            self.record("rename", count, func.names[GOOD] + " -> " + new, func.refs)
        return count

    @staticmethod
    def can_extend(f: Func) -> bool:
        return (not f.frozen and isinstance(f.unit, FuncUnit) and f.unit.present == [True, True]
                and f.unit.extra_param[BAD] is None
                and any(r.use == "init_call" and r.present == [True, True] for r in f.refs))

    def cluster_signature(self) -> int | None:
        """A function gains a keyword parameter; the calls made at import time pass it.

        Only a configuration with a call but without the new parameter fails
        (TypeError at import time); nothing but the parameter's name links them.
        """
        func = self.next_candidate("signature", self.can_extend)
        if func is None:
            return None
        unit = func.unit
        assert isinstance(unit, FuncUnit)
        param = self.rng.choice([p for p in V.NEW_PARAMS if p not in (unit.body.p0, unit.body.p1)])
        calls = [r for r in func.refs if r.use == "init_call" and r.present == [True, True]]
        hosts = [r.host_unit for r in calls]

        def mutate() -> Callable[[], None]:
            unit.extra_param[BAD] = param
            for host in hosts:
                host.kwarg[BAD] = f"{param}=True"  # type: ignore[attr-defined]

            def revert() -> None:
                unit.extra_param[BAD] = None
                for host in hosts:
                    host.kwarg[BAD] = None  # type: ignore[attr-defined]

            return revert

        count = self.attempt([unit, *hosts], mutate, f"signature:{func.names[GOOD]}", lo=2, hi=8)
        if count is not None:
            self.record("signature", count, f"{func.names[GOOD]}(..., {param}=...)", calls)
        return count

    def cluster_helper(self) -> int | None:
        rng = self.rng
        pool = self.cluster_pool()
        module = rng.choice(pool)
        hosts_pool = [m for m in pool if m.rank > module.rank and m is not module]
        if not hosts_pool:
            return None
        unit = self.new_func_unit(module)
        unit.present = [False, False]
        func = unit.func
        n_hosts = rng.choice([1, 2, 2, 3, 3, 4])
        importers = self.importers.get(id(module), set())
        preferred = [m for m in hosts_pool if id(m) in importers]
        # modules that already import this one need no new import line; others do,
        # and a module's import block can only change for one cluster
        hosts = rng.sample(preferred, min(len(preferred), n_hosts))
        others = [m for m in self.other_area([module], hosts_pool) if m not in hosts]
        hosts += rng.sample(others, min(len(others), max(0, n_hosts - len(hosts)),
                                        rng.choice([0, 1, 1])))
        uses = [(host, func, "module" if host in preferred or rng.random() < 0.5 else "from")
                for host in hosts]
        self.insert_body_unit(module, unit)

        def show() -> None:
            unit.present[BAD] = True

        def hide() -> None:
            unit.present[BAD] = False

        made = self.attempt_uses(uses, [unit], f"helper:{func.names[BAD]}", show, hide)
        if made is None:
            module.units.remove(unit)
            self.drop_func(func)
            return None
        count, refs = made
        unit.frozen = True
        func.frozen = True
        self.record("new helper", count, func.names[BAD], refs)
        return count

    def attempt_uses(self, uses: list[tuple[Module, Func, str]], units: list[Unit], owner: str,
                     show: Callable[[], None], hide: Callable[[], None],
                     extra: int = 0) -> tuple[int, list[Ref]] | None:
        """Add new uses (host module, function, import style) that exist only in BAD.

        ``show`` and ``hide`` switch the rest of the cluster (a new function) on
        and off. If the cluster does not fit, uses are dropped from the end
        until it does (at least one must stay).
        """
        for keep in range(len(uses), 0, -1):
            reverts: list[Callable[[], None]] = []
            refs: list[Ref] = []
            touched = list(units)
            for host, target, style in uses[:keep]:
                made = self.add_ref(target, host, style, [False, False], self.pick_uses(0.2))
                if made is None:
                    continue
                ref, undo = made
                refs.append(ref)
                reverts.append(undo)
                touched += [ref.host_unit, host.header]
            if refs:
                def mutate(refs: list[Ref] = refs) -> Callable[[], None]:
                    show()
                    for ref in refs:
                        ref.present[BAD] = True

                    def revert() -> None:
                        hide()
                        for ref in refs:
                            ref.present[BAD] = False

                    return revert

                count = self.attempt(touched, mutate, owner, lo=2, hi=8, extra=extra)
                if count is not None:
                    return count, refs
            for step in reversed(reverts):
                step()
        return None

    def cluster_move(self) -> int | None:
        rng = self.rng
        func = self.next_candidate("move", self.can_move)
        if func is None:
            return None
        old_unit = func.unit
        assert isinstance(old_unit, FuncUnit)
        source = func.homes[GOOD]
        ceiling = min(r.host_module.rank for r in func.refs)
        targets = [m for m in self.cluster_pool() if m is not source
                   and m.rank < ceiling and all(m is not r.host_module for r in func.refs)]
        if not targets:
            return None
        target = rng.choice(self.other_area([source], targets))
        clone = copy.copy(old_unit)
        clone.module = target
        clone.present = [False, False]
        clone.owners = {}
        clone.body = copy.copy(old_unit.body)
        clone.body.unit = clone
        self.insert_body_unit(target, clone)
        units: list[Unit] = [old_unit, clone]
        for ref in func.refs:
            units += [ref.host_unit, ref.host_module.header]

        def mutate() -> Callable[[], None]:
            func.homes[BAD] = target
            old_unit.present[BAD] = False
            clone.present[BAD] = True

            def revert() -> None:
                func.homes[BAD] = source
                old_unit.present[BAD] = True
                clone.present[BAD] = False

            return revert

        count = self.attempt(units, mutate, f"move:{func.names[GOOD]}", lo=2, hi=8)
        if count is None:
            target.units.remove(clone)
            return None
        func.frozen = old_unit.frozen = clone.frozen = True
        self.record("move", count, f"{func.names[GOOD]}: {source.dotted} -> {target.dotted}",
                    func.refs)
        return count

    def cluster_new_module(self) -> int | None:
        rng = self.rng
        pool = self.cluster_pool()
        hosts = rng.sample(pool, min(len(pool), rng.choice([1, 2, 2, 3, 3, 4])))
        pkg = rng.choice(self.pkgs)
        name = self.module_name(pkg)
        module = Module(self, pkg, name, min(h.rank for h in hosts) - 0.5)
        module.exists = [False, True]
        module.special = "added"
        module.file_owner = f"new module:{module.dotted}"
        for _ in range(rng.randint(2, 4)):
            unit = self.new_func_unit(module)
            unit.frozen = unit.func.frozen = True
            module.units.append(unit)
        funcs = [u.func for u in module.units if isinstance(u, FuncUnit)]
        uses = [(host, rng.choice(funcs), "module" if rng.random() < 0.6 else "from")
                for host in hosts]
        made = self.attempt_uses(uses, [], f"new module:{module.dotted}", lambda: None,
                                 lambda: None, extra=1)
        if made is None:
            for func in funcs:
                self.drop_func(func)
            return None
        count, refs = made
        pkg.modules.append(module)
        self.modules.append(module)
        self.record("new module", count, module.dotted, refs)
        return count

    def cluster_delete(self, module: Module) -> int | None:
        refs = [r for u in module.units if isinstance(u, FuncUnit) for r in u.func.refs]
        units: list[Unit] = []
        for ref in refs:
            units += [ref.host_unit, ref.host_module.header]

        def mutate() -> Callable[[], None]:
            module.exists[BAD] = False
            for ref in refs:
                ref.present[BAD] = False

            def revert() -> None:
                module.exists[BAD] = True
                for ref in refs:
                    ref.present[BAD] = True

            return revert

        count = self.attempt(units, mutate, f"delete:{module.dotted}", lo=1 if not refs else 2,
                             hi=8, extra=1)
        if count is not None:
            module.file_owner = f"delete:{module.dotted}"
            self.record("deleted module", count, module.dotted, refs)
        return count

    def record(self, kind: str, hunks: int, what: str, refs: list[Ref]) -> None:
        self.cluster_hunks += hunks
        self.kinds[kind] += 1
        homes = [m for r in refs for m in r.target.homes]
        places = [r.host_module for r in refs] + homes
        self.clusters.append({
            "kind": kind, "hunks": hunks, "what": what,
            "files": len({m.path for m in places}),
            "dirs": len({m.pkg.path for m in places}),
            "import_time": any(r.import_time for r in refs),
        })

    def cluster_pool(self) -> list[Module]:
        """The modules that clusters may touch, in ``self.modules``'s order. Computed
        once: while clusters are made, modules are only added, as "added"."""
        if self._pool is None or self._pool_size != len(self.modules):
            self._pool = [m for m in self.modules if m.special in ("", "checked")]
            self._pool_size = len(self.modules)
        return self._pool

    def make_clusters(self) -> None:
        rng = self.rng
        for module in self.legacy:
            if self.cluster_delete(module) is None:
                module.exists[BAD] = True  # could not delete cleanly: keep it
                module.special = "legacy-kept"
        self._pool = None
        goal = round(self.target * self.cluster_share)
        n_new_modules = max(1, round(self.target / 400))
        kinds = [("rename", 0.4), ("helper", 0.26), ("move", 0.12), ("new module", 0.1),
                 ("signature", 0.12)]
        failures = 0
        while self.cluster_hunks < goal and failures < 400:
            kind = rng.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
            if kind == "new module" and self.kinds["new module"] >= n_new_modules:
                continue
            if kind == "rename":
                result = self.cluster_rename()
            elif kind == "helper":
                result = self.cluster_helper()
            elif kind == "move":
                result = self.cluster_move()
            elif kind == "signature":
                result = self.cluster_signature()
            else:
                result = self.cluster_new_module()
            failures = failures + 1 if result is None else 0

    def fill_local_edits(self) -> None:
        rng = self.rng
        pool = [m for m in self.modules if m.special in ("", "checked")]
        # cumulative once: choices() with plain weights sums them on every call
        cumulative = list(itertools.accumulate(m.weight for m in pool))
        failures = 0
        while self.unit_hunks + self.file_hunks < self.target:
            module = rng.choices(pool, cum_weights=cumulative)[0]
            units = [u for u in rng.sample(module.units, min(len(module.units), 8))
                     if u.misses < 8 and u.local_edits()]
            if not units or failures > 60:
                failures = 0
                if rng.random() < 0.08:
                    module.units.append(self.new_class_unit(module))
                elif rng.random() < 0.1:
                    const = ConstUnit(module, rng)
                    module.consts.append(const)
                    module.units.insert(len(module.consts) - 1, const)
                else:
                    self.insert_body_unit(module, self.new_func_unit(module))
                continue
            stacked = [u for u in units if u.owners and not isinstance(u, ConstUnit)]
            if stacked and rng.random() < 0.92:
                unit = rng.choice(stacked)  # a second or third edit in one function
            else:
                unit = rng.choices(units, [UNIT_WEIGHTS.get(type(u).__name__, 1.0)
                                           for u in units])[0]
            kind = rng.choice(unit.local_edits())

            def mutate(unit: Unit = unit, kind: str = kind) -> Callable[[], None]:
                return unit.apply_local(kind, rng)

            if self.attempt([unit], mutate, f"local:{kind}") is None:
                failures += 1
                unit.misses += 1
            else:
                failures = 0
                self.local_hunks += 1

    # -- output -------------------------------------------------------------

    def spacer(self, module: Module, size: int) -> list[str]:
        """At least ``size`` unchanged lines (both sides) to keep two edits apart.

        One extra blank line, a comment paragraph, or for larger gaps a section
        banner with a paragraph under it.
        """
        rng = self.rng
        sentences = [s.format(noun=module.noun, area=module.pkg.area)
                     for s in rng.sample(V.SPACER_SENTENCES, len(V.SPACER_SENTENCES))]
        if size <= 1:
            return [""]
        if size <= 5:
            return [""] + [f"# {s}" for s in sentences[: size - 1]]
        rule = "# " + "-" * 75
        lines = ["", rule, f"# {sentences[0]}", rule]
        for sentence in sentences[1:]:
            if len(lines) >= size:
                break
            lines.append(f"# {sentence}")
        return lines

    def render_module(self, module: Module) -> tuple[str | None, str | None,
                                                     list[tuple[int, int, str]]]:
        good, bad, regions = self.assemble(module)
        text_good = "\n".join(good) + "\n" if module.exists[GOOD] else None
        text_bad = "\n".join(bad) + "\n" if module.exists[BAD] else None
        return text_good, text_bad, regions

    def assemble(self, module: Module) -> tuple[list[str], list[str],
                                                list[tuple[int, int, str]]]:
        """Both texts of a module and its hunks (GOOD line ranges and owners).

        Sections come in a fixed order (imports, constants, functions and
        classes, tables). Within a section, edited units keep roughly their
        order; before each one, enough unchanged lines must separate its first
        edit from the edits already placed (see Layout.need). They come from
        unedited units of the section, a new unedited constant, or a section
        comment. Unedited units left over are spread at random.
        """
        rng = self.rng
        layout = Layout()
        header = module.header
        header_regions = header.regions()
        if header_regions is None:
            raise GenerateError(f"ambiguous import block in {module.path}")
        layout.place(header.good_lines(), header.render(BAD), header_regions, header.owners)
        for section in ("const", "body", "table"):
            units = [u for u in module.units if u.section == section]
            if not units:
                continue
            info: dict[int, list[tuple[int, int]]] = {}
            for unit in units:
                unit_regions = unit.regions()
                if unit_regions is None:
                    raise GenerateError(f"ambiguous hunk layout in {module.path}")
                info[id(unit)] = unit_regions
            edited = [u for u in units if info[id(u)]]
            free = [u for u in units if not info[id(u)]]
            rng.shuffle(free)
            # each free unit is due after a random number of edited ones
            due = {id(u): rng.randrange(len(edited) + 1) for u in free}
            placed = 0

            def put(unit: Unit, info: dict[int, list[tuple[int, int]]] = info) -> None:
                layout.place(unit.good_lines(), unit.render(BAD), info[id(unit)], unit.owners)

            while edited or free:
                for unit in [u for u in free if due[id(u)] <= placed]:
                    free.remove(unit)
                    put(unit)
                if not edited:
                    continue
                pick = next((u for u in edited if layout.need(
                    u.good_lines(), u.render(BAD), info[id(u)]) <= 0), None)
                if pick is not None:
                    edited.remove(pick)
                    put(pick)
                    placed += 1
                elif free:
                    put(free.pop())
                elif section == "const":
                    spare = ConstUnit(module, rng)
                    module.consts.append(spare)
                    module.units.insert(0, spare)
                    info[id(spare)] = []
                    put(spare)
                else:
                    first = edited[0]
                    need = layout.need(first.good_lines(), first.render(BAD), info[id(first)])
                    lines = self.spacer(module, need)
                    layout.place(lines, lines, [], {})
        return layout.good, layout.bad, layout.regions

    def run_test_source(self) -> str:
        checks = ",\n".join(f"    ({m!r}, {f!r}, {c!r}, {e})" for m, f, c, e in self.checks)
        return RUN_TEST.replace("@CHECKS@", checks)

    def build(self) -> None:
        self.make_packages()
        self.make_modules()
        self.make_units()
        self.place_checked()
        self.make_legacy_modules()
        self.make_refs()
        self.good_final = True
        for module in self.modules:
            for ref in module.hosted:
                if ref.style == "module" and ref.present[GOOD]:
                    self.importers.setdefault(id(ref.target.homes[GOOD]), set()).add(id(module))
        self.plant_causes()
        self.make_clusters()
        self.fill_local_edits()

    def trees(self) -> tuple[dict[str, str], dict[str, str], dict[str, object]]:
        """GOOD and BAD file contents, and the predicted hunks of every changed file."""
        good: dict[str, str] = {}
        bad: dict[str, str] = {}
        predicted: dict[str, object] = {}
        for pkg in self.pkgs:
            text = f'"""The {".".join(pkg.parts)} package."""\n'
            good[f"{pkg.path}/__init__.py"] = bad[f"{pkg.path}/__init__.py"] = text
        for module in self.modules:
            text_good, text_bad, regions = self.render_module(module)
            if text_good is not None:
                good[module.path] = text_good
            if text_bad is not None:
                bad[module.path] = text_bad
            if text_good is None or text_bad is None:
                predicted[module.path] = ("file", module.file_owner)
            elif regions:
                predicted[module.path] = regions
        shared = {
            "run_test.py": self.run_test_source(),
            ".gitignore": "__pycache__/\n*.pyc\n",
            "README.md": README.format(modules=len([m for m in self.modules if m.exists[GOOD]]),
                                       dirs=len(self.pkgs)),
        }
        good.update(shared)
        bad.update(shared)
        return good, bad, predicted


RUN_TEST = '''#!/usr/bin/env python3
"""Smoke test of proj: import every module, then check a few behaviours.

    python3 run_test.py

Exit status: 0 every check passed; 1 a check failed; 125 this tree cannot be
judged (a module does not import, or a checked function cannot be reached),
as `git bisect run` expects.
"""

import importlib
import os
import sys
import traceback

PASSED, FAILED, CANNOT_JUDGE = 0, 1, 125
BROKEN_CODE = (ImportError, NameError, AttributeError, SyntaxError)
ROOT = os.path.dirname(os.path.abspath(__file__))
MAX_REPORTED = 20

# (module, function, call, expected value)
CHECKS = [
@CHECKS@,
]


def module_names():
    """Every module and package under proj/, in a fixed order."""
    for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, "proj")):
        dirnames.sort()
        package = os.path.relpath(dirpath, ROOT).replace(os.sep, ".")
        for filename in sorted(filenames):
            if filename.endswith(".py"):
                stem = filename[:-3]
                yield package if stem == "__init__" else f"{package}.{stem}"


def where(exc):
    """The last frame of the traceback inside proj/, as 'file:line: source'."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if f.filename.startswith(ROOT)]
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{os.path.relpath(exc.filename, ROOT)}:{exc.lineno}: {(exc.text or '').strip()}"
    if not frames:
        return "?"
    frame = frames[-1]
    return f"{os.path.relpath(frame.filename, ROOT)}:{frame.lineno}: {frame.line}"


def import_all():
    """Import every module; report each distinct error once. True if all imported."""
    seen = []
    for name in module_names():
        try:
            importlib.import_module(name)
        except Exception as exc:
            message = f"{type(exc).__name__}: {exc}"
            if message in seen:
                continue
            seen.append(message)
            print(f"error while importing {name}: {message}", file=sys.stderr)
            print(f"    at {where(exc)}", file=sys.stderr)
            if len(seen) >= MAX_REPORTED:
                print("too many import errors, stopping", file=sys.stderr)
                break
    return not seen


def run_checks():
    failed = 0
    for module_name, function, call, expected in CHECKS:
        try:
            module = importlib.import_module(module_name)
            namespace = {function: getattr(module, function)}
            actual = eval(call, namespace)
        except BROKEN_CODE:
            print(f"cannot run {call}:", file=sys.stderr)
            traceback.print_exc()
            return CANNOT_JUDGE
        except Exception:
            print(f"FAIL {call} raised:", file=sys.stderr)
            traceback.print_exc()
            failed += 1
            continue
        if actual != expected:
            print(f"FAIL {call}: expected {expected!r}, got {actual!r}")
            failed += 1
        else:
            print(f"ok   {call} == {expected!r}")
    return FAILED if failed else PASSED


def main():
    sys.path.insert(0, ROOT)
    if not import_all():
        print("run_test.py: cannot judge this tree, it does not import", file=sys.stderr)
        return CANNOT_JUDGE
    return run_checks()


if __name__ == "__main__":
    sys.exit(main())
'''

README = """# proj

A synthetic application generated to benchmark wynot: {modules} modules in {dirs}
packages. `python3 run_test.py` imports every module and checks a few behaviours.
"""


# ---------------------------------------------------------------------------
# git
# ---------------------------------------------------------------------------


def git(repo: Path, *args: str, env: dict[str, str] | None = None,
        input: bytes | None = None) -> str:
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    full_env.update(GIT_ENV)
    full_env.update(env or {})
    done = subprocess.run(["git", *args], cwd=repo, env=full_env, input=input,
                          capture_output=True, check=False)
    if done.returncode != 0:
        raise GenerateError(f"git {' '.join(args)} failed: {done.stderr.decode(errors='replace')}")
    return done.stdout.decode("utf-8", errors="surrogateescape")


def write_tree(repo: Path, files: dict[str, str], previous: dict[str, str]) -> None:
    for path in previous:
        if path not in files:
            (repo / path).unlink()
    for path, text in files.items():
        if previous.get(path) == text:
            continue
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def commit(repo: Path, message: str, date: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message,
        env={"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date})
    return git(repo, "rev-parse", "HEAD").strip()


HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def parse_diff(text: str) -> list[dict[str, object]]:
    """Files of a unified git diff: path, status and hunks (old_start, old_len, body)."""
    files: list[dict[str, object]] = []
    current: dict[str, object] | None = None
    hunk: list[str] | None = None
    for line in text.split("\n"):
        if line.startswith("diff --git "):
            current = {"path": None, "old": None, "new": None, "hunks": []}
            files.append(current)
            hunk = None
        elif current is None:
            continue
        elif hunk is None and line.startswith("--- "):
            current["old"] = None if line == "--- /dev/null" else line[6:]
        elif hunk is None and line.startswith("+++ "):
            current["new"] = None if line == "+++ /dev/null" else line[6:]
            current["path"] = current["new"] or current["old"]
        elif line.startswith("@@"):
            match = HUNK_HEADER.match(line)
            if not match:
                raise GenerateError(f"unexpected hunk header {line!r}")
            old_start, old_len = int(match[1]), int(match[2] if match[2] is not None else 1)
            hunk = []
            current["hunks"].append((old_start, old_len, hunk))  # type: ignore[union-attr]
        elif hunk is not None and line[:1] in (" ", "+", "-", "\\"):
            hunk.append(line)
    return files


def label_hunks(files: list[dict[str, object]], predicted: dict[str, object]
                ) -> tuple[list[tuple[str, set[str]]], list[str]]:
    """Each git hunk's label and the owners of the planned edits inside it."""
    labelled: list[tuple[str, set[str]]] = []
    problems: list[str] = []
    for entry in files:
        path = str(entry["path"])
        hunks = entry["hunks"]
        plan = predicted.get(path)
        if entry["old"] is None or entry["new"] is None or isinstance(plan, tuple):
            owner = plan[1] if isinstance(plan, tuple) else f"file:{path}"
            for old_start, old_len, _ in hunks:  # type: ignore[union-attr]
                labelled.append((f"{path}:-{old_start},{old_len}", {owner}))
            continue
        regions = plan if isinstance(plan, list) else []
        owners_of: list[set[str]] = [set() for _ in hunks]  # type: ignore[arg-type]
        for start, end, owner in regions:
            for index, (old_start, old_len, _) in enumerate(hunks):  # type: ignore[arg-type]
                lo, hi = old_start - 1, old_start - 1 + old_len
                if old_len == 0:
                    lo = hi = old_start
                if lo <= start and end <= hi:
                    owners_of[index].add(owner)
                    break
            else:
                problems.append(f"{path}: planned edit at {start}-{end} not in any hunk")
        for (old_start, old_len, _), owners in zip(hunks, owners_of, strict=True):  # type: ignore
            labelled.append((f"{path}:-{old_start},{old_len}", owners))
    return labelled, problems


def apply_hunks(text: str, hunks: list[tuple[int, int, list[str]]]) -> str:
    """``text`` with some hunks of a -U3 diff applied, by line number."""
    lines = text.split("\n")
    out: list[str] = []
    pos = 0
    for old_start, old_len, body in sorted(hunks, key=lambda h: h[0]):
        start = old_start - 1 if old_len else old_start
        old = [line[1:] for line in body if line[:1] in (" ", "-")]
        if lines[start:start + len(old)] != old:
            raise GenerateError(f"hunk at line {old_start} does not apply")
        out += lines[pos:start] + [line[1:] for line in body if line[:1] in (" ", "+")]
        pos = start + len(old)
    return "\n".join(out + lines[pos:])


def configuration(good: dict[str, str], files: list[dict[str, object]],
                  keep: set[str]) -> dict[str, str]:
    """The GOOD tree with the hunks labelled ``keep`` applied."""
    tree = dict(good)
    for entry in files:
        path = str(entry["path"])
        hunks = [h for h in entry["hunks"]  # type: ignore[attr-defined]
                 if f"{path}:-{h[0]},{h[1]}" in keep]
        if not hunks:
            continue
        if entry["old"] is None:
            tree[path] = "\n".join(line[1:] for _, _, body in hunks for line in body
                                   if line.startswith("+")) + "\n"
        elif entry["new"] is None:
            del tree[str(entry["old"])]
        else:
            tree[path] = apply_hunks(tree[path], hunks)
    return tree


def run_tree(tree: dict[str, str]) -> tuple[int, float, str]:
    """Exit status, wall time and output of run_test.py on a tree written to a temporary dir."""
    with tempfile.TemporaryDirectory(prefix="wynot-synthetic-") as tmp:
        write_tree(Path(tmp), tree, {})
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "run_test.py"], cwd=tmp, env=env,
                              capture_output=True, text=True, check=False, timeout=300)
        return done.returncode, time.perf_counter() - started, done.stdout + done.stderr


def verify(good: dict[str, str], bad: dict[str, str], files: list[dict[str, object]],
           expected: list[str], helper: list[str]) -> tuple[dict[str, object], list[str]]:
    """Run the test on GOOD, BAD, the expected hunks alone and each of them alone."""
    problems: list[str] = []
    times: dict[str, float] = {}
    outcomes: dict[str, object] = {}
    for name, tree, want in (("good", good, 0), ("bad", bad, 1)):
        runs = [run_tree(tree) for _ in range(2)]
        outcomes[name] = runs[0][0]
        times[name] = round(min(r[1] for r in runs), 3)
        if runs[0][0] != want:
            problems.append(f"run_test.py on {name} exits {runs[0][0]}, not {want}: "
                            f"{runs[0][2][-500:]}")
    code, _, output = run_tree(configuration(good, files, set(expected)))
    outcomes["expected"] = code
    if code != 1:
        problems.append(f"the expected hunks alone exit {code}, not 1: {output[-500:]}")
    alone: dict[str, int] = {}
    if len(expected) > 1:
        for label in expected:
            code, _, output = run_tree(configuration(good, files, {label}))
            alone[label] = code
            want_helper = label in helper
            if code == 1 or (want_helper and code != 0):
                problems.append(f"{label} alone exits {code}: {output[-300:]}")
    outcomes["alone"] = alone
    return {"exit_codes": outcomes, "run_test_seconds": times}, problems


def generate(dest: Path, hunks: int = 5000, dirs: int = 100, causes: int = 1, seed: int = 1,
             needs_context: bool = False, cluster_share: float = 0.4,
             quiet: bool = True, check: bool = True) -> dict[str, object]:
    """Build the repository at ``dest`` and ``dest.json``; return the description."""
    started = time.perf_counter()
    if dest.exists():
        raise GenerateError(f"{dest} already exists")
    if causes not in (1, 2):
        raise GenerateError("--causes must be 1 or 2")
    if hunks < 50:
        raise GenerateError("--hunks must be at least 50")
    if dirs < 2:
        raise GenerateError("--dirs must be at least 2")
    gen = Generator(hunks, dirs, causes, seed, needs_context, cluster_share)
    gen.build()
    good, bad, predicted = gen.trees()
    planned = time.perf_counter()

    dest.mkdir(parents=True)
    git(dest, "init", "-q", "-b", "main")
    write_tree(dest, good, {})
    commit(dest, "proj: last release that passes its smoke test", DATES["good"])
    git(dest, "tag", "good")
    write_tree(dest, bad, good)
    commit(dest, "proj: development snapshot (smoke test fails)", DATES["bad"])
    git(dest, "tag", "bad")
    diff = git(dest, "diff", "-U3", "-M", "good", "bad")
    files = parse_diff(diff)
    labelled, problems = label_hunks(files, predicted)
    expected = sorted(label for label, owners in labelled
                      if owners & {"cause", "cause-context"})
    helper = [label for label, owners in labelled if "cause-context" in owners]
    checked: dict[str, object] = {}
    if check:
        checked, failed = verify(good, bad, files, expected, helper)
        problems += failed
    cause_hunks = sum(1 for _, owners in labelled if owners & {"cause", "cause-context"})
    n_cause_edits = gen.n_causes + (1 if needs_context else 0)
    if cause_hunks != n_cause_edits or any(
            len(owners) > 1 and owners & {"cause", "cause-context"} for _, owners in labelled):
        problems.append("the cause hunks are not separate")
    merged = sum(1 for _, owners in labelled if len(owners) > 1)
    by_cluster: dict[str, list[str]] = {}
    for label, owners in labelled:
        for owner in sorted(owners):
            if owner.split(":")[0] in CLUSTER_KINDS:
                by_cluster.setdefault(owner, []).append(label)
    in_clusters = sum(1 for _, owners in labelled
                      if any(o.split(":")[0] in CLUSTER_KINDS for o in owners))
    kinds: dict[str, int] = {}
    for cluster in gen.clusters:
        kinds[str(cluster["kind"])] = kinds.get(str(cluster["kind"]), 0) + 1
    sizes = [int(c["hunks"]) for c in gen.clusters]  # type: ignore[call-overload]
    info: dict[str, object] = {
        "generator": "benchmarks/synthetic/generate.py",
        "generator_version": GENERATOR_VERSION,
        "seed": seed,
        "requested_hunks": hunks,
        "hunks": len(labelled),
        "predicted_hunks": gen.unit_hunks + gen.file_hunks,
        "files": len(files),
        "files_added": sum(1 for f in files if f["old"] is None),
        "files_deleted": sum(1 for f in files if f["new"] is None),
        "dirs": len(gen.pkgs),
        "modules": {"good": sum(1 for m in gen.modules if m.exists[GOOD]),
                    "bad": sum(1 for m in gen.modules if m.exists[BAD])},
        "lines": {"good": sum(t.count("\n") for p, t in good.items() if p.endswith(".py")),
                  "bad": sum(t.count("\n") for p, t in bad.items() if p.endswith(".py"))},
        "causes": causes,
        "cause_needs_context": needs_context,
        "cause_function": gen.cause_name,
        "test": TEST_COMMAND,
        "expected": expected,
        "clusters": {
            "count": len(gen.clusters),
            "by_kind": kinds,
            "hunks": in_clusters,
            "share": round(in_clusters / max(1, len(labelled)), 3),
            "size_min": min(sizes) if sizes else 0,
            "size_max": max(sizes) if sizes else 0,
            "size_mean": round(sum(sizes) / len(sizes), 2) if sizes else 0,
            "import_time": sum(1 for c in gen.clusters if c["import_time"]),
            "across_dirs": sum(1 for c in gen.clusters if int(c["dirs"]) > 1),  # type: ignore
            "size_histogram": {str(n): sizes.count(n) for n in sorted(set(sizes))},
        },
        "local_edits": gen.local_hunks,
        "cluster_hunks": by_cluster,
        "verified": checked,
        "merged_hunks": merged,
        "problems": problems,
        "commits": {"good": git(dest, "rev-parse", "good").strip(),
                    "bad": git(dest, "rev-parse", "bad").strip()},
        "seconds": {"plan": round(planned - started, 2),
                    "total": round(time.perf_counter() - started, 2)},
    }
    Path(f"{dest}.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    if problems and not quiet:
        for problem in problems[:20]:
            print(f"problem: {problem}", file=sys.stderr)
    return info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Generate a synthetic Python project repository with tags good and bad.")
    parser.add_argument("dest", type=Path, help="where to create the repository (must not exist)")
    parser.add_argument("--hunks", type=int, default=5000, help="about this many hunks (-U3)")
    parser.add_argument("--dirs", type=int, default=100, help="package directories")
    parser.add_argument("--causes", type=int, default=1, choices=(1, 2),
                        help="1: one failure-inducing hunk; 2: two that fail only together")
    parser.add_argument("--cause-needs-context", action="store_true",
                        help="the cause also needs a new helper from another hunk")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cluster-share", type=float, default=0.4,
                        help="share of hunks in dependency clusters (default 0.4)")
    parser.add_argument("--no-verify", action="store_true",
                        help="do not run run_test.py on GOOD, BAD and the cause to check them")
    args = parser.parse_args(argv)
    try:
        info = generate(args.dest, args.hunks, args.dirs, args.causes, args.seed,
                        args.cause_needs_context, args.cluster_share, quiet=False,
                        check=not args.no_verify)
    except GenerateError as exc:
        print(f"generate.py: {exc}", file=sys.stderr)
        return 1
    clusters = info["clusters"]
    modules = info["modules"]
    seconds = info["seconds"]
    assert isinstance(clusters, dict) and isinstance(modules, dict) and isinstance(seconds, dict)
    print(f"{args.dest}: {info['hunks']} hunks in {info['files']} files, "
          f"{clusters['share']:.0%} of them in {clusters['count']} dependency clusters; "
          f"{info['dirs']} packages, {modules['good']} modules in GOOD, {modules['bad']} in BAD")
    print(f"expected: {', '.join(info['expected'])}")  # type: ignore[arg-type]
    verified = info.get("verified")
    if isinstance(verified, dict) and verified:
        print(f"run_test.py: {verified['exit_codes']}, seconds {verified['run_test_seconds']}")
    print(f"generated in {seconds['total']} s")
    problems = info["problems"]
    if problems:
        print(f"generate.py: {len(problems)} problem(s), see {args.dest}.json",  # type: ignore
              file=sys.stderr)
        print(f"description: {args.dest}.json")
        return 1
    print(f"description: {args.dest}.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
