"""The search's oracle: a configuration that the learned dependencies say cannot
build is repaired by them (a bounded repair, really run), not written off; one
that only derived dependencies rule out is predicted."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from tester_helpers import import_check, run_tester

from wynot.analysis.declarations import hunk_declarations
from wynot.analysis.depends import Dependencies
from wynot.analysis.resolve import Resolver
from wynot.analysis.symbols import change_symbols
from wynot.changes import Diff
from wynot.dd import split_evenly
from wynot.diffread import read_diff
from wynot.oracle import (
    MAX_KNOWN_REPAIR,
    MAX_REPAIR_GROWTH,
    MAX_RESOLUTION_ROUNDS,
    MAX_VAIN_COMPLETIONS,
    MAX_VAIN_SHRINKS,
    Repaired,
    SearchOracle,
)
from wynot.outcome import Outcome
from wynot.result import PREDICTED, RAN
from wynot.search import search_dd_plus

PAD = b"".join(b"# filler %d\n" % i for i in range(8))
RUNNER = import_check("from app.a import VALUE", "VALUE == 6")


def runtime_name_repo(make_repo, name: str, good_extra: dict[str, bytes],
                      bad_extra: dict[str, bytes], b_bad: bytes) -> tuple:
    """a.py starts reading a name from b.py at run time (no analysis sees it); b.py
    becomes ``b_bad``; the other files go from ``good_extra`` to ``bad_extra``.
    Returns (repo, GOOD, diff, a.py's change)."""
    repo = make_repo(name)
    base = {"run_test.py": RUNNER, "app/__init__.py": b""}
    good = repo.commit({**base, **good_extra,
                        "app/a.py": b"import importlib\n" + PAD + b"VALUE = 2\n",
                        "app/b.py": b"OLD = 2\n" + PAD})
    bad = repo.commit({**base, **bad_extra, "app/a.py": b"import importlib\n" + PAD
                       + b"VALUE = getattr(importlib.import_module('app.b'), 'NEW') * 2\n",
                       "app/b.py": b_bad})
    diff = read_diff(repo.path, good, bad)
    return repo, good, diff, next(c.id for c in diff.changes if c.path == "app/a.py")


def oracle_run(make_repo, tmp_path: Path, extra: int,
               learned: bool = True) -> tuple[Outcome, list, int, int]:
    """a.py starts reading a name from b.py at run time (no analysis sees it); b.py
    gains it. ``extra`` more files change too, each needed by b.py's change. The
    dependencies are learned (as from repairs that built), or derived guesses."""
    others = {f"app/o{i}.py": b"X = 1\n" for i in range(extra)}
    repo, good, diff, user = runtime_name_repo(
        make_repo, "known", others, dict.fromkeys(others, b"X = 2\n"), b"OLD = 2\n" + PAD
        + b"NEW = 3\n")
    definer = next(c.id for c in diff.changes if c.path == "app/b.py")
    pairs = [(user, definer)] + [(definer, c.id) for c in diff.changes
                                 if c.path.startswith("app/o")]
    deps = Dependencies()
    taught = Dependencies()
    for a, b in pairs:
        deps.add(a, b)
        if learned:
            taught.add(a, b)
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, deps, Resolver(symbols, diff=diff), taught=taught)
        outcome = oracle(frozenset({user}))
    return outcome, records, user, definer


def test_a_configuration_missing_a_learned_need_is_tested_with_it(make_repo, tmp_path) -> None:
    outcome, records, user, definer = oracle_run(make_repo, tmp_path, 0)
    assert outcome is Outcome.FAIL
    assert [(r.source, r.ids) for r in records] == [(RAN, frozenset({user, definer}))]


def test_a_repair_past_the_bound_is_still_predicted(make_repo, tmp_path) -> None:
    outcome, records, _, _ = oracle_run(make_repo, tmp_path, MAX_KNOWN_REPAIR)
    assert outcome is Outcome.UNRESOLVED
    assert [r.source for r in records] == [PREDICTED]


def test_a_derived_need_is_no_repair(make_repo, tmp_path) -> None:
    outcome, records, _, _ = oracle_run(make_repo, tmp_path, 0, learned=False)
    assert outcome is Outcome.UNRESOLVED
    assert [r.source for r in records] == [PREDICTED]


def test_a_learned_repair_that_does_not_build_ends_there(make_repo, tmp_path) -> None:
    """b.py's new name now needs a name that o.py gains, which nothing learned:
    the repair by the learned dependency runs once, does not build, and is not
    grown further; having failed more often than built, it is not made again."""
    repo, good, diff, user = runtime_name_repo(
        make_repo, "unbuilt", {"app/o.py": b"X = 1\n" + PAD},
        {"app/o.py": b"X = 1\n" + PAD + b"NEWX = 3\n"},
        b"from app.o import NEWX\nOLD = 2\n" + PAD + b"NEW = NEWX\n")
    definers = frozenset(c.id for c in diff.changes if c.path == "app/b.py")
    deps, taught = Dependencies(), Dependencies()
    for definer in definers:
        deps.add(user, definer)
        taught.add(user, definer)
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, deps, Resolver(symbols, diff=diff), taught=taught)
        assert oracle(frozenset({user})) is Outcome.UNRESOLVED
        assert oracle(frozenset({user})) is Outcome.UNRESOLVED
    assert [(r.source, r.ids) for r in records] == [(RAN, definers | {user}),
                                                    (PREDICTED, frozenset())]


