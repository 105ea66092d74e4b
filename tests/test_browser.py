"""A student's session in a real browser: JupyterLab, an exercise, Run All, Validate.

The test starts the student's `jupyter lab` (with `make lab`'s configuration) from the
course's environment on 127.0.0.1, serving a temporary folder with a copy of notebook 01 in
which the first exercise is unanswered, the second has a known mistake, and the others are
right (typing them all would only be slower). In headless Chromium (Debian's package, driven
by Playwright; no browser is ever downloaded) it presses Validate, which must list the
unanswered exercise and name the mistake, as the course's checks do; types correct answers
into those cells; runs all cells; reads the exercise's check report; and presses Validate
again, which must now report success. Screenshots of each step go to test-artifacts/.

`make test` installs Chromium first when it is missing and it may (`make browser`); where
it cannot, this test is skipped and says why.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from browser import ARTIFACTS, CHROMIUM_ARGS, chromium, validate
from conftest import (
    REPO,
    load,
    nbgrader_meta,
    release_path,
    solution_sources,
    student_submission,
    tool_env,
)
from playwright.sync_api import expect, sync_playwright
from submissions import WRONG

ASSIGNMENT = "01_vector_attention"
TYPED = "ex1_project"  # the answer cell the test types in the browser
CHECK = "ex1_tests"  # the check cell right below it
MISTAKE = "no_scaling"  # a known mistake in another exercise, which Validate must name


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_serving(url: str, server: subprocess.Popen, log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"jupyter lab exited with {server.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    pytest.fail(f"jupyter lab did not answer within {timeout:.0f} s:\n{log.read_text()[-3000:]}")


def stop(server: subprocess.Popen) -> None:
    """End the server and the kernels it started (its own process group)."""
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    # Kernels left behind by a server that did not shut them down.
    try:
        os.killpg(server.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """JupyterLab serving a student's folder that holds notebook 01 with every exercise
    answered but one: the base URL, the token, the notebook, and the missing answer."""
    executable = chromium()
    root = tmp_path_factory.mktemp("student")
    answers = solution_sources(ASSIGNMENT)
    typed_answer = answers.pop(TYPED)
    wrong, [(_, named), *_] = WRONG[ASSIGNMENT][MISTAKE]
    [(mistake_id, mistake)] = wrong.items()
    notebook = student_submission(load(release_path(ASSIGNMENT)), {**answers, **wrong})
    relative = f"{ASSIGNMENT}/{ASSIGNMENT}.ipynb"
    (root / ASSIGNMENT).mkdir()
    (root / relative).write_text(json.dumps(notebook, indent=1, ensure_ascii=False))

    ARTIFACTS.mkdir(exist_ok=True)
    log = ARTIFACTS / "jupyter-lab.log"
    port, token = free_port(), secrets.token_hex(16)
    env = tool_env()
    # The student's lab, as `make lab` runs it: the course's Validate, no instructor tools.
    env["JUPYTER_CONFIG_PATH"] = f"{REPO / 'autograder/student_lab'}:{REPO / 'autograder'}"
    state = tmp_path_factory.mktemp("jupyter-state")
    # Settings and workspaces of this run only: nothing from, or left in, ~/.jupyter.
    env["JUPYTERLAB_SETTINGS_DIR"] = str(state / "settings")
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(state / "workspaces")
    env["JUPYTER_RUNTIME_DIR"] = str(state / "runtime")
    # No "Would you like to get notified about official Jupyter news?" over the notebook.
    news = state / "settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)
    news /= "notification.jupyterlab-settings"
    news.write_text(json.dumps({"fetchNews": "false"}))
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]  # fmt: skip
    if os.getuid() == 0:
        command.append("--allow-root")
    with open(log, "w") as out:
        server = subprocess.Popen(
            command, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_serving(f"{base}/api/status?token={token}", server, log, timeout=60)
        yield {
            "base": base, "token": token, "path": relative, "chromium": executable,
            "typed_answer": typed_answer, "file": root / relative,
            "mistake": mistake, "right": answers[mistake_id], "named": named,
        }  # fmt: skip
    finally:
        stop(server)


def scroll_to(page, locator, step: int = -500, tries: int = 60) -> None:
    """Bring ``locator`` to the middle of the screen. JupyterLab may leave cells far from the
    view out of the page (its windowing), so the notebook is scrolled with the mouse wheel
    until the element exists; cells rendered on the way can change height and move it, so
    it is scrolled to until it stays in view."""
    notebook = page.locator(".jp-NotebookPanel-notebook")
    box = notebook.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(tries):
        if not locator.count():
            page.mouse.wheel(0, step)
            page.wait_for_timeout(150)
            continue
        locator.first.evaluate("node => node.scrollIntoView({block: 'center'})")
        page.wait_for_timeout(200)
        where = locator.first.bounding_box()
        if where and box["y"] <= where["y"] and where["y"] + 20 <= box["y"] + box["height"]:
            return
    raise AssertionError(f"never scrolled into view: {locator}")


def type_answer(page, now_showing: str, answer: str) -> None:
    """Replace the text of the one code cell that shows ``now_showing`` by ``answer``."""
    cell = page.locator(".jp-CodeCell", has_text=now_showing)
    scroll_to(page, cell, step=400)
    expect(cell).to_have_count(1)
    index = cell.get_attribute("data-windowed-list-index")
    editor = page.locator(f'.jp-CodeCell[data-windowed-list-index="{index}"] .cm-content')
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(answer)
    expect(editor).to_contain_text(answer.splitlines()[-1].strip())
    page.keyboard.press("Escape")


def test_student_answers_runs_all_and_validates(lab):
    notebook = load(release_path(ASSIGNMENT))
    code_cells = sum(cell["cell_type"] == "code" for cell in notebook["cells"])
    points = next(
        nbgrader_meta(c)["points"] for c in notebook["cells"]
        if nbgrader_meta(c).get("grade_id") == CHECK
    )  # fmt: skip
    url = f"{lab['base']}/lab/workspaces/browser-test/tree/{lab['path']}?reset&token={lab['token']}"
    start = time.perf_counter()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=lab["chromium"], headless=True, args=CHROMIUM_ARGS
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(60_000)
        expect.set_options(timeout=60_000)
        try:
            page.goto(url)
            expect(page.locator(".jp-NotebookPanel")).to_be_visible()
            # The notebook's kernel has started and is waiting.
            indicator = page.locator(".jp-Notebook-ExecutionIndicator")
            expect(indicator).to_have_attribute("data-status", "idle")

            # One exercise still holds its stub and one has a mistake: Validate shows the
            # course's table, with the mistake named, not nbgrader's "Partial credit".
            failed = validate(page, "failed", "browser-validate-unanswered.png")
            assert re.search(r"Exercise 1 · project +· not attempted", failed), failed
            assert re.search(r"Exercise 2 · score +✗ failed", failed), failed
            assert " ".join(lab["named"].split()) in " ".join(failed.split()), failed
            assert "Partial credit" not in failed, failed

            # Type the answers into those cells, replacing the stub and the mistake.
            type_answer(page, "raise NotImplementedError()", lab["typed_answer"])
            type_answer(page, lab["mistake"].splitlines()[-1].strip(), lab["right"])

            # Run > Run All Cells; done when the last code cell has its execution count.
            page.locator(".lm-MenuBar-item", has_text=re.compile(r"^Run$")).click()
            page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
            expect(page.locator(".jp-InputPrompt", has_text=f"[{code_cells}]:")).to_be_visible()
            expect(indicator).to_have_attribute("data-status", "idle")

            # The exercise's check, as the student reads it: every check passed, full points.
            report = page.locator(".jp-OutputArea-output", has_text="Exercise 1 · project:")
            scroll_to(page, report)
            expect(report).to_contain_text(re.compile(r"\d+ of \d+ checks passed"))
            text = report.text_content()
            passed, total = map(int, re.search(r"(\d+) of (\d+) checks passed", text).groups())
            assert passed == total > 0 and "✗" not in text, text
            # ... and nothing else: no warning, no note about a changed notebook.
            assert text.strip().startswith("Exercise 1 · project:"), text
            check_cell = page.locator(".jp-CodeCell", has=report)
            expect(check_cell.locator(".jp-OutputArea-output").last).to_have_text(
                str(float(points))
            )
            page.screenshot(path=ARTIFACTS / "browser-check-cell.png")

            # Validate again: now it passes.
            passed_text = validate(page, "success", "browser-validate.png", show=report)
            assert "Success! Your notebook passes all the tests." in passed_text, passed_text
        except Exception:
            page.screenshot(path=ARTIFACTS / "browser-failure.png")
            raise
        finally:
            browser.close()
    # What Validate checked is the file the browser saved, with the typed answer in it.
    saved = {nbgrader_meta(c).get("grade_id"): c["source"] for c in load(lab["file"])["cells"]}
    assert "".join(saved[TYPED]).strip() == lab["typed_answer"].strip()
    print(f"browser session: {time.perf_counter() - start:.1f} s")


@pytest.mark.slow
def test_make_lab_opens_the_welcome_notebook_with_nothing_over_it(tmp_path):
    """`make lab` as a student runs it: the welcome notebook is open on arrival, no pop-up
    about Jupyter news covers it (the course's JupyterLab settings), and nbgrader shows the
    student's Validate without the instructor's tools or their exchange errors."""
    executable = chromium()
    port = free_port()
    env = tool_env()
    env.update(
        JUPYTERLAB_SETTINGS_DIR=str(tmp_path / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "workspaces"),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
    )
    log = ARTIFACTS / "make-lab.log"
    ARTIFACTS.mkdir(exist_ok=True)
    with open(log, "w") as out:
        server = subprocess.Popen(
            ["make", "-s", "lab", f"LAB_PORT={port}"],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while not (found := re.search(r"token=([0-9a-f]+)", log.read_text())):
            assert time.monotonic() < deadline and server.poll() is None, log.read_text()
            time.sleep(0.3)
        token = found.group(1)
        wait_until_serving(f"{base}/api/status?token={token}", server, log, timeout=60)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=executable, headless=True, args=CHROMIUM_ARGS
            )
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"{base}/?token={token}")
            current = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")
            expect(current).to_contain_text("00_welcome.ipynb", timeout=60_000)
            expect(page.locator(".jp-NotebookPanel")).to_be_visible()
            page.wait_for_timeout(3000)  # the news question, when asked, comes after a moment
            # Its kernel has started, and the notebook is not marked changed by it.
            expect(current).not_to_have_class(re.compile("jp-mod-dirty"))
            page.screenshot(path=ARTIFACTS / "browser-make-lab.png")
            assert page.get_by_text("official Jupyter news").count() == 0
            expect(page.locator(".validate-button")).to_be_visible()
            for instructor_only in ("Create Assignment", "Formgrader", "exchange directory"):
                assert page.get_by_text(instructor_only).count() == 0, instructor_only
            menus = page.locator(".lm-MenuBar-item").all_text_contents()
            assert "Run" in menus and "Nbgrader" not in menus, menus
            browser.close()
    finally:
        stop(server)
