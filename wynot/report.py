"""Turn a :class:`~wynot.isolate.Result` into text for people and JSON for machines."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from typing import Any

import click

from wynot.changes import Change, ChangeKind, FileDiff
from wynot.outcome import Outcome
from wynot.result import CACHED, CAUSE, CONFLICT, PREDICTED, CommitInfo, CommitPhase, Result

JSON_SCHEMA_VERSION = 2  # docs/schema/report-v2.json
PHASES = ("premise", "commits", "search", "label", "verify", "revert")
Style = Callable[..., str]


def summary_line(result: Result) -> str:
    """Changes found, tests by outcome and phase, answers that cost no run, time."""
    real = [t for t in result.tests if t.ran]
    by_outcome = Counter(t.outcome for t in real)
    phases = Counter(t.phase for t in real)
    sources = Counter(t.source for t in result.tests)
    parts = []
    if result.diff is not None:
        parts.append(f"{len(result.changes)} of {len(result.diff.changes)} changes")
    per_phase = ", ".join(f"{p} {phases[p]}" for p in PHASES if phases[p])
    parts.append(f"{len(real)} tests run ({per_phase}): {by_outcome[Outcome.PASS]} pass, "
                 f"{by_outcome[Outcome.FAIL]} fail, {by_outcome[Outcome.UNRESOLVED]} unresolved")
    for source, words in ((PREDICTED, "predicted unresolved without running"),
                          (CONFLICT, "not writable (path conflicts)"),
                          (CACHED, "answered from the cache")):
        if sources[source]:
            parts.append(f"{sources[source]} {words}")
    parts.append(f"{result.elapsed:.1f} s")
    return "; ".join(parts)


def render_text(result: Result, *, color: bool) -> str:
    """The commit phase's verdict, the isolated changes as a diff, the summary line."""
    def style(text: str, **kw: Any) -> str:
        return click.style(text, **kw) if color else text

    lines: list[str] = []
    if result.commit_phase is not None:
        lines.extend(_render_commit_phase(result.commit_phase, style))
        lines.append("")
    if result.diff is not None:
        lines.append(style(f"wynot: {_verdict(result)}", bold=True))
        lines.append("")
        for fd, changes in _by_file(result):
            lines.append(style(f"--- {_path('a/', fd.old_path)}", bold=True))
            lines.append(style(f"+++ {_path('b/', fd.new_path)}", bold=True))
            for change in changes:
                lines.append(style(_role_line(result, change), fg="yellow"))
                lines.extend(_render_change(change, style))
            lines.append("")
    lines.append(summary_line(result))
    lines.append(f"log: {result.run_dir}")
    return "\n".join(lines) + "\n"


def _verdict(result: Result) -> str:
    count = len(result.changes)
    noun = "change" if count == 1 else "changes"
    they = "it fails" if count == 1 else "they fail"
    if result.verified and result.minimal:
        return f"{count} failure-inducing {noun}, verified: applied alone to GOOD, {they}"
    if result.verified:
        return (f"{count} {noun} that make GOOD fail (NOT minimal: the search was "
                "stopped before it finished)")
    return f"{count} {noun} (not verified)"


def _render_commit_phase(phase: CommitPhase, style: Style) -> list[str]:
    """The commit phase's result, worded as git bisect words it."""
    tested = len(phase.bisection.tested)
    lines = [style(f"wynot: commit phase: {len(phase.chain) - 2} commits between GOOD and "
                   f"BAD, {tested} tested", bold=True)]
    if not phase.bisection.exact:
        lines.append("There are only 'skip'ped commits left to test.")
        lines.append("The first bad commit could be any of:")
        for sha in (*phase.skipped, phase.first_bad):
            info = phase.commits.get(sha)
            lines.append(f"{sha} {info.subject if info else ''}".rstrip())
        lines.append(f"wynot: searching the hunks of {phase.last_good[:12]}.."
                     f"{phase.first_bad[:12]} together")
        return lines
    lines.append(f"{phase.first_bad} is the first bad commit")
    lines.extend(phase.shown.splitlines())
    if phase.combination:
        merge = phase.commits[phase.first_bad]
        lines.append(f"wynot: it merges {merge.parents[1][:12]} into {merge.parents[0][:12]}; "
                     "both pass on their own, so the regression comes from combining them: "
                     f"searching the hunks of the merge base {phase.hunk_range[0][:12]}.."
                     f"{phase.first_bad[:12]}")
    return lines


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
    origin = result.origins.get(change.id)
    where = f" (from {origin.short} {origin.subject})" if origin else ""
    return f"# {change.label} - {what}{where}"


