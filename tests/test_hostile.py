"""A class of hostile notebooks (tests/hostile.py) graded with real nbgrader, bubblewrap and
the trusted checker, with honest students graded between them.

No hostile student may earn a point (its real answers are worth nothing), no honest student
may lose one or find a trace of another, the run must finish, and nothing outside the grading
folder may change.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import hostile
import pytest
from conftest import REPO, load, release_path, solution_sources, student_submission

from autograder.cells import grade_id
from autograder.grading import grade as pipeline
from autograder.grading import records
from autograder.grading.executors import DaskCluster, LocalPool
from autograder.grading.limits import Limits

A = "01_vector_attention"
FULL = 10
# CPU seconds per cell and notebook; the clock's backstops kept short, so that hostile
# notebooks that sleep or block do not hold the run up.
LIMITS = Limits(
    cell_timeout=8, notebook_timeout=60, memory_bytes=3 << 30, cell_wall=12, notebook_wall=60
)
HOSTILE = sorted(hostile.ATTACKS) + sorted(hostile.FORGERIES)
# Honest students sort between the hostile ones: "<n>a_attack", then "<n>b_honest", after
# every third attack (a worker an attack damaged stays damaged for whoever it grades next).
ORDER = {name: f"{n:02d}a_{name}" for n, name in enumerate(HOSTILE)}
HONEST = [f"{n:02d}b_honest" for n in range(0, len(HOSTILE), 3)]
LEFT_BEHIND = [Path("/tmp/pwned"), Path("/tmp/dask_pwned"), REPO / "written_by_a_student.txt"]
# A course that lives under /tmp stays in sight there, read-only (its packages and venv).
KEPT_IN_TMP = {REPO.parts[2]} if REPO.parts[1] == "tmp" else set()
# What a hostile notebook would print had it got through a wall.
BREACHES = re.compile(r"\b(READ /|SECRET|HIDDEN|CONNECTED|REACHED|KILLED|WROTE) ")


def notebook(name: str) -> dict:
    release = load(release_path(A))
    if name in hostile.FORGERIES:
        return hostile.FORGERIES[name](release)
    return student_submission(release, {"ex1_project": hostile.attack(name, str(REPO))})


def honest() -> dict:
    answers = solution_sources(A)
    answers["ex1_project"] += "\n" + hostile.PROBE
    return student_submission(load(release_path(A)), answers)


def write(submitted: Path, student: str, content: dict) -> None:
    path = submitted / student / A / f"{A}.ipynb"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(content))


def outputs(path: Path) -> str:
    """Everything a notebook's cells printed or displayed."""
    if not path.exists():
        return ""
    return "".join(
        "".join(o.get("text", ""))
        + str(o.get("evalue", ""))
        + (json.dumps(o["data"], ensure_ascii=False) if o.get("data") else "")
        for c in load(path)["cells"]
        for o in c.get("outputs", [])
    )


def git_status() -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--ignored"], cwd=REPO, capture_output=True, text=True
    ).stdout


@pytest.fixture(scope="module")
def graded(tmp_path_factory, bubblewrap):
    grading = tmp_path_factory.mktemp("hostile") / "grading"
    for name in HOSTILE:
        write(grading / "submitted", ORDER[name], notebook(name))
    for student in HONEST:
        write(grading / "submitted", student, honest())
    before = git_status()
    course = pipeline.Course(REPO, grading)
    summary = pipeline.grade_class(course, LocalPool(2), [A], LIMITS, progress=False)
    results = {
        p.parent.parent.name: json.loads(p.read_text())
        for p in grading.glob(f"autograded/*/{A}/{records.RESULT}")
    }
    return {
        "course": course,
        "summary": summary,
        "results": results,
        "before": before,
        "after": git_status(),
    }


def test_the_battery_is_large_and_the_run_finishes(graded):
    assert len(HOSTILE) >= 40
    assert set(graded["results"]) == set(ORDER.values()) | set(HONEST)


@pytest.mark.parametrize("name", HOSTILE)
def test_no_hostile_notebook_earns_a_point(graded, name):
    result = graded["results"][ORDER[name]]
    assert result["score"] == 0, result


