"""Identifiers that a change defines, removes and uses (lexical, language-light).

This is the lexical knowledge behind grouping and predicted outcomes: a hunk
that starts using ``parse_header`` needs the hunk that defines it; a hunk that
removes the definition of ``old_name`` needs every hunk that stops using it.
Definitions are recognised with a few patterns that fit Python and C-like
languages; everything else is a plain identifier token. Pure functions.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from wynot.analysis.calls import Call, Shapes, Signature, decorated, shapes
from wynot.changes import Change, ChangeKind, FileDiff, Hunk

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

_DEFINITIONS = [
    re.compile(r"^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)"),                # Python function
    re.compile(r"^\s*class\s+([A-Za-z_]\w*)"),                           # Python/C++ class
    re.compile(r"^([A-Za-z_]\w*)\s*(?::[^=]*)?=(?!=)"),                  # module-level name
    re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)"),                      # C macro
    re.compile(r"^\s*typedef\b.*?\b([A-Za-z_]\w*)\s*;"),                 # C typedef
    re.compile(r"^\s*(?:struct|union|enum)\s+([A-Za-z_]\w*)\s*\{"),      # C aggregate
    # C function definition or prototype at column 0: type words, then name(
    re.compile(r"^(?!(?:return|else|case|goto)\b)(?:[A-Za-z_]\w*[\s*]+)+([A-Za-z_]\w*)\s*\("),
]

# Words that never carry a dependency: keywords and builtins of Python and C.
_STOPWORD_TEXT = """
and as assert async await break class continue def del elif else except finally for from
global if import in is lambda nonlocal not or pass raise return try while with yield
None True False self cls print len str int float bool list dict set tuple range object
type super isinstance Exception ValueError TypeError KeyError
auto char const double extern float goto inline long register restrict short signed
sizeof static struct switch typedef union unsigned void volatile case default do enum
include define ifdef ifndef endif pragma NULL size_t uint8_t uint16_t uint32_t uint64_t
int8_t int16_t int32_t int64_t bool true false printf fprintf stderr stdout main argc argv
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())

# Files whose definitions the patterns above can read. Elsewhere (prose, data,
# languages they do not fit) a change defines nothing and needs nothing.
PYTHON_SUFFIXES = frozenset({".py", ".pyi", ".pyw"})
CODE_SUFFIXES = PYTHON_SUFFIXES | frozenset({
    ".pyx", ".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".m", ".mm",
    ".java", ".js", ".jsx", ".ts", ".tsx", ".go", ".rs", ".cs", ".kt", ".swift", ".scala",
})


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
        return self.used | self.old | self.defined | self.undefined


_SHORT_MODULE = re.compile(r"(?<![\w.])([A-Za-z_])(?:\.(?=[A-Za-z_])|\()")


def tokens(lines: Iterable[str]) -> set[str]:
    """Identifier tokens, without stopwords and one-letter names.

    A one-letter name whose attribute is read or that is called stays
    (``t.Optional``, ``_("text")``): it is usually a module alias or a
    function imported under a short name (``import typing as t``).
    """
    found: set[str] = set()
    for line in lines:
        found.update(t for t in IDENTIFIER.findall(line) if len(t) > 1 and t not in STOPWORDS)
        found.update(_SHORT_MODULE.findall(line))
    return found


_IMPORT = re.compile(r"^\s*(?:from\s+[\w.]+\s+)?import\s+\(?([\w.,\s]+?)\)?\s*(?:#.*)?$")
_IMPORTED = re.compile(r"([\w.]+)(?:\s+as\s+(\w+))?")


def imports(lines: Iterable[str]) -> set[str]:
    """Names that Python import lines bind (``import typing as t`` binds ``t``)."""
    found: set[str] = set()
    for line in lines:
        statement = _IMPORT.match(line)
        if statement:
            found.update(alias or name.split(".")[0]
                         for name, alias in _IMPORTED.findall(statement.group(1)))
    return found - STOPWORDS


MAX_ARGUMENTS = 2000
_CALL = re.compile(r"\b(def\s+)?([A-Za-z_]\w*)\s*\(")
_PARAM = re.compile(r"^\s*\**\s*([A-Za-z_]\w*)")
_KEYWORD = re.compile(r"^\s*([A-Za-z_]\w*)\s*=(?!=)")


