"""The zygote's forks wait for a free process (autograder/kernels/forkserver.py): after a fork
bomb, the worker's control group stays full until its thousand processes have ended, and the
next student's kernel must start then, not fail (a busy machine once cost an honest student
their grade this way)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from autograder.kernels import walls

FILL = """
import os, signal, sys, time
from autograder.kernels import forkserver, walls

group = walls.Cgroup(sys.argv[1], int(sys.argv[2]), 1 << 30)
group.join()
signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # as in the zygote: children reaped by the system
# every free process taken by sleepers that end in 1.5 s, as a fork bomb's do once killed
sleepers = 0
while True:
    try:
        if os.fork() == 0:
            time.sleep(1.5)
            os._exit(0)
    except OSError:
        break
    sleepers += 1
try:
    child = forkserver.fork(patience=float(sys.argv[3]))
except OSError as error:
    print("gave up", error.errno, sleepers, flush=True)
else:
    if child == 0:
        os._exit(0)
    print("forked", sleepers, flush=True)
time.sleep(2)  # the sleepers gone, the group can be removed
"""


def _fill_then_fork(name: str, patience: float) -> str:
    run = subprocess.run(
        [sys.executable, "-c", FILL, name, "12", str(patience)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout


@pytest.mark.slow
def test_a_fork_waits_for_the_processes_of_the_kernel_before_to_end():
    name = f"course-test-fork-{os.getpid()}"
    if not walls.Cgroup(name, 12, 1 << 30).folders:
        pytest.skip("this user may not make a control group (the worker then runs without one)")
    try:
        assert _fill_then_fork(name, patience=10).startswith("forked")
        assert _fill_then_fork(name, patience=0.2).startswith("gave up")  # not for ever
    finally:
        walls.Cgroup(name, 12, 1 << 30).remove()