@pytest.mark.parametrize("name", HOSTILE)
def test_no_wall_was_breached(graded, name):
    printed = outputs(graded["course"].autograded / ORDER[name] / A / f"{A}.ipynb")
    found = BREACHES.findall(printed)
    assert not found, found


@pytest.mark.parametrize("student", HONEST)
def test_honest_students_graded_between_them_keep_every_point(graded, student):
    result = graded["results"][student]
    assert result["score"] == FULL, (result["events"], result)
    printed = outputs(graded["course"].autograded / student / A / f"{A}.ipynb")
    tmp, cwd, planted = re.search(r"PROBE tmp: (.*) cwd: (.*) planted: (\w+)", printed).groups()
    # A fresh /tmp holds only this kernel's own connection file, sockets and working folder,
    # which holds only what IPython keeps there.
    assert set(ast.literal_eval(tmp)) <= {".kernel", "kernel-1.json", "work", *KEPT_IN_TMP}, tmp
    assert set(ast.literal_eval(cwd)) <= {".ipython", ".matplotlib", ".cache"}, cwd
    assert planted == "False", cwd


def test_nothing_outside_the_grading_folder_changed(graded):
    assert graded["after"] == graded["before"]
    assert not [path for path in LEFT_BEHIND if path.exists()]


@pytest.mark.parametrize(
    "name, kind, text",
    [
        ("rich_output", "output", "was cut"),
        ("display_updates", "output", "was cut"),
        ("fork_bomb", None, ""),
        ("patch_torch", "suspicious", "replaces torch.allclose"),
        ("input_transformer", "suspicious", "rewrites later cells"),
        ("forge_extra_cell", None, ""),
    ],
)
def test_the_report_names_what_happened(graded, name, kind, text):
    result = graded["results"][ORDER[name]]
    assert f"**{ORDER[name]}**" in graded["summary"] or kind is None
    if kind:
        assert any(text in e["message"] for e in result["events"] if e["kind"] == kind), result[
            "events"
        ]


def test_a_hostile_student_cannot_reach_the_dask_worker(tmp_path, bubblewrap):
    """On a Dask cluster the scheduler listens on loopback: a kernel has no network at all."""
    from distributed import LocalCluster

    grading = tmp_path / "grading"
    marker = tmp_path / "ran_in_the_dask_worker"
    with LocalCluster(
        n_workers=1, threads_per_worker=1, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        code = hostile.ATTACKS["dask"].replace("tcp://127.0.0.1:8786", cluster.scheduler_address)
        code = code.replace("/tmp/dask_pwned", str(marker))
        write(
            grading / "submitted",
            "attacker",
            student_submission(load(release_path(A)), {"ex1_project": code}),
        )
        write(grading / "submitted", "honest", honest())
        executor = DaskCluster(cluster.scheduler_address)
        pipeline.grade_class(pipeline.Course(REPO, grading), executor, [A], LIMITS, progress=False)
        executor.client.close()
    scores = {
        p.parent.parent.name: json.loads(p.read_text())["score"]
        for p in grading.glob(f"autograded/*/{A}/{records.RESULT}")
    }
    assert scores == {"attacker": 0, "honest": FULL}
    assert not marker.exists()
    printed = outputs(grading / "autograded" / "attacker" / A / f"{A}.ipynb")
    assert "blocked" in printed and "REACHED DASK" not in printed


# --- round 2 (issue 26): the kernel sees nothing it does not need, and no submission gains
# points silently. One class: every attack below, with honest students graded between them.

ROUND_2 = sorted(hostile.CELL_ATTACKS) + ["r2_page_script", "r3_escapes_in_notes"]
ORDER_2 = {name: f"{n:02d}a_{name}" for n, name in enumerate(ROUND_2)}
HONEST_2 = [f"{n:02d}b_honest" for n in range(0, len(ROUND_2), 4)]
TOKEN = "fake-secret-token-for-the-grader"


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory):
    """A second copy of the course and a file of fake secrets, outside the course and /tmp."""
    base = Path("/srv") if os.access("/srv", os.W_OK) else Path.home()
    root = Path(tempfile.mkdtemp(prefix="course-copy-", dir=base))
    shutil.copytree(REPO / "solutions" / A, root / "solutions" / A)
    (root / "secrets.txt").write_text("fake-secret: the instructor's API key\n")
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def graded_round_2(tmp_path_factory, elsewhere, bubblewrap):
    grading = tmp_path_factory.mktemp("hostile2") / "grading"
    release = load(release_path(A))
    for name in ROUND_2:
        if name == "r2_page_script":
            content = hostile.page_attack(student_submission(release, {}))
        elif name == "r3_escapes_in_notes":
            content = hostile.escapes_attack(student_submission(release, {}))
        else:
            answers = hostile.cell_attack(name, str(elsewhere), str(elsewhere / "secrets.txt"))
            content = student_submission(release, answers)
        write(grading / "submitted", ORDER_2[name], content)
    for student in HONEST_2:
        write(grading / "submitted", student, honest())
    before = git_status()
    os.environ["COURSE_GRADER_TOKEN"] = TOKEN  # the workers inherit it; kernels must not
    try:
        course = pipeline.Course(REPO, grading)
        summary = pipeline.grade_class(course, LocalPool(2), [A], LIMITS, progress=False)
    finally:
        del os.environ["COURSE_GRADER_TOKEN"]
    results = {
        p.parent.parent.name: json.loads(p.read_text())
        for p in grading.glob(f"autograded/*/{A}/{records.RESULT}")
    }
    return {
        "course": course,
        "summary": summary,
        "results": results,
        "before": before,
        "after": git_status(),
    }