C_RUNNER = b"""import subprocess, sys
proc = subprocess.run(["gcc", "-fsyntax-only", "ini.c", "main.c"], capture_output=True,
                      text=True, env={"LANG": "C", "PATH": "/usr/bin:/bin"})
sys.stderr.write(proc.stderr)
sys.exit(125 if proc.returncode else 1)
"""


CPAD = b"".join(b"/* filler %d */\n" % i for i in range(8))


def limit_repo(make_repo, count: int = 5) -> tuple:
    """lib.h drops a parameter of parse(); ini.c's definition and main.c's call
    follow, and the new definition reads LIMIT, which ``count`` headers define
    (cfg0.h included, the others included by nothing): no repair target.
    notes.txt changes too. Returns (repo, GOOD, diff, the prototype's change,
    the call's, notes.txt's)."""
    headers = {f"cfg{i}.h": b"/* config */\n" + CPAD for i in range(count)}
    good = {"run_test.py": C_RUNNER, **headers, "notes.txt": b"one\n",
            "lib.h": b"int parse(const char *s, int n);\n" + CPAD,
            "ini.c": b"#include \"lib.h\"\n#include \"cfg0.h\"\n" + CPAD
            + b"int parse(const char *s, int n) {\n    return s[0] + n;\n}\n",
            "main.c": b"#include \"lib.h\"\n" + CPAD
            + b"int main(void) { return parse(\"a\", 1); }\n"}
    limit = b"/* config */\n#ifndef LIMIT\n#define LIMIT 3\n#endif\n" + CPAD
    bad = {**good, **dict.fromkeys(headers, limit), "notes.txt": b"two\n",
           "lib.h": b"int parse(const char *s);\n" + CPAD,
           "ini.c": b"#include \"lib.h\"\n#include \"cfg0.h\"\n" + CPAD
           + b"int parse(const char *s) {\n    return s[0] + LIMIT;\n}\n",
           "main.c": b"#include \"lib.h\"\n" + CPAD + b"int main(void) { return parse(\"a\"); }\n"}
    repo = make_repo("limit")
    good_sha = repo.commit(good)
    diff = read_diff(repo.path, good_sha, repo.commit(bad), context=0)
    prototype = next(c.id for c in diff.changes if c.path == "lib.h")
    call = next(c.id for c in diff.changes if c.path == "main.c")
    notes = next(c.id for c in diff.changes if c.path == "notes.txt")
    return repo, good_sha, diff, prototype, call, notes


def c_resolver(diff: Diff) -> Resolver:
    """A resolver that reads C declarations, as the pipeline builds it."""
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    declared = {c.id: hunk_declarations(c, diff.files[c.file]) for c in diff.changes}
    return Resolver(symbols, diff=diff, declared=declared)


def test_pairs_the_compiler_shows_are_kept_for_labelling_even_unbuilt(
        make_repo, tmp_path) -> None:
    """The repository of :func:`limit_repo`. With only the prototype applied, gcc
    shows the prototype disagreeing with the old call; the repair adds the call
    and the definition, then stops at LIMIT: UNRESOLVED. The pair stays known
    for labelling, but the search's dependencies learn nothing from a repair
    that did not build."""
    repo, good_sha, diff, prototype, call, _ = limit_repo(make_repo)
    with run_tester(repo, good_sha, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), c_resolver(diff))
        assert oracle(frozenset({prototype})) is Outcome.UNRESOLVED
    assert [r.source for r in records] == [RAN, RAN]  # the configuration, one repair
    assert "LIMIT" in records[-1].output_text()
    assert call in oracle.observed.needs[prototype]
    assert not oracle.deps.needs and oracle.learned == 0
    assert call in oracle.known().needs[prototype] and not oracle.deps.needs


def ten_needs_repo(make_repo) -> tuple:
    """a.py reads NEW from b.py at run time (no analysis sees it); ten other
    modules change too. Returns (repo, GOOD, diff, a.py's change, b.py's, the
    Dependencies in which b.py's change needs the ten others)."""
    others = {f"app/o{i}.py": b"X = 1\n" for i in range(10)}
    repo, good, diff, user = runtime_name_repo(
        make_repo, "doubling", others, dict.fromkeys(others, b"X = 2\n"),
        b"OLD = 2\n" + PAD + b"NEW = 3\n")
    definer = next(c.id for c in diff.changes if c.path == "app/b.py")
    deps = Dependencies()
    for change in diff.changes:
        if change.path.startswith("app/o"):
            deps.add(definer, change.id)
    return repo, good, diff, user, definer, deps


