"""wynot real-regression case: click 7.1.2 -> 8.0.0.

Changelog of 8.0.0: "When a long option name isn't valid, use ``difflib`` to
make better suggestions for possible corrections. :issue:`1446`"

A command with the option ``--count`` is given the misspelt ``--cuont``.
click 7.1.2 suggests only options that start with the misspelt name (none);
click 8.0.0 suggests close matches (``--count``).

Exit 0: old behaviour (no suggestion). Exit 1: new behaviour (``--count``
suggested). Exit 125: cannot judge (click does not import from this tree, an
unexpected exception, or other suggestions).
"""

import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")
sys.path.insert(0, SRC)


def unresolved(why):
    print(f"UNRESOLVED: {why}")
    sys.exit(125)


try:
    import click
except BaseException as exc:  # ImportError, SyntaxError, NameError, AttributeError...
    unresolved(f"import click failed: {type(exc).__name__}: {exc}")
if not os.path.abspath(click.__file__).startswith(SRC + os.sep):
    unresolved(f"click imported from {click.__file__}, not from {SRC}")

try:
    @click.command()
    @click.option("--count", type=int, default=1)
    @click.option("--verbose", is_flag=True)
    def cli(count, verbose):
        pass

    try:
        cli.main(args=["--cuont", "3"], prog_name="cli", standalone_mode=False)
    except click.NoSuchOption as exc:
        suggested = list(exc.possibilities or [])
    else:
        unresolved("--cuont was accepted")
except SystemExit as exc:
    unresolved(f"SystemExit({exc.code})")
except BaseException as exc:
    unresolved(f"{type(exc).__name__}: {exc}")

if suggested == []:
    print("PASS: no suggestion for --cuont (prefix matching)")
    sys.exit(0)
if suggested == ["--count"]:
    print("FAIL: --count suggested for --cuont (difflib close matches)")
    sys.exit(1)
unresolved(f"unexpected suggestions {suggested!r}")