def test_round_2_is_large_and_finishes(graded_round_2):
    assert len(ROUND_2) >= 25
    assert set(graded_round_2["results"]) == set(ORDER_2.values()) | set(HONEST_2)


@pytest.mark.parametrize("name", ROUND_2)
def test_no_round_2_attack_gains_points_silently(graded_round_2, name):
    result = graded_round_2["results"][ORDER_2[name]]
    flagged = [e for e in result["events"] if e["kind"] == "opaque"]
    if name in hostile.FLAGGED:
        assert flagged, result["events"]
    else:
        assert result["score"] == 0, (result["score"], result["events"])


@pytest.mark.parametrize("name", ROUND_2)
def test_no_round_2_wall_was_breached(graded_round_2, name):
    course = graded_round_2["course"]
    printed = outputs(course.autograded / ORDER_2[name] / A / f"{A}.ipynb")
    feedback = (course.feedback / ORDER_2[name] / A / f"{A}.html").read_text()
    assert not BREACHES.findall(printed) and TOKEN not in printed + feedback


@pytest.mark.parametrize("student", HONEST_2)
def test_honest_students_of_round_2_keep_every_point(graded_round_2, student):
    result = graded_round_2["results"][student]
    assert result["score"] == FULL, (result["events"], result)
    assert not [e for e in result["events"] if e["kind"] == "opaque"], result["events"]


def test_round_2_changed_nothing_outside_the_grading_folder(graded_round_2):
    assert graded_round_2["after"] == graded_round_2["before"]


def test_a_refused_function_scores_0_with_the_message_students_know(graded_round_2):
    course = graded_round_2["course"]
    notebook = course.autograded / ORDER_2["r2_default_argument"] / A / f"{A}.ipynb"
    assert "your answer calls torch.softmax (your answer cell ex3_softmax, line 1)" in outputs(
        notebook
    )


def test_output_printed_during_hidden_checks_stays_out_of_the_feedback(graded_round_2):
    course = graded_round_2["course"]
    notebook = load(course.autograded / ORDER_2["r2_prints_hidden_inputs"] / A / f"{A}.ipynb")
    cell = next(
        c
        for c in notebook["cells"]
        if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == "ex1_tests"
    )
    text = "".join("".join(o.get("text", "")) for o in cell["outputs"])
    note = "during the hidden checks: they are not shown"
    assert note in text and "LEAKED-INPUT" in text.split(note)[0]  # visible checks show it
    assert "LEAKED-INPUT" not in text.split(note)[1], text


