"""The cause alone, repaired by failure resolution inside a failing answer: an
ImportError that names the module and the name is repaired by the one change
that defines it there, and the whole context drops in one run."""

from __future__ import annotations

from pathlib import Path

import pytest
from tester_helpers import import_check, run_tester

from conftest import GitRepo
from wynot.analysis.depends import Dependencies
from wynot.analysis.grouping import make_plan
from wynot.analysis.resolve import Resolution, Resolver
from wynot.analysis.symbols import change_symbols
from wynot.changes import Diff
from wynot.diffread import read_diff
from wynot.grow import grow, round_limit
from wynot.label import label, standalone
from wynot.oracle import MAX_KNOWN_REPAIR, SearchOracle
from wynot.outcome import Outcome
from wynot.result import CAUSE, CONTEXT

# Exit 125 when the package does not import (the message names module and
# name, as Python prints it), 1 when LIMIT is the new value.
CHECK = import_check("from app.core import LIMIT", "LIMIT == 10")
SPARE = 12  # modules that change in BAD and that nothing the test runs needs


def release_repo(make_repo) -> tuple[GitRepo, str, str]:
    """BAD adds ``scale`` to app/helpers.py, computes LIMIT in core.py with it (the
    cause), and rewrites twelve modules whose new versions import each other's
    new names (a release's worth of context, each module needing the next)."""
    repo = make_repo("release")

    def spare(version: int) -> dict[str, bytes]:
        files = {}
        for i in range(SPARE):
            nxt = (i + 1) % SPARE
            body = (b"from app.x%02d import V%d_%02d\n" % (nxt, version, nxt)
                    if version == 2 else b"")
            files[f"app/x{i:02}.py"] = body + b"V%d_%02d = %d\n" % (version, i, i)
        return files

    filler = b"".join(b"# line %d\n" % i for i in range(8))
    good = repo.commit({"run_test.py": CHECK, "app/__init__.py": b"",
                        "app/helpers.py": b"def double(x):\n    return 2 * x\n" + filler,
                        "app/core.py": b"import os\n" + filler + b"LIMIT = 5\n",
                        **spare(1)})
    bad = repo.commit({"run_test.py": CHECK, "app/__init__.py": b"",
                       "app/helpers.py": b"def double(x):\n    return 2 * x\n" + filler
                       + b"def scale(x):\n    return 2 * x\n",
                       "app/core.py": b"import os\n" + filler
                       + b"from app.helpers import scale\nLIMIT = scale(5)\n",
                       **spare(2)})
    return repo, good, bad


def resolver_of(diff: Diff):
    """Failure resolution over ``diff``, as the oracle offers it to labelling."""
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    resolver = Resolver(symbols, diff=diff)

    def repair(output: str, applied: frozenset[int]) -> Resolution | None:
        return resolver.resolve(output, applied)

    return repair


def test_the_cause_alone_is_repaired_and_the_context_drops_at_once(
        make_repo, tmp_path: Path) -> None:
    repo, good, bad = release_repo(make_repo)
    diff = read_diff(repo.path, good, bad)
    cause = next(c.id for c in diff.changes if c.path == "app/core.py")
    helper = next(c.id for c in diff.changes if c.path == "app/helpers.py")
    everything = frozenset(c.id for c in diff.changes)
    assert len(everything) == SPARE + 2
    # Each change its own unit, and no derived dependency: removed one at a time,
    # every module of the ring would break the import (twelve UNRESOLVED runs).
    units = {c.id: c.id for c in diff.changes}
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        labelled = label(tester, everything, lambda: False, Dependencies(),
                         frozenset({cause}), units, resolver_of(diff))
    assert labelled.chosen == {cause, helper}
    assert labelled.roles == {cause: CAUSE, helper: CONTEXT}
    runs = [r for r in records if r.ran]
    # The cause alone: "cannot import name 'scale' from 'app.helpers'"; the
    # change that defines scale in app/helpers.py repairs it and the two FAIL.
    assert [r.ids for r in runs[:2]] == [frozenset({cause}), frozenset({cause, helper})]
    assert "cannot import name 'scale' from 'app.helpers'" in runs[0].output_text()
    # Then one removal each: helpers (the first run again, from the memo) and the cause.
    assert len(runs) == 3


