"""Clusters by change in several languages, tree-sitter scopes, and the one-parse analysis."""

from __future__ import annotations

import pickle

from conftest import GitRepo
from wynot.analysis import python as python_analysis
from wynot.analysis.clusters import version_bumps
from wynot.analysis.grouping import make_plan, scope
from wynot.analysis.lexical import token_change
from wynot.analysis.model import Analysis, analyse
from wynot.analysis.treesitter import language_for, outline, parse, tokens
from wynot.changes import Diff
from wynot.diffread import read_diff


def pad(comment: str, n: int = 10) -> bytes:
    """Filler lines that keep hunks apart, as comments of the language."""
    return b"".join(b"%s filler %d\n" % (comment.encode(), i) for i in range(n))


def analysed(repo: GitRepo, good: dict[str, bytes],
             bad: dict[str, bytes]) -> tuple[Diff, Analysis]:
    first, second = repo.commit(good), repo.commit(bad)
    diff = read_diff(repo.path, first, second)
    return diff, analyse(diff)


def hunk(diff: Diff, path: str, text: str) -> int:
    """The id of the hunk of ``path`` whose added or removed lines contain ``text``."""
    return next(c.id for c in diff.changes if c.path == path and c.hunk is not None
                and any(line[:1] in "+-" and text in line for line in c.hunk.text.split("\n")))


def cluster_with(analysis: Analysis, change: int) -> frozenset[int]:
    return next((c.members for c in analysis.clusters if change in c.members), frozenset())


def test_a_c_rename_links_definition_prototype_and_callers(make_repo) -> None:
    c = pad("//")
    good = {
        "lib.h": b"int parse_hdr(const char *s);\n" + c + b"int other(void);\n",
        "lib.c": b'#include "lib.h"\nint parse_hdr(const char *s)\n{\n    return s[0];\n}\n'
        + c + b"int other(void)\n{\n    return 1;\n}\n",
        "main.c": b'#include "lib.h"\nint main(void)\n{\n    return parse_hdr("x");\n}\n'
        + c + b"int limit = 10;\n",
    }
    bad = {
        "lib.h": b"int parse_header(const char *s);\n" + c + b"int other(void);\n",
        "lib.c": b'#include "lib.h"\nint parse_header(const char *s)\n{\n    return s[0];\n}\n'
        + c + b"int other(void)\n{\n    return 2;\n}\n",
        "main.c": b'#include "lib.h"\nint main(void)\n{\n    return parse_header("x");\n}\n'
        + c + b"int limit = 11;\n",
    }
    diff, analysis = analysed(make_repo("c"), good, bad)
    rename = {hunk(diff, "lib.h", "parse_header"), hunk(diff, "lib.c", "parse_header"),
              hunk(diff, "main.c", "parse_header")}
    assert cluster_with(analysis, min(rename)) == rename
    assert cluster_with(analysis, hunk(diff, "lib.c", "return 2")) == frozenset()
    deps = analysis.dependencies()
    assert deps.closure({hunk(diff, "main.c", "parse_header")}) == rename
    assert not deps.is_closed(frozenset({hunk(diff, "lib.c", "parse_header")}))
    plan = make_plan(diff, ("dir", "file", "syntax"), analysis.symbols, deps, analysis.enclosing)
    assert len({plan.units[i] for i in rename}) == 1


def test_a_c_member_renamed_links_its_declaration_and_users(make_repo) -> None:
    c = pad("//")
    good = {
        "state.h": b"struct state {\n    int count;\n    char *name;\n};\n" + c
        + b"int other(void);\n",
        "a.c": b'#include "state.h"\nint get(struct state *s)\n{\n    return s->count;\n}\n'
        + c + b"int limit = 10;\n",
        "b.c": b'#include "state.h"\nvoid bump(struct state *s)\n{\n    s->count++;\n}\n',
    }
    bad = {
        "state.h": b"struct state {\n    int total;\n    char *name;\n};\n" + c
        + b"int other(void);\n",
        "a.c": b'#include "state.h"\nint get(struct state *s)\n{\n    return s->total;\n}\n'
        + c + b"int limit = 11;\n",
        "b.c": b'#include "state.h"\nvoid bump(struct state *s)\n{\n    s->total++;\n}\n',
    }
    diff, analysis = analysed(make_repo("c"), good, bad)
    rename = {hunk(diff, "state.h", "total"), hunk(diff, "a.c", "total"),
              hunk(diff, "b.c", "total")}
    assert cluster_with(analysis, min(rename)) == rename
    assert cluster_with(analysis, hunk(diff, "a.c", "limit")) == frozenset()


