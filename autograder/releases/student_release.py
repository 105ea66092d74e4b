"""Build what students receive: ``make student-release``.

    python -m autograder.releases.student_release --repo https://github.com/you/course-student \
        [--out DIR]

This repository is the instructor's: it holds the solutions, the hidden tests and the grading
machinery, and should stay private. Students get a separate folder (``dist/student-release``
by default, also packed as ``.tar.gz``) to publish as its own repository: the release
notebooks, the helper package, a README and the set-up for ``make lab``. No ``solutions/``,
``autograder/``, ``tests/``, hidden test or solution line is in it; ``check`` proves that by
parsing every file. ``--repo`` is the address it will be published at: the notebooks' Colab
set-up installs the package from there, so the placeholder address is refused.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import shutil
import sys
import tarfile
from pathlib import Path

from autograder.releases.sync_notebooks import (
    COLAB_BADGE,
    PLACEHOLDER,
    REPO_LINE,
    colab_url,
    course_repo,
)

COURSE = Path(__file__).resolve().parents[2]
MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS")
# The library and what its in-kernel checks use; nothing of the grader's.
COPIED = ["notebooks", "transformer_course", "course_checks", "constraints.txt"]

README = """# Transformers, by hand

[![Open in Colab]({badge})]({welcome})

A hands-on course that takes you from a single query vector to a trained encoder–decoder
Transformer, one JupyterLab notebook at a time. Every exercise checks itself as you go.

```bash
make lab    # set up (first time only) and open the course in JupyterLab
```

`make lab` needs Python 3.11+ and `make`; it installs everything into `.venv`. Start with
`notebooks/00_welcome.ipynb`. On Colab, open a notebook from `notebooks/` of this repository
({repo}) and run its first cell.

Check your own work at any time with
`make check NB=notebooks/01_vector_attention/01_vector_attention.ipynb`.
Your instructor grades the same notebooks with further, hidden checks on new inputs, so
write every function for the general case.
"""

MAKEFILE = """# `make lab` is all the set-up there is: it creates .venv on first use.
PYTHON ?= python3
BIN := $(CURDIR)/.venv/bin

.PHONY: lab check
$(CURDIR)/.venv/.ready: pyproject.toml constraints.txt
\t@test -x $(BIN)/python || $(PYTHON) -m venv .venv
\t@echo "Installing the course environment into .venv (first time: a few minutes)..."
\t@$(BIN)/python -m pip install -e '.[lab]' -c constraints.txt > .venv/install.log 2>&1 \\
\t\t|| {{ cat .venv/install.log; exit 1; }}
\t@touch $@

# No pop-up about Jupyter news over the first notebook.
SETTINGS := $(CURDIR)/.venv/share/jupyter/lab/settings/overrides.json
$(SETTINGS): $(CURDIR)/.venv/.ready
\t@mkdir -p $(dir $@)
\t@echo '{{"@jupyterlab/apputils-extension:notification": {{"fetchNews": "false"}}}}' > $@

lab: $(CURDIR)/.venv/.ready $(SETTINGS)
\tJUPYTER_CONFIG_PATH=$(CURDIR)/jupyter $(BIN)/jupyter lab --no-browser \\
\t\t--ServerApp.ip=127.0.0.1 --LabApp.default_url=/lab/tree/notebooks/00_welcome.ipynb

check: $(CURDIR)/.venv/.ready
\t$(BIN)/python -m course_checks.selfcheck $(NB)
"""


def pyproject() -> str:
    """The course's pyproject, for the package and the student's JupyterLab (no dev extra)."""
    text = (COURSE / "pyproject.toml").read_text()
    text = re.sub(r"# What only the instructor's side uses.*?(?=\n\[tool.setuptools)", "", text,
                  flags=re.S)
    return text.replace('include = ["transformer_course*", "course_checks*", "autograder*"]',
                        'include = ["transformer_course*", "course_checks*"]')


def build(repo: str, out: Path) -> Path:
    if PLACEHOLDER in repo or not repo.strip():
        sys.exit(f"Refusing to build the student release for the placeholder address {repo!r}:"
                 " pass --repo with the address students will install from (make "
                 "student-release STUDENT_REPO=https://...).")
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    for name in COPIED:
        source = COURSE / name
        if source.is_dir():
            shutil.copytree(source, out / name,
                            ignore=shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints"))
        else:
            shutil.copy(source, out / name)
    placeholder = course_repo()
    for path in (out / "notebooks").rglob("*.ipynb"):
        text = path.read_text().replace(colab_url(placeholder), colab_url(repo))
        path.write_text(text.replace(placeholder, repo))
    # JupyterLab without nbgrader's instructor tools, as in the course's `make lab`.
    shutil.copytree(COURSE / "autograder" / "student_lab", out / "jupyter")
    welcome = colab_url(repo, "notebooks/00_welcome.ipynb")
    (out / "README.md").write_text(README.format(repo=repo, badge=COLAB_BADGE, welcome=welcome))
    (out / "Makefile").write_text(MAKEFILE.format())
    (out / "pyproject.toml").write_text(pyproject())
    (out / ".gitignore").write_text(".venv/\n__pycache__/\n*.egg-info/\n.ipynb_checkpoints/\n")
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
            text = "\n".join("".join(c.get("source", "")) for c in cells)
        elif path.suffix == ".py":
            ast.parse(text)  # a file that does not parse cannot be vouched for
        problems += [f"{name}: contains {marker}" for marker in MARKERS if marker in text]
        if REPO_LINE.search(text) and PLACEHOLDER in text:
            problems.append(f"{name}: the placeholder COURSE_REPO")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", default=course_repo(),
                        help="the address the student release is published at")
    parser.add_argument("--out", type=Path, default=COURSE / "dist" / "student-release")
    args = parser.parse_args(argv)
    archive = build(args.repo, args.out)
    print(f"Student release in {args.out} (and {archive}): publish this folder, keep this "
          "repository private.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
