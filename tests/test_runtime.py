"""Derived dependencies follow what Python evaluates at run time.

Unit tests of the pure reading (:mod:`wynot.analysis.runtime`) on source
text, then the dependencies derived from real diffs in real repositories:
a name that Python never evaluates (a local variable's annotation, any
annotation under the future import, a string annotation, code under
``if TYPE_CHECKING:``) creates no need; a parameter or return annotation
does; a stub (``.pyi``) defines nothing a module can need.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable

from cli_helpers import run_wynot
from conftest import GitRepo
from wynot.analysis.model import analyse
from wynot.analysis.runtime import evaluated, postponed, read_inert
from wynot.diffread import read_diff

PAD = b"".join(b"PAD_%d = %d\n" % (i, i) for i in range(8))


def _inert(source: str) -> tuple[dict[int, set[str]], frozenset[int]]:
    tree = ast.parse(source)
    found = read_inert(tree.body, future=postponed(tree))
    return {n: set(c) for n, c in found.names.items()}, found.dead


def test_local_annotations_are_inert_and_parameter_annotations_are_not() -> None:
    names, dead = _inert(
        "import typing as t\n"
        "def f(x: Foo, *a: Bar) -> Baz:\n"
        "    rv: t.Dict[str, Qux] = {}\n"
        "    y: 'Later'\n"
        "    return rv\n"
        "class C:\n"
        "    field: Kind = 1\n"
        "    def m(self):\n"
        "        self.z: Attr = 2\n"
        "Module: Top = 3\n")
    assert names == {3: {"t", "Dict", "str", "Qux"}, 4: {"Later"}, 9: {"Attr"}}
    assert dead == frozenset()


def test_the_future_import_makes_every_annotation_inert() -> None:
    names, _ = _inert(
        '"""Doc."""\n'
        "from __future__ import annotations\n"
        "def f(x: Foo) -> Bar:\n"
        "    pass\n"
        "class C:\n"
        "    field: Kind = 1\n"
        "Top: Thing = 2\n")
    assert names == {3: {"Foo", "Bar"}, 6: {"Kind"}, 7: {"Thing"}}
    tree = ast.parse("import os\nfrom __future__ import annotations\n")
    assert not postponed(tree)  # not a future import there (and no longer valid)


def test_strings_inside_evaluated_annotations_are_inert() -> None:
    names, _ = _inert("def f(x: t.Optional['Rule'] = None) -> 'Map':\n    pass\n")
    assert names == {1: {"Rule", "Map"}}


def test_type_checking_blocks_never_run_but_their_else_does() -> None:
    names, dead = _inert(
        "import typing\n"
        "if typing.TYPE_CHECKING:\n"
        "    from .wsgi import Env\n"
        "    import json\n"
        "else:\n"
        "    Env = dict\n"
        "if not TYPE_CHECKING:\n"
        "    run = 1\n"
        "else:\n"
        "    from .x import y\n"
        "def g():\n"
        "    if t.TYPE_CHECKING:\n"
        "        import z\n"
        "    return 1\n")
    assert dead == frozenset({3, 4, 10, 13})
    assert names == {}


def test_a_name_is_blanked_only_where_every_occurrence_is_inert() -> None:
    source = "def f():\n    rv: Foo = Foo()\n    x: t.List[int] = []\n    return rv\n"
    tree = ast.parse(source)
    inert = read_inert(tree.body, future=False)
    lines = source.splitlines()
    kept = evaluated(lines[1:3], [2, 3], inert)
    assert kept[0].count("Foo") == 2  # the call evaluates it: the line keeps both
    assert "t." not in kept[1] and "List" not in kept[1] and "x:" in kept[1]


def _deps(repo: GitRepo, good: str, bad: str) -> tuple[dict[str, int], set[tuple[str, str]]]:
    """Each change by a short name (its path and first added line), and its needs."""
    diff = read_diff(repo.path, good, bad)
    deps = analyse(diff).dependencies().needs_only()

    def name(cid: int) -> str:
        change = next(c for c in diff.changes if c.id == cid)
        added = [line[1:] for line in (change.hunk.text if change.hunk else "").split("\n")[1:]
                 if line.startswith("+")]
        return f"{change.path}:{added[0].strip() if added else change.kind.name}"

    ids = {name(c.id): c.id for c in diff.changes}
    return ids, {(name(a), name(b)) for a, bs in deps.needs.items() for b in bs}


def _module(*parts: bytes) -> bytes:
    return PAD.join(parts)


def test_a_local_annotation_needs_no_import_but_a_parameter_annotation_does(
        make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo("annotations")
    good = repo.commit({"app.py": _module(
        b"import os\n", b"def build(values):\n    out = {}\n    return out\n",
        b"def parse(text):\n    return text\n")})
    bad = repo.commit({"app.py": _module(
        b"import os\nimport typing as t\n",
        b"def build(values):\n    out: t.Dict[str, int] = {}\n    return out\n",
        b"def parse(text: t.Text):\n    return text\n")})
    ids, needs = _deps(repo, good, bad)
    assert len(ids) == 3, ids
    assert ("app.py:out: t.Dict[str, int] = {}", "app.py:import typing as t") not in needs
    assert ("app.py:def parse(text: t.Text):", "app.py:import typing as t") in needs


def test_the_future_import_and_type_checking_imports_create_no_needs(
        make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo("future")
    head = b"from __future__ import annotations\nimport typing\n"
    good = repo.commit({
        "lib.py": b"X = 1\n" + PAD,
        "app.py": _module(head, b"def parse(text):\n    return text\n",
                          b"def run():\n    return 1\n")})
    bad = repo.commit({
        "lib.py": b"X = 1\n" + PAD + b"class Token:\n    pass\n",
        "app.py": _module(head + b"if typing.TYPE_CHECKING:\n    from lib import Token\n",
                          b"def parse(text: Token) -> Token:\n    return text\n",
                          b"def run():\n    return Token()\n")})
    ids, needs = _deps(repo, good, bad)
    parse, run = "app.py:def parse(text: Token) -> Token:", "app.py:return Token()"
    assert parse in ids and run in ids, ids
    assert not any(a == parse for a, _ in needs), needs  # annotations are not evaluated
    # run() evaluates Token: it needs the definition; the import under
    # TYPE_CHECKING binds nothing at run time, and nothing needs it.
    assert (run, "lib.py:class Token:") in needs
    importer = "app.py:if typing.TYPE_CHECKING:"
    assert importer in ids and not any(b == importer for _, b in needs), needs


def test_a_stub_defines_nothing_a_module_needs(make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo("stub")
    good = repo.commit({
        "pkg/__init__.py": b"",
        "pkg/data.py": b"class Old:\n    pass\n" + PAD,
        "pkg/use.py": b"from pkg.data import Old\n" + PAD + b"def f():\n    return Old()\n",
    })
    bad = repo.commit({
        "pkg/__init__.py": b"",
        "pkg/data.py": b"class Old:\n    pass\n" + PAD,
        "pkg/data.pyi": b"class Old: ...\nclass Fresh: ...\n",
        "pkg/helpers.pyi": b"from pkg.data import Fresh\ndef helper(x: Fresh) -> None: ...\n",
        "pkg/use.py": b"from pkg.data import Old\n" + PAD
        + b"def f():\n    return Old(Fresh)\n",
    })
    ids, needs = _deps(repo, good, bad)
    use = "pkg/use.py:return Old(Fresh)"
    stub, other_stub = "pkg/data.pyi:ADD", "pkg/helpers.pyi:ADD"
    assert {use, stub, other_stub} <= set(ids), ids
    assert not any(a == use for a, _ in needs), needs
    assert (other_stub, stub) in needs  # stubs still read each other


def test_wynot_finds_a_cause_whose_local_annotation_names_a_new_import(
        make_repo: Callable[..., GitRepo]) -> None:
    """End to end: the cause annotates a local with ``t``, which another hunk
    imports. Were the annotation a use, the cause alone would not be closed
    and dd+ would end needing context; as it is not, dd+ runs the cause alone
    and it fails."""
    repo = make_repo("e2e")
    loop = b"    for v in values:\n        out += v\n    return out\n"
    calc = _module(b"import os\n", b"def total(values):\n    out = 0\n" + loop,
                   b"def mean(values):\n    return total(values) / len(values)\n")
    test = b"import sys\nfrom calc import total\nsys.exit(0 if total([1, 2]) == 3 else 1)\n"
    good = repo.commit({"calc.py": calc, "test_calc.py": test})
    bad = repo.commit({"test_calc.py": test, "calc.py": _module(
        b"import os\nimport typing as t\n",
        b"def total(values):\n    out: t.Union[int, float] = 1\n" + loop,
        b"def mean(values: t.List[int]) -> float:\n    return total(values) / len(values)\n")})
    done = run_wynot(good, bad, "--json", "--no-cache", "--strategy", "hunks", "--",
                     "python3", "test_calc.py", cwd=repo.path)
    report = json.loads(done.stdout)
    assert len(report["changes"]) == 1, done.stderr
    assert any(t["phase"] == "search" and t["changes"] == 1 and t["outcome"] == "fail"
               and t["ran"] for t in report["tests"]), done.stderr
    assert "needs context" not in done.stderr
    assert "out: t.Union" in json.dumps(report["changes"][0])
