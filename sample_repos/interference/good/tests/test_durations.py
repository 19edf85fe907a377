import unittest

from retrykit.durations import format_duration, parse_duration


class ParseDurationTest(unittest.TestCase):
    def test_units(self):
        self.assertEqual(parse_duration("200ms"), 0.2)
        self.assertEqual(parse_duration("1.5s"), 1.5)
        self.assertEqual(parse_duration("2m"), 120.0)
        self.assertEqual(parse_duration("1h"), 3600.0)
        self.assertEqual(parse_duration(" 3 S "), 3.0)

    def test_bare_number_takes_the_unit_given(self):
        self.assertEqual(parse_duration("250", default_unit="ms"), 0.25)
        self.assertEqual(parse_duration("4", default_unit="m"), 240.0)

    def test_rejects_garbage(self):
        for text in ("", "soon", "-1s", "5 weeks", "1.2.3s"):
            with self.subTest(text=text), self.assertRaises(ValueError):
                parse_duration(text)


class FormatDurationTest(unittest.TestCase):
    def test_shortest_unit(self):
        self.assertEqual(format_duration(0.25), "250ms")
        self.assertEqual(format_duration(1.5), "1.5s")
        self.assertEqual(format_duration(120), "2m")
        self.assertEqual(format_duration(7200), "2h")
        self.assertEqual(format_duration(90), "90s")

    def test_round_trip(self):
        for seconds in (0.001, 0.5, 1, 59, 60, 3600, 5400):
            with self.subTest(seconds=seconds):
                self.assertAlmostEqual(parse_duration(format_duration(seconds)), seconds)
