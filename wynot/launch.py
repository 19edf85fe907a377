"""The console entry point: wynot's modules imported under an interrupt handler.

Importing the command line and what it pulls in (GitPython, click, rich)
takes a noticeable moment; a Ctrl-C meanwhile ends wynot with exit 130, as
it does later, not with a traceback. Nothing has been created by then.
"""

from __future__ import annotations

import sys

from wynot.errors import ExitCode


def main() -> None:
    """Import the command line, then run it (``wynot``, ``git-wynot``, ``python -m wynot``)."""
    try:
        from wynot.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("wynot: interrupted\n")
        sys.exit(ExitCode.INTERRUPTED)
    run()
