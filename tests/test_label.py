"""Context minimised by units: a whole cluster drops in one run; labels from real
runs; an answer whose cause cannot be separated from its context says so."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tester_helpers import import_check, run_tester

from cli_helpers import run_wynot
from conftest import Executable, GitRepo
from wynot import tester as testers
from wynot.analysis.depends import Dependencies, derive
from wynot.analysis.grouping import make_plan
from wynot.analysis.resolve import Resolver
from wynot.analysis.symbols import change_symbols, file_symbols
from wynot.cache import RunLog
from wynot.diffread import read_diff
from wynot.label import label
from wynot.oracle import SearchOracle
from wynot.outcome import Outcome
from wynot.pool import LocalPool
from wynot.result import CAUSE, CONTEXT, INSEPARABLE
from wynot.runner import Commands

PAD = b"".join(b"# filler %d\n" % i for i in range(8))
# Exit 125 when the package does not import, 1 when LIMIT is wrong.
RUNNER = Executable(b"""#!/usr/bin/env python3
import sys
try:
    import app.a, app.b, app.c
    from app.core import LIMIT
except Exception as error:
    print(f"{type(error).__name__}: {error}")
    sys.exit(125)
sys.exit(0 if LIMIT == 10 else 1)
""")


def caller(name: str, helper: str) -> bytes:
    return (b"from app.util import %s\n" % helper.encode() + PAD
            + b"%s_VALUE = %s(1)\n" % (name.encode(), helper.encode()))


def cluster_repo(make_repo) -> tuple[GitRepo, str, str]:
    """BAD renames util.helper to helper2 with its three callers (a cluster of
    changes that need each other), and changes LIMIT in core.py, which reads
    SCALE from config.py by name at run time (a dependency no analysis sees)."""
    repo = make_repo("cluster")
    core = (b"import importlib\n" + PAD
            + b"LIMIT = getattr(importlib.import_module('app.config'), '%s') * 5\n")
    good = repo.commit({
        "run_test.py": RUNNER, "app/__init__.py": b"",
        "app/util.py": b"def helper(x):\n    return x + 1\n" + PAD,
        **{f"app/{n}.py": caller(n, "helper") for n in "abc"},
        "app/config.py": b"WIDTH = 2\n" + PAD,
        "app/core.py": core % b"WIDTH",
    })
    bad = repo.commit({
        "run_test.py": RUNNER, "app/__init__.py": b"",
        "app/util.py": b"def helper2(x):\n    return x + 1\n" + PAD,
        **{f"app/{n}.py": caller(n, "helper2") for n in "abc"},
        "app/config.py": b"WIDTH = 2\n" + PAD + b"SCALE = 3\n",
        "app/core.py": core % b"SCALE",
    })
    return repo, good, bad


def test_a_whole_cluster_drops_in_one_run(make_repo, tmp_path: Path) -> None:
    repo, good, bad = cluster_repo(make_repo)
    diff = read_diff(repo.path, good, bad)
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    by_file = {fd.index: file_symbols(fd) for fd in diff.files}
    deps = derive(symbols, {c.id: by_file[c.file] for c in diff.changes})
    plan = make_plan(diff, ("dir", "file", "syntax"), symbols, deps)
    cause = next(c.id for c in diff.changes if c.path == "app/core.py")
    context = next(c.id for c in diff.changes if c.path == "app/config.py")
    cluster = frozenset(c.id for c in diff.changes if c.path not in (
        "app/core.py", "app/config.py"))
    assert len(cluster) >= 4
    assert len({plan.units[c] for c in cluster}) == 1  # one unit: they need each other
    commands = Commands(test=(sys.executable, "run_test.py"))
    records: list = []
    log = RunLog(tmp_path / "runs")
    with LocalPool(repo.path, commands, 1) as executor:
        executor.begin(good, diff)
        tester = testers.Tester(diff, executor, commands, None, "key", log, lambda _: None,
                                records)
        labelled = label(tester, frozenset({cause, context}) | cluster, lambda: False,
                         deps, frozenset({cause}), plan.units)
    log.close()
    assert labelled.chosen == {cause, context}
    assert labelled.roles == {cause: CAUSE, context: CONTEXT}
    runs = [r for r in records if r.ran]
    # The cause alone (UNRESOLVED), the cluster removed whole (FAIL: dropped), the
    # cause removed (PASS); removing the context is the first run again, at no cost.
    assert [r.ids for r in runs] == [frozenset({cause}), frozenset({cause, context}),
                                     frozenset({context})]
    assert len([r for r in records if r.ids == frozenset({cause})]) == 2


SEPARATE = Executable(b"""#!/usr/bin/env python3
import sys
try:
    from calc import RESULT
except Exception as error:
    print(f"{type(error).__name__}: {error}")
    sys.exit(125)
