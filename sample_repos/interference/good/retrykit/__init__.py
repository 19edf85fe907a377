"""retrykit: retry flaky calls with exponential backoff."""

from .call import GaveUp, call_with_retry
from .config import load_policy
from .durations import format_duration, parse_duration
from .policy import RetryPolicy

__all__ = [
    "GaveUp",
    "RetryPolicy",
    "call_with_retry",
    "format_duration",
    "load_policy",
    "parse_duration",
]
