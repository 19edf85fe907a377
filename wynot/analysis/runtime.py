"""What Python does not evaluate at run time, by line (pure).

A derived dependency says that a configuration cannot *run*; a name that
Python never evaluates creates no such need. On one side of a Python file,
:func:`read_inert` finds:

* annotations that are never evaluated: those of annotated assignments in
  a function body (``rv: t.Dict[str, int] = {}``); every annotation of a
  file with ``from __future__ import annotations``; and in any annotation,
  the words of a string (``x: "Parser"``, ``-> t.Optional["Rule"]``).
  Parameter and return annotations, and those of module and class
  variables, are evaluated when the definition runs (without the future
  import) and stay uses;
* code that never runs: the body of ``if TYPE_CHECKING:`` (also
  ``typing.TYPE_CHECKING``, ``t.TYPE_CHECKING``), and the ``else`` of
  ``if not TYPE_CHECKING:``. Its imports bind nothing and its uses need
  nothing.

:func:`evaluated` then drops those lines and blanks those names from a
change's lines, so that the line scan of :mod:`wynot.analysis.lexical`
reads what the change does at run time. A name counts as not evaluated on a
line only when every occurrence of it on that line is one (``def f(x:
"Foo" = Foo())`` still uses ``Foo``).
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from wynot.analysis.lexical import IDENTIFIER

_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True, slots=True)
class Inert:
    """One side's names that are not evaluated (by line: how often) and lines that
    never run."""

    names: dict[int, Counter[str]] = field(default_factory=dict)
    dead: frozenset[int] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.names or self.dead)


NOTHING_INERT = Inert()


def postponed(tree: ast.Module) -> bool:
    """Whether the module starts with ``from __future__ import annotations``."""
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom) and statement.module == "__future__":
            if any(alias.name == "annotations" for alias in statement.names):
                return True
        elif not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)):
            return False  # future imports come first, after the docstring only
    return False


def read_inert(statements: Sequence[ast.stmt], *, future: bool) -> Inert:
    """The inert names and dead lines of ``statements`` (a module's, or some of its
    top-level ones); ``future``: the module postpones its annotations."""
    reader = _Reader(future)
    reader.block(statements, function=False)
    return Inert(reader.names, frozenset(reader.dead)) if reader.names or reader.dead \
        else NOTHING_INERT


class _Reader:
    """A walk over statements (expressions only where they annotate)."""

    def __init__(self, future: bool) -> None:
        self.future = future
        self.names: dict[int, Counter[str]] = {}
        self.dead: set[int] = set()

    def block(self, statements: Iterable[ast.AST], *, function: bool) -> None:
        for statement in statements:
            if isinstance(statement, _FUNCTIONS):
                self._function(statement)
            elif isinstance(statement, ast.ClassDef):
                self.block(statement.body, function=False)  # class variables are evaluated
            elif isinstance(statement, ast.AnnAssign):
                self.annotation(statement.annotation, evaluated=not (function or self.future))
            elif isinstance(statement, ast.If) and (checking := _type_checking(statement.test)):
                never, runs = ((statement.body, statement.orelse) if checking > 0
                               else (statement.orelse, statement.body))
                self._never(never)
                self.block(runs, function=function)
            else:
                for name in _blocks(type(statement)):
                    inner = getattr(statement, name)
                    if inner:
                        self.block(_statements(inner), function=function)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        a = node.args
        for arg in (*a.posonlyargs, *a.args, a.vararg, *a.kwonlyargs, a.kwarg):
            if arg is not None and arg.annotation is not None:
                self.annotation(arg.annotation, evaluated=not self.future)
        if node.returns is not None:
            self.annotation(node.returns, evaluated=not self.future)
        self.block(node.body, function=True)

    def _never(self, statements: list[ast.stmt]) -> None:
        if statements:
            last = statements[-1]
            self.dead.update(range(statements[0].lineno, (last.end_lineno or last.lineno) + 1))

    def annotation(self, node: ast.expr, *, evaluated: bool) -> None:
        """Count the names of an annotation that Python does not evaluate: all of
        them, or (``evaluated``) the words of its strings."""
        todo: list[ast.AST] = [node]
        while todo:
            inner = todo.pop()
            if isinstance(inner, ast.Name):
                if not evaluated:
                    self._count(inner.lineno, inner.id)
            elif isinstance(inner, ast.Attribute):
                if not evaluated:
                    self._count(inner.end_lineno or inner.lineno, inner.attr)
                todo.append(inner.value)
            elif isinstance(inner, ast.Subscript):
                todo += (inner.value, inner.slice)
            elif isinstance(inner, ast.Constant):
                if isinstance(inner.value, str) and inner.lineno == inner.end_lineno:
                    for word in IDENTIFIER.findall(inner.value):
                        self._count(inner.lineno, word)
            else:
                todo.extend(ast.iter_child_nodes(inner))

    def _count(self, line: int, name: str) -> None:
        self.names.setdefault(line, Counter())[name] += 1


def _blocks(kind: type[ast.AST]) -> tuple[str, ...]:
    """The fields of a statement type that hold blocks of statements."""
    found = _BLOCK_FIELDS.get(kind)
    if found is None:
        found = _BLOCK_FIELDS[kind] = tuple(f for f in _BLOCKS if f in kind._fields)
    return found


_BLOCK_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}


def _statements(inner: list[ast.AST]) -> Iterable[ast.AST]:
    """The statements of a block, those of ``except`` and ``case`` clauses opened."""
    for item in inner:
        if isinstance(item, ast.ExceptHandler | ast.match_case):
            yield from item.body
        else:
            yield item


def _type_checking(test: ast.expr) -> int:
    """1 for ``TYPE_CHECKING`` (any ``x.TYPE_CHECKING``), -1 for its negation, else 0."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return -_type_checking(test.operand)
    if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
        return 1
    if isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING":
        return 1
    return 0


def evaluated(lines: Sequence[str], numbers: Iterable[int], inert: Inert) -> list[str]:
    """``lines`` (at line ``numbers``, in order) as they run: dead lines dropped, and
    the names whose every occurrence on a line is inert blanked out."""
    if not inert:
        return list(lines)
    kept = []
    for number, text in zip(numbers, lines, strict=False):
        if number in inert.dead:
            continue
        counts = inert.names.get(number)
        if counts:
            text = _blank(text, counts)
        kept.append(text)
    return kept


def _blank(text: str, counts: Counter[str]) -> str:
    """``text`` with the names it holds only as many times as they are inert blanked."""
    found = Counter(IDENTIFIER.findall(text))
    gone = {name for name, n in counts.items() if 0 < found[name] <= n}
    if not gone:
        return text
    return IDENTIFIER.sub(lambda m: " " * len(m.group()) if m.group() in gone else m.group(),
                          text)
