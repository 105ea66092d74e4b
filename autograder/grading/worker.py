"""Grade one student's notebook for one assignment, in isolation (runs in a worker process).

``grade(job)`` checks the file, puts its cells right (``normalise.py``: copied, split,
merged or re-typed cells) and back in the course's order, autogrades it with nbgrader in a
private course folder (its own copy of a gradebook that holds the assignment and no student)
with a sandboxed kernel forked from the worker's zygote (``autograder/kernels/forkserver.py``),
writes feedback without the hidden tests, and returns everything the instructor's gradebook
needs as plain data. A failure of the grader itself is one sentence in the result; its full
log travels beside it (``log``) for ``grading/logs/``. The pipeline merges results one at a
time, so workers never write to the shared SQLite gradebook, and a worker can run on another
machine (Dask).
"""

from __future__ import annotations

import ast
import hashlib
import json
import multiprocessing.util
import os
import re
import secrets
import shutil
import tempfile
import time
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from autograder.cells import grade_id, grade_ids, source, strip_hidden_tests
from autograder.grading import intake
from autograder.grading.normalise import normalise, note_cell
from autograder.grading.safe_pages import renderable
from autograder.kernels import forkserver, sandbox, walls
from autograder.releases.release import assignments as course_assignments
from course_checks.plain import printable


@dataclass
class Limits:
    """What one notebook may use. Time limits count CPU seconds (the kernel's and every process
    it started); the clock's backstops, for code that sleeps or blocks, are generous
    multiples of them unless given."""

    cell_timeout: float = 60
    notebook_timeout: float = 300
    memory_bytes: int = 4 << 30
    file_bytes: int = 64 << 20
    output_chars: int = 200_000
    cell_wall: float | None = None  # seconds by the clock; None: 5 × cell_timeout
    notebook_wall: float | None = None  # None: 4 × notebook_timeout

    def __post_init__(self):
        self.cell_wall = self.cell_wall or 5 * self.cell_timeout
        self.notebook_wall = self.notebook_wall or 4 * self.notebook_timeout


GRADER_SECONDS = 300  # the grader's own work on one notebook, beyond its kernel's limits


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


def released(course: Path) -> dict[str, dict]:
    """The release notebook of every assignment: name -> notebook JSON."""
    return {
        a: json.loads((course / "notebooks" / a / f"{a}.ipynb").read_text())
        for a in course_assignments(course)
    }


# --- checks before grading -------------------------------------------------------------


class Rejected(Exception):
    """A submission that cannot be graded at all (it scores 0, with this reason)."""


class GraderFailed(Exception):
    """nbgrader itself stopped: ``what`` in one sentence, ``log`` whole for the instructor."""

    def __init__(self, what: str, log: str):
        super().__init__(what)
        self.what, self.log = what, log


def log_name(job: Job) -> str:
    """Where a failed job's full log goes, relative to the grading folder."""
    return f"logs/{job.student}/{job.assignment}.log"


def read_submission(data: bytes, assignment: str, releases: dict[str, dict]) -> dict:
    text = data.decode("utf-8", errors="replace")
    if not text.strip():
        raise Rejected("the file is empty")
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as error:
        raise Rejected(f"the file is not a notebook (malformed JSON: {error})") from None
    if not isinstance(notebook, dict) or not isinstance(notebook.get("cells"), list):
        raise Rejected("the file is JSON but not a notebook (it has no list of cells)")
    # Ids such as "setup" or "ex1_tests" occur in several notebooks: the closest match tells.
    ids = set(grade_ids(notebook))
    if ids:
        overlap = {a: len(ids & set(grade_ids(nb))) / len(ids | set(grade_ids(nb)))
                   for a, nb in releases.items()}
        best = max(overlap, key=overlap.get)
        if overlap[best] > overlap[assignment]:
            raise Rejected(f"this is not the notebook of {assignment} (it is {best})")
    return notebook


def _timestamp(path: Path) -> str | None:
    """When nbgrader's collect says it was handed in (its timestamp.txt), if it is one."""
    try:
        text = intake.read(path, limit=100).decode("ascii").strip()
    except (intake.Refused, UnicodeDecodeError):
        return None
    return text if re.fullmatch(r"[\d :.+\-TUCZ]+", text) else None


def format_problem(notebook: dict) -> str | None:
    """What is wrong with the notebook's format, if anything (nbgrader copes with most)."""
    import nbformat

    try:
        nbformat.validate(nbformat.from_dict(notebook))
    except Exception as error:
        return str(error).splitlines()[0]
    return None


