"""Kernels forked from a process that has already imported PyTorch: most of the floor, gone.

Starting a kernel and importing torch costs about 2 s per notebook, more than grading many
notebooks' own code. A grading worker therefore starts one *zygote*: a process, inside the
same bubblewrap sandbox as any kernel, that imports ipykernel, PyTorch, NumPy and matplotlib
once and then waits. Each kernel the grader asks for is a fork of it, ready in milliseconds.
Nothing a student runs ever executes in the zygote, so each notebook still starts from the
same clean state; only the import work is shared. Each fork walls itself in before it becomes
a kernel (``autograder/kernels/walls.py``): namespaces of its own (no network, its own processes,
/tmp and working folder), the zygote's folder covered, every privilege dropped. The zygote
keeps the one capability that needs (making namespaces); the kernels cannot see, signal or
reach it.

    python -m autograder.kernels.forkserver serve SOCKET      # the zygote (started by the worker)
    python -m autograder.kernels.forkserver -f FILE           # the kernelspec's command

The ``kernel`` command is what the kernel manager starts and signals: it sends the
connection info (Unix sockets: ``transport: ipc``), environment and limits to the zygote,
relays interrupts to the forked kernel over the same connection, and exits when the kernel
does. If it is killed, the connection closes and the fork's keeper kills the kernel, and with
it every process the kernel started.
"""

from __future__ import annotations

import errno
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

from autograder.kernels import sandbox, walls

KERNEL_NAME = "course-forked"
SOCKET_VARIABLE = "COURSE_FORKSERVER"
INTERRUPT = b"I"
FORK_PATIENCE = 30.0  # seconds a kernel's start waits for a process to be free


def install_kernelspec(kernels_dir: Path) -> None:
    sandbox.install_kernelspec(kernels_dir, KERNEL_NAME, "autograder.kernels.forkserver")


# --- the zygote ---------------------------------------------------------------------------


def start_zygote(
    run_dir: Path, work_root: Path, cgroup: walls.Cgroup | None = None
) -> subprocess.Popen:
    """Start a zygote serving on ``run_dir/zygote.sock``, sandboxed with ``run_dir`` (the
    kernels' sockets) writable; wait until it listens. Its kernels cover ``run_dir`` and
    ``work_root`` with empty folders."""
    path = run_dir / "zygote.sock"
    walled = sandbox.walled()
    command = [
        sys.executable,
        "-m",
        "autograder.kernels.forkserver",
        "serve",
        str(path),
        "walled" if walled else "unwalled",
        str(run_dir),
        str(work_root),
    ]
    if walled:
        command = sandbox.bwrap_command(
            command, [str(run_dir), str(work_root)], [], capabilities=sandbox.ZYGOTE_CAPABILITIES
        )

    def before_exec():  # in the child, as the grader: join the worker's group, stay alive
        if cgroup is not None:
            cgroup.join()
        try:  # kernels set theirs to 1000: memory runs short, a kernel goes first
            Path("/proc/self/oom_score_adj").write_text("-1000")
        except OSError:
            pass

    # Its /tmp (private, inside the sandbox) serves as HOME; its kernels get their own.
    with open(run_dir / "zygote.log", "ab") as log:  # for the grader's eyes: kernels cover it
        # Its kernels must know which of the course's folders to keep in view.
        env = sandbox.kernel_environment("/tmp") | {
            "COURSE_SANDBOX_EXPOSE": os.pathsep.join(sandbox.exposed())
        }
        zygote = subprocess.Popen(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            preexec_fn=before_exec,
        )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and zygote.poll() is None:
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                probe.connect(str(path))
                probe.sendall(b"{}\n")  # an empty request: the fork exits at once
            os.environ[SOCKET_VARIABLE] = str(path)
            return zygote
        except OSError:
            time.sleep(0.05)
    zygote.kill()
    zygote.wait()
    said = [
        line
        for line in (run_dir / "zygote.log").read_text(errors="replace").splitlines()
        if line.strip()
    ]
    raise RuntimeError(
        "the kernel zygote did not start" + (f" ({said[-1].strip()})" if said else "")
    )


