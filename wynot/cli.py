"""The ``wynot`` command line: parse options, show progress, map errors to exit codes."""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import sqlite3
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import click

from wynot import __version__
from wynot.analysis.grouping import parse_criteria
from wynot.commands import SUBCOMMANDS
from wynot.errors import ExitCode, UsageError, WynotError
from wynot.executor import parse_jobs
from wynot.flaky_phase import FlakyOptions
from wynot.isolate import Request, isolate
from wynot.output import FORMATS, revert_and_verify, write_failure, write_report
from wynot.pool import removal_after
from wynot.render.info import ReportInfo
from wynot.render.progress import open_progress
from wynot.result import Progress, Result, TestRecord, TestStarted
from wynot.runner import Commands
from wynot.runstore import PATCH, save_result
from wynot.state import DEFAULT_KEEP_RUNS

EPILOG = """\b
The test command runs in a scratch checkout of each configuration:
  exit 0 = PASS, exit 125 = cannot judge (UNRESOLVED), any other exit = FAIL
  (with --fail-pattern, only if its output matches). A failing --build is UNRESOLVED.

\b
Exit codes: 0 found and verified, 1 error, 2 usage error, 3 premise does not
hold (GOOD fails, BAD passes, no differences), 4 no verified minimal result
(budget spent, everything unresolved, --revert-patch not verified,
--flaky below --confidence), 5 flaky: the failure does not reproduce (no culprit;
--repeat, --flaky), 130 interrupted (rerun to resume).
Every option can also be set as WYNOT_<OPTION>, e.g. WYNOT_TIMEOUT=60.

\b
Other commands (as the first argument; a revision named like one of them
is written report^{commit}):
  wynot report [RUN]   render a finished or interrupted run again (no test runs)
  wynot runs           list the runs kept in <git-dir>/wynot/runs
  wynot clean          delete the runs and the outcome cache (--keep N runs)
"""


