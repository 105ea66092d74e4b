"""The grading pipeline (`make grade`), end to end with real nbgrader on one class.

One class of notebook 01 holds correct, partial and broken submissions and every hostile
trick the pipeline must survive. It is graded once, in parallel; each test then checks one
student's score (never more than their real answers earn), the report, and the files.
"""

from __future__ import annotations

import csv
import html
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import (
    ASSIGNMENTS,
    REPO,
    load,
    nbgrader,
    plain_course,
    release_path,
    solution_path,
    solution_sources,
    student_submission,
)

from autograder.cells import HIDDEN
from autograder.grading import grade as pipeline
from autograder.grading import records
from autograder.grading.executors import DaskCluster, LocalPool
from autograder.grading.limits import Limits

A = "01_vector_attention"
POINTS = {
    "ex1_tests": 1,
    "ex2_tests": 1,
    "ex3_tests": 2,
    "ex4_tests": 2,
    "ex5_tests": 1,
    "ex6_tests": 3,
}
FULL = sum(POINTS.values())
LIMITS = Limits(cell_timeout=8, notebook_timeout=120, memory_bytes=3 << 30, cell_wall=16)
SOLUTION = solution_sources(A)
STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
SUBMITTED_AT = "2026-11-20 09:30:00.000000 UTC"


def answers(**changes: str) -> dict[str, str]:
    """The correct answers with some cells replaced (``STUB`` puts back the empty stub)."""
    return SOLUTION | changes


def append(cell: str, code: str) -> str:
    return SOLUTION[cell] + "\n" + code


WRITE_OUTSIDE = REPO / "written_by_a_student.txt"
HIDDEN_TESTS_PATH = solution_path(A)
LEAK_ATTEMPT = f"""
import glob, os
for path in [{str(HIDDEN_TESTS_PATH)!r}, {str(REPO / "grading" / "gradebook.db")!r}]:
    try:
        print("READ", open(path).read()[:5000])
    except OSError as error:
        print("blocked:", error)
print("LISTED", os.listdir("."), glob.glob("/tmp/**/*.ipynb", recursive=True))
print("LISTED", glob.glob({str(REPO / "grading" / "*")!r}))
try:
    open({str(WRITE_OUTSIDE)!r}, "w").write("x")
except OSError as error:
    print("blocked:", error)
"""
TAMPER = """
import torch, torch.testing
import course_checks.checking as checking
torch.allclose = lambda *args, **kwargs: True
torch.testing.assert_close = lambda *args, **kwargs: None
checking._allclose = lambda *args, **kwargs: True
checking.Checks.score = lambda self: float(self.points)
"""
REWRITE_LATER_CELLS = """
def _full_marks(lines):
    return [line.replace("checks.score()", "checks.points") for line in lines]
get_ipython().input_transformers_post.append(_full_marks)
"""
STUBBORN_LOOP = """
import time
while True:
    try:
        time.sleep(0.2)
    except KeyboardInterrupt:
        pass
"""

# student -> (answers, expected total)
CLASS = {
    "solution": (answers(), FULL),
    "blank": ({}, 0),
    "no_scaling": (
        answers(ex2_score=SOLUTION["ex2_score"].replace(" / math.sqrt(D)", "")),
        None,
    ),  # partial: whatever plain nbgrader gives (compared below)
    "sys_exit": (answers(ex1_project=append("ex1_project", "import sys; sys.exit()")), FULL),
    # The kernel dies in exercise 1: exercises 2 to 5 still earn their points, and 6, which
    # calls the lost `project`, does not.
    "os_exit": (
        answers(ex1_project=append("ex1_project", "import os; os._exit(1)")),
        FULL - POINTS["ex1_tests"] - POINTS["ex6_tests"],
    ),
    "loop": (answers(ex3_softmax=append("ex3_softmax", "while True: pass")), FULL),
    "stubborn_loop": (
        answers(ex5_weighted_sum=append("ex5_weighted_sum", STUBBORN_LOOP)),
        FULL - POINTS["ex5_tests"] - POINTS["ex6_tests"],
    ),
    "memory_bomb": (
        answers(
            ex5_weighted_sum=append(
                "ex5_weighted_sum", "hog = [bytearray(1 << 28) for _ in range(1000)]"
            )
        ),
        FULL,
    ),
    "huge_output": (answers(ex1_project=append("ex1_project", "print('x' * 20_000_000)")), FULL),
    "monkeypatch": (answers(ex6_self_attention=TAMPER + STUB), FULL - POINTS["ex6_tests"]),
    "input_transformer": ({"ex1_project": REWRITE_LATER_CELLS + STUB}, 0),
    "reads_hidden_tests": (answers(ex1_project=append("ex1_project", LEAK_ATTEMPT)), FULL),
    "warns": (
        answers(
            ex1_project=SOLUTION["ex1_project"].replace(
                "return W @ x + b", "return torch.tensor(W @ x + b)"
            )
        ),
        FULL,
    ),
}


