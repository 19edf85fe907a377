"""Syntax trees for C-family sources, from tree-sitter's prebuilt grammars.

:func:`language_for` names the grammar a path is written in; :func:`parse`
parses source bytes with it. A grammar that is not installed gives None, so
callers fall back to what they can do without a tree. Pure.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

_SUFFIXES = {
    ".c": "c", ".h": "c",
    ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp",
}
_MODULES = {"c": "tree_sitter_c", "cpp": "tree_sitter_cpp"}

Tree = Any  # tree_sitter.Tree; the bindings ship no type information


def language_for(path: str) -> str | None:
    """The grammar for ``path`` by its suffix ("c", "cpp"), or None."""
    name = path.rsplit("/", 1)[-1]
    suffix = "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return _SUFFIXES.get(suffix)


@functools.lru_cache(maxsize=8)
def _parser(language: str) -> Any:
    try:
        import tree_sitter
        grammar = importlib.import_module(_MODULES[language])
    except (ImportError, KeyError):
        return None
    return tree_sitter.Parser(tree_sitter.Language(grammar.language()))


def parse(language: str, source: bytes) -> Tree | None:
    """The syntax tree of ``source``, or None when the grammar is not installed."""
    parser = _parser(language)
    return parser.parse(source) if parser is not None else None
