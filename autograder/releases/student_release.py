"""Build what students receive: ``make student-release``.

    python -m autograder.releases.student_release --repo https://github.com/you/course-student \
        [--out DIR]

This repository is the instructor's: it holds the solutions, the hidden tests and the grading
machinery, and should stay private. Students get a separate folder (``dist/student-release``
by default, also packed as ``.tar.gz``) to publish as its own repository: the release
notebooks, the helper package, a README and a Makefile (``student_files/``), and
``MANIFEST.json``, the version and every file's checksum, which the students' ``make update``
reads (``course_checks/student_copy.py``).

The notebooks are generated afresh from ``solutions/``, as ``make release`` does, never
copied from ``notebooks/``: an exercise answered there while trying the course never ships.
Where ``notebooks/`` differs from the fresh generation the build says so, naming the files.
No ``solutions/``, ``autograder/``, ``tests/``, hidden test, solution line, answered cell or
output is in the release; ``check`` proves that by parsing every file. ``--repo`` is the
address it will be published at: the notebooks' Colab set-up installs the package from there,
so the placeholder address is refused.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import nbformat
from nbgrader.utils import compute_checksum

from autograder.cells import source
from autograder.releases import release, sync_notebooks
from autograder.releases.sync_notebooks import (
    COLAB_BADGE,
    PLACEHOLDER,
    REPO_LINE,
    colab_url,
    course_repo,
)
from course_checks.student_copy import MANIFEST

COURSE = Path(__file__).resolve().parents[2]
STUDENT_FILES = Path(__file__).resolve().parent / "student_files"  # README.md, Makefile
MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
# The library and what its in-kernel checks use; nothing of the grader's. The notebooks are
# generated, not copied.
COPIED = ["transformer_course", "course_checks", "constraints.txt"]


def pyproject() -> str:
    """The course's pyproject, for the package and the student's JupyterLab (no dev extra)."""
    text = (COURSE / "pyproject.toml").read_text()
    text = re.sub(
        r"# What only the instructor's side uses.*?(?=\n\[tool.setuptools)", "", text, flags=re.S
    )
    return text.replace(
        'include = ["transformer_course*", "course_checks*", "autograder*"]',
        'include = ["transformer_course*", "course_checks*"]',
    )


def fresh_notebooks(into: Path, committed: Path = COURSE / "notebooks") -> Path:
    """``notebooks/`` as ``make release`` generates it from ``solutions/``, in ``into``;
    names every file of ``committed`` (the course's ``notebooks/``) that differs from it."""
    if sync_notebooks.main(check=True):
        sys.exit(
            "The student release is generated from solutions/ as `make release` does: "
            "run `make release` first."
        )
    fresh = into / "notebooks"
    into.mkdir(parents=True, exist_ok=True)
    release.generate(fresh, into / "gradebook.db")
    differences = release.differences(fresh, committed)
    if differences:
        print(
            "Note: notebooks/ is not what `make release` generates (an exercise answered "
            "while trying the course?). The student release is built from a fresh "
            "generation, so none of this goes out:"
        )
        print("\n".join(f"  {line}" for line in differences))
        print("(`make release`, or `git checkout notebooks/`, brings notebooks/ back.)")
    return fresh


def point_at(notebook: dict, placeholder: str, repo: str) -> dict:
    """The notebook with ``COURSE_REPO`` and its Colab links at ``repo``. nbgrader's checksum
    of a locked cell so changed is computed anew: Validate and grading would otherwise take
    the change for the student's."""
    for cell in notebook["cells"]:
        text = source(cell)
        changed = text.replace(colab_url(placeholder), colab_url(repo)).replace(placeholder, repo)
        if changed != text:
            cell["source"] = changed.splitlines(keepends=True)
            if "checksum" in cell["metadata"].get("nbgrader", {}):
                cell["metadata"]["nbgrader"]["checksum"] = checksum(cell)
    return notebook


def checksum(cell: dict) -> str:
    """nbgrader's checksum of a cell as stored in a notebook file."""
    return compute_checksum(nbformat.from_dict({**cell, "source": source(cell)}))


def version() -> str:
    """The release's date, and the course's commit when it is a git repository."""
    today = datetime.date.today().isoformat()
    commit = subprocess.run(
        ["git", "-C", str(COURSE), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    if not commit:
        return today
    edited = subprocess.run(
        [
            "git",
            "-C",
            str(COURSE),
            "status",
            "--porcelain",
            "solutions",
            "transformer_course",
            "course_checks",
        ],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return f"{today} ({commit}{', with uncommitted changes' if edited else ''})"


def write_manifest(out: Path, label: str) -> None:
    """``MANIFEST.json``: the version, every file's SHA-256, every notebook's cell ids."""
    files = sorted(p for p in out.rglob("*") if p.is_file() and p.name != MANIFEST)
    manifest = {
        "version": label,
        "files": {
            p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest() for p in files
        },
        "cells": {
            p.relative_to(out).as_posix(): [c.get("id") for c in json.loads(p.read_text())["cells"]]
            for p in files
            if p.suffix == ".ipynb"
        },
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")


def build(repo: str, out: Path) -> Path:
    if PLACEHOLDER in repo or not repo.strip():
        sys.exit(
            f"Refusing to build the student release for the placeholder address {repo!r}:"
            " pass --repo with the address students will install from (make "
            "student-release STUDENT_REPO=https://...)."
        )
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(fresh_notebooks(Path(tmp)), out / "notebooks")
    for name in COPIED:
        source = COURSE / name
        if source.is_dir():
            shutil.copytree(
                source,
                out / name,
                ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"),
            )
        else:
            shutil.copy(source, out / name)
    for path in (out / "notebooks").rglob("*.ipynb"):
        notebook = point_at(json.loads(path.read_text()), course_repo(), repo)
        path.write_text(sync_notebooks.dumps(notebook))
    # JupyterLab without nbgrader's instructor tools, as in the course's `make lab`.
    shutil.copytree(COURSE / "autograder" / "student_lab", out / "jupyter")
    label = version()
    fill = {
        "{repo}": repo,
        "{badge}": COLAB_BADGE,
        "{version}": label,
        "{welcome}": colab_url(repo, "notebooks/00_welcome.ipynb"),
    }
    for name in ("README.md", "Makefile"):
        text = (STUDENT_FILES / name).read_text()
        for key, value in fill.items():
            text = text.replace(key, value)
        (out / name).write_text(text)
    (out / "pyproject.toml").write_text(pyproject())
    (out / ".gitignore").write_text(
        ".venv/\n__pycache__/\n*.egg-info/\n.ipynb_checkpoints/\nbackups/\nprogress.png\n"
    )
    write_manifest(out, label)
    problems = check(out)
    if problems:
        sys.exit("The student release is not clean:\n" + "\n".join(problems))
    archive = out.with_suffix(".tar.gz")
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(out, arcname=out.name)
    return archive


def check(folder: Path) -> list[str]:
    """What a student must not see, file by file: empty when the release is clean."""
    problems = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = path.relative_to(folder)
        if name.parts[0] in ("solutions", "autograder", "tests", "benchmarks", "grading"):
            problems.append(f"{name}: grading material")
            continue
        text = path.read_text(errors="replace")
        if path.suffix == ".ipynb":
            cells = json.loads(text)["cells"]
            problems += [f"{name}: {what}" for cell in cells for what in as_released(cell)]
            text = "\n".join("".join(c.get("source", "")) for c in cells)
        elif path.suffix == ".py":
            ast.parse(text)  # a file that does not parse cannot be vouched for
        problems += [f"{name}: contains {marker}" for marker in MARKERS if marker in text]
        if REPO_LINE.search(text) and PLACEHOLDER in text:
            problems.append(f"{name}: the placeholder COURSE_REPO")
    return problems


def as_released(cell: dict) -> list[str]:
    """What is wrong with a cell that should be as nbgrader released it: outputs of a run,
    or an answer or locked cell edited since (its checksum no longer matches)."""
    meta = cell["metadata"].get("nbgrader", {})
    where = meta.get("grade_id") or cell.get("id")
    problems = []
    if cell["cell_type"] == "code" and (cell.get("outputs") or cell.get("execution_count")):
        problems.append(f"cell {where} has outputs")
    if meta.get("solution") and "checksum" not in meta:
        problems.append(f"answer cell {where} has no checksum from nbgrader")
    elif "checksum" in meta and meta["checksum"] != checksum(cell):
        problems.append(f"cell {where} is not as nbgrader released it (answered? edited?)")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repo", default=course_repo(), help="the address the student release is published at"
    )
    parser.add_argument("--out", type=Path, default=COURSE / "dist" / "student-release")
    args = parser.parse_args(argv)
    archive = build(args.repo, args.out)
    print(
        f"Student release in {args.out} (and {archive}): publish this folder, keep this "
        "repository private."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
