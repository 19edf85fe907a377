"""How often to retry, and how long to wait in between."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .durations import format_duration


@dataclass(frozen=True)
class RetryPolicy:
    """Try up to `attempts` times; wait `delay` seconds after the first failure and
    `backoff` times longer after each further one, but never more than `max_delay`.
    Delays are in seconds."""

    attempts: int = 3
    delay: float = 1.0
    backoff: float = 2.0
    max_delay: float = 30.0

    def __post_init__(self) -> None:
        if self.attempts < 1:
            raise ValueError(f"attempts must be at least 1, not {self.attempts}")
        if self.backoff < 1:
            raise ValueError(f"backoff must be at least 1, not {self.backoff}")
        if self.delay < 0 or self.max_delay < 0:
            raise ValueError("delays must not be negative")

    def delays(self) -> Iterator[float]:
        """The waits between attempts: one fewer than the attempts."""
        delay = self.delay
        for _ in range(self.attempts - 1):
            yield min(delay, self.max_delay)
            delay *= self.backoff

    def total_delay(self) -> float:
        """The longest time spent waiting, in seconds, when every attempt fails."""
        return sum(self.delays())

    def describe(self) -> str:
        """One line for logs: "3 attempts, waiting 1s, then x2 up to 30s"."""
        if self.attempts == 1:
            return "1 attempt, no retries"
        return (
            f"{self.attempts} attempts, waiting {format_duration(self.delay)}, "
            f"then x{self.backoff:g} up to {format_duration(self.max_delay)}"
        )
