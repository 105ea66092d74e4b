"""How many CPU threads PyTorch should use here, now.

PyTorch splits large operations between threads that meet at the end of each one. When a
thread does not get a core (the machine has fewer cores than that, or other programs are
running: the notebook server, a browser, other users of a JupyterHub node), the others wait
for it at every meeting, and the course's small models run many times slower than with one
thread: 20 capstone steps took 130 s with two threads on a busy 2-core machine, 10 s with one.
So the course asks for no more threads than the cores this process can get now:

1. a count set by you (``torch.set_num_threads``) or by ``OMP_NUM_THREADS`` is kept as it is;
2. else the cores it may use: its CPU affinity (physical cores, not hyper-threads), and a
   CPU limit on the server (JupyterHub's ``CPU_LIMIT``, a container's cgroup quota);
3. less the cores other programs are keeping busy right now, measured over a tenth of a
   second from ``/proc/stat``; at least one thread.

Importing ``transformer_course`` applies it, and so does the start of each ``Budget`` loop
(``transformer_course.budget``), so that a long training run fits the machine as it is when
it starts. Importing the package also asks OpenMP to let waiting threads sleep
(``OMP_WAIT_POLICY=PASSIVE``, unless set) instead of spinning on a core another thread or
program needs; that works only when the package is imported before PyTorch, as the
notebooks' first cell does.
"""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

import torch

__all__ = ["sensible_threads", "use_sensible_threads"]

CGROUPS, OWN_CGROUPS = Path("/sys/fs/cgroup"), Path("/proc/self/cgroup")
SAMPLE_SECONDS = 0.1  # how long the other programs' use of the cores is watched
SLACK = 0.5  # cores: 1.5 free cores still take two threads (a browser's blink is not load)

_chosen: int | None = None  # what this module set last
_yours = False  # whether someone else chose a count (torch.set_num_threads)
_set_num_threads = torch.set_num_threads


def _someone_chose(count: int) -> None:
    """``torch.set_num_threads``, noting that the count is now someone's choice."""
    global _yours
    _yours = True
    _set_num_threads(count)


_someone_chose.__doc__ = torch.set_num_threads.__doc__
_someone_chose.__wrapped__ = _set_num_threads
torch.set_num_threads = _someone_chose


def _quota_files() -> list[tuple[Path, Path | None]]:
    """(quota file, period file or None for cgroup v2's ``cpu.max``) that may apply here."""
    root, found = CGROUPS, []
    try:
        lines = OWN_CGROUPS.read_text().splitlines()
    except OSError:
        lines = []
    for line in lines:
        _, controllers, path = line.split(":", 2)
        path = path.lstrip("/")
        if controllers == "":  # v2: this group and every group above it
            parts = Path(path).parts
            found += [
                (root.joinpath(*parts[:n], "cpu.max"), None) for n in range(len(parts), -1, -1)
            ]
        elif "cpu" in controllers.split(","):
            for folder in {controllers, "cpu", "cpu,cpuacct"}:
                base = root / folder
                for where in {base / path, base}:
                    found.append((where / "cpu.cfs_quota_us", where / "cpu.cfs_period_us"))
    return found


def _cgroup_cpus() -> float | None:
    """The tightest CPU quota of this process's control groups, in CPUs, if any."""
    quotas = []
    for quota_file, period_file in _quota_files():
        try:
            if period_file is None:
                quota, period = quota_file.read_text().split()[:2]
            else:
                quota, period = quota_file.read_text().strip(), period_file.read_text().strip()
            if quota not in ("max", "-1") and int(quota) > 0:
                quotas.append(int(quota) / int(period))
        except (OSError, ValueError):
            continue
    return min(quotas) if quotas else None


def _allowed_cpus() -> set[int]:
    if hasattr(os, "sched_getaffinity"):
        return set(os.sched_getaffinity(0))
    return set(range(os.cpu_count() or 1))


