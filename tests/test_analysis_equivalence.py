"""The faster readings of the analysis find exactly what the earlier ones found.

The Python walk, the line scan, the token reading and the diff reading were
made cheaper without changing what they return; each is checked here against
the earlier way of computing it, on tricky code and on modules of Python's
standard library.
"""

from __future__ import annotations

import ast
import io
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
import reference_walks
from hypothesis import given, settings
from hypothesis import strategies as st
from unidiff.patch import PatchSet

from conftest import GitRepo
from wynot.analysis import lexical
from wynot.analysis.clusters import word_counts
from wynot.analysis.python import PythonSide, _touching, analyse_python, hunk_shapes
from wynot.analysis.symbols import analyse_file
from wynot.analysis.treesitter import language_for, tokens
from wynot.changes import Change, Diff, Hunk
from wynot.diffread import (
    _binary_patch,
    _hunk,
    _name_of,
    _parse_part,
    _patch_name,
    _split_patch,
    read_diff,
)
from wynot.errors import GitError
from wynot.git import git

TRICKY = '''
import os.path as osp, sys
from x import (a as b, c)

LIMIT: int = 3
VALUE = LIMIT + 1

def top(a, /, b=lambda q, r=1: q, *args, c, d=None, **kw) -> int:
    global VALUE
    total = [y for y in args if y]
    try:
        import json
    except (ValueError, KeyError) as err:
        total.append(err)
    else:
        def inner(z=total):
            nonlocal_name = z
            return lambda w: w + nonlocal_name
        class Local:
            field = 1
    for k, v in kw.items():
        total += [k]
    with open(a) as fh, open(b) as gh:
        data = fh.read()
    match data:
        case {"k": value, **rest}:
            seen = value
        case [first, *others] if first:
            seen = others
        case _:
            seen = None
    return top(a, b, *args, c=c, **kw) + inner() + seen


@decorator(arg=1)
class Parser(Base, metaclass=Meta):
    """A class."""
    kind = "parser"
    count: int = 0
    other, more = 1, 2

    def __init__(self, stream, *, strict=False):
        self.stream = stream
        self.strict = strict
        self.buffer: list[str] = []

    @staticmethod
    def helper(x, y=2):
        return x.y

    @classmethod
    def make(cls, text):
        return cls(text, strict=True)

    async def fetch(self, url, timeout=3):
        async with self.session.get(url) as reply:
            self.last = await reply.text()
        async for item in reply:
            yield item

    def parse(self):
        def nested(self_again):
            self_again.value = 1
            return self.stream
        if self.strict:
            def only_strict():
                return self.buffer
        result = self.helper(self.stream, y=self.count)
        self.count += 1
        return nested(self) or only_strict()

    class Inner:
        def method(this, value):
            this.value = value
            return Parser.make(value, extra=1)

if __name__ == "__main__":
    def main(argv=sys.argv):
        parser = Parser(argv[1:], strict=True)
        return parser.parse(*argv, **{"a": 1})
    sys.exit(main())
'''


def _comparable(side: PythonSide | None, spans: list[tuple[int, int]] | None = None) -> Any:
    """A side's readings, with the order of equal-line entries left out; with
    ``spans``, the keywords and calls on their lines only (where they are read)."""
    if side is None:
        return None
    asked = range(10**9) if spans is None else {n for a, b in spans for n in range(a, b + 1)}
    calls = {line: found for line, found in side.shapes.calls.items() if line in asked}
    return (side.params, {line: found for line, found in side.keywords.items() if line in asked},
            {line: Counter(map(repr, found)) for line, found in side.shapes.signatures.items()},
            {line: Counter(map(repr, found)) for line, found in calls.items()},
            side.uses, side.bound, side.scopes)


def _reference(data: bytes, spans: list[tuple[int, int]] | None) -> Any:
    """What the two earlier walks found on one side."""
    tree = ast.parse(data)
    if spans is not None:
        tree = ast.Module(body=[s for s in tree.body if _touches(s, spans)], type_ignores=[])
    params, keywords, shapes = reference_walks.walk_calls(tree)
    uses, bound, scopes = reference_walks.walk_names(tree)
    return _comparable(PythonSide(params, keywords, shapes, uses, bound, scopes), spans)


