"""How many CPU threads PyTorch should use here.

PyTorch starts one thread per logical core. On a small machine that also runs other work
(the notebook server, a browser, a second kernel), or on a JupyterHub server allowed only a
share of a big machine, those threads wait for each other on too few cores, and the course's
small models can run several times slower than with one thread. So the course asks for no
more threads than the cores this process may really use: ``OMP_NUM_THREADS`` when it is set,
else a CPU limit set for the server (JupyterHub's ``CPU_LIMIT``, a container's cgroup quota),
else the physical cores it may run on. Importing ``transformer_course`` applies it.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import torch

__all__ = ["sensible_threads", "use_sensible_threads"]


def _cgroup_cpus() -> float | None:
    """The CPU quota of this process's control group (cgroup v2 ``cpu.max``), if any."""
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()[:2]
    except (OSError, ValueError):
        return None
    return None if quota == "max" else int(quota) / int(period)


def _physical_cores() -> int:
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    try:
        import psutil

        physical = psutil.cpu_count(logical=False)
    except ImportError:
        physical = None
    logical = os.cpu_count() or 1
    if physical and usable:  # hyper-threads share a core: count cores, not threads
        return max(1, min(usable, round(usable * physical / logical)))
    return usable or physical or logical


def sensible_threads() -> tuple[int, str]:
    """(threads, the reason), without changing anything."""
    if (omp := os.environ.get("OMP_NUM_THREADS", "").strip()).isdigit() and int(omp) > 0:
        return int(omp), "OMP_NUM_THREADS says so"
    try:
        hub = float(os.environ.get("CPU_LIMIT", ""))
    except ValueError:
        hub = 0.0
    if hub > 0:
        return max(1, math.floor(hub)), f"this server's CPU limit (CPU_LIMIT={hub:g})"
    if (quota := _cgroup_cpus()) is not None:
        return max(1, math.floor(quota)), f"this container's CPU quota ({quota:g} CPUs)"
    cores = _physical_cores()
    return cores, f"{cores} physical core{'s' if cores != 1 else ''} available"


def use_sensible_threads() -> tuple[int, str]:
    """Set PyTorch's intra-op threads to ``sensible_threads()``; (threads, the reason)."""
    threads, reason = sensible_threads()
    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)
    return threads, reason
