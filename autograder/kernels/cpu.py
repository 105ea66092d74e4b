"""The CPU time a kernel and everything it started have used, read from /proc.

Grading limits count CPU time, not the clock: on a busy machine an honest cell takes longer
by the clock, not in CPU. The kernel is not asked how much it used (it runs student code);
the grader reads ``/proc`` instead: user + system time, including reaped children, of every
process below a root — the kernel's launcher, or the grading worker's zygote, whose forks are
its kernels (one at a time). Processes that ended without being reaped inside the tree are
no longer counted once gone; the clock's backstop covers what escapes this way.

The same tree's time spent *waiting* for a CPU (runnable, on the run queue: the scheduler's
``schedstat``) tells a cell slowed by a busy machine from one that sleeps or blocks: only the
first deserves to be graded again when the clock stops it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
# Linux lists a thread's children in /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN);
# without it, the tree is found from every process's parent.
LISTS_CHILDREN = Path(f"/proc/self/task/{os.getpid()}/children").exists()


def _stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds of the process, its threads and its reaped children)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # the name may hold spaces and brackets
    utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
    return int(fields[1]), (utime + stime + cutime + cstime) / TICKS


def _children(pid: int) -> list[int]:
    """Children of ``pid``, started by any of its threads."""
    found = []
    try:
        for task in os.scandir(f"/proc/{pid}/task"):
            found += [int(c) for c in Path(task.path, "children").read_text().split()]
    except OSError:  # it has just ended
        pass
    return found


def _waited(pid: int) -> float:
    """Seconds the threads of ``pid`` have spent runnable but waiting for a CPU."""
    total = 0
    try:
        for task in os.scandir(f"/proc/{pid}/task"):
            total += int(Path(task.path, "schedstat").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        pass
    return total / 1e9


def tree_seconds(root: int, waited: bool = False) -> tuple[dict[int, float], dict[int, float]]:
    """CPU seconds of every process in the tree below ``root`` (``root`` included), and with
    ``waited`` their seconds waiting for a CPU too (else an empty dict): one walk for both."""
    times, waits, todo, children = {}, {}, [root], _children
    if not LISTS_CHILDREN:
        parents: dict[int, list[int]] = {}
        for entry in os.scandir("/proc"):
            if entry.name.isdigit() and (stat := _stat(int(entry.name))):
                parents.setdefault(stat[0], []).append(int(entry.name))
        children = lambda pid: parents.get(pid, [])  # noqa: E731
    while todo:
        pid = todo.pop()
        if pid in times or (stat := _stat(pid)) is None:
            continue
        times[pid] = stat[1]
        if waited:
            waits[pid] = _waited(pid)
        todo += children(pid)
    return times, waits


class Meter:
    """CPU seconds used below ``root()`` since ``start()`` (never going down), and how much a
    single process there wanted a CPU (ran or waited for one)."""

    def __init__(self, root: Callable[[], int | None]):
        self.root = root
        self._pid: int | None = None
        self._base: dict[int, float] = {}
        self._base_waited: dict[int, float] = {}
        self._last: tuple[dict[int, float], dict[int, float]] | None = None
        self._most = 0.0

    def start(self) -> None:
        """Measure from now on; for the same root, from the reading ``totals()`` last took.
        Measures then follow each other with no gap, so what the tree ran in between (a
        thread a cell left running, a fresh kernel's start) counts too, and the checks' many
        quick calls read the tree once each instead of twice."""
        pid = self.root()
        if pid and pid == self._pid and self._last is not None:
            self._base, self._base_waited = self._last
        else:
            self._base, self._base_waited = tree_seconds(pid, True) if pid else ({}, {})
        self._pid, self._most = pid, 0.0

    def used(self) -> float:
        if self._pid:
            self._most = max(
                self._most, sum(_since(self._base, tree_seconds(self._pid)[0]).values())
            )
        return self._most

    def wanted(self) -> tuple[float, float]:
        """(seconds the busiest process ran or waited to run, of them waiting) since
        ``start()``: near the clock's time when a busy machine, not sleep, made a cell slow.
        (One process: a student's hundred processes waiting for each other say nothing
        about the machine.)"""
        return self.totals()[1:]

    def totals(self) -> tuple[float, float, float]:
        """``used()`` and ``wanted()`` from one reading of the tree."""
        if not self._pid:
            return 0.0, 0.0, 0.0
        now, now_waited = self._last = tree_seconds(self._pid, True)
        ran = _since(self._base, now)
        self._most = max(self._most, sum(ran.values()))
        waited = _since(self._base_waited, now_waited)
        busiest = max(waited, key=lambda p: waited[p] + ran.get(p, 0.0), default=None)
        if busiest is None:
            return self._most, 0.0, 0.0
        return self._most, waited[busiest] + ran.get(busiest, 0.0), waited[busiest]


def _since(base: dict[int, float], now: dict[int, float]) -> dict[int, float]:
    # A pid seen before with more time is a new process that reuses the number.
    return {p: t - base.get(p, 0.0) if t >= base.get(p, 0.0) else t for p, t in now.items()}
