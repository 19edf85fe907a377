"""C and C++ signatures: a prototype, its definition and the calls they break are
one edit; a parameter's name or top-level const is not a change of signature."""

from __future__ import annotations

from collections.abc import Callable

from conftest import GitRepo
from wynot.analysis.cfunctions import arity
from wynot.analysis.model import analyse
from wynot.analysis.treesitter import outline
from wynot.diffread import read_diff

PAD = "".join(f"int pad{i}(void) {{ return {i}; }}\n" for i in range(8))  # hunks stay apart

HEADER = "#include <stddef.h>\n{pad}int scale(int value{extra});\n{pad}int other(int x);\n"
SOURCE = ('#include "lib.h"\n{pad}int scale(int value{extra})\n{{\n    return value * 2;\n}}\n'
          "{pad}int other(int x) {{ return x + {n}; }}\n")
CALLER = ('#include "lib.h"\n{pad}int main(void)\n{{\n    return scale(21{arg}) == 42 ? 0 : 1;\n}}\n'
          "{pad}int unrelated(void) {{ return other({n}); }}\n")


def _project(make_repo: Callable[..., GitRepo], extra: str, arg: str) -> dict[str, set[str]]:
    """Label -> labels it needs, for a diff that adds ``extra`` to scale's parameters."""
    repo = make_repo()
    good = repo.commit({
        "lib.h": HEADER.format(pad=PAD, extra="").encode(),
        "lib.c": SOURCE.format(pad=PAD, extra="", n=1).encode(),
        "main.c": CALLER.format(pad=PAD, arg="", n=1).encode()})
    bad = repo.commit({
        "lib.h": HEADER.format(pad=PAD, extra=extra).encode(),
        "lib.c": SOURCE.format(pad=PAD, extra=extra.replace("factor", "f"), n=2).encode(),
        "main.c": CALLER.format(pad=PAD, arg=arg, n=2).encode()})
    diff = read_diff(repo.path, good, bad)
    deps = analyse(diff).dependencies()
    label = {c.id: c.label for c in diff.changes}
    return {label[a]: {label[b] for b in bs} for a, bs in deps.needs.items()
            if bs and a in label}


def test_a_new_parameter_ties_prototype_definition_and_callers(
        make_repo: Callable[..., GitRepo]) -> None:
    needs = _project(make_repo, ", int factor", ", 1")
    prototype, definition, call = "lib.h:-7,7", "lib.c:-7,7", "main.c:-9,7"
    assert {definition, call} <= needs[prototype]
    assert prototype in needs[definition] and call in needs[definition]
    assert {prototype, definition} <= needs[call]
    # the other edits (a constant here and there) are no part of it
    assert set(needs) == {prototype, definition, call}


def test_a_top_level_const_or_a_new_name_is_no_change_of_signature() -> None:
    before = outline("c", b"int f(char *buf, int n);\nint g(const char *s);\n")
    after = outline("c", b"int f(char * const data, const int n);\nint g(char *s);\n")
    assert before is not None and after is not None
    sigs_before = {name: sig for _, _, name, sig in before.functions.declared}
    sigs_after = {name: sig for _, _, name, sig in after.functions.declared}
    assert sigs_before["f"] == sigs_after["f"]
    assert sigs_before["g"] != sigs_after["g"]  # a pointer to const is another type


def test_arity_counts_parameters_not_the_commas_of_function_pointers() -> None:
    side = outline("c", b"int run(void (*cb)(int, int), int n, ...);\n"
                        b"int none(void);\nint two(int a, char *b) { return a; }\n")
    assert side is not None
    found = {name: arity(sig) for _, _, name, sig in side.functions.declared}
    assert found == {"run": None, "none": 0, "two": 2}


def test_calls_are_read_with_their_argument_counts() -> None:
    side = outline("cpp", b"int f(int a, int b);\nint main() {\n  return f(1, f(2, 3));\n}\n")
    assert side is not None
    assert side.functions.calls == ((3, "f", 2),)
