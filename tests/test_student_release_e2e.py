"""The student release as a student meets it: unpacked, installed, used, updated.

`make student-release` builds the release; its archive is unpacked into an empty folder and
installed the way its README says, `make lab`, which creates `.venv`, installs the course
(naming each package) and starts JupyterLab (as root here: `--allow-root`). PyTorch comes
from the machine's local CPU wheel (a pip constraint pins `+cpu`, so no CUDA build is ever
downloaded); the other packages from pip's cache or index. Then, in headless Chromium: the
welcome notebook opens unchanged; in notebook 01 one exercise gets a right answer and one a
known mistake, typed into the cells; Run All; the check cells, the self-check table and
Validate say which passed, name the mistake, and say that these points are not the grade.
`make check`, `make progress`, `make lab` as a normal user and `make update` (a new version,
keeping the answers) follow. The archive itself holds no solution, hidden test or answered
cell.

The first version the student gets holds notebooks 00 and 01 only (the others are taken
out after unpacking); `make update` brings them, as a real course's next version would.

Costs about three minutes on a busy 2-core machine, half of it the install (pip's cache
warm); the time from unpacking to JupyterLab ready and the environment's size are printed
and written to test-artifacts/student-release.txt. Skipped without Chromium or a local
PyTorch CPU wheel.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import pytest
from conftest import REPO, load, nbgrader_meta, release_path, solution_sources, student_submission
from playwright.sync_api import expect, sync_playwright
from submissions import WRONG
from test_browser import (
    CHROMIUM_ARGS,
    chromium,
    free_port,
    scroll_to,
    stop,
    type_answer,
    validate,
    wait_until_serving,
)

from autograder.releases import release, student_release
from course_checks.selfcheck import NOT_THE_GRADE

ADDRESS = "https://example.org/teacher/course-student"
A = "01_vector_attention"
NOTEBOOK = f"notebooks/{A}/{A}.ipynb"
RIGHT, WRONG_ID = "ex1_project", "ex2_score"  # one right answer, one known mistake
NAMED = "This matches the plain dot product, without the 1/√D scaling"
ARTIFACTS = REPO / "test-artifacts"
TORCH = "2.13.0"


def local_torch_wheel() -> Path:
    """The CPU build of PyTorch on this machine's disk, where pip's find-links point."""
    config = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True
    ).stdout
    places = os.environ.get("PIP_FIND_LINKS", "").split()
    places += [m for line in re.findall(r"find-links='([^']*)'", config) for m in line.split()]
    for place in places:
        found = sorted(Path(place).glob(f"torch-{TORCH}+cpu-*.whl"))
        if found:
            return found[0]
    pytest.skip(
        f"no local PyTorch {TORCH}+cpu wheel in pip's find-links ({places}): the test "
        "installs the release without downloading PyTorch"
    )


def shared_python() -> str:
    """The system's Python where it is 3.11 or newer (a normal user can run it, which
    root's own, under /root, may not let them), else the first python3 on PATH."""
    for python in ("/usr/bin/python3", "python3"):
        found = subprocess.run(
            [python, "-c", "import sys, venv; print(sys.version_info >= (3, 11))"],
            capture_output=True,
            text=True,
        )
        if found.stdout.strip() == "True":
            return python
    return "python3"


def runnable_by_anyone(path: Path) -> bool:
    """Whether every user may run ``path``: it and each folder above it are world-usable."""
    path = path.resolve()
    return all(p.stat().st_mode & 0o001 for p in [path, *path.parents])


