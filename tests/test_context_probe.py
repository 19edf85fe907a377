"""Where a context search's first step decides nothing, the changes that share the
most names with the answer are asked together, and the search goes on inside
them (search.Probes with suspects.related)."""

from __future__ import annotations

from pathlib import Path

from tester_helpers import import_check, run_tester

from conftest import GitRepo
from wynot.analysis.depends import Dependencies
from wynot.analysis.grouping import make_plan
from wynot.diffread import read_diff
from wynot.label import standalone
from wynot.oracle import SearchOracle
from wynot.outcome import Outcome
from wynot.suspects import related

PAIRS = 3  # modules a<i>.py and z<i>.py, changed together or not at all


def mode_repo(make_repo) -> tuple[GitRepo, str, str]:
    """BAD's core.py gives LIMIT 10 when the settings' MODE is "wide" (the cause);
    settings.py makes it "wide" (the context it needs). Each a<i>.py and z<i>.py
    move to version 2 together: a test that sees them disagree cannot judge."""
    repo = make_repo("mode")
    pairs = " and ".join(f"a{i}.VERSION == z{i}.VERSION" for i in range(PAIRS))
    modules = ", ".join(f"a{i}, z{i}" for i in range(PAIRS))
    check = import_check(f"from app import core, {modules}\n    assert {pairs}",
                         "core.LIMIT == 10")

    def tree(version: int) -> dict[str, bytes]:
        return {"run_test.py": check, "app/__init__.py": b"",
                **{f"app/{side}{i}.py": b"VERSION = %d\n" % version
                   for i in range(PAIRS) for side in "az"}}

    good = repo.commit({**tree(1), "app/core.py": b"LIMIT = 5\n",
                        "app/settings.py": b'MODE = "narrow"\n'})
    bad = repo.commit({**tree(2),
                       "app/core.py": b"from app.settings import MODE\n"
                       b'LIMIT = 10 if MODE == "wide" else 5\n',
                       "app/settings.py": b'MODE = "wide"\n'})
    return repo, good, bad


def test_the_changes_most_like_the_answer_are_asked_together(make_repo,
                                                            tmp_path: Path) -> None:
    """The answer, core.py, PASSES alone. The pairs' needs are known to the oracle
    (as needs a repair taught are) but not to the plan, whose order is the
    paths': in the context search each half of the others splits pairs
    (predicted UNRESOLVED), so the first step decides nothing. settings.py
    shares the answer's rarest names (MODE, settings, wide): it is asked with
    the next suspects and the pairs their needs add, that FAILS, and the search
    inside it finds settings.py alone."""
    repo, good, bad = mode_repo(make_repo)
    diff = read_diff(repo.path, good, bad)
    ids = {c.path: c.id for c in diff.changes}
    core, settings = ids["app/core.py"], ids["app/settings.py"]
    deps = Dependencies()
    for i in range(PAIRS):
        deps.add(ids[f"app/a{i}.py"], ids[f"app/z{i}.py"])
        deps.add(ids[f"app/z{i}.py"], ids[f"app/a{i}.py"])
    others = frozenset(ids.values()) - {core}
    weights = related(diff, {core}, others)
    assert max(weights, key=weights.__getitem__) == settings
    plan = make_plan(diff, ("none",), {}, Dependencies())  # the pairs learned since
    said: list[object] = []
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        tester.progress = said.append
        assert tester.run(frozenset(ids.values()), "premise").outcome is Outcome.FAIL
        oracle = SearchOracle(tester, deps, None)
        found = standalone(tester, plan, oracle, frozenset({core}), lambda: False, False)
    assert found == {core, settings}
    lines = [line for line in said if isinstance(line, str)]
    assert any("that share the most names together" in line for line in lines)
    asked = [r.ids for r in records if r.ran and r.phase == "search"]
    assert asked[0] == {core}  # the answer alone PASSES
    assert settings in asked[1] and asked[1] < frozenset(ids.values())  # the probe FAILS
    assert asked[-1] == {core, settings}
    assert len(asked) <= 4


def test_the_heaviest_alone_when_they_do_not_build_together(make_repo,
                                                            tmp_path: Path) -> None:
    """The same diff, the pairs' needs unknown: the context search's halves run
    and do not build (each splits pairs), and the changes most like the answer,
    asked together, split pairs too (UNRESOLVED). The heaviest of them,
    settings.py, is then asked alone: it FAILS with the answer."""
    repo, good, bad = mode_repo(make_repo)
    diff = read_diff(repo.path, good, bad)
    ids = {c.path: c.id for c in diff.changes}
    core, settings = ids["app/core.py"], ids["app/settings.py"]
    plan = make_plan(diff, ("none",), {}, Dependencies())
    said: list[object] = []
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        tester.progress = said.append
        assert tester.run(frozenset(ids.values()), "premise").outcome is Outcome.FAIL
        oracle = SearchOracle(tester, Dependencies(), None)
        found = standalone(tester, plan, oracle, frozenset({core}), lambda: False, False)
    assert found == {core, settings}
    lines = [line for line in said if isinstance(line, str)]
    assert any("asking the first alone" in line for line in lines)
    asked = [(r.ids, r.outcome) for r in records if r.ran and r.phase == "search"]
    alone = asked.index((frozenset({core, settings}), Outcome.FAIL))
    assert asked[alone - 1][1] is Outcome.UNRESOLVED  # the suspects together
    assert settings in asked[alone - 1][0] and len(asked[alone - 1][0]) > 2
