"""Grouping, dependencies and failure resolution: the pure parts."""

from __future__ import annotations

import ast
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import GitRepo
from wynot.analysis.calls import Call, Signature, broken_by
from wynot.analysis.depends import Dependencies, derive
from wynot.analysis.grouping import Plan, make_plan, parse_criteria, scope
from wynot.analysis.python import shapes
from wynot.analysis.resolve import Resolver, is_construction_failure
from wynot.analysis.symbols import (
    FileSymbols,
    Symbols,
    change_symbols,
    definitions,
    file_symbols,
    imports,
    signatures,
)
from wynot.changes import Diff
from wynot.diffread import read_diff

PAD = b"".join(b"# padding line %d\n" % i for i in range(12))


def project(make_repo) -> tuple[GitRepo, str, str]:
    """util/text.py renames slugify -> make_slug; web/views.py and web/api.py
    call it; core/helpers.py gains a new helper used by web/api.py."""
    repo = make_repo("project")
    good = repo.commit({
        "util/text.py": b"def slugify(s):\n    return s.lower()\n" + PAD + b"X = 1\n",
        "web/views.py": b"from util.text import slugify\n" + PAD
        + b"def page(t):\n    return slugify(t)\n",
        "web/api.py": b"from util.text import slugify\n" + PAD
        + b"def item(t):\n    return slugify(t)\n" + PAD + b"LIMIT = 10\n",
        "core/helpers.py": b"def clamp(x):\n    return x\n" + PAD,
    })
    bad = repo.commit({
        "util/text.py": b"def make_slug(s):\n    return s.lower()\n" + PAD + b"X = 2\n",
        "web/views.py": b"from util.text import make_slug\n" + PAD
        + b"def page(t):\n    return make_slug(t)\n",
        "web/api.py": b"from util.text import make_slug\n" + PAD
        + b"def item(t):\n    return make_slug(t)\n" + PAD + b"LIMIT = trim_limit(10)\n",
        "core/helpers.py": b"def clamp(x):\n    return x\n" + PAD
        + b"def trim_limit(n):\n    return n - 1\n",
    })
    return repo, good, bad


def analysed(repo: GitRepo, good: str, bad: str) -> tuple[Diff, dict[int, Symbols],
                                                        dict[int, FileSymbols]]:
    """GOOD..BAD's diff, each change's symbols and each change's file symbols."""
    diff = read_diff(repo.path, good, bad)
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    files = {c.id: file_symbols(diff.files[c.file]) for c in diff.changes}
    return diff, symbols, files


def hunk_finder(diff: Diff) -> Callable[[str], int]:
    """The id of the hunk whose text contains a given piece, for naming hunks in tests."""
    return lambda text: next(c.id for c in diff.changes if c.hunk and text in c.hunk.text)


def edits(change) -> str:
    """The added and removed lines of a hunk, without its header and context."""
    lines = change.hunk.text.split("\n")[1:] if change.hunk else []
    return "\n".join(line for line in lines if line[:1] in "+-")


def test_definitions_of_python_and_c() -> None:
    lines = ["def f(x):", "class A(B):", "X = 1", "int add(int a, int b)", "#define MAX 3",
             "return foo(1);", "main()", "    x == 2"]
    assert definitions(lines) == {"f", "A", "X", "add", "MAX"}


def test_definitions_of_rust() -> None:
    """Rust items, a method inside an impl included; C's `struct point p` and
    `enum color c` declare variables, not the types."""
    lines = ["    pub(crate) fn gen_u64(&mut self) -> u64 {", "mod global_rng;",
             "pub struct Rng(u64);", "pub enum Mode<T> {", "macro_rules! rng_integer {",
             "pub trait Engine: Send {", "const WY_CONST_0: u64 = 0x2d35;", "impl Rng {",
             "    struct point p = {1, 2};", "enum color c;", "    let n = self.len();"]
    assert definitions(lines) == {"gen_u64", "global_rng", "Rng", "Mode", "rng_integer",
                                  "Engine", "WY_CONST_0"}


