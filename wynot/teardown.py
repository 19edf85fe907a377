"""Leaving worktrees: all of a pool's at once, and never cut short by a signal.

:func:`signals_deferred` holds SIGINT, SIGTERM and SIGHUP off while a block
runs (a cleanup that a second Ctrl-C must not interrupt) and delivers them
when it ends; :class:`Removal` leaves several worktree contexts at the same
time, a thread each. Both are used by :mod:`wynot.scratch` and
:mod:`wynot.pool`.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from types import FrameType
from typing import Any

_INTERRUPTS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def signals_deferred() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP until the block ends (they are delivered then).

    In the main thread (elsewhere it does nothing): the signals are blocked in
    this thread, and one that another thread receives (a worker's, which does
    not block them) is not handled meanwhile: Python runs handlers in the main
    thread, here a handler that only notes the signal; the block's end raises
    it again, to the handler of before.

    Python raises a pending interrupt between any two calls, so the handlers
    and the mask of before are put back in nested ``finally`` clauses, each
    one call: an interrupt raised while one is put back cannot skip the next.
    Otherwise the thread could be left with the signals blocked or only noted,
    and later ones ignored. An interrupt raised while the block is being
    entered leaves everything as it was and propagates from the ``with``.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []

    def note(signum: int, _: object) -> None:
        noted.append(signum)

    previous = signal.pthread_sigmask(signal.SIG_BLOCK, ())  # the mask as it is
    sigint, sigterm, sighup = (_handler(signum) for signum in _INTERRUPTS)
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, _INTERRUPTS)
        for signum in _INTERRUPTS:
            signal.signal(signum, note)
        yield
    finally:
        try:
            try:
                try:
                    signal.signal(signal.SIGINT, sigint)
                finally:
                    signal.signal(signal.SIGTERM, sigterm)
            finally:
                signal.signal(signal.SIGHUP, sighup)
            for number in dict.fromkeys(noted):
                signal.raise_signal(number)  # pending until the mask of before is back
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _handler(signum: int) -> Callable[[int, FrameType | None], Any] | int:
    """The handler of ``signum`` now, in a form :func:`signal.signal` takes back."""
    handler = signal.getsignal(signum)
    return signal.SIG_DFL if handler is None else handler


MAX_REMOVALS = 16  # worktrees removed at the same time


class Removal:
    """Contexts of ``held`` (worktrees made by :func:`scratch_worktree` or
    :func:`kept_worktree`) being left, i.e. removed, all at the same time from
    the moment it is made; :meth:`wait` returns when all are left.

    Each removal is mostly a git process deleting files: several at once take
    little longer than one. They run in threads of their own (at most
    :data:`MAX_REMOVALS`, each taking the next context until none is left),
    started with interrupts held off, so that a signal neither cuts one short
    nor lands in them. One raised in this thread meanwhile (a signal another
    thread received) is raised by :meth:`wait` once every removal has ended;
    so is the first error of a removal.
    """

    def __init__(self, held: Sequence[AbstractContextManager[object]]) -> None:
        self._todo = list(reversed(held))
        self._errors: list[BaseException] = []
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._interrupted: BaseException | None = None
        with signals_deferred():
            try:
                while len(self._threads) < min(len(held), MAX_REMOVALS):
                    self._threads.append(threading.Thread(target=self._leave,
                                                          name="wynot-removal"))
                    self._threads[-1].start()
            except KeyboardInterrupt as error:  # the rest is left by those started, or wait
                self._interrupted = error

    def wait(self) -> None:
        with signals_deferred():
            while True:
                try:
                    for thread in self._threads:
                        with contextlib.suppress(RuntimeError):  # a start cut short
                            thread.join()
                    break
                except KeyboardInterrupt as error:  # every removal ends first
                    self._interrupted = error
            self._leave()  # what no thread took (none started)
        if self._interrupted is not None:
            raise self._interrupted
        if self._errors:
            raise self._errors[0]

    def _leave(self) -> None:
        while True:
            with self._lock:
                if not self._todo:
                    return
                context = self._todo.pop()
            try:
                context.__exit__(None, None, None)
            except BaseException as error:  # noqa: BLE001 - raised by wait, in its thread
                self._errors.append(error)


def wait_all(removals: Sequence[Removal]) -> None:
    """Wait for every removal of ``removals``, then raise what the first one raised."""
    first: BaseException | None = None
    for removal in removals:
        try:
            removal.wait()
        except BaseException as error:  # noqa: BLE001 - the others are waited for first
            first = first or error
    if first is not None:
        raise first