def test_a_repair_that_would_more_than_double_the_configuration_is_not_run(
        make_repo, tmp_path) -> None:
    """b.py's change needs ten others by dependencies learned from repairs: the
    run of a.py's change alone names NEW, whose repair with what it was seen to
    need would add eleven changes to one. It is not tried: UNRESOLVED after the
    one run."""
    repo, good, diff, user, _, needs = ten_needs_repo(make_repo)
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), Resolver(symbols, diff=diff), taught=needs)
        assert oracle(frozenset({user})) is Outcome.UNRESOLVED
    assert [(r.source, r.ids) for r in records] == [(RAN, frozenset({user}))]


def test_a_repair_adds_no_derived_dependency(make_repo, tmp_path) -> None:
    """The same, b.py's needs derived (guesses, not seen in a build): the repair
    adds what the error names, b.py's change, and not the ten changes it is
    guessed to need. The repaired configuration runs and fails."""
    repo, good, diff, user, definer, derived = ten_needs_repo(make_repo)
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, derived, Resolver(symbols, diff=diff))
        assert oracle(frozenset({user})) is Outcome.FAIL
    assert [(r.source, r.ids) for r in records] == [(RAN, frozenset({user})),
                                                    (RAN, frozenset({user, definer}))]


def test_a_repair_that_did_not_help_is_not_tried_again(make_repo, tmp_path) -> None:
    """The prototype alone: gcc shows it disagreeing with the old call; the repair
    adds the call and the definition, and stops at LIMIT (UNRESOLVED). The
    prototype with notes.txt's change breaks alike (a difference the errors do
    not involve): it is not run, the first run's errors are taken for its own,
    and the futile repair is not run again: UNRESOLVED with no run. The
    prototype with the change to the included header is broken alike too (its
    first errors do not name LIMIT), but that header defines LIMIT, which the
    repair's last errors named: the repair is tried, and it builds."""
    repo, good, diff, prototype, call, unused = limit_repo(make_repo)
    included = next(c.id for c in diff.changes if c.path == "cfg0.h")
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), c_resolver(diff))
        assert oracle(frozenset({prototype})) is Outcome.UNRESOLVED
        assert len(records) == 2  # the configuration, one repair
        assert oracle(frozenset({prototype, unused})) is Outcome.UNRESOLVED
        assert [(r.ids, r.source, r.output) for r in records[2:]] == [
            (frozenset({prototype, unused}), PREDICTED, records[0].output)]
        assert oracle(frozenset({prototype, included})) is Outcome.FAIL
    assert [r.source for r in records] == [RAN, RAN, PREDICTED, PREDICTED, RAN]
    assert call in records[-1].ids


def test_a_repair_futile_twice_and_never_helping_is_not_tried_anywhere(
        make_repo, tmp_path) -> None:
    """The prototype with the change to cfg1.h, then with the one to cfg2.h: each
    header defines LIMIT but nothing includes it, so each run reports the
    prototype's errors, and their repair stops at LIMIT both times (the headers
    are involved, so the first loop did not rule out the second). After two
    such loops, and none that the step helped, it is not taken again from any
    configuration: with cfg3.h, one run, UNRESOLVED. The price: the included
    header, whose change would let the repair build, is not tried either. (Seven
    headers: with one of them applied, six others still define LIMIT, too many
    to repair it.)"""
    repo, good, diff, prototype, _, _ = limit_repo(make_repo, count=7)
    header = {c.path: c.id for c in diff.changes if c.path.startswith("cfg")}
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), c_resolver(diff))
        for name in ("cfg1.h", "cfg2.h"):
            assert oracle(frozenset({prototype, header[name]})) is Outcome.UNRESOLVED
        assert len(records) == 4  # two configurations, a repair each
        for name in ("cfg3.h", "cfg0.h"):
            assert oracle(frozenset({prototype, header[name]})) is Outcome.UNRESOLVED
    assert [r.ids for r in records[4:]] == [{prototype, header["cfg3.h"]},
                                            {prototype, header["cfg0.h"]}]


def spread_repo(make_repo, mention: bool = False) -> tuple:
    """u.py starts importing a helper from a chain of six new ones (app/f1.py ...
    app/f6.py), each importing the next, so that each run names only the next
    missing one; calc.py's change (the cause) fails alone. With ``mention``,
    notes.py's change mentions h5 as well. Returns (repo, GOOD, diff, change id
    by path)."""
    repo = make_repo("spread")
    chain = {f"app/f{i}.py": b"pass\n" for i in range(1, 7)}
    base = {"app/__init__.py": b"", "run_test.py": import_check(
        "from app import u, calc", "calc.VALUE != 2")}
    notes = {"app/notes.py": b"SEE = None\n"} if mention else {}
    good = repo.commit({**base, **chain, **notes, "app/u.py": b"X = 1\n",
                        "app/calc.py": b"VALUE = 2\n"})
    helpers = {f"app/f{i}.py": b"from app.f%d import h%d\nh%d = h%d\n" % (i + 1, i + 1, i, i + 1)
               for i in range(1, 6)}
    notes = {"app/notes.py": b"SEE = 'h5'\n"} if mention else {}
    bad = repo.commit({**base, **helpers, **notes, "app/f6.py": b"h6 = 1\n",
                       "app/u.py": b"from app.f1 import h1\nX = h1\n",
                       "app/calc.py": b"VALUE = 3\n"})
    diff = read_diff(repo.path, good, bad)
    return repo, good, diff, {c.path: c.id for c in diff.changes}