def test_rename_forms_one_unit_and_helpers_come_first(make_repo) -> None:
    repo, good, bad = project(make_repo)
    diff = read_diff(repo.path, good, bad)
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    deps = derive(symbols)
    plan = make_plan(diff, ("dir", "file", "syntax", "lexical"), symbols, deps)
    rename = [c.id for c in diff.changes if "+from util" in edits(c) or "make_slug(" in edits(c)]
    assert len(rename) == 5
    assert len({plan.units[i] for i in rename}) == 1, "the rename must be one unit"
    assert len(set(plan.units.values())) == len(diff.changes) - 4
    helper = next(c.id for c in diff.changes if "+def trim_limit" in edits(c))
    use = next(c.id for c in diff.changes if "trim_limit(10)" in edits(c))
    assert deps.closure({use}) >= {use, helper}
    assert plan.order.index(helper) < plan.order.index(use)
    assert deps.is_closed(frozenset(plan.order[: plan.order.index(helper) + 1]))
    assert not deps.is_closed(frozenset({use}))


def test_split_prefers_directory_boundaries_near_the_middle() -> None:
    keys = {i: ("a" if i < 5 else "b", f"file:{i // 2}") for i in range(10)}
    plan = Plan(order=tuple(range(10)), keys=keys, units={i: i for i in range(10)},
                grouped=True)
    assert [list(p) for p in plan.split(list(range(10)), 2)] == [[0, 1, 2, 3, 4],
                                                                 [5, 6, 7, 8, 9]]
    keys = {i: ("a" if i < 4 else "b", f"file:{i}") for i in range(10)}
    plan = Plan(order=tuple(range(10)), keys=keys, units={i: i for i in range(10)},
                grouped=True)
    assert [len(p) for p in plan.split(list(range(10)), 2)] == [4, 6]


def test_split_does_not_cut_a_unit_when_another_boundary_is_near() -> None:
    units = {i: 3 if i in (3, 4, 5, 6) else i for i in range(10)}
    plan = Plan(order=tuple(range(10)), keys=dict.fromkeys(range(10), ()), units=units,
                grouped=True)
    parts = [set(p) for p in plan.split(list(range(10)), 2)]
    assert len(parts) == 2
    assert any({3, 4, 5, 6} <= part for part in parts)


@st.composite
def plans(draw):
    size = draw(st.integers(2, 60))
    keys = {i: tuple(draw(st.lists(st.sampled_from("abc"), min_size=0, max_size=3)))
            for i in range(size)}
    units, unit = {}, 0
    for i in range(size):
        if i and draw(st.booleans()):
            unit += 1
        units[i] = unit
    return Plan(order=tuple(range(size)), keys=keys, units=units, grouped=True)


@settings(max_examples=300, deadline=None)
@given(plans(), st.integers(2, 70))
def test_split_always_partitions_into_contiguous_balanced_parts(plan: Plan, n: int) -> None:
    seq = list(plan.order)
    parts = [list(p) for p in plan.split(seq, n)]
    assert [x for p in parts for x in p] == seq
    assert len(parts) == min(n, len(seq))
    assert all(parts)


def test_lexical_groups_do_not_chain_dependency_cycles(make_repo) -> None:
    """a.py: a1 calls b1's new helper, a2 defines a helper b2 calls; a1/a2 and
    b1/b2 share a rare word. As units, the two lexical pairs would need each
    other and merge; as cut preferences, the order stays definition-first."""
    repo = make_repo("lexical")
    good = repo.commit({"a.py": b"A1 = 0\n" + PAD + b"A2 = 0\n",
                        "b.py": b"B1 = 0\n" + PAD + b"B2 = 0\n"})
    bad = repo.commit({
        "a.py": b"A1 = from_b(zeta_word)\n" + PAD + b"def from_a(): return zeta_word\n",
        "b.py": b"def from_b(x): return omega_word\n" + PAD + b"B2 = from_a(omega_word)\n",
    })
    diff = read_diff(repo.path, good, bad)
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    deps = derive(symbols)
    plan = make_plan(diff, ("dir", "file", "syntax", "lexical"), symbols, deps)
    assert len(set(plan.units.values())) == 4
    assert plan.lexical is not None and len(set(plan.lexical.values())) == 2
    for i in range(1, 5):
        assert deps.is_closed(frozenset(plan.order[:i]))
    flat = make_plan(diff, ("dir", "file", "syntax", "lexical"), symbols)
    assert len(set(flat.units.values())) == 2  # without dependencies, a group is a unit


