"""A grading worker process, readied once for many notebooks: its kernels and their zygote.

A worker grades one notebook after another (``job.py``). What they share is set up here, on
its first job, by ``prepare``: the kernelspecs of the sandboxed and the forked kernel, the
environment every kernel starts from (one math thread, nbgrader's autograde mode, the course's
packages as the only folders a kernel sees), a folder for the kernels' Unix sockets and one
for their working folders, and the zygote, a sandboxed process that has imported PyTorch and
forks each kernel (``autograder/kernels/forkserver.py``), inside a control group where the
grader may make one. A zygote that has died is started again on the next job. When the
process ends (multiprocessing's workers end with ``os._exit``), finalizers stop the zygote,
remove its control group and delete the folders.
"""

from __future__ import annotations

import multiprocessing.util
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import cast

from autograder.grading.limits import CGROUP_TASKS, Limits
from autograder.kernels import forkserver, sandbox, walls


class WorkerProcess:
    """What this process has set up (class attributes: one worker process, one of these):
    the course it was readied for, the zygote and its control group, the folder of the
    kernels' sockets (``run_dir``) and the folder their working folders go in (``work_root``)."""

    course: Path | None = None
    zygote: subprocess.Popen | None = None
    cgroup: walls.Cgroup | None = None
    run_dir: Path
    work_root: Path


def _stop_zygote() -> None:
    """At the worker's exit: the zygote (and any kernel) ends, then its control group goes."""
    if WorkerProcess.zygote is not None and WorkerProcess.zygote.poll() is None:
        WorkerProcess.zygote.kill()
        WorkerProcess.zygote.wait()
    if WorkerProcess.cgroup is not None:
        WorkerProcess.cgroup.remove()


def _socket_folder(prefix: str) -> Path:
    """A new folder for Unix sockets (the zygote's, the kernels' below k-*/): in the temporary
    folder when its path is short enough for theirs (108 bytes at most), else in /tmp."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    if len(str(folder)) > 80:
        folder.rmdir()
        folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    return folder


def prepare(course: Path, forked: bool, limits: Limits, walled: bool) -> str:
    """Ready this process to grade; the name of the kernel to use."""
    state = WorkerProcess
    os.environ[sandbox.WALLS_VARIABLE] = "1" if walled else "0"  # read by the kernels' launchers
    if state.course != course:
        kernels = Path(tempfile.mkdtemp(prefix="course-kernels-"))
        sandbox.install_kernelspec(kernels / "kernels")
        forkserver.install_kernelspec(kernels / "kernels")
        import autograder
        import course_checks
        import transformer_course

        os.environ.update(
            JUPYTER_PATH=os.pathsep.join([str(kernels), os.environ.get("JUPYTER_PATH", "")]),
            OMP_NUM_THREADS="1",
            MKL_NUM_THREADS="1",
            # As nbgrader tells the kernels: test cells run here (the trusted checker).
            NBGRADER_EXECUTION="autograde",
            # What kernels import: the course's packages, and the grader's agent and wire
            # (autograder/ holds no hidden test or solution).
            COURSE_SANDBOX_EXPOSE=os.pathsep.join(
                str(Path(cast(str, package.__file__)).parent)  # packages: __file__ is set
                for package in (transformer_course, course_checks, autograder)
            ),
        )
        state.run_dir = _socket_folder("course-zygote-")
        state.work_root = Path(tempfile.mkdtemp(prefix="course-work-"))
        state.course = course
        # Gone when the process ends, after the zygote (a grading server runs many classes).
        for folder in (kernels, state.run_dir, state.work_root):
            multiprocessing.util.Finalize(
                None, shutil.rmtree, (folder,), {"ignore_errors": True}, exitpriority=5
            )
    if not forked:
        return sandbox.KERNEL_NAME
    if state.zygote is None or state.zygote.poll() is not None:
        (state.run_dir / "zygote.sock").unlink(missing_ok=True)
        if state.cgroup is None:  # the zygote and its kernels: their tasks, memory capped
            state.cgroup = walls.Cgroup(
                f"course-grading-{os.getpid()}", CGROUP_TASKS, limits.cgroup_memory()
            )
            # multiprocessing's workers end with os._exit: atexit would not run there.
            multiprocessing.util.Finalize(None, _stop_zygote, exitpriority=10)
        state.zygote = forkserver.start_zygote(state.run_dir, state.work_root, state.cgroup)
    return forkserver.KERNEL_NAME


def cpu_root(kernel: str) -> int:
    """The process whose tree holds ``kernel``'s processes, for counting their CPU time: the
    zygote for a forked kernel; 0 (the kernel manager's own process) otherwise."""
    if kernel != forkserver.KERNEL_NAME:
        return 0
    assert WorkerProcess.zygote is not None  # a forked kernel's zygote was started first
    return WorkerProcess.zygote.pid
