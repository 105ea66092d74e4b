"""Generate the student release (notebooks/) from the source notebooks (solutions/).

    python -m autograder.releases.release generate   # rewrite notebooks/ (what `make release` runs)
    python -m autograder.releases.release check      # regenerate elsewhere, fail on a difference

Both run nbgrader's own generate_assignment, through its Python API so that one process
handles every assignment. An assignment is a folder ``solutions/NN_topic/``. The welcome
notebook, ``solutions/00_welcome.ipynb``, is a file and no assignment: it is copied to
``notebooks/`` with its outputs cleared, and the check covers it too.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from nbgrader.apps import NbGraderAPI
from traitlets.config import Config, PyFileConfigLoader

AUTOGRADER = Path(__file__).resolve().parents[1]
COURSE = AUTOGRADER.parent
WELCOME = "00_welcome.ipynb"  # ungraded, so not an nbgrader assignment


def course_config() -> Config:
    """The course's nbgrader configuration, as nbgrader itself would load it."""
    return PyFileConfigLoader("nbgrader_config.py", path=str(AUTOGRADER)).load_config()


def assignments(course: Path = COURSE) -> list[str]:
    """Assignment names in course order: the ``NN_topic`` folders of ``solutions/``."""
    return sorted(p.name for p in (course / "solutions").glob("[0-9][0-9]_*") if p.is_dir())


def release_welcome(release_dir: Path, course: Path = COURSE) -> None:
    """Copy the welcome notebook into ``release_dir`` without outputs, if there is one."""
    source = course / "solutions" / WELCOME
    if not source.is_file():
        return
    notebook = json.loads(source.read_text())
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    release_dir.mkdir(parents=True, exist_ok=True)
    text = json.dumps(notebook, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    (release_dir / WELCOME).write_text(text)


def generate(release_dir: Path, db_path: Path, only: list[str] | None = None) -> None:
    """Release every assignment (or ``only`` these) into ``release_dir``, recording them in the
    gradebook ``db_path``; on failure exit with nbgrader's log."""
    config = course_config()
    config.CourseDirectory.release_directory = str(release_dir)
    config.CourseDirectory.db_url = f"sqlite:///{db_path}"
    api = NbGraderAPI(config=config)
    for assignment in assignments() if only is None else only:
        result = api.generate_assignment(assignment, force=True)
        if not result["success"]:
            sys.exit(
                f"nbgrader could not release {assignment}:\n{result.get('log', '')}"
                f"\n{result.get('error', '')}"
            )
    release_welcome(release_dir)


def differences(fresh: Path, committed: Path) -> list[str]:
    """Files that differ, or exist on one side only, between two release folders."""

    def files(root: Path) -> set[Path]:
        return {
            p.relative_to(root)
            for p in root.rglob("*")
            if p.is_file() and ".ipynb_checkpoints" not in p.parts
        }

    new, old = files(fresh), files(committed)
    return sorted(
        [f"missing from notebooks/: {p}" for p in new - old]
        + [f"in notebooks/ but not generated from solutions/: {p}" for p in old - new]
        + [
            f"differs: {p}"
            for p in new & old
            if (fresh / p).read_bytes() != (committed / p).read_bytes()
        ]
    )


def check() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "notebooks"
        generate(fresh, Path(tmp) / "gradebook.db")
        problems = differences(fresh, COURSE / "notebooks")
    for problem in problems:
        print(problem)
    if problems:
        print("notebooks/ is out of date: run `make release` and commit the result.")
        return 1
    print(f"notebooks/ is up to date (assignments: {', '.join(assignments())}).")
    return 0


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "generate":
        generate(COURSE / "notebooks", COURSE / "grading" / "gradebook.db")
        print(f"Released {', '.join(assignments())} into notebooks/.")
    elif command == "check":
        sys.exit(check())
    else:
        sys.exit(__doc__)
