"""wynot real-regression case: attrs 21.4.0 -> 22.1.0.

Changelog of 22.1.0: "If an ``eq`` key is defined, it is also used before
hashing the attribute." (#909)

A hashable class whose attribute compares case-insensitively
(``attr.ib(eq=str.lower)``): in 21.4.0 ``C("A")`` and ``C("a")`` are equal but
hash differently; in 22.1.0 the key is applied before hashing too, so their
hashes are equal.

Exit 0: old behaviour (hashes differ). Exit 1: new behaviour (hashes equal).
Exit 125: cannot judge (attrs does not import from this tree, an unexpected
exception, or an outcome that is neither).
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
    import attr
except BaseException as exc:  # ImportError, SyntaxError, NameError, AttributeError...
    unresolved(f"import attr failed: {type(exc).__name__}: {exc}")
if not os.path.abspath(attr.__file__).startswith(SRC + os.sep):
    unresolved(f"attr imported from {attr.__file__}, not from {SRC}")

try:
    @attr.s(hash=True)
    class C:
        x = attr.ib(eq=str.lower)

    equal = C("Ab") == C("aB")
    same_hash = hash(C("Ab")) == hash(C("aB"))
    stable = hash(C("Ab")) == hash(C("Ab"))
except Exception as exc:
    unresolved(f"{type(exc).__name__}: {exc}")

if not (equal and stable):
    unresolved(f"equal={equal} stable={stable}")
if same_hash:
    print("FAIL: C('Ab') == C('aB') and their hashes are equal (eq key used for hashing)")
    sys.exit(1)
print("PASS: C('Ab') == C('aB') but their hashes differ (eq key not used for hashing)")
sys.exit(0)
