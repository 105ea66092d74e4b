"""Grade one student's notebook for one assignment, in isolation (runs in a worker process).

``grade(job)`` reads and checks the file and puts its cells right (``submission.py``), readies
the worker process once (``process.py``: kernelspecs, the zygote), then autogrades the
notebook with nbgrader in a private course folder (its own copy of a gradebook that holds
the assignment and no student), configured here (``_config``: the course's
``nbgrader_config.py``, with nbgrader's Execute step replaced by ``execute.SafeExecute`` and
the job's limits), with a sandboxed kernel forked from the worker's zygote; it writes
feedback without the hidden tests, and returns everything the instructor's gradebook needs
as plain data. A failure of the grader itself is one sentence in the result; its full log
travels beside it (``log``) for ``grading/logs/``. The pipeline merges results one at a
time, so workers never write to the shared SQLite gradebook, and a worker can run on another
machine (Dask).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import tempfile
import time
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from autograder.cells import strip_hidden_tests
from autograder.grading import intake, process, submission
from autograder.grading.events import read as read_events
from autograder.grading.limits import GRADER_SECONDS, Limits
from autograder.grading.records import log_name
from autograder.grading.submission import Rejected
from course_checks.plain import printable


@dataclass
class Job:
    student: str
    assignment: str
    submission: str  # path to the submitted .ipynb
    course: str  # the course root (solutions/, notebooks/, autograder/)
    template_db: str  # a gradebook with every assignment and no students
    limits: Limits = field(default_factory=Limits)
    forked_kernels: bool = True  # kernels forked from a zygote (autograder/kernels/forkserver.py)
    secret: str = ""  # seeds this student's hidden checks (autograder/trusted/checker.py)
    refused: str = ""  # why the submission is not read at all (autograder/grading/intake.py)
    walled: bool = True  # kernels in the sandbox (False only when the instructor asked)


class GraderFailed(Exception):
    """nbgrader itself stopped: ``what`` in one sentence, ``log`` whole for the instructor."""

    def __init__(self, what: str, log: str):
        super().__init__(what)
        self.what, self.log = what, log


def _result(job: Job) -> dict:
    return {
        "student": job.student,
        "assignment": job.assignment,
        "status": "graded",
        "reason": "",
        "grades": {},
        "comments": {},
        "events": [],
        "notebook": None,
        "feedback": None,
        "sha256": None,
        "timestamp": None,
        "outcomes": {},
    }


def job_seconds(job: Job) -> float:
    """How long grading one notebook may take by the clock, everything included: the
    kernel's time, a last cell's and the grader's own work (reading, checking, pages)."""
    # both filled in by Limits.__post_init__ when not given
    assert job.limits.notebook_wall is not None and job.limits.cell_wall is not None
    return job.limits.notebook_wall + job.limits.cell_wall + GRADER_SECONDS


def stopped(job: Job, why: str) -> dict:
    """The result of a job the pool had to stop: a grader failure, kept apart from the
    gradebook like any other (its earlier grade stands), and not graded again at once."""
    result = _result(job)
    result.update(
        status="error",
        stopped=True,
        reason=f"the grader failed: {why}; the full log is in "
        f"{log_name(job.student, job.assignment)}",
        log=f"{why} (its limit: {job_seconds(job):.0f} s)\n",
    )
    return result


def grade(job: Job) -> dict:
    """Grade one submission; never raises (a failure is reported in the result)."""
    started = time.perf_counter()
    course, path = Path(job.course), Path(job.submission)
    result = _result(job)
    private = Path(tempfile.mkdtemp(prefix="grade-"))
    try:
        releases = submission.released(course)
        release = releases[job.assignment]
        try:
            if job.refused:
                raise Rejected(job.refused)
            data = intake.read(path)
            result["sha256"] = hashlib.sha256(data).hexdigest()
            result["timestamp"] = submission.timestamp(path.parent / "timestamp.txt")
            notebook = submission.read(data, job.assignment, releases)
        except (Rejected, intake.Refused) as reason:
            result.update(status="rejected", reason=str(reason))
            return result
        submission.put_right(notebook, release, result["events"])
        kernel = process.prepare(course, job.forked_kernels, job.limits, job.walled)
        with warnings.catch_warnings():  # nbgrader's and nbformat's own chatter, not the student's
            warnings.simplefilter("ignore")
            _autograde(job, notebook, private, result, kernel)
    except Exception as error:  # noqa: BLE001 - a bug or an nbgrader failure: report it, keep the class going
        what = (
            error.what
            if isinstance(error, GraderFailed)
            else f"the grader failed ({type(error).__name__})"
        )
        result.update(
            status="error",
            reason=f"{what}; the full log is in {log_name(job.student, job.assignment)}",
            log=getattr(error, "log", "") + traceback.format_exc(),
        )
    finally:
        shutil.rmtree(private, ignore_errors=True)
        result["seconds"] = round(time.perf_counter() - started, 3)
        # What people read (the terminal, the report, grades.csv) never carries the
        # student's control characters: one choke point for every sentence.
        result["reason"] = printable(result["reason"])
        for event in result["events"]:
            event["message"] = printable(str(event.get("message", "")))
    return result


