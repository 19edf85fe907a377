"""Call a function until it succeeds or the policy gives up."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from .policy import RetryPolicy

T = TypeVar("T")
log = logging.getLogger("retrykit")


class GaveUp(Exception):
    """Every attempt failed; the last error is the __cause__."""


def call_with_retry(
    func: Callable[[], T],
    policy: RetryPolicy,
    retry_on: tuple[type[BaseException], ...] = (Exception,),
    sleep: Callable[[float], object] = time.sleep,
) -> T:
    """func(), retried after the errors in retry_on as the policy says."""
    waits = policy.delays()
    attempt = 1
    while True:
        try:
            return func()
        except retry_on as error:
            wait = next(waits, None)
            if wait is None:
                raise GaveUp(f"gave up after {attempt} attempts: {error}") from error
            log.warning("attempt %d failed (%s); retrying in %.3gs", attempt, error, wait)
            sleep(wait)
            attempt += 1