def signatures(lines: Iterable[str]) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """(parameters of ``def`` lines, keyword arguments of calls) as (function, name) pairs.

    ``def f(a, keep=False)`` gives ("f", "a") and ("f", "keep");
    ``mod.f(x, keep=True)`` gives the keyword ("f", "keep"). A call or a
    definition may span lines; each side of a hunk is read as one text.
    """
    text = "\n".join(lines)
    params: set[tuple[str, str]] = set()
    keywords: set[tuple[str, str]] = set()
    for match in _CALL.finditer(text):
        name = match.group(2)
        if name in STOPWORDS and not match.group(1):
            continue
        for argument in _arguments(text, match.end()):
            if match.group(1):
                found = _PARAM.match(argument.split(":", 1)[0].split("=", 1)[0])
                if found and found.group(1) not in ("self", "cls"):
                    params.add((name, found.group(1)))
            else:
                keyword = _KEYWORD.match(argument)
                if keyword:
                    keywords.add((name, keyword.group(1)))
    return params, keywords


def _arguments(text: str, start: int) -> list[str]:
    """The top-level comma-separated pieces of the parenthesis opened at ``start - 1``.

    An argument list that does not close within MAX_ARGUMENTS characters is cut
    there (it continues outside the hunk).
    """
    depth, pieces, begin = 1, [], start
    for i in range(start, min(len(text), start + MAX_ARGUMENTS)):
        char = text[i]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                pieces.append(text[begin:i])
                return pieces
        elif char == "," and depth == 1:
            pieces.append(text[begin:i])
            begin = i + 1
    pieces.append(text[begin:start + MAX_ARGUMENTS])
    return pieces


def definitions(lines: Iterable[str]) -> set[str]:
    """Names the lines define (functions, classes, module-level names, macros, ...)."""
    found = set()
    for line in lines:
        for pattern in _DEFINITIONS:
            match = pattern.match(line)
            if match and match.group(1) not in STOPWORDS:
                found.add(match.group(1))
                break
    return found


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


_STAR_IMPORT = re.compile(r"^\s*from\s+[\w.]*?(\w+)\s+import\s+\*")


def file_symbols(fd: FileDiff) -> FileSymbols:
    """The imports of both sides of a file."""
    path = fd.new_path or fd.old_path or ""

    def imported(side: bytes | None) -> frozenset[str]:
        lines = _text(side).splitlines() if side is not None else []
        stars = {m.group(1) for m in map(_STAR_IMPORT.match, lines) if m}
        return frozenset(imports(lines) | stars)

    modules = {_module_name(p) for p in (fd.old_path, fd.new_path) if p} - {""}
    return FileSymbols(
        index=fd.index, modules=frozenset(modules), python=_suffix(path) in PYTHON_SUFFIXES,
        imports_old=imported(fd.old.data if fd.old is not None else None),
        imports_new=imported(fd.new.data if fd.new is not None else None))


def _suffix(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""


Pairs = set[tuple[str, str]]
@functools.lru_cache(maxsize=64)
def python_tree(data: bytes) -> ast.Module | None:
    """The syntax tree of a Python file, or None if it does not parse.

    Grouping (scopes) and symbols (signatures) read the same files hunk after
    hunk, so the last few trees are kept.
    """
    try:
        return ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # not Python, or too deep
        return None


@functools.lru_cache(maxsize=64)
def _python_signatures(data: bytes) -> tuple[dict[int, Pairs], dict[int, Pairs]] | None:
    """(parameters, keyword arguments) of a Python file, by the line they are on.

    Parameters are (function, parameter) and keyword arguments (called
    function, keyword), the function named by its last dotted part. None if
    the file does not parse.
    """
    tree = python_tree(data)
    if tree is None:
        return None
    params: dict[int, Pairs] = {}
    keywords: dict[int, Pairs] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            a = node.args
            for arg in (*a.posonlyargs, *a.args, a.vararg, *a.kwonlyargs, a.kwarg):
                if arg is not None and arg.arg not in ("self", "cls"):
                    params.setdefault(arg.lineno, set()).add((node.name, arg.arg))
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else None)
            for keyword in node.keywords:
                if name and keyword.arg:
                    keywords.setdefault(keyword.lineno, set()).add((name, keyword.arg))
    return params, keywords


@functools.lru_cache(maxsize=64)
def _python_shapes(data: bytes) -> Shapes | None:
    tree = python_tree(data)
    return None if tree is None else shapes(tree)


