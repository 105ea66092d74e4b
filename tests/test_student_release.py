"""`make student-release`: what students receive holds no solution, hidden test or grader,
and is generated afresh, never copied from a notebooks/ someone answered in.
(tests/test_student_release_e2e.py installs and uses it as a student does.)"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
import tarfile

import pytest
from conftest import (
    REPO,
    SOLUTION_MARKERS,
    load,
    nbgrader_meta,
    release_path,
    solution_sources,
    student_submission,
)

from autograder.releases import release, student_release
from course_checks import student_copy

ADDRESS = "https://example.org/teacher/course-student"
A = "01_vector_attention"
NOTEBOOK = f"notebooks/{A}/{A}.ipynb"


def sources(path) -> str:
    return "\n".join("".join(c["source"]) for c in json.loads(path.read_text())["cells"])


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("release") / "student-release"
    return out, student_release.build(ADDRESS, out)


@pytest.mark.slow
def test_the_placeholder_address_is_refused(tmp_path):
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "autograder.releases.student_release",
            "--out",
            str(tmp_path / "out"),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0 and "placeholder" in run.stderr
    assert not (tmp_path / "out").exists()


def test_the_release_holds_no_solution_hidden_test_or_grader(built):
    out, archive = built
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert not [f for f in files if f.split("/")[0] in ("solutions", "autograder", "tests")]
    assert {"README.md", "Makefile", "pyproject.toml", "MANIFEST.json"} <= set(files)
    # Every notebook of the course, and no other.
    assert sorted(f for f in files if f.endswith(".ipynb")) == sorted(
        ["notebooks/00_welcome.ipynb"] + [f"notebooks/{a}/{a}.ipynb" for a in release.assignments()]
    )
    # Lines of the answers that no released notebook gives away already (08 asks for 03's
    # module again, whose text 03 quotes as a hint).
    released = "\n".join(sources(release_path(a)) for a in release.assignments())
    solution_lines = {
        line.strip()
        for a in release.assignments()
        for source in solution_sources(a).values()
        for line in source.splitlines()
        if len(line.strip()) > 30 and line.strip() not in released
    }
    assert len(solution_lines) > 50
    for name in files:
        text = (out / name).read_text()
        if name.endswith(".ipynb"):
            notebook = json.loads(text)
            text = "\n".join("".join(c["source"]) for c in notebook["cells"])
            assert ADDRESS in text  # the Colab set-up installs from the student release
        if name.endswith(".py"):
            ast.parse(text)
        for marker in SOLUTION_MARKERS + ("BEGIN HIDDEN TESTS",):
            assert marker not in text, name
        assert "YOUR-ACCOUNT" not in text, name
        if name.endswith(".ipynb"):
            assert not [line for line in solution_lines if line in text], name
    assert student_release.check(out) == []
    for name in ("README.md", "Makefile"):
        assert not re.search(r"\{[a-z]+\}", (out / name).read_text()), name  # all filled in
    with tarfile.open(archive) as tar:
        assert len([m for m in tar.getmembers() if m.isfile()]) == len(files)
    # The manifest `make update` reads: every file but itself, and every notebook's cells.
    manifest = json.loads((out / "MANIFEST.json").read_text())
    assert sorted(manifest["files"]) == sorted(set(files) - {"MANIFEST.json"})
    assert manifest["cells"][NOTEBOOK] == [c["id"] for c in load(out / NOTEBOOK)["cells"]]


def test_the_address_is_in_the_set_up_cell_and_validate_still_accepts_it(built):
    """The set-up cell is locked: its new address comes with nbgrader's checksum recomputed,
    or Validate (and grading) would take it for the student's edit."""
    import nbformat

    from course_checks.validate import edited_cells

    out, _ = built
    notebook = nbformat.read(out / NOTEBOOK, as_version=4)
    setup = next(c for c in notebook.cells if nbgrader_meta(c).get("grade_id") == "course_setup")
    assert f'COURSE_REPO = "{ADDRESS}"' in setup.source
    assert edited_cells(notebook) == {}


