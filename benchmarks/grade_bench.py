"""`make bench-grade`: grading a synthetic class, plain sequential nbgrader against the pipeline.

The class: ``--students`` students × every assignment, a fixed mix per notebook of correct
answers (the solution, or the other-style answers), one known mistake, untouched releases,
deleted test cells and malformed files (tests/submissions.py has the answers).

Both runs grade the same files and write feedback:
- plain: ``nbgrader autograde A`` then ``nbgrader generate_feedback A``, one assignment after
  another, as an instructor would without the pipeline;
- pipeline: ``python -m autograder.grading`` with one worker per core.
The class is graded in two halves of its students, in the order pipeline, plain, plain,
pipeline: a machine that slows down or speeds up during the run (a shared one drifts by a
quarter within an hour) then weighs on both alike, where one run after the other would
credit the drift to whichever ran second. Each total is the sum of its two halves.
The floor of a notebook is what grading it cannot avoid: a kernel start plus the notebook's
own run under NBGRADER_EXECUTION (nbclient, no sandbox, median of 3). The per-notebook cost
of the pipeline is its wall time × workers / notebooks.

Prints a table and writes it to benchmarks/grading.md and to docs/performance.md (between its
bench-grade markers, ``docs_tables.splice``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
COURSE = HERE.parent
sys.path[:0] = [str(HERE), str(COURSE / "tests")]

import course_execution  # noqa: E402
from conftest import (  # noqa: E402
    load,
    nbgrader,
    plain_course,
    release_path,
    solution_sources,
    student_submission,
)
from docs_tables import splice  # noqa: E402
from submissions import OTHER_STYLE, WRONG  # noqa: E402

from autograder.grading import grade as pipeline  # noqa: E402
from autograder.grading import records  # noqa: E402
from autograder.grading.executors import LocalPool  # noqa: E402

# Out of 20 submissions: correct, one known mistake, untouched, a test cell deleted, malformed.
MIX = ["correct"] * 11 + ["mistake"] * 5 + ["blank"] * 2 + ["deleted"] + ["malformed"]


def submission(assignment: str, kind: str, rng: random.Random) -> str:
    released = load(release_path(assignment))
    correct = solution_sources(assignment)
    if kind == "correct":
        answers = correct | (OTHER_STYLE.get(assignment, {}) if rng.random() < 0.5 else {})
    elif kind == "mistake":
        answers = correct | rng.choice(list(WRONG[assignment].values()))[0]
    elif kind == "blank":
        answers = {}
    elif kind == "deleted":
        notebook = student_submission(released, correct)
        tests = [
            c
            for c in notebook["cells"]
            if c["metadata"].get("nbgrader", {}).get("grade_id", "").endswith("_tests")
        ]
        notebook["cells"].remove(rng.choice(tests))
        return json.dumps(notebook)
    else:
        return json.dumps(student_submission(released, correct))[:2000]
    return json.dumps(student_submission(released, answers))


def build_class(submitted: Path, students: int, assignments: list[str]) -> dict:
    """Write the class; (student, assignment) -> the kind of submission."""
    rng, kinds = random.Random(0), {}
    for i in range(students):
        for assignment in assignments:
            student, kind = f"student{i:03d}", MIX[(i * 7 + len(assignment)) % len(MIX)]
            path = submitted / student / assignment / f"{assignment}.ipynb"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(submission(assignment, kind, rng))
            kinds[(student, assignment)] = kind
    return kinds


def plain_nbgrader(course: Path, submitted: Path, assignments: list[str]) -> float:
    """Seconds for plain autograde + feedback, one assignment after another."""
    plain_course(course, assignments)
    shutil.copytree(submitted, course / "grading" / "submitted")
    started = time.perf_counter()
    for assignment in assignments:
        # A malformed file makes nbgrader exit non-zero after grading everyone else.
        nbgrader(course, "autograde", assignment, "--force")
        nbgrader(course, "generate_feedback", assignment, "--force")
    return time.perf_counter() - started


def pipeline_run(grading: Path, submitted: Path, assignments: list[str], workers: int) -> float:
    """Seconds for ``make grade``'s pipeline on the class in ``submitted``."""
    shutil.copytree(submitted, grading / "submitted")
    course = pipeline.Course(COURSE, grading)
    pipeline.prepare_gradebooks(course)  # the one-off release into the gradebook
    started = time.perf_counter()
    pipeline.grade_class(course, LocalPool(workers), assignments, progress=False)
    return time.perf_counter() - started


def halves(submitted: Path, into: Path) -> list[Path]:
    """The class's students in two folders of submissions, the first half and the rest."""
    students = sorted(p.name for p in submitted.iterdir())
    middle = (len(students) + 1) // 2
    folders = []
    for name, part in (("first", students[:middle]), ("second", students[middle:])):
        for student in part:
            shutil.copytree(submitted / student, into / name / student)
        if part:
            folders.append(into / name)
    return folders


