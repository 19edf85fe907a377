"""wynot real-regression case: Markdown 3.3.7 -> 3.4.

Release notes of 3.4, bug fixes: "Extension entry-points are only loaded if
needed (#1216)."

``importlib.metadata.entry_points`` is replaced by a counter (that finds no
entry points) before ``import markdown``. Markdown 3.3.7 reads the
``markdown.extensions`` entry points while it is imported; Markdown 3.4 reads
them only when an extension is loaded by name. The test then loads the tables
extension by its dotted name and checks it works.

Exit 0: old behaviour (entry points read at import). Exit 1: new behaviour
(not read at import, read when an extension is loaded). Exit 125: cannot judge
(markdown does not import from this tree, the extension does not work, an
unexpected exception, or another pattern of calls).
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


import importlib.metadata  # noqa: E402

calls = []


def counting_entry_points(**params):
    calls.append(params)
    return []


importlib.metadata.entry_points = counting_entry_points

try:
    import markdown
except BaseException as exc:  # ImportError, SyntaxError, NameError, AttributeError...
    unresolved(f"import markdown failed: {type(exc).__name__}: {exc}")
if not os.path.abspath(markdown.__file__).startswith(os.path.join(SRC, "markdown") + os.sep):
    unresolved(f"markdown imported from {markdown.__file__}, not from {SRC}")
at_import = len(calls)

try:
    html = markdown.markdown("| a | b |\n|---|---|\n| 1 | 2 |\n",
                             extensions=["markdown.extensions.tables"])
except BaseException as exc:
    unresolved(f"{type(exc).__name__}: {exc}")
if "<table>" not in html:
    unresolved(f"the tables extension did not work: {html!r}")
later = len(calls) - at_import
groups = {c.get("group") for c in calls}
if groups - {"markdown.extensions"}:
    unresolved(f"unexpected entry point groups {groups}")

if at_import == 1:
    print(f"PASS: entry points read while importing markdown ({at_import} call)")
    sys.exit(0)
if at_import == 0 and later >= 1:
    print(f"FAIL: entry points not read while importing, read when needed ({later} call)")
    sys.exit(1)
unresolved(f"unexpected calls: {at_import} at import, {later} later")
