"""Figures: drawn by images/make_images.py, and every reference to one resolves."""

from __future__ import annotations

import re
import sys

import matplotlib.image
import pytest
from conftest import REPO, load, release_path, solution_path

sys.path.insert(0, str(REPO / "images"))
import make_images  # noqa: E402

IMAGE_LINK = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)|<img[^>]+src=\"([^\"]+)\"")


def image_links(notebook: dict) -> list[str]:
    text = "\n".join(
        "".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown"
    )
    return [a or b for a, b in IMAGE_LINK.findall(text)]


@pytest.mark.parametrize("which", [solution_path, release_path])
def test_every_image_a_notebook_shows_exists(assignment, which):
    path = which(assignment)
    for link in image_links(load(path)):
        assert not link.startswith(("http:", "https:")), f"{link}: figures ship with the course"
        target = (path.parent / link).resolve()
        assert target.is_file(), f"{path.name} shows {link}, which does not exist"
        assert target.parent == REPO / "images", f"{link}: figures live in images/"


def test_the_script_draws_every_committed_figure(tmp_path):
    committed = {p.name for p in (REPO / "images").glob("*.png")}
    assert committed == set(make_images.FIGURES)
    make_images.main(tmp_path)
    for name in committed:
        fresh = matplotlib.image.imread(tmp_path / name)
        assert fresh.shape == matplotlib.image.imread(REPO / "images" / name).shape
