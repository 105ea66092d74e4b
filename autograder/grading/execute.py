"""nbgrader's Execute step, hardened for notebooks that misbehave.

It replaces nbgrader's ``Execute`` in the grading pipeline (``Autograde.autograde_preprocessors``)
and adds, per notebook:
- limits that count CPU time, not the clock (``notebook_budget.py``): a cell may use
  ``timeout`` seconds of CPU and the notebook ``notebook_timeout``, so a busy grading machine
  never stops an honest cell; a generous wall-clock backstop (``cell_wall``,
  ``notebook_wall``) stops code that sleeps or blocks. A cell over a limit is interrupted;
  cells beyond the notebook's budget are marked "not run" instead of waiting;
- recovery: when the kernel dies (``os._exit``, a crash, the CPU limit) or stays busy after
  a timed-out cell is interrupted, a fresh kernel replays the cells that ran and grading goes
  on, so the answers after the crash still earn their points;
- kernels on Unix sockets of their own, whose messages are bounded (``kernel_sockets.py``);
- a cap on each cell's output while it runs, counting every kind of message (streams,
  display data, images, HTML, updates), where nbgrader's LimitOutput trims only afterwards;
- test cells that never run in the kernel: the trusted checker (``autograder/trusted/checker.py``)
  runs them on the grader's side and writes their report and score as the cell's output,
  calling the student's functions in the kernel through a data-only channel.

What happened is written as JSON lines to ``events_path`` for the grading report
(``events.py``).
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import time
from queue import Empty

import zmq
from jupyter_core.utils import ensure_async, run_sync
from nbclient.client import timestamp
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbgrader.preprocessors import Execute
from nbgrader.utils import is_grade
from traitlets import Enum, Float, Integer, Unicode

from autograder.cells import grade_id
from autograder.grading import kernel_sockets
from autograder.grading.cell_outputs import CUT, checks_outputs, error_output, stdout
from autograder.grading.course_cells import CourseCells, first_line
from autograder.grading.events import EventLog
from autograder.grading.kernel_for_checks import POLL_SECONDS, KernelForChecks
from autograder.grading.notebook_budget import NotebookBudget
from autograder.grading.safe_pages import plain_metadata
from autograder.mutation.variants import VariantAnswers, answer_sources
from autograder.trusted.checker import Checker
from autograder.trusted.link import MAX_REQUESTS, KernelLink
from autograder.trusted.reading import NotebookReading
from course_checks import cell_errors, context, selfcheck
from course_checks.context import GradingContext

SETUP = "setup"  # the grade id of the locked cell of imports that test cells rely on


class SafeExecute(Execute):
    notebook_timeout = Float(300, help="CPU seconds a whole notebook may use.").tag(config=True)
    cell_wall = Float(300, help="Seconds by the clock a cell may take (sleeping, blocked).").tag(
        config=True
    )
    notebook_wall = Float(1200, help="Seconds by the clock a whole notebook may take.").tag(
        config=True
    )
    cpu_root = Integer(
        0,
        help="The process whose tree holds the kernels (the zygote); 0: the "
        "kernel manager's own process.",
    ).tag(config=True)
    max_restarts = Integer(3, help="Fresh kernels a notebook may use.").tag(config=True)
    # Every output has arrived when the last cell's reply has: nothing is left for a graceful
    # shutdown to wait for (0.3 s a notebook, polling) or for a hung kernel to refuse. Killing
    # the launcher closes its line to the fork's keeper, which kills the kernel's processes.
    shutdown_kernel = Enum(["graceful", "immediate"], default_value="immediate").tag(config=True)
    max_output_chars = Integer(200_000, help="Output kept per cell while it runs.").tag(config=True)
    workdir = Unicode("", help="Folder the kernel runs in (empty: the notebook's).").tag(
        config=True
    )
    events_path = Unicode("", help="File to append event lines to.").tag(config=True)
    secret = Unicode("", help="This student's secret for the hidden checks' seeds.").tag(
        config=True
    )
    ipc_root = Unicode("", help="Folder for the kernels' Unix sockets (empty: TCP).").tag(
        config=True
    )
    reference = Unicode(
        "",
        help="The assignment's source notebook, whose answers' mutants "
        "name the mistakes the checks find (empty: none).",
    ).tag(config=True)

    def create_kernel_manager(self):
        return kernel_sockets.bound(super().create_kernel_manager(), self.ipc_root)

    def preprocess(self, nb, resources=None, km=None):
        self._log = EventLog(self.events_path)
        self._budget = NotebookBudget(
            self.timeout or 1e9,
            self.notebook_timeout,
            self.cell_wall,
            self.notebook_wall,
            self._cpu_root,
        )
        self._ran: list[int] = []  # code cells executed so far, for a replay
        self._restarts = 0
        self._out_of_time = False
        self.for_checks = KernelForChecks(self, self._budget)
        self.checker = Checker(KernelLink(self.for_checks), self.secret)
        self._course = CourseCells(nb)  # names cells for the checks' messages
        # A test cell's place among the code cells: its checks run after the cells above it.
        self._places = {
            id(c): n for n, c in enumerate(c for c in nb.cells if c.cell_type == "code")
        }
        self._testing: tuple[int | None, str] = (None, "")  # the test cell being checked
        self._output_chars: dict[int, int] = {}
        if self.workdir:
            # Not the autograded folder: the notebook there holds the hidden tests.
            resources = dict(resources or {})
            resources["metadata"] = dict(resources.get("metadata", {}), path=self.workdir)
        self.timeout_func = lambda cell: self._budget.cell_wall()
        with context.grading(self._context(nb)):  # the previous student's is forgotten
            nb, resources = super().preprocess(nb, resources, km)
        for cell in nb.cells:  # what pages write into HTML attributes: numbers, not text
            for output in cell.get("outputs", []):
                if "metadata" in output:
                    output["metadata"] = plain_metadata(output["metadata"])
        return nb, resources

    async def async_start_new_kernel_client(self):
        """Start the kernel client; a kernel that dies or does not answer while starting gets
        two more tries, a moment apart (seen once in a hundred runs under heavy load)."""
        for attempt in range(3):
            try:
                return await super().async_start_new_kernel_client()
            except Exception as error:
                if attempt == 2:
                    raise
                first = (str(error).splitlines() or [type(error).__name__])[0][:200]
                self._log.event("kernel", f"the kernel did not start ({first}); started it again")
                if self.km is not None:  # nbclient has usually cleaned up already
                    await self._async_cleanup_kernel()
                await asyncio.sleep(2 * attempt + 1)
                self.km = self.create_kernel_manager()
                await self.async_start_new_kernel()

    start_new_kernel_client = run_sync(async_start_new_kernel_client)

    def _cpu_root(self) -> int | None:
        if self.cpu_root:
            return self.cpu_root
        process = getattr(getattr(self.km, "provisioner", None), "process", None)
        return getattr(process, "pid", None)

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code" or not cell.source.strip():
            return cell, self.resources
        if spent := self._budget.why_spent():
            cell.outputs = [error_output("NotRun", f"not run: {spent}")]
            if not self._out_of_time:
                self._log.event(
                    "busy" if "busy machine" in spent else "time",
                    f"{spent}; later cells were not run",
                    cell,
                )
            self._out_of_time = True
            return cell, self.resources
        if is_grade(cell):
            return self._check(cell), self.resources
        try:
            cell, resources = super().preprocess_cell(cell, resources, index)
        except (DeadKernelError, zmq.ZMQError):
            return self._recover(
                cell,
                "KernelDied",
                "the kernel died in this cell",
                "the kernel stopped while running this cell (os._exit, a "
                "crash, or the memory or CPU limit)",
            )
        except CellTimeoutError:  # still busy after the interrupt: it ignores Ctrl-C
            return self._recover(
                cell,
                "CellTimeoutError",
                f"{self._budget.said()} and ignored the interrupt",
                f"{self._budget.stopped} and did not stop when interrupted",
                kind="busy" if self._budget.busy else "timeout",
            )
        self._ran.append(index)
        self._remember_error(cell, index)
        if grade_id(cell) == SETUP:
            self.checker.setup(cell.source)
        if any(o.get("ename") == "CellTimeoutError" for o in cell.outputs):
            self._log.event(
                "busy" if self._budget.busy else "timeout",
                f"{self._budget.said()}; it was stopped",
                cell,
            )
            # The interrupt's own traceback says nothing the line above does not.
            cell.outputs = [o for o in cell.outputs if o.get("ename") != "KeyboardInterrupt"]
            self._ran.pop()
            if not self.for_checks.answers():
                self._fresh_kernel()
        return cell, self.resources

    async def _async_poll_for_reply(
        self, msg_id, cell, timeout, task_poll_output_msg, task_poll_kernel_alive
    ):
        """nbclient's wait for a cell's reply, with the cell's limit counted in CPU time: the
        kernel's tree is read every half second, and the cell is interrupted when it has used
        its CPU seconds, or when the clock's backstop (``timeout``) has passed."""
        budget = self._budget
        budget.meter.start()
        cpu_limit, wall = budget.cell_cpu(), timeout or 1e9
        wall_end = time.monotonic() + wall
        try:
            while True:
                try:
                    msg = await ensure_async(self.kc.shell_channel.get_msg(timeout=POLL_SECONDS))
                except Empty:
                    await self._async_check_alive()
                    if not budget.over(cpu_limit, wall, wall_end):
                        continue
                    task_poll_kernel_alive.cancel()
                    await ensure_async(self.km.interrupt_kernel())
                    msg = {
                        "parent_header": {"msg_id": msg_id},
                        "content": {
                            "status": "error",
                            "ename": "CellTimeoutError",
                            "evalue": budget.stopped,
                            "traceback": [f"CellTimeoutError: {budget.stopped}"],
                        },
                    }
                if msg["parent_header"].get("msg_id") != msg_id:
                    continue
                if self.record_timing:
                    cell["metadata"]["execution"]["shell.execute_reply"] = timestamp(msg)
                try:
                    await asyncio.wait_for(task_poll_output_msg, self.iopub_timeout)
                except (TimeoutError, Empty):
                    task_poll_kernel_alive.cancel()
                    raise CellTimeoutError.error_from_timeout_and_cell(
                        "Timeout waiting for IOPub output", self.iopub_timeout, cell
                    ) from None
                task_poll_kernel_alive.cancel()
                return msg
        finally:
            budget.count()

    def _remember_error(self, cell, index: int) -> None:
        """Whether this cell raised, and where: the checks of an answer cell that raised say
        so, instead of "name ... is not defined" (``course_checks/cell_errors.py``)."""
        error = next((o for o in cell.outputs if o.get("output_type") == "error"), None)
        g = grade_id(cell)
        where = (
            self._course.name(g)
            if g in self._course.by_id
            else f"your cell {first_line(cell.source)}"
        )
        cell_errors.record(
            g or str(index),
            cell.source,
            where,
            error and error.get("ename"),
            error and cell_errors.line_of(error.get("traceback", [])),
        )

    def _recover(self, cell, ename: str, event: str, explanation: str, kind: str = "kernel"):
        """Record why this cell failed and go on with a fresh kernel."""
        cell.outputs = [o for o in cell.outputs if o.get("ename") != "KeyboardInterrupt"]
        cell.outputs.append(
            error_output(ename, f"{explanation}; grading went on with a fresh kernel")
        )
        self._log.event(kind, event, cell)
        self._fresh_kernel()
        return cell, self.resources

    def _context(self, nb) -> GradingContext:
        """What the checks of this notebook are handed (``course_checks/context.py``): the
        reference's variant answers, the answers' sources, the refusals read from the cells
        as data (``trusted/reading.py``), and the checker's probes."""
        reference: dict = {"cells": []}
        variants, sources = None, None
        if self.reference and os.path.exists(self.reference):
            with open(self.reference) as source:
                reference = json.load(source)
            variants = VariantAnswers(reference)
        try:  # the answers as text, for naming only: read, never run
            sources = answer_sources(nb).get
        except Exception:  # noqa: BLE001 - a notebook beyond reading names by the checks alone
            pass
        reading = NotebookReading(
            nb.cells,
            reference["cells"],
            self.reference,
            lambda message: self._log.event("opaque", message),
        )

        def refusals(exercise: str, refuses: tuple[str, ...]) -> list[str]:
            return reading.refusals(exercise, refuses, *self._testing, self.checker.cell_names)

        return GradingContext(variants, sources, refusals, self.checker.probe)

    def _check(self, cell):
        """Run a test cell in the trusted checker; its report and score become the output."""
        self.checker.link.begin_cell(self.timeout or 60, self.cell_wall, self._budget.deadline)
        self._testing = (self._places.get(id(cell)), grade_id(cell) or "")
        before = {id(result) for result in selfcheck.results()}
        report, value, failure = self.checker.run(cell.source)
        self.for_checks.settle()  # the checks' CPU, all of it in the budget before the next cell
        for result in selfcheck.results():  # what the checks found, as data for the report
            if id(result) not in before:
                self._log.outcome(cell, result)
        cell.outputs = checks_outputs(report, value, failure, self.max_output_chars)
        if self.checker.link.requests > MAX_REQUESTS:  # the checks' own budget is spent
            self._log.event(
                "time",
                f"the checks needed more than {MAX_REQUESTS:,} round trips to "
                "the kernel; the remaining cells were not run",
                cell,
            )
            self._budget.end_now()
        if self.checker.link.lost:  # a student function hung or killed its kernel
            self._log.event(
                "kernel",
                "the kernel stopped answering during the checks; grading "
                "went on with a fresh kernel",
                cell,
            )
            self.checker.link.lost = False
            self._fresh_kernel()
        elif not self.for_checks.answers():
            self._log.event(
                "kernel",
                "the kernel died during the checks; grading went on with a fresh kernel",
                cell,
            )
            self._fresh_kernel()
        return cell

    def _fresh_kernel(self) -> None:
        """Start a new kernel and replay the cells that ran, unless out of restarts or time.
        One that will not start (the notebook's own processes may still hold every slot its
        worker has) ends the run there: what ran is graded, and the rest is not run."""
        self._cleanup_kernel()
        self.km = self.create_kernel_manager()
        try:
            self.start_new_kernel()
            self.start_new_kernel_client()
        except Exception as error:  # noqa: BLE001 - RuntimeError, TimeoutError, zmq's
            self.km = self.km or self.create_kernel_manager()  # for nbclient's clean-up
            self._budget.end_now()
            said = (str(error).splitlines() or [type(error).__name__])[0][:200]
            self._log.event(
                "kernel",
                f"a fresh kernel would not start ({said}); the remaining cells were not run",
            )
            return
        self._restarts += 1
        if self._restarts > self.max_restarts:
            self._budget.end_now()  # no more chances: the rest is not run
            self._log.event("kernel", "too many kernel restarts; the remaining cells were not run")
            return
        for index in self._ran:
            if time.monotonic() >= self._budget.deadline:
                return
            replay = copy.deepcopy(self.nb.cells[index])
            try:
                super().preprocess_cell(replay, self.resources, index)
            except (DeadKernelError, CellTimeoutError, zmq.ZMQError) as error:
                # it died or hung again on the replay: give up on this kernel, grade what ran
                self._budget.end_now()
                self._log.event(
                    "kernel",
                    f"a fresh kernel could not replay the cells that ran ({type(error).__name__}); "
                    "the remaining cells were not run",
                    self.nb.cells[index],
                )
                return

    def process_message(self, msg, cell, cell_index):
        """Drop a cell's messages beyond ``max_output_chars`` as they arrive, whatever their
        kind (streams, display data, images, HTML, display updates)."""
        if msg["msg_type"] in ("status", "execute_input", "error"):
            return super().process_message(msg, cell, cell_index)
        size = len(json.dumps(msg.get("content", {}), default=str))
        used = self._output_chars.get(cell_index, 0)
        self._output_chars[cell_index] = used + size
        if used + size > self.max_output_chars:
            if used <= self.max_output_chars:  # say so once
                self._log.event(
                    "output",
                    f"output over {self.max_output_chars} characters was cut",
                    self.nb.cells[cell_index],
                )
                cell.outputs.append(stdout(CUT))
            return None
        return super().process_message(msg, cell, cell_index)