def test_parse_criteria() -> None:
    assert parse_criteria("none") == ()
    assert parse_criteria("dir, file") == ("dir", "file")
    try:
        parse_criteria("dir,colour")
    except ValueError as error:
        assert "colour" in str(error)
    else:
        raise AssertionError("unknown criterion accepted")


def test_dependencies_closure_and_components() -> None:
    deps = Dependencies()
    for a, b in [(1, 2), (2, 3), (3, 1), (4, 1), (5, 6)]:
        deps.add(a, b)
    assert deps.closure({4}) == {1, 2, 3, 4}
    assert deps.is_closed(frozenset({1, 2, 3})) and not deps.is_closed(frozenset({1, 2}))
    components = deps.components(range(1, 7))
    assert [1, 2, 3] in components
    assert components.index([1, 2, 3]) < components.index([4])  # needed first


def test_resolver_reads_python_and_compiler_errors(make_repo) -> None:
    repo, good, bad = project(make_repo)
    diff = read_diff(repo.path, good, bad)
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    resolver = Resolver(symbols)
    outputs = {
        "NameError: name 'trim_limit' is not defined": ["trim_limit"],
        "ImportError: cannot import name 'make_slug' from 'util.text' (/x/util/text.py)":
            ["make_slug"],
        "ModuleNotFoundError: No module named 'proj.net.newmod'": ["newmod"],
        "main.c:3:5: error: implicit declaration of function ‘frob’": ["frob"],
        "/usr/bin/ld: main.o: in function `main': undefined reference to `frob'": ["frob"],
        "x.c:9:3: error: 'count' undeclared (first use in this function)": ["count"],
    }
    for output, names in outputs.items():
        assert resolver.names(output) == names, output
    helper = next(c.id for c in diff.changes if c.hunk and "def trim_limit" in c.hunk.text)
    use = next(c.id for c in diff.changes if c.hunk and "trim_limit(10)" in c.hunk.text)
    resolution = resolver.resolve("NameError: name 'trim_limit' is not defined", {use})
    assert resolution.add == {helper}
    assert (use, helper) in resolution.learned
    assert is_construction_failure("SyntaxError: invalid syntax")
    assert not is_construction_failure("AssertionError: 3 != 4")
    custom = Resolver(symbols, [r"missing symbol <(\w+)>"])
    assert custom.names("link: missing symbol <trim_limit>") == ["trim_limit"]


def test_resolver_repairs_a_removed_name_through_its_old_users(make_repo) -> None:
    """A compatibility helper is dropped; its many importers stop importing it."""
    repo = make_repo("compat")
    importers = {f"pkg/m{i}.py": i for i in range(14)}
    good = repo.commit({
        "pkg/compat.py": b"PY2 = False\n" + PAD + b"VERSION = 1\n",
        **{path: b"from pkg.compat import PY2\n" + PAD + b"N = %d\n" % i
           for path, i in importers.items()},
    })
    bad = repo.commit({
        "pkg/compat.py": b"" + PAD + b"VERSION = 2\n",
        **{path: PAD + b"N = %d\n" % i for path, i in importers.items()},
    })
    diff = read_diff(repo.path, good, bad)
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    removal = next(c.id for c in diff.changes if c.hunk and "-PY2 = False" in c.hunk.text)
    users = {c.id for c in diff.changes if c.hunk and "-from pkg.compat import PY2" in c.hunk.text}
    assert len(users) == 14  # more than the 10 mentioners added for a name nobody removed
    error = "ImportError: cannot import name 'PY2' from 'pkg.compat' (/w/pkg/compat.py)"
    assert Resolver(symbols).resolve(error, {removal}).add == users
    # Without the removal applied, the same error does not pull in all the importers.
    some_user = min(users)
    assert Resolver(symbols).resolve(error, {some_user}).add == set()


