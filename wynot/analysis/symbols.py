"""Identifiers that a change defines, removes and uses, and what a file imports (pure).

This is the knowledge behind grouping and predicted outcomes: a hunk that
starts using ``parse_header`` needs the hunk that defines it; a hunk that
removes the definition of ``old_name`` needs every hunk that stops using it.
Definitions and tokens come from the line scan of
:mod:`wynot.analysis.lexical`; in Python files whose two sides parse,
signatures, call shapes and scopes come from their ``ast``
(:mod:`wynot.analysis.python`), read once per file side
(:class:`FileAnalysis`).

Names stand for what the change does when Python runs it: in Python files,
names that are never evaluated (a local variable's annotation, annotations
under ``from __future__ import annotations``, string annotations) and code
under ``if TYPE_CHECKING:`` define, import and use nothing
(:mod:`wynot.analysis.runtime`); those names are kept apart as ``inert``,
still mentioned. A stub (``.pyi``) is never imported at run time: its
changes are marked ``stub``, and :mod:`wynot.analysis.depends` links them
to other stubs only.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, fields
from typing import Any

from wynot.analysis.calls import Call, Signature
from wynot.analysis.cfunctions import retyped
from wynot.analysis.compact import EMPTY, build, reduce
from wynot.analysis.lexical import (
    CODE_SUFFIXES,
    PYTHON_SUFFIXES,
    STAR_IMPORT,
    Changed,
    definitions,
    imports,
    lines_with,
    module_name,
    read_change,
    signatures,
    suffix,
    tokens,
)
from wynot.analysis.loadtime import in_spans
from wynot.analysis.python import (
    HunkNames,
    PythonSide,
    Scope,
    analyse_python,
    hunk_names,
    hunk_shapes,
    hunk_signatures,
    whole_file_inert,
)
from wynot.analysis.runtime import NOTHING_INERT, evaluated
from wynot.analysis.treesitter import Outline, file_language, outline
from wynot.changes import Change, ChangeKind, FileDiff


@dataclass(frozen=True, slots=True)
class Symbols:
    """What one change does to identifiers."""

    defined: frozenset[str]     # defined on the BAD side and not on the GOOD side
    undefined: frozenset[str]   # defined on the GOOD side and no longer on the BAD side
    used: frozenset[str]        # mentioned on the BAD side
    old: frozenset[str]         # mentioned on the GOOD side
    imported: frozenset[str] = frozenset()  # bound by a Python import on the BAD side only
    unimported: frozenset[str] = frozenset()  # bound by a Python import on the GOOD side only
    # (function, keyword) pairs: parameters a ``def`` line gains or loses, and
    # keyword arguments calls start or stop passing (Python signature changes).
    params_added: frozenset[tuple[str, str]] = frozenset()
    params_removed: frozenset[tuple[str, str]] = frozenset()
    keywords_added: frozenset[tuple[str, str]] = frozenset()
    keywords_removed: frozenset[tuple[str, str]] = frozenset()
    code: bool = True  # in a source file the definition patterns fit
    # Python functions whose signature the change alters (name, GOOD's, BAD's),
    # and the calls on its removed (GOOD) and added (BAD) lines.
    reshaped: frozenset[tuple[str, Signature, Signature]] = frozenset()
    calls_old: frozenset[Call] = frozenset()
    calls_new: frozenset[Call] = frozenset()
    # (scope, name): names a Python change newly binds in a scope that GOOD
    # already has, and the names it reads there, on its added lines; the names
    # it stops binding in a scope BAD still has, and those it reads on its
    # removed lines. A scope is a function (its locals: ``globs = {}``) or a
    # class, named ``class C`` (its attributes: ``self.config = config``).
    locals_bound: frozenset[tuple[str, str]] = frozenset()
    locals_read: frozenset[tuple[str, str]] = frozenset()
    locals_unbound: frozenset[tuple[str, str]] = frozenset()
    locals_read_old: frozenset[tuple[str, str]] = frozenset()
    # C and C++: (function, GOOD's signature, BAD's) of the prototypes and
    # definitions the change retypes (:mod:`wynot.analysis.cfunctions`).
    retyped: frozenset[tuple[str, str, str]] = frozenset()
    # Names on the change's lines that Python does not evaluate there, on either
    # side (left out of the sets above), and whether the file is a stub (.pyi).
    inert: frozenset[str] = frozenset()
    stub: bool = False
    # Languages linked at run time (JavaScript): the names of ``used`` (``old``)
    # that the change's added (removed) lines mention only inside function
    # bodies that loading the module does not run (:mod:`wynot.analysis.loadtime`).
    later: frozenset[str] = frozenset()
    later_old: frozenset[str] = frozenset()

    def __reduce__(self) -> tuple[Any, ...]:
        return reduce(self)

    def __post_init__(self) -> None:
        """Share what repeats across a large diff's changes: one empty set (each is
        216 bytes, and most of a change's sets are empty) and one copy of each
        identifier it mentions (a few thousand names among hundreds of
        thousands of mentions)."""
        for name in _SETS:
            if not getattr(self, name):
                object.__setattr__(self, name, _EMPTY)
        for name in ("used", "old", "inert"):
            if value := getattr(self, name):
                object.__setattr__(self, name, frozenset(map(sys.intern, value)))

    @property
    def signature_pairs(self) -> frozenset[tuple[str, str]]:
        """Every (function, keyword) pair whose use or definition this change alters."""
        return (self.params_added | self.params_removed
                | self.keywords_added | self.keywords_removed)

    @property
    def dropped(self) -> frozenset[str]:
        """Mentioned on the GOOD side and no longer on the BAD side."""
        return self.old - self.used

    @property
    def mentioned(self) -> frozenset[str]:
        return self.used | self.old | self.defined | self.undefined | self.inert


_EMPTY: frozenset[Any] = EMPTY
_SETS = tuple(f.name for f in fields(Symbols) if f.name not in ("code", "stub"))


@dataclass(frozen=True, slots=True)
class FileSymbols:
    """Which names of other files a file can see: for Python, what it imports."""

    index: int  # the file's index in the diff
    modules: frozenset[str]  # the names other files import it by (old and new path)
    python: bool
    imports_old: frozenset[str]  # names its GOOD side imports (module names for star imports)
    imports_new: frozenset[str]

    def sees(self, owner: FileSymbols, name: str, *, new: bool) -> bool:
        """Can a line of this file refer to ``name`` as defined in ``owner``?

        Within a file, and between files that are not both Python, always;
        between Python files, only through an import of the name or its module.
        """
        if owner.index == self.index or not (owner.python and self.python):
            return True
        visible = self.imports_new if new else self.imports_old
        return name in visible or not owner.modules.isdisjoint(visible)


def file_symbols(fd: FileDiff) -> FileSymbols:
    """The imports of both sides of a file."""
    path = fd.new_path or fd.old_path or ""

    def imported(side: bytes | None) -> frozenset[str]:
        lines = lines_with(side, "import") if side is not None else []
        stars = {m.group(1) for m in map(STAR_IMPORT.match, lines) if m}
        return frozenset(imports(lines) | stars)

    modules = {module_name(p) for p in (fd.old_path, fd.new_path) if p} - {""}
    return FileSymbols(
        index=fd.index, modules=frozenset(modules), python=suffix(path) in PYTHON_SUFFIXES,
        imports_old=imported(fd.old.data if fd.old is not None else None),
        imports_new=imported(fd.new.data if fd.new is not None else None))


@dataclass(frozen=True, slots=True)
class FileAnalysis:
    """What one file's two sides say, read once for all its changes.

    ``python_old``/``python_new``: the ``ast`` analysis of a Python file with
    hunks, when both sides parse. ``scopes``: GOOD's functions and classes
    (``ast`` for Python, tree-sitter for the languages it has), None where
    neither reads the file (the hunk headers then name the function).
    """

    index: int
    language: str | None  # tree-sitter language, see wynot.analysis.treesitter
    symbols: FileSymbols
    python_old: PythonSide | None = None
    python_new: PythonSide | None = None
    scopes: tuple[Scope, ...] | None = None
    # tree-sitter's reading of each side (not for Python): declarations by line
    outline_old: Outline | None = None
    outline_new: Outline | None = None


def analyse_file(fd: FileDiff) -> FileAnalysis:
    """Read each side of ``fd`` once (parse, walk) for everything the analysis needs."""
    language = file_language(fd)
    old = new = None
    hunks = [c.hunk for c in fd.changes if c.hunk is not None]
    if (suffix(fd.old_path or "") in PYTHON_SUFFIXES and fd.old is not None
            and fd.new is not None and hunks):
        # Each hunk's span, a line wider: a hunk that only adds names the line before.
        old = analyse_python(fd.old.data, [(h.old_start - 1, h.old_start + h.old_len + 1)
                                           for h in hunks])
        new = analyse_python(fd.new.data, [(h.new_start - 1, h.new_start + h.new_len + 1)
                                           for h in hunks]) if old is not None else None
    outline_old = outline_new = None
    if (language is not None and language != "python" and fd.old is not None
            and fd.new is not None and hunks):
        outline_old, outline_new = outline(language, fd.old.data), outline(language, fd.new.data)
    found = old.scopes if old is not None else outline_old.scopes if outline_old else None
    return FileAnalysis(index=fd.index, language=language, symbols=file_symbols(fd),
                        python_old=old, python_new=new, outline_old=outline_old,
                        outline_new=outline_new,
                        scopes=tuple(found) if found is not None else None)


def change_symbols(change: Change, fd: FileDiff, analysis: FileAnalysis | None = None,
                   read: tuple[list[str], list[str], Changed | None] | None = None) -> Symbols:
    """The symbols of one change, from its hunk lines or its whole file.

    ``analysis`` is ``fd``'s :func:`analyse_file`; without it the file is
    read again for this change alone. ``read``: the change's
    :func:`~wynot.analysis.lexical.read_change`, when the caller has it.
    """
    old_lines, new_lines, changed = read or read_change(change, fd)
    kind = suffix(fd.new_path or fd.old_path or change.path)
    if kind not in CODE_SUFFIXES:
        return Symbols(defined=frozenset(), undefined=frozenset(), used=frozenset(
            tokens(new_lines)), old=frozenset(tokens(old_lines)), code=False)
    if analysis is None:
        analysis = analyse_file(fd)
    mentioned = old_lines, new_lines
    if kind in PYTHON_SUFFIXES:
        old_lines, new_lines = _run_time(change, fd, analysis, mentioned, changed)
    old_defs, new_defs = definitions(old_lines), definitions(new_lines)
    if change.kind in (ChangeKind.ADD, ChangeKind.DELETE, ChangeKind.RENAME):
        module = module_name(change.path if change.kind is not ChangeKind.RENAME
                             else fd.old_path or "")
        target = module_name(fd.new_path or "")
        if change.kind is ChangeKind.ADD and module:
            new_defs.add(module)
        elif change.kind is ChangeKind.DELETE and module:
            old_defs.add(module)
        elif module and target and module != target:
            old_defs.add(module)
            new_defs.add(target)
    old_python, new_python = analysis.python_old, analysis.python_new
    if change.hunk is not None and old_python is not None and new_python is not None:
        old_params, new_params, old_keywords, new_keywords = hunk_signatures(
            change.hunk, old_python, new_python, changed)
        reshaped, calls_old, calls_new = hunk_shapes(change.hunk, old_python, new_python, changed)
        names = hunk_names(change.hunk, old_python, new_python, changed)
    else:
        old_params, old_keywords = signatures(old_lines)
        new_params, new_keywords = signatures(new_lines)
        reshaped, calls_old, calls_new, names = frozenset(), frozenset(), frozenset(), HunkNames()
    used, old = tokens(new_lines), tokens(old_lines)
    inert = _inert(mentioned, (old_lines, new_lines), used, old)
    imports_old, imports_new = imports(old_lines), imports(new_lines)
    return _symbols(
        new_defs - old_defs, old_defs - new_defs, used, old,
        imports_new - imports_old, imports_old - imports_new,
        new_params - old_params, old_params - new_params,
        new_keywords - old_keywords, old_keywords - new_keywords,
        True, reshaped, calls_old, calls_new,
        names.bound, names.read, names.unbound, names.read_old,
        _retyped(analysis, changed), inert, kind == ".pyi",
        _later(analysis.outline_new, new_lines, changed[1] if changed else None),
        _later(analysis.outline_old, old_lines, changed[0] if changed else None))


def _symbols(*values: Any) -> Symbols:
    """``Symbols(*values)`` (its fields in order, sets of any kind), as ``__init__``
    and ``__post_init__`` make it, without them: a large diff builds one per
    change."""
    return build(Symbols, values, _KINDS)


# By field: None if not a set, else whether its names are interned.
_KINDS = tuple(None if f.name in ("code", "stub") else f.name in ("used", "old", "inert")
               for f in fields(Symbols))


def _run_time(change: Change, fd: FileDiff, analysis: FileAnalysis,
              lines: tuple[list[str], list[str]],
              changed: Changed | None) -> tuple[list[str], list[str]]:
    """A Python change's (removed, added) lines as they run: code that never runs
    dropped, names that are not evaluated blanked (:mod:`wynot.analysis.runtime`)."""
    old_lines, new_lines = lines
    if changed is not None:
        removed, added = changed
        old_inert = analysis.python_old.inert if analysis.python_old else NOTHING_INERT
        new_inert = analysis.python_new.inert if analysis.python_new else NOTHING_INERT
        return (evaluated(old_lines, sorted(removed), old_inert),
                evaluated(new_lines, sorted(added), new_inert))
    whole = fd.new if change.kind is ChangeKind.ADD else \
        fd.old if change.kind is ChangeKind.DELETE else None
    inert = whole_file_inert(whole.data) if whole is not None else NOTHING_INERT
    numbers = range(1, max(len(old_lines), len(new_lines)) + 1)
    return evaluated(old_lines, numbers, inert), evaluated(new_lines, numbers, inert)


def _inert(mentioned: tuple[list[str], list[str]], run: tuple[list[str], list[str]],
           used: set[str], old: set[str]) -> set[str]:
    """The names the lines mention where they are never evaluated (``used``,
    ``old``: the tokens of the lines that run)."""
    if mentioned == run:
        return set()
    return (tokens(mentioned[0]) | tokens(mentioned[1])) - old - used


def _later(side: Outline | None, lines: list[str], numbers: set[int] | None) -> frozenset[str]:
    """The names ``lines`` (a hunk's removed or added lines, numbered ``numbers``)
    mention only inside function bodies that loading the module does not run."""
    if side is None or not side.deferred or numbers is None:
        return frozenset()
    now = [line for number, line in zip(sorted(numbers), lines, strict=True)
           if not in_spans(number, side.deferred)]
    if len(now) == len(lines):
        return frozenset()
    return frozenset(tokens(lines) - tokens(now))


def _retyped(analysis: FileAnalysis, changed: Changed | None) -> frozenset[tuple[str, str, str]]:
    """The C or C++ functions whose prototype or definition a hunk retypes."""
    old, new = analysis.outline_old, analysis.outline_new
    if changed is None or old is None or new is None:
        return frozenset()
    return retyped(old.functions, new.functions, *changed)
