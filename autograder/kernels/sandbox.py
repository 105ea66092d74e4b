"""The kernel that runs a student's notebook during grading, and the walls around it.

The grading kernelspec starts ``python -m autograder.kernels.sandbox -f {connection_file}``.
This launcher sets resource limits and then replaces itself with the real IPython kernel
inside bubblewrap (``bwrap``, Debian's ``bubblewrap``). The sandbox denies by default: its
file system is built from nothing and holds only what a kernel needs, read-only — the
machine's shared libraries, the interpreter and its packages, the course's packages — plus
its own working folder and a private /tmp. The rest of the machine (the course being graded,
other copies of it, home folders, other students' work, the grader's files) does not exist
inside. Its environment is built from an allow-list, never inherited.

Limits and views (set by the grading worker through environment variables):
    COURSE_SANDBOX_MEMORY   bytes of address space (a memory bomb gets MemoryError)
    COURSE_SANDBOX_CPU      CPU seconds (a last resort behind the wall-clock limit)
    COURSE_SANDBOX_FILE     largest file the kernel may write, in bytes
    COURSE_SANDBOX_EXPOSE   folders of the course kernels import from, shown read-only (the
                            helper package, the checks, the grader's agent and wire)
"""

from __future__ import annotations

import functools
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

KERNEL_NAME = "course-sandbox"
SCRATCH_BYTES = 256 << 20  # a private /tmp, in memory


# The grader's choice, made once before a class is graded (``problem()``) and inherited by
# its workers and kernels: "0" runs kernels unwalled, which only the instructor can ask for.
WALLS_VARIABLE = "COURSE_SANDBOX_WALLS"
# What the zygote keeps of root's powers inside its sandbox: making namespaces for its kernels.
ZYGOTE_CAPABILITIES = ("CAP_SYS_ADMIN", "CAP_SETPCAP")


def available() -> bool:
    """Whether bubblewrap is installed (``problem()`` says whether it also starts here)."""
    return shutil.which("bwrap") is not None


def walled() -> bool:
    """Whether kernels are walled in: always, unless the grader was told otherwise."""
    return os.environ.get(WALLS_VARIABLE, "1") != "0"


@functools.cache  # the machine's answer, asked once per grading process
def problem(forked: bool = True) -> str | None:
    """Why no sandbox can start on this machine for this user, or None when one can.

    A sandbox is started as grading starts one (with the zygote's capabilities when kernels
    are forked, which needs user namespaces when the grader is not root) and builds a
    kernel's walls inside it (``walls.enter``, ``walls.lock``). Being installed is not enough:
    a distribution that refuses unprivileged user namespaces (Ubuntu 24.04's AppArmor does)
    lets ``bwrap`` start and fail at once ("setting up uid map: Permission denied")."""
    if not available():
        return "bubblewrap (bwrap) is not installed"
    package = Path(__file__).resolve().parents[1]  # autograder/, which holds this probe
    with tempfile.TemporaryDirectory(prefix="course-probe-") as folder:
        command = bwrap_command(
            [
                sys.executable,
                "-m",
                "autograder.kernels.sandbox",
                "--probe",
                "forked" if forked else "plain",
            ],
            [folder],
            [str(package)],
            ZYGOTE_CAPABILITIES if forked else (),
        )
        environment = kernel_environment(folder) | {"PYTHONPATH": str(package.parent)}
        try:
            probe = subprocess.run(
                command,
                env=environment,
                capture_output=True,
                text=True,
                timeout=120,
                stdin=subprocess.DEVNULL,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            return f"bubblewrap could not be run ({error})"
    if probe.returncode == 0:
        return None
    said = [line.strip() for line in (probe.stderr or probe.stdout).splitlines() if line.strip()]
    return f"bubblewrap cannot start a sandbox here ({said[-1] if said else probe.returncode})"


def _probe(mode: str) -> None:
    """Inside the probe's sandbox: a kernel's walls, built as a forked kernel builds them."""
    if mode != "forked":
        return
    from autograder.kernels import walls

    def child(work) -> int:  # a fork that reports its failure and never returns
        try:
            os._exit(work())
        except BaseException as error:  # noqa: BLE001 - the child must exit
            print(f"a kernel's walls could not be built: {error}", file=sys.stderr, flush=True)
            os._exit(1)

    def keeper() -> int:  # as the zygote's fork: wall in, then fork the kernel, which locks
        walls.enter(os.getcwd(), [], [sys.prefix, sys.base_prefix])
        # lock returns None: the child then exits with 0, the walls built
        kernel = os.fork() or child(lambda: walls.lock("/tmp/work") or 0)  # type: ignore[func-returns-value]
        return os.waitstatus_to_exitcode(os.waitpid(kernel, 0)[1])

    pid = os.fork() or child(keeper)
    sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))


