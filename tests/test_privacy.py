"""The course's private files are kept from the machine's other users (make grade, deploy/hub).

A course cloned into a home that `useradd -m` made (mode 755) is open to every user: the
grader takes "others" off the course folder and the grading folder, says so once, and leaves
a folder that was never reachable, or that it does not own, as it is. (tests/test_hub.py
checks, as a student of a real hub, that the solutions cannot be read.)
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest

from autograder.grading import privacy


@pytest.fixture
def home():
    """A home like useradd's on Debian, in a folder every user can reach (/tmp)."""
    folder = Path(tempfile.mkdtemp(prefix="course-home-", dir="/tmp"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_an_open_course_is_made_private_and_said_once(home):
    course = home / "course"
    (course / "solutions").mkdir(parents=True)
    course.chmod(0o755)
    assert privacy.reachable_by_others(course / "solutions")
    said = privacy.make_private([course, course / "grading"])  # grading/ not made yet
    assert len(said) == 1 and said[0].startswith(f"{course} was readable by every user")
    assert mode(course) == 0o750 and not privacy.reachable_by_others(course / "solutions")
    assert privacy.make_private([course]) == []  # nothing more to say


def test_a_course_in_a_closed_home_is_closed_without_a_warning(home):
    home.chmod(0o700)
    course = home / "course"
    course.mkdir(mode=0o755)
    course.chmod(0o755)
    assert not privacy.reachable_by_others(course)
    assert privacy.make_private([course]) == []
    assert mode(course) == 0o750  # closed all the same, should the home open later


def test_the_group_keeps_its_permissions(home):
    course = home / "course"
    course.mkdir()
    course.chmod(0o775)
    privacy.make_private([course])
    assert mode(course) == 0o770


@pytest.mark.skipif(os.geteuid() != 0, reason="needs a folder this user does not own")
def test_a_folder_of_another_user_is_named_with_the_command_to_run(home):
    course = home / "course"
    course.mkdir()
    course.chmod(0o755)
    pid = os.fork()
    if pid == 0:  # as nobody: the folder is root's, and chmod is refused
        os.setgid(65534)
        os.setuid(65534)
        said = privacy.make_private([course])
        os._exit(0 if len(said) == 1 and f"run `chmod o-rwx {course}`" in said[0] else 1)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