def submit(submitted: Path, student: str, content: str | dict) -> None:
    """Put a file (text, or a notebook as JSON) where nbgrader's layout expects the student's
    notebook of ``A``."""
    path = submitted / student / A / f"{A}.ipynb"
    path.parent.mkdir(parents=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content))


def notebook_for(student: str) -> dict:
    return student_submission(load(release_path(A)), CLASS[student][0])


def write_class(submitted: Path) -> None:
    for student in CLASS:
        submit(submitted, student, notebook_for(student))
    # What `nbgrader collect` writes beside a submission.
    (submitted / "solution" / A / "timestamp.txt").write_text(SUBMITTED_AT)
    # Broken files.
    broken = {"empty": "", "malformed": '{"cells": [', "not_a_notebook": "[1, 2]"}
    for student, text in broken.items():
        submit(submitted, student, text)
    # The notebook of another assignment, under this one's name.
    other = "02_matrix_attention"
    wrong = student_submission(load(release_path(other)), solution_sources(other))
    submit(submitted, "wrong_assignment", wrong)
    # Correct answers, but cells deleted, moved and edited.
    nb = student_submission(load(release_path(A)), SOLUTION)
    cells = nb["cells"]
    grade_id = [c.get("metadata", {}).get("nbgrader", {}).get("grade_id") for c in cells]
    deleted = [
        c
        for c, g in zip(cells, grade_id, strict=True)
        if g not in ("ex3_tests", "ex5_weighted_sum")
    ]
    submit(submitted, "deleted_cells", nb | {"cells": deleted})
    moved = cells[:]
    i, j = grade_id.index("ex4_attention_weights"), grade_id.index("ex6_tests")
    moved[i], moved[j] = moved[j], moved[i]
    edited = json.loads(json.dumps(moved))
    for cell in edited:
        if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "").endswith("_tests"):
            cell["source"] = "100"
    for name, cells_ in {"moved_cells": moved, "edited_tests": edited}.items():
        submit(submitted, name, nb | {"cells": cells_})


EXPECTED = {name: total for name, (_, total) in CLASS.items()} | {
    "empty": 0,
    "malformed": 0,
    "not_a_notebook": 0,
    "wrong_assignment": 0,
    # The test cell of ex3 comes back; ex5's answer is gone, and ex6 needs it.
    "deleted_cells": FULL - POINTS["ex5_tests"] - POINTS["ex6_tests"],
    "moved_cells": FULL,
    "edited_tests": FULL,
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory, bubblewrap):
    grading = tmp_path_factory.mktemp("class") / "grading"
    write_class(grading / "submitted")
    course = pipeline.Course(REPO, grading)
    started = time.perf_counter()
    summary = pipeline.grade_class(course, LocalPool(2), [A], LIMITS, progress=False)
    seconds = time.perf_counter() - started
    results = {
        p.parent.parent.name: json.loads(p.read_text())
        for p in grading.glob(f"autograded/*/{A}/{records.RESULT}")
    }
    return {"course": course, "summary": summary, "results": results, "seconds": seconds}


