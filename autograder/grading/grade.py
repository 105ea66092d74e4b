"""Grade a whole class: autograde, feedback, grades CSV, report. What `make grade` runs.

    python -m autograder.grading                       # everything in grading/submitted/
    python -m autograder.grading --import DIR          # first import DIR/<student>/<notebook>.ipynb
    python -m autograder.grading --assignment 01_vector_attention --workers 2
    python -m autograder.grading --scheduler tcp://host:8786   # on a Dask cluster

Submissions follow nbgrader's layout:
``grading/submitted/<student>/<assignment>/<assignment>.ipynb``.
Students are graded side by side, each in isolation (``autograder/grading/job.py``); results go
into the gradebook one at a time. A student already graded for the same file is skipped, so
an interrupted run picks up where it stopped (``--regrade`` grades everyone again).

Writes, under ``grading/``: the gradebook, ``autograded/`` (for the instructor),
``feedback/`` (HTML to return to students, without hidden tests), ``grades.csv``,
``report.md`` and ``score_distribution.png``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from autograder.grading import intake, privacy, report
from autograder.grading.executors import DaskCluster, LocalPool
from autograder.grading.job import Job, grade, job_seconds, stopped
from autograder.grading.limits import CELL_WALL_TIMES, NOTEBOOK_WALL_TIMES, Limits
from autograder.grading.records import COURSE, Course, merge, outcomes
from autograder.kernels import sandbox
from autograder.releases import release


def import_folder(course: Course, folder: Path) -> tuple[list[str], list[tuple[str, str, str]]]:
    """Copy ``folder/<student>/<notebook>.ipynb`` into nbgrader's submitted layout, as data.

    A notebook is matched to an assignment by name (``01_vector_attention.ipynb``) or by its
    number (``01.ipynb``, ``01_my_copy.ipynb``). Student folders that are links are skipped;
    a notebook that is not a regular file of its own is refused, never followed
    (``intake.read``); student names are made safe (``intake.safe_name``). Returns notes for
    the instructor and the refused submissions as (student, assignment, reason).
    """
    notes, refused, assignments = [], [], course.assignments()
    for entry in sorted(os.scandir(folder), key=lambda e: e.name):
        if entry.is_symlink() or not entry.is_dir(follow_symlinks=False):
            if entry.is_symlink():
                notes.append(f"{entry.name!r} is a link, not a student's folder; skipped")
            continue
        student = intake.safe_name(entry.name)
        if student != entry.name:
            notes.append(f"the student folder {entry.name!r} is graded as {student!r}")
        for path in sorted(Path(entry.path).glob("*.ipynb")):
            number = re.match(r"(\d\d)", path.stem)
            matches = [a for a in assignments if a == path.stem] or [
                a for a in assignments if number and a.startswith(number.group(1) + "_")
            ]
            if not matches:
                notes.append(f"{student}: {path.name!r} is not a notebook of this course; skipped")
                continue
            try:
                data = intake.read(path)
            except intake.Refused as reason:
                refused.append((student, matches[0], str(reason)))
                continue
            target = course.submitted / student / matches[0] / f"{matches[0]}.ipynb"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.unlink(missing_ok=True)
            target.write_bytes(data)
    return notes, refused


def prepare_gradebooks(course: Course) -> None:
    """A template gradebook (every assignment, no students) that workers copy, and the
    instructor's gradebook with the same assignments. nbgrader's own commands (``collect``,
    the Formgrader) may have made the instructor's gradebook first, with students and no
    assignment: the missing assignments are added to it, and what it holds is kept."""
    from nbgrader.api import Gradebook

    course.grading.mkdir(parents=True, exist_ok=True)
    if not course.template.exists():
        with tempfile.TemporaryDirectory() as tmp:
            release.generate(Path(tmp) / "release", Path(tmp) / "template.db")
            shutil.copyfile(Path(tmp) / "template.db", course.template)
    if not course.gradebook.exists():
        shutil.copyfile(course.template, course.gradebook)
        return
    with Gradebook(f"sqlite:///{course.gradebook}") as gradebook:
        recorded = {assignment.name for assignment in gradebook.assignments}
    if missing := [a for a in course.assignments() if a not in recorded]:
        with tempfile.TemporaryDirectory() as tmp:
            release.generate(Path(tmp) / "release", course.gradebook, missing)


def find_jobs(
    course: Course,
    assignments: list[str],
    limits: Limits,
    regrade: bool,
    forked: bool = True,
    refused: Sequence[tuple[str, str, str]] = (),
):
    """(jobs to run, number already graded for the same file). A submission that is not a
    plain file of its own (a link anywhere in its path, a pipe, a hard link, too large)
    becomes a job that only records why it scores 0."""
    jobs, done = [], 0

    def job(student, assignment, path="", refusal="", digest=""):
        return Job(
            student,
            assignment,
            str(path),
            str(course.root),
            str(course.template),
            limits,
            forked,
            course.secret(student, assignment, digest),
            refusal,
            sandbox.walled(),
        )

    for path in sorted(course.submitted.glob("*/*/*.ipynb")):
        student, assignment = path.parent.parent.name, path.parent.name
        if assignment not in assignments or path.stem != assignment:
            continue
        try:
            if intake.linked(path, course.submitted):
                raise intake.Refused(
                    "the submission is reached through a link, not a folder of its own"
                )
            digest = hashlib.sha256(intake.read(path)).hexdigest()
        except intake.Refused as reason:
            jobs.append(job(student, assignment, refusal=str(reason)))
            continue
        marker = course.result_path(student, assignment)
        failed = course.failure_path(student, assignment).exists()  # graded again until it works
        if not regrade and not failed and marker.exists():
            if json.loads(marker.read_text()).get("sha256") == digest:
                done += 1
                continue
        jobs.append(job(student, assignment, path, digest=digest))
    jobs += [
        job(student, assignment, refusal=reason)
        for student, assignment, reason in refused
        if assignment in assignments
    ]
    return jobs, done


# Events that say a limit stopped the notebook (a cell, the notebook's budget, the kernel);
# "busy": the clock's limit, reached while the machine kept the kernel waiting for a CPU.
LIMITS = {"timeout", "time", "kernel", "busy"}


def points(result: dict) -> tuple[float, float]:
    """(points earned, points possible) of a worker's result, before the gradebook."""
    grades = result.get("grades", {}).values()
    return (sum(g["score"] or 0 for g in grades), sum(g["max"] or 0 for g in grades))