def test_errors_that_spread_past_the_repairs_are_answered_without_their_changes(
        make_repo, tmp_path) -> None:
    """u.py starts importing a helper from a chain of six new ones, each importing
    the next: each run names only the next missing one, so four repair rounds do
    not build it. calc.py's change fails alone. The configuration {u.py, calc.py}
    FAILS through its part without what its errors involve (u.py): calc.py alone.
    A search whose loops spread more often than they built answers the next
    configuration that does not build from inside first, with no repair round."""
    repo, good, diff, ids = spread_repo(make_repo)
    user, cause = ids["app/u.py"], ids["app/calc.py"]
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    last_helper = ids["app/f6.py"]
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), Resolver(symbols, diff=diff))
        outcome = oracle(frozenset({user, cause}))
        asked = len(records)
        inside_first = SearchOracle(tester, Dependencies(), Resolver(symbols, diff=diff),
                                    loops_spread=1)
        again = inside_first(frozenset({user, last_helper, cause}))
        later = [r for r in records[asked:] if r.ran]
    assert outcome is Outcome.FAIL
    assert asked == 1 + MAX_RESOLUTION_ROUNDS + 1  # the question, its repairs, its part
    assert records[asked - 1].ids == {cause} and records[asked - 1].outcome is Outcome.FAIL
    assert all(r.outcome is Outcome.UNRESOLVED for r in records[:asked - 1])
    assert again is Outcome.FAIL
    # the question and its part without the user: no repair round
    assert [r.ids for r in later] == [{user, last_helper, cause}, {last_helper, cause}]


def test_a_part_that_lacks_one_change_is_run_with_it(make_repo, tmp_path) -> None:
    """As above, but calc.py's change (the cause) reads K from a new module k.py
    that the question does not hold. The part without u.py (calc.py alone) does
    not build, and its error names its one repair: the part with k.py FAILS and
    answers for the question, and the oracle says where the failure lies."""
    repo = make_repo("spread")
    chain = {f"app/f{i}.py": b"pass\n" for i in range(1, 7)}
    base = {"app/__init__.py": b"", "run_test.py": import_check(
        "from app import u, calc", "calc.VALUE != 2")}
    good = repo.commit({**base, **chain, "app/u.py": b"X = 1\n", "app/calc.py": b"VALUE = 2\n"})
    helpers = {f"app/f{i}.py": b"from app.f%d import h%d\nh%d = h%d\n" % (i + 1, i + 1, i, i + 1)
               for i in range(1, 6)}
    bad = repo.commit({**base, **helpers, "app/f6.py": b"h6 = 1\n", "app/k.py": b"K = 3\n",
                       "app/u.py": b"from app.f1 import h1\nX = h1\n",
                       "app/calc.py": b"from app.k import K\nVALUE = K\n"})
    diff = read_diff(repo.path, good, bad)
    ids = {c.path: c.id for c in diff.changes}
    user, cause, new = ids["app/u.py"], ids["app/calc.py"], ids["app/k.py"]
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), Resolver(symbols, diff=diff),
                              loops_spread=1)
        outcome = oracle(frozenset({user, cause}))
    assert outcome is Outcome.FAIL
    assert [(r.ids, r.outcome) for r in records if r.ran] == [
        ({user, cause}, Outcome.UNRESOLVED), ({cause}, Outcome.UNRESOLVED),
        ({cause, new}, Outcome.FAIL)]
    assert oracle.failed_for(frozenset({user, cause})) == {cause, new}


def test_a_question_that_holds_a_failing_part_is_answered_by_its_run(make_repo,
                                                                      tmp_path) -> None:
    """Once {u.py, calc.py} FAILED through its part (calc.py alone), a question that
    holds calc.py is answered by that run, whatever else it holds: FAIL, with no
    run of its own. One that does not hold it runs."""
    repo, good, diff, ids = spread_repo(make_repo)
    user, cause, last_helper = ids["app/u.py"], ids["app/calc.py"], ids["app/f6.py"]
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), Resolver(symbols, diff=diff))
        assert oracle(frozenset({user, cause})) is Outcome.FAIL
        asked = len(records)
        assert oracle.failed_inside(frozenset({user, last_helper, cause})) == {cause}
        assert oracle(frozenset({user, last_helper, cause})) is Outcome.FAIL
        replayed = records[asked:]
        assert oracle(frozenset({last_helper})) is Outcome.PASS
    assert [(r.ids, r.ran, r.resolving) for r in replayed] == [
        ({cause}, False, None)]  # the part's record again, not a run
    assert records[-1].ids == {last_helper} and records[-1].ran


