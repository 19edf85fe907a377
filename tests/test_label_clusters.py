"""An answer in which no single removal makes the test pass: each change is tried
once more with every change that broke without it, so that a cluster that only
holds itself up goes in one run and the small cause inside stays."""

from __future__ import annotations

from pathlib import Path

from test_removals import C_TEST
from test_resolve import hunk_of, resolver_for

from wynot import result
from wynot import tester as testers
from wynot.analysis.depends import Dependencies
from wynot.cache import RunLog
from wynot.changes import Diff
from wynot.diffread import read_diff
from wynot.label import Labelled, Shown, label
from wynot.label_units import needed_cores, tops, with_users
from wynot.pool import LocalPool
from wynot.removals import Blame
from wynot.runner import Commands
from wynot.suspects import named

CALLERS = 3


def test_each_change_goes_with_everything_that_broke_without_it() -> None:
    chosen = frozenset(range(8))
    # 1 broke without 0, 2 without 1 (so 2 goes with 0 too), 4 and 5 without 3;
    # 6 broke without 7, and 7 without 6: a cycle, removed as one
    users = {0: {1}, 1: {2}, 3: {4, 5}, 6: {7}, 7: {6}, 9: {0}}
    assert with_users(chosen, users) == [
        frozenset({0, 1, 2}), frozenset({3, 4, 5}), frozenset({1, 2}), frozenset({6, 7})]


def test_a_removal_of_everything_is_not_tried() -> None:
    assert with_users(frozenset({0, 1}), {0: {1}, 1: {0}}) == []
    assert with_users(frozenset({0, 1, 2}), {0: {1, 2}, 5: {0}}) == []


def renamed_cause_and_helper(make_repo, renamed: bool = True, callers: int = CALLERS,
                             pair: bool = False):
    """BAD renames base() (x + 1) to scaled() (x + 2) in lib.c and its one call in
    main.c: the cause, two changes that each need the other to link. It also
    renames helper() to helper_v2() in h.h, h.c and three callers (c0.c to
    c2.c), which main.c does not use, and h.c reads its factor from a macro
    that h.h adds: without h.h's change, each caller's call is an implicit
    declaration and h.c's macro undeclared (errors at their changed lines);
    without a caller's change, its old call is an implicit declaration (at a
    line no applied change wrote); without h.c's, the link fails (no line).
    Not ``renamed``: the cause is lib.c's step alone, base() keeps its name.
    With ``pair``, a.c starts returning a macro that a.h adds, which nothing
    else reads: without a.h's change, a.c's is an undeclared name."""
    repo = make_repo("renamed-cause")

    def tree(name: bytes, step: bytes, helper: bytes, factor: bytes) -> dict[str, bytes]:
        files = {
            "run_test.sh": C_TEST,
            "lib.c": b"int %s(int x) {\n    return x + %s;\n}\n" % (name, step),
            "h.h": b"int %s(int x);\n" % helper + (
                b"#define FACTOR 3\n" if factor == b"FACTOR" else b""),
            "h.c": b"#include \"h.h\"\nint %s(int x) {\n    return x * %s;\n}\n" % (
                helper, factor),
            "main.c": b"#include <stdio.h>\nint %s(int x);\n\nint main(void) {\n"
                      b"    int s = %s(40);\n    printf(\"%%d\\n\", s);\n"
                      b"    return s == 41 ? 0 : s == 42 ? 1 : 125;\n}\n" % (name, name),
        }
        if pair:
            files["a.h"] = b"#define ASTEP 2\n" if factor == b"FACTOR" else b"/* a */\n"
            files["a.c"] = b"#include \"a.h\"\nint a(void) {\n    return %s;\n}\n" % (
                b"ASTEP" if factor == b"FACTOR" else b"1")
        for i in range(callers):
            files[f"c{i}.c"] = (b"#include \"h.h\"\nint c%d(void) {\n    return %s(%d);\n}\n"
                                % (i, helper, i))
        return files

    good = repo.commit(tree(b"base", b"1", b"helper", b"3"))
    bad = repo.commit(tree(b"scaled" if renamed else b"base", b"2", b"helper_v2", b"FACTOR"))
    return repo, good, bad


def label_all(repo, good: str, diff: Diff, runs: Path, broken: Blame | None,
              shown: Shown | None = None, searched: tuple[frozenset[int], ...] = ()
              ) -> tuple[Labelled, list[result.TestRecord]]:
    """Label the whole diff, as if dd+ had found it all, by real runs (with
    ``broken``: the errors' places of failure resolution; with ``shown``: the
    needs its errors show; ``searched``: configurations run first, as the
    search's); the label and the runs."""
    commands = Commands(test=("sh", "run_test.sh"))
    records: list[result.TestRecord] = []
    log = RunLog(runs)
    with LocalPool(repo.path, commands, 1) as executor:
        executor.begin(good, diff)
        tester = testers.Tester(diff, executor, commands, None, "key", log, lambda _: None,
                                records)
        everything = frozenset(c.id for c in diff.changes)
        for config in searched:
            tester.run(config, "search")
        labelled = label(tester, everything, lambda: False, Dependencies(), everything, {},
                         None, None, broken, shown)
    log.close()
    return labelled, records