def grade_again(result: dict) -> bool:
    """Whether a notebook is graded again, alone, before it loses a point: the grader failed,
    or the clock stopped it while a busy machine kept its kernel waiting. (A cell stopped by
    its CPU limit, or one that slept, would be stopped again.)"""
    earned, possible = points(result)
    busy = any(e["kind"] == "busy" for e in result["events"])
    return (result["status"] == "error" and not result.get("stopped")) or (
        busy and earned < possible
    )


def finish(result: dict, first: dict | None = None) -> dict:
    """The result to keep: after a second grading, the better of the two. Points lost in a
    notebook a limit stopped are said, for the report's "needs a look"."""
    if first is not None:
        logs = first.get("log", "") + result.get("log", "")  # both gradings', whole
        result = first if points(first)[0] > points(result)[0] else result
        result["log"] = logs
        said = [e["message"] for e in first["events"] if e["kind"] in LIMITS][:2]
        result["events"] = [
            {
                "kind": "retry",
                "cell": None,
                "message": f"graded again, alone, after the first grading stopped "
                f"({'; '.join(said) or first['reason']})",
            }
        ] + result["events"]
    earned, possible = points(result)
    if earned < possible and any(e["kind"] in LIMITS for e in result["events"]):
        result["events"].append(
            {
                "kind": "limit",
                "cell": None,
                "message": f"{possible - earned:g} of {possible:g} points not earned in "
                "a notebook a limit stopped: see whether the limit cost them",
            }
        )
    return result


class NoSandbox(Exception):
    """No sandbox starts here, and the instructor did not ask to grade without one."""


def walls(forked: bool, unwalled: bool) -> str:
    """Decide, before anyone is graded, whether kernels are walled in; the report's note when
    they are not. Raises ``NoSandbox``, with what to do, when no sandbox starts and the
    instructor did not ask for ``--unwalled``."""
    if unwalled:
        os.environ[sandbox.WALLS_VARIABLE] = "0"
        return (
            "Graded without the sandbox, as asked (--unwalled): student code could read "
            "whatever this user can (the solutions, the gradebook, other students' work)."
        )
    if problem := sandbox.problem(forked):
        raise NoSandbox(
            f"Nobody was graded: {problem}, so student notebooks cannot be walled in. "
            + (
                "Install Debian's or Ubuntu's bubblewrap (`make grade` does it when run as root)"
                if not sandbox.available()
                else "This machine refuses user namespaces to users other than root (Ubuntu 24.04 "
                "does, through AppArmor): an administrator can allow them for bwrap (docs/hub.md,"
                ' "Grading on a shared machine"), or grade as root'
            )
            + "; or grade without walls, knowing that student code can then read what you "
            "can: make grade GRADE_ARGS=--unwalled"
        )
    os.environ[sandbox.WALLS_VARIABLE] = "1"
    return ""


