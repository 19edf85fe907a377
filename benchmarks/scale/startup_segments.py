#!/usr/bin/env python3
"""Where the analysis's time goes in the main process: the diff read, the forked read, the rest.

    python benchmarks/scale/startup_segments.py REPO [GOOD] [BAD]

Runs ``wynot.analyse.analyse`` (default options) on GOOD..BAD (default
``good``..``bad``) and prints, for each segment, its wall time and the CPU
time of this process: the diff read, what lies between it and the forked
read (the reproduction check, where the code does it there), the forked read
(this process meanwhile), and what follows it (token model, clusters,
dependencies, plan); then the CPU of the forked workers. On an idle machine
the segments but the forked read are the serial part of the start-up.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable
from typing import Any

from analysis_digest import commits

import wynot.analyse as analyse_module

MARKS: dict[str, tuple[float, float]] = {}


def mark(name: str) -> None:
    MARKS[name] = (time.perf_counter(), time.process_time())


def marked(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any, **kwargs: Any) -> Any:
        mark(f"{name}>")
        try:
            return function(*args, **kwargs)
        finally:
            mark(f"{name}<")
    return run


def segment(start: str, end: str) -> str:
    (wall0, cpu0), (wall1, cpu1) = MARKS[start], MARKS[end]
    return f"{wall1 - wall0:.2f} s ({cpu1 - cpu0:.2f} s)"


def main() -> None:
    repo, good, bad = commits(__doc__.splitlines()[0])
    analyse_module.read_diff = marked("read", analyse_module.read_diff)  # type: ignore[assignment]
    analyse_module.read_in_parallel = marked(  # type: ignore[assignment]
        "parallel", analyse_module.read_in_parallel)
    options = analyse_module.Options(3, ("dir", "file", "syntax"), True, True)
    mark("start")
    analyse_module.analyse(repo, good, bad, options, lambda _: None)
    mark("end")
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"wall (CPU of this process): diff read {segment('read>', 'read<')}, "
          f"between {segment('read<', 'parallel>')}, "
          f"forked read {segment('parallel>', 'parallel<')}, "
          f"after {segment('parallel<', 'end')}, total {segment('start', 'end')}; "
          f"workers' CPU {workers.ru_utime + workers.ru_stime:.2f} s; "
          f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
