"""The closed set of test outcomes that every layer shares."""

from __future__ import annotations

import enum


class Outcome(enum.Enum):
    """The three test outcomes of POSIX 1003.3, as used by the papers."""

    PASS = "pass"
    FAIL = "fail"
    UNRESOLVED = "unresolved"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]


_SYMBOLS = {Outcome.PASS: "✓", Outcome.FAIL: "✗", Outcome.UNRESOLVED: "?"}