def _touches(statement: ast.stmt, spans: list[tuple[int, int]]) -> bool:
    decorators = getattr(statement, "decorator_list", [])
    first = min([statement.lineno, *(d.lineno for d in decorators)])
    last = statement.end_lineno or statement.lineno
    return any(start <= last and first <= end for start, end in spans)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 60), st.integers(0, 8), st.integers(0, 3)), max_size=12),
       st.lists(st.tuples(st.integers(-1, 70), st.integers(0, 10)), max_size=10))
def test_the_statements_touched_are_those_one_range_at_a_time_finds(
        statements: list[tuple[int, int, int]], spans: list[tuple[int, int]]) -> None:
    """(line, length, decorators above it) statements against (start, length) ranges."""
    nodes: list[ast.stmt] = []
    for line, length, decorated in statements:
        node = ast.parse("@d\n" * decorated + "def f(): pass").body[0]
        node.lineno, node.end_lineno = line, line + length
        for n, decorator in enumerate(node.decorator_list):  # type: ignore[attr-defined]
            decorator.lineno = line - decorated + n
        nodes.append(node)
    nodes.append(ast.Pass(lineno=5, end_lineno=None))  # no last line: its first
    ranges = [(start, start + length) for start, length in spans]
    assert _touching(nodes, ranges) == [s for s in nodes if _touches(s, ranges)]


def _stdlib(every: int) -> list[Path]:
    return sorted(Path(ast.__file__).parent.glob("*.py"))[::every]


def test_the_one_walk_finds_what_the_two_walks_found_on_tricky_code() -> None:
    data = TRICKY.encode()
    assert _comparable(analyse_python(data)) == _reference(data, None)
    side = analyse_python(data)
    assert side is not None and side.bound["Parser.__init__"] >= {"stream", "strict"}
    assert {"stream", "strict", "buffer", "count", "last"} <= side.bound["class Parser"]
    assert {"q", "r", "total", "err", "json", "inner", "Local"} <= side.bound["top"]
    assert side.bound["top.inner"] == {"z", "nonlocal_name"}  # not the lambda's ``w``
    assert [name for _, _, name in side.scopes][:3] == ["top", "Parser", "Parser.__init__"]


@pytest.mark.parametrize("path", _stdlib(6), ids=lambda p: p.name)
def test_the_one_walk_finds_what_the_two_walks_found_on_the_standard_library(
        path: Path) -> None:
    data = path.read_bytes()
    lines = data.count(b"\n") + 1
    rng = random.Random(path.name)
    spans = sorted((a, a + rng.randint(0, 12)) for a in rng.sample(range(1, lines + 1),
                                                                    min(lines, 6)))
    for asked in (None, spans):
        assert _comparable(analyse_python(data, asked), asked) == _reference(data, asked)


def _lines(paths: Iterable[Path]) -> list[str]:
    return [line for p in paths for line in p.read_text(errors="replace").splitlines()]


C_LINES = """#include <stdio.h>
#define LIMIT 10
typedef unsigned long size;
struct point { int x; };
static int parse(const char *text, size n) {
    for (int i = 0; i < n; i++) a.b(c);
    return f(x)->y;
}
int main(int argc, char **argv) { return parse(argv[1], 3) == 0; }
""".splitlines()


def _tokens_per_line(lines: list[str]) -> set[str]:
    found: set[str] = set()
    for line in lines:
        found.update(t for t in lexical.IDENTIFIER.findall(line)
                     if len(t) > 1 and t not in lexical.STOPWORDS)
        found.update(lexical._SHORT_MODULE.findall(line))
    return found


def _definitions_unfiltered(lines: list[str]) -> set[str]:
    found = set()
    for line in lines:
        for pattern in lexical._DEFINITIONS:
            match = pattern.match(line)
            if match and match.group(1) not in lexical.STOPWORDS:
                found.add(match.group(1))
                break
    return found


def _imports_unfiltered(lines: list[str]) -> set[str]:
    found: set[str] = set()
    for line in lines:
        statement = lexical._IMPORT.match(line)
        if statement:
            found.update(alias or name.split(".")[0]
                         for name, alias in lexical._IMPORTED.findall(statement.group(1)))
    return found - lexical.STOPWORDS


