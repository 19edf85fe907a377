"""The analysis of a whole diff as one value, computed once (pure).

:func:`analyse` reads every file side once (:func:`~wynot.analysis.symbols.
analyse_file`), then every change: its symbols (line scan and Python
``ast``), its enclosing function or class, and its token change (tree-sitter
tokens of its two sides, or a Pygments lexer's where tree-sitter has no
grammar: :mod:`wynot.analysis.lexers`). From the token changes it finds the clusters by
change (:mod:`wynot.analysis.clusters`). :class:`Analysis` holds no syntax
tree, so it can be kept between runs (pickled) and handed to the search
plan, the oracle and resolution.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from wynot.analysis import balance
from wynot.analysis.clusters import Cluster, find_clusters, word_counts
from wynot.analysis.depends import Dependencies, derive
from wynot.analysis.lexers import lexed_tokens, lexer_for
from wynot.analysis.lexical import (
    NO_TOKEN_CHANGE,
    Changed,
    TokenChange,
    is_binary,
    leading_context,
    module_name,
    read_change,
    token_change,
)
from wynot.analysis.symbols import (
    FileAnalysis,
    FileSymbols,
    Symbols,
    analyse_file,
    change_symbols,
)
from wynot.analysis.treesitter import Outline, Tokens, file_language, tokens
from wynot.changes import Change, ChangeKind, Diff, FileDiff


@dataclass(frozen=True)
class Analysis:
    """What the diff says about its changes, by change id."""

    # by file index; without the readings of its sides (parsed once, dropped once
    # the file's changes are read: they would hold every side of the diff at once)
    files: tuple[FileAnalysis, ...]
    symbols: Mapping[int, Symbols]
    enclosing: Mapping[int, str]  # the function or class a hunk sits in ('' if none)
    tokens: Mapping[int, TokenChange]
    clusters: tuple[Cluster, ...]
    needs: tuple[tuple[int, int, str], ...]  # (a, b, why): a needs b, read from token changes
    file_of: Mapping[int, int]  # change id -> file index
    # (remover, adder, why) of each definition moved (:attr:`~wynot.analysis.clusters.Links.moves`)
    moves: tuple[tuple[int, int, str], ...] = ()
    # hunks of one file that shift its delimiters and match (:mod:`balance`): each
    # needs the other
    balanced: tuple[tuple[int, int], ...] = ()

    def file_symbols(self) -> dict[int, FileSymbols]:
        """Each change's file's imports, for :func:`~wynot.analysis.depends.derive`."""
        return {cid: self.files[index].symbols for cid, index in self.file_of.items()}

    def scopes(self) -> dict[int, str]:
        """Each change's file and enclosing function (``3:Parser.parse``; '' if none)."""
        return {cid: f"{self.file_of[cid]}:{name}" if name else ""
                for cid, name in self.enclosing.items()}

    def dependencies(self) -> Dependencies:
        """The derived dependencies with each cluster tied into one unit and the
        change that removes a moved definition tied to the one that adds it; the needs
        of new and removed names ride along as hints for resolution (as
        predicted dependencies they cost cJSON 1.7.12 -> 1.7.13 seven runs,
        docs/performance.md)."""
        deps = derive(self.symbols, self.file_symbols())
        deps.hints.extend(self.needs)
        for a, b in self.balanced:  # certain: either alone leaves the file unbalanced
            deps.add(a, b)
            deps.add(b, a)
        for cluster in self.clusters:
            deps.add_cluster(cluster)
        for remover, adder, _ in self.moves:
            deps.tie(remover, adder)
        return deps


@dataclass(frozen=True)
class FileReadings:
    """What the files of a diff (or some of them) say: each file's analysis and each
    of their changes' symbols, enclosing scope and token change."""

    files: dict[int, FileAnalysis]  # by file index
    symbols: dict[int, Symbols]
    enclosing: dict[int, str]
    tokens: dict[int, TokenChange]  # the changes of files tree-sitter or a lexer reads
    balanced: list[tuple[int, int]] = field(default_factory=list)  # :mod:`balance`

    def update(self, other: FileReadings) -> None:
        """Add another part's readings to these."""
        self.files.update(other.files)
        self.symbols.update(other.symbols)
        self.enclosing.update(other.enclosing)
        self.tokens.update(other.tokens)
        self.balanced.extend(other.balanced)


