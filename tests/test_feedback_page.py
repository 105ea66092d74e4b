"""The feedback page `make grade` writes reads well offline (autograder/grading/feedback_page.py).

One student of notebook 01 with a known mistake (no 1/√D scaling) and exercise 6 left as
released is graded by the pipeline; the tests read the page it wrote: maths as MathML and no
script from the network, output text that wraps, a table of contents that names the
exercises, no empty "No response." comments; then Chromium opens it with
the network cut off. A last test checks that plain nbgrader's kernels start without
ipykernel's warning about unencrypted TCP (autograder/nbgrader_config.py).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap

import pytest
from conftest import REPO, load, release_path, solution_sources, student_submission
from submissions import WRONG

from autograder.grading import feedback_page
from autograder.grading import grade as pipeline
from autograder.grading.executors import LocalPool
from course_checks.selfcheck import expected_exercises

A = "01_vector_attention"
STUDENT = "no_scaling"
UNANSWERED = "ex6_self_attention"  # left as released
ARTIFACTS = REPO / "test-artifacts"


@pytest.fixture(scope="module")
def feedback(tmp_path_factory, bubblewrap):
    """The feedback page of one wrong submission, as `make grade` writes it."""
    grading = tmp_path_factory.mktemp("feedback") / "grading"
    answers, _ = WRONG[A][STUDENT]
    right = {k: v for k, v in solution_sources(A).items() if k != UNANSWERED}
    notebook = student_submission(load(release_path(A)), right | answers)
    submitted = grading / "submitted" / STUDENT / A / f"{A}.ipynb"
    submitted.parent.mkdir(parents=True)
    submitted.write_text(json.dumps(notebook))
    pipeline.grade_class(pipeline.Course(REPO, grading), LocalPool(1), [A], progress=False)
    path = grading / "feedback" / STUDENT / A / f"{A}.html"
    return {"path": path, "html": path.read_text()}


def test_the_page_loads_no_script(feedback):
    page = feedback["html"]
    assert not re.search(r"<script[^>]*\bsrc=", page)
    assert "MathJax" not in page and "cdnjs" not in page


def test_maths_is_rendered_to_mathml_when_the_page_is_written(feedback):
    page = feedback["html"]
    assert page.count("<math") > 20
    assert "<msqrt>" in page and "<mfrac>" in page  # 1/√D, the softmax's fraction
    assert "\\sqrt" not in page and "\\frac" not in page  # no TeX left for a browser to show


def test_output_text_wraps(feedback):
    page = feedback["html"]
    style = re.search(r"div\.output_area pre[^{]*\{([^}]*)\}", page)
    assert style and "white-space: pre-wrap" in style[1] and "overflow-wrap: anywhere" in style[1]
    # The diagnosis the page must show, on a line too long for it.
    assert "This matches the plain dot product, without the 1/√D scaling" in page


def test_the_contents_name_the_exercises(feedback):
    toc = re.search(r'<div id="toc">(.*?)</div>', feedback["html"], re.S)[1]
    entries = re.findall(r'<li><a href="#(\w+)">([^<]+)</a>', toc)
    expected = list(expected_exercises(load(release_path(A))))
    assert [name for _, name in entries] == expected
    assert expected[2] == "Exercise 3 · softmax"
    assert entries[1][0] == "ex2_tests" and "Test cell" not in toc


def test_the_points_are_the_grade_there(feedback):
    """A check cell tells a student its points are not the grade; graded, they are."""
    assert "not your grade" not in feedback["html"]


def test_an_answer_left_as_released_gets_no_empty_comment(feedback):
    page = feedback["html"]
    assert "Exercise 6 · self_attention: 0 of 4 checks passed" in page
    assert "not attempted yet" in page  # what the check cell says instead
    assert "No response" not in page and "Comments:" not in page
    toc = re.search(r'<div id="toc">(.*?)</div>', page, re.S)[1]
    assert ">Comment<" not in toc


def test_the_page_renders_offline_in_chromium(feedback):
    from playwright.sync_api import sync_playwright
    from test_browser import CHROMIUM_ARGS, chromium

    executable = chromium()
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 1200})
            network = []

            def offline(route):  # the page may read files; anything else is refused
                if route.request.url.startswith("file:"):
                    route.continue_()
                else:
                    network.append((route.request.resource_type, route.request.url))
                    route.abort()

            page.route("**/*", offline)
            page.goto(feedback["path"].as_uri())
            # Nothing the page needs comes from the network (the notebook's "Open in Colab"
            # badge, an image, is all it asks for: offline it shows its alt text).
            assert [(kind, url) for kind, url in network if kind != "image"] == []
            # MathML is laid out (an unknown element would be an inline box of plain text).
            sqrt = page.locator("msqrt").first.bounding_box()
            assert sqrt and sqrt["height"] > 10
            # No output runs past its box, however long its lines.
            overflowing = page.evaluate("""() => [...document.querySelectorAll(
                'div.output_area pre')].filter(pre => pre.scrollWidth > pre.clientWidth + 1)
                .map(pre => pre.textContent.slice(0, 80))""")
            assert overflowing == []
            report = page.locator("div.output_subarea", has_text="Exercise 2 · score").first
            report.scroll_into_view_if_needed()
            page.screenshot(path=ARTIFACTS / "feedback-page.png")
        finally:
            browser.close()


def test_tex_that_does_not_convert_shows_as_its_source(monkeypatch):
    assert feedback_page.mathml(r"\sqrt{d_k}").startswith("<math")
    for tex in (r"\frac{1", r"\frac{a}", r"\unknowncommand{x}"):
        assert feedback_page.mathml(tex) == f'<code class="tex">${tex}$</code>'
    assert 'display="block"' in feedback_page.mathml("a < b", display=True)
    # Without latex2mathml the page is still written, with every formula as TeX.
    monkeypatch.setitem(sys.modules, "latex2mathml.converter", None)
    feedback_page._converter.cache_clear()
    try:
        assert feedback_page.mathml("x < y") == '<code class="tex">$x &lt; y$</code>'
    finally:
        feedback_page._converter.cache_clear()


def test_every_formula_of_the_course_converts():
    from nbconvert.filters.markdown_mistune import MarkdownWithMath

    notebooks = sorted((REPO / "solutions").glob("*/*.ipynb"))
    fallbacks = []
    for path in notebooks:
        for cell in load(path)["cells"]:
            source = "".join(cell["source"])
            if cell["cell_type"] == "markdown" and "$" in source:
                renderer = feedback_page.MathMLRenderer(attachments=cell.get("attachments"))
                html = MarkdownWithMath(renderer=renderer).render(source)
                fallbacks += re.findall(r'<code class="tex[^"]*">([^<]*)</code>', html)
    assert notebooks and fallbacks == []


NO_TCP_WARNING = textwrap.dedent("""
    import nbformat
    from nbclient import NotebookClient
    from traitlets.config import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path="autograder").load_config()
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")])
    NotebookClient(notebook, kernel_name="python3", config=config).execute()
    print(notebook.cells[0].outputs[0]["text"].strip())