def events(result: dict, kind: str) -> list[str]:
    return [e["message"] for e in result["events"] if e["kind"] == kind]


def test_every_student_is_graded(graded):
    assert set(graded["results"]) == set(EXPECTED)


@pytest.mark.parametrize("student", [s for s, total in EXPECTED.items() if total is not None])
def test_each_student_gets_what_their_real_answers_earn(graded, student):
    result = graded["results"][student]
    assert result["score"] == pytest.approx(EXPECTED[student]), result


@pytest.mark.parametrize(
    "student, reason",
    [
        ("empty", "the file is empty"),
        ("malformed", "malformed JSON"),
        ("not_a_notebook", "not a notebook"),
        ("wrong_assignment", "it is 02_matrix_attention"),
    ],
)
def test_a_broken_file_is_rejected_with_its_reason(graded, student, reason):
    result = graded["results"][student]
    assert result["status"] == "rejected"
    assert reason in result["reason"]
    assert f"**{student}** (rejected)" in graded["summary"]


@pytest.mark.parametrize(
    "student, kind, text",
    [
        ("os_exit", "kernel", "the kernel died"),
        # An endless loop uses its 8 s of CPU (on a busy machine, the clock's 16 s may come
        # first); one that sleeps and ignores Ctrl-C meets the clock's backstop.
        ("loop", "limit", "8 s of CPU time|16 s by the clock"),
        ("stubborn_loop", "limit", "16 s by the clock .* ignored the interrupt"),
        ("huge_output", "output", "was cut"),
        ("monkeypatch", "suspicious", "replaces torch.allclose"),
        ("input_transformer", "suspicious", "rewrites later cells"),
        ("moved_cells", "order", "out of order"),
    ],
)
def test_the_report_names_what_happened(graded, student, kind, text):
    result = graded["results"][student]
    said = (
        events(result, "timeout") + events(result, "busy")
        if kind == "limit"
        else events(result, kind)
    )
    assert any(re.search(text, message) for message in said), result["events"]
    assert f"**{student}**" in graded["summary"]


def test_a_memory_bomb_is_stopped_by_the_limit(graded):
    """Its score is asserted above; what stopped it depends on the machine's load: the memory
    limit (MemoryError) or, on a slow machine, the cell's time limit."""
    notebook = graded["course"].autograded / "memory_bomb" / A / f"{A}.ipynb"
    result = graded["results"]["memory_bomb"]
    assert (
        "MemoryError" in notebook.read_text()
        or events(result, "timeout")
        or events(result, "kernel")
    ), result["events"]


def test_huge_output_is_cut_while_it_runs(graded):
    notebook = graded["course"].autograded / "huge_output" / A / f"{A}.ipynb"
    assert notebook.stat().st_size < 1_000_000


def assert_sandboxed(autograded: Path) -> None:
    notebook = load(autograded / "reads_hidden_tests" / A / f"{A}.ipynb")
    cell = next(c for c in notebook["cells"] if "LISTED" in "".join(c["source"]))
    printed = "".join("".join(o.get("text", "")) for o in cell["outputs"])
    assert "READ" not in printed  # neither the source notebook nor the gradebook was read
    # The write is blocked too, unless the course lives under /tmp: then a forked kernel's
    # own fresh /tmp may take it, and the real course never sees it.
    assert printed.count("blocked:") == 3 or str(REPO).startswith("/tmp/"), printed
    assert not WRITE_OUTSIDE.exists()
    listed = re.findall(r"LISTED (.*)", printed)
    # Its own folder holds no notebook, and no other student's work is in sight.
    assert len(listed) == 2 and "ipynb" not in listed[0] and listed[1] == "[]", listed


def test_the_sandbox_hides_the_course_and_blocks_writes(graded):
    assert_sandboxed(graded["course"].autograded)