def test_resolver_repairs_a_local_name_within_its_function(make_repo) -> None:
    """`globs` is introduced by one hunk of a function and used by the next; other
    functions use a variable of the same name in hunks of their own."""
    def function(name: str, body: bytes) -> bytes:
        return b"def %s():\n" % name.encode() + body + PAD

    other = [f"helper{i}" for i in range(11)]
    good = {"m.py": function("make_hash", b"    a = 1\n" + PAD + b"    return a\n")
            + b"".join(function(n, b"    return 0\n") for n in other)}
    bad = {"m.py": function("make_hash", b"    globs = {}\n" + PAD
                            + b"    return globs\n")
           + b"".join(function(n, b"    globs = 1\n    return globs\n") for n in other)}
    repo = make_repo("local")
    good_sha, bad_sha = repo.commit(good), repo.commit(bad)
    diff = read_diff(repo.path, good_sha, bad_sha)
    fd = diff.files[0]
    symbols = {c.id: change_symbols(c, fd) for c in diff.changes}
    scopes = {c.id: scope(c, fd) for c in diff.changes}
    define = next(c.id for c in diff.changes if c.hunk and "+    globs = {}" in c.hunk.text)
    use = next(c.id for c in diff.changes if c.hunk and "+    return globs\n" in c.hunk.text
               and "globs = 1" not in c.hunk.text)
    error = "NameError: name 'globs' is not defined"
    resolution = Resolver(symbols, scopes=scopes).resolve(error, {use})
    assert resolution.add == {define}
    assert (use, define) in resolution.learned
    # Without scopes, the name is too common to point anywhere.
    assert Resolver(symbols).resolve(error, {use}).add == set()


def test_imports_bind_names_for_resolution() -> None:
    assert imports(["import typing as t", "from .core import Command, Group as G",
                    "    import os.path", "important = 1", "import_thing()"]) == {
        "t", "Command", "G", "os"}


def test_signatures_of_definitions_and_calls() -> None:
    params, keywords = signatures([
        "def pack(items, *rest, keep_order: bool = False, **extra):",
        "    return mod.pack(items, sorted(x, key=len), keep_order=True,",
        "                    limit=3)",
        "if a == b and f(x == 1): pass",
    ])
    assert params == {("pack", "items"), ("pack", "rest"), ("pack", "keep_order"),
                      ("pack", "extra")}
    assert keywords == {("sorted", "key"), ("pack", "keep_order"), ("pack", "limit")}


def signature_project(make_repo) -> tuple[dict[int, Symbols], dict[str, int]]:
    """lib.py's pack() gains keep_order, app.py starts passing it; lib.py's trim()
    loses strict, cli.py stops passing it. Returns (symbols, hunk ids by role)."""
    repo = make_repo("signature")
    good = repo.commit({
        "lib.py": b"def pack(items):\n    return list(items)\n" + PAD
        + b"def trim(s, strict=False):\n    return s.strip()\n",
        "app.py": b"import lib\n" + PAD + b"X = lib.pack([2, 1])\n",
        "cli.py": b"from lib import trim\n" + PAD + b"Y = trim(' a ', strict=True)\n",
    })
    bad = repo.commit({
        "lib.py": b"def pack(items, keep_order=False):\n    return list(items)\n" + PAD
        + b"def trim(s):\n    return s.strip()\n",
        "app.py": b"import lib\n" + PAD + b"X = lib.pack([2, 1], keep_order=True)\n",
        "cli.py": b"from lib import trim\n" + PAD + b"Y = trim(' a ')\n",
    })
    diff = read_diff(repo.path, good, bad)
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}

    hunk = hunk_finder(diff)
    return symbols, {"def pack": hunk("+def pack"), "call pack": hunk("+X = lib.pack"),
                     "def trim": hunk("+def trim"), "call trim": hunk("+Y = trim")}


