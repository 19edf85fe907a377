"""Run state under the repository's git directory: observed outcomes and run logs.

    <git-dir>/wynot/cache.sqlite          outcomes observed by past tests, shared by reruns
    <git-dir>/wynot/runs/<run-id>/log.jsonl   one line per test of that run
                                              (a large configuration as its difference
                                              from an earlier test's: :func:`log_ids`)
    <git-dir>/wynot/runs/<run-id>/NNNN.out    each test's output (head and tail)

The cache stores *observations*, not verdicts: every real run of a
configuration adds one (outcome, reason, duration, output, when). A
configuration's outcome is replayed only while all its trusted observations
agree; one that disagrees, or that a failed verification disputed
(:meth:`OutcomeCache.dispute`), is run again. An observation is keyed by
everything that decides it: GOOD, BAD, the diff options, the commands, the
timeout, the fail pattern, the content of the files the commands name
outside the repository (:func:`command_files`) and the configuration. Each
observation is committed as soon as it is made, so an interrupted run loses
at most the test in flight and a rerun resumes from the cache.
"""

from __future__ import annotations

import array
import bisect
import functools
import hashlib
import heapq
import json
import os
import shlex
import shutil
import sqlite3
import threading
import time
import weakref
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from wynot.changes import flipped
from wynot.lineage import apart
from wynot.outcome import Outcome
from wynot.state import DEFAULT_KEEP_RUNS, OWNER_FILE, owner_token, prune_runs
from wynot.state import STATE_DIR_NAME as STATE_DIR_NAME
from wynot.state import state_dir as state_dir

MAX_OBSERVATIONS = 200_000  # oldest observations beyond this are dropped
_HASH_LIMIT = 64 * 1024 * 1024  # larger files are known by size and time instead
DIGEST_ABOVE = 1000  # configurations larger than this are keyed by a digest
LOG_IDS_UP_TO = 1000  # larger configurations are logged as a difference, where smaller


def search_key(**parts: object) -> str:
    """A stable digest of everything that determines the outcomes of a search."""
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def command_files(repo: Path, *commands: Sequence[str] | None) -> dict[str, str]:
    """What the files a command names outside ``repo`` hold: path -> content digest.

    The program (found on PATH as the command would be) and every absolute
    or ``~`` path among the arguments and the words of shell snippets (``sh
    -c '/opt/t.sh'``, ``--config=/etc/x``) that is a file outside the
    repository count; editing such a test script makes earlier outcomes stale.
    """
    top = os.path.realpath(repo)
    found: dict[str, str] = {}
    for argv in commands:
        if not argv:
            continue
        words = [shutil.which(argv[0]) or argv[0]]
        for arg in argv[1:]:
            try:
                split = shlex.split(arg)
            except ValueError:
                split = arg.split()
            words += [arg, *split, *(w.partition("=")[2] for w in split)]
        for word in words:
            if not word.startswith(("/", "~")):
                continue
            path = os.path.realpath(os.path.expanduser(word))
            if path in found or path == top or path.startswith(top + os.sep):
                continue
            if os.path.isfile(path):
                found[path] = _digest(path)
    return found


def _digest(path: str) -> str:
    try:
        info = os.stat(path)
        if info.st_size > _HASH_LIMIT:
            return f"size {info.st_size} mtime {info.st_mtime_ns}"
        with open(path, "rb") as handle:
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError as error:
        return f"unreadable: {error.strerror}"


@dataclass(frozen=True, slots=True)
class CachedOutcome:
    outcome: Outcome
    reason: str
    duration: float
    output: str
    seen: int = 1  # how many trusted observations agree on it


def _key(ids: Iterable[int]) -> str:
    ordered = sorted(ids)
    if len(ordered) <= DIGEST_ABOVE:
        return ",".join(map(str, ordered))
    return _digest_key(array.array("q", ordered))


def _digest_key(ordered: array.array[int]) -> str:
    return f"sha256:{len(ordered)}:{hashlib.sha256(ordered).hexdigest()}"