def test_a_java_helper_links_its_first_users(make_repo) -> None:
    c = pad("//")
    good = {
        "Util.java": b"class Util {\n    static int twice(int x) { return 2 * x; }\n}\n",
        "A.java": b"class A {\n    int a(int v) { return v; }\n" + c + b"    int k = 1;\n}\n",
        "B.java": b"class B {\n    int b(int v) { return v; }\n}\n",
    }
    bad = {
        "Util.java": b"class Util {\n    static int twice(int x) { return 2 * x; }\n"
        b"    static int clampValue(int x) { return x < 0 ? 0 : x; }\n}\n",
        "A.java": b"class A {\n    int a(int v) { return Util.clampValue(v); }\n" + c
        + b"    int k = 2;\n}\n",
        "B.java": b"class B {\n    int b(int v) { return Util.clampValue(v); }\n}\n",
    }
    diff, analysis = analysed(make_repo("java"), good, bad)
    helper = hunk(diff, "Util.java", "clampValue")
    users = {hunk(diff, "A.java", "clampValue"), hunk(diff, "B.java", "clampValue")}
    assert {(a, b) for a, b, why in analysis.needs if why == "new clampValue"} == {
        (user, helper) for user in users}
    deps = analysis.dependencies()  # offered to resolution, not used to predict
    assert {(a, b) for a, b, _ in deps.hints} == {(user, helper) for user in users}
    assert deps.closure({hunk(diff, "A.java", "k = 2")}) == {hunk(diff, "A.java", "k = 2")}


def test_a_javascript_table_of_names_in_strings_links_the_renamed_function(make_repo) -> None:
    c = pad("//")
    good = {
        "jobs.js": b"function runJob(t) {\n  return t;\n}\n" + c + b"function stop() {}\n",
        "other.js": b"function runJob(t) {\n  return 0;\n}\n",
        "registry.js": b'const HANDLERS = [\n  "jobs:runJob",\n  "other:runJob",\n];\n' + c
        + b"const LIMIT = 3;\n",
    }
    bad = {
        "jobs.js": b"function runJobNow(t) {\n  return t;\n}\n" + c + b"function stop() {}\n",
        "other.js": b"function runJob(t) {\n  return 0;\n}\n",
        "registry.js": b'const HANDLERS = [\n  "jobs:runJobNow",\n  "other:runJob",\n];\n' + c
        + b"const LIMIT = 4;\n",
    }
    diff, analysis = analysed(make_repo("js"), good, bad)
    rename = {hunk(diff, "jobs.js", "runJobNow"), hunk(diff, "registry.js", "runJobNow")}
    assert cluster_with(analysis, min(rename)) == rename
    assert "runJob -> runJobNow" in next(c.reasons for c in analysis.clusters
                                         if c.members == rename)


def test_a_go_function_moved_to_another_file_links_both_ends(make_repo) -> None:
    c = pad("//")
    good = {
        "a.go": b"package p\n\nfunc keepA() int { return 1 }\n\n"
        b"func movedHelper(x int) int {\n\treturn x + 1\n}\n" + c,
        "b.go": b"package p\n\nfunc keepB() int { return 2 }\n" + c + b"var z = 1\n",
    }
    bad = {
        "a.go": b"package p\n\nfunc keepA() int { return 1 }\n\n" + c,
        "b.go": b"package p\n\nfunc keepB() int { return 2 }\n\n"
        b"func movedHelper(x int) int {\n\treturn x + 1\n}\n" + c + b"var z = 2\n",
    }
    diff, analysis = analysed(make_repo("go"), good, bad)
    gone, come = hunk(diff, "a.go", "movedHelper"), hunk(diff, "b.go", "movedHelper")
    assert {(a, b) for a, b, _ in analysis.moves} == {(gone, come)}
    deps = analysis.dependencies()
    assert deps.closure({gone}) == {gone, come} and deps.closure({come}) == {come}
    assert cluster_with(analysis, gone) == cluster_with(analysis, come) == frozenset()


