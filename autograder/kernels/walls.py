"""The walls around one student's kernel, built by the process that becomes the kernel.

A forked kernel (``kernels/forkserver.py``) starts as a copy of the zygote, which lives in
a bubblewrap sandbox (read-only machine, course and grader hidden). Before any student code
runs, ``enter`` gives the copy namespaces of its own and ``lock`` takes away every
privilege:

- network: a new network namespace with no interface up, so not even 127.0.0.1 (the kernel
  talks to the grader over Unix sockets, which are files);
- processes: a new PID namespace whose first process is the kernel, so it sees and signals
  only its own processes, and all of them end when it does; a new session and process group,
  with no controlling terminal;
- files: a fresh /tmp and /dev/shm (its working folder is in /tmp), and the zygote's folders
  covered by empty read-only ones, so it shares nothing writable with any other kernel;
- privileges: no capabilities (bounding set included), ``no_new_privs``; resource limits.

``Cgroup`` caps the processes and memory of a whole worker's zygote and kernels where the
grader may create control groups (as root), so that a fork bomb or a flood of /tmp files
meets a limit too.
"""

from __future__ import annotations

import ctypes
import os
import time
from pathlib import Path

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC = 0x00020000, 0x04000000, 0x08000000
CLONE_NEWPID, CLONE_NEWNET = 0x20000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 24, 38
LAST_CAPABILITY = 63
SCRATCH = "size=256m,mode=1777"

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"{what}: {os.strerror(error)}")


def _bytes(text: str | None) -> bytes | None:
    return None if text is None else text.encode()


def _mount(
    source: str | None, target: str, kind: str | None, flags: int = 0, options: str | None = None
) -> None:
    _check(
        _libc.mount(
            _bytes(source), target.encode(), _bytes(kind), ctypes.c_ulong(flags), _bytes(options)
        ),
        f"mount {target}",
    )


def enter(sockets: str, covered: list[str], keep: list[str]) -> str:
    """Unshare everything but the user namespace and build this kernel's file view; returns
    where the kernel's socket folder ``sockets`` now is. ``keep`` (the interpreter, the course's
    packages) stays visible, read-only, even where it lives under /tmp. The caller must fork
    once more: the child is the first process of the new PID namespace."""
    _check(
        _libc.unshare(CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWPID | CLONE_NEWNET),
        "unshare",
    )
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    # Folders the fresh /tmp would hide, held open so they can be bound in again.
    hidden = [path for path in dict.fromkeys(keep) if _under(path, ("/tmp", "/dev/shm"))]
    held = {path: os.open(path, os.O_RDONLY | os.O_DIRECTORY) for path in [sockets, *hidden]}
    _mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, SCRATCH)
    _mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=64m,mode=1777")
    own = "/tmp/.kernel"
    os.mkdir(own)
    _mount(f"/proc/self/fd/{held.pop(sockets)}", own, None, MS_BIND)
    for path, folder in held.items():
        os.makedirs(path, exist_ok=True)
        _mount(f"/proc/self/fd/{folder}", path, None, MS_BIND | MS_REC)
        _mount(None, path, None, MS_REMOUNT | MS_BIND | MS_RDONLY)
    for folder in held.values():
        os.close(folder)
    for path in covered:  # the zygote's socket and other kernels' folders, if still in sight
        if os.path.isdir(path) and not any(_under(k, (path,)) for k in hidden):
            _mount("tmpfs", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "size=4k")
    return own


def _under(path: str, folders: tuple[str, ...]) -> bool:
    return any(os.path.commonpath([path, folder]) == folder for folder in folders)


def lock(workdir: str) -> None:
    """In the new PID namespace's first process: its own /proc, a new session, a working
    folder, then no privileges at all."""
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    os.setsid()
    os.makedirs(workdir, exist_ok=True)
    os.chdir(workdir)
    Path("/proc/self/oom_score_adj").write_text("1000")  # the first to go when memory is short
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    for capability in range(LAST_CAPABILITY + 1):
        _libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0)  # EINVAL past the last one
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    _check(_libc.capset(header, (ctypes.c_uint32 * 6)()), "capset")


class Cgroup:
    """A control group (v1 ``pids`` and ``memory``, or v2) for one grading worker; a no-op
    where this process may not create one."""

    ROOT = Path("/sys/fs/cgroup")

    def __init__(self, name: str, pids: int, memory_bytes: int):
        self.folders: list[Path] = []
        settings = {"pids": {"pids.max": pids}, "memory": {"memory.limit_in_bytes": memory_bytes}}
        if (self.ROOT / "cgroup.controllers").exists():  # v2: one hierarchy
            settings = {"": {"pids.max": pids, "memory.max": memory_bytes}}
        for controller, values in settings.items():
            folder = self.ROOT / controller / name
            try:
                folder.mkdir(exist_ok=True)
                for key, value in values.items():
                    (folder / key).write_text(str(value))
            except OSError:
                continue
            self.folders.append(folder)

    def join(self) -> None:
        """Move the calling process (and so its future children) into the group."""
        for folder in self.folders:
            (folder / "cgroup.procs").write_text(str(os.getpid()))

    def remove(self) -> None:
        """Remove the group once its processes have gone (a few seconds at most)."""
        deadline = time.monotonic() + 5
        for folder in self.folders:
            while True:
                try:
                    folder.rmdir()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.05)
