"""Where the per-student grading jobs run: one interface, two executors.

``executor.run(function, jobs, limit, stopped)`` yields each job's result as soon as it is
done, in any order; a job still running ``limit(job)`` seconds after it started is stopped, and
``stopped(job, why)`` is its result, so one notebook costs at most its own limit and the rest
of the class is graded. ``executor.alone(...)`` runs jobs one at a time with nothing beside
them (a notebook stopped by a limit is graded again that way).
- ``LocalPool(workers)``: worker processes on this machine (the default, one per core). A job
  over its limit is stopped with its worker process and everything the worker started.
- ``DaskCluster(address)``: a ``dask.distributed`` scheduler, for a class too big for one
  machine. Every worker needs the course installed at the same path (``pip install -e .``).
  A job over its limit is given up (cancelled); Dask cannot stop a task that is running.
"""

from __future__ import annotations

import ctypes
import math
import os
import shutil
import signal
import tempfile
import time
import traceback
from collections.abc import Callable, Iterable, Iterator
from multiprocessing import get_context
from multiprocessing.connection import wait

Limit = Callable[[object], float]  # a job's seconds by the clock
CLOSE_SECONDS = 60  # how long an idle worker has to end by itself
PR_SET_PDEATHSIG = 1
Stopped = Callable[[object, str], object]  # the result of a job that could not finish


def _one_thread_each() -> None:
    # Two workers with two math threads each ran 7x slower than with one thread each.
    os.environ["OMP_NUM_THREADS"] = os.environ["MKL_NUM_THREADS"] = "1"


def _die_with_parent() -> None:
    """Ask Linux to kill this process when the process that started it dies (the grading
    command killed alone, by the machine's out-of-memory killer, say)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: its pipe closing ends it after the job
        pass
    if os.getppid() == 1:  # the parent was gone already
        os._exit(1)


def _serve(connection, function: Callable, scratch: str) -> None:
    """A worker process: run each job it is sent, send back (True, result) or (False, error).
    Its temporary files go in ``scratch``, which its parent removes however it ends."""
    _die_with_parent()
    os.environ["TMPDIR"] = scratch
    tempfile.tempdir = None
    _one_thread_each()
    while (job := connection.recv()) is not None:
        try:
            connection.send((True, function(job)))
        except Exception:  # noqa: BLE001 - the caller raises it
            connection.send((False, traceback.format_exc()))


class _Worker:
    """One worker process ("spawn": a fresh interpreter, nothing inherited from the caller)."""

    def __init__(self, function: Callable):
        context = get_context("spawn")
        self.connection, theirs = context.Pipe()
        self.scratch = tempfile.mkdtemp(prefix="grading-worker-")
        self.process = context.Process(
            target=_serve, args=(theirs, function, self.scratch), daemon=True
        )
        self.process.start()
        theirs.close()
        self.job, self.deadline = None, math.inf

    def start(self, job, seconds: float) -> None:
        self.job, self.deadline = job, time.monotonic() + seconds
        self.connection.send(job)

    def close(self) -> None:
        """Let an idle worker end as it does (its zygote stopped, its folders removed)."""
        try:
            self.connection.send(None)
        except OSError:
            pass
        self.process.join(CLOSE_SECONDS)
        self.stop()

    def stop(self) -> None:
        """Kill the worker and every process below it (zygote, kernels, their children), if
        still there; remove its temporary files."""
        if self.process.exitcode is None:
            assert self.process.pid is not None  # started in __init__
            for pid in _tree(self.process.pid):
                _signal(pid, signal.SIGKILL)
            self.process.join(5)
        self.connection.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


def _signal(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except (ProcessLookupError, PermissionError):
        pass


def _children() -> dict[int, list[int]]:
    """Every process's children, from /proc: parent pid -> pids."""
    found: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        found.setdefault(parent, []).append(int(entry))
    return found


def _tree(root: int) -> list[int]:
    """``root`` and its descendants, each stopped (SIGSTOP) as found, so that none forks
    past the search; the caller kills them."""
    stopped: list[int] = []
    todo = [root]
    while todo:
        for pid in todo:
            _signal(pid, signal.SIGSTOP)
        stopped += todo
        children = _children()
        todo = [child for pid in todo for child in children.get(pid, []) if child not in stopped]
    return stopped


