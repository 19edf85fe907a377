"""wynot real-regression case: Werkzeug 1.0.1 -> 2.0.0.

Changelog of 2.0.0: "Passing an empty list as a query string parameter to
``build()`` won't append an unnecessary ``?``. Also drop any number of
``None`` items in a list." (#1992)

``MapAdapter.build("x", {"q": []})`` is ``"/x?"`` in 1.0.1 and ``"/x"`` in
2.0.0.

Exit 0: old behaviour. Exit 1: new behaviour. Exit 125: cannot judge
(werkzeug does not import from this tree, an unexpected exception, or
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
    import werkzeug
    from werkzeug.routing import Map, Rule
except BaseException as exc:  # ImportError, SyntaxError, NameError, AttributeError...
    unresolved(f"import werkzeug.routing failed: {type(exc).__name__}: {exc}")
if not os.path.abspath(werkzeug.__file__).startswith(os.path.join(SRC, "werkzeug") + os.sep):
    unresolved(f"werkzeug imported from {werkzeug.__file__}, not from {SRC}")

try:
    adapter = Map([Rule("/x", endpoint="x"), Rule("/y/<int:n>", endpoint="y")]).bind(
        "example.org")
    plain = adapter.build("y", {"n": 3, "q": "a b"})
    empty = adapter.build("x", {"q": []})
except BaseException as exc:
    unresolved(f"{type(exc).__name__}: {exc}")

if plain != "/y/3?q=a+b":
    unresolved(f"build('y', n=3, q='a b') gave {plain!r}")
if empty == "/x?":
    print("PASS: an empty list leaves a '?'")
    sys.exit(0)
if empty == "/x":
    print("FAIL: an empty list leaves no '?'")
    sys.exit(1)
unresolved(f"build('x', q=[]) gave {empty!r}")
