"""nbgrader's Execute step, hardened for notebooks that misbehave.

It replaces nbgrader's ``Execute`` in the grading pipeline (``Autograde.autograde_preprocessors``)
and adds, per notebook:
- a wall-clock budget: each cell's timeout is cut to what is left, and cells beyond the
  budget are marked "not run" instead of waiting;
- recovery: when the kernel dies (``os._exit``, a crash, the CPU limit) or stays busy after
  a timed-out cell is interrupted, a fresh kernel replays the cells that ran and grading goes
  on, so the answers after the crash still earn their points;
- a cap on each cell's output while it runs, counting every kind of message (streams,
  display data, images, HTML, updates), where nbgrader's LimitOutput trims only afterwards;
- test cells that never run in the kernel: the trusted checker (``autograder/trusted/checker.py``)
  runs them on the grader's side and writes their report and score as the cell's output,
  calling the student's functions in the kernel through a data-only channel.

What happened is written as JSON lines to ``events_path`` for the grading report.
"""

from __future__ import annotations

import copy
import inspect
import json
import os
import tempfile
import time

import zmq
import zmq.asyncio
from jupyter_core.utils import run_sync
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import Execute
from nbgrader.utils import is_grade
from traitlets import Float, Integer, Unicode

from autograder.cells import grade_id, source
from autograder.mutation.mutants import VariantAnswers
from autograder.trusted import uses
from autograder.trusted.checker import MAX_REQUESTS, Checker, KernelLink, error_lines
from course_checks import checking, selfcheck

SETUP = "setup"  # the grade id of the locked cell of imports that test cells rely on
MAX_MESSAGE_BYTES = 64 << 20  # the largest message a kernel may send (a reply, an output)
SEND_MILLISECONDS = 10_000  # how long a message to the kernel may wait to be taken


def error_output(ename: str, evalue: str) -> NotebookNode:
    return NotebookNode(output_type="error", ename=ename, evalue=evalue, traceback=[
        f"{ename}: {evalue}"
    ])


