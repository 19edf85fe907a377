import unittest

from retrykit import RetryPolicy, load_policy

FULL = """
[retry]
attempts = 5
delay = 200ms
backoff = 1.5
max_delay = 1m
"""


class LoadPolicyTest(unittest.TestCase):
    def test_every_key(self):
        self.assertEqual(
            load_policy(FULL), RetryPolicy(attempts=5, delay=0.2, backoff=1.5, max_delay=60.0)
        )

    def test_bare_number_is_seconds(self):
        policy = load_policy("[retry]\ndelay = 2\nmax_delay = 10\n")
        self.assertEqual(policy.delay, 2.0)
        self.assertEqual(policy.max_delay, 10.0)

    def test_missing_section_gives_the_defaults(self):
        self.assertEqual(load_policy("[other]\nx = 1\n"), RetryPolicy())

    def test_other_section(self):
        policy = load_policy("[upload]\nattempts = 7\n", section="upload")
        self.assertEqual(policy.attempts, 7)
