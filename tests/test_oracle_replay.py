"""The search's oracle makes at once the repairs of a resolution loop that built,
for a later configuration broken alike, instead of making the chain again.

A small C program whose partial configurations fail to build in a chain: a
struct member renamed in a header (gcc names the old member at an unchanged
line that another hunk rewrites, so the error ties the rename to nothing
applied), and the rewritten line using a macro that a third hunk defines."""

from __future__ import annotations

from pathlib import Path

from test_oracle import c_resolver
from tester_helpers import run_tester

from wynot.analysis.depends import Dependencies
from wynot.diffread import read_diff
from wynot.oracle import SearchOracle
from wynot.outcome import Outcome
from wynot.result import RAN

BUILD_AND_RUN = b"""import subprocess, sys
env = {"LANG": "C", "PATH": "/usr/bin:/bin"}
proc = subprocess.run(["gcc", "-o", "prog", "main.c", "other.c"], capture_output=True,
                      text=True, env=env)
sys.stderr.write(proc.stderr)
if proc.returncode:
    sys.exit(125)
sys.exit(1 if subprocess.run(["./prog"]).returncode else 0)
"""
PAD = b"".join(b"/* filler %d */\n" % i for i in range(8))
MAIN = b'#include "lib.h"\n#include "util.h"\n' + PAD


def chain_repo(make_repo) -> tuple:
    """lib.h renames ``count`` to ``size``; main.c follows, and now stores
    LIMIT_MAX, which util.h starts to define: the program then returns 1 (the
    test fails). other.c starts calling ``twice``, which a later hunk of other.c
    defines; notes.txt and todo.txt change too. Returns (repo, GOOD, diff, the
    ids by path: lib.h, main.c, util.h, notes.txt, todo.txt, and other.c's
    call and definition)."""
    good = {"run_test.py": BUILD_AND_RUN, "notes.txt": b"one\n", "todo.txt": b"a\n",
            "lib.h": b"struct box { int count; };\n" + PAD,
            "util.h": b"/* util */\n" + PAD,
            "main.c": MAIN + b"int main(void) { struct box b; b.count = 3; "
                             b"return b.count != 3; }\n",
            "other.c": b"int start(void) { return 1; }\n" + PAD
                       + b"int other(void) { return start(); }\n"}
    bad = {**good, "notes.txt": b"two\n", "todo.txt": b"b\n",
           "lib.h": b"struct box { int size; };\n" + PAD,
           "util.h": b"/* util */\n" + PAD + b"#define LIMIT_MAX 10\n",
           "main.c": MAIN + b"int main(void) { struct box b; b.size = LIMIT_MAX; "
                            b"return b.size != 3; }\n",
           "other.c": b"int twice(int n) { return 2 * n; }\n" + PAD
                      + b"int other(void) { return twice(1); }\n"}
    repo = make_repo("chain")
    good_sha = repo.commit(good)
    diff = read_diff(repo.path, good_sha, repo.commit(bad), context=0)
    ids = {c.path: c.id for c in diff.changes}
    others = [c.id for c in diff.changes if c.path == "other.c"]
    return repo, good_sha, diff, ids, others


def test_a_chain_that_built_is_made_at_once_for_a_configuration_broken_alike(
        make_repo, tmp_path: Path) -> None:
    """The rename with notes.txt's change: the rename breaks main.c's unchanged
    line, which main.c's hunk rewrites; that hunk needs util.h's macro: three
    runs, and the program fails. The rename with todo.txt's change instead
    differs only in a change no error involved: the two repairs are made at
    once, one run. A configuration that holds main.c's hunk (which the errors
    involved) is not taken for broken alike: it runs as it is, and its own
    errors repair it."""
    repo, good, diff, ids, _ = chain_repo(make_repo)
    rename, user, macro = ids["lib.h"], ids["main.c"], ids["util.h"]
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), c_resolver(diff))
        assert oracle(frozenset({rename, ids["notes.txt"]})) is Outcome.FAIL
        assert [r.ids for r in records] == [
            frozenset({rename, ids["notes.txt"]}), frozenset({rename, ids["notes.txt"], user}),
            frozenset({rename, ids["notes.txt"], user, macro})]
        assert oracle(frozenset({rename, ids["todo.txt"]})) is Outcome.FAIL
        assert [(r.source, r.ids) for r in records[3:]] == [
            (RAN, frozenset({rename, ids["todo.txt"], user, macro}))]
        assert oracle(frozenset({user, macro})) is Outcome.FAIL  # repaired by the rename
        assert [r.ids for r in records[4:]] == [frozenset({user, macro}),
                                                frozenset({user, macro, rename})]


def test_a_replay_that_does_not_build_goes_on_from_its_errors(
        make_repo, tmp_path: Path) -> None:
    """After the chain of the test above, the rename with other.c's new call:
    the call is no change the chain's errors involved, so the two repairs are
    made at once; that run does not build (``twice`` is undeclared), and the
    loop goes on from its errors, adding the definition: it fails, in two runs
    where the chain took four. The memory that did not predict it is dropped;
    the loop that built is remembered in its place."""
    repo, good, diff, ids, (definition, call) = chain_repo(make_repo)
    rename, user, macro = ids["lib.h"], ids["main.c"], ids["util.h"]
    with run_tester(repo, good, diff, tmp_path) as (tester, records):
        oracle = SearchOracle(tester, Dependencies(), c_resolver(diff))
        assert oracle(frozenset({rename, ids["notes.txt"]})) is Outcome.FAIL
        assert oracle(frozenset({rename, call})) is Outcome.FAIL
        assert [r.ids for r in records[3:]] == [
            frozenset({rename, call, user, macro}),
            frozenset({rename, call, user, macro, definition})]
    assert [m.start for m in oracle.repaired] == [frozenset({rename, call})]


def test_a_futile_step_is_judged_by_the_nearest_loop_that_took_it(
        make_repo, tmp_path: Path) -> None:
    """One step, taken by a loop that built from {1, 2, 3, 4} and by one that ended
    UNRESOLVED from {1, 5}, whose errors involved nothing either configuration
    lacks: from {1, 5, 6} (one change from the second, three from the first) it
    is futile; from {1, 2, 3} it is taken. Before, any loop it helped made it
    always taken."""
    repo, good, diff, _, _ = chain_repo(make_repo)
    step = (frozenset({("", "type", "", None)}), frozenset({7}))
    with run_tester(repo, good, diff, tmp_path) as (tester, _):
        oracle = SearchOracle(tester, Dependencies(), c_resolver(diff))
        oracle.helped[step] = [(frozenset({1, 2, 3, 4}), frozenset({1}))]
        oracle.futile[step] = [(frozenset({1, 5}), frozenset({1}))]
        assert oracle._futile(step, frozenset({1, 5, 6}))
        assert not oracle._futile(step, frozenset({1, 2, 3}))
        assert not oracle._futile(step, frozenset({5, 6}))  # differs in what was involved
