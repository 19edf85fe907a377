"""GitHub Actions output: workflow annotations on the culprit changes.

``::error file=PATH,line=N,endLine=M,title=wynot::MESSAGE`` lines go to stdout,
at most :data:`MAX_ANNOTATIONS` (GitHub shows 10 error annotations per step);
the Markdown of :mod:`wynot.render.markdown` goes to the job summary. Line
numbers are BAD's (the commit the workflow checked out).
"""

from __future__ import annotations

from wynot.changes import Change
from wynot.render.info import ReportInfo, status_of
from wynot.result import CAUSE, Result

MAX_ANNOTATIONS = 10


def workflow_commands(result: Result | None, info: ReportInfo) -> list[str]:
    """The workflow commands for the report: causes first, at most ten."""
    if result is None or not result.changes:
        return [_command("error", {"title": "wynot"}, _headline(result, info))]
    causes = [c for c in result.changes if result.roles.get(c.id) == CAUSE]
    others = [c for c in result.changes if result.roles.get(c.id) != CAUSE]
    lines = []
    for change in (causes or others)[:MAX_ANNOTATIONS]:
        role = result.roles.get(change.id) or "part of the failure-inducing changes"
        message = f"wynot ({status_of(result, partial=info.partial)}): {change.label} is " \
                  f"{'the cause' if role == CAUSE else role}: {_why(role)}"
        lines.append(_command("error", _where(change), message))
    return lines


def _headline(result: Result | None, info: ReportInfo) -> str:
    status = status_of(result, partial=info.partial)
    if result is not None and result.commit_phase is not None:
        phase = result.commit_phase
        commit = phase.commits.get(phase.first_bad)
        subject = f" {commit.subject}" if commit else ""
        return f"wynot ({status}): first bad commit {phase.first_bad[:12]}{subject}"
    return f"wynot ({status}): {info.message or 'no failure-inducing changes found'}"


def _why(role: str) -> str:
    if role == CAUSE:
        return "without it the test passes"
    if role == "context":
        return "the cause needs it to build or run"
    if role == "inseparable":
        return "cause and context at once: without it the test cannot run"
    return "applied to GOOD together they make the test fail"


def _where(change: Change) -> dict[str, str]:
    props = {"file": change.path, "title": "wynot"}
    if change.hunk is not None:
        first, last = annotated_lines(change.hunk.text, change.hunk.new_start)
        props["line"] = str(first)
        if last > first:
            props["endLine"] = str(last)
    return props


def annotated_lines(text: str, new_start: int) -> tuple[int, int]:
    """The first and last line in BAD that a hunk adds or changes (context left out);
    for a pure deletion, the line where the removed lines were."""
    line = max(new_start, 1)
    added: list[int] = []
    deleted_at: list[int] = []
    for row in text.split("\n")[1:]:
        if row.startswith("+"):
            added.append(line)
            line += 1
        elif row.startswith("-"):
            deleted_at.append(line)
        elif row.startswith(" "):
            line += 1
    marks = added or deleted_at or [max(new_start, 1)]
    return min(marks), max(marks)


def _command(name: str, props: dict[str, str], message: str) -> str:
    """One workflow command, escaped as the runner expects."""
    joined = ",".join(f"{key}={_escape_property(value)}" for key, value in props.items())
    return f"::{name} {joined}::{_escape_data(message)}"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")
