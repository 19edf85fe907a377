"""A Tester over a real pool of one scratch worktree, and Python test scripts, for the tests
of the search's oracle and of labelling."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from conftest import Executable, GitRepo
from wynot import tester as testers
from wynot.cache import RunLog
from wynot.changes import Diff
from wynot.pool import LocalPool
from wynot.result import TestRecord
from wynot.runner import Commands


def import_check(imports: str, fails_if: str) -> Executable:
    """A test script: exit 125 when ``imports`` raise, 1 when ``fails_if`` holds."""
    return Executable(b"""#!/usr/bin/env python3
import sys
try:
    %s
except Exception as error:
    print(f"{type(error).__name__}: {error}")
    sys.exit(125)
sys.exit(1 if %s else 0)
""" % (imports.encode(), fails_if.encode()))


@contextmanager
def run_tester(repo: GitRepo, good: str, diff: Diff, tmp_path: Path,
               workers: int = 1) -> Iterator[tuple[testers.Tester, list[TestRecord]]]:
    """A Tester that runs ``python3 run_test.py`` in scratch worktrees of GOOD
    (``workers`` of them), and the list its records go to."""
    records: list[TestRecord] = []
    log = RunLog(tmp_path / "runs")
    commands = Commands(test=(sys.executable, "run_test.py"))
    try:
        with LocalPool(repo.path, commands, workers) as executor:
            executor.begin(good, diff)
            yield testers.Tester(diff, executor, commands, None, "key", log, lambda _: None,
                                 records), records
    finally:
        log.close()