class SafeExecute(Execute):
    notebook_timeout = Float(300, help="Seconds a whole notebook may run.").tag(config=True)
    max_restarts = Integer(3, help="Fresh kernels a notebook may use.").tag(config=True)
    max_output_chars = Integer(200_000, help="Output kept per cell while it runs.").tag(
        config=True
    )
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
    reference = Unicode("", help="The assignment's source notebook, whose answers' mutants "
                        "name the mistakes the checks find (empty: none).").tag(config=True)

    def create_kernel_manager(self):
        """Kernels talk over Unix sockets, one fresh folder each: they have no network. Their
        clients refuse any message over ``MAX_MESSAGE_BYTES`` before reading it (the
        connection is dropped and the kernel, no longer answering, is replaced), so a kernel
        cannot make the grader hold a message of any size in memory."""
        km = super().create_kernel_manager()
        if self.ipc_root:
            km.transport = "ipc"
            km.ip = os.path.join(tempfile.mkdtemp(prefix="k-", dir=self.ipc_root), "kernel")
        make_client = km.client

        def bounded_client(**kwargs):
            context = zmq.asyncio.Context()
            context.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE_BYTES)  # applies to new sockets
            # A kernel whose connection was dropped never takes a message again: a send
            # gives up instead of waiting for it forever, and the kernel is replaced.
            context.setsockopt(zmq.SNDTIMEO, SEND_MILLISECONDS)
            client = make_client(context=context, **kwargs)
            client._created_context = True  # the client destroys it when it goes
            return client

        km.client = bounded_client
        return km

    def preprocess(self, nb, resources=None, km=None):
        self._deadline = time.monotonic() + self.notebook_timeout
        self._ran: list[int] = []  # code cells executed so far, for a replay
        self._restarts = 0
        self._out_of_time = False
        self.checker = Checker(KernelLink(self), self.secret)
        checking.variant_answers = None
        selfcheck.forget()  # the previous student's results must not speak for this one
        reference = {"cells": []}
        if self.reference and os.path.exists(self.reference):
            with open(self.reference) as source:
                reference = json.load(source)
            checking.variant_answers = VariantAnswers(reference)
        self._read_sources(nb, reference)
        self._output_chars: dict[int, int] = {}
        if self.workdir:
            # Not the autograded folder: the notebook there holds the hidden tests.
            resources = dict(resources or {})
            resources["metadata"] = dict(resources.get("metadata", {}), path=self.workdir)
        self.timeout_func = self._cell_timeout
        return super().preprocess(nb, resources, km)

    async def async_start_new_kernel_client(self):
        """Start the kernel client; a kernel that dies while starting gets two more tries
        (seen once in a hundred runs under heavy load)."""
        for attempt in range(3):
            try:
                return await super().async_start_new_kernel_client()
            except RuntimeError as error:
                if attempt == 2:
                    raise
                self._event("kernel", f"the kernel did not start ({error}); started it again")
                if self.km is not None:  # nbclient has usually cleaned up already
                    await self._async_cleanup_kernel()
                self.km = self.create_kernel_manager()
                await self.async_start_new_kernel()

    start_new_kernel_client = run_sync(async_start_new_kernel_client)

    def _cell_timeout(self, cell) -> float:
        return max(1.0, min(self.timeout or 1e9, self._deadline - time.monotonic()))

    def _event(self, kind: str, message: str, cell=None) -> None:
        if not self.events_path:
            return
        event = {"kind": kind, "cell": grade_id(cell) if cell else None, "message": message}
        with open(self.events_path, "a") as log:
            log.write(json.dumps(event) + "\n")

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code" or not cell.source.strip():
            return cell, self.resources
        if time.monotonic() >= self._deadline:
            cell.outputs = [error_output(
                "NotRun", f"not run: the notebook used up its {self.notebook_timeout:.0f} s"
            )]
            if not self._out_of_time:
                self._event("time", "the notebook ran out of time; later cells were not run",
                            cell)
            self._out_of_time = True
            return cell, self.resources
        if is_grade(cell):
            return self._check(cell), self.resources
        try:
            cell, resources = super().preprocess_cell(cell, resources, index)
        except (DeadKernelError, zmq.ZMQError):
            return self._recover(cell, "KernelDied", "the kernel died in this cell",
                                 "the kernel stopped while running this cell (os._exit, a "
                                 "crash, or the memory or CPU limit)")
        except CellTimeoutError:  # still busy after the interrupt: it ignores Ctrl-C
            return self._recover(cell, "CellTimeoutError", f"a cell ran longer than "
                                 f"{self.timeout} s and ignored the interrupt",
                                 f"this cell ran longer than {self.timeout} s and did not stop "
                                 "when interrupted")
        self._ran.append(index)
        if grade_id(cell) == SETUP:
            self.checker.setup(cell.source)
        if any(o.get("ename") == "CellTimeoutError" for o in cell.outputs):
            self._event("timeout", f"a cell ran longer than {self.timeout} s", cell)
            self._ran.pop()
            if not self._responsive():
                self._fresh_kernel()
        return cell, self.resources

    def _recover(self, cell, ename: str, event: str, explanation: str):
        """Record why this cell failed and go on with a fresh kernel."""
        cell.outputs.append(error_output(
            ename, f"{explanation}; grading went on with a fresh kernel"))
        self._event("kernel" if ename == "KernelDied" else "timeout", event, cell)
        self._fresh_kernel()
        return cell, self.resources

    def _responsive(self, patience: float = 20.0) -> bool:
        """Whether the kernel answers. A live kernel that is slow to answer (a loaded machine)
        gets up to ``patience`` seconds within the notebook's time, so that it is not taken for
        a dead one and replaced, which would cost an honest student the replayed cells' time."""
        try:
            msg_id = self.kc.kernel_info()
            give_up = min(time.monotonic() + patience, max(self._deadline, time.monotonic() + 5))
            while True:
                if self._reply(msg_id, timeout=5) is not None:
                    return True
                if time.monotonic() >= give_up or not self._alive():
                    return False
        except Exception:
            return False

    def _alive(self) -> bool:
        is_alive = self.km.is_alive  # a coroutine function for nbclient's asynchronous manager
        return bool(run_sync(is_alive)() if inspect.iscoroutinefunction(is_alive) else is_alive())

    def _reply(self, msg_id: str, timeout: float):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                msg = self._get_shell_msg(timeout=deadline - time.monotonic())
            except Exception:
                return None
            if msg["parent_header"].get("msg_id") == msg_id:
                return msg
        return None

    def _get_shell_msg(self, timeout: float):
        return run_sync(self.kc.get_shell_msg)(timeout=timeout)

    def _read_sources(self, nb, reference: dict) -> None:
        """Read the student's cells as data (``autograder/trusted/uses.py``): the checks
        refuse an answer that reaches a refused function, and what the reader cannot see
        through is flagged for the instructor."""
        course_code = {source(c) for c in reference["cells"] if c["cell_type"] == "code"
                       and not c.get("metadata", {}).get("nbgrader", {}).get("solution")}
        cells = []
        for number, cell in enumerate(nb.cells, start=1):
            if cell.cell_type != "code":
                continue
            meta = cell.metadata.get("nbgrader", {})
            student = not meta.get("locked") and cell.source not in course_code
            label = (f"your answer cell {meta['grade_id']}" if meta.get("solution")
                     and meta.get("grade_id") else f"cell {number} (yours or changed)")
            cells.append((label, cell.source, student))
        try:
            program = uses.Program(cells)
            for finding in uses.Reader(program, ()).anywhere():
                self._event("opaque", finding.message())
        except Exception as error:  # noqa: BLE001 - a reader's failure must cost no point
            program = None
            self._event("opaque", f"the grader could not read the notebook's code ({error})")

        def refusals(exercise: str, refuses: tuple[str, ...]) -> list[str]:
            if program is None:
                return []
            try:
                found = uses.Reader(program, refuses).findings(self.checker.cell_names)
            except Exception as error:  # noqa: BLE001
                self._event("opaque", f"the grader could not read the answer to {exercise} "
                            f"({error})")
                return []
            return [finding.message() for finding in found if finding.kind == "refused"]

        checking.answer_refusals = refusals

    def _check(self, cell):
        """Run a test cell in the trusted checker; its report and score become the output."""
        self.checker.link.begin_cell(self.timeout or 60, self._deadline)
        report, value, failure = self.checker.run(cell.source)
        outputs = []
        if report:
            kept = report[: self.max_output_chars]
            if len(report) > self.max_output_chars:
                kept += "\n[output cut: too long]\n"
            outputs.append(NotebookNode(output_type="stream", name="stdout", text=kept))
        if failure is not None:
            lines = error_lines(failure)
            outputs.append(NotebookNode(output_type="error", ename=type(failure).__name__,
                                        evalue=str(failure), traceback=lines))
        elif value is not None:
            outputs.append(NotebookNode(output_type="execute_result", metadata={},
                                        execution_count=None,
                                        data={"text/plain": repr(value)}))
        cell.outputs = outputs
        if self.checker.link.requests > MAX_REQUESTS:  # the checks' own budget is spent
            self._event("time", f"the checks needed more than {MAX_REQUESTS:,} round trips to "
                        "the kernel; the remaining cells were not run", cell)
            self._deadline = time.monotonic()
        if self.checker.link.lost:  # a student function hung or killed its kernel
            self._event("kernel", "the kernel stopped answering during the checks; grading "
                        "went on with a fresh kernel", cell)
            self.checker.link.lost = False
            self._fresh_kernel()
        elif not self._responsive():
            self._event("kernel", "the kernel died during the checks; grading went on with a "
                        "fresh kernel", cell)
            self._fresh_kernel()
        return cell

    def _fresh_kernel(self) -> None:
        """Start a new kernel and replay the cells that ran, unless out of restarts or time."""
        self._cleanup_kernel()
        self.km = self.create_kernel_manager()
        self.start_new_kernel()
        self.start_new_kernel_client()
        self._restarts += 1
        if self._restarts > self.max_restarts:
            self._deadline = time.monotonic()  # no more chances: the rest is not run
            self._event("kernel", "too many kernel restarts; the remaining cells were not run")
            return
        for index in self._ran:
            if time.monotonic() >= self._deadline:
                return
            replay = copy.deepcopy(self.nb.cells[index])
            try:
                super().preprocess_cell(replay, self.resources, index)
            except DeadKernelError:  # it died again on the replay: give up on this kernel
                self._deadline = time.monotonic()
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
                self._event("output", f"output over {self.max_output_chars} characters was cut",
                            self.nb.cells[cell_index])
                cell.outputs.append(NotebookNode(output_type="stream", name="stdout",
                                                 text="\n[output cut: too long]\n"))
            return None
        return super().process_message(msg, cell, cell_index)