class _WynotCommand(click.Command):
    """Remembers whether (and where) the user separated COMMAND with ``--``; shows
    the ``--`` in the usage line."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["wynot.separator"] = "--" in args
        ctx.meta["wynot.argv"] = tuple(args)
        if "--" in args:
            _require_revisions(self, ctx, args[:args.index("--")])
        return super().parse_args(ctx, args)

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return ["[OPTIONS]", "GOOD", "BAD", "--", "COMMAND", "[ARGS]..."]


def _require_revisions(command: click.Command, ctx: click.Context, before: list[str]) -> None:
    """GOOD and BAD must come before the ``--``: else name what is missing (rather
    than take the test command's first word for a revision)."""
    try:
        values, _, _ = command.make_parser(ctx).parse_args(list(before))
    except click.UsageError:
        return  # the real parse reports it
    given = [name for name in ("good", "bad") if isinstance(values.get(name), str)]
    if len(given) < 2:
        missing = "BAD is" if given else "GOOD and BAD are"
        raise click.UsageError(f"{missing} missing: give both before the --, e.g. "
                               "wynot GOOD BAD -- make test", ctx)


@click.command(
    cls=_WynotCommand,
    context_settings={"auto_envvar_prefix": "WYNOT", "help_option_names": ["-h", "--help"]},
    epilog=EPILOG,
)
@click.argument("good")
@click.argument("bad")
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
@click.option("-C", "--repo", type=click.Path(file_okay=False, path_type=Path), default=".",
              show_default=True, help="Run in the git repository at this path.")
@click.option("--build", metavar="CMD",
              help="Build command run before each test (split like a shell would); "
                   "if it fails the configuration is UNRESOLVED.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Kill build+test after this many seconds; counts as UNRESOLVED.")
@click.option("--fail-pattern", metavar="REGEX",
              help="Count a failing test as FAIL only if its output matches REGEX "
                   "(other failures are UNRESOLVED).")
@click.option("--patch", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the isolated changes as a patch that `git apply` accepts on GOOD.")
@click.option("--format", "output_format", type=click.Choice(FORMATS), default="text",
              show_default=True, envvar="WYNOT_FORMAT",
              help="Report on stdout: text (a diff), json (docs/schema/report-v2.json), "
                   "markdown (for an issue or PR comment), github (annotations on stdout, "
                   "the Markdown into $GITHUB_STEP_SUMMARY).")
@click.option("--json", is_flag=True, help="The same as --format json.")
@click.option("--revert-patch", type=click.Path(dir_okay=False, path_type=Path),
              metavar="FILE",
              help="Write the answer reverted on BAD as a patch for `git apply`, and check "
                   "it: BAD with it applied must pass (one more test). Exit code 4 if it "
                   "does not apply or BAD still fails.")
@click.option("--context", type=click.IntRange(min=0), default=3, show_default=True,
              help="Lines of context when cutting the diff into hunks (git diff -U).")
@click.option("--max-tests", type=click.IntRange(min=1), metavar="N",
              help="Stop after N search and label tests (dd+, the search for the "
                   "context an answer needs, labelling) and report the smallest failing "
                   "configuration found so far, verified but not minimal (exit code 4).")
@click.option("--max-time", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Like --max-tests, for time: once SECONDS have passed since the start, "
                   "the search stops at the next test and reports its best answer so far "
                   "(exit code 4). The test in flight finishes; bound it with --timeout.")
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True,
              metavar="N",
              help="Run each commit of the commit phase up to N times; it fails only if "
                   "every run fails (a PASS is trusted). If BAD passes one of its N runs, "
                   "the answer is 'flaky: no culprit' (exit code 5).")
@click.option("--flaky", "flaky_mode", type=click.Choice(["off", "auto", "on"]), default="off",
              show_default=True,
              help="on: search commits with the flake-aware finder (a FAIL is weighed by "
                   "the flake rate it estimates); auto: run GOOD and BAD 3 times first and "
                   "use the finder only if either disagrees with itself.")
@click.option("--confidence", type=click.FloatRange(min=0.5, max=1, max_open=True),
              default=0.95, show_default=True,
              help="With --flaky: stop when one answer (a commit, or 'no culprit') is this "
                   "probable.")
@click.option("--strategy", type=click.Choice(["auto", "commits", "hunks"]), default="auto",
              show_default=True,
              help="auto: with several commits between GOOD and BAD, first bisect them (like "
                   "git bisect), then search the hunks of the first bad commit; commits: stop "
                   "after the commit phase; hunks: search the whole diff at once.")
@click.option("--group", default="dir,file,syntax", show_default=True,
              metavar="CRITERIA",
              help="Keep related changes together while searching: a comma list of dir, "
                   "file, syntax (same function or class), lexical (shared identifiers); "
                   "'none' searches the hunks in diff order.")
@click.option("--predict/--no-predict", default=True, show_default=True,
              help="Derive dependencies from identifiers: order changes so definitions "
                   "come before their uses, and answer configurations that miss a needed "
                   "definition as UNRESOLVED without running them. (Dependencies that "
                   "--resolve learns from build errors predict either way.)")
@click.option("--resolve/--no-resolve", default=True, show_default=True,
              help="When a configuration does not build or import, add the changes that "
                   "define the identifiers its errors name, and retry.")
@click.option("--keep-passing/--no-keep-passing", default=None,
              help="When the first half of a split passes, search the second half with it "
                   "applied, without testing the second half alone (dd+ as published tests "
                   "it: --no-keep-passing). Saves a test at about every other split; a "
                   "cause that needs changes from the passing half gets them as context. "
                   "Also: while no subset the search asked has built, from the third partition "
                   "on narrow down by complements and single changes alone.  "
                   "[default: on with --predict, off with --no-predict]")
@click.option("--resolve-pattern", multiple=True, metavar="REGEX",
              help="Extra regular expression whose first group names a missing identifier "
                   "in build errors (repeatable).")
@click.option("-j", "--jobs", default="1", show_default=True, metavar="N",
              help="Run up to N tests at a time, each in its own scratch worktree ('auto': "
                   "one per CPU). The answer and the tests it rests on are the same for "
                   "every N: the extra workers run the configurations the search is "
                   "likeliest to ask next, and what it does not ask is cancelled.")
@click.option("--keep-worktrees", is_flag=True,
              help="Keep the scratch worktrees in <git-dir>/wynot/worktrees after the run, "
                   "and reuse them: files the next run's GOOD does not change keep their "
                   "timestamps and build outputs stay, so an incremental --build (make) "
                   "starts from the last run's. `wynot clean` removes them.")
@click.option("--check-files", is_flag=True,
              help="After every test, look for tracked files the build or test changed "
                   "(a formatter, a generator, a lock file) and put them back before the "
                   "next test. By default this is done for GOOD, BAD and the "
                   "verification, after tests the check costs little beside, and after "
                   "every test once one changed a file.")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local",
              show_default=True,
              help="Where tests run: local worktrees, or the workers of a dask.distributed "
                   "cluster (pip install 'wynot[dask]'; see --scheduler).")
