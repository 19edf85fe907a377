import unittest

from retrykit import GaveUp, RetryPolicy, call_with_retry


class Flaky:
    """Fails `failures` times with ConnectionError, then returns "ok"."""

    def __init__(self, failures):
        self.failures = failures
        self.calls = 0

    def __call__(self):
        self.calls += 1
        if self.calls <= self.failures:
            raise ConnectionError(f"failure {self.calls}")
        return "ok"


class CallWithRetryTest(unittest.TestCase):
    def setUp(self):
        self.slept = []

    def call(self, func, policy, **kwargs):
        return call_with_retry(func, policy, sleep=self.slept.append, **kwargs)

    def test_first_try(self):
        self.assertEqual(self.call(Flaky(0), RetryPolicy()), "ok")
        self.assertEqual(self.slept, [])

    def test_succeeds_after_retries(self):
        with self.assertLogs("retrykit", "WARNING") as logs:
            result = self.call(Flaky(2), RetryPolicy(attempts=3, delay=0.1))
        self.assertEqual(result, "ok")
        self.assertEqual(self.slept, [0.1, 0.2])
        self.assertIn("attempt 2 failed (failure 2); retrying in 0.2s", logs.output[1])

    def test_gives_up(self):
        flaky = Flaky(5)
        with self.assertRaises(GaveUp) as caught, self.assertLogs("retrykit", "WARNING"):
            self.call(flaky, RetryPolicy(attempts=2, delay=1))
        self.assertIsInstance(caught.exception.__cause__, ConnectionError)
        self.assertEqual(flaky.calls, 2)

    def test_other_errors_are_not_retried(self):
        with self.assertRaises(ConnectionError):
            self.call(Flaky(1), RetryPolicy(), retry_on=(TimeoutError,))
        self.assertEqual(self.slept, [])
