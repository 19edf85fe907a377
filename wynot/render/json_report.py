"""The JSON report for bots: :func:`wynot.report.to_json` plus what a bot branches on.

The document follows ``docs/schema/report-v2.json`` (``"schema": 2``). It adds
to the first version, without removing anything: ``status``, ``message``,
``partial``, ``version``, ``commit`` (the first bad commit), ``reproduce``,
``counts`` and ``revert``.
"""

from __future__ import annotations

from typing import Any

from wynot.render.info import ReportInfo, counts, reproduce_steps, status_of, wynot_command
from wynot.report import to_json
from wynot.result import CommitInfo, Result

SCHEMA_VERSION = 2


def report_json(result: Result, info: ReportInfo) -> dict[str, Any]:
    """The whole report as JSON-ready data."""
    report = to_json(result, info.exit_code)
    report["schema"] = SCHEMA_VERSION
    report["status"] = status_of(result, partial=info.partial)
    report["message"] = info.message
    report["partial"] = info.partial
    report["version"] = info.version
    report["commit"] = culprit_commit(result)
    report["counts"] = counts(result)
    report["reproduce"] = {"wynot": wynot_command(info), "patch": info.patch_path or None,
                           "steps": reproduce_steps(result, info)}
    revert = info.revert
    report["revert"] = None if revert is None else {
        "path": revert.path or None, "applies": revert.applies, "verified": revert.verified,
        "message": revert.message, "test": revert.test}
    return report


def failure_json(info: ReportInfo, good: str, bad: str) -> dict[str, Any]:
    """The report of a run that ended without a result (premise, error, nothing narrowed)."""
    return {
        "schema": SCHEMA_VERSION, "status": status_of(None), "message": info.message,
        "partial": info.partial, "version": info.version, "exit_code": info.exit_code,
        "good": {"name": good, "commit": None}, "bad": {"name": bad, "commit": None},
        "commit": None, "changes": [], "tests": [],
        "reproduce": {"wynot": wynot_command(info), "patch": None, "steps": []},
        "revert": None,
    }


def culprit_commit(result: Result) -> dict[str, Any] | None:
    """The first bad commit, when the commit phase found one."""
    phase = result.commit_phase
    if phase is None or not phase.bisection.exact:
        return None
    info = phase.commits.get(phase.first_bad)
    return _commit(info) if info is not None else {"sha": phase.first_bad}


def _commit(info: CommitInfo) -> dict[str, Any]:
    return {"sha": info.sha, "subject": info.subject, "author": info.author,
            "email": info.email, "date": info.date}
