"""The commands beside the search: ``wynot report``, ``wynot runs``, ``wynot clean``.

They read (``report``, ``runs``) or delete (``clean``) the state directory,
``<git-common-dir>/wynot``; none of them runs a test. A run is named by its id
(``wynot runs`` lists them), a unique prefix of it, a path to its directory,
or ``latest`` (the default).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import click

from wynot.cache import state_dir
from wynot.errors import ExitCode, WynotError
from wynot.git import find_repo
from wynot.output import FORMATS, write_report
from wynot.render.info import INCONCLUSIVE
from wynot.result import plural
from wynot.runstore import FAILURE, REQUEST, RESULT, load_run
from wynot.scratch import remove_kept_worktrees
from wynot.state import RUNS, clear_state, list_runs, prune_runs

_SETTINGS = {"auto_envvar_prefix": "WYNOT", "help_option_names": ["-h", "--help"]}
_REPO = click.option("-C", "--repo", type=click.Path(file_okay=False, path_type=Path),
                     default=".", show_default=True, help="The git repository.")


@click.command(context_settings=_SETTINGS)
@click.argument("run", default="latest")
@_REPO
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text",
              show_default=True, help="As for the search: text, json, markdown, github.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True, help="Color the diff (text).")
def report(run: str, repo: Path, output_format: str, color: str) -> None:
    """Print the report of RUN again, without running a test.

    A run that did not finish (interrupted, stopped by an error) shows the best
    answer it had: the smallest configuration seen to fail, not verified.
    Exit code 0 when the report was printed, 1 when the run cannot be read.
    """
    def body() -> None:
        toplevel, state = _state(repo)
        run_dir = _find_run(state, run)
        result, info = load_run(run_dir, toplevel)
        if result is None:
            raise WynotError(f"run {run_dir.name} has nothing to report")
        use_color = color == "always" or (color == "auto" and sys.stdout.isatty())
        write_report(result, info, output_format, color=use_color)

    _guard(body)


@click.command(context_settings=_SETTINGS)
@_REPO
@click.option("--json", "as_json", is_flag=True, help="One JSON object per run, in a list.")
def runs(repo: Path, as_json: bool) -> None:
    """List the runs kept in <git-dir>/wynot/runs, oldest first."""
    def body() -> None:
        _, state = _state(repo)
        rows = [_row(info.path, info.size, info.running) for info in list_runs(state)]
        if as_json:
            click.echo(json.dumps(rows, indent=2))
            return
        if rows:
            click.echo(f"{'RUN':<22}{'DATE':<18}{'GOOD':<13}{'BAD':<13}{'STATUS':<13}"
                       f"{'SIZE':>8}  COMMAND")
        for row in rows:
            click.echo(f"{row['id']:<22}{row['date']:<18}{row['good']:<12.12} "
                       f"{row['bad']:<12.12} {row['status']:<12} {_size(row['size']):>8}  "
                       f"{row['command']}")

    _guard(body)


@click.command(context_settings=_SETTINGS)
@_REPO
@click.option("--keep", type=click.IntRange(min=0), metavar="N",
              help="Keep the newest N runs and the outcome cache; delete the older runs.")
def clean(repo: Path, keep: int | None) -> None:
    """Delete the runs, the outcome cache and the kept worktrees (never those of a
    run still going)."""
    def body() -> None:
        repo_root, state = _state(repo)
        if keep is not None:
            removed = prune_runs(state, keep)
            click.echo(f"wynot: deleted {plural(len(removed), 'run')}, kept the newest {keep}")
            return
        kept = remove_kept_worktrees(repo_root, state)
        freed = clear_state(state)
        click.echo(f"wynot: deleted the runs and the cache ({_size(freed)})"
                   + (f" and {plural(kept, 'kept worktree')}" if kept else ""))

    _guard(body)


SUBCOMMANDS: dict[str, click.Command] = {"report": report, "runs": runs, "clean": clean}


def _row(run_dir: Path, size: int, running: bool) -> dict[str, Any]:
    request = _read(run_dir / REQUEST) or {}
    done = _read(run_dir / RESULT)
    failed = _read(run_dir / FAILURE)
    if done is not None:
        status = done.get("status", "finished")
    elif failed is not None:
        status = INCONCLUSIVE
    else:
        status = "running" if running else "interrupted"
    started = request.get("started")
    return {
        "id": run_dir.name, "path": str(run_dir), "size": size, "status": status,
        "date": time.strftime("%Y-%m-%d %H:%M", time.localtime(started)) if started else "?",
        "good": request.get("good_name", "?"), "bad": request.get("bad_name", "?"),
        "command": " ".join(request.get("test", [])) or "?",
        "exit_code": (done or failed or {}).get("exit_code"),
    }


def _state(repo: Path) -> tuple[Path, Path]:
    info = find_repo(repo)
    return info.toplevel, state_dir(info.git_dir)


def _find_run(state: Path, name: str) -> Path:
    if (Path(name) / REQUEST).is_file():  # a run directory, e.g. a CI artifact
        return Path(name)
    runs_dir = state / RUNS
    known = sorted(p for p in runs_dir.iterdir() if p.is_dir()) if runs_dir.is_dir() else []
    if not known:
        raise WynotError(f"no runs in {runs_dir}")
    if name == "latest":
        return known[-1]
    matches = [p for p in known if p.name.startswith(name)]
    if len(matches) != 1:
        raise WynotError(f"{'no' if not matches else 'more than one'} run matches {name!r}; "
                         "`wynot runs` lists them")
    return matches[0]


def _guard(body: Any) -> None:
    try:
        body()
    except WynotError as error:
        click.echo(f"wynot: error: {error.message}", err=True)
        sys.exit(int(error.exit_code))
    sys.exit(int(ExitCode.FOUND))


def _size(size: int) -> str:
    for unit in ("B", "KB", "MB"):
        if size < 1024:
            return f"{size:.0f} {unit}"
        size //= 1024
    return f"{size} GB"


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None