def test_signature_changes_give_dependencies_and_repairs(make_repo) -> None:
    symbols, ids = signature_project(make_repo)
    deps = derive(symbols)
    assert deps.closure({ids["call pack"]}) == {ids["call pack"], ids["def pack"]}
    assert deps.closure({ids["def trim"]}) == {ids["def trim"], ids["call trim"]}
    assert deps.is_closed(frozenset({ids["def pack"], ids["call trim"]}))
    resolver = Resolver(symbols)
    unexpected = "TypeError: pack() got an unexpected keyword argument 'keep_order'"
    assert is_construction_failure(unexpected)
    resolution = resolver.resolve(unexpected, {ids["call pack"]})
    assert resolution.add == {ids["def pack"]}
    assert (ids["call pack"], ids["def pack"]) in resolution.learned
    assert resolution.names == ("pack(keep_order=)",)
    removed = "TypeError: trim() got an unexpected keyword argument 'strict'"
    assert resolver.resolve(removed, {ids["def trim"]}).add == {ids["call trim"]}
    # A constructor is named by its class in calls and by __init__ in the error.
    assert resolver.signature_pairs(
        "TypeError: Config.__init__() missing 1 required positional argument: 'path'") == [
        ("__init__", "path"), ("Config", "path")]
    assert resolver.resolve("TypeError: pack() takes 1 positional argument", set()).add == set()


def test_dropped_and_new_imports_bind_changes_of_their_file(make_repo) -> None:
    """m.py stops using roles (and drops its import) in two far-apart hunks and
    starts using slots (imported in a third); n.py uses roles and is not touched."""
    repo = make_repo("imports")
    good = repo.commit({
        "m.py": b"from p import roles\n" + PAD + b"A = roles.x\n" + PAD + b"B = 1\n",
        "n.py": b"from p import roles\n" + PAD + b"C = roles.y\n" + PAD + b"D = 1\n",
    })
    bad = repo.commit({
        "m.py": b"from p import slots\n" + PAD + b"A = 0\n" + PAD + b"B = slots.z\n",
        "n.py": b"from p import roles\n" + PAD + b"C = roles.y\n" + PAD + b"D = 2\n",
    })
    diff = read_diff(repo.path, good, bad)
    symbols = {c.id: change_symbols(c, diff.files[c.file]) for c in diff.changes}
    files = {c.id: c.file for c in diff.changes}

    hunk = hunk_finder(diff)
    imports_, drop_use, new_use = hunk("+from p import slots"), hunk("+A = 0"), hunk("+B = slots")
    deps = derive(symbols, {c.id: file_symbols(diff.files[c.file]) for c in diff.changes})
    assert deps.closure({imports_}) == {imports_, drop_use}
    assert deps.closure({new_use}) == {new_use, imports_, drop_use}
    assert deps.is_closed(frozenset({hunk("+D = 2")}))
    assert derive(symbols).closure({imports_}) == {imports_}  # without files: no import rules
    error = "NameError: name 'roles' is not defined"
    resolution = Resolver(symbols, files=files).resolve(error, {imports_})
    assert resolution.add == {drop_use}
    assert (imports_, drop_use) in resolution.learned


def test_python_files_that_do_not_parse_fall_back_to_the_changed_lines(make_repo) -> None:
    """A syntax error or nesting too deep for the parser: signatures come from
    the changed lines alone, and nothing raises."""
    deep = b"X = " + b"1+" * 300_000 + b"1\n"  # RecursionError in ast.parse
    repo = make_repo("unparsable")
    good = repo.commit({"a.py": b"def f(:\n" + PAD + b"Y = g(1)\n", "b.py": deep + PAD})
    bad = repo.commit({"a.py": b"def f(:\n" + PAD + b"Y = g(1, keep=True)\n",
                       "b.py": deep + PAD + b"Z = h(fast=True)\n"})
    diff = read_diff(repo.path, good, bad)
    found = {pair for c in diff.changes
             for pair in change_symbols(c, diff.files[c.file]).keywords_added}
    assert found == {("g", "keep"), ("h", "fast")}


