"""Keep what holds the answers from the machine's other users.

The course folder holds the solutions and hidden tests (``solutions/``, the git history, the
tests' sample answers) and, in ``grading/``, the gradebook, the secret that seeds hidden
checks, every student's work and feedback. On a shared machine (a JupyterHub where each
student is a Unix user) a folder made by ``git clone`` in a home that ``useradd`` made is
readable by everyone. ``make grade`` and the hub's set-up (``deploy/hub``) therefore take
every permission for other users off the course folder and the grading folder, which hides
everything under them at once, whatever its own mode; permissions for the folder's group are
left as they are (a course's staff may share one).

A student reaches the course only through what the course gives out: nbgrader's exchange
(which must then live outside the course folder: ``deploy/hub`` puts it in /srv) and the
installed package.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def reachable_by_others(path: Path) -> bool:
    """Whether a user who is neither the owner nor in the group can open ``path``: it grants
    "others" read or search, and so does every folder above it."""
    path = path.resolve()
    if not path.stat().st_mode & (stat.S_IROTH | stat.S_IXOTH):
        return False
    return all(folder.stat().st_mode & stat.S_IXOTH for folder in path.parents)


def make_private(folders: list[Path]) -> list[str]:
    """Take "others" permissions off each folder (that this user owns); one sentence per
    folder that was open to other users, for the instructor."""
    said = []
    for folder in dict.fromkeys(f.resolve() for f in folders if f.exists()):
        mode = folder.stat().st_mode
        if not mode & stat.S_IRWXO:
            continue
        was_open = reachable_by_others(folder)
        try:
            os.chmod(folder, stat.S_IMODE(mode) & ~stat.S_IRWXO)
        except PermissionError:
            if was_open:
                said.append(
                    f"{folder} is readable by every user of this machine and could "
                    f"not be made private (it is not yours): run `chmod o-rwx {folder}`"
                )
            continue
        if was_open:
            said.append(
                f"{folder} was readable by every user of this machine (solutions, "
                "hidden tests, the gradebook, students' work): made private "
                f"(chmod o-rwx {folder})"
            )
    return said