@click.option("--scheduler", metavar="ADDRESS",
              help="Address of the dask scheduler for --executor dask, e.g. "
                   "tcp://10.0.0.5:8786.")
@click.option("--cache/--no-cache", default=True, show_default=True,
              help="Replay outcomes that earlier runs observed (stored in <git-dir>/wynot; "
                   "a premise that failed, or an outcome whose observations disagree, is "
                   "always tested again). --no-cache runs every test and still records it.")
@click.option("--keep-runs", type=click.IntRange(min=1), default=DEFAULT_KEEP_RUNS,
              show_default=True, metavar="N",
              help="Keep the logs of the newest N runs in <git-dir>/wynot/runs; older ones "
                   "are deleted when a run starts.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto",
              show_default=True, help="Color the diff.")
@click.option("-q", "--quiet", is_flag=True, help="Do not show progress on stderr.")
@click.option("--debug", is_flag=True, help="Show tracebacks of unexpected errors.")
@click.version_option(__version__, "--version", prog_name="wynot")
@click.pass_context
def wynot(
    ctx: click.Context, /, good: str, bad: str, command: tuple[str, ...], **opts: Any
) -> None:
    """Find the smallest set of changes between GOOD and BAD that makes COMMAND fail.

    \b
    Example:
      wynot v1.2 v1.3 -- make test
      git wynot HEAD~20 HEAD --build "make -j4" -- ./run-tests.sh --quick

    GOOD must pass COMMAND and BAD must fail it. wynot cuts the difference into
    hunks, tests subsets of them in a scratch git worktree (your working tree,
    index, branches and stash are never touched), and reports the minimal
    failure-inducing set, verified by testing it alone on GOOD.
    """
    if not ctx.meta.get("wynot.separator"):
        raise click.UsageError(
            "separate the test command with --, e.g. wynot GOOD BAD -- make test")
    _check_patch_path(opts["patch"])
    _check_patch_path(opts["revert_patch"], "--revert-patch")
    code = _run(good, bad, command, opts, ctx.meta.get("wynot.argv", ()))
    ctx.exit(int(code))


def _check_patch_path(path: Path | None, option: str = "--patch") -> None:
    """Refuse, before the search, a patch path that cannot be written."""
    if path is None:
        return
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        reason = "it is a directory"
    elif path.exists() and not os.access(path, os.W_OK):
        reason = "the file is not writable"
    elif not path.exists() and not parent.is_dir():
        reason = f"{parent} is not a directory"
    elif not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
        reason = f"{parent} is not writable"
    else:
        return
    raise click.BadParameter(f"cannot write the patch to {path}: {reason}",
                             param_hint=f"'{option}'")


