"""What a run keeps on disk to be reported again: ``wynot report [RUN]``.

Beside ``log.jsonl`` (one line per test, written as the tests end), a run
directory holds:

    request.json   the request: wynot's arguments, GOOD, BAD, commands, diff options
    commits.json   the commit phase's result, once it has one
    result.json    the finished result (exact: every test, label and origin)
    answer.patch   the answer as a patch for ``git apply`` (on GOOD, or on the commit its
                   first line names)
    failure.json   the error a run ended with (premise, nothing narrowed, ...)

A run without ``result.json`` (interrupted, or stopped by an error) is rebuilt
from the log: its best answer so far is the smallest configuration seen to
fail, not verified, and its diff is read again from git (no test runs).
"""

from __future__ import annotations

import dataclasses
import json
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from wynot.bisect import Bisection
from wynot.cache import log_ids
from wynot.diffread import read_diff
from wynot.errors import WynotError
from wynot.export import export_patch
from wynot.flaky import Culprit
from wynot.outcome import Outcome
from wynot.patch import tree_states
from wynot.render.info import ReportInfo, RevertInfo, status_of
from wynot.result import CACHED, RAN, CommitInfo, CommitPhase, Origin, Result, TestRecord
from wynot.runner import Commands

REQUEST, COMMITS, RESULT, PATCH, FAILURE = (
    "request.json", "commits.json", "result.json", "answer.patch", "failure.json")


def save_request(run_dir: Path, *, argv: Iterable[str], version: str, good: str, bad: str,
                 names: tuple[str, str], commands: Commands, context: int,
                 strategy: str) -> None:
    pattern = commands.fail_pattern
    _write(run_dir / REQUEST, {
        "version": version, "argv": list(argv), "started": time.time(),
        "good": good, "bad": bad, "good_name": names[0], "bad_name": names[1],
        "test": list(commands.test), "build": list(commands.build or []) or None,
        "timeout": commands.timeout,
        "fail_pattern": os.fsdecode(pattern.pattern) if pattern is not None else None,
        "context": context, "strategy": strategy,
    })


def save_commit_phase(run_dir: Path, phase: CommitPhase) -> None:
    b = phase.bisection
    _write(run_dir / COMMITS, {
        "chain": list(phase.chain),
        "bisection": {"last_good": b.last_good, "first_bad": b.first_bad,
                      "skipped": list(b.skipped), "tested": list(b.tested)},
        "commits": {sha: _commit(info) for sha, info in phase.commits.items()},
        "hunk_range": list(phase.hunk_range),
        "range_records": [r.number for r in phase.range_records],
        "combination": phase.combination, "shown": phase.shown,
        "culprit": _culprit_json(phase.culprit),
        "followed": list(phase.followed), "between": phase.between, "tested": phase.tested,
    })


def _culprit_json(culprit: Culprit | None) -> dict[str, Any] | None:
    if culprit is None:
        return None
    return {"first_bad": culprit.first_bad, "confidence": culprit.confidence,
            "decided": culprit.decided, "last_good": culprit.last_good,
            "skipped": list(culprit.skipped), "tested": list(culprit.tested),
            "outcomes": [o.value for o in culprit.outcomes], "flake_rate": culprit.flake_rate}


def _culprit(data: dict[str, Any] | None) -> Culprit | None:
    if data is None:
        return None
    return Culprit(data["first_bad"], data["confidence"], data["decided"], data["last_good"],
                   tuple(data["skipped"]), tuple(data["tested"]),
                   tuple(Outcome(o) for o in data["outcomes"]), data["flake_rate"])


def save_failure(run_dir: Path, message: str, exit_code: int) -> None:
    _write(run_dir / FAILURE, {"message": message, "exit_code": exit_code})


def save_result(result: Result, info: ReportInfo) -> None:
    """Write the finished result (and its patch) into its run directory."""
    run_dir = result.run_dir
    if result.patch:
        (run_dir / PATCH).write_bytes(result.patch)
    revert = info.revert
    _write(run_dir / RESULT, {
        "range": [result.diff.good, result.diff.bad] if result.diff is not None else None,
        "total": len(result.diff.changes) if result.diff is not None else None,
        "answer": [c.id for c in result.changes],
        "labels": [c.label for c in result.changes],
        "roles": {str(k): v for k, v in result.roles.items()},
        "minimal": result.minimal, "elapsed": result.elapsed,
        "tests": [_test(t) for t in result.tests],
        "origins": {str(k): [{**_commit(o.commit), "added": o.added, "removed": o.removed}
                             for o in v] for k, v in result.origins.items()},
        "patch_base": result.patch_base, "patch_note": result.patch_note,
        "exit_code": info.exit_code, "message": info.message,
        "status": status_of(result, partial=info.partial),
        "revert": None if revert is None else {
            "path": revert.path, "applies": revert.applies, "verified": revert.verified,
            "message": revert.message, "test": revert.test},
    })


