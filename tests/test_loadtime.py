"""Derived needs follow what loading a module runs, in JavaScript.

Unit tests of :mod:`wynot.analysis.loadtime` on source text, then the
dependencies derived from real diffs in real repositories: a use inside a
function body that loading the module does not run gives a hint, not a need
(the configuration without the definition is tested, not predicted), a
use that runs at load time still predicts, and C keeps every need. Last,
wynot end to end with ``node``: the configuration that calls a helper only
inside an uncalled function, without the helper, runs and passes.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cli_helpers import run_wynot
from conftest import GitRepo
from wynot.analysis.depends import Dependencies
from wynot.analysis.loadtime import in_spans
from wynot.analysis.model import analyse
from wynot.analysis.treesitter import language_for, outline
from wynot.diffread import read_diff

pytestmark = pytest.mark.skipif(language_for("a.js") is None,
                                reason="tree-sitter-javascript is not installed")


def _deferred(source: str) -> set[int]:
    side = outline("javascript", source.encode())
    assert side is not None
    return {n for n in range(1, source.count("\n") + 2) if in_spans(n, side.deferred)}


def test_declared_and_stored_function_bodies_are_deferred() -> None:
    lines = _deferred(
        "function helper(s) {\n"           # 1
        "  return s.trim();\n"              # 2 deferred
        "}\n"                               # 3
        "Parser.prototype.parse = function (src) {\n"  # 4
        "  return helper(src);\n"           # 5 deferred
        "};\n"                              # 6
        "var table = {\n"                   # 7
        "  cell: function (x) {\n"          # 8
        "    return x;\n"                   # 9 deferred
        "  }\n"                             # 10
        "};\n"                              # 11
        "class Box {\n"                     # 12
        "  open() {\n"                      # 13
        "    return helper(this.lid);\n"    # 14 deferred
        "  }\n"                             # 15
        "}\n"                               # 16
        "module.exports = Box;\n")          # 17
    assert lines == {2, 5, 9, 14}


def test_wrappers_callbacks_and_what_loading_calls_run_at_load_time() -> None:
    lines = _deferred(
        ";(function (root) {\n"             # 1 an immediately invoked wrapper
        "  var block = merge({}, root);\n"  # 2 runs
        "  function merge(a, b) {\n"        # 3 called above: runs
        "    return copy(a, b);\n"          # 4 runs
        "  }\n"                             # 5
        "  function copy(a, b) {\n"         # 6 called by merge: runs
        "    return Object.assign(a, b);\n"  # 7 runs
        "  }\n"                             # 8
        "  [1, 2].forEach(function (n) {\n"  # 9 a callback: taken to run
        "    root.push(n);\n"               # 10 runs
        "  });\n"                           # 11
        "  function later(x) {\n"           # 12 never called while loading
        "    return copy(x, x);\n"          # 13 deferred
        "  }\n"                             # 14
        "})(this);\n")                      # 15
    assert lines == {13}


def _names(repo: GitRepo, good: str, bad: str) -> tuple[dict[str, int], Dependencies]:
    """Each change by its first added line, and the analysis's dependencies."""
    diff = read_diff(repo.path, good, bad)
    deps = analyse(diff).dependencies()

    def name(cid: int) -> str:
        change = next(c for c in diff.changes if c.id == cid)
        hunk = change.hunk.text if change.hunk else ""
        return next(line[1:].strip() for line in hunk.split("\n")[1:] if line.startswith("+"))

    return {name(c.id): c.id for c in diff.changes}, deps


PAD = "".join(f"var pad{i} = {i};\n" for i in range(8))
REST = "".join(f"var rest{i} = {i};\n" for i in range(8))
GOOD_JS = ("'use strict';\n" + PAD
           + "function add(a, b) {\n  return a + b;\n}\n" + PAD
           + "function format(x) {\n  var s = String(x);\n  return '[' + s + ']';\n}\n" + PAD
           + REST + "module.exports = { add: add, format: format };\n")
HELPER = "function shout(s) {\n  return s.toUpperCase();\n}\n"


def _bad_js(*, load_time_use: bool) -> str:
    """The cause (``add``) first, then ``format``'s new use of ``shout``, then
    ``shout`` itself (declarations are hoisted): dd+'s first half holds the
    cause and the use without the helper."""
    return ("'use strict';\n" + PAD
            + "function add(a, b) {\n  return a + b + 1;\n}\n" + PAD
            + "function format(x) {\n  var s = shout(String(x));\n  return '[' + s + ']';\n}\n"
            + PAD + HELPER + REST + ("var LOUD = shout('ready');\n" if load_time_use else "")
            + "module.exports = { add: add, format: format };\n")


