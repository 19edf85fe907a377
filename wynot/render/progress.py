"""Progress on stderr: a live display on a terminal, plain lines otherwise.

Both take the pipeline's progress events (:class:`~wynot.result.TestStarted`,
:class:`~wynot.result.TestRecord`, status strings). The live display shows
every test still running (several with parallel workers) with its elapsed
time, the tests done, and an estimate of the tests left (:class:`Estimate`).
stdout is never written, so it stays clean for JSON.
"""

from __future__ import annotations

import math
import re
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # rich is imported where the live display is made: lines need none of it
    from rich.console import Console, Group

from wynot.outcome import Outcome
from wynot.result import CACHED, PREDICTED, RAN, TestRecord, TestStarted

Event = TestRecord | TestStarted | str
# the commit phase's and the hunk phase's opening messages (a branch followed: "... bisecting")
_COMMITS = re.compile(r"bisecting (?:the )?(\d+) commits?")
_CHANGES = re.compile(r"^(\d+) changes? in \d+ files?")


class Estimate:
    """Tests left, estimated from what is still in play.

    In the commit phase, ⌈log2(n + 1)⌉ for the n commits that could still be
    the first bad one (a PASS or a FAIL halves them, a skip removes one); in the
    hunk phase, ⌈log2 n⌉ + 1 for the n changes of the smallest configuration
    seen to fail, plus the verification. It is what one cause costs a binary
    search: context and labelling can cost more.
    """

    def __init__(self) -> None:
        self.commits: int | None = None
        self.changes: int | None = None
        self.done = 0

    def update(self, event: Event) -> None:
        if isinstance(event, str):
            if match := _COMMITS.search(event):
                self.commits = int(match.group(1))
            elif match := _CHANGES.match(event):
                self.commits, self.changes = None, int(match.group(1))
            return
        if isinstance(event, TestStarted) or event.source == PREDICTED:
            return
        self.done += event.ran
        if event.commit and event.phase == "commits" and self.commits is not None:
            halved = event.outcome is not Outcome.UNRESOLVED
            self.commits = self.commits // 2 if halved else max(0, self.commits - 1)
        elif (not event.commit and event.outcome is Outcome.FAIL
              and event.source in (RAN, CACHED) and self.changes is not None and event.ids):
            self.changes = min(self.changes, len(event.ids))

    def tests_left(self) -> int | None:
        if self.commits is not None:
            return math.ceil(math.log2(self.commits + 1))
        if self.changes is not None:
            return math.ceil(math.log2(self.changes)) + 1 if self.changes > 1 else 1
        return None


def finished_line(record: TestRecord) -> str:
    """One line for a test that ended."""
    source = "" if record.ran else f", {record.source}"
    size = record.size
    what = (f"commit {record.commit[:12]}" if record.commit
            else f"{size:>5} {'change' if size == 1 else 'changes'}")
    if record.phase == "revert":
        what = "BAD with the revert"
    return (f"wynot: test {record.number:>3} [{record.phase}] {what}: "
            f"{record.outcome.name} ({record.reason}, {record.duration:.1f} s{source})")


class PlainProgress:
    """A line per finished test and per status message, as a log would want them."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.estimate = Estimate()

    def __call__(self, event: Event) -> None:
        self.estimate.update(event)
        if isinstance(event, str):
            self._write(f"wynot: {event}")
        elif isinstance(event, TestRecord) and event.source != PREDICTED:
            left = self.estimate.tests_left()
            self._write(finished_line(event) + (f"; about {left} left" if left else ""))

    def close(self) -> None:
        self.stream.flush()

    def _write(self, line: str) -> None:
        self.stream.write(line + "\n")
        self.stream.flush()


class LiveProgress:
    """The running tests, their elapsed time and the estimate, redrawn in place."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.estimate = Estimate()
        self.running: dict[int, tuple[TestStarted, float]] = {}
        from rich.live import Live

        self._live = Live(self, console=console, transient=True, refresh_per_second=4,
                          redirect_stdout=False, redirect_stderr=False)
        self._live.start()

    def __call__(self, event: Event) -> None:
        self.estimate.update(event)
        if isinstance(event, str):
            self.console.print(f"wynot: {event}", markup=False, highlight=False)
        elif isinstance(event, TestStarted):
            self.running[event.number] = (event, time.monotonic())
        else:
            self.running.pop(event.number, None)
            if event.source != PREDICTED:
                self.console.print(finished_line(event), markup=False, highlight=False)
        self._live.refresh()

    def __rich__(self) -> Group:
        from rich.console import Group
        from rich.text import Text

        now = time.monotonic()
        lines = []
        for started, since in sorted(self.running.values(), key=lambda item: item[0].number):
            what = (f"commit {started.commit[:12]}" if started.commit
                    else f"{started.size} change{'' if started.size == 1 else 's'}")
            lines.append(Text(f"  running test {started.number} [{started.phase}] {what}: "
                              f"{now - since:.1f} s", style="cyan"))
        left = self.estimate.tests_left()
        estimate = f", about {left} left" if left is not None else ""
        lines.append(Text(f"  {self.estimate.done} tests done{estimate}", style="dim"))
        return Group(*lines)

    def close(self) -> None:
        self._live.stop()


def open_progress(stream: TextIO, *, live: bool) -> PlainProgress | LiveProgress:
    """The live display when ``live`` (stderr is a terminal), else plain lines."""
    if live:
        from rich.console import Console

        return LiveProgress(Console(file=stream, stderr=True))
    return PlainProgress(stream)
