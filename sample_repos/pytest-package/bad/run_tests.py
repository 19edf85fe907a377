"""Run the test suite with one of three answers, as `git bisect run` expects.

    exit 0    every test passed
    exit 1    a test failed
    exit 125  this checkout cannot be judged: a module does not import or a test
              trips over a name that does not exist (a half-applied change)

Usage: python3 run_tests.py [extra pytest arguments]
"""

import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ behind
os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"

PASSED, FAILED, CANNOT_JUDGE = 0, 1, 125
BROKEN_CODE = (ImportError, NameError, SyntaxError)

try:
    import pytest
except ImportError:
    print("run_tests.py: pytest is not installed", file=sys.stderr)
    sys.exit(CANNOT_JUDGE)


class BrokenCodeDetector:
    """Remembers the tests that failed because the code is inconsistent, not wrong."""

    def __init__(self):
        self.broken = []

    def pytest_collectreport(self, report):
        if report.failed:  # a test module that does not import
            self.broken.append(f"{report.nodeid}: cannot be collected")

    def pytest_exception_interact(self, node, call, report):
        if call.excinfo is not None and call.excinfo.errisinstance(BROKEN_CODE):
            self.broken.append(f"{node.nodeid}: {call.excinfo.exconly()}")


def main(args):
    detector = BrokenCodeDetector()
    status = pytest.main(["-q", "-x", "-p", "no:cacheprovider", *args], plugins=[detector])
    if detector.broken:
        print("run_tests.py: cannot judge this checkout:", *detector.broken, sep="\n  ")
        return CANNOT_JUDGE
    if status == pytest.ExitCode.OK:
        return PASSED
    if status == pytest.ExitCode.TESTS_FAILED:
        return FAILED
    print(f"run_tests.py: pytest ended with {status!r}; cannot judge this checkout")
    return CANNOT_JUDGE


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
