"""The feedback page a student gets back, readable offline.

nbgrader's ``generate_feedback`` writes each page with an HTML exporter and its ``feedback``
template, which loads MathJax from a CDN: offline, ``$\\sqrt{d_k}$`` stays raw TeX. The course's
configuration (``autograder/nbgrader_config.py``) makes nbgrader use :class:`FeedbackExporter`
instead, which changes four things and keeps the rest of nbgrader's page:

- maths in markdown is rendered to MathML when the page is written (``latex2mathml``, a
  grading-only dependency); browsers draw MathML themselves, and the page loads no script.
  TeX that does not convert, or a missing ``latex2mathml``, shows as its TeX source;
- output text wraps instead of running off the page (the checks' long diagnoses);
- the table of contents names exercises ("Exercise 3 · softmax", from the check cell's
  ``Checks(...)`` line) instead of nbgrader's "Test cell";
- an answer left as released gets no "Comment: No response." (its check cell says so).

It also writes the page without nbconvert's last pass over it, which parses the whole page
with BeautifulSoup and writes it out again (two thirds of the time a page takes) to give images
a default alt text and the lab template's cells a ``tabindex``: this template has no such cells,
and the alt text is added where html.parser finds an image without one (``described_images``).

The template lives in ``autograder/grading/feedback_template/course_feedback/`` and extends
nbgrader's own.
"""

from __future__ import annotations

import copy
import functools
import html
import logging
import re
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import nbgrader
from jinja2 import BytecodeCache, pass_context
from nbconvert.exporters import HTMLExporter, TemplateExporter
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath
from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter
from traitlets.config import Config

from autograder.grading.safe_pages import clean_html
from course_checks.selfcheck import check_cell_exercise

TEMPLATES = Path(__file__).resolve().parent / "feedback_template"
NBGRADER_TEMPLATES = Path(nbgrader.__file__).parent / "server_extensions/formgrader/templates"

# MathML elements with a fixed number of children: latex2mathml writes fewer (or more) when
# it misreads the TeX (``\frac{1}``) instead of raising.
ARITY = {
    "mfrac": 2,
    "mroot": 2,
    "msub": 2,
    "msup": 2,
    "msubsup": 3,
    "munder": 2,
    "mover": 2,
    "munderover": 3,
}
TEXT = re.compile(r"\\text\{[^{}]*\}")
# What nbgrader's SaveAutoGrades writes as the comment of an answer cell left as released.
NO_RESPONSE = "No response."

# What nbconvert's HTMLExporter writes as the alt text of an image that has none.
NO_ALT = "No description has been provided for this image"

log = logging.getLogger(__name__)


@functools.cache
def _converter():
    try:
        from latex2mathml.converter import convert
    except ImportError:
        log.warning("latex2mathml is not installed: feedback pages show maths as TeX source")
        return None
    return convert


def _unescape_text(tex: str) -> str:
    """``\\text{seq\\_len}`` as ``\\text{seq_len}``: latex2mathml keeps text mode's escapes."""
    return TEXT.sub(lambda text: re.sub(r"\\([_%$&#])", r"\1", text[0]), tex)


def _readable(element: ElementTree.Element) -> bool:
    for node in element.iter():
        name = node.tag.rsplit("}", 1)[-1]
        if name in ARITY and len(node) != ARITY[name]:
            return False
        if "\\" in (node.text or ""):  # a command it did not know, left as text
            return False
    return True


def mathml(tex: str, display: bool = False) -> str:
    """``tex`` as a MathML element, or as its TeX source where it does not convert."""
    if convert := _converter():
        try:
            converted = convert(_unescape_text(tex), display="block" if display else "inline")
            if _readable(ElementTree.fromstring(converted)):
                return converted
        except Exception:  # noqa: BLE001 - TeX it cannot read shows as its source: the page is still written
            pass
    delimiter = "$$" if display else "$"
    shown = html.escape(f"{delimiter}{tex.strip()}{delimiter}", quote=False)
    return f'<code class="tex{" tex-display" if display else ""}">{shown}</code>'


class MathMLRenderer(IPythonRenderer):
    """nbconvert's markdown renderer, with maths written as MathML instead of left as TeX
    for MathJax to find in the browser."""

    def block_math(self, body: str) -> str:
        return mathml(body, display=True)

    def inline_math(self, body: str) -> str:
        return mathml(body)

    def latex_environment(self, name: str, body: str) -> str:
        return mathml(f"\\begin{{{name}}}{body}\\end{{{name}}}", display=True)


def toc_label(cell) -> str:
    """What the table of contents calls a graded cell."""
    meta = cell.metadata.nbgrader
    if meta.get("grade") and not meta.get("solution"):
        # "Exercise 3 · softmax"; the grade id where the cell has no Checks(...) line
        found = check_cell_exercise(cell)
        assert found is not None  # a graded cell that is no answer is a code cell: checks
        return found[0]
    if meta.get("task"):
        return "Task"
    return "Coding free-response" if cell.cell_type == "code" else "Written response"