def serve(path: str, walled: str, *covered: str) -> None:
    # matplotlib reads its backend when imported: choose the inline one a kernel would.
    os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    import ipykernel.kernelapp  # noqa: F401
    import matplotlib.pyplot  # noqa: F401
    import numpy  # noqa: F401
    import torch
    import torch.nn.functional  # noqa: F401

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the system
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen()
    while True:
        connection, _ = server.accept()
        try:
            child = fork()
        except OSError:  # no process to be had: this kernel does not start, the next may
            connection.close()
            continue
        if child == 0:
            server.close()
            _become_kernel(connection, walled == "walled", list(covered))  # never returns
        connection.close()


def fork(patience: float = FORK_PATIENCE) -> int:
    """``os.fork()``, tried again for up to ``patience`` seconds while the system has no
    process to give: the worker's control group is full until the processes of the kernel
    before (a fork bomb's thousand) have all ended, which takes seconds on a busy machine."""
    deadline, pause = time.monotonic() + patience, 0.05
    while True:
        try:
            return os.fork()
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.ENOMEM) or (
                time.monotonic() + pause > deadline
            ):
                raise
            time.sleep(pause)
            pause = min(2 * pause, 1.0)


def _become_kernel(connection: socket.socket, walled: bool, covered: list[str]) -> None:
    """In a fresh fork: wall in, fork the kernel, and stay as its keeper."""
    request = json.loads(connection.makefile().readline() or "{}")
    if not request:
        os._exit(0)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    info = request["connection"]
    # Without bubblewrap the grader runs unwalled kernels, and has said so.
    keep = [sys.prefix, sys.base_prefix, *sandbox.exposed()]
    own = walls.enter(os.path.dirname(info["ip"]), covered, keep) if walled else None
    if own is not None:
        info["ip"] = os.path.join(own, os.path.basename(info["ip"]))
    kernel = fork()
    if kernel == 0:
        connection.close()
        _run_kernel(info, request["env"], walled=own is not None)  # never returns
    _keep(connection, kernel)


def _run_kernel(info: dict, env: dict, walled: bool) -> None:
    workdir = "/tmp/work"
    if walled:
        walls.lock(workdir)
    else:
        os.makedirs(workdir, exist_ok=True)
        os.chdir(workdir)
    os.environ.clear()
    os.environ.update(env, HOME=workdir, MPLCONFIGDIR=os.path.join(workdir, ".matplotlib"))
    if os.environ.get("PYTHONWARNINGS") == "ignore":  # read at start-up, which was the zygote's
        warnings.simplefilter("ignore")
    sandbox.apply_limits()
    path = Path(f"/tmp/kernel-{os.getpid()}.json")
    path.write_text(json.dumps(info))
    from ipykernel.kernelapp import IPKernelApp

    sys.argv = ["ipykernel", "-f", str(path), *sandbox.KERNEL_OPTIONS]
    app = IPKernelApp.instance()
    app.initialize()
    app.start()
    os._exit(0)


def _keep(connection: socket.socket, kernel: int) -> None:
    """Relay interrupts from the launcher; when it goes away, the kernel and all its processes
    go; when the kernel ends, so does this keeper. (No threads: a process that has unshared
    its PID namespace may not start any.)"""
    while not os.waitpid(kernel, os.WNOHANG)[0]:
        if not select.select([connection], [], [], 0.2)[0]:
            continue
        try:
            data = connection.recv(1)
        except OSError:
            data = b""
        if not data:
            os.kill(kernel, signal.SIGKILL)
            os._exit(1)
        if data == INTERRUPT:
            os.kill(kernel, signal.SIGINT)
    os._exit(0)


# --- the launcher (the kernelspec's command) ----------------------------------------------


def launch(connection_file: str) -> None:
    link = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    link.connect(os.environ[SOCKET_VARIABLE])
    cwd = os.getcwd()
    request = {
        "connection": json.loads(Path(connection_file).read_text()),
        "cwd": cwd,
        "env": sandbox.kernel_environment(cwd),
    }
    link.sendall(json.dumps(request).encode() + b"\n")
    signal.signal(signal.SIGINT, lambda *_: link.sendall(INTERRUPT))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        while link.recv(1):  # returns b"" when the kernel exits
            pass
    except ConnectionResetError:  # it exited with an interrupt still unread
        pass


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(*sys.argv[2:])
    else:  # the kernelspec: -f CONNECTION_FILE
        launch(sys.argv[sys.argv.index("-f") + 1])
