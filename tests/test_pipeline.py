"""The whole search on small real repositories: context, resolution, budget, resume."""

from __future__ import annotations

import json

import pytest

from cli_helpers import assert_no_configuration_ran_twice, run_wynot
from conftest import Executable, GitRepo

PAD = b"".join(b"# filler %d\n" % i for i in range(10))
# Exit 125 when the project does not import, 1 when the behaviour is wrong.
RUNNER = Executable(b"""#!/usr/bin/env python3
import sys
try:
    from app.main import total
    result = total([1, 2, 3])
except Exception as error:
    print(f"{type(error).__name__}: {error}")
    sys.exit(125)
sys.exit(0 if result == 6 else 1)
""")


@pytest.fixture
def app(make_repo) -> GitRepo:
    """BAD adds a helper in app/util.py and the cause in app/main.py uses it;
    plus unrelated edits in other files."""
    repo = make_repo("app")
    repo.commit({
        "run_test.py": RUNNER,
        "app/__init__.py": b"",
        "app/util.py": b"def first(xs):\n    return xs[0]\n" + PAD,
        "app/main.py": b"from app.util import first\n" + PAD
        + b"def total(xs):\n    return sum(xs)\n" + PAD + b"NAME = 'app'\n",
        "docs/notes.txt": b"notes\n" + PAD + b"end\n",
        "lib/extra.py": b"A = 1\n" + PAD + b"B = 2\n",
    })
    repo.git("tag", "good")
    repo.commit({
        "run_test.py": RUNNER,
        "app/__init__.py": b"",
        "app/util.py": b"def first(xs):\n    return xs[0]\n" + PAD
        + b"def drop_last(xs):\n    return xs[:-1]\n",
        "app/main.py": b"from app.util import first, drop_last\n" + PAD
        + b"def total(xs):\n    return sum(drop_last(xs))\n" + PAD + b"NAME = 'the app'\n",
        "docs/notes.txt": b"notes, revised\n" + PAD + b"the end\n",
        "lib/extra.py": b"A = 10\n" + PAD + b"B = 20\n",
    })
    repo.git("tag", "bad")
    return repo


def wynot_json(repo: GitRepo, *options: str):
    result = run_wynot("good", "bad", "--json", "--no-cache", *options, "--", "./run_test.py",
                       cwd=repo.path)
    return result.returncode, json.loads(result.stdout) if result.stdout else None, result


ROLES = {"app/main.py:-1,4": "context", "app/main.py:-10,7": "cause",
         "app/util.py:-10,3": "context"}


@pytest.mark.parametrize("options", [
    [],
    ["--no-predict"],
    ["--no-resolve"],
    ["--no-keep-passing"],
    ["--group", "none", "--no-predict", "--no-resolve", "--no-keep-passing"],
], ids=["default", "resolve-only", "predict-only", "published-dd+", "flat"])
def test_cause_comes_with_the_context_it_needs(app: GitRepo, options) -> None:
    code, report, result = wynot_json(app, *options)
    assert code == 0, result.stderr
    # The changed call is the cause; it cannot run without the import and the helper.
    assert {c["label"]: c["role"] for c in report["changes"]} == ROLES
    assert report["verified"] and report["minimal"]
    assert_no_configuration_ran_twice(report)


def test_resolution_adds_the_definition_a_configuration_misses(app: GitRepo) -> None:
    code, report, result = wynot_json(app, "--no-predict")
    assert code == 0, result.stderr
    assert "resolving: drop_last" in result.stderr
    assert any(t["resolving"] for t in report["tests"])


def test_prediction_skips_configurations_without_running_them(app: GitRepo) -> None:
    code, report, _ = wynot_json(app, "--no-resolve")
    assert code == 0
    predicted = [t for t in report["tests"] if t["source"] == "predicted"]
    assert predicted and not any(t["ran"] for t in predicted)
    flat_code, flat, _ = wynot_json(app, "--group", "none", "--no-predict", "--no-resolve")
    assert flat_code == 0
    runs = sum(t["ran"] for t in report["tests"])
    assert runs <= sum(t["ran"] for t in flat["tests"])


def test_budget_ends_with_the_best_answer_so_far(app: GitRepo) -> None:
    code, report, result = wynot_json(app, "--max-tests", "1", "--group", "none",
                                      "--no-predict", "--no-resolve")
    assert code == 4, result.stderr
    assert report["minimal"] is False and report["verified"] is True
    assert "budget of 1 tests spent" in result.stderr
    text = run_wynot("good", "bad", "--no-cache", "--max-tests", "1", "--group", "none",
                     "--no-predict", "--no-resolve", "--", "./run_test.py", cwd=app.path)
    assert "NOT minimal" in text.stdout


