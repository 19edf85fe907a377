#!/usr/bin/env python3
"""Write commits/ of the long-history sample: run once, commit the files it writes.

    python3 sample_repos/long-history/generate_history.py [OUT]   # default: commits/ here

make_repo.py reads only the plain commit files; this script is kept to show where they
come from and to regenerate them after an edit. It checks that make_repo.py reads back
exactly the trees it meant to write, and prints the commits marked untestable and the
first bad one (case.json lists them; tests/test_history_samples.py checks them by
running the tests of every commit).

textkit is a small text library (naming conventions, slugs, wrapping, numbers in
words, word counts, tables, a command line) tested with stdlib unittest. Its history
is linear: features, table entries, refactors, docs, tests and releases by four
people. Some commits do not import or stop on a NameError (run_tests.py exits 125)
and the next commit or two repair them. One commit in the middle, "wrap: add
fill_paragraphs() and measure widths in one place", also rewrites truncate() and
keeps text of exactly `width` characters no longer: test_text_that_fits_is_kept
fails from there on.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from textwrap import dedent

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from make_repo import format_commit_patch, read_history  # noqa: E402

Tree = dict[str, str]
Edit = Callable[[Tree], None]


@dataclass(frozen=True)
class Person:
    name: str
    email: str
    utc_offset: int  # hours

    def __str__(self) -> str:
        return f"{self.name} <{self.email}>"


ADA = Person("Ada Lindqvist", "ada@textkit.example", 1)
BRUNO = Person("Bruno Costa", "bruno@textkit.example", -3)
CHEN = Person("Chen Wei", "chen@textkit.example", 8)
DANA = Person("Dana Whitfield", "dana@textkit.example", 0)

START = datetime(2024, 1, 8, 8, 30, tzinfo=UTC)
GAPS = (95, 40, 310, 25, 1150, 70, 180, 55, 2600, 35, 140, 90)  # minutes, in turn


# --- edits of a tree ------------------------------------------------------------------


def block(text: str) -> str:
    """A text written as an indented triple-quoted literal in this script (one that
    starts with a newline): without that newline and without the indentation of the
    closing quotes. Other texts are taken as they are."""
    if not text.startswith("\n"):
        return text
    lines = text[1:].split("\n")
    indent = lines.pop()
    assert not indent.strip(), "the closing quotes go on a line of their own"
    assert all(line.startswith(indent) or not line.strip() for line in lines), text
    return "".join(line[len(indent) :] + "\n" for line in lines)


def write(path: str, text: str) -> Edit:
    def edit(tree: Tree) -> None:
        tree[path] = block(text)

    return edit


def replace(path: str, old: str, new: str) -> Edit:
    old, new = block(old), block(new)

    def edit(tree: Tree) -> None:
        assert tree[path].count(old) == 1, (path, old, tree[path].count(old))
        tree[path] = tree[path].replace(old, new)

    return edit


def replace_all(path: str, old: str, new: str) -> Edit:
    def edit(tree: Tree) -> None:
        assert old in tree[path], (path, old)
        tree[path] = tree[path].replace(old, new)

    return edit


def add_def(path: str, code: str, before: str | None = None) -> Edit:
    """Add a function or class (two blank lines apart) at the end of `path`, or before
    the line that starts with `before`."""
    code = block(code)
    if before is None:

        def edit(tree: Tree) -> None:
            tree[path] += "\n\n" + code

        return edit
    return insert_before(path, before, code + "\n\n")


def insert_before(path: str, anchor: str, text: str) -> Edit:
    anchor = block(anchor)
    return replace(path, anchor, block(text) + anchor)


def insert_after(path: str, anchor: str, text: str) -> Edit:
    anchor = block(anchor)
    return replace(path, anchor, anchor + block(text))


def append(path: str, text: str) -> Edit:
    def edit(tree: Tree) -> None:
        tree[path] += block(text)

    return edit


def import_name(path: str, module: str, name: str) -> Edit:
    """Add `name` to the line `from <module> import ...` of `path` (or add that line
    after the last `from textkit` import)."""

    def edit(tree: Tree) -> None:
        lines = tree[path].split("\n")
        prefix = f"from {module} import "
        found = [i for i, line in enumerate(lines) if line.startswith(prefix)]
        if found:
            names = lines[found[0]][len(prefix) :].split(", ")
            assert name not in names, (path, name)
            lines[found[0]] = prefix + ", ".join(sorted({*names, name}))
        else:
            last = max(i for i, line in enumerate(lines) if line.startswith("from textkit"))
            lines.insert(last + 1, prefix + name)
            imports = [i for i, line in enumerate(lines) if line.startswith("from textkit")]
            block_lines = sorted(lines[i] for i in imports)
            for i, line in zip(imports, block_lines, strict=True):
                lines[i] = line
        tree[path] = "\n".join(lines)

    return edit


def export(module: str, name: str) -> Edit:
    """Make `name` of textkit.<module> part of the package's public names."""
    add_import = import_name("textkit/__init__.py", f"textkit.{module}", name)

    def edit(tree: Tree) -> None:
        add_import(tree)
        text = tree["textkit/__init__.py"]
        head, rest = text.split("__all__ = [\n", 1)
        body, tail = rest.split("]\n", 1)
        names = sorted({*body.split(), f'"{name}",'})
        tree["textkit/__init__.py"] = (
            head + "__all__ = [\n" + "".join(f"    {n}\n" for n in names) + "]\n" + tail
        )

    return edit


def changelog(entry: str) -> Edit:
    """A line in the Unreleased section of CHANGELOG.md (newest first)."""

    def edit(tree: Tree) -> None:
        head, rest = tree["CHANGELOG.md"].split("## Unreleased\n\n", 1)
        gap = "\n" if rest.startswith("## ") else ""
        tree["CHANGELOG.md"] = head + "## Unreleased\n\n" + f"- {entry}\n" + gap + rest

    return edit


def release(version: str, day: str) -> list[Edit]:
    def edit(tree: Tree) -> None:
        text = tree["CHANGELOG.md"]
        tree["CHANGELOG.md"] = text.replace(
            "## Unreleased\n\n", f"## Unreleased\n\n## {version} - {day}\n\n", 1
        )
        for path, pattern in (
            ("textkit/__init__.py", r'__version__ = "[^"]+"'),
            ("pyproject.toml", r'version = "[^"]+"'),
        ):
            new, count = re.subn(pattern, pattern.split(" = ")[0] + f' = "{version}"', tree[path])
            assert count == 1
            tree[path] = new

    return [edit]


# --- the history ------------------------------------------------------------------------


class History:
    """A linear history: commit files as (name, text), with the tree after each commit."""

    def __init__(self) -> None:
        self.tree: Tree = {}
        self.files: list[tuple[str, str]] = []
        self.trees: list[Tree] = []
        self.subjects: list[str] = []
        self.untestable: list[str] = []
        self.first_bad: str | None = None
        self.when = START

    def next_when(self) -> datetime:
        """When the next commit is made (UTC): the commits come in a fixed rhythm."""
        number = len(self.files) + 1
        if number == 1:
            return self.when
        return self.when + timedelta(minutes=GAPS[number % len(GAPS)] + number * 7 % 30)

    def release(self, author: Person, version: str) -> None:
        self.commit(author, f"Release {version}", release(version, f"{self.next_when():%Y-%m-%d}"))

    def commit(
        self,
        author: Person,
        subject: str,
        *edits: Edit | list[Edit],
        body: str = "",
        untestable: bool = False,
        first_bad: bool = False,
    ) -> None:
        number = len(self.files) + 1
        self.when = self.next_when()
        local = self.when.astimezone(timezone(timedelta(hours=author.utc_offset)))
        headers = {
            "From": str(author),
            "Date": local.strftime("%Y-%m-%d %H:%M:%S %z"),
            "Subject": subject,
        }
        after = dict(self.tree)
        for edit in edits:
            for one in edit if isinstance(edit, list) else [edit]:
                one(after)
        assert after != self.tree, f"{subject}: changes nothing"
        assert subject not in self.subjects, f"{subject}: used twice"
        slug = re.sub(r"[^a-z0-9]+", "-", subject.lower()).strip("-")[:50].rstrip("-")
        text = format_commit_patch(headers, dedent(body).strip("\n"), self.tree, after)
        self.files.append((f"{number:04d}-{slug}.patch", text))
        self.trees.append(after)
        self.subjects.append(subject)
        if untestable:
            self.untestable.append(subject)
        if first_bad:
            self.first_bad = subject
        self.tree = after

    def save(self, out: Path) -> None:
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("*.patch"):
            old.unlink()
        for name, text in self.files:
            (out / name).write_text(text, encoding="utf-8", newline="\n")
        read_back = read_history(out)
        assert [commit.tree for commit in read_back] == self.trees, "make_repo reads other trees"


RUN_TESTS = r'''
    """Run textkit's unit tests and answer the way `git bisect run` expects.

        exit 0    every test passed
        exit 1    a test failed
        exit 125  this checkout cannot be tested: a module or a test does not import, or a
                  test stops on a name that does not exist (a half-made change)

    Usage: python3 run_tests.py
    """

    import sys
    import unittest

    sys.dont_write_bytecode = True  # leave no __pycache__ behind

    PASSED, FAILED, UNTESTABLE = 0, 1, 125
    NOT_BUILT = (ImportError, NameError, SyntaxError)


    class _Result(unittest.TextTestResult):
        """Also keeps the errors that say the code is unfinished rather than wrong."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.not_built = []

        def addError(self, test, err):
            super().addError(test, err)
            self._check(test, err)

        def addSubTest(self, test, subtest, err):
            super().addSubTest(test, subtest, err)
            if err is not None:
                self._check(subtest, err)

        def _check(self, test, err):
            if issubclass(err[0], NOT_BUILT):
                self.not_built.append(f"{test.id()}: {err[0].__name__}: {err[1]}")


    def main():
        loader = unittest.TestLoader()
        suite = loader.discover("tests", top_level_dir=".")
        if loader.errors:
            print("run_tests.py: cannot test this checkout, the tests do not import:")
            print(*loader.errors, sep="\n")
            return UNTESTABLE
        runner = unittest.TextTestRunner(stream=sys.stdout, resultclass=_Result)
        result = runner.run(suite)
        if result.not_built:
            print("run_tests.py: cannot test this checkout:", *result.not_built, sep="\n  ")
            return UNTESTABLE
        if result.testsRun == 0:
            print("run_tests.py: no tests found")
            return UNTESTABLE
        return PASSED if result.wasSuccessful() else FAILED


    if __name__ == "__main__":
        sys.exit(main())
    '''

