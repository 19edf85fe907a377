#!/usr/bin/env python3
"""A timeline of the analysis's wall time: the main process and each forked reader.

    python benchmarks/scale/startup_timeline.py REPO [GOOD] [BAD]

Runs ``wynot.analyse.analyse`` (default options, as ``startup_segments.py``)
and prints, in order of start, each step's start and end in seconds since
the analysis began, its wall time and the CPU time of the process that ran
it: the diff read (git's diff, the blobs, the parse), the work beside the
readers (the reproduction check, GOOD's word counts), each share a reader
read (by process), each share's arrival in the main process, and what
follows the readers (the token model and clusters, the dependencies, the
plan). The readers' idle ends (one done before the other) show as the gap
between their last shares' ends.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from analysis_digest import commits

import wynot.analyse as analyse_module
import wynot.analysis.model as model_module
import wynot.diffread as diffread_module
from wynot.analysis.model import Analysis as ModelAnalysis
from wynot.analysis.model import FileReadings

LOG = Path(tempfile.mkdtemp(prefix="wynot-timeline-")) / "events"
ORIGIN = time.monotonic()


def note(name: str, start: float, cpu: float) -> None:
    """Append one step (its process, start, end, CPU) to the shared log."""
    line = (f"{os.getpid()} {start - ORIGIN:.3f} {time.monotonic() - ORIGIN:.3f} "
            f"{time.process_time() - cpu:.3f} {name}\n")
    fd = os.open(LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        os.write(fd, line.encode())
    finally:
        os.close(fd)


def timed(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        start, cpu = time.monotonic(), time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            note(name, start, cpu)
    run.__name__ = run.__qualname__ = function.__name__
    run.__module__ = function.__module__
    return run


def main() -> None:
    repo, good, bad = commits(__doc__.splitlines()[0])
    patches: list[tuple[Any, str, str]] = [
        (analyse_module, "read_diff", "diff read"),
        (diffread_module, "_read_blobs", "  blobs (git cat-file)"),
        (analyse_module, "check_reproduces", "reproduction check"),
        (analyse_module, "side_words", "GOOD's word counts"),
        (analyse_module, "_read_part", "a reader's share"),
        (analyse_module, "read_in_parallel", "forked read"),
        (analyse_module, "analyse_diff", "token model, clusters"),
        (model_module, "find_clusters", "  clusters"),
        (ModelAnalysis, "dependencies", "dependencies"),
        (analyse_module, "make_plan", "plan"),
        (FileReadings, "update", "a share received"),
    ]
    for owner, attribute, name in patches:
        setattr(owner, attribute, timed(name, getattr(owner, attribute)))
    options = analyse_module.Options(3, ("dir", "file", "syntax"), True, True)
    start, cpu = time.monotonic(), time.process_time()
    analyse_module.analyse(repo, good, bad, options, lambda _: None)
    note("the whole analysis", start, cpu)
    main_pid = str(os.getpid())
    rows = [line.split(maxsplit=4) for line in LOG.read_text().splitlines()]
    rows.sort(key=lambda row: float(row[1]))
    print(f"{'process':>8} {'start':>7} {'end':>7} {'wall':>6} {'CPU':>6}  step")
    for pid, begin, end, used, name in rows:
        who = "main" if pid == main_pid else pid
        print(f"{who:>8} {float(begin):7.2f} {float(end):7.2f} "
              f"{float(end) - float(begin):6.2f} {float(used):6.2f}  {name}")
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