def test_a_use_inside_a_function_body_is_a_hint_and_a_load_time_use_a_need(
        make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo("jsneeds")
    good = repo.commit({"lib.js": GOOD_JS.encode()})
    bad = repo.commit({"lib.js": _bad_js(load_time_use=True).encode()})
    ids, deps = _names(repo, good, bad)
    helper, user = ids["function shout(s) {"], ids["var s = shout(String(x));"]
    loader = ids["var LOUD = shout('ready');"]
    assert deps.is_closed(frozenset({user}))           # tested, not predicted
    assert any(a == user and b == helper for a, b, _ in deps.hints)  # still a repair hint
    assert not deps.is_closed(frozenset({loader}))     # predicted: the module cannot load
    assert helper in deps.needs_only().needs[loader]


def test_removing_a_helper_needs_only_its_load_time_users_changed(
        make_repo: Callable[..., GitRepo]) -> None:
    """The other rule the same way: removing ``shout`` needs the change that
    stops calling it at load time, and gives only a hint towards the change
    that stops calling it inside ``format``."""
    repo = make_repo("jsremove")
    good = repo.commit({"lib.js": _bad_js(load_time_use=True).encode()})
    bad = repo.commit({"lib.js": GOOD_JS.encode()})
    diff = read_diff(repo.path, good, bad)
    deps = analyse(diff).dependencies()
    by_line = {next(line[1:].strip() for line in c.hunk.text.split("\n")[1:]
                    if line.startswith("-")): c.id for c in diff.changes if c.hunk}
    remover, user = by_line["function shout(s) {"], by_line["var s = shout(String(x));"]
    loader = by_line["var LOUD = shout('ready');"]
    assert deps.needs_only().needs[remover] == {loader}
    assert any(a == remover and b == user for a, b, _ in deps.hints)


def test_c_keeps_the_need_of_a_use_inside_a_function_body(
        make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo("cneeds")
    pad = "".join(f"int pad{i} = {i};\n" for i in range(8))
    good = repo.commit({"lib.c": (pad + "int format(int x)\n{\n  int s = x;\n"
                                   "  return s;\n}\n").encode()})
    bad = repo.commit({"lib.c": ("int shout(int s)\n{\n  return -s;\n}\n" + pad
                                 + "int format(int x)\n{\n  int s = shout(x);\n"
                                 "  return s;\n}\n").encode()})
    ids, deps = _names(repo, good, bad)
    user, helper = ids["int s = shout(x);"], ids["int shout(int s)"]
    assert not deps.is_closed(frozenset({user}))
    assert helper in deps.needs_only().needs[user]


TEST_JS = """'use strict';
const fs = require('fs');
const text = fs.readFileSync('lib.js', 'utf8');
console.log('helper ' + /function shout/.test(text) + ', user ' + /shout\\(String/.test(text));
let lib;
try {
  lib = require('./lib.js');
} catch (err) {
  console.log('does not load: ' + err);
  process.exit(125);
}
process.exit(lib.add(1, 2) === 3 ? 0 : 1);
"""


NEEDS_NODE = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def _search(repo: GitRepo, test_js: str) -> tuple[dict[str, Any], str]:
    """wynot's JSON report and log on GOOD_JS -> the cause, the use, the helper;
    the answer is checked to be the changed ``add`` alone, with nothing predicted."""
    good = repo.commit({"lib.js": GOOD_JS.encode(), "test.js": test_js.encode()})
    bad = repo.commit({"lib.js": _bad_js(load_time_use=False).encode(),
                       "test.js": test_js.encode()})
    done = run_wynot(good, bad, "--json", "--no-cache", "--strategy", "hunks", "--",
                     "node", "test.js", cwd=repo.path)
    report = json.loads(done.stdout)
    assert len(report["changes"]) == 1, done.stderr
    assert "a + b + 1" in json.dumps(report["changes"][0])
    assert not any(t["source"] == "predicted" for t in report["tests"]), report["tests"]
    return report, done.stderr


@NEEDS_NODE
def test_wynot_runs_a_configuration_whose_helper_is_missing_inside_a_function(
        make_repo: Callable[..., GitRepo]) -> None:
    """The helper's user, without the helper, is run (it loads, and passes: the
    test never calls ``format``), not predicted UNRESOLVED; the answer is the
    changed ``add`` alone."""
    report, log = _search(make_repo("jsrun"), TEST_JS)
    ran = {t["outcome"] for t in report["tests"] if t["ran"] and t["output"]
           and "helper false, user true" in Path(t["output"]).read_text(encoding="utf-8")}
    assert ran and ran <= {"pass", "fail"}, (ran, log)


CALLING_TEST_JS = """'use strict';
const lib = require('./lib.js');
lib.format(1);  // an uncaught ReferenceError when shout is missing: node exits 1
process.exit(lib.add(1, 2) === 3 ? 0 : 1);
"""


@NEEDS_NODE
def test_a_called_helper_that_is_missing_is_repaired_by_its_name(
        make_repo: Callable[..., GitRepo]) -> None:
    """When the test does call the function, the missing helper is Node's
    ``ReferenceError``: that run did not build (not a failure to blame), and
    resolution adds the change that defines the name it reports."""
    _, log = _search(make_repo("jsrepair"), CALLING_TEST_JS)
    assert "resolving: shout -> adding 1 change" in log
