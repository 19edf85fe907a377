"""The manual pages ``wynot(1)`` and ``git-wynot(1)``, rendered from ``wynot --help``.

``git wynot --help`` makes git run ``man git-wynot``, so the package installs
both pages into ``share/man/man1`` (man finds them next to the ``bin`` directory
on PATH). Regenerate them after changing an option::

    python -m wynot.manpage docs/man
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from wynot import __version__
from wynot.cli import wynot

PAGES = ("wynot", "git-wynot")
_SUMMARY = "find the changes between two commits that make a test fail"


def render(name: str) -> str:
    """The roff source of the page ``name`` (one of PAGES)."""
    ctx = click.Context(wynot, info_name="wynot", terminal_width=72, max_content_width=72)
    help_text = wynot.get_help(ctx)
    body = "\n".join(_roff_line(line) for line in help_text.splitlines())
    command = name.replace("-", " ")
    return (f'.TH {name.upper()} 1 "" "wynot {__version__}" "wynot manual"\n'
            f".SH NAME\n{_roff_line(name)} \\- {_SUMMARY}\n"
            f".SH SYNOPSIS\n.B {command}\n[OPTIONS] GOOD BAD \\-\\- COMMAND [ARGS]...\n"
            f".SH DESCRIPTION\n.nf\n{body}\n.fi\n"
            ".SH SEE ALSO\ngit-bisect(1); docs/usage.md and docs/algorithm.md in wynot's "
            "source tree\n")


def _roff_line(line: str) -> str:
    """One line of text, safe for roff: backslashes escaped, no leading control dot."""
    line = line.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + line if line.startswith((".", "'")) else line


def main(argv: list[str]) -> None:
    """Write every page into the directory ``argv[0]``."""
    target = Path(argv[0])
    target.mkdir(parents=True, exist_ok=True)
    for name in PAGES:
        (target / f"{name}.1").write_text(render(name), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