def test_a_c_function_moved_under_an_else_needs_nothing_of_the_old_place(make_repo) -> None:
    c = pad("//")
    helper = b"static void from_locale(char *b) {\n    *b = '.';\n}\n"
    good = {"s.c": b"#include <string.h>\n" + helper + c
            + b"int dtostr(char *b) {\n    from_locale(b);\n    return 0;\n}\n"}
    bad = {"s.c": b"#include <string.h>\n" + c + b"#if FAST\nint dtostr(char *b) {\n"
           b"    return fast(b);\n}\n#else\n" + helper
           + b"int dtostr(char *b) {\n    from_locale(b);\n    return 0;\n}\n#endif\n"}
    diff, analysis = analysed(make_repo("c"), good, bad)
    gone, come = hunk(diff, "s.c", "static void from_locale"), hunk(diff, "s.c", "#else")
    assert gone != come
    deps = analysis.dependencies()
    assert come in deps.closure({gone}) and gone not in deps.closure({come})


def test_python_runtime_names_in_strings_link_the_rename_across_files(make_repo) -> None:
    """Every module defines f0; one renames it, and the table that names it follows."""
    c = pad("#")
    modules = {f"pkg/m{i}.py": b"def f0():\n    return %d\n" % i + c + b"X = 1\n"
               for i in range(4)}
    table = b'TABLE = [\n' + b"".join(b'    ("pkg.m%d", "f0"),\n' % i for i in range(4)) + b"]\n"
    good = {**modules, "pkg/registry.py": table}
    bad = dict(good)
    bad["pkg/m2.py"] = b"def f0_v2():\n    return 2\n" + c + b"X = 1\n"
    bad["pkg/m3.py"] = modules["pkg/m3.py"].replace(b"X = 1", b"X = 3")
    bad["pkg/registry.py"] = table.replace(b'"pkg.m2", "f0"', b'"pkg.m2", "f0_v2"')
    diff, analysis = analysed(make_repo("py"), good, bad)
    rename = {hunk(diff, "pkg/m2.py", "f0_v2"), hunk(diff, "pkg/registry.py", "f0_v2")}
    assert cluster_with(analysis, min(rename)) == rename
    assert cluster_with(analysis, hunk(diff, "pkg/m3.py", "X = 3")) == frozenset()


def test_commonjs_exports_renamed_with_the_strings_that_name_them_are_linked(make_repo) -> None:
    """Every module exports f0 by assignment; one renames it, with a caller elsewhere
    that looks it up by its module's path and its name at run time."""
    c = pad("//")
    modules = {f"pkg/m{i}.js": b"exports.f0 = function (x) {\n  return %d;\n};\n" % i + c
               + b"exports.X = 1;\n" for i in range(4)}
    caller = (b'const registry = require("./registry");\n' + c
              + b'exports.g = (x) => registry.call("pkg/m2", "f0", x);\n')
    good = {**modules, "pkg/caller.js": caller}
    bad = dict(good)
    bad["pkg/m2.js"] = modules["pkg/m2.js"].replace(b"exports.f0 =", b"exports.f0_v2 =")
    bad["pkg/m3.js"] = modules["pkg/m3.js"].replace(b"X = 1", b"X = 3")
    bad["pkg/caller.js"] = caller.replace(b'"f0"', b'"f0_v2"')
    diff, analysis = analysed(make_repo("commonjs"), good, bad)
    rename = {hunk(diff, "pkg/m2.js", "f0_v2"), hunk(diff, "pkg/caller.js", "f0_v2")}
    assert cluster_with(analysis, min(rename)) == rename
    assert cluster_with(analysis, hunk(diff, "pkg/m3.js", "X = 3")) == frozenset()


def test_javascript_functions_given_to_members_and_keys_are_definitions() -> None:
    source = (b"exports.parse = function (x) { return x; };\n"
              b"Lexer.prototype.token = async (src) => src;\n"
              b"module.exports = { render: function () {}, lex() {}, limit: 3 };\n"
              b"state.count = 3;\nrun(options.parse);\n")
    for language in ("javascript", "typescript"):
        assert tokens(language, source).defined == {"parse", "token", "render", "lex"}


