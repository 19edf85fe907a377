"""Durations as people write them in configuration files: "200ms", "1.5s", "2m", "1h".

Durations are returned as float seconds, the unit of time.sleep(). A bare number
is milliseconds, as in the Retry-After-Ms header of our HTTP API, unless the caller
asks for another unit.
"""

from __future__ import annotations

import re

_UNITS = {
    "ms": 0.001,
    "s": 1.0,
    "m": 60.0,
    "h": 3600.0,
}

_DURATION = re.compile(r"^\s*(?P<number>\d+(?:\.\d*)?|\.\d+)\s*(?P<unit>[a-z]*)\s*$")


def parse_duration(text: str, default_unit: str = "ms") -> float:
    """The duration written in text, in seconds.

    A number without a unit is in default_unit (milliseconds unless given).
    """
    match = _DURATION.match(text.lower())
    if match is None:
        raise ValueError(f"not a duration: {text!r}")
    unit = match["unit"] or default_unit
    if unit not in _UNITS:
        raise ValueError(f"unknown unit {unit!r} in {text!r}; use one of {', '.join(_UNITS)}")
    return float(match["number"]) * _UNITS[unit]


def format_duration(seconds: float) -> str:
    """Seconds as the shortest text that parse_duration reads back: 0.25 -> "250ms"."""
    if seconds < 1:
        return f"{round(seconds * 1000, 3):g}ms"  # 0.0001 s is "0.1ms", not "0.1000000001ms"
    for unit in ("h", "m"):
        if seconds >= _UNITS[unit] and seconds % _UNITS[unit] == 0:
            return f"{seconds / _UNITS[unit]:g}{unit}"
    return f"{seconds:g}s"