def test_a_loop_that_leads_into_a_chain_that_spread_stops_there(make_repo,
                                                                   tmp_path) -> None:
    """{u.py, calc.py}'s repairs go down the chain f1, f2, ... and spread, their last
    errors naming h5, which notes.py's change mentions too. {u.py, f1.py,
    notes.py} reports h2 missing from f2, a diagnostic that loop repaired in its
    second round (notes.py makes it no repeat of that loop's step, as far as
    the last errors tell): the loop stops there, UNRESOLVED, rather than going
    down the same chain for four rounds. With f5.py's change instead of
    notes.py's, the configuration holds what the chain needed after those
    rounds, and the repairs go on until it builds; the rounds broken alike one
    of the first loop's (h1 missing, h2 missing from f1, h3 from f2) take its errors
    without a run of their own."""
    repo, good, diff, ids = spread_repo(make_repo, mention=True)
    user, cause, notes = ids["app/u.py"], ids["app/calc.py"], ids["app/notes.py"]
    chain = [ids[f"app/f{i}.py"] for i in range(1, 7)]
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), Resolver(symbols, diff=diff))
        assert oracle(frozenset({user, cause})) is Outcome.FAIL
        asked = len(records)
        assert oracle(frozenset({user, chain[0], notes})) is Outcome.UNRESOLVED
        stopped = [r.ids for r in records[asked:] if r.ran and r.resolving is None
                   or r.ids >= {user, chain[0], notes}]
        asked = len(records)
        assert oracle(frozenset({user, chain[0], chain[4]})) is Outcome.PASS
        grown = [r for r in records[asked:] if r.ids >= {user, chain[0]}]
    assert stopped == [{user, chain[0], notes}]
    assert grown[-1].ids == {user, *chain} and len(grown) == MAX_RESOLUTION_ROUNDS + 1
    # the rounds broken alike a round of the first loop take its errors, not a run
    assert [r.ran for r in grown] == [False, False, False, True, True]


def test_the_other_direction_is_dropped_after_parts_that_said_nothing(make_repo,
                                                                     tmp_path) -> None:
    """Without the cause, the parts run from inside pass: after MAX_VAIN_SHRINKS of
    them and none FAILED, a configuration whose errors spread is left UNRESOLVED
    with no part run, even one whose part would fail."""
    repo, good, diff, ids = spread_repo(make_repo)
    user, cause = ids["app/u.py"], ids["app/calc.py"]
    helpers = [ids[f"app/f{i}.py"] for i in range(2, 7)]
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), Resolver(symbols, diff=diff))
        for helper in helpers[:MAX_VAIN_SHRINKS]:  # each part passes: no cause in it
            assert oracle(frozenset({user, helper})) is Outcome.UNRESOLVED
        asked = len(records)
        outcome = oracle(frozenset({user, cause}))
        later = [r.ids for r in records[asked:] if r.ran]
    assert oracle.shrinks_vain == MAX_VAIN_SHRINKS and not oracle.shrinks_failed
    assert outcome is Outcome.UNRESOLVED
    assert frozenset({cause}) not in later and all(user in ids for ids in later)


def test_the_search_goes_on_inside_a_part_that_failed(make_repo, tmp_path,
                                                       monkeypatch) -> None:
    """{u.py, calc.py, f6.py, f5.py} does not build (u.py's chain of helpers), and
    its part without u.py FAILS: dd+ goes on inside that part (the oracle's
    ``failing_part``), and finds calc.py with fewer runs than by cutting into
    the whole configuration's halves again."""
    repo, good, diff, ids = spread_repo(make_repo)
    order = [ids[p] for p in ("app/u.py", "app/calc.py", "app/f6.py", "app/f5.py",
                              "app/f4.py", "app/f3.py", "app/f2.py", "app/f1.py")]
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}

    def search() -> tuple[frozenset[int], list]:
        with run_tester(repo, good, diff, tmp_path / str(len(runs))) as (tester, records):
            oracle = SearchOracle(tester, Dependencies(), Resolver(symbols, diff=diff),
                                  loops_spread=1)
            found = search_dd_plus(tester, oracle, order, frozenset(), split_evenly, None,
                                   keep_passing=False)
        return found, [r.ids for r in records if r.ran]

    runs: list[list] = []
    found, inside = search()
    runs.append(inside)
    monkeypatch.setattr(SearchOracle, "failing_part", lambda self, config: config)
    found_around, around = search()
    assert found == found_around == {ids["app/calc.py"]}
    part = frozenset(ids[p] for p in ("app/calc.py", "app/f6.py", "app/f5.py"))
    assert part in inside  # the first question's part, which FAILED
    assert not any(ids["app/u.py"] in r for r in inside[inside.index(part) + 1:])
    assert len(inside) < len(around)