def _python_hunk(change: Change, fd: FileDiff) -> tuple[Hunk, bytes, bytes] | None:
    """(hunk, GOOD's file, BAD's file) for a hunk of a Python file present on both sides."""
    if (change.hunk is None or fd.old is None or fd.new is None
            or _suffix(fd.old_path or "") not in PYTHON_SUFFIXES):
        return None
    return change.hunk, fd.old.data, fd.new.data


def _hunk_shapes(change: Change, fd: FileDiff) -> tuple[
        frozenset[tuple[str, Signature, Signature]], frozenset[Call], frozenset[Call]]:
    """(functions reshaped, calls removed, calls added) by a hunk of a Python file."""
    sides = _python_hunk(change, fd)
    if sides is None:
        return frozenset(), frozenset(), frozenset()
    hunk, old_data, new_data = sides
    old, new = _python_shapes(old_data), _python_shapes(new_data)
    if old is None or new is None:
        return frozenset(), frozenset(), frozenset()
    removed, added = _changed_lines(hunk.text, hunk.old_start, hunk.new_start)
    # A signature the hunk edits on one side only (a parameter deleted) is
    # found on the other side within the hunk's lines, context included.
    old_span, new_span = _span(hunk.old_start, hunk.old_len), _span(hunk.new_start, hunk.new_len)
    edited_old, edited_new = old.signatures_on(removed), new.signatures_on(added)
    before = {**old.signatures_on(old_span), **edited_old}
    after = {**new.signatures_on(new_span), **edited_new}
    reshaped = frozenset((name, before[name], after[name]) for name in edited_old | edited_new
                         if name in before and name in after and before[name] != after[name])
    # Likewise a call whose argument lines the hunk only deletes or only adds.
    removed_calls, added_calls = old.calls_on(removed), new.calls_on(added)
    called = {c.function for c in removed_calls | added_calls}
    return (reshaped,
            removed_calls | {c for c in old.calls_on(old_span) if c.function in called},
            added_calls | {c for c in new.calls_on(new_span) if c.function in called})


@dataclass(frozen=True, slots=True)
class _Names:
    """What one walk of a Python file finds about names."""

    uses: dict[int, set[tuple[str, str, bool]]]  # by line: (scope, name, bound there)
    bound: dict[str, frozenset[str]]  # each scope's names


