"""Hunks that open what other hunks of their file close: paired, and needed both ways."""

from __future__ import annotations

import pytest
from test_clusters import analysed, hunk, pad

from conftest import GitRepo
from wynot.analysis import balance
from wynot.analysis.treesitter import language_for


def body(n: int, indent: str = "    ") -> bytes:
    """Unchanged statements, long enough that git keeps the hunks around them apart."""
    return b"".join(b"%sx += %d;\n" % (indent.encode(), i) for i in range(n))


def test_matching_pairs_each_shift_with_the_nearest_of_the_other_sign() -> None:
    assert balance._match([(1, 1), (2, -1)]) == [(1, 2)]
    assert balance._match([(1, 1), (2, 1), (3, -1), (4, -1)]) == [(2, 3), (1, 4)]
    assert balance._match([(1, -1), (2, 1)]) == [(1, 2)]  # an unwrap: the closer first
    assert balance._match([(1, 2), (2, -1), (3, -1)]) == [(1, 2), (1, 3)]
    assert balance._match([(1, 1), (2, 1), (3, -1)]) is None  # one left open: says nothing


def test_the_plain_count_flags_a_hunk_whose_lines_shift_a_delimiter() -> None:
    assert balance.maybe_unbalanced("c", [], ["    if (ok) {"])
    assert balance.maybe_unbalanced("c", ["#endif"], [])
    assert balance.maybe_unbalanced("c", [], ["#if DTOA_ENABLED", "int f(void);", "#else"])
    assert not balance.maybe_unbalanced("c", ["int f(void) {", "}"], ["int g(void) {", "}"])
    assert not balance.maybe_unbalanced("c", ["#ifdef A", "#endif"], [])
    assert not balance.maybe_unbalanced("python", [], ["    d = {"])  # not read in Python
    assert not balance.maybe_unbalanced("java", [], ["#if X"])  # no preprocessor there


@pytest.mark.skipif(language_for("x.c") is None, reason="no C grammar")
def test_braces_in_strings_and_comments_are_no_delimiters() -> None:
    source = (b'int f(void)\n{\n    const char *s = "{{";  /* } */\n'
              b"#if A\n    return 1;\n#endif\n}\n")
    found = balance.delimiters("c", source)
    assert found == {"brace": {2: 1, 7: -1}, "conditional": {4: 1, 6: -1}}


@pytest.mark.skipif(language_for("x.c") is None, reason="no C grammar")
def test_a_side_whose_braces_do_not_balance_says_nothing_of_braces() -> None:
    # two openings under #if and #else, one closing: counted, the braces do not balance
    source = (b"int f(int a)\n{\n#if A\n    if (a) {\n#else\n    if (!a) {\n#endif\n"
              b"        a++;\n    }\n}\n")
    found = balance.delimiters("c", source)
    assert found is not None and "brace" not in found


@pytest.mark.skipif(language_for("x.c") is None, reason="no C grammar")
def test_a_block_wrapped_by_two_hunks_needs_both(make_repo) -> None:
    good = {"f.c": b"int f(int ok)\n{\n    int x = 0;\n" + body(12) + b"    return x;\n}\n"
            + pad("//") + b"int g(void) { return 1; }\n"}
    bad = {"f.c": b"int f(int ok)\n{\n    int x = 0;\n    if (ok) {\n" + body(12)
           + b"    }\n    return x;\n}\n" + pad("//") + b"int g(void) { return 2; }\n"}
    diff, analysis = analysed(make_repo("wrap"), good, bad)
    opening, closing = hunk(diff, "f.c", "if (ok) {"), hunk(diff, "f.c", "    }")
    other = hunk(diff, "f.c", "return 2")
    assert analysis.balanced == ((opening, closing),)
    deps = analysis.dependencies()
    assert deps.closure({opening}) == {opening, closing}
    assert deps.closure({closing}) == {opening, closing}
    assert deps.closure({other}) == {other}
    assert (opening, closing) not in deps.ties  # a need, for prediction and labelling


@pytest.mark.skipif(language_for("x.c") is None, reason="no C grammar")
def test_a_conditional_opened_in_one_hunk_and_closed_in_another(make_repo: GitRepo) -> None:
    old_body = b"int show(double v)\n{\n    return (int)v;\n}\n"
    good = {"s.c": b"#include <stdio.h>\n" + pad("//") + old_body + body(8, "") + b"int end;\n"}
    bad = {"s.c": b"#include <stdio.h>\n" + pad("//")
           + b"#if FAST\nint show(double v)\n{\n    return (int)(v + 0.5);\n}\n#else\n"
           + old_body + body(8, "") + b"#endif\nint end;\n"}
    diff, analysis = analysed(make_repo("cond"), good, bad)
    opening, closing = hunk(diff, "s.c", "#if FAST"), hunk(diff, "s.c", "#endif")
    assert opening != closing
    assert analysis.balanced == ((opening, closing),)


@pytest.mark.skipif(language_for("x.js") is None, reason="no JavaScript grammar")
def test_hunks_that_each_balance_are_not_paired(make_repo) -> None:
    good = {"a.js": b"function f(x) {\n  return x;\n}\n" + pad("//", 12)
            + b"function g(y) {\n  return y;\n}\n"}
    bad = {"a.js": b"function f(x) {\n  if (x) { return 1; }\n  return x;\n}\n"
           + pad("//", 12) + b"function g(y) {\n  return {y};\n}\n"}
    _, analysis = analysed(make_repo("js"), good, bad)
    assert analysis.balanced == ()