sys.exit(0 if RESULT == 6 else 1)
""")


def test_an_answer_all_needed_to_build_is_reported_inseparable(make_repo) -> None:
    """scale() gains a parameter and its one call passes it: either alone does not
    run, and together they fail. Neither is the cause without the other."""
    repo = make_repo("inseparable")
    repo.commit({"run_test.py": SEPARATE,
                 "calc.py": b"def scale(x):\n    return x * 2\n" + PAD + b"RESULT = scale(3)\n"})
    repo.git("tag", "good")
    repo.commit({"run_test.py": SEPARATE,
                 "calc.py": b"def scale(x, factor):\n    return x * factor\n" + PAD
                 + b"RESULT = scale(3, 3)\n"})
    repo.git("tag", "bad")
    result = run_wynot("good", "bad", "--json", "--no-cache", "--", "./run_test.py",
                       cwd=repo.path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert len(report["changes"]) == 2
    assert {c["role"] for c in report["changes"]} == {INSEPARABLE}
    assert report["separable"] is False and report["minimal"] is True
    text = run_wynot("good", "bad", "--", "./run_test.py", cwd=repo.path)
    assert "the cause could not be separated from its context" in text.stdout
    assert "cause and context at once" in text.stdout
    assert "context: without it" not in text.stdout


LIMIT_ONLY = import_check("from app.core import LIMIT", "LIMIT == 10")


def test_after_a_drop_the_next_units_go_together(make_repo, tmp_path: Path) -> None:
    """An answer of the cause and sixteen changes nothing needs, each its own unit:
    after four drops in a row the sweep removes two units at a time, then four,
    so the sixteen go in fewer runs than one each."""
    repo = make_repo("batches")
    spare = {f"app/x{i:02}.py": b"X = %d\n" for i in range(16)}
    good = repo.commit({"run_test.py": LIMIT_ONLY, "app/__init__.py": b"",
                        "app/core.py": b"LIMIT = 5\n",
                        **{p: t % 1 for p, t in spare.items()}})
    bad = repo.commit({"run_test.py": LIMIT_ONLY, "app/__init__.py": b"",
                       "app/core.py": b"LIMIT = 10\n",
                       **{p: t % 2 for p, t in spare.items()}})
    diff = read_diff(repo.path, good, bad)
    cause = next(c.id for c in diff.changes if c.path == "app/core.py")
    everything = frozenset(c.id for c in diff.changes)
    units = {c.id: c.id for c in diff.changes}
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        labelled = label(tester, everything, lambda: False, Dependencies(), everything, units)
    assert labelled.chosen == {cause}
    assert labelled.roles == {cause: CAUSE}
    runs = [r for r in records if r.ran]
    assert len(runs) < len(everything) - 1  # one run a unit: 16 drops and the cause
    assert max(len(everything) - len(r.ids) for r in runs) >= 4  # four units at once


CALLERS = "abcde"  # 12 hunks in all: more than labelling's early cores need
RENAMED = Executable(b"""#!/usr/bin/env python3
import importlib, sys
try:
    for name in "%s":
        importlib.import_module("app." + name)
    from app.calc import VALUE
except Exception as error:
    print(f"{type(error).__name__}: {error}")
    sys.exit(125)
sys.exit(0 if VALUE == 2 else 1)
""" % CALLERS.encode())


def test_the_answer_without_what_build_errors_involved_is_tried_first(
        make_repo, tmp_path: Path) -> None:
    """BAD renames util.helper to helper2 with its five callers and changes VALUE in
    calc.py, the cause. With no dependencies known, each change is a unit of its
    own, and removing any part of the rename breaks the import. The search's
    oracle saw util.py's change alone not import (its error names helper, which
    the callers mention): the answer's one change that no build error
    involved, calc.py's, runs first, fails, and the rest goes in that one run."""
    repo = make_repo("renamed")
    files = {"run_test.py": RENAMED, "app/__init__.py": b""}
    good = repo.commit({**files, "app/util.py": b"def helper(x):\n    return x\n" + PAD,
                        **{f"app/{n}.py": caller(n, "helper") for n in CALLERS},
                        "app/calc.py": b"VALUE = 2\n"})
    bad = repo.commit({**files, "app/util.py": b"def helper2(x):\n    return x\n" + PAD,
                       **{f"app/{n}.py": caller(n, "helper2") for n in CALLERS},
                       "app/calc.py": b"VALUE = 3\n"})
    diff = read_diff(repo.path, good, bad)
    ids = {c.path: c.id for c in diff.changes}
    everything = frozenset(c.id for c in diff.changes)
    assert len(everything) == 12  # a caller's import and its use are two hunks
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), Resolver(symbols, diff=diff))
        # its repair, the callers' ten hunks, is more than a round may add
        assert oracle(frozenset({ids["app/util.py"]})) is Outcome.UNRESOLVED
        assert oracle.untouched(everything) == {ids["app/calc.py"]}
        asked = len(records)
        labelled = label(tester, everything, lambda: False, Dependencies(), everything,
                         {c: c for c in everything}, untouched=oracle.untouched)
    assert labelled.chosen == {ids["app/calc.py"]}
    assert labelled.roles == {ids["app/calc.py"]: CAUSE}
    assert [r.ids for r in records[asked:] if r.ran][0] == {ids["app/calc.py"]}