def test_an_answer_that_needs_context_grows_it_from_the_failing_configuration(
        make_repo, tmp_path: Path) -> None:
    """dd+'s answer is the cause alone, which does not import; BAD is the smallest
    failing configuration around it. The context comes from the repair of the
    error it reports (one more run), not from dd+ over the thirteen others."""
    repo, good, bad = release_repo(make_repo)
    diff = read_diff(repo.path, good, bad)
    cause = next(c.id for c in diff.changes if c.path == "app/core.py")
    helper = next(c.id for c in diff.changes if c.path == "app/helpers.py")
    everything = frozenset(c.id for c in diff.changes)
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    plan = make_plan(diff, ("none",), symbols, Dependencies())
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        assert tester.run(everything, "premise").outcome is Outcome.FAIL
        oracle = SearchOracle(tester, Dependencies(), lambda: Resolver(symbols, diff=diff))
        found = standalone(tester, plan, oracle, frozenset({cause}), lambda: False, False)
    assert found == {cause, helper}
    assert [r.ids for r in records if r.ran] == [everything, frozenset({cause}),
                                                frozenset({cause, helper})]


def test_without_a_precise_repair_nothing_grows(make_repo, tmp_path: Path) -> None:
    """A repair must come from the answer: with the defining change outside it, the
    attempt ends after one run and the configuration stays as it was."""
    repo, good, bad = release_repo(make_repo)
    diff = read_diff(repo.path, good, bad)
    cause = next(c.id for c in diff.changes if c.path == "app/core.py")
    helper = next(c.id for c in diff.changes if c.path == "app/helpers.py")
    within = frozenset(c.id for c in diff.changes) - {helper}
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        grown = grow(tester, resolver_of(diff), frozenset({cause}), within, lambda: False)
    assert grown is None
    assert [r.ids for r in records if r.ran] == [frozenset({cause})]


def test_the_rounds_grow_with_the_logarithm_of_the_answer() -> None:
    assert round_limit(frozenset({1})) == 4
    assert round_limit(frozenset(range(300))) == 20


def test_a_batch_that_breaks_an_import_drops_all_but_what_its_error_names(
        make_repo, tmp_path: Path) -> None:
    """The cause imports ``scale`` from app/zhelp.py, new in BAD; sixteen modules
    change that nothing needs, each its own unit. After four drops the sweep
    removes units in batches; the batch that holds zhelp breaks the import, and
    one more run with zhelp put back drops the rest of that batch."""
    repo = make_repo("batchrepair")
    spare = {f"app/x{i:02}.py": b"X = %d\n" for i in range(16)}
    filler = b"".join(b"# line %d\n" % i for i in range(8))
    good = repo.commit({"run_test.py": CHECK, "app/__init__.py": b"",
                        "app/core.py": b"import os\n" + filler + b"LIMIT = 5\n",
                        "app/zhelp.py": b"def double(x):\n    return 2 * x\n" + filler,
                        **{p: t % 1 for p, t in spare.items()}})
    bad = repo.commit({"run_test.py": CHECK, "app/__init__.py": b"",
                       "app/core.py": b"import os\n" + filler
                       + b"from app.zhelp import scale\nLIMIT = scale(5)\n",
                       "app/zhelp.py": b"def double(x):\n    return 2 * x\n" + filler
                       + b"def scale(x):\n    return 2 * x\n",
                       **{p: t % 2 for p, t in spare.items()}})
    diff = read_diff(repo.path, good, bad)
    cause = next(c.id for c in diff.changes if c.path == "app/core.py")
    helper = next(c.id for c in diff.changes if c.path == "app/zhelp.py")
    everything = frozenset(c.id for c in diff.changes)
    units = {c.id: c.id for c in diff.changes}
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        labelled = label(tester, everything, lambda: False, Dependencies(), everything,
                         units, resolver_of(diff))
    assert labelled.chosen == {cause, helper}
    assert labelled.roles == {cause: CAUSE, helper: CONTEXT}
    runs = [r for r in records if r.ran]
    # 4 single drops, batches of 2 and 4 (FAIL), a batch of 8 with zhelp in it:
    # only the cause is left, which does not import; zhelp put back, it FAILS.
    broken = next(i for i, r in enumerate(runs) if r.ids == {cause})
    assert "cannot import name 'scale' from 'app.zhelp'" in runs[broken].output_text()
    assert runs[broken + 1].ids == {cause, helper}
    assert runs[broken + 1].outcome is Outcome.FAIL
    with run_tester(repo, good, diff, tmp_path / "plain") as (tester, plain):
        label(tester, everything, lambda: False, Dependencies(), everything, units)
    assert len(runs) < len([r for r in plain if r.ran])  # halving the batch instead


