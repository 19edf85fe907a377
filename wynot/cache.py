"""Run state under the repository's git directory: outcome cache and run logs.

    <git-dir>/wynot/cache.sqlite          outcomes of past tests, shared by reruns
    <git-dir>/wynot/runs/<run-id>/log.jsonl   one line per test of that run
    <git-dir>/wynot/runs/<run-id>/NNNN.out    each test's output

A cached outcome is keyed by everything that decides it: GOOD, BAD, the diff
options, the commands, the timeout, the fail pattern and the configuration.
Each outcome is committed as soon as it is known, so an interrupted run loses
at most the test in flight and a rerun resumes from the cache.
"""

from __future__ import annotations

import array
import functools
import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from wynot.outcome import Outcome

STATE_DIR_NAME = "wynot"
DIGEST_ABOVE = 1000  # configurations larger than this are keyed by a digest


def state_dir(git_dir: Path) -> Path:
    return git_dir / STATE_DIR_NAME


def search_key(**parts: object) -> str:
    """A stable digest of everything that determines the outcomes of a search."""
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class CachedOutcome:
    outcome: Outcome
    reason: str
    duration: float
    output: str


def _key(ids: Iterable[int]) -> str:
    ordered = sorted(ids)
    if len(ordered) <= DIGEST_ABOVE:
        return ",".join(map(str, ordered))
    packed = array.array("q", ordered).tobytes()
    return f"sha256:{len(ordered)}:{hashlib.sha256(packed).hexdigest()}"


@functools.lru_cache(maxsize=4)
def _frozen_key(ids: frozenset[int]) -> str:
    return _key(ids)


class OutcomeCache:
    """SQLite store of outcomes, keyed by (search key, configuration)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS outcomes ("
            " search TEXT NOT NULL, configuration TEXT NOT NULL,"
            " outcome TEXT NOT NULL, reason TEXT NOT NULL, duration REAL NOT NULL,"
            " output TEXT NOT NULL, created REAL NOT NULL,"
            " PRIMARY KEY (search, configuration))"
        )
        self._db.commit()

    @staticmethod
    def configuration_key(ids: Iterable[int]) -> str:
        """The ids, sorted and comma-separated; beyond ``DIGEST_ABOVE`` ids, a digest.

        Both forms cost time linear in the configuration (the digest about a
        third of the text's); the last few keys of frozensets are remembered.
        """
        if isinstance(ids, frozenset):
            return _frozen_key(ids)
        return _key(ids)

    def get(self, search: str, ids: Iterable[int]) -> CachedOutcome | None:
        row = self._db.execute(
            "SELECT outcome, reason, duration, output FROM outcomes"
            " WHERE search = ? AND configuration = ?",
            (search, self.configuration_key(ids)),
        ).fetchone()
        if row is None:
            return None
        return CachedOutcome(Outcome(row[0]), row[1], row[2], row[3])

    def put(self, search: str, ids: Iterable[int], result: CachedOutcome) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO outcomes VALUES (?, ?, ?, ?, ?, ?, ?)",
            (search, self.configuration_key(ids), result.outcome.value, result.reason,
             result.duration, result.output, time.time()),
        )
        self._db.commit()

    def close(self) -> None:
        self._db.close()


class RunLog:
    """The log of one run: a JSON line per test and a file per test output."""

    def __init__(self, runs_dir: Path) -> None:
        run_id = time.strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}"
        self.dir = runs_dir / run_id
        self.dir.mkdir(parents=True, exist_ok=True)
        self._log = (self.dir / "log.jsonl").open("a", encoding="utf-8")

    def output_path(self, number: int) -> Path:
        return self.dir / f"{number:04d}.out"

    def record(self, **entry: object) -> None:
        self._log.write(json.dumps(entry, sort_keys=True, default=str) + "\n")
        self._log.flush()

    def close(self) -> None:
        self._log.close()