@functools.lru_cache(maxsize=64)
def _python_names(data: bytes) -> _Names | None:
    """The names of each function and class scope, and where they are used.

    Functions are named by their dotted path (``Parser.parse``); a nested
    function is a function of its own. A class is a scope too, named
    ``class Parser``: its names are what its body assigns, its methods, and
    the attributes its methods assign through their first parameter
    (``self.config = config``); ``self.config`` in a method is a use there.
    None if the file does not parse.
    """
    tree = python_tree(data)
    if tree is None:
        return None
    uses: dict[int, set[tuple[str, str, bool]]] = {}
    bound: dict[str, frozenset[str]] = {}
    members: dict[str, set[str]] = {}
    scopes = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda

    def visit(node: ast.AST, prefix: str, owner: str = "") -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                if owner:
                    members[owner].add(child.name)
                enter(child, f"{prefix}{child.name}", owner)
            elif isinstance(child, ast.ClassDef):
                key = f"class {prefix}{child.name}"
                members[key] = set()
                for statement in child.body:
                    targets = (statement.targets if isinstance(statement, ast.Assign) else
                               [statement.target] if isinstance(statement, ast.AnnAssign) else [])
                    for target in targets:
                        if isinstance(target, ast.Name):
                            members[key].add(target.id)
                            uses.setdefault(target.lineno, set()).add((key, target.id, True))
                visit(child, f"{prefix}{child.name}.", key)
                bound[key] = frozenset(members.pop(key))
            else:
                visit(child, prefix, owner)

    def enter(node: ast.FunctionDef | ast.AsyncFunctionDef, name: str, owner: str) -> None:
        names = set()
        for parameter in ast.walk(node.args):
            if isinstance(parameter, ast.arg):
                names.add(parameter.arg)
                uses.setdefault(parameter.lineno, set()).add((name, parameter.arg, True))
        first = (node.args.posonlyargs + node.args.args)[:1]
        me = first[0].arg if owner and first and not decorated(node, "staticmethod") else ""
        todo: list[ast.AST] = list(node.body)
        while todo:
            current = todo.pop()
            if isinstance(current, scopes):
                if isinstance(current, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(current.name)
                continue
            if isinstance(current, ast.Name):
                store = not isinstance(current.ctx, ast.Load)
                uses.setdefault(current.lineno, set()).add((name, current.id, store))
                if store:
                    names.add(current.id)
            elif (me and isinstance(current, ast.Attribute)
                  and isinstance(current.value, ast.Name) and current.value.id == me):
                store = not isinstance(current.ctx, ast.Load)
                uses.setdefault(current.lineno, set()).add((owner, current.attr, store))
                if store:
                    members[owner].add(current.attr)
            elif isinstance(current, ast.alias):
                names.add(current.asname or current.name.split(".")[0])
            elif isinstance(current, ast.ExceptHandler) and current.name:
                names.add(current.name)
            todo.extend(ast.iter_child_nodes(current))
        bound[name] = frozenset(names)
        visit(node, f"{name}.")

    visit(tree, "")
    return _Names(uses, bound)


LocalNames = frozenset[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class _HunkNames:
    """What a Python hunk does to the names of function and class scopes."""

    bound: LocalNames = frozenset()  # (scope, name) newly bound on added lines
    read: LocalNames = frozenset()  # (scope, name) read on added lines
    unbound: LocalNames = frozenset()  # no longer bound in the scope
    read_old: LocalNames = frozenset()  # read on removed lines


def _hunk_names(change: Change, fd: FileDiff) -> _HunkNames:
    """Names of function and class scopes on a Python hunk's changed lines.

    A name is *newly bound* when BAD's scope binds it and GOOD's, which
    exists, does not; *unbound* the other way round. A read belongs to the
    innermost enclosing function that binds the name (a nested function
    reads its parent's locals); ``self.name`` to the method's class.
    """
    sides = _python_hunk(change, fd)
    if sides is None:
        return _HunkNames()
    hunk, old_data, new_data = sides
    old, new = _python_names(old_data), _python_names(new_data)
    if old is None or new is None:
        return _HunkNames()
    removed, added = _changed_lines(hunk.text, hunk.old_start, hunk.new_start)

    def local(lines: set[int], here: _Names, there: _Names) -> tuple[LocalNames, LocalNames]:
        """(names bound here and not there, names read), for the scopes on ``lines``."""
        seen = [entry for n in lines for entry in here.uses.get(n, ())]
        reads = {(_owner(f, name, here.bound), name) for f, name, store in seen if not store}
        return (frozenset((f, name) for f, name, store in seen
                          if store and f in there.bound and name not in there.bound[f]),
                frozenset((f, name) for f, name in reads if f))

    bound, read = local(added, new, old)
    unbound, read_old = local(removed, old, new)
    return _HunkNames(bound=bound, read=read, unbound=unbound, read_old=read_old)


def _owner(function: str, name: str, bound: dict[str, frozenset[str]]) -> str:
    """The scope whose ``name`` a read in ``function`` refers to ('' if none of them).

    A function reads its own locals or an enclosing function's; a class
    scope's names (``self.config``) are its own, else inherited or unknown.
    """
    if function.startswith("class "):
        return function if name in bound.get(function, ()) else ""
    while function:
        if name in bound.get(function, ()):
            return function
        function = function.rpartition(".")[0]
    return ""


def _span(start: int, length: int) -> set[int]:
    return set(range(start, start + length))


def _changed_lines(hunk_text: str, old_start: int, new_start: int) -> tuple[set[int], set[int]]:
    """Line numbers of the removed lines (GOOD) and the added lines (BAD) of a hunk."""
    removed: set[int] = set()
    added: set[int] = set()
    old, new = old_start, new_start
    for line in hunk_text.split("\n")[1:]:
        if line.startswith("-"):
            removed.add(old)
            old += 1
        elif line.startswith("+"):
            added.add(new)
            new += 1
        elif line.startswith(" "):
            old += 1
            new += 1
    return removed, added


def _hunk_signatures(change: Change, fd: FileDiff, old_lines: list[str],
                     new_lines: list[str]) -> tuple[Pairs, Pairs, Pairs, Pairs]:
    """(old params, new params, old keywords, new keywords) on the changed lines.

    In Python files both sides are parsed, so a parameter or keyword on a line
    of its own in a long signature or call is still tied to its function.
    Elsewhere, or when a side does not parse, the changed lines are read alone.
    """
    hunk = change.hunk
    python = hunk is not None and _suffix(fd.old_path or "") in PYTHON_SUFFIXES
    old_parsed = _python_signatures(fd.old.data) if python and fd.old is not None else None
    new_parsed = _python_signatures(fd.new.data) if python and fd.new is not None else None
    if hunk is None or old_parsed is None or new_parsed is None:
        old_params, old_keywords = signatures(old_lines)
        new_params, new_keywords = signatures(new_lines)
        return old_params, new_params, old_keywords, new_keywords
    removed, added = _changed_lines(hunk.text, hunk.old_start, hunk.new_start)

    def on(lines: set[int], by_line: dict[int, Pairs]) -> Pairs:
        return {pair for n in lines for pair in by_line.get(n, ())}

    return (on(removed, old_parsed[0]), on(added, new_parsed[0]),
            on(removed, old_parsed[1]), on(added, new_parsed[1]))


def change_symbols(change: Change, fd: FileDiff) -> Symbols:
    """The symbols of one change, from its hunk lines or its whole file."""
    old_lines, new_lines = _sides(change, fd)
    if _suffix(fd.new_path or fd.old_path or change.path) not in CODE_SUFFIXES:
        return Symbols(defined=frozenset(), undefined=frozenset(), used=frozenset(
            tokens(new_lines)), old=frozenset(tokens(old_lines)), code=False)
    old_defs, new_defs = definitions(old_lines), definitions(new_lines)
    old_tokens, new_tokens = tokens(old_lines), tokens(new_lines)
    if change.kind in (ChangeKind.ADD, ChangeKind.DELETE, ChangeKind.RENAME):
        module = _module_name(change.path if change.kind is not ChangeKind.RENAME
                              else fd.old_path or "")
        target = _module_name(fd.new_path or "")
        if change.kind is ChangeKind.ADD and module:
            new_defs.add(module)
        elif change.kind is ChangeKind.DELETE and module:
            old_defs.add(module)
        elif module and target and module != target:
            old_defs.add(module)
            new_defs.add(target)
    old_params, new_params, old_keywords, new_keywords = _hunk_signatures(
        change, fd, old_lines, new_lines)
    reshaped, calls_old, calls_new = _hunk_shapes(change, fd)
    names = _hunk_names(change, fd)
    return Symbols(
        defined=frozenset(new_defs - old_defs),
        undefined=frozenset(old_defs - new_defs),
        used=frozenset(new_tokens),
        old=frozenset(old_tokens),
        imported=frozenset(imports(new_lines) - imports(old_lines)),
        unimported=frozenset(imports(old_lines) - imports(new_lines)),
        params_added=frozenset(new_params - old_params),
        params_removed=frozenset(old_params - new_params),
        keywords_added=frozenset(new_keywords - old_keywords),
        keywords_removed=frozenset(old_keywords - new_keywords),
        reshaped=reshaped,
        calls_old=calls_old,
        calls_new=calls_new,
        locals_bound=names.bound,
        locals_read=names.read,
        locals_unbound=names.unbound,
        locals_read_old=names.read_old,
    )


def _sides(change: Change, fd: FileDiff) -> tuple[list[str], list[str]]:
    """(removed lines, added lines) of a change, decoded for scanning."""
    if change.hunk is not None:
        old, new = [], []
        for line in change.hunk.text.split("\n")[1:]:
            if line.startswith("-"):
                old.append(line[1:])
            elif line.startswith("+"):
                new.append(line[1:])
        return old, new
    old_text = _text(fd.old.data) if fd.old is not None and change.kind is ChangeKind.DELETE else ""
    new_text = _text(fd.new.data) if fd.new is not None and change.kind is ChangeKind.ADD else ""
    return old_text.splitlines(), new_text.splitlines()


def _text(data: bytes) -> str:
    """Text to scan ('' for binary data)."""
    if b"\0" in data[:8000]:
        return ""
    return data.decode("utf-8", errors="replace")


def _module_name(path: str) -> str:
    """``pkg/net/http.py`` -> ``http``; ``src/parse.c`` -> ``parse``; '' if none."""
    name = path.rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0] if "." in name else name
    if stem == "__init__":
        parts = path.split("/")
        stem = parts[-2] if len(parts) > 1 else ""
    return stem if IDENTIFIER.fullmatch(stem) and stem not in STOPWORDS else ""
