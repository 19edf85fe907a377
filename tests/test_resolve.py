"""Failure resolution: real error texts read as diagnostics, lines of a tested
configuration mapped back to hunks, and the few changes a diagnostic points at."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from wynot.analysis import resolve
from wynot.analysis.declarations import (
    HunkDeclarations,
    declarations,
    hunk_declarations,
    line_edit,
    outline_declarations,
)
from wynot.analysis.diagnostics import Diagnostic, Location, parse_diagnostics
from wynot.analysis.model import enclosing_scope
from wynot.analysis.names import MAX_ALIKE, NameIndex
from wynot.analysis.places import place
from wynot.analysis.resolve import Resolver, is_construction_failure
from wynot.analysis.symbols import analyse_file, change_symbols
from wynot.changes import Diff
from wynot.diffread import read_diff
from wynot.patch import split_lines, tree_states

ERRORS = Path(__file__).parent / "errors"
PAD = b"".join(b"/* filler %d */\n" % i for i in range(8))

# file -> (name, kind, qualifier, (path suffix, line) of each location)
EXPECTED = {
    "gcc_undeclared": [
        ("height", "undefined", "function area", [("undeclared.c", 5)]),
        ("z", "member", "struct point", [("undeclared.c", 9)]),
        ("count_items", "undefined", "function main", [("undeclared.c", 10)])],
    # the note of an argument of the wrong type (the declaration of f) joins that
    # warning, not the error before it
    "gcc_warning_notes": [("h", "undefined", "function g", [("w.c", 2)]),
                          ("f", "signature", "", [("w.c", 3), ("w.c", 1)])],
    # the linker names no line; the warning about the same name gives it
    "ld_after_warning": [("count", "undefined", "function main", [("main.c", 3)]),
                         ("count", "undefined", "", [("main.c", 3), ("main.c", 0)])],
    "gcc_too_few": [("parse_value", "signature", "", [("args.c", 2), ("lib.h", 1)])],
    "gcc_conflicting": [("parse_value", "signature", "", [("types.c", 2), ("lib.h", 1)]),
                        ("ini_file", "type", "", [("types.c", 4)])],
    "clang_undeclared": [("height", "undefined", "", [("undeclared.c", 5)]),
                         ("z", "member", "struct point", [("undeclared.c", 9)]),
                         ("count_items", "undefined", "", [("undeclared.c", 10)])],
    "clang_too_few": [("", "signature", "", [("args.c", 2), ("lib.h", 1)])],
    "clang_conflicting": [("parse_value", "signature", "", [("types.c", 2), ("lib.h", 1)]),
                          ("ini_file", "type", "", [("types.c", 4)])],
    # C++: names quoted qualified and typed, read as the name and its class
    "gxx_members": [
        ("title", "member", "class Widget", [("widget.cpp", 3)]),
        ("colour", "member", "Widget", [("widget.cpp", 4)]),
        ("resize", "signature", "Widget", [("widget.cpp", 5), ("widget.h", 2)]),
        ("Gadget", "undefined", "function ns::area", [("widget.cpp", 7)]),
        ("", "syntax", "", [("widget.cpp", 8), ("widget.h", 6)]),
        ("width", "member", "class Widget", [("widget.cpp", 9)]),
        ("helper", "member", "ns", [("widget.cpp", 9)]),
        ("offset", "undefined", "function ns::area", [("widget.cpp", 9)])],
    "gxx_calls": [("Thing", "type", "", [("use.cpp", 2)]),
                  ("Sprocket", "undefined", "", [("use.cpp", 3)]),
                  ("draw", "signature", "Widget", [("use.cpp", 5), ("widget.h", 6)])],
    "clangxx_members": [
        ("title", "member", "Widget", [("widget.cpp", 3)]),
        ("colour", "member", "", [("widget.cpp", 4)]),
        ("resize", "signature", "Widget", [("widget.cpp", 5)]),
        ("Gadget", "type", "", [("widget.cpp", 7), ("widget.h", 2)]),
        ("", "syntax", "", [("widget.cpp", 8), ("widget.h", 6)]),
        ("width", "member", "Widget", [("widget.cpp", 9)]),
        ("helper", "member", "ns", [("widget.cpp", 9)]),
        ("offset", "undefined", "", [("widget.cpp", 9)])],
    "clangxx_calls": [("Thing", "type", "", [("use.cpp", 2)]),
                      ("Sprocket", "undefined", "", [("use.cpp", 3)]),
                      ("", "signature", "", [("use.cpp", 5), ("widget.h", 6)])],
    "ld_undefined": [("parse_value", "undefined", "", [("use.c", 2)])],
    "ld_undefined_nodebug": [("parse_value", "undefined", "", [("use.c", 0)])],
    "py_attribute": [("helper_v2", "member", "pkg.m02", [("pkg/m01.py", 4), ("<string>", 1)])],
    "py_import": [("helper_v2", "import", "pkg.m02", [("pkg/m03.py", 1), ("<string>", 1)])],
    "py_name": [("total", "undefined", "", [("pkg/m02.py", 2), ("<string>", 1)])],
    "javac_symbol": [("timeoutSeconds", "undefined", "Config", [("Main.java", 4)]),
                     ("retries", "undefined", "Main", [("Main.java", 5)])],
    # a call that fits no declaration: one method, then overloads
    "javac_apply": [("wrap", "signature", "Lib", [("Use.java", 3)]),
                    ("scale", "signature", "", [("Use.java", 4)])],
    "node_typeerror": [("formatFullName", "member", "util",
                        [("js/main.js", 3), ("js/main.js", 5)])],
    "node_reference": [("offset", "undefined", "", [("js/ref.js", 2), ("js/ref.js", 4)])],
    # a value missing while a required module loads: no name, the frames only
    "node_cannot_read": [("", "undefined", "", [("js/lib.js", 7), ("js/lib.js", 4),
                                               ("js/load.js", 1)])],
    # rustc: the place on the `-->` line below the message, a note's place, the
    # first line a help quotes (of the error's file); an error that names
    # nothing keeps its places, its help's line first
    "rustc_resolve": [
        ("HashMapp", "import", "std.collections", [("src/util.rs", 1)]),
        ("Wide", "type", "", [("src/util.rs", 3)]),
        ("mem", "undefined", "", [("src/lib.rs", 21), ("src/lib.rs", 1)]),
        ("offset", "undefined", "", [("src/lib.rs", 22)]),
        ("", "syntax", "", [("src/lib.rs", 22), ("iterator.rs", 41)]),
        ("width", "member", "Counter", [("src/lib.rs", 22)]),
        ("helper", "undefined", "", [("src/lib.rs", 22)]),
        ("", "signature", "", [("src/lib.rs", 22), ("src/util.rs", 7)]),
        ("", "syntax", "", [("src/lib.rs", 8), ("src/lib.rs", 9)])],
    "rustc_members": [
        ("seed", "import", "global", [("src/lib.rs", 2)]),
        ("make_rng", "member", "global", [("src/lib.rs", 24)]),
        ("z", "member", "Point", [("src/lib.rs", 15)]),
        ("gen_u64", "member", "Rng", [("src/lib.rs", 16)]),
        ("fresh", "member", "Rng", [("src/lib.rs", 16), ("src/lib.rs", 7)])],
    # go: no `error:`; a name qualified by its package, or by the type that lacks
    # a field or method; other errors nameless at their line, detail lines' places
    # their spans; a path of the package's own directory read under its import path
    "go_undefined": [("Missing", "undefined", "", [("pkg/util/use.go", 7)]),
                     ("Upper", "member", "Parser", [("pkg/util/use.go", 9)]),
                     ("Join", "signature", "", [("pkg/util/use.go", 10)]),
                     ("Count", "member", "Parser", [("pkg/util/use.go", 11)]),
                     ("Helper", "undefined", "", [("pkg/util/use.go", 12)])],
    "go_declarations": [("Join", "redefined", "", [("pkg/util/util.go", 9),
                                                   ("pkg/util/use.go", 14)]),
                        ("", "syntax", "", [("pkg/util/use.go", 3)]),
                        ("", "syntax", "", [("pkg/util/use.go", 17)]),
                        ("Close", "member", "File", [("pkg/util/use.go", 18)]),
                        ("", "syntax", "", [("pkg/util/use.go", 20)])],
    "go_test_package": [("Join", "signature", "", [("demo/pkg/util/use.go", 3)]),
                        ("Renamed", "undefined", "", [("demo/pkg/util/util_test.go", 7)])],
    "go_imports": [("", "syntax", "", [("demo/cmd/main.go", 5)]),
                   ("Renamed", "member", "util", [("demo/cmd/main.go", 12)]),
                   ("title", "member", "Parser", [("demo/cmd/main.go", 12)]),
                   ("Config", "member", "util", [("demo/cmd/main.go", 13)])],
    "go_vet": [("Renamed", "member", "util", [("demo/cmd/main.go", 12)])],
    # tsc, plain and --pretty (colours and all): a module's export, a module, a
    # type's property; the related places of --pretty are the message's spans
    "tsc_plain": [("Renamed", "import", "lib.util", [("src/main.ts", 1)]),
                  ("missing", "import", "lib", [("src/main.ts", 2)]),
                  ("upper", "member", "Parser", [("src/main.ts", 5)]),
                  ("", "signature", "", [("src/main.ts", 6)]),
                  ("helper", "undefined", "", [("src/main.ts", 7)]),
                  ("", "syntax", "", [("src/main.ts", 8)]),
                  ("", "syntax", "", [("src/more.ts", 2)]),
                  ("joined", "member", "util", [("src/more.ts", 2)]),
                  ("", "syntax", "", [("src/more.ts", 3)])],
    "tsc_pretty": [("Renamed", "import", "lib.util", [("src/main.ts", 1)]),
                   ("missing", "import", "lib", [("src/main.ts", 2)]),
                   ("upper", "member", "Parser", [("src/main.ts", 5)]),
                   ("", "signature", "", [("src/main.ts", 6), ("src/lib/util.ts", 5)]),
                   ("helper", "undefined", "", [("src/main.ts", 7)]),
                   ("", "syntax", "", [("src/main.ts", 8)]),
                   ("", "syntax", "", [("src/more.ts", 2)]),
                   ("joined", "member", "util", [("src/more.ts", 2), ("src/lib/util.ts", 5)]),
                   ("", "syntax", "", [("src/more.ts", 3)])],
    # tclsh: the name qualified by its namespace; no place (a procedure's line
    # counts from its body, the file's is the outermost caller's)
    "tcl_command": [("product", "undefined", "shapes", [])],
    "tcl_variable": [("count", "undefined", "", [])],
    # perl: the sub qualified by its package, and the call's place
    "perl_undefined": [("product", "undefined", "Shapes", [("lib/Shapes.pm", 3)])],
    # lua: the function that is nil, where it was called
    "lua_nil_call": [("product", "undefined", "", [("lib/shapes.lua", 3)])],
    # a name defined twice: the new definition's place, then the other one's
    "gcc_redefinition": [("helper", "redefined", "", [("a.c", 7), ("a.c", 1)]),
                         ("value", "redefined", "", [("a.c", 10), ("a.c", 5)])],
    "gxx_redefinition": [("helper", "redefined", "ns", [("b.cpp", 5), ("b.cpp", 2)]),
                         ("f", "redefined", "W", [("b.cpp", 6), ("b.cpp", 4)]),
                         ("count", "redefined", "ns", [("b.cpp", 8), ("b.cpp", 7)])],
    "ld_multiple": [("helper", "redefined", "", [("y.c", 1), ("x.c", 1)]),
                    ("shared", "redefined", "", [("y.c", 2), ("x.c", 2)])],
    "ld_multiple_nodebug": [("helper", "redefined", "", [("y.c", 0), ("x.c", 0)]),
                            ("shared", "redefined", "", [])],
    "rustc_redefined": [("helper", "redefined", "", [("r.rs", 2)])],
    "javac_already": [("helper", "redefined", "Dup", [("Dup.java", 3)]),
                      ("count", "redefined", "Dup", [("Dup.java", 5)])],
    # Node's file:line above the source line and its caret: the place
    "node_redeclared": [("count", "redefined", "", [("n.js", 3)])],
    "node_syntax": [("", "syntax", "", [("nsx/lib.js", 3), ("nsx/main.js", 1)])],
}


def test_every_error_text_is_covered() -> None:
    assert {p.stem for p in ERRORS.glob("*.txt")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_error_texts_read_as_diagnostics(name: str) -> None:
    found = parse_diagnostics((ERRORS / f"{name}.txt").read_text(encoding="utf-8"))
    got = [(d.name, d.kind, d.qualifier, [(loc.path, loc.line) for loc in d.locations])
           for d in found]
    assert len(got) == len(EXPECTED[name]), got
    for (g_name, g_kind, g_qual, g_locs), (name_, kind, qual, locs) in zip(
            got, EXPECTED[name], strict=True):
        assert (g_name, g_kind, g_qual) == (name_, kind, qual)
        assert len(g_locs) == len(locs)
        for (path, line), (suffix, want) in zip(g_locs, locs, strict=True):
            assert path.endswith(suffix) and line == want, (path, line)


def test_readers_are_linear_in_the_output() -> None:
    """A 1 MB line reads at once; 10 MB of output take about ten times as long as
    1 MB of the same (a quadratic reader would take a hundred times as long)."""
    line = "x.c:1:1: error: '" + "a" * 1_000_000 + " undeclared ‘" * 3 + "\n"
    assert parse_diagnostics(line) == [Diagnostic("", "syntax", "", (Location("x.c", 1),))]
    chunk = ("Traceback (most recent call last):\n" + '  File "/w/pkg/m.py", line 3, in f\n'
             * 3 + "TypeError: " + "a." * 40 + "\n" + "m.c:4:1: error: 'b" + "b" * 200
             + "' undeclared\n" + "undefined reference to `" + "c" * 300 + "\n")

    def seconds(size: int) -> float:
        text = (chunk * (size // len(chunk) + 1))[:size]
        started = time.monotonic()
        parse_diagnostics(text)
        return time.monotonic() - started

    one, ten = seconds(1_000_000), seconds(10_000_000)
    assert ten < 30 * max(one, 0.01), (one, ten)


def test_places_a_message_marks_are_told_from_a_stack() -> None:
    """rustc's labels of one error (its own spans) lead nowhere outward, unlike
    Node's frames: the repair read up a stack is not read up them."""
    rust = [d for d in parse_diagnostics((ERRORS / "rustc_resolve.txt").read_text("utf-8"))
            if not d.name and len(d.locations) > 1]
    node = parse_diagnostics((ERRORS / "node_cannot_read.txt").read_text("utf-8"))
    assert rust and all(d.spans for d in rust)
    assert node and not any(d.spans for d in node)