def helped_repo(make_repo, then: bytes = b"from app import settings\n"
                b"assert settings.WIDE, 'the mode is narrow'\n"
                ) -> tuple[GitRepo, str, Diff, dict[str, int]]:
    """core.py (the cause) imports ``scale`` from helpers.py's change, then runs
    ``then`` (by default: asserts a setting that settings.py's change turns on);
    twelve modules change besides."""
    repo = make_repo("helped")
    filler = b"".join(b"# line %d\n" % i for i in range(8))
    spare = {f"app/x{i:02}.py": b"V = %d\n" for i in range(SPARE)}
    base = {"run_test.py": CHECK, "app/__init__.py": b""}
    good = repo.commit({**base, **{p: v % 1 for p, v in spare.items()},
                        "app/helpers.py": b"def double(x):\n    return 2 * x\n" + filler,
                        "app/settings.py": b"WIDE = False\n",
                        "app/core.py": b"import os\n" + filler + b"LIMIT = 5\n"})
    bad = repo.commit({**base, **{p: v % 2 for p, v in spare.items()},
                       "app/helpers.py": b"def double(x):\n    return 2 * x\n" + filler
                       + b"def scale(x):\n    return 2 * x\n",
                       "app/settings.py": b"WIDE = True\n",
                       "app/core.py": b"import os\n" + filler
                       + b"from app.helpers import scale\n" + then + b"LIMIT = scale(5)\n"})
    diff = read_diff(repo.path, good, bad)
    return repo, good, diff, {c.path: c.id for c in diff.changes}


@pytest.mark.parametrize(("then", "shown", "taught"), [
    (None, "AssertionError", True),
    (b"from app.settings import MODE\n", "MODE", False),
], ids=["names-nothing", "names-MODE"])
def test_grow_teaches_its_repairs_once_the_errors_name_nothing(
        make_repo, tmp_path: Path, then: bytes | None, shown: str, taught: bool) -> None:
    """Grown alone, core.py's ImportError is repaired by helpers.py. When the next
    run fails on an assertion, which names nothing to repair, growing ends
    without an answer, and the import's repair helped all the same: ``learn``
    is told core.py needs helpers.py, for the search's later questions. When
    it fails on a name that no change defines (MODE), the repairs so far may
    be a detour: nothing is taught."""
    repo, good, diff, ids = helped_repo(make_repo) if then is None else helped_repo(
        make_repo, then)
    cause, helper = ids["app/core.py"], ids["app/helpers.py"]
    learned: list[tuple[int, int]] = []
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        grown = grow(tester, resolver_of(diff), frozenset({cause}),
                     frozenset(ids.values()), lambda: False, "search",
                     lambda pairs, added: learned.extend(pairs))
    assert grown is None
    assert [r.ids for r in records if r.ran] == [{cause}, {cause, helper}]
    assert shown in records[-1].output_text()
    assert learned == ([(cause, helper)] if taught else [])


def test_the_oracle_gives_a_learned_repair_at_once(make_repo, tmp_path: Path) -> None:
    """What grow teaches the oracle: a later question with core.py gets helpers.py
    at once, one run (not a loop of two); a repair of more than a few changes
    is not learned."""
    repo, good, diff, ids = helped_repo(
        make_repo, b"raise ImportError('the build is incomplete')\n")
    cause, helper, spare = ids["app/core.py"], ids["app/helpers.py"], ids["app/x00.py"]
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), Resolver(symbols, diff=diff))
        oracle.helped_by([(spare, helper)], MAX_KNOWN_REPAIR + 1)
        assert not oracle.deps.needs
        oracle.helped_by([(cause, helper)], 1)
        assert oracle(frozenset({cause, spare})) is Outcome.UNRESOLVED
    assert [r.ids for r in records if r.ran] == [{cause, helper, spare}]
    assert "the build is incomplete" in records[-1].output_text()
