"""Failure resolution on Go: the toolchain's real errors, from a module of two
packages, map to the changes that repair them (needs go; skipped without it)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.test_resolve import PAD, hunk_of, resolver_for
from wynot.analysis.resolve import is_construction_failure
from wynot.changes import Diff
from wynot.diffread import read_diff
from wynot.patch import tree_states

GO = shutil.which("go")
pytestmark = pytest.mark.skipif(GO is None, reason="needs the go toolchain")
GO_MOD = b"module example.com/demo\n\ngo 1.19\n"
GO_PAD = PAD.replace(b"/*", b"//").replace(b" */", b"")


def go_module(make_repo) -> Diff:
    """``Join`` of package util becomes ``Concat`` (its definition, its caller in
    the package, its caller in cmd/app, each a hunk), and ``Parser`` gains a
    method ``Upper`` that cmd/app starts calling."""
    def files(bad: bool) -> dict[str, bytes]:
        name = b"Concat" if bad else b"Join"
        return {
            "go.mod": GO_MOD,
            "pkg/util/util.go": b"package util\n\n" + GO_PAD
            + b"func %s(a, b string) string { return a + b }\n\n" % name + GO_PAD
            + b"type Parser struct{ Name string }\n" + GO_PAD
            + (b"\nfunc (p Parser) Upper() string { return p.Name }\n" if bad else b""),
            "pkg/util/use.go": b"package util\n\n" + GO_PAD
            + b"func Twice(a string) string { return %s(a, a) }\n" % name,
            "cmd/app/main.go": b"package main\n\nimport \"example.com/demo/pkg/util\"\n\n"
            + GO_PAD + b"func main() {\n\tprintln(util.%s(\"a\", \"b\"))\n" % name + GO_PAD
            + (b"\tprintln(util.Parser{}.Upper())\n" if bad else b"\tprintln(\"-\")\n")
            + b"}\n"}
    repo = make_repo("gomodule")
    good = repo.commit(files(False))
    bad = repo.commit(files(True))
    return read_diff(repo.path, good, bad, context=0)


def go_output(diff: Diff, applied: set[int], where: Path, *command: str,
              directory: str = ".") -> str:
    """The configuration written under ``where``, ``go COMMAND`` run in
    ``directory`` of it: its real error output."""
    (where / "go.mod").write_bytes(GO_MOD)  # the same on both sides: not in the diff
    for path, state in tree_states(diff, frozenset(applied)).items():
        if state is not None:
            (where / path).parent.mkdir(parents=True, exist_ok=True)
            (where / path).write_bytes(state.data)
    assert GO is not None
    env = {**os.environ, "GOCACHE": str(where.parent / "gocache"), "GOFLAGS": "-mod=mod",
           "GOPROXY": "off", "GO111MODULE": "on", "GOTOOLCHAIN": "local"}
    proc = subprocess.run([GO, *command], cwd=where / directory, capture_output=True,
                          text=True, env=env, check=False)
    assert proc.returncode != 0
    return proc.stderr + proc.stdout


def test_a_name_another_package_lacks_is_repaired_by_its_definition(
        make_repo, tmp_path) -> None:
    """`undefined: util.Concat` in cmd/app adds the hunk that renames the
    function in package util, not the hunks that call it."""
    diff = go_module(make_repo)
    define = hunk_of(diff, "pkg/util/util.go", "+func Concat")
    call = hunk_of(diff, "cmd/app/main.go", "util.Concat")
    (tmp_path / "w").mkdir()
    output = go_output(diff, {call}, tmp_path / "w", "build", "./...")
    assert "undefined: util.Concat" in output and is_construction_failure(output)
    assert resolver_for(diff).resolve(output, {call}).add == {define}


def test_a_method_a_type_lacks_is_repaired_by_the_hunk_that_adds_it(
        make_repo, tmp_path) -> None:
    """`util.Parser{}.Upper undefined (type util.Parser has no field or method
    Upper)` adds the hunk that defines the method."""
    diff = go_module(make_repo)
    method = hunk_of(diff, "pkg/util/util.go", "+func (p Parser) Upper")
    use = hunk_of(diff, "cmd/app/main.go", ".Upper()")
    (tmp_path / "w").mkdir()
    output = go_output(diff, {use}, tmp_path / "w", "vet", "./...")
    assert "has no field or method Upper" in output
    assert resolver_for(diff).resolve(output, {use}).add == {method}


def test_errors_of_go_test_in_a_package_directory_are_placed_in_it(
        make_repo, tmp_path) -> None:
    """`go test` in pkg/util prints `./use.go:5:...: undefined: Concat` under the
    package's import path: the error is placed in pkg/util/use.go, and the
    definition repairs it; and where the definition alone is applied, the GOOD
    line of the package that still calls `Join` is rewritten by its caller's
    hunk (go does not build cmd/app over a package that did not build)."""
    diff = go_module(make_repo)
    define = hunk_of(diff, "pkg/util/util.go", "+func Concat")
    inner = hunk_of(diff, "pkg/util/use.go", "Concat(a, a)")
    (tmp_path / "w").mkdir()
    output = go_output(diff, {inner}, tmp_path / "w", "test", ".", directory="pkg/util")
    assert "./use.go:" in output
    assert is_construction_failure(output)
    assert resolver_for(diff).resolve(output, {inner}).add == {define}
    output = go_output(diff, {define}, tmp_path / "w", "build", "./...")
    assert "cmd/app" not in output
    assert resolver_for(diff).resolve(output, {define}).add == {inner}


def test_a_failing_go_test_is_no_construction_failure(make_repo, tmp_path) -> None:
    """A test that builds and fails prints its own `file_test.go:LINE:` lines
    (no column): a FAIL, not a build error."""
    diff = go_module(make_repo)
    (tmp_path / "w").mkdir()
    (tmp_path / "w" / "pkg/util").mkdir(parents=True)
    (tmp_path / "w" / "pkg/util/util_test.go").write_text(
        'package util\n\nimport "testing"\n\nfunc TestTwice(t *testing.T) {\n'
        '\tif Twice("a") != "b" {\n\t\tt.Fatalf("Twice: %q", Twice("a"))\n\t}\n}\n')
    output = go_output(diff, set(), tmp_path / "w", "test", "./...")
    assert "--- FAIL: TestTwice" in output and "util_test.go:7:" in output
    assert not is_construction_failure(output)


def table_module(make_repo) -> Diff:
    """A table of functions of one type (``check``), each function and the type in
    a hunk of its own; BAD gives all of them a parameter ``strict``, and
    ``Describe`` (not in the table) a parameter of another type."""
    functions = {"less": "a < b", "greater": "a > b", "equal": "a == b"}

    def files(bad: bool) -> dict[str, bytes]:
        extra = ", strict bool" if bad else ""
        body = b"package table\n\n" + GO_PAD
        body += b"type check func(a, b int%s) bool\n\n" % extra.encode() + GO_PAD
        for name, expression in functions.items():
            body += b"func %s(a, b int%s) bool { return %s }\n\n" % (
                name.encode(), extra.encode(), expression.encode()) + GO_PAD
        body += (b"func Describe(a int, verbose bool) string { return \"x\" }\n\n" if bad
                 else b"func Describe(a int) string { return \"x\" }\n\n") + GO_PAD
        body += b'var checks = map[string]check{"lt": less, "gt": greater, "eq": equal}\n'
        return {"go.mod": GO_MOD, "table/table.go": body}
    repo = make_repo("gotable")
    good = repo.commit(files(False))
    bad = repo.commit(files(True))
    return read_diff(repo.path, good, bad, context=0)


def test_a_function_of_a_table_brings_the_others_retyped_alike(make_repo, tmp_path) -> None:
    """`cannot use less (value of type func(a, b int, strict bool) bool) as type
    check in map literal`: the repair rewrites `less`'s declaration, and with it
    the table's type and its other functions, which gain the same parameter
    (one of them alone is the same error again), not `Describe`, retyped
    otherwise."""
    diff = table_module(make_repo)
    hunk = {name: hunk_of(diff, "table/table.go", f"+func {name}(")
            for name in ("less", "greater", "equal", "Describe")}
    kind = hunk_of(diff, "table/table.go", "+type check")
    (tmp_path / "w").mkdir()
    output = go_output(diff, {hunk["less"]}, tmp_path / "w", "build", "./...")
    assert "cannot use less" in output
    resolution = resolver_for(diff).resolve(output, {hunk["less"]})
    assert resolution.add == {kind, hunk["greater"], hunk["equal"]}
    # the sole repair the compiler shows is the declaration the error names
    assert resolver_for(diff).culprits(output, {hunk["less"]}) <= {kind}
