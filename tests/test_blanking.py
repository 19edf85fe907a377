"""BAD's side parsed with GOOD's untouched statements blanked reads as the whole side.

:func:`wynot.analysis.blanking.parse_bad` leaves out of BAD's parse the
top-level statements no hunk touches. What the analysis reads of BAD's side
(the statements its hunks touch, with every line and column) must be what
a parse of the whole side gives, blanked or not, and a side that does not
parse must still read as not parsing.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable
from pathlib import Path

from conftest import GitRepo
from wynot.analysis import blanking
from wynot.analysis.python import PythonSide, analyse_python, first_line, python_tree
from wynot.analysis.symbols import analyse_file
from wynot.changes import FileDiff, Hunk
from wynot.diffread import read_diff


def _spans(hunks: list[Hunk]) -> list[tuple[int, int]]:
    return [(h.new_start - 1, h.new_start + h.new_len + 1) for h in hunks]


def _touched(tree: ast.Module | None, spans: list[tuple[int, int]]) -> list[str] | None:
    """The dumps (with positions) of the statements ``spans`` touch; None: no parse."""
    if tree is None:
        return None
    return [ast.dump(s, include_attributes=True) for s in tree.body
            if any(a <= (s.end_lineno or s.lineno) and first_line(s) <= b
                   for a, b in spans)]


def _files(make_repo: Callable[..., GitRepo], good: dict[str, bytes],
           bad: dict[str, bytes]) -> list[FileDiff]:
    repo = make_repo()
    first, second = repo.commit(good), repo.commit(bad)
    return list(read_diff(repo.path, first, second, context=3).files)


def _check(fd: FileDiff) -> tuple[bool, bool]:
    """Compare the blanked parse of BAD with the whole one: (blanked, kept)."""
    assert fd.old is not None and fd.new is not None
    hunks = [c.hunk for c in fd.changes if c.hunk is not None]
    good_tree = python_tree(fd.old.data)
    assert good_tree is not None
    spans = _spans(hunks)
    ranges = blanking.untouched(good_tree, fd.old.data, fd.new.data, hunks, spans)
    tree = blanking.parse_bad(good_tree, fd.old.data, fd.new.data, hunks, spans)
    assert _touched(tree, spans) == _touched(python_tree(fd.new.data), spans)
    kept = bool(ranges) and tree is not None and len(tree.body) < len(
        (python_tree(fd.new.data) or ast.Module(body=[], type_ignores=[])).body)
    return bool(ranges), kept


def _edited(data: bytes, rng: random.Random) -> bytes:
    """A few lines of a module changed (a name respelled, a return spaced), most
    left alone."""
    lines = data.split(b"\n")
    for i, line in enumerate(lines):
        if rng.random() < 0.03 and (b"self" in line or b"return " in line):
            lines[i] = line.replace(b"self", b"this").replace(b"return ", b"return  ")
    return b"\n".join(lines)


def test_the_standard_library_sparsely_edited_reads_as_parsed_whole(
        make_repo: Callable[..., GitRepo]) -> None:
    rng = random.Random(11)
    paths = sorted(Path(ast.__file__).parent.glob("*.py"))[::6][:24]
    good = {f"m{i}.py": path.read_bytes() for i, path in enumerate(paths)}
    bad = {name: _edited(data, rng) for name, data in good.items()}
    files = _files(make_repo, good, bad)
    results = [_check(fd) for fd in files]
    assert len(results) >= 8
    assert sum(kept for _, kept in results) >= 5  # most files had statements left out
    for fd in files:  # and the analysis reads BAD's side as from a whole parse
        hunks = [c.hunk for c in fd.changes if c.hunk is not None]
        assert fd.new is not None
        assert _values(analyse_file(fd).python_new) == _values(
            analyse_python(fd.new.data, _spans(hunks)))


def _values(side: PythonSide | None) -> tuple[object, ...] | None:
    if side is None:
        return None
    return (side.params, side.keywords, side.shapes.signatures, side.shapes.calls, side.uses,
            side.bound, side.scopes, side.inert)


BODY = b"".join(b"def f%d(x):\n    return x + %d\n\n\n" % (i, i) for i in range(12))
GOOD = b'"""Doc."""\nimport os\n\n\n' + BODY + b"def last():\n    return os.sep\n"


def _one(make_repo: Callable[..., GitRepo], old: bytes, new: bytes) -> tuple[bool, bool]:
    (fd,) = _files(make_repo, {"m.py": old}, {"m.py": new})
    return _check(fd)


def test_a_string_opened_across_untouched_statements_is_parsed_whole(
        make_repo: Callable[..., GitRepo]) -> None:
    bad = GOOD.replace(b"import os\n", b'import os\nx = """\n', 1) + b'"""\n'
    blanked, kept = _one(make_repo, GOOD, bad)
    assert blanked and not kept


def test_a_body_continued_after_an_untouched_statement_is_parsed_whole(
        make_repo: Callable[..., GitRepo]) -> None:
    # Whole, the line added after the comments continues f11's body; blanked,
    # it would follow ``import os``: the blanked parse is not kept.
    good = GOOD.replace(b"def last():", b"# a\n# b\n# c\n# d\n# e\ndef last():")
    bad = good.replace(b"# e\n", b"# e\n    extra = 1\n")
    assert _one(make_repo, good, bad) == (True, False)


def test_a_backslash_before_an_untouched_statement_keeps_it(
        make_repo: Callable[..., GitRepo]) -> None:
    bad = GOOD.replace(b"\n\ndef f6(x):", b"\ny = 1 \\\n\ndef f6(x):")
    _one(make_repo, GOOD, bad)


def test_a_future_import_after_untouched_statements_keeps_them(
        make_repo: Callable[..., GitRepo]) -> None:
    bad = GOOD.replace(b"def last():", b"from __future__ import annotations\ndef last():")
    (fd,) = _files(make_repo, {"m.py": GOOD}, {"m.py": bad})
    assert fd.old is not None and fd.new is not None
    hunks = [c.hunk for c in fd.changes if c.hunk is not None]
    good_tree = python_tree(fd.old.data)
    assert good_tree is not None
    assert blanking.untouched(good_tree, fd.old.data, fd.new.data, hunks, _spans(hunks)) == []
    _check(fd)


def test_a_bad_side_that_does_not_parse_still_does_not(
        make_repo: Callable[..., GitRepo]) -> None:
    bad = GOOD.replace(b"return os.sep", b"return os.sep)")
    assert _one(make_repo, GOOD, bad) == (True, False)