def _run(good: str, bad: str, command: tuple[str, ...], opts: dict[str, Any],
         argv: tuple[str, ...] = ()) -> ExitCode:
    for signum in (signal.SIGTERM, signal.SIGHUP):  # kill, a closed terminal: clean up
        signal.signal(signum, _raise_interrupt)
    opts["format"] = "json" if opts["json"] else opts["output_format"]
    try:
        request = _request(good, bad, command, opts, argv)
        with removal_after():  # the worktrees go once the report is out
            with _progress(opts["quiet"]) as progress:
                result = isolate(request, progress)
            code = _exit_code(result)
            return _output(result, code, request, opts)  # written and flushed here
    except WynotError as error:
        _error(error.message, error.details)
        if error.exit_code is not ExitCode.USAGE:
            write_failure(_info(opts, argv, good, bad, command, error), opts["format"], good, bad)
        return error.exit_code
    except KeyboardInterrupt:
        _ignore_interrupts()  # a second Ctrl-C must not cut the cleanup short
        if opts["cache"]:
            _error("interrupted; outcomes so far are saved, rerun the same command to resume")
        else:
            _error("interrupted; outcomes so far are saved: rerun without --no-cache to "
                   "resume from them (with --no-cache every test runs again)")
        return ExitCode.INTERRUPTED
    except (OSError, sqlite3.Error) as exc:  # the system's: a full disk, a broken state dir
        if opts["debug"]:
            traceback.print_exc()
        _error(_system_error(exc))
        return ExitCode.ERROR
    except Exception as exc:  # noqa: BLE001 - the one boundary for unexpected errors
        if opts["debug"]:
            traceback.print_exc()
        _error(f"internal error: {exc!r} (rerun with --debug for the traceback)")
        return ExitCode.ERROR


def _system_error(exc: OSError | sqlite3.Error) -> str:
    """One line for an error of the file system or of the outcome cache."""
    if isinstance(exc, sqlite3.Error):
        return (f"the outcome cache (<git-dir>/wynot/cache.sqlite) cannot be used: {exc} "
                "(`wynot clean` deletes it)")
    where = "".join(f": {os.fsdecode(name)}" for name in (exc.filename, exc.filename2)
                    if name is not None)
    return f"{exc.strerror if exc.strerror else repr(exc)}{where}"


def _request(good: str, bad: str, command: tuple[str, ...], opts: dict[str, Any],
             argv: tuple[str, ...] = ()) -> Request:
    try:
        build = shlex.split(opts["build"]) if opts["build"] else None
    except ValueError as exc:  # an unclosed quote
        raise UsageError(f"--build {opts['build']!r} cannot be split like a shell "
                         f"would: {exc}") from exc
    pattern = None
    if opts["fail_pattern"] is not None:
        try:
            pattern = re.compile(os.fsencode(opts["fail_pattern"]), re.MULTILINE)
        except re.error as exc:
            raise UsageError(f"--fail-pattern is not a valid regular expression: {exc}") from exc
    commands = Commands(test=tuple(command), build=tuple(build) if build else None,
                        timeout=opts["timeout"], fail_pattern=pattern)
    try:
        criteria = parse_criteria(opts["group"])
    except ValueError as exc:
        raise UsageError(f"--group: {exc}") from exc
    for extra in opts["resolve_pattern"]:
        try:
            re.compile(extra)
        except re.error as exc:
            raise UsageError(f"--resolve-pattern {extra!r} is not valid: {exc}") from exc
    try:
        jobs = parse_jobs(opts["jobs"], os.cpu_count)
    except ValueError as exc:
        raise UsageError(f"-j/--jobs: {exc}") from exc
    if opts["executor"] == "dask" and not opts["scheduler"]:
        raise UsageError("--executor dask needs --scheduler ADDRESS (e.g. tcp://HOST:8786)")
    return Request(repo=opts["repo"], good=good, bad=bad, commands=commands,
                   jobs=jobs, executor=opts["executor"], scheduler=opts["scheduler"],
                   context=opts["context"], max_tests=opts["max_tests"],
                   use_cache=opts["cache"], criteria=criteria, predict=opts["predict"],
                   resolve=opts["resolve"], resolve_patterns=tuple(opts["resolve_pattern"]),
                   strategy=opts["strategy"], keep_passing=opts["keep_passing"],
                   max_time=opts["max_time"], invocation=argv, keep_runs=opts["keep_runs"],
                   keep_worktrees=opts["keep_worktrees"], check_files=opts["check_files"],
                   flaky=FlakyOptions(opts["repeat"], opts["flaky_mode"], opts["confidence"]))


