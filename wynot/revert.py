"""The answer reverted on BAD (``--revert-patch``), and a real run that checks it.

The revert is built from trees, never in the user's repository: in a temporary
index and object directory (as :mod:`wynot.export` does), the searched range's
failing commit without the answer is written as a tree; when BAD is that
commit, the revert is the diff from BAD to it. When BAD is later (the commit
phase narrowed the range), the revert is carried onto BAD with a three-way
merge (``git merge-tree``, base: the range's failing commit). Where git's
merge conflicts (it counts edits on adjacent lines as a conflict), the answer's
patch is applied in reverse to BAD with one line of context required
(``git apply -R -C1``); if that fails too, the conflict is reported, never
guessed through. Either way only a real run of BAD with the revert applied
counts as verification. :func:`verify_revert` applies the patch with
``git apply`` to a scratch worktree of BAD and runs the build and the test.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from wynot.changes import FileState
from wynot.errors import GitError, WynotError
from wynot.export import _index_record, _quote_alternate, _write_blobs
from wynot.git import git
from wynot.patch import tree_states
from wynot.process import kill_leftovers
from wynot.result import Result
from wynot.runner import Commands, RunResult, run_configuration
from wynot.scratch import scratch_worktree
from wynot.state import owned_tempdir

_IDENTITY = {"GIT_AUTHOR_NAME": "wynot", "GIT_AUTHOR_EMAIL": "wynot@localhost",
             "GIT_COMMITTER_NAME": "wynot", "GIT_COMMITTER_EMAIL": "wynot@localhost"}


class RevertConflict(WynotError):
    """The revert does not carry onto BAD without conflicts."""


@dataclass(frozen=True, slots=True)
class RevertCheck:
    """``git apply`` of the revert on BAD, then the test: ``run`` is None if it did not apply."""

    applied: bool
    message: str
    run: RunResult | None


def revert_patch(repo: Path, result: Result) -> tuple[bytes, str]:
    """A patch that ``git apply`` accepts on BAD and that takes the answer out of it.

    For a hunk answer: the range's failing commit minus the answer's changes.
    For a commit-phase answer (no hunk phase): the first bad commit reverted.
    Returns the patch and how it was made ("BAD is the range's failing commit",
    "three-way merge", "reverse apply with 1 line of context"). Raises
    WynotError when there is nothing to revert, RevertConflict when the revert
    does not carry onto BAD.
    """
    if result.diff is not None and result.changes:
        diff = result.diff
        base, high = diff.good, diff.bad
        rest = frozenset(c.id for c in diff.changes) - {c.id for c in result.changes}
        states = tree_states(diff, rest)
    elif result.diff is None and result.commit_phase is not None \
            and result.commit_phase.bisection.exact:
        base, high, states = result.commit_phase.last_good, result.commit_phase.first_bad, {}
    else:
        raise WynotError("there is no answer to revert")
    with _scratch_store(repo) as (scratch, env):
        reverted = _write_tree(repo, scratch, base, states, env)
        target, how = reverted, "BAD is the first bad commit"
        if _sha(repo, result.bad) != _sha(repo, high):
            carried = git(repo, "commit-tree", reverted, "-p", high, "-m", "wynot revert",
                          env={**env, **_IDENTITY}).decode().strip()
            try:
                target, how = _merge(repo, result.bad, carried, env), "three-way merge"
            except RevertConflict:
                if not result.patch:
                    raise
                target = _reverse_apply(repo, result.bad, result.patch, env)
                how = "reverse apply with 1 line of context (the merge conflicted)"
        return git(repo, "diff-tree", "-p", "--binary", "-M", "--full-index", "--no-color",
                   "--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/",
                   "--submodule=short", result.bad, target, "--", env=env), how


def verify_revert(repo: Path, bad: str, patch: bytes, commands: Commands,
                  output: Path) -> RevertCheck:
    """Apply ``patch`` to a scratch worktree of BAD and run the build and test there."""
    with scratch_worktree(repo, bad, {}) as worktree:
        try:
            git(worktree.root, "apply", "--whitespace=nowarn", "-", input=patch, checkout=True)
        except GitError as error:
            return RevertCheck(False, f"the revert patch does not apply to BAD: "
                                      f"{error.message}", None)
        run = run_configuration(worktree.root, commands, output)
        kill_leftovers()  # before its worktree goes
    return RevertCheck(True, "", run)


def _merge(repo: Path, bad: str, carried: str, env: Mapping[str, str]) -> str:
    """The tree of BAD with ``carried`` merged in (merge base: its parent)."""
    out = os.fsdecode(git(repo, "merge-tree", "--write-tree", "--name-only", "--no-messages",
                          bad, carried, env=env, check=False))
    lines = out.splitlines()
    if not lines or len(lines[0]) < 40:
        raise WynotError(f"git merge-tree failed while carrying the revert onto BAD: {out}")
    if len(lines) > 1:
        paths = sorted({line for line in lines[1:] if line})
        raise RevertConflict("the revert conflicts with what changed after the first bad "
                             f"commit, in {', '.join(paths[:10])}")
    return lines[0]


def _reverse_apply(repo: Path, bad: str, patch: bytes, env: Mapping[str, str]) -> str:
    """The tree of BAD with ``patch`` applied in reverse, in the scratch index."""
    git(repo, "read-tree", bad, env=env)
    try:
        git(repo, "apply", "--cached", "-R", "-C1", "--whitespace=nowarn", "-", input=patch,
            env=env)
    except GitError as error:
        raise RevertConflict("the revert conflicts with what changed after the first bad "
                             f"commit ({error.message})") from error
    return git(repo, "write-tree", env=env).decode().strip()


def _write_tree(repo: Path, scratch: Path, base: str, states: Mapping[str, FileState | None],
                env: Mapping[str, str]) -> str:
    """The tree of ``base`` with ``states`` applied, written to the scratch store."""
    git(repo, "read-tree", base, env=env)
    if states:
        blob_ids = _write_blobs(repo, scratch, states, env)
        null_id = "0" * len(_sha(repo, base))
        records = [_index_record(path, state, blob_ids, null_id)
                   for path, state in sorted(states.items(), key=lambda i: i[1] is not None)]
        git(repo, "update-index", "-z", "--index-info", input=b"".join(records), env=env)
    return git(repo, "write-tree", env=env).decode().strip()


@contextlib.contextmanager
def _scratch_store(repo: Path) -> Iterator[tuple[Path, dict[str, str]]]:
    """A temporary index and object directory borrowing the repository's objects."""
    objects = os.fsdecode(git(repo, "rev-parse", "--git-path", "objects")).strip()
    with owned_tempdir("revert") as tmp:
        scratch = Path(tmp)
        (scratch / "objects").mkdir()
        yield scratch, {
            "GIT_INDEX_FILE": str(scratch / "index"),
            "GIT_OBJECT_DIRECTORY": str(scratch / "objects"),
            "GIT_ALTERNATE_OBJECT_DIRECTORIES": _quote_alternate(repo / objects),
        }


def _sha(repo: Path, rev: str) -> str:
    return git(repo, "rev-parse", "--verify", f"{rev}^{{commit}}").decode().strip()