def test_calls_fit_or_miss_signatures() -> None:
    found = shapes(ast.parse(
        "def render(name, script, globs=None, *, strict=False, mode): pass\n"
        "class Option:\n"
        "    def __init__(self, obj, opts, dest=None): pass\n"
        "    @staticmethod\n"
        "    def make(kind): pass\n"
        "    def add(self, *items, **extra): pass\n"
        "render('a', 's', mode=1)\n"
        "x = Option(\n"
        "    1, 2, obj=3)\n"
        "f(*args)\n"))
    sigs = {name: sig for entries in found.signatures.values() for name, sig in entries}
    assert sigs["Option"].positional == ("obj", "opts", "dest")  # self left out
    assert sigs["make"].positional == ("kind",)
    render, option = sigs["render"], sigs["Option"]
    assert render.required == 2 and render.required_keywords == {"mode"}
    assert render.accepts(Call("render", 3, frozenset({"mode"})))
    assert not render.accepts(Call("render", 3, frozenset()))           # mode missing
    assert not render.accepts(Call("render", 1, frozenset({"mode"})))   # script missing
    assert not render.accepts(Call("render", 4, frozenset({"mode"})))   # too many
    assert not render.accepts(Call("render", 2, frozenset({"mode", "nope"})))
    assert not option.accepts(Call("Option", 2, frozenset({"obj"})))    # multiple values
    assert sigs["add"].accepts(Call("add", 9, frozenset({"anything"})))
    assert found.calls_on({9}) == {Call("Option", 2, frozenset({"obj"}))}  # argument lines
    called = {call.function for calls in found.calls.values() for call in calls}
    assert called == {"render", "Option"}  # f(*args) has no known shape


def test_a_call_breaks_when_its_arguments_bind_elsewhere() -> None:
    def signature(code: str) -> Signature:
        (found,) = (sig for entries in shapes(ast.parse(code)).signatures.values()
                    for _, sig in entries)
        return found

    old = signature("class P:\n    def add_option(self, opts, dest, obj=None): pass")
    new = signature("class P:\n    def add_option(self, obj, opts, dest): pass")
    renamed = signature("class P:\n    def add_option(self, names, dest, obj=None): pass")
    assert old.owner == "P"
    (call,) = {c for calls in shapes(ast.parse("p.add_option(o, **kw)")).calls.values()
               for c in calls}
    assert call.open_keywords  # kw may hold dest and obj: it fits both shapes
    assert old.accepts(call) and new.accepts(call)
    assert broken_by(call, old, new)  # but o binds to obj now, and opts moved
    assert broken_by(call, new, old)  # and the other way round
    assert not broken_by(call, old, renamed)  # a renamed parameter moves nothing
    rewritten = Call("add_option", 0, frozenset({"obj", "opts", "dest"}))
    assert not broken_by(rewritten, new, old) and not broken_by(rewritten, old, new)
    dropped = Call("add_option", 1, frozenset({"dest"}))  # add_option(o, dest=d)
    assert broken_by(dropped, old, new) and not broken_by(dropped, new, old)


def reshaped_project(make_repo) -> tuple[dict[int, Symbols], dict, dict[str, int]]:
    """lib.py: render() loses the default of globs, Option() takes obj first and
    build() loses its parameter ``fast`` (a deleted line); app.py rewrites the
    calls of each. Returns (symbols, files, hunk ids by role)."""
    repo = make_repo("reshape")
    good = repo.commit({
        "lib.py": b"def render(name, globs=None):\n    return name\n" + PAD
        + b"class Option:\n    def __init__(self, opts, obj=None):\n        pass\n" + PAD
        + b"def build(\n    src,\n    fast,\n    out,\n):\n    pass\n" + PAD
        + b"class Parser:\n    def add(self, opts, obj=None):\n        pass\n",
        "app.py": b"from lib import Option, Parser, build, render\n" + PAD + b"A = render('x')\n"
        + PAD + b"B = Option(['-v'], obj=1)\n" + PAD + b"C = build(\n    1,\n    2,\n    3)\n"
        + PAD + b"def fill(p: Parser, kw):\n    p.add(['-v'], **kw)\n",
    })
    bad = repo.commit({
        "lib.py": b"def render(name, globs):\n    return name\n" + PAD
        + b"class Option:\n    def __init__(self, obj, opts):\n        pass\n" + PAD
        + b"def build(\n    src,\n    out,\n):\n    pass\n" + PAD
        + b"class Parser:\n    def add(self, obj, opts):\n        pass\n",
        "app.py": b"from lib import Option, Parser, build, render\n" + PAD
        + b"A = render('x', {})\n"
        + PAD + b"B = Option(1, opts=['-v'])\n" + PAD + b"C = build(\n    1,\n    3)\n"
        + PAD + b"def fill(p: Parser, kw):\n    p.add(1, ['-v'], **kw)\n",
    })
    diff, symbols, files = analysed(repo, good, bad)

    hunk = hunk_finder(diff)
    return symbols, files, {
        "def render": hunk("+def render"), "call render": hunk("+A = render"),
        "def Option": hunk("+    def __init__"), "call Option": hunk("+B = Option"),
        "def build": hunk("-    fast,"), "call build": hunk("-    2,"),
        "def add": hunk("+    def add"), "call add": hunk("+    p.add")}


