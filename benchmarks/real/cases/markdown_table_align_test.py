"""wynot real-regression case: Markdown 3.3.7 -> 3.4.

Release notes of 3.4, backwards-incompatible changes: "The `tables` extension
now uses a `style` attribute instead of an `align` attribute for alignment."

A table with a left-aligned and a right-aligned column: Markdown 3.3.7 writes
``align="left"``, Markdown 3.4 writes ``style="text-align: left;"``.

Exit 0: old behaviour (align attribute). Exit 1: new behaviour (style
attribute). Exit 125: cannot judge (markdown does not import from this tree, an
unexpected exception, or other output).
"""

import os
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = HERE
sys.path.insert(0, SRC)


def unresolved(why):
    print(f"UNRESOLVED: {why}")
    sys.exit(125)


try:
    import markdown
except BaseException as exc:  # ImportError, SyntaxError, NameError, AttributeError...
    unresolved(f"import markdown failed: {type(exc).__name__}: {exc}")
if not os.path.abspath(markdown.__file__).startswith(os.path.join(SRC, "markdown") + os.sep):
    unresolved(f"markdown imported from {markdown.__file__}, not from {SRC}")

SOURCE = "| a | b |\n|:--|--:|\n| 1 | 2 |\n"
try:
    html = markdown.markdown(SOURCE, extensions=["markdown.extensions.tables"])
except BaseException as exc:
    unresolved(f"{type(exc).__name__}: {exc}")

OLD = ('<th align="left">a</th>', '<th align="right">b</th>',
       '<td align="left">1</td>', '<td align="right">2</td>')
NEW = ('<th style="text-align: left;">a</th>', '<th style="text-align: right;">b</th>',
       '<td style="text-align: left;">1</td>', '<td style="text-align: right;">2</td>')
if all(cell in html for cell in OLD):
    print("PASS: table cells aligned with the align attribute")
    sys.exit(0)
if all(cell in html for cell in NEW):
    print("FAIL: table cells aligned with a style attribute")
    sys.exit(1)
unresolved(f"unexpected output {html!r}")
