"""Syntax of C, C++, Java, JavaScript, TypeScript, Go, Rust and Python, by tree-sitter.

Each language's grammar comes from its prebuilt wheel (``tree-sitter-c``, ...).
A grammar that is not installed, or a tree-sitter that cannot load it, makes
:func:`language_for` answer None for its files: the analysis then reads
those files with the line scan of :mod:`wynot.analysis.lexical` only.

What is read here, generically over the grammars' node types:

* *tokens* (:func:`tokens`): the named leaves whose type is an identifier of
  some kind (``identifier``, ``field_identifier``, ``type_identifier``...),
  and the words inside string literals; keywords, operators, numbers and
  comments are not tokens;
* *definitions*: the name of a declaration (the ``name`` field of its node,
  or the ``declarator`` of a C function or variable), and in JavaScript and
  TypeScript the member a function is assigned to or keyed by
  (``exports.parse = function``, ``Lexer.prototype.token = (src) => ...``,
  ``{ parse: function () {} }``): CommonJS modules and prototypes define
  their functions so;
* *outline* (:func:`outline`): the functions, methods and types of a file
  side with their line spans, for grouping by enclosing function, its
  declarations by line, and, in JavaScript, the function bodies that loading
  the module does not run (:mod:`wynot.analysis.loadtime`).

Pure: nothing here reads files or runs programs.
"""

from __future__ import annotations

import functools
import importlib
import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wynot.analysis.cfunctions import NO_FUNCTIONS, Functions, read_functions
from wynot.analysis.lexical import suffix
from wynot.analysis.loadtime import RUNTIME_LINKED, Span, deferred_spans

if TYPE_CHECKING:
    from wynot.changes import FileDiff