""")


@pytest.mark.slow
def test_plain_nbgrader_kernels_start_without_the_tcp_warning():
    """nbgrader's Execute starts python3 kernels over TCP: the course's configuration has the
    kernel manager give them CurveZMQ keys, so ipykernel has nothing to warn about."""
    run = subprocess.run(
        [sys.executable, "-c", NO_TCP_WARNING],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip() == "42"
    assert "without encryption" not in run.stderr, run.stderr


def test_an_outputs_metadata_reaches_a_page_as_numbers_only():
    """nbconvert writes an image's width into the page without quotes: as text it could add
    an attribute (``onload=``) in the Formgrader, which has no script policy of its own."""
    import nbformat
    from nbconvert import HTMLExporter

    from autograder.grading.safe_pages import plain_metadata

    hostile = {
        "image/png": {"width": "1 onload=alert(1)", "height": 40, "unconfined": True, "alt": "<b>"},
        "needs_background": "light",
        "scale": float("nan"),
    }
    assert plain_metadata(hostile) == {"image/png": {"height": 40, "unconfined": True}}

    def page(metadata: dict) -> str:
        output = nbformat.v4.new_output(
            "display_data", data={"image/png": "iVBORw0KGgo="}, metadata=metadata
        )
        cell = nbformat.v4.new_code_cell("x", outputs=[output])
        return HTMLExporter().from_notebook_node(nbformat.v4.new_notebook(cells=[cell]))[0]

    assert re.search(r"onload=\W?alert\(1\)", page(hostile))  # what the cleaning is for
    assert "onload" not in page(plain_metadata(hostile))


def test_text_a_page_cannot_render_is_shown_plain_and_the_page_is_written():
    """Found by a blind attacker: a reference to an attachment the cell does not hold stopped
    nbconvert, so the page, and with it the grade, was never written (an honest student can
    do it by deleting an image); and 2.3 MB of pathological Markdown cost 7 minutes."""
    import time

    import nbformat
    from nbconvert import HTMLExporter

    from autograder.grading.safe_pages import MAX_MARKDOWN, renderable

    bomb = "*a **b [c](" * 200_000
    notebook = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": "![gone](attachment:gone.png)"},
            {"cell_type": "markdown", "metadata": {}, "source": bomb},
            {"cell_type": "markdown", "metadata": {}, "source": "fine *text*"},
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    said = renderable(notebook)
    assert len(said) == 2 and "gone.png" in said[0] and "shown as plain text" in said[1]
    assert len(notebook["cells"][1]["source"]) < MAX_MARKDOWN + 1000
    assert notebook["cells"][2]["source"] == "fine *text*"
    started = time.perf_counter()
    page = HTMLExporter().from_notebook_node(nbformat.from_dict(notebook))[0]
    assert "missing attachment gone.png" in page and time.perf_counter() - started < 30


def test_a_worker_writes_the_course_text_once_and_every_page_the_same():
    """A worker renders each of the course's markdown cells, highlights each of its code cells
    and compiles each template once: the second page of the same notebook is the first, word
    for word, and a cell too long to keep, or one with attachments, is still rendered every
    time."""
    import nbformat
    from nbgrader.converters import GenerateFeedback

    def page(notebook) -> str:  # as nbgrader's generate_feedback configures the exporter
        exporter = feedback_page.FeedbackExporter(config=GenerateFeedback().config)
        grades = {"notebook": A, "score": 3.0, "max_score": 10.0, "late_penalty": 0}
        return exporter.from_notebook_node(notebook, resources={"nbgrader": grades})[0]

    notebook = nbformat.read(release_path(A), as_version=4)
    for cell in notebook.cells:  # the page of its text alone: no grades to show
        cell.metadata.pop("nbgrader", None)
    feedback_page._markdown_once.cache_clear()
    feedback_page._code_once.cache_clear()
    first = page(notebook)
    kept, code = feedback_page._markdown_once.cache_info(), feedback_page._code_once.cache_info()
    assert kept.currsize > 10 and code.currsize > 10 and feedback_page.COMPILED_TEMPLATES.kept
    second = page(notebook)
    assert second == first
    assert feedback_page._markdown_once.cache_info().hits >= kept.currsize
    assert feedback_page._code_once.cache_info().hits >= code.currsize

    long = "*word* " * (feedback_page.KEPT_CHARS // 7 + 1)
    notebook.cells = [nbformat.v4.new_markdown_cell(long)]
    feedback_page._markdown_once.cache_clear()
    assert "<em>word</em>" in page(notebook)
    assert feedback_page._markdown_once.cache_info().currsize == 0


def test_the_page_is_the_document_nbconvert_writes_without_parsing_it_again():
    """The exporter skips nbconvert's BeautifulSoup pass over the whole page (two thirds of a
    page's time) and gives images their alt text itself: read by a parser, its page is the
    document nbconvert's own pass writes, down to which images got the default text."""
    import nbformat
    from bs4 import BeautifulSoup
    from nbconvert import HTMLExporter
    from nbgrader.converters import GenerateFeedback

    pixel = "iVBORw0KGgo="
    html = f'<p>a <img src="data:image/png;base64,{pixel}"><IMG ALT="kept" src="x.png"/></p>'
    plot = nbformat.v4.new_output("display_data", data={"image/png": pixel})
    shown = nbformat.v4.new_output("display_data", data={"text/html": html})
    notebook = nbformat.read(release_path(A), as_version=4)
    for cell in notebook.cells:
        cell.metadata.pop("nbgrader", None)
    notebook.cells[:0] = [
        nbformat.v4.new_markdown_cell(
            f'![a plot](data:image/png;base64,{pixel}) <img src="y.png">'
        ),
        nbformat.v4.new_markdown_cell("<style>p::after { content: '<img src=z.png>' }</style>"),
        nbformat.v4.new_code_cell("plot()", outputs=[plot, shown]),
    ]
    exporter = feedback_page.FeedbackExporter(config=GenerateFeedback().config)
    grades = {"nbgrader": {"notebook": A, "score": 3.0, "max_score": 10.0, "late_penalty": 0}}
    ours = exporter.from_notebook_node(notebook, resources=dict(grades))[0]
    theirs = HTMLExporter.from_notebook_node(exporter, notebook, resources=dict(grades))[0]

    def document(page: str) -> str:
        return str(BeautifulSoup(page, features="html.parser"))

    assert document(ours) == document(theirs)
    assert ours.count(feedback_page.NO_ALT) == theirs.count(feedback_page.NO_ALT) >= 3
    assert 'alt="kept"' in ours.replace("ALT", "alt")
