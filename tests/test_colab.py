"""The set-up cell: one repository address, quiet and idempotent, torch left alone on Colab.

The Colab path is exercised in a fresh virtual environment with no course package, no
plotting libraries and a stand-in for pip that records what it is asked to install (and
"installs" empty modules), so the test needs no network and no second copy of PyTorch.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest
import sync_notebooks
from conftest import ALL_NOTEBOOKS, REPO, SOURCE_NOTEBOOKS, load


def setup_cell(path: Path) -> dict:
    return next(c for c in load(path)["cells"] if c["cell_type"] == "code")


def test_readme_names_the_repository_once_and_every_notebook_agrees():
    readme = (REPO / "README.md").read_text()
    assert len(sync_notebooks.REPO_LINE.findall(readme)) == 1
    repo = sync_notebooks.course_repo()
    assert repo.startswith("https://")
    expected = sync_notebooks.setup_source(repo)
    for path in ALL_NOTEBOOKS:
        cell = setup_cell(path)
        assert "".join(cell["source"]) == expected, f"{path}: run `make release`"
        meta = cell["metadata"]["nbgrader"]
        assert meta["grade_id"] == "course_setup" and meta["locked"]
        assert not meta["grade"] and not meta["solution"]


def test_sources_are_in_step_with_the_generated_cells_and_figures():
    assert sync_notebooks.main(check=True) == 0, "run `make release`"


def run_cell(python: Path, env: dict[str, str], times: int = 2, prelude: str = ""):
    """Run the set-up cell ``times`` times in one interpreter, as a kernel would."""
    source = "".join(setup_cell(SOURCE_NOTEBOOKS[0])["source"])
    script = prelude + f"\nsource = {source!r}\nfor _ in range({times}):\n    exec(source, {{}})\n"
    # Started outside the repository, so that its own folder does not make the package importable.
    return subprocess.run(
        [str(python), "-c", script],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=python.parent,
    )


def test_where_the_course_is_installed_it_does_nothing_silently():
    # subprocess.run raising proves no install is attempted.
    prelude = "import subprocess\ndef refuse(*a, **k): raise AssertionError(a)\n"
    prelude += "subprocess.run = refuse\n"
    env = dict(os.environ, COLAB_RELEASE_TAG="on purpose: installed wins")
    done = run_cell(Path(sys.executable), env, prelude=prelude)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


FAKE_PIP = """
import json, os, sys
from pathlib import Path
args = sys.argv[1:]
with open(os.environ["PIP_LOG"], "a") as log:
    log.write(json.dumps(args) + "\\n")
if os.environ.get("PIP_FAILS"):
    print("ERROR: could not clone the repository", file=sys.stderr)
    sys.exit(1)
site = Path(os.environ["FAKE_SITE"])
for arg in args:
    if not arg.startswith("-"):
        name = "transformer_course" if arg.startswith("git+") else arg
        (site / name).mkdir(parents=True, exist_ok=True)
        (site / name / "__init__.py").write_text("")
"""


@pytest.fixture
def bare_python(tmp_path):
    """A Python without the course, plotting or pip; pip is the recording stand-in."""
    venv.create(tmp_path / "venv", with_pip=False)
    (tmp_path / "fake" / "pip").mkdir(parents=True)
    (tmp_path / "fake" / "pip" / "__main__.py").write_text(FAKE_PIP)
    (tmp_path / "site").mkdir()
    env = {
        "PATH": os.environ["PATH"],
        "PYTHONPATH": f"{tmp_path / 'fake'}{os.pathsep}{tmp_path / 'site'}",
        "PIP_LOG": str(tmp_path / "pip.log"),
        "FAKE_SITE": str(tmp_path / "site"),
    }
    (tmp_path / "pip.log").write_text("")
    return tmp_path / "venv" / "bin" / "python", env, tmp_path / "pip.log"


def pip_calls(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


@pytest.mark.parametrize(
    "colab",
    [
        {"COLAB_RELEASE_TAG": "release-colab_20260101"},
        {"fake_module": "google.colab"},
    ],
)
def test_on_colab_it_installs_once_quietly_and_never_touches_torch(bare_python, colab):
    python, env, log = bare_python
    env = {**env, **{k: v for k, v in colab.items() if k != "fake_module"}}
    prelude = (
        "import sys, types\nsys.modules['google.colab'] = types.ModuleType('google.colab')"
        if "fake_module" in colab
        else ""
    )
    done = run_cell(python, env, times=2, prelude=prelude)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    repo = sync_notebooks.course_repo()
    calls = pip_calls(log)
    assert calls == [
        ["install", "--quiet", "--no-input", "matplotlib", "psutil", "tqdm"],
        ["install", "--quiet", "--no-input", "--no-deps", f"git+{repo}"],
    ], "one install on the first run, nothing on the second"
    assert not any("torch" in arg for call in calls for arg in call)


def test_a_failed_install_says_why(bare_python):
    python, env, _ = bare_python
    done = run_cell(python, {**env, "COLAB_RELEASE_TAG": "x", "PIP_FAILS": "1"}, times=1)
    assert done.returncode != 0
    assert "Could not install the course's package" in done.stderr
    assert "could not clone the repository" in done.stderr


def test_elsewhere_without_the_package_it_explains_how_to_get_it(bare_python):
    python, env, log = bare_python
    done = run_cell(python, env, times=1)
    assert "ModuleNotFoundError" in done.stderr and "make lab" in done.stderr
    assert f"pip install --no-deps git+{sync_notebooks.course_repo()}" in done.stderr
    assert pip_calls(log) == []


def test_the_setup_cell_comes_before_anything_that_imports_the_course():
    for path in ALL_NOTEBOOKS:
        cells = [c for c in load(path)["cells"] if c["cell_type"] == "code"]
        assert cells[0].get("id") == sync_notebooks.SETUP_ID, path
        later = "".join("".join(c["source"]) for c in cells[1:])
        assert "COURSE_REPO" not in later
    body = textwrap.dedent("".join(setup_cell(SOURCE_NOTEBOOKS[0])["source"]))
    assert "transformer_course import" not in body, "the set-up cell must not need the package"