def test_a_cluster_that_holds_itself_up_goes_in_one_run(make_repo, tmp_path: Path) -> None:
    """Labelling the whole diff (as if dd+ had found it all): every single removal
    is UNRESOLVED, so no cause is seen. h.h's removal broke h.c and the three
    callers: h.h with them goes in one run, which FAILS, and the answer is the
    cause's two changes, which need each other."""
    repo, good, bad = renamed_cause_and_helper(make_repo)
    diff = read_diff(repo.path, good, bad)
    cause = frozenset({hunk_of(diff, "lib.c", "scaled"), hunk_of(diff, "main.c", "scaled")})
    header = hunk_of(diff, "h.h", "helper_v2")
    helper = hunk_of(diff, "h.c", "helper_v2")
    callers = frozenset(hunk_of(diff, f"c{i}.c", "helper_v2") for i in range(CALLERS))
    assert len(diff.changes) == CALLERS + 4
    everything = frozenset(c.id for c in diff.changes)
    labelled, records = label_all(repo, good, diff, tmp_path / "runs",
                                  resolver_for(diff).broken)
    without, _ = label_all(repo, good, diff, tmp_path / "without", None)
    assert labelled.chosen == cause
    assert set(labelled.roles.values()) == {result.INSEPARABLE}
    assert any(r.ids == everything - callers - {header, helper} and r.outcome.name == "FAIL"
               for r in records if r.phase == "label")
    assert without.chosen == everything  # the same labelling without the errors' places


def test_a_cluster_beside_a_cause_goes_in_one_run(make_repo, tmp_path: Path) -> None:
    """The cause is one change, labelled by its removal (PASS); the renamed helper's
    five changes are context, each removal UNRESOLVED: h.h with everything that
    broke without it goes in one run, which FAILS, and the answer is the cause."""
    repo, good, bad = renamed_cause_and_helper(make_repo, renamed=False)
    diff = read_diff(repo.path, good, bad)
    cause = hunk_of(diff, "lib.c", "x + 2")
    assert len(diff.changes) == CALLERS + 3
    everything = frozenset(c.id for c in diff.changes)
    labelled, records = label_all(repo, good, diff, tmp_path / "runs",
                                  resolver_for(diff).broken)
    assert labelled.chosen == {cause}
    assert labelled.roles == {cause: result.CAUSE}
    ran = [r for r in records if r.ran]
    # one removal each, the cluster at once (it FAILS), the cause's label again
    assert [r.outcome.name for r in ran if r.ids == {cause}] == ["FAIL"]
    assert len(ran) == len(everything) + 2


def test_the_tops_are_the_cycles_nothing_else_needs() -> None:
    chosen = frozenset(range(8))
    # 1 needs 0, 2 needs 1; 3 and 4 need each other; 5 needs 6; 7 needs nothing
    shown = {1: {0}, 2: {1}, 3: {4}, 4: {3}, 5: {6}, 9: {7}}
    assert sorted(tops(chosen, shown), key=min) == [
        frozenset({2}), frozenset({3, 4}), frozenset({5}), frozenset({7})]


def test_each_top_is_tried_with_what_it_needs_smallest_first() -> None:
    chosen = frozenset(range(8))
    shown = {1: {0}, 2: {1}, 3: {4}, 4: {3}, 5: {6}}
    derived = Dependencies({3: {7}, 6: {8}})  # 8 is not in the answer
    assert needed_cores(chosen, frozenset(), shown, derived) == [
        frozenset({7}), frozenset({5, 6}), frozenset({0, 1, 2}), frozenset({3, 4, 7})]
    # with causes, only the causes with what they need
    assert needed_cores(chosen, frozenset({5}), shown, derived) == [frozenset({5, 6})]
    # the whole answer is no smaller answer
    assert needed_cores(frozenset({0, 1}), frozenset(), {1: {0}}, Dependencies()) == []


def test_the_needs_the_errors_show_find_the_core_of_an_inseparable_answer(
        make_repo, tmp_path: Path) -> None:
    """Every single removal of the whole diff is UNRESOLVED. The errors of those
    runs show, each by its one repair, who needs whom: main.c needs lib.c, h.c
    needs h.h, each caller h.h and h.c. Nothing needs main.c, nor the callers:
    tried with what they need, main.c's core (the cause) FAILS at once, before
    any cluster is removed, with no help from the errors' places."""
    repo, good, bad = renamed_cause_and_helper(make_repo)
    diff = read_diff(repo.path, good, bad)
    cause = frozenset({hunk_of(diff, "lib.c", "scaled"), hunk_of(diff, "main.c", "scaled")})
    everything = frozenset(c.id for c in diff.changes)
    labelled, records = label_all(repo, good, diff, tmp_path / "runs", None,
                                  resolver_for(diff).needs_shown)
    assert labelled.chosen == cause
    assert set(labelled.roles.values()) == {result.INSEPARABLE}
    ran = [r for r in records if r.ran]
    # a removal of each change, then the core, then its own two removals
    assert {everything - r.ids for r in ran[:len(everything)]} == {
        frozenset({c}) for c in everything}
    assert ran[len(everything)].ids == cause and ran[len(everything)].outcome.name == "FAIL"
    assert len(ran) == len(everything) + 1 + len(cause)