def grade_class(
    course: Course,
    executor,
    assignments: list[str] | None = None,
    limits: Limits | None = None,
    regrade: bool = False,
    progress: bool = True,
    forked: bool = True,
    refused: Sequence[tuple[str, str, str]] = (),
    unwalled: bool = False,
):
    """Grade every submission (and record ``refused`` ones, from an import, as 0 with their
    reason); write the grades, the report and the plot; the report's summary. Before anyone
    is graded: a sandbox must start here (``walls``), and the course is made private."""
    from tqdm.auto import tqdm

    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    notes = [note for note in [walls(forked, unwalled)] if note]
    for said in privacy.make_private([course.root, course.grading]):
        print(f"Warning: {said}.")
    prepare_gradebooks(course)
    jobs, done = find_jobs(
        course, assignments or course.assignments(), limits or Limits(), regrade, forked, refused
    )
    print(f"{len(jobs)} notebooks to grade ({done} already graded) on {executor}.")
    first: dict[tuple[str, str], dict] = {}  # results stopped by a limit, until graded again
    with tqdm(total=len(jobs), unit="notebook", disable=not progress) as bar:
        for result in executor.run(grade, jobs, job_seconds, stopped):
            if grade_again(result):
                first[result["student"], result["assignment"]] = result
            else:
                merge(course, finish(result))
                bar.update()
        again = [job for job in jobs if (job.student, job.assignment) in first]
        for result in executor.alone(grade, again, job_seconds, stopped):
            merge(course, finish(result, first[result["student"], result["assignment"]]))
            bar.update()
    return report.write(course, outcomes(course), notes)


def arguments() -> argparse.ArgumentParser:
    """The command line of ``python -m autograder.grading``; the limits' defaults are
    ``Limits``' (``autograder/grading/limits.py``)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--import",
        dest="folder",
        type=Path,
        help="a folder of <student>/<notebook>.ipynb to import first",
    )
    parser.add_argument("--assignment", action="append", help="only these (repeatable)")
    parser.add_argument("--workers", type=int, default=os.cpu_count(), help="local processes")
    parser.add_argument("--scheduler", help="address of a Dask scheduler to grade on")
    defaults = Limits()
    parser.add_argument(
        "--cell-timeout",
        type=float,
        default=defaults.cell_timeout,
        help="CPU seconds a cell may use (default: %(default)s)",
    )
    parser.add_argument(
        "--notebook-timeout",
        type=float,
        default=defaults.notebook_timeout,
        help="CPU seconds a notebook may use (default: %(default)s)",
    )
    parser.add_argument(
        "--cell-wall",
        type=float,
        help="seconds by the clock a cell may take "
        f"(sleeping, blocked; default: {CELL_WALL_TIMES} × --cell-timeout)",
    )
    parser.add_argument(
        "--notebook-wall",
        type=float,
        help="seconds by the clock a notebook "
        f"may take (default: {NOTEBOOK_WALL_TIMES} × --notebook-timeout)",
    )
    parser.add_argument("--memory-gib", type=float, default=defaults.memory_bytes / (1 << 30))
    parser.add_argument("--regrade", action="store_true", help="grade everyone again")
    parser.add_argument(
        "--no-fork",
        dest="forked",
        action="store_false",
        help="start every kernel afresh instead of forking it (slower)",
    )
    parser.add_argument(
        "--grading",
        type=Path,
        default=COURSE / "grading",
        help="grading folder (default: grading/)",
    )
    parser.add_argument(
        "--unwalled",
        action="store_true",
        help="grade without the sandbox (student code can read your files)",
    )
    return parser


def limits_of(args: argparse.Namespace) -> Limits:
    """The limits the command line asks for."""
    return Limits(
        args.cell_timeout,
        args.notebook_timeout,
        int(args.memory_gib * (1 << 30)),
        cell_wall=args.cell_wall,
        notebook_wall=args.notebook_wall,
    )


def main(argv: list[str] | None = None) -> int:
    args = arguments().parse_args(argv)
    course = Course(COURSE, args.grading)
    try:
        walls(args.forked, args.unwalled)  # before anything is imported, let alone graded
    except NoSandbox as stop:
        print(stop, file=sys.stderr)
        return 2
    refused: list[tuple[str, str, str]] = []
    if args.folder:
        notes, refused = import_folder(course, args.folder)
        for note in notes:
            print(note)
    executor = DaskCluster(args.scheduler) if args.scheduler else LocalPool(args.workers)
    summary = grade_class(
        course,
        executor,
        args.assignment,
        limits_of(args),
        args.regrade,
        forked=args.forked,
        refused=refused,
        unwalled=args.unwalled,
    )
    print(report.plain(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