_EXTENSIONS = {
    "c": (".c", ".h"),
    "cpp": (".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".inl"),
    "java": (".java",),
    "javascript": (".js", ".jsx", ".mjs", ".cjs"),
    "typescript": (".ts", ".mts", ".cts"),
    "tsx": (".tsx",),
    "go": (".go",),
    "rust": (".rs",),
    "python": (".py", ".pyi", ".pyw"),
}
_BY_SUFFIX = {ext: language for language, exts in _EXTENSIONS.items() for ext in exts}
# (module, function) that gives each language's grammar.
_GRAMMARS = {
    "c": ("tree_sitter_c", "language"),
    "cpp": ("tree_sitter_cpp", "language"),
    "java": ("tree_sitter_java", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "python": ("tree_sitter_python", "language"),
}
# JavaScript's and TypeScript's function values (declared by the member or key they
# are given to; a scope when declared as a variable).
_FUNCTION_VALUE_TYPES = ("function_expression", "arrow_function", "generator_function")
_FUNCTION_VALUES = "[" + " ".join(f"({k})" for k in (*_FUNCTION_VALUE_TYPES, "class")) + "]"
# Node types that are scopes for grouping (named by their ``name`` field, a C
# function by its declarator, a JavaScript function value by the variable it is
# declared as).
_SCOPES = frozenset({
    "function_definition", "function_declaration", "method_declaration",
    "constructor_declaration", "class_declaration", "interface_declaration",
    "enum_declaration", "record_declaration", "method_definition",
    "generator_function_declaration", "class_specifier", "struct_specifier",
    "namespace_definition", "function_item", "impl_item", "trait_item", "mod_item",
    "struct_item", "enum_item", "class_definition",
    *_FUNCTION_VALUE_TYPES,
})
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MAX_SOURCE = 4_000_000  # bytes: larger sides are not parsed (generated code, data)

Tree = Any  # tree_sitter.Tree; the package has no stubs


def language_for(path: str) -> str | None:
    """The tree-sitter language of a file by its extension; None if none is installed."""
    language = _BY_SUFFIX.get(suffix(path))
    return language if language is not None and _grammar(language) is not None else None


# A C header (``.h``) that C++ code is written in, by constructs C does not have
# (as GitHub's linguist tells them apart): read with C's grammar, a class body
# parses as a function and its members as statements.
_CPP_HEADER = re.compile(
    rb"^[ \t]*(?:template[ \t]*<|(?:class|namespace)[ \t]+\w+[^;()\n]*$|"
    rb"(?:public|private|protected)[ \t]*:[ \t]*$|using[ \t]+namespace\b)"
    rb"|\bstd::\w", re.MULTILINE)
_HEADER_SNIFF = 200_000  # bytes of a header read for that


def file_language(fd: FileDiff) -> str | None:
    """The tree-sitter language of a file of the diff: by its extension, and for a
    ``.h`` file by what its sides hold (C++ when either is written in it)."""
    path = fd.new_path or fd.old_path or ""
    language = language_for(path)
    if language == "c" and suffix(path) == ".h" and any(
            state is not None and _written_in_cpp(state.data)
            for state in (fd.old, fd.new)) and _grammar("cpp") is not None:
        return "cpp"
    return language


@functools.lru_cache(maxsize=256)
def _written_in_cpp(data: bytes) -> bool:
    """Whether a header's text holds C++ (its start): asked once a side, though
    every hunk of the file asks (4 ms for 200 KB of C; a side's bytes keep their
    hash)."""
    return _CPP_HEADER.search(data[:_HEADER_SNIFF]) is not None


def parse(language: str, source: bytes) -> Tree | None:
    """The syntax tree of ``source`` (errors are recovered, not raised); None if the
    language has no grammar here or the source is too large."""
    grammar = _grammar(language)
    if grammar is None or len(source) > MAX_SOURCE:
        return None
    if language in ("c", "cpp"):
        source = _EXPORT_MACRO.sub(_blank, source)
    return grammar.parser.parse(source)


# ``class MYLIB_API Widget {`` and ``struct EXPORT point :``: a macro (an upper-case
# name, empty or an attribute once preprocessed) between the keyword and the
# name, which the grammars, knowing no macros, read as a function named Widget.
_EXPORT_MACRO = re.compile(
    rb"\b(?:class|struct|union)[ \t]+([A-Z][A-Z0-9_]*)[ \t]+"
    rb"(?=[A-Za-z_]\w*[ \t]*(?:final\b[ \t]*)?(?:\{|:(?!:)|\n[ \t]*[{:]))")


def _blank(match: re.Match[bytes]) -> bytes:
    """The match with its macro blanked out, byte for byte (offsets and lines stay)."""
    macro = match.group(1)
    return match.group(0).replace(macro, b" " * len(macro), 1)


@dataclass(frozen=True)
class _Grammar:
    parser: Any
    tokens: Any  # a tree_sitter.Query capturing identifier leaves and string contents
    strings: frozenset[str]  # node types of string contents
    scopes: Any  # a tree_sitter.Query capturing the nodes of _SCOPES
    definitions: Any  # a tree_sitter.Query capturing the names declarations introduce
    cursor: Callable[[Any], Any]
    language: Any  # the tree_sitter.Language, for other queries (:mod:`balance`)


@functools.cache
def _grammar(language: str) -> _Grammar | None:
    """The parser and token query of a language, or None if it cannot be loaded."""
    if language not in _GRAMMARS:
        return None
    module, function = _GRAMMARS[language]
    try:
        ts = importlib.import_module("tree_sitter")
        lang = ts.Language(getattr(importlib.import_module(module), function)())
    except (ImportError, AttributeError, ValueError, TypeError):
        return None
    kinds = {lang.node_kind_for_id(i) for i in range(lang.node_kind_count)
             if lang.node_kind_is_named(i) and lang.node_kind_is_visible(i)}
    names = {k for k in kinds if k.endswith("identifier")
             and not k.startswith(("scoped_", "qualified_", "nested_"))}
    strings = {k for k in kinds if ("string" in k and k.endswith(("_content", "_fragment")))
               or k == "system_lib_string"}
    pattern = "[" + " ".join(f"({k})" for k in sorted(names | strings)) + "] @token"
    scoping = "[" + " ".join(f"({k})" for k in sorted(_SCOPES & kinds)) + "] @scope"
    declaring = [p for p in _DEFINITION_PATTERNS if _compiles(ts, lang, p)]
    return _Grammar(parser=ts.Parser(lang), tokens=ts.Query(lang, pattern),
                    strings=frozenset(strings), scopes=ts.Query(lang, scoping),
                    definitions=ts.Query(lang, " ".join(declaring)), cursor=ts.QueryCursor,
                    language=lang)


def grammar_language(language: str) -> Any:
    """The tree_sitter.Language of a language, None if its grammar is not here."""
    grammar = _grammar(language)
    return None if grammar is None else grammar.language


# The name a declaration introduces: its ``name`` field in most grammars, the
# ``declarator`` of a C or C++ function, variable or typedef.
_DEFINITION_PATTERNS = (
    "(_ name: (_) @def) @declaration",
    "(function_declarator declarator: (_) @def) @declaration",
    "(init_declarator declarator: (_) @def) @declaration",
    "(type_definition declarator: (_) @def) @declaration",
    "(pointer_declarator declarator: (_) @def) @declaration",
    "(array_declarator declarator: (_) @def) @declaration",
    # A C or C++ variable or member declared without a value (``int count;``,
    # ``char *name;`` is the pointer's).
    "(declaration declarator: (identifier) @def) @declaration",
    "(field_declaration declarator: (field_identifier) @def) @declaration",
    # A function given to a member or an object key (JavaScript, TypeScript):
    # the member is what the function is called by.
    "(assignment_expression left: (member_expression property: (_) @def) "
    f"right: {_FUNCTION_VALUES}) @assigned",
    f"(pair key: (_) @def value: {_FUNCTION_VALUES}) @assigned",
)
# Nodes whose ``name`` field names something they use, not something they declare
# (a member assigned a function, ``@assigned``, is declared whatever its node).
_USES = ("invocation", "call", "access", "reference", "expression", "selector")
# Nodes that spell a path to a name declared elsewhere (``std::string``,
# ``fmt::Result``, ``strings.Builder``, ``ns.T``, ``vector<int>``): their name is
# declared only where the path is itself a declarator (C++'s ``void A::f()``,
# ``int A::n = 0;``) or what an import brings in (``use std::io::Read;``).
_PATHS = ("qualified", "scoped", "nested", "template_type")


def _compiles(ts: Any, lang: Any, pattern: str) -> bool:
    """Whether a query pattern fits the grammar (its node types and fields exist)."""
    try:
        ts.Query(lang, pattern)
    except Exception:  # tree_sitter.QueryError, or NameError-like errors of old releases
        return False
    return True


@dataclass(frozen=True, slots=True)
class Tokens:
    """The tokens of one text in order, and the names it declares."""

    sequence: tuple[str, ...]
    defined: frozenset[str]


def tokens(language: str, text: bytes, *, declarations: bool = True) -> Tokens:
    """The identifier tokens and string-literal words of ``text``, in order.

    ``text`` may be a fragment (a hunk's removed or added lines): the parser
    recovers from what the fragment cuts off. ``declarations``: whether to
    read the names the text declares too (else ``defined`` is empty).
    """
    if not text:  # nothing to parse: no token, no declaration
        return _NO_TOKENS
    if len(text) <= CACHED_TEXT:
        return _cached_tokens(language, text, declarations)
    return _tokens(language, text, declarations)


CACHED_TEXT = 4096  # bytes: a fragment up to this size is read once per process
TOKEN_CACHE = 1 << 14  # fragments whose tokens are kept (a few MiB)


def _tokens(language: str, text: bytes, declarations: bool) -> Tokens:
    grammar = _grammar(language)
    tree = parse(language, text)
    if grammar is None or tree is None:
        return _NO_TOKENS
    root = tree.root_node
    nodes = grammar.cursor(grammar.tokens).captures(root).get("token", [])
    sequence: list[str] = []
    strings = grammar.strings
    # ASCII text (most code) is decoded once and sliced by the nodes' byte offsets.
    ascii_text = text.decode("ascii") if text.isascii() else None
    for node in sorted(nodes, key=_START):
        if ascii_text is not None:
            word = ascii_text[node.start_byte:node.end_byte]
        else:
            word = text[node.start_byte:node.end_byte].decode("utf-8", errors="replace")
        if node.type in strings:
            sequence.extend(_WORD.findall(word))
        elif node.child_count == 0:
            sequence.append(word)
    if not declarations:
        return Tokens(tuple(sequence), frozenset())
    return Tokens(tuple(sequence), frozenset(name for _, name in _declared(grammar, root)))


_NO_TOKENS = Tokens((), frozenset())
_START = operator.attrgetter("start_byte")
# The same lines recur across a diff's hunks (an import added to many files, a
# call respelled everywhere, a repeated comment): their tokens are read once.
_cached_tokens = functools.lru_cache(maxsize=TOKEN_CACHE)(_tokens)


def _declared(grammar: _Grammar, root: Any) -> list[tuple[int, str]]:
    """(line, name) of every name a declaration under ``root`` introduces."""
    found: list[tuple[int, str]] = []
    for _, match in grammar.cursor(grammar.definitions).matches(root):
        (node,), declaration = match["def"], match.get("declaration")
        if (node.child_count == 0 and node.type.endswith("identifier")
                and not (declaration and any(word in declaration[0].type for word in _USES))
                and not (declaration and _is_path(declaration[0])
                         and not _declares(declaration[0]))):
            found.append((node.start_point[0] + 1, node.text.decode("utf-8", errors="replace")))
    return found


def _is_path(node: Any) -> bool:
    return any(word in node.type for word in _PATHS)


def _declares(path: Any) -> bool:
    """Whether the name a path node ends in is declared there: the path, up
    through the paths whose last part it is, is a declarator or an import. A
    path's qualifier (``std`` of ``std::io``, Rust's inner ``std::io`` of
    ``std::io::Read``) declares nothing."""
    top = path
    while (parent := top.parent) is not None and _is_path(parent):
        if parent.child_by_field_name("name") != top:
            return False
        top = parent
    if parent is None:
        return False
    if "import" in parent.type or parent.type.startswith("use_"):
        return True
    return bool(parent.child_by_field_name("declarator") == top)


Scope = tuple[int, int, str]  # (first line, last line, dotted name), 1-based


@dataclass(frozen=True, slots=True)
class Outline:
    """One side of a file: its scopes, outer before inner, and the names declared
    on each line."""

    scopes: tuple[Scope, ...]
    declared: dict[int, frozenset[str]]
    functions: Functions = NO_FUNCTIONS  # C and C++: prototypes and definitions
    # languages linked at run time: the lines inside function bodies that loading
    # the module does not run (:mod:`wynot.analysis.loadtime`)
    deferred: tuple[Span, ...] = ()


def outline(language: str, source: bytes) -> Outline | None:
    """Parse a whole file side once: functions, methods and types with their line
    spans, and declarations by line; None if not parsed."""
    grammar = _grammar(language)
    tree = parse(language, source)
    if grammar is None or tree is None:
        return None
    nodes = grammar.cursor(grammar.scopes).captures(tree.root_node).get("scope", [])
    found: list[Scope] = []
    open_scopes: list[tuple[int, str]] = []  # (end byte, dotted name) of enclosing scopes
    for node in sorted(nodes, key=lambda n: (n.start_byte, -n.end_byte)):
        while open_scopes and open_scopes[-1][0] <= node.start_byte:
            open_scopes.pop()
        name = _scope_name(node)
        if not name:
            continue
        dotted = f"{open_scopes[-1][1]}.{name}" if open_scopes else name
        found.append((node.start_point[0] + 1, node.end_point[0] + 1, dotted))
        open_scopes.append((node.end_byte, dotted))
    declared: dict[int, set[str]] = {}
    for line, name in _declared(grammar, tree.root_node):
        declared.setdefault(line, set()).add(name)
    functions = NO_FUNCTIONS
    if language in FUNCTION_LANGUAGES:
        captured = grammar.cursor(_functions_query(language)).captures(tree.root_node)
        functions = read_functions(captured.get("function", []))
    deferred = deferred_spans(tree) if language in RUNTIME_LINKED else ()
    return Outline(tuple(found), {line: frozenset(names) for line, names in declared.items()},
                   functions, deferred)


FUNCTION_LANGUAGES = ("c", "cpp")  # whose function signatures :mod:`cfunctions` reads


@functools.cache
def _functions_query(language: str) -> Any:
    """A query for the function declarators of a C-like grammar."""
    ts = importlib.import_module("tree_sitter")
    module, function = _GRAMMARS[language]
    lang = ts.Language(getattr(importlib.import_module(module), function)())
    return ts.Query(lang, "(function_declarator) @function")


def _declared_as(value: Any) -> Any:
    """The variable a function value is declared as (``const parse = (s) => ...``),
    or None. A function assigned to a member or given under a key is not a
    scope for grouping (measured: marked 15 -> 33 tests; docs/performance.md)."""
    parent = value.parent
    if (parent is not None and parent.type == "variable_declarator"
            and parent.child_by_field_name("value") == value):
        return parent.child_by_field_name("name")
    return None


def _scope_name(node: Any) -> str:
    """The name of a function, type or impl block ('' if it has none)."""
    named = node.child_by_field_name("name")
    if named is None and node.type == "impl_item":  # Rust: impl Parser { ... }
        named = node.child_by_field_name("type")
    if named is None and node.type in _FUNCTION_VALUE_TYPES:  # none when passed as an argument
        named = _declared_as(node)
    declarator = node.child_by_field_name("declarator")
    while named is None and declarator is not None:  # C: int *f(void) -> f
        inner = declarator.child_by_field_name("declarator")
        if inner is None:
            named = declarator
        declarator = inner
    return named.text.decode("utf-8", errors="replace") if named is not None else ""