def test_kernels_started_afresh_are_sandboxed_too(tmp_path, bubblewrap):
    """`--no-fork`: each kernel starts through the sandbox launcher instead of the zygote."""
    grading = tmp_path / "grading"
    submit(grading / "submitted", "reads_hidden_tests", notebook_for("reads_hidden_tests"))
    pipeline.grade_class(
        pipeline.Course(REPO, grading), LocalPool(1), [A], LIMITS, progress=False, forked=False
    )
    assert_sandboxed(grading / "autograded")


def hidden_test_lines() -> list[str]:
    """Lines only the hidden tests have (not also in the release)."""
    release, lines, inside = json.dumps(load(release_path(A))), [], False
    for cell in load(solution_path(A))["cells"]:
        for line in "".join(cell["source"]).splitlines():
            if line.strip() in HIDDEN:
                inside = line.strip() == HIDDEN[0]
            elif inside and len(line.strip()) > 25:
                lines.append(line.strip())
    return [line for line in lines if json.dumps(line)[1:-1] not in release]


def solution_only_lines() -> list[str]:
    release = json.dumps(load(release_path(A)))
    return [
        line.strip()
        for source in SOLUTION.values()
        for line in source.splitlines()
        if len(line.strip()) > 25 and json.dumps(line.strip())[1:-1] not in release
    ]


def test_feedback_holds_neither_hidden_tests_nor_the_solution(graded):
    hidden, solution = hidden_test_lines(), solution_only_lines()
    assert len(hidden) > 10 and len(solution) > 3
    feedback = graded["course"].feedback
    for student in ("blank", "reads_hidden_tests", "solution"):
        page = html.unescape(
            re.sub(r"<[^>]+>", "", (feedback / student / A / f"{A}.html").read_text())
        )
        assert not [line for line in hidden if line in page], student
        if student == "blank":
            assert not [line for line in solution if line in page]
    # The instructor's autograded copy keeps them.
    autograded = (graded["course"].autograded / "solution" / A / f"{A}.ipynb").read_text()
    assert HIDDEN[0] in autograded


def test_csv_report_and_plot_are_written(graded):
    grading = graded["course"].grading
    rows = list(csv.reader((grading / "grades.csv").open()))
    assert rows[0][:6] == ["student", "assignment", "score", "max_score", "status", "notes"]
    assert f"{A}:ex3_tests (Exercise 3 · softmax)" in rows[0]  # the title students see
    assert len(rows) == 1 + len(EXPECTED)
    assert (grading / "report.md").read_text().startswith("# Grading report")
    assert (grading / "score_distribution.png").stat().st_size > 5000
    assert "the plain dot product, without the 1/√D scaling" in graded["summary"]
    assert "| ex3_tests | Exercise 3 · softmax |" in graded["summary"]


def test_grades_equal_plain_sequential_nbgrader(graded, tmp_path):
    """The same students through plain `nbgrader autograde`: identical scores per cell."""
    from nbgrader.api import Gradebook

    course = plain_course(tmp_path / "course", [A])
    students = ["solution", "blank", "no_scaling", "warns"]
    for student in students:
        shutil.copytree(
            graded["course"].submitted / student, course / "grading" / "submitted" / student
        )
    result = nbgrader(course, "autograde", A, "--force")
    assert result.returncode == 0, result.stderr[-3000:]
    with Gradebook(f"sqlite:///{course / 'grading' / 'gradebook.db'}") as gradebook:
        for student in students:
            plain = {
                g.name: g.score for g in gradebook.find_submission_notebook(A, A, student).grades
            }
            ours = {k: v[0] for k, v in graded["results"][student]["exercises"].items()}
            assert ours == plain, student


