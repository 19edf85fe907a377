"""Running the installed ``wynot`` command, and snapshots of a user's repository."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

SCHEMA = Path(__file__).resolve().parent.parent / "docs" / "schema" / "report-v2.json"


def wynot_argv() -> list[str]:
    """The installed console script next to this interpreter, else ``python -m wynot``."""
    script = Path(sys.executable).parent / "wynot"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "wynot"]


def run_wynot(*args: str, cwd: Path | None = None, timeout: float = 300,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed CLI; a JSON report it prints is checked against the schema."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "WYNOT_"))}
    full_env.update(env or {})
    done = subprocess.run([*wynot_argv(), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=full_env, check=False)
    if prints_json_report(args, full_env) and done.stdout:
        validate_report(json.loads(done.stdout))
    return done


def prints_json_report(args: tuple[str, ...], env: dict[str, str]) -> bool:
    """Whether these arguments ask for a JSON report (not `wynot runs --json`)."""
    if args[:1] == ("runs",) or args[:1] == ("clean",):
        return False
    before = args[:args.index("--")] if "--" in args else args
    pairs = list(zip(before, before[1:], strict=False))
    return ("--json" in before or ("--format", "json") in pairs
            or "--format=json" in before or env.get("WYNOT_JSON") == "1"
            or env.get("WYNOT_FORMAT") == "json")


@cache
def report_schema() -> Any:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def validate_report(report: object) -> None:
    """Raise jsonschema.ValidationError unless ``report`` follows docs/schema/report-v2.json."""
    jsonschema.validate(report, report_schema(), cls=jsonschema.Draft202012Validator)


def git_out(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          check=True).stdout


def snapshot(repo: Path) -> dict[str, str]:
    """Everything of a repository that wynot must leave alone, as comparable text.

    Working tree files (tracked, modified and untracked, with their modes),
    the index file, HEAD, every ref, the stash, and the list of worktrees.
    wynot's own state directory (.git/wynot) is excluded: it may change.
    """
    files = {}
    for path in sorted(repo.rglob("*")):
        rel = path.relative_to(repo)
        if rel.parts[0] == ".git":
            continue
        info = path.lstat()
        if path.is_symlink():
            digest = "link:" + os.readlink(path)
        elif path.is_file():
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            digest = "dir"
        files[str(rel)] = f"{oct(info.st_mode)} {digest}"
    git_dir = repo / ".git"
    return {
        "files": repr(files),
        "index": hashlib.sha256((git_dir / "index").read_bytes()).hexdigest(),
        "HEAD": (git_dir / "HEAD").read_text(),
        "refs": git_out(repo, "for-each-ref", "--format=%(refname) %(objectname)"),
        "stash": git_out(repo, "stash", "list"),
        "worktrees": git_out(repo, "worktree", "list", "--porcelain"),
        "status": git_out(repo, "--no-optional-locks", "status", "--porcelain=v2", "--branch",
                          "--untracked-files=all"),
        "admin": repr(sorted(p.name for p in (git_dir / "worktrees").glob("*")))
        if (git_dir / "worktrees").exists() else "[]",
    }


def assert_no_configuration_ran_twice(report: dict) -> None:
    """Within one search each configuration runs once (the verification excepted)."""
    log = Path(report["log"]) / "log.jsonl"
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    ran = [tuple(r["changes"]) for r in records
           if r["source"] == "run" and r["phase"] != "verify" and not r["commit"]]
    assert len(ran) == len(set(ran)), "a configuration ran twice"
