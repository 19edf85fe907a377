"""wynot real-regression case: MarkupSafe 1.1.1 -> 2.0.0.

Changelog of 2.0.0: "``Markup.unescape`` uses :func:`html.unescape` to support
HTML5 character references." (#117)

``Markup("&NewLine;&bigstar;").unescape()`` keeps both references in 1.1.1
(they are not HTML 4 entities) and gives ``"\\n★"`` in 2.0.0.

Exit 0: old behaviour. Exit 1: new behaviour. Exit 125: cannot judge
(markupsafe does not import from this tree, an unexpected exception, or
other output).
"""

import os
import sys
import warnings

sys.dont_write_bytecode = True
warnings.simplefilter("ignore")
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")
sys.path.insert(0, SRC)


def unresolved(why):
    print(f"UNRESOLVED: {why}")
    sys.exit(125)


try:
    import markupsafe
except BaseException as exc:  # ImportError, SyntaxError, NameError, AttributeError...
    unresolved(f"import markupsafe failed: {type(exc).__name__}: {exc}")
if not os.path.abspath(markupsafe.__file__).startswith(os.path.join(SRC, "markupsafe") + os.sep):
    unresolved(f"markupsafe imported from {markupsafe.__file__}, not from {SRC}")

try:
    common = markupsafe.Markup("&lt;b&gt; &amp; &#39;").unescape()
    html5 = markupsafe.Markup("&NewLine;&bigstar;").unescape()
    escaped = str(markupsafe.escape("<a href='x'>"))
except BaseException as exc:
    unresolved(f"{type(exc).__name__}: {exc}")

if common != "<b> & '" or escaped != "&lt;a href=&#39;x&#39;&gt;":
    unresolved(f"unescape/escape gave {common!r}, {escaped!r}")
if html5 == "&NewLine;&bigstar;":
    print("PASS: HTML5 references are kept")
    sys.exit(0)
if html5 == "\n\u2605":
    print("FAIL: HTML5 references are unescaped")
    sys.exit(1)
unresolved(f"unescape of HTML5 references gave {html5!r}")