@pytest.mark.parametrize("workers", [1, 2])
def test_repairs_that_built_are_made_whether_or_not_a_guess_ran(
        make_repo, tmp_path: Path, workers: int) -> None:
    """A configuration broken as one whose repairs built is run with those repairs
    at once, also when a speculative run of it (a guess of -j N) has finished
    meanwhile: whether the repairs are made must not depend on the workers."""
    repo = make_repo("guessed")
    check = import_check("from app import a, b", "a.V == b.V == 2")
    files = {"run_test.py": check, "app/__init__.py": b""}
    good = repo.commit({**files, "app/a.py": b"V = 1\n", "app/b.py": b"V = 1\n",
                        "app/c.py": b"W = 1\n"})
    bad = repo.commit({**files, "app/a.py": b"from app.c import NEW\nV = 2\n",
                       "app/b.py": b"V = 2\n", "app/c.py": b"W = 1\nNEW = 1\n"})
    diff = read_diff(repo.path, good, bad)
    ids = {c.path: c.id for c in diff.changes}
    a, b, c = ids["app/a.py"], ids["app/b.py"], ids["app/c.py"]
    with run_tester(repo, good, diff, tmp_path, workers) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), None)
        # a loop from {a} built once c was added; {a, b} lacks c alike
        oracle.repaired.append(Repaired(frozenset({a}), frozenset({a, c}), frozenset({c})))
        asked = frozenset({a, b})
        if workers > 1:
            tester.speculate([asked])
            deadline = time.monotonic() + 60
            while tester.peek(asked) is None and time.monotonic() < deadline:
                time.sleep(0.05)
            assert tester.peek(asked) is Outcome.UNRESOLVED  # the guess has finished
        assert oracle(asked) is Outcome.FAIL  # run with c, as the repairs that built say
        assert [r.ids for r in records] == [{a, b, c}]
        tester.finish()


CRASH_RUNNER = b"""import subprocess, sys
env = {"LANG": "C", "PATH": "/usr/bin:/bin"}
built = subprocess.run(["gcc", "-o", "prog", "lib.c", "main.c"], capture_output=True,
                       text=True, env=env)
if built.returncode:
    sys.stderr.write(built.stderr)
    sys.exit(125)
ran = subprocess.run(["./prog"], capture_output=True, text=True, env=env)
if ran.returncode < 0:
    print("the program died of signal %d" % -ran.returncode)
    sys.exit(125)
sys.exit(1 if ran.stdout.strip() == "deep" else 0)
"""


def member_repo(make_repo, users: int = 1) -> tuple:
    """lib.h's reader gains a member, ``tasks``; the reader's constructor in lib.c
    allocates it (a hunk of its own), and a later hunk of lib.c (the cause) writes
    through it. Without the allocation the program builds and dies of a
    segmentation fault, which names nothing. With ``users`` > 1, as many more
    hunks of notes.c read the member as well. Returns (repo, GOOD, diff, change
    id of the member, of the allocation, of the cause)."""
    header = (b"struct reader { int depth; };\n" + CPAD
              + b"struct reader *reader_new(void);\nint reader_deep(struct reader *r);\n")
    lib = (b"#include <stdlib.h>\n#include \"lib.h\"\n"
           b"struct reader *reader_new(void) {\n"
           b"    struct reader *r = calloc(1, sizeof *r);\n    return r;\n}\n" + CPAD
           + b"int reader_deep(struct reader *r) {\n    return r->depth > 7;\n}\n")
    main = (b"#include <stdio.h>\n#include \"lib.h\"\n"
            b"int main(void) {\n    struct reader *r = reader_new();\n"
            b"    puts(reader_deep(r) ? \"deep\" : \"flat\");\n    return 0;\n}\n")
    notes = b"".join(b"/* note %d */\n" % i + CPAD for i in range(users - 1))
    good = {"run_test.py": CRASH_RUNNER, "lib.h": header, "lib.c": lib, "main.c": main,
            "notes.c": b"#include \"lib.h\"\n" + notes}
    bad_notes = b"".join(b"int note%d(struct reader *r) { return r->tasks != 0; }\n" % i
                         + CPAD for i in range(users - 1))
    bad = {**good,
           "lib.h": header.replace(b"int depth; };", b"int depth; int *tasks; };"),
           "lib.c": lib.replace(b"    return r;\n",
                                b"    r->tasks = calloc(16, sizeof *r->tasks);\n    return r;\n")
           .replace(b"return r->depth > 7;", b"r->tasks[9] = 1;\n    return r->tasks[9];"),
           "notes.c": b"#include \"lib.h\"\n" + bad_notes}
    repo = make_repo("member")
    good_sha = repo.commit(good)
    diff = read_diff(repo.path, good_sha, repo.commit(bad), context=0)
    member = next(c.id for c in diff.changes if c.path == "lib.h")
    allocation, cause = sorted(c.id for c in diff.changes if c.path == "lib.c")
    return repo, good_sha, diff, member, allocation, cause


