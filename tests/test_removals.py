"""Labels from runs that did not build: an error whose one repair is a removed change
answers that removal; a probe of several removals answers many in one run."""

from __future__ import annotations

import json
from pathlib import Path

from test_resolve import c_project, compile_config, hunk_of, resolver_for

from cli_helpers import run_wynot
from conftest import Executable
from wynot.removals import MAX_PROBE, MIN_PROBE, Prober


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


def test_the_probe_widens_while_its_errors_answer_and_stops_when_they_do_not() -> None:
    removals = [frozenset({i}) for i in range(40)]
    prober = Prober()
    assert len(prober.batch(removals, 40)) == 4
    prober.learn(removals[:4], 2)  # half answered: wider
    assert len(prober.batch(removals, 40)) == 8
    for _ in range(4):
        prober.learn(removals[:8], 8)
    assert len(prober.batch(removals, 40)) == MAX_PROBE
    prober.learn(removals[:MAX_PROBE], 1)  # one error a run: narrower
    prober.learn(removals[:8], 1)
    prober.learn(removals[:4], 0)
    assert prober.width < MIN_PROBE and prober.batch(removals, 40) == []
    assert Prober().batch(removals[:MIN_PROBE - 1], 40) == []  # too few to be worth it


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
