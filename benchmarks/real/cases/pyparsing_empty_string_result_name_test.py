"""wynot real-regression case: pyparsing 3.0.9 -> 3.1.0.

CHANGES, Version 3.1.0b1: "Fixed bug when parse actions returned an empty
string for an expression that had a results name, that the results name was
not saved." (Issue #470)

``Literal("X").add_parse_action(lambda tokens: "")("value")`` parsing "X":
pyparsing 3.0.9 does not save the results name (``result["value"]`` raises
KeyError); pyparsing 3.1.0 saves the empty string under it.

Exit 0: old behaviour. Exit 1: new behaviour. Exit 125: cannot judge
(pyparsing does not import from this tree, an unexpected exception, or other
output).
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
    import pyparsing as pp
except BaseException as exc:  # ImportError, SyntaxError, NameError, AttributeError...
    unresolved(f"import pyparsing failed: {type(exc).__name__}: {exc}")
if not os.path.abspath(pp.__file__).startswith(os.path.join(SRC, "pyparsing") + os.sep):
    unresolved(f"pyparsing imported from {pp.__file__}, not from {SRC}")

try:
    # a control: a non-empty result is saved under its name in both versions
    control = pp.Literal("X").add_parse_action(lambda tokens: "y")("value").parse_string("X")
    if control["value"] != "y":
        unresolved(f"control: {control!r}")
    expr = pp.Literal("X").add_parse_action(lambda tokens: "")("value")
    result = expr.parse_string("X")
    names = list(result.keys())
    value = result.get("value", KeyError)
except BaseException as exc:
    unresolved(f"{type(exc).__name__}: {exc}")

if names == [] and value is KeyError:
    print("PASS: the empty result is not saved under its results name")
    sys.exit(0)
if names == ["value"] and value == "":
    print("FAIL: the empty result is saved under its results name")
    sys.exit(1)
unresolved(f"unexpected result: names {names!r}, value {value!r}")
