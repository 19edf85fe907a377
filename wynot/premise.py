"""The paper's axiom, checked: GOOD passes, BAD fails; otherwise a clear error."""

from __future__ import annotations

import shlex
from pathlib import Path

from wynot.errors import CommandNotFoundError, PremiseError
from wynot.outcome import Outcome
from wynot.result import TestRecord
from wynot.runner import Commands, Reason, output_tail


def require(record: TestRecord, expected: Outcome, side: str, name: str, sha: str,
            commands: Commands) -> TestRecord:
    """Return ``record`` if it has the expected outcome; else raise what to do next."""
    if record.outcome is expected:
        return record
    command = shlex.join(commands.test)
    if commands.build:
        command = shlex.join(commands.build) + " && " + command
    if record.reason in (Reason.NOT_FOUND.value, Reason.NOT_EXECUTABLE.value):
        output = record.output_text()
        # the runner's own line says what was not found: the command or its interpreter
        what = (output.partition("\n")[0].removeprefix("wynot: ") if output.startswith("wynot: ")
                else f"{record.reason}: {shlex.join(commands.test[:1])}")
        raise CommandNotFoundError(
            f"{what} (it runs in a checkout of {side}, with that checkout as working directory)",
            details=output)
    if record.outcome is Outcome.UNRESOLVED:
        what = f"{side} ({name}) cannot be tested: {record.reason}"
    elif expected is Outcome.PASS:
        what = f"{side} ({name}) fails the test; it must pass"
    else:
        what = f"{side} ({name}) passes the test; it must fail"
    rerun = (f"git worktree add --detach /tmp/wynot-check {sha[:12]} && cd /tmp/wynot-check && "
             f"{command}   (then: git worktree remove --force /tmp/wynot-check)")
    tail = output_tail(Path(record.output)) if record.output else ""
    raise PremiseError(what, details=(
        f"command: {command}\noutput ({record.output}), last lines:\n{_indent(tail)}\n"
        f"rerun by hand: {rerun}"))


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines()) or "    (no output)"
