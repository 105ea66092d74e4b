"""The grading executor tells a slow kernel from a dead one (autograder/grading/execute.py,
kernel_for_checks.py)."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from autograder.grading.execute import SafeExecute
from autograder.grading.kernel_for_checks import KernelForChecks
from autograder.grading.notebook_budget import NotebookBudget


class Kernel:
    """Answers ``kernel_info`` after ``silent`` waits of 5 s, while ``alive``."""

    def __init__(self, silent: int, alive: bool = True):
        self.silent, self.alive, self.asked = silent, alive, 0

    def reply(self, msg_id, timeout):
        self.asked += 1
        return {"msg_id": msg_id} if self.asked > self.silent else None


def responsive(kernel: Kernel, seconds_left: float = 600.0) -> bool:
    runner = SimpleNamespace(
        kc=SimpleNamespace(kernel_info=lambda: "info"),
        km=SimpleNamespace(is_alive=lambda: kernel.alive),
    )
    budget = NotebookBudget(60, 300, 300, seconds_left, root=lambda: None)
    for_checks = KernelForChecks(runner, budget)
    for_checks.reply = kernel.reply  # the replies as this test scripts them
    return for_checks.answers(patience=20.0)


def test_a_live_kernel_slow_to_answer_is_waited_for():
    kernel = Kernel(silent=2)
    assert responsive(kernel) and kernel.asked == 3


def test_a_dead_kernel_is_given_up_at_once():
    kernel = Kernel(silent=2, alive=False)
    assert not responsive(kernel) and kernel.asked == 1


def test_a_kernel_that_never_answers_is_given_up_when_patience_runs_out(monkeypatch):
    now = [0.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    kernel = Kernel(silent=10**6)
    waiting = kernel.reply

    def reply(msg_id, timeout):  # each wait for a reply takes its full timeout
        now[0] += timeout
        return waiting(msg_id, timeout)

    kernel.reply = reply
    assert not responsive(kernel) and kernel.asked == 4 and now[0] == 20.0


@pytest.mark.slow
def test_the_cpu_meter_counts_every_process_of_the_tree_and_tells_sleep_from_work():
    """Limits count CPU time (autograder/kernels/cpu.py): a cell's children count too, and a
    cell that sleeps is not taken for one a busy machine slowed down."""
    import subprocess
    import sys

    from autograder.kernels import cpu

    spin = "import time\nwhile time.process_time() < 0.5: pass"  # half a second of CPU
    tree = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import subprocess, sys, time\n"
                f"subprocess.run([sys.executable, '-c', {spin!r}])\n"
                "print('done', flush=True)\ntime.sleep(5)"
            ),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    meter = cpu.Meter(lambda: tree.pid)
    meter.start()
    assert tree.stdout.readline() == "done\n"
    busy_cpu, (busy_wanted, _) = meter.used(), meter.wanted()
    tree.kill()
    tree.wait()
    assert busy_cpu >= 0.5 and busy_wanted >= 0.5  # the child's work, seen from its parent
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(2)"])
    time.sleep(0.5)  # past its start-up
    meter = cpu.Meter(lambda: sleeper.pid)
    meter.start()
    time.sleep(1.0)
    assert meter.used() < 0.05 and meter.wanted()[0] < 0.1
    sleeper.wait()


@pytest.mark.slow
def test_the_meter_measures_one_span_after_another_reading_the_tree_once_each(monkeypatch):
    """Each of a notebook's measures starts where the last one ended: the checks' quick calls
    cost one reading of the process tree each, not two, and CPU used between two measures
    (a thread left running) is not lost."""
    import subprocess
    import sys

    from autograder.kernels import cpu

    readings = []
    read = cpu.tree_seconds
    monkeypatch.setattr(cpu, "tree_seconds", lambda *a: readings.append(a) or read(*a))
    spinner = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\nsys.stdin.readline()\n"
            "while time.process_time() < 0.5: pass\ntime.sleep(30)",
        ],
        stdin=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(0.5)  # past its start-up
        meter = cpu.Meter(lambda: spinner.pid)
        for _ in range(10):  # ten quick calls
            meter.start()
            meter.totals()
        assert len(readings) == 11
        spinner.stdin.write("go\n")
        spinner.stdin.flush()
        time.sleep(1.5)  # it spins between two measures
        meter.start()
        assert meter.totals()[0] >= 0.4
    finally:
        spinner.kill()
        spinner.wait()


@pytest.mark.parametrize("failure", ["died", "hung"])
def test_a_replay_that_dies_or_hangs_ends_the_notebook_and_is_reported(monkeypatch, failure):
    """Found by the fork bomb: a fresh kernel's replay of a cell that ran before timed out
    waiting for its output, and the error stopped nbgrader, so the student got no grade at
    all instead of the points of what ran."""
    import nbformat
    from nbclient.exceptions import CellTimeoutError, DeadKernelError
    from nbgrader.preprocessors import Execute

    def replay(self, cell, resources, index):
        if failure == "died":
            raise DeadKernelError("gone")
        raise CellTimeoutError("Timeout waiting for IOPub output")

    monkeypatch.setattr(Execute, "preprocess_cell", replay)
    events = []
    executor = SafeExecute()
    executor._budget = NotebookBudget(60, 300, 300, 600, root=lambda: None)
    executor.nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import os")])
    executor._ran, executor._restarts, executor.resources = [0], 0, {}
    executor._cleanup_kernel = lambda: None
    executor.create_kernel_manager = lambda: SimpleNamespace()
    executor.start_new_kernel = executor.start_new_kernel_client = lambda: None
    executor._log = SimpleNamespace(event=lambda kind, message, cell=None: events.append(message))
    executor._fresh_kernel()
    assert executor._budget.why_spent() is not None  # nothing more runs
    assert events and "could not replay" in events[0], events


class ScriptedClient:
    """A kernel client whose channels give what ``iopub`` says, in turn (None: nothing yet)."""

    def __init__(self, iopub: list):
        self.asked, self.iopub_reads, self.handled = 0, 0, None
        self._iopub = iopub
        self.shell_channel = SimpleNamespace(get_msg=self._shell)
        self.iopub_channel = SimpleNamespace(get_msg=self._iopub_msg)

    def kernel_info(self):
        self.asked += 1

    async def _shell(self, timeout):
        return {"msg_type": "kernel_info_reply", "content": {}}

    async def _iopub_msg(self, timeout):
        self.iopub_reads += 1
        message = self._iopub.pop(0) if self._iopub else None
        if message is None:
            from queue import Empty

            raise Empty
        return message

    def _handle_kernel_info_reply(self, msg):
        self.handled = msg

    async def _async_is_alive(self):
        return True


@pytest.mark.parametrize("silent_first", [0, 2])
def test_a_kernel_is_ready_once_both_channels_answered_without_waiting_for_silence(
    silent_first,
):
    """kernel_sockets.ready: asks again while IOPub says nothing (not yet subscribed), and
    returns at the first IOPub message, leaving the start-up's other messages unread."""
    import asyncio

    from autograder.grading.kernel_sockets import ready

    client = ScriptedClient([None] * silent_first + [{"msg_type": "status"}] * 3)
    asyncio.run(ready(client, timeout=30))
    assert client.asked == silent_first + 1
    assert client.iopub_reads == silent_first + 1  # two status messages left unread
    assert client.handled["msg_type"] == "kernel_info_reply"


def test_quick_calls_read_the_kernels_cpu_seldom_and_count_all_of_it(monkeypatch):
    """KernelForChecks.reply reads the process tree at most every READ_EVERY seconds for
    calls that answer at once, and what it skipped is in the next reading (settle)."""
    import os

    from autograder.kernels import cpu

    readings = []
    tree_seconds = cpu.tree_seconds

    def read(*args, **kwargs):
        readings.append(1)
        return tree_seconds(*args, **kwargs)

    monkeypatch.setattr(cpu, "tree_seconds", read)

    async def get_shell_msg(timeout):  # a reply at once, after 20 ms of work
        end = time.process_time() + 0.02
        while time.process_time() < end:
            pass
        return {"parent_header": {"msg_id": "m"}}

    budget = NotebookBudget(60, 300, 300, 600, root=os.getpid)
    for_checks = KernelForChecks(
        SimpleNamespace(kc=SimpleNamespace(get_shell_msg=get_shell_msg)), budget
    )
    started = time.process_time()
    for _ in range(10):
        assert for_checks.reply("m", timeout=5) is not None
    for_checks.settle()
    assert len(readings) <= 4  # one before the first call and one after it, then settle's
    assert budget.spent >= 0.8 * (time.process_time() - started)