def install_kernelspec(
    kernels_dir: Path, name: str = KERNEL_NAME, module: str = "autograder.kernels.sandbox"
) -> None:
    """Write a grading kernelspec that starts ``python -m <module> -f <connection file>``
    into ``kernels_dir`` (a folder on JUPYTER_PATH/kernels)."""
    spec = kernels_dir / name
    spec.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", module, "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": f"Python 3 ({name})", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel, indent=1))


# What a kernel's environment may hold besides what kernel_environment sets: nbgrader's
# mode, the limits, the locale, a GPU's selection. Nothing else of the grader's (tokens,
# paths, credentials) is passed on.
ALLOWED_VARIABLES = (
    "NBGRADER_EXECUTION",
    "NBGRADER_VALIDATING",
    "COURSE_SANDBOX_MEMORY",
    "COURSE_SANDBOX_CPU",
    "COURSE_SANDBOX_FILE",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TZ",
    "CUDA_VISIBLE_DEVICES",
)


def kernel_environment(workdir: str) -> dict[str, str]:
    """The environment a grading kernel runs with, from an allow-list: one math thread, no
    warnings on stderr (nbgrader gives a test cell that writes to stderr zero points), HOME
    and matplotlib's cache in the working folder, PATH to the interpreter only. No
    JPY_PARENT_PID: in its own PID namespace the kernel cannot see its parent and would shut
    itself down (bubblewrap's --die-with-parent, or the fork server's link, does that job)."""
    env = {name: os.environ[name] for name in ALLOWED_VARIABLES if name in os.environ}
    env.update(
        PATH=os.pathsep.join([os.path.dirname(sys.executable), "/usr/bin", "/bin"]),
        OMP_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        PYTHONWARNINGS="ignore",
        MPLCONFIGDIR=os.path.join(workdir, ".matplotlib"),
        HOME=workdir,
    )
    # The course's packages come from where the grader took them, not from an older copy
    # installed in the interpreter's environment (a hub's shared one, say).
    if roots := dict.fromkeys(os.path.dirname(folder) for folder in exposed()):
        env["PYTHONPATH"] = os.pathsep.join(roots)
    return env


def apply_limits() -> None:
    """Set this process's resource limits from the COURSE_SANDBOX_* variables."""
    for variable, which in (
        ("COURSE_SANDBOX_MEMORY", resource.RLIMIT_AS),
        ("COURSE_SANDBOX_CPU", resource.RLIMIT_CPU),
        ("COURSE_SANDBOX_FILE", resource.RLIMIT_FSIZE),
    ):
        if value := os.environ.get(variable):
            resource.setrlimit(which, (int(value), int(value)))


def _paths(variable: str) -> list[str]:
    return [p for p in os.environ.get(variable, "").split(os.pathsep) if p]


def exposed() -> list[str]:
    """The course's folders kernels see, read-only (the packages they import)."""
    return _paths("COURSE_SANDBOX_EXPOSE")


