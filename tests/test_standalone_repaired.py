"""The context search's answer fails only through repairs: the configuration that
really FAILED is the answer, and labelling removes its context, instead of one
more context search a round for what each round's repairs added."""

from __future__ import annotations

from pathlib import Path

from test_grow import resolver_of
from tester_helpers import import_check, run_tester

from conftest import GitRepo
from wynot.analysis.depends import Dependencies
from wynot.analysis.grouping import make_plan
from wynot.analysis.resolve import Resolver
from wynot.analysis.symbols import change_symbols
from wynot.diffread import read_diff
from wynot.label import label, reached_by_repairs, standalone
from wynot.oracle import SearchOracle
from wynot.outcome import Outcome
from wynot.result import CAUSE, CONTEXT

CHECK = import_check("from app.core import LIMIT", "LIMIT == 10")
FILLER = b"".join(b"# line %d\n" % i for i in range(8))
SPARE = 4  # modules that change in BAD and that nothing the test runs needs


def chain_repo(make_repo) -> tuple[GitRepo, str, str]:
    """BAD computes LIMIT in core.py with ``scale`` (the cause), which a change to
    app/helpers.py defines with ``factor``, which a change to app/util.py defines;
    app/extra.py and four spare modules change too, and nothing needs them."""
    repo = make_repo("chain")

    def tree(version: int) -> dict[str, bytes]:
        spare = {f"app/s{i}.py": b"S = %d\n" % version for i in range(SPARE)}
        return {"run_test.py": CHECK, "app/__init__.py": b"",
                "app/extra.py": b"X = %d\n" % version, **spare}

    good = repo.commit({**tree(1),
                        "app/core.py": b"import os\n" + FILLER + b"LIMIT = 5\n",
                        "app/helpers.py": b"def double(x):\n    return 2 * x\n" + FILLER,
                        "app/util.py": b"BASE = 1\n" + FILLER})
    bad = repo.commit({**tree(2),
                       "app/core.py": b"import os\n" + FILLER
                       + b"from app.helpers import scale\nLIMIT = scale(5)\n",
                       "app/helpers.py": b"def double(x):\n    return 2 * x\n" + FILLER
                       + b"from app.util import factor\n\n\ndef scale(x):\n"
                       b"    return factor * x\n",
                       "app/util.py": b"BASE = 1\n" + FILLER + b"factor = 2\n"})
    return repo, good, bad


def test_an_answer_that_fails_through_repairs_is_the_configuration_that_failed(
        make_repo, tmp_path: Path) -> None:
    """dd+'s answer is app/extra.py, which PASSES alone (its FAIL came from the
    changes kept applied). The context search with it applied finds the cause,
    which fails only once the repairs of ``cannot import name`` add helpers and
    util. That repaired configuration really FAILED: it is the answer at once (no
    second context search over the two changes the repairs added), and
    labelling then drops app/extra.py and labels the three that stay."""
    repo, good, bad = chain_repo(make_repo)
    diff = read_diff(repo.path, good, bad)
    ids = {c.path: c.id for c in diff.changes}
    extra, cause = ids["app/extra.py"], ids["app/core.py"]
    helper, util = ids["app/helpers.py"], ids["app/util.py"]
    everything = frozenset(ids.values())
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    plan = make_plan(diff, ("none",), symbols, Dependencies())
    said: list[object] = []
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        tester.progress = said.append
        assert tester.run(everything, "premise").outcome is Outcome.FAIL
        oracle = SearchOracle(tester, Dependencies(), lambda: Resolver(symbols, diff=diff))
        found = standalone(tester, plan, oracle, frozenset({extra}), lambda: False, False)
        searched = len([r for r in records if r.ran])
        labelled = label(tester, found, lambda: False, Dependencies(), frozenset({extra}),
                         {c.id: c.id for c in diff.changes}, resolver_of(diff))
    assert found == {extra, cause, helper, util}
    runs = [r for r in records if r.ran]
    # The premise, dd+'s answer alone (PASS), then the context search: the half
    # with the cause does not import, and its repairs (util's factor, then by the
    # dependency that repair taught, helpers) make it FAIL; the cause with
    # app/extra.py alone does not import either.
    assert [r.ids for r in runs[:searched]] == [
        everything, {extra}, everything - {ids[f"app/s{i}.py"] for i in (2, 3)} - {util},
        everything - {ids[f"app/s{i}.py"] for i in (2, 3)}, found, {extra, cause}]
    failed = runs[4]  # the answer: a configuration that really ran and FAILED
    assert failed.outcome is Outcome.FAIL and failed.resolving is not None
    # One context search; its nominal answer {extra, cause} is not searched again
    # (before, two more context searches went over what the repairs added, one
    # change a round: here the dependencies the repairs taught answered their
    # questions from earlier runs; where repairs teach nothing that builds, as
    # with g++'s template errors, each such round costs runs).
    lines = [line for line in said if isinstance(line, str)]
    assert sum("context to fail; searching" in line for line in lines) == 1
    assert any("only with what repairs added" in line for line in lines)
    assert [r.ids for r in records if r.phase == "search"][-1] == {extra, cause}
    assert labelled.chosen == {cause, helper, util}
    assert labelled.roles == {cause: CAUSE, helper: CONTEXT, util: CONTEXT}