def test_the_line_scan_reads_what_it_read_line_by_line() -> None:
    lines = _lines(_stdlib(10)) + C_LINES + TRICKY.splitlines()
    rng = random.Random(3)
    for _ in range(300):
        start = rng.randrange(len(lines))
        chunk = lines[start:start + rng.randint(0, 40)]
        assert lexical.tokens(chunk) == _tokens_per_line(chunk)
        assert lexical.definitions(chunk) == _definitions_unfiltered(chunk)
        assert lexical.imports(chunk) == _imports_unfiltered(chunk)
    assert lexical.definitions(C_LINES) >= {"LIMIT", "size", "point", "parse"}


@settings(max_examples=500, deadline=None)
@given(st.lists(st.text(alphabet="ab_Z9.( \xe9=", max_size=30), max_size=4))
def test_the_tokens_are_those_the_short_module_pattern_adds_to_everywhere(
        lines: list[str]) -> None:
    """The short-module search skipped where no one-letter token is: the same tokens."""
    text = "\n".join(lines)
    found = set(lexical.IDENTIFIER.findall(text)) - lexical._NO_TOKENS
    assert lexical.tokens(lines) == found | set(lexical._SHORT_MODULE.findall(text))


FRAGMENTS = {
    "python": ['    x = parse(text, "a word")\n    return x.value', 'def f(a):\n    """Doc',
               "class C(B):\n  y: int = 1\n  def m(self): pass", ""],
    "c": ["static int f(int a) {\n  return g(a) + h;", "#define X(y) y\n", "} else {\n  s->x = 1;"],
    "cpp": ["namespace n { class C { int m(); }; }", "auto x = std::vector<int>{1};"],
    "java": ["public int size() {\n return items.length;", "} catch (IOException e) {"],
    "javascript": ["const f = (a) => a.b + `t ${c}`;", "function g(x) {\n  return x"],
    "typescript": ["let v: Map<string, number> = new Map();", "interface I { n: number }"],
    "go": ["func (p *P) Parse(s string) error {\n\treturn nil", "x := y.Z(\"word\")"],
    "rust": ["fn parse(s: &str) -> Result<T, E> {\n    s.len()", "impl Parser for X {"],
}
_SUFFIX = {"python": "py", "c": "c", "cpp": "cc", "java": "java", "javascript": "js",
           "typescript": "ts", "go": "go", "rust": "rs"}


@pytest.mark.parametrize("language", sorted(FRAGMENTS))
def test_tokens_without_declarations_are_the_same_tokens(language: str) -> None:
    if language_for(f"x.{_SUFFIX[language]}") is None:
        pytest.skip(f"no tree-sitter grammar for {language} here")
    for text in FRAGMENTS[language]:
        full = tokens(language, text.encode())
        light = tokens(language, text.encode(), declarations=False)
        assert light.sequence == full.sequence and light.defined == frozenset()
        assert bool(full.sequence) == bool(re.search(r"[A-Za-z_]", text))


def test_python_fragments_have_their_tokens_and_declarations() -> None:
    found = tokens("python", b'def parse(text):\n    return "a word" + text')
    assert found.sequence == ("parse", "text", "a", "word", "text")
    assert found.defined == frozenset({"parse"})


def _diff(make_repo: Callable[..., GitRepo]) -> tuple[GitRepo, Diff]:
    repo = make_repo()
    old = b"".join(b"def f%d(a):\n    return a + %d\n\n" % (i, i) for i in range(40))
    new = old.replace(b"return a + 7", b"return a - 7").replace(b"def f20(a):", b"def f20(a, b):")
    good = repo.commit({"m.py": old + b"# end", "n.txt": b"one\r\ntwo\r\n\r\nthree\n",
                        "p.c": b"int f(void) {\n\treturn 1;\n}\n"})
    bad = repo.commit({"m.py": new + b"# end\n", "n.txt": b"one\r\n2\r\n\r\nthree",
                       "p.c": b"int f(void) {\n\treturn 2;\n}\n"})
    return repo, read_diff(repo.path, good, bad, context=1)