def load_run(run_dir: Path, repo: Path) -> tuple[Result | None, ReportInfo]:
    """The run's result and report info, exact if it finished, else rebuilt."""
    request = _read(run_dir / REQUEST)
    if request is None:
        raise WynotError(f"{run_dir} holds no request.json: it is not a run this version "
                         "of wynot can report (an older wynot did not keep one)")
    phase = _load_phase(run_dir)
    finished = _read(run_dir / RESULT)
    failure = _read(run_dir / FAILURE) or {}
    tests = (tuple(_record(t) for t in finished["tests"]) if finished is not None
             else _log_records(run_dir))
    if phase is not None:
        by_number = {t.number: t for t in tests}
        low, high = phase["range_records"]
        phase = phase["phase"](by_number[low], by_number[high])
    patch_path = str(run_dir / PATCH) if (run_dir / PATCH).exists() else ""
    info = ReportInfo(
        version=request["version"], argv=tuple(request["argv"]), test=tuple(request["test"]),
        build=tuple(request["build"]) if request["build"] else None,
        exit_code=(finished or failure).get("exit_code", 130),
        message=(finished or failure).get("message", "the run did not finish (interrupted, "
                                                      "or still running)"),
        partial=finished is None, patch_path=patch_path,
        revert=_revert((finished or {}).get("revert")))
    base = Result(good=request["good"], bad=request["bad"], good_name=request["good_name"],
                  bad_name=request["bad_name"], diff=None, changes=(), roles={},
                  minimal=finished is not None, tests=tests, elapsed=_elapsed(request, finished,
                  run_dir), patch=b"", run_dir=run_dir, commit_phase=phase)
    if finished is not None:
        return _finished(base, finished, repo, request["context"]), info
    result = _best_so_far(base, repo, request, phase)
    if result is None or not result.patch:
        return result, info
    (run_dir / PATCH).write_bytes(result.patch)
    return result, dataclasses.replace(info, patch_path=str(run_dir / PATCH))


def _finished(base: Result, data: dict[str, Any], repo: Path, context: int) -> Result:
    if data["range"] is None:
        return base
    diff = read_diff(repo, data["range"][0], data["range"][1], context=context)
    wanted = frozenset(data["answer"])
    changes = tuple(c for c in diff.changes if c.id in wanted)
    if len(diff.changes) != data["total"] or [c.label for c in changes] != data["labels"]:
        raise WynotError("the diff of the run's range no longer reads as it did (another "
                         "git version or configuration?); its log is still in "
                         f"{base.run_dir}")
    patch = base.run_dir / PATCH
    return dataclasses.replace(
        base, diff=diff, changes=changes, roles={int(k): v for k, v in data["roles"].items()},
        minimal=data["minimal"], patch=patch.read_bytes() if patch.exists() else b"",
        origins={int(k): _origins(v) for k, v in data["origins"].items()},
        patch_base=data.get("patch_base", ""), patch_note=data.get("patch_note", ""))


def _best_so_far(base: Result, repo: Path, request: dict[str, Any],
                 phase: CommitPhase | None) -> Result | None:
    """The smallest configuration of the hunk phase seen to fail, if it began."""
    failing = [t.ids for t in base.tests if t.outcome is Outcome.FAIL and not t.commit and t.ids
               and t.source in (RAN, CACHED)]
    if not failing:
        return base
    low, high = phase.hunk_range if phase is not None else (request["good"], request["bad"])
    diff = read_diff(repo, low, high, context=request["context"])
    best = min(failing, key=len)
    changes = tuple(c for c in diff.changes if c.id in best)
    patch = export_patch(repo, diff.good, tree_states(diff, best))
    return dataclasses.replace(base, diff=diff, changes=changes, minimal=False, patch=patch)


