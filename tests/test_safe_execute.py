"""The grading executor tells a slow kernel from a dead one (autograder/grading/execute.py)."""

from __future__ import annotations

import time
from types import SimpleNamespace

from autograder.grading.execute import SafeExecute


class Kernel:
    """Answers ``kernel_info`` after ``silent`` waits of 5 s, while ``alive``."""

    def __init__(self, silent: int, alive: bool = True):
        self.silent, self.alive, self.asked = silent, alive, 0

    def reply(self, msg_id, timeout):
        self.asked += 1
        return {"msg_id": msg_id} if self.asked > self.silent else None


def responsive(kernel: Kernel, seconds_left: float = 600.0) -> bool:
    executor = SafeExecute()
    executor._deadline = time.monotonic() + seconds_left
    executor.kc = SimpleNamespace(kernel_info=lambda: "info")
    executor.km = SimpleNamespace(is_alive=lambda: kernel.alive)
    executor._reply = kernel.reply
    return executor._responsive(patience=20.0)


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
