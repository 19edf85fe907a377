"""Turn a :class:`~wynot.isolate.Result` into text for people and JSON for machines."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from typing import Any

import click

from wynot.changes import Change, ChangeKind, FileDiff
from wynot.outcome import Outcome
from wynot.result import (
    CACHED,
    CAUSE,
    CONFLICT,
    INSEPARABLE,
    PREDICTED,
    CommitInfo,
    CommitPhase,
    Origin,
    Result,
    plural,
)

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
        parts.append(f"{len(result.changes)} of {plural(len(result.diff.changes), 'change')}")
    per_phase = ", ".join(f"{p} {phases[p]}" for p in PHASES if phases[p])
    parts.append(f"{plural(len(real), 'test')} run ({per_phase}): {by_outcome[Outcome.PASS]} pass, "
                 f"{by_outcome[Outcome.FAIL]} fail, {by_outcome[Outcome.UNRESOLVED]} unresolved")
    sources[CACHED] -= result.from_earlier_runs
    for source, words in ((PREDICTED, "predicted unresolved without running"),
                          (CONFLICT, "not writable (path conflicts)"),
                          (CACHED, "answered by an earlier test of this run")):
        if sources[source]:
            parts.append(f"{sources[source]} {words}")
    if result.from_earlier_runs:
        parts.append(f"{result.from_earlier_runs} outcomes from the cache of earlier runs; "
                     "--no-cache to rerun")
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
        if not result.patch_on_good:
            lines.append(f"wynot: the patch applies to {result.patch_base[:12]}, not to GOOD: "
                         f"{result.patch_note}")
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
    where = "GOOD"
    if result.diff is not None and result.diff.good != result.good:
        low = result.diff.good[:12]
        where = (f"{low} and, carried over, to GOOD" if result.patch_on_good
                 else f"{low} (the patch applies there, not to GOOD)")
    if result.verified and result.minimal and not separable(result):
        return (f"{count} failure-inducing {noun}, verified: applied alone to {where}, {they}; "
                "the cause could not be separated from its context: without any one of "
                f"{'it' if count == 1 else 'them'} the test cannot run")
    if result.verified and result.minimal:
        return f"{count} failure-inducing {noun}, verified: applied alone to {where}, {they}"
    if result.verified:
        return (f"{count} {noun} that make {where} fail (NOT minimal: the search was "
                "stopped before it finished)")
    return f"{count} {noun} (not verified)"


def separable(result: Result) -> bool | None:
    """Whether labelling told the cause apart from its context (None: not labelled)."""
    if not result.roles:
        return None
    return INSEPARABLE not in result.roles.values()


def _render_commit_phase(phase: CommitPhase, style: Style) -> list[str]:
    """The commit phase's result, worded as git bisect words it."""
    lines = [style(f"wynot: commit phase: {plural(phase.commit_count, 'commit')} between GOOD "
                   f"and BAD, {phase.test_count} tested", bold=True)]
    for followed in phase.followed:
        info = phase.commits.get(followed)
        lines.append(f"wynot: {followed[:12]} {info.subject if info else ''} is a merge whose "
                     "merged branch fails on its own: followed that branch")
    culprit = phase.culprit
    if culprit is not None and culprit.flaky:
        return [*lines, style(f"wynot: flaky: no culprit. The failure does not reproduce "
                              f"every time (probability {culprit.confidence:.3f}, estimated "
                              f"flake rate {culprit.flake_rate:.2f})", bold=True)]
    if culprit is not None:
        lines.append(f"wynot: flake-aware search: probability {culprit.confidence:.3f}"
                     f"{'' if culprit.decided else ' (below the confidence asked for)'}, "
                     f"estimated flake rate {culprit.flake_rate:.2f}")
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
    """A path as git prints it in ``---``/``+++`` lines: C-quoted when it holds a
    control character, a double quote or a backslash (bytes above 127 stay as they are)."""
    if path is None:
        return "/dev/null"
    name = prefix + path
    if not any(ch in _C_ESCAPES or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in name):
        return name
    return '"' + _escape(name) + '"'


