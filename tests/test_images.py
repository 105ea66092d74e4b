"""Figures: drawn by images/make_images.py, embedded in the notebooks, and every one resolves.

A notebook shows a figure as a cell attachment (``![...](attachment:name.png)``), filled by
``make release`` from ``images/``. A link to a file would break where the notebook travels
alone: in the copy nbgrader hands out (assignments carry only ``*.ipynb``) and on Colab.
The one online image is Colab's "Open in Colab" badge, a link that only works online
anyway: offline it shows its text.
"""

from __future__ import annotations

import base64
import json
import re
import sys

import matplotlib.image
import pytest
from conftest import ALL_NOTEBOOKS, REPO, load

from autograder.releases.sync_notebooks import COLAB_BADGE

sys.path.insert(0, str(REPO / "images"))
import make_images

# Markdown images, HTML <img> tags, and code that reads a picture file.
MARKDOWN_IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)")
HTML_IMAGE = re.compile(r"<img[^>]+src=[\"']([^\"']+)")
FILE_IN_CODE = re.compile(r"[\"']([^\"'\s]+\.(?:png|jpe?g|gif|svg))[\"']")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def unresolved(path) -> list[str]:
    """Every picture the notebook at ``path`` shows that would not render where it travels."""
    problems = []
    for number, cell in enumerate(load(path)["cells"]):
        text = "".join(cell["source"])
        where = f"{path.name} cell {number}"
        if cell["cell_type"] == "code":
            problems += [f"{where} reads {f}: embed it instead" for f in FILE_IN_CODE.findall(text)]
            continue
        attachments = cell.get("attachments", {})
        links = MARKDOWN_IMAGE.findall(text) + HTML_IMAGE.findall(text)
        for link in links:
            if link.startswith("data:image/") or link == COLAB_BADGE:
                continue
            if not link.startswith("attachment:"):
                problems.append(f"{where} links {link}, which is not carried with the notebook")
                continue
            name = link.removeprefix("attachment:")
            png = attachments.get(name, {}).get("image/png")
            if not png:
                problems.append(f"{where} shows attachment {name}, which it does not carry")
            elif not base64.b64decode(png).startswith(PNG_SIGNATURE):
                problems.append(f"{where}: attachment {name} is not a PNG")
        for name in set(attachments) - {link.removeprefix("attachment:") for link in links}:
            problems.append(f"{where} carries attachment {name} but never shows it")
    return problems


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_figure_a_notebook_shows_travels_with_it(path):
    assert unresolved(path) == []


@pytest.mark.parametrize("path", ALL_NOTEBOOKS, ids=lambda p: str(p.relative_to(REPO)))
def test_embedded_figures_are_the_committed_ones(path):
    for cell in load(path)["cells"]:
        for name, data in cell.get("attachments", {}).items():
            figure = REPO / "images" / name
            assert name in make_images.FIGURES, f"{name}: not drawn by images/make_images.py"
            assert base64.b64decode(data["image/png"]) == figure.read_bytes(), (
                f"{path.name}: {name} differs from images/{name}; run `make release`"
            )


def test_the_check_catches_links_that_would_break(tmp_path):
    cell = {"cell_type": "markdown", "metadata": {}}
    broken = {
        "nbformat": 4,
        "cells": [
            {**cell, "source": "![a figure](../../images/soft_lookup.png)"},
            {**cell, "source": '<img src="figure.png">'},
            {**cell, "source": "![a figure](attachment:missing.png)"},
            {"cell_type": "code", "source": "plt.imread('../../images/soft_lookup.png')"},
        ],
    }
    path = tmp_path / "notebook.ipynb"
    path.write_text(json.dumps(broken))
    problems = unresolved(path)
    assert len(problems) == 4, problems


def test_images_holds_only_the_script_and_what_it_draws(tmp_path):
    committed = {p.name for p in (REPO / "images").iterdir() if p.is_file()}
    assert committed == set(make_images.FIGURES) | {"make_images.py"}
    make_images.main(tmp_path)
    for name in make_images.FIGURES:
        fresh = matplotlib.image.imread(tmp_path / name)
        assert fresh.shape == matplotlib.image.imread(REPO / "images" / name).shape
