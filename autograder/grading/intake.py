"""Submissions read as data: regular files only, names made safe, nothing followed.

A class folder and nbgrader's ``submitted/`` are written by students (directly, or through a
platform's export or nbgrader's exchange), so they are hostile input: a "notebook" may be a
symbolic link to a classmate's notebook or to ``solutions/``, a hard link to another file, a
FIFO that blocks whoever opens it, a device, or a file too large to read; a student folder
may be named like a spreadsheet formula or like HTML. Here every file is opened without
following links and accepted only if it is a regular file of its own (one link) and of
bounded size, and every student name is checked once and made safe for paths, HTML and CSV.
Whatever is refused is graded 0 with one sentence, never followed.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
from pathlib import Path

MAX_BYTES = 50 << 20  # the largest notebook accepted (figures included)
UNSAFE = re.compile(r"[^A-Za-z0-9_.@+-]")  # ASCII only: no look-alike letters, no controls
FORMULA = ("=", "+", "-", "@", ".")  # a spreadsheet formula, an option, a hidden file


class Refused(Exception):
    """A submission that is not a plain file of its own: graded 0, with this reason."""


def safe_name(name: str) -> str:
    """``name`` as a student id safe in a path, in HTML and in a CSV cell: ASCII letters,
    digits and ``. _ @ + -`` only, and never starting with ``= + - @ .``. A name that had to
    change ends in a short digest of the original, so that two folders never become one
    student ("ann lee" and "ann_lee" stay two)."""
    safe = UNSAFE.sub("_", name)[:100] or "student"
    safe = "_" + safe if safe.startswith(FORMULA) else safe
    if safe == name:
        return safe
    return f"{safe}~{hashlib.sha256(name.encode('utf-8', 'surrogateescape')).hexdigest()[:6]}"


def read(path: Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of ``path`` if it is a regular file of its own and at most ``limit`` bytes;
    ``Refused`` (with the reason in plain words) otherwise. Links are never followed."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise Refused("the file is a link to another file, not a notebook of its own") from None
        raise Refused(f"the file cannot be opened ({error.strerror})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Refused("the file is not a regular file (a pipe, a device or a folder)")
        if info.st_nlink != 1:
            raise Refused(
                "the file is a hard link shared with another file, not a notebook of its own"
            )
        if info.st_size > limit:
            raise Refused(f"the file is larger than {limit >> 20} MB")
        with os.fdopen(fd, "rb", closefd=False) as stream:
            data = stream.read(limit + 1)
        if len(data) > limit:
            raise Refused(f"the file is larger than {limit >> 20} MB")
        return data
    finally:
        os.close(fd)


def linked(path: Path, root: Path) -> bool:
    """Whether any part of ``path`` below ``root`` is a symbolic link."""
    for part in [path, *path.parents]:
        if part == root:
            return False
        if part.is_symlink():
            return True
    return False