def read_files(files: Sequence[FileDiff] | Mapping[int, FileDiff],
               indexes: Iterable[int]) -> FileReadings:
    """Read ``files`` (a diff's, by index) at ``indexes``: each side parsed once, then
    each change.

    A file's side readings are dropped once its changes are read (the
    returned :class:`FileAnalysis` keeps its imports and scopes): kept, they
    would hold every side of the diff at once. The files are independent:
    parts may be read in separate processes.
    """
    found = FileReadings({}, {}, {}, {})
    for index in indexes:
        fd = files[index]
        fa = analyse_file(fd)
        lexer = _lexer_of(fd) if fa.language is None else None
        hunks: list[balance.Hunk] = []  # for pairing, once a hunk may be unbalanced
        shifted = False
        for change in fd.changes:
            read = read_change(change, fd)
            if fa.language in balance.BRACED and read[2] is not None:
                hunks.append((change.id, *read[2]))
                shifted = shifted or balance.maybe_unbalanced(fa.language, read[0], read[1])
            found.symbols[change.id] = change_symbols(change, fd, fa, read)
            found.enclosing[change.id] = enclosing_scope(change, fa)
            if fa.language is not None:
                found.tokens[change.id] = _token_change(change, fd, fa,
                                                        found.symbols[change.id], read)
            elif lexer is not None:
                found.tokens[change.id] = _lexed_change(change, fd, lexer, read)
        if shifted and len(hunks) > 1 and fa.language is not None:
            found.balanced.extend(_balanced(fd, fa.language, hunks))
        found.files[index] = FileAnalysis(fa.index, fa.language, fa.symbols, scopes=fa.scopes)
    return found


def _balanced(fd: FileDiff, language: str,
              hunks: Sequence[balance.Hunk]) -> list[tuple[int, int]]:
    """The pairs of ``fd``'s hunks that shift its delimiters and match
    (:func:`balance.paired`), from both sides' syntax trees."""
    if fd.old is None or fd.new is None:
        return []
    return balance.paired(hunks, balance.delimiters(language, fd.old.data),
                          balance.delimiters(language, fd.new.data))


def analyse(diff: Diff, readings: FileReadings | None = None,
            words: Mapping[str, Counter[bytes]] | None = None) -> Analysis:
    """Analyse every file and change of ``diff`` (each file side parsed once).

    ``readings``: :func:`read_files` of every file, when the caller read them
    (in parallel); else they are read here. ``words``: :func:`side_words` by
    side (``"old"``, ``"new"``), those the caller counted (while workers read
    the files); the others are counted here if the clusters ask.
    """
    if readings is None:
        readings = read_files(diff.files, range(len(diff.files)))
    files = [readings.files[fd.index] for fd in diff.files]
    symbols = {c.id: readings.symbols[c.id] for c in diff.changes}  # in the diff's order
    enclosing = {c.id: readings.enclosing[c.id] for c in diff.changes}
    changed = {c.id: readings.tokens[c.id] for c in diff.changes if c.id in readings.tokens}

    def counts(side: str) -> Callable[[Iterable[str]], dict[str, int]]:
        """How often words occur on one side of the code files (counted once, lazily)."""
        counted: list[Counter[bytes]] = [words[side]] if words and side in words else []

        def count(asked: Iterable[str]) -> dict[str, int]:
            wanted = list(asked)
            if wanted and not counted:
                counted.append(side_words(diff, side))
            return {w: counted[0][w.encode()] for w in wanted if counted and w.encode() in
                    counted[0]}
        return count

    modules: dict[str, tuple[str, ...]] = {}  # by path: a file's many hunks share one
    places = {c.id: (c.file, modules.get(c.path) or modules.setdefault(c.path,
                                                                       _module_path(c.path)))
              for c in diff.changes}
    python = {c.id for c in diff.changes if files[c.file].language == "python"}
    texts = {c.id: c.hunk.text for c in diff.changes if c.hunk is not None}
    links = find_clusters(changed, places, counts("old"), counts("new"), python, texts)
    return Analysis(files=tuple(files), symbols=symbols, enclosing=enclosing,
                    tokens={c.id: changed.get(c.id, NO_TOKEN_CHANGE) for c in diff.changes},
                    clusters=links.clusters, needs=links.needs, moves=links.moves,
                    file_of={c.id: c.file for c in diff.changes},
                    balanced=tuple(sorted(readings.balanced)))


def side_words(diff: Diff, side: str) -> Counter[bytes]:
    """How often each word occurs on one side (``"old"`` or ``"new"``) of the files
    whose tokens are read (by tree-sitter or a lexer): the rarity of names, for
    the clusters."""
    states = (getattr(fd, side) for fd in diff.files
              if file_language(fd) is not None
              or _lexer_of(fd) is not None)
    return word_counts(s.data for s in states if s is not None)


