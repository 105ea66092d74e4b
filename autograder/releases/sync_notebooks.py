"""Keep the parts every source notebook shares in step, before nbgrader releases them.

    python -m autograder.releases.sync_notebooks          # update solutions/ (`make release`)
    python -m autograder.releases.sync_notebooks --check  # fail if a notebook is not in step

Four things are generated here, never edited by hand in a notebook:

* **The set-up cell**, the first code cell of every notebook (``grade_id: course_setup``).
  Where the course's package is missing (Colab) it installs it from ``COURSE_REPO``, the
  address written once, as ``repo`` in ``course.toml``; then
  ``transformer_course.setup.ready()`` checks PyTorch and the plotting libraries, quietly.
* **The Colab badge**, a markdown cell just above the set-up cell, opening the released
  notebook of ``COURSE_REPO`` on Colab.
* **The self-check cell**, the last cell of every graded notebook (``grade_id: self_check``),
  with a short heading above it: the table of the notebook's exercises, from the check cells
  run so far (``course_checks.selfcheck``).
* **Figures**, embedded as cell attachments: a markdown link to ``../../images/NAME.png`` (or
  to ``attachment:NAME.png``) shows ``images/NAME.png``, carried inside the notebook so that it
  renders in a clone, in a copy nbgrader hands out, and on Colab alike. The attachment is the
  committed PNG's bytes, so the result is the same on every run.

README.md's own "Open in Colab" badge is kept at the same address.
"""

from __future__ import annotations

import ast
import base64
import json
import re
import sys
import tomllib
from pathlib import Path

from autograder.cells import source
from autograder.releases.release import WELCOME, assignments
from course_checks import shortcuts
from course_checks.cells import CHECKS_LINE

AUTOGRADER = Path(__file__).resolve().parents[1]
COURSE = AUTOGRADER.parent
IMAGES = COURSE / "images"

# The course's settings: ``repo`` is the address the course is published at.
SETTINGS = COURSE / "course.toml"
PLACEHOLDER = "YOUR-ACCOUNT"  # in course.toml's repo until the course is published
# The line of a notebook's set-up cell that names the repository: COURSE_REPO = "https://..."
REPO_LINE = re.compile(r'COURSE_REPO = "([^"]+)"')
# README.md's badge: where Colab opens the welcome notebook (any repository's address).
README_BADGE = re.compile(
    r"\(https://colab\.research\.google\.com/github/[^()\s]*"
    r"/blob/main/notebooks/00_welcome\.ipynb\)"
)
# Links to a figure of images/ (as written by an author) or to an attachment (once embedded).
FIGURE_LINK = re.compile(r"\]\((?:\.\./)*images/([\w.-]+\.png)\)|\]\(attachment:([\w.-]+\.png)\)")

SETUP_ID, SELF_CHECK_ID, SELF_CHECK_INTRO_ID = "course-setup", "self-check", "self-check-intro"
BADGE_ID = "colab-badge"

SETUP_TEMPLATE = """\
# Run this cell first. In a fresh Colab session it installs the course's package from
# COURSE_REPO (keeping Colab's PyTorch); then it checks what the notebook needs. Quiet.
COURSE_REPO = "{repo}"
import importlib.util, os, subprocess, sys
if importlib.util.find_spec("transformer_course") is None:
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "git+" + COURSE_REPO]
    subprocess.run(pip, check=True, env={{**os.environ, "GIT_TERMINAL_PROMPT": "0"}})
from transformer_course.setup import ready
ready()"""

COLAB_BADGE = "https://colab.research.google.com/assets/colab-badge.svg"
BADGE_TEMPLATE = """\
[![Open in Colab]({badge})]({url}) On Colab, run the set-up cell below first: it installs \
the course's package (once per session)."""

SELF_CHECK_INTRO = """\
## Check your work

The cell below lists every exercise of this notebook with what its check cell found when it
last ran: **passed**, **failed** (with the first problem it noticed), or **not attempted**.
Run it whenever you like; to re-check everything first, use *Run All* or **Validate**. From a
terminal, `python -m course_checks.selfcheck` followed by this notebook's path runs it from
scratch and prints the same table, and `make progress` does so for every notebook."""

SELF_CHECK_TEMPLATE = """\
# Your progress in this notebook, from the check cells run so far. It earns no points.
from course_checks import selfcheck

selfcheck.report({{
{entries}
}})"""


