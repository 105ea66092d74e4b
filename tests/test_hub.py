"""The course on a real JupyterHub, as a university runs it, driven in a browser.

`deploy/hub/install.py` (what `sudo make hub` runs) makes this machine a hub from the
instructor's clone: Unix users for the instructor and two students, the servers' shared
environment, nbgrader's exchange and JupyterHub with configurable-http-proxy, logging in
with Unix passwords. Then the whole round, each person as their own Unix user:

1. the instructor (not root) releases notebook 01 and finds Formgrader in their JupyterLab;
2. each student logs in through the hub's page in Chromium, lands on the welcome notebook,
   fetches the assignment from the Assignments tab, answers it (one student rightly, one
   with a mistake and an exercise left blank), presses Validate and reads the course's
   table with the mistake named, and submits;
3. the instructor collects, runs `make grade` and releases the feedback;
4. each student fetches their feedback and opens it;
5. a student can read neither the instructor's solutions nor a classmate's work.

Screenshots of each step go to test-artifacts/hub-*.png.
"""

from __future__ import annotations

import contextlib
import csv
import json
import re
import time
from pathlib import Path

import hub as hub_tools
import pytest
from browser import ARTIFACTS, CHROMIUM_ARGS, chromium, validate
from conftest import load, solution_sources, student_submission
from playwright.sync_api import expect, sync_playwright
from submissions import WRONG

A = "01_vector_attention"
MISTAKE = "no_scaling"  # one student's mistake, which Validate must name


@pytest.fixture(scope="module")
def hub():
    if why := hub_tools.missing():
        pytest.skip(f"no hub here: {why}")
    ARTIFACTS.mkdir(exist_ok=True)
    course = hub_tools.Hub(students=2, log=ARTIFACTS / "hub.log")
    try:
        course.install()
        course.start()
        yield course
    finally:
        course.close()


