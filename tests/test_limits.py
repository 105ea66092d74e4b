"""The limits are written once (autograder/grading/limits.py): the command line, nbgrader's
configuration, the hardened Execute step's traits, a job's settings and the docs agree with
it."""

from __future__ import annotations

import re

from conftest import REPO
from traitlets.config import PyFileConfigLoader

from autograder.grading import grade, job, process
from autograder.grading.limits import (
    CELL_WALL_TIMES,
    GRADER_SECONDS,
    NOTEBOOK_WALL_TIMES,
    Limits,
)

DEFAULT = Limits()


def course_config():
    return PyFileConfigLoader("nbgrader_config.py", path=str(REPO / "autograder")).load_config()


def test_the_defaults_wall_clocks_are_multiples_of_the_cpu_limits():
    assert DEFAULT.cell_wall == CELL_WALL_TIMES * DEFAULT.cell_timeout
    assert DEFAULT.notebook_wall == NOTEBOOK_WALL_TIMES * DEFAULT.notebook_timeout
    given = Limits(cell_timeout=8, cell_wall=16)
    assert (given.cell_wall, given.notebook_wall) == (16, NOTEBOOK_WALL_TIMES * 300)


def test_the_command_line_defaults_are_the_limits():
    parser = grade.arguments()
    assert grade.limits_of(parser.parse_args([])) == DEFAULT
    assert grade.limits_of(
        parser.parse_args(["--cell-timeout", "8", "--memory-gib", "3"])
    ) == Limits(cell_timeout=8, memory_bytes=3 << 30)
    text = " ".join(parser.format_help().split())
    assert f"{CELL_WALL_TIMES} × --cell-timeout" in text
    assert f"{NOTEBOOK_WALL_TIMES} × --notebook-timeout" in text


def test_nbgrader_times_a_cell_by_the_limit():
    """nbgrader's own commands (``nbgrader autograde`` by hand) run its Execute with this."""
    assert course_config().Execute.timeout == DEFAULT.cell_timeout


def test_the_hardened_execute_step_defaults_to_the_limits():
    """SafeExecute's traits (autograder/grading/execute.py) hold the same numbers, and under
    the course's configuration a cell's CPU limit is the limit's too."""
    from autograder.grading.execute import SafeExecute

    traits = SafeExecute.class_traits()
    assert traits["notebook_timeout"].default() == DEFAULT.notebook_timeout
    assert traits["cell_wall"].default() == DEFAULT.cell_wall
    assert traits["notebook_wall"].default() == DEFAULT.notebook_wall
    assert traits["max_output_chars"].default() == DEFAULT.output_chars
    assert SafeExecute(config=course_config()).timeout == DEFAULT.cell_timeout


def test_a_jobs_execute_step_is_set_to_the_jobs_limits(tmp_path, monkeypatch):
    monkeypatch.setattr(process.WorkerProcess, "run_dir", tmp_path, raising=False)
    limits = Limits(cell_timeout=8, notebook_timeout=60, output_chars=1000, cell_wall=16)
    config = job._config(
        REPO,
        tmp_path,
        limits,
        tmp_path / "events.jsonl",
        "course-sandbox",
        tmp_path,
        "secret",
        "01_vector_attention",
    ).SafeExecute
    assert (
        config.timeout,
        config.notebook_timeout,
        config.cell_wall,
        config.notebook_wall,
        config.max_output_chars,
        config.cpu_root,
    ) == (8, 60, 16, 240, 1000, 0)
    assert job.job_seconds(job.Job("s", "a", "", "", "", limits)) == 240 + 16 + GRADER_SECONDS


def test_the_docs_quote_the_limits_and_say_where_they_live():
    instructors = " ".join((REPO / "docs" / "instructors.md").read_text().split())
    security = " ".join((REPO / "docs" / "security.md").read_text().split())
    for text in (instructors, security):
        assert "autograder/grading/limits.py" in text
    assert f"`--cell-timeout` ({DEFAULT.cell_timeout:g} s of CPU)" in instructors
    assert f"`--notebook-timeout` ({DEFAULT.notebook_timeout:g} s of CPU)" in instructors
    assert f"{CELL_WALL_TIMES}× and {NOTEBOOK_WALL_TIMES}× those" in instructors
    assert f"`--memory-gib` ({DEFAULT.memory_bytes / (1 << 30):g};" in instructors
    assert f"plus {GRADER_SECONDS} s for the grader's own work" in security
    assert re.search(
        rf"a cell may use {DEFAULT.cell_timeout:g} s of CPU .* and a notebook "
        rf"{DEFAULT.notebook_timeout:g} s,",
        security,
    )
    assert f"Output beyond {DEFAULT.output_chars:,} characters per cell" in security