def student_env(state: Path, extra: dict | None = None) -> dict:
    """A student's shell: none of the course's environment, Jupyter's state of this test's
    own, and pip pinned to PyTorch's CPU build."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("JUPYTER", "VIRTUAL_ENV", "PYTHONPATH"))
    }
    env["PATH"] = os.pathsep.join(
        p for p in env["PATH"].split(os.pathsep) if not p.startswith(str(REPO))
    )
    for name in ("settings", "workspaces", "runtime"):
        (state / name).mkdir(parents=True, exist_ok=True)
        (state / name).chmod(0o777)
    pin = state / "cpu-torch.txt"
    pin.write_text(f"torch=={TORCH}+cpu\n")
    env.update(
        JUPYTERLAB_SETTINGS_DIR=str(state / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(state / "workspaces"),
        JUPYTER_RUNTIME_DIR=str(state / "runtime"),
        PIP_CONSTRAINT=str(pin),
        OMP_NUM_THREADS="1",
    )
    return env | (extra or {})


def start_lab(folder: Path, env: dict, log: Path, timeout: float, **user) -> tuple:
    """`make lab` in ``folder``: (server, base URL, token) once it answers."""
    port = free_port()
    with open(log, "w") as out:
        server = subprocess.Popen(
            ["make", "lab", f"LAB_PORT={port}"],
            cwd=folder,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            **user,
        )
    deadline = time.monotonic() + timeout
    while not (found := re.search(r"token=([0-9a-f]+)", log.read_text())):
        if server.poll() is not None or time.monotonic() > deadline:
            stop(server)
            pytest.fail(f"make lab did not start:\n{log.read_text()[-4000:]}")
        time.sleep(0.5)
    base = f"http://127.0.0.1:{port}"
    wait_until_serving(f"{base}/api/status?token={found[1]}", server, log, timeout=120)
    return server, base, found[1]


def make(folder: Path, env: dict, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["make", *args], cwd=folder, env=env, capture_output=True, text=True, timeout=timeout
    )


def measured(line: str) -> None:
    print(line)
    ARTIFACTS.mkdir(exist_ok=True)
    with open(ARTIFACTS / "student-release.txt", "a") as out:
        out.write(line + "\n")


@pytest.fixture(scope="module")
def course():
    """The release built, unpacked into an empty folder and started with `make lab`."""
    executable = chromium()
    local_torch_wheel()
    work = Path(tempfile.mkdtemp(prefix="student-release-"))
    work.chmod(0o755)  # a normal user reaches the student's folder too
    server = None
    try:
        archive = student_release.build(ADDRESS, work / "dist" / "course")
        home = work / "student"
        home.mkdir()
        env = student_env(work / "state", {"PYTHON": shared_python()})
        (ARTIFACTS / "student-release.txt").unlink(missing_ok=True)
        start = time.perf_counter()
        with tarfile.open(archive) as tar:
            tar.extractall(home, filter="data")
        folder = home / "course"
        for later in sorted((folder / "notebooks").glob("[0-9][0-9]_*")):
            if later.is_dir() and later.name != A:  # the first version has 00 and 01 only
                shutil.rmtree(later)
        server, base, token = start_lab(
            folder, env, ARTIFACTS / "student-make-lab.log", timeout=900
        )
        ready = time.perf_counter() - start
        size = subprocess.run(
            ["du", "-sm", str(folder / ".venv")], capture_output=True, text=True
        ).stdout.split()[0]
        measured(
            f"student release: unpacked to JupyterLab ready in {ready:.0f} s "
            f"(load average {os.getloadavg()[0]:.1f}); .venv {size} MB"
        )
        yield {
            "archive": archive,
            "folder": folder,
            "env": env,
            "base": base,
            "token": token,
            "chromium": executable,
            "work": work,
            "size_mb": int(size),
        }
    finally:
        if server is not None:
            stop(server)
        # Deleting 1.4 GB takes a minute or two on a disk mounted with online discard (these
        # machines' are): it goes on in the background, not in the test's time.
        subprocess.Popen(
            ["rm", "-rf", str(work)],
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


def test_the_archive_holds_no_solution_hidden_test_or_answered_cell(course, tmp_path):
    with tarfile.open(course["archive"]) as tar:
        tar.extractall(tmp_path, filter="data")
    unpacked = tmp_path / "course"
    assert student_release.check(unpacked) == []
    files = [p.relative_to(unpacked).as_posix() for p in unpacked.rglob("*") if p.is_file()]
    assert not [f for f in files if f.split("/")[0] in ("solutions", "autograder", "tests")]
    # Lines of the answers and of the hidden tests, except those the release shows anyway
    # (an answer's def line and docstring stay in its stub).
    secret = set()
    for a in release.assignments():
        shown = {
            line.strip()
            for c in load(release_path(a))["cells"]
            for line in "".join(c["source"]).splitlines()
        }
        for cell in load(REPO / "solutions" / a / f"{a}.ipynb")["cells"]:
            for begin, end in (
                ("BEGIN SOLUTION", "END SOLUTION"),
                ("BEGIN HIDDEN TESTS", "END HIDDEN TESTS"),
            ):
                for part in "".join(cell["source"]).split(f"### {begin}")[1:]:
                    secret |= {
                        line.strip()
                        for line in part.split(f"### {end}")[0].splitlines()
                        if len(line.strip()) > 30
                    } - shown
    assert len(secret) > 100
    for name in (f for f in files if f.endswith(".ipynb")):
        notebook = load(unpacked / name)
        lines = {
            line.strip() for c in notebook["cells"] for line in "".join(c["source"]).splitlines()
        }
        assert not lines & secret, (name, sorted(lines & secret)[:3])
        for cell in notebook["cells"]:
            assert not cell.get("outputs") and not cell.get("execution_count"), name
            if nbgrader_meta(cell).get("solution"):
                assert "raise NotImplementedError()" in "".join(cell["source"]), name


def test_it_installs_as_its_readme_says_with_pytorch_from_the_local_disk(course):
    folder = course["folder"]
    assert "make lab" in (folder / "README.md").read_text()
    log = (ARTIFACTS / "student-make-lab.log").read_text()
    # Each package is named as it arrives, and JupyterLab runs as root where that is who runs.
    assert re.search(r"getting torch==2\.13\.0", log) and "getting jupyterlab" in log, log
    assert ("--allow-root" in log) == (os.getuid() == 0)
    python = folder / ".venv" / "bin" / "python"
    version = subprocess.run(
        [python, "-c", "import torch; print(torch.__version__)"], capture_output=True, text=True
    ).stdout.strip()
    assert version == f"{TORCH}+cpu"
    installed = subprocess.run([python, "-m", "pip", "list"], capture_output=True, text=True).stdout
    assert "nvidia" not in installed.lower()
    assert course["size_mb"] < 2000


def test_a_student_answers_checks_and_validates_in_the_browser(course):
    base, token = course["base"], course["token"]
    answers = {RIGHT: solution_sources(A)[RIGHT], WRONG_ID: WRONG[A]["no_scaling"][0][WRONG_ID]}
    code_cells = sum(c["cell_type"] == "code" for c in load(release_path(A))["cells"])
    start = time.perf_counter()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=course["chromium"], headless=True, args=CHROMIUM_ARGS
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(90_000)
        expect.set_options(timeout=90_000)
        try:
            # `make lab`'s address opens the welcome notebook, unchanged once its kernel runs.
            page.goto(f"{base}/?token={token}")
            tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")
            expect(tab).to_contain_text("00_welcome.ipynb")
            indicator = page.locator(".jp-Notebook-ExecutionIndicator")
            expect(indicator).to_have_attribute("data-status", "idle")
            measured(
                f"welcome notebook open, kernel idle: {time.perf_counter() - start:.0f} s "
                "after the browser started"
            )
            page.wait_for_timeout(2000)
            assert "jp-mod-dirty" not in tab.get_attribute("class")
            page.screenshot(path=ARTIFACTS / "student-release-welcome.png")

            page.goto(f"{base}/lab/workspaces/student/tree/{NOTEBOOK}?reset&token={token}")
            expect(tab).to_contain_text(f"{A}.ipynb")
            expect(indicator).to_have_attribute("data-status", "idle")
            page.wait_for_timeout(1000)
            assert "jp-mod-dirty" not in tab.get_attribute("class")
            type_answer(page, "def project(W, b, x):", answers[RIGHT])
            type_answer(page, "def score(q, k):", answers[WRONG_ID])

            page.locator(".lm-MenuBar-item", has_text=re.compile(r"^Run$")).click()
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
            expect(page.locator(".jp-InputPrompt", has_text=f"[{code_cells}]:")).to_be_visible()
            expect(indicator).to_have_attribute("data-status", "idle")

            # The check cells: the right answer passes, the mistake is named, and both say
            # that their points are not the grade.
            right = page.locator(".jp-OutputArea-output", has_text="Exercise 1 · project:")
            scroll_to(page, right)
            text = " ".join(right.text_content().split())
            assert re.search(r"(\d+) of \1 checks passed", text) and "✗" not in text, text
            assert NOT_THE_GRADE in text, text
            cell = page.locator(".jp-CodeCell", has=right)
            expect(cell.locator(".jp-OutputArea-output").last).to_have_text("1.0")
            wrong = page.locator(".jp-OutputArea-output", has_text="Exercise 2 · score:")
            scroll_to(page, wrong)
            text = " ".join(wrong.text_content().split())
            assert "✗" in text and NAMED in text and NOT_THE_GRADE in text, text

            # The self-check table at the end.
            table = page.locator(".jp-OutputArea-output", has_text="This notebook:")
            scroll_to(page, table, step=800)
            text = table.text_content()
            assert re.search(r"Exercise 1 · project +✓ passed", text), text
            assert re.search(r"Exercise 2 · score +✗ failed", text), text
            assert re.search(r"Exercise 3 · softmax +· not attempted", text), text
            assert NOT_THE_GRADE in " ".join(text.split()), text
            page.screenshot(path=ARTIFACTS / "student-release-self-check.png")

            # Validate: the same, from a fresh run of the saved notebook.
            shown = validate(page, "failed", "student-release-validate.png")
            assert re.search(r"Exercise 1 · project +✓ passed", shown), shown
            assert re.search(r"Exercise 2 · score +✗ failed", shown), shown
            assert re.search(r"Exercise 3 · softmax +· not attempted", shown), shown
            flat = " ".join(shown.split())
            assert NAMED in flat and NOT_THE_GRADE in flat, shown
        except Exception:
            page.screenshot(path=ARTIFACTS / "student-release-failure.png")
            raise
        finally:
            browser.close()
    saved = {
        nbgrader_meta(c).get("grade_id"): "".join(c["source"])
        for c in load(course["folder"] / NOTEBOOK)["cells"]
    }
    assert saved[RIGHT].strip() == answers[RIGHT].strip()
    assert saved[WRONG_ID].strip() == answers[WRONG_ID].strip()


def answer(folder: Path) -> dict:
    """Notebook 01 in ``folder`` with one right answer and one mistake, written as saved."""
    path = folder / NOTEBOOK
    answers = {RIGHT: solution_sources(A)[RIGHT], WRONG_ID: WRONG[A]["no_scaling"][0][WRONG_ID]}
    notebook = student_submission(load(path), answers)
    for cell in notebook["cells"]:
        if isinstance(cell["source"], str):
            cell["source"] = cell["source"].splitlines(keepends=True)
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False))
    return answers


def test_make_check_and_make_progress(course):
    folder, env = course["folder"], course["env"]
    answer(folder)
    usage = make(folder, env, "check")
    assert usage.returncode != 0 and "usage: make check NB=" in usage.stdout
    checked = make(folder, env, "check", f"NB={NOTEBOOK}")  # not all passed: no make error
    assert checked.returncode == 0 and "Error" not in checked.stderr, checked.stderr
    assert re.search(r"Exercise 1 · project +✓ passed", checked.stdout), checked.stdout
    assert re.search(r"Exercise 2 · score +✗ failed", checked.stdout), checked.stdout
    assert NAMED in " ".join(checked.stdout.split())
    progress = make(folder, env, "progress")
    assert progress.returncode == 0, progress.stdout + progress.stderr
    assert re.search(rf"{A} +\d", progress.stdout) and "Chart saved to" in progress.stdout
    assert (folder / "progress.png").stat().st_size > 1000


def test_make_lab_as_a_normal_user(course, tmp_path):
    if os.getuid() != 0:
        pytest.skip("this user is the normal user: the other tests ran `make lab` as it")
    if not runnable_by_anyone(course["folder"] / ".venv" / "bin" / "python"):
        pytest.skip("the environment's Python is root's own, which a normal user cannot run")
    state = course["work"] / "nobody"
    env = student_env(state, {"HOME": str(state)})
    state.chmod(0o777)
    log = ARTIFACTS / "student-make-lab-user.log"
    start = time.perf_counter()
    server, base, token = start_lab(
        course["folder"], env, log, timeout=120, user=65534, group=65534, extra_groups=[]
    )
    try:
        measured(
            f"make lab once installed, as a normal user: ready in "
            f"{time.perf_counter() - start:.1f} s"
        )
        assert "--allow-root" not in log.read_text()
        import urllib.request

        with urllib.request.urlopen(f"{base}/api/contents/notebooks?token={token}") as listing:
            names = [item["name"] for item in json.load(listing)["content"]]
        assert "00_welcome.ipynb" in names and A in names
    finally:
        stop(server)


def test_make_update_keeps_the_answers(course):
    folder, env, work = course["folder"], course["env"], course["work"]
    answers = answer(folder)
    # One cell of the student's own, after exercise 1's check cell.
    path = folder / NOTEBOOK
    notebook = load(path)
    after = next(
        i
        for i, c in enumerate(notebook["cells"])
        if nbgrader_meta(c).get("grade_id") == "ex1_tests"
    )
    mine = {
        "cell_type": "markdown",
        "id": "my-own-notes",
        "metadata": {},
        "source": ["My notes: W x + b, one column."],
    }
    notebook["cells"].insert(after + 1, mine)
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False))
    before = path.read_bytes()
    welcome = (folder / "notebooks" / "00_welcome.ipynb").read_bytes()

    # Version 2, published as a git repository: notebook 01's text changed, the others back.
    version_2 = work / "version-2"
    with tarfile.open(course["archive"]) as tar:
        tar.extractall(version_2, filter="data")
    new = version_2 / "course"
    new_notebook = load(new / NOTEBOOK)
    first = new_notebook["cells"][0]
    first["source"] = ["".join(first["source"]) + "\n\nNew in version 2."]
    (new / NOTEBOOK).write_text(json.dumps(new_notebook, indent=1, ensure_ascii=False))
    student_release.write_manifest(new, "version 2")
    git = ["git", "-C", str(new), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "version 2"]):
        subprocess.run(git + command, check=True, capture_output=True)

    updated = make(folder, env, "update", f"FROM=file://{new}")
    assert updated.returncode == 0, updated.stdout + updated.stderr
    out = updated.stdout
    assert (
        "to version 2" in out
        and f"{NOTEBOOK}: updated, with your answers to {RIGHT}, {WRONG_ID} and 1 cells of your own"
        in out
    ), out
    assert "notebooks/02_matrix_attention/02_matrix_attention.ipynb: new" in out, out

    result = load(path)
    assert "New in version 2." in "".join(result["cells"][0]["source"])
    sources = {nbgrader_meta(c).get("grade_id"): "".join(c["source"]) for c in result["cells"]}
    assert sources[RIGHT] == answers[RIGHT] and sources[WRONG_ID] == answers[WRONG_ID]
    ids = [c.get("id") for c in result["cells"]]
    check_cell = next(
        c.get("id") for c in result["cells"] if nbgrader_meta(c).get("grade_id") == "ex1_tests"
    )
    assert ids[ids.index(check_cell) + 1] == "my-own-notes"
    (backup,) = (folder / "backups").iterdir()
    assert (backup / NOTEBOOK).read_bytes() == before
    assert (folder / "notebooks" / "00_welcome.ipynb").read_bytes() == welcome
    for a in release.assignments():
        assert (folder / "notebooks" / a / f"{a}.ipynb").is_file()
    # The new notebooks open unchanged in JupyterLab: they carry this environment's Python.
    python = load(folder / "notebooks" / "02_matrix_attention" / "02_matrix_attention.ipynb")
    assert (
        python["metadata"]["language_info"]["version"]
        == load(path)["metadata"]["language_info"]["version"]
        != ""
    )
    again = make(folder, env, "update", f"FROM=file://{new}")
    assert again.returncode == 0 and "nothing changed" in again.stdout, again.stdout
