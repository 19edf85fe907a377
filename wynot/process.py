"""One command in a process group of its own: output bounded, nothing left running.

:func:`run_command` starts a command with its stdout and stderr on a pipe,
copies what it prints into a :class:`BoundedOutput` (head and tail, in time
linear in the size), and whatever ends it (its exit, the timeout, an
interrupt of wynot) kills its whole process group before returning, so
``sleep 999 &`` in a test does not outlive the test. If wynot dies outright
(SIGKILL), a small guard process kills the group of the command then running.
Every command carries wynot's owner token in ``WYNOT_OWNER``
(:mod:`wynot.state`), by which a later run finds what a killed one left, and
an id of its own in ``WYNOT_TEST``. A process that left the group (``setsid``,
a daemon) is found by those: killed when the command ends if it still holds
the output pipe, else by :func:`kill_leftovers` when the run's pool closes.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

from wynot.state import OWNER_ENV, kill_marked, owner_token

KILL_GRACE_SECONDS = 2.0
DRAIN_SECONDS = 1.0  # reading what a killed group left in the pipe
GROUP_END_SECONDS = 5.0  # how long wait_group_ended waits for a killed group
HELD_SECONDS = 0.05  # a pipe not closed this long after the group's kill is held by an escapee
TEST_ENV = "WYNOT_TEST"  # each command's own id, ``<owner token>.<n>``
_TEST_IDS = itertools.count(1)
OUTPUT_HEAD = 512 * 1024  # bytes of a test's output kept from its start ...
OUTPUT_TAIL = 512 * 1024  # ... and from its end
_CHUNK = 1 << 20
_POLL = 0.05  # seconds between checks for the command's exit without a pidfd
MAX_NICE = 19  # the lowest CPU priority there is


class BoundedOutput:
    """A sink that keeps the head and the tail of a stream, in time linear in its size.

    The head goes to ``handle`` as it arrives (so a long test's output can be
    watched); the tail is held in memory and written by :meth:`finish`, after
    a line that says how many bytes were left out and how many came in all.
    """

    def __init__(self, handle: BinaryIO, head: int = OUTPUT_HEAD, tail: int = OUTPUT_TAIL):
        self._handle = handle
        self._head_limit = head
        self._tail_limit = tail
        self._head = bytearray()
        self._tail = bytearray()
        self._finished = False
        self.total = 0

    def write(self, data: bytes) -> None:
        if self._finished:
            return
        self.total += len(data)
        room = self._head_limit - len(self._head)
        if room > 0:
            part = data[:room]
            self._head += part
            self._handle.write(part)
            self._handle.flush()
            data = data[room:]
        if data:
            self._tail += data
            if len(self._tail) > 2 * self._tail_limit:  # amortised: trim rarely
                del self._tail[:-self._tail_limit]

    def _omitted_note(self) -> bytes:
        if len(self._tail) > self._tail_limit:
            del self._tail[:len(self._tail) - self._tail_limit]
        omitted = self.total - len(self._head) - len(self._tail)
        if omitted <= 0:
            return b""
        return (f"\n[wynot: {omitted} bytes of output left out here; "
                f"{self.total} bytes in all]\n").encode()

    def finish(self) -> None:
        """Write the tail (and the note of what was left out) after the head."""
        if not self._finished:
            self._finished = True
            self._handle.write(self._omitted_note() + bytes(self._tail))
            self._handle.flush()

    def kept(self) -> bytes:
        """What the output file holds."""
        return bytes(self._head) + self._omitted_note() + bytes(self._tail)


def run_command(
    argv: Sequence[str], cwd: Path, env: dict[str, str], log: BoundedOutput,
    timeout: float | None, cancelled: Callable[[], bool] | None = None,
    niceness: Callable[[], int] | None = None,
) -> tuple[int | None, bool]:
    """Run one command in its own process group. Returns (exit code, timed out).

    A command that cannot be started gives 127 (not found) or 126 (not
    executable), as a shell would. ``cancelled`` is polled while it runs:
    once true, the group is killed and the run ends as if it timed out.
    ``niceness``, polled likewise, is how much lower than wynot's own the
    group's CPU priority is to be (0: the same); where the system does not
    let it go back up (that needs privileges), it stays where it is.
    Whatever ends the command (its own exit, the timeout, a cancellation, an
    interrupt of wynot), its process group is killed before this returns; if
    wynot dies first, the guard process kills the group.
    """
    test_id = f"{owner_token()}.{next(_TEST_IDS)}"
    env = {**env, OWNER_ENV: owner_token(), TEST_ENV: test_id}
    read_fd, write_fd = os.pipe()
    try:
        proc = subprocess.Popen(
            list(argv), cwd=cwd, env=env, stdin=subprocess.DEVNULL,
            stdout=write_fd, stderr=write_fd, start_new_session=True,
        )
    except FileNotFoundError:
        interpreter = missing_interpreter(argv[0], cwd, env)
        if interpreter is not None:  # as a shell says it (and exits 126)
            _note(log, f"wynot: {argv[0]}: {interpreter}: bad interpreter: no such file\n")
            return 126, False
        _note(log, f"wynot: {argv[0]}: command not found\n")
        return 127, False
    except PermissionError:
        _note(log, f"wynot: {argv[0]}: permission denied\n")
        return 126, False
    finally:
        os.close(write_fd)
    _GUARD.send(f"+{proc.pid}\n")
    deadline = None if timeout is None else time.monotonic() + timeout
    timed_out = False
    priority = _Priority(proc.pid, niceness)
    try:
        timed_out = not _pump(proc, read_fd, log, deadline, cancelled, priority)
        if timed_out and cancelled is not None and cancelled():
            _note(log, "\nwynot: cancelled (no longer needed); killing process group\n")
        elif timed_out:
            _note(log, f"\nwynot: timed out after {timeout:.1f}s; killing process group\n")
    finally:
        kill_group(proc)  # the test's background processes end with it
        _GUARD.send(f"-{proc.pid}\n")
        if not _drain(read_fd, log, HELD_SECONDS):  # held open by one that left the group
            kill_marked(test_id, variable=TEST_ENV)
            _drain(read_fd, log, DRAIN_SECONDS)
        os.close(read_fd)
    return (None if timed_out else proc.returncode), timed_out


class _Priority:
    """The CPU priority of one command's process group, kept at what ``niceness``
    asks (relative to wynot's own, at most the system's lowest)."""

    def __init__(self, group: int, niceness: Callable[[], int] | None) -> None:
        self._group, self._niceness = group, niceness
        self._base = self._applied = os.getpriority(os.PRIO_PROCESS, 0)
        self.follow()

    def follow(self) -> None:
        if self._niceness is None:
            return
        wanted = min(MAX_NICE, self._base + self._niceness())
        if wanted != self._applied:
            with contextlib.suppress(OSError):  # going back up needs privileges
                os.setpriority(os.PRIO_PGRP, self._group, wanted)
                self._applied = wanted


def _pump(proc: subprocess.Popen[bytes], fd: int, log: BoundedOutput,
          deadline: float | None, cancelled: Callable[[], bool] | None = None,
          priority: _Priority | None = None) -> bool:
    """Copy output to ``log`` until the command exits (True), or the deadline passes
    or ``cancelled()`` is true (False); the group's CPU priority follows ``priority``.

    The command is left unreaped (a zombie holds its process group id, so the
    group can be killed without hitting a recycled id).
    """
    with _exit_watch(proc) as exit_fd:
        open_fds = [fd]
        while True:
            wait = _POLL if deadline is None else min(_POLL, deadline - time.monotonic())
            if wait <= 0 or (cancelled is not None and cancelled()):
                return False
            if priority is not None:
                priority.follow()
            watched = open_fds + ([exit_fd] if exit_fd is not None else [])
            ready, _, _ = select.select(watched, [], [], wait)
            if fd in ready:
                data = os.read(fd, _CHUNK)
                if data:
                    log.write(data)
                else:
                    open_fds = []
            if _exited(proc):
                return True
            if not open_fds and exit_fd is None:
                time.sleep(_POLL / 10)


@contextlib.contextmanager
def _exit_watch(proc: subprocess.Popen[bytes]) -> Iterator[int | None]:
    """A descriptor that becomes readable when ``proc`` exits (Linux pidfd), else None."""
    try:
        pidfd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):
        yield None
        return
    try:
        yield pidfd
    finally:
        os.close(pidfd)


def _exited(proc: subprocess.Popen[bytes]) -> bool:
    """Whether ``proc`` has exited, without reaping it."""
    if proc.returncode is not None:
        return True
    try:
        info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return info is not None


def _drain(fd: int, log: BoundedOutput, seconds: float) -> bool:
    """Read what is left in the pipe, for at most ``seconds``. Returns whether
    it reached the end (every writer closed it).

    A process that left the group (setsid) may still hold the pipe: it is
    not waited for longer.
    """
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return False
        data = os.read(fd, _CHUNK)
        if not data:
            return True
        log.write(data)
    return False


def kill_leftovers() -> int:
    """Kill what this process's commands left running outside their process
    groups (``setsid``, daemons), found by the owner token they carry. Call it
    when no command of this process is running (a pool closing). Returns how
    many processes were signalled.
    """
    return kill_marked(owner_token(), spare=_GUARD.pids())


def missing_interpreter(command: str, cwd: Path, env: dict[str, str]) -> str | None:
    """The ``#!`` interpreter of ``command`` when the command exists (so that the
    interpreter is what was not found), else None."""
    found = str(cwd / command) if os.sep in command else shutil.which(command, path=env.get("PATH"))
    try:
        with open(found or "", "rb") as script:
            first = script.readline(4096)
    except OSError:
        return None
    words = first[2:].split()
    return os.fsdecode(words[0]) if first.startswith(b"#!") and words else None


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the whole process group of ``proc`` and reap ``proc``.

    A command still running gets SIGTERM first and :data:`KILL_GRACE_SECONDS`
    to end; then the group gets SIGKILL, which also ends processes a finished
    command left behind (``sleep 999 &``). ``proc`` is reaped last, so its
    process group id cannot have been recycled when the group is signalled.
    """
    if not _exited(proc):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        deadline = time.monotonic() + KILL_GRACE_SECONDS
        while not _exited(proc) and time.monotonic() < deadline:
            time.sleep(0.01)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def wait_group_ended(group: int, seconds: float = GROUP_END_SECONDS) -> None:
    """Wait, at most ``seconds``, until no process of the killed process group
    ``group`` runs (after :func:`kill_group`, whose leader is reaped: its other
    members, on their way out, may still be writing)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and _group_runs(group):
        time.sleep(0.01)


def _group_runs(group: int) -> bool:
    """Whether a process of the process group ``group`` still runs. A zombie does
    not (it only waits to be reaped by whoever inherited it, which in a
    container may take a second); told apart on Linux (``/proc/*/stat``)."""
    try:
        os.killpg(group, 0)
    except (ProcessLookupError, PermissionError):
        return False
    if not sys.platform.startswith("linux"):
        return True
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(os.path.join(entry.path, "stat"), "rb") as stat:
                    fields = stat.read().rsplit(b")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[2]) == group and fields[0] != b"Z":
                return True
    return False


class _Guard:
    """A small process that kills the registered process groups when wynot dies.

    It reads ``+PGID`` and ``-PGID`` lines on a pipe from wynot. When the pipe
    closes, because wynot exited or was killed (even by SIGKILL), it sends
    SIGKILL to every group still registered, and exits. It runs in a session
    of its own, so a Ctrl-C or a closed terminal reaches wynot, not it.
    """

    CODE = (
        "import os, signal, sys\n"
        "groups = set()\n"
        "for line in sys.stdin.buffer:\n"
        "    pid = int(line[1:])\n"
        "    groups.add(pid) if line[:1] == b'+' else groups.discard(pid)\n"
        "for pid in groups:\n"
        "    try:\n"
        "        os.killpg(pid, signal.SIGKILL)\n"
        "    except OSError:\n"
        "        pass\n"
    )

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._pid = 0

    def _start(self) -> subprocess.Popen[bytes] | None:
        if self._proc is not None and self._pid == os.getpid():
            return self._proc
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-S", "-c", self.CODE], stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                start_new_session=True, env={OWNER_ENV: owner_token()},
            )
        except OSError:
            return None
        self._pid = os.getpid()
        return self._proc

    def send(self, line: str) -> None:
        with self._lock:
            proc = self._start()
            if proc is None or proc.stdin is None:
                return
            with contextlib.suppress(OSError):
                proc.stdin.write(line.encode())
                proc.stdin.flush()

    def pids(self) -> set[int]:
        """The guard's pid, when it runs for this process."""
        with self._lock:
            running = self._proc is not None and self._pid == os.getpid()
            return {self._proc.pid} if running and self._proc is not None else set()

    def release(self) -> None:
        """In a process forked from wynot: close this copy of the pipe to the guard,
        so that the guard sees the pipe close when wynot dies, not when this
        process does. Only the file descriptor goes; the fork's copy of the
        guard's state is never used again (the child leaves with ``os._exit``)."""
        proc = self._proc
        if proc is not None and proc.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                os.close(proc.stdin.fileno())

    def close(self) -> None:
        """End the guard (at wynot's exit): nothing is registered any more."""
        with self._lock:
            if self._proc is None or self._pid != os.getpid():
                return
            if self._proc.stdin is not None:
                with contextlib.suppress(OSError):
                    self._proc.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=5)
            self._proc = None


_GUARD = _Guard()
atexit.register(_GUARD.close)


def release_guard() -> None:
    """In a child forked from wynot that outlives no command of its own (the
    analysis store's writer): let the guard act on wynot's death alone
    (:meth:`_Guard.release`)."""
    _GUARD.release()


def _note(log: BoundedOutput, text: str) -> None:
    log.write(text.encode())
