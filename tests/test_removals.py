"""Labels from runs that did not build: an error whose one repair is a removed change
answers that removal; a probe of several removals answers many in one run."""

from __future__ import annotations

import json
from pathlib import Path

from test_resolve import c_project, compile_config, hunk_of, resolver_for

from cli_helpers import run_wynot
from conftest import Executable
from wynot import result
from wynot import tester as testers
from wynot.analysis.depends import Dependencies
from wynot.cache import RunLog
from wynot.diffread import read_diff
from wynot.label import label
from wynot.pool import LocalPool
from wynot.removals import MAX_DEBT, MAX_PROBE, MIN_PROBE, Prober
from wynot.runner import Commands


def test_each_error_with_one_repair_blames_that_change(make_repo, tmp_path: Path) -> None:
    """gcc's `'offset' undeclared` in parse() and `implicit declaration of function
    'count'` in main() each have one repair: the hunk that declares the local, the
    prototype. Both are blamed; no other hunk that mentions `offset` is."""
    diff = c_project(make_repo)
    use = hunk_of(diff, "ini.c", "+    return n + s[offset];")
    call = hunk_of(diff, "main.c", "count(")
    declare = hunk_of(diff, "ini.c", "+    int n = 0, offset = 1;")
    prototype = hunk_of(diff, "lib.h", "+int count")
    applied = frozenset({use, call})
    output = compile_config(diff, applied, tmp_path)
    assert resolver_for(diff).culprits(output, applied) == {declare, prototype}


def test_an_error_with_no_single_repair_blames_nothing(make_repo, tmp_path: Path) -> None:
    """With the declaration applied as well, the only error left is the prototype's:
    the blame follows what the output reports, not what is missing."""
    diff = c_project(make_repo)
    use = hunk_of(diff, "ini.c", "+    return n + s[offset];")
    call = hunk_of(diff, "main.c", "count(")
    declare = hunk_of(diff, "ini.c", "+    int n = 0, offset = 1;")
    prototype = hunk_of(diff, "lib.h", "+int count")
    applied = frozenset({use, call, declare})
    output = compile_config(diff, applied, tmp_path)
    assert resolver_for(diff).culprits(output, applied) == {prototype}
    assert resolver_for(diff).culprits("error: something broke\n", applied) == frozenset()


def test_the_probe_widens_while_its_errors_answer_and_narrows_when_they_do_not() -> None:
    removals = [frozenset({i}) for i in range(40)]
    prober = Prober()
    assert len(prober.batch(removals, 40)) == 4
    prober.learn(removals[:4], 2)  # half answered: wider
    assert len(prober.batch(removals, 40)) == 8
    for _ in range(4):
        prober.learn(removals[:8], 8)
    assert len(prober.batch(removals, 40)) == MAX_PROBE
    prober.learn(removals[:MAX_PROBE], 1)  # one error a run: narrower
    assert len(prober.batch(removals, 40)) == MAX_PROBE // 2
    assert Prober().batch(removals[:MIN_PROBE - 1], 40) == []  # too few to be worth it


def test_an_unlucky_probe_does_not_end_the_probes() -> None:
    """A probe whose errors answered none of its four removals narrows the next
    to MIN_PROBE, not below: a width below it ended the probes for the rest of
    the labelling (base64's first probe answered none of its removals; every
    removal after it took a run of its own: 55 label runs, 35 with the probes
    going on). One that answers two of three widens them again."""
    removals = [frozenset({i}) for i in range(40)]
    prober = Prober()
    prober.learn(removals[:4], 0)
    assert len(prober.batch(removals, 40)) == MIN_PROBE
    prober.learn(removals[:MIN_PROBE], 0)
    assert len(prober.batch(removals, 40)) == MIN_PROBE
    prober.learn(removals[:MIN_PROBE], 2)
    assert len(prober.batch(removals, 40)) == 2 * MIN_PROBE


def test_probes_stop_once_they_cost_more_than_they_save() -> None:
    """Probes that each answer one removal save nothing, and the removals of what
    they left unanswered, answering none, cost a run each (g++'s errors in
    templates on cxxopts): once that debt passes MAX_DEBT runs, no more probes.
    A probe that still FAILS pays for the removals it drops."""
    removals = [frozenset({i}) for i in range(40)]
    prober = Prober()
    for _ in range(MAX_DEBT + 1):
        prober.learn(removals[:MIN_PROBE], 1)
        assert prober.batch(removals, 40) != []
        prober.paid(0)
    assert prober.batch(removals, 40) == []
    prober.paid(MIN_PROBE)  # a FAIL that dropped three: even again
    assert len(prober.batch(removals, 40)) == MIN_PROBE


def test_a_probe_removes_at_most_its_limit() -> None:
    """Units of 2, 3 and 1 changes, at most 5 changes: the first two only, too few."""
    removals = [frozenset({0, 1}), frozenset({2, 3, 4}), frozenset({5}), frozenset({6})]
    assert Prober().batch(removals, 5) == []
    assert Prober().batch(removals, 6) == removals[:3]


# Exit 125 when the program does not build, 1 for BAD's sum, 0 for GOOD's.
C_TEST = Executable(b"""#!/bin/sh
out=$(mktemp -d) || exit 125
trap 'rm -rf "$out"' EXIT
gcc -Werror=implicit-function-declaration -o "$out/t" *.c || exit 125
"$out/t"
""")
MAIN = b"""#include <stdio.h>
%s
int main(void) {
    int s = %s;
    printf("%%d\\n", s);
    return s == %d ? 0 : s == %d ? 1 : 125;
}
"""
CALLERS = 8


