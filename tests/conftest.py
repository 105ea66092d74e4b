"""Shared paths and helpers for the course's tests."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# nbgrader calls `alembic` by name to create a gradebook: the venv's tools must be on PATH
# even when pytest is started without `make`.
os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"

from autograder.releases import release, sync_notebooks  # noqa: E402

ASSIGNMENTS = release.assignments()
# Every source notebook (the assignments and the welcome notebook), then their releases.
SOURCE_NOTEBOOKS = [path for path, _ in sync_notebooks.source_notebooks()]
_RELEASED = (REPO / "notebooks" / p.relative_to(REPO / "solutions") for p in SOURCE_NOTEBOOKS)
ALL_NOTEBOOKS = SOURCE_NOTEBOOKS + [p for p in _RELEASED if p.is_file()]
SOLUTION_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")


# The files that grade whole classes or run whole notebooks, slowest first: `make test` hands
# out whole files in collection order (--dist loadfile --no-loadscope-reorder), so these start
# at once and the two workers end together, not one running a long file alone at the end.
SLOW_FIRST = (
    "test_grading_power.py",
    "test_blind_power.py",
    "test_hostile.py",
    "test_autograder.py",
    "test_notebooks.py",
    "test_grading.py",
    "test_shortcuts.py",
    "test_chaos.py",
    "test_hub.py",
)


# Fixtures that grade a class, start nbgrader or Jupyter kernels, a browser, a JupyterHub or a
# training run before their tests (`bubblewrap`'s users grade in the sandbox): every test that
# uses one, directly or through another fixture, is marked `slow` by the rule below. Tests
# that are slow on their own carry `@pytest.mark.slow` (or their module's `pytestmark`).
SLOW_FIXTURES = {
    "bubblewrap",  # below: the sandbox, so a class graded in it
    "graded",  # test_autograder: a class graded by plain nbgrader; elsewhere in the sandbox
    "reports",  # test_grading_power: every sample mistake's feedback, in a process pool
    "lab",  # test_browser: JupyterLab driven in Chromium
    "hub",  # test_hub: a JupyterHub and its users' servers
    "course",  # test_student_release_e2e: the student release installed as a student would
    "built",  # test_student_release: the student release built
    "trained",  # test_transformer: a model trained for a few seconds
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "bubblewrap" in item.fixturenames:
            item.add_marker(pytest.mark.sandbox)
        if SLOW_FIXTURES.intersection(item.fixturenames):
            item.add_marker(pytest.mark.slow)
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    # a stable sort: the other files, and the tests within each, keep their order
    items.sort(key=lambda item: rank.get(item.path.name, len(SLOW_FIRST)))


# Set by CI (.ci/run): a test that needs the sandbox fails where none starts, instead of
# being skipped, so that a machine without bubblewrap never passes the security tests.
REQUIRE_SANDBOX = "COURSE_REQUIRE_SANDBOX"


def require_sandbox(problem: str | None, required: bool) -> None:
    """Skip the test that asked for the sandbox when ``problem`` says why none starts here,
    or fail it when the sandbox is ``required``."""
    if problem is None:
        return
    if required:
        pytest.fail(
            f"{REQUIRE_SANDBOX}=1, and no sandbox starts here: {problem}. The tests "
            "that need the sandbox must run where one starts (`make sandbox` installs "
            f"bubblewrap, as root); without {REQUIRE_SANDBOX} they are skipped",
            pytrace=False,
        )
    pytest.skip(
        f"no sandbox here: {problem} (`make sandbox` installs bubblewrap; with "
        f"{REQUIRE_SANDBOX}=1, as in CI, this fails)"
    )


@pytest.fixture(scope="session")
def bubblewrap() -> None:
    """For a test, or a fixture, that grades in the sandbox (autograder/kernels/sandbox.py):
    skipped where none starts, failed there when COURSE_REQUIRE_SANDBOX=1. Its tests are
    marked `sandbox` and `slow`. Asked as grading asks (``sandbox.problem``: bubblewrap is on
    PATH and starts a sandbox for this user), afresh rather than from the grader's cache."""
    from autograder.kernels import sandbox

    require_sandbox(sandbox.problem.__wrapped__(), os.environ.get(REQUIRE_SANDBOX) == "1")


def grading_with(monkeypatch: pytest.MonkeyPatch, **fields) -> None:
    """The checks run, for the rest of a test, as when grading, with ``fields`` handed over
    (``course_checks/context.py``: variants, source, refusals, probe)."""
    import dataclasses

    from course_checks import context

    monkeypatch.setattr(context, "_current", dataclasses.replace(context.current(), **fields))


def solution_path(assignment: str) -> Path:
    return REPO / "solutions" / assignment / f"{assignment}.ipynb"


def release_path(assignment: str) -> Path:
    return REPO / "notebooks" / assignment / f"{assignment}.ipynb"


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def nbgrader_meta(cell: dict) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def solution_sources(assignment: str) -> dict[str, str]:
    """Each answer cell's reference code, without the solution markers: grade_id -> source."""
    answers = {}
    for cell in load(solution_path(assignment))["cells"]:
        meta = nbgrader_meta(cell)
        if meta.get("solution"):
            lines = "".join(cell["source"]).splitlines()
            answers[meta["grade_id"]] = "\n".join(
                line for line in lines if line.strip() not in SOLUTION_MARKERS
            )
    return answers


def student_submission(release_nb: dict, answers: dict[str, str]) -> dict:
    """A copy of a released notebook with some answer cells filled in, as a student would."""
    notebook = json.loads(json.dumps(release_nb))
    for cell in notebook["cells"]:
        grade_id = nbgrader_meta(cell).get("grade_id")
        if grade_id in answers:
            cell["source"] = answers[grade_id]
    return notebook


def tool_env(config_dir: Path = REPO / "autograder") -> dict[str, str]:
    """Environment for running nbgrader and jupyter from the venv with a course's config."""
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["JUPYTER_CONFIG_PATH"] = str(config_dir)
    env["JUPYTER_PREFER_ENV_PATH"] = "1"
    # Grading runs side by side; one math thread each keeps them from fighting over cores.
    env["OMP_NUM_THREADS"] = "1"
    return env


def nbgrader(course: Path, *args: str) -> subprocess.CompletedProcess:
    """Run plain `nbgrader` in ``course`` with that course's configuration."""
    return subprocess.run(
        ["nbgrader", *args],
        cwd=course,
        env=tool_env(course / "autograder"),
        capture_output=True,
        text=True,
        timeout=3600,
    )


def plain_course(course: Path, assignments: list[str]) -> Path:
    """A copy of the course in ``course`` with ``assignments`` released by plain nbgrader."""
    for assignment in assignments:
        shutil.copytree(REPO / "solutions" / assignment, course / "solutions" / assignment)
    shutil.copytree(
        REPO / "autograder", course / "autograder", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(REPO / "nbgrader_config.py", course)
    for assignment in assignments:
        result = nbgrader(course, "generate_assignment", assignment, "--force")
        assert result.returncode == 0, result.stderr
    return course


@pytest.fixture(params=ASSIGNMENTS)
def assignment(request) -> str:
    return request.param