def test_read_change_is_sides_and_changed_lines(make_repo: Callable[..., GitRepo]) -> None:
    _, diff = _diff(make_repo)
    hunks = [c for c in diff.changes if c.hunk is not None]
    assert len(hunks) >= 5
    for change in diff.changes:
        fd = diff.files[change.file]
        removed, added, changed = lexical.read_change(change, fd)
        assert (removed, added) == lexical.sides(change, fd)
        if change.hunk is not None:
            h = change.hunk
            assert changed == lexical.changed_lines(h.text, h.old_start, h.new_start)


def test_hunk_ranges_are_those_a_full_parse_reads(make_repo: Callable[..., GitRepo]) -> None:
    repo, diff = _diff(make_repo)
    patch = git(repo.path, "diff-tree", "-r", "-U1", "--no-color", diff.good, diff.bad)
    full: list[tuple[int, int, int, int, str]] = []
    for chunk in _split_patch(patch):
        lines = chunk.decode("utf-8", "surrogateescape").splitlines(keepends=True)
        start = next(i for i, line in enumerate(lines) if line.startswith("--- "))
        full.extend((h.source_start, h.source_length, h.target_start, h.target_length,
                     h.section_header) for h in PatchSet(lines[start:])[0])
    hunks: list[Change] = [c for c in diff.changes if c.hunk is not None]
    assert [(c.hunk.old_start, c.hunk.old_len, c.hunk.new_start, c.hunk.new_len,
             c.hunk.header) for c in hunks if c.hunk is not None] == full
    assert any("No newline" in c.hunk.text for c in hunks if c.hunk is not None)


def _unidiff_part(chunk: bytes) -> tuple[tuple[bytes | None, ...], list[tuple[Any, ...]]]:
    """What the earlier reading (unidiff, ranges and headers only) took from a patch."""
    lines = chunk.decode("utf-8", "surrogateescape").splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("--- "))
    [patched] = PatchSet(lines[start:], metadata_only=True)
    return ((_patch_name(patched.source_file), _patch_name(patched.target_file)),
            [(h.source_start, h.source_length, h.target_start, h.target_length,
              h.section_header) for h in patched])


@pytest.mark.parametrize("chunk", [
    b"diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -3 +3 @@ def f():\n-a\n+b\n"
    b"@@ -10,0 +11,2 @@\n+c\n+d\n@@ -20,2 +22 @@ class C:\r\n x\n-y\n"
    b"\\ No newline at end of file\n",
    b'diff --git "a/t\\tab" "b/t\\tab"\n--- "a/t\\tab"\n+++ "b/t\\tab"\n@@ -1,2 +1,2 @@\n'
    b" one\r\n-two\r\n+2\r\n",
    b"diff --git a/new b/new\nnew file mode 100644\n--- /dev/null\n+++ b/new\n@@ -0,0 +1 @@\n+x",
    b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@ \xff\xfe header\n-\xe9\n+e\n \n \n",
])
def test_a_file_patch_reads_as_unidiff_read_it(chunk: bytes) -> None:
    part = _parse_part(chunk)
    assert (part.names, [(h.old_start, h.old_len, h.new_start, h.new_len, h.header)
                         for h in part.hunks]) == _unidiff_part(chunk)
    assert "".join(h.text for h in part.hunks) == chunk.decode(
        "utf-8", "surrogateescape")[chunk.decode("utf-8", "surrogateescape").index("@@"):]


@pytest.mark.parametrize("chunk", [
    b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n",  # a line short
    b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n+c\n",  # a line long
    b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n?b\n",  # not a hunk line
    b"diff --git a/x b/x\n--- a/x\n@@ -1 +1 @@\n-a\n+b\n",  # no +++ line
])
def test_a_patch_that_is_not_gits_is_an_error(chunk: bytes) -> None:
    with pytest.raises(GitError):
        _parse_part(chunk)


