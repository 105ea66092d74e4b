"""A class of hostile notebooks (tests/hostile.py) graded with real nbgrader, bubblewrap and
the trusted checker, with honest students graded between them.

No hostile student may earn a point (its real answers are worth nothing), no honest student
may lose one or find a trace of another, the run must finish, and nothing outside the grading
folder may change.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import hostile
import pytest
from conftest import REPO, load, release_path, solution_sources, student_submission

from autograder.grading import grade as pipeline
from autograder.grading.executors import DaskCluster, LocalPool
from autograder.grading.worker import Limits
from autograder.kernels import sandbox

A = "01_vector_attention"
FULL = 10
# CPU seconds per cell and notebook; the clock's backstops kept short, so that hostile
# notebooks that sleep or block do not hold the run up.
LIMITS = Limits(cell_timeout=8, notebook_timeout=60, memory_bytes=3 << 30, cell_wall=16,
                notebook_wall=120)
HOSTILE = sorted(hostile.ATTACKS) + sorted(hostile.FORGERIES)
# Honest students sort between the hostile ones: "<n>a_attack", then "<n>b_honest".
ORDER = {name: f"{n:02d}a_{name}" for n, name in enumerate(HOSTILE)}
HONEST = [f"{n:02d}b_honest" for n in range(len(HOSTILE))]
LEFT_BEHIND = [Path("/tmp/pwned"), Path("/tmp/dask_pwned"), REPO / "written_by_a_student.txt"]
# A course that lives under /tmp stays in sight there, read-only (its packages and venv).
KEPT_IN_TMP = {REPO.parts[2]} if REPO.parts[1] == "tmp" else set()
# What a hostile notebook would print had it got through a wall.
BREACHES = re.compile(r"\b(READ /|SECRET|HIDDEN|CONNECTED|REACHED|KILLED|WROTE) ")


def notebook(name: str) -> dict:
    release = load(release_path(A))
    if name in hostile.FORGERIES:
        return hostile.FORGERIES[name](release)
    return student_submission(release, {"ex1_project": hostile.attack(name, str(REPO))})


def honest() -> dict:
    answers = solution_sources(A)
    answers["ex1_project"] += "\n" + hostile.PROBE
    return student_submission(load(release_path(A)), answers)


def write(submitted: Path, student: str, content: dict) -> None:
    path = submitted / student / A / f"{A}.ipynb"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(content))


def outputs(path: Path) -> str:
    """Everything a notebook's cells printed or displayed."""
    if not path.exists():
        return ""
    return "".join("".join(o.get("text", "")) + str(o.get("evalue", ""))
                   + (json.dumps(o["data"], ensure_ascii=False) if o.get("data") else "")
                   for c in load(path)["cells"] for o in c.get("outputs", []))


def git_status() -> str:
    return subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=REPO,
                          capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    if not sandbox.available():
        pytest.skip("bubblewrap (bwrap) is not installed: `make test` installs it with apt")
    grading = tmp_path_factory.mktemp("hostile") / "grading"
    for name in HOSTILE:
        write(grading / "submitted", ORDER[name], notebook(name))
    for student in HONEST:
        write(grading / "submitted", student, honest())
    before = git_status()
    course = pipeline.Course(REPO, grading)
    summary = pipeline.grade_class(course, LocalPool(2), [A], LIMITS, progress=False)
    results = {p.parent.parent.name: json.loads(p.read_text())
               for p in grading.glob(f"autograded/*/{A}/{pipeline.RESULT}")}
    return {"course": course, "summary": summary, "results": results, "before": before,
            "after": git_status()}


def test_the_battery_is_large_and_the_run_finishes(graded):
    assert len(HOSTILE) >= 40
    assert set(graded["results"]) == set(ORDER.values()) | set(HONEST)


@pytest.mark.parametrize("name", HOSTILE)
def test_no_hostile_notebook_earns_a_point(graded, name):
    result = graded["results"][ORDER[name]]
    assert result["score"] == 0, result


@pytest.mark.parametrize("name", HOSTILE)
def test_no_wall_was_breached(graded, name):
    printed = outputs(graded["course"].autograded / ORDER[name] / A / f"{A}.ipynb")
    found = BREACHES.findall(printed)
    assert not found, found


@pytest.mark.parametrize("student", HONEST)
def test_honest_students_graded_between_them_keep_every_point(graded, student):
    result = graded["results"][student]
    assert result["score"] == FULL, (result["events"], result)
    printed = outputs(graded["course"].autograded / student / A / f"{A}.ipynb")
    tmp, cwd, planted = re.search(r"PROBE tmp: (.*) cwd: (.*) planted: (\w+)", printed).groups()
    # A fresh /tmp holds only this kernel's own connection file, sockets and working folder,
    # which holds only what IPython keeps there.
    assert set(eval(tmp)) <= {".kernel", "kernel-1.json", "work", *KEPT_IN_TMP}, tmp
    assert set(eval(cwd)) <= {".ipython", ".matplotlib", ".cache"} and planted == "False", cwd


def test_nothing_outside_the_grading_folder_changed(graded):
    assert graded["after"] == graded["before"]
    assert not [path for path in LEFT_BEHIND if path.exists()]


@pytest.mark.parametrize("name, kind, text", [
    ("rich_output", "output", "was cut"),
    ("display_updates", "output", "was cut"),
    ("fork_bomb", None, ""),
    ("patch_torch", "suspicious", "replaces torch.allclose"),
    ("input_transformer", "suspicious", "rewrites later cells"),
    ("forge_extra_cell", None, ""),
])
def test_the_report_names_what_happened(graded, name, kind, text):
    result = graded["results"][ORDER[name]]
    assert f"**{ORDER[name]}**" in graded["summary"] or kind is None
    if kind:
        assert any(text in e["message"] for e in result["events"] if e["kind"] == kind), \
            result["events"]


def test_a_hostile_student_cannot_reach_the_dask_worker(tmp_path):
    """On a Dask cluster the scheduler listens on loopback: a kernel has no network at all."""
    if not sandbox.available():
        pytest.skip("bubblewrap (bwrap) is not installed")
    from distributed import LocalCluster

    grading = tmp_path / "grading"
    marker = tmp_path / "ran_in_the_dask_worker"
    with LocalCluster(n_workers=1, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        code = hostile.ATTACKS["dask"].replace("tcp://127.0.0.1:8786", cluster.scheduler_address)
        code = code.replace("/tmp/dask_pwned", str(marker))
        write(grading / "submitted", "attacker",
              student_submission(load(release_path(A)), {"ex1_project": code}))
        write(grading / "submitted", "honest", honest())
        executor = DaskCluster(cluster.scheduler_address)
        pipeline.grade_class(pipeline.Course(REPO, grading), executor, [A], LIMITS,
                             progress=False)
        executor.client.close()
    scores = {p.parent.parent.name: json.loads(p.read_text())["score"]
              for p in grading.glob(f"autograded/*/{A}/{pipeline.RESULT}")}
    assert scores == {"attacker": 0, "honest": FULL}
    assert not marker.exists()
    printed = outputs(grading / "autograded" / "attacker" / A / f"{A}.ipynb")
    assert "blocked" in printed and "REACHED DASK" not in printed