def test_rustc_reader_is_linear_in_the_output() -> None:
    """rustc's shape (message, then `-->`, then a help's quoted line) at 1 MB and
    10 MB of output: about ten times as long, and a 1 MB message reads at once."""
    text = (ERRORS / "rustc_resolve.txt").read_text(encoding="utf-8")
    long = "error[E0599]: no method named `" + "a" * 1_000_000 + " found for `x\n --> a.rs:1:1\n"
    assert parse_diagnostics(long) == [Diagnostic("", "syntax", "", (Location("a.rs", 1),))]

    def seconds(size: int) -> float:
        started = time.monotonic()
        parse_diagnostics((text * (size // len(text) + 1))[:size])
        return time.monotonic() - started

    one, ten = seconds(1_000_000), seconds(10_000_000)
    assert ten < 30 * max(one, 0.01), (one, ten)


def test_rustc_reader_is_linear_in_distinct_errors() -> None:
    """A build that reports thousands of different errors (each kept once, in order)
    reads in time linear in their number, not in its square."""
    def errors(n: int) -> str:
        return "".join(f"error[E0425]: cannot find function `f{i}` in this scope\n"
                       f" --> src/lib.rs:{i + 1}:5\n" for i in range(n))

    def seconds(n: int) -> float:
        started = time.monotonic()
        found = parse_diagnostics(errors(n))
        assert [d.name for d in found] == [f"f{i}" for i in range(n)]
        return time.monotonic() - started

    one, ten = seconds(2_000), seconds(20_000)
    assert ten < 30 * max(one, 0.01), (one, ten)


def test_a_macro_call_that_does_not_fit_points_at_the_macro() -> None:
    """gcc's own words (from a real build of libyaml with one hunk of a macro change)."""
    output = ('src/api.c: In function \u2018yaml_parser_initialize\u2019:\n'
              'src/api.c:180:78: error: macro "QUEUE_INIT" passed 4 arguments, but takes '
              'just 3\n'
              '  180 |     if (!QUEUE_INIT(parser, parser->tokens, INITIAL_QUEUE_SIZE, x*))\n'
              'In file included from src/api.c:2:\n'
              'src/yaml_private.h:456: note: macro "QUEUE_INIT" defined here\n')
    assert parse_diagnostics(output) == [Diagnostic("QUEUE_INIT", "signature", "", (
        Location("src/api.c", 180), Location("src/yaml_private.h", 456)))]


def c_project(make_repo, context: int = 0):
    """ini.c: parse() gains a local `offset` in one hunk and reads it in another;
    four other functions use locals of their own named `offset` in their own hunks.
    lib.h gains a prototype that main.c starts calling."""
    others = b"".join(b"int other%d(int n) {\n    int offset = n;\n" % i + PAD
                      + b"    return offset;\n}\n" for i in range(4))
    others_bad = b"".join(b"int other%d(int n) {\n    int offset = n + 1;\n" % i + PAD
                          + b"    return offset * 2;\n}\n" for i in range(4))
    good = {
        "ini.c": b"#include \"lib.h\"\nint parse(const char *s) {\n    int n = 0;\n" + PAD
        + b"    return n + s[0];\n}\n" + others,
        "lib.h": b"int parse(const char *s);\n" + PAD,
        "main.c": b"#include \"lib.h\"\n" + PAD + b"int main(void) { return parse(\"a\"); }\n",
    }
    bad = {
        "ini.c": b"#include \"lib.h\"\nint parse(const char *s) {\n    int n = 0, offset = 1;\n"
        + PAD + b"    return n + s[offset];\n}\n" + others_bad,
        "lib.h": b"int parse(const char *s);\n" + PAD + b"int count(const char *s);\n",
        "main.c": b"#include \"lib.h\"\n" + PAD
        + b"int main(void) { return parse(\"a\") + count(\"b\"); }\n",
    }
    repo = make_repo("cproject")
    good_sha, bad_sha = repo.commit(good), repo.commit(bad)
    return read_diff(repo.path, good_sha, bad_sha, context=context)


def hunk_of(diff: Diff, path: str, text: str) -> int:
    return next(c.id for c in diff.changes if c.path == path and c.hunk
                and text in c.hunk.text)


def run_config(diff: Diff, applied: set[int] | frozenset[int], where: Path,
               command: list[str], env: dict[str, str] | None = None
               ) -> subprocess.CompletedProcess[str]:
    """Write the configuration's files under ``where`` and run ``command`` there."""
    for path, state in tree_states(diff, applied).items():
        if state is not None:
            (where / path).write_bytes(state.data)
    return subprocess.run(command, cwd=where, capture_output=True, text=True, env=env,
                          check=False)


C_LOCALE = {"LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"}  # the compilers' messages in English


def build_errors(diff: Diff, applied: frozenset[int], where: Path, command: list[str]) -> str:
    """The real error output of ``command`` (a compiler, the linker) on the
    configuration's files, which must not build."""
    proc = run_config(diff, applied, where, command, env=C_LOCALE)
    assert proc.returncode != 0
    return proc.stderr


def compile_config(diff: Diff, applied: frozenset[int], where: Path,
                   flags: tuple[str, ...] = ("-Werror=implicit-function-declaration",)) -> str:
    """Write the configuration's files and compile them with gcc: its real output."""
    return build_errors(diff, applied, where, ["gcc", "-fsyntax-only", *flags, "ini.c", "main.c"])


def resolver_for(diff: Diff) -> Resolver:
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    declared = {c.id: hunk_declarations(c, diff.files[c.file]) for c in diff.changes}
    readings = {fd.index: analyse_file(fd) for fd in diff.files}
    scopes = {c.id: f"{c.file}:{name}" for c in diff.changes  # as the analysis gives them
              if (name := enclosing_scope(c, readings[c.file]))}
    return Resolver(symbols, scopes=scopes, diff=diff, declared=declared)


def test_undeclared_local_is_repaired_by_its_declaration_only(make_repo, tmp_path) -> None:
    """gcc's `'offset' undeclared` in parse() adds the hunk that declares it there,
    not the five other hunks that mention `offset`."""
    diff = c_project(make_repo)
    declare = hunk_of(diff, "ini.c", "+    int n = 0, offset = 1;")
    use = hunk_of(diff, "ini.c", "+    return n + s[offset];")
    assert sum(1 for c in diff.changes if c.hunk and "offset" in c.hunk.text) == 10
    output = compile_config(diff, frozenset({use}), tmp_path)
    assert "undeclared" in output
    resolution = resolver_for(diff).resolve(output, {use})
    assert resolution.add == {declare}
    assert (use, declare) in resolution.learned


def member_repo(make_repo, moved: bool):
    """node.h's struct loses ``content``; a.c's f and b.c's g stop using it, each in
    a hunk of its own. With ``moved``, another hunk of node.h declares ``content``
    again, further down the struct (a member moved, not taken away)."""
    tail = b"    int content;\n" if moved else b""
    def files(member: bytes, last: bytes) -> dict[str, bytes]:
        return {"node.h": b"struct node {\n    int %s;\n" % member + PAD
                + b"    int len;\n" + last + b"};\n",
                "a.c": b'#include "node.h"\nint f(struct node *n) {\n    return n->%s;\n}\n'
                % (b"content" if member == b"content" else b"len"),
                "b.c": b'#include "node.h"\nint g(struct node *n) {\n' + PAD
                + b"    return n->%s + 1;\n}\n" % (b"content" if member == b"content"
                                                   else b"len")}
    repo = make_repo("member")
    good, bad = repo.commit(files(b"content", b"")), repo.commit(files(b"data", tail))
    return read_diff(repo.path, good, bad, context=0)


@pytest.mark.parametrize("moved", [False, True])
def test_a_member_taken_away_needs_each_change_whose_old_line_uses_it(
        make_repo, tmp_path, moved: bool) -> None:
    """gcc's `has no member named 'content'` on b.c's old line, with the struct's
    change and a.c's applied: the struct's change needs b.c's, which rewrites
    that line. Not where another change declares the member again: moved, it is
    there with that change."""
    diff = member_repo(make_repo, moved)
    struct = hunk_of(diff, "node.h", "+    int data;")
    a, b = hunk_of(diff, "a.c", "n->len"), hunk_of(diff, "b.c", "n->len")
    applied = frozenset({struct, a})
    output = build_errors(diff, applied, tmp_path, ["gcc", "-fsyntax-only", "a.c", "b.c"])
    assert "has no member named" in output
    assert resolver_for(diff).removal_needs(output, applied) == (
        set() if moved else {(struct, b)})


def test_implicit_declaration_is_repaired_by_the_prototype(make_repo, tmp_path) -> None:
    diff = c_project(make_repo)
    call = hunk_of(diff, "main.c", "count(")
    prototype = hunk_of(diff, "lib.h", "+int count")
    output = compile_config(diff, frozenset({call}), tmp_path)
    assert resolver_for(diff).resolve(output, {call}).add == {prototype}


def test_a_warning_is_read_as_a_warning(make_repo, tmp_path) -> None:
    """Where an implicit declaration is only a warning (gcc before 14 without
    -Werror), the diagnostic says so; it is still repaired with the error beside
    it (a function declared implicitly returns int: a pointer it returns breaks
    the program even though it builds)."""
    diff = c_project(make_repo)
    call = hunk_of(diff, "main.c", "count(")
    use = hunk_of(diff, "ini.c", "+    return n + s[offset];")
    declare = hunk_of(diff, "ini.c", "+    int n = 0, offset = 1;")
    prototype = hunk_of(diff, "lib.h", "+int count")
    output = compile_config(diff, frozenset({call, use}), tmp_path,
                            flags=("-std=gnu89", "-Wimplicit-function-declaration"))
    assert "warning: implicit declaration of function" in output and "undeclared" in output
    found = parse_diagnostics(output)
    assert [(d.name, d.severity) for d in found] == [("offset", "error"), ("count", "warning")]
    assert resolver_for(diff).resolve(output, {call, use}).add == {declare, prototype}


def test_a_definition_moved_is_repaired_by_the_removal_of_the_old_one(make_repo,
                                                                    tmp_path) -> None:
    """A function moved to another file: with the new definition alone the
    linker says `multiple definition of 'helper'`, repaired by the hunk that
    removes the old one, not by the call's; with the removal alone, the
    undefined reference is repaired by the new definition."""
    good = {"a.c": b"int helper(int x) {\n    return x + 1;\n}\n" + PAD
            + b"int keep_a(void) { return 1; }\n",
            "b.c": b"int keep_b(void) { return 2; }\n" + PAD,
            "main.c": b"int helper(int x);\n" + PAD + b"int main(void) { return helper(1); }\n"}
    bad = {"a.c": PAD + b"int keep_a(void) { return 1; }\n",
           "b.c": b"int keep_b(void) { return 2; }\n" + PAD
           + b"int helper(int x) {\n    return x + 2;\n}\n",
           "main.c": b"int helper(int x);\n" + PAD + b"int main(void) { return helper(2); }\n"}
    repo = make_repo("moved")
    diff = read_diff(repo.path, repo.commit(good), repo.commit(bad), context=0)
    removal = hunk_of(diff, "a.c", "-int helper")
    addition = hunk_of(diff, "b.c", "+int helper")
    call = hunk_of(diff, "main.c", "helper(2)")

    def linked(applied: frozenset[int]) -> str:
        return build_errors(diff, applied, tmp_path, ["gcc", "-o", "prog", "a.c", "b.c", "main.c"])

    output = linked(frozenset({addition, call}))
    assert "multiple definition of" in output
    assert resolver_for(diff).resolve(output, {addition, call}).add == {removal}
    output = linked(frozenset({removal, call}))
    assert resolver_for(diff).resolve(output, {removal, call}).add == {addition}


def cxx_project(make_repo):
    """widget.h's class Widget gains a member `depth` and a method `resize`;
    widget.cpp's measure() starts reading the member and defines the method, in
    hunks of their own; two other functions of widget.cpp declare and change
    locals named `depth` (the name is in four hunks)."""
    def locals_(bad: bool) -> bytes:
        return b"".join(b"int other%d(int n) {\n    int depth = n%s;\n" % (i, b" + 1" if bad
                                                                          else b"")
                        + PAD + b"    return depth;\n}\n" for i in range(2))
    head = b"namespace ns {\nclass Widget {\npublic:\n    int size;\n" + PAD
    good = {"widget.h": head + b"    int measure() const;\n};\n}\n",
            "widget.cpp": b"#include \"widget.h\"\nnamespace ns {\n"
            b"int Widget::measure() const {\n    return size;\n}\n" + PAD + locals_(False)
            + b"}\n"}
    bad = {"widget.h": head + b"    int depth;\n    int measure() const;\n" + PAD
           + b"    void resize(int n);\n};\n}\n",
           "widget.cpp": b"#include \"widget.h\"\nnamespace ns {\n"
           b"int Widget::measure() const {\n    return size + depth;\n}\n" + PAD
           + b"void Widget::resize(int n) { size = n; }\n" + locals_(True) + b"}\n"}
    repo = make_repo("cxxproject")
    return read_diff(repo.path, repo.commit(good), repo.commit(bad), context=0)


def compile_cxx(diff: Diff, applied: frozenset[int], where: Path, compiler: str) -> str:
    """The configuration's widget.cpp compiled by ``compiler``: its real errors."""
    return build_errors(diff, applied, where, [compiler, "-fsyntax-only", "widget.cpp"])


@pytest.mark.parametrize("compiler", ["g++", "clang++"])
def test_a_cxx_member_is_repaired_by_its_declaration_in_the_class(
        make_repo, tmp_path, compiler: str) -> None:
    """A member read in a member function, and a method defined outside its class,
    before the header declares them: g++'s `'depth' was not declared in this
    scope` (in `int ns::Widget::measure() const`) and `no declaration matches`,
    clang++'s `use of undeclared identifier` and `out-of-line definition`, add
    the header's hunks that declare them in class Widget, and none of the hunks
    of other functions whose locals are named `depth`."""
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed")
    diff = cxx_project(make_repo)
    member = hunk_of(diff, "widget.h", "+    int depth;")
    method = hunk_of(diff, "widget.h", "+    void resize")
    read = hunk_of(diff, "widget.cpp", "+    return size + depth;")
    defined = hunk_of(diff, "widget.cpp", "+void Widget::resize")
    assert sum(1 for c in diff.changes if c.hunk and b"depth" in c.hunk.text.encode()) == 4
    resolver = resolver_for(diff)
    output = compile_cxx(diff, frozenset({read}), tmp_path, compiler)
    assert resolver.resolve(output, {read}).add == {member}
    output = compile_cxx(diff, frozenset({defined}), tmp_path, compiler)
    assert resolver.resolve(output, {defined}).add == {method}


def test_a_static_member_of_an_exported_class_is_repaired_by_its_declaration(
        make_repo, tmp_path) -> None:
    """A library's header, read as C++ although it is a ``.h`` file, declares its
    class with an export macro (``class WIDGET_API Widget``, which C++'s grammar
    alone reads as a function named Widget). widget.cpp defines a static member
    the header declares in another hunk: g++'s `is not a static data member of
    'class ns::Widget'` adds that hunk, not the other hunks that name `label`."""
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed")
    head = b"#define WIDGET_API\nnamespace ns {\nclass WIDGET_API Widget\n{\npublic:\n" + PAD
    tail = b"};\n}\n"
    others = b"".join(b"int other%d(int n) {\n    int label = n;\n" % i + PAD
                      + b"    return label;\n}\n" for i in range(2))
    good = {"widget.h": head + tail,
            "widget.cpp": b"#include \"widget.h\"\nnamespace ns {\n" + PAD + others + b"}\n"}
    bad = {"widget.h": head + b"    static const char* label;\n" + tail,
           "widget.cpp": b"#include \"widget.h\"\nnamespace ns {\n"
           b"const char* Widget::label = \"w\";\n" + PAD
           + others.replace(b"int label = n;", b"int label = n + 1;") + b"}\n"}
    repo = make_repo("exported")
    diff = read_diff(repo.path, repo.commit(good), repo.commit(bad), context=0)
    declared = hunk_of(diff, "widget.h", "+    static const char* label;")
    defined = hunk_of(diff, "widget.cpp", "+const char* Widget::label")
    output = compile_cxx(diff, frozenset({defined}), tmp_path, "g++")
    assert "is not a static data member" in output
    assert resolver_for(diff).resolve(output, {defined}).add == {declared}


def python_package(make_repo):
    """Six modules each define f0..f5; m02 renames f3 to f3_v2, m04 starts calling
    m02.f3_v2; every module's f1 changes too (the names are everywhere)."""
    def module(i: int, bad: bool) -> bytes:
        body = b"".join(b"def f%d():\n    return %d\n\n" % (k, k * (2 if bad and k == 1 else 1))
                        for k in range(6) if not (bad and i == 2 and k == 3))
        if bad and i == 2:
            body += b"def f3_v2():\n    return 3\n"
        if i == 4:
            body = b"from pkg import m02\n" + body + (
                b"\nVALUE = m02.f3_v2()\n" if bad else b"\nVALUE = m02.f3()\n")
        return body
    repo = make_repo("names")
    files = {f"pkg/m0{i}.py": module(i, False) for i in range(6)}
    good = repo.commit({"pkg/__init__.py": b"", **files})
    bad = repo.commit({"pkg/__init__.py": b"",
                       **{f"pkg/m0{i}.py": module(i, True) for i in range(6)}})
    return repo, read_diff(repo.path, good, bad, context=0)


def test_qualified_name_is_repaired_in_its_module_only(make_repo, tmp_path) -> None:
    """Python's `module 'pkg.m02' has no attribute 'f3_v2'` adds m02's definition."""
    repo, diff = python_package(make_repo)
    call = hunk_of(diff, "pkg/m04.py", "+VALUE = m02.f3_v2()")
    define = hunk_of(diff, "pkg/m02.py", "+def f3_v2")
    for path, state in tree_states(diff, {call}).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        if state is not None:
            (tmp_path / path).write_bytes(state.data)
    proc = subprocess.run(["python3", "-c", "import pkg.m04"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert "has no attribute 'f3_v2'" in proc.stderr
    assert resolver_for(diff).resolve(proc.stderr, {call}).add == {define}


def js_rules(make_repo):
    """lib.js: the key ``paragraph`` of an object becomes ``_paragraph`` in one
    hunk, the line that reads it in another; an unchanged helper reads the value."""
    def lib(key: bytes) -> bytes:
        return (b"var rules = {\n  %s: /^p/,\n  text: /^t/\n};\n" % key + PAD
                + b"rules.para = edit(rules.%s);\n" % key + PAD
                + b"function edit(regex) {\n  return regex.source;\n}\nmodule.exports = rules;\n")
    repo = make_repo("jsrules")
    good = repo.commit({"lib.js": lib(b"paragraph")})
    bad = repo.commit({"lib.js": lib(b"_paragraph")})
    return read_diff(repo.path, good, bad, context=0)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_a_nameless_error_is_repaired_at_the_changed_frame(make_repo, tmp_path) -> None:
    """Node's `Cannot read properties of undefined` names no identifier; its
    innermost frame is an unchanged helper, the next one a GOOD line that the
    other hunk rewrites: that hunk repairs it. Thrown while the module loads
    (under require), it counts as the configuration not building."""
    diff = js_rules(make_repo)
    key = hunk_of(diff, "lib.js", "+  _paragraph: /^p/,")
    read = hunk_of(diff, "lib.js", "+rules.para = edit(rules._paragraph);")
    proc = run_config(diff, {key}, tmp_path, ["node", "-e", "require('./lib.js')"])
    assert "TypeError: Cannot read properties of undefined" in proc.stderr
    assert is_construction_failure(proc.stderr)
    assert resolver_for(diff).resolve(proc.stderr, {key}).add == {read}


def js_helper(make_repo):
    """lib.js: one hunk renames the key ``para`` to ``_para`` and makes ``html`` a
    string, another rewrites the line that reads ``para``, a third lets the helper
    ``edit`` take a string; ``edit`` reads the value on an unchanged line."""
    def lib(bad: bool) -> bytes:
        para = b"_para" if bad else b"para"
        html = b"'^h'" if bad else b"/^h/"
        source = b"regex.source || regex" if bad else b"regex.source"
        return (b"var rules = {\n  %s: /^p/,\n  html: %s\n};\n" % (para, html) + PAD
                + b"rules.para = edit(rules.%s);\nrules.html = edit(rules.html);\n" % para
                + PAD + b"function edit(regex) {\n  regex = %s;\n" % source
                + b"  return regex.replace('^', '');\n}\nmodule.exports = rules;\n")
    repo = make_repo("jshelper")
    good, bad = repo.commit({"lib.js": lib(False)}), repo.commit({"lib.js": lib(True)})
    return read_diff(repo.path, good, bad, context=0)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
@pytest.mark.parametrize(("applied", "read_of", "repair"), [
    # the value is read on the helper's line that an applied hunk rewrote; the
    # frame above it, a GOOD line that a hunk not applied rewrites (the caller
    # still reads the old key), names the repair
    (("keys", "helper"), "source", "read"),
    # the value is read on an unchanged line of the helper, called from an
    # unchanged line: the hunk not applied of that function (where the value
    # is made) repairs it
    (("keys", "read"), "replace", "helper"),
], ids=["by its caller", "in its function"])
def test_a_nameless_error_is_repaired_up_its_stack(
        make_repo, tmp_path, applied, read_of, repair) -> None:
    diff = js_helper(make_repo)
    hunks = {"keys": hunk_of(diff, "lib.js", "+  _para: /^p/,"),
             "read": hunk_of(diff, "lib.js", "+rules.para = edit(rules._para);"),
             "helper": hunk_of(diff, "lib.js", "regex.source || regex")}
    config = {hunks[name] for name in applied}
    proc = run_config(diff, config, tmp_path, ["node", "-e", "require('./lib.js')"])
    assert f"TypeError: Cannot read properties of undefined (reading '{read_of}')" in proc.stderr
    assert resolver_for(diff).resolve(proc.stderr, config).add == {hunks[repair]}


def java_overload(make_repo):
    """Num.java gains an overload of ``convert`` with a third parameter in one
    hunk; a new method in another hunk calls it; other hunks change other methods."""
    def num(bad: bool) -> bytes:
        overload = (b"    static long convert(Object o, long d, boolean exact) {\n"
                    b"        return exact ? d : 0;\n    }\n" if bad else b"")
        caller = (b"    static boolean same(Object a) {\n        return convert(a, 0, false) == 0;"
                  b"\n    }\n" if bad else b"")
        others = b"".join(b"    static int other%d(int n) {\n        return n + %d;\n    }\n"
                          % (i, i + (1 if bad else 0)) + PAD.replace(b"/*", b"    /*")
                          for i in range(3))
        return (b"public class Num {\n    static long convert(Object o, long d) {\n"
                b"        return d;\n    }\n" + overload + PAD.replace(b"/*", b"    /*")
                + others + caller + b"}\n")
    repo = make_repo("javaoverload")
    good, bad = repo.commit({"Num.java": num(False)}), repo.commit({"Num.java": num(True)})
    return read_diff(repo.path, good, bad, context=0)


@pytest.mark.skipif(shutil.which("javac") is None, reason="needs javac")
def test_a_call_that_fits_no_java_declaration_is_repaired_by_the_overload(
        make_repo, tmp_path) -> None:
    """javac's `method convert in class Num cannot be applied to given types`
    adds the hunk that declares the overload the call needs."""
    diff = java_overload(make_repo)
    overload = hunk_of(diff, "Num.java", "boolean exact")
    call = hunk_of(diff, "Num.java", "convert(a, 0, false)")
    proc = run_config(diff, {call}, tmp_path, ["javac", "-d", str(tmp_path / "out"), "Num.java"])
    assert "cannot be applied to given types" in proc.stderr
    assert resolver_for(diff).resolve(proc.stderr, {call}).add == {overload}


def tcl_rename(make_repo):
    """lib/shapes.tcl renames ``shapes::product`` to ``shapes::multiply`` in one
    hunk and its caller ``shapes::area`` in another; ``shapes::grow`` changes in
    a hunk of its own, and main.tcl changes."""
    pad = PAD.replace(b"/*", b"#").replace(b"*/", b"")

    def shapes(name: bytes, step: bytes) -> bytes:
        return (b"namespace eval shapes {}\nproc shapes::%s {a b} {\n"
                b"    return [expr {$a * $b}]\n}\n" % name + pad
                + b"proc shapes::area {w h} {\n    return [shapes::%s $w $h]\n}\n" % name + pad
                + b"proc shapes::grow {w} {\n    return [expr {$w + %s}]\n}\n" % step)
    main = b"source lib/shapes.tcl\nputs [shapes::area 2 %s]\n"
    repo = make_repo("tclrename")
    good = repo.commit({"lib/shapes.tcl": shapes(b"product", b"1"), "main.tcl": main % b"3"})
    bad = repo.commit({"lib/shapes.tcl": shapes(b"multiply", b"2"), "main.tcl": main % b"4"})
    return read_diff(repo.path, good, bad, context=0)


@pytest.mark.skipif(shutil.which("tclsh") is None, reason="needs tclsh")
def test_a_tcl_command_renamed_is_repaired_by_its_new_definition(make_repo, tmp_path) -> None:
    """tclsh's `invalid command name "shapes::multiply"` adds the hunk that defines
    it, not the other hunks of the file."""
    diff = tcl_rename(make_repo)
    define = hunk_of(diff, "lib/shapes.tcl", "proc shapes::multiply")
    call = hunk_of(diff, "lib/shapes.tcl", "[shapes::multiply $w $h]")
    (tmp_path / "lib").mkdir()
    proc = run_config(diff, {call}, tmp_path, ["tclsh", "main.tcl"])
    assert 'invalid command name "shapes::multiply"' in proc.stderr
    assert resolver_for(diff).resolve(proc.stderr, {call}).add == {define}


@pytest.mark.skipif(shutil.which("perl") is None, reason="needs perl")
def test_a_perl_sub_renamed_is_repaired_by_its_new_definition(make_repo, tmp_path) -> None:
    """The same rename in a Perl module: perl's `Undefined subroutine
    &Shapes::multiply called at lib/Shapes.pm line N.` adds the hunk that defines
    it, not the other hunks of the module."""
    pad = PAD.replace(b"/*", b"#").replace(b"*/", b"")

    def shapes(name: bytes, step: bytes) -> bytes:
        return (b"package Shapes;\nuse strict;\nsub %s { my ($a, $b) = @_; return $a * $b; }\n"
                % name + pad + b"sub area { my ($w, $h) = @_; return %s($w, $h); }\n" % name
                + pad + b"sub grow { my ($w) = @_; return $w + %s; }\n1;\n" % step)
    main = b"use strict;\nuse lib 'lib';\nuse Shapes;\nprint Shapes::area(2, %s), \"\\n\";\n"
    repo = make_repo("perlrename")
    good = repo.commit({"lib/Shapes.pm": shapes(b"product", b"1"), "main.pl": main % b"3"})
    bad = repo.commit({"lib/Shapes.pm": shapes(b"multiply", b"2"), "main.pl": main % b"4"})
    diff = read_diff(repo.path, good, bad, context=0)
    define = hunk_of(diff, "lib/Shapes.pm", "sub multiply")
    call = hunk_of(diff, "lib/Shapes.pm", "return multiply($w, $h)")
    (tmp_path / "lib").mkdir()
    proc = run_config(diff, {call}, tmp_path, ["perl", "main.pl"])
    assert "Undefined subroutine &Shapes::multiply called at lib/Shapes.pm line" in proc.stderr
    assert is_construction_failure(proc.stderr)
    assert resolver_for(diff).resolve(proc.stderr, {call}).add == {define}


def test_a_lua_function_called_before_it_is_defined_is_repaired_by_its_definition(
        make_repo) -> None:
    """lib/shapes.lua's area() starts calling shapes.product, which another hunk
    defines: lua's `lib/shapes.lua:3: attempt to call a nil value (field
    'product')` (tests/errors/lua_nil_call.txt, printed by lua 5.4.6 for the
    configuration with the call alone) adds the hunk that defines it."""
    pad = b"".join(b"-- filler %d\n" % i for i in range(8))
    head = b"local shapes = {}\nfunction shapes.area(w, h)\n"
    repo = make_repo("luacall")
    grow = b"function shapes.grow(w)\n  return w + 1\nend\n"
    good = repo.commit({"lib/shapes.lua": head + b"  return w * h\nend\n" + pad + grow
                        + b"return shapes\n"})
    bad = repo.commit({"lib/shapes.lua": head + b"  return shapes.product(w, h)\nend\n" + pad
                       + grow + b"-- the product\nfunction shapes.product(a, b)\n"
                       b"  return a * b\nend\nreturn shapes\n"})
    diff = read_diff(repo.path, good, bad, context=0)
    define = hunk_of(diff, "lib/shapes.lua", "function shapes.product")
    call = hunk_of(diff, "lib/shapes.lua", "return shapes.product(w, h)")
    output = (ERRORS / "lua_nil_call.txt").read_text(encoding="utf-8")
    assert resolver_for(diff).resolve(output, {call}).add == {define}


def test_node_reference_errors_are_construction_failures() -> None:
    """ReferenceError is Node's NameError; an assertion that fails is a test failing."""
    assert is_construction_failure((ERRORS / "node_reference.txt").read_text(encoding="utf-8"))
    assert not is_construction_failure(
        "AssertionError [ERR_ASSERTION]: 1 == 2\n    at Object.<anonymous> (/w/t.js:3:8)\n"
        "    at Module._compile (node:internal/modules/cjs/loader:1521:14)\n")


@pytest.mark.parametrize("name", ["tcl_command.txt", "tcl_variable.txt", "perl_undefined.txt",
                                  "lua_nil_call.txt"])
def test_names_missing_at_run_time_are_construction_failures(name: str) -> None:
    """tclsh's `invalid command name` and `no such variable`, Perl's `Undefined
    subroutine`, Lua's `attempt to call a nil value`: a name the configuration
    lacks, as Python's NameError, so that the search repairs such a run rather
    than taking it as built."""
    assert is_construction_failure((ERRORS / name).read_text(encoding="utf-8"))


def test_construction_words_are_found_as_plain_words() -> None:
    """Every word of the leading group of CONSTRUCTION_ERRORS, escaped ones
    (go test's ``[build failed]``) included, is looked for with ``in``: a word
    the pattern escapes must not send every output through the regex."""
    words = resolve.CONSTRUCTION_ERRORS.pattern.partition(")|")[0][1:].split("|")
    assert len(resolve._PLAIN) == len(words)
    assert {"[build failed]", "error TS", "error: "} <= set(resolve._PLAIN)
    assert is_construction_failure("FAIL\texample.com/x [build failed]\n")


def test_a_name_defined_everywhere_points_nowhere(make_repo) -> None:
    _, diff = python_package(make_repo)
    users = frozenset(c.id for c in diff.changes if c.path == "pkg/m04.py")
    assert resolver_for(diff).resolve("NameError: name 'f1' is not defined", users).add == set()


@pytest.mark.parametrize("context", [0, 3])
def test_lines_of_a_configuration_map_back_to_their_hunks(make_repo, context: int) -> None:
    """Every line of every file under a configuration is either a line an applied
    hunk added, a GOOD line an unapplied hunk removes, or a line no hunk changes
    (context lines included)."""
    diff = c_project(make_repo, context)
    fd = next(fd for fd in diff.files if fd.new_path == "ini.c")
    ids = sorted(c.id for c in fd.changes)
    assert fd.old is not None and fd.new is not None
    old_lines, new_lines = split_lines(fd.old.data), split_lines(fd.new.data)
    for applied in (frozenset(ids[::2]), frozenset(ids[1::2]), frozenset(), frozenset(ids)):
        state = tree_states(diff, applied)["ini.c"]
        assert state is not None
        for number, text in enumerate(split_lines(state.data), start=1):
            where = place(diff, applied, "/scratch/w/ini.c", number)
            assert where is not None and where.file == fd.index
            if where.change is not None and where.applied:
                assert text in new_lines
                hunk = diff.changes[where.change].hunk
                assert hunk is not None and ("+" + text.decode()).rstrip("\n") in hunk.text
            elif where.change is not None:
                hunk = diff.changes[where.change].hunk
                assert hunk is not None and ("-" + text.decode()).rstrip("\n") in hunk.text
            else:
                assert text in old_lines and text in new_lines


def test_a_name_from_a_system_header_is_repaired_by_the_include_that_brings_it(
        make_repo, tmp_path) -> None:
    """gcc's `'DBL_EPSILON' undeclared`: no change declares it (float.h does), so the
    hunk that adds `#include <float.h>` to the file of the error repairs it, not the
    include another file gains, nor the other hunks of the file. That is a guess a
    run checks: without a run, the error is no evidence that the include is needed."""
    body = b"int other(int n) {\n    return n;\n}\n" + PAD
    good = {"ini.c": b"#include <stdio.h>\n" + PAD + b"int parse(double a) {\n"
            b"    return a > 0;\n}\n" + PAD + body,
            "main.c": b"#include <stdio.h>\n" + PAD + b"int main(void) { return 0; }\n"}
    bad = {"ini.c": b"#include <stdio.h>\n#include <float.h>\n" + PAD
           + b"int parse(double a) {\n    return a > DBL_EPSILON;\n}\n" + PAD
           + body.replace(b"return n;", b"return n + 1;"),
           "main.c": b"#include <stdio.h>\n#include <math.h>\n" + PAD
           + b"int main(void) { return 0; }\n"}
    repo = make_repo("includes")
    diff = read_diff(repo.path, repo.commit(good), repo.commit(bad), context=0)
    include = hunk_of(diff, "ini.c", "+#include <float.h>")
    use = hunk_of(diff, "ini.c", "DBL_EPSILON;")
    output = compile_config(diff, frozenset({use}), tmp_path)
    assert "DBL_EPSILON" in output and "undeclared" in output
    resolver = resolver_for(diff)
    resolution = resolver.resolve(output, {use})
    assert resolution.add == {include}
    assert (use, include) in resolution.learned
    assert resolver.culprits(output, frozenset({use})) == frozenset()
    assert resolver.needs_shown(output, frozenset({use})) == frozenset()


def test_a_call_and_its_declaration_in_two_changes_are_observed_together(
        make_repo, tmp_path) -> None:
    """lib.h drops a parameter of parse() and main.c's call follows, in two hunks:
    with only the prototype applied, gcc's `too many arguments` at the old call and
    its `declared here` note name both changes, so the prototype is seen to need
    the call (observed, whatever the repair gives); with only the call applied,
    the other way round. A diagnostic that names one change only observes nothing."""
    good = {"lib.h": b"int parse(const char *s, int n);\n" + PAD,
            "ini.c": b"#include \"lib.h\"\nint parse(const char *s, int n) {\n"
            b"    return s[0] + n;\n}\n",
            "main.c": b"#include \"lib.h\"\n" + PAD
            + b"int main(void) { return parse(\"a\", 1); }\n"}
    bad = {"lib.h": b"int parse(const char *s);\n" + PAD,
           "ini.c": b"#include \"lib.h\"\nint parse(const char *s) {\n    return s[0];\n}\n",
           "main.c": b"#include \"lib.h\"\n" + PAD + b"int main(void) { return parse(\"a\"); }\n"}
    repo = make_repo("signature")
    diff = read_diff(repo.path, repo.commit(good), repo.commit(bad), context=0)
    prototype = hunk_of(diff, "lib.h", "+int parse")
    call = hunk_of(diff, "main.c", "+int main")
    definition = hunk_of(diff, "ini.c", "+int parse")
    resolver = resolver_for(diff)
    output = compile_config(diff, frozenset({prototype, definition}), tmp_path)
    assert "too many arguments" in output and "declared here" in output
    resolution = resolver.resolve(output, {prototype, definition})
    assert resolution.observed == ((prototype, call),)
    assert resolution.add == {call}
    output = compile_config(diff, frozenset({call}), tmp_path)
    assert "too few arguments" in output
    assert resolver.resolve(output, {call}).observed == ((call, prototype),)
    output = compile_config(diff, frozenset({prototype}), tmp_path)  # conflicting types
    observed = resolver.resolve(output, {prototype}).observed
    assert (definition, prototype) not in observed and (prototype, definition) in observed


def test_an_error_that_moved_down_is_the_same_error(make_repo, tmp_path) -> None:
    """A repair that brings lines above an error moves it down without repairing
    it: the loop must still see that the error it targeted came back (the same
    name, kind, qualifier and change at its line), and not take it for a new one."""
    good = {"ini.c": b"/* ini */\n" + PAD + b"int parse(const char *s) {\n    int n = 0;\n"
            + PAD + b"    return n + s[0];\n}\n",
            "main.c": b"int parse(const char *s);\nint main(void) { return parse(\"a\"); }\n"}
    bad = {"ini.c": b"/* ini, the parser */\n/* of INI files */\n" + PAD
           + b"int parse(const char *s) {\n    int n = 0, offset = 1;\n" + PAD
           + b"    return n + s[offset];\n}\n", "main.c": good["main.c"]}
    repo = make_repo("moved")
    diff = read_diff(repo.path, repo.commit(good), repo.commit(bad), context=0)
    top = hunk_of(diff, "ini.c", "+/* of INI files */")
    use = hunk_of(diff, "ini.c", "s[offset]")
    resolver = resolver_for(diff)
    first = compile_config(diff, frozenset({use}), tmp_path)
    targets = resolver.resolve(first, {use}).targets
    assert {t[0] for t in targets} == {"offset"}
    again = compile_config(diff, frozenset({use, top}), tmp_path)
    assert [d.locations[0].line for d in parse_diagnostics(again)] != [
        d.locations[0].line for d in parse_diagnostics(first)]
    assert resolver.reports_again(again, {use, top}, targets)
    assert not resolver.reports_again(again, {use, top}, {("offset", "undefined", "", None)})


def _rustc() -> str | None:
    """The toolchain's own rustc (not rustup's proxy, which reads $HOME), or None."""
    proxy = shutil.which("rustc") or next(
        (str(p) for p in [Path.home() / ".cargo/bin/rustc"] if p.is_file()), None)
    if proxy is None:
        return None
    proc = subprocess.run([proxy, "--print", "sysroot"], capture_output=True, text=True,
                          check=False)
    found = Path(proc.stdout.strip()) / "bin" / "rustc"
    return str(found) if proc.returncode == 0 and found.is_file() else None


RUSTC = _rustc()


def rust_counter(make_repo):
    """lib.rs: ``bump`` starts calling a new method ``advance`` that takes
    ``&mut self``; its signature becomes ``&mut self`` in a hunk of its own, the
    definition of ``advance`` arrives in a third; ``peek`` changes too."""
    def lib(bad: bool) -> bytes:
        return b"".join((
            b"pub struct Counter {\n    n: u64,\n}\n\nimpl Counter {\n",
            b"    pub fn bump(&mut self) -> u64 {\n" if bad else
            b"    pub fn bump(&self) -> u64 {\n",
            PAD.replace(b"/*", b"        /*"),
            b"        self.advance()\n" if bad else b"        self.n + 1\n",
            b"    }\n", PAD.replace(b"/*", b"    /*"),
            b"    fn advance(&mut self) -> u64 {\n        self.n += 1;\n        self.n\n    }\n"
            if bad else b"",
            PAD.replace(b"/*", b"    /*"),
            b"    pub fn peek(&self) -> u64 {\n",
            b"        self.n * 2\n" if bad else b"        self.n\n", b"    }\n}\n"))
    repo = make_repo("rustcounter")
    good = repo.commit({"src/lib.rs": lib(False)})
    bad = repo.commit({"src/lib.rs": lib(True)})
    return read_diff(repo.path, good, bad, context=0)


def rustc_config(diff: Diff, applied: set[int], where: Path) -> str:
    """The configuration's crate built with rustc: its real error output."""
    (where / "src").mkdir(exist_ok=True)
    assert RUSTC is not None
    proc = run_config(diff, applied, where, [RUSTC, "--edition", "2018", "--crate-type", "lib",
                                             "--out-dir", str(where), "src/lib.rs"])
    assert proc.returncode != 0
    return proc.stderr


@pytest.mark.skipif(RUSTC is None, reason="needs rustc")
def test_a_rust_method_called_before_it_is_defined_is_repaired_by_its_definition(
        make_repo, tmp_path) -> None:
    """rustc's `no method named `advance` found for reference `&Counter`` adds the
    hunk that defines the method inside the impl, not the other hunks."""
    diff = rust_counter(make_repo)
    call = hunk_of(diff, "src/lib.rs", "+        self.advance()")
    define = hunk_of(diff, "src/lib.rs", "+    fn advance(&mut self)")
    output = rustc_config(diff, {call}, tmp_path)
    assert "no method named `advance`" in output and is_construction_failure(output)
    assert resolver_for(diff).resolve(output, {call}).add == {define}


@pytest.mark.skipif(RUSTC is None, reason="needs rustc")
def test_a_nameless_rust_error_is_repaired_where_its_help_points(make_repo, tmp_path) -> None:
    """`cannot borrow `*self` as mutable` names no identifier and is reported on
    the call; its help quotes the line `pub fn bump(&mut self)`, which the
    signature's hunk rewrites: that hunk repairs it."""
    diff = rust_counter(make_repo)
    call = hunk_of(diff, "src/lib.rs", "+        self.advance()")
    define = hunk_of(diff, "src/lib.rs", "+    fn advance(&mut self)")
    signature = hunk_of(diff, "src/lib.rs", "+    pub fn bump(&mut self)")
    output = rustc_config(diff, {call, define}, tmp_path)
    assert "cannot borrow `*self` as mutable" in output
    assert resolver_for(diff).resolve(output, {call, define}).add == {signature}


@pytest.mark.parametrize("language, source, expected", [
    ("typescript", b"export function concat(a: string) {\n  const x = 1;\n}\n"
     b"export class Parser {\n  name = \"\";\n  upper(): string { return \"\"; }\n}\n",
     {(1, "", "concat"), (2, "concat", "x"), (4, "", "Parser"), (5, "Parser", "name"),
      (6, "Parser", "upper")}),
    ("go", b"package util\n\nfunc Join(a string) string {\n\tx := a\n\treturn x\n}\n\n"
     b"func (p Parser) Upper() string { return \"\" }\n",
     {(3, "", "Join"), (3, "Join", "a"), (8, "", "Upper"), (8, "Upper", "p")}),
    ("java", b"class Lib {\n    int wrap(int x) {\n        return x;\n    }\n}\n",
     {(1, "", "Lib"), (2, "Lib", "wrap"), (2, "wrap", "x")}),
])
def test_declarations_of_other_languages_come_from_their_outline(
        language: str, source: bytes, expected: set[tuple[int, str, str]]) -> None:
    """A method is declared in its class (what `Property 'upper' does not exist
    on type 'Parser'` asks for), a local or parameter in its function."""
    assert expected <= set(outline_declarations(language, source))


@pytest.mark.parametrize("language", ["c", "cpp"])
def test_a_prototypes_parameters_are_declared_nowhere(language: str) -> None:
    """`int parse(const char *s);` in a header declares parse, not an `s` at file
    level that an `'s' undeclared` anywhere could be repaired by; a definition's
    parameters are its function's, as its locals are."""
    source = (b"int parse(const char *s);\nstatic int (*hook)(int level);\n"
              b"int parse(const char *t) {\n    int u = 0;\n    return u + t[0];\n}\n")
    assert set(declarations(language, source)) == {
        (1, "", "parse"), (2, "", "hook"), (3, "", "parse"), (3, "parse", "t"),
        (4, "parse", "u")}


def test_declarations_retyped_alike_have_one_edit() -> None:
    """The edit of a declaration's line leaves its name out: two functions and a
    function type given the same parameter are retyped alike; a parameter of
    another type, or a renaming alone, is another edit (or none)."""
    gain = line_edit("func less(a, b int) bool {", "func less(a, b int, strict bool) bool {",
                     "less")
    assert gain == (((), (",", "strict", "bool")),)
    assert line_edit("func equal(a, b int) bool {", "func equal(a, b int, strict bool) bool {",
                     "equal") == gain
    assert line_edit("type check func(a, b int) bool",
                     "type check func(a, b int, strict bool) bool", "check") == gain
    assert line_edit("func f(a, b int) bool {", "func f(a, b int, strict int) bool {", "f") != gain
    assert line_edit("int count(const char *s);", "int count(const char *s);", "count") == ()


def test_declarations_retyped_alike_are_few_or_none() -> None:
    """The changes that retype a name's declarations alike, those not applied;
    none when more than MAX_ALIKE make its edits together (a name declared on
    two lines, each edit under the cap, their makers over it)."""
    gain = line_edit("f(int a)", "f(int a, bool b)", "f")
    drop = line_edit("g(int a, int c)", "g(int a)", "g")

    def retyping(name: str, *edits: object) -> HunkDeclarations:
        return HunkDeclarations(frozenset(), frozenset(), frozenset({("", name)}),
                                frozenset((name, e) for e in edits))
    declared = {0: retyping("f", gain), 1: retyping("h", gain), 2: retyping("k", gain),
                3: retyping("other", line_edit("x()", "x(y)", "x"))}
    index = NameIndex({}, declared)
    assert index.alike("f", frozenset({0})) == {1, 2}
    assert index.alike("other", frozenset()) == {3}
    half = MAX_ALIKE // 2 + 1
    many = {i: retyping("m", gain if i < half else drop) for i in range(2 * half)}
    many[2 * half] = retyping("n", gain)
    index = NameIndex({}, many)
    assert len(index.alike("n", frozenset())) == half + 1 <= MAX_ALIKE
    assert index.alike("m", frozenset()) == set()  # both edits: 2 * half > MAX_ALIKE
