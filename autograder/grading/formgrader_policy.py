"""A script policy for Formgrader's pages: only nbgrader's own scripts run there.

Formgrader (nbgrader's server extension) shows a student's notebook inside the instructor's
logged-in Jupyter session, and sends no script policy of its own: its templates carry inline
scripts and ``onclick`` handlers. This server extension adds a Content-Security-Policy to every
HTML page under ``/formgrader``: scripts from Formgrader's own static folder, plus the SHA-256
hashes of exactly those inline scripts and handlers that nbgrader's installed templates hold,
read at start-up. Where a template writes a value into a script (``var base_url = "{{ base_url
}}";``), the page's script is allowed only if the value is made of characters that cannot end
the string (letters, digits, ``/.:_-%+@~``). A script that a student's notebook brings has no
hash, wherever it sits on the page, so it does not run; ``'unsafe-inline'`` never appears.

It is a second wall: the grader already cleans what a notebook shows (safe_pages.py). Enabled
for ``make instructor`` by autograder/jupyter_server_config.json and on a hub by
deploy/hub/instructor/jupyter_server_config.json.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import cache
from pathlib import Path

from tornado.web import OutputTransform

SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.IGNORECASE | re.DOTALL)
HANDLER = re.compile(r"""\son[a-z]+="([^"]*)\"""", re.IGNORECASE)
TEMPLATE_VALUE = re.compile(r"\{\{.*?\}\}", re.DOTALL)
SAFE_VALUE = r"[A-Za-z0-9/.:_%+@~-]*"  # no quote, backslash or angle bracket: stays a string
MATHJAX = "https://cdnjs.cloudflare.com/ajax/libs/mathjax/"  # nbconvert's default, math only


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def templates_folder() -> Path:
    import nbgrader.server_extensions.formgrader as formgrader

    return Path(formgrader.__file__).parent / "templates"


@cache
def template_scripts(folder: Path | None = None) -> tuple[list[re.Pattern], set[str]]:
    """nbgrader's own inline scripts, as patterns (a template value: a string of safe
    characters), and the hashes of its inline event handlers. Scripts with template logic
    (``{% ... %}``) have no pattern: they would not run (tests/test_formgrader_policy.py)."""
    scripts: list[re.Pattern] = []
    handlers: set[str] = set()
    for template in sorted((folder or templates_folder()).rglob("*")):
        if template.suffix not in (".tpl", ".j2"):
            continue
        text = template.read_text(encoding="utf-8")
        for attributes, body in SCRIPT.findall(text):
            if "src=" not in attributes and "{%" not in body:
                parts = TEMPLATE_VALUE.split(body)
                scripts.append(re.compile(SAFE_VALUE.join(map(re.escape, parts))))
        handlers.update(sha256(h) for h in HANDLER.findall(text) if "{" not in h)
    return scripts, handlers


def policy(page: str, static_source: str) -> str:
    """The Content-Security-Policy for one of Formgrader's HTML pages."""
    scripts, handlers = template_scripts()
    allowed = {
        sha256(body)
        for _, body in SCRIPT.findall(page)
        if any(pattern.fullmatch(body) for pattern in scripts)
    }
    sources = [static_source, MATHJAX, *sorted(allowed)]
    if handlers:
        sources += ["'unsafe-hashes'", *sorted(handlers)]
    return f"script-src {' '.join(sources)}; object-src 'none'; base-uri 'none'"


class FormgraderPolicy(OutputTransform):
    """Adds the policy to HTML responses under ``<base_url>formgrader``; others pass as they are.
    A page sent in several pieces gets hashes for its first piece only: the rest cannot run."""

    base_url = "/"

    def __init__(self, request):
        super().__init__(request)
        self.request = request

    def transform_first_chunk(self, status_code, headers, chunk, finishing):
        html = headers.get("Content-Type", "").startswith("text/html")
        if html and self.request.path.startswith(self.base_url + "formgrader"):
            origin = f"{self.request.protocol}://{self.request.host}"
            static = f"{origin}{self.base_url}formgrader/static/"
            page = chunk.decode("utf-8", errors="replace")
            headers.add("Content-Security-Policy", policy(page, static))  # beside any other
        return status_code, headers, chunk


def _jupyter_server_extension_points():
    return [{"module": "autograder.grading.formgrader_policy"}]


def _load_jupyter_server_extension(serverapp) -> None:
    transform = type("FormgraderPolicy", (FormgraderPolicy,), {"base_url": serverapp.base_url})
    serverapp.web_app.transforms.insert(0, transform)  # before compression: reads the page
    serverapp.log.info("Formgrader's pages carry a script policy (%s)", __name__)
