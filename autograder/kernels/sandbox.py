"""The kernel that runs a student's notebook during grading, and the walls around it.

The grading kernelspec starts ``python -m autograder.kernels.sandbox -f {connection_file}``. This
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


def install_kernelspec(kernels_dir: Path, name: str = KERNEL_NAME,
                       module: str = "autograder.kernels.sandbox") -> None:
    """Write a grading kernelspec that starts ``python -m <module> -f <connection file>``
    into ``kernels_dir`` (a folder on JUPYTER_PATH/kernels)."""
    spec = kernels_dir / name
    spec.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", module, "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": f"Python 3 ({name})", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel, indent=1))


def kernel_environment(workdir: str) -> dict[str, str]:
    """The environment a grading kernel runs with: one math thread, no warnings on stderr
    (nbgrader gives a test cell that writes to stderr zero points), HOME and matplotlib's
    cache in the working folder. Without JPY_PARENT_PID: in its own PID namespace the kernel
    cannot see its parent and would shut itself down (bubblewrap's --die-with-parent, or the
    fork server's link, does that job instead)."""
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", PYTHONWARNINGS="ignore",
               MPLCONFIGDIR=os.path.join(workdir, ".matplotlib"), HOME=workdir)
    env.pop("JPY_PARENT_PID", None)
    return env


def apply_limits() -> None:
    """Set this process's resource limits from the COURSE_SANDBOX_* variables."""
    for variable, which in (("COURSE_SANDBOX_MEMORY", resource.RLIMIT_AS),
                            ("COURSE_SANDBOX_CPU", resource.RLIMIT_CPU),
                            ("COURSE_SANDBOX_FILE", resource.RLIMIT_FSIZE)):
        if value := os.environ.get(variable):
            resource.setrlimit(which, (int(value), int(value)))


def _paths(variable: str) -> list[str]:
    return [p for p in os.environ.get(variable, "").split(os.pathsep) if p]


def exposed() -> list[str]:
    """Folders inside hidden ones that kernels see again, read-only (the course's packages)."""
    return _paths("COURSE_SANDBOX_EXPOSE")


def bwrap_command(command: list[str], writable: list[str], readable: list[str],
                  capabilities: tuple[str, ...] | list[str] = ()) -> list[str]:
    """``command`` wrapped in bubblewrap: everything read-only, secrets hidden, ``writable``
    folders writable and ``readable`` files visible; no network (not even loopback: kernels
    talk over Unix sockets), its own PID namespace and session, no capabilities but
    ``capabilities``."""
    wrapped = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    scratch = ["--size", str(SCRATCH_BYTES), "--tmpfs"]
    wrapped += [*scratch, "/tmp", *scratch, "/dev/shm", "--unshare-pid", "--unshare-ipc",
                "--unshare-net", "--unshare-uts", "--new-session"]
    if capabilities and os.geteuid() != 0:
        wrapped += ["--unshare-user", "--uid", "0", "--gid", "0"]
    for hidden in _paths("COURSE_SANDBOX_HIDE"):
        wrapped += ["--tmpfs", hidden]
    # The interpreter (the venv and the Python it was made from) stays visible.
    for folder in [sys.prefix, sys.base_prefix, *exposed(), *readable]:
        wrapped += ["--ro-bind", folder, folder]
    for path in writable:
        wrapped += ["--bind", path, path]
    for hidden in _paths("COURSE_SANDBOX_HIDE"):  # after the binds that need folders there
        wrapped += ["--remount-ro", hidden]
    wrapped += ["--chdir", writable[0], "--cap-drop", "ALL", "--die-with-parent"]
    for capability in capabilities:
        wrapped += ["--cap-add", capability]
    return wrapped + ["--"] + command


def main(argv: list[str]) -> None:
    connection_file = os.path.abspath(argv[argv.index("-f") + 1])
    workdir = os.getcwd()
    environment = kernel_environment(workdir)
    os.environ.clear()
    os.environ.update(environment)
    apply_limits()
    kernel = [sys.executable, "-m", "ipykernel_launcher", "-f", connection_file]
    kernel.append("--HistoryManager.hist_file=:memory:")
    info = json.loads(Path(connection_file).read_text())
    sockets = [os.path.dirname(info["ip"])] if info.get("transport") == "ipc" else []
    command = (bwrap_command(kernel, [workdir, *sockets], [connection_file]) if available()
               else kernel)
    # The kernel manager interrupts a cell by signalling the whole process group; bubblewrap
    # must ignore that SIGINT (the kernel installs its own handler) or it ends the sandbox.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
