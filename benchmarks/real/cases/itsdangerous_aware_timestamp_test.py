"""wynot real-regression case: itsdangerous 1.1.0 -> 2.0.0.

Changelog of 2.0.0: "``datetime`` values are timezone-aware with
``timezone.utc``. Code using ``TimestampSigner.unsign(return_timestamp=True)``
or ``BadTimeSignature.date_signed`` may need to change." (#150)

The timestamp that ``unsign(..., return_timestamp=True)`` returns is naive
(``tzinfo is None``) in 1.1.0 and aware (UTC) in 2.0.0.

Exit 0: old behaviour. Exit 1: new behaviour. Exit 125: cannot judge
(itsdangerous does not import from this tree, an unexpected exception, or
other output).
"""

import datetime
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
    import itsdangerous
except BaseException as exc:  # ImportError, SyntaxError, NameError, AttributeError...
    unresolved(f"import itsdangerous failed: {type(exc).__name__}: {exc}")
if not os.path.abspath(itsdangerous.__file__).startswith(
        os.path.join(SRC, "itsdangerous") + os.sep):
    unresolved(f"itsdangerous imported from {itsdangerous.__file__}, not from {SRC}")

try:
    signer = itsdangerous.TimestampSigner("secret")
    value, stamp = signer.unsign(signer.sign(b"payload"), return_timestamp=True)
except BaseException as exc:
    unresolved(f"{type(exc).__name__}: {exc}")

if value != b"payload" or not isinstance(stamp, datetime.datetime):
    unresolved(f"unsign gave {value!r}, {stamp!r}")
if stamp.tzinfo is None:
    print("PASS: the timestamp is naive")
    sys.exit(0)
if stamp.utcoffset() == datetime.timedelta(0):
    print("FAIL: the timestamp is timezone-aware (UTC)")
    sys.exit(1)
unresolved(f"the timestamp has tzinfo {stamp.tzinfo!r}")
