"""Time for the checks' own work in a kernel, counted in this process's CPU seconds, so that
a busy machine gives what a quiet one does: the budget for naming a mistake
(``naming.py``) and the limit on one variant answer's run.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time


class CpuBudget:
    """Time to look for a variant, counted in this process's CPU seconds, so that a busy
    machine names what a quiet one does; the clock stops it at four times as long, for
    checks that wait on a kernel, less the time this process spent waiting for a CPU (on a
    busy machine that is most of the clock's time, and not the checks' doing)."""

    def __init__(self, seconds: float):
        self._cpu = time.process_time() + seconds
        self._wall = time.monotonic() + 4 * seconds
        self._waited = waited_for_cpu()  # read again only once the clock has run out

    def over(self) -> bool:
        if time.process_time() > self._cpu:
            return True
        if time.monotonic() <= self._wall:
            return False
        waited = waited_for_cpu() - self._waited
        self._wall += waited
        self._waited += waited
        return time.monotonic() > self._wall


class OutOfCpu(BaseException):
    """A variant answer ran past its time: a mutant of a loop that never ends (a `while` whose
    step was rewritten). Not an Exception, so that no `except Exception` inside swallows it."""


@contextlib.contextmanager
def cpu_limit(seconds: float):
    """Stop the code inside with ``OutOfCpu`` after ``seconds`` of this process's CPU
    time, where a signal can stop it (the main thread, a system with interval timers)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return

    def stop(signum, frame):
        raise OutOfCpu()

    previous = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def waited_for_cpu() -> float:
    """Seconds this process's threads have spent runnable but waiting for a CPU (Linux's
    schedstat); 0 where there is no /proc."""
    total = 0
    with contextlib.suppress(OSError, IndexError, ValueError):
        for task in os.scandir("/proc/self/task"):
            with open(os.path.join(task.path, "schedstat")) as stat:
                total += int(stat.read().split()[1])
    return total / 1e9
