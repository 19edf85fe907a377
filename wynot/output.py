"""Writing a report in the format asked for, and checking a revert, for the command line.

stdout gets the report (text, JSON, Markdown, or GitHub annotations);
``$GITHUB_STEP_SUMMARY`` gets the Markdown with ``--format github``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path

from wynot.errors import WynotError
from wynot.isolate import Request
from wynot.outcome import Outcome
from wynot.render.github import workflow_commands
from wynot.render.info import ReportInfo, RevertInfo
from wynot.render.json_report import failure_json, report_json
from wynot.render.markdown import render_markdown
from wynot.report import render_text
from wynot.result import RAN, Progress, Result, TestRecord, TestStarted
from wynot.revert import revert_patch, verify_revert

FORMATS = ("text", "json", "markdown", "github")
SUMMARY_ENV = "GITHUB_STEP_SUMMARY"


def write_report(result: Result, info: ReportInfo, fmt: str, *, color: bool) -> None:
    """Print ``result`` on stdout in ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "json":
        write_stdout(json.dumps(report_json(result, info), indent=2) + "\n")
    elif fmt == "markdown":
        write_stdout(render_markdown(result, info))
    elif fmt == "github":
        _write_github(result, info)
    else:
        text = render_text(result, color=color)
        if info.revert is not None:
            text += f"revert: {info.revert.message}\n"
        if info.partial:
            text = (f"wynot: {info.message or 'the run did not finish'}; the best answer "
                    "it had so far (not verified):\n\n" + text)
        write_stdout(text)


def write_failure(info: ReportInfo, fmt: str, good: str, bad: str) -> None:
    """The report of a run that ended with an error, for the machine formats
    (text has the error message on stderr and nothing on stdout)."""
    if fmt == "json":
        write_stdout(json.dumps(failure_json(info, good, bad), indent=2) + "\n")
    elif fmt == "markdown":
        write_stdout(render_markdown(None, info))
    elif fmt == "github":
        _write_github(None, info)


def revert_and_verify(result: Result, request: Request, path: Path,
                      progress: Progress) -> tuple[Result, RevertInfo]:
    """Build the revert patch, write it to ``path``, and test BAD with it applied.

    The verifying test is added to the result's tests (phase ``revert``).
    """
    try:
        patch, how = revert_patch(request.repo, result)
    except WynotError as error:
        return result, RevertInfo("", False, False, f"no revert patch: {error.message}")
    try:
        path.write_bytes(patch)
    except OSError as exc:
        raise WynotError(f"cannot write the revert patch to {path}: {exc}") from exc
    number = len(result.tests) + 1
    output = result.run_dir / f"{number:04d}.out"
    progress(TestStarted(number, "revert", 0, result.bad))
    check = verify_revert(request.repo, result.bad, patch, request.commands, output)
    if check.run is None:
        return result, RevertInfo(str(path), False, False, check.message)
    run = check.run
    record = TestRecord(number, "revert", frozenset(), run.outcome, run.reason.value,
                        run.duration, str(output), RAN)
    progress(record)
    result = dataclasses.replace(result, tests=(*result.tests, record))
    if run.outcome is Outcome.PASS:
        message = (f"revert verified: BAD with {path} applied passes the test "
                   f"(test {number}; made by {how})")
        return result, RevertInfo(str(path), True, True, message, number)
    message = (f"revert NOT verified: BAD with {path} applied does not pass the test "
               f"({run.outcome.name}, {run.reason.value}; test {number}, output {output})")
    return result, RevertInfo(str(path), True, False, message, number)


def _write_github(result: Result | None, info: ReportInfo) -> None:
    markdown = render_markdown(result, info)
    lines = "".join(line + "\n" for line in workflow_commands(result, info))
    summary = os.environ.get(SUMMARY_ENV)
    if not summary:
        write_stdout(lines + "\n" + markdown)
        return
    try:
        with open(summary, "a", encoding="utf-8", errors="surrogateescape") as handle:
            handle.write(markdown)
    except OSError as exc:
        raise WynotError(f"cannot write the job summary to {summary}: {exc}") from exc
    write_stdout(lines)


def write_stdout(text: str) -> None:
    """Write text that may hold surrogate-escaped bytes (non-UTF-8 paths, content)."""
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
    sys.stdout.buffer.flush()
