"""Where the per-student grading jobs run: one interface, two executors.

``executor.run(function, jobs)`` yields each job's result as soon as it is done, in any order;
``executor.alone(function, jobs)`` runs jobs one at a time with nothing beside them (a
notebook stopped by a limit is graded again that way).
- ``LocalPool(workers)``: worker processes on this machine (the default, one per core).
- ``DaskCluster(address)``: a ``dask.distributed`` scheduler, for a class too big for one
  machine. Every worker needs the course installed at the same path (``pip install -e .``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context


def _one_thread_each() -> None:
    # Two workers with two math threads each ran 7x slower than with one thread each.
    os.environ["OMP_NUM_THREADS"] = os.environ["MKL_NUM_THREADS"] = "1"


class LocalPool:
    def __init__(self, workers: int | None = None):
        self.workers = workers or os.cpu_count() or 1

    def run(self, function: Callable, jobs: Iterable) -> Iterator:
        # "spawn": a fresh interpreter per worker, nothing inherited from the caller's state.
        with ProcessPoolExecutor(
            self.workers, mp_context=get_context("spawn"), initializer=_one_thread_each
        ) as pool:
            futures = [pool.submit(function, job) for job in jobs]
            try:
                for future in as_completed(futures):
                    yield future.result()
            finally:  # interrupted: don't start what is still queued
                for future in futures:
                    future.cancel()

    def alone(self, function: Callable, jobs: list) -> Iterator:
        """Run ``jobs`` one at a time, nothing else running beside them."""
        if jobs:
            yield from LocalPool(1).run(function, jobs)

    def __str__(self) -> str:
        return f"{self.workers} local worker process{'es' if self.workers > 1 else ''}"


class DaskCluster:
    def __init__(self, address: str):
        from distributed import Client

        self.client = Client(address)

    def run(self, function: Callable, jobs: Iterable) -> Iterator:
        from distributed import as_completed as dask_completed

        self.client.run(_one_thread_each)
        futures = [self.client.submit(function, job, pure=False) for job in jobs]
        try:
            for future in dask_completed(futures):
                yield future.result()
        finally:
            self.client.cancel(futures)

    def alone(self, function: Callable, jobs: list) -> Iterator:
        """Run ``jobs`` one at a time (each on one worker, none beside it)."""
        for job in jobs:
            yield from self.run(function, [job])

    def __str__(self) -> str:
        workers = len(self.client.scheduler_info().get("workers", {}))
        return f"Dask cluster at {self.client.scheduler.address} ({workers} workers)"
