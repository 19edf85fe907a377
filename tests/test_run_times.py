"""Each run's worker and times in the run log (for timelines: benchmarks/bench_waves.py).
Real repositories, worktrees and processes."""

from __future__ import annotations

import json
import time
from pathlib import Path

from test_cli_state import good_bad_repo

from wynot.isolate import Request, isolate
from wynot.runner import Commands


def test_the_run_log_gives_each_run_its_worker_and_times(tmp_path: Path) -> None:
    """Every run in the log, speculative ones that ran included, names its worker and
    when it started and ended; the answer is that of one worker."""
    answers = []
    for jobs in (1, 3):
        repo = good_bad_repo(tmp_path / f"repo{jobs}")
        before = time.time()
        result = isolate(Request(repo, "good", "bad", Commands(
            test=("sh", "-c", "! grep -q 2 value.txt")), use_cache=False, jobs=jobs))
        answers.append([c.label for c in result.changes])
        entries = [json.loads(line) for line in (result.run_dir / "log.jsonl").read_text(
            encoding="utf-8").splitlines()]
        ran = [e for e in entries if e.get("source") in ("run", "unused")]
        assert ran and all(before <= e["started"] <= e["ended"] <= time.time() for e in ran)
        assert all(("worker" in e) == (jobs > 1) for e in ran)
    assert answers == [["value.txt:-1,1"]] * 2
