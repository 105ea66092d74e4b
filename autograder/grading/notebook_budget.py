"""A notebook's time as grading spends it, cell by cell.

Limits count CPU time, not the clock: a cell may use ``cell_cpu`` seconds of CPU (the
kernel's and every process it started, read from /proc by ``autograder/kernels/cpu.py``) and
the notebook ``notebook_cpu``, so a busy machine never stops an honest cell. The clock is a
backstop (``cell_wall``, ``notebook_wall``) for code that sleeps or blocks; when the clock
stops a cell whose busiest process spent most of that time waiting for a CPU, the machine,
not the cell, was slow (``busy``), and the report says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from autograder.kernels import cpu


class NotebookBudget:
    """What one notebook may still spend, and, once a cell was stopped, why (``stopped``)."""

    def __init__(
        self,
        cell_cpu: float,
        notebook_cpu: float,
        cell_wall: float,
        notebook_wall: float,
        root: Callable[[], int | None],
    ):
        self.cell_cpu_limit, self.notebook_cpu = cell_cpu, notebook_cpu
        self.cell_wall_limit, self.notebook_wall = cell_wall, notebook_wall
        self.deadline = time.monotonic() + notebook_wall
        self.spent = 0.0  # CPU seconds of the kernels' cells and checks so far
        # Per cell, summed: seconds its busiest process ran or waited to run, and waited.
        self.wanted = self.waited = 0.0
        self.meter = cpu.Meter(root)
        self.stopped = "this cell ran past its limit"  # which limit, once one is reached
        self.busy = False  # whether that was the machine's doing (see over)

    def cell_wall(self) -> float:
        """Seconds by the clock a cell (or a call from the checker) may take now."""
        return max(1.0, min(self.cell_wall_limit, self.deadline - time.monotonic()))

    def cell_cpu(self) -> float:
        """CPU seconds a cell (or a call from the checker) may use now."""
        return max(1.0, min(self.cell_cpu_limit, self.notebook_cpu - self.spent))

    def end_now(self) -> None:
        """Nothing more runs in this notebook."""
        self.deadline = time.monotonic()

    def why_spent(self) -> str | None:
        """Why the notebook may run nothing more, if it may not."""
        if self.spent >= self.notebook_cpu:
            return f"the notebook used up its {self.notebook_cpu:.0f} s of CPU time"
        if time.monotonic() >= self.deadline:
            busy = self.wanted > self.notebook_wall / 2
            return f"the notebook used up its {self.notebook_wall:.0f} s by the clock" + (
                f", {self.waited:.0f} s of them waiting for a busy machine" if busy else ""
            )
        return None

    def count(self) -> None:
        """Add what the meter measured since its start to the notebook's CPU and waiting."""
        used, wanted, waited = self.meter.totals()
        self.spent += used
        self.wanted, self.waited = self.wanted + wanted, self.waited + waited

    def said(self) -> str:
        """The limit a cell reached, for the report (where "this cell" would not say which)."""
        return self.stopped.replace("this cell", "a cell", 1)

    def over(self, cpu_limit: float, wall: float, wall_end: float) -> bool:
        """Whether the running cell is over a limit; ``stopped`` says which, in words, and
        ``busy`` whether a busy machine, not the cell, made it slow."""
        self.busy = False
        if self.meter.used() > cpu_limit:
            self.stopped = f"this cell used more than {cpu_limit:.0f} s of CPU time"
        elif time.monotonic() > wall_end:
            wanted, waited = self.meter.wanted()
            self.busy = wanted > wall / 2
            why = (
                f"{waited:.0f} s of it waiting for a busy machine"
                if self.busy
                else "sleeping or waiting"
            )
            self.stopped = f"this cell took more than {wall:.0f} s by the clock ({why})"
        else:
            return False
        return True
