"""The run log's configurations: large ones as a difference from the test before,
read back exactly (RunLog.ids against log_ids, and the log read by runstore)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from wynot.cache import LOG_IDS_UP_TO, RunLog, log_ids
from wynot.outcome import Outcome
from wynot.result import PREDICTED, RAN
from wynot.runstore import _log_records

BIG = LOG_IDS_UP_TO + 50

# a walk of configurations: each a few ids away from the one before, or anything
steps = st.lists(st.one_of(
    st.tuples(st.just("near"), st.frozensets(st.integers(0, BIG + 200), max_size=12)),
    st.tuples(st.just("any"), st.frozensets(st.integers(0, 40), max_size=10)),
    st.tuples(st.just("unnumbered"), st.frozensets(st.integers(0, BIG), max_size=5)),
), min_size=1, max_size=12)


def _walk(moves: list[tuple[str, frozenset[int]]]) -> list[tuple[str, frozenset[int]]]:
    config = frozenset(range(BIG))
    walk = []
    for kind, ids in moves:
        config = config ^ ids if kind != "any" else ids
        walk.append((kind, config))
    return walk


@settings(max_examples=60, deadline=None)
@given(steps)
def test_every_configuration_reads_back_exactly(moves: list[tuple[str, frozenset[int]]]) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        log = RunLog(Path(scratch) / "runs")
        try:
            _check(log, moves)
        finally:
            log.close()


def _check(log: RunLog, moves: list[tuple[str, frozenset[int]]]) -> None:
    earlier: dict[int, frozenset[int]] = {}
    for number, (kind, config) in enumerate(_walk(moves), start=1):
        written = log.ids(config, None if kind == "unnumbered" else number)
        line = json.loads(json.dumps(written))  # as a log line carries it
        assert log_ids(line, earlier) == config
        if len(config) <= LOG_IDS_UP_TO:
            assert line == sorted(config)  # small ones as before: the sorted ids
        if kind != "unnumbered":
            earlier[number] = config


def test_a_large_configuration_near_the_last_one_is_its_difference(tmp_path: Path) -> None:
    log = RunLog(tmp_path / "runs")
    log.close()
    first = frozenset(range(5000))
    assert log.ids(first, 1) == sorted(first)
    second = (first - {7, 8}) | {6000}
    assert log.ids(second, 2) == {"from": 1, "add": [6000], "drop": [7, 8]}
    assert log.ids(second, 3) == {"from": 2, "add": [], "drop": []}
    assert log.ids(frozenset(range(10, 20)), 4) == list(range(10, 20))
    assert log.ids(frozenset(range(2000, 5000)), 5) == list(range(2000, 5000))  # far: whole
    assert log_ids(5, {}) is None  # a predicted test's size
    assert log_ids({"from": 9, "add": [], "drop": []}, {}) is None  # refers to nothing


def test_the_run_store_reads_a_log_of_differences(tmp_path: Path) -> None:
    """`wynot report` rebuilds a run that did not finish from its log."""
    log = RunLog(tmp_path / "runs")
    configs = [frozenset(range(3000)), frozenset(range(3000)) - {5}, frozenset({1, 2}),
               frozenset(range(1, 3000)) | {4000}]
    for number, config in enumerate(configs, start=1):
        log.record(number=number, phase="search", source=RAN, outcome="fail", reason="r",
                   duration=0.0, output="", changes=log.ids(config, number), commit="",
                   earlier_run=False)
    log.record(number=5, phase="search", source=PREDICTED, outcome="unresolved", reason="p",
               duration=0.0, output="", changes=2999, commit="", earlier_run=False)
    log.close()
    records = _log_records(log.dir)
    assert [r.ids for r in records] == [*configs, frozenset()]
    assert all(r.outcome is Outcome.FAIL for r in records[:4])
    lines = (log.dir / "log.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines[1]) < 300  # the difference, not 2,999 ids