INITIAL = {
    "run_tests.py": RUN_TESTS,
    ".gitignore": """
        __pycache__/
        *.pyc
        /build/
        /dist/
        """,
    "pyproject.toml": """
        [project]
        name = "textkit"
        version = "0.1.0"
        description = "Small, dependable helpers for everyday text"
        requires-python = ">=3.9"
        license = {text = "MIT"}
        """,
    "README.md": """
        # textkit

        Small, dependable helpers for everyday text: naming conventions, URL slugs
        and wrapping text for the terminal. Pure Python, no dependencies.

        ## Running the tests

            python3 run_tests.py
        """,
    "CHANGELOG.md": """
        # Changelog

        ## Unreleased

        ## 0.1.0 - 2024-01-08

        - First version: to_snake(), to_camel(), slugify(), wrap() and truncate().
        """,
    "textkit/__init__.py": r'''
        """textkit: small, dependable helpers for everyday text."""

        from textkit.case import to_camel, to_snake
        from textkit.slug import slugify
        from textkit.wrap import truncate, wrap

        __version__ = "0.1.0"
        __all__ = [
            "slugify",
            "to_camel",
            "to_snake",
            "truncate",
            "wrap",
        ]
        ''',
    "textkit/case.py": r'''
        """Converting identifiers and phrases between naming conventions."""

        import re

        _WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


        def words(text):
            """The words of an identifier or a phrase.

            >>> words("parseHTTPResponse")
            ['parse', 'HTTP', 'Response']
            """
            return _WORD.findall(text)


        def to_snake(text):
            """'parseHTTPResponse' -> 'parse_http_response'."""
            return "_".join(word.lower() for word in words(text))


        def to_camel(text):
            """'parse_http_response' -> 'parseHttpResponse'."""
            first, *rest = words(text) or [""]
            return first.lower() + "".join(word.capitalize() for word in rest)
        ''',
    "textkit/slug.py": r'''
        """URL slugs from titles and names."""

        import re
        import unicodedata

        # Letters that Unicode does not decompose into ASCII ones, and what they become.
        TRANSLITERATIONS = {
            "ß": "ss",
            "æ": "ae",
            "Æ": "AE",
        }


        def slugify(text, separator="-"):
            """A lowercase ASCII slug of `text`: 'Straße, Café!' -> 'strasse-cafe'."""
            for char, replacement in TRANSLITERATIONS.items():
                text = text.replace(char, replacement)
            text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
            return re.sub(r"[^A-Za-z0-9]+", separator, text).strip(separator).lower()
        ''',
    "textkit/wrap.py": r'''
        """Wrapping and shortening text for fixed-width output."""


        def wrap(text, width=70):
            """The lines of `text` re-flowed so that none is longer than `width`.

            A word longer than `width` gets a line of its own.
            """
            lines, line = [], ""
            for word in text.split():
                if line and len(line) + 1 + len(word) > width:
                    lines.append(line)
                    line = word
                else:
                    line = f"{line} {word}" if line else word
            if line:
                lines.append(line)
            return lines


        def truncate(text, width, ellipsis="…"):
            """`text` cut to at most `width` characters, ending in `ellipsis` when it was cut."""
            if len(text) <= width:
                return text
            return text[: max(width - len(ellipsis), 0)] + ellipsis
        ''',
    "tests/__init__.py": '''
        """The tests of textkit (stdlib unittest; run them with run_tests.py)."""
        ''',
    "tests/test_case.py": r"""
        import unittest

        from textkit.case import to_camel, to_snake, words


        class WordsTest(unittest.TestCase):
            def test_camel_case_with_an_acronym(self):
                self.assertEqual(words("parseHTTPResponse"), ["parse", "HTTP", "Response"])

            def test_separators_are_dropped(self):
                self.assertEqual(words("user-id_field name"), ["user", "id", "field", "name"])


        class ConversionTest(unittest.TestCase):
            def test_to_snake(self):
                self.assertEqual(to_snake("parseHTTPResponse"), "parse_http_response")

            def test_to_camel(self):
                self.assertEqual(to_camel("parse_http_response"), "parseHttpResponse")
        """,
    "tests/test_slug.py": r"""
        import unittest

        from textkit.slug import slugify

        EXAMPLES = [
            ("Hello, World!", "hello-world"),
            ("Straße", "strasse"),
            ("Æble og pære", "aeble-og-paere"),
            ("Crème brûlée", "creme-brulee"),
        ]


        class SlugifyTest(unittest.TestCase):
            def test_examples(self):
                for text, slug in EXAMPLES:
                    with self.subTest(text=text):
                        self.assertEqual(slugify(text), slug)

            def test_other_separator(self):
                self.assertEqual(slugify("Hello, World!", separator="_"), "hello_world")
        """,
    "tests/test_wrap.py": r"""
        import unittest

        from textkit.wrap import truncate, wrap

        TEXT = "The quick brown fox jumps over the lazy dog"


        class WrapTest(unittest.TestCase):
            def test_short_text_is_one_line(self):
                self.assertEqual(wrap("hello world"), ["hello world"])

            def test_lines_fit_the_width(self):
                self.assertEqual(
                    wrap(TEXT, 15), ["The quick brown", "fox jumps over", "the lazy dog"]
                )

            def test_a_long_word_gets_its_own_line(self):
                self.assertEqual(wrap("a supercalifragilistic b", 5), ["a", "supercalifragilistic", "b"])


        class TruncateTest(unittest.TestCase):
            def test_text_that_fits_is_kept(self):
                self.assertEqual(truncate("hello", 5), "hello")

            def test_cut_text_ends_in_an_ellipsis(self):
                self.assertEqual(truncate("hello world", 8), "hello w…")
        """,
}


def translit(h: History, author: Person, table: dict[str, str], text: str, slug: str) -> None:
    """A commit that teaches slugify() a few more letters, with an example."""
    entries = "".join(f'    "{char}": "{ascii}",\n' for char, ascii in table.items())
    h.commit(
        author,
        f"slug: transliterate {' and '.join(table)}",
        insert_before("textkit/slug.py", "}\n\n\ndef slugify", entries),
        insert_before(
            "tests/test_slug.py", "]\n\n\nclass SlugifyTest", f'    ("{text}", "{slug}"),\n'
        ),
    )


def irregular(h: History, pairs: dict[str, str], subject: str = "") -> None:
    """A commit that teaches plural() irregular words, with examples."""
    entries = "".join(f'    "{one}": "{many}",\n' for one, many in pairs.items())
    examples = "".join(f'    ("{one}", "{many}"),\n' for one, many in pairs.items())
    names = ", ".join(f"{one} -> {many}" for one, many in pairs.items())
    h.commit(
        CHEN,
        subject or f"numbers: plural of {names}",
        insert_before("textkit/numbers.py", "}\n\n\ndef plural(", entries),
        insert_before("tests/test_numbers.py", "]\n\n\nclass OrdinalTest", examples),
    )


def stopword(h: History, word: str) -> None:
    h.commit(
        CHEN,
        f"count: '{word}' is a stopword",
        insert_before("textkit/count.py", "}\n\n\ndef word_list(", f'    "{word}",\n'),
        insert_before("tests/test_count.py", "]\n\n\nclass WordCountTest", f'    "{word}",\n'),
    )


def small_word(h: History, word: str, text: str, title: str) -> None:
    h.commit(
        CHEN,
        f"case: keep '{word}' lowercase in titles",
        insert_before("textkit/case.py", "}\n\n\ndef to_title(", f'    "{word}",\n'),
        insert_before(
            "tests/test_case.py", "]\n\n\nclass WordsTest", f'    ("{text}", "{title}"),\n'
        ),
    )


def readme(before: str, text: str) -> Edit:
    """A section of README.md, before the section whose heading is `before`."""
    return insert_before("README.md", f"## {before}\n", block(text) + "\n")