def widened_api(make_repo):
    """BAD gives api() a second parameter (the step it adds: 2 where it added 1,
    the cause) in its header and its definition, and each of eight callers, one
    file each, passes it: every change is needed to build."""
    repo = make_repo("widened")

    def tree(params: bytes, body: bytes, arg: bytes) -> dict[str, bytes]:
        files = {"run_test.sh": C_TEST, "api.h": b"int api(%s);\n" % params,
                 "api.c": b"#include \"api.h\"\nint api(%s) {\n    return %s;\n}\n"
                 % (params, body)}
        for i in range(CALLERS):
            files[f"f{i}.c"] = (b"#include \"api.h\"\nint f%d(void) {\n    return api(%d%s);\n}\n"
                                % (i, i, arg))
        calls = " + ".join(f"f{i}()" for i in range(CALLERS)).encode()
        protos = b"".join(b"int f%d(void);\n" % i for i in range(CALLERS))
        total = sum(range(CALLERS))
        files["main.c"] = MAIN % (protos, calls, total + CALLERS, total + 2 * CALLERS)
        return files

    repo.commit(tree(b"int x", b"x + 1", b""))
    repo.git("tag", "good")
    repo.commit(tree(b"int x, int step", b"x + step", b", 2"))
    repo.git("tag", "bad")
    return repo


def test_a_widened_function_and_its_callers_are_labelled_in_fewer_runs(make_repo) -> None:
    """The answer is all ten changes (each removal breaks the build). Without a
    run of its own for each of them, the probes' compiler errors label them:
    fewer label runs than changes, and the answer is still 1-minimal."""
    repo = widened_api(make_repo)
    result = run_wynot("good", "bad", "--json", "--no-cache", "--", "sh", "run_test.sh",
                       cwd=repo.path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert len(report["changes"]) == CALLERS + 2
    assert report["minimal"] is True
    labels = [t for t in report["tests"] if t["phase"] == "label"]
    ran = [t for t in labels if t["ran"]]
    assert len(ran) < CALLERS
    assert any(t["reason"].startswith("predicted: test ") for t in labels)



UNUSED = 6


def two_widened_with_leftovers(make_repo):
    """BAD gives a() and b() a second parameter (the step each adds: 2 where
    they added 1, the cause, in one hunk of lib.c) in their headers (a.h,
    p.h) and their definitions, and four callers of each, one file each, pass
    it: every one of these changes is needed to build. Six more files of
    functions nothing calls are changed as well: an answer of the whole diff
    carries six changes that can go, each its own unit, after the eleven that
    hold each other up. In the order of the diff, a.h comes before the
    callers of a(), which removed with it show no error of their own."""
    repo = make_repo("two-widened")

    def tree(params: bytes, body: bytes, arg: bytes, unused: bytes) -> dict[str, bytes]:
        files = {"run_test.sh": C_TEST, "a.h": b"int a(%s);\n" % params,
                 "p.h": b"int b(%s);\n" % params,
                 "lib.c": b"#include \"a.h\"\n#include \"p.h\"\nint a(%s) { return %s; }\n"
                 b"int b(%s) { return %s; }\n" % (params, body, params, body)}
        for i in range(CALLERS):
            f, h = (b"a", b"a") if i < CALLERS // 2 else (b"b", b"p")
            files[f"f{f.decode()}{i}.c"] = (
                b"#include \"%s.h\"\nint f%d(void) {\n    return %s(%d%s);\n}\n"
                % (h, i, f, i, arg))
        for i in range(UNUSED):
            files[f"z{i}.c"] = b"int z%d(void) {\n    return %d%s;\n}\n" % (i, i, unused)
        calls = " + ".join(f"f{i}()" for i in range(CALLERS)).encode()
        protos = b"".join(b"int f%d(void);\n" % i for i in range(CALLERS))
        total = sum(range(CALLERS))
        files["main.c"] = MAIN % (protos, calls, total + CALLERS, total + 2 * CALLERS)
        return files

    good = repo.commit(tree(b"int x", b"x + 1", b"", b""))
    bad = repo.commit(tree(b"int x, int step", b"x + step", b", 2", b" + 1"))
    return repo, good, bad


def test_leftovers_drop_together_and_the_probes_go_on(make_repo, tmp_path: Path) -> None:
    """Labelling the whole diff: the unused files, which no error ever names, are
    removed together after a probe whose errors answered the others it took, and
    drop in two runs rather than one run each (each drop making the labels
    given before it stale, to be given again). The answer and its labels are
    those of one run per removal."""
    repo, good, bad = two_widened_with_leftovers(make_repo)
    diff = read_diff(repo.path, good, bad)
    cause = hunk_of(diff, "lib.c", "x + step")
    needed = frozenset(c.id for c in diff.changes if not c.path.startswith("z"))
    assert len(needed) == CALLERS + 3 and len(diff.changes) == CALLERS + 3 + UNUSED
    commands = Commands(test=("sh", "run_test.sh"))
    records: list[result.TestRecord] = []
    log = RunLog(tmp_path / "runs")
    with LocalPool(repo.path, commands, 1) as executor:
        executor.begin(good, diff)
        tester = testers.Tester(diff, executor, commands, None, "key", log, lambda _: None,
                                records)
        labelled = label(tester, frozenset(c.id for c in diff.changes), lambda: False,
                         Dependencies(), frozenset({cause}), {}, None,
                         resolver_for(diff).culprits)
    log.close()
    assert labelled.chosen == needed
    assert set(labelled.roles.values()) == {result.INSEPARABLE}
    ran = [r for r in records if r.ran and r.phase == "label"]
    # the cause alone, a probe of a()'s callers, a probe of b()'s and of three
    # unused files (whose errors answer all but those), those three together
    # (FAIL), the other three (FAIL), and the two probes again after the drops
    assert len(ran) <= 7