_C_ESCAPES = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v",
              "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def _escape(text: str) -> str:
    """Control characters, '"' and '\\' as git's C-style escapes (octal when no letter)."""
    return "".join(_C_ESCAPES.get(ch) or (f"\\{ord(ch):03o}" if ord(ch) < 0x20 or ord(ch) == 0x7F
                                          else ch) for ch in text)


def _role_line(result: Result, change: Change) -> str:
    role = result.roles.get(change.id)
    if role == CAUSE:
        what = "cause: without it the test passes"
    elif role == INSEPARABLE:
        what = "cause and context at once: without it the test cannot run"
    elif role is not None:
        what = f"context: without it {_without(result, change)}"
    else:
        what = "not labelled"
    label = "".join(_escape(ch) if ord(ch) < 0x20 or ord(ch) == 0x7F else ch
                    for ch in change.label)
    return f"# {label} - {what}{_origin_text(result.origins.get(change.id, ()))}"


def _without(result: Result, change: Change) -> str:
    """Why the answer without ``change`` cannot be judged, from its label test."""
    rest = frozenset(c.id for c in result.changes) - {change.id}
    record = next((t for t in reversed(result.tests) if t.ids == rest and not t.commit
                   and t.outcome is Outcome.UNRESOLVED), None)
    if record is not None and record.source == CONFLICT:
        return "the configuration cannot be written (a path conflict)"
    if record is not None and record.reason.startswith("timed out"):
        return "the test times out"
    return "the test cannot run (needed to build)"  # build failed, exit 125, import error


def _origin_text(origins: tuple[Origin, ...]) -> str:
    """' (from SHA SUBJECT)', or each commit with its share of the lines."""
    if not origins:
        return ""
    if len(origins) == 1:
        return f" (from {origins[0].commit.short} {origins[0].commit.subject})"
    parts = [f"{o.commit.short} {o.commit.subject}, {plural(o.lines, 'line')}" for o in origins]
    return " (from " + "; ".join(parts) + ")"



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
        "separable": separable(result),
        "total_changes": len(result.diff.changes) if result.diff is not None else None,
        "changes": [_change_json(c, result) for c in result.changes],
        "patch": {"base": result.patch_base or result.good, "on_good": result.patch_on_good,
                  "note": result.patch_note or None},
        "tests": [
            {"number": t.number, "phase": t.phase, "outcome": t.outcome.value,
             "reason": t.reason, "duration": round(t.duration, 3), "source": t.source,
             "ran": t.ran, "changes": t.size, "output": t.output,
             "resolving": t.resolving is not None, "commit": t.commit or None,
             "earlier_run": t.earlier_run}
            for t in result.tests
        ],
        "from_cache": result.from_earlier_runs,
        "summary": summary_line(result),
        "elapsed": round(result.elapsed, 3),
        "log": os.fspath(result.run_dir),
    }
    if result.commit_phase is not None:
        phase = result.commit_phase
        report["commit_phase"] = {
            "commits": phase.commit_count,
            "tested": phase.test_count,
            "exact": phase.bisection.exact,
            "last_good": _commit_json(phase.commits.get(phase.last_good), phase.last_good),
            "first_bad": _commit_json(phase.commits.get(phase.first_bad), phase.first_bad),
            "skipped": list(phase.skipped),
            "combination": phase.combination,
            "followed_merges": list(phase.followed),
            "hunk_range": list(phase.hunk_range),
        }
        if phase.culprit is not None:
            report["commit_phase"]["flaky"] = {
                "no_culprit": phase.culprit.flaky, "probability": phase.culprit.confidence,
                "decided": phase.culprit.decided, "flake_rate": phase.culprit.flake_rate}
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
    origins = result.origins.get(change.id, ())
    if origins:
        entry["commit"] = _commit_json(origins[0].commit, origins[0].commit.sha)
        entry["commits"] = [{**_commit_json(o.commit, o.commit.sha), "added": o.added,
                             "removed": o.removed} for o in origins]
    if change.hunk is not None:
        entry.update(old_start=change.hunk.old_start, old_lines=change.hunk.old_len,
                     new_start=change.hunk.new_start, new_lines=change.hunk.new_len,
                     function=change.hunk.header, diff=change.hunk.text)
    return entry
