#!/usr/bin/env python3
"""Write commits/ of the merge-branches sample: run once, commit the files it writes.

    python3 sample_repos/merge-branches/generate_history.py [OUT]   # default: commits/ here

make_repo.py reads only the plain commit files; this script is kept to show where they
come from and to regenerate them after an edit. It checks that make_repo.py reads back
exactly the trees it meant to write.

shelf keeps a small library's catalogue and exports it as CSV. main has three commits;
feature/semicolons and feature/export-via-csvio both start at the third. The first
makes csvio default to ';' (nothing on its branch relies on the default), the second
makes the inventory export call csvio.write_rows() with the default delimiter, which is
',' on its branch. Each branch passes; main passes after the first merge; the second
merge fails: the export now writes ';' and test_export_inventory expects ','.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from textwrap import dedent

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from make_repo import format_commit_patch, read_history  # noqa: E402

Tree = dict[str, str]
Edit = Callable[[Tree], None]

PRIYA = "Priya Raman <priya@shelf.example>"
MARIA = "Maria Keller <maria@shelf.example>"
TOM = "Tom Okafor <tom@shelf.example>"


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
        assert tree[path].count(old) == 1, (path, old)
        tree[path] = tree[path].replace(old, new)

    return edit


class History:
    """Commits as (file name, text), with the tree of each branch kept alongside."""

    def __init__(self) -> None:
        self.files: list[tuple[str, str]] = []
        self.trees: list[Tree] = []  # the tree of each commit
        self.tips: dict[str, Tree] = {}
        self.edits: dict[str, list[Edit]] = {}  # a branch's edits since it started

    def commit(
        self,
        slug: str,
        subject: str,
        author: str,
        date: str,
        *edits: Edit,
        body: str = "",
        branch: str = "main",
        branch_from: str | None = None,
        merge: str | None = None,
    ) -> None:
        headers = {"From": author, "Date": date}
        if branch != "main":
            headers["Branch"] = branch
        if branch_from:
            headers["Branch-from"] = branch_from
            self.tips[branch] = dict(self.tips[branch_from])
            self.edits[branch] = []
        if merge:
            headers["Merge"] = merge
            edits = tuple(self.edits[merge])  # the tree git merge makes, when nothing conflicts
        headers["Subject"] = subject
        before = self.tips.get(branch, {})
        after = dict(before)
        for edit in edits:
            edit(after)
        # a merge commit's file has no diff: make_repo.py merges the trees itself
        text = format_commit_patch(
            headers, dedent(body), {} if merge else before, {} if merge else after
        )
        self.files.append((f"{len(self.files) + 1:04d}-{slug}.patch", text))
        self.trees.append(after)
        self.tips[branch] = after
        if branch != "main" and not merge:
            self.edits[branch].append(edit_all(edits))

    def save(self, out: Path) -> None:
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("*.patch"):
            old.unlink()
        for name, text in self.files:
            (out / name).write_text(text, encoding="utf-8", newline="\n")
        read_back = read_history(out)
        assert [commit.tree for commit in read_back] == self.trees, "make_repo reads other trees"


def edit_all(edits: tuple[Edit, ...]) -> Edit:
    def edit(tree: Tree) -> None:
        for one in edits:
            one(tree)

    return edit


RUN_TESTS = '''
    """Run the unit tests and answer the way `git bisect run` expects.

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
            print(*loader.errors, sep="\\n")
            return UNTESTABLE
        runner = unittest.TextTestRunner(stream=sys.stdout, resultclass=_Result)
        result = runner.run(suite)
        if result.not_built:
            print("run_tests.py: cannot test this checkout:", *result.not_built, sep="\\n  ")
            return UNTESTABLE
        if result.testsRun == 0:
            print("run_tests.py: no tests found")
            return UNTESTABLE
        return PASSED if result.wasSuccessful() else FAILED


    if __name__ == "__main__":
        sys.exit(main())
    '''


def history() -> History:
    h = History()
    h.commit(
        "initial-version",
        "shelf: catalogue, CSV helpers and the inventory export",
        PRIYA,
        "2024-04-02 10:00:00 +0200",
        write("run_tests.py", RUN_TESTS),
        write(
            "README.md",
            """
            # shelf

            shelf keeps the catalogue of a small library in a text file and exports it
            for spreadsheets.

            ## Catalogue file

            One book per line, `title | author | year | copies`; the number of copies may
            be left out (one copy). Blank lines and lines starting with `#` are skipped.

                Dune | Frank Herbert | 1965 | 2
                Emma | Jane Austen | 1815

            ## Exports

            `shelf.report.export_inventory(books)` writes the inventory as CSV with a
            header line. Fields that contain the delimiter or quotes are quoted.

            ## Reports

            `shelf.report.total_copies(books)` counts the copies of all books.

            ## Tests

                python3 run_tests.py
            """,
        ),
        write(
            "CHANGELOG.md",
            """
            # Changelog

            ## 1.2.0

            - The inventory export quotes fields that contain commas or quotes.
            - Catalogue lines may leave out the number of copies.
            """,
        ),
        write(
            "shelf/__init__.py",
            '''
            """shelf: keep track of a small library's books and export them as CSV."""

            __version__ = "1.2.0"
            ''',
        ),
        write(
            "shelf/books.py",
            '''
            """Books, and how they are read from the catalogue file."""

            from dataclasses import dataclass


            @dataclass(frozen=True)
            class Book:
                title: str
                author: str
                year: int
                copies: int = 1


            def parse_book(line):
                """A Book from a catalogue line 'title | author | year | copies'."""
                fields = [field.strip() for field in line.split("|")]
                if len(fields) not in (3, 4):
                    raise ValueError(f"expected 3 or 4 fields separated by '|': {line!r}")
                title, author, year = fields[:3]
                copies = int(fields[3]) if len(fields) == 4 else 1
                return Book(title, author, int(year), copies)


            def read_catalogue(text):
                """The books of a catalogue, without blank lines and # comments."""
                books = []
                for line in text.splitlines():
                    line = line.strip()
                    if line and not line.startswith("#"):
                        books.append(parse_book(line))
                return books
            ''',
        ),
        write(
            "shelf/csvio.py",
            '''
            """Delimiter-separated text, as far as shelf's exports need it.

            A field that holds the delimiter, a quote or a line break is quoted, and quotes
            inside it are doubled. read_rows reads back what write_rows writes.
            """


            def quote_field(value, delimiter=","):
                """`value` as one field, quoted when it has to be."""
                text = str(value)
                if delimiter in text or '"' in text or "\\n" in text:
                    return '"' + text.replace('"', '""') + '"'
                return text


            def write_rows(rows, delimiter=","):
                """The text of `rows` (lists of values), one line per row."""
                return "".join(
                    delimiter.join(quote_field(value, delimiter) for value in row) + "\\n"
                    for row in rows
                )


            def read_rows(text, delimiter=","):
                """The rows (lists of strings) of `text`, as write_rows writes it."""
                rows = []
                for line in text.splitlines():
                    row, field, quoted, i = [], "", False, 0
                    while i < len(line):
                        char = line[i]
                        if quoted and char == '"' and line[i + 1 : i + 2] == '"':
                            field += '"'
                            i += 1
                        elif char == '"':
                            quoted = not quoted
                        elif char == delimiter and not quoted:
                            row.append(field)
                            field = ""
                        else:
                            field += char
                        i += 1
                    row.append(field)
                    rows.append(row)
                return rows
            ''',
        ),
        write(
            "shelf/report.py",
            '''
            """Reports about the books on the shelf."""

            from shelf import csvio

            HEADER = ["title", "author", "year", "copies"]


            def export_inventory(books):
                """The inventory as CSV: a header line, then one line per book, in order."""
                lines = [",".join(HEADER)]
                for book in books:
                    fields = [book.title, book.author, book.year, book.copies]
                    lines.append(",".join(csvio.quote_field(field, ",") for field in fields))
                return "\\n".join(lines) + "\\n"


            def catalogue_line(book):
                """The line of the catalogue file that parse_book reads as `book`."""
                return f"{book.title} | {book.author} | {book.year} | {book.copies}"


            def total_copies(books):
                """How many copies of all books there are."""
                return sum(book.copies for book in books)
            ''',
        ),
        write("tests/__init__.py", '"""The tests of shelf (stdlib unittest)."""\n'),
        write(
            "tests/test_books.py",
            """
            import unittest

            from shelf.books import Book, parse_book, read_catalogue


            class ParseBookTest(unittest.TestCase):
                def test_four_fields(self):
                    self.assertEqual(
                        parse_book("Dune | Frank Herbert | 1965 | 2"),
                        Book("Dune", "Frank Herbert", 1965, 2),
                    )

                def test_copies_default_to_one(self):
                    self.assertEqual(parse_book("Emma|Jane Austen|1815").copies, 1)

                def test_too_few_fields(self):
                    with self.assertRaises(ValueError):
                        parse_book("Dune | Frank Herbert")


            class ReadCatalogueTest(unittest.TestCase):
                def test_skips_blank_lines_and_comments(self):
                    text = "# my books\\n\\nDune | Frank Herbert | 1965\\n"
                    self.assertEqual(read_catalogue(text), [Book("Dune", "Frank Herbert", 1965)])
            """,
        ),
        write(
            "tests/test_csvio.py",
            '''
            import unittest

            from shelf.csvio import quote_field, read_rows, write_rows

            DELIMITERS = [",", ";", "\\t"]


            class QuoteFieldTest(unittest.TestCase):
                def test_plain_values_are_not_quoted(self):
                    for delimiter in DELIMITERS:
                        self.assertEqual(quote_field("Dune", delimiter), "Dune")
                        self.assertEqual(quote_field(1965, delimiter), "1965")

                def test_the_delimiter_is_quoted(self):
                    for delimiter in DELIMITERS:
                        self.assertEqual(quote_field(f"a{delimiter}b", delimiter), f'"a{delimiter}b"')

                def test_quotes_are_doubled(self):
                    self.assertEqual(quote_field('say "hi"', ","), '"say ""hi"""')


            class RowsTest(unittest.TestCase):
                ROWS = [["title", "author"], ["Dune", "Herbert, Frank"], ['The "Hobbit"', "Tolkien"]]

                def test_rows_come_back_unchanged(self):
                    for delimiter in DELIMITERS:
                        text = write_rows(self.ROWS, delimiter)
                        self.assertEqual(read_rows(text, delimiter), self.ROWS)

                def test_one_line_per_row(self):
                    self.assertEqual(write_rows([["a", "b"], ["c", "d"]], ";"), "a;b\\nc;d\\n")
            ''',
        ),
        write(
            "tests/test_report.py",
            """
            import unittest

            from shelf.books import Book, parse_book
            from shelf.report import catalogue_line, export_inventory, total_copies

            BOOKS = [Book("Dune", "Frank Herbert", 1965, 2), Book("Emma", "Jane Austen", 1815)]


            class ExportInventoryTest(unittest.TestCase):
                def test_export_inventory(self):
                    self.assertEqual(
                        export_inventory(BOOKS),
                        "title,author,year,copies\\n"
                        "Dune,Frank Herbert,1965,2\\n"
                        "Emma,Jane Austen,1815,1\\n",
                    )

                def test_fields_with_commas_are_quoted(self):
                    books = [Book("Eats, Shoots & Leaves", "Lynne Truss", 2003)]
                    self.assertIn('"Eats, Shoots & Leaves",Lynne Truss,2003', export_inventory(books))

                def test_no_books_is_just_the_header(self):
                    self.assertEqual(export_inventory([]), "title,author,year,copies\\n")


            class CatalogueLineTest(unittest.TestCase):
                def test_parse_book_reads_it_back(self):
                    for book in BOOKS:
                        self.assertEqual(parse_book(catalogue_line(book)), book)


            class TotalCopiesTest(unittest.TestCase):
                def test_total_copies(self):
                    self.assertEqual(total_copies(BOOKS), 3)
            """,
        ),
    )
    h.commit(
        "sort-books",
        "books: sort by author, then title",
        PRIYA,
        "2024-04-03 14:20:00 +0200",
        replace(
            "shelf/books.py",
            """
                        books.append(parse_book(line))
                return books
            """,
            """
                        books.append(parse_book(line))
                return books


            def sorted_books(books):
                \"""`books` by author, then title, ignoring case.\"""
                return sorted(books, key=lambda book: (book.author.lower(), book.title.lower()))
            """,
        ),
        replace(
            "tests/test_books.py",
            "from shelf.books import Book, parse_book, read_catalogue\n",
            "from shelf.books import Book, parse_book, read_catalogue, sorted_books\n",
        ),
        replace(
            "tests/test_books.py",
            """
                    self.assertEqual(read_catalogue(text), [Book("Dune", "Frank Herbert", 1965)])
            """,
            """
                    self.assertEqual(read_catalogue(text), [Book("Dune", "Frank Herbert", 1965)])


            class SortedBooksTest(unittest.TestCase):
                def test_by_author_then_title(self):
                    books = [Book("b", "Y", 1), Book("a", "y", 2), Book("c", "X", 3)]
                    self.assertEqual([b.title for b in sorted_books(books)], ["c", "a", "b"])
            """,
        ),
        body="""
        The printed catalogue lists books by author; exports keep the order they are
        given, so callers decide.
        """,
    )
    h.commit(
        "readme-export",
        "README: say what the inventory export looks like",
        PRIYA,
        "2024-04-04 09:05:00 +0200",
        replace(
            "README.md",
            """
            header line. Fields that contain the delimiter or quotes are quoted.
            """,
            """
            header line. Fields that contain the delimiter or quotes are quoted:

                title,author,year,copies
                Dune,Frank Herbert,1965,2
                "Eats, Shoots & Leaves",Lynne Truss,2003,1
            """,
        ),
    )

    # feature/semicolons, from main
    a = {"branch": "feature/semicolons"}
    h.commit(
        "name-default-delimiter",
        "csvio: name the default delimiter",
        MARIA,
        "2024-04-08 11:30:00 +0200",
        replace(
            "shelf/csvio.py",
            '''
            inside it are doubled. read_rows reads back what write_rows writes.
            """
            ''',
            '''
            inside it are doubled. read_rows reads back what write_rows writes.
            """

            DEFAULT_DELIMITER = ","
            ''',
        ),
        replace(
            "shelf/csvio.py",
            'def quote_field(value, delimiter=","):',
            "def quote_field(value, delimiter=DEFAULT_DELIMITER):",
        ),
        replace(
            "shelf/csvio.py",
            'def write_rows(rows, delimiter=","):',
            "def write_rows(rows, delimiter=DEFAULT_DELIMITER):",
        ),
        replace(
            "shelf/csvio.py",
            'def read_rows(text, delimiter=","):',
            "def read_rows(text, delimiter=DEFAULT_DELIMITER):",
        ),
        branch_from="main",
        **a,
    )
    h.commit(
        "sniff-delimiter",
        "csvio: add sniff_delimiter() for files written by other tools",
        MARIA,
        "2024-04-08 16:45:00 +0200",
        replace(
            "shelf/csvio.py",
            """
                    row.append(field)
                    rows.append(row)
                return rows
            """,
            '''
                    row.append(field)
                    rows.append(row)
                return rows


            def sniff_delimiter(text, candidates=",;\\t"):
                """The candidate that splits the first line of `text` into the most fields."""
                first = text.split("\\n", 1)[0]
                return max(candidates, key=lambda delimiter: len(read_rows(first, delimiter)[0]))
            ''',
        ),
        replace(
            "tests/test_csvio.py",
            "from shelf.csvio import quote_field, read_rows, write_rows\n",
            "from shelf.csvio import quote_field, read_rows, sniff_delimiter, write_rows\n",
        ),
        replace(
            "tests/test_csvio.py",
            """
                    self.assertEqual(write_rows([["a", "b"], ["c", "d"]], ";"), "a;b\\nc;d\\n")
            """,
            """
                    self.assertEqual(write_rows([["a", "b"], ["c", "d"]], ";"), "a;b\\nc;d\\n")


            class SniffDelimiterTest(unittest.TestCase):
                def test_finds_the_delimiter_of_the_first_line(self):
                    self.assertEqual(sniff_delimiter("a;b;c\\n1;2;3\\n"), ";")
                    self.assertEqual(sniff_delimiter("a\\tb\\n"), "\\t")

                def test_quoted_delimiters_do_not_count(self):
                    self.assertEqual(sniff_delimiter('"a;b;c",d\\n'), ",")
            """,
        ),
        **a,
    )
    h.commit(
        "semicolon-default",
        "csvio: default to semicolons, which spreadsheets in most locales expect",
        MARIA,
        "2024-04-09 10:10:00 +0200",
        replace("shelf/csvio.py", 'DEFAULT_DELIMITER = ","\n', 'DEFAULT_DELIMITER = ";"\n'),
        replace(
            "README.md",
            """
            ## Exports

            """,
            """
            ## Exports

            The functions of `shelf.csvio` use `;` unless given another delimiter: with
            a comma, spreadsheets in most locales open the file as one column.
            `sniff_delimiter(text)` tells which delimiter a file uses.

            """,
        ),
        body="""
        Everything in shelf passes the delimiter explicitly so far, so only new
        callers see the new default.
        """,
        **a,
    )

    # feature/export-via-csvio, from the same commit of main
    b = {"branch": "feature/export-via-csvio"}
    h.commit(
        "low-stock",
        "report: add low_stock()",
        TOM,
        "2024-04-08 13:00:00 +0100",
        replace(
            "shelf/report.py",
            '''
            def total_copies(books):
                """How many copies of all books there are."""
                return sum(book.copies for book in books)
            ''',
            '''
            def total_copies(books):
                """How many copies of all books there are."""
                return sum(book.copies for book in books)


            def low_stock(books, at_most=1):
                """The titles of the books with at most `at_most` copies, sorted."""
                return sorted(book.title for book in books if book.copies <= at_most)
            ''',
        ),
        replace(
            "tests/test_report.py",
            "from shelf.report import catalogue_line, export_inventory, total_copies\n",
            "from shelf.report import catalogue_line, export_inventory, low_stock, total_copies\n",
        ),
        replace(
            "tests/test_report.py",
            """
                    self.assertEqual(total_copies(BOOKS), 3)
            """,
            """
                    self.assertEqual(total_copies(BOOKS), 3)


            class LowStockTest(unittest.TestCase):
                def test_books_with_one_copy(self):
                    self.assertEqual(low_stock(BOOKS), ["Emma"])

                def test_threshold(self):
                    self.assertEqual(low_stock(BOOKS, at_most=2), ["Dune", "Emma"])
            """,
        ),
        branch_from="main",
        **b,
    )
    h.commit(
        "export-via-csvio",
        "report: write the inventory export with csvio.write_rows",
        TOM,
        "2024-04-09 09:40:00 +0100",
        replace(
            "shelf/report.py",
            """
                lines = [",".join(HEADER)]
                for book in books:
                    fields = [book.title, book.author, book.year, book.copies]
                    lines.append(",".join(csvio.quote_field(field, ",") for field in fields))
                return "\\n".join(lines) + "\\n"
            """,
            """
                rows = [[book.title, book.author, book.year, book.copies] for book in books]
                return csvio.write_rows([HEADER, *rows])
            """,
        ),
        body="""
        One place that knows how to quote fields. The header is quoted like any
        other row now, which changes nothing for the names it has.
        """,
        **b,
    )
    h.commit(
        "readme-low-stock",
        "README: document low_stock()",
        TOM,
        "2024-04-09 15:15:00 +0100",
        replace(
            "README.md",
            """
            `shelf.report.total_copies(books)` counts the copies of all books.
            """,
            """
            `shelf.report.total_copies(books)` counts the copies of all books, and
            `shelf.report.low_stock(books, at_most=1)` lists the titles of the books with
            few copies left, to reorder.
            """,
        ),
        **b,
    )

    h.commit(
        "merge-semicolons",
        "Merge branch 'feature/semicolons'",
        PRIYA,
        "2024-04-10 09:00:00 +0200",
        merge="feature/semicolons",
    )
    h.commit(
        "changelog",
        "CHANGELOG: start 1.3.0",
        PRIYA,
        "2024-04-10 09:30:00 +0200",
        replace(
            "CHANGELOG.md",
            """
            # Changelog

            """,
            """
            # Changelog

            ## 1.3.0 (unreleased)

            - CSV files use `;` by default; `csvio.sniff_delimiter()` tells which
              delimiter a file uses.
            - `books.sorted_books()` sorts by author, then title.

            """,
        ),
    )
    h.commit(
        "merge-export-via-csvio",
        "Merge branch 'feature/export-via-csvio'",
        PRIYA,
        "2024-04-10 11:20:00 +0200",
        merge="feature/export-via-csvio",
    )
    return h


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else HERE / "commits"
    history().save(out)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