def _earlier_part(chunk: bytes) -> Any:
    """What the earlier reading, line by line, made of a file's patch: its names and
    hunks, or the GitError it raised."""
    lines = io.BytesIO(chunk).readlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(b"--- ")), None)
    if start is None:
        return None, ()
    if start + 1 >= len(lines) or not lines[start + 1].startswith(b"+++ "):
        return GitError
    heads = [i for i in range(start + 2, len(lines)) if lines[i].startswith(b"@@ ")]
    if heads[:1] != [start + 2] and (heads or start + 2 < len(lines)):
        return GitError
    if not heads:  # names and nothing after them (git prints no such patch)
        return ValueError  # what zip(..., strict=True) raised
    hunks = []
    for head, end in zip(heads, [*heads[1:], len(lines)], strict=True):
        body = lines[head + 1:end]
        old, new, other = _counts_line_by_line(body)
        header = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)",
                          lines[head].decode("utf-8", "surrogateescape"))
        if header is None or other or (old, new) != tuple(int(n) if n is not None else 1
                                                          for n in header.group(2, 4)):
            return GitError
        hunks.append((*(int(n) if n is not None else 1 for n in header.group(1, 2, 3, 4)),
                      header.group(5), b"".join(lines[head:end]).decode("utf-8",
                                                                        "surrogateescape")))
    return (_name_of(lines[start]), _name_of(lines[start + 1])), tuple(hunks)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([b"--- a/x\n", b"+++ b/x\n", b"@@ -1 +1 @@\n", b"@@ -1,2 +1 @@ f\n",
                                 b"@@ -0,0 +1 @@", b"-a\n", b"+b\n", b" c\n", b"\n", b"\r\n",
                                 b"\\ No newline\n", b"x\n", b"+", b"@@ x\n", b"--- /dev/null\n",
                                 b"Binary files a/x and b/x differ\n", b"GIT binary patch\n"]),
                max_size=10).map(b"".join))
def test_a_patch_reads_as_it_did_line_by_line(chunk: bytes) -> None:
    chunk = b"diff --git a/x b/x\n" + chunk
    assert _binary_patch(chunk) == bool(
        re.search(rb"^(?:Binary files |GIT binary patch)", chunk, re.MULTILINE))
    expected = _earlier_part(chunk)
    if expected in (GitError, ValueError):
        with pytest.raises(expected):
            _parse_part(chunk)
        return
    part = _parse_part(chunk)
    assert (part.names, tuple((h.old_start, h.old_len, h.new_start, h.new_len, h.header, h.text)
                              for h in part.hunks)) == expected


def _shapes_with_the_whole_spans(hunk: Hunk, old: PythonSide, new: PythonSide,
                                 lines: lexical.Changed) -> tuple[Any, Any, Any]:
    """What hunk_shapes found reading a hunk's whole spans for every hunk."""
    removed, added = lines
    old_span = lexical.span(hunk.old_start, hunk.old_len)
    new_span = lexical.span(hunk.new_start, hunk.new_len)
    edited_old, edited_new = old.shapes.signatures_on(removed), new.shapes.signatures_on(added)
    before = {**old.shapes.signatures_on(old_span), **edited_old}
    after = {**new.shapes.signatures_on(new_span), **edited_new}
    reshaped = frozenset((name, before[name], after[name]) for name in edited_old | edited_new
                         if name in before and name in after and before[name] != after[name])
    removed_calls, added_calls = old.shapes.calls_on(removed), new.shapes.calls_on(added)
    called = {c.function for c in removed_calls | added_calls}
    return (reshaped,
            removed_calls | {c for c in old.shapes.calls_on(old_span) if c.function in called},
            added_calls | {c for c in new.shapes.calls_on(new_span) if c.function in called})


_CALL_STATEMENT = re.compile(rb"^\s*(?:[\w.]+\s*=\s*)?[\w.]+\([\w.]+\)\s*$")


def _reshaped(data: bytes, rng: random.Random) -> bytes:
    """Some defs given a parameter, some calls a keyword, some lines a new name."""
    lines = data.split(b"\n")
    for i, line in enumerate(lines):
        if rng.random() > 0.06:
            continue
        if line.lstrip().startswith(b"def ") and b"(self" in line:
            lines[i] = line.replace(b"(self", b"(self, extra", 1)
        elif _CALL_STATEMENT.match(line):
            lines[i] = line.rstrip()[:-1] + b", flag=1)"
        else:
            lines[i] = line.replace(b"self", b"this")
    return b"\n".join(lines)