def test_a_configuration_that_crashes_is_run_with_the_one_user_of_its_new_member(
        make_repo, tmp_path) -> None:
    """The member and the cause build together and crash: nothing in the output
    names what is missing. The allocation is the only change outside that uses
    the new member: the configuration is run again with it, and that FAILS."""
    repo, good, diff, member, allocation, cause = member_repo(make_repo)
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), c_resolver(diff))
        assert oracle(frozenset({member, cause})) is Outcome.FAIL
    assert [(r.ids, r.outcome) for r in records] == [
        ({member, cause}, Outcome.UNRESOLVED), ({member, allocation, cause}, Outcome.FAIL)]
    assert "signal 11" in records[0].output_text()
    assert oracle.failed_for(frozenset({member, cause})) == {member, allocation, cause}


def test_a_new_member_that_several_changes_use_points_at_none(make_repo, tmp_path) -> None:
    """The same with two more hunks (in notes.c) reading the new member: the
    allocation is not its only user outside the configuration, so nothing is
    added, and the crash leaves the configuration UNRESOLVED after its one run."""
    repo, good, diff, member, _, cause = member_repo(make_repo, users=3)
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), c_resolver(diff))
        assert oracle(frozenset({member, cause})) is Outcome.UNRESOLVED
    assert [r.ids for r in records] == [{member, cause}]


def test_no_completion_once_one_said_nothing(make_repo, tmp_path) -> None:
    """A search in which a completion already said nothing, and none FAILED, makes
    no more: the crash leaves the configuration UNRESOLVED after its one run."""
    repo, good, diff, member, _, cause = member_repo(make_repo)
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), c_resolver(diff),
                              completions_vain=MAX_VAIN_COMPLETIONS)
        assert oracle(frozenset({member, cause})) is Outcome.UNRESOLVED
    assert [r.ids for r in records] == [{member, cause}]


def mode_repo(make_repo) -> tuple:
    """gcc builds main.c with MODE from mode.txt; in mode 2 main.c reads a name no
    file declares, an error that names main.c and nothing the diff defines.
    main.c changes in two places, and mode.txt and notes.txt change. Returns
    (repo, GOOD, diff, change id by path: main.c's first hunk under "main.c")."""
    runner = b"""import subprocess, sys
mode = open("mode.txt").read().strip()
proc = subprocess.run(["gcc", "-fsyntax-only", "-DMODE=" + mode, "main.c"],
                      capture_output=True, text=True, env={"LANG": "C", "PATH": "/usr/bin:/bin"})
sys.stderr.write(proc.stderr)
sys.exit(125 if proc.returncode else 0)
"""
    body = (b"int first = %d;\n" + CPAD + b"int main(void) {\n#if MODE == 2\n"
            b"    return missing_value;\n#endif\n    return first;\n}\n" + CPAD
            + b"int last = %d;\n")
    repo = make_repo("mode")
    good = repo.commit({"run_test.py": runner, "mode.txt": b"1\n", "notes.txt": b"one\n",
                        "main.c": body % (1, 1)})
    diff = read_diff(repo.path, good, repo.commit(
        {"run_test.py": runner, "mode.txt": b"2\n", "notes.txt": b"two\n",
         "main.c": body % (2, 2)}), context=0)
    return repo, good, diff, {c.path: c.id for c in reversed(diff.changes)}


def test_a_configuration_broken_alike_a_run_takes_its_errors_unless_one_that_built_agrees(
        make_repo, tmp_path) -> None:
    """main.c's first change with mode.txt's does not build, and its error involves
    main.c's changes only: with notes.txt's change too, the configuration agrees
    with it on all of them, and is answered UNRESOLVED with that run's errors,
    not run. Where main.c's first change alone built before, it agrees with that
    run as well: the errors did not tell everything (mode.txt is no source), and
    the configuration with notes.txt's change runs."""
    repo, good, diff, ids = mode_repo(make_repo)
    first, mode, notes = ids["main.c"], ids["mode.txt"], ids["notes.txt"]
    with run_tester(repo, good, diff, tmp_path / "alike") as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), c_resolver(diff))
        assert oracle(frozenset({first, mode})) is Outcome.UNRESOLVED
        assert oracle(frozenset({first, mode, notes})) is Outcome.UNRESOLVED
    assert [(r.source, r.output) for r in records] == [(RAN, records[0].output),
                                                       (PREDICTED, records[0].output)]
    with run_tester(repo, good, diff, tmp_path / "built") as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), c_resolver(diff))
        assert oracle(frozenset({first})) is Outcome.PASS
        assert oracle(frozenset({first, mode})) is Outcome.UNRESOLVED
        assert oracle(frozenset({first, mode, notes})) is Outcome.UNRESOLVED
    assert [r.source for r in records] == [RAN, RAN, RAN]
    assert "missing_value" in records[-1].output_text()


