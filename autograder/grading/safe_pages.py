"""Pages that cannot run code: the HTML of a student's notebook, cleaned by an allow-list.

A student writes the markdown and produces the outputs that feedback pages and nbgrader's
Formgrader show, so both are hostile input to whoever reads them: ``<script>``, event
handlers (``<img onerror>``), ``<iframe srcdoc>``, ``javascript:`` links, SVG with script,
``display(Javascript(...))``. The course's nbgrader configuration turns on nbconvert's
``sanitize_html`` for every HTML page it writes (feedback, and the Formgrader in the
instructor's own Jupyter session): JavaScript outputs and widgets are dropped, and markdown
and HTML outputs pass through :func:`clean_html` here, which keeps what the course's pages
use (text, tables, code, images as data, links, MathML for the maths) and escapes the rest.
Outputs' metadata keeps numbers and truth values only (:func:`plain_metadata`): nbconvert's
templates write an image's ``width`` into the page unquoted. Feedback pages also carry a
Content-Security-Policy that forbids every script
(``autograder/grading/feedback_template``), so even a hole in the cleaning runs nothing.
"""

from __future__ import annotations

import html
import math
import re

import bleach
from jinja2 import pass_context
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

from autograder.cells import source

TAGS = {
    # text and structure
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "caption",
    "code",
    "dd",
    "del",
    "details",
    "div",
    "dl",
    "dt",
    "em",
    "figcaption",
    "figure",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "img",
    "ins",
    "kbd",
    "li",
    "mark",
    "ol",
    "p",
    "pre",
    "s",
    "samp",
    "small",
    "span",
    "strong",
    "sub",
    "summary",
    "sup",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "tr",
    "u",
    "ul",
    "var",
    # MathML, as latex2mathml writes the course's maths
    "math",
    "annotation",
    "semantics",
    "menclose",
    "merror",
    "mfenced",
    "mfrac",
    "mi",
    "mn",
    "mo",
    "mover",
    "mpadded",
    "mphantom",
    "mroot",
    "mrow",
    "ms",
    "mspace",
    "msqrt",
    "mstyle",
    "msub",
    "msubsup",
    "msup",
    "mtable",
    "mtd",
    "mtext",
    "mtr",
    "munder",
    "munderover",
}
MATHML_ATTRIBUTES = [
    "display",
    "mathvariant",
    "stretchy",
    "fence",
    "separator",
    "accent",
    "accentunder",
    "lspace",
    "rspace",
    "minsize",
    "maxsize",
    "movablelimits",
    "columnalign",
    "rowspacing",
    "columnspacing",
    "displaystyle",
    "scriptlevel",
    "width",
    "height",
    "depth",
    "linethickness",
    "encoding",
    "xmlns",
    "notation",
    "open",
    "close",
    "separators",
    "form",
]
IMAGE = re.compile(r"data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*\Z")
LINK = re.compile(r"(https?:|mailto:|#)", re.I)


def _allowed(tag: str, name: str, value: str) -> bool:
    """Which attributes survive: never an event handler or a style, URLs of safe kinds only."""
    if name in ("class", "id", "title", "align", "colspan", "rowspan", "alt", "open"):
        return True
    if tag == "a" and name == "href":
        return bool(LINK.match(value.strip()))
    if tag == "img" and name == "src":
        return bool(IMAGE.match(value.strip()))
    if tag == "img" and name in ("width", "height"):
        return value.isdigit()
    return tag in TAGS and tag.startswith("m") and name in MATHML_ATTRIBUTES


def clean_html(html) -> str:
    """``html`` with only allowed tags and attributes; anything else is escaped, so a reader
    sees the text of a ``<script>`` instead of running it."""
    text = html.decode() if isinstance(html, bytes) else str(html)
    return bleach.clean(
        text, tags=TAGS, attributes=_allowed, protocols=["http", "https", "mailto", "data"]
    )


@pass_context
def markdown2html(context, source: str) -> str:
    """nbconvert's markdown rendering (the cell's attachments as images, maths left as TeX
    for the page's renderer), cleaned: what nbgrader's Formgrader shows of student markdown,
    whose template does not clean it."""
    cell = context.get("cell", {})
    renderer = IPythonRenderer(escape=False, attachments=cell.get("attachments", {}))
    return clean_html(MarkdownWithMath(renderer=renderer).render(source))


def plain_metadata(metadata: dict) -> dict:
    """An output's metadata with numbers and truth values only, at the top and per MIME type
    (``{"image/png": {"width": 320}}``): what a page writes of it into HTML attributes
    cannot be text (``"1 onerror=..."``)."""

    def plain(value) -> bool:
        return isinstance(value, bool) or (isinstance(value, (int, float)) and math.isfinite(value))

    clean = {}
    for key, value in (metadata or {}).items():
        if isinstance(value, dict):
            clean[key] = {k: v for k, v in value.items() if isinstance(k, str) and plain(v)}
        elif plain(value):
            clean[key] = value
    return clean


MAX_MARKDOWN = 20_000  # characters of one text cell rendered as Markdown; longer is shown plain
MAX_TEXT = 200_000  # characters of a notebook's text rendered in all (the course's most: 36,000)
ATTACHMENT = re.compile(r"attachment:([^\s)\"'>]+)")


def renderable(notebook: dict) -> list[str]:
    """Make the student's text cells safe to render, and say what changed: a reference to an
    attachment the cell does not hold (nbconvert stops the whole page on it) becomes its
    text, and a text cell too long to render in bounded time is shown as plain text."""
    said, budget = [], MAX_TEXT
    for number, cell in enumerate(notebook.get("cells", []), start=1):
        if cell.get("cell_type") != "markdown":
            continue
        text = source(cell) if isinstance(cell.get("source"), list) else str(cell.get("source", ""))
        held = cell.get("attachments") or {}
        missing = sorted({m for m in ATTACHMENT.findall(text) if m not in held})
        if missing:
            text = ATTACHMENT.sub(
                # mypy infers no lambda with a default (held=held: this cell's attachments)
                lambda m, held=held: (  # type: ignore[misc]
                    m.group(0) if m.group(1) in held else f"(missing attachment {m.group(1)})"
                ),
                text,
            )
            said.append(
                f"text cell {number} refers to attachments it does not hold "
                f"({', '.join(missing[:3])}): shown as text"
            )
        if len(text) > MAX_MARKDOWN or budget < len(text):
            kept = text[: max(0, min(MAX_MARKDOWN, budget))]
            text = "<pre>" + html.escape(kept) + "\n[cut]</pre>" if kept else "[not shown]"
            said.append(
                f"text cell {number} is longer than the pages render "
                f"({MAX_MARKDOWN:,} characters a cell, {MAX_TEXT:,} a notebook): "
                "shown as plain text, cut"
            )
        budget -= len(text)
        cell["source"] = text
    return said
