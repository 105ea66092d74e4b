"""The set-up cell: one repository address, quiet and idempotent, torch left alone on Colab.

The Colab path is exercised in a fresh virtual environment with no course package, no
plotting libraries and a stand-in for pip that records what it is asked to install (and
"installs" the package from this checkout and empty modules for the rest), so the test needs
no network and no second copy of PyTorch (a stand-in says which version Colab has).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import tomllib
import venv
from pathlib import Path

import pytest
from conftest import ALL_NOTEBOOKS, REPO, SOURCE_NOTEBOOKS, load

from autograder.releases import sync_notebooks


def setup_cell(path: Path) -> dict:
    return next(c for c in load(path)["cells"] if c["cell_type"] == "code")


def test_course_toml_names_the_repository_once_and_every_notebook_agrees():
    settings = tomllib.loads((REPO / "course.toml").read_text())
    repo = sync_notebooks.course_repo()
    assert repo == settings["repo"] and repo.startswith("https://")
    # The one place: no other file of the course's own writes the address as a setting.
    for name in [
        "README.md",
        "CHANGELOG.md",
        "CONTRIBUTING.md",
        *sorted(p.relative_to(REPO).as_posix() for p in (REPO / "docs").glob("*.md")),
    ]:
        if (REPO / name).is_file():
            assert not sync_notebooks.REPO_LINE.search((REPO / name).read_text()), name
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
    done = run_cell(Path(sys.executable), dict(os.environ), prelude=prelude)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


FAKE_PIP = """
import json, os, shutil, sys
from pathlib import Path
args = sys.argv[1:]
with open(os.environ["PIP_LOG"], "a") as log:
    log.write(json.dumps(args) + "\\n")
if os.environ.get("PIP_FAILS"):
    print("ERROR: could not clone the repository", file=sys.stderr)
    sys.exit(1)
site = Path(os.environ["FAKE_SITE"])
for arg in args[1:]:
    if arg.startswith("git+"):  # the course's package, as pip would install it from GitHub
        shutil.copytree(os.environ["COURSE_PACKAGE"], site / "transformer_course")
    elif not arg.startswith("-"):
        (site / arg).mkdir(parents=True, exist_ok=True)
        (site / arg / "__init__.py").write_text("")
"""

# Colab's PyTorch, as far as the set-up and the package's import look at it.
FAKE_TORCH = """
__version__ = "{version}"
def get_num_threads():
    return 1
def set_num_threads(n):
    pass
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
        "COURSE_PACKAGE": str(REPO / "transformer_course"),
    }
    (tmp_path / "pip.log").write_text("")
    return tmp_path / "venv" / "bin" / "python", env, tmp_path / "pip.log"


def with_torch(env: dict[str, str], version: str) -> dict[str, str]:
    site = Path(env["FAKE_SITE"])
    (site / "torch").mkdir()
    (site / "torch" / "__init__.py").write_text(FAKE_TORCH.format(version=version))
    return env


def pip_calls(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_on_colab_it_installs_once_quietly_and_never_touches_torch(bare_python):
    python, env, log = bare_python
    done = run_cell(python, with_torch(env, "2.14.1+cu126"), times=2)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    repo = sync_notebooks.course_repo()
    calls = pip_calls(log)
    assert calls == [
        ["install", "--quiet", "--no-deps", f"git+{repo}"],
        ["install", "--quiet", "--no-input", "numpy", "matplotlib", "psutil", "tqdm"],
    ], "one install on the first run, nothing on the second"
    assert not any("torch" in arg for call in calls for arg in call)


def test_a_failed_install_says_why(bare_python):
    python, env, _ = bare_python
    done = run_cell(python, {**env, "PIP_FAILS": "1"}, times=1)
    assert done.returncode != 0
    assert "CalledProcessError" in done.stderr and "pip" in done.stderr
    assert "could not clone the repository" in done.stderr


def test_without_pytorch_it_says_what_to_install_and_installs_no_pytorch(bare_python):
    python, env, log = bare_python
    done = run_cell(python, env, times=1)
    assert "ModuleNotFoundError: PyTorch is not installed" in done.stderr, done.stderr
    assert "make lab" in done.stderr and "pytorch.org" in done.stderr
    assert not any("torch" in arg for call in pip_calls(log) for arg in call)


def test_an_old_pytorch_is_named(bare_python):
    python, env, _ = bare_python
    done = run_cell(python, with_torch(env, "2.1.2"), times=1)
    assert "needs PyTorch 2.2 or newer; this Python has 2.1.2" in done.stderr, done.stderr


def test_the_address_is_read_from_the_settings_file_and_a_missing_one_is_said(tmp_path):
    settings = tmp_path / "course.toml"
    settings.write_text('# a comment\nrepo = "https://example.org/me/course"\n')
    assert sync_notebooks.course_repo(settings) == "https://example.org/me/course"
    settings.write_text('name = "no address here"\n')
    with pytest.raises(SystemExit, match="no line repo ="):
        sync_notebooks.course_repo(settings)


def test_make_release_moves_the_readmes_badge_to_the_course_address():
    readme = (REPO / "README.md").read_text()
    moved = sync_notebooks.readme_badge(readme, "https://github.com/someone/else")
    url = (
        "https://colab.research.google.com/github/someone/else/blob/main/notebooks/00_welcome.ipynb"
    )
    assert f"]({url})" in moved and moved != readme
    assert sync_notebooks.readme_badge(moved, sync_notebooks.course_repo()) == readme


def test_each_notebook_and_the_readme_open_in_colab_from_the_course_address():
    repo = sync_notebooks.course_repo()
    readme = (REPO / "README.md").read_text()
    assert f"]({sync_notebooks.colab_url(repo, 'notebooks/00_welcome.ipynb')})" in readme
    for source in SOURCE_NOTEBOOKS:
        expected = sync_notebooks.badge_source(repo, sync_notebooks.released_name(source))
        released = REPO / sync_notebooks.released_name(source)
        for path in (source, released):
            cells = load(path)["cells"]
            setup = next(i for i, c in enumerate(cells) if c["cell_type"] == "code")
            assert "".join(cells[setup - 1]["source"]) == expected, f"{path}: run `make release`"
        assert released.is_file(), released


def test_the_setup_cell_comes_before_anything_that_imports_the_course():
    for path in ALL_NOTEBOOKS:
        cells = [c for c in load(path)["cells"] if c["cell_type"] == "code"]
        assert cells[0].get("id") == sync_notebooks.SETUP_ID, path
        later = "".join("".join(c["source"]) for c in cells[1:])
        assert "COURSE_REPO" not in later
    body = textwrap.dedent("".join(setup_cell(SOURCE_NOTEBOOKS[0])["source"]))
    installs, imports = body.index("pip"), body.index("from transformer_course")
    assert installs < imports, "the set-up cell must install the package before it imports it"