def enclosing_scope(change: Change, fa: FileAnalysis) -> str:
    """The function or class a hunk sits in, or '' for whole-file changes.

    From the file's syntax where it was read (Python's ``ast``, tree-sitter),
    else, and for a hunk outside every scope tree-sitter found, from git's
    hunk header.
    """
    if change.hunk is None:
        return ""
    if fa.scopes is None:
        return change.hunk.header.strip()
    first_changed = change.hunk.old_start + leading_context(change.hunk.text)
    inside = [name for start, end, name in fa.scopes if start <= first_changed <= end]
    if inside:
        return inside[-1]
    # Outside every scope tree-sitter saw (between functions, or in code it
    # could not read: C functions declared through macros), git's header.
    return "" if fa.python_old is not None else change.hunk.header.strip()


def _token_change(change: Change, fd: FileDiff, fa: FileAnalysis, sym: Symbols,
                  read: tuple[list[str], list[str], Changed | None]) -> TokenChange:
    """The tokens a change removes and adds, read by the file's tree-sitter grammar.

    Declarations on a hunk's lines come from the whole side's syntax (a
    hunk's lines alone may cut a function's header from its body), from the
    line scan in Python files; from the fragments' own syntax only where
    neither is there.
    """
    assert fa.language is not None
    removed, added, changed = read
    if change.hunk is not None and changed is not None:
        python = fa.language == "python"
        outlined = fa.outline_old is not None and fa.outline_new is not None
        declarations = not (python or outlined)  # else read from the whole sides
        old = tokens(fa.language, "\n".join(removed).encode(), declarations=declarations)
        new = tokens(fa.language, "\n".join(added).encode(), declarations=declarations)
        old_defined, new_defined = old.defined, new.defined
        if python:
            old_defined, new_defined = sym.undefined, sym.defined
        elif fa.outline_old is not None and fa.outline_new is not None:
            old_defined = _declared_on(fa.outline_old, changed[0])
            new_defined = _declared_on(fa.outline_new, changed[1])
        return token_change(old.sequence, new.sequence, old_defined=old_defined,
                            new_defined=new_defined)
    language = fa.language
    return _whole_file_change(change, fd, lambda text: tokens(language, text))


def _lexed_change(change: Change, fd: FileDiff, lexer: str,
                  read: tuple[list[str], list[str], Changed | None]) -> TokenChange:
    """The tokens a change removes and adds, read by the Pygments lexer ``lexer`` (a
    file tree-sitter has no grammar for), declarations from the same lines."""
    removed, added, changed = read
    if change.hunk is not None and changed is not None:
        old = lexed_tokens(lexer, "\n".join(removed).encode())
        new = lexed_tokens(lexer, "\n".join(added).encode())
        return token_change(old.sequence, new.sequence, old_defined=old.defined,
                            new_defined=new.defined)
    return _whole_file_change(change, fd, lambda text: lexed_tokens(lexer, text))


def _whole_file_change(change: Change, fd: FileDiff,
                       lex: Callable[[bytes], Tokens]) -> TokenChange:
    """The token change of a file added or deleted whole (none for other changes
    without a hunk: a mode, a rename alone)."""
    if change.kind is ChangeKind.ADD and fd.new is not None:
        old, new = lex(b""), lex(fd.new.data)
    elif change.kind is ChangeKind.DELETE and fd.old is not None:
        old, new = lex(fd.old.data), lex(b"")
    else:
        return NO_TOKEN_CHANGE
    return token_change(old.sequence, new.sequence, old_defined=old.defined,
                        new_defined=new.defined)


def _lexer_of(fd: FileDiff) -> str | None:
    """The Pygments lexer of a file tree-sitter has no grammar for, chosen by its
    name and first bytes; None for prose, binary data or no lexer."""
    side = fd.new if fd.new is not None else fd.old
    if side is None or is_binary(side.data):
        return None
    return lexer_for(fd.new_path or fd.old_path or "", side.data)


def _module_path(path: str) -> tuple[str, ...]:
    """``pkg/d1/m3.py`` -> (pkg, d1, m3); a package's ``__init__`` by its directory."""
    *dirs, name = path.split("/")
    if name.startswith("__init__."):
        return tuple(dirs)
    return (*dirs, module_name(path) or name)


def _declared_on(side: Outline, lines: set[int]) -> frozenset[str]:
    return frozenset(name for n in lines for name in side.declared.get(n, ()))