def test_only_a_configuration_that_repairs_reached_stands_for_a_nominal_answer(
        make_repo, tmp_path: Path) -> None:
    """BAD, run as it is, FAILED but no repair reached it; the cause with app/extra.py,
    which does not import, reaches its repaired configuration through the loop."""
    repo, good, bad = chain_repo(make_repo)
    diff = read_diff(repo.path, good, bad)
    ids = {c.path: c.id for c in diff.changes}
    everything = frozenset(ids.values())
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    nominal = frozenset({ids["app/extra.py"], ids["app/core.py"]})
    repaired = nominal | {ids["app/helpers.py"], ids["app/util.py"]}
    with run_tester(repo, good, diff, tmp_path) as (tester, _):
        assert tester.run(everything, "premise").outcome is Outcome.FAIL
        oracle = SearchOracle(tester, Dependencies(), lambda: Resolver(symbols, diff=diff))
        assert oracle(nominal) is Outcome.FAIL
        assert not reached_by_repairs(tester, everything)
        assert not reached_by_repairs(tester, nominal)  # UNRESOLVED alone
        assert reached_by_repairs(tester, repaired)


def test_a_context_search_that_found_no_smaller_failure_is_not_made_again(
        make_repo, tmp_path: Path) -> None:
    """The test FAILS only with all of a.py, b.py and c.py changed. From dd+'s
    answer a.py, the context search over b.py and c.py (keeping b.py applied once
    it PASSED) names c.py: a.py and c.py alone PASS, and the smallest
    configuration seen to FAIL around them is still the whole diff it searched.
    That configuration is the answer at once, not a second search inside it."""
    repo = make_repo("together")
    check = import_check("from app import a, b, c", "a.V == b.V == c.V == 2")
    files = {"run_test.py": check, "app/__init__.py": b""}
    good = repo.commit({**files, **{f"app/{n}.py": b"V = 1\n" for n in "abc"}})
    bad = repo.commit({**files, **{f"app/{n}.py": b"V = 2\n" for n in "abc"}})
    diff = read_diff(repo.path, good, bad)
    ids = {c.path: c.id for c in diff.changes}
    everything = frozenset(ids.values())
    plan = make_plan(diff, ("none",), {}, Dependencies())
    said: list[object] = []
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        tester.progress = said.append
        assert tester.run(everything, "premise").outcome is Outcome.FAIL
        oracle = SearchOracle(tester, Dependencies(), None)
        found = standalone(tester, plan, oracle, frozenset({ids["app/a.py"]}),
                           lambda: False, True)
    assert found == everything
    lines = [line for line in said if isinstance(line, str)]
    assert sum("context to fail; searching" in line for line in lines) == 1
    assert any("only within the 3-change configuration searched" in line for line in lines)
    assert frozenset({ids["app/a.py"], ids["app/c.py"]}) in [r.ids for r in records]


def test_a_smaller_configuration_that_failed_without_the_answer_is_searched_again(
        make_repo, tmp_path: Path) -> None:
    """dd+'s answer (a harmless change) passes alone, and a configuration smaller
    than the one around it that FAILED (as a part run without what its errors
    involved would) lacks it: the search starts again inside that configuration
    and finds the cause alone, instead of searching the answer's context."""
    repo = make_repo("again")
    files = {"run_test.py": import_check("from app import core", "core.LIMIT == 10"),
             "app/__init__.py": b""}
    good = repo.commit({**files, "app/core.py": b"LIMIT = 5\n", "app/a.py": b"A = 1\n",
                        "app/b.py": b"B = 1\n"})
    bad = repo.commit({**files, "app/core.py": b"LIMIT = 10\n", "app/a.py": b"A = 2\n",
                       "app/b.py": b"B = 2\n"})
    diff = read_diff(repo.path, good, bad)
    ids = {c.path: c.id for c in diff.changes}
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    plan = make_plan(diff, ("none",), symbols, Dependencies())
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        assert tester.run(frozenset(ids.values()), "premise").outcome is Outcome.FAIL
        part = frozenset({ids["app/core.py"], ids["app/b.py"]})
        assert tester.run(part, "search").outcome is Outcome.FAIL
        oracle = SearchOracle(tester, Dependencies(), lambda: Resolver(symbols, diff=diff))
        found = standalone(tester, plan, oracle, frozenset({ids["app/a.py"]}), lambda: False,
                           False)
    assert found == {ids["app/core.py"]}