def test_an_interrupted_run_resumes_without_redoing_anyone(tmp_path, bubblewrap):
    grading = tmp_path / "grading"
    for i in range(4):
        submit(grading / "submitted", f"s{i}", notebook_for("solution" if i % 2 else "blank"))
    command = [
        sys.executable,
        "-m",
        "autograder.grading",
        "--grading",
        str(grading),
        "--assignment",
        A,
        "--workers",
        "1",
    ]
    run = subprocess.Popen(
        command,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + 300
    while not list(grading.glob(f"autograded/*/{A}/{records.RESULT}")):
        assert time.monotonic() < deadline and run.poll() is None
        time.sleep(0.2)
    os.killpg(run.pid, signal.SIGKILL)  # as hard as an interruption gets
    run.wait()
    markers = grading.glob(f"autograded/*/{A}/{records.RESULT}")
    finished = {p: p.stat().st_mtime_ns for p in markers}
    assert 0 < len(finished) < 4
    # The second run's temporary folder: long (sockets need short paths), and to see its
    # folders go.
    scratch = tmp_path / "a-temporary-folder-with-a-long-name"
    scratch.mkdir()
    assert len(str(scratch)) > 80
    output = subprocess.run(
        command,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    assert output.returncode == 0, output.stderr[-3000:]
    assert f"({len(finished)} already graded)" in output.stdout
    assert not list(scratch.iterdir())  # a grading server runs class after class
    results = list(grading.glob(f"autograded/*/{A}/{records.RESULT}"))
    assert len(results) == 4
    assert all(p.stat().st_mtime_ns == t for p, t in finished.items())  # not redone
    scores = {p.parent.parent.name: json.loads(p.read_text())["score"] for p in results}
    assert scores == {"s0": 0, "s1": FULL, "s2": 0, "s3": FULL}


def test_a_dask_cluster_grades_like_the_local_pool(tmp_path, bubblewrap):
    from distributed import LocalCluster

    grading = tmp_path / "grading"
    for student in ("solution", "no_scaling"):
        submit(grading / "submitted", student, notebook_for(student))
    with LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        executor = DaskCluster(cluster.scheduler_address)
        pipeline.grade_class(pipeline.Course(REPO, grading), executor, [A], LIMITS, progress=False)
        executor.client.close()
    scores = {
        p.parent.parent.name: json.loads(p.read_text())["score"]
        for p in grading.glob(f"autograded/*/{A}/{records.RESULT}")
    }
    assert scores["solution"] == FULL
    assert 0 < scores["no_scaling"] < FULL


FORK_PROBE = """
import json, sys
from pathlib import Path
import nbformat
from nbclient import NotebookClient
from autograder.grading import process
from autograder.grading.limits import Limits
kernel = process.prepare(Path(sys.argv[1]), True, Limits(), True)
from jupyter_client.manager import KernelManager
printed = []
CODE = ["import sys; print('torch' in sys.modules); import torch; torch.planted = 1",
        "import torch; print(hasattr(torch, 'planted'))"]
for n, code in enumerate(CODE):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)])
    folder = {"metadata": {"path": str(process.WorkerProcess.work_root)}}
    sockets = process.WorkerProcess.run_dir / f"probe-{n}"
    sockets.mkdir()
    km = KernelManager(kernel_name=kernel, transport="ipc", ip=str(sockets / "kernel"))
    NotebookClient(notebook, km=km, resources=folder).execute()
    printed.append(notebook.cells[0].outputs[0]["text"].strip())
print(json.dumps([kernel, *printed]))
"""


def test_forked_kernels_start_with_torch_imported_and_share_nothing(bubblewrap):
    output = subprocess.run(
        [sys.executable, "-c", FORK_PROBE, str(REPO)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert output.returncode == 0, output.stderr[-3000:]
    # torch is there before the first import; what one notebook sets, the next never sees.
    assert json.loads(output.stdout.splitlines()[-1]) == ["course-forked", "True", "False"]


def test_a_plain_folder_of_notebooks_is_imported_by_name_or_number(tmp_path):
    folder = tmp_path / "downloads"
    for student, name in [
        ("alice", "01.ipynb"),
        ("bob", "01_vector_attention.ipynb"),
        ("bob", "02_my_copy.ipynb"),
        ("carl", "notes.ipynb"),
    ]:
        (folder / student).mkdir(parents=True, exist_ok=True)
        (folder / student / name).write_text(f"{student}/{name}")
    course = pipeline.Course(REPO, tmp_path / "grading")
    notes, refused = pipeline.import_folder(course, folder)
    imported = sorted(
        str(p.relative_to(course.submitted)) for p in course.submitted.glob("*/*/*.ipynb")
    )
    assert imported == [
        "alice/01_vector_attention/01_vector_attention.ipynb",
        "bob/01_vector_attention/01_vector_attention.ipynb",
        "bob/02_matrix_attention/02_matrix_attention.ipynb",
    ]
    assert (
        course.submitted / "bob" / "02_matrix_attention" / "02_matrix_attention.ipynb"
    ).read_text() == "bob/02_my_copy.ipynb"
    assert notes == ["carl: 'notes.ipynb' is not a notebook of this course; skipped"]
    assert refused == []


def test_the_gradebook_holds_the_class_as_nbgrader_would(graded):
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{graded['course'].gradebook}") as gradebook:
        submission = gradebook.find_submission(A, "solution")
        assert submission.score == FULL
        assert str(submission.timestamp).startswith("2026-11-20 09:30:00")
        assert gradebook.find_submission(A, "blank").score == 0
        assert len(gradebook.find_assignment(A).submissions) == len(EXPECTED)


def test_a_notebook_over_its_time_budget_stops_there(tmp_path, bubblewrap):
    grading = tmp_path / "grading"
    submit(grading / "submitted", "slow", notebook_for("loop"))  # endless loop in exercise 3
    budget = Limits(cell_timeout=30, notebook_timeout=6)  # CPU seconds; the clock's: 24 s
    pipeline.grade_class(pipeline.Course(REPO, grading), LocalPool(1), [A], budget, progress=False)
    result = json.loads((grading / "autograded" / "slow" / A / records.RESULT).read_text())
    said = events(result, "time") + events(result, "busy")
    assert any(
        re.fullmatch(
            r"the notebook used up its (6 s of CPU time|24 s by the clock.*); "
            "later cells were not run",
            message,
        )
        for message in said
    ), said
    # Exercises 1 and 2 ran before the loop; nothing after it did.
    assert result["score"] == POINTS["ex1_tests"] + POINTS["ex2_tests"]


def test_every_assignments_reference_answers_earn_full_marks_through_the_wall(tmp_path, bubblewrap):
    """What `make grade` does to every notebook's reference answers (walled kernel, trusted
    checker, secret seeds, arguments pickled across): full marks, so no check depends on
    anything the wall changes."""
    grading = tmp_path / "grading"
    for assignment in ASSIGNMENTS:
        folder = grading / "submitted" / "reference" / assignment
        folder.mkdir(parents=True)
        notebook = student_submission(load(release_path(assignment)), solution_sources(assignment))
        (folder / f"{assignment}.ipynb").write_text(json.dumps(notebook))
    limits = Limits(cell_timeout=60, notebook_timeout=300, memory_bytes=3 << 30)
    pipeline.grade_class(
        pipeline.Course(REPO, grading), LocalPool(2), ASSIGNMENTS, limits, progress=False
    )
    for assignment in ASSIGNMENTS:
        result = json.loads(
            (grading / "autograded" / "reference" / assignment / records.RESULT).read_text()
        )
        short = {cell: g for cell, g in result["grades"].items() if g["score"] != g["max"]}
        assert result["grades"] and not short, (assignment, short, result["reason"])


class AlwaysFails:
    """A pool on which the grader fails on every notebook, as it does when its kernels stop
    starting half-way through a class."""

    def run(self, function, jobs, *_):
        for job in jobs:
            yield {
                "student": job.student,
                "assignment": job.assignment,
                "status": "error",
                "reason": "the grader failed (RuntimeError); the full log is in logs/",
                "log": "RuntimeError: the kernel zygote did not start\n",
                "grades": {},
                "comments": {},
                "events": [],
                "notebook": None,
                "feedback": None,
                "sha256": "",
                "timestamp": None,
            }

    alone = run


def test_a_grader_failure_keeps_the_earlier_grade_and_is_graded_again(graded, tmp_path):
    grading = tmp_path / "grading"
    shutil.copytree(graded["course"].grading, grading)
    for student in (grading / "submitted").iterdir():  # two students, to grade quickly
        if student.name not in ("solution", "blank"):
            shutil.rmtree(student)
    course = pipeline.Course(REPO, grading)
    page = course.feedback / "solution" / A / f"{A}.html"
    before = page.read_bytes()

    pipeline.grade_class(course, AlwaysFails(), [A], LIMITS, regrade=True, progress=False)
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course.gradebook}") as gradebook:
        assert gradebook.find_submission_notebook(A, A, "solution").score == FULL
    assert page.read_bytes() == before
    rows = {row["student"]: row for row in csv.DictReader((grading / "grades.csv").open())}
    assert float(rows["solution"]["score"]) == FULL and rows["solution"]["status"] == "error"
    assert "the grade shown is the earlier one, kept" in rows["solution"]["notes"]
    assert "the kernel zygote did not start" in (grading / "logs/solution" / f"{A}.log").read_text()
    # The next run grades them again, though their files did not change.
    jobs, done = pipeline.find_jobs(course, [A], LIMITS, regrade=False)
    assert sorted(job.student for job in jobs) == ["blank", "solution"] and done == 0
    pipeline.grade_class(course, LocalPool(2), [A], LIMITS, progress=False)
    assert not list(grading.glob(f"autograded/*/{A}/{records.FAILURE}"))
    rows = {row["student"]: row for row in csv.DictReader((grading / "grades.csv").open())}
    assert rows["solution"]["status"] == rows["blank"]["status"] == "graded"


def test_a_notebook_over_its_limit_in_the_pool_is_stopped_and_the_class_graded(
    graded, tmp_path, monkeypatch
):
    """Whatever holds a job (here: a limit of 3 s for one student's), the pool stops that job
    with its worker, reports it, keeps its earlier grade, and grades everyone else."""
    grading = tmp_path / "grading"
    shutil.copytree(graded["course"].grading, grading)
    for student in (grading / "submitted").iterdir():
        if student.name not in ("solution", "blank"):
            shutil.rmtree(student)
    course = pipeline.Course(REPO, grading)
    real = pipeline.job_seconds
    monkeypatch.setattr(
        pipeline, "job_seconds", lambda job: 3.0 if job.student == "solution" else real(job)
    )
    started = time.perf_counter()
    pipeline.grade_class(course, LocalPool(2), [A], LIMITS, regrade=True, progress=False)
    assert time.perf_counter() - started < real(pipeline.Job("", A, "", "", "", LIMITS))
    rows = {row["student"]: row for row in csv.DictReader((grading / "grades.csv").open())}
    assert rows["solution"]["status"] == "error" and float(rows["solution"]["score"]) == FULL
    assert "took longer than its limit of 3 s" in rows["solution"]["notes"]
    assert "the grade shown is the earlier one, kept" in rows["solution"]["notes"]
    assert rows["blank"]["status"] == "graded"


REFUSED_BWRAP = """#!/bin/sh
echo "bwrap: setting up uid map: Permission denied" >&2
exit 1
"""


def files_of(folder: Path) -> dict[str, tuple[int, int]]:
    return {
        str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in folder.rglob("*")
        if p.is_file()
    }


def test_a_sandbox_that_cannot_start_stops_grading_before_anyone(graded, tmp_path):
    """As on Ubuntu 24.04, where bwrap is installed but user namespaces are refused."""
    grading = tmp_path / "grading"
    shutil.copytree(graded["course"].grading, grading)
    fake = tmp_path / "bin" / "bwrap"
    fake.parent.mkdir()
    fake.write_text(REFUSED_BWRAP)
    fake.chmod(0o755)
    before = files_of(grading)
    env = {**os.environ, "PATH": f"{fake.parent}{os.pathsep}{os.environ['PATH']}"}
    command = [
        sys.executable,
        "-m",
        "autograder.grading",
        "--grading",
        str(grading),
        "--assignment",
        A,
        "--regrade",
    ]
    stopped = subprocess.run(
        command, cwd=REPO, capture_output=True, text=True, timeout=300, env=env
    )
    assert stopped.returncode == 2
    said = stopped.stderr.strip()
    assert said.startswith(
        "Nobody was graded: bubblewrap cannot start a sandbox here (bwrap: "
        "setting up uid map: Permission denied)"
    ), said
    assert "GRADE_ARGS=--unwalled" in said and "\n" not in said and "Traceback" not in said
    assert files_of(grading) == before  # every earlier grade, page and row as it was

    # Asked for, grading goes on without walls, and the report says so.
    for student in (grading / "submitted").iterdir():
        if student.name != "blank":
            shutil.rmtree(student)
    unwalled = subprocess.run(
        [*command, "--unwalled"], cwd=REPO, capture_output=True, text=True, timeout=600, env=env
    )
    assert unwalled.returncode == 0, unwalled.stderr[-3000:]
    report = (grading / "report.md").read_text()
    assert "Graded without the sandbox, as asked (--unwalled)" in report.split("##")[0]
    assert (
        json.loads((grading / "autograded/blank" / A / records.RESULT).read_text())["status"]
        == "graded"
    )


def test_a_zygote_that_cannot_start_says_what_bubblewrap_said(tmp_path):
    fake = tmp_path / "bin" / "bwrap"
    fake.parent.mkdir()
    fake.write_text(REFUSED_BWRAP)
    fake.chmod(0o755)
    probe = (
        "from pathlib import Path; import sys\n"
        "from autograder.kernels import forkserver\n"
        "try:\n    forkserver.start_zygote(Path(sys.argv[1]), Path(sys.argv[1]))\n"
        "except RuntimeError as error:\n    print(error)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path)],
        cwd=REPO,
        text=True,
        capture_output=True,
        timeout=120,
        env={**os.environ, "PATH": f"{fake.parent}:{os.environ['PATH']}"},
    )
    assert out.stdout.strip() == (
        "the kernel zygote did not start (bwrap: setting up uid map: Permission denied)"
    ), out.stderr


NO_FRESH_KERNEL = """
import json, sys
from pathlib import Path
from autograder.grading import grade as pipeline
from autograder.grading.execute import SafeExecute

started = []
real = SafeExecute.start_new_kernel_client

def start_once(self):  # the first kernel starts; none after it (all slots taken, say)
    started.append(1)
    if len(started) > 1:
        raise RuntimeError("Kernel died before replying to kernel_info")
    return real(self)

SafeExecute.start_new_kernel_client = start_once
course = pipeline.Course(Path(sys.argv[1]), Path(sys.argv[2]))
pipeline.prepare_gradebooks(course)
(job,), _ = pipeline.find_jobs(course, [sys.argv[3]], pipeline.Limits(cell_timeout=8), False)
result = pipeline.grade(job)
print(json.dumps({k: result[k] for k in ("status", "reason", "events", "grades")}))
"""


def test_a_kernel_that_will_not_start_again_ends_the_notebook_not_the_grading(tmp_path, bubblewrap):
    """A notebook whose kernel died and whose fresh kernel would not start (a fork bomb's
    processes may hold every slot of its worker) is graded on what ran."""
    grading = tmp_path / "grading"
    submit(grading / "submitted", "os_exit", notebook_for("os_exit"))
    output = subprocess.run(
        [sys.executable, "-c", NO_FRESH_KERNEL, str(REPO), str(grading), A],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert output.returncode == 0, output.stderr[-3000:]
    result = json.loads(output.stdout.splitlines()[-1])
    assert result["status"] == "graded", result["reason"]
    said = [e["message"] for e in result["events"] if e["kind"] == "kernel"]
    assert (
        "a fresh kernel would not start (Kernel died before replying to kernel_info); the "
        "remaining cells were not run" in said
    ), said
    assert sum(g["score"] or 0 for g in result["grades"].values()) == 0