@contextlib.contextmanager
def session(hub, browser, user: str, name: str):
    """A browser of ``user``'s own, logged in through the hub; a screenshot if it fails."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(120_000)
    try:
        hub.login(page, user)
        if user != hub.instructor:  # the welcome notebook opens first: wait for it
            expect(
                page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")
            ).to_contain_text("00_welcome.ipynb")
        yield page
    except Exception:
        page.screenshot(path=ARTIFACTS / f"{name}-failure.png")
        raise
    finally:
        context.close()


def open_menu_item(page, menu: str, item: str) -> None:
    page.locator(".lm-MenuBar-item", has_text=re.compile(f"^{menu}$")).click()
    page.locator(".lm-Menu-item", has_text=re.compile(f"^{item}$")).first.click()


def answers_for(student: int) -> tuple[dict[str, str], str | None]:
    """The first student's answers are right; the second's have one mistake (named by the
    checks as ``named``) and leave exercise 1 as the stub."""
    answers = solution_sources(A)
    if student == 0:
        return answers, None
    wrong, [(_, named), *_] = WRONG[A][MISTAKE]
    answers |= wrong
    del answers["ex1_project"]
    return answers, named


def student_round(hub, browser, student: int) -> str:
    """Log in, fetch, answer, validate, submit; what Validate said."""
    user = hub.students[student]
    with session(hub, browser, user, f"hub-student{student}") as page:
        current = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")
        expect(current).to_contain_text("00_welcome.ipynb")  # delivered, and opened first
        expect(current).not_to_have_class(re.compile("jp-mod-dirty"))  # not marked changed
        page.wait_for_timeout(2000)  # the news question, when asked, comes after a moment
        assert page.get_by_text("official Jupyter news").count() == 0
        page.screenshot(path=ARTIFACTS / f"hub-student{student}-welcome.png")

        # nbgrader's menu holds the Assignments tab only: no instructor tools.
        page.locator(".lm-MenuBar-item", has_text=re.compile("^Nbgrader$")).click()
        items = [t for t in page.locator(".lm-Menu-itemLabel").all_inner_texts() if t]
        assert items == ["Assignment List"], items
        page.keyboard.press("Escape")
        assert page.get_by_text("Create Assignment").count() == 0
        open_menu_item(page, "Nbgrader", "Assignment List")
        released = page.locator("#released_assignments_list .list_item", has_text=A)
        released.get_by_role("button", name="Fetch").click()
        downloaded = page.locator("#fetched_assignments_list .list_item", has_text=A)
        expect(downloaded.first).to_be_visible()
        page.screenshot(path=ARTIFACTS / f"hub-student{student}-fetched.png")

        path = Path(hub.home(user)) / A / f"{A}.ipynb"
        answers, named = answers_for(student)
        hub.write_as(user, path, hub_tools.notebook_json(student_submission(load(path), answers)))
        page.goto(f"{hub.base}/user/{user}/lab/tree/{A}/{A}.ipynb")
        expect(current).to_contain_text(f"{A}.ipynb")  # opened after the restored welcome
        panel = page.locator(f"[id='{current.get_attribute('data-id')}']")
        indicator = panel.locator(".jp-Notebook-ExecutionIndicator")
        expect(indicator).to_have_attribute("data-status", "idle")
        said = validate(
            page, "success" if named is None else "failed", f"hub-student{student}-validate.png"
        )
        if named is not None:  # the course's table, with the mistake named
            assert re.search(r"Exercise 1 · project +· not attempted", said), said
            assert " ".join(named.split()) in " ".join(said.split()), said
            assert "Partial credit" not in said, said

        open_menu_item(page, "Nbgrader", "Assignment List")
        page.locator("#fetched_assignments_list .list_item", has_text=A).get_by_role(
            "button", name="Submit"
        ).first.click()
        expect(
            page.locator("#submitted_assignments_list .list_item", has_text=A).first
        ).to_be_visible()
        page.screenshot(path=ARTIFACTS / f"hub-student{student}-submitted.png")
        return said


def student_feedback(hub, browser, student: int) -> str:
    """Fetch the feedback from the Assignments tab and open it; its text."""
    user = hub.students[student]
    with session(hub, browser, user, f"hub-student{student}") as page:
        open_menu_item(page, "Nbgrader", "Assignment List")
        submitted = page.locator("#submitted_assignments_list .list_item", has_text=A).first
        submitted.get_by_role("button", name="Fetch Feedback").click()
        expect(page.get_by_text("view feedback").first).to_be_visible()
        page.screenshot(path=ARTIFACTS / f"hub-student{student}-feedback-fetched.png")
        (page_file,) = (Path(hub.home(user)) / A / "feedback").rglob(f"{A}.html")
        relative = page_file.relative_to(hub.home(user))
        page.goto(f"{hub.base}/user/{user}/files/{relative}")
        expect(page.get_by_text("Exercise 6 · self_attention").first).to_be_visible()
        page.screenshot(path=ARTIFACTS / f"hub-student{student}-feedback.png")
        return page_file.read_text()


def instructor_formgrader(hub, browser) -> None:
    with session(hub, browser, hub.instructor, "hub-instructor") as page:
        open_menu_item(page, "Nbgrader", "Formgrader")
        frame = page.frame_locator("iframe").first
        expect(frame.get_by_text("Manage Assignments").first).to_be_visible()
        expect(frame.get_by_text(A).first).to_be_visible()
        page.screenshot(path=ARTIFACTS / "hub-instructor-formgrader.png")


PLANT = f"""
import getpass, os, sys
exchange, victim, solutions = sys.argv[1:]
inbound = os.path.join(exchange, "transformer-course", "inbound")
later = "2099-01-01 00:00:00.000000 UTC"
mine = os.path.join(inbound, f"{{getpass.getuser()}}+{A}+{{later}}+link")
os.mkdir(mine)
os.symlink(solutions, os.path.join(mine, "{A}.ipynb"))
theirs = os.path.join(inbound, f"{{victim}}+{A}+{{later}}+forged")
os.mkdir(theirs)
open(os.path.join(theirs, "{A}.ipynb"), "w").write("{{}}")
"""


def test_a_class_round_through_the_hub(hub):
    timings = dict(hub.timings)
    instructor, clone = hub.instructor, hub.clone
    assert not [p for p in clone.rglob("*") if p.owner() != instructor], (
        "the set-up left files of another owner in the instructor's clone"
    )

    def as_instructor(*command: str):
        started = time.perf_counter()
        done = hub.run(instructor, *command, cwd=clone)
        timings[" ".join(command[:2])] = time.perf_counter() - started
        assert done.returncode == 0, f"{command}:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        return done

    as_instructor("nbgrader", "release_assignment", A)
    executable = chromium()
    expect.set_options(timeout=120_000)
    started = time.perf_counter()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        instructor_formgrader(hub, browser)
        for student in range(2):
            student_round(hub, browser, student)
        timings["students: log in, fetch, validate, submit"] = time.perf_counter() - started

        # The second student attacks the exchange before the instructor collects: a newer
        # hand-in whose notebook is a link to the instructor's solutions, and one in the
        # first student's name. Neither is collected; each keeps their own hand-in.
        attack = hub.run(
            hub.students[1],
            "python3",
            "-c",
            PLANT,
            str(hub.exchange),
            hub.students[0],
            str(clone / "solutions" / A / f"{A}.ipynb"),
        )
        assert attack.returncode == 0, attack.stderr
        collected = as_instructor("nbgrader", "collect", A)
        assert collected.stderr.count("Not collected") == 2, collected.stderr
        graded = as_instructor("make", "grade")
        assert f"{A}: 2 students" in graded.stdout, graded.stdout
        assert "readable by every user" not in graded.stdout  # the set-up made it private
        as_instructor("nbgrader", "release_feedback", A)
        rows = {
            row["student"]: row for row in csv.DictReader((clone / "grading" / "grades.csv").open())
        }
        right, slipped = (rows[name] for name in hub.students)
        assert right["status"] == slipped["status"] == "graded"
        assert float(right["score"]) == 10 and 0 < float(slipped["score"]) < 10

        started = time.perf_counter()
        pages = [student_feedback(hub, browser, student) for student in range(2)]
        timings["students: fetch and open feedback"] = time.perf_counter() - started
        browser.close()
    assert "BEGIN HIDDEN TESTS" not in pages[1]
    _, named = answers_for(1)
    assert " ".join(named.split()) in " ".join(re.sub(r"<[^>]+>", " ", pages[1]).split())

    # What a student cannot read: the instructor's solutions, gradebook and grades, and a
    # classmate's work.
    first, second = hub.students
    for path in [
        clone / "solutions" / A / f"{A}.ipynb",
        clone / "grading" / "gradebook.db",
        clone / "grading" / "grades.csv",
        clone / ".git" / "HEAD",
        Path(hub.home(second)) / A / f"{A}.ipynb",
    ]:
        read = hub.run(first, "cat", str(path))
        assert read.returncode != 0 and "Permission denied" in read.stderr, path
    (ARTIFACTS / "hub-timings.json").write_text(json.dumps(timings, indent=1))
    print("hub round:", {k: round(v, 1) for k, v in timings.items()})
