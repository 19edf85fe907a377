import unittest

from retrykit import RetryPolicy


class RetryPolicyTest(unittest.TestCase):
    def test_delays_grow_by_backoff(self):
        policy = RetryPolicy(attempts=4, delay=0.5, backoff=3)
        self.assertEqual(list(policy.delays()), [0.5, 1.5, 4.5])
        self.assertEqual(policy.total_delay(), 6.5)

    def test_one_attempt_never_waits(self):
        self.assertEqual(list(RetryPolicy(attempts=1).delays()), [])

    def test_describe(self):
        self.assertEqual(RetryPolicy().describe(), "3 attempts, waiting 1s, then x2 up to 30s")
        self.assertEqual(RetryPolicy(attempts=1).describe(), "1 attempt, no retries")

    def test_invalid(self):
        with self.assertRaises(ValueError):
            RetryPolicy(backoff=0.5)
        with self.assertRaises(ValueError):
            RetryPolicy(delay=-1)
