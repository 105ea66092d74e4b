"""A synthetic load, as on a shared server: busy processes that stop by themselves.

    with busy(4, seconds=300):   # four processes spinning on the CPU, ended on leaving
        ...

Each process ends on its own after ``seconds`` even if nothing stops it (a test that dies
leaves no load behind); leaving the block kills them at once.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path

SPIN = "import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass\n"


@contextlib.contextmanager
def busy(processes: int = 4, seconds: float = 600):
    loops = [
        subprocess.Popen(
            [sys.executable, "-c", SPIN.format(seconds=seconds)], stdin=subprocess.DEVNULL
        )
        for _ in range(processes)
    ]
    try:
        time.sleep(0.2)  # running before the work that is to meet them starts
        yield loops
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()


def runnable() -> int:
    """Tasks running or waiting for a CPU on this machine now (ourselves included)."""
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith("procs_running"):
            return int(line.split()[1])
    return 0


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])