# The machine's shared libraries and the few files the C library reads, shown read-only;
# a name that is a symbolic link on the machine (/lib -> usr/lib) is the same link inside.
SYSTEM = (
    "/usr/lib",
    "/usr/lib64",
    "/usr/lib32",
    "/usr/libx32",
    "/usr/share/zoneinfo",
    "/lib",
    "/lib64",
    "/lib32",
    "/libx32",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/passwd",
    "/etc/group",
    "/etc/nsswitch.conf",
    "/sys/devices/system/cpu",
)


def _system_view() -> list[str]:
    args = []
    for path in SYSTEM:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.exists(path):
            args += ["--ro-bind", path, path]
    return args


def bwrap_command(
    command: list[str],
    writable: list[str],
    readable: list[str],
    capabilities: tuple[str, ...] | list[str] = (),
) -> list[str]:
    """``command`` wrapped in bubblewrap, denying by default: a file system of only the
    system's libraries, the interpreter, the course's packages (``exposed()``), ``readable``
    files and ``writable`` folders; no network (not even loopback: kernels talk over Unix
    sockets), its own PID namespace and session, no capabilities but ``capabilities``."""
    wrapped = [
        shutil.which("bwrap") or "bwrap",
        "--tmpfs",
        "/",
        *_system_view(),
        "--dev",
        "/dev",
        "--proc",
        "/proc",
    ]
    scratch = ["--size", str(SCRATCH_BYTES), "--tmpfs"]
    wrapped += [
        *scratch,
        "/tmp",
        *scratch,
        "/dev/shm",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-net",
        "--unshare-uts",
        "--new-session",
    ]
    if capabilities and os.geteuid() != 0:
        wrapped += ["--unshare-user", "--uid", "0", "--gid", "0"]
    # The interpreter (the venv and the Python it was made from), then the course's packages.
    for folder in dict.fromkeys([sys.prefix, sys.base_prefix, *exposed(), *readable]):
        wrapped += ["--ro-bind", folder, folder]
    for path in writable:
        wrapped += ["--bind", path, path]
    wrapped += [
        "--remount-ro",
        "/",
        "--chdir",
        writable[0],
        "--cap-drop",
        "ALL",
        "--die-with-parent",
    ]
    for capability in capabilities:
        wrapped += ["--cap-add", capability]
    return wrapped + ["--"] + command


# Every grading kernel's options, forked or started alone: its history in memory, and no
# half-millisecond sleep after each request (ipykernel keeps it for clients that stop reading
# at the reply; nbclient waits for the idle status, which comes after every output, and the
# checks' calls bring their output in the reply): a round trip takes 2.2 ms instead of 2.75.
KERNEL_OPTIONS = ["--HistoryManager.hist_file=:memory:", "--IPythonKernel._execute_sleep=0"]


def main(argv: list[str]) -> None:
    connection_file = os.path.abspath(argv[argv.index("-f") + 1])
    workdir = os.getcwd()
    kernel = [
        sys.executable,
        "-m",
        "ipykernel_launcher",
        "-f",
        connection_file,
        *KERNEL_OPTIONS,
    ]
    info = json.loads(Path(connection_file).read_text())
    sockets = [os.path.dirname(info["ip"])] if info.get("transport") == "ipc" else []
    command = bwrap_command(kernel, [workdir, *sockets], [connection_file]) if walled() else kernel
    command[0] = shutil.which(command[0]) or command[0]
    environment = kernel_environment(workdir)
    os.environ.clear()
    os.environ.update(environment)
    apply_limits()
    # The kernel manager interrupts a cell by signalling the whole process group; bubblewrap
    # must ignore that SIGINT (the kernel installs its own handler) or it ends the sandbox.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.execv(command[0], command)


if __name__ == "__main__":
    if sys.argv[1] == "--probe":
        _probe(sys.argv[2])
    else:
        main(sys.argv[1:])