def _config(
    course: Path,
    private: Path,
    limits: Limits,
    events: Path,
    kernel: str,
    workdir: Path,
    secret: str,
    assignment: str,
):
    """nbgrader's configuration for one job: the course's, in a private course folder, with
    nbgrader's Execute step replaced by the hardened one and set to the job's limits."""
    from nbgrader.converters import Autograde
    from nbgrader.preprocessors import Execute
    from traitlets.config import Config, PyFileConfigLoader

    from autograder.grading.execute import SafeExecute

    # nbgrader's own autograding steps, with its Execute replaced by the hardened one.
    steps = [
        SafeExecute if step is Execute else step
        for step in Autograde.class_traits()["autograde_preprocessors"].default()
    ]
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course / "autograder")).load_config()
    config.merge(
        Config(
            {
                "CourseDirectory": {
                    "root": str(private),
                    "source_directory": str(course / "solutions"),
                    "submitted_directory": "submitted",
                    "autograded_directory": "autograded",
                    "feedback_directory": "feedback",
                    "db_url": f"sqlite:///{private / 'gradebook.db'}",
                },
                # Its files stay writable by their owner: nbgrader makes them read-only (444), which
                # only root could then rewrite (the hidden tests are taken out of the copy below).
                "Autograde": {"autograde_preprocessors": steps, "permissions": 644},
                "SafeExecute": {
                    "kernel_name": kernel,
                    "timeout": int(limits.cell_timeout),
                    "notebook_timeout": limits.notebook_timeout,
                    "cell_wall": limits.cell_wall,
                    "notebook_wall": limits.notebook_wall,
                    "cpu_root": process.cpu_root(kernel),
                    "max_output_chars": limits.output_chars,
                    "workdir": str(workdir),
                    "events_path": str(events),
                    "secret": secret,
                    "ipc_root": str(process.WorkerProcess.run_dir),
                    "reference": str(course / "solutions" / assignment / f"{assignment}.ipynb"),
                },
            }
        )
    )
    return config


def _autograde(job: Job, notebook: dict, private: Path, result: dict, kernel: str) -> None:
    """nbgrader's autograde and feedback for the notebook, in ``private``; the grades,
    comments, events, outcomes, the autograded notebook and the page go into ``result``."""
    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI

    student, assignment, limits = job.student, job.assignment, job.limits
    folder = private / "submitted" / student / assignment
    folder.mkdir(parents=True)
    (folder / f"{assignment}.ipynb").write_text(json.dumps(notebook))
    if result["timestamp"]:
        (folder / "timestamp.txt").write_text(result["timestamp"])
    # The kernel's working folder: empty, and where a forked kernel's sandbox can write.
    workdir = Path(tempfile.mkdtemp(dir=process.WorkerProcess.work_root))
    shutil.copy(job.template_db, private / "gradebook.db")
    events = private / "events.jsonl"
    events.touch()
    os.environ.update(
        COURSE_SANDBOX_MEMORY=str(limits.memory_bytes),
        COURSE_SANDBOX_CPU=str(limits.sandbox_cpu()),
        COURSE_SANDBOX_FILE=str(limits.file_bytes),
    )
    api = NbGraderAPI(
        config=_config(
            Path(job.course),
            private,
            limits,
            events,
            kernel,
            workdir,
            job.secret or secrets.token_hex(16),
            assignment,
        )
    )
    try:
        outcome = api.autograde(assignment, student, force=True, create=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    happened, outcomes = read_events(events)
    result["events"] += happened
    result["outcomes"].update(outcomes)  # each test cell's outcome: data for the report
    if not outcome["success"]:
        raise GraderFailed(
            "nbgrader could not autograde the notebook",
            outcome.get("log", "") + outcome.get("error", ""),
        )
    with Gradebook(f"sqlite:///{private / 'gradebook.db'}") as gradebook:
        graded = gradebook.find_submission_notebook(assignment, assignment, student)
        result["grades"] = {
            g.name: {
                "score": g.auto_score,
                "max": g.max_score,
                "needs_manual_grade": g.needs_manual_grade,
            }
            for g in graded.grades
        }
        result["comments"] = {c.name: c.auto_comment for c in graded.comments}
    path = private / "autograded" / student / assignment / f"{assignment}.ipynb"
    result["notebook"] = path.read_text()
    path.write_text(json.dumps(strip_hidden_tests(json.loads(result["notebook"]))))
    outcome = api.generate_feedback(assignment, student, force=True)
    if not outcome["success"]:
        raise GraderFailed(
            "nbgrader could not write the feedback page",
            outcome.get("log", "") + outcome.get("error", ""),
        )
    page = private / "feedback" / student / assignment / f"{assignment}.html"
    result["feedback"] = page.read_text()