def test_the_checks_budget_ends_an_endless_walk_and_a_slow_answer(graded_round_2):
    results = graded_round_2["results"]
    for name in ("r2_walked_item_by_item", "r2_slow_every_call", "r2_ignores_interrupts"):
        assert results[ORDER_2[name]]["seconds"] < LIMITS.notebook_timeout + 30, name


def _no_script_runs(page, url: str) -> list[str]:
    """Open ``url``; what the student's script would have done if any of it ran."""
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(url)
    page.wait_for_timeout(1500)  # onerror handlers and srcdoc frames have fired by now
    ran = dialogs + (["window.pwned"] if page.evaluate("() => window.pwned === true") else [])
    for frame in page.frames:
        try:
            if frame.evaluate("() => window.pwned === true || document.title === 'PWNED'"):
                ran.append(f"frame {frame.url}")
        except Exception:  # noqa: BLE001 - a frame the page may not script: nothing ran there
            pass
    return ran + (["title"] if page.title() == "PWNED" else [])


def test_a_feedback_page_runs_no_student_script_in_chromium(graded_round_2):
    from playwright.sync_api import sync_playwright
    from test_browser import CHROMIUM_ARGS, chromium

    page_path = graded_round_2["course"].feedback / ORDER_2["r2_page_script"] / A / f"{A}.html"
    html = page_path.read_text()
    assert "Content-Security-Policy" in html and "&lt;script&gt;" in html
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium(), headless=True, args=CHROMIUM_ARGS
        )
        try:
            assert _no_script_runs(browser.new_page(), page_path.as_uri()) == []
        finally:
            browser.close()


def _formgrader(
    root: Path, gradebook: Path, student: str, tmp_path: Path, policy: bool = True
) -> tuple[list[str], str, str]:
    """Open ``student``'s autograded notebook in nbgrader's Formgrader, in a real Jupyter
    server as `make instructor` starts it (its configuration from autograder/, unless not
    ``policy``), in Chromium: (what the student's script did, the page as shown, the page's
    script policy)."""
    from nbgrader.api import Gradebook
    from playwright.sync_api import sync_playwright
    from test_browser import CHROMIUM_ARGS, chromium, free_port, stop, wait_until_serving

    executable = chromium()
    config = tmp_path / "config"
    config.mkdir(parents=True)
    (config / "nbgrader_config.py").write_text(
        f"load_subconfig({str(REPO / 'autograder' / 'nbgrader_config.py')!r})\n"
        f"c.CourseDirectory.root = {str(root)!r}\n"
        f"c.CourseDirectory.db_url = 'sqlite:///{gradebook}'\n"
    )
    with Gradebook(f"sqlite:///{gradebook}") as grades:
        submission = grades.find_submission_notebook(A, A, student).id
    port, token = free_port(), "formgrader-test-token"
    paths = [str(config)] + ([str(REPO / "autograder")] if policy else [])
    env = dict(
        os.environ,
        JUPYTER_CONFIG_PATH=os.pathsep.join(paths),
        JUPYTER_PREFER_ENV_PATH="1",
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
    )
    log = tmp_path / "server.log"
    command = [
        sys.executable,
        "-m",
        "jupyter_server",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
    ] + (["--allow-root"] if os.getuid() == 0 else [])
    with open(log, "w") as out:
        server = subprocess.Popen(
            command, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_serving(f"{base}/api/status?token={token}", server, log, timeout=60)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=executable, headless=True, args=CHROMIUM_ARGS
            )
            try:
                page = browser.new_page()
                response = page.request.get(
                    f"{base}/formgrader/submissions/{submission}/?token={token}"
                )
                policies = response.headers_array
                ran = _no_script_runs(
                    page, f"{base}/formgrader/submissions/{submission}/?token={token}"
                )
                shown = page.content()
                own = page.evaluate("() => typeof toggle_name === 'function' && submission_id")
            finally:
                browser.close()
    finally:
        stop(server)
    assert "My notes" in shown, log.read_text()[-3000:]  # the student's notebook was shown
    assert own == submission, own  # nbgrader's own scripts ran
    script_policy = " ".join(
        h["value"]
        for h in policies
        if h["name"].lower() == "content-security-policy" and "script-src" in h["value"]
    )
    return ran, shown, script_policy


