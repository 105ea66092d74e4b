"""The kernel as the trusted checker's link sees it (``trusted/link.py``'s ``Kernel``).

The checks of a test cell run on the grader's side and call the student's functions in the
kernel with silent user expressions. This is all they can do with it: send one, wait for its
reply under the cell's CPU seconds (counted into the notebook's budget like a cell's),
interrupt it, and ask whether it still answers. The kernel and its client are the grading
executor's current ones, which a restart replaces.
"""

from __future__ import annotations

import inspect
import time
from queue import Empty
from typing import Any

from jupyter_core.utils import run_sync

from autograder.grading.notebook_budget import NotebookBudget

POLL_SECONDS = 0.5  # how often a running cell's (or call's) CPU time is read
# Quick calls leave the reading of the kernel's CPU (0.6 ms, a seventh of a round trip) to a
# later one, at most this many seconds by the clock later: the budget then lags by as much.
READ_EVERY = 0.25


def _call(method):
    """Call a kernel manager's method: a coroutine function for nbclient's asynchronous one."""
    return run_sync(method)() if inspect.iscoroutinefunction(method) else method()


class KernelForChecks:
    """``runner``'s current kernel (``km``) and client (``kc``), nbclient's names."""

    def __init__(self, runner: Any, budget: NotebookBudget):
        self.runner, self.budget = runner, budget
        self._next_reading = 0.0  # when quick calls' CPU is next read into the budget

    def evaluate(self, expression: str) -> str:
        """Send ``expression`` to be evaluated silently (user expression "r"); its id."""
        return self.runner.kc.execute(
            "",
            silent=True,
            store_history=False,
            allow_stdin=False,
            user_expressions={"r": expression},
        )

    def interrupt(self) -> None:
        """Interrupt the kernel, whichever kind of kernel manager runs it."""
        try:
            _call(self.runner.km.interrupt_kernel)
        except Exception:  # noqa: BLE001 - a dead kernel is dealt with by the caller
            pass

    def answers(self, patience: float = 20.0) -> bool:
        """Whether the kernel answers. A live kernel that is slow to answer (a loaded machine)
        gets up to ``patience`` seconds within the notebook's time, so that it is not taken for
        a dead one and replaced, which would cost an honest student the replayed cells' time."""
        try:
            msg_id = self.runner.kc.kernel_info()
            now = time.monotonic()
            give_up = min(now + patience, max(self.budget.deadline, now + 5))
            while True:
                if self.reply(msg_id, timeout=5) is not None:
                    return True
                if time.monotonic() >= give_up or not _call(self.runner.km.is_alive):
                    return False
        except Exception:  # noqa: BLE001 - a kernel that cannot be asked does not answer
            return False

    def cpu_seconds(self) -> float:
        """CPU seconds the kernels have used on this notebook's cells and checks so far (the
        last ``READ_EVERY`` seconds of quick calls may not be in it yet)."""
        return self.budget.spent

    def settle(self) -> None:
        """Count the CPU the calls used since the last reading into the notebook's budget.
        (Each call's meter starts where the last reading ended, so what a reading skipped
        is in the next one: nothing is lost, it is only counted a moment later.)"""
        self.budget.count()
        self._next_reading = time.monotonic() + READ_EVERY

    def reply(self, msg_id: str, timeout: float) -> dict | None:
        """The kernel's reply to ``msg_id``; None once ``timeout`` seconds have passed or the
        kernel has used a cell's CPU seconds on it."""
        deadline, cpu_limit = time.monotonic() + timeout, self.budget.cell_cpu()
        self.budget.meter.start()
        try:
            while time.monotonic() < deadline:
                try:  # never a negative timeout: zmq would wait for ever
                    wait = max(0.01, min(POLL_SECONDS, deadline - time.monotonic()))
                    msg = run_sync(self.runner.kc.get_shell_msg)(timeout=wait)
                except Empty:  # the CPU read between polls, not before each quick reply
                    if self.budget.meter.used() > cpu_limit:
                        return None
                    continue
                except Exception:  # noqa: BLE001 - a dropped channel is no reply
                    return None
                if msg["parent_header"].get("msg_id") == msg_id:
                    return msg
            return None
        finally:
            if time.monotonic() >= self._next_reading:
                self.settle()