def restore_order(notebook: dict, release: dict) -> bool:
    """Put the course's cells back in the release's order; a student's own cells travel with
    the course cell above them. True if anything moved."""
    order = grade_ids(release)
    groups: dict[str | None, list] = {None: []}
    current = None
    for cell in notebook["cells"]:
        if grade_id(cell) in order and grade_id(cell) not in groups:
            current = grade_id(cell)
            groups[current] = []
        groups[current].append(cell)
    cells = groups[None] + [c for g in order if g in groups for c in groups[g]]
    moved = [id(c) for c in cells] != [id(c) for c in notebook["cells"]]
    notebook["cells"] = cells
    return moved


SUSPICIOUS_ATTRIBUTES = {
    "input_transformers_post": "rewrites later cells (IPython input transformers)",
    "input_transformers_cleanup": "rewrites later cells (IPython input transformers)",
    "ast_transformers": "rewrites later cells (IPython AST transformers)",
    "displayhook": "changes how results are displayed",
    "register": "registers IPython event callbacks",
    "_exit": "ends the kernel (os._exit)",
    "kill": "kills a process",
}
PROTECTED_ROOTS = {"torch", "checking", "Checks", "builtins", "sys", "transformer_course",
                   "course_checks", "F", "nn"}


def suspicious(source: str) -> list[str]:
    """What a student's code does to the test machinery, found by reading it."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in SUSPICIOUS_ATTRIBUTES:
            found.append((node.lineno, SUSPICIOUS_ATTRIBUTES[node.attr]))
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "setattr":
            targets = node.args[:1]
        for target in targets:
            root = target
            while isinstance(root, ast.Attribute):
                root = root.value
            if target is not root and getattr(root, "id", None) in PROTECTED_ROOTS:
                found.append((node.lineno, f"replaces {ast.unparse(target)}"))
            if isinstance(node, ast.Call) and getattr(root, "id", None) in PROTECTED_ROOTS:
                found.append((node.lineno, f"replaces an attribute of {root.id}"))
    return [f"line {line}: {what}" for line, what in sorted(set(found))]


def scan(notebook: dict, release: dict) -> list[dict]:
    locked = {grade_id(c) for c in release["cells"]
              if c.get("metadata", {}).get("nbgrader", {}).get("locked")}
    events = []
    for cell in notebook["cells"]:
        if cell.get("cell_type") != "code" or grade_id(cell) in locked:
            continue  # locked cells are replaced by the instructor's version anyway
        for finding in suspicious(source(cell)):
            where = (f"answer cell {grade_id(cell)}" if grade_id(cell)
                     else "a cell the student added")
            events.append({"kind": "suspicious", "cell": grade_id(cell),
                           "message": f"{where}, {finding}"})
    return events


# --- grading in a private course folder -------------------------------------------------

class _Process:
    """What a worker process sets up once: kernelspecs, the kernels' environment, and the
    zygote that forked kernels come from (restarted if it has died)."""

    course: Path | None = None
    zygote = None
    cgroup = None
    run_dir: Path
    work_root: Path


def _stop_zygote() -> None:
    """At the worker's exit: the zygote (and any kernel) ends, then its control group goes."""
    if _Process.zygote is not None and _Process.zygote.poll() is None:
        _Process.zygote.kill()
        _Process.zygote.wait()
    if _Process.cgroup is not None:
        _Process.cgroup.remove()


