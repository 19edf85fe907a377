"""Turn a :class:`~wynot.isolate.Result` into text for people and JSON for machines."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import click

from wynot.changes import Change, ChangeKind, FileDiff
from wynot.dd import Outcome
from wynot.isolate import CAUSE, Result
from wynot.tester import CACHED, CONFLICT, PREDICTED

JSON_SCHEMA_VERSION = 1


def summary_line(result: Result) -> str:
    """Changes found, tests by outcome and phase, cache hits, time."""
    real = [t for t in result.tests if t.ran]
    by_outcome = Counter(t.outcome for t in real)
    phases = Counter(t.phase for t in real)
    sources = Counter(t.source for t in result.tests)
    parts = [
        f"{len(result.changes)} of {len(result.diff.changes)} changes",
        f"{len(real)} tests run (premise {phases['premise']}, search {phases['search']}, "
        f"label {phases['label']}, verify {phases['verify']}): "
        f"{by_outcome[Outcome.PASS]} pass, {by_outcome[Outcome.FAIL]} fail, "
        f"{by_outcome[Outcome.UNRESOLVED]} unresolved",
    ]
    for source, words in ((PREDICTED, "predicted unresolved without running"),
                          (CONFLICT, "not writable (path conflicts)"),
                          (CACHED, "answered from the cache")):
        if sources[source]:
            parts.append(f"{sources[source]} {words}")
    parts.append(f"{result.elapsed:.1f} s")
    return "; ".join(parts)


def render_text(result: Result, *, color: bool) -> str:
    """The isolated changes as a diff, a verdict and the summary line."""
    def style(text: str, **kw: Any) -> str:
        return click.style(text, **kw) if color else text

    count = len(result.changes)
    noun = "change" if count == 1 else "changes"
    they = "it fails" if count == 1 else "they fail"
    if result.verified and result.minimal:
        verdict = f"{count} failure-inducing {noun}, verified: applied alone to GOOD, {they}"
    elif result.verified:
        verdict = (f"{count} {noun} that make GOOD fail (NOT minimal: the search was "
                   "stopped before it finished)")
    else:
        verdict = f"{count} {noun} (not verified)"
    lines = [style(f"wynot: {verdict}", bold=True), ""]
    for fd, changes in _by_file(result):
        lines.append(style(f"--- {_path('a/', fd.old_path)}", bold=True))
        lines.append(style(f"+++ {_path('b/', fd.new_path)}", bold=True))
        for change in changes:
            lines.append(style(_role_line(result, change), fg="yellow"))
            lines.extend(_render_change(change, fd, style))
        lines.append("")
    lines.append(summary_line(result))
    lines.append(f"log: {result.run_dir}")
    return "\n".join(lines) + "\n"


def _path(prefix: str, path: str | None) -> str:
    return "/dev/null" if path is None else prefix + path


def _role_line(result: Result, change: Change) -> str:
    role = result.roles.get(change.id)
    if role == CAUSE:
        what = "cause: without it the test passes"
    elif role is not None:
        what = "context: without it the test cannot run (needed to build)"
    else:
        what = "not labelled"
    return f"# {change.label} - {what}"


def _by_file(result: Result) -> list[tuple[FileDiff, list[Change]]]:
    grouped: dict[int, list[Change]] = {}
    for change in result.changes:
        grouped.setdefault(change.file, []).append(change)
    return [(result.diff.files[i], grouped[i]) for i in sorted(grouped)]


def _render_change(change: Change, fd: FileDiff, style: Any) -> list[str]:
    if change.kind is ChangeKind.HUNK and change.hunk is not None:
        out = []
        for line in change.hunk.text.rstrip("\n").split("\n"):
            if line.startswith("@@"):
                out.append(style(line, fg="cyan"))
            elif line.startswith("+"):
                out.append(style(line, fg="green"))
            elif line.startswith("-"):
                out.append(style(line, fg="red"))
            else:
                out.append(line)
        return out
    return [style(f"@@ {change.label} @@", fg="cyan")]


def to_json(result: Result, exit_code: int) -> dict[str, Any]:
    """A versioned, machine-readable report (for CI bots)."""
    return {
        "schema": JSON_SCHEMA_VERSION,
        "good": {"name": result.good_name, "commit": result.good},
        "bad": {"name": result.bad_name, "commit": result.bad},
        "exit_code": exit_code,
        "minimal": result.minimal,
        "verified": result.verified,
        "total_changes": len(result.diff.changes),
        "changes": [_change_json(c, result.roles.get(c.id)) for c in result.changes],
        "tests": [
            {"number": t.number, "phase": t.phase, "outcome": t.outcome.value,
             "reason": t.reason, "duration": round(t.duration, 3), "source": t.source,
             "ran": t.ran, "changes": len(t.ids), "output": t.output,
             "resolving": t.resolving is not None}
            for t in result.tests
        ],
        "summary": summary_line(result),
        "elapsed": round(result.elapsed, 3),
        "log": os.fspath(result.run_dir),
    }


def _change_json(change: Change, role: str | None) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": change.id, "label": change.label, "path": change.path, "kind": change.kind.value,
        "role": role,
    }
    if change.hunk is not None:
        entry.update(old_start=change.hunk.old_start, old_lines=change.hunk.old_len,
                     new_start=change.hunk.new_start, new_lines=change.hunk.new_len,
                     function=change.hunk.header, diff=change.hunk.text)
    return entry