def test_a_name_reached_through_a_path_is_used_not_declared() -> None:
    cpp = (b"void ns::Parser::parse(int a) {}\nint Parser::count = 0;\n"
           b"void run() { std::smatch match; std::vector<int> v;\n"
           b"  std::cerr << std::endl; a::b::c(); }\n")
    assert tokens("cpp", cpp).defined == {"parse", "count", "run", "match", "v"}
    rust = (b"use std::collections::HashMap;\n"
            b"fn f() { std::mem::swap(a, b); let x: fmt::Result = y; }\n")
    assert tokens("rust", rust).defined >= {"HashMap", "f"}
    assert not tokens("rust", rust).defined & {"collections", "mem", "swap", "Result"}
    go = b"package p\nfunc f() { var b strings.Builder; strings.Join(x, y) }\n"
    assert tokens("go", go).defined == {"f", "b"}
    java = b"import java.util.List;\nclass A { void f() { java.util.Collections.sort(x); } }\n"
    assert tokens("java", java).defined == {"List", "A", "f"}


def test_library_types_used_on_both_ends_of_a_cpp_rewrite_are_no_move(make_repo) -> None:
    c = pad("//")
    body_old = b"  std::smatch m;\n  std::regex_match(s, m, pattern);\n  return m.size();\n"
    good = {"p.hpp": b"namespace p {\ninline int count(const std::string& s) {\n" + body_old
            + b"}\n" + c + b"inline int other() { return 1; }\n}\n"}
    bad = {"p.hpp": b"namespace p {\ninline int count(const std::string& s) {\n"
           b"  return helpers::tally(s);\n}\n" + c + b"inline int other() { return 1; }\n"
           b"namespace helpers {\ninline int tally(const std::string& s) {\n" + body_old
           + b"}\n}\n}\n"}
    diff, analysis = analysed(make_repo("cpp"), good, bad)
    first, second = hunk(diff, "p.hpp", "helpers::tally"), hunk(diff, "p.hpp", "namespace helpers")
    assert first != second
    assert cluster_with(analysis, first) == frozenset()


def test_a_function_declared_as_a_variable_is_a_scope_for_grouping() -> None:
    """``const parse = (s) => {...}`` encloses its body as ``function parse`` would;
    a callback passed as an argument, or a function given to a member, is none."""
    source = (b"exports.f4 = function (x) {\n  return x;\n};\n"
              b"const parse = async (s) => {\n  return [1].map((y) => y);\n};\n"
              b"let render = function named() {};\n")
    for language in ("javascript", "typescript"):
        found = outline(language, source)
        assert found is not None and found.scopes == ((4, 6, "parse"), (7, 7, "named"))


def test_a_common_respelling_without_a_declaration_links_nothing(make_repo) -> None:
    """The same edit of a library call in many places is many edits, not one."""
    c = pad("#")
    good = {f"m{i}.py": b"def f%d(s):\n    return s.lower()\n" % i + c for i in range(5)}
    bad = {f"m{i}.py": b"def f%d(s):\n    return s.casefold()\n" % i + c for i in range(5)}
    _, analysis = analysed(make_repo("common"), good, bad)
    assert analysis.clusters == ()


def test_a_version_bumped_in_a_package_and_its_index_links_the_two(make_repo) -> None:
    """Tcl's ``package provide`` and the index's ``package ifneeded`` name one
    version: bumped in both, the two hunks are one cluster; the same bump
    in a changelog's added line, and another number changed, link nothing."""
    lib = (b"namespace eval shapes {}\n" + pad("#") + b"proc shapes::grow {w} {\n"
           b"    return [expr {$w + %s}]\n}\n" + pad("#") + b"package provide shapes %s\n")
    index = b"package ifneeded shapes %s [list source [file join $dir shapes.tcl]]\n"
    diff, analysis = analysed(make_repo("tclversion"), {
        "shapes.tcl": lib % (b"1.5", b"1.6.2"), "pkgIndex.tcl": index % b"1.6.2",
        "NEWS": b"1.6.2 released\n"}, {
        "shapes.tcl": lib % (b"2.5", b"1.7.0"), "pkgIndex.tcl": index % b"1.7.0",
        "NEWS": b"1.7.0 released\n1.6.2 released\n"})
    provide = hunk(diff, "shapes.tcl", "package provide")
    ifneeded = hunk(diff, "pkgIndex.tcl", "package ifneeded")
    assert cluster_with(analysis, provide) == {provide, ifneeded}
    assert not cluster_with(analysis, hunk(diff, "shapes.tcl", "2.5"))
    assert not cluster_with(analysis, hunk(diff, "NEWS", "1.7.0"))