def _socket_folder(prefix: str) -> Path:
    """A new folder for Unix sockets (the zygote's, the kernels' below k-*/): in the temporary
    folder when its path is short enough for theirs (108 bytes at most), else in /tmp."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    if len(str(folder)) > 80:
        folder.rmdir()
        folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    return folder


def _prepare_process(course: Path, forked: bool, limits: Limits, walled: bool) -> str:
    """Ready this process to grade; the name of the kernel to use."""
    state = _Process
    os.environ[sandbox.WALLS_VARIABLE] = "1" if walled else "0"  # read by the kernels' launchers
    if state.course != course:
        kernels = Path(tempfile.mkdtemp(prefix="course-kernels-"))
        sandbox.install_kernelspec(kernels / "kernels")
        forkserver.install_kernelspec(kernels / "kernels")
        import autograder
        import course_checks
        import transformer_course

        os.environ.update(
            JUPYTER_PATH=os.pathsep.join([str(kernels), os.environ.get("JUPYTER_PATH", "")]),
            OMP_NUM_THREADS="1",
            MKL_NUM_THREADS="1",
            # As nbgrader tells the kernels: test cells run here (the trusted checker).
            NBGRADER_EXECUTION="autograde",
            # What kernels import: the course's packages, and the grader's agent and wire
            # (autograder/ holds no hidden test or solution).
            COURSE_SANDBOX_EXPOSE=os.pathsep.join(
                str(Path(package.__file__).parent) for package in (transformer_course,
                                                                    course_checks, autograder)),
        )
        state.run_dir = _socket_folder("course-zygote-")
        state.work_root = Path(tempfile.mkdtemp(prefix="course-work-"))
        state.course = course
        # Gone when the process ends, after the zygote (a grading server runs many classes).
        for folder in (kernels, state.run_dir, state.work_root):
            multiprocessing.util.Finalize(None, shutil.rmtree, (folder,),
                                          {"ignore_errors": True}, exitpriority=5)
    if not forked:
        return sandbox.KERNEL_NAME
    if state.zygote is None or state.zygote.poll() is not None:
        (state.run_dir / "zygote.sock").unlink(missing_ok=True)
        if state.cgroup is None:  # the zygote and its kernels: 1024 tasks, memory capped
            state.cgroup = walls.Cgroup(f"course-grading-{os.getpid()}", 1024,
                                        limits.memory_bytes + (2 << 30))
            # multiprocessing's workers end with os._exit: atexit would not run there.
            multiprocessing.util.Finalize(None, _stop_zygote, exitpriority=10)
        state.zygote = forkserver.start_zygote(state.run_dir, state.work_root, state.cgroup)
    return forkserver.KERNEL_NAME


def _config(course: Path, private: Path, limits: Limits, events: Path, kernel: str,
            workdir: Path, secret: str, assignment: str):
    from nbgrader.converters import Autograde
    from nbgrader.preprocessors import Execute
    from traitlets.config import Config, PyFileConfigLoader

    from autograder.grading.execute import SafeExecute

    # nbgrader's own autograding steps, with its Execute replaced by the hardened one.
    steps = [SafeExecute if step is Execute else step
             for step in Autograde.class_traits()["autograde_preprocessors"].default()]
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course / "autograder")).load_config()
    config.merge(Config({
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
            "cpu_root": _Process.zygote.pid if kernel == forkserver.KERNEL_NAME else 0,
            "max_output_chars": limits.output_chars,
            "workdir": str(workdir),
            "events_path": str(events),
            "secret": secret,
            "ipc_root": str(_Process.run_dir),
            "reference": str(course / "solutions" / assignment / f"{assignment}.ipynb"),
        },
    }))
    return config


def _result(job: Job) -> dict:
    return {"student": job.student, "assignment": job.assignment, "status": "graded",
            "reason": "", "grades": {}, "comments": {}, "events": [], "notebook": None,
            "feedback": None, "sha256": None, "timestamp": None, "outcomes": {}}


def job_seconds(job: Job) -> float:
    """How long grading one notebook may take by the clock, everything included: the
    kernel's time, a last cell's and the grader's own work (reading, checking, pages)."""
    return job.limits.notebook_wall + job.limits.cell_wall + GRADER_SECONDS


def stopped(job: Job, why: str) -> dict:
    """The result of a job the pool had to stop: a grader failure, kept apart from the
    gradebook like any other (its earlier grade stands), and not graded again at once."""
    result = _result(job)
    result.update(status="error", stopped=True,
                  reason=f"the grader failed: {why}; the full log is in {log_name(job)}",
                  log=f"{why} (its limit: {job_seconds(job):.0f} s)\n")
    return result


