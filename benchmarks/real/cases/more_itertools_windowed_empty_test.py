"""wynot real-regression case: more-itertools 8.14.0 -> 9.0.0.

Version history of 9.0.0, potentially breaking changes: ":func:`windowed` now
yields nothing when its iterable is empty."

``list(windowed([], 3))`` is ``[(None, None, None)]`` in 8.14.0 and ``[]`` in
9.0.0.

Exit 0: old behaviour. Exit 1: new behaviour. Exit 125: cannot judge
(more_itertools does not import from this tree, an unexpected exception, or
other output).
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
    import more_itertools
except BaseException as exc:  # ImportError, SyntaxError, NameError, AttributeError...
    unresolved(f"import more_itertools failed: {type(exc).__name__}: {exc}")
if not os.path.abspath(more_itertools.__file__).startswith(
        os.path.join(SRC, "more_itertools") + os.sep):
    unresolved(f"more_itertools imported from {more_itertools.__file__}, not from {SRC}")

try:
    empty = list(more_itertools.windowed([], 3))
    full = list(more_itertools.windowed([1, 2, 3, 4], 3))
except BaseException as exc:
    unresolved(f"{type(exc).__name__}: {exc}")

if full != [(1, 2, 3), (2, 3, 4)]:
    unresolved(f"windowed([1, 2, 3, 4], 3) gave {full!r}")
if empty == [(None, None, None)]:
    print("PASS: windowed([], 3) yields one window of fill values")
    sys.exit(0)
if empty == []:
    print("FAIL: windowed([], 3) yields nothing")
    sys.exit(1)
unresolved(f"windowed([], 3) gave {empty!r}")
