"""`make student-release`: what students receive holds no solution, hidden test or grader."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tarfile

from conftest import REPO, SOLUTION_MARKERS, release_path, solution_sources

from autograder.releases import release, student_release

ADDRESS = "https://example.org/teacher/course-student"


def sources(path) -> str:
    return "\n".join("".join(c["source"]) for c in json.loads(path.read_text())["cells"])


def test_the_placeholder_address_is_refused(tmp_path):
    run = subprocess.run([sys.executable, "-m", "autograder.releases.student_release", "--out",
                          str(tmp_path / "out")], cwd=REPO, capture_output=True, text=True)
    assert run.returncode != 0 and "placeholder" in run.stderr
    assert not (tmp_path / "out").exists()


def test_the_release_holds_no_solution_hidden_test_or_grader(tmp_path):
    out = tmp_path / "student-release"
    archive = student_release.build(ADDRESS, out)
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert not [f for f in files if f.split("/")[0] in ("solutions", "autograder", "tests")]
    assert {"README.md", "Makefile", "pyproject.toml"} <= set(files)
    # Every notebook of the course, and no other.
    assert sorted(f for f in files if f.endswith(".ipynb")) == sorted(
        ["notebooks/00_welcome.ipynb"]
        + [f"notebooks/{a}/{a}.ipynb" for a in release.assignments()])
    solution_lines = {line.strip() for a in release.assignments()
                      for source in solution_sources(a).values()
                      for line in source.splitlines() if len(line.strip()) > 30
                      and line.strip() not in sources(release_path(a))}
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
    with tarfile.open(archive) as tar:
        assert len([m for m in tar.getmembers() if m.isfile()]) == len(files)


def test_the_check_catches_a_leak(tmp_path):
    out = tmp_path / "student-release"
    student_release.build(ADDRESS, out)
    (out / "notebooks" / "leak.py").write_text("### BEGIN HIDDEN TESTS\n")
    (out / "solutions").mkdir()
    (out / "solutions" / "x.ipynb").write_text("{}")
    problems = student_release.check(out)
    assert any("leak.py: contains BEGIN HIDDEN TESTS" in p for p in problems)
    assert any("solutions/x.ipynb: grading material" in p for p in problems)