def plain_scores(course: Path) -> dict[tuple[str, str], dict[str, float]]:
    from nbgrader.api import Gradebook

    scores = {}
    with Gradebook(f"sqlite:///{course / 'grading' / 'gradebook.db'}") as gradebook:
        for assignment in gradebook.assignments:
            for sub in assignment.submissions:
                for notebook in sub.notebooks:
                    scores[(sub.student.id, assignment.name)] = {
                        g.name: g.score for g in notebook.grades
                    }
    return scores


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--assignment", action="append")
    args = parser.parse_args()
    assignments = args.assignment or pipeline.Course().assignments()
    os.environ["OMP_NUM_THREADS"] = "1"

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        kinds = build_class(tmp / "submitted", args.students, assignments)
        n = args.students * len(assignments)
        print(f"Synthetic class: {args.students} students × {len(assignments)} notebooks = {n}.")

        floors = {
            a: course_execution.median_seconds(
                COURSE / "solutions" / a / f"{a}.ipynb", 3, grading=True
            )
            for a in assignments
        }
        kernel_floor = course_execution.median_seconds(None, 3, grading=True)
        print("Floor per notebook (s):", {a: round(f, 2) for a, f in floors.items()})

        # Pipeline, plain, plain, pipeline: each half of the class by both, drift shared.
        ours = plain = 0.0
        for half, folder in enumerate(halves(tmp / "submitted", tmp / "halves")):
            for run in ("pipeline", "plain") if half == 0 else ("plain", "pipeline"):
                if run == "pipeline":
                    grading = tmp / f"pipeline{half}" / "grading"
                    seconds = pipeline_run(grading, folder, assignments, args.workers)
                    ours += seconds
                else:
                    seconds = plain_nbgrader(tmp / f"plain{half}", folder, assignments)
                    plain += seconds
                print(f"{run}, half {half + 1}: {seconds:.1f} s")
        reference = {k: v for p in tmp.glob("plain*") for k, v in plain_scores(p).items()}
        results = {
            (p.parent.parent.name, p.parent.name): json.loads(p.read_text())
            for p in tmp.glob(f"pipeline*/grading/autograded/*/*/{records.RESULT}")
        }

        def identical(key) -> bool:
            return {e: s[0] for e, s in results[key]["exercises"].items()} == reference[key]

        # Honest submissions must score alike; a wrong answer's hidden checks now draw new
        # inputs for every student, so it may pass a different share of them.
        compared = [key for key in results if key in reference and kinds[key] != "malformed"]
        honest = [key for key in compared if kinds[key] != "mistake"]
        same = sum(identical(key) for key in honest)
        mistakes = [key for key in compared if kinds[key] == "mistake"]
        same_mistakes = sum(identical(key) for key in mistakes)
        rejected = sum(r["status"] == "rejected" for r in results.values())

    floor_mean = statistics.mean(floors[a] for a in assignments)
    cost = ours * args.workers / n
    table = "\n".join(
        [
            f"Measured by `make bench-grade` on {course_execution_machine()}: {args.students} "
            f"students × {len(assignments)} notebooks = {n} submissions, autograde + feedback; "
            "each half of the class graded by both, in the order pipeline, plain, plain, "
            "pipeline.",
            "",
            "| | seconds | per notebook (s) | |",
            "| --- | ---: | ---: | --- |",
            f"| plain `nbgrader autograde` + `generate_feedback`, sequential | {plain:.0f} | "
            f"{plain / n:.2f} | |",
            f"| pipeline (`make grade`), {args.workers} workers, sandboxed | {ours:.0f} | "
            f"{cost:.2f} per worker | **{plain / ours:.2f}× faster** |",
            f"| floor: kernel start + the notebook's own run (mean) | | {floor_mean:.2f} | "
            f"cost/floor {cost / floor_mean:.2f} |",
            f"| kernel start + `import torch` + the package alone | | {kernel_floor:.2f} | |",
            "",
            f"Identical per-exercise scores for {same} of {len(honest)} honest submissions "
            f"(correct, untouched, a test cell deleted) graded by both, and for {same_mistakes} of "
            f"{len(mistakes)} with a known mistake (their hidden checks draw new inputs for every "
            f"student); the pipeline also reported the {rejected} malformed files (0, with the "
            "reason), which plain nbgrader stops on with an error.",
        ]
    )
    print(table)
    (HERE / "grading.md").write_text(table + "\n")
    splice("bench-grade", table)


def course_execution_machine() -> str:
    import run

    return run.machine()


if __name__ == "__main__":
    main()