def test_version_bumps_pair_lines_alike_but_for_versions_outside_comments() -> None:
    places = {0: (0, ("a",)), 1: (1, ("b",)), 2: (2, ("c",)), 3: (5, ("f",)),
              4: (3, ("d",)), 5: (4, ("e",))}
    texts = {0: "-VERSION = 1.4.4\n-MAIN = 2.0.7\n+VERSION = 1.4.5\n+MAIN = 2.0.8\n",
             1: "-requires 2.0.7\n+requires 2.0.8\n",
             2: "-x = 0.5\n+x = 0.25\n",
             3: "-y = 0.5\n+y = 0.25\n",
             # the same bump in two files' comments: a license header, a line comment
             4: " /*\n- Lib 3.1.0 (https://example.org)\n+ Lib 3.2.0 (https://example.org)\n */\n",
             5: "-# Lib 3.1.0\n+# Lib 3.2.0\n #define LIB_MAJOR 3\n"}
    links = version_bumps(texts, places, limit=8)
    # 0.5 -> 0.25 in two files: constants, not versions (no three-part number)
    assert links == [(frozenset({0, 1}), "version 2.0.7 -> 2.0.8")]


def test_token_change_finds_respellings_at_the_same_place() -> None:
    change = token_change(["call", "pkg", "m3", "f0", "x"], ["call", "pkg", "m3", "f0_v2", "x"],
                          old_defined=["f0"], new_defined=["f0_v2"])
    assert change.respelled == {("f0", "f0_v2")}
    assert change.left == {"f0"} and change.arrived == {"f0_v2"}
    assert change.defined == {"f0_v2"} and change.undefined == {"f0"}


def test_tree_sitter_tokens_skip_keywords_and_comments_and_read_strings() -> None:
    assert language_for("src/x.c") == "c" and language_for("README.md") is None
    assert parse("c", b"int x;") is not None
    found = tokens("c", b'/* old_name */ static int f(void) { return g("mod:h"); }')
    assert found.sequence == ("f", "g", "mod", "h")
    assert found.defined == {"f"}
    assert tokens("rust", b"fn main() { let v = w; }").sequence == ("main", "v", "w")


def test_enclosing_function_comes_from_tree_sitter_for_c_and_java(make_repo) -> None:
    c_good = (b"static int helper(int a)\n{\n    int b = a;\n" + pad("    //", 6)
              + b"    return b;\n}\n")
    java_good = (b"class Shop {\n    int total(int n) {\n        int t = n;\n"
                 + pad("        //", 6) + b"        return t;\n    }\n}\n")
    good = {"x.c": c_good, "Shop.java": java_good}
    bad = {"x.c": c_good.replace(b"return b;", b"return b + 1;"),
           "Shop.java": java_good.replace(b"return t;", b"return t * 2;")}
    diff, analysis = analysed(make_repo("scopes"), good, bad)
    c_hunk, java_hunk = hunk(diff, "x.c", "b + 1"), hunk(diff, "Shop.java", "t * 2")
    assert analysis.enclosing[c_hunk] == "helper"
    assert analysis.enclosing[java_hunk] == "Shop.total"
    fd = diff.files[diff.changes[java_hunk].file]
    assert scope(diff.changes[java_hunk], fd) == f"{fd.index}:Shop.total"


def test_each_python_file_side_is_parsed_once(make_repo) -> None:
    c = pad("#")
    good = {f"m{i}.py": b"def f(a):\n    return a\n" + c + b"def g(b):\n    return b\n"
            for i in range(3)}
    bad = {path: text.replace(b"return a", b"return a + 1").replace(b"return b", b"return -b")
           for path, text in good.items()}
    repo = make_repo("once")
    first, second = repo.commit(good), repo.commit(bad)
    diff = read_diff(repo.path, first, second)
    assert len(diff.changes) == 6
    before = python_analysis.PARSES["python"]
    analysis = analyse(diff)
    assert python_analysis.PARSES["python"] - before == 6  # 3 files, 2 sides each
    copy = pickle.loads(pickle.dumps(analysis))
    assert copy.symbols == analysis.symbols and copy.enclosing == analysis.enclosing