def grade(job: Job) -> dict:
    """Grade one submission; never raises (a failure is reported in the result)."""
    started = time.perf_counter()
    course, submission = Path(job.course), Path(job.submission)
    result = _result(job)
    private = Path(tempfile.mkdtemp(prefix="grade-"))
    try:
        releases = released(course)
        release = releases[job.assignment]
        try:
            if job.refused:
                raise Rejected(job.refused)
            data = intake.read(submission)
            result["sha256"] = hashlib.sha256(data).hexdigest()
            result["timestamp"] = _timestamp(submission.parent / "timestamp.txt")
            notebook = read_submission(data, job.assignment, releases)
        except (Rejected, intake.Refused) as reason:
            result.update(status="rejected", reason=str(reason))
            return result
        notes = normalise(notebook, release) + renderable(notebook)
        result["events"] += [{"kind": "cells", "cell": None, "message": note} for note in notes]
        if restore_order(notebook, release):
            result["events"].append({"kind": "order", "cell": None, "message":
                                     "cells were out of order; graded in the course's order"})
        if notes:  # at the top of the graded notebook, so of the feedback page too
            notebook["cells"].insert(0, note_cell(notes, notebook))
        result["events"] += scan(notebook, release)
        if problem := format_problem(notebook):
            result["events"].append({"kind": "format", "cell": None, "message":
                                     f"the file bends the notebook format ({problem}); graded"
                                     " anyway"})
        kernel = _prepare_process(course, job.forked_kernels, job.limits, job.walled)
        with warnings.catch_warnings():  # nbgrader's and nbformat's own chatter, not the student's
            warnings.simplefilter("ignore")
            _autograde(job, notebook, private, result, kernel)
    except Exception as error:  # a bug or an nbgrader failure: report it, keep the class going
        what = error.what if isinstance(error, GraderFailed) else \
            f"the grader failed ({type(error).__name__})"
        result.update(status="error", reason=f"{what}; the full log is in {log_name(job)}",
                      log=getattr(error, "log", "") + traceback.format_exc())
    finally:
        shutil.rmtree(private, ignore_errors=True)
        result["seconds"] = round(time.perf_counter() - started, 3)
        # What people read (the terminal, the report, grades.csv) never carries the
        # student's control characters: one choke point for every sentence.
        result["reason"] = printable(result["reason"])
        for event in result["events"]:
            event["message"] = printable(str(event.get("message", "")))
    return result


def _autograde(job: Job, notebook: dict, private: Path, result: dict, kernel: str) -> None:
    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI

    from autograder.grading.execute import OUTCOME

    student, assignment, limits = job.student, job.assignment, job.limits
    folder = private / "submitted" / student / assignment
    folder.mkdir(parents=True)
    (folder / f"{assignment}.ipynb").write_text(json.dumps(notebook))
    if result["timestamp"]:
        (folder / "timestamp.txt").write_text(result["timestamp"])
    # The kernel's working folder: empty, and where a forked kernel's sandbox can write.
    workdir = Path(tempfile.mkdtemp(dir=_Process.work_root))
    shutil.copy(job.template_db, private / "gradebook.db")
    events = private / "events.jsonl"
    events.touch()
    os.environ.update(
        COURSE_SANDBOX_MEMORY=str(limits.memory_bytes),
        COURSE_SANDBOX_CPU=str(int(limits.notebook_timeout * 2)),
        COURSE_SANDBOX_FILE=str(limits.file_bytes),
    )
    api = NbGraderAPI(config=_config(Path(job.course), private, limits, events, kernel, workdir,
                                        job.secret or secrets.token_hex(16), assignment))
    try:
        outcome = api.autograde(assignment, student, force=True, create=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    for event in map(json.loads, events.read_text().splitlines()):
        if event["kind"] == OUTCOME:  # a test cell's outcome: data for the report
            result["outcomes"][event["cell"]] = {k: v for k, v in event.items()
                                                 if k not in ("kind", "cell")}
        else:
            result["events"].append(event)
    if not outcome["success"]:
        raise GraderFailed("nbgrader could not autograde the notebook",
                           outcome.get("log", "") + outcome.get("error", ""))
    with Gradebook(f"sqlite:///{private / 'gradebook.db'}") as gradebook:
        graded = gradebook.find_submission_notebook(assignment, assignment, student)
        result["grades"] = {
            g.name: {"score": g.auto_score, "max": g.max_score,
                     "needs_manual_grade": g.needs_manual_grade}
            for g in graded.grades
        }
        result["comments"] = {c.name: c.auto_comment for c in graded.comments}
    path = private / "autograded" / student / assignment / f"{assignment}.ipynb"
    result["notebook"] = path.read_text()
    path.write_text(json.dumps(strip_hidden_tests(json.loads(result["notebook"]))))
    outcome = api.generate_feedback(assignment, student, force=True)
    if not outcome["success"]:
        raise GraderFailed("nbgrader could not write the feedback page",
                           outcome.get("log", "") + outcome.get("error", ""))
    page = private / "feedback" / student / assignment / f"{assignment}.html"
    result["feedback"] = page.read_text()