def test_the_packages_data_files_ship_and_pip_installs_them(built):
    """Notebooks 08 and 09 read data files of the package (lm_curve.csv, modern_results.json):
    the release holds them, and its pyproject's package-data (the course's too) names them, so
    that a pip install (Colab's from the release's address) has them."""
    import tomllib

    out, _ = built
    package = REPO / "transformer_course"
    data = {p.name for p in package.iterdir() if p.is_file() and p.suffix not in (".py", ".pyc")}
    assert {"lm_curve.csv", "modern_results.json"} <= data
    for pyproject in (REPO / "pyproject.toml", out / "pyproject.toml"):
        setuptools = tomllib.loads(pyproject.read_text())["tool"]["setuptools"]
        assert data <= set(setuptools["package-data"]["transformer_course"]), pyproject
    for name in data:
        assert (out / "transformer_course" / name).read_bytes() == (package / name).read_bytes()


@pytest.mark.slow
def test_notebooks_someone_answered_in_are_named_and_never_shipped(tmp_path, capsys):
    committed = tmp_path / "notebooks"
    shutil.copytree(REPO / "notebooks", committed)
    answered = student_submission(load(committed / A / f"{A}.ipynb"), solution_sources(A))
    (committed / A / f"{A}.ipynb").write_text(json.dumps(answered))
    fresh = student_release.fresh_notebooks(tmp_path / "fresh", committed)
    said = capsys.readouterr().out
    assert f"differs: {A}/{A}.ipynb" in said and "none of this goes out" in said
    assert said.count("differs:") == 1
    assert (fresh / A / f"{A}.ipynb").read_bytes() == release_path(A).read_bytes()


def test_the_check_catches_a_leak(built, tmp_path):
    out = tmp_path / "student-release"
    shutil.copytree(built[0], out)
    (out / "notebooks" / "leak.py").write_text("### BEGIN HIDDEN TESTS\n")
    (out / "solutions").mkdir()
    (out / "solutions" / "x.ipynb").write_text("{}")
    notebook = load(out / NOTEBOOK)
    answered = student_submission(notebook, {"ex1_project": solution_sources(A)["ex1_project"]})
    answered["cells"][-1]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "x"}]
    (out / NOTEBOOK).write_text(json.dumps(answered))
    problems = student_release.check(out)
    assert any("leak.py: contains BEGIN HIDDEN TESTS" in p for p in problems)
    assert any("solutions/x.ipynb: grading material" in p for p in problems)
    assert any("cell ex1_project is not as nbgrader released it" in p for p in problems)
    assert any("cell self_check has outputs" in p for p in problems)


def test_an_update_carries_the_answers_and_the_students_own_cells():
    released = load(release_path(A))
    answers = {"ex1_project": solution_sources(A)["ex1_project"]}
    yours = student_submission(released, answers)
    yours["cells"][-1]["source"] = ["selfcheck.report()"]  # a locked cell: not carried
    after = next(
        i for i, c in enumerate(yours["cells"]) if nbgrader_meta(c).get("grade_id") == "ex1_tests"
    )
    yours["cells"].insert(
        after + 1,
        {
            "cell_type": "code",
            "id": "mine",
            "metadata": {},
            "source": ["x = 1"],
            "outputs": [{"x": 1}],
            "execution_count": 3,
        },
    )
    new = json.loads(json.dumps(released))
    new["cells"][0]["source"] = ["# A new title"]
    del new["cells"][1]  # a cell the new version no longer has: not taken for the student's
    ids = {c["id"] for c in released["cells"]}
    merged, carried, added = student_copy.carry_over(yours, new, ids)
    assert carried == ["ex1_project"] and added == 1
    by_id = {c["id"]: c for c in merged["cells"]}
    assert (
        "".join(
            by_id[
                next(
                    c["id"]
                    for c in yours["cells"]
                    if nbgrader_meta(c).get("grade_id") == "ex1_project"
                )
            ]["source"]
        )
        == answers["ex1_project"]
    )
    order = [c["id"] for c in merged["cells"]]
    check = next(
        c["id"] for c in merged["cells"] if nbgrader_meta(c).get("grade_id") == "ex1_tests"
    )
    assert order[order.index(check) + 1] == "mine"
    assert by_id["mine"]["outputs"] == [] and by_id["mine"]["execution_count"] is None
    assert merged["cells"][-1] == new["cells"][-1]
    assert len(merged["cells"]) == len(new["cells"]) + 1
    stub = next(c for c in released["cells"] if nbgrader_meta(c).get("solution"))
    assert not student_copy.answered(stub)