def test_the_formgrader_shows_the_same_notebook_to_the_instructor_without_its_script(
    graded_round_2, tmp_path
):
    course = graded_round_2["course"]
    ran, _, policy = _formgrader(
        course.grading.parent, course.gradebook, ORDER_2["r2_page_script"], tmp_path
    )
    assert ran == [], ran
    assert "script-src" in policy and "'unsafe-inline'" not in policy, policy


def test_formgraders_script_policy_alone_stops_a_script_the_cleaning_let_through(
    graded_round_2, tmp_path
):
    """The second wall: an image width that nbconvert writes unquoted into the page
    (``width=1 onerror=...``), put back into an autograded notebook as if the grader's
    cleaning had missed it. Without the policy it runs in the instructor's session (the
    test's own control); with it, it does not, and nbgrader's own scripts still do."""
    grading = tmp_path / "course" / "grading"
    shutil.copytree(graded_round_2["course"].grading, grading)
    student = ORDER_2["r2_page_script"]
    path = grading / "autograded" / student / A / f"{A}.ipynb"
    notebook = load(path)
    script = "window.pwned=true;document.title=String.fromCharCode(80,87,78,69,68)"  # unquoted
    cell = next(c for c in notebook["cells"] if c["cell_type"] == "code")
    cell["outputs"] = [
        {
            "output_type": "display_data",
            "data": {"image/png": "broken"},
            "metadata": {"image/png": {"width": f"1 onerror={script}"}},
        }
    ]
    path.write_text(json.dumps(notebook))
    gradebook = grading / graded_round_2["course"].gradebook.name
    without, shown, _ = _formgrader(
        grading.parent, gradebook, student, tmp_path / "a", policy=False
    )
    assert "onerror" in shown and without, without  # the control: this page can be attacked
    ran, _, policy = _formgrader(grading.parent, gradebook, student, tmp_path / "b")
    assert ran == [], (ran, policy)


def test_student_text_never_passes_for_the_graders_own(graded_round_2):
    """Found by a blind attacker: an exception message with line breaks and colours printed
    fake check lines into the check's output, and a cell's first line quoted in the notes
    carried terminal escapes into `make grade`'s output, the report and grades.csv."""
    course = graded_round_2["course"]
    student = ORDER_2["r3_forged_check_lines"]
    # The check cells' outputs (what a student prints in their own cells is theirs anyway).
    cells = load(course.autograded / student / A / f"{A}.ipynb")["cells"]
    printed = "".join(
        "".join(o.get("text", ""))
        for c in cells
        if (grade_id(c) or "").endswith("_tests")
        for o in c.get("outputs", [])
    )
    assert "FORGED" in printed  # shown, as the student's text ...
    assert not re.search(r"^\s*✓ FORGED|^Exercise 2: 8 of 8", printed, re.MULTILINE)
    assert "\x1b" not in printed and "\r" not in printed  # ... on one line, escapes inert
    said = [
        e["message"] for e in graded_round_2["results"][ORDER_2["r3_escapes_in_notes"]]["events"]
    ]
    assert any("pwned" in message for message in said), said
    for text in [
        graded_round_2["summary"],
        (course.grading / "report.md").read_text(),
        (course.grading / "grades.csv").read_text(),
        *said,
    ]:
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", text)


def test_a_students_printout_never_becomes_the_report(graded_round_2):
    """Found by an attacker who read the grader's source: what an answer printed during the
    visible checks ("This matches <img ...> | **fake column** ...") was read back as the
    class's most common mistake, unescaped. The report now reads the checker's records."""
    course = graded_round_2["course"]
    student = ORDER_2["r4_printout_as_diagnosis"]
    printed = outputs(course.autograded / student / A / f"{A}.ipynb")
    assert hostile.REPORT_INJECTION in printed  # shown to the student, as their own print
    report_md = (course.grading / "report.md").read_text()
    assert "fake column" not in report_md and "<img" not in report_md
    assert "every student" not in report_md
    assert not re.search(r"(?<!\\)\[x\]\(javascript", report_md)
    named = graded_round_2["results"][student]["outcomes"]["ex1_tests"]
    assert (named["status"], named["named"]) == ("not attempted", "")