def test_reshaped_functions_need_the_calls_broken_by_their_old_shape(make_repo) -> None:
    symbols, files, ids = reshaped_project(make_repo)
    assert {name for name, _, _ in symbols[ids["def build"]].reshaped} == {"build"}
    deps = derive(symbols, files)
    # render('x') breaks once globs is required; render('x', {}) works either way
    assert ids["call render"] in deps.needs[ids["def render"]]
    assert ids["def render"] not in deps.needs.get(ids["call render"], set())
    # Option(['-v'], obj=1) and Option(1, opts=['-v']) each fit one shape only
    pair = {ids["def Option"], ids["call Option"]}
    assert deps.closure({ids["def Option"]}) == deps.closure({ids["call Option"]}) == pair
    # a parameter and an argument deleted on lines of their own
    pair = {ids["def build"], ids["call build"]}
    assert deps.closure({ids["def build"]}) == deps.closure({ids["call build"]}) == pair
    # a method, seen from app.py through its class, with calls that unpack keywords
    pair = {ids["def add"], ids["call add"]}
    assert deps.closure({ids["def add"]}) == deps.closure({ids["call add"]}) == pair


def test_new_locals_tie_their_readers_to_the_binding_hunk(make_repo) -> None:
    """make_hash() gains ``globs`` in one hunk, fills it in a nested function in
    another and passes it on in a third; ``lines`` already existed."""
    repo = make_repo("locals")
    body = b"    x = 1\n" * 12

    def source(bind: bytes, fill: bytes, use: bytes) -> bytes:
        return (b"def make_hash(attrs):\n    lines = []\n" + bind + body
                + b"    def add(a):\n        lines.append(a)\n" + fill + body
                + b"    return compile(lines" + use + b")\n")

    good = repo.commit({"m.py": source(b"", b"", b"")})
    bad = repo.commit({"m.py": source(b"    globs = {}\n    lines = ['#']\n",
                                      b"        globs[a] = a\n", b", globs")})
    diff, symbols, files = analysed(repo, good, bad)

    hunk = hunk_finder(diff)
    bind, fill, use = hunk("+    globs = {}"), hunk("+        globs[a]"), hunk("+    return")
    assert symbols[bind].locals_bound == {("make_hash", "globs")}  # not lines: it existed
    assert ("make_hash", "globs") in symbols[fill].locals_read  # read from the nested add()
    deps = derive(symbols, files)
    assert deps.needs[fill] == {bind} and deps.needs[use] == {bind}
    # the binding builds alone, but is tied to its readers: one unit, no real need
    assert deps.components([bind, fill, use]) == [sorted([bind, fill, use])]
    assert deps.needs_only().needs.get(bind, set()) == set()
    assert deps.needs_only().needs[fill] == {bind}