# The sorted ids of the last few large configurations keyed (weakly held): the
# next one dd+ made from a common configuration (wynot.lineage) is sorted from
# one of them by what differs, not from scratch.
_sorted: list[tuple[weakref.ref[frozenset[int]], array.array[int]]] = []
SORTED_KEPT = 4


@functools.lru_cache(maxsize=4)
def _frozen_key(ids: frozenset[int]) -> str:
    if len(ids) <= DIGEST_ABOVE:
        return _key(ids)
    ordered = None
    for ref, known_order in reversed(_sorted):
        known = ref()
        changed = None if known is None else apart(known, ids)
        if known is not None and changed is not None:
            ordered = _resorted(known_order, sorted(changed & known), sorted(changed - known))
            break
    if ordered is None:
        ordered = array.array("q", sorted(ids))
    _sorted[:] = [*_sorted[1 - SORTED_KEPT:], (weakref.ref(ids), ordered)]
    return _digest_key(ordered)


def _resorted(ordered: array.array[int], drop: list[int], add: list[int]) -> array.array[int]:
    """``ordered`` (sorted, distinct) without ``drop`` (members) and with ``add``
    (not members), both sorted: sorted too, in one copy of the slices between them."""
    out = array.array("q")
    at = 0
    for value, adding in heapq.merge(((v, True) for v in add), ((v, False) for v in drop)):
        i = bisect.bisect_left(ordered, value, at)
        out.extend(ordered[at:i])
        if adding:
            out.append(value)
            at = i
        else:
            at = i + 1
    out.extend(ordered[at:])
    return out


class OutcomeCache:
    """SQLite store of observed outcomes, keyed by (search key, configuration).

    With ``replay=False`` (``--no-cache``) it records observations but never
    answers from them.
    """

    def __init__(self, path: Path, *, replay: bool = True) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.replay = replay
        self._db = sqlite3.connect(path, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("DROP TABLE IF EXISTS outcomes")  # one verdict per key: replaced
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS observations ("
            " search TEXT NOT NULL, configuration TEXT NOT NULL,"
            " outcome TEXT NOT NULL, reason TEXT NOT NULL, duration REAL NOT NULL,"
            " output TEXT NOT NULL, created REAL NOT NULL, run TEXT NOT NULL,"
            " disputed INTEGER NOT NULL DEFAULT 0)"
        )
        self._db.execute("CREATE INDEX IF NOT EXISTS observations_by_key"
                         " ON observations (search, configuration)")
        self._db.execute(
            "DELETE FROM observations WHERE rowid <="
            " (SELECT MAX(rowid) FROM observations) - ?", (MAX_OBSERVATIONS,))
        self._db.commit()

    @staticmethod
    def configuration_key(ids: Iterable[int]) -> str:
        """The ids, sorted and comma-separated; beyond ``DIGEST_ABOVE`` ids, a digest.

        Both forms cost time linear in the configuration (the digest about a
        third of the text's); the last few keys of frozensets are remembered,
        and a large frozenset dd+ made near one keyed before is sorted from it.
        """
        if isinstance(ids, frozenset):
            return _frozen_key(ids)
        return _key(ids)

    def get(self, search: str, ids: Iterable[int]) -> CachedOutcome | None:
        """The outcome all trusted observations agree on (the newest one's details),
        or None: nothing observed, observations disagree, or replay is off."""
        if not self.replay:
            return None
        rows = self._db.execute(
            "SELECT outcome, reason, duration, output FROM observations"
            " WHERE search = ? AND configuration = ? AND disputed = 0 ORDER BY rowid DESC",
            (search, self.configuration_key(ids)),
        ).fetchall()
        if not rows or len({row[0] for row in rows}) > 1:
            return None
        outcome, reason, duration, output = rows[0]
        return CachedOutcome(Outcome(outcome), reason, duration, output, len(rows))

    def put(self, search: str, ids: Iterable[int], result: CachedOutcome) -> None:
        """Add one observation."""
        self._db.execute(
            "INSERT INTO observations (search, configuration, outcome, reason, duration,"
            " output, created, run) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (search, self.configuration_key(ids), result.outcome.value, result.reason,
             result.duration, result.output, time.time(), owner_token()),
        )
        self._db.commit()

    def observations(self, search: str, ids: Iterable[int], *,
                     disputed: bool = False) -> Counter[Outcome]:
        """How often each outcome was observed for a configuration (trusted ones only,
        unless ``disputed``)."""
        rows = self._db.execute(
            "SELECT outcome, COUNT(*) FROM observations WHERE search = ? AND configuration = ?"
            " AND disputed <= ? GROUP BY outcome",
            (search, self.configuration_key(ids), int(disputed)),
        ).fetchall()
        return Counter({Outcome(outcome): count for outcome, count in rows})

    def dispute(self, search: str, configurations: Iterable[Iterable[int]]) -> None:
        """Stop trusting what was observed so far for these configurations: they run again."""
        self._db.executemany(
            "UPDATE observations SET disputed = 1 WHERE search = ? AND configuration = ?",
            [(search, self.configuration_key(ids)) for ids in configurations],
        )
        self._db.commit()

    def close(self) -> None:
        self._db.close()