def history() -> History:
    h = History()
    h.commit(
        ADA,
        "textkit: first version",
        *[write(path, text) for path, text in INITIAL.items()],
        body="""
        Naming conventions (to_snake, to_camel), URL slugs and wrapping, with
        unittest tests and a run_tests.py that says 125 when a checkout cannot
        be tested at all.
        """,
    )
    h.commit(
        ADA,
        "README: show a few examples",
        readme(
            "Running the tests",
            """
            ## Examples

                >>> from textkit import slugify, to_snake, truncate
                >>> slugify("Straße, Café!")
                'strasse-cafe'
                >>> to_snake("parseHTTPResponse")
                'parse_http_response'
                >>> truncate("hello world", 8)
                'hello w…'
            """,
        ),
    )
    h.commit(
        BRUNO,
        "case: add to_kebab()",
        add_def(
            "textkit/case.py",
            '''
            def to_kebab(text):
                """'parseHTTPResponse' -> 'parse-http-response'."""
                return "-".join(word.lower() for word in words(text))
            ''',
        ),
        import_name("tests/test_case.py", "textkit.case", "to_kebab"),
        add_def(
            "tests/test_case.py",
            """
            class ToKebabTest(unittest.TestCase):
                def test_to_kebab(self):
                    self.assertEqual(to_kebab("parseHTTPResponse"), "parse-http-response")
            """,
        ),
        export("case", "to_kebab"),
        changelog("to_kebab() for kebab-case names."),
    )
    translit(h, ADA, {"ø": "o", "Ø": "O"}, "Smørrebrød på Øresund", "smorrebrod-pa-oresund")
    h.commit(
        CHEN,
        "tests: to_snake() and to_camel() of an empty string",
        insert_after(
            "tests/test_case.py",
            """
                def test_to_camel(self):
                    self.assertEqual(to_camel("parse_http_response"), "parseHttpResponse")
            """,
            """

                def test_empty_string(self):
                    self.assertEqual(to_snake(""), "")
                    self.assertEqual(to_camel(""), "")
            """,
        ),
    )
    h.commit(
        BRUNO,
        "case: add to_pascal()",
        add_def(
            "textkit/case.py",
            '''
            def to_pascal(text):
                """'parse_http_response' -> 'ParseHttpResponse'."""
                return "".join(word.capitalize() for word in words(text))
            ''',
        ),
        import_name("tests/test_case.py", "textkit.case", "to_pascal"),
        add_def(
            "tests/test_case.py",
            """
            class ToPascalTest(unittest.TestCase):
                def test_to_pascal(self):
                    self.assertEqual(to_pascal("parse_http_response"), "ParseHttpResponse")
                    self.assertEqual(to_pascal("parseHTTPResponse"), "ParseHttpResponse")
            """,
        ),
        export("case", "to_pascal"),
        changelog("to_pascal() for PascalCase names."),
    )
    translit(h, ADA, {"ł": "l", "Ł": "L"}, "Łódź", "lodz")
    h.commit(
        BRUNO,
        "wrap: add fill()",
        add_def(
            "textkit/wrap.py",
            r'''
            def fill(text, width=70):
                """`text` re-flowed into lines of at most `width` characters, as one string."""
                return "\n".join(wrap(text, width))
            ''',
            before="def truncate(",
        ),
        import_name("tests/test_wrap.py", "textkit.wrap", "fill"),
        add_def(
            "tests/test_wrap.py",
            r"""
            class FillTest(unittest.TestCase):
                def test_fill(self):
                    self.assertEqual(fill(TEXT, 15), "The quick brown\nfox jumps over\nthe lazy dog")
            """,
        ),
        export("wrap", "fill"),
        changelog("fill(): wrap() as one string."),
    )
    h.commit(
        DANA,
        "README: document the naming conventions",
        readme(
            "Running the tests",
            """
            ## Naming conventions

            `words(text)` splits identifiers and phrases into words; the `to_*`
            functions join them again:

            | function | `"parseHTTPResponse"` becomes |
            | --- | --- |
            | `to_snake` | `parse_http_response` |
            | `to_camel` | `parseHttpResponse` |
            | `to_kebab` | `parse-http-response` |
            | `to_pascal` | `ParseHttpResponse` |
            """,
        ),
    )
    translit(h, ADA, {"đ": "d", "Đ": "D"}, "Đakovo", "dakovo")
    h.commit(
        CHEN,
        "tests: wrap() with a width of one",
        insert_after(
            "tests/test_wrap.py",
            """
                    self.assertEqual(wrap("a supercalifragilistic b", 5), ["a", "supercalifragilistic", "b"])
            """,
            """

                def test_width_of_one(self):
                    self.assertEqual(wrap("a bc d", 1), ["a", "bc", "d"])
            """,
        ),
    )
    indent_code = '''
        def indent(text, prefix="    "):
            """`text` with `prefix` before each line that is not blank."""
            return "".join(
                prefix + line if line.strip() else line for line in text.splitlines(keepends=True)
            )
        '''
    h.commit(
        BRUNO,
        "wrap: add indent()",
        add_def("textkit/wrap.py", indent_code.replace('"):\n', '")\n', 1), before="def truncate("),
        import_name("tests/test_wrap.py", "textkit.wrap", "indent"),
        add_def(
            "tests/test_wrap.py",
            r"""
            class IndentTest(unittest.TestCase):
                def test_indent(self):
                    self.assertEqual(indent("a\nb\n"), "    a\n    b\n")
            """,
        ),
        export("wrap", "indent"),
        changelog("indent(): a prefix for every line."),
        untestable=True,  # SyntaxError: the def line has no colon
    )
    h.commit(
        BRUNO,
        "wrap: add the missing colon to indent()",
        replace(
            "textkit/wrap.py",
            'def indent(text, prefix="    ")\n',
            'def indent(text, prefix="    "):\n',
        ),
    )
    translit(h, ADA, {"œ": "oe", "Œ": "OE"}, "Œuvre complète", "oeuvre-complete")
    h.commit(
        BRUNO,
        "case: add to_constant()",
        add_def(
            "textkit/case.py",
            '''
            def to_constant(text):
                """'maxRetryCount' -> 'MAX_RETRY_COUNT'."""
                return "_".join(word.upper() for word in words(text))
            ''',
        ),
        import_name("tests/test_case.py", "textkit.case", "to_constant"),
        add_def(
            "tests/test_case.py",
            """
            class ToConstantTest(unittest.TestCase):
                def test_to_constant(self):
                    self.assertEqual(to_constant("maxRetryCount"), "MAX_RETRY_COUNT")
            """,
        ),
        export("case", "to_constant"),
        changelog("to_constant() for CONSTANT_CASE names."),
        insert_after(
            "README.md",
            "| `to_pascal` | `ParseHttpResponse` |\n",
            "| `to_constant` | `PARSE_HTTP_RESPONSE` |\n",
        ),
    )
    h.commit(
        CHEN,
        "tests: slugify() strips separators at both ends",
        insert_after(
            "tests/test_slug.py",
            """
                    self.assertEqual(slugify("Hello, World!", separator="_"), "hello_world")
            """,
            """

                def test_no_separator_at_the_ends(self):
                    self.assertEqual(slugify("  --Hello--  "), "hello")
            """,
        ),
    )
    translit(h, ADA, {"þ": "th", "Þ": "Th"}, "Þingvellir", "thingvellir")
    h.commit(
        DANA,
        "README: document slugify()",
        readme(
            "Running the tests",
            """
            ## Slugs

            `slugify(text, separator="-")` makes a lowercase ASCII slug for URLs and
            file names. Accents are dropped (é becomes e); letters that Unicode does
            not decompose are spelled out (ß becomes ss, æ becomes ae).
            """,
        ),
    )
    h.release(DANA, "0.2.0")
    h.commit(
        ADA,
        "slug: compile the separator pattern once",
        replace(
            "textkit/slug.py",
            "import unicodedata\n\n",
            'import unicodedata\n\n_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]+")\n\n',
        ),
        replace(
            "textkit/slug.py",
            'return re.sub(r"[^A-Za-z0-9]+", separator, text).strip(separator).lower()',
            "return _NOT_ALNUM.sub(separator, text).strip(separator).lower()",
        ),
    )
    h.commit(
        BRUNO,
        "wrap: name the default width",
        replace(
            "textkit/wrap.py",
            '"""Wrapping and shortening text for fixed-width output."""\n\n',
            '"""Wrapping and shortening text for fixed-width output."""\n\nDEFAULT_WIDTH = 70\n\n',
        ),
        replace(
            "textkit/wrap.py", "def wrap(text, width=70):", "def wrap(text, width=DEFAULT_WIDTH):"
        ),
        replace(
            "textkit/wrap.py", "def fill(text, width=70):", "def fill(text, width=DEFAULT_WIDTH):"
        ),
    )
    translit(h, ADA, {"ð": "d", "Ð": "D"}, "Guðrún Ósk", "gudrun-osk")
    h.commit(
        CHEN,
        "tests: words() keeps numbers apart",
        insert_after(
            "tests/test_case.py",
            """
                    self.assertEqual(words("user-id_field name"), ["user", "id", "field", "name"])
            """,
            """

                def test_numbers_are_words(self):
                    self.assertEqual(words("version2Name"), ["version", "2", "Name"])
            """,
        ),
    )
    h.commit(
        DANA,
        "Add CONTRIBUTING.md",
        write(
            "CONTRIBUTING.md",
            """
            # Contributing to textkit

            Thank you for helping! textkit has no dependencies and wants to keep it
            that way. Every change comes with a test; `python3 run_tests.py` runs them.

            ## Adding a transliteration

            Letters that Unicode decomposes (é, ñ, å) need nothing. For the others, add
            the letter and its ASCII spelling to `TRANSLITERATIONS` in
            `textkit/slug.py`, both cases if the letter has them, and an example to
            `EXAMPLES` in `tests/test_slug.py`.
            """,
        ),
    )
    h.commit(
        BRUNO,
        "wrap: add center()",
        add_def(
            "textkit/wrap.py",
            '''
            def center(text, width=DEFAULT_WIDTH):
                """`text` in the middle of a line of `width` characters; odd space goes right."""
                if len(text) >= width:
                    return text
                left = (width - len(text)) // 2
                return " " * left + text + " " * (width - len(text) - left)
            ''',
            before="def truncate(",
        ),
        import_name("tests/test_wrap.py", "textkit.wrap", "center"),
        add_def(
            "tests/test_wrap.py",
            """
            class CenterTest(unittest.TestCase):
                def test_center(self):
                    self.assertEqual(center("ab", 6), "  ab  ")
            """,
        ),
        export("wrap", "center"),
        changelog("center() a text in a line."),
    )
    translit(h, ADA, {"ħ": "h", "Ħ": "H"}, "Ħamrun", "hamrun")
    h.commit(
        DANA,
        "README: document the wrapping functions",
        readme(
            "Running the tests",
            """
            ## Wrapping

            `wrap(text, width=70)` re-flows text into lines of at most `width`
            characters and `fill` joins them; `indent` and `center` lay lines out;
            `truncate(text, width)` cuts text to `width` characters with an ellipsis.
            """,
        ),
    )
    h.commit(
        ADA,
        "slug: add a max_length to slugify()",
        replace(
            "textkit/slug.py",
            'def slugify(text, separator="-"):',
            'def slugify(text, separator="-", max_length=None):',
        ),
        replace(
            "textkit/slug.py",
            """
                return _NOT_ALNUM.sub(separator, text).strip(separator).lower()
            """,
            """
                slug = _NOT_ALNUM.sub(separator, text).strip(separator).lower()
                if max_length is not None and len(slug) > max_length:
                    slug = slug[:max_length].rstrip(separator)
                return slug
            """,
        ),
        insert_after(
            "tests/test_slug.py",
            """
                    self.assertEqual(slugify("  --Hello--  "), "hello")
            """,
            """

                def test_max_length(self):
                    self.assertEqual(slugify("a long title here", max_length=8), "a-long-t")
                    self.assertEqual(slugify("a long title here", max_length=7), "a-long")
            """,
        ),
        changelog("slugify() takes a max_length."),
    )
    h.commit(
        CHEN,
        "tests: truncate() with a longer ellipsis",
        insert_after(
            "tests/test_wrap.py",
            """
                    self.assertEqual(truncate("hello world", 8), "hello w…")
            """,
            """

                def test_longer_ellipsis(self):
                    self.assertEqual(truncate("hello world", 8, ellipsis="..."), "hello...")
            """,
        ),
    )
    h.commit(
        CHEN,
        "tests: title case examples",
        import_name("tests/test_case.py", "textkit.case", "to_title"),
        insert_before(
            "tests/test_case.py",
            "class WordsTest(unittest.TestCase):",
            """
            TITLE_EXAMPLES = [
                ("the hobbit", "The Hobbit"),
                ("a clockwork orange", "A Clockwork Orange"),
                ("brave NEW world", "Brave New World"),
                ("catch the wind", "Catch the Wind"),
            ]


            """,
        ),
        add_def(
            "tests/test_case.py",
            """
            class ToTitleTest(unittest.TestCase):
                def test_examples(self):
                    for text, title in TITLE_EXAMPLES:
                        with self.subTest(text=text):
                            self.assertEqual(to_title(text), title)
            """,
        ),
        body="""
        to_title() comes in the next commit.
        """,
        untestable=True,  # ImportError: to_title does not exist yet
    )
    h.commit(
        CHEN,
        "case: add to_title()",
        add_def(
            "textkit/case.py",
            '''
            # Words that stay lowercase in a title, unless they come first.
            SMALL_WORDS = {
                "a",
                "an",
                "the",
            }


            def to_title(text):
                """'the hobbit' -> 'The Hobbit': every word capitalized, small words
                lowercase except the first."""
                result = []
                for i, word in enumerate(text.split()):
                    lower = word.lower()
                    result.append(lower if i > 0 and lower in SMALL_WORDS else lower.capitalize())
                return " ".join(result)
            ''',
        ),
        export("case", "to_title"),
        changelog("to_title() for titles in English."),
    )
    small_word(h, "of", "the lord of the rings", "The Lord of the Rings")
    translit(h, ADA, {"ı": "i"}, "Dıyarbakır", "diyarbakir")
    h.commit(
        BRUNO,
        "wrap: add shorten()",
        add_def(
            "textkit/wrap.py",
            '''
            def shorten(text, width, placeholder=" […]"):
                """`text` cut after a whole word so that it fits `width` with `placeholder`."""
                text = " ".join(text.split())
                if len(text) <= width:
                    return text
                kept = ""
                for word in text.split(" "):
                    longer = f"{kept} {word}" if kept else word
                    if len(longer) + len(placeholder) > width:
                        break
                    kept = longer
                return kept + placeholder
            ''',
            before="def truncate(",
        ),
        import_name("tests/test_wrap.py", "textkit.wrap", "shorten"),
        add_def(
            "tests/test_wrap.py",
            """
            class ShortenTest(unittest.TestCase):
                def test_cuts_after_a_word(self):
                    self.assertEqual(shorten(TEXT, 20), "The quick brown […]")
            """,
        ),
        export("wrap", "shorten"),
        changelog("shorten(): truncate at a word boundary."),
    )
    small_word(h, "and", "war and peace", "War and Peace")
    h.commit(
        DANA,
        "README: document to_title()",
        insert_after(
            "README.md",
            "| `to_constant` | `PARSE_HTTP_RESPONSE` |\n",
            """

            `to_title(text)` capitalizes a title in English: small words such as "the"
            and "of" stay lowercase unless they come first.
            """,
        ),
    )
    h.commit(
        CHEN,
        "case: capitalize the first word after a colon in titles",
        replace(
            "textkit/case.py",
            """
                    lower = word.lower()
                    result.append(lower if i > 0 and lower in SMALL_WORDS else lower.capitalize())
            """,
            """
                    lower = word.lower()
                    after_colon = i > 0 and result[-1].endswith(":")
                    small = i > 0 and lower in SMALL_WORDS and not after_colon
                    result.append(lower if small else lower.capitalize())
            """,
        ),
        insert_before(
            "tests/test_case.py",
            "]\n\n\nclass WordsTest",
            '    ("star wars: a new hope", "Star Wars: A New Hope"),\n',
        ),
    )
    small_word(h, "in", "the cat in the hat", "The Cat in the Hat")
    h.release(DANA, "0.3.0")
    h.commit(
        CHEN,
        "numbers: add ordinal()",
        write(
            "textkit/numbers.py",
            '''
            """Numbers in words: ordinals, plurals and friends."""


            def ordinal(n):
                """1 -> '1st', 2 -> '2nd', 11 -> '11th', 23 -> '23rd'."""
                if 10 <= n % 100 <= 20:
                    suffix = "th"
                else:
                    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
                return f"{n}{suffix}"
            ''',
        ),
        write(
            "tests/test_numbers.py",
            """
            import unittest

            from textkit.numbers import ordinal


            class OrdinalTest(unittest.TestCase):
                def test_ordinals(self):
                    for n, text in [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"),
                                    (12, "12th"), (13, "13th"), (21, "21st"), (112, "112th")]:
                        with self.subTest(n=n):
                            self.assertEqual(ordinal(n), text)
            """,
        ),
        export("numbers", "ordinal"),
        changelog("ordinal(): 1st, 2nd, 3rd, ..."),
    )
    h.commit(
        CHEN,
        "numbers: add plural()",
        add_def(
            "textkit/numbers.py",
            '''
            # Nouns whose plural does not follow the rules.
            IRREGULAR = {
                "child": "children",
                "person": "people",
            }


            def plural(word, count=2):
                """`word` for `count` things: plural("box") -> "boxes", plural("box", 1) -> "box"."""
                if count == 1:
                    return word
                if word in IRREGULAR:
                    return IRREGULAR[word]
                if word.endswith(("s", "x", "z", "ch", "sh")):
                    return word + "es"
                return word + "s"
            ''',
        ),
        import_name("tests/test_numbers.py", "textkit.numbers", "plural"),
        insert_before(
            "tests/test_numbers.py",
            "class OrdinalTest(unittest.TestCase):",
            """
            PLURAL_EXAMPLES = [
                ("cat", "cats"),
                ("box", "boxes"),
                ("church", "churches"),
                ("child", "children"),
                ("person", "people"),
            ]


            """,
        ),
        add_def(
            "tests/test_numbers.py",
            """
            class PluralTest(unittest.TestCase):
                def test_examples(self):
                    for word, plural_form in PLURAL_EXAMPLES:
                        with self.subTest(word=word):
                            self.assertEqual(plural(word), plural_form)

                def test_one_is_singular(self):
                    self.assertEqual(plural("box", 1), "box")
            """,
        ),
        export("numbers", "plural"),
        changelog("plural() of English nouns."),
    )
    translit(h, ADA, {"ə": "e", "Ə": "E"}, "Əliyev", "eliyev")
    irregular(h, {"man": "men"})
    h.commit(
        BRUNO,
        "tests: fill() of an empty string",
        insert_after(
            "tests/test_wrap.py",
            r"""
                    self.assertEqual(fill(TEXT, 15), "The quick brown\nfox jumps over\nthe lazy dog")
            """,
            """

                def test_empty(self):
                    self.assertEqual(fill(""), "")
            """,
        ),
    )
    irregular(h, {"mouse": "mice"})
    h.commit(
        DANA,
        "README: document ordinal() and plural()",
        readme(
            "Running the tests",
            """
            ## Numbers

            `ordinal(n)` gives "1st", "2nd", "3rd", "11th"; `plural(word, count=2)`
            knows the rules of English and a list of irregular nouns.
            """,
        ),
    )
    translit(h, ADA, {"&": " and "}, "Rock & Roll", "rock-and-roll")
    irregular(h, {"woman": "women"})
    number_words = '''
        _ONES = [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
            "eighteen", "nineteen",
        ]
        _TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


        def number_words(n):
            """0 <= n < 100 in words: 42 -> 'forty-two'."""
            if not 0 <= n < 100:
                raise ValueError(f"number_words() handles 0 to 99, not {n}")
            if n < 20:
                return _ONES[n]
            tens, ones = divmod(n, 10)
            return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
        '''
    h.commit(
        CHEN,
        "numbers: add number_words()",
        add_def("textkit/numbers.py", number_words.replace("return _TENS[", "return _TEN[")),
        import_name("tests/test_numbers.py", "textkit.numbers", "number_words"),
        add_def(
            "tests/test_numbers.py",
            """
            class NumberWordsTest(unittest.TestCase):
                def test_examples(self):
                    for n, text in [(0, "zero"), (7, "seven"), (13, "thirteen"), (40, "forty"),
                                    (42, "forty-two"), (99, "ninety-nine")]:
                        with self.subTest(n=n):
                            self.assertEqual(number_words(n), text)

                def test_out_of_range(self):
                    with self.assertRaises(ValueError):
                        number_words(100)
            """,
        ),
        export("numbers", "number_words"),
        changelog("number_words(): 42 -> forty-two."),
        untestable=True,  # NameError: _TEN
    )
    h.commit(
        CHEN,
        "numbers: fix the name of _TENS in number_words()",
        replace("textkit/numbers.py", "return _TEN[tens]", "return _TENS[tens]"),
    )
    h.commit(
        BRUNO,
        "case: share the joining code of the to_* functions",
        add_def(
            "textkit/case.py",
            """
            def _join(text, separator, transform):
                return separator.join(transform(word) for word in words(text))
            """,
            before="def to_snake(",
        ),
        replace(
            "textkit/case.py",
            'return "_".join(word.lower() for word in words(text))',
            'return _join(text, "_", str.lower)',
        ),
        replace(
            "textkit/case.py",
            'return "-".join(word.lower() for word in words(text))',
            'return _join(text, "-", str.lower)',
        ),
        replace(
            "textkit/case.py",
            'return "".join(word.capitalize() for word in words(text))',
            'return _join(text, "", str.capitalize)',
        ),
        replace(
            "textkit/case.py",
            'return "_".join(word.upper() for word in words(text))',
            'return _join(text, "_", str.upper)',
        ),
    )
    translit(h, ADA, {"€": " EUR "}, "5 € each", "5-eur-each")
    irregular(h, {"goose": "geese"})
    h.commit(
        DANA,
        "CONTRIBUTING: describe the commit messages",
        append(
            "CONTRIBUTING.md",
            """

            ## Commit messages

            Start the subject with the module the change is about ("slug: ...",
            "wrap: ..."), say what the change does, and keep it under 72 characters.
            """,
        ),
    )
    small_word(h, "on", "a walk on the moon", "A Walk on the Moon")
    h.commit(
        CHEN,
        "numbers: add human_bytes()",
        add_def(
            "textkit/numbers.py",
            '''
            def human_bytes(n):
                """1536 -> '1.5 KB' (powers of 1024; whole bytes below 1 KB)."""
                units = ["KB", "MB", "GB", "TB"]
                if n < 1024:
                    return f"{n} B"
                size = n / 1024
                for unit in units:
                    if size < 1024 or unit == units[-1]:
                        break
                    size /= 1024
                return f"{size:.1f} {unit}"
            ''',
        ),
        import_name("tests/test_numbers.py", "textkit.numbers", "human_bytes"),
        add_def(
            "tests/test_numbers.py",
            """
            class HumanBytesTest(unittest.TestCase):
                def test_examples(self):
                    self.assertEqual(human_bytes(512), "512 B")
                    self.assertEqual(human_bytes(1536), "1.5 KB")
                    self.assertEqual(human_bytes(5 * 1024**3), "5.0 GB")
            """,
        ),
        export("numbers", "human_bytes"),
        changelog("human_bytes(): 1536 -> 1.5 KB."),
    )
    h.commit(
        BRUNO,
        "tests: center() with an odd number of spaces",
        insert_after(
            "tests/test_wrap.py",
            """
                    self.assertEqual(center("ab", 6), "  ab  ")
            """,
            """

                def test_odd_space_goes_right(self):
                    self.assertEqual(center("ab", 5), " ab  ")
            """,
        ),
    )
    irregular(h, {"foot": "feet"})
    translit(h, ADA, {"%": " percent "}, "100% cotton", "100-percent-cotton")
    irregular(h, {"tooth": "teeth"})
    h.release(DANA, "0.4.0")
    middle(h)
    late(h)
    return h


