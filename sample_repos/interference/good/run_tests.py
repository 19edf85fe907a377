"""Run the unit tests (stdlib unittest only) with one of three answers, as `git bisect run`
expects.

    exit 0    every test passed
    exit 1    a test failed
    exit 125  this checkout cannot be judged: a module does not import or a test trips
              over a name that does not exist (a half-applied change)

Usage: python3 run_tests.py
"""

import sys
import unittest

sys.dont_write_bytecode = True  # leave no __pycache__ behind

PASSED, FAILED, CANNOT_JUDGE = 0, 1, 125
BROKEN_CODE = (ImportError, NameError, SyntaxError)


class Result(unittest.TextTestResult):
    """Also remembers the errors that mean the code is inconsistent, not wrong."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.broken = []

    def addError(self, test, err):
        if issubclass(err[0], BROKEN_CODE):
            self.broken.append(f"{test}: {err[0].__name__}: {err[1]}")
        super().addError(test, err)


def main():
    loader = unittest.TestLoader()
    suite = loader.discover("tests", top_level_dir=".")
    if loader.errors:
        print("run_tests.py: cannot judge this checkout, tests do not import:")
        print(*loader.errors, sep="\n")
        return CANNOT_JUDGE
    result = unittest.TextTestRunner(resultclass=Result, verbosity=1).run(suite)
    if result.broken:
        print("run_tests.py: cannot judge this checkout:", *result.broken, sep="\n  ")
        return CANNOT_JUDGE
    if result.testsRun == 0:
        print("run_tests.py: no tests found")
        return CANNOT_JUDGE
    return PASSED if result.wasSuccessful() else FAILED


if __name__ == "__main__":
    sys.exit(main())