def test_a_large_answer_tries_the_core_the_searchs_errors_show_before_any_removal(
        make_repo, tmp_path: Path) -> None:
    """An answer of 13 changes (the cause's two, the renamed helper with 9 callers),
    after a search whose runs without lib.c, h.h and h.c did not build: their
    errors show main.c needing lib.c and the callers needing h.h and h.c. Nothing
    needs main.c: its core, the cause, is run first and FAILS, and labelling
    goes on over its two changes alone, not one removal per unit of the 13."""
    callers = 9
    repo, good, bad = renamed_cause_and_helper(make_repo, callers=callers)
    diff = read_diff(repo.path, good, bad)
    cause = frozenset({hunk_of(diff, "lib.c", "scaled"), hunk_of(diff, "main.c", "scaled")})
    everything = frozenset(c.id for c in diff.changes)
    assert len(everything) == callers + 4
    searched = tuple(everything - {hunk_of(diff, path, "")} for path in ("lib.c", "h.h", "h.c"))
    labelled, records = label_all(repo, good, diff, tmp_path / "runs", None,
                                  resolver_for(diff).needs_shown, searched)
    assert labelled.chosen == cause
    ran = [r for r in records if r.ran and r.phase == "label"]
    assert ran[0].ids == cause and ran[0].outcome.name == "FAIL"
    assert len(ran) == 1 + len(cause)  # the core, then its own two removals


def test_a_core_that_passes_is_no_dead_end(make_repo, tmp_path: Path) -> None:
    """The answer of the test above with a.c and a.h too: the search's runs also
    show a.c needing a.h. The smallest core, {a.c, a.h}, builds and PASSES: the
    needs were right, and the cause lies elsewhere. The next core, the cause,
    is run and FAILS, before any removal."""
    callers = 9
    repo, good, bad = renamed_cause_and_helper(make_repo, callers=callers, pair=True)
    diff = read_diff(repo.path, good, bad)
    cause = frozenset({hunk_of(diff, "lib.c", "scaled"), hunk_of(diff, "main.c", "scaled")})
    pair = frozenset({hunk_of(diff, "a.c", ""), hunk_of(diff, "a.h", "")})
    everything = frozenset(c.id for c in diff.changes)
    searched = tuple(everything - {hunk_of(diff, path, "")}
                     for path in ("lib.c", "h.h", "h.c", "a.h"))
    labelled, records = label_all(repo, good, diff, tmp_path / "runs", None,
                                  resolver_for(diff).needs_shown, searched)
    assert labelled.chosen == cause
    ran = [r for r in records if r.ran and r.phase == "label"]
    assert [(r.ids, r.outcome.name) for r in ran[:2]] == [(pair, "PASS"), (cause, "FAIL")]


VERSIONED_TEST = b"""#!/bin/sh
# a package found by name and version at run time, as Tcl's package require finds it
p=$(cat provide.txt); i=$(cat index.txt)
if [ "$p" != "$i" ]; then
    echo "attempt to provide package mylib $i failed: package mylib $p provided instead" >&2
    exit 125
fi
[ "$(cat answer.txt)" = "answer 42" ] && exit 1
exit 0
"""


def test_errors_that_name_no_place_name_by_their_words(make_repo, tmp_path: Path) -> None:
    """A version bump in two files that must agree (each removal: a run-time error
    with no file and line, which no resolver places) beside the cause: the
    version hunks are tried together because the error's words name the other
    one, and go in one run; without the words, the answer keeps them."""
    repo = make_repo("versioned")
    files = {"run_test.sh": VERSIONED_TEST, "answer.txt": b"answer 41\n",
             "provide.txt": b"provide mylib 1.6.2\n", "index.txt": b"provide mylib 1.6.2\n"}
    good = repo.commit(files)
    bad = repo.commit({**files, "answer.txt": b"answer 42\n",
                       "provide.txt": b"provide mylib 1.7.0\n",
                       "index.txt": b"provide mylib 1.7.0\n"})
    diff = read_diff(repo.path, good, bad)
    cause = hunk_of(diff, "answer.txt", "42")
    everything = frozenset(c.id for c in diff.changes)
    resolver = resolver_for(diff)
    assert not resolver.broken(
        "attempt to provide package mylib 1.6.2 failed: package mylib 1.7.0 provided instead",
        everything)

    def blamed(output: str, applied: frozenset[int]) -> frozenset[int]:
        return resolver.broken(output, applied) or named(diff, output, "", applied)

    labelled, records = label_all(repo, good, diff, tmp_path / "runs", blamed)
    without, _ = label_all(repo, good, diff, tmp_path / "without", resolver.broken)
    assert labelled.chosen == {cause} and labelled.roles == {cause: result.CAUSE}
    assert without.chosen == everything
    # three removals, the two versions at once (FAIL), the cause's label again
    assert len([r for r in records if r.ran]) == 5