def middle(h: History) -> None:
    """From 0.4.0 to the regression and the commits right after it."""
    h.commit(
        BRUNO,
        "Move the whitespace handling of wrap() into textkit/_util.py",
        replace(
            "textkit/wrap.py",
            '"""Wrapping and shortening text for fixed-width output."""\n\n',
            '"""Wrapping and shortening text for fixed-width output."""\n\n'
            "from textkit._util import normalize_space\n\n",
        ),
        replace(
            "textkit/wrap.py",
            "    for word in text.split():\n",
            '    for word in normalize_space(text).split(" "):\n',
        ),
        body="""
        shorten() and the word counting that is planned need the same thing.
        """,
        untestable=True,  # ModuleNotFoundError: textkit/_util.py was not added
    )
    h.commit(
        BRUNO,
        "Add textkit/_util.py, forgotten in the previous commit",
        write(
            "textkit/_util.py",
            r'''
            """Helpers shared by the modules of textkit."""

            import re

            _SPACE = re.compile(r"\s+")


            def normalize_space(text):
                """`text` with each run of whitespace made one space, and none at either end."""
                return _SPACE.sub(" ", text).strip()
            ''',
        ),
    )
    h.commit(
        BRUNO,
        "wrap: shorten() uses normalize_space()",
        replace(
            "textkit/wrap.py",
            '    text = " ".join(text.split())\n',
            "    text = normalize_space(text)\n",
        ),
    )
    small_word(h, "to", "a farewell to arms", "A Farewell to Arms")
    irregular(
        h,
        {"sheep": "sheep", "fish": "fish", "deer": "deer"},
        "numbers: sheep, fish and deer stay the same in the plural",
    )
    translit(h, ADA, {"@": " at "}, "me@home", "me-at-home")
    h.commit(
        CHEN,
        "numbers: ordinal() of negative numbers",
        replace(
            "textkit/numbers.py",
            '''
                """1 -> '1st', 2 -> '2nd', 11 -> '11th', 23 -> '23rd'."""
                if 10 <= n % 100 <= 20:
                    suffix = "th"
                else:
                    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
            ''',
            '''
                """1 -> '1st', 2 -> '2nd', 11 -> '11th', 23 -> '23rd', -1 -> '-1st'."""
                last_two = abs(n) % 100
                if 10 <= last_two <= 20:
                    suffix = "th"
                else:
                    suffix = {1: "st", 2: "nd", 3: "rd"}.get(last_two % 10, "th")
            ''',
        ),
        insert_after(
            "tests/test_numbers.py",
            """
                        with self.subTest(n=n):
                            self.assertEqual(ordinal(n), text)
            """,
            """

                def test_negative(self):
                    self.assertEqual(ordinal(-1), "-1st")
                    self.assertEqual(ordinal(-12), "-12th")
            """,
        ),
    )
    h.commit(
        DANA,
        "README: point to CONTRIBUTING.md",
        append(
            "README.md",
            """

            ## Contributing

            See [CONTRIBUTING.md](CONTRIBUTING.md).
            """,
        ),
    )
    h.commit(
        BRUNO,
        "case: rename words() to split_words()",
        replace_all("textkit/case.py", "words(text)", "split_words(text)"),
        replace(
            "textkit/case.py",
            '>>> words("parseHTTPResponse")',
            '>>> split_words("parseHTTPResponse")',
        ),
        body="""
        words() reads like a noun and shadows every local variable called words.
        """,
        untestable=True,  # ImportError: tests/test_case.py imports words
    )
    h.commit(
        BRUNO,
        "case: keep words() as an alias of split_words()",
        add_def(
            "textkit/case.py",
            """
            # The name before 0.5, for the code that still uses it.
            words = split_words
            """,
            before="def _join(",
        ),
    )
    irregular(h, {"criterion": "criteria"})
    irregular(h, {"phenomenon": "phenomena"})
    translit(h, ADA, {"+": " plus "}, "C++ tips", "c-plus-plus-tips")
    h.commit(
        BRUNO,
        "tests: indent() leaves blank lines alone",
        insert_after(
            "tests/test_wrap.py",
            r"""
                    self.assertEqual(indent("a\nb\n"), "    a\n    b\n")
            """,
            r"""

                def test_blank_lines_stay_blank(self):
                    self.assertEqual(indent("a\n\nb\n", "> "), "> a\n\n> b\n")
            """,
        ),
    )
    h.commit(
        DANA,
        "README: document number_words() and human_bytes()",
        replace(
            "README.md",
            """
            knows the rules of English and a list of irregular nouns.
            """,
            """
            knows the rules of English and a list of irregular nouns.
            `number_words(42)` is "forty-two" and `human_bytes(1536)` is "1.5 KB".
            """,
        ),
    )
    h.commit(
        CHEN,
        "count: add word_count()",
        write(
            "textkit/count.py",
            r'''
            """Counting words."""

            import re

            _WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")


            def word_list(text):
                """The words of `text` in lowercase; "Don't" is one word, "don't"."""
                return [word.lower() for word in _WORD.findall(text)]


            def word_count(text):
                """How many words `text` has."""
                return len(word_list(text))
            ''',
        ),
        write(
            "tests/test_count.py",
            """
            import unittest

            from textkit.count import word_count


            class WordCountTest(unittest.TestCase):
                def test_word_count(self):
                    self.assertEqual(word_count("Don't panic, it's only 42 words."), 6)

                def test_empty(self):
                    self.assertEqual(word_count(""), 0)
            """,
        ),
        export("count", "word_count"),
        changelog("word_count()."),
    )
    h.commit(
        CHEN,
        "count: add top_words()",
        replace("textkit/count.py", "import re\n", "import re\nfrom collections import Counter\n"),
        insert_after(
            "textkit/count.py",
            """
            _WORD = re.compile(r"[^\\W_]+(?:['’][^\\W_]+)*")
            """,
            """

            # Words too common to tell texts apart.
            STOPWORDS = {
                "a",
                "and",
                "the",
            }
            """,
        ),
        add_def(
            "textkit/count.py",
            '''
            def top_words(text, n=3, stopwords=STOPWORDS):
                """The `n` most common words of `text` as (word, count) pairs, without
                `stopwords`; words as common as each other in the order they first appear."""
                return Counter(w for w in word_list(text) if w not in stopwords).most_common(n)
            ''',
        ),
        import_name("tests/test_count.py", "textkit.count", "top_words"),
        insert_before(
            "tests/test_count.py",
            "class WordCountTest(unittest.TestCase):",
            """
            IGNORED = [
                "a",
                "and",
                "the",
            ]


            """,
        ),
        add_def(
            "tests/test_count.py",
            """
            class TopWordsTest(unittest.TestCase):
                def test_most_common_first(self):
                    text = "the cat saw the dog and the dog saw a bird"
                    self.assertEqual(top_words(text), [("saw", 2), ("dog", 2), ("cat", 1)])

                def test_stopwords_are_ignored(self):
                    for word in IGNORED:
                        with self.subTest(word=word):
                            self.assertEqual(top_words(f"{word} {word} cat", n=5), [("cat", 1)])
            """,
        ),
        export("count", "top_words"),
        changelog("top_words(), without stopwords."),
    )
    small_word(h, "for", "a prayer for owen meany", "A Prayer for Owen Meany")
    stopword(h, "of")
    h.commit(
        ADA,
        "slug: add unique_slug()",
        add_def(
            "textkit/slug.py",
            '''
            def unique_slug(text, taken, separator="-"):
                """slugify(text), with -2, -3, ... added while that slug is in `taken`."""
                base = slugify(text, separator)
                slug, n = base, 2
                while slug in taken:
                    slug, n = f"{base}{separator}{n}", n + 1
                return slug
            ''',
        ),
        import_name("tests/test_slug.py", "textkit.slug", "unique_slug"),
        add_def(
            "tests/test_slug.py",
            """
            class UniqueSlugTest(unittest.TestCase):
                def test_numbers_when_taken(self):
                    self.assertEqual(unique_slug("Hello", []), "hello")
                    self.assertEqual(unique_slug("Hello", ["hello"]), "hello-2")
                    self.assertEqual(unique_slug("Hello", ["hello", "hello-2"]), "hello-3")
            """,
        ),
        export("slug", "unique_slug"),
        changelog("unique_slug() numbers slugs that are taken."),
    )
    stopword(h, "to")
    h.release(DANA, "0.5.0")
    h.commit(
        BRUNO,
        "wrap: center() takes a fill character",
        replace(
            "textkit/wrap.py",
            """
            def center(text, width=DEFAULT_WIDTH):
            """,
            """
            def center(text, width=DEFAULT_WIDTH, fillchar=" "):
            """,
        ),
        replace(
            "textkit/wrap.py",
            '    return " " * left + text + " " * (width - len(text) - left)\n',
            "    return fillchar * left + text + fillchar * (width - len(text) - left)\n",
        ),
        insert_after(
            "tests/test_wrap.py",
            """
                    self.assertEqual(center("ab", 5), " ab  ")
            """,
            """

                def test_fill_character(self):
                    self.assertEqual(center("ab", 6, "*"), "**ab**")
            """,
        ),
        changelog("center() takes a fill character."),
    )
    stopword(h, "in")
    translit(h, ADA, {"°": " degrees "}, "20°C", "20-degrees-c")
    h.commit(
        CHEN,
        "count: hyphenated words are one word",
        replace(
            "textkit/count.py",
            """_WORD = re.compile(r"[^\\W_]+(?:['’][^\\W_]+)*")""",
            """_WORD = re.compile(r"[^\\W_]+(?:['’-][^\\W_]+)*")""",
        ),
        insert_after(
            "tests/test_count.py",
            """
                def test_empty(self):
                    self.assertEqual(word_count(""), 0)
            """,
            """

                def test_hyphenated_words(self):
                    self.assertEqual(word_count("a well-known fact"), 3)
            """,
        ),
    )
    sentence_count = '''
        def sentence_count(text):
            """How many sentences `text` has: runs of text that end in '.', '!' or '?'."""
            return len([part for part in re.split(r"[.!?]+", text) if part.strip()])
        '''
    h.commit(
        CHEN,
        "count: add sentence_count()",
        add_def("textkit/count.py", sentence_count.replace("    return len(", "      return len(")),
        import_name("tests/test_count.py", "textkit.count", "sentence_count"),
        add_def(
            "tests/test_count.py",
            """
            class SentenceCountTest(unittest.TestCase):
                def test_sentence_count(self):
                    self.assertEqual(sentence_count("One. Two! Three? Four"), 4)
            """,
        ),
        export("count", "sentence_count"),
        changelog("sentence_count()."),
        untestable=True,  # IndentationError
    )
    h.commit(
        CHEN,
        "count: fix the indentation of sentence_count()",
        replace("textkit/count.py", "      return len([part", "    return len([part"),
    )
    irregular(h, {"cactus": "cacti"})
    h.commit(
        DANA,
        "README: document counting words",
        readme(
            "Contributing",
            """
            ## Counting words

            `word_count(text)`, `sentence_count(text)` and `top_words(text, n=3)`, which
            leaves out stopwords such as "the" and "of".
            """,
        ),
    )
    stopword(h, "is")
    h.commit(
        BRUNO,
        "tests: shorten() of text that fits",
        insert_after(
            "tests/test_wrap.py",
            """
                    self.assertEqual(shorten(TEXT, 20), "The quick brown […]")
            """,
            """

                def test_text_that_fits(self):
                    self.assertEqual(shorten("  short   text ", 20), "short text")
            """,
        ),
    )
    log_bytes = '''
        def human_bytes(n):
            """1536 -> '1.5 KB' (powers of 1024; whole bytes below 1 KB)."""
            units = ["B", "KB", "MB", "GB", "TB"]
            power = min(int(math.log2(n)) // 10, len(units) - 1) if n > 0 else 0
            if power == 0:
                return f"{n} B"
            return f"{n / 1024**power:.1f} {units[power]}"
        '''
    h.commit(
        CHEN,
        "numbers: human_bytes() picks the unit with a logarithm",
        replace(
            "textkit/numbers.py",
            '''
            def human_bytes(n):
                """1536 -> '1.5 KB' (powers of 1024; whole bytes below 1 KB)."""
                units = ["KB", "MB", "GB", "TB"]
                if n < 1024:
                    return f"{n} B"
                size = n / 1024
                for unit in units:
                    if size < 1024 or unit == units[-1]:
                        break
                    size /= 1024
                return f"{size:.1f} {unit}"
            ''',
            log_bytes,
        ),
        untestable=True,  # NameError: math
    )
    h.commit(
        CHEN,
        "numbers: import math for human_bytes()",
        replace(
            "textkit/numbers.py",
            '"""Numbers in words: ordinals, plurals and friends."""\n\n',
            '"""Numbers in words: ordinals, plurals and friends."""\n\nimport math\n\n',
        ),
    )
    translit(h, ADA, {"×": "x"}, "1920×1080", "1920x1080")
    irregular(h, {"index": "indices"})
    small_word(h, "with", "gone with the wind", "Gone with the Wind")
    stopword(h, "it")
    h.commit(
        DANA,
        "CONTRIBUTING: how to run one test module",
        insert_after(
            "CONTRIBUTING.md",
            "that way. Every change comes with a test; `python3 run_tests.py` runs them.\n",
            """
            To run the tests of one module:

                python3 -m unittest tests.test_slug
            """,
        ),
    )
    translit(h, ADA, {"£": " GBP "}, "£5 off", "gbp-5-off")
    irregular(h, {"leaf": "leaves"})
    h.commit(
        BRUNO,
        "_util: normalize_space() also removes zero-width spaces",
        replace(
            "textkit/_util.py",
            r'_SPACE = re.compile(r"\s+")',
            r'_SPACE = re.compile(r"[\s\u200b]+")',
        ),
        write(
            "tests/test_util.py",
            r"""
            import unittest

            from textkit._util import normalize_space


            class NormalizeSpaceTest(unittest.TestCase):
                def test_runs_of_whitespace(self):
                    self.assertEqual(normalize_space("  a \t b\n c  "), "a b c")

                def test_zero_width_spaces(self):
                    self.assertEqual(normalize_space("a\u200bb"), "a b")
            """,
        ),
    )
    stopword(h, "that")
    h.release(DANA, "0.6.0")
    h.commit(
        CHEN,
        "count: add char_frequency()",
        add_def(
            "textkit/count.py",
            '''
            def char_frequency(text):
                """How often each letter occurs in `text`, ignoring case: {'a': 2, 'b': 1}."""
                return dict(Counter(char for char in text.lower() if char.isalpha()))
            ''',
        ),
        import_name("tests/test_count.py", "textkit.count", "char_frequency"),
        add_def(
            "tests/test_count.py",
            """
            class CharFrequencyTest(unittest.TestCase):
                def test_char_frequency(self):
                    self.assertEqual(char_frequency("Aab!"), {"a": 2, "b": 1})
            """,
        ),
        export("count", "char_frequency"),
        changelog("char_frequency()."),
    )
    translit(h, ADA, {"ŋ": "ng", "Ŋ": "NG"}, "Ŋoŋ", "ngong")
    irregular(h, {"knife": "knives"})
    h.commit(
        BRUNO,
        "tests: wrap() keeps punctuation with its word",
        insert_after(
            "tests/test_wrap.py",
            """
                    self.assertEqual(wrap("a bc d", 1), ["a", "bc", "d"])
            """,
            """

                def test_punctuation_stays_with_its_word(self):
                    self.assertEqual(wrap("Hello, world! Bye.", 7), ["Hello,", "world!", "Bye."])
            """,
        ),
    )
    stopword(h, "for")
    small_word(h, "at", "breakfast at tiffany's", "Breakfast at Tiffany's")
    h.commit(
        DANA,
        "README: document char_frequency()",
        replace(
            "README.md",
            """
            leaves out stopwords such as "the" and "of".
            """,
            """
            leaves out stopwords such as "the" and "of". `char_frequency(text)` counts
            letters.
            """,
        ),
    )
    irregular(h, {"life": "lives"})
    h.commit(
        ADA,
        "tests: unique_slug() with a set of taken slugs",
        insert_after(
            "tests/test_slug.py",
            """
                    self.assertEqual(unique_slug("Hello", ["hello", "hello-2"]), "hello-3")
            """,
            """

                def test_any_container(self):
                    self.assertEqual(unique_slug("Hello", {"hello"}), "hello-2")
                    self.assertEqual(unique_slug("Hello", {"hello": 1}), "hello-2")
            """,
        ),
    )
    h.commit(
        CHEN,
        "numbers: number_words() up to 999",
        replace(
            "textkit/numbers.py",
            '''
                """0 <= n < 100 in words: 42 -> 'forty-two'."""
                if not 0 <= n < 100:
                    raise ValueError(f"number_words() handles 0 to 99, not {n}")
                if n < 20:
            ''',
            '''
                """0 <= n < 1000 in words: 42 -> 'forty-two', 305 -> 'three hundred and five'."""
                if not 0 <= n < 1000:
                    raise ValueError(f"number_words() handles 0 to 999, not {n}")
                hundreds, rest = divmod(n, 100)
                if hundreds:
                    head = f"{_ONES[hundreds]} hundred"
                    return head + (f" and {number_words(rest)}" if rest else "")
                if n < 20:
            ''',
        ),
        replace(
            "tests/test_numbers.py",
            """
                                    (42, "forty-two"), (99, "ninety-nine")]:
            """,
            """
                                    (42, "forty-two"), (99, "ninety-nine"), (100, "one hundred"),
                                    (305, "three hundred and five"), (999, "nine hundred and ninety-nine")]:
            """,
        ),
        replace("tests/test_numbers.py", "number_words(100)\n", "number_words(1000)\n"),
        changelog("number_words() goes up to 999."),
    )
    stopword(h, "on")
    irregular(h, {"wife": "wives"})
    translit(h, ADA, {"¥": " JPY "}, "¥500", "jpy-500")
    h.commit(
        CHEN,
        "count: add reading_time()",
        add_def(
            "textkit/count.py",
            '''
            def reading_time(text, words_per_minute=200):
                """Whole minutes it takes to read `text`, at least one."""
                return max(1, math.ceil(word_count(text) / words_per_minute))
            ''',
        ),
        import_name("tests/test_count.py", "textkit.count", "reading_time"),
        add_def(
            "tests/test_count.py",
            """
            class ReadingTimeTest(unittest.TestCase):
                def test_reading_time(self):
                    self.assertEqual(reading_time("word " * 450), 3)
                    self.assertEqual(reading_time(""), 1)
            """,
        ),
        export("count", "reading_time"),
        changelog("reading_time() in minutes."),
        untestable=True,  # NameError: math
    )
    h.commit(
        DANA,
        "README: document reading_time()",
        replace(
            "README.md",
            """
            leaves out stopwords such as "the" and "of". `char_frequency(text)` counts
            letters.
            """,
            """
            leaves out stopwords such as "the" and "of". `char_frequency(text)` counts
            letters, and `reading_time(text)` estimates the minutes a reader needs.
            """,
        ),
        untestable=True,  # still the NameError of the commit before
    )
    h.commit(
        CHEN,
        "count: import math for reading_time()",
        replace("textkit/count.py", "import re\n", "import math\nimport re\n"),
    )
    regression(h)
    dedent_code = '''
        def dedent(text):
            """`text` without the indentation that all its lines that are not blank share."""
            lines = text.splitlines(keepends=True)
            margins = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
            cut = min(margins, default=0)
            return "".join(line[cut:] if line.strip() else line.lstrip(" \\t") for line in lines)
        '''
    h.commit(
        BRUNO,
        "wrap: add dedent()",
        add_def("textkit/wrap.py", dedent_code.replace("    cut = min(", "   cut = min(")),
        import_name("tests/test_wrap.py", "textkit.wrap", "dedent"),
        add_def(
            "tests/test_wrap.py",
            r"""
            class DedentTest(unittest.TestCase):
                def test_dedent(self):
                    self.assertEqual(dedent("    a\n      b\n\n    c\n"), "a\n  b\n\nc\n")
            """,
        ),
        export("wrap", "dedent"),
        changelog("dedent(), the opposite of indent()."),
        untestable=True,  # IndentationError
    )
    h.commit(
        BRUNO,
        "wrap: fix the indentation of dedent()",
        replace("textkit/wrap.py", "   cut = min(", "    cut = min("),
    )