class _CompiledTemplates(BytecodeCache):
    """The course's templates compiled once per process, not once per page: a worker writes
    every student's page from the same files (a quarter of a second a page). Jinja checks each
    file's checksum before it uses what was kept."""

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        if bucket.key in self.kept:
            bucket.bytecode_from_string(self.kept[bucket.key])

    def dump_bytecode(self, bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = _CompiledTemplates()


def _markdown_html(source: str, path: str, options: tuple, attachments: dict | None = None) -> str:
    """One markdown cell as clean HTML, maths as MathML; ``options`` are the exporter's
    (embed_images, anchor_link_text, exclude_anchor_links, lexer_options as items)."""
    embed_images, anchor_link_text, exclude_anchor_links, lexer_options = options
    renderer = MathMLRenderer(
        escape=False,
        attachments=attachments or {},
        embed_images=embed_images,
        path=path,
        anchor_link_text=anchor_link_text,
        exclude_anchor_links=exclude_anchor_links,
        **dict(lexer_options),
    )
    return clean_html(MarkdownWithMath(renderer=renderer).render(source))


# Most markdown cells are the course's own, the same in every student's notebook: a worker
# renders each once. A cell with attachments, or longer than the course writes, is rendered
# every time, so a student's text cannot fill the worker's memory.
_markdown_once = functools.lru_cache(maxsize=1024)(_markdown_html)
KEPT_CHARS = 20_000


def _code_html(source: str, lexer: str | None, language: str | None, magics: str | None) -> str:
    """One code cell highlighted as nbconvert's ``highlight_code`` filter does."""
    metadata = {"magics_language": magics} if magics else None
    return Highlight2HTML(pygments_lexer=lexer)(source, language, metadata)


_code_once = functools.lru_cache(maxsize=1024)(_code_html)


def _highlighted(lexer: str | None, source: str, language=None, metadata=None) -> str:
    """The ``highlight_code`` filter: the course's code cells, the same on every page, are
    highlighted once a worker, as its markdown is rendered once."""
    magics = (metadata or {}).get("magics_language")
    highlight = _code_once if len(source) <= KEPT_CHARS else _code_html
    return highlight(source, lexer, language, magics)


class _ImagesWithoutAlt(HTMLParser):
    """The (line, column) where each ``<img>`` without an ``alt`` attribute starts, read by
    html.parser as nbconvert's own pass reads the page (a ``<style>``'s text is no tag)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.found: list[tuple[int, int]] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "img" and all(name != "alt" for name, _ in attrs):
            self.found.append(self.getpos())


def described_images(page: str) -> str:
    """``page`` with nbconvert's default alt text on every image that has none."""
    parser = _ImagesWithoutAlt()
    parser.feed(page)
    parser.close()
    line_starts = [0, *(newline.end() for newline in re.finditer("\n", page))]
    # found in the page's order: the text between the images, joined by the alt text
    cuts = [line_starts[line - 1] + column + len("<img") for line, column in parser.found]
    return f' alt="{NO_ALT}"'.join(
        page[start:end] for start, end in zip([0, *cuts], [*cuts, len(page)], strict=True)
    )


class FeedbackExporter(HTMLExporter):
    """nbgrader's feedback exporter (an HTMLExporter with its ``feedback`` template), through
    the course's template ``course_feedback``, which extends nbgrader's."""

    def __init__(self, config: Config | None = None, **kwargs):
        # nbgrader's GenerateFeedback configures HTMLExporter for its own template; a
        # FeedbackExporter section comes first for this class.
        config = copy.deepcopy(config) if config else Config()
        config.FeedbackExporter.template_name = "course_feedback"
        # The course's cleaning of HTML outputs, without the Formgrader's markdown filter:
        # this exporter renders markdown itself (maths as MathML), and cleans it too.
        config.FeedbackExporter.filters = {"clean_html": "autograder.grading.safe_pages.clean_html"}
        config.FeedbackExporter.extra_template_basedirs = [str(TEMPLATES)]
        paths = config.HTMLExporter.get("extra_template_paths", [])
        config.FeedbackExporter.extra_template_paths = [*paths, str(NBGRADER_TEMPLATES)]
        super().__init__(config=config, **kwargs)

    def from_notebook_node(self, nb, resources=None, **kw):
        """HTMLExporter's page, without its BeautifulSoup pass (the module's docstring)."""
        language = nb.metadata.get("language_info", {})
        lexer = language.get("pygments_lexer", language.get("name", None))
        highlight = self.filters.get("highlight_code") or functools.partial(_highlighted, lexer)
        resources = self._init_resources(resources)
        widgets = WidgetsDataTypeFilter(
            notebook_metadata=self._nb_metadata, parent=self, resources=resources
        )
        self.register_filter("highlight_code", highlight)
        self.register_filter("filter_data_type", widgets)
        page, resources = TemplateExporter.from_notebook_node(self, nb, resources, **kw)
        return described_images(page), resources

    def _create_environment(self):
        environment = super()._create_environment()
        environment.bytecode_cache = COMPILED_TEMPLATES
        return environment

    def default_filters(self):
        yield from super().default_filters()
        yield ("toc_label", toc_label)

    def _preprocess(self, nb, resources):
        """nbgrader's preprocessors (its GetGrades adds the comments), then no automatic
        "No response." under an answer left as released: the check cell below already says
        "not attempted yet", and the contents would list an empty "Comment" for it. A
        grader's own comment stays."""
        nb, resources = super()._preprocess(nb, resources)
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("comment") == NO_RESPONSE:
                del meta["comment"]
        return nb, resources

    @pass_context
    def markdown2html(self, context, source):
        """HTMLExporter.markdown2html, with :class:`MathMLRenderer`."""
        attachments = context.get("cell", {}).get("attachments")
        path = context.get("resources", {}).get("metadata", {}).get("path", "")
        options = (
            self.embed_images,
            self.anchor_link_text,
            self.exclude_anchor_links,
            tuple(sorted(self.lexer_options.items())),
        )
        if attachments or len(source) > KEPT_CHARS:
            return _markdown_html(source, path, options, attachments)
        # the path is read only to embed images; it differs for every job
        return _markdown_once(source, path if self.embed_images else "", options)