def member_removed_repo(make_repo, users: int = 1) -> tuple:
    """node.h's struct loses its member ``content`` (for ``data``); a.c's f and each
    of b.c's ``users`` functions stop using it, each in a hunk of its own, and
    a.c's f2 changes too. gcc checks both files, b.c only where mode.txt says 1,
    which a change makes 0. Returns (repo, GOOD, diff, change id by name:
    struct, a, b (b.c's first), f2, mode)."""
    runner = b"""import subprocess, sys
mode = open("mode.txt").read().strip()
proc = subprocess.run(["gcc", "-fsyntax-only", "-DMODE=" + mode, "a.c", "b.c"],
                      capture_output=True, text=True, env={"LANG": "C", "PATH": "/usr/bin:/bin"})
sys.stderr.write(proc.stderr)
sys.exit(125 if proc.returncode else 0)
"""
    def files(member: bytes, mode: bytes, two: bytes) -> dict[str, bytes]:
        uses = b"".join(b"int g%d(struct node *n) {\n" % i + CPAD
                        + b"    return n->%s + %d;\n}\n" % (member, i) for i in range(users))
        return {"run_test.py": runner, "mode.txt": mode,
                "node.h": b"struct node {\n    int %s;\n    int len;\n};\n" % member,
                "a.c": b'#include "node.h"\nint f(struct node *n) {\n    return n->%s;\n}\n'
                % member + CPAD + b"int f2(void) { return %s; }\n" % two,
                "b.c": b'#include "node.h"\n#if MODE\n' + uses + b"#endif\n"}
    repo = make_repo("member")
    good = repo.commit(files(b"content", b"1\n", b"1"))
    diff = read_diff(repo.path, good, repo.commit(files(b"data", b"0\n", b"2")), context=0)
    def hunk(path: str, text: str) -> int:
        return next(c.id for c in diff.changes if c.path == path and c.hunk
                    and text in c.hunk.text)
    return repo, good, diff, {"struct": hunk("node.h", "+    int data;"),
                              "a": hunk("a.c", "n->data;"), "b": hunk("b.c", "n->data + 0"),
                              "f2": hunk("a.c", "return 2"), "mode": hunk("mode.txt", "+0")}


def test_a_member_taken_away_needs_the_changes_that_stop_using_it(
        make_repo, tmp_path) -> None:
    """With the struct's change and a.c's, gcc says b.c's line still uses the member
    the struct lost: the struct's change needs b.c's. The repair builds; a later
    configuration with the struct's change and without b.c's runs with it at once,
    with no failed build first."""
    repo, good, diff, ids = member_removed_repo(make_repo)
    struct, a, b, f2 = ids["struct"], ids["a"], ids["b"], ids["f2"]
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), c_resolver(diff))
        assert oracle(frozenset({struct, a})) is Outcome.PASS  # repaired by b.c's change
        assert "has no member named" in records[0].output_text()
        assert oracle.shown.needs == {struct: {b}}
        assert oracle(frozenset({struct, a, f2})) is Outcome.PASS
    assert [(r.ids, r.source) for r in records] == [
        ({struct, a}, RAN), ({struct, a, b}, RAN), ({struct, a, f2, b}, RAN)]


def test_a_configuration_lacking_more_than_a_repair_of_what_errors_showed_is_predicted(
        make_repo, tmp_path) -> None:
    """More functions of b.c than a repair may add stop using the member, each in
    its own hunk: once the errors have shown the struct's change needs them all,
    a configuration with it and without them is UNRESOLVED without a run."""
    users = MAX_REPAIR_GROWTH + 1
    repo, good, diff, ids = member_removed_repo(make_repo, users=users)
    struct, a, f2 = ids["struct"], ids["a"], ids["f2"]
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), c_resolver(diff))
        oracle(frozenset({struct, a}))
        assert len(oracle.shown.needs[struct]) == users
        ran = len(records)
        assert oracle(frozenset({struct, a, f2})) is Outcome.UNRESOLVED
    assert [r.source for r in records[ran:]] == [PREDICTED]
    assert records[-1].reason == f"predicted: the errors showed it needs {users} more changes"


def test_a_need_the_compiler_showed_is_dropped_where_a_configuration_built_without_it(
        make_repo, tmp_path) -> None:
    """With mode.txt's change, b.c is not compiled, and the struct's change builds
    without b.c's: the need an error shows later is no need, and is not kept."""
    repo, good, diff, ids = member_removed_repo(make_repo)
    struct, a, b, mode = ids["struct"], ids["a"], ids["b"], ids["mode"]
    resolver = c_resolver(diff)
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), resolver)
        assert oracle(frozenset({struct, a, mode})) is Outcome.PASS
        assert oracle(frozenset({struct, a})) is Outcome.PASS  # repaired
        assert resolver.removal_needs(records[1].output_text(), {struct, a}) == {(struct, b)}
        assert not oracle.shown.needs