def regression(h: History) -> None:
    """The first bad commit: nine hunks in four files. One of them, the new truncate(),
    returns text of exactly `width` characters cut short (`<` where `<=` was)."""
    h.commit(
        BRUNO,
        "wrap: add fill_paragraphs() and measure widths in one place",
        append(
            "textkit/_util.py",
            '''


            def display_width(text):
                """The columns `text` takes in a terminal: one per character for now."""
                return len(text)
            ''',
        ),
        replace(
            "textkit/wrap.py",
            "from textkit._util import normalize_space\n",
            "from textkit._util import display_width, normalize_space\n",
        ),
        replace(
            "textkit/wrap.py",
            "        if line and len(line) + 1 + len(word) > width:\n",
            "        if line and display_width(line) + 1 + display_width(word) > width:\n",
        ),
        add_def(
            "textkit/wrap.py",
            r'''
            def fill_paragraphs(text, width=DEFAULT_WIDTH):
                """`text` re-flowed paragraph by paragraph; blank lines separate paragraphs."""
                paragraphs = [part for part in text.split("\n\n") if part.strip()]
                return "\n\n".join(fill(part, width) for part in paragraphs)
            ''',
            before="def indent(",
        ),
        replace(
            "textkit/wrap.py",
            """
                if len(text) >= width:
                    return text
                left = (width - len(text)) // 2
                return fillchar * left + text + fillchar * (width - len(text) - left)
            """,
            """
                size = display_width(text)
                if size >= width:
                    return text
                left = (width - size) // 2
                return fillchar * left + text + fillchar * (width - size - left)
            """,
        ),
        replace(
            "textkit/wrap.py",
            """
                if len(text) <= width:
                    return text
                return text[: max(width - len(ellipsis), 0)] + ellipsis
            """,
            """
                keep = max(width - len(ellipsis), 0)
                return text if len(text) < width else text[:keep] + ellipsis
            """,
        ),
        import_name("tests/test_wrap.py", "textkit.wrap", "fill_paragraphs"),
        add_def(
            "tests/test_wrap.py",
            r"""
            class FillParagraphsTest(unittest.TestCase):
                def test_paragraphs_stay_apart(self):
                    text = "one two three\n\nfour five"
                    self.assertEqual(fill_paragraphs(text, 8), "one two\nthree\n\nfour\nfive")
            """,
        ),
        changelog("fill_paragraphs() re-flows each paragraph on its own."),
        body="""
        display_width() is where East Asian wide characters will be counted; wrap()
        and center() use it already. truncate() is simpler now.
        """,
        first_bad=True,
    )