@pytest.mark.parametrize("budget", [1, 3, 5, 7])  # 6 and 7 stop while labelling
def test_the_budget_bounds_every_search_test(app: GitRepo, budget: int) -> None:
    code, report, result = wynot_json(app, "--max-tests", str(budget))
    assert code in (0, 4), result.stderr
    ran = [t["phase"] for t in report["tests"] if t["ran"]]
    assert ran.count("search") + ran.count("label") <= budget
    if code == 4:  # not minimal, not labelled; verified all the same
        assert ran.count("verify") == 1
        assert report["verified"] and not report["minimal"]
        assert all(not c.get("role") for c in report["changes"])


def test_a_rerun_resumes_from_the_cache(app: GitRepo) -> None:
    first = run_wynot("good", "bad", "--json", "--", "./run_test.py", cwd=app.path)
    assert first.returncode == 0
    second = run_wynot("good", "bad", "--json", "--", "./run_test.py", cwd=app.path)
    assert second.returncode == 0
    tests = json.loads(second.stdout)["tests"]
    ran = [t["phase"] for t in tests if t["ran"]]
    assert ran == ["verify"], "only the verification runs again"
    assert json.loads(second.stdout)["changes"] == json.loads(first.stdout)["changes"]


SUGGEST_TEST = Executable(b"""#!/usr/bin/env python3
import sys
try:
    import lib
    found = lib.suggest("cuont", ["count", "verbose"])
except Exception as error:
    print(f"{type(error).__name__}: {error}")
    sys.exit(125)
sys.exit(1 if found else 0)
""")


def test_context_that_only_dependencies_tie_in_is_dropped_as_a_pair(make_repo) -> None:
    """The cause (suggest by first letter) is annotated with ``t.List``, so it
    needs the import hunk; that hunk also drops ``import re``, which quote()
    used (quote() is never called), so prediction ties in the hunk that
    rewrites quote() and reorders render()'s parameters, and that hunk and the
    rewritten call of render() need each other: a pair no single removal can
    drop. The answer is the cause and the import, as the test shows."""
    repo = make_repo("pairs")

    def lib(imports: bytes, render: bytes, call: bytes, suggest: bytes) -> bytes:
        return imports + PAD + render + PAD + call + PAD + suggest

    repo.commit({"run_test.py": SUGGEST_TEST, "lib.py": lib(
        b"import re\n",
        b"def quote(s):\n    return re.escape(s)\ndef render(name, obj=None):\n    return name\n",
        b"A = render('x', obj=1)\n",
        b"def suggest(word, options):\n    return [o for o in options if o.startswith(word)]\n")})
    repo.git("tag", "good")
    repo.commit({"run_test.py": SUGGEST_TEST, "lib.py": lib(
        b"import typing as t\n",
        b"def quote(s):\n    return s\ndef render(obj, name):\n    return name\n",
        b"A = render(1, name='x')\n",
        b"def suggest(word, options: t.List[str]):\n"
        b"    return [o for o in options if o[:1] == word[:1]]\n")})
    repo.git("tag", "bad")
    code, report, result = wynot_json(repo)
    assert code == 0, result.stderr
    assert {c["label"]: c["role"] for c in report["changes"]} == {
        "lib.py:-1,4": "context", "lib.py:-34,5": "cause"}
    assert report["verified"] and report["minimal"]



def test_context_the_dependencies_pull_in_from_afar_is_removed_first(make_repo) -> None:
    """The cause (suggest by first letter) needs the import hunk for ``t``;
    that hunk drops ``import re``, so prediction also pulls in the rewrites
    of quote() and pattern(), which used re and which the test never calls.
    Labelling first removes both of them in one run; then a run without
    each of the other two proves the answer: three label runs, where one
    removal per change takes four."""
    repo = make_repo("afar")
    repo.commit({"run_test.py": SUGGEST_TEST, "lib.py": b"import re\n" + PAD
                 + b"def quote(s):\n    return re.escape(s)\n" + PAD
                 + b"def pattern(s):\n    return re.compile(s)\n" + PAD
                 + b"def suggest(word, options):\n"
                 + b"    return [o for o in options if o.startswith(word)]\n"})
    repo.git("tag", "good")
    repo.commit({"run_test.py": SUGGEST_TEST, "lib.py": b"import typing as t\n" + PAD
                 + b"def quote(s):\n    return s\n" + PAD
                 + b"def pattern(s):\n    return s\n" + PAD
                 + b"def suggest(word, options: t.List[str]):\n"
                 + b"    return [o for o in options if o[:1] == word[:1]]\n"})
    repo.git("tag", "bad")
    code, report, result = wynot_json(repo)
    assert code == 0, result.stderr
    assert {c["label"]: c["role"] for c in report["changes"]} == {
        "lib.py:-1,4": "context", "lib.py:-33,5": "cause"}
    assert [t["phase"] for t in report["tests"] if t["ran"]].count("label") == 3


