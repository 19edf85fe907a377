"""Failure resolution on TypeScript: tsc's real errors on a two-module project map
to the changes that repair them (needs tsc on the PATH; skipped without it)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.test_resolve import PAD, hunk_of, resolver_for
from wynot.analysis.resolve import is_construction_failure
from wynot.changes import Diff
from wynot.diffread import read_diff
from wynot.patch import tree_states

TSC = shutil.which("tsc")
pytestmark = pytest.mark.skipif(TSC is None, reason="needs tsc (npm install -g typescript)")
TS_PAD = PAD.replace(b"/*", b"//").replace(b" */", b"")


def ts_project(make_repo) -> Diff:
    """``join`` of src/lib/util.ts becomes ``concat`` (its export and the import
    and call in src/main.ts, two hunks), and class ``Parser`` gains a method
    ``upper`` that main.ts starts calling."""
    def files(bad: bool) -> dict[str, bytes]:
        name = b"concat" if bad else b"join"
        return {
            "src/lib/util.ts": b"export function %s(a: string, b: string): string {\n" % name
            + b"  return a + b;\n}\n" + TS_PAD + b"export class Parser {\n  name = \"\";\n"
            + TS_PAD.replace(b"//", b"  //")
            + (b"  upper(): string {\n    return this.name.toUpperCase();\n  }\n" if bad else b"")
            + b"}\n",
            "src/main.ts": b"import { %s, Parser } from \"./lib/util\";\n" % name + TS_PAD
            + b"console.log(%s(\"a\", \"b\"));\n" % name + TS_PAD
            + (b"console.log(new Parser().upper());\n" if bad else b"console.log(\"-\");\n")}
    repo = make_repo("tsproject")
    good = repo.commit(files(False))
    bad = repo.commit(files(True))
    return read_diff(repo.path, good, bad, context=0)


def tsc_output(diff: Diff, applied: set[int], where: Path) -> str:
    """The configuration written under ``where`` and type-checked: tsc's real output."""
    for path, state in tree_states(diff, frozenset(applied)).items():
        if state is not None:
            (where / path).parent.mkdir(parents=True, exist_ok=True)
            (where / path).write_bytes(state.data)
    assert TSC is not None
    proc = subprocess.run([TSC, "--noEmit", "--strict", "--target", "es2020", "src/main.ts"],
                          cwd=where, capture_output=True, text=True, check=False)
    assert proc.returncode != 0
    return proc.stdout + proc.stderr


def test_an_export_a_module_lacks_is_repaired_by_the_hunk_that_renames_it(
        make_repo, tmp_path) -> None:
    """`Module '"./lib/util"' has no exported member 'concat'` adds the hunk of
    src/lib/util.ts that renames the function, not the other users."""
    diff = ts_project(make_repo)
    define = hunk_of(diff, "src/lib/util.ts", "+export function concat")
    use = hunk_of(diff, "src/main.ts", "+import { concat")
    call = hunk_of(diff, "src/main.ts", "+console.log(concat")
    output = tsc_output(diff, {use, call}, tmp_path)
    assert "has no exported member 'concat'" in output and is_construction_failure(output)
    assert resolver_for(diff).resolve(output, {use, call}).add == {define}


def test_a_property_a_class_lacks_is_repaired_by_the_hunk_that_adds_it(
        make_repo, tmp_path) -> None:
    """`Property 'upper' does not exist on type 'Parser'` adds the method's hunk."""
    diff = ts_project(make_repo)
    method = hunk_of(diff, "src/lib/util.ts", "+  upper()")
    use = hunk_of(diff, "src/main.ts", ".upper()")
    output = tsc_output(diff, {use}, tmp_path)
    assert "Property 'upper' does not exist on type 'Parser'" in output
    assert resolver_for(diff).resolve(output, {use}).add == {method}