def test_a_dropped_local_needs_the_hunks_that_stop_reading_it(make_repo) -> None:
    """add_to_parser() stops building ``kwargs`` in one hunk; another hunk
    rewrites the lines that still read it. A hunk that only reads a local
    that stays bound needs nothing."""
    repo = make_repo("unbound")
    body = b"    x = 1\n" * 12

    def source(build: bytes, use: bytes, other: bytes) -> bytes:
        return (b"def add_to_parser(self, parser):\n    action = 'store'\n" + build + body
                + use + body + other)

    good = repo.commit({"m.py": source(
        b"    kwargs = {'dest': self.name}\n",
        b"    parser.add_option(self.opts, **kwargs)\n",
        b"    return action\n")})
    bad = repo.commit({"m.py": source(
        b"", b"    parser.add_option(obj=self, opts=self.opts)\n",
        b"    return action.upper()\n")})
    diff, symbols, files = analysed(repo, good, bad)

    hunk = hunk_finder(diff)
    build, use, other = hunk("-    kwargs"), hunk("+    parser.add_option"), hunk("+    return")
    assert symbols[build].locals_unbound == {("add_to_parser", "kwargs")}
    assert ("add_to_parser", "kwargs") in symbols[use].locals_read_old
    deps = derive(symbols, files)
    assert deps.needs[build] == {use}
    assert use not in deps.needs and other not in deps.needs


def test_a_dropped_parameter_needs_the_hunk_that_stops_reading_it(make_repo) -> None:
    """_init_script() loses its parameter ``cached`` on a line of its own;
    another hunk drops the lines that read it."""
    repo = make_repo("parameter")
    body = b"    x = 1\n" * 12

    def source(parameter: bytes, use: bytes) -> bytes:
        return (b"def _init_script(\n    attrs,\n" + parameter + b"    frozen,\n):\n" + body
                + use + b"    return attrs\n")

    good = repo.commit({"m.py": source(b"    cached,\n", b"    if cached:\n        x = 2\n")})
    bad = repo.commit({"m.py": source(b"", b"")})
    diff, symbols, files = analysed(repo, good, bad)

    hunk = hunk_finder(diff)
    parameter, use = hunk("-    cached,"), hunk("-    if cached:")
    assert symbols[parameter].locals_unbound == {("_init_script", "cached")}
    assert derive(symbols, files).needs[parameter] == {use}


def test_attributes_a_class_gains_tie_their_readers_to_the_binding(make_repo) -> None:
    """BaseCommand gains ``context_class`` in its body and ``config`` in
    __init__; other methods read both through self. A class attribute whose
    value changes and an attribute the class inherits bind nothing new."""
    repo = make_repo("attributes")
    inner = PAD.replace(b"#", b"    #")

    def source(attribute: bytes, limit: bytes, init: bytes, make: bytes, run: bytes) -> bytes:
        return (b"class BaseCommand(Base):\n" + attribute + limit + inner
                + b"    def __init__(self, name):\n        self.name = name\n" + init + inner
                + b"    def make_context(self):\n" + make + inner
                + b"    def run(self):\n" + run)

    good = repo.commit({"core.py": source(
        b"", b"    limit = 1\n", b"", b"        return Context(self)\n",
        b"        return self.inherited\n")})
    bad = repo.commit({"core.py": source(
        b"    context_class: type = Context\n", b"    limit = 2\n",
        b"        self.config = {}\n", b"        return self.context_class(self)\n",
        b"        return self.inherited, self.config, self.limit\n")})
    diff, symbols, files = analysed(repo, good, bad)

    hunk = hunk_finder(diff)
    attribute, init = hunk("+    context_class"), hunk("+        self.config")
    make, run = hunk("+        return self.context_class"), hunk("+        return self.inherited")
    scope = "class BaseCommand"
    assert symbols[attribute].locals_bound == {(scope, "context_class")}  # not limit
    assert symbols[init].locals_bound == {(scope, "config")}
    assert {read for read in symbols[run].locals_read if read[0] == scope} == {
        (scope, "config"), (scope, "limit")}  # not inherited
    deps = derive(symbols, files)
    assert deps.needs[make] == {attribute} and deps.needs[run] == {init}
    assert deps.needs_only().needs.get(init, set()) == set()  # tied, not needed
    resolver = Resolver(symbols)
    error = "AttributeError: 'BaseCommand' object has no attribute 'context_class'"
    assert attribute in resolver.resolve(error, {make}).add