def test_an_alias_web_is_read_in_a_moment_and_refused(graded_round_2):
    result = graded_round_2["results"][ORDER_2["r4_alias_web"]]
    assert result["score"] == 0 and result["seconds"] < 120, result["seconds"]


def test_what_the_reader_cannot_prove_is_flagged_with_its_line(graded_round_2):
    """Round 4: every route past the reader that it cannot prove (an import of a module the
    notebook wrote, pydoc, timeit, code, eval rebound, getattr renamed or folded, a dunder
    of a computed object) is in "needs a look" with the line that holds it."""
    for name in sorted(n for n in hostile.FLAGGED if n.startswith("r4_")):
        said = [
            e["message"]
            for e in graded_round_2["results"][ORDER_2[name]]["events"]
            if e["kind"] == "opaque"
        ]
        assert any(re.search(r"line \d+|an import", m) for m in said), (name, said)


def test_a_course_fallback_counts_as_the_courses_function(graded_round_2):
    result = graded_round_2["results"][ORDER_2["r4_calls_the_course_fallback"]]
    assert result["score"] == 0
    notebook = graded_round_2["course"].autograded / ORDER_2["r4_calls_the_course_fallback"]
    assert "your answer calls transformer_course.columns.project" in outputs(
        notebook / A / f"{A}.ipynb"
    )


# A student of notebook 10 whose autograd Functions give zero gradients, and whose notebook
# replaces its own PyTorch's gradcheck to say yes.
GRADIENTS = "10_attention_at_scale"
ZEROS = "torch.zeros_like(Q), torch.zeros_like(K), torch.zeros_like(V)"
FORGED_GRADCHECK = [
    (
        "class AttentionFunction(",
        "torch.autograd.gradcheck = lambda *a, **k: True\n\n\nclass AttentionFunction(",
    ),
    ("return dQ, dK, dV, None\n", f"return {ZEROS}, None\n"),
    ("return dQ, dK, dV, None, None, None", f"return {ZEROS}, None, None, None"),
]


def test_gradients_and_gradcheck_are_the_checkers_whatever_the_kernels_pytorch_says(
    tmp_path, bubblewrap
):
    """Issue "Trusted grading, round 3": the checker computes the gradients and gradcheck's
    verdicts itself, from what the student's forward and backward return over the wire
    (autograder/trusted/across.py), so a gradcheck replaced in the kernel passes nothing.
    (Plain nbgrader, which runs the checks in the kernel, gives this student the four
    gradcheck checks.)"""
    answers = solution_sources(GRADIENTS)
    for old, new in FORGED_GRADCHECK:
        assert answers["ex5_autograd_functions"].count(old) == 1, old
        answers["ex5_autograd_functions"] = answers["ex5_autograd_functions"].replace(old, new)
    grading = tmp_path / "grading"
    path = grading / "submitted" / "forger" / GRADIENTS / f"{GRADIENTS}.ipynb"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(student_submission(load(release_path(GRADIENTS)), answers)))
    pipeline.grade_class(
        pipeline.Course(REPO, grading), LocalPool(1), [GRADIENTS], Limits(), progress=False
    )
    printed = outputs(grading / "autograded" / "forger" / GRADIENTS / f"{GRADIENTS}.ipynb")
    lines = [line.strip() for line in printed.splitlines() if line.strip()[:1] in "✓✗"]
    gradchecks = [line for line in lines if "passes" in line and "gradcheck" in line]
    assert len(gradchecks) == 4 and all(line.startswith("✗") for line in gradchecks), lines
    assert all(line.startswith("✗") for line in lines if "from its backward pass" in line)
    assert any(line.startswith("✓") for line in lines if ": the output" in line)  # forward right