HASH_TEST = Executable(b"""#!/usr/bin/env python3
import sys
try:
    import lib
    found = lib.value()
except Exception as error:
    print(f"{type(error).__name__}: {error}")
    sys.exit(125)
sys.exit({2: 0, 11: 1}.get(found, 125))
""")


@pytest.mark.parametrize("alone", [True, False], ids=["whole-diff", "with-other-changes"])
def test_a_new_local_and_its_readers_are_searched_as_one_edit(make_repo, alone: bool) -> None:
    """value() gains ``globs`` (one hunk), fills it (the cause, another hunk)
    and passes it on (a third). Filling without passing cannot judge (y is
    undefined in the evaluated text), so all three are the answer. The
    binding is tied to its readers, but it builds without them: labelling
    proves the answer with one removal per change, not pair removals. When
    the three are the whole diff, no smaller configuration is worth a run."""
    repo = make_repo("ties")
    other = {} if alone else {"other.py": b"LIMIT = 1\n"}
    inner = PAD.replace(b"#", b"    #")

    def lib(bind: bytes, fill: bytes, call: bytes) -> bytes:
        return (b"def run(expr, globs=None):\n"
                b"    return eval(expr, {'x': 1, **(globs or {})})\n" + PAD
                + b"def value():\n    parts = ['x']\n" + bind + inner
                + b"    for _ in range(1):\n" + fill + b"        parts.append('x')\n" + inner
                + b"    return run('+'.join(parts)" + call + b")\n")

    repo.commit({"run_test.py": HASH_TEST, "lib.py": lib(b"", b"", b""), **other})
    repo.git("tag", "good")
    other = {} if alone else {"other.py": b"LIMIT = 2\n"}
    repo.commit({"run_test.py": HASH_TEST, **other, "lib.py": lib(
        b"    globs = {}\n", b"        globs['y'] = 9\n        parts.append('y')\n",
        b", globs")})
    repo.git("tag", "bad")
    code, report, result = wynot_json(repo)
    assert code == 0, result.stderr
    roles = {c["label"]: c["role"] for c in report["changes"]}
    assert sorted(roles.values()) == ["cause", "context", "context"]
    ran = [t["phase"] for t in report["tests"] if t["ran"]]
    assert ran.count("label") == 3
    assert ran.count("search") == (0 if alone else 1)
    assert report["verified"] and report["minimal"]


LAST_TEST = Executable(b"""#!/usr/bin/env python3
import sys
sys.path.insert(0, "src")
import m8
sys.exit(0 if m8.VALUE == 8 else 1)
""")


def test_a_passing_first_half_stays_applied(make_repo) -> None:
    """Eight independent one-hunk files, the cause in the last. Each first
    half passes; dd+ as published then also tests the second half alone
    (6 search runs), while wynot keeps the passing half applied and goes on
    inside the second (3 runs, plus 1 to see the answer fail on its own).
    The shortcut is on by default with derived dependencies only."""
    repo = make_repo("halves")
    names = [f"src/m{i}.py" for i in range(1, 9)]
    repo.commit({"run_test.py": LAST_TEST,
                 **dict.fromkeys(names, PAD + b"VALUE = 8\n" + PAD)})
    repo.git("tag", "good")
    repo.commit({"run_test.py": LAST_TEST,
                 **dict.fromkeys(names, PAD + b"VALUE = 9\n" + PAD)})
    repo.git("tag", "bad")
    search_runs = {}
    for options in ("", "--no-keep-passing", "--no-predict", "--no-predict --keep-passing"):
        code, report, result = wynot_json(repo, *options.split())
        assert code == 0, result.stderr
        assert [c["label"] for c in report["changes"]] == ["src/m8.py:-8,7"]
        search_runs[options] = sum(t["ran"] and t["phase"] == "search" for t in report["tests"])
    assert search_runs == {"": 4, "--no-keep-passing": 6, "--no-predict": 6,
                           "--no-predict --keep-passing": 4}
