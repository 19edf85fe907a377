"""Read a RetryPolicy from the [retry] section of an INI file.

    [retry]
    attempts = 5
    delay = 200ms
    backoff = 2
    max_delay = 5s

Missing keys keep the defaults of RetryPolicy.
"""

from __future__ import annotations

import configparser

from .durations import parse_duration
from .policy import RetryPolicy


def load_policy(text: str, section: str = "retry") -> RetryPolicy:
    """The retry policy in `section` of the INI text."""
    parser = configparser.ConfigParser()
    parser.read_string(text)
    if not parser.has_section(section):
        return RetryPolicy()
    values = parser[section]
    settings: dict[str, float | int] = {}
    if "attempts" in values:
        settings["attempts"] = values.getint("attempts")
    if "backoff" in values:
        settings["backoff"] = values.getfloat("backoff")
    for key in ("delay", "max_delay"):
        if key in values:
            settings[key] = parse_duration(values[key], default_unit="s")
    return RetryPolicy(**settings)
