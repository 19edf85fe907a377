"""The one place that runs git.

Every git command wynot runs goes through :func:`git`, which returns stdout as
bytes and turns failures into :class:`~wynot.errors.GitError` with advice.
Revision lookups and commit metadata use GitPython (see :func:`open_repo`);
hot paths (diffs, blobs, worktrees) use this subprocess helper directly.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from wynot.errors import GitError
from wynot.process import kill_group, wait_group_ended

# Settings that make git's output independent of the user's configuration.
_OUTPUT_CONFIG = (
    "-c", "core.quotePath=false",
    "-c", "diff.noprefix=false",
    "-c", "diff.mnemonicPrefix=false",
    "-c", "diff.relative=false",
    "-c", "color.ui=false",
)
# Settings that keep blobs and patches as git stores them; a command that
# writes work-tree files as a checkout does (``checkout=True``) runs without
# them, so that the user's end-of-line settings convert as they would.
_EOL_CONFIG = (
    "-c", "core.autocrlf=false",
    "-c", "core.safecrlf=false",
)
_STABLE_CONFIG = _OUTPUT_CONFIG + _EOL_CONFIG


def clean_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """Return ``base`` (default: os.environ) without git's ``GIT_*`` variables.

    A test command run inside the scratch worktree must see that worktree as
    its repository, not whatever repository wynot's own caller pointed at.
    """
    source = os.environ if base is None else base
    return {k: v for k, v in source.items() if not k.startswith("GIT_")}


def git(
    repo: Path,
    *args: str,
    input: bytes | None = None,
    env: Mapping[str, str] | None = None,
    check: bool = True,
    checkout: bool = False,
) -> bytes:
    """Run ``git -C repo ARGS`` and return its stdout.

    ``env`` adds variables to a clean environment (GIT_INDEX_FILE, ...).
    ``checkout``: the command writes work-tree files (``worktree add``,
    ``checkout``, ``checkout-index``, ``apply`` to the work tree) and must
    write them as the user's own checkout would, with the user's
    ``core.autocrlf`` and ``core.safecrlf``; other commands run with both
    off, so that blobs and patches keep git's stored bytes. The user's
    configuration is only read, never changed.
    Raises GitError with git's own message when the command fails.
    """
    cmd, full_env = _command(repo, args, env, checkout)
    try:
        proc = subprocess.run(
            cmd, input=input, capture_output=True, env=full_env, check=False
        )
    except FileNotFoundError as exc:
        raise GitError("git is not installed or not on PATH") from exc
    if check and proc.returncode != 0:
        raise _failure(args, proc.stderr, proc.returncode)
    return proc.stdout


class StartedGit:
    """A git command running beside the caller, as a process of its own (no thread)
    in a process group of its own: :func:`start_git`. Its output goes to a
    file, so that much of it (a hook's) cannot fill a pipe and stop it."""

    def __init__(self, process: subprocess.Popen[bytes], args: tuple[str, ...],
                 output: Path) -> None:
        self._process, self._args, self._output = process, args, output

    def wait(self) -> None:
        """Wait until it ends; GitError as :func:`git` raises it when it failed."""
        code = self._process.wait()
        if code != 0:
            raise _failure(self._args, self._output.read_bytes(), code)

    def stop(self) -> None:
        """End it at once: its process group killed (``git worktree add`` runs a
        second git that writes the files), then waited for until none of it runs."""
        kill_group(self._process)
        wait_group_ended(self._process.pid)


def start_git(repo: Path, *args: str, output: Path, env: Mapping[str, str] | None = None,
              checkout: bool = False) -> StartedGit:
    """Start ``git -C repo ARGS`` as :func:`git` runs it (``env``, ``checkout``), its
    stdout and stderr written to the new file ``output``; :meth:`StartedGit.wait`
    for it."""
    cmd, full_env = _command(repo, args, env, checkout)
    with open(output, "xb") as sink:
        try:
            process = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=sink,
                                       stderr=subprocess.STDOUT, env=full_env,
                                       start_new_session=True)
        except FileNotFoundError as exc:
            raise GitError("git is not installed or not on PATH") from exc
    return StartedGit(process, args, output)