def late(h: History) -> None:
    """After the regression: nobody notices, the project goes on."""
    stopword(h, "with")
    translit(h, ADA, {"ŧ": "t", "Ŧ": "T"}, "Ŧeahkki", "teahkki")
    h.release(DANA, "0.7.0")
    irregular(h, {"ox": "oxen"})
    h.commit(
        BRUNO,
        "table: add render_table()",
        write(
            "textkit/table.py",
            '''
            """Plain-text tables for the terminal."""


            def render_table(rows, header=None):
                """The lines of a table: columns as wide as their widest cell, separated by
                ' | ', with a rule under the header."""
                cells = [[str(cell) for cell in row] for row in rows]
                if header is not None:
                    cells.insert(0, [str(cell) for cell in header])
                if not cells:
                    return []
                widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
                lines = [
                    " | ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
                    for row in cells
                ]
                if header is not None:
                    lines.insert(1, "-+-".join("-" * width for width in widths))
                return lines
            ''',
        ),
        write(
            "tests/test_table.py",
            """
            import unittest

            from textkit import render_table


            class RenderTableTest(unittest.TestCase):
                def test_with_a_header(self):
                    self.assertEqual(
                        render_table([["Dune", "1965"], ["Emma", "1815"]], header=["title", "year"]),
                        ["title | year", "------+-----", "Dune  | 1965", "Emma  | 1815"],
                    )
            """,
        ),
        changelog("render_table() for plain-text tables."),
        untestable=True,  # ImportError: textkit does not export render_table yet
    )
    h.commit(BRUNO, "Export render_table() from the package", export("table", "render_table"))
    h.commit(
        BRUNO,
        "table: right-align columns of numbers",
        replace(
            "textkit/table.py",
            '''
            """Plain-text tables for the terminal."""
            ''',
            '''
            """Plain-text tables for the terminal."""


            def _is_number(cell):
                try:
                    float(cell)
                except ValueError:
                    return False
                return True
            ''',
        ),
        replace(
            "textkit/table.py",
            """
                lines = [
                    " | ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
                    for row in cells
                ]
            """,
            """
                body = cells[1:] if header is not None else cells
                numeric = [all(_is_number(row[i]) for row in body) for i in range(len(widths))]
                lines = [
                    " | ".join(
                        cell.rjust(width) if number else cell.ljust(width)
                        for cell, width, number in zip(row, widths, numeric)
                    ).rstrip()
                    for row in cells
                ]
            """,
        ),
        add_def(
            "tests/test_table.py",
            """
            class AlignmentTest(unittest.TestCase):
                def test_numbers_go_right(self):
                    self.assertEqual(render_table([["a", 2], ["b", 10]]), ["a |  2", "b | 10"])
            """,
        ),
    )
    h.commit(
        DANA,
        "README: document render_table()",
        readme(
            "Contributing",
            """
            ## Tables

            `render_table(rows, header=None)` lays rows out in columns, numbers on the
            right, with a rule under the header.
            """,
        ),
    )
    stopword(h, "as")
    small_word(h, "by", "stand by me", "Stand by Me")
    translit(h, ADA, {"ĸ": "q"}, "ĸavdlunât", "qavdlunat")
    irregular(h, {"datum": "data"})
    h.commit(
        BRUNO,
        "tests: render_table() without a header",
        insert_after(
            "tests/test_table.py",
            """
                        ["title | year", "------+-----", "Dune  | 1965", "Emma  | 1815"],
                    )
            """,
            """

                def test_without_a_header(self):
                    self.assertEqual(render_table([["x", "yy"], ["zzz", "w"]]), ["x   | yy", "zzz | w"])

                def test_no_rows(self):
                    self.assertEqual(render_table([]), [])
            """,
        ),
    )
    h.commit(
        CHEN,
        "numbers: plural() of words that end in a consonant and y",
        replace(
            "textkit/numbers.py",
            """
                if word.endswith(("s", "x", "z", "ch", "sh")):
            """,
            """
                if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
                    return word[:-1] + "ies"
                if word.endswith(("s", "x", "z", "ch", "sh")):
            """,
        ),
        insert_before(
            "tests/test_numbers.py",
            "]\n\n\nclass OrdinalTest",
            '    ("city", "cities"),\n    ("day", "days"),\n',
        ),
    )
    stopword(h, "was")
    h.commit(
        DANA,
        "CONTRIBUTING: how releases are made",
        append(
            "CONTRIBUTING.md",
            """

            ## Releases

            A release moves the Unreleased entries of CHANGELOG.md under the new
            version and sets the version in `pyproject.toml` and `textkit/__init__.py`.
            """,
        ),
    )
    h.commit(
        ADA,
        "cli: add python3 -m textkit slug",
        write(
            "textkit/cli.py",
            '''
            """The command line: python3 -m textkit COMMAND ..."""

            import argparse
            import sys

            from textkit.slug import slugify


            def main(argv=None, out=None):
                """Run one command; its result goes to `out` (standard output by default)."""
                out = sys.stdout if out is None else out
                parser = argparse.ArgumentParser(prog="textkit", description="Small helpers for text.")
                commands = parser.add_subparsers(dest="command", required=True)
                slug = commands.add_parser("slug", help="print the URL slug of TEXT")
                slug.add_argument("text")
                args = parser.parse_args(argv)
                if args.command == "slug":
                    print(slugify(args.text), file=out)
                return 0
            ''',
        ),
        write(
            "textkit/__main__.py",
            '''
            """python3 -m textkit"""

            import sys

            from textkit.cli import main

            sys.exit(main())
            ''',
        ),
        write(
            "tests/test_cli.py",
            """
            import io
            import unittest

            from textkit.cli import main


            def run(*argv):
                out = io.StringIO()
                code = main(list(argv), out=out)
                return code, out.getvalue()


            class SlugCommandTest(unittest.TestCase):
                def test_slug(self):
                    self.assertEqual(run("slug", "Hello, World!"), (0, "hello-world\\n"))
            """,
        ),
        changelog("A command line: python3 -m textkit slug TEXT."),
    )
    h.commit(
        ADA,
        "cli: add the case command",
        replace(
            "textkit/cli.py",
            "from textkit.slug import slugify\n",
            """
            from textkit.case import to_camel, to_constant, to_kebab, to_pascal, to_snake, to_title
            from textkit.slug import slugify

            CONVERSIONS = {
                "camel": to_camel,
                "constant": to_constant,
                "kebab": to_kebab,
                "pascal": to_pascal,
                "snake": to_snake,
                "title": to_title,
            }
            """,
        ),
        replace(
            "textkit/cli.py",
            """
                slug.add_argument("text")
            """,
            """
                slug.add_argument("text")
                case = commands.add_parser("case", help="print TEXT in another naming convention")
                case.add_argument("style", choices=sorted(CONVERSIONS))
                case.add_argument("text")
            """,
        ),
        replace(
            "textkit/cli.py",
            """
                    print(slugify(args.text), file=out)
            """,
            """
                    print(slugify(args.text), file=out)
                elif args.command == "case":
                    print(f"{CONVERSIONS[args.style](args.text)", file=out)
            """,
        ),
        add_def(
            "tests/test_cli.py",
            """
            class CaseCommandTest(unittest.TestCase):
                def test_case(self):
                    self.assertEqual(run("case", "snake", "parseHTTPResponse"), (0, "parse_http_response\\n"))
                    self.assertEqual(run("case", "title", "the hobbit"), (0, "The Hobbit\\n"))
            """,
        ),
        untestable=True,  # SyntaxError in the f-string
    )
    h.commit(
        ADA,
        "cli: close the f-string of the case command",
        replace(
            "textkit/cli.py",
            'print(f"{CONVERSIONS[args.style](args.text)", file=out)',
            "print(CONVERSIONS[args.style](args.text), file=out)",
        ),
    )
    h.commit(
        BRUNO,
        "cli: add the wrap command",
        replace(
            "textkit/cli.py",
            "from textkit.slug import slugify\n",
            "from textkit.slug import slugify\nfrom textkit.wrap import fill\n",
        ),
        replace(
            "textkit/cli.py",
            """
                case.add_argument("text")
            """,
            """
                case.add_argument("text")
                wrap = commands.add_parser("wrap", help="print TEXT in lines of at most WIDTH")
                wrap.add_argument("--width", type=int, default=70)
                wrap.add_argument("text")
            """,
        ),
        replace(
            "textkit/cli.py",
            """
                    print(CONVERSIONS[args.style](args.text), file=out)
            """,
            """
                    print(CONVERSIONS[args.style](args.text), file=out)
                elif args.command == "wrap":
                    print(fill(args.text, args.width), file=out)
            """,
        ),
        add_def(
            "tests/test_cli.py",
            """
            class WrapCommandTest(unittest.TestCase):
                def test_wrap(self):
                    self.assertEqual(run("wrap", "--width", "5", "ab cd ef"), (0, "ab cd\\nef\\n"))
            """,
        ),
    )
    h.commit(
        DANA,
        "README: document the command line",
        readme(
            "Contributing",
            """
            ## Command line

                python3 -m textkit slug "Straße, Café!"       # strasse-cafe
                python3 -m textkit case snake parseHTTPResponse
                python3 -m textkit wrap --width 40 "some long text ..."
            """,
        ),
    )
    irregular(h, {"series": "series"})
    stopword(h, "be")
    small_word(h, "from", "letters from iwo jima", "Letters from Iwo Jima")
    translit(h, ADA, {"₿": " BTC "}, "1 ₿", "1-btc")
    h.release(DANA, "0.8.0")
    h.commit(
        CHEN,
        "numbers: plural() of words that end in -is",
        replace(
            "textkit/numbers.py",
            """
                if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
            """,
            """
                if word.endswith(("is"):
                    return word[:-2] + "es"
                if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
            """,
        ),
        untestable=True,  # SyntaxError: a parenthesis too many
    )
    h.commit(
        CHEN,
        "tests: plural() of analysis, crisis and thesis",
        insert_before(
            "tests/test_numbers.py",
            "]\n\n\nclass OrdinalTest",
            '    ("analysis", "analyses"),\n    ("crisis", "crises"),\n    ("thesis", "theses"),\n',
        ),
        untestable=True,  # the SyntaxError of the commit before
    )
    h.commit(
        CHEN,
        "numbers: remove the stray parenthesis in plural()",
        replace("textkit/numbers.py", 'if word.endswith(("is"):', 'if word.endswith("is"):'),
    )
    h.commit(
        BRUNO,
        "tests: render_table() with a column of numbers and a header",
        add_def(
            "tests/test_table.py",
            """
            class HeaderAlignmentTest(unittest.TestCase):
                def test_header_of_a_number_column(self):
                    self.assertEqual(
                        render_table([["a", 100]], header=["name", "n"]),
                        ["name |   n", "-----+----", "a    | 100"],
                    )
            """,
        ),
    )
    h.commit(
        ADA,
        "slug: transliterate ŀ and Ŀ",
        insert_before("textkit/slug.py", "}\n\n\ndef slugify", '    "ŀ": "l"\n    "Ŀ": "L",\n'),
        insert_before(
            "tests/test_slug.py",
            "]\n\n\nclass SlugifyTest",
            '    ("Ŀlibre paraŀlel", "llibre-parallel"),\n',
        ),
        untestable=True,  # SyntaxError: a missing comma
    )
    h.commit(
        ADA,
        "slug: add the missing comma in TRANSLITERATIONS",
        replace("textkit/slug.py", '    "ŀ": "l"\n', '    "ŀ": "l",\n'),
    )
    stopword(h, "this")
    irregular(h, {"fungus": "fungi"})
    h.commit(
        BRUNO,
        "cli: add the count command",
        replace(
            "textkit/cli.py",
            "from textkit.case import",
            "from textkit.count import word_count\nfrom textkit.case import",
        ),
        replace(
            "textkit/cli.py",
            """
                wrap.add_argument("text")
            """,
            """
                wrap.add_argument("text")
                count = commands.add_parser("count", help="print the number of words in TEXT")
                count.add_argument("text")
            """,
        ),
        replace(
            "textkit/cli.py",
            """
                    print(fill(args.text, args.width), file=out)
            """,
            """
                    print(fill(args.text, args.width), file=out)
                elif args.command == "count":
                    print(word_count(args.text), file=out)
            """,
        ),
        add_def(
            "tests/test_cli.py",
            """
            class CountCommandTest(unittest.TestCase):
                def test_count(self):
                    self.assertEqual(run("count", "one two three"), (0, "3\\n"))
            """,
        ),
    )
    h.commit(
        BRUNO,
        "cli: sort the imports",
        replace(
            "textkit/cli.py",
            "from textkit.count import word_count\n"
            "from textkit.case import to_camel, to_constant, to_kebab, to_pascal, to_snake, to_title\n",
            "from textkit.case import to_camel, to_constant, to_kebab, to_pascal, to_snake, to_title\n"
            "from textkit.count import word_count\n",
        ),
    )
    irregular(h, {"nucleus": "nuclei"})
    stopword(h, "are")
    h.commit(
        ADA,
        "slug: unique_slug() can start counting at another number",
        replace(
            "textkit/slug.py",
            '''
            def unique_slug(text, taken, separator="-"):
                """slugify(text), with -2, -3, ... added while that slug is in `taken`."""
                base = slugify(text, separator)
                slug, n = base, 2
            ''',
            '''
            def unique_slug(text, taken, separator="-", start=2):
                """slugify(text), with -2, -3, ... (from `start`) added while that slug is in
                `taken`."""
                base = slugify(text, separator)
                slug, n = base, start
            ''',
        ),
        insert_after(
            "tests/test_slug.py",
            """
                    self.assertEqual(unique_slug("Hello", {"hello": 1}), "hello-2")
            """,
            """

                def test_start(self):
                    self.assertEqual(unique_slug("Hello", ["hello"], start=1), "hello-1")
            """,
        ),
        changelog("unique_slug() takes the first number to try."),
    )
    small_word(h, "or", "dead or alive", "Dead or Alive")
    irregular(h, {"radius": "radii"})
    h.commit(
        BRUNO,
        "tests: wrap() of nothing but spaces",
        insert_after(
            "tests/test_wrap.py",
            """
                    self.assertEqual(wrap("Hello, world! Bye.", 7), ["Hello,", "world!", "Bye."])
            """,
            """

                def test_only_spaces(self):
                    self.assertEqual(wrap("   \\t  "), [])
            """,
        ),
    )
    stopword(h, "or")
    h.commit(
        DANA,
        "README: the command line counts words too",
        replace(
            "README.md",
            '    python3 -m textkit wrap --width 40 "some long text ..."\n',
            '    python3 -m textkit wrap --width 40 "some long text ..."\n'
            '    python3 -m textkit count "how many words?"    # 3\n',
        ),
    )
    irregular(h, {"alumnus": "alumni"})
    translit(h, ADA, {"ẞ": "SS"}, "GROẞE STRAẞE", "grosse-strasse")
    stopword(h, "not")
    irregular(h, {"appendix": "appendices"})
    small_word(h, "nor", "neither here nor there", "Neither Here nor There")
    h.release(DANA, "0.9.0")
    h.commit(
        BRUNO,
        "wrap: dedent() does not count blank lines",
        replace(
            "tests/test_wrap.py",
            r"""
                    self.assertEqual(dedent("    a\n      b\n\n    c\n"), "a\n  b\n\nc\n")
            """,
            r"""
                    self.assertEqual(dedent("    a\n      b\n\n    c\n"), "a\n  b\n\nc\n")

                def test_blank_lines_do_not_count(self):
                    self.assertEqual(dedent("    a\n  \n    b\n"), "a\n\nb\n")
            """,
        ),
    )
    irregular(h, {"matrix": "matrices"})
    stopword(h, "but")
    h.commit(
        ADA,
        "cli: the slug command takes --separator",
        replace(
            "textkit/cli.py",
            """
                slug.add_argument("text")
            """,
            """
                slug.add_argument("--separator", default="-")
                slug.add_argument("text")
            """,
        ),
        replace(
            "textkit/cli.py",
            "        print(slugify(args.text), file=out)\n",
            "        print(slugify(args.text, args.separator), file=out)\n",
        ),
        insert_after(
            "tests/test_cli.py",
            """
                    self.assertEqual(run("slug", "Hello, World!"), (0, "hello-world\\n"))
            """,
            """

                def test_separator(self):
                    self.assertEqual(run("slug", "--separator", "_", "a b"), (0, "a_b\\n"))
            """,
        ),
    )
    irregular(h, {"vertex": "vertices"})
    small_word(h, "as", "as good as it gets", "As Good as It Gets")
    h.commit(
        DANA,
        "CONTRIBUTING: adding a stopword or a plural",
        insert_after(
            "CONTRIBUTING.md",
            "`EXAMPLES` in `tests/test_slug.py`.\n",
            """

            Stopwords (`STOPWORDS` in `textkit/count.py`, with `IGNORED` in
            `tests/test_count.py`) and irregular plurals (`IRREGULAR` in
            `textkit/numbers.py`, with `PLURAL_EXAMPLES`) work the same way.
            """,
        ),
    )
    stopword(h, "from")
    irregular(h, {"bacterium": "bacteria"})
    h.commit(
        CHEN,
        "numbers: add percent()",
        add_def(
            "textkit/numbers.py",
            '''
            def percent(fraction, digits=1):
                """0.256 -> '25.6%'."""
                return f"{fraction * 100:.{digits}f}%"
            ''',
        ),
        import_name("tests/test_numbers.py", "textkit.numbers", "percent"),
        add_def(
            "tests/test_numbers.py",
            """
            class PercentTest(unittest.TestCase):
                def test_percent(self):
                    self.assertEqual(percent(0.256), "25.6%")
                    self.assertEqual(percent(1, digits=0), "100%")
            """,
        ),
        export("numbers", "percent"),
        changelog("percent(): 0.256 -> 25.6%."),
    )
    h.commit(
        DANA,
        "README: document percent()",
        replace(
            "README.md",
            '`number_words(42)` is "forty-two" and `human_bytes(1536)` is "1.5 KB".\n',
            '`number_words(42)` is "forty-two", `human_bytes(1536)` is "1.5 KB" and\n'
            '`percent(0.256)` is "25.6%".\n',
        ),
    )
    irregular(h, {"medium": "media"})
    translit(h, ADA, {"₹": " INR "}, "₹100", "inr-100")
    stopword(h, "at")
    irregular(h, {"curriculum": "curricula"})
    h.commit(
        BRUNO,
        "case: to_title() keeps words in capitals",
        replace(
            "textkit/case.py",
            """
                    result.append(lower if small else lower.capitalize())
            """,
            """
                    if word.isupper() and len(word) > 1:
                        result.append(word)  # NASA, BBC
                    else:
                        result.append(lower if small else lower.capitalize())
            """,
        ),
        replace(
            "tests/test_case.py",
            '    ("brave NEW world", "Brave New World"),\n',
            '    ("brave NEW world", "Brave NEW World"),\n    ("NASA and the moon", "NASA and the Moon"),\n',
        ),
        changelog("to_title() keeps words in capitals, such as NASA."),
    )
    stopword(h, "his")
    small_word(h, "per", "miles per hour", "Miles per Hour")
    irregular(h, {"stimulus": "stimuli"})
    h.commit(
        DANA,
        "README: to_title() and words in capitals",
        replace(
            "README.md",
            """
            and "of" stay lowercase unless they come first.
            """,
            """
            and "of" stay lowercase unless they come first, and words in capitals such
            as "NASA" stay as they are.
            """,
        ),
    )
    stopword(h, "her")
    translit(h, ADA, {"₩": " KRW "}, "₩5000", "krw-5000")
    irregular(h, {"syllabus": "syllabi"})
    stopword(h, "they")
    h.commit(
        BRUNO,
        "tests: center() of a text longer than the width",
        insert_after(
            "tests/test_wrap.py",
            """
                    self.assertEqual(center("ab", 6, "*"), "**ab**")
            """,
            """

                def test_text_longer_than_the_width(self):
                    self.assertEqual(center("abcdef", 3), "abcdef")
            """,
        ),
    )
    small_word(h, "via", "paris via rome", "Paris via Rome")
    h.release(DANA, "0.10.0")
    irregular(h, {"thief": "thieves"})
    stopword(h, "we")
    h.commit(
        BRUNO,
        "tests: the command line rejects unknown commands",
        add_def(
            "tests/test_cli.py",
            """
            class UnknownCommandTest(unittest.TestCase):
                def test_unknown_command(self):
                    with self.assertRaises(SystemExit) as raised, redirect_stderr(io.StringIO()):
                        run("shout", "hello")
                    self.assertEqual(raised.exception.code, 2)
            """,
        ),
        replace(
            "tests/test_cli.py",
            "import unittest\n",
            "import unittest\nfrom contextlib import redirect_stderr\n",
        ),
    )
    irregular(h, {"wolf": "wolves"})
    stopword(h, "you")
    irregular(h, {"half": "halves"})
    h.commit(
        DANA,
        "README: thank the contributors",
        append(
            "README.md",
            """

            ## Thanks

            textkit is written by Ada Lindqvist, Bruno Costa, Chen Wei and Dana
            Whitfield, with help from everyone who reported a missing letter.
            """,
        ),
    )
    irregular(h, {"calf": "calves"})
    stopword(h, "he")
    h.commit(
        DANA,
        "CHANGELOG: note the new stopwords and plurals",
        changelog("More stopwords and irregular plurals."),
    )


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else HERE / "commits"
    h = history()
    h.save(out)
    print(f"wrote {len(h.files)} commits to {out}")
    print(f"first bad commit: {h.first_bad}")
    print("untestable commits (the test exits 125):")
    print(*(f"  {subject}" for subject in h.untestable), sep="\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