def course_repo(settings: Path = SETTINGS) -> str:
    """The repository address, written once: ``repo`` in ``course.toml``."""
    try:
        repo = tomllib.loads(settings.read_text()).get("repo")
    except (OSError, tomllib.TOMLDecodeError) as error:
        sys.exit(f"{settings}: cannot read the course's settings ({error})")
    if not isinstance(repo, str) or not repo.strip():
        sys.exit(f'{settings} has no line repo = "https://..."')
    return repo


def readme_badge(text: str, repo: str) -> str:
    """README.md's text with its Colab badge opening the welcome notebook of ``repo``."""
    url = colab_url(repo, "notebooks/00_welcome.ipynb")
    return README_BADGE.sub(lambda _: f"({url})", text)


def setup_source(repo: str) -> str:
    return SETUP_TEMPLATE.format(repo=repo)


def colab_url(repo: str, notebook: str = "") -> str:
    """Where Colab opens ``notebook`` (a path in the repository) of a GitHub ``repo``; with no
    notebook, the prefix every such address starts with."""
    where = repo.removeprefix("https://github.com/").strip("/")
    return f"https://colab.research.google.com/github/{where}" + (
        f"/blob/main/{notebook}" if notebook else ""
    )


def badge_source(repo: str, notebook: str) -> str:
    return BADGE_TEMPLATE.format(badge=COLAB_BADGE, url=colab_url(repo, notebook))


def released_name(source: Path) -> str:
    """The path students find a source notebook at: solutions/X -> notebooks/X."""
    return "notebooks/" + source.relative_to(COURSE / "solutions").as_posix()


def self_check_source(exercises: dict[str, float]) -> str:
    entries = "\n".join(
        f"    {json.dumps(n, ensure_ascii=False)}: {p:g}," for n, p in exercises.items()
    )
    return SELF_CHECK_TEMPLATE.format(entries=entries)


def _lines(text: str) -> list[str]:
    """A cell's source as Jupyter stores it: one string per line, newline included."""
    return text.splitlines(keepends=True)


def _meta(grade_id: str) -> dict:
    return {
        "nbgrader": {
            "grade": False,
            "grade_id": grade_id,
            "locked": True,
            "schema_version": 3,
            "solution": False,
            "task": False,
        }
    }


def _code_cell(cell_id: str, grade_id: str, source: str) -> dict:
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": cell_id,
        "metadata": _meta(grade_id),
        "outputs": [],
        "source": _lines(source),
    }


def _exercises(cells: list[dict]) -> dict[str, float]:
    found = {}
    for cell in cells:
        if cell["cell_type"] == "code" and cell["metadata"].get("nbgrader", {}).get("grade"):
            match = CHECKS_LINE.search(source(cell))
            if not match:
                sys.exit(f'a check cell without Checks("...", points=N): {cell.get("id")}')
            found[match.group(1)] = float(match.group(2))
    return found


def _embed_figures(cell: dict, problems: list[str]) -> None:
    """Point figure links at attachments and fill them from images/; drop unused ones."""
    if cell["cell_type"] != "markdown":
        return
    text = source(cell)
    names = [a or b for a, b in FIGURE_LINK.findall(text)]
    text = FIGURE_LINK.sub(lambda m: f"](attachment:{m.group(1) or m.group(2)})", text)
    attachments = {}
    for name in names:
        figure = IMAGES / name
        if not figure.is_file():
            problems.append(f"{name}: no such figure in images/ (is it in make_images.FIGURES?)")
            continue
        attachments[name] = {"image/png": base64.b64encode(figure.read_bytes()).decode("ascii")}
    cell["source"] = _lines(text)
    if attachments:
        cell["attachments"] = attachments
    else:
        cell.pop("attachments", None)


REFUSES_PREFIX = "*Write this one yourself:*"


def _refused(test_cell: dict) -> tuple[str, ...]:
    """The shortcuts a test cell's ``Checks(..., refuses=...)`` declares."""
    tree = ast.parse(source(test_cell))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Checks":
            for keyword in node.keywords:
                if keyword.arg == "refuses":  # course code: names of shortcuts' groups
                    return eval(  # noqa: S307 - course code
                        compile(ast.Expression(keyword.value), "<refuses>", "eval"),
                        {"shortcuts": shortcuts},
                    )
    return ()