class LocalPool:
    def __init__(self, workers: int | None = None):
        self.workers = workers or os.cpu_count() or 1

    def run(
        self,
        function: Callable,
        jobs: Iterable,
        limit: Limit | None = None,
        stopped: Stopped | None = None,
    ) -> Iterator:
        queue = list(jobs)[::-1]
        idle: list[_Worker] = []
        busy: list[_Worker] = []
        try:
            while queue or busy:
                while queue and len(busy) < self.workers:
                    worker = idle.pop() if idle else _Worker(function)
                    job = queue.pop()
                    worker.start(job, limit(job) if limit else math.inf)
                    busy.append(worker)
                wake = min(w.deadline for w in busy) - time.monotonic()
                ready = wait(
                    [w.connection for w in busy],
                    timeout=None if wake == math.inf else max(0.0, wake),
                )
                for worker in list(busy):
                    if worker.connection in ready:
                        busy.remove(worker)
                        try:
                            ok, value = worker.connection.recv()
                        except (EOFError, OSError):  # the worker died (killed, out of memory)
                            worker.stop()
                            yield self._stopped(
                                stopped, worker.job, "the grading process died while grading it"
                            )
                            continue
                        idle.append(worker)
                        if not ok:
                            raise RuntimeError(f"a grading job failed:\n{value}")
                        yield value
                    elif time.monotonic() >= worker.deadline:
                        assert limit is not None  # without one, every deadline is math.inf
                        busy.remove(worker)
                        worker.stop()
                        yield self._stopped(
                            stopped,
                            worker.job,
                            f"grading it took longer than its limit of "
                            f"{limit(worker.job):.0f} s; it was stopped",
                        )
        finally:  # done, or interrupted: nothing is left running
            for worker in idle:
                worker.close()
            for worker in busy:
                worker.stop()

    @staticmethod
    def _stopped(stopped: Stopped | None, job, why: str):
        if stopped is None:
            raise RuntimeError(f"a grading job could not finish: {why}")
        return stopped(job, why)

    def alone(
        self,
        function: Callable,
        jobs: list,
        limit: Limit | None = None,
        stopped: Stopped | None = None,
    ) -> Iterator:
        """Run ``jobs`` one at a time, nothing else running beside them."""
        if jobs:
            yield from LocalPool(1).run(function, jobs, limit, stopped)

    def __str__(self) -> str:
        return f"{self.workers} local worker process{'es' if self.workers > 1 else ''}"


class DaskCluster:
    def __init__(self, address: str):
        from distributed import Client

        self.client = Client(address)

    def run(
        self,
        function: Callable,
        jobs: Iterable,
        limit: Limit | None = None,
        stopped: Stopped | None = None,
    ) -> Iterator:
        from distributed import wait as dask_wait

        self.client.run(_one_thread_each)
        jobs = list(jobs)
        futures = {self.client.submit(function, job, pure=False): job for job in jobs}
        # Queued jobs wait for a worker: each is given its limit from when the one before
        # it on a worker could have ended, a bound that counts the queue as well.
        slots = max(1, len(self.client.scheduler_info().get("workers", {})))
        started = time.monotonic()
        deadlines = {
            future: started + (limit(job) * (1 + n // slots) if limit else math.inf)
            for n, (future, job) in enumerate(futures.items())
        }
        try:
            while futures:
                wake = min(deadlines[f] for f in futures) - time.monotonic()
                try:
                    done, _ = dask_wait(
                        list(futures),
                        return_when="FIRST_COMPLETED",
                        timeout=None if wake == math.inf else max(0.01, wake),
                    )
                except TimeoutError:  # dask's way of saying none finished in time
                    done = set()
                for future in done:
                    futures.pop(future)
                    yield future.result()
                for future in [f for f in futures if time.monotonic() >= deadlines[f]]:
                    job = futures.pop(future)
                    future.cancel()
                    yield LocalPool._stopped(
                        stopped, job, "grading it took longer than its limit; it was given up"
                    )
        finally:
            self.client.cancel(list(futures))

    def alone(
        self,
        function: Callable,
        jobs: list,
        limit: Limit | None = None,
        stopped: Stopped | None = None,
    ) -> Iterator:
        """Run ``jobs`` one at a time (each on one worker, none beside it)."""
        for job in jobs:
            yield from self.run(function, [job], limit, stopped)

    def __str__(self) -> str:
        workers = len(self.client.scheduler_info().get("workers", {}))
        return f"Dask cluster at {self.client.scheduler.address} ({workers} workers)"
