"""nbgrader's collect, for a machine where students are Unix users who may attack it.

Hand-ins reach nbgrader's exchange through a folder every student may write to, and the
instructor's ``nbgrader collect`` (or Formgrader's Collect) copies them, with the
instructor's rights, into ``grading/submitted/``. nbgrader's own collect trusts them twice
over: it copies what a link in a hand-in points to (a link to the instructor's solution
notebook becomes the student's submission, graded with full marks, and its answers come back
in the student's feedback), and a hand-in named for another student is only warned about
("cheating attempt?") and collected as theirs.

``CourseCollect`` (the course's nbgrader configuration names it) takes only hand-ins that
are folders owned by the student they name and that hold nothing but folders and regular
files; a refused hand-in is named in the log, and the student's newest trusted one is
collected instead. It copies through file descriptors opened without following links, so a
hand-in swapped for a link between the check and the copy is not followed either.
"""

from __future__ import annotations

import fnmatch
import glob
import os
import pwd
import stat
from itertools import groupby

from nbgrader.exchange.default.collect import ExchangeCollect

DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
FILE = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK


class Untrusted(Exception):
    """Why a hand-in is not collected."""


def check(path: str, student: str) -> None:
    """Raise ``Untrusted`` unless ``path`` is a folder of ``student``'s with only folders
    and regular files in it."""
    try:
        owner = pwd.getpwnam(student).pw_uid
    except KeyError:
        raise Untrusted(f"no user of this machine is called {student!r}") from None
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        raise Untrusted("it is not a folder (a link, say)")
    if info.st_uid != owner:
        raise Untrusted(f"it was handed in by {_name(info.st_uid)}, not by {student}")
    for folder, folders, files in os.walk(path):
        for name in folders + files:
            entry = os.lstat(os.path.join(folder, name))
            where = os.path.relpath(os.path.join(folder, name), path)
            if not (stat.S_ISDIR(entry.st_mode) or stat.S_ISREG(entry.st_mode)):
                raise Untrusted(f"{where} is a link or a special file")
            if entry.st_uid != owner:  # nbgrader leaves hand-ins writable by everyone
                raise Untrusted(f"{where} was put there by {_name(entry.st_uid)}")


def _name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"user id {uid}"


class CourseCollect(ExchangeCollect):
    """nbgrader's collect, taking only the hand-ins ``check`` trusts."""

    def init_src(self):
        super().init_src()  # nbgrader's checks of the exchange, and the assignment's due date
        pattern = os.path.join(
            self.inbound_path,
            "{}+{}+*".format(self.coursedir.student_id or "*", self.coursedir.assignment_id),
        )
        trusted = []
        for path in glob.glob(pattern):
            record = self._path_to_record(path)
            try:
                check(path, record["username"])
            except (Untrusted, OSError) as why:
                self.log.error("Not collected: %s, because %s", os.path.basename(path), why)
                continue
            trusted.append(record)

        def student(record):
            return record["username"]

        self.src_records = [
            self._choose(list(records))
            for _, records in groupby(sorted(trusted, key=student), key=student)
        ]

    def _choose(self, records: list[dict]) -> dict:
        """nbgrader's choice among one student's hand-ins: the newest, or with
        ``before_duedate`` the newest before the due date if there is one."""
        newest_first = self._sort_by_timestamp(records)
        if self.duedate is not None and self.before_duedate:
            on_time = [r for r in newest_first if r["timestamp"] <= self.duedate]
            return (on_time or newest_first)[0]
        return newest_first[0]

    def do_copy(self, src, dest, log=None):
        student = self._path_to_record(src)["username"]
        try:
            folder = os.open(src, DIRECTORY)  # checked again, as it is now: no link, theirs
        except OSError as error:
            self.log.error("Not collected: %s, because %s", os.path.basename(src), error)
            return
        try:
            if os.fstat(folder).st_uid != pwd.getpwnam(student).pw_uid:
                self.log.error("Not collected: %s, which changed hands", os.path.basename(src))
                return
            self._copy(folder, dest, budget=[1000 * self.coursedir.max_dir_size])
        finally:
            os.close(folder)

    def _copy(self, folder: int, dest: str, budget: list[float]) -> None:
        """Copy the folder open as ``folder`` to ``dest``: nbgrader's include, ignore and size
        rules, and nothing reached through a link."""
        os.makedirs(dest, exist_ok=True)
        course = self.coursedir
        for entry in os.scandir(folder):
            name = entry.name
            if any(fnmatch.fnmatch(name, pattern) for pattern in course.ignore):
                continue
            try:
                if entry.is_dir(follow_symlinks=False):
                    inner = os.open(name, DIRECTORY, dir_fd=folder)
                    try:
                        self._copy(inner, os.path.join(dest, name), budget)
                    finally:
                        os.close(inner)
                elif not entry.is_file(follow_symlinks=False):
                    self.log.error("Not collected: %s, a link or a special file", name)
                elif not course.include or any(fnmatch.fnmatch(name, p) for p in course.include):
                    self._copy_file(folder, name, os.path.join(dest, name), budget)
            except OSError as error:  # swapped for a link since it was listed, say
                self.log.error("Not collected: %s, because %s", name, error)

    def _copy_file(self, folder: int, name: str, dest: str, budget: list[float]) -> None:
        source = os.open(name, FILE, dir_fd=folder)
        try:
            info = os.fstat(source)
            size = info.st_size
            if not stat.S_ISREG(info.st_mode) or info.st_uid != os.fstat(folder).st_uid:
                self.log.error("Not collected: %s, not a file of the student's own", name)
                return
            if size > 1000 * self.coursedir.max_file_size or size > budget[0]:
                self.log.warning("Not collected: %s, too large (%d bytes)", name, size)
                return
            budget[0] -= size
            with os.fdopen(source, "rb", closefd=False) as data, open(dest, "wb") as out:
                out.write(data.read(size))
        finally:
            os.close(source)