class RunLog:
    """The log of one run: a JSON line per test and a file per test output."""

    def __init__(self, runs_dir: Path, keep: int = DEFAULT_KEEP_RUNS) -> None:
        """Start a run log in ``runs_dir`` and prune the logs of old runs (the
        newest ``keep`` stay, this one included; runs in progress are never pruned):
        in a thread of its own, done by :meth:`close` (deleting a run's outputs
        takes 0.1 s, which the analysis need not wait for)."""
        run_id = time.strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}"
        self.dir = runs_dir / run_id
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / OWNER_FILE).write_text(owner_token(), encoding="utf-8")
        self._pruning = threading.Thread(target=prune_runs, args=(runs_dir.parent, max(1, keep)),
                                         name="wynot-prune-runs")
        self._pruning.start()
        self._log = (self.dir / "log.jsonl").open("a", encoding="utf-8")
        self._base: tuple[int, frozenset[int]] | None = None  # the last test logged

    def ids(self, ids: frozenset[int], number: int | None = None) -> object:
        """A configuration as its log line's ``changes`` holds it (:func:`log_ids`
        reads it back): the sorted ids, or for more than :data:`LOG_IDS_UP_TO`
        ids that differ from the last test logged in fewer than half as many,
        ``{"from": its number, "add": [...], "drop": [...]}`` (sorted): the time
        then grows with the difference, not the configuration (the set
        difference aside, done in C). ``number``: this test's, so that the next
        one may refer to it; None for a line that has none (a speculative run).
        """
        base, self._base = self._base, self._base if number is None else (number, ids)
        if len(ids) > LOG_IDS_UP_TO and base is not None:
            number_before, before = base
            if before is ids:
                return {"from": number_before, "add": [], "drop": []}
            changed = flipped(before, ids)
            if 2 * len(changed) < len(ids):
                return {"from": number_before, "add": sorted(changed & ids),
                        "drop": sorted(changed & before)}
        return sorted(ids)

    def output_path(self, number: int) -> Path:
        return self.dir / f"{number:04d}.out"

    def record(self, **entry: object) -> None:
        self._log.write(json.dumps(entry, sort_keys=True, default=str) + "\n")
        self._log.flush()

    def close(self) -> None:
        self._log.close()
        self._pruning.join()


def log_ids(changes: object, earlier: dict[int, frozenset[int]]) -> frozenset[int] | None:
    """The configuration a log line's ``changes`` holds (:meth:`RunLog.ids`), None when
    it holds none (a predicted test's size). ``earlier``: the configurations of the
    tests read before it in the same log, by number (a difference refers to one of
    them); None too when the test it refers to is missing."""
    if isinstance(changes, list):
        return frozenset(changes)
    if not isinstance(changes, dict):
        return None
    before = earlier.get(changes.get("from", -1))
    if before is None:
        return None
    return before.difference(changes.get("drop", ())).union(changes.get("add", ()))