def _output(result: Result, code: ExitCode, request: Request, opts: dict[str, Any]) -> ExitCode:
    """Write the patches, check the revert, keep the result for ``wynot report``, print."""
    if opts["patch"] is not None:
        try:
            opts["patch"].write_bytes(result.patch)
        except OSError as exc:
            raise WynotError(f"cannot write the patch to {opts['patch']}: {exc}") from exc
    revert = None
    if opts["revert_patch"] is not None:
        with _progress(opts["quiet"]) as progress:
            result, revert = revert_and_verify(result, request, opts["revert_patch"], progress)
        if not revert.verified and code is ExitCode.FOUND:
            code = ExitCode.UNFINISHED
    message = "" if result.minimal else ("the search was stopped by its budget: this is the "
                                         "best answer so far, not minimal")
    message = _flaky_message(result) or message
    info = ReportInfo(__version__, request.invocation, request.commands.test,
                      request.commands.build, int(code), message, revert=revert,
                      patch_path=str(result.run_dir / PATCH) if result.patch else "")
    save_result(result, info)
    write_report(result, info, opts["format"], color=_color(opts["color"]))
    return code


def _exit_code(result: Result) -> ExitCode:
    culprit = result.commit_phase.culprit if result.commit_phase else None
    if culprit is not None and culprit.flaky:
        return ExitCode.FLAKY
    if not result.minimal or (culprit is not None and not culprit.decided):
        return ExitCode.UNFINISHED
    return ExitCode.FOUND


def _flaky_message(result: Result) -> str:
    """What the flake-aware search concluded, when it searched."""
    culprit = result.commit_phase.culprit if result.commit_phase else None
    if culprit is None:
        return ""
    odds = f"probability {culprit.confidence:.3f}, flake rate about {culprit.flake_rate:.2f}"
    if culprit.flaky:
        return f"flaky: no culprit; the failure does not reproduce every time ({odds})"
    if not culprit.decided:
        return f"the first bad commit is not certain ({odds})"
    return ""


def _info(opts: dict[str, Any], argv: tuple[str, ...], good: str, bad: str,
          command: tuple[str, ...], error: WynotError) -> ReportInfo:
    build = tuple(shlex.split(opts["build"])) if opts["build"] else None
    return ReportInfo(__version__, argv, command, build, int(error.exit_code), error.message)


def _color(choice: str) -> bool:
    color = {"always": True, "never": False}.get(choice)
    if color is None:
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
    return color


@contextlib.contextmanager
def _progress(quiet: bool) -> Iterator[Progress]:
    """Progress on stderr: live on a terminal, plain lines otherwise, none with -q."""
    if quiet:
        yield _no_progress
        return
    display = open_progress(sys.stderr, live=sys.stderr.isatty())
    try:
        yield display
    finally:
        display.close()


def _no_progress(event: TestRecord | TestStarted | str) -> None:
    del event


def _error(message: str, details: str = "") -> None:
    click.echo(f"wynot: error: {message}", err=True)
    if details:
        click.echo(details.rstrip("\n"), err=True)


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _ignore_interrupts() -> None:
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)


def main() -> None:
    """Console entry point for ``wynot`` and ``git-wynot``: a subcommand or a search."""
    args = sys.argv[1:]
    if args and args[0] in SUBCOMMANDS:
        SUBCOMMANDS[args[0]](args[1:], prog_name=f"wynot {args[0]}")
    wynot(prog_name="wynot")
