"""The CPU priority of a running command: the run a search waits for goes first.

With more workers than cores, speculative runs compete for the CPU with the
run the search is waiting for, and slow it down though the search may never
need them. A command's priority is a nice value: 0 (normal) or
:data:`YIELDING`, set and changed while it runs (:func:`set_nice`).

On Linux with autogroups (``/proc/sys/kernel/sched_autogroup_enabled``), a
command in a session of its own (every test runs in one) is scheduled as a
group, and the group's nice value is what counts: it is written to
``/proc/PID/autogroup``, which any user may raise and lower again between 0
and 19. Elsewhere it is the process group's nice value, which only a
privileged user may lower again: then priorities are used only when they can
be restored (:func:`adjustable`), so that a run the search comes to wait for
never stays behind the others. Priorities change only how soon runs end,
never their outcome (a ``--timeout`` aside, which counts wall time).
"""

from __future__ import annotations

import contextlib
import functools
import os
import resource
from pathlib import Path

YIELDING = 5  # the nice value of a run that gives the CPU to likelier ones
AUTOGROUP = Path("/proc/sys/kernel/sched_autogroup_enabled")


@functools.cache
def autogroups() -> bool:
    """Whether the kernel schedules each session as a group (Linux autogroups)."""
    try:
        return AUTOGROUP.read_text().strip() == "1"
    except OSError:
        return False


@functools.cache
def adjustable() -> bool:
    """Whether a command's priority can be lowered and then restored by this process."""
    if autogroups():
        return True
    if not hasattr(os, "setpriority"):
        return False
    limit = resource.getrlimit(resource.RLIMIT_NICE)[0]  # nice may go down to 20 - limit
    return os.geteuid() == 0 or limit == resource.RLIM_INFINITY or limit >= 20


def set_nice(leader: int, nice: int) -> bool:
    """Give the session (with autogroups) or the process group that ``leader`` leads the
    nice value ``nice``; False if it could not be set (the process is gone, or this
    system does not let it come back: :func:`adjustable`)."""
    if not adjustable():
        return False
    with contextlib.suppress(OSError):
        if autogroups():
            Path(f"/proc/{leader}/autogroup").write_text(str(nice))
        else:
            os.setpriority(os.PRIO_PGRP, leader, nice)
        return True
    return False
