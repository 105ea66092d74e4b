"""What one notebook may use while it is graded: the course's limits.

``Limits`` holds the CPU seconds a cell and a notebook may use (the kernel's and every
process it started, read from /proc), the clock's backstops for code that sleeps or blocks
(multiples of those, unless given), the kernel's memory and file size, and the output a cell
may keep; ``GRADER_SECONDS`` is the grader's own time on one notebook, beyond those, which
the worker pool adds to a job's limit. Importing this module is cheap.
"""

from __future__ import annotations

from dataclasses import dataclass

GRADER_SECONDS = 300  # the grader's own work on one notebook, beyond its kernel's limits


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
    cell_wall: float | None = None  # seconds by the clock; None: 5 × cell_timeout
    notebook_wall: float | None = None  # None: 4 × notebook_timeout

    def __post_init__(self):
        self.cell_wall = self.cell_wall or 5 * self.cell_timeout
        self.notebook_wall = self.notebook_wall or 4 * self.notebook_timeout
