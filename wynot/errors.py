"""The error hierarchy and wynot's exit codes.

Every error a user can cause carries a message that says what to do next.
Only ``wynot.cli`` catches them and turns them into an exit code.
"""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """Exit codes of the ``wynot`` command (see README.md)."""

    FOUND = 0
    ERROR = 1
    USAGE = 2
    PREMISE = 3
    UNFINISHED = 4
    FLAKY = 5  # the failure does not reproduce: a flake, no culprit (--repeat, --flaky)
    INTERRUPTED = 130


class WynotError(Exception):
    """An error with a message meant for the user."""

    exit_code: ExitCode = ExitCode.ERROR

    def __init__(self, message: str, *, details: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class GitError(WynotError):
    """A git command failed (bad revision, not a repository, ...)."""


class UsageError(WynotError):
    """The command line asks for something that cannot be done."""

    exit_code = ExitCode.USAGE


class PremiseError(WynotError):
    """GOOD does not pass, BAD does not fail, or there are no differences."""

    exit_code = ExitCode.PREMISE


class CommandNotFoundError(WynotError):
    """The test or build command cannot be executed at all."""


class UnfinishedError(WynotError):
    """The search ended without a verified failure-inducing set."""

    exit_code = ExitCode.UNFINISHED


class NoCulpritError(WynotError):
    """The failure does not reproduce (BAD passed when run again): a flake, nothing
    is blamed. The same verdict as the flake-aware search's "no culprit"."""

    exit_code = ExitCode.FLAKY