def _command(repo: Path, args: tuple[str, ...], env: Mapping[str, str] | None,
             checkout: bool) -> tuple[list[str], dict[str, str]]:
    """The command line and environment :func:`git` runs ``args`` with."""
    full_env = clean_environment()
    full_env["LC_ALL"] = "C"
    if env:
        full_env.update(env)
    config = _OUTPUT_CONFIG if checkout else _STABLE_CONFIG
    return ["git", "-C", str(repo), *config, *args], full_env


def _failure(args: tuple[str, ...], stderr: bytes, code: int) -> GitError:
    """The error of a git command that exited with ``code``: its last line of output."""
    message = os.fsdecode(stderr).strip().splitlines()
    first = message[-1] if message else f"exit code {code}"
    return GitError(f"git {args[0]} failed: {first}", details=os.fsdecode(stderr))


def git_text(repo: Path, *args: str, env: Mapping[str, str] | None = None) -> str:
    """Like :func:`git`, decoded (surrogateescape) and stripped of the final newline."""
    return os.fsdecode(git(repo, *args, env=env)).rstrip("\n")


def _user_config(repo: Path, *args: str) -> str | None:
    """``git config --get ARGS`` as the user's configuration says (no override of
    wynot's own); None when the key is not set."""
    proc = subprocess.run(["git", "-C", str(repo), "config", *args], capture_output=True,
                          env=clean_environment(), check=False)
    return os.fsdecode(proc.stdout).strip().lower() if proc.returncode == 0 else None


def autocrlf(repo: Path) -> str:
    """The user's effective ``core.autocrlf`` in ``repo``: "true", "input" or "false"."""
    value = _user_config(repo, "--get", "core.autocrlf")
    if value == "":  # "[core] autocrlf" alone means true
        return "true"
    if value == "input":
        return "input"
    return "true" if value in ("true", "yes", "on", "1") else "false"


def symlinks(repo: Path) -> bool:
    """The user's effective ``core.symlinks`` in ``repo``: False when a checkout writes
    a symlink as a plain file holding the link text (git's default is True)."""
    return _user_config(repo, "--type=bool", "--get", "core.symlinks") != "false"


@dataclass(frozen=True, slots=True)
class RepoInfo:
    """Where a repository lives: its top level and its (common) git directory."""

    toplevel: Path
    git_dir: Path


def find_repo(path: Path) -> RepoInfo:
    """Locate the repository containing ``path``; GitError if there is none."""
    if not path.is_dir():
        raise GitError(f"{path} is not a directory")
    proc = subprocess.run(
        ["git", "-C", str(path), "rev-parse", "--show-toplevel", "--git-common-dir"],
        capture_output=True,
        env=clean_environment(),
        check=False,
    )
    if proc.returncode != 0:
        raise GitError(f"{path} is not inside a git repository (git rev-parse failed)")
    lines = os.fsdecode(proc.stdout).splitlines()
    if len(lines) != 2 or not lines[0]:
        raise GitError(f"{path} is not inside a git work tree (bare repositories are unsupported)")
    toplevel = Path(lines[0])
    git_dir = Path(lines[1])
    if not git_dir.is_absolute():
        git_dir = (Path(path) / git_dir).resolve()
    return RepoInfo(toplevel=toplevel, git_dir=git_dir)


def resolve_commit(repo: Path, rev: str) -> str:
    """Return the full sha of the commit ``rev`` names; GitError if unknown."""
    if rev.startswith("-"):
        raise GitError(f"unknown revision {rev!r}")
    proc = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--verify", "--quiet", "--end-of-options",
         f"{rev}^{{commit}}"],
        capture_output=True,
        env=clean_environment(),
        check=False,
    )
    if proc.returncode != 0:
        raise GitError(
            f"unknown revision {rev!r}: no commit of that name in {repo} "
            "(try `git log --oneline` to list commits)"
        )
    return os.fsdecode(proc.stdout).strip()
