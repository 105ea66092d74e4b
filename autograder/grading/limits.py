"""What one notebook may use while it is graded: the course's limits, the only place their
numbers are written.

``Limits`` holds the CPU seconds a cell and a notebook may use (the kernel's and every
process it started, read from /proc), the clock's backstops for code that sleeps or blocks
(multiples of those, unless given), the kernel's memory and file size, and the output a cell
may keep. Everything else reads its defaults from here: the command line
(``python -m autograder.grading --help``), nbgrader's configuration
(``autograder/nbgrader_config.py``: ``Execute.timeout`` for nbgrader's own commands), the
grading job's settings of ``SafeExecute`` and of the sandbox, and the worker pool's limit on
one job (``GRADER_SECONDS`` beyond the notebook's). ``tests/test_limits.py`` holds them to it.
Importing this module is cheap: nbgrader's configuration file imports it.
"""

from __future__ import annotations

from dataclasses import dataclass

CELL_WALL_TIMES = 5  # the clock's backstop for a cell: this many times its CPU seconds
NOTEBOOK_WALL_TIMES = 4  # and for a notebook
GRADER_SECONDS = 300  # the grader's own work on one notebook, beyond its kernel's limits
SANDBOX_CPU_TIMES = 2  # the kernel's own CPU limit (a last resort): the notebook's, twice
CGROUP_HEADROOM = 2 << 30  # the zygote's control group: a kernel's memory and this much more
CGROUP_TASKS = 1024  # processes in that control group (the zygote and its kernels)


@dataclass
class Limits:
    """What one notebook may use. Time limits count CPU seconds (the kernel's and every process
    it started); the clock's backstops, for code that sleeps or blocks, are generous
    multiples of them unless given."""

    cell_timeout: float = 60
    notebook_timeout: float = 300
    memory_bytes: int = 4 << 30
    file_bytes: int = 64 << 20
    output_chars: int = 200_000
    cell_wall: float | None = None  # seconds by the clock; None: CELL_WALL_TIMES × cell_timeout
    notebook_wall: float | None = None  # None: NOTEBOOK_WALL_TIMES × notebook_timeout

    def __post_init__(self):
        self.cell_wall = self.cell_wall or CELL_WALL_TIMES * self.cell_timeout
        self.notebook_wall = self.notebook_wall or NOTEBOOK_WALL_TIMES * self.notebook_timeout

    def sandbox_cpu(self) -> int:
        """CPU seconds the kernel's process may use at all (``COURSE_SANDBOX_CPU``): a last
        resort behind the notebook's CPU budget and the clock."""
        return int(self.notebook_timeout * SANDBOX_CPU_TIMES)

    def cgroup_memory(self) -> int:
        """Bytes of memory for the zygote's control group: one kernel's and some headroom."""
        return self.memory_bytes + CGROUP_HEADROOM