def _physical_cores() -> int:
    usable = len(_allowed_cpus())
    try:
        import psutil

        physical = psutil.cpu_count(logical=False)
    except ImportError:
        physical = None
    logical = os.cpu_count() or 1
    if physical and usable:  # hyper-threads share a core: count cores, not threads
        return max(1, min(usable, round(usable * physical / logical)))
    return usable or physical or logical


def _cpu_ticks(cpus: set[int]) -> tuple[int, int]:
    """(busy, total) clock ticks so far of the given CPUs, from /proc/stat."""
    busy = total = 0
    for line in Path("/proc/stat").read_text().splitlines():
        name, *fields = line.split()
        if not name.startswith("cpu") or name == "cpu" or int(name[3:]) not in cpus:
            continue
        ticks = [int(f) for f in fields[:8]]  # user nice system idle iowait irq softirq steal
        busy += sum(ticks) - ticks[3] - ticks[4]
        total += sum(ticks)
    return busy, total


def _own_ticks() -> int:
    fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # this process's user + system ticks


def busy_elsewhere(cpus: set[int] | None = None, seconds: float = SAMPLE_SECONDS) -> float | None:
    """Cores' worth of work other programs are doing on ``cpus`` right now (None where
    /proc/stat cannot say)."""
    cpus = cpus if cpus is not None else _allowed_cpus()
    try:
        busy, total, own = *_cpu_ticks(cpus), _own_ticks()
        time.sleep(seconds)
        busy2, total2, own2 = *_cpu_ticks(cpus), _own_ticks()
    except (OSError, ValueError, IndexError):
        return None
    if total2 <= total:
        return None
    share = max(0, (busy2 - busy) - (own2 - own)) / (total2 - total)
    return share * len(cpus)


def sensible_threads() -> tuple[int, str]:
    """(threads, the reason) for this process now, without changing anything."""
    if (omp := os.environ.get("OMP_NUM_THREADS", "").strip()).isdigit() and int(omp) > 0:
        return int(omp), "OMP_NUM_THREADS says so"
    cores, reason = _physical_cores(), "physical cores this process may use"
    try:
        hub = float(os.environ.get("CPU_LIMIT", ""))
    except ValueError:
        hub = 0.0
    if 0 < hub < cores + 1:
        cores, reason = hub, f"this server's CPU limit (CPU_LIMIT={hub:g})"
    if (quota := _cgroup_cpus()) is not None and quota < cores:
        cores, reason = quota, f"this container's CPU quota ({quota:g} CPUs)"
    threads = max(1, math.floor(cores))
    said = f"{threads} core{'s' if threads > 1 else ''}: {reason}"
    if threads > 1 and (busy := busy_elsewhere()) is not None:
        free = len(_allowed_cpus()) - busy
        if free + SLACK < threads:
            threads = max(1, math.floor(free + SLACK))
            said += f", {busy:.1f} of them kept busy by other programs right now"
    return threads, said


def use_sensible_threads() -> tuple[int, str]:
    """Set PyTorch's intra-op threads to ``sensible_threads()``, unless a count was chosen
    already; (threads in use, the reason)."""
    global _chosen
    current = torch.get_num_threads()
    if _yours or (_chosen is not None and current != _chosen):
        return current, "you chose it (torch.set_num_threads); the course leaves it alone"
    if _chosen is None and current not in _pytorch_defaults():
        return current, "chosen before the course's package was imported; left alone"
    threads, reason = sensible_threads()
    if current != threads:
        _set_num_threads(threads)
    _chosen = threads
    return threads, reason


def _pytorch_defaults() -> set[int]:
    """The counts PyTorch may have started with here (the CPUs it may use, or its cores)."""
    found = {len(_allowed_cpus()), os.cpu_count() or 1, _physical_cores()}
    if (omp := os.environ.get("OMP_NUM_THREADS", "").strip()).isdigit():
        found.add(int(omp))
    return found
