"""C and C++ signatures: a prototype and its definition retyped alike are one edit;
a parameter's name or top-level const is not a change of signature."""

from __future__ import annotations

from collections.abc import Callable

from conftest import GitRepo
from wynot.analysis.model import analyse
from wynot.analysis.treesitter import outline
from wynot.diffread import read_diff

PAD = "".join(f"int pad{i}(void) {{ return {i}; }}\n" for i in range(8))  # hunks stay apart

HEADER = "#include <stddef.h>\n{pad}int scale(int value{extra});\n{pad}int other(int x);\n"
SOURCE = ('#include "lib.h"\n{pad}int scale(int value{extra})\n{{\n    return value * 2;\n}}\n'
          "{pad}int other(int x) {{ return x + {n}; }}\n")
CALLER = ('#include "lib.h"\n{pad}int main(void)\n{{\n'
          "    return scale(21{arg}) == 42 ? 0 : 1;\n}}\n"
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


def test_a_new_parameter_ties_the_prototype_and_the_definition(
        make_repo: Callable[..., GitRepo]) -> None:
    needs = _project(make_repo, ", int factor", ", 1")
    prototype, definition, call = "lib.h:-7,7", "lib.c:-7,7", "main.c:-9,7"
    assert needs[prototype] == {definition}
    assert needs[definition] == {prototype}
    assert call not in needs  # a call is tied by the names it uses, not by arity
    assert set(needs) == {prototype, definition}  # the other edits are no part of it


def test_a_retyping_alike_in_another_file_of_another_name_ties_nothing(
        make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    good = repo.commit({"a.h": b"int f(int x);\n", "a.c": b"int g(int x) { return x; }\n"})
    bad = repo.commit({"a.h": b"int f(long x);\n", "a.c": b"int g(long x) { return x; }\n"})
    assert analyse(read_diff(repo.path, good, bad)).dependencies().needs == {}


def test_a_top_level_const_or_a_new_name_is_no_change_of_signature() -> None:
    before = outline("c", b"int f(char *buf, int n);\nint g(const char *s);\n")
    after = outline("c", b"int f(char * const data, const int n);\nint g(char *s);\n")
    assert before is not None and after is not None
    sigs_before = {name: sig for _, _, name, sig in before.functions.declared}
    sigs_after = {name: sig for _, _, name, sig in after.functions.declared}
    assert sigs_before["f"] == sigs_after["f"]
    assert sigs_before["g"] != sigs_after["g"]  # a pointer to const is another type


def test_a_cpp_member_declared_in_its_class_and_defined_outside_is_one_function() -> None:
    """C++: the class body declares a member unqualified, with default arguments and
    reference parameters; the definition outside the class names it ``Class::``,
    without the defaults and with other parameter names. Both read as one signature,
    operators and destructors too."""
    header = outline("cpp", b"class Adder {\n public:\n"
                     b"  Adder& operator()(const std::string& opts, int& n = zero);\n"
                     b"  Adder(std::shared_ptr<int> p, int (&arr)[3]);\n"
                     b"  ~Adder();\n};\n")
    source = outline("cpp", b"Adder& Adder::operator()(const std::string& o, int& count)\n"
                     b"{ return *this; }\n"
                     b"Adder::Adder(std::shared_ptr<int> q, int (&values)[3]) {}\n"
                     b"Adder::~Adder() {}\n")
    assert header is not None and source is not None
    declared = {name: sig for _, _, name, sig in header.functions.declared}
    defined = {name: sig for _, _, name, sig in source.functions.declared}
    assert set(declared) == {"operator()", "Adder", "~Adder"}
    assert declared == defined
    assert declared["operator()"] == "Adder(const std::string&,int&)"


def test_a_cpp_member_retyped_in_its_class_and_outside_ties_the_two(
        make_repo: Callable[..., GitRepo]) -> None:
    repo = make_repo()
    pad = "".join(f"int pad{i}() {{ return {i}; }}\n" for i in range(8))
    header = ("class Parser {\n public:\n  int parse(const std::string& text@);\n};\n"
              + pad + "int other(int x);\n")
    source = ('#include "parser.hpp"\n' + pad
              + "int Parser::parse(const std::string& s@)\n{\n  return 0;\n}\n"
              + pad + "int other(int x) { return x + #; }\n")
    good = repo.commit({"parser.hpp": header.replace("@", "").encode(),
                        "parser.cpp": source.replace("@", "").replace("#", "1").encode()})
    bad = repo.commit({
        "parser.hpp": header.replace("@", ", bool& strict = off").encode(),
        "parser.cpp": source.replace("@", ", bool& strict_mode").replace("#", "2").encode()})
    diff = read_diff(repo.path, good, bad)
    label = {c.id: c.label for c in diff.changes}
    needs = {label[a]: {label[b] for b in bs}
             for a, bs in analyse(diff).dependencies().needs.items() if bs}
    declaration = next(v for k, v in label.items() if v.startswith("parser.hpp"))
    definition = next(v for k, v in label.items()
                      if v.startswith("parser.cpp") and diff.changes[k].hunk is not None
                      and "Parser::parse" in diff.changes[k].hunk.text)
    assert needs.get(declaration) == {definition}
    assert needs.get(definition) == {declaration}
