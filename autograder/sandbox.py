"""The kernel that runs a student's notebook during grading, and the walls around it.

The grading kernelspec starts ``python -m autograder.sandbox -f {connection_file}``. This
launcher sets resource limits and then replaces itself with the real IPython kernel inside
bubblewrap (``bwrap``, Debian's ``bubblewrap``), where the machine is read-only, the course
(hidden tests, gradebook, other students' work) and the grader's private files are hidden
behind empty folders, and the only writable folder is the notebook's own working folder.

Limits (set by the grading worker through environment variables):
    COURSE_SANDBOX_MEMORY   bytes of address space (a memory bomb gets MemoryError)
    COURSE_SANDBOX_CPU      CPU seconds (a last resort behind the wall-clock limit)
    COURSE_SANDBOX_FILE     largest file the kernel may write, in bytes
    COURSE_SANDBOX_HIDE     folders to hide, separated by os.pathsep
    COURSE_SANDBOX_EXPOSE   folders inside hidden ones to show again read-only (the helper
                            package; the interpreter's own folders always are)
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import sys
from pathlib import Path

KERNEL_NAME = "course-sandbox"
SCRATCH_BYTES = 256 << 20  # a private /tmp, in memory


def available() -> bool:
    """Whether bubblewrap is installed (without it kernels run with limits only)."""
    return shutil.which("bwrap") is not None


def install_kernelspec(kernels_dir: Path) -> None:
    """Write the grading kernelspec into ``kernels_dir`` (a folder on JUPYTER_PATH/kernels)."""
    spec = kernels_dir / KERNEL_NAME
    spec.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "autograder.sandbox", "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": "Python 3 (grading sandbox)", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel, indent=1))


def _paths(variable: str) -> list[str]:
    return [p for p in os.environ.get(variable, "").split(os.pathsep) if p]


def bwrap_command(command: list[str], writable: list[str], readable: list[str]) -> list[str]:
    """``command`` wrapped in bubblewrap: everything read-only, secrets hidden, ``writable``
    folders writable and ``readable`` files visible. A new PID namespace keeps other
    students' kernels out of /proc."""
    wrapped = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    scratch = ["--size", str(SCRATCH_BYTES), "--tmpfs"]
    wrapped += [*scratch, "/tmp", *scratch, "/dev/shm", "--unshare-pid", "--unshare-ipc"]
    for hidden in _paths("COURSE_SANDBOX_HIDE"):
        wrapped += ["--tmpfs", hidden]
    # The interpreter (the venv and the Python it was made from) stays visible.
    for exposed in [sys.prefix, sys.base_prefix, *_paths("COURSE_SANDBOX_EXPOSE"), *readable]:
        wrapped += ["--ro-bind", exposed, exposed]
    for path in writable:
        wrapped += ["--bind", path, path]
    for hidden in _paths("COURSE_SANDBOX_HIDE"):  # after the binds that need folders there
        wrapped += ["--remount-ro", hidden]
    wrapped += ["--chdir", writable[0], "--cap-drop", "ALL", "--die-with-parent"]
    return wrapped + ["--"] + command


def _limit(which: int, variable: str) -> None:
    value = os.environ.get(variable)
    if value:
        resource.setrlimit(which, (int(value), int(value)))


def main(argv: list[str]) -> None:
    connection_file = os.path.abspath(argv[argv.index("-f") + 1])
    workdir = os.getcwd()
    # The kernel's own settings: one math thread, no warnings on stderr (nbgrader gives a
    # test cell that writes to stderr zero points), matplotlib's cache in the working folder.
    os.environ.update(
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        PYTHONWARNINGS="ignore",
        MPLCONFIGDIR=os.path.join(workdir, ".matplotlib"),
        HOME=workdir,
    )
    # In its own PID namespace the kernel cannot see its parent and would shut itself down;
    # bubblewrap's --die-with-parent does that job instead.
    os.environ.pop("JPY_PARENT_PID", None)
    _limit(resource.RLIMIT_AS, "COURSE_SANDBOX_MEMORY")
    _limit(resource.RLIMIT_CPU, "COURSE_SANDBOX_CPU")
    _limit(resource.RLIMIT_FSIZE, "COURSE_SANDBOX_FILE")
    kernel = [sys.executable, "-m", "ipykernel_launcher", "-f", connection_file]
    kernel.append("--HistoryManager.hist_file=:memory:")
    command = bwrap_command(kernel, [workdir], [connection_file]) if available() else kernel
    # The kernel manager interrupts a cell by signalling the whole process group; bubblewrap
    # must ignore that SIGINT (the kernel installs its own handler) or it ends the sandbox.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