def test_hunk_shapes_read_the_whole_spans_only_where_they_can_matter(
        make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    rng = random.Random(7)
    old = {f"m{i}.py": path.read_bytes() for i, path in enumerate(_stdlib(12)[:12])}
    signature = b"def f(\n    a,\n    b,\n):\n    return a\n\n\nx = f(1, 2)\n"
    good = repo.commit({**old, "s.py": signature})  # below: a parameter's line deleted
    bad = repo.commit({**{name: _reshaped(data, rng) for name, data in old.items()},
                       "s.py": signature.replace(b"    b,\n", b"")})
    diff = read_diff(repo.path, good, bad, context=3)
    compared = found = 0
    for fd in diff.files:
        analysis = analyse_file(fd)
        old_side, new_side = analysis.python_old, analysis.python_new
        if old_side is None or new_side is None:
            continue
        for change in fd.changes:
            if change.hunk is None:
                continue
            _, _, lines = lexical.read_change(change, fd)
            assert lines is not None
            shapes = hunk_shapes(change.hunk, old_side, new_side, lines)
            assert shapes == _shapes_with_the_whole_spans(change.hunk, old_side, new_side,
                                                          lines)
            compared += 1
            found += any(shapes)
    assert compared >= 50 and found >= 20


def _counts_line_by_line(body: list[bytes]) -> tuple[int, int, bool] | None:
    """(lines on GOOD's side, on BAD's side, other lines seen) as the earlier reading
    counted them, by each line's first byte."""
    kinds = Counter(line[:1] for line in body)
    context = kinds.pop(b" ", 0) + kinds.pop(b"\n", 0) + kinds.pop(b"\r", 0)
    removed, added = kinds.pop(b"-", 0), kinds.pop(b"+", 0)
    kinds.pop(b"\\", None)
    return removed + context, added + context, bool(kinds)


@settings(max_examples=300)
@given(st.lists(st.sampled_from([b" a\n", b"-b\n", b"+c\n", b"\n", b"\r\n", b"\\ No newline\n",
                                 b"x\n", b"--\n", b"+-\n", b" \n"]), max_size=12),
       st.integers(0, 6), st.integers(0, 6), st.booleans())
def test_a_hunk_counts_its_lines_as_it_did_line_by_line(
        body: list[bytes], old_len: int, new_len: int, cut: bool) -> None:
    if cut and body:  # the chunk's last line without its line break
        body = [*body[:-1], body[-1].rstrip(b"\n") or b" "]
    lines = [b"@@ -1,%d +1,%d @@ f\n" % (old_len, new_len), *body]
    old, new, other = _counts_line_by_line(body)
    if other or (old, new) != (old_len, new_len):
        with pytest.raises(GitError):
            _hunk(b"".join(lines), "m.py")
    else:
        hunk = _hunk(b"".join(lines), "m.py")
        assert (hunk.old_len, hunk.new_len, hunk.header) == (old_len, new_len, "f")


_EARLIER_WORDS = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=60) | st.text(alphabet="ab_09 9x\n.\xe9", max_size=40)
                .map(str.encode), max_size=5))
def test_word_counts_are_those_of_the_identifier_regex(texts: list[bytes]) -> None:
    """Counted by translate and split, the words are the regex's, digits led or not."""
    expected: Counter[bytes] = Counter()
    for text in texts:
        expected.update(_EARLIER_WORDS.findall(text))
    assert word_counts(texts) == expected
    assert word_counts([b"9ab 12 _1 a9b 3x3 x\xff1y"]) == Counter(
        {b"ab": 1, b"_1": 1, b"a9b": 1, b"x3": 1, b"x": 1, b"y": 1})


def _earlier_split(patch: bytes) -> list[bytes]:
    starts = [m.start() for m in re.finditer(rb"^diff --git ", patch, re.MULTILINE)]
    ends = [*starts[1:], len(patch)] if starts else []
    return [patch[a:b] for a, b in zip(starts, ends, strict=True)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"diff --git ", b"\n", b"x", b"diff --gi", b"@@ -1 +1 @@",
                                 b" diff --git ", b"\ndiff --git a/x b/x\n"]), max_size=12)
       .map(b"".join))
def test_patches_split_where_the_line_regex_split_them(patch: bytes) -> None:
    assert _split_patch(patch) == _earlier_split(patch)