def _load_phase(run_dir: Path) -> dict[str, Any] | None:
    data = _read(run_dir / COMMITS)
    if data is None:
        return None
    b = data["bisection"]
    bisection = Bisection(b["last_good"], b["first_bad"], tuple(b["skipped"]),
                          tuple(b["tested"]))
    commits = {sha: _commit_info(v) for sha, v in data["commits"].items()}

    def build(low: TestRecord, high: TestRecord) -> CommitPhase:
        return CommitPhase(tuple(data["chain"]), bisection, commits,
                           (data["hunk_range"][0], data["hunk_range"][1]), (low, high),
                           data["combination"], data["shown"], _culprit(data.get("culprit")),
                           followed=tuple(data.get("followed", ())),
                           between=data.get("between", len(data["chain"]) - 2),
                           tested=data.get("tested", len(bisection.tested)))

    return {"phase": build, "range_records": data["range_records"]}


def _log_records(run_dir: Path) -> tuple[TestRecord, ...]:
    """The tests of the log; a predicted test's ids are not logged (only their count)."""
    records = []
    earlier: dict[int, frozenset[int]] = {}
    try:
        lines = (run_dir / "log.jsonl").read_text(encoding="utf-8").splitlines()
    except OSError:
        lines = []
    for line in lines:
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # the line being written when the run was killed
        if entry.get("phase") == "speculative":
            continue  # run ahead by an idle worker (-j) and never asked: not evidence
        ids = log_ids(entry.get("changes"), earlier) or frozenset()
        earlier[entry["number"]] = ids
        records.append(TestRecord(
            entry["number"], entry["phase"], ids,
            Outcome(entry["outcome"]), entry["reason"], entry["duration"], entry["output"],
            entry["source"], commit=entry.get("commit") or "",
            earlier_run=bool(entry.get("earlier_run"))))
    return tuple(records)


def _test(t: TestRecord) -> dict[str, Any]:
    return {"number": t.number, "phase": t.phase, "ids": _ranges(t.ids),
            "outcome": t.outcome.value, "reason": t.reason, "duration": t.duration,
            "output": t.output, "source": t.source, "commit": t.commit,
            "resolving": None if t.resolving is None else _ranges(t.resolving),
            "earlier_run": t.earlier_run}


def _record(d: dict[str, Any]) -> TestRecord:
    return TestRecord(d["number"], d["phase"], _unranges(d["ids"]), Outcome(d["outcome"]),
                      d["reason"], d["duration"], d["output"], d["source"],
                      None if d["resolving"] is None else _unranges(d["resolving"]),
                      d["commit"], earlier_run=bool(d.get("earlier_run")))


def _ranges(ids: Iterable[int]) -> str:
    """``{1, 2, 3, 7}`` as ``"1-3,7"``: configurations are mostly runs of ids."""
    runs: list[list[int]] = []
    for i in sorted(ids):
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs)


def _unranges(text: str) -> frozenset[int]:
    ids: set[int] = set()
    for part in filter(None, text.split(",")):
        a, _, b = part.partition("-")
        ids.update(range(int(a), int(b or a) + 1))
    return frozenset(ids)


def _commit(info: CommitInfo) -> dict[str, Any]:
    return {"sha": info.sha, "author": info.author, "email": info.email, "date": info.date,
            "subject": info.subject, "parents": list(info.parents)}


def _commit_info(d: dict[str, Any]) -> CommitInfo:
    return CommitInfo(d["sha"], d["author"], d["email"], d["date"], d["subject"],
                      tuple(d["parents"]))


def _origins(saved: list[dict[str, Any]] | dict[str, Any]) -> tuple[Origin, ...]:
    """A change's credited commits (an older run saved one commit, without lines)."""
    entries = saved if isinstance(saved, list) else [saved]
    return tuple(Origin(_commit_info(d), d.get("added", 0), d.get("removed", 0))
                 for d in entries)


def _revert(d: dict[str, Any] | None) -> RevertInfo | None:
    return None if d is None else RevertInfo(d["path"], d["applies"], d["verified"],
                                             d["message"], d["test"])


def _elapsed(request: dict[str, Any], finished: dict[str, Any] | None, run_dir: Path) -> float:
    if finished is not None:
        return float(finished["elapsed"])
    try:
        end = (run_dir / "log.jsonl").stat().st_mtime
    except OSError:
        return 0.0
    return max(0.0, end - float(request["started"]))


def _write(path: Path, data: object) -> None:
    """Write JSON atomically: a reader sees the old file or the new one, never half."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(tmp, path)


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None