def _by_file(result: Result) -> list[tuple[FileDiff, list[Change]]]:
    assert result.diff is not None
    grouped: dict[int, list[Change]] = {}
    for change in result.changes:
        grouped.setdefault(change.file, []).append(change)
    return [(result.diff.files[i], grouped[i]) for i in sorted(grouped)]


def _render_change(change: Change, style: Style) -> list[str]:
    if change.kind is ChangeKind.HUNK and change.hunk is not None:
        colors = {"@": "cyan", "+": "green", "-": "red"}
        return [style(line, fg=colors[line[0]]) if line[:1] in colors else line
                for line in change.hunk.text.rstrip("\n").split("\n")]
    return [style(f"@@ {change.label} @@", fg="cyan")]


def to_json(result: Result, exit_code: int) -> dict[str, Any]:
    """A versioned, machine-readable report (for CI bots)."""
    report: dict[str, Any] = {
        "schema": JSON_SCHEMA_VERSION,
        "good": {"name": result.good_name, "commit": result.good},
        "bad": {"name": result.bad_name, "commit": result.bad},
        "exit_code": exit_code,
        "minimal": result.minimal,
        "verified": result.verified,
        "total_changes": len(result.diff.changes) if result.diff is not None else None,
        "changes": [_change_json(c, result) for c in result.changes],
        "tests": [
            {"number": t.number, "phase": t.phase, "outcome": t.outcome.value,
             "reason": t.reason, "duration": round(t.duration, 3), "source": t.source,
             "ran": t.ran, "changes": len(t.ids), "output": t.output,
             "resolving": t.resolving is not None, "commit": t.commit or None}
            for t in result.tests
        ],
        "summary": summary_line(result),
        "elapsed": round(result.elapsed, 3),
        "log": os.fspath(result.run_dir),
    }
    if result.commit_phase is not None:
        phase = result.commit_phase
        report["commit_phase"] = {
            "commits": len(phase.chain) - 2,
            "tested": len(phase.bisection.tested),
            "exact": phase.bisection.exact,
            "last_good": _commit_json(phase.commits.get(phase.last_good), phase.last_good),
            "first_bad": _commit_json(phase.commits.get(phase.first_bad), phase.first_bad),
            "skipped": list(phase.skipped),
            "combination": phase.combination,
            "hunk_range": list(phase.hunk_range),
        }
    return report


def _commit_json(info: CommitInfo | None, sha: str) -> dict[str, Any]:
    if info is None:
        return {"sha": sha}
    return {"sha": info.sha, "author": info.author, "email": info.email, "date": info.date,
            "subject": info.subject}


def _change_json(change: Change, result: Result) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": change.id, "label": change.label, "path": change.path, "kind": change.kind.value,
        "role": result.roles.get(change.id),
    }
    origin = result.origins.get(change.id)
    if origin is not None:
        entry["commit"] = _commit_json(origin, origin.sha)
    if change.hunk is not None:
        entry.update(old_start=change.hunk.old_start, old_lines=change.hunk.old_len,
                     new_start=change.hunk.new_start, new_lines=change.hunk.new_len,
                     function=change.hunk.header, diff=change.hunk.text)
    return entry