def _state_refusals(cells: list[dict]) -> None:
    """End the text above each exercise's answer with the shortcuts its checks refuse."""
    for cell in cells:
        meta = cell["metadata"].get("nbgrader", {})
        if not meta.get("grade"):
            continue
        prefix = meta["grade_id"].split("_")[0] + "_"
        answer = next(
            (
                i
                for i, c in enumerate(cells)
                if c["metadata"].get("nbgrader", {}).get("solution")
                and c["metadata"]["nbgrader"].get("grade_id", "").startswith(prefix)
            ),
            None,
        )
        text_index = (
            next(
                (i for i in range(answer - 1, -1, -1) if cells[i]["cell_type"] == "markdown"), None
            )
            if answer
            else None
        )
        if text_index is None:
            continue
        text = source(cells[text_index])
        kept = "\n".join(
            line for line in text.rstrip("\n").split("\n") if not line.startswith(REFUSES_PREFIX)
        ).rstrip("\n")
        names = _refused(cell)
        if names:
            listed = ", ".join(f"`{shortcuts.short_name(n)}`" for n in names)
            which = "it" if len(names) == 1 else "one of them"
            kept += (
                f"\n\n{REFUSES_PREFIX} its checks refuse {listed}; an answer that calls "
                f"{which} fails them."
            )
        cells[text_index]["source"] = _lines(kept)


def synced(notebook: dict, repo: str, graded: bool, problems: list[str], released: str) -> dict:
    """The notebook with its Colab badge, set-up cell, self-check cell and figures as they
    should be; ``released`` is where students find it (for the badge)."""
    generated = (BADGE_ID, SETUP_ID, SELF_CHECK_ID, SELF_CHECK_INTRO_ID)
    cells = [c for c in notebook["cells"] if c.get("id") not in generated]
    for cell in cells:
        _embed_figures(cell, problems)
    _state_refusals(cells)
    first_code = next((i for i, c in enumerate(cells) if c["cell_type"] == "code"), len(cells))
    cells.insert(first_code, _code_cell(SETUP_ID, "course_setup", setup_source(repo)))
    badge = {"cell_type": "markdown", "id": BADGE_ID, "metadata": {}}
    cells.insert(first_code, {**badge, "source": _lines(badge_source(repo, released))})
    if graded:
        cells.append(
            {
                "cell_type": "markdown",
                "id": SELF_CHECK_INTRO_ID,
                "metadata": {},
                "source": _lines(SELF_CHECK_INTRO),
            }
        )
        cells.append(_code_cell(SELF_CHECK_ID, "self_check", self_check_source(_exercises(cells))))
    return {**notebook, "cells": cells}


def dumps(notebook: dict) -> str:
    """Jupyter's own layout (one-space indent, UTF-8 kept), so diffs stay small."""
    return json.dumps(notebook, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def source_notebooks(course: Path = COURSE) -> list[tuple[Path, bool]]:
    """(path, graded) for every source notebook: the assignments, and the welcome notebook."""
    found = [(course / "solutions" / a / f"{a}.ipynb", True) for a in assignments(course)]
    welcome = course / "solutions" / WELCOME
    return found + ([(welcome, False)] if welcome.is_file() else [])


def main(check: bool) -> int:
    repo = course_repo()
    stale: list[Path] = []
    problems: list[str] = []
    for path, graded in source_notebooks():
        text = path.read_text()
        new = dumps(synced(json.loads(text), repo, graded, problems, released_name(path)))
        if new != text:
            stale.append(path)
            if not check:
                path.write_text(new)
    readme = COURSE / "README.md"
    if readme.is_file():
        text = readme.read_text()
        if (new := readme_badge(text, repo)) != text:
            stale.append(readme)
            if not check:
                readme.write_text(new)
    for problem in problems:
        print(problem)
    if PLACEHOLDER in repo and not check:
        print(
            f"Note: the course's address is still the placeholder {repo}: the notebooks' "
            "Colab set-up and badges work once `repo` in course.toml names the published "
            "repository (and `make student-release` refuses to build until then)."
        )
    if check:
        for path in stale:
            print(f"not in step: {path.relative_to(COURSE)}")
        if stale:
            print(
                "Run `make release` to update the set-up cells, self-check cells, figures and"
                " README.md's Colab badge."
            )
    elif stale:
        print("Updated " + ", ".join(p.name for p in stale))
    return 1 if problems or (check and stale) else 0


if __name__ == "__main__":
    sys.exit(main(check="--check" in sys.argv[1:]))
